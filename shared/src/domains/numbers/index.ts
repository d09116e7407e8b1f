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
