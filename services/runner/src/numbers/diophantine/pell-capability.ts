/** diophantine.pell_equation.solve: the fundamental solutions of x² − D y² = ±1 from the period of √D. */
import { z } from 'zod';
import { DIOPHANTINE_CLAIM_SCHEMA_URI, DIOPHANTINE_LIMITS, isSquare, JacobianError, type CapabilityDefinition, type Diagnostic, type ProviderRuntime } from '@jacobian/shared';
import { DIOPHANTINE_VERSION, EngineSchema, engineRecord, exactOutcome, integerInput, runDiophantine, storeDiophantineClaim } from './support.js';

export const PELL_EQUATION_ID = 'diophantine.pell_equation.solve';
const MAX_PERIOD = 1_000_000;
const MAX_OUTPUT_DIGITS = 100_000;

export const PellInput = z
  .object({
    D: integerInput(DIOPHANTINE_LIMITS.maxPellDigits, 'positive').describe(`D > 0, not a perfect square, at most ${DIOPHANTINE_LIMITS.maxPellDigits} digits`),
    max_period: z.number().int().min(1).max(MAX_PERIOD).default(100_000).describe('stop with OUTPUT_LIMIT_EXCEEDED when the period of √D is longer (default 100000)'),
    max_output_digits: z.number().int().min(1).max(MAX_OUTPUT_DIGITS).default(10_000).describe('x and y longer than this many digits are left out of the output (their digit counts and the period, which determines them, stay; default 10000)'),
  })
  .strict();
export type PellInput = z.infer<typeof PellInput>;

const Solution = z
  .object({
    x: z.string().nullable().describe('null when longer than max_output_digits'),
    y: z.string().nullable(),
    x_digits: z.number().int(),
    y_digits: z.number().int(),
  })
  .strict();

export const PellOutput = z
  .object({
    D: z.string(),
    plus: Solution.describe('the fundamental (least positive) solution of x² − D y² = 1; x + y√D is the fundamental unit of norm +1 of Z[√D]'),
    minus: Solution.nullable().describe('the fundamental solution of x² − D y² = −1, or null when there is none'),
    minus_solvable: z.boolean(),
    reason: z.string().describe('why −1 is or is not solvable (the parity of the period)'),
    period_length: z.number().int(),
    continued_fraction: z.string().describe('√D = [a0; (a1, …, a_l)], shortened past 60 terms'),
    omitted: z.boolean().describe('true when x or y were left out of the output for their size'),
    result_uri: z.string().nullable().describe('the claim (D and both full solutions) stored for diophantine.claim.verify'),
    engine: EngineSchema,
  })
  .strict();
export type PellOutput = z.infer<typeof PellOutput>;

const digits = (t: string): number => (t.startsWith('-') ? t.length - 1 : t.length);

export function pellEquationSolve(runtime: ProviderRuntime): CapabilityDefinition<PellInput, PellOutput> {
  return {
    id: PELL_EQUATION_ID,
    version: DIOPHANTINE_VERSION,
    title: "Pell's equation x² − D y² = ±1: fundamental solution",
    description:
      "The fundamental (least positive) solution of Pell's equation x² − D y² = 1 for D > 0 not a square, from the continued fraction of √D (period length l: the convergent p_{l−1}/q_{l−1}, or p_{2l−1}/q_{2l−1} when l is odd), and of the negative Pell equation x² − D y² = −1, which is solvable exactly when l is odd (otherwise NONE, with that reason). x + y√D is the fundamental unit of Z[√D] of norm ±1; all solutions are its powers. Checked exactly (x² − D y² = ±1); diophantine.claim.verify re-derives fundamentality from the period with its own code. Solutions can have thousands of digits: beyond max_output_digits they are left out of the output (the period and digit counts stay) but kept in the stored claim. Example: D = 61 gives x = 1766319049, y = 226153980.",
    tags: ['number-theory', 'diophantine', 'pell-equation', 'continued-fraction', 'exact', 'typescript'],
    keywords: ["Pell equation", "Pell's equation", 'x^2 - D y^2 = 1', 'negative Pell equation', 'x^2 - Dy^2 = -1', 'fundamental solution', 'fundamental unit', 'unit of a real quadratic field', 'Brahmagupta', 'continued fraction of sqrt(D)', 'period of sqrt(D)', 'quadunit'],
    domain: 'number_theory',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [DIOPHANTINE_CLAIM_SCHEMA_URI],
    input: PellInput,
    output: PellOutput,
    examples: [
      { title: 'x² − 61 y² = 1: (1766319049, 226153980)', mode: 'EXPLORE', payload: { D: 61 } },
      { title: 'x² − 13 y² = −1 is solvable: (18, 5)', mode: 'EXPLORE', payload: { D: 13 } },
      { title: 'x² − 3 y² = −1 has no solution (the period of √3 is even)', mode: 'EXPLORE', payload: { D: 3 } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'diophantine.claim.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly x² − D y² = 1 and x² − D y² = −1 for the given D: their fundamental solutions (or that −1 has none).',
    limits: { max_D_digits: DIOPHANTINE_LIMITS.maxPellDigits, max_period: MAX_PERIOD, max_output_digits: MAX_OUTPUT_DIGITS },
    async run(input, context) {
      if (isSquare(BigInt(input.D))) {
        throw new JacobianError('INVALID_REQUEST', `payload.D: ${input.D} is a perfect square; x² − D y² = ±1 then has only the trivial solutions (±1, 0) (rule pell-non-square)`, { path: ['payload', 'D'], data: { rule: 'pell-non-square' } });
      }
      const { output, ms } = await runDiophantine(context, { operation: 'pell', D: input.D, max_period: input.max_period });
      const limit = input.max_output_digits;
      let omitted = false;
      const shown = (s: { x: string; y: string }) => {
        const big = digits(s.x) > limit || digits(s.y) > limit;
        omitted ||= big;
        return { x: big ? null : s.x, y: big ? null : s.y, x_digits: digits(s.x), y_digits: digits(s.y) };
      };
      const l = output.period.length;
      const cf = `[${output.a0}; (${l > 60 ? `${output.period.slice(0, 60).join(', ')}, … (${l} terms)` : output.period.join(', ')})]`;
      const reason =
        l % 2 === 1
          ? `the period of √${input.D} has odd length ${l}, so x² − D y² = −1 is solvable (the convergent p_${l - 1}/q_${l - 1})`
          : `the period of √${input.D} has even length ${l}, so x² − D y² = −1 has no integer solution`;
      const diagnostics: Diagnostic[] = [];
      const resultUri = await storeDiophantineClaim({ kind: 'PELL', D: input.D, plus: output.plus, minus: output.minus }, { kind: 'PELL', D: input.D, period_length: l }, context, diagnostics);
      if (omitted) diagnostics.push({ severity: 'INFO', code: 'OUTPUT_ABRIDGED', stage: 'EXECUTION', message: `the solutions have more than ${limit} digits and were left out of the output; the stored claim holds them in full`, path: ['payload', 'max_output_digits'], hint: 'raise max_output_digits, or read result_uri' });
      return exactOutcome<PellOutput>(
        {
          D: input.D,
          plus: shown(output.plus),
          minus: output.minus === null ? null : shown(output.minus),
          minus_solvable: output.minus !== null,
          reason,
          period_length: l,
          continued_fraction: cf,
          omitted,
          result_uri: resultUri,
          engine: engineRecord(runtime, 'the period of the continued fraction of √D and its convergents (Lagrange), on big integers', ms),
        },
        `the fundamental solutions of x² − ${input.D} y² = 1 and = −1`,
        `the period of √${input.D} (length ${l}) was found in full; x² − D y² = 1${output.minus === null ? '' : ' and −1'} rechecked exactly`,
        { artifactUris: resultUri === null ? [] : [resultUri], diagnostics },
      );
    },
  };
}
