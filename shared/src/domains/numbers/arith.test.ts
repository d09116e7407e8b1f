import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  DETERMINISTIC_MR_BOUND,
  extendedGcd,
  factorInteger,
  integerTextSchema,
  iroot,
  isPrimeProven,
  isProbablePrimeBpsw,
  isqrt,
  isStrongLucasProbablePrime,
  isStrongProbablePrime,
  jacobi,
  modInverse,
  perfectPowerRoot,
  pollardRhoBrent,
  powMod,
  smallPrimes,
} from './arith.js';

/** Primality by trial division: the reference for small n. */
function isPrimeNaive(n: number): boolean {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}

describe('integer text', () => {
  const schema = integerTextSchema({ maxDigits: 5, sign: 'positive' });
  it('accepts canonical decimal and names the rule it breaks', () => {
    expect(schema.parse('12345')).toBe('12345');
    for (const [text, rule] of [['0', 'integer-sign'], ['-3', 'integer-sign'], ['012', 'integer-text'], ['1e3', 'integer-text'], ['-0', 'integer-text'], ['123456', 'integer-digits'], [' 1', 'integer-text']] as const) {
      const result = schema.safeParse(text);
      expect(result.success, text).toBe(false);
      expect(result.error?.issues[0]?.message, text).toContain(`rule: ${rule}`);
    }
    expect(integerTextSchema({ maxDigits: 3 }).parse('-999')).toBe('-999');
  });
});

describe('Euclid, inverses and roots', () => {
  test.prop([fc.bigInt(), fc.bigInt()])('Bézout coefficients', (a, b) => {
    const { g, x, y } = extendedGcd(a, b);
    expect(a * x + b * y).toBe(g);
    expect(g >= 0n).toBe(true);
    if (g !== 0n) expect(a % g === 0n && b % g === 0n).toBe(true);
  });
  test.prop([fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 20n })])('inverse modulo m', (a, m) => {
    const inv = modInverse(a, m);
    if (inv === null) expect(extendedGcd(a, m).g).not.toBe(1n);
    else expect((((a * inv) % m) + m) % m).toBe(m === 1n ? 0n : 1n);
  });
  test.prop([fc.bigInt({ min: 0n, max: 10n ** 80n }), fc.integer({ min: 1, max: 12 })])('floor of k-th roots', (n, k) => {
    const r = iroot(n, k);
    const K = BigInt(k);
    expect(r ** K <= n && (r + 1n) ** K > n).toBe(true);
    if (k === 2) expect(isqrt(n)).toBe(r);
  });
  it('powers reduce into [0, m), also modulo 1', () => {
    expect(powMod(5n, 0n, 1n)).toBe(0n);
    expect(powMod(-2n, 3n, 7n)).toBe(6n);
    expect(powMod(3n, 0n, 7n)).toBe(1n);
  });
  it('perfect powers with their largest exponent', () => {
    expect(perfectPowerRoot(2n ** 60n)).toEqual({ base: 2n, exponent: 60 });
    expect(perfectPowerRoot(3n ** 5n * 5n ** 5n)).toEqual({ base: 15n, exponent: 5 });
    expect(perfectPowerRoot(10n ** 20n + 1n)).toBeNull();
    expect(perfectPowerRoot(72n)).toBeNull();
  });
});

describe('Jacobi symbol', () => {
  it('agrees with Euler\'s criterion modulo odd primes', () => {
    for (const p of smallPrimes(200).slice(1)) {
      for (let a = -5; a < 2 * p; a += 3) {
        const e = BigInt(a) % BigInt(p) === 0n ? 0 : (((BigInt(a) % BigInt(p)) + BigInt(p)) ** BigInt((p - 1) / 2)) % BigInt(p) === 1n ? 1 : -1;
        expect(jacobi(BigInt(a), BigInt(p)), `(${a}/${p})`).toBe(e);
      }
    }
  });
  it('is multiplicative in the modulus', () => {
    for (const [m, n] of [[15n, 7n], [9n, 11n], [21n, 25n]] as const) for (let a = 0n; a < 40n; a++) expect(jacobi(a, m * n)).toBe(jacobi(a, m) * jacobi(a, n) || 0);
  });
});

describe('probable primes', () => {
  it('match trial division below 200000', () => {
    for (let n = 0; n < 200_000; n += n < 2000 ? 1 : 7) expect(isProbablePrimeBpsw(BigInt(n)), `${n}`).toBe(isPrimeNaive(n));
  });
  it('reject Carmichael numbers and strong pseudoprimes to many bases', () => {
    const carmichael = [561n, 1105n, 1729n, 2465n, 2821n, 6601n, 8911n, 41041n, 825265n, 321197185n, 5394826801n, 232250619601n, 9746347772161n];
    for (const n of carmichael) expect(isProbablePrimeBpsw(n), `${n}`).toBe(false);
    // 3825123056546413051: a strong pseudoprime to the bases 2..23; 318665857834031151167461: to 2..37 (Jiang and Deng); ψ13 itself to 2..37.
    expect(isStrongProbablePrime(3825123056546413051n, 2n)).toBe(true);
    expect(isProbablePrimeBpsw(3825123056546413051n)).toBe(false);
    expect(isProbablePrimeBpsw(318665857834031151167461n)).toBe(false);
    expect(isProbablePrimeBpsw(3317044064679887385961981n)).toBe(false);
  });
  it('strong Lucas pseudoprimes are caught by the base-2 test', () => {
    for (const n of [5459n, 5777n, 10877n, 16109n, 18971n]) {
      expect(isStrongLucasProbablePrime(n), `${n}`).toBe(true);
      expect(isStrongProbablePrime(n, 2n)).toBe(false);
      expect(isProbablePrimeBpsw(n)).toBe(false);
    }
  });
  it('the Lucas test accepts primes and rejects products above the deterministic bound', () => {
    const p = 2n ** 89n - 1n;
    const q = 2n ** 107n - 1n;
    expect(isStrongLucasProbablePrime(p) && isStrongLucasProbablePrime(q)).toBe(true);
    expect(isProbablePrimeBpsw(p * q)).toBe(false);
    expect(isProbablePrimeBpsw(2n ** 127n - 1n)).toBe(true);
    expect(isPrimeProven(2n ** 127n - 1n)).toBeNull();
    expect(isPrimeProven(2n ** 61n - 1n)).toBe(true);
    expect(isPrimeProven(DETERMINISTIC_MR_BOUND)).toBe(false);
  });
});

describe('factoring', () => {
  it('rho splits semiprimes', () => {
    const p = 1000000007n;
    const q = 998244353n;
    const d = pollardRhoBrent(p * q);
    expect(d === p || d === q).toBe(true);
  });
  test.prop([fc.array(fc.integer({ min: 2, max: 100_000 }), { minLength: 1, maxLength: 6 })])('products of small numbers', (parts) => {
    const n = parts.reduce((a, b) => a * BigInt(b), 1n);
    const f = factorInteger(n);
    expect(f.reduce((a, { prime, exponent }) => a * prime ** BigInt(exponent), 1n)).toBe(n);
    for (const { prime, proven } of f) expect(isPrimeNaive(Number(prime)) && proven).toBe(true);
  });
  it('prime powers and a 30-digit composite', () => {
    expect(factorInteger(1000003n ** 4n)).toEqual([{ prime: 1000003n, exponent: 4, proven: true }]);
    const n = 1000000007n * 1000000009n * 2147483647n;
    expect(factorInteger(n).map((x) => x.prime)).toEqual([1000000007n, 1000000009n, 2147483647n]);
    expect(factorInteger(1n)).toEqual([]);
  });
  it('stops at its deadline', () => {
    const p = 2n ** 61n - 1n;
    const q = 2n ** 89n - 1n;
    expect(() => factorInteger(p * q, { deadline: Date.now() - 1 })).toThrow(/time budget/);
  });
});
