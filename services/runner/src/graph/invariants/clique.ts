/**
 * Exact maximum clique and maximum independent set.
 *
 * The clique search is a bitset branch and bound in the style of San Segundo's BBMC (itself a
 * bitset form of Tomita's MCQ/MCS): at every node the candidate set is greedily partitioned into
 * colour classes (independent sets); a clique can take at most one vertex per class, so the
 * number of classes bounds what a branch can still add. Vertices are renumbered in a degeneracy
 * order first, which makes the greedy colouring tight and the early incumbents large.
 *
 * A maximum independent set is a maximum clique of the complement graph.
 */
import { boundsReporter, type BoundedOptimum, type IndexedGraph, type SearchControl } from './search.js';

/** Search nodes between two polls of `shouldStop` (a power of two minus one, used as a mask). */
const POLL_MASK = 1023;

/**
 * The complement graph: same vertices, and an edge exactly where `graph` has none.
 * Edges come out with u < v, sorted and without duplicates, like every {@link IndexedGraph}.
 */
export function complement(graph: IndexedGraph): IndexedGraph {
  const n = graph.order;
  const adjacent = new Uint8Array(n * n);
  for (const [u, v] of graph.edges) {
    adjacent[u * n + v] = 1;
    adjacent[v * n + u] = 1;
  }
  const edges: [number, number][] = [];
  for (let u = 0; u < n; u++) {
    for (let v = u + 1; v < n; v++) if (adjacent[u * n + v] === 0) edges.push([u, v]);
  }
  return { order: n, edges };
}

/**
 * A maximum clique of `graph`.
 *
 * The witness is a sorted vertex list of the largest clique found, and `lower_bound` is its
 * size. While the search runs, `upper_bound` is the larger of the incumbent and the colour of
 * the root branch in progress: root branches are taken in non-increasing colour order, so no
 * unexplored branch can hold a larger clique. `exhaustive` is true exactly when the bounds
 * meet, i.e. the optimum is proven (always the case when the search completes).
 *
 * @param graph a simple graph of order at most 256 (larger orders work, only more slowly)
 * @param control polled every 1024 search nodes; `onBounds` hears every change of the bounds
 */
export function maximumClique(graph: IndexedGraph, control: SearchControl): BoundedOptimum<number[]> {
  const n = graph.order;
  if (n === 0) return { witness: [], lower_bound: 0, upper_bound: 0, exhaustive: true, nodes: 0 };
  const words = (n + 31) >>> 5;

  // Renumber vertices so that position 0 holds the last vertex of a degeneracy (min-degree
  // removal) order: the greedy colouring then meets dense cores first and uses few classes.
  const original = degeneracyOrder(n, graph.edges);
  const position = new Int32Array(n);
  for (let p = 0; p < n; p++) position[original[p]!] = p;
  const adj = new Uint32Array(n * words);
  for (const [a, b] of graph.edges) {
    const u = position[a]!;
    const v = position[b]!;
    adj[u * words + (v >>> 5)]! |= 1 << (v & 31);
    adj[v * words + (u >>> 5)]! |= 1 << (u & 31);
  }

  // Greedy incumbent: from every start vertex, repeatedly add the first common neighbour in
  // degeneracy order. Cheap (no popcounts), and gives the search a good pruning threshold.
  let bestClique: number[] = [0];
  const grow = new Uint32Array(words);
  for (let start = 0; start < n; start++) {
    const clique = [start];
    for (let w = 0; w < words; w++) grow[w] = adj[start * words + w]!;
    for (let v = firstBit(grow, words); v >= 0; v = firstBit(grow, words)) {
      clique.push(v);
      for (let w = 0; w < words; w++) grow[w]! &= adj[v * words + w]!;
    }
    if (clique.length > bestClique.length) bestClique = clique;
  }
  let best = bestClique.length;

  // Per-depth buffers, allocated once: depth d owns candidates[d*words ..] and the colour-sorted
  // branching list order[d*n ..] / colourOf[d*n ..]. Depth never exceeds n.
  const candidates = new Uint32Array((n + 1) * words);
  const order = new Int32Array((n + 1) * n);
  const colourOf = new Int32Array((n + 1) * n);
  const uncoloured = new Uint32Array(words);
  const classFree = new Uint32Array(words);
  const current = new Int32Array(n);
  let nodes = 0;
  let stopped = false;
  // Colour of the root branch in progress; 0 once the root is finished.
  let rootColour = n;

  const reportBounds = boundsReporter(control);
  const report = (): void => reportBounds(best, Math.max(best, rootColour));

  const expand = (depth: number): void => {
    nodes++;
    if ((nodes & POLL_MASK) === 0 && control.shouldStop()) {
      stopped = true;
      return;
    }
    const pBase = depth * words;
    const lBase = depth * n;

    // Greedy sequential colouring of the candidates, class by class. Only vertices whose class
    // number could still lift the clique above the incumbent are kept for branching; the rest
    // can never start an improving branch (a clique uses at most one vertex per class).
    const keepFrom = best - depth + 1;
    let count = 0;
    let colour = 0;
    let remaining = 0;
    for (let w = 0; w < words; w++) {
      uncoloured[w] = candidates[pBase + w]!;
      remaining |= uncoloured[w]!;
    }
    while (remaining !== 0) {
      colour++;
      for (let w = 0; w < words; w++) classFree[w] = uncoloured[w]!;
      for (let w = 0; w < words; w++) {
        while (classFree[w] !== 0) {
          const word = classFree[w]!;
          const bit = word & -word;
          const v = (w << 5) + 31 - Math.clz32(bit);
          classFree[w] = word ^ bit;
          uncoloured[w]! ^= bit;
          // Neighbours of v cannot share its class; earlier words of classFree are already empty.
          for (let x = w; x < words; x++) classFree[x]! &= ~adj[v * words + x]!;
          if (colour >= keepFrom) {
            order[lBase + count] = v;
            colourOf[lBase + count] = colour;
            count++;
          }
        }
      }
      remaining = 0;
      for (let w = 0; w < words; w++) remaining |= uncoloured[w]!;
    }
    if (depth === 0) {
      rootColour = colour;
      report();
    }

    // Branch on the highest classes first; once a class cannot beat the incumbent, neither can
    // any lower one.
    const childBase = pBase + words;
    for (let i = count - 1; i >= 0; i--) {
      const bound = colourOf[lBase + i]!;
      if (depth + bound <= best) break;
      const v = order[lBase + i]!;
      if (depth === 0 && bound !== rootColour) {
        rootColour = bound;
        report();
      }
      current[depth] = v;
      if (depth + 1 > best) {
        best = depth + 1;
        bestClique = Array.from(current.subarray(0, depth + 1));
        report();
      }
      let nonEmpty = 0;
      for (let w = 0; w < words; w++) {
        const word = candidates[pBase + w]! & adj[v * words + w]!;
        candidates[childBase + w] = word;
        nonEmpty |= word;
      }
      if (nonEmpty !== 0) {
        expand(depth + 1);
        if (stopped) return;
      }
      candidates[pBase + (v >>> 5)]! &= ~(1 << (v & 31));
    }
    if (depth === 0) rootColour = 0;
  };

  for (let w = 0; w < words; w++) candidates[w] = 0;
  for (let v = 0; v < n; v++) candidates[v >>> 5]! |= 1 << (v & 31);
  report();
  expand(0);
  report();

  const upper = stopped ? Math.max(best, rootColour) : best;
  return {
    witness: bestClique.map((p) => original[p]!).sort((a, b) => a - b),
    lower_bound: best,
    upper_bound: upper,
    exhaustive: best === upper,
    nodes,
  };
}

/**
 * A maximum independent set of `graph`, found as a maximum clique of its {@link complement}.
 * Same bound and budget semantics as {@link maximumClique}; the witness is a sorted vertex list
 * with no edge of `graph` inside it.
 */
export function maximumIndependentSet(graph: IndexedGraph, control: SearchControl): BoundedOptimum<number[]> {
  return maximumClique(complement(graph), control);
}

/** Index of the lowest set bit of a bitset, or -1 when it is empty. */
function firstBit(bits: Uint32Array, words: number): number {
  for (let w = 0; w < words; w++) {
    const word = bits[w]!;
    if (word !== 0) return (w << 5) + 31 - Math.clz32(word & -word);
  }
  return -1;
}

/**
 * A degeneracy order, densest core first: repeatedly remove a vertex of minimum remaining degree
 * (ties: smallest index) and place it in the last free slot. Quadratic, which is nothing next to
 * the search for the orders accepted here.
 */
function degeneracyOrder(n: number, edges: readonly (readonly [number, number])[]): number[] {
  const neighbours: number[][] = Array.from({ length: n }, () => []);
  for (const [u, v] of edges) {
    neighbours[u]!.push(v);
    neighbours[v]!.push(u);
  }
  const degree = Int32Array.from(neighbours, (list) => list.length);
  const removed = new Uint8Array(n);
  const result = new Array<number>(n);
  for (let slot = n - 1; slot >= 0; slot--) {
    let pick = -1;
    for (let v = 0; v < n; v++) {
      if (removed[v] === 0 && (pick < 0 || degree[v]! < degree[pick]!)) pick = v;
    }
    removed[pick] = 1;
    result[slot] = pick;
    for (const u of neighbours[pick]!) degree[u]!--;
  }
  return result;
}
