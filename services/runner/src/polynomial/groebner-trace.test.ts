import { describe, expect, it } from 'vitest';
import {
  cyclicSystem,
  JacobianError,
  katsuraSystem,
  parsePolynomials,
  printPolynomial,
  resolveRing,
  type FieldSpec,
  type MonomialOrder,
  type Polynomial,
  type PolynomialRing,
} from '@jacobian/shared';
import { findSingular, singularReducedBases, type SingularJob } from '@jacobian/shared/testing';
import { groebnerBasis, TRACE_PRIME } from './groebner.js';
import { mulberry32 as random } from '@jacobian/shared/testing';

const singular = findSingular();
const ORDERS: MonomialOrder[] = ['grevlex', 'grlex', 'lex'];
const Q: FieldSpec = { kind: 'Q' };


/**
 * Random ideals in `variables`: 2–4 generators of 2–5 terms of degree ≤ 3, coefficients up to
 * ±maxCoefficient. Lex gets 2–3 generators of 2–4 terms in three variables: larger random ideals
 * take minutes under lex (for Singular's comparison too).
 */
function randomIdeals(variables: readonly string[], count: number, seed: number, maxCoefficient: number, order: MonomialOrder): string[][] {
  const next = random(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  const lex = order === 'lex';
  return Array.from({ length: count }, () =>
    Array.from({ length: int(2, lex ? 3 : 4) }, () =>
      Array.from({ length: int(2, lex ? 4 : 5) }, () => {
        const e = variables.map(() => 0);
        for (let d = int(0, 3); d > 0; d--) (e[int(0, variables.length - 1)] as number)++;
        const monomial = variables.map((v, i) => `${v}^${e[i]}`).join('*');
        return `${int(-maxCoefficient, maxCoefficient) || 1}*${monomial}`;
      }).join(' + '),
    ),
  );
}

const texts = (R: PolynomialRing<unknown>, basis: readonly Polynomial<unknown>[]): string[] => basis.map((p) => printPolynomial(R, p));

describe('modular trace over Q: the same reduced basis as the plain algorithm', () => {
  for (const order of ORDERS) {
    it(`on 40 random ideals in x, y, z (${order})`, () => {
      const R = resolveRing({ field: Q, variables: ['x', 'y', 'z'], order });
      const outcomes = new Map<string, number>();
      for (const generators of randomIdeals(['x', 'y', 'z'], 40, 7 + order.length, 30, order)) {
        const G = parsePolynomials(R, generators);
        const traced = groebnerBasis(R, G, { modularTrace: 'always' });
        const plain = groebnerBasis(R, G, { modularTrace: 'never' });
        expect(plain.trace).toBeUndefined();
        expect(texts(R, traced.basis)).toEqual(texts(R, plain.basis));
        const outcome = traced.trace?.outcome ?? 'none';
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
      // With the default prime every one of these is certified: the trace is used, not just tried.
      expect(Object.fromEntries(outcomes)).toEqual({ certified: 40 });
    });
  }

  it('on the standard systems cyclic-4, katsura-3 (all three orders) and katsura-4 (graded)', () => {
    for (const system of [cyclicSystem(4), katsuraSystem(3), katsuraSystem(4)]) {
      // Plain lex Buchberger on katsura-4 takes minutes.
      for (const order of system.name === 'katsura-4' ? ORDERS.slice(0, 2) : ORDERS) {
        const R = resolveRing({ field: Q, variables: system.variables, order });
        const G = parsePolynomials(R, system.generators);
        const traced = groebnerBasis(R, G, { modularTrace: 'always' });
        expect(traced.trace?.outcome).toBe('certified');
        expect(traced.trace?.prime).toBe(TRACE_PRIME);
        expect(texts(R, traced.basis)).toEqual(texts(R, groebnerBasis(R, G, { modularTrace: 'never' }).basis));
      }
    }
  });
});

describe('modular trace: a wrong trace is detected and the full algorithm answers', () => {
  // With the prime 7 these ideals lose information modulo p; each names what goes wrong.
  const cases: [string, string[], string][] = [
    // S(f1, f2) = 7·y^2 vanishes modulo 7, so the pair is skipped over Q and the check finds y^2 missing.
    ['a pair that only vanishes modulo p', ['x^2 + 7*y', 'x*y'], 'rejected'],
    ['a remainder with another leading monomial modulo p', ['x^2 + 7*y^2 + y', 'x*y + z'], 'mismatch'],
    ['a leading coefficient divisible by p', ['x*y + 14*z', 'x^2 - y', 'y^2 + 7*x*z'], 'unlucky-prime'],
  ];
  for (const [name, generators, outcome] of cases) {
    it(`${name}: ${outcome}`, () => {
      const order: MonomialOrder = outcome === 'unlucky-prime' ? 'lex' : 'grevlex';
      const R = resolveRing({ field: Q, variables: ['x', 'y', 'z'], order });
      const G = parsePolynomials(R, generators);
      const traced = groebnerBasis(R, G, { modularTrace: 'always', tracePrime: 7 });
      expect(traced.trace?.outcome).toBe(outcome);
      expect(texts(R, traced.basis)).toEqual(texts(R, groebnerBasis(R, G, { modularTrace: 'never' }).basis));
    });
  }
  it('a plain run stopped by its coefficient bound resumes only if the modular run began the same way', () => {
    // S(f1, f2) = A·y^2 − B·x over Q (A, B coprime, more than 256 bits): the plain run stops there.
    // Modulo 7, A vanishes and the remainder leads with x: the records differ from the first pair.
    const R = resolveRing({ field: Q, variables: ['x', 'y', 'z'], order: 'grevlex' });
    const G = parsePolynomials(R, [`x^2 + ${7n * 2n ** 300n}*y`, `x*y + ${3n ** 200n}`]);
    const plain = texts(R, groebnerBasis(R, G, { modularTrace: 'never' }).basis);
    const unlucky = groebnerBasis(R, G, { tracePrime: 7 });
    expect(unlucky.trace?.outcome).toBe('mismatch');
    expect(texts(R, unlucky.basis)).toEqual(plain);
    const resumed = groebnerBasis(R, G);
    expect(resumed.trace?.outcome).toBe('certified');
    expect(texts(R, resumed.basis)).toEqual(plain);
  });
});

describe('modular trace: when it is used', () => {
  it('auto keeps the plain run while coefficients stay small (katsura-5)', () => {
    const system = katsuraSystem(5);
    const R = resolveRing({ field: Q, variables: system.variables, order: 'grevlex' });
    expect(groebnerBasis(R, parsePolynomials(R, system.generators)).trace).toBeUndefined();
  });
  it('is not used with cofactors or over GF(p)', () => {
    const system = cyclicSystem(4);
    const R = resolveRing({ field: Q, variables: system.variables, order: 'grevlex' });
    expect(groebnerBasis(R, parsePolynomials(R, system.generators), { modularTrace: 'always', cofactors: true }).trace).toBeUndefined();
    const F = resolveRing({ field: { kind: 'GF', characteristic: '32003' }, variables: system.variables, order: 'grevlex' });
    expect(groebnerBasis(F, parsePolynomials(F, system.generators), { modularTrace: 'always' }).trace).toBeUndefined();
  });
  it('stops through the checkpoint inside the traced run', () => {
    const system = cyclicSystem(6);
    const R = resolveRing({ field: Q, variables: system.variables, order: 'grevlex' });
    const stop = new JacobianError('EXECUTION_TIMEOUT', 'stop');
    let calls = 0;
    expect(() =>
      groebnerBasis(R, parsePolynomials(R, system.generators), {
        modularTrace: 'always',
        checkpoint: () => {
          if (++calls >= 20) throw stop;
        },
      }),
    ).toThrow(stop);
    expect(calls).toBe(20);
  });
});

describe.skipIf(singular.path === null)(`modular trace and residue merge against Singular${singular.path === null ? ` (skipped: ${singular.reason})` : ''}`, () => {
  it('cyclic-6 over Q (grevlex) switches to the trace and equals Singular', () => {
    const system = cyclicSystem(6);
    const ring = resolveRing({ field: Q, variables: system.variables, order: 'grevlex' });
    const generators = parsePolynomials(ring, system.generators);
    const [expected] = singularReducedBases([{ ring, generators }]);
    const ours = groebnerBasis(ring, generators);
    expect(ours.trace?.outcome).toBe('certified');
    expect(texts(ring, ours.basis)).toEqual(texts(ring, expected as Polynomial<unknown>[]));
  });
  const fields: FieldSpec[] = [Q, { kind: 'GF', characteristic: '32003' }, { kind: 'GF', characteristic: String(TRACE_PRIME) }];
  for (const field of fields) {
    for (const order of ORDERS) {
      const name = `${field.kind === 'Q' ? 'Q (traced)' : `GF(${field.characteristic})`}, ${order}`;
      const variables = order === 'lex' ? ['x', 'y', 'z'] : ['w', 'x', 'y', 'z'];
      it(`equals Singular on 15 random ideals in ${variables.join(', ')}: ${name}`, () => {
        const jobs: SingularJob<unknown>[] = randomIdeals(variables, 15, 101 + order.length + field.kind.length, 1000, order).map((generators) => {
          const ring = resolveRing({ field, variables, order });
          return { ring, generators: parsePolynomials(ring, generators) };
        });
        const expected = singularReducedBases(jobs);
        jobs.forEach((job, k) => {
          const ours = groebnerBasis(job.ring, job.generators, { modularTrace: 'always' });
          expect(texts(job.ring, ours.basis)).toEqual(texts(job.ring, expected[k] as Polynomial<unknown>[]));
        });
      });
    }
  }
});
