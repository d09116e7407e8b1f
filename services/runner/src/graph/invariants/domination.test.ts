import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minimumDominatingSet } from './domination.js';
import { UNBOUNDED, type BoundedOptimum, type IndexedGraph, type SearchControl } from './search.js';

// ---------------------------------------------------------------------------------------------
// Graph builders and plain checkers, written independently of the code under test.

/** A graph in canonical form (u < v, sorted, no duplicates) from any list of distinct-end pairs. */
function graphOf(order: number, pairs: Iterable<readonly [number, number]>): IndexedGraph {
  const keys = new Set<string>();
  const edges: [number, number][] = [];
  for (const [a, b] of pairs) {
    const [u, v] = a < b ? [a, b] : [b, a];
    if (u === v || keys.has(`${u},${v}`)) continue;
    keys.add(`${u},${v}`);
    edges.push([u, v]);
  }
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return { order, edges };
}

/** Seeded G(n, p) (mulberry32), so every test run sees the same graphs. */
function randomGraph(order: number, density: number, seed: number): IndexedGraph {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const edges: [number, number][] = [];
  for (let u = 0; u < order; u++) for (let v = u + 1; v < order; v++) if (next() < density) edges.push([u, v]);
  return { order, edges };
}

const PETERSEN = graphOf(10, [
  [0, 1], [1, 2], [2, 3], [3, 4], [4, 0],
  [0, 5], [1, 6], [2, 7], [3, 8], [4, 9],
  [5, 7], [7, 9], [9, 6], [6, 8], [8, 5],
]);

const completeGraph = (n: number): IndexedGraph =>
  graphOf(n, Array.from({ length: n }, (_, u) => Array.from({ length: n - u - 1 }, (_, i): [number, number] => [u, u + 1 + i])).flat());
const emptyGraph = (n: number): IndexedGraph => ({ order: n, edges: [] });
const cycle = (n: number): IndexedGraph => graphOf(n, Array.from({ length: n }, (_, i): [number, number] => [i, (i + 1) % n]));
const completeBipartite = (a: number, b: number): IndexedGraph =>
  graphOf(a + b, Array.from({ length: a }, (_, u) => Array.from({ length: b }, (_, j): [number, number] => [u, a + j])).flat());

/** The Mycielskian: triangle-free stays triangle-free, chromatic number goes up by one. */
function mycielski(graph: IndexedGraph): IndexedGraph {
  const n = graph.order;
  const pairs: [number, number][] = [...graph.edges];
  for (const [u, v] of graph.edges) pairs.push([u, n + v], [v, n + u]);
  for (let i = 0; i < n; i++) pairs.push([n + i, 2 * n]);
  return graphOf(2 * n + 1, pairs);
}
const GROETZSCH = mycielski(cycle(5));

/** The m-by-n grid graph P_m x P_n, vertex (i, j) numbered i*n + j. */
function grid(m: number, n: number): IndexedGraph {
  const pairs: [number, number][] = [];
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      if (j + 1 < n) pairs.push([i * n + j, i * n + j + 1]);
      if (i + 1 < m) pairs.push([i * n + j, (i + 1) * n + j]);
    }
  }
  return graphOf(m * n, pairs);
}
const path = (n: number): IndexedGraph => graphOf(n, Array.from({ length: Math.max(n - 1, 0) }, (_, i): [number, number] => [i, i + 1]));

/** Strictly ascending, in range, and every vertex is in the set or has a neighbour in it. */
function isDominating(graph: IndexedGraph, set: readonly number[]): boolean {
  for (let i = 0; i < set.length; i++) {
    const v = set[i] as number;
    if (!Number.isInteger(v) || v < 0 || v >= graph.order) return false;
    if (i > 0 && (set[i - 1] as number) >= v) return false;
  }
  const dominated = new Set(set);
  for (const [u, v] of graph.edges) {
    if (set.includes(u)) dominated.add(v);
    if (set.includes(v)) dominated.add(u);
  }
  return dominated.size === graph.order;
}

/** Domination number by trying every vertex subset. */
function bruteForce(graph: IndexedGraph): number {
  const n = graph.order;
  const closed = Array.from({ length: n }, (_, v) => 1 << v);
  for (const [u, v] of graph.edges) {
    closed[u] = (closed[u] as number) | (1 << v);
    closed[v] = (closed[v] as number) | (1 << u);
  }
  let best = n;
  for (let mask = 0; mask < 1 << n; mask++) {
    let dominated = 0;
    let size = 0;
    for (let v = 0; v < n; v++) {
      if ((mask & (1 << v)) === 0) continue;
      dominated |= closed[v] as number;
      size++;
    }
    if (dominated === (1 << n) - 1) best = Math.min(best, size);
  }
  return best;
}

/** The bound invariants every result must satisfy, budgeted or not, with the witness checked. */
function expectValid(graph: IndexedGraph, result: BoundedOptimum<number[]>): void {
  expect(Number.isInteger(result.lower_bound) && Number.isInteger(result.upper_bound)).toBe(true);
  expect(result.lower_bound).toBeLessThanOrEqual(result.upper_bound);
  expect(result.exhaustive).toBe(result.lower_bound === result.upper_bound);
  expect(result.witness.length).toBe(result.upper_bound);
  expect(isDominating(graph, result.witness)).toBe(true);
  expect(result.nodes).toBeGreaterThanOrEqual(0);
}

/** A control that says stop from its (calls+1)-th poll on, counting polls. */
function stopAfter(calls: number): SearchControl & { polls: number } {
  const control = {
    polls: 0,
    shouldStop: (): boolean => ++control.polls > calls,
  };
  return control;
}

/** A never-stopping control that records every bounds report. */
function recorder(): SearchControl & { reports: { lower_bound: number; upper_bound: number }[] } {
  const reports: { lower_bound: number; upper_bound: number }[] = [];
  return { reports, shouldStop: () => false, onBounds: (bounds) => reports.push({ ...bounds }) };
}

/** Reports only on change, lower never falls, upper never rises, and the last one is the result. */
function expectReports(reports: readonly { lower_bound: number; upper_bound: number }[], result: BoundedOptimum<number[]>): void {
  expect(reports.length).toBeGreaterThan(0);
  for (let i = 0; i < reports.length; i++) {
    const report = reports[i] as { lower_bound: number; upper_bound: number };
    expect(report.lower_bound).toBeLessThanOrEqual(report.upper_bound);
    if (i === 0) continue;
    const previous = reports[i - 1] as { lower_bound: number; upper_bound: number };
    expect(report).not.toEqual(previous);
    expect(report.lower_bound).toBeGreaterThanOrEqual(previous.lower_bound);
    expect(report.upper_bound).toBeLessThanOrEqual(previous.upper_bound);
  }
  expect(reports.at(-1)).toEqual({ lower_bound: result.lower_bound, upper_bound: result.upper_bound });
}

const smallGraph = fc
  .tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 100 }))
  .chain(([order, density]) =>
    fc.array(fc.integer({ min: 0, max: 99 }), { minLength: (order * (order - 1)) / 2, maxLength: (order * (order - 1)) / 2 }).map((draws) => {
      const pairs: [number, number][] = [];
      let k = 0;
      for (let u = 0; u < order; u++) for (let v = u + 1; v < order; v++) if ((draws[k++] as number) < density) pairs.push([u, v]);
      return graphOf(order, pairs);
    }),
  );


describe('minimumDominatingSet', () => {
  it('handles order 0 and 1', () => {
    expect(minimumDominatingSet(emptyGraph(0), UNBOUNDED)).toMatchObject({ witness: [], lower_bound: 0, upper_bound: 0, exhaustive: true });
    expect(minimumDominatingSet(emptyGraph(1), UNBOUNDED)).toMatchObject({ witness: [0], lower_bound: 1, upper_bound: 1, exhaustive: true });
  });

  it('finds the known domination numbers', () => {
    const cases: [string, IndexedGraph, number][] = [
      ['Petersen', PETERSEN, 3],
      ['Grötzsch', GROETZSCH, 3],
      ['K_{1,7}', completeBipartite(1, 7), 1],
      ['K_{3,5}', completeBipartite(3, 5), 2],
      ['K_{2,2}', completeBipartite(2, 2), 2],
      ['empty 9', emptyGraph(9), 9],
      ['empty 256', emptyGraph(256), 256],
      ['K256', completeGraph(256), 1],
      ['C256', cycle(256), 86],
      ['P256', path(256), 86],
      ['grid 4x4', grid(4, 4), 4],
      ['grid 5x5', grid(5, 5), 7],
      ['grid 6x6', grid(6, 6), 10],
      ...[3, 4, 5, 6, 7, 10, 11, 12, 20, 31].map((n): [string, IndexedGraph, number] => [`C${n}`, cycle(n), Math.ceil(n / 3)]),
      ...[2, 3, 4, 7, 19].map((n): [string, IndexedGraph, number] => [`P${n}`, path(n), Math.ceil(n / 3)]),
      ...[2, 3, 5, 8].map((n): [string, IndexedGraph, number] => [`K${n}`, completeGraph(n), 1]),
    ];
    for (const [name, graph, expected] of cases) {
      const result = minimumDominatingSet(graph, UNBOUNDED);
      expect({ name, domination: result.upper_bound }).toEqual({ name, domination: expected });
      expect(result.exhaustive).toBe(true);
      expectValid(graph, result);
    }
  });

  it('matches brute force on random graphs of order at most 10', () => {
    fc.assert(
      fc.property(smallGraph, (graph) => {
        const result = minimumDominatingSet(graph, UNBOUNDED);
        expectValid(graph, result);
        expect(result.exhaustive).toBe(true);
        expect(result.upper_bound).toBe(bruteForce(graph));
      }),
      { numRuns: 400 },
    );
  });

  it('matches brute force on seeded sparse random graphs of order 11 to 16', () => {
    for (let seed = 1; seed <= 24; seed++) {
      const graph = randomGraph(11 + (seed % 6), [0.1, 0.2, 0.35][seed % 3] as number, seed);
      const result = minimumDominatingSet(graph, UNBOUNDED);
      expectValid(graph, result);
      expect(result.upper_bound).toBe(bruteForce(graph));
    }
  });

  it('does not depend on vertex labels', () => {
    fc.assert(
      fc.property(
        smallGraph.chain((graph) => fc.tuple(fc.constant(graph), fc.shuffledSubarray([...Array(graph.order).keys()], { minLength: graph.order }))),
        ([graph, permutation]) => {
          const relabelled = graphOf(graph.order, graph.edges.map(([u, v]): [number, number] => [permutation[u] as number, permutation[v] as number]));
          expect(minimumDominatingSet(relabelled, UNBOUNDED).upper_bound).toBe(minimumDominatingSet(graph, UNBOUNDED).upper_bound);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is deterministic', () => {
    const graph = randomGraph(60, 0.1, 9);
    expect(minimumDominatingSet(graph, UNBOUNDED)).toEqual(minimumDominatingSet(graph, UNBOUNDED));
  });

  it('reports bounds only when they change, monotonically, ending at the result', () => {
    for (const graph of [randomGraph(60, 0.1, 4), PETERSEN, cycle(9), completeGraph(4)]) {
      const control = recorder();
      const result = minimumDominatingSet(graph, control);
      expectReports(control.reports, result);
    }
  });

  it('stops on budget with a dominating set and bounds that bracket the optimum', () => {
    const graph = randomGraph(80, 0.06, 22);
    const exact = minimumDominatingSet(graph, UNBOUNDED);
    expect(exact.exhaustive).toBe(true);
    expect(exact.nodes).toBeGreaterThan(20_000);
    for (const calls of [0, 1, 5, 15]) {
      const control = stopAfter(calls);
      const reports: { lower_bound: number; upper_bound: number }[] = [];
      control.onBounds = (bounds) => reports.push({ ...bounds });
      const result = minimumDominatingSet(graph, control);
      expect(control.polls).toBe(calls + 1);
      expect(result.exhaustive).toBe(false);
      expectValid(graph, result);
      expect(result.lower_bound).toBeLessThanOrEqual(exact.upper_bound);
      expect(result.upper_bound).toBeGreaterThanOrEqual(exact.upper_bound);
      expectReports(reports, result);
    }
  });

  it('stops on budget on a large sparse graph', () => {
    const graph = randomGraph(200, 0.03, 8);
    const result = minimumDominatingSet(graph, stopAfter(3));
    expect(result.exhaustive).toBe(false);
    expectValid(graph, result);
  });
});
