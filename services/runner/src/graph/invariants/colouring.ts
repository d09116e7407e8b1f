/**
 * Exact chromatic number by DSATUR branch and bound (Brélaz's rule, as in the exact algorithms
 * of Brown and of Sewell).
 *
 * The lower bound is a large clique, found by {@link maximumClique} under a small node budget:
 * any clique is a valid bound, and its vertices are precoloured 0..q-1, which removes the
 * colour-permutation symmetry on them. The search then colours one vertex at a time, always the
 * one whose neighbours already show the most distinct colours (ties: most uncoloured neighbours,
 * then smallest index), trying every existing colour and at most one new one, and never opening
 * a colour that would equal the best colouring found so far.
 */
import { maximumClique } from './clique.js';
import { adjacencyLists, boundsReporter, type BoundedOptimum, type IndexedGraph, type SearchControl } from './search.js';

/** Search nodes between two polls of `shouldStop` (a power of two minus one, used as a mask). */
const POLL_MASK = 1023;

/**
 * Polls the clique search may spend on the lower bound (about a thousand nodes each). The bound
 * only needs to be good, not proven, and on random graphs the first few thousand nodes usually
 * find a maximum clique already.
 */
const CLIQUE_POLLS = 16;

/**
 * The chromatic number of `graph`, with a witness colouring.
 *
 * The witness gives each vertex a colour in 0..k-1, uses every one of those colours, is proper,
 * and k is `upper_bound`. `lower_bound` is the size of a clique unless the search completes,
 * when both bounds are the chromatic number. `exhaustive` is true exactly when the bounds meet.
 * Order 0 has chromatic number 0 and the empty witness.
 *
 * @param graph a simple graph of order at most 256 (larger orders work, only more slowly)
 * @param control polled every 1024 search nodes (also during the clique bound); `onBounds`
 *   hears every change of the bounds
 */
export function chromaticNumber(graph: IndexedGraph, control: SearchControl): BoundedOptimum<number[]> {
  const n = graph.order;
  if (n === 0) return { witness: [], lower_bound: 0, upper_bound: 0, exhaustive: true, nodes: 0 };
  const adj = adjacencyLists(graph);

  let stopped = false;
  let cliquePolls = 0;
  const clique = maximumClique(graph, {
    shouldStop: () => {
      if (control.shouldStop()) {
        stopped = true;
        return true;
      }
      return ++cliquePolls > CLIQUE_POLLS;
    },
  });
  const lower = clique.lower_bound;
  let nodes = clique.nodes;

  // Search state. neighbourColours[v*n + c] counts the neighbours of v that have colour c, so
  // saturation (distinct neighbour colours) updates in O(degree) per assignment.
  const colour = new Int32Array(n).fill(-1);
  const neighbourColours = new Int32Array(n * n);
  const saturation = new Int32Array(n);
  const uncolouredDegree = Int32Array.from(adj, (list) => list.length);

  const assign = (v: number, c: number): void => {
    colour[v] = c;
    for (const u of adj[v]!) {
      if (neighbourColours[u * n + c]!++ === 0) saturation[u]!++;
      uncolouredDegree[u]!--;
    }
  };
  const unassign = (v: number, c: number): void => {
    colour[v] = -1;
    for (const u of adj[v]!) {
      if (--neighbourColours[u * n + c]! === 0) saturation[u]!--;
      uncolouredDegree[u]!++;
    }
  };
  /** The uncoloured vertex DSATUR colours next, or -1 when all are coloured. */
  const select = (): number => {
    let pick = -1;
    let pickSaturation = -1;
    let pickDegree = -1;
    for (let v = 0; v < n; v++) {
      if (colour[v] !== -1) continue;
      const s = saturation[v]!;
      const d = uncolouredDegree[v]!;
      if (s > pickSaturation || (s === pickSaturation && d > pickDegree)) {
        pick = v;
        pickSaturation = s;
        pickDegree = d;
      }
    }
    return pick;
  };

  clique.witness.forEach((v, c) => assign(v, c));
  const precoloured = clique.witness.length;

  // Initial incumbent: plain greedy DSATUR from the precoloured clique (smallest free colour).
  // It is the first dive of the search, done separately so a witness exists before any poll.
  const dive: number[] = [];
  let used = precoloured;
  for (let v = select(); v >= 0; v = select()) {
    let c = 0;
    while (neighbourColours[v * n + c] !== 0) c++;
    assign(v, c);
    dive.push(v);
    used = Math.max(used, c + 1);
  }
  let best = used;
  let bestColouring = Array.from(colour);
  for (let i = dive.length - 1; i >= 0; i--) {
    const v = dive[i]!;
    unassign(v, colour[v]!);
  }

  // The lower bound stays the clique size until the search completes and proves `best`.
  let lowerBound = lower;
  const reportBounds = boundsReporter(control);
  const report = (): void => reportBounds(lowerBound, best);
  report();

  /** Colour the rest, given `coloured` vertices coloured with colours 0..used-1. */
  const search = (coloured: number, used: number): void => {
    nodes++;
    if ((nodes & POLL_MASK) === 0 && control.shouldStop()) {
      stopped = true;
      return;
    }
    // A colouring that already uses `best` colours cannot improve on the incumbent.
    if (used >= best) return;
    if (coloured === n) {
      best = used;
      bestColouring = Array.from(colour);
      report();
      return;
    }
    const v = select();
    // Existing colours, plus one new colour (number `used`) only if it keeps us below `best`.
    // `best` can drop inside the loop, so the limit is re-read every iteration.
    for (let c = 0; c <= used && c < best - 1; c++) {
      if (neighbourColours[v * n + c] !== 0) continue;
      assign(v, c);
      search(coloured + 1, Math.max(used, c + 1));
      unassign(v, c);
      if (stopped || best === lower) return;
    }
  };

  if (!stopped && best > lower) search(precoloured, precoloured);

  if (!stopped) {
    lowerBound = best;
    report();
  }
  return {
    witness: bestColouring,
    lower_bound: lowerBound,
    upper_bound: best,
    exhaustive: lowerBound === best,
    nodes,
  };
}
