import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeRational,
  MATRIX_LIMITS,
  maxTransformEntryTextLength,
  RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI,
  RATIONAL_CANONICAL_FORM_CLAIM_SEMANTICS_URI,
  RationalCanonicalFormClaimSchema,
  RATIONALS,
  type CapabilityResult,
  type InstalledCapability,
  type Rational,
} from '@jacobian/shared';
import { completedOutput, createCheckerHarness, type CheckerHarness } from '../checker-test-support.js';
import type { MatrixVerifyOutput } from './linear-algebra-verify-capability.js';
import { verifyRationalCanonicalForm } from './rational-canonical-form-verify-capability.js';
import { checkRationalCanonicalFormClaim } from './rational-canonical-form-verify.js';

const matrix = (rows: (string | number)[][], ring: Record<string, string> = { kind: 'Q' }) => ({ ring, nrows: rows.length, ncols: rows[0]?.length ?? 0, rows: rows.map((row) => row.map(String)) });
const strings = (rows: (string | number)[][]): string[][] => rows.map((row) => row.map(String));

// diag(2, 2, 3): F = diag(2, C(x^2 − 5x + 6)); P's columns: an eigenvector for 2, then v = (1, 0, 1) and A v = (2, 0, 3).
const A = matrix([[2, 0, 0], [0, 2, 0], [0, 0, 3]], { kind: 'Z' });
const GOOD = { matrix: A, invariant_factors: [['-2', '1'], ['6', '-5', '1']], transform: strings([[0, 1, 2], [1, 0, 0], [0, 1, 3]]) };

describe('checkRationalCanonicalFormClaim', () => {
  it('accepts a correct form with its transform', () => {
    expect(checkRationalCanonicalFormClaim(GOOD)).toMatchObject({ accepted: true });
  });

  it('rejects a transform that does not conjugate, naming the entry', () => {
    expect(checkRationalCanonicalFormClaim({ ...GOOD, transform: strings([[0, 1, 2], [1, 0, 0], [0, 1, 4]]) })).toMatchObject({ accepted: false, reason_code: 'NOT_SIMILAR', path: ['transform'] });
  });

  it('rejects a singular P even though A P = P F (P = 0)', () => {
    expect(checkRationalCanonicalFormClaim({ ...GOOD, transform: strings([[0, 0, 0], [0, 0, 0], [0, 0, 0]]) })).toMatchObject({ accepted: false, reason_code: 'SINGULAR_TRANSFORM' });
  });

  it('rejects invariant factors out of order (not dividing), non-monic, constant, or of the wrong total degree', () => {
    // (x − 2)(x − 3), then x − 2: the same blocks in the wrong order do not divide.
    expect(checkRationalCanonicalFormClaim({ ...GOOD, invariant_factors: [['6', '-5', '1'], ['-2', '1']], transform: strings([[1, 2, 0], [0, 0, 1], [1, 3, 0]]) })).toMatchObject({ accepted: false, reason_code: 'NOT_DIVISIBLE' });
    // diag(C(x − 2), C(x − 2), C(x − 3)) conjugates A by P = I, but x − 2 ∤ x − 3: not a Frobenius form.
    expect(checkRationalCanonicalFormClaim({ ...GOOD, invariant_factors: [['-2', '1'], ['-2', '1'], ['-3', '1']], transform: strings([[1, 0, 0], [0, 1, 0], [0, 0, 1]]) })).toMatchObject({ accepted: false, reason_code: 'NOT_DIVISIBLE' });
    expect(checkRationalCanonicalFormClaim({ ...GOOD, invariant_factors: [['-4', '2'], ['6', '-5', '1']] })).toMatchObject({ accepted: false, reason_code: 'NOT_MONIC' });
    expect(checkRationalCanonicalFormClaim({ ...GOOD, invariant_factors: [['1'], ['-2', '1'], ['6', '-5', '1']] })).toMatchObject({ accepted: false, reason_code: 'SHAPE' });
    expect(checkRationalCanonicalFormClaim({ ...GOOD, invariant_factors: [['6', '-5', '1']] })).toMatchObject({ accepted: false, reason_code: 'SHAPE' });
  });

  it('over GF(p) and over Q with fractions', () => {
    // A Jordan block over GF(7): one block (x − 1)^2 = x^2 + 5x + 1, P = [v, A v] with v = e_2, A v = (1, 1).
    const J = matrix([[1, 1], [0, 1]], { kind: 'GF', characteristic: '7' });
    expect(checkRationalCanonicalFormClaim({ matrix: J, invariant_factors: [['1', '5', '1']], transform: strings([[0, 1], [1, 1]]) })).toMatchObject({ accepted: true });
    expect(checkRationalCanonicalFormClaim({ matrix: J, invariant_factors: [['1', '5', '1']], transform: strings([[1, 1], [0, 0]]) })).toMatchObject({ accepted: false });
    const half = matrix([['1/2', 0], [0, '1/2']]);
    expect(checkRationalCanonicalFormClaim({ matrix: half, invariant_factors: [['-1/2', '1'], ['-1/2', '1']], transform: strings([['1/3', 0], [0, 5]]) })).toMatchObject({ accepted: true });
  });
});

describe('matrix.rational_canonical_form.verify as a capability', () => {
  let h: CheckerHarness;
  let checker: InstalledCapability;
  beforeAll(async () => {
    h = await createCheckerHarness('jacobian-rcf-checker-');
    checker = await h.install(verifyRationalCanonicalForm);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (payload: Record<string, unknown>): Promise<CapabilityResult> => h.run(checker, payload);
  const out = (result: CapabilityResult): MatrixVerifyOutput => completedOutput<MatrixVerifyOutput>(result);

  it('verifies every advertised example with a signed record', async () => {
    for (const example of checker.descriptor.examples) {
      const result = await run(example.payload);
      expect(out(result).verdict, example.title).toBe('ACCEPTED');
      expect(result.assurance.level).toBe('VERIFIED');
      expect(out(result).verification_record_uri).not.toBeNull();
    }
  });

  it('verifies a stored claim by result_uri and rejects a stored wrong one, with no record', async () => {
    const put = async (payload: typeof GOOD): Promise<string> => (await h.artifacts.put({ schema_uri: RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI, semantics_uri: RATIONAL_CANONICAL_FORM_CLAIM_SEMANTICS_URI, payload, parents: [], summary: {} })).uri;
    const good = await put(GOOD);
    expect(out(await run({ result_uri: good }))).toMatchObject({ verdict: 'ACCEPTED', claim_uri: good, claim_kind: 'MATRIX_RATIONAL_CANONICAL_FORM' });
    const bad = await put({ ...GOOD, transform: strings([[0, 1, 2], [1, 0, 0], [0, 1, 4]]) });
    expect(out(await run({ result_uri: bad }))).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_SIMILAR', verification_record_uri: null });
  });

  it('a 20×20 Q claim whose P has entries beyond the entry text limit: verified stored and inline; an entry beyond transform-size refused, a wrong one rejected', async () => {
    // A e_i = a_i e_(i+1) (i < n), A e_n = c, a_i = (10^150 + i)/(i + 2): in the basis w_k = A^k e_1 = (a_1 ⋯ a_k) e_(k+1),
    // A w_(n−1) = (a_1 ⋯ a_(n−1)) c = Σ γ_k w_k with γ_k = c_(k+1) a_(k+1) ⋯ a_(n−1): one block, χ = x^n − Σ γ_k x^k, P = diag(a_1 ⋯ a_k).
    const n = 20;
    const a = Array.from({ length: n - 1 }, (_, i) => makeRational(10n ** 150n + BigInt(i), BigInt(i + 2)));
    const c = Array.from({ length: n }, (_, i) => BigInt((i % 5) - 2 || 1));
    const rows = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j === n - 1 ? String(c[i]) : i === j + 1 ? RATIONALS.format(a[j] as Rational) : '0')));
    const prefix = [RATIONALS.one];
    for (const x of a) prefix.push(RATIONALS.mul(prefix[prefix.length - 1] as Rational, x));
    const whole = prefix[n - 1] as Rational;
    const chi = [...Array.from({ length: n }, (_, k) => RATIONALS.format(RATIONALS.neg(RATIONALS.div(RATIONALS.mul(makeRational(c[k] as bigint, 1n), whole), prefix[k] as Rational)))), '1'];
    const transform = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? RATIONALS.format(prefix[i] as Rational) : '0')));
    expect(Math.max(...transform.flat().map((t) => t.length))).toBeGreaterThan(MATRIX_LIMITS.maxEntryTextLength);
    const stored = RationalCanonicalFormClaimSchema.parse({ matrix: matrix(rows), invariant_factors: [chi], transform });
    const uri = (await h.artifacts.put({ schema_uri: RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI, semantics_uri: RATIONAL_CANONICAL_FORM_CLAIM_SEMANTICS_URI, payload: stored, parents: [], summary: {} })).uri;
    expect(out(await run({ result_uri: uri }))).toMatchObject({ verdict: 'ACCEPTED' });
    const inline = { matrix: { ring: { kind: 'Q' }, rows }, invariant_factors: [chi], transform };
    expect(out(await run({ claim: inline }))).toMatchObject({ verdict: 'ACCEPTED' });
    // Within the limit but off (P_11 doubled): rejected; one character beyond n×n's entry limit: refused before parsing, naming the place and the rule.
    const off = transform.map((row, i) => row.map((t, j) => (i === 1 && j === 1 ? RATIONALS.format(RATIONALS.mul(prefix[1] as Rational, makeRational(2n, 1n))) : t)));
    expect(out(await run({ claim: { ...inline, transform: off } }))).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_SIMILAR' });
    const long = transform.map((row, i) => row.map((t, j) => (i === 2 && j === 3 ? '1'.repeat(maxTransformEntryTextLength(n) + 1) : t)));
    const tooLong = await run({ claim: { ...inline, transform: long } });
    expect(tooLong.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'transform', 2, 3] });
    expect(tooLong.diagnostics[0]?.message).toMatch(/rule transform-size/);
    expect(RationalCanonicalFormClaimSchema.safeParse({ ...stored, transform: long }).success).toBe(false);
  });

  it('answers a bad entry with an error at its place, not a verdict', async () => {
    const result = await run({ claim: { matrix: { ring: { kind: 'Z' }, rows: [[1]] }, invariant_factors: [['-1', 'one']], transform: [[1]] } });
    expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'invariant_factors', 0, 1] });
  });
});
