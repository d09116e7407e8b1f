/**
 * The size bounds of the polynomial core. Every text and payload an agent sends is checked
 * against them before any arithmetic starts, so parsing and expansion stay bounded in time and
 * memory whatever the request.
 */
export const POLYNOMIAL_LIMITS = {
  /** Variables a ring may declare. */
  maxVariables: 64,
  /** Longest variable name, in characters. */
  maxNameLength: 32,
  /** Longest polynomial text, in UTF-16 code units (what JSON strings measure). */
  maxTextLength: 200_000,
  /** Largest exponent written after `^`. */
  maxExponent: 10_000,
  /** Largest total degree of any term, during expansion and in payloads. */
  maxDegree: 10_000,
  /** Most terms of one polynomial, during expansion and in payloads. */
  maxTerms: 200_000,
  /** Most term-by-term multiplications one product may do (bounds the time of an expansion before its size is known). */
  maxProductWork: 4_000_000,
  /** Most decimal digits of one integer literal or coefficient numerator/denominator. */
  maxCoefficientDigits: 20_000,
  /** Deepest nesting of parentheses and unary minus. */
  maxNesting: 200,
  /** Polynomials in one list (generators of an ideal, a basis). */
  maxPolynomials: 10_000,
} as const;
