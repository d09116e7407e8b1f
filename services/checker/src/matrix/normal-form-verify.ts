/**
 * The checks behind matrix.normal_form.verify, written apart from the producers' engine (no
 * import from the runner). A claim that H is the Hermite normal form of an integer matrix A comes
 * with U; one that D is its Smith normal form with U and V. The checker multiplies out U A = H
 * (or U A V = D) exactly, shows U (and V) unimodular by computing det = ±1 with its own exact
 * fraction-free elimination, and checks that H has the Hermite shape (row echelon, pivots
 * positive, entries above each pivot in [0, pivot), zero rows last) or that D's diagonal is
 * non-negative with each entry dividing the next. By the uniqueness of both forms this makes H
 * (or D) *the* normal form of A, not merely an equivalent matrix.
 */
import { NormalFormClaimSchema, type NormalFormClaim } from '@jacobian/shared';

export const NormalFormRejectionReason = {
  /** A matrix or vector of the claim has the wrong dimensions. */
  SHAPE: 'SHAPE',
  /** A transform's determinant is not ±1 (it is not invertible over Z). */
  NOT_UNIMODULAR: 'NOT_UNIMODULAR',
  /** U A ≠ H, or U A V ≠ D, at some entry. */
  PRODUCT_MISMATCH: 'PRODUCT_MISMATCH',
  /** H is not in row echelon form (a zero row above a non-zero one, or pivots not strictly to the right). */
  NOT_ECHELON: 'NOT_ECHELON',
  /** A pivot of H is negative. */
  PIVOT_NOT_POSITIVE: 'PIVOT_NOT_POSITIVE',
  /** An entry above a pivot of H lies outside [0, pivot). */
  NOT_REDUCED: 'NOT_REDUCED',
  /** A diagonal entry of D is negative. */
  NEGATIVE_DIAGONAL: 'NEGATIVE_DIAGONAL',
  /** d_i does not divide d_{i+1}. */
  NOT_DIVISIBLE: 'NOT_DIVISIBLE',
} as const;
export type NormalFormRejectionReason = (typeof NormalFormRejectionReason)[keyof typeof NormalFormRejectionReason];

export type NormalFormCheckResult =
  | { accepted: true; message: string }
  | { accepted: false; reason_code: NormalFormRejectionReason; message: string; path: (string | number)[]; witness: string | null };

type Checkpoint = () => void;

function reject(reason_code: NormalFormRejectionReason, message: string, path: (string | number)[], witness: string | null = null): NormalFormCheckResult {
  return { accepted: false, reason_code, message, path, witness };
}

const short = (x: bigint): string => {
  const text = x.toString();
  return text.length > 60 ? `${text.slice(0, 28)}…${text.slice(-28)} (${text.length} digits)` : text;
};

/** The exact determinant of a square integer matrix by fraction-free (Bareiss) elimination; this module's own code. */
export function integerDeterminant(M: readonly (readonly bigint[])[], checkpoint: Checkpoint = () => undefined): bigint {
  const n = M.length;
  if (n === 0) return 1n;
  const A = M.map((row) => [...row]);
  let sign = 1n;
  let previous = 1n;
  for (let k = 0; k < n; k++) {
    let pivot = k;
    while (pivot < n && (A[pivot] as bigint[])[k] === 0n) pivot++;
    if (pivot === n) return 0n;
    if (pivot !== k) {
      [A[k], A[pivot]] = [A[pivot] as bigint[], A[k] as bigint[]];
      sign = -sign;
    }
    const top = A[k] as bigint[];
    const p = top[k] as bigint;
    for (let i = k + 1; i < n; i++) {
      checkpoint();
      const row = A[i] as bigint[];
      const a = row[k] as bigint;
      for (let j = k + 1; j < n; j++) row[j] = (p * (row[j] as bigint) - a * (top[j] as bigint)) / previous;
      row[k] = 0n;
    }
    previous = p;
  }
  return sign * previous;
}

function toIntegers(rows: readonly (readonly string[])[]): bigint[][] {
  return rows.map((row) => row.map((t) => BigInt(t)));
}

function square(rows: readonly (readonly unknown[])[], order: number): boolean {
  return rows.length === order && rows.every((row) => row.length === order);
}

/** Row i of L times R, column by column. */
function rowTimes(row: readonly bigint[], R: readonly (readonly bigint[])[], width: number): bigint[] {
  const out = Array.from({ length: width }, () => 0n);
  for (let k = 0; k < row.length; k++) {
    const a = row[k] as bigint;
    if (a === 0n) continue;
    const r = R[k] as bigint[];
    for (let j = 0; j < width; j++) out[j] = (out[j] as bigint) + a * (r[j] as bigint);
  }
  return out;
}

function unimodular(T: readonly (readonly bigint[])[], field: 'left_transform' | 'right_transform', name: string, checkpoint: Checkpoint): NormalFormCheckResult | null {
  const det = integerDeterminant(T, checkpoint);
  if (det === 1n || det === -1n) return null;
  return reject(NormalFormRejectionReason.NOT_UNIMODULAR, `det ${name} = ${short(det)}, not ±1: ${name} is not unimodular (not invertible over Z), so it does not preserve the lattice`, [field], `det = ${short(det)}`);
}

/** Check a stored normal form claim (the claim must parse as canonical). */
export function checkNormalFormClaim(raw: unknown, checkpoint: Checkpoint = () => undefined): NormalFormCheckResult {
  const claim: NormalFormClaim = NormalFormClaimSchema.parse(raw);
  const m = claim.matrix.nrows;
  const n = claim.matrix.ncols;
  const A = toIntegers(claim.matrix.rows);
  if (!square(claim.left_transform, m)) return reject(NormalFormRejectionReason.SHAPE, `U must be ${m}×${m} (A has ${m} rows)`, ['left_transform']);
  const U = toIntegers(claim.left_transform);
  return claim.form === 'HERMITE' ? checkHermite(claim, A, U, m, n, checkpoint) : checkSmith(claim, A, U, m, n, checkpoint);
}

function checkHermite(claim: NormalFormClaim, A: bigint[][], U: bigint[][], m: number, n: number, checkpoint: Checkpoint): NormalFormCheckResult {
  const hnf = claim.hnf ?? [];
  if (hnf.length !== m || hnf.some((row) => row.length !== n)) return reject(NormalFormRejectionReason.SHAPE, `H must be ${m}×${n}, like A`, ['hnf']);
  const H = toIntegers(hnf);
  // The shape first (cheap): row echelon, positive pivots, reduced above each pivot, zero rows last.
  const pivots: number[] = [];
  let zeroFrom = -1;
  for (let i = 0; i < m; i++) {
    const row = H[i] as bigint[];
    const p = row.findIndex((x) => x !== 0n);
    if (p < 0) {
      if (zeroFrom < 0) zeroFrom = i;
      continue;
    }
    if (zeroFrom >= 0) return reject(NormalFormRejectionReason.NOT_ECHELON, `row ${i} of H is non-zero but row ${zeroFrom} above it is zero; zero rows come last`, ['hnf', i], `row ${i}`);
    const previous = pivots[pivots.length - 1];
    if (previous !== undefined && p <= previous) return reject(NormalFormRejectionReason.NOT_ECHELON, `the pivot of row ${i} of H is in column ${p}, not right of the previous row's pivot (column ${previous})`, ['hnf', i], `row ${i}, column ${p}`);
    const pivot = row[p] as bigint;
    if (pivot < 0n) return reject(NormalFormRejectionReason.PIVOT_NOT_POSITIVE, `the pivot H[${i}][${p}] = ${short(pivot)} is negative`, ['hnf', i, p], `row ${i}, column ${p}`);
    for (let k = 0; k < i; k++) {
      const above = (H[k] as bigint[])[p] as bigint;
      if (above < 0n || above >= pivot) return reject(NormalFormRejectionReason.NOT_REDUCED, `H[${k}][${p}] = ${short(above)} is above the pivot ${short(pivot)} of row ${i} but not in [0, ${short(pivot)})`, ['hnf', k, p], `row ${k}, column ${p}`);
    }
    pivots.push(p);
  }
  const notUnimodular = unimodular(U, 'left_transform', 'U', checkpoint);
  if (notUnimodular !== null) return notUnimodular;
  for (let i = 0; i < m; i++) {
    checkpoint();
    const product = rowTimes(U[i] as bigint[], A, n);
    const j = product.findIndex((x, c) => x !== (H[i] as bigint[])[c]);
    if (j >= 0) return reject(NormalFormRejectionReason.PRODUCT_MISMATCH, `(U A)[${i}][${j}] = ${short(product[j] as bigint)}, but H[${i}][${j}] = ${short((H[i] as bigint[])[j] as bigint)}`, ['hnf', i, j], `entry (${i}, ${j})`);
  }
  return {
    accepted: true,
    message: `U A = H exactly, det U = ±1 (U unimodular), and H is in row Hermite normal form (rank ${pivots.length}, pivots positive, entries above them reduced): by uniqueness H is the Hermite normal form of A`,
  };
}

function checkSmith(claim: NormalFormClaim, A: bigint[][], U: bigint[][], m: number, n: number, checkpoint: Checkpoint): NormalFormCheckResult {
  const size = Math.min(m, n);
  const diagonal = claim.diagonal ?? [];
  if (diagonal.length !== size) return reject(NormalFormRejectionReason.SHAPE, `the diagonal must have min(m, n) = ${size} entries`, ['diagonal']);
  const right = claim.right_transform ?? [];
  if (!square(right, n)) return reject(NormalFormRejectionReason.SHAPE, `V must be ${n}×${n} (A has ${n} columns)`, ['right_transform']);
  const d = diagonal.map((t) => BigInt(t));
  for (const [i, x] of d.entries()) {
    if (x < 0n) return reject(NormalFormRejectionReason.NEGATIVE_DIAGONAL, `d_${i + 1} = ${short(x)} is negative`, ['diagonal', i], `d_${i + 1}`);
    const next = d[i + 1];
    if (next === undefined) continue;
    if (x === 0n ? next !== 0n : next % x !== 0n) return reject(NormalFormRejectionReason.NOT_DIVISIBLE, `d_${i + 1} = ${short(x)} does not divide d_${i + 2} = ${short(next)}`, ['diagonal', i + 1], `d_${i + 1} ∤ d_${i + 2}`);
  }
  const V = toIntegers(right);
  for (const [T, field, name] of [[U, 'left_transform', 'U'], [V, 'right_transform', 'V']] as const) {
    const failure = unimodular(T, field, name, checkpoint);
    if (failure !== null) return failure;
  }
  for (let i = 0; i < m; i++) {
    checkpoint();
    const product = rowTimes(rowTimes(U[i] as bigint[], A, n), V, n);
    const j = product.findIndex((x, c) => x !== (i === c ? (d[i] as bigint) : 0n));
    if (j >= 0) {
      const expected = i === j ? (d[i] as bigint) : 0n;
      return reject(NormalFormRejectionReason.PRODUCT_MISMATCH, `(U A V)[${i}][${j}] = ${short(product[j] as bigint)}, but D[${i}][${j}] = ${short(expected)}`, i === j ? ['diagonal', i] : ['right_transform'], `entry (${i}, ${j})`);
    }
  }
  const rank = d.filter((x) => x !== 0n).length;
  return {
    accepted: true,
    message: `U A V = D exactly, det U = ±1 and det V = ±1 (both unimodular), and D is diagonal, non-negative, with d_1 | d_2 | … (rank ${rank}): by uniqueness D is the Smith normal form of A`,
  };
}
