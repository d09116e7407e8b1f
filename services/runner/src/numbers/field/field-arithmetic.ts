/**
 * Exact checks in K = Q[θ]/(T) of what PARI/GP says: the monic model of a non-monic T, the
 * characteristic polynomial of an element (Faddeev–LeVerrier on its multiplication matrix: the
 * element is an algebraic integer exactly when it has integer coefficients, a unit when moreover
 * its constant term is ±1), and powers of a root of unity.
 */
import { formatRational, qAdd, qDiv, qInt, qIsZero, qMul, qNeg, qpolyMod, qpolyMul, type QPolynomial, type Rational } from '@jacobian/shared';

const ZERO_RATIONAL: Rational = qInt(0);

/** T scaled to a monic T₁(y) = c^(n−1)·T(y/c) (c the leading coefficient, T first made c > 0), so θ₁ = c·θ. */
export function monicModel(coefficients: readonly bigint[]): { monic: bigint[]; scale: bigint } {
  const sign = (coefficients[0] as bigint) < 0n ? -1n : 1n;
  const T = coefficients.map((c) => c * sign);
  const c = T[0] as bigint;
  // T[k] is the coefficient of x^(n−k); in T₁ it is multiplied by c^(k−1) (k ≥ 1), and T₁ is monic.
  return { monic: T.map((t, k) => (k === 0 ? 1n : t * c ** BigInt(k - 1))), scale: c };
}

/** An element f(θ₁) (power basis of θ₁, lowest first) rewritten in θ = θ₁/c: coefficient i times c^i. */
export function toOriginalRoot(element: readonly Rational[], scale: bigint): Rational[] {
  return element.map((x, i) => qMul(x, qInt(scale ** BigInt(i))));
}

/** The polynomial of integer coefficients given highest degree first, as lowest-first rationals. */
export const lowestFirst = (coefficients: readonly bigint[]): Rational[] => [...coefficients].reverse().map((c) => qInt(c));

type Matrix = Rational[][];

function multiply(A: Matrix, B: Matrix): Matrix {
  const n = A.length;
  return A.map((row) => Array.from({ length: n }, (_, j) => row.reduce((s, a, k) => (qIsZero(a) ? s : qAdd(s, qMul(a, (B[k] as Rational[])[j] as Rational))), ZERO_RATIONAL)));
}

/** The matrix of multiplication by u on the basis 1, θ, …, θ^(n−1) of Q[θ]/(T) (T monic or not, degree n). */
export function multiplicationMatrix(u: QPolynomial, T: QPolynomial): Matrix {
  const n = T.length - 1;
  const columns: Rational[][] = [];
  let power: QPolynomial = [qInt(1)];
  for (let j = 0; j < n; j++) {
    const image = qpolyMod(qpolyMul(u, power), T);
    columns.push(Array.from({ length: n }, (_, i) => image[i] ?? ZERO_RATIONAL));
    power = qpolyMod(qpolyMul(power, [ZERO_RATIONAL, qInt(1)]), T);
  }
  return Array.from({ length: n }, (_, i) => columns.map((column) => column[i] as Rational));
}

/** The characteristic polynomial det(x·I − A), highest degree first (Faddeev–LeVerrier over Q). */
export function characteristicPolynomial(A: Matrix, poll: () => void = () => undefined): Rational[] {
  const n = A.length;
  const identity = (scale: Rational): Matrix => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? scale : ZERO_RATIONAL)));
  const coefficients: Rational[] = [qInt(1)];
  let M: Matrix = identity(ZERO_RATIONAL);
  for (let k = 1; k <= n; k++) {
    poll();
    const previous = coefficients[k - 1] as Rational;
    M = multiply(A, M).map((row, i) => row.map((x, j) => (i === j ? qAdd(x, previous) : x)));
    const AM = multiply(A, M);
    const trace = AM.reduce((s, row, i) => qAdd(s, row[i] as Rational), ZERO_RATIONAL);
    coefficients.push(qNeg(qDiv(trace, qInt(k))));
  }
  return coefficients;
}

/** What the characteristic polynomial of u says: integral (all coefficients integers), its norm, a unit (integral with norm ±1). */
export function unitCheck(u: QPolynomial, T: QPolynomial, poll?: () => void): { integral: boolean; norm: string; unit: boolean } {
  const chi = characteristicPolynomial(multiplicationMatrix(u, T), poll);
  const n = T.length - 1;
  const integral = chi.every((c) => c.den === 1n);
  const constant = chi[n] as Rational;
  const norm = n % 2 === 0 ? constant : qNeg(constant);
  return { integral, norm: formatRational(norm), unit: integral && (norm.num === 1n || norm.num === -1n) && norm.den === 1n };
}

/** ζ^k mod T. */
export function powerMod(zeta: QPolynomial, k: number, T: QPolynomial): Rational[] {
  let result: Rational[] = [qInt(1)];
  for (let i = 0; i < k; i++) result = qpolyMod(qpolyMul(result, zeta), T);
  return result;
}

/** Whether ζ is a primitive w-th root of unity in Q[θ]/(T): ζ^w = 1 and ζ^(w/q) ≠ 1 for every prime q | w. */
export function isPrimitiveRootOfUnity(zeta: QPolynomial, w: number, T: QPolynomial): boolean {
  const isOne = (p: Rational[]): boolean => p.length === 1 && (p[0] as Rational).num === 1n && (p[0] as Rational).den === 1n;
  if (!isOne(powerMod(zeta, w, T))) return false;
  for (let q = 2; q <= w; q++) {
    if (w % q !== 0 || [...Array(q).keys()].slice(2).some((d) => q % d === 0)) continue;
    if (isOne(powerMod(zeta, w / q, T))) return false;
  }
  return true;
}

/** The trace of u ∈ Q[θ]/(T): the trace of its multiplication matrix. */
export function trace(u: QPolynomial, T: QPolynomial): Rational {
  const M = multiplicationMatrix(u, T);
  return M.reduce((s, row, i) => qAdd(s, row[i] as Rational), ZERO_RATIONAL);
}

/** det A over Q by Gaussian elimination (A square). */
export function determinant(A: readonly (readonly Rational[])[], poll: () => void = () => undefined): Rational {
  const M = A.map((row) => [...row]);
  const n = M.length;
  let det: Rational = qInt(1);
  for (let col = 0; col < n; col++) {
    poll();
    const pivot = M.findIndex((row, i) => i >= col && !qIsZero(row[col] as Rational));
    if (pivot < 0) return ZERO_RATIONAL;
    if (pivot !== col) {
      [M[col], M[pivot]] = [M[pivot] as Rational[], M[col] as Rational[]];
      det = qNeg(det);
    }
    const p = (M[col] as Rational[])[col] as Rational;
    det = qMul(det, p);
    for (let i = col + 1; i < n; i++) {
      const row = M[i] as Rational[];
      const f = qDiv(row[col] as Rational, p);
      if (qIsZero(f)) continue;
      for (let j = col; j < n; j++) row[j] = qAdd(row[j] as Rational, qNeg(qMul(f, (M[col] as Rational[])[j] as Rational)));
    }
  }
  return det;
}

/** disc(w₁, …, w_n) = det(Tr(w_i w_j)). */
export function basisDiscriminant(basis: readonly QPolynomial[], T: QPolynomial, poll?: () => void): Rational {
  const gram = basis.map((wi) => basis.map((wj) => trace(qpolyMod(qpolyMul(wi, wj), T), T)));
  return determinant(gram, poll);
}
