import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  GRAPH_CONTRACT_SOURCE,
  GRAPH_SCHEMA_URI,
  GRAPH_SEMANTICS_URI,
  INDUCED_TREE_RESULT_SCHEMA_URI,
  INDUCED_TREE_RESULT_SEMANTICS_URI,
  InducedTreeResultPayloadSchema,
  isAuthorized,
  JacobianError,
  parseStoredGraph,
  runKernel,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityDefinition,
  type CheckerAuthorization,
  type CheckerIdentity,
  type SigningKey,
} from '@jacobian/shared';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import { EXHAUSTIVE_MAX_ORDER } from './induced-tree-exhaustive.js';

export const VerifyInducedTreeInput = z
  .object({
    result_uri: ArtifactUriSchema.describe('result artifact of graph.induced_tree.maximum.compute (its result_uri)'),
  })
  .strict();
export type VerifyInducedTreeInput = z.infer<typeof VerifyInducedTreeInput>;

export const VerifyInducedTreeOutput = z
  .object({
    verdict: z.enum(['ACCEPTED', 'REJECTED']),
    result_uri: z.string(),
    graph_uri: z.string(),
    claimed_maximum: z.number().int(),
    subsets_examined: z.number().int().nullable(),
    reason_code: z.string().nullable().describe('why the claim was rejected; null when accepted'),
    message: z.string(),
    verification_record_uri: z.string().nullable(),
  })
  .strict();
export type VerifyInducedTreeOutput = z.infer<typeof VerifyInducedTreeOutput>;

const CheckResult = z.union([
  z.object({ accepted: z.literal(true), maximum: z.number().int(), subsets_examined: z.number().int() }).strict(),
  z.object({ accepted: z.literal(false), reason_code: z.string(), message: z.string() }).strict(),
]);

const KERNEL = {
  module: fileURLToPath(new URL('./induced-tree-exhaustive.kernel.ts', import.meta.url)),
  exportName: 'checkInducedTreeKernel',
};

export const INDUCED_TREE_CHECKER_ID = 'jacobian.graph.induced_tree.maximum.exhaustive';
const EVIDENCE_FORMAT = 'jacobian:evidence/graph.induced_tree.maximum.result+graph.simple/v1';

/** The files whose bytes form this checker's identity: its method, kernel and the graph contract it reads. */
export const INDUCED_TREE_CHECKER_SOURCES: string[] = [
  fileURLToPath(new URL('./induced-tree-verify.ts', import.meta.url)),
  fileURLToPath(new URL('./induced-tree-exhaustive.ts', import.meta.url)),
  fileURLToPath(new URL('./induced-tree-exhaustive.kernel.ts', import.meta.url)),
  RECORD_SOURCE,
  GRAPH_CONTRACT_SOURCE,
];

export interface CheckerAuthority {
  /** The operator's list, read by the checker role only. */
  authorization: () => CheckerAuthorization;
  signingKey: SigningKey;
  /** Fixed at registration from the digest of this checker's code. */
  identity: () => CheckerIdentity;
}

export function verifyInducedTree(authority: CheckerAuthority): CapabilityDefinition<VerifyInducedTreeInput, VerifyInducedTreeOutput> {
  return {
    id: 'graph.induced_tree.maximum.verify',
    version: '1.0.0',
    title: 'Verify a maximum induced tree result by exhaustion',
    description: `Independently checks a stored result of graph.induced_tree.maximum.compute: re-reads the result and its input graph, checks their lineage, checks that the witness induces a tree of the claimed order, and enumerates every vertex subset (no solver) to confirm that no larger induced tree exists. Graphs of order at most ${EXHAUSTIVE_MAX_ORDER} only; larger inputs return an unsupported non-conclusion.`,
    tags: ['graph', 'induced-subgraph', 'tree', 'verification', 'exhaustive', 'checker'],
    keywords: ['check a maximum induced tree', 'verify an induced tree', 'largest induced tree', 'exhaustive check'],
    domain: 'graph',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['TYPED_ARTIFACT'],
    accepted_artifact_types: [INDUCED_TREE_RESULT_SCHEMA_URI],
    produced_artifact_types: [VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyInducedTreeInput,
    output: VerifyInducedTreeOutput,
    // A result URI exists only after a producer run, so no fixed example would be runnable;
    // discovery shows the input fields instead.
    examples: [],
    relationships: [{ kind: 'VERIFIES', capability_id: 'graph.induced_tree.maximum.compute' }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the claim stored in the given result artifact about its one input graph.',
    limits: { max_order: EXHAUSTIVE_MAX_ORDER },
    checker: {
      checker_id: INDUCED_TREE_CHECKER_ID,
      method: 'enumerate every vertex subset as a bitmask; test induced acyclicity and connectivity directly',
      source_files: INDUCED_TREE_CHECKER_SOURCES,
      configuration: { max_order: EXHAUSTIVE_MAX_ORDER },
    },
    async run(input, context) {
      const resultArtifact = await context.artifacts.get(input.result_uri, { signal: context.signal });
      const { manifest } = resultArtifact;
      if (manifest.schema_uri !== INDUCED_TREE_RESULT_SCHEMA_URI || manifest.semantics_uri !== INDUCED_TREE_RESULT_SEMANTICS_URI) {
        throw new JacobianError(
          'ARTIFACT_TYPE_MISMATCH',
          `payload.result_uri: artifact has schema ${manifest.schema_uri}; a result of graph.induced_tree.maximum.compute (${INDUCED_TREE_RESULT_SCHEMA_URI}) is required`,
          { path: ['payload', 'result_uri'] },
        );
      }
      const parsed = InducedTreeResultPayloadSchema.safeParse(resultArtifact.payload);
      if (!parsed.success) {
        throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `payload.result_uri: stored result is malformed: ${parsed.error.issues[0]?.message ?? ''}`, {
          path: ['payload', 'result_uri'],
        });
      }
      const result = parsed.data;
      if (!manifest.parents.includes(result.input_uri)) {
        throw new JacobianError('LINEAGE_MISMATCH', 'the result names an input graph that is not among its artifact parents', {
          path: ['payload', 'result_uri'],
        });
      }
      const graphArtifact = await context.artifacts.get(result.input_uri, { signal: context.signal });
      if (graphArtifact.manifest.schema_uri !== GRAPH_SCHEMA_URI || graphArtifact.manifest.semantics_uri !== GRAPH_SEMANTICS_URI) {
        throw new JacobianError('LINEAGE_MISMATCH', `the result's input ${result.input_uri} is not a graph artifact`, { path: ['payload', 'result_uri'] });
      }
      const graph = parseStoredGraph(graphArtifact.payload, ['payload', 'result_uri']);
      if (!result.claim.optimal) {
        throw new JacobianError(
          'CHECKER_UNSUPPORTED',
          `the stored result claims only bounds (${result.claim.lower_bound} ≤ maximum ≤ ${result.claim.upper_bound}), not a maximum; there is no exact claim to verify`,
          { path: ['payload', 'result_uri'], hint: 'recompute with a larger budget.wall_time_ms until termination is OPTIMAL' },
        );
      }
      if (graph.order > EXHAUSTIVE_MAX_ORDER) {
        throw new JacobianError(
          'CHECKER_UNSUPPORTED',
          `the input graph has order ${graph.order}; this exhaustive checker covers order ≤ ${EXHAUSTIVE_MAX_ORDER}. Nothing was concluded`,
          { path: ['payload', 'result_uri'] },
        );
      }
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError(
          'CHECKER_NOT_AUTHORIZED',
          `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`,
          { hint: "the operator adds this checker's ID and digest to the checker role's authorization file" },
        );
      }
      const claim = { maximum: result.claim.lower_bound, witness: result.claim.witness };
      const checked = CheckResult.parse(await runKernel(context, KERNEL, { graph: { order: graph.order, edges: graph.edges }, claim }));
      const base = {
        result_uri: resultArtifact.uri,
        graph_uri: graphArtifact.uri,
        claimed_maximum: claim.maximum,
      };
      const claimStatement = `the maximum order of an induced tree of graph ${graphArtifact.uri} is ${claim.maximum}, witnessed by vertices [${claim.witness.join(', ')}]`;
      const scope = { kind: 'EXACT_CLAIM' as const, statement: claimStatement, input_uris: [resultArtifact.uri, graphArtifact.uri] };
      if (!checked.accepted) {
        return {
          status: 'COMPLETED',
          output: { ...base, verdict: 'REJECTED', subsets_examined: null, reason_code: checked.reason_code, message: checked.message, verification_record_uri: null },
          scope,
          completeness: { status: 'COMPLETE', basis: 'the checker examined the claim and found it false' },
          qualifiers: ['EXACT', 'EXHAUSTIVE', 'DETERMINISTIC'],
          assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: [],
          artifact_uris: [],
          diagnostics: [
            { severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: checked.message, path: ['payload', 'result_uri'], hint: null },
          ],
        };
      }
      const stored = await storeVerificationRecord(context, authority.signingKey, {
        capabilityId: 'graph.induced_tree.maximum.verify',
        capabilityVersion: '1.0.0',
        identity,
        claim: { kind: 'MAXIMUM_INDUCED_TREE_ORDER', statement: claimStatement, value: { maximum: claim.maximum, witness: claim.witness } },
        claimSemanticsUri: INDUCED_TREE_RESULT_SEMANTICS_URI,
        candidateUri: resultArtifact.uri,
        inputUris: [graphArtifact.uri],
        evidenceFormat: EVIDENCE_FORMAT,
        summary: { maximum: claim.maximum },
      });
      return {
        status: 'COMPLETED',
        output: {
          ...base,
          verdict: 'ACCEPTED',
          subsets_examined: checked.subsets_examined,
          reason_code: null,
          message: `all ${checked.subsets_examined} vertex subsets examined; no induced tree larger than ${claim.maximum} exists`,
          verification_record_uri: stored.uri,
        },
        scope,
        completeness: { status: 'COMPLETE', basis: `every one of the ${checked.subsets_examined} vertex subsets was examined` },
        qualifiers: ['EXACT', 'EXHAUSTIVE', 'DETERMINISTIC'],
        assurance: {
          level: 'VERIFIED',
          basis: `independent exhaustive checker ${identity.checker_id}, authorized by the operator, accepted the claim`,
          verification_record_uri: stored.uri,
          checker_id: identity.checker_id,
        },
        obligations: [
          { id: 'optimality', statement: `no induced tree of order ${claim.maximum + 1} exists in the input graph`, status: 'DISCHARGED', discharged_by: ['graph.induced_tree.maximum.verify'] },
        ],
        relationships: [
          { subject: stored.uri, predicate: 'VERIFIES', object: resultArtifact.uri },
          { subject: resultArtifact.uri, predicate: 'COMPUTED_FROM', object: graphArtifact.uri },
        ],
        artifact_uris: [stored.uri, resultArtifact.uri, graphArtifact.uri],
        diagnostics: [],
      };
    },
  };
}
