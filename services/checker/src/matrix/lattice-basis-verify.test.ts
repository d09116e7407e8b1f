import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LATTICE_BASIS_CLAIM_SCHEMA_URI,
  LATTICE_BASIS_CLAIM_SEMANTICS_URI,
  RATIONALS,
  verifyRecordSignature,
  type CapabilityResult,
  type InstalledCapability,
  type Rational,
} from '@jacobian/shared';
import { completedOutput, createCheckerHarness, type CheckerHarness } from '../checker-test-support.js';
import { verifyLatticeBasis, type LatticeBasisVerifyOutput } from './lattice-basis-verify-capability.js';
import { checkLatticeBasisClaim, LatticeRejectionReason } from './lattice-basis-verify.js';

function multiply(A: readonly (readonly bigint[])[], B: readonly (readonly bigint[])[]): bigint[][] {
  return A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));
}
const texts = (M: readonly (readonly bigint[])[]): string[][] => M.map((row) => row.map(String));
const stored = (rows: readonly (readonly bigint[])[]) => ({ ring: { kind: 'Z' }, nrows: rows.length, ncols: rows[0]?.length ?? 0, rows: texts(rows) });
const claimOf = (B: bigint[][], reduced: bigint[][], U: bigint[][], delta = '3/4') => ({ matrix: stored(B), delta, reduced: texts(reduced), transform: texts(U) });

/** A unimodular W and its inverse from elementary operations (row i += q·row j, swaps, negations), without any elimination. */
function unimodularPair(m: number, ops: readonly [number, number, number][]): { W: bigint[][]; inverse: bigint[][] } {
  const id = (): bigint[][] => Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => (i === j ? 1n : 0n)));
  const W = id();
  const inverse = id();
  for (const [a, b, q] of ops) {
    const i = a % m;
    const j = b % m;
    if (i === j) {
      W[i] = (W[i] as bigint[]).map((x) => -x);
      for (const row of inverse) row[i] = -(row[i] as bigint);
    } else if (q === 0) {
      [W[i], W[j]] = [W[j] as bigint[], W[i] as bigint[]];
      for (const row of inverse) [row[i], row[j]] = [row[j] as bigint, row[i] as bigint];
    } else {
      W[i] = (W[i] as bigint[]).map((x, c) => x + BigInt(q) * ((W[j] as bigint[])[c] as bigint));
      for (const row of inverse) row[j] = (row[j] as bigint) - BigInt(q) * (row[i] as bigint);
    }
  }
  return { W, inverse };
}

const ops = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: -3, max: 3 })), { maxLength: 25 });

/**
 * A lower-triangular R with non-decreasing positive diagonal d and |R[i][j]| ≤ d_j / 2: its
 * Gram–Schmidt vectors are d_i e_i and μ_{i,j} = R[i][j] / d_j, so it is LLL-reduced for every δ ≤ 1.
 * B = W⁻¹ R for a random unimodular W; the claim (B, R, W) is true. Extra zero rows model dependent generators.
 */
const trueClaims = fc
  .record({ r: fc.integer({ min: 1, max: 5 }), extra: fc.integer({ min: 0, max: 2 }), steps: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 5, maxLength: 5 }), fill: fc.array(fc.double({ min: -0.5, max: 0.5, noNaN: true }), { minLength: 25, maxLength: 25 }), o: ops })
  .map(({ r, extra, steps, fill, o }) => {
    const d: bigint[] = [];
    let current = 1n;
    for (let i = 0; i < r; i++) d.push((current += BigInt(steps[i] as number)));
    const R = Array.from({ length: r + extra }, (_, i) =>
      Array.from({ length: r }, (_, j) => {
        if (i >= r || j > i) return 0n;
        if (j === i) return d[i] as bigint;
        return BigInt(Math.trunc((fill[i * 5 + j] as number) * Number(d[j])));
      }),
    );
    const { W, inverse } = unimodularPair(r + extra, o);
    return { B: multiply(inverse, R), R, U: W, r };
  });

/** The first LLL condition a basis breaks, the textbook way (rational Gram–Schmidt vectors), or null: the test's own truth. */
function textbookFailure(rows: readonly (readonly bigint[])[], delta: Rational): { reason: string; row: number } | null {
  const Q = RATIONALS;
  const dotQ = (u: readonly Rational[], v: readonly Rational[]): Rational => u.reduce((s, x, i) => Q.add(s, Q.mul(x, v[i] as Rational)), Q.zero);
  const less = (a: Rational, b: Rational): boolean => Q.sub(a, b).num < 0n;
  const star: Rational[][] = [];
  const norms: Rational[] = [];
  for (const [i, row] of rows.entries()) {
    const b = row.map((x) => Q.fromBigInt(x));
    let v = [...b];
    const mu: Rational[] = [];
    for (let j = 0; j < i; j++) {
      const m = Q.div(dotQ(b, star[j] as Rational[]), norms[j] as Rational);
      mu.push(m);
      if (less(Q.fromFraction(1n, 2n), m.num < 0n ? Q.neg(m) : m)) return { reason: 'NOT_SIZE_REDUCED', row: i };
      v = v.map((x, c) => Q.sub(x, Q.mul(m, (star[j] as Rational[])[c] as Rational)));
    }
    const B = dotQ(v, v);
    if (B.num === 0n) return { reason: 'DEPENDENT_ROWS', row: i };
    if (i > 0) {
      const m = mu[i - 1] as Rational;
      if (less(B, Q.mul(Q.sub(delta, Q.mul(m, m)), norms[i - 1] as Rational))) return { reason: 'LOVASZ_FAILS', row: i };
    }
    star.push(v);
    norms.push(B);
  }
  return null;
}

describe('LLL claims (pure checks)', () => {
  it('accepts true claims for every δ in (1/4, 1], dependent generators included', () => {
    fc.assert(
      fc.property(trueClaims, fc.constantFrom('3/4', '99/100', '1/1', '13/50'), ({ B, R, U }, delta) => {
        expect(checkLatticeBasisClaim(claimOf(B, R, U, delta))).toMatchObject({ accepted: true });
      }),
      { numRuns: 200 },
    );
  });

  it('property: on any basis without zero rows, the verdict and the failing row are the textbook\'s (rational Gram–Schmidt vectors)', () => {
    const rows = fc.integer({ min: 1, max: 4 }).chain((m) => fc.array(fc.array(fc.bigInt({ min: -6n, max: 6n }), { minLength: 4, maxLength: 4 }), { minLength: m, maxLength: m }));
    fc.assert(
      fc.property(rows, fc.constantFrom(['3/4', 3n, 4n], ['1/1', 1n, 1n], ['13/50', 13n, 50n]), (R, [text, p, q]) => {
        fc.pre(R.every((row) => row.some((x) => x !== 0n)));
        const I = R.map((_, i) => R.map((__, j) => (i === j ? 1n : 0n)));
        const expected = textbookFailure(R, RATIONALS.fromFraction(p, q));
        const result = checkLatticeBasisClaim(claimOf(R, R, I, text));
        if (expected === null) expect(result).toMatchObject({ accepted: true });
        else expect(result).toMatchObject({ accepted: false, reason_code: expected.reason, path: ['reduced', expected.row] });
      }),
      { numRuns: 400 },
    );
  });

  it('rejects a changed U: the product or the determinant gives it away', () => {
    fc.assert(
      fc.property(trueClaims, fc.nat(), fc.nat(), ({ B, R, U }, a, b) => {
        const m = U.length;
        const [i, j] = [a % m, b % m];
        const bumped = U.map((row, x) => row.map((v, y) => (x === i && y === j ? v + 1n : v)));
        const result = checkLatticeBasisClaim(claimOf(B, R, bumped));
        if ((B[j] as bigint[]).some((x) => x !== 0n)) expect(result.accepted).toBe(false);
        if (!result.accepted) expect([LatticeRejectionReason.NOT_UNIMODULAR, LatticeRejectionReason.PRODUCT_MISMATCH]).toContain(result.reason_code);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects a basis of the same lattice that is not size-reduced (row i += ±row j, U with it)', () => {
    fc.assert(
      fc.property(trueClaims, fc.nat(), fc.nat(), ({ B, R, U, r }, a, b) => {
        if (r < 2) return;
        const i = 1 + (a % (r - 1));
        const j = b % i;
        const sign = ((R[i] as bigint[])[j] as bigint) < 0n ? -1n : 1n;
        const move = (M: bigint[][]): bigint[][] => M.map((row, x) => (x === i ? row.map((v, y) => v + sign * ((M[j] as bigint[])[y] as bigint)) : row));
        const result = checkLatticeBasisClaim(claimOf(B, move(R), move(U)));
        expect(result).toMatchObject({ accepted: false, reason_code: LatticeRejectionReason.NOT_SIZE_REDUCED, path: ['reduced', i] });
      }),
      { numRuns: 200 },
    );
  });

  it('rejects a non-unimodular U even though U B = B′ (B′ spans a proper sublattice)', () => {
    const I = [[1n, 0n], [0n, 1n]];
    const twice = [[2n, 0n], [0n, 1n]];
    expect(checkLatticeBasisClaim(claimOf(I, twice, twice))).toMatchObject({ accepted: false, reason_code: LatticeRejectionReason.NOT_UNIMODULAR, path: ['transform'], witness: 'det = 2' });
  });

  it('rejects U B ≠ B′, naming the entry', () => {
    const B = [[1n, 2n], [2n, 5n]];
    const U = [[-2n, 1n], [5n, -2n]];
    expect(checkLatticeBasisClaim(claimOf(B, [[0n, 1n], [1n, 0n]], U))).toMatchObject({ accepted: true });
    expect(checkLatticeBasisClaim(claimOf(B, [[0n, 1n], [2n, 0n]], U))).toMatchObject({ accepted: false, reason_code: LatticeRejectionReason.PRODUCT_MISMATCH, path: ['reduced', 1, 0], witness: 'entry (1, 0)' });
  });

  it('rejects a basis where the Lovász condition fails, for δ and not for a smaller δ', () => {
    // (0, 10) then (1, 0): |b*_1|² = 1 < (3/4)·100.
    const B = [[1n, 0n], [0n, 10n]];
    const swap = [[0n, 1n], [1n, 0n]];
    expect(checkLatticeBasisClaim(claimOf(B, [[0n, 10n], [1n, 0n]], swap))).toMatchObject({ accepted: false, reason_code: LatticeRejectionReason.LOVASZ_FAILS, path: ['reduced', 1] });
    // (3, 0), (1, 3): μ = 1/3, |b*_1|² = 9 ≥ (δ − 1/9)·9 for every δ ≤ 1; (3, 0), (1, 2): 4 < (3/4 − 1/9)·9 = 5.75 but ≥ (13/50 − 1/9)·9.
    const C = [[3n, 0n], [1n, 2n]];
    const I = [[1n, 0n], [0n, 1n]];
    expect(checkLatticeBasisClaim(claimOf(C, C, I, '3/4'))).toMatchObject({ accepted: false, reason_code: LatticeRejectionReason.LOVASZ_FAILS });
    expect(checkLatticeBasisClaim(claimOf(C, C, I, '13/50'))).toMatchObject({ accepted: true });
  });

  it('rejects dependent non-zero rows, zero rows before the basis, and wrong shapes', () => {
    const B = [[1n, 2n], [2n, 4n]];
    const I = [[1n, 0n], [0n, 1n]];
    // (2, 4) after (1, 2): μ = 2 is caught first.
    expect(checkLatticeBasisClaim(claimOf(B, B, I))).toMatchObject({ accepted: false, reason_code: LatticeRejectionReason.NOT_SIZE_REDUCED });
    // (1, 2), (0, 0), (0, 1) puts a zero row before a non-zero one.
    expect(checkLatticeBasisClaim(claimOf([[1n, 2n], [0n, 0n], [0n, 1n]], [[1n, 2n], [0n, 0n], [0n, 1n]], [[1n, 0n, 0n], [0n, 1n, 0n], [0n, 0n, 1n]]))).toMatchObject({ accepted: false, reason_code: LatticeRejectionReason.ZERO_ROWS_NOT_LAST, path: ['reduced', 2] });
    // A dependent pair that is size-reduced: (2, 0), (1, 0) has μ = 1/2 and |b*_1|² = 0.
    expect(checkLatticeBasisClaim(claimOf([[2n, 0n], [1n, 0n]], [[2n, 0n], [1n, 0n]], I))).toMatchObject({ accepted: false, reason_code: LatticeRejectionReason.DEPENDENT_ROWS, path: ['reduced', 1] });
    expect(checkLatticeBasisClaim(claimOf(I, [[1n, 0n]], I))).toMatchObject({ accepted: false, reason_code: LatticeRejectionReason.SHAPE, path: ['reduced'] });
    expect(checkLatticeBasisClaim(claimOf(I, I, [[1n, 0n]]))).toMatchObject({ accepted: false, reason_code: LatticeRejectionReason.SHAPE, path: ['transform'] });
  });
});

describe('lattice.basis.verify as a capability', () => {
  let h: CheckerHarness;
  let checker: InstalledCapability;
  beforeAll(async () => {
    h = await createCheckerHarness('jacobian-lattice-checker-');
    checker = await h.install(verifyLatticeBasis);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (payload: Record<string, unknown>): Promise<CapabilityResult> => h.run(checker, payload);
  const out = (result: CapabilityResult): LatticeBasisVerifyOutput => completedOutput<LatticeBasisVerifyOutput>(result);

  it('verifies every advertised example, with a signed record bound to the stored claim', async () => {
    for (const example of checker.descriptor.examples) {
      const result = await run(example.payload);
      const output = out(result);
      expect(output.verdict, example.title).toBe('ACCEPTED');
      expect(result.assurance.level).toBe('VERIFIED');
      const record = await h.artifacts.get(output.verification_record_uri as string);
      expect(verifyRecordSignature(record.payload, h.trusted)).toMatchObject({ body: { candidate_uri: output.claim_uri } });
    }
  });

  it('verifies a stored claim by result_uri and rejects a stored false one, naming result_uri', async () => {
    const put = (payload: ReturnType<typeof claimOf>) => h.artifacts.put({ schema_uri: LATTICE_BASIS_CLAIM_SCHEMA_URI, semantics_uri: LATTICE_BASIS_CLAIM_SEMANTICS_URI, payload, parents: [], summary: {} });
    const good = await put(claimOf([[1n, 2n], [2n, 5n]], [[0n, 1n], [1n, 0n]], [[-2n, 1n], [5n, -2n]]));
    expect(out(await run({ result_uri: good.uri }))).toMatchObject({ verdict: 'ACCEPTED', claim_kind: 'LLL_REDUCED_BASIS', claim_uri: good.uri });
    const bad = await put(claimOf([[1n, 0n], [0n, 10n]], [[0n, 10n], [1n, 0n]], [[0n, 1n], [1n, 0n]]));
    const rejected = await run({ result_uri: bad.uri });
    expect(out(rejected)).toMatchObject({ verdict: 'REJECTED', reason_code: 'LOVASZ_FAILS', verification_record_uri: null });
    expect(rejected.assurance.level).toBe('COMPUTED');
    expect(rejected.diagnostics[0]).toMatchObject({ code: 'CHECKER_REJECTED', path: ['payload', 'result_uri'] });
  });

  it('rejects an inline claim that is not size-reduced, naming the row', async () => {
    const result = await run({ claim: { matrix: { ring: { kind: 'Z' }, rows: [[1, 0], [3, 1]] }, reduced: [['1', '0'], ['3', '1']], transform: [['1', '0'], ['0', '1']] } });
    expect(out(result)).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_SIZE_REDUCED', failure: { path: ['reduced', 1] } });
    expect(result.diagnostics[0]).toMatchObject({ path: ['payload', 'claim', 'reduced', 1] });
  });

  it('refuses δ out of range, a fraction entry and a rational matrix: bad requests, never verdicts', async () => {
    const base = { matrix: { ring: { kind: 'Z' }, rows: [[1]] }, reduced: [['1']], transform: [['1']] };
    const delta = await run({ claim: { ...base, delta: '1/5' } });
    expect(delta.execution.status).toBe('ERROR');
    expect(delta.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'delta'] });
    expect(delta.diagnostics[0]?.message).toMatch(/delta-range/);
    const fraction = await run({ claim: { ...base, transform: [['1/2']] } });
    expect(fraction.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'transform', 0, 0] });
    const overQ = await run({ claim: { ...base, matrix: { ring: { kind: 'Q' }, rows: [[1]] } } });
    expect(overQ.diagnostics[0]?.message).toMatch(/integer-matrix/);
  });
});
