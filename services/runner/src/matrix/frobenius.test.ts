import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldFromSpec, makeRational, RATIONALS, type Field, type Rational } from '@jacobian/shared';
import { characteristicPolynomial, localMinimalPolynomial, minimalPolynomial, polyDivMod, polyMul } from './characteristic.js';
import { fieldBackend, LinearAlgebra, RATIONAL_BACKEND } from './engine.js';
import { companionMatrix, frobeniusForm, rationalLocalMinimalPolynomial } from './frobenius.js';

const Q = RATIONALS as Field<unknown>;
const GF = (p: string): Field<unknown> => fieldFromSpec({ kind: 'GF', characteristic: p });
const engineOf = (F: Field<unknown>): LinearAlgebra<unknown> => (F.kind === 'Q' ? (new LinearAlgebra(RATIONAL_BACKEND)) : new LinearAlgebra(fieldBackend(F)));

function mul<C>(F: Field<C>, A: readonly C[][], B: readonly C[][]): C[][] {
  return A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => F.add(s, F.mul(a, (B[k] as C[])[j] as C)), F.zero)));
}
const text = (F: Field<unknown>, M: readonly unknown[][]): string[][] => M.map((row) => row.map((x) => F.format(x)));
const fromInts = (F: Field<unknown>, rows: readonly (readonly number[])[]): unknown[][] => rows.map((row) => row.map((x) => F.fromBigInt(BigInt(x))));

/** Every property of the answer, checked with the test's own products and the engine's inverse. */
function checkFrobenius(F: Field<unknown>, A: unknown[][]): { invariantFactors: string[][] } {
  const la = engineOf(F);
  const { invariantFactors, form, transform } = frobeniusForm(la, A);
  const inverse = la.inverse(transform);
  expect(inverse.invertible).toBe(true);
  if (!inverse.invertible) throw new Error('unreachable');
  expect(text(F, mul(F, mul(F, inverse.inverse, A), transform))).toEqual(text(F, form));
  // F is block diagonal of the companion matrices, in the order of the invariant factors.
  let offset = 0;
  for (const d of invariantFactors) {
    expect(F.isOne(d[d.length - 1])).toBe(true);
    expect(d.length).toBeGreaterThan(1);
    const block = companionMatrix(F, d);
    expect(text(F, form.slice(offset, offset + block.length).map((row) => row.slice(offset, offset + block.length)))).toEqual(text(F, block));
    offset += block.length;
  }
  for (let i = 1; i < invariantFactors.length; i++) expect(polyDivMod(F, invariantFactors[i] as unknown[], invariantFactors[i - 1] as unknown[]).remainder).toEqual([]);
  const product = invariantFactors.reduce<unknown[]>((acc, d) => polyMul(F, acc, d), [F.one]);
  expect(product.map((c) => F.format(c))).toEqual(characteristicPolynomial(F, A).map((c) => F.format(c)));
  expect(invariantFactors[invariantFactors.length - 1]?.map((c) => F.format(c))).toEqual(minimalPolynomial(F, A).map((c) => F.format(c)));
  return { invariantFactors: invariantFactors.map((d) => d.map((c) => F.format(c))) };
}

describe('rational canonical form', () => {
  it('a scalar matrix: n blocks x − c', () => {
    const { invariantFactors } = checkFrobenius(Q, fromInts(Q, [[5, 0, 0], [0, 5, 0], [0, 0, 5]]));
    expect(invariantFactors).toEqual([['-5', '1'], ['-5', '1'], ['-5', '1']]);
  });

  it('a nilpotent matrix with Jordan blocks of sizes 3, 2, 2, 1: x, x², x², x³', () => {
    const n = 8;
    const J = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (const i of [0, 1, 3, 5]) (J[i] as number[])[i + 1] = 1;
    const { invariantFactors } = checkFrobenius(Q, fromInts(Q, J));
    expect(invariantFactors).toEqual([['0', '1'], ['0', '0', '1'], ['0', '0', '1'], ['0', '0', '0', '1']]);
  });

  it('diag(2, 2, 3, 3, 3, 7): x − 3, (x − 2)(x − 3), (x − 2)(x − 3)(x − 7)', () => {
    const diagonal = [2, 2, 3, 3, 3, 7];
    const { invariantFactors } = checkFrobenius(Q, fromInts(Q, diagonal.map((d, i) => diagonal.map((_, j) => (i === j ? d : 0)))));
    expect(invariantFactors).toEqual([['-3', '1'], ['6', '-5', '1'], ['-42', '41', '-12', '1']]);
  });

  it('a companion matrix is its own form (one block), and so is a conjugate of it', () => {
    const p = [3n, -1n, 0n, 2n, 1n].map((c) => makeRational(c, 1n));
    const C = companionMatrix(RATIONALS, p) as unknown[][];
    expect(checkFrobenius(Q, C).invariantFactors).toEqual([['3', '-1', '0', '2', '1']]);
    const S = fromInts(Q, [[1, 2, 0, 0], [0, 1, 0, 3], [0, 0, 1, 0], [1, 0, 0, 1]]);
    const inverse = engineOf(Q).inverse(S);
    if (!inverse.invertible) throw new Error('S is invertible');
    expect(checkFrobenius(Q, mul(Q, mul(Q, inverse.inverse, C), S)).invariantFactors).toEqual([['3', '-1', '0', '2', '1']]);
  });

  it('a rational matrix with fractions', () => {
    const A = [[makeRational(1n, 2n), makeRational(1n, 1n), makeRational(0n, 1n)], [makeRational(0n, 1n), makeRational(1n, 2n), makeRational(0n, 1n)], [makeRational(0n, 1n), makeRational(0n, 1n), makeRational(1n, 2n)]] as Rational[][];
    expect(checkFrobenius(Q, A as unknown[][]).invariantFactors).toEqual([['-1/2', '1'], ['1/4', '-1', '1']]);
  });

  it('property: random integer matrices, with repeated structure (block diagonal copies), over Q', () => {
    const entry = fc.integer({ min: -3, max: 3 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(fc.array(fc.array(entry, { minLength: n, maxLength: n }), { minLength: n, maxLength: n }), fc.boolean())), ([B, doubled]) => {
        const n = B.length;
        // doubled: diag(B, B), which has repeated invariant factors.
        const A = doubled ? Array.from({ length: 2 * n }, (_, i) => Array.from({ length: 2 * n }, (_, j) => (Math.floor(i / n) === Math.floor(j / n) ? ((B[i % n] as number[])[j % n] as number) : 0))) : B;
        checkFrobenius(Q, fromInts(Q, A));
      }),
      { numRuns: 60, seed: 11 },
    );
  });

  it('property: random matrices over GF(2), GF(3) and GF(101) (small fields make derogatory matrices common)', () => {
    fc.assert(
      fc.property(fc.constantFrom('2', '3', '101'), fc.integer({ min: 1, max: 6 }).chain((n) => fc.array(fc.array(fc.nat(100), { minLength: n, maxLength: n }), { minLength: n, maxLength: n })), (p, rows) => {
        const F = GF(p);
        checkFrobenius(F, fromInts(F, rows));
      }),
      { numRuns: 120, seed: 5 },
    );
  });

  it('property: the fraction-free local minimal polynomial over Q equals the one by incremental elimination on rationals', () => {
    const entry = fc.oneof(fc.integer({ min: -4, max: 4 }).map((x) => makeRational(BigInt(x), 1n)), fc.tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: 1, max: 5 })).map(([a, b]) => makeRational(BigInt(a), BigInt(b))));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((n) => fc.tuple(fc.array(fc.array(entry, { minLength: n, maxLength: n }), { minLength: n, maxLength: n }), fc.array(entry, { minLength: n, maxLength: n }), fc.nat(n - 1))),
        ([A, v, zeroes]) => {
          // Sparse matrices and vectors too: low-degree local minimal polynomials.
          const sparse = A.map((row, i) => row.map((x, j) => ((i + j) % (zeroes + 1) === 0 ? x : makeRational(0n, 1n))));
          const la = new LinearAlgebra(RATIONAL_BACKEND);
          const format = (p: readonly Rational[]): string[] => p.map((c) => RATIONALS.format(c));
          expect(format(rationalLocalMinimalPolynomial(la, sparse, v))).toEqual(format(localMinimalPolynomial(RATIONALS, sparse, v)));
        },
      ),
      { numRuns: 150, seed: 21 },
    );
  });

  it('a 12×12 integer matrix of mixed structure', () => {
    const n = 12;
    const A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? (i % 3) + 1 : j === i + 1 && i % 4 !== 3 ? 1 : 0)));
    (A[0] as number[])[11] = 2;
    checkFrobenius(Q, fromInts(Q, A));
  });
});
