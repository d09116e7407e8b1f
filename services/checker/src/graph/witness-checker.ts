/**
 * The frame every graph witness checker shares. A run resolves its graph operands, resolves the
 * vertices its witness names against them (a reference to no vertex is an invalid request, not
 * a false claim), requires the operator's authorization, runs the plain check, and then either
 * rejects, naming the failing element, or stores the candidate (claim, witness and graphs) and
 * signs a verification record that binds it.
 *
 * The checks are polynomial (at most quadratic in the order, which is at most 256), so they run
 * in the checker process instead of an isolated kernel: there is no long computation to kill,
 * and the run's signal still stops the artifact reads and writes around them.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  canonicalLabel,
  formatJsonPath,
  GRAPH_SCHEMA_URI,
  GraphPayloadSchema,
  isAuthorized,
  JacobianError,
  MAX_GRAPH_ORDER,
  MAX_LABEL_LENGTH,
  resolveGraphOperand,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type CapabilityRelationship,
  type GraphOperand,
  type GraphPayload,
  type InvocationExample,
  type JsonObject,
  type JsonPath,
  type JsonValue,
  type ResolvedGraph,
} from '@jacobian/shared';
import { storeVerificationRecord } from '../record.js';
import type { CheckerAuthority } from './induced-tree-verify.js';

/** Schema URI of the candidate artifact a witness checker stores when it accepts. */
export const GRAPH_WITNESS_CANDIDATE_SCHEMA_URI = 'jacobian:schema/graph.witness.candidate/v1';

/** Most edges a simple graph of {@link MAX_GRAPH_ORDER} vertices has: the bound on edge witnesses. */
const MAX_EDGES = (MAX_GRAPH_ORDER * (MAX_GRAPH_ORDER - 1)) / 2;

const VERTEX_REF_RULE =
  'a number is the index of the vertex in the graph\'s canonical vertex order (as producers output witnesses under `vertices`); a string is the vertex\'s label (for graphs given by `order`, graph6 or sparse6 the labels are "0".."n-1")';

/** One vertex named by a witness: an index in the canonical vertex order, or a label. */
export const VertexRefSchema = z
  .union([z.number().int().min(0).max(MAX_GRAPH_ORDER - 1), z.string().min(1).max(MAX_LABEL_LENGTH)])
  .describe(`a vertex: ${VERTEX_REF_RULE}`);
export type VertexRef = z.infer<typeof VertexRefSchema>;

/** A list of vertices of a witness (a set or a sequence, as the capability says). */
export const VertexRefListSchema = z.array(VertexRefSchema).max(MAX_GRAPH_ORDER);

/** A list of edges of a witness, each as two vertices. */
export const EdgeRefListSchema = z.array(z.tuple([VertexRefSchema, VertexRefSchema])).max(MAX_EDGES);


/** What the output says about each graph a claim is about. */
export const GraphSummarySchema = z
  .object({
    order: z.number().int(),
    size: z.number().int(),
    graph6: z.string().describe('graph6 of the graph in its canonical vertex order, the order witness indices refer to'),
    graph_uri: z.string().nullable().describe('the stored graph artifact, when the graph was given by `graph_uri`'),
  })
  .strict();
export type GraphSummary = z.infer<typeof GraphSummarySchema>;

/** The output's summary of one resolved graph. */
export function graphSummary(resolved: ResolvedGraph): GraphSummary {
  return { order: resolved.graph.order, size: resolved.graph.edges.length, graph6: resolved.graph6, graph_uri: resolved.input_uris[0] ?? null };
}

/** Vertices of a witness, resolved: canonical indices and the labels they carry. */
export const ResolvedVerticesSchema = z.object({ vertices: z.array(z.number().int()), labels: z.array(z.string()) }).strict();
/** Edges of a witness, resolved: index pairs and label pairs. */
export const ResolvedEdgesSchema = z
  .object({ edges: z.array(z.tuple([z.number().int(), z.number().int()])), labels: z.array(z.tuple([z.string(), z.string()])) })
  .strict();

/**
 * The payload of a candidate artifact: the exact claim and the graphs it is about, so the
 * record's candidate URI pins everything that was checked, whatever form the input took.
 */
export const GraphWitnessCandidateSchema = z
  .object({
    claim: z.object({ kind: z.string().min(1), statement: z.string().min(1), value: z.record(z.string(), z.unknown()) }).strict(),
    graphs: z
      .array(z.object({ role: z.string().min(1), graph_uri: ArtifactUriSchema.nullable(), graph: GraphPayloadSchema }).strict())
      .min(1)
      .max(2),
  })
  .strict();
export type GraphWitnessCandidate = z.infer<typeof GraphWitnessCandidateSchema>;

/**
 * Resolves the vertices a witness names in one graph. A reference that names no vertex throws
 * INVALID_REQUEST at its path: the request is malformed, and nothing is concluded about it.
 */
export class VertexLookup {
  readonly graph: GraphPayload;
  private readonly byLabel: Map<string, number>;
  private readonly what: string;

  /** @param what names the graph in error messages, e.g. "the graph" or "the second graph". */
  constructor(graph: GraphPayload, what = 'the graph') {
    this.graph = graph;
    this.byLabel = new Map(graph.labels.map((label, i) => [label, i]));
    this.what = what;
  }

  /** The canonical index of the vertex `ref` names; `path` locates `ref` in the request. */
  vertex(ref: VertexRef, path: JsonPath): number {
    const { order } = this.graph;
    if (typeof ref === 'number') {
      if (ref < order) return ref;
      const range = order === 0 ? `${this.what} has no vertices` : `the vertex indices of ${this.what} are 0..${order - 1}`;
      throw new JacobianError('INVALID_REQUEST', `${formatJsonPath(path)}: ${ref} is not a vertex index: ${range}`, {
        path,
        hint: `${VERTEX_REF_RULE}; give a label as a string`,
      });
    }
    const index = this.byLabel.get(canonicalLabel(ref));
    if (index !== undefined) return index;
    throw new JacobianError('INVALID_REQUEST', `${formatJsonPath(path)}: "${ref}" is not a vertex label of ${this.what}`, {
      path,
      hint: VERTEX_REF_RULE,
    });
  }

  /** Indices of a list of vertices at `path`. */
  vertices(refs: readonly VertexRef[], path: JsonPath): number[] {
    return refs.map((ref, i) => this.vertex(ref, [...path, i]));
  }

  /** Index pairs of a list of edges at `path`. */
  edges(refs: readonly (readonly [VertexRef, VertexRef])[], path: JsonPath): [number, number][] {
    return refs.map(([a, b], i): [number, number] => [this.vertex(a, [...path, i, 0]), this.vertex(b, [...path, i, 1])]);
  }

  /** The label of vertex index `v` (an index this lookup resolved). */
  label(v: number): string {
    return this.graph.labels[v] as string;
  }

  /** Resolved vertices for the output: indices and their labels. */
  resolvedVertices(vertices: readonly number[]): z.infer<typeof ResolvedVerticesSchema> {
    return { vertices: [...vertices], labels: vertices.map((v) => this.label(v)) };
  }

  /** Resolved edges for the output: index pairs and their label pairs. */
  resolvedEdges(edges: readonly (readonly [number, number])[]): z.infer<typeof ResolvedEdgesSchema> {
    return { edges: edges.map(([u, v]): [number, number] => [u, v]), labels: edges.map(([u, v]): [string, string] => [this.label(u), this.label(v)]) };
  }
}

const MAX_LISTED_CHARS = 400;

/**
 * A witness as a claim statement writes it: `noun [..]`, or only its length when the list is
 * too long to read (statements are bounded; the signed claim value always holds all of it).
 */
export function listed(noun: string, values: readonly (number | readonly [number, number])[]): string {
  const text = `[${values.map((v) => (typeof v === 'number' ? String(v) : `[${v[0]}, ${v[1]}]`)).join(', ')}]`;
  return text.length <= MAX_LISTED_CHARS ? `${noun} ${text}` : `${noun} (${values.length} entries, listed in the claim value)`;
}

/** Why a claim was rejected: the witness lacks the property, or it has it but not the claimed number. */
export const RejectionReason = { WITNESS_INVALID: 'WITNESS_INVALID', CLAIM_MISMATCH: 'CLAIM_MISMATCH' } as const;
export type RejectionReason = (typeof RejectionReason)[keyof typeof RejectionReason];

/** A rejected claim: why, where, and the failing element. */
export interface Rejection {
  reason_code: RejectionReason;
  /** The failing element in words, e.g. "adjacent vertices 3 and 7 both have colour 1". */
  message: string;
  /** The request field at fault. */
  path: JsonPath;
}

/** A claim whose references are resolved, ready to be checked. */
export interface PreparedClaim {
  /** The claim in words, with the graph and witness; it becomes the scope and the record's statement. */
  statement: string;
  /** The claim as data (resolved witness, claimed numbers): the record signs it. */
  value: JsonObject;
  /** The capability's own output fields (graph summaries, resolved witness, claimed numbers). */
  output: Record<string, unknown>;
  /** Runs the check: null when the claim holds, else the rejection. */
  check(): Rejection | null;
  /** Why the claim holds, said once it has been checked. */
  accepted: string;
}

/** Where a graph operand sits in the request, and what to call it in messages. */
export interface OperandAt {
  operand: GraphOperand;
  /** Path of the operand's fields under `payload` ([] when they sit at the top). */
  path: JsonPath;
  /** Its role in the candidate artifact and in messages, e.g. "graph", "first", "second". */
  role: string;
}

/** What makes one witness checker different from the others. */
export interface GraphWitnessCheckerSpec<I> {
  id: string;
  title: string;
  description: string;
  tags: string[];
  /** The field's words for this check, for search (CapabilityDescriptor.keywords). */
  keywords: string[];
  checkerId: string;
  method: string;
  /** Kind of the signed claim, e.g. PROPER_COLOURING. */
  claimKind: string;
  /** What the claim means: the record's claim semantics and the candidate's semantics. */
  claimSemanticsUri: string;
  input: z.ZodType<I>;
  /** Output fields beyond the common verdict fields. */
  outputShape: z.ZodRawShape;
  examples: InvocationExample[];
  relationships: CapabilityRelationship[];
  scopeRule: string;
  /** The files whose bytes, with the method, form this checker's identity. */
  sources: string[];
  operands(input: I): OperandAt[];
  /** Resolve the witness against the graphs (throwing INVALID_REQUEST for a malformed one). */
  prepare(input: I, graphs: ResolvedGraph[]): PreparedClaim;
}

/** The fields every witness checker outputs, before its own. */
const commonOutputShape = {
  verdict: z.enum(['ACCEPTED', 'REJECTED']),
  claim: z.string().describe('the claim that was checked, in words'),
  reason_code: z
    .enum(RejectionReason)
    .nullable()
    .describe('null when accepted; WITNESS_INVALID when the witness lacks the property, CLAIM_MISMATCH when it has it but not the claimed number'),
  message: z.string().describe('why the claim holds, or the element at which it fails'),
  candidate_uri: z.string().nullable().describe('the stored claim, witness and graphs the verification record binds; null when rejected'),
  verification_record_uri: z.string().nullable().describe('the signed verification record; null when rejected'),
} as const;

/** Errors about the artifact a `graph_uri` names, which should point at that field. */
const ARTIFACT_ERROR_CODES = new Set(['ARTIFACT_NOT_FOUND', 'ARTIFACT_INTEGRITY', 'ARTIFACT_TYPE_MISMATCH']);

/**
 * Resolve one operand. The shared resolver's artifact errors name `payload.graph_uri` or the
 * store's own `uri`; here they name the field that held the URI, nested or not
 * (e.g. `payload.second.graph_uri`).
 */
async function resolveAt(at: OperandAt, context: CapabilityContext): Promise<ResolvedGraph> {
  try {
    return await resolveGraphOperand(at.operand, context.artifacts, { signal: context.signal });
  } catch (error) {
    if (!(error instanceof JacobianError) || at.operand.graph_uri === undefined || !ARTIFACT_ERROR_CODES.has(error.code)) throw error;
    const path: JsonPath = ['payload', ...at.path, 'graph_uri'];
    const message = error.message.replace(/^payload\.graph_uri: /, '');
    throw new JacobianError(error.code, `${formatJsonPath(path)}: ${message}`, {
      path,
      cause: error,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      ...(error.data === undefined ? {} : { data: error.data }),
    });
  }
}

/** This file's path: every witness checker's identity includes the frame it runs in. */
export const WITNESS_CHECKER_FRAME_SOURCE: string = fileURLToPath(import.meta.url);

/** Build the checker capability of one kind of graph witness. */
export function graphWitnessChecker<I>(
  spec: GraphWitnessCheckerSpec<I>,
  authority: CheckerAuthority,
): CapabilityDefinition<I, Record<string, unknown>> {
  const output = z.object({ ...commonOutputShape, ...spec.outputShape }).strict();
  const evidenceFormat = `jacobian:evidence/graph.witness.${spec.claimKind.toLowerCase()}+graph.simple/v1`;
  return {
    id: spec.id,
    version: '1.0.0',
    title: spec.title,
    description: `${spec.description} Graphs are given inline (\`graph\` with \`order\` or \`vertices\` and \`edges\`), as graph6 or sparse6, or as a stored graph artifact (\`graph_uri\`). Vertices in witnesses: ${VERTEX_REF_RULE}. An accepted claim is VERIFIED with a signed verification record; a false one is REJECTED naming the failing element.`,
    tags: ['graph', 'verification', 'witness', 'checker', ...spec.tags],
    keywords: ['check', 'certify', 'witness', ...spec.keywords],
    domain: 'graph',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [GRAPH_SCHEMA_URI],
    produced_artifact_types: [GRAPH_WITNESS_CANDIDATE_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: spec.input,
    output,
    examples: spec.examples,
    relationships: spec.relationships,
    assurance_ceiling: 'VERIFIED',
    scope_rule: spec.scopeRule,
    limits: { max_order: MAX_GRAPH_ORDER },
    checker: { checker_id: spec.checkerId, method: spec.method, source_files: spec.sources, configuration: { max_order: MAX_GRAPH_ORDER } },
    async run(input, context): Promise<CapabilityOutcome<Record<string, unknown>>> {
      const operands = spec.operands(input);
      const graphs: ResolvedGraph[] = [];
      for (const at of operands) graphs.push(await resolveAt(at, context));
      const prepared = spec.prepare(input, graphs);
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError(
          'CHECKER_NOT_AUTHORIZED',
          `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`,
          { hint: "the operator adds this checker's ID and digest to the checker role's authorization file" },
        );
      }
      const rejection = prepared.check();
      const inputUris = [...new Set(graphs.flatMap((g) => g.input_uris))];
      const scope = { kind: 'EXACT_CLAIM' as const, statement: prepared.statement, input_uris: inputUris };
      if (rejection !== null) {
        return {
          status: 'COMPLETED',
          output: {
            verdict: 'REJECTED',
            claim: prepared.statement,
            reason_code: rejection.reason_code,
            message: rejection.message,
            candidate_uri: null,
            verification_record_uri: null,
            ...prepared.output,
          },
          scope,
          completeness: { status: 'COMPLETE', basis: 'the checker examined the claim and found it false' },
          qualifiers: ['EXACT', 'DETERMINISTIC'],
          assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: [],
          artifact_uris: inputUris,
          diagnostics: [{ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: rejection.message, path: rejection.path, hint: null }],
        };
      }
      const candidatePayload = GraphWitnessCandidateSchema.parse({
        claim: { kind: spec.claimKind, statement: prepared.statement, value: prepared.value },
        graphs: graphs.map((g, i) => ({ role: operands[i]?.role ?? 'graph', graph_uri: g.input_uris[0] ?? null, graph: g.graph })),
      });
      const candidate = await context.artifacts.put(
        {
          schema_uri: GRAPH_WITNESS_CANDIDATE_SCHEMA_URI,
          semantics_uri: spec.claimSemanticsUri,
          // Parsed just above; zod types the claim value loosely as unknown, the store re-validates it as canonical JSON.
          payload: candidatePayload as unknown as JsonValue,
          parents: inputUris,
          summary: { claim: spec.claimKind, graphs: graphs.length },
        },
        { signal: context.signal },
      );
      const stored = await storeVerificationRecord(context, authority.signingKey, {
        capabilityId: spec.id,
        capabilityVersion: '1.0.0',
        identity,
        claim: { kind: spec.claimKind, statement: prepared.statement, value: prepared.value },
        claimSemanticsUri: spec.claimSemanticsUri,
        candidateUri: candidate.uri,
        inputUris,
        evidenceFormat,
      });
      return {
        status: 'COMPLETED',
        output: {
          verdict: 'ACCEPTED',
          claim: prepared.statement,
          reason_code: null,
          message: prepared.accepted,
          candidate_uri: candidate.uri,
          verification_record_uri: stored.uri,
          ...prepared.output,
        },
        scope,
        completeness: { status: 'COMPLETE', basis: prepared.accepted },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: 'VERIFIED',
          basis: `independent witness checker ${identity.checker_id}, authorized by the operator, accepted the claim`,
          verification_record_uri: stored.uri,
          checker_id: identity.checker_id,
        },
        obligations: [],
        relationships: [
          { subject: stored.uri, predicate: 'VERIFIES', object: candidate.uri },
          ...inputUris.map((uri) => ({ subject: candidate.uri, predicate: 'DERIVED_FROM' as const, object: uri })),
        ],
        artifact_uris: [stored.uri, candidate.uri, ...inputUris],
        diagnostics: [],
      };
    },
  };
}
