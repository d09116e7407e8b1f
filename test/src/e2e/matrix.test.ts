/**
 * Exact linear algebra end to end, through MCP on the real `jacobian` command: a matrix stored by
 * matrix.construct.explicit and read back in canonical form, then used by matrix_uri to solve a
 * system (the solution and kernel checked here by multiplying out), an inconsistent system whose
 * certificate is checked the same way, an inverse and a determinant; the independent checkers
 * verifying the producers' stored and inline answers and rejecting tampered ones; and bad input answered with an
 * error naming the row, column and rule.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRational, MatrixPayloadSchema, RATIONALS, type Rational } from '@jacobian/shared';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { ARTIFACT_URI, mathFind, mathRun, readArtifact } from '../support/tools.js';

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

const IDS = ['matrix.construct.explicit', 'matrix.rank.compute', 'matrix.determinant.compute', 'matrix.rref.compute', 'matrix.nullspace.compute', 'matrix.inverse.compute', 'matrix.linear_system.solve'];
const CHECKERS = ['matrix.linear_system.verify', 'matrix.inverse.verify', 'matrix.determinant.verify', 'matrix.rank.verify'];
/** Served by PARI/GP where gp is installed (where the runner's probe looks), by our engine otherwise. */
const ON_PARI = new Set(['matrix.rank.compute', 'matrix.determinant.compute', 'matrix.nullspace.compute']);
const GP_INSTALLED = ['/usr/bin/gp', '/usr/local/bin/gp'].some((file) => existsSync(file));

/** A text "p/q" or "n" as a rational (the test's own reading of the answers). */
function q(text: string | number): Rational {
  const [num = '0', den = '1'] = String(text).split('/');
  return makeRational(BigInt(num), BigInt(den));
}

/** Row i of A times x, as rationals. */
function times(A: (string | number)[][], x: (string | number)[]): Rational[] {
  return A.map((row) => row.reduce<Rational>((s, a, j) => RATIONALS.add(s, RATIONALS.mul(q(a), q(x[j] as string))), RATIONALS.zero));
}

async function run<O>(capabilityId: string, payload: Record<string, unknown>): Promise<O> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode: 'EXPLORE', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(result.assurance.level).toBe('COMPUTED');
  return result.output as O;
}

describe('exact linear algebra through MCP', () => {
  it('lists every matrix capability on our TypeScript provider (rank, determinant and kernels on PARI/GP where gp is installed), and the checkers on the checker\'s', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const id of IDS) {
      const inspected = await mathFind(connection.client, { capability_id: id, view: 'CONTRACT' });
      expect((inspected.response.capability as { provider: { name: string } } | null)?.provider.name, id).toBe(GP_INSTALLED && ON_PARI.has(id) ? 'pari-gp' : 'jacobian-linear-algebra-ts');
    }
    for (const id of CHECKERS) {
      const inspected = await mathFind(connection.client, { capability_id: id, view: 'CONTRACT' });
      expect((inspected.response.capability as { provider: { name: string } } | null)?.provider.name, id).toBe('jacobian-checker-ts');
    }
  });

  it('stores a rational matrix, then solves, inverts and takes its determinant by matrix_uri; every answer multiplies out', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const A = [[2, '1/2', 0], [-1, 3, '-7/3'], [1, '7/2', '-7/3']];
    const stored = await run<{ matrix_uri: string; nrows: number; ncols: number }>('matrix.construct.explicit', { ring: { kind: 'Q' }, rows: A });
    expect(stored).toMatchObject({ nrows: 3, ncols: 3 });
    expect(stored.matrix_uri).toMatch(ARTIFACT_URI);
    const payload = MatrixPayloadSchema.parse((await readArtifact(connection.client, stored.matrix_uri)).payload);
    expect(payload.rows).toEqual([['2', '1/2', '0'], ['-1', '3', '-7/3'], ['1', '7/2', '-7/3']]);

    // Row 2 = row 0 + row 1: rank 2, singular, and b must respect the same relation to be reachable.
    const b = ['1', '2', '3'];
    const solved = await run<{ outcome: string; solution: string[]; kernel: string[][] }>('matrix.linear_system.solve', { matrix_uri: stored.matrix_uri, rhs: b });
    expect(solved.outcome).toBe('SOLVED');
    expect(times(A, solved.solution)).toEqual(b.map(q));
    expect(solved.kernel).toHaveLength(1);
    expect(times(A, solved.kernel[0] ?? [])).toEqual([RATIONALS.zero, RATIONALS.zero, RATIONALS.zero]);

    const none = await run<{ outcome: string; certificate: string[] }>('matrix.linear_system.solve', { matrix_uri: stored.matrix_uri, rhs: [1, 2, 4] });
    expect(none.outcome).toBe('INCONSISTENT');
    const transpose = A[0]?.map((_, j) => A.map((row) => row[j] as string | number)) ?? [];
    expect(times(transpose, none.certificate)).toEqual([RATIONALS.zero, RATIONALS.zero, RATIONALS.zero]);
    expect(times([[1, 2, 4]], none.certificate)).toEqual([RATIONALS.one]);

    const singular = await run<{ outcome: string; kernel_vector: string[] }>('matrix.inverse.compute', { matrix_uri: stored.matrix_uri });
    expect(singular.outcome).toBe('SINGULAR');
    expect(times(A, singular.kernel_vector)).toEqual([RATIONALS.zero, RATIONALS.zero, RATIONALS.zero]);
    expect(await run<{ determinant: string }>('matrix.determinant.compute', { matrix_uri: stored.matrix_uri })).toMatchObject({ determinant: '0' });

    const B = [[2, 1], [7, 4]];
    const inverse = await run<{ outcome: string; inverse: string[][] }>('matrix.inverse.compute', { matrix: { ring: { kind: 'Z' }, rows: B } });
    expect(inverse.outcome).toBe('INVERTIBLE');
    const columns = [0, 1].map((j) => inverse.inverse.map((row) => row[j] as string));
    expect(columns.map((c) => times(B, c))).toEqual([[RATIONALS.one, RATIONALS.zero], [RATIONALS.zero, RATIONALS.one]]);
  });

  it('the checkers verify the producers\' answers through MCP and reject a tampered kernel and inverse', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const matrix = { ring: { kind: 'Q' }, rows: [[1, 2, 1, 0], [2, 4, 3, 1], [3, 6, 4, 1]] };
    const rhs = [1, '5/2', '7/2'];
    const solved = await run<{ outcome: string; solution: string[]; kernel: string[][]; result_uri: string }>('matrix.linear_system.solve', { matrix, rhs });
    expect(solved.outcome).toBe('SOLVED');
    expect(solved.kernel).toHaveLength(2);
    const verify = async (id: string, claim: Record<string, unknown>, by: 'claim' | 'result_uri' = 'claim'): Promise<{ level: string; verdict: string; reason: string | null }> => {
      const { result } = await mathRun(connection.client, { capability_id: id, mode: 'VERIFY', payload: by === 'claim' ? { claim } : { result_uri: claim['result_uri'] } });
      expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
      const output = result.output as { verdict: string; reason_code: string | null; verification_record_uri: string | null };
      if (output.verdict === 'ACCEPTED') expect(output.verification_record_uri).toMatch(ARTIFACT_URI);
      return { level: result.assurance.level, verdict: output.verdict, reason: output.reason_code };
    };
    expect(solved.result_uri).toMatch(ARTIFACT_URI);
    expect(await verify('matrix.linear_system.verify', { result_uri: solved.result_uri }, 'result_uri')).toEqual({ level: 'VERIFIED', verdict: 'ACCEPTED', reason: null });
    const claim = { matrix, rhs, outcome: 'SOLVED', solution: solved.solution, kernel: solved.kernel };
    expect(await verify('matrix.linear_system.verify', claim)).toEqual({ level: 'VERIFIED', verdict: 'ACCEPTED', reason: null });
    // One kernel vector dropped: the solution set claimed is too small.
    expect(await verify('matrix.linear_system.verify', { ...claim, kernel: solved.kernel.slice(1) })).toEqual({ level: 'COMPUTED', verdict: 'REJECTED', reason: 'KERNEL_INCOMPLETE' });

    const B = { ring: { kind: 'GF', characteristic: '101' }, rows: [[3, 1], [1, 2]] };
    const inverse = await run<{ outcome: string; inverse: string[][]; result_uri: string }>('matrix.inverse.compute', { matrix: B });
    expect(await verify('matrix.inverse.verify', { result_uri: inverse.result_uri }, 'result_uri')).toEqual({ level: 'VERIFIED', verdict: 'ACCEPTED', reason: null });
    expect(await verify('matrix.inverse.verify', { matrix: B, outcome: 'INVERTIBLE', inverse: inverse.inverse })).toEqual({ level: 'VERIFIED', verdict: 'ACCEPTED', reason: null });
    const tampered = inverse.inverse.map((row, i) => row.map((x, j) => (i === 0 && j === 0 ? String((Number(x) + 1) % 101) : x)));
    expect(await verify('matrix.inverse.verify', { matrix: B, outcome: 'INVERTIBLE', inverse: tampered })).toEqual({ level: 'COMPUTED', verdict: 'REJECTED', reason: 'INVERSE_MISMATCH' });
  });

  it('the determinant and rank checkers recompute the producers\' stored answers by another method, and reject wrong and tampered ones', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const verify = async (id: string, payload: Record<string, unknown>): Promise<{ level: string; basis: string; verdict: string; reason: string | null }> => {
      const { result } = await mathRun(connection.client, { capability_id: id, mode: 'VERIFY', payload });
      expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
      const output = result.output as { verdict: string; reason_code: string | null; verification_record_uri: string | null };
      if (output.verdict === 'ACCEPTED') expect(output.verification_record_uri).toMatch(ARTIFACT_URI);
      return { level: result.assurance.level, basis: result.assurance.basis, verdict: output.verdict, reason: output.reason_code };
    };
    // 64-bit entries, so that det A is far beyond one word (the producer's CRT needs many primes, the checker's Bareiss big integers).
    const big = (i: number, j: number): string => String(((BigInt(i + 2) * 0x9e3779b97f4a7c15n) ^ (BigInt(j + 5) * 0xc2b2ae3d27d4eb4fn)) % (1n << 64n) - (1n << 63n));
    const A = { ring: { kind: 'Z' }, rows: Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (__, j) => big(i, j))) };
    const det = await run<{ determinant: string; result_uri: string }>('matrix.determinant.compute', { matrix: A });
    expect(det.result_uri).toMatch(ARTIFACT_URI);
    const accepted = await verify('matrix.determinant.verify', { result_uri: det.result_uri });
    expect(accepted).toMatchObject({ level: 'VERIFIED', verdict: 'ACCEPTED' });
    expect(accepted.basis).toMatch(/recomputed by fraction-free Gaussian elimination \(Bareiss\)/);
    const wrong = String(BigInt(det.determinant) + 1n);
    expect(await verify('matrix.determinant.verify', { claim: { matrix: A, determinant: wrong } })).toMatchObject({ level: 'COMPUTED', verdict: 'REJECTED', reason: 'DETERMINANT_MISMATCH' });
    // Tampered: the producer's determinant with one entry of A changed.
    const tampered = { ...A, rows: A.rows.map((row, i) => row.map((x, j) => (i === 0 && j === 0 ? String(BigInt(x) + 1n) : x))) };
    expect(await verify('matrix.determinant.verify', { claim: { matrix: tampered, determinant: det.determinant } })).toMatchObject({ verdict: 'REJECTED', reason: 'DETERMINANT_MISMATCH' });

    // Rank 2 over Q (row 2 = row 0 + 2·row 1), 3×4 with fractions.
    const R = { ring: { kind: 'Q' }, rows: [['1/2', 3, -1, 4], [2, '1/3', 5, 0], ['9/2', '11/3', 9, 4]] };
    const rank = await run<{ rank: number; result_uri: string }>('matrix.rank.compute', { matrix: R });
    expect(rank.rank).toBe(2);
    const proved = await verify('matrix.rank.verify', { result_uri: rank.result_uri });
    expect(proved).toMatchObject({ level: 'VERIFIED', verdict: 'ACCEPTED' });
    expect(proved.basis).toMatch(/recomputed by a non-singular 2×2 minor modulo the prime \d+, .*kernel/);
    expect(await verify('matrix.rank.verify', { claim: { matrix: R, rank: 3 } })).toMatchObject({ level: 'COMPUTED', verdict: 'REJECTED', reason: 'RANK_TOO_HIGH' });
    expect(await verify('matrix.rank.verify', { claim: { matrix: R, rank: 1 } })).toMatchObject({ level: 'COMPUTED', verdict: 'REJECTED', reason: 'RANK_TOO_LOW' });
    const gf = await run<{ rank: number; result_uri: string }>('matrix.rank.compute', { matrix: { ring: { kind: 'GF', characteristic: '3' }, rows: [[1, 2, 0], [1, 1, 1], [2, 0, 1]] } });
    expect(await verify('matrix.rank.verify', { result_uri: gf.result_uri })).toMatchObject({ level: 'VERIFIED', verdict: 'ACCEPTED' });
    for (const [query, id] of [
      ['verify a determinant', 'matrix.determinant.verify'],
      ['verify the rank of a matrix', 'matrix.rank.verify'],
    ]) {
      const found = await mathFind(connection.client, { query, limit: 3 });
      expect(found.response.matches[0]?.['capability_id'], query).toBe(id);
    }
  });

  it('answers bad input with an error naming the row, column and rule', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const bad = await mathRun(connection.client, { capability_id: 'matrix.rank.compute', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[1, 2], [3, 4], [5, 6], [7, '1/2']] } } });
    expect(bad.result.execution.status).toBe('ERROR');
    expect(bad.result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix', 'rows', 3, 1] });
    expect(bad.result.diagnostics[0]?.message).toMatch(/row 3, column 1.*integer-entry/);
    const ragged = await mathRun(connection.client, { capability_id: 'matrix.determinant.compute', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Q' }, rows: [[1, 2], [3]] } } });
    expect(ragged.result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix', 'rows', 1] });
  });
});
