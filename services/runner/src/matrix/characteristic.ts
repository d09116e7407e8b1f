/**
 * Characteristic and minimal polynomials of a square matrix over a field (Q for Z and Q
 * matrices, GF(p) otherwise), exactly.
 *
 * - The characteristic polynomial det(x I − A): reduction to upper Hessenberg form by similarity
 *   transformations (row and column operations that keep the characteristic polynomial), then the
 *   classical recurrence on the leading principal submatrices of the Hessenberg matrix. O(n³)
 *   field operations. Over Z the coefficients come out integers (they are sums of minors).
 * - The minimal polynomial: the least common multiple of the local minimal polynomials of the
 *   standard basis vectors e_1, …, e_n, each found as the first linear dependence in its Krylov
 *   sequence e_i, A e_i, A² e_i, … (incremental elimination). A vector already annihilated by the
 *   lcm so far is skipped. No factorization is needed over any field.
 *
 * Polynomials here are dense coefficient arrays, lowest degree first; the monic ones end in 1.
 */
import { JacobianError, type Field } from '@jacobian/shared';
import type { Checkpoint } from './engine.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

/** A univariate polynomial as its coefficients c_0, c_1, …, c_d (c_d ≠ 0; [] is zero). */
export type Coefficients<C> = C[];

function trim<C>(F: Field<C>, p: C[]): C[] {
  let d = p.length;
  while (d > 0 && F.isZero(p[d - 1] as C)) d--;
  return p.slice(0, d);
}

export function polyMul<C>(F: Field<C>, a: readonly C[], b: readonly C[]): C[] {
  if (a.length === 0 || b.length === 0) return [];
  const out = Array.from({ length: a.length + b.length - 1 }, () => F.zero);
  for (let i = 0; i < a.length; i++) {
    if (F.isZero(a[i] as C)) continue;
    for (let j = 0; j < b.length; j++) out[i + j] = F.add(out[i + j] as C, F.mul(a[i] as C, b[j] as C));
  }
  return trim(F, out);
}

/** Quotient and remainder of a by a non-zero b. */
export function polyDivMod<C>(F: Field<C>, a: readonly C[], b: readonly C[]): { quotient: C[]; remainder: C[] } {
  const divisor = trim(F, [...b]);
  if (divisor.length === 0) throw new JacobianError('INTERNAL', 'polynomial division by zero');
  const r = trim(F, [...a]);
  const db = divisor.length - 1;
  const lead = F.inv(divisor[db] as C);
  const quotient = Array.from({ length: Math.max(0, r.length - db) }, () => F.zero);
  for (let k = r.length - 1; k >= db; k--) {
    const c = F.mul(r[k] as C, lead);
    if (F.isZero(c)) continue;
    quotient[k - db] = c;
    for (let j = 0; j <= db; j++) r[k - db + j] = F.sub(r[k - db + j] as C, F.mul(c, divisor[j] as C));
  }
  return { quotient: trim(F, quotient), remainder: trim(F, r.slice(0, db)) };
}

export function makeMonic<C>(F: Field<C>, p: readonly C[]): C[] {
  const t = trim(F, [...p]);
  if (t.length === 0) return t;
  const inverse = F.inv(t[t.length - 1] as C);
  return t.map((c) => F.mul(c, inverse));
}

/** The monic gcd (0 when both are 0). */
export function polyGcd<C>(F: Field<C>, a: readonly C[], b: readonly C[]): C[] {
  let x = trim(F, [...a]);
  let y = trim(F, [...b]);
  while (y.length > 0) [x, y] = [y, polyDivMod(F, x, y).remainder];
  return makeMonic(F, x);
}

/** The monic lcm of two non-zero polynomials. */
export function polyLcm<C>(F: Field<C>, a: readonly C[], b: readonly C[]): C[] {
  return makeMonic(F, polyMul(F, polyDivMod(F, a, polyGcd(F, a, b)).quotient, b));
}

export function polyDerivative<C>(F: Field<C>, p: readonly C[]): C[] {
  return trim(F, p.slice(1).map((c, i) => F.mul(F.fromBigInt(BigInt(i + 1)), c)));
}

function matVec<C>(F: Field<C>, A: readonly (readonly C[])[], v: readonly C[]): C[] {
  return A.map((row) => {
    let s = F.zero;
    for (let j = 0; j < row.length; j++) if (!F.isZero(v[j] as C)) s = F.add(s, F.mul(row[j] as C, v[j] as C));
    return s;
  });
}

/** p(A) v by Horner's rule: d matrix-vector products. */
export function applyPolynomial<C>(F: Field<C>, A: readonly (readonly C[])[], p: readonly C[], v: readonly C[], checkpoint: Checkpoint = NO_CHECKPOINT): C[] {
  let w = v.map(() => F.zero);
  for (let k = p.length - 1; k >= 0; k--) {
    checkpoint();
    w = matVec(F, A, w).map((x, i) => F.add(x, F.mul(p[k] as C, v[i] as C)));
  }
  return w;
}

/**
 * The characteristic polynomial det(x I − A) of a square matrix: Hessenberg reduction by
 * similarity (elimination below the subdiagonal, each row operation mirrored on the columns),
 * then the recurrence p_m = (x − h_mm) p_{m−1} − Σ_{i<m} h_im (h_{i+1,i} ⋯ h_{m,m−1}) p_{i−1}.
 */
export function characteristicPolynomial<C>(F: Field<C>, A: readonly (readonly C[])[], checkpoint: Checkpoint = NO_CHECKPOINT): Coefficients<C> {
  const n = A.length;
  const H = A.map((row) => [...row]);
  const at = (i: number, j: number): C => (H[i] as C[])[j] as C;
  for (let m = 1; m < n - 1; m++) {
    let pivot = -1;
    for (let i = m; i < n; i++) {
      if (!F.isZero(at(i, m - 1))) {
        pivot = i;
        break;
      }
    }
    if (pivot < 0) continue;
    if (pivot !== m) {
      [H[pivot], H[m]] = [H[m] as C[], H[pivot] as C[]];
      for (const row of H) [row[pivot], row[m]] = [row[m] as C, row[pivot] as C];
    }
    const t = at(m, m - 1);
    for (let i = m + 1; i < n; i++) {
      const u = F.div(at(i, m - 1), t);
      if (F.isZero(u)) continue;
      checkpoint();
      // Row i −= u · row m, then column m += u · column i: H ↦ S H S⁻¹ with S = I − u E_im.
      const rowI = H[i] as C[];
      const rowM = H[m] as C[];
      for (let j = 0; j < n; j++) rowI[j] = F.sub(rowI[j] as C, F.mul(u, rowM[j] as C));
      for (const row of H) row[m] = F.add(row[m] as C, F.mul(u, row[i] as C));
    }
  }
  const p: C[][] = [[F.one]];
  for (let m = 1; m <= n; m++) {
    checkpoint();
    // (x − h_mm) p_{m−1}
    const previous = p[m - 1] as C[];
    const next = Array.from({ length: m + 1 }, () => F.zero);
    for (let k = 0; k < previous.length; k++) {
      next[k + 1] = F.add(next[k + 1] as C, previous[k] as C);
      next[k] = F.sub(next[k] as C, F.mul(at(m - 1, m - 1), previous[k] as C));
    }
    let t = F.one;
    for (let i = m - 1; i >= 1; i--) {
      t = F.mul(t, at(i, i - 1));
      if (F.isZero(t)) break;
      const c = F.mul(at(i - 1, m - 1), t);
      if (F.isZero(c)) continue;
      const older = p[i - 1] as C[];
      for (let k = 0; k < older.length; k++) next[k] = F.sub(next[k] as C, F.mul(c, older[k] as C));
    }
    p.push(next);
  }
  return p[n] as C[];
}

/**
 * The local minimal polynomial of v: the monic p of least degree with p(A) v = 0, from the first
 * linear dependence among v, A v, A² v, … found by incremental elimination (each new Krylov
 * vector is reduced against the earlier ones, tracking which combination of powers it is).
 */
export function localMinimalPolynomial<C>(F: Field<C>, A: readonly (readonly C[])[], v: readonly C[], checkpoint: Checkpoint = NO_CHECKPOINT): Coefficients<C> {
  const n = A.length;
  // Reduced vectors r = Σ_j combo_j A^j v, each with a pivot entry normalized to 1 and zero at the earlier pivots.
  const basis: { r: C[]; combo: C[]; pivot: number }[] = [];
  let w = [...v];
  for (let k = 0; k <= n; k++) {
    checkpoint();
    const r = [...w];
    const combo = Array.from({ length: k + 1 }, () => F.zero);
    combo[k] = F.one;
    for (const e of basis) {
      const c = r[e.pivot] as C;
      if (F.isZero(c)) continue;
      for (let j = 0; j < n; j++) r[j] = F.sub(r[j] as C, F.mul(c, e.r[j] as C));
      for (let j = 0; j < e.combo.length; j++) combo[j] = F.sub(combo[j] as C, F.mul(c, e.combo[j] as C));
    }
    const pivot = r.findIndex((x) => !F.isZero(x));
    // Σ combo_j A^j v = 0 with combo_k = 1: the first dependence, so the local minimal polynomial.
    if (pivot < 0) return combo;
    const inverse = F.inv(r[pivot] as C);
    basis.push({ r: r.map((x) => F.mul(x, inverse)), combo: combo.map((x) => F.mul(x, inverse)), pivot });
    w = matVec(F, A, w);
  }
  throw new JacobianError('INTERNAL', 'a Krylov sequence of length n + 1 without a linear dependence');
}

/** The minimal polynomial of a square matrix: lcm of the local minimal polynomials of e_1, …, e_n. */
export function minimalPolynomial<C>(F: Field<C>, A: readonly (readonly C[])[], checkpoint: Checkpoint = NO_CHECKPOINT): Coefficients<C> {
  const n = A.length;
  let m: C[] = [F.one];
  for (let i = 0; i < n; i++) {
    const e = Array.from({ length: n }, (_, j) => (j === i ? F.one : F.zero));
    // Already annihilated: its local minimal polynomial divides m.
    if (m.length > 1 && applyPolynomial(F, A, m, e, checkpoint).every((x) => F.isZero(x))) continue;
    m = polyLcm(F, m, localMinimalPolynomial(F, A, e, checkpoint));
    if (m.length === n + 1) break;
  }
  return m;
}

/** Whether p is square-free (gcd(p, p′) = 1): for a minimal polynomial, exactly when A is diagonalizable over the algebraic closure. */
export function isSquareFree<C>(F: Field<C>, p: readonly C[]): boolean {
  return polyGcd(F, p, polyDerivative(F, p)).length === 1;
}
