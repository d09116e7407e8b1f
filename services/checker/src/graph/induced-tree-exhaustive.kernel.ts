import { checkMaximumInducedTreeClaim, type InducedTreeCheckResult } from './induced-tree-exhaustive.js';

/** Input of the isolated check: the stored graph and the claim read from the producer's result. */
export interface InducedTreeCheckInput {
  graph: { order: number; edges: [number, number][] };
  claim: { maximum: number; witness: number[] };
}

/** Kernel entry point run in an isolated child process, so a timeout or cancel kills the enumeration. */
export function checkInducedTreeKernel(input: InducedTreeCheckInput): InducedTreeCheckResult {
  return checkMaximumInducedTreeClaim(input.graph, input.claim);
}
