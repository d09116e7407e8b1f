// Matrices whose minimal polynomial the tests know without computing it, for the producers' and
// the checkers' tests alike.
import { makeRational, RATIONALS, type Rational } from '../domains/polynomial/field.js';

/** Π (x − r_i) over Q, coefficients lowest degree first: the tests' own expansion. */
export function polynomialFromRoots(roots: readonly Rational[]): Rational[] {
  let p = [RATIONALS.one];
  for (const r of roots) p = [...p.map((c) => RATIONALS.neg(RATIONALS.mul(c, r))), RATIONALS.zero].map((c, k) => (k === 0 ? c : RATIONALS.add(c, p[k - 1] ?? RATIONALS.zero)));
  return p;
}

/**
 * An n×n upper triangular Q matrix with the distinct diagonal λ_i = (10^digits + 3i + 1)/(i + 2)
 * and small integers above it: diagonalizable, so its minimal polynomial is Π (x − λ_i), whose
 * coefficients grow to about n·digits digits (beyond the entry text limit for n = 20, digits = 200).
 */
export function triangularWithKnownMinimalPolynomial(n: number, digits: number): { rows: string[][]; minimal: string[] } {
  const lambda = Array.from({ length: n }, (_, i) => makeRational(10n ** BigInt(digits) + BigInt(3 * i + 1), BigInt(i + 2)));
  const rows = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? RATIONALS.format(lambda[i] as Rational) : j > i ? String(((i + 2 * j) % 7) - 3) : '0')));
  return { rows, minimal: polynomialFromRoots(lambda).map((c) => RATIONALS.format(c)) };
}
