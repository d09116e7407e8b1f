import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldFromSpec, makeRational, RATIONALS, type Field, type Rational } from '@jacobian/shared';
import { fieldBackend, fractionFreeEliminate, LinearAlgebra, primitiveIntegerVector, RATIONAL_BACKEND, ringEngine } from './engine.js';

const Q = RATIONALS;
const ff = new LinearAlgebra(RATIONAL_BACKEND);
/** The second method over Q: direct elimination with rational arithmetic. */
const direct = new LinearAlgebra(fieldBackend(Q));

// --- independent helpers -------------------------------------------------------------------

function mul<C>(F: Field<C>, A: C[][], B: C[][]): C[][] {
  const inner = B.length;
  const cols = B[0]?.length ?? 0;
  return A.map((row) => Array.from({ length: cols }, (_, j) => {
    let s = F.zero;
    for (let k = 0; k < inner; k++) s = F.add(s, F.mul(row[k] as C, (B[k] as C[])[j] as C));
    return s;
  }));
}
const column = <C>(v: C[]): C[][] => v.map((x) => [x]);
const isZeroMatrix = <C>(F: Field<C>, A: C[][]): boolean => A.every((row) => row.every((x) => F.isZero(x)));
const identity = <C>(F: Field<C>, n: number): C[][] => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? F.one : F.zero)));

/** Determinant by expansion along the first row: exponential, independent of any elimination. */
function laplace<C>(F: Field<C>, A: C[][]): C {
  const n = A.length;
  if (n === 0) return F.one;
  let total = F.zero;
  for (let j = 0; j < n; j++) {
    const minor = A.slice(1).map((row) => row.filter((_, k) => k !== j));
    const term = F.mul((A[0] as C[])[j] as C, laplace(F, minor));
    total = j % 2 === 0 ? F.add(total, term) : F.sub(total, term);
  }
  return total;
}

/** Rank by brute force: the largest k with a non-zero k×k minor (small matrices only). */
function bruteRank<C>(F: Field<C>, A: C[][]): number {
  const m = A.length;
  const n = A[0]?.length ?? 0;
  const subsets = (size: number, count: number): number[][] => {
    if (count === 0) return [[]];
    const out: number[][] = [];
    for (let first = 0; first < size; first++) for (const rest of subsets(size, count - 1)) if (rest.every((x) => x > first)) out.push([first, ...rest]);
    return out;
  };
  for (let k = Math.min(m, n); k > 0; k--) {
    for (const rows of subsets(m, k)) for (const cols of subsets(n, k)) if (!F.isZero(laplace(F, rows.map((i) => cols.map((j) => (A[i] as C[])[j] as C))))) return k;
  }
  return 0;
}

// --- generators ----------------------------------------------------------------------------

const smallRational = fc.tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: 1, max: 6 })).map(([n, d]) => makeRational(BigInt(n), BigInt(d)));
/** Mostly small entries, some zero, so that singular and rank-deficient matrices are common. */
const entry = fc.oneof({ weight: 3, arbitrary: smallRational }, { weight: 2, arbitrary: fc.constant(Q.zero) }, { weight: 1, arbitrary: fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map((n) => Q.fromBigInt(n)) });
const matrix = (m: number, n: number): fc.Arbitrary<Rational[][]> => fc.array(fc.array(entry, { minLength: n, maxLength: n }), { minLength: m, maxLength: m });
const anyMatrix = fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 })).chain(([m, n]) => matrix(m, n));
const square = fc.integer({ min: 1, max: 5 }).chain((n) => matrix(n, n));
/** Low-rank products: an m×k times k×n matrix. */
const lowRank = fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 6 })).chain(([m, k, n]) => fc.tuple(matrix(m, k), matrix(k, n)).map(([B, C]) => mul(Q, B, C)));
const shapes = fc.oneof(anyMatrix, lowRank);

const PRIMES = ['2', '3', '7', '65537', '2305843009213693951'];

describe('fraction-free elimination over Q', () => {
  it('agrees with direct rational elimination on rank, RREF and determinant, and with brute force', () => {
    fc.assert(
      fc.property(shapes, (A) => {
        const echelon = ff.rref(A);
        expect(echelon).toEqual(direct.rref(A));
        expect(ff.rank(A)).toBe(echelon.rank);
        if (A.length <= 4 && (A[0]?.length ?? 0) <= 4) expect(echelon.rank).toBe(bruteRank(Q, A));
        if (A.length === A[0]?.length) {
          expect(ff.determinant(A)).toEqual(direct.determinant(A));
          expect(ff.determinant(A)).toEqual(laplace(Q, A));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the RREF is in reduced row echelon form and spans the same row space', () => {
    fc.assert(
      fc.property(shapes, (A) => {
        const { rank, pivots, rows } = ff.rref(A);
        for (const [i, p] of pivots.entries()) {
          expect(pivots[i - 1] === undefined || (pivots[i - 1] as number) < p).toBe(true);
          for (const [k, row] of rows.entries()) expect(row[p]).toEqual(k === i ? Q.one : Q.zero);
          for (let j = 0; j < p; j++) expect((rows[i] as Rational[])[j]).toEqual(Q.zero);
        }
        // Same row space: stacking the RREF under A adds no rank.
        expect(ff.rank([...A, ...rows])).toBe(rank);
      }),
      { numRuns: 200 },
    );
  });

  it('every division of fraction-free Gauss–Jordan is exact (integer input, integer result)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.bigInt({ min: -50n, max: 50n }), { minLength: 5, maxLength: 5 }), { minLength: 1, maxLength: 6 }), (rows) => {
        const copy = rows.map((row) => [...row]);
        const { rank, last } = fractionFreeEliminate(copy, 5, true);
        // Each pivot row ends as last·(RREF row): recompute directly and compare.
        const reference = direct.rref(rows.map((row) => row.map((x) => Q.fromBigInt(x))));
        expect(rank).toBe(reference.rank);
        for (let i = 0; i < rank; i++) expect((copy[i] as bigint[]).map((x) => makeRational(x, last))).toEqual(reference.rows[i]);
      }),
      { numRuns: 200 },
    );
  });

  it('is multiplicative: det(AB) = det(A) det(B)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }).chain((n) => fc.tuple(matrix(n, n), matrix(n, n))), ([A, B]) => {
        expect(ff.determinant(mul(Q, A, B))).toEqual(Q.mul(ff.determinant(A), ff.determinant(B)));
      }),
      { numRuns: 200 },
    );
  });

  it('handles entries near 2^64 and beyond exactly', () => {
    const big = 1n << 64n;
    const A = [[big + 1n, big], [big, big - 1n]].map((row) => row.map((x) => Q.fromBigInt(x)));
    // (2^64+1)(2^64-1) - 2^128 = -1
    expect(ff.determinant(A)).toEqual(Q.fromBigInt(-1n));
    const inv = ff.inverse(A);
    expect(inv.invertible).toBe(true);
    if (inv.invertible) expect(mul(Q, A, inv.inverse)).toEqual(identity(Q, 2));
  });
});

describe('kernels, inverses and solutions over Q', () => {
  it('right and left kernels: A K = 0, Y A = 0, independent, of dimensions n - rank and m - rank', () => {
    fc.assert(
      fc.property(shapes, (A) => {
        const m = A.length;
        const n = A[0]?.length ?? 0;
        const { right, left, rank } = ff.nullspace(A);
        expect(rank).toBe(ff.rank(A));
        expect(right).toHaveLength(n - rank);
        expect(left).toHaveLength(m - rank);
        if (right.length > 0) {
          // K has the basis vectors as columns.
          const K = Array.from({ length: n }, (_, i) => right.map((v) => v[i] as Rational));
          expect(isZeroMatrix(Q, mul(Q, A, K))).toBe(true);
          expect(ff.rank(right)).toBe(right.length);
        }
        if (left.length > 0) {
          expect(isZeroMatrix(Q, mul(Q, left, A))).toBe(true);
          expect(ff.rank(left)).toBe(left.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the inverse multiplies out to the identity; a singular matrix gives a non-zero kernel vector', () => {
    fc.assert(
      fc.property(fc.oneof(square, lowRank.filter((A) => A.length === A[0]?.length)), (A) => {
        const n = A.length;
        const result = ff.inverse(A);
        expect(result.invertible).toBe(!Q.isZero(laplace(Q, A)));
        if (result.invertible) {
          expect(mul(Q, A, result.inverse)).toEqual(identity(Q, n));
          expect(mul(Q, result.inverse, A)).toEqual(identity(Q, n));
        } else {
          expect(result.kernelVector.some((x) => !Q.isZero(x))).toBe(true);
          expect(isZeroMatrix(Q, mul(Q, A, column(result.kernelVector)))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('solves A x = b: a solution and the kernel when consistent, y A = 0 and y·b = 1 when not', () => {
    fc.assert(
      fc.property(shapes, fc.boolean(), fc.infiniteStream(entry), (A, fromSolution, stream) => {
        const m = A.length;
        const n = A[0]?.length ?? 0;
        const b = fromSolution ? mul(Q, A, column(Array.from({ length: n }, () => stream.next().value as Rational))).map((row) => row[0] as Rational) : Array.from({ length: m }, () => stream.next().value as Rational);
        const result = ff.solve(A, b);
        const consistent = ff.rank(A) === ff.rank(A.map((row, i) => [...row, b[i] as Rational]));
        expect(result.consistent).toBe(consistent);
        if (fromSolution) expect(result.consistent).toBe(true);
        if (result.consistent) {
          expect(mul(Q, A, column(result.solution)).map((row) => row[0])).toEqual(b);
          expect(result.kernel).toHaveLength(n - result.rank);
          for (const v of result.kernel) expect(isZeroMatrix(Q, mul(Q, A, column(v)))).toBe(true);
        } else {
          expect(isZeroMatrix(Q, mul(Q, [result.certificate], A))).toBe(true);
          expect(mul(Q, [result.certificate], column(b))).toEqual([[Q.one]]);
        }
        expect(direct.solve(A, b)).toEqual(result);
      }),
      { numRuns: 300 },
    );
  });

  it('scales kernel vectors to primitive integer vectors with a positive leading entry', () => {
    expect(primitiveIntegerVector([makeRational(-1n, 2n), Q.zero, makeRational(3n, 4n)])).toEqual([Q.fromBigInt(2n), Q.zero, Q.fromBigInt(-3n)]);
  });
});

describe('elimination over GF(p)', () => {
  it.each(PRIMES)('over GF(%s): det and rank agree with the integer matrix reduced mod p; kernels, inverse and solutions check out', (p) => {
    const F = fieldFromSpec({ kind: 'GF', characteristic: p }) as Field<unknown>;
    const la = new LinearAlgebra(fieldBackend(F));
    const ints = fc.integer({ min: 1, max: 5 }).chain((m) => fc.tuple(fc.constant(m), fc.integer({ min: 1, max: 5 }))).chain(([m, n]) => fc.array(fc.array(fc.bigInt({ min: -(1n << 65n), max: 1n << 65n }), { minLength: n, maxLength: n }), { minLength: m, maxLength: m }));
    fc.assert(
      fc.property(ints, fc.array(fc.bigInt({ min: -100n, max: 100n }), { minLength: 5, maxLength: 5 }), (Z, rhs) => {
        const A = Z.map((row) => row.map((x) => F.fromBigInt(x)));
        const AQ = Z.map((row) => row.map((x) => Q.fromBigInt(x)));
        const m = A.length;
        const n = A[0]?.length ?? 0;
        const rank = la.rank(A);
        expect(rank).toBeLessThanOrEqual(ff.rank(AQ));
        if (m <= 4 && n <= 4) expect(rank).toBe(bruteRank(F, A));
        if (m === n) {
          const detQ = ff.determinant(AQ);
          expect(F.equals(la.determinant(A), F.fromBigInt(detQ.num))).toBe(true);
          const inv = la.inverse(A);
          expect(inv.invertible).toBe(!F.isZero(la.determinant(A)));
          if (inv.invertible) expect(mul(F, A, inv.inverse)).toEqual(identity(F, n));
          else expect(isZeroMatrix(F, mul(F, A, column(inv.kernelVector)))).toBe(true);
        }
        const { right, left } = la.nullspace(A);
        expect(right.length + rank).toBe(n);
        expect(left.length + rank).toBe(m);
        for (const v of right) expect(isZeroMatrix(F, mul(F, A, column(v)))).toBe(true);
        if (left.length > 0) expect(isZeroMatrix(F, mul(F, left, A))).toBe(true);
        const b = rhs.slice(0, m).map((x) => F.fromBigInt(x));
        const solved = la.solve(A, b);
        if (solved.consistent) expect(mul(F, A, column(solved.solution)).map((row) => row[0])).toEqual(b);
        else {
          expect(isZeroMatrix(F, mul(F, [solved.certificate], A))).toBe(true);
          expect(F.isOne(mul(F, [solved.certificate], column(b))[0]?.[0])).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('ringEngine', () => {
  it('reads canonical texts of each ring and prints answers in its field', () => {
    const engine = ringEngine({ kind: 'Z' });
    expect(engine.fieldName).toBe('Q');
    const A = engine.parse([['2', '1'], ['4', '3']]);
    expect(engine.format(engine.algebra.determinant(A))).toBe('2');
    const gf = ringEngine({ kind: 'GF', characteristic: '5' });
    expect(gf.algebra.rref(gf.parse([['2', '4'], ['1', '2']])).rows.map((row) => row.map((x) => gf.format(x)))).toEqual([['1', '2']]);
    expect(() => engine.parse([['1/2']])).not.toThrow();
    expect(() => gf.parse([['5']])).toThrow(/canonical/);
  });
});
