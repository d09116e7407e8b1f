import { describe, expect, it } from 'vitest';
import { CountermodelClaimSchema, CountermodelResultPayloadSchema, ModelsResultPayloadSchema } from './results.js';

const SEMIGROUP = { operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z'] };
const CLAIM = {
  signature: SEMIGROUP,
  laws: ['x * (y * z) = (x * y) * z'],
  target: 'x * y = y * x',
  order: 2,
  tables: { '*': [[0, 0], [1, 1]] },
  violating_assignment: { x: 0, y: 1 },
  target_values: { left: 0, right: 1 },
};

describe('countermodel contracts', () => {
  it('take a claim inline, and a stored result with or without provenance', () => {
    expect(CountermodelClaimSchema.parse(CLAIM)).toEqual(CLAIM);
    expect(CountermodelResultPayloadSchema.safeParse({ ...CLAIM, provenance: null }).success).toBe(true);
    const provenance = { capability_id: 'universal_algebra.search.countermodel', capability_version: '1.0.0', provider: 'cadical', provider_version: '2.1.3', provider_digest: 'a'.repeat(64) };
    expect(CountermodelResultPayloadSchema.safeParse({ ...CLAIM, provenance }).success).toBe(true);
    // Results of the range form name the engine that found the countermodel; older results have none.
    expect(CountermodelResultPayloadSchema.safeParse({ ...CLAIM, provenance: { ...provenance, engine: 'TS_SEARCH' } }).success).toBe(true);
    expect(CountermodelResultPayloadSchema.safeParse({ ...CLAIM, provenance: { ...provenance, engine: '' } }).success).toBe(false);
    expect(CountermodelResultPayloadSchema.safeParse({ ...CLAIM, provenance: { ...provenance, solver: 'x' } }).success).toBe(false);
  });

  it('fill a binary operation\'s infix default, so a stored signature is explicit', () => {
    const parsed = CountermodelClaimSchema.parse({ ...CLAIM, signature: { operations: [{ name: 'm', arity: 2 }], variables: ['x', 'y'] } });
    expect(parsed.signature.operations).toEqual([{ name: 'm', arity: 2, infix: false }]);
  });

  it.each([
    ['an unknown field', { ...CLAIM, note: 'x' }],
    ['a stored result without provenance', null],
    ['a negative element', { ...CLAIM, violating_assignment: { x: -1, y: 1 } }],
    ['a fractional table entry', { ...CLAIM, tables: { '*': [[0, 0.5], [1, 1]] } }],
    ['order 0', { ...CLAIM, order: 0 }],
    ['an empty target', { ...CLAIM, target: '' }],
    ['target values that are not elements', { ...CLAIM, target_values: { left: 'a', right: 1 } }],
  ])('reject %s', (_label, value) => {
    if (value === null) expect(CountermodelResultPayloadSchema.safeParse(CLAIM).success).toBe(false);
    else expect(CountermodelClaimSchema.safeParse(value).success).toBe(false);
  });
});

describe('models contract', () => {
  const PAYLOAD = {
    signature: SEMIGROUP,
    laws: ['x * (y * z) = (x * y) * z'],
    order: 1,
    complete: true,
    count: 1,
    labelled_count: 1,
    models: [{ tables: { '*': [[0]] }, automorphisms: 1 }],
    method: 'backtracking',
  };

  it('takes a list whose count is its length, and rejects one whose count is not', () => {
    expect(ModelsResultPayloadSchema.safeParse(PAYLOAD).success).toBe(true);
    const wrong = ModelsResultPayloadSchema.safeParse({ ...PAYLOAD, count: 2 });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]).toMatchObject({ path: ['count'], message: 'count is 2 but 1 models are listed' });
    expect(ModelsResultPayloadSchema.safeParse({ ...PAYLOAD, models: [{ tables: { '*': [[0]] }, automorphisms: 0 }] }).success).toBe(false);
  });
});
