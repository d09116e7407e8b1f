import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coefficientSizeLimits,
  makeRational,
  MATRIX_LIMITS,
  MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI,
  MINIMAL_POLYNOMIAL_CLAIM_SEMANTICS_URI,
  MinimalPolynomialClaimSchema,
  RATIONALS,
  type CapabilityResult,
  type InstalledCapability,
  type Rational,
} from '@jacobian/shared';
import { triangularWithKnownMinimalPolynomial } from '@jacobian/shared/testing';
import { completedOutput, createCheckerHarness, type CheckerHarness } from '../checker-test-support.js';
import type { MatrixVerifyOutput } from './linear-algebra-verify-capability.js';
import { MatrixRejectionReason } from './linear-algebra-verify.js';
import { verifyMinimalPolynomial } from './minimal-polynomial-verify-capability.js';
import { checkMinimalPolynomialClaim } from './minimal-polynomial-verify.js';

const matrix = (rows: (string | number)[][], ring: Record<string, string> = { kind: 'Q' }) => ({ ring, nrows: rows.length, ncols: rows[0]?.length ?? 0, rows: rows.map((row) => row.map(String)) });

/** Coefficients of Π (x − r_i), lowest degree first, as integers (the test's own expansion). */
function fromRoots(roots: number[]): string[] {
  let p = [1n];
  for (const r of roots) {
    const next = Array.from({ length: p.length + 1 }, () => 0n);
    p.forEach((c, k) => {
      next[k + 1] = (next[k + 1] ?? 0n) + c;
      next[k] = (next[k] ?? 0n) - BigInt(r) * c;
    });
    p = next;
  }
  return p.map(String);
}

/** A block diagonal matrix of Jordan blocks J_size(eigenvalue), conjugated by a fixed unimodular P = U L (so that it is dense). */
function jordanForm(blocks: { eigenvalue: number; size: number }[]): string[][] {
  const n = blocks.reduce((s, b) => s + b.size, 0);
  const J = Array.from({ length: n }, () => Array.from({ length: n }, () => 0n));
  let at = 0;
  for (const b of blocks) {
    for (let i = 0; i < b.size; i++) {
      (J[at + i] as bigint[])[at + i] = BigInt(b.eigenvalue);
      if (i + 1 < b.size) (J[at + i] as bigint[])[at + i + 1] = 1n;
    }
    at += b.size;
  }
  const mul = (A: bigint[][], B: bigint[][]): bigint[][] => A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));
  // U: unit upper with 1 above the diagonal; its inverse has (−1)^(j−i) above. L = Uᵀ.
  const U = J.map((_, i) => J.map((__, j) => (j === i || j === i + 1 ? 1n : 0n)));
  const Uinv = J.map((_, i) => J.map((__, j) => (j >= i ? ((j - i) % 2 === 0 ? 1n : -1n) : 0n)));
  const L = J.map((_, i) => J.map((__, j) => (U[j] as bigint[])[i] as bigint));
  const Linv = J.map((_, i) => J.map((__, j) => (Uinv[j] as bigint[])[i] as bigint));
  // P = U L, P⁻¹ = L⁻¹ U⁻¹; A = P⁻¹ J P.
  return mul(mul(mul(Linv, Uinv), J), mul(U, L)).map((row) => row.map(String));
}

/** The minimal polynomial of a Jordan form: Π over eigenvalues of (x − λ)^(largest block). */
function jordanMinimal(blocks: { eigenvalue: number; size: number }[]): string[] {
  const largest = new Map<number, number>();
  for (const b of blocks) largest.set(b.eigenvalue, Math.max(largest.get(b.eigenvalue) ?? 0, b.size));
  return fromRoots([...largest].flatMap(([λ, k]) => Array.from({ length: k }, () => λ)));
}

const blocksArbitrary = fc.array(fc.record({ eigenvalue: fc.integer({ min: -2, max: 2 }), size: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 4 });

describe('minimal polynomial claims (pure checks)', () => {
  it('accepts the minimal polynomial of Jordan forms conjugated to dense matrices, by the Krylov bound or the exact power rank', () => {
    fc.assert(
      fc.property(blocksArbitrary, (blocks) => {
        const result = checkMinimalPolynomialClaim({ matrix: matrix(jordanForm(blocks)), coefficients: jordanMinimal(blocks) });
        expect(result, JSON.stringify(blocks)).toMatchObject({ accepted: true });
      }),
      { numRuns: 60 },
    );
  });

  it('rejects the characteristic polynomial of a derogatory matrix (it kills A but is not minimal), naming the true degree', () => {
    fc.assert(
      fc.property(blocksArbitrary, (blocks) => {
        const chi = fromRoots(blocks.flatMap((b) => Array.from({ length: b.size }, () => b.eigenvalue)));
        const m = jordanMinimal(blocks);
        const result = checkMinimalPolynomialClaim({ matrix: matrix(jordanForm(blocks)), coefficients: chi });
        if (chi.length === m.length) expect(result).toMatchObject({ accepted: true });
        else expect(result).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.NOT_MINIMAL, witness: `minimal degree ${m.length - 1}` });
      }),
      { numRuns: 60 },
    );
  });

  it('rejects (x − 2)^3 for the scalar matrix 2I, a non-monic polynomial, one that does not kill A, and a degree above n', () => {
    const scalar = matrix([[2, 0, 0], [0, 2, 0], [0, 0, 2]]);
    expect(checkMinimalPolynomialClaim({ matrix: scalar, coefficients: ['-2', '1'] })).toMatchObject({ accepted: true });
    expect(checkMinimalPolynomialClaim({ matrix: scalar, coefficients: fromRoots([2, 2, 2]) })).toMatchObject({ accepted: false, reason_code: 'NOT_MINIMAL', witness: 'minimal degree 1' });
    expect(checkMinimalPolynomialClaim({ matrix: scalar, coefficients: ['-4', '2'] })).toMatchObject({ accepted: false, reason_code: 'NOT_MONIC', path: ['coefficients', 1] });
    expect(checkMinimalPolynomialClaim({ matrix: scalar, coefficients: ['-2', '1', '0'] })).toMatchObject({ accepted: false, reason_code: 'NOT_MONIC' });
    expect(checkMinimalPolynomialClaim({ matrix: scalar, coefficients: ['-3', '1'] })).toMatchObject({ accepted: false, reason_code: 'DOES_NOT_ANNIHILATE', witness: 'entry (0, 0) of p(A)' });
    expect(checkMinimalPolynomialClaim({ matrix: scalar, coefficients: ['1'] })).toMatchObject({ accepted: false, reason_code: 'DOES_NOT_ANNIHILATE' });
    expect(checkMinimalPolynomialClaim({ matrix: scalar, coefficients: fromRoots([2, 2, 2, 2]) })).toMatchObject({ accepted: false, reason_code: 'NOT_MINIMAL' });
    // [[1, 2], [3, 4]]: x^2 − 5x − 2; x^2 − 5x + 2 is off by 4 on the diagonal.
    expect(checkMinimalPolynomialClaim({ matrix: matrix([[1, 2], [3, 4]], { kind: 'Z' }), coefficients: ['-2', '-5', '1'] })).toMatchObject({ accepted: true });
    expect(checkMinimalPolynomialClaim({ matrix: matrix([[1, 2], [3, 4]], { kind: 'Z' }), coefficients: ['2', '-5', '1'] })).toMatchObject({ accepted: false, reason_code: 'DOES_NOT_ANNIHILATE' });
  });

  it('over GF(p): tiny fields where no single fixed vector may be cyclic are decided exactly', () => {
    const gf2 = { kind: 'GF', characteristic: '2' };
    // [[0, 1], [1, 1]] over GF(2): x^2 + x + 1, cyclic.
    expect(checkMinimalPolynomialClaim({ matrix: matrix([[0, 1], [1, 1]], gf2), coefficients: ['1', '1', '1'] })).toMatchObject({ accepted: true });
    // diag(0, 1, 1) over GF(2): minimal x^2 + x = x(x + 1); x(x + 1)^2 = x^3 + x is not minimal.
    const diag = matrix([[0, 0, 0], [0, 1, 0], [0, 0, 1]], gf2);
    expect(checkMinimalPolynomialClaim({ matrix: diag, coefficients: ['0', '1', '1'] })).toMatchObject({ accepted: true });
    expect(checkMinimalPolynomialClaim({ matrix: diag, coefficients: ['0', '1', '0', '1'] })).toMatchObject({ accepted: false, reason_code: 'NOT_MINIMAL' });
    // diag(0, 1) over GF(2): cyclic, but only vectors with both entries non-zero are; the checker finds it or decides exactly.
    expect(checkMinimalPolynomialClaim({ matrix: matrix([[0, 0], [0, 1]], gf2), coefficients: ['0', '1', '1'] })).toMatchObject({ accepted: true });
  });

  it('over Q with fractions: a rational Jordan block', () => {
    const A = matrix([['1/2', 1], [0, '1/2']]);
    expect(checkMinimalPolynomialClaim({ matrix: A, coefficients: ['1/4', '-1', '1'] })).toMatchObject({ accepted: true });
    expect(checkMinimalPolynomialClaim({ matrix: A, coefficients: ['-1/2', '1'] })).toMatchObject({ accepted: false, reason_code: 'DOES_NOT_ANNIHILATE' });
  });

  it('over Q, p(A) in integers over a common denominator: x² − tr A·x + det A for non-scalar 2×2 A, and p + 1/7 leaves exactly 1/7 I', () => {
    const q = fc.tuple(fc.integer({ min: -40, max: 40 }), fc.integer({ min: 1, max: 30 })).map(([a, b]) => makeRational(BigInt(a), BigInt(b)));
    fc.assert(
      fc.property(fc.tuple(q, q, q, q), ([a, b, c, d]) => {
        fc.pre(!(RATIONALS.isZero(b) && RATIONALS.isZero(c) && RATIONALS.equals(a, d)));
        const A = matrix([[a, b], [c, d]].map((row) => row.map((x) => RATIONALS.format(x))));
        const trace = RATIONALS.add(a, d);
        const det = RATIONALS.sub(RATIONALS.mul(a, d), RATIONALS.mul(b, c));
        const p = [det, RATIONALS.neg(trace), RATIONALS.one];
        expect(checkMinimalPolynomialClaim({ matrix: A, coefficients: p.map((x) => RATIONALS.format(x)) })).toMatchObject({ accepted: true });
        const shifted = [RATIONALS.add(det, makeRational(1n, 7n)), ...p.slice(1)];
        expect(checkMinimalPolynomialClaim({ matrix: A, coefficients: shifted.map((x) => RATIONALS.format(x)) })).toMatchObject({ accepted: false, reason_code: 'DOES_NOT_ANNIHILATE', message: expect.stringMatching(/entry \(0, 0\) is 1\/7$/) as unknown });
      }),
      { numRuns: 50 },
    );
  });
});

describe('matrix.minimal_polynomial.verify as a capability', () => {
  let h: CheckerHarness;
  let checker: InstalledCapability;
  beforeAll(async () => {
    h = await createCheckerHarness('jacobian-minpoly-checker-');
    checker = await h.install(verifyMinimalPolynomial);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (payload: Record<string, unknown>): Promise<CapabilityResult> => h.run(checker, payload);
  const out = (result: CapabilityResult): MatrixVerifyOutput => completedOutput<MatrixVerifyOutput>(result);

  it('verifies every advertised example with a signed record, stating the minimality method', async () => {
    for (const example of checker.descriptor.examples) {
      const result = await run(example.payload);
      const output = out(result);
      expect(output.verdict, example.title).toBe('ACCEPTED');
      expect(result.assurance.level).toBe('VERIFIED');
      expect(output.message).toMatch(/Krylov lower bound|exact rank/);
      expect(output.verification_record_uri).not.toBeNull();
    }
  });

  it('verifies a stored claim by result_uri and rejects a stored non-minimal one, with no record', async () => {
    const put = async (coefficients: string[]): Promise<string> =>
      (await h.artifacts.put({ schema_uri: MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI, semantics_uri: MINIMAL_POLYNOMIAL_CLAIM_SEMANTICS_URI, payload: { matrix: matrix([[2, 0], [0, 2]], { kind: 'Z' }), coefficients }, parents: [], summary: {} })).uri;
    const good = await put(['-2', '1']);
    expect(out(await run({ result_uri: good }))).toMatchObject({ verdict: 'ACCEPTED', claim_uri: good, claim_kind: 'MATRIX_MINIMAL_POLYNOMIAL' });
    const bad = await put(['4', '-4', '1']);
    expect(out(await run({ result_uri: bad }))).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_MINIMAL', verification_record_uri: null });
  });

  it('a 20×20 Q matrix of 200-digit entries whose minimal polynomial has coefficients beyond the entry text limit: verified stored and inline; a coefficient beyond the matrix\'s own bound is refused, one within it but wrong rejected', async () => {
    const n = 20;
    const { rows, minimal: coefficients } = triangularWithKnownMinimalPolynomial(n, 200);
    expect((coefficients[0] as string).length).toBeGreaterThan(MATRIX_LIMITS.maxEntryTextLength);
    const stored = MinimalPolynomialClaimSchema.parse({ matrix: matrix(rows), coefficients });
    const uri = (await h.artifacts.put({ schema_uri: MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI, semantics_uri: MINIMAL_POLYNOMIAL_CLAIM_SEMANTICS_URI, payload: stored, parents: [], summary: {} })).uri;
    expect(out(await run({ result_uri: uri }))).toMatchObject({ verdict: 'ACCEPTED' });
    expect(out(await run({ claim: { matrix: { ring: { kind: 'Q' }, rows }, coefficients } }))).toMatchObject({ verdict: 'ACCEPTED' });
    // c_0 with one more digit than the bound allows: refused before any arithmetic, naming the rule; within the bound but off: rejected.
    const bound = coefficientSizeLimits(stored.matrix, n)[0] as { maxTextLength: number };
    const tooLong = await run({ claim: { matrix: { ring: { kind: 'Q' }, rows }, coefficients: ['1'.repeat(bound.maxTextLength + 1), ...coefficients.slice(1)] } });
    expect(tooLong.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'coefficients', 0] });
    expect(tooLong.diagnostics[0]?.message).toMatch(/rule coefficient-size/);
    expect(MinimalPolynomialClaimSchema.safeParse({ matrix: matrix(rows), coefficients: ['1'.repeat(bound.maxTextLength + 1), ...coefficients.slice(1)] }).success).toBe(false);
    const off = [RATIONALS.format(RATIONALS.add(RATIONALS.parseCanonical(coefficients[0] as string) as Rational, RATIONALS.one)), ...coefficients.slice(1)];
    expect(out(await run({ claim: { matrix: { ring: { kind: 'Q' }, rows }, coefficients: off } }))).toMatchObject({ verdict: 'REJECTED', reason_code: 'DOES_NOT_ANNIHILATE' });
  });

  it('answers a bad coefficient with an error at its place, not a verdict', async () => {
    const result = await run({ claim: { matrix: { ring: { kind: 'Z' }, rows: [[1]] }, coefficients: ['-1', 'one'] } });
    expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'coefficients', 1] });
    const overGF = await run({ claim: { matrix: { ring: { kind: 'GF', characteristic: '5' }, rows: [[1]] }, coefficients: ['1/5', '1'] } });
    expect(overGF.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'coefficients', 0] });
  });
});
