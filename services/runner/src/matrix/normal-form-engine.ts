/**
 * Integer normal forms on big integers: the Hermite normal form (row style, U A = H) and the
 * Smith normal form (U A V = D), with the unimodular transforms when asked.
 *
 * Both work by unimodular 2×2 operations built from the extended gcd: for entries a (the pivot)
 * and b (to clear), with s a + t b = g and Bézout coefficients of least size, the rows (or
 * columns) x, y become s x + t y and (−b/g) x + (a/g) y — determinant s·a/g + t·b/g = 1. When a
 * divides b a single subtraction does. Entry growth is kept in check by reducing, as soon as each
 * Hermite pivot is placed, the entries above it into [0, pivot) (so rows already done stay
 * bounded by their pivots, as in Kannan–Bachem), and in the Smith form by always choosing the
 * entry of least absolute value as the next pivot. Every operation is exact; a checkpoint is
 * polled once per row or column operation so that a run past its budget stops.
 */
import { fractionFreeEliminate, type Checkpoint } from './engine.js';
import { integralLeftQuotient, squareLattice, tallHermite } from './normal-form-modular.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** Floor division (the quotient rounded towards −∞), so that a − q·p lies in [0, p) for p > 0. */
function floorDiv(a: bigint, p: bigint): bigint {
  const q = a / p;
  return (a % p !== 0n && (a < 0n) !== (p < 0n)) ? q - 1n : q;
}

/** g = gcd(a, b) ≥ 0 with s a + t b = g, by the extended Euclidean algorithm (|s| ≤ |b/g|, |t| ≤ |a/g|). */
export function extendedGcd(a: bigint, b: bigint): { g: bigint; s: bigint; t: bigint } {
  let [r0, r1] = [a, b];
  let [s0, s1] = [1n, 0n];
  let [t0, t1] = [0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return r0 < 0n ? { g: -r0, s: -s0, t: -t0 } : { g: r0, s: s0, t: t0 };
}

/** The identity of order n. */
export function identity(n: number): bigint[][] {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1n : 0n)));
}

/** x ← x − q·y on entries from `from` on (rows as arrays). */
function subtractMultiple(x: bigint[], y: readonly bigint[], q: bigint, from = 0): void {
  if (q === 0n) return;
  for (let j = from; j < x.length; j++) {
    const v = y[j] as bigint;
    if (v !== 0n) x[j] = (x[j] as bigint) - q * v;
  }
}

/** (x, y) ← (s x + t y, u x + v y) on entries from `from` on. */
function combine(x: bigint[], y: bigint[], s: bigint, t: bigint, u: bigint, v: bigint, from = 0): void {
  for (let j = from; j < x.length; j++) {
    const a = x[j] as bigint;
    const b = y[j] as bigint;
    if (a === 0n && b === 0n) continue;
    x[j] = s * a + t * b;
    y[j] = u * a + v * b;
  }
}

/** Column operations on a matrix (rows as arrays): the same as {@link subtractMultiple} and {@link combine} on columns. */
function subtractColumnMultiple(M: bigint[][], x: number, y: number, q: bigint): void {
  if (q === 0n) return;
  for (const row of M) {
    const v = row[y] as bigint;
    if (v !== 0n) row[x] = (row[x] as bigint) - q * v;
  }
}

function combineColumns(M: bigint[][], x: number, y: number, s: bigint, t: bigint, u: bigint, v: bigint): void {
  for (const row of M) {
    const a = row[x] as bigint;
    const b = row[y] as bigint;
    if (a === 0n && b === 0n) continue;
    row[x] = s * a + t * b;
    row[y] = u * a + v * b;
  }
}

function swapColumns(M: bigint[][], x: number, y: number): void {
  if (x === y) return;
  for (const row of M) [row[x], row[y]] = [row[y] as bigint, row[x] as bigint];
}

/** The Hermite normal form H of A with the unimodular U (U A = H) when asked. */
export interface HermiteForm {
  hnf: bigint[][];
  rank: number;
  /** The pivot column of each of the first `rank` rows, increasing. */
  pivots: number[];
  transform: bigint[][] | null;
}

const mod = (x: bigint, R: bigint): bigint => {
  const r = x % R;
  return r < 0n ? r + R : r;
};

/**
 * The Hermite normal form of a matrix of full column rank n whose row lattice L contains D·Z^n
 * (D ≠ 0, e.g. the determinant of n independent rows), by working modulo D (Domich–Kannan–Trotter;
 * the row-style form of Cohen's Algorithm 2.4.8): every intermediate entry stays below D, and
 * each finished row is a true lattice vector. The first n rows of the result are H; the rest zero.
 */
export function modularHermite(A: readonly (readonly bigint[])[], D: bigint, checkpoint: Checkpoint = NO_CHECKPOINT): bigint[][] {
  const m = A.length;
  const n = A[0]?.length ?? 0;
  let R = abs(D);
  const B = A.map((row) => row.map((x) => mod(x, R)));
  const W: bigint[][] = [];
  for (let c = 0; c < n; c++) {
    const k = B[c] as bigint[];
    if (k[c] === 0n) k[c] = R;
    const unit = extendedGcd(k[c] as bigint, R);
    if (unit.g === 1n) {
      // A unit pivot modulo R: scaling row c by its inverse keeps the lattice spanned with R Z^(n−c)
      // (k = v·(u k) + (1 − u v) k, the last term in R Z^n), and then one subtraction per row clears column c.
      for (let x = c; x < n; x++) k[x] = mod(unit.s * (k[x] as bigint), R);
      for (let j = c + 1; j < m; j++) {
        const row = B[j] as bigint[];
        const b = row[c] as bigint;
        if (b === 0n) continue;
        checkpoint();
        for (let x = c; x < n; x++) row[x] = mod((row[x] as bigint) - b * (k[x] as bigint), R);
      }
    }
    for (let j = c + 1; j < m; j++) {
      const row = B[j] as bigint[];
      const b = row[c] as bigint;
      if (b === 0n) continue;
      checkpoint();
      const a = k[c] as bigint;
      const { g, s, t } = extendedGcd(a, b);
      const [u, v] = [-b / g, a / g];
      for (let x = c; x < n; x++) {
        const p = k[x] as bigint;
        const q = row[x] as bigint;
        k[x] = mod(s * p + t * q, R);
        row[x] = mod(u * p + v * q, R);
      }
    }
    const { g, s } = extendedGcd(k[c] as bigint, R);
    const w = Array.from({ length: n }, (_, x) => (x < c ? 0n : mod(s * (k[x] as bigint), R)));
    if (w[c] === 0n) w[c] = R;
    const pivot = w[c] as bigint;
    for (const earlier of W) {
      const q = floorDiv(earlier[c] as bigint, pivot);
      if (q !== 0n) subtractMultiple(earlier, w, q, c);
    }
    W.push(w);
    R /= g;
  }
  return [...W, ...Array.from({ length: m - n }, () => Array.from({ length: n }, () => 0n))];
}

/**
 * When A (m×n, m ≥ n) has full column rank: a non-zero multiple D of the determinant of its row
 * lattice (|det| of the first n independent rows) and those rows' indices; null otherwise.
 */
function latticeDeterminant(A: readonly (readonly bigint[])[], checkpoint: Checkpoint): { D: bigint; rows: number[] } | null {
  const m = A.length;
  const n = A[0]?.length ?? 0;
  if (m < n || n === 0) return null;
  const transpose = Array.from({ length: n }, (_, j) => A.map((row) => row[j] as bigint));
  const { rank, pivots } = fractionFreeEliminate(transpose, m, false, checkpoint);
  if (rank < n) return null;
  const minor = pivots.map((i) => [...(A[i] as bigint[])]);
  const { last } = fractionFreeEliminate(minor, n, false, checkpoint);
  return { D: abs(last), rows: pivots };
}

/**
 * U = H A⁻¹ for a square non-singular A: multimodular and checked (U A = H, see
 * {@link integralLeftQuotient}); should that give up (A singular modulo the first primes tried), A⁻¹ = M/δ from
 * fraction-free Gauss–Jordan of [A | I], the division exact since U is integral.
 */
function transformFromForm(A: readonly (readonly bigint[])[], H: readonly (readonly bigint[])[], checkpoint: Checkpoint): bigint[][] {
  const n = A.length;
  const quotient = integralLeftQuotient(A, H, checkpoint);
  if (quotient !== null) return quotient;
  const M = A.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1n : 0n))]);
  const { last } = fractionFreeEliminate(M, n, true, checkpoint);
  const scaledInverse = M.map((row) => row.slice(n));
  return H.map((row) => {
    checkpoint();
    return Array.from({ length: n }, (_, j) => {
      let sum = 0n;
      for (let k = 0; k < n; k++) sum += (row[k] as bigint) * ((scaledInverse[k] as bigint[])[j] as bigint);
      if (sum % last !== 0n) throw new Error('H A⁻¹ is not integral: H is not a normal form of A');
      return sum / last;
    });
  });
}

/**
 * Row-style Hermite normal form over Z: H = U A with U unimodular, H in row echelon form, the
 * first `rank` rows non-zero, each pivot positive, every entry above a pivot in [0, pivot), rows
 * below the rank zero. Any shape, any rank. H is unique for A (it depends on A's row lattice only).
 *
 * A square A goes first to {@link squareLattice} (det A and solutions of A z = det·r from A modulo
 * word-size primes): H is read off the congruences x·z ≡ 0 (mod d) when they cut out L (almost
 * all random matrices), otherwise computed modulo d = |det A|. A tall A of full column rank
 * folds its other rows into the Hermite form of n independent rows ({@link tallHermite}), or else
 * is computed modulo the determinant of n independent rows (see {@link modularHermite}). U, when
 * asked of a square non-singular A, is H A⁻¹ ({@link integralLeftQuotient}). Everything else goes
 * by the extended-gcd row operations of {@link hermiteByRowOperations}.
 */
export function hermiteNormalForm(A: readonly (readonly bigint[])[], options: { transforms?: boolean; checkpoint?: Checkpoint } = {}): HermiteForm {
  const checkpoint = options.checkpoint ?? NO_CHECKPOINT;
  const m = A.length;
  const n = A[0]?.length ?? 0;
  const transforms = options.transforms === true;
  const pivots = Array.from({ length: n }, (_, c) => c);
  if (m === n && n > 0) {
    // Square: det A and the congruences that cut out L, from A modulo word-size primes.
    const lattice = squareLattice(A, checkpoint);
    if (lattice.kind === 'hermite' || lattice.kind === 'determinant') {
      const hnf = lattice.kind === 'hermite' ? lattice.hnf : modularHermite(A, lattice.d, checkpoint);
      return { hnf, rank: n, pivots, transform: transforms ? transformFromForm(A, hnf, checkpoint) : null };
    }
  }
  if (!transforms && m > n && n > 0) {
    const tall = tallHermite(A, checkpoint);
    if (tall !== null) return { hnf: [...tall.hnf, ...Array.from({ length: m - n }, () => new Array<bigint>(n).fill(0n))], rank: n, pivots, transform: null };
  }
  if (!transforms) {
    const lattice = latticeDeterminant(A, checkpoint);
    if (lattice !== null) {
      return { hnf: modularHermite(A, lattice.D, checkpoint), rank: n, pivots, transform: null };
    }
  }
  return hermiteByRowOperations(A, options);
}

/** {@link hermiteNormalForm} by extended-gcd row operations, any shape and rank. */
export function hermiteByRowOperations(A: readonly (readonly bigint[])[], options: { transforms?: boolean; checkpoint?: Checkpoint } = {}): HermiteForm {
  const checkpoint = options.checkpoint ?? NO_CHECKPOINT;
  const m = A.length;
  const n = A[0]?.length ?? 0;
  const H = A.map((row) => [...row]);
  const U = options.transforms === true ? identity(m) : null;
  const pivots: number[] = [];
  let r = 0;
  for (let c = 0; c < n && r < m; c++) {
    // The row of least non-zero |entry| in column c becomes row r.
    let best = -1;
    for (let i = r; i < m; i++) {
      const x = (H[i] as bigint[])[c] as bigint;
      if (x !== 0n && (best < 0 || abs(x) < abs((H[best] as bigint[])[c] as bigint))) best = i;
    }
    if (best < 0) continue;
    if (best !== r) {
      [H[best], H[r]] = [H[r] as bigint[], H[best] as bigint[]];
      if (U !== null) [U[best], U[r]] = [U[r] as bigint[], U[best] as bigint[]];
    }
    const top = H[r] as bigint[];
    for (let i = r + 1; i < m; i++) {
      const row = H[i] as bigint[];
      const b = row[c] as bigint;
      if (b === 0n) continue;
      checkpoint();
      const a = top[c] as bigint;
      if (b % a === 0n) {
        const q = b / a;
        subtractMultiple(row, top, q, c);
        if (U !== null) subtractMultiple(U[i] as bigint[], U[r] as bigint[], q);
      } else {
        const { g, s, t } = extendedGcd(a, b);
        combine(top, row, s, t, -b / g, a / g, c);
        if (U !== null) combine(U[r] as bigint[], U[i] as bigint[], s, t, -b / g, a / g);
      }
    }
    if ((top[c] as bigint) < 0n) {
      for (let j = c; j < n; j++) top[j] = -(top[j] as bigint);
      if (U !== null) U[r] = (U[r] as bigint[]).map((x) => -x);
    }
    const p = top[c] as bigint;
    for (let i = 0; i < r; i++) {
      const row = H[i] as bigint[];
      const q = floorDiv(row[c] as bigint, p);
      if (q === 0n) continue;
      checkpoint();
      subtractMultiple(row, top, q, c);
      if (U !== null) subtractMultiple(U[i] as bigint[], U[r] as bigint[], q);
    }
    pivots.push(c);
    r++;
  }
  return { hnf: H, rank: r, pivots, transform: U };
}

/** The Smith normal form of A: its diagonal, and U, V (U A V = D) when asked. */
export interface SmithForm {
  /** d_1, …, d_min(m,n): non-negative, d_i | d_{i+1}, the first `rank` non-zero. */
  diagonal: bigint[];
  rank: number;
  left: bigint[][] | null;
  right: bigint[][] | null;
}

/**
 * Smith normal form over Z: U A V = D with U (m×m) and V (n×n) unimodular and D (m×n) diagonal,
 * its entries non-negative and each dividing the next. Any shape, any rank.
 *
 * Without transforms and for full column rank (m ≥ n = rank): when the Hermite form comes from
 * congruences ({@link squareLattice}, {@link tallHermite}) the operations run only on the block of
 * its columns with pivots above 1; otherwise they start from the square Hermite form computed
 * modulo the lattice determinant, whose entries are bounded by its pivots. With transforms, a
 * square non-singular A goes through its Hermite form too (U₁ A = H, then U₂ H V = D and
 * U = U₂ U₁), which keeps U and V near the size of D; otherwise the operations work on A itself
 * and track U and V.
 */
export function smithNormalForm(A: readonly (readonly bigint[])[], options: { transforms?: boolean; checkpoint?: Checkpoint } = {}): SmithForm {
  const checkpoint = options.checkpoint ?? NO_CHECKPOINT;
  const n = A[0]?.length ?? 0;
  if (options.transforms !== true && A.length === n && n > 0) {
    const lattice = squareLattice(A, checkpoint);
    if (lattice.kind === 'hermite') return { diagonal: smithOfSparseHermite(lattice, n, checkpoint), rank: n, left: null, right: null };
    if (lattice.kind === 'determinant') return { diagonal: smithByOperations(modularHermite(A, lattice.d, checkpoint).slice(0, n), { checkpoint }).diagonal, rank: n, left: null, right: null };
  }
  if (options.transforms !== true && A.length > n && n > 0) {
    const tall = tallHermite(A, checkpoint);
    if (tall !== null) return { diagonal: smithOfSparseHermite(tall, n, checkpoint), rank: n, left: null, right: null };
  }
  if (options.transforms !== true) {
    const lattice = latticeDeterminant(A, checkpoint);
    if (lattice !== null) {
      // The square Hermite form has the same invariant factors, its entries bounded by its pivots.
      const H = modularHermite(A, lattice.D, checkpoint).slice(0, n);
      return { diagonal: smithByOperations(H, { checkpoint }).diagonal, rank: n, left: null, right: null };
    }
  }
  if (A.length === n) {
    // Square and non-singular: U₁ A = H (modular, U₁ = H A⁻¹), then U₂ H V = D from H's bounded entries; U = U₂ U₁.
    const lattice = latticeDeterminant(A, checkpoint);
    if (lattice !== null) {
      const hermite = hermiteNormalForm(A, { transforms: true, checkpoint });
      const smith = smithByOperations(hermite.hnf, { transforms: true, checkpoint });
      const left = (smith.left as bigint[][]).map((row) => {
        checkpoint();
        return Array.from({ length: n }, (_, j) => row.reduce((sum, a, k) => (a === 0n ? sum : sum + a * (((hermite.transform as bigint[][])[k] as bigint[])[j] as bigint)), 0n));
      });
      return { diagonal: smith.diagonal, rank: n, left, right: smith.right };
    }
  }
  return smithByOperations(A, options);
}

/** The Smith diagonal of a square Hermite form H whose columns outside `nontrivial` have pivot 1: those are unit columns, so column operations leave I ⊕ H[S, S]. */
function smithOfSparseHermite(form: { hnf: bigint[][]; nontrivial: number[] }, n: number, checkpoint: Checkpoint): bigint[] {
  const S = form.nontrivial;
  const block = S.map((i) => S.map((j) => (form.hnf[i] as bigint[])[j] as bigint));
  return [...new Array<bigint>(n - S.length).fill(1n), ...smithByOperations(block, { checkpoint }).diagonal];
}

/** {@link smithNormalForm} by extended-gcd row and column operations, any shape and rank, with U and V when asked. */
export function smithByOperations(A: readonly (readonly bigint[])[], options: { transforms?: boolean; checkpoint?: Checkpoint } = {}): SmithForm {
  const checkpoint = options.checkpoint ?? NO_CHECKPOINT;
  const m = A.length;
  const n = A[0]?.length ?? 0;
  const D = A.map((row) => [...row]);
  const U = options.transforms === true ? identity(m) : null;
  const V = options.transforms === true ? identity(n) : null;
  const size = Math.min(m, n);
  let rank = 0;
  for (let t = 0; t < size; t++) {
    // The entry of least absolute value in the remaining block becomes the pivot.
    let bi = -1;
    let bj = -1;
    for (let i = t; i < m; i++) {
      const row = D[i] as bigint[];
      for (let j = t; j < n; j++) {
        const x = row[j] as bigint;
        if (x !== 0n && (bi < 0 || abs(x) < abs((D[bi] as bigint[])[bj] as bigint))) [bi, bj] = [i, j];
      }
    }
    if (bi < 0) break;
    if (bi !== t) {
      [D[bi], D[t]] = [D[t] as bigint[], D[bi] as bigint[]];
      if (U !== null) [U[bi], U[t]] = [U[t] as bigint[], U[bi] as bigint[]];
    }
    swapColumns(D, bj, t);
    if (V !== null) swapColumns(V, bj, t);
    for (;;) {
      const top = D[t] as bigint[];
      // Clear column t below the pivot by row operations.
      for (let i = t + 1; i < m; i++) {
        const row = D[i] as bigint[];
        const b = row[t] as bigint;
        if (b === 0n) continue;
        checkpoint();
        const a = top[t] as bigint;
        if (b % a === 0n) {
          const q = b / a;
          subtractMultiple(row, top, q, t);
          if (U !== null) subtractMultiple(U[i] as bigint[], U[t] as bigint[], q);
        } else {
          const { g, s, t: tt } = extendedGcd(a, b);
          combine(top, row, s, tt, -b / g, a / g, t);
          if (U !== null) combine(U[t] as bigint[], U[i] as bigint[], s, tt, -b / g, a / g);
        }
      }
      // Clear row t right of the pivot by column operations (rows above t are zero in these columns).
      let disturbed = false;
      for (let j = t + 1; j < n; j++) {
        const b = top[j] as bigint;
        if (b === 0n) continue;
        checkpoint();
        const a = top[t] as bigint;
        const block = D.slice(t);
        if (b % a === 0n) {
          const q = b / a;
          subtractColumnMultiple(block, j, t, q);
          if (V !== null) subtractColumnMultiple(V, j, t, q);
        } else {
          const { g, s, t: tt } = extendedGcd(a, b);
          combineColumns(block, t, j, s, tt, -b / g, a / g);
          if (V !== null) combineColumns(V, t, j, s, tt, -b / g, a / g);
          disturbed = true;
        }
      }
      if (disturbed && D.some((row, i) => i > t && (row[t] as bigint) !== 0n)) continue;
      // The pivot must divide the rest of the block; if some entry is not a multiple, add its row to row t and go again (the gcd shrinks the pivot).
      const d = top[t] as bigint;
      let offender = -1;
      for (let i = t + 1; i < m && offender < 0; i++) {
        const row = D[i] as bigint[];
        for (let j = t + 1; j < n; j++) {
          if ((row[j] as bigint) % d !== 0n) {
            offender = i;
            break;
          }
        }
      }
      if (offender < 0) break;
      checkpoint();
      subtractMultiple(top, D[offender] as bigint[], -1n, t);
      if (U !== null) subtractMultiple(U[t] as bigint[], U[offender] as bigint[], -1n);
    }
    if (((D[t] as bigint[])[t] as bigint) < 0n) {
      (D[t] as bigint[])[t] = -((D[t] as bigint[])[t] as bigint);
      if (U !== null) U[t] = (U[t] as bigint[]).map((x) => -x);
    }
    rank++;
  }
  const diagonal = Array.from({ length: size }, (_, i) => (D[i] as bigint[])[i] as bigint);
  return { diagonal, rank, left: U, right: V };
}
