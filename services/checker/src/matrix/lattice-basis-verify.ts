/**
 * The checks behind lattice.basis.verify, written apart from the producer's engine (no import
 * from the runner; the producer keeps Gram–Schmidt data as integers by de Weger's recursion, this
 * checker works with fractions from the Gram matrix). A claim that B′ is an LLL-reduced basis,
 * with parameter δ, of the lattice spanned by the rows of B comes with U:
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

/** A fraction n/d in lowest terms with d > 0: this checker's own. */
interface Fraction {
  n: bigint;
  d: bigint;
}
const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};
function frac(n: bigint, d: bigint = 1n): Fraction {
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d);
  return g > 1n ? { n: n / g, d: d / g } : { n, d };
}
const sub = (a: Fraction, b: Fraction): Fraction => frac(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Fraction, b: Fraction): Fraction => frac(a.n * b.n, a.d * b.d);
const div = (a: Fraction, b: Fraction): Fraction => frac(a.n * b.d, a.d * b.n);
/** a < b. */
const less = (a: Fraction, b: Fraction): boolean => a.n * b.d < b.n * a.d;
const show = (a: Fraction): string => (a.d === 1n ? a.n.toString() : `${a.n}/${a.d}`);

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

  // Gram–Schmidt from the Gram matrix, in fractions: μ_{i,j} = (G_{i,j} − Σ_{k<j} μ_{j,k} μ_{i,k} B_k) / B_j, B_i = G_{i,i} − Σ_{k<i} μ_{i,k}² B_k.
  const delta = (() => {
    const [p, q] = claim.delta.split('/');
    return frac(BigInt(p ?? '0'), BigInt(q ?? '1'));
  })();
  const half = frac(1n, 2n);
  const norms: Fraction[] = [];
  const mu: Fraction[][] = [];
  for (let i = 0; i < rank; i++) {
    const bi = R[i] as bigint[];
    const row: Fraction[] = [];
    mu.push(row);
    for (let j = 0; j < i; j++) {
      checkpoint();
      const bj = R[j] as bigint[];
      let g = frac(bi.reduce((s, x, c) => s + x * (bj[c] as bigint), 0n));
      for (let k = 0; k < j; k++) g = sub(g, mul(mul((mu[j] as Fraction[])[k] as Fraction, row[k] as Fraction), norms[k] as Fraction));
      const m_ij = div(g, norms[j] as Fraction);
      row.push(m_ij);
      const magnitude = m_ij.n < 0n ? frac(-m_ij.n, m_ij.d) : m_ij;
      if (less(half, magnitude)) return reject(LatticeRejectionReason.NOT_SIZE_REDUCED, `μ_{${i},${j}} = ${short(show(m_ij))}: |μ| > 1/2, so row ${i} of B′ is not size-reduced against row ${j}`, ['reduced', i], `μ_{${i},${j}} = ${short(show(m_ij))}`);
    }
    let b = frac(bi.reduce((s, x) => s + x * x, 0n));
    for (let k = 0; k < i; k++) b = sub(b, mul(mul(row[k] as Fraction, row[k] as Fraction), norms[k] as Fraction));
    if (b.n === 0n) return reject(LatticeRejectionReason.DEPENDENT_ROWS, `row ${i} of B′ lies in the span of the rows above it (|b*_${i}|² = 0): the non-zero rows are not a basis`, ['reduced', i], `row ${i}`);
    if (i > 0) {
      const m = row[i - 1] as Fraction;
      const bound = mul(sub(delta, mul(m, m)), norms[i - 1] as Fraction);
      if (less(b, bound)) {
        return reject(LatticeRejectionReason.LOVASZ_FAILS, `|b*_${i}|² = ${short(show(b))} < (δ − μ_{${i},${i - 1}}²)|b*_${i - 1}|² = ${short(show(bound))} with δ = ${claim.delta}: the Lovász condition fails at row ${i}`, ['reduced', i], `row ${i}`);
      }
    }
    norms.push(b);
  }
  return {
    accepted: true,
    message: `U B = B′ exactly and det U = ±1, so B′ spans the lattice of B; its ${rank} non-zero row(s) come first and are independent, and they are LLL-reduced with δ = ${claim.delta}: |μ_{i,j}| ≤ 1/2 and the Lovász condition hold exactly`,
  };
}
