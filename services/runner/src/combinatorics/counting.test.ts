/**
 * The counting algorithms against independent truth: OEIS values typed in, identities computed
 * here by other formulas, and random small cases against brute-force enumeration.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JacobianError, PartitionRequestSchema, CompositionRequestSchema } from '@jacobian/shared';
import { bellNumbers, binomial, binomialRow, catalanNumbers, derangementNumbers, multinomial, partitionNumbers, restrictedPartitions, stirlingRow } from './counting.js';
import { planPartitions } from './partition.js';
import { planCompositions } from './composition.js';

const big = (values: readonly (number | string)[]): bigint[] => values.map((v) => BigInt(v));
const factorial = (n: number): bigint => (n <= 1 ? 1n : BigInt(n) * factorial(n - 1));

/** Every partition of n (weakly decreasing parts), by recursion on the largest part. */
function allPartitions(n: number, largest = n): number[][] {
  if (n === 0) return [[]];
  const out: number[][] = [];
  for (let a = Math.min(n, largest); a >= 1; a--) for (const rest of allPartitions(n - a, a)) out.push([a, ...rest]);
  return out;
}

/** Every composition of n. */
function allCompositions(n: number): number[][] {
  if (n === 0) return [[]];
  const out: number[][] = [];
  for (let a = 1; a <= n; a++) for (const rest of allCompositions(n - a)) out.push([a, ...rest]);
  return out;
}

/** Every permutation of 0..n−1. */
function allPermutations(n: number): number[][] {
  if (n === 0) return [[]];
  return allPermutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
}

function cycles(perm: readonly number[]): number {
  const seen = new Array<boolean>(perm.length).fill(false);
  let count = 0;
  for (let i = 0; i < perm.length; i++) {
    if (seen[i]) continue;
    count++;
    for (let j = i; !seen[j]; j = perm[j] as number) seen[j] = true;
  }
  return count;
}

/** Set partitions of an n-set as restricted growth strings, counted by number of blocks. */
function setPartitionsByBlocks(n: number): number[] {
  const counts = new Array<number>(n + 1).fill(0);
  const walk = (i: number, blocks: number): void => {
    if (i === n) {
      counts[blocks] = (counts[blocks] as number) + 1;
      return;
    }
    for (let b = 0; b <= blocks; b++) walk(i + 1, Math.max(blocks, b + 1));
  };
  walk(0, 0);
  return counts;
}

describe('OEIS values', () => {
  it('Bell numbers A000110', () => {
    expect(bellNumbers(20)).toEqual(big([1, 1, 2, 5, 15, 52, 203, 877, 4140, 21147, 115975, 678570, 4213597, 27644437, 190899322, 1382958545, 10480142147, 82864869804, 682076806159, 5832742205057, 51724158235372]));
  });
  it('Catalan numbers A000108', () => {
    expect(catalanNumbers(20)).toEqual(big([1, 1, 2, 5, 14, 42, 132, 429, 1430, 4862, 16796, 58786, 208012, 742900, 2674440, 9694845, 35357670, 129644790, 477638700, 1767263190, 6564120420]));
  });
  it('partition numbers A000041, p(100) and p(1000)', () => {
    const p = partitionNumbers(1000);
    expect(p.slice(0, 31)).toEqual(big([1, 1, 2, 3, 5, 7, 11, 15, 22, 30, 42, 56, 77, 101, 135, 176, 231, 297, 385, 490, 627, 792, 1002, 1255, 1575, 1958, 2436, 3010, 3718, 4565, 5604]));
    expect(p[100]).toBe(190569292n);
    expect(p[1000]).toBe(24061467864032622473692149727991n);
  });
  it('partitions into distinct parts A000009', () => {
    expect(planPartitions(PartitionRequestSchema.parse({ n: 30, distinct: true })).compute({})).toEqual(
      big([1, 1, 1, 2, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 22, 27, 32, 38, 46, 54, 64, 76, 89, 104, 122, 142, 165, 192, 222, 256, 296]),
    );
  });
  it('partitions into at most 3 parts A001399, and coin change of 100 into {1,5,10,25,50}', () => {
    expect(planPartitions(PartitionRequestSchema.parse({ n: 20, max_parts: 3 })).compute({})).toEqual(big([1, 1, 2, 3, 4, 5, 7, 8, 10, 12, 14, 16, 19, 21, 24, 27, 30, 33, 37, 40, 44]));
    expect(planPartitions(PartitionRequestSchema.parse({ n: 100, parts_in: [1, 5, 10, 25, 50] })).compute({})[100]).toBe(292n);
  });
  it('derangements A000166', () => {
    expect(derangementNumbers(15)).toEqual(big([1, 0, 1, 2, 9, 44, 265, 1854, 14833, 133496, 1334961, 14684570, 176214841, 2290792932, 32071101049, 481066515734]));
  });
  it('Stirling rows A008277 (second kind) and A008275 (signed first kind)', () => {
    expect(stirlingRow('second', 7)).toEqual(big([0, 1, 63, 301, 350, 140, 21, 1]));
    expect(stirlingRow('second', 6)).toEqual(big([0, 1, 31, 90, 65, 15, 1]));
    expect(stirlingRow('first_signed', 5)).toEqual(big([0, 24, -50, 35, -10, 1]));
    expect(stirlingRow('first_signed', 6)).toEqual(big([0, -120, 274, -225, 85, -15, 1]));
    expect(stirlingRow('first_unsigned', 6)).toEqual(big([0, 120, 274, 225, 85, 15, 1]));
    expect(stirlingRow('second', 0)).toEqual([1n]);
  });
  it('compositions A011782 and into parts 1, 2 (Fibonacci A000045)', () => {
    expect(planCompositions(CompositionRequestSchema.parse({ n: 10 })).compute({})).toEqual(big([1, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512]));
    expect(planCompositions(CompositionRequestSchema.parse({ n: 12, parts_in: [1, 2] })).compute({})).toEqual(big([1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233]));
  });
  it('binomials: C(10,3), C(100,50), C(n,k) = 0 for k > n, multinomial (2,3,4) = 1260', () => {
    expect(binomial(10, 3)).toBe(120n);
    expect(binomial(100, 50)).toBe(100891344545564193334812497256n);
    expect(binomial(3, 5)).toBe(0n);
    expect(multinomial([2, 3, 4])).toBe(1260n);
  });
});

describe('identities computed independently', () => {
  it('Σ_k S(n,k) = B(n); Σ_k c(n,k) = n!; Σ_k s(n,k) = 0 for n ≥ 2', () => {
    const bell = bellNumbers(60);
    for (let n = 0; n <= 60; n++) {
      expect(stirlingRow('second', n).reduce((a, b) => a + b, 0n)).toBe(bell[n]);
      expect(stirlingRow('first_unsigned', n).reduce((a, b) => a + b, 0n)).toBe(factorial(n));
      if (n >= 2) expect(stirlingRow('first_signed', n).reduce((a, b) => a + b, 0n)).toBe(0n);
      const k = Math.floor(n / 2);
      expect(stirlingRow('second', n, {}, k)[k]).toBe(stirlingRow('second', n)[k]);
      expect(stirlingRow('first_signed', n, {}, k)[k]).toBe(stirlingRow('first_signed', n)[k]);
    }
  });
  it('p(n) by the pentagonal recurrence equals the generating-function product ∏ 1/(1−x^i)', () => {
    const n = 400;
    const product = restrictedPartitions(n, Array.from({ length: n }, (_, i) => i + 1), false, undefined).map((c) => c[0]);
    expect(partitionNumbers(n)).toEqual(product);
  });
  it('Catalan C(n) = C(2n,n)/(n+1), by factorials', () => {
    catalanNumbers(200).forEach((c, n) => expect(c).toBe(factorial(2 * n) / (factorial(n) * factorial(n) * BigInt(n + 1))));
  });
  it('derangements by inclusion–exclusion Σ_k (−1)^k n!/k!', () => {
    derangementNumbers(120).forEach((d, n) => {
      let sum = 0n;
      for (let k = 0; k <= n; k++) sum += (k % 2 === 0 ? 1n : -1n) * (factorial(n) / factorial(k));
      expect(d).toBe(sum);
    });
  });
  it("binomial rows: Pascal's rule, Σ = 2^n, and single values; multinomial = n!/∏ k_i!", () => {
    let previous = [1n];
    for (let n = 1; n <= 150; n++) {
      const row = binomialRow(n);
      expect(row).toEqual(Array.from({ length: n + 1 }, (_, k) => (previous[k - 1] ?? 0n) + (previous[k] ?? 0n)));
      expect(row.reduce((a, b) => a + b, 0n)).toBe(1n << BigInt(n));
      expect(binomial(n, Math.floor(n / 3))).toBe(row[Math.floor(n / 3)]);
      previous = row;
    }
    expect(multinomial([7, 0, 5, 3])).toBe(factorial(15) / (factorial(7) * factorial(5) * factorial(3)));
  });
  it('Euler: partitions into odd parts = into distinct parts; conjugation: at most k parts (2D programme) = parts ≤ k', () => {
    const odd = planPartitions(PartitionRequestSchema.parse({ n: 200, parts_in: Array.from({ length: 100 }, (_, i) => 2 * i + 1) })).compute({});
    expect(odd).toEqual(planPartitions(PartitionRequestSchema.parse({ n: 200, distinct: true })).compute({}));
    const all = Array.from({ length: 120 }, (_, i) => i + 1);
    for (const k of [1, 4, 9]) {
      const tracked = planPartitions(PartitionRequestSchema.parse({ n: 120, parts_in: all, max_parts: k })).compute({});
      expect(tracked).toEqual(planPartitions(PartitionRequestSchema.parse({ n: 120, max_part: k })).compute({}));
      const exact = planPartitions(PartitionRequestSchema.parse({ n: 120, parts_in: all, exact_parts: k })).compute({});
      expect(exact).toEqual(planPartitions(PartitionRequestSchema.parse({ n: 120, exact_parts: k })).compute({}));
    }
  });
});

describe('random small cases against enumeration', () => {
  it('restricted partitions', () => {
    fc.assert(
      fc.property(
        fc.record({
          n: fc.integer({ min: 0, max: 14 }),
          distinct: fc.boolean(),
          parts_in: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }), { nil: undefined }),
          max_part: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
          bound: fc.option(fc.record({ exact: fc.boolean(), k: fc.integer({ min: 0, max: 8 }) }), { nil: undefined }),
        }),
        ({ n, distinct, parts_in, max_part, bound }) => {
          const request = PartitionRequestSchema.parse({
            n,
            distinct,
            ...(parts_in === undefined ? {} : { parts_in }),
            ...(max_part === undefined ? {} : { max_part }),
            ...(bound === undefined ? {} : bound.exact ? { exact_parts: bound.k } : { max_parts: bound.k }),
          });
          const values = planPartitions(request).compute({});
          for (let m = 0; m <= n; m++) {
            const expected = allPartitions(m).filter(
              (p) =>
                (!distinct || new Set(p).size === p.length) &&
                (parts_in === undefined || p.every((a) => parts_in.includes(a))) &&
                (max_part === undefined || p.every((a) => a <= max_part)) &&
                (bound === undefined || (bound.exact ? p.length === bound.k : p.length <= bound.k)),
            ).length;
            expect(values[m]).toBe(BigInt(expected));
          }
        },
      ),
      { numRuns: 150 },
    );
  });
  it('restricted compositions', () => {
    fc.assert(
      fc.property(
        fc.record({
          n: fc.integer({ min: 0, max: 12 }),
          parts_in: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 4 }), { nil: undefined }),
          min_part: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
          max_part: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
          exact_parts: fc.option(fc.integer({ min: 0, max: 7 }), { nil: undefined }),
        }),
        ({ n, parts_in, min_part, max_part, exact_parts }) => {
          const request = CompositionRequestSchema.parse({
            n,
            table: true,
            ...(parts_in === undefined ? {} : { parts_in }),
            ...(min_part === undefined ? {} : { min_part }),
            ...(max_part === undefined ? {} : { max_part }),
            ...(exact_parts === undefined ? {} : { exact_parts }),
          });
          const values = planCompositions(request).compute({});
          expect(planCompositions({ ...request, table: false }).compute({}).at(-1)).toBe(values[n]);
          for (let m = 0; m <= n; m++) {
            const expected = allCompositions(m).filter(
              (c) =>
                (parts_in === undefined || c.every((a) => parts_in.includes(a))) &&
                (min_part === undefined || c.every((a) => a >= min_part)) &&
                (max_part === undefined || c.every((a) => a <= max_part)) &&
                (exact_parts === undefined || c.length === exact_parts),
            ).length;
            expect(values[m]).toBe(BigInt(expected));
          }
        },
      ),
      { numRuns: 150 },
    );
  });
  it('Stirling numbers and derangements against permutations and set partitions', () => {
    for (let n = 0; n <= 7; n++) {
      const perms = allPermutations(n);
      const byCycles = new Array<number>(n + 1).fill(0);
      for (const p of perms) byCycles[cycles(p)] = (byCycles[cycles(p)] as number) + 1;
      expect(stirlingRow('first_unsigned', n)).toEqual(big(byCycles));
      expect(derangementNumbers(n)[n]).toBe(BigInt(perms.filter((p) => p.every((v, i) => v !== i)).length));
    }
    for (let n = 0; n <= 9; n++) expect(stirlingRow('second', n)).toEqual(big(setPartitionsByBlocks(n)));
  });
  it('binomials and multinomials against counting subsets and words', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 16 }), (n, k) => {
        let subsets = 0;
        for (let mask = 0; mask < 1 << n; mask++) if (mask.toString(2).split('1').length - 1 === k) subsets++;
        expect(binomial(n, k)).toBe(BigInt(subsets));
      }),
    );
    // Words of length 6 with letter counts (1, 2, 3): enumerate all 3^6 words.
    let words = 0;
    for (let w = 0; w < 729; w++) {
      const counts = [0, 0, 0];
      for (let i = 0, x = w; i < 6; i++, x = Math.floor(x / 3)) counts[x % 3] = (counts[x % 3] as number) + 1;
      if (counts.join() === '1,2,3') words++;
    }
    expect(multinomial([1, 2, 3])).toBe(BigInt(words));
  });
});

describe('budget', () => {
  it('stops a long table at its deadline, and on an aborted signal', () => {
    expect(() => partitionNumbers(10_000, { deadline: Date.now() - 1 })).toThrow(JacobianError);
    const controller = new AbortController();
    controller.abort();
    try {
      stirlingRow('second', 500, { signal: controller.signal });
      expect.unreachable();
    } catch (error) {
      expect((error as JacobianError).code).toBe('EXECUTION_CANCELLED');
    }
  });
});
