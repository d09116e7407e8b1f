import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeRational, parseRecurrence, type Rational } from '@jacobian/shared';
import { berlekampMassey, extendByRecurrence, firstFailure, guessPRecursive, rationalGeneratingFunction, seriesOfRational, transform } from './recurrence.js';

const r = (n: bigint | number, d: bigint | number = 1n): Rational => makeRational(BigInt(n), BigInt(d));
const ints = (xs: readonly (bigint | number)[]): Rational[] => xs.map((x) => r(x));
const text = (xs: readonly Rational[]): string[] => xs.map((a) => (a.den === 1n ? a.num.toString() : `${a.num}/${a.den}`));

/** Independent definitions, computed here term by term. */
function binom(n: number, k: number): bigint {
  let c = 1n;
  for (let i = 0; i < k; i++) c = (c * BigInt(n - i)) / BigInt(i + 1);
  return c;
}
const catalan = (n: number): bigint => binom(2 * n, n) / BigInt(n + 1);
const motzkin = (n: number): bigint => {
  let s = 0n;
  for (let k = 0; 2 * k <= n; k++) s += binom(n, 2 * k) * catalan(k);
  return s;
};
const apery = (n: number): bigint => {
  let s = 0n;
  for (let k = 0; k <= n; k++) s += (binom(n, k) * binom(n + k, k)) ** 2n;
  return s;
};
const franel = (n: number): bigint => {
  let s = 0n;
  for (let k = 0; k <= n; k++) s += binom(n, k) ** 3n;
  return s;
};
const derangements = (n: number): bigint => {
  // !n = Σ (−1)^k n!/k!
  let s = 0n;
  let f = 1n;
  for (let i = 1; i <= n; i++) f *= BigInt(i);
  let kf = 1n;
  for (let k = 0; k <= n; k++) {
    if (k > 0) kf *= BigInt(k);
    s += (k % 2 === 0 ? 1n : -1n) * (f / kf);
  }
  return s;
};
const first = (f: (n: number) => bigint, N: number): Rational[] => Array.from({ length: N }, (_, n) => r(f(n)));

/** Σ_i p_i(n) a(n−i) at every n ≥ r: the guessed recurrence checked here, with its own evaluation. */
function holds(basis: Rational[][], a: Rational[]): boolean {
  const r0 = basis.length - 1;
  for (let n = r0; n < a.length; n++) {
    let num = 0n;
    let den = 1n;
    for (let i = 0; i <= r0; i++) {
      let p = r(0);
      (basis[i] as Rational[]).forEach((c, k) => {
        const term = r(c.num * BigInt(n) ** BigInt(k), c.den);
        p = r(p.num * term.den + term.num * p.den, p.den * term.den);
      });
      const t = a[n - i] as Rational;
      num = num * p.den * t.den + p.num * t.num * den;
      den = den * p.den * t.den;
    }
    if (num !== 0n) return false;
  }
  return true;
}

describe('Berlekamp–Massey over Q', () => {
  it('Fibonacci, the minimal order 2', () => {
    const found = berlekampMassey(ints([0, 1, 1, 2, 3, 5, 8, 13, 21, 34]));
    expect(found.order).toBe(2);
    expect(text(found.coefficients)).toEqual(['1', '1']);
  });

  it('a transient: 1, 0, 0, … has order 1 with c_1 = 0; rational terms scale away', () => {
    expect(berlekampMassey(ints([1, 0, 0, 0, 0]))).toMatchObject({ order: 1 });
    const halves = berlekampMassey([r(1, 2), r(1, 4), r(1, 8), r(1, 16), r(1, 32)]);
    expect(text(halves.coefficients)).toEqual(['1/2']);
  });

  it('property: random integer recurrences of random order are recovered from 2d + 3 terms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.array(fc.integer({ min: -9, max: 9 }), { minLength: 7, maxLength: 7 }), fc.array(fc.integer({ min: -20, max: 20 }), { minLength: 7, maxLength: 7 }), (d, cs, init) => {
        const c = cs.slice(0, d).map((x) => r(x));
        if ((c[d - 1] as Rational).num === 0n) c[d - 1] = r(1);
        const rec = parseRecurrence({ kind: 'c-finite', coefficients: text(c), valid_from: d }, []);
        const seq = extendByRecurrence(ints(init.slice(0, d)), 0, rec, 2 * d + 3);
        const found = berlekampMassey(seq);
        expect(found.order).toBeLessThanOrEqual(d);
        // The minimal recurrence reproduces every term.
        const minimal = parseRecurrence({ kind: 'c-finite', coefficients: text(found.coefficients), valid_from: found.order }, []);
        expect(firstFailure(seq, 0, minimal, found.order, seq.length - 1)).toBeNull();
        // Generic initial values reach order d exactly; then the coefficients are the ones used.
        if (found.order === d) expect(text(found.coefficients)).toEqual(text(c));
      }),
      { numRuns: 200, seed: 36 },
    );
  });
});

describe('P-recursive guessing', () => {
  it('Catalan: order 1, degree 1, a one-dimensional solution space ∝ (n+1, −(4n−2))', () => {
    const g = guessPRecursive(first(catalan, 20), 0, 1, 1);
    expect(g.basis).toHaveLength(1);
    expect(g.basis[0]?.map(text)).toEqual([['1', '1'], ['2', '-4']]);
  });

  it('Motzkin (order 2, degree 1), Apéry (order 2, degree 3), Franel (order 2, degree 2), derangements (order 2, degree 1)', () => {
    for (const [name, f, order, degree] of [
      ['Motzkin', motzkin, 2, 1],
      ['Apéry', apery, 2, 3],
      ['Franel', franel, 2, 2],
      ['derangements', derangements, 2, 1],
    ] as const) {
      const a = first(f, 40);
      const g = guessPRecursive(a, 0, order, degree);
      expect(g.basis.length, name).toBe(1);
      expect(holds(g.basis[0] as Rational[][], a), name).toBe(true);
    }
    // Apéry's recurrence: n^3 a(n) = (34n^3 − 51n^2 + 27n − 5) a(n−1) − (n−1)^3 a(n−2), up to sign.
    const ap = guessPRecursive(first(apery, 30), 0, 2, 3).basis[0] as Rational[][];
    const sign = (ap[0]?.[3] as Rational).num > 0n ? 1n : -1n;
    expect(ap.map((p) => p.map((c) => c.num * sign))).toEqual([
      [0n, 0n, 0n, 1n],
      [5n, -27n, 51n, -34n],
      [-1n, 3n, -3n, 1n],
    ]);
  });

  it('no recurrence of order ≤ 2 and degree ≤ 2 for the primes, nor for random terms', () => {
    const primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113];
    expect(guessPRecursive(ints(primes), 1, 2, 2).basis).toEqual([]);
    let x = 12345n;
    const random = Array.from({ length: 40 }, () => r((x = (x * 1103515245n + 12345n) % 2147483648n)));
    expect(guessPRecursive(random, 0, 3, 3).basis).toEqual([]);
    // Nor a short C-finite one: random terms have linear complexity about N/2, which the guess's default max_order ⌊(N−1)/2⌋ excludes.
    expect(berlekampMassey(random).order).toBeGreaterThanOrEqual(20);
    expect(berlekampMassey(ints(primes)).order).toBeGreaterThanOrEqual(15);
  });

  it('a space of dimension > 1 when the order is larger than needed', () => {
    expect(guessPRecursive(first(catalan, 30), 0, 2, 1).basis.length).toBeGreaterThan(1);
  });
});

describe('extension, transforms, generating functions', () => {
  it('extends Catalan by its P-recursive recurrence and stops where p_0 vanishes', () => {
    const rec = parseRecurrence({ kind: 'p-recursive', order: 1, degree: 1, coefficients: [['1', '1'], ['2', '-4']], valid_from: 1 }, []);
    expect(text(extendByRecurrence(ints([1]), 0, rec, 12))).toEqual(first(catalan, 12).map((a) => a.num.toString()));
    const bad = parseRecurrence({ kind: 'p-recursive', order: 1, degree: 1, coefficients: [['-3', '1'], ['1']], valid_from: 1 }, []);
    expect(() => extendByRecurrence(ints([1]), 0, bad, 6)).toThrow(/p_0\(3\) = 0/);
  });

  it('OEIS pairs: binomial of Catalan = A007317, binomial of Bell is Bell shifted, Euler of 1s = partitions, Möbius of 1s, inverse Möbius = divisor counts', () => {
    const cat = first(catalan, 12);
    const direct = Array.from({ length: 12 }, (_, n) => {
      let s = 0n;
      for (let k = 0; k <= n; k++) s += binom(n, k) * catalan(k);
      return s.toString();
    });
    expect(text(transform('binomial', cat))).toEqual(direct);
    expect(direct.slice(0, 9)).toEqual(['1', '2', '5', '15', '51', '188', '731', '2950', '12235']);
    expect(text(transform('inverse_binomial', transform('binomial', cat)))).toEqual(text(cat));
    const bell = ints([1, 1, 2, 5, 15, 52, 203, 877, 4140, 21147]);
    expect(text(transform('binomial', bell)).slice(0, 9)).toEqual(text(bell.slice(1)));
    const ones = ints(Array.from({ length: 12 }, () => 1));
    expect(text(transform('euler', ones))).toEqual(['1', '2', '3', '5', '7', '11', '15', '22', '30', '42', '56', '77']);
    expect(text(transform('mobius', ones))).toEqual(['1', ...Array.from({ length: 11 }, () => '0')]);
    expect(text(transform('inverse_mobius', ones))).toEqual(['1', '2', '2', '3', '2', '4', '2', '4', '3', '4', '2', '6']);
    expect(text(transform('mobius', transform('inverse_mobius', cat)))).toEqual(text(cat));
    expect(text(transform('partial_sums', ints([1, 2, 3])))).toEqual(['1', '3', '6']);
    expect(text(transform('differences', ints([1, 3, 6])))).toEqual(['2', '3']);
  });

  it('Fibonacci: x/(1 − x − x^2), and the series of P/Q reproduces the terms', () => {
    const gf = rationalGeneratingFunction(ints([0, 1]), 0, ints([1, 1]), 2);
    expect(text(gf.numerator)).toEqual(['0', '1']);
    expect(text(gf.denominator)).toEqual(['1', '-1', '-1']);
    expect(text(seriesOfRational(gf.numerator, gf.denominator, 10))).toEqual(['0', '1', '1', '2', '3', '5', '8', '13', '21', '34']);
  });
});
