import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPH_SCHEMA_URI, GRAPH_SEMANTICS_URI, type InstalledCapability } from '@jacobian/shared';
import { createCapabilityHarness, type CapabilityHarness } from '../testing/fixtures.js';
import { maximumInducedTree } from '../graph/maximum-induced-tree.js';
import { FAKE_RUNTIME } from '../testing/fixtures.js';
import { artifactPut } from './put.js';

describe('artifact.put', () => {
  let harness: CapabilityHarness;
  let put: InstalledCapability;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    put = harness.install(artifactPut);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  const note = { schema_uri: 'urn:example:note/v1', semantics_uri: 'urn:example:note-meaning/v1', payload: { text: 'hello', n: 3 } };

  it('stores a canonical payload and is idempotent', async () => {
    const first = await harness.run(put, { capability_id: 'artifact.put', payload: note });
    const second = await harness.run(put, { capability_id: 'artifact.put', payload: { ...note, payload: { n: 3, text: 'hello' } } });
    expect(first.execution.status).toBe('COMPLETED');
    const uri = (first.output as { artifact_uri: string }).artifact_uri;
    expect((second.output as { artifact_uri: string }).artifact_uri).toBe(uri);
    const stored = await harness.artifacts.get(uri);
    expect(stored.payload).toEqual({ n: 3, text: 'hello' });
    expect(stored.manifest.schema_uri).toBe('urn:example:note/v1');
  });

  it('records parents as DERIVED_FROM relationships', async () => {
    const parent = await harness.run(put, { capability_id: 'artifact.put', payload: note });
    const parentUri = (parent.output as { artifact_uri: string }).artifact_uri;
    const child = await harness.run(put, { capability_id: 'artifact.put', payload: { ...note, payload: 'child', parents: [parentUri] } });
    const childUri = (child.output as { artifact_uri: string }).artifact_uri;
    expect(child.relationships).toEqual([{ subject: childUri, predicate: 'DERIVED_FROM', object: parentUri }]);
    expect((await harness.artifacts.getManifest(childUri)).manifest.parents).toEqual([parentUri]);
  });

  const rejected: [string, Record<string, unknown>, string, (string | number)[]][] = [
    ['a reserved graph schema URI', { ...note, schema_uri: GRAPH_SCHEMA_URI }, 'INVALID_REQUEST', ['payload', 'schema_uri']],
    ['a reserved semantics URI', { ...note, semantics_uri: 'JACOBIAN:semantics/x' }, 'INVALID_REQUEST', ['payload', 'semantics_uri']],
    ['a missing parent', { ...note, parents: [`artifact://sha256/${'1'.repeat(64)}`] }, 'ARTIFACT_NOT_FOUND', ['parents', 0]],
    ['a malformed parent URI', { ...note, parents: ['artifact://md5/abc'] }, 'INVALID_REQUEST', ['payload', 'parents', 0]],
    ['an unknown field', { ...note, tags: ['x'] }, 'INVALID_REQUEST', ['payload', 'tags']],
    ['a schema URI that is not a URI', { ...note, schema_uri: 'not a uri' }, 'INVALID_REQUEST', ['payload', 'schema_uri']],
  ];
  for (const [name, payload, code, path] of rejected) {
    it(`rejects ${name} (${code}) and writes nothing`, async () => {
      const before = await harness.files();
      const result = await harness.run(put, { capability_id: 'artifact.put', payload });
      expect(result.execution.status).toBe('ERROR');
      const error = result.diagnostics.find((d) => d.severity === 'ERROR');
      expect(error?.code).toBe(code);
      expect(error?.path).toEqual(path);
      expect(await harness.files()).toEqual(before);
    });
  }

  it('rejects a float in the payload at admission, naming its place, and writes nothing', async () => {
    const before = await harness.files();
    await expect(harness.run(put, { capability_id: 'artifact.put', payload: { ...note, payload: { x: [1, 2.5] } } })).rejects.toMatchObject({
      code: 'CANONICAL_JSON_INVALID',
      path: ['payload', 'payload', 'x', 1],
    });
    expect(await harness.files()).toEqual(before);
  });

  it('refuses a key named __proto__ in the summary or the payload at admission, naming its place, and writes nothing', async () => {
    const before = await harness.files();
    // As JSON.parse gives them: own keys, which a record would drop and canonical JSON would keep.
    for (const [text, path] of [
      ['{"text": "hello"}, "summary": {"__proto__": {"x": 1}}', ['payload', 'summary', '__proto__']],
      ['{"text": {"__proto__": 1}}', ['payload', 'payload', 'text', '__proto__']],
    ] as const) {
      const payload = JSON.parse(`{"schema_uri": "urn:example:note/v1", "semantics_uri": "urn:example:note-meaning/v1", "payload": ${text}}`) as Record<string, unknown>;
      // The harness parses the request as the API does (which answers INVALID_REQUEST at that path).
      await expect(harness.run(put, { capability_id: 'artifact.put', payload })).rejects.toMatchObject({ issues: [{ code: 'custom', path }] });
    }
    expect(await harness.files()).toEqual(before);
  });

  it("refuses a summary key named __proto__ by the capability's own input schema too", () => {
    // The schema alone (nothing runs, so nothing can be written): a request that reaches the
    // capability without the API's admission is refused there as well.
    const summary = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    const parsed = put.definition.input.safeParse({ ...note, summary });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['summary', '__proto__']);
  });

  it('a graph stored generically is not a graph artifact for graph capabilities', async () => {
    const generic = await harness.run(put, {
      capability_id: 'artifact.put',
      payload: { schema_uri: 'urn:example:graph/v1', semantics_uri: GRAPH_SEMANTICS_URI.replace('jacobian:', 'urn:'), payload: { order: 2, labels: ['0', '1'], edges: [[0, 1]] } },
    });
    const uri = (generic.output as { artifact_uri: string }).artifact_uri;
    const compute = harness.install(maximumInducedTree(FAKE_RUNTIME));
    const result = await harness.run(compute, { capability_id: 'graph.induced_tree.maximum.compute', payload: { graph_uri: uri } });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'graph_uri'] });
  });
});
