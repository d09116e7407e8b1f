/**
 * Rational canonical form and eigenvalues end to end, through MCP on the real `jacobian`
 * command: math.find routes the questions to the producers; a matrix stored by
 * matrix.construct.explicit is used by matrix_uri; the test checks A P = P F and P invertible
 * with its own integer arithmetic, the invariant factors' divisibility, and the eigenvalues by
 * the test's own evaluation of the characteristic polynomial.
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

async function run<O>(capabilityId: string, payload: Record<string, unknown>, mode: 'EXPLORE' | 'VERIFY' = 'EXPLORE'): Promise<O> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode, payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  if (mode === 'VERIFY') expect(result.assurance.level).toBe((result.output as { verdict: string }).verdict === 'ACCEPTED' ? 'VERIFIED' : 'COMPUTED');
  return result.output as O;
}

/** Integer matrix product and determinant (Laplace), the test's own. */
const mul = (A: bigint[][], B: bigint[][]): bigint[][] => A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));
function det(A: bigint[][]): bigint {
  if (A.length === 0) return 1n;
  return (A[0] as bigint[]).reduce((s, a, j) => s + (j % 2 === 0 ? 1n : -1n) * a * det(A.slice(1).map((row) => row.filter((_, k) => k !== j))), 0n);
}

describe('rational canonical form and eigenvalues through MCP', () => {
  it('math.find routes the questions to the producers', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const [query, id] of [
      ['rational canonical form of a matrix', 'matrix.rational_canonical_form.compute'],
      ['Frobenius normal form', 'matrix.rational_canonical_form.compute'],
      ['verify a rational canonical form', 'matrix.rational_canonical_form.verify'],
      ['eigenvalues of a matrix', 'matrix.eigenvalues.compute'],
    ]) {
      const found = await mathFind(connection.client, { query, limit: 3 });
      expect(found.response.matches[0]?.['capability_id'], query).toBe(id);
    }
  });

  it('the Frobenius form of a stored integer matrix: A P = P F, P invertible, d_1 | d_2; the checker verifies the claim and rejects a tampered P', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    // S C S⁻¹ for C = diag(C(x − 1), C((x − 1)(x^2 + 1))) and a unimodular S.
    const C = [[1, 0, 0, 0], [0, 0, 0, 1], [0, 1, 0, -1], [0, 0, 1, 1]].map((row) => row.map(BigInt));
    const S = [[1, 1, 0, 0], [0, 1, 0, 0], [0, 3, 1, 2], [0, 0, 0, 1]].map((row) => row.map(BigInt));
    const Sinv = [[1, -1, 0, 0], [0, 1, 0, 0], [0, -3, 1, -2], [0, 0, 0, 1]].map((row) => row.map(BigInt));
    expect(mul(S, Sinv)).toEqual(C.map((row, i) => row.map((_, j) => (i === j ? 1n : 0n))));
    const A = mul(mul(S, C), Sinv).map((row) => row.map(Number));
    const stored = await run<{ matrix_uri: string }>('matrix.construct.explicit', { ring: { kind: 'Z' }, rows: A });
    const out = await run<{ invariant_factors: { polynomial: string; coefficients: string[] }[]; form: string[][]; transform: string[][]; result_uri: string }>('matrix.rational_canonical_form.compute', { matrix_uri: stored.matrix_uri });
    expect(out.invariant_factors.map((d) => d.polynomial)).toEqual(['x - 1', 'x^3 - x^2 + x - 1']);
    const M = A.map((row) => row.map(BigInt));
    const P = out.transform.map((row) => row.map(BigInt));
    const F = out.form.map((row) => row.map(BigInt));
    expect(mul(M, P)).toEqual(mul(P, F));
    expect(det(P)).not.toBe(0n);
    expect(out.result_uri).toMatch(ARTIFACT_URI);
    const verified = await run<{ verdict: string; verification_record_uri: string }>('matrix.rational_canonical_form.verify', { result_uri: out.result_uri }, 'VERIFY');
    expect(verified.verdict).toBe('ACCEPTED');
    expect(verified.verification_record_uri).toMatch(ARTIFACT_URI);
    // v and A v of the cyclic block swapped: no longer a Krylov basis.
    const tampered = out.transform.map((row) => [row[0], row[2], row[1], row[3]]);
    const rejected = await run<{ verdict: string; reason_code: string }>(
      'matrix.rational_canonical_form.verify',
      { claim: { matrix_uri: stored.matrix_uri, invariant_factors: out.invariant_factors.map((d) => d.coefficients), transform: tampered } },
      'VERIFY',
    );
    expect(rejected).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_SIMILAR' });
  });

  it('eigenvalues over Q and GF(p): each rational eigenvalue is a root of det(λI − A)', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const A = [[4, 1, 0], [0, 4, 0], [0, 0, -2]];
    const out = await run<{ eigenvalues: { value: string; algebraic_multiplicity: number; geometric_multiplicity: number }[]; factorization: string }>('matrix.eigenvalues.compute', { matrix: { ring: { kind: 'Z' }, rows: A } });
    expect(out.eigenvalues).toEqual([
      { value: '-2', algebraic_multiplicity: 1, geometric_multiplicity: 1 },
      { value: '4', algebraic_multiplicity: 2, geometric_multiplicity: 1 },
    ]);
    for (const { value } of out.eigenvalues) {
      const lambda = BigInt(value);
      expect(det(A.map((row, i) => row.map((a, j) => (i === j ? lambda : 0n) - BigInt(a))))).toBe(0n);
    }
    expect(out.factorization).toBe('(x + 2)*(x - 4)^2');
    const gf = await run<{ eigenvalues: { value: string }[]; splits: boolean }>('matrix.eigenvalues.compute', { matrix: { ring: { kind: 'GF', characteristic: '13' }, rows: [[0, -1], [1, 0]] } });
    // x^2 + 1 has the roots 5 and 8 modulo 13.
    expect(gf).toMatchObject({ eigenvalues: [{ value: '5' }, { value: '8' }], splits: true });
  });
});
