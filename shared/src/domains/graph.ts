import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { JacobianError } from '../errors.js';

/** Schema and semantics URIs of the graph artifacts graph capabilities accept. */
export const GRAPH_SCHEMA_URI = 'jacobian:schema/graph.simple/v1';
export const GRAPH_SEMANTICS_URI = 'jacobian:semantics/graph.simple.undirected.labelled/v1';
export const INDUCED_TREE_RESULT_SCHEMA_URI = 'jacobian:schema/graph.induced_tree.maximum.result/v1';
export const INDUCED_TREE_RESULT_SEMANTICS_URI = 'jacobian:semantics/graph.induced_tree.maximum/v1';

export const MAX_GRAPH_ORDER = 256;

/**
 * A stored simple undirected graph: vertices 0..order-1 carry `labels[i]`; edges are index
 * pairs [u, v] with u < v, sorted lexicographically, without repeats.
 */
export const GraphPayloadSchema = z
  .object({
    order: z.number().int().min(0).max(MAX_GRAPH_ORDER),
    labels: z.array(z.string().min(1).max(64)),
    edges: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])),
  })
  .strict()
  .superRefine((graph, ctx) => {
    if (graph.labels.length !== graph.order) {
      ctx.addIssue({ code: 'custom', path: ['labels'], message: `must have exactly order (${graph.order}) labels` });
    }
    if (new Set(graph.labels).size !== graph.labels.length) {
      ctx.addIssue({ code: 'custom', path: ['labels'], message: 'labels must be distinct' });
    }
    for (let i = 1; i < graph.labels.length; i++) {
      if (compareLabels(graph.labels[i - 1] as string, graph.labels[i] as string) >= 0) {
        ctx.addIssue({ code: 'custom', path: ['labels', i], message: 'labels must be in canonical order' });
        break;
      }
    }
    let previous: [number, number] | undefined;
    for (const [i, [u, v]] of graph.edges.entries()) {
      if (!(u < v && v < graph.order)) {
        ctx.addIssue({ code: 'custom', path: ['edges', i], message: 'edge must be [u, v] with u < v < order' });
        return;
      }
      if (previous !== undefined && (previous[0] > u || (previous[0] === u && previous[1] >= v))) {
        ctx.addIssue({ code: 'custom', path: ['edges', i], message: 'edges must be sorted and distinct' });
        return;
      }
      previous = [u, v];
    }
  });
export type GraphPayload = z.infer<typeof GraphPayloadSchema>;

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * Canonical vertex order: labels that are canonical non-negative decimals come first in
 * numeric order (so 2 precedes 10), then every other label by UTF-16 code units.
 */
export function compareLabels(a: string, b: string): number {
  const aNum = DECIMAL.test(a);
  const bNum = DECIMAL.test(b);
  if (aNum && bNum) {
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (aNum !== bNum) return aNum ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The canonical label of a client-supplied vertex: integers in decimal, strings in NFC. */
export function canonicalLabel(label: string | number): string {
  return typeof label === 'number' ? String(label) : label.normalize('NFC');
}

/** A graph as the mathematical kernels see it. */
export interface IndexedGraph {
  order: number;
  edges: [number, number][];
}

/** Assert that a graph payload read from storage is canonical (defense against artifacts written elsewhere). */
export function parseStoredGraph(payload: unknown, path: (string | number)[]): GraphPayload {
  const parsed = GraphPayloadSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `stored graph is not a canonical simple graph: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`, {
      path,
    });
  }
  return parsed.data;
}

/** Result payload of graph.induced_tree.maximum.compute, stored as an artifact bound to its input graph. */
export const InducedTreeResultPayloadSchema = z
  .object({
    input_uri: z.string(),
    claim: z
      .object({
        kind: z.literal('MAXIMUM_INDUCED_TREE_ORDER'),
        optimal: z.boolean(),
        lower_bound: z.number().int().min(0),
        upper_bound: z.number().int().min(0),
        witness: z.array(z.number().int().min(0)),
      })
      .strict(),
    termination: z.enum(['OPTIMAL', 'BUDGET_EXHAUSTED']),
    solver_calls: z.number().int().min(0),
    provider: z.object({ name: z.string(), version: z.string(), digest: z.string() }).strict(),
  })
  .strict()
  .superRefine((result, ctx) => {
    const { claim } = result;
    if (claim.lower_bound !== claim.witness.length) {
      ctx.addIssue({ code: 'custom', path: ['claim', 'lower_bound'], message: 'lower bound is the witness size' });
    }
    if (claim.lower_bound > claim.upper_bound) {
      ctx.addIssue({ code: 'custom', path: ['claim', 'upper_bound'], message: 'upper bound is at least the lower bound' });
    }
    if (claim.optimal !== (claim.lower_bound === claim.upper_bound && result.termination === 'OPTIMAL')) {
      ctx.addIssue({ code: 'custom', path: ['claim', 'optimal'], message: 'optimal exactly when the bounds meet by exhaustion' });
    }
  });
export type InducedTreeResultPayload = z.infer<typeof InducedTreeResultPayloadSchema>;

/** This file's path: graph providers include it in their source identity, since it defines what they accept. */
export const GRAPH_CONTRACT_SOURCE: string = fileURLToPath(import.meta.url);
