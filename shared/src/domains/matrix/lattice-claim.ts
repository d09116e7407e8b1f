/**
 * Lattices given by generators (the rows of an integer matrix), the LLL parameter δ, and the
 * claim lattice.basis.verify checks: that B′ is an LLL-reduced basis (with δ) of the lattice
 * spanned by the rows of B, certified by a unimodular U with U B = B′. A request gives the
 * generators inline or by matrix_uri and the rest as integer entries, as lattice.basis.reduce
 * prints them; the stored claim holds the canonical matrix, δ in lowest terms and canonical
 * integers.
 */
import { z } from 'zod';
import { JacobianError, type JsonPath } from '../../errors.js';
import { MATRIX_LIMITS } from './limits.js';
import { canonicalVector, MatrixEntrySchema, MatrixPayloadSchema, resolveMatrixRing, type MatrixPayload } from './matrix.js';
import { matrixOperandShape, refineMatrixOperand } from './operand.js';
import { requireIntegerMatrix } from './normal-form-claims.js';

export const LATTICE_BASIS_CLAIM_SCHEMA_URI = 'jacobian:schema/lattice.basis.claim/v1';
export const LATTICE_BASIS_CLAIM_SEMANTICS_URI = 'jacobian:semantics/lattice.lll_reduced_basis/v1';

/** The rules δ can break. */
export const DeltaRule = {
  /** Not a fraction "p/q", an integer or a decimal "0.99", or parts over 64 bits. */
  SYNTAX: 'delta-syntax',
  /** Not in (1/4, 1]: below or at 1/4 the Lovász condition does not bound the basis, above 1 LLL need not stop. */
  RANGE: 'delta-range',
} as const;

export const DEFAULT_DELTA = '3/4';
export const DELTA_RANGE = '1/4 < δ ≤ 1';

/** δ as a request writes it. */
export const DeltaSchema = z
  .string()
  .min(1)
  .max(44)
  .describe(`the Lovász parameter δ, exact: a fraction "p/q" or a decimal such as "0.99", with ${DELTA_RANGE}; default "${DEFAULT_DELTA}"`);

const DELTA_TEXT = /^(?:([0-9]{1,20})\/([0-9]{1,20})|([0-9]{1,20})(?:\.([0-9]{1,20}))?)$/;
const WORD = 1n << 64n;

const gcd = (a: bigint, b: bigint): bigint => {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
};

/**
 * δ in lowest terms, or INVALID_REQUEST at `path` naming the rule (delta-syntax, delta-range).
 */
export function parseDelta(text: string, path: JsonPath): { num: bigint; den: bigint; text: string } {
  const match = DELTA_TEXT.exec(text);
  let num = 0n;
  let den = 1n;
  if (match !== null) {
    const [, p, q, whole, fraction] = match;
    if (p !== undefined && q !== undefined) [num, den] = [BigInt(p), BigInt(q)];
    else {
      den = 10n ** BigInt(fraction?.length ?? 0);
      num = BigInt(whole ?? '0') * den + BigInt(fraction ?? '0');
    }
  }
  if (match === null || den === 0n || num >= WORD || den >= WORD) {
    throw new JacobianError('INVALID_REQUEST', `${path.join('.')}: "${text.slice(0, 44)}" is not a rational δ: write a fraction "p/q" (p, q < 2^64, q ≠ 0) or a decimal such as "0.99" (rule ${DeltaRule.SYNTAX})`, { path, data: { rule: DeltaRule.SYNTAX } });
  }
  const g = gcd(num, den);
  [num, den] = [num / g, den / g];
  if (4n * num <= den || num > den) {
    throw new JacobianError('INVALID_REQUEST', `${path.join('.')}: δ = ${num}/${den} is outside ${DELTA_RANGE} (rule ${DeltaRule.RANGE}): at δ ≤ 1/4 the Lovász condition guarantees nothing, above 1 the reduction need not stop`, {
      path,
      data: { rule: DeltaRule.RANGE, delta: `${num}/${den}` },
      hint: 'δ = 3/4 is the classical choice; 0.99 gives shorter vectors at more swaps; δ = 1 is allowed but has no polynomial bound on the swaps (the budget stops it)',
    });
  }
  return { num, den, text: `${num}/${den}` };
}

const MAX_SIDE = Math.max(MATRIX_LIMITS.maxRows, MATRIX_LIMITS.maxColumns);
const Rows = z.array(z.array(MatrixEntrySchema).max(MAX_SIDE)).max(MAX_SIDE);
/** Stored integers: canonical decimal (checked again by the checker), a generous length since transforms may outgrow the input's entries. */
const StoredInteger = z.string().max(100_000).regex(/^(0|-?[1-9][0-9]*)$/, 'a canonical decimal integer');
const StoredRows = z.array(z.array(StoredInteger).max(MAX_SIDE)).max(MAX_SIDE);

/** An LLL claim as a request gives it. */
export const LatticeBasisClaimInputSchema = z
  .object({
    ...matrixOperandShape,
    delta: DeltaSchema.default(DEFAULT_DELTA),
    reduced: Rows.describe('B′ (m×n): the reduced basis, then zero rows for dependent generators, as lattice.basis.reduce prints it in `reduced`'),
    transform: Rows.describe('U (m×m, unimodular) with U B = B′; required: it is the certificate that B′ spans the same lattice'),
  })
  .strict()
  .superRefine((input, ctx) => refineMatrixOperand(input, ctx));
export type LatticeBasisClaimInput = z.infer<typeof LatticeBasisClaimInputSchema>;

/** A stored LLL claim. */
export const LatticeBasisClaimSchema = z
  .object({
    matrix: MatrixPayloadSchema,
    delta: z.string().regex(/^[1-9][0-9]*\/[1-9][0-9]*$/, 'δ as "p/q" in lowest terms'),
    reduced: StoredRows,
    transform: StoredRows,
  })
  .strict()
  .superRefine((claim, ctx) => {
    if (claim.matrix.ring.kind !== 'Z') ctx.addIssue({ code: 'custom', path: ['matrix', 'ring'], message: 'lattice generators are integer vectors (rule integer-matrix)' });
    try {
      if (parseDelta(claim.delta, ['delta']).text !== claim.delta) ctx.addIssue({ code: 'custom', path: ['delta'], message: 'δ is not in lowest terms' });
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['delta'], message: error instanceof Error ? error.message : String(error) });
    }
  });
export type LatticeBasisClaim = z.infer<typeof LatticeBasisClaimSchema>;

/** The stored form of a validated LLL claim, given its resolved matrix; a bad entry or δ is INVALID_REQUEST at its path under `path`. */
export function canonicalLatticeBasisClaim(input: LatticeBasisClaimInput, matrix: MatrixPayload, path: JsonPath): LatticeBasisClaim {
  requireIntegerMatrix(matrix, input.matrix_uri !== undefined ? [...path, 'matrix_uri'] : [...path, 'matrix', 'ring'], 'an LLL claim');
  const delta = parseDelta(input.delta, [...path, 'delta']);
  const Z = resolveMatrixRing({ kind: 'Z' });
  const rows = (values: readonly (readonly (string | number)[])[], field: string): string[][] => values.map((row, i) => canonicalVector(row, Z, [...path, field, i]));
  return { matrix, delta: delta.text, reduced: rows(input.reduced, 'reduced'), transform: rows(input.transform, 'transform') };
}
