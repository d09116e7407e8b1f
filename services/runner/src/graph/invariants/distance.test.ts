import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diameter, eccentricities, girth, radius } from './distance.js';
import type { IndexedGraph } from './search.js';
import { completeBipartite, completeGraph, cycle, graphOf, hypercube, mulberry32, path, PETERSEN, randomGraph, type Edge } from '../test-graphs.js';

/** The Heawood graph: the (3, 6)-cage, girth 6, diameter 3. */
const HEAWOOD = graphOf(14, [
  ...Array.from({ length: 14 }, (_, i): Edge => [i, (i + 1) % 14]),
  ...Array.from({ length: 7 }, (_, i): Edge => [2 * i, (2 * i + 5) % 14]),
]);

/** All-pairs distances by Floyd–Warshall (Infinity when unreachable). */
function floydWarshall(graph: IndexedGraph): number[][] {
  const n = graph.order;
  const d = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 0 : Number.POSITIVE_INFINITY)));
  for (const [u, v] of graph.edges) {
    (d[u] ?? [])[v] = 1;
    (d[v] ?? [])[u] = 1;
  }
  for (let k = 0; k < n; k++) {
    const dk = d[k] ?? [];
    for (let i = 0; i < n; i++) {
      const di = d[i] ?? [];
      const dik = di[k] ?? Number.POSITIVE_INFINITY;
      for (let j = 0; j < n; j++) {
        const through = dik + (dk[j] ?? Number.POSITIVE_INFINITY);
        if (through < (di[j] ?? Number.POSITIVE_INFINITY)) di[j] = through;
      }
    }
  }
  return d;
}

/** Girth by enumerating simple cycles through their smallest vertex (DFS), pruned by the best. */
function bruteForceGirth(graph: IndexedGraph): number | null {
  const n = graph.order;
  const adjacent = (u: number, v: number): boolean => graph.edges.some(([a, b]) => (a === u && b === v) || (a === v && b === u));
  let best = Number.POSITIVE_INFINITY;
  const onPath = new Uint8Array(n);
  const extend = (start: number, x: number, length: number): void => {
    if (length >= best) return;
    for (let y = start; y < n; y++) {
      if (!adjacent(x, y)) continue;
      if (y === start && length >= 3) best = Math.min(best, length);
      else if (y > start && onPath[y] === 0) {
        onPath[y] = 1;
        extend(start, y, length + 1);
        onPath[y] = 0;
      }
    }
  };
  for (let start = 0; start < n; start++) {
    onPath[start] = 1;
    extend(start, start, 1);
    onPath[start] = 0;
  }
  return Number.isFinite(best) ? best : null;
}

const edgeSet = (graph: IndexedGraph): Set<number> => new Set(graph.edges.map(([u, v]) => u * graph.order + v));
const hasEdge = (graph: IndexedGraph, edges: Set<number>, u: number, v: number): boolean =>
  edges.has(Math.min(u, v) * graph.order + Math.max(u, v));

/** The girth witness is a simple cycle of the graph with `value` vertices. */
function expectValidCycle(graph: IndexedGraph, result: { value: number | null; cycle: number[] | null }): void {
  if (result.value === null) {
    expect(result.cycle).toBeNull();
    return;
  }
  const cycle = result.cycle ?? [];
  const edges = edgeSet(graph);
  expect(cycle.length).toBe(result.value);
  expect(new Set(cycle).size).toBe(cycle.length);
  expect(cycle.length).toBeGreaterThanOrEqual(3);
  cycle.forEach((v, i) => expect(hasEdge(graph, edges, v, cycle[(i + 1) % cycle.length] ?? -1)).toBe(true));
}

/** The diameter witness is a path of the graph between the endpoints with `value` edges. */
function expectValidDiameterPath(graph: IndexedGraph, result: ReturnType<typeof diameter>): void {
  if (result.value === null) {
    expect(result).toEqual({ value: null, endpoints: null, path: null });
    return;
  }
  const path = result.path ?? [];
  const edges = edgeSet(graph);
  expect(path.length).toBe(result.value + 1);
  expect([path[0], path[path.length - 1]]).toEqual(result.endpoints);
  expect(new Set(path).size).toBe(path.length);
  for (let i = 0; i + 1 < path.length; i++) expect(hasEdge(graph, edges, path[i] ?? -1, path[i + 1] ?? -1)).toBe(true);
}

/** Everything computed from BFS against Floyd–Warshall and cycle enumeration. */
function expectAgreesWithBruteForce(graph: IndexedGraph): void {
  const d = floydWarshall(graph);
  const connected = d.every((row) => row.every(Number.isFinite));
  const ecc = d.map((row) => Math.max(...row));
  const expectedEcc = connected ? ecc : null;
  expect(eccentricities(graph)).toEqual(expectedEcc);

  const diam = diameter(graph);
  expectValidDiameterPath(graph, diam);
  if (expectedEcc === null || graph.order === 0) {
    expect(diam.value).toBeNull();
    expect(radius(graph)).toEqual({ value: null, centre: null });
  } else {
    const value = Math.max(...expectedEcc);
    expect(diam.value).toBe(value);
    const [u, v] = diam.endpoints ?? [-1, -1];
    expect(d[u]?.[v]).toBe(value);
    const r = Math.min(...expectedEcc);
    expect(radius(graph)).toEqual({ value: r, centre: expectedEcc.indexOf(r) });
  }

  const g = girth(graph);
  expectValidCycle(graph, g);
  expect(g.value).toBe(bruteForceGirth(graph));
}

describe('eccentricities, diameter, radius: known values', () => {
  it('follows the conventions for orders 0 and 1', () => {
    const empty = { order: 0, edges: [] };
    expect(eccentricities(empty)).toEqual([]);
    expect(diameter(empty)).toEqual({ value: null, endpoints: null, path: null });
    expect(radius(empty)).toEqual({ value: null, centre: null });
    const single = { order: 1, edges: [] };
    expect(eccentricities(single)).toEqual([0]);
    expect(diameter(single)).toEqual({ value: 0, endpoints: [0, 0], path: [0] });
    expect(radius(single)).toEqual({ value: 0, centre: 0 });
  });

  it('reports null (infinite) for disconnected graphs', () => {
    const graph = graphOf(5, [[0, 1], [1, 2], [3, 4]]);
    expect(eccentricities(graph)).toBeNull();
    expect(diameter(graph)).toEqual({ value: null, endpoints: null, path: null });
    expect(radius(graph)).toEqual({ value: null, centre: null });
    expect(eccentricities({ order: 2, edges: [] })).toBeNull();
  });

  it('gives diameter 2 and radius 2 for the Petersen graph', () => {
    expect(eccentricities(PETERSEN)).toEqual(Array<number>(10).fill(2));
    const diam = diameter(PETERSEN);
    expect(diam.value).toBe(2);
    expect(diam.endpoints).toEqual([0, 2]);
    expectValidDiameterPath(PETERSEN, diam);
    expect(radius(PETERSEN)).toEqual({ value: 2, centre: 0 });
  });

  it('handles paths, cycles, complete graphs, stars and hypercubes', () => {
    for (let n = 2; n <= 20; n++) {
      expect(diameter(path(n))).toEqual({ value: n - 1, endpoints: [0, n - 1], path: [...Array(n).keys()] });
      expect(radius(path(n))).toEqual({ value: Math.floor(n / 2), centre: Math.floor((n - 1) / 2) });
      expect(diameter(completeGraph(n))).toEqual({ value: 1, endpoints: [0, 1], path: [0, 1] });
      expect(radius(completeGraph(n))).toEqual({ value: 1, centre: 0 });
    }
    for (let n = 3; n <= 20; n++) {
      const diam = diameter(cycle(n));
      expect(diam.value).toBe(Math.floor(n / 2));
      expectValidDiameterPath(cycle(n), diam);
      expect(radius(cycle(n))).toEqual({ value: Math.floor(n / 2), centre: 0 });
    }
    expect(radius(completeBipartite(1, 7))).toEqual({ value: 1, centre: 0 });
    expect(diameter(completeBipartite(1, 7)).value).toBe(2);
    for (let d = 1; d <= 7; d++) {
      expect(diameter(hypercube(d)).value).toBe(d);
      expect(radius(hypercube(d)).value).toBe(d);
    }
    expect(diameter(HEAWOOD).value).toBe(3);
  });
});

describe('girth: known values', () => {
  it('is null for forests and the empty graphs', () => {
    expect(girth({ order: 0, edges: [] })).toEqual({ value: null, cycle: null });
    expect(girth({ order: 1, edges: [] })).toEqual({ value: null, cycle: null });
    expect(girth(path(10))).toEqual({ value: null, cycle: null });
    expect(girth(completeBipartite(1, 8))).toEqual({ value: null, cycle: null });
    expect(girth(graphOf(9, [[0, 1], [0, 2], [1, 3], [1, 4], [5, 6], [6, 7]]))).toEqual({ value: null, cycle: null });
  });

  it('gives 5 for Petersen, 6 for Heawood, 4 for hypercubes and K_{m,n}, 3 for K_n, n for C_n', () => {
    const cases: [IndexedGraph, number][] = [
      [PETERSEN, 5],
      [HEAWOOD, 6],
      [hypercube(4), 4],
      [hypercube(7), 4],
      [completeBipartite(2, 2), 4],
      [completeBipartite(5, 7), 4],
      [completeGraph(3), 3],
      [completeGraph(30), 3],
      ...[3, 4, 5, 6, 7, 8, 9, 10, 31, 100, 256].map((n): [IndexedGraph, number] => [cycle(n), n]),
    ];
    for (const [graph, expected] of cases) {
      const result = girth(graph);
      expect(result.value).toBe(expected);
      expectValidCycle(graph, result);
    }
  });

  it('finds a cycle in one component of a disconnected graph', () => {
    const graph = graphOf(12, [[0, 1], [1, 2], ...cycle(7).edges.map(([u, v]): Edge => [u + 5, v + 5])]);
    const result = girth(graph);
    expect(result.value).toBe(7);
    expectValidCycle(graph, result);
  });

  it('finds the short cycle when long cycles are met first', () => {
    // A 40-cycle on 0..39, plus the pentagon 40-41-42-43-44 hanging from vertex 20.
    const graph = graphOf(45, [...cycle(40).edges, [20, 40], [40, 41], [41, 42], [42, 43], [43, 44], [44, 40]]);
    const result = girth(graph);
    expect(result.value).toBe(5);
    expectValidCycle(graph, result);
  });
});

describe('distances: cross-checks', () => {
  it('agree with Floyd–Warshall and cycle enumeration on 400 random graphs of order at most 9', () => {
    const random = mulberry32(77);
    for (let i = 0; i < 400; i++) expectAgreesWithBruteForce(randomGraph(i % 10, 0.05 + 0.6 * random(), random));
  });

  it('agree with brute force on random sparse graphs of order up to 14 (long cycles)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 14 }), fc.integer(), (order, seed) => {
        const random = mulberry32(seed);
        // A random spanning tree plus a couple of extra edges: connected, with longer cycles.
        const pairs: Edge[] = [];
        for (let v = 1; v < order; v++) pairs.push([v, Math.floor(random() * v)]);
        for (let k = 0; k < 2; k++) pairs.push([Math.floor(random() * order), Math.floor(random() * order)]);
        expectAgreesWithBruteForce(graphOf(order, pairs));
      }),
      { numRuns: 200 },
    );
  });

  it('agree with Floyd–Warshall on random graphs of order 256', () => {
    for (const [density, seed] of [
      [0.1, 1],
      [0.012, 2],
      [0.004, 3],
    ] as const) {
      const graph = randomGraph(256, density, mulberry32(seed));
      const d = floydWarshall(graph);
      const connected = d.every((row) => row.every(Number.isFinite));
      const ecc = eccentricities(graph);
      expect(ecc).toEqual(connected ? d.map((row) => Math.max(...row)) : null);
      const diam = diameter(graph);
      expectValidDiameterPath(graph, diam);
      if (diam.value !== null) expect(d[diam.endpoints?.[0] ?? 0]?.[diam.endpoints?.[1] ?? 0]).toBe(diam.value);
      const g = girth(graph);
      expectValidCycle(graph, g);
      if (density === 0.1) expect(g.value).toBe(3);
    }
  });

  it('finds a long girth exactly on a large sparse graph: C_128 with four antipodal chords', () => {
    // Chords i ~ i + 64 for i = 0, 16, 32, 48. Two chords at cycle distance d close cycles of
    // lengths 2d + 2 and 130 - 2d, so the best pair gives 34; one chord alone gives 65, and three
    // or more chords need arcs of total length at least 48.
    const pairs: Edge[] = [...cycle(128).edges];
    for (let i = 0; i < 64; i += 16) pairs.push([i, i + 64]);
    const graph = graphOf(128, pairs);
    const result = girth(graph);
    expectValidCycle(graph, result);
    expect(result.value).toBe(34);
  });
});
