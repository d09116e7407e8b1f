/**
 * The checkers of the linear algebra producers:
 *
 * - `matrix.linear_system.verify`: a claim that the solutions of A x = b are exactly
 *   solution + span(kernel) (A x = b, A K = 0, K independent, and complete: rank A = n − |K|,
 *   recomputed by elimination modulo large primes), or that there are none (y A = 0, y·b ≠ 0);
 * - `matrix.inverse.verify`: A B = I, or a non-zero x with A x = 0 (singular).
 *
 * Claims come stored by the producers (`result_uri`) or inline, as the producers print their
 * answers, with the matrix inline or by matrix_uri; the checks (linear-algebra-verify.ts, no code of the producers) run in an isolated
 * kernel; an accepted claim is stored and gets a signed verification record bound to it, a
 * rejected one names the failing part and rule.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  canonicalInverseClaim,
  getTypedArtifactAt,
  canonicalLinearSystemClaim,
  claimOperand,
  INVERSE_CLAIM_SCHEMA_URI,
  INVERSE_CLAIM_SEMANTICS_URI,
  InverseClaimInputSchema,
  InverseClaimSchema,
  isAuthorized,
  JacobianError,
  LINEAR_SYSTEM_CLAIM_SCHEMA_URI,
  LINEAR_SYSTEM_CLAIM_SEMANTICS_URI,
  LinearSystemClaimInputSchema,
  LinearSystemClaimSchema,
  MATRIX_LIMITS,
  MATRIX_SCHEMA_URI,
  MATRIX_SOURCES,
  matrixShape,
  resolveMatrixOperand,
  runKernel,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type InverseClaim,
  type InverseClaimInput,
  type JsonPath,
  type LinearSystemClaim,
  type LinearSystemClaimInput,
  type MatrixPayload,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import { MatrixRejectionReason } from './linear-algebra-verify.js';

export const LINEAR_SYSTEM_VERIFY_CAPABILITY_ID = 'matrix.linear_system.verify';
export const INVERSE_VERIFY_CAPABILITY_ID = 'matrix.inverse.verify';
export const LINEAR_SYSTEM_CHECKER_ID = 'jacobian.matrix.linear_system.solution_set';
export const INVERSE_CHECKER_ID = 'jacobian.matrix.inverse.product';
const VERSION = '1.0.0';

const KERNEL_FILE = fileURLToPath(new URL('./linear-algebra-verify.kernel.ts', import.meta.url));
/** The files whose bytes form these checkers' identity. */
export const MATRIX_CHECKER_SOURCES: string[] = [fileURLToPath(import.meta.url), fileURLToPath(new URL('./linear-algebra-verify.ts', import.meta.url)), KERNEL_FILE, RECORD_SOURCE, ...MATRIX_SOURCES];

const FailurePath = z.array(z.union([z.string(), z.number().int()]));

/** The kernel's answer for a checker whose rejection codes are `reasons`: accepted, or rejected naming the failing part. */
export function matrixCheckResult<R extends Readonly<Record<string, string>>>(reasons: R) {
  return z.union([
    z.object({ accepted: z.literal(true), message: z.string() }).strict(),
    z.object({ accepted: z.literal(false), reason_code: z.enum(reasons), message: z.string(), path: FailurePath, witness: z.string().nullable() }).strict(),
  ]);
}

/** A matrix checker's input: exactly one of a stored claim (`result_uri`) and the claim inline, described by `texts`. */
export function matrixVerifyInput<C extends z.ZodType>(claim: C, texts: { resultUri: string; claim: string }) {
  return z
    .object({ result_uri: ArtifactUriSchema.optional().describe(texts.resultUri), claim: claim.optional().describe(texts.claim) })
    .strict()
    .superRefine((input, ctx) => {
      if ((input.result_uri === undefined) === (input.claim === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of `result_uri` (a stored claim) and `claim` (inline)' });
    });
}

/** A matrix checker's output, with its claim kinds, its rejection codes and an example of a failing path (e.g. `["kernel", 1]`). */
export function matrixVerifyOutput<K extends z.ZodType<string>, R extends Readonly<Record<string, string>>>(claimKind: K, reasons: R, failurePathExample: string) {
  return z
    .object({
      verdict: z.enum(['ACCEPTED', 'REJECTED']).describe('ACCEPTED: the claim holds (VERIFIED); REJECTED: it fails a check, named by reason_code and failure'),
      claim_kind: claimKind,
      claim: z.string().describe('the claim that was checked, in words'),
      claim_uri: z.string().nullable().describe('the accepted claim, as stored (the given result_uri, or the inline claim stored by the checker); null when rejected'),
      reason_code: z.enum(reasons).nullable(),
      message: z.string(),
      failure: z.object({ path: FailurePath.describe(`the failing part of the claim, e.g. ${failurePathExample}`), witness: z.string().nullable() }).strict().nullable(),
      verification_record_uri: z.string().nullable().describe('the signed verification record; null unless ACCEPTED'),
    })
    .strict();
}

const CheckResult = matrixCheckResult(MatrixRejectionReason);
const VerifyOutput = matrixVerifyOutput(z.string(), MatrixRejectionReason, '["kernel", 1]');
export type MatrixVerifyOutput = z.infer<typeof VerifyOutput>;

/** One matrix checker: its claim, kernel and texts. */
export interface MatrixCheckerSpec<T extends { matrix: MatrixPayload }, I> {
  id: string;
  checkerId: string;
  producer: string;
  schemaUri: string;
  semanticsUri: string;
  inputClaim: z.ZodType<I>;
  /** The stored claim. */
  claimSchema: z.ZodType<T>;
  canonical: (claim: I, matrix: MatrixPayload, path: JsonPath) => T;
  kernelExport: string;
  /** The kernel module, when not linear-algebra-verify.kernel.ts. */
  kernelFile?: string;
  /** The files whose bytes form the checker's identity, when not MATRIX_CHECKER_SOURCES. */
  sourceFiles?: string[];
  kind: (claim: T) => string;
  statement: (claim: T, matrix: string) => string;
  texts: { title: string; description: string; method: string; tags: string[]; keywords: string[]; scope: string; examples: CapabilityDefinition<unknown, unknown>['examples'] };
}

export interface MatrixVerifyInput<I> {
  result_uri?: string | undefined;
  claim?: I | undefined;
}

const RESULT_PATH: JsonPath = ['payload', 'result_uri'];

export function defineMatrixChecker<T extends { matrix: MatrixPayload }, I extends { matrix?: unknown; matrix_uri?: string | undefined }>(spec: MatrixCheckerSpec<T, I>, authority: CheckerAuthority): CapabilityDefinition<MatrixVerifyInput<I>, MatrixVerifyOutput> {
  const kernel = { module: spec.kernelFile ?? KERNEL_FILE, exportName: spec.kernelExport };
  return {
    id: spec.id,
    version: VERSION,
    title: spec.texts.title,
    description: spec.texts.description,
    tags: spec.texts.tags,
    keywords: spec.texts.keywords,
    domain: 'matrix',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [spec.schemaUri, VERIFICATION_RECORD_SCHEMA_URI],
    input: matrixVerifyInput(spec.inputClaim, {
      resultUri: `the claim stored by ${spec.producer} (its output's result_uri)`,
      claim: `the claim inline: the matrix (inline or matrix_uri) with the fields of ${spec.producer}'s output`,
    }),
    output: VerifyOutput,
    examples: spec.texts.examples,
    relationships: [{ kind: 'VERIFIES', capability_id: spec.producer }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: spec.texts.scope,
    limits: { max_rows: MATRIX_LIMITS.maxRows, max_columns: MATRIX_LIMITS.maxColumns, max_entry_bits: MATRIX_LIMITS.maxEntryBits },
    checker: {
      checker_id: spec.checkerId,
      method: spec.texts.method,
      source_files: spec.sourceFiles ?? MATRIX_CHECKER_SOURCES,
      configuration: { max_rows: MATRIX_LIMITS.maxRows, max_columns: MATRIX_LIMITS.maxColumns, max_entry_bits: MATRIX_LIMITS.maxEntryBits },
    },
    run: (input, context) =>
      checkMatrixClaim(
        {
          id: spec.id,
          schemaUri: spec.schemaUri,
          semanticsUri: spec.semanticsUri,
          claimSchema: spec.claimSchema,
          canonical: spec.canonical,
          kernel,
          checkResult: CheckResult,
          storedClaim: { what: 'a stored claim', hint: `pass the result_uri of ${spec.producer}, or give the claim inline` },
          kind: spec.kind,
          statement: spec.statement,
          recordValue: (claim) => ({ ring: claim.matrix.ring, nrows: claim.matrix.nrows, ncols: claim.matrix.ncols }),
        },
        authority,
        input,
        context,
      ),

  };
}

/** matrix.linear_system.verify: the whole solution set of A x = b, or its inconsistency certificate. */
export function verifyLinearSystem(authority: CheckerAuthority): CapabilityDefinition<MatrixVerifyInput<LinearSystemClaimInput>, MatrixVerifyOutput> {
  return defineMatrixChecker<LinearSystemClaim, LinearSystemClaimInput>(
    {
      id: LINEAR_SYSTEM_VERIFY_CAPABILITY_ID,
      checkerId: LINEAR_SYSTEM_CHECKER_ID,
      producer: 'matrix.linear_system.solve',
      schemaUri: LINEAR_SYSTEM_CLAIM_SCHEMA_URI,
      semanticsUri: LINEAR_SYSTEM_CLAIM_SEMANTICS_URI,
      inputClaim: LinearSystemClaimInputSchema,
      claimSchema: LinearSystemClaimSchema,
      canonical: canonicalLinearSystemClaim,
      kernelExport: 'verifyLinearSystemKernel',
      kind: (claim) => (claim.outcome === 'SOLVED' ? 'LINEAR_SYSTEM_SOLUTION_SET' : 'LINEAR_SYSTEM_INCONSISTENT'),
      statement: (claim, matrix) =>
        claim.outcome === 'SOLVED'
          ? `the solutions of A x = b, where A is ${matrix} and b is given, are exactly the given solution plus the span of the ${claim.kernel?.length ?? 0} given kernel vector(s)`
          : `A x = b has no solution, where A is ${matrix} and b is given, as the given y (y A = 0, y·b ≠ 0) shows`,
      texts: {
        title: 'Verify a linear system\'s solution set',
        description:
          'Independently checks what matrix.linear_system.solve answers (give its output fields with the matrix and b as the claim), with its own exact arithmetic and no code of the producer. SOLVED: A x = b exactly; each kernel vector satisfies A k = 0; the kernel vectors are linearly independent; and they span the whole kernel, i.e. rank A = n − (number of kernel vectors), with the rank recomputed by a different method (elimination modulo large primes, which bounds the rank from below; exact rational elimination only if no prime reaches the bound; over GF(p), its own elimination). INCONSISTENT: y A = 0 and y·b ≠ 0 exactly. A false claim is REJECTED naming the failing part and rule (SOLUTION_MISMATCH, NOT_IN_KERNEL, KERNEL_DEPENDENT, KERNEL_INCOMPLETE, CERTIFICATE_NOT_IN_LEFT_KERNEL, CERTIFICATE_ORTHOGONAL, SHAPE).',
        method:
          'multiply out A x, A k and y A, y·b exactly over Q or GF(p); independence of the kernel vectors and rank A by elimination modulo large primes (lower bounds on the rank over Q), exact rational elimination only when no prime reaches the bound',
        tags: ['matrix', 'linear-algebra', 'linear-system', 'verification', 'checker', 'certificate'],
        keywords: ['verify a solution of a linear system', 'check A x = b', 'check a solution set', 'verify a kernel basis', 'inconsistency certificate', 'check that a system has no solution', 'rank–nullity'],
        scope: 'Covers exactly the one claim: the whole solution set of the given A x = b over Q (for Z and Q entries) or GF(p), or that it has none.',
        examples: [
          {
            title: 'x + 2y + z = 1, 2x + 4y + 3z = 5/2 over Q: solution (1/2, 0, 1/2) plus the span of (-2, 1, 0)',
            mode: 'VERIFY',
            payload: { claim: { matrix: { ring: { kind: 'Q' }, rows: [[1, 2, 1], [2, 4, 3]] }, rhs: [1, '5/2'], outcome: 'SOLVED', solution: ['1/2', '0', '1/2'], kernel: [['-2', '1', '0']] } },
          },
          {
            title: 'x + y = 1, 2x + 2y = 3 has no solution: y = (-2, 1) gives y A = 0, y·b = 1',
            mode: 'VERIFY',
            payload: { claim: { matrix: { ring: { kind: 'Z' }, rows: [[1, 1], [2, 2]] }, rhs: [1, 3], outcome: 'INCONSISTENT', certificate: ['-2', '1'] } },
          },
        ],
      },
    },
    authority,
  );
}

/** matrix.inverse.verify: A B = I, or a non-zero kernel vector showing A singular. */
export function verifyInverse(authority: CheckerAuthority): CapabilityDefinition<MatrixVerifyInput<InverseClaimInput>, MatrixVerifyOutput> {
  return defineMatrixChecker<InverseClaim, InverseClaimInput>(
    {
      id: INVERSE_VERIFY_CAPABILITY_ID,
      checkerId: INVERSE_CHECKER_ID,
      producer: 'matrix.inverse.compute',
      schemaUri: INVERSE_CLAIM_SCHEMA_URI,
      semanticsUri: INVERSE_CLAIM_SEMANTICS_URI,
      inputClaim: InverseClaimInputSchema,
      claimSchema: InverseClaimSchema,
      canonical: canonicalInverseClaim,
      kernelExport: 'verifyInverseKernel',
      kind: (claim) => (claim.outcome === 'INVERTIBLE' ? 'MATRIX_INVERSE' : 'MATRIX_SINGULAR'),
      statement: (claim, matrix) => (claim.outcome === 'INVERTIBLE' ? `the given B is the inverse of A, where A is ${matrix}` : `A is singular (has no inverse), where A is ${matrix}, as the given non-zero kernel vector shows`),
      texts: {
        title: 'Verify a matrix inverse or singularity',
        description:
          'Independently checks what matrix.inverse.compute answers (give its output fields with the matrix as the claim), with its own exact arithmetic and no code of the producer. INVERTIBLE: A B = I exactly, entry by entry (for a square matrix over a field this makes B the two-sided inverse). SINGULAR: the kernel vector is non-zero and A x = 0 exactly. A false claim is REJECTED naming the failing entry or rule (INVERSE_MISMATCH, NOT_IN_KERNEL, ZERO_VECTOR, SHAPE).',
        method: 'multiply out A B and compare with the identity, or A x with zero, exactly over Q or GF(p)',
        tags: ['matrix', 'linear-algebra', 'inverse', 'verification', 'checker', 'certificate'],
        keywords: ['verify a matrix inverse', 'check an inverse', 'A times B is the identity', 'check that a matrix is singular', 'singularity certificate', 'kernel vector'],
        scope: 'Covers exactly the one claim: that B is the inverse of the given A, or that A is singular.',
        examples: [
          { title: 'The inverse of [[2, 1], [7, 4]] is [[4, -1], [-7, 2]]', mode: 'VERIFY', payload: { claim: { matrix: { ring: { kind: 'Z' }, rows: [[2, 1], [7, 4]] }, outcome: 'INVERTIBLE', inverse: [['4', '-1'], ['-7', '2']] } } },
          { title: '[[1, 2], [3, 6]] over GF(7) is singular: (5, 1) is in its kernel', mode: 'VERIFY', payload: { claim: { matrix: { ring: { kind: 'GF', characteristic: '7' }, rows: [[1, 2], [3, 6]] }, outcome: 'SINGULAR', kernel_vector: ['5', '1'] } } },
        ],
      },
    },
    authority,
  );
}

/** The kernel's answer about a claim: accepted, or rejected with a reason code of the checker's own. */
export type MatrixCheckAnswer<R extends string> = { accepted: true; message: string; method?: string } | { accepted: false; reason_code: R; message: string; path: (string | number)[]; witness: string | null };

/** What {@link checkMatrixClaim} needs of one matrix checker: its claim's forms, its kernel and its words. */
export interface MatrixClaimCheck<T extends { matrix: MatrixPayload }, I, K extends string, R extends string> {
  id: string;
  schemaUri: string;
  semanticsUri: string;
  claimSchema: z.ZodType<T>;
  canonical: (claim: I, matrix: MatrixPayload, path: JsonPath) => T;
  kernel: { module: string; exportName: string };
  checkResult: z.ZodType<MatrixCheckAnswer<R>>;
  /** How a stored claim is named when `result_uri` is not one. */
  storedClaim: { what: string; hint: string };
  kind: (claim: T) => K;
  statement: (claim: T, matrix: string) => string;
  /** The claim's value in the verification record. */
  recordValue: (claim: T) => Record<string, unknown>;
}

/** A matrix checker's output: the verdict on the claim, and what failed or the signed record. */
export interface MatrixCheckOutput<K extends string, R extends string> {
  verdict: 'ACCEPTED' | 'REJECTED';
  claim_kind: K;
  claim: string;
  claim_uri: string | null;
  reason_code: R | null;
  message: string;
  failure: { path: (string | number)[]; witness: string | null } | null;
  verification_record_uri: string | null;
}

/**
 * The run of every matrix checker: read the claim (stored, or inline with its matrix inline or by
 * matrix_uri, canonicalized before any check: a bad entry is an error at its place, never a
 * verdict), refuse an unauthorized checker, run the checks in the isolated kernel, and answer
 * REJECTED naming the failing part, or store the claim and a signed verification record.
 */
export async function checkMatrixClaim<T extends { matrix: MatrixPayload }, I, K extends string, R extends string>(
  check: MatrixClaimCheck<T, I, K, R>,
  authority: CheckerAuthority,
  input: MatrixVerifyInput<I>,
  context: CapabilityContext,
): Promise<CapabilityOutcome<MatrixCheckOutput<K, R>>> {
  let claim: T;
  let storedUri: string | null = null;
  let matrixUris: string[] = [];
  let described: string;
  if (input.result_uri !== undefined) {
    const { artifact, payload } = await getTypedArtifactAt(
      context.artifacts,
      input.result_uri,
      RESULT_PATH,
      { schemaUri: check.schemaUri, semanticsUri: check.semanticsUri, what: check.storedClaim.what, payload: check.claimSchema, hint: check.storedClaim.hint },
      { signal: context.signal },
    );
    claim = payload;
    storedUri = artifact.uri;
    described = `the ${matrixShape(claim.matrix).replace(' over ', ' matrix over ')} of the stored claim ${artifact.uri}`;
  } else {
    const inline = input.claim as I;
    const resolved = await resolveMatrixOperand(claimOperand(inline as never), context.artifacts, { signal: context.signal, path: ['payload', 'claim'] });
    claim = check.canonical(inline, resolved.matrix, ['payload', 'claim']);
    matrixUris = resolved.input_uris;
    described = resolved.input_uris[0] === undefined ? `the given ${matrixShape(resolved.matrix).replace(' over ', ' matrix over ')}` : `the stored matrix ${resolved.input_uris[0]}`;
  }
  const inputUris = storedUri === null ? matrixUris : [storedUri];
  const identity = authority.identity();
  if (!isAuthorized(authority.authorization(), identity)) {
    throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
      hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
    });
  }
  const checked = check.checkResult.parse(await runKernel(context, check.kernel, { claim }));
  const kind = check.kind(claim);
  const statement = check.statement(claim, described).slice(0, 2000);
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
      diagnostics: [{ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: `${checked.reason_code}: ${checked.message}`.slice(0, 2000), path: storedUri === null ? ['payload', 'claim', ...checked.path] : RESULT_PATH, hint: null }],
    };
  }
  const candidateUri =
    storedUri ??
    (
      await context.artifacts.put(
        { schema_uri: check.schemaUri, semantics_uri: check.semanticsUri, payload: claim, parents: matrixUris, summary: { claim: kind, nrows: claim.matrix.nrows, ncols: claim.matrix.ncols, submitted_inline: true } },
        { signal: context.signal },
      )
    ).uri;
  const stored = await storeVerificationRecord(context, authority.signingKey, {
    capabilityId: check.id,
    capabilityVersion: VERSION,
    identity,
    claim: { kind, statement, value: check.recordValue(claim) },
    claimSemanticsUri: check.semanticsUri,
    candidateUri,
    inputUris: matrixUris,
    evidenceFormat: `jacobian:evidence/${check.id}.claim/v1`,
  });
  return {
    status: 'COMPLETED',
    output: { verdict: 'ACCEPTED', claim_kind: kind, claim: statement, claim_uri: candidateUri, reason_code: null, message: checked.message, failure: null, verification_record_uri: stored.uri },
    scope,
    completeness: { status: 'COMPLETE', basis: checked.message.slice(0, 1000) },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: {
      level: 'VERIFIED',
      // A checker that recomputes a value says by which method.
      basis: `independent checker ${identity.checker_id}, authorized by the operator, accepted the claim (${kind})${checked.method === undefined ? '' : `, recomputed by ${checked.method}`}`.slice(0, 1000),
      verification_record_uri: stored.uri,
      checker_id: identity.checker_id,
    },
    obligations: [],
    relationships: [{ subject: stored.uri, predicate: 'VERIFIES', object: candidateUri }],
    artifact_uris: [stored.uri, candidateUri, ...matrixUris],
    diagnostics: [],
  };
}
