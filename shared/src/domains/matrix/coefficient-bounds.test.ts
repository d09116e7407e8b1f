import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { polynomialFromRoots } from '../../testing/matrix-fixtures.js';
import { makeRational, RATIONALS, type Rational } from '../polynomial/field.js';
import { eigenpolynomialCoefficientBounds, MAX_EIGENPOLYNOMIAL_COEFFICIENT_TEXT_LENGTH } from './coefficient-bounds.js';
import { MATRIX_LIMITS } from './limits.js';
import { parseExplicitMatrix } from './matrix.js';

const Q = RATIONALS;
const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** Every coefficient within its bound: numerator and denominator bits, and text length. */
function within(rows: string[][], ring: { kind: 'Z' } | { kind: 'Q' }, p: readonly Rational[]): boolean {
  const bounds = eigenpolynomialCoefficientBounds(parseExplicitMatrix({ ring, rows }, ['matrix']), p.length - 1);
  return p.every((c, k) => {
    const b = bounds[k];
    return b !== undefined && abs(c.num) < 1n << BigInt(b.numeratorBits) && c.den < 1n << BigInt(b.denominatorBits) && Q.format(c).length <= b.maxTextLength;
  });
}

describe('eigenpolynomialCoefficientBounds', () => {
  it('holds for every monic factor of the characteristic polynomial of triangular Q matrices with random large entries', () => {
    const big = fc.tuple(fc.bigInt({ min: -(1n << 300n), max: 1n << 300n }), fc.bigInt({ min: 1n, max: 1n << 200n })).map(([a, b]) => makeRational(a, b));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }).chain((n) => fc.tuple(fc.array(big, { minLength: n, maxLength: n }), fc.array(big, { minLength: n * n, maxLength: n * n }), fc.subarray(Array.from({ length: n }, (_, i) => i)))), ([diagonal, above, subset]) => {
        const n = diagonal.length;
        const rows = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => Q.format(i === j ? (diagonal[i] as Rational) : j > i ? (above[i * n + j] as Rational) : Q.zero)));
        // The characteristic polynomial and a factor of it (a sub-multiset of the eigenvalues, as a minimal polynomial or an invariant factor is).
        expect(within(rows, { kind: 'Q' }, polynomialFromRoots(diagonal))).toBe(true);
        expect(within(rows, { kind: 'Q' }, polynomialFromRoots(subset.map((i) => diagonal[i] as Rational)))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('holds where the row-sum norm is reached: the all-B matrix has the eigenvalue n·B', () => {
    for (const n of [1, 2, 7, 20]) {
      const B = (1n << 4095n) - 1n;
      const rows = Array.from({ length: n }, () => Array.from({ length: n }, () => B.toString()));
      // det(x I − B·J) = x^(n−1) (x − n B).
      expect(within(rows, { kind: 'Z' }, polynomialFromRoots([...Array.from({ length: n - 1 }, () => Q.zero), makeRational(BigInt(n) * B, 1n)]))).toBe(true);
    }
  });

  it('over GF(p), a residue; the global cap covers the bound of the largest matrix', () => {
    const gf = parseExplicitMatrix({ ring: { kind: 'GF', characteristic: '1000003' }, rows: [[1, 2], [3, 4]] }, ['matrix']);
    expect(eigenpolynomialCoefficientBounds(gf, 2).map((b) => b.maxTextLength)).toEqual([7, 7, 7]);
    const n = MATRIX_LIMITS.maxRows;
    const worst = parseExplicitMatrix({ ring: { kind: 'Z' }, rows: Array.from({ length: n }, () => Array.from({ length: n }, () => ((1n << 4095n) - 1n).toString())) }, ['matrix']);
    expect(Math.max(...eigenpolynomialCoefficientBounds(worst, n).map((b) => b.maxTextLength))).toBeLessThanOrEqual(MAX_EIGENPOLYNOMIAL_COEFFICIENT_TEXT_LENGTH);
  });
});
