/**
 * How graph capabilities receive a graph: inline (explicit vertices and edges, graph6 or
 * sparse6) or as a stored graph artifact. One schema and one resolver, shared by producers and
 * checkers, so every graph capability accepts the same forms with the same errors.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ArtifactUriSchema } from '../artifacts/manifest.js';
import type { ArtifactStore } from '../artifacts/store.js';
import { JacobianError } from '../errors.js';
import { inOwnTurn } from '../capabilities/turns.js';
import {
  GRAPH_SCHEMA_URI,
  GRAPH_SEMANTICS_URI,
  MAX_GRAPH_ORDER,
  canonicalLabel,
  compareLabels,
  parseStoredGraph,
  type GraphPayload,
} from './graph.js';
import { decodeGraph6, decodeSparse6, encodeGraph6 } from './graph-formats.js';

export const MAX_LABEL_LENGTH = 64;

/** A canonical non-negative decimal: the labels that name vertices 0..order-1 of a graph given by `order`. */
const DECIMAL_LABEL = /^(0|[1-9][0-9]*)$/;

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
    .regex(/^[^\u0000-\u001f\u007f-\u009f]+$/, 'must not contain control characters')
    // Labels are stored in NFC, which can lengthen a string (U+0958 becomes two characters): the
    // limit holds for what is stored, so a stored graph is always readable.
    .refine((label) => label.normalize('NFC').length <= MAX_LABEL_LENGTH, `must be at most ${MAX_LABEL_LENGTH} characters after Unicode NFC normalization`),
  // An ID puts it once under $defs in JSON Schema: a graph names the label type three times.
]).meta({ id: 'vertex_label' });

export const ExplicitGraphSchema = z
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
    // Edge ends as vertex indices, so that the checks below make no string per edge (a large
    // graph has tens of thousands of edges): an integer label of a graph given by `order` is its
    // own index; any other label is looked up by its canonical form. Equal canonical labels are
    // the same index, so the loop and duplicate checks mean what they meant on labels.
    const vertexOf = (label: string | number): number | undefined => {
      if (labels !== null) return known.get(canonicalLabel(label));
      if (typeof label === 'number') return label < order ? label : undefined;
      const end = canonicalLabel(label);
      return DECIMAL_LABEL.test(end) && Number(end) < order ? Number(end) : undefined;
    };
    /** For each unordered pair of vertices u < v (at u * order + v), the first edge joining them, or -1. */
    const firstEdge = new Int32Array(input.edges.length > 0 ? order * order : 0).fill(-1);
    for (let i = 0; i < input.edges.length; i++) {
      const [a, b] = input.edges[i] as [string | number, string | number];
      const u = vertexOf(a);
      const v = vertexOf(b);
      if (u === undefined || v === undefined) {
        const side = u === undefined ? 0 : 1;
        ctx.addIssue({
          code: 'custom',
          path: ['edges', i, side],
          message: `dangling edge: vertex "${canonicalLabel(side === 0 ? a : b)}" is not among the ${labels !== null ? 'listed vertices' : `vertices 0..${order - 1}`}`,
        });
        return;
      }
      if (u === v) {
        ctx.addIssue({ code: 'custom', path: ['edges', i], message: `loop at vertex "${canonicalLabel(a)}": simple graphs have no loops` });
        return;
      }
      const pair = u < v ? u * order + v : v * order + u;
      const first = firstEdge[pair] as number;
      if (first !== -1) {
        ctx.addIssue({ code: 'custom', path: ['edges', i], message: `duplicate edge (same as edges[${first}]); simple graphs have no multi-edges` });
        return;
      }
      firstEdge[pair] = i;
    }
  });
export type ExplicitGraph = z.infer<typeof ExplicitGraphSchema>;


/** Canonical graph payload of a validated request. Pure: same graph, same payload, whatever the input order. */
export function canonicalGraph(input: ExplicitGraph): GraphPayload {
  const labels = (input.vertices !== undefined ? input.vertices.map(canonicalLabel) : Array.from({ length: input.order ?? 0 }, (_, i) => String(i))).sort(
    compareLabels,
  );
  const index = new Map(labels.map((label, i) => [label, i]));
  // Vertices 0..order-1 of a graph given by `order` sort in numeric order: an integer label is its
  // own index (+ 0 makes a label -0 the index 0, as its canonical label "0" does).
  const indexOf = (label: string | number): number =>
    input.vertices === undefined && typeof label === 'number' ? label + 0 : (index.get(canonicalLabel(label)) as number);
  const edges = input.edges
    .map(([a, b]): [number, number] => {
      const u = indexOf(a);
      const v = indexOf(b);
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


/** Longest graph6 or sparse6 string accepted (sparse6 of a complete graph on 256 vertices fits). */
export const MAX_GRAPH_STRING_LENGTH = 131_072;

/**
 * The graph fields of a graph capability's input: exactly one of them. Spread into the
 * capability's own object schema and pair with {@link refineGraphOperand}.
 */
export const graphOperandShape = {
  graph: ExplicitGraphSchema.optional().describe('the graph inline: `order` or `vertices`, and `edges`'),
  graph6: z.string().min(1).max(MAX_GRAPH_STRING_LENGTH).optional().describe('the graph in graph6 (nauty); vertices are 0..n-1'),
  sparse6: z.string().min(2).max(MAX_GRAPH_STRING_LENGTH).optional().describe('the graph in sparse6 (nauty), starting with ":"; vertices are 0..n-1'),
  graph_uri: ArtifactUriSchema.optional().describe('a stored graph artifact, e.g. from graph.construct.explicit'),
} as const;

const OPERAND_FIELDS = ['graph', 'graph6', 'sparse6', 'graph_uri'] as const;

/**
 * A graph operand as one value, for inputs that take more than one graph (each nested under a
 * field of its own). Its ID puts it once under $defs in JSON Schema however many fields use it.
 */
export const GraphOperandSchema = z.object(graphOperandShape).strict().superRefine(refineGraphOperand).meta({ id: 'graph_operand' });

/** The fields of {@link graphOperandShape}, as parsed. */
export interface GraphOperand {
  graph?: ExplicitGraph | undefined;
  graph6?: string | undefined;
  sparse6?: string | undefined;
  graph_uri?: string | undefined;
}

/**
 * Cross-field rule of a graph operand: exactly one form, and graph6/sparse6 text that decodes
 * to a simple graph within the order bound. Checked at validation, before any computation.
 */
export function refineGraphOperand(input: GraphOperand, ctx: z.RefinementCtx): void {
  const given = OPERAND_FIELDS.filter((field) => input[field] !== undefined);
  if (given.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      path: given.length > 1 ? [given[1] as string] : [],
      message: given.length === 0 ? 'give the graph as one of `graph`, `graph6`, `sparse6` or `graph_uri`' : `give only one of ${given.map((f) => `\`${f}\``).join(', ')}`,
    });
    return;
  }
  try {
    if (input.graph6 !== undefined) decodeGraph6(input.graph6, ['graph6']);
    if (input.sparse6 !== undefined) decodeSparse6(input.sparse6, ['sparse6']);
  } catch (error) {
    const field = input.graph6 !== undefined ? 'graph6' : 'sparse6';
    ctx.addIssue({ code: 'custom', path: [field], message: error instanceof Error ? error.message : String(error) });
  }
}

/** A graph operand made concrete: the canonical graph and where it came from. */
export interface ResolvedGraph {
  graph: GraphPayload;
  /** Stored artifacts the graph came from ([] for inline graphs). */
  input_uris: string[];
  /** graph6 of the graph in its canonical vertex order: an exact, compact name for scopes. */
  graph6: string;
  /** "the stored graph artifact://…" or "the graph with graph6 …", for scope statements. */
  description: string;
}

const MAX_DESCRIBED_GRAPH6 = 120;

/** Graphs with more edges than this are canonicalized and encoded in turns of the event loop of their own. */
const LARGE_INLINE_EDGES = 4096;

function numbered(order: number): string[] {
  return Array.from({ length: order }, (_, i) => String(i));
}

/**
 * Resolve a validated operand. Reads the artifact when one is named, and fails with
 * ARTIFACT_TYPE_MISMATCH (path `payload.graph_uri`) when it is not a simple-graph artifact.
 */
export async function resolveGraphOperand(
  input: GraphOperand,
  artifacts: ArtifactStore,
  options: { signal?: AbortSignal } = {},
): Promise<ResolvedGraph> {
  let graph: GraphPayload;
  const input_uris: string[] = [];
  if (input.graph_uri !== undefined) {
    const stored = await artifacts.get(input.graph_uri, options);
    if (stored.manifest.schema_uri !== GRAPH_SCHEMA_URI || stored.manifest.semantics_uri !== GRAPH_SEMANTICS_URI) {
      throw new JacobianError(
        'ARTIFACT_TYPE_MISMATCH',
        `payload.graph_uri: artifact has schema ${stored.manifest.schema_uri}, but a graph artifact (${GRAPH_SCHEMA_URI}) is required`,
        { path: ['payload', 'graph_uri'], hint: 'construct the graph with graph.construct.explicit and pass its graph_uri, or pass the graph inline' },
      );
    }
    graph = parseStoredGraph(stored.payload, ['payload', 'graph_uri']);
    input_uris.push(stored.uri);
  } else if (input.graph !== undefined) {
    const explicit = input.graph;
    // A large inline graph's canonical form (milliseconds, more under load) takes a turn of its own (see turns.ts).
    graph = explicit.edges.length > LARGE_INLINE_EDGES ? await inOwnTurn(() => canonicalGraph(explicit)) : canonicalGraph(explicit);
  } else {
    const decoded = input.graph6 !== undefined ? decodeGraph6(input.graph6, ['payload', 'graph6']) : decodeSparse6(input.sparse6 ?? '', ['payload', 'sparse6']);
    graph = { order: decoded.order, labels: numbered(decoded.order), edges: decoded.edges };
  }
  const indexed = graph;
  const graph6 = indexed.edges.length > LARGE_INLINE_EDGES ? await inOwnTurn(() => encodeGraph6(indexed)) : encodeGraph6(indexed);
  const description =
    input_uris[0] !== undefined
      ? `the stored graph ${input_uris[0]}`
      : graph6.length <= MAX_DESCRIBED_GRAPH6
        ? `the graph with graph6 ${graph6}`
        : `the supplied graph with ${graph.order} vertices and ${graph.edges.length} edges`;
  return { graph, input_uris, graph6, description };
}

/** This file's path: graph providers include it in their source identity. */
export const GRAPH_OPERAND_SOURCE: string = fileURLToPath(import.meta.url);
