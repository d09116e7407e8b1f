/**
 * The sequence capabilities on our TypeScript provider:
 *
 * - `sequence.recurrence.guess`: the shortest C-finite recurrence of the given terms
 *   (Berlekamp–Massey over Q), or the P-recursive recurrences of a stated order and degree (the
 *   kernel of the linear system of their unknown coefficients); each answer fits the given terms
 *   and says how many terms beyond those needed confirm it. The claim is stored for
 *   `sequence.recurrence.verify`.
 * - `sequence.recurrence.evaluate`: extend terms by a recurrence;
 * - `sequence.transform.compute`: the OEIS transforms;
 * - `sequence.generating_function.compute`: P(x)/Q(x) of a C-finite recurrence, checked by series.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  canonicalRecurrenceClaim,
  describeRecurrence,
  JacobianError,
  parseRecurrence,
  parseSequenceTerms,
  recurrenceOrder,
  RecurrenceSchema,
  recurrenceToJson,
  runKernel,
  SEQUENCE_CLAIM_SCHEMA_URI,
  SEQUENCE_CLAIM_SEMANTICS_URI,
  SEQUENCE_LIMITS,
  SEQUENCE_SOURCES,
  SequenceSchema,
  sourceProviderRuntime,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type Diagnostic,
  type ProviderProbe,
  type Recurrence,
} from '@jacobian/shared';
import { storeOrWarn } from '../polynomial/algebra-capabilities.js';
import { RUNNER_VERSION } from '../version.js';
import { TRANSFORMS, type TransformName } from './recurrence.js';
import type { GuessKernelOutput } from './sequence.kernel.js';

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

export const SEQUENCE_TS_PROVIDER = 'jacobian-sequence-ts';
export const SEQUENCE_TS_SOURCES: readonly string[] = [here('./sequence-capabilities.ts'), here('./recurrence.ts'), here('./sequence.kernel.ts'), here('../matrix/engine.ts')];

/** Our TypeScript sequence provider, identified by the digest of its sources. */
export function sequenceTsProvider(): ProviderProbe {
  return {
    name: SEQUENCE_TS_PROVIDER,
    probe: () =>
      sourceProviderRuntime({ provider: SEQUENCE_TS_PROVIDER, version: RUNNER_VERSION, files: [...SEQUENCE_TS_SOURCES, ...SEQUENCE_SOURCES], features: ['berlekamp-massey-Q', 'p-recursive-guess', 'recurrence-extension', 'oeis-transforms', 'rational-generating-function'] }),
  };
}

export const GUESS_ID = 'sequence.recurrence.guess';
export const EVALUATE_ID = 'sequence.recurrence.evaluate';
export const TRANSFORM_ID = 'sequence.transform.compute';
export const GENERATING_FUNCTION_ID = 'sequence.generating_function.compute';
const VERSION = '1.0.0';
const KERNEL = here('./sequence.kernel.ts');
const LIMITS = { max_terms: SEQUENCE_LIMITS.maxTerms, max_term_digits: SEQUENCE_LIMITS.maxTermDigits, max_p_order: SEQUENCE_LIMITS.maxPOrder, max_p_degree: SEQUENCE_LIMITS.maxPDegree };
const FIB = { terms: ['0', '1', '1', '2', '3', '5', '8', '13', '21', '34'] };

function outcome<O>(output: O, statement: string, basis: string, artifactUris: string[], diagnostics: Diagnostic[]): CapabilityOutcome<O> {
  return {
    status: 'COMPLETED',
    output,
    scope: { kind: 'EXACT_INPUT', statement: statement.slice(0, 2000), input_uris: [] },
    completeness: { status: 'COMPLETE', basis: basis.slice(0, 1000) },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: { level: 'COMPUTED', basis: 'exact rational arithmetic in our TypeScript sequence engine', verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: artifactUris,
    diagnostics,
  };
}

const producer = {
  domain: 'sequence',
  modes: ['EXPLORE'] as ['EXPLORE'],
  role: 'producer' as const,
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST' as const],
  accepted_artifact_types: [],
  relationships: [],
  assurance_ceiling: 'COMPUTED' as const,
  limits: LIMITS,
};

// ---------------------------------------------------------------------------------------------
// sequence.recurrence.guess

export const GuessInput = z
  .object({
    sequence: SequenceSchema,
    kind: z.enum(['c-finite', 'p-recursive']).default('c-finite'),
    max_order: z.number().int().min(0).max(SEQUENCE_LIMITS.maxCFiniteOrder).optional().describe('c-finite: largest order accepted (at most N−1); default ⌊(N−1)/2⌋, so a default answer has a spare term'),
    order: z.number().int().min(0).max(SEQUENCE_LIMITS.maxPOrder).optional().describe('p-recursive: the order r'),
    degree: z.number().int().min(0).max(SEQUENCE_LIMITS.maxPDegree).optional().describe('p-recursive: the degree d of each p_i'),
  })
  .strict();
export type GuessInput = z.infer<typeof GuessInput>;

export const GuessOutput = z
  .object({
    status: z.enum(['FOUND', 'NONE']),
    statement: z.string().describe('what was found, scoped to the given terms'),
    recurrence: RecurrenceSchema.nullable(),
    terms_given: z.number().int(),
    spare: z.number().int().describe('c-finite: N − 2·order, the terms beyond the 2·order that determine it; p-recursive: equations − (unknowns − 1). ≤ 0: no confirmation'),
    confirmed: z.boolean().describe('spare > 0: the fit is tested by terms not needed to find it'),
    solution_dimension: z.number().int().describe('p-recursive: dimension of the space of fitting coefficient vectors (> 1: not unique); c-finite: 1 when found'),
    basis: z.array(z.array(z.array(z.string()))).describe('p-recursive: a basis of that space (first 8), each [p_0..p_r] lowest degree first'),
    result_uri: z.string().nullable().describe('the claim (recurrence holds on the given terms) for sequence.recurrence.verify'),
  })
  .strict();
export type GuessOutput = z.infer<typeof GuessOutput>;

export const sequenceRecurrenceGuess: CapabilityDefinition<GuessInput, GuessOutput> = {
  ...producer,
  id: GUESS_ID,
  version: VERSION,
  title: 'Guess a linear recurrence (C-finite or P-recursive) from terms',
  description:
    'Finds a recurrence fitting exact terms. c-finite: the minimal constant-coefficient recurrence a(n) = Σ c_i a(n−i) by Berlekamp–Massey over Q (fraction-free); NONE if its order exceeds max_order. p-recursive (holonomic): all Σ_{i≤r} p_i(n) a(n−i) = 0 with deg p_i ≤ d, as the exact kernel of the (N−r)×(r+1)(d+1) system; NONE when none fits. Scope: the N terms given, never beyond; `spare` counts confirming terms.',
  tags: ['sequence', 'recurrence', 'guess', 'berlekamp-massey', 'holonomic', 'c-finite', 'p-recursive', 'exact'],
  keywords: ['guess a recurrence', 'linear recurrence', 'find recurrence relation', 'C-finite', 'constant coefficients', 'Berlekamp-Massey', 'holonomic', 'P-recursive', 'D-finite', 'annihilator', 'linear complexity', 'integer sequence', 'OEIS'],
  produced_artifact_types: [SEQUENCE_CLAIM_SCHEMA_URI],
  input: GuessInput,
  output: GuessOutput,
  examples: [
    { title: 'Fibonacci: a(n) = a(n−1) + a(n−2)', mode: 'EXPLORE', payload: { sequence: FIB } },
    { title: 'Catalan, order 1 degree 1: (n+1) a(n) = (4n−2) a(n−1)', mode: 'EXPLORE', payload: { sequence: { terms: ['1', '1', '2', '5', '14', '42', '132', '429', '1430'] }, kind: 'p-recursive', order: 1, degree: 1 } },
  ],
  scope_rule: 'Covers exactly the given terms: the recurrence fits them (or none of the stated shape does); nothing about later terms.',
  async run(input, context) {
    const path = ['payload', 'sequence', 'terms'];
    const terms = parseSequenceTerms(input.sequence.terms, path);
    const N = terms.length;
    const offset = input.sequence.offset;
    const last = offset + N - 1;
    if (input.kind === 'p-recursive') {
      if (input.order === undefined || input.degree === undefined) throw new JacobianError('INVALID_REQUEST', 'a p-recursive guess needs `order` and `degree`', { path: ['payload', input.order === undefined ? 'order' : 'degree'], data: { rule: 'order-degree-required' } });
      if (input.max_order !== undefined) throw new JacobianError('INVALID_REQUEST', '`max_order` is for c-finite guesses; give `order` and `degree`', { path: ['payload', 'max_order'], data: { rule: 'kind-fields' } });
      const unknowns = (input.order + 1) * (input.degree + 1);
      if (unknowns > SEQUENCE_LIMITS.maxPUnknowns) throw new JacobianError('INVALID_REQUEST', `(order+1)(degree+1) = ${unknowns} unknowns, over ${SEQUENCE_LIMITS.maxPUnknowns}`, { path: ['payload', 'degree'], data: { rule: 'unknowns' } });
      if (N <= input.order) throw new JacobianError('INVALID_REQUEST', `${N} terms give no equation for order ${input.order}`, { path, data: { rule: 'too-few-terms' } });
    } else if (input.order !== undefined || input.degree !== undefined) {
      throw new JacobianError('INVALID_REQUEST', '`order` and `degree` are for p-recursive guesses; a c-finite guess takes max_order', { path: ['payload', input.order !== undefined ? 'order' : 'degree'], data: { rule: 'kind-fields' } });
    }
    const order = input.order ?? 0;
    const degree = input.degree ?? 0;
    const out = (await runKernel(context, { module: KERNEL, exportName: 'guessKernel' }, { terms: input.sequence.terms, offset, kind: input.kind, order, degree })) as GuessKernelOutput;
    const diagnostics: Diagnostic[] = [];
    let recurrence: Recurrence | null = null;
    let spare = 0;
    let dimension = 0;
    let basis: string[][][] = [];
    let none = '';
    if (out.c_finite !== null) {
      // A recurrence of order ≥ N relates no given terms (it fits vacuously): never an answer.
      const maxOrder = Math.min(input.max_order ?? Math.floor((N - 1) / 2), N - 1);
      if (out.c_finite.order <= maxOrder) {
        recurrence = parseRecurrence({ kind: 'c-finite', coefficients: out.c_finite.coefficients, valid_from: offset + out.c_finite.order }, ['recurrence']);
        spare = N - 2 * out.c_finite.order;
        dimension = 1;
      } else {
        none = `no C-finite recurrence of order ≤ ${maxOrder} fits these ${N} terms (the shortest has order ${out.c_finite.order})`;
      }
    } else if (out.p_recursive !== null) {
      const p = out.p_recursive;
      dimension = p.basis.length;
      basis = p.basis.slice(0, 8);
      spare = p.equations - (p.unknowns - 1);
      const chosen = p.basis.find((v) => v[0]?.some((c) => c !== '0')) ?? p.basis[0];
      if (chosen === undefined) none = `no recurrence of order ≤ ${order} and degree ≤ ${degree} fits these ${N} terms`;
      else recurrence = parseRecurrence({ kind: 'p-recursive', order, degree, coefficients: chosen, valid_from: offset + order }, ['recurrence']);
    }
    if (recurrence === null) {
      return outcome(
        { status: 'NONE', statement: none, recurrence: null, terms_given: N, spare: 0, confirmed: false, solution_dimension: 0, basis: [], result_uri: null },
        `the ${N} given terms a(${offset})..a(${last}): ${none}`,
        'decided exactly on every given term',
        [],
        diagnostics,
      );
    }
    const { claim } = canonicalRecurrenceClaim({ sequence: { terms: input.sequence.terms, offset }, recurrence: recurrenceToJson(recurrence) }, ['recurrence']);
    const words = describeRecurrence(recurrence);
    const confirmation =
      spare > 0 ? `${spare} term${spare === 1 ? '' : 's'} beyond those that determine it confirm it` : spare === 0 ? 'determined by exactly the terms given: no term confirms it' : 'the terms given do not determine it (other recurrences of this shape fit too)';
    const unique = dimension > 1 ? `; not unique: the fitting recurrences form a space of dimension ${dimension}` : '';
    const statement = `${words} holds on the ${N} given terms a(${offset})..a(${last}); ${confirmation}${unique}. Nothing is claimed beyond a(${last}).`;
    if (spare <= 0 || dimension > 1) diagnostics.push({ severity: 'WARNING', code: 'GUESS_UNCONFIRMED', stage: 'EXECUTION', message: statement.slice(0, 2000), path: null, hint: 'give more terms' });
    const stored = await storeOrWarn(
      'the recurrence claim',
      { schema_uri: SEQUENCE_CLAIM_SCHEMA_URI, semantics_uri: SEQUENCE_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: { kind: recurrence.kind, order: recurrenceOrder(recurrence), terms: N } },
      context,
      diagnostics,
    );
    return outcome(
      { status: 'FOUND', statement, recurrence: claim.recurrence, terms_given: N, spare, confirmed: spare > 0, solution_dimension: dimension, basis, result_uri: stored?.uri ?? null },
      `the ${N} given terms a(${offset})..a(${last})`,
      'every given term was used; the fit is exact',
      stored === null ? [] : [stored.uri],
      diagnostics,
    );
  },
};

// ---------------------------------------------------------------------------------------------
// sequence.recurrence.evaluate

export const EvaluateInput = z
  .object({
    sequence: SequenceSchema.describe('the initial terms (at least up to index valid_from − 1)'),
    recurrence: RecurrenceSchema,
    count: z.number().int().min(1).max(SEQUENCE_LIMITS.maxTerms).describe('terms wanted in all, given ones included'),
  })
  .strict();
export type EvaluateInput = z.infer<typeof EvaluateInput>;

export const EvaluateOutput = z
  .object({
    terms: z.array(z.string()),
    offset: z.number().int(),
    computed: z.number().int().describe('terms computed by the recurrence'),
    given_agree: z.boolean().describe('the given terms at n ≥ valid_from satisfy the recurrence'),
    first_disagreement: z.number().int().nullable().describe('the first index where a given term breaks it'),
  })
  .strict();
export type EvaluateOutput = z.infer<typeof EvaluateOutput>;

/** Resolve and check a sequence + recurrence pair before any kernel starts. */
function readPair(input: { sequence: { terms: (string | number)[]; offset: number }; recurrence: z.infer<typeof RecurrenceSchema> }): Recurrence {
  parseSequenceTerms(input.sequence.terms, ['payload', 'sequence', 'terms']);
  const rec = parseRecurrence(input.recurrence, ['payload', 'recurrence']);
  if (rec.validFrom < input.sequence.offset + recurrenceOrder(rec)) {
    throw new JacobianError('INVALID_REQUEST', `valid_from ${rec.validFrom} is below offset + order = ${input.sequence.offset + recurrenceOrder(rec)}`, { path: ['payload', 'recurrence', 'valid_from'], data: { rule: 'valid-from' } });
  }
  if (rec.validFrom > input.sequence.offset + input.sequence.terms.length) {
    throw new JacobianError('INVALID_REQUEST', `the recurrence holds from n = ${rec.validFrom}; give every term before it (the last given is index ${input.sequence.offset + input.sequence.terms.length - 1})`, { path: ['payload', 'sequence', 'terms'], data: { rule: 'too-few-terms' } });
  }
  return rec;
}

export const sequenceRecurrenceEvaluate: CapabilityDefinition<EvaluateInput, EvaluateOutput> = {
  ...producer,
  id: EVALUATE_ID,
  version: VERSION,
  title: 'Extend a sequence by a recurrence',
  description:
    'Computes terms of a sequence from initial terms and a C-finite or P-recursive recurrence (as sequence.recurrence.guess returns it), exactly over Q, until `count` terms. A P-recursive one solves p_0(n) a(n) = −Σ_{i≥1} p_i(n) a(n−i) and stops with an error at an n where p_0(n) = 0 (rule leading-coefficient-vanishes). Reports whether the given terms past valid_from obey it.',
  tags: ['sequence', 'recurrence', 'evaluate', 'extend', 'c-finite', 'p-recursive', 'exact'],
  keywords: ['extend a sequence', 'compute terms from a recurrence', 'unroll recurrence', 'next terms', 'holonomic sequence', 'linear recurrence evaluation'],
  produced_artifact_types: [],
  input: EvaluateInput,
  output: EvaluateOutput,
  examples: [{ title: 'Fibonacci from 0, 1 to 15 terms', mode: 'EXPLORE', payload: { sequence: { terms: ['0', '1'] }, recurrence: { kind: 'c-finite', coefficients: ['1', '1'], valid_from: 2 }, count: 15 } }],
  scope_rule: 'Covers exactly the given initial terms and recurrence: the terms they determine up to count.',
  async run(input, context) {
    const rec = readPair(input);
    const out = (await runKernel(context, { module: KERNEL, exportName: 'evaluateKernel' }, { terms: input.sequence.terms, offset: input.sequence.offset, recurrence: input.recurrence, count: input.count })) as { terms: string[]; first_disagreement: number | null };
    const given = input.sequence.terms.length;
    return outcome(
      { terms: out.terms, offset: input.sequence.offset, computed: Math.max(0, out.terms.length - given), given_agree: out.first_disagreement === null, first_disagreement: out.first_disagreement },
      `a(${input.sequence.offset})..a(${input.sequence.offset + out.terms.length - 1}) from the ${given} given terms and ${describeRecurrence(rec)}`,
      'every requested term computed exactly',
      [],
      out.first_disagreement === null ? [] : [{ severity: 'WARNING', code: 'TERMS_DISAGREE', stage: 'EXECUTION', message: `the given term a(${out.first_disagreement}) breaks the recurrence; later terms extend the given list as it is`, path: ['payload', 'sequence', 'terms'], hint: null }],
    );
  },
};

// ---------------------------------------------------------------------------------------------
// sequence.transform.compute

const TRANSFORM_NAMES = Object.keys(TRANSFORMS) as [TransformName, ...TransformName[]];

export const TransformInput = z
  .object({
    sequence: z.object({ terms: SequenceSchema.shape.terms }).strict(),
    transform: z.enum(TRANSFORM_NAMES),
  })
  .strict();
export type TransformInput = z.infer<typeof TransformInput>;

export const TransformOutput = z
  .object({ transform: z.enum(TRANSFORM_NAMES), definition: z.string(), terms: z.array(z.string()), offset: z.number().int().describe('index of the first output term') })
  .strict();
export type TransformOutput = z.infer<typeof TransformOutput>;

export const sequenceTransformCompute: CapabilityDefinition<TransformInput, TransformOutput> = {
  ...producer,
  id: TRANSFORM_ID,
  version: VERSION,
  title: 'OEIS sequence transforms (binomial, Euler, Möbius, partial sums, differences)',
  description: `Exact OEIS transforms of a sequence: ${Object.entries(TRANSFORMS)
    .map(([k, v]) => `${k}: ${v.split(';')[0] ?? v}`)
    .join('. ')}.`,
  tags: ['sequence', 'transform', 'oeis', 'binomial-transform', 'euler-transform', 'mobius-transform', 'exact'],
  keywords: ['binomial transform', 'inverse binomial transform', 'Euler transform', 'Möbius transform', 'Mobius inversion', 'partial sums', 'first differences', 'OEIS transforms', 'Dirichlet'],
  produced_artifact_types: [],
  input: TransformInput,
  output: TransformOutput,
  examples: [{ title: 'Binomial transform of the Catalan numbers (A007317)', mode: 'EXPLORE', payload: { sequence: { terms: ['1', '1', '2', '5', '14', '42'] }, transform: 'binomial' } }],
  scope_rule: 'Covers exactly the given terms: as many output terms as they determine.',
  async run(input, context) {
    parseSequenceTerms(input.sequence.terms, ['payload', 'sequence', 'terms']);
    const out = (await runKernel(context, { module: KERNEL, exportName: 'transformKernel' }, { terms: input.sequence.terms, transform: input.transform })) as { terms: string[] };
    const offset = input.transform === 'euler' || input.transform === 'mobius' || input.transform === 'inverse_mobius' ? 1 : 0;
    return outcome(
      { transform: input.transform, definition: TRANSFORMS[input.transform], terms: out.terms, offset },
      `the ${input.transform} transform of the ${input.sequence.terms.length} given terms (${TRANSFORMS[input.transform]})`,
      'each output term depends only on given terms',
      [],
      [],
    );
  },
};

// ---------------------------------------------------------------------------------------------
// sequence.generating_function.compute

export const GeneratingFunctionInput = z
  .object({
    sequence: SequenceSchema.describe('the initial terms a(offset)..a(valid_from − 1), and any more (they must obey the recurrence)'),
    recurrence: RecurrenceSchema.describe('a C-finite recurrence'),
  })
  .strict();
export type GeneratingFunctionInput = z.infer<typeof GeneratingFunctionInput>;

export const GeneratingFunctionOutput = z
  .object({
    numerator: z.array(z.string()).describe('P(x), lowest degree first'),
    denominator: z.array(z.string()).describe('Q(x) = 1 − c_1 x − … − c_d x^d, lowest degree first'),
    text: z.string(),
    series_checked: z.number().int().describe('coefficients of P/Q compared with the recurrence\'s terms, all equal'),
  })
  .strict();
export type GeneratingFunctionOutput = z.infer<typeof GeneratingFunctionOutput>;

function polyText(coefficients: readonly string[]): string {
  const parts = coefficients.flatMap((c, k) => (c === '0' ? [] : [`${k === 0 ? c : c === '1' ? '' : c === '-1' ? '-' : `${c}*`}${k === 0 ? '' : k === 1 ? 'x' : `x^${k}`}`]));
  return parts.length === 0 ? '0' : parts.join(' + ').replaceAll('+ -', '- ');
}

export const sequenceGeneratingFunction: CapabilityDefinition<GeneratingFunctionInput, GeneratingFunctionOutput> = {
  ...producer,
  id: GENERATING_FUNCTION_ID,
  version: VERSION,
  title: 'Rational generating function of a C-finite sequence',
  description:
    'The ordinary generating function Σ_{n≥offset} a(n) x^n of a sequence given by initial terms and a C-finite recurrence, as P(x)/Q(x) with Q(x) = 1 − c_1 x − … − c_d x^d and deg P < valid_from (not necessarily in lowest terms); checked by expanding P/Q as a power series against the recurrence\'s terms.',
  tags: ['sequence', 'generating-function', 'rational-function', 'c-finite', 'exact'],
  keywords: ['generating function', 'ordinary generating function', 'OGF', 'rational generating function', 'P(x)/Q(x)', 'linear recurrence to generating function', 'power series'],
  produced_artifact_types: [],
  input: GeneratingFunctionInput,
  output: GeneratingFunctionOutput,
  examples: [{ title: 'Fibonacci: x/(1 − x − x^2)', mode: 'EXPLORE', payload: { sequence: { terms: ['0', '1'] }, recurrence: { kind: 'c-finite', coefficients: ['1', '1'], valid_from: 2 } } }],
  scope_rule: 'Covers exactly the sequence the given terms and recurrence determine.',
  async run(input, context) {
    const rec = readPair(input);
    if (rec.kind !== 'c-finite') throw new JacobianError('INVALID_REQUEST', 'a rational generating function needs a C-finite recurrence', { path: ['payload', 'recurrence', 'kind'], data: { rule: 'c-finite-only' } });
    const seriesTerms = Math.max(input.sequence.terms.length, rec.validFrom - input.sequence.offset + 2 * rec.coefficients.length + 8);
    const out = (await runKernel(context, { module: KERNEL, exportName: 'generatingFunctionKernel' }, { terms: input.sequence.terms, offset: input.sequence.offset, recurrence: input.recurrence, series_terms: seriesTerms })) as {
      numerator: string[];
      denominator: string[];
      series: string[];
      expected: string[];
      first_disagreement: number | null;
    };
    if (out.first_disagreement !== null) {
      throw new JacobianError('INVALID_REQUEST', `the given term a(${out.first_disagreement}) breaks the recurrence, so they have no common generating function`, { path: ['payload', 'sequence', 'terms', out.first_disagreement - input.sequence.offset], data: { rule: 'terms-disagree' } });
    }
    const mismatch = out.series.findIndex((s, i) => s !== out.expected[i]);
    if (mismatch >= 0 || out.series.length !== out.expected.length) throw new JacobianError('INTERNAL', `the series of P/Q differs from the recurrence's terms at position ${mismatch}`);
    const numerator = out.numerator.length === 0 ? ['0'] : out.numerator;
    return outcome(
      { numerator, denominator: out.denominator, text: `(${polyText(numerator)})/(${polyText(out.denominator)})`, series_checked: out.series.length },
      `the generating function of the sequence from the given terms and ${describeRecurrence(rec)}`,
      `P/Q expanded to ${out.series.length} coefficients, equal to the recurrence's terms`,
      [],
      [],
    );
  },
};

