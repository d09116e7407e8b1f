/**
 * Integer solutions of A x = b (A m×n over Z, b ∈ Z^m) through the Hermite normal form of the
 * linear algebra pack: U Aᵀ = H with U unimodular (n×n). With x = Uᵀ z the system reads Hᵀ z = b,
 * Hᵀ in column echelon form: z₀ … z_{r−1} are forced one after another by forward substitution
 * (r = rank A), z_r … z_{n−1} are free. So
 *
 *  - if every forced zᵢ is an integer and the remaining equations hold, the integer solutions are
 *    exactly x₀ + span_Z(rows r … n−1 of U), x₀ = Σ zᵢ·(row i of U) — a lattice basis K of
 *    ker A ∩ Z^n because U is unimodular; the last n − r columns W of U⁻¹ (K W = I) certify it;
 *  - if some zᵢ is not an integer, the rational y with y Hᵀ = eᵢ (supported on the pivot rows) has
 *    y A = eᵢ (Uᵀ)⁻¹ integral and y·b = zᵢ not an integer: no integer x exists (y·b = y A x ∈ Z);
 *  - if an equation outside the pivot rows fails, the system has no rational solution: y with
 *    y Hᵀ = 0 and y·b ≠ 0, scaled so that y·b = 1/2 (then y A = 0 is integral too).
 *
 * Every answer is rechecked exactly before it is returned (A x₀ = b, A k = 0 for each kernel
 * vector, |det U| = 1 by fraction-free elimination, so the kernel rows are a lattice basis; y A ∈ Z^n
 * and y·b ∉ Z).
 */
import { bigGcd, JacobianError } from '@jacobian/shared';
import { fractionFreeEliminate } from '../../matrix/engine.js';
import { hermiteNormalForm } from '../../matrix/normal-form-engine.js';
import type { Checkpoint } from './continued-fraction.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

/** A rational num/den, den > 0, in lowest terms. */
export interface Fraction {
  num: bigint;
  den: bigint;
}

const frac = (num: bigint, den: bigint): Fraction => {
  if (den < 0n) [num, den] = [-num, -den];
  const g = bigGcd(num < 0n ? -num : num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
};
const add = (x: Fraction, y: Fraction): Fraction => frac(x.num * y.den + y.num * x.den, x.den * y.den);
const mulInt = (x: Fraction, k: bigint): Fraction => frac(x.num * k, x.den);
const divInt = (x: Fraction, k: bigint): Fraction => frac(x.num, x.den * k);
export const fractionText = (x: Fraction): string => (x.den === 1n ? x.num.toString() : `${x.num}/${x.den}`);

export type IntegerSystemAnswer =
  | { outcome: 'SOLVED'; rank: number; particular: bigint[]; kernel: bigint[][]; kernelRightInverse: bigint[][] }
  | { outcome: 'NONE'; rank: number; obstruction: 'NOT_INTEGRAL' | 'INCONSISTENT_OVER_Q'; certificate: Fraction[]; yb: Fraction };

/** Solve A x = b over Z; see the module comment. */
export function solveIntegerSystem(A: readonly (readonly bigint[])[], b: readonly bigint[], checkpoint: Checkpoint = NO_CHECKPOINT): IntegerSystemAnswer {
  const m = A.length;
  const n = A[0]?.length ?? 0;
  const At = Array.from({ length: n }, (_, j) => A.map((row) => row[j] as bigint));
  const { hnf: H, rank: r, pivots, transform } = hermiteNormalForm(At, { transforms: true, checkpoint });
  const U = transform as bigint[][];
  // Hᵀ z = b: row p of Hᵀ is column p of H; pivot i sits at (row pivots[i], column i) of Hᵀ.
  const entry = (k: number, p: number): bigint => (H[k] as bigint[])[p] as bigint;
  const z: bigint[] = [];
  const pivotRows = new Set(pivots);
  /** y with y Hᵀ = target on the first r columns, y supported on the pivot rows (back substitution). */
  const dualOnPivots = (top: number, right: (k: number) => Fraction): Map<number, Fraction> => {
    const y = new Map<number, Fraction>();
    for (let k = top; k >= 0; k--) {
      let sum = right(k);
      for (let j = k + 1; j <= top; j++) {
        const v = y.get(pivots[j] as number) as Fraction;
        const h = entry(k, pivots[j] as number);
        if (h !== 0n && v.num !== 0n) sum = add(sum, mulInt(v, -h));
      }
      y.set(pivots[k] as number, divInt(sum, entry(k, pivots[k] as number)));
    }
    return y;
  };
  const certificate = (y: Map<number, Fraction>): Fraction[] => Array.from({ length: m }, (_, i) => y.get(i) ?? { num: 0n, den: 1n });
  const dot = (y: Fraction[]): Fraction => y.reduce((s, v, i) => (v.num === 0n ? s : add(s, mulInt(v, b[i] as bigint))), { num: 0n, den: 1n });
  for (let i = 0; i < r; i++) {
    checkpoint();
    const p = pivots[i] as number;
    let rest = b[p] as bigint;
    for (let k = 0; k < i; k++) rest -= entry(k, p) * (z[k] as bigint);
    const h = entry(i, p);
    if (rest % h !== 0n) {
      const y = certificate(dualOnPivots(i, (k) => ({ num: k === i ? 1n : 0n, den: 1n })));
      return recheckNone(A, b, { outcome: 'NONE', rank: r, obstruction: 'NOT_INTEGRAL', certificate: y, yb: dot(y) });
    }
    z.push(rest / h);
  }
  for (let p = 0; p < m; p++) {
    if (pivotRows.has(p)) continue;
    checkpoint();
    let lhs = 0n;
    for (let k = 0; k < r; k++) lhs += entry(k, p) * (z[k] as bigint);
    if (lhs !== b[p]) {
      // y = e_p − Σ λ_j e_{p_j} with y Hᵀ = 0 on the first r columns: λ solves the pivot system with right side column p.
      const lambda = dualOnPivots(r - 1, (k) => ({ num: entry(k, p), den: 1n }));
      const y = certificate(new Map([...[...lambda].map(([row, v]) => [row, { num: -v.num, den: v.den }] as const), [p, { num: 1n, den: 1n }]]));
      const yb = dot(y);
      // Scale so that y·b = 1/2.
      const scaled = y.map((v) => frac(v.num * yb.den, v.den * yb.num * 2n));
      return recheckNone(A, b, { outcome: 'NONE', rank: r, obstruction: 'INCONSISTENT_OVER_Q', certificate: scaled, yb: dot(scaled) });
    }
  }
  const particular = Array.from({ length: n }, (_, j) => z.reduce((s, zi, i) => s + zi * ((U[i] as bigint[])[j] as bigint), 0n));
  const kernel = U.slice(r).map((row) => [...row]);
  const times = (x: readonly bigint[]): bigint[] => A.map((row) => row.reduce((s, a, j) => s + a * (x[j] as bigint), 0n));
  const det = n === 0 ? { rank: 0, last: 1n } : fractionFreeEliminate(U.map((row) => [...row]), n, false, checkpoint);
  const unimodular = det.rank === n && (det.last === 1n || det.last === -1n);
  if (!unimodular || times(particular).some((v, i) => v !== b[i]) || kernel.some((k) => times(k).some((v) => v !== 0n)) || kernel.length !== n - r) {
    throw new JacobianError('INTERNAL', 'the integer solution failed its recheck; nothing was concluded');
  }
  // W = the last n − r columns of U⁻¹ (the transform of U's own Hermite form, which is I): K W = I certifies that the kernel rows span a saturated lattice.
  const Uinv = hermiteNormalForm(U, { transforms: true, checkpoint }).transform as bigint[][];
  const kernelRightInverse = Uinv.map((row) => row.slice(r));
  const k = kernel.length;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const v = (kernel[i] as bigint[]).reduce((s, x, t) => s + x * ((kernelRightInverse[t] as bigint[])[j] as bigint), 0n);
      if (v !== (i === j ? 1n : 0n)) throw new JacobianError('INTERNAL', 'the kernel basis failed its saturation recheck (K W ≠ I); nothing was concluded');
    }
  }
  return { outcome: 'SOLVED', rank: r, particular, kernel, kernelRightInverse };
}

function recheckNone(A: readonly (readonly bigint[])[], b: readonly bigint[], answer: Extract<IntegerSystemAnswer, { outcome: 'NONE' }>): IntegerSystemAnswer {
  const n = A[0]?.length ?? 0;
  const y = answer.certificate;
  for (let j = 0; j < n; j++) {
    const s = y.reduce((sum, v, i) => (v.num === 0n ? sum : add(sum, mulInt(v, (A[i] as bigint[])[j] as bigint))), { num: 0n, den: 1n });
    if (s.den !== 1n) throw new JacobianError('INTERNAL', 'the no-integer-solution certificate failed its recheck (y A not integral); nothing was concluded');
  }
  const yb = y.reduce((sum, v, i) => (v.num === 0n ? sum : add(sum, mulInt(v, b[i] as bigint))), { num: 0n, den: 1n });
  if (yb.den === 1n) throw new JacobianError('INTERNAL', 'the no-integer-solution certificate failed its recheck (y·b is an integer); nothing was concluded');
  return answer;
}
