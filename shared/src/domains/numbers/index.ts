/**
 * The number theory core: exact integer arithmetic shared by the runner's number-theory
 * capabilities and the independent checkers.
 */
export {
  bigAbs,
  bigGcd,
  DETERMINISTIC_MR_BOUND,
  extendedGcd,
  factorInteger,
  integerTextSchema,
  iroot,
  isPrimeProven,
  isProbablePrimeBpsw,
  isqrt,
  isSquare,
  isStrongLucasProbablePrime,
  isStrongProbablePrime,
  jacobi,
  mod,
  modInverse,
  perfectPowerRoot,
  pollardRhoBrent,
  powMod,
  smallPrimes,
} from './arith.js';
export type { ArithmeticBudget, PrimePower } from './arith.js';
export {
  primalityCertificateSize,
  CertifiedPrimePowerSchema,
  CompositeClaimSchema,
  CompositenessWitnessSchema,
  EcppStepSchema,
  PRIMALITY_CLAIM_SCHEMA_URI,
  PRIMALITY_CLAIM_SEMANTICS_URI,
  PRIMALITY_LIMITS,
  PRIMALITY_SOURCES,
  PrimalityCertificateKind,
  PrimalityCertificateSchema,
  PrimalityClaimSchema,
  PrimeClaimSchema,
} from './primality.js';
export type { CompositeClaim, CompositenessWitness, EcppCertificate, EcppStep, PrattCertificate, PrattFactor, PrimalityCertificate, PrimalityClaim, PrimeClaim, SmallCertificate } from './primality.js';
export { INTEGER_FACTORIZATION_CLAIM_SCHEMA_URI, INTEGER_FACTORIZATION_CLAIM_SEMANTICS_URI, INTEGER_FACTORIZATION_LIMITS, IntegerFactorizationClaimSchema } from './factorization.js';
export type { IntegerFactorizationClaim } from './factorization.js';
