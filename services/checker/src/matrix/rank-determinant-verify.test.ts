import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admitRequest,
  CapabilityRequestSchema,
  CapabilityResultSchema,
  checkerIdentity,
  createLocalFolderArtifactStore,
  createProcessPool,
  DETERMINANT_CLAIM_SCHEMA_URI,
  DETERMINANT_CLAIM_SEMANTICS_URI,
  executeCapability,
  installCapability,
  loadOrCreateSigningKey,
  RANK_CLAIM_SCHEMA_URI,
  RANK_CLAIM_SEMANTICS_URI,
  type ArtifactStore,
  type CapabilityDefinition,
  type CapabilityResult,
  type CheckerAuthorization,
  type CheckerIdentity,
  type InstalledCapability,
  type IsolatedExecutor,
  type JsonValue,
  type ProviderRuntime,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { verifyDeterminant, verifyRank, type RankDeterminantVerifyOutput } from './rank-determinant-verify-capability.js';
import { checkDeterminantClaim, checkRankClaim, RankDeterminantRejectionReason } from './rank-determinant-verify.js';

const RUNTIME: ProviderRuntime = {
  provider: 'jacobian-checker-ts',
  availability: 'AVAILABLE',
  version: '0.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: 'c'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

const matrix = (rows: (string | number | bigint)[][], ring: Record<string, string> = { kind: 'Z' }) => ({ ring, nrows: rows.length, ncols: rows[0]?.length ?? 0, rows: rows.map((row) => row.map(String)) });

function mul(A: bigint[][], B: bigint[][]): bigint[][] {
  return A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));
}

/** The test's own determinant: Laplace expansion along the first row (small n only). */
function laplace(A: bigint[][]): bigint {
  if (A.length === 0) return 1n;
  const first = A[0] as bigint[];
  return first.reduce((s, a, j) => {
    if (a === 0n) return s;
    const minor = A.slice(1).map((row) => row.filter((_, k) => k !== j));
    return s + (j % 2 === 0 ? 1n : -1n) * a * laplace(minor);
  }, 0n);
}

/** The largest primes below 2^26, by trial division (the test's own). */
function largestWordPrimes(count: number): bigint[] {
  const out: bigint[] = [];
  for (let q = 2 ** 26 - 1; out.length < count; q -= 2) {
    let prime = true;
    for (let d = 3; d * d <= q; d += 2) {
      if (q % d === 0) {
        prime = false;
        break;
      }
    }
    if (prime) out.push(BigInt(q));
  }
  return out;
}

/** L (m×r) = [I; X] times R (r×n) = [I | Y]: rank exactly r (its leading r×r minor is I). */
function ofRank(m: number, n: number, r: number, entries: bigint[]): bigint[][] {
  let k = 0;
  const next = (): bigint => entries[k++ % entries.length] as bigint;
  const L = Array.from({ length: m }, (_, i) => Array.from({ length: r }, (__, j) => (i < r ? (i === j ? 1n : 0n) : next())));
  const R = Array.from({ length: r }, (_, i) => Array.from({ length: n }, (__, j) => (j < r ? (i === j ? 1n : 0n) : next())));
  return r === 0 ? Array.from({ length: m }, () => Array.from({ length: n }, () => 0n)) : mul(L, R);
}

const entry = fc.bigInt({ min: -(1n << 70n), max: 1n << 70n });

describe('determinant claims (pure checks)', () => {
  it('accepts det A of random integer matrices (Laplace expansion as truth) and rejects det ± 1, naming the true value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }).chain((n) => fc.array(fc.array(entry, { minLength: n, maxLength: n }), { minLength: n, maxLength: n })), (rows) => {
        const det = laplace(rows);
        const accepted = checkDeterminantClaim({ matrix: matrix(rows), determinant: det.toString() });
        expect(accepted).toMatchObject({ accepted: true });
        expect(accepted.accepted && accepted.method).toMatch(/fraction-free Gaussian elimination \(Bareiss\).*not the producer's multimodular/);
        for (const claimed of [det + 1n, det - 1n]) {
          const wrong = checkDeterminantClaim({ matrix: matrix(rows), determinant: claimed.toString() });
          expect(wrong).toMatchObject({ accepted: false, reason_code: RankDeterminantRejectionReason.DETERMINANT_MISMATCH, path: ['determinant'] });
          if (det.toString().length <= 80) expect(wrong).toMatchObject({ witness: `det A = ${det}` });
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a large determinant: 20×20 of 256-bit entries (L U with known diagonal)', () => {
    const n = 20;
    const big = (i: number, j: number): bigint => ((BigInt(i * 31 + j * 17 + 5) ** 40n) % (1n << 256n)) - (1n << 255n);
    const L = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => (j < i ? big(i, j) : j === i ? 1n : 0n)));
    const U = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => (j > i ? big(j, i) : j === i ? BigInt(2 * i + 3) * (i % 2 === 0 ? 1n : -1n) : 0n)));
    const A = mul(L, U);
    const det = Array.from({ length: n }, (_, i) => BigInt(2 * i + 3) * (i % 2 === 0 ? 1n : -1n)).reduce((a, b) => a * b, 1n);
    expect(checkDeterminantClaim({ matrix: matrix(A), determinant: det.toString() })).toMatchObject({ accepted: true });
    expect(checkDeterminantClaim({ matrix: matrix(A), determinant: (-det).toString() })).toMatchObject({ accepted: false, reason_code: 'DETERMINANT_MISMATCH' });
  });

  it('a wrong claim congruent to det A modulo the largest word-size primes (the producer\'s first primes) is rejected', () => {
    const [q1, q2, q3] = largestWordPrimes(3) as [bigint, bigint, bigint];
    const A = [[3n, 1n], [1n, 2n]];
    expect(checkDeterminantClaim({ matrix: matrix(A), determinant: '5' })).toMatchObject({ accepted: true });
    const rejected = checkDeterminantClaim({ matrix: matrix(A), determinant: (5n + q1 * q2 * q3).toString() });
    expect(rejected).toMatchObject({ accepted: false, reason_code: 'DETERMINANT_MISMATCH' });
    expect(rejected.accepted ? '' : rejected.witness).not.toMatch(new RegExp(`${q1}|${q2}|${q3}`));
  });

  it('over Q: the Hilbert matrix; a claim that cannot be det (not an integer after row scaling) is rejected', () => {
    const hilbert = matrix([[1, '1/2', '1/3'], ['1/2', '1/3', '1/4'], ['1/3', '1/4', '1/5']], { kind: 'Q' });
    expect(checkDeterminantClaim({ matrix: hilbert, determinant: '1/2160' })).toMatchObject({ accepted: true });
    // det of the row-scaled matrix, 2 (the row scale S = 6·12·60 not divided out), and the negative of det A.
    expect(checkDeterminantClaim({ matrix: hilbert, determinant: '2' })).toMatchObject({ accepted: false, reason_code: 'DETERMINANT_MISMATCH', witness: 'det A = 1/2160' });
    expect(checkDeterminantClaim({ matrix: hilbert, determinant: '-1/2160' })).toMatchObject({ accepted: false, reason_code: 'DETERMINANT_MISMATCH' });
    expect(checkDeterminantClaim({ matrix: hilbert, determinant: '1/2161' })).toMatchObject({ accepted: false, reason_code: 'DETERMINANT_MISMATCH' });
    expect(checkDeterminantClaim({ matrix: hilbert, determinant: '1/1080' })).toMatchObject({ accepted: false, reason_code: 'DETERMINANT_MISMATCH' });
  });

  it('over GF(p), small and large p, by UL-order elimination; a singular matrix has det 0; a non-square matrix is SHAPE', () => {
    const gf7 = checkDeterminantClaim({ matrix: matrix([[2, 0, 1], [1, 3, 2], [1, 1, 2]], { kind: 'GF', characteristic: '7' }), determinant: '6' });
    expect(gf7.accepted && gf7.method).toMatch(/UL order/);
    expect(checkDeterminantClaim({ matrix: matrix([[2, 0, 1], [1, 3, 2], [1, 1, 2]], { kind: 'GF', characteristic: '7' }), determinant: '5' })).toMatchObject({ accepted: false, reason_code: 'DETERMINANT_MISMATCH' });
    const p = 2305843009213693951n;
    const rows = [[p - 1n, 5n], [7n, 11n]];
    const det = (((p - 1n) * 11n - 35n) % p + p) % p;
    expect(checkDeterminantClaim({ matrix: matrix(rows, { kind: 'GF', characteristic: p.toString() }), determinant: det.toString() })).toMatchObject({ accepted: true });
    expect(checkDeterminantClaim({ matrix: matrix([[1, 2], [2, 1]], { kind: 'GF', characteristic: '3' }), determinant: '0' })).toMatchObject({ accepted: true });
    expect(checkDeterminantClaim({ matrix: matrix([[1, 2, 3]]), determinant: '0' })).toMatchObject({ accepted: false, reason_code: 'SHAPE' });
  });

  it('singular and non-singular over Z: 0 claimed for a non-singular matrix and non-zero for a singular one are rejected', () => {
    const singular = [[3n, -7n, 1n << 64n], [6n, -14n, 1n << 65n], [1n, 2n, 3n]];
    expect(checkDeterminantClaim({ matrix: matrix(singular), determinant: '0' })).toMatchObject({ accepted: true });
    expect(checkDeterminantClaim({ matrix: matrix(singular), determinant: '1' })).toMatchObject({ accepted: false, reason_code: 'DETERMINANT_MISMATCH', witness: 'det A = 0' });
    const big = 1n << 64n;
    const unimodular = [[big + 1n, big], [big, big - 1n]];
    expect(checkDeterminantClaim({ matrix: matrix(unimodular), determinant: '-1' })).toMatchObject({ accepted: true });
    expect(checkDeterminantClaim({ matrix: matrix(unimodular), determinant: '0' })).toMatchObject({ accepted: false, reason_code: 'DETERMINANT_MISMATCH', witness: 'det A = -1' });
    expect(checkDeterminantClaim({ matrix: matrix([[0]]), determinant: '0' })).toMatchObject({ accepted: true });
  });
});

describe('rank claims (pure checks)', () => {
  it('accepts the rank of L·R products of known rank, any shape, and rejects rank ± 1 as too high or too low', () => {
    const shape = fc.record({ m: fc.integer({ min: 1, max: 7 }), n: fc.integer({ min: 1, max: 7 }) }).chain(({ m, n }) => fc.record({ m: fc.constant(m), n: fc.constant(n), r: fc.integer({ min: 0, max: Math.min(m, n) }), entries: fc.array(entry, { minLength: 1, maxLength: 20 }) }));
    fc.assert(
      fc.property(shape, ({ m, n, r, entries }) => {
        const A = ofRank(m, n, r, entries);
        const good = checkRankClaim({ matrix: matrix(A), rank: r });
        expect(good).toMatchObject({ accepted: true });
        expect(good.accepted && good.method).toMatch(/minor modulo the prime/);
        if (r < Math.min(m, n)) expect(checkRankClaim({ matrix: matrix(A), rank: r + 1 })).toMatchObject({ accepted: false, reason_code: 'RANK_TOO_HIGH', witness: `rank ${r}` });
        if (r > 0) expect(checkRankClaim({ matrix: matrix(A), rank: r - 1 })).toMatchObject({ accepted: false, reason_code: 'RANK_TOO_LOW', witness: `rank ${r}` });
      }),
      { numRuns: 60 },
    );
  });

  it('unlucky primes (every 2×2 minor divisible by the first two) are replaced by the next, and the rank is still exact', () => {
    const [q1, q2] = largestWordPrimes(2) as [bigint, bigint];
    const A = [[q1 * q2, 0n, 0n, 0n], [0n, 1n, 0n, 0n], [0n, 0n, 0n, 0n]];
    const unlucky = checkRankClaim({ matrix: matrix(A), rank: 2 });
    expect(unlucky.accepted && unlucky.method).toMatch(/3 prime\(s\) tried/);
    expect(checkRankClaim({ matrix: matrix(A), rank: 1 })).toMatchObject({ accepted: false, reason_code: 'RANK_TOO_LOW' });
    // Rank 2, but rank 1 modulo q1 and q2: the first certificate (one 1×1 minor, two kernel vectors) fails exactly.
    const B = [[q1 * q2, q1 * q2 * 3n, 0n], [1n, 3n, 1n], [2n, 6n, 2n]];
    expect(checkRankClaim({ matrix: matrix(B), rank: 2 })).toMatchObject({ accepted: true });
    expect(checkRankClaim({ matrix: matrix(B), rank: 3 })).toMatchObject({ accepted: false, reason_code: 'RANK_TOO_HIGH' });
  });

  it('over Q with fractions, and over GF(p): the same certificate; zero matrices have rank 0', () => {
    const A = matrix([['1/2', '1/3', '5/6'], [3, 2, 5], ['-1/7', 4, '27/7']], { kind: 'Q' });
    expect(checkRankClaim({ matrix: A, rank: 2 })).toMatchObject({ accepted: true });
    expect(checkRankClaim({ matrix: A, rank: 3 })).toMatchObject({ accepted: false, reason_code: 'RANK_TOO_HIGH' });
    const gf2 = matrix([[1, 1, 0, 1], [0, 1, 1, 1], [1, 0, 1, 0]], { kind: 'GF', characteristic: '2' });
    const overGf2 = checkRankClaim({ matrix: gf2, rank: 2 });
    expect(overGf2.accepted && overGf2.method).toMatch(/over GF\(2\).*kernel vectors/);
    expect(checkRankClaim({ matrix: gf2, rank: 3 })).toMatchObject({ accepted: false, reason_code: 'RANK_TOO_HIGH' });
    // Rank 3 over Q, rank 2 over GF(3).
    const rows = [[1, 2, 3], [4, 5, 6], [7, 8, 10]];
    expect(checkRankClaim({ matrix: matrix(rows), rank: 3 })).toMatchObject({ accepted: true });
    expect(checkRankClaim({ matrix: matrix(rows.map((row) => row.map((x) => x % 3)), { kind: 'GF', characteristic: '3' }), rank: 2 })).toMatchObject({ accepted: true });
    const big = 2305843009213693951n;
    expect(checkRankClaim({ matrix: matrix([[1, 2], [2, 4], [big - 1n, big - 2n]], { kind: 'GF', characteristic: big.toString() }), rank: 1 })).toMatchObject({ accepted: true });
    expect(checkRankClaim({ matrix: matrix([[0, 0], [0, 0]]), rank: 0 })).toMatchObject({ accepted: true });
    expect(checkRankClaim({ matrix: matrix([[0, 0], [0, 0]]), rank: 1 })).toMatchObject({ accepted: false, reason_code: 'RANK_TOO_HIGH' });
  });
});

describe('matrix.determinant.verify and matrix.rank.verify as capabilities', () => {
  let root: string;
  let artifacts: ArtifactStore;
  let executor: IsolatedExecutor;
  let determinantChecker: InstalledCapability;
  let rankChecker: InstalledCapability;

  const run = (checker: InstalledCapability, payload: Record<string, unknown>): Promise<CapabilityResult> =>
    executeCapability(checker, admitRequest(CapabilityRequestSchema.parse({ capability_id: checker.descriptor.id, mode: 'VERIFY', payload })), { artifacts, executor }, new AbortController().signal);
  const out = (result: CapabilityResult): RankDeterminantVerifyOutput => {
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    return result.output as RankDeterminantVerifyOutput;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'jacobian-rank-det-checker-'));
    artifacts = createLocalFolderArtifactStore({ root: join(root, 'artifacts') });
    executor = createProcessPool({ size: 1 });
    const key = await loadOrCreateSigningKey(join(root, 'key.pem'));
    const install = async (make: (authority: CheckerAuthority) => CapabilityDefinition<never, unknown>): Promise<InstalledCapability> => {
      let identity: CheckerIdentity | null = null;
      const authority: CheckerAuthority = {
        authorization: (): CheckerAuthorization => ({ authorized: identity === null ? [] : [{ checker_id: identity.checker_id, checker_digest: identity.checker_digest }] }),
        signingKey: key,
        identity: () => identity as CheckerIdentity,
      };
      const definition = make(authority);
      if (definition.checker === undefined) throw new Error('no checker declaration');
      identity = await checkerIdentity(definition.checker);
      return installCapability(definition, RUNTIME, identity);
    };
    determinantChecker = await install((authority) => verifyDeterminant(authority) as never);
    rankChecker = await install((authority) => verifyRank(authority) as never);
  });
  afterAll(async () => {
    await executor?.close();
    await artifacts?.close();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it('verifies every advertised example with a signed record; the assurance basis names the method that recomputed it', async () => {
    for (const [checker, method] of [
      [determinantChecker, /recomputed by fraction-free Gaussian elimination \(Bareiss\)/],
      [rankChecker, /recomputed by a non-singular \d+×\d+ minor/],
    ] as const) {
      for (const example of checker.descriptor.examples) {
        const result = await run(checker, example.payload);
        expect(out(result).verdict, example.title).toBe('ACCEPTED');
        expect(result.assurance.level).toBe('VERIFIED');
        expect(result.assurance.basis).toMatch(example.title.includes('GF(2)') ? /over GF\(2\)/ : method);
        expect(out(result).verification_record_uri).not.toBeNull();
      }
    }
  });

  it('verifies stored claims by result_uri and rejects stored wrong ones (determinant, rank too high, rank too low), with no record', async () => {
    const put = async (schema_uri: string, semantics_uri: string, payload: JsonValue): Promise<string> => (await artifacts.put({ schema_uri, semantics_uri, payload, parents: [], summary: {} })).uri;
    const A = matrix([[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
    const det = await put(DETERMINANT_CLAIM_SCHEMA_URI, DETERMINANT_CLAIM_SEMANTICS_URI, { matrix: A, determinant: '0' });
    expect(out(await run(determinantChecker, { result_uri: det }))).toMatchObject({ verdict: 'ACCEPTED', claim_uri: det, claim_kind: 'MATRIX_DETERMINANT' });
    const wrongDet = await put(DETERMINANT_CLAIM_SCHEMA_URI, DETERMINANT_CLAIM_SEMANTICS_URI, { matrix: A, determinant: '-3' });
    expect(out(await run(determinantChecker, { result_uri: wrongDet }))).toMatchObject({ verdict: 'REJECTED', reason_code: 'DETERMINANT_MISMATCH', verification_record_uri: null });
    for (const [rank, verdict, reason] of [
      [2, 'ACCEPTED', null],
      [3, 'REJECTED', 'RANK_TOO_HIGH'],
      [1, 'REJECTED', 'RANK_TOO_LOW'],
    ] as const) {
      const uri = await put(RANK_CLAIM_SCHEMA_URI, RANK_CLAIM_SEMANTICS_URI, { matrix: A, rank });
      const result = await run(rankChecker, { result_uri: uri });
      expect(out(result)).toMatchObject({ verdict, reason_code: reason });
      expect(result.assurance.level).toBe(verdict === 'ACCEPTED' ? 'VERIFIED' : 'COMPUTED');
    }
    // A rank claim is not a determinant claim.
    const rankUri = await put(RANK_CLAIM_SCHEMA_URI, RANK_CLAIM_SEMANTICS_URI, { matrix: A, rank: 2 });
    expect((await run(determinantChecker, { result_uri: rankUri })).diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'result_uri'] });
  });

  it('rejects a tampered claim: the right determinant and rank of A given with one entry of A changed', async () => {
    const rows = [[2, 0, 1], [1, 3, 2], [1, 1, 2]];
    expect(out(await run(determinantChecker, { claim: { matrix: { ring: { kind: 'Z' }, rows }, determinant: '6' } })).verdict).toBe('ACCEPTED');
    const tampered = [[2, 0, 1], [1, 3, 2], [1, 1, 3]];
    expect(out(await run(determinantChecker, { claim: { matrix: { ring: { kind: 'Z' }, rows: tampered }, determinant: '6' } }))).toMatchObject({ verdict: 'REJECTED', reason_code: 'DETERMINANT_MISMATCH' });
    expect(out(await run(rankChecker, { claim: { matrix: { ring: { kind: 'Z' }, rows: [[1, 2], [2, 5]] }, rank: 1 } }))).toMatchObject({ verdict: 'REJECTED', reason_code: 'RANK_TOO_LOW' });
  });

  it('answers bad input with an error at its place, not a verdict', async () => {
    const bad = await run(determinantChecker, { claim: { matrix: { ring: { kind: 'Z' }, rows: [[1]] }, determinant: 'one' } });
    expect(bad.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'determinant'] });
    const negative = await run(rankChecker, { claim: { matrix: { ring: { kind: 'Z' }, rows: [[1]] }, rank: -1 } });
    expect(negative.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
