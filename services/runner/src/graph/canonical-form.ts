/**
 * graph.canonical_form.compute: a graph's canonical form (graph6), the relabelling that maps it
 * there, and its automorphism group order, from nauty's labelg when nauty is installed and from
 * our TypeScript search otherwise. Which one answered is part of the answer
 * (`canonical_form_method`): canonical forms are only comparable between equal methods.
 */
import { z } from 'zod';
import {
  encodeGraph6,
  GRAPH_SCHEMA_URI,
  JacobianError,
  PETERSEN_EXAMPLE,
  resolveGraphOperand,
  type CapabilityDefinition,
  type GraphPayload,
} from '@jacobian/shared';
import { nautyCanonicalForm, nautyCanonicalFormMethod } from '../providers/nauty.js';
import { GraphInvariantInput } from './invariant-capability.js';
import { checkPermutation, relabel } from './symmetry-checks.js';
import { requireTypescriptOrder, runTypescriptSymmetry, SYMMETRY_TS_MAX_ORDER, TS_CANONICAL_FORM_METHOD, type SymmetryBackend } from './symmetry.js';

const Int = z.number().int().min(0);

/** Output of graph.canonical_form.compute. */
export const CanonicalFormOutput = z
  .object({
    graph: z.object({ order: Int, size: Int }).strict(),
    canonical_graph6: z.string().describe('the canonical graph in graph6 (no header, no newline)'),
    canonical_form_method: z
      .string()
      .describe(
        'what computed canonical_graph6, e.g. "nauty-labelg 2.8.6 (64 bits)" or "jacobian-ts-1". Two graphs are isomorphic exactly when their canonical forms under the same method are equal; forms of different methods are not comparable',
      ),
    labelling: z
      .array(Int)
      .describe('labelling[v] = position in the canonical graph of input vertex v (input vertices in canonical vertex order: 0..n-1 for graph6 and sparse6, sorted labels otherwise)'),
    labelling_by_label: z
      .array(z.object({ label: z.string(), position: Int }).strict())
      .describe('the same relabelling with the input labels: where each input vertex goes, in input vertex order'),
    automorphism_group_order: z.string().regex(/^[1-9][0-9]*$/).describe('|Aut(G)| exactly, in decimal'),
  })
  .strict();
export type CanonicalFormOutput = z.infer<typeof CanonicalFormOutput>;

/** What a backend found, before the capability's recheck. */
interface Finding {
  graph6: string;
  labelling: number[];
  groupOrder: string;
}

/** The relabelling must be a bijection mapping the input onto exactly the returned canonical graph. */
function recheck(graph: GraphPayload, finding: Finding, method: string): void {
  const problem =
    checkPermutation(finding.labelling, graph.order, 'the labelling') ??
    (encodeGraph6(relabel(graph, finding.labelling)) === finding.graph6 ? null : 'the input relabelled is not the canonical graph');
  if (problem !== null) {
    throw new JacobianError('PROVIDER_FAILED', `the canonical form from ${method} failed its recheck (${problem}); the result was discarded`);
  }
}

/**
 * The canonical-form capability served by `backend` (see symmetryBackend): nauty for graphs up
 * to 256 vertices, or the TypeScript search for graphs up to {@link SYMMETRY_TS_MAX_ORDER}.
 */
export function canonicalForm(backend: SymmetryBackend): CapabilityDefinition<GraphInvariantInput, CanonicalFormOutput> {
  const nauty = backend.kind === 'nauty';
  const method = nauty ? nautyCanonicalFormMethod(backend.tools) : TS_CANONICAL_FORM_METHOD;
  const maxOrder = nauty ? 256 : SYMMETRY_TS_MAX_ORDER;
  const computedBy = nauty
    ? `nauty's labelg computed the canonical graph and dreadnaut (the same library and options) the labelling, which reproduces it`
    : 'our TypeScript individualization-refinement search (isolated) ran to completion';
  return {
    id: 'graph.canonical_form.compute',
    version: '1.0.0',
    title: 'Canonical form of a graph (graph6), with the relabelling',
    description:
      `Computes a canonical form of a simple graph: a relabelling that gives every graph isomorphic to it the same graph6 string, plus that relabelling and the automorphism group order. ` +
      `Served here by ${nauty ? `nauty (${method})` : `the TypeScript fallback (${method}, graphs up to ${SYMMETRY_TS_MAX_ORDER} vertices)`}; ` +
      'compare canonical forms only between results with the same canonical_form_method. ' +
      'The graph is given inline (`graph`), as graph6 or sparse6, or as a stored graph artifact (`graph_uri`).',
    tags: ['graph', 'canonical-form', 'canonical-labelling', 'isomorphism', 'graph6', 'nauty', 'automorphisms', 'exact'],
    keywords: ['canonical form', 'canonical labelling', 'canonical labeling', 'canonical ordering', 'graph canonization', 'canonical graph6', 'isomorphism test', 'are two graphs isomorphic', 'isomorphic graphs', 'nauty', 'labelg'],
    domain: 'graph',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [GRAPH_SCHEMA_URI],
    produced_artifact_types: [],
    input: GraphInvariantInput,
    output: CanonicalFormOutput,
    examples: [
      { title: 'The Petersen graph', mode: 'EXPLORE', payload: { graph: PETERSEN_EXAMPLE } },
      { title: 'A 4-cycle in graph6', mode: 'EXPLORE', payload: { graph6: 'Cr' } },
    ],
    relationships: [{ kind: 'CONSUMES_OUTPUT_OF', capability_id: 'graph.construct.explicit' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule:
      'Covers exactly the one input graph: its canonical form under the named method and the relabelling onto it. Equal canonical forms mean isomorphic graphs only when both carry the same canonical_form_method; forms from nauty, from the TypeScript fallback, or from different nauty releases are not comparable.',
    limits: { max_order: maxOrder, canonical_form_method: method },
    async run(input, context) {
      const resolved = await resolveGraphOperand(input, context.artifacts, { signal: context.signal });
      const { graph } = resolved;
      let finding: Finding;
      if (backend.kind === 'nauty') {
        const found = await nautyCanonicalForm(backend.tools, graph, { signal: context.signal, deadline: context.deadline, memoryMb: context.budget.memory_mb });
        finding = { graph6: found.graph6, labelling: found.labelling, groupOrder: found.groupOrder.toString() };
      } else {
        requireTypescriptOrder(graph, input);
        const found = await runTypescriptSymmetry(context, graph, 0);
        // A search stopped early gives a labelling that is not canonical: worthless as a canonical form.
        if (!found.exhaustive) {
          throw new JacobianError('EXECUTION_TIMEOUT', `the canonical labelling search was stopped by the wall-time budget after ${found.nodes} nodes; nothing was concluded`, {
            hint: 'raise budget.wall_time_ms',
          });
        }
        const graph6 = encodeGraph6({ order: graph.order, edges: found.canonical_edges });
        finding = { graph6, labelling: found.labelling, groupOrder: found.group_order };
      }
      recheck(graph, finding, method);
      return {
        status: 'COMPLETED',
        output: {
          graph: { order: graph.order, size: graph.edges.length },
          canonical_graph6: finding.graph6,
          canonical_form_method: method,
          labelling: finding.labelling,
          labelling_by_label: finding.labelling.map((position, v) => ({ label: graph.labels[v] as string, position })),
          automorphism_group_order: finding.groupOrder,
        },
        scope: {
          kind: 'EXACT_INPUT',
          statement: `the canonical form under ${method} of ${resolved.description}, comparable only with canonical forms under the same method`,
          input_uris: resolved.input_uris,
        },
        completeness: { status: 'COMPLETE', basis: `the search for the canonical labelling finished (${method})` },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: 'COMPUTED',
          basis: `${computedBy}; plain TypeScript rechecked that the relabelling maps the input onto the canonical graph; canonicity itself rests on the search`,
          verification_record_uri: null,
          checker_id: null,
        },
        obligations: [],
        relationships: [],
        artifact_uris: resolved.input_uris,
        diagnostics: [],
      };
    },
  };
}
