import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldFromSpec, makeRational, RATIONALS, type Field } from '@jacobian/shared';
import { makeMonic, polyGcd } from './characteristic.js';
import { equalDegreeFactorization, factorGF, factorInteger, factorSquareFreeInteger, henselLift, integerPolynomialGcd, primitivePart, squareFreeFactorizationGF, type ModularChoice } from './univariate-factor.js';

// --- independent helpers (no code of univariate-factor.ts) ---------------------------------

function mul(a: readonly bigint[], b: readonly bigint[]): bigint[] {
  const out = new Array<bigint>(a.length + b.length - 1).fill(0n);
  a.forEach((x, i) => b.forEach((y, j) => (out[i + j] = (out[i + j] as bigint) + x * y)));
  return out;
}
const power = (a: readonly bigint[], e: number): bigint[] => Array.from({ length: e }).reduce<bigint[]>((acc) => mul(acc, a), [1n]);

/** Exact division over Z by a monic divisor (the cyclotomic recursion only needs that). */
function divideMonic(a: readonly bigint[], b: readonly bigint[]): bigint[] {
  const r = [...a];
  const q = new Array<bigint>(a.length - b.length + 1).fill(0n);
  for (let k = r.length - 1; k >= b.length - 1; k--) {
    const c = r[k] as bigint;
    q[k - b.length + 1] = c;
    b.forEach((y, j) => (r[k - b.length + 1 + j] = (r[k - b.length + 1 + j] as bigint) - c * y));
  }
  expect(r.every((x) => x === 0n)).toBe(true);
  return q;
}

/** Φ_n by x^n − 1 = Π_{d | n} Φ_d. */
const cyclotomicCache = new Map<number, bigint[]>();
function cyclotomic(n: number): bigint[] {
  const cached = cyclotomicCache.get(n);
  if (cached !== undefined) return cached;
  let f: bigint[] = [-1n, ...new Array<bigint>(n - 1).fill(0n), 1n];
  for (let d = 1; d < n; d++) if (n % d === 0) f = divideMonic(f, cyclotomic(d));
  cyclotomicCache.set(n, f);
  return f;
}

const key = (p: readonly bigint[]): string => p.join(',');
const gcdInt = (u: bigint, v: bigint): bigint => (v === 0n ? (u < 0n ? -u : u) : gcdInt(v, u % v));

function expand(content: bigint, factors: readonly { factor: bigint[]; multiplicity: number }[]): bigint[] {
  return factors.reduce<bigint[]>((acc, { factor, multiplicity }) => mul(acc, power(factor, multiplicity)), [content]);
}

function trim(p: bigint[]): bigint[] {
  while (p.length > 0 && p[p.length - 1] === 0n) p.pop();
  return p;
}

/** Brute force over Q for degree ≤ 3: reducible exactly when there is a rational root ±r/s with r | a_0 and s | a_n. */
function hasRationalRoot(f: readonly bigint[]): boolean {
  const divisors = (x: bigint): bigint[] => {
    const a = x < 0n ? -x : x;
    const out: bigint[] = [];
    for (let d = 1n; d <= a; d++) if (a % d === 0n) out.push(d);
    return out;
  };
  if (f[0] === 0n) return true;
  for (const r of divisors(f[0] as bigint)) {
    for (const s of divisors(f[f.length - 1] as bigint)) {
      for (const sign of [1n, -1n]) {
        // s^d f(sign r / s) = Σ a_k (sign r)^k s^(d−k)
        const d = f.length - 1;
        const value = f.reduce((acc, a, k) => acc + a * (sign * r) ** BigInt(k) * s ** BigInt(d - k), 0n);
        if (value === 0n) return true;
      }
    }
  }
  return false;
}

describe('factorization over Z', () => {
  it('x^n − 1 splits into exactly the cyclotomic polynomials Φ_d, d | n', () => {
    for (const n of [1, 2, 6, 12, 15, 20, 24, 30, 36]) {
      const f = [-1n, ...new Array<bigint>(n - 1).fill(0n), 1n];
      const { content, factors } = factorInteger(f);
      expect(content).toBe(1n);
      const expected = [];
      for (let d = 1; d <= n; d++) if (n % d === 0) expected.push(key(cyclotomic(d)));
      expect(factors.map((x) => key(x.factor)).sort(), `x^${n} - 1`).toEqual(expected.sort());
      expect(factors.every((x) => x.multiplicity === 1)).toBe(true);
    }
  });

  it('x^4 + 1 is irreducible although it splits modulo every prime (recombination of modular factors)', () => {
    const f = [1n, 0n, 0n, 0n, 1n];
    const choices: ModularChoice[] = [];
    expect(factorInteger(f, undefined, (c) => choices.push(c)).factors).toEqual([{ factor: f, multiplicity: 1 }]);
    expect(choices[0]?.modularFactors).toBeGreaterThan(1);
    for (const p of ['2', '3', '5', '7', '11', '13', '17', '1009']) {
      const F = fieldFromSpec({ kind: 'GF', characteristic: p }) as Field<unknown>;
      const { factors } = factorGF(F, f.map((c) => F.fromBigInt(c)));
      expect(factors.reduce((s, x) => s + x.multiplicity, 0), `mod ${p}`).toBeGreaterThan(1);
    }
  });

  it('Swinnerton-Dyer polynomials (of √2 ± √3, and of √2 ± √3 ± √5) are irreducible; their products with others factor back', () => {
    const s2 = [1n, 0n, -10n, 0n, 1n];
    const s3 = [576n, 0n, -960n, 0n, 352n, 0n, -40n, 0n, 1n];
    expect(factorInteger(s2).factors).toEqual([{ factor: s2, multiplicity: 1 }]);
    const choices: ModularChoice[] = [];
    expect(factorInteger(s3, undefined, (c) => choices.push(c)).factors).toEqual([{ factor: s3, multiplicity: 1 }]);
    expect(choices[0]?.modularFactors).toBeGreaterThanOrEqual(4);
    const f = mul(mul(s2, s3), [-2n, 0n, 1n]);
    expect(factorInteger(f).factors.map((x) => key(x.factor)).sort()).toEqual([s2, s3, [-2n, 0n, 1n]].map(key).sort());
  });

  it('products of known irreducibles with multiplicities, content and non-monic factors', () => {
    const parts: [bigint[], number][] = [
      [[1n, 0n, 1n], 2],
      [[-3n, 1n], 1],
      [[1n, 2n], 3],
      [[1n, 0n, 0n, 0n, 1n], 1],
      [[0n, 1n], 2],
      [[-5n, 0n, 0n, 3n], 1],
    ];
    const f = parts.reduce<bigint[]>((acc, [p, e]) => mul(acc, power(p, e)), [-6n]);
    const { content, factors } = factorInteger(f);
    expect(content).toBe(-6n);
    expect(factors.map((x) => `${key(x.factor)}^${x.multiplicity}`).sort()).toEqual(parts.map(([p, e]) => `${key(p)}^${e}`).sort());
  });

  it('a product of two large-coefficient quadratics needs many lifting steps', () => {
    const a = [123456789123n, -98765n, 1n];
    const b = [-3n, 987654321987654321n, 2n];
    const choices: ModularChoice[] = [];
    const { factors } = factorInteger(mul(a, b), undefined, (c) => choices.push(c));
    expect(factors.map((x) => key(x.factor)).sort()).toEqual([a, b].map(key).sort());
  });

  it('Hensel lifting keeps g ≡ lc · Π u_i modulo p^k', () => {
    const g = mul([1n, 1n, 1n], [7n, -1n, 0n, 2n]);
    const F = fieldFromSpec({ kind: 'GF', characteristic: '1013' }) as Field<unknown>;
    const modular = factorGF(F, g.map((c) => F.fromBigInt(c))).factors.map((x) => x.factor);
    const lifted = henselLift(g, modular, 1013, 6);
    const m = 1013n ** 6n;
    const lc = g[g.length - 1] as bigint;
    const product = lifted.reduce<bigint[]>((acc, u) => mul(acc, u), [lc]);
    expect(product.every((c, i) => (c - (g[i] as bigint)) % m === 0n)).toBe(true);
  });

  it('property: the factors multiply back to the input, each irreducible (degree ≤ 3: no rational root), and no fewer than the random parts', () => {
    const part = fc.array(fc.integer({ min: -9, max: 9 }), { minLength: 2, maxLength: 4 }).filter((c) => c[c.length - 1] !== 0);
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 5 }), fc.integer({ min: -4, max: 4 }).filter((c) => c !== 0), (parts, c) => {
        const polys = parts.map((p) => p.map(BigInt));
        const f = polys.reduce<bigint[]>((acc, p) => mul(acc, p), [BigInt(c)]);
        const { content, factors } = factorInteger(f);
        expect(trim(expand(content, factors))).toEqual(trim([...f]));
        for (const { factor } of factors) {
          expect(factor.length - 1).toBeLessThanOrEqual(3);
          if (factor.length > 2) expect(hasRationalRoot(factor), key(factor)).toBe(false);
        }
        expect(factors.reduce((s, x) => s + x.multiplicity, 0)).toBeGreaterThanOrEqual(polys.length);
      }),
      { numRuns: 150, seed: 33 },
    );
  });

  it('property: the modular gcd over Z agrees with Euclid over Q (made primitive)', () => {
    const poly = fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 6 }).filter((c) => c[c.length - 1] !== 0);
    fc.assert(
      fc.property(poly, poly, poly, (a, b, c) => {
        const f = mul(a.map(BigInt), c.map(BigInt));
        const g = mul(b.map(BigInt), c.map(BigInt));
        const Q = RATIONALS;
        const euclid = makeMonic(Q, polyGcd(Q, f.map((x) => makeRational(x, 1n)), g.map((x) => makeRational(x, 1n))));
        const scale = euclid.reduce((l, x) => (l * x.den) / gcdInt(l, x.den), 1n);
        expect(integerPolynomialGcd(f, g)).toEqual(primitivePart(euclid.map((x) => (x.num * scale) / x.den)));
      }),
      { numRuns: 150, seed: 3 },
    );
  });

  it('repeated factors of large degree and size: g^3 h^2 k with g, h, k of degree 8–12', () => {
    let seed = 99n;
    const next = (): bigint => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
      return (seed >> 40n) - (1n << 23n);
    };
    const random = (d: number): bigint[] => [...Array.from({ length: d }, next), 1n + (next() & 7n)];
    const [g, h, k] = [random(8), random(10), random(12)];
    const f = mul(mul(power(g, 3), power(h, 2)), k);
    const { content, factors } = factorInteger(f);
    expect(trim(expand(content, factors))).toEqual(trim([...f]));
    const total = factors.reduce((s, x) => s + x.multiplicity * (x.factor.length - 1), 0);
    expect(total).toBe(f.length - 1);
    // Each of g, h, k is a product of the factors found with its multiplicity.
    for (const [part, e] of [[g, 3], [h, 2], [k, 1]] as const) {
      const mine = factors.filter((x) => x.multiplicity === e).map((x) => x.factor);
      expect(mine.reduce<bigint[]>((acc, x) => mul(acc, x), [1n])).toEqual(primitivePart(part));
    }
  });

  it('x^5 + x + 1 = (x^2 + x + 1)(x^3 − x^2 + 1); a checkpoint that throws stops the work', () => {
    expect(factorSquareFreeInteger([1n, 1n, 0n, 0n, 0n, 1n]).map(key).sort()).toEqual([[1n, 1n, 1n], [1n, 0n, -1n, 1n]].map(key).sort());
    expect(() =>
      factorInteger([-1n, ...new Array<bigint>(29).fill(0n), 1n], () => {
        throw new Error('stop');
      }),
    ).toThrow('stop');
  });
});

describe('factorization over GF(p)', () => {
  /** Brute force: f (monic, degree ≤ 4) over GF(p) is irreducible iff no monic polynomial of degree 1 ≤ d ≤ deg/2 divides it. */
  function irreducibleByBruteForce(p: number, f: readonly number[]): boolean {
    const n = f.length - 1;
    const F = fieldFromSpec({ kind: 'GF', characteristic: String(p) }) as Field<number>;
    const divides = (g: number[]): boolean => {
      const r = [...f];
      for (let k = r.length - 1; k >= g.length - 1; k--) {
        const c = r[k] as number;
        for (let j = 0; j < g.length; j++) r[k - g.length + 1 + j] = F.sub(r[k - g.length + 1 + j] as number, F.mul(c, g[j] as number));
      }
      return r.slice(0, g.length - 1).every((x) => x === 0);
    };
    for (let d = 1; 2 * d <= n; d++) {
      for (let code = 0; code < p ** d; code++) {
        const g = Array.from({ length: d }, (_, i) => Math.floor(code / p ** i) % p);
        if (divides([...g, 1])) return false;
      }
    }
    return true;
  }

  it('property: over GF(2), GF(3), GF(5) the monic factors multiply back and each is irreducible (brute force)', () => {
    fc.assert(
      fc.property(fc.constantFrom(2, 3, 5), fc.array(fc.array(fc.nat(4), { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 3 }), (p, parts) => {
        const F = fieldFromSpec({ kind: 'GF', characteristic: String(p) }) as Field<number>;
        const polys = parts.map((c) => [...c.slice(0, -1).map((x) => x % p), 1]);
        let f: number[] = [1];
        for (const q of polys) {
          const out = new Array<number>(f.length + q.length - 1).fill(0);
          f.forEach((x, i) => q.forEach((y, j) => (out[i + j] = F.add(out[i + j] as number, F.mul(x, y)))));
          f = out;
        }
        const { unit, factors } = factorGF(F, f);
        expect(unit).toBe(1);
        let back: number[] = [1];
        for (const { factor, multiplicity } of factors) {
          expect(factor[factor.length - 1]).toBe(1);
          expect(irreducibleByBruteForce(p, factor), `${factor.join(',')} mod ${p}`).toBe(true);
          for (let e = 0; e < multiplicity; e++) {
            const out = new Array<number>(back.length + factor.length - 1).fill(0);
            back.forEach((x, i) => factor.forEach((y, j) => (out[i + j] = F.add(out[i + j] as number, F.mul(x, y)))));
            back = out;
          }
        }
        expect(back).toEqual(f);
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('square-free factorization takes p-th roots: (x + 1)^6 over GF(3), x^4 + 1 = (x + 1)^4 over GF(2)', () => {
    const F3 = fieldFromSpec({ kind: 'GF', characteristic: '3' }) as Field<number>;
    // (x + 1)^6 = (x^3 + 1)^2 = x^6 + 2 x^3 + 1 over GF(3)
    expect(squareFreeFactorizationGF(F3, [1, 0, 0, 2, 0, 0, 1])).toEqual([{ factor: [1, 1], multiplicity: 6 }]);
    const F2 = fieldFromSpec({ kind: 'GF', characteristic: '2' }) as Field<number>;
    expect(factorGF(F2, [1, 0, 0, 0, 1]).factors).toEqual([{ factor: [1, 1], multiplicity: 4 }]);
  });

  it('equal-degree splitting over a 40-digit prime and over GF(2)', () => {
    const F = fieldFromSpec({ kind: 'GF', characteristic: '170141183460469231731687303715884105727' }) as Field<unknown>;
    // (x − 1)(x − 2)(x − 3)
    const f = [F.fromBigInt(-6n), F.fromBigInt(11n), F.fromBigInt(-6n), F.one];
    expect(equalDegreeFactorization(F, f, 1).map((g) => g.map((c) => F.format(c)).join(',')).sort()).toEqual(['-1', '-2', '-3'].map((r) => `${F.format(F.fromBigInt(BigInt(r)))},1`).sort());
    const F2 = fieldFromSpec({ kind: 'GF', characteristic: '2' }) as Field<number>;
    // x^4 + x + 1 is irreducible over GF(2); (x^2 + x + 1)(x^3 + x + 1) splits into its two factors.
    expect(factorGF(F2, [1, 1, 0, 0, 1]).factors).toEqual([{ factor: [1, 1, 0, 0, 1], multiplicity: 1 }]);
    expect(factorGF(F2, [1, 0, 0, 0, 0, 1]).factors).toEqual([
      { factor: [1, 1], multiplicity: 1 },
      { factor: [1, 1, 1, 1, 1], multiplicity: 1 },
    ]);
    expect(factorGF(F2, [1, 0, 0, 0, 1, 1]).factors).toEqual([
      { factor: [1, 1, 1], multiplicity: 1 },
      { factor: [1, 1, 0, 1], multiplicity: 1 },
    ]);
  });
});
