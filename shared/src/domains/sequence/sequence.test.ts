import { describe, expect, it } from 'vitest';
import { JacobianError } from '../../errors.js';
import { canonicalRecurrenceClaim, describeRecurrence, parseRecurrence, parseSequenceTerm, RecurrenceClaimInputSchema, SEQUENCE_LIMITS } from './sequence.js';

function ruleOf(f: () => unknown): { rule: unknown; path: unknown } {
  try {
    f();
  } catch (error) {
    if (error instanceof JacobianError) return { rule: (error.data as { rule?: unknown } | undefined)?.rule, path: error.path };
    throw error;
  }
  throw new Error('no error');
}

describe('sequence terms and recurrences', () => {
  it('reads integers and rationals exactly, in lowest terms', () => {
    expect(parseSequenceTerm('-12', [])).toEqual({ num: -12n, den: 1n });
    expect(parseSequenceTerm('6/4', [])).toEqual({ num: 3n, den: 2n });
    expect(parseSequenceTerm(7, [])).toEqual({ num: 7n, den: 1n });
  });

  it('names the field and the rule of a bad term', () => {
    expect(ruleOf(() => parseSequenceTerm('1.5', ['terms', 3]))).toEqual({ rule: 'term-syntax', path: ['terms', 3] });
    expect(ruleOf(() => parseSequenceTerm('-0', ['t']))).toEqual({ rule: 'term-syntax', path: ['t'] });
    expect(ruleOf(() => parseSequenceTerm('1/0', ['t']))).toEqual({ rule: 'zero-denominator', path: ['t'] });
    expect(ruleOf(() => parseSequenceTerm('9'.repeat(SEQUENCE_LIMITS.maxTermDigits + 1), ['t']))).toEqual({ rule: 'term-digits', path: ['t'] });
  });

  it('checks the shape of a P-recursive recurrence and refuses the zero relation', () => {
    const base = { kind: 'p-recursive' as const, order: 1, degree: 1, valid_from: 1 };
    expect(ruleOf(() => parseRecurrence({ ...base, coefficients: [['1']] }, ['r']))).toEqual({ rule: 'degree-shape', path: ['r', 'coefficients'] });
    expect(ruleOf(() => parseRecurrence({ ...base, coefficients: [['1', '1', '1'], ['1']] }, ['r']))).toEqual({ rule: 'degree-shape', path: ['r', 'coefficients', 0] });
    expect(ruleOf(() => parseRecurrence({ ...base, coefficients: [['0'], ['0', '0']] }, ['r']))).toEqual({ rule: 'zero-recurrence', path: ['r', 'coefficients'] });
    expect(describeRecurrence(parseRecurrence({ ...base, coefficients: [['1', '1'], ['2', '-4']] }, []))).toBe('(1 + n)·a(n) + (2 - 4·n)·a(n-1) = 0 for n ≥ 1');
    expect(describeRecurrence(parseRecurrence({ kind: 'c-finite', coefficients: ['1', '-1', '0', '1/2'], valid_from: 4 }, []))).toBe('a(n) = a(n-1) - a(n-2) + 1/2·a(n-4) for n ≥ 4');
  });

  it('a claim gets its default range, and a range beyond the terms is refused', () => {
    const input = RecurrenceClaimInputSchema.parse({ sequence: { terms: ['1', '1', '2', '3'], offset: 1 }, recurrence: { kind: 'c-finite', coefficients: ['1', '1'], valid_from: 3 } });
    expect(canonicalRecurrenceClaim(input, []).claim).toMatchObject({ from: 3, to: 4 });
    expect(ruleOf(() => canonicalRecurrenceClaim({ ...input, to: 5 }, ['c']))).toEqual({ rule: 'range', path: ['c', 'to'] });
    expect(ruleOf(() => canonicalRecurrenceClaim({ ...input, recurrence: { ...input.recurrence, valid_from: 2 } }, ['c']))).toEqual({ rule: 'valid-from', path: ['c', 'recurrence', 'valid_from'] });
  });
});
