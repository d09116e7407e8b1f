import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { complement, maximumClique, maximumIndependentSet } from './clique.js';
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
  mycielski,
  PETERSEN,
  randomGraph,
  stopAfter,
  stopAfterRecording,
} from '../test-graphs.js';

// ---------------------------------------------------------------------------------------------
// Plain checkers, written independently of the code under test (shared builders: ../test-graphs.ts).

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
  const adjacent = adjacencyMasks(graph);
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

/** The bound invariants every result must satisfy, budgeted or not, and a witness of lower_bound vertices. */
function expectBounds(result: BoundedOptimum<number[]>): void {
  expectBoundInvariants(result);
  expect(result.witness.length).toBe(result.lower_bound);
}

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
      fc.property(arbitrarySmallGraph, (graph) => {
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
    const random = randomGraph(256, 0.3, mulberry32(256));
    const result = maximumClique(random, UNBOUNDED);
    expectBounds(result);
    expect(result.exhaustive).toBe(true);
    expect(isClique(random, result.witness)).toBe(true);
  });

  it('matches brute force on random graphs of order at most 10', () => {
    fc.assert(
      fc.property(arbitrarySmallGraph, (graph) => {
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
      const graph = randomGraph(20 + (seed % 26), [0.2, 0.5, 0.8][seed % 3] as number, mulberry32(seed));
      const result = maximumClique(graph, UNBOUNDED);
      expect(isClique(graph, result.witness)).toBe(true);
      expect(result.lower_bound).toBe(bronKerbosch(graph));
    }
  });

  it('does not depend on vertex labels', () => {
    expectLabelInvariant((graph) => maximumClique(graph, UNBOUNDED).lower_bound);
  });

  it('is deterministic', () => {
    const graph = randomGraph(90, 0.6, mulberry32(7));
    expect(maximumClique(graph, UNBOUNDED)).toEqual(maximumClique(graph, UNBOUNDED));
  });

  it('reports bounds only when they change, monotonically, ending at the result', () => {
    expectReportsOn([randomGraph(150, 0.5, mulberry32(3)), PETERSEN, completeGraph(4)], maximumClique);
  });

  it('stops on budget with a valid witness and bounds that bracket the optimum', () => {
    const graph = randomGraph(160, 0.8, mulberry32(11));
    const exact = maximumClique(graph, UNBOUNDED);
    expect(exact.exhaustive).toBe(true);
    expect(exact.nodes).toBeGreaterThan(20_000);
    for (const calls of [0, 1, 5, 15]) {
      const control = stopAfterRecording(calls);
      const result = maximumClique(graph, control);
      expect(control.polls).toBe(calls + 1);
      expect(result.exhaustive).toBe(false);
      expectBounds(result);
      expect(isClique(graph, result.witness)).toBe(true);
      expect(result.lower_bound).toBeLessThanOrEqual(exact.lower_bound);
      expect(result.upper_bound).toBeGreaterThanOrEqual(exact.lower_bound);
      expect(result.nodes).toBe((calls + 1) * 1024);
      expectReports(control.reports, result);
    }
  });

  it('finishes G(200, 0.5) without a budget', () => {
    const graph = randomGraph(200, 0.5, mulberry32(200));
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
      fc.property(arbitrarySmallGraph, (graph) => {
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
    const graph = randomGraph(200, 0.05, mulberry32(5));
    const result = maximumIndependentSet(graph, stopAfter(2));
    expect(result.exhaustive).toBe(false);
    expectBounds(result);
    expect(isIndependent(graph, result.witness)).toBe(true);
    expect(result.lower_bound).toBeGreaterThan(50);
  });
});
