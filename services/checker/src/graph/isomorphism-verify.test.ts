import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSparse6, PETERSEN_EXAMPLE, type IndexedGraph } from '@jacobian/shared';
import { checkIsomorphism } from './isomorphism-verify.js';
import { createWitnessCheckerFixture, type WitnessCheckerFixture } from './witness-test-fixture.js';

const C5: IndexedGraph = { order: 5, edges: [[0, 1], [1, 2], [2, 3], [3, 4], [0, 4]] };
const PENTAGRAM: IndexedGraph = { order: 5, edges: [[0, 2], [2, 4], [1, 4], [1, 3], [0, 3]] };
const TIMES_TWO = [0, 2, 4, 1, 3];

/** The image of `graph` under `map` (vertex v becomes map[v]), edges as sorted [u < v] pairs. */
function relabel(graph: IndexedGraph, map: readonly number[]): IndexedGraph {
  const edges = graph.edges
    .map(([u, v]): [number, number] => {
      const a = map[u] as number;
      const b = map[v] as number;
      return a < b ? [a, b] : [b, a];
    })
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return { order: graph.order, edges };
}

/** Independent truth: a bijection is an isomorphism iff the mapped edge set equals the target's. */
function sameEdgeSets(first: IndexedGraph, second: IndexedGraph, map: readonly number[]): boolean {
  const key = ([u, v]: readonly [number, number]): string => `${Math.min(u, v)},${Math.max(u, v)}`;
  const mapped = new Set(relabel(first, map).edges.map(key));
  const target = new Set(second.edges.map(key));
  return mapped.size === target.size && [...mapped].every((edge) => target.has(edge));
}

/** A random graph on 2..9 vertices, a random relabelling of it, and a random transposition (a b), a ≠ b. */
const relabelledGraph = fc.integer({ min: 2, max: 9 }).chain((n) => {
  const pairs: [number, number][] = [];
  for (let v = 1; v < n; v++) for (let u = 0; u < v; u++) pairs.push([u, v]);
  const vertices = Array.from({ length: n }, (_, i) => i);
  return fc.record({
    graph: fc.subarray(pairs).map((edges): IndexedGraph => ({ order: n, edges })),
    map: fc.shuffledSubarray(vertices, { minLength: n, maxLength: n }),
    a: fc.nat(n - 1),
    shift: fc.integer({ min: 1, max: n - 1 }),
  });
});

function transposed(map: readonly number[], a: number, shift: number): number[] {
  const b = (a + shift) % map.length;
  const swapped = [...map];
  swapped[a] = map[b] as number;
  swapped[b] = map[a] as number;
  return swapped;
}

describe('checkIsomorphism', () => {
  it('accepts every relabelling of a graph onto its image, and a transposition of it exactly when edge sets still agree', () => {
    fc.assert(
      fc.property(relabelledGraph, ({ graph, map, a, shift }) => {
        const image = relabel(graph, map);
        expect(checkIsomorphism(graph, image, map)).toBeNull();
        const swapped = transposed(map, a, shift);
        const problem = checkIsomorphism(graph, image, swapped);
        if (sameEdgeSets(graph, image, swapped)) expect(problem).toBeNull();
        else expect(problem).toMatch(/is not an edge of the second graph|is not the image of an edge of the first/);
      }),
      { numRuns: 500 },
    );
  });

  it('names the first violation', () => {
    expect(checkIsomorphism(C5, PENTAGRAM, TIMES_TWO)).toBeNull();
    expect(checkIsomorphism(C5, PENTAGRAM, [0, 2, 4, 1, 1])).toBe('vertices 3 and 4 of the first graph both map to vertex 1, so the map is not a bijection');
    expect(checkIsomorphism(C5, PENTAGRAM, [0, 1, 2, 3, 4])).toBe('edge [0, 1] of the first graph maps to [0, 1], which is not an edge of the second graph');
    expect(checkIsomorphism(C5, { order: 6, edges: C5.edges }, [0, 1, 2, 3, 4])).toMatch(/first graph has 5 vertices and the second 6/);
    expect(checkIsomorphism(C5, PENTAGRAM, [0, 2, 4, 1])).toMatch(/4 images for the 5 vertices/);
    expect(checkIsomorphism(C5, PENTAGRAM, [0, 2, 4, 1, 5])).toMatch(/vertex 4 maps to 5, which is not a vertex/);
    const path: IndexedGraph = { order: 5, edges: C5.edges.slice(0, 4) };
    expect(checkIsomorphism(path, C5, [0, 1, 2, 3, 4])).toBe('edge [0, 4] of the second graph is not the image of an edge of the first (its preimage [0, 4] is not an edge)');
  });
});

describe('graph.isomorphism.verify', () => {
  let f: WitnessCheckerFixture;
  beforeAll(async () => {
    f = await createWitnessCheckerFixture();
  });
  afterAll(async () => {
    await f.close();
  });

  const verify = (payload: Record<string, unknown>) => f.run('graph.isomorphism.verify', payload);

  it('accepts the 5-cycle onto the pentagram and signs a record binding both graphs in the candidate', async () => {
    const result = await verify({ first: { graph: C5 }, second: { graph: PENTAGRAM }, mapping: TIMES_TWO });
    const { record, candidate } = await f.expectVerified(result);
    expect(record.body.claim).toMatchObject({ kind: 'ISOMORPHISM', value: { mapping: TIMES_TWO } });
    expect(record.body.input_uris).toEqual([]);
    expect(candidate.graphs.map((g) => [g.role, g.graph.order, g.graph.edges.length])).toEqual([['first', 5, 5], ['second', 5, 5]]);
    expect(result.output).toMatchObject({ first: { order: 5, size: 5 }, second: { order: 5, size: 5 }, mapping: { images: TIMES_TWO } });
  });

  it('accepts the Petersen graph against a relabelled copy given as a stored artifact and as sparse6', async () => {
    const map = [3, 7, 1, 9, 0, 5, 2, 8, 6, 4];
    const image = relabel(PETERSEN_EXAMPLE, map);
    const uri = await f.storeGraph(10, image.edges);
    const stored = await verify({ first: { graph: PETERSEN_EXAMPLE }, second: { graph_uri: uri }, mapping: map });
    const { record, candidate } = await f.expectVerified(stored);
    expect(record.body.input_uris).toEqual([uri]);
    expect(candidate.graphs[1]).toMatchObject({ role: 'second', graph_uri: uri });
    await f.expectVerified(await verify({ first: { graph: PETERSEN_EXAMPLE }, second: { sparse6: encodeSparse6(image) }, mapping: map }));
  });

  it('binds one stored graph once when both operands name it (an automorphism)', async () => {
    const uri = await f.storeGraph(5, relabel(C5, [0, 1, 2, 3, 4]).edges);
    const { record } = await f.expectVerified(await verify({ first: { graph_uri: uri }, second: { graph_uri: uri }, mapping: [1, 2, 3, 4, 0] }));
    expect(record.body.input_uris).toEqual([uri]);
  });

  it('accepts images given by label, and reports the map as label pairs', async () => {
    const first = { vertices: ['a', 'b', 'c'], edges: [['a', 'b'], ['b', 'c']] };
    const second = { vertices: ['x', 'y', 'z'], edges: [['x', 'z'], ['z', 'y']] };
    const result = await verify({ first: { graph: first }, second: { graph: second }, mapping: ['x', 'z', 'y'] });
    await f.expectVerified(result);
    expect(result.output).toMatchObject({ mapping: { images: [0, 2, 1], labels: [['a', 'x'], ['b', 'z'], ['c', 'y']] } });
  });

  it('rejects a map that is not a bijection', async () => {
    f.expectRejected(
      await verify({ first: { graph: C5 }, second: { graph: PENTAGRAM }, mapping: [0, 2, 4, 1, 1] }),
      'WITNESS_INVALID',
      'vertices 3 and 4 of the first graph both map to vertex 1',
    );
  });

  it('rejects a bijection that does not map an edge onto an edge', async () => {
    f.expectRejected(
      await verify({ first: { graph: C5 }, second: { graph: PENTAGRAM }, mapping: [0, 1, 2, 3, 4] }),
      'WITNESS_INVALID',
      'edge [0, 1] of the first graph maps to [0, 1], which is not an edge of the second graph',
    );
  });

  it('rejects a second graph with an edge that is not the image of one, and graphs of different orders', async () => {
    const path = { order: 5, edges: C5.edges.slice(0, 4) };
    f.expectRejected(await verify({ first: { graph: path }, second: { graph: C5 }, mapping: [0, 1, 2, 3, 4] }), 'WITNESS_INVALID', 'edge [0, 4] of the second graph is not the image of an edge of the first');
    const c6 = { order: 6, edges: [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [0, 5]] };
    f.expectRejected(await verify({ first: { graph: C5 }, second: { graph: c6 }, mapping: [0, 1, 2, 3, 4] }), 'WITNESS_INVALID', 'the first graph has 5 vertices and the second 6');
  });

  it('refuses a map of the wrong length or naming no vertex of the second graph, before writing anything', async () => {
    f.expectError(await verify({ first: { graph: C5 }, second: { graph: PENTAGRAM }, mapping: [0, 2, 4, 1] }), 'INVALID_REQUEST', ['payload', 'mapping']);
    f.expectError(await verify({ first: { graph: C5 }, second: { graph: PENTAGRAM }, mapping: [0, 2, 5, 1, 3] }), 'INVALID_REQUEST', ['payload', 'mapping', 2]);
    f.expectError(await verify({ first: { graph: C5 }, second: { graph: PENTAGRAM }, mapping: [0, 2, 'q', 1, 3] }), 'INVALID_REQUEST', ['payload', 'mapping', 2]);
  });

  it('validates each operand with the shared rules, with errors at the nested path', async () => {
    const both = await verify({ first: { graph: C5 }, second: { graph: PENTAGRAM, graph6: 'Dhc' }, mapping: TIMES_TWO });
    f.expectError(both, 'INVALID_REQUEST', ['payload', 'second', 'graph6']);
    f.expectError(await verify({ first: { graph: C5 }, second: {}, mapping: TIMES_TWO }), 'INVALID_REQUEST', ['payload', 'second']);
    const missing = `artifact://sha256/${'4'.repeat(64)}`;
    f.expectError(await verify({ first: { graph: C5 }, second: { graph_uri: missing }, mapping: TIMES_TWO }), 'ARTIFACT_NOT_FOUND', ['payload', 'second', 'graph_uri']);
    const other = await f.artifacts.put({ schema_uri: 'jacobian:schema/test.other/v1', semantics_uri: 'jacobian:semantics/test.other/v1', payload: { x: 2 }, parents: [] });
    const mismatch = await verify({ first: { graph_uri: other.uri }, second: { graph: PENTAGRAM }, mapping: TIMES_TWO });
    f.expectError(mismatch, 'ARTIFACT_TYPE_MISMATCH', ['payload', 'first', 'graph_uri']);
    expect(mismatch.diagnostics[0]?.message).toMatch(/^payload\.first\.graph_uri: artifact has schema jacobian:schema\/test\.other\/v1/);
  });

  it('cannot produce VERIFIED when the operator has not authorized it', async () => {
    const result = await f.run('graph.isomorphism.verify', { first: { graph: C5 }, second: { graph: PENTAGRAM }, mapping: TIMES_TWO }, { service: f.unauthorized });
    f.expectError(result, 'CHECKER_NOT_AUTHORIZED');
  });

  it('property: accepts a random graph against a random relabelling with that relabelling, and a transposed map exactly when it still is one', async () => {
    await fc.assert(
      fc.asyncProperty(relabelledGraph, async ({ graph, map, a, shift }) => {
        const image = relabel(graph, map);
        const operands = { first: { graph: { order: graph.order, edges: graph.edges } }, second: { graph: { order: image.order, edges: image.edges } } };
        await f.expectVerified(await verify({ ...operands, mapping: map }));
        const swapped = transposed(map, a, shift);
        const result = await verify({ ...operands, mapping: swapped });
        if (sameEdgeSets(graph, image, swapped)) await f.expectVerified(result);
        else f.expectRejected(result, 'WITNESS_INVALID', /is not an edge of the second graph|is not the image of an edge of the first/);
      }),
      { numRuns: 40 },
    );
  });
});
