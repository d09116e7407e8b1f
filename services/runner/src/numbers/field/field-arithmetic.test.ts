// Exact arithmetic in Q[θ]/(T) behind the rechecks of PARI/GP's number field answers, on known fields.
import { describe, expect, it } from 'vitest';
import { formatRational, rational } from '@jacobian/shared';
import { basisDiscriminant, characteristicPolynomial, determinant, isPrimitiveRootOfUnity, lowestFirst, monicModel, multiplicationMatrix, toOriginalRoot, unitCheck } from './field-arithmetic.js';

const q = (n: number, d = 1) => rational(BigInt(n), BigInt(d));

describe('number field arithmetic', () => {
  it('the monic model of 3x² + 5 is y² + 15 with θ₁ = 3θ; of −2x³ + x + 1 it is y³ − 2y − 4 (T made positive first)', () => {
    expect(monicModel([3n, 0n, 5n])).toEqual({ monic: [1n, 0n, 15n], scale: 3n });
    expect(monicModel([-2n, 0n, 1n, 1n])).toEqual({ monic: [1n, 0n, -2n, -4n], scale: 2n });
    expect(toOriginalRoot([q(1), q(1, 2)], 3n).map(formatRational)).toEqual(['1', '3/2']);
  });

  it('units: 80 + 9√79 has norm 1, 1 + √2 norm −1, 2 + √2 is integral but not a unit, (1 + √2)/2 is not integral', () => {
    const T79 = lowestFirst([1n, 0n, -79n]);
    const T2 = lowestFirst([1n, 0n, -2n]);
    expect(unitCheck([q(80), q(9)], T79)).toEqual({ integral: true, norm: '1', unit: true });
    expect(unitCheck([q(1), q(1)], T2)).toEqual({ integral: true, norm: '-1', unit: true });
    expect(unitCheck([q(2), q(1)], T2)).toEqual({ integral: true, norm: '2', unit: false });
    expect(unitCheck([q(1, 2), q(1, 2)], T2).integral).toBe(false);
  });

  it('the characteristic polynomial of θ is T itself (x³ − x² − 2x + 1), and det agrees with the constant term', () => {
    const T = lowestFirst([1n, -1n, -2n, 1n]);
    const M = multiplicationMatrix([q(0), q(1)], T);
    expect(characteristicPolynomial(M).map(formatRational)).toEqual(['1', '-1', '-2', '1']);
    expect(formatRational(determinant(M))).toBe('-1');
  });

  it('discriminants of bases: {1, (1 + θ)/2} for θ² + 23 gives −23; {1, θ} gives −92 (index 2)', () => {
    const T = lowestFirst([1n, 0n, 23n]);
    expect(formatRational(basisDiscriminant([[q(1)], [q(1, 2), q(1, 2)]], T))).toBe('-23');
    expect(formatRational(basisDiscriminant([[q(1)], [q(0), q(1)]], T))).toBe('-92');
  });

  it('roots of unity: i is a primitive 4th root in Q(i), −1 a primitive square root, i is not a primitive square root', () => {
    const T = lowestFirst([1n, 0n, 1n]);
    expect(isPrimitiveRootOfUnity([q(0), q(1)], 4, T)).toBe(true);
    expect(isPrimitiveRootOfUnity([q(-1)], 2, T)).toBe(true);
    expect(isPrimitiveRootOfUnity([q(0), q(1)], 2, T)).toBe(false);
    expect(isPrimitiveRootOfUnity([q(1)], 2, T)).toBe(false);
  });
});
