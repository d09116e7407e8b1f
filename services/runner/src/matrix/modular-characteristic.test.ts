import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldFromSpec, makeRational, RATIONALS, type Field, type Rational } from '@jacobian/shared';
import { characteristicPolynomial, isSquareFree, makeMonic, polyMul, rationalCharacteristicPolynomial, rationalIsSquareFree, rationalMinimalPolynomial } from './characteristic.js';
import { charpolyCoefficientBound, charpolyModP, integerCharacteristicPolynomial } from './modular-characteristic.js';
import { wordPrime } from './modular.js';

const Q = RATIONALS;
const toQ = (B: readonly (readonly bigint[])[]): Rational[][] => B.map((row) => row.map((b) => Q.fromBigInt(b)));
/** The reference: Hessenberg reduction in exact rational arithmetic (characteristic.ts's generic routine). */
const overQ = (B: readonly (readonly bigint[])[]): bigint[] =>
  characteristicPolynomial(Q, toQ(B)).map((c) => {
    expect(c.den).toBe(1n);
    return c.num;
  });

const bigEntry = (bits: number): fc.Arbitrary<bigint> => fc.bigInt({ min: -(1n << BigInt(bits)), max: 1n << BigInt(bits) });
const square = <T>(entry: fc.Arbitrary<T>, maxN: number): fc.Arbitrary<T[][]> =>
  fc.integer({ min: 1, max: maxN }).chain((n) => fc.array(fc.array(entry, { minLength: n, maxLength: n }), { minLength: n, maxLength: n }));
/** Mostly zeros: singular matrices, zero pivots in the Hessenberg reduction, early zero subdiagonals. */
const sparse = square(fc.oneof({ arbitrary: fc.constant(0n), weight: 3 }, { arbitrary: bigEntry(70), weight: 1 }), 7);
/** Two equal rows: singular, so c_0 = 0. */
const singular = square(bigEntry(64), 6).map((B) => (B.length < 2 ? B : [B[1] as bigint[], ...B.slice(1)]));

describe('charpolyModP', () => {
  it('agrees with the generic Hessenberg routine over GF(p), for small primes and the largest below 2^26', () => {
    const primes = [2, 3, 7, 101, wordPrime(0), wordPrime(7)];
    fc.assert(
      fc.property(fc.constantFrom(...primes), fc.oneof(square(fc.nat(), 9), sparse.map((B) => B.map((row) => row.map((b) => Number(b < 0n ? -b : b) % 1000)))), (p, rows) => {
        const F = fieldFromSpec({ kind: 'GF', characteristic: String(p) }) as Field<number>;
        const A = rows.map((row) => row.map((a) => a % p));
        expect(charpolyModP(A.map((row) => Float64Array.from(row)), p)).toEqual(characteristicPolynomial(F, A));
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a modulus it cannot handle exactly', () => {
    expect(() => charpolyModP([Float64Array.of(1)], 2 ** 26 + 15)).toThrow(RangeError);
  });
});

describe('the coefficient bound', () => {
  it('bounds every coefficient of the exact characteristic polynomial', () => {
    fc.assert(
      fc.property(fc.oneof(square(bigEntry(40), 6), sparse, singular), (B) => {
        const bound = charpolyCoefficientBound(B);
        for (const c of overQ(B)) expect(c <= bound && -c <= bound).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('integerCharacteristicPolynomial and rationalCharacteristicPolynomial', () => {
  it('agree with exact rational arithmetic: dense, sparse, singular, entries up to 2^70', () => {
    fc.assert(
      fc.property(fc.oneof(square(bigEntry(10), 8), square(bigEntry(70), 6), sparse, singular), (B) => {
        expect(integerCharacteristicPolynomial(B)).toEqual(overQ(B));
      }),
      { numRuns: 60 },
    );
  });

  it('agree with exact rational arithmetic over Q, denominators included', () => {
    const fraction = fc.tuple(bigEntry(40), fc.bigInt({ min: 1n, max: 1n << 20n })).map(([a, b]) => makeRational(a, b));
    fc.assert(
      fc.property(square(fc.oneof(fraction, fc.constant(makeRational(0n, 1n))), 6), (A) => {
        expect(rationalCharacteristicPolynomial(A)).toEqual(characteristicPolynomial(Q, A));
      }),
      { numRuns: 40 },
    );
  });

  it('give x^n − c_{n−1} x^{n−1} − … back from the companion matrix of a polynomial with huge coefficients', () => {
    fc.assert(
      fc.property(fc.array(bigEntry(200), { minLength: 1, maxLength: 12 }), (c) => {
        const n = c.length;
        // Companion matrix: ones below the diagonal, last column −c_0, …, −c_{n−1}; det(x I − C) = x^n + Σ c_k x^k.
        const C = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j === n - 1 ? -(c[i] as bigint) : i === j + 1 ? 1n : 0n)));
        expect(integerCharacteristicPolynomial(C)).toEqual([...c, 1n]);
      }),
      { numRuns: 40 },
    );
  });

  it('give Π (x − d_i) for diagonal matrices and x^n for nilpotent ones', () => {
    fc.assert(
      fc.property(fc.array(bigEntry(64), { minLength: 1, maxLength: 10 }), fc.array(bigEntry(30), { minLength: 100, maxLength: 100 }), (d, upper) => {
        const n = d.length;
        const diagonal = d.map((di, i) => d.map((_, j) => (i === j ? di : 0n)));
        let expected = [1n];
        for (const di of d) expected = [...expected.map((e, k) => -di * e + (k > 0 ? (expected[k - 1] as bigint) : 0n)), expected[expected.length - 1] as bigint];
        expect(integerCharacteristicPolynomial(diagonal)).toEqual(expected);
        // N strictly upper triangular, conjugated by the unimodular U = I + L (L strictly lower, ±1) to hide the shape.
        const N = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j > i ? (upper[i * 10 + j] as bigint) : 0n)));
        const U = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1n : j < i ? BigInt(((i + j) % 3) - 1) : 0n)));
        const Uinverse = inverseUnitLower(U);
        const nilpotent = multiply(multiply(U, N), Uinverse);
        expect(integerCharacteristicPolynomial(nilpotent)).toEqual([...Array.from({ length: n }, () => 0n), 1n]);
      }),
      { numRuns: 40 },
    );
  });

  it('calls the checkpoint between primes and rows, so a budget can stop it', () => {
    const B = Array.from({ length: 12 }, (_, i) => Array.from({ length: 12 }, (_, j) => BigInt((i * 31 + j * 17) % 23) << 60n));
    let calls = 0;
    expect(() =>
      integerCharacteristicPolynomial(B, () => {
        if (++calls > 50) throw new Error('budget');
      }),
    ).toThrow('budget');
  });
});

describe('rationalMinimalPolynomial on cyclic and derogatory integer matrices', () => {
  const companion = (c: readonly bigint[]): bigint[][] =>
    c.map((_, i) => c.map((__, j) => (j === c.length - 1 ? -(c[i] as bigint) : i === j + 1 ? 1n : 0n)));
  const hidden = (M: bigint[][]): bigint[][] => {
    const n = M.length;
    const U = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1n : j < i ? BigInt(((2 * i + j) % 3) - 1) : 0n)));
    return multiply(multiply(U, M), inverseUnitLower(U));
  };

  it('is x^n + Σ c_k x^k for a companion matrix (cyclic: degree n modulo a prime settles it), and the same for two copies of it (derogatory)', () => {
    fc.assert(
      fc.property(fc.array(bigEntry(80), { minLength: 1, maxLength: 7 }), (c) => {
        const k = c.length;
        expect(rationalMinimalPolynomial(toQ(hidden(companion(c))))).toEqual(toQ([[...c, 1n]])[0]);
        const twice = Array.from({ length: 2 * k }, (_, i) => Array.from({ length: 2 * k }, (_, j) => (Math.floor(i / k) === Math.floor(j / k) ? ((companion(c)[i % k] as bigint[])[j % k] as bigint) : 0n)));
        expect(rationalMinimalPolynomial(toQ(hidden(twice)))).toEqual(toQ([[...c, 1n]])[0]);
      }),
      { numRuns: 30 },
    );
  });
});

describe('rationalIsSquareFree', () => {
  it('agrees with the gcd of p and p′ over Q, on products with a repeated factor and with denominators', () => {
    const poly = fc.array(fc.tuple(bigEntry(30), fc.bigInt({ min: 1n, max: 50n })).map(([a, b]) => makeRational(a, b)), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(poly, poly, fc.boolean(), (g, h, square) => {
        fc.pre(g.some((c) => c.num !== 0n) && h.some((c) => c.num !== 0n));
        const gh = polyMul(Q, g, h);
        const p = makeMonic(Q, square ? polyMul(Q, gh, g) : gh);
        expect(rationalIsSquareFree(p)).toBe(isSquareFree(Q, p));
      }),
      { numRuns: 100 },
    );
  });
});

function multiply(A: bigint[][], B: bigint[][]): bigint[][] {
  return A.map((row) => (B[0] as bigint[]).map((_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));
}

/** The inverse of a unit lower triangular integer matrix, by forward substitution. */
function inverseUnitLower(L: bigint[][]): bigint[][] {
  const n = L.length;
  const X = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1n : 0n)));
  for (let i = 0; i < n; i++) for (let k = 0; k < i; k++) for (let j = 0; j < n; j++) (X[i] as bigint[])[j] = ((X[i] as bigint[])[j] as bigint) - ((L[i] as bigint[])[k] as bigint) * ((X[k] as bigint[])[j] as bigint);
  return X;
}

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((path) => existsSync(path)) ?? null;

describe.skipIf(GP === null)(`against PARI/GP charpoly${GP === null ? ' (skipped: gp not installed)' : ''}`, () => {
  it('agrees on random integer matrices with 10-bit and 64-bit entries, n up to 30', () => {
    const cases = fc.sample(
      fc.tuple(fc.constantFrom(3, 8, 17, 30), fc.constantFrom(10, 64)).chain(([n, bits]) => fc.array(fc.array(bigEntry(bits), { minLength: n, maxLength: n }), { minLength: n, maxLength: n })),
      { numRuns: 8, seed: 20261207 },
    );
    // Only validated integers reach the script; PARI prints the coefficients lowest degree first, one per line.
    const script = cases.map((B) => `M=[${B.map((row) => row.join(',')).join(';')}];v=Vecrev(charpoly(M));for(i=1,#v,print(v[i]));print("--");`).join('\n');
    const output = execFileSync(GP as string, ['-q', '-f', '--default', 'parisizemax=200000000'], { input: `${script}\nquit\n`, encoding: 'utf8' });
    const answers = output
      .trim()
      .split('--')
      .map((block) => block.trim())
      .filter((block) => block.length > 0)
      .map((block) => block.split('\n').map((line) => BigInt(line.trim())));
    expect(answers).toHaveLength(cases.length);
    cases.forEach((B, i) => expect(integerCharacteristicPolynomial(B)).toEqual(answers[i]));
  });
});
