import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NORMAL_FORM_CLAIM_SCHEMA_URI,
  NORMAL_FORM_CLAIM_SEMANTICS_URI,
  verifyRecordSignature,
  type CapabilityResult,
  type InstalledCapability,
} from '@jacobian/shared';
import { completedOutput, createCheckerHarness, type CheckerHarness } from '../checker-test-support.js';
import { verifyNormalForm, type NormalFormVerifyOutput } from './normal-form-verify-capability.js';
import { checkNormalFormClaim, integerDeterminant, NormalFormRejectionReason } from './normal-form-verify.js';

function multiply(A: readonly (readonly bigint[])[], B: readonly (readonly bigint[])[]): bigint[][] {
  return A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));
}
const texts = (M: readonly (readonly bigint[])[]): string[][] => M.map((row) => row.map(String));
const stored = (rows: readonly (readonly bigint[])[]) => ({ ring: { kind: 'Z' }, nrows: rows.length, ncols: rows[0]?.length ?? 0, rows: texts(rows) });

/** A unimodular W and its inverse, built from elementary operations (row i += q·row j, swaps, negations) without any elimination. */
function unimodularPair(m: number, ops: readonly [number, number, number][]): { W: bigint[][]; inverse: bigint[][] } {
  const id = (): bigint[][] => Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => (i === j ? 1n : 0n)));
  const W = id();
  const inverse = id();
  for (const [a, b, q] of ops) {
    const i = a % m;
    const j = b % m;
    if (i === j) {
      // Negating row i of W; the inverse negates column i.
      W[i] = (W[i] as bigint[]).map((x) => -x);
      for (const row of inverse) row[i] = -(row[i] as bigint);
    } else if (q === 0) {
      [W[i], W[j]] = [W[j] as bigint[], W[i] as bigint[]];
      for (const row of inverse) [row[i], row[j]] = [row[j] as bigint, row[i] as bigint];
    } else {
      // E = I + q e_ij on the left of W; E⁻¹ = I − q e_ij on the right of the inverse: column j −= q·column i.
      W[i] = (W[i] as bigint[]).map((x, c) => x + BigInt(q) * ((W[j] as bigint[])[c] as bigint));
      for (const row of inverse) row[j] = (row[j] as bigint) - BigInt(q) * (row[i] as bigint);
    }
  }
  return { W, inverse };
}

const ops = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: -3, max: 3 })), { maxLength: 25 });

/** A random m×n matrix in row Hermite normal form of rank ≤ min(m, n). */
const hermiteForms = fc
  .record({ m: fc.integer({ min: 1, max: 5 }), n: fc.integer({ min: 1, max: 5 }), picks: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }), values: fc.array(fc.bigInt({ min: 0n, max: 1000n }), { minLength: 25, maxLength: 25 }) })
  .map(({ m, n, picks, values }) => {
    const pivots = Array.from({ length: n }, (_, c) => c).filter((c) => picks[c] === true).slice(0, m);
    let v = 0;
    const next = (): bigint => values[v++ % values.length] as bigint;
    const H = Array.from({ length: m }, () => Array.from({ length: n }, () => 0n));
    for (const [i, p] of pivots.entries()) {
      const row = H[i] as bigint[];
      row[p] = next() + 1n;
      for (let c = p + 1; c < n; c++) row[c] = pivots.includes(c) ? 0n : next() - 500n;
    }
    // Entries above each pivot reduced into [0, pivot).
    for (const [i, p] of pivots.entries()) for (let k = 0; k < i; k++) (H[k] as bigint[])[p] = next() % ((H[i] as bigint[])[p] as bigint);
    return H;
  });

const hermiteClaims = fc.tuple(hermiteForms, ops).map(([H, o]) => {
  const { W, inverse } = unimodularPair(H.length, o);
  return { A: multiply(inverse, H), H, U: W };
});

const smithClaims = fc
  .record({ m: fc.integer({ min: 1, max: 5 }), n: fc.integer({ min: 1, max: 5 }), factors: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 5, maxLength: 5 }), rank: fc.nat(), left: ops, right: ops })
  .map(({ m, n, factors, rank, left, right }) => {
    const size = Math.min(m, n);
    const r = rank % (size + 1);
    let d = 1n;
    const diagonal = Array.from({ length: size }, (_, i) => (i < r ? (d *= BigInt(factors[i] as number)) : 0n));
    const D = Array.from({ length: m }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? (diagonal[i] as bigint) : 0n)));
    const L = unimodularPair(m, left);
    const R = unimodularPair(n, right);
    return { A: multiply(multiply(L.inverse, D), R.inverse), diagonal, U: L.W, V: R.W };
  });

const hermite = (A: bigint[][], H: bigint[][], U: bigint[][]) => ({ matrix: stored(A), form: 'HERMITE', hnf: texts(H), diagonal: null, left_transform: texts(U), right_transform: null });
const smith = (A: bigint[][], diagonal: bigint[], U: bigint[][], V: bigint[][]) => ({ matrix: stored(A), form: 'SMITH', hnf: null, diagonal: diagonal.map(String), left_transform: texts(U), right_transform: texts(V) });

describe('normal form claims (pure checks)', () => {
  it('its own determinant is exact (products of unimodular factors have det ±1; a scaled row scales it)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), ops, (m, o) => {
        const { W, inverse } = unimodularPair(m, o);
        const det = integerDeterminant(W);
        expect(det === 1n || det === -1n).toBe(true);
        expect(integerDeterminant(inverse)).toBe(det);
        expect(integerDeterminant([W[0]?.map((x) => 3n * x) ?? [], ...W.slice(1)])).toBe(3n * det);
      }),
    );
  });

  it('accepts true Hermite and Smith claims built with known transforms', () => {
    fc.assert(fc.property(hermiteClaims, ({ A, H, U }) => void expect(checkNormalFormClaim(hermite(A, H, U))).toMatchObject({ accepted: true })), { numRuns: 200 });
    fc.assert(fc.property(smithClaims, ({ A, diagonal, U, V }) => void expect(checkNormalFormClaim(smith(A, diagonal, U, V))).toMatchObject({ accepted: true })), { numRuns: 200 });
  });

  it('rejects a changed U: its product or its determinant gives it away', () => {
    fc.assert(
      fc.property(fc.tuple(hermiteClaims, fc.nat(), fc.nat()), ([{ A, H, U }, a, b]) => {
        const m = U.length;
        const [i, j] = [a % m, b % m];
        const bumped = U.map((row, r) => row.map((x, c) => (r === i && c === j ? x + 1n : x)));
        const result = checkNormalFormClaim(hermite(A, H, bumped));
        // U A changes in row i by A's row j, non-zero unless that row of A is zero.
        if ((A[j] as bigint[]).some((x) => x !== 0n)) expect(result.accepted).toBe(false);
        if (!result.accepted) expect([NormalFormRejectionReason.NOT_UNIMODULAR, NormalFormRejectionReason.PRODUCT_MISMATCH]).toContain(result.reason_code);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects a non-unimodular transform even when the product and the shape hold (H spans a sublattice only)', () => {
    const A = [[1n, 0n], [0n, 1n]];
    expect(checkNormalFormClaim(hermite(A, [[2n, 0n], [0n, 1n]], [[2n, 0n], [0n, 1n]]))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.NOT_UNIMODULAR, path: ['left_transform'], witness: 'det = 2' });
    // D = diag(1, 2) = U A V with V = diag(1, 2): det V = 2.
    expect(checkNormalFormClaim(smith(A, [1n, 2n], [[1n, 0n], [0n, 1n]], [[1n, 0n], [0n, 2n]]))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.NOT_UNIMODULAR, path: ['right_transform'] });
  });

  it('rejects a wrong product, a D whose diagonal is not a divisibility chain, and an H that is not reduced or not echelon', () => {
    const A = [[2n, 4n], [6n, 8n]];
    const U = [[-2n, 1n], [3n, -1n]];
    expect(checkNormalFormClaim(hermite(A, [[2n, 0n], [0n, 4n]], U))).toMatchObject({ accepted: true });
    // [[2, 1], [0, 4]] is a Hermite form, but not U A.
    expect(checkNormalFormClaim(hermite(A, [[2n, 1n], [0n, 4n]], U))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.PRODUCT_MISMATCH, path: ['hnf', 0, 1], witness: 'entry (0, 1)' });
    // H = A with U = I multiplies out, but 5 above the pivot 3 is not reduced; -2 as a pivot is not positive; a zero row first is not echelon.
    expect(checkNormalFormClaim(hermite([[1n, 5n], [0n, 3n]], [[1n, 5n], [0n, 3n]], [[1n, 0n], [0n, 1n]]))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.NOT_REDUCED, path: ['hnf', 0, 1] });
    expect(checkNormalFormClaim(hermite([[1n, 0n], [0n, -2n]], [[1n, 0n], [0n, -2n]], [[1n, 0n], [0n, 1n]]))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.PIVOT_NOT_POSITIVE });
    expect(checkNormalFormClaim(hermite([[0n, 0n], [1n, 0n]], [[0n, 0n], [1n, 0n]], [[1n, 0n], [0n, 1n]]))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.NOT_ECHELON, path: ['hnf', 1] });
    expect(checkNormalFormClaim(hermite([[0n, 1n], [1n, 0n]], [[0n, 1n], [1n, 0n]], [[1n, 0n], [0n, 1n]]))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.NOT_ECHELON });
    // diag(2, 3) = A with U = V = I: equivalent, but 2 ∤ 3 (the Smith form is diag(1, 6)).
    const I = [[1n, 0n], [0n, 1n]];
    expect(checkNormalFormClaim(smith([[2n, 0n], [0n, 3n]], [2n, 3n], I, I))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.NOT_DIVISIBLE, path: ['diagonal', 1] });
    expect(checkNormalFormClaim(smith([[-2n, 0n], [0n, 4n]], [-2n, 4n], I, I))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.NEGATIVE_DIAGONAL });
    expect(checkNormalFormClaim(smith([[0n, 0n], [0n, 4n]], [0n, 4n], I, I))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.NOT_DIVISIBLE });
    expect(checkNormalFormClaim(smith([[2n, 0n], [0n, 4n]], [2n, 8n], I, I))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.PRODUCT_MISMATCH, path: ['diagonal', 1] });
    expect(checkNormalFormClaim(smith([[2n, 0n], [0n, 4n]], [2n, 4n], I, [[1n, 0n]]))).toMatchObject({ accepted: false, reason_code: NormalFormRejectionReason.SHAPE, path: ['right_transform'] });
  });
});

describe('matrix.normal_form.verify as a capability', () => {
  let h: CheckerHarness;
  let checker: InstalledCapability;
  beforeAll(async () => {
    h = await createCheckerHarness('jacobian-normal-form-checker-');
    checker = await h.install(verifyNormalForm);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (payload: Record<string, unknown>): Promise<CapabilityResult> => h.run(checker, payload);
  const out = (result: CapabilityResult): NormalFormVerifyOutput => completedOutput<NormalFormVerifyOutput>(result);

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
    const A = [[2n, 4n], [6n, 8n]];
    const claim = hermite(A, [[2n, 0n], [0n, 4n]], [[-2n, 1n], [3n, -1n]]);
    const put = (payload: ReturnType<typeof hermite>) => h.artifacts.put({ schema_uri: NORMAL_FORM_CLAIM_SCHEMA_URI, semantics_uri: NORMAL_FORM_CLAIM_SEMANTICS_URI, payload, parents: [], summary: {} });
    const good = await put(claim);
    expect(out(await run({ result_uri: good.uri }))).toMatchObject({ verdict: 'ACCEPTED', claim_kind: 'HERMITE_NORMAL_FORM', claim_uri: good.uri });
    const bad = await put({ ...claim, left_transform: [['-2', '1'], ['6', '-2']] });
    const rejected = await run({ result_uri: bad.uri });
    expect(out(rejected)).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_UNIMODULAR', verification_record_uri: null });
    expect(rejected.assurance.level).toBe('COMPUTED');
    expect(rejected.diagnostics[0]).toMatchObject({ code: 'CHECKER_REJECTED', path: ['payload', 'result_uri'] });
  });

  it('rejects an inline tampered Smith claim naming the failing part', async () => {
    const result = await run({ claim: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0], [0, 3]] }, form: 'SMITH', diagonal: ['2', '3'], left_transform: [['1', '0'], ['0', '1']], right_transform: [['1', '0'], ['0', '1']] } });
    expect(out(result)).toMatchObject({ verdict: 'REJECTED', claim_kind: 'SMITH_NORMAL_FORM', reason_code: 'NOT_DIVISIBLE', failure: { path: ['diagonal', 1] } });
    expect(result.diagnostics[0]).toMatchObject({ path: ['payload', 'claim', 'diagonal', 1] });
  });

  it('requires the transforms (rule transforms-required) and an integer matrix (rule integer-matrix): bad requests, never verdicts', async () => {
    const noU = await run({ claim: { matrix: { ring: { kind: 'Z' }, rows: [[2, 4], [6, 8]] }, form: 'HERMITE', hnf: [['2', '0'], ['0', '4']] } });
    expect(noU.execution.status).toBe('ERROR');
    expect(noU.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'left_transform'] });
    expect(noU.diagnostics[0]?.message).toMatch(/transforms-required/);
    const noV = await run({ claim: { matrix: { ring: { kind: 'Z' }, rows: [[2]] }, form: 'SMITH', diagonal: ['2'], left_transform: [['1']] } });
    expect(noV.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'right_transform'] });
    const overQ = await run({ claim: { matrix: { ring: { kind: 'Q' }, rows: [[2]] }, form: 'SMITH', diagonal: ['2'], left_transform: [['1']], right_transform: [['1']] } });
    expect(overQ.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'matrix', 'ring'] });
    expect(overQ.diagnostics[0]?.message).toMatch(/integer-matrix/);
    const fraction = await run({ claim: { matrix: { ring: { kind: 'Z' }, rows: [[2]] }, form: 'SMITH', diagonal: ['2'], left_transform: [['1/2']], right_transform: [['1']] } });
    expect(fraction.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'left_transform', 0, 0] });
  });
});
