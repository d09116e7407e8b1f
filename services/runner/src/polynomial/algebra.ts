/**
 * Our TypeScript polynomial algebra beyond Groebner bases, on the shared reference arithmetic:
 *
 * - exact division (the quotient when the divisor divides, else null), valid in any monomial
 *   order: if q·h = p then lt(p) = lt(q)·lt(h), so peeling leading terms finds h;
 * - gcd: Euclid for univariate input; for multivariate input the subresultant polynomial
 *   remainder sequence in the main variable, contents by recursion on the other variables;
 * - the normal form of a gcd: monic over GF(p), primitive with integer coefficients and a
 *   positive leading coefficient over Q (leading in the ring's order);
 * - the resultant with respect to one variable: the determinant of the Sylvester matrix, whose
 *   entries are polynomials in the other variables, by fraction-free Bareiss elimination (every
 *   division is exact; Bareiss 1968);
 * - division with quotients (f = Σ q_k·b_k + r), which turns a Groebner basis with cofactors into
 *   an ideal membership certificate.
 */
import { bigGcd, JacobianError, makeRational, MonomialOrder, type Polynomial, type PolynomialRing, type PolynomialTerm, type Rational } from '@jacobian/shared';

/** Called now and then during long computations; throw from it to stop. */
export type Checkpoint = () => void;

const noop: Checkpoint = () => {};

/** The quotient p / q when q divides p exactly; null when it does not. q must not be zero. */
export function exactQuotient<C>(R: PolynomialRing<C>, p: Polynomial<C>, q: Polynomial<C>, checkpoint: Checkpoint = noop): Polynomial<C> | null {
  const lead = R.leadingTerm(q);
  const F = R.field;
  const quotient: PolynomialTerm<C>[] = [];
  let rest = p;
  let steps = 0;
  while (rest.length > 0) {
    if (++steps % 64 === 0) checkpoint();
    const t = rest[0] as PolynomialTerm<C>;
    const m = new Int32Array(R.arity);
    for (let i = 0; i < R.arity; i++) {
      const e = (t.monomial[i] as number) - (lead.monomial[i] as number);
      if (e < 0) return null;
      m[i] = e;
    }
    const c = F.div(t.coefficient, lead.coefficient);
    quotient.push({ monomial: m, coefficient: c });
    rest = R.sub(rest, R.mulTerm(q, m, c));
  }
  return quotient;
}

/** The variables (indices) that occur in any of the polynomials. */
export function variablesUsed<C>(R: PolynomialRing<C>, polynomials: readonly Polynomial<C>[]): number[] {
  const used = new Set<number>();
  for (const p of polynomials) for (const t of p) for (let i = 0; i < R.arity; i++) if ((t.monomial[i] as number) > 0) used.add(i);
  return [...used].sort((a, b) => a - b);
}

/**
 * The normal form of a gcd (or factor): monic over GF(p); over Q, integer coefficients with gcd 1
 * and a positive leading coefficient. Zero stays zero.
 */
export function normalizeAssociate<C>(R: PolynomialRing<C>, p: Polynomial<C>): Polynomial<C> {
  if (p.length === 0) return p;
  const monic = R.monic(p);
  if (R.field.kind !== 'Q') return monic;
  // Over Q: multiply the monic form by the lcm of the denominators, divide by the content.
  const terms = monic as unknown as readonly PolynomialTerm<Rational>[];
  let lcm = 1n;
  for (const t of terms) lcm = (lcm / bigGcd(lcm, t.coefficient.den)) * t.coefficient.den;
  const integers = terms.map((t) => (t.coefficient.num * lcm) / t.coefficient.den);
  let content = 0n;
  for (const n of integers) content = bigGcd(content, n);
  const out = terms.map((t, i) => ({ monomial: t.monomial, coefficient: makeRational((integers[i] as bigint) / content, 1n) }));
  return out as unknown as Polynomial<C>;
}

/** Euclid's algorithm on polynomials in the one variable `v` (every term's other exponents are 0). */
function univariateGcd<C>(R: PolynomialRing<C>, f: Polynomial<C>, g: Polynomial<C>, v: number, checkpoint: Checkpoint): Polynomial<C> {
  // Univariate in v: every order sorts by the exponent of v, so the leading term is the top degree.
  const lex = R.withOrder(MonomialOrder.LEX);
  let a = lex.convert(f);
  let b = lex.convert(g);
  while (b.length > 0) {
    checkpoint();
    const lead = lex.leadingTerm(b);
    let r = a;
    while (r.length > 0 && ((r[0] as PolynomialTerm<C>).monomial[v] as number) >= (lead.monomial[v] as number)) {
      const t = r[0] as PolynomialTerm<C>;
      const m = new Int32Array(R.arity);
      m[v] = (t.monomial[v] as number) - (lead.monomial[v] as number);
      r = lex.sub(r, lex.mulTerm(b, m, R.field.div(t.coefficient, lead.coefficient)));
    }
    a = b;
    b = r;
  }
  return R.convert(a);
}

/** The coefficient of the highest power of v in p (free of v). */
function leadingCoefficientIn<C>(R: PolynomialRing<C>, p: Polynomial<C>, v: number): Polynomial<C> {
  return coefficientsIn(R, p, v).at(-1) ?? [];
}

/** The content of p as a polynomial in v: the gcd of its coefficients (polynomials free of v). */
function contentIn<C>(R: PolynomialRing<C>, p: Polynomial<C>, v: number, checkpoint: Checkpoint): Polynomial<C> {
  let c: Polynomial<C> = [];
  for (const coefficient of coefficientsIn(R, p, v)) {
    if (coefficient.length === 0) continue;
    c = normalizeAssociate(R, recursiveGcd(R, c, coefficient, checkpoint));
    if (R.degree(c) === 0) break;
  }
  return c;
}

/** p divided by its content in v. */
function primitivePartIn<C>(R: PolynomialRing<C>, p: Polynomial<C>, v: number, checkpoint: Checkpoint): Polynomial<C> {
  const quotient = exactQuotient(R, p, contentIn(R, p, v, checkpoint), checkpoint);
  if (quotient === null) throw new JacobianError('INTERNAL', 'a polynomial is not divisible by its content');
  return normalizeAssociate(R, quotient);
}

/** prem_v(a, b) = lc_v(b)^(deg_v a − deg_v b + 1)·a mod b, the exact pseudo-remainder (deg_v a ≥ deg_v b). */
function pseudoRemainder<C>(R: PolynomialRing<C>, a: Polynomial<C>, b: Polynomial<C>, v: number, checkpoint: Checkpoint): Polynomial<C> {
  const db = degreeIn(b, v);
  const lcb = leadingCoefficientIn(R, b, v);
  let r = a;
  let steps = degreeIn(a, v) - db + 1;
  while (r.length > 0 && degreeIn(r, v) >= db) {
    checkpoint();
    const shift = R.unitMonomial();
    shift[v] = degreeIn(r, v) - db;
    r = R.sub(R.mul(lcb, r), R.mul(R.mulTerm(leadingCoefficientIn(R, r, v), shift, R.field.one), b));
    steps--;
  }
  for (; steps > 0 && r.length > 0; steps--) r = R.mul(lcb, r);
  return r;
}

function exactly<C>(R: PolynomialRing<C>, p: Polynomial<C>, q: Polynomial<C>, checkpoint: Checkpoint): Polynomial<C> {
  const quotient = exactQuotient(R, p, q, checkpoint);
  if (quotient === null) throw new JacobianError('INTERNAL', 'a subresultant step did not divide exactly');
  return quotient;
}

/**
 * The gcd over K[x1, …, xn] by the subresultant polynomial remainder sequence in the main
 * variable v (Collins 1967, Brown 1971; Knuth, TAOCP vol. 2, §4.6.1, Algorithm C): with contents
 * computed recursively in the other variables, gcd = gcd(cont f, cont g) · pp(last non-zero
 * remainder of the sequence of pp f, pp g). The subresultant divisions (all exact) keep the
 * coefficients of the sequence small without a content computation per step.
 */
function recursiveGcd<C>(R: PolynomialRing<C>, f: Polynomial<C>, g: Polynomial<C>, checkpoint: Checkpoint): Polynomial<C> {
  if (f.length === 0) return g;
  if (g.length === 0) return f;
  const used = variablesUsed(R, [f, g]);
  if (used.length === 0) return R.one();
  if (used.length === 1) return univariateGcd(R, f, g, used[0] as number, checkpoint);
  const v = used[0] as number;
  const contentGcd = normalizeAssociate(R, recursiveGcd(R, contentIn(R, f, v, checkpoint), contentIn(R, g, v, checkpoint), checkpoint));
  let a = primitivePartIn(R, f, v, checkpoint);
  let b = primitivePartIn(R, g, v, checkpoint);
  if (degreeIn(a, v) < degreeIn(b, v)) [a, b] = [b, a];
  // A primitive polynomial of degree 0 in v is a unit: the primitive parts are coprime.
  if (degreeIn(b, v) === 0) return contentGcd;
  let gg: Polynomial<C> = R.one();
  let h: Polynomial<C> = R.one();
  for (;;) {
    const d = degreeIn(a, v) - degreeIn(b, v);
    const r = pseudoRemainder(R, a, b, v, checkpoint);
    if (r.length === 0) return R.mul(contentGcd, primitivePartIn(R, b, v, checkpoint));
    if (degreeIn(r, v) === 0) return contentGcd;
    a = b;
    b = exactly(R, r, R.mul(gg, R.pow(h, d)), checkpoint);
    gg = leadingCoefficientIn(R, a, v);
    // h <- g^d / h^(d-1), exact.
    h = d === 0 ? h : d === 1 ? gg : exactly(R, R.pow(gg, d), R.pow(h, d - 1), checkpoint);
  }
}

/** How a gcd was found. */
export type GcdMethod = 'euclid' | 'recursive-prs';

/** The normalized gcd of a list of polynomials (zero when all are zero), and the method used for it. */
export function polynomialGcd<C>(R: PolynomialRing<C>, polynomials: readonly Polynomial<C>[], checkpoint: Checkpoint = noop): { gcd: Polynomial<C>; method: GcdMethod } {
  const method: GcdMethod = variablesUsed(R, polynomials).length <= 1 ? 'euclid' : 'recursive-prs';
  let g: Polynomial<C> = [];
  for (const p of polynomials) {
    g = normalizeAssociate(R, recursiveGcd(R, g, p, checkpoint));
    if (g.length === 1 && g[0] !== undefined && g[0].monomial.every((e) => e === 0)) break;
  }
  return { gcd: normalizeAssociate(R, g), method };
}

/** Degree of p in variable v; -1 for zero. */
export function degreeIn<C>(p: Polynomial<C>, v: number): number {
  let d = -1;
  for (const t of p) d = Math.max(d, t.monomial[v] as number);
  return d;
}

/** The coefficients of p as a polynomial in variable v: result[k] multiplies v^k (free of v). */
function coefficientsIn<C>(R: PolynomialRing<C>, p: Polynomial<C>, v: number): Polynomial<C>[] {
  const d = degreeIn(p, v);
  const buckets: PolynomialTerm<C>[][] = Array.from({ length: d + 1 }, () => []);
  for (const t of p) {
    const m = t.monomial.slice();
    const k = m[v] as number;
    m[v] = 0;
    (buckets[k] as PolynomialTerm<C>[]).push({ monomial: m, coefficient: t.coefficient });
  }
  return buckets.map((terms) => R.fromTerms(terms));
}

/** Largest Sylvester matrix (deg f + deg g) the TypeScript resultant builds. */
export const MAX_SYLVESTER_SIZE = 200;

/**
 * The resultant of f and g with respect to variable v: det of the Sylvester matrix (n rows of
 * f's coefficients, then m rows of g's, m = deg_v f, n = deg_v g), by fraction-free Bareiss
 * elimination. Zero when either is zero; a^n when deg_v f = 0 and f = a (and symmetrically).
 */
export function polynomialResultant<C>(R: PolynomialRing<C>, f: Polynomial<C>, g: Polynomial<C>, v: number, checkpoint: Checkpoint = noop): Polynomial<C> {
  if (f.length === 0 || g.length === 0) return [];
  const m = degreeIn(f, v);
  const n = degreeIn(g, v);
  const size = m + n;
  if (size === 0) return R.one();
  if (size > MAX_SYLVESTER_SIZE) {
    throw new JacobianError('INVALID_REQUEST', `payload.f, payload.g: the Sylvester matrix would be ${size}×${size}, above the limit of ${MAX_SYLVESTER_SIZE} for the TypeScript resultant (limits.max_sylvester_size)`, {
      path: ['payload', 'g'],
      data: { rule: 'max_sylvester_size', limit: MAX_SYLVESTER_SIZE, size },
    });
  }
  const cf = coefficientsIn(R, f, v).reverse();
  const cg = coefficientsIn(R, g, v).reverse();
  const M: Polynomial<C>[][] = [];
  for (let i = 0; i < n; i++) M.push(Array.from({ length: size }, (_, j) => (j >= i && j - i <= m ? (cf[j - i] as Polynomial<C>) : [])));
  for (let i = 0; i < m; i++) M.push(Array.from({ length: size }, (_, j) => (j >= i && j - i <= n ? (cg[j - i] as Polynomial<C>) : [])));
  return bareissDeterminant(R, M, checkpoint);
}

/** det M for a square matrix of polynomials, fraction-free: every division is exact. */
export function bareissDeterminant<C>(R: PolynomialRing<C>, matrix: Polynomial<C>[][], checkpoint: Checkpoint = noop): Polynomial<C> {
  const M = matrix.map((row) => [...row]);
  const size = M.length;
  let sign = 1;
  let previous: Polynomial<C> = R.one();
  for (let k = 0; k < size - 1; k++) {
    checkpoint();
    if ((M[k] as Polynomial<C>[])[k]?.length === 0) {
      const swap = M.findIndex((row, i) => i > k && (row[k] as Polynomial<C>).length > 0);
      if (swap < 0) return [];
      [M[k], M[swap]] = [M[swap] as Polynomial<C>[], M[k] as Polynomial<C>[]];
      sign = -sign;
    }
    const rowK = M[k] as Polynomial<C>[];
    const pivot = rowK[k] as Polynomial<C>;
    for (let i = k + 1; i < size; i++) {
      const rowI = M[i] as Polynomial<C>[];
      const a = rowI[k] as Polynomial<C>;
      for (let j = k + 1; j < size; j++) {
        checkpoint();
        const numerator = R.sub(R.mul(rowI[j] as Polynomial<C>, pivot), R.mul(a, rowK[j] as Polynomial<C>));
        const q = exactQuotient(R, numerator, previous, checkpoint);
        if (q === null) throw new JacobianError('INTERNAL', 'a Bareiss step did not divide exactly');
        rowI[j] = q;
      }
      rowI[k] = [];
    }
    previous = pivot;
  }
  const det = (M[size - 1] as Polynomial<C>[])[size - 1] as Polynomial<C>;
  return sign < 0 ? R.neg(det) : det;
}

/**
 * Division with quotients: f = Σ_k quotients[k]·divisors[k] + remainder, the remainder having no
 * term divisible by a leading monomial of the divisors (the first divisor whose leading monomial
 * divides a term is used). For a Groebner basis the remainder is the normal form of f.
 */
export function divideWithQuotients<C>(
  R: PolynomialRing<C>,
  f: Polynomial<C>,
  divisors: readonly Polynomial<C>[],
  checkpoint: Checkpoint = noop,
): { quotients: Polynomial<C>[]; remainder: Polynomial<C> } {
  const F = R.field;
  const quotients: PolynomialTerm<C>[][] = divisors.map(() => []);
  const remainder: PolynomialTerm<C>[] = [];
  let p = f;
  let steps = 0;
  while (p.length > 0) {
    if (++steps % 64 === 0) checkpoint();
    const t = p[0] as PolynomialTerm<C>;
    const k = divisors.findIndex((d) => d.length > 0 && R.leadingTerm(d).monomial.every((e, i) => e <= (t.monomial[i] as number)));
    if (k < 0) {
      remainder.push(t);
      p = p.slice(1);
      continue;
    }
    const d = divisors[k] as Polynomial<C>;
    const lead = R.leadingTerm(d);
    const m = t.monomial.map((e, i) => e - (lead.monomial[i] as number));
    const c = F.div(t.coefficient, lead.coefficient);
    (quotients[k] as PolynomialTerm<C>[]).push({ monomial: m, coefficient: c });
    p = R.sub(p, R.mulTerm(d, m, c));
  }
  // Quotient terms come out in decreasing order already; fromTerms re-sorts defensively.
  return { quotients: quotients.map((q) => R.fromTerms(q)), remainder };
}

/**
 * Ideal membership of f in <G> from a Groebner basis B of <G> with cofactors C (B[k] = Σ_j
 * C[k][j]·G[j]): divide f by B; a zero remainder gives f = Σ_j (Σ_k q_k·C[k][j])·G[j].
 */
export function membershipFromBasis<C>(
  R: PolynomialRing<C>,
  f: Polynomial<C>,
  generatorCount: number,
  basis: readonly Polynomial<C>[],
  cofactors: readonly (readonly Polynomial<C>[])[],
  checkpoint: Checkpoint = noop,
): { member: true; cofactors: Polynomial<C>[] } | { member: false; remainder: Polynomial<C> } {
  const { quotients, remainder } = divideWithQuotients(R, f, basis, checkpoint);
  if (remainder.length > 0) return { member: false, remainder };
  const out: Polynomial<C>[] = Array.from({ length: generatorCount }, () => []);
  quotients.forEach((q, k) => {
    if (q.length === 0) return;
    const row = cofactors[k] ?? [];
    for (let j = 0; j < generatorCount; j++) {
      checkpoint();
      const c = row[j] ?? [];
      if (c.length > 0) out[j] = R.add(out[j] as Polynomial<C>, R.mul(q, c));
    }
  });
  return { member: true, cofactors: out };
}
