// Graph builders and plain checks shared by the graph tests (the invariant, symmetry and format
// tests and the nauty provider's), written independently of the code under test, with the
// automorphism group orders the literature gives the named graphs. Test support only: never
// imported by product code (and, not being a *.test.ts file, never run as a test itself). The
// helpers that need nauty are in nauty-test-support.ts, so this module imports no provider.
import fc from 'fast-check';
import { expect } from 'vitest';
import type { BoundedOptimum, IndexedGraph, SearchControl } from './invariants/search.js';

export type Edge = [number, number];

/** A pair of bounds as a search reports it. */
export type Bounds = { lower_bound: number; upper_bound: number };

// ---------------------------------------------------------------------------------------------
// Canonical graphs and seeded randomness

/** A graph in canonical form (u < v, sorted, no duplicates, no loops) from any list of vertex pairs. */
export function graphOf(order: number, pairs: Iterable<readonly [number, number]>): IndexedGraph {
  const keys = new Set<string>();
  const edges: Edge[] = [];
  for (const [a, b] of pairs) {
    const [u, v] = a < b ? [a, b] : [b, a];
    if (u === v || keys.has(`${u},${v}`)) continue;
    keys.add(`${u},${v}`);
    edges.push([u, v]);
  }
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return { order, edges };
}

/**
 * The mulberry32 generator: uniform draws in [0, 1), the same sequence for the same seed (so the
 * "random" graphs and permutations are the same on every run).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit linear congruential generator (Numerical Recipes constants): uniform draws in [0, 1). */
export function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/**
 * G(n, p) drawn from `random` (seed it with {@link mulberry32} or {@link lcg}, so every run sees
 * the same graphs): each pair u < v, in canonical order, is an edge when its draw is below `density`.
 */
export function randomGraph(order: number, density: number, random: () => number): IndexedGraph {
  const edges: Edge[] = [];
  for (let u = 0; u < order; u++) for (let v = u + 1; v < order; v++) if (random() < density) edges.push([u, v]);
  return { order, edges };
}

/** A uniformly random permutation of 0..n-1 (Fisher–Yates, from the top, drawing from `random`). */
export function randomPermutation(n: number, random: () => number): number[] {
  const items = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as number, items[i] as number];
  }
  return items;
}

/** The same graph with vertex v renamed to permutation[v], in canonical form. */
export function relabel(graph: IndexedGraph, permutation: readonly number[]): IndexedGraph {
  const image = (v: number): number => {
    const w = permutation[v];
    if (w === undefined) throw new RangeError(`the permutation has no image for vertex ${v}`);
    return w;
  };
  return graphOf(graph.order, graph.edges.map(([u, v]): Edge => [image(u), image(v)]));
}

// ---------------------------------------------------------------------------------------------
// Named graphs and families

/** K_n: |Aut| = n!. */
export const completeGraph = (n: number): IndexedGraph => {
  const edges: Edge[] = [];
  for (let u = 0; u < n; u++) for (let v = u + 1; v < n; v++) edges.push([u, v]);
  return { order: n, edges };
};
/** n vertices, no edges: |Aut| = n!. */
export const emptyGraph = (n: number): IndexedGraph => ({ order: n, edges: [] });
/** C_n (n ≥ 3): |Aut| = 2n, the dihedral group. */
export const cycle = (n: number): IndexedGraph => graphOf(n, Array.from({ length: n }, (_, i): Edge => [i, (i + 1) % n]));
/** P_n (n ≥ 2): |Aut| = 2. */
export const path = (n: number): IndexedGraph => graphOf(n, Array.from({ length: Math.max(0, n - 1) }, (_, i): Edge => [i, i + 1]));

/** K_{a,b}: the first `a` vertices on one side, the next `b` on the other. |Aut| = a!·b!, doubled when a = b. */
export function completeBipartite(a: number, b: number): IndexedGraph {
  const pairs: Edge[] = [];
  for (let u = 0; u < a; u++) for (let j = 0; j < b; j++) pairs.push([u, a + j]);
  return graphOf(a + b, pairs);
}

/** The hypercube Q_d: vertices 0..2^d-1, adjacent when they differ in one bit. |Aut| = 2^d · d!. */
export function hypercube(d: number): IndexedGraph {
  const pairs: Edge[] = [];
  for (let u = 0; u < 1 << d; u++) for (let b = 0; b < d; b++) pairs.push([u, u ^ (1 << b)]);
  return graphOf(1 << d, pairs);
}

/** The friendship graph F_k: k triangles 0-(2i+1)-(2i+2) sharing vertex 0. */
export function friendshipGraph(k: number): IndexedGraph {
  const pairs: Edge[] = [];
  for (let i = 0; i < k; i++) pairs.push([0, 2 * i + 1], [0, 2 * i + 2], [2 * i + 1, 2 * i + 2]);
  return graphOf(2 * k + 1, pairs);
}

/** The Mycielskian: triangle-free stays triangle-free, chromatic number goes up by one. */
export function mycielski(graph: IndexedGraph): IndexedGraph {
  const n = graph.order;
  const pairs: Edge[] = [...graph.edges];
  for (const [u, v] of graph.edges) pairs.push([u, n + v], [v, n + u]);
  for (let i = 0; i < n; i++) pairs.push([n + i, 2 * n]);
  return graphOf(2 * n + 1, pairs);
}

/** The Petersen graph: outer 5-cycle 0..4, spokes i ~ i+5, inner pentagram 5..9. |Aut| = 120 (S_5 on 2-subsets). */
export const PETERSEN = graphOf(10, [
  [0, 1], [1, 2], [2, 3], [3, 4], [4, 0],
  [0, 5], [1, 6], [2, 7], [3, 8], [4, 9],
  [5, 7], [7, 9], [9, 6], [6, 8], [8, 5],
]);

/** The Grötzsch graph, the Mycielskian of C5: triangle-free with chromatic number 4. */
export const GROETZSCH = mycielski(cycle(5));

/** n! as a bigint. */
export function factorial(n: number): bigint {
  let f = 1n;
  for (let k = 2n; k <= BigInt(n); k++) f *= k;
  return f;
}

/** Named graphs with their automorphism group orders (standard values; see e.g. Godsil & Royle). */
export function namedGraphs(maxOrder: number): { name: string; graph: IndexedGraph; order: bigint }[] {
  const all = [
    { name: 'K_1', graph: completeGraph(1), order: 1n },
    { name: 'K_2', graph: completeGraph(2), order: 2n },
    { name: 'K_5', graph: completeGraph(5), order: 120n },
    { name: 'K_8', graph: completeGraph(8), order: factorial(8) },
    { name: 'K_20', graph: completeGraph(20), order: factorial(20) },
    { name: 'K_64', graph: completeGraph(64), order: factorial(64) },
    { name: 'K_256', graph: completeGraph(256), order: factorial(256) },
    { name: 'empty graph on 7 vertices', graph: emptyGraph(7), order: factorial(7) },
    { name: 'C_3', graph: cycle(3), order: 6n },
    { name: 'C_5', graph: cycle(5), order: 10n },
    { name: 'C_12', graph: cycle(12), order: 24n },
    { name: 'C_64', graph: cycle(64), order: 128n },
    { name: 'C_200', graph: cycle(200), order: 400n },
    { name: 'P_6', graph: path(6), order: 2n },
    { name: 'Petersen', graph: PETERSEN, order: 120n },
    { name: 'cube Q_3', graph: hypercube(3), order: 48n },
    { name: 'Q_4', graph: hypercube(4), order: 384n },
    { name: 'Q_6', graph: hypercube(6), order: 46080n },
    { name: 'Q_8', graph: hypercube(8), order: 10321920n },
    { name: 'K_{3,4}', graph: completeBipartite(3, 4), order: 144n },
    { name: 'K_{4,4}', graph: completeBipartite(4, 4), order: 1152n },
  ];
  return all.filter((entry) => entry.graph.order <= maxOrder);
}

/** Bit v of masks[u] is set when u ~ v (for brute force over vertex subsets, order below 31). */
export function adjacencyMasks(graph: IndexedGraph): number[] {
  const masks = Array.from({ length: graph.order }, () => 0);
  for (const [u, v] of graph.edges) {
    masks[u] = (masks[u] as number) | (1 << v);
    masks[v] = (masks[v] as number) | (1 << u);
  }
  return masks;
}

// ---------------------------------------------------------------------------------------------
// fast-check arbitraries

/** A random graph of order 0..10, each pair an edge with a random per-graph probability. */
export const arbitrarySmallGraph = fc
  .tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 100 }))
  .chain(([order, density]) =>
    fc.array(fc.integer({ min: 0, max: 99 }), { minLength: (order * (order - 1)) / 2, maxLength: (order * (order - 1)) / 2 }).map((draws) => {
      const pairs: Edge[] = [];
      let k = 0;
      for (let u = 0; u < order; u++) for (let v = u + 1; v < order; v++) if ((draws[k++] as number) < density) pairs.push([u, v]);
      return graphOf(order, pairs);
    }),
  );

/** An {@link arbitrarySmallGraph} with a random permutation of its vertices (for {@link relabel}). */
const arbitrarySmallGraphAndPermutation = arbitrarySmallGraph.chain((graph) =>
  fc.tuple(fc.constant(graph), fc.shuffledSubarray([...Array(graph.order).keys()], { minLength: graph.order })),
);

// ---------------------------------------------------------------------------------------------
// Search controls and the bound invariants of budgeted searches

/** A control that says stop from its (calls+1)-th poll on, counting polls. */
export function stopAfter(calls: number): SearchControl & { polls: number } {
  const control = {
    polls: 0,
    shouldStop: (): boolean => ++control.polls > calls,
  };
  return control;
}

/** {@link stopAfter}, also recording every bounds report. */
export function stopAfterRecording(calls: number): SearchControl & { polls: number; reports: Bounds[] } {
  const reports: Bounds[] = [];
  return Object.assign(stopAfter(calls), { reports, onBounds: (bounds: Bounds) => reports.push({ ...bounds }) });
}

/** A never-stopping control that records every bounds report. */
export function recorder(): SearchControl & { reports: Bounds[] } {
  const reports: Bounds[] = [];
  return { reports, shouldStop: () => false, onBounds: (bounds) => reports.push({ ...bounds }) };
}

/** The bound invariants every result must satisfy, budgeted or not (the witness is the caller's to check). */
export function expectBoundInvariants(result: BoundedOptimum<unknown>): void {
  expect(Number.isInteger(result.lower_bound) && Number.isInteger(result.upper_bound)).toBe(true);
  expect(result.lower_bound).toBeLessThanOrEqual(result.upper_bound);
  expect(result.exhaustive).toBe(result.lower_bound === result.upper_bound);
  expect(result.nodes).toBeGreaterThanOrEqual(0);
}

/** Reports only on change, lower never falls, upper never rises, and the last one is the result. */
export function expectReports(reports: readonly Bounds[], result: BoundedOptimum<unknown>): void {
  expect(reports.length).toBeGreaterThan(0);
  for (let i = 0; i < reports.length; i++) {
    const report = reports[i] as Bounds;
    expect(report.lower_bound).toBeLessThanOrEqual(report.upper_bound);
    if (i === 0) continue;
    const previous = reports[i - 1] as Bounds;
    expect(report).not.toEqual(previous);
    expect(report.lower_bound).toBeGreaterThanOrEqual(previous.lower_bound);
    expect(report.upper_bound).toBeLessThanOrEqual(previous.upper_bound);
  }
  expect(reports.at(-1)).toEqual({ lower_bound: result.lower_bound, upper_bound: result.upper_bound });
}

/** For each graph, a search watched by {@link recorder} reports its bounds as {@link expectReports} demands. */
export function expectReportsOn(
  graphs: readonly IndexedGraph[],
  search: (graph: IndexedGraph, control: SearchControl) => BoundedOptimum<unknown>,
): void {
  for (const graph of graphs) {
    const control = recorder();
    const result = search(graph, control);
    expectReports(control.reports, result);
  }
}

/** Property (200 small random graphs): `value` does not change when the vertices are relabelled. */
export function expectLabelInvariant(value: (graph: IndexedGraph) => number): void {
  fc.assert(
    fc.property(arbitrarySmallGraphAndPermutation, ([graph, permutation]) => {
      expect(value(relabel(graph, permutation))).toBe(value(graph));
    }),
    { numRuns: 200 },
  );
}
