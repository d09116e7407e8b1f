/**
 * The claim matrix.rational_canonical_form.compute stores: that the invariant factors
 * d_1 | d_2 | … | d_k (monic, coefficients lowest degree first) and the transform P (rows) give
 * the rational canonical (Frobenius) form of a square matrix A, P⁻¹ A P = diag(C(d_1), …, C(d_k))
 * with C(x^m + c_{m−1} x^{m−1} + … + c_0) the companion matrix with ones on the subdiagonal and last
 * column (−c_0, …, −c_{m−1}). The claim can be checked without recomputing the form: P is
 * invertible, A P = P F, each d_i is monic and divides the next, and the degrees add up to n.
 * Entries are canonical in the answer's field (Q for Z and Q matrices, GF(p) otherwise).
 */
import { z } from 'zod';
import type { JsonPath } from '../../errors.js';
import { RATIONALS, type AnyField } from '../polynomial/field.js';
import { answerRing } from './claims.js';
import { coefficientSizeLimits, EigenpolynomialCoefficientSchema, MAX_EIGENPOLYNOMIAL_COEFFICIENT_TEXT_LENGTH, type CoefficientBound } from './coefficient-bounds.js';
import { MATRIX_LIMITS } from './limits.js';
import { canonicalVector, MatrixEntrySchema, MatrixPayloadSchema, MatrixRule, type MatrixPayload } from './matrix.js';
import { matrixOperandShape, refineMatrixOperand } from './operand.js';

export const RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI = 'jacobian:schema/matrix.rational_canonical_form.claim/v1';
export const RATIONAL_CANONICAL_FORM_CLAIM_SEMANTICS_URI = 'jacobian:semantics/matrix.rational_canonical_form/v1';

/** The companion convention every producer and checker of this claim uses. */
export const FROBENIUS_CONVENTION =
  'P⁻¹ A P = F = diag(C(d_1), …, C(d_k)), invariant factors monic and non-constant with d_1 | d_2 | … | d_k (d_k the minimal polynomial, Π d_i the characteristic polynomial); C(x^m + c_{m−1}x^{m−1} + … + c_0) has ones on the subdiagonal and last column −c_0, …, −c_{m−1}; the columns of P are the cyclic bases v, A v, …, A^{m−1} v of the blocks';

const MAX_SIDE = MATRIX_LIMITS.maxRows;
/** Transform entries over Q may outgrow the input's entries; a generous bound, like the integer normal form claims'. */
const StoredElement = z.string().max(100_000);
/** Invariant factor coefficients: as long as an eigenpolynomial's can be (each factor divides the characteristic polynomial), held to the claim's own matrix's bound. */
const StoredCoefficient = z.string().max(MAX_EIGENPOLYNOMIAL_COEFFICIENT_TEXT_LENGTH);

/** A rational canonical form claim as a request gives it (as matrix.rational_canonical_form.compute prints it). */
export const RationalCanonicalFormClaimInputSchema = z
  .object({
    ...matrixOperandShape,
    invariant_factors: z
      .array(z.array(EigenpolynomialCoefficientSchema).min(1).max(MAX_SIDE + 1))
      .min(1)
      .max(MAX_SIDE)
      .describe('d_1, …, d_k, each as coefficients lowest degree first (monic: the last is 1)'),
    transform: z.array(z.array(MatrixEntrySchema).max(MAX_SIDE)).max(MAX_SIDE).describe('P (n×n), rows top to bottom, with P⁻¹ A P = diag(C(d_1), …, C(d_k))'),
  })
  .strict()
  .superRefine((input, ctx) => refineMatrixOperand(input, ctx));
export type RationalCanonicalFormClaimInput = z.infer<typeof RationalCanonicalFormClaimInputSchema>;

export const RationalCanonicalFormClaimSchema = z
  .object({
    matrix: MatrixPayloadSchema,
    invariant_factors: z.array(z.array(StoredCoefficient).min(1).max(MAX_SIDE + 1)).min(1).max(MAX_SIDE).describe('d_1, …, d_k, each as coefficients lowest degree first'),
    transform: z.array(z.array(StoredElement).max(MAX_SIDE)).max(MAX_SIDE).describe('P, rows top to bottom'),
  })
  .strict()
  .superRefine((claim, ctx) => {
    let field: AnyField;
    try {
      field = answerRing(claim.matrix.ring).field ?? RATIONALS;
    } catch {
      // An invalid ring is the matrix schema's issue already.
      return;
    }
    const F = field as { parseCanonical(text: string): unknown; format(a: unknown): string; name: string };
    const check = (text: string, path: (string | number)[]): boolean => {
      const value = F.parseCanonical(text);
      if (value !== null && F.format(value) === text) return true;
      ctx.addIssue({ code: 'custom', path, message: `"${text.slice(0, 40)}" is not a canonical element of ${F.name} (rule ${MatrixRule.CANONICAL})` });
      return false;
    };
    for (const [i, d] of claim.invariant_factors.entries()) {
      const bounds = coefficientSizeLimits(claim.matrix, d.length - 1);
      for (const [j, c] of d.entries()) {
        const bound = bounds[j] as CoefficientBound;
        if (c.length > bound.maxTextLength) {
          ctx.addIssue({ code: 'custom', path: ['invariant_factors', i, j], message: `${c.length} characters, more than ${bound.maxTextLength} (${bound.why}) (rule ${bound.rule})` });
          return;
        }
        if (!check(c, ['invariant_factors', i, j])) return;
      }
    }
    for (const [i, row] of claim.transform.entries()) for (const [j, c] of row.entries()) if (!check(c, ['transform', i, j])) return;
  });
export type RationalCanonicalFormClaim = z.infer<typeof RationalCanonicalFormClaimSchema>;

/** The stored form of a validated claim, given its resolved matrix; a bad entry is INVALID_REQUEST at its path under `path`. */
export function canonicalRationalCanonicalFormClaim(input: RationalCanonicalFormClaimInput, matrix: MatrixPayload, path: JsonPath): RationalCanonicalFormClaim {
  const ring = answerRing(matrix.ring);
  return {
    matrix,
    invariant_factors: input.invariant_factors.map((d, i) => {
      const bounds = coefficientSizeLimits(matrix, d.length - 1);
      return canonicalVector(d, ring, [...path, 'invariant_factors', i], (j) => bounds[j] as CoefficientBound);
    }),
    transform: input.transform.map((row, i) => canonicalVector(row, ring, [...path, 'transform', i])),
  };
}
