import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldFromSpec, makeRational, RATIONALS, type Field, type Rational } from '@jacobian/shared';
import { fieldBackend, fractionFreeEliminate, LinearAlgebra, RATIONAL_BACKEND } from './engine.js';
import { generator, randomMatrix } from './matrix-test-support.js';
import { wordPrime } from './modular.js';
import { determinantModP, integerDeterminant, integerRank, rankModP } from './modular-rank-determinant.js';

/** The reference: fraction-free elimination (Bareiss) on big integers, the engine's former method. */
function bareiss(B: readonly (readonly bigint[])[]): { rank: number; det: bigint | null } {
  const M = B.map((row) => [...row]);
  const n = M[0]?.length ?? 0;
  const { rank, swaps, last } = fractionFreeEliminate(M, n, false);
  return { rank, det: B.length !== n ? null : rank < n ? 0n : swaps % 2 === 0 ? last : -last };
}

function agreesWithBareiss(B: bigint[][]): void {
  const reference = bareiss(B);
  expect(integerRank(B)).toBe(reference.rank);
  if (reference.det !== null) expect(integerDeterminant(B)).toBe(reference.det);
}

const bigEntry = (bits: number): fc.Arbitrary<bigint> => fc.bigInt({ min: -(1n << BigInt(bits)), max: 1n << BigInt(bits) });
const sized = <T>(m: number, n: number, entry: fc.Arbitrary<T>): fc.Arbitrary<T[][]> => fc.array(fc.array(entry, { minLength: n, maxLength: n }), { minLength: m, maxLength: m });
const anyShape = <T>(entry: fc.Arbitrary<T>, max: number): fc.Arbitrary<T[][]> =>
  fc.tuple(fc.integer({ min: 1, max }), fc.integer({ min: 1, max })).chain(([m, n]) => sized(m, n, entry));
const squareOf = (entry: fc.Arbitrary<bigint>, max: number): fc.Arbitrary<bigint[][]> => fc.integer({ min: 1, max }).chain((n) => sized(n, n, entry));
/** Products of m×k and k×n matrices: rank at most k, large entries. */
const lowRank = fc
  .tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 8 }), fc.constantFrom(10, 64, 200))
  .chain(([m, k, n, bits]) => fc.tuple(sized(m, k, bigEntry(bits)), sized(k, n, bigEntry(bits))))
  .map(([L, R]) => L.map((row) => (R[0] ?? []).map((_, j) => row.reduce((s, a, t) => s + a * ((R[t] as bigint[])[j] as bigint), 0n))))
  .filter((B) => B.length > 0 && (B[0]?.length ?? 0) > 0);
/** Mostly zeros: zero rows and columns, zero pivots. */
const sparse = anyShape(fc.oneof({ arbitrary: fc.constant(0n), weight: 3 }, { arbitrary: bigEntry(70), weight: 1 }), 7);
/** Two equal rows (or a row repeated with a multiple): singular. */
const repeatedRow = fc.tuple(squareOf(bigEntry(64), 7), bigEntry(20)).map(([B, c]) => (B.length < 2 ? B : [B[0] as bigint[], ...B.slice(1, -1), (B[0] as bigint[]).map((x) => c * x)]));

describe('determinantModP and rankModP', () => {
  it('agree with elimination in the field GF(p), for small primes and word-size ones', () => {
    fc.assert(
      fc.property(fc.constantFrom(2, 3, 7, 65521, wordPrime(0), wordPrime(5)), anyShape(fc.nat({ max: 2 ** 26 }), 7), (p, rows) => {
        const F = fieldFromSpec({ kind: 'GF', characteristic: String(p) }) as Field<number>;
        const A = rows.map((row) => row.map((a) => a % p));
        const la = new LinearAlgebra(fieldBackend(F));
        expect(rankModP(A.map((row) => Float64Array.from(row)), p)).toBe(la.rank(A));
        if (A.length === A[0]?.length) expect(determinantModP(A.map((row) => Float64Array.from(row)), p)).toBe(la.determinant(A));
      }),
      { numRuns: 300 },
    );
  });
});

describe('integerDeterminant and integerRank agree with Bareiss', () => {
  it('on random square and non-square matrices with 10-, 64- and 200-bit entries', () => {
    fc.assert(
      fc.property(fc.constantFrom(10, 64, 200).chain((bits) => anyShape(bigEntry(bits), 8)), agreesWithBareiss),
      { numRuns: 150 },
    );
  });

  it('on rank-deficient products with large entries, sparse matrices and singular ones', () => {
    fc.assert(fc.property(fc.oneof(lowRank, sparse, repeatedRow), agreesWithBareiss), { numRuns: 200 });
  });

  it('on seeded 30×30 and 25×40 matrices: full rank and of rank 12, entries ±2^64', () => {
    const random = generator(20261207);
    for (const [m, n, rank] of [
      [30, 30, 30],
      [30, 30, 12],
      [25, 40, 25],
      [40, 25, 12],
    ] as const) {
      agreesWithBareiss(randomMatrix(random, m, n, 1n << 64n, rank));
    }
  });

  it('the zero matrix, 1×1 matrices, a row or a column', () => {
    for (const B of [[[0n]], [[0n, 0n, 0n], [0n, 0n, 0n]], [[7n]], [[-(1n << 64n)]], [[3n, 0n, -5n]], [[0n], [0n], [2n]]]) agreesWithBareiss(B);
    expect(integerDeterminant([[-(1n << 64n)]])).toBe(-(1n << 64n));
    expect(integerRank([[0n, 0n], [0n, 0n]])).toBe(0);
  });

  it('entries near 2^64 and of 4096 bits (the matrix limit)', () => {
    const big = 1n << 64n;
    // (2^64 + 1)(2^64 − 1) − 2^128 = −1.
    expect(integerDeterminant([[big + 1n, big], [big, big - 1n]])).toBe(-1n);
    expect(integerRank([[big + 1n, big], [big, big - 1n]])).toBe(2);
    const huge = (1n << 4096n) - 1n;
    const H = [[huge, huge - 1n, 3n], [-huge, 5n, huge - 2n], [1n, -huge, huge]];
    agreesWithBareiss(H);
    // Rank 1 with 4096-bit entries: every row a multiple of the first.
    agreesWithBareiss([[huge, 1n - huge, 2n], [2n * huge, 2n - 2n * huge, 4n], [-huge, huge - 1n, -2n]]);
  });

  it('is not fooled by primes that divide the determinant or every large minor', () => {
    const P = [0, 1, 2, 3, 4].reduce((product, i) => product * BigInt(wordPrime(i)), 1n);
    // det = P: zero modulo each of the first five primes, a valid residue; the bound asks for more.
    expect(integerDeterminant([[P, 0n], [0n, 1n]])).toBe(P);
    expect(integerDeterminant([[P, 1n], [0n, -1n]])).toBe(-P);
    // Rank 2 over Q but 1 modulo each of the first five primes: the sixth raises the rank.
    expect(integerRank([[P, 0n, 0n], [0n, 1n, 0n], [0n, 0n, 0n]])).toBe(2);
    expect(integerRank([[P, 2n * P, 0n, 0n], [1n, 2n, 1n, 0n], [2n, 4n, 2n, 0n]])).toBe(2);
    // Rank 3 where the only 3×3 minors are ±P·(small): found although the first five primes give 2.
    agreesWithBareiss([[1n, 0n, 0n, 0n], [0n, 1n, 0n, 0n], [0n, 0n, P, 0n], [5n, 7n, 3n * P, 0n]]);
  });

  it('takes enough primes at the edges of the bounds: |det| = H just below a product of primes, an (r+1)-minor equal to its bound', () => {
    const [p0, p1] = [BigInt(wordPrime(0)), BigInt(wordPrime(1))];
    // H = p0·p1 − 1 < M = p0·p1 ≤ 2H: the residue alone would read −H as 1; the bound 2H asks for a third prime.
    expect(integerDeterminant([[1n - p0 * p1]])).toBe(1n - p0 * p1);
    expect(integerDeterminant([[-(p0 * p1 - 1n), 0n], [0n, -1n]])).toBe(p0 * p1 - 1n);
    // H_1 = p1 < p0·p1 but the 2×2 minor is p0·p1 = H_2: rank 1 modulo p0 and p1, so a third prime is needed.
    expect(integerRank([[p0, 0n], [0n, p1]])).toBe(2);
    expect(integerRank([[p0, 0n, 0n], [0n, p1, 0n]])).toBe(2);
  });

  it('calls the checkpoint between primes and pivot columns, so a budget can stop it', () => {
    const B = Array.from({ length: 12 }, (_, i) => Array.from({ length: 12 }, (_, j) => BigInt((i * 31 + j * 17) % 23) << 60n));
    for (const run of [integerDeterminant, integerRank]) {
      let calls = 0;
      expect(() =>
        run(B, () => {
          if (++calls > 50) throw new Error('budget');
        }),
      ).toThrow('budget');
    }
  });
});

describe('over Q: rows scaled to integers (the engine’s rank and determinant)', () => {
  const Q = RATIONALS;
  const la = new LinearAlgebra(RATIONAL_BACKEND);
  const direct = new LinearAlgebra(fieldBackend(Q));
  const fraction = fc.tuple(bigEntry(64), fc.bigInt({ min: 1n, max: 1n << 40n })).map(([a, b]) => makeRational(a, b));
  const rational = fc.oneof(fraction, fc.constant(Q.zero), bigEntry(64).map((a) => Q.fromBigInt(a)));
  const rationalMatrix = (max: number): fc.Arbitrary<Rational[][]> => fc.tuple(fc.integer({ min: 1, max }), fc.integer({ min: 1, max })).chain(([m, n]) => fc.array(fc.array(rational, { minLength: n, maxLength: n }), { minLength: m, maxLength: m }));

  it('agree with elimination in rational arithmetic, denominators up to 2^40, any shape', () => {
    fc.assert(
      fc.property(rationalMatrix(6), (A) => {
        expect(la.rank(A)).toBe(direct.rank(A));
        if (A.length === A[0]?.length) expect(la.determinant(A)).toEqual(direct.determinant(A));
      }),
      { numRuns: 150 },
    );
  });

  it('a rank-deficient Q matrix: the last row a rational combination of the others; the Hilbert matrix', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }).chain((n) => fc.tuple(fc.array(fc.array(fraction, { minLength: n, maxLength: n }), { minLength: n - 1, maxLength: n - 1 }), fc.array(fraction, { minLength: n - 1, maxLength: n - 1 }))), ([rows, c]) => {
        const last = (rows[0] as Rational[]).map((_, j) => rows.reduce((s, row, i) => Q.add(s, Q.mul(c[i] as Rational, row[j] as Rational)), Q.zero));
        const A = [...rows, last];
        expect(la.determinant(A)).toEqual(Q.zero);
        expect(la.rank(A)).toBe(direct.rank(A));
      }),
      { numRuns: 60 },
    );
    const hilbert = (n: number): Rational[][] => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => makeRational(1n, BigInt(i + j + 1))));
    expect(la.determinant(hilbert(3))).toEqual(makeRational(1n, 2160n));
    expect(la.determinant(hilbert(8))).toEqual(direct.determinant(hilbert(8)));
    expect(la.rank(hilbert(8))).toBe(8);
  });
});
