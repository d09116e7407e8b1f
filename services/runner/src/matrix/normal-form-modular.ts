/**
 * The Hermite normal form of a square non-singular integer matrix A from congruences instead of an
 * elimination on d-size numbers (d = |det A|).
 *
 * Why it works. L, the row lattice of A, has index d in Z^n and contains d Z^n. For any integer
 * vectors z_1, …, z_r with A z_k ≡ 0 (mod d), every row of A satisfies x·z_k ≡ 0 (mod d), so L lies
 * in L′ = {x : x·z_k ≡ 0 (mod d) for all k}; if [Z^n : L′] = d too, L = L′. The Hermite form of
 * such a congruence lattice is read off with gcds over (Z/d)^r (see {@link hermiteOfCongruences}),
 * and its non-unit pivots sit on a few columns, so the Smith form is that of a small block. The
 * z_k = adj(A) r_k = det(A)·A⁻¹ r_k for small random r_k, and det A, come from A modulo word-size
 * primes (Gaussian elimination on doubles, exact below 2^52) and the Chinese remainder theorem up
 * to the Hadamard bound, and are checked exactly (A z_k = det·r_k) before use. When Z^n / L is
 * cyclic (Smith form 1, …, 1, d: about 85% of random integer matrices) one z_k already cuts out L
 * unless an unlucky r_k meets a small prime of d; the others need a few.
 *
 * This is in the spirit of Pernet and Stein's Hermite form of random integer matrices (determinant
 * and linear solves, both multimodular, instead of an elimination); whatever the congruences do
 * not certify keeps the elimination modulo d (normal-form-engine.ts).
 */
import { invModSmall } from '@jacobian/shared';
import type { Checkpoint } from './engine.js';
import { crtSymmetric, LimbMatrix, minorBounds, modP, wordPrime } from './modular.js';

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

/** g = gcd(a, b) with s a + t b = g (a, b ≥ 0). */
function bezout(a: bigint, b: bigint): { g: bigint; s: bigint; t: bigint } {
  let [r0, r1, s0, s1, t0, t1] = [a, b, 1n, 0n, 0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1, s0, s1, t0, t1] = [r1, r0 - q * r1, s1, s0 - q * s1, t1, t0 - q * t1];
  }
  return { g: r0, s: s0, t: t0 };
}

/**
 * det A mod p and z_k = det(A)·A⁻¹ r_k mod p for each right-hand side r_k (given mod p), by
 * Gaussian elimination of [A | r_1 … r_k] on doubles; null when A is singular modulo p.
 */
function solveModP(limbs: LimbMatrix, n: number, rhs: readonly (readonly number[])[], p: number, checkpoint: Checkpoint): { det: number; solutions: number[][] } | null {
  const k = rhs.length;
  const width = n + k;
  const inverse = 1 / p;
  const reduced = limbs.reduce(p);
  const M: Float64Array[] = Array.from({ length: n }, (_, i) => {
    const row = new Float64Array(width);
    row.set(reduced[i] as Float64Array);
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

/** A positive bound on |det A| and on every (n−1)-minor of a square A (Hadamard, {@link minorBounds}). */
function hadamardBound(A: readonly (readonly bigint[])[]): bigint {
  const bounds = minorBounds(A);
  return [bounds(A.length), bounds(A.length - 1), 1n].reduce((a, b) => (a > b ? a : b));
}

/** How the lattice of a square A turned out: its Hermite form (with the columns whose pivot exceeds 1), only d = |det A|, or apparently singular. */
export type SquareLattice =
  | { kind: 'hermite'; d: bigint; hnf: bigint[][]; nontrivial: number[] }
  | { kind: 'determinant'; d: bigint }
  | { kind: 'singular-modulo-primes' }
  | { kind: 'too-large' };

/**
 * The most residues (numbers) a multimodular computation here keeps at once, about 64 MiB: past
 * it (orders near 200 with entries of thousands of bits) the callers keep their elimination,
 * which the run's time budget stops, rather than risk the memory.
 */
const MAX_RESIDUES = 1 << 23;

/** About how many primes below 2^26 a product above `target` takes (each is above 2^25). */
const primesFor = (target: bigint): number => Math.ceil(target.toString(2).length / 25) + 1;

/** The right-hand sides r_k of one round: pseudo-random entries in [1, 2^10], fixed by the round so that every run is the same. */
function rightHandSides(n: number, count: number, round: number): bigint[][] {
  let state = (0x9e3779b9 + round * 0x632be5ab) >>> 0;
  const next = (): bigint => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x297a2d39) >>> 0;
    return BigInt((state >>> 12) % 1024) + 1n;
  };
  return Array.from({ length: count }, () => Array.from({ length: n }, next));
}

const RIGHT_HAND_SIDES = 4;
const ROUNDS = 3;
const RHS_BOUND = 1024n;

/**
 * det A and z_k = adj(A) r_k exactly, from A modulo word-size primes until their product passes
 * twice the bound (|det| ≤ B and |z_i| ≤ B·‖r_k‖₁, each cofactor being an (n−1)-minor ≤ B);
 * primes at which A is singular are skipped. Null when the first two primes both see A singular.
 */
function multimodularSolve(A: readonly (readonly bigint[])[], limbs: LimbMatrix, bound: bigint, R: readonly (readonly bigint[])[], checkpoint: Checkpoint): { det: bigint; Z: bigint[][] } | null {
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

/**
 * For a square A: d = |det A| and the Hermite form of its row lattice L from congruences
 * x·z_k ≡ 0 (mod d), z_k = adj(A) r_k (A z_k = det·r_k ≡ 0, so L lies in their common solution
 * set L′, and L = L′ exactly when [Z^n : L′] = d, which {@link hermiteOfCongruences} checks).
 * Roughly, at each prime p | d the z_k must reach as far as adj(A) does (modulo p, its column
 * space has dimension 1 when Z^n / L is cyclic, as for about 85% of random matrices, and a few
 * more otherwise), which a few random r_k do with high probability; each further round adds
 * {@link RIGHT_HAND_SIDES} more. Whatever happens, only a certified form is returned.
 * After {@link ROUNDS} rounds only d is returned. Two primes at which A is singular before any at
 * which it is not make the answer 'singular-modulo-primes' (A is then almost surely singular;
 * the caller decides exactly by other means); 'too-large' when the residues would pass
 * {@link MAX_RESIDUES}.
 */
export function squareLattice(A: readonly (readonly bigint[])[], checkpoint: Checkpoint = NO_CHECKPOINT): SquareLattice {
  const n = A.length;
  const bound = hadamardBound(A);
  if (primesFor(2n * bound * BigInt(n) * RHS_BOUND) * (1 + RIGHT_HAND_SIDES * n) > MAX_RESIDUES) return { kind: 'too-large' };
  const limbs = new LimbMatrix(A);
  const Z: bigint[][] = [];
  let d = 0n;
  for (let round = 0; round < ROUNDS; round++) {
    const solved = multimodularSolve(A, limbs, bound, rightHandSides(n, RIGHT_HAND_SIDES, round), checkpoint);
    if (solved === null) return { kind: 'singular-modulo-primes' };
    d = abs(solved.det);
    Z.push(...solved.Z);
    const form = hermiteOfCongruences(Z, d, checkpoint);
    if (form !== null) return { kind: 'hermite', d, ...form };
  }
  return { kind: 'determinant', d };
}

/**
 * The row-style Hermite normal form of L′ = {x ∈ Z^n : x·z_k ≡ 0 (mod d) for every k} (d ≥ 1),
 * with the columns whose pivot exceeds 1, when [Z^n : L′] = d; null when the index is smaller.
 *
 * Write v_i = (z_1[i], …, z_r[i]) ∈ (Z/d)^r and M_i = ⟨v_{i+1}, …, v_n⟩ + d Z^r. The pivot of
 * column i is p_i = [M_{i−1} : M_i], the order of v_i modulo M_i (so Π p_i = [Z^n : L′]); the
 * M_i are kept as triangular bases of r×r lattices, v_i entering by extended-gcd row operations.
 * Columns with p_i = 1 are unit columns of H, and M only grows at the others (the set S), so H
 * lives on S: each basis row of M carries its coefficients c with row ≡ Σ c_s v_s (mod d),
 * s ∈ S, and reducing p_i v_i over the basis of M_i writes −p_i v_i ≡ Σ a_s v_s, giving
 * row i = p_i e_i + Σ a_s e_s, then reduced by the rows of S below it into [0, p_s). Each row is
 * checked to satisfy the congruences; rows in L′ with pivots multiplying to its index are a basis.
 */
export function hermiteOfCongruences(Z: readonly (readonly bigint[])[], d: bigint, checkpoint: Checkpoint = NO_CHECKPOINT): { hnf: bigint[][]; nontrivial: number[] } | null {
  const r = Z.length;
  const n = (Z[0] as readonly bigint[]).length;
  const column = (i: number): bigint[] => Z.map((z) => mod(z[i] as bigint, d));
  // The basis of M: row c has zeros before column c and the pivot basis[c][c], a divisor of d (d Z^r ⊆ M throughout, so entries are kept mod d).
  let basis = Array.from({ length: r }, (_, c) => Array.from({ length: r }, (_, x) => (x === c ? d : 0n)));
  // coefficients[c][t]: the coefficient of v_{S[t]} in basis row c (mod d); missing entries are 0.
  let coefficients: bigint[][] = Array.from({ length: r }, () => []);
  const S: number[] = []; // columns with pivot > 1, in decreasing order
  const rowsOfS: bigint[][] = []; // rowsOfS[t][u]: the entry of the row of S[t] in column S[u], u ≤ t (u = t: the pivot)
  const H = Array.from({ length: n }, () => new Array<bigint>(n).fill(0n));
  let index = 1n;
  const pivotProduct = (B: readonly (readonly bigint[])[]): bigint => B.reduce((p, row, c) => p * (row[c] as bigint), 1n);
  for (let i = n - 1; i >= 0; i--) {
    checkpoint();
    const v = column(i);
    // M_{i−1} = M_i + Z v_i: insert v_i (coefficient vector e_t, t = |S|) into a copy of the basis.
    const t = S.length;
    const grown = basis.map((row) => [...row]);
    const grownCoefficients = coefficients.map((row) => [...row]);
    let w = [...v];
    let wc: bigint[] = [];
    wc[t] = 1n;
    for (let c = 0; c < r; c++) {
      const b = w[c] as bigint;
      if (b === 0n) continue;
      const top = grown[c] as bigint[];
      const a = top[c] as bigint;
      const { g, s, t: tt } = bezout(a, b);
      const [u, x] = [-b / g, a / g];
      const newTop = top.map((y, j) => (j < c ? 0n : mod(s * y + tt * (w[j] as bigint), d)));
      w = top.map((y, j) => (j <= c ? 0n : mod(u * y + x * (w[j] as bigint), d)));
      newTop[c] = g;
      grown[c] = newTop;
      const topC = grownCoefficients[c] as bigint[];
      const length = Math.max(topC.length, wc.length);
      const newTopC: bigint[] = [];
      const newWc: bigint[] = [];
      for (let k = 0; k < length; k++) {
        const y = topC[k] ?? 0n;
        const z = wc[k] ?? 0n;
        newTopC[k] = mod(s * y + tt * z, d);
        newWc[k] = mod(u * y + x * z, d);
      }
      grownCoefficients[c] = newTopC;
      wc = newWc;
    }
    const p = pivotProduct(basis) / pivotProduct(grown);
    // p v_i ∈ M_i: reduce it over the basis of M_i, q_c times row c; then −p v_i ≡ −Σ q_c (Σ_t coefficients[c][t] v_{S[t]}).
    const a = new Array<bigint>(t).fill(0n);
    let rest = v.map((y) => mod(p * y, d));
    for (let c = 0; c < r; c++) {
      const y = rest[c] as bigint;
      if (y === 0n) continue;
      const row = basis[c] as bigint[];
      const pivot = row[c] as bigint;
      if (y % pivot !== 0n) throw new Error('hermiteOfCongruences: p·v_i is not in M_i');
      const q = y / pivot;
      rest = rest.map((e, j) => (j < c ? e : mod(e - q * (row[j] as bigint), d)));
      (coefficients[c] as bigint[]).forEach((k, s) => {
        if (s < t) a[s] = (a[s] as bigint) - q * k;
      });
    }
    for (let s = 0; s < t; s++) a[s] = mod(a[s] as bigint, d);
    // Reduce into [0, p_s) by the rows of S, leftmost column (largest t) first.
    for (let s = t - 1; s >= 0; s--) {
      const below = rowsOfS[s] as bigint[];
      const q = floorDiv(a[s] as bigint, below[s] as bigint);
      if (q === 0n) continue;
      for (let u = 0; u <= s; u++) a[u] = (a[u] as bigint) - q * (below[u] as bigint);
    }
    for (let k = 0; k < r; k++) {
      let check = p * (v[k] as bigint);
      for (let s = 0; s < t; s++) check += (a[s] as bigint) * ((Z[k] as readonly bigint[])[S[s] as number] as bigint);
      if (check % d !== 0n) throw new Error('hermiteOfCongruences: a row left the lattice');
    }
    const row = H[i] as bigint[];
    row[i] = p;
    for (let s = 0; s < t; s++) row[S[s] as number] = a[s] as bigint;
    if (p > 1n) {
      S.push(i);
      rowsOfS.push([...a, p]);
      basis = grown;
      coefficients = grownCoefficients;
    }
    index *= p;
  }
  return index === d ? { hnf: H, nontrivial: [...S].reverse() } : null;
}

/**
 * U = H A⁻¹ for a square non-singular A and an H with H A⁻¹ integral (as when H is the Hermite form
 * of A, U then the unimodular transform with U A = H): row i of U solves Aᵀ u = h_i, modulo
 * word-size primes (Aᵀ and the rows of H as right-hand sides, divided by det A mod p) and by the
 * Chinese remainder theorem up to |u_ij| ≤ B·‖h_i‖₁ / |det A| (|(A⁻¹)_kj| ≤ B / |det A|, B the
 * Hadamard bound; |det A| taken as |det H|), then checked exactly: U A = H. Null when that check
 * fails (H A⁻¹ is not integral), A looks singular modulo the first primes, or the residues would
 * pass {@link MAX_RESIDUES}.
 */
export function integralLeftQuotient(A: readonly (readonly bigint[])[], H: readonly (readonly bigint[])[], checkpoint: Checkpoint = NO_CHECKPOINT): bigint[][] | null {
  const n = A.length;
  const transposed = Array.from({ length: n }, (_, j) => A.map((row) => row[j] as bigint));
  const limbs = new LimbMatrix(transposed);
  // H is mostly zeros (a Hermite form from congruences has few non-unit columns): reduce its non-zero entries only.
  const nonZero = H.map((row) => row.flatMap((h, j) => (h === 0n ? [] : [[j, h] as const])));
  let widest = 0n;
  for (const row of H) {
    const norm = row.reduce((s, h) => s + abs(h), 0n);
    if (norm > widest) widest = norm;
  }
  // |det A| = |det H| when H is a Hermite form of A (if not, the final check fails).
  const d = abs(H.reduce((p, row, i) => p * (row[i] as bigint), 1n));
  if (d === 0n) return null;
  const target = (2n * hadamardBound(A) * (widest === 0n ? 1n : widest)) / d + 2n;
  if (primesFor(target) * n * n > MAX_RESIDUES) return null;
  const primes: number[] = [];
  const residues: number[][] = [];
  let singular = 0;
  for (let product = 1n, i = 0; product <= target; i++) {
    const p = wordPrime(i);
    const P = BigInt(p);
    const rhs = nonZero.map((entries) => {
      const h = new Array<number>(n).fill(0);
      for (const [j, x] of entries) h[j] = Number(mod(x, P));
      return h;
    });
    const solved = solveModP(limbs, n, rhs, p, checkpoint);
    if (solved === null) {
      if (++singular === 2 && primes.length === 0) return null;
      continue;
    }
    const inverse = 1 / p;
    const detInverse = invModSmall(solved.det, p);
    primes.push(p);
    residues.push(solved.solutions.flatMap((u) => u.map((x) => modP(x * detInverse, p, inverse))));
    product *= P;
  }
  const values = crtSymmetric(primes, residues, checkpoint);
  const U = Array.from({ length: n }, (_, i) => values.slice(i * n, (i + 1) * n));
  for (let i = 0; i < n; i++) {
    checkpoint();
    const u = U[i] as bigint[];
    for (let j = 0; j < n; j++) {
      let s = 0n;
      for (let k = 0; k < n; k++) {
        const x = u[k] as bigint;
        if (x !== 0n) s += x * ((A[k] as readonly bigint[])[j] as bigint);
      }
      if (s !== (H[i] as readonly bigint[])[j]) return null;
    }
  }
  return U;
}

/** Indices of n rows of A (m×n) independent modulo p, in order, by greedy Gaussian elimination on doubles; fewer when A mod p has rank < n. */
function independentRowsModP(limbs: LimbMatrix, m: number, n: number, p: number, checkpoint: Checkpoint): number[] {
  const inverse = 1 / p;
  const echelon: Float64Array[] = []; // rows with their leading column, each scaled to lead with 1
  const leads: number[] = [];
  const chosen: number[] = [];
  const reduced = limbs.reduce(p);
  for (let i = 0; i < m && chosen.length < n; i++) {
    checkpoint();
    const row = reduced[i] as Float64Array;
    for (const [e, lead] of leads.entries()) {
      const b = row[lead] as number;
      if (b === 0) continue;
      const basis = echelon[e] as Float64Array;
      const minusB = p - b;
      for (let j = lead; j < n; j++) row[j] = modP((row[j] as number) + minusB * (basis[j] as number), p, inverse);
    }
    const lead = row.findIndex((x) => x !== 0);
    if (lead < 0) continue;
    const scale = invModSmall(row[lead] as number, p);
    for (let j = lead; j < n; j++) row[j] = modP((row[j] as number) * scale, p, inverse);
    // Keep the echelon rows sorted by leading column so that one pass reduces a new row.
    let at = leads.findIndex((l) => l > lead);
    if (at < 0) at = leads.length;
    leads.splice(at, 0, lead);
    echelon.splice(at, 0, row);
    chosen.push(i);
  }
  return chosen;
}

/**
 * The Hermite form (n rows) of a tall A (m > n) of full column rank n, with its columns whose pivot
 * exceeds 1: n rows independent modulo a prime give a square A₀ whose Hermite form H₀ comes from
 * congruences ({@link squareLattice}); D = |det A₀| and D Z^n ⊆ L(A₀) ⊆ L(A). Each other row
 * enters modulo D: reduced by the unit-pivot rows of H (each row e_c plus entries on the few
 * non-unit columns S), it lives on S, where extended-gcd row operations fold it into the rows of S
 * (pivots only shrink, so S never grows); at the end the entries above each pivot of S are reduced
 * into [0, pivot). Null (the caller keeps its elimination) when the rows are not found independent
 * modulo two primes or A₀ is not settled by congruences.
 */
export function tallHermite(A: readonly (readonly bigint[])[], checkpoint: Checkpoint = NO_CHECKPOINT): { hnf: bigint[][]; nontrivial: number[] } | null {
  const m = A.length;
  const n = (A[0] as readonly bigint[]).length;
  const limbs = new LimbMatrix(A);
  let rows = independentRowsModP(limbs, m, n, wordPrime(0), checkpoint);
  if (rows.length < n) rows = independentRowsModP(limbs, m, n, wordPrime(1), checkpoint);
  if (rows.length < n) return null;
  const square = squareLattice(rows.map((i) => A[i] as readonly bigint[]), checkpoint);
  if (square.kind !== 'hermite') return null;
  const D = square.d;
  const H = square.hnf.map((row) => [...row]);
  const S = square.nontrivial; // increasing
  const inS = new Set(S);
  const chosen = new Set(rows);
  for (let r = 0; r < m; r++) {
    if (chosen.has(r)) continue;
    checkpoint();
    const a = (A[r] as readonly bigint[]).map((x) => mod(x, D));
    // Clear the unit columns (increasing), which only moves weight onto later columns of S.
    for (let c = 0; c < n; c++) {
      const b = a[c] as bigint;
      if (b === 0n || inS.has(c)) continue;
      const unitRow = H[c] as bigint[];
      a[c] = 0n;
      for (const s of S) if (s > c && unitRow[s] !== 0n) a[s] = mod((a[s] as bigint) - b * (unitRow[s] as bigint), D);
    }
    // Fold the rest into the rows of S: (top, a) ← (σ top + τ a, (−a_s/g) top + (top_s/g) a) column by column.
    for (const s of S) {
      const b = a[s] as bigint;
      if (b === 0n) continue;
      const top = H[s] as bigint[];
      const { g, s: sigma, t: tau } = bezout(top[s] as bigint, b);
      const [u, v] = [-b / g, (top[s] as bigint) / g];
      for (const x of S) {
        if (x < s) continue;
        const y = top[x] as bigint;
        const z = a[x] as bigint;
        top[x] = x === s ? g : mod(sigma * y + tau * z, D);
        a[x] = x === s ? 0n : mod(u * y + v * z, D);
      }
    }
  }
  // Entries above each pivot of S into [0, pivot); a row of S has entries on S only.
  for (const s of S) {
    checkpoint();
    const pivotRow = H[s] as bigint[];
    const pivot = pivotRow[s] as bigint;
    for (let i = 0; i < s; i++) {
      const row = H[i] as bigint[];
      const q = floorDiv(row[s] as bigint, pivot);
      if (q === 0n) continue;
      for (const x of S) if (x >= s) row[x] = (row[x] as bigint) - q * (pivotRow[x] as bigint);
    }
  }
  return { hnf: H, nontrivial: S.filter((s) => (H[s] as bigint[])[s] !== 1n) };
}
