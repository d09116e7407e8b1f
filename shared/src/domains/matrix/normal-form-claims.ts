/**
 * The claims matrix.normal_form.verify checks: that H is the Hermite normal form of an integer
 * matrix A (with U, U A = H), or that d_1, …, d_k is the diagonal of its Smith normal form (with
 * U and V, U A V = D). The transforms are required: they are the certificate (without them the
 * claim could only be checked by recomputing the form, which is not a check). A request gives
 * the matrix inline or by matrix_uri and the rest as integer entries, as the producers
 * (matrix.hermite_normal_form.compute, matrix.smith_normal_form.compute with transforms) print
 * them; the stored claim holds the canonical matrix and canonical integers.
 */
import { z } from 'zod';
import { JacobianError, type JsonPath } from '../../errors.js';
import { MATRIX_LIMITS } from './limits.js';
import { canonicalVector, MatrixEntrySchema, MatrixPayloadSchema, resolveMatrixRing, type MatrixPayload } from './matrix.js';
import { matrixOperandShape, refineMatrixOperand } from './operand.js';

export const NORMAL_FORM_CLAIM_SCHEMA_URI = 'jacobian:schema/matrix.normal_form.claim/v1';
export const NORMAL_FORM_CLAIM_SEMANTICS_URI = 'jacobian:semantics/matrix.integer_normal_form/v1';

/** The rule a claim without its transforms breaks. */
export const TRANSFORMS_REQUIRED_RULE = 'transforms-required';
/** The rule a matrix over Q or GF(p) breaks where integer normal forms are asked. */
export const INTEGER_MATRIX_RULE = 'integer-matrix';

const MAX_SIDE = Math.max(MATRIX_LIMITS.maxRows, MATRIX_LIMITS.maxColumns);
const Rows = z.array(z.array(MatrixEntrySchema).max(MAX_SIDE)).max(MAX_SIDE);
/** Stored integers: canonical decimal (checked again by the checker), a generous length since transforms may outgrow the input's entries. */
const StoredInteger = z.string().max(100_000).regex(/^(0|-?[1-9][0-9]*)$/, 'a canonical decimal integer');
const StoredRows = z.array(z.array(StoredInteger).max(MAX_SIDE)).max(MAX_SIDE);

/** A normal form claim as a request gives it. */
export const NormalFormClaimInputSchema = z
  .object({
    ...matrixOperandShape,
    form: z.enum(['HERMITE', 'SMITH']).describe('HERMITE: `hnf` is the row-style Hermite normal form of A, with U A = H; SMITH: `diagonal` is the diagonal of the Smith normal form of A, with U A V = D'),
    hnf: Rows.nullable().optional().describe('HERMITE: H (m×n), rows top to bottom'),
    diagonal: z.array(MatrixEntrySchema).max(MAX_SIDE).nullable().optional().describe('SMITH: d_1, …, d_min(m,n), the diagonal of D'),
    left_transform: Rows.nullable().optional().describe('U (m×m, unimodular): U A = H, or U A V = D; required'),
    right_transform: Rows.nullable().optional().describe('SMITH: V (n×n, unimodular) with U A V = D; required for SMITH'),
  })
  .strict()
  .superRefine((input, ctx) => {
    refineMatrixOperand(input, ctx);
    const need = (field: 'hnf' | 'diagonal' | 'left_transform' | 'right_transform', why: string): void => {
      if (input[field] === undefined || input[field] === null) ctx.addIssue({ code: 'custom', path: [field], message: why });
    };
    const absent = (field: 'hnf' | 'diagonal' | 'right_transform'): void => {
      if (input[field] !== undefined && input[field] !== null) ctx.addIssue({ code: 'custom', path: [field], message: `must be absent or null when form is ${input.form}` });
    };
    const transforms = `required (rule ${TRANSFORMS_REQUIRED_RULE}): the unimodular transforms are the certificate; without them a normal form cannot be verified, only recomputed. Ask the producer with "transforms": true`;
    need('left_transform', transforms);
    if (input.form === 'HERMITE') {
      need('hnf', 'required when form is HERMITE');
      absent('diagonal');
      absent('right_transform');
    } else {
      need('diagonal', 'required when form is SMITH');
      need('right_transform', transforms);
      absent('hnf');
    }
  });
export type NormalFormClaimInput = z.infer<typeof NormalFormClaimInputSchema>;

/** A stored normal form claim: the canonical integer matrix, the form and its transforms. */
export const NormalFormClaimSchema = z
  .object({
    matrix: MatrixPayloadSchema,
    form: z.enum(['HERMITE', 'SMITH']),
    hnf: StoredRows.nullable(),
    diagonal: z.array(StoredInteger).max(MAX_SIDE).nullable(),
    left_transform: StoredRows,
    right_transform: StoredRows.nullable(),
  })
  .strict()
  .superRefine((claim, ctx) => {
    if (claim.matrix.ring.kind !== 'Z') ctx.addIssue({ code: 'custom', path: ['matrix', 'ring'], message: `integer normal forms are of matrices over Z (rule ${INTEGER_MATRIX_RULE})` });
    if (claim.form === 'HERMITE' && (claim.hnf === null || claim.diagonal !== null || claim.right_transform !== null)) ctx.addIssue({ code: 'custom', path: ['form'], message: 'HERMITE: hnf, and no diagonal or right_transform' });
    if (claim.form === 'SMITH' && (claim.diagonal === null || claim.right_transform === null || claim.hnf !== null)) ctx.addIssue({ code: 'custom', path: ['form'], message: 'SMITH: diagonal and right_transform, and no hnf' });
  });
export type NormalFormClaim = z.infer<typeof NormalFormClaimSchema>;

/**
 * INVALID_REQUEST naming the rule when a matrix for an integer normal form is not over Z
 * (`path` is where the request put the matrix).
 */
export function requireIntegerMatrix(matrix: MatrixPayload, path: JsonPath, what: string): void {
  if (matrix.ring.kind === 'Z') return;
  const ring = matrix.ring.kind === 'GF' ? `GF(${matrix.ring.characteristic})` : 'Q';
  throw new JacobianError('INVALID_REQUEST', `${path.join('.')}: ${what} is defined here for integer matrices only (ring {"kind": "Z"}); this one is over ${ring} (rule ${INTEGER_MATRIX_RULE})`, {
    path,
    data: { rule: INTEGER_MATRIX_RULE, ring: matrix.ring.kind },
    hint: 'over a field every non-singular matrix is equivalent to the identity; for echelon forms over Q or GF(p) use matrix.rref.compute',
  });
}

/** The stored form of a validated normal form claim, given its resolved matrix; a bad entry is INVALID_REQUEST at its path under `path`. */
export function canonicalNormalFormClaim(input: NormalFormClaimInput, matrix: MatrixPayload, path: JsonPath): NormalFormClaim {
  requireIntegerMatrix(matrix, input.matrix_uri !== undefined ? [...path, 'matrix_uri'] : [...path, 'matrix', 'ring'], 'a normal form claim');
  const Z = resolveMatrixRing({ kind: 'Z' });
  const rows = (values: readonly (readonly (string | number)[])[], field: string): string[][] => values.map((row, i) => canonicalVector(row, Z, [...path, field, i]));
  const orNull = <T, R>(value: T | null | undefined, f: (v: T) => R): R | null => (value === undefined || value === null ? null : f(value));
  return {
    matrix,
    form: input.form,
    hnf: orNull(input.hnf, (v) => rows(v, 'hnf')),
    diagonal: orNull(input.diagonal, (v) => canonicalVector(v, Z, [...path, 'diagonal'])),
    left_transform: rows(input.left_transform ?? [], 'left_transform'),
    right_transform: orNull(input.right_transform, (v) => rows(v, 'right_transform')),
  };
}
