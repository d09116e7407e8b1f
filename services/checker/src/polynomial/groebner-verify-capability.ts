/**
 * `polynomial.groebner_basis.verify`: the independent checker of reduced Groebner basis claims.
 * A claim names a ring (field, variables, order), the generators of an ideal, a basis, and
 * optionally cofactors expressing each basis element in the generators. It comes either stored
 * (`result_uri`, e.g. from polynomial.groebner_basis.compute) or inline (`claim`).
 *
 * The check (groebner-verify.ts, in an isolated kernel) is our own TypeScript on the shared
 * reference arithmetic, with no CAS and none of the producer's Buchberger engine: the polynomials
 * decode strictly, the basis is reduced, the cofactors combine the generators into each basis
 * element, every generator reduces to zero, and every S-polynomial reduces to zero (Buchberger's
 * criterion, with the product and chain criteria justified in groebner-verify.ts). A claim that
 * fails is REJECTED naming the failing element and rule; an accepted one is VERIFIED with a signed
 * verification record bound to the stored claim.
 *
 * What is verified depends on the certificate. With cofactors, both inclusions hold, so the basis
 * is the reduced Groebner basis of exactly the generated ideal. Without them only one inclusion
 * can be shown without computing a basis ourselves: the record then says, and binds, that the
 * basis is a reduced Groebner basis of an ideal containing the generators, and the result keeps
 * the other inclusion as an open obligation.
 */
import { getTypedArtifactAt } from '@jacobian/shared';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  GROEBNER_BASIS_SCHEMA_URI,
  GROEBNER_BASIS_SEMANTICS_URI,
  GroebnerBasisClaimSchema,
  isAuthorized,
  JacobianError,
  parsePolynomial,
  POLYNOMIAL_LIMITS,
  POLYNOMIAL_SOURCES,
  polynomialToJson,
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
  type RingSpec,
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
/** Claim kinds of the record: the full claim (with cofactors), or the one inclusion shown without them. */
const CLAIM_KIND = { EQUAL: 'REDUCED_GROEBNER_BASIS', GENERATORS_IN_BASIS_ONLY: 'REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS' } as const;
/** Meaning of the weaker claim a record binds when the claim has no cofactors. */
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
    claim: GroebnerBasisClaimSchema.optional().describe(
      'the claim inline, in canonical JSON: ring, generators, basis (monic, by increasing leading monomial) and optional cofactors; stored as a candidate artifact when accepted',
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
    verdict: z.enum(['ACCEPTED', 'REJECTED']),
    claim: z.string().describe('the claim that was checked, in words'),
    result_uri: z.string().nullable().describe('the stored claim: the given result_uri, or for an accepted inline claim the candidate the checker stored; null for a rejected inline claim'),
    generators: Int,
    basis_size: Int,
    ideal_inclusion: z
      .enum(IdealInclusion)
      .nullable()
      .describe('when accepted: EQUAL (cofactors given: the basis generates exactly the ideal) or GENERATORS_IN_BASIS_ONLY (no cofactors: the basis is a reduced Groebner basis of an ideal containing the generators)'),
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
    verification_record_uri: z.string().nullable().describe('the signed verification record; null when rejected'),
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

/** A claim for the examples, encoded from texts by the shared parser and canonical JSON (nothing computed). */
function exampleClaim(ring: RingSpec, generators: string[], basis: string[], cofactors?: string[][]): GroebnerBasisClaim {
  const R = resolveRing(ring);
  const json = (text: string): ReturnType<typeof polynomialToJson> => polynomialToJson(R, parsePolynomial(R, text));
  return { ring, generators: generators.map(json), basis: basis.map(json), ...(cofactors === undefined ? {} : { cofactors: cofactors.map((row) => row.map(json)) }) };
}

const EXAMPLES: InvocationExample[] = [
  {
    title: 'The lex basis of x^2 - y, x*y - 1 over Q, with cofactors: y^3 - 1 = -y^2·g1 + (x*y + 1)·g2, x - y^2 = y·g1 - x·g2',
    mode: 'VERIFY',
    payload: {
      claim: exampleClaim({ field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' }, ['x^2 - y', 'x*y - 1'], ['y^3 - 1', 'x - y^2'], [
        ['-y^2', 'x*y + 1'],
        ['y', '-x'],
      ]),
    },
  },
  {
    title: 'A grevlex basis over GF(32003) without cofactors (verifies a reduced Groebner basis of an ideal containing the generators)',
    mode: 'VERIFY',
    payload: {
      claim: exampleClaim({ field: { kind: 'GF', characteristic: '32003' }, variables: ['x', 'y', 'z'], order: 'grevlex' }, ['2*x + 3*y', 'y^2 - z', 'x*z'], ['x + 16003*y', 'z^2', 'y*z', 'y^2 - z']),
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

function statementOf(ring: PolynomialRing<unknown>, claim: GroebnerBasisClaim, inclusion: IdealInclusion | null): string {
  const vars = ring.arity <= 12 ? ring.variables.join(', ') : `${ring.arity} variables`;
  const order = `${ring.order} with ${ring.arity <= 12 ? ring.variables.join(' > ') : `${ring.variables[0] ?? ''} > … > ${ring.variables.at(-1) ?? ''}`}`;
  const n = claim.generators.length;
  const m = claim.basis.length;
  const about = `the ${m}-element basis of the claim in ${ring.field.name}[${vars}], ${order}`;
  if (inclusion === IdealInclusion.GENERATORS_IN_BASIS_ONLY) {
    return `${about} is a reduced Groebner basis of an ideal that contains the claim's ${n} generator${n === 1 ? '' : 's'} (no cofactors: that each basis element lies in the generated ideal is not claimed)`;
  }
  return `${about} is the reduced Groebner basis of the ideal generated by the claim's ${n} generator${n === 1 ? '' : 's'}`;
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
    description: `Independently checks a reduced Groebner basis claim (ring, generators, basis, optional cofactors), stored by ${PRODUCER_ID} (result_uri) or inline (claim), with our own polynomial arithmetic and no computer algebra system: the basis is reduced (monic, no term divisible by another leading monomial), the cofactors combine the generators into each basis element, every generator reduces to zero modulo the basis, and every S-polynomial reduces to zero (Buchberger's criterion; pairs skipped only by the product and chain criteria). With cofactors an accepted claim is VERIFIED as the reduced Groebner basis of exactly the generated ideal; without them, as a reduced Groebner basis of an ideal containing the generators. A false claim is REJECTED naming the failing element and rule.`,
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
      'Covers exactly the one claim: its basis, generators and ring; with cofactors, that the basis is the reduced Groebner basis of the generated ideal, without, that it is a reduced Groebner basis of an ideal containing the generators; nothing about other orders or ideals.',
    limits: { max_variables: POLYNOMIAL_LIMITS.maxVariables, max_polynomials: POLYNOMIAL_LIMITS.maxPolynomials, max_terms: POLYNOMIAL_LIMITS.maxTerms, max_degree: POLYNOMIAL_LIMITS.maxDegree },
    checker: {
      checker_id: GROEBNER_CHECKER_ID,
      method:
        'decode every polynomial strictly as canonical JSON of the ring; check reducedness; multiply out the cofactors against the generators; reduce every generator and every S-polynomial (product and chain criteria) to a normal form with the shared reference arithmetic',
      source_files: GROEBNER_CHECKER_SOURCES,
      configuration: { max_polynomials: POLYNOMIAL_LIMITS.maxPolynomials, max_terms: POLYNOMIAL_LIMITS.maxTerms, max_degree: POLYNOMIAL_LIMITS.maxDegree },
    },
    async run(input, context): Promise<CapabilityOutcome<VerifyGroebnerBasisOutput>> {
      const source: Source = input.result_uri !== undefined ? await readStoredClaim(input.result_uri, context) : { claim: input.claim as GroebnerBasisClaim, resultUri: null };
      const { claim } = source;
      const ring = claimRing(source);
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
          hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
        });
      }
      const checked = CheckResult.parse(await runKernel(context, KERNEL, { claim }));
      const inputUris = source.resultUri === null ? [] : [source.resultUri];
      const base = { generators: claim.generators.length, basis_size: claim.basis.length, counts: checked.counts };
      if (!checked.accepted) {
        const statement = statementOf(ring, claim, claim.cofactors === undefined ? IdealInclusion.GENERATORS_IN_BASIS_ONLY : IdealInclusion.EQUAL);
        const path: JsonPath = source.resultUri === null ? ['payload', 'claim', ...checked.path] : RESULT_PATH;
        return {
          status: 'COMPLETED',
          output: {
            ...base,
            verdict: 'REJECTED',
            claim: statement,
            result_uri: source.resultUri,
            ideal_inclusion: null,
            reason_code: checked.reason_code,
            message: checked.message,
            failure: { path: checked.path, pair: checked.pair, witness: checked.witness },
            verification_record_uri: null,
          },
          scope: { kind: 'EXACT_CLAIM', statement: statement.slice(0, 2000), input_uris: inputUris },
          completeness: { status: 'COMPLETE', basis: 'the checker examined the claim and found it false' },
          qualifiers: ['EXACT', 'DETERMINISTIC'],
          assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: [],
          artifact_uris: inputUris,
          diagnostics: [{ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: `${checked.reason_code}: ${checked.message}`.slice(0, 2000), path, hint: null }],
        };
      }
      const inclusion = checked.ideal_inclusion;
      const statement = statementOf(ring, claim, inclusion);
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
          kind: CLAIM_KIND[inclusion],
          statement: statement.slice(0, 2000),
          value: { ring: claim.ring, generators: claim.generators.length, basis_size: claim.basis.length, cofactors: claim.cofactors !== undefined, ideal_inclusion: inclusion },
        },
        claimSemanticsUri: inclusion === IdealInclusion.EQUAL ? GROEBNER_BASIS_SEMANTICS_URI : GROEBNER_CONTAINING_SEMANTICS_URI,
        candidateUri,
        inputUris: [],
        evidenceFormat: EVIDENCE_FORMAT,
        summary: { basis_size: claim.basis.length, ideal_inclusion: inclusion },
      });
      const { counts } = checked;
      const message = `the basis is reduced; ${
        inclusion === IdealInclusion.EQUAL ? `the cofactors give all ${counts.cofactor_rows_checked} basis elements as combinations of the generators; ` : ''
      }all ${counts.generators_reduced} generators reduce to zero; ${counts.pairs_reduced} S-polynomials reduce to zero (${counts.pairs_skipped_coprime} pairs skipped by the product criterion, ${counts.pairs_skipped_chain} by the chain criterion, of ${counts.pairs_total})`;
      const obligations: Obligation[] =
        inclusion === IdealInclusion.EQUAL
          ? []
          : [
              {
                id: 'basis-in-ideal',
                statement: `The claim has no cofactors, so that each basis element lies in the ideal of the generators was not shown; run ${PRODUCER_ID} with cofactors: true and verify that claim.`,
                status: 'OPEN',
                discharged_by: [],
              },
            ];
      return {
        status: 'COMPLETED',
        output: { ...base, verdict: 'ACCEPTED', claim: statement, result_uri: candidateUri, ideal_inclusion: inclusion, reason_code: null, message, failure: null, verification_record_uri: stored.uri },
        scope: { kind: 'EXACT_CLAIM', statement: statement.slice(0, 2000), input_uris: inputUris },
        completeness: { status: 'COMPLETE', basis: message.slice(0, 1000) },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: 'VERIFIED',
          basis: `independent checker ${identity.checker_id}, authorized by the operator, accepted the claim${inclusion === IdealInclusion.EQUAL ? '' : ' as stated without cofactors (one inclusion)'}`,
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
