/**
 * `universal_algebra.countermodel.verify`: the independent checker of finite countermodels. A
 * countermodel claims that one finite algebra, given by its operation tables, satisfies every
 * source law under every assignment and violates a target law at a stated assignment.
 *
 * The claim comes either from a stored result of universal_algebra.search.countermodel
 * (`result_uri`) or inline (`countermodel`, e.g. an algebra an agent built itself). Either way the
 * checker re-parses the signature and laws with the shared grammar, reads the tables as total
 * functions on 0 … n−1, evaluates every source law under all n^k assignments and the target at the
 * stated one, in an isolated kernel (countermodel-verify.kernel.ts) that shares nothing with the
 * producer's encoding, solver or evaluator. It then either rejects, naming the failing law and
 * assignment (or the bad table entry), or signs a verification record bound to the candidate: the
 * stored result itself, or, for an inline claim, the same claim stored by the checker as a
 * countermodel result artifact (written only on acceptance).
 */
import { getTypedArtifactAt } from '@jacobian/shared';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  assignmentCounts,
  COUNTERMODEL_RESULT_SCHEMA_URI,
  COUNTERMODEL_RESULT_SEMANTICS_URI,
  CountermodelClaimSchema,
  CountermodelResultPayloadSchema,
  isAuthorized,
  JacobianError,
  parseLaw,
  parseLaws,
  resolveSignature,
  runKernel,
  UNIVERSAL_ALGEBRA_LIMITS,
  UNIVERSAL_ALGEBRA_SOURCES,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type CountermodelClaim,
  type InvocationExample,
  type JsonPath,
  type Law,
} from '@jacobian/shared';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { CountermodelRejectionReason } from './countermodel-verify.kernel.js';

/** The capability ID. */
export const COUNTERMODEL_VERIFY_CAPABILITY_ID = 'universal_algebra.countermodel.verify';
/** The checker's ID, which with the digest of its code forms the identity operators authorize. */
export const COUNTERMODEL_CHECKER_ID = 'jacobian.universal_algebra.countermodel.exhaustive';
const VERSION = '1.0.0';
const PRODUCER_ID = 'universal_algebra.search.countermodel';
const CLAIM_KIND = 'FINITE_COUNTERMODEL';
const EVIDENCE_FORMAT = 'jacobian:evidence/universal_algebra.countermodel.result/v1';

/** The files whose bytes form this checker's identity: the capability, its kernel, and the shared grammar and contracts it reads. */
export const COUNTERMODEL_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./countermodel-verify.kernel.ts', import.meta.url)),
  RECORD_SOURCE,
  ...UNIVERSAL_ALGEBRA_SOURCES,
];

const Int = z.number().int();

/** Input: a stored result, or the claim inline; exactly one. */
export const VerifyCountermodelInput = z
  .object({
    result_uri: ArtifactUriSchema.optional().describe(`a stored countermodel (${COUNTERMODEL_RESULT_SCHEMA_URI}), e.g. the result_uri of ${PRODUCER_ID}`),
    countermodel: CountermodelClaimSchema.optional().describe(
      'the claim inline: signature, source laws, target law, order, tables, and the assignment of the target variables with the two values of its sides; stored as a candidate artifact when accepted',
    ),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.result_uri === undefined) === (input.countermodel === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of result_uri (a stored countermodel) or countermodel (the claim inline)' });
    }
  });
export type VerifyCountermodelInput = z.infer<typeof VerifyCountermodelInput>;

const FailureSchema = z
  .object({
    law: z.string().nullable().describe('the failing law as the claim gives it (a source law or the target); null for a table or assignment fault'),
    law_index: Int.nullable().describe('index of the failing source law; null for the target or no law'),
    assignment: z.record(z.string(), Int).nullable().describe('the assignment under which the law fails (the first in lexicographic order, first variable most significant)'),
    left: Int.nullable(),
    right: Int.nullable(),
    path: z.array(z.union([z.string(), Int])).describe('the field of the claim at fault, e.g. ["laws", 2] or ["tables", "*", 1, 0]'),
  })
  .strict();

/** Output: the verdict, and on rejection the failing law and assignment. */
export const VerifyCountermodelOutput = z
  .object({
    verdict: z.enum(['ACCEPTED', 'REJECTED']),
    claim: z.string().describe('the claim that was checked, in words'),
    result_uri: z
      .string()
      .nullable()
      .describe('the stored countermodel: the given result_uri, or for an accepted inline claim the candidate the checker stored; null for a rejected inline claim'),
    order: Int,
    source_laws: Int.describe('how many source laws the claim has'),
    assignments_checked: Int.describe('law instances evaluated: all n^k assignments of every source law, and the target at its assignment, when accepted'),
    reason_code: z
      .enum(CountermodelRejectionReason)
      .nullable()
      .describe('null when accepted; otherwise TABLE_INVALID, ASSIGNMENT_INVALID, TARGET_NOT_VIOLATED, TARGET_VALUES_MISMATCH or SOURCE_LAW_VIOLATED'),
    message: z.string().describe('why the claim holds, or where it fails'),
    failure: FailureSchema.nullable(),
    verification_record_uri: z.string().nullable().describe('the signed verification record; null when rejected'),
  })
  .strict();
export type VerifyCountermodelOutput = z.infer<typeof VerifyCountermodelOutput>;

const CheckResult = z.union([
  z.object({ accepted: z.literal(true), assignments_checked: Int.min(0) }).strict(),
  z
    .object({
      accepted: z.literal(false),
      reason_code: z.enum(CountermodelRejectionReason),
      message: z.string().min(1),
      failure: FailureSchema,
      assignments_checked: Int.min(0),
    })
    .strict(),
]);

const KERNEL = { module: fileURLToPath(new URL('./countermodel-verify.kernel.ts', import.meta.url)), exportName: 'checkCountermodelKernel' };

const SEMIGROUP = { operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z'] };
const GROUP = {
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: 'e', arity: 0 },
    { name: 'i', arity: 1 },
  ],
  variables: ['x', 'y', 'z'],
};

/** S3 as tables: element k is the k-th permutation of {0, 1, 2} in lexicographic order, (p * q)(v) = p(q(v)). */
function symmetricGroupS3(): { '*': number[][]; e: number; i: number[] } {
  const elements = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
  const indexOf = (perm: number[]): number => elements.findIndex((e) => e.every((v, k) => v === perm[k]));
  const product = elements.map((p) => elements.map((q) => indexOf(q.map((v) => p[v] as number))));
  const inverse = elements.map((p) => indexOf([0, 1, 2].map((v) => p.indexOf(v))));
  return { '*': product, e: 0, i: inverse };
}

const S3 = symmetricGroupS3();

const EXAMPLES: InvocationExample[] = [
  {
    title: 'The left-zero semigroup of order 2 is associative but not commutative',
    mode: 'VERIFY',
    payload: {
      countermodel: {
        signature: SEMIGROUP,
        laws: ['x * (y * z) = (x * y) * z'],
        target: 'x * y = y * x',
        order: 2,
        tables: { '*': [[0, 0], [1, 1]] },
        violating_assignment: { x: 0, y: 1 },
        target_values: { left: 0, right: 1 },
      },
    },
  },
  {
    title: 'S3 is a non-abelian group of order 6',
    mode: 'VERIFY',
    payload: {
      countermodel: {
        signature: GROUP,
        laws: ['x * (y * z) = (x * y) * z', 'e * x = x', 'i(x) * x = e'],
        target: 'x * y = y * x',
        order: 6,
        tables: S3,
        // (0 2 1)·(1 0 2) and (1 0 2)·(0 2 1), as indices of the lexicographic list.
        violating_assignment: { x: 1, y: 2 },
        target_values: { left: S3['*'][1]?.[2] ?? 0, right: S3['*'][2]?.[1] ?? 0 },
      },
    },
  },
];

/** Errors of the artifact store about the artifact `result_uri` names, which should point at that field. */
const RESULT_PATH: JsonPath = ['payload', 'result_uri'];

/** The claim to check and where it came from. */
interface Source {
  claim: CountermodelClaim;
  /** The stored result it was read from; null for an inline claim. */
  resultUri: string | null;
}

async function readStoredClaim(uri: string, context: CapabilityContext): Promise<Source> {
  const { artifact, payload } = await getTypedArtifactAt(
    context.artifacts,
    uri,
    RESULT_PATH,
    {
      schemaUri: COUNTERMODEL_RESULT_SCHEMA_URI,
      semanticsUri: COUNTERMODEL_RESULT_SEMANTICS_URI,
      what: 'a stored countermodel',
      payload: CountermodelResultPayloadSchema,
      hint: `pass the result_uri of ${PRODUCER_ID}, or give the claim inline as countermodel`,
    },
    { signal: context.signal },
  );
  const { provenance: _provenance, ...claim } = payload;
  return { claim, resultUri: artifact.uri };
}

/**
 * Parse the claim's signature and laws with the shared grammar and check the assignment bounds,
 * so that a malformed claim is an error naming its place, never a verdict. For a stored claim the
 * errors name `payload.result_uri`: the stored artifact, not the request, is at fault.
 */
function parseClaim(source: Source): { statement: string } {
  const { claim } = source;
  const stored = source.resultUri !== null;
  const base: JsonPath = stored ? [] : ['payload', 'countermodel'];
  // A request error inline; for a stored claim the artifact is at fault, or the checker's bounds.
  const restated = (error: unknown, code: 'ARTIFACT_TYPE_MISMATCH' | 'CHECKER_UNSUPPORTED', what: string): unknown =>
    stored && error instanceof JacobianError && error.code === 'INVALID_REQUEST'
      ? new JacobianError(code, `payload.result_uri: ${what}: ${error.message}`, { path: RESULT_PATH, cause: error })
      : error;
  let laws: Law[];
  try {
    const signature = resolveSignature(claim.signature, [...base, 'signature']);
    laws = parseLaws(claim.laws, signature, [...base, 'laws']);
    parseLaw(claim.target, signature, { path: [...base, 'target'] });
  } catch (error) {
    throw restated(error, 'ARTIFACT_TYPE_MISMATCH', 'the stored countermodel does not parse');
  }
  try {
    assignmentCounts(claim.order, laws, [...base, 'laws']);
  } catch (error) {
    throw restated(error, 'CHECKER_UNSUPPORTED', "checking the stored countermodel exceeds this checker's bounds, so nothing was concluded");
  }
  const assignment = Object.entries(claim.violating_assignment)
    .map(([name, value]) => `${name} = ${value}`)
    .join(', ');
  const sources = claim.laws.map((law) => `"${law}"`).join(', ');
  const lawsText =
    claim.laws.length === 0 ? 'no source laws (none required)' : sources.length <= 800 ? `the source law${claim.laws.length === 1 ? '' : 's'} ${sources}` : `the ${claim.laws.length} source laws of the claim`;
  const targetText = claim.target.length <= 300 ? `"${claim.target}"` : 'the target law of the claim';
  const statement = `the algebra of order ${claim.order} given by the claim's tables satisfies ${lawsText} under every assignment, and violates ${targetText} at ${assignment.length <= 300 ? assignment || 'the empty assignment' : 'the stated assignment'} (left side ${claim.target_values.left}, right side ${claim.target_values.right})`;
  return { statement };
}

/**
 * The countermodel checker capability.
 *
 * @param authority the operator's authorization, the signing key, and this checker's identity.
 */
export function verifyCountermodel(authority: CheckerAuthority): CapabilityDefinition<VerifyCountermodelInput, VerifyCountermodelOutput> {
  return {
    id: COUNTERMODEL_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify a finite countermodel: tables that satisfy laws and violate a target law',
    description: `Independently checks a finite countermodel: that an algebra of order n, given by its operation tables, satisfies every source law under all n^k assignments of its variables and violates the target law at the stated assignment, with the stated values of its two sides. The claim is a stored result of ${PRODUCER_ID} (result_uri) or given inline (countermodel). The laws are re-parsed with the shared grammar and evaluated by a plain evaluator of this checker, not by the producer's encoding or solver. An accepted claim is VERIFIED with a signed verification record bound to the stored countermodel; a false one is REJECTED naming the failing law and assignment, or the bad table entry.`,
    tags: ['universal-algebra', 'countermodel', 'finite-model', 'equational-logic', 'verification', 'checker', 'exhaustive', 'witness'],
    keywords: ['check a countermodel', 'verify a counterexample', 'counterexample', 'counter-model', 'finite model', 'Cayley table', 'law holds', 'law fails', 'associative', 'commutative'],
    domain: 'universal_algebra',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [COUNTERMODEL_RESULT_SCHEMA_URI],
    produced_artifact_types: [COUNTERMODEL_RESULT_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyCountermodelInput,
    output: VerifyCountermodelOutput,
    examples: EXAMPLES,
    relationships: [{ kind: 'VERIFIES', capability_id: PRODUCER_ID }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one stated algebra and laws: that it satisfies the source laws and violates the target at the stated assignment; nothing about other algebras or orders.',
    limits: {
      max_order: UNIVERSAL_ALGEBRA_LIMITS.maxAlgebraOrder,
      max_laws: UNIVERSAL_ALGEBRA_LIMITS.maxLaws,
      max_assignments_per_law: UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsPerLaw,
      max_assignments_total: UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsTotal,
    },
    checker: {
      checker_id: COUNTERMODEL_CHECKER_ID,
      method:
        're-parse the signature and laws with the shared grammar; read every table as a total function on 0 … n−1; evaluate both sides of every source law by plain recursion under all n^k assignments, and the target at the stated assignment',
      source_files: COUNTERMODEL_CHECKER_SOURCES,
      configuration: {
        max_order: UNIVERSAL_ALGEBRA_LIMITS.maxAlgebraOrder,
        max_assignments_per_law: UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsPerLaw,
        max_assignments_total: UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsTotal,
      },
    },
    async run(input, context): Promise<CapabilityOutcome<VerifyCountermodelOutput>> {
      const source: Source =
        input.result_uri !== undefined ? await readStoredClaim(input.result_uri, context) : { claim: input.countermodel as CountermodelClaim, resultUri: null };
      const { claim } = source;
      const { statement } = parseClaim(source);
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError(
          'CHECKER_NOT_AUTHORIZED',
          `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`,
          { hint: "the operator adds this checker's ID and digest to the checker role's authorization file" },
        );
      }
      const checked = CheckResult.parse(await runKernel(context, KERNEL, { claim }));
      const inputUris = source.resultUri === null ? [] : [source.resultUri];
      const scope = { kind: 'EXACT_CLAIM' as const, statement, input_uris: inputUris };
      const base = { claim: statement, order: claim.order, source_laws: claim.laws.length, assignments_checked: checked.assignments_checked };
      if (!checked.accepted) {
        const path: JsonPath = source.resultUri === null ? ['payload', 'countermodel', ...checked.failure.path] : RESULT_PATH;
        return {
          status: 'COMPLETED',
          output: {
            ...base,
            verdict: 'REJECTED',
            result_uri: source.resultUri,
            reason_code: checked.reason_code,
            message: checked.message,
            failure: checked.failure,
            verification_record_uri: null,
          },
          scope,
          completeness: { status: 'COMPLETE', basis: 'the checker examined the claim and found it false' },
          qualifiers: ['EXACT', 'DETERMINISTIC'],
          assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: [],
          artifact_uris: inputUris,
          diagnostics: [{ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: checked.message.slice(0, 2000), path, hint: null }],
        };
      }
      // An inline claim becomes a stored countermodel only now, so the record binds exact bytes.
      const candidateUri =
        source.resultUri ??
        (
          await context.artifacts.put(
            {
              schema_uri: COUNTERMODEL_RESULT_SCHEMA_URI,
              semantics_uri: COUNTERMODEL_RESULT_SEMANTICS_URI,
              payload: CountermodelResultPayloadSchema.parse({ ...claim, provenance: null }),
              parents: [],
              summary: { order: claim.order, laws: claim.laws.length, submitted_inline: true },
            },
            { signal: context.signal },
          )
        ).uri;
      const value = {
        signature: claim.signature,
        laws: claim.laws,
        target: claim.target,
        order: claim.order,
        violating_assignment: claim.violating_assignment,
        target_values: claim.target_values,
      };
      const stored = await storeVerificationRecord(context, authority.signingKey, {
        capabilityId: COUNTERMODEL_VERIFY_CAPABILITY_ID,
        capabilityVersion: VERSION,
        identity,
        claim: { kind: CLAIM_KIND, statement, value },
        claimSemanticsUri: COUNTERMODEL_RESULT_SEMANTICS_URI,
        candidateUri,
        inputUris: [],
        evidenceFormat: EVIDENCE_FORMAT,
        summary: { order: claim.order },
      });
      const sourcesHold =
        claim.laws.length === 0
          ? 'there are no source laws'
          : `the ${claim.laws.length} source law${claim.laws.length === 1 ? '' : 's'} hold under all ${checked.assignments_checked - 1} assignments of their variables`;
      const message = `the tables are total on 0 … ${claim.order - 1}; ${sourcesHold}; and the target's sides are ${claim.target_values.left} ≠ ${claim.target_values.right} at the stated assignment`;
      return {
        status: 'COMPLETED',
        output: { ...base, verdict: 'ACCEPTED', result_uri: candidateUri, reason_code: null, message, failure: null, verification_record_uri: stored.uri },
        scope,
        completeness: { status: 'COMPLETE', basis: message.slice(0, 1000) },
        qualifiers: ['EXACT', 'EXHAUSTIVE', 'DETERMINISTIC'],
        assurance: {
          level: 'VERIFIED',
          basis: `independent exhaustive checker ${identity.checker_id}, authorized by the operator, accepted the claim`,
          verification_record_uri: stored.uri,
          checker_id: identity.checker_id,
        },
        obligations: [],
        relationships: [{ subject: stored.uri, predicate: 'VERIFIES', object: candidateUri }],
        artifact_uris: [stored.uri, candidateUri],
        diagnostics: [],
      };
    },
  };
}
