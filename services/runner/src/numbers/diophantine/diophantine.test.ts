import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isqrt, isSquare } from '@jacobian/shared';
import { checkPeriodicExpansion, convergents, foldContinuedFraction, quadraticContinuedFraction, rationalContinuedFraction } from './continued-fraction.js';
import { solveIntegerSystem } from './integer-linear-system.js';
import { solvePell } from './pell.js';
import { act, classGroup, compose, decideEquivalence, discriminant, isReducedDefinite, isReducedIndefinite, principalForm, reduceForm, reducedForms, type Form } from './quadratic-forms.js';

describe('continued fractions', () => {
  it('rationals: known expansions, folding back, canonical last term', () => {
    expect(rationalContinuedFraction(415n, 93n)).toEqual([4n, 2n, 6n, 7n]);
    expect(rationalContinuedFraction(-415n, 93n)).toEqual([-5n, 1n, 1n, 6n, 7n]);
    expect(rationalContinuedFraction(5n, 1n)).toEqual([5n]);
    fc.assert(
      fc.property(fc.bigInt(-(10n ** 30n), 10n ** 30n), fc.bigInt(1n, 10n ** 30n), (p, q) => {
        const terms = rationalContinuedFraction(p, q);
        const { num, den } = foldContinuedFraction(terms);
        expect(num * q).toBe(p * den);
        if (terms.length > 1) expect(terms.at(-1)! >= 2n).toBe(true);
        expect(terms.slice(1).every((a) => a >= 1n)).toBe(true);
      }),
    );
  });

  it('quadratic irrationals: √2, √7, the golden ratio, (1 + √7)/(−3), each rechecked in Q(√D)', () => {
    expect(quadraticContinuedFraction(0n, 2n, 1n, 100)).toMatchObject({ preperiod: [1n], period: [2n] });
    expect(quadraticContinuedFraction(0n, 7n, 1n, 100)).toMatchObject({ preperiod: [2n], period: [1n, 1n, 1n, 4n] });
    expect(quadraticContinuedFraction(1n, 5n, 2n, 100)).toMatchObject({ preperiod: [], period: [1n] });
    // PARI: contfrac((1+sqrt(7))/(-3)) = [-2, 1, 3, 1, 1, 1, 4, 1, 1, 1, 4, …].
    const e = quadraticContinuedFraction(1n, 7n, -3n, 100);
    expect([...e.preperiod, ...e.period, ...e.period]).toEqual([-2n, 1n, 3n, 1n, 1n, 1n, 4n, 1n, 1n, 1n, 4n]);
    expect(checkPeriodicExpansion(e)).toBe(true);
  });

  it('the Q(√D) recheck rejects a wrong period or pre-period', () => {
    const e = quadraticContinuedFraction(0n, 7n, 1n, 100);
    expect(checkPeriodicExpansion({ ...e, period: [1n, 1n, 1n, 3n] })).toBe(false);
    expect(checkPeriodicExpansion({ ...e, preperiod: [3n] })).toBe(false);
    expect(checkPeriodicExpansion({ ...e, period: [1n, 1n, 4n, 1n] })).toBe(false);
  });

  it('every expansion of (P + √D)/Q passes its recheck (property)', () => {
    fc.assert(
      fc.property(fc.bigInt(-1000n, 1000n), fc.bigInt(2n, 10n ** 5n), fc.bigInt(-100n, 100n), (P, D, Q) => {
        fc.pre(Q !== 0n && !isSquare(D));
        expect(checkPeriodicExpansion(quadraticContinuedFraction(P, D, Q, 100_000))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('convergents of √2 are the Pell numbers', () => {
    expect(convergents([1n, 2n, 2n, 2n, 2n]).map(({ p, q }) => `${p}/${q}`)).toEqual(['1/1', '3/2', '7/5', '17/12', '41/29']);
  });
});

describe("Pell's equation", () => {
  /** The least y ≥ 1 with D y² ± 1 a square, searching y ≤ bound; null if none there. */
  function naive(D: bigint, sign: 1n | -1n, bound: bigint): { x: bigint; y: bigint } | null {
    for (let y = 1n; y <= bound; y++) {
      const x2 = D * y * y + sign;
      if (x2 > 0n && isSquare(x2)) return { x: isqrt(x2), y };
    }
    return null;
  }

  it('D = 2..1000: the fundamental solutions agree with a naive search for small solutions, and are exact', () => {
    for (let d = 2n; d <= 1000n; d++) {
      if (isSquare(d)) continue;
      const { plus, minus, period } = solvePell(d, 10_000);
      expect(plus.x * plus.x - d * plus.y * plus.y).toBe(1n);
      const bound = 3000n;
      const found = naive(d, 1n, plus.y <= bound ? plus.y : bound);
      if (plus.y <= bound) expect(found, `D = ${d}`).toEqual(plus);
      else expect(found, `D = ${d}: no solution with y ≤ ${bound}`).toBeNull();
      expect(minus === null).toBe(period.length % 2 === 0);
      if (minus !== null) {
        expect(minus.x * minus.x - d * minus.y * minus.y).toBe(-1n);
        if (minus.y <= bound) expect(naive(d, -1n, minus.y)).toEqual(minus);
      } else if (d < 200n) {
        expect(naive(d, -1n, 2000n), `D = ${d}: −1 unsolvable`).toBeNull();
      }
    }
  });

  it('known solutions: D = 61, 109 (Fermat), 991', () => {
    expect(solvePell(61n, 1000).plus).toEqual({ x: 1766319049n, y: 226153980n });
    expect(solvePell(109n, 1000).plus).toEqual({ x: 158070671986249n, y: 15140424455100n });
    expect(solvePell(991n, 1000).plus.x).toBe(379516400906811930638014896080n);
    expect(solvePell(13n, 100).minus).toEqual({ x: 18n, y: 5n });
  });

  it('refuses squares and stops at max_period', () => {
    expect(() => solvePell(49n, 10)).toThrow(/pell-non-square/);
    expect(() => solvePell(1000003n, 5)).toThrow(/max-period/);
  });
});

describe('binary quadratic forms', () => {
  it('definite reduction: reduced, properly equivalent (property)', () => {
    fc.assert(
      fc.property(fc.bigInt(1n, 10n ** 6n), fc.bigInt(-(10n ** 6n), 10n ** 6n), fc.bigInt(-(10n ** 6n), 10n ** 6n), fc.bigInt(-50n, 50n), (a, b, t, u) => {
        // A positive definite form: f = (a, b, c) with c large enough; scrambled by [[1, t], [u, 1 + t u]].
        const c = (b * b) / (4n * a) + 1n;
        const f: Form = act([a, b, c], [[1n, t], [u, 1n + t * u]]);
        const { form, transform } = reduceForm(f);
        expect(isReducedDefinite(form)).toBe(true);
        expect(act(f, transform)).toEqual(form);
        expect(reduceForm([a, b, c]).form).toEqual(form);
      }),
      { numRuns: 300 },
    );
  });

  it('indefinite reduction and equivalence on the cycle (property)', () => {
    fc.assert(
      fc.property(fc.bigInt(-500n, 500n), fc.bigInt(-500n, 500n), fc.bigInt(-500n, 500n), fc.bigInt(-30n, 30n), fc.bigInt(-30n, 30n), (a, b, c, t, u) => {
        const f: Form = [a, b, c];
        const D = discriminant(f);
        fc.pre(D > 0n && !isSquare(D));
        const g = act(f, [[1n + t * u, t], [u, 1n]]);
        const { form, transform } = reduceForm(f);
        expect(isReducedIndefinite(form)).toBe(true);
        expect(act(f, transform)).toEqual(form);
        const answer = decideEquivalence(f, g, 100_000);
        expect(answer.equivalent).toBe(true);
        if (answer.equivalent) expect(act(f, answer.transform)).toEqual(g);
      }),
      { numRuns: 300 },
    );
  });

  it('(2, 1, 3) and (2, −1, 3) are not properly equivalent; forms of other discriminants never are', () => {
    expect(decideEquivalence([2n, 1n, 3n], [2n, -1n, 3n], 10)).toMatchObject({ equivalent: false, reason: 'DISTINCT_REDUCED_FORMS' });
    expect(decideEquivalence([1n, 0n, 1n], [1n, 1n, 1n], 10)).toMatchObject({ equivalent: false, reason: 'DISCRIMINANTS_DIFFER' });
    expect(() => reduceForm([1n, 2n, 1n])).toThrow(/non-square-discriminant/);
  });
});

describe('imaginary quadratic class groups', () => {
  // Class numbers typed in: Gauss's table and the nine Heegner discriminants with h = 1.
  const KNOWN: [number, number][] = [
    [-3, 1], [-4, 1], [-7, 1], [-8, 1], [-11, 1], [-19, 1], [-43, 1], [-67, 1], [-163, 1],
    [-15, 2], [-20, 2], [-23, 3], [-31, 3], [-39, 4], [-47, 5], [-56, 4], [-71, 7], [-84, 4], [-104, 6], [-199, 9], [-420, 8], [-5000, 30],
    [-12, 1], [-16, 1], [-27, 1], [-28, 1], [-1000003, 105],
  ];
  it.each(KNOWN)('h(%i) = %i', (D, h) => {
    expect(reducedForms(BigInt(D)).length).toBe(h);
    expect(classGroup(BigInt(D)).classNumber).toBe(h);
  });

  it('structures: (Z/2)^3 × Z/4 for −20020, Z/3 × Z/9 for −3299, (Z/2)^2 for −420', () => {
    expect(classGroup(-20020n).invariants).toEqual([2n, 2n, 2n, 4n]);
    expect(classGroup(-3299n).invariants).toEqual([3n, 9n]);
    expect(classGroup(-420n).invariants).toEqual([2n, 2n, 2n]);
  });

  it('composition: the principal form is neutral, a form times its opposite is principal', () => {
    for (const D of [-23n, -71n, -3299n, -20020n]) {
      const e = principalForm(D);
      for (const f of reducedForms(D)) {
        expect(compose(f, e)).toEqual(f);
        expect(compose(f, [f[0], -f[1], f[2]])).toEqual(e);
        expect(discriminant(compose(f, f))).toBe(D);
      }
    }
  });
});

describe('integer linear systems through the HNF', () => {
  const times = (A: bigint[][], x: bigint[]): bigint[] => A.map((row) => row.reduce((s, a, j) => s + a * (x[j] as bigint), 0n));

  it('solves, or certifies NONE (small random systems against a brute-force search)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.bigInt(-6n, 6n), { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 2 }), fc.array(fc.bigInt(-8n, 8n), { minLength: 2, maxLength: 2 }), (A, b0) => {
        const b = b0.slice(0, A.length);
        const answer = solveIntegerSystem(A, b);
        // Brute force over a box: any solution found there must fit the answer.
        let boxSolution: bigint[] | null = null;
        for (let x = -30n; x <= 30n && boxSolution === null; x++) for (let y = -30n; y <= 30n; y++) if (times(A, [x, y]).every((v, i) => v === b[i])) { boxSolution = [x, y]; break; }
        if (answer.outcome === 'NONE') expect(boxSolution).toBeNull();
        else {
          expect(times(A, answer.particular)).toEqual(b);
          for (const k of answer.kernel) expect(times(A, k).every((v) => v === 0n)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('6x + 10y + 15z = 1 and 2x + 4y = 3', () => {
    const solved = solveIntegerSystem([[6n, 10n, 15n]], [1n]);
    expect(solved).toMatchObject({ outcome: 'SOLVED', rank: 1 });
    expect(solveIntegerSystem([[2n, 4n]], [3n])).toMatchObject({ outcome: 'NONE', obstruction: 'NOT_INTEGRAL', yb: { num: 3n, den: 2n } });
    expect(solveIntegerSystem([[1n, 1n], [2n, 2n]], [1n, 3n])).toMatchObject({ outcome: 'NONE', obstruction: 'INCONSISTENT_OVER_Q' });
  });
});
