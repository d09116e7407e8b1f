/** combinatorics.number.compute: Bell, Catalan and derangement numbers, one value or the table 0..n. */
import { COUNTING_LIMITS, CountingNumberRequestSchema, CountingResultSchema, NUMBER_MAX_N, type CapabilityDefinition, type CountingNumberRequest, type CountingResult } from '@jacobian/shared';
import { bellNumbers, catalanNumbers, derangementNumbers } from './counting.js';
import { COUNTING_DOMAIN, COUNTING_TAGS, COUNTING_VERSION, countingOutcome } from './support.js';

export const COUNTING_NUMBER_ID = 'combinatorics.number.compute';

const METHODS = {
  bell: 'Bell (Aitken) triangle, each row starting with the last entry of the row before; O(n²) big additions',
  catalan: 'C(m+1) = C(m)·2(2m+1)/(m+2) with exact divisions; O(n) big-by-small steps',
  derangement: '!m = (m−1)(!(m−1) + !(m−2)); O(n) big-by-small steps',
} as const;

const SYMBOLS = { bell: 'B', catalan: 'C', derangement: '!' } as const;

export const countingNumberCompute: CapabilityDefinition<CountingNumberRequest, CountingResult> = {
  id: COUNTING_NUMBER_ID,
  version: COUNTING_VERSION,
  title: 'Bell, Catalan and derangement numbers',
  description: `Exact Bell numbers B(n) (set partitions of an n-set, n ≤ ${NUMBER_MAX_N.bell}, Bell triangle), Catalan numbers C(n) = binom(2n,n)/(n+1) (Dyck paths, binary trees, triangulations, n ≤ ${NUMBER_MAX_N.catalan}) and derangements !n (subfactorial, fixed-point-free permutations, n ≤ ${NUMBER_MAX_N.derangement}). One value, or the table 0..n (table: true).`,
  tags: COUNTING_TAGS,
  keywords: ['Bell numbers', 'number of set partitions', 'Catalan numbers', 'Dyck paths', 'binary trees', 'balanced parentheses', 'triangulations of a polygon', 'derangements', 'subfactorial', 'fixed-point-free permutations', 'hat-check problem'],
  domain: COUNTING_DOMAIN,
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [],
  input: CountingNumberRequestSchema,
  output: CountingResultSchema,
  examples: [{ title: 'Catalan C(10) = 16796', mode: 'EXPLORE', payload: { kind: 'catalan', n: 10 } }],
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the requested number or table 0..n.',
  limits: { max_n_bell: NUMBER_MAX_N.bell, max_n_catalan: NUMBER_MAX_N.catalan, max_n_derangement: NUMBER_MAX_N.derangement, max_output_digits: COUNTING_LIMITS.maxOutputDigits },
  run(input, context) {
    const budget = { deadline: context.deadline, signal: context.signal };
    const values = input.kind === 'bell' ? bellNumbers(input.n, budget) : input.kind === 'catalan' ? catalanNumbers(input.n, budget) : derangementNumbers(input.n, budget);
    const table = input.table === true;
    const statement = table ? `${SYMBOLS[input.kind]}(m) for m = 0..${input.n}` : `${SYMBOLS[input.kind]}(${input.n})`;
    return Promise.resolve(countingOutcome(context, values, table, METHODS[input.kind], statement));
  },
};
