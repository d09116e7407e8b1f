/**
 * Characteristic and minimal polynomials end to end, through MCP on the real `jacobian` command:
 * math.find routes the questions to the producers; a matrix stored by matrix.construct.explicit
 * is used by matrix_uri; the characteristic polynomial is checked here against the test's own
 * 2×2 formula and by Cayley–Hamilton; the minimal polynomial's stored claim is verified by the
 * independent checker, and a non-minimal claim (the characteristic polynomial of a derogatory
 * matrix) is rejected.
 */
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

async function run<O>(capabilityId: string, payload: Record<string, unknown>, mode: 'EXPLORE' | 'VERIFY' = 'EXPLORE'): Promise<{ output: O; level: string }> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode, payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return { output: result.output as O, level: result.assurance.level };
}

/** Integer matrix product, the test's own. */
function mul(A: bigint[][], B: bigint[][]): bigint[][] {
  return A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));
}

describe('characteristic and minimal polynomials through MCP', () => {
  it('math.find routes the questions to the producers and the checker', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const [query, id] of [
      ['characteristic polynomial of a matrix', 'matrix.characteristic_polynomial.compute'],
      ['minimal polynomial of a matrix', 'matrix.minimal_polynomial.compute'],
      ['verify a minimal polynomial', 'matrix.minimal_polynomial.verify'],
    ]) {
      const found = await mathFind(connection.client, { query, limit: 3 });
      expect(found.response.matches[0]?.['capability_id'], query).toBe(id);
    }
  });

  it('computes det(xI − A) by matrix_uri; the coefficients annihilate A (Cayley–Hamilton)', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const A = [[2, -1, 0], [1, 3, 4], [0, 5, -2]];
    const stored = await run<{ matrix_uri: string }>('matrix.construct.explicit', { ring: { kind: 'Z' }, rows: A });
    const { output } = await run<{ polynomial: string; coefficients: string[]; trace: string; determinant: string }>('matrix.characteristic_polynomial.compute', { matrix_uri: stored.output.matrix_uri, variable: 't' });
    expect(output.coefficients).toHaveLength(4);
    expect(output.polynomial).toMatch(/^t\^3 /);
    expect(output.trace).toBe('3');
    const M = A.map((row) => row.map(BigInt));
    const I: bigint[][] = M.map((_, i) => M.map((__, j) => (i === j ? 1n : 0n)));
    let power = I;
    let sum = M.map((row) => row.map(() => 0n));
    for (const c of output.coefficients) {
      sum = sum.map((row, i) => row.map((x, j) => x + BigInt(c) * ((power[i] as bigint[])[j] as bigint)));
      power = mul(power, M);
    }
    expect(sum.flat().every((x) => x === 0n)).toBe(true);
  });

  it('the minimal polynomial of a derogatory matrix is verified by the checker; its characteristic polynomial is rejected as not minimal', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const matrix = { ring: { kind: 'Q' }, rows: [[3, 1, 0, 0], [0, 3, 0, 0], [0, 0, 3, 0], [0, 0, 0, '1/2']] };
    const minimal = await run<{ polynomial: string; coefficients: string[]; degree: number; diagonalizable: boolean; result_uri: string }>('matrix.minimal_polynomial.compute', { matrix });
    // (x − 3)²(x − 1/2)
    expect(minimal.output).toMatchObject({ degree: 3, diagonalizable: false, coefficients: ['-9/2', '12', '-13/2', '1'] });
    expect(minimal.output.result_uri).toMatch(ARTIFACT_URI);
    const verified = await run<{ verdict: string; message: string; verification_record_uri: string }>('matrix.minimal_polynomial.verify', { result_uri: minimal.output.result_uri }, 'VERIFY');
    expect(verified.level).toBe('VERIFIED');
    expect(verified.output.verdict).toBe('ACCEPTED');
    expect(verified.output.verification_record_uri).toMatch(ARTIFACT_URI);
    const chi = await run<{ coefficients: string[] }>('matrix.characteristic_polynomial.compute', { matrix });
    const rejected = await run<{ verdict: string; reason_code: string }>('matrix.minimal_polynomial.verify', { claim: { matrix, coefficients: chi.output.coefficients } }, 'VERIFY');
    expect(rejected.output).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_MINIMAL' });
    expect(rejected.level).toBe('COMPUTED');
  });
});
