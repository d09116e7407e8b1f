/**
 * The square fast path of the normal forms (normal-form-modular.ts) against independent truth:
 * the Hermite form of a congruence lattice against the left kernel of [Zᵀ; d I] by plain row
 * operations; det against Bareiss, H against plain row operations; H and the Smith
 * diagonal of whole matrices (cyclic, not cyclic, singular, unimodular, 1×1, zero, large entries)
 * against the extended-gcd operations of the existing engine and, when gp is installed, PARI/GP.
 */
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { probePari, type PariTools } from '../providers/pari.js';
import { fractionFreeEliminate } from './engine.js';
import { asText, generator, gpOptions, matrix, randomMatrix } from './matrix-test-support.js';
import { hermiteByRowOperations, hermiteNormalForm, identity, modularHermite, smithByOperations, smithNormalForm } from './normal-form-engine.js';
import { hermiteOfCongruences, integralLeftQuotient, squareLattice, tallHermite } from './normal-form-modular.js';
import { pariHermite, pariSmith } from './pari-backend.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));

const abs = (x: bigint): bigint => (x < 0n ? -x : x);
function multiply(A: readonly (readonly bigint[])[], B: readonly (readonly bigint[])[]): bigint[][] {
  return A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));
}

/** |det A| by Bareiss (engine.ts), independent of the multimodular route. */
function absDet(A: readonly (readonly bigint[])[]): bigint {
  const M = A.map((row) => [...row]);
  const { rank, last } = fractionFreeEliminate(M, M.length, false);
  return rank < M.length ? 0n : abs(last);
}

/**
 * The Hermite form of {x ∈ Z^n : x·z_k ≡ 0 (mod d) for all k} by plain row operations: the integer
 * row vectors y with y·[Zᵀ; d I] = 0 are the rows of U past the rank in U·[Zᵀ; d I] = H, and the
 * lattice is their projection on the first n coordinates.
 */
function congruencesByRowOperations(Z: readonly (readonly bigint[])[], d: bigint): bigint[][] {
  const n = (Z[0] as readonly bigint[]).length;
  const r = Z.length;
  const stacked = [...Array.from({ length: n }, (_, i) => Z.map((z) => z[i] as bigint)), ...Array.from({ length: r }, (_, k) => Array.from({ length: r }, (_, j) => (j === k ? d : 0n)))];
  const { rank, transform } = hermiteByRowOperations(stacked, { transforms: true });
  const generators = (transform as bigint[][]).slice(rank).map((row) => row.slice(0, n));
  return hermiteByRowOperations(generators).hnf.slice(0, n);
}

/** A random unimodular n×n matrix: a product of elementary row operations. */
function unimodular(random: (bound: bigint) => bigint, n: number, steps: number): bigint[][] {
  const W = identity(n);
  for (let s = 0; s < steps; s++) {
    const i = Number(abs(random(BigInt(n - 1))));
    const j = (i + 1 + Number(abs(random(BigInt(Math.max(n - 2, 0)))))) % n;
    if (i === j) continue;
    const q = random(3n);
    W[i] = (W[i] as bigint[]).map((x, c) => x + q * ((W[j] as bigint[])[c] as bigint));
  }
  return W;
}

/** W · diag(invariants) · V for random unimodular W, V: a matrix with the given Smith form. */
function withSmithForm(random: (bound: bigint) => bigint, invariants: readonly bigint[]): bigint[][] {
  const n = invariants.length;
  const D = invariants.map((d, i) => invariants.map((_, j) => (i === j ? d : 0n)));
  return multiply(multiply(unimodular(random, n, 4 * n), D), unimodular(random, n, 4 * n));
}

describe('the Hermite form of a congruence lattice {x : x·z_k ≡ 0 (mod d)}', () => {
  it('agrees with the left kernel of [Zᵀ; d I] by plain row operations, or refused when its index is not d', () => {
    const instance = fc.record({
      n: fc.integer({ min: 1, max: 6 }),
      r: fc.integer({ min: 1, max: 3 }),
      // Products of small prime powers give several columns with pivots above 1.
      d: fc.oneof(fc.bigInt({ min: 1n, max: 1n << 80n }), fc.array(fc.constantFrom(2n, 3n, 4n, 5n, 9n, 7n), { maxLength: 8 }).map((fs) => fs.reduce((p, f) => p * f, 1n))),
      seed: fc.integer(),
      small: fc.boolean(),
    });
    let accepted = 0;
    fc.assert(
      fc.property(instance, ({ n, r, d, seed, small }) => {
        const random = generator(seed);
        const Z = Array.from({ length: r }, () => Array.from({ length: n }, () => random(small ? 6n : 1n << 70n)));
        const reference = congruencesByRowOperations(Z, d);
        const index = reference.reduce((p, row, i) => p * (row[i] as bigint), 1n);
        const form = hermiteOfCongruences(Z, d);
        expect(form === null).toBe(index !== d);
        if (form === null) return;
        accepted++;
        expect(form.hnf).toEqual(reference);
        expect(form.nontrivial).toEqual(reference.flatMap((row, i) => ((row[i] as bigint) > 1n ? [i] : [])));
      }),
      { numRuns: 400 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('known forms', () => {
    // x₁ + 3x₂ ≡ 0 (mod 6): x₁ = 3 needs x₂ odd, so (3, 1); then (0, 2).
    expect(hermiteOfCongruences([[1n, 3n]], 6n)?.hnf).toEqual([[3n, 1n], [0n, 2n]]);
    // 2x₁ + 3x₂ ≡ 0 (mod 6): x₁ ∈ 3Z and x₂ ∈ 2Z independently.
    expect(hermiteOfCongruences([[2n, 3n]], 6n)?.hnf).toEqual([[3n, 0n], [0n, 2n]]);
    // x₁ ≡ x₂ ≡ 0 (mod 4) has index 16 ≠ d: refused; 2x₁ ≡ 2x₂ ≡ 0 (mod 4) has index 4.
    expect(hermiteOfCongruences([[1n, 0n], [0n, 1n]], 4n)).toBeNull();
    expect(hermiteOfCongruences([[2n, 0n], [0n, 2n]], 4n)?.hnf).toEqual([[2n, 0n], [0n, 2n]]);
    expect(hermiteOfCongruences([[5n]], 7n)?.hnf).toEqual([[7n]]);
    expect(hermiteOfCongruences([[2n, 3n, 0n]], 1n)?.hnf).toEqual(identity(3));
  });
});

describe('the square fast path', () => {
  it('finds d = |det A| and the Hermite form of every non-singular matrix of a seeded set, cyclic or not', () => {
    const random = generator(20261207);
    const cases: bigint[][][] = [];
    for (let k = 0; k < 40; k++) cases.push(randomMatrix(random, 1 + (k % 9), 1 + (k % 9), k % 2 === 0 ? 1000n : 1n << 64n));
    for (const invariants of [[1n, 2n, 2n], [1n, 1n, 1n, 3n, 6n, 12n], [2n, 2n, 4n, 4n, 8n], [1n, 5n, 25n * 1000000007n]]) cases.push(withSmithForm(random, invariants));
    let notCyclic = 0;
    for (const A of cases) {
      const lattice = squareLattice(A);
      const truth = smithByOperations(A).diagonal;
      if (truth.includes(0n)) {
        expect(lattice.kind).toBe('singular-modulo-primes');
        continue;
      }
      if (!truth.slice(0, -1).every((x) => x === 1n)) notCyclic++;
      expect(lattice.kind).toBe('hermite');
      if (lattice.kind !== 'hermite') continue;
      expect(lattice.d).toBe(absDet(A));
      expect(lattice.hnf).toEqual(hermiteByRowOperations(A).hnf);
    }
    expect(notCyclic).toBeGreaterThan(4);
  });

  it('gives only d when the Smith form has more non-unit factors than congruences tried (14 × 2: then H comes from the elimination modulo d)', () => {
    const A = withSmithForm(generator(5), new Array<bigint>(14).fill(2n));
    const lattice = squareLattice(A);
    expect(lattice).toEqual({ kind: 'determinant', d: 1n << 14n });
    expect(hermiteNormalForm(A)).toEqual(hermiteByRowOperations(A));
    expect(smithNormalForm(A).diagonal).toEqual(new Array<bigint>(14).fill(2n));
  });

  it('declines before computing when the residues would not fit the memory bound (200×200, 4000-bit entries)', () => {
    const A = Array.from({ length: 200 }, (_, i) => Array.from({ length: 200 }, (_, j) => (i === j ? (1n << 4000n) + 1n : BigInt(i * j))));
    expect(squareLattice(A).kind).toBe('too-large');
    expect(integralLeftQuotient(A, identity(200))).toBeNull();
  });

  it('says singular for singular square matrices', () => {
    const random = generator(7);
    for (const n of [2, 5, 12]) {
      expect(squareLattice(randomMatrix(random, n, n, 1n << 40n, n - 1)).kind).toBe('singular-modulo-primes');
      expect(squareLattice(Array.from({ length: n }, () => new Array<bigint>(n).fill(0n))).kind).toBe('singular-modulo-primes');
    }
    expect(squareLattice([[0n]]).kind).toBe('singular-modulo-primes');
  });

  it('gives the H and the Smith diagonal of plain operations: random, not cyclic, unimodular, singular, 1×1, zero, large entries', () => {
    const random = generator(33);
    const cases: bigint[][][] = [
      [[0n]],
      [[-12n]],
      [[1n]],
      [[0n, 0n], [0n, 0n]],
      [[2n, 0n], [0n, 2n]],
      [[1n, 2n, 3n], [4n, 5n, 6n], [7n, 8n, 9n]],
      withSmithForm(random, [1n, 1n, 1n, 1n, 1n, 1n]),
      withSmithForm(random, [1n, 1n, 1n, 2n, 6n, 12n]),
      withSmithForm(random, [1n, 1n, 3n, 3n, 9n, 1000000007n * 3n]),
      withSmithForm(random, [2n, 2n, 2n, 2n]),
      withSmithForm(random, [1n, 1n, 1n, 1n, 1n, 0n]),
    ];
    for (let n = 2; n <= 9; n++) cases.push(randomMatrix(random, n, n, 1n << 64n), randomMatrix(random, n, n, 50n), randomMatrix(random, n, n, 9n, n - 1));
    for (const A of cases) {
      const fast = hermiteNormalForm(A);
      expect(fast).toEqual(hermiteByRowOperations(A));
      // The elimination modulo d that backs the fast path up, on the same inputs.
      const d = absDet(A);
      if (d !== 0n) expect(modularHermite(A, d)).toEqual(fast.hnf);
      expect(smithNormalForm(A).diagonal).toEqual(smithByOperations(A).diagonal);
      const withU = hermiteNormalForm(A, { transforms: true });
      expect(withU.hnf).toEqual(fast.hnf);
      expect(multiply(withU.transform as bigint[][], A)).toEqual(fast.hnf);
    }
  });
});

describe('tall matrices of full column rank', () => {
  it('fold their extra rows into the Hermite form of n independent ones: the H and Smith diagonal of plain operations', () => {
    const random = generator(2718);
    let used = 0;
    for (let k = 0; k < 24; k++) {
      const n = 1 + (k % 8);
      const extra = 1 + (k % 5);
      // Square parts with several non-unit pivots, extra rows small or large, sometimes multiples of the others.
      const base = k % 3 === 0 ? withSmithForm(random, Array.from({ length: n }, (_, i) => (i < n - 2 ? 1n : 6n * BigInt(i + 1)))) : randomMatrix(random, n, n, k % 2 === 0 ? 1n << 64n : 20n);
      const rows = Array.from({ length: extra }, (_, e) => (e % 2 === 0 ? randomMatrix(random, 1, n, 30n)[0] as bigint[] : (base[e % n] as bigint[]).map((x) => 3n * x)));
      const A = k % 4 === 1 ? [...rows, ...base] : [...base, ...rows];
      const plain = hermiteByRowOperations(A);
      if (plain.rank < n) continue;
      const tall = tallHermite(A);
      if (tall !== null) {
        used++;
        expect(tall.hnf).toEqual(plain.hnf.slice(0, n));
      }
      expect(hermiteNormalForm(A)).toEqual(plain);
      expect(smithNormalForm(A).diagonal).toEqual(smithByOperations(A).diagonal);
    }
    expect(used).toBeGreaterThan(15);
  });

  it('leave rank-deficient ones to the elimination', () => {
    const A = randomMatrix(generator(3), 7, 4, 50n, 3);
    expect(tallHermite(A)).toBeNull();
    expect(hermiteNormalForm(A)).toEqual(hermiteByRowOperations(A));
  });
});

describe('U = H A⁻¹ modulo primes', () => {
  it('is the unimodular transform of the Hermite form, exactly (U A = H), on large entries', () => {
    const random = generator(99);
    for (const A of [randomMatrix(random, 12, 12, 1n << 64n), withSmithForm(random, [1n, 1n, 2n, 6n, 6n, 36n]), [[-7n]]]) {
      const { hnf } = hermiteNormalForm(A);
      const U = integralLeftQuotient(A, hnf) as bigint[][];
      expect(multiply(U, A)).toEqual(hnf);
      expect(absDet(U)).toBe(1n);
    }
  });

  it('refuses when H A⁻¹ is not integral', () => {
    expect(integralLeftQuotient([[2n]], [[1n]])).toBeNull();
    expect(integralLeftQuotient([[2n, 0n], [0n, 3n]], [[1n, 0n], [0n, 6n]])).toBeNull();
    expect(integralLeftQuotient([[1n, 2n], [3n, 4n]], [[0n, 0n], [0n, 0n]])).toBeNull();
  });
});

describe.skipIf(GP === undefined)('the square fast path agrees with PARI/GP (mathnf, matsnf)', () => {
  let tools: PariTools;
  beforeAll(async () => {
    tools = (await probePari({ binary: GP as string })).tools;
  });

  const random = generator(4242);
  const cases: { name: string; A: bigint[][] }[] = [
    { name: '30×30, entries ±2^64', A: randomMatrix(random, 30, 30, 1n << 64n) },
    { name: '40×40, entries ±2^10', A: randomMatrix(random, 40, 40, 1n << 10n) },
    { name: '12×12 with Smith form 1, …, 1, 2, 4, 36 (not cyclic)', A: withSmithForm(random, [...new Array<bigint>(9).fill(1n), 2n, 4n, 36n]) },
    { name: '35×25 (tall), entries ±2^64', A: randomMatrix(random, 35, 25, 1n << 64n) },
    { name: '16×12 (tall): a Smith form 1, …, 1, 4, 12, 72 with four rows 2·(row i)', A: ((B: bigint[][]) => [...B, ...B.slice(0, 4).map((row) => row.map((x) => 2n * x))])(withSmithForm(random, [...new Array<bigint>(9).fill(1n), 4n, 12n, 72n])) },
  ];
  for (const { name, A } of cases) {
    it(name, async () => {
      const payload = matrix({ kind: 'Z' }, asText(A));
      expect((await pariHermite(tools, payload, false, gpOptions())).hnf).toEqual(asText(hermiteNormalForm(A).hnf));
      expect((await pariSmith(tools, payload, false, gpOptions())).diagonal).toEqual(smithNormalForm(A).diagonal.map(String));
    });
  }
});
