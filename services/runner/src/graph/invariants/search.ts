/**
 * Shared shapes of the exact graph-invariant algorithms. The algorithms are pure functions of an
 * {@link IndexedGraph}; the capabilities that wrap them own input parsing, budgets and results.
 */
import type { IndexedGraph } from '@jacobian/shared';

export type { IndexedGraph };

/**
 * How an exponential search learns that it must stop (wall-time budget or cancellation).
 * `shouldStop` is polled every few thousand search nodes, so it must be cheap.
 */
export interface SearchControl {
  shouldStop(): boolean;
  /** Called when a bound improves; optional and rate-limited by the caller. */
  onBounds?(bounds: { lower_bound: number; upper_bound: number }): void;
}

/**
 * A function that passes bounds to `control.onBounds` only when they differ from the last
 * ones passed, so a search can call it after every step that might have moved a bound.
 */
export function boundsReporter(control: SearchControl): (lower: number, upper: number) => void {
  let lastLower = -1;
  let lastUpper = -1;
  return (lower, upper) => {
    if (lower === lastLower && upper === lastUpper) return;
    lastLower = lower;
    lastUpper = upper;
    control.onBounds?.({ lower_bound: lower, upper_bound: upper });
  };
}

/** A control that never stops: for tests and for inputs small enough to need no budget. */
export const UNBOUNDED: SearchControl = { shouldStop: () => false };

/**
 * Outcome of an exact optimization under a budget. `witness` attains the bound on its side
 * (the lower bound of a maximization, the upper bound of a minimization). `exhaustive` is true
 * exactly when the search finished, and then lower_bound === upper_bound.
 */
export interface BoundedOptimum<W> {
  witness: W;
  lower_bound: number;
  upper_bound: number;
  exhaustive: boolean;
  /** Search nodes visited, for diagnostics. */
  nodes: number;
}

/** Adjacency lists of a graph, sorted ascending. */
export function adjacencyLists(graph: IndexedGraph): number[][] {
  const lists: number[][] = Array.from({ length: graph.order }, () => []);
  for (const [u, v] of graph.edges) {
    lists[u]?.push(v);
    lists[v]?.push(u);
  }
  for (const list of lists) list.sort((a, b) => a - b);
  return lists;
}
