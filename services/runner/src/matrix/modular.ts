/**
 * What the multimodular methods over Z share: word-size primes, exact arithmetic modulo them on
 * plain numbers, the reduction of a big-integer matrix modulo each prime, Hadamard's bound on its
 * minors, and the Chinese remainder theorem back to integers.
 *
 * Residues modulo a prime p < 2^26 are numbers in [0, p): a product of two is below 2^52 and a
 * product plus a residue below 2^52, so every step is exact in a double, with no BigInt and no
 * generic field in the inner loops. Reduction is by a floating-point quotient (see {@link modP}),
 * three to four times faster than the `%` operator on doubles.
 */
import { invModSmall, SMALL_PRIME_BOUND } from '@jacobian/shared';
import type { Checkpoint } from './engine.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

/**
 * x mod p for an integer 0 ≤ x < 2^52, p < 2^26 and inverse = 1/p: q = ⌊x · inverse⌋ is the true
 * quotient or off by one (the relative error of x · inverse is below 2^−51, so its absolute error
 * is below 2^−25), q·p ≤ x + p < 2^53 and x − q·p are exact, and one correction lands in [0, p).
 * A plain function of three numbers, which V8 inlines into the loops (a closure over p was not).
 */
export function modP(x: number, p: number, inverse: number): number {
  const r = x - Math.floor(x * inverse) * p;
  return r < 0 ? r + p : r >= p ? r - p : r;
}

/** Whether an odd q < 2^26 is prime, by trial division up to √q < 2^13 (exact and cheap at this size). */
function isOddPrime(q: number): boolean {
  for (let d = 3; d * d <= q; d += 2) if (q % d === 0) return false;
  return q > 1;
}

/** Primes below 2^26, largest first, found once per process. */
const PRIMES: number[] = [];

/**
 * The i-th largest odd prime below 2^26 (i from 0). Those above 2^25 alone number about 1.9
 * million (their product has about 4.8·10^7 bits); a RangeError if they all run out.
 */
export function wordPrime(i: number): number {
  let candidate = PRIMES.length === 0 ? SMALL_PRIME_BOUND - 1 : (PRIMES[PRIMES.length - 1] as number) - 2;
  while (PRIMES.length <= i) {
    if (candidate < 3) throw new RangeError('ran out of odd primes below 2^26');
    if (isOddPrime(candidate)) PRIMES.push(candidate);
    candidate -= 2;
  }
  return PRIMES[i] as number;
}

const LIMB_BITS = 26n;
const LIMB = 2 ** 26;
const LIMB_MASK = (1n << LIMB_BITS) - 1n;

/**
 * An m×n integer matrix kept as base-2^26 digits and signs, so that its reduction modulo each
 * prime is a Horner evaluation on numbers: r·2^26 + digit < 2^52. The matrix is read from BigInt
 * once; every prime after that costs (limbs) number operations per entry. The digits are stored
 * limb by limb (all entries' leading digits first), so that one Horner step runs over all entries
 * at once: independent operations, not one chain per entry.
 */
export class LimbMatrix {
  readonly m: number;
  readonly n: number;
  private readonly limbs: number;
  /** digits[l·m·n + i·n + j]: digit l (most significant first) of |B_ij|. */
  private readonly digits: Float64Array;
  private readonly negative: Uint8Array;

  /** `checkpoint` is called once per row: reading thousands of wide entries from BigInt takes a while. */
  constructor(B: readonly (readonly bigint[])[], checkpoint: Checkpoint = NO_CHECKPOINT) {
    this.m = B.length;
    this.n = B[0]?.length ?? 0;
    const size = this.m * this.n;
    let widest = 0n;
    for (const row of B) {
      for (const b of row) {
        const magnitude = b < 0n ? -b : b;
        if (magnitude > widest) widest = magnitude;
      }
    }
    let limbs = 1;
    while (widest >> (LIMB_BITS * BigInt(limbs)) > 0n) limbs++;
    this.limbs = limbs;
    this.digits = new Float64Array(size * limbs);
    this.negative = new Uint8Array(size);
    B.forEach((row, i) => {
      checkpoint();
      row.forEach((b, j) => {
        const at = i * this.n + j;
        this.negative[at] = b < 0n ? 1 : 0;
        let magnitude = b < 0n ? -b : b;
        for (let l = limbs - 1; l >= 0 && magnitude > 0n; l--) {
          this.digits[l * size + at] = Number(magnitude & LIMB_MASK);
          magnitude >>= LIMB_BITS;
        }
      });
    });
  }

  /** The rows of residues in [0, p), for a prime p < 2^26 (views into one buffer). */
  reduce(p: number): Float64Array[] {
    const { m, n, limbs, digits, negative } = this;
    const size = m * n;
    const inverse = 1 / p;
    const residues = new Float64Array(size);
    for (let e = 0; e < size; e++) residues[e] = modP(digits[e] as number, p, inverse);
    for (let l = 1; l < limbs; l++) {
      const offset = l * size;
      for (let e = 0; e < size; e++) residues[e] = modP((residues[e] as number) * LIMB + (digits[offset + e] as number), p, inverse);
    }
    for (let e = 0; e < size; e++) if (negative[e] === 1 && residues[e] !== 0) residues[e] = p - (residues[e] as number);
    return Array.from({ length: m }, (_, i) => residues.subarray(i * n, (i + 1) * n));
  }
}

/** ⌈√x⌉ for x ≥ 0, by Newton's iteration on BigInt. */
export function ceilSqrt(x: bigint): bigint {
  if (x < 2n) return x;
  let y = 1n << BigInt(Math.ceil(x.toString(2).length / 2));
  for (;;) {
    const next = (y + x / y) >> 1n;
    if (next >= y) break;
    y = next;
  }
  // y = ⌊√x⌋ now.
  return y * y === x ? y : y + 1n;
}

/**
 * Hadamard's bound on the k×k minors of an m×n integer matrix B, as a function of k. A minor on
 * rows S and columns T is the determinant of a k×k matrix whose rows are the rows of S restricted
 * to T, so by Hadamard's inequality it is at most Π_{i∈S} ‖row i‖ ≤ the product of the k largest
 * row norms; the same holds with columns (det M = det Mᵀ), and the smaller product is taken. Each
 * norm is rounded up to an integer. There is no k×k minor for k > min(m, n): the bound is 0 there
 * (and it is 0 when B has fewer than k non-zero rows or columns, rightly: every such minor is 0).
 */
export function minorBounds(B: readonly (readonly bigint[])[]): (k: number) => bigint {
  const m = B.length;
  const n = B[0]?.length ?? 0;
  const rowSquares = new Array<bigint>(m).fill(0n);
  const columnSquares = new Array<bigint>(n).fill(0n);
  for (let i = 0; i < m; i++) {
    const row = B[i] as readonly bigint[];
    for (let j = 0; j < n; j++) {
      const a = row[j] as bigint;
      if (a === 0n) continue;
      const square = a * a;
      rowSquares[i] = (rowSquares[i] as bigint) + square;
      columnSquares[j] = (columnSquares[j] as bigint) + square;
    }
  }
  const largestFirst = (squares: bigint[]): bigint[] => squares.map(ceilSqrt).sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
  const prefixProducts = (norms: bigint[]): bigint[] => {
    const products = [1n];
    for (const norm of norms) products.push((products[products.length - 1] as bigint) * norm);
    return products;
  };
  const byRows = prefixProducts(largestFirst(rowSquares));
  const byColumns = prefixProducts(largestFirst(columnSquares));
  return (k) => {
    if (k > m || k > n) return 0n;
    const r = byRows[k] as bigint;
    const c = byColumns[k] as bigint;
    return r < c ? r : c;
  };
}

/**
 * The integers x_k with |x_k| ≤ bound from their residues modulo primes whose product M exceeds
 * 2·bound: Garner's mixed-radix form x = v_0 + v_1 p_0 + v_2 p_0 p_1 + … with digits computed on
 * numbers, then one Horner pass in BigInt, taken in the symmetric range (−M/2, M/2].
 */
export function crtSymmetric(primes: readonly number[], residues: readonly (readonly number[])[], checkpoint: Checkpoint = NO_CHECKPOINT): bigint[] {
  const count = primes.length;
  const width = (residues[0] as readonly number[]).length;
  // digits[j][k]: the mixed-radix digit v_j of coefficient k.
  const digits: Float64Array[] = [];
  for (let j = 0; j < count; j++) {
    checkpoint();
    const pj = primes[j] as number;
    const pjInverse = 1 / pj;
    const radix = primes.slice(0, j).map((p) => p % pj);
    // (p_0 ⋯ p_{j−1})^{−1} mod p_j
    const inverse = j === 0 ? 1 : invModSmall(radix.reduce((product, q) => modP(product * q, pj, pjInverse), 1), pj);
    const row = new Float64Array(width);
    for (let k = 0; k < width; k++) {
      // s = v_0 + v_1 p_0 + … + v_{j−1} p_0 ⋯ p_{j−2} mod p_j, by Horner from the top digit.
      let s = 0;
      for (let i = j - 1; i >= 0; i--) s = modP(s * (radix[i] as number) + ((digits[i] as Float64Array)[k] as number), pj, pjInverse);
      row[k] = modP(modP((residues[j] as readonly number[])[k]! - s + pj, pj, pjInverse) * inverse, pj, pjInverse);
    }
    digits.push(row);
  }
  let modulus = 1n;
  for (const p of primes) modulus *= BigInt(p);
  const half = modulus / 2n;
  return Array.from({ length: width }, (_, k) => {
    let x = 0n;
    for (let j = count - 1; j >= 0; j--) x = x * BigInt(primes[j] as number) + BigInt((digits[j] as Float64Array)[k] as number);
    return x > half ? x - modulus : x;
  });
}
