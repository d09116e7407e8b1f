/**
 * Exact dense linear algebra over Q (and Z, inside Q) and GF(p).
 *
 * Over Q every row is first scaled to integers (row scaling changes neither the row space, so
 * neither the rank, the reduced row echelon form, kernels nor solutions, and it scales the
 * determinant by a known factor). The rank and the determinant of the integer matrix are then
 * multimodular (modular-rank-determinant.ts: elimination modulo word-size primes, as many as
 * Hadamard's bound asks for, and the Chinese remainder theorem). The RREF, and everything read
 * from it, is by fraction-free elimination (Bareiss) on big integers, with every division exact:
 * each intermediate entry is a minor of the scaled matrix, so numbers grow linearly with the
 * step, not exponentially. Reduction above the pivots uses the fraction-free Gauss–Jordan form of
 * the same recurrence: at the end each pivot row holds d·(its RREF row), where d is the last
 * pivot, and one division per entry gives the RREF.
 *
 * Over GF(p) elimination is direct, with the polynomial core's field arithmetic (numbers for
 * p < 2^26, bigints beyond).
 *
 * Everything above elimination (kernels, inverse, solving) is written once over a field and
 * reads the RREF. Entries enter and leave as canonical texts (see the shared matrix core).
 */
import { bigGcd, JacobianError, makeRational, RATIONALS, resolveMatrixRing, type Field, type MatrixRing, type Rational } from '@jacobian/shared';
import { integerDeterminant, integerRank } from './modular-rank-determinant.js';

/** Called often during the work (once per row operation, or per pivot column modulo a word-size prime); throws (EXECUTION_TIMEOUT) to stop it. */
export type Checkpoint = () => void;

const NO_CHECKPOINT: Checkpoint = () => undefined;

/** A reduced row echelon form: the rank, the pivot columns, and the `rank` non-zero rows. */
export interface Echelon<C> {
  rank: number;
  pivots: number[];
  rows: C[][];
}

/** What elimination over one ring offers the field-generic code. */
export interface EliminationBackend<C> {
  readonly field: Field<C>;
  /** RREF of `rows`; pivots are sought only in columns below `pivotColumns` (all columns take part in the row operations). */
  rref(rows: readonly (readonly C[])[], pivotColumns: number, checkpoint: Checkpoint): Echelon<C>;
  /** The rank of a matrix of any shape. */
  rank(rows: readonly (readonly C[])[], checkpoint: Checkpoint): number;
  /** The determinant of a square matrix. */
  determinant(rows: readonly (readonly C[])[], checkpoint: Checkpoint): C;
}

// ---------------------------------------------------------------------------------------------
// Over Q: integer-scaled rows; multimodular rank and determinant, fraction-free RREF.

/** The row times the lcm of its denominators: integers, and that lcm. */
function integerRow(row: readonly Rational[]): { ints: bigint[]; scale: bigint } {
  let scale = 1n;
  for (const a of row) if (a.den !== 1n) scale = (scale / bigGcd(scale, a.den)) * a.den;
  return { ints: row.map((a) => (scale === 1n ? a.num : (a.num * scale) / a.den)), scale };
}

/**
 * Fraction-free elimination of an integer matrix, in place. With `reduceAbove` the rows above
 * each pivot are reduced too (fraction-free Gauss–Jordan). Returns the rank, pivot columns, the
 * parity of the row swaps, and the last pivot.
 */
export function fractionFreeEliminate(M: bigint[][], pivotColumns: number, reduceAbove: boolean, checkpoint: Checkpoint = NO_CHECKPOINT): { rank: number; pivots: number[]; swaps: number; last: bigint } {
  const m = M.length;
  const width = M[0]?.length ?? 0;
  let previous = 1n;
  let r = 0;
  let swaps = 0;
  const pivots: number[] = [];
  for (let c = 0; c < pivotColumns && r < m; c++) {
    let found = -1;
    for (let i = r; i < m; i++) {
      if ((M[i] as bigint[])[c] !== 0n) {
        found = i;
        break;
      }
    }
    if (found < 0) continue;
    if (found !== r) {
      [M[found], M[r]] = [M[r] as bigint[], M[found] as bigint[]];
      swaps++;
    }
    const pivotRow = M[r] as bigint[];
    const p = pivotRow[c] as bigint;
    // Below the pivot, columns left of c are zero already; above it (Gauss–Jordan) every column changes.
    const from = reduceAbove ? 0 : c;
    for (let i = reduceAbove ? 0 : r + 1; i < m; i++) {
      if (i === r) continue;
      checkpoint();
      const row = M[i] as bigint[];
      const a = row[c] as bigint;
      for (let j = from; j < width; j++) {
        const x = p * (row[j] as bigint) - a * (pivotRow[j] as bigint);
        row[j] = previous === 1n ? x : x / previous;
      }
    }
    previous = p;
    pivots.push(c);
    r++;
  }
  return { rank: r, pivots, swaps, last: previous };
}

export const RATIONAL_BACKEND: EliminationBackend<Rational> = {
  field: RATIONALS,
  rref(rows, pivotColumns, checkpoint) {
    const M = rows.map((row) => integerRow(row).ints);
    const { rank, pivots, last } = fractionFreeEliminate(M, pivotColumns, true, checkpoint);
    // Each pivot row is last·(its RREF row).
    const out = M.slice(0, rank).map((row) => {
      checkpoint();
      return row.map((x) => makeRational(x, last));
    });
    return { rank, pivots, rows: out };
  },
  rank(rows, checkpoint) {
    return integerRank(rows.map((row) => integerRow(row).ints), checkpoint);
  },
  determinant(rows, checkpoint) {
    const scaled = rows.map(integerRow);
    // det(diag(s) A) = (Π s_i) det A.
    const scale = scaled.reduce((product, s) => product * s.scale, 1n);
    return makeRational(integerDeterminant(scaled.map((s) => s.ints), checkpoint), scale);
  },
};

// ---------------------------------------------------------------------------------------------
// Over a field (GF(p)): direct elimination.

/** RREF or forward elimination over a field, in place; returns rank, pivots, swap parity and the product of the pivots. */
function fieldEliminate<C>(F: Field<C>, M: C[][], pivotColumns: number, reduceAbove: boolean, checkpoint: Checkpoint): { rank: number; pivots: number[]; swaps: number; pivotProduct: C } {
  const m = M.length;
  const width = M[0]?.length ?? 0;
  let r = 0;
  let swaps = 0;
  let pivotProduct = F.one;
  const pivots: number[] = [];
  for (let c = 0; c < pivotColumns && r < m; c++) {
    let found = -1;
    for (let i = r; i < m; i++) {
      if (!F.isZero((M[i] as C[])[c] as C)) {
        found = i;
        break;
      }
    }
    if (found < 0) continue;
    if (found !== r) {
      [M[found], M[r]] = [M[r] as C[], M[found] as C[]];
      swaps++;
    }
    const pivotRow = M[r] as C[];
    const p = pivotRow[c] as C;
    pivotProduct = F.mul(pivotProduct, p);
    if (reduceAbove) {
      const inverse = F.inv(p);
      for (let j = c; j < width; j++) pivotRow[j] = F.mul(pivotRow[j] as C, inverse);
    }
    const pivotValue = pivotRow[c] as C;
    for (let i = reduceAbove ? 0 : r + 1; i < m; i++) {
      if (i === r) continue;
      const row = M[i] as C[];
      const a = row[c] as C;
      if (F.isZero(a)) continue;
      checkpoint();
      const factor = F.div(a, pivotValue);
      for (let j = c; j < width; j++) row[j] = F.sub(row[j] as C, F.mul(factor, pivotRow[j] as C));
    }
    pivots.push(c);
    r++;
  }
  return { rank: r, pivots, swaps, pivotProduct };
}

/** Elimination over a field by its own arithmetic (GF(p); also Q, as a second method in tests). */
export function fieldBackend<C>(F: Field<C>): EliminationBackend<C> {
  return {
    field: F,
    rref(rows, pivotColumns, checkpoint) {
      const M = rows.map((row) => [...row]);
      const { rank, pivots } = fieldEliminate(F, M, pivotColumns, true, checkpoint);
      return { rank, pivots, rows: M.slice(0, rank) };
    },
    rank(rows, checkpoint) {
      return fieldEliminate(F, rows.map((row) => [...row]), rows[0]?.length ?? 0, false, checkpoint).rank;
    },
    determinant(rows, checkpoint) {
      const n = rows.length;
      const { rank, swaps, pivotProduct } = fieldEliminate(F, rows.map((row) => [...row]), n, false, checkpoint);
      if (rank < n) return F.zero;
      return swaps % 2 === 0 ? pivotProduct : F.neg(pivotProduct);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Field-generic operations on top of elimination.

function transpose<C>(rows: readonly (readonly C[])[]): C[][] {
  const n = rows[0]?.length ?? 0;
  return Array.from({ length: n }, (_, j) => rows.map((row) => row[j] as C));
}

/** The standard basis of the kernel {x : A x = 0} read off the RREF of A: one vector per free column f, with x_f = 1 and the other free entries 0. */
export function kernelFromRref<C>(F: Field<C>, echelon: Echelon<C>, ncols: number): C[][] {
  const isPivot = new Set(echelon.pivots);
  const basis: C[][] = [];
  for (let f = 0; f < ncols; f++) {
    if (isPivot.has(f)) continue;
    const v = Array.from({ length: ncols }, () => F.zero);
    v[f] = F.one;
    for (const [i, p] of echelon.pivots.entries()) v[p] = F.neg((echelon.rows[i] as C[])[f] as C);
    basis.push(v);
  }
  return basis;
}

/** Σ u_i v_i. */
export function dot<C>(F: Field<C>, u: readonly C[], v: readonly C[]): C {
  let s = F.zero;
  for (let i = 0; i < u.length; i++) s = F.add(s, F.mul(u[i] as C, v[i] as C));
  return s;
}

/** The outcome of solving A x = b. */
export type SolveResult<C> =
  | { consistent: true; solution: C[]; kernel: C[][]; rank: number }
  | { consistent: false; certificate: C[]; rank: number };

/** The outcome of inverting a square A. */
export type InverseResult<C> = { invertible: true; inverse: C[][] } | { invertible: false; kernelVector: C[]; rank: number };

/** The operations of exact linear algebra over one ring, on its elements. */
export class LinearAlgebra<C> {
  readonly field: Field<C>;
  constructor(
    readonly backend: EliminationBackend<C>,
    private readonly checkpoint: Checkpoint = NO_CHECKPOINT,
  ) {
    this.field = backend.field;
  }

  rank(A: readonly (readonly C[])[]): number {
    return this.backend.rank(A, this.checkpoint);
  }

  /** The determinant of a square matrix. */
  determinant(A: readonly (readonly C[])[]): C {
    if (A.some((row) => row.length !== A.length)) throw new JacobianError('INTERNAL', 'determinant of a non-square matrix');
    return this.backend.determinant(A, this.checkpoint);
  }

  rref(A: readonly (readonly C[])[]): Echelon<C> {
    return this.backend.rref(A, A[0]?.length ?? 0, this.checkpoint);
  }

  /** Bases of the right kernel {x : A x = 0} and the left kernel {y : y A = 0}. */
  nullspace(A: readonly (readonly C[])[]): { right: C[][]; left: C[][]; rank: number } {
    const echelon = this.rref(A);
    const At = transpose(A);
    const left = kernelFromRref(this.field, this.backend.rref(At, At[0]?.length ?? 0, this.checkpoint), A.length);
    return { right: kernelFromRref(this.field, echelon, A[0]?.length ?? 0), left, rank: echelon.rank };
  }

  /** The inverse by reducing [A | I]; when A is singular, a non-zero x with A x = 0 instead. */
  inverse(A: readonly (readonly C[])[]): InverseResult<C> {
    const F = this.field;
    const n = A.length;
    const augmented = A.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? F.one : F.zero))]);
    const echelon = this.backend.rref(augmented, n, this.checkpoint);
    if (echelon.rank === n && echelon.pivots[n - 1] === n - 1) return { invertible: true, inverse: echelon.rows.map((row) => row.slice(n)) };
    // Singular: the left block of the RREF is the RREF of A.
    const left: Echelon<C> = { rank: echelon.rank, pivots: echelon.pivots, rows: echelon.rows.map((row) => row.slice(0, n)) };
    const kernelVector = kernelFromRref(F, left, n)[0];
    if (kernelVector === undefined) throw new JacobianError('INTERNAL', 'a singular matrix without a kernel vector');
    return { invertible: false, kernelVector, rank: echelon.rank };
  }

  /**
   * Solve A x = b: one solution (free variables 0) and a basis of the kernel of A, so that the
   * solutions are exactly x + span(kernel); or, when there is none, y with y A = 0 and y·b = 1.
   */
  solve(A: readonly (readonly C[])[], b: readonly C[]): SolveResult<C> {
    const F = this.field;
    const n = A[0]?.length ?? 0;
    const augmented = A.map((row, i) => [...row, b[i] as C]);
    const echelon = this.backend.rref(augmented, n + 1, this.checkpoint);
    const rankA = echelon.pivots.filter((p) => p < n).length;
    if (echelon.pivots.includes(n)) {
      const At = transpose(A);
      const left = kernelFromRref(F, this.backend.rref(At, At[0]?.length ?? 0, this.checkpoint), A.length);
      for (const y of left) {
        const yb = dot(F, y, b);
        if (!F.isZero(yb)) return { consistent: false, certificate: y.map((v) => F.div(v, yb)), rank: rankA };
      }
      throw new JacobianError('INTERNAL', 'an inconsistent system whose left kernel is orthogonal to b');
    }
    const solution = Array.from({ length: n }, () => F.zero);
    for (const [i, p] of echelon.pivots.entries()) solution[p] = (echelon.rows[i] as C[])[n] as C;
    const left: Echelon<C> = { rank: rankA, pivots: echelon.pivots, rows: echelon.rows.map((row) => row.slice(0, n)) };
    return { consistent: true, solution, kernel: kernelFromRref(F, left, n), rank: rankA };
  }
}

// ---------------------------------------------------------------------------------------------
// Canonical texts in and out.

/** A matrix's ring made into an engine: Z and Q use the rational backend, GF(p) its field. */
export interface RingEngine {
  /** The field the answers live in: Q for Z and Q matrices, GF(p) otherwise. */
  readonly fieldName: string;
  readonly ring: MatrixRing;
  parse(rows: readonly (readonly string[])[]): unknown[][];
  parseVector(values: readonly string[]): unknown[];
  format(value: unknown): string;
  algebra: LinearAlgebra<unknown>;
}

/** The engine of a stored (canonical) matrix's ring. */
export function ringEngine(ring: MatrixRing, checkpoint: Checkpoint = NO_CHECKPOINT): RingEngine {
  const resolved = resolveMatrixRing(ring);
  const field = (resolved.field ?? RATIONALS) as Field<unknown>;
  const backend = (field.kind === 'Q' ? RATIONAL_BACKEND : fieldBackend(field));
  const parseOne = (text: string): unknown => {
    const value = field.parseCanonical(text);
    if (value === null) throw new JacobianError('INTERNAL', `"${text.slice(0, 40)}" is not a canonical element of ${field.name}`);
    return value;
  };
  return {
    fieldName: field.name,
    ring,
    parse: (rows) => rows.map((row) => row.map(parseOne)),
    parseVector: (values) => values.map(parseOne),
    format: (value) => field.format(value),
    algebra: new LinearAlgebra(backend, checkpoint),
  };
}

/**
 * Over Z, a kernel vector scaled to a primitive integer vector (gcd of entries 1) with its
 * leading non-zero entry positive: a Q-basis of the kernel in integers. Rationals only.
 */
export function primitiveIntegerVector(v: readonly Rational[]): Rational[] {
  let lcm = 1n;
  for (const a of v) if (a.den !== 1n) lcm = (lcm / bigGcd(lcm, a.den)) * a.den;
  const ints = v.map((a) => (a.num * lcm) / a.den);
  let g = 0n;
  for (const x of ints) g = bigGcd(g, x);
  if (g === 0n) return [...v];
  const lead = ints.find((x) => x !== 0n) ?? 1n;
  const sign = lead < 0n ? -1n : 1n;
  return ints.map((x) => RATIONALS.fromBigInt((sign * x) / g));
}
