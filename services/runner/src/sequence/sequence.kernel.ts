/**
 * The isolated parts of the sequence capabilities: the request's terms crossed a process
 * boundary as JSON and are read again here; the work polls the deadline and stops with
 * EXECUTION_TIMEOUT (nothing concluded).
 */
import { formatSequenceTerm, JacobianError, parseRecurrence, parseSequenceTerms, RecurrenceSchema, type KernelContext, type SequenceTerm } from '@jacobian/shared';
import type { Checkpoint } from '../matrix/engine.js';
import { berlekampMassey, extendByRecurrence, firstFailure, guessPRecursive, rationalGeneratingFunction, seriesOfRational, transform, type TransformName } from './recurrence.js';

function deadlineCheck(ctx: KernelContext, what: string): Checkpoint {
  let calls = 0;
  return () => {
    if (calls++ % 16 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', `the run's wall-time budget ended before the ${what} was complete; nothing was concluded`);
  };
}

const TERMS_PATH = ['payload', 'sequence', 'terms'];

export interface GuessKernelOutput {
  /** C-finite: the minimal order L and c_1..c_L. */
  c_finite: { order: number; coefficients: string[] } | null;
  /** P-recursive: the kernel basis (each p_0..p_r lowest degree first), equations and rank. */
  p_recursive: { basis: string[][][]; equations: number; unknowns: number; rank: number } | null;
}

export function guessKernel(input: { terms: SequenceTerm[]; offset: number; kind: 'c-finite' | 'p-recursive'; order: number; degree: number }, ctx: KernelContext): GuessKernelOutput {
  const terms = parseSequenceTerms(input.terms, TERMS_PATH);
  const checkpoint = deadlineCheck(ctx, 'recurrence guess');
  if (input.kind === 'c-finite') {
    const found = berlekampMassey(terms, checkpoint);
    return { c_finite: { order: found.order, coefficients: found.coefficients.map(formatSequenceTerm) }, p_recursive: null };
  }
  const guess = guessPRecursive(terms, input.offset, input.order, input.degree, checkpoint);
  return { c_finite: null, p_recursive: { basis: guess.basis.map((v) => v.map((p) => p.map(formatSequenceTerm))), equations: guess.equations, unknowns: guess.unknowns, rank: guess.rank } };
}

export function evaluateKernel(input: { terms: SequenceTerm[]; offset: number; recurrence: unknown; count: number }, ctx: KernelContext): { terms: string[]; first_disagreement: number | null; checked_given: number } {
  const terms = parseSequenceTerms(input.terms, TERMS_PATH);
  const rec = parseRecurrence(RecurrenceSchema.parse(input.recurrence), ['payload', 'recurrence']);
  const checkpoint = deadlineCheck(ctx, 'extension');
  const last = input.offset + terms.length - 1;
  const failure = rec.validFrom <= last ? firstFailure(terms, input.offset, rec, rec.validFrom, last, checkpoint) : null;
  const out = extendByRecurrence(terms, input.offset, rec, input.count, checkpoint);
  return { terms: out.map(formatSequenceTerm), first_disagreement: failure, checked_given: Math.max(0, last - rec.validFrom + 1) };
}

export function transformKernel(input: { terms: SequenceTerm[]; transform: TransformName }, ctx: KernelContext): { terms: string[] } {
  const terms = parseSequenceTerms(input.terms, TERMS_PATH);
  return { terms: transform(input.transform, terms, deadlineCheck(ctx, 'transform')).map(formatSequenceTerm) };
}

export function generatingFunctionKernel(
  input: { terms: SequenceTerm[]; offset: number; recurrence: unknown; series_terms: number },
  ctx: KernelContext,
): { numerator: string[]; denominator: string[]; series: string[]; expected: string[]; first_disagreement: number | null } {
  const terms = parseSequenceTerms(input.terms, TERMS_PATH);
  const rec = parseRecurrence(RecurrenceSchema.parse(input.recurrence), ['payload', 'recurrence']);
  if (rec.kind !== 'c-finite') throw new JacobianError('INVALID_REQUEST', 'a rational generating function needs a C-finite recurrence', { path: ['payload', 'recurrence', 'kind'], data: { rule: 'c-finite-only' } });
  const checkpoint = deadlineCheck(ctx, 'generating function');
  const last = input.offset + terms.length - 1;
  const failure = rec.validFrom <= last ? firstFailure(terms, input.offset, rec, rec.validFrom, last, checkpoint) : null;
  const expected = extendByRecurrence(terms, input.offset, rec, Math.max(terms.length, input.series_terms), checkpoint);
  const { numerator, denominator } = rationalGeneratingFunction(expected, input.offset, rec.coefficients, rec.validFrom);
  const series = seriesOfRational(numerator, denominator, input.offset + expected.length, checkpoint).slice(input.offset);
  return { numerator: numerator.map(formatSequenceTerm), denominator: denominator.map(formatSequenceTerm), series: series.map(formatSequenceTerm), expected: expected.map(formatSequenceTerm), first_disagreement: failure };
}
