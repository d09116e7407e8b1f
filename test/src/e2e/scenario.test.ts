/**
 * "Done means", end to end: the real `jacobian` command, the real MCP SDK client, every
 * transport × protocol era. Discovery, the Petersen graph from construction through
 * verification, artifacts, the text projection, and bad input that writes nothing.
 */
import { join } from 'node:path';
import { ResourceNotFoundError } from '@modelcontextprotocol/client';
import { constructExplicit } from '@jacobian/runner';
import { GRAPH_SCHEMA_URI, toJsonSchema } from '@jacobian/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStore } from '../support/fs-snapshot.js';
import { PETERSEN_EDGES, PETERSEN_ORDER } from '../support/graphs.js';
import { describeEachConnection, E2E_TEST_TIMEOUT_MS, startJacobian, HOOK_TIMEOUT_MS, type JacobianFixture } from '../support/jacobian.js';
import { ARTIFACT_URI, artifactUrisIn, errorDiagnostic, mathFind, mathRun, readArtifact, type RunCall } from '../support/tools.js';

const FIND_LIMIT_BYTES = 16 * 1024;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const CHECKER_ID = 'jacobian.graph.induced_tree.maximum.exhaustive';

let jacobian: JacobianFixture;

beforeAll(async () => {
  jacobian = await startJacobian();
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await jacobian?.close();
}, HOOK_TIMEOUT_MS);

describe('jacobian end to end', () => {
  describeEachConnection(
    () => jacobian,
    (connection, combination) => {
      const client = () => connection().client;
      let petersen: { compute: RunCall; verify: RunCall } | undefined;

      it('speaks the intended protocol era', { timeout: E2E_TEST_TIMEOUT_MS }, () => {
        expect(client().getProtocolEra()).toBe(combination.era);
        expect(client().getNegotiatedProtocolVersion()).toBe(combination.era === 'modern' ? '2026-07-28' : '2025-11-25');
        expect(client().getServerVersion()?.name).toBe('jacobian');
      });

      it('lists exactly math.find and math.run, the resources, the artifact template and both prompts', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        const { tools } = await client().listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(['math.find', 'math.run']);
        for (const tool of tools) {
          expect(tool.outputSchema, `${tool.name} has no outputSchema`).toBeDefined();
          expect(tool.outputSchema?.['type']).toBe('object');
          expect(Object.keys((tool.outputSchema?.['properties'] as object | undefined) ?? {}).length).toBeGreaterThan(0);
          expect(tool.inputSchema.type).toBe('object');
        }
        const run = tools.find((t) => t.name === 'math.run');
        expect(Object.keys((run?.outputSchema?.['properties'] as object | undefined) ?? {})).toEqual(
          expect.arrayContaining(['capability_id', 'execution', 'output', 'completeness', 'assurance', 'obligations', 'artifact_uris', 'diagnostics']),
        );

        const { resources } = await client().listResources();
        expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['jacobian://instructions', 'capability://catalog']));

        const { resourceTemplates } = await client().listResourceTemplates();
        expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('artifact://sha256/{digest}');

        const { prompts } = await client().listPrompts();
        expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['jacobian-discover', 'jacobian-check-evidence']));
        const discoverArgs = prompts.find((p) => p.name === 'jacobian-discover')?.arguments ?? [];
        expect(discoverArgs.map((a) => [a.name, a.required])).toEqual([['task', true]]);
        const checkArgs = prompts.find((p) => p.name === 'jacobian-check-evidence')?.arguments ?? [];
        expect(Object.fromEntries(checkArgs.map((a) => [a.name, a.required ?? false]))).toEqual({ capability_id: true, result_uri: false });

        const discover = await client().getPrompt({ name: 'jacobian-discover', arguments: { task: 'largest induced tree of the Petersen graph' } });
        expect(discover.messages.length).toBeGreaterThan(0);
        const discoverText = discover.messages[0]?.content.type === 'text' ? discover.messages[0].content.text : '';
        expect(discoverText).toContain('Task: largest induced tree of the Petersen graph');
        expect(discoverText).toContain('math.find');

        const resultUri = `artifact://sha256/${'a'.repeat(64)}`;
        const check = await client().getPrompt({
          name: 'jacobian-check-evidence',
          arguments: { capability_id: 'graph.induced_tree.maximum.compute', result_uri: resultUri },
        });
        const checkText = check.messages[0]?.content.type === 'text' ? check.messages[0].content.text : '';
        expect(checkText).toContain('graph.induced_tree.maximum.compute');
        expect(checkText).toContain(resultUri);
        expect(checkText).toContain('VERIFY');
        const withoutUri = await client().getPrompt({ name: 'jacobian-check-evidence', arguments: { capability_id: 'graph.induced_tree.maximum.compute' } });
        expect(withoutUri.messages.length).toBeGreaterThan(0);

        const instructions = await client().readResource({ uri: 'jacobian://instructions' });
        const instructionsText = instructions.contents[0] !== undefined && 'text' in instructions.contents[0] ? instructions.contents[0].text : '';
        expect(instructionsText).toContain('math.find');
      });

      it('math.find browses in stable ID order, ranks search, and inspects a complete contract, each under 16 KiB', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        const catalogRead = await client().readResource({ uri: 'capability://catalog' });
        const catalogText = catalogRead.contents[0] !== undefined && 'text' in catalogRead.contents[0] ? catalogRead.contents[0].text : '{}';
        const catalog = JSON.parse(catalogText) as { digest: string; policy_digest: string; capabilities: { id: string }[] };
        const installed = catalog.capabilities.map((c) => c.id);
        expect(installed).toEqual(
          expect.arrayContaining(['artifact.put', 'graph.construct.explicit', 'graph.induced_tree.maximum.compute', 'graph.induced_tree.maximum.verify']),
        );

        const browse = await mathFind(client(), {});
        expect(browse.raw.isError).not.toBe(true);
        expect(browse.response.kind).toBe('BROWSE');
        expect(browse.response.diagnostics).toEqual([]);
        expect(browse.response.catalog_digest).toMatch(DIGEST);
        expect(browse.response.policy_digest).toMatch(DIGEST);
        expect(browse.response.catalog_digest).toBe(catalog.digest);
        expect(browse.response.policy_digest).toBe(catalog.policy_digest);
        const browsed = browse.response.matches.map((m) => m['capability_id'] as string);
        expect(browsed.length).toBeGreaterThan(0);
        expect(browsed).toEqual([...browsed].sort());
        expect(browsed).toEqual([...installed].sort().slice(0, browsed.length));
        expect(browse.response.total_matches).toBe(installed.length);
        const again = await mathFind(client(), {});
        expect(again.response.matches.map((m) => m['capability_id'])).toEqual(browsed);
        expect(again.response.catalog_digest).toBe(browse.response.catalog_digest);
        expect(browse.bytes).toBeLessThan(FIND_LIMIT_BYTES);

        const search = await mathFind(client(), { query: 'maximum induced tree' });
        expect(search.response.kind).toBe('SEARCH');
        expect(search.response.matches[0]?.['capability_id']).toBe('graph.induced_tree.maximum.compute');
        expect(search.response.catalog_digest).toBe(browse.response.catalog_digest);
        expect(search.response.policy_digest).toBe(browse.response.policy_digest);
        expect(search.bytes).toBeLessThan(FIND_LIMIT_BYTES);

        const inspect = await mathFind(client(), { capability_id: 'graph.construct.explicit', view: 'CONTRACT' });
        expect(inspect.response.kind).toBe('INSPECT');
        expect(inspect.response.diagnostics).toEqual([]);
        const capability = inspect.response.capability as Record<string, unknown>;
        expect(capability['capability_id']).toBe('graph.construct.explicit');
        // Complete: exactly the JSON Schema of the capability's own input contract, and every example.
        const expectedSchema = toJsonSchema(constructExplicit.input, 'input');
        expect(capability['input_schema']).toEqual(expectedSchema);
        const inputSchema = capability['input_schema'] as { properties: Record<string, unknown>; required: string[]; additionalProperties: unknown };
        expect(Object.keys(inputSchema.properties).sort()).toEqual(['edges', 'order', 'vertices']);
        expect(inputSchema.required).toEqual(['edges']);
        expect(inputSchema.additionalProperties).toBe(false);
        expect(capability['examples']).toEqual(constructExplicit.examples);
        expect(capability['examples']).toContainEqual({ title: 'The Petersen graph', mode: 'EXPLORE', payload: { order: PETERSEN_ORDER, edges: PETERSEN_EDGES } });
        // The text projection keeps the complete input schema for text-only clients.
        expect(inspect.text).toContain(`input_schema: ${JSON.stringify(expectedSchema)}`);
        expect(inspect.bytes).toBeLessThan(FIND_LIMIT_BYTES);

        // Every find response stays under the bound: the largest pages and every inspection view.
        const sizes: Record<string, number> = {};
        sizes['browse limit 20'] = (await mathFind(client(), { limit: 20 })).bytes;
        sizes['search limit 20'] = (await mathFind(client(), { query: 'graph tree artifact verify compute', limit: 20 })).bytes;
        for (const id of installed) {
          for (const view of ['SUMMARY', 'CONTRACT', 'FULL']) {
            const call = await mathFind(client(), { capability_id: id, view });
            expect(call.response.diagnostics).toEqual([]);
            sizes[`${id} ${view}`] = call.bytes;
          }
        }
        for (const [what, bytes] of Object.entries(sizes)) expect(bytes, what).toBeLessThan(FIND_LIMIT_BYTES);
      });

      it('math.find reports retrieval signals: a strong candidate, no lexical match with recovery paths, and NO_ROUTE for proof prose', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        const strong = await mathFind(client(), { query: 'maximum induced tree', domain: 'graph' });
        expect(strong.response).toMatchObject({ portfolio_fit: 'STRONG_CANDIDATES', domain_filter_status: 'MATCHED', routing_status: 'UNCONSTRAINED', recovery_paths: [] });
        expect(strong.response.matches[0]).toMatchObject({ capability_id: 'graph.induced_tree.maximum.compute', lexical_fit: 'STRONG', query_coverage_milli: 1000 });
        expect(strong.text).toContain('portfolio_fit: STRONG_CANDIDATES');

        const none = await mathFind(client(), { query: 'quaternion holonomy' });
        expect(none.raw.isError).not.toBe(true);
        expect(none.response).toMatchObject({ total_matches: 0, portfolio_fit: 'NO_LEXICAL_MATCHES' });
        expect(none.response.recovery_paths.map((p) => p.kind)).toEqual(['REFORMULATE', 'BROWSE', 'READ_CATALOG']);
        expect(none.text).toContain('recovery paths (unranked):');

        const prose = await mathFind(client(), { input_kind: 'NATURAL_LANGUAGE_PROOF', query: 'induced tree' });
        expect(prose.raw.isError).not.toBe(true);
        expect(prose.response).toMatchObject({ routing_status: 'NO_ROUTE', total_matches: 0, matches: [] });
        expect(prose.response.routing_basis).toContain('NATURAL_LANGUAGE_PROOF');
        expect(prose.response.recovery_paths[0]?.kind).toBe('REFORMULATE');
        const named = await mathFind(client(), { query: 'check my informal proof' });
        expect(named.response.routing_status).toBe('NO_ROUTE');

        const typed = await mathFind(client(), { input_kind: 'TYPED_ARTIFACT', artifact_type: GRAPH_SCHEMA_URI, query: 'maximum induced tree' });
        expect(typed.response.routing_status).toBe('ROUTED');
        expect(typed.response.matches.map((m) => m['capability_id'])).toContain('graph.induced_tree.maximum.compute');

        const unknown = await mathFind(client(), { domain: 'no_such_domain' });
        expect(unknown.response).toMatchObject({ domain_filter_status: 'UNKNOWN_DOMAIN', total_matches: 0 });
        expect(unknown.response.installed_domains).toEqual(expect.arrayContaining(['graph', 'artifact']));
        for (const call of [strong, none, prose, named, typed, unknown]) expect(call.bytes).toBeLessThan(FIND_LIMIT_BYTES);
      });

      it('constructs the Petersen graph, computes its maximum induced tree (7), verifies it, and serves every artifact', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        const construct = await mathRun(client(), { capability_id: 'graph.construct.explicit', payload: { order: PETERSEN_ORDER, edges: PETERSEN_EDGES } });
        expect(construct.result.execution.status).toBe('COMPLETED');
        const graphOutput = construct.result.output as { graph_uri: string; order: number; size: number };
        expect(graphOutput.graph_uri).toMatch(ARTIFACT_URI);
        expect(graphOutput.order).toBe(10);
        expect(graphOutput.size).toBe(15);
        expect(construct.result.artifact_uris).toContain(graphOutput.graph_uri);

        const compute = await mathRun(client(), { capability_id: 'graph.induced_tree.maximum.compute', payload: { graph_uri: graphOutput.graph_uri } });
        expect(compute.result.execution.status).toBe('COMPLETED');
        const treeOutput = compute.result.output as { result_uri: string; graph_uri: string; maximum: number | null; termination: string; witness: { vertices: number[] } };
        expect(treeOutput.maximum).toBe(7);
        expect(treeOutput.termination).toBe('OPTIMAL');
        expect(treeOutput.graph_uri).toBe(graphOutput.graph_uri);
        expect(treeOutput.witness.vertices).toHaveLength(7);
        expect(treeOutput.result_uri).toMatch(ARTIFACT_URI);
        expect(compute.result.completeness.status).toBe('COMPLETE');
        expect(compute.result.assurance.level).toBe('COMPUTED');
        expect(compute.result.assurance.verification_record_uri).toBeNull();
        expect(compute.result.obligations).toContainEqual(expect.objectContaining({ id: 'optimality', status: 'OPEN' }));

        const verify = await mathRun(client(), { capability_id: 'graph.induced_tree.maximum.verify', mode: 'VERIFY', payload: { result_uri: treeOutput.result_uri } });
        expect(verify.result.execution.status).toBe('COMPLETED');
        expect(verify.result.mode).toBe('VERIFY');
        expect(verify.result.assurance.level).toBe('VERIFIED');
        const recordUri = verify.result.assurance.verification_record_uri;
        expect(recordUri).toMatch(ARTIFACT_URI);
        expect(verify.result.assurance.checker_id).toBe(CHECKER_ID);
        expect(verify.result.artifact_uris).toContain(recordUri);
        expect(verify.result.obligations).toContainEqual(
          expect.objectContaining({ id: 'optimality', status: 'DISCHARGED', discharged_by: ['graph.induced_tree.maximum.verify'] }),
        );
        expect((verify.result.output as { verdict: string }).verdict).toBe('ACCEPTED');

        const uris = new Set<string>();
        for (const call of [construct, compute, verify]) artifactUrisIn(call.result, uris);
        expect([...uris]).toEqual(expect.arrayContaining([graphOutput.graph_uri, treeOutput.result_uri, recordUri]));
        for (const uri of uris) {
          const artifact = await readArtifact(client(), uri);
          expect(artifact.uri).toBe(uri);
          expect(typeof artifact.manifest['schema_uri']).toBe('string');
          expect(typeof artifact.manifest['semantics_uri']).toBe('string');
          expect(Array.isArray(artifact.manifest['parents'])).toBe(true);
          expect(artifact.payload).not.toBeUndefined();
          expect(artifact.payload).not.toBeNull();
        }
        const graph = await readArtifact(client(), graphOutput.graph_uri);
        expect((graph.payload as { order: number; edges: unknown[] }).order).toBe(10);
        expect((graph.payload as { order: number; edges: unknown[] }).edges).toHaveLength(15);
        const stored = await readArtifact(client(), treeOutput.result_uri);
        expect(stored.manifest['parents']).toEqual([graphOutput.graph_uri]);
        const record = await readArtifact(client(), recordUri as string);
        const payload = record.payload as { body: Record<string, unknown>; signature: unknown };
        expect(Object.keys(payload).sort()).toEqual(['body', 'signature']);
        expect(typeof payload.signature).toBe('string');
        expect(payload.body['candidate_uri']).toBe(treeOutput.result_uri);
        expect(payload.body['checker_id']).toBe(CHECKER_ID);
        expect(payload.body['verdict']).toBe('ACCEPTED');
        expect(payload.body['request_digest']).toBe(verify.result.execution.request_digest);
        expect(record.manifest['parents']).toEqual(expect.arrayContaining([treeOutput.result_uri, graphOutput.graph_uri]));

        // An unknown digest is a resource miss, not an empty artifact.
        await expect(client().readResource({ uri: `artifact://sha256/${'0'.repeat(64)}` })).rejects.toBeInstanceOf(ResourceNotFoundError);

        petersen = { compute, verify };
      });

      it('math.run text content is the compact projection and structuredContent the complete result', { timeout: E2E_TEST_TIMEOUT_MS }, () => {
        if (petersen === undefined) throw new Error('the Petersen scenario did not complete');
        const { compute, verify } = petersen;
        const recordUri = verify.result.assurance.verification_record_uri as string;
        expectProjection(verify);
        expect(verify.text).toContain('execution: COMPLETED');
        expect(verify.text).toContain('assurance: VERIFIED');
        expect(verify.text).toContain(`record: ${recordUri}`);
        expect(verify.text).toContain('completeness: COMPLETE');
        expect(verify.text).toContain('obligation optimality [DISCHARGED]');
        expectProjection(compute);
        expect(compute.text).toContain('assurance: COMPUTED');
        expect(compute.text).toContain('obligation optimality [OPEN]');
      });

      describe('bad input is an ERROR result naming the field and the rule, and writes nothing', () => {
        const artifactsDir = () => join(jacobian.dataDir, 'artifacts');

        async function rejected(args: Record<string, unknown>): Promise<RunCall> {
          const before = await listStore(artifactsDir());
          const call = await mathRun(client(), args);
          expect(call.raw.isError).toBe(true);
          expect(call.result.execution.status).toBe('ERROR');
          expect(call.result.output).toBeNull();
          expect(call.result.artifact_uris).toEqual([]);
          expect(call.result.assurance.level).not.toBe('VERIFIED');
          expect(call.text).toContain('execution: ERROR');
          expect(await listStore(artifactsDir())).toEqual(before);
          return call;
        }

        const construct = (payload: Record<string, unknown>) => ({ capability_id: 'graph.construct.explicit', payload });

        it('wrong type', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
          const { result } = await rejected(construct({ order: 'ten', edges: [] }));
          const d = errorDiagnostic(result, 'INVALID_REQUEST');
          expect(d.path).toEqual(['payload', 'order']);
          expect(d.message).toMatch(/payload\.order: expected number/);
        });

        it('unknown field in the payload', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
          const { result } = await rejected(construct({ order: 3, edges: [], colour: 'red' }));
          const d = errorDiagnostic(result, 'INVALID_REQUEST');
          expect(d.path).toEqual(['payload', 'colour']);
          expect(d.message).toMatch(/unknown field(\(s\))? "colour".*only the fields (in|of) the CONTRACT schema are accepted/);
        });

        it('unknown top-level field in the math.run arguments', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
          const { result } = await rejected({ ...construct({ order: 3, edges: [] }), priority: 'high' });
          const d = errorDiagnostic(result, 'INVALID_REQUEST');
          expect(d.path).toEqual(['priority']);
          expect(d.message).toMatch(/unknown field(\(s\))? "priority".*only the fields (in|of) the CONTRACT schema are accepted/);
        });

        it('a 300-vertex graph', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
          const { result } = await rejected(construct({ order: 300, edges: [] }));
          const d = errorDiagnostic(result, 'INVALID_REQUEST');
          expect(d.path).toEqual(['payload', 'order']);
          expect(d.message).toMatch(/<=\s*256/);
        });

        it('a loop edge', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
          const { result } = await rejected(construct({ order: 3, edges: [[0, 1], [2, 2]] }));
          const d = errorDiagnostic(result, 'INVALID_REQUEST');
          expect(d.path).toEqual(['payload', 'edges', 1]);
          expect(d.message).toMatch(/loop at vertex "2".*no loops/);
        });

        it('a duplicate edge', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
          const { result } = await rejected(construct({ order: 3, edges: [[0, 1], [1, 2], [1, 0]] }));
          const d = errorDiagnostic(result, 'INVALID_REQUEST');
          expect(d.path).toEqual(['payload', 'edges', 2]);
          expect(d.message).toMatch(/duplicate edge \(same as edges\[0\]\)/);
        });

        it('a dangling edge', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
          const { result } = await rejected(construct({ order: 3, edges: [[0, 1], [1, 7]] }));
          const d = errorDiagnostic(result, 'INVALID_REQUEST');
          expect(d.path).toEqual(['payload', 'edges', 1, 1]);
          expect(d.message).toMatch(/dangling edge: vertex "7" is not among the vertices 0\.\.2/);
        });

        it('an unknown capability', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
          const { result } = await rejected({ capability_id: 'graph.no_such_invariant.compute', payload: {} });
          const d = errorDiagnostic(result, 'UNKNOWN_CAPABILITY');
          expect(d.path).toEqual(['capability_id']);
          expect(d.message).toContain('graph.no_such_invariant.compute is not an installed capability');
        });

        it('VERIFY on the EXPLORE-only graph.construct.explicit', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
          const { result } = await rejected({ ...construct({ order: 3, edges: [] }), mode: 'VERIFY' });
          // The default policy hides no mode: this is the capability's own limit, not policy.
          // (Regression guard: this once came back as CAPABILITY_POLICY_DENIED "mode VERIFY is
          // hidden by operator policy".)
          expect(result.diagnostics.map((x) => x.code)).not.toContain('CAPABILITY_POLICY_DENIED');
          const d = errorDiagnostic(result, 'MODE_NOT_SUPPORTED');
          expect(d.path).toEqual(['mode']);
          expect(d.message).toMatch(/supports EXPLORE only, not VERIFY/);
        });

        it('a float in an artifact.put payload', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
          const { result } = await rejected({
            capability_id: 'artifact.put',
            payload: { schema_uri: 'urn:example:schema:x/v1', semantics_uri: 'urn:example:semantics:x/v1', payload: { ratio: 1.5 } },
          });
          const d = errorDiagnostic(result, 'CANONICAL_JSON_INVALID');
          // The float sits at math.run arguments → payload (artifact.put's input) → payload (the
          // stored value) → ratio, as the message itself says. (Regression guard: the path once
          // came back with one 'payload' too many.)
          expect(d.message).toMatch(/number at payload\.payload\.ratio is a non-integer number; only safe integers are allowed in canonical JSON/);
          expect(d.path).toEqual(['payload', 'payload', 'ratio']);
        });
      });
    },
  );
});

/** The text content is a compact projection of the result, not the result itself. */
function expectProjection(call: RunCall): void {
  const { result, text } = call;
  expect(text.split('\n')[0]).toContain(`${result.capability_id}@${result.capability_version ?? ''} [${result.mode}] execution: ${result.execution.status}`);
  expect(text).toContain(`completeness: ${result.completeness.status}`);
  expect(text).toContain(`assurance: ${result.assurance.level}`);
  for (const uri of result.artifact_uris) expect(text).toContain(uri);
  expect(() => JSON.parse(text) as unknown).toThrow();
  // structuredContent is the complete result: every field of the contract, exactly.
  expect(call.raw.structuredContent).toEqual(result);
  expect(Object.keys(call.raw.structuredContent ?? {}).sort()).toEqual(
    [
      'artifact_uris',
      'assurance',
      'capability_id',
      'capability_version',
      'completeness',
      'diagnostics',
      'execution',
      'mode',
      'obligations',
      'output',
      'provider',
      'qualifiers',
      'relationships',
      'scope',
    ].sort(),
  );
}
