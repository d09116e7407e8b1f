import { describe, expect, it } from 'vitest';
import {
  cyclicSystem,
  GroebnerBasisClaimSchema,
  JacobianError,
  katsuraSystem,
  parsePolynomials,
  printPolynomial,
  resolveRing,
  type KernelContext,
  type MonomialOrder,
  type Polynomial,
  type PolynomialRing,
  type StandardSystem,
} from '@jacobian/shared';
import { findSingular, singularReducedBases, type SingularJob } from '@jacobian/shared/testing';
import { groebnerBasis } from './groebner.js';
import { groebnerBasisKernel } from './groebner.kernel.js';
import { mulberry32 as random } from '@jacobian/shared/testing';

const singular = findSingular();
const FIELDS = [{ kind: 'Q' as const }, { kind: 'GF' as const, characteristic: '32003' }];
const ORDERS: MonomialOrder[] = ['grevlex', 'grlex', 'lex'];

/** Lex Buchberger is slow on the larger systems (see the report); lex is compared on the small ones. */
function systemsFor(order: MonomialOrder): StandardSystem[] {
  const small = [cyclicSystem(4), katsuraSystem(3)];
  return order === 'lex' ? small : [...small, cyclicSystem(5), katsuraSystem(4), katsuraSystem(5)];
}


/** Random ideals in x, y, z: 2–3 generators of 2–4 terms of degree ≤ 3 with small coefficients. */
function randomIdeals(count: number, seed: number): string[][] {
  const next = random(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  return Array.from({ length: count }, () =>
    Array.from({ length: int(2, 3) }, () =>
      Array.from({ length: int(2, 4) }, () => {
        const e = [0, 0, 0];
        for (let d = int(0, 3); d > 0; d--) (e[int(0, 2)] as number)++;
        return `${int(-9, 9) || 1}*x^${e[0]}*y^${e[1]}*z^${e[2]}`;
      }).join(' + '),
    ),
  );
}

const texts = (R: PolynomialRing<unknown>, basis: readonly Polynomial<unknown>[]): string[] => basis.map((p) => printPolynomial(R, p));

describe('groebnerBasis: small cases by hand', () => {
  const R = resolveRing({ field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' });
  it('gives [] for the zero ideal and [1] for the unit ideal', () => {
    expect(groebnerBasis(R, parsePolynomials(R, ['0', '0'])).basis).toEqual([]);
    expect(texts(R, groebnerBasis(R, parsePolynomials(R, ['x', 'x + 1/2'])).basis)).toEqual(['1']);
  });
  it('eliminates x from x^2 - y, x*y - 1 under lex', () => {
    expect(texts(R, groebnerBasis(R, parsePolynomials(R, ['x^2 - y', 'x*y - 1'])).basis)).toEqual(['y^3 - 1', 'x - y^2']);
  });
  it('needs at least one variable', () => {
    expect(() => groebnerBasis({ ...R, arity: 0 } as PolynomialRing<unknown>, [])).toThrow(JacobianError);
  });
});

describe.skipIf(singular.path === null)(`groebnerBasis against Singular${singular.path === null ? ` (skipped: ${singular.reason})` : ''}`, () => {
  for (const field of FIELDS) {
    for (const order of ORDERS) {
      const name = `${field.kind === 'Q' ? 'Q' : `GF(${field.characteristic})`}, ${order}`;
      it(`equals Singular's reduced basis on the standard systems: ${name}`, () => {
        const jobs: SingularJob<unknown>[] = systemsFor(order).map((system) => {
          const ring = resolveRing({ field, variables: system.variables, order });
          return { ring, generators: parsePolynomials(ring, system.generators) };
        });
        const expected = singularReducedBases(jobs);
        jobs.forEach((job, k) => {
          const ours = groebnerBasis(job.ring, job.generators).basis;
          expect(texts(job.ring, ours)).toEqual(texts(job.ring, expected[k] as Polynomial<unknown>[]));
        });
      });
      it(`equals Singular's reduced basis on 12 random ideals: ${name}`, () => {
        const jobs: SingularJob<unknown>[] = randomIdeals(12, order.length * 31 + (field.kind === 'Q' ? 1 : 2)).map((generators) => {
          const ring = resolveRing({ field, variables: ['x', 'y', 'z'], order });
          return { ring, generators: parsePolynomials(ring, generators) };
        });
        const expected = singularReducedBases(jobs);
        jobs.forEach((job, k) => {
          expect(texts(job.ring, groebnerBasis(job.ring, job.generators).basis)).toEqual(texts(job.ring, expected[k] as Polynomial<unknown>[]));
        });
      });
    }
  }
});

describe('groebnerBasis: cofactors', () => {
  const Q = FIELDS[0] as (typeof FIELDS)[number];
  const GF = FIELDS[1] as (typeof FIELDS)[number];
  const rational: StandardSystem = { name: 'rational', variables: ['x', 'y', 'z'], generators: ['1/2*x^2 - 3*y*z + 1', '2/3*x*y - z^2', 'y^2 - 5/7*x'] };
  const cases: [string, StandardSystem, (typeof FIELDS)[number], MonomialOrder][] = [
    ['cyclic-4 over Q, grevlex', cyclicSystem(4), Q, 'grevlex'],
    ['katsura-3 over Q, grevlex', katsuraSystem(3), Q, 'grevlex'],
    ['cyclic-3 over Q, lex', cyclicSystem(3), Q, 'lex'],
    ['cyclic-4 over GF(32003), grlex', cyclicSystem(4), GF, 'grlex'],
    ['rational coefficients over Q, grevlex', rational, Q, 'grevlex'],
  ];
  it.each(cases)('express every basis element in the generators: %s', (_name, system, field, order) => {
    const R = resolveRing({ field, variables: system.variables, order });
    const generators = parsePolynomials(R, system.generators);
    const plain = groebnerBasis(R, generators);
    const result = groebnerBasis(R, generators, { cofactors: true });
    expect(texts(R, result.basis)).toEqual(texts(R, plain.basis));
    expect(result.cofactors).toHaveLength(result.basis.length);
    result.basis.forEach((b, i) => {
      let sum: Polynomial<unknown> = [];
      (result.cofactors?.[i] ?? []).forEach((c, j) => {
        sum = R.add(sum, R.mul(c, generators[j] as Polynomial<unknown>));
      });
      expect(printPolynomial(R, sum)).toBe(printPolynomial(R, b));
    });
  });
});

describe('groebnerBasis: packed monomials and their fallback', () => {
  // Graded orders without cofactors run on packed monomials of degree at most 127; with cofactors,
  // or once a degree passes 127, on one word per exponent. Both must give the same reduced basis.
  const unpacked = (R: PolynomialRing<unknown>, generators: Polynomial<unknown>[]): string[] => texts(R, groebnerBasis(R, generators, { cofactors: true }).basis);
  it('passes degree 127 through an input (x^130 - y) and through an lcm (x^100*y, x*y^100)', () => {
    const R = resolveRing({ field: { kind: 'Q' }, variables: ['x', 'y', 'z'], order: 'grevlex' });
    expect(texts(R, groebnerBasis(R, parsePolynomials(R, ['x^130 - y', 'y^2 - 1'])).basis)).toEqual(['y^2 - 1', 'x^130 - y']);
    for (const order of ['grevlex', 'grlex'] as const) {
      const S = resolveRing({ field: { kind: 'Q' }, variables: ['x', 'y', 'z'], order });
      expect(texts(S, groebnerBasis(S, parsePolynomials(S, ['x^100*y - 1', 'x*y^100 - 1'])).basis)).toEqual(['x^99 - y^99', 'x*y^100 - 1', 'y^199 - x^98']);
    }
  });
  it('agrees with the unpacked layout at and around degree 127', () => {
    const cases = [
      ['x^126*y - z', 'x*y^2 - 1'],
      ['x^63*y^64 - z', 'y^65 - x^3', 'x^64 - 1'],
      ['x^127 - y*z', 'y^127 - 2*x', 'z^3 - x*y'],
      ['x^60*y^60*z^7 - 1', 'x^2*y - z^2'],
    ];
    for (const field of FIELDS) {
      for (const order of ['grevlex', 'grlex'] as const) {
        const R = resolveRing({ field, variables: ['x', 'y', 'z'], order });
        for (const generators of cases) {
          const G = parsePolynomials(R, generators);
          expect(texts(R, groebnerBasis(R, G).basis), `${generators.join(', ')} (${order})`).toEqual(unpacked(R, G));
        }
      }
    }
  });
  it('agrees with the unpacked layout on random ideals and the standard systems', () => {
    for (const field of FIELDS) {
      for (const order of ['grevlex', 'grlex'] as const) {
        const R = resolveRing({ field, variables: ['x', 'y', 'z'], order });
        for (const generators of randomIdeals(15, order.length * 7 + (field.kind === 'Q' ? 3 : 4))) {
          const G = parsePolynomials(R, generators);
          expect(texts(R, groebnerBasis(R, G).basis)).toEqual(unpacked(R, G));
        }
        for (const system of [cyclicSystem(4), katsuraSystem(4)]) {
          const S = resolveRing({ field, variables: system.variables, order });
          const G = parsePolynomials(S, system.generators);
          expect(texts(S, groebnerBasis(S, G).basis)).toEqual(unpacked(S, G));
        }
      }
    }
  });
  it('agrees with the unpacked layout when large leading coefficients make the multipliers large', () => {
    // Reducers with leading coefficients near 2^40 multiply the remainder by large factors, whose
    // content the reduction over Q takes out on the way (the cofactor path takes full contents).
    const next = random(977);
    const big = (): string => String(1_000_000_007n * BigInt(1 + Math.floor(next() * 1000)));
    const R = resolveRing({ field: { kind: 'Q' }, variables: ['x', 'y', 'z'], order: 'grevlex' });
    for (let round = 0; round < 6; round++) {
      const G = parsePolynomials(R, [`${big()}*x^2*y - ${big()}*z^2 + 3*x`, `${big()}*y^2*z - x*y + ${big()}`, `${big()}*x*z^2 - ${big()}*y^3 + z`]);
      expect(texts(R, groebnerBasis(R, G).basis)).toEqual(unpacked(R, G));
    }
  });
  it('packs nine variables and more into several words', () => {
    const variables = Array.from({ length: 9 }, (_, i) => `x${i}`);
    const R = resolveRing({ field: { kind: 'Q' }, variables, order: 'grevlex' });
    const G = parsePolynomials(R, ['x0*x8 - x4^2', 'x1*x7 - x3*x5', 'x2^2*x6 - x0*x1*x8 + 1', 'x8^3 - x0', 'x4*x5 - x2']);
    expect(texts(R, groebnerBasis(R, G).basis)).toEqual(unpacked(R, G));
  });
});

describe('groebnerBasis: stopping', () => {
  it('stops when the checkpoint throws, with the error it threw', () => {
    const system = cyclicSystem(6);
    const R = resolveRing({ field: { kind: 'Q' }, variables: system.variables, order: 'grevlex' });
    let calls = 0;
    const stop = new JacobianError('EXECUTION_TIMEOUT', 'stop');
    expect(() =>
      groebnerBasis(R, parsePolynomials(R, system.generators), {
        checkpoint: (stats) => {
          calls++;
          if (stats.steps >= 500) throw stop;
        },
      }),
    ).toThrow(stop);
    expect(calls).toBeGreaterThan(0);
  });
});

describe('groebnerBasisKernel', () => {
  const ctx = (deadline: number): KernelContext => ({ deadline, signal: new AbortController().signal, progress: () => undefined });
  const ring = { field: { kind: 'Q' }, variables: ['x', 'y', 'z'], order: 'grevlex' };
  it('returns a claim in canonical JSON that the shared schema accepts', () => {
    const output = groebnerBasisKernel({ ring, generators: ['x*y - z', 'y*z - x', 'x*z - y'], cofactors: true }, ctx(Date.now() + 60_000));
    const claim = GroebnerBasisClaimSchema.parse({ ring: output.ring, generators: output.generators, basis: output.basis, cofactors: output.cofactors });
    expect(claim.basis.length).toBeGreaterThan(0);
    expect(output.stats.reductions).toBeGreaterThan(0);
  });
  it('re-parses its input and names the failing field', () => {
    expect(() => groebnerBasisKernel({ ring, generators: ['x', 'x*w'], cofactors: false }, ctx(Date.now() + 60_000))).toThrow(/generators\.1, column 3/);
    expect(() => groebnerBasisKernel({ ring: { ...ring, order: 'deglex' }, generators: ['x'], cofactors: false }, ctx(Date.now() + 60_000))).toThrow(JacobianError);
  });
  it('throws EXECUTION_TIMEOUT once the deadline has passed', () => {
    const system = cyclicSystem(6);
    try {
      groebnerBasisKernel({ ring: { field: { kind: 'Q' }, variables: system.variables, order: 'grevlex' }, generators: [...system.generators], cofactors: false }, ctx(Date.now() - 1));
      expect.unreachable('the kernel should have stopped');
    } catch (error) {
      expect((error as JacobianError).code).toBe('EXECUTION_TIMEOUT');
    }
  });
});
