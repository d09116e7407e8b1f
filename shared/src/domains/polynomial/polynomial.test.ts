import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JacobianError } from '../../errors.js';
import { polynomialFromJson, polynomialToJson, printPolynomial, resolveRing, RingSpecSchema } from './canonical.js';
import { fieldFromSpec, isProbablePrime, RATIONALS, type Rational } from './field.js';
import { POLYNOMIAL_LIMITS } from './limits.js';
import type { MonomialOrder, Polynomial, PolynomialRing } from './polynomial.js';
import { cyclicSystem, katsuraSystem } from './standard-systems.js';
import { parsePolynomial, parsePolynomials } from './syntax.js';

const VARS = ['x', 'y', 'z'];
const Q = resolveRing({ field: { kind: 'Q' }, variables: VARS, order: 'grevlex' });
const GF7 = resolveRing({ field: { kind: 'GF', characteristic: '7' }, variables: VARS, order: 'lex' });
const GF_BIG = resolveRing({ field: { kind: 'GF', characteristic: '170141183460469231731687303715884105727' }, variables: VARS, order: 'grlex' });

function errorOf(run: () => unknown): JacobianError {
  try {
    run();
  } catch (error) {
    if (error instanceof JacobianError) return error;
    throw error;
  }
  throw new Error('expected a JacobianError');
}

const text = (R: PolynomialRing<unknown>, s: string): string => printPolynomial(R, parsePolynomial(R, s));

describe('polynomial grammar', () => {
  it('expands and prints in canonical form', () => {
    expect(text(Q, '(x + y)^2')).toBe('x^2 + 2*x*y + y^2');
    expect(text(Q, '(x + 1/2*y)^2 - x*y')).toBe('x^2 + 1/4*y^2');
    expect(text(Q, '-x^2')).toBe('-x^2');
    expect(text(Q, '- - x')).toBe('x');
    expect(text(Q, '3/6*x/2 - 0*y + 0')).toBe('1/4*x');
    expect(text(Q, 'x - x')).toBe('0');
    expect(text(Q, '(x*y*z)^0 + 2^10')).toBe('1025');
    expect(text(Q, '123456789012345678901234567890*x')).toBe('123456789012345678901234567890*x');
    expect(text(Q, '  x\t*\ny ')).toBe('x*y');
    // grevlex: degree first, then the smaller last exponent is larger.
    expect(text(Q, 'z^2 + x*z + y^2 + x*y + x^2')).toBe('x^2 + x*y + y^2 + x*z + z^2');
    expect(text(GF7, '(x + y)^7')).toBe('x^7 + y^7');
    expect(text(GF7, 'x/3 - 1/2')).toBe('5*x + 3');
    expect(text(GF7, '-1')).toBe('6');
    expect(text(GF_BIG, 'x/2 + y^2')).toBe('y^2 + 85070591730234615865843651857942052864*x');
  });

  it('orders terms by lex, grlex and grevlex with the first variable largest', () => {
    const terms = 'x*z^2 + y^3 + x^2 + z';
    const ring = (order: MonomialOrder) => resolveRing({ field: { kind: 'Q' }, variables: VARS, order });
    expect(text(ring('lex'), terms)).toBe('x^2 + x*z^2 + y^3 + z');
    expect(text(ring('grlex'), terms)).toBe('x*z^2 + y^3 + x^2 + z');
    expect(text(ring('grevlex'), terms)).toBe('y^3 + x*z^2 + x^2 + z');
  });

  it.each([
    ['', 1, 'sum'],
    ['x +', 4, 'primary'],
    ['x y', 3, 'product'],
    ['2x', 2, 'product'],
    ['x ^ y', 5, 'exponent'],
    ['x^-1', 3, 'exponent'],
    ['x^2^3', 4, 'power'],
    ['x / y', 5, 'division'],
    ['x / 0', 5, 'division'],
    ['(x + y', 7, 'primary'],
    ['x + y)', 6, 'sum'],
    ['w + 1', 1, 'variable'],
    ['x + 1.5', 6, 'character'],
    ['x = 1', 3, 'character'],
    ['x^10001', 3, 'exponent'],
  ])('rejects %j at column %i (rule %s)', (source, column, rule) => {
    const error = errorOf(() => parsePolynomial(Q, source, { path: ['generators', 2] }));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.path).toEqual(['generators', 2]);
    expect(error.data).toMatchObject({ column, rule });
    expect(error.message).toContain(`column ${column}`);
    expect(error.message).toContain(`rule: ${rule}`);
  });

  it('rejects a division by a multiple of p over GF(p)', () => {
    expect(errorOf(() => parsePolynomial(GF7, 'x/14')).data).toMatchObject({ column: 3, rule: 'division' });
  });

  it('keeps parsing bounded: length, nesting, degree and digits', () => {
    expect(errorOf(() => parsePolynomial(Q, 'x'.repeat(POLYNOMIAL_LIMITS.maxTextLength + 1))).data).toMatchObject({ rule: 'length' });
    expect(errorOf(() => parsePolynomial(Q, `${'('.repeat(300)}x${')'.repeat(300)}`)).data).toMatchObject({ rule: 'nesting' });
    expect(errorOf(() => parsePolynomial(Q, '(x^5000)^3')).data).toMatchObject({ rule: 'size' });
    expect(errorOf(() => parsePolynomial(Q, (x => x)('9'.repeat(POLYNOMIAL_LIMITS.maxCoefficientDigits + 1)))).data).toMatchObject({ rule: 'size' });
    expect(errorOf(() => parsePolynomial(Q, '(x + y + z + 1)^100 * (x - y + 2*z - 3)^100')).data).toMatchObject({ rule: 'size' });
  });

  it('names the index of the failing text in a list', () => {
    expect(errorOf(() => parsePolynomials(Q, ['x', 'y', 'q'], { path: ['generators'] })).path).toEqual(['generators', 2]);
  });

  it('builds the standard systems in the grammar', () => {
    const c = cyclicSystem(3);
    expect(c.generators).toEqual(['x0 + x1 + x2', 'x0*x1 + x1*x2 + x2*x0', 'x0*x1*x2 - 1']);
    const k = katsuraSystem(2);
    const R = resolveRing({ field: { kind: 'Q' }, variables: k.variables, order: 'grevlex' });
    expect(parsePolynomials(R, k.generators).map((p) => printPolynomial(R, p))).toEqual([
      'u0^2 + 2*u1^2 + 2*u2^2 - u0',
      '2*u0*u1 + 2*u1*u2 - u1',
      'u0 + 2*u1 + 2*u2 - 1',
    ]);
  });
});

/** Random polynomials as texts of the grammar (so the parser is exercised too). */
const coefficient = fc.tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 6n }).map((d) => 7n * d + 1n)); // never divisible by 7
const termText = fc.tuple(coefficient, fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 3, maxLength: 3 })).map(([[n, d], e]) => `(${n}/${d})*x^${e[0]}*y^${e[1]}*z^${e[2]}`.replace(/\(-/, '(0-'));
const polyText = fc.array(termText, { maxLength: 6 }).map((terms) => (terms.length === 0 ? '0' : terms.join(' + ')));

describe('polynomial arithmetic (properties)', () => {
  for (const R of [Q, GF7, GF_BIG]) {
    const name = `${R.field.name}, ${R.order}`;
    const P = (s: string): Polynomial<unknown> => parsePolynomial(R, s);
    it(`is a commutative ring: ${name}`, () => {
      fc.assert(
        fc.property(polyText, polyText, polyText, (a, b, c) => {
          const [p, q, r] = [P(a), P(b), P(c)];
          expect(R.equals(R.add(p, q), R.add(q, p))).toBe(true);
          expect(R.equals(R.mul(p, q), R.mul(q, p))).toBe(true);
          expect(R.equals(R.mul(R.mul(p, q), r), R.mul(p, R.mul(q, r)))).toBe(true);
          expect(R.equals(R.mul(p, R.add(q, r)), R.add(R.mul(p, q), R.mul(p, r)))).toBe(true);
          expect(R.sub(p, p)).toEqual([]);
          expect(R.equals(R.sub(R.add(p, q), q), p)).toBe(true);
        }),
        { numRuns: 60 },
      );
    });
    it(`prints text that parses back, and JSON that decodes back: ${name}`, () => {
      fc.assert(
        fc.property(polyText, (a) => {
          const p = P(a);
          expect(R.equals(P(printPolynomial(R, p)), p)).toBe(true);
          const json = polynomialToJson(R, p);
          expect(R.equals(polynomialFromJson(R, JSON.parse(JSON.stringify(json))), p)).toBe(true);
        }),
        { numRuns: 80 },
      );
    });
    it(`reduces to a remainder whose difference lies in the ideal of the divisor: ${name}`, () => {
      fc.assert(
        fc.property(polyText, polyText, (a, b) => {
          const f = P(a);
          const g = R.monic(P(b));
          fc.pre(g.length > 0);
          const r = R.normalForm(f, [g]);
          const lead = R.leadingTerm(g).monomial;
          for (const t of r) expect(t.monomial.every((e, i) => e >= (lead[i] as number))).toBe(false);
        }),
        { numRuns: 60 },
      );
    });
  }
});

describe('fields and canonical JSON', () => {
  it('validates the characteristic', () => {
    expect(isProbablePrime(32003n)).toBe(true);
    expect(isProbablePrime(3215031751n)).toBe(false); // a strong pseudoprime to bases 2, 3, 5, 7
    expect(errorOf(() => fieldFromSpec({ kind: 'GF', characteristic: '32005' })).path).toEqual(['field', 'characteristic']);
    expect(errorOf(() => resolveRing({ field: { kind: 'GF', characteristic: '1' }, variables: ['x'], order: 'lex' })).data).toMatchObject({ rule: 'prime' });
    expect(RingSpecSchema.safeParse({ field: { kind: 'Q' }, variables: ['x', 'x'], order: 'lex' }).success).toBe(false);
    expect(RingSpecSchema.safeParse({ field: { kind: 'Q' }, variables: ['1x'], order: 'lex' }).success).toBe(false);
    expect(RingSpecSchema.safeParse({ field: { kind: 'Q' }, variables: ['x'], order: 'deglex' }).success).toBe(false);
  });

  it('keeps rationals normalized', () => {
    const half: Rational = RATIONALS.fromFraction(-3n, -6n);
    expect(RATIONALS.format(half)).toBe('1/2');
    expect(RATIONALS.format(RATIONALS.add(half, RATIONALS.fromFraction(1n, 2n)))).toBe('1');
    expect(RATIONALS.format(RATIONALS.fromFraction(4n, -6n))).toBe('-2/3');
    expect(RATIONALS.parseCanonical('2/4')).toBeNull();
    expect(RATIONALS.parseCanonical('-0')).toBeNull();
    expect(RATIONALS.parseCanonical('3/1')).toBeNull();
  });

  it('rejects JSON that is not canonical, naming the term', () => {
    const ok = { terms: [{ coefficient: '1', exponents: [2, 0, 0] }, { coefficient: '-1/2', exponents: [0, 0, 0] }] };
    expect(printPolynomial(Q, polynomialFromJson(Q, ok))).toBe('x^2 - 1/2');
    const cases: [unknown, (string | number)[], string][] = [
      [{ terms: [ok.terms[1], ok.terms[0]] }, ['p', 'terms', 1], 'term-order'],
      [{ terms: [ok.terms[0], ok.terms[0]] }, ['p', 'terms', 1], 'term-order'],
      [{ terms: [{ coefficient: '2/4', exponents: [1, 0, 0] }] }, ['p', 'terms', 0, 'coefficient'], 'coefficient'],
      [{ terms: [{ coefficient: '0', exponents: [1, 0, 0] }] }, ['p', 'terms', 0, 'coefficient'], 'coefficient'],
      [{ terms: [{ coefficient: '1', exponents: [1, 0] }] }, ['p', 'terms', 0, 'exponents'], 'exponents'],
      [{ terms: [{ coefficient: '1', exponents: [1, 0, -1] }] }, ['p', 'terms', 0, 'exponents', 2], 'polynomial-json'],
    ];
    for (const [json, path, rule] of cases) {
      const error = errorOf(() => polynomialFromJson(Q, json, ['p']));
      expect(error.path).toEqual(path);
      expect(error.data).toMatchObject({ rule });
    }
    expect(errorOf(() => polynomialFromJson(GF7, { terms: [{ coefficient: '7', exponents: [0, 0, 0] }] })).data).toMatchObject({ rule: 'coefficient' });
  });
});
