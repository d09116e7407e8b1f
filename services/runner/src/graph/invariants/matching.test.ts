import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { maximumMatching } from './matching.js';
import type { IndexedGraph } from './search.js';
import {
  completeBipartite,
  completeGraph,
  cycle,
  friendshipGraph,
  graphOf,
  mulberry32,
  path,
  PETERSEN,
  randomGraph,
  randomPermutation,
  relabel,
  type Edge,
} from '../test-graphs.js';

/** The witness is a matching of the graph, in canonical form, of the reported size. */
function expectValidMatching(graph: IndexedGraph, result: { size: number; edges: Edge[] }): void {
  const present = new Set(graph.edges.map(([u, v]) => u * graph.order + v));
  const used = new Set<number>();
  expect(result.edges.length).toBe(result.size);
  for (const [u, v] of result.edges) {
    expect(u).toBeLessThan(v);
    expect(present.has(u * graph.order + v)).toBe(true);
    expect(used.has(u) || used.has(v)).toBe(false);
    used.add(u);
    used.add(v);
  }
  const sorted = [...result.edges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  expect(result.edges).toEqual(sorted);
}

/** Exhaustive search over all edge subsets that are matchings (include/exclude each edge). */
function bruteForceMatchingSize(graph: IndexedGraph): number {
  const used = new Uint8Array(graph.order);
  let best = 0;
  const search = (index: number, size: number): void => {
    if (size + (graph.edges.length - index) <= best) return;
    if (index === graph.edges.length) {
      best = size;
      return;
    }
    const [u, v] = graph.edges[index] ?? [0, 0];
    if (used[u] === 0 && used[v] === 0) {
      used[u] = used[v] = 1;
      search(index + 1, size + 1);
      used[u] = used[v] = 0;
    }
    search(index + 1, size);
  };
  search(0, 0);
  return best;
}

/** Kuhn's augmenting-path algorithm: an independent maximum matching for bipartite graphs. */
function bipartiteMatchingSize(left: number, graph: IndexedGraph): number {
  const neighbours: number[][] = Array.from({ length: left }, () => []);
  for (const [u, v] of graph.edges) neighbours[u]?.push(v);
  const mateOfRight = new Map<number, number>();
  const tryAugment = (u: number, seen: Set<number>): boolean => {
    for (const v of neighbours[u] ?? []) {
      if (seen.has(v)) continue;
      seen.add(v);
      const mate = mateOfRight.get(v);
      if (mate === undefined || tryAugment(mate, seen)) {
        mateOfRight.set(v, u);
        return true;
      }
    }
    return false;
  };
  let size = 0;
  for (let u = 0; u < left; u++) if (tryAugment(u, new Set())) size++;
  return size;
}

describe('maximumMatching: known values', () => {
  it('handles the empty graphs', () => {
    expect(maximumMatching({ order: 0, edges: [] })).toEqual({ size: 0, edges: [] });
    expect(maximumMatching({ order: 1, edges: [] })).toEqual({ size: 0, edges: [] });
    expect(maximumMatching({ order: 7, edges: [] })).toEqual({ size: 0, edges: [] });
  });

  it('finds a perfect matching of the Petersen graph', () => {
    const result = maximumMatching(PETERSEN);
    expect(result.size).toBe(5);
    expectValidMatching(PETERSEN, result);
  });

  it('matches floor(n/2) edges in complete graphs, cycles and paths', () => {
    for (let n = 1; n <= 15; n++) {
      for (const graph of [completeGraph(n), n >= 3 ? cycle(n) : path(n), path(n)]) {
        const result = maximumMatching(graph);
        expect(result.size).toBe(Math.floor(n / 2));
        expectValidMatching(graph, result);
      }
    }
  });

  it('matches min(m, n) edges in complete bipartite graphs and one edge in stars', () => {
    for (let m = 1; m <= 6; m++) {
      for (let n = 1; n <= 6; n++) expect(maximumMatching(completeBipartite(m, n)).size).toBe(Math.min(m, n));
    }
    expect(maximumMatching(completeBipartite(1, 9)).size).toBe(1);
  });

  it('returns the canonical edge list', () => {
    expect(maximumMatching(path(4))).toEqual({ size: 2, edges: [[0, 1], [2, 3]] });
  });
});

describe('maximumMatching: blossoms', () => {
  it('matches k edges in the friendship graph (k triangles sharing one vertex)', () => {
    for (let k = 1; k <= 12; k++) {
      const graph = friendshipGraph(k);
      const result = maximumMatching(graph);
      expect(result.size).toBe(k);
      expectValidMatching(graph, result);
    }
  });

  it('matches floor(5m/2) edges in a chain of m pentagons, under random relabelings', () => {
    const random = mulberry32(17);
    for (let m = 1; m <= 20; m++) {
      const pairs: Edge[] = [];
      for (let c = 0; c < m; c++) {
        for (let i = 0; i < 5; i++) pairs.push([5 * c + i, 5 * c + ((i + 1) % 5)]);
        if (c + 1 < m) pairs.push([5 * c + 2, 5 * (c + 1)]);
      }
      for (let trial = 0; trial < 5; trial++) {
        const graph = relabel(graphOf(5 * m, pairs), randomPermutation(5 * m, random));
        const result = maximumMatching(graph);
        expect(result.size).toBe(Math.floor((5 * m) / 2));
        expectValidMatching(graph, result);
      }
    }
  });

  it('finds the augmenting path through a blossom that the greedy start misses', () => {
    // Greedy (in edge order) takes 0-1, exposing 2 and 3. The only augmenting path is 2-1-0-3:
    // a search from 2 first labels 0 odd (via 2-0) and 1 even, so 0 can only grow the tree
    // after the triangle 0-1-2 is contracted into a blossom.
    const graph = graphOf(4, [[0, 1], [0, 2], [0, 3], [1, 2]]);
    const result = maximumMatching(graph);
    expect(result).toEqual({ size: 2, edges: [[0, 3], [1, 2]] });
    expectValidMatching(graph, result);
  });

  it('recovers a hidden perfect matching buried among many odd cycles', () => {
    const random = mulberry32(99);
    for (const order of [10, 30, 64, 128, 256]) {
      for (let trial = 0; trial < 4; trial++) {
        const labels = randomPermutation(order, random);
        const pairs: Edge[] = [];
        for (let i = 0; i < order; i += 2) pairs.push([labels[i] ?? 0, labels[i + 1] ?? 0]);
        // Triangles and pentagons on random vertices create nested blossoms.
        for (let c = 0; c < order / 2; c++) {
          const length = random() < 0.5 ? 3 : 5;
          const vertices = Array.from({ length }, () => Math.floor(random() * order));
          for (let i = 0; i < length; i++) pairs.push([vertices[i] ?? 0, vertices[(i + 1) % length] ?? 0]);
        }
        const graph = graphOf(order, pairs);
        const result = maximumMatching(graph);
        expect(result.size).toBe(order / 2);
        expectValidMatching(graph, result);
      }
    }
  });
});

describe('maximumMatching: cross-checks', () => {
  it('agrees with exhaustive search on 400 random graphs of order at most 9', () => {
    const random = mulberry32(2024);
    for (let i = 0; i < 400; i++) {
      const graph = randomGraph(i % 10, 0.1 + 0.8 * random(), random);
      const result = maximumMatching(graph);
      expectValidMatching(graph, result);
      expect(result.size).toBe(bruteForceMatchingSize(graph));
    }
  });

  it('agrees with an augmenting-path bipartite matcher on random bipartite graphs', () => {
    const random = mulberry32(7);
    for (let i = 0; i < 60; i++) {
      const left = 1 + Math.floor(random() * 40);
      const right = 1 + Math.floor(random() * 40);
      const pairs: Edge[] = [];
      const density = 0.02 + 0.3 * random();
      for (let u = 0; u < left; u++) for (let v = 0; v < right; v++) if (random() < density) pairs.push([u, left + v]);
      const graph = graphOf(left + right, pairs);
      const result = maximumMatching(graph);
      expectValidMatching(graph, result);
      expect(result.size).toBe(bipartiteMatchingSize(left, graph));
    }
  });

  it('is additive over disjoint unions and invariant under relabeling', () => {
    const arbitraryGraph = fc
      .integer({ min: 0, max: 12 })
      .chain((order) =>
        fc.record({
          order: fc.constant(order),
          pairs: fc.array(fc.tuple(fc.nat({ max: Math.max(0, order - 1) }), fc.nat({ max: Math.max(0, order - 1) })), { maxLength: 30 }),
        }),
      )
      .map(({ order, pairs }) => graphOf(order, order === 0 ? [] : pairs));
    fc.assert(
      fc.property(arbitraryGraph, arbitraryGraph, fc.integer(), (a, b, seed) => {
        const union = graphOf(a.order + b.order, [...a.edges, ...b.edges.map(([u, v]): Edge => [u + a.order, v + a.order])]);
        const size = maximumMatching(a).size + maximumMatching(b).size;
        expect(maximumMatching(union).size).toBe(size);
        expect(maximumMatching(relabel(union, randomPermutation(union.order, mulberry32(seed)))).size).toBe(size);
      }),
      { numRuns: 200 },
    );
  });

  it('returns a valid maximal matching on a random G(256, 0.1)', () => {
    const graph = randomGraph(256, 0.1, mulberry32(256));
    const result = maximumMatching(graph);
    expectValidMatching(graph, result);
    expect(result.size).toBeLessThanOrEqual(128);
    const matched = new Set(result.edges.flat());
    expect(graph.edges.some(([u, v]) => !matched.has(u) && !matched.has(v))).toBe(false);
    // G(256, 0.1) has minimum degree far above 1 and a perfect matching with overwhelming probability.
    expect(result.size).toBe(128);
  });
});
