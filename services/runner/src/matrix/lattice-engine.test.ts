import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adoptLllAnswer, hermiteCoordinates, lllReduce, sublatticeIndex, type Delta } from './lattice-engine.js';
import { isLllReduced, sameLattice } from './matrix-test-support.js';
import { hermiteNormalForm } from './normal-form-engine.js';

const THREE_QUARTERS: Delta = { num: 3n, den: 4n };

function multiply(A: readonly (readonly bigint[])[], B: readonly (readonly bigint[])[], width = B[0]?.length ?? 0): bigint[][] {
  return A.map((row) => Array.from({ length: width }, (_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));
}

/** The test's own determinant by Laplace expansion (small orders only). */
function laplace(M: readonly (readonly bigint[])[]): bigint {
  const n = M.length;
  if (n === 0) return 1n;
  if (n === 1) return (M[0] as bigint[])[0] as bigint;
  let det = 0n;
  for (let j = 0; j < n; j++) {
    const a = (M[0] as bigint[])[j] as bigint;
    if (a === 0n) continue;
    const minor = M.slice(1).map((row) => row.filter((_, c) => c !== j));
    det += (j % 2 === 0 ? a : -a) * laplace(minor);
  }
  return det;
}

const entry = fc.bigInt({ min: -40n, max: 40n });
const matrix = (rows: number, cols: number) => fc.array(fc.array(entry, { minLength: cols, maxLength: cols }), { minLength: rows, maxLength: rows });
const deltas: fc.Arbitrary<Delta> = fc.constantFrom<Delta>({ num: 3n, den: 4n }, { num: 99n, den: 100n }, { num: 1n, den: 1n }, { num: 26n, den: 100n });

describe('LLL on big integers', () => {
  it('reduces the textbook example (Cohen 2.6.7 conditions hold; the lattice is kept)', () => {
    const B = [[1n, 1n, 1n], [-1n, 0n, 2n], [3n, 5n, 6n]];
    const out = lllReduce(B, THREE_QUARTERS);
    expect(out.rank).toBe(3);
    expect(out.dependent).toBe(false);
    expect(multiply(out.transform, B)).toEqual(out.reduced);
    expect(Math.abs(Number(laplace(out.transform)))).toBe(1);
    expect(isLllReduced(out.reduced, THREE_QUARTERS)).toBe(true);
    // |det B| = 3, so the squared covolume is 9.
    expect(out.gram[2]).toBe(9n);
    expect(out.reduced[0]?.reduce((s, x) => s + x * x, 0n)).toBeLessThanOrEqual(3n);
  });

  it('finds the short vector hidden in a knapsack-style basis (an integer relation among 3 large numbers)', () => {
    // Rows e_i | K·a_i: a short vector of the lattice with last coordinate 0 is a relation Σ x_i a_i = 0.
    const a = [1234567n, 2345678n, 3580245n]; // a_0 + a_1 = a_2
    const K = 10n ** 8n;
    const B = a.map((x, i) => [...[0, 1, 2].map((j) => (i === j ? 1n : 0n)), K * x]);
    const out = lllReduce(B, { num: 99n, den: 100n });
    const first = out.reduced[0] as bigint[];
    expect(first[3]).toBe(0n);
    expect(first.slice(0, 3).map((x) => (first[0] as bigint) < 0n ? -x : x)).toEqual([1n, 1n, -1n]);
  });

  it('with δ = 1 in dimension 2 the first vector is a shortest non-zero vector (Lagrange–Gauss), against enumeration', () => {
    fc.assert(
      fc.property(matrix(2, 2), (M) => {
        if (laplace(M) === 0n) return;
        const out = lllReduce(M, { num: 1n, den: 1n });
        const norm = (v: readonly bigint[]): bigint => v.reduce((s, x) => s + x * x, 0n);
        const first = norm(out.reduced[0] as bigint[]);
        // Coefficients up to 40 in absolute value cover every shortest vector here (|coefficients| ≤ the ratio of norms).
        let best: bigint | null = null;
        for (let x = -40n; x <= 40n; x++) {
          for (let y = -40n; y <= 40n; y++) {
            if (x === 0n && y === 0n) continue;
            const v = [0, 1].map((c) => x * ((M[0] as bigint[])[c] as bigint) + y * ((M[1] as bigint[])[c] as bigint));
            const n2 = norm(v);
            if (best === null || n2 < best) best = n2;
          }
        }
        expect(first).toBe(best);
      }),
      { numRuns: 40 },
    );
  });

  it('property: U is unimodular, U B = B′, B′ is LLL-reduced for δ and spans the same lattice (independent and dependent generators)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((m) => fc.tuple(fc.constant(m), fc.integer({ min: 1, max: 5 }))).chain(([m, n]) => matrix(m, n)),
        deltas,
        (B, delta) => {
          const out = lllReduce(B, delta);
          const m = B.length;
          expect(out.transform).toHaveLength(m);
          expect(multiply(out.transform, B)).toEqual(out.reduced);
          expect(laplace(out.transform) ** 2n).toBe(1n);
          const basis = out.reduced.slice(0, out.rank);
          expect(out.reduced.slice(out.rank).every((row) => row.every((x) => x === 0n))).toBe(true);
          expect(isLllReduced(basis, delta)).toBe(true);
          expect(sameLattice(B, basis)).toBe(true);
          expect(out.gram).toHaveLength(out.rank);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('dependent generators: the rank, the zero rows last, and relation rows of U that annihilate B', () => {
    const B = [[2n, 4n, 6n], [1n, 2n, 3n], [0n, 1n, 1n], [1n, 3n, 4n]];
    const out = lllReduce(B, THREE_QUARTERS);
    expect(out).toMatchObject({ rank: 2, dependent: true });
    expect(multiply(out.transform.slice(2), B)).toEqual([[0n, 0n, 0n], [0n, 0n, 0n]]);
    expect(laplace(out.transform) ** 2n).toBe(1n);
    expect(isLllReduced(out.reduced.slice(0, 2), THREE_QUARTERS)).toBe(true);
    // 30 generators of 20 bits in Z^10: the Hermite transform has entries of thousands of bits, but U's rows are reduced (the basis rows against the relations).
    let seed = 4242n;
    const next = (): bigint => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
      return (seed >> 40n) - (1n << 23n);
    };
    const wide = Array.from({ length: 30 }, () => Array.from({ length: 10 }, next));
    const many = lllReduce(wide, THREE_QUARTERS);
    expect(many.rank).toBe(10);
    expect(multiply(many.transform, wide)).toEqual(many.reduced);
    expect(Math.max(...many.transform.flat().map((x) => (x < 0n ? -x : x).toString(2).length))).toBeLessThan(64);
    expect(isLllReduced(many.reduced.slice(0, 10), THREE_QUARTERS)).toBe(true);
    // All zero generators: rank 0, U any unimodular matrix.
    const zero = lllReduce([[0n, 0n]], THREE_QUARTERS);
    expect(zero).toMatchObject({ rank: 0, reduced: [[0n, 0n]] });
  });
});

describe('sublattice index', () => {
  it('writes vectors in the Hermite basis, or names where they leave the lattice', () => {
    const H = [[2n, 1n], [0n, 3n]];
    expect(hermiteCoordinates(H, [0, 1], [4n, 5n])).toEqual({ coordinates: [2n, 1n] });
    expect(hermiteCoordinates(H, [0, 1], [1n, 0n])).toEqual({ outside: 0 });
    expect(hermiteCoordinates(H, [0, 1], [2n, 2n])).toEqual({ outside: 1 });
    expect(hermiteCoordinates([[1n, 0n, 1n]], [0], [0n, 1n, 0n])).toEqual({ outside: 1 });
  });

  it('property: for L′ = C·L with C square, [L : L′] = |det C|, and L / L′ has that order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }).chain((r) => fc.tuple(matrix(r, r + 1), matrix(r, r))), ([A, C]) => {
        if (hermiteNormalForm(A).rank < A.length) return;
        const S = multiply(C, A);
        const result = sublatticeIndex(A, S);
        if (!result.contained) throw new Error('C·L is inside L');
        const det = laplace(C);
        expect(result.rank).toBe(A.length);
        if (det === 0n) {
          expect(result.index).toBeNull();
          expect(result.sublatticeRank).toBeLessThan(A.length);
        } else {
          expect(result.index).toBe(det < 0n ? -det : det);
          expect(result.torsion.reduce((p, x) => p * x, 1n)).toBe(result.index);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('names the generator of L′ outside L; an infinite index for lower rank', () => {
    expect(sublatticeIndex([[2n, 0n], [0n, 2n]], [[2n, 2n], [1n, 0n]])).toEqual({ contained: false, generator: 1, column: 0 });
    const lower = sublatticeIndex([[1n, 0n], [0n, 1n]], [[2n, 4n], [1n, 2n]]);
    expect(lower).toMatchObject({ contained: true, rank: 2, sublatticeRank: 1, index: null, torsion: [] });
    const z6 = sublatticeIndex([[1n, 0n], [0n, 1n]], [[2n, 0n], [0n, 3n]]);
    expect(z6).toMatchObject({ index: 6n, torsion: [6n] });
  });
});

describe('adoptLllAnswer (another engine\'s LLL answer, rechecked and size-reduced exactly)', () => {
  const I2 = [[1n, 0n], [0n, 1n]];

  it('accepts a reduced basis with its transform, size-reducing a μ beyond 1/2 (as fplll\'s η = 0.51 allows) and keeping U B = B′', () => {
    // b_2 = (1, 1) against b_1 = (1, 0): μ = 1, reduced to (0, 1).
    const B = [[1n, 0n], [1n, 1n]];
    const out = adoptLllAnswer(B, I2, B, THREE_QUARTERS);
    if (!out.accepted) throw new Error('not accepted');
    expect(out).toMatchObject({ rank: 2, sizeReductions: 1, dependent: false, gram: [1n, 1n] });
    expect(out.reduced).toEqual([[1n, 0n], [0n, 1n]]);
    expect(multiply(out.transform, B)).toEqual(out.reduced);
    expect(isLllReduced(out.reduced, THREE_QUARTERS)).toBe(true);
  });

  it('accepts dependent generators: the kernel rows give zero and come last', () => {
    const B = [[1n, 2n], [2n, 4n], [0n, 1n]];
    const U = [[0n, 0n, 1n], [1n, 0n, -2n], [-2n, 1n, 0n]];
    const out = adoptLllAnswer(B, U, [[0n, 1n], [1n, 0n]], THREE_QUARTERS);
    if (!out.accepted) throw new Error('not accepted');
    expect(out).toMatchObject({ rank: 2, dependent: true });
    expect(multiply(out.transform, B)).toEqual([...out.reduced.slice(0, 2), [0n, 0n]]);
    expect(isLllReduced(out.reduced.slice(0, 2), THREE_QUARTERS)).toBe(true);
  });

  it('answers the row where the Lovász condition fails for δ, and accepts the same basis for a smaller δ', () => {
    // Orthogonal rows: μ = 0, so Lovász is |b_2|² ≥ δ|b_1|²: 4 ≥ δ·9 holds for δ = 26/100, not for 3/4.
    const C = [[3n, 0n], [0n, 2n]];
    expect(adoptLllAnswer(C, I2, C, { num: 26n, den: 100n })).toMatchObject({ accepted: true });
    expect(adoptLllAnswer(C, I2, C, THREE_QUARTERS)).toEqual({ accepted: false, row: 1 });
  });

  it('refuses a wrong answer: U B ≠ B′, a transform that is not unimodular, dependent basis rows, a non-zero relation row, wrong shapes', () => {
    const B = [[1n, 0n], [0n, 1n]];
    expect(() => adoptLllAnswer(B, I2, [[1n, 0n], [0n, 2n]], THREE_QUARTERS)).toThrow(/row 1 of U B/);
    expect(() => adoptLllAnswer([[2n, 0n], [0n, 1n]].map((r) => r.map((x) => x)), [[1n, 0n], [0n, 2n]], [[2n, 0n], [0n, 2n]], { num: 26n, den: 100n })).toThrow(/not unimodular/);
    expect(() => adoptLllAnswer([[1n, 1n], [2n, 2n]], [[1n, 0n], [0n, 1n]], [[1n, 1n], [2n, 2n]], THREE_QUARTERS)).toThrow(/depends/);
    expect(() => adoptLllAnswer([[1n, 1n], [2n, 2n]], [[1n, 0n], [0n, 1n]], [[1n, 1n]], THREE_QUARTERS)).toThrow(/row 1 of U B is not zero/);
    expect(() => adoptLllAnswer(B, [[1n, 0n]], B, THREE_QUARTERS)).toThrow(/not 2×2/);
    expect(() => adoptLllAnswer(B, I2, [[1n, 0n, 0n]], THREE_QUARTERS)).toThrow(/wrong length/);
  });
});
