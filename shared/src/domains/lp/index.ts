/**
 * The linear programming core: problems with exact rational data (request and stored forms, the
 * rules both are checked against, the operand every LP capability accepts) and the certificates
 * of their answers. Shared by the runner's LP capabilities and the independent checkers.
 */
import { fileURLToPath } from 'node:url';

export {
  canonicalLpProblem,
  formatLpNumber,
  LP_CERTIFICATE_NUMBER_LIMITS,
  LP_DATA_NUMBER_LIMITS,
  LP_LIMITS,
  LP_PROBLEM_SCHEMA_URI,
  LP_PROBLEM_SEMANTICS_URI,
  LP_RESERVED_NAME,
  LpConstraintSchema,
  LpNameSchema,
  lpNumber,
  LpNumberSchema,
  LpProblemInputSchema,
  LpProblemSchema,
  LpRelationSchema,
  LpRule,
  lpShape,
  LpVariableSchema,
  parseCanonicalLpNumber,
  parseLpNumber,
} from './problem.js';
export type { LpNumber, LpNumberLimits, LpProblem, LpProblemInput, LpRelation, NumberProblem } from './problem.js';
export {
  canonicalLpCertificateClaim,
  canonicalSparseVector,
  CERTIFICATE_FIELDS,
  LP_CERTIFICATE_CLAIM_SCHEMA_URI,
  LP_CERTIFICATE_CLAIM_SEMANTICS_URI,
  LpCertificateClaimInputSchema,
  LpCertificateClaimSchema,
  LpCertificateNumberSchema,
  lpCertificateShape,
  LpOutcomeSchema,
} from './certificate.js';
export type { LpCertificateClaim, LpCertificateClaimInput, LpOutcome } from './certificate.js';
export { resolveLpOperand } from './operand.js';
export type { LpOperand, ResolvedLp } from './operand.js';

/** The files of this core (and the rationals it builds on), for the SOURCE_TREE digest of a provider or checker built on it. */
export const LP_SOURCES: readonly string[] = [
  ...['./problem.ts', './certificate.ts', './operand.ts', './index.ts'].map((file) => fileURLToPath(new URL(file, import.meta.url))),
  fileURLToPath(new URL('../polynomial/field.ts', import.meta.url)),
];

// CPLEX LP and free MPS text: readers (strict, errors with line and column) and writers.
export { isCplexLpName, parseCplexLp, writeCplexLp } from './cplex-lp.js';
export { isFreeMpsName, parseFreeMps, writeFreeMps } from './free-mps.js';
export type { MpsWriteOptions } from './free-mps.js';
export { LP_TEXT_LIMITS, LpTextRule } from './text-support.js';
export type { FractionStyle, LpWriteOptions, TextPosition, TextReadOptions, WrittenLp } from './text-support.js';

/** The files of the text readers and writers, for the SOURCE_TREE digest of a provider built on them (with LP_SOURCES). */
export const LP_TEXT_SOURCES: readonly string[] = ['./text-support.ts', './cplex-lp.ts', './free-mps.ts'].map((file) => fileURLToPath(new URL(file, import.meta.url)));
