import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maximumClique } from './clique.js';
import { chromaticNumber } from './colouring.js';
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
  GROETZSCH,
  mulberry32,
  mycielski,
  PETERSEN,
  randomGraph,
  recorder,
  stopAfterRecording,
} from '../test-graphs.js';

// ---------------------------------------------------------------------------------------------
// Plain checkers, written independently of the code under test (shared builders: ../test-graphs.ts).

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
  const adjacent = adjacencyMasks(graph);
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
  expectBoundInvariants(result);
  expect(isProperColouring(graph, result.witness, result.upper_bound)).toBe(true);
}

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
      fc.property(arbitrarySmallGraph, (graph) => {
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
      const graph = randomGraph(11 + (seed % 4), [0.25, 0.5, 0.75][seed % 3] as number, mulberry32(seed));
      const result = chromaticNumber(graph, UNBOUNDED);
      expectValid(graph, result);
      expect(result.upper_bound).toBe(bruteForce(graph));
    }
  });

  it('does not depend on vertex labels', () => {
    expectLabelInvariant((graph) => chromaticNumber(graph, UNBOUNDED).upper_bound);
  });

  it('is deterministic', () => {
    const graph = randomGraph(45, 0.5, mulberry32(9));
    expect(chromaticNumber(graph, UNBOUNDED)).toEqual(chromaticNumber(graph, UNBOUNDED));
  });

  it('reports bounds only when they change, monotonically, ending at the result', () => {
    expectReportsOn([randomGraph(45, 0.5, mulberry32(4)), PETERSEN, cycle(9), completeGraph(4)], chromaticNumber);
  });

  it('stops on budget with a proper colouring and bounds that bracket the optimum', () => {
    const graph = randomGraph(120, 0.5, mulberry32(12));
    const omega = maximumClique(graph, UNBOUNDED);
    expect(omega.exhaustive).toBe(true);
    for (const calls of [0, 1, 3, 30, 100]) {
      const control = stopAfterRecording(calls);
      const result = chromaticNumber(graph, control);
      expect(control.polls).toBe(calls + 1);
      expect(result.exhaustive).toBe(false);
      expectValid(graph, result);
      // The lower bound is a clique, so it cannot exceed the clique number.
      expect(result.lower_bound).toBeGreaterThanOrEqual(2);
      expect(result.lower_bound).toBeLessThanOrEqual(omega.lower_bound);
      expectReports(control.reports, result);
    }
  });

  it('finishes G(40, 0.5) without a budget', () => {
    for (const seed of [40, 41, 42]) {
      const graph = randomGraph(40, 0.5, mulberry32(seed));
      const result = chromaticNumber(graph, UNBOUNDED);
      expect(result.exhaustive).toBe(true);
      expectValid(graph, result);
      expect(result.upper_bound).toBeGreaterThanOrEqual(maximumClique(graph, UNBOUNDED).lower_bound);
    }
  });
});
