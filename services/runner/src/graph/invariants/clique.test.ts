import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { complement, maximumClique, maximumIndependentSet } from './clique.js';
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

function edgeSet(graph: IndexedGraph): Set<string> {
  return new Set(graph.edges.map(([u, v]) => `${u},${v}`));
}

/** Strictly ascending, in range, and every pair inside is an edge (or, for `independent`, none is). */
function checkSet(graph: IndexedGraph, set: readonly number[], independent: boolean): boolean {
  const edges = edgeSet(graph);
  for (let i = 0; i < set.length; i++) {
    const v = set[i] as number;
    if (!Number.isInteger(v) || v < 0 || v >= graph.order) return false;
    if (i > 0 && (set[i - 1] as number) >= v) return false;
    for (let j = 0; j < i; j++) if (edges.has(`${set[j] as number},${v}`) === independent) return false;
  }
  return true;
}
const isClique = (graph: IndexedGraph, set: readonly number[]): boolean => checkSet(graph, set, false);
const isIndependent = (graph: IndexedGraph, set: readonly number[]): boolean => checkSet(graph, set, true);

/** Largest clique (or independent set) by trying every vertex subset. */
function bruteForce(graph: IndexedGraph, independent: boolean): number {
  const n = graph.order;
  const adjacent = Array.from({ length: n }, () => 0);
  for (const [u, v] of graph.edges) {
    adjacent[u] = (adjacent[u] as number) | (1 << v);
    adjacent[v] = (adjacent[v] as number) | (1 << u);
  }
  let best = 0;
  for (let mask = 0; mask < 1 << n; mask++) {
    let ok = true;
    let size = 0;
    for (let v = 0; v < n && ok; v++) {
      if ((mask & (1 << v)) === 0) continue;
      size++;
      const others = mask & ~(1 << v);
      const inside = (adjacent[v] as number) & others;
      ok = independent ? inside === 0 : inside === others;
    }
    if (ok) best = Math.max(best, size);
  }
  return best;
}

/** Maximum clique by plain Bron–Kerbosch without pivoting: slow but obviously right. */
function bronKerbosch(graph: IndexedGraph): number {
  const neighbours = Array.from({ length: graph.order }, () => new Set<number>());
  for (const [u, v] of graph.edges) {
    neighbours[u]?.add(v);
    neighbours[v]?.add(u);
  }
  let best = 0;
  const extend = (size: number, candidates: number[]): void => {
    if (size + candidates.length <= best) return;
    if (candidates.length === 0) best = size;
    for (let i = 0; i < candidates.length; i++) {
      const v = candidates[i] as number;
      extend(
        size + 1,
        candidates.slice(i + 1).filter((u) => neighbours[v]?.has(u)),
      );
    }
  };
  extend(0, Array.from({ length: graph.order }, (_, v) => v));
  return best;
}

/** The bound invariants every result must satisfy, budgeted or not. */
function expectBounds(result: BoundedOptimum<number[]>): void {
  expect(Number.isInteger(result.lower_bound) && Number.isInteger(result.upper_bound)).toBe(true);
  expect(result.lower_bound).toBeLessThanOrEqual(result.upper_bound);
  expect(result.exhaustive).toBe(result.lower_bound === result.upper_bound);
  expect(result.witness.length).toBe(result.lower_bound);
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

// ---------------------------------------------------------------------------------------------

describe('complement', () => {
  it('swaps edges and non-edges and keeps the canonical edge order', () => {
    const graph = graphOf(5, [[0, 1], [1, 2], [3, 4]]);
    expect(complement(graph)).toEqual({
      order: 5,
      edges: [[0, 2], [0, 3], [0, 4], [1, 3], [1, 4], [2, 3], [2, 4]],
    });
    expect(complement(emptyGraph(0))).toEqual({ order: 0, edges: [] });
    expect(complement(completeGraph(6))).toEqual(emptyGraph(6));
  });

  it('is an involution whose edges partition all pairs', () => {
    fc.assert(
      fc.property(smallGraph, (graph) => {
        const co = complement(graph);
        expect(complement(co)).toEqual(graph);
        expect(co).toEqual(graphOf(co.order, co.edges));
        expect(graph.edges.length + co.edges.length).toBe(graph.order < 2 ? 0 : (graph.order * (graph.order - 1)) / 2);
      }),
      { numRuns: 200 },
    );
  });
});

describe('maximumClique', () => {
  it('handles order 0 and 1', () => {
    expect(maximumClique(emptyGraph(0), UNBOUNDED)).toMatchObject({ witness: [], lower_bound: 0, upper_bound: 0, exhaustive: true });
    expect(maximumClique(emptyGraph(1), UNBOUNDED)).toMatchObject({ witness: [0], lower_bound: 1, upper_bound: 1, exhaustive: true });
  });

  it('finds the known clique numbers', () => {
    const cases: [string, IndexedGraph, number][] = [
      ['Petersen', PETERSEN, 2],
      ['Grötzsch', GROETZSCH, 2],
      ['Mycielski M5', mycielski(GROETZSCH), 2],
      ['C3', cycle(3), 3],
      ['C4', cycle(4), 2],
      ['C11', cycle(11), 2],
      ['K_{3,5}', completeBipartite(3, 5), 2],
      ['K_{1,7}', completeBipartite(1, 7), 2],
      ['empty 9', emptyGraph(9), 1],
      ...[2, 3, 5, 8, 13].map((n): [string, IndexedGraph, number] => [`K${n}`, completeGraph(n), n]),
    ];
    for (const [name, graph, expected] of cases) {
      const result = maximumClique(graph, UNBOUNDED);
      expect({ name, size: result.lower_bound }).toEqual({ name, size: expected });
      expectBounds(result);
      expect(result.exhaustive).toBe(true);
      expect(isClique(graph, result.witness)).toBe(true);
    }
  });

  it('accepts order 256 at both extremes', () => {
    const full = maximumClique(completeGraph(256), UNBOUNDED);
    expect(full.lower_bound).toBe(256);
    expect(full.witness).toEqual(Array.from({ length: 256 }, (_, v) => v));
    expect(maximumClique(emptyGraph(256), UNBOUNDED)).toMatchObject({ lower_bound: 1, upper_bound: 1, exhaustive: true });
    const random = randomGraph(256, 0.3, 256);
    const result = maximumClique(random, UNBOUNDED);
    expectBounds(result);
    expect(result.exhaustive).toBe(true);
    expect(isClique(random, result.witness)).toBe(true);
  });

  it('matches brute force on random graphs of order at most 10', () => {
    fc.assert(
      fc.property(smallGraph, (graph) => {
        const result = maximumClique(graph, UNBOUNDED);
        expectBounds(result);
        expect(result.exhaustive).toBe(true);
        expect(isClique(graph, result.witness)).toBe(true);
        expect(result.lower_bound).toBe(bruteForce(graph, false));
      }),
      { numRuns: 400 },
    );
  });

  it('matches Bron–Kerbosch on random graphs of order 20 to 45', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const graph = randomGraph(20 + (seed % 26), [0.2, 0.5, 0.8][seed % 3] as number, seed);
      const result = maximumClique(graph, UNBOUNDED);
      expect(isClique(graph, result.witness)).toBe(true);
      expect(result.lower_bound).toBe(bronKerbosch(graph));
    }
  });

  it('does not depend on vertex labels', () => {
    fc.assert(
      fc.property(
        smallGraph.chain((graph) => fc.tuple(fc.constant(graph), fc.shuffledSubarray([...Array(graph.order).keys()], { minLength: graph.order }))),
        ([graph, permutation]) => {
          const relabelled = graphOf(graph.order, graph.edges.map(([u, v]): [number, number] => [permutation[u] as number, permutation[v] as number]));
          expect(maximumClique(relabelled, UNBOUNDED).lower_bound).toBe(maximumClique(graph, UNBOUNDED).lower_bound);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is deterministic', () => {
    const graph = randomGraph(90, 0.6, 7);
    expect(maximumClique(graph, UNBOUNDED)).toEqual(maximumClique(graph, UNBOUNDED));
  });

  it('reports bounds only when they change, monotonically, ending at the result', () => {
    for (const graph of [randomGraph(150, 0.5, 3), PETERSEN, completeGraph(4)]) {
      const control = recorder();
      const result = maximumClique(graph, control);
      expectReports(control.reports, result);
    }
  });

  it('stops on budget with a valid witness and bounds that bracket the optimum', () => {
    const graph = randomGraph(160, 0.8, 11);
    const exact = maximumClique(graph, UNBOUNDED);
    expect(exact.exhaustive).toBe(true);
    expect(exact.nodes).toBeGreaterThan(20_000);
    for (const calls of [0, 1, 5, 15]) {
      const control = stopAfter(calls);
      const reports: { lower_bound: number; upper_bound: number }[] = [];
      control.onBounds = (bounds) => reports.push({ ...bounds });
      const result = maximumClique(graph, control);
      expect(control.polls).toBe(calls + 1);
      expect(result.exhaustive).toBe(false);
      expectBounds(result);
      expect(isClique(graph, result.witness)).toBe(true);
      expect(result.lower_bound).toBeLessThanOrEqual(exact.lower_bound);
      expect(result.upper_bound).toBeGreaterThanOrEqual(exact.lower_bound);
      expect(result.nodes).toBe((calls + 1) * 1024);
      expectReports(reports, result);
    }
  });

  it('finishes G(200, 0.5) without a budget', () => {
    const graph = randomGraph(200, 0.5, 200);
    const result = maximumClique(graph, UNBOUNDED);
    expect(result.exhaustive).toBe(true);
    expect(isClique(graph, result.witness)).toBe(true);
    // The clique number of G(200, 1/2) is 11 or 12 with overwhelming probability.
    expect(result.lower_bound).toBeGreaterThanOrEqual(10);
    expect(result.lower_bound).toBeLessThanOrEqual(13);
  });
});

describe('maximumIndependentSet', () => {
  it('handles order 0 and 1', () => {
    expect(maximumIndependentSet(emptyGraph(0), UNBOUNDED)).toMatchObject({ witness: [], lower_bound: 0, upper_bound: 0, exhaustive: true });
    expect(maximumIndependentSet(emptyGraph(1), UNBOUNDED)).toMatchObject({ witness: [0], lower_bound: 1, upper_bound: 1, exhaustive: true });
  });

  it('finds the known independence numbers', () => {
    const cases: [string, IndexedGraph, number][] = [
      ['Petersen', PETERSEN, 4],
      ['Grötzsch', GROETZSCH, 5],
      ['K_{3,5}', completeBipartite(3, 5), 5],
      ['K_{4,4}', completeBipartite(4, 4), 4],
      ['K7', completeGraph(7), 1],
      ['empty 12', emptyGraph(12), 12],
      ...[3, 4, 5, 10, 17].map((n): [string, IndexedGraph, number] => [`C${n}`, cycle(n), Math.floor(n / 2)]),
      ['C256', cycle(256), 128],
      ['empty 256', emptyGraph(256), 256],
    ];
    for (const [name, graph, expected] of cases) {
      const result = maximumIndependentSet(graph, UNBOUNDED);
      expect({ name, size: result.lower_bound }).toEqual({ name, size: expected });
      expectBounds(result);
      expect(result.exhaustive).toBe(true);
      expect(isIndependent(graph, result.witness)).toBe(true);
    }
  });

  it('matches brute force on random graphs of order at most 10', () => {
    fc.assert(
      fc.property(smallGraph, (graph) => {
        const result = maximumIndependentSet(graph, UNBOUNDED);
        expectBounds(result);
        expect(result.exhaustive).toBe(true);
        expect(isIndependent(graph, result.witness)).toBe(true);
        expect(result.lower_bound).toBe(bruteForce(graph, true));
      }),
      { numRuns: 400 },
    );
  });

  it('stops on budget with a valid independent set', () => {
    const graph = randomGraph(200, 0.05, 5);
    const result = maximumIndependentSet(graph, stopAfter(2));
    expect(result.exhaustive).toBe(false);
    expectBounds(result);
    expect(isIndependent(graph, result.witness)).toBe(true);
    expect(result.lower_bound).toBeGreaterThan(50);
  });
});
