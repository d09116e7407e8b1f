import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkColouring,
  encodeGraph6,
  encodeSparse6,
  PETERSEN_EXAMPLE,
  type CapabilityResult,
  type InstalledCapability,
} from '@jacobian/shared';
import { createCapabilityHarness, type CapabilityHarness } from '../testing/fixtures.js';
import { artifactPut } from '../artifact/put.js';
import { constructExplicit } from './construct-explicit.js';
import { GRAPH_INVARIANTS } from './invariants.js';
import { mulberry32, randomGraph } from './test-graphs.js';

const PETERSEN_GRAPH6 = 'IheA@GUAo';

/** Known values of the Petersen graph (Holton & Sheehan, "The Petersen Graph"). */
const PETERSEN_VALUES: Record<string, number | string | null> = {
  'graph.clique_number.compute': 2,
  'graph.independence_number.compute': 4,
  'graph.chromatic_number.compute': 3,
  'graph.domination_number.compute': 3,
  'graph.matching_number.compute': 5,
  'graph.vertex_connectivity.compute': 3,
  'graph.edge_connectivity.compute': 3,
  'graph.spanning_tree_count.compute': '2000',
  'graph.triangle_count.compute': 0,
  'graph.diameter.compute': 2,
  'graph.radius.compute': 2,
  'graph.girth.compute': 5,
};

function errorOf(result: CapabilityResult): { code: string; path: (string | number)[] | null; message: string } {
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (!diagnostic) throw new Error(`expected an ERROR diagnostic, got ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

describe('exact graph invariants', () => {
  let harness: CapabilityHarness;
  const installed = new Map<string, InstalledCapability>();
  let construct: InstalledCapability;
  let put: InstalledCapability;

  beforeAll(async () => {
    harness = await createCapabilityHarness();
    for (const definition of GRAPH_INVARIANTS) installed.set(definition.id, harness.install(definition));
    construct = harness.install(constructExplicit);
    put = harness.install(artifactPut);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  function run(id: string, payload: Record<string, unknown>, budget?: Record<string, number>): Promise<CapabilityResult> {
    const capability = installed.get(id);
    if (capability === undefined) throw new Error(`${id} is not installed`);
    return harness.run(capability, { capability_id: id, payload, ...(budget === undefined ? {} : { budget }) });
  }

  function output(result: CapabilityResult): Record<string, unknown> {
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    return result.output as Record<string, unknown>;
  }

  it('every invariant is registered with a valid descriptor, and each has a Petersen value here', () => {
    expect([...installed.keys()].sort()).toEqual(Object.keys(PETERSEN_VALUES).sort());
  });

  it.each(Object.entries(PETERSEN_VALUES))('%s of the Petersen graph is %s, exact and complete', async (id, value) => {
    const result = await run(id, { graph: PETERSEN_EXAMPLE });
    const out = output(result);
    expect(out['value']).toBe(value);
    expect(out['graph']).toEqual({ order: 10, size: 15 });
    expect(result.completeness.status).toBe('COMPLETE');
    expect(result.qualifiers).toContain('EXACT');
    expect(result.assurance.level).toBe('COMPUTED');
    expect(result.scope?.kind).toBe('EXACT_INPUT');
    expect(result.scope?.statement).toContain(`graph6 ${PETERSEN_GRAPH6}`);
    expect(result.artifact_uris).toEqual([]);
    expect(await harness.files()).toEqual([]);
  });

  it('graph6, sparse6, an inline labelled graph and a stored artifact give the same answer, with the caller’s labels', async () => {
    const graph = randomGraph(14, 0.45, mulberry32(7));
    const labels = Array.from({ length: graph.order }, (_, i) => `v${String(i).padStart(2, '0')}`);
    const inline = { vertices: labels, edges: graph.edges.map(([u, v]) => [labels[u], labels[v]]) };
    const stored = await harness.run(construct, { capability_id: 'graph.construct.explicit', payload: inline });
    const graphUri = (stored.output as { graph_uri: string }).graph_uri;
    const forms = [{ graph6: encodeGraph6(graph) }, { sparse6: encodeSparse6(graph) }, { graph: inline }, { graph_uri: graphUri }];
    const answers = [];
    for (const form of forms) answers.push(output(await run('graph.clique_number.compute', form)));
    for (const answer of answers) expect(answer['value']).toBe(answers[0]?.['value']);
    const clique = answers[2]?.['clique'] as { vertices: number[]; labels: string[] };
    expect(clique.labels).toEqual(clique.vertices.map((v) => labels[v]));
    const fromUri = await run('graph.clique_number.compute', { graph_uri: graphUri });
    expect(fromUri.scope?.input_uris).toEqual([graphUri]);
    expect(fromUri.artifact_uris).toEqual([graphUri]);
  });

  it('disconnected graphs, forests and complete graphs get the conventional values', async () => {
    const twoTriangles = { order: 6, edges: [[0, 1], [1, 2], [0, 2], [3, 4], [4, 5], [3, 5]] };
    expect(output(await run('graph.diameter.compute', { graph: twoTriangles }))).toMatchObject({ value: null, path: null });
    expect(output(await run('graph.radius.compute', { graph: twoTriangles }))).toMatchObject({ value: null, centre: null });
    expect(output(await run('graph.vertex_connectivity.compute', { graph: twoTriangles }))).toMatchObject({ value: 0 });
    expect(output(await run('graph.edge_connectivity.compute', { graph: twoTriangles }))).toMatchObject({ value: 0, cut: { edges: [] } });
    expect(output(await run('graph.spanning_tree_count.compute', { graph: twoTriangles }))).toMatchObject({ value: '0' });
    expect(output(await run('graph.triangle_count.compute', { graph: twoTriangles }))).toMatchObject({ value: 2 });
    const star = { order: 5, edges: [[0, 1], [0, 2], [0, 3], [0, 4]] };
    expect(output(await run('graph.girth.compute', { graph: star }))).toMatchObject({ value: null, cycle: null });
    expect(output(await run('graph.radius.compute', { graph: star }))).toMatchObject({ value: 1, centre: { vertices: [0], labels: ['0'] } });
    const k6 = { order: 6, edges: [] as number[][] };
    for (let u = 0; u < 6; u++) for (let v = u + 1; v < 6; v++) k6.edges.push([u, v]);
    expect(output(await run('graph.vertex_connectivity.compute', { graph: k6 }))).toMatchObject({ value: 5, separator: null });
    expect(output(await run('graph.spanning_tree_count.compute', { graph: k6 }))).toMatchObject({ value: '1296' });
    expect(output(await run('graph.chromatic_number.compute', { graph: k6 }))).toMatchObject({ value: 6 });
  });

  it('counts spanning trees beyond 2^53 exactly (K_20 has 20^18 by Cayley)', async () => {
    const edges: [number, number][] = [];
    for (let u = 0; u < 20; u++) for (let v = u + 1; v < 20; v++) edges.push([u, v]);
    expect(output(await run('graph.spanning_tree_count.compute', { graph6: encodeGraph6({ order: 20, edges }) }))['value']).toBe((20n ** 18n).toString());
  });

  it('a budget that ends the search gives bounds and a valid witness, PARTIAL, never a value', async () => {
    const graph = randomGraph(120, 0.5, mulberry32(11));
    const result = await run('graph.chromatic_number.compute', { graph6: encodeGraph6(graph) }, { wall_time_ms: 300 });
    const out = output(result);
    expect(result.completeness.status).toBe('PARTIAL');
    expect(result.qualifiers).toEqual(['BOUNDED']);
    expect(out['value']).toBeNull();
    const lower = out['lower_bound'] as number;
    const upper = out['upper_bound'] as number;
    expect(lower).toBeLessThan(upper);
    const colours = (out['colouring'] as { colours: number[] }).colours;
    expect(checkColouring(graph, colours, upper)).toBeNull();
    expect(result.diagnostics.map((d) => d.code)).toEqual(['BUDGET_EXHAUSTED']);
  });

  describe('bad input is rejected before any computation, naming the field', () => {
    it.each([
      ['no graph at all', {}, [], 'give the graph as one of'],
      ['two forms', { graph6: PETERSEN_GRAPH6, graph: PETERSEN_EXAMPLE }, ['graph6'], 'give only one of'],
      ['graph6 with a bad character', { graph6: 'Ihe A@GUAo' }, ['graph6'], 'graph6'],
      ['sparse6 without its colon', { sparse6: 'Fa@x^' }, ['sparse6'], 'sparse6'],
      ['a loop in an inline graph', { graph: { order: 3, edges: [[1, 1]] } }, ['graph', 'edges', 0], 'loop'],
      ['an unknown field', { graph6: PETERSEN_GRAPH6, order: 10 }, ['order'], 'order'],
    ])('%s', async (_name, payload, path, message) => {
      const result = await run('graph.diameter.compute', payload);
      expect(result.execution.status).toBe('ERROR');
      const error = errorOf(result);
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.path).toEqual(['payload', ...path]);
      expect(error.message).toContain(message);
    });

    it('an artifact that is not a graph is refused as ARTIFACT_TYPE_MISMATCH', async () => {
      const stored = await harness.run(put, { capability_id: 'artifact.put', payload: { schema_uri: 'https://example.org/schema/thing', semantics_uri: 'https://example.org/semantics/thing', payload: { x: 1 } } });
      const uri = stored.artifact_uris[0] as string;
      const result = await run('graph.girth.compute', { graph_uri: uri });
      expect(errorOf(result)).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'graph_uri'] });
    });
  });
});
