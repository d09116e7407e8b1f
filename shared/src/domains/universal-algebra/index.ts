/**
 * The universal-algebra core: signatures, our parser for terms and laws, finite algebras as
 * operation tables, and exact exhaustive evaluation of laws. Shared by the runner's
 * universal_algebra capabilities and any independent checker.
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

/** The files of this core, for the SOURCE_TREE digest of a provider built on it. */
export const UNIVERSAL_ALGEBRA_SOURCES: readonly string[] = ['./limits.ts', './signature.ts', './syntax.ts', './algebra.ts', './index.ts'].map((file) =>
  fileURLToPath(new URL(file, import.meta.url)),
);
