/**
 * Integer normal forms end to end, through MCP on the real `jacobian` command: the Hermite and
 * Smith normal forms of an integer matrix stored by matrix.construct.explicit, their transforms
 * multiplied out here, the checker verifying the producers' stored claims and rejecting a
 * tampered one, a claim without transforms refused, and a rational matrix refused naming the rule.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { ARTIFACT_URI, mathFind, mathRun } from '../support/tools.js';

let jacobian: JacobianFixture;
let connection: Connection;

beforeAll(async () => {
  jacobian = await startJacobian();
  connection = await jacobian.connect({ transport: 'http', era: 'modern' });
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await connection?.close();
  await jacobian?.close();
}, HOOK_TIMEOUT_MS);

/** The test's own integer product. */
function multiply(A: readonly (readonly (string | number)[])[], B: readonly (readonly (string | number)[])[]): string[][] {
  return A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => s + BigInt(a) * BigInt((B[k] as (string | number)[])[j] as string | number), 0n).toString()));
}

async function run<O>(capabilityId: string, payload: Record<string, unknown>): Promise<O> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode: 'EXPLORE', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(result.assurance.level).toBe('COMPUTED');
  return result.output as O;
}

async function verify(payload: Record<string, unknown>): Promise<{ level: string; verdict: string; reason: string | null }> {
  const { result } = await mathRun(connection.client, { capability_id: 'matrix.normal_form.verify', mode: 'VERIFY', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  const output = result.output as { verdict: string; reason_code: string | null; verification_record_uri: string | null };
  if (output.verdict === 'ACCEPTED') expect(output.verification_record_uri).toMatch(ARTIFACT_URI);
  return { level: result.assurance.level, verdict: output.verdict, reason: output.reason_code };
}

describe('integer normal forms through MCP', () => {
  it('lists the producers on PARI/GP where gp is installed (our TypeScript provider otherwise) and the checker on the checker\'s', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const producer = ['/usr/bin/gp', '/usr/local/bin/gp'].some((file) => existsSync(file)) ? 'pari-gp' : 'jacobian-linear-algebra-ts';
    for (const [id, provider] of [
      ['matrix.hermite_normal_form.compute', producer],
      ['matrix.smith_normal_form.compute', producer],
      ['matrix.normal_form.verify', 'jacobian-checker-ts'],
    ] as const) {
      const inspected = await mathFind(connection.client, { capability_id: id, view: 'CONTRACT' });
      expect((inspected.response.capability as { provider: { name: string } } | null)?.provider.name, id).toBe(provider);
    }
  });

  it('computes HNF and SNF of a stored integer matrix with transforms that multiply out, and the checker verifies them', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const A = [[4, 6, 2, 8], [2, 9, 4, 1], [6, 15, 6, 9]];
    const stored = await run<{ matrix_uri: string }>('matrix.construct.explicit', { ring: { kind: 'Z' }, rows: A });
    const hermite = await run<{ hnf: string[][]; rank: number; pivot_columns: number[]; left_transform: string[][]; result_uri: string }>('matrix.hermite_normal_form.compute', { matrix_uri: stored.matrix_uri, transforms: true });
    // Row 2 = row 0 + row 1: rank 2.
    expect(hermite).toMatchObject({ rank: 2, pivot_columns: [0, 1] });
    expect(multiply(hermite.left_transform, A)).toEqual(hermite.hnf);
    expect(hermite.hnf[2]).toEqual(['0', '0', '0', '0']);
    expect(await verify({ result_uri: hermite.result_uri })).toEqual({ level: 'VERIFIED', verdict: 'ACCEPTED', reason: null });

    const smith = await run<{ diagonal: string[]; cokernel: { structure: string }; left_transform: string[][]; right_transform: string[][]; result_uri: string }>('matrix.smith_normal_form.compute', { matrix_uri: stored.matrix_uri, transforms: true });
    const D = multiply(multiply(smith.left_transform, A), smith.right_transform);
    expect(D).toEqual(A.map((row, i) => row.map((_, j) => (i === j ? (smith.diagonal[i] as string) : '0'))));
    expect(smith.diagonal[2]).toBe('0');
    expect(smith.cokernel.structure).toMatch(/Z$/);
    expect(await verify({ result_uri: smith.result_uri })).toEqual({ level: 'VERIFIED', verdict: 'ACCEPTED', reason: null });

    // U with one row doubled (and H with it): the product still holds, but U is not unimodular.
    const doubled = { matrix: { ring: { kind: 'Z' }, rows: A }, form: 'HERMITE', hnf: hermite.hnf.map((row, i) => (i === 2 ? row : row.map((x) => (i === 1 ? (2n * BigInt(x)).toString() : x)))), left_transform: hermite.left_transform.map((row, i) => (i === 1 ? row.map((x) => (2n * BigInt(x)).toString()) : row)) };
    expect(await verify({ claim: doubled })).toEqual({ level: 'COMPUTED', verdict: 'REJECTED', reason: 'NOT_UNIMODULAR' });
  });

  it('refuses a claim without transforms and a rational matrix, naming the rule', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const noTransform = await mathRun(connection.client, { capability_id: 'matrix.normal_form.verify', mode: 'VERIFY', payload: { claim: { matrix: { ring: { kind: 'Z' }, rows: [[2]] }, form: 'SMITH', diagonal: ['2'] } } });
    expect(noTransform.result.execution.status).toBe('ERROR');
    expect(noTransform.result.diagnostics[0]?.message).toMatch(/transforms-required/);
    const rational = await mathRun(connection.client, { capability_id: 'matrix.smith_normal_form.compute', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Q' }, rows: [[1, '1/2']] } } });
    expect(rational.result.execution.status).toBe('ERROR');
    expect(rational.result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix', 'ring'] });
    expect(rational.result.diagnostics[0]?.message).toMatch(/integer-matrix/);
  });
});
