/**
 * The propositional domain of @jacobian/shared, as the runner's claim capabilities use it.
 */
export {
  atomAssignment,
  evaluatePropositional,
  formulaStats,
  parsePropositional,
  parsePropositionalPayload,
  parsePropositionalStructure,
  printPropositional,
  PROPOSITIONAL_FORMULA_SEMANTICS_URI,
  PROPOSITIONAL_LIMITS,
  PROPOSITIONAL_SOURCES,
  PROPOSITIONAL_STRUCTURE_SCHEMA_URI,
  propositionalError,
  propositionalPayload,
  PropositionalStructurePayloadSchema,
  tseitin,
  unwrapGroups,
} from '@jacobian/shared';
export type { PropositionalFormula, PropositionalKind, PropositionalStructurePayload, TseitinEncoding, TseitinTarget } from '@jacobian/shared';
