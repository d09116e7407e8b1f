import { describe, expect, it } from 'vitest';
import { isProbablePrimeBpsw, isPrimeProven } from '@jacobian/shared';
import { ecmCurve, ecmFactor, stage1Multiplier } from './ecm.js';
import { factorEngine } from './factor.js';
import { mpqsFactor } from './mpqs.js';

/** The least (Baillie–PSW probable) prime ≥ start: exact below the deterministic Miller–Rabin bound. */
function nextPrime(start: bigint): bigint {
  let p = start;
  while (!isProbablePrimeBpsw(p)) p++;
  return p;
}

/** The least safe prime p = 2q + 1 ≥ start: p − 1 = 2q has a prime factor of p's size (p − 1 not smooth). */
function nextSafePrime(start: bigint): bigint {
  let q = nextPrime(start / 2n);
  while (isPrimeProven(2n * q + 1n) !== true) q = nextPrime(q + 1n);
  return 2n * q + 1n;
}

/** n rebuilt from its factorization, and each prime really prime. */
function expectComplete(n: bigint): { prime: bigint; exponent: number }[] {
  const result = factorEngine(n);
  expect(result.stopped).toBeNull();
  expect(result.composites).toEqual([]);
  let product = 1n;
  for (const { prime, exponent } of result.primes) {
    expect(isProbablePrimeBpsw(prime)).toBe(true);
    product *= prime ** BigInt(exponent);
  }
  expect(product).toBe(n);
  const sorted = result.primes.map((x) => x.prime);
  expect([...sorted].sort((a, b) => (a < b ? -1 : 1))).toEqual(sorted);
  return result.primes;
}

describe('factorEngine', () => {
  it('factors 1, small numbers and the brute-force range exactly', () => {
    expect(factorEngine(1n).primes).toEqual([]);
    for (let n = 2; n < 3000; n++) {
      const expected: { prime: bigint; exponent: number }[] = [];
      let m = n;
      for (let p = 2; p <= m; p++) {
        let e = 0;
        while (m % p === 0) {
          m /= p;
          e++;
        }
        if (e > 0) expected.push({ prime: BigInt(p), exponent: e });
      }
      expect(factorEngine(BigInt(n)).primes).toEqual(expected);
    }
  });

  it('splits semiprimes of 20 and 30 digits (rho, then the quadratic sieve), and a 50-digit number with a 12-digit factor (ECM)', () => {
    const p10 = nextPrime(3_141_592_653n);
    const q10 = nextPrime(2_718_281_828n);
    expect(expectComplete(p10 * q10).map((x) => x.prime)).toEqual([q10, p10]);
    const p15 = nextPrime(314_159_265_358_979n);
    const q15 = nextPrime(271_828_182_845_904n);
    const n30 = p15 * q15;
    expect(n30.toString()).toHaveLength(29);
    expect(expectComplete(n30).map((x) => x.prime)).toEqual([q15, p15]);
    const big = nextPrime(10n ** 29n + 12345n) * nextPrime(10n ** 14n + 7n);
    expect(expectComplete(big)).toHaveLength(2);
    const beyondSieve = nextPrime(10n ** 38n) * nextPrime(987_654_321_011n);
    expect(beyondSieve.toString()).toHaveLength(50);
    const result = factorEngine(beyondSieve);
    expect(result.primes.map((x) => x.prime)).toEqual([nextPrime(987_654_321_011n), nextPrime(10n ** 38n)]);
    expect(result.stats.ecm_splits).toBe(1);
  });

  it('finds prime powers and repeated factors with their multiplicities', () => {
    const p = nextPrime(10n ** 12n);
    const q = nextPrime(10n ** 9n);
    expect(expectComplete(p ** 3n)).toEqual([{ prime: p, exponent: 3 }]);
    expect(expectComplete(2n ** 40n * 3n ** 5n * q ** 2n * p)).toEqual([
      { prime: 2n, exponent: 40 },
      { prime: 3n, exponent: 5 },
      { prime: q, exponent: 2 },
      { prime: p, exponent: 1 },
    ]);
    // p²q: a split into p · pq must still sum the exponents of p.
    const r = nextPrime(10n ** 11n);
    expect(expectComplete(r * r * q)).toEqual([
      { prime: q, exponent: 1 },
      { prime: r, exponent: 2 },
    ]);
    expect(expectComplete((p * q) ** 4n)).toEqual([
      { prime: q, exponent: 4 },
      { prime: p, exponent: 4 },
    ]);
  });

  it('factors products of p − 1 smooth and p − 1 non-smooth primes alike', () => {
    // 2^a·3^b + 1 primes: p − 1 is 3-smooth.
    let smooth = 0n;
    for (let a = 40n; smooth === 0n; a++) if (isPrimeProven(2n ** a * 3n ** 7n + 1n) === true) smooth = 2n ** a * 3n ** 7n + 1n;
    const safe = nextSafePrime(10n ** 13n);
    expect(isPrimeProven((safe - 1n) / 2n)).toBe(true);
    expect(expectComplete(smooth * safe).map((x) => x.prime).sort((a, b) => (a < b ? -1 : 1))).toEqual([smooth, safe].sort((a, b) => (a < b ? -1 : 1)));
    const safe2 = nextSafePrime(10n ** 12n);
    expect(expectComplete(safe * safe2)).toHaveLength(2);
  });

  it('factors Carmichael numbers and strong pseudoprimes (Fermat tests would call them prime)', () => {
    const cases: [bigint, bigint[]][] = [
      [561n, [3n, 11n, 17n]],
      [41041n, [7n, 11n, 13n, 41n]],
      [3215031751n, [151n, 751n, 28351n]],
      [9746347772161n, [7n, 11n, 13n, 17n, 19n, 31n, 37n, 41n, 641n]],
    ];
    for (const [n, primes] of cases) expect(expectComplete(n).map((x) => x.prime)).toEqual(primes);
    // Chernick's (6k + 1)(12k + 1)(18k + 1) with all three prime: a Carmichael number.
    let k = 10n ** 6n;
    while (![6n * k + 1n, 12n * k + 1n, 18n * k + 1n].every((x) => isPrimeProven(x) === true)) k++;
    const chernick = (6n * k + 1n) * (12n * k + 1n) * (18n * k + 1n);
    expect(expectComplete(chernick).map((x) => x.prime)).toEqual([6n * k + 1n, 12n * k + 1n, 18n * k + 1n]);
  });

  it('keeps an unsplit part composite when the budget ends, and stops on a cancelled signal', () => {
    const n = 4n * nextPrime(10n ** 19n) * nextPrime(3n * 10n ** 19n);
    const partial = factorEngine(n, { deadline: Date.now() - 1 });
    expect(partial.stopped).toBe('EXECUTION_TIMEOUT');
    expect(partial.primes).toEqual([{ prime: 2n, exponent: 2 }]);
    expect(partial.composites).toEqual([{ value: n / 4n, exponent: 1 }]);
    const controller = new AbortController();
    controller.abort();
    expect(() => factorEngine(n, { signal: controller.signal })).toThrow(expect.objectContaining({ code: 'EXECUTION_CANCELLED' }));
  });
});

describe('ECM', () => {
  it('stage 1 multiplies by every prime power up to B1', () => {
    expect(stage1Multiplier(10)).toBe(8n * 9n * 5n * 7n);
    expect(stage1Multiplier(2)).toBe(2n);
  });

  it('finds a 12-digit factor that rho is not asked for, and returns proper divisors only', () => {
    const p = nextPrime(987_654_321_011n);
    const q = nextPrime(10n ** 25n + 3n);
    const n = p * q;
    const result = ecmFactor(n, { seed: 7 });
    expect(result.factor).not.toBeNull();
    const f = result.factor as bigint;
    expect(f > 1n && f < n && n % f === 0n).toBe(true);
    expect([p, q]).toContain(f);
    for (let sigma = 6n; sigma < 30n; sigma++) {
      const outcome = ecmCurve(n, sigma, 200, 20_000);
      if (outcome.factor !== null) expect(n % outcome.factor === 0n && outcome.factor !== n && outcome.factor !== 1n).toBe(true);
    }
  });
});

describe('MPQS', () => {
  it('splits semiprimes of 18 to 40 digits and a product of three primes, with proper divisors only', () => {
    const cases = [
      nextPrime(123_456_789n) * nextPrime(987_654_321_0n),
      nextPrime(10n ** 12n + 3n) * nextPrime(7n * 10n ** 12n),
      nextPrime(314_159_265_358_979n) * nextPrime(271_828_182_845_904n),
      nextPrime(10n ** 19n) * nextPrime(3n * 10n ** 19n),
      nextPrime(10n ** 9n) * nextPrime(2n * 10n ** 9n) * nextPrime(3n * 10n ** 9n),
    ];
    for (const n of cases) {
      const d = mpqsFactor(n);
      expect(d, n.toString()).not.toBeNull();
      expect(n % (d as bigint)).toBe(0n);
      expect(d !== 1n && d !== n).toBe(true);
    }
  });

  it('returns a factor-base prime that divides n, and null for a perfect square', () => {
    expect(mpqsFactor(nextPrime(10n ** 17n) * 7n)).toBe(7n);
    const p = nextPrime(10n ** 10n);
    expect(mpqsFactor(p * p)).toBeNull();
  });

  it('stops at the budget', () => {
    const n = nextPrime(10n ** 19n) * nextPrime(3n * 10n ** 19n);
    expect(() => mpqsFactor(n, { deadline: Date.now() - 1 })).toThrow(expect.objectContaining({ code: 'EXECUTION_TIMEOUT' }));
  });
});
