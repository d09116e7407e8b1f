/**
 * Sequences and their recurrences, as requests, results and stored claims carry them.
 *
 * A sequence is a list of exact terms a(offset), a(offset + 1), … (integers or rationals written
 * as decimal text, "-3", "7/2"; JSON integers are accepted and written back as text). Two kinds
 * of recurrence:
 *
 * - C-finite (linear with constant coefficients) of order d: a(n) = c_1 a(n-1) + … + c_d a(n-d)
 *   for every n ≥ valid_from, with c_i in Q;
 * - P-recursive (holonomic) of order r and degree d: p_0(n) a(n) + p_1(n) a(n-1) + … + p_r(n) a(n-r) = 0
 *   for every n ≥ valid_from, each p_i a polynomial in n of degree ≤ d over Q, given by its
 *   coefficients lowest degree first.
 *
 * The claim "this recurrence holds on terms from..to of this sequence" checks the relation at every
 * n with from ≤ n ≤ to; every term it reads must be supplied. Nothing here says anything about
 * terms not supplied.
 */
import { z } from 'zod';
import { fileURLToPath } from 'node:url';
import { JacobianError, type JsonPath } from '../../errors.js';
import { bigGcd, makeRational, type Rational } from '../polynomial/field.js';

export const SEQUENCE_LIMITS = Object.freeze({
  /** Terms in one sequence. */
  maxTerms: 5000,
  /** Digits of one term (numerator and denominator each). */
  maxTermDigits: 20_000,
  /** Digits of all terms of one sequence together. */
  maxTotalDigits: 4_000_000,
  /** Order of a C-finite recurrence. */
  maxCFiniteOrder: 2500,
  /** Order and degree of a P-recursive recurrence. */
  maxPOrder: 24,
  maxPDegree: 24,
  /** Unknowns (r + 1)(d + 1) of a P-recursive guess. */
  maxPUnknowns: 300,
  /** Largest first index (offset) and index a request may name. */
  maxIndex: 1_000_000,
});

/** The rules a bad sequence request breaks, named in its INVALID_REQUEST. */
export const SequenceRule = {
  TERM_SYNTAX: 'term-syntax',
  TERM_DIGITS: 'term-digits',
  TOTAL_DIGITS: 'total-digits',
  ZERO_DENOMINATOR: 'zero-denominator',
  ZERO_RECURRENCE: 'zero-recurrence',
  DEGREE_SHAPE: 'degree-shape',
  VALID_FROM: 'valid-from',
  RANGE: 'range',
  TOO_FEW_TERMS: 'too-few-terms',
} as const;
export type SequenceRule = (typeof SequenceRule)[keyof typeof SequenceRule];

export const SEQUENCE_CLAIM_SCHEMA_URI = 'jacobian:schema/sequence.recurrence.claim/v1';
export const SEQUENCE_CLAIM_SEMANTICS_URI = 'jacobian:semantics/sequence.recurrence.holds_on_range/v1';

/** The files of this core, for a SOURCE_TREE digest. */
export const SEQUENCE_SOURCES: readonly string[] = [fileURLToPath(import.meta.url)];

function invalid(message: string, path: JsonPath, rule: SequenceRule): JacobianError {
  return new JacobianError('INVALID_REQUEST', message, { path, data: { rule } });
}

const TERM_TEXT = /^-?(0|[1-9][0-9]*)(\/[0-9]+)?$/;

/** One exact term: "-12", "7/2" (lowest terms not required), or a JSON integer. */
export const SequenceTermSchema = z
  .union([z.string().max(2 * SEQUENCE_LIMITS.maxTermDigits + 2), z.number().int().refine(Number.isSafeInteger, 'a JSON integer must be a safe integer; write larger ones as text')])
  .describe('an exact integer or rational: "-12", "7/2", or a JSON integer');
export type SequenceTerm = z.infer<typeof SequenceTermSchema>;

/** Read one term exactly; throws INVALID_REQUEST naming the path and rule. */
export function parseSequenceTerm(value: SequenceTerm, path: JsonPath): Rational {
  if (typeof value === 'number') return makeRational(BigInt(value), 1n);
  if (!TERM_TEXT.test(value) || value.startsWith('-0')) throw invalid(`"${value.slice(0, 40)}" is not an integer or rational in decimal, e.g. "-12" or "7/2"`, path, SequenceRule.TERM_SYNTAX);
  const slash = value.indexOf('/');
  const numText = slash < 0 ? value : value.slice(0, slash);
  const denText = slash < 0 ? '1' : value.slice(slash + 1);
  if (numText.replace('-', '').length > SEQUENCE_LIMITS.maxTermDigits || denText.length > SEQUENCE_LIMITS.maxTermDigits) throw invalid(`a term has more than ${SEQUENCE_LIMITS.maxTermDigits} digits`, path, SequenceRule.TERM_DIGITS);
  const den = BigInt(denText);
  if (den === 0n) throw invalid('a term has denominator 0', path, SequenceRule.ZERO_DENOMINATOR);
  return makeRational(BigInt(numText), den);
}

/** Canonical text of an exact number. */
export function formatSequenceTerm(a: Rational): string {
  return a.den === 1n ? a.num.toString() : `${a.num}/${a.den}`;
}

/** Read a list of terms, checking the total size too. */
export function parseSequenceTerms(values: readonly SequenceTerm[], path: JsonPath): Rational[] {
  let digits = 0;
  for (const v of values) digits += typeof v === 'number' ? 16 : v.length;
  if (digits > SEQUENCE_LIMITS.maxTotalDigits) throw invalid(`the terms have ${digits} characters together, over ${SEQUENCE_LIMITS.maxTotalDigits}`, path, SequenceRule.TOTAL_DIGITS);
  return values.map((v, i) => parseSequenceTerm(v, [...path, i]));
}

const Index = z.number().int().min(0).max(SEQUENCE_LIMITS.maxIndex);

export const SequenceSchema = z
  .object({
    terms: z.array(SequenceTermSchema).min(1).max(SEQUENCE_LIMITS.maxTerms).describe('the terms a(offset), a(offset+1), … in order'),
    offset: Index.default(0).describe('the index of the first term (OEIS offset), default 0'),
  })
  .strict();
export type SequenceInput = z.input<typeof SequenceSchema>;
export type Sequence = z.infer<typeof SequenceSchema>;

export const CFiniteRecurrenceSchema = z
  .object({
    kind: z.literal('c-finite'),
    coefficients: z.array(SequenceTermSchema).max(SEQUENCE_LIMITS.maxCFiniteOrder).describe('[c_1, …, c_d]: a(n) = c_1 a(n-1) + … + c_d a(n-d); the order d is their number'),
    valid_from: Index.describe('the least n at which the relation is claimed; at least offset + d'),
  })
  .strict()
  .describe('C-finite (constant-coefficient linear) recurrence');

export const PRecursiveRecurrenceSchema = z
  .object({
    kind: z.literal('p-recursive'),
    order: z.number().int().min(0).max(SEQUENCE_LIMITS.maxPOrder),
    degree: z.number().int().min(0).max(SEQUENCE_LIMITS.maxPDegree),
    coefficients: z
      .array(z.array(SequenceTermSchema).max(SEQUENCE_LIMITS.maxPDegree + 1))
      .max(SEQUENCE_LIMITS.maxPOrder + 1)
      .describe('[p_0, …, p_r], each p_i(n) as its coefficients lowest degree first: Σ_i p_i(n) a(n-i) = 0'),
    valid_from: Index.describe('the least n at which the relation is claimed; at least offset + r'),
  })
  .strict()
  .describe('P-recursive (holonomic) recurrence with polynomial coefficients in n');

export const RecurrenceSchema = z.discriminatedUnion('kind', [CFiniteRecurrenceSchema, PRecursiveRecurrenceSchema]);
export type RecurrenceInput = z.input<typeof RecurrenceSchema>;

/** A recurrence read exactly. */
export type Recurrence =
  | { kind: 'c-finite'; coefficients: Rational[]; validFrom: number }
  | { kind: 'p-recursive'; order: number; degree: number; coefficients: Rational[][]; validFrom: number };

export function recurrenceOrder(rec: Recurrence): number {
  return rec.kind === 'c-finite' ? rec.coefficients.length : rec.order;
}

/** Read a recurrence exactly; its shape (order, degree, not all zero) checked, each failure naming path and rule. */
export function parseRecurrence(input: z.infer<typeof RecurrenceSchema>, path: JsonPath): Recurrence {
  if (input.kind === 'c-finite') return { kind: 'c-finite', coefficients: input.coefficients.map((c, i) => parseSequenceTerm(c, [...path, 'coefficients', i])), validFrom: input.valid_from };
  if (input.coefficients.length !== input.order + 1) throw invalid(`a P-recursive recurrence of order ${input.order} has ${input.order + 1} polynomials p_0..p_${input.order}; ${input.coefficients.length} given`, [...path, 'coefficients'], SequenceRule.DEGREE_SHAPE);
  const coefficients = input.coefficients.map((p, i) => {
    if (p.length > input.degree + 1) throw invalid(`p_${i} has ${p.length} coefficients, more than degree ${input.degree} allows`, [...path, 'coefficients', i], SequenceRule.DEGREE_SHAPE);
    const parsed = p.map((c, k) => parseSequenceTerm(c, [...path, 'coefficients', i, k]));
    while (parsed.length < input.degree + 1) parsed.push(makeRational(0n, 1n));
    return parsed;
  });
  if (coefficients.every((p) => p.every((c) => c.num === 0n))) throw invalid('every coefficient polynomial is zero: that relation says nothing', [...path, 'coefficients'], SequenceRule.ZERO_RECURRENCE);
  return { kind: 'p-recursive', order: input.order, degree: input.degree, coefficients, validFrom: input.valid_from };
}

/** The recurrence written back in its request form, canonical texts. */
export function recurrenceToJson(rec: Recurrence): z.infer<typeof RecurrenceSchema> {
  return rec.kind === 'c-finite'
    ? { kind: 'c-finite', coefficients: rec.coefficients.map(formatSequenceTerm), valid_from: rec.validFrom }
    : { kind: 'p-recursive', order: rec.order, degree: rec.degree, coefficients: rec.coefficients.map((p) => p.map(formatSequenceTerm)), valid_from: rec.validFrom };
}

/** Terms joined with their signs: ["2", "-4·n"] → "2 - 4·n". */
function signedSum(parts: readonly string[]): string {
  return parts.map((part, i) => (i === 0 ? part : part.startsWith('-') ? `- ${part.slice(1)}` : `+ ${part}`)).join(' ');
}

/** c·x with a coefficient of 1 or -1 written as x or -x. */
function times(c: Rational, x: string): string {
  if (x === '') return formatSequenceTerm(c);
  return c.den === 1n && c.num === 1n ? x : c.den === 1n && c.num === -1n ? `-${x}` : `${formatSequenceTerm(c)}·${x}`;
}

/** The recurrence in words, e.g. "a(n) = a(n-1) + a(n-2) for n ≥ 2". */
export function describeRecurrence(rec: Recurrence): string {
  const poly = (p: Rational[]): string => {
    const parts = p.flatMap((c, k) => (c.num === 0n ? [] : [times(c, k === 0 ? '' : k === 1 ? 'n' : `n^${k}`)]));
    return parts.length === 0 ? '0' : parts.length === 1 ? (parts[0] as string) : `(${signedSum(parts)})`;
  };
  if (rec.kind === 'c-finite') {
    const terms = rec.coefficients.flatMap((c, i) => (c.num === 0n ? [] : [times(c, `a(n-${i + 1})`)]));
    return `a(n) = ${terms.length === 0 ? '0' : signedSum(terms)} for n ≥ ${rec.validFrom}`.slice(0, 1500);
  }
  const terms = rec.coefficients.flatMap((p, i) => {
    if (p.every((c) => c.num === 0n)) return [];
    const a = `a(n${i === 0 ? '' : `-${i}`})`;
    const q = poly(p);
    return [q === '1' ? a : q === '-1' ? `-${a}` : `${q}·${a}`];
  });
  return `${signedSum(terms)} = 0 for n ≥ ${rec.validFrom}`.slice(0, 1500);
}

/** The request form of the claim "the recurrence holds at every n with from ≤ n ≤ to". */
export const RecurrenceClaimInputSchema = z
  .object({
    sequence: SequenceSchema,
    recurrence: RecurrenceSchema,
    from: Index.optional().describe('first n checked; default max(valid_from, offset + order)'),
    to: Index.optional().describe('last n checked; default the last supplied index'),
  })
  .strict();
export type RecurrenceClaimInput = z.input<typeof RecurrenceClaimInputSchema>;

/** The stored claim: canonical texts, the range explicit. */
export const RecurrenceClaimSchema = z
  .object({
    sequence: z.object({ terms: z.array(z.string()).min(1).max(SEQUENCE_LIMITS.maxTerms), offset: Index }).strict(),
    recurrence: RecurrenceSchema,
    from: Index,
    to: Index,
  })
  .strict();
export type RecurrenceClaim = z.infer<typeof RecurrenceClaimSchema>;

/** The claim made canonical and its range checked against the supplied terms (rule `range`, `valid-from`). */
export function canonicalRecurrenceClaim(input: z.infer<typeof RecurrenceClaimInputSchema>, path: JsonPath): { claim: RecurrenceClaim; terms: Rational[]; recurrence: Recurrence } {
  const terms = parseSequenceTerms(input.sequence.terms, [...path, 'sequence', 'terms']);
  const recurrence = parseRecurrence(input.recurrence, [...path, 'recurrence']);
  const offset = input.sequence.offset;
  const order = recurrenceOrder(recurrence);
  const last = offset + terms.length - 1;
  if (recurrence.validFrom < offset + order) throw invalid(`valid_from ${recurrence.validFrom} is below offset + order = ${offset + order}: the relation there reads terms before the first`, [...path, 'recurrence', 'valid_from'], SequenceRule.VALID_FROM);
  const from = input.from ?? recurrence.validFrom;
  const to = input.to ?? last;
  if (from < recurrence.validFrom) throw invalid(`from = ${from} is below valid_from = ${recurrence.validFrom}`, [...path, 'from'], SequenceRule.RANGE);
  if (to > last) throw invalid(`to = ${to} is past the last supplied index ${last}`, [...path, 'to'], SequenceRule.RANGE);
  if (from > to) throw invalid(`the range ${from}..${to} is empty: the supplied terms ${offset}..${last} leave no n ≥ ${recurrence.validFrom} to check`, [...path, input.from === undefined ? 'sequence' : 'from'], SequenceRule.RANGE);
  return { claim: { sequence: { terms: terms.map(formatSequenceTerm), offset }, recurrence: recurrenceToJson(recurrence), from, to }, terms, recurrence };
}

/** The lcm of the denominators of some rationals. */
export function denominatorLcm(values: readonly Rational[]): bigint {
  let l = 1n;
  for (const a of values) if (a.den !== 1n) l = (l / bigGcd(l, a.den)) * a.den;
  return l;
}
