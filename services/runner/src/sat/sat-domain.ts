/**
 * The SAT domain of @jacobian/shared, as the runner's SAT capabilities use it.
 */
export {
  clauseOf,
  cnfFromClauses,
  DRAT_REFUTATION_SEMANTICS_URI,
  parseCnfPayload,
  parseDimacs,
  pigeonhole,
  randomKSat,
  SAT_CNF_SCHEMA_URI,
  SAT_CNF_SEMANTICS_URI,
  SAT_DRAT_SCHEMA_URI,
  SAT_LIMITS,
  SAT_MODEL_SCHEMA_URI,
  SAT_MODEL_SEMANTICS_URI,
  SAT_SOURCES,
  SatCnfPayloadSchema,
  SatDratPayloadSchema,
  SatModelPayloadSchema,
  serializeDimacs,
} from '@jacobian/shared';
export type { Cnf, SatCnfPayload, SatModelPayload } from '@jacobian/shared';
