/**
 * Lattices on big integers: LLL reduction with a rational δ, exact, by the integral LLL of de
 * Weger (Cohen, A Course in Computational Algebraic Number Theory, Algorithm 2.6.7), which keeps
 * the Gram–Schmidt data as integers (the Gram determinants d_i and λ_{i,j} = d_{j+1} μ_{i,j})
 * instead of fractions; membership in a lattice given by its Hermite basis; and the index of a
 * sublattice with the structure of the quotient.
 *
 * Generators that are linearly dependent are reduced as a basis first: U₁ B = [H; 0] by the
 * Hermite normal form, then LLL on H, and the m − r relations (the rows of U₁ that give zero)
 * are LLL-reduced as well, and the basis rows of U reduced against them by Babai's nearest plane
 * (the Hermite transform alone can have entries of thousands of bits; 30 generators of 20 bits in
 * Z^10 end with U under 12 bits). The result is what MLLL gives: a reduced basis followed by zero
 * rows, with one unimodular U.
 */
import type { Checkpoint } from './engine.js';
import { hermiteNormalForm, smithNormalForm } from './normal-form-engine.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** Floor of a/b for b > 0. */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** The nearest integer to a/b for b > 0 (halves rounded up), so that |a − q b| ≤ b/2. */
function roundDiv(a: bigint, b: bigint): bigint {
  return floorDiv(2n * a + b, 2n * b);
}

function dot(u: readonly bigint[], v: readonly bigint[]): bigint {
  let s = 0n;
  for (let i = 0; i < u.length; i++) {
    const a = u[i] as bigint;
    if (a !== 0n) s += a * (v[i] as bigint);
  }
  return s;
}

/** x ← x − q·y. */
function subtractMultiple(x: bigint[], y: readonly bigint[], q: bigint): void {
  for (let j = 0; j < x.length; j++) {
    const v = y[j] as bigint;
    if (v !== 0n) x[j] = (x[j] as bigint) - q * v;
  }
}

function identity(n: number): bigint[][] {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1n : 0n)));
}

function multiply(A: readonly (readonly bigint[])[], B: readonly (readonly bigint[])[], width: number, checkpoint: Checkpoint): bigint[][] {
  return A.map((row) => {
    checkpoint();
    const out = Array.from({ length: width }, () => 0n);
    for (let k = 0; k < row.length; k++) {
      const a = row[k] as bigint;
      if (a === 0n) continue;
      const r = B[k] as bigint[];
      for (let j = 0; j < width; j++) out[j] = (out[j] as bigint) + a * (r[j] as bigint);
    }
    return out;
  });
}

/** A rational δ = num/den with 1/4 < δ ≤ 1. */
export interface Delta {
  num: bigint;
  den: bigint;
}

/** The result of LLL on linearly independent vectors. */
export interface LllBasis {
  /** The reduced basis, rows. */
  basis: bigint[][];
  /** U with U·(input) = basis, unimodular. */
  transform: bigint[][];
  /** d_1, …, d_r: d_i = det of the Gram matrix of the first i reduced vectors (d_r is the squared covolume). */
  gram: bigint[];
  /** λ_{i,j} = d_{j+1} μ_{i,j} of the reduced basis, for j < i. */
  lambda: bigint[][];
  swaps: number;
}

/**
 * The integral Gram–Schmidt step for row k (Cohen 2.6.7, step 2): λ_{k,j} = d_{j+1} μ_{k,j} for
 * j < k and d_{k+1}, from the rows before it, whose λ and d are known. The divisions are exact.
 */
function gramSchmidtRow(b: readonly (readonly bigint[])[], d: bigint[], lambda: bigint[][], k: number): void {
  const lk = lambda[k] as bigint[];
  for (let j = 0; j <= k; j++) {
    const lj = lambda[j] as bigint[];
    let u = dot(b[k] as bigint[], b[j] as bigint[]);
    for (let i = 0; i < j; i++) u = ((d[i + 1] as bigint) * u - (lk[i] as bigint) * (lj[i] as bigint)) / (d[i] as bigint);
    if (j < k) lk[j] = u;
    else d[k + 1] = u;
  }
}

/**
 * Size-reduce row k against row l < k when |μ_{k,l}| > 1/2: b_k ← b_k − q b_l with q the nearest
 * integer to μ_{k,l}, the same on the transform rows H, and λ updated (the d_i do not change).
 * Whether anything changed.
 */
function sizeReduce(b: bigint[][], H: bigint[][], d: readonly bigint[], lambda: bigint[][], k: number, l: number): boolean {
  const dl = d[l + 1] as bigint;
  const row = lambda[k] as bigint[];
  const lkl = row[l] as bigint;
  if (2n * abs(lkl) <= dl) return false;
  const q = roundDiv(lkl, dl);
  subtractMultiple(b[k] as bigint[], b[l] as bigint[], q);
  subtractMultiple(H[k] as bigint[], H[l] as bigint[], q);
  row[l] = lkl - q * dl;
  const other = lambda[l] as bigint[];
  for (let i = 0; i < l; i++) row[i] = (row[i] as bigint) - q * (other[i] as bigint);
  return true;
}

/** The Lovász condition at k ≥ 1 in integers: q·d_{k+1} d_{k−1} ≥ p·d_k² − q·λ_{k,k−1}², i.e. B_k ≥ (δ − μ²_{k,k−1}) B_{k−1}. */
function lovasz(d: readonly bigint[], lam: bigint, k: number, delta: Delta): boolean {
  const dk = d[k] as bigint;
  return delta.den * (d[k + 1] as bigint) * (d[k - 1] as bigint) >= delta.num * dk * dk - delta.den * lam * lam;
}

/** Thrown inside {@link lllIndependent} when the vectors turn out to be linearly dependent. */
class DependentVectors extends Error {
  constructor(readonly index: number) {
    super(`vector ${index} depends linearly on the ones before it`);
  }
}

/**
 * Integral LLL (Cohen 2.6.7) on linearly independent rows `B`, with δ = p/q. Throws
 * DependentVectors as soon as a Gram determinant is zero. The conditions reached: for all
 * j < i, 2|λ_{i,j}| ≤ d_{j+1} (|μ_{i,j}| ≤ 1/2), and q·d_{k+1} d_{k−1} ≥ p·d_k² − q·λ_{k,k−1}²
 * (Lovász: B_k ≥ (δ − μ²_{k,k−1}) B_{k−1}).
 */
function lllIndependent(input: readonly (readonly bigint[])[], delta: Delta, checkpoint: Checkpoint): LllBasis {
  const n = input.length;
  const b = input.map((row) => [...row]);
  const H = identity(n);
  // d[0] = 1; d[i + 1] = Gram determinant of b_0 … b_i. lambda[i][j] = d[j + 1] μ_{i,j} for j < i.
  const d: bigint[] = Array.from({ length: n + 1 }, () => 0n);
  d[0] = 1n;
  const lambda: bigint[][] = Array.from({ length: n }, () => Array.from({ length: n }, () => 0n));
  let swaps = 0;
  if (n === 0) return { basis: [], transform: [], gram: [], lambda: [], swaps };
  d[1] = dot(b[0] as bigint[], b[0] as bigint[]);
  if (d[1] === 0n) throw new DependentVectors(0);
  const L = (i: number): bigint[] => lambda[i] as bigint[];
  const D = (i: number): bigint => d[i] as bigint;

  const reduce = (k: number, l: number): void => {
    sizeReduce(b, H, d, lambda, k, l);
  };

  const swap = (k: number, kmax: number): void => {
    swaps++;
    [b[k], b[k - 1]] = [b[k - 1] as bigint[], b[k] as bigint[]];
    [H[k], H[k - 1]] = [H[k - 1] as bigint[], H[k] as bigint[]];
    const rk = L(k);
    const rk1 = L(k - 1);
    for (let j = 0; j < k - 1; j++) [rk[j], rk1[j]] = [rk1[j] as bigint, rk[j] as bigint];
    const lam = rk[k - 1] as bigint;
    const B = (D(k - 1) * D(k + 1) + lam * lam) / D(k);
    for (let i = k + 1; i <= kmax; i++) {
      const ri = L(i);
      const t = ri[k] as bigint;
      ri[k] = (D(k + 1) * (ri[k - 1] as bigint) - lam * t) / D(k);
      ri[k - 1] = (B * t + lam * (ri[k])) / D(k + 1);
    }
    d[k] = B;
  };

  let k = 1;
  let kmax = 0;
  while (k < n) {
    checkpoint();
    if (k > kmax) {
      kmax = k;
      gramSchmidtRow(b, d, lambda, k);
      if (D(k + 1) === 0n) throw new DependentVectors(k);
    }
    reduce(k, k - 1);
    const lam = L(k)[k - 1] as bigint;
    if (!lovasz(d, lam, k, delta)) {
      swap(k, kmax);
      k = Math.max(1, k - 1);
      continue;
    }
    for (let l = k - 2; l >= 0; l--) reduce(k, l);
    k++;
  }
  return { basis: b, transform: H, gram: d.slice(1), lambda, swaps };
}

/**
 * t minus a lattice vector of `reduced` chosen by Babai's nearest plane: for j from the last basis
 * vector down, subtract round(μ_{t,j}) b_j, so that |μ_{t,j}| ≤ 1/2 after. The λ_{t,j} =
 * d_{j+1} μ_{t,j} are determinants of integer Gram-type matrices, so the recursion stays integral.
 */
function nearestPlane(t: readonly bigint[], reduced: LllBasis, checkpoint: Checkpoint): bigint[] {
  const k = reduced.basis.length;
  if (k === 0) return [...t];
  const out = [...t];
  const d = [1n, ...reduced.gram];
  const lt: bigint[] = [];
  for (let j = 0; j < k; j++) {
    checkpoint();
    const lj = reduced.lambda[j] as bigint[];
    let u = dot(out, reduced.basis[j] as bigint[]);
    for (let i = 0; i < j; i++) u = ((d[i + 1] as bigint) * u - (lt[i] as bigint) * (lj[i] as bigint)) / (d[i] as bigint);
    lt.push(u);
  }
  for (let j = k - 1; j >= 0; j--) {
    const dj = d[j + 1] as bigint;
    const x = lt[j] as bigint;
    if (2n * abs(x) <= dj) continue;
    const q = roundDiv(x, dj);
    subtractMultiple(out, reduced.basis[j] as bigint[], q);
    const lj = reduced.lambda[j] as bigint[];
    for (let i = 0; i < j; i++) lt[i] = (lt[i] as bigint) - q * (lj[i] as bigint);
    lt[j] = x - q * dj;
  }
  return out;
}

/** An LLL-reduced basis of the lattice spanned by some generators, with the unimodular transform. */
export interface LllResult {
  /** m rows: the reduced basis (the first `rank` rows), then m − rank zero rows. */
  reduced: bigint[][];
  /** U (m×m, unimodular) with U·B = reduced; its last m − rank rows are relations among the generators (LLL-reduced among themselves). */
  transform: bigint[][];
  rank: number;
  /** d_1, …, d_rank of the reduced basis: Gram determinants of its first i vectors. */
  gram: bigint[];
  /** Whether the generators were linearly dependent (reduced through their Hermite basis). */
  dependent: boolean;
  swaps: number;
}

/**
 * LLL-reduce the lattice spanned by the rows of B (any m×n, any rank) with δ = num/den,
 * 1/4 < δ ≤ 1 (checked by the caller).
 */
export function lllReduce(B: readonly (readonly bigint[])[], delta: Delta, checkpoint: Checkpoint = NO_CHECKPOINT): LllResult {
  const m = B.length;
  const n = B[0]?.length ?? 0;
  if (m <= n) {
    try {
      const result = lllIndependent(B, delta, checkpoint);
      return { reduced: result.basis, transform: result.transform, rank: m, gram: result.gram, dependent: false, swaps: result.swaps };
    } catch (error) {
      if (!(error instanceof DependentVectors)) throw error;
    }
  }
  // Dependent generators: U₁ B = [H; 0], then LLL on the r rows of H and on the m − r relations.
  const hermite = hermiteNormalForm(B, { transforms: true, checkpoint });
  const r = hermite.rank;
  const U1 = hermite.transform as bigint[][];
  const basis = lllIndependent(hermite.hnf.slice(0, r), delta, checkpoint);
  const relations = lllIndependent(U1.slice(r), delta, checkpoint);
  // The basis rows of U may be changed by any relation: reduce them against the relation lattice (Babai's nearest plane), which keeps U B and det U.
  const top = multiply(basis.transform, U1.slice(0, r), m, checkpoint).map((row) => nearestPlane(row, relations, checkpoint));
  return {
    reduced: [...basis.basis, ...Array.from({ length: m - r }, () => Array.from({ length: n }, () => 0n))],
    transform: [...top, ...relations.basis],
    rank: r,
    gram: basis.gram,
    dependent: true,
    swaps: basis.swaps + relations.swaps,
  };
}

/** Another engine's LLL answer, rechecked: accepted as an {@link LllResult}, or the first row where δ's Lovász condition fails. */
export type AdoptedLll = ({ accepted: true; sizeReductions: number } & LllResult) | { accepted: false; row: number };

/**
 * Recheck another engine's LLL answer for the rows of B exactly, and complete it: `transform` (m×m)
 * must be unimodular (its Hermite form is the identity), `transform`·B must be `reduced` (its r
 * non-zero rows, independent) followed by m − r zero rows; then the basis is size-reduced exactly
 * (|μ_{i,j}| ≤ 1/2, for an engine that stops at a looser bound, such as fplll's η = 0.51: this
 * keeps the Gram–Schmidt vectors, hence the d_i), and the Lovász condition with δ is tested exactly.
 *
 * @throws Error naming what does not hold when the answer is not a basis of the lattice of B in
 *   that form (a wrong answer, not merely a less reduced one).
 */
export function adoptLllAnswer(
  B: readonly (readonly bigint[])[],
  transform: readonly (readonly bigint[])[],
  reduced: readonly (readonly bigint[])[],
  delta: Delta,
  checkpoint: Checkpoint = NO_CHECKPOINT,
): AdoptedLll {
  const m = B.length;
  const n = B[0]?.length ?? 0;
  const r = reduced.length;
  if (transform.length !== m || transform.some((row) => row.length !== m)) throw new Error(`the transform is not ${m}×${m}`);
  if (r > Math.min(m, n) || reduced.some((row) => row.length !== n)) throw new Error(`the reduced basis has ${r} rows of the wrong length`);
  const product = multiply(transform, B, n, checkpoint);
  for (let i = 0; i < m; i++) {
    const expected = i < r ? (reduced[i] as bigint[]) : null;
    const row = product[i] as bigint[];
    if (expected === null ? row.some((x) => x !== 0n) : row.some((x, j) => x !== expected[j])) throw new Error(`row ${i} of U B is not ${expected === null ? 'zero' : 'the reduced basis row'}`);
  }
  const form = hermiteNormalForm(transform.map((row) => [...row]), { checkpoint });
  if (form.rank !== m || form.hnf.some((row, i) => row.some((x, j) => x !== (i === j ? 1n : 0n)))) throw new Error('the transform is not unimodular');
  const b = reduced.map((row) => [...row]);
  const H = transform.slice(0, r).map((row) => [...row]);
  const d: bigint[] = Array.from({ length: r + 1 }, () => 0n);
  d[0] = 1n;
  const lambda: bigint[][] = Array.from({ length: r }, () => Array.from({ length: r }, () => 0n));
  let sizeReductions = 0;
  for (let k = 0; k < r; k++) {
    checkpoint();
    gramSchmidtRow(b, d, lambda, k);
    if (d[k + 1] === 0n) throw new Error(`basis row ${k} depends on the rows before it`);
    for (let l = k - 1; l >= 0; l--) if (sizeReduce(b, H, d, lambda, k, l)) sizeReductions++;
  }
  for (let k = 1; k < r; k++) if (!lovasz(d, (lambda[k] as bigint[])[k - 1] as bigint, k, delta)) return { accepted: false, row: k };
  return {
    accepted: true,
    sizeReductions,
    reduced: [...b, ...product.slice(r)],
    transform: [...H, ...transform.slice(r).map((row) => [...row])],
    rank: r,
    gram: d.slice(1),
    dependent: r < m,
    swaps: 0,
  };
}

/** The coordinates of v in the Hermite basis H (rows, pivots), or the first pivot column where v leaves the lattice. */
export function hermiteCoordinates(H: readonly (readonly bigint[])[], pivots: readonly number[], v: readonly bigint[]): { coordinates: bigint[] } | { outside: number } {
  const rest = [...v];
  const coordinates: bigint[] = [];
  let next = 0;
  for (const [i, p] of pivots.entries()) {
    // Entries left of this pivot must be cleared by the rows above.
    for (; next < p; next++) if (rest[next] !== 0n) return { outside: next };
    const row = H[i] as bigint[];
    const pivot = row[p] as bigint;
    const x = rest[p] as bigint;
    if (x % pivot !== 0n) return { outside: p };
    const c = x / pivot;
    coordinates.push(c);
    if (c !== 0n) subtractMultiple(rest, row, c);
    next = p + 1;
  }
  for (; next < rest.length; next++) if (rest[next] !== 0n) return { outside: next };
  return { coordinates };
}

/** The Hermite basis of the lattice spanned by rows: its non-zero HNF rows and their pivots. */
export function latticeBasis(A: readonly (readonly bigint[])[], checkpoint: Checkpoint = NO_CHECKPOINT): { basis: bigint[][]; pivots: number[]; rank: number } {
  const form = hermiteNormalForm(A, { checkpoint });
  return { basis: form.hnf.slice(0, form.rank), pivots: form.pivots, rank: form.rank };
}

/** The index [L : L′] and the structure of L / L′, or the first generator of L′ outside L. */
export type SublatticeIndex =
  | { contained: false; generator: number; column: number }
  | {
      contained: true;
      rank: number;
      sublatticeRank: number;
      /** L's Hermite basis. */
      basis: bigint[][];
      /** The invariant factors of L / L′ above 1 (its torsion part). */
      torsion: bigint[];
      /** Π of the invariant factors when the ranks agree; null when the index is infinite. */
      index: bigint | null;
    };

/**
 * [L : L′] for L spanned by the rows of A and L′ by the rows of S (same number of columns): each
 * generator of L′ is written in L's Hermite basis (or found outside L); the coordinates C of a
 * basis of L′ give L / L′ ≅ Z^r / (row lattice of C), whose Smith form gives the structure, and
 * the index |det C| when rank L′ = rank L.
 */
export function sublatticeIndex(A: readonly (readonly bigint[])[], S: readonly (readonly bigint[])[], checkpoint: Checkpoint = NO_CHECKPOINT): SublatticeIndex {
  const L = latticeBasis(A, checkpoint);
  const coordinates: bigint[][] = [];
  for (const [i, v] of S.entries()) {
    checkpoint();
    const c = hermiteCoordinates(L.basis, L.pivots, v);
    if ('outside' in c) return { contained: false, generator: i, column: c.outside };
    coordinates.push(c.coordinates);
  }
  if (L.rank === 0) return { contained: true, rank: 0, sublatticeRank: 0, basis: [], torsion: [], index: 1n };
  const smith = smithNormalForm(coordinates, { checkpoint });
  const factors = smith.diagonal.slice(0, smith.rank);
  const torsion = factors.filter((x) => x !== 1n);
  const index = smith.rank === L.rank ? factors.reduce((p, x) => p * x, 1n) : null;
  return { contained: true, rank: L.rank, sublatticeRank: smith.rank, basis: L.basis, torsion, index };
}
