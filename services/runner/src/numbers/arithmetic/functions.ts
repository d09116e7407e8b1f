/**
 * The classical arithmetic functions of n from its factorization n = ∏ p^e (primes increasing),
 * and the integer operations that need none: valuations, perfect powers, Bézout, integer roots.
 */
import { extendedGcd, iroot, JacobianError, smallPrimes } from '@jacobian/shared';

export interface PrimePowerFactor {
  readonly prime: bigint;
  readonly exponent: number;
}

/** τ(n) = ∏ (e + 1). */
export function divisorCount(factors: readonly PrimePowerFactor[]): bigint {
  return factors.reduce((t, f) => t * BigInt(f.exponent + 1), 1n);
}

/** The divisors of n in increasing order, at most `limit` of them (the smallest ones when τ(n) > limit). */
export function divisors(factors: readonly PrimePowerFactor[], limit: number): bigint[] {
  let all = [1n];
  const total = divisorCount(factors);
  if (total <= BigInt(limit)) {
    for (const { prime, exponent } of factors) {
      const next: bigint[] = [];
      for (const d of all) {
        let q = d;
        for (let e = 0; e <= exponent; e++) {
          next.push(q);
          q *= prime;
        }
      }
      all = next;
    }
    return all.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
  // Too many to list: the `limit` smallest, by a bounded merge (each step keeps the limit smallest).
  for (const { prime, exponent } of factors) {
    const next: bigint[] = [];
    for (const d of all) {
      let q = d;
      for (let e = 0; e <= exponent; e++) {
        next.push(q);
        q *= prime;
      }
    }
    all = next.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, limit);
  }
  return all;
}

/** σ_k(n) = ∏ (p^{k(e+1)} − 1)/(p^k − 1) (k ≥ 1); σ_0 = τ. */
export function sigma(factors: readonly PrimePowerFactor[], k: number): bigint {
  if (k === 0) return divisorCount(factors);
  const K = BigInt(k);
  return factors.reduce((s, { prime, exponent }) => {
    const pk = prime ** K;
    return (s * (pk ** BigInt(exponent + 1) - 1n)) / (pk - 1n);
  }, 1n);
}

/** Euler's φ(n) = ∏ p^{e−1}(p − 1). */
export function totient(factors: readonly PrimePowerFactor[]): bigint {
  return factors.reduce((t, { prime, exponent }) => t * prime ** BigInt(exponent - 1) * (prime - 1n), 1n);
}

/** Möbius μ(n): 0 when a square divides n, else (−1)^(number of primes). */
export function mobius(factors: readonly PrimePowerFactor[]): -1 | 0 | 1 {
  if (factors.some((f) => f.exponent > 1)) return 0;
  return factors.length % 2 === 0 ? 1 : -1;
}

/** v_p(n) for n ≠ 0 and p ≥ 2: the largest e with p^e | n, and n / p^e. */
export function valuation(n: bigint, p: bigint): { exponent: number; unit_part: bigint } {
  if (n === 0n || p < 2n) throw new JacobianError('INTERNAL', 'valuation needs n ≠ 0 and p ≥ 2');
  let exponent = 0;
  let m = n;
  // Square the divisor while it divides: O(log e) big divisions instead of e.
  const powers: bigint[] = [p];
  while (m % (powers[powers.length - 1] as bigint) === 0n && (powers[powers.length - 1] as bigint) <= (m < 0n ? -m : m)) powers.push((powers[powers.length - 1] as bigint) ** 2n);
  for (let i = powers.length - 1; i >= 0; i--) {
    const q = powers[i] as bigint;
    while (m % q === 0n) {
      m /= q;
      exponent += 2 ** i;
    }
  }
  return { exponent, unit_part: m };
}

/** ⌊n^(1/k)⌋ (the floor of the real k-th root; n < 0 only for odd k), and whether it is exact. */
export function integerRoot(n: bigint, k: number): { root: bigint; exact: boolean; remainder: bigint } {
  if (n < 0n) {
    if (k % 2 === 0) throw new JacobianError('INTERNAL', 'an even root of a negative number');
    const r = iroot(-n, k);
    const exact = r ** BigInt(k) === -n;
    const root = exact ? -r : -r - 1n;
    return { root, exact, remainder: n - root ** BigInt(k) };
  }
  const root = iroot(n, k);
  const rem = n - root ** BigInt(k);
  return { root, exact: rem === 0n, remainder: rem };
}

/**
 * n = b^k with k ≥ 2 as large as possible (|n| ≥ 2; for n < 0 only odd k), by integer k-th
 * roots for every prime k ≤ log2 |n|; null when n is not a perfect power. Every exponent
 * that works is a divisor of the largest.
 */
export function perfectPower(n: bigint): { base: bigint; exponent: number } | null {
  const negative = n < 0n;
  let m = negative ? -n : n;
  if (m < 2n) return null;
  let exponent = 1;
  // Take prime roots while they are exact: the exponent is the product of the primes taken.
  const primes = smallPrimes(m.toString(2).length + 1);
  let progress = true;
  while (progress) {
    progress = false;
    for (const k of primes) {
      if (negative && k === 2) continue;
      if (k > m.toString(2).length) break;
      const r = iroot(m, k);
      if (r >= 2n && r ** BigInt(k) === m) {
        m = r;
        exponent *= k;
        progress = true;
        break;
      }
    }
  }
  return exponent === 1 ? null : { base: negative ? -m : m, exponent };
}

/** g = gcd(a_1, …, a_k) ≥ 0 and Bézout coefficients x with Σ a_i x_i = g (iterated extended Euclid). */
export function extendedGcdMany(values: readonly bigint[]): { gcd: bigint; coefficients: bigint[] } {
  let g = 0n;
  let coefficients: bigint[] = [];
  for (const a of values) {
    const step = extendedGcd(g, a);
    coefficients = [...coefficients.map((c) => c * step.x), step.y];
    g = step.g;
  }
  return { gcd: g, coefficients };
}
