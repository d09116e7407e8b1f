import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, type CapabilityResult, type InstalledCapability } from '@jacobian/shared';
import { createCapabilityHarness, type CapabilityHarness } from '../testing/fixtures.js';
import { evaluateLawsCapability, type EvaluateLawsOutput } from './evaluate-laws.js';

const GROUP = {
  operations: [
    { name: '+', arity: 2, infix: true },
    { name: '0', arity: 0 },
    { name: '-', arity: 1 },
  ],
  variables: ['x', 'y', 'z'],
};
const GROUP_LAWS = ['x + (y + z) = (x + y) + z', '0 + x = x', '-x + x = 0', 'x + y = y + x'];

function cyclic(n: number): { order: number; tables: Record<string, unknown> } {
  return {
    order: n,
    tables: {
      '+': Array.from({ length: n }, (_, a) => Array.from({ length: n }, (_, b) => (a + b) % n)),
      '0': 0,
      '-': Array.from({ length: n }, (_, a) => (n - a) % n),
    },
  };
}

describe('universal_algebra.evaluate_laws', () => {
  let harness: CapabilityHarness;
  let capability: InstalledCapability;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    capability = harness.install(evaluateLawsCapability);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  const run = (payload: Record<string, unknown>): Promise<CapabilityResult> => harness.run(capability, { capability_id: evaluateLawsCapability.id, payload });

  it('runs its own examples', async () => {
    for (const example of evaluateLawsCapability.examples) {
      const result = await harness.run(capability, { capability_id: evaluateLawsCapability.id, payload: example.payload });
      expect(result.execution.status).toBe('COMPLETED');
    }
  });

  it('finds the abelian group laws true in Z_n, exhaustively', async () => {
    for (const n of [1, 5, 8]) {
      const result = await run({ signature: GROUP, laws: GROUP_LAWS, algebra: cyclic(n) });
      expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
      expect(result).toMatchObject({
        execution: { status: 'COMPLETED' },
        completeness: { status: 'COMPLETE' },
        qualifiers: ['EXACT', 'EXHAUSTIVE', 'DETERMINISTIC'],
        assurance: { level: 'COMPUTED' },
      });
      const output = result.output as EvaluateLawsOutput;
      expect(output).toMatchObject({ order: n, all_hold: true, holding: 4, violated: 0 });
      expect(output.laws.map((law) => law.assignments)).toEqual([n ** 3, n, n, n ** 2]);
      expect(output.laws.map((law) => law.assignments_checked)).toEqual([n ** 3, n, n, n ** 2]);
      expect(output.laws[2]).toMatchObject({ law: '-x + x = 0', parsed: '-x + x = 0', variables: ['x'], violating_assignment: null });
    }
  });

  it('reports the first violating assignment of subtraction mod 3', async () => {
    const result = await run({
      signature: { operations: [{ name: '-', arity: 2, infix: true }], variables: ['x', 'y', 'z'] },
      laws: ['x - (y - z) = (x - y) - z', 'x - x = y - y', 'x - y = y - x'],
      algebra: { order: 3, tables: { '-': [[0, 2, 1], [1, 0, 2], [2, 1, 0]] } },
    });
    const output = result.output as EvaluateLawsOutput;
    expect(output).toMatchObject({ all_hold: false, holding: 1, violated: 2 });
    expect(output.laws[0]).toMatchObject({ holds: false, violating_assignment: { x: 0, y: 0, z: 1 }, left_value: 1, right_value: 2, assignments_checked: 2, assignments: 27 });
    expect(output.laws[1]).toMatchObject({ holds: true, violating_assignment: null, left_value: null, assignments_checked: 9 });
    expect(output.laws[2]).toMatchObject({ holds: false, violating_assignment: { x: 0, y: 1 }, left_value: 2, right_value: 1 });
  });

  it.each([
    ['a syntax error', { laws: ['x + y = y + x', 'x + ) = x'] }, ['payload', 'laws', 1], /column 5.*rule: primary/],
    ['an undeclared operation', { laws: ['x * y = y * x'] }, ['payload', 'laws', 0], /"\*" is not a declared operation/],
    ['a table entry out of range', { algebra: { order: 2, tables: { '+': [[0, 1], [2, 0]], '0': 0, '-': [0, 1] } } }, ['payload', 'algebra', 'tables', '+', 1, 0], /not an element/],
    ['a missing table', { algebra: { order: 2, tables: { '+': [[0, 1], [1, 0]], '-': [0, 1] } } }, ['payload', 'algebra', 'tables', '0'], /missing/],
    ['a numeral variable', { signature: { ...GROUP, variables: ['x', 'y', '0'] } }, ['payload', 'signature', 'variables', 2], /identifier/],
    // An assignment is a JSON record, which cannot carry this key: the variable would be lost from it.
    ['a variable named __proto__', { signature: { ...GROUP, variables: ['x', '__proto__'] }, laws: ['x + __proto__ = __proto__ + x'] }, ['payload', 'signature', 'variables', 1], /other than __proto__/],
    [
      'too many assignments',
      {
        signature: { ...GROUP, variables: ['a', 'b', 'c', 'd'] },
        laws: ['a + (b + (c + d)) = d'],
        algebra: { order: 33, tables: { '+': Array(33).fill(Array(33).fill(0)) as unknown, '0': 0, '-': Array(33).fill(0) as unknown } },
      },
      ['payload', 'laws', 0],
      /33\^4 = 1185921 assignments/,
    ],
  ])('rejects %s before computing', async (_label, change, path, message) => {
    const result = await run({ signature: GROUP, laws: GROUP_LAWS, algebra: cyclic(2), ...change });
    expect(result.execution.status).toBe('ERROR');
    expect(result.output).toBeNull();
    expect(result.diagnostics[0]).toMatchObject({ severity: 'ERROR', code: 'INVALID_REQUEST', path });
    expect(result.diagnostics[0]?.message).toMatch(message);
  });
});
