import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGraph6, encodeSparse6, type CapabilityResult, type IndexedGraph, type InstalledCapability } from '@jacobian/shared';
import { createCapabilityHarness, type CapabilityHarness } from '../testing/fixtures.js';
import { constructExplicit } from './construct-explicit.js';
import { NAUTY_TOOLS } from './nauty-test-support.js';
import { completeGraph, cycle, emptyGraph, hypercube, mulberry32, PETERSEN, randomGraph } from './test-graphs.js';
import { GraphFormat, transformFormat, type TransformFormatOutput } from './transform-format.js';

const ID = 'graph.transform.format';
const FORMATS = Object.values(GraphFormat);

/** Graphs at the edges of every format: no vertices, one, the graph6 size-field boundary at 63, the order cap. */
const CORPUS: { name: string; graph: IndexedGraph }[] = [
  { name: 'no vertices', graph: emptyGraph(0) },
  { name: 'one vertex', graph: emptyGraph(1) },
  { name: 'K_2', graph: completeGraph(2) },
  { name: 'Petersen', graph: PETERSEN },
  { name: 'empty 9', graph: emptyGraph(9) },
  { name: 'C_31', graph: cycle(31) },
  { name: 'G(62, 0.2)', graph: randomGraph(62, 0.2, mulberry32(1)) },
  { name: 'G(63, 0.5)', graph: randomGraph(63, 0.5, mulberry32(2)) },
  { name: 'Q_6', graph: hypercube(6) },
  { name: 'G(65, 0.05)', graph: randomGraph(65, 0.05, mulberry32(3)) },
  { name: 'G(256, 0.02)', graph: randomGraph(256, 0.02, mulberry32(4)) },
  { name: 'K_256', graph: completeGraph(256) },
];

function output(result: CapabilityResult): TransformFormatOutput {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return result.output as TransformFormatOutput;
}

/** The graph in one form, as the request field of that name (written here without the capability). */
function field(graph: IndexedGraph, format: GraphFormat): Record<string, unknown> {
  switch (format) {
    case 'graph6':
      return { graph6: encodeGraph6(graph) };
    case 'sparse6':
      return { sparse6: encodeSparse6(graph) };
    case 'edge_list':
      return { edge_list: `${graph.order} ${graph.edges.length}\n${graph.edges.map(([u, v]) => `${v} ${u}\n`).join('')}` };
    case 'adjacency_matrix': {
      const matrix = Array.from({ length: graph.order }, () => new Array<number>(graph.order).fill(0));
      for (const [u, v] of graph.edges) (matrix[u] as number[])[v] = (matrix[v] as number[])[u] = 1;
      return { adjacency_matrix: matrix };
    }
    case 'adjacency_lists': {
      const lists = Array.from({ length: graph.order }, () => [] as number[]);
      // Deliberately unsorted: any order is accepted.
      for (const [u, v] of [...graph.edges].reverse()) {
        (lists[u] as number[]).push(v);
        (lists[v] as number[]).push(u);
      }
      return { adjacency_lists: lists };
    }
  }
}

describe('graph.transform.format', () => {
  let harness: CapabilityHarness;
  let capability: InstalledCapability;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    capability = harness.install(transformFormat);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  const run = (payload: Record<string, unknown>): Promise<CapabilityResult> => harness.run(capability, { capability_id: ID, payload });

  it('round-trips every graph of the corpus through every ordered pair of formats', async () => {
    let trips = 0;
    for (const { name, graph } of CORPUS) {
      const canonical = FORMATS.map((format) => field(graph, format));
      for (const from of FORMATS) {
        for (const to of FORMATS) {
          const there = output(await run({ ...field(graph, from), format: to }));
          expect(there.format).toBe(to);
          expect(there.graph, `${name}: ${from} → ${to}`).toEqual({ order: graph.order, size: graph.edges.length });
          expect(there.vertex_labels).toBeNull();
          const written = there[to];
          // The written form is the one canonical text or array of the graph in that format.
          const expected = canonical[FORMATS.indexOf(to)]?.[to];
          if (to === 'edge_list') expect(written).toBe(`${graph.order} ${graph.edges.length}\n${graph.edges.map(([u, v]) => `${u} ${v}\n`).join('')}`);
          else if (to === 'adjacency_lists') expect(written).toEqual((expected as number[][]).map((list) => [...list].sort((a, b) => a - b)));
          else expect(written, `${name}: ${from} → ${to}`).toEqual(expected);
          // And back: the source format, written canonically.
          const back = output(await run({ [to]: written, format: from }));
          expect(back.graph).toEqual(there.graph);
          trips++;
        }
      }
    }
    expect(trips).toBe(CORPUS.length * FORMATS.length * FORMATS.length);
  }, 120_000);

  it('writes graph6 and sparse6 byte for byte as nauty-copyg does', async () => {
    for (const tool of NAUTY_TOOLS) expect(existsSync(tool), `${tool} is missing: run scripts/install-system-deps.sh`).toBe(true);
    for (const { graph } of CORPUS.filter((entry) => entry.graph.order > 0)) {
      const edgeList = field(graph, 'edge_list');
      const graph6 = output(await run({ ...edgeList, format: 'graph6' })).graph6 ?? '';
      const sparse6 = output(await run({ ...edgeList, format: 'sparse6' })).sparse6 ?? '';
      expect(execFileSync('/usr/bin/nauty-copyg', ['-q', '-s'], { input: `${graph6}\n`, encoding: 'utf8' }).trim()).toBe(sparse6);
      expect(execFileSync('/usr/bin/nauty-copyg', ['-q', '-g'], { input: `${sparse6}\n`, encoding: 'utf8' }).trim()).toBe(graph6);
    }
  });

  it('accepts headers and CRLF line ends, and is deterministic', async () => {
    const a = await run({ graph6: '>>graph6<<IheA@GUAo\n', format: 'edge_list' });
    const b = await run({ edge_list: output(a).edge_list?.replaceAll('\n', '\r\n'), format: 'graph6' });
    expect(output(b).graph6).toBe('IheA@GUAo');
    expect((await run({ graph6: 'IheA@GUAo', format: 'edge_list' })).output).toEqual(a.output);
  });

  it('keeps the labels of a labelled source beside the numbered target', async () => {
    const result = await run({ graph: { vertices: ['b', 'a', 'c'], edges: [['a', 'b'], ['b', 'c']] }, format: 'adjacency_lists' });
    expect(output(result)).toMatchObject({ adjacency_lists: [[1], [0, 2], [1]], vertex_labels: ['a', 'b', 'c'] });
    const numbered = await run({ graph: { order: 3, edges: [[0, 1]] }, format: 'graph6' });
    expect(output(numbered).vertex_labels).toBeNull();
    const construct = harness.install(constructExplicit);
    const stored = await harness.run(construct, { capability_id: constructExplicit.id, payload: { vertices: ['x', 'y'], edges: [['x', 'y']] } });
    const { graph_uri } = stored.output as { graph_uri: string };
    const fromStore = await run({ graph_uri, format: 'edge_list' });
    expect(output(fromStore)).toMatchObject({ edge_list: '2 1\n0 1\n', vertex_labels: ['x', 'y'] });
    expect(fromStore.scope?.input_uris).toEqual([graph_uri]);
  });

  it('names the field, and the cell, of bad input', async () => {
    const cases: [Record<string, unknown>, (string | number)[], string][] = [
      [{ adjacency_matrix: [[0, 1], [0, 0]], format: 'graph6' }, ['payload', 'adjacency_matrix', 0, 1], 'symmetric'],
      [{ adjacency_matrix: [[0, 2], [2, 0]], format: 'graph6' }, ['payload', 'adjacency_matrix', 0, 1], '0 or 1'],
      [{ adjacency_matrix: [[0, 1], [1]], format: 'graph6' }, ['payload', 'adjacency_matrix', 1], 'entries'],
      [{ adjacency_lists: [[1], []], format: 'graph6' }, ['payload', 'adjacency_lists', 0, 0], 'symmetric'],
      [{ adjacency_lists: [[0]], format: 'graph6' }, ['payload', 'adjacency_lists', 0, 0], 'loop'],
      [{ edge_list: '3 2\n0 1\n', format: 'graph6' }, ['payload', 'edge_list'], 'line'],
      [{ edge_list: '3 1\n0 5\n', format: 'graph6' }, ['payload', 'edge_list'], 'out of range'],
      [{ graph6: 'I!!', format: 'sparse6' }, ['payload', 'graph6'], 'character index'],
      [{ sparse6: 'IheA@GUAo', format: 'graph6' }, ['payload', 'sparse6'], "':'"],
      [{ graph6: 'Cr', edge_list: '1 0\n', format: 'graph6' }, ['payload', 'edge_list'], 'only one form'],
      [{ format: 'graph6' }, ['payload'], 'exactly one'],
      [{ graph6: 'Cr', format: 'dot' }, ['payload', 'format'], ''],
      [{ graph6: 'Cr' }, ['payload', 'format'], ''],
    ];
    for (const [payload, path, words] of cases) {
      const result = await run(payload);
      expect(result.execution.status, JSON.stringify(payload)).toBe('ERROR');
      const diagnostic = result.diagnostics[0];
      expect(diagnostic?.path, JSON.stringify(payload)).toEqual(path);
      expect(diagnostic?.message, JSON.stringify(payload)).toContain(words);
    }
  });

  it('refuses graphs above 256 vertices, naming the field', async () => {
    const edgeList = await run({ edge_list: '257 0\n', format: 'graph6' });
    expect(edgeList.diagnostics[0]).toMatchObject({ path: ['payload', 'edge_list'], message: expect.stringContaining('256') as unknown });
    const matrix = await run({ adjacency_matrix: Array.from({ length: 257 }, () => []), format: 'graph6' });
    expect(matrix.diagnostics[0]).toMatchObject({ path: ['payload', 'adjacency_matrix'] });
    const lists = await run({ adjacency_lists: Array.from({ length: 257 }, () => []), format: 'sparse6' });
    expect(lists.diagnostics[0]).toMatchObject({ path: ['payload', 'adjacency_lists'] });
  });
});
