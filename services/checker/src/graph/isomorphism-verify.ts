/**
 * `graph.isomorphism.verify`: checks a claimed isomorphism between two graphs by following the
 * given map, with no canonical labelling or search, so it shares nothing with the code that
 * finds isomorphisms. Each graph is a full graph operand of its own (`first`, `second`), read by
 * the same shared schema and resolver as every other graph capability.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  EdgeIndex,
  formatJsonPath,
  GRAPH_CONTRACT_SOURCE,
  GRAPH_FORMATS_SOURCE,
  GRAPH_OPERAND_SOURCE,
  GRAPH_WITNESS_SOURCE,
  GraphOperandSchema,
  JacobianError,
  type CapabilityDefinition,
  type IndexedGraph,
  type ResolvedGraph,
} from '@jacobian/shared';
import { RECORD_SOURCE } from '../record.js';
import type { CheckerAuthority } from './induced-tree-verify.js';
import {
  graphSummary,
  GraphSummarySchema,
  graphWitnessChecker,
  listed,
  VertexLookup,
  VertexRefListSchema,
  WITNESS_CHECKER_FRAME_SOURCE,
} from './witness-checker.js';

/** The files whose bytes form this checker's identity: the check, its frame, and the graph contracts it reads. */
export const ISOMORPHISM_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  WITNESS_CHECKER_FRAME_SOURCE,
  RECORD_SOURCE,
  GRAPH_WITNESS_SOURCE,
  GRAPH_OPERAND_SOURCE,
  GRAPH_FORMATS_SOURCE,
  GRAPH_CONTRACT_SOURCE,
];

/**
 * Whether `mapping` (the image of each vertex of `first`) is an isomorphism onto `second`:
 * a bijection of the vertices under which the edges of `first` become exactly those of
 * `second`. Returns null when it is, else the first violation in words.
 *
 * @example checkIsomorphism({ order: 2, edges: [[0, 1]] }, { order: 2, edges: [[0, 1]] }, [1, 0]) === null
 */
export function checkIsomorphism(first: IndexedGraph, second: IndexedGraph, mapping: readonly number[]): string | null {
  if (mapping.length !== first.order) return `the map gives ${mapping.length} images for the ${first.order} vertices of the first graph`;
  if (first.order !== second.order) return `the first graph has ${first.order} vertices and the second ${second.order}, so no bijection exists`;
  const preimage = new Int32Array(second.order).fill(-1);
  for (const [v, image] of mapping.entries()) {
    if (!Number.isInteger(image) || image < 0 || image >= second.order) return `vertex ${v} maps to ${image}, which is not a vertex of the second graph`;
    const earlier = preimage[image] as number;
    if (earlier !== -1) return `vertices ${earlier} and ${v} of the first graph both map to vertex ${image}, so the map is not a bijection`;
    preimage[image] = v;
  }
  // Equal orders and no image hit twice: the map is onto as well.
  const target = new EdgeIndex(second);
  for (const [u, v] of first.edges) {
    const mu = mapping[u] as number;
    const mv = mapping[v] as number;
    if (!target.has(mu, mv)) return `edge [${u}, ${v}] of the first graph maps to [${mu}, ${mv}], which is not an edge of the second graph`;
  }
  // Both directions are checked, rather than comparing edge counts, so that a rejection names an edge.
  const source = new EdgeIndex(first);
  for (const [x, y] of second.edges) {
    const px = preimage[x] as number;
    const py = preimage[y] as number;
    if (!source.has(px, py)) return `edge [${x}, ${y}] of the second graph is not the image of an edge of the first (its preimage [${px}, ${py}] is not an edge)`;
  }
  return null;
}

const IsomorphismInput = z
  .object({
    first: GraphOperandSchema.describe('the first graph, as exactly one of `graph` (`order` or `vertices`, and `edges`), `graph6`, `sparse6` or `graph_uri`'),
    second: GraphOperandSchema.describe('the second graph, in any of the same forms'),
    mapping: VertexRefListSchema.describe(
      "mapping[i] is the image of vertex i of the first graph, one entry for every vertex of the first graph in its canonical vertex order; each image is a vertex of the second graph, as its index in the second graph's canonical vertex order (a number) or its label (a string)",
    ),
  })
  .strict();
type IsomorphismInput = z.infer<typeof IsomorphismInput>;

const C5 = { order: 5, edges: [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0]] as [number, number][] };
const PENTAGRAM = { order: 5, edges: [[0, 2], [2, 4], [4, 1], [1, 3], [3, 0]] as [number, number][] };

function graphAt(graphs: readonly ResolvedGraph[], i: number): ResolvedGraph {
  const graph = graphs[i];
  if (graph === undefined) throw new JacobianError('INTERNAL', 'the isomorphism checker ran without both graphs');
  return graph;
}

/** `graph.isomorphism.verify`: the map is a bijection carrying the edges of the first graph exactly onto the second's. */
export function verifyIsomorphism(authority: CheckerAuthority): CapabilityDefinition<IsomorphismInput, Record<string, unknown>> {
  return graphWitnessChecker<IsomorphismInput>(
    {
      id: 'graph.isomorphism.verify',
      title: 'Verify an isomorphism between two graphs',
      description:
        'Independently checks that a vertex map from a first graph to a second is an isomorphism: a bijection of the vertices under which the edges of the first are exactly the edges of the second. Each graph is its own operand (`first`, `second`).',
      tags: ['isomorphism', 'graph-isomorphism', 'relabelling', 'bijection'],
      keywords: ['graph isomorphism', 'isomorphic', 'check an isomorphism', 'verify an isomorphism', 'are two graphs isomorphic', 'bijection', 'relabelling', 'permutation'],
      checkerId: 'jacobian.graph.isomorphism.witness',
      method: 'test that the map is injective on equal vertex counts, then look up the image of every edge of the first graph and the preimage of every edge of the second',
      claimKind: 'ISOMORPHISM',
      claimSemanticsUri: 'jacobian:semantics/graph.isomorphism.vertex_map/v1',
      input: IsomorphismInput,
      outputShape: {
        first: GraphSummarySchema,
        second: GraphSummarySchema,
        mapping: z
          .object({
            images: z.array(z.number().int()).describe('images[i]: index in the second graph of the image of vertex i of the first'),
            labels: z.array(z.tuple([z.string(), z.string()])).describe('the map as pairs [label in the first graph, label of its image in the second]'),
          })
          .strict(),
      },
      examples: [{ title: 'The 5-cycle and the pentagram are isomorphic (i ↦ 2i mod 5)', mode: 'VERIFY', payload: { first: { graph: C5 }, second: { graph: PENTAGRAM }, mapping: [0, 2, 4, 1, 3] } }],
      relationships: [],
      scopeRule: 'Covers exactly the given vertex map between the two input graphs: that it is an isomorphism.',
      sources: ISOMORPHISM_CHECKER_SOURCES,
      operands: (input) => [
        { operand: input.first, path: ['first'], role: 'first' },
        { operand: input.second, path: ['second'], role: 'second' },
      ],
      prepare(input, graphs) {
        const first = graphAt(graphs, 0);
        const second = graphAt(graphs, 1);
        if (input.mapping.length !== first.graph.order) {
          throw new JacobianError(
            'INVALID_REQUEST',
            `${formatJsonPath(['payload', 'mapping'])}: the map has ${input.mapping.length} entries but the first graph has ${first.graph.order} vertices; give the image of every vertex of the first graph, in its canonical vertex order`,
            { path: ['payload', 'mapping'] },
          );
        }
        const images = new VertexLookup(second.graph, 'the second graph');
        const mapping = images.vertices(input.mapping, ['payload', 'mapping']);
        return {
          statement: `${listed('the vertex map', mapping)} (the image in the second graph of each vertex of the first, in canonical order) is an isomorphism from ${first.description} onto ${second.description}`,
          value: { mapping },
          output: {
            first: graphSummary(first),
            second: graphSummary(second),
            mapping: { images: mapping, labels: mapping.map((image, v): [string, string] => [first.graph.labels[v] as string, images.label(image)]) },
          },
          check() {
            const problem = checkIsomorphism(first.graph, second.graph, mapping);
            return problem === null ? null : { reason_code: 'WITNESS_INVALID', message: `not an isomorphism: ${problem}`, path: ['payload', 'mapping'] };
          },
          accepted: `the map is a bijection of the ${first.graph.order} vertices carrying the ${first.graph.edges.length} edges of the first graph exactly onto the ${second.graph.edges.length} edges of the second`,
        };
      },
    },
    authority,
  );
}
