/**
 * A number field K = Q[x]/(T) given by T ∈ Z[x] (monic or not), as its integer coefficients from
 * the highest degree down; and exact arithmetic in Q[x] modulo T, on BigInt fractions, for checking
 * what PARI/GP says about K (an isomorphism to a reduced model, the norm of a unit).
 */
import { z } from 'zod';
import { JacobianError } from '../../errors.js';
import { integerTextSchema } from './arith.js';
import { ONE, qAdd, qDiv, qEq, qIsZero, qMul, qNeg, qSub, ZERO, type Rational } from './elliptic.js';

export const NUMBER_FIELD_LIMITS = { maxDegree: 20, maxDigits: 60 } as const;

export const NumberFieldPolynomialSchema = z
  .array(z.union([z.number().int().refine(Number.isSafeInteger, { message: 'an integer beyond ±2^53 must be given as text (rule: safe-integer)' }).transform((n) => n.toString()), integerTextSchema({ maxDigits: NUMBER_FIELD_LIMITS.maxDigits })]))
  .min(2, { message: 'a defining polynomial has degree at least 1 (rule: degree)' })
  .max(NUMBER_FIELD_LIMITS.maxDegree + 1, { message: `degree at most ${NUMBER_FIELD_LIMITS.maxDegree} (rule: degree)` })
  .superRefine((coefficients, ctx) => {
    if (coefficients[0] === '0') ctx.addIssue({ code: 'custom', path: [0], message: 'the leading coefficient must be non-zero (rule: leading-coefficient)' });
    if (coefficients.at(-1) === '0') ctx.addIssue({ code: 'custom', path: [coefficients.length - 1], message: 'a constant term 0 makes T divisible by x, so T is reducible unless T = c·x (rule: irreducible)' });
  })
  .describe(`T ∈ Z[x] by its integer coefficients, highest degree first (x² + 5 is [1, 0, 5]); degree 1 … ${NUMBER_FIELD_LIMITS.maxDegree}, at most ${NUMBER_FIELD_LIMITS.maxDigits} digits each; T must be irreducible over Q`);

/** A polynomial over Q by its coefficients, lowest degree first, without trailing zeros ([] is 0). */
export type QPolynomial = readonly Rational[];

const trim = (p: Rational[]): Rational[] => {
  while (p.length > 0 && qIsZero(p[p.length - 1] as Rational)) p.pop();
  return p;
};

export function qpolyAdd(a: QPolynomial, b: QPolynomial): Rational[] {
  const out: Rational[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) out.push(qAdd(a[i] ?? ZERO, b[i] ?? ZERO));
  return trim(out);
}

export function qpolyMul(a: QPolynomial, b: QPolynomial): Rational[] {
  if (a.length === 0 || b.length === 0) return [];
  const out: Rational[] = new Array<Rational>(a.length + b.length - 1).fill(ZERO);
  a.forEach((x, i) => b.forEach((y, j) => (out[i + j] = qAdd(out[i + j] as Rational, qMul(x, y)))));
  return trim(out);
}

/** a mod m (m ≠ 0). */
export function qpolyMod(a: QPolynomial, m: QPolynomial): Rational[] {
  if (m.length === 0) throw new JacobianError('INTERNAL', 'reduction modulo the zero polynomial');
  const r = [...a];
  const lead = m[m.length - 1] as Rational;
  for (let d = r.length - 1; d >= m.length - 1; d--) {
    const c = r[d] as Rational;
    if (qIsZero(c)) continue;
    const f = qDiv(c, lead);
    for (let i = 0; i < m.length; i++) r[d - m.length + 1 + i] = qSub(r[d - m.length + 1 + i] as Rational, qMul(f, m[i] as Rational));
  }
  return trim(r.slice(0, Math.max(0, m.length - 1)));
}

/** P(α) mod T by Horner, where α is given as a polynomial mod T. */
export function qpolyCompose(P: QPolynomial, alpha: QPolynomial, T: QPolynomial): Rational[] {
  let acc: Rational[] = [];
  for (let i = P.length - 1; i >= 0; i--) acc = qpolyMod(qpolyAdd(qpolyMul(acc, alpha), [P[i] as Rational]), T);
  return acc;
}

export const qpolyIsZero = (p: QPolynomial): boolean => p.every(qIsZero);
export const qpolyEq = (a: QPolynomial, b: QPolynomial): boolean => a.length === b.length && a.every((x, i) => qEq(x, b[i] as Rational));

/** The polynomial x. */
export const X: QPolynomial = [ZERO, ONE];

/** −p. */
export const qpolyNeg = (p: QPolynomial): Rational[] => p.map(qNeg);
