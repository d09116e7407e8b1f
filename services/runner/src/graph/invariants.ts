/**
 * The exact graph invariants, one capability each. The cheap ones (O(n·m) at most: triangles,
 * distances, girth) run in the runner; the rest run as an isolated kernel
 * (invariants.kernel.ts) so that a budget or a cancel really stops them.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  checkClique,
  checkColouring,
  checkDominatingSet,
  checkEdgeCut,
  checkIndependentSet,
  checkMatching,
  checkPath,
  checkSeparator,
  componentCount,
  runKernel,
  type CapabilityContext,
  type CapabilityDefinition,
  type GraphPayload,
} from '@jacobian/shared';
import {
  graphInvariantCapability,
  requireWitness,
  WitnessEdges,
  witnessEdges,
  WitnessVertices,
  witnessVertices,
  type GraphInvariantInput,
  type GraphInvariantSpec,
  type InvariantFinding,
} from './invariant-capability.js';
import type { KernelInvariant } from './invariants.kernel.js';
import { triangleCount } from './invariants/counting.js';
import { diameter, girth, radius } from './invariants/distance.js';

const KERNEL = {
  module: fileURLToPath(new URL('./invariants.kernel.ts', import.meta.url)),
  exportName: 'graphInvariantKernel',
};

const Int = z.number().int();
const Pair = z.tuple([Int.min(0), Int.min(0)]);

/** The kernel's answer, parsed again here because it crossed a process boundary. */
const KernelOutput = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('optimum'),
      result: z
        .object({ witness: z.array(Int.min(0)), lower_bound: Int.min(0), upper_bound: Int.min(0), exhaustive: z.boolean(), nodes: Int.min(0) })
        .strict(),
    })
    .strict(),
  z.object({ kind: z.literal('matching'), size: Int.min(0), edges: z.array(Pair) }).strict(),
  z.object({ kind: z.literal('vertex_connectivity'), value: Int.min(0), separator: z.array(Int.min(0)).nullable() }).strict(),
  z.object({ kind: z.literal('edge_connectivity'), value: Int.min(0), cut: z.array(Pair) }).strict(),
  z.object({ kind: z.literal('spanning_trees'), count: z.string().regex(/^(0|[1-9][0-9]*)$/) }).strict(),
]);
type KernelOutput = z.infer<typeof KernelOutput>;

async function kernel<K extends KernelOutput['kind']>(
  context: CapabilityContext,
  invariant: KernelInvariant,
  graph: GraphPayload,
  kind: K,
): Promise<Extract<KernelOutput, { kind: K }>> {
  const output = KernelOutput.parse(await runKernel(context, KERNEL, { invariant, graph: { order: graph.order, edges: graph.edges } }));
  if (output.kind !== kind) throw new Error(`kernel answered ${output.kind} to a ${kind} request`);
  return output as Extract<KernelOutput, { kind: K }>;
}

const WITNESS_CHECKED = 'the witness was rechecked by plain code independent of the search';

/** An NP-hard optimum by exact branch and bound, with bounds when the budget ends first. */
interface OptimumSpec {
  id: string;
  title: string;
  description: string;
  tags: string[];
  keywords: string[];
  invariant: string;
  symbol: string;
  kernel: 'clique' | 'independence' | 'chromatic' | 'domination';
  sense: 'max' | 'min';
  /** The witness as output fields, after its recheck. */
  witness(graph: GraphPayload, witness: number[], k: number): Record<string, unknown>;
  check(graph: GraphPayload, witness: number[], k: number): string | null;
  witnessOutput: z.ZodRawShape;
  witnessName: string;
}

function optimumCapability(spec: OptimumSpec): CapabilityDefinition<GraphInvariantInput, Record<string, unknown>> {
  const definition: GraphInvariantSpec<Record<string, unknown>> = {
    id: spec.id,
    title: spec.title,
    description: spec.description,
    tags: spec.tags,
    keywords: spec.keywords,
    invariant: spec.invariant,
    pool: 'heavy',
    method: `exact branch and bound in TypeScript (isolated); ${WITNESS_CHECKED}; optimality rests on the search`,
    output: z.object({
      value: Int.nullable().describe(`${spec.symbol} when the search finished, else null (see the bounds)`),
      lower_bound: Int,
      upper_bound: Int,
      ...spec.witnessOutput,
      search_nodes: Int,
    }),
    async compute(graph, context): Promise<InvariantFinding<Record<string, unknown>>> {
      const { result } = await kernel(context, spec.kernel, graph, 'optimum');
      const k = spec.sense === 'max' ? result.lower_bound : result.upper_bound;
      const sound = result.lower_bound <= result.upper_bound && (!result.exhaustive || result.lower_bound === result.upper_bound);
      requireWitness(sound ? spec.check(graph, result.witness, k) : `bounds ${result.lower_bound} > ${result.upper_bound}`, spec.witnessName);
      const bounds = `${result.lower_bound} ≤ ${spec.symbol} ≤ ${result.upper_bound}`;
      return {
        output: {
          value: result.exhaustive ? k : null,
          lower_bound: result.lower_bound,
          upper_bound: result.upper_bound,
          ...spec.witness(graph, result.witness, k),
          search_nodes: result.nodes,
        },
        exact: result.exhaustive,
        basis: result.exhaustive
          ? `the search finished after ${result.nodes} nodes: the ${spec.witnessName} attains ${k} and no ${spec.sense === 'max' ? 'larger' : 'smaller'} one exists`
          : `the budget ended after ${result.nodes} search nodes with ${bounds}; the ${spec.witnessName} is valid and attains ${k}`,
      };
    },
  };
  return graphInvariantCapability(definition);
}

const vertexSetOutput = (name: string, describe: string): z.ZodRawShape => ({ [name]: WitnessVertices.describe(describe) });

export const cliqueNumber = optimumCapability({
  id: 'graph.clique_number.compute',
  title: 'Clique number of a graph, with a maximum clique',
  description: 'Computes ω(G), the size of a largest clique, by exact branch and bound with a colouring bound, and returns a maximum clique.',
  tags: ['clique', 'clique-number', 'omega', 'np-hard', 'branch-and-bound', 'witness'],
  keywords: ['clique number', 'ω', 'ω(G)', 'omega', 'maximum clique', 'largest clique', 'max clique', 'complete subgraph'],
  invariant: 'the clique number ω(G)',
  symbol: 'ω',
  kernel: 'clique',
  sense: 'max',
  witness: (graph, witness) => ({ clique: witnessVertices(graph, witness) }),
  check: (graph, witness, k) => checkClique(graph, witness) ?? (witness.length === k ? null : `size ${witness.length} ≠ ${k}`),
  witnessOutput: vertexSetOutput('clique', 'a clique attaining the lower bound'),
  witnessName: 'clique',
});

export const independenceNumber = optimumCapability({
  id: 'graph.independence_number.compute',
  title: 'Independence number of a graph, with a maximum independent set',
  description: 'Computes α(G), the size of a largest independent (stable) set, by exact branch and bound on the complement, and returns a maximum independent set.',
  tags: ['independent-set', 'stable-set', 'independence-number', 'alpha', 'np-hard', 'branch-and-bound', 'witness'],
  keywords: ['independence number', 'α', 'α(G)', 'alpha', 'maximum independent set', 'largest independent set', 'stable set', 'coclique', 'anticlique', 'vertex packing'],
  invariant: 'the independence number α(G)',
  symbol: 'α',
  kernel: 'independence',
  sense: 'max',
  witness: (graph, witness) => ({ independent_set: witnessVertices(graph, witness) }),
  check: (graph, witness, k) => checkIndependentSet(graph, witness) ?? (witness.length === k ? null : `size ${witness.length} ≠ ${k}`),
  witnessOutput: vertexSetOutput('independent_set', 'an independent set attaining the lower bound'),
  witnessName: 'independent set',
});

export const chromaticNumber = optimumCapability({
  id: 'graph.chromatic_number.compute',
  title: 'Chromatic number of a graph, with an optimal colouring',
  description: 'Computes χ(G), the fewest colours in a proper vertex colouring, by exact branch and bound (clique lower bound, DSATUR search), and returns a colouring with that many colours.',
  tags: ['colouring', 'coloring', 'chromatic-number', 'chi', 'np-hard', 'branch-and-bound', 'witness'],
  keywords: ['chromatic number', 'χ', 'χ(G)', 'chi', 'graph colouring', 'graph coloring', 'vertex colouring', 'vertex coloring', 'proper colouring', 'optimal colouring', 'k-colourable', 'k-colorable', 'minimum number of colours', 'colors'],
  invariant: 'the chromatic number χ(G)',
  symbol: 'χ',
  kernel: 'chromatic',
  sense: 'min',
  witness: (graph, colours, k) => ({
    colouring: {
      colours: colours,
      classes: Array.from({ length: k }, (_, c) => colours.flatMap((colour, v) => (colour === c ? [graph.labels[v] as string] : []))),
    },
  }),
  check: (graph, colours, k) => checkColouring(graph, colours, k),
  witnessOutput: {
    colouring: z
      .object({
        colours: z.array(Int).describe('colour of vertex i (0-based), for every vertex in canonical order'),
        classes: z.array(z.array(z.string())).describe('the vertex labels of each colour class'),
      })
      .strict()
      .describe('a proper colouring with upper_bound colours'),
  },
  witnessName: 'colouring',
});

export const dominationNumber = optimumCapability({
  id: 'graph.domination_number.compute',
  title: 'Domination number of a graph, with a minimum dominating set',
  description: 'Computes γ(G), the size of a smallest dominating set (every vertex is in it or adjacent to it), by exact branch and bound, and returns a minimum dominating set.',
  tags: ['domination', 'dominating-set', 'domination-number', 'gamma', 'np-hard', 'branch-and-bound', 'witness'],
  keywords: ['domination number', 'γ', 'γ(G)', 'gamma', 'minimum dominating set', 'dominating set'],
  invariant: 'the domination number γ(G)',
  symbol: 'γ',
  kernel: 'domination',
  sense: 'min',
  witness: (graph, witness) => ({ dominating_set: witnessVertices(graph, witness) }),
  check: (graph, witness, k) => checkDominatingSet(graph, witness) ?? (witness.length === k ? null : `size ${witness.length} ≠ ${k}`),
  witnessOutput: vertexSetOutput('dominating_set', 'a dominating set attaining the upper bound'),
  witnessName: 'dominating set',
});

const POLYNOMIAL = 'exact polynomial-time algorithm in TypeScript';

export const matchingNumber = graphInvariantCapability({
  id: 'graph.matching_number.compute',
  title: 'Matching number of a graph, with a maximum matching',
  description: "Computes ν(G), the size of a largest matching, by Edmonds' blossom algorithm, and returns a maximum matching.",
  tags: ['matching', 'matching-number', 'blossom', 'edmonds', 'witness'],
  keywords: ['matching number', 'ν', 'ν(G)', 'maximum matching', 'maximum cardinality matching', 'perfect matching', 'Edmonds blossom algorithm'],
  invariant: 'the matching number ν(G)',
  pool: 'light',
  method: `Edmonds' blossom algorithm (${POLYNOMIAL}, isolated); ${WITNESS_CHECKED}`,
  output: z.object({ value: Int, matching: WitnessEdges.describe('a maximum matching') }),
  async compute(graph, context) {
    const found = await kernel(context, 'matching', graph, 'matching');
    requireWitness(checkMatching(graph, found.edges) ?? (found.edges.length === found.size ? null : 'size differs from its edges'), 'matching');
    return {
      output: { value: found.size, matching: witnessEdges(graph, found.edges) },
      exact: true,
      basis: `the blossom algorithm found no augmenting path for a matching of ${found.size} edges, so it is maximum (Berge)`,
    };
  },
});

export const vertexConnectivity = graphInvariantCapability({
  id: 'graph.vertex_connectivity.compute',
  title: 'Vertex connectivity of a graph, with a minimum separating set',
  description:
    'Computes κ(G), the fewest vertices whose removal disconnects the graph (n−1 for the complete graph K_n, 0 when disconnected), by maximum flows, and returns a minimum separating set.',
  tags: ['connectivity', 'vertex-connectivity', 'kappa', 'separator', 'max-flow', 'witness'],
  keywords: ['vertex connectivity', 'κ', 'κ(G)', 'kappa', 'vertex cut', 'separating set', 'minimum separator', 'k-connected', 'Menger', 'maximum flow'],
  invariant: 'the vertex connectivity κ(G)',
  pool: 'light',
  method: `maximum flows with vertex splitting (${POLYNOMIAL}, isolated); ${WITNESS_CHECKED}`,
  output: z.object({
    value: Int,
    separator: WitnessVertices.nullable().describe('a minimum separating set; null when none exists (complete graphs and graphs of order ≤ 1)'),
  }),
  async compute(graph, context) {
    const found = await kernel(context, 'vertex_connectivity', graph, 'vertex_connectivity');
    const complete = graph.edges.length === (graph.order * (graph.order - 1)) / 2;
    if (found.separator === null) {
      requireWitness(complete && found.value === Math.max(0, graph.order - 1) ? null : 'no separator given for a graph that has one', 'separating set');
    } else {
      requireWitness(
        (found.value === 0 ? (componentCount(graph) >= 2 ? null : 'the graph is connected') : checkSeparator(graph, found.separator)) ??
          (found.separator.length === found.value ? null : `size ${found.separator.length} ≠ ${found.value}`),
        'separating set',
      );
    }
    return {
      output: { value: found.value, separator: found.separator === null ? null : witnessVertices(graph, found.separator) },
      exact: true,
      basis:
        found.separator === null
          ? `the graph is complete: no vertex set separates it, and κ(K_n) = n − 1 by convention`
          : `maximum flows bound every separating set below by ${found.value} (Menger), and the separator attains it`,
    };
  },
});

export const edgeConnectivity = graphInvariantCapability({
  id: 'graph.edge_connectivity.compute',
  title: 'Edge connectivity of a graph, with a minimum edge cut',
  description: 'Computes λ(G), the fewest edges whose removal disconnects the graph (0 when disconnected or of order ≤ 1), by maximum flows, and returns a minimum edge cut.',
  tags: ['connectivity', 'edge-connectivity', 'lambda', 'cut', 'min-cut', 'max-flow', 'witness'],
  keywords: ['edge connectivity', 'λ', 'λ(G)', 'lambda', 'edge cut', 'minimum cut', 'min cut', 'Stoer-Wagner', 'k-edge-connected', 'bridges'],
  invariant: 'the edge connectivity λ(G)',
  pool: 'light',
  method: `maximum flows (${POLYNOMIAL}, isolated); ${WITNESS_CHECKED}`,
  output: z.object({ value: Int, cut: WitnessEdges.describe('a minimum edge cut (empty when the graph is already disconnected or has order ≤ 1)') }),
  async compute(graph, context) {
    const found = await kernel(context, 'edge_connectivity', graph, 'edge_connectivity');
    const trivial = graph.order <= 1 || componentCount(graph) >= 2;
    requireWitness(
      found.value === 0
        ? trivial && found.cut.length === 0
          ? null
          : 'λ = 0 claimed for a connected graph'
        : (checkEdgeCut(graph, found.cut) ?? (found.cut.length === found.value ? null : `size ${found.cut.length} ≠ ${found.value}`)),
      'edge cut',
    );
    return {
      output: { value: found.value, cut: witnessEdges(graph, found.cut) },
      exact: true,
      basis: trivial
        ? 'the graph is disconnected or has at most one vertex'
        : `maximum flows bound every edge cut below by ${found.value} (Menger), and the cut attains it`,
    };
  },
});

export const spanningTreeCount = graphInvariantCapability({
  id: 'graph.spanning_tree_count.compute',
  title: 'Number of spanning trees of a graph (exact big integer)',
  description: "Computes τ(G), the number of spanning trees, exactly by Kirchhoff's matrix-tree theorem (a fraction-free determinant of the reduced Laplacian in big integers). 0 for disconnected graphs.",
  tags: ['spanning-trees', 'tree-number', 'complexity', 'kirchhoff', 'matrix-tree', 'laplacian', 'determinant', 'counting'],
  keywords: ['number of spanning trees', 'count spanning trees', 'τ', 'τ(G)', 'tree number', 'complexity of a graph', 'Kirchhoff', 'matrix-tree theorem', 'Laplacian determinant'],
  invariant: 'the number of spanning trees τ(G)',
  pool: 'light',
  method: `Kirchhoff's matrix-tree theorem with a Bareiss determinant in exact integers (${POLYNOMIAL}, isolated)`,
  output: z.object({ value: z.string().describe('τ(G) in decimal (it can exceed 2^53)') }),
  async compute(graph, context) {
    const found = await kernel(context, 'spanning_trees', graph, 'spanning_trees');
    return { output: { value: found.count }, exact: true, basis: 'the determinant is computed in exact integer arithmetic' };
  },
});

export const triangleCountCapability = graphInvariantCapability({
  id: 'graph.triangle_count.compute',
  title: 'Number of triangles in a graph',
  description: 'Counts the triangles (3-cliques) of a graph exactly.',
  tags: ['triangles', 'triangle-count', 'counting', 'clustering', 'small'],
  keywords: ['number of triangles', 'count triangles', 'triangles', '3-cycles', 'K3 subgraphs'],
  invariant: 'the number of triangles',
  pool: 'light',
  method: `exact count over the edges (${POLYNOMIAL})`,
  output: z.object({ value: Int }),
  compute(graph) {
    return Promise.resolve({ output: { value: triangleCount(graph) }, exact: true, basis: 'every edge and common neighbour was counted' });
  },
});

function walkOutput(graph: GraphPayload, walk: number[] | null): Record<string, unknown> | null {
  return walk === null ? null : witnessVertices(graph, walk);
}

export const diameterCapability = graphInvariantCapability({
  id: 'graph.diameter.compute',
  title: 'Diameter of a graph, with a longest shortest path',
  description: 'Computes the diameter (the largest distance between two vertices) by breadth-first search from every vertex; null (infinite) for disconnected graphs.',
  tags: ['diameter', 'distance', 'eccentricity', 'bfs', 'shortest-path', 'witness'],
  keywords: ['diameter', 'longest shortest path', 'maximum distance', 'maximum eccentricity', 'distance'],
  invariant: 'the diameter',
  pool: 'light',
  method: `breadth-first search from every vertex (${POLYNOMIAL}); ${WITNESS_CHECKED}`,
  output: z.object({
    value: Int.nullable().describe('the diameter; null when the graph is disconnected (infinite diameter) or has no vertices'),
    path: WitnessVertices.nullable().describe('a shortest path between two vertices at distance `value`'),
  }),
  compute(graph) {
    const found = diameter(graph);
    if (found.value !== null) {
      const path = found.path ?? [];
      requireWitness(checkPath(graph, path, false) ?? (path.length === found.value + 1 ? null : `path has ${path.length} vertices`), 'path');
    }
    return Promise.resolve({
      output: { value: found.value, path: walkOutput(graph, found.path) },
      exact: true,
      basis: found.value === null ? 'the graph is disconnected or empty' : 'every vertex was searched from',
    });
  },
});

export const radiusCapability = graphInvariantCapability({
  id: 'graph.radius.compute',
  title: 'Radius of a graph, with a central vertex',
  description: 'Computes the radius (the smallest eccentricity) by breadth-first search from every vertex; null (infinite) for disconnected graphs.',
  tags: ['radius', 'distance', 'eccentricity', 'centre', 'center', 'bfs'],
  keywords: ['radius', 'minimum eccentricity', 'centre', 'center', 'central vertex'],
  invariant: 'the radius',
  pool: 'light',
  method: `breadth-first search from every vertex (${POLYNOMIAL})`,
  output: z.object({
    value: Int.nullable().describe('the radius; null when the graph is disconnected (infinite) or has no vertices'),
    centre: WitnessVertices.nullable().describe('one vertex whose eccentricity is the radius (the first in canonical order)'),
  }),
  compute(graph) {
    const found = radius(graph);
    return Promise.resolve({
      output: { value: found.value, centre: found.centre === null ? null : witnessVertices(graph, [found.centre]) },
      exact: true,
      basis: found.value === null ? 'the graph is disconnected or empty' : 'every vertex was searched from',
    });
  },
});

export const girthCapability = graphInvariantCapability({
  id: 'graph.girth.compute',
  title: 'Girth of a graph, with a shortest cycle',
  description: 'Computes the girth (the length of a shortest cycle) by breadth-first search from every vertex; null (infinite) for forests.',
  tags: ['girth', 'cycle', 'shortest-cycle', 'bfs', 'witness'],
  keywords: ['girth', 'shortest cycle', 'smallest cycle', 'length of the shortest cycle'],
  invariant: 'the girth',
  pool: 'light',
  method: `breadth-first search from every vertex (${POLYNOMIAL}); ${WITNESS_CHECKED}`,
  output: z.object({
    value: Int.nullable().describe('the girth; null when the graph has no cycle'),
    cycle: WitnessVertices.nullable().describe('a shortest cycle, as its vertices in order'),
  }),
  compute(graph) {
    const found = girth(graph);
    if (found.value !== null) {
      const cycle = found.cycle ?? [];
      requireWitness(checkPath(graph, cycle, true) ?? (cycle.length === found.value ? null : `cycle has ${cycle.length} vertices`), 'cycle');
    }
    return Promise.resolve({
      output: { value: found.value, cycle: walkOutput(graph, found.cycle) },
      exact: true,
      basis: found.value === null ? 'the graph is a forest' : 'every vertex was searched from',
    });
  },
});

/** Every exact invariant capability of this module. */
export const GRAPH_INVARIANTS = [
  cliqueNumber,
  independenceNumber,
  chromaticNumber,
  dominationNumber,
  matchingNumber,
  vertexConnectivity,
  edgeConnectivity,
  spanningTreeCount,
  triangleCountCapability,
  diameterCapability,
  radiusCapability,
  girthCapability,
] as const;
