import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maximumClique } from './clique.js';
import { chromaticNumber } from './colouring.js';
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

/**
 * True iff `colours` gives every vertex a colour in 0..k-1, uses each of those k colours, and
 * no edge joins two vertices of the same colour.
 */
function isProperColouring(graph: IndexedGraph, colours: readonly number[], k: number): boolean {
  if (colours.length !== graph.order) return false;
  if (!colours.every((c) => Number.isInteger(c) && c >= 0 && c < k)) return false;
  if (new Set(colours).size !== k) return false;
  return graph.edges.every(([u, v]) => colours[u] !== colours[v]);
}

/**
 * Chromatic number by dynamic programming over vertex subsets: the fewest independent sets
 * covering S is 1 + the fewest covering S minus some independent set holding S's lowest vertex.
 */
function bruteForce(graph: IndexedGraph): number {
  const n = graph.order;
  const full = (1 << n) - 1;
  const adjacent = Array.from({ length: n }, () => 0);
  for (const [u, v] of graph.edges) {
    adjacent[u] = (adjacent[u] as number) | (1 << v);
    adjacent[v] = (adjacent[v] as number) | (1 << u);
  }
  const independent: boolean[] = [];
  for (let mask = 0; mask <= full; mask++) {
    let ok = true;
    for (let v = 0; v < n && ok; v++) if (mask & (1 << v)) ok = ((adjacent[v] as number) & mask) === 0;
    independent.push(ok);
  }
  const fewest: number[] = [0];
  for (let mask = 1; mask <= full; mask++) {
    const lowest = mask & -mask;
    let best = Number.POSITIVE_INFINITY;
    for (let part = mask; part > 0; part = (part - 1) & mask) {
      if ((part & lowest) !== 0 && independent[part] === true) best = Math.min(best, 1 + (fewest[mask ^ part] as number));
    }
    fewest.push(best);
  }
  return fewest[full] as number;
}

/** The bound invariants every result must satisfy, budgeted or not, with the witness checked. */
function expectValid(graph: IndexedGraph, result: BoundedOptimum<number[]>): void {
  expect(Number.isInteger(result.lower_bound) && Number.isInteger(result.upper_bound)).toBe(true);
  expect(result.lower_bound).toBeLessThanOrEqual(result.upper_bound);
  expect(result.exhaustive).toBe(result.lower_bound === result.upper_bound);
  expect(isProperColouring(graph, result.witness, result.upper_bound)).toBe(true);
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

describe('chromaticNumber', () => {
  it('handles order 0 and 1', () => {
    expect(chromaticNumber(emptyGraph(0), UNBOUNDED)).toMatchObject({ witness: [], lower_bound: 0, upper_bound: 0, exhaustive: true });
    expect(chromaticNumber(emptyGraph(1), UNBOUNDED)).toMatchObject({ witness: [0], lower_bound: 1, upper_bound: 1, exhaustive: true });
  });

  it('finds the known chromatic numbers', () => {
    const cases: [string, IndexedGraph, number][] = [
      ['Petersen', PETERSEN, 3],
      ['Mycielski M2 = K2', mycielski(completeGraph(1)), 2],
      ['Mycielski M3 = C5', mycielski(completeGraph(2)), 3],
      ['Grötzsch', GROETZSCH, 4],
      ['Mycielski M5', mycielski(GROETZSCH), 5],
      ['K_{3,5}', completeBipartite(3, 5), 2],
      ['K_{1,1}', completeBipartite(1, 1), 2],
      ['K_{6,6}', completeBipartite(6, 6), 2],
      ['empty 9', emptyGraph(9), 1],
      ['empty 256', emptyGraph(256), 1],
      ['C256', cycle(256), 2],
      ['C255', cycle(255), 3],
      ['K256', completeGraph(256), 256],
      ...[3, 4, 5, 6, 7, 12, 13].map((n): [string, IndexedGraph, number] => [`C${n}`, cycle(n), n % 2 === 0 ? 2 : 3]),
      ...[2, 3, 5, 8, 13].map((n): [string, IndexedGraph, number] => [`K${n}`, completeGraph(n), n]),
    ];
    for (const [name, graph, expected] of cases) {
      const result = chromaticNumber(graph, UNBOUNDED);
      expect({ name, chromatic: result.upper_bound }).toEqual({ name, chromatic: expected });
      expect(result.exhaustive).toBe(true);
      expectValid(graph, result);
    }
  });

  it('proves the Grötzsch graph needs four colours although its largest clique is an edge', () => {
    expect(maximumClique(GROETZSCH, UNBOUNDED).lower_bound).toBe(2);
    const control = recorder();
    const result = chromaticNumber(GROETZSCH, control);
    expect(result).toMatchObject({ lower_bound: 4, upper_bound: 4, exhaustive: true });
    // The clique bound comes first; only the finished search lifts the lower bound to 4.
    expect(control.reports[0]?.lower_bound).toBe(2);
    expectReports(control.reports, result);
  });

  it('matches brute force on random graphs of order at most 10', () => {
    fc.assert(
      fc.property(smallGraph, (graph) => {
        const result = chromaticNumber(graph, UNBOUNDED);
        expectValid(graph, result);
        expect(result.exhaustive).toBe(true);
        expect(result.upper_bound).toBe(bruteForce(graph));
      }),
      { numRuns: 400 },
    );
  });

  it('matches brute force on seeded random graphs of order 11 to 14', () => {
    for (let seed = 1; seed <= 24; seed++) {
      const graph = randomGraph(11 + (seed % 4), [0.25, 0.5, 0.75][seed % 3] as number, seed);
      const result = chromaticNumber(graph, UNBOUNDED);
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
          expect(chromaticNumber(relabelled, UNBOUNDED).upper_bound).toBe(chromaticNumber(graph, UNBOUNDED).upper_bound);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is deterministic', () => {
    const graph = randomGraph(45, 0.5, 9);
    expect(chromaticNumber(graph, UNBOUNDED)).toEqual(chromaticNumber(graph, UNBOUNDED));
  });

  it('reports bounds only when they change, monotonically, ending at the result', () => {
    for (const graph of [randomGraph(45, 0.5, 4), PETERSEN, cycle(9), completeGraph(4)]) {
      const control = recorder();
      const result = chromaticNumber(graph, control);
      expectReports(control.reports, result);
    }
  });

  it('stops on budget with a proper colouring and bounds that bracket the optimum', () => {
    const graph = randomGraph(120, 0.5, 12);
    const omega = maximumClique(graph, UNBOUNDED);
    expect(omega.exhaustive).toBe(true);
    for (const calls of [0, 1, 3, 30, 100]) {
      const control = stopAfter(calls);
      const reports: { lower_bound: number; upper_bound: number }[] = [];
      control.onBounds = (bounds) => reports.push({ ...bounds });
      const result = chromaticNumber(graph, control);
      expect(control.polls).toBe(calls + 1);
      expect(result.exhaustive).toBe(false);
      expectValid(graph, result);
      // The lower bound is a clique, so it cannot exceed the clique number.
      expect(result.lower_bound).toBeGreaterThanOrEqual(2);
      expect(result.lower_bound).toBeLessThanOrEqual(omega.lower_bound);
      expectReports(reports, result);
    }
  });

  it('finishes G(40, 0.5) without a budget', () => {
    for (const seed of [40, 41, 42]) {
      const graph = randomGraph(40, 0.5, seed);
      const result = chromaticNumber(graph, UNBOUNDED);
      expect(result.exhaustive).toBe(true);
      expectValid(graph, result);
      expect(result.upper_bound).toBeGreaterThanOrEqual(maximumClique(graph, UNBOUNDED).lower_bound);
    }
  });
});
