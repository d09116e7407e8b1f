import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extendedGcd, hermiteByRowOperations, hermiteNormalForm, identity, smithByOperations, smithNormalForm } from './normal-form-engine.js';

const abs = (x: bigint): bigint => (x < 0n ? -x : x);
const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [abs(a), abs(b)];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

function multiply(A: readonly (readonly bigint[])[], B: readonly (readonly bigint[])[]): bigint[][] {
  const inner = B.length;
  const width = B[0]?.length ?? 0;
  return A.map((row) => Array.from({ length: width }, (_, j) => {
    let s = 0n;
    for (let k = 0; k < inner; k++) s += (row[k] as bigint) * ((B[k] as bigint[])[j] as bigint);
    return s;
  }));
}

/** The determinant by cofactor expansion along the first row (the test's own, for small orders), or by Bareiss for larger ones. */
function determinant(M: readonly (readonly bigint[])[]): bigint {
  const n = M.length;
  const A = M.map((row) => [...row]);
  let sign = 1n;
  let previous = 1n;
  for (let k = 0; k < n - 1; k++) {
    if ((A[k] as bigint[])[k] === 0n) {
      const swap = A.findIndex((row, i) => i > k && row[k] !== 0n);
      if (swap < 0) return 0n;
      [A[k], A[swap]] = [A[swap] as bigint[], A[k] as bigint[]];
      sign = -sign;
    }
    const p = (A[k] as bigint[])[k] as bigint;
    for (let i = k + 1; i < n; i++) {
      for (let j = k + 1; j < n; j++) {
        (A[i] as bigint[])[j] = (p * ((A[i] as bigint[])[j] as bigint) - ((A[i] as bigint[])[k] as bigint) * ((A[k] as bigint[])[j] as bigint)) / previous;
      }
    }
    previous = p;
  }
  return n === 0 ? 1n : sign * ((A[n - 1] as bigint[])[n - 1] as bigint);
}

function subsets(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (let first = 0; first <= n - k; first++) for (const rest of subsets(n - first - 1, k - 1)) out.push([first, ...rest.map((x) => x + first + 1)]);
  return out;
}

/** The invariant factors by definition: d_k = D_k / D_{k−1}, D_k the gcd of all k×k minors. */
function invariantFactorsByMinors(A: readonly (readonly bigint[])[]): bigint[] {
  const m = A.length;
  const n = A[0]?.length ?? 0;
  const out: bigint[] = [];
  let previous = 1n;
  for (let k = 1; k <= Math.min(m, n); k++) {
    let g = 0n;
    for (const rows of subsets(m, k)) for (const cols of subsets(n, k)) g = gcd(g, determinant(rows.map((i) => cols.map((j) => (A[i] as bigint[])[j] as bigint))));
    out.push(previous === 0n ? 0n : g / previous);
    previous = g;
  }
  return out;
}

const matrices = (maxRows: number, maxCols: number, bound: number): fc.Arbitrary<bigint[][]> =>
  fc
    .record({ m: fc.integer({ min: 1, max: maxRows }), n: fc.integer({ min: 1, max: maxCols }) })
    .chain(({ m, n }) => fc.array(fc.array(fc.bigInt({ min: BigInt(-bound), max: BigInt(bound) }), { minLength: n, maxLength: n }), { minLength: m, maxLength: m }));

/** Matrices of low rank too: products of thin random factors. */
const lowRank = fc
  .record({ m: fc.integer({ min: 1, max: 6 }), n: fc.integer({ min: 1, max: 6 }), k: fc.integer({ min: 1, max: 3 }) })
  .chain(({ m, n, k }) =>
    fc
      .tuple(
        fc.array(fc.array(fc.bigInt({ min: -6n, max: 6n }), { minLength: k, maxLength: k }), { minLength: m, maxLength: m }),
        fc.array(fc.array(fc.bigInt({ min: -6n, max: 6n }), { minLength: n, maxLength: n }), { minLength: k, maxLength: k }),
      )
      .map(([L, R]) => multiply(L, R)),
  );

const anyMatrix = fc.oneof(matrices(6, 6, 30), lowRank, matrices(4, 4, 2 ** 40));

/** A random unimodular m×m matrix: a product of elementary operations and swaps. */
function unimodular(m: number, ops: readonly [number, number, number][]): bigint[][] {
  const W = identity(m);
  for (const [a, b, q] of ops) {
    const i = a % m;
    const j = b % m;
    if (i === j) {
      W[i] = (W[i] as bigint[]).map((x) => -x);
      continue;
    }
    if (q === 0) [W[i], W[j]] = [W[j] as bigint[], W[i] as bigint[]];
    else W[i] = (W[i] as bigint[]).map((x, c) => x + BigInt(q) * ((W[j] as bigint[])[c] as bigint));
  }
  return W;
}

/** Whether H is in row Hermite normal form with the given rank and pivots. */
function isHermite(H: readonly (readonly bigint[])[], rank: number, pivots: readonly number[]): boolean {
  for (let i = 0; i < H.length; i++) {
    const row = H[i] as bigint[];
    if (i >= rank) {
      if (row.some((x) => x !== 0n)) return false;
      continue;
    }
    const p = pivots[i] as number;
    if (i > 0 && p <= (pivots[i - 1] as number)) return false;
    if (row.slice(0, p).some((x) => x !== 0n) || (row[p] as bigint) <= 0n) return false;
    for (let k = 0; k < i; k++) {
      const above = (H[k] as bigint[])[p] as bigint;
      if (above < 0n || above >= (row[p] as bigint)) return false;
    }
  }
  return true;
}

describe('extended gcd', () => {
  it('gives s a + t b = gcd(a, b) ≥ 0', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }), fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }), (a, b) => {
        const { g, s, t } = extendedGcd(a, b);
        expect(g).toBe(gcd(a, b));
        expect(s * a + t * b).toBe(g);
      }),
    );
  });
});

describe('Hermite normal form', () => {
  it('U A = H, U unimodular, H in Hermite form', () => {
    fc.assert(
      fc.property(anyMatrix, (A) => {
        const { hnf, rank, pivots, transform } = hermiteNormalForm(A, { transforms: true });
        const U = transform as bigint[][];
        expect(abs(determinant(U))).toBe(1n);
        expect(multiply(U, A)).toEqual(hnf);
        expect(isHermite(hnf, rank, pivots)).toBe(true);
        expect(hermiteNormalForm(A).hnf).toEqual(hnf);
      }),
      { numRuns: 300 },
    );
  });

  it('is unique: W A has the same Hermite form as A for random unimodular W', () => {
    const withW = anyMatrix.chain((A) => fc.tuple(fc.constant(A), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: -4, max: 4 })), { maxLength: 30 })));
    fc.assert(
      fc.property(withW, ([A, ops]) => {
        const W = unimodular(A.length, ops);
        expect(hermiteNormalForm(multiply(W, A)).hnf).toEqual(hermiteNormalForm(A).hnf);
      }),
      { numRuns: 300 },
    );
  });

  it('modulo the lattice determinant agrees with plain row (and column) operations, HNF and SNF (full column rank, square and tall)', () => {
    const tall = fc
      .record({ n: fc.integer({ min: 1, max: 5 }), extra: fc.integer({ min: 0, max: 3 }) })
      .chain(({ n, extra }) => fc.array(fc.array(fc.bigInt({ min: -50n, max: 50n }), { minLength: n, maxLength: n }), { minLength: n + extra, maxLength: n + extra }));
    fc.assert(
      fc.property(fc.oneof(tall, matrices(5, 5, 2 ** 40)), (A) => {
        const modular = hermiteNormalForm(A);
        const plain = hermiteByRowOperations(A);
        expect(modular).toEqual(plain);
        expect(smithNormalForm(A)).toEqual(smithByOperations(A));
      }),
      { numRuns: 300 },
    );
  });

  it('known forms', () => {
    expect(hermiteNormalForm([[2n, 4n], [6n, 8n]]).hnf).toEqual([[2n, 0n], [0n, 4n]]);
    expect(hermiteNormalForm([[3n, 3n, 1n], [0n, 0n, 0n], [2n, 2n, 5n]])).toMatchObject({ hnf: [[1n, 1n, 9n], [0n, 0n, 13n], [0n, 0n, 0n]], rank: 2, pivots: [0, 2] });
    expect(hermiteNormalForm([[0n, 0n], [0n, 0n]])).toMatchObject({ hnf: [[0n, 0n], [0n, 0n]], rank: 0, pivots: [] });
  });
});

describe('Smith normal form', () => {
  it('U A V = D diagonal, U and V unimodular, d_i | d_{i+1}, non-negative', () => {
    fc.assert(
      fc.property(anyMatrix, (A) => {
        const m = A.length;
        const n = A[0]?.length ?? 0;
        const { diagonal, rank, left, right } = smithNormalForm(A, { transforms: true });
        const [U, V] = [left as bigint[][], right as bigint[][]];
        expect(abs(determinant(U))).toBe(1n);
        expect(abs(determinant(V))).toBe(1n);
        const D = Array.from({ length: m }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? (diagonal[i] as bigint) : 0n)));
        expect(multiply(multiply(U, A), V)).toEqual(D);
        expect(diagonal).toHaveLength(Math.min(m, n));
        for (const [i, d] of diagonal.entries()) {
          expect(d >= 0n).toBe(true);
          expect(d !== 0n).toBe(i < rank);
          const next = diagonal[i + 1];
          if (next !== undefined) expect(d === 0n ? next === 0n : next % d === 0n).toBe(true);
        }
        expect(smithNormalForm(A).diagonal).toEqual(diagonal);
      }),
      { numRuns: 300 },
    );
  });

  it('has the invariant factors of the gcd-of-minors definition (brute force on small matrices)', () => {
    fc.assert(
      fc.property(fc.oneof(matrices(4, 4, 12), lowRank.filter((A) => A.length <= 4 && (A[0]?.length ?? 0) <= 4)), (A) => {
        expect(smithNormalForm(A).diagonal).toEqual(invariantFactorsByMinors(A));
      }),
      { numRuns: 200 },
    );
  });

  it('known forms', () => {
    // Z^3 / rows: Z/2 ⊕ Z/6 ⊕ Z/12 style examples.
    expect(smithNormalForm([[2n, 4n, 4n], [-6n, 6n, 12n], [10n, -4n, -16n]]).diagonal).toEqual([2n, 6n, 12n]);
    expect(smithNormalForm([[2n, 0n], [0n, 3n]]).diagonal).toEqual([1n, 6n]);
    expect(smithNormalForm([[0n, 0n, 0n]])).toMatchObject({ diagonal: [0n], rank: 0 });
  });

  it('stays exact on large entries (20×20 of 64 bits): U A V = D', () => {
    let seed = 987654321n;
    const next = (): bigint => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
      return seed - (1n << 63n);
    };
    const A = Array.from({ length: 20 }, () => Array.from({ length: 20 }, next));
    const { diagonal, left, right } = smithNormalForm(A, { transforms: true });
    const D = multiply(multiply(left as bigint[][], A), right as bigint[][]);
    expect(D.every((row, i) => row.every((x, j) => x === (i === j ? diagonal[i] : 0n)))).toBe(true);
    // The product of the invariant factors is |det A|.
    expect(diagonal.reduce((p, d) => p * d, 1n)).toBe(abs(determinant(A)));
    const hermite = hermiteNormalForm(A, { transforms: true });
    expect(multiply(hermite.transform as bigint[][], A)).toEqual(hermite.hnf);
  });
});
