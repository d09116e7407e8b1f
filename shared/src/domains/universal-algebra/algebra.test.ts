import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JacobianError } from '../../errors.js';
import { algebraTables, assignmentCounts, evaluateLaws, evaluateTerm, validateAlgebra } from './algebra.js';
import { resolveSignature } from './signature.js';
import { parseLaw, parseTerm, type Law, type Term } from './syntax.js';

const GROUP = resolveSignature({
  operations: [
    { name: '+', arity: 2, infix: true },
    { name: '0', arity: 0 },
    { name: '-', arity: 1 },
  ],
  variables: ['x', 'y', 'z'],
});
const MAGMA = resolveSignature({ operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z', 'w'] });

/** Z_n under addition, with 0 and negation. */
function cyclic(n: number): unknown {
  return {
    order: n,
    tables: {
      '+': Array.from({ length: n }, (_, a) => Array.from({ length: n }, (_, b) => (a + b) % n)),
      '0': 0,
      '-': Array.from({ length: n }, (_, a) => (n - a) % n),
    },
  };
}

/** Subtraction mod 3: a non-associative, non-commutative magma. */
const SUBTRACTION_MOD_3 = { order: 3, tables: { '*': [[0, 2, 1], [1, 0, 2], [2, 1, 0]] } };

const laws = (signature: typeof GROUP, ...texts: string[]): Law[] => texts.map((text) => parseLaw(text, signature));

describe('evaluateTerm', () => {
  it('computes values in Z_5 as hand-computed', () => {
    const z5 = validateAlgebra(GROUP, cyclic(5));
    expect(evaluateTerm(z5, parseTerm('(x + y) + -z', GROUP), { x: 3, y: 4, z: 2 })).toBe(0);
    expect(evaluateTerm(z5, parseTerm('-(x + x) + 0', GROUP), { x: 4 })).toBe(2);
    expect(evaluateTerm(z5, parseTerm('--x', GROUP), { x: 3 })).toBe(3);
  });

  it('computes values in subtraction mod 3 as hand-computed', () => {
    const magma = validateAlgebra(MAGMA, SUBTRACTION_MOD_3);
    // 2 * (0 * 1) = 2 − 2 = 0; (2 * 0) * 1 = 2 − 1 = 1.
    expect(evaluateTerm(magma, parseTerm('x * (y * z)', MAGMA), { x: 2, y: 0, z: 1 })).toBe(0);
    expect(evaluateTerm(magma, parseTerm('(x * y) * z', MAGMA), { x: 2, y: 0, z: 1 })).toBe(1);
  });

  it('refuses unassigned variables and non-elements', () => {
    const z5 = validateAlgebra(GROUP, cyclic(5));
    expect(() => evaluateTerm(z5, parseTerm('x + y', GROUP), { x: 1 })).toThrow(/"y" is not assigned/);
    expect(() => evaluateTerm(z5, parseTerm('x', GROUP), { x: 5 })).toThrow(JacobianError);
  });
});

describe('evaluateLaws', () => {
  it('finds the abelian group laws true in Z_n for n = 1 … 8', () => {
    for (let n = 1; n <= 8; n++) {
      const results = evaluateLaws(validateAlgebra(GROUP, cyclic(n)), laws(GROUP, 'x + (y + z) = (x + y) + z', '0 + x = x', '-x + x = 0', 'x + y = y + x'));
      expect(results.map((r) => r.holds)).toEqual([true, true, true, true]);
      expect(results.map((r) => r.assignmentsChecked)).toEqual([n ** 3, n, n, n ** 2]);
    }
  });

  it('finds the first associativity failure of subtraction mod 3 in lexicographic order', () => {
    const [associativity, commutativity, idempotence] = evaluateLaws(
      validateAlgebra(MAGMA, SUBTRACTION_MOD_3),
      laws(MAGMA, 'x * (y * z) = (x * y) * z', 'x * y = y * x', 'x * x = x'),
    );
    // x − (y − z) = (x − y) − z iff 2z ≡ 0 (mod 3): first failure at (x, y, z) = (0, 0, 1), the 2nd assignment.
    expect(associativity).toEqual({ holds: false, assignmentsChecked: 2, violation: { assignment: { x: 0, y: 0, z: 1 }, left: 1, right: 2 } });
    expect(commutativity).toEqual({ holds: false, assignmentsChecked: 2, violation: { assignment: { x: 0, y: 1 }, left: 2, right: 1 } });
    // x − x = 0 ≠ x first at x = 1.
    expect(idempotence).toEqual({ holds: false, assignmentsChecked: 2, violation: { assignment: { x: 1 }, left: 0, right: 1 } });
  });

  it('orders assignments by the law variables in order of first occurrence', () => {
    // Left-zero band on {0, 1}: x * y = x. The law z * x = x fails first at z = 0, x = 1.
    const band = validateAlgebra(MAGMA, { order: 2, tables: { '*': [[0, 0], [1, 1]] } });
    const [result] = evaluateLaws(band, laws(MAGMA, 'z * x = x'));
    expect(result?.violation?.assignment).toEqual({ z: 0, x: 1 });
    expect(Object.keys(result?.violation?.assignment ?? {})).toEqual(['z', 'x']);
  });

  it('agrees with plain recursive evaluation on random tables and laws', () => {
    const term: fc.Arbitrary<Term> = fc.letrec<{ term: Term }>((tie) => ({
      term: fc.oneof(
        { depthSize: 'small', maxDepth: 4 },
        fc.constantFrom('x', 'y', 'z').map((name): Term => ({ kind: 'variable', name })),
        fc.tuple(tie('term'), tie('term')).map(([a, b]): Term => ({ kind: 'application', operation: '*', args: [a, b] })),
      ),
    })).term;
    const table = fc.integer({ min: 1, max: 4 }).chain((n) => fc.array(fc.array(fc.nat(n - 1), { minLength: n, maxLength: n }), { minLength: n, maxLength: n }));
    fc.assert(
      fc.property(table, term, term, (rows, left, right) => {
        const algebra = validateAlgebra(MAGMA, { order: rows.length, tables: { '*': rows } });
        const variables = [...new Set([...collect(left), ...collect(right)])];
        const [result] = evaluateLaws(algebra, [{ left, right, variables }]);
        let expected: Record<string, number> | null = null;
        let index = 0;
        for (const values of product(rows.length, variables.length)) {
          index++;
          const assignment = Object.fromEntries(variables.map((name, i) => [name, values[i] as number]));
          if (evaluateTerm(algebra, left, assignment) !== evaluateTerm(algebra, right, assignment)) {
            expected = assignment;
            break;
          }
        }
        expect(result?.holds).toBe(expected === null);
        expect(result?.violation?.assignment ?? null).toEqual(expected);
        if (expected !== null) expect(result?.assignmentsChecked).toBe(index);
      }),
      { numRuns: 300 },
    );
  });

  it('calls the checkpoint while it works, and stops when it throws', () => {
    const z8 = validateAlgebra(GROUP, cyclic(8));
    let calls = 0;
    evaluateLaws(z8, laws(GROUP, 'x + (y + z) = (x + y) + z'), { checkpoint: () => void calls++ });
    expect(calls).toBe(0);
    const big = validateAlgebra(MAGMA, { order: 16, tables: { '*': Array.from({ length: 16 }, () => Array(16).fill(0) as number[]) } });
    expect(() =>
      evaluateLaws(big, laws(MAGMA, '(x * y) * (z * w) = (x * y) * (z * w)'), {
        checkpoint: () => {
          throw new JacobianError('EXECUTION_TIMEOUT', 'stop');
        },
      }),
    ).toThrow(expect.objectContaining({ code: 'EXECUTION_TIMEOUT' }) as Error);
  });

  it('bounds the assignments it would visit before visiting any', () => {
    const signature = resolveSignature({ operations: [{ name: '*', arity: 2, infix: true }], variables: ['a', 'b', 'c', 'd', 'e'] });
    const law = parseLaw('a * (b * (c * (d * e))) = e', signature);
    expect(assignmentCounts(16, [law])).toEqual([16 ** 5]);
    expect(() => assignmentCounts(17, [law], ['payload', 'laws'])).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', path: ['payload', 'laws', 0] }) as Error);
    expect(() => assignmentCounts(16, [law, law, law, law, law], ['payload', 'laws'])).toThrow(/together/);
  });
});

describe('validateAlgebra', () => {
  it('round-trips tables', () => {
    const input = cyclic(4) as { tables: unknown };
    expect(algebraTables(validateAlgebra(GROUP, input))).toEqual(input.tables);
  });

  it.each([
    [{ order: 2, tables: { '+': [[0, 1], [1, 0]], '-': [0, 1] } }, ['payload', 'algebra', 'tables', '0'], /missing/],
    [{ order: 2, tables: { '+': [[0, 1], [1, 0]], '0': 0, '-': [0, 1], '*': 0 } }, ['payload', 'algebra', 'tables', '*'], /not an operation/],
    [{ order: 2, tables: { '+': [[0, 1], [1, 2]], '0': 0, '-': [0, 1] } }, ['payload', 'algebra', 'tables', '+', 1, 1], /not an element/],
    [{ order: 2, tables: { '+': [[0, 1]], '0': 0, '-': [0, 1] } }, ['payload', 'algebra', 'tables', '+'], /2 rows/],
    [{ order: 2, tables: { '+': [[0, 1], [1]], '0': 0, '-': [0, 1] } }, ['payload', 'algebra', 'tables', '+', 1], /2 elements/],
    [{ order: 2, tables: { '+': [[0, 1], [1, 0]], '0': [0], '-': [0, 1] } }, ['payload', 'algebra', 'tables', '0'], /not an element/],
    [{ order: 2, tables: { '+': [[0, 1], [1, 0]], '0': 0, '-': 1 } }, ['payload', 'algebra', 'tables', '-'], /array of 2/],
    [{ order: 0, tables: {} }, ['payload', 'algebra', 'order'], /./],
    [{ order: 2, tables: { '+': [[0, 1], [1, 0]], '0': 0.5, '-': [0, 1] } }, ['payload', 'algebra', 'tables', '0'], /./],
  ])('rejects %j at %j', (input, path, message) => {
    expect(() => validateAlgebra(GROUP, input, ['payload', 'algebra'])).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', path, message: expect.stringMatching(message) as unknown }) as Error);
  });
});

function collect(term: Term): string[] {
  return term.kind === 'variable' ? [term.name] : term.args.flatMap(collect);
}

function* product(n: number, k: number): Generator<number[]> {
  const values = Array<number>(k).fill(0);
  for (;;) {
    yield [...values];
    let position = k - 1;
    while (position >= 0 && values[position] === n - 1) values[position--] = 0;
    if (position < 0) return;
    values[position] = (values[position] as number) + 1;
  }
}
