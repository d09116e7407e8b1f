/**
 * The determinant and the rank (over Q) of an integer matrix, exactly, by Gaussian elimination
 * modulo word-size primes on plain numbers (modular.ts's arithmetic). How many primes is fixed by
 * Hadamard's bound before any is tried, never guessed from the residues: both functions are
 * deterministic and exact.
 *
 * Determinant: det B mod p for primes p_0, p_1, … until M = Π p_i exceeds 2H, H = Hadamard's
 * bound on |det B| ({@link minorBounds}); det B is then the representative of its residue class
 * mod M in (−M/2, M/2] (Chinese remainder theorem, {@link crtSymmetric}). A prime where the
 * elimination finds det ≡ 0 gives a residue like any other.
 *
 * Rank: rank(B mod p) ≤ rank B for every prime p, since a non-zero r×r minor modulo p is a
 * non-zero integer. So r = the largest rank modulo the primes tried is a certain lower bound. If
 * r = min(m, n) it is the rank. Otherwise suppose rank B > r: some (r+1)×(r+1) minor D of B is
 * non-zero, and |D| ≤ H_{r+1}, Hadamard's bound on the (r+1)×(r+1) minors. Every prime tried has
 * rank(B mod p) ≤ r, so every (r+1)×(r+1) minor, D among them, vanishes modulo it: the product
 * of the (distinct) primes tried divides D, so it is at most |D| ≤ H_{r+1}. Hence once that
 * product exceeds H_{r+1}, rank B = r. Primes are tried until it does; a prime of larger rank
 * raises r (and H_{r+1} with it), and the primes already tried still count, as their ranks are
 * below the new r too.
 */
import { invModSmall } from '@jacobian/shared';
import type { Checkpoint } from './engine.js';
import { crtSymmetric, LimbMatrix, minorBounds, modP, wordPrime } from './modular.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

/**
 * Gaussian elimination modulo p < 2^26 on rows of residues in [0, p) (overwritten): the rank,
 * and for a square matrix the determinant (the product of the pivots, negated per row swap).
 * With `stopWhenSingular` it stops at the first column without a pivot (det = 0, rank unknown).
 * The checkpoint is called once per pivot column.
 */
function eliminateModP(rows: Float64Array[], p: number, stopWhenSingular: boolean, checkpoint: Checkpoint): { rank: number; det: number } {
  const m = rows.length;
  const n = rows[0]?.length ?? 0;
  const pInverse = 1 / p;
  let det = 1;
  let r = 0;
  for (let c = 0; c < n && r < m; c++) {
    checkpoint();
    let pivot = r;
    while (pivot < m && (rows[pivot] as Float64Array)[c] === 0) pivot++;
    if (pivot === m) {
      if (stopWhenSingular) return { rank: r, det: 0 };
      continue;
    }
    if (pivot !== r) {
      [rows[pivot], rows[r]] = [rows[r] as Float64Array, rows[pivot] as Float64Array];
      det = p - det;
    }
    const top = rows[r] as Float64Array;
    const lead = top[c] as number;
    det = modP(det * lead, p, pInverse);
    const inverse = invModSmall(lead, p);
    for (let i = r + 1; i < m; i++) {
      const row = rows[i] as Float64Array;
      const a = row[c] as number;
      if (a === 0) continue;
      // row −= (a / lead) · top, as row + u · top with u = p − a/lead in [1, p).
      const u = p - modP(a * inverse, p, pInverse);
      row[c] = 0;
      for (let j = c + 1; j < n; j++) row[j] = modP((row[j] as number) + u * (top[j] as number), p, pInverse);
    }
    r++;
  }
  return { rank: r, det: r === m && r === n ? det : 0 };
}

/** det of a square matrix modulo a prime p < 2^26, from rows of residues in [0, p) (overwritten). */
export function determinantModP(rows: Float64Array[], p: number, checkpoint: Checkpoint = NO_CHECKPOINT): number {
  return eliminateModP(rows, p, true, checkpoint).det;
}

/** The rank modulo a prime p < 2^26 of any m×n matrix, from rows of residues in [0, p) (overwritten). */
export function rankModP(rows: Float64Array[], p: number, checkpoint: Checkpoint = NO_CHECKPOINT): number {
  return eliminateModP(rows, p, false, checkpoint).rank;
}

/** det B of a square integer matrix, exactly (see the module comment); det of the 0×0 matrix is 1. */
export function integerDeterminant(B: readonly (readonly bigint[])[], checkpoint: Checkpoint = NO_CHECKPOINT): bigint {
  const n = B.length;
  if (n === 0) return 1n;
  const bound = minorBounds(B)(n);
  // A zero row or column.
  if (bound === 0n) return 0n;
  const target = 2n * bound;
  const matrix = new LimbMatrix(B, checkpoint);
  const primes: number[] = [];
  const residues: number[][] = [];
  for (let product = 1n; product <= target; ) {
    checkpoint();
    const p = wordPrime(primes.length);
    primes.push(p);
    residues.push([determinantModP(matrix.reduce(p), p, checkpoint)]);
    product *= BigInt(p);
  }
  return crtSymmetric(primes, residues, checkpoint)[0] as bigint;
}

/** The rank over Q of an m×n integer matrix, exactly (see the module comment for why it is exact). */
export function integerRank(B: readonly (readonly bigint[])[], checkpoint: Checkpoint = NO_CHECKPOINT): number {
  const full = Math.min(B.length, B[0]?.length ?? 0);
  const bound = minorBounds(B);
  // The zero matrix (and an empty one) stop here: there is no non-zero 1×1 minor, H_1 = 0.
  if (full === 0 || bound(1) === 0n) return 0;
  const matrix = new LimbMatrix(B, checkpoint);
  let rank = 0;
  let product = 1n;
  for (let i = 0; rank < full && product <= bound(rank + 1); i++) {
    checkpoint();
    const p = wordPrime(i);
    rank = Math.max(rank, rankModP(matrix.reduce(p), p, checkpoint));
    product *= BigInt(p);
  }
  return rank;
}
