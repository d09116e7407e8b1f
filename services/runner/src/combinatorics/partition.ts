/**
 * combinatorics.partition.count: integer partitions p(n), with restrictions (distinct parts,
 * parts from a set, largest part, number of parts at most or exactly k), one value or p(0..n).
 */
import { COUNTING_LIMITS, CountingResultSchema, PartitionRequestSchema, type ArithmeticBudget, type CapabilityDefinition, type CountingResult, type PartitionRequest } from '@jacobian/shared';
import { partitionNumbers, restrictedPartitions } from './counting.js';
import { COUNTING_DOMAIN, COUNTING_TAGS, COUNTING_VERSION, countingOutcome, requireWork } from './support.js';

export const PARTITION_ID = 'combinatorics.partition.count';

/** How a request is computed: the method, its cost, and the computation of the values for 0..n. */
interface PartitionPlan {
  method: string;
  compute(budget: ArithmeticBudget): bigint[];
}

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** Chooses the algorithm and refuses (rule work-limit) what would take too long, before any work. */
export function planPartitions(input: PartitionRequest): PartitionPlan {
  const { n } = input;
  const distinct = input.distinct === true;
  const maxPart = input.max_part ?? n;
  const parts = input.parts_in === undefined ? range(1, Math.min(n, maxPart)) : [...input.parts_in].filter((a) => a <= maxPart && a <= n).sort((a, b) => a - b);
  // The most parts a partition of n can have under these restrictions: a larger bound restricts nothing.
  const smallest = parts[0];
  const mostParts = smallest === undefined ? 0 : distinct ? Math.min(parts.length, Math.floor((Math.sqrt(8 * n + 1) - 1) / 2)) : Math.floor(n / smallest);
  const exact = input.exact_parts;
  const atMost = input.max_parts !== undefined && input.max_parts < mostParts ? input.max_parts : undefined;
  if (exact !== undefined && exact > mostParts) {
    return { method: `no partition of m ≤ ${n} has ${exact} parts under these restrictions (at most ${mostParts}); no computation`, compute: () => range(0, n).map((m) => (m === 0 && exact === 0 ? 1n : 0n)) };
  }
  const count = exact ?? atMost;
  const plain = !distinct && input.parts_in === undefined && input.max_part === undefined;
  if (plain && count === undefined) {
    return { method: "Euler's pentagonal number recurrence p(m) = Σ_j (−1)^(j+1) [p(m − j(3j−1)/2) + p(m − j(3j+1)/2)]; O(n^1.5) big additions", compute: (budget) => partitionNumbers(n, budget) };
  }
  if (plain && count !== undefined) {
    // Conjugation (transpose the Young diagram): at most k parts ↔ parts ≤ k; exactly k parts of m ↔ parts ≤ k of m − k.
    requireWork(n * count, exact === undefined ? 'max_parts' : 'exact_parts', 'this partition count');
    const method = `conjugation to parts ≤ ${count}${exact === undefined ? '' : ` (exactly k parts of m = parts ≤ k of m − k)`}, generating-function product ∏_{i≤${count}} 1/(1−x^i); O(n·k) big additions`;
    return {
      method,
      compute: (budget) => {
        const bounded = restrictedPartitions(n, range(1, count), false, undefined, budget).map((column) => column[0] as bigint);
        return exact === undefined ? bounded : range(0, n).map((m) => (m >= count ? (bounded[m - count] as bigint) : 0n));
      },
    };
  }
  const product = distinct ? '∏_a (1+x^a)' : '∏_a 1/(1−x^a)';
  if (count === undefined) {
    requireWork(n * parts.length, input.parts_in === undefined ? 'n' : 'parts_in', 'this partition count');
    return { method: `generating-function product ${product} over the ${parts.length} allowed parts; O(n·|parts|) big additions`, compute: (budget) => restrictedPartitions(n, parts, distinct, undefined, budget).map((column) => column[0] as bigint) };
  }
  requireWork(n * parts.length * (count + 1), exact === undefined ? 'max_parts' : 'exact_parts', 'this partition count');
  return {
    method: `generating-function product ${product} over the ${parts.length} allowed parts with the number of parts tracked up to ${count} (a second variable y: ∏ 1/(1−y·x^a) or ∏ (1+y·x^a)); O(n·|parts|·k) big additions`,
    compute: (budget) =>
      restrictedPartitions(n, parts, distinct, count, budget).map((byCount) => (exact === undefined ? byCount.reduce((sum, c) => sum + c, 0n) : (byCount[count] as bigint))),
  };
}

function describeRestrictions(input: PartitionRequest): string {
  const parts: string[] = [];
  if (input.distinct === true) parts.push('distinct parts');
  if (input.parts_in !== undefined) parts.push(`parts in {${input.parts_in.join(', ')}}`);
  if (input.max_part !== undefined) parts.push(`parts ≤ ${input.max_part}`);
  if (input.max_parts !== undefined) parts.push(`at most ${input.max_parts} parts`);
  if (input.exact_parts !== undefined) parts.push(`exactly ${input.exact_parts} parts`);
  return parts.length === 0 ? '' : ` into ${parts.join(', ')}`;
}

export const partitionCount: CapabilityDefinition<PartitionRequest, CountingResult> = {
  id: PARTITION_ID,
  version: COUNTING_VERSION,
  title: 'Integer partitions, with restrictions',
  description: `Exact number of integer partitions p(n) (Young diagrams with n cells), n ≤ ${COUNTING_LIMITS.partitionMaxN}: unrestricted by Euler's pentagonal recurrence; into distinct parts q(n), parts from a set, parts ≤ m, at most k or exactly k parts by generating-function products (work n·|parts|·k ≤ ${COUNTING_LIMITS.maxWork}). One value or the table 0..n.`,
  tags: COUNTING_TAGS,
  keywords: ['integer partitions', 'partition function p(n)', 'Young diagrams', 'Ferrers diagrams', 'partitions into distinct parts', 'partitions into odd parts', 'partitions into at most k parts', 'partitions with exactly k parts', 'largest part at most k', 'coin change ways', 'pentagonal number theorem'],
  domain: COUNTING_DOMAIN,
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [],
  input: PartitionRequestSchema,
  output: CountingResultSchema,
  examples: [{ title: 'p(100) = 190569292', mode: 'EXPLORE', payload: { n: 100 } }],
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the requested count (or table 0..n) under the stated restrictions.',
  limits: { max_n: COUNTING_LIMITS.partitionMaxN, max_allowed_parts: COUNTING_LIMITS.maxAllowedParts, max_work: COUNTING_LIMITS.maxWork, max_output_digits: COUNTING_LIMITS.maxOutputDigits },
  run(input, context) {
    const plan = planPartitions(input);
    const values = plan.compute({ deadline: context.deadline, signal: context.signal });
    const table = input.table === true;
    const statement = `partitions of ${table ? `m = 0..${input.n}` : input.n}${describeRestrictions(input)}`;
    return Promise.resolve(countingOutcome(context, values, table, plan.method, statement));
  },
};
