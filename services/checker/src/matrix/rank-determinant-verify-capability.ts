/**
 * matrix.determinant.verify and matrix.rank.verify: the checkers of matrix.determinant.compute
 * and matrix.rank.compute. A claim (stored by the producer as `result_uri`, or inline with the
 * matrix inline or by matrix_uri) is recomputed by rank-determinant-verify.ts in an isolated
 * kernel by a different method from the producers' multimodular determinant and rank (the
 * determinant by fraction-free elimination on big integers, the rank by a minor and a kernel),
 * and the method is named in the answer's assurance basis.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  canonicalDeterminantClaim,
  canonicalRankClaim,
  DETERMINANT_CLAIM_SCHEMA_URI,
  DETERMINANT_CLAIM_SEMANTICS_URI,
  DeterminantClaimInputSchema,
  DeterminantClaimSchema,
  MATRIX_LIMITS,
  MATRIX_SCHEMA_URI,
  RANK_CLAIM_SCHEMA_URI,
  RANK_CLAIM_SEMANTICS_URI,
  RankClaimInputSchema,
  RankClaimSchema,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityDefinition,
  type DeterminantClaim,
  type MatrixPayload,
  type RankClaim,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { checkMatrixClaim, MATRIX_CHECKER_SOURCES, matrixVerifyInput, type MatrixClaimCheck } from './linear-algebra-verify-capability.js';
import { RankDeterminantRejectionReason } from './rank-determinant-verify.js';

export const DETERMINANT_VERIFY_CAPABILITY_ID = 'matrix.determinant.verify';
export const RANK_VERIFY_CAPABILITY_ID = 'matrix.rank.verify';
export const DETERMINANT_CHECKER_ID = 'jacobian.matrix.determinant.bareiss';
export const RANK_CHECKER_ID = 'jacobian.matrix.rank.minor_and_kernel';
const VERSION = '1.0.0';

const KERNEL_FILE = fileURLToPath(new URL('./rank-determinant-verify.kernel.ts', import.meta.url));
/** The files whose bytes form these checkers' identity (the Bareiss determinant is normal-form-verify.ts's; the run is checkMatrixClaim's, in MATRIX_CHECKER_SOURCES). */
export const RANK_DETERMINANT_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./rank-determinant-verify.ts', import.meta.url)),
  KERNEL_FILE,
  fileURLToPath(new URL('./normal-form-verify.ts', import.meta.url)),
  ...MATRIX_CHECKER_SOURCES,
];

const Path = z.array(z.union([z.string(), z.number().int()]));
const CheckResult = z.union([
  z.object({ accepted: z.literal(true), message: z.string(), method: z.string() }).strict(),
  z.object({ accepted: z.literal(false), reason_code: z.enum(RankDeterminantRejectionReason), message: z.string(), path: Path, witness: z.string().nullable() }).strict(),
]);

const VerifyOutput = z
  .object({
    verdict: z.enum(['ACCEPTED', 'REJECTED']).describe('ACCEPTED: the claim holds (VERIFIED); REJECTED: it fails a check, named by reason_code and failure'),
    claim_kind: z.enum(['MATRIX_DETERMINANT', 'MATRIX_RANK']),
    claim: z.string().describe('the claim that was checked, in words'),
    claim_uri: z.string().nullable().describe('the accepted claim, as stored (the given result_uri, or the inline claim stored by the checker); null when rejected'),
    reason_code: z.enum(RankDeterminantRejectionReason).nullable(),
    message: z.string().describe('what was proved and by which method'),
    failure: z.object({ path: Path, witness: z.string().nullable() }).strict().nullable(),
    verification_record_uri: z.string().nullable().describe('the signed verification record; null unless ACCEPTED'),
  })
  .strict();
export type RankDeterminantVerifyOutput = z.infer<typeof VerifyOutput>;

function verifyInput<I>(claim: z.ZodType<I>, producer: string) {
  return matrixVerifyInput(claim, { resultUri: `the claim stored by ${producer} (its output's result_uri)`, claim: `the claim inline: the matrix (inline or matrix_uri) with the value ${producer} printed` });
}

interface Texts {
  id: string;
  checkerId: string;
  producer: string;
  schemaUri: string;
  title: string;
  description: string;
  method: string;
  keywords: string[];
  scope: string;
  examples: CapabilityDefinition<unknown, unknown>['examples'];
}

function define<T extends { matrix: MatrixPayload }, I>(
  texts: Texts,
  input: z.ZodType<{ result_uri?: string | undefined; claim?: I | undefined }>,
  check: Omit<MatrixClaimCheck<T, I, RankDeterminantVerifyOutput['claim_kind'], RankDeterminantRejectionReason>, 'id' | 'schemaUri' | 'checkResult' | 'kernel'> & { kernelExport: string },
  authority: CheckerAuthority,
): CapabilityDefinition<{ result_uri?: string | undefined; claim?: I | undefined }, RankDeterminantVerifyOutput> {
  const { kernelExport, ...rest } = check;
  return {
    id: texts.id,
    version: VERSION,
    title: texts.title,
    description: texts.description,
    tags: ['matrix', 'linear-algebra', 'verification', 'checker', 'modular', 'exact'],
    keywords: texts.keywords,
    domain: 'matrix',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI, texts.schemaUri],
    produced_artifact_types: [texts.schemaUri, VERIFICATION_RECORD_SCHEMA_URI],
    input,
    output: VerifyOutput,
    examples: texts.examples,
    relationships: [{ kind: 'VERIFIES', capability_id: texts.producer }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: texts.scope,
    limits: { max_rows: MATRIX_LIMITS.maxRows, max_columns: MATRIX_LIMITS.maxColumns, max_entry_bits: MATRIX_LIMITS.maxEntryBits },
    checker: {
      checker_id: texts.checkerId,
      method: texts.method,
      source_files: RANK_DETERMINANT_CHECKER_SOURCES,
      configuration: { max_rows: MATRIX_LIMITS.maxRows, max_columns: MATRIX_LIMITS.maxColumns, max_entry_bits: MATRIX_LIMITS.maxEntryBits, word_primes: '2^25 < q < 2^26' },
    },
    run: (request, context) =>
      checkMatrixClaim<T, I, RankDeterminantVerifyOutput['claim_kind'], RankDeterminantRejectionReason>(
        { ...rest, id: texts.id, schemaUri: texts.schemaUri, checkResult: CheckResult, kernel: { module: KERNEL_FILE, exportName: kernelExport } },
        authority,
        request,
        context,
      ),
  };
}

const DETERMINANT_TEXTS: Texts = {
  id: DETERMINANT_VERIFY_CAPABILITY_ID,
  checkerId: DETERMINANT_CHECKER_ID,
  producer: 'matrix.determinant.compute',
  schemaUri: DETERMINANT_CLAIM_SCHEMA_URI,
  title: 'Verify a determinant by an independent recomputation',
  description:
    'Independently recomputes det A for a claim of matrix.determinant.compute (its result_uri, or the matrix with the claimed determinant inline), not by the producer\'s multimodular method and with no code of it. Over Z and Q: fraction-free Gaussian elimination (Bareiss) of the row-scaled integer matrix, exact in big integers (no primes, no bounds), compared with the claim times the row scale. Over GF(p): elimination in the other order (UL: last column first, pivots from the bottom). The assurance basis says how it was recomputed. A wrong value is REJECTED (DETERMINANT_MISMATCH, with the true determinant; SHAPE for a non-square matrix).',
  method:
    'over Z and Q: det of the row-scaled integer matrix by fraction-free (Bareiss) elimination in big integers, compared with the claim times the scale; over GF(p): UL-order elimination. Exact; no code of the producer',
  keywords: ['verify a determinant', 'check a determinant', 'certify det(A)', 'Bareiss algorithm', 'fraction-free elimination', 'independent recomputation'],
  scope: 'Covers exactly the one claim: that the given value is the determinant of the given square matrix, in Q (for Z and Q entries) or GF(p).',
  examples: [
    { title: 'det [[2, 0, 1], [1, 3, 2], [1, 1, 2]] = 6', mode: 'VERIFY', payload: { claim: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0, 1], [1, 3, 2], [1, 1, 2]] }, determinant: '6' } } },
    { title: 'The 3×3 Hilbert matrix has determinant 1/2160', mode: 'VERIFY', payload: { claim: { matrix: { ring: { kind: 'Q' }, rows: [[1, '1/2', '1/3'], ['1/2', '1/3', '1/4'], ['1/3', '1/4', '1/5']] }, determinant: '1/2160' } } },
  ],
};

const RANK_TEXTS: Texts = {
  id: RANK_VERIFY_CAPABILITY_ID,
  checkerId: RANK_CHECKER_ID,
  producer: 'matrix.rank.compute',
  schemaUri: RANK_CLAIM_SCHEMA_URI,
  title: 'Verify a matrix rank with a minor and a kernel',
  description:
    'Independently proves rank A = r for a claim of matrix.rank.compute (its result_uri, or the matrix with the claimed rank inline), not by the producer\'s multimodular rank (the largest rank modulo primes up to a Hadamard bound) and with no code of it. Lower bound: an r×r minor non-singular modulo a prime (a rank mod p never exceeds the rank over Q). Upper bound: n − r independent integer kernel vectors built from that minor (reconstructed by CRT modulo word-size primes under a Hadamard bound) and checked exactly, so rank ≤ r. An unlucky prime is replaced by the next; deterministic. Over GF(p) the same minor and kernel, in GF(p). The assurance basis says how it was recomputed. A wrong rank is REJECTED with the true one (RANK_TOO_HIGH, RANK_TOO_LOW).',
  method:
    'rank ≥ r by a non-singular r×r minor modulo a word-size prime (or over GF(p)); rank ≤ r by n − r independent kernel vectors from that minor, reconstructed by CRT under a Hadamard bound and checked exactly; deterministic; no code of the producer',
  keywords: ['verify the rank of a matrix', 'check a rank', 'certify the rank', 'rank certificate', 'non-singular minor', 'kernel basis', 'rank–nullity', 'modular rank', 'independent recomputation'],
  scope: 'Covers exactly the one claim: that the given number is the rank of the given matrix over Q (for Z and Q entries) or GF(p).',
  examples: [
    { title: 'rank [[1, 2, 3], [4, 5, 6], [7, 8, 9]] = 2 over Q', mode: 'VERIFY', payload: { claim: { matrix: { ring: { kind: 'Z' }, rows: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] }, rank: 2 } } },
    { title: 'A 3×4 matrix over GF(2) of rank 2', mode: 'VERIFY', payload: { claim: { matrix: { ring: { kind: 'GF', characteristic: '2' }, rows: [[1, 1, 0, 1], [0, 1, 1, 1], [1, 0, 1, 0]] }, rank: 2 } } },
  ],
};

/** matrix.determinant.verify. */
export function verifyDeterminant(authority: CheckerAuthority) {
  return define<DeterminantClaim, z.infer<typeof DeterminantClaimInputSchema>>(
    DETERMINANT_TEXTS,
    verifyInput(DeterminantClaimInputSchema, DETERMINANT_TEXTS.producer),
    {
      kernelExport: 'verifyDeterminantKernel',
      semanticsUri: DETERMINANT_CLAIM_SEMANTICS_URI,
      claimSchema: DeterminantClaimSchema,
      canonical: canonicalDeterminantClaim,
      storedClaim: { what: 'a stored determinant claim', hint: 'pass the result_uri of matrix.determinant.compute, or give the claim inline' },
      kind: () => 'MATRIX_DETERMINANT',
      statement: (claim, matrix) => `det A = ${claim.determinant.slice(0, 200)}, where A is ${matrix}`,
      recordValue: (claim) => ({ ring: claim.matrix.ring, n: claim.matrix.nrows, determinant: claim.determinant.slice(0, 2000) }),
    },
    authority,
  );
}

/** matrix.rank.verify. */
export function verifyRank(authority: CheckerAuthority) {
  return define<RankClaim, z.infer<typeof RankClaimInputSchema>>(
    RANK_TEXTS,
    verifyInput(RankClaimInputSchema, RANK_TEXTS.producer),
    {
      kernelExport: 'verifyRankKernel',
      semanticsUri: RANK_CLAIM_SEMANTICS_URI,
      claimSchema: RankClaimSchema,
      canonical: (input, matrix) => canonicalRankClaim(input, matrix),
      storedClaim: { what: 'a stored rank claim', hint: 'pass the result_uri of matrix.rank.compute, or give the claim inline' },
      kind: () => 'MATRIX_RANK',
      statement: (claim, matrix) => `rank A = ${claim.rank} over ${claim.matrix.ring.kind === 'GF' ? `GF(${claim.matrix.ring.characteristic})` : 'Q'}, where A is ${matrix}`,
      recordValue: (claim) => ({ ring: claim.matrix.ring, nrows: claim.matrix.nrows, ncols: claim.matrix.ncols, rank: claim.rank }),
    },
    authority,
  );
}
