import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { components, edgeConnectivity, isConnected, vertexConnectivity } from './connectivity.js';
import type { IndexedGraph } from './search.js';
import { completeBipartite, completeGraph, cycle, graphOf, hypercube, mulberry32, path, PETERSEN, randomGraph, type Edge } from '../test-graphs.js';

/** Connectivity of the graph restricted to the vertices in `alive`, by a plain DFS. */
function connectedOn(order: number, edges: Edge[], alive: (v: number) => boolean): boolean {
  const vertices = [...Array(order).keys()].filter(alive);
  if (vertices.length === 0) return false;
  const seen = new Set([vertices[0]]);
  const stack = [vertices[0] ?? 0];
  while (stack.length > 0) {
    const x = stack.pop() ?? 0;
    for (const [u, v] of edges) {
      const other = u === x ? v : v === x ? u : -1;
      if (other >= 0 && alive(other) && !seen.has(other)) {
        seen.add(other);
        stack.push(other);
      }
    }
  }
  return seen.size === vertices.length;
}

const minimumDegree = (graph: IndexedGraph): number =>
  Math.min(...Array.from({ length: graph.order }, (_, v) => graph.edges.filter(([a, b]) => a === v || b === v).length));

/**
 * κ by trying every vertex subset: the smallest S leaving at least two vertices, disconnected.
 * Only subsets smaller than `upperBound` (a known achievable value) are tested.
 */
function bruteForceVertexConnectivity(graph: IndexedGraph, upperBound = Math.max(0, graph.order - 1)): number {
  const n = graph.order;
  let best = upperBound;
  for (let mask = 0; mask < 1 << n; mask++) {
    const size = popCount(mask);
    if (size >= best || n - size < 2) continue;
    if (!connectedOn(n, graph.edges, (v) => (mask & (1 << v)) === 0)) best = size;
  }
  return best;
}

/** λ by trying every bipartition of the vertices: the fewest crossing edges. */
function bruteForceEdgeConnectivityByPartition(graph: IndexedGraph): number {
  const n = graph.order;
  if (n <= 1) return 0;
  let best = Number.POSITIVE_INFINITY;
  // Vertex n-1 stays on side 0, so each bipartition is tried once.
  for (let mask = 1; mask < 1 << (n - 1); mask++) {
    const crossing = graph.edges.filter(([u, v]) => ((mask >> u) & 1) !== ((mask >> v) & 1)).length;
    best = Math.min(best, crossing);
  }
  return best;
}

/** λ by trying every edge subset: the smallest whose removal disconnects the graph. */
function bruteForceEdgeConnectivityBySubsets(graph: IndexedGraph): number {
  const n = graph.order;
  const m = graph.edges.length;
  if (n <= 1) return 0;
  let best = m;
  for (let mask = 0; mask < 1 << m; mask++) {
    const size = popCount(mask);
    if (size >= best) continue;
    const kept = graph.edges.filter((_, i) => (mask & (1 << i)) === 0);
    if (!connectedOn(n, kept, () => true)) best = size;
  }
  return best;
}

function popCount(mask: number): number {
  let count = 0;
  for (let x = mask; x !== 0; x &= x - 1) count++;
  return count;
}

/** The vertex witness is consistent with the value and really separates the graph. */
function expectValidVertexWitness(graph: IndexedGraph, result: { value: number; separator: number[] | null }): void {
  if (result.separator === null) {
    // Only graphs without any separating set (complete graphs, and order 0) report null.
    expect(graph.edges.length).toBe(graph.order === 0 ? 0 : (graph.order * (graph.order - 1)) / 2);
    expect(result.value).toBe(Math.max(0, graph.order - 1));
    return;
  }
  const separator = new Set(result.separator);
  expect(result.separator.length).toBe(result.value);
  expect(separator.size).toBe(result.value);
  expect(result.separator).toEqual([...result.separator].sort((a, b) => a - b));
  for (const v of result.separator) expect(v >= 0 && v < graph.order).toBe(true);
  expect(graph.order - separator.size).toBeGreaterThanOrEqual(2);
  expect(connectedOn(graph.order, graph.edges, (v) => !separator.has(v))).toBe(false);
}

/** The edge witness is consistent with the value, made of graph edges, and really disconnects. */
function expectValidEdgeWitness(graph: IndexedGraph, result: { value: number; cut: Edge[] }): void {
  expect(result.cut.length).toBe(result.value);
  const cut = new Set(result.cut.map(([u, v]) => u * graph.order + v));
  expect(cut.size).toBe(result.value);
  const present = new Set(graph.edges.map(([u, v]) => u * graph.order + v));
  for (const [u, v] of result.cut) {
    expect(u).toBeLessThan(v);
    expect(present.has(u * graph.order + v)).toBe(true);
  }
  if (graph.order >= 2) {
    const kept = graph.edges.filter(([u, v]) => !cut.has(u * graph.order + v));
    expect(connectedOn(graph.order, kept, () => true)).toBe(false);
  }
}

/** Both witnesses are valid, and Whitney's inequalities κ ≤ λ ≤ δ hold. */
function expectWhitney(graph: IndexedGraph): void {
  const kappa = vertexConnectivity(graph);
  const lambda = edgeConnectivity(graph);
  expectValidVertexWitness(graph, kappa);
  expectValidEdgeWitness(graph, lambda);
  expect(kappa.value).toBeLessThanOrEqual(lambda.value);
  expect(lambda.value).toBeLessThanOrEqual(minimumDegree(graph));
}

describe('components and isConnected', () => {
  it('handles orders 0 and 1', () => {
    expect(components({ order: 0, edges: [] })).toEqual([]);
    expect(isConnected({ order: 0, edges: [] })).toBe(false);
    expect(components({ order: 1, edges: [] })).toEqual([[0]]);
    expect(isConnected({ order: 1, edges: [] })).toBe(true);
  });

  it('lists sorted components in order of their smallest vertex', () => {
    const graph = graphOf(8, [[0, 5], [5, 3], [1, 7], [2, 6]]);
    expect(components(graph)).toEqual([[0, 3, 5], [1, 7], [2, 6], [4]]);
    expect(isConnected(graph)).toBe(false);
    expect(isConnected(PETERSEN)).toBe(true);
  });

  it('agrees with union-find on random graphs', () => {
    const random = mulberry32(5);
    for (let i = 0; i < 200; i++) {
      const order = Math.floor(random() * 40);
      const graph = randomGraph(order, random() * 0.15, random);
      const root = Array.from({ length: order }, (_, v) => v);
      const find = (v: number): number => (root[v] === v ? v : (root[v] = find(root[v] ?? v)));
      for (const [u, v] of graph.edges) root[find(u)] = find(v);
      const groups = new Map<number, number[]>();
      for (let v = 0; v < order; v++) groups.set(find(v), [...(groups.get(find(v)) ?? []), v]);
      const expected = [...groups.values()].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
      expect(components(graph)).toEqual(expected);
      expect(isConnected(graph)).toBe(expected.length === 1);
    }
  });
});

describe('vertexConnectivity and edgeConnectivity: known values', () => {
  it('follows the conventions for orders 0 and 1 and for disconnected graphs', () => {
    expect(vertexConnectivity({ order: 0, edges: [] })).toEqual({ value: 0, separator: null });
    expect(vertexConnectivity({ order: 1, edges: [] })).toEqual({ value: 0, separator: null });
    expect(edgeConnectivity({ order: 0, edges: [] })).toEqual({ value: 0, cut: [] });
    expect(edgeConnectivity({ order: 1, edges: [] })).toEqual({ value: 0, cut: [] });
    const disconnected = graphOf(6, [[0, 1], [1, 2], [2, 0], [3, 4], [4, 5], [5, 3]]);
    expect(vertexConnectivity(disconnected)).toEqual({ value: 0, separator: [] });
    expect(edgeConnectivity(disconnected)).toEqual({ value: 0, cut: [] });
    expect(vertexConnectivity({ order: 2, edges: [] })).toEqual({ value: 0, separator: [] });
  });

  it('gives 3 and 3 for the Petersen graph', () => {
    const kappa = vertexConnectivity(PETERSEN);
    const lambda = edgeConnectivity(PETERSEN);
    expect(kappa.value).toBe(3);
    expect(lambda.value).toBe(3);
    expectValidVertexWitness(PETERSEN, kappa);
    expectValidEdgeWitness(PETERSEN, lambda);
  });

  it('gives n - 1 for complete graphs, with no separator but a cut isolating a vertex', () => {
    for (let n = 1; n <= 12; n++) {
      const graph = completeGraph(n);
      expect(vertexConnectivity(graph)).toEqual({ value: n - 1, separator: null });
      const lambda = edgeConnectivity(graph);
      expect(lambda.value).toBe(n === 1 ? 0 : n - 1);
      expectValidEdgeWitness(graph, lambda);
    }
  });

  it('gives 2 for cycles and 1 for paths and trees', () => {
    for (let n = 3; n <= 20; n++) {
      for (const [graph, expected] of [
        [cycle(n), 2],
        [path(n), 1],
      ] as const) {
        const kappa = vertexConnectivity(graph);
        const lambda = edgeConnectivity(graph);
        expect([kappa.value, lambda.value]).toEqual([expected, expected]);
        expectValidVertexWitness(graph, kappa);
        expectValidEdgeWitness(graph, lambda);
      }
    }
    const star = completeBipartite(1, 6);
    expect(vertexConnectivity(star)).toEqual({ value: 1, separator: [0] });
    expect(edgeConnectivity(star).value).toBe(1);
    const tree = graphOf(9, [[0, 1], [0, 2], [1, 3], [1, 4], [2, 5], [5, 6], [5, 7], [7, 8]]);
    expect(vertexConnectivity(tree).value).toBe(1);
    expect(edgeConnectivity(tree).value).toBe(1);
  });

  it('gives min(m, n) for complete bipartite graphs and d for the hypercube Q_d', () => {
    for (let m = 1; m <= 6; m++) {
      for (let n = 1; n <= 6; n++) {
        const graph = completeBipartite(m, n);
        const kappa = vertexConnectivity(graph);
        expect(kappa.value).toBe(m === 1 && n === 1 ? 1 : Math.min(m, n));
        expect(edgeConnectivity(graph).value).toBe(Math.min(m, n));
        expectValidVertexWitness(graph, kappa);
      }
    }
    for (let d = 1; d <= 6; d++) {
      const graph = hypercube(d);
      const kappa = vertexConnectivity(graph);
      const lambda = edgeConnectivity(graph);
      expect([kappa.value, lambda.value]).toEqual([d, d]);
      expectValidVertexWitness(graph, kappa);
      expectValidEdgeWitness(graph, lambda);
    }
  });

  it('gives 2k - 2 for the cocktail-party graph K_2k minus a perfect matching', () => {
    for (let k = 2; k <= 40; k += 7) {
      const graph = graphOf(2 * k, completeGraph(2 * k).edges.filter(([u, v]) => !(u % 2 === 0 && v === u + 1)));
      const kappa = vertexConnectivity(graph);
      expect(kappa.value).toBe(2 * k - 2);
      expectValidVertexWitness(graph, kappa);
      expect(edgeConnectivity(graph).value).toBe(2 * k - 2);
    }
  });

  it('finds a separator that must contain the vertex of minimum degree', () => {
    // Cliques A = {2..5} and B = {6..9}, joined only through v = 0 (adjacent to 2, 3, 6, 7) and
    // w = 1 (adjacent to 4, 5, 8, 9). Every vertex has degree 4, so v is the chosen minimum-degree
    // vertex, and {v, w} is the only separator of size 2: the pairs (v, t) alone cannot find it.
    const cliques = [...completeGraph(4).edges, ...completeGraph(4).edges.map(([u, v]): Edge => [u + 4, v + 4])].map(([u, v]): Edge => [u + 2, v + 2]);
    const graph = graphOf(10, [...cliques, [0, 2], [0, 3], [0, 6], [0, 7], [1, 4], [1, 5], [1, 8], [1, 9]]);
    expect(vertexConnectivity(graph)).toEqual({ value: 2, separator: [0, 1] });
    expect(bruteForceVertexConnectivity(graph)).toBe(2);
    expect(edgeConnectivity(graph).value).toBe(4);
  });

  it('handles a minimum-degree vertex that is a cut vertex', () => {
    // Two K_6 blocks joined through vertex 12 of degree 2; 0, 6 and 12 are all cut vertices.
    const blocks = [...completeGraph(6).edges, ...completeGraph(6).edges.map(([u, v]): Edge => [u + 6, v + 6])];
    const graph = graphOf(13, [...blocks, [12, 0], [12, 6]]);
    const kappa = vertexConnectivity(graph);
    expect(kappa.value).toBe(1);
    expectValidVertexWitness(graph, kappa);
    expect(edgeConnectivity(graph).value).toBe(1);
  });

  it('finds a single cut vertex and a single bridge', () => {
    const graph = graphOf(7, [[0, 1], [1, 2], [2, 0], [2, 3], [3, 4], [4, 5], [5, 6], [6, 3]]);
    expect(vertexConnectivity(graph).value).toBe(1);
    expect(edgeConnectivity(graph)).toEqual({ value: 1, cut: [[2, 3]] });
  });
});

describe('vertexConnectivity and edgeConnectivity: cross-checks', () => {
  it('agree with exhaustive search on 400 random graphs of order at most 9', () => {
    const random = mulberry32(31337);
    let subsetChecked = 0;
    for (let i = 0; i < 400; i++) {
      const graph = randomGraph(i % 10, 0.15 + 0.8 * random(), random);
      const kappa = vertexConnectivity(graph);
      const lambda = edgeConnectivity(graph);
      expectValidVertexWitness(graph, kappa);
      expectValidEdgeWitness(graph, lambda);
      expect(kappa.value).toBe(bruteForceVertexConnectivity(graph));
      expect(lambda.value).toBe(bruteForceEdgeConnectivityByPartition(graph));
      if (graph.edges.length <= 14) {
        expect(lambda.value).toBe(bruteForceEdgeConnectivityBySubsets(graph));
        subsetChecked++;
      }
    }
    expect(subsetChecked).toBeGreaterThan(100);
  });

  it('satisfy Whitney: κ ≤ λ ≤ δ, with valid witnesses on graphs up to order 30', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 30 }), fc.double({ min: 0.05, max: 1, noNaN: true }), fc.integer(), (order, density, seed) => {
        expectWhitney(randomGraph(order, density, mulberry32(seed)));
      }),
      { numRuns: 300 },
    );
  });

  it('agree with exhaustive search on 120 sparsely joined graphs of order 10 to 15', () => {
    // Two dense blobs joined through a few connector vertices: small κ with many candidate
    // separators, some containing the minimum-degree vertex and some not.
    const random = mulberry32(4242);
    for (let i = 0; i < 120; i++) {
      const order = 10 + (i % 6);
      const split = 3 + Math.floor(random() * (order - 7));
      const connectors = 1 + Math.floor(random() * 3);
      const pairs: Edge[] = [];
      for (let u = 0; u < order - connectors; u++) {
        for (let v = u + 1; v < order - connectors; v++) {
          if ((u < split) === (v < split) && random() < 0.8) pairs.push([u, v]);
        }
      }
      for (let c = order - connectors; c < order; c++) {
        for (let u = 0; u < order - connectors; u++) if (random() < 0.25) pairs.push([c, u]);
      }
      const graph = graphOf(order, pairs);
      const kappa = vertexConnectivity(graph);
      const lambda = edgeConnectivity(graph);
      expectValidVertexWitness(graph, kappa);
      expectValidEdgeWitness(graph, lambda);
      expect(bruteForceVertexConnectivity(graph, kappa.value)).toBe(kappa.value);
      expect(bruteForceEdgeConnectivityByPartition(graph)).toBe(lambda.value);
    }
  });

  it('returns valid witnesses on random G(256, p) for p = 0.1, 0.5, 0.03', () => {
    for (const [density, seed] of [
      [0.1, 1],
      [0.5, 2],
      [0.03, 3],
    ] as const) {
      expectWhitney(randomGraph(256, density, mulberry32(seed)));
    }
  });
});
