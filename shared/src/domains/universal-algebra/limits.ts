/**
 * The size bounds of the universal-algebra core. Every input an agent sends is checked against
 * them before any work starts, so parsing, evaluation and encoding stay bounded in time and
 * memory whatever the request.
 */
export const UNIVERSAL_ALGEBRA_LIMITS = {
  /** Operations a signature may declare. */
  maxOperations: 16,
  /** Variables a signature may declare. */
  maxVariables: 16,
  /** Longest operation or variable name, in characters. */
  maxNameLength: 32,
  /** Laws in one request. */
  maxLaws: 64,
  /** Longest law text, in UTF-16 code units (what JSON strings measure). */
  maxLawLength: 2000,
  /** Deepest term: a variable or constant has depth 1, `f(t)` one more than `t`. */
  maxTermDepth: 32,
  /** Most variable and operation occurrences in one law (both sides). */
  maxLawNodes: 256,
  /** Largest order of a finite algebra given as tables. */
  maxAlgebraOrder: 64,
  /** Most assignments of one law's variables that an exhaustive check may visit (n^k). */
  maxAssignmentsPerLaw: 1_048_576,
  /** Most assignments over all laws of one request. */
  maxAssignmentsTotal: 4_194_304,
} as const;
