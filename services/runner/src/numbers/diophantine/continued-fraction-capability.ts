/** diophantine.continued_fraction.compute: the continued fraction of a rational or a real quadratic irrational, exactly. */
import { z } from 'zod';
import { DIOPHANTINE_LIMITS, isSquare, JacobianError, type CapabilityDefinition, type ProviderRuntime } from '@jacobian/shared';
import { DIOPHANTINE_VERSION, EngineSchema, engineRecord, exactOutcome, integerInput, runDiophantine } from './support.js';

export const CONTINUED_FRACTION_ID = 'diophantine.continued_fraction.compute';
const DIGITS = DIOPHANTINE_LIMITS.maxInputDigits;
const MAX_TERMS = 200_000;

export const ContinuedFractionInput = z
  .object({
    number: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('rational'), numerator: integerInput(DIGITS), denominator: integerInput(DIGITS) }).strict().describe('p/q, q ≠ 0'),
        z
          .object({ kind: z.literal('quadratic'), P: integerInput(DIGITS), D: integerInput(DIGITS, 'positive'), Q: integerInput(DIGITS) })
          .strict()
          .describe('(P + √D)/Q with D > 0 not a perfect square and Q ≠ 0, e.g. √7 is P = 0, D = 7, Q = 1'),
      ])
      .describe('the number to expand'),
    convergents: z.number().int().min(0).max(1000).default(10).describe('how many convergents p_k/q_k to list (default 10; at most the number of terms for a rational)'),
    max_terms: z.number().int().min(1).max(MAX_TERMS).default(10_000).describe('most terms of pre-period plus period before the run stops with OUTPUT_LIMIT_EXCEEDED (default 10000)'),
  })
  .strict();
export type ContinuedFractionInput = z.infer<typeof ContinuedFractionInput>;

const Convergent = z.object({ p: z.string(), q: z.string() }).strict();
export const ContinuedFractionOutput = z
  .object({
    kind: z.enum(['FINITE', 'PERIODIC']),
    terms: z.array(z.string()).nullable().describe('FINITE: [a0; a1, …, an] (the last term ≥ 2 unless n = 0); null for PERIODIC'),
    preperiod: z.array(z.string()).nullable().describe('PERIODIC: the terms before the period'),
    period: z.array(z.string()).nullable().describe('PERIODIC: one period, repeated forever'),
    notation: z.string().describe('the expansion written out, e.g. "[1; (2)]" for √2, period in parentheses'),
    convergents: z.array(Convergent).describe('p_k/q_k of the first terms, in lowest terms'),
    normalized: z.object({ P: z.string(), D: z.string(), Q: z.string() }).strict().nullable().describe('PERIODIC: the same number as (P + √D)/Q with Q | D − P², as the algorithm works'),
    recheck: z.string(),
    engine: EngineSchema,
  })
  .strict();
export type ContinuedFractionOutput = z.infer<typeof ContinuedFractionOutput>;

const short = (terms: readonly string[]): string => (terms.length > 40 ? `${terms.slice(0, 40).join(', ')}, … (${terms.length} terms)` : terms.join(', '));

export function continuedFractionCompute(runtime: ProviderRuntime): CapabilityDefinition<ContinuedFractionInput, ContinuedFractionOutput> {
  return {
    id: CONTINUED_FRACTION_ID,
    version: DIOPHANTINE_VERSION,
    title: 'Continued fraction expansion (rational or quadratic irrational) with convergents',
    description:
      'The simple continued fraction [a0; a1, a2, …] of a rational p/q (finite, by the Euclidean algorithm) or of a real quadratic irrational (P + √D)/Q (eventually periodic by Lagrange\'s theorem: the pre-period and one period), exactly on big integers, with the convergents p_k/q_k (best rational approximations). Rechecked: a finite expansion folds back to p/q; a periodic one is shown to equal the number in exact Q(√D) arithmetic (the purely periodic tail satisfies the quadratic equation of its period). Example: √7 = [2; (1, 1, 1, 4)].',
    tags: ['number-theory', 'diophantine', 'continued-fraction', 'exact', 'typescript'],
    keywords: ['continued fraction', 'simple continued fraction', 'regular continued fraction', 'convergents', 'partial quotients', 'best rational approximation', 'periodic continued fraction', 'quadratic irrational', 'Lagrange theorem', 'continued fraction of sqrt', 'Euclidean algorithm', 'contfrac', 'ContinuedFraction'],
    domain: 'number_theory',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [],
    input: ContinuedFractionInput,
    output: ContinuedFractionOutput,
    examples: [
      { title: '415/93 = [4; 2, 6, 7]', mode: 'EXPLORE', payload: { number: { kind: 'rational', numerator: 415, denominator: 93 } } },
      { title: '√7 = [2; (1, 1, 1, 4)] with its first 8 convergents', mode: 'EXPLORE', payload: { number: { kind: 'quadratic', P: 0, D: 7, Q: 1 }, convergents: 8 } },
      { title: 'The golden ratio (1 + √5)/2 = [(1)]', mode: 'EXPLORE', payload: { number: { kind: 'quadratic', P: 1, D: 5, Q: 2 } } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given number: its whole continued fraction (finite, or pre-period and period) and the convergents asked for.',
    limits: { max_input_digits: DIGITS, max_terms: MAX_TERMS, max_convergents: 1000 },
    async run(input, context) {
      const engine = (ms: number, method: string) => engineRecord(runtime, method, ms);
      if (input.number.kind === 'rational') {
        const { numerator, denominator } = input.number;
        if (denominator === '0') throw new JacobianError('INVALID_REQUEST', 'payload.number.denominator: must not be zero (rule denominator-non-zero)', { path: ['payload', 'number', 'denominator'], data: { rule: 'denominator-non-zero' } });
        const { output, ms } = await runDiophantine(context, { operation: 'cf_rational', p: numerator, q: denominator, convergents: input.convergents });
        const [a0, ...rest] = output.terms;
        return exactOutcome<ContinuedFractionOutput>(
          { kind: 'FINITE', terms: output.terms, preperiod: null, period: null, notation: `[${a0 ?? ''}${rest.length > 0 ? `; ${short(rest)}` : ''}]`, convergents: output.convergents, normalized: null, recheck: 'the terms fold back into p/q exactly', engine: engine(ms, 'the Euclidean algorithm with floor quotients on big integers') },
          `the continued fraction of ${numerator}/${denominator}`,
          'the Euclidean algorithm ran to a zero remainder; the expansion is finite and complete',
        );
      }
      const { P, D, Q } = input.number;
      const path = ['payload', 'number'];
      if (Q === '0') throw new JacobianError('INVALID_REQUEST', 'payload.number.Q: must not be zero (rule denominator-non-zero)', { path: [...path, 'Q'], data: { rule: 'denominator-non-zero' } });
      if (isSquare(BigInt(D))) throw new JacobianError('INVALID_REQUEST', `payload.number.D: ${D} is a perfect square, so the number is rational; give it as kind "rational" (rule quadratic-irrational)`, { path: [...path, 'D'], data: { rule: 'quadratic-irrational' } });
      const { output, ms } = await runDiophantine(context, { operation: 'cf_quadratic', P, D, Q, convergents: input.convergents, max_terms: input.max_terms });
      const pre = output.preperiod;
      const cycle = `(${short(output.period)})`;
      const notation = pre.length === 0 ? `[${cycle}]` : pre.length === 1 ? `[${pre[0]}; ${cycle}]` : `[${pre[0]}; ${short(pre.slice(1))}, ${cycle}]`;
      return exactOutcome<ContinuedFractionOutput>(
        {
          kind: 'PERIODIC',
          terms: null,
          preperiod: pre,
          period: output.period,
          notation,
          convergents: output.convergents,
          normalized: { P: output.P, D: output.D, Q: output.Q },
          recheck: 'in exact Q(√D) arithmetic: the tail after the pre-period exceeds 1 and satisfies the quadratic equation of the period\'s matrix, whose other root is negative, so the expansion has exactly this value',
          engine: engine(ms, 'complete quotients (P_k + √D)/Q_k on big integers until a state repeats (Lagrange)'),
        },
        `the continued fraction of (${P} + √${D})/${Q}`,
        `a complete quotient repeated after ${pre.length + output.period.length} terms: pre-period of ${pre.length} and period of ${output.period.length} terms`,
      );
    },
  };
}
