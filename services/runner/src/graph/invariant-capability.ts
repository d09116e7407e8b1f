/**
 * One exact graph invariant = one capability. This module turns an invariant's computation
 * into a capability definition with the shared graph operand (inline, graph6, sparse6 or a
 * stored artifact), a uniform scope and completeness, and a witness that was rechecked by plain
 * code before it is returned.
 */
import { z } from 'zod';
import {
  graphOperandShape,
  JacobianError,
  PETERSEN_EXAMPLE,
  refineGraphOperand,
  resolveGraphOperand,
  GRAPH_SCHEMA_URI,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityRelationship,
  type Diagnostic,
  type GraphOperand,
  type GraphPayload,
  type InvocationExample,
} from '@jacobian/shared';

/** Input of every invariant capability: the graph, in exactly one form. */
export const GraphInvariantInput = z.object(graphOperandShape).strict().superRefine(refineGraphOperand);
export type GraphInvariantInput = GraphOperand;

/** Vertices of a witness: indices in the canonical vertex order and the labels they carry. */
export const WitnessVertices = z
  .object({ vertices: z.array(z.number().int()), labels: z.array(z.string()) })
  .strict();
export type WitnessVertices = z.infer<typeof WitnessVertices>;

/** Edges of a witness as index pairs and as label pairs. */
export const WitnessEdges = z
  .object({ edges: z.array(z.tuple([z.number().int(), z.number().int()])), labels: z.array(z.tuple([z.string(), z.string()])) })
  .strict();
export type WitnessEdges = z.infer<typeof WitnessEdges>;

export function witnessVertices(graph: GraphPayload, vertices: readonly number[]): WitnessVertices {
  return { vertices: [...vertices], labels: vertices.map((v) => graph.labels[v] as string) };
}

export function witnessEdges(graph: GraphPayload, edges: readonly (readonly [number, number])[]): WitnessEdges {
  return {
    edges: edges.map(([u, v]) => [u, v]),
    labels: edges.map(([u, v]) => [graph.labels[u] as string, graph.labels[v] as string]),
  };
}

/** What an invariant's computation found. */
export interface InvariantFinding<O> {
  /** The capability-specific output fields (value, bounds, witness). */
  output: O;
  /** True when the search finished: the value is the invariant exactly. */
  exact: boolean;
  /** Why the result is complete, or what is missing (e.g. the bounds left by the budget). */
  basis: string;
}

/** The parts that make an invariant capability different from the others. */
export interface GraphInvariantSpec<O extends Record<string, unknown>> {
  id: string;
  title: string;
  description: string;
  tags: string[];
  /** The field's words for this invariant, for search (CapabilityDescriptor.keywords). */
  keywords: string[];
  /** Names the invariant in scope statements, e.g. "the clique number ω(G)". */
  invariant: string;
  pool: 'light' | 'heavy';
  /** How it is computed, for the assurance basis. */
  method: string;
  output: z.ZodObject<z.ZodRawShape>;
  /** Further examples beyond the Petersen graph every invariant gets. */
  examples?: InvocationExample[];
  relationships?: CapabilityRelationship[];
  limits?: Record<string, number | string>;
  /**
   * Compute on the resolved graph. Must recheck any witness with the plain checks of
   * graph-witness.ts and throw PROVIDER_FAILED when it does not hold.
   */
  compute(graph: GraphPayload, context: CapabilityContext): Promise<InvariantFinding<O>>;
}

/** Throw PROVIDER_FAILED when a witness check found a problem. */
export function requireWitness(problem: string | null, what: string): void {
  if (problem !== null) {
    throw new JacobianError('PROVIDER_FAILED', `the computed ${what} failed its recheck (${problem}); the result was discarded`);
  }
}

const BUDGET_DIAGNOSTIC = (basis: string): Diagnostic => ({
  severity: 'WARNING',
  code: 'BUDGET_EXHAUSTED',
  stage: 'EXECUTION',
  message: basis,
  path: null,
  hint: 'raise budget.wall_time_ms to close the gap',
});

/** Build the capability of one invariant. */
export function graphInvariantCapability<O extends Record<string, unknown>>(
  spec: GraphInvariantSpec<O>,
): CapabilityDefinition<GraphInvariantInput, Record<string, unknown>> {
  const output = z
    .object({ graph: z.object({ order: z.number().int(), size: z.number().int() }).strict() })
    .extend(spec.output.shape)
    .strict();
  return {
    id: spec.id,
    version: '1.0.0',
    title: spec.title,
    description: `${spec.description} The graph is given inline (\`graph\` with \`order\` or \`vertices\` and \`edges\`), as graph6 or sparse6, or as a stored graph artifact (\`graph_uri\`).`,
    tags: ['graph', 'invariant', 'exact', ...spec.tags],
    keywords: ['graph invariant', ...spec.keywords],
    domain: 'graph',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: spec.pool,
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [GRAPH_SCHEMA_URI],
    produced_artifact_types: [],
    input: GraphInvariantInput,
    output,
    examples: [{ title: 'The Petersen graph', mode: 'EXPLORE', payload: { graph: PETERSEN_EXAMPLE } }, ...(spec.examples ?? [])],
    relationships: [{ kind: 'CONSUMES_OUTPUT_OF', capability_id: 'graph.construct.explicit' }, ...(spec.relationships ?? [])],
    assurance_ceiling: 'COMPUTED',
    scope_rule: `Covers exactly the one input graph: ${spec.invariant} of that graph, nothing about other graphs.`,
    limits: { max_order: 256, ...spec.limits },
    async run(input, context) {
      const resolved = await resolveGraphOperand(input, context.artifacts, { signal: context.signal });
      const found = await spec.compute(resolved.graph, context);
      return {
        status: 'COMPLETED',
        output: { graph: { order: resolved.graph.order, size: resolved.graph.edges.length }, ...found.output },
        scope: { kind: 'EXACT_INPUT', statement: `${spec.invariant} of ${resolved.description}`, input_uris: resolved.input_uris },
        completeness: { status: found.exact ? 'COMPLETE' : 'PARTIAL', basis: found.basis },
        qualifiers: found.exact ? ['EXACT', 'DETERMINISTIC'] : ['BOUNDED'],
        assurance: { level: 'COMPUTED', basis: spec.method, verification_record_uri: null, checker_id: null },
        obligations: [],
        relationships: [],
        artifact_uris: resolved.input_uris,
        diagnostics: found.exact ? [] : [BUDGET_DIAGNOSTIC(found.basis)],
      };
    },
  };
}
