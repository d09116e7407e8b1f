/**
 * Continued fractions, exactly on big integers: the finite expansion of a rational p/q and the
 * eventually periodic expansion of a real quadratic irrational (P + √D)/Q, with convergents.
 *
 * A quadratic irrational is normalised so that Q divides D − P² (multiplying P, Q by |Q| and D by
 * Q² when it does not); then each complete quotient is again (Pₖ + √D)/Qₖ with integers Pₖ, Qₖ,
 * aₖ = ⌊(Pₖ + √D)/Qₖ⌋, Pₖ₊₁ = aₖQₖ − Pₖ, Qₖ₊₁ = (D − Pₖ₊₁²)/Qₖ, and the expansion is periodic from
 * the first repeated state (Pₖ, Qₖ) (Lagrange). Every answer is rechecked by a different route:
 * a rational by folding its terms back into p/q, a periodic one by showing in exact Q(√D)
 * arithmetic that the value of the written expansion is the given number (see
 * {@link checkPeriodicExpansion}).
 */
import { isqrt, isSquare, JacobianError } from '@jacobian/shared';

export type Checkpoint = () => void;
const NO_CHECKPOINT: Checkpoint = () => undefined;

/** ⌊a / b⌋ for b ≠ 0. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

/** The convergents pₖ/qₖ of the terms a₀, a₁, …: the first `count` of them. */
export function convergents(terms: readonly bigint[], count: number = terms.length, checkpoint: Checkpoint = NO_CHECKPOINT): { p: bigint; q: bigint }[] {
  const out: { p: bigint; q: bigint }[] = [];
  let [p0, p1] = [1n, 0n];
  let [q0, q1] = [0n, 1n];
  for (let k = 0; k < Math.min(count, terms.length); k++) {
    const a = terms[k] as bigint;
    [p0, p1] = [a * p0 + p1, p0];
    [q0, q1] = [a * q0 + q1, q0];
    checkpoint();
    out.push({ p: p0, q: q0 });
  }
  return out;
}

/**
 * The continued fraction [a₀; a₁, …, aₙ] of p/q (q ≠ 0) by Euclid: a₀ any integer, later terms
 * ≥ 1, the last one ≥ 2 unless n = 0 (the canonical of the two expansions of a rational).
 */
export function rationalContinuedFraction(p: bigint, q: bigint, checkpoint: Checkpoint = NO_CHECKPOINT): bigint[] {
  if (q === 0n) throw new JacobianError('INVALID_REQUEST', 'the denominator is zero (rule denominator-non-zero)');
  if (q < 0n) [p, q] = [-p, -q];
  const terms: bigint[] = [];
  let [a, b] = [p, q];
  while (b !== 0n) {
    checkpoint();
    const t = floorDiv(a, b);
    terms.push(t);
    [a, b] = [b, a - t * b];
  }
  return terms;
}

/** Fold terms back into a fraction (num/den, den > 0, not reduced further than the recurrence gives). */
export function foldContinuedFraction(terms: readonly bigint[]): { num: bigint; den: bigint } {
  let num = 1n;
  let den = 0n;
  for (let k = terms.length - 1; k >= 0; k--) [num, den] = [(terms[k] as bigint) * num + den, num];
  return den < 0n ? { num: -num, den: -den } : { num, den };
}

/** A quadratic irrational (P + √D)/Q with Q | D − P², as the algorithm needs it. */
export interface QuadraticState {
  P: bigint;
  Q: bigint;
}

/** The periodic expansion of (P + √D)/Q: terms before the period, then one period. */
export interface PeriodicExpansion {
  /** D, P, Q after normalisation (Q | D − P²); the same number as the input. */
  D: bigint;
  P: bigint;
  Q: bigint;
  preperiod: bigint[];
  period: bigint[];
}

/** Normalise (P + √D)/Q so that Q | D − P² (the same real number). */
export function normaliseQuadratic(P: bigint, D: bigint, Q: bigint): { P: bigint; D: bigint; Q: bigint } {
  if ((D - P * P) % Q === 0n) return { P, D, Q };
  const s = Q < 0n ? -Q : Q;
  return { P: P * s, D: D * s * s, Q: Q * s };
}

/**
 * The continued fraction of (P + √D)/Q, D > 0 not a square, Q ≠ 0: pre-period and period.
 *
 * @throws JacobianError OUTPUT_LIMIT_EXCEEDED when pre-period and period together pass `maxTerms`.
 */
export function quadraticContinuedFraction(P0: bigint, D0: bigint, Q0: bigint, maxTerms: number, checkpoint: Checkpoint = NO_CHECKPOINT): PeriodicExpansion {
  if (Q0 === 0n) throw new JacobianError('INVALID_REQUEST', 'Q is zero (rule denominator-non-zero)');
  if (D0 <= 0n || isSquare(D0)) throw new JacobianError('INVALID_REQUEST', 'D must be a positive non-square (rule quadratic-irrational)');
  const { P: Pn, D, Q: Qn } = normaliseQuadratic(P0, D0, Q0);
  const s = isqrt(D);
  const seen = new Map<string, number>();
  const terms: bigint[] = [];
  let [P, Q] = [Pn, Qn];
  for (;;) {
    const key = `${P},${Q}`;
    const first = seen.get(key);
    if (first !== undefined) return { D, P: Pn, Q: Qn, preperiod: terms.slice(0, first), period: terms.slice(first) };
    if (terms.length >= maxTerms) {
      throw new JacobianError('OUTPUT_LIMIT_EXCEEDED', `the pre-period and period have more than ${maxTerms} terms (rule max-terms); nothing was concluded`, { data: { rule: 'max-terms', max_terms: maxTerms } });
    }
    checkpoint();
    seen.set(key, terms.length);
    // ⌊(P + √D)/Q⌋: with √D irrational in (s, s + 1), it is ⌊(P + s)/Q⌋ for Q > 0 and ⌊(P + s + 1)/Q⌋ for Q < 0.
    const a = Q > 0n ? floorDiv(P + s, Q) : floorDiv(P + s + 1n, Q);
    terms.push(a);
    const next = a * Q - P;
    Q = (D - next * next) / Q;
    P = next;
  }
}

/** An element (a + b√D)/c of Q(√D), c > 0. */
interface Surd {
  a: bigint;
  b: bigint;
  c: bigint;
}

const surdSign = (x: Surd, D: bigint): -1 | 0 | 1 => {
  const { a, b } = x;
  if (a >= 0n && b >= 0n) return a === 0n && b === 0n ? 0 : 1;
  if (a <= 0n && b <= 0n) return -1;
  // Opposite signs: compare a² with b²D.
  const aa = a * a;
  const bb = b * b * D;
  if (aa === bb) return 0;
  return (aa > bb) === a > 0n ? 1 : -1;
};

/** (p x + r)/(q x + s) for x = (P + √D)/Q, in exact Q(√D) arithmetic. */
function mobius(p: bigint, r: bigint, q: bigint, s: bigint, P: bigint, D: bigint, Q: bigint): Surd {
  // numerator (pP + rQ + p√D)/Q, denominator (qP + sQ + q√D)/Q: multiply by the conjugate of the denominator.
  const [na, nb] = [p * P + r * Q, p];
  const [da, db] = [q * P + s * Q, q];
  const norm = da * da - db * db * D;
  if (norm === 0n) throw new Error('a zero denominator in Q(√D): D is a square');
  let a = na * da - nb * db * D;
  let b = nb * da - na * db;
  let c = norm;
  if (c < 0n) [a, b, c] = [-a, -b, -c];
  return { a, b, c };
}

/**
 * Show that [preperiod; (period)] is the expansion of (P + √D)/Q, independently of the
 * algorithm that found it: with M the product of the matrices [[a, 1], [1, 0]] of the pre-period,
 * y = M⁻¹·x is the purely periodic tail; it must satisfy q y² + (s − p) y − r = 0 for the period's
 * matrix [[p, r], [q, s]], whose other root is negative, and y must exceed 1, so y is the value of
 * the purely periodic expansion; and every term after a₀ must be ≥ 1.
 */
export function checkPeriodicExpansion(expansion: PeriodicExpansion): boolean {
  const { D, P, Q, preperiod, period } = expansion;
  if (period.length === 0) return false;
  if (period.some((a) => a < 1n) || preperiod.slice(1).some((a) => a < 1n)) return false;
  const product = (terms: readonly bigint[]): [bigint, bigint, bigint, bigint] => {
    let [p, r, q, s] = [1n, 0n, 0n, 1n];
    for (const a of terms) [p, r, q, s] = [p * a + r, p, q * a + s, q];
    return [p, r, q, s];
  };
  const [mp, mr, mq, ms] = product(preperiod);
  // y = M⁻¹ x: the adjugate gives the same Möbius map, (s x − r)/(−q x + p).
  const y = mobius(ms, -mr, -mq, mp, P, D, Q);
  if (surdSign({ a: y.a - y.c, b: y.b, c: 1n }, D) <= 0) return false;
  const [p, r, q, s] = product(period);
  // q y² + (s − p) y − r with y = (a + b√D)/c: multiply through by c².
  const { a, b, c } = y;
  const rational = q * (a * a + b * b * D) + (s - p) * a * c - r * c * c;
  const irrational = q * 2n * a * b + (s - p) * b * c;
  return rational === 0n && irrational === 0n;
}
