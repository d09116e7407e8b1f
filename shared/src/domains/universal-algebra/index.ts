/**
 * The universal-algebra core: signatures, our parser for terms and laws, finite algebras as
 * operation tables, exact exhaustive evaluation of laws, and the contracts of the artifacts the
 * universal_algebra capabilities store. Shared by the runner's capabilities and any independent
 * checker.
 */
import { fileURLToPath } from 'node:url';

export { UNIVERSAL_ALGEBRA_LIMITS } from './limits.js';
export {
  IDENTIFIER_PATTERN,
  isOperationName,
  isOperationSymbol,
  isVariableName,
  NUMERAL_PATTERN,
  OPERATION_SYMBOLS,
  OperationDeclarationSchema,
  resolveSignature,
  SignatureSchema,
  signatureProblems,
} from './signature.js';
export type { OperationDeclaration, Signature, SignatureInput } from './signature.js';
export { parseLaw, parseLaws, parseTerm, printLaw, printTerm, sameTerm, SyntaxRule, termKey } from './syntax.js';
export type { ApplicationTerm, Law, ParseOptions, Term, VariableTerm } from './syntax.js';
export {
  algebraTables,
  assignmentCounts,
  evaluateLaws,
  evaluateTerm,
  FiniteAlgebraSchema,
  OperationTableSchema,
  validateAlgebra,
} from './algebra.js';
export type { EvaluateLawsOptions, FiniteAlgebra, FiniteAlgebraInput, LawEvaluation, OperationTable } from './algebra.js';
export {
  COUNTERMODEL_RESULT_SCHEMA_URI,
  COUNTERMODEL_RESULT_SEMANTICS_URI,
  CountermodelClaimSchema,
  CountermodelResultPayloadSchema,
  ListedModelSchema,
  MODELS_RESULT_SCHEMA_URI,
  MODELS_RESULT_SEMANTICS_URI,
  ModelsResultPayloadSchema,
} from './results.js';
export type { CountermodelClaim, CountermodelResultPayload, ListedModel, ModelsResultPayload } from './results.js';

/** The files of this core, for the SOURCE_TREE digest of a provider built on it. */
export const UNIVERSAL_ALGEBRA_SOURCES: readonly string[] = ['./limits.ts', './signature.ts', './syntax.ts', './algebra.ts', './results.ts', './index.ts'].map((file) =>
  fileURLToPath(new URL(file, import.meta.url)),
);
