/**
 * sequence.recurrence.verify: the checker of sequence.recurrence.guess (its stored claim,
 * `result_uri`) or of a claim given inline: a C-finite or P-recursive recurrence holds at every n
 * of a range of supplied terms. Checked by recurrence-verify.ts in an isolated kernel, with its
 * own integer arithmetic. The scope is those terms: VERIFIED says nothing about later ones.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  canonicalRecurrenceClaim,
  describeRecurrence,
  getTypedArtifactAt,
  isAuthorized,
  JacobianError,
  parseRecurrence,
  RecurrenceClaimInputSchema,
  RecurrenceClaimSchema,
  runKernel,
  SEQUENCE_CLAIM_SCHEMA_URI,
  SEQUENCE_CLAIM_SEMANTICS_URI,
  SEQUENCE_LIMITS,
  SEQUENCE_SOURCES,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityDefinition,
  type JsonPath,
  type RecurrenceClaim,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { matrixCheckResult, matrixVerifyInput, matrixVerifyOutput } from '../matrix/linear-algebra-verify-capability.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import { SequenceRejectionReason } from './recurrence-verify.js';

export const RECURRENCE_VERIFY_CAPABILITY_ID = 'sequence.recurrence.verify';
export const RECURRENCE_CHECKER_ID = 'jacobian.sequence.recurrence.exact_residuals';
const VERSION = '1.0.0';

const KERNEL = { module: fileURLToPath(new URL('./recurrence-verify.kernel.ts', import.meta.url)), exportName: 'verifyRecurrenceKernel' };
/** The files whose bytes form this checker's identity. */
export const RECURRENCE_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./recurrence-verify.ts', import.meta.url)),
  KERNEL.module,
  fileURLToPath(new URL('../matrix/linear-algebra-verify-capability.ts', import.meta.url)),
  RECORD_SOURCE,
  ...SEQUENCE_SOURCES,
];

const CheckResult = matrixCheckResult(SequenceRejectionReason);
const VerifyInput = matrixVerifyInput(RecurrenceClaimInputSchema, {
  resultUri: 'the claim stored by sequence.recurrence.guess (its result_uri)',
  claim: 'the claim inline: sequence (terms, offset), recurrence, and optionally the range from..to',
});
type VerifyInput = z.infer<typeof VerifyInput>;
const VerifyOutput = matrixVerifyOutput(z.enum(['SEQUENCE_C_FINITE_RECURRENCE', 'SEQUENCE_P_RECURSIVE_RECURRENCE']), SequenceRejectionReason, '["sequence", "terms", 7]');
export type RecurrenceVerifyOutput = z.infer<typeof VerifyOutput>;

const RESULT_PATH: JsonPath = ['payload', 'result_uri'];
const CLAIM_PATH: JsonPath = ['payload', 'claim'];

/** sequence.recurrence.verify, as the checker service registers it. */
export function verifyRecurrence(authority: CheckerAuthority): CapabilityDefinition<VerifyInput, RecurrenceVerifyOutput> {
  return {
    id: RECURRENCE_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify that a recurrence holds on terms of a sequence',
    description:
      'Checks exactly, with its own integer arithmetic and no code of the producer, that a C-finite (a(n) = Σ c_i a(n−i)) or P-recursive (Σ p_i(n) a(n−i) = 0) recurrence holds at every n in from..to of the supplied terms (default: all from valid_from). Scope: those terms only, never later ones. A failure is REJECTED (RELATION_FAILS) naming n and the residual.',
    tags: ['sequence', 'recurrence', 'verification', 'checker', 'c-finite', 'p-recursive'],
    keywords: ['verify a recurrence', 'check a recurrence relation', 'does this recurrence hold', 'holonomic', 'annihilator', 'linear recurrence check'],
    domain: 'sequence',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [SEQUENCE_CLAIM_SCHEMA_URI],
    produced_artifact_types: [SEQUENCE_CLAIM_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyInput,
    output: VerifyOutput,
    examples: [
      {
        title: 'Fibonacci terms obey a(n) = a(n−1) + a(n−2) for n = 2..9',
        mode: 'VERIFY',
        payload: { claim: { sequence: { terms: ['0', '1', '1', '2', '3', '5', '8', '13', '21', '34'] }, recurrence: { kind: 'c-finite', coefficients: ['1', '1'], valid_from: 2 } } },
      },
    ],
    relationships: [{ kind: 'VERIFIES', capability_id: 'sequence.recurrence.guess' }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one claim: the relation at each n in from..to of the supplied terms; nothing about other terms.',
    limits: { max_terms: SEQUENCE_LIMITS.maxTerms, max_term_digits: SEQUENCE_LIMITS.maxTermDigits },
    checker: {
      checker_id: RECURRENCE_CHECKER_ID,
      method: 'terms and coefficients scaled to integers by the lcm of their denominators; the residual of the relation at each n (Horner for p_i(n)) computed in exact bigint arithmetic; all must be 0',
      source_files: RECURRENCE_CHECKER_SOURCES,
      configuration: { claim: 'sequence.recurrence.claim/v1' },
    },
    async run(input, context) {
      let claim: RecurrenceClaim;
      let storedUri: string | null = null;
      let claimPath: JsonPath;
      if (input.result_uri !== undefined) {
        const { artifact, payload } = await getTypedArtifactAt(
          context.artifacts,
          input.result_uri,
          RESULT_PATH,
          { schemaUri: SEQUENCE_CLAIM_SCHEMA_URI, semanticsUri: SEQUENCE_CLAIM_SEMANTICS_URI, what: 'a stored recurrence claim', payload: RecurrenceClaimSchema, hint: 'pass the result_uri of sequence.recurrence.guess, or give the claim inline' },
          { signal: context.signal },
        );
        // Read again by the contract's rules (term syntax, range): a stored claim is not trusted to be canonical.
        claim = canonicalRecurrenceClaim(payload, RESULT_PATH).claim;
        storedUri = artifact.uri;
        claimPath = RESULT_PATH;
      } else {
        if (input.claim === undefined) throw new Error('sequence.recurrence.verify: the input was not validated');
        claim = canonicalRecurrenceClaim(RecurrenceClaimInputSchema.parse(input.claim), CLAIM_PATH).claim;
        claimPath = CLAIM_PATH;
      }
      const recurrence = parseRecurrence(claim.recurrence, [...claimPath, 'recurrence']);
      const kind = recurrence.kind === 'c-finite' ? 'SEQUENCE_C_FINITE_RECURRENCE' : 'SEQUENCE_P_RECURSIVE_RECURRENCE';
      const statement = `${describeRecurrence(recurrence)} holds at every n = ${claim.from}..${claim.to} of the ${claim.sequence.terms.length} supplied terms a(${claim.sequence.offset})..a(${claim.sequence.offset + claim.sequence.terms.length - 1})`.slice(0, 2000);
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
          hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
        });
      }
      const checked = CheckResult.parse(await runKernel(context, KERNEL, { claim }));
      const inputUris = storedUri === null ? [] : [storedUri];
      const scope = { kind: 'EXACT_CLAIM' as const, statement, input_uris: inputUris };
      if (!checked.accepted) {
        return {
          status: 'COMPLETED',
          output: { verdict: 'REJECTED', claim_kind: kind, claim: statement, claim_uri: null, reason_code: checked.reason_code, message: checked.message, failure: { path: checked.path, witness: checked.witness }, verification_record_uri: null },
          scope,
          completeness: { status: 'COMPLETE', basis: 'the checker examined the claim and found it false' },
          qualifiers: ['EXACT', 'DETERMINISTIC'],
          assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: [],
          artifact_uris: inputUris,
          diagnostics: [{ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: `${checked.reason_code}: ${checked.message}`.slice(0, 2000), path: storedUri === null ? [...claimPath, ...checked.path] : RESULT_PATH, hint: null }],
        };
      }
      const summary = { kind: recurrence.kind, terms: claim.sequence.terms.length, from: claim.from, to: claim.to };
      const candidateUri =
        storedUri ??
        (await context.artifacts.put({ schema_uri: SEQUENCE_CLAIM_SCHEMA_URI, semantics_uri: SEQUENCE_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: { ...summary, submitted_inline: true } }, { signal: context.signal })).uri;
      const stored = await storeVerificationRecord(context, authority.signingKey, {
        capabilityId: RECURRENCE_VERIFY_CAPABILITY_ID,
        capabilityVersion: VERSION,
        identity,
        claim: { kind, statement, value: summary },
        claimSemanticsUri: SEQUENCE_CLAIM_SEMANTICS_URI,
        candidateUri,
        inputUris: [],
        evidenceFormat: `jacobian:evidence/${RECURRENCE_VERIFY_CAPABILITY_ID}.claim/v1`,
      });
      return {
        status: 'COMPLETED',
        output: { verdict: 'ACCEPTED', claim_kind: kind, claim: statement, claim_uri: candidateUri, reason_code: null, message: checked.message, failure: null, verification_record_uri: stored.uri },
        scope,
        completeness: { status: 'COMPLETE', basis: checked.message.slice(0, 1000) },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: 'VERIFIED',
          basis: `independent checker ${identity.checker_id}, authorized by the operator, found every residual of the relation zero on n = ${claim.from}..${claim.to}; nothing is claimed about other terms`.slice(0, 1000),
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
