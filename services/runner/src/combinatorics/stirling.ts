/** combinatorics.stirling.compute: Stirling numbers of the second kind and of the first kind (signed and unsigned), one value or a row. */
import { COUNTING_LIMITS, CountingResultSchema, StirlingRequestSchema, type CapabilityDefinition, type CountingResult, type StirlingRequest } from '@jacobian/shared';
import { stirlingRow } from './counting.js';
import { COUNTING_DOMAIN, COUNTING_TAGS, COUNTING_VERSION, countingOutcome } from './support.js';

export const STIRLING_ID = 'combinatorics.stirling.compute';

const NAMES = { second: 'S(n,k)', first_unsigned: 'c(n,k) = [n k]', first_signed: 's(n,k)' } as const;

export const stirlingCompute: CapabilityDefinition<StirlingRequest, CountingResult> = {
  id: STIRLING_ID,
  version: COUNTING_VERSION,
  title: 'Stirling numbers of the first and second kind',
  description: `Exact Stirling numbers: second kind S(n,k) {n k} (set partitions of n into k blocks), unsigned first kind c(n,k) [n k] (permutations with k cycles), signed first kind s(n,k) = (−1)^(n−k) c(n,k). One value, or row k = 0..n when k is omitted. Triangle recurrence, O(n·n) big additions, n ≤ ${COUNTING_LIMITS.stirlingMaxN}.`,
  tags: COUNTING_TAGS,
  keywords: ['Stirling numbers of the second kind', 'Stirling numbers of the first kind', 'set partitions into k blocks', 'permutations with k cycles', 'cycle numbers', 'subset numbers', 'signed Stirling numbers', 'falling factorial coefficients'],
  domain: COUNTING_DOMAIN,
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [],
  input: StirlingRequestSchema,
  output: CountingResultSchema,
  examples: [{ title: 'S(5,2) = 15', mode: 'EXPLORE', payload: { kind: 'second', n: 5, k: 2 } }],
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the requested Stirling number or row.',
  limits: { max_n: COUNTING_LIMITS.stirlingMaxN, max_output_digits: COUNTING_LIMITS.maxOutputDigits },
  run(input, context) {
    const { kind, n, k } = input;
    const weight = kind === 'second' ? 'k' : '(n−1)';
    const method = `triangle recurrence T(n,k) = ${weight}·T(n−1,k) + T(n−1,k−1)${kind === 'first_signed' ? ', signed by (−1)^(n−k)' : ''}; O(n·min(n, k)) big additions`;
    const row = stirlingRow(kind, n, { deadline: context.deadline, signal: context.signal }, k ?? n);
    if (k === undefined) return Promise.resolve(countingOutcome(context, row, true, method, `${NAMES[kind]} for n = ${n}, k = 0..${n}`));
    return Promise.resolve(countingOutcome(context, [row[k] ?? 0n], false, method, `${NAMES[kind]} for n = ${n}, k = ${k}`));
  },
};
