import { generateKeyPairSync } from 'node:crypto';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { INDUCED_TREE_CHECKER_ID, verifyInducedTree } from '@jacobian/checker';
import { artifactPut, constructExplicit, maximumInducedTree } from '@jacobian/runner';
import {
  descriptorDigest,
  installCapability,
  keyId,
  OperatorPolicySchema,
  type ArtifactStore,
  type CapabilityDefinition,
  type CheckerIdentity,
  type InstalledCapability,
  type OperatorPolicyInput,
  type ProviderRuntime,
  type RunQueue,
} from '@jacobian/shared';
import { createApi, type Api } from './api.js';
import { FIND_RESPONSE_MAX_BYTES, type FindResponse } from './find.js';
import { projectFind } from './projection.js';

function runtime(provider: string): ProviderRuntime {
  return {
    provider,
    availability: 'AVAILABLE',
    version: '0.1.0',
    digest_kind: 'SOURCE_TREE',
    digest: '4'.repeat(64),
    platform: 'test',
    install_tier: 'T0',
    license_id: 'MIT',
    license_files: ['LICENSE'],
    features: ['test'],
  };
}

const identity: CheckerIdentity = {
  checker_id: INDUCED_TREE_CHECKER_ID,
  checker_digest: `sha256:${'5'.repeat(64)}`,
  method: 'exhaustive enumeration',
};

function realCapabilities(): InstalledCapability[] {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const z3 = runtime('z3-solver');
  return [
    installCapability(constructExplicit, runtime('jacobian-graph-ts'), null),
    installCapability(artifactPut, runtime('jacobian-artifact-ts'), null),
    installCapability(maximumInducedTree(z3), z3, null),
    installCapability(
      verifyInducedTree({ authorization: () => ({ authorized: [] }), signingKey: { privateKey, publicKey, keyId: keyId(publicKey) }, identity: () => identity }),
      runtime('jacobian-checker-ts'),
      identity,
    ),
  ];
}

const REAL_IDS = ['artifact.put', 'graph.construct.explicit', 'graph.induced_tree.maximum.compute', 'graph.induced_tree.maximum.verify'];

/** Large but valid synthetic capabilities, so cards hit the response size bound. */
function synthetic(count: number, exampleValues = 250): InstalledCapability[] {
  const fields = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field_${i}`, z.string().max(50).optional().describe(`optional field ${i} `.repeat(6))]));
  const Input = z.object({ values: z.array(z.number().int()), ...fields }).strict();
  return Array.from({ length: count }, (_, i) => {
    const id = `synthetic.op_${String(i).padStart(2, '0')}`;
    const definition: CapabilityDefinition<unknown, unknown> = {
      id,
      version: '1.0.0',
      title: `Synthetic operation ${i}`,
      description: `Synthetic padding capability number ${i}. ${'It exists to fill the catalog. '.repeat(60)}`.slice(0, 2000),
      tags: Array.from({ length: 20 }, (_, t) => `padding-tag-${t}`),
      domain: i % 2 === 0 ? 'synthetic' : 'padding',
      modes: ['EXPLORE'],
      role: 'producer',
      pool: 'light',
      input_kinds: ['STRUCTURED_REQUEST'],
      accepted_artifact_types: ['urn:synthetic:input'],
      produced_artifact_types: ['urn:synthetic:output'],
      input: Input,
      output: z.object({ total: z.number().int().describe('the sum') }).strict(),
      examples: Array.from({ length: 5 }, (_, e) => ({ title: `example ${e}`, mode: 'EXPLORE' as const, payload: { values: Array.from({ length: exampleValues }, (_, v) => v * 11 + e) } })),
      relationships: [{ kind: 'CONSUMES_OUTPUT_OF', capability_id: 'graph.construct.explicit' }],
      assurance_ceiling: 'COMPUTED',
      scope_rule: `Covers exactly the supplied values. ${'Nothing else is claimed. '.repeat(36)}`.slice(0, 1000),
      limits: { max_values: 1000 },
      run: () => Promise.reject(new Error('not run')),
    };
    return installCapability(definition, runtime('synthetic-provider'), null);
  });
}

const unused = (): Promise<never> => Promise.reject(new Error('not used by math.find'));
const queue: RunQueue = { submit: unused, stats: () => ({ inFlight: 0, queued: 0, running: 0 }), close: () => Promise.resolve() };
const artifacts: ArtifactStore = {
  limits: { maxPayloadBytes: 1, maxManifestBytes: 1 },
  put: unused,
  get: unused,
  getManifest: unused,
  has: unused,
  close: () => Promise.resolve(),
};

function api(installed: InstalledCapability[], policy: OperatorPolicyInput = {}): Api {
  return createApi({ installed: () => installed, policy: OperatorPolicySchema.parse(policy), queue, artifacts, trustedCheckerKeys: new Map() });
}

const ids = (response: FindResponse): unknown[] => response.matches.map((m) => m['capability_id']);
const bytes = (value: unknown): number => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));

function expectBounded(response: FindResponse): void {
  expect(bytes(response)).toBeLessThan(FIND_RESPONSE_MAX_BYTES);
  expect(bytes(response) + bytes(projectFind(response))).toBeLessThan(FIND_RESPONSE_MAX_BYTES);
}

/** Follow next_cursor from the first page to the last, returning every page. */
function allPages(target: Api, args: Record<string, unknown>): FindResponse[] {
  const pages: FindResponse[] = [];
  let cursor: string | null = null;
  do {
    const page = target.find(cursor === null ? args : { ...args, cursor });
    expect(page.diagnostics).toEqual([]);
    pages.push(page);
    cursor = page.next_cursor;
    expect(pages.length).toBeLessThan(200);
  } while (cursor !== null);
  return pages;
}

const real = api(realCapabilities());

describe('math.find browse', () => {
  it('browses in capability ID order with no arguments', () => {
    const response = real.find({});
    expect(response).toMatchObject({ kind: 'BROWSE', total_matches: 4, next_cursor: null, capability: null, diagnostics: [] });
    expect(ids(response)).toEqual(REAL_IDS);
    expect(response.catalog_digest).toBe(real.catalog().digest);
    expectBounded(response);
  });

  it('pages with limit and next_cursor, visiting every capability exactly once', () => {
    const pages = allPages(real, { limit: 1 });
    expect(pages).toHaveLength(4);
    expect(pages.flatMap(ids)).toEqual(REAL_IDS);
    expect(pages.every((p) => p.total_matches === 4)).toBe(true);
    expect(allPages(real, { limit: 3 }).map(ids)).toEqual([REAL_IDS.slice(0, 3), REAL_IDS.slice(3)]);
  });

  it('keeps every page of a padded catalog under the size bound without skipping anything', () => {
    const padded = api([...synthetic(45), ...realCapabilities()]);
    const expected = padded.catalog().capabilities.map((c) => c.id);
    expect(expected).toHaveLength(49);
    expect(expected).toEqual([...expected].sort());
    for (const args of [{}, { limit: 20 }, { limit: 7 }, { query: 'synthetic operation', limit: 20 }]) {
      const pages = allPages(padded, args);
      for (const page of pages) expectBounded(page);
      const visited = pages.flatMap(ids);
      if (args.query === undefined) expect(visited).toEqual(expected);
      else expect([...visited].sort()).toEqual(expected.filter((id) => id.startsWith('synthetic.')));
      expect(new Set(visited).size).toBe(visited.length);
    }
    // The bound is what shortens pages: a limit-20 page of these cards cannot hold 20.
    expect(padded.find({ limit: 20 }).matches.length).toBeLessThan(20);
  });

  it('rejects a cursor issued for another catalog', () => {
    const first = real.find({ limit: 1 });
    expect(first.next_cursor).not.toBeNull();
    const other = api(realCapabilities().slice(1));
    const response = other.find({ limit: 1, cursor: first.next_cursor });
    expect(response.matches).toEqual([]);
    expect(response.diagnostics).toMatchObject([{ code: 'INVALID_REQUEST', path: ['cursor'], message: expect.stringContaining('catalog changed') as unknown }]);
    // A policy change is a catalog change too.
    const hidden = api(realCapabilities(), { hidden_tags: ['nothing-has-this-tag'] });
    expect(hidden.find({ limit: 1, cursor: first.next_cursor }).diagnostics[0]?.path).toEqual(['cursor']);
  });

  it.each([
    ['another limit', { limit: 2 }],
    ['a query', { limit: 1, query: 'graph' }],
    ['a domain', { limit: 1, domain: 'graph' }],
    ['a mode', { limit: 1, mode: 'EXPLORE' }],
  ])('rejects a cursor reused with %s', (_name, args) => {
    const cursor = real.find({ limit: 1 }).next_cursor;
    const response = real.find({ ...args, cursor });
    expect(response.diagnostics).toMatchObject([{ code: 'INVALID_REQUEST', path: ['cursor'], message: expect.stringContaining('same query, domain, mode and limit') as unknown }]);
  });

  it.each(['garbage', Buffer.from('{"o":-1,"c":"x","f":"y"}').toString('base64url'), Buffer.from('[1,2]').toString('base64url')])(
    'rejects a cursor it did not issue (%s)',
    (cursor) => {
      expect(real.find({ cursor }).diagnostics).toMatchObject([{ code: 'INVALID_REQUEST', path: ['cursor'], message: 'cursor: not a cursor returned by math.find' }]);
    },
  );
});

describe('math.find search', () => {
  it.each([
    ['verify a maximum induced tree exhaustively', 'graph.induced_tree.maximum.verify'],
    ['induced tree verification', 'graph.induced_tree.maximum.verify'],
    ['largest induced tree smt solver', 'graph.induced_tree.maximum.compute'],
    ['construct a graph from vertices and edges', 'graph.construct.explicit'],
    ['store a JSON payload as an artifact', 'artifact.put'],
  ])('ranks the expected capability first for "%s"', (query, expected) => {
    const response = real.find({ query });
    expect(response.kind).toBe('SEARCH');
    expect(ids(response)[0]).toBe(expected);
    const scores = response.matches.map((m) => m['relevance_score'] as number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(scores[1] ?? 0);
  });

  it('finds nothing for words no descriptor contains, and ignores stop words alone', () => {
    expect(real.find({ query: 'quaternion holonomy' })).toMatchObject({ total_matches: 0, matches: [], next_cursor: null, diagnostics: [] });
    expect(real.find({ query: 'find the of' }).total_matches).toBe(0);
  });

  it('explains each match with the fields and terms it matched', () => {
    const top = real.find({ query: 'z3' }).matches;
    expect(top).toHaveLength(1);
    expect(top[0]).toMatchObject({ capability_id: 'graph.induced_tree.maximum.compute', matched_on: ['tags', 'description'], matched_terms: ['z3'], relevance_score: 3 });
  });
});

describe('math.find filters', () => {
  it('filters by domain (or exact tag)', () => {
    // graph.construct.explicit carries the tag `artifact`; `domain` matches a domain or an exact tag.
    expect(ids(real.find({ domain: 'artifact' }))).toEqual(['artifact.put', 'graph.construct.explicit']);
    expect(ids(real.find({ domain: 'storage' }))).toEqual(['artifact.put']);
    expect(ids(real.find({ domain: 'graph' }))).toEqual(REAL_IDS.slice(1));
    expect(ids(real.find({ domain: 'checker' }))).toEqual(['graph.induced_tree.maximum.verify']);
    expect(real.find({ domain: 'topology' }).total_matches).toBe(0);
  });

  it('filters by mode', () => {
    expect(ids(real.find({ mode: 'VERIFY' }))).toEqual(['graph.induced_tree.maximum.verify']);
    expect(ids(real.find({ mode: 'EXPLORE' }))).toEqual(REAL_IDS.slice(0, 3));
    expect(ids(real.find({ mode: 'VERIFY', query: 'graph construct' }))).toEqual(['graph.induced_tree.maximum.verify']);
  });

  it('never shows a capability the policy hides', () => {
    const hidden = api(realCapabilities(), { hidden_ids: ['artifact.put'], hidden_modes: ['VERIFY'] });
    expect(ids(hidden.find({}))).toEqual(['graph.construct.explicit', 'graph.induced_tree.maximum.compute']);
    expect(hidden.find({ query: 'artifact store payload' }).matches.map((m) => m['capability_id'])).not.toContain('artifact.put');
    expect(hidden.find({ capability_id: 'artifact.put' }).diagnostics[0]?.code).toBe('UNKNOWN_CAPABILITY');
  });
});

describe('math.find inspection', () => {
  const installed = realCapabilities();
  const verify = installed.find((c) => c.descriptor.id === 'graph.induced_tree.maximum.verify')?.descriptor;

  it('SUMMARY (the default) omits schemas, examples and runtime', () => {
    const response = real.find({ capability_id: 'graph.induced_tree.maximum.verify' });
    expect(response).toMatchObject({ kind: 'INSPECT', total_matches: null, matches: [], next_cursor: null, diagnostics: [] });
    const capability = response.capability ?? {};
    expect(capability).toMatchObject({
      capability_id: 'graph.induced_tree.maximum.verify',
      version: '1.0.0',
      modes: ['VERIFY'],
      role: 'checker',
      assurance_ceiling: 'VERIFIED',
      input_fields: { required: ['result_uri'], available: ['result_uri'] },
      examples_available: verify?.examples.length,
      relationships: [{ kind: 'VERIFIES', capability_id: 'graph.induced_tree.maximum.compute' }],
    });
    for (const key of ['input_schema', 'examples', 'output_schema', 'provider_runtime', 'checker', 'output_summary']) expect(capability).not.toHaveProperty(key);
    expect(real.find({ capability_id: 'graph.induced_tree.maximum.verify', view: 'SUMMARY' }).capability).toEqual(capability);
  });

  it('CONTRACT adds the exact input schema, examples and checker identity but not the output schema or runtime', () => {
    const capability = real.find({ capability_id: 'graph.induced_tree.maximum.verify', view: 'CONTRACT' }).capability ?? {};
    expect(capability['input_schema']).toEqual(verify?.input_schema);
    expect(capability['examples']).toEqual(verify?.examples);
    const construct = installed.find((c) => c.descriptor.id === 'graph.construct.explicit')?.descriptor;
    const withExamples = real.find({ capability_id: 'graph.construct.explicit', view: 'CONTRACT' }).capability ?? {};
    expect(construct?.examples.length).toBeGreaterThan(0);
    expect(withExamples['examples']).toEqual(construct?.examples);
    expect(real.find({ capability_id: 'graph.construct.explicit' }).capability?.['examples_available']).toBe(construct?.examples.length);
    expect(capability['checker']).toEqual(identity);
    expect(capability['output_summary']).toHaveProperty('verdict');
    expect(capability).not.toHaveProperty('output_schema');
    expect(capability).not.toHaveProperty('provider_runtime');
    expect(capability).toHaveProperty('description');
  });

  it('FULL adds the output schema, provider runtime, license and descriptor digest', () => {
    const capability = real.find({ capability_id: 'graph.induced_tree.maximum.verify', view: 'FULL' }).capability ?? {};
    expect(capability['input_schema']).toEqual(verify?.input_schema);
    expect(capability['output_schema']).toEqual(verify?.output_schema);
    expect(capability['provider_runtime']).toEqual(runtime('jacobian-checker-ts'));
    expect(capability['license']).toEqual({ id: 'MIT', files: ['LICENSE'] });
    expect(capability['descriptor_digest']).toBe(verify ? descriptorDigest(verify) : null);
  });

  it('keeps a CONTRACT or FULL inspection under the size bound even for large descriptor-valid examples', () => {
    const large = synthetic(1, 600);
    const target = api(large);
    for (const view of ['CONTRACT', 'FULL']) expectBounded(target.find({ capability_id: 'synthetic.op_00', view }));
  });

  it('keeps every inspection of the real capabilities under the size bound', () => {
    for (const id of REAL_IDS) {
      for (const view of ['SUMMARY', 'CONTRACT', 'FULL']) {
        const response = real.find({ capability_id: id, view });
        expect(response.diagnostics).toEqual([]);
        expectBounded(response);
      }
    }
  });

  it('answers an unknown capability_id with UNKNOWN_CAPABILITY at capability_id', () => {
    const response = real.find({ capability_id: 'graph.nope' });
    expect(response).toMatchObject({ kind: 'INSPECT', capability: null, matches: [] });
    expect(response.diagnostics).toMatchObject([{ severity: 'ERROR', code: 'UNKNOWN_CAPABILITY', stage: 'ADMISSION', path: ['capability_id'] }]);
    expectBounded(response);
  });
});

describe('math.find argument validation', () => {
  it.each([
    ['capability_id with query', { capability_id: 'artifact.put', query: 'x' }, ['query']],
    ['capability_id with limit', { capability_id: 'artifact.put', limit: 2 }, ['limit']],
    ['capability_id with domain', { capability_id: 'artifact.put', domain: 'graph' }, ['domain']],
    ['view without capability_id', { view: 'FULL' }, ['view']],
    ['limit 0', { limit: 0 }, ['limit']],
    ['limit 21', { limit: 21 }, ['limit']],
    ['a fractional limit', { limit: 1.5 }, ['limit']],
    ['an unknown view', { capability_id: 'artifact.put', view: 'ALL' }, ['view']],
    ['an unknown mode', { mode: 'PROVE' }, ['mode']],
    ['an empty query', { query: '' }, ['query']],
  ])('rejects %s with a diagnostic at that field', (_name, args, path) => {
    const response = real.find(args);
    expect(response.matches).toEqual([]);
    expect(response.capability).toBeNull();
    expect(response.diagnostics).toHaveLength(1);
    expect(response.diagnostics[0]).toMatchObject({ severity: 'ERROR', code: 'INVALID_REQUEST', path });
    expect(response.diagnostics[0]?.message.startsWith(`${path.join('.')}:`)).toBe(true);
  });

  it('rejects an unknown argument with a diagnostic that names it', () => {
    const response = real.find({ qeury: 'graph' });
    expect(response.diagnostics).toHaveLength(1);
    expect(response.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(response.diagnostics[0]?.message).toContain('"qeury"');
  });

  it('rejects arguments that are not an object', () => {
    expect(real.find(null).diagnostics[0]?.code).toBe('INVALID_REQUEST');
    expect(real.find([]).diagnostics[0]?.code).toBe('INVALID_REQUEST');
  });
});
