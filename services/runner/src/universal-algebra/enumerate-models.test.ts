import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CapabilityResultSchema,
  evaluateLaws,
  MODELS_RESULT_SCHEMA_URI,
  MODELS_RESULT_SEMANTICS_URI,
  ModelsResultPayloadSchema,
  parseLaws,
  resolveSignature,
  validateAlgebra,
  type CapabilityResult,
  type InstalledCapability,
} from '@jacobian/shared';
import { createCapabilityHarness, type CapabilityHarness } from '../testing/fixtures.js';
import { ENUMERATE_MODELS_CAPABILITY_ID, enumerateModelsCapability, MAX_INLINE_MODELS, type EnumerateModelsOutput } from './enumerate-models.js';

const SEMIGROUP = { operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z'] };
const GROUP = {
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: 'e', arity: 0 },
    { name: 'i', arity: 1 },
  ],
  variables: ['x', 'y', 'z'],
};
const ASSOCIATIVITY = 'x * (y * z) = (x * y) * z';
const GROUP_LAWS = [ASSOCIATIVITY, 'e * x = x', 'i(x) * x = e'];

/** Every listed table satisfies the laws, checked here with the shared evaluator. */
function expectModels(signature: unknown, laws: string[], order: number, models: { tables: Record<string, unknown> }[]): void {
  const resolved = resolveSignature(signature);
  const parsed = parseLaws(laws, resolved);
  for (const model of models) {
    const results = evaluateLaws(validateAlgebra(resolved, { order, tables: model.tables }), parsed);
    expect(results.every((result) => result.holds)).toBe(true);
  }
}

describe('universal_algebra.enumerate.models', () => {
  let harness: CapabilityHarness;
  let capability: InstalledCapability;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    capability = harness.install(enumerateModelsCapability);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  const enumerate = (payload: Record<string, unknown>, wallTimeMs?: number, signal?: AbortSignal): Promise<CapabilityResult> =>
    harness.run(capability, { capability_id: ENUMERATE_MODELS_CAPABILITY_ID, payload, ...(wallTimeMs === undefined ? {} : { budget: { wall_time_ms: wallTimeMs } }) }, signal);

  it('runs its own examples: the 2 groups of order 4 and the 5 semigroups of order 2, inline', async () => {
    const counts: number[] = [];
    for (const example of enumerateModelsCapability.examples) {
      const result = await enumerate(example.payload);
      expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
      expect(result).toMatchObject({ execution: { status: 'COMPLETED' }, completeness: { status: 'COMPLETE' }, assurance: { level: 'COMPUTED' }, artifact_uris: [], diagnostics: [] });
      const output = result.output as EnumerateModelsOutput;
      expect(output).toMatchObject({ status: 'COMPLETE', models_uri: null, reason: null });
      const payload = example.payload as { signature: unknown; laws: string[]; order: number };
      expectModels(payload.signature, payload.laws, payload.order, output.models ?? []);
      counts.push(output.count);
    }
    expect(counts).toEqual([2, 5]);
  });

  it('lists the groups of order 8 with their automorphism counts, and the labelled count', async () => {
    const result = await enumerate({ signature: GROUP, laws: GROUP_LAWS, order: 8 });
    const output = result.output as EnumerateModelsOutput;
    expect(output).toMatchObject({ status: 'COMPLETE', count: 5, labelled_count: 22080, scope: { kind: 'ONE_FIXED_ORDER', order: 8 } });
    expect(output.models?.map((model) => model.automorphisms).sort((a, b) => a - b)).toEqual([4, 8, 8, 24, 168]);
    expectModels(GROUP, GROUP_LAWS, 8, output.models ?? []);
    expect(result.obligations).toEqual([expect.objectContaining({ id: 'enumeration-completeness', status: 'OPEN' })]);
    expect(result.qualifiers).toEqual(['EXACT', 'EXHAUSTIVE', 'DETERMINISTIC']);
  });

  it(`stores more than ${MAX_INLINE_MODELS} classes as an artifact: the 188 semigroups of order 4`, async () => {
    const result = await enumerate({ signature: SEMIGROUP, laws: [ASSOCIATIVITY], order: 4 });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    const output = result.output as EnumerateModelsOutput;
    expect(output).toMatchObject({ status: 'COMPLETE', count: 188, labelled_count: 3492, models: null });
    expect(result.artifact_uris).toEqual([output.models_uri]);
    const stored = await harness.artifacts.get(output.models_uri as string);
    expect(stored.manifest).toMatchObject({ schema_uri: MODELS_RESULT_SCHEMA_URI, semantics_uri: MODELS_RESULT_SEMANTICS_URI, parents: [] });
    const payload = ModelsResultPayloadSchema.parse(stored.payload);
    expect(payload).toMatchObject({ order: 4, complete: true, count: 188, labelled_count: 3492, laws: [ASSOCIATIVITY] });
    expectModels(SEMIGROUP, [ASSOCIATIVITY], 4, payload.models);
    expect(payload.models.reduce((sum, model) => sum + 24 / model.automorphisms, 0)).toBe(3492);
  });

  it('answers MODEL_LIMIT with a lower bound when there are more classes than max_models', async () => {
    const result = await enumerate({ signature: SEMIGROUP, laws: [ASSOCIATIVITY], order: 3, max_models: 10 });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({ execution: { status: 'COMPLETED' }, completeness: { status: 'PARTIAL' }, qualifiers: ['EXACT', 'BOUNDED'], obligations: [] });
    expect(result.output).toMatchObject({ status: 'MODEL_LIMIT', count: 10 });
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'WARNING', code: 'MODEL_LIMIT_REACHED', path: ['payload', 'max_models'] })]);
  });

  it('answers BUDGET_EXHAUSTED with the classes found so far when the budget ends during the search', async () => {
    // There are 1 627 672 semigroups of order 7: far more search than this budget allows.
    const result = await enumerate({ signature: SEMIGROUP, laws: [ASSOCIATIVITY], order: 7, max_models: 100_000 }, 3000);
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    if (result.execution.status === 'COMPLETED') {
      expect(result).toMatchObject({ completeness: { status: 'PARTIAL' }, assurance: { level: 'COMPUTED' } });
      const output = result.output as EnumerateModelsOutput;
      expect(output.status).toBe('BUDGET_EXHAUSTED');
      expect(output.count).toBeLessThan(100_000);
      expect(result.diagnostics).toContainEqual(expect.objectContaining({ severity: 'WARNING', code: 'BUDGET_EXHAUSTED' }));
    } else {
      // On a starved machine the kernel may not even reach its own deadline check.
      expect(result.execution.status).toBe('TIMEOUT');
    }
  });

  it('stops when the run is cancelled', async () => {
    const controller = new AbortController();
    const pending = enumerate({ signature: SEMIGROUP, laws: [ASSOCIATIVITY], order: 7, max_models: 100_000 }, 60_000, controller.signal);
    setTimeout(() => controller.abort(), 300);
    const result = await pending;
    expect(result.execution.status).toBe('CANCELLED');
    expect(result.output).toBeNull();
  });

  it.each([
    ['an order beyond the limit', { order: 9 }, ['payload', 'order'], /./],
    ['an undeclared operation', { laws: [ASSOCIATIVITY, 'x + y = y'] }, ['payload', 'laws', 1], /"\+" is not a declared operation/],
    [
      'laws with too many ground instances',
      { signature: { ...SEMIGROUP, variables: ['a', 'b', 'c', 'd', 'f', 'g', 'h'] }, laws: ['a * (b * (c * (d * (f * (g * h))))) = a'], order: 8 },
      ['payload', 'laws'],
      /ground instances/,
    ],
  ])('rejects %s before searching', async (_label, change, path, message) => {
    const result = await enumerate({ signature: SEMIGROUP, laws: [ASSOCIATIVITY], order: 3, ...change });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path });
    expect(result.diagnostics[0]?.message).toMatch(message);
  });
});
