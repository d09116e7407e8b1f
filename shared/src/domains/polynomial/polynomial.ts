/**
 * Sparse distributed polynomials over an exact field, with the monomial orders lex, grlex and
 * grevlex over a stated variable order (the first variable is the largest).
 *
 * A polynomial is an array of terms sorted strictly decreasing under the ring's order, with no
 * zero coefficients; every operation here returns that normal shape, so equal polynomials are
 * equal arrays and printing is canonical. This is the reference arithmetic shared by parsers,
 * checkers and tests; the runner's Groebner engine keeps its own packed representation for speed.
 */
import { z } from 'zod';
import { JacobianError } from '../../errors.js';
import type { Field } from './field.js';
import { POLYNOMIAL_LIMITS } from './limits.js';

/** The monomial orders, as Singular names them: lex `lp`, grlex `Dp`, grevlex `dp`. */
export const MonomialOrder = {
  LEX: 'lex',
  GRLEX: 'grlex',
  GREVLEX: 'grevlex',
} as const;
export type MonomialOrder = (typeof MonomialOrder)[keyof typeof MonomialOrder];
export const MonomialOrderSchema = z
  .enum([MonomialOrder.LEX, MonomialOrder.GRLEX, MonomialOrder.GREVLEX])
  .describe('lex; grlex (total degree, then lex); grevlex (total degree, then reverse lex); the first variable is the largest');

/** Exponent vector, one entry per ring variable, in the ring's variable order. */
export type Monomial = Int32Array;

/** One term: coefficient times monomial; the coefficient is never zero inside a polynomial. */
export interface PolynomialTerm<C> {
  readonly monomial: Monomial;
  readonly coefficient: C;
}

/** Terms sorted strictly decreasing under the ring's order, without zero coefficients. */
export type Polynomial<C> = readonly PolynomialTerm<C>[];

export function totalDegree(m: Monomial): number {
  let d = 0;
  for (let i = 0; i < m.length; i++) d += m[i] as number;
  return d;
}

function compareLex(a: Monomial, b: Monomial): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d > 0 ? 1 : -1;
  }
  return 0;
}

function compareGrlex(a: Monomial, b: Monomial): number {
  const d = totalDegree(a) - totalDegree(b);
  if (d !== 0) return d > 0 ? 1 : -1;
  return compareLex(a, b);
}

function compareGrevlex(a: Monomial, b: Monomial): number {
  const d = totalDegree(a) - totalDegree(b);
  if (d !== 0) return d > 0 ? 1 : -1;
  for (let i = a.length - 1; i >= 0; i--) {
    const e = (a[i] as number) - (b[i] as number);
    if (e !== 0) return e < 0 ? 1 : -1;
  }
  return 0;
}

/** The comparison of an order: positive when `a` is larger. */
export function monomialComparator(order: MonomialOrder): (a: Monomial, b: Monomial) => number {
  switch (order) {
    case MonomialOrder.LEX:
      return compareLex;
    case MonomialOrder.GRLEX:
      return compareGrlex;
    case MonomialOrder.GREVLEX:
      return compareGrevlex;
  }
}

/** True if `a` divides `b`. */
export function monomialDivides(a: Monomial, b: Monomial): boolean {
  for (let i = 0; i < a.length; i++) if ((a[i] as number) > (b[i] as number)) return false;
  return true;
}

export function monomialLcm(a: Monomial, b: Monomial): Monomial {
  const out = new Int32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = Math.max(a[i] as number, b[i] as number);
  return out;
}

export function monomialProduct(a: Monomial, b: Monomial): Monomial {
  const out = new Int32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i] as number) + (b[i] as number);
  return out;
}

/** b / a, for a dividing b. */
export function monomialQuotient(b: Monomial, a: Monomial): Monomial {
  const out = new Int32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (b[i] as number) - (a[i] as number);
  return out;
}

export function monomialsCoprime(a: Monomial, b: Monomial): boolean {
  for (let i = 0; i < a.length; i++) if ((a[i] as number) > 0 && (b[i] as number) > 0) return false;
  return true;
}

export function monomialEquals(a: Monomial, b: Monomial): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sizeError(message: string): JacobianError {
  return new JacobianError('INVALID_REQUEST', message, { data: { rule: 'size' } });
}

/**
 * A polynomial ring K[x1, …, xn] with a monomial order. All operations are pure functions of
 * their arguments; the ring only fixes the field, the variables and the order.
 */
export class PolynomialRing<C> {
  readonly compare: (a: Monomial, b: Monomial) => number;
  readonly arity: number;

  constructor(
    readonly field: Field<C>,
    readonly variables: readonly string[],
    readonly order: MonomialOrder,
  ) {
    this.compare = monomialComparator(order);
    this.arity = variables.length;
  }

  /** The same field and variables under another order. */
  withOrder(order: MonomialOrder): PolynomialRing<C> {
    return new PolynomialRing(this.field, this.variables, order);
  }

  unitMonomial(): Monomial {
    return new Int32Array(this.arity);
  }

  zero(): Polynomial<C> {
    return [];
  }

  constant(c: C): Polynomial<C> {
    return this.field.isZero(c) ? [] : [{ monomial: this.unitMonomial(), coefficient: c }];
  }

  one(): Polynomial<C> {
    return this.constant(this.field.one);
  }

  /** The i-th variable (0-based). */
  variable(index: number): Polynomial<C> {
    const m = this.unitMonomial();
    m[index] = 1;
    return [{ monomial: m, coefficient: this.field.one }];
  }

  /** A polynomial from arbitrary terms: sorts, merges equal monomials, drops zeros. */
  fromTerms(terms: Iterable<PolynomialTerm<C>>): Polynomial<C> {
    const map = new Map<string, { monomial: Monomial; coefficient: C }>();
    const F = this.field;
    for (const t of terms) {
      const key = t.monomial.join(',');
      const seen = map.get(key);
      if (seen) seen.coefficient = F.add(seen.coefficient, t.coefficient);
      else map.set(key, { monomial: t.monomial, coefficient: t.coefficient });
    }
    const out: PolynomialTerm<C>[] = [];
    for (const t of map.values()) if (!F.isZero(t.coefficient)) out.push(t);
    out.sort((a, b) => this.compare(b.monomial, a.monomial));
    return out;
  }

  /** Re-sort a polynomial of another ring with the same field and variables under this order. */
  convert(p: Polynomial<C>): Polynomial<C> {
    return [...p].sort((a, b) => this.compare(b.monomial, a.monomial));
  }

  isZero(p: Polynomial<C>): boolean {
    return p.length === 0;
  }

  equals(p: Polynomial<C>, q: Polynomial<C>): boolean {
    if (p.length !== q.length) return false;
    for (let i = 0; i < p.length; i++) {
      const a = p[i] as PolynomialTerm<C>;
      const b = q[i] as PolynomialTerm<C>;
      if (!monomialEquals(a.monomial, b.monomial) || !this.field.equals(a.coefficient, b.coefficient)) return false;
    }
    return true;
  }

  /** p + s·q, by one merge of the two sorted term lists. */
  private combine(p: Polynomial<C>, q: Polynomial<C>, negate: boolean): Polynomial<C> {
    const F = this.field;
    const out: PolynomialTerm<C>[] = [];
    let i = 0;
    let j = 0;
    while (i < p.length && j < q.length) {
      const a = p[i] as PolynomialTerm<C>;
      const b = q[j] as PolynomialTerm<C>;
      const c = this.compare(a.monomial, b.monomial);
      if (c > 0) {
        out.push(a);
        i++;
      } else if (c < 0) {
        out.push(negate ? { monomial: b.monomial, coefficient: F.neg(b.coefficient) } : b);
        j++;
      } else {
        const s = negate ? F.sub(a.coefficient, b.coefficient) : F.add(a.coefficient, b.coefficient);
        if (!F.isZero(s)) out.push({ monomial: a.monomial, coefficient: s });
        i++;
        j++;
      }
    }
    while (i < p.length) out.push(p[i++] as PolynomialTerm<C>);
    while (j < q.length) {
      const b = q[j++] as PolynomialTerm<C>;
      out.push(negate ? { monomial: b.monomial, coefficient: F.neg(b.coefficient) } : b);
    }
    return out;
  }

  add(p: Polynomial<C>, q: Polynomial<C>): Polynomial<C> {
    return this.combine(p, q, false);
  }

  sub(p: Polynomial<C>, q: Polynomial<C>): Polynomial<C> {
    return this.combine(p, q, true);
  }

  neg(p: Polynomial<C>): Polynomial<C> {
    return p.map((t) => ({ monomial: t.monomial, coefficient: this.field.neg(t.coefficient) }));
  }

  scale(p: Polynomial<C>, c: C): Polynomial<C> {
    if (this.field.isZero(c)) return [];
    if (this.field.isOne(c)) return p;
    return p.map((t) => ({ monomial: t.monomial, coefficient: this.field.mul(t.coefficient, c) }));
  }

  /** c·m·p; multiplying by a monomial keeps the order of terms (monomial orders are compatible with products). */
  mulTerm(p: Polynomial<C>, m: Monomial, c: C): Polynomial<C> {
    if (this.field.isZero(c)) return [];
    return p.map((t) => ({ monomial: monomialProduct(t.monomial, m), coefficient: this.field.mul(t.coefficient, c) }));
  }

  /** p·q, with the degree and term-count bounds of {@link POLYNOMIAL_LIMITS} checked first. */
  mul(p: Polynomial<C>, q: Polynomial<C>): Polynomial<C> {
    if (p.length === 0 || q.length === 0) return [];
    if (this.degree(p) + this.degree(q) > POLYNOMIAL_LIMITS.maxDegree) {
      throw sizeError(`a product has total degree above the limit of ${POLYNOMIAL_LIMITS.maxDegree}`);
    }
    if (p.length * q.length > POLYNOMIAL_LIMITS.maxProductWork) {
      throw sizeError(`a product of ${p.length} and ${q.length} terms is above the limit of ${POLYNOMIAL_LIMITS.maxProductWork} term products`);
    }
    if (p.length === 1) {
      const t = p[0] as PolynomialTerm<C>;
      return this.mulTerm(q, t.monomial, t.coefficient);
    }
    if (q.length === 1) {
      const t = q[0] as PolynomialTerm<C>;
      return this.mulTerm(p, t.monomial, t.coefficient);
    }
    const F = this.field;
    const map = new Map<string, { monomial: Monomial; coefficient: C }>();
    for (const a of p) {
      for (const b of q) {
        const m = monomialProduct(a.monomial, b.monomial);
        const key = m.join(',');
        const c = F.mul(a.coefficient, b.coefficient);
        const seen = map.get(key);
        if (seen) seen.coefficient = F.add(seen.coefficient, c);
        else {
          map.set(key, { monomial: m, coefficient: c });
          if (map.size > POLYNOMIAL_LIMITS.maxTerms) throw sizeError(`a product has more than ${POLYNOMIAL_LIMITS.maxTerms} terms`);
        }
      }
    }
    const out: PolynomialTerm<C>[] = [];
    for (const t of map.values()) if (!F.isZero(t.coefficient)) out.push(t);
    out.sort((a, b) => this.compare(b.monomial, a.monomial));
    return out;
  }

  /** p^e by repeated squaring. */
  pow(p: Polynomial<C>, e: number): Polynomial<C> {
    if (e === 0) return this.one();
    if (p.length === 0) return [];
    if (this.degree(p) * e > POLYNOMIAL_LIMITS.maxDegree) {
      throw sizeError(`a power has total degree ${this.degree(p) * e}, above the limit of ${POLYNOMIAL_LIMITS.maxDegree}`);
    }
    if (p.length === 1) {
      const t = p[0] as PolynomialTerm<C>;
      const m = new Int32Array(this.arity);
      for (let i = 0; i < this.arity; i++) m[i] = (t.monomial[i] as number) * e;
      let c = this.field.one;
      let base = t.coefficient;
      for (let k = e; k > 0; k >>= 1) {
        if (k & 1) c = this.field.mul(c, base);
        base = this.field.mul(base, base);
      }
      return [{ monomial: m, coefficient: c }];
    }
    let result = this.one();
    let base = p;
    for (let k = e; k > 0; k >>= 1) {
      if (k & 1) result = this.mul(result, base);
      if (k > 1) base = this.mul(base, base);
    }
    return result;
  }

  /** Largest total degree of a term; -1 for zero. */
  degree(p: Polynomial<C>): number {
    let d = -1;
    for (const t of p) d = Math.max(d, totalDegree(t.monomial));
    return d;
  }

  leadingTerm(p: Polynomial<C>): PolynomialTerm<C> {
    const t = p[0];
    if (t === undefined) throw new JacobianError('INTERNAL', 'the zero polynomial has no leading term');
    return t;
  }

  /** p divided by its leading coefficient (zero stays zero). */
  monic(p: Polynomial<C>): Polynomial<C> {
    if (p.length === 0) return p;
    const lc = (p[0] as PolynomialTerm<C>).coefficient;
    return this.field.isOne(lc) ? p : this.scale(p, this.field.inv(lc));
  }

  /** The S-polynomial lcm/lt(f)·f − lcm/lt(g)·g. */
  sPolynomial(f: Polynomial<C>, g: Polynomial<C>): Polynomial<C> {
    const a = this.leadingTerm(f);
    const b = this.leadingTerm(g);
    const l = monomialLcm(a.monomial, b.monomial);
    const F = this.field;
    return this.sub(this.mulTerm(f, monomialQuotient(l, a.monomial), F.inv(a.coefficient)), this.mulTerm(g, monomialQuotient(l, b.monomial), F.inv(b.coefficient)));
  }

  /**
   * The full normal form of f modulo the list G (every term reduced, not only the leading one),
   * by the division algorithm: the first element of G whose leading monomial divides the current
   * term is used. `checkpoint` is called every few hundred steps so a caller can stop it.
   */
  normalForm(f: Polynomial<C>, G: readonly Polynomial<C>[], checkpoint?: () => void): Polynomial<C> {
    const F = this.field;
    const leads = G.filter((g) => g.length > 0).map((g) => ({ g, lt: g[0] as PolynomialTerm<C> }));
    let p = f;
    let i = 0;
    const remainder: PolynomialTerm<C>[] = [];
    let steps = 0;
    while (i < p.length) {
      if (checkpoint && ++steps % 256 === 0) checkpoint();
      const t = p[i] as PolynomialTerm<C>;
      const reducer = leads.find((r) => monomialDivides(r.lt.monomial, t.monomial));
      if (reducer === undefined) {
        remainder.push(t);
        i++;
        continue;
      }
      const c = F.div(t.coefficient, reducer.lt.coefficient);
      p = this.sub(p.slice(i + 1), this.mulTerm(reducer.g.slice(1), monomialQuotient(t.monomial, reducer.lt.monomial), c));
      i = 0;
    }
    return remainder;
  }
}
