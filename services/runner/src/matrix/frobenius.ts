/**
 * The rational canonical (Frobenius) form of a square matrix over a field, with its transform,
 * and the eigenvalues (the factorization of the characteristic polynomial), exactly.
 *
 * Convention: P⁻¹ A P = F = diag(C(d_1), …, C(d_k)), the invariant factors monic, non-constant,
 * d_1 | d_2 | … | d_k (d_k the minimal polynomial, Π d_i the characteristic polynomial), and the
 * companion matrix of x^m + c_{m−1} x^{m−1} + … + c_0 is the m×m matrix with ones on the
 * subdiagonal and last column (−c_0, …, −c_{m−1}): A maps the block's basis vectors
 * v, A v, …, A^{m−1} v each to the next, and A^m v = −Σ c_i A^i v.
 *
 * Algorithm (no factorization): split off one cyclic summand at a time.
 * 1. A maximal vector v, whose local minimal polynomial is the minimal polynomial m of A (deg d):
 *    local minimal polynomials of v and of e_i are merged by the gcd-only coprime splitting
 *    μ_u = α·β, μ_w = γ·δ with gcd(α, γ) = 1 and α γ = lcm, and then (μ_u/α)(A) u + (μ_w/γ)(A) w.
 * 2. W = span(v, …, A^{d−1} v) is invariant. A functional φ with φ(A^i v) = δ_{i,d−1} (i < d)
 *    gives the invariant complement C = {u : φ A^j u = 0, j < d}: φ A^d is a combination of the
 *    φ A^j (m(A) = 0), and the d×d matrix (φ A^{i+j} v) is anti-triangular with ones on the
 *    anti-diagonal, so W ∩ C = 0 and dim C = n − d.
 * 3. Recurse on the restriction of A to C (its minimal polynomial divides m), in the kernel basis
 *    of the rows φ A^j: the restriction is read off the rows of A N at the free coordinates.
 * The summands come largest first; reversing them gives d_1 | … | d_k. O(k n³) field operations.
 * Over Q the local minimal polynomials come from a degree bound modulo a large prime and an exact
 * fraction-free solve, and gcds from the modular gcd over Z: eliminations on rationals grow their
 * fractions far too fast (a random 30×30 integer matrix took 24 s that way).
 */
import { bigGcd, fieldFromSpec, JacobianError, makeRational, RATIONALS, type Field, type Rational } from '@jacobian/shared';
import { applyPolynomial, localMinimalPolynomial, makeMonic, polyDivMod, polyGcd, polyMul } from './characteristic.js';
import { kernelFromRref, type Checkpoint, type LinearAlgebra } from './engine.js';
import { integerPolynomialGcd } from './univariate-factor.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

type Matrix<C> = C[][];

function matVec<C>(F: Field<C>, A: readonly (readonly C[])[], v: readonly C[]): C[] {
  return A.map((row) => {
    let s = F.zero;
    for (let j = 0; j < row.length; j++) if (!F.isZero(v[j] as C)) s = F.add(s, F.mul(row[j] as C, v[j] as C));
    return s;
  });
}

function vecMat<C>(F: Field<C>, u: readonly C[], A: readonly (readonly C[])[]): C[] {
  const n = A[0]?.length ?? 0;
  const out = Array.from({ length: n }, () => F.zero);
  for (let i = 0; i < u.length; i++) {
    const ui = u[i] as C;
    if (F.isZero(ui)) continue;
    const row = A[i] as C[];
    for (let j = 0; j < n; j++) out[j] = F.add(out[j] as C, F.mul(ui, row[j] as C));
  }
  return out;
}

/** A large prime for the degree bound over Q (2^61 − 1). */
const DEGREE_PRIME = (1n << 61n) - 1n;

/**
 * The local minimal polynomial of v over Q without fractions in an incremental elimination: its
 * degree modulo a large prime is a lower bound d (Krylov vectors independent modulo p are
 * independent over Q); then A^d v = Σ c_i A^i v is solved exactly by fraction-free elimination,
 * raising d while there is no solution. The first d with one gives the first dependence.
 */
export function rationalLocalMinimalPolynomial(la: LinearAlgebra<Rational>, A: Matrix<Rational>, v: readonly Rational[], checkpoint: Checkpoint = NO_CHECKPOINT): Rational[] {
  const Q = RATIONALS;
  const n = A.length;
  let d = 0;
  if (![...A.flat(), ...v].some((x) => x.den % DEGREE_PRIME === 0n)) {
    const G = fieldFromSpec({ kind: 'GF', characteristic: DEGREE_PRIME.toString() }) as Field<unknown>;
    d = localMinimalPolynomial(
      G,
      A.map((row) => row.map((x) => G.fromFraction(x.num, x.den))),
      v.map((x) => G.fromFraction(x.num, x.den)),
      checkpoint,
    ).length - 1;
  }
  const krylov: Rational[][] = [[...v]];
  while (krylov.length <= d) krylov.push(matVec(Q, A, krylov[krylov.length - 1] as Rational[]));
  for (; d <= n; d++) {
    checkpoint();
    if (d === 0) {
      if (v.every((x) => Q.isZero(x))) return [Q.one];
      krylov.push(matVec(Q, A, krylov[0] as Rational[]));
      continue;
    }
    const system = Array.from({ length: n }, (_, i) => krylov.slice(0, d).map((k) => k[i] as Rational));
    const solved = la.solve(system, krylov[d] as Rational[]);
    if (solved.consistent) return [...solved.solution.map((c) => Q.neg(c)), Q.one];
    krylov.push(matVec(Q, A, krylov[d] as Rational[]));
  }
  throw new JacobianError('INTERNAL', 'a Krylov sequence of length n + 1 without a linear dependence');
}

/** The monic gcd over Q through the modular gcd of the primitive integer parts. */
function rationalGcd(a: readonly Rational[], b: readonly Rational[], checkpoint: Checkpoint): Rational[] {
  const toInteger = (p: readonly Rational[]): bigint[] => {
    let scale = 1n;
    for (const c of p) scale = (scale / bigGcd(scale, c.den)) * c.den;
    return p.map((c) => (c.num * scale) / c.den);
  };
  return makeMonic(RATIONALS, integerPolynomialGcd(toInteger(a), toInteger(b), checkpoint).map((c) => makeRational(c, 1n)));
}

/** The field's local minimal polynomial and gcd, over Q by the fraction-free and modular methods above. */
function fieldOperations<C>(la: LinearAlgebra<C>, checkpoint: Checkpoint): { local: (A: Matrix<C>, v: C[]) => C[]; gcd: (a: C[], b: C[]) => C[] } {
  const F = la.field;
  if (F.kind === 'Q') {
    const rational = la as unknown as LinearAlgebra<Rational>;
    return {
      local: (A, v) => rationalLocalMinimalPolynomial(rational, A as unknown as Rational[][], v as unknown as Rational[], checkpoint) as unknown as C[],
      gcd: (a, b) => rationalGcd(a as unknown as Rational[], b as unknown as Rational[], checkpoint) as unknown as C[],
    };
  }
  return { local: (A, v) => localMinimalPolynomial(F, A, v, checkpoint), gcd: (a, b) => polyGcd(F, a, b) };
}

/** A vector whose local minimal polynomial is A's minimal polynomial, and that polynomial. */
export function maximalVector<C>(la: LinearAlgebra<C>, A: Matrix<C>, checkpoint: Checkpoint = NO_CHECKPOINT): { vector: C[]; minimal: C[] } {
  const F = la.field;
  const { local, gcd } = fieldOperations(la, checkpoint);
  const n = A.length;
  const unit = (i: number): C[] => Array.from({ length: n }, (_, j) => (j === i ? F.one : F.zero));
  let v = unit(0);
  let mu = local(A, v);
  for (let i = 1; i < n && mu.length - 1 < n; i++) {
    const w = unit(i);
    if (applyPolynomial(F, A, mu, w, checkpoint).every((x) => F.isZero(x))) continue;
    const nu = local(A, w);
    // α | μ, γ | ν, gcd(α, γ) = 1, α γ = lcm(μ, ν): move common parts from α to γ until coprime.
    let alpha = mu;
    let gamma = polyDivMod(F, nu, gcd(mu, nu)).quotient;
    for (let g = gcd(alpha, gamma); g.length > 1; g = gcd(alpha, gamma)) {
      checkpoint();
      alpha = polyDivMod(F, alpha, g).quotient;
      gamma = polyMul(F, gamma, g);
    }
    const u = applyPolynomial(F, A, polyDivMod(F, mu, alpha).quotient, v, checkpoint);
    const x = applyPolynomial(F, A, polyDivMod(F, nu, gamma).quotient, w, checkpoint);
    v = u.map((a, j) => F.add(a, x[j] as C));
    mu = polyMul(F, alpha, gamma);
  }
  return { vector: v, minimal: mu };
}

/** Columns times the one rational c that makes all their entries integers with gcd 1. */
function primitiveColumns(columns: readonly Rational[][]): Rational[][] {
  let lcm = 1n;
  for (const column of columns) for (const x of column) lcm = (lcm / bigGcd(lcm, x.den)) * x.den;
  let gcd = 0n;
  for (const column of columns) for (const x of column) gcd = bigGcd(gcd, (x.num * lcm) / x.den);
  if (gcd === 0n) return columns.map((column) => [...column]);
  return columns.map((column) => column.map((x) => makeRational((x.num * lcm) / x.den / gcd, 1n)));
}

/** The companion matrix of a monic polynomial (coefficients lowest first): ones below the diagonal, last column −c_0, …, −c_{m−1}. */
export function companionMatrix<C>(F: Field<C>, p: readonly C[]): Matrix<C> {
  const m = p.length - 1;
  return Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => (j === m - 1 ? F.neg(p[i] as C) : i === j + 1 ? F.one : F.zero)));
}

export interface FrobeniusForm<C> {
  /** d_1 | d_2 | … | d_k, monic, lowest degree first. */
  invariantFactors: C[][];
  /** F = diag(C(d_1), …, C(d_k)). */
  form: Matrix<C>;
  /** P (rows), invertible, with P⁻¹ A P = F. */
  transform: Matrix<C>;
}

/** The Frobenius form of a square A over a field, with P⁻¹ A P = F (see the file's comment). */
export function frobeniusForm<C>(la: LinearAlgebra<C>, A: readonly (readonly C[])[], checkpoint: Checkpoint = NO_CHECKPOINT): FrobeniusForm<C> {
  const F = la.field;
  const n = A.length;
  // The current invariant subspace: its basis N (columns, n×m, in the original coordinates) and A restricted to it (m×m).
  let basis: Matrix<C> = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? F.one : F.zero)));
  let current: Matrix<C> = A.map((row) => [...row]);
  const summands: { factor: C[]; columns: C[][] }[] = [];
  while (current.length > 0) {
    checkpoint();
    const m = current.length;
    const { vector, minimal } = maximalVector(la, current, checkpoint);
    const d = minimal.length - 1;
    const krylov: C[][] = [vector];
    for (let i = 1; i < d; i++) krylov.push(matVec(F, current, krylov[i - 1] as C[]));
    summands.push({ factor: minimal, columns: krylov.map((k) => matVec(F, basis, k)) });
    if (d === m) break;
    // φ with φ(A^i v) = δ_{i,d−1}: solve K^T φ = e_{d−1}.
    const KT = krylov.map((k) => [...k]);
    const solved = la.solve(
      KT,
      Array.from({ length: d }, (_, i) => (i === d - 1 ? F.one : F.zero)),
    );
    if (!solved.consistent) throw new JacobianError('INTERNAL', 'the Krylov vectors of a maximal vector are dependent');
    const rows: C[][] = [solved.solution];
    for (let j = 1; j < d; j++) rows.push(vecMat(F, rows[j - 1] as C[], current));
    const echelon = la.rref(rows);
    if (echelon.rank !== d) throw new JacobianError('INTERNAL', 'the functionals φ A^j are dependent');
    const kernel = kernelFromRref(F, echelon, m);
    const pivots = new Set(echelon.pivots);
    const free = Array.from({ length: m }, (_, i) => i).filter((i) => !pivots.has(i));
    // A N lies in span(N); its coordinates are its entries at the free positions (N is the identity there).
    const images = kernel.map((k) => matVec(F, current, k));
    const restricted = free.map((r) => images.map((image) => image[r] as C));
    const N = Array.from({ length: m }, (_, i) => kernel.map((k) => k[i] as C));
    basis = basis.map((row) => (N[0] ?? []).map((_, j) => row.reduce((s, a, t) => (F.isZero(a) ? s : F.add(s, F.mul(a, (N[t] as C[])[j] as C))), F.zero)));
    current = restricted;
  }
  summands.reverse();
  // Over Q, scale each block's columns alike (v ↦ c v scales v, A v, … and keeps A P = P F) to integers with gcd 1.
  if (F.kind === 'Q') for (const summand of summands) summand.columns = primitiveColumns(summand.columns as unknown as Rational[][]) as unknown as C[][];
  const invariantFactors = summands.map((s) => s.factor);
  const columns = summands.flatMap((s) => s.columns);
  const transform = Array.from({ length: n }, (_, i) => columns.map((column) => column[i] as C));
  const form: Matrix<C> = Array.from({ length: n }, () => Array.from({ length: n }, () => F.zero));
  let offset = 0;
  for (const factor of invariantFactors) {
    const block = companionMatrix(F, factor);
    block.forEach((row, i) => row.forEach((x, j) => ((form[offset + i] as C[])[offset + j] = x)));
    offset += block.length;
  }
  return { invariantFactors, form, transform };
}
