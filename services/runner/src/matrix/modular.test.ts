import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilSqrt, crtSymmetric, LimbMatrix, minorBounds, modP, wordPrime } from './modular.js';

const bigEntry = (bits: number): fc.Arbitrary<bigint> => fc.bigInt({ min: -(1n << BigInt(bits)), max: 1n << BigInt(bits) });
const matrixOf = (entry: fc.Arbitrary<bigint>, maxM: number, maxN: number): fc.Arbitrary<bigint[][]> =>
  fc.tuple(fc.integer({ min: 1, max: maxM }), fc.integer({ min: 1, max: maxN })).chain(([m, n]) => fc.array(fc.array(entry, { minLength: n, maxLength: n }), { minLength: m, maxLength: m }));

/** Determinant by expansion along the first row (small matrices only). */
function laplace(A: bigint[][]): bigint {
  if (A.length === 0) return 1n;
  return (A[0] as bigint[]).reduce((total, a, j) => {
    if (a === 0n) return total;
    const minor = A.slice(1).map((row) => row.filter((_, k) => k !== j));
    return total + (j % 2 === 0 ? a : -a) * laplace(minor);
  }, 0n);
}

/** All k-element subsets of {0, …, n − 1}. */
function subsets(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  if (n < k) return [];
  return [...subsets(n - 1, k), ...subsets(n - 1, k - 1).map((s) => [...s, n - 1])];
}

describe('word primes and arithmetic modulo them', () => {
  it('wordPrime gives distinct primes below 2^26, largest first', () => {
    const primes = Array.from({ length: 40 }, (_, i) => wordPrime(i));
    expect(primes[0]).toBe(67108859);
    for (const [i, p] of primes.entries()) {
      expect(p < 2 ** 26 && p > 2 ** 25).toBe(true);
      if (i > 0) expect(p < (primes[i - 1] as number)).toBe(true);
      let divisor = 2;
      while (divisor * divisor <= p && p % divisor !== 0) divisor++;
      expect(divisor * divisor > p).toBe(true);
    }
  });

  it('modP is x mod p for every x below 2^52', () => {
    const p = wordPrime(3);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 52n) - 1n }), (x) => {
        expect(modP(Number(x), p, 1 / p)).toBe(Number(x % BigInt(p)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('LimbMatrix', () => {
  it('reduces m×n matrices of any entry size modulo small and word-size primes, signs included', () => {
    fc.assert(
      fc.property(matrixOf(fc.oneof(bigEntry(8), bigEntry(64), bigEntry(300), fc.constant(0n)), 5, 7), fc.constantFrom(3, 101, wordPrime(0), wordPrime(11)), (B, p) => {
        const reduced = new LimbMatrix(B).reduce(p);
        expect(reduced).toHaveLength(B.length);
        const P = BigInt(p);
        for (const [i, row] of B.entries()) expect(Array.from(reduced[i] as Float64Array)).toEqual(row.map((b) => Number(((b % P) + P) % P)));
      }),
      { numRuns: 150 },
    );
  });

  it('a 4096-bit entry (the matrix limit) and ±(2^64 − 1)', () => {
    const huge = (1n << 4096n) - 12345n;
    const B = [[huge, -huge, (1n << 64n) - 1n], [-((1n << 64n) - 1n), 0n, 1n]];
    const p = wordPrime(0);
    const P = BigInt(p);
    expect(new LimbMatrix(B).reduce(p).map((row) => Array.from(row))).toEqual(B.map((row) => row.map((b) => Number(((b % P) + P) % P))));
  });
});

describe('ceilSqrt, Hadamard bounds on minors and the Chinese remainder theorem', () => {
  it('ceilSqrt is the least r with r² ≥ x', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1n << 300n }), (x) => {
        const r = ceilSqrt(x);
        expect(r * r >= x).toBe(true);
        expect(r === 0n || (r - 1n) * (r - 1n) < x).toBe(true);
      }),
    );
  });

  it('minorBounds(B)(k) bounds every k×k minor (all of them, by Laplace expansion) and is 0 beyond min(m, n)', () => {
    fc.assert(
      fc.property(matrixOf(fc.oneof(bigEntry(20), fc.constant(0n)), 4, 5), (B) => {
        const m = B.length;
        const n = (B[0] as bigint[]).length;
        const bound = minorBounds(B);
        for (let k = 1; k <= Math.min(m, n); k++) {
          for (const rows of subsets(m, k)) {
            for (const columns of subsets(n, k)) {
              const minor = laplace(rows.map((i) => columns.map((j) => (B[i] as bigint[])[j] as bigint)));
              expect(minor <= bound(k) && -minor <= bound(k)).toBe(true);
            }
          }
        }
        expect(bound(Math.min(m, n) + 1)).toBe(0n);
      }),
      { numRuns: 100 },
    );
  });

  it('minorBounds is Hadamard’s bound: the product of the k largest row (or column) norms, rounded up', () => {
    // Rows of norms 5, 13, 1 (3-4-0, 5-12-0, 0-0-1); columns of norms ⌈√34⌉ = 6, ⌈√160⌉ = 13, 1.
    const B = [[3n, 4n, 0n], [5n, 12n, 0n], [0n, 0n, 1n]];
    const bound = minorBounds(B);
    expect([bound(1), bound(2), bound(3)]).toEqual([13n, 65n, 65n]);
    expect(minorBounds([[0n, 0n], [0n, 7n]])(2)).toBe(0n);
  });

  it('crtSymmetric recovers integers in (−M/2, M/2] from their residues', () => {
    const primes = [0, 1, 2, 3, 4, 5].map(wordPrime);
    const M = primes.reduce((m, p) => m * BigInt(p), 1n);
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -(M / 2n) + 1n, max: M / 2n }), { minLength: 1, maxLength: 6 }), (xs) => {
        const residues = primes.map((p) => xs.map((x) => Number((((x % BigInt(p)) + BigInt(p)) % BigInt(p)))));
        expect(crtSymmetric(primes, residues)).toEqual(xs);
      }),
    );
  });
});
