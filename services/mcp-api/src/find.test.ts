import { generateKeyPairSync } from 'node:crypto';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { INDUCED_TREE_CHECKER_ID, verifyInducedTree } from '@jacobian/checker';
import { artifactPut, constructExplicit, maximumInducedTree } from '@jacobian/runner';
import {
  descriptorDigest,
  GRAPH_SCHEMA_URI,
  INDUCED_TREE_RESULT_SCHEMA_URI,
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
import { FIND_ANSWER_MAX_BYTES, FIND_RESPONSE_MAX_BYTES, type FindResponse } from './find.js';
import { INSTRUCTIONS } from './instructions.js';
import { findAnswerBytes, projectFind } from './projection.js';

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
function synthetic(count: number, exampleValues = 250, domains = 2): InstalledCapability[] {
  const fields = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field_${i}`, z.string().max(50).optional().describe(`optional field ${i} `.repeat(6))]));
  const Input = z.object({ values: z.array(z.number().int()), ...fields }).strict();
  return Array.from({ length: count }, (_, i) => {
    const id = `synthetic.op_${String(i).padStart(2, '0')}`;
    const definition: CapabilityDefinition<unknown, unknown> = {
      id,
      version: '1.0.0',
      title: `Synthetic operation ${i}: ${'a padded title '.repeat(8)}`.slice(0, 120),
      description: `Synthetic padding capability number ${i}. ${'It exists to fill the catalog. '.repeat(60)}`.slice(0, 2000),
      tags: Array.from({ length: 20 }, (_, t) => `padding-tag-${t}`),
      domain: domains === 2 ? (i % 2 === 0 ? 'synthetic' : 'padding') : `padding_domain_${String(i % domains).padStart(3, '0')}`,
      modes: ['EXPLORE'],
      role: 'producer',
      pool: 'light',
      input_kinds: ['STRUCTURED_REQUEST'],
      accepted_artifact_types: ['urn:synthetic:input', ...Array.from({ length: 4 }, (_, t) => `urn:synthetic:padding:${'long-artifact-type-name-'.repeat(3)}${t}`)],
      produced_artifact_types: ['urn:synthetic:output'],
      input: Input,
      output: z.object({ total: z.number().int().describe('the sum'), ...Object.fromEntries(Array.from({ length: 6 }, (_, f) => [`padding_output_field_with_a_long_name_${f}`, z.string()])) }).strict(),
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
  sync: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

function api(installed: InstalledCapability[], policy: OperatorPolicyInput = {}): Api {
  return createApi({ installed: () => installed, policy: OperatorPolicySchema.parse(policy), queue, artifacts, trustedCheckerKeys: new Map() });
}

const ids = (response: FindResponse): unknown[] => response.matches.map((m) => m['capability_id']);

/** The tool result as sent (structured content and the JSON-escaped text) stays under the bound, with room for the JSON-RPC envelope. */
function expectBounded(response: FindResponse): void {
  expect(findAnswerBytes(response, projectFind(response))).toBeLessThanOrEqual(FIND_ANSWER_MAX_BYTES);
  expect(FIND_ANSWER_MAX_BYTES).toBeLessThan(FIND_RESPONSE_MAX_BYTES);
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
    ['an input_kind', { limit: 1, input_kind: 'STRUCTURED_REQUEST' }],
  ])('rejects a cursor reused with %s', (_name, args) => {
    const cursor = real.find({ limit: 1 }).next_cursor;
    const response = real.find({ ...args, cursor });
    expect(response.diagnostics).toMatchObject([{ code: 'INVALID_REQUEST', path: ['cursor'], message: expect.stringContaining('same query, domain, mode, input_kind, artifact_type and limit') as unknown }]);
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
    expect(top[0]).toMatchObject({ capability_id: 'graph.induced_tree.maximum.compute', matched_on: 'tags,keywords,description', relevance_score: 3 });
    // Every query term matched: the response's query_terms are the card's matched terms.
    expect(top[0]).not.toHaveProperty('matched_terms');
    expect(real.find({ query: 'z3' }).query_terms).toEqual(['z3']);
    // Some did not: the card names those that did.
    const partial = real.find({ query: 'z3 quaternion' });
    expect(partial.query_terms).toEqual(['z3', 'quaternion']);
    expect(partial.matches[0]).toMatchObject({ matched_terms: ['z3'], query_coverage_milli: 500 });
    expect(real.find({}).query_terms).toBeNull();
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
    ['an unknown input_kind', { input_kind: 'PROSE' }, ['input_kind']],
    ['artifact_type without input_kind', { artifact_type: GRAPH_SCHEMA_URI }, ['artifact_type']],
    ['artifact_type with another input_kind', { input_kind: 'STRUCTURED_REQUEST', artifact_type: GRAPH_SCHEMA_URI }, ['artifact_type']],
    ['an artifact_type that is not a schema URI', { input_kind: 'TYPED_ARTIFACT', artifact_type: 'graph' }, ['artifact_type']],
    ['capability_id with input_kind', { capability_id: 'artifact.put', input_kind: 'TYPED_ARTIFACT' }, ['input_kind']],
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


/** A capability that declares it reads natural-language proof, to show such a route is taken. */
function proseReader(): InstalledCapability {
  const definition: CapabilityDefinition<unknown, unknown> = {
    id: 'proof.prose.outline',
    version: '1.0.0',
    title: 'Outline a proof written in prose',
    description: 'Splits proof prose into numbered steps; it checks nothing.',
    tags: ['proof', 'outline'],
    domain: 'proof',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['NATURAL_LANGUAGE_PROOF'],
    accepted_artifact_types: [],
    produced_artifact_types: [],
    input: z.object({ text: z.string().max(10_000) }).strict(),
    output: z.object({ steps: z.array(z.string()) }).strict(),
    examples: [],
    relationships: [],
    assurance_ceiling: 'HEURISTIC',
    scope_rule: 'Covers exactly the supplied text.',
    limits: {},
    run: () => Promise.reject(new Error('not run')),
  };
  return installCapability(definition, runtime('prose-provider'), null);
}

const kinds = (response: FindResponse): string[] => response.recovery_paths.map((p) => p.kind);

describe('math.find retrieval signals', () => {
  it('scores coverage as floor(1000 x matched terms / terms) and calls a match STRONG only with half the terms and an ID, tag or title hit', () => {
    expect(real.find({ query: 'z3' }).matches[0]).toMatchObject({ query_coverage_milli: 1000, lexical_fit: 'STRONG' });
    expect(real.find({ query: 'z3 quaternion' }).matches[0]).toMatchObject({ query_coverage_milli: 500, lexical_fit: 'STRONG' });
    expect(real.find({ query: 'z3 quaternion holonomy' }).matches[0]).toMatchObject({ query_coverage_milli: 333, lexical_fit: 'WEAK' });
    // Every term matched, but only in a description: still WEAK.
    const described = real.find({ query: 'satisfiability' });
    expect(described.matches[0]).toMatchObject({ capability_id: 'graph.induced_tree.maximum.compute', matched_on: 'description', query_coverage_milli: 1000, lexical_fit: 'WEAK' });
    expect(described).toMatchObject({ portfolio_fit: 'ONLY_WEAK_LEXICAL_MATCHES' });
  });

  it('reports STRONG_CANDIDATES, with no recovery paths, when some match is STRONG', () => {
    const response = real.find({ query: 'verify a maximum induced tree exhaustively', limit: 1 });
    expect(response).toMatchObject({
      portfolio_fit: 'STRONG_CANDIDATES',
      domain_filter_status: 'UNFILTERED',
      installed_domains: null,
      routing_status: 'UNCONSTRAINED',
      recovery_paths: [],
    });
    expect(response.portfolio_fit_basis).toMatch(/^\d+ of \d+ matches are STRONG/);
    // The fit describes the whole result, so every page reports the same one.
    const pages = allPages(real, { query: 'verify a maximum induced tree exhaustively', limit: 1 });
    expect(pages.length).toBeGreaterThan(1);
    expect(new Set(pages.map((p) => p.portfolio_fit))).toEqual(new Set(['STRONG_CANDIDATES']));
  });

  it('lists unranked recovery paths when only weak matches exist, naming the terms that matched nothing', () => {
    const response = real.find({ query: 'z3 quaternion holonomy' });
    expect(response.portfolio_fit).toBe('ONLY_WEAK_LEXICAL_MATCHES');
    expect(response.portfolio_fit_basis).toContain('333‰ of the 3 query terms');
    expect(kinds(response)).toEqual(['REFORMULATE', 'BROWSE', 'READ_CATALOG']);
    expect(response.recovery_paths[0]?.detail).toContain('these terms matched nothing: quaternion, holonomy');
  });

  it('reports NO_LEXICAL_MATCHES with its basis and recovery paths', () => {
    const none = real.find({ query: 'quaternion holonomy' });
    expect(none).toMatchObject({ total_matches: 0, portfolio_fit: 'NO_LEXICAL_MATCHES' });
    expect(none.portfolio_fit_basis).toBe('none of the 4 capabilities that pass the filters has a token matching a query term (quaternion, holonomy)');
    expect(kinds(none)).toEqual(['REFORMULATE', 'BROWSE', 'READ_CATALOG']);
    const stopWords = real.find({ query: 'find the of' });
    expect(stopWords).toMatchObject({ portfolio_fit: 'NO_LEXICAL_MATCHES', portfolio_fit_basis: 'the query has no terms once stop words are removed' });
    // A filter that let nothing through is one to remove.
    const filtered = real.find({ query: 'graph', mode: 'VERIFY', domain: 'storage' });
    expect(filtered).toMatchObject({ total_matches: 0, portfolio_fit: 'NO_LEXICAL_MATCHES', domain_filter_status: 'MATCHED' });
    expect(kinds(filtered)).toEqual(['REFORMULATE', 'REMOVE_FILTER', 'REMOVE_FILTER', 'BROWSE', 'READ_CATALOG']);
  });

  it('reports browse and inspection as UNFILTERED, without recovery paths while something is listed', () => {
    expect(real.find({})).toMatchObject({ portfolio_fit: 'UNFILTERED', domain_filter_status: 'UNFILTERED', routing_status: 'UNCONSTRAINED', recovery_paths: [] });
    expect(real.find({ capability_id: 'artifact.put' })).toMatchObject({ portfolio_fit: 'UNFILTERED', domain_filter_status: 'UNFILTERED', routing_status: 'UNCONSTRAINED', recovery_paths: [] });
  });

  it('reports a domain filter as MATCHED for an installed domain or tag, and UNKNOWN_DOMAIN with the installed domains otherwise', () => {
    expect(real.find({ domain: 'graph' })).toMatchObject({ domain_filter_status: 'MATCHED', domain_filter_basis: 'domain graph names an installed domain', installed_domains: null });
    expect(real.find({ domain: 'storage' })).toMatchObject({ domain_filter_status: 'MATCHED', domain_filter_basis: 'domain storage names an installed tag' });
    const unknown = real.find({ domain: 'topology' });
    expect(unknown).toMatchObject({ total_matches: 0, domain_filter_status: 'UNKNOWN_DOMAIN', installed_domains: ['artifact', 'graph'] });
    expect(unknown.domain_filter_basis).toContain('names no installed domain or tag');
    expect(kinds(unknown)).toEqual(['REMOVE_FILTER', 'BROWSE', 'READ_CATALOG']);
    expect(unknown.recovery_paths[0]?.detail).toContain('installed_domains');
  });

  it('rejected requests carry no signals', () => {
    expect(real.find({ limit: 0 })).toMatchObject({ portfolio_fit: null, portfolio_fit_basis: null, domain_filter_status: null, routing_status: null, routing_basis: null, recovery_paths: [] });
  });

  it('documents every signal, its values and that it is retrieval, not advice, in jacobian://instructions', () => {
    for (const word of [
      'query_coverage_milli',
      'lexical_fit',
      'STRONG',
      'WEAK',
      'portfolio_fit_basis',
      'STRONG_CANDIDATES',
      'ONLY_WEAK_LEXICAL_MATCHES',
      'NO_LEXICAL_MATCHES',
      'UNFILTERED',
      'domain_filter_basis',
      'UNKNOWN_DOMAIN',
      'installed_domains',
      'routing_basis',
      'ROUTED',
      'NO_ROUTE',
      'UNCONSTRAINED',
      'recovery_paths',
      'REFORMULATE',
      'REMOVE_FILTER',
      'BROWSE',
      'READ_CATALOG',
      'artifact_type',
      'NATURAL_LANGUAGE_PROOF',
      'floor(1000 x matched terms / terms)',
      'retrieval signals, not advice',
      'unranked',
    ]) {
      expect(INSTRUCTIONS, word).toContain(word);
    }
  });

  it('projects the signals into the text content', () => {
    const text = projectFind(real.find({ query: 'quaternion', domain: 'topology' }));
    expect(text).toContain('portfolio_fit: NO_LEXICAL_MATCHES (');
    expect(text).toContain('domain_filter_status: UNKNOWN_DOMAIN (');
    expect(text).toContain('installed domains: artifact, graph');
    expect(text).toContain('recovery paths (unranked):\n- REFORMULATE: ');
    expect(projectFind(real.find({ query: 'z3' }))).toContain('\nscore 3 STRONG coverage 1000‰:\n- graph.induced_tree.maximum.compute');
    // Matches sharing their signals share one signal line, in ranked order.
    const lines = projectFind(real.find({ query: 'graph tree', limit: 20 })).split('\n');
    const runs = lines.filter((line) => line.startsWith('score '));
    expect(runs.length).toBeGreaterThan(0);
    expect(new Set(runs).size).toBe(runs.length);
    expect(lines.filter((line) => line.startsWith('- ')).length).toBe(real.find({ query: 'graph tree', limit: 20 }).matches.length);
    // Browse lines carry the title.
    expect(projectFind(real.find({}))).toContain('\n- artifact.put: ');
  });
});

describe('math.find input_kind routing', () => {
  it('routes each declared input kind to the installed capabilities accepting it', () => {
    const typed = real.find({ input_kind: 'TYPED_ARTIFACT' });
    expect(typed).toMatchObject({ routing_status: 'ROUTED', recovery_paths: [] });
    expect(ids(typed)).toEqual(['graph.induced_tree.maximum.compute', 'graph.induced_tree.maximum.verify']);
    expect(typed.routing_basis).toBe('input_kind TYPED_ARTIFACT: 2 installed capabilities accept TYPED_ARTIFACT input; results are limited to them');
    expect(ids(real.find({ input_kind: 'STRUCTURED_REQUEST' }))).toEqual(['artifact.put', 'graph.construct.explicit']);
    expect(ids(real.find({ input_kind: 'TYPED_ARTIFACT', artifact_type: GRAPH_SCHEMA_URI }))).toEqual(['graph.induced_tree.maximum.compute']);
    expect(ids(real.find({ input_kind: 'TYPED_ARTIFACT', artifact_type: INDUCED_TREE_RESULT_SCHEMA_URI, query: 'tree' }))).toEqual(['graph.induced_tree.maximum.verify']);
  });

  it('answers an artifact type nothing accepts with NO_ROUTE, the accepted types, and recovery paths', () => {
    const response = real.find({ input_kind: 'TYPED_ARTIFACT', artifact_type: 'urn:example:schema:note/v1' });
    expect(response).toMatchObject({ routing_status: 'NO_ROUTE', total_matches: 0, matches: [] });
    expect(response.routing_basis).toContain(`installed capabilities accept TYPED_ARTIFACT input of these types: ${GRAPH_SCHEMA_URI}, ${INDUCED_TREE_RESULT_SCHEMA_URI}`);
    expect(kinds(response)).toEqual(['REMOVE_FILTER', 'REMOVE_FILTER', 'BROWSE', 'READ_CATALOG']);
    expect(real.find({ input_kind: 'FORMAL_PROPOSITION' })).toMatchObject({ routing_status: 'NO_ROUTE', total_matches: 0 });
  });

  it('answers natural-language proof, declared or named in the query, with NO_ROUTE when nothing installed reads it', () => {
    const declared = real.find({ input_kind: 'NATURAL_LANGUAGE_PROOF', query: 'induced tree' });
    expect(declared).toMatchObject({ routing_status: 'NO_ROUTE', total_matches: 0, portfolio_fit: 'NO_LEXICAL_MATCHES' });
    expect(declared.routing_basis).toContain('proof prose is not a formal artifact');
    expect(declared.recovery_paths[0]).toEqual({ kind: 'REFORMULATE', detail: expect.stringContaining('formal proposition') as unknown });
    for (const [query, phrase] of [
      ['check my informal proof that trees are bipartite', 'informal proof'],
      ['tree proof prose', 'proof prose'],
      ['Natural-language proofs about graphs', 'natural language proof'],
    ]) {
      const named = real.find({ query });
      expect(named, query).toMatchObject({ routing_status: 'NO_ROUTE', total_matches: 0 });
      expect(named.routing_basis).toContain(`the query names natural-language proof ("${phrase}")`);
      expect(kinds(named)).toEqual(['REFORMULATE', 'BROWSE', 'READ_CATALOG']);
    }
    // Not unambiguous: the words apart, or a declared input kind, leave routing alone.
    expect(real.find({ query: 'proof of an induced tree' }).routing_status).toBe('UNCONSTRAINED');
    expect(real.find({ query: 'informal proof', input_kind: 'STRUCTURED_REQUEST' }).routing_status).toBe('ROUTED');
  });

  it('routes natural-language proof to an installed capability that declares it reads it', () => {
    const withReader = api([...realCapabilities(), proseReader()]);
    const response = withReader.find({ query: 'outline my informal proof' });
    expect(response).toMatchObject({ routing_status: 'ROUTED', portfolio_fit: 'STRONG_CANDIDATES' });
    expect(ids(response)).toEqual(['proof.prose.outline']);
    expect(ids(withReader.find({ input_kind: 'NATURAL_LANGUAGE_PROOF' }))).toEqual(['proof.prose.outline']);
  });

  it('keeps cursors usable for the longest query and artifact type', () => {
    const query = 'graph tree '.repeat(45);
    const first = real.find({ query, limit: 1 });
    expect(first.next_cursor?.length).toBeLessThanOrEqual(512);
    expect(allPages(real, { query, limit: 1 }).flatMap(ids)).toEqual(ids(real.find({ query, limit: 20 })));
  });
});

describe('math.find operation cards', () => {
  const card = (target: Api, id: string): Record<string, unknown> | undefined => target.find({}).matches.find((m) => m['capability_id'] === id);

  it('carries output summary, provider availability, exact-input scope, assurance ceiling and one bounded example', () => {
    expect(card(real, 'graph.induced_tree.maximum.compute')).toMatchObject({
      input_kinds: ['TYPED_ARTIFACT'],
      accepts: [GRAPH_SCHEMA_URI],
      provider: 'z3-solver',
      scope: 'Covers exactly the one stored input graph; bounds found…',
      assurance_ceiling: 'COMPUTED',
      examples: 1,
      example: { index: 0, mode: 'EXPLORE' },
    });
    // The first two output fields, in schema order, and how many more (inspection lists them all).
    const outputFields = real.find({ capability_id: 'graph.induced_tree.maximum.compute' }).capability?.['output_fields'] as string[];
    expect(outputFields.length).toBeGreaterThan(2);
    expect(card(real, 'graph.induced_tree.maximum.compute')?.['outputs']).toEqual([...outputFields.slice(0, 2), `(+${outputFields.length - 2} more)`]);
    expect(card(real, 'graph.induced_tree.maximum.compute')).not.toHaveProperty('inputs');
    // Produced types are inspection's (the cards' related operations follow from them); empty lists are left out.
    expect(card(real, 'graph.induced_tree.maximum.compute')).not.toHaveProperty('produces');
    expect(card(real, 'artifact.put')).not.toHaveProperty('accepts');
    expect(real.find({ capability_id: 'graph.induced_tree.maximum.compute' }).capability?.['produced_artifact_types']).toEqual([INDUCED_TREE_RESULT_SCHEMA_URI]);
  });

  it('shows the input fields instead when no example fits the size bound', () => {
    const large = card(api(synthetic(1, 600)), 'synthetic.op_00');
    expect(large).not.toHaveProperty('example');
    expect(large).toMatchObject({ examples: 5 });
    expect(large?.['inputs']).toContain('values*');
    expect(large?.['inputs']).toContain('field_11');
  });

  it('relates only to installed operations: declared relationships, then artifact-type compatibility', () => {
    expect(card(real, 'graph.construct.explicit')?.['related']).toEqual({ OUTPUT_ACCEPTED_BY: ['graph.induced_tree.maximum.compute'] });
    expect(card(real, 'graph.induced_tree.maximum.compute')?.['related']).toEqual({ CONSUMES_OUTPUT_OF: ['graph.construct.explicit'], VERIFIED_BY: ['graph.induced_tree.maximum.verify'] });
    expect(real.find({ capability_id: 'graph.construct.explicit' }).capability?.['relationships']).toEqual([
      { kind: 'OUTPUT_ACCEPTED_BY', capability_id: 'graph.induced_tree.maximum.compute', artifact_type: GRAPH_SCHEMA_URI },
    ]);
    // Without the checker and the graph constructor installed, neither is named.
    const alone = api(realCapabilities().filter((c) => ['graph.induced_tree.maximum.compute', 'artifact.put'].includes(c.descriptor.id)));
    expect(card(alone, 'graph.induced_tree.maximum.compute')).not.toHaveProperty('related');
    expect(alone.find({ capability_id: 'graph.induced_tree.maximum.compute' }).capability?.['relationships']).toEqual([]);
    expect(card(api(synthetic(1)), 'synthetic.op_00')).not.toHaveProperty('related');
  });
});

describe('math.find size bound with the retrieval signals', () => {
  it('keeps weak, empty, unknown-domain and no-route responses of a padded catalog under the bound', () => {
    const padded = api([...synthetic(45, 250, 45), ...realCapabilities()]);
    const long = Array.from({ length: 60 }, (_, i) => `zzword${i}`).join(' ').slice(0, 480);
    const cases: Record<string, unknown>[] = [
      { query: `synthetic ${long}`, limit: 20 },
      { query: long, limit: 20 },
      { query: long, domain: 'no_such_domain', mode: 'VERIFY', limit: 20 },
      { query: `${long.slice(0, 400)} informal proof`, limit: 20 },
      { input_kind: 'TYPED_ARTIFACT', artifact_type: `urn:${'x'.repeat(250)}`, query: long, domain: 'padding_domain_001', mode: 'EXPLORE', limit: 20 },
      { query: 'padding tag', limit: 20 },
    ];
    for (const args of cases) {
      const pages = allPages(padded, args);
      for (const page of pages) expectBounded(page);
    }
    const unknown = padded.find({ domain: 'no_such_domain' });
    expect(unknown.installed_domains).toHaveLength(47);
    expect(padded.find({ query: `synthetic ${long}`, limit: 20 }).portfolio_fit).toBe('ONLY_WEAK_LEXICAL_MATCHES');
  });
});
