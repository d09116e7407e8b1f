/**
 * The Hermite and Smith normal forms of a square non-singular integer matrix A whose row lattice L
 * has a cyclic quotient Z^n / L ≅ Z/d (d = |det A|; Smith form 1, …, 1, d: about 85% of random
 * integer matrices), from one integer vector z instead of an elimination on d-size numbers.
 *
 * Why it works. If A z ≡ 0 (mod d) and gcd(z_1, …, z_n, d) = 1, the map φ(x) = x·z mod d from
 * Z^n onto Z/d vanishes on the rows of A, so L ⊆ ker φ; both have index d in Z^n (φ is onto), so
 * L = ker φ = {x : x·z ≡ 0 (mod d)}, a lattice given by one congruence, whose Hermite form is
 * written down with gcds (see {@link hermiteOfCongruence}); and Z^n / L ≅ Z/d is cyclic, so the
 * Smith form is 1, …, 1, d. The vector z = adj(A) r = d·A⁻¹ r for a few small r (any integer
 * combination of such vectors satisfies A z ≡ 0) and det A come from A modulo word-size primes
 * (Gaussian elimination on doubles, exact below 2^52) and the Chinese remainder theorem up to the
 * Hadamard bound, and are checked exactly (A z = det·r) before use.
 *
 * This is in the spirit of Pernet and Stein's Hermite form of random integer matrices (determinant
 * and one linear solve, both multimodular, instead of an elimination), restricted to the cyclic
 * case; the other matrices keep the elimination modulo d (normal-form-engine.ts).
 */
import { invModSmall } from '@jacobian/shared';
import type { Checkpoint } from './engine.js';
import { ceilSqrt, crtSymmetric, wordPrime } from './modular-characteristic.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

const abs = (x: bigint): bigint => (x < 0n ? -x : x);
const mod = (x: bigint, R: bigint): bigint => {
  const r = x % R;
  return r < 0n ? r + R : r;
};
const floorDiv = (a: bigint, p: bigint): bigint => {
  const q = a / p;
  return a % p !== 0n && (a < 0n) !== (p < 0n) ? q - 1n : q;
};

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [abs(a), abs(b)];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** g = gcd(a, b) with s a + t b = g (a, b ≥ 0). */
function bezout(a: bigint, b: bigint): { g: bigint; s: bigint; t: bigint } {
  let [r0, r1, s0, s1, t0, t1] = [a, b, 1n, 0n, 0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1, s0, s1, t0, t1] = [r1, r0 - q * r1, s1, s0 - q * s1, t1, t0 - q * t1];
  }
  return { g: r0, s: s0, t: t0 };
}

/** x mod p for an integer 0 ≤ x < 2^52, p < 2^26 and inverse = 1/p (as in modular-characteristic.ts). */
function modP(x: number, p: number, inverse: number): number {
  const r = x - Math.floor(x * inverse) * p;
  return r < 0 ? r + p : r >= p ? r - p : r;
}

const LIMB_BITS = 26n;
const LIMB = 2 ** 26;

/** The entries of a matrix as base-2^26 digits (most significant first) and signs, reduced modulo each prime by Horner on numbers. */
class Limbs {
  private readonly width: number;
  private readonly digits: Float64Array;
  private readonly negative: Uint8Array;

  constructor(private readonly A: readonly (readonly bigint[])[]) {
    let widest = 0n;
    for (const row of A) for (const a of row) if (abs(a) > widest) widest = abs(a);
    let width = 1;
    while (widest >> (LIMB_BITS * BigInt(width)) > 0n) width++;
    this.width = width;
    const count = A.length * (A[0]?.length ?? 0);
    this.digits = new Float64Array(count * width);
    this.negative = new Uint8Array(count);
    let at = 0;
    for (const row of A) {
      for (const a of row) {
        this.negative[at] = a < 0n ? 1 : 0;
        let magnitude = abs(a);
        for (let l = width - 1; l >= 0; l--) {
          this.digits[at * width + l] = Number(magnitude & ((1n << LIMB_BITS) - 1n));
          magnitude >>= LIMB_BITS;
        }
        at++;
      }
    }
  }

  /** Row i of A modulo p in the first n places of a row of length `length`. */
  row(i: number, p: number, length: number): Float64Array {
    const { width, digits, negative } = this;
    const n = (this.A[i] as readonly bigint[]).length;
    const inverse = 1 / p;
    const out = new Float64Array(length);
    for (let j = 0; j < n; j++) {
      const at = i * n + j;
      let r = 0;
      for (let l = 0; l < width; l++) r = modP(r * LIMB + (digits[at * width + l] as number), p, inverse);
      out[j] = negative[at] === 1 && r !== 0 ? p - r : r;
    }
    return out;
  }
}

/**
 * det A mod p and z_k = det(A)·A⁻¹ r_k mod p for each right-hand side r_k (given mod p), by
 * Gaussian elimination of [A | r_1 … r_k] on doubles; null when A is singular modulo p.
 */
function solveModP(limbs: Limbs, n: number, rhs: readonly (readonly number[])[], p: number, checkpoint: Checkpoint): { det: number; solutions: number[][] } | null {
  const k = rhs.length;
  const width = n + k;
  const inverse = 1 / p;
  const M = Array.from({ length: n }, (_, i) => {
    const row = limbs.row(i, p, width);
    for (let c = 0; c < k; c++) row[n + c] = (rhs[c] as readonly number[])[i] as number;
    return row;
  });
  let det = 1;
  const pivotInverses = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    checkpoint();
    let pivot = c;
    while (pivot < n && (M[pivot] as Float64Array)[c] === 0) pivot++;
    if (pivot === n) return null;
    if (pivot !== c) {
      [M[pivot], M[c]] = [M[c] as Float64Array, M[pivot] as Float64Array];
      det = det === 0 ? 0 : p - det;
    }
    const top = M[c] as Float64Array;
    const a = top[c] as number;
    det = modP(det * a, p, inverse);
    const aInverse = invModSmall(a, p);
    pivotInverses[c] = aInverse;
    for (let i = c + 1; i < n; i++) {
      const row = M[i] as Float64Array;
      const b = row[c] as number;
      if (b === 0) continue;
      const minusF = p - modP(b * aInverse, p, inverse);
      for (let j = c + 1; j < width; j++) row[j] = modP((row[j] as number) + minusF * (top[j] as number), p, inverse);
    }
  }
  // Back substitution: x_i = (b_i − Σ_{j>i} u_ij x_j) / u_ii, then z = det·x.
  const solutions = Array.from({ length: k }, (_, c) => {
    const x = new Array<number>(n).fill(0);
    for (let i = n - 1; i >= 0; i--) {
      const row = M[i] as Float64Array;
      let s = row[n + c] as number;
      for (let j = i + 1; j < n; j++) s = modP(s + (p - (row[j] as number)) * (x[j] as number), p, inverse);
      x[i] = modP(s * (pivotInverses[i] as number), p, inverse);
    }
    return x.map((v) => modP(v * det, p, inverse));
  });
  return { det, solutions };
}

/** Π_i max(1, ⌈‖row_i‖⌉), and the same by columns, the smaller: it bounds |det A| and every (n−1)-minor (Hadamard). */
function hadamardBound(A: readonly (readonly bigint[])[]): bigint {
  const n = A.length;
  let byRows = 1n;
  let byColumns = 1n;
  for (let i = 0; i < n; i++) {
    let row = 0n;
    let column = 0n;
    for (let j = 0; j < n; j++) {
      const a = (A[i] as bigint[])[j] as bigint;
      const b = (A[j] as bigint[])[i] as bigint;
      row += a * a;
      column += b * b;
    }
    byRows *= row === 0n ? 1n : ceilSqrt(row);
    byColumns *= column === 0n ? 1n : ceilSqrt(column);
  }
  return byRows < byColumns ? byRows : byColumns;
}

/** How the lattice of a square A turned out: cyclic (with its certificate z), not shown cyclic (with d), or apparently singular. */
export type CyclicLattice =
  | { kind: 'cyclic'; d: bigint; z: bigint[] }
  | { kind: 'not-cyclic'; d: bigint }
  | { kind: 'singular-modulo-primes' };

/** The right-hand sides r_k of one round: pseudo-random entries in [1, 2^10], fixed by the round so that every run is the same. */
function rightHandSides(n: number, count: number, round: number): bigint[][] {
  let state = (0x9e3779b9 + round * 0x632be5ab) >>> 0;
  const next = (): bigint => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x297a2d39) >>> 0;
    return BigInt((state >>> 12) % 1024) + 1n;
  };
  return Array.from({ length: count }, () => Array.from({ length: n }, next));
}

const RIGHT_HAND_SIDES = 3;
const ROUNDS = 3;
const RHS_BOUND = 1024n;

/**
 * det A and z_k = adj(A) r_k exactly, from A modulo word-size primes until their product passes
 * twice the bound (|det| ≤ B and |z_i| ≤ B·‖r_k‖₁, each cofactor being an (n−1)-minor ≤ B);
 * primes at which A is singular are skipped. Null when the first two primes both see A singular.
 */
function multimodularSolve(A: readonly (readonly bigint[])[], limbs: Limbs, bound: bigint, R: readonly (readonly bigint[])[], checkpoint: Checkpoint): { det: bigint; Z: bigint[][] } | null {
  const n = A.length;
  const target = 2n * bound * BigInt(n) * RHS_BOUND;
  const primes: number[] = [];
  const residues: number[][] = [];
  let singular = 0;
  for (let product = 1n, i = 0; product <= target; i++) {
    const p = wordPrime(i);
    const P = BigInt(p);
    const solved = solveModP(limbs, n, R.map((r) => r.map((x) => Number(x % P))), p, checkpoint);
    if (solved === null) {
      if (++singular === 2 && primes.length === 0) return null;
      continue;
    }
    primes.push(p);
    residues.push([solved.det, ...solved.solutions.flat()]);
    product *= P;
  }
  const values = crtSymmetric(primes, residues, checkpoint);
  const det = values[0] as bigint;
  const Z = R.map((_, k) => values.slice(1 + k * n, 1 + (k + 1) * n));
  // The exact check A z_k = det·r_k: with det right (CRT past the Hadamard bound), it proves z_k = adj(A) r_k.
  for (const [k, z] of Z.entries()) {
    for (let i = 0; i < n; i++) {
      checkpoint();
      const row = A[i] as readonly bigint[];
      let s = 0n;
      for (let j = 0; j < n; j++) s += (row[j] as bigint) * (z[j] as bigint);
      if (s !== det * ((R[k] as bigint[])[i] as bigint)) throw new Error('multimodular solve failed its exact check A z = det·r');
    }
  }
  return { det, Z };
}

/** The rank of A modulo a prime p < 2^26, by Gaussian elimination on doubles. */
function rankModP(limbs: Limbs, n: number, p: number): number {
  const inverse = 1 / p;
  const M = Array.from({ length: n }, (_, i) => limbs.row(i, p, n));
  let rank = 0;
  for (let c = 0; c < n && rank < n; c++) {
    let pivot = rank;
    while (pivot < n && (M[pivot] as Float64Array)[c] === 0) pivot++;
    if (pivot === n) continue;
    [M[pivot], M[rank]] = [M[rank] as Float64Array, M[pivot] as Float64Array];
    const top = M[rank] as Float64Array;
    const aInverse = invModSmall(top[c] as number, p);
    for (let i = rank + 1; i < n; i++) {
      const row = M[i] as Float64Array;
      const b = row[c] as number;
      if (b === 0) continue;
      const minusF = p - modP(b * aInverse, p, inverse);
      for (let j = c + 1; j < n; j++) row[j] = modP((row[j] as number) + minusF * (top[j] as number), p, inverse);
    }
    rank++;
  }
  return rank;
}

/** Whether some prime q < 2^10 dividing g has rank(A mod q) ≤ n − 2: then q divides every (n−1)-minor, d_{n−1} ≠ 1 and Z^n / L is not cyclic. */
function visiblyNotCyclic(limbs: Limbs, n: number, g: bigint): boolean {
  for (let q = 2; q < 1024; q++) {
    if (g % BigInt(q) !== 0n || !isSmallPrime(q)) continue;
    if (rankModP(limbs, n, q) <= n - 2) return true;
  }
  return false;
}

function isSmallPrime(q: number): boolean {
  for (let f = 2; f * f <= q; f++) if (q % f === 0) return false;
  return q > 1;
}

/**
 * For a square A: d = |det A| and, when one is found, z with A z ≡ 0 (mod d) and
 * gcd(z, d) = 1 (so L = {x : x·z ≡ 0 mod d}, see the file comment). Every integer combination of
 * the z_k = adj(A) r_k satisfies A z ≡ 0; when Z^n / L is cyclic, adj(A) ≡ u vᵀ has rank 1
 * modulo each prime p | d and z_k ≢ 0 (mod p) unless v·r_k ≡ 0, so a combination with
 * gcd(z, d) = 1 turns up unless v·r_k ≡ 0 for every r_k tried (chance about 2^−9 for p = 2 after
 * {@link ROUNDS} rounds). Rounds stop early when a small prime shows Z^n / L not cyclic. Two
 * primes at which A is singular before any at which it is not make the answer
 * 'singular-modulo-primes' (A is then almost surely singular; the caller decides exactly).
 */
export function cyclicLattice(A: readonly (readonly bigint[])[], checkpoint: Checkpoint = NO_CHECKPOINT): CyclicLattice {
  const n = A.length;
  const limbs = new Limbs(A);
  const bound = hadamardBound(A);
  let d = 0n;
  let z: bigint[] = [];
  let g = 0n;
  const contentWith = (v: readonly bigint[]): bigint => {
    let h = d;
    for (const x of v) {
      if (h === 1n) break;
      h = gcd(x % h, h);
    }
    return h;
  };
  for (let round = 0; round < ROUNDS; round++) {
    const solved = multimodularSolve(A, limbs, bound, rightHandSides(n, RIGHT_HAND_SIDES, round), checkpoint);
    if (solved === null) return { kind: 'singular-modulo-primes' };
    let others = solved.Z;
    if (round === 0) {
      d = abs(solved.det);
      z = solved.Z[0] as bigint[];
      g = contentWith(z);
      others = solved.Z.slice(1);
    }
    for (const other of others) {
      for (let t = 1n; t <= 16n && g !== 1n; t++) {
        checkpoint();
        const candidate = z.map((x, j) => x + t * (other[j] as bigint));
        const h = contentWith(candidate);
        if (h < g && g % h === 0n) [z, g] = [candidate, h];
      }
    }
    if (g === 1n) return { kind: 'cyclic', d, z: z.map((x) => mod(x, d)) };
    if (round === 0 && visiblyNotCyclic(limbs, n, g)) break;
  }
  return { kind: 'not-cyclic', d };
}

/**
 * The row-style Hermite normal form of L = {x ∈ Z^n : x·z ≡ 0 (mod d)} for d ≥ 1 and
 * gcd(z_1, …, z_n, d) = 1 (so [Z^n : L] = d).
 *
 * With g_i = gcd(z_{i+1}, …, z_n, d) (g_n = d), the pivot of column i is p_i = g_i / gcd(z_i, g_i):
 * the least p > 0 for which p z_i lies in the subgroup of Z/d generated by the later z_j. Columns
 * with p_i = 1 are unit columns of H, so H lives on the few columns S with p_i > 1. A column j ∉ S
 * has g_j | z_j, so the subgroup for i is generated by the z_s, s ∈ S, s > i, and d alone; a Bézout
 * chain over S writes its generator g_i ≡ Σ c_s z_s, and row i is p_i e_i − (p_i z_i / g_i) Σ c_s e_s,
 * reduced by the rows of S below it into [0, p_s). Each row is checked to lie in L and the product
 * of the pivots to be d, which makes the rows a basis of L in Hermite form.
 */
export function hermiteOfCongruence(zIn: readonly bigint[], d: bigint, checkpoint: Checkpoint = NO_CHECKPOINT): bigint[][] {
  const n = zIn.length;
  const z = zIn.map((x) => mod(x, d));
  const g = new Array<bigint>(n);
  g[n - 1] = d;
  for (let i = n - 2; i >= 0; i--) {
    const after = g[i + 1] as bigint;
    g[i] = gcd((z[i + 1] as bigint) % after, after);
  }
  const pivots = z.map((x, i) => (g[i] as bigint) / gcd(x % (g[i] as bigint), g[i] as bigint));
  const S = pivots.flatMap((p, i) => (p > 1n ? [i] : []));
  const k = S.length;
  // generator[l] = gcd(z_{S[l]}, …, z_{S[k−1]}, d) ≡ Σ_{m ≥ l} chain[l][m − l] z_{S[m]} (mod d); generator[k] = d ≡ 0.
  const generator = new Array<bigint>(k + 1);
  const chain: bigint[][] = new Array<bigint[]>(k + 1);
  generator[k] = d;
  chain[k] = [];
  for (let l = k - 1; l >= 0; l--) {
    checkpoint();
    const { g: h, s, t } = bezout(z[S[l] as number] as bigint, generator[l + 1] as bigint);
    generator[l] = h;
    chain[l] = [mod(s, d), ...(chain[l + 1] as bigint[]).map((c) => mod(t * c, d))];
  }
  // rows[l]: the entries of the finished row of S[l] on the columns S[l], …, S[k−1].
  const rows: bigint[][] = new Array<bigint[]>(k);
  const H = Array.from({ length: n }, () => new Array<bigint>(n).fill(0n));
  let next = k; // the first l with S[l] > i
  let product = 1n;
  for (let i = n - 1; i >= 0; i--) {
    checkpoint();
    const inS = next > 0 && S[next - 1] === i;
    const first = next;
    const p = pivots[i] as bigint;
    const w = p * (z[i] as bigint);
    const generatorAfter = generator[first] as bigint;
    if (w % generatorAfter !== 0n) throw new Error('hermiteOfCongruence: the pivot does not reach the later subgroup');
    const e = w / generatorAfter;
    // Entries on the columns S[first], …, S[k − 1].
    const a = (chain[first] as bigint[]).map((c) => mod(-e * c, d));
    for (let m = first; m < k; m++) {
      const q = floorDiv(a[m - first] as bigint, pivots[S[m] as number] as bigint);
      if (q === 0n) continue;
      const below = rows[m] as bigint[];
      for (let x = m; x < k; x++) a[x - first] = (a[x - first] as bigint) - q * (below[x - m] as bigint);
    }
    let check = w;
    for (let m = first; m < k; m++) check += (a[m - first] as bigint) * (z[S[m] as number] as bigint);
    if (check % d !== 0n) throw new Error('hermiteOfCongruence: a row left the lattice');
    const row = H[i] as bigint[];
    row[i] = p;
    for (let m = first; m < k; m++) row[S[m] as number] = a[m - first] as bigint;
    if (inS) {
      rows[next - 1] = [p, ...a];
      next--;
    }
    product *= p;
  }
  if (product !== d) throw new Error('hermiteOfCongruence: the pivots do not multiply to d');
  return H;
}
