/**
 * The graph invariants that can take long (exponential searches, and the polynomial ones whose
 * cost grows as n³ or worse), run isolated in a pool child so that a timeout or a cancel kills
 * them. The searches are synchronous: the pool's abort signal cannot fire while they run, so
 * they poll the deadline themselves; a cancel arrives as the child being killed.
 */
import type { IndexedGraph, KernelContext } from '@jacobian/shared';
import { chromaticNumber } from './invariants/colouring.js';
import { maximumClique, maximumIndependentSet } from './invariants/clique.js';
import { edgeConnectivity, vertexConnectivity } from './invariants/connectivity.js';
import { spanningTreeCount } from './invariants/counting.js';
import { minimumDominatingSet } from './invariants/domination.js';
import { maximumMatching } from './invariants/matching.js';
import type { BoundedOptimum, SearchControl } from './invariants/search.js';

export const KernelInvariant = {
  clique: 'clique',
  independence: 'independence',
  chromatic: 'chromatic',
  domination: 'domination',
  matching: 'matching',
  vertex_connectivity: 'vertex_connectivity',
  edge_connectivity: 'edge_connectivity',
  spanning_trees: 'spanning_trees',
} as const;
export type KernelInvariant = (typeof KernelInvariant)[keyof typeof KernelInvariant];

export interface GraphInvariantKernelInput {
  invariant: KernelInvariant;
  graph: IndexedGraph;
}

/** JSON answer of the kernel: an optimum with bounds, or a plain value with its witness. */
export type GraphInvariantKernelOutput =
  | { kind: 'optimum'; result: BoundedOptimum<number[]> }
  | { kind: 'matching'; size: number; edges: [number, number][] }
  | { kind: 'vertex_connectivity'; value: number; separator: number[] | null }
  | { kind: 'edge_connectivity'; value: number; cut: [number, number][] }
  | { kind: 'spanning_trees'; count: string };

/** Minimum spacing of bound reports over IPC. */
const PROGRESS_INTERVAL_MS = 250;

function searchControl(ctx: KernelContext, invariant: KernelInvariant): SearchControl {
  let last = 0;
  return {
    shouldStop: () => Date.now() >= ctx.deadline || ctx.signal.aborted,
    onBounds({ lower_bound, upper_bound }) {
      const now = Date.now();
      if (now - last < PROGRESS_INTERVAL_MS) return;
      last = now;
      ctx.progress({ progress: lower_bound, total: upper_bound, message: `${invariant}: ${lower_bound} ≤ value ≤ ${upper_bound}` });
    },
  };
}

export function graphInvariantKernel(input: GraphInvariantKernelInput, ctx: KernelContext): GraphInvariantKernelOutput {
  const { graph } = input;
  switch (input.invariant) {
    case 'clique':
      return { kind: 'optimum', result: maximumClique(graph, searchControl(ctx, input.invariant)) };
    case 'independence':
      return { kind: 'optimum', result: maximumIndependentSet(graph, searchControl(ctx, input.invariant)) };
    case 'chromatic':
      return { kind: 'optimum', result: chromaticNumber(graph, searchControl(ctx, input.invariant)) };
    case 'domination':
      return { kind: 'optimum', result: minimumDominatingSet(graph, searchControl(ctx, input.invariant)) };
    case 'matching':
      return { kind: 'matching', ...maximumMatching(graph) };
    case 'vertex_connectivity':
      return { kind: 'vertex_connectivity', ...vertexConnectivity(graph) };
    case 'edge_connectivity':
      return { kind: 'edge_connectivity', ...edgeConnectivity(graph) };
    case 'spanning_trees':
      return { kind: 'spanning_trees', count: spanningTreeCount(graph).toString() };
  }
}
