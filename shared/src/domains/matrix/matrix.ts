/**
 * Dense matrices over Z, Q and GF(p): the request form (a ring and rows of entries written as
 * integers or "p/q" strings), the canonical stored form, and the validation both go through. The
 * fields Q and GF(p) are the polynomial core's (field.ts); Z is the integers, written the same way
 * as Q's integers.
 */
import { z } from 'zod';
import { JacobianError, type JsonPath } from '../../errors.js';
import { fieldFromSpec, FieldSpecSchema, makeRational, RATIONALS, type AnyField } from '../polynomial/field.js';
import { MATRIX_LIMITS, MAX_ENTRY_DIGITS } from './limits.js';

/** Schema and semantics URIs of a stored dense matrix. */
export const MATRIX_SCHEMA_URI = 'jacobian:schema/matrix.dense/v1';
export const MATRIX_SEMANTICS_URI = 'jacobian:semantics/matrix.dense.row_major/v1';

/** The rules a matrix can break, named in every error about one. */
export const MatrixRule = {
  /** An entry is not an integer or a fraction "p/q" in decimal. */
  ENTRY_SYNTAX: 'entry-syntax',
  /** A fraction where the ring is Z. */
  INTEGER_ENTRY: 'integer-entry',
  ZERO_DENOMINATOR: 'zero-denominator',
  /** Over GF(p), a denominator divisible by p has no inverse. */
  DENOMINATOR_DIVISIBLE_BY_P: 'denominator-divisible-by-p',
  /** An integer, numerator or denominator of more than MATRIX_LIMITS.maxEntryBits bits. */
  ENTRY_SIZE: 'entry-size',
  /** Rows of different lengths. */
  RAGGED_ROWS: 'ragged-rows',
  /** A dimension that disagrees with the rows, or beyond the limits. */
  DIMENSIONS: 'dimensions',
  /** GF(p) with p not prime. */
  PRIME: 'prime',
  /** An entry of a stored matrix that is not in canonical form. */
  CANONICAL: 'canonical-entry',
  /** A polynomial coefficient longer than any coefficient of a polynomial whose roots are eigenvalues of the matrix can be (coefficient-bounds.ts). */
  COEFFICIENT_SIZE: 'coefficient-size',
  /** A similarity transform's entries longer than a claim the artifact store can hold allows (rational-canonical-form-claim.ts). */
  TRANSFORM_SIZE: 'transform-size',
} as const;
export type MatrixRule = (typeof MatrixRule)[keyof typeof MatrixRule];

/** The ring of a matrix's entries: Z, Q, or GF(p) for a prime p. */
export const MatrixRingSchema = z
  .discriminatedUnion('kind', [z.object({ kind: z.literal('Z') }).strict().describe('the integers'), ...FieldSpecSchema.options])
  .describe('the ring of the entries: {"kind": "Z"}, {"kind": "Q"} or {"kind": "GF", "characteristic": "<prime p>"}')
  .meta({ id: 'matrix_ring' });
export type MatrixRing = z.infer<typeof MatrixRingSchema>;

/** A ring made concrete: its spec and, for Q and GF(p), the polynomial core's field (null for Z). */
export interface ResolvedMatrixRing {
  readonly spec: MatrixRing;
  readonly field: AnyField | null;
  /** "Z", "Q" or "GF(p)", for messages. */
  readonly name: string;
}

/**
 * Resolve a ring spec; GF(p) checks that p is prime.
 *
 * @throws JacobianError INVALID_REQUEST at `[...path, 'characteristic']` with rule `prime`.
 */
export function resolveMatrixRing(spec: MatrixRing, path: JsonPath = ['ring']): ResolvedMatrixRing {
  if (spec.kind === 'Z') return { spec, field: null, name: 'Z' };
  try {
    const field = fieldFromSpec(spec, path);
    return { spec, field, name: field.name };
  } catch (error) {
    if (!(error instanceof JacobianError)) throw error;
    throw new JacobianError('INVALID_REQUEST', `${error.message} (rule ${MatrixRule.PRIME})`, { path: [...path, 'characteristic'], data: { rule: MatrixRule.PRIME } });
  }
}

/** One entry as a request writes it: a JSON integer (safe), or a decimal integer or fraction string. */
export const MatrixEntrySchema = z
  .union([
    z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
    z.string().min(1).max(MATRIX_LIMITS.maxEntryTextLength),
  ])
  .describe('an integer (JSON number up to 2^53, or a decimal string such as "-12345678901234567890") or, over Q and GF(p), a fraction "p/q" such as "-3/4"')
  .meta({ id: 'matrix_entry' });
export type MatrixEntry = z.infer<typeof MatrixEntrySchema>;

const ENTRY_TEXT = /^(-?)([0-9]+)(?:\/([0-9]+))?$/;
/** An entry that breaks a rule: which rule, and what is wrong, in words. */
export interface EntryProblem {
  rule: MatrixRule;
  message: string;
}

/** How large a number may be: |numerator| < 2^numeratorBits and denominator < 2^denominatorBits (and its text at most maxTextLength long, when given), else `rule`, explained by `why`. */
export interface EntrySizeLimit {
  readonly numeratorBits: number;
  readonly denominatorBits: number;
  readonly maxTextLength?: number;
  readonly rule: MatrixRule;
  readonly why: string;
}

/** The limit of matrix entries: MATRIX_LIMITS.maxEntryBits for the numerator and the denominator. */
const ENTRY_SIZE_LIMIT: EntrySizeLimit = { numeratorBits: MATRIX_LIMITS.maxEntryBits, denominatorBits: MATRIX_LIMITS.maxEntryBits, rule: MatrixRule.ENTRY_SIZE, why: `entries are limited to ${MATRIX_LIMITS.maxEntryBits} bits (limits.max_entry_bits)` };
const ENTRY_LIMIT = 1n << BigInt(MATRIX_LIMITS.maxEntryBits);

/** Decimal digits of the largest integer below 2^bits. */
const digitsBelow = (bits: number): number => (bits <= 0 ? 0 : Math.ceil(bits * Math.log10(2)));

function digitsOf(text: string): number {
  let start = 0;
  while (start < text.length - 1 && text[start] === '0') start++;
  return text.length - start;
}

/**
 * Check one entry against every rule of `ring` without reducing it: its numerator and
 * denominator (1 for integers), or the rule it breaks. Cheap (no gcd), so that validation costs
 * little more than reading; {@link canonicalEntry} reduces.
 */
export function checkEntry(value: MatrixEntry, ring: ResolvedMatrixRing, size: EntrySizeLimit = ENTRY_SIZE_LIMIT): { num: bigint; den: bigint } | EntryProblem {
  const text = typeof value === 'number' ? String(value) : value;
  if (size.maxTextLength !== undefined && text.length > size.maxTextLength) return { rule: size.rule, message: `${text.length} characters, more than ${size.maxTextLength} (${size.why})` };
  const match = ENTRY_TEXT.exec(text);
  if (match === null) {
    return { rule: MatrixRule.ENTRY_SYNTAX, message: `"${text.slice(0, 40)}" is not an integer or a fraction p/q in decimal (digits, an optional leading "-", at most one "/")` };
  }
  const [, sign, numText = '', denText] = match;
  const entries = size === ENTRY_SIZE_LIMIT;
  // Digits first, so that BigInt() never sees a text beyond the limit.
  const numDigits = entries ? MAX_ENTRY_DIGITS : digitsBelow(size.numeratorBits);
  const denDigits = entries ? MAX_ENTRY_DIGITS : digitsBelow(size.denominatorBits);
  if (digitsOf(numText) > numDigits || (denText !== undefined && digitsOf(denText) > denDigits)) {
    return { rule: size.rule, message: `has more than ${numDigits} digits in its numerator or ${denDigits} in its denominator (${size.why})` };
  }
  const num = sign === '-' ? -BigInt(numText) : BigInt(numText);
  const den = denText === undefined ? 1n : BigInt(denText);
  const numLimit = entries ? ENTRY_LIMIT : 1n << BigInt(size.numeratorBits);
  const denLimit = entries ? ENTRY_LIMIT : 1n << BigInt(size.denominatorBits);
  if ((num < 0n ? -num : num) >= numLimit || den >= denLimit) {
    return { rule: size.rule, message: `has more than ${size.numeratorBits} bits in its numerator or ${size.denominatorBits} in its denominator (${size.why})` };
  }
  if (den === 0n) return { rule: MatrixRule.ZERO_DENOMINATOR, message: `"${text.slice(0, 40)}" has a zero denominator` };
  const field = ring.field;
  if (field === null && denText !== undefined) {
    return { rule: MatrixRule.INTEGER_ENTRY, message: `"${text.slice(0, 40)}" is a fraction, but the ring is Z (use ring {"kind": "Q"} for rational entries)` };
  }
  if (field?.kind === 'GF' && den % field.characteristic === 0n) {
    return { rule: MatrixRule.DENOMINATOR_DIVISIBLE_BY_P, message: `"${text.slice(0, 40)}" has a denominator divisible by the characteristic ${field.characteristic}, which has no inverse in ${field.name}` };
  }
  return { num, den };
}

/**
 * The canonical text of one entry in `ring`, or the rule it breaks: integers in decimal without
 * leading zeros ("-0" is "0"); over Q fractions in lowest terms with a positive denominator ("4/2"
 * is "2"); over GF(p) the least non-negative residue (a fraction is num·den⁻¹ mod p).
 */
export function canonicalEntry(value: MatrixEntry, ring: ResolvedMatrixRing, size?: EntrySizeLimit): { text: string } | EntryProblem {
  const entry = checkEntry(value, ring, size);
  if ('rule' in entry) return entry;
  const { num, den } = entry;
  const field = ring.field;
  if (field === null) return { text: num.toString() };
  if (field.kind === 'Q') return { text: RATIONALS.format(makeRational(num, den)) };
  return { text: formatResidue(field, num, den) };
}

/** num/den in GF(p), printed; the field's element type stays inside. */
function formatResidue(field: AnyField, num: bigint, den: bigint): string {
  const f = field as { fromFraction(n: bigint, d: bigint): unknown; format(a: unknown): string };
  return f.format(f.fromFraction(num, den));
}

function problemError(problem: EntryProblem, path: JsonPath, where: string): JacobianError {
  return new JacobianError('INVALID_REQUEST', `${where}: ${problem.message} (rule ${problem.rule})`, { path, data: { rule: problem.rule } });
}

/**
 * Canonical texts of a vector of entries (a right-hand side), in `ring`; each within the entry
 * limit, or within `size(i)` when given (polynomial coefficients have their own bound).
 *
 * @throws JacobianError INVALID_REQUEST at `[...path, i]` naming the entry and rule.
 */
export function canonicalVector(values: readonly MatrixEntry[], ring: ResolvedMatrixRing, path: JsonPath, size?: (i: number) => EntrySizeLimit): string[] {
  return values.map((value, i) => {
    const entry = canonicalEntry(value, ring, size?.(i));
    if ('rule' in entry) throw problemError(entry, [...path, i], `entry ${i}`);
    return entry.text;
  });
}

/** A matrix as a request gives it: the ring and the rows, each a list of entries. */
export const ExplicitMatrixSchema = z
  .object({
    ring: MatrixRingSchema,
    rows: z
      .array(z.array(MatrixEntrySchema).min(1).max(MATRIX_LIMITS.maxColumns))
      .min(1)
      .max(MATRIX_LIMITS.maxRows)
      .describe(`the rows, top to bottom, each a list of the same number of entries (at most ${MATRIX_LIMITS.maxRows} rows and ${MATRIX_LIMITS.maxColumns} columns)`),
  })
  .strict()
  .superRefine((matrix, ctx) => {
    let ring: ResolvedMatrixRing;
    try {
      ring = resolveMatrixRing(matrix.ring);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['ring', 'characteristic'], message: error instanceof Error ? error.message : String(error) });
      return;
    }
    const problem = findMatrixProblem(matrix.rows, ring);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  })
  .meta({ id: 'explicit_matrix' });
export type ExplicitMatrix = z.infer<typeof ExplicitMatrixSchema>;

/** The first rule the rows break, with its path relative to the matrix (['rows', i, j]) and a message naming the row and column. */
function findMatrixProblem(rows: readonly (readonly MatrixEntry[])[], ring: ResolvedMatrixRing): { path: JsonPath; message: string; rule: MatrixRule } | null {
  const width = rows[0]?.length ?? 0;
  for (const [i, row] of rows.entries()) {
    if (row.length !== width) {
      return { path: ['rows', i], rule: MatrixRule.RAGGED_ROWS, message: `row ${i} has ${row.length} entries but row 0 has ${width}; every row must have the same length (rule ${MatrixRule.RAGGED_ROWS})` };
    }
  }
  for (const [i, row] of rows.entries()) {
    for (const [j, value] of row.entries()) {
      const entry = checkEntry(value, ring);
      if ('rule' in entry) return { path: ['rows', i, j], rule: entry.rule, message: `row ${i}, column ${j}: ${entry.message} (rule ${entry.rule})` };
    }
  }
  return null;
}

/**
 * A stored matrix: the ring, the dimensions, and the rows of canonical entry texts (see
 * {@link canonicalEntry}). Row i, column j is `rows[i][j]`, counted from 0.
 */
export const MatrixPayloadSchema = z
  .object({
    ring: MatrixRingSchema,
    nrows: z.number().int().min(1).max(MATRIX_LIMITS.maxRows),
    ncols: z.number().int().min(1).max(MATRIX_LIMITS.maxColumns),
    rows: z.array(z.array(z.string().max(MATRIX_LIMITS.maxEntryTextLength))),
  })
  .strict()
  .superRefine((matrix, ctx) => {
    let ring: ResolvedMatrixRing;
    try {
      ring = resolveMatrixRing(matrix.ring);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['ring', 'characteristic'], message: error instanceof Error ? error.message : String(error) });
      return;
    }
    if (matrix.rows.length !== matrix.nrows) {
      ctx.addIssue({ code: 'custom', path: ['rows'], message: `has ${matrix.rows.length} rows, not nrows = ${matrix.nrows} (rule ${MatrixRule.DIMENSIONS})` });
      return;
    }
    for (const [i, row] of matrix.rows.entries()) {
      if (row.length !== matrix.ncols) {
        ctx.addIssue({ code: 'custom', path: ['rows', i], message: `row ${i} has ${row.length} entries, not ncols = ${matrix.ncols} (rule ${MatrixRule.DIMENSIONS})` });
        return;
      }
      for (const [j, text] of row.entries()) {
        const entry = canonicalEntry(text, ring);
        if ('rule' in entry || entry.text !== text) {
          const why = 'rule' in entry ? `${entry.message} (rule ${entry.rule})` : `"${text.slice(0, 40)}" is not canonical (it is ${entry.text.slice(0, 40)}) (rule ${MatrixRule.CANONICAL})`;
          ctx.addIssue({ code: 'custom', path: ['rows', i, j], message: `row ${i}, column ${j}: ${why}` });
          return;
        }
      }
    }
  });
export type MatrixPayload = z.infer<typeof MatrixPayloadSchema>;

/**
 * The canonical payload of a validated request matrix (ExplicitMatrixSchema has checked every
 * rule). Pure: equal matrices give equal payloads however their entries were written.
 */
export function canonicalMatrix(matrix: ExplicitMatrix): MatrixPayload {
  const ring = resolveMatrixRing(matrix.ring);
  const rows = matrix.rows.map((row, i) =>
    row.map((value, j) => {
      const entry = canonicalEntry(value, ring);
      if ('rule' in entry) throw problemError(entry, ['rows', i, j], `row ${i}, column ${j}`);
      return entry.text;
    }),
  );
  return { ring: matrix.ring, nrows: rows.length, ncols: rows[0]?.length ?? 0, rows };
}

/**
 * Check a matrix given in request form and return its canonical payload, or throw
 * INVALID_REQUEST at `[...path, 'rows', i, j]` naming the row, column and rule (for matrices that
 * reach code without passing a request schema, such as the kernels' inputs).
 */
export function parseExplicitMatrix(input: unknown, path: JsonPath): MatrixPayload {
  const parsed = ExplicitMatrixSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const rel = (issue?.path ?? []).map((p) => (typeof p === 'symbol' ? String(p) : p));
    throw new JacobianError('INVALID_REQUEST', `${[...path, ...rel].join('.')}: ${issue?.message ?? 'not a matrix'}`, { path: [...path, ...rel] });
  }
  return canonicalMatrix(parsed.data);
}

/**
 * Parse a stored matrix payload (from an artifact, or across a process boundary).
 *
 * @throws JacobianError ARTIFACT_TYPE_MISMATCH naming `path` when it is not a canonical matrix.
 */
export function parseStoredMatrix(payload: unknown, path: JsonPath): MatrixPayload {
  const parsed = MatrixPayloadSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `stored matrix is not a canonical dense matrix: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`, { path });
  }
  return parsed.data;
}

/** "3×4 over GF(7)", for scopes and messages. */
export function matrixShape(matrix: Pick<MatrixPayload, 'nrows' | 'ncols' | 'ring'>): string {
  const ring = matrix.ring.kind === 'GF' ? `GF(${matrix.ring.characteristic})` : matrix.ring.kind;
  return `${matrix.nrows}×${matrix.ncols} over ${ring}`;
}
