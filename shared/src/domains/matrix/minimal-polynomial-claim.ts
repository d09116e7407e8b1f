/**
 * The claim matrix.minimal_polynomial.verify checks: that a polynomial, given by its coefficients
 * lowest degree first, is the minimal polynomial of a square matrix. A request gives the matrix
 * inline or by matrix_uri and the coefficients as entries, exactly as
 * matrix.minimal_polynomial.compute prints them; the stored claim holds the canonical matrix and
 * canonical coefficients in the answer's field (Q for Z and Q matrices, GF(p) otherwise).
 * Coefficients are bounded by what a minimal polynomial of the claim's own matrix can have
 * (coefficient-bounds.ts), not by the entry limit: they outgrow the entries.
 */
import { z } from 'zod';
import type { JsonPath } from '../../errors.js';
import { answerRing } from './claims.js';
import { coefficientSizeLimits, EigenpolynomialCoefficientSchema, type CoefficientBound, MAX_EIGENPOLYNOMIAL_COEFFICIENT_TEXT_LENGTH, MAX_EIGENPOLYNOMIAL_COEFFICIENTS } from './coefficient-bounds.js';
import { canonicalEntry, canonicalVector, MatrixPayloadSchema, MatrixRule, resolveMatrixRing, type MatrixPayload } from './matrix.js';
import { matrixOperandShape, refineMatrixOperand } from './operand.js';

export const MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI = 'jacobian:schema/matrix.minimal_polynomial.claim/v1';
export const MINIMAL_POLYNOMIAL_CLAIM_SEMANTICS_URI = 'jacobian:semantics/matrix.minimal_polynomial/v1';

/** A minimal polynomial claim as a request gives it. */
export const MinimalPolynomialClaimInputSchema = z
  .object({
    ...matrixOperandShape,
    coefficients: z
      .array(EigenpolynomialCoefficientSchema)
      .min(1)
      .max(MAX_EIGENPOLYNOMIAL_COEFFICIENTS)
      .describe('the claimed minimal polynomial\'s coefficients c_0, c_1, …, c_d, lowest degree first (c_d is the leading one, 1 for a monic polynomial)'),
  })
  .strict()
  .superRefine((input, ctx) => refineMatrixOperand(input, ctx));
export type MinimalPolynomialClaimInput = z.infer<typeof MinimalPolynomialClaimInputSchema>;

/** A stored minimal polynomial claim: the canonical matrix and canonical coefficients in the answer's field. */
export const MinimalPolynomialClaimSchema = z
  .object({
    matrix: MatrixPayloadSchema,
    coefficients: z.array(z.string().max(MAX_EIGENPOLYNOMIAL_COEFFICIENT_TEXT_LENGTH)).min(1).max(MAX_EIGENPOLYNOMIAL_COEFFICIENTS),
  })
  .strict()
  .superRefine((claim, ctx) => {
    let ring;
    try {
      ring = answerRing(claim.matrix.ring);
    } catch {
      // An invalid ring is the matrix schema's issue already.
      return;
    }
    const bounds = coefficientSizeLimits(claim.matrix, claim.coefficients.length - 1);
    for (const [i, text] of claim.coefficients.entries()) {
      // The length is checked first, before BigInt() sees the text.
      const entry = canonicalEntry(text, ring, bounds[i]);
      if ('rule' in entry || entry.text !== text) {
        const why = 'rule' in entry ? `${entry.message} (rule ${entry.rule})` : `"${text.slice(0, 40)}" is not a canonical element of ${ring.name} (rule ${MatrixRule.CANONICAL})`;
        ctx.addIssue({ code: 'custom', path: ['coefficients', i], message: why });
        return;
      }
    }
  });
export type MinimalPolynomialClaim = z.infer<typeof MinimalPolynomialClaimSchema>;

/** The stored form of a validated claim, given its resolved matrix; a bad coefficient is INVALID_REQUEST at its path under `path`. */
export function canonicalMinimalPolynomialClaim(input: MinimalPolynomialClaimInput, matrix: MatrixPayload, path: JsonPath): MinimalPolynomialClaim {
  resolveMatrixRing(matrix.ring);
  const bounds = coefficientSizeLimits(matrix, input.coefficients.length - 1);
  return { matrix, coefficients: canonicalVector(input.coefficients, answerRing(matrix.ring), [...path, 'coefficients'], (i) => bounds[i] as CoefficientBound) };
}
