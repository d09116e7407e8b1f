import { describe, expect, it } from 'vitest';

import {
  BUDGET_LIMITS,
  CapabilityDescriptorSchema,
  CapabilityIdSchema,
  CapabilityRequestSchema,
  resolveBudget,
  type CapabilityDescriptor,
} from './capability.js';

const CHECKER = {
  checker_id: 'test.checker.exhaustive',
  checker_digest: `sha256:${'c'.repeat(64)}`,
  method: 'enumerate every subset',
};

/** A valid producer descriptor, written out by hand. */
function producer(): CapabilityDescriptor {
  return {
    id: 'graph.construct.explicit',
    version: '1.0.0',
    title: 'Construct a graph',
    description: 'Stores a simple graph.',
    tags: ['graph', 'construction'],
    keywords: ['simple graph'],
    domain: 'graph',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: ['jacobian:schema/graph.simple/v1'],
    input_schema: { type: 'object', properties: { order: { type: 'integer' } } },
    output_schema: { type: 'object' },
    examples: [{ title: 'three vertices', mode: 'EXPLORE', payload: { order: 3 } }],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'graph.construct.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'exactly the supplied graph',
    limits: { max_order: 256, note: 'small' },
    provider_runtime: {
      provider: 'jacobian-graph-ts',
      availability: 'AVAILABLE',
      version: '0.1.0',
      digest_kind: 'SOURCE_TREE',
      digest: 'd'.repeat(64),
      platform: 'linux-x64-node20',
      install_tier: 'T0',
      license_id: 'MIT',
      license_files: [],
      features: [],
    },
    checker: null,
  };
}

function checker(): CapabilityDescriptor {
  return {
    ...producer(),
    id: 'graph.construct.verify',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    examples: [{ title: 'verify', mode: 'VERIFY', payload: {} }],
    relationships: [{ kind: 'VERIFIES', capability_id: 'graph.construct.explicit' }],
    assurance_ceiling: 'VERIFIED',
    checker: CHECKER,
  };
}

function issues(value: unknown): { path: PropertyKey[]; message: string }[] {
  const parsed = CapabilityDescriptorSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path, message: i.message }));
}

describe('CapabilityDescriptorSchema', () => {
  it('accepts a producer and a checker descriptor as written', () => {
    expect(CapabilityDescriptorSchema.parse(producer())).toEqual(producer());
    expect(CapabilityDescriptorSchema.parse(checker())).toEqual(checker());
  });

  it('rejects a checker role without checker identity', () => {
    expect(issues({ ...checker(), checker: null })).toEqual([
      { path: ['checker'], message: 'a checker capability must declare its checker identity' },
    ]);
  });

  it('rejects a producer that carries a checker identity', () => {
    expect(issues({ ...producer(), checker: CHECKER })).toEqual([{ path: ['checker'], message: 'a producer capability has no checker identity' }]);
  });

  it('rejects a producer with a VERIFIED ceiling even when it offers VERIFY', () => {
    expect(issues({ ...producer(), modes: ['EXPLORE', 'VERIFY'], assurance_ceiling: 'VERIFIED' })).toEqual([
      { path: ['assurance_ceiling'], message: 'a producer cannot certify its own result' },
    ]);
  });

  it('rejects a VERIFIED ceiling without VERIFY mode (producer: both rules fire)', () => {
    expect(issues({ ...checker(), modes: ['EXPLORE'], examples: [] })).toEqual([
      { path: ['assurance_ceiling'], message: 'VERIFIED ceiling requires VERIFY mode' },
    ]);
    expect(issues({ ...producer(), assurance_ceiling: 'VERIFIED' }).map((i) => i.message)).toEqual([
      'VERIFIED ceiling requires VERIFY mode',
      'a producer cannot certify its own result',
    ]);
  });

  it('rejects an example whose mode is not offered, at examples[i].mode', () => {
    const value = producer();
    value.examples = [value.examples[0]!, { title: 'verify it', mode: 'VERIFY', payload: {} }];
    expect(issues(value)).toEqual([{ path: ['examples', 1, 'mode'], message: 'mode VERIFY is not offered' }]);
  });

  it('rejects more than five examples and an empty mode list', () => {
    const example = producer().examples[0]!;
    expect(issues({ ...producer(), examples: Array.from({ length: 6 }, () => example) }).map((i) => i.path)).toEqual([['examples']]);
    expect(issues({ ...producer(), modes: [] }).map((i) => i.path)).toContainEqual(['modes']);
  });

  it.each([
    ['uppercase', 'Graph.construct'],
    ['a single segment', 'graph'],
    ['an empty segment', 'graph..construct'],
    ['a leading digit', '1graph.construct'],
    ['a segment starting with a digit', 'graph.2d'],
    ['a hyphen', 'graph.construct-explicit'],
    ['a trailing dot', 'graph.construct.'],
    ['nine segments', 'a.b.c.d.e.f.g.h.i'],
    ['more than 128 characters', `a.${'b'.repeat(127)}`],
    ['spaces', 'graph. construct'],
  ])('rejects a capability ID with %s', (_name, id) => {
    expect(CapabilityIdSchema.safeParse(id).success).toBe(false);
    expect(issues({ ...producer(), id }).map((i) => i.path)).toEqual([['id']]);
    expect(issues({ ...producer(), relationships: [{ kind: 'VERIFIED_BY', capability_id: id }] }).map((i) => i.path)).toEqual([
      ['relationships', 0, 'capability_id'],
    ]);
  });

  it.each([['a.b'], ['a.b.c.d.e.f.g.h'], ['graph.induced_tree.maximum.compute'], [`a.${'b'.repeat(126)}`]])('accepts the capability ID %s', (id) => {
    expect(CapabilityIdSchema.parse(id)).toBe(id);
  });

  it('rejects a non-semver version, a malformed checker digest and unknown fields', () => {
    expect(issues({ ...producer(), version: '1.0' }).map((i) => i.path)).toEqual([['version']]);
    expect(issues({ ...checker(), checker: { ...CHECKER, checker_digest: 'c'.repeat(64) } }).map((i) => i.path)).toEqual([['checker', 'checker_digest']]);
    expect(issues({ ...producer(), verified: true }).map((i) => i.path)).toEqual([[]]);
    expect(issues({ ...producer(), provider_runtime: { ...producer().provider_runtime, availability: 'MISSING' } }).map((i) => i.path)).toEqual([
      ['provider_runtime', 'availability'],
    ]);
  });
});

describe('CapabilityRequestSchema', () => {
  it('defaults mode to EXPLORE and leaves budget absent', () => {
    expect(CapabilityRequestSchema.parse({ capability_id: 'a.b', payload: { n: 1 } })).toEqual({
      capability_id: 'a.b',
      payload: { n: 1 },
      mode: 'EXPLORE',
    });
    expect(CapabilityRequestSchema.parse({ capability_id: 'a.b', payload: {}, mode: 'VERIFY' }).mode).toBe('VERIFY');
  });

  it('is strict at the top level and inside budget', () => {
    const top = CapabilityRequestSchema.safeParse({ capability_id: 'a.b', payload: {}, extra: 1 });
    expect(top.error?.issues.map((i) => [i.code, i.path])).toEqual([['unrecognized_keys', []]]);
    const nested = CapabilityRequestSchema.safeParse({ capability_id: 'a.b', payload: {}, budget: { cpu: 1 } });
    expect(nested.error?.issues.map((i) => [i.code, i.path])).toEqual([['unrecognized_keys', ['budget']]]);
  });

  it.each([
    ['mode in lowercase', { capability_id: 'a.b', payload: {}, mode: 'explore' }, ['mode']],
    ['payload missing', { capability_id: 'a.b' }, ['payload']],
    ['payload an array', { capability_id: 'a.b', payload: [] }, ['payload']],
    ['payload null', { capability_id: 'a.b', payload: null }, ['payload']],
    ['capability_id empty', { capability_id: '', payload: {} }, ['capability_id']],
    ['capability_id too long', { capability_id: 'a'.repeat(129), payload: {} }, ['capability_id']],
  ])('rejects %s', (_name, value, path) => {
    expect(CapabilityRequestSchema.safeParse(value).error?.issues.map((i) => i.path)).toEqual([path]);
  });

  const bounds = [
    ['wall_time_ms', 100, 600_000],
    ['memory_mb', 64, 8192],
    ['max_output_bytes', 1024, 16 * 1024 * 1024],
  ] as const;

  it.each(bounds)('accepts budget.%s at its bounds %d and %d and rejects just outside them', (field, min, max) => {
    const request = (value: number): unknown => ({ capability_id: 'a.b', payload: {}, budget: { [field]: value } });
    expect(CapabilityRequestSchema.parse(request(min)).budget).toEqual({ [field]: min });
    expect(CapabilityRequestSchema.parse(request(max)).budget).toEqual({ [field]: max });
    for (const bad of [min - 1, max + 1, min + 0.5]) {
      expect(CapabilityRequestSchema.safeParse(request(bad)).error?.issues.map((i) => i.path)).toEqual([['budget', field]]);
    }
    expect(BUDGET_LIMITS[field]).toMatchObject({ min, max });
  });
});

describe('resolveBudget', () => {
  it('fills every missing field with its default', () => {
    expect(resolveBudget(undefined)).toEqual({ wall_time_ms: 30_000, memory_mb: 1024, max_output_bytes: 4 * 1024 * 1024 });
    expect(resolveBudget({})).toEqual({ wall_time_ms: 30_000, memory_mb: 1024, max_output_bytes: 4 * 1024 * 1024 });
  });

  it('keeps the fields that are given', () => {
    expect(resolveBudget({ wall_time_ms: 500 })).toEqual({ wall_time_ms: 500, memory_mb: 1024, max_output_bytes: 4194304 });
    expect(resolveBudget({ wall_time_ms: 100, memory_mb: 64, max_output_bytes: 1024 })).toEqual({
      wall_time_ms: 100,
      memory_mb: 64,
      max_output_bytes: 1024,
    });
  });
});
