/**
 * The claims the linear algebra checkers verify: a linear system's solution set (or its
 * inconsistency certificate) and an inverse (or a singularity certificate). A request gives the
 * matrix inline or by matrix_uri and the vectors as entries, exactly as the producers
 * (matrix.linear_system.solve, matrix.inverse.compute) print them; the stored claim holds the
 * canonical matrix and canonical vectors in the answer's field (Q for Z and Q matrices).
 */
import { z } from 'zod';
import type { JsonPath } from '../../errors.js';
import { MATRIX_LIMITS } from './limits.js';
import { canonicalEntry, canonicalVector, MatrixEntrySchema, MatrixPayloadSchema, MatrixRule, resolveMatrixRing, type MatrixPayload, type MatrixRing, type ResolvedMatrixRing } from './matrix.js';
import { matrixOperandShape, refineMatrixOperand, type MatrixOperand } from './operand.js';

export const LINEAR_SYSTEM_CLAIM_SCHEMA_URI = 'jacobian:schema/matrix.linear_system.claim/v1';
export const LINEAR_SYSTEM_CLAIM_SEMANTICS_URI = 'jacobian:semantics/matrix.linear_system.solution_set/v1';
export const INVERSE_CLAIM_SCHEMA_URI = 'jacobian:schema/matrix.inverse.claim/v1';
export const INVERSE_CLAIM_SEMANTICS_URI = 'jacobian:semantics/matrix.inverse/v1';

const Vector = z.array(MatrixEntrySchema).max(Math.max(MATRIX_LIMITS.maxRows, MATRIX_LIMITS.maxColumns));
const StoredVector = z.array(z.string().max(MATRIX_LIMITS.maxEntryTextLength)).max(Math.max(MATRIX_LIMITS.maxRows, MATRIX_LIMITS.maxColumns));

/** The ring answers are written in: Q for Z and Q matrices, GF(p) for GF(p). */
export function answerRing(ring: MatrixRing): ResolvedMatrixRing {
  return resolveMatrixRing(ring.kind === 'Z' ? { kind: 'Q' } : ring);
}

function requireFields(input: Record<string, unknown>, ctx: z.RefinementCtx, outcome: string, needed: readonly string[], absent: readonly string[]): void {
  for (const field of needed) if (input[field] === undefined || input[field] === null) ctx.addIssue({ code: 'custom', path: [field], message: `required when outcome is ${outcome}` });
  for (const field of absent) if (input[field] !== undefined && input[field] !== null) ctx.addIssue({ code: 'custom', path: [field], message: `must be absent or null when outcome is ${outcome}` });
}

/** A linear system claim as a request gives it. */
export const LinearSystemClaimInputSchema = z
  .object({
    ...matrixOperandShape,
    rhs: Vector.min(1).describe('b, one entry per row of A'),
    outcome: z.enum(['SOLVED', 'INCONSISTENT']),
    solution: Vector.nullable().optional().describe('SOLVED: x with A x = b'),
    kernel: z.array(Vector).max(MATRIX_LIMITS.maxColumns).nullable().optional().describe('SOLVED: a basis of the kernel of A (so that the solutions are exactly solution + span(kernel))'),
    certificate: Vector.nullable().optional().describe('INCONSISTENT: y with y A = 0 and y·b ≠ 0'),
  })
  .strict()
  .superRefine((input, ctx) => {
    refineMatrixOperand(input, ctx);
    if (input.outcome === 'SOLVED') requireFields(input, ctx, 'SOLVED', ['solution', 'kernel'], ['certificate']);
    else requireFields(input, ctx, 'INCONSISTENT', ['certificate'], ['solution', 'kernel']);
  });
export type LinearSystemClaimInput = z.infer<typeof LinearSystemClaimInputSchema>;

function ringResolves(ring: MatrixRing): boolean {
  try {
    resolveMatrixRing(ring);
    return true;
  } catch {
    return false;
  }
}

/** Issues for stored vectors whose entries are not canonical in `ring` (claims stored by our producers always are). */
function refineCanonicalVectors(vectors: [JsonPath, readonly string[] | null][], ring: ResolvedMatrixRing, ctx: z.RefinementCtx): void {
  for (const [path, vector] of vectors) {
    for (const [i, text] of (vector ?? []).entries()) {
      const entry = canonicalEntry(text, ring);
      if ('rule' in entry || entry.text !== text) {
        ctx.addIssue({ code: 'custom', path: [...path, i], message: `"${text.slice(0, 40)}" is not a canonical element of ${ring.name} (rule ${MatrixRule.CANONICAL})` });
        return;
      }
    }
  }
}

/** A stored linear system claim: canonical matrix and canonical vectors in the answer's field. */
export const LinearSystemClaimSchema = z
  .object({
    matrix: MatrixPayloadSchema,
    rhs: StoredVector,
    outcome: z.enum(['SOLVED', 'INCONSISTENT']),
    solution: StoredVector.nullable(),
    kernel: z.array(StoredVector).max(MATRIX_LIMITS.maxColumns).nullable(),
    certificate: StoredVector.nullable(),
  })
  .strict()
  .superRefine((claim, ctx) => {
    // An invalid ring is the matrix schema's issue already.
    if (!ringResolves(claim.matrix.ring)) return;
    const ring = answerRing(claim.matrix.ring);
    refineCanonicalVectors([[['solution'], claim.solution], [['certificate'], claim.certificate], ...(claim.kernel ?? []).map((v, i): [JsonPath, string[]] => [['kernel', i], v])], ring, ctx);
    refineCanonicalVectors([[['rhs'], claim.rhs]], resolveMatrixRing(claim.matrix.ring), ctx);
  });
export type LinearSystemClaim = z.infer<typeof LinearSystemClaimSchema>;

/** An inverse claim as a request gives it. */
export const InverseClaimInputSchema = z
  .object({
    ...matrixOperandShape,
    outcome: z.enum(['INVERTIBLE', 'SINGULAR']),
    inverse: z.array(Vector).max(MATRIX_LIMITS.maxRows).nullable().optional().describe('INVERTIBLE: B with A B = I, rows top to bottom'),
    kernel_vector: Vector.nullable().optional().describe('SINGULAR: a non-zero x with A x = 0'),
  })
  .strict()
  .superRefine((input, ctx) => {
    refineMatrixOperand(input, ctx);
    if (input.outcome === 'INVERTIBLE') requireFields(input, ctx, 'INVERTIBLE', ['inverse'], ['kernel_vector']);
    else requireFields(input, ctx, 'SINGULAR', ['kernel_vector'], ['inverse']);
  });
export type InverseClaimInput = z.infer<typeof InverseClaimInputSchema>;

export const InverseClaimSchema = z
  .object({
    matrix: MatrixPayloadSchema,
    outcome: z.enum(['INVERTIBLE', 'SINGULAR']),
    inverse: z.array(StoredVector).max(MATRIX_LIMITS.maxRows).nullable(),
    kernel_vector: StoredVector.nullable(),
  })
  .strict()
  .superRefine((claim, ctx) => {
    if (!ringResolves(claim.matrix.ring)) return;
    refineCanonicalVectors([[['kernel_vector'], claim.kernel_vector], ...(claim.inverse ?? []).map((row, i): [JsonPath, string[]] => [['inverse', i], row])], answerRing(claim.matrix.ring), ctx);
  });
export type InverseClaim = z.infer<typeof InverseClaimSchema>;

const vectorOrNull = (values: readonly (string | number)[] | null | undefined, ring: ResolvedMatrixRing, path: JsonPath): string[] | null =>
  values === undefined || values === null ? null : canonicalVector(values, ring, path);

/**
 * The stored form of a validated linear system claim, given its resolved matrix. Entries are
 * canonicalized in the answer's field; a bad entry is INVALID_REQUEST at its path under `path`.
 */
export function canonicalLinearSystemClaim(input: LinearSystemClaimInput, matrix: MatrixPayload, path: JsonPath): LinearSystemClaim {
  const ring = answerRing(matrix.ring);
  return {
    matrix,
    // b is in A's ring (over Z, integers).
    rhs: canonicalVector(input.rhs, resolveMatrixRing(matrix.ring), [...path, 'rhs']),
    outcome: input.outcome,
    solution: vectorOrNull(input.solution, ring, [...path, 'solution']),
    kernel: input.kernel === undefined || input.kernel === null ? null : input.kernel.map((v, i) => canonicalVector(v, ring, [...path, 'kernel', i])),
    certificate: vectorOrNull(input.certificate, ring, [...path, 'certificate']),
  };
}

/** The stored form of a validated inverse claim, given its resolved matrix. */
export function canonicalInverseClaim(input: InverseClaimInput, matrix: MatrixPayload, path: JsonPath): InverseClaim {
  const ring = answerRing(matrix.ring);
  return {
    matrix,
    outcome: input.outcome,
    inverse: input.inverse === undefined || input.inverse === null ? null : input.inverse.map((row, i) => canonicalVector(row, ring, [...path, 'inverse', i])),
    kernel_vector: vectorOrNull(input.kernel_vector, ring, [...path, 'kernel_vector']),
  };
}

/** The operand part of a claim input. */
export function claimOperand(input: MatrixOperand): MatrixOperand {
  return input.matrix_uri !== undefined ? { matrix_uri: input.matrix_uri } : { matrix: input.matrix };
}
