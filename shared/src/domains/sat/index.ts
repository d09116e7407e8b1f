/**
 * The SAT core: DIMACS CNF, DRAT and LRAT proofs (parsers with precise errors, serializers),
 * and the contracts of the artifacts the SAT capabilities store. Shared by the runner's SAT
 * capabilities and the checker's independent proof checkers; it decides nothing about
 * satisfiability itself.
 */
import { fileURLToPath } from 'node:url';

export { clauseOf, cnfFromClauses, DimacsRule, IntegerTokenizer, IntVector, parseDimacs, SAT_LIMITS, satFormatError, serializeDimacs } from './dimacs.js';
export type { Cnf, SatSizeLimits } from './dimacs.js';
export { pigeonhole, randomKSat, seededRandom } from './generators.js';
export { DRAT_LIMITS, dratFromSteps, DratRule, DratStepKind, dratStepClause, looksLikeBinaryDrat, parseDrat, parseDratBinary, parseDratText, serializeDratText } from './drat.js';
export type { DratProof } from './drat.js';
export { LRAT_LIMITS, LratRule, parseLrat, serializeLrat } from './lrat.js';
export type { LratLimits, LratProof, LratStep } from './lrat.js';
export {
  DRAT_REFUTATION_SEMANTICS_URI,
  LRAT_REFUTATION_SEMANTICS_URI,
  parseCnfPayload,
  readCnfAt,
  SAT_CNF_SCHEMA_URI,
  SAT_CNF_SEMANTICS_URI,
  SAT_DRAT_SCHEMA_URI,
  SAT_LRAT_SCHEMA_URI,
  SAT_MODEL_SCHEMA_URI,
  SAT_MODEL_SEMANTICS_URI,
  SatCnfPayloadSchema,
  SatDratPayloadSchema,
  SatLratPayloadSchema,
  SatModelPayloadSchema,
} from './artifacts.js';
export type { SatCnfPayload, SatDratPayload, SatLratPayload, SatModelPayload } from './artifacts.js';

/** The files of this module: checker identities that parse SAT formats cover them. */
export const SAT_SOURCES: string[] = ['./index.ts', './dimacs.ts', './drat.ts', './lrat.ts', './artifacts.ts'].map((file) => fileURLToPath(new URL(file, import.meta.url)));
