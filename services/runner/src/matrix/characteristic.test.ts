import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldFromSpec, makeRational, RATIONALS, type Field, type Rational } from '@jacobian/shared';
import { applyPolynomial, characteristicPolynomial, isSquareFree, localMinimalPolynomial, minimalPolynomial, polyDivMod, polyMul, rationalCharacteristicPolynomial, rationalMinimalPolynomial } from './characteristic.js';
import { fieldBackend, LinearAlgebra } from './engine.js';

const Q = RATIONALS as Field<unknown>;
const GF = (p: string): Field<unknown> => fieldFromSpec({ kind: 'GF', characteristic: p });

// --- independent helpers (no code of characteristic.ts) ------------------------------------

function mul<C>(F: Field<C>, A: readonly C[][], B: readonly C[][]): C[][] {
  return A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => F.add(s, F.mul(a, (B[k] as C[])[j] as C)), F.zero)));
}
const identity = <C>(F: Field<C>, n: number): C[][] => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? F.one : F.zero)));

/** p(A) with whole matrices: Σ c_k A^k by repeated multiplication. */
function evaluateAt<C>(F: Field<C>, p: readonly C[], A: C[][]): C[][] {
  const n = A.length;
  let power = identity(F, n);
  let sum = Array.from({ length: n }, () => Array.from({ length: n }, () => F.zero));
  for (const c of p) {
    sum = sum.map((row, i) => row.map((x, j) => F.add(x, F.mul(c, (power[i] as C[])[j] as C))));
    power = mul(F, power, A);
  }
  return sum;
}
const isZero = <C>(F: Field<C>, M: C[][]): boolean => M.every((row) => row.every((x) => F.isZero(x)));

/** Determinant by expansion along the first row. */
function laplace<C>(F: Field<C>, A: C[][]): C {
  if (A.length === 0) return F.one;
  let total = F.zero;
  for (let j = 0; j < A.length; j++) {
    const minor = A.slice(1).map((row) => row.filter((_, k) => k !== j));
    const term = F.mul((A[0] as C[])[j] as C, laplace(F, minor));
    total = j % 2 === 0 ? F.add(total, term) : F.sub(total, term);
  }
  return total;
}

function horner<C>(F: Field<C>, p: readonly C[], t: C): C {
  let s = F.zero;
  for (let k = p.length - 1; k >= 0; k--) s = F.add(F.mul(s, t), p[k] as C);
  return s;
}

/** Rank of a list of vectors by plain elimination. */
function rank<C>(F: Field<C>, vectors: C[][]): number {
  const M = vectors.map((v) => [...v]);
  let r = 0;
  for (let c = 0; c < (M[0]?.length ?? 0) && r < M.length; c++) {
    const i = M.findIndex((row, k) => k >= r && !F.isZero(row[c] as C));
    if (i < 0) continue;
    [M[r], M[i]] = [M[i] as C[], M[r] as C[]];
    const top = M[r] as C[];
    for (let k = r + 1; k < M.length; k++) {
      const row = M[k] as C[];
      const f = F.div(row[c] as C, top[c] as C);
      for (let j = c; j < row.length; j++) row[j] = F.sub(row[j] as C, F.mul(f, top[j] as C));
    }
    r++;
  }
  return r;
}

/** Brute force: the least k with I, A, …, A^k linearly dependent (the degree of the minimal polynomial). */
function bruteMinimalDegree<C>(F: Field<C>, A: C[][]): number {
  const powers: C[][] = [];
  let power = identity(F, A.length);
  for (let k = 0; ; k++) {
    powers.push(power.flat());
    if (rank(F, powers) === k) return k;
    power = mul(F, power, A);
  }
}

const toQ = (rows: number[][]): unknown[][] => rows.map((row) => row.map((x) => Q.fromBigInt(BigInt(x))));

/** A matrix with repeated eigenvalues and Jordan structure, conjugated by a unimodular P so that it is dense. */
const structured = fc
  .record({
    blocks: fc.array(fc.record({ eigenvalue: fc.integer({ min: -2, max: 2 }), size: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 3 }),
    upper: fc.array(fc.integer({ min: -2, max: 2 }), { minLength: 36, maxLength: 36 }),
    lower: fc.array(fc.integer({ min: -2, max: 2 }), { minLength: 36, maxLength: 36 }),
  })
  .map(({ blocks, upper, lower }) => {
    const n = blocks.reduce((s, b) => s + b.size, 0);
    const J = Array.from({ length: n }, () => Array.from({ length: n }, () => 0));
    let at = 0;
    for (const b of blocks) {
      for (let i = 0; i < b.size; i++) {
        (J[at + i] as number[])[at + i] = b.eigenvalue;
        if (i + 1 < b.size) (J[at + i] as number[])[at + i + 1] = 1;
      }
      at += b.size;
    }
    // P = U L with unit triangular U, L: det P = 1.
    const U = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : j > i ? (upper[i * 6 + j] ?? 0) : 0)));
    const L = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : j < i ? (lower[i * 6 + j] ?? 0) : 0)));
    return { J: toQ(J), P: mul(Q, toQ(U), toQ(L)) };
  });

const dense = fc.integer({ min: 1, max: 5 }).chain((n) => fc.array(fc.array(fc.integer({ min: -4, max: 4 }), { minLength: n, maxLength: n }), { minLength: n, maxLength: n })).map(toQ);

const algebra = new LinearAlgebra(fieldBackend(Q));
function conjugate(J: unknown[][], P: unknown[][]): unknown[][] {
  const inverse = algebra.inverse(P);
  if (!inverse.invertible) throw new Error('P is unimodular');
  return mul(Q, mul(Q, inverse.inverse, J), P);
}

describe('characteristic polynomial', () => {
  it('is det(t I − A) at n + 1 points (Laplace expansion), monic of degree n, and annihilates A (Cayley–Hamilton)', () => {
    fc.assert(
      fc.property(dense, (A) => {
        const n = A.length;
        const p = characteristicPolynomial(Q, A);
        expect(p).toHaveLength(n + 1);
        expect(Q.isOne(p[n])).toBe(true);
        for (let t = -1; t < n; t++) {
          const T = Q.fromBigInt(BigInt(t));
          const shifted = A.map((row, i) => row.map((a, j) => (i === j ? Q.sub(T, a) : Q.neg(a))));
          expect(Q.equals(horner(Q, p, T), laplace(Q, shifted))).toBe(true);
        }
        expect(isZero(Q, evaluateAt(Q, p, A))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('reduced mod p equals the characteristic polynomial of A mod p', () => {
    for (const prime of ['2', '3', '7', '1000000007', '340282366920938463463374607431768211297']) {
      const F = GF(prime);
      fc.assert(
        fc.property(dense, (A) => {
          const overQ = characteristicPolynomial(Q, A) as { num: bigint; den: bigint }[];
          expect(overQ.every((c) => c.den === 1n)).toBe(true);
          const modP = characteristicPolynomial(F, A.map((row) => row.map((a) => F.fromBigInt((a as { num: bigint }).num))));
          expect(modP.map((c) => F.format(c))).toEqual(overQ.map((c) => F.format(F.fromBigInt(c.num))));
        }),
        { numRuns: 20 },
      );
    }
  });

  it('handles zero subdiagonals and the examples of the descriptor', () => {
    expect(characteristicPolynomial(Q, toQ([[1, 2], [3, 4]])).map((c) => Q.format(c))).toEqual(['-2', '-5', '1']);
    expect(characteristicPolynomial(Q, toQ([[0, 0, 0], [0, 0, 0], [0, 0, 0]])).map((c) => Q.format(c))).toEqual(['0', '0', '0', '1']);
    expect(characteristicPolynomial(Q, toQ([[5]])).map((c) => Q.format(c))).toEqual(['-5', '1']);
    // Upper triangular, already Hessenberg with a zero subdiagonal: (x − 1)(x − 2)(x − 3).
    expect(characteristicPolynomial(Q, toQ([[1, 7, 8], [0, 2, 9], [0, 0, 3]])).map((c) => Q.format(c))).toEqual(['-6', '11', '-6', '1']);
  });
});

describe('minimal polynomial', () => {
  it('is monic, annihilates A, has the brute-force least degree, divides the characteristic polynomial and has its irreducible factors', () => {
    fc.assert(
      fc.property(fc.oneof(dense, structured.map(({ J, P }) => conjugate(J, P))), (A) => {
        const n = A.length;
        const m = minimalPolynomial(Q, A);
        const chi = characteristicPolynomial(Q, A);
        expect(Q.isOne(m[m.length - 1])).toBe(true);
        expect(isZero(Q, evaluateAt(Q, m, A))).toBe(true);
        expect(m.length - 1).toBe(bruteMinimalDegree(Q, A));
        expect(polyDivMod(Q, chi, m).remainder).toEqual([]);
        // χ divides m^n: every irreducible factor of χ is one of m.
        let power: unknown[] = [Q.one];
        for (let k = 0; k < n; k++) power = polyMul(Q, power, m);
        expect(polyDivMod(Q, power, chi).remainder).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });

  it('is invariant under similarity P⁻¹ A P, as is the characteristic polynomial', () => {
    fc.assert(
      fc.property(structured, ({ J, P }) => {
        const A = conjugate(J, P);
        expect(minimalPolynomial(Q, A)).toEqual(minimalPolynomial(Q, J));
        expect(characteristicPolynomial(Q, A)).toEqual(characteristicPolynomial(Q, J));
      }),
      { numRuns: 60 },
    );
  });

  it('over GF(p): has the brute-force least degree and divides the integer minimal polynomial reduced mod p', () => {
    for (const prime of ['2', '3', '5', '65537']) {
      const F = GF(prime);
      fc.assert(
        fc.property(fc.oneof(dense, structured.map(({ J, P }) => conjugate(J, P))), (A) => {
          const reduce = (c: unknown): unknown => F.fromFraction((c as { num: bigint }).num, (c as { den: bigint }).den);
          const Ap = A.map((row) => row.map(reduce));
          const m = minimalPolynomial(F, Ap);
          expect(isZero(F, evaluateAt(F, m, Ap))).toBe(true);
          expect(m.length - 1).toBe(bruteMinimalDegree(F, Ap));
          expect(polyDivMod(F, minimalPolynomial(Q, A).map(reduce), m).remainder).toEqual([]);
        }),
        { numRuns: 25 },
      );
    }
  });

  it('knows scalar matrices, Jordan blocks and diagonalizability', () => {
    const scalar = toQ([[2, 0, 0], [0, 2, 0], [0, 0, 2]]);
    expect(minimalPolynomial(Q, scalar).map((c) => Q.format(c))).toEqual(['-2', '1']);
    const diag = toQ([[2, 0, 0], [0, 2, 0], [0, 0, 3]]);
    const m = minimalPolynomial(Q, diag);
    expect(m.map((c) => Q.format(c))).toEqual(['6', '-5', '1']);
    expect(isSquareFree(Q, m)).toBe(true);
    const jordan = toQ([[1, 1, 0], [0, 1, 0], [0, 0, 1]]);
    const mj = minimalPolynomial(Q, jordan);
    expect(mj.map((c) => Q.format(c))).toEqual(['1', '-2', '1']);
    expect(isSquareFree(Q, mj)).toBe(false);
    expect(minimalPolynomial(Q, toQ([[0, 0], [0, 0]])).map((c) => Q.format(c))).toEqual(['0', '1']);
    // Over GF(2), x^2 + x + 1 has no root but is square-free: [[0, 1], [1, 1]] is diagonalizable over the closure.
    const F2 = GF('2');
    const companion = [[F2.zero, F2.one], [F2.one, F2.one]];
    expect(minimalPolynomial(F2, companion).map((c) => F2.format(c))).toEqual(['1', '1', '1']);
    expect(isSquareFree(F2, minimalPolynomial(F2, companion))).toBe(true);
  });

  it('local minimal polynomials annihilate their vectors', () => {
    fc.assert(
      fc.property(dense, fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 5, maxLength: 5 }), (A, entries) => {
        const v = entries.slice(0, A.length).map((x) => Q.fromBigInt(BigInt(x)));
        const local = localMinimalPolynomial(Q, A, v);
        expect(applyPolynomial(Q, A, local, v).every((x) => Q.isZero(x))).toBe(true);
        expect(polyDivMod(Q, minimalPolynomial(Q, A), local).remainder).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});

describe('multimodular over Q', () => {
  const fractions = fc
    .integer({ min: 1, max: 5 })
    .chain((n) => fc.array(fc.array(fc.tuple(fc.integer({ min: -30, max: 30 }), fc.integer({ min: 1, max: 6 })), { minLength: n, maxLength: n }), { minLength: n, maxLength: n }))
    .map((rows) => rows.map((row) => row.map(([a, b]) => makeRational(BigInt(a), BigInt(b)))));

  it('agrees with rational arithmetic on the characteristic and minimal polynomials, fractions and repeated eigenvalues included', () => {
    fc.assert(
      fc.property(fc.oneof(fractions, dense as fc.Arbitrary<Rational[][]>, structured.map(({ J, P }) => conjugate(J, P) as Rational[][])), (A) => {
        expect(rationalCharacteristicPolynomial(A)).toEqual(characteristicPolynomial(Q, A));
        expect(rationalMinimalPolynomial(A)).toEqual(minimalPolynomial(Q, A));
      }),
      { numRuns: 80 },
    );
  });

  it('is exact where coefficients exceed many word-size primes: large entries, and a scalar block whose minimal polynomial needs the bound', () => {
    const big = 10n ** 40n;
    const A = [[big, 1n, 0n], [3n, -big, 2n], [5n, 7n, big]].map((row) => row.map((x) => Q.fromBigInt(x))) as Rational[][];
    expect(rationalCharacteristicPolynomial(A)).toEqual(characteristicPolynomial(Q, A));
    expect(rationalMinimalPolynomial(A)).toEqual(minimalPolynomial(Q, A));
    const scalar = [[big, 0n], [0n, big]].map((row) => row.map((x) => Q.fromBigInt(x))) as Rational[][];
    expect(rationalMinimalPolynomial(scalar).map((c) => Q.format(c))).toEqual([`-${big}`, '1']);
  });
});
