/**
 * The number theory core: exact integer arithmetic shared by the runner's number-theory
 * capabilities and the independent checkers.
 */
export {
  bigAbs,
  bigGcd,
  checkBudget,
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
export { DIOPHANTINE_CLAIM_SCHEMA_URI, DIOPHANTINE_CLAIM_SEMANTICS_URI, DIOPHANTINE_LIMITS, DIOPHANTINE_SOURCES, DiophantineClaimSchema, FormSchema, TransformSchema } from './diophantine.js';
export type { DiophantineClaim, FormText, TransformText } from './diophantine.js';
export {
  addPoints,
  changeModel,
  countPointsModP,
  curveInvariants,
  formatRational,
  hasExactOrder,
  isIntegralModel,
  isOnCurve,
  MAZUR_MAX_ORDER,
  MAZUR_STRUCTURES,
  multiplyPoint,
  negatePoint,
  parseRational,
  pointOrder,
  pointToModel,
  qAdd,
  qDiv,
  qEq,
  qInt,
  qIsZero,
  qMul,
  qNeg,
  qPow,
  qSub,
  rational,
  rationalTextSchema,
  torsionSubgroup,
} from './elliptic.js';
export type { CurveInvariants, CurvePoint, ModelChange, Weierstrass } from './elliptic.js';
export {
  ELLIPTIC_CURVE_CLAIM_SCHEMA_URI,
  ELLIPTIC_CURVE_CLAIM_SEMANTICS_URI,
  ELLIPTIC_CURVE_LIMITS,
  EllipticCurveClaimSchema,
  ModelChangeInputSchema,
  modelChangeOf,
  PointInputSchema,
  pointOf,
  PointOrderSchema,
  pointText,
  requireEllipticCurve,
  WeierstrassInputSchema,
  weierstrassOf,
} from './elliptic-claim.js';
export type { EllipticCurveClaim, EllipticCurveClaimInput } from './elliptic-claim.js';
export { NUMBER_FIELD_LIMITS, NumberFieldPolynomialSchema, qpolyAdd, qpolyCompose, qpolyEq, qpolyIsZero, qpolyMod, qpolyMul, qpolyNeg, X as QPOLY_X } from './number-field.js';
export type { QPolynomial } from './number-field.js';

export { MODULAR_CLAIM_SCHEMA_URI, MODULAR_CLAIM_SEMANTICS_URI, MODULAR_LIMITS, MODULAR_SOURCES, ModularClaimSchema, ModularFactorSchema } from './modular.js';
export type { ModularClaim, ModularClaimKind, ModularFactor } from './modular.js';
