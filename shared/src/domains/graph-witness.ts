/**
 * Plain checks of graph witnesses: does this vertex set, colouring, edge set or walk have the
 * property claimed? Each returns null when the witness is valid and otherwise the first
 * violation in words, so a producer can refuse a wrong solver answer and a checker can say why
 * it rejects. They share no code with the searches that produce witnesses.
 */
import { fileURLToPath } from 'node:url';
import type { IndexedGraph } from './graph.js';

/** Adjacency of a graph as a set of `u*order+v` keys (both directions), for O(1) edge tests. */
export class EdgeIndex {
  readonly order: number;
  private readonly keys: Set<number>;
  constructor(graph: IndexedGraph) {
    this.order = graph.order;
    this.keys = new Set();
    for (const [u, v] of graph.edges) {
      this.keys.add(u * graph.order + v);
      this.keys.add(v * graph.order + u);
    }
  }
  has(u: number, v: number): boolean {
    return this.keys.has(u * this.order + v);
  }
}

function vertexProblem(order: number, vertices: readonly number[], what: string): string | null {
  const seen = new Set<number>();
  for (const [i, v] of vertices.entries()) {
    if (!Number.isInteger(v) || v < 0 || v >= order) return `${what}[${i}] = ${v} is not a vertex (0..${order - 1})`;
    if (seen.has(v)) return `${what}[${i}] = ${v} is repeated`;
    seen.add(v);
  }
  return null;
}

/** Every two vertices of `vertices` are adjacent. */
export function checkClique(graph: IndexedGraph, vertices: readonly number[]): string | null {
  const problem = vertexProblem(graph.order, vertices, 'vertices');
  if (problem !== null) return problem;
  const index = new EdgeIndex(graph);
  for (let i = 0; i < vertices.length; i++) {
    for (let j = i + 1; j < vertices.length; j++) {
      if (!index.has(vertices[i] as number, vertices[j] as number)) return `vertices ${vertices[i]} and ${vertices[j]} are not adjacent`;
    }
  }
  return null;
}

/** No two vertices of `vertices` are adjacent. */
export function checkIndependentSet(graph: IndexedGraph, vertices: readonly number[]): string | null {
  const problem = vertexProblem(graph.order, vertices, 'vertices');
  if (problem !== null) return problem;
  const members = new Set(vertices);
  for (const [u, v] of graph.edges) {
    if (members.has(u) && members.has(v)) return `vertices ${u} and ${v} are adjacent`;
  }
  return null;
}

/** `colours[v]` in 0..k-1 for every vertex, adjacent vertices coloured differently. */
export function checkColouring(graph: IndexedGraph, colours: readonly number[], k: number): string | null {
  if (colours.length !== graph.order) return `the colouring has ${colours.length} entries, the graph ${graph.order} vertices`;
  for (const [v, c] of colours.entries()) {
    if (!Number.isInteger(c) || c < 0 || c >= k) return `vertex ${v} has colour ${c}, outside 0..${k - 1}`;
  }
  for (const [u, v] of graph.edges) {
    if (colours[u] === colours[v]) return `adjacent vertices ${u} and ${v} both have colour ${colours[u]}`;
  }
  return null;
}

/** Every vertex is in `vertices` or adjacent to one of them. */
export function checkDominatingSet(graph: IndexedGraph, vertices: readonly number[]): string | null {
  const problem = vertexProblem(graph.order, vertices, 'vertices');
  if (problem !== null) return problem;
  const dominated = new Uint8Array(graph.order);
  for (const v of vertices) dominated[v] = 1;
  const members = new Set(vertices);
  for (const [u, v] of graph.edges) {
    if (members.has(u)) dominated[v] = 1;
    if (members.has(v)) dominated[u] = 1;
  }
  const missed = dominated.indexOf(0);
  return missed === -1 ? null : `vertex ${missed} is neither in the set nor adjacent to it`;
}

function edgeProblem(index: EdgeIndex, edges: readonly (readonly [number, number])[]): string | null {
  const seen = new Set<number>();
  for (const [i, [u, v]] of edges.entries()) {
    if (!index.has(u, v)) return `edges[${i}] = [${u}, ${v}] is not an edge of the graph`;
    const key = Math.min(u, v) * index.order + Math.max(u, v);
    if (seen.has(key)) return `edges[${i}] = [${u}, ${v}] is repeated`;
    seen.add(key);
  }
  return null;
}

/** Edges of the graph, pairwise disjoint. */
export function checkMatching(graph: IndexedGraph, edges: readonly (readonly [number, number])[]): string | null {
  const problem = edgeProblem(new EdgeIndex(graph), edges);
  if (problem !== null) return problem;
  const covered = new Map<number, number>();
  for (const [i, [u, v]] of edges.entries()) {
    for (const end of [u, v]) {
      const earlier = covered.get(end);
      if (earlier !== undefined) return `edges[${earlier}] and edges[${i}] share vertex ${end}`;
      covered.set(end, i);
    }
  }
  return null;
}

/** Connected components of the graph without `removedVertices` and `removedEdges`. */
export function componentCount(
  graph: IndexedGraph,
  removedVertices: ReadonlySet<number> = new Set(),
  removedEdges: ReadonlySet<number> = new Set(),
): number {
  const parent = Array.from({ length: graph.order }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      const up = parent[parent[x] as number] as number;
      parent[x] = up;
      x = up;
    }
    return x;
  };
  let components = graph.order - removedVertices.size;
  for (const [u, v] of graph.edges) {
    if (removedVertices.has(u) || removedVertices.has(v) || removedEdges.has(u * graph.order + v)) continue;
    const a = find(u);
    const b = find(v);
    if (a !== b) {
      parent[a] = b;
      components--;
    }
  }
  return components;
}

/** Removing `vertices` leaves a disconnected graph (at least two vertices remain, not all joined). */
export function checkSeparator(graph: IndexedGraph, vertices: readonly number[]): string | null {
  const problem = vertexProblem(graph.order, vertices, 'vertices');
  if (problem !== null) return problem;
  if (graph.order - vertices.length < 2) return 'fewer than two vertices remain after removing the set';
  return componentCount(graph, new Set(vertices)) >= 2 ? null : 'the graph stays connected after removing the set';
}

/** Removing `edges` leaves a disconnected graph. */
export function checkEdgeCut(graph: IndexedGraph, edges: readonly (readonly [number, number])[]): string | null {
  const problem = edgeProblem(new EdgeIndex(graph), edges);
  if (problem !== null) return problem;
  const removed = new Set(edges.map(([u, v]) => Math.min(u, v) * graph.order + Math.max(u, v)));
  return componentCount(graph, new Set(), removed) >= 2 ? null : 'the graph stays connected after removing the edges';
}

/** `walk` visits distinct vertices, each adjacent to the next (and the last to the first when `closed`). */
export function checkPath(graph: IndexedGraph, walk: readonly number[], closed: boolean): string | null {
  const problem = vertexProblem(graph.order, walk, 'vertices');
  if (problem !== null) return problem;
  if (closed && walk.length < 3) return `a cycle needs at least 3 vertices, got ${walk.length}`;
  const index = new EdgeIndex(graph);
  const steps = closed ? walk.length : walk.length - 1;
  for (let i = 0; i < steps; i++) {
    const u = walk[i] as number;
    const v = walk[(i + 1) % walk.length] as number;
    if (!index.has(u, v)) return `consecutive vertices ${u} and ${v} are not adjacent`;
  }
  return null;
}

/** A Hamiltonian path (or cycle): a path through every vertex exactly once. */
export function checkHamiltonian(graph: IndexedGraph, walk: readonly number[], closed: boolean): string | null {
  if (walk.length !== graph.order) return `the ${closed ? 'cycle' : 'path'} visits ${walk.length} of the ${graph.order} vertices`;
  return checkPath(graph, walk, closed);
}

/** `edges` are order-1 edges of the graph that join all its vertices (so they form a tree). */
export function checkSpanningTree(graph: IndexedGraph, edges: readonly (readonly [number, number])[]): string | null {
  const problem = edgeProblem(new EdgeIndex(graph), edges);
  if (problem !== null) return problem;
  if (graph.order === 0) return 'the graph with no vertices has no spanning tree';
  if (edges.length !== graph.order - 1) return `a spanning tree of ${graph.order} vertices has ${graph.order - 1} edges, got ${edges.length}`;
  const tree: IndexedGraph = { order: graph.order, edges: edges.map(([u, v]) => (u < v ? [u, v] : [v, u])) };
  return componentCount(tree) === 1 ? null : 'the edges do not connect every vertex';
}

/** This file's path: graph providers and checkers include it in their source identity. */
export const GRAPH_WITNESS_SOURCE: string = fileURLToPath(import.meta.url);
