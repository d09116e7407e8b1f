/** combinatorics.composition.count: compositions (ordered partitions) of n, with optional part restrictions and number of parts. */
import { checkBudget, COUNTING_LIMITS, CompositionRequestSchema, CountingResultSchema, type ArithmeticBudget, type CapabilityDefinition, type CompositionRequest, type CountingResult } from '@jacobian/shared';
import { binomial, restrictedCompositions } from './counting.js';
import { COUNTING_DOMAIN, COUNTING_TAGS, COUNTING_VERSION, countingOutcome, requireWork } from './support.js';

export const COMPOSITION_ID = 'combinatorics.composition.count';

interface CompositionPlan {
  method: string;
  compute(budget: ArithmeticBudget): bigint[];
}

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** C(m−1, k−1) for m = 0..n (compositions of m into exactly k parts), each from the one before. */
function compositionsIntoK(n: number, k: number, budget: ArithmeticBudget): bigint[] {
  const values: bigint[] = range(0, n).map((m) => (k === 0 && m === 0 ? 1n : 0n));
  if (k === 0 || k > n) return values;
  let c: bigint = 1n;
  values[k] = c;
  for (let m = k + 1; m <= n; m++) {
    c = (c * BigInt(m - 1)) / BigInt(m - k);
    values[m] = c;
    if (m % 2048 === 0) checkBudget(budget);
  }
  return values;
}

/** Chooses the algorithm and refuses (rule work-limit) what would take too long, before any work. */
export function planCompositions(input: CompositionRequest): CompositionPlan {
  const { n } = input;
  const low = input.min_part ?? 1;
  const high = Math.min(n, input.max_part ?? n);
  const parts = input.parts_in === undefined ? range(low, high) : [...input.parts_in].filter((a) => a >= low && a <= high).sort((a, b) => a - b);
  const k = input.exact_parts;
  const plain = input.parts_in === undefined && input.min_part === undefined && input.max_part === undefined;
  if (plain && k === undefined) return { method: 'closed form 2^(m−1) for m ≥ 1 (a cut or not between adjacent units), 1 for m = 0', compute: () => range(0, n).map((m) => (m === 0 ? 1n : 1n << BigInt(m - 1))) };
  if (plain && k !== undefined) {
    return {
      method: `closed form C(m−1, k−1) (stars and bars: k−1 cuts among m−1 gaps), a table along m by C(m−1, k−1) = C(m−2, k−1)·(m−1)/(m−k); O(n) big-by-small steps`,
      compute: (budget) => (input.table === true ? compositionsIntoK(n, k, budget) : range(0, n).map((m) => (m < n ? 0n : k === 0 ? (n === 0 ? 1n : 0n) : n === 0 ? 0n : binomial(n - 1, k - 1, budget)))),
    };
  }
  const smallest = parts[0];
  if (k !== undefined && (smallest === undefined ? k > 0 : k > Math.floor(n / smallest))) {
    return { method: `no composition of m ≤ ${n} has ${k} parts under these restrictions; no computation`, compute: () => range(0, n).map((m) => (m === 0 && k === 0 ? 1n : 0n)) };
  }
  if (k === undefined) {
    requireWork(n * parts.length, input.parts_in === undefined ? 'n' : 'parts_in', 'this composition count');
    return { method: `recurrence c(m) = Σ_a c(m − a) over the ${parts.length} allowed parts (generating function 1/(1 − Σ_a x^a)); O(n·|parts|) big additions`, compute: (budget) => restrictedCompositions(n, parts, undefined, budget).map((c) => c[0] as bigint) };
  }
  requireWork(n * parts.length * (k + 1), 'exact_parts', 'this composition count');
  return {
    method: `recurrence c_j(m) = Σ_a c_{j−1}(m − a) over the ${parts.length} allowed parts, j ≤ ${k} (coefficient of x^m in (Σ_a x^a)^k); O(n·|parts|·k) big additions`,
    compute: (budget) => restrictedCompositions(n, parts, k, budget).map((byCount) => byCount[k] as bigint),
  };
}

export const compositionCount: CapabilityDefinition<CompositionRequest, CountingResult> = {
  id: COMPOSITION_ID,
  version: COUNTING_VERSION,
  title: 'Compositions of an integer, with restrictions',
  description: `Exact number of compositions (ordered partitions) of n ≤ ${COUNTING_LIMITS.compositionMaxN}: 2^(n−1) unrestricted, C(n−1,k−1) with exactly k parts, and with parts from a set or between min_part and max_part by the recurrence c(m) = Σ_a c(m−a) (work n·|parts|·k ≤ ${COUNTING_LIMITS.maxWork}). One value or the table 0..n.`,
  tags: COUNTING_TAGS,
  keywords: ['compositions of an integer', 'ordered partitions', 'compositions into k parts', 'stars and bars', 'compositions with parts 1 and 2', 'Fibonacci compositions', 'ways to climb stairs', 'ordered sums'],
  domain: COUNTING_DOMAIN,
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [],
  input: CompositionRequestSchema,
  output: CountingResultSchema,
  examples: [{ title: 'Compositions of 10 into parts 1 and 2 (F(11) = 89)', mode: 'EXPLORE', payload: { n: 10, parts_in: [1, 2] } }],
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the requested count (or table 0..n) under the stated restrictions.',
  limits: { max_n: COUNTING_LIMITS.compositionMaxN, max_allowed_parts: COUNTING_LIMITS.maxAllowedParts, max_work: COUNTING_LIMITS.maxWork, max_output_digits: COUNTING_LIMITS.maxOutputDigits },
  run(input, context) {
    const plan = planCompositions(input);
    const values = plan.compute({ deadline: context.deadline, signal: context.signal });
    const table = input.table === true;
    const restrictions = [
      input.parts_in === undefined ? '' : `parts in {${input.parts_in.join(', ')}}`,
      input.min_part === undefined ? '' : `parts ≥ ${input.min_part}`,
      input.max_part === undefined ? '' : `parts ≤ ${input.max_part}`,
      input.exact_parts === undefined ? '' : `exactly ${input.exact_parts} parts`,
    ].filter((s) => s !== '');
    const statement = `compositions of ${table ? `m = 0..${input.n}` : input.n}${restrictions.length === 0 ? '' : ` into ${restrictions.join(', ')}`}`;
    return Promise.resolve(countingOutcome(context, values, table, plan.method, statement));
  },
};
