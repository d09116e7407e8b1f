/**
 * The witness checkers of the graph domain, one capability each: a colouring, a clique, an
 * independent set, a matching, a Hamiltonian path or cycle, a spanning tree. Each takes the
 * graph (any operand form) and the witness, and confirms the property with the plain checks of
 * graph-witness.ts in @jacobian/shared, which share no code with the searches that produce
 * witnesses. They verify the witness and the number it attains, never an optimum: an accepted
 * clique of 4 vertices shows ω(G) ≥ 4, not ω(G) = 4.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  checkClique,
  checkColouring,
  checkHamiltonian,
  checkIndependentSet,
  checkMatching,
  checkSpanningTree,
  formatJsonPath,
  GRAPH_CONTRACT_SOURCE,
  GRAPH_FORMATS_SOURCE,
  GRAPH_OPERAND_SOURCE,
  GRAPH_WITNESS_SOURCE,
  graphOperandShape,
  JacobianError,
  MAX_GRAPH_ORDER,
  PETERSEN_EXAMPLE,
  refineGraphOperand,
  type CapabilityDefinition,
  type CapabilityRelationship,
  type GraphPayload,
  type InvocationExample,
  type ResolvedGraph,
} from '@jacobian/shared';
import { RECORD_SOURCE } from '../record.js';
import type { CheckerAuthority } from './induced-tree-verify.js';
import {
  EdgeRefListSchema,
  graphSummary,
  GraphSummarySchema,
  graphWitnessChecker,
  listed,
  ResolvedEdgesSchema,
  ResolvedVerticesSchema,
  VertexLookup,
  VertexRefListSchema,
  WITNESS_CHECKER_FRAME_SOURCE,
  type OperandAt,
} from './witness-checker.js';

/**
 * The files whose bytes form the identity of every checker in this file: the checkers, their
 * frame, the plain witness checks, and the graph contracts and formats they read.
 */
export const GRAPH_WITNESS_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  WITNESS_CHECKER_FRAME_SOURCE,
  RECORD_SOURCE,
  GRAPH_WITNESS_SOURCE,
  GRAPH_OPERAND_SOURCE,
  GRAPH_FORMATS_SOURCE,
  GRAPH_CONTRACT_SOURCE,
];

/** A proper 3-colouring of {@link PETERSEN_EXAMPLE} (χ = 3), in canonical vertex order. */
const PETERSEN_COLOURS = [0, 1, 0, 1, 2, 1, 0, 2, 2, 1];
/** An independent set of 4 vertices of the Petersen graph (α = 4). */
const PETERSEN_INDEPENDENT = [0, 2, 8, 9];
/** The five spokes: a perfect matching of the Petersen graph. */
const PETERSEN_SPOKES: [number, number][] = [[0, 5], [1, 6], [2, 7], [3, 8], [4, 9]];
/** The outer path 0-1-2-3-4 with the five spokes: a spanning tree of the Petersen graph. */
const PETERSEN_TREE: [number, number][] = [[0, 1], [1, 2], [2, 3], [3, 4], ...PETERSEN_SPOKES];
/** A Hamiltonian path of the Petersen graph (which has no Hamiltonian cycle). */
const PETERSEN_PATH = [0, 1, 2, 3, 4, 9, 7, 5, 8, 6];
/** The 3-cube Q3 (vertices 0..7 as bit strings, edges between strings one bit apart). */
const CUBE = {
  order: 8,
  edges: [
    [0, 1], [0, 2], [0, 4], [1, 3], [1, 5], [2, 3], [2, 6], [3, 7], [4, 5], [4, 6], [5, 7], [6, 7],
  ] as [number, number][],
};
/** A Hamiltonian cycle of Q3: the Gray code 000, 001, 011, 010, 110, 111, 101, 100. */
const CUBE_CYCLE = [0, 1, 3, 2, 6, 7, 5, 4];

const ClaimedSize = z.number().int().min(0).max(MAX_GRAPH_ORDER);

/** The one operand of a one-graph checker: the graph fields sit at the top of the payload. */
function topLevelOperand(input: object): OperandAt[] {
  return [{ operand: input, path: [], role: 'graph' }];
}

/** The single resolved graph of a one-graph checker. */
function onlyGraph(graphs: readonly ResolvedGraph[]): ResolvedGraph {
  const graph = graphs[0];
  if (graph === undefined) throw new JacobianError('INTERNAL', 'a one-graph witness checker ran without its graph');
  return graph;
}

function verifies(capabilityId: string): CapabilityRelationship[] {
  return [{ kind: 'VERIFIES', capability_id: capabilityId }];
}

// ---------------------------------------------------------------------------------------------
// Colouring

const ColouringInput = z
  .object({
    ...graphOperandShape,
    colours: z
      .array(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
      .max(MAX_GRAPH_ORDER)
      .describe(
        'colours[i] is the colour of vertex i, one entry for every vertex in the canonical vertex order (as graph.chromatic_number.compute outputs under colouring.colours); colours are non-negative integers used as names, so the number of distinct values is the number of colours used',
      ),
    k: ClaimedSize.describe('the claimed number of colours: the colouring must be proper and use at most k distinct colours'),
  })
  .strict()
  .superRefine(refineGraphOperand);
type ColouringInput = z.infer<typeof ColouringInput>;

/** `graph.colouring.verify`: a proper colouring with at most k colours, so χ(G) ≤ k. */
export function verifyColouring(authority: CheckerAuthority): CapabilityDefinition<ColouringInput, Record<string, unknown>> {
  return graphWitnessChecker<ColouringInput>(
    {
      id: 'graph.colouring.verify',
      title: 'Verify a proper vertex colouring with at most k colours',
      description:
        'Independently checks that a vertex colouring is proper (every edge joins two different colours) and uses at most k colours, which shows χ(G) ≤ k; for example the colouring output by graph.chromatic_number.compute. It does not check that k is the minimum.',
      tags: ['colouring', 'coloring', 'chromatic-number'],
      keywords: ['check a colouring', 'verify a coloring', 'proper colouring', 'k-colouring', 'chromatic number', 'χ upper bound'],
      checkerId: 'jacobian.graph.colouring.witness',
      method: 'test every edge for distinct end colours and count the distinct colours',
      claimKind: 'PROPER_COLOURING',
      claimSemanticsUri: 'jacobian:semantics/graph.colouring.proper.at_most_k/v1',
      input: ColouringInput,
      outputShape: {
        graph: GraphSummarySchema,
        k: z.number().int().describe('the claimed number of colours'),
        colours_used: z.number().int().describe('how many distinct colours the colouring uses'),
      },
      examples: [{ title: 'A 3-colouring of the Petersen graph', mode: 'VERIFY', payload: { graph: PETERSEN_EXAMPLE, colours: PETERSEN_COLOURS, k: 3 } }],
      relationships: verifies('graph.chromatic_number.compute'),
      scopeRule: 'Covers exactly the given colouring of the one input graph: that it is proper with at most k colours, nothing about smaller k.',
      sources: GRAPH_WITNESS_CHECKER_SOURCES,
      operands: topLevelOperand,
      prepare(input, graphs) {
        const resolved = onlyGraph(graphs);
        const { graph } = resolved;
        const { colours, k } = input;
        if (colours.length !== graph.order) {
          throw new JacobianError(
            'INVALID_REQUEST',
            `${formatJsonPath(['payload', 'colours'])}: the colouring has ${colours.length} entries but the graph has ${graph.order} vertices; give one colour per vertex, in the canonical vertex order`,
            { path: ['payload', 'colours'] },
          );
        }
        const used = new Set(colours).size;
        return {
          statement: `${listed('the vertex colours', colours)} (in canonical vertex order) form a proper colouring of ${resolved.description} with at most ${k} colours, so its chromatic number χ ≤ ${k}`,
          value: { colours: [...colours], k },
          output: { graph: graphSummary(resolved), k, colours_used: used },
          check() {
            // Colours are names, not 0..k-1: the range given to the plain check is just wide
            // enough for every name, and the count of distinct names is compared with k here.
            const problem = checkColouring(graph, colours, colours.reduce((top, c) => Math.max(top, c), -1) + 1);
            if (problem !== null) return { reason_code: 'WITNESS_INVALID', message: `not a proper colouring: ${problem}`, path: ['payload', 'colours'] };
            if (used > k) return { reason_code: 'CLAIM_MISMATCH', message: `the colouring uses ${used} colours, more than the claimed ${k}`, path: ['payload', 'k'] };
            return null;
          },
          accepted: `all ${graph.edges.length} edges join vertices of different colours, and ${used} colours are used (at most ${k})`,
        };
      },
    },
    authority,
  );
}

// ---------------------------------------------------------------------------------------------
// Clique and independent set

const VertexSetInput = z
  .object({
    ...graphOperandShape,
    vertices: VertexRefListSchema.describe('the vertices of the set, without repeats'),
    size: ClaimedSize.describe('the claimed number of vertices in the set'),
  })
  .strict()
  .superRefine(refineGraphOperand);
type VertexSetInput = z.infer<typeof VertexSetInput>;

interface VertexSetKind {
  id: string;
  title: string;
  description: string;
  tags: string[];
  keywords: string[];
  checkerId: string;
  method: string;
  claimKind: string;
  claimSemanticsUri: string;
  /** "clique", "independent set". */
  noun: string;
  /** The invariant the claim bounds from below, as a statement names it, e.g. "its clique number ω". */
  invariant: string;
  producer: string;
  check(graph: GraphPayload, vertices: readonly number[]): string | null;
  /** Why an accepted set has the property, given its size. */
  holds(size: number): string;
  example: InvocationExample;
}

function vertexSetChecker(kind: VertexSetKind, authority: CheckerAuthority): CapabilityDefinition<VertexSetInput, Record<string, unknown>> {
  return graphWitnessChecker<VertexSetInput>(
    {
      id: kind.id,
      title: kind.title,
      description: kind.description,
      tags: kind.tags,
      keywords: kind.keywords,
      checkerId: kind.checkerId,
      method: kind.method,
      claimKind: kind.claimKind,
      claimSemanticsUri: kind.claimSemanticsUri,
      input: VertexSetInput,
      outputShape: {
        graph: GraphSummarySchema,
        vertices: ResolvedVerticesSchema.describe('the set as canonical indices and labels'),
        size: z.number().int().describe('the claimed size'),
      },
      examples: [kind.example],
      relationships: verifies(kind.producer),
      scopeRule: `Covers exactly the given vertex set of the one input graph: that it is a ${kind.noun} of the claimed size, nothing about larger ones.`,
      sources: GRAPH_WITNESS_CHECKER_SOURCES,
      operands: topLevelOperand,
      prepare(input, graphs) {
        const resolved = onlyGraph(graphs);
        const lookup = new VertexLookup(resolved.graph);
        const vertices = lookup.vertices(input.vertices, ['payload', 'vertices']);
        return {
          statement: `${listed('the vertices', vertices)} of ${resolved.description} form a ${kind.noun} of ${input.size} vertices, so ${kind.invariant} ≥ ${input.size}`,
          value: { vertices, size: input.size },
          output: { graph: graphSummary(resolved), vertices: lookup.resolvedVertices(vertices), size: input.size },
          check() {
            const problem = kind.check(resolved.graph, vertices);
            if (problem !== null) return { reason_code: 'WITNESS_INVALID', message: `not a ${kind.noun}: ${problem}`, path: ['payload', 'vertices'] };
            if (vertices.length !== input.size) {
              return { reason_code: 'CLAIM_MISMATCH', message: `the ${kind.noun} has ${vertices.length} vertices, not the claimed ${input.size}`, path: ['payload', 'size'] };
            }
            return null;
          },
          accepted: kind.holds(vertices.length),
        };
      },
    },
    authority,
  );
}

/** `graph.clique.verify`: the vertices are pairwise adjacent and as many as claimed, so ω(G) ≥ size. */
export function verifyClique(authority: CheckerAuthority): CapabilityDefinition<VertexSetInput, Record<string, unknown>> {
  return vertexSetChecker(
    {
      id: 'graph.clique.verify',
      title: 'Verify a clique of a claimed size',
      description:
        'Independently checks that a vertex set is a clique (every two of its vertices are adjacent) of the claimed size, which shows ω(G) ≥ size; for example the clique output by graph.clique_number.compute. It does not check that no larger clique exists.',
      tags: ['clique', 'clique-number', 'omega'],
      keywords: ['check a clique', 'verify a clique', 'clique number', 'ω lower bound', 'complete subgraph'],
      checkerId: 'jacobian.graph.clique.witness',
      method: 'test every pair of the given vertices for adjacency and count them',
      claimKind: 'CLIQUE',
      claimSemanticsUri: 'jacobian:semantics/graph.clique.of_size/v1',
      noun: 'clique',
      invariant: 'its clique number ω',
      producer: 'graph.clique_number.compute',
      check: checkClique,
      holds: (size) => `all ${(size * (size - 1)) / 2} pairs of the ${size} vertices are adjacent`,
      example: { title: 'An edge is a clique of 2 in the (triangle-free) Petersen graph', mode: 'VERIFY', payload: { graph: PETERSEN_EXAMPLE, vertices: [0, 1], size: 2 } },
    },
    authority,
  );
}

/** `graph.independent_set.verify`: no two of the vertices are adjacent and they are as many as claimed, so α(G) ≥ size. */
export function verifyIndependentSet(authority: CheckerAuthority): CapabilityDefinition<VertexSetInput, Record<string, unknown>> {
  return vertexSetChecker(
    {
      id: 'graph.independent_set.verify',
      title: 'Verify an independent set of a claimed size',
      description:
        'Independently checks that a vertex set is independent (stable: no two of its vertices are adjacent) and has the claimed size, which shows α(G) ≥ size; for example the set output by graph.independence_number.compute. It does not check that no larger one exists.',
      tags: ['independent-set', 'stable-set', 'independence-number', 'alpha'],
      keywords: ['check an independent set', 'stable set', 'independence number', 'α lower bound'],
      checkerId: 'jacobian.graph.independent_set.witness',
      method: 'test every edge of the graph for both ends in the given set and count the vertices',
      claimKind: 'INDEPENDENT_SET',
      claimSemanticsUri: 'jacobian:semantics/graph.independent_set.of_size/v1',
      noun: 'independent set',
      invariant: 'its independence number α',
      producer: 'graph.independence_number.compute',
      check: checkIndependentSet,
      holds: (size) => `no edge of the graph joins two of the ${size} vertices`,
      example: { title: 'An independent set of 4 in the Petersen graph', mode: 'VERIFY', payload: { graph: PETERSEN_EXAMPLE, vertices: PETERSEN_INDEPENDENT, size: 4 } },
    },
    authority,
  );
}

// ---------------------------------------------------------------------------------------------
// Matching

const MatchingInput = z
  .object({
    ...graphOperandShape,
    edges: EdgeRefListSchema.describe('the edges of the matching, each as its two end vertices'),
    size: ClaimedSize.describe('the claimed number of edges in the matching'),
  })
  .strict()
  .superRefine(refineGraphOperand);
type MatchingInput = z.infer<typeof MatchingInput>;

/** `graph.matching.verify`: pairwise disjoint edges of the graph, as many as claimed, so ν(G) ≥ size. */
export function verifyMatching(authority: CheckerAuthority): CapabilityDefinition<MatchingInput, Record<string, unknown>> {
  return graphWitnessChecker<MatchingInput>(
    {
      id: 'graph.matching.verify',
      title: 'Verify a matching of a claimed size',
      description:
        'Independently checks that a set of edges is a matching (edges of the graph, no two sharing a vertex) of the claimed size, which shows ν(G) ≥ size; for example the matching output by graph.matching_number.compute. It does not check that no larger matching exists.',
      tags: ['matching', 'matching-number'],
      keywords: ['check a matching', 'verify a matching', 'perfect matching', 'matching number'],
      checkerId: 'jacobian.graph.matching.witness',
      method: 'look every given edge up in the graph and test that no vertex is covered twice',
      claimKind: 'MATCHING',
      claimSemanticsUri: 'jacobian:semantics/graph.matching.of_size/v1',
      input: MatchingInput,
      outputShape: {
        graph: GraphSummarySchema,
        edges: ResolvedEdgesSchema.describe('the matching as canonical index pairs and label pairs'),
        size: z.number().int().describe('the claimed size'),
      },
      examples: [{ title: 'The five spokes: a perfect matching of the Petersen graph', mode: 'VERIFY', payload: { graph: PETERSEN_EXAMPLE, edges: PETERSEN_SPOKES, size: 5 } }],
      relationships: verifies('graph.matching_number.compute'),
      scopeRule: 'Covers exactly the given edge set of the one input graph: that it is a matching of the claimed size, nothing about larger ones.',
      sources: GRAPH_WITNESS_CHECKER_SOURCES,
      operands: topLevelOperand,
      prepare(input, graphs) {
        const resolved = onlyGraph(graphs);
        const lookup = new VertexLookup(resolved.graph);
        const edges = lookup.edges(input.edges, ['payload', 'edges']);
        return {
          statement: `${listed('the edges', edges)} of ${resolved.description} form a matching of ${input.size} edges, so its matching number ν ≥ ${input.size}`,
          value: { edges, size: input.size },
          output: { graph: graphSummary(resolved), edges: lookup.resolvedEdges(edges), size: input.size },
          check() {
            const problem = checkMatching(resolved.graph, edges);
            if (problem !== null) return { reason_code: 'WITNESS_INVALID', message: `not a matching: ${problem}`, path: ['payload', 'edges'] };
            if (edges.length !== input.size) {
              return { reason_code: 'CLAIM_MISMATCH', message: `the matching has ${edges.length} edges, not the claimed ${input.size}`, path: ['payload', 'size'] };
            }
            return null;
          },
          accepted: `the ${edges.length} edges are edges of the graph and no two share a vertex`,
        };
      },
    },
    authority,
  );
}

// ---------------------------------------------------------------------------------------------
// Hamiltonian path and cycle

const WalkInput = z
  .object({
    ...graphOperandShape,
    vertices: VertexRefListSchema.describe('every vertex of the graph once, in the order the path or cycle visits them'),
  })
  .strict()
  .superRefine(refineGraphOperand);
type WalkInput = z.infer<typeof WalkInput>;

function hamiltonianChecker(closed: boolean, authority: CheckerAuthority): CapabilityDefinition<WalkInput, Record<string, unknown>> {
  const noun = closed ? 'cycle' : 'path';
  return graphWitnessChecker<WalkInput>(
    {
      id: `graph.hamiltonian_${noun}.verify`,
      title: `Verify a Hamiltonian ${noun}`,
      description: closed
        ? 'Independently checks that a vertex sequence is a Hamiltonian cycle: it visits every vertex exactly once, consecutive vertices are adjacent, and the last vertex is adjacent to the first (give the cycle without repeating its first vertex).'
        : 'Independently checks that a vertex sequence is a Hamiltonian path: it visits every vertex exactly once and consecutive vertices are adjacent.',
      tags: ['hamiltonian', `hamiltonian-${noun}`, noun],
      keywords: ['Hamiltonian', `Hamiltonian ${noun}`, `Hamilton ${noun}`, 'Hamiltonicity', closed ? 'Hamiltonian graph' : 'traceable graph', 'visits every vertex once'],
      checkerId: `jacobian.graph.hamiltonian_${noun}.witness`,
      method: closed
        ? 'test that the sequence lists every vertex once and that consecutive vertices, and the last and first, are adjacent'
        : 'test that the sequence lists every vertex once and that consecutive vertices are adjacent',
      claimKind: closed ? 'HAMILTONIAN_CYCLE' : 'HAMILTONIAN_PATH',
      claimSemanticsUri: `jacobian:semantics/graph.hamiltonian_${noun}/v1`,
      input: WalkInput,
      outputShape: {
        graph: GraphSummarySchema,
        vertices: ResolvedVerticesSchema.describe(`the ${noun} as canonical indices and labels, in order`),
      },
      examples: closed
        ? [{ title: 'A Gray-code Hamiltonian cycle of the cube Q3', mode: 'VERIFY', payload: { graph: CUBE, vertices: CUBE_CYCLE } }]
        : [{ title: 'A Hamiltonian path of the Petersen graph', mode: 'VERIFY', payload: { graph: PETERSEN_EXAMPLE, vertices: PETERSEN_PATH } }],
      relationships: [],
      scopeRule: `Covers exactly the given vertex sequence of the one input graph: that it is a Hamiltonian ${noun}.`,
      sources: GRAPH_WITNESS_CHECKER_SOURCES,
      operands: topLevelOperand,
      prepare(input, graphs) {
        const resolved = onlyGraph(graphs);
        const lookup = new VertexLookup(resolved.graph);
        const walk = lookup.vertices(input.vertices, ['payload', 'vertices']);
        const closing = closed ? ' (its last vertex joined back to its first)' : '';
        return {
          statement: `${listed('the vertex sequence', walk)} is a Hamiltonian ${noun} of ${resolved.description}${closing}`,
          value: { vertices: walk },
          output: { graph: graphSummary(resolved), vertices: lookup.resolvedVertices(walk) },
          check() {
            const problem = checkHamiltonian(resolved.graph, walk, closed);
            return problem === null ? null : { reason_code: 'WITNESS_INVALID', message: `not a Hamiltonian ${noun}: ${problem}`, path: ['payload', 'vertices'] };
          },
          accepted: `the sequence visits each of the ${resolved.graph.order} vertices once and all ${closed ? walk.length : Math.max(0, walk.length - 1)} consecutive pairs${closed ? ', with the closing pair,' : ''} are adjacent`,
        };
      },
    },
    authority,
  );
}

/** `graph.hamiltonian_path.verify`: the sequence visits every vertex once along edges. */
export function verifyHamiltonianPath(authority: CheckerAuthority): CapabilityDefinition<WalkInput, Record<string, unknown>> {
  return hamiltonianChecker(false, authority);
}

/** `graph.hamiltonian_cycle.verify`: as a path, and the last vertex is adjacent to the first. */
export function verifyHamiltonianCycle(authority: CheckerAuthority): CapabilityDefinition<WalkInput, Record<string, unknown>> {
  return hamiltonianChecker(true, authority);
}

// ---------------------------------------------------------------------------------------------
// Spanning tree

const SpanningTreeInput = z
  .object({
    ...graphOperandShape,
    edges: EdgeRefListSchema.describe('the edges of the tree, each as its two end vertices'),
  })
  .strict()
  .superRefine(refineGraphOperand);
type SpanningTreeInput = z.infer<typeof SpanningTreeInput>;

/** `graph.spanning_tree.verify`: order − 1 edges of the graph that connect every vertex. */
export function verifySpanningTree(authority: CheckerAuthority): CapabilityDefinition<SpanningTreeInput, Record<string, unknown>> {
  return graphWitnessChecker<SpanningTreeInput>(
    {
      id: 'graph.spanning_tree.verify',
      title: 'Verify a spanning tree',
      description:
        'Independently checks that a set of edges is a spanning tree: edges of the graph, without repeats, exactly order − 1 of them, connecting every vertex (so they form a tree). It shows that the graph is connected.',
      tags: ['spanning-tree', 'tree', 'connectivity'],
      keywords: ['check a spanning tree', 'verify a spanning tree', 'spanning tree', 'spanning subgraph'],
      checkerId: 'jacobian.graph.spanning_tree.witness',
      method: 'look every given edge up in the graph, count them, and join their ends with union-find to test connectivity',
      claimKind: 'SPANNING_TREE',
      claimSemanticsUri: 'jacobian:semantics/graph.spanning_tree/v1',
      input: SpanningTreeInput,
      outputShape: {
        graph: GraphSummarySchema,
        edges: ResolvedEdgesSchema.describe('the tree as canonical index pairs and label pairs'),
      },
      examples: [{ title: 'The outer path and the spokes: a spanning tree of the Petersen graph', mode: 'VERIFY', payload: { graph: PETERSEN_EXAMPLE, edges: PETERSEN_TREE } }],
      relationships: [],
      scopeRule: 'Covers exactly the given edge set of the one input graph: that it is a spanning tree.',
      sources: GRAPH_WITNESS_CHECKER_SOURCES,
      operands: topLevelOperand,
      prepare(input, graphs) {
        const resolved = onlyGraph(graphs);
        const lookup = new VertexLookup(resolved.graph);
        const edges = lookup.edges(input.edges, ['payload', 'edges']);
        return {
          statement: `${listed('the edges', edges)} form a spanning tree of ${resolved.description}`,
          value: { edges },
          output: { graph: graphSummary(resolved), edges: lookup.resolvedEdges(edges) },
          check() {
            const problem = checkSpanningTree(resolved.graph, edges);
            return problem === null ? null : { reason_code: 'WITNESS_INVALID', message: `not a spanning tree: ${problem}`, path: ['payload', 'edges'] };
          },
          accepted: `the ${edges.length} edges are distinct edges of the graph, one fewer than its ${resolved.graph.order} vertices, and connect them all`,
        };
      },
    },
    authority,
  );
}
