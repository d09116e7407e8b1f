/** The counting domain: contracts of the binomial, Stirling, Bell/Catalan/derangement, partition and composition capabilities. */
export {
  BinomialRequestSchema,
  CompositionRequestSchema,
  COUNTING_LIMITS,
  CountingNumberRequestSchema,
  CountingResultSchema,
  NUMBER_MAX_N,
  PartitionRequestSchema,
  StirlingRequestSchema,
} from './counting.js';
export type { BinomialRequest, CompositionRequest, CountingNumberRequest, CountingResult, PartitionRequest, StirlingRequest } from './counting.js';

import { fileURLToPath } from 'node:url';

/** The files of the counting contracts and the budget check they use, for the SOURCE_TREE digest of the counting provider. */
export const COUNTING_SOURCES: readonly string[] = [
  ...['./counting.ts', './index.ts'].map((file) => fileURLToPath(new URL(file, import.meta.url))),
  fileURLToPath(new URL('../numbers/arith.ts', import.meta.url)),
];
