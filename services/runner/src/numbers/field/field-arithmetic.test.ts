// Exact arithmetic in Q[θ]/(T) behind the rechecks of PARI/GP's number field answers, on known fields.
import { describe, expect, it } from 'vitest';
import { formatRational, rational } from '@jacobian/shared';
import { fieldRecheckKernel } from './field-recheck.kernel.js';
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

describe('the isolated recheck of PARI/GP answers rejects tampered ones', () => {
  const ctx = { signal: new AbortController().signal, deadline: Date.now() + 60_000 } as Parameters<typeof fieldRecheckKernel>[1];
  // Q(√−23) with T₁ = x² + 23: basis {1, (1 + x)/2}; polredabs P = x² − x + 6 with x ↦ 2z − 1 and z ↦ (1 + x)/2.
  const good = { monic: ['23', '0', '1'], basis: [['1'], ['1/2', '1/2']], reduced: ['6', '-1', '1'], root_in_reduced: ['-1', '2'], reduced_root_in_field: ['1/2', '1/2'] };

  it('accepts the true data', () => {
    expect(fieldRecheckKernel(good, ctx)).toMatchObject({ basis_integral: [true, true], basis_discriminant: '-23', isomorphism: true });
  });

  it('rejects a non-integral basis element, a basis of the wrong discriminant, a wrong isomorphism, a non-unit, a wrong root of unity', () => {
    expect(fieldRecheckKernel({ ...good, basis: [['1'], ['1/3', '1/2']] }, ctx).basis_integral).toEqual([true, false]);
    expect(fieldRecheckKernel({ ...good, basis: [['1'], ['0', '1']] }, ctx).basis_discriminant).toBe('-92');
    expect(fieldRecheckKernel({ ...good, root_in_reduced: ['1', '2'] }, ctx).isomorphism).toBe(false);
    expect(fieldRecheckKernel({ ...good, reduced_root_in_field: ['1/2', '-1/2'] }, ctx).isomorphism).toBe(true); // the conjugate root is a root too
    expect(fieldRecheckKernel({ ...good, reduced_root_in_field: ['1', '1/2'] }, ctx).isomorphism).toBe(false);
    expect(fieldRecheckKernel({ monic: ['-79', '0', '1'], units: [['80', '9'], ['81', '9']] }, ctx).units.map((u) => u.unit)).toEqual([true, false]);
    expect(fieldRecheckKernel({ monic: ['1', '0', '1'], zeta: ['0', '1'], w: 2 }, ctx).root_of_unity).toBe(false);
  });
});
