import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalLpCertificateClaim, canonicalLpProblem, canonicalize, makeRational, RATIONALS, type Rational } from '@jacobian/shared';
import { add, compare, fraction, mul, scaled, Sum, type Q } from './exact.js';
import { verifyLpCertificateKernel } from './lp-certificate-verify.kernel.js';

// shared's rationals are the independent implementation the checker's own arithmetic is compared with.
const R = RATIONALS;
const big = fc.bigInt({ min: -(1n << 200n), max: 1n << 200n });
const rational = fc.tuple(big, fc.bigInt({ min: 1n, max: 1n << 130n })).map(([p, q]) => ({ ours: fraction(p, q), theirs: makeRational(p, q) }));
const same = (a: Q, b: Rational): void => {
  expect(a.num).toBe(b.num);
  expect(a.den).toBe(b.den);
};

describe("the checker's exact arithmetic agrees with shared's rationals", () => {
  it('add, mul, compare and a common-denominator sum of products', () => {
    fc.assert(
      fc.property(rational, rational, fc.array(fc.tuple(rational, rational), { maxLength: 12 }), (a, b, terms) => {
        same(add(a.ours, b.ours), R.add(a.theirs, b.theirs));
        same(mul(a.ours, b.ours), R.mul(a.theirs, b.theirs));
        const difference = R.sub(a.theirs, b.theirs);
        expect(compare(a.ours, b.ours)).toBe(difference.num > 0n ? 1 : difference.num < 0n ? -1 : 0);
        const sum = new Sum();
        let expected = R.zero;
        for (const [x, y] of terms) {
          sum.addProduct(x.ours, y.ours);
          expected = R.add(expected, R.mul(x.theirs, y.theirs));
        }
        same(sum.value(), expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the kernel', () => {
  it('stops with EXECUTION_TIMEOUT, no verdict, once the deadline has passed', () => {
    const problem = canonicalLpProblem({ sense: 'minimize', variables: [{ name: 'x' }], objective: { x: 1 }, constraints: [{ name: 'r', coefficients: { x: 1 }, relation: '>=', rhs: 1 }] });
    const claim = JSON.parse(canonicalize(canonicalLpCertificateClaim({ outcome: 'OPTIMAL', objective_value: 1, primal: { x: 1 }, dual: { r: 1 }, reduced_costs: {} }, problem))) as unknown;
    const ctx = (deadline: number) => ({ deadline, signal: new AbortController().signal, progress: () => undefined });
    expect(verifyLpCertificateKernel({ claim }, ctx(Date.now() + 60_000))).toMatchObject({ accepted: true });
    expect(() => verifyLpCertificateKernel({ claim }, ctx(Date.now() - 1))).toThrow(expect.objectContaining({ code: 'EXECUTION_TIMEOUT' }) as unknown);
  });
});

describe('values over a common denominator', () => {
  it('keeps every value and a denominator every value divides', () => {
    fc.assert(
      fc.property(fc.array(rational, { maxLength: 12 }), (values) => {
        const { nums, den } = scaled(values.map((v) => v.ours));
        values.forEach((v, k) => same(fraction(nums[k] as bigint, den), v.theirs));
        for (const v of values) expect(den % v.ours.den).toBe(0n);
      }),
      { numRuns: 300 },
    );
  });
});
