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
 * Over GF(p) these run directly (the characteristic polynomial for p < 2^26 on plain numbers, in
 * modular-characteristic.ts); over Q (and Z) they run modulo word-size primes and the results
 * are combined by the Chinese remainder theorem with bounds that make them exact
 * (modular-characteristic.ts for the characteristic polynomial, below for the minimal one):
 * rational arithmetic in these eliminations grows fractions too fast (a 30×30 matrix with 64-bit
 * entries took 219 s over Q, 0.1 s multimodular).
 *
 * Polynomials here are dense coefficient arrays, lowest degree first; the monic ones end in 1.
 */
import { bigGcd, fieldFromSpec, JacobianError, makeRational, type Field, type Rational } from '@jacobian/shared';
import type { Checkpoint } from './engine.js';
import { integerCharacteristicPolynomial } from './modular-characteristic.js';
import { ceilSqrt, wordPrime } from './modular.js';

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

/** Vectors in echelon form: each has a pivot entry 1, and is zero at the pivots of the vectors before it. */
type Echelon<C> = { r: C[]; pivot: number }[];

/** x minus its components along an echelon basis: zero exactly when x lies in their span. */
function reduceAgainst<C>(F: Field<C>, basis: Echelon<C>, x: readonly C[], combo?: { combo: C[]; of: C[][] }): C[] {
  const r = [...x];
  basis.forEach((e, index) => {
    const c = r[e.pivot] as C;
    if (F.isZero(c)) return;
    for (let j = 0; j < r.length; j++) r[j] = F.sub(r[j] as C, F.mul(c, e.r[j] as C));
    if (combo !== undefined) {
      const other = combo.of[index] as C[];
      for (let j = 0; j < other.length; j++) combo.combo[j] = F.sub(combo.combo[j] as C, F.mul(c, other[j] as C));
    }
  });
  return r;
}

/**
 * The Krylov space of v and its local minimal polynomial (the monic p of least degree with
 * p(A) v = 0), from the first linear dependence among v, A v, A² v, … found by incremental
 * elimination (each new Krylov vector is reduced against the earlier ones, tracking which
 * combination of powers it is).
 */
function krylov<C>(F: Field<C>, A: readonly (readonly C[])[], v: readonly C[], checkpoint: Checkpoint): { polynomial: C[]; basis: Echelon<C> } {
  const n = A.length;
  // Reduced vectors r = Σ_j combos_j A^j v, in echelon form.
  const basis: Echelon<C> = [];
  const combos: C[][] = [];
  let w = [...v];
  for (let k = 0; k <= n; k++) {
    checkpoint();
    const combo = Array.from({ length: k + 1 }, () => F.zero);
    combo[k] = F.one;
    const r = reduceAgainst(F, basis, w, { combo, of: combos });
    const pivot = r.findIndex((x) => !F.isZero(x));
    // Σ combo_j A^j v = 0 with combo_k = 1: the first dependence, so the local minimal polynomial.
    if (pivot < 0) return { polynomial: combo, basis };
    const inverse = F.inv(r[pivot] as C);
    basis.push({ r: r.map((x) => F.mul(x, inverse)), pivot });
    combos.push(combo.map((x) => F.mul(x, inverse)));
    w = matVec(F, A, w);
  }
  throw new JacobianError('INTERNAL', 'a Krylov sequence of length n + 1 without a linear dependence');
}

/** The local minimal polynomial of v: the monic p of least degree with p(A) v = 0. */
export function localMinimalPolynomial<C>(F: Field<C>, A: readonly (readonly C[])[], v: readonly C[], checkpoint: Checkpoint = NO_CHECKPOINT): Coefficients<C> {
  return krylov(F, A, v, checkpoint).polynomial;
}

/**
 * The minimal polynomial of a square matrix: lcm of the local minimal polynomials of e_1, …, e_n.
 * A vector in the sum K of the Krylov spaces already seen is skipped: m, the lcm so far, kills each
 * of those spaces, so it kills the vector and the vector's local minimal polynomial divides m.
 * Membership in K is one reduction against an echelon basis (O(n·dim K)), not an evaluation of
 * m(A) e_i (deg m matrix-vector products); once K is everything, the rest is skipped.
 */
export function minimalPolynomial<C>(F: Field<C>, A: readonly (readonly C[])[], checkpoint: Checkpoint = NO_CHECKPOINT): Coefficients<C> {
  const n = A.length;
  let m: C[] = [F.one];
  const span: Echelon<C> = [];
  for (let i = 0; i < n && span.length < n; i++) {
    const e = Array.from({ length: n }, (_, j) => (j === i ? F.one : F.zero));
    if (reduceAgainst(F, span, e).every((x) => F.isZero(x))) continue;
    const { polynomial, basis } = krylov(F, A, e, checkpoint);
    m = polyLcm(F, m, polynomial);
    if (m.length === n + 1) break;
    for (const b of basis) {
      checkpoint();
      const r = reduceAgainst(F, span, b.r);
      const pivot = r.findIndex((x) => !F.isZero(x));
      if (pivot < 0) continue;
      const inverse = F.inv(r[pivot] as C);
      span.push({ r: r.map((x) => F.mul(x, inverse)), pivot });
    }
  }
  return m;
}

/** Whether p is square-free (gcd(p, p′) = 1): for a minimal polynomial, exactly when A is diagonalizable over the algebraic closure. */
export function isSquareFree<C>(F: Field<C>, p: readonly C[]): boolean {
  return polyGcd(F, p, polyDerivative(F, p)).length === 1;
}

// ---------------------------------------------------------------------------------------------
// Over Q: multimodular. Rational arithmetic in the Hessenberg and Krylov eliminations grows
// fractions fast; instead A is scaled to an integer matrix B = s·A, the polynomials of B are
// computed modulo word-size primes and combined by the Chinese remainder theorem, with bounds
// that make the result exact, and scaled back: if B = s·A then χ_A(x) = s^{−n} χ_B(s x).

/** The integer matrix s·A for s the lcm of A's denominators, and s. */
function integerScaled(A: readonly (readonly Rational[])[]): { B: bigint[][]; scale: bigint } {
  let scale = 1n;
  for (const row of A) for (const a of row) if (a.den !== 1n) scale = (scale / bigGcd(scale, a.den)) * a.den;
  return { B: A.map((row) => row.map((a) => (a.num * scale) / a.den)), scale };
}

/** Coefficient k of p_B scaled back to A: c_k / s^{d−k}. */
function scaleBack(coefficients: readonly bigint[], scale: bigint): Rational[] {
  const d = coefficients.length - 1;
  return coefficients.map((c, k) => makeRational(c, scale ** BigInt(d - k)));
}

function powMod(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if ((e & 1n) === 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
  }
  return result;
}

/** One step of the Chinese remainder theorem: x mod m and r mod p give x mod m·p (symmetric range is taken at the end). */
function crtStep(x: bigint, m: bigint, r: bigint, p: bigint): bigint {
  const mInverse = powMod(m % p, p - 2n, p);
  const t = ((((r - x) % p) + p) % p) * mInverse % p;
  return x + m * t;
}

function symmetric(x: bigint, m: bigint): bigint {
  return x > m / 2n ? x - m : x;
}

function reduceModP(B: readonly (readonly bigint[])[], p: bigint): { F: Field<unknown>; A: unknown[][] } {
  const F = fieldFromSpec({ kind: 'GF', characteristic: p.toString() }) as Field<unknown>;
  return { F, A: B.map((row) => row.map((b) => F.fromBigInt(b))) };
}

function residues(F: Field<unknown>, p: readonly unknown[]): bigint[] {
  return p.map((c) => BigInt(F.format(c)));
}

/**
 * The characteristic polynomial of a rational matrix: that of the integer matrix B = s·A by
 * {@link integerCharacteristicPolynomial} (modulo word-size primes, combined by the Chinese
 * remainder theorem up to a Hadamard bound on its coefficients), scaled back.
 */
export function rationalCharacteristicPolynomial(A: readonly (readonly Rational[])[], checkpoint: Checkpoint = NO_CHECKPOINT): Rational[] {
  const { B, scale } = integerScaled(A);
  return scaleBack(integerCharacteristicPolynomial(B, checkpoint), scale);
}

/**
 * Whether a rational polynomial of degree d ≥ 1 is square-free, without rational gcds (whose
 * coefficients explode: a 50×50 characteristic polynomial took minutes). With f = L·p integral
 * (L the lcm of the denominators), f is square-free iff R = Res(f, f′) ≠ 0, and for a prime
 * q ∤ lc(f), gcd(f mod q, f′ mod q) = 1 iff q ∤ R. So one prime with coprime reductions proves
 * square-free; if the reductions share a factor modulo primes whose product exceeds 2·|R|, bounded
 * by Hadamard on the Sylvester matrix (|R| ≤ ‖f‖^{d−1} ‖f′‖^d), then R = 0 and f is not.
 */
export function rationalIsSquareFree(p: readonly Rational[], checkpoint: Checkpoint = NO_CHECKPOINT): boolean {
  const d = p.length - 1;
  if (d <= 1) return true;
  let L = 1n;
  for (const c of p) L = (L / bigGcd(L, c.den)) * c.den;
  const f = p.map((c) => (c.num * L) / c.den);
  const derivative = f.slice(1).map((c, i) => c * BigInt(i + 1));
  const norm = (g: readonly bigint[]): bigint => ceilSqrt(g.reduce((sum, c) => sum + c * c, 0n));
  const target = 2n * norm(f) ** BigInt(d - 1) * norm(derivative) ** BigInt(d);
  const lead = f[d] as bigint;
  let product = 1n;
  for (let i = 0; product <= target; i++) {
    checkpoint();
    const q = BigInt(wordPrime(i));
    if (lead % q === 0n) continue;
    const F = fieldFromSpec({ kind: 'GF', characteristic: q.toString() }) as Field<unknown>;
    if (polyGcd(F, f.map((c) => F.fromBigInt(c)), derivative.map((c) => F.fromBigInt(c))).length === 1) return true;
    product *= q;
  }
  return false;
}

/**
 * The minimal polynomial of a rational matrix, multimodular, with a proof of exactness that needs
 * no extra matrix arithmetic. For the integer matrix B, minpoly_p(B mod p) divides
 * (minpoly_Q mod p), so deg minpoly_Q ≥ the largest degree D seen modulo any prime (primes of
 * lower degree are unlucky and skipped). The candidate m, combined by the Chinese remainder
 * theorem from the primes of degree D, is ≡ minpoly_p modulo each, so m(B) ≡ 0 modulo their
 * product P; once P > 2 Σ_k |m_k| (n·max|B_ij|)^k, which bounds the entries of m(B), m(B) = 0
 * over Z. Then minpoly_Q divides m, and having degree ≥ D = deg m, equals it. When D = n, minpoly_Q
 * (degree ≥ n, dividing the characteristic polynomial) is the characteristic polynomial, computed
 * by the faster multimodular routine.
 */
export function rationalMinimalPolynomial(A: readonly (readonly Rational[])[], checkpoint: Checkpoint = NO_CHECKPOINT): Rational[] {
  const n = A.length;
  const { B, scale } = integerScaled(A);
  let maxEntry = 0n;
  for (const row of B) for (const b of row) if ((b < 0n ? -b : b) > maxEntry) maxEntry = b < 0n ? -b : b;
  const growth = BigInt(n) * maxEntry;
  let degree = -1;
  let modulus = 1n;
  let x: bigint[] = [];
  for (let i = 0; ; i++) {
    checkpoint();
    const p = BigInt(wordPrime(i));
    const reduced = reduceModP(B, p);
    const m = minimalPolynomial(reduced.F, reduced.A, checkpoint);
    const d = m.length - 1;
    // Degree n modulo one prime: the minimal polynomial over Q has degree ≥ n and divides the
    // characteristic polynomial, so it is the characteristic polynomial (the usual, cyclic case).
    if (d === n) return scaleBack(integerCharacteristicPolynomial(B, checkpoint), scale);
    if (d < degree) continue;
    if (d > degree) {
      degree = d;
      modulus = 1n;
      x = Array.from({ length: d + 1 }, () => 0n);
    }
    const r = residues(reduced.F, m);
    x = x.map((xi, k) => crtStep(xi, modulus, r[k] as bigint, p));
    modulus *= p;
    const candidate = x.map((xi) => symmetric(xi, modulus));
    let entryBound = 0n;
    let power = 1n;
    for (const c of candidate) {
      entryBound += (c < 0n ? -c : c) * power;
      power *= growth;
    }
    if (modulus > 2n * entryBound) return scaleBack(candidate, scale);
  }
}
