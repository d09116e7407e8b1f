/**
 * Exact integer arithmetic every number-theory capability and checker builds on: the integer text
 * rule for requests, Euclid, modular inverses, integer roots, the Jacobi symbol, probable-prime
 * tests (strong Fermat, strong Lucas, Baillie–PSW, and Miller–Rabin on fixed bases where it is
 * proven deterministic), a prime sieve, Pollard's rho (Brent's variant) and a plain factorizer on
 * top of them. All on bigint; nothing here is a certificate — a prime found by these tests is
 * `proven` only below {@link DETERMINISTIC_MR_BOUND}.
 */
import { z } from 'zod';
import { JacobianError } from '../../errors.js';
import { bigAbs, bigGcd, powMod } from '../polynomial/field.js';

export { bigAbs, bigGcd, powMod };

const INTEGER_TEXT = /^-?(0|[1-9][0-9]*)$/;

/**
 * A decimal integer as text: an optional minus sign and digits without leading zeros ("-0" is
 * not canonical), at most `maxDigits` digits. `nonNegative` / `positive` narrow the sign.
 */
export function integerTextSchema(options: { maxDigits: number; sign?: 'any' | 'non-negative' | 'positive' }): z.ZodType<string> {
  const { maxDigits, sign = 'any' } = options;
  const what = sign === 'positive' ? 'a positive integer' : sign === 'non-negative' ? 'a non-negative integer' : 'an integer';
  return z
    .string()
    .max(maxDigits + 1, { message: `${what} of at most ${maxDigits} digits (rule: integer-digits)` })
    .superRefine((text, ctx) => {
      if (!INTEGER_TEXT.test(text) || text === '-0') {
        ctx.addIssue({ code: 'custom', message: `${what} in decimal without leading zeros, e.g. "-12" (rule: integer-text)` });
        return;
      }
      const digits = text.startsWith('-') ? text.length - 1 : text.length;
      if (digits > maxDigits) ctx.addIssue({ code: 'custom', message: `${what} of at most ${maxDigits} digits; this one has ${digits} (rule: integer-digits)` });
      else if (sign !== 'any' && text.startsWith('-')) ctx.addIssue({ code: 'custom', message: `${what} (rule: integer-sign)` });
      else if (sign === 'positive' && text === '0') ctx.addIssue({ code: 'custom', message: `${what} (rule: integer-sign)` });
    })
    .describe(`${what} in decimal, at most ${maxDigits} digits`);
}

/** The non-negative residue of a modulo m (m > 0). */
export function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

/** g = gcd(a, b) ≥ 0 with a·x + b·y = g (Bézout coefficients from the extended Euclidean algorithm). */
export function extendedGcd(a: bigint, b: bigint): { g: bigint; x: bigint; y: bigint } {
  let [r0, r1] = [a, b];
  let [x0, x1] = [1n, 0n];
  let [y0, y1] = [0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [x0, x1] = [x1, x0 - q * x1];
    [y0, y1] = [y1, y0 - q * y1];
  }
  return r0 < 0n ? { g: -r0, x: -x0, y: -y0 } : { g: r0, x: x0, y: y0 };
}

/** The inverse of a modulo m (m ≥ 1) in [0, m), or null when gcd(a, m) ≠ 1. */
export function modInverse(a: bigint, m: bigint): bigint | null {
  if (m === 1n) return 0n;
  const { g, x } = extendedGcd(mod(a, m), m);
  return g === 1n ? mod(x, m) : null;
}

/** ⌊√n⌋ for n ≥ 0 (Newton's iteration from above). */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new JacobianError('INTERNAL', 'isqrt of a negative number');
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** ⌊n^(1/k)⌋ for n ≥ 0 and k ≥ 1 (Newton's iteration from above). */
export function iroot(n: bigint, k: number): bigint {
  if (n < 0n || !Number.isInteger(k) || k < 1) throw new JacobianError('INTERNAL', 'iroot needs n ≥ 0 and an integer k ≥ 1');
  if (k === 1 || n < 2n) return n;
  if (k === 2) return isqrt(n);
  const bits = n.toString(2).length;
  if (k >= bits) return 1n;
  const K = BigInt(k);
  let x = 1n << BigInt(Math.ceil(bits / k));
  for (;;) {
    const y = ((K - 1n) * x + n / x ** (K - 1n)) / K;
    if (y >= x) return x;
    x = y;
  }
}

/** True when n ≥ 0 is a perfect square. */
export function isSquare(n: bigint): boolean {
  if (n < 0n) return false;
  const r = isqrt(n);
  return r * r === n;
}

/** The Jacobi symbol (a/n) for odd n > 0: 0 when gcd(a, n) > 1, otherwise ±1. */
export function jacobi(a: bigint, n: bigint): -1 | 0 | 1 {
  if (n <= 0n || (n & 1n) === 0n) throw new JacobianError('INTERNAL', 'the Jacobi symbol needs an odd positive modulus');
  a = mod(a, n);
  let result: -1 | 1 = 1;
  while (a !== 0n) {
    while ((a & 1n) === 0n) {
      a >>= 1n;
      const r = n & 7n;
      if (r === 3n || r === 5n) result = result === 1 ? -1 : 1;
    }
    [a, n] = [n, a];
    if ((a & 3n) === 3n && (n & 3n) === 3n) result = result === 1 ? -1 : 1;
    a %= n;
  }
  return n === 1n ? result : 0;
}

/** n − 1 = d·2^s with d odd (n > 1). */
function oddPart(m: bigint): { d: bigint; s: number } {
  let d = m;
  let s = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    s++;
  }
  return { d, s };
}

/** Whether odd n > 2 is a strong probable prime to base a (Miller–Rabin's single round). */
export function isStrongProbablePrime(n: bigint, a: bigint): boolean {
  const { d, s } = oddPart(n - 1n);
  let x = powMod(a, d, n);
  if (x === 1n || x === n - 1n || x === 0n) return x !== 0n;
  for (let r = 1; r < s; r++) {
    x = (x * x) % n;
    if (x === n - 1n) return true;
  }
  return false;
}

/** Halve x modulo odd n. */
function half(x: bigint, n: bigint): bigint {
  return (x & 1n) === 0n ? x >> 1n : (x + n) >> 1n;
}

/**
 * Whether odd n > 2, not a perfect square, is a strong Lucas probable prime with Selfridge's
 * parameters (method A: D the first of 5, −7, 9, −11, … with (D/n) = −1, P = 1, Q = (1 − D)/4).
 */
export function isStrongLucasProbablePrime(n: bigint): boolean {
  let D = 5n;
  for (;;) {
    const j = jacobi(D, n);
    if (j === -1) break;
    if (j === 0 && bigAbs(D) !== n) return false;
    D = D > 0n ? -(D + 2n) : -D + 2n;
    if (D === 13n && isSquare(n)) return false;
  }
  const Q = (1n - D) / 4n;
  const { d, s } = oddPart(n + 1n);
  // U_k, V_k and Q^k modulo n by the binary method over the bits of d (P = 1).
  let U = 1n;
  let V = 1n;
  let Qk = mod(Q, n);
  const Qn = Qk;
  const Dn = mod(D, n);
  const bits = d.toString(2);
  for (let i = 1; i < bits.length; i++) {
    U = (U * V) % n;
    V = mod(V * V - 2n * Qk, n);
    Qk = (Qk * Qk) % n;
    if (bits[i] === '1') {
      const u = half(U + V, n);
      const v = half((Dn * U + V) % n, n);
      U = u % n;
      V = v % n;
      Qk = (Qk * Qn) % n;
    }
  }
  if (U === 0n || V === 0n) return true;
  for (let r = 1; r < s; r++) {
    V = mod(V * V - 2n * Qk, n);
    Qk = (Qk * Qk) % n;
    if (V === 0n) return true;
  }
  return false;
}

/** Primes below this bound are decided exactly by Miller–Rabin on the first 13 primes as bases (Sorenson and Webster, 2015: ψ13 = 3317044064679887385961981). */
export const DETERMINISTIC_MR_BOUND = 3317044064679887385961981n;
const MR_BASES = [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n];
const SMALL_PRIMES = smallPrimes(1000).map(BigInt);

/**
 * Baillie–PSW: trial division by the primes below 1000, a strong probable-prime test to base 2 and
 * a strong Lucas test. Below {@link DETERMINISTIC_MR_BOUND} the answer is replaced by the
 * deterministic Miller–Rabin test, so it is exact there; above, no counterexample is known, but
 * a `true` is not a proof.
 */
export function isProbablePrimeBpsw(n: bigint): boolean {
  if (n < 2n) return false;
  for (const p of SMALL_PRIMES) {
    if (n === p) return true;
    if (n % p === 0n) return false;
  }
  if (n < 1_000_000n) return true;
  if (n < DETERMINISTIC_MR_BOUND) return MR_BASES.every((a) => isStrongProbablePrime(n, a));
  return isStrongProbablePrime(n, 2n) && isStrongLucasProbablePrime(n);
}

/** Whether n is prime with a proof behind the answer: exact below {@link DETERMINISTIC_MR_BOUND}, null above (the caller must certify). */
export function isPrimeProven(n: bigint): boolean | null {
  if (n >= DETERMINISTIC_MR_BOUND) return isProbablePrimeBpsw(n) ? null : false;
  return isProbablePrimeBpsw(n);
}

/** The primes p < limit (sieve of Eratosthenes; limit ≤ 10^8). */
export function smallPrimes(limit: number): number[] {
  if (!Number.isInteger(limit) || limit > 100_000_000) throw new JacobianError('INTERNAL', 'smallPrimes needs an integer limit ≤ 10^8');
  if (limit < 3) return [];
  const composite = new Uint8Array(limit);
  const primes: number[] = [];
  for (let i = 2; i < limit; i++) {
    if (composite[i] === 1) continue;
    primes.push(i);
    for (let j = i * i; j < limit; j += i) composite[j] = 1;
  }
  return primes;
}

/** Stop conditions for the long loops below: a deadline (epoch ms) and an abort signal, checked every few thousand steps. */
export interface ArithmeticBudget {
  readonly deadline?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** Throws EXECUTION_CANCELLED or EXECUTION_TIMEOUT when the budget's signal fired or its deadline passed; call it every few thousand steps of a long loop. */
export function checkBudget(budget: ArithmeticBudget | undefined): void {
  if (budget?.signal?.aborted === true) throw new JacobianError('EXECUTION_CANCELLED', 'the computation was cancelled');
  if (budget?.deadline !== undefined && Date.now() > budget.deadline) throw new JacobianError('EXECUTION_TIMEOUT', 'the computation reached its time budget before finishing');
}

/**
 * A non-trivial factor of odd composite n by Pollard's rho with Brent's cycle finding and batched
 * gcds, on x ↦ x² + c for c = 1, 2, …; null when `maxIterations` pass without one.
 */
export function pollardRhoBrent(n: bigint, options: ArithmeticBudget & { maxIterations?: number } = {}): bigint | null {
  if (n % 2n === 0n) return 2n;
  const maxIterations = options.maxIterations ?? Number.MAX_SAFE_INTEGER;
  let iterations = 0;
  for (let c = 1n; c < 64n; c++) {
    let y = 2n;
    let x: bigint;
    let ys: bigint;
    let q = 1n;
    let g: bigint;
    let r = 1;
    const m = 128;
    const f = (v: bigint): bigint => (v * v + c) % n;
    do {
      x = y;
      for (let i = 0; i < r; i++) y = f(y);
      let k = 0;
      do {
        ys = y;
        const steps = Math.min(m, r - k);
        for (let i = 0; i < steps; i++) {
          y = f(y);
          q = (q * bigAbs(x - y)) % n;
        }
        g = bigGcd(q, n);
        k += steps;
        iterations += steps;
        if (iterations % 4096 < steps) checkBudget(options);
        if (iterations > maxIterations) return null;
      } while (k < r && g === 1n);
      r *= 2;
    } while (g === 1n);
    if (g === n) {
      // The batch overshot: step back one at a time from the saved point.
      do {
        ys = f(ys);
        g = bigGcd(bigAbs(x - ys), n);
      } while (g === 1n);
    }
    if (g !== n) return g;
  }
  return null;
}

/** One prime power of a factorization; `proven` is false when the prime passed Baillie–PSW only (above {@link DETERMINISTIC_MR_BOUND}). */
export interface PrimePower {
  readonly prime: bigint;
  readonly exponent: number;
  readonly proven: boolean;
}

/**
 * The factorization of n ≥ 1 by trial division below 10^4 and Pollard's rho (Brent) on what is
 * left: complete, sorted by prime. Meant for moduli and group orders of modest size (a rho factor
 * of 20 digits takes ~10^10 steps: use a budget); it does not certify primes above the
 * deterministic bound — see `proven`.
 *
 * @throws JacobianError EXECUTION_TIMEOUT / EXECUTION_CANCELLED from the budget.
 */
export function factorInteger(n: bigint, budget: ArithmeticBudget = {}): PrimePower[] {
  if (n < 1n) throw new JacobianError('INTERNAL', 'factorInteger needs n ≥ 1');
  const found = new Map<bigint, number>();
  const add = (p: bigint, e = 1): void => {
    found.set(p, (found.get(p) ?? 0) + e);
  };
  let rest = n;
  for (const p of smallPrimes(10_000)) {
    const P = BigInt(p);
    if (P * P > rest) break;
    while (rest % P === 0n) {
      rest /= P;
      add(P);
    }
  }
  const stack = rest > 1n ? [rest] : [];
  while (stack.length > 0) {
    const m = stack.pop() as bigint;
    if (isProbablePrimeBpsw(m)) {
      add(m);
      continue;
    }
    const root = perfectPowerRoot(m);
    if (root !== null) {
      for (let i = 0; i < root.exponent; i++) stack.push(root.base);
      continue;
    }
    const d = pollardRhoBrent(m, budget);
    if (d === null) throw new JacobianError('EXECUTION_TIMEOUT', `Pollard's rho found no factor of a ${m.toString().length}-digit composite`);
    stack.push(d, m / d);
  }
  return [...found.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([prime, exponent]) => ({ prime, exponent, proven: prime < DETERMINISTIC_MR_BOUND }));
}

/** n = base^exponent with the largest exponent ≥ 2, or null when n ≥ 2 is not a perfect power. */
export function perfectPowerRoot(n: bigint): { base: bigint; exponent: number } | null {
  if (n < 4n) return null;
  const bits = n.toString(2).length;
  for (let k = bits; k >= 2; k--) {
    const r = iroot(n, k);
    if (r >= 2n && r ** BigInt(k) === n) return { base: r, exponent: k };
  }
  return null;
}
