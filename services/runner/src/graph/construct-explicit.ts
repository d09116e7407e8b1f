import { z } from 'zod';
import {
  GRAPH_SCHEMA_URI,
  GRAPH_SEMANTICS_URI,
  MAX_GRAPH_ORDER,
  canonicalLabel,
  compareLabels,
  type CapabilityDefinition,
  type GraphPayload,
} from '@jacobian/shared';

const MAX_LABEL_LENGTH = 64;

const Label = z.union([
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .min(1)
    .max(MAX_LABEL_LENGTH)
    // Control characters (Unicode category Cc) make labels ambiguous when printed; reject
    // rather than strip. Spelled as ranges, not \p{Cc}, so the JSON Schema pattern means the
    // same to validators that compile it without the unicode flag.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .regex(/^[^\u0000-\u001f\u007f-\u009f]+$/, 'must not contain control characters'),
]);

export const ConstructExplicitInput = z
  .object({
    order: z
      .number()
      .int()
      .min(0)
      .max(MAX_GRAPH_ORDER)
      .optional()
      .describe('number of vertices, labelled 0..order-1; give this or `vertices`, not both'),
    vertices: z
      .array(Label)
      .max(MAX_GRAPH_ORDER)
      .optional()
      .describe('vertex labels (non-negative integers or strings); give this or `order`, not both'),
    edges: z
      .array(z.tuple([Label, Label]))
      .max((MAX_GRAPH_ORDER * (MAX_GRAPH_ORDER - 1)) / 2)
      .describe('undirected edges as pairs of vertex labels'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.order === undefined) === (input.vertices === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of `order` or `vertices`' });
      return;
    }
    const labels = input.vertices !== undefined ? input.vertices.map(canonicalLabel) : null;
    const known = new Map<string, number>();
    if (labels !== null) {
      for (const [i, label] of labels.entries()) {
        const first = known.get(label);
        if (first !== undefined) {
          ctx.addIssue({ code: 'custom', path: ['vertices', i], message: `duplicate vertex "${label}" (also vertices[${first}])` });
          return;
        }
        known.set(label, i);
      }
    }
    const order = input.order ?? labels?.length ?? 0;
    const seen = new Map<string, number>();
    for (const [i, [a, b]] of input.edges.entries()) {
      const ends = [canonicalLabel(a), canonicalLabel(b)] as const;
      for (const [side, end] of ends.entries()) {
        const exists = labels !== null ? known.has(end) : /^(0|[1-9][0-9]*)$/.test(end) && Number(end) < order;
        if (!exists) {
          ctx.addIssue({
            code: 'custom',
            path: ['edges', i, side],
            message: `dangling edge: vertex "${end}" is not among the ${labels !== null ? 'listed vertices' : `vertices 0..${order - 1}`}`,
          });
          return;
        }
      }
      if (ends[0] === ends[1]) {
        ctx.addIssue({ code: 'custom', path: ['edges', i], message: `loop at vertex "${ends[0]}": simple graphs have no loops` });
        return;
      }
      const key = compareLabels(ends[0], ends[1]) < 0 ? `${ends[0]}\u0000${ends[1]}` : `${ends[1]}\u0000${ends[0]}`;
      const first = seen.get(key);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['edges', i], message: `duplicate edge (same as edges[${first}]); simple graphs have no multi-edges` });
        return;
      }
      seen.set(key, i);
    }
  });
export type ConstructExplicitInput = z.infer<typeof ConstructExplicitInput>;

export const ConstructExplicitOutput = z
  .object({
    graph_uri: z.string(),
    order: z.number().int(),
    size: z.number().int(),
    labels: z.array(z.string()).describe('vertex labels in canonical order; vertex i of the artifact is labels[i]'),
  })
  .strict();
export type ConstructExplicitOutput = z.infer<typeof ConstructExplicitOutput>;

/** Canonical graph payload of a validated request. Pure: same graph, same payload, whatever the input order. */
export function canonicalGraph(input: ConstructExplicitInput): GraphPayload {
  const labels = (input.vertices !== undefined ? input.vertices.map(canonicalLabel) : Array.from({ length: input.order ?? 0 }, (_, i) => String(i))).sort(
    compareLabels,
  );
  const index = new Map(labels.map((label, i) => [label, i]));
  const edges = input.edges
    .map(([a, b]): [number, number] => {
      const u = index.get(canonicalLabel(a)) as number;
      const v = index.get(canonicalLabel(b)) as number;
      return u < v ? [u, v] : [v, u];
    })
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return { order: labels.length, labels, edges };
}

/** The Petersen graph: outer 5-cycle, spokes, inner pentagram. */
export const PETERSEN_EXAMPLE = {
  order: 10,
  edges: [
    [0, 1], [1, 2], [2, 3], [3, 4], [4, 0],
    [0, 5], [1, 6], [2, 7], [3, 8], [4, 9],
    [5, 7], [7, 9], [9, 6], [6, 8], [8, 5],
  ] as [number, number][],
};

export const constructExplicit: CapabilityDefinition<ConstructExplicitInput, ConstructExplicitOutput> = {
  id: 'graph.construct.explicit',
  version: '1.0.0',
  title: 'Construct a simple graph from explicit vertices and edges',
  description:
    'Validates a complete vertex/edge list (at most 256 vertices; no loops, duplicate edges or edges to unknown vertices) before writing anything, canonicalizes labels and undirected edges, and stores the simple-graph artifact that graph capabilities accept.',
  tags: ['graph', 'construction', 'artifact', 'simple-graph', 'canonicalization'],
  domain: 'graph',
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [GRAPH_SCHEMA_URI],
  input: ConstructExplicitInput,
  output: ConstructExplicitOutput,
  examples: [
    { title: 'The Petersen graph', mode: 'EXPLORE', payload: PETERSEN_EXAMPLE },
    { title: 'A labelled path a-b-c', mode: 'EXPLORE', payload: { vertices: ['a', 'b', 'c'], edges: [['a', 'b'], ['b', 'c']] } },
  ],
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the supplied vertices and edges; the artifact is that one labelled graph.',
  limits: { max_order: MAX_GRAPH_ORDER, max_label_length: MAX_LABEL_LENGTH },
  async run(input, context) {
    const graph = canonicalGraph(input);
    const stored = await context.artifacts.put(
      {
        schema_uri: GRAPH_SCHEMA_URI,
        semantics_uri: GRAPH_SEMANTICS_URI,
        payload: graph,
        parents: [],
        summary: { order: graph.order, size: graph.edges.length },
      },
      { signal: context.signal },
    );
    return {
      status: 'COMPLETED',
      output: { graph_uri: stored.uri, order: graph.order, size: graph.edges.length, labels: graph.labels },
      scope: { kind: 'EXACT_INPUT', statement: `the labelled simple graph with ${graph.order} vertices and ${graph.edges.length} edges as supplied`, input_uris: [] },
      completeness: { status: 'COMPLETE', basis: 'every supplied vertex and edge was validated and stored' },
      qualifiers: ['EXACT', 'DETERMINISTIC'],
      assurance: { level: 'COMPUTED', basis: 'validated and canonicalized by the graph contract', verification_record_uri: null, checker_id: null },
      obligations: [],
      relationships: [],
      artifact_uris: [stored.uri],
      diagnostics: [],
    };
  },
};
