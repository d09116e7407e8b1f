/** What the counting capabilities share: the answer of exact counts, with its size held to the limits, and the work-limit refusal. */
import { COUNTING_LIMITS, CountingResultSchema, JacobianError, type CapabilityContext, type CapabilityOutcome, type CountingResult } from '@jacobian/shared';

export const COUNTING_VERSION = '1.0.0';
export const COUNTING_DOMAIN = 'combinatorics';
export const COUNTING_TAGS = ['combinatorics', 'counting', 'exact', 'enumerative-combinatorics'];

/** Refuses, before any work, a request whose dynamic programme would take more than COUNTING_LIMITS.maxWork cells. */
export function requireWork(work: number, field: string, what: string): void {
  if (work > COUNTING_LIMITS.maxWork) {
    throw new JacobianError('INVALID_REQUEST', `${what} needs about ${work} steps, over the limit of ${COUNTING_LIMITS.maxWork} (rule: work-limit)`, {
      path: ['payload', field],
      data: { rule: 'work-limit', work, limit: COUNTING_LIMITS.maxWork },
      hint: 'lower n, the number of allowed parts, or the bound on the number of parts',
    });
  }
}

/**
 * The outcome of a count: one value, or a table/row when `table` is set. Refused with
 * OUTPUT_LIMIT_EXCEEDED when the digits exceed COUNTING_LIMITS.maxOutputDigits or the run's
 * max_output_bytes.
 */
export function countingOutcome(context: CapabilityContext, values: readonly bigint[], table: boolean, method: string, statement: string): CapabilityOutcome<CountingResult> {
  const chosen = table ? values : values.slice(-1);
  // Decimal conversion of huge tables is slow: the size is estimated from the hexadecimal length (linear time) before any is converted.
  const total = chosen.reduce((sum, v) => sum + Math.ceil(v.toString(16).length * Math.log10(16)) + 3, 0);
  const limit = Math.min(COUNTING_LIMITS.maxOutputDigits, context.budget.max_output_bytes - 1024);
  if (total > limit) {
    throw new JacobianError('OUTPUT_LIMIT_EXCEEDED', `the answer has about ${total} characters of digits, over the limit of ${limit}; nothing was concluded`, {
      data: { characters: total, limit },
      hint: 'ask one value instead of a table, lower n, or raise budget.max_output_bytes',
    });
  }
  const texts = chosen.map((v) => v.toString());
  const digits = texts.reduce((max, t) => Math.max(max, t.replace('-', '').length), 0);
  const output = CountingResultSchema.parse(table ? { values: texts, digits, method } : { value: texts[0], digits, method });
  return {
    status: 'COMPLETED',
    output,
    scope: { kind: 'EXACT_INPUT', statement, input_uris: [] },
    completeness: { status: 'COMPLETE', basis: `computed exactly on big integers: ${method}` },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: { level: 'COMPUTED', basis: method, verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: [],
    diagnostics: [],
  };
}
