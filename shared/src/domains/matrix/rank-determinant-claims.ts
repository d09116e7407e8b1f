/**
 * The claims matrix.determinant.verify and matrix.rank.verify check: that det A is a given value
 * (in the answer's field: Q for Z and Q matrices, GF(p) otherwise), and that rank A is a given
 * number (over Q for Z and Q matrices, over GF(p) otherwise). A request gives the matrix inline or
 * by matrix_uri and the value exactly as matrix.determinant.compute or matrix.rank.compute print
 * it; the stored claim holds the canonical matrix and the canonical value.
 */
import { z } from 'zod';
import { JacobianError, type JsonPath } from '../../errors.js';
import { answerRing } from './claims.js';
import { MATRIX_LIMITS } from './limits.js';
import { canonicalEntry, MatrixEntrySchema, MatrixPayloadSchema, MatrixRule, type MatrixPayload } from './matrix.js';
import { matrixOperandShape, refineMatrixOperand } from './operand.js';

export const DETERMINANT_CLAIM_SCHEMA_URI = 'jacobian:schema/matrix.determinant.claim/v1';
export const DETERMINANT_CLAIM_SEMANTICS_URI = 'jacobian:semantics/matrix.determinant/v1';
export const RANK_CLAIM_SCHEMA_URI = 'jacobian:schema/matrix.rank.claim/v1';
export const RANK_CLAIM_SEMANTICS_URI = 'jacobian:semantics/matrix.rank/v1';

const RankValue = z.number().int().min(0).max(Math.max(MATRIX_LIMITS.maxRows, MATRIX_LIMITS.maxColumns));

/** A determinant claim as a request gives it. */
export const DeterminantClaimInputSchema = z
  .object({
    ...matrixOperandShape,
    determinant: MatrixEntrySchema.describe('the claimed det A: an integer, a fraction "p/q", or a residue mod p'),
  })
  .strict()
  .superRefine((input, ctx) => refineMatrixOperand(input, ctx));
export type DeterminantClaimInput = z.infer<typeof DeterminantClaimInputSchema>;

/** A stored determinant claim: the canonical matrix and det A canonical in the answer's field. */
export const DeterminantClaimSchema = z
  .object({ matrix: MatrixPayloadSchema, determinant: z.string().max(MATRIX_LIMITS.maxEntryTextLength) })
  .strict()
  .superRefine((claim, ctx) => {
    let ring;
    try {
      ring = answerRing(claim.matrix.ring);
    } catch {
      // An invalid ring is the matrix schema's issue already.
      return;
    }
    const entry = canonicalEntry(claim.determinant, ring);
    if ('rule' in entry || entry.text !== claim.determinant) {
      ctx.addIssue({ code: 'custom', path: ['determinant'], message: `"${claim.determinant.slice(0, 40)}" is not a canonical element of ${ring.name} (rule ${MatrixRule.CANONICAL})` });
    }
  });
export type DeterminantClaim = z.infer<typeof DeterminantClaimSchema>;

/** A rank claim as a request gives it. */
export const RankClaimInputSchema = z
  .object({ ...matrixOperandShape, rank: RankValue.describe('the claimed rank: over Q for Z and Q matrices, over GF(p) otherwise') })
  .strict()
  .superRefine((input, ctx) => refineMatrixOperand(input, ctx));
export type RankClaimInput = z.infer<typeof RankClaimInputSchema>;

/** A stored rank claim: the canonical matrix and the rank. */
export const RankClaimSchema = z.object({ matrix: MatrixPayloadSchema, rank: RankValue }).strict();
export type RankClaim = z.infer<typeof RankClaimSchema>;

/** The stored form of a validated determinant claim, given its resolved matrix; a bad value is INVALID_REQUEST at its path under `path`. */
export function canonicalDeterminantClaim(input: DeterminantClaimInput, matrix: MatrixPayload, path: JsonPath): DeterminantClaim {
  const ring = answerRing(matrix.ring);
  const entry = canonicalEntry(input.determinant, ring);
  if ('rule' in entry) {
    throw new JacobianError('INVALID_REQUEST', `the determinant: ${entry.message} (rule ${entry.rule})`, { path: [...path, 'determinant'], data: { rule: entry.rule } });
  }
  return { matrix, determinant: entry.text };
}

/** The stored form of a validated rank claim, given its resolved matrix. */
export function canonicalRankClaim(input: RankClaimInput, matrix: MatrixPayload): RankClaim {
  return { matrix, rank: input.rank };
}
