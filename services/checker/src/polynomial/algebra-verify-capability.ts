/**
 * The checkers of polynomial.factor.compute and polynomial.ideal_membership.decide:
 *
 * - `polynomial.factor.verify`: the unit and factors (with multiplicities) multiply back to the
 *   polynomial exactly. It does NOT check irreducibility: an accepted result keeps that as an
 *   open obligation, and the signed record binds only the product identity.
 * - `polynomial.ideal_membership.verify`: MEMBER by multiplying out the cofactor certificate;
 *   NOT_MEMBER only with a Groebner basis and cofactors that the Groebner checker accepts and a
 *   non-zero normal form of the polynomial modulo that basis.
 *
 * Claims come stored (`result_uri`) or inline (`claim`); the checks (algebra-verify.ts) run in an
 * isolated kernel; an accepted claim gets a signed verification record bound to the stored claim,
 * a rejected one names the failing part and rule.
 */
import { getTypedArtifactAt } from '@jacobian/shared';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  isAuthorized,
  JacobianError,
  POLYNOMIAL_LIMITS,
  POLYNOMIAL_SOURCES,
  resolveRing,
  runKernel,
  VERIFICATION_RECORD_SCHEMA_URI,
  FACTORIZATION_SCHEMA_URI,
  FACTORIZATION_SEMANTICS_URI,
  FactorizationClaimSchema,
  MEMBERSHIP_SCHEMA_URI,
  MEMBERSHIP_SEMANTICS_URI,
  MembershipClaimSchema,
  type FactorizationClaim,
  type MembershipClaim,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type JsonPath,
  type Obligation,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import {
  AlgebraRejectionReason,
} from './algebra-verify.js';

export const FACTOR_VERIFY_CAPABILITY_ID = 'polynomial.factor.verify';
export const MEMBERSHIP_VERIFY_CAPABILITY_ID = 'polynomial.ideal_membership.verify';
export const FACTOR_CHECKER_ID = 'jacobian.polynomial.factor.product-identity';
export const MEMBERSHIP_CHECKER_ID = 'jacobian.polynomial.ideal_membership.certificate';
/** What a factor record binds: the product identity only (not irreducibility). */
export const FACTORIZATION_PRODUCT_SEMANTICS_URI = 'jacobian:semantics/polynomial.factorization.product_identity/v1';
const VERSION = '1.0.0';

const KERNEL_FILE = fileURLToPath(new URL('./algebra-verify.kernel.ts', import.meta.url));
/** The files whose bytes form these checkers' identity. */
export const ALGEBRA_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./algebra-verify.ts', import.meta.url)),
  KERNEL_FILE,
  fileURLToPath(new URL('./groebner-verify.ts', import.meta.url)),
  RECORD_SOURCE,
  ...POLYNOMIAL_SOURCES,
];

const PathSchema = z.array(z.union([z.string(), z.number().int()]));
const CheckResult = z.union([
  z.object({ accepted: z.literal(true), message: z.string() }).strict(),
  z.object({ accepted: z.literal(false), reason_code: z.enum(AlgebraRejectionReason), message: z.string(), path: PathSchema, witness: z.string().nullable() }).strict(),
]);

const VerifyOutput = z
  .object({
    verdict: z.enum(['ACCEPTED', 'REJECTED']),
    claim: z.string().describe('the claim that was checked, in words'),
    result_uri: z.string().nullable().describe('the stored claim (given, or stored by the checker for an accepted inline claim); null for a rejected inline claim'),
    reason_code: z.enum(AlgebraRejectionReason).nullable().describe('null when accepted; otherwise the rule that failed'),
    message: z.string(),
    failure: z.object({ path: PathSchema.describe('the failing part of the claim, e.g. ["factors", 1], ["cofactors"], ["basis", 2]'), witness: z.string().nullable() }).strict().nullable(),
    verification_record_uri: z.string().nullable(),
  })
  .strict();
export type AlgebraVerifyOutput = z.infer<typeof VerifyOutput>;

interface Spec<T> {
  id: string;
  checkerId: string;
  producer: string;
  schemaUri: string;
  semanticsUri: string;
  claimSchema: z.ZodType<T>;
  kernelExport: string;
  statement: (claim: T) => string;
  claimKind: (claim: T) => string;
  recordSemantics: string;
  openObligations: (claim: T) => Obligation[];
}

function inputSchema<T>(spec: Spec<T>): z.ZodType<{ result_uri?: string | undefined; claim?: T | undefined }> {
  return z
    .object({
      result_uri: ArtifactUriSchema.optional().describe(`a stored claim (${spec.schemaUri}), e.g. the result_uri of ${spec.producer}`),
      claim: spec.claimSchema.optional().describe('the claim inline, in canonical JSON; stored as a candidate artifact when accepted'),
    })
    .strict()
    .superRefine((input, ctx) => {
      if ((input.result_uri === undefined) === (input.claim === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of result_uri (a stored claim) or claim (the claim inline)' });
    });
}

const RESULT_PATH: JsonPath = ['payload', 'result_uri'];

async function readStored<T>(spec: Spec<T>, uri: string, context: CapabilityContext): Promise<{ claim: T; uri: string }> {
  const { artifact, payload } = await getTypedArtifactAt(
    context.artifacts,
    uri,
    RESULT_PATH,
    { schemaUri: spec.schemaUri, semanticsUri: spec.semanticsUri, what: 'a stored claim', payload: spec.claimSchema, hint: `pass the result_uri of ${spec.producer}, or give the claim inline` },
    { signal: context.signal },
  );
  return { claim: payload, uri: artifact.uri };
}

function defineChecker<T extends { ring: unknown }>(spec: Spec<T>, authority: CheckerAuthority, texts: { title: string; description: string; method: string; tags: string[]; keywords: string[]; scope: string; examples: CapabilityDefinition<unknown, unknown>['examples'] }): CapabilityDefinition<{ result_uri?: string | undefined; claim?: T | undefined }, AlgebraVerifyOutput> {
  const kernel = { module: KERNEL_FILE, exportName: spec.kernelExport };
  return {
    id: spec.id,
    version: VERSION,
    title: texts.title,
    description: texts.description,
    tags: texts.tags,
    keywords: texts.keywords,
    domain: 'polynomial',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [spec.schemaUri],
    produced_artifact_types: [spec.schemaUri, VERIFICATION_RECORD_SCHEMA_URI],
    input: inputSchema(spec),
    output: VerifyOutput,
    examples: texts.examples,
    relationships: [{ kind: 'VERIFIES', capability_id: spec.producer }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: texts.scope,
    limits: { max_variables: POLYNOMIAL_LIMITS.maxVariables, max_polynomials: POLYNOMIAL_LIMITS.maxPolynomials, max_terms: POLYNOMIAL_LIMITS.maxTerms, max_degree: POLYNOMIAL_LIMITS.maxDegree },
    checker: {
      checker_id: spec.checkerId,
      method: texts.method,
      source_files: ALGEBRA_CHECKER_SOURCES,
      configuration: { max_polynomials: POLYNOMIAL_LIMITS.maxPolynomials, max_terms: POLYNOMIAL_LIMITS.maxTerms, max_degree: POLYNOMIAL_LIMITS.maxDegree },
    },
    async run(input, context): Promise<CapabilityOutcome<AlgebraVerifyOutput>> {
      const source = input.result_uri !== undefined ? await readStored(spec, input.result_uri, context) : { claim: input.claim as T, uri: null };
      const { claim } = source;
      try {
        resolveRing(claim.ring, source.uri === null ? ['payload', 'claim', 'ring'] : ['ring']);
      } catch (error) {
        if (source.uri === null || !(error instanceof JacobianError) || error.code !== 'INVALID_REQUEST') throw error;
        throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `payload.result_uri: the stored claim's ring is invalid: ${error.message}`, { path: RESULT_PATH, cause: error });
      }
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
          hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
        });
      }
      const checked = CheckResult.parse(await runKernel(context, kernel, { claim }));
      const statement = spec.statement(claim).slice(0, 2000);
      const inputUris = source.uri === null ? [] : [source.uri];
      if (!checked.accepted) {
        return {
          status: 'COMPLETED',
          output: { verdict: 'REJECTED', claim: statement, result_uri: source.uri, reason_code: checked.reason_code, message: checked.message, failure: { path: checked.path, witness: checked.witness }, verification_record_uri: null },
          scope: { kind: 'EXACT_CLAIM', statement, input_uris: inputUris },
          completeness: { status: 'COMPLETE', basis: 'the checker examined the claim and found it false' },
          qualifiers: ['EXACT', 'DETERMINISTIC'],
          assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: [],
          artifact_uris: inputUris,
          diagnostics: [
            { severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: `${checked.reason_code}: ${checked.message}`.slice(0, 2000), path: source.uri === null ? ['payload', 'claim', ...checked.path] : RESULT_PATH, hint: null },
          ],
        };
      }
      const candidateUri =
        source.uri ??
        (await context.artifacts.put({ schema_uri: spec.schemaUri, semantics_uri: spec.semanticsUri, payload: claim as never, parents: [], summary: { submitted_inline: true } }, { signal: context.signal })).uri;
      const stored = await storeVerificationRecord(context, authority.signingKey, {
        capabilityId: spec.id,
        capabilityVersion: VERSION,
        identity,
        claim: { kind: spec.claimKind(claim), statement, value: { ring: claim.ring } },
        claimSemanticsUri: spec.recordSemantics,
        candidateUri,
        inputUris: [],
        evidenceFormat: `jacobian:evidence/${spec.id}.claim/v1`,
      });
      return {
        status: 'COMPLETED',
        output: { verdict: 'ACCEPTED', claim: statement, result_uri: candidateUri, reason_code: null, message: checked.message, failure: null, verification_record_uri: stored.uri },
        scope: { kind: 'EXACT_CLAIM', statement, input_uris: inputUris },
        completeness: { status: 'COMPLETE', basis: checked.message.slice(0, 1000) },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: { level: 'VERIFIED', basis: `independent checker ${identity.checker_id}, authorized by the operator, accepted the claim`, verification_record_uri: stored.uri, checker_id: identity.checker_id },
        obligations: spec.openObligations(claim),
        relationships: [{ subject: stored.uri, predicate: 'VERIFIES', object: candidateUri }],
        artifact_uris: [stored.uri, candidateUri],
        diagnostics: [],
      };
    },
  };
}

const Q_X = { field: { kind: 'Q' as const }, variables: ['x'], order: 'lex' as const };
const term = (coefficient: string, ...exponents: number[]): { coefficient: string; exponents: number[] } => ({ coefficient, exponents });

/** polynomial.factor.verify: the product identity of a factorization (not irreducibility). */
export function verifyFactorization(authority: CheckerAuthority): CapabilityDefinition<{ result_uri?: string | undefined; claim?: FactorizationClaim | undefined }, AlgebraVerifyOutput> {
  return defineChecker(
    {
      id: FACTOR_VERIFY_CAPABILITY_ID,
      checkerId: FACTOR_CHECKER_ID,
      producer: 'polynomial.factor.compute',
      schemaUri: FACTORIZATION_SCHEMA_URI,
      semanticsUri: FACTORIZATION_SEMANTICS_URI,
      claimSchema: FactorizationClaimSchema,
      kernelExport: 'verifyFactorizationKernel',
      statement: (claim) => `the polynomial of the claim equals its unit times the product of its ${claim.factors.length} factor${claim.factors.length === 1 ? '' : 's'} to their multiplicities (irreducibility not claimed)`,
      claimKind: () => 'FACTORIZATION_PRODUCT_IDENTITY',
      recordSemantics: FACTORIZATION_PRODUCT_SEMANTICS_URI,
      openObligations: () => [
        {
          id: 'factors-irreducible',
          statement: 'The checker verified only that the factors multiply back to the polynomial; that each factor is irreducible over the field was not checked.',
          status: 'OPEN',
          discharged_by: [],
        },
      ],
    },
    authority,
    {
      title: 'Verify that a factorization multiplies back to the polynomial',
      description: `Independently checks a factorization claim (stored by polynomial.factor.compute, or inline) with our own exact arithmetic and no computer algebra system: every polynomial decodes strictly; the unit is a non-zero field element; no factor is constant; each factor to its multiplicity divides the polynomial; and unit · Π factor^multiplicity equals the polynomial exactly. It does NOT check that the factors are irreducible (kept as an open obligation). A false claim is REJECTED naming the failing factor, the unit, or the product.`,
      method: 'decode every polynomial strictly; check the unit is non-zero and no factor is constant; divide the polynomial by each factor to its multiplicity; multiply unit and factors out and compare exactly (no irreducibility test)',
      tags: ['polynomial', 'factorization', 'verification', 'checker'],
      keywords: ['check a factorization', 'verify factors', 'factorisation', 'multiply back', 'product of factors'],
      scope: 'Covers exactly the one claim: that its factors and unit multiply back to its polynomial; not irreducibility.',
      examples: [
        {
          title: 'x^2 - 1 = (x + 1)(x - 1) over Q',
          mode: 'VERIFY',
          payload: { claim: { ring: Q_X, polynomial: { terms: [term('1', 2), term('-1', 0)] }, unit: '1', factors: [{ factor: { terms: [term('1', 1), term('1', 0)] }, multiplicity: 1 }, { factor: { terms: [term('1', 1), term('-1', 0)] }, multiplicity: 1 }] } },
        },
      ],
    },
  );
}

/** polynomial.ideal_membership.verify: MEMBER by the cofactor certificate, NOT_MEMBER by a verified basis and a non-zero normal form. */
export function verifyIdealMembership(authority: CheckerAuthority): CapabilityDefinition<{ result_uri?: string | undefined; claim?: MembershipClaim | undefined }, AlgebraVerifyOutput> {
  return defineChecker(
    {
      id: MEMBERSHIP_VERIFY_CAPABILITY_ID,
      checkerId: MEMBERSHIP_CHECKER_ID,
      producer: 'polynomial.ideal_membership.decide',
      schemaUri: MEMBERSHIP_SCHEMA_URI,
      semanticsUri: MEMBERSHIP_SEMANTICS_URI,
      claimSchema: MembershipClaimSchema,
      kernelExport: 'verifyMembershipKernel',
      statement: (claim) => `the polynomial of the claim ${claim.verdict === 'MEMBER' ? 'lies' : 'does not lie'} in the ideal generated by its ${claim.generators.length} generator${claim.generators.length === 1 ? '' : 's'}`,
      claimKind: (claim) => (claim.verdict === 'MEMBER' ? 'IDEAL_MEMBER' : 'IDEAL_NOT_MEMBER'),
      recordSemantics: MEMBERSHIP_SEMANTICS_URI,
      openObligations: () => [],
    },
    authority,
    {
      title: 'Verify an ideal membership claim',
      description: `Independently checks an ideal membership claim (stored by polynomial.ideal_membership.decide, or inline) with our own exact arithmetic and no computer algebra system. MEMBER: Σ cofactors[j]·generators[j] must equal the polynomial exactly. NOT_MEMBER: the claim must carry the reduced Groebner basis with cofactors, which the Groebner basis checker must accept (both inclusions), and the polynomial's normal form modulo it must be non-zero (and equal the claimed remainder). A false claim is REJECTED naming the failing part and rule (COFACTOR_MISMATCH, NO_BASIS_CERTIFICATE, BASIS_REJECTED, NORMAL_FORM_ZERO, REMAINDER_MISMATCH, MALFORMED).`,
      method: 'MEMBER: multiply out the cofactors against the generators and compare; NOT_MEMBER: run the Groebner basis claim check (reducedness, cofactors, generators and S-polynomials reduce to zero) and compute the normal form of the polynomial',
      tags: ['polynomial', 'ideal-membership', 'groebner-basis', 'verification', 'checker', 'certificate'],
      keywords: ['check ideal membership', 'verify cofactors', 'membership certificate', 'ideal membership'],
      scope: 'Covers exactly the one claim: whether its polynomial lies in the ideal of its generators, in its ring.',
      examples: [
        {
          title: 'x^2 - y^2 = (x + y)·(x - y) is in <x - y> over Q',
          mode: 'VERIFY',
          payload: {
            claim: {
              ring: { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' },
              generators: [{ terms: [term('1', 1, 0), term('-1', 0, 1)] }],
              polynomial: { terms: [term('1', 2, 0), term('-1', 0, 2)] },
              verdict: 'MEMBER',
              cofactors: [{ terms: [term('1', 1, 0), term('1', 0, 1)] }],
            },
          },
        },
      ],
    },
  );
}
