/**
 * The propositional domain: our grammar of propositional formulas (parser with errors naming
 * position and rule, printer), the typed tree that keeps grouping as written, the
 * PROPOSITIONAL_STRUCTURE artifact contract, evaluation, and the Tseitin encoding to CNF that the
 * claim capabilities decide with a SAT solver.
 */
import { fileURLToPath } from 'node:url';

export {
  childrenOf,
  evaluatePropositional,
  formulaStats,
  parsePropositional,
  parsePropositionalStructure,
  printPropositional,
  PROPOSITIONAL_LIMITS,
  propositionalError,
  PropositionalRule,
  unwrapGroups,
} from './syntax.js';
export type { FormulaStats, PropositionalFormula, PropositionalKind, PropositionalNotation } from './syntax.js';
export { atomAssignment, tseitin } from './tseitin.js';
export type { TseitinEncoding, TseitinTarget } from './tseitin.js';
export {
  parsePropositionalPayload,
  PROPOSITIONAL_FORMULA_SEMANTICS_URI,
  PROPOSITIONAL_STRUCTURE_SCHEMA_URI,
  propositionalPayload,
  PropositionalStructurePayloadSchema,
} from './artifacts.js';
export type { PropositionalStructurePayload, TypedPropositionalStructurePayload } from './artifacts.js';

/** The files of this module: provider and checker identities that use it cover them. */
export const PROPOSITIONAL_SOURCES: string[] = ['./index.ts', './syntax.ts', './tseitin.ts', './artifacts.ts'].map((file) => fileURLToPath(new URL(file, import.meta.url)));
