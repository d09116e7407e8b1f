/**
 * The square fast path of the normal forms (normal-form-modular.ts) against independent truth:
 * the Hermite form of a congruence lattice against the kernel of (z, d) computed by plain row
 * operations; det and the kernel vector against Bareiss and exact products; H and the Smith
 * diagonal of whole matrices (cyclic, not cyclic, singular, unimodular, 1×1, zero, large entries)
 * against the extended-gcd operations of the existing engine and, when gp is installed, PARI/GP.
 */
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { probePari, type PariTools } from '../providers/pari.js';
import { fractionFreeEliminate } from './engine.js';
import { asText, generator, gpOptions, matrix, randomMatrix } from './matrix-test-support.js';
import { hermiteByRowOperations, hermiteNormalForm, identity, smithByOperations, smithNormalForm } from './normal-form-engine.js';
import { cyclicLattice, hermiteOfCongruence } from './normal-form-modular.js';
import { pariHermite, pariSmith } from './pari-backend.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));

const abs = (x: bigint): bigint => (x < 0n ? -x : x);
const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [abs(a), abs(b)];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

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
 * The Hermite form of {x ∈ Z^n : x·z ≡ 0 (mod d)} by plain row operations: the integer row vectors
 * orthogonal to the column (z; d) are the last n rows of U with U·(z; d) = (g, 0, …, 0)ᵀ, and L is
 * their projection on the first n coordinates.
 */
function congruenceByRowOperations(z: readonly bigint[], d: bigint): bigint[][] {
  const column = [...z, d].map((x) => [x]);
  const U = hermiteByRowOperations(column, { transforms: true }).transform as bigint[][];
  const generators = U.slice(1).map((row) => row.slice(0, z.length));
  return hermiteByRowOperations(generators).hnf;
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

describe('the Hermite form of a congruence lattice {x : x·z ≡ 0 (mod d)}', () => {
  it('agrees with the kernel of (z; d) by plain row operations', () => {
    const instance = fc
      .record({
        z: fc.array(fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }), { minLength: 1, maxLength: 6 }),
        // Products of small prime powers give several columns with pivots above 1.
        d: fc.oneof(fc.bigInt({ min: 1n, max: 1n << 80n }), fc.array(fc.constantFrom(2n, 3n, 4n, 5n, 9n, 7n), { maxLength: 8 }).map((fs) => fs.reduce((p, f) => p * f, 1n))),
      })
      .filter(({ z, d }) => z.reduce((g, x) => gcd(g, x), d) === 1n);
    fc.assert(
      fc.property(instance, ({ z, d }) => {
        expect(hermiteOfCongruence(z, d)).toEqual(congruenceByRowOperations(z, d));
      }),
      { numRuns: 300 },
    );
  });

  it('known forms', () => {
    // x₁ + 3x₂ ≡ 0 (mod 6): x₁ = 3 needs x₂ odd, so (3, 1); then (0, 2).
    expect(hermiteOfCongruence([1n, 3n], 6n)).toEqual([[3n, 1n], [0n, 2n]]);
    // 2x₁ + 3x₂ ≡ 0 (mod 6): x₁ ∈ 3Z and x₂ ∈ 2Z independently.
    expect(hermiteOfCongruence([2n, 3n], 6n)).toEqual([[3n, 0n], [0n, 2n]]);
    expect(hermiteOfCongruence([5n], 7n)).toEqual([[7n]]);
    expect(hermiteOfCongruence([2n, 3n, 0n], 1n)).toEqual(identity(3));
  });
});

describe('the square fast path', () => {
  it('finds d = |det A| and a kernel vector z with A z ≡ 0 (mod d), gcd(z, d) = 1, exactly when the Smith form is 1, …, 1, d (seeded random matrices)', () => {
    const random = generator(20261207);
    let cyclic = 0;
    for (let k = 0; k < 60; k++) {
      const n = 1 + (k % 9);
      const A = randomMatrix(random, n, n, k % 2 === 0 ? 1000n : 1n << 64n);
      const lattice = cyclicLattice(A);
      const truth = smithByOperations(A).diagonal;
      if (truth.includes(0n)) {
        expect(lattice.kind).toBe('singular-modulo-primes');
        continue;
      }
      expect(lattice.kind === 'singular-modulo-primes').toBe(false);
      if (lattice.kind === 'singular-modulo-primes') continue;
      expect(lattice.d).toBe(absDet(A));
      const isCyclic = truth.slice(0, -1).every((x) => x === 1n);
      expect(lattice.kind).toBe(isCyclic ? 'cyclic' : 'not-cyclic');
      if (lattice.kind === 'cyclic') {
        cyclic++;
        for (const row of A) expect(row.reduce((s, a, j) => s + a * (lattice.z[j] as bigint), 0n) % lattice.d).toBe(0n);
        expect(lattice.z.reduce((g, x) => gcd(g, x), lattice.d)).toBe(1n);
      }
    }
    expect(cyclic).toBeGreaterThan(30);
  });

  it('says singular for singular square matrices', () => {
    const random = generator(7);
    for (const n of [2, 5, 12]) {
      expect(cyclicLattice(randomMatrix(random, n, n, 1n << 40n, n - 1)).kind).toBe('singular-modulo-primes');
      expect(cyclicLattice(Array.from({ length: n }, () => new Array<bigint>(n).fill(0n))).kind).toBe('singular-modulo-primes');
    }
    expect(cyclicLattice([[0n]]).kind).toBe('singular-modulo-primes');
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
      expect(smithNormalForm(A).diagonal).toEqual(smithByOperations(A).diagonal);
      const withU = hermiteNormalForm(A, { transforms: true });
      expect(withU.hnf).toEqual(fast.hnf);
      expect(multiply(withU.transform as bigint[][], A)).toEqual(fast.hnf);
    }
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
  ];
  for (const { name, A } of cases) {
    it(name, async () => {
      const payload = matrix({ kind: 'Z' }, asText(A));
      expect((await pariHermite(tools, payload, false, gpOptions())).hnf).toEqual(asText(hermiteNormalForm(A).hnf));
      expect((await pariSmith(tools, payload, false, gpOptions())).diagonal).toEqual(smithNormalForm(A).diagonal.map(String));
    });
  }
});
