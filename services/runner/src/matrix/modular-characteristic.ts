/**
 * Characteristic polynomials modulo word-size primes on plain numbers, and of integer matrices by
 * the Chinese remainder theorem over many such primes. The primes, the exact arithmetic on doubles
 * ({@link modP}), the reduction of a big-integer matrix and the CRT are modular.ts's.
 */
import { invModSmall, SMALL_PRIME_BOUND } from '@jacobian/shared';
import type { Checkpoint } from './engine.js';
import { ceilSqrt, crtSymmetric, LimbMatrix, modP, wordPrime } from './modular.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

/**
 * det(x I − A) modulo a prime p < 2^26, coefficients lowest degree first, for A given by rows of
 * residues in [0, p) (the rows are overwritten). Reduction to upper Hessenberg form by similarity
 * (row i −= u·row m mirrored by column m += u·column i, i.e. H ↦ S H S⁻¹ with S = I − u E_im),
 * then the recurrence on the leading principal submatrices of the Hessenberg matrix H:
 * p_m = (x − h_mm) p_{m−1} − Σ_{i<m} h_im (h_{i+1,i} ⋯ h_{m,m−1}) p_{i−1}. O(n³) operations.
 */
export function charpolyModP(H: Float64Array[], p: number, checkpoint: Checkpoint = NO_CHECKPOINT): number[] {
  if (!(p > 1 && p < SMALL_PRIME_BOUND)) throw new RangeError(`charpolyModP needs a prime below 2^26, not ${p}`);
  const n = H.length;
  const pInverse = 1 / p;
  for (let m = 1; m < n - 1; m++) {
    checkpoint();
    let pivot = m;
    while (pivot < n && (H[pivot] as Float64Array)[m - 1] === 0) pivot++;
    if (pivot === n) continue;
    if (pivot !== m) {
      [H[pivot], H[m]] = [H[m] as Float64Array, H[pivot] as Float64Array];
      for (const row of H) [row[pivot], row[m]] = [row[m] as number, row[pivot] as number];
    }
    const rowM = H[m] as Float64Array;
    const inverse = invModSmall(rowM[m - 1] as number, p);
    for (let i = m + 1; i < n; i++) {
      const rowI = H[i] as Float64Array;
      const u = modP((rowI[m - 1] as number) * inverse, p, pInverse);
      if (u === 0) continue;
      // Columns before m − 1 are zero in rows m and i already; column m − 1 of row i becomes 0.
      const minusU = p - u;
      for (let j = m - 1; j < n; j++) rowI[j] = modP((rowI[j] as number) + minusU * (rowM[j] as number), p, pInverse);
      for (const row of H) row[m] = modP((row[m] as number) + u * (row[i] as number), p, pInverse);
    }
  }
  const polys: Float64Array[] = [Float64Array.of(1)];
  for (let m = 1; m <= n; m++) {
    checkpoint();
    const previous = polys[m - 1] as Float64Array;
    const next = new Float64Array(m + 1);
    const minusDiagonal = p - (H[m - 1] as Float64Array)[m - 1]!;
    // (x − h_mm) p_{m−1}
    for (let k = 0; k < m; k++) {
      next[k + 1] = modP((next[k + 1] as number) + (previous[k] as number), p, pInverse);
      next[k] = modP((next[k] as number) + minusDiagonal * (previous[k] as number), p, pInverse);
    }
    let t = 1;
    for (let i = m - 1; i >= 1; i--) {
      t = modP(t * (H[i] as Float64Array)[i - 1]!, p, pInverse);
      if (t === 0) break;
      const c = modP((H[i - 1] as Float64Array)[m - 1]! * t, p, pInverse);
      if (c === 0) continue;
      const minusC = p - c;
      const older = polys[i - 1] as Float64Array;
      for (let k = 0; k < older.length; k++) next[k] = modP((next[k] as number) + minusC * (older[k] as number), p, pInverse);
    }
    polys.push(next);
  }
  return Array.from(polys[n] as Float64Array);
}

/**
 * A bound on every coefficient of det(x I − B) for an integer matrix B. The coefficient of
 * x^{n−k} is (−1)^k times the sum of the k×k principal minors (Horn & Johnson, Matrix Analysis,
 * 2nd ed., Thm 1.2.16), and by Hadamard's inequality a minor on the rows S is at most
 * Π_{i∈S} r_i, r_i ≥ the Euclidean norm of row i (the row restricted to S is no longer). So
 * |c_{n−k}| ≤ e_k(r_1, …, r_n) ≤ Π_i (1 + r_i); the same holds with column norms (det M = det Mᵀ),
 * and the smaller product is taken.
 */
export function charpolyCoefficientBound(B: readonly (readonly bigint[])[]): bigint {
  const n = B.length;
  let byRows = 1n;
  let byColumns = 1n;
  for (let i = 0; i < n; i++) {
    let row = 0n;
    let column = 0n;
    for (let j = 0; j < n; j++) {
      const a = (B[i] as bigint[])[j] as bigint;
      const b = (B[j] as bigint[])[i] as bigint;
      row += a * a;
      column += b * b;
    }
    byRows *= 1n + ceilSqrt(row);
    byColumns *= 1n + ceilSqrt(column);
  }
  return byRows < byColumns ? byRows : byColumns;
}

/**
 * det(x I − B) for an integer matrix B, exactly: modulo as many primes below 2^26 as make their
 * product exceed twice {@link charpolyCoefficientBound}, combined by {@link crtSymmetric}. Every
 * prime is good (the characteristic polynomial commutes with reduction mod p), so the number of
 * primes is fixed in advance by the bound and no early stop is taken.
 */
export function integerCharacteristicPolynomial(B: readonly (readonly bigint[])[], checkpoint: Checkpoint = NO_CHECKPOINT): bigint[] {
  const n = B.length;
  if (n === 0) return [1n];
  const target = 2n * charpolyCoefficientBound(B);
  const matrix = new LimbMatrix(B, checkpoint);
  const primes: number[] = [];
  const residues: number[][] = [];
  for (let product = 1n; product <= target; ) {
    checkpoint();
    const p = wordPrime(primes.length);
    primes.push(p);
    residues.push(charpolyModP(matrix.reduce(p), p, checkpoint));
    product *= BigInt(p);
  }
  return crtSymmetric(primes, residues, checkpoint);
}
