/**
 * Exact minimum dominating set by bitset branch and bound, treated as a set cover: vertex u
 * covers its closed neighbourhood N[u], and every vertex must be covered.
 *
 * Branching: take the undominated vertex with the fewest remaining candidate dominators (a
 * forced choice when there is one) and branch over those candidates in order of how many
 * undominated vertices each covers; after a candidate's branch is done it is excluded from its
 * later siblings, so no dominating set is enumerated twice.
 *
 * Bound: each undominated vertex w is charged 1/m(w), where m(w) is the most undominated
 * vertices any allowed candidate of w covers. A dominating set D of the rest pays for each w
 * through one member u of D covering it, and u covers at most |N[u] ∩ undominated| vertices,
 * each charged at most 1/that; so the charges sum to at most |D|. This is never weaker than
 * ceil(undominated / (maxdeg + 1)).
 */
import { adjacencyLists, boundsReporter, type BoundedOptimum, type IndexedGraph, type SearchControl } from './search.js';

/** Search nodes between two polls of `shouldStop` (a power of two minus one, used as a mask). */
const POLL_MASK = 1023;

/** Slack when rounding the fractional bound up: the sum of at most 256 reciprocals is exact to ~1e-13. */
const ROUNDING_SLACK = 1e-9;

/**
 * A minimum dominating set of `graph`: every vertex is in the set or adjacent to one in it.
 *
 * The witness is the sorted smallest dominating set found and `upper_bound` is its size.
 * `lower_bound` is the fractional covering bound of the whole graph, raised as the root's
 * branches are exhausted, until the search completes and proves the optimum. `exhaustive` is
 * true exactly when the bounds meet. Order 0 gives 0 and the empty set.
 *
 * @param graph a simple graph of order at most 256 (larger orders work, only more slowly)
 * @param control polled every 1024 search nodes; `onBounds` hears every change of the bounds
 */
export function minimumDominatingSet(graph: IndexedGraph, control: SearchControl): BoundedOptimum<number[]> {
  const n = graph.order;
  if (n === 0) return { witness: [], lower_bound: 0, upper_bound: 0, exhaustive: true, nodes: 0 };
  const words = (n + 31) >>> 5;
  const closed = adjacencyLists(graph).map((list, v) => [v, ...list]);
  const cover = new Uint32Array(n * words);
  closed.forEach((list, v) => {
    for (const u of list) cover[v * words + (u >>> 5)]! |= 1 << (u & 31);
  });

  let bestSet = greedyDominatingSet(n, closed);
  let best = bestSet.length;

  // Per-depth buffers (depth = vertices chosen so far, below `best` <= n): the undominated
  // vertices and the candidates still allowed as dominators at that depth.
  const undominated = new Uint32Array((n + 1) * words);
  const allowed = new Uint32Array((n + 1) * words);
  const branchList = new Int32Array((n + 1) * n);
  const gain = new Int32Array(n);
  const chosen = new Int32Array(n);
  let nodes = 0;
  let stopped = false;

  // Results of the last call of `bound`, read right after it (no allocation per node).
  let branchVertex = -1;
  /**
   * Fills `gain` for the allowed candidates and returns the fractional lower bound on the
   * vertices still needed (Infinity when some undominated vertex has no allowed candidate),
   * and sets `branchVertex` to the undominated vertex with the fewest allowed candidates.
   */
  const bound = (depth: number): number => {
    const base = depth * words;
    for (let u = 0; u < n; u++) {
      if ((allowed[base + (u >>> 5)]! & (1 << (u & 31))) === 0) continue;
      let covered = 0;
      for (let w = 0; w < words; w++) covered += popcount(cover[u * words + w]! & undominated[base + w]!);
      gain[u] = covered;
    }
    let charge = 0;
    let fewest = n + 1;
    branchVertex = -1;
    for (let w = 0; w < words; w++) {
      let word = undominated[base + w]!;
      while (word !== 0) {
        const bit = word & -word;
        word ^= bit;
        const v = (w << 5) + 31 - Math.clz32(bit);
        let candidates = 0;
        let most = 0;
        for (const u of closed[v]!) {
          if ((allowed[base + (u >>> 5)]! & (1 << (u & 31))) === 0) continue;
          candidates++;
          if (gain[u]! > most) most = gain[u]!;
        }
        if (candidates === 0) return Number.POSITIVE_INFINITY;
        charge += 1 / most;
        if (candidates < fewest) {
          fewest = candidates;
          branchVertex = v;
        }
      }
    }
    return Math.ceil(charge - ROUNDING_SLACK);
  };

  for (let v = 0; v < n; v++) {
    undominated[v >>> 5]! |= 1 << (v & 31);
    allowed[v >>> 5]! |= 1 << (v & 31);
  }
  let lowerBound = Math.min(best, bound(0));

  const reportBounds = boundsReporter(control);
  const report = (): void => reportBounds(lowerBound, best);
  report();

  /**
   * After a root branch, the unexplored root branches together are the original problem with
   * the finished candidates excluded; its bound, capped by the incumbent, bounds the optimum.
   */
  const raiseRootBound = (): void => {
    const raised = Math.min(best, bound(0));
    if (raised > lowerBound) {
      lowerBound = raised;
      report();
    }
  };

  const search = (depth: number): void => {
    nodes++;
    if ((nodes & POLL_MASK) === 0 && control.shouldStop()) {
      stopped = true;
      return;
    }
    const base = depth * words;
    let remaining = 0;
    for (let w = 0; w < words; w++) remaining |= undominated[base + w]!;
    if (remaining === 0) {
      if (depth < best) {
        best = depth;
        bestSet = Array.from(chosen.subarray(0, depth));
        report();
      }
      return;
    }
    // At least one more vertex is needed, and it must leave us below the incumbent.
    if (depth + 1 >= best) return;
    if (depth + bound(depth) >= best) return;

    // Candidates of the branch vertex, most newly dominated vertices first (ties: index).
    const lBase = depth * n;
    let count = 0;
    for (const u of closed[branchVertex]!) {
      if ((allowed[base + (u >>> 5)]! & (1 << (u & 31))) === 0) continue;
      let at = count++;
      while (at > 0 && gain[branchList[lBase + at - 1]!]! < gain[u]!) {
        branchList[lBase + at] = branchList[lBase + at - 1]!;
        at--;
      }
      branchList[lBase + at] = u;
    }

    const child = base + words;
    for (let i = 0; i < count; i++) {
      // An earlier sibling may have lowered the incumbent so far that no child can beat it.
      if (depth + 1 >= best) return;
      const u = branchList[lBase + i]!;
      chosen[depth] = u;
      for (let w = 0; w < words; w++) {
        undominated[child + w] = undominated[base + w]! & ~cover[u * words + w]!;
        allowed[child + w] = allowed[base + w]!;
      }
      search(depth + 1);
      if (stopped) return;
      // Every dominating set containing u has now been considered below this node.
      allowed[base + (u >>> 5)]! &= ~(1 << (u & 31));
      if (depth === 0) {
        raiseRootBound();
        if (lowerBound >= best) return;
      }
    }
  };

  if (lowerBound < best) search(0);
  if (!stopped) {
    lowerBound = best;
    report();
  }
  return {
    witness: bestSet.sort((a, b) => a - b),
    lower_bound: lowerBound,
    upper_bound: best,
    exhaustive: lowerBound === best,
    nodes,
  };
}

/**
 * Greedy dominating set: repeatedly take the vertex dominating the most undominated vertices
 * (ties: smallest index), then drop members whose removal keeps the set dominating.
 */
function greedyDominatingSet(n: number, closed: readonly (readonly number[])[]): number[] {
  const coveredBy = new Int32Array(n);
  const picked: number[] = [];
  let undominated = n;
  while (undominated > 0) {
    let pick = -1;
    let pickGain = 0;
    for (let u = 0; u < n; u++) {
      let gain = 0;
      for (const v of closed[u]!) if (coveredBy[v] === 0) gain++;
      if (gain > pickGain) {
        pick = u;
        pickGain = gain;
      }
    }
    picked.push(pick);
    for (const v of closed[pick]!) {
      if (coveredBy[v] === 0) undominated--;
      coveredBy[v]!++;
    }
  }
  // A member is redundant when every vertex it dominates is dominated twice.
  const kept: number[] = [];
  for (const u of picked) {
    if (closed[u]!.every((v) => coveredBy[v]! >= 2)) {
      for (const v of closed[u]!) coveredBy[v]!--;
    } else {
      kept.push(u);
    }
  }
  return kept;
}

/** Number of set bits in a 32-bit word. */
function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
