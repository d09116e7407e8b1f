/**
 * The checks behind lattice.basis.verify, written apart from the producer's engine (no import
 * from the runner: the producer updates Gram–Schmidt data incrementally through its swaps, this
 * checker computes them once, by its own fraction-free elimination of the claimed basis's Gram
 * matrix). A claim that B′ is an LLL-reduced basis, with parameter δ, of the lattice spanned by
 * the rows of B comes with U:
 *
 * - same lattice: U is an integer matrix with det U = ±1 (its own fraction-free determinant) and
 *   U B = B′ exactly, so the rows of B′ and of B span the same lattice;
 * - a basis: the non-zero rows of B′ come first and are linearly independent (every |b*_i|² > 0);
 * - LLL-reduced: |μ_{i,j}| ≤ 1/2 for j < i and |b*_i|² ≥ (δ − μ_{i,i−1}²)|b*_{i−1}|², exactly.
 */
import { LatticeBasisClaimSchema, type LatticeBasisClaim } from '@jacobian/shared';
import { integerDeterminant } from './normal-form-verify.js';

export const LatticeRejectionReason = {
  /** A matrix of the claim has the wrong dimensions. */
  SHAPE: 'SHAPE',
  /** det U is not ±1. */
  NOT_UNIMODULAR: 'NOT_UNIMODULAR',
  /** U B ≠ B′ at some entry. */
  PRODUCT_MISMATCH: 'PRODUCT_MISMATCH',
  /** A non-zero row of B′ after a zero row. */
  ZERO_ROWS_NOT_LAST: 'ZERO_ROWS_NOT_LAST',
  /** The non-zero rows of B′ are linearly dependent: not a basis. */
  DEPENDENT_ROWS: 'DEPENDENT_ROWS',
  /** |μ_{i,j}| > 1/2 for some j < i. */
  NOT_SIZE_REDUCED: 'NOT_SIZE_REDUCED',
  /** |b*_i|² < (δ − μ_{i,i−1}²)|b*_{i−1}|² for some i. */
  LOVASZ_FAILS: 'LOVASZ_FAILS',
} as const;
export type LatticeRejectionReason = (typeof LatticeRejectionReason)[keyof typeof LatticeRejectionReason];

export type LatticeCheckResult =
  | { accepted: true; message: string }
  | { accepted: false; reason_code: LatticeRejectionReason; message: string; path: (string | number)[]; witness: string | null };

type Checkpoint = () => void;

function reject(reason_code: LatticeRejectionReason, message: string, path: (string | number)[], witness: string | null = null): LatticeCheckResult {
  return { accepted: false, reason_code, message, path, witness };
}

const short = (text: string): string => (text.length > 60 ? `${text.slice(0, 28)}…${text.slice(-28)} (${text.length} chars)` : text);

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

/** Check a stored LLL claim (the claim must parse as canonical). */
export function checkLatticeBasisClaim(raw: unknown, checkpoint: Checkpoint = () => undefined): LatticeCheckResult {
  const claim: LatticeBasisClaim = LatticeBasisClaimSchema.parse(raw);
  const m = claim.matrix.nrows;
  const n = claim.matrix.ncols;
  if (claim.reduced.length !== m || claim.reduced.some((row) => row.length !== n)) return reject(LatticeRejectionReason.SHAPE, `B′ must be ${m}×${n}, like B (the reduced basis, then zero rows)`, ['reduced']);
  if (claim.transform.length !== m || claim.transform.some((row) => row.length !== m)) return reject(LatticeRejectionReason.SHAPE, `U must be ${m}×${m} (B has ${m} rows)`, ['transform']);
  const B = claim.matrix.rows.map((row) => row.map((t) => BigInt(t)));
  const R = claim.reduced.map((row) => row.map((t) => BigInt(t)));
  const U = claim.transform.map((row) => row.map((t) => BigInt(t)));

  // Zero rows last.
  let rank = 0;
  while (rank < m && (R[rank] as bigint[]).some((x) => x !== 0n)) rank++;
  for (let i = rank + 1; i < m; i++) {
    if ((R[i] as bigint[]).some((x) => x !== 0n)) return reject(LatticeRejectionReason.ZERO_ROWS_NOT_LAST, `row ${i} of B′ is non-zero but row ${rank} above it is zero; the basis comes first, zero rows last`, ['reduced', i], `row ${i}`);
  }

  // Same lattice: U unimodular and U B = B′.
  const det = integerDeterminant(U, checkpoint);
  if (det !== 1n && det !== -1n) return reject(LatticeRejectionReason.NOT_UNIMODULAR, `det U = ${short(det.toString())}, not ±1: U is not unimodular, so B′ need not span the lattice of B`, ['transform'], `det = ${short(det.toString())}`);
  for (let i = 0; i < m; i++) {
    checkpoint();
    const u = U[i] as bigint[];
    for (let j = 0; j < n; j++) {
      let s = 0n;
      for (let k = 0; k < m; k++) {
        const a = u[k] as bigint;
        if (a !== 0n) s += a * ((B[k] as bigint[])[j] as bigint);
      }
      const expected = (R[i] as bigint[])[j] as bigint;
      if (s !== expected) return reject(LatticeRejectionReason.PRODUCT_MISMATCH, `(U B)[${i}][${j}] = ${short(s.toString())}, but B′[${i}][${j}] = ${short(expected.toString())}`, ['reduced', i, j], `entry (${i}, ${j})`);
    }
  }

  // Gram–Schmidt data as integers, by fraction-free (Bareiss) elimination of the Gram matrix G
  // without pivoting: before column j is eliminated, G[j][j] = d_{j+1} (the Gram determinant of
  // the first j + 1 rows) and G[i][j] = λ_{i,j} = d_{j+1} μ_{i,j} for i > j; a zero pivot means
  // row j depends on the rows above it. Then |μ_{i,j}| ≤ 1/2 is 2|λ_{i,j}| ≤ d_{j+1}, and Lovász
  // |b*_i|² ≥ (δ − μ²_{i,i−1})|b*_{i−1}|² is q·d_{i+1}·d_{i−1} ≥ p·d_i² − q·λ²_{i,i−1} for δ = p/q.
  const [p, q] = claim.delta.split('/').map((t) => BigInt(t)) as [bigint, bigint];
  const G = R.slice(0, rank).map((u) => {
    checkpoint();
    return R.slice(0, rank).map((v) => u.reduce((s, x, c) => (x === 0n ? s : s + x * (v[c] as bigint)), 0n));
  });
  const d: bigint[] = [1n];
  let zeroPivot = rank;
  for (let k = 0; k < rank; k++) {
    const top = G[k] as bigint[];
    const pivot = top[k] as bigint;
    if (pivot === 0n) {
      zeroPivot = k;
      break;
    }
    d.push(pivot);
    const previous = d[k] as bigint;
    for (let i = k + 1; i < rank; i++) {
      checkpoint();
      const row = G[i] as bigint[];
      const a = row[k] as bigint;
      for (let j = k + 1; j < rank; j++) row[j] = (pivot * (row[j] as bigint) - a * (top[j] as bigint)) / previous;
    }
  }
  const mu = (i: number, j: number): string => {
    const lambda = (G[i] as bigint[])[j] as bigint;
    const den = d[j + 1] as bigint;
    const g = gcd(lambda, den);
    return den / g === 1n ? (lambda / g).toString() : `${lambda / g}/${den / g}`;
  };
  for (let i = 0; i < rank; i++) {
    const row = G[i] as bigint[];
    for (let j = 0; j < i; j++) {
      const lambda = row[j] as bigint;
      if (2n * (lambda < 0n ? -lambda : lambda) > (d[j + 1] as bigint)) {
        return reject(LatticeRejectionReason.NOT_SIZE_REDUCED, `μ_{${i},${j}} = ${short(mu(i, j))}: |μ| > 1/2, so row ${i} of B′ is not size-reduced against row ${j}`, ['reduced', i], `μ_{${i},${j}} = ${short(mu(i, j))}`);
      }
    }
    if (i === zeroPivot) return reject(LatticeRejectionReason.DEPENDENT_ROWS, `row ${i} of B′ lies in the span of the rows above it (|b*_${i}|² = 0): the non-zero rows are not a basis`, ['reduced', i], `row ${i}`);
    if (i > 0) {
      const lambda = row[i - 1] as bigint;
      const di = d[i] as bigint;
      if (q * (d[i + 1] as bigint) * (d[i - 1] as bigint) < p * di * di - q * lambda * lambda) {
        return reject(LatticeRejectionReason.LOVASZ_FAILS, `|b*_${i}|² < (δ − μ_{${i},${i - 1}}²)|b*_${i - 1}|² with δ = ${claim.delta} and μ_{${i},${i - 1}} = ${short(mu(i, i - 1))}: the Lovász condition fails at row ${i}`, ['reduced', i], `row ${i}`);
      }
    }
  }
  return {
    accepted: true,
    message: `U B = B′ exactly and det U = ±1, so B′ spans the lattice of B; its ${rank} non-zero row(s) come first and are independent, and they are LLL-reduced with δ = ${claim.delta}: |μ_{i,j}| ≤ 1/2 and the Lovász condition hold exactly`,
  };
}
