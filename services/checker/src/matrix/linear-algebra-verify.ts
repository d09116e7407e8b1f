/**
 * The checks behind matrix.linear_system.verify and matrix.inverse.verify, written apart from the
 * producers' engine (no import from the runner): every claim is multiplied out exactly, and the
 * one rank the solution-set claim rests on (that the kernel basis is complete: rank A = n − k) is
 * recomputed by a different method from the producer's fraction-free elimination: over Q,
 * elimination modulo large primes, which bounds the rank from below (rank mod p ≤ rank over Q),
 * and only when no prime reaches the bound, plain rational elimination; over GF(p), elimination
 * modulo p by this module's own code.
 */
import {
  answerRing,
  fieldFromSpec,
  LinearSystemClaimSchema,
  InverseClaimSchema,
  RATIONALS,
  type Field,
  type InverseClaim,
  type LinearSystemClaim,
  type Rational,
} from '@jacobian/shared';

export const MatrixRejectionReason = {
  /** A vector or matrix of the claim has the wrong length or shape. */
  SHAPE: 'SHAPE',
  /** A x ≠ b in some row. */
  SOLUTION_MISMATCH: 'SOLUTION_MISMATCH',
  /** A kernel vector is not in the kernel (A k ≠ 0), or the singularity certificate is not. */
  NOT_IN_KERNEL: 'NOT_IN_KERNEL',
  /** The kernel vectors are linearly dependent. */
  KERNEL_DEPENDENT: 'KERNEL_DEPENDENT',
  /** The kernel basis has fewer than n − rank A vectors: some solutions are missing. */
  KERNEL_INCOMPLETE: 'KERNEL_INCOMPLETE',
  /** y A ≠ 0 for the inconsistency certificate. */
  CERTIFICATE_NOT_IN_LEFT_KERNEL: 'CERTIFICATE_NOT_IN_LEFT_KERNEL',
  /** y·b = 0: the certificate shows nothing. */
  CERTIFICATE_ORTHOGONAL: 'CERTIFICATE_ORTHOGONAL',
  /** A B ≠ I. */
  INVERSE_MISMATCH: 'INVERSE_MISMATCH',
  /** The singularity certificate is the zero vector. */
  ZERO_VECTOR: 'ZERO_VECTOR',
  /** A claimed minimal polynomial whose leading coefficient is not 1. */
  NOT_MONIC: 'NOT_MONIC',
  /** A claimed minimal polynomial p with p(A) ≠ 0. */
  DOES_NOT_ANNIHILATE: 'DOES_NOT_ANNIHILATE',
  /** A claimed minimal polynomial that kills A while one of lower degree does too. */
  NOT_MINIMAL: 'NOT_MINIMAL',
  /** A claimed rational canonical form whose transform does not conjugate: A P ≠ P F. */
  NOT_SIMILAR: 'NOT_SIMILAR',
  /** A claimed transform that is not invertible. */
  SINGULAR_TRANSFORM: 'SINGULAR_TRANSFORM',
  /** Claimed invariant factors of which one does not divide the next. */
  NOT_DIVISIBLE: 'NOT_DIVISIBLE',
} as const;
export type MatrixRejectionReason = (typeof MatrixRejectionReason)[keyof typeof MatrixRejectionReason];

export type MatrixCheckResult =
  | { accepted: true; message: string }
  | { accepted: false; reason_code: MatrixRejectionReason; message: string; path: (string | number)[]; witness: string | null };

type Checkpoint = () => void;

/** Large primes for the modular rank bound (distinct, below 2^62). */
const RANK_PRIMES = [2305843009213693951n, 4611686018427387847n, 4294967291n, 1000000007n, 998244353n];

function reject(reason_code: MatrixRejectionReason, message: string, path: (string | number)[], witness: string | null = null): MatrixCheckResult {
  return { accepted: false, reason_code, message, path, witness };
}

/** The claim's field and its elements: Q for Z and Q matrices, GF(p) otherwise. */
function fieldOf(ring: LinearSystemClaim['matrix']['ring']): Field<unknown> {
  return (answerRing(ring).field ?? RATIONALS);
}

function parse(F: Field<unknown>, text: string): unknown {
  const value = F.parseCanonical(text);
  // Stored claims are canonical (the schema's caller canonicalized them); anything else is a bug.
  if (value === null) throw new Error(`not a canonical element of ${F.name}: ${text.slice(0, 40)}`);
  return value;
}

function rowTimes(F: Field<unknown>, row: readonly unknown[], x: readonly unknown[]): unknown {
  let s = F.zero;
  for (let j = 0; j < row.length; j++) s = F.add(s, F.mul(row[j], x[j]));
  return s;
}

/** Rank by elimination over a field, on a copy; this module's own code. */
function eliminationRank(F: Field<unknown>, rows: readonly (readonly unknown[])[], checkpoint: Checkpoint): number {
  const M = rows.map((row) => [...row]);
  const width = M[0]?.length ?? 0;
  let rank = 0;
  for (let c = 0; c < width && rank < M.length; c++) {
    const pivot = M.findIndex((row, i) => i >= rank && !F.isZero(row[c]));
    if (pivot < 0) continue;
    [M[rank], M[pivot]] = [M[pivot] as unknown[], M[rank] as unknown[]];
    const top = M[rank] as unknown[];
    const inverse = F.inv(top[c]);
    for (let i = rank + 1; i < M.length; i++) {
      const row = M[i] as unknown[];
      if (F.isZero(row[c])) continue;
      checkpoint();
      const factor = F.mul(row[c], inverse);
      for (let j = c; j < width; j++) row[j] = F.sub(row[j], F.mul(factor, top[j]));
    }
    rank++;
  }
  return rank;
}

/** Rank modulo p of a rational matrix, or null when a denominator is divisible by p. */
function rankModP(rows: readonly (readonly Rational[])[], p: bigint, checkpoint: Checkpoint): number | null {
  const F = fieldFromSpec({ kind: 'GF', characteristic: p.toString() }) as Field<unknown>;
  const reduced: unknown[][] = [];
  for (const row of rows) {
    const out: unknown[] = [];
    for (const a of row) {
      if (a.den % p === 0n) return null;
      out.push(F.fromFraction(a.num, a.den));
    }
    reduced.push(out);
  }
  return eliminationRank(F, reduced, checkpoint);
}

/**
 * Whether rank(rows) ≥ target: over Q by ranks modulo large primes (each a lower bound), falling
 * back to exact rational elimination only when none reaches the target; over GF(p) exactly.
 */
function rankAtLeast(F: Field<unknown>, rows: readonly (readonly unknown[])[], target: number, checkpoint: Checkpoint): { holds: boolean; method: string } {
  if (target <= 0) return { holds: true, method: 'trivial' };
  if (F.kind === 'GF') return { holds: eliminationRank(F, rows, checkpoint) >= target, method: `elimination over ${F.name}` };
  for (const p of RANK_PRIMES) {
    const rank = rankModP(rows as readonly (readonly Rational[])[], p, checkpoint);
    if (rank !== null && rank >= target) return { holds: true, method: `elimination modulo the prime ${p}` };
  }
  return { holds: eliminationRank(F, rows, checkpoint) >= target, method: 'exact rational elimination' };
}

/** Check a stored linear system claim (the claim must parse as canonical). */
export function checkLinearSystemClaim(raw: unknown, checkpoint: Checkpoint = () => undefined): MatrixCheckResult {
  const claim = LinearSystemClaimSchema.parse(raw);
  const F = fieldOf(claim.matrix.ring);
  const A = claim.matrix.rows.map((row) => row.map((t) => parse(F, t)));
  const m = claim.matrix.nrows;
  const n = claim.matrix.ncols;
  if (claim.rhs.length !== m) return reject(MatrixRejectionReason.SHAPE, `b has ${claim.rhs.length} entries; A has ${m} rows`, ['rhs']);
  const b = claim.rhs.map((t) => parse(F, t));
  if (claim.outcome === 'INCONSISTENT') {
    const certificate = claim.certificate ?? [];
    if (certificate.length !== m) return reject(MatrixRejectionReason.SHAPE, `the certificate y has ${certificate.length} entries; A has ${m} rows`, ['certificate']);
    const y = certificate.map((t) => parse(F, t));
    for (let j = 0; j < n; j++) {
      checkpoint();
      const value = rowTimes(F, A.map((row) => row[j]), y);
      if (!F.isZero(value)) return reject(MatrixRejectionReason.CERTIFICATE_NOT_IN_LEFT_KERNEL, `(y A)_${j} = ${F.format(value)}, not 0`, ['certificate'], `column ${j}`);
    }
    const yb = rowTimes(F, y, b);
    if (F.isZero(yb)) return reject(MatrixRejectionReason.CERTIFICATE_ORTHOGONAL, 'y·b = 0: the certificate does not show inconsistency', ['certificate']);
    return { accepted: true, message: `y A = 0 and y·b = ${F.format(yb).slice(0, 80)} ≠ 0 over ${F.name}: the system has no solution` };
  }
  const solution = claim.solution ?? [];
  if (solution.length !== n) return reject(MatrixRejectionReason.SHAPE, `the solution has ${solution.length} entries; A has ${n} columns`, ['solution']);
  const x = solution.map((t) => parse(F, t));
  for (let i = 0; i < m; i++) {
    checkpoint();
    const value = rowTimes(F, A[i] as unknown[], x);
    if (!F.equals(value, b[i])) return reject(MatrixRejectionReason.SOLUTION_MISMATCH, `(A x)_${i} = ${F.format(value).slice(0, 80)}, but b_${i} = ${F.format(b[i]).slice(0, 80)}`, ['solution'], `row ${i}`);
  }
  const kernel = claim.kernel ?? [];
  const K: unknown[][] = [];
  for (const [k, vector] of kernel.entries()) {
    if (vector.length !== n) return reject(MatrixRejectionReason.SHAPE, `kernel vector ${k} has ${vector.length} entries; A has ${n} columns`, ['kernel', k]);
    const v = vector.map((t) => parse(F, t));
    for (let i = 0; i < m; i++) {
      checkpoint();
      const value = rowTimes(F, A[i] as unknown[], v);
      if (!F.isZero(value)) return reject(MatrixRejectionReason.NOT_IN_KERNEL, `(A k)_${i} = ${F.format(value).slice(0, 80)} for kernel vector ${k}, not 0`, ['kernel', k], `row ${i}`);
    }
    K.push(v);
  }
  const independent = rankAtLeast(F, K, K.length, checkpoint);
  if (!independent.holds) return reject(MatrixRejectionReason.KERNEL_DEPENDENT, `the ${K.length} kernel vectors are linearly dependent (by ${independent.method})`, ['kernel']);
  // k independent vectors in the kernel give rank A ≤ n − k; the basis is complete iff rank A ≥ n − k.
  const complete = rankAtLeast(F, A, n - K.length, checkpoint);
  if (!complete.holds) {
    return reject(MatrixRejectionReason.KERNEL_INCOMPLETE, `rank A < ${n - K.length} = n − (kernel vectors), so the kernel has dimension above ${K.length}: the claimed solution set misses solutions (by ${complete.method})`, ['kernel']);
  }
  return {
    accepted: true,
    message: `A x = b exactly; the ${K.length} kernel vector${K.length === 1 ? '' : 's'} lie in the kernel, are independent (${independent.method}) and span it, since rank A = ${n - K.length} (${complete.method}); the solutions over ${F.name} are exactly x + their span`,
  };
}

/** Check a stored inverse claim. A B = I suffices for square matrices over a field. */
export function checkInverseClaim(raw: unknown, checkpoint: Checkpoint = () => undefined): MatrixCheckResult {
  const claim: InverseClaim = InverseClaimSchema.parse(raw);
  const F = fieldOf(claim.matrix.ring);
  const n = claim.matrix.nrows;
  if (claim.matrix.ncols !== n) return reject(MatrixRejectionReason.SHAPE, `A is ${n}×${claim.matrix.ncols}, not square`, ['matrix']);
  const A = claim.matrix.rows.map((row) => row.map((t) => parse(F, t)));
  if (claim.outcome === 'SINGULAR') {
    const vector = claim.kernel_vector ?? [];
    if (vector.length !== n) return reject(MatrixRejectionReason.SHAPE, `the kernel vector has ${vector.length} entries; A has ${n} columns`, ['kernel_vector']);
    const v = vector.map((t) => parse(F, t));
    if (v.every((a) => F.isZero(a))) return reject(MatrixRejectionReason.ZERO_VECTOR, 'the kernel vector is zero: it shows nothing', ['kernel_vector']);
    for (let i = 0; i < n; i++) {
      checkpoint();
      const value = rowTimes(F, A[i] as unknown[], v);
      if (!F.isZero(value)) return reject(MatrixRejectionReason.NOT_IN_KERNEL, `(A x)_${i} = ${F.format(value).slice(0, 80)}, not 0`, ['kernel_vector'], `row ${i}`);
    }
    return { accepted: true, message: `A x = 0 for a non-zero x over ${F.name}: A is singular and has no inverse` };
  }
  const inverse = claim.inverse ?? [];
  if (inverse.length !== n || inverse.some((row) => row.length !== n)) return reject(MatrixRejectionReason.SHAPE, `the inverse must be ${n}×${n}`, ['inverse']);
  const B = inverse.map((row) => row.map((t) => parse(F, t)));
  for (let i = 0; i < n; i++) {
    checkpoint();
    const row = A[i] as unknown[];
    for (let j = 0; j < n; j++) {
      const value = rowTimes(F, row, B.map((r) => r[j]));
      const expected = i === j ? F.one : F.zero;
      if (!F.equals(value, expected)) return reject(MatrixRejectionReason.INVERSE_MISMATCH, `(A B)_${i},${j} = ${F.format(value).slice(0, 80)}, not ${F.format(expected)}`, ['inverse'], `entry (${i}, ${j})`);
    }
  }
  return { accepted: true, message: `A B = I exactly over ${F.name} (for square matrices over a field this makes B the two-sided inverse)` };
}
