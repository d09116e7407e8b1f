import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minimumDominatingSet } from './domination.js';
import { UNBOUNDED, type BoundedOptimum, type IndexedGraph } from './search.js';
import {
  adjacencyMasks,
  arbitrarySmallGraph,
  completeBipartite,
  completeGraph,
  cycle,
  emptyGraph,
  expectBoundInvariants,
  expectLabelInvariant,
  expectReports,
  expectReportsOn,
  graphOf,
  GROETZSCH,
  mulberry32,
  path,
  PETERSEN,
  randomGraph,
  stopAfter,
  stopAfterRecording,
} from '../test-graphs.js';

// ---------------------------------------------------------------------------------------------
// Graph builders and plain checkers, written independently of the code under test (shared
// builders: ../test-graphs.ts).

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
  const closed = adjacencyMasks(graph).map((mask, v) => mask | (1 << v));
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
  expectBoundInvariants(result);
  expect(result.witness.length).toBe(result.upper_bound);
  expect(isDominating(graph, result.witness)).toBe(true);
}


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
      fc.property(arbitrarySmallGraph, (graph) => {
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
      const graph = randomGraph(11 + (seed % 6), [0.1, 0.2, 0.35][seed % 3] as number, mulberry32(seed));
      const result = minimumDominatingSet(graph, UNBOUNDED);
      expectValid(graph, result);
      expect(result.upper_bound).toBe(bruteForce(graph));
    }
  });

  it('does not depend on vertex labels', () => {
    expectLabelInvariant((graph) => minimumDominatingSet(graph, UNBOUNDED).upper_bound);
  });

  it('is deterministic', () => {
    const graph = randomGraph(60, 0.1, mulberry32(9));
    expect(minimumDominatingSet(graph, UNBOUNDED)).toEqual(minimumDominatingSet(graph, UNBOUNDED));
  });

  it('reports bounds only when they change, monotonically, ending at the result', () => {
    expectReportsOn([randomGraph(60, 0.1, mulberry32(4)), PETERSEN, cycle(9), completeGraph(4)], minimumDominatingSet);
  });

  it('stops on budget with a dominating set and bounds that bracket the optimum', () => {
    const graph = randomGraph(80, 0.06, mulberry32(22));
    const exact = minimumDominatingSet(graph, UNBOUNDED);
    expect(exact.exhaustive).toBe(true);
    expect(exact.nodes).toBeGreaterThan(20_000);
    for (const calls of [0, 1, 5, 15]) {
      const control = stopAfterRecording(calls);
      const result = minimumDominatingSet(graph, control);
      expect(control.polls).toBe(calls + 1);
      expect(result.exhaustive).toBe(false);
      expectValid(graph, result);
      expect(result.lower_bound).toBeLessThanOrEqual(exact.upper_bound);
      expect(result.upper_bound).toBeGreaterThanOrEqual(exact.upper_bound);
      expectReports(control.reports, result);
    }
  });

  it('stops on budget on a large sparse graph', () => {
    const graph = randomGraph(200, 0.03, mulberry32(8));
    const result = minimumDominatingSet(graph, stopAfter(3));
    expect(result.exhaustive).toBe(false);
    expectValid(graph, result);
  });
});
