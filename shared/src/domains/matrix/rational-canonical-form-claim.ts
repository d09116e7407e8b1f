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
import { JacobianError, type JsonPath } from '../../errors.js';
import { RATIONALS, type AnyField } from '../polynomial/field.js';
import { answerRing } from './claims.js';
import { coefficientSizeLimits, EigenpolynomialCoefficientSchema, MAX_EIGENPOLYNOMIAL_COEFFICIENT_TEXT_LENGTH, type CoefficientBound } from './coefficient-bounds.js';
import { DEFAULT_ARTIFACT_STORE_LIMITS } from '../../artifacts/store.js';
import { MATRIX_LIMITS } from './limits.js';
import { canonicalVector, MatrixPayloadSchema, MatrixRule, type EntrySizeLimit, type MatrixPayload } from './matrix.js';
import { matrixOperandShape, refineMatrixOperand } from './operand.js';

export const RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI = 'jacobian:schema/matrix.rational_canonical_form.claim/v1';
export const RATIONAL_CANONICAL_FORM_CLAIM_SEMANTICS_URI = 'jacobian:semantics/matrix.rational_canonical_form/v1';

/** The companion convention every producer and checker of this claim uses. */
export const FROBENIUS_CONVENTION =
  'P⁻¹ A P = F = diag(C(d_1), …, C(d_k)), invariant factors monic and non-constant with d_1 | d_2 | … | d_k (d_k the minimal polynomial, Π d_i the characteristic polynomial); C(x^m + c_{m−1}x^{m−1} + … + c_0) has ones on the subdiagonal and last column −c_0, …, −c_{m−1}; the columns of P are the cyclic bases v, A v, …, A^{m−1} v of the blocks';

const MAX_SIDE = MATRIX_LIMITS.maxRows;

/**
 * How long P's entries may be. There is no bound derived from A here, unlike the invariant factors'
 * (coefficient-bounds.ts), for two reasons:
 *
 * - P is not unique: P C works for every invertible C commuting with F (each block's columns
 *   scaled by any rational, for one), so a correct claim's entries can be as large as one likes;
 *   a bound from A could only bound the P one construction produces.
 * - For our construction (services/runner/src/matrix/frobenius.ts) no clean sound bound follows.
 *   With v = e_i the block is the Krylov basis e_i, A e_i, …, A^(d−1) e_i, scaled to integers
 *   with gcd 1, and (a primitive integer vector divides every integer multiple of it) its entries
 *   are at most those of D^(d−1) A^k e_i, D the lcm of the denominators: |·| ≤ (D ρ)^(d−1), ρ the
 *   row-sum norm. But the maximal vector is in general Σ s_i(A) e_i with s_i products of cofactors
 *   of local minimal polynomials from the coprime splitting, and each later block lives in the
 *   kernel basis of the functionals φ A^j (φ solving Kᵀ φ = e_(d−1)), so its entries are ratios
 *   of minors of matrices built from earlier Krylov bases, recursively, block after block; a
 *   bound through that chain exists but is loose beyond use and its proof would not be checkable.
 *
 * So P is bounded by what can be stored: a claim is one artifact, whose payload the store caps
 * at 16 MiB (DEFAULT_ARTIFACT_STORE_LIMITS); P's entries together may have at most that many
 * characters (a claim beyond it cannot be stored, and is beyond any request too), and one entry
 * at most its share of it, 16 MiB / n², but never less than the 100,000 characters claims always
 * allowed (so every claim valid before stays valid; it also keeps BigInt() on one entry cheap:
 * 10^5 digits parse in ~20 ms, 16 MiB / 4 in seconds). Longer text is refused, rule
 * transform-size, before it is parsed. Measured (frobenius.ts over Q): a random 20×20 integer
 * matrix of 130-digit entries gives a P of 2,476-character entries, 495 KB in all.
 */
export const TRANSFORM_TEXT_BUDGET = DEFAULT_ARTIFACT_STORE_LIMITS.maxPayloadBytes;
const MIN_TRANSFORM_ENTRY_TEXT_LENGTH = 100_000;
const TRANSFORM_WHY = `a claim is one artifact, of at most ${TRANSFORM_TEXT_BUDGET} bytes: P's entries share that, each at most max(100000, ${TRANSFORM_TEXT_BUDGET} / n²) characters`;

/** The longest entry P of an n×n matrix may have in a claim. */
export function maxTransformEntryTextLength(n: number): number {
  return Math.max(MIN_TRANSFORM_ENTRY_TEXT_LENGTH, Math.floor(TRANSFORM_TEXT_BUDGET / Math.max(1, n * n)));
}

/** The size limit each entry of an n×n P is parsed within (digits of its numerator and denominator each at most its text length). */
function transformEntryLimit(n: number): EntrySizeLimit {
  const maxTextLength = maxTransformEntryTextLength(n);
  const bits = Math.ceil(maxTextLength * Math.log2(10));
  return { numeratorBits: bits, denominatorBits: bits, maxTextLength, rule: MatrixRule.TRANSFORM_SIZE, why: TRANSFORM_WHY };
}

/** The first entry of P (rows of texts or numbers) beyond the transform-size rule for an n×n matrix: where, and why; null when none. */
export function transformSizeProblem(transform: readonly (readonly (string | number)[])[], n: number): { path: (string | number)[]; message: string } | null {
  const maxEntry = maxTransformEntryTextLength(n);
  let total = 0;
  for (const [i, row] of transform.entries()) {
    for (const [j, value] of row.entries()) {
      const length = typeof value === 'number' ? String(value).length : value.length;
      if (length > maxEntry) return { path: ['transform', i, j], message: `${length} characters, more than ${maxEntry} (${TRANSFORM_WHY}) (rule ${MatrixRule.TRANSFORM_SIZE})` };
      total += length;
      if (total > TRANSFORM_TEXT_BUDGET) return { path: ['transform', i, j], message: `P's entries up to here have ${total} characters, more than ${TRANSFORM_TEXT_BUDGET} (${TRANSFORM_WHY}) (rule ${MatrixRule.TRANSFORM_SIZE})` };
    }
  }
  return null;
}

/** One entry of P as a request gives it: like a matrix entry, but as long as a storable claim allows (checked against n by the claim). */
const TransformEntrySchema = z
  .union([z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER), z.string().min(1).max(TRANSFORM_TEXT_BUDGET)])
  .describe('an integer (JSON number up to 2^53, or a decimal string) or a fraction "p/q"; P\'s entries together at most 16 MiB of text');
const StoredElement = z.string().max(TRANSFORM_TEXT_BUDGET);
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
    transform: z.array(z.array(TransformEntrySchema).max(MAX_SIDE)).max(MAX_SIDE).describe('P (n×n), rows top to bottom, with P⁻¹ A P = diag(C(d_1), …, C(d_k))'),
  })
  .strict()
  .superRefine((input, ctx) => {
    refineMatrixOperand(input, ctx);
    // n is P's own size here (the matrix may be given by URI); a P of the wrong shape is the checker's SHAPE rejection.
    const problem = transformSizeProblem(input.transform, input.transform.length);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });
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
    const problem = transformSizeProblem(claim.transform, claim.matrix.nrows);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
      return;
    }
    for (const [i, row] of claim.transform.entries()) for (const [j, c] of row.entries()) if (!check(c, ['transform', i, j])) return;
  });
export type RationalCanonicalFormClaim = z.infer<typeof RationalCanonicalFormClaimSchema>;

/** The stored form of a validated claim, given its resolved matrix; a bad entry is INVALID_REQUEST at its path under `path`. */
export function canonicalRationalCanonicalFormClaim(input: RationalCanonicalFormClaimInput, matrix: MatrixPayload, path: JsonPath): RationalCanonicalFormClaim {
  const ring = answerRing(matrix.ring);
  const problem = transformSizeProblem(input.transform, matrix.nrows);
  if (problem !== null) throw new JacobianError('INVALID_REQUEST', problem.message, { path: [...path, ...problem.path], data: { rule: MatrixRule.TRANSFORM_SIZE } });
  return {
    matrix,
    invariant_factors: input.invariant_factors.map((d, i) => {
      const bounds = coefficientSizeLimits(matrix, d.length - 1);
      return canonicalVector(d, ring, [...path, 'invariant_factors', i], (j) => bounds[j] as CoefficientBound);
    }),
    transform: input.transform.map((row, i) => canonicalVector(row, ring, [...path, 'transform', i], () => transformEntryLimit(matrix.nrows))),
  };
}
