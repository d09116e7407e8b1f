import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JacobianError } from '../../errors.js';
import { UNIVERSAL_ALGEBRA_LIMITS } from './limits.js';
import { resolveSignature, SignatureSchema, type Signature } from './signature.js';
import { parseLaw, parseLaws, parseTerm, printLaw, printTerm, sameTerm, type Term } from './syntax.js';

/** Every kind of operation the grammar knows: infix symbols and identifiers, prefix symbols, numerals. */
const SIGNATURE: Signature = resolveSignature({
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: '+', arity: 2, infix: true },
    { name: 'meet', arity: 2, infix: true },
    { name: '\\', arity: 2 },
    { name: 'f', arity: 2 },
    { name: 'i', arity: 1 },
    { name: '~', arity: 1 },
    { name: 'e', arity: 0 },
    { name: '0', arity: 0 },
    { name: '⊥', arity: 0 },
  ],
  variables: ['x', 'y', 'z', 'w'],
});

const GROUP = resolveSignature({
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: 'e', arity: 0 },
    { name: 'i', arity: 1 },
  ],
  variables: ['x', 'y', 'z'],
});

const v = (name: string): Term => ({ kind: 'variable', name });
const app = (operation: string, ...args: Term[]): Term => ({ kind: 'application', operation, args });

/** Random terms over SIGNATURE, within the depth bound. */
const termArbitrary: fc.Arbitrary<Term> = fc.letrec<{ term: Term }>((tie) => ({
  term: fc.oneof(
    { depthSize: 'small', maxDepth: 6 },
    fc.constantFrom(...SIGNATURE.variables).map(v),
    fc.constantFrom('e', '0', '⊥').map((name) => app(name)),
    fc.tuple(fc.constantFrom('i', '~'), tie('term')).map(([name, arg]) => app(name, arg)),
    fc.tuple(fc.constantFrom('*', '+', 'meet', '\\', 'f'), tie('term'), tie('term')).map(([name, a, b]) => app(name, a, b)),
  ),
})).term;

function rejection(text: string, signature: Signature = SIGNATURE): { column: number; rule: string; message: string } {
  try {
    parseLaw(text, signature, { path: ['payload', 'laws', 3] });
  } catch (error) {
    expect(error).toBeInstanceOf(JacobianError);
    const e = error as JacobianError;
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.path).toEqual(['payload', 'laws', 3]);
    return { column: e.data?.['column'] as number, rule: e.data?.['rule'] as string, message: e.message };
  }
  throw new Error(`"${text}" was accepted`);
}

describe('parseLaw', () => {
  it('parses the group axioms into the expected trees', () => {
    expect(parseLaw('x * (y * z) = (x * y) * z', GROUP)).toEqual({
      left: app('*', v('x'), app('*', v('y'), v('z'))),
      right: app('*', app('*', v('x'), v('y')), v('z')),
      variables: ['x', 'y', 'z'],
    });
    expect(parseLaw('e * x = x', GROUP)).toEqual({ left: app('*', app('e'), v('x')), right: v('x'), variables: ['x'] });
    expect(parseLaw('i(x) * x = e', GROUP)).toEqual({ left: app('*', app('i', v('x')), v('x')), right: app('e'), variables: ['x'] });
  });

  it('lists variables in order of first occurrence, left side first', () => {
    expect(parseLaw('z * e = (y * x) * z', GROUP).variables).toEqual(['z', 'y', 'x']);
    expect(parseLaw('e = e', GROUP).variables).toEqual([]);
  });

  it('groups a chain of one infix operator to the left', () => {
    expect(sameTerm(parseTerm('x * y * z * w', SIGNATURE), parseTerm('((x * y) * z) * w', SIGNATURE))).toBe(true);
    expect(sameTerm(parseTerm('x meet y meet z', SIGNATURE), parseTerm('(x meet y) meet z', SIGNATURE))).toBe(true);
  });

  it('binds prefix symbols and applications tighter than infix operators', () => {
    expect(parseTerm('~x * y', SIGNATURE)).toEqual(app('*', app('~', v('x')), v('y')));
    expect(parseTerm('~(x * y)', SIGNATURE)).toEqual(app('~', app('*', v('x'), v('y'))));
    expect(parseTerm('~~x', SIGNATURE)).toEqual(app('~', app('~', v('x'))));
    expect(parseTerm('i(x) + f(y, 0)', SIGNATURE)).toEqual(app('+', app('i', v('x')), app('f', v('y'), app('0'))));
    expect(parseTerm('\\(x, ⊥)', SIGNATURE)).toEqual(app('\\', v('x'), app('⊥')));
    expect(parseTerm('*(x, y)', SIGNATURE)).toEqual(app('*', v('x'), v('y')));
  });

  it('ignores whitespace of any kind between tokens', () => {
    expect(parseLaw('\tx*(y*z)\n=  (x*y)*z ', GROUP)).toEqual(parseLaw('x * (y * z) = (x * y) * z', GROUP));
  });

  it.each([
    ['x * y + z = x', 7, 'infix-mixing'],
    ['x * (y + z) + w = x', 13, 'infix-mixing'],
    ['x * = y', 5, 'primary'],
    ['x = y = z', 7, 'law'],
    ['x * y', 6, 'law'],
    ['= x', 1, 'primary'],
    ['x (y) = x', 3, 'primary'],
    ['i x = x', 1, 'arity'],
    ['i(x, y) = x', 4, 'arity'],
    ['f(x) = x', 4, 'arity'],
    ['e() = e', 2, 'arity'],
    ['f = x', 1, 'arity'],
    ['g(x) = x', 1, 'name'],
    ['x = u', 5, 'name'],
    ['x \\ y = x', 3, 'term'],
    ['x $ y = x', 3, 'character'],
    ['x = y\u0000', 6, 'character'],
    ['(x * y = x', 8, 'primary'],
    ['f(x, y = x', 8, 'arguments'],
    ['x y = x', 3, 'term'],
  ])('rejects %j at column %i by rule %s', (text, column, rule) => {
    const found = rejection(text);
    expect({ column: found.column, rule: found.rule }).toEqual({ column, rule });
    expect(found.message).toContain(`column ${column}`);
    expect(found.message).toContain(`rule: ${rule}`);
  });

  it('bounds term depth, parenthesis nesting, size and length', () => {
    const deep = `${'i('.repeat(UNIVERSAL_ALGEBRA_LIMITS.maxTermDepth)}x${')'.repeat(UNIVERSAL_ALGEBRA_LIMITS.maxTermDepth)}`;
    expect(rejection(`${deep} = x`).rule).toBe('depth');
    const justDeepEnough = `${'i('.repeat(UNIVERSAL_ALGEBRA_LIMITS.maxTermDepth - 1)}x${')'.repeat(UNIVERSAL_ALGEBRA_LIMITS.maxTermDepth - 1)}`;
    expect(parseLaw(`${justDeepEnough} = x`, SIGNATURE).variables).toEqual(['x']);
    expect(rejection(`${'('.repeat(200)}x${')'.repeat(200)} = x`).rule).toBe('depth');
    // A long left-assoc chain is shallow to parse but deep as a tree.
    expect(rejection(`${Array(40).fill('x').join(' * ')} = x`).rule).toBe('depth');
    const wide = Array.from({ length: 20 }, () => '(((x * y) * (z * w)) * ((x * y) * (z * w)))').join(' + ');
    expect(rejection(`${wide} = x`).rule).toBe('size');
    expect(rejection(`x = ${' '.repeat(UNIVERSAL_ALGEBRA_LIMITS.maxLawLength)}x`).rule).toBe('length');
  });

  it('rejects every malformed text with INVALID_REQUEST naming a column inside the text', () => {
    const alphabet = fc.constantFrom('x', 'y', 'e', 'i', 'f', '*', '+', '~', '(', ')', ',', '=', ' ', '$', 'meet');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        try {
          const law = parseLaw(text, SIGNATURE);
          // What parses prints back to a text that parses to the same law.
          expect(parseLaw(printLaw(law, SIGNATURE), SIGNATURE)).toEqual(law);
        } catch (error) {
          expect(error).toBeInstanceOf(JacobianError);
          expect((error as JacobianError).code).toBe('INVALID_REQUEST');
          const column = (error as JacobianError).data?.['column'] as number;
          expect(column).toBeGreaterThanOrEqual(1);
          expect(column).toBeLessThanOrEqual(Array.from(text).length + 1);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('printTerm', () => {
  it('prints random terms so that they parse back to the same tree', () => {
    fc.assert(
      fc.property(termArbitrary, (term) => {
        expect(parseTerm(printTerm(term, SIGNATURE), SIGNATURE)).toEqual(term);
      }),
      { numRuns: 1000 },
    );
  });

  it('prints random laws so that they parse back to the same law', () => {
    fc.assert(
      fc.property(termArbitrary, termArbitrary, (left, right) => {
        const law = parseLaw(printLaw({ left, right }, SIGNATURE), SIGNATURE);
        expect(law.left).toEqual(left);
        expect(law.right).toEqual(right);
      }),
      { numRuns: 500 },
    );
  });

  it('parenthesizes infix arguments and uses prefix forms elsewhere', () => {
    expect(printTerm(parseTerm('x * y * z', SIGNATURE), SIGNATURE)).toBe('(x * y) * z');
    expect(printTerm(parseTerm('~(x + y) meet i(e)', SIGNATURE), SIGNATURE)).toBe('~(x + y) meet i(e)');
    expect(printTerm(parseTerm('\\(x, ~y)', SIGNATURE), SIGNATURE)).toBe('\\(x, ~y)');
  });
});

describe('parseLaws', () => {
  it('puts the index of the failing law into the path', () => {
    expect(() => parseLaws(['x = x', 'x = '], GROUP, ['payload', 'laws'])).toThrow(expect.objectContaining({ path: ['payload', 'laws', 1] }) as Error);
  });

  it('bounds the number of laws', () => {
    expect(() => parseLaws(Array(UNIVERSAL_ALGEBRA_LIMITS.maxLaws + 1).fill('x = x') as string[], GROUP)).toThrow(/more than the limit/);
  });
});

describe('signatures', () => {
  it.each([
    [{ operations: [{ name: '*', arity: 2 }, { name: '*', arity: 1 }], variables: [] }, ['operations', 1, 'name']],
    [{ operations: [{ name: 'x', arity: 0 }], variables: ['x'] }, ['variables', 0]],
    [{ operations: [{ name: 'i', arity: 1, infix: true }], variables: [] }, ['operations', 0, 'infix']],
    [{ operations: [{ name: '$', arity: 2 }], variables: [] }, ['operations', 0, 'name']],
    [{ operations: [{ name: '**', arity: 2 }], variables: [] }, ['operations', 0, 'name']],
    [{ operations: [{ name: '__proto__', arity: 0 }], variables: [] }, ['operations', 0, 'name']],
    [{ operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', '__proto__'] }, ['variables', 1]],
    [{ operations: [{ name: '*', arity: 3 }], variables: [] }, ['operations', 0, 'arity']],
    [{ operations: [{ name: 'e', arity: 0 }], variables: ['0'] }, ['variables', 0]],
    [{ operations: [{ name: 'e', arity: 0 }], variables: ['*'] }, ['variables', 0]],
    [{ operations: [], variables: ['x'] }, ['operations']],
  ])('rejects %j at %j', (input, path) => {
    expect(SignatureSchema.safeParse(input).success).toBe(false);
    expect(() => resolveSignature(input, ['payload', 'signature'])).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', path: ['payload', 'signature', ...path] }) as Error);
  });

  it('defaults infix to false', () => {
    expect(resolveSignature({ operations: [{ name: 'f', arity: 2 }], variables: ['x'] }).operations[0]?.infix).toBe(false);
  });
});
