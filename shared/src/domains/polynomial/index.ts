/**
 * The polynomial core: exact coefficient fields (Q, GF(p)), sparse distributed polynomials with
 * lex, grlex and grevlex orders, our grammar for polynomial texts, canonical text and JSON, and
 * the contracts of the artifacts polynomial capabilities store. Shared by the runner's
 * capabilities and the independent checkers.
 */
import { fileURLToPath } from 'node:url';

export { POLYNOMIAL_LIMITS } from './limits.js';
export {
  bigGcd,
  fieldFromSpec,
  fieldSpecOf,
  FieldSpecSchema,
  invModSmall,
  isProbablePrime,
  makeRational,
  RATIONALS,
  SMALL_PRIME_BOUND,
} from './field.js';
export type { AnyField, Field, FieldSpec, Rational } from './field.js';
export {
  monomialComparator,
  monomialDivides,
  monomialEquals,
  monomialLcm,
  monomialProduct,
  monomialQuotient,
  monomialsCoprime,
  MonomialOrder,
  MonomialOrderSchema,
  PolynomialRing,
  totalDegree,
} from './polynomial.js';
export type { Monomial, Polynomial, PolynomialTerm } from './polynomial.js';
export { parsePolynomial, parsePolynomials, PolynomialSyntaxRule, VARIABLE_NAME_PATTERN } from './syntax.js';
export type { PolynomialParseOptions } from './syntax.js';
export {
  POLYNOMIAL_LIST_SCHEMA_URI,
  polynomialFromJson,
  PolynomialJsonSchema,
  polynomialListToJson,
  PolynomialListPayloadSchema,
  polynomialToJson,
  printPolynomial,
  resolveRing,
  RingSpecSchema,
  ringSpecOf,
  TermJsonSchema,
} from './canonical.js';
export type { PolynomialJson, PolynomialListPayload, RingSpec, TermJson } from './canonical.js';
export {
  FACTORIZATION_SCHEMA_URI,
  FACTORIZATION_SEMANTICS_URI,
  FactorizationClaimSchema,
  GROEBNER_BASIS_SCHEMA_URI,
  GROEBNER_BASIS_SEMANTICS_URI,
  GroebnerBasisClaimSchema,
  MEMBERSHIP_SCHEMA_URI,
  MEMBERSHIP_SEMANTICS_URI,
  MembershipClaimSchema,
} from './results.js';
export type { FactorizationClaim, GroebnerBasisClaim, MembershipClaim } from './results.js';
export {
  canonicalFactorizationClaim,
  canonicalGroebnerClaim,
  canonicalMembershipClaim,
  FactorizationClaimInputSchema,
  GroebnerBasisClaimInputSchema,
  MembershipClaimInputSchema,
  PolynomialInputSchema,
} from './claim-input.js';
export type { FactorizationClaimInput, GroebnerBasisClaimInput, MembershipClaimInput, PolynomialInput } from './claim-input.js';

/** The files of this core, for the SOURCE_TREE digest of a provider built on it. */
export const POLYNOMIAL_SOURCES: readonly string[] = ['./limits.ts', './field.ts', './polynomial.ts', './syntax.ts', './canonical.ts', './results.ts', './claim-input.ts', './standard-systems.ts', './index.ts'].map((file) =>
  fileURLToPath(new URL(file, import.meta.url)),
);
export { cyclicSystem, katsuraSystem } from './standard-systems.js';
export type { StandardSystem } from './standard-systems.js';
