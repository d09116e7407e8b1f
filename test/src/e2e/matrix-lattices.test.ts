/**
 * Lattices end to end, through MCP on the real `jacobian` command: LLL reduction of a stored
 * basis with its transform multiplied out here and the stored claim verified by the checker,
 * tampered claims rejected (a non-unimodular U, a basis that is not size-reduced), dependent
 * generators, δ out of range refused naming the rule, the Hermite basis of a lattice and the
 * index of a sublattice with a witness when it is not one.
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
  const { result } = await mathRun(connection.client, { capability_id: 'lattice.basis.verify', mode: 'VERIFY', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  const output = result.output as { verdict: string; reason_code: string | null; verification_record_uri: string | null };
  if (output.verdict === 'ACCEPTED') expect(output.verification_record_uri).toMatch(ARTIFACT_URI);
  return { level: result.assurance.level, verdict: output.verdict, reason: output.reason_code };
}

type Reduced = { reduced: string[][]; transform: string[][]; rank: number; delta: string; shortest_vector: string[]; dependent_generators: boolean; result_uri: string };

describe('lattices through MCP', () => {
  it('lists LLL on PARI/GP where gp is installed, the other producers on our TypeScript provider and the checker on the checker\'s, and finds LLL by its name', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const gpInstalled = ['/usr/bin/gp', '/usr/local/bin/gp'].some((file) => existsSync(file));
    for (const [id, provider] of [
      ['lattice.basis.reduce', gpInstalled ? 'pari-gp' : 'jacobian-linear-algebra-ts'],
      ['lattice.hermite_normal_form.compute', 'jacobian-linear-algebra-ts'],
      ['lattice.sublattice_index.compute', 'jacobian-linear-algebra-ts'],
      ['lattice.basis.verify', 'jacobian-checker-ts'],
    ] as const) {
      const inspected = await mathFind(connection.client, { capability_id: id, view: 'CONTRACT' });
      expect((inspected.response.capability as { provider: { name: string } } | null)?.provider.name, id).toBe(provider);
    }
    const found = await mathFind(connection.client, { query: 'LLL lattice reduction short vector', limit: 3 });
    expect(found.response.matches.map((m) => m['capability_id'])).toContain('lattice.basis.reduce');
  });

  it('LLL-reduces a stored basis with δ = 0.99: U B = B′ here, the stored claim verified; tampered claims rejected', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    // e_i | 10^6·a_i for a = (31415, 27182, 14142, 17320): short vectors with last entry 0 are relations.
    const a = [31415n, 27182n, 14142n, 17320n];
    const B = a.map((x, i) => [...a.map((_, j) => (i === j ? '1' : '0')), (x * 10n ** 6n).toString()]);
    const stored = await run<{ matrix_uri: string }>('matrix.construct.explicit', { ring: { kind: 'Z' }, rows: B });
    const lll = await run<Reduced>('lattice.basis.reduce', { matrix_uri: stored.matrix_uri, delta: '0.99' });
    expect(lll).toMatchObject({ rank: 4, delta: '99/100', dependent_generators: false });
    expect(multiply(lll.transform, B)).toEqual(lll.reduced);
    const v = lll.shortest_vector.map(BigInt);
    expect(v[4]).toBe(0n);
    expect(a.reduce((s, x, i) => s + x * (v[i] as bigint), 0n)).toBe(0n);
    expect(await verify({ result_uri: lll.result_uri })).toEqual({ level: 'VERIFIED', verdict: 'ACCEPTED', reason: null });

    // U and B′ with the first row doubled: the product holds, but U is not unimodular.
    const double = (M: string[][]): string[][] => M.map((row, i) => (i === 0 ? row.map((x) => (2n * BigInt(x)).toString()) : row));
    expect(await verify({ claim: { matrix_uri: stored.matrix_uri, delta: '99/100', reduced: double(lll.reduced), transform: double(lll.transform) } })).toEqual({ level: 'COMPUTED', verdict: 'REJECTED', reason: 'NOT_UNIMODULAR' });
    // Row 1 += row 0 (and in U): the same lattice, U B = B′, but no longer size-reduced.
    const add = (M: string[][]): string[][] => M.map((row, i) => (i === 1 ? row.map((x, j) => (BigInt(x) + BigInt((M[0] as string[])[j] as string)).toString()) : row));
    expect(await verify({ claim: { matrix_uri: stored.matrix_uri, delta: '99/100', reduced: add(lll.reduced), transform: add(lll.transform) } })).toEqual({ level: 'COMPUTED', verdict: 'REJECTED', reason: 'NOT_SIZE_REDUCED' });
  });

  it('reduces dependent generators (zero rows last, relation rows of U) and refuses δ out of range naming the rule', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const B = [[3, 6, 9], [1, 2, 3], [1, 0, 1]];
    const lll = await run<Reduced>('lattice.basis.reduce', { matrix: { ring: { kind: 'Z' }, rows: B } });
    expect(lll).toMatchObject({ rank: 2, dependent_generators: true });
    expect(lll.reduced[2]).toEqual(['0', '0', '0']);
    expect(multiply([lll.transform[2] as string[]], B)).toEqual([['0', '0', '0']]);
    expect(await verify({ result_uri: lll.result_uri })).toMatchObject({ level: 'VERIFIED', verdict: 'ACCEPTED' });
    const refused = await mathRun(connection.client, { capability_id: 'lattice.basis.reduce', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: B }, delta: '1/4' } });
    expect(refused.result.execution.status).toBe('ERROR');
    expect(refused.result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'delta'] });
    expect(refused.result.diagnostics[0]?.message).toMatch(/rule delta-range/);
  });

  it('the Hermite basis of a lattice, and the index of a sublattice or the generator that is not in it', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const basis = await run<{ basis: string[][]; rank: number; index_in_Zn: string }>('lattice.hermite_normal_form.compute', { matrix: { ring: { kind: 'Z' }, rows: [[4, 6], [6, 9], [2, 4]] } });
    expect(basis).toMatchObject({ basis: [['2', '0'], ['0', '1']], rank: 2, index_in_Zn: '2' });
    const index = await run<{ index: string; quotient_structure: string }>('lattice.sublattice_index.compute', { lattice: { matrix: { ring: { kind: 'Z' }, rows: [[4, 6], [6, 9], [2, 4]] } }, sublattice: { matrix: { ring: { kind: 'Z' }, rows: [[4, 0], [0, 6]] } } });
    expect(index).toMatchObject({ index: '12', quotient_structure: 'Z/2 ⊕ Z/6' });
    const outside = await mathRun(connection.client, { capability_id: 'lattice.sublattice_index.compute', mode: 'EXPLORE', payload: { lattice: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0], [0, 1]] } }, sublattice: { matrix: { ring: { kind: 'Z' }, rows: [[2, 2], [1, 1]] } } } });
    expect(outside.result.execution.status).toBe('ERROR');
    expect(outside.result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'sublattice', 'matrix', 'rows', 1] });
    expect(outside.result.diagnostics[0]?.message).toMatch(/\(1, 1\), is not in L.*sublattice-contained/);
  });
});
