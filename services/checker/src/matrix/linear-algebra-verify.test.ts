import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LINEAR_SYSTEM_CLAIM_SCHEMA_URI,
  LINEAR_SYSTEM_CLAIM_SEMANTICS_URI,
  makeRational,
  RATIONALS,
  verifyRecordSignature,
  type CapabilityResult,
  type InstalledCapability,
  type Rational,
} from '@jacobian/shared';
import { completedOutput, createCheckerHarness, type CheckerHarness } from '../checker-test-support.js';
import { verifyInverse, verifyLinearSystem, type MatrixVerifyOutput } from './linear-algebra-verify-capability.js';
import { checkInverseClaim, checkLinearSystemClaim, MatrixRejectionReason } from './linear-algebra-verify.js';

const Q = RATIONALS;
const fmt = (a: Rational): string => Q.format(a);

/**
 * A system with a known solution set, built without any elimination: A = L·[I_r | M] for a
 * unit lower-triangular L (invertible, so the kernel is that of [I_r | M]: the columns of
 * [-M; I]), b = A·x0.
 */
function knownSystem(r: number, free: number, entries: number[], l: number[], x: number[]): { rows: string[][]; rhs: string[]; solution: string[]; kernel: string[][] } {
  const n = r + free;
  let k = 0;
  const value = (): Rational => makeRational(BigInt(entries[k++ % entries.length] ?? 0), 1n);
  const M = Array.from({ length: r }, () => Array.from({ length: free }, value));
  const base = M.map((row, i) => [...Array.from({ length: r }, (_, j) => (i === j ? Q.one : Q.zero)), ...row]);
  let t = 0;
  const L = Array.from({ length: r }, (_, i) => Array.from({ length: r }, (_, j) => (i === j ? Q.one : j < i ? Q.fromBigInt(BigInt(l[t++ % l.length] ?? 0)) : Q.zero)));
  const A = L.map((lrow) => Array.from({ length: n }, (_, j) => lrow.reduce((s, a, i) => Q.add(s, Q.mul(a, (base[i] as Rational[])[j] as Rational)), Q.zero)));
  const x0 = Array.from({ length: n }, (_, i) => Q.fromBigInt(BigInt(x[i % x.length] ?? 0)));
  const b = A.map((row) => row.reduce((s, a, j) => Q.add(s, Q.mul(a, x0[j] as Rational)), Q.zero));
  const kernel = Array.from({ length: free }, (_, f) => [...M.map((row) => Q.neg(row[f] as Rational)), ...Array.from({ length: free }, (_, g) => (g === f ? Q.one : Q.zero))]);
  return { rows: A.map((row) => row.map(fmt)), rhs: b.map(fmt), solution: x0.map(fmt), kernel: kernel.map((v) => v.map(fmt)) };
}

const claimOf = (s: ReturnType<typeof knownSystem>, kernel = s.kernel, solution = s.solution): Record<string, unknown> => ({
  matrix: { ring: { kind: 'Q' }, nrows: s.rows.length, ncols: s.rows[0]?.length ?? 0, rows: s.rows },
  rhs: s.rhs,
  outcome: 'SOLVED',
  solution,
  kernel,
  certificate: null,
});

const systems = fc
  .record({ r: fc.integer({ min: 1, max: 5 }), free: fc.integer({ min: 1, max: 4 }), entries: fc.array(fc.integer({ min: -20, max: 20 }), { minLength: 1, maxLength: 30 }), l: fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 10 }), x: fc.array(fc.integer({ min: -9, max: 9 }), { minLength: 1, maxLength: 9 }) })
  .map(({ r, free, entries, l, x }) => knownSystem(r, free, entries, l, x));

describe('linear system claims (pure checks)', () => {
  it('accepts the true solution set of systems built with a known kernel', () => {
    fc.assert(
      fc.property(systems, (s) => {
        expect(checkLinearSystemClaim(claimOf(s))).toMatchObject({ accepted: true });
      }),
      { numRuns: 150 },
    );
  });

  it('rejects a kernel basis missing a vector (KERNEL_INCOMPLETE), a dependent one (KERNEL_DEPENDENT), a wrong kernel vector (NOT_IN_KERNEL) and a wrong solution (SOLUTION_MISMATCH)', () => {
    fc.assert(
      fc.property(systems, (s) => {
        expect(checkLinearSystemClaim(claimOf(s, s.kernel.slice(1)))).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.KERNEL_INCOMPLETE, path: ['kernel'] });
        if (s.kernel.length >= 2) {
          const doubled = [s.kernel[0] as string[], ...s.kernel.slice(1, -1), (s.kernel[0] as string[]).map((t) => fmt(Q.mul(Q.fromBigInt(2n), Q.parseCanonical(t) as Rational)))];
          expect(checkLinearSystemClaim(claimOf(s, doubled))).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.KERNEL_DEPENDENT });
        }
        // The first (pivot) entry of a kernel vector bumped: A k becomes the first column of A, which is L's first column, non-zero.
        const wrong = s.kernel.map((v, i) => (i === 0 ? v.map((t, j) => (j === 0 ? fmt(Q.add(Q.parseCanonical(t) as Rational, Q.one)) : t)) : v));
        expect(checkLinearSystemClaim(claimOf(s, wrong))).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.NOT_IN_KERNEL, path: ['kernel', 0] });
        const off = s.solution.map((t, j) => (j === 0 ? fmt(Q.add(Q.parseCanonical(t) as Rational, Q.one)) : t));
        expect(checkLinearSystemClaim(claimOf(s, s.kernel, off))).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.SOLUTION_MISMATCH, path: ['solution'] });
      }),
      { numRuns: 150 },
    );
  });

  it('accepts a true inconsistency certificate and rejects a false one', () => {
    const base = { matrix: { ring: { kind: 'Z' }, nrows: 2, ncols: 2, rows: [['1', '1'], ['2', '2']] }, rhs: ['1', '3'], outcome: 'INCONSISTENT', solution: null, kernel: null };
    expect(checkLinearSystemClaim({ ...base, certificate: ['-2', '1'] })).toMatchObject({ accepted: true });
    expect(checkLinearSystemClaim({ ...base, certificate: ['-1', '1'] })).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.CERTIFICATE_NOT_IN_LEFT_KERNEL, witness: 'column 0' });
    expect(checkLinearSystemClaim({ ...base, rhs: ['1', '2'], certificate: ['-2', '1'] })).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.CERTIFICATE_ORTHOGONAL });
    expect(checkLinearSystemClaim({ ...base, certificate: ['1'] })).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.SHAPE, path: ['certificate'] });
  });

  it('over GF(p): the kernel of x + y over GF(2) is spanned by (1, 1); a non-complete basis is rejected', () => {
    const claim = { matrix: { ring: { kind: 'GF', characteristic: '2' }, nrows: 1, ncols: 2, rows: [['1', '1']] }, rhs: ['1'], outcome: 'SOLVED', solution: ['1', '0'], certificate: null };
    expect(checkLinearSystemClaim({ ...claim, kernel: [['1', '1']] })).toMatchObject({ accepted: true });
    expect(checkLinearSystemClaim({ ...claim, kernel: [] })).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.KERNEL_INCOMPLETE });
    expect(checkLinearSystemClaim({ ...claim, kernel: [['1', '0']] })).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.NOT_IN_KERNEL });
  });

  it('decides completeness when every modular rank falls short: a matrix whose minors are divisible by all the primes', () => {
    // [[P, 0], [0, 1]] with P the product of the checker's primes: rank 1 modulo each, 2 over Q; so the empty kernel is complete.
    const P = 2305843009213693951n * 4611686018427387847n * 4294967291n * 1000000007n * 998244353n;
    const claim = { matrix: { ring: { kind: 'Z' }, nrows: 2, ncols: 2, rows: [[P.toString(), '0'], ['0', '1']] }, rhs: [P.toString(), '1'], outcome: 'SOLVED', solution: ['1', '1'], kernel: [], certificate: null };
    expect(checkLinearSystemClaim(claim)).toMatchObject({ accepted: true, message: expect.stringContaining('exact rational elimination') as unknown });
  });
});

describe('inverse claims (pure checks)', () => {
  const A = { ring: { kind: 'Q' }, nrows: 2, ncols: 2, rows: [['2', '1'], ['7', '4']] };
  it('accepts A B = I and rejects a wrong entry naming it', () => {
    expect(checkInverseClaim({ matrix: A, outcome: 'INVERTIBLE', inverse: [['4', '-1'], ['-7', '2']], kernel_vector: null })).toMatchObject({ accepted: true });
    expect(checkInverseClaim({ matrix: A, outcome: 'INVERTIBLE', inverse: [['4', '-1'], ['-7', '3']], kernel_vector: null })).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.INVERSE_MISMATCH, witness: 'entry (0, 1)' });
    expect(checkInverseClaim({ matrix: A, outcome: 'INVERTIBLE', inverse: [['4', '-1']], kernel_vector: null })).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.SHAPE });
  });
  it('accepts a singularity certificate and rejects the zero vector and a vector outside the kernel', () => {
    const S = { ring: { kind: 'GF', characteristic: '7' }, nrows: 2, ncols: 2, rows: [['1', '2'], ['3', '6']] };
    expect(checkInverseClaim({ matrix: S, outcome: 'SINGULAR', inverse: null, kernel_vector: ['5', '1'] })).toMatchObject({ accepted: true });
    expect(checkInverseClaim({ matrix: S, outcome: 'SINGULAR', inverse: null, kernel_vector: ['0', '0'] })).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.ZERO_VECTOR });
    expect(checkInverseClaim({ matrix: S, outcome: 'SINGULAR', inverse: null, kernel_vector: ['1', '1'] })).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.NOT_IN_KERNEL });
    // An invertible matrix has no such vector: a claimed singular A is rejected.
    expect(checkInverseClaim({ matrix: A, outcome: 'SINGULAR', inverse: null, kernel_vector: ['1', '-2'] })).toMatchObject({ accepted: false, reason_code: MatrixRejectionReason.NOT_IN_KERNEL });
  });
});

describe('matrix.linear_system.verify and matrix.inverse.verify as capabilities', () => {
  let h: CheckerHarness;
  let system: InstalledCapability;
  let inverse: InstalledCapability;
  let unauthorized: InstalledCapability;
  const run = (which: InstalledCapability, payload: Record<string, unknown>): Promise<CapabilityResult> => h.run(which, payload);
  const out = (result: CapabilityResult): MatrixVerifyOutput => completedOutput<MatrixVerifyOutput>(result);

  beforeAll(async () => {
    h = await createCheckerHarness('jacobian-matrix-checker-');
    system = await h.install(verifyLinearSystem);
    inverse = await h.install(verifyInverse);
    unauthorized = await h.install(verifyInverse, false);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('verifies every advertised example, with a signed record bound to the stored claim', async () => {
    for (const capability of [system, inverse]) {
      for (const example of capability.descriptor.examples) {
        const result = await run(capability, example.payload);
        const output = out(result);
        expect(output.verdict, example.title).toBe('ACCEPTED');
        expect(result.assurance.level).toBe('VERIFIED');
        const record = await h.artifacts.get(output.verification_record_uri as string);
        expect(verifyRecordSignature(record.payload, h.trusted)).toMatchObject({ body: { candidate_uri: output.claim_uri } });
      }
    }
  });

  it('rejects a wrong kernel vector, naming it, with no record', async () => {
    const result = await run(system, { claim: { matrix: { ring: { kind: 'Q' }, rows: [[1, 2, 1], [2, 4, 3]] }, rhs: [1, '5/2'], outcome: 'SOLVED', solution: ['1/2', '0', '1/2'], kernel: [['-2', '1', '1']] } });
    expect(out(result)).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_IN_KERNEL', failure: { path: ['kernel', 0] }, verification_record_uri: null });
    expect(result.assurance.level).toBe('COMPUTED');
    expect(result.diagnostics[0]).toMatchObject({ code: 'CHECKER_REJECTED', path: ['payload', 'claim', 'kernel', 0] });
  });

  it('verifies a stored claim by result_uri without storing it again, and rejects a stored false one naming result_uri', async () => {
    const claim = { matrix: { ring: { kind: 'Z' }, nrows: 2, ncols: 2, rows: [['1', '1'], ['2', '2']] }, rhs: ['1', '3'], outcome: 'INCONSISTENT', solution: null, kernel: null, certificate: ['-2', '1'] };
    const stored = await h.artifacts.put({ schema_uri: LINEAR_SYSTEM_CLAIM_SCHEMA_URI, semantics_uri: LINEAR_SYSTEM_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: {} });
    const result = await run(system, { result_uri: stored.uri });
    expect(out(result)).toMatchObject({ verdict: 'ACCEPTED', claim_uri: stored.uri });
    expect(result.scope?.input_uris).toEqual([stored.uri]);
    const wrong = await h.artifacts.put({ schema_uri: LINEAR_SYSTEM_CLAIM_SCHEMA_URI, semantics_uri: LINEAR_SYSTEM_CLAIM_SEMANTICS_URI, payload: { ...claim, certificate: ['-1', '1'] }, parents: [], summary: {} });
    const rejected = await run(system, { result_uri: wrong.uri });
    expect(out(rejected)).toMatchObject({ verdict: 'REJECTED', reason_code: 'CERTIFICATE_NOT_IN_LEFT_KERNEL' });
    expect(rejected.diagnostics[0]?.path).toEqual(['payload', 'result_uri']);
    // A stored claim with a non-canonical entry is not a claim of this schema.
    const odd = await h.artifacts.put({ schema_uri: LINEAR_SYSTEM_CLAIM_SCHEMA_URI, semantics_uri: LINEAR_SYSTEM_CLAIM_SEMANTICS_URI, payload: { ...claim, certificate: ['-4/2', '1'] }, parents: [], summary: {} });
    expect((await run(system, { result_uri: odd.uri })).diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'result_uri'] });
    expect((await run(inverse, { result_uri: stored.uri })).diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'result_uri'] });
    expect((await run(inverse, {})).diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload'] });
  });

  it('answers malformed claims with errors at their place, not verdicts', async () => {
    const missing = await run(system, { claim: { matrix: { ring: { kind: 'Q' }, rows: [[1]] }, rhs: [1], outcome: 'SOLVED', kernel: [] } });
    expect(missing.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'solution'] });
    const badEntry = await run(system, { claim: { matrix: { ring: { kind: 'Q' }, rows: [[1]] }, rhs: [1], outcome: 'SOLVED', solution: ['1/0'], kernel: [] } });
    expect(badEntry.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'solution', 0] });
  });

  it('an unauthorized checker cannot produce VERIFIED', async () => {
    const result = await run(unauthorized, { claim: { matrix: { ring: { kind: 'Z' }, rows: [[2, 1], [7, 4]] }, outcome: 'INVERTIBLE', inverse: [['4', '-1'], ['-7', '2']] } });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]?.code).toBe('CHECKER_NOT_AUTHORIZED');
  });
});
