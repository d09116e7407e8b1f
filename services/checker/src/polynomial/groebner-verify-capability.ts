/**
 * `polynomial.groebner_basis.verify`: the independent checker of reduced Groebner basis claims.
 * A claim names a ring (field, variables, order), the generators of an ideal, a basis, and
 * optionally cofactors expressing each basis element in the generators. It comes either stored
 * (`result_uri`, e.g. from polynomial.groebner_basis.compute) or inline (`claim`), its polynomials
 * as text (the grammar and ring declaration of the producer) or as canonical JSON.
 *
 * The check (groebner-verify.ts, in an isolated kernel) is our own TypeScript on the shared
 * reference arithmetic, with no CAS and none of the producer's Buchberger engine: the polynomials
 * decode strictly, the basis is reduced, the cofactors combine the generators into each basis
 * element, every generator reduces to zero, and every S-polynomial reduces to zero (Buchberger's
 * criterion, with the product and chain criteria justified in groebner-verify.ts).
 *
 * The request says which claim it asks (`claim_kind`), and VERIFIED covers that whole claim:
 * - REDUCED_GROEBNER_BASIS (the default, what the producer claims): the basis is the reduced
 *   Groebner basis of exactly the generated ideal. Both inclusions are needed; without cofactors
 *   the basis-in-ideal inclusion cannot be shown without computing a basis ourselves, so such a
 *   claim is UNDECIDED (COMPUTED at most) with that obligation OPEN and the evidence that would
 *   close it named, never VERIFIED.
 * - REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS: the weaker statement, asked for by
 *   name: the basis is a reduced Groebner basis (of the ideal it generates) and that ideal contains
 *   the generators. No cofactors are needed; the record binds this kind and its own semantics.
 * A claim that fails is REJECTED naming the failing element and rule; an accepted one is VERIFIED
 * with a signed verification record bound to the stored claim and the claim kind asked.
 */
import { getTypedArtifactAt } from '@jacobian/shared';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  GROEBNER_BASIS_SCHEMA_URI,
  GROEBNER_BASIS_SEMANTICS_URI,
  canonicalGroebnerClaim,
  GroebnerBasisClaimInputSchema,
  GroebnerBasisClaimSchema,
  isAuthorized,
  JacobianError,
  POLYNOMIAL_LIMITS,
  POLYNOMIAL_SOURCES,
  resolveRing,
  runKernel,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type GroebnerBasisClaim,
  type InvocationExample,
  type JsonPath,
  type Obligation,
  type PolynomialRing,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import { GroebnerRejectionReason, IdealInclusion } from './groebner-verify.js';

/** The capability ID. */
export const GROEBNER_VERIFY_CAPABILITY_ID = 'polynomial.groebner_basis.verify';
/** The checker's ID, which with the digest of its code forms the identity operators authorize. */
export const GROEBNER_CHECKER_ID = 'jacobian.polynomial.groebner_basis.buchberger-criterion';
const VERSION = '1.0.0';
const PRODUCER_ID = 'polynomial.groebner_basis.compute';
const EVIDENCE_FORMAT = 'jacobian:evidence/polynomial.groebner_basis.claim/v1';
/**
 * The claims a request may ask, each with its own scope and its own name in the record: the
 * producer's claim (the default), or the weaker one that needs no cofactors.
 */
export const GroebnerClaimKind = {
  /** The basis is the reduced Groebner basis of exactly the ideal the generators generate. */
  REDUCED_GROEBNER_BASIS: 'REDUCED_GROEBNER_BASIS',
  /** The basis is a reduced Groebner basis, and the ideal it generates contains the generators. */
  REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS: 'REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS',
} as const;
export type GroebnerClaimKind = (typeof GroebnerClaimKind)[keyof typeof GroebnerClaimKind];
/** Meaning of the weaker claim, which a record binds when the request asks for it. */
export const GROEBNER_CONTAINING_SEMANTICS_URI = 'jacobian:semantics/polynomial.groebner_basis.reduced_of_ideal_containing_generators/v1';

const KERNEL_FILE = fileURLToPath(new URL('./groebner-verify.kernel.ts', import.meta.url));
const KERNEL = { module: KERNEL_FILE, exportName: 'verifyGroebnerBasisKernel' };

/** The files whose bytes form this checker's identity: the capability, the check, its kernel, the record signer, and the shared polynomial core. */
export const GROEBNER_CHECKER_SOURCES: string[] = [fileURLToPath(import.meta.url), fileURLToPath(new URL('./groebner-verify.ts', import.meta.url)), KERNEL_FILE, RECORD_SOURCE, ...POLYNOMIAL_SOURCES];

const Int = z.number().int();
const PathSchema = z.array(z.union([z.string(), Int]));

/** Input: a stored claim, or the claim inline; exactly one. */
export const VerifyGroebnerBasisInput = z
  .object({
    result_uri: ArtifactUriSchema.optional().describe(`a stored claim (${GROEBNER_BASIS_SCHEMA_URI}), e.g. the result_uri of ${PRODUCER_ID}`),
    claim: GroebnerBasisClaimInputSchema.optional().describe(
      `the claim inline: ring (as ${PRODUCER_ID} takes it), generators, basis (monic, by increasing leading monomial) and optional cofactors, each polynomial as text ("x^2 - y") or canonical JSON; stored as a candidate artifact when accepted`,
    ),
    claim_kind: z
      .enum(GroebnerClaimKind)
      .default('REDUCED_GROEBNER_BASIS')
      .describe(
        'which claim to verify. REDUCED_GROEBNER_BASIS (default): the basis is the reduced Groebner basis of the ideal the generators generate; needs cofactors (compute with cofactors: true), else the answer is UNDECIDED with the basis-in-ideal obligation open. REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS: the weaker statement that the basis is a reduced Groebner basis of an ideal containing the generators; needs no cofactors',
      ),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.result_uri === undefined) === (input.claim === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of result_uri (a stored claim) or claim (the claim inline)' });
    }
  });
export type VerifyGroebnerBasisInput = z.infer<typeof VerifyGroebnerBasisInput>;

const CountsSchema = z
  .object({
    pairs_total: Int,
    pairs_reduced: Int,
    pairs_skipped_coprime: Int,
    pairs_skipped_chain: Int,
    generators_reduced: Int,
    cofactor_rows_checked: Int,
  })
  .strict();

/** Output: the verdict, what it covers, and on rejection the failing element and rule. */
export const VerifyGroebnerBasisOutput = z
  .object({
    verdict: z
      .enum(['ACCEPTED', 'REJECTED', 'UNDECIDED'])
      .describe('ACCEPTED: the claim asked holds (VERIFIED); REJECTED: the claim or its evidence fails a check; UNDECIDED: every check passed but an obligation of the claim stays open for want of evidence (see obligations)'),
    claim_kind: z.enum(GroebnerClaimKind).describe('the claim asked, as the record names it'),
    claim: z.string().describe('the claim that was checked, in words'),
    result_uri: z.string().nullable().describe('the stored claim: the given result_uri, or for an accepted inline claim the candidate the checker stored; null for an inline claim not accepted'),
    generators: Int,
    basis_size: Int,
    ideal_inclusion: z
      .enum(IdealInclusion)
      .nullable()
      .describe('what the checks showed, when they all passed: EQUAL (cofactors given: the basis generates exactly the ideal) or GENERATORS_IN_BASIS_ONLY (no cofactors: the basis is a reduced Groebner basis of an ideal containing the generators)'),
    reason_code: z
      .enum(GroebnerRejectionReason)
      .nullable()
      .describe('null when accepted; otherwise MALFORMED, ZERO_ELEMENT, NOT_MONIC, NOT_REDUCED, COFACTOR_MISMATCH, GENERATOR_NOT_REDUCED_TO_ZERO or S_POLYNOMIAL_NOT_REDUCED_TO_ZERO'),
    message: z.string().describe('why the claim holds, or where it fails'),
    failure: z
      .object({
        path: PathSchema.describe('the failing element of the claim, e.g. ["basis", 3], ["generators", 1], ["cofactors", 2], ["basis", 0, "terms", 2]'),
        pair: z.tuple([Int, Int]).nullable().describe('S_POLYNOMIAL_NOT_REDUCED_TO_ZERO: the indices of the two basis elements'),
        witness: z.string().nullable().describe('the non-zero remainder or difference, in canonical text (truncated), or the offending element'),
      })
      .strict()
      .nullable(),
    counts: CountsSchema.describe('work done: S-pairs in all, reduced, skipped by the product and chain criteria; generators reduced; cofactor rows checked'),
    verification_record_uri: z.string().nullable().describe('the signed verification record; null unless ACCEPTED'),
  })
  .strict();
export type VerifyGroebnerBasisOutput = z.infer<typeof VerifyGroebnerBasisOutput>;

const CheckResult = z.union([
  z.object({ accepted: z.literal(true), ideal_inclusion: z.enum(IdealInclusion), counts: CountsSchema }).strict(),
  z
    .object({
      accepted: z.literal(false),
      reason_code: z.enum(GroebnerRejectionReason),
      message: z.string().min(1),
      path: PathSchema,
      pair: z.tuple([Int, Int]).nullable(),
      witness: z.string().nullable(),
      counts: CountsSchema,
    })
    .strict(),
]);

const EXAMPLES: InvocationExample[] = [
  {
    title: 'The lex basis of x^2 - y, x*y - 1 over Q, in text as the producer writes it, with cofactors: y^3 - 1 = -y^2·g1 + (x*y + 1)·g2, x - y^2 = y·g1 - x·g2',
    mode: 'VERIFY',
    payload: {
      claim: {
        ring: { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' },
        generators: ['x^2 - y', 'x*y - 1'],
        basis: ['y^3 - 1', 'x - y^2'],
        cofactors: [
          ['-y^2', 'x*y + 1'],
          ['y', '-x'],
        ],
      },
    },
  },
  {
    title: 'Without cofactors, the weaker claim asked by name: a reduced Groebner basis (grevlex over GF(32003)) of an ideal containing 2*x + 3*y, y^2 - z, x*z; exponent vectors',
    mode: 'VERIFY',
    payload: {
      claim_kind: 'REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS',
      claim: {
        ring: { field: { kind: 'GF', characteristic: '32003' }, variables: ['x', 'y', 'z'], order: 'grevlex' },
        generators: [
          { terms: [{ coefficient: '2', exponents: [1, 0, 0] }, { coefficient: '3', exponents: [0, 1, 0] }] },
          { terms: [{ coefficient: '1', exponents: [0, 2, 0] }, { coefficient: '32002', exponents: [0, 0, 1] }] },
          { terms: [{ coefficient: '1', exponents: [1, 0, 1] }] },
        ],
        basis: [
          { terms: [{ coefficient: '1', exponents: [1, 0, 0] }, { coefficient: '16003', exponents: [0, 1, 0] }] },
          { terms: [{ coefficient: '1', exponents: [0, 0, 2] }] },
          { terms: [{ coefficient: '1', exponents: [0, 1, 1] }] },
          { terms: [{ coefficient: '1', exponents: [0, 2, 0] }, { coefficient: '32002', exponents: [0, 0, 1] }] },
        ],
      },
    },
  },
];

/** Errors of the artifact store about the artifact `result_uri` names, which should point at that field. */
const RESULT_PATH: JsonPath = ['payload', 'result_uri'];

interface Source {
  claim: GroebnerBasisClaim;
  /** The stored claim it was read from; null for an inline claim. */
  resultUri: string | null;
}

async function readStoredClaim(uri: string, context: CapabilityContext): Promise<Source> {
  const { artifact, payload } = await getTypedArtifactAt(
    context.artifacts,
    uri,
    RESULT_PATH,
    {
      schemaUri: GROEBNER_BASIS_SCHEMA_URI,
      semanticsUri: GROEBNER_BASIS_SEMANTICS_URI,
      what: 'a stored Groebner basis claim',
      payload: GroebnerBasisClaimSchema,
      hint: `pass the result_uri of ${PRODUCER_ID}, or give the claim inline as claim`,
    },
    { signal: context.signal },
  );
  return { claim: payload, resultUri: artifact.uri };
}

/** The ring of a claim, validated here so that a bad field is an error naming its place, never a verdict. */
function claimRing(source: Source): PolynomialRing<unknown> {
  try {
    return resolveRing(source.claim.ring, source.resultUri === null ? ['payload', 'claim', 'ring'] : ['ring']);
  } catch (error) {
    if (source.resultUri === null || !(error instanceof JacobianError) || error.code !== 'INVALID_REQUEST') throw error;
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `payload.result_uri: the stored claim's ring is invalid: ${error.message}`, { path: RESULT_PATH, cause: error });
  }
}

function statementOf(ring: PolynomialRing<unknown>, claim: GroebnerBasisClaim, kind: GroebnerClaimKind): string {
  const vars = ring.arity <= 12 ? ring.variables.join(', ') : `${ring.arity} variables`;
  const order = `${ring.order} with ${ring.arity <= 12 ? ring.variables.join(' > ') : `${ring.variables[0] ?? ''} > … > ${ring.variables.at(-1) ?? ''}`}`;
  const n = claim.generators.length;
  const m = claim.basis.length;
  const about = `the ${m}-element basis of the claim in ${ring.field.name}[${vars}], ${order}`;
  if (kind === GroebnerClaimKind.REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS) {
    return `${about} is a reduced Groebner basis of an ideal that contains the claim's ${n} generator${n === 1 ? '' : 's'} (the weaker claim asked: that each basis element lies in the generated ideal is not part of it)`;
  }
  return `${about} is the reduced Groebner basis of the ideal generated by the claim's ${n} generator${n === 1 ? '' : 's'}`;
}

/**
 * Whether a rejection refutes the claim itself or only the evidence given for it: wrong cofactors
 * or a malformed claim say nothing about whether the basis is the right one.
 */
function rejectionBasis(reason: GroebnerRejectionReason): string {
  switch (reason) {
    case GroebnerRejectionReason.COFACTOR_MISMATCH:
      return 'the checker found the cofactors wrong: the evidence does not establish the claim (the basis itself may still be right)';
    case GroebnerRejectionReason.MALFORMED:
      return 'the checker found the claim malformed: it does not state a claim of this kind';
    case GroebnerRejectionReason.ZERO_ELEMENT:
    case GroebnerRejectionReason.NOT_MONIC:
    case GroebnerRejectionReason.NOT_REDUCED:
    case GroebnerRejectionReason.GENERATOR_NOT_REDUCED_TO_ZERO:
    case GroebnerRejectionReason.S_POLYNOMIAL_NOT_REDUCED_TO_ZERO:
      return 'the checker examined the claim and found it false';
  }
}

/**
 * The Groebner basis checker capability.
 *
 * @param authority the operator's authorization, the signing key, and this checker's identity.
 */
export function verifyGroebnerBasis(authority: CheckerAuthority): CapabilityDefinition<VerifyGroebnerBasisInput, VerifyGroebnerBasisOutput> {
  return {
    id: GROEBNER_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify a reduced Groebner basis claim',
    description: `Independently checks a reduced Groebner basis claim (ring, generators, basis, optional cofactors; stored by ${PRODUCER_ID} as result_uri, or inline with polynomials as text or exponent vectors) with our own arithmetic and no computer algebra system: the basis is reduced, the cofactors combine the generators into each basis element, and every generator and every S-polynomial reduces to zero (Buchberger's criterion, with the product and chain criteria). VERIFIED covers the whole claim asked (claim_kind): the default, the reduced Groebner basis of exactly the generated ideal, needs cofactors (else UNDECIDED, basis-in-ideal open); REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS needs none. A false claim is REJECTED naming the element and rule.`,
    tags: ['polynomial', 'groebner-basis', 'ideal', 'verification', 'checker', 'certificate', 'buchberger-criterion'],
    keywords: ['check a Groebner basis', 'verify a Gröbner basis', 'Groebner basis', 'Gröbner basis', 'Grobner basis', 'Buchberger criterion', 'S-polynomials', 'standard basis', 'ideal equality', 'cofactors'],
    domain: 'polynomial',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [GROEBNER_BASIS_SCHEMA_URI],
    produced_artifact_types: [GROEBNER_BASIS_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyGroebnerBasisInput,
    output: VerifyGroebnerBasisOutput,
    examples: EXAMPLES,
    relationships: [{ kind: 'VERIFIES', capability_id: PRODUCER_ID }],
    assurance_ceiling: 'VERIFIED',
    scope_rule:
      'Covers exactly the one claim asked (claim_kind) about its basis, generators and ring: by default that the basis is the reduced Groebner basis of the generated ideal, or, asked by name, that it is a reduced Groebner basis of an ideal containing the generators; nothing about other orders or ideals.',
    limits: { max_variables: POLYNOMIAL_LIMITS.maxVariables, max_polynomials: POLYNOMIAL_LIMITS.maxPolynomials, max_terms: POLYNOMIAL_LIMITS.maxTerms, max_degree: POLYNOMIAL_LIMITS.maxDegree },
    checker: {
      checker_id: GROEBNER_CHECKER_ID,
      method:
        'decode every polynomial strictly as canonical JSON of the ring; check reducedness; multiply out the cofactors against the generators; reduce every generator and every S-polynomial (product and chain criteria) to a normal form with the shared reference arithmetic',
      source_files: GROEBNER_CHECKER_SOURCES,
      configuration: { max_polynomials: POLYNOMIAL_LIMITS.maxPolynomials, max_terms: POLYNOMIAL_LIMITS.maxTerms, max_degree: POLYNOMIAL_LIMITS.maxDegree },
    },
    async run(input, context): Promise<CapabilityOutcome<VerifyGroebnerBasisOutput>> {
      // Texts are parsed in the claim's ring first: a bad text is an error at its place, never a verdict.
      const source: Source =
        input.result_uri !== undefined
          ? await readStoredClaim(input.result_uri, context)
          : { claim: canonicalGroebnerClaim(input.claim as NonNullable<VerifyGroebnerBasisInput['claim']>, ['payload', 'claim']), resultUri: null };
      const { claim } = source;
      const kind = input.claim_kind;
      const ring = claimRing(source);
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
          hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
        });
      }
      const checked = CheckResult.parse(await runKernel(context, KERNEL, { claim }));
      const inputUris = source.resultUri === null ? [] : [source.resultUri];
      const statement = statementOf(ring, claim, kind);
      const scope = { kind: 'EXACT_CLAIM' as const, statement: statement.slice(0, 2000), input_uris: inputUris };
      const base = { claim_kind: kind, claim: statement, generators: claim.generators.length, basis_size: claim.basis.length, counts: checked.counts };
      if (!checked.accepted) {
        const path: JsonPath = source.resultUri === null ? ['payload', 'claim', ...checked.path] : RESULT_PATH;
        return {
          status: 'COMPLETED',
          output: {
            ...base,
            verdict: 'REJECTED',
            result_uri: source.resultUri,
            ideal_inclusion: null,
            reason_code: checked.reason_code,
            message: checked.message,
            failure: { path: checked.path, pair: checked.pair, witness: checked.witness },
            verification_record_uri: null,
          },
          scope,
          completeness: { status: 'COMPLETE', basis: rejectionBasis(checked.reason_code) },
          qualifiers: ['EXACT', 'DETERMINISTIC'],
          assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: [],
          artifact_uris: inputUris,
          diagnostics: [{ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: `${checked.reason_code}: ${checked.message}`.slice(0, 2000), path, hint: null }],
        };
      }
      const inclusion = checked.ideal_inclusion;
      const { counts } = checked;
      const shown = `the basis is reduced; ${
        inclusion === IdealInclusion.EQUAL ? `the cofactors give all ${counts.cofactor_rows_checked} basis elements as combinations of the generators; ` : ''
      }all ${counts.generators_reduced} generators reduce to zero; ${counts.pairs_reduced} S-polynomials reduce to zero (${counts.pairs_skipped_coprime} pairs skipped by the product criterion, ${counts.pairs_skipped_chain} by the chain criterion, of ${counts.pairs_total})`;
      const discharged: Obligation[] = [
        { id: 'basis-reduced-groebner', statement: 'the basis is reduced and a Groebner basis (every S-polynomial reduces to zero)', status: 'DISCHARGED', discharged_by: [GROEBNER_VERIFY_CAPABILITY_ID] },
        { id: 'generators-in-ideal-of-basis', statement: 'every generator reduces to zero modulo the basis, so it lies in the ideal of the basis', status: 'DISCHARGED', discharged_by: [GROEBNER_VERIFY_CAPABILITY_ID] },
      ];
      if (kind === GroebnerClaimKind.REDUCED_GROEBNER_BASIS && inclusion !== IdealInclusion.EQUAL) {
        // The claim asked needs both inclusions; one is open. Nothing is stored or signed.
        const evidence = `cofactors expressing each basis element in the generators (run ${PRODUCER_ID} with cofactors: true and verify its result_uri)`;
        return {
          status: 'COMPLETED',
          output: {
            ...base,
            verdict: 'UNDECIDED',
            result_uri: source.resultUri,
            ideal_inclusion: inclusion,
            reason_code: null,
            message: `not verified: ${shown}; but the claim has no cofactors, so that each basis element lies in the ideal of the generators (the basis-in-ideal obligation) is open. Evidence that closes it: ${evidence}. Or ask claim_kind ${GroebnerClaimKind.REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS} for the weaker statement these checks establish`,
            failure: null,
            verification_record_uri: null,
          },
          scope,
          completeness: { status: 'PARTIAL', basis: `one inclusion of the claim was shown (the generators lie in the ideal of a reduced Groebner basis); the other (basis-in-ideal) was not: the claim has no cofactors`.slice(0, 1000) },
          qualifiers: ['EXACT', 'DETERMINISTIC'],
          assurance: {
            level: 'COMPUTED',
            basis: `not verified: the independent checker ${identity.checker_id} could not discharge the basis-in-ideal obligation without cofactors; every check it could make passed`,
            verification_record_uri: null,
            checker_id: null,
          },
          obligations: [
            ...discharged,
            { id: 'basis-in-ideal', statement: `each basis element lies in the ideal of the generators: not shown, the claim has no cofactors; evidence that closes it: ${evidence}`, status: 'OPEN', discharged_by: [] },
          ],
          relationships: [],
          artifact_uris: inputUris,
          diagnostics: [
            {
              severity: 'WARNING',
              code: 'CLAIM_NOT_VERIFIED',
              stage: 'VERIFICATION',
              message: 'the claim asked (the reduced Groebner basis of the generated ideal) needs cofactors, and this claim has none: obligation basis-in-ideal is open',
              path: source.resultUri === null ? ['payload', 'claim', 'cofactors'] : RESULT_PATH,
              hint: `compute with cofactors: true and verify that result_uri, or ask claim_kind ${GroebnerClaimKind.REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS}`,
            },
          ],
        };
      }
      // An inline claim becomes a stored claim only now, so the record binds exact bytes.
      const candidateUri =
        source.resultUri ??
        (
          await context.artifacts.put(
            {
              schema_uri: GROEBNER_BASIS_SCHEMA_URI,
              semantics_uri: GROEBNER_BASIS_SEMANTICS_URI,
              payload: claim,
              parents: [],
              summary: { generators: claim.generators.length, basis_size: claim.basis.length, cofactors: claim.cofactors !== undefined, submitted_inline: true },
            },
            { signal: context.signal },
          )
        ).uri;
      const stored = await storeVerificationRecord(context, authority.signingKey, {
        capabilityId: GROEBNER_VERIFY_CAPABILITY_ID,
        capabilityVersion: VERSION,
        identity,
        claim: {
          kind,
          statement: statement.slice(0, 2000),
          value: { ring: claim.ring, generators: claim.generators.length, basis_size: claim.basis.length, cofactors: claim.cofactors !== undefined, ideal_inclusion: inclusion },
        },
        claimSemanticsUri: kind === GroebnerClaimKind.REDUCED_GROEBNER_BASIS ? GROEBNER_BASIS_SEMANTICS_URI : GROEBNER_CONTAINING_SEMANTICS_URI,
        candidateUri,
        inputUris: [],
        evidenceFormat: EVIDENCE_FORMAT,
        summary: { basis_size: claim.basis.length, ideal_inclusion: inclusion },
      });
      const obligations: Obligation[] =
        kind === GroebnerClaimKind.REDUCED_GROEBNER_BASIS
          ? [...discharged, { id: 'basis-in-ideal', statement: 'each basis element lies in the ideal of the generators (the cofactors combine the generators into it)', status: 'DISCHARGED', discharged_by: [GROEBNER_VERIFY_CAPABILITY_ID] }]
          : discharged;
      return {
        status: 'COMPLETED',
        output: { ...base, verdict: 'ACCEPTED', result_uri: candidateUri, ideal_inclusion: inclusion, reason_code: null, message: shown, failure: null, verification_record_uri: stored.uri },
        scope,
        completeness: { status: 'COMPLETE', basis: shown.slice(0, 1000) },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: 'VERIFIED',
          basis: `independent checker ${identity.checker_id}, authorized by the operator, accepted the claim asked (${kind})`,
          verification_record_uri: stored.uri,
          checker_id: identity.checker_id,
        },
        obligations,
        relationships: [{ subject: stored.uri, predicate: 'VERIFIES', object: candidateUri }],
        artifact_uris: [stored.uri, candidateUri],
        diagnostics: [],
      };
    },
  };
}
