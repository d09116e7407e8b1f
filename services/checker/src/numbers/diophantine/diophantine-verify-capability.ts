/**
 * diophantine.claim.verify: an independent checker of the Diophantine pack's claims (Pell
 * fundamental solutions, form reductions and equivalences, imaginary class numbers, certificates
 * that A x = b has no integer solution), stored by their producers (`result_uri`) or inline. The
 * checks (diophantine-verify.ts, no code of the producers) run in an isolated kernel; an accepted
 * claim is stored (unless it came stored) and gets a signed verification record bound to it, a
 * rejected one names the failed check.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  DIOPHANTINE_CLAIM_SCHEMA_URI,
  DIOPHANTINE_CLAIM_SEMANTICS_URI,
  DIOPHANTINE_SOURCES,
  DiophantineClaimSchema,
  getTypedArtifactAt,
  isAuthorized,
  JacobianError,
  runKernel,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityDefinition,
  type DiophantineClaim,
  type JsonPath,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../../graph/induced-tree-verify.js';
import { matrixCheckResult, matrixVerifyInput, matrixVerifyOutput } from '../../matrix/linear-algebra-verify-capability.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../../record.js';
import { CHECKER_LIMITS, DiophantineRejectionReason } from './diophantine-verify.js';

export const DIOPHANTINE_VERIFY_CAPABILITY_ID = 'diophantine.claim.verify';
export const DIOPHANTINE_CHECKER_ID = 'jacobian.number_theory.diophantine.rederive';
const VERSION = '1.0.0';

const KERNEL = { module: fileURLToPath(new URL('./diophantine-verify.kernel.ts', import.meta.url)), exportName: 'verifyDiophantineKernel' };
/** The files whose bytes form this checker's identity. */
export const DIOPHANTINE_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./diophantine-verify.ts', import.meta.url)),
  KERNEL.module,
  fileURLToPath(new URL('../../matrix/linear-algebra-verify-capability.ts', import.meta.url)),
  RECORD_SOURCE,
  ...DIOPHANTINE_SOURCES,
];

const CheckResult = matrixCheckResult(DiophantineRejectionReason);
const VerifyInput = matrixVerifyInput(DiophantineClaimSchema, {
  resultUri: 'the result_uri of a Diophantine or quadratic form capability',
  claim: 'the claim inline, by kind',
});
type VerifyInput = z.infer<typeof VerifyInput>;
const ClaimKind = z.enum(['PELL', 'FORM_REDUCTION', 'FORM_EQUIVALENCE', 'CLASS_NUMBER', 'INTEGER_SYSTEM_SOLVED', 'INTEGER_SYSTEM_NONE']);
const VerifyOutput = matrixVerifyOutput(ClaimKind, DiophantineRejectionReason, '["plus"]');
export type DiophantineVerifyOutput = z.infer<typeof VerifyOutput>;

const RESULT_PATH: JsonPath = ['payload', 'result_uri'];

function statementOf(claim: DiophantineClaim): string {
  switch (claim.kind) {
    case 'PELL':
      return `(${claim.plus.x.slice(0, 40)}, ${claim.plus.y.slice(0, 40)}) is the fundamental solution of x² − ${claim.D} y² = 1, and x² − ${claim.D} y² = −1 ${claim.minus === null ? 'has no integer solution' : `has the fundamental solution (${claim.minus.x.slice(0, 40)}, ${claim.minus.y.slice(0, 40)})`}`;
    case 'FORM_REDUCTION':
      return `(${claim.reduced.join(', ')}) is a reduced form and (${claim.form.join(', ')})·M equals it for the given M ∈ SL₂(Z)`;
    case 'FORM_EQUIVALENCE':
      return `(${claim.f.join(', ')}) and (${claim.g.join(', ')}) are ${claim.equivalent ? '' : 'not '}properly equivalent (SL₂(Z))`;
    case 'CLASS_NUMBER':
      return `the class number of primitive positive definite binary quadratic forms of discriminant ${claim.D} is ${claim.class_number}`;
    case 'INTEGER_SYSTEM_SOLVED':
      return `the integer solutions of the ${claim.matrix.length}×${claim.matrix[0]?.length ?? 0} system A x = b are exactly the given x0 plus integer combinations of the ${claim.kernel.length} given kernel vectors`;
    case 'INTEGER_SYSTEM_NONE':
      return `the ${claim.matrix.length}×${claim.matrix[0]?.length ?? 0} system A x = b has no integer solution, as the given y (y A integral, y·b not an integer) shows`;
  }
}

/** diophantine.claim.verify, as the checker service registers it. */
export function verifyDiophantineClaim(authority: CheckerAuthority): CapabilityDefinition<VerifyInput, DiophantineVerifyOutput> {
  return {
    id: DIOPHANTINE_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify a Diophantine claim',
    description:
      "Independently checks a number-theory claim with its own exact arithmetic, no producer code. PELL: x² − D y² = ±1 exactly, fundamentality from its own period of √D (−1 solvable iff the period is odd). FORM_REDUCTION: det M = 1, f·M = the form, which is reduced. FORM_EQUIVALENCE: det T = 1, f·T = g; non-equivalence by its own reduction (indefinite: its own cycle of reduced forms). CLASS_NUMBER (D < 0, |D| ≤ 10^9): its own count of reduced forms. INTEGER_SYSTEM_SOLVED: A x0 = b, A K = 0, K W = I and rank K = n − rank A (its own elimination): all integer solutions. INTEGER_SYSTEM_NONE: y A integral, y·b not. False claims are REJECTED naming the check.",
    tags: ['number-theory', 'diophantine', 'pell-equation', 'quadratic-form', 'class-number', 'verification', 'checker', 'certificate'],
    keywords: ['verify a Pell equation solution', 'check fundamental solution', 'fundamental unit check', 'verify a reduced binary quadratic form', 'check SL2(Z) transform', 'verify form equivalence', 'verify a class number', 'count reduced forms', 'certificate of no integer solution', 'linear Diophantine certificate'],
    domain: 'number_theory',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [DIOPHANTINE_CLAIM_SCHEMA_URI],
    produced_artifact_types: [DIOPHANTINE_CLAIM_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyInput,
    output: VerifyOutput,
    examples: [
      { title: '(1766319049, 226153980) is the fundamental solution of x² − 61 y² = 1; −1 has (29718, 3805)', mode: 'VERIFY', payload: { claim: { kind: 'PELL', D: '61', plus: { x: '1766319049', y: '226153980' }, minus: { x: '29718', y: '3805' } } } },
      { title: 'h(−23) = 3', mode: 'VERIFY', payload: { claim: { kind: 'CLASS_NUMBER', D: '-23', class_number: '3' } } },
      { title: '(3, 5, 7)·[[1, −1], [0, 1]] = (3, −1, 5), reduced', mode: 'VERIFY', payload: { claim: { kind: 'FORM_REDUCTION', form: ['3', '5', '7'], reduced: ['3', '-1', '5'], transform: [['1', '-1'], ['0', '1']] } } },
    ],
    relationships: [
      { kind: 'VERIFIES', capability_id: 'diophantine.pell_equation.solve' },
      { kind: 'VERIFIES', capability_id: 'diophantine.linear_system.solve' },
      { kind: 'VERIFIES', capability_id: 'quadratic_form.reduce' },
      { kind: 'VERIFIES', capability_id: 'quadratic_form.equivalence.decide' },
      { kind: 'VERIFIES', capability_id: 'quadratic_form.class_group.compute' },
    ],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'The one claim, as its kind states it.',
    limits: { max_period: CHECKER_LIMITS.maxPeriod, max_class_number_abs_discriminant: CHECKER_LIMITS.maxClassNumberAbsD.toString() },
    checker: {
      checker_id: DIOPHANTINE_CHECKER_ID,
      method: 'exact big-integer identities; the period of √D re-derived by the (m, d, a) recurrence for Pell fundamentality; its own positive definite reduction; its own count of primitive reduced forms by b and the divisors of (b² − D)/4; rationals over a common denominator for y A and y·b',
      source_files: DIOPHANTINE_CHECKER_SOURCES,
      configuration: { max_period: CHECKER_LIMITS.maxPeriod, max_class_number_abs_discriminant: CHECKER_LIMITS.maxClassNumberAbsD.toString() },
    },
    async run(input, context) {
      let claim: DiophantineClaim;
      let storedUri: string | null = null;
      if (input.result_uri !== undefined) {
        const read = await getTypedArtifactAt(
          context.artifacts,
          input.result_uri,
          RESULT_PATH,
          { schemaUri: DIOPHANTINE_CLAIM_SCHEMA_URI, semanticsUri: DIOPHANTINE_CLAIM_SEMANTICS_URI, what: 'a stored Diophantine claim', payload: DiophantineClaimSchema, hint: 'pass the result_uri of a Diophantine or quadratic form capability, or give the claim inline' },
          { signal: context.signal },
        );
        claim = read.payload;
        storedUri = read.artifact.uri;
      } else if (input.claim !== undefined) {
        claim = input.claim;
      } else {
        throw new Error('diophantine.claim.verify: the input was not validated (neither result_uri nor claim)');
      }
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
          hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
        });
      }
      const statement = statementOf(claim).slice(0, 2000);
      const kind = claim.kind;
      const inputUris = storedUri === null ? [] : [storedUri];
      const checked = CheckResult.parse(await runKernel(context, KERNEL, { claim }));
      const scope = { kind: 'EXACT_CLAIM' as const, statement, input_uris: inputUris };
      const claimPath: JsonPath = storedUri === null ? ['payload', 'claim'] : RESULT_PATH;
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
      const candidateUri =
        storedUri ??
        (await context.artifacts.put({ schema_uri: DIOPHANTINE_CLAIM_SCHEMA_URI, semantics_uri: DIOPHANTINE_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: { kind, submitted_inline: true } }, { signal: context.signal })).uri;
      const stored = await storeVerificationRecord(context, authority.signingKey, {
        capabilityId: DIOPHANTINE_VERIFY_CAPABILITY_ID,
        capabilityVersion: VERSION,
        identity,
        claim: { kind, statement, value: { kind } },
        claimSemanticsUri: DIOPHANTINE_CLAIM_SEMANTICS_URI,
        candidateUri,
        inputUris: [],
        evidenceFormat: `jacobian:evidence/${DIOPHANTINE_VERIFY_CAPABILITY_ID}.claim/v1`,
      });
      return {
        status: 'COMPLETED',
        output: { verdict: 'ACCEPTED', claim_kind: kind, claim: statement, claim_uri: candidateUri, reason_code: null, message: checked.message, failure: null, verification_record_uri: stored.uri },
        scope,
        completeness: { status: 'COMPLETE', basis: checked.message.slice(0, 1000) },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: 'VERIFIED',
          basis: `independent checker ${identity.checker_id}, authorized by the operator, accepted the claim (${kind}): ${checked.message}`.slice(0, 1000),
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
