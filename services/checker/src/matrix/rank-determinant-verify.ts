/**
 * The checks behind matrix.determinant.verify and matrix.rank.verify, written apart from the
 * producers' engine (no import from the runner) and by different methods: the producers'
 * determinant and rank over Z and Q are multimodular (elimination modulo word-size primes up to
 * a Hadamard bound, then the Chinese remainder theorem); here the determinant is recomputed by
 * fraction-free elimination on big integers, and the rank proved by a minor and a kernel.
 *
 * Over Z and Q the rows are first scaled to integers (Ã = diag(s) A, s_i the lcm of row i's
 * denominators), which changes neither the rank nor, up to the known factor S = ∏ s_i, the
 * determinant.
 *
 * Determinant: the claim c gives the integer t = c·S (if c·S is not an integer, c is wrong), and
 * det Ã is recomputed exactly by fraction-free Gaussian elimination (Bareiss, the checker's own
 * in normal-form-verify.ts): every intermediate entry is a minor of Ã, every division exact, no
 * prime and no bound involved. The claim holds iff det Ã = t. Over GF(p) the determinant is
 * recomputed by elimination in the other order from the producer's: columns from the last to the
 * first, each pivot sought from the bottom row up (det A = product of the pivots of this UL
 * factorization, with the sign of the row swaps).
 *
 * Rank, by a lower and an upper bound that meet:
 * - lower: rank(Ã mod q) ≤ rank Ã for any prime q (a non-zero r×r minor mod q is non-zero in Z);
 *   the elimination also names the r rows I and r columns J of such a minor, whose determinant
 *   mod q is then recomputed by the UL-order elimination and must be non-zero;
 * - upper: n − r linearly independent vectors in the kernel prove rank ≤ r. For each column f
 *   outside J the vector with x_f = d = det Ã[I,J], x_J = −adj(Ã[I,J]) Ã[I,f] and 0 elsewhere is
 *   computed (its entries are r×r minors of Ã[I,·], so bounded by the product of those rows'
 *   norms: reconstructed by CRT from the solutions of the r×r system mod enough primes), then
 *   Ã x = 0 is checked exactly in integers. The vectors are independent by construction (x_f = d
 *   ≠ 0 at its own column, 0 at the other columns outside J). The kernel is taken on the side with
 *   fewer vectors (Aᵀ when it has fewer columns than rows).
 * When the certificate fails, q was unlucky (the true rank is larger): the next prime is tried.
 * That ends: a prime q makes rank(Ã mod q) < rank Ã only if it divides a fixed non-zero minor,
 * which is at most Hadamard's bound H on the minors of Ã, so at most log₂H / 25 primes are
 * unlucky. Over GF(p) the same bounds are taken with q = p itself (one round, exact). Nothing is
 * probabilistic.
 */
import { DeterminantClaimSchema, RankClaimSchema, type DeterminantClaim, type MatrixPayload, type RankClaim } from '@jacobian/shared';
import { integerDeterminant } from './normal-form-verify.js';

export const RankDeterminantRejectionReason = {
  /** The matrix has the wrong shape for the claim (a determinant of a non-square matrix). */
  SHAPE: 'SHAPE',
  /** det A differs from the claimed value. */
  DETERMINANT_MISMATCH: 'DETERMINANT_MISMATCH',
  /** The claimed rank exceeds the true rank (proved by a kernel of larger dimension). */
  RANK_TOO_HIGH: 'RANK_TOO_HIGH',
  /** The claimed rank is below the true rank (proved by a non-zero minor of larger order). */
  RANK_TOO_LOW: 'RANK_TOO_LOW',
} as const;
export type RankDeterminantRejectionReason = (typeof RankDeterminantRejectionReason)[keyof typeof RankDeterminantRejectionReason];

export type RankDeterminantCheckResult =
  | { accepted: true; message: string; method: string }
  | { accepted: false; reason_code: RankDeterminantRejectionReason; message: string; path: (string | number)[]; witness: string | null };

type Checkpoint = () => void;

function reject(reason_code: RankDeterminantRejectionReason, message: string, path: (string | number)[], witness: string | null = null): RankDeterminantCheckResult {
  return { accepted: false, reason_code, message, path, witness };
}

// ---------------------------------------------------------------------------------------------
// Arithmetic modulo a prime: in doubles for word-size primes (products below 2^52), in bigints otherwise.

interface ModArith<T> {
  readonly modulus: bigint;
  readonly zero: T;
  readonly one: T;
  isZero(a: T): boolean;
  sub(a: T, b: T): T;
  mul(a: T, b: T): T;
  neg(a: T): T;
  inv(a: T): T;
  reduce(x: bigint): T;
  lift(a: T): bigint;
}

const WORD_BITS = 26;
const WORD_LIMIT = 2 ** WORD_BITS;

function wordArith(q: number): ModArith<number> {
  const Q = BigInt(q);
  return {
    modulus: Q,
    zero: 0,
    one: 1,
    isZero: (a) => a === 0,
    sub: (a, b) => (a >= b ? a - b : a - b + q),
    mul: (a, b) => (a * b) % q,
    neg: (a) => (a === 0 ? 0 : q - a),
    inv(a) {
      let [r0, r1, t0, t1] = [q, a, 0, 1];
      while (r1 !== 0) {
        const k = Math.floor(r0 / r1);
        [r0, r1] = [r1, r0 - k * r1];
        [t0, t1] = [t1, t0 - k * t1];
      }
      return t0 < 0 ? t0 + q : t0;
    },
    reduce(x) {
      const r = Number(x % Q);
      return r < 0 ? r + q : r;
    },
    lift: (a) => BigInt(a),
  };
}

function bigArith(p: bigint): ModArith<bigint> {
  const mod = (x: bigint): bigint => {
    const r = x % p;
    return r < 0n ? r + p : r;
  };
  return {
    modulus: p,
    zero: 0n,
    one: 1n,
    isZero: (a) => a === 0n,
    sub: (a, b) => mod(a - b),
    mul: (a, b) => (a * b) % p,
    neg: (a) => (a === 0n ? 0n : p - a),
    inv(a) {
      let [r0, r1, t0, t1] = [p, a, 0n, 1n];
      while (r1 !== 0n) {
        const k = r0 / r1;
        [r0, r1] = [r1, r0 - k * r1];
        [t0, t1] = [t1, t0 - k * t1];
      }
      return mod(t0);
    },
    reduce: mod,
    lift: (a) => a,
  };
}

/** The arithmetic of GF(p): in doubles when p is below 2^26. */
function arithmeticOf(p: bigint): ModArith<unknown> {
  return p < BigInt(WORD_LIMIT) ? wordArith(Number(p)) : bigArith(p);
}

/** Primes between 2^25 and 2^26, largest first, by a segmented sieve; generated as they are needed. */
function* wordPrimes(): Generator<number> {
  const root = Math.ceil(Math.sqrt(WORD_LIMIT));
  const composite = new Uint8Array(root + 1);
  const small: number[] = [];
  for (let i = 2; i <= root; i++) {
    if (composite[i] === 1) continue;
    small.push(i);
    for (let j = i * i; j <= root; j += i) composite[j] = 1;
  }
  const SEGMENT = 1 << 16;
  for (let high = WORD_LIMIT; high > WORD_LIMIT / 2; high -= SEGMENT) {
    const low = high - SEGMENT;
    const marks = new Uint8Array(SEGMENT);
    for (const s of small) {
      for (let j = Math.ceil(low / s) * s; j < high; j += s) marks[j - low] = 1;
    }
    for (let i = SEGMENT - 1; i >= 0; i--) if (marks[i] === 0) yield low + i;
  }
}

// ---------------------------------------------------------------------------------------------
// Elimination modulo a prime.

/** det M over GF(q), in the UL order: columns from the last, each pivot sought from the bottom row up. M is consumed. */
function determinantMod<T>(R: ModArith<T>, M: T[][], checkpoint: Checkpoint): T {
  let det = R.one;
  for (let k = M.length - 1; k >= 0; k--) {
    let pivot = -1;
    for (let i = k; i >= 0; i--) {
      if (!R.isZero((M[i] as T[])[k] as T)) {
        pivot = i;
        break;
      }
    }
    if (pivot < 0) return R.zero;
    if (pivot !== k) {
      [M[pivot], M[k]] = [M[k] as T[], M[pivot] as T[]];
      det = R.neg(det);
    }
    const top = M[k] as T[];
    const p = top[k] as T;
    det = R.mul(det, p);
    const inverse = R.inv(p);
    for (let i = 0; i < k; i++) {
      const row = M[i] as T[];
      const a = row[k] as T;
      if (R.isZero(a)) continue;
      checkpoint();
      const factor = R.mul(a, inverse);
      for (let j = 0; j < k; j++) row[j] = R.sub(row[j] as T, R.mul(factor, top[j] as T));
    }
  }
  return det;
}

/** The rank of M over GF(q) and the rows I and columns J of a non-singular r×r minor. M is consumed. */
function rankProfileMod<T>(R: ModArith<T>, M: T[][], checkpoint: Checkpoint): { rank: number; rows: number[]; columns: number[] } {
  const order = M.map((_, i) => i);
  const width = M[0]?.length ?? 0;
  const columns: number[] = [];
  let r = 0;
  for (let c = 0; c < width && r < M.length; c++) {
    let pivot = -1;
    for (let i = r; i < M.length; i++) {
      if (!R.isZero((M[i] as T[])[c] as T)) {
        pivot = i;
        break;
      }
    }
    if (pivot < 0) continue;
    [M[pivot], M[r]] = [M[r] as T[], M[pivot] as T[]];
    [order[pivot], order[r]] = [order[r] as number, order[pivot] as number];
    const top = M[r] as T[];
    const inverse = R.inv(top[c] as T);
    for (let i = r + 1; i < M.length; i++) {
      const row = M[i] as T[];
      const a = row[c] as T;
      if (R.isZero(a)) continue;
      checkpoint();
      const factor = R.mul(a, inverse);
      for (let j = c; j < width; j++) row[j] = R.sub(row[j] as T, R.mul(factor, top[j] as T));
    }
    columns.push(c);
    r++;
  }
  return { rank: r, rows: order.slice(0, r).sort((a, b) => a - b), columns };
}

/**
 * Solve B Y = C over GF(q) for a square B by Gauss–Jordan: det B and Y, or null when B is
 * singular mod q. B and C are consumed.
 */
function solveMod<T>(R: ModArith<T>, B: T[][], C: T[][], checkpoint: Checkpoint): { det: T; Y: T[][] } | null {
  const r = B.length;
  const M = B.map((row, i) => [...row, ...(C[i] as T[])]);
  const width = M[0]?.length ?? 0;
  let det = R.one;
  for (let c = 0; c < r; c++) {
    let pivot = -1;
    for (let i = c; i < r; i++) {
      if (!R.isZero((M[i] as T[])[c] as T)) {
        pivot = i;
        break;
      }
    }
    if (pivot < 0) return null;
    if (pivot !== c) {
      [M[pivot], M[c]] = [M[c] as T[], M[pivot] as T[]];
      det = R.neg(det);
    }
    const top = M[c] as T[];
    det = R.mul(det, top[c] as T);
    const inverse = R.inv(top[c] as T);
    for (let j = c; j < width; j++) top[j] = R.mul(top[j] as T, inverse);
    for (let i = 0; i < r; i++) {
      if (i === c) continue;
      const row = M[i] as T[];
      const a = row[c] as T;
      if (R.isZero(a)) continue;
      checkpoint();
      for (let j = c; j < width; j++) row[j] = R.sub(row[j] as T, R.mul(a, top[j] as T));
    }
  }
  return { det, Y: M.map((row) => row.slice(r)) };
}

// ---------------------------------------------------------------------------------------------
// Integers: scaling, bounds, CRT.

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** A canonical rational text as numerator and denominator (den > 0). */
function parseRational(text: string): { num: bigint; den: bigint } {
  const slash = text.indexOf('/');
  return slash < 0 ? { num: BigInt(text), den: 1n } : { num: BigInt(text.slice(0, slash)), den: BigInt(text.slice(slash + 1)) };
}

/** The rows scaled to integers (each by the lcm of its denominators), and the product S of the scales. */
function integerScaled(matrix: MatrixPayload): { rows: bigint[][]; scale: bigint } {
  let scale = 1n;
  const rows = matrix.rows.map((row) => {
    const entries = row.map(parseRational);
    let lcm = 1n;
    for (const { den } of entries) if (den !== 1n) lcm = (lcm / gcd(lcm, den)) * den;
    scale *= lcm;
    return entries.map(({ num, den }) => (num * lcm) / den);
  });
  return { rows, scale };
}

/** ⌈√x⌉ for x ≥ 0. */
function sqrtCeil(x: bigint): bigint {
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

/** ∏ ⌈‖v‖₂⌉ over the given vectors: an upper bound on |det| of any square matrix with these rows (Hadamard). */
function hadamard(vectors: readonly (readonly bigint[])[]): bigint {
  let bound = 1n;
  for (const v of vectors) {
    let s = 0n;
    for (const a of v) s += a * a;
    bound *= sqrtCeil(s);
    if (bound === 0n) return 0n;
  }
  return bound;
}

function transpose<T>(rows: readonly (readonly T[])[]): T[][] {
  const n = rows[0]?.length ?? 0;
  return Array.from({ length: n }, (_, j) => rows.map((row) => row[j] as T));
}

/** Incremental CRT (Garner): values known modulo M, extended by their residues modulo one more prime. */
class CrtVector {
  modulus = 1n;
  values: bigint[];
  constructor(size: number) {
    this.values = Array.from({ length: size }, () => 0n);
  }
  add(q: number, residues: readonly number[]): void {
    const R = wordArith(q);
    const inverse = R.inv(R.reduce(this.modulus));
    for (let i = 0; i < this.values.length; i++) {
      const x = this.values[i] as bigint;
      const t = R.mul(R.sub(residues[i] as number, R.reduce(x)), inverse);
      this.values[i] = x + this.modulus * BigInt(t);
    }
    this.modulus *= BigInt(q);
  }
  /** The values in (−M/2, M/2]. */
  symmetric(): bigint[] {
    const half = this.modulus / 2n;
    return this.values.map((x) => (x > half ? x - this.modulus : x));
  }
}

/** num/den in lowest terms, as text. */
function reduced(num: bigint, den: bigint): string {
  const g = gcd(num, den);
  const [n, d] = g === 0n ? [0n, 1n] : [num / g, den / g];
  return d === 1n ? n.toString() : `${n}/${d}`;
}

/** A long number text shortened for a message. */
function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 38)}…${text.slice(-38)} (${text.length} characters)` : text;
}

function bits(x: bigint): number {
  return x === 0n ? 0 : (x < 0n ? -x : x).toString(2).length;
}

// ---------------------------------------------------------------------------------------------
// Determinant.

function fieldName(matrix: MatrixPayload): string {
  return matrix.ring.kind === 'GF' ? `GF(${matrix.ring.characteristic})` : 'Q';
}

/** Check a stored determinant claim (it must parse as canonical). */
export function checkDeterminantClaim(raw: unknown, checkpoint: Checkpoint = () => undefined): RankDeterminantCheckResult {
  const claim: DeterminantClaim = DeterminantClaimSchema.parse(raw);
  const { matrix } = claim;
  const n = matrix.nrows;
  if (matrix.ncols !== n) return reject(RankDeterminantRejectionReason.SHAPE, `A is ${n}×${matrix.ncols}: the determinant is defined for square matrices only`, ['matrix']);
  if (matrix.ring.kind === 'GF') {
    const p = BigInt(matrix.ring.characteristic);
    const R = arithmeticOf(p);
    const det = R.lift(determinantMod(R, matrix.rows.map((row) => row.map((t) => R.reduce(BigInt(t)))), checkpoint));
    const claimed = BigInt(claim.determinant);
    const method = `Gaussian elimination over GF(${p}) in the UL order (columns from the last, pivots sought from the bottom row up), not the producer's order`;
    if (det !== claimed) return reject(RankDeterminantRejectionReason.DETERMINANT_MISMATCH, `det A = ${det} over GF(${p}), not ${claimed} (by ${method})`, ['determinant'], `det A = ${det}`);
    return { accepted: true, message: `det A = ${det} over GF(${p}), recomputed by ${method}`, method };
  }
  const { rows, scale } = integerScaled(matrix);
  const c = parseRational(claim.determinant);
  // det Ã = S · det A is an integer; the claim must make it one.
  if ((c.num * scale) % c.den !== 0n) {
    return reject(
      RankDeterminantRejectionReason.DETERMINANT_MISMATCH,
      `the claim times ${bits(scale) > 64 ? `the ${bits(scale)}-bit product S of the row denominators` : `S = ${scale}, the product of the row denominators,`} is not an integer, but det(S-scaled A) is one`,
      ['determinant'],
    );
  }
  const target = (c.num * scale) / c.den;
  const det = integerDeterminant(rows, checkpoint);
  const method = "fraction-free Gaussian elimination (Bareiss) of the row-scaled integer matrix, exact in big integers, not the producer's multimodular method";
  if (det !== target) {
    const actual = reduced(det, scale);
    return reject(RankDeterminantRejectionReason.DETERMINANT_MISMATCH, `det A = ${short(actual)}, not ${short(claim.determinant)} (recomputed by ${method})`, ['determinant'], `det A = ${short(actual)}`);
  }
  return { accepted: true, message: `det A = ${short(claim.determinant)} over Q, recomputed by ${method}`, method };
}

// ---------------------------------------------------------------------------------------------
// Rank.

interface RankCertificate {
  rank: number;
  /** How the bounds were proved. */
  method: string;
}

/**
 * The lower bound's minor (reduced mod the prime) is non-singular: its determinant, by the
 * UL-order elimination (not the one that found it), is non-zero. A zero would be a bug of this
 * module: an error, no verdict.
 */
function requireNonSingularMinor<T>(R: ModArith<T>, minor: T[][], checkpoint: Checkpoint): void {
  if (R.isZero(determinantMod(R, minor, checkpoint))) throw new Error('elimination named a singular minor');
}

/** The exact rank of an integer matrix, certified by a non-singular minor mod a prime and an exactly verified kernel. */
function certifiedRankOverQ(rows: bigint[][], checkpoint: Checkpoint): RankCertificate {
  // Kernel on the side with fewer columns: n − r vectors of A, or m − r of Aᵀ.
  const M = rows.length > (rows[0]?.length ?? 0) ? rows : transpose(rows);
  const side = M === rows ? 'right kernel of A' : 'left kernel of A (right kernel of Aᵀ)';
  const m = M.length;
  const n = M[0]?.length ?? 0;
  let tried = 0;
  // Ranks below this are known to be short of the true rank (a certificate at them failed).
  let lower = 0;
  const primes = wordPrimes();
  for (const q of primes) {
    tried++;
    checkpoint();
    const R = wordArith(q);
    const profile = rankProfileMod(R, M.map((row) => row.map((a) => R.reduce(a))), checkpoint);
    const r = profile.rank;
    if (r < lower) continue;
    requireNonSingularMinor(R, profile.rows.map((i) => profile.columns.map((j) => R.reduce((M[i] as bigint[])[j] as bigint))), checkpoint);
    const minor = `a non-singular ${r}×${r} minor modulo the prime ${q}, its determinant recomputed non-zero in the UL order (rank ≥ ${r})`;
    if (r === Math.min(m, n)) return { rank: r, method: `${minor}, which is full rank; ${tried} prime(s) tried` };
    const free = Array.from({ length: n }, (_, j) => j).filter((j) => !profile.columns.includes(j));
    const kernel = kernelByCrt(M, profile.rows, profile.columns, free, q, primes, checkpoint);
    const inKernel = (x: bigint[]): boolean =>
      M.every((row) => {
        checkpoint();
        return row.reduce((s, a, j) => s + a * (x[j] as bigint), 0n) === 0n;
      });
    if (kernel !== null && kernel.every(inKernel)) {
      return {
        rank: r,
        method: `${minor}, and ${free.length} independent integer vector(s) of the ${side}, reconstructed by CRT from the minor's system solved modulo word-size primes (Hadamard bound) and checked exactly (rank ≤ ${r}); ${tried} prime(s) tried for the minor`,
      };
    }
    // q was unlucky: the rank is above r. The next prime.
    lower = r + 1;
  }
  throw new Error('ran out of word-size primes certifying a rank');
}

/**
 * Integer kernel vectors of M: for each free column f, x_f = d = det M[I,J], x_J = −adj(M[I,J]) M[I,f];
 * by CRT modulo word primes (the first is `first`, then more from `primes`) until their product
 * exceeds twice the bound on the r×r minors of M[I,·]. Null when d turns out 0 (never, as d ≢ 0 mod `first`).
 */
function kernelByCrt(M: bigint[][], I: number[], J: number[], free: number[], first: number, primes: Iterator<number>, checkpoint: Checkpoint): bigint[][] | null {
  const r = I.length;
  const n = M[0]?.length ?? 0;
  const needed = 2n * hadamard(I.map((i) => M[i] as bigint[])) + 1n;
  // Values: d, then d·Y row-major (r × |free|).
  const crt = new CrtVector(1 + r * free.length);
  let q: number | undefined = first;
  while (crt.modulus <= needed) {
    if (q === undefined) {
      const next = primes.next();
      if (next.done === true) throw new Error('ran out of word-size primes reconstructing a kernel');
      q = next.value;
    }
    checkpoint();
    const R = wordArith(q);
    const B = I.map((i) => J.map((j) => R.reduce((M[i] as bigint[])[j] as bigint)));
    const C = I.map((i) => free.map((f) => R.reduce((M[i] as bigint[])[f] as bigint)));
    const solved = solveMod(R, B, C, checkpoint);
    if (solved !== null) crt.add(q, [solved.det, ...solved.Y.flatMap((row) => row.map((y) => R.mul(solved.det, y)))]);
    q = undefined;
  }
  const [d = 0n, ...dY] = crt.symmetric();
  if (d === 0n) return null;
  return free.map((f, k) => {
    const x = Array.from({ length: n }, () => 0n);
    x[f] = d;
    for (const [t, j] of J.entries()) x[j] = -(dY[t * free.length + k] as bigint);
    return x;
  });
}

/** The exact rank over GF(p): the minor from elimination, and the kernel from it checked by multiplying out. */
function certifiedRankOverGf(matrix: MatrixPayload, checkpoint: Checkpoint): RankCertificate {
  const p = BigInt(matrix.ring.kind === 'GF' ? matrix.ring.characteristic : '0');
  const R = arithmeticOf(p);
  const A = matrix.rows.map((row) => row.map((t) => R.reduce(BigInt(t))));
  const M = A.length > (A[0]?.length ?? 0) ? A : transpose(A);
  const n = M[0]?.length ?? 0;
  const profile = rankProfileMod(R, M.map((row) => [...row]), checkpoint);
  const r = profile.rank;
  requireNonSingularMinor(R, profile.rows.map((i) => profile.columns.map((j) => (M[i] as unknown[])[j])), checkpoint);
  const free = Array.from({ length: n }, (_, j) => j).filter((j) => !profile.columns.includes(j));
  const solved = solveMod(
    R,
    profile.rows.map((i) => profile.columns.map((j) => (M[i] as unknown[])[j])),
    profile.rows.map((i) => free.map((f) => (M[i] as unknown[])[f])),
    checkpoint,
  );
  if (solved === null) throw new Error('the minor found by elimination is singular');
  for (const [k, f] of free.entries()) {
    const x = Array.from({ length: n }, () => R.zero);
    x[f] = R.one;
    for (const [t, j] of profile.columns.entries()) x[j] = R.neg((solved.Y[t] as unknown[])[k]);
    for (const row of M) {
      checkpoint();
      let s = R.zero;
      for (let j = 0; j < n; j++) s = R.sub(s, R.mul(row[j], x[j]));
      if (!R.isZero(s)) throw new Error('a kernel vector built from the minor is not in the kernel');
    }
  }
  return { rank: r, method: `a non-singular ${r}×${r} minor found by elimination over GF(${p}), its determinant recomputed non-zero in the UL order (rank ≥ ${r}) and ${free.length} independent kernel vectors built from it, each checked by multiplying out (rank ≤ ${r})` };
}

/** Check a stored rank claim. */
export function checkRankClaim(raw: unknown, checkpoint: Checkpoint = () => undefined): RankDeterminantCheckResult {
  const claim: RankClaim = RankClaimSchema.parse(raw);
  const { matrix } = claim;
  const F = fieldName(matrix);
  const certificate = matrix.ring.kind === 'GF' ? certifiedRankOverGf(matrix, checkpoint) : certifiedRankOverQ(integerScaled(matrix).rows, checkpoint);
  const { rank, method } = certificate;
  if (claim.rank > rank) {
    return reject(RankDeterminantRejectionReason.RANK_TOO_HIGH, `rank A = ${rank} over ${F}, below the claimed ${claim.rank} (proved by ${method})`, ['rank'], `rank ${rank}`);
  }
  if (claim.rank < rank) {
    return reject(RankDeterminantRejectionReason.RANK_TOO_LOW, `rank A = ${rank} over ${F}, above the claimed ${claim.rank} (proved by ${method})`, ['rank'], `rank ${rank}`);
  }
  return { accepted: true, message: `rank A = ${rank} over ${F}, proved by ${method}`, method };
}
