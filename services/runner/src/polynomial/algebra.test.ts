import { describe, expect, it } from 'vitest';
import { parsePolynomial, printPolynomial, resolveRing, type Polynomial, type PolynomialRing } from '@jacobian/shared';
import { findSingular } from '@jacobian/shared/testing';
import { runSingularProgram } from '../providers/singular.js';
import { bareissDeterminant, divideWithQuotients, exactQuotient, membershipFromBasis, normalizeAssociate, polynomialGcd, polynomialResultant } from './algebra.js';
import { groebnerBasis } from './groebner.js';
import { mulberry32 as random } from '@jacobian/shared/testing';

const singular = findSingular();
const Q = { kind: 'Q' as const };
const GF7 = { kind: 'GF' as const, characteristic: '7' };

function ringOf(field: typeof Q | typeof GF7, variables: string[], order = 'grevlex'): PolynomialRing<unknown> {
  return resolveRing({ field, variables, order });
}
const P = (R: PolynomialRing<unknown>, text: string): Polynomial<unknown> => parsePolynomial(R, text);
const T = (R: PolynomialRing<unknown>, p: Polynomial<unknown>): string => printPolynomial(R, p);

function randomPolynomial(next: () => number, variables: string[], terms: number, degree: number): string {
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  return Array.from({ length: terms }, () => `${int(-5, 5) || 1}*${variables.map((v) => `${v}^${int(0, degree)}`).join('*')}`).join(' + ');
}

describe('exact division and normalization', () => {
  it('divides exactly or says it does not', () => {
    const R = ringOf(Q, ['x', 'y']);
    expect(T(R, exactQuotient(R, P(R, 'x^2 - y^2'), P(R, 'x + y')) as Polynomial<unknown>)).toBe('x - y');
    expect(exactQuotient(R, P(R, 'x^2 + y^2'), P(R, 'x + y'))).toBeNull();
  });
  it('normalizes: primitive with a positive lead over Q, monic over GF(p)', () => {
    const R = ringOf(Q, ['x', 'y']);
    expect(T(R, normalizeAssociate(R, P(R, '-2/3*x + 4/9*y')))).toBe('3*x - 2*y');
    const S = ringOf(GF7, ['x']);
    expect(T(S, normalizeAssociate(S, P(S, '3*x + 1')))).toBe('x + 5');
  });
});

describe('gcd (hand-checked)', () => {
  it('univariate and multivariate over Q and GF(7)', () => {
    const R = ringOf(Q, ['x']);
    expect(polynomialGcd(R, [P(R, 'x^2 - 1'), P(R, 'x^2 + 2*x + 1')])).toMatchObject({ method: 'euclid' });
    expect(T(R, polynomialGcd(R, [P(R, '2*x^2 - 2'), P(R, '4*x^2 + 8*x + 4')]).gcd)).toBe('x + 1');
    expect(T(R, polynomialGcd(R, [P(R, 'x^2 + 1'), P(R, 'x - 1')]).gcd)).toBe('1');
    expect(T(R, polynomialGcd(R, [P(R, '0'), P(R, '-6*x + 3')]).gcd)).toBe('2*x - 1');
    expect(T(R, polynomialGcd(R, [P(R, '0')]).gcd)).toBe('0');
    const S = ringOf(Q, ['x', 'y']);
    const m = polynomialGcd(S, [P(S, '(x^2 - y^2)*(3*x + 2*y)^2'), P(S, '(x + y)*(6*x + 4*y)*(x - 7)'), P(S, '(x + y)*(3*x + 2*y)*y')]);
    expect(m.method).toBe('recursive-prs');
    expect(T(S, m.gcd)).toBe('3*x^2 + 5*x*y + 2*y^2');
    const G = ringOf(GF7, ['x', 'y']);
    expect(T(G, polynomialGcd(G, [P(G, '(3*x + y)*(x - y)'), P(G, '(3*x + y)^2')]).gcd)).toBe('x + 5*y');
  });
});

describe('resultant (hand-checked)', () => {
  it('matches the closed forms', () => {
    const R = ringOf(Q, ['x', 'a', 'b', 'c'], 'lex');
    // Res_x(a x^2 + b x + c, 2 a x + b) = -a (b^2 - 4 a c) = 4a^2c - ab^2.
    expect(T(R, polynomialResultant(R, P(R, 'a*x^2 + b*x + c'), P(R, '2*a*x + b'), 0))).toBe('4*a^2*c - a*b^2');
    const S = ringOf(Q, ['x', 'y'], 'lex');
    expect(T(S, polynomialResultant(S, P(S, 'x^2 + y^2 - 1'), P(S, 'x - y'), 1))).toBe('2*x^2 - 1');
    expect(T(S, polynomialResultant(S, P(S, 'x^2 - 1'), P(S, 'x - 1'), 0))).toBe('0');
    expect(T(S, polynomialResultant(S, P(S, '3'), P(S, 'x^2 + y'), 0))).toBe('9');
    expect(T(S, polynomialResultant(S, P(S, '0'), P(S, 'x'), 0))).toBe('0');
  });
  it('Bareiss computes determinants with row swaps', () => {
    const R = ringOf(Q, ['x']);
    const M = [
      [P(R, '0'), P(R, '1')],
      [P(R, 'x'), P(R, '2')],
    ];
    expect(T(R, bareissDeterminant(R, M))).toBe('-x');
  });
});

describe('membership from a basis with cofactors', () => {
  it('gives a certificate for members and the normal form for non-members', () => {
    const R = ringOf(Q, ['x', 'y'], 'lex');
    const G = [P(R, 'x^2 - y'), P(R, 'x*y - 1')];
    const { basis, cofactors } = groebnerBasis(R, G, { cofactors: true });
    const yes = membershipFromBasis(R, P(R, 'y^3 - 1 + x*(x^2 - y)'), 2, basis, cofactors ?? []);
    expect(yes.member).toBe(true);
    if (yes.member) {
      const sum = yes.cofactors.reduce((s, c, j) => R.add(s, R.mul(c, G[j] as Polynomial<unknown>)), [] as Polynomial<unknown>);
      expect(T(R, sum)).toBe(T(R, P(R, 'y^3 - 1 + x*(x^2 - y)')));
    }
    const no = membershipFromBasis(R, P(R, 'x + 1'), 2, basis, cofactors ?? []);
    expect(no).toMatchObject({ member: false });
    if (!no.member) expect(T(R, no.remainder)).toBe('y^2 + 1');
    const { quotients, remainder } = divideWithQuotients(R, P(R, 'x^3'), [P(R, 'x - y^2')]);
    expect([T(R, quotients[0] as Polynomial<unknown>), T(R, remainder)]).toEqual(['x^2 + x*y^2 + y^4', 'y^6']);
  });
});

describe.skipIf(singular.path === null)('against Singular', () => {
  it('gcd and resultant agree on random bivariate and trivariate inputs over Q and GF(7)', async () => {
    const next = random(20261130);
    for (let round = 0; round < 12; round++) {
      const field = round % 3 === 2 ? GF7 : Q;
      const variables = round % 2 === 0 ? ['x', 'y'] : ['x', 'y', 'z'];
      const R = ringOf(field, variables);
      const common = P(R, randomPolynomial(next, variables, 2, 1));
      const f = R.mul(common, P(R, randomPolynomial(next, variables, 3, 2)));
      const g = R.mul(common, P(R, randomPolynomial(next, variables, 2, 2)));
      const h = P(R, randomPolynomial(next, variables, 3, 2));
      const out = await runSingularProgram(singular.path as string, {
        ring: R,
        polynomials: [f, g, h],
        program: ['"@@jacobian:gcd";', 'string(gcd(p1, p2));', '"@@jacobian:res";', 'string(resultant(p1, p3, v2));'],
        sections: ['gcd', 'res'],
      }, { deadline: Date.now() + 30_000, maxOutputBytes: 1 << 22 });
      const expectedGcd = normalizeAssociate(R, R.convert(out.parse((out.sections['gcd'] ?? [])[0] as string, 'gcd')));
      expect(T(R, polynomialGcd(R, [f, g]).gcd), `round ${round}`).toBe(T(R, expectedGcd));
      const expectedRes = R.convert(out.parse((out.sections['res'] ?? [])[0] as string, 'res'));
      expect(T(R, polynomialResultant(R, f, h, 1)), `round ${round}`).toBe(T(R, expectedRes));
    }
  }, 60_000);

  it('resultants agree on rational coefficients and degenerate inputs', async () => {
    const R = ringOf(Q, ['x', 'y']);
    const pairs = [['x/2 + 1', 'x - 3'], ['2/3*x^2*y + y/5', '7/4*x*y - 1'], ['0', 'x'], ['3', 'x^2 + y'], ['y^2 + 1', 'y']];
    for (const [a, b] of pairs) {
      const f = P(R, a as string);
      const g = P(R, b as string);
      const out = await runSingularProgram(singular.path as string, { ring: R, polynomials: [f, g], program: ['"@@jacobian:res";', 'string(resultant(p1, p2, v1));'], sections: ['res'] }, { deadline: Date.now() + 30_000, maxOutputBytes: 1 << 20 });
      expect(T(R, polynomialResultant(R, f, g, 0)), `${a} | ${b}`).toBe(T(R, R.convert(out.parse((out.sections['res'] ?? [])[0] as string, 'res'))));
    }
  }, 60_000);

  it('a Singular error in a program is PROVIDER_FAILED, not an answer', async () => {
    const R = ringOf(Q, ['x']);
    const run = runSingularProgram(singular.path as string, { ring: R, polynomials: [P(R, 'x')], program: ['"@@jacobian:res";', 'string(undefined_thing(p1));'], sections: ['res'] }, { deadline: Date.now() + 30_000, maxOutputBytes: 1 << 20 });
    await expect(run).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
    const missing = runSingularProgram(singular.path as string, { ring: R, polynomials: [P(R, 'x')], program: ['string(p1);'], sections: ['res'] }, { deadline: Date.now() + 30_000, maxOutputBytes: 1 << 20 });
    await expect(missing).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
  });
});
