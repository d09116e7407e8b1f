/**
 * Maximum matching in a general (not necessarily bipartite) graph by Edmonds' blossom algorithm.
 *
 * The graph is small (at most 256 vertices), so the classic O(V^3) formulation with explicit
 * blossom bases is used rather than a heavier O(E sqrt V) algorithm: it is short enough to
 * audit, and its witness (the matching itself) is re-checked by the tests against brute force.
 */
import { adjacencyLists, type IndexedGraph } from './search.js';

/** A maximum matching: `size` edges, listed as `[u, v]` with `u < v`, sorted lexicographically. */
export interface MaximumMatching {
  size: number;
  edges: [number, number][];
}

const NONE = -1;

/**
 * A maximum-cardinality matching of `graph` (Edmonds' blossom algorithm, O(V^3)).
 *
 * Starts from a greedy matching, then searches for an augmenting path from every exposed vertex
 * once: by Berge's theorem the result is maximum when no augmenting path remains, and a vertex
 * with no augmenting path never gains one after later augmentations, so one pass suffices.
 */
export function maximumMatching(graph: IndexedGraph): MaximumMatching {
  const n = graph.order;
  const adjacency = adjacencyLists(graph);
  const match = new Int32Array(n).fill(NONE);

  // A greedy start leaves far fewer exposed vertices, hence far fewer blossom searches.
  for (const [u, v] of graph.edges) {
    if (match[u] === NONE && match[v] === NONE) {
      match[u] = v;
      match[v] = u;
    }
  }

  // Per-search state, allocated once. `parent[v]` is the tree predecessor of an odd (outer ->
  // inner) vertex; `base[v]` is the base of the blossom currently containing v.
  const parent = new Int32Array(n);
  const base = new Int32Array(n);
  const inTree = new Uint8Array(n); // even (outer) vertices already queued
  const inBlossom = new Uint8Array(n);
  const onRootPath = new Uint8Array(n);
  const queue = new Int32Array(n);

  const at = (array: Int32Array, index: number): number => array[index] ?? NONE;

  /** Lowest common ancestor, in the contracted alternating tree, of the bases of a and b. */
  const commonBase = (a: number, b: number): number => {
    onRootPath.fill(0);
    for (;;) {
      a = at(base, a);
      onRootPath[a] = 1;
      const mate = at(match, a);
      if (mate === NONE) break; // reached the root, the only exposed vertex in the tree
      a = at(parent, mate);
    }
    for (;;) {
      b = at(base, b);
      if (onRootPath[b] === 1) return b;
      b = at(parent, at(match, b));
    }
  };

  /**
   * Mark the blossom bases on the tree path from v down to the blossom base `top`, and redirect
   * `parent` pointers along it so that an augmenting path can later traverse the blossom in the
   * other direction (entering through `child`).
   */
  const markBlossomPath = (v: number, top: number, child: number): void => {
    while (at(base, v) !== top) {
      const mate = at(match, v);
      inBlossom[at(base, v)] = 1;
      inBlossom[at(base, mate)] = 1;
      parent[v] = child;
      child = mate;
      v = at(parent, mate);
    }
  };

  /** The exposed endpoint of an augmenting path from `root`, or NONE when none exists. */
  const findAugmentingPath = (root: number): number => {
    inTree.fill(0);
    parent.fill(NONE);
    for (let i = 0; i < n; i++) base[i] = i;
    inTree[root] = 1;
    let head = 0;
    let tail = 0;
    queue[tail++] = root;
    while (head < tail) {
      const v = at(queue, head++);
      for (const to of adjacency[v] ?? []) {
        // Edges inside one contracted blossom and the matched edge carry no new information.
        if (at(base, v) === at(base, to) || at(match, v) === to) continue;
        const toMate = at(match, to);
        if (to === root || (toMate !== NONE && at(parent, toMate) !== NONE)) {
          // `to` is even (outer): the edge closes an odd cycle, so contract the blossom.
          const top = commonBase(v, to);
          inBlossom.fill(0);
          markBlossomPath(v, top, to);
          markBlossomPath(to, top, v);
          for (let i = 0; i < n; i++) {
            if (inBlossom[at(base, i)] === 1) {
              base[i] = top;
              // Odd vertices of the blossom become even: they may now grow the tree too.
              if (inTree[i] === 0) {
                inTree[i] = 1;
                queue[tail++] = i;
              }
            }
          }
        } else if (at(parent, to) === NONE) {
          parent[to] = v;
          if (toMate === NONE) return to;
          inTree[toMate] = 1;
          queue[tail++] = toMate;
        }
      }
    }
    return NONE;
  };

  for (let root = 0; root < n; root++) {
    if (at(match, root) !== NONE) continue;
    // Flip the matched/unmatched edges along the augmenting path, walking back to the root.
    let v = findAugmentingPath(root);
    while (v !== NONE) {
      const pv = at(parent, v);
      const next = at(match, pv);
      match[v] = pv;
      match[pv] = v;
      v = next;
    }
  }

  const edges: [number, number][] = [];
  for (let u = 0; u < n; u++) {
    const v = at(match, u);
    if (v > u) edges.push([u, v]);
  }
  return { size: edges.length, edges };
}
