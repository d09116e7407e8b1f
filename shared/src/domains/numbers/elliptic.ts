/**
 * Exact arithmetic on elliptic curves over Q in long Weierstrass form
 *   E: y² + a₁xy + a₃y = x³ + a₂x² + a₄x + a₆,
 * on BigInt fractions: the invariants (b₂ … b₈, c₄, c₆, Δ, j), the group law (chord and tangent,
 * Silverman III.2.3), multiplication by an integer, the exact order of a torsion point, changes of
 * variables x = u²x′ + r, y = u³y′ + su²x′ + t (Silverman Table 3.1, PARI's ellchangecurve
 * convention), and point counts modulo odd primes (for the torsion bound |E(Q)_tors| divides
 * #Ẽ(F_p) at every odd prime p of good reduction).
 *
 * Used by the runner to recheck PARI/GP's answers and by the checker to re-derive claims; neither
 * is PARI, so both are independent of the producer.
 */
import { z } from 'zod';
import { JacobianError } from '../../errors.js';
import { makeRational, RATIONALS, type Rational } from '../polynomial/field.js';
import { jacobi, mod, powMod } from './arith.js';

// Q is the polynomial domain's field of rationals (lowest terms, positive denominator); these are short names for it.
export type { Rational };
export const rational = (num: bigint, den: bigint = 1n): Rational => makeRational(num, den);
export const ZERO: Rational = RATIONALS.zero;
export const ONE: Rational = RATIONALS.one;
export const qAdd = (a: Rational, b: Rational): Rational => RATIONALS.add(a, b);
export const qSub = (a: Rational, b: Rational): Rational => RATIONALS.sub(a, b);
export const qMul = (a: Rational, b: Rational): Rational => RATIONALS.mul(a, b);
export const qNeg = (a: Rational): Rational => RATIONALS.neg(a);
export const qDiv = (a: Rational, b: Rational): Rational => RATIONALS.div(a, b);
export const qEq = (a: Rational, b: Rational): boolean => RATIONALS.equals(a, b);
export const qIsZero = (a: Rational): boolean => RATIONALS.isZero(a);
export const qInt = (n: bigint | number): Rational => RATIONALS.fromBigInt(BigInt(n));
export function qPow(a: Rational, e: number): Rational {
  let out = ONE;
  for (let i = 0; i < e; i++) out = qMul(out, a);
  return out;
}

const RATIONAL_TEXT = /^-?(0|[1-9]\d*)(\/[1-9]\d*)?$/;

/** The rational number of "a" or "a/b" (any sign on a, b > 0, not necessarily in lowest terms); null for other text. */
export function parseRational(text: string): Rational | null {
  if (!RATIONAL_TEXT.test(text) || text === '-0' || text.startsWith('-0/')) return null;
  const [n, d] = text.split('/');
  return rational(BigInt(n as string), d === undefined ? 1n : BigInt(d));
}

/** "a" for an integer, else "a/b" in lowest terms. */
export const formatRational = (q: Rational): string => RATIONALS.format(q);

/**
 * An integer or a fraction of integers, as a JSON integer or decimal text "a" / "a/b" (b > 0;
 * at most `maxDigits` digits in each part), read as its canonical text in lowest terms.
 */
export function rationalTextSchema(maxDigits: number): z.ZodType<string, string | number> {
  return z
    .union([z.number().int().refine(Number.isSafeInteger, { message: 'an integer beyond ±2^53 must be given as text (rule: safe-integer)' }), z.string().max(2 * maxDigits + 3, { message: `at most ${maxDigits} digits in numerator and denominator (rule: rational-digits)` })])
    .transform((value, ctx) => {
      const text = typeof value === 'number' ? value.toString() : value;
      const q = parseRational(text);
      if (q === null) {
        ctx.addIssue({ code: 'custom', message: 'an integer "a" or a fraction "a/b" with b > 0, in decimal without leading zeros (rule: rational-text)' });
        return z.NEVER;
      }
      const digits = Math.max(...text.replace('-', '').split('/').map((part) => part.length));
      if (digits > maxDigits) {
        ctx.addIssue({ code: 'custom', message: `at most ${maxDigits} digits in numerator and denominator; this one has ${digits} (rule: rational-digits)` });
        return z.NEVER;
      }
      return formatRational(q);
    })
    .describe(`a rational number: a JSON integer, or decimal text "a" or "a/b" (b > 0), at most ${maxDigits} digits each`);
}

/** The coefficients [a₁, a₂, a₃, a₄, a₆] of a long Weierstrass equation. */
export type Weierstrass = readonly [Rational, Rational, Rational, Rational, Rational];

/** The standard invariants of a Weierstrass equation (Silverman III.1); j is null when Δ = 0. */
export interface CurveInvariants {
  readonly b2: Rational;
  readonly b4: Rational;
  readonly b6: Rational;
  readonly b8: Rational;
  readonly c4: Rational;
  readonly c6: Rational;
  readonly discriminant: Rational;
  readonly j: Rational | null;
}

export function curveInvariants(a: Weierstrass): CurveInvariants {
  const [a1, a2, a3, a4, a6] = a;
  const m = qMul;
  const b2 = qAdd(m(a1, a1), m(qInt(4), a2));
  const b4 = qAdd(m(qInt(2), a4), m(a1, a3));
  const b6 = qAdd(m(a3, a3), m(qInt(4), a6));
  const b8 = qSub(qAdd(qSub(qAdd(m(m(a1, a1), a6), m(qInt(4), m(a2, a6))), m(a1, m(a3, a4))), m(a2, m(a3, a3))), m(a4, a4));
  const c4 = qSub(m(b2, b2), m(qInt(24), b4));
  const c6 = qSub(qAdd(qNeg(qPow(b2, 3)), m(qInt(36), m(b2, b4))), m(qInt(216), b6));
  const discriminant = qAdd(qSub(qSub(qNeg(m(m(b2, b2), b8)), m(qInt(8), qPow(b4, 3))), m(qInt(27), m(b6, b6))), m(qInt(9), m(b2, m(b4, b6))));
  return { b2, b4, b6, b8, c4, c6, discriminant, j: qIsZero(discriminant) ? null : qDiv(qPow(c4, 3), discriminant) };
}

/** A rational point: affine (x, y), or null for the point at infinity O. */
export type CurvePoint = { readonly x: Rational; readonly y: Rational } | null;

/** Whether P lies on E (O always does). */
export function isOnCurve(a: Weierstrass, P: CurvePoint): boolean {
  if (P === null) return true;
  const [a1, a2, a3, a4, a6] = a;
  const { x, y } = P;
  const left = qAdd(qAdd(qMul(y, y), qMul(a1, qMul(x, y))), qMul(a3, y));
  const right = qAdd(qAdd(qAdd(qPow(x, 3), qMul(a2, qMul(x, x))), qMul(a4, x)), a6);
  return qEq(left, right);
}

export function negatePoint(a: Weierstrass, P: CurvePoint): CurvePoint {
  if (P === null) return null;
  return { x: P.x, y: qSub(qSub(qNeg(P.y), qMul(a[0], P.x)), a[2]) };
}

/** P + Q on E (both assumed on E). */
export function addPoints(a: Weierstrass, P: CurvePoint, Q: CurvePoint): CurvePoint {
  if (P === null) return Q;
  if (Q === null) return P;
  const [a1, a2, a3, a4, a6] = a;
  let lambda: Rational;
  let nu: Rational;
  if (!qEq(P.x, Q.x)) {
    const dx = qSub(Q.x, P.x);
    lambda = qDiv(qSub(Q.y, P.y), dx);
    nu = qDiv(qSub(qMul(P.y, Q.x), qMul(Q.y, P.x)), dx);
  } else {
    // Same x: Q = P or Q = −P.
    const denominator = qAdd(qAdd(qMul(qInt(2), P.y), qMul(a1, P.x)), a3);
    if (!qEq(P.y, Q.y) || qIsZero(denominator)) return null;
    const x = P.x;
    lambda = qDiv(qSub(qAdd(qAdd(qMul(qInt(3), qMul(x, x)), qMul(qInt(2), qMul(a2, x))), a4), qMul(a1, P.y)), denominator);
    nu = qDiv(qSub(qAdd(qAdd(qNeg(qPow(x, 3)), qMul(a4, x)), qMul(qInt(2), a6)), qMul(a3, P.y)), denominator);
  }
  const x3 = qSub(qSub(qSub(qAdd(qMul(lambda, lambda), qMul(a1, lambda)), a2), P.x), Q.x);
  const y3 = qSub(qSub(qNeg(qMul(qAdd(lambda, a1), x3)), nu), a3);
  return { x: x3, y: y3 };
}

/** [n]P by double-and-add (n may be negative). */
export function multiplyPoint(a: Weierstrass, P: CurvePoint, n: bigint): CurvePoint {
  if (n < 0n) return multiplyPoint(a, negatePoint(a, P), -n);
  let result: CurvePoint = null;
  let addend = P;
  while (n > 0n) {
    if ((n & 1n) === 1n) result = addPoints(a, result, addend);
    n >>= 1n;
    if (n > 0n) addend = addPoints(a, addend, addend);
  }
  return result;
}

/** Mazur: a rational torsion point has order at most 12 (and never 11). */
export const MAZUR_MAX_ORDER = 12;

/** The torsion structures over Q (Mazur): Z/n for n = 1 … 10, 12 and Z/2 × Z/2m for m = 1 … 4, as [n₁, n₂] with n₁ | n₂ (n₁ = 1 for cyclic). */
export const MAZUR_STRUCTURES: readonly (readonly [number, number])[] = [
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12].map((n) => [1, n] as const),
  ...[2, 4, 6, 8].map((n) => [2, n] as const),
];

/** The order of P when at most `bound` (O has order 1), else null; with the default bound 12, null means infinite order (Mazur). */
export function pointOrder(a: Weierstrass, P: CurvePoint, bound = MAZUR_MAX_ORDER): number | null {
  let Q = P;
  for (let k = 1; k <= bound; k++) {
    if (Q === null) return k;
    Q = addPoints(a, Q, P);
  }
  return null;
}

/** The primes dividing a positive integer n ≤ 2^53 (trial division; for orders and small moduli). */
function smallPrimeDivisors(n: number): number[] {
  const out: number[] = [];
  for (let p = 2; p * p <= n; p++) {
    if (n % p !== 0) continue;
    out.push(p);
    while (n % p === 0) n /= p;
  }
  if (n > 1) out.push(n);
  return out;
}

/** Whether P has order exactly n: [n]P = O and [n/q]P ≠ O for each prime q dividing n. */
export function hasExactOrder(a: Weierstrass, P: CurvePoint, n: number): boolean {
  if (!Number.isSafeInteger(n) || n < 1) return false;
  if (multiplyPoint(a, P, BigInt(n)) !== null) return false;
  return smallPrimeDivisors(n).every((q) => multiplyPoint(a, P, BigInt(n / q)) !== null);
}

/** The change of variables x = u²x′ + r, y = u³y′ + su²x′ + t (u ≠ 0). */
export interface ModelChange {
  readonly u: Rational;
  readonly r: Rational;
  readonly s: Rational;
  readonly t: Rational;
}

/** The coefficients of E in the new variables x′, y′ of `change` (Silverman Table 3.1). */
export function changeModel(a: Weierstrass, change: ModelChange): Weierstrass {
  const [a1, a2, a3, a4, a6] = a;
  const { u, r, s, t } = change;
  if (qIsZero(u)) throw new JacobianError('INTERNAL', 'a change of variables needs u ≠ 0');
  const m = qMul;
  const two = qInt(2);
  const three = qInt(3);
  const n1 = qAdd(a1, m(two, s));
  const n2 = qSub(qAdd(qSub(a2, m(s, a1)), m(three, r)), m(s, s));
  const n3 = qAdd(qAdd(a3, m(r, a1)), m(two, t));
  const n4 = qSub(qAdd(qSub(qAdd(qSub(a4, m(s, a3)), m(two, m(r, a2))), m(qAdd(t, m(r, s)), a1)), m(three, m(r, r))), m(two, m(s, t)));
  const n6 = qSub(qSub(qSub(qAdd(qAdd(qAdd(a6, m(r, a4)), m(m(r, r), a2)), qPow(r, 3)), m(t, a3)), m(t, t)), m(r, m(t, a1)));
  return [qDiv(n1, u), qDiv(n2, qPow(u, 2)), qDiv(n3, qPow(u, 3)), qDiv(n4, qPow(u, 4)), qDiv(n6, qPow(u, 6))];
}

/** A point of E in the new variables of `change`: x′ = (x − r)/u², y′ = (y − s(x − r) − t)/u³. */
export function pointToModel(P: CurvePoint, change: ModelChange): CurvePoint {
  if (P === null) return null;
  const { u, r, s, t } = change;
  const dx = qSub(P.x, r);
  return { x: qDiv(dx, qPow(u, 2)), y: qDiv(qSub(qSub(P.y, qMul(s, dx)), t), qPow(u, 3)) };
}

/** Whether every coefficient is an integer. */
export const isIntegralModel = (a: Weierstrass): boolean => a.every((c) => c.den === 1n);

/**
 * #Ẽ(F_p) for an odd prime p that divides no denominator of `a` and not Δ (good reduction of
 * this p-integral model): 1 + Σ_x (1 + (g(x)/p)) with g = 4x³ + b₂x² + 2b₄x + b₆, after
 * completing the square (Y = 2y + a₁x + a₃, a bijection in y for p odd). O(p) Jacobi symbols.
 *
 * @throws JacobianError INTERNAL when p is 2, divides a denominator or Δ.
 */
export function countPointsModP(a: Weierstrass, p: bigint): bigint {
  if (p === 2n || a.some((c) => c.den % p === 0n)) throw new JacobianError('INTERNAL', `countPointsModP: p = ${p} is 2 or divides a denominator`);
  const invariants = curveInvariants(a);
  const disc = invariants.discriminant;
  if (disc.num % p === 0n) throw new JacobianError('INTERNAL', `countPointsModP: p = ${p} divides the discriminant`);
  // Fermat's inverse of the denominator: p is prime here.
  const reduce = (q: Rational): bigint => mod(q.num * powMod(mod(q.den, p), p - 2n, p), p);
  const b2 = reduce(invariants.b2);
  const b4 = reduce(invariants.b4);
  const b6 = reduce(invariants.b6);
  let count = 1n;
  for (let x = 0n; x < p; x++) {
    const g = mod(((4n * x + b2) * x + 2n * b4) * x + b6, p);
    count += 1n + BigInt(jacobi(g, p));
  }
  return count;
}

/** The subgroup ⟨P, Q⟩ of E(Q)_tors generated by points of finite order: its elements (O first), or null when it has more than `limit` (16 covers Mazur's list). */
export function torsionSubgroup(a: Weierstrass, generators: readonly CurvePoint[], limit = 16): CurvePoint[] | null {
  const key = (P: CurvePoint): string => (P === null ? 'O' : `${formatRational(P.x)},${formatRational(P.y)}`);
  const elements = new Map<string, CurvePoint>([['O', null]]);
  let frontier: CurvePoint[] = [null];
  while (frontier.length > 0) {
    const next: CurvePoint[] = [];
    for (const P of frontier) {
      for (const G of generators) {
        const sum = addPoints(a, P, G);
        const k = key(sum);
        if (elements.has(k)) continue;
        elements.set(k, sum);
        if (elements.size > limit) return null;
        next.push(sum);
      }
    }
    frontier = next;
  }
  return [...elements.values()];
}
