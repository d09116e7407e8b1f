/**
 * Contracts of the counting capabilities (binomials and multinomials, Stirling numbers, Bell,
 * Catalan and derangement numbers, integer partitions and compositions): their requests with
 * every size limit, validated whole before anything is computed, and their answers. Every count
 * is an exact non-negative (signed Stirling numbers of the first kind: any) decimal integer as text.
 */
import { z } from 'zod';

/** Size limits: each chosen so that the largest admitted request computes in about a second on one core. */
export const COUNTING_LIMITS = {
  /** n of one binomial coefficient C(n, k) and the total of a multinomial. */
  binomialMaxN: 100_000,
  /** n of a whole row C(n, 0..n). */
  binomialRowMaxN: 2_000,
  /** Parts of a multinomial coefficient. */
  multinomialMaxParts: 1_000,
  /** n of Stirling numbers (one value or a row): the triangle recurrence is O(n·k). */
  stirlingMaxN: 1_000,
  bellMaxN: 1_000,
  catalanMaxN: 20_000,
  derangementMaxN: 10_000,
  /** n of partition counts: Euler's pentagonal recurrence O(n^1.5) unrestricted. */
  partitionMaxN: 10_000,
  compositionMaxN: 5_000,
  /** Allowed parts listed in a request. */
  maxAllowedParts: 1_000,
  /** Cells of a restricted dynamic programme (n · parts · (count + 1)). */
  maxWork: 20_000_000,
  /** Digits of all counts in one answer together (a table's sum). */
  maxOutputDigits: 2_000_000,
} as const;

const natural = (max: number, what: string): z.ZodNumber => z.number().int().min(0).max(max).describe(`${what}, 0..${max}`);

const tableField = z.boolean().optional().describe('true: every value for 0..n (a row or table) instead of the one at n');

/** combinatorics.binomial.compute */
export const BinomialRequestSchema = z
  .object({
    kind: z.enum(['binomial', 'multinomial']).default('binomial').describe('binomial C(n,k) or multinomial (k1+…+km)!/(k1!…km!)'),
    n: natural(COUNTING_LIMITS.binomialMaxN, 'n of C(n,k)').optional(),
    k: z.number().int().min(0).max(COUNTING_LIMITS.binomialMaxN).optional().describe('k of C(n,k); k > n gives 0'),
    parts: z.array(natural(COUNTING_LIMITS.binomialMaxN, 'a part')).min(1).max(COUNTING_LIMITS.multinomialMaxParts).optional().describe('multinomial: k1..km, total ≤ binomial max n'),
    row: z.boolean().optional().describe(`binomial: the whole row C(n,0..n), n ≤ ${COUNTING_LIMITS.binomialRowMaxN}`),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.kind === 'binomial') {
      if (input.parts !== undefined) ctx.addIssue({ code: 'custom', path: ['parts'], message: 'parts belong to kind multinomial (rule: field-kind)' });
      if (input.n === undefined) ctx.addIssue({ code: 'custom', path: ['n'], message: 'kind binomial needs n (rule: required)' });
      if (input.row === true) {
        if (input.k !== undefined) ctx.addIssue({ code: 'custom', path: ['k'], message: 'give k or row: true, not both (rule: row-or-k)' });
        if (input.n !== undefined && input.n > COUNTING_LIMITS.binomialRowMaxN) ctx.addIssue({ code: 'custom', path: ['n'], message: `a row needs n ≤ ${COUNTING_LIMITS.binomialRowMaxN} (rule: row-size)` });
      } else if (input.k === undefined) ctx.addIssue({ code: 'custom', path: ['k'], message: 'kind binomial needs k, or row: true (rule: required)' });
    } else {
      for (const field of ['n', 'k', 'row'] as const) if (input[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `${field} belongs to kind binomial; a multinomial takes parts (rule: field-kind)` });
      if (input.parts === undefined) ctx.addIssue({ code: 'custom', path: ['parts'], message: 'kind multinomial needs parts (rule: required)' });
      else if (input.parts.reduce((a, b) => a + b, 0) > COUNTING_LIMITS.binomialMaxN) ctx.addIssue({ code: 'custom', path: ['parts'], message: `the parts sum to at most ${COUNTING_LIMITS.binomialMaxN} (rule: total-size)` });
    }
  });
export type BinomialRequest = z.infer<typeof BinomialRequestSchema>;

/** combinatorics.stirling.compute */
export const StirlingRequestSchema = z
  .object({
    kind: z.enum(['second', 'first_unsigned', 'first_signed']).describe('second: S(n,k) set partitions into k blocks; first_unsigned: c(n,k) permutations with k cycles; first_signed: s(n,k) = (-1)^(n-k) c(n,k)'),
    n: natural(COUNTING_LIMITS.stirlingMaxN, 'n'),
    k: z.number().int().min(0).max(COUNTING_LIMITS.stirlingMaxN).optional().describe('k; omitted: the whole row k = 0..n'),
  })
  .strict();
export type StirlingRequest = z.infer<typeof StirlingRequestSchema>;

/** The largest n of each kind of combinatorics.number.compute. */
export const NUMBER_MAX_N = { bell: COUNTING_LIMITS.bellMaxN, catalan: COUNTING_LIMITS.catalanMaxN, derangement: COUNTING_LIMITS.derangementMaxN } as const;

/** combinatorics.number.compute */
export const CountingNumberRequestSchema = z
  .object({
    kind: z.enum(['bell', 'catalan', 'derangement']).describe('bell B(n): set partitions; catalan C(n): Dyck paths; derangement !n: fixed-point-free permutations'),
    n: z.number().int().min(0).max(COUNTING_LIMITS.catalanMaxN).describe(`n; at most bell ${NUMBER_MAX_N.bell}, catalan ${NUMBER_MAX_N.catalan}, derangement ${NUMBER_MAX_N.derangement}`),
    table: tableField,
  })
  .strict()
  .superRefine((input, ctx) => {
    const max = NUMBER_MAX_N[input.kind];
    if (input.n > max) ctx.addIssue({ code: 'custom', path: ['n'], message: `kind ${input.kind} needs n ≤ ${max} (rule: n-limit)` });
  });
export type CountingNumberRequest = z.infer<typeof CountingNumberRequestSchema>;

const allowedParts = z
  .array(z.number().int().min(1).max(COUNTING_LIMITS.partitionMaxN))
  .min(1)
  .max(COUNTING_LIMITS.maxAllowedParts)
  .optional()
  .describe('parts may only be these positive integers (distinct values)');

function distinctParts(parts: readonly number[] | undefined, ctx: z.RefinementCtx): void {
  if (parts !== undefined && new Set(parts).size !== parts.length) ctx.addIssue({ code: 'custom', path: ['parts_in'], message: 'list each allowed part once (rule: distinct-values)' });
}

/** combinatorics.partition.count */
export const PartitionRequestSchema = z
  .object({
    n: natural(COUNTING_LIMITS.partitionMaxN, 'the integer partitioned'),
    distinct: z.boolean().optional().describe('parts pairwise distinct (partitions into distinct parts, q(n))'),
    parts_in: allowedParts,
    max_part: z.number().int().min(1).optional().describe('every part ≤ this'),
    max_parts: z.number().int().min(0).optional().describe('at most this many parts'),
    exact_parts: z.number().int().min(0).optional().describe('exactly this many parts'),
    table: tableField,
  })
  .strict()
  .superRefine((input, ctx) => {
    distinctParts(input.parts_in, ctx);
    if (input.max_parts !== undefined && input.exact_parts !== undefined) ctx.addIssue({ code: 'custom', path: ['exact_parts'], message: 'give max_parts or exact_parts, not both (rule: one-count-bound)' });
  });
export type PartitionRequest = z.infer<typeof PartitionRequestSchema>;

/** combinatorics.composition.count */
export const CompositionRequestSchema = z
  .object({
    n: natural(COUNTING_LIMITS.compositionMaxN, 'the integer composed'),
    parts_in: allowedParts,
    min_part: z.number().int().min(1).optional().describe('every part ≥ this'),
    max_part: z.number().int().min(1).optional().describe('every part ≤ this'),
    exact_parts: z.number().int().min(0).optional().describe('exactly this many parts'),
    table: tableField,
  })
  .strict()
  .superRefine((input, ctx) => distinctParts(input.parts_in, ctx));
export type CompositionRequest = z.infer<typeof CompositionRequestSchema>;

/** The answer of every counting capability. */
export const CountingResultSchema = z
  .object({
    value: z.string().optional().describe('the count, exact, in decimal'),
    values: z.array(z.string()).optional().describe('row or table: values in order (index k or n from 0)'),
    digits: z.number().int().describe('decimal digits of the largest value'),
    method: z.string().describe('the algorithm used and its cost'),
  })
  .strict();
export type CountingResult = z.infer<typeof CountingResultSchema>;
