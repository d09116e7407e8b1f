/** combinatorics.binomial.compute: binomial coefficients C(n,k), whole rows of Pascal's triangle, and multinomial coefficients, exactly. */
import { BinomialRequestSchema, COUNTING_LIMITS, CountingResultSchema, type BinomialRequest, type CapabilityDefinition, type CountingResult } from '@jacobian/shared';
import { binomial, binomialRow, multinomial } from './counting.js';
import { COUNTING_DOMAIN, COUNTING_TAGS, COUNTING_VERSION, countingOutcome } from './support.js';

export const BINOMIAL_ID = 'combinatorics.binomial.compute';

export const binomialCompute: CapabilityDefinition<BinomialRequest, CountingResult> = {
  id: BINOMIAL_ID,
  version: COUNTING_VERSION,
  title: 'Binomial and multinomial coefficients',
  description: `Exact binomial coefficient C(n,k) ("n choose k") by the multiplicative formula with exact divisions, O(min(k,n−k)) steps, n ≤ ${COUNTING_LIMITS.binomialMaxN}; a row of Pascal's triangle C(n,0..n) (row: true, n ≤ ${COUNTING_LIMITS.binomialRowMaxN}); or a multinomial coefficient (k1+…+km)!/(k1!…km!) as a product of binomials.`,
  tags: COUNTING_TAGS,
  keywords: ['binomial coefficient', 'n choose k', 'C(n,k)', 'nCk', "Pascal's triangle", 'combinations', 'k-subsets', 'multinomial coefficient', 'multiset permutations', 'arrangements of a word'],
  domain: COUNTING_DOMAIN,
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [],
  input: BinomialRequestSchema,
  output: CountingResultSchema,
  examples: [{ title: 'C(10,3) = 120', mode: 'EXPLORE', payload: { n: 10, k: 3 } }],
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the requested coefficient or row.',
  limits: { max_n: COUNTING_LIMITS.binomialMaxN, max_row_n: COUNTING_LIMITS.binomialRowMaxN, max_multinomial_parts: COUNTING_LIMITS.multinomialMaxParts, max_output_digits: COUNTING_LIMITS.maxOutputDigits },
  run(input, context) {
    const budget = { deadline: context.deadline, signal: context.signal };
    if (input.kind === 'multinomial') {
      const parts = input.parts ?? [];
      const method = 'multinomial as ∏ C(k1+…+ki, ki), each by the multiplicative formula; O(Σ ki) big-by-small steps';
      return Promise.resolve(countingOutcome(context, [multinomial(parts, budget)], false, method, `the multinomial coefficient (${parts.join(', ')})`));
    }
    const n = input.n ?? 0;
    if (input.row === true) {
      const method = "Pascal's row by C(n,k+1) = C(n,k)·(n−k)/(k+1) with symmetry; O(n) big-by-small steps";
      return Promise.resolve(countingOutcome(context, binomialRow(n, budget), true, method, `C(${n}, k) for k = 0..${n}`));
    }
    const k = input.k ?? 0;
    const method = 'multiplicative formula C(n,k) = ∏_{j<m} (n−j)/(j+1), m = min(k, n−k), exact divisions; O(m) big-by-small steps';
    return Promise.resolve(countingOutcome(context, [binomial(n, k, budget)], false, method, `C(${n}, ${k})`));
  },
};
