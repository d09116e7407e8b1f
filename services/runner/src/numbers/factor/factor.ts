/**
 * Our integer factoring engine: trial division by the primes below 2^14, then, on each composite
 * part, a perfect-power test, Pollard's rho (Brent) for small factors, the multiple-polynomial
 * quadratic sieve from 18 to 46 digits (mpqs.ts), and ECM for the rest, until
 * every part passes Baillie–PSW. Within a budget: when it ends, the parts not yet split are
 * returned as composite cofactors (a partial factorization), never as primes.
 *
 * The primes it returns are probable primes (Baillie–PSW), exact below DETERMINISTIC_MR_BOUND;
 * a caller that claims primality above it certifies them (see factorization-certify.ts).
 */
import { isProbablePrimeBpsw, JacobianError, perfectPowerRoot, pollardRhoBrent, smallPrimes, toAppError, checkBudget, type ArithmeticBudget } from '@jacobian/shared';

import { ecmFactor } from './ecm.js';
import { MPQS_MAX_DIGITS, MPQS_MIN_DIGITS, mpqsFactor } from './mpqs.js';

/** Trial division bound: every prime factor below it is found by division. */
export const TRIAL_DIVISION_BOUND = 16_384;
const TRIAL_PRIMES = smallPrimes(TRIAL_DIVISION_BOUND).map(BigInt);
const TRIAL_SQUARE = BigInt(TRIAL_DIVISION_BOUND) ** 2n;

/** Rho steps tried before ECM on a part above 2^64 (finds factors of up to ~9 digits quickly). */
const RHO_STEPS_BEFORE_ECM = 40_000;
/** Rho steps before the quadratic sieve: a 20-digit sieve takes about as long as 5000 rho steps. */
const RHO_STEPS_BEFORE_SIEVE = 5_000;
/** Parts below this are left to rho alone (their smallest factor is below 2^32). */
const RHO_ONLY_BELOW = 1n << 64n;

/** How the factorization was found: what each method contributed. */
export interface FactorStats {
  trial_division_factors: number;
  perfect_powers: number;
  rho_splits: number;
  ecm_splits: number;
  mpqs_splits: number;
  ecm_curves: number;
  /** The largest stage-1 bound B1 an ECM curve used; 0 when ECM did not run. */
  ecm_largest_b1: number;
}

/** A factorization, possibly partial: n = ∏ prime^e · ∏ composite^e. */
export interface EngineFactorization {
  /** Probable primes (Baillie–PSW) with exponents, sorted by prime. */
  primes: { prime: bigint; exponent: number }[];
  /** Composite parts left unsplit when the budget ended, sorted; [] for a complete factorization. */
  composites: { value: bigint; exponent: number }[];
  stats: FactorStats;
  /** Why the factorization is partial (the budget's error code), or null. */
  stopped: 'EXECUTION_TIMEOUT' | null;
}

export interface FactorEngineOptions extends ArithmeticBudget {
  /** The seed of ECM's σ sequence (deterministic runs by default). */
  seed?: number;
}

const byValue = <T>(key: (x: T) => bigint) => (a: T, b: T): number => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** Above this many digits, ECM's first curves (factors up to ~15 digits) run before the sieve, whose time does not shrink with the factor. */
const ECM_BEFORE_MPQS_ABOVE_DIGITS = 34;
const ECM_CURVES_BEFORE_MPQS = 35;

/**
 * One proper factor of composite m (odd, not a perfect power): rho for small factors; then, from
 * 18 to 46 digits, the quadratic sieve (after a few ECM curves above 34 digits); ECM otherwise,
 * or when the sieve's dependencies all give trivial gcds.
 */
function split(m: bigint, options: FactorEngineOptions, stats: FactorStats): bigint {
  const digits = m.toString().length;
  const sieveRange = digits >= MPQS_MIN_DIGITS && digits <= MPQS_MAX_DIGITS;
  const rho = pollardRhoBrent(m, { ...options, ...(m < RHO_ONLY_BELOW ? {} : { maxIterations: sieveRange ? RHO_STEPS_BEFORE_SIEVE : RHO_STEPS_BEFORE_ECM }) });
  if (rho !== null && rho > 1n && rho < m) {
    stats.rho_splits++;
    return rho;
  }
  const record = (result: { curves: number; b1: number }): void => {
    stats.ecm_curves += result.curves;
    stats.ecm_largest_b1 = Math.max(stats.ecm_largest_b1, result.b1);
  };
  if (sieveRange) {
    if (digits > ECM_BEFORE_MPQS_ABOVE_DIGITS) {
      const early = ecmFactor(m, { ...options, seed: options.seed ?? 1, maxCurves: ECM_CURVES_BEFORE_MPQS });
      record(early);
      if (early.factor !== null) {
        stats.ecm_splits++;
        return early.factor;
      }
    }
    const d = mpqsFactor(m, options);
    if (d !== null) {
      stats.mpqs_splits++;
      return d;
    }
  }
  const ecm = ecmFactor(m, { ...options, seed: (options.seed ?? 1) + 1 });
  record(ecm);
  if (ecm.factor === null) throw new JacobianError('INTERNAL', 'ECM returned without a factor');
  stats.ecm_splits++;
  return ecm.factor;
}

/**
 * The factorization of n ≥ 1. Stops at the budget with the unsplit parts as composites
 * (`stopped: 'EXECUTION_TIMEOUT'`); a cancelled signal throws EXECUTION_CANCELLED.
 *
 * @example factorEngine(600851475143n).primes // 71, 839, 1471, 6857 (each exponent 1)
 */
export function factorEngine(n: bigint, options: FactorEngineOptions = {}): EngineFactorization {
  if (n < 1n) throw new JacobianError('INTERNAL', 'factorEngine needs n ≥ 1');
  const stats: FactorStats = { trial_division_factors: 0, perfect_powers: 0, rho_splits: 0, ecm_splits: 0, mpqs_splits: 0, ecm_curves: 0, ecm_largest_b1: 0 };
  const primes = new Map<bigint, number>();
  const addPrime = (p: bigint, e: number): void => void primes.set(p, (primes.get(p) ?? 0) + e);
  let rest = n;
  for (const p of TRIAL_PRIMES) {
    if (p * p > rest) break;
    if (rest % p !== 0n) continue;
    let e = 0;
    while (rest % p === 0n) {
      rest /= p;
      e++;
    }
    addPrime(p, e);
    stats.trial_division_factors++;
  }
  // Parts to split, each with the exponent it carries in n.
  const stack: { value: bigint; exponent: number }[] = rest > 1n ? [{ value: rest, exponent: 1 }] : [];
  const composites = new Map<bigint, number>();
  let stopped: EngineFactorization['stopped'] = null;
  while (stack.length > 0) {
    const { value: m, exponent } = stack.pop() as { value: bigint; exponent: number };
    if (stopped !== null) {
      composites.set(m, (composites.get(m) ?? 0) + exponent);
      continue;
    }
    if (m < TRIAL_SQUARE) {
      // Every prime below the trial bound is gone (or the division stopped at √rest, rest prime): m is prime.
      addPrime(m, exponent);
      continue;
    }
    if (isProbablePrimeBpsw(m)) {
      addPrime(m, exponent);
      continue;
    }
    const root = perfectPowerRoot(m);
    if (root !== null) {
      stats.perfect_powers++;
      stack.push({ value: root.base, exponent: exponent * root.exponent });
      continue;
    }
    try {
      checkBudget(options);
      const d = split(m, options, stats);
      // d and m/d may share primes (m = p²q split as p · pq): the prime map sums their exponents.
      stack.push({ value: d, exponent }, { value: m / d, exponent });
    } catch (error) {
      const cause = toAppError(error);
      if (cause.code !== 'EXECUTION_TIMEOUT') throw cause;
      stopped = 'EXECUTION_TIMEOUT';
      composites.set(m, (composites.get(m) ?? 0) + exponent);
    }
  }
  return {
    primes: [...primes.entries()].map(([prime, exponent]) => ({ prime, exponent })).sort(byValue((x) => x.prime)),
    composites: mergeComposites(composites),
    stats,
    stopped,
  };
}

/** The composite parts as given (equal parts merged), sorted. */
function mergeComposites(parts: Map<bigint, number>): { value: bigint; exponent: number }[] {
  return [...parts.entries()].map(([value, exponent]) => ({ value, exponent })).sort(byValue((x) => x.value));
}
