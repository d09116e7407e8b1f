/**
 * The SAT domain of @jacobian/shared, as the checker's SAT code uses it.
 */
export {
  clauseOf,
  DRAT_REFUTATION_SEMANTICS_URI,
  LRAT_REFUTATION_SEMANTICS_URI,
  parseCnfPayload,
  parseDimacs,
  parseDratText,
  parseLrat,
  SAT_CNF_SCHEMA_URI,
  SAT_CNF_SEMANTICS_URI,
  SAT_DRAT_SCHEMA_URI,
  SAT_LRAT_SCHEMA_URI,
  SAT_MODEL_SCHEMA_URI,
  SAT_MODEL_SEMANTICS_URI,
  SAT_SOURCES,
  serializeDimacs,
  pigeonhole,
  randomKSat,
  cnfFromClauses,
  dratFromSteps,
  dratStepClause,
  serializeDratText,
  parseDratBinary,
  parseDrat,
  serializeLrat,
  SatCnfPayloadSchema,
  SatDratPayloadSchema,
  SatLratPayloadSchema,
  SatModelPayloadSchema,
} from '@jacobian/shared';
export type { Cnf, DratProof, LratProof, LratStep, SatCnfPayload, SatModelPayload } from '@jacobian/shared';
