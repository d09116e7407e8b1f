import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  canonicalGraph,
  DEFAULT_ARTIFACT_STORE_LIMITS,
  ExplicitGraphSchema,
  prepareArtifact,
  GRAPH_SCHEMA_URI,
  GRAPH_SEMANTICS_URI,
  INDUCED_TREE_RESULT_SCHEMA_URI,
  INDUCED_TREE_RESULT_SEMANTICS_URI,
  InducedTreeResultPayloadSchema,
  JacobianError,
  parseStoredGraph,
  PETERSEN_EXAMPLE,
  runKernel,
  type CapabilityDefinition,
  type InducedTreeResultPayload,
  type ProviderRuntime,
} from '@jacobian/shared';

export const MaximumInducedTreeInput = z
  .object({
    graph_uri: ArtifactUriSchema.describe('a graph artifact from graph.construct.explicit'),
  })
  .strict();
export type MaximumInducedTreeInput = z.infer<typeof MaximumInducedTreeInput>;

export const MaximumInducedTreeOutput = z
  .object({
    graph_uri: z.string(),
    result_uri: z.string().describe('stored result artifact; pass it to graph.induced_tree.maximum.verify'),
    maximum: z.number().int().nullable().describe('the maximum induced tree order when proven optimal, else null'),
    lower_bound: z.number().int(),
    upper_bound: z.number().int(),
    witness: z
      .object({ vertices: z.array(z.number().int()), labels: z.array(z.string()) })
      .strict()
      .describe('a largest induced tree found: vertex indices of the graph artifact and their labels'),
    termination: z.enum(['OPTIMAL', 'BUDGET_EXHAUSTED']),
    solver_calls: z.number().int(),
  })
  .strict();
export type MaximumInducedTreeOutput = z.infer<typeof MaximumInducedTreeOutput>;

/** Shape of the kernel's answer, parsed again here because it crossed a process boundary. */
const KernelOutput = z
  .object({
    witness: z.array(z.number().int().min(0)),
    lower_bound: z.number().int().min(0),
    upper_bound: z.number().int().min(0),
    termination: z.enum(['OPTIMAL', 'BUDGET_EXHAUSTED', 'CANCELLED']),
    solver_calls: z.number().int().min(0),
  })
  .strict();

const KERNEL = {
  module: fileURLToPath(new URL('./maximum-induced-tree.kernel.ts', import.meta.url)),
  exportName: 'maximumInducedTreeKernel',
};

/** Independent plain check that a witness induces a tree, so a solver bug cannot slip a non-tree through. */
function inducesTree(order: number, edges: readonly [number, number][], witness: readonly number[]): boolean {
  if (witness.length === 0) return order === 0;
  const inSet = new Set(witness);
  if (inSet.size !== witness.length || witness.some((v) => v >= order)) return false;
  const adjacency = new Map<number, number[]>(witness.map((v) => [v, []]));
  let induced = 0;
  for (const [u, v] of edges) {
    if (inSet.has(u) && inSet.has(v)) {
      induced++;
      adjacency.get(u)?.push(v);
      adjacency.get(v)?.push(u);
    }
  }
  if (induced !== witness.length - 1) return false;
  const seen = new Set<number>([witness[0] as number]);
  const stack = [witness[0] as number];
  while (stack.length > 0) {
    for (const next of adjacency.get(stack.pop() as number) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
  return seen.size === witness.length;
}

/** The content address graph.construct.explicit gives the Petersen graph of its own example. */
const PETERSEN_GRAPH_URI = prepareArtifact(
  {
    schema_uri: GRAPH_SCHEMA_URI,
    semantics_uri: GRAPH_SEMANTICS_URI,
    payload: canonicalGraph(ExplicitGraphSchema.parse(PETERSEN_EXAMPLE)),
    parents: [],
    summary: { order: 10, size: 15 },
  },
  DEFAULT_ARTIFACT_STORE_LIMITS,
).uri;

export const VERIFY_CAPABILITY_ID = 'graph.induced_tree.maximum.verify';

/** This capability's ID. */
export const MAXIMUM_INDUCED_TREE_ID = 'graph.induced_tree.maximum.compute';

export function maximumInducedTree(runtime: ProviderRuntime): CapabilityDefinition<MaximumInducedTreeInput, MaximumInducedTreeOutput> {
  return {
    id: MAXIMUM_INDUCED_TREE_ID,
    version: '1.0.0',
    title: 'Maximum induced tree of a graph',
    description:
      'Finds a largest vertex set inducing a tree (connected and acyclic) in a stored simple graph, by a sequence of Z3 satisfiability queries under the run budget. Returns a witness with lower and upper bounds and the termination reason, stored as a result artifact bound to the input graph.',
    tags: ['graph', 'induced-subgraph', 'tree', 'optimization', 'smt', 'z3'],
    keywords: ['maximum induced tree', 'largest induced tree', 'induced subtree', 'induced tree', 'SMT', 'Z3', 'optimization'],
    domain: 'graph',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['TYPED_ARTIFACT'],
    accepted_artifact_types: [GRAPH_SCHEMA_URI],
    produced_artifact_types: [INDUCED_TREE_RESULT_SCHEMA_URI],
    input: MaximumInducedTreeInput,
    output: MaximumInducedTreeOutput,
    examples: [
      {
        title: 'The Petersen graph, once stored by the first example of graph.construct.explicit (graph URIs are content addresses)',
        mode: 'EXPLORE',
        payload: { graph_uri: PETERSEN_GRAPH_URI },
      },
    ],
    relationships: [
      { kind: 'CONSUMES_OUTPUT_OF', capability_id: 'graph.construct.explicit' },
      { kind: 'VERIFIED_BY', capability_id: VERIFY_CAPABILITY_ID },
    ],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the one stored input graph; bounds found under a budget stay bounds for that graph.',
    limits: { max_order: 256 },
    async run(input, context) {
      const stored = await context.artifacts.get(input.graph_uri, { signal: context.signal });
      if (stored.manifest.schema_uri !== GRAPH_SCHEMA_URI || stored.manifest.semantics_uri !== GRAPH_SEMANTICS_URI) {
        throw new JacobianError(
          'ARTIFACT_TYPE_MISMATCH',
          `payload.graph_uri: artifact has schema ${stored.manifest.schema_uri}, but a graph artifact (${GRAPH_SCHEMA_URI}) from graph.construct.explicit is required`,
          { path: ['payload', 'graph_uri'], hint: 'construct the graph with graph.construct.explicit and pass its graph_uri' },
        );
      }
      const graph = parseStoredGraph(stored.payload, ['payload', 'graph_uri']);
      const raw = await runKernel(context, KERNEL, { order: graph.order, edges: graph.edges });
      const found = KernelOutput.parse(raw);
      if (!inducesTree(graph.order, graph.edges, found.witness) || found.lower_bound !== found.witness.length) {
        throw new JacobianError('PROVIDER_FAILED', 'the solver returned a witness that does not induce a tree of the claimed size; the result was discarded');
      }
      if (found.termination === 'CANCELLED') {
        throw new JacobianError('EXECUTION_CANCELLED', 'the run was cancelled; nothing was concluded');
      }
      const optimal = found.termination === 'OPTIMAL' && found.lower_bound === found.upper_bound;
      const witness = [...found.witness].sort((a, b) => a - b);
      const payload: InducedTreeResultPayload = InducedTreeResultPayloadSchema.parse({
        input_uri: stored.uri,
        claim: {
          kind: 'MAXIMUM_INDUCED_TREE_ORDER',
          optimal,
          lower_bound: found.lower_bound,
          upper_bound: found.upper_bound,
          witness,
        },
        termination: found.termination,
        solver_calls: found.solver_calls,
        provider: { name: runtime.provider, version: runtime.version, digest: runtime.digest },
      });
      const result = await context.artifacts.put(
        {
          schema_uri: INDUCED_TREE_RESULT_SCHEMA_URI,
          semantics_uri: INDUCED_TREE_RESULT_SEMANTICS_URI,
          payload,
          parents: [stored.uri],
          summary: { optimal, lower_bound: found.lower_bound, upper_bound: found.upper_bound, order: graph.order },
        },
        { signal: context.signal },
      );
      const bounds = `${found.lower_bound} ≤ maximum ≤ ${found.upper_bound}`;
      return {
        status: 'COMPLETED',
        output: {
          graph_uri: stored.uri,
          result_uri: result.uri,
          maximum: optimal ? found.lower_bound : null,
          lower_bound: found.lower_bound,
          upper_bound: found.upper_bound,
          witness: { vertices: witness, labels: witness.map((v) => graph.labels[v] as string) },
          termination: found.termination,
          solver_calls: found.solver_calls,
        },
        scope: { kind: 'EXACT_INPUT', statement: `maximum induced tree order of the stored graph ${stored.uri}`, input_uris: [stored.uri] },
        completeness: optimal
          ? { status: 'COMPLETE', basis: `Z3 found a tree of order ${found.lower_bound} and proved that none of order ${found.lower_bound + 1} exists` }
          : { status: 'PARTIAL', basis: `budget exhausted with ${bounds}; the witness is a valid induced tree` },
        qualifiers: optimal ? ['EXACT'] : ['BOUNDED'],
        assurance: {
          level: 'COMPUTED',
          basis: 'computed by Z3; the witness was rechecked as an induced tree; optimality rests on the solver',
          verification_record_uri: null,
          checker_id: null,
        },
        obligations: [
          {
            id: 'optimality',
            statement: optimal
              ? `no induced tree of order ${found.lower_bound + 1} exists in the input graph`
              : `the maximum lies in [${found.lower_bound}, ${found.upper_bound}]`,
            status: 'OPEN',
            discharged_by: optimal ? [VERIFY_CAPABILITY_ID] : [],
          },
        ],
        relationships: [{ subject: result.uri, predicate: 'COMPUTED_FROM', object: stored.uri }],
        artifact_uris: [stored.uri, result.uri],
        diagnostics: optimal
          ? []
          : [
              {
                severity: 'WARNING',
                code: 'BUDGET_EXHAUSTED',
                stage: 'EXECUTION',
                message: `the search stopped at its budget with ${bounds}`,
                path: null,
                hint: 'raise budget.wall_time_ms to close the gap',
              },
            ],
      };
    },
  };
}
