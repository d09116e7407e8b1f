/**
 * Independent checker for "maximum induced tree" claims.
 *
 * Deliberately shares nothing with the producer (which searches with an SMT solver): this
 * file enumerates every vertex subset as a bitmask and tests each one directly. It never
 * imports runner code, so a bug in the producer cannot be mirrored here.
 */
import { JacobianError } from '@jacobian/shared';

/** Largest order the exhaustive checker accepts: 2^14 = 16384 subsets stays instantaneous. */
export const EXHAUSTIVE_MAX_ORDER = 14;

/** Graph shape: vertices 0..order-1, undirected edges [u, v]. */
export interface InducedTreeCheckGraph {
  order: number;
  edges: readonly (readonly [number, number])[];
}

/** Result of {@link exhaustiveMaximumInducedTree}. */
export interface ExhaustiveInducedTreeResult {
  /** Size of a largest induced tree (0 only for the empty graph). */
  maximum: number;
  /** Sorted vertices of the first largest induced tree in bitmask order. */
  witness: number[];
  /** Number of vertex subsets enumerated, including the empty set: 2^order. */
  subsets_examined: number;
}

/** A claim to verify: the maximum induced tree size and a witness set of that size. */
export interface InducedTreeClaim {
  maximum: number;
  witness: readonly number[];
}

/** Why a claim was rejected. */
export type InducedTreeRejectionCode =
  | 'WITNESS_NOT_INDUCED_TREE'
  | 'WITNESS_SIZE_MISMATCH'
  | 'NOT_MAXIMUM'
  | 'WITNESS_OUT_OF_RANGE';

/** Outcome of {@link checkMaximumInducedTreeClaim}. */
export type InducedTreeCheckResult =
  | { accepted: true; maximum: number; subsets_examined: number }
  | { accepted: false; reason_code: InducedTreeRejectionCode; message: string };

/** Validate the order bound and build one neighbourhood bitmask per vertex. */
function adjacencyMasks(graph: InducedTreeCheckGraph): number[] {
  const n = graph.order;
  if (!Number.isInteger(n) || n < 0) {
    throw new JacobianError('INVALID_REQUEST', `graph order must be a non-negative integer, got ${String(n)}`);
  }
  if (n > EXHAUSTIVE_MAX_ORDER) {
    throw new JacobianError(
      'CHECKER_UNSUPPORTED',
      `exhaustive induced-tree checker supports order ≤ ${EXHAUSTIVE_MAX_ORDER}, got ${n}`,
      { data: { order: n, max_order: EXHAUSTIVE_MAX_ORDER } },
    );
  }
  const masks = new Array<number>(n).fill(0);
  for (const [u, v] of graph.edges) {
    // Re-checked here because a malformed edge would silently corrupt the bitmasks.
    if (!Number.isInteger(u) || !Number.isInteger(v) || u < 0 || v < 0 || u >= n || v >= n || u === v) {
      throw new JacobianError('INVALID_REQUEST', `invalid edge [${u}, ${v}] for order ${n}`);
    }
    masks[u] = (masks[u] ?? 0) | (1 << v);
    masks[v] = (masks[v] ?? 0) | (1 << u);
  }
  return masks;
}

function popcount(x: number): number {
  let count = 0;
  for (let m = x; m !== 0; m &= m - 1) count++;
  return count;
}

/**
 * Does the vertex set `mask` induce a tree? Counts induced edges (each seen from both ends)
 * and, only when that count is exactly |S|−1, floods from the lowest vertex through `mask`.
 */
function inducesTree(masks: readonly number[], mask: number): boolean {
  if (mask === 0) return false;
  const size = popcount(mask);
  let doubledEdges = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) {
    const v = 31 - Math.clz32(rest & -rest);
    doubledEdges += popcount((masks[v] ?? 0) & mask);
  }
  if (doubledEdges !== 2 * (size - 1)) return false;
  let reached = mask & -mask;
  let frontier = reached;
  while (frontier !== 0) {
    let next = 0;
    for (let rest = frontier; rest !== 0; rest &= rest - 1) {
      const v = 31 - Math.clz32(rest & -rest);
      next |= masks[v] ?? 0;
    }
    next &= mask & ~reached;
    reached |= next;
    frontier = next;
  }
  return reached === mask;
}

function maskToVertices(mask: number): number[] {
  const vertices: number[] = [];
  for (let v = 0; mask >>> v !== 0; v++) if ((mask >>> v) & 1) vertices.push(v);
  return vertices;
}

/**
 * Find a maximum induced tree by testing every vertex subset.
 *
 * @throws JacobianError CHECKER_UNSUPPORTED if `graph.order > EXHAUSTIVE_MAX_ORDER`;
 *   INVALID_REQUEST for a malformed order or edge.
 */
export function exhaustiveMaximumInducedTree(graph: InducedTreeCheckGraph): ExhaustiveInducedTreeResult {
  const masks = adjacencyMasks(graph);
  const total = 2 ** graph.order;
  let bestMask = 0;
  let bestSize = 0;
  for (let mask = 1; mask < total; mask++) {
    const size = popcount(mask);
    // Only a strictly larger set can improve the answer; skip the costlier test otherwise.
    if (size > bestSize && inducesTree(masks, mask)) {
      bestMask = mask;
      bestSize = size;
    }
  }
  return { maximum: bestSize, witness: maskToVertices(bestMask), subsets_examined: total };
}

function reject(reason_code: InducedTreeRejectionCode, message: string): InducedTreeCheckResult {
  return { accepted: false, reason_code, message };
}

/**
 * Verify a claimed maximum induced tree.
 *
 * Checks, in order: the witness is a list of distinct integer vertices in range
 * (`WITNESS_OUT_OF_RANGE` otherwise, duplicates included); it induces a tree
 * (`WITNESS_NOT_INDUCED_TREE`; for order ≥ 1 the empty set is not a tree, for order 0 only the
 * empty witness is valid); its size equals `claim.maximum` (`WITNESS_SIZE_MISMATCH`); and the
 * exhaustive maximum equals the claim (`NOT_MAXIMUM`).
 *
 * @throws JacobianError CHECKER_UNSUPPORTED if `graph.order > EXHAUSTIVE_MAX_ORDER`.
 */
export function checkMaximumInducedTreeClaim(
  graph: InducedTreeCheckGraph,
  claim: InducedTreeClaim,
): InducedTreeCheckResult {
  const masks = adjacencyMasks(graph);
  const n = graph.order;

  let witnessMask = 0;
  for (const v of claim.witness) {
    if (!Number.isInteger(v) || v < 0 || v >= n) {
      return reject('WITNESS_OUT_OF_RANGE', `witness vertex ${String(v)} is not a vertex of a graph of order ${n}`);
    }
    if ((witnessMask >>> v) & 1) {
      return reject('WITNESS_OUT_OF_RANGE', `witness vertex ${v} is listed more than once`);
    }
    witnessMask |= 1 << v;
  }

  if (n > 0 && !inducesTree(masks, witnessMask)) {
    return reject(
      'WITNESS_NOT_INDUCED_TREE',
      witnessMask === 0
        ? 'the witness is empty, but a non-empty graph always has an induced tree'
        : 'the witness vertices do not induce a tree (disconnected or cyclic)',
    );
  }

  if (claim.witness.length !== claim.maximum) {
    return reject(
      'WITNESS_SIZE_MISMATCH',
      `the witness has ${claim.witness.length} vertices but the claimed maximum is ${String(claim.maximum)}`,
    );
  }

  const truth = exhaustiveMaximumInducedTree(graph);
  if (truth.maximum > claim.maximum) {
    return reject(
      'NOT_MAXIMUM',
      `an induced tree with ${truth.maximum} vertices exists (e.g. [${truth.witness.join(', ')}]), larger than the claimed ${claim.maximum}`,
    );
  }
  if (truth.maximum < claim.maximum) {
    // Unreachable if the witness checks above are right; kept so the verdict never depends on them alone.
    return reject(
      'NOT_MAXIMUM',
      `the claimed maximum ${claim.maximum} exceeds the exhaustive maximum ${truth.maximum}`,
    );
  }
  return { accepted: true, maximum: truth.maximum, subsets_examined: truth.subsets_examined };
}
