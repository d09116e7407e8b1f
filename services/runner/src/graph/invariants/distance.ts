/**
 * Distance invariants of unweighted graphs, all from breadth-first search: eccentricities,
 * diameter (with a diametral shortest path), radius (with a centre) and girth (with a shortest
 * cycle). One BFS per vertex costs O(V (V + E)), about 8.5 million steps at 256 vertices.
 */
import { adjacencyLists, type IndexedGraph } from './search.js';

/** Diameter with a witness; see {@link diameter}. */
export interface Diameter {
  value: number | null;
  endpoints: [number, number] | null;
  path: number[] | null;
}

/** Radius with a witness; see {@link radius}. */
export interface Radius {
  value: number | null;
  centre: number | null;
}

/** Girth with a witness; see {@link girth}. */
export interface Girth {
  value: number | null;
  cycle: number[] | null;
}

const UNREACHED = -1;

/**
 * Breadth-first search from `source`: distances (UNREACHED where unreachable) and BFS-tree
 * parents (UNREACHED for the source and unreachable vertices).
 */
function breadthFirst(adjacency: number[][], source: number): { dist: Int32Array; parent: Int32Array } {
  const n = adjacency.length;
  const dist = new Int32Array(n).fill(UNREACHED);
  const parent = new Int32Array(n).fill(UNREACHED);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  dist[source] = 0;
  queue[tail++] = source;
  while (head < tail) {
    const x = queue[head++] ?? 0;
    const next = (dist[x] ?? 0) + 1;
    for (const w of adjacency[x] ?? []) {
      if (dist[w] === UNREACHED) {
        dist[w] = next;
        parent[w] = x;
        queue[tail++] = w;
      }
    }
  }
  return { dist, parent };
}

/**
 * The eccentricity of every vertex (its greatest distance to another vertex), indexed by vertex.
 * `null` when the graph is disconnected, since some distances are then infinite. The graph of
 * order 0 gives `[]` (there is no vertex, hence no infinite distance).
 */
export function eccentricities(graph: IndexedGraph): number[] | null {
  const adjacency = adjacencyLists(graph);
  const result: number[] = [];
  for (let v = 0; v < graph.order; v++) {
    const { dist } = breadthFirst(adjacency, v);
    let farthest = 0;
    for (const d of dist) {
      if (d === UNREACHED) return null;
      if (d > farthest) farthest = d;
    }
    result.push(farthest);
  }
  return result;
}

/**
 * The diameter: the greatest distance between two vertices, with endpoints attaining it and a
 * shortest path between them (`value + 1` vertices, from `endpoints[0]` to `endpoints[1]`).
 *
 * `endpoints[0]` is the smallest vertex of maximum eccentricity and `endpoints[1]` the smallest
 * vertex farthest from it (so `endpoints[0] < endpoints[1]` unless the order is 1, where both
 * are 0 and the path is `[0]`). All fields are `null` when the graph is disconnected (the
 * diameter is infinite) or has order 0 (there is no pair to measure).
 */
export function diameter(graph: IndexedGraph): Diameter {
  const ecc = eccentricities(graph);
  if (ecc === null || ecc.length === 0) return { value: null, endpoints: null, path: null };
  const value = Math.max(...ecc);
  const from = ecc.indexOf(value);
  const { dist, parent } = breadthFirst(adjacencyLists(graph), from);
  const to = dist.indexOf(value);
  const path = [to];
  for (let x = to; x !== from; ) {
    x = parent[x] ?? from;
    path.push(x);
  }
  path.reverse();
  return { value, endpoints: [from, to], path };
}

/**
 * The radius: the least eccentricity, with `centre` the smallest vertex attaining it. Both are
 * `null` when the graph is disconnected (every eccentricity is infinite) or has order 0.
 */
export function radius(graph: IndexedGraph): Radius {
  const ecc = eccentricities(graph);
  if (ecc === null || ecc.length === 0) return { value: null, centre: null };
  const value = Math.min(...ecc);
  return { value, centre: ecc.indexOf(value) };
}

/**
 * The girth: the length of a shortest cycle, with such a cycle as a vertex sequence of `value`
 * distinct vertices (consecutive ones adjacent, the last adjacent to the first). Both are `null`
 * for forests, which have no cycle.
 *
 * Method: a BFS from each root r; every non-tree edge {x, y} closes the cycle formed by the tree
 * paths from x and y up to their lowest common ancestor a. For the root lying on a shortest
 * cycle C, the first non-tree edge met gives dist(x) + dist(y) + 1 = |C| with a = r, and no
 * search ever reports a cycle shorter than the girth, so the minimum over all roots is exact.
 * A search stops once its depth cannot improve the best cycle found.
 */
export function girth(graph: IndexedGraph): Girth {
  const n = graph.order;
  const adjacency = adjacencyLists(graph);
  const dist = new Int32Array(n);
  const parent = new Int32Array(n);
  const queue = new Int32Array(n);
  let best: number[] | null = null;

  for (let root = 0; root < n; root++) {
    // A girth-3 cycle cannot be beaten, so further searches are pointless.
    if (best !== null && best.length === 3) break;
    dist.fill(UNREACHED);
    parent.fill(UNREACHED);
    let head = 0;
    let tail = 0;
    dist[root] = 0;
    queue[tail++] = root;
    search: while (head < tail) {
      const x = queue[head++] ?? 0;
      const dx = dist[x] ?? 0;
      // Any cycle closed from depth dx has length at least 2 dx + 1.
      if (best !== null && 2 * dx + 1 >= best.length) break;
      for (const y of adjacency[x] ?? []) {
        const dy = dist[y] ?? UNREACHED;
        if (dy === UNREACHED) {
          dist[y] = dx + 1;
          parent[y] = x;
          queue[tail++] = y;
        } else if (y !== parent[x] && dy >= dx) {
          // Non-tree edge seen from its shallower (or equally deep) end, so each is seen once.
          if (best === null || dx + dy + 1 < best.length) {
            best = treeCycle(x, y, dist, parent);
            if (best.length === 3) break search;
          }
        }
      }
    }
  }
  return best === null ? { value: null, cycle: null } : { value: best.length, cycle: best };
}

/**
 * The cycle formed by the non-tree edge {x, y} and the BFS-tree paths from x and y to their
 * lowest common ancestor. In a BFS tree a non-tree edge joins vertices whose depths differ by at
 * most 1 and neither is an ancestor of the other, so the cycle has at least 3 distinct vertices.
 */
function treeCycle(x: number, y: number, dist: Int32Array, parent: Int32Array): number[] {
  const fromX = [x];
  const fromY = [y];
  let a = x;
  let b = y;
  while ((dist[a] ?? 0) > (dist[b] ?? 0)) fromX.push((a = parent[a] ?? a));
  while ((dist[b] ?? 0) > (dist[a] ?? 0)) fromY.push((b = parent[b] ?? b));
  while (a !== b) {
    fromX.push((a = parent[a] ?? a));
    fromY.push((b = parent[b] ?? b));
  }
  // fromX runs x .. ancestor, fromY runs y .. ancestor: walk up from x, then down to y.
  fromY.pop();
  return [...fromX, ...fromY.reverse()];
}
