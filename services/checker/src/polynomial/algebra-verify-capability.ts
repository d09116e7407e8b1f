/**
 * The checkers of polynomial.factor.compute and polynomial.ideal_membership.decide:
 *
 * - `polynomial.factor.verify`: by default the producer's claim, a factorization into
 *   irreducibles: the unit and factors (with multiplicities) multiply back to the polynomial
 *   exactly, and every factor is shown irreducible (irreducibility.ts). A factor whose
 *   irreducibility cannot be shown leaves that obligation open: UNDECIDED, never VERIFIED. The
 *   product identity alone is a claim of its own (claim_kind FACTORIZATION_PRODUCT_IDENTITY),
 *   verified and recorded in its own name.
 * - `polynomial.ideal_membership.verify`: MEMBER by multiplying out the cofactor certificate;
 *   NOT_MEMBER only with a Groebner basis and cofactors that the Groebner checker accepts and a
 *   non-zero normal form of the polynomial modulo that basis. A claim without the certificate its
 *   verdict needs is UNDECIDED with the obligation open, not REJECTED.
 *
 * Claims come stored (`result_uri`) or inline (`claim`, polynomials as text in the producer's
 * grammar or as canonical JSON); the checks (algebra-verify.ts) run in an isolated kernel; an
 * accepted claim gets a signed verification record bound to the stored claim and the claim kind,
 * a rejected one names the failing part and rule.
 */
import { getTypedArtifactAt } from '@jacobian/shared';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  canonicalFactorizationClaim,
  canonicalMembershipClaim,
  FactorizationClaimInputSchema,
  MembershipClaimInputSchema,
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
  type FactorizationClaimInput,
  type MembershipClaimInput,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type JsonPath,
  type Obligation,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import { AlgebraRejectionReason, FactorizationClaimKind } from './algebra-verify.js';

export const FACTOR_VERIFY_CAPABILITY_ID = 'polynomial.factor.verify';
export const MEMBERSHIP_VERIFY_CAPABILITY_ID = 'polynomial.ideal_membership.verify';
export const FACTOR_CHECKER_ID = 'jacobian.polynomial.factor.product-identity';
export const MEMBERSHIP_CHECKER_ID = 'jacobian.polynomial.ideal_membership.certificate';
/** What a record of the product identity claim binds (irreducibility is not part of it). */
export const FACTORIZATION_PRODUCT_SEMANTICS_URI = 'jacobian:semantics/polynomial.factorization.product_identity/v1';
const VERSION = '1.0.0';

const KERNEL_FILE = fileURLToPath(new URL('./algebra-verify.kernel.ts', import.meta.url));
/** The files whose bytes form these checkers' identity. */
export const ALGEBRA_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./algebra-verify.ts', import.meta.url)),
  KERNEL_FILE,
  fileURLToPath(new URL('./groebner-verify.ts', import.meta.url)),
  fileURLToPath(new URL('./irreducibility.ts', import.meta.url)),
  RECORD_SOURCE,
  ...POLYNOMIAL_SOURCES,
];

const PathSchema = z.array(z.union([z.string(), z.number().int()]));
const CheckedObligation = z.object({ id: z.string().min(1), statement: z.string().min(1) }).strict();
const CheckResult = z.union([
  z.object({ accepted: z.literal(true), message: z.string(), discharged: z.array(CheckedObligation), open: z.array(CheckedObligation) }).strict(),
  z.object({ accepted: z.literal(false), reason_code: z.enum(AlgebraRejectionReason), message: z.string(), path: PathSchema, witness: z.string().nullable() }).strict(),
]);

const VerifyOutput = z
  .object({
    verdict: z
      .enum(['ACCEPTED', 'REJECTED', 'UNDECIDED'])
      .describe('ACCEPTED: the claim asked holds (VERIFIED); REJECTED: the claim or its evidence fails a check; UNDECIDED: no check failed but an obligation of the claim stays open for want of evidence (see obligations)'),
    claim_kind: z.string().describe('the claim asked, as the verification record names it'),
    claim: z.string().describe('the claim that was checked, in words'),
    result_uri: z.string().nullable().describe('the stored claim (given, or stored by the checker for an accepted inline claim); null for an inline claim not accepted'),
    reason_code: z.enum(AlgebraRejectionReason).nullable().describe('null when accepted; otherwise the rule that failed'),
    message: z.string(),
    failure: z.object({ path: PathSchema.describe('the failing part of the claim, e.g. ["factors", 1], ["cofactors"], ["basis", 2]'), witness: z.string().nullable() }).strict().nullable(),
    verification_record_uri: z.string().nullable().describe('the signed verification record; null unless ACCEPTED'),
  })
  .strict();
export type AlgebraVerifyOutput = z.infer<typeof VerifyOutput>;

/** A request to one of these checkers: a stored claim or one inline, and for factorizations which claim is asked. */
export interface AlgebraVerifyInput<I> {
  result_uri?: string | undefined;
  claim?: I | undefined;
  claim_kind?: string | undefined;
}

interface Spec<T, I> {
  id: string;
  checkerId: string;
  producer: string;
  schemaUri: string;
  semanticsUri: string;
  /** The stored claim, in canonical JSON. */
  claimSchema: z.ZodType<T>;
  /** The claim as a request may give it (texts or canonical JSON), and how it becomes the stored form. */
  inputClaimSchema: z.ZodType<I>;
  canonical: (claim: I, path: JsonPath) => T;
  /** The claim kinds a request may ask (the first is the default); null when the claim itself fixes its kind. */
  claimKinds: { values: readonly [string, ...string[]]; describe: string } | null;
  kernelExport: string;
  statement: (claim: T, kind: string) => string;
  claimKind: (claim: T, asked: string | undefined) => string;
  recordSemantics: (kind: string) => string;
}

function inputSchema<T, I>(spec: Spec<T, I>): z.ZodType<AlgebraVerifyInput<I>> {
  const shape = {
    result_uri: ArtifactUriSchema.optional().describe(`a stored claim (${spec.schemaUri}), e.g. the result_uri of ${spec.producer}`),
    claim: spec.inputClaimSchema.optional().describe(`the claim inline, each polynomial as text (as ${spec.producer} takes it) or canonical JSON; stored as a candidate artifact when accepted`),
  };
  const kinds = spec.claimKinds;
  const object: z.ZodType<AlgebraVerifyInput<I>> =
    kinds === null ? z.object(shape).strict() : z.object({ ...shape, claim_kind: z.enum(kinds.values).default(kinds.values[0]).describe(kinds.describe) }).strict();
  return object
    .superRefine((input, ctx) => {
      if ((input.result_uri === undefined) === (input.claim === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of result_uri (a stored claim) or claim (the claim inline)' });
    });
}

/** Rejections that refute only the evidence given (the claim itself may still hold), or say the claim is not one. */
function rejectionBasis(reason: AlgebraRejectionReason): string {
  switch (reason) {
    case AlgebraRejectionReason.COFACTOR_MISMATCH:
    case AlgebraRejectionReason.BASIS_REJECTED:
      return 'the checker found the certificate wrong: the evidence does not establish the claim (the claim itself may still hold)';
    case AlgebraRejectionReason.MALFORMED:
      return 'the checker found the claim malformed: it does not state a claim of this kind';
    case AlgebraRejectionReason.CONSTANT_FACTOR:
    case AlgebraRejectionReason.FACTOR_NOT_DIVISOR:
    case AlgebraRejectionReason.PRODUCT_MISMATCH:
    case AlgebraRejectionReason.FACTOR_REDUCIBLE:
    case AlgebraRejectionReason.NORMAL_FORM_ZERO:
    case AlgebraRejectionReason.REMAINDER_MISMATCH:
      return 'the checker examined the claim and found it false';
  }
}

const RESULT_PATH: JsonPath = ['payload', 'result_uri'];

async function readStored<T, I>(spec: Spec<T, I>, uri: string, context: CapabilityContext): Promise<{ claim: T; uri: string }> {
  const { artifact, payload } = await getTypedArtifactAt(
    context.artifacts,
    uri,
    RESULT_PATH,
    { schemaUri: spec.schemaUri, semanticsUri: spec.semanticsUri, what: 'a stored claim', payload: spec.claimSchema, hint: `pass the result_uri of ${spec.producer}, or give the claim inline` },
    { signal: context.signal },
  );
  return { claim: payload, uri: artifact.uri };
}

function defineChecker<T extends { ring: unknown }, I>(spec: Spec<T, I>, authority: CheckerAuthority, texts: { title: string; description: string; method: string; tags: string[]; keywords: string[]; scope: string; examples: CapabilityDefinition<unknown, unknown>['examples'] }): CapabilityDefinition<AlgebraVerifyInput<I>, AlgebraVerifyOutput> {
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
      // Texts are parsed in the claim's ring first: a bad text is an error at its place, never a verdict.
      const source = input.result_uri !== undefined ? await readStored(spec, input.result_uri, context) : { claim: spec.canonical(input.claim as I, ['payload', 'claim']), uri: null };
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
      const kind = spec.claimKind(claim, input.claim_kind);
      const checked = CheckResult.parse(await runKernel(context, kernel, { claim, kind }));
      const statement = spec.statement(claim, kind).slice(0, 2000);
      const inputUris = source.uri === null ? [] : [source.uri];
      const scope = { kind: 'EXACT_CLAIM' as const, statement, input_uris: inputUris };
      if (!checked.accepted) {
        return {
          status: 'COMPLETED',
          output: { verdict: 'REJECTED', claim_kind: kind, claim: statement, result_uri: source.uri, reason_code: checked.reason_code, message: checked.message, failure: { path: checked.path, witness: checked.witness }, verification_record_uri: null },
          scope,
          completeness: { status: 'COMPLETE', basis: rejectionBasis(checked.reason_code) },
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
      const discharged: Obligation[] = checked.discharged.map((o) => ({ id: o.id, statement: o.statement.slice(0, 1000), status: 'DISCHARGED', discharged_by: [spec.id] }));
      if (checked.open.length > 0) {
        // An obligation of the claim asked lacks evidence: not VERIFIED, nothing stored or signed.
        const open: Obligation[] = checked.open.map((o) => ({ id: o.id, statement: o.statement.slice(0, 1000), status: 'OPEN', discharged_by: [] }));
        return {
          status: 'COMPLETED',
          output: { verdict: 'UNDECIDED', claim_kind: kind, claim: statement, result_uri: source.uri, reason_code: null, message: `not verified: ${checked.message}`, failure: null, verification_record_uri: null },
          scope,
          completeness: { status: 'PARTIAL', basis: `no check failed, but obligation${open.length === 1 ? '' : 's'} ${open.map((o) => o.id).join(', ')} of the claim stayed open` },
          qualifiers: ['EXACT', 'DETERMINISTIC'],
          assurance: {
            level: 'COMPUTED',
            basis: `not verified: the independent checker ${identity.checker_id} could not discharge ${open.map((o) => o.id).join(', ')}; every check it could make passed`,
            verification_record_uri: null,
            checker_id: null,
          },
          obligations: [...discharged, ...open],
          relationships: [],
          artifact_uris: inputUris,
          diagnostics: [
            {
              severity: 'WARNING',
              code: 'CLAIM_NOT_VERIFIED',
              stage: 'VERIFICATION',
              message: `the claim asked (${kind}) has open obligations: ${checked.open.map((o) => o.statement).join('; ')}`.slice(0, 2000),
              path: source.uri === null ? ['payload', 'claim'] : RESULT_PATH,
              hint: null,
            },
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
        claim: { kind, statement, value: { ring: claim.ring } },
        claimSemanticsUri: spec.recordSemantics(kind),
        candidateUri,
        inputUris: [],
        evidenceFormat: `jacobian:evidence/${spec.id}.claim/v1`,
      });
      return {
        status: 'COMPLETED',
        output: { verdict: 'ACCEPTED', claim_kind: kind, claim: statement, result_uri: candidateUri, reason_code: null, message: checked.message, failure: null, verification_record_uri: stored.uri },
        scope,
        completeness: { status: 'COMPLETE', basis: checked.message.slice(0, 1000) },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: { level: 'VERIFIED', basis: `independent checker ${identity.checker_id}, authorized by the operator, accepted the claim asked (${kind})`, verification_record_uri: stored.uri, checker_id: identity.checker_id },
        obligations: discharged,
        relationships: [{ subject: stored.uri, predicate: 'VERIFIES', object: candidateUri }],
        artifact_uris: [stored.uri, candidateUri],
        diagnostics: [],
      };
    },
  };
}

const Q_X = { field: { kind: 'Q' as const }, variables: ['x'], order: 'lex' as const };
const term = (coefficient: string, ...exponents: number[]): { coefficient: string; exponents: number[] } => ({ coefficient, exponents });

/** polynomial.factor.verify: a factorization into irreducibles (default), or its product identity alone when asked. */
export function verifyFactorization(authority: CheckerAuthority): CapabilityDefinition<AlgebraVerifyInput<FactorizationClaimInput>, AlgebraVerifyOutput> {
  const factorsText = (claim: FactorizationClaim): string => `${claim.factors.length} factor${claim.factors.length === 1 ? '' : 's'}`;
  return defineChecker(
    {
      id: FACTOR_VERIFY_CAPABILITY_ID,
      checkerId: FACTOR_CHECKER_ID,
      producer: 'polynomial.factor.compute',
      schemaUri: FACTORIZATION_SCHEMA_URI,
      semanticsUri: FACTORIZATION_SEMANTICS_URI,
      claimSchema: FactorizationClaimSchema,
      inputClaimSchema: FactorizationClaimInputSchema,
      canonical: canonicalFactorizationClaim,
      claimKinds: {
        values: [FactorizationClaimKind.FACTORIZATION_INTO_IRREDUCIBLES, FactorizationClaimKind.FACTORIZATION_PRODUCT_IDENTITY],
        describe:
          'which claim to verify. FACTORIZATION_INTO_IRREDUCIBLES (default, what polynomial.factor.compute claims): the factors multiply back to the polynomial and each is irreducible; a factor whose irreducibility this checker cannot show (several variables, or over Q no prime keeps it irreducible) makes the answer UNDECIDED with that obligation open. FACTORIZATION_PRODUCT_IDENTITY: only that unit · Π factor^multiplicity equals the polynomial',
      },
      kernelExport: 'verifyFactorizationKernel',
      statement: (claim, kind) =>
        kind === FactorizationClaimKind.FACTORIZATION_PRODUCT_IDENTITY
          ? `the polynomial of the claim equals its unit times the product of its ${factorsText(claim)} to their multiplicities (the product identity asked; irreducibility is not part of it)`
          : `the polynomial of the claim equals its unit times the product of its ${factorsText(claim)} to their multiplicities, and each factor is irreducible over the field`,
      claimKind: (_claim, asked) => asked ?? FactorizationClaimKind.FACTORIZATION_INTO_IRREDUCIBLES,
      recordSemantics: (kind) => (kind === FactorizationClaimKind.FACTORIZATION_PRODUCT_IDENTITY ? FACTORIZATION_PRODUCT_SEMANTICS_URI : FACTORIZATION_SEMANTICS_URI),
    },
    authority,
    {
      title: 'Verify a factorization into irreducibles (or its product identity alone)',
      description: `Independently checks a factorization claim (stored by polynomial.factor.compute, or inline with polynomials as text or exponent vectors) with our own exact arithmetic and no computer algebra system: every polynomial decodes strictly; the unit is a non-zero field element; no factor is constant; each factor to its multiplicity divides the polynomial; unit · Π factor^multiplicity equals the polynomial exactly; and, for the default claim (FACTORIZATION_INTO_IRREDUCIBLES), each factor is irreducible: total degree 1, Rabin's test in one variable over GF(p), or over Q irreducibility modulo a prime that keeps the degree. A factor it cannot decide leaves the answer UNDECIDED with the obligation open; claim_kind FACTORIZATION_PRODUCT_IDENTITY asks the product identity alone. A false claim is REJECTED naming the failing factor, the unit, or the product.`,
      method:
        "decode every polynomial strictly; check the unit is non-zero and no factor is constant; divide the polynomial by each factor to its multiplicity; multiply unit and factors out and compare exactly; then, for a factorization into irreducibles, test each factor: total degree 1, Rabin's test over GF(p), reduction modulo small primes over Q",
      tags: ['polynomial', 'factorization', 'irreducibility', 'verification', 'checker'],
      keywords: ['check a factorization', 'verify factors', 'factorisation', 'irreducible factors', 'multiply back', 'product of factors'],
      scope: 'Covers exactly the one claim asked: by default that the factors multiply back to the polynomial and are irreducible; with FACTORIZATION_PRODUCT_IDENTITY only the product identity.',
      examples: [
        {
          title: 'x^4 - 1 = (x + 1)(x - 1)(x^2 + 1) over Q, into irreducibles, in text as polynomial.factor.compute writes it',
          mode: 'VERIFY',
          payload: { claim: { ring: Q_X, polynomial: 'x^4 - 1', unit: '1', factors: [{ factor: 'x + 1', multiplicity: 1 }, { factor: 'x - 1', multiplicity: 1 }, { factor: 'x^2 + 1', multiplicity: 1 }] } },
        },
        {
          title: 'The product identity alone: x^2 - 1 = (x + 1)(x - 1) over Q, exponent vectors',
          mode: 'VERIFY',
          payload: {
            claim_kind: 'FACTORIZATION_PRODUCT_IDENTITY',
            claim: { ring: Q_X, polynomial: { terms: [term('1', 2), term('-1', 0)] }, unit: '1', factors: [{ factor: { terms: [term('1', 1), term('1', 0)] }, multiplicity: 1 }, { factor: { terms: [term('1', 1), term('-1', 0)] }, multiplicity: 1 }] },
          },
        },
      ],
    },
  );
}

/** polynomial.ideal_membership.verify: MEMBER by the cofactor certificate, NOT_MEMBER by a verified basis and a non-zero normal form. */
export function verifyIdealMembership(authority: CheckerAuthority): CapabilityDefinition<AlgebraVerifyInput<MembershipClaimInput>, AlgebraVerifyOutput> {
  return defineChecker(
    {
      id: MEMBERSHIP_VERIFY_CAPABILITY_ID,
      checkerId: MEMBERSHIP_CHECKER_ID,
      producer: 'polynomial.ideal_membership.decide',
      schemaUri: MEMBERSHIP_SCHEMA_URI,
      semanticsUri: MEMBERSHIP_SEMANTICS_URI,
      claimSchema: MembershipClaimSchema,
      inputClaimSchema: MembershipClaimInputSchema,
      canonical: canonicalMembershipClaim,
      claimKinds: null,
      kernelExport: 'verifyMembershipKernel',
      statement: (claim) => `the polynomial of the claim ${claim.verdict === 'MEMBER' ? 'lies' : 'does not lie'} in the ideal generated by its ${claim.generators.length} generator${claim.generators.length === 1 ? '' : 's'}`,
      claimKind: (claim) => (claim.verdict === 'MEMBER' ? 'IDEAL_MEMBER' : 'IDEAL_NOT_MEMBER'),
      recordSemantics: () => MEMBERSHIP_SEMANTICS_URI,
    },
    authority,
    {
      title: 'Verify an ideal membership claim',
      description: `Independently checks an ideal membership claim (stored by polynomial.ideal_membership.decide, or inline with polynomials as text or exponent vectors) with our own exact arithmetic and no computer algebra system. MEMBER: Σ cofactors[j]·generators[j] must equal the polynomial exactly. NOT_MEMBER: the claim must carry the reduced Groebner basis with cofactors, which the Groebner basis checker must accept (both inclusions), and the polynomial's normal form modulo it must be non-zero (and equal the claimed remainder). A claim without the certificate its verdict needs is UNDECIDED, with the obligation and the evidence that closes it named. A false claim is REJECTED naming the failing part and rule (COFACTOR_MISMATCH, BASIS_REJECTED, NORMAL_FORM_ZERO, REMAINDER_MISMATCH, MALFORMED).`,
      method: 'MEMBER: multiply out the cofactors against the generators and compare; NOT_MEMBER: run the Groebner basis claim check (reducedness, cofactors, generators and S-polynomials reduce to zero) and compute the normal form of the polynomial',
      tags: ['polynomial', 'ideal-membership', 'groebner-basis', 'verification', 'checker', 'certificate'],
      keywords: ['check ideal membership', 'verify cofactors', 'membership certificate', 'ideal membership'],
      scope: 'Covers exactly the one claim: whether its polynomial lies in the ideal of its generators, in its ring.',
      examples: [
        {
          title: 'x^2 - y^2 = (x + y)·(x - y) is in <x - y> over Q, in text as polynomial.ideal_membership.decide takes it',
          mode: 'VERIFY',
          payload: { claim: { ring: { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' }, generators: ['x - y'], polynomial: 'x^2 - y^2', verdict: 'MEMBER', cofactors: ['x + y'] } },
        },
      ],
    },
  );
}
