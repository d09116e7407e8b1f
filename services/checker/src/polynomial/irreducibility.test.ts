import { describe, expect, it } from 'vitest';
import { parsePolynomial, resolveRing } from '@jacobian/shared';
import { irreducibility, isIrreducibleModP } from './irreducibility.js';

/** Every monic polynomial of degree n over GF(p), coefficients from degree 0 up. */
function* monic(n: number, p: number): Generator<bigint[]> {
  const total = p ** n;
  for (let k = 0; k < total; k++) {
    const coefficients: bigint[] = [];
    let rest = k;
    for (let i = 0; i < n; i++) {
      coefficients.push(BigInt(rest % p));
      rest = Math.floor(rest / p);
    }
    coefficients.push(1n);
    yield coefficients;
  }
}

/** Gauss's count of monic irreducible polynomials of degree n over GF(p): (1/n) Σ_{d | n} μ(d) p^(n/d). */
function gaussCount(n: number, p: number): number {
  const mobius = (d: number): number => {
    let m = d;
    let sign = 1;
    for (let q = 2; q * q <= m; q++) {
      if (m % q === 0) {
        m /= q;
        if (m % q === 0) return 0;
        sign = -sign;
      }
    }
    return m > 1 ? -sign : sign;
  };
  let sum = 0;
  for (let d = 1; d <= n; d++) if (n % d === 0) sum += mobius(d) * p ** (n / d);
  return sum / n;
}

describe("Rabin's test over GF(p)", () => {
  it.each([
    [2, 6],
    [3, 5],
    [5, 4],
    [7, 3],
  ])('finds exactly Gauss\'s number of monic irreducibles over GF(%i) in every degree up to %i', (p, maxDegree) => {
    for (let n = 1; n <= maxDegree; n++) {
      let count = 0;
      for (const f of monic(n, p)) if (isIrreducibleModP(f, BigInt(p))) count++;
      expect(count, `degree ${n}`).toBe(gaussCount(n, p));
    }
  });

  it('calls squares and products reducible, whatever the leading coefficient', () => {
    // Dense coefficient lists, from degree 0 up, over GF(5).
    expect(isIrreducibleModP([1n, 2n, 1n], 5n)).toBe(false); // (x + 1)^2
    expect(isIrreducibleModP([2n, 0n, 3n, 0n, 1n], 5n)).toBe(false); // (x^2 + 1)(x^2 + 2), no root but reducible
    expect(isIrreducibleModP([3n, 3n, 3n, 0n, 0n], 5n)).toBe(true); // 3(x^2 + x + 1), zero leads trimmed; -3 is not a square mod 5
    expect(isIrreducibleModP([4n, 0n, 1n], 5n)).toBe(false); // x^2 - 1
  });
});

describe('irreducibility of a factor', () => {
  const Q = (variables: string[]) => resolveRing({ field: { kind: 'Q' }, variables, order: 'lex' });
  const GF = (p: string, variables: string[]) => resolveRing({ field: { kind: 'GF', characteristic: p }, variables, order: 'grevlex' });
  const status = (ring: ReturnType<typeof Q>, text: string): string => irreducibility(ring, parsePolynomial(ring, text)).status;

  it('proves linear factors in any number of variables', () => {
    expect(status(Q(['x', 'y', 'z']), '2*x - 3/4*y + z - 1')).toBe('IRREDUCIBLE');
    expect(status(GF('32003', ['x', 'y']), 'x + y')).toBe('IRREDUCIBLE');
  });

  it('decides one-variable factors over GF(p) both ways, also for a large prime and a variable of a larger ring', () => {
    const R = GF('5', ['x', 'y']);
    expect(status(R, 'y^2 + 2')).toBe('IRREDUCIBLE'); // 3 is not a square mod 5
    expect(status(R, 'y^2 + 1')).toBe('REDUCIBLE'); // (y + 2)(y + 3)
    const big = GF('1000000007', ['t']);
    expect(status(big, 't^2 + 1')).toBe('IRREDUCIBLE'); // 1000000007 ≡ 3 (mod 4): -1 is not a square
    expect(status(big, 't^2 - 4')).toBe('REDUCIBLE');
  });

  it('proves irreducibility over Q through a prime, and leaves the rest unproven, never reducible', () => {
    const R = Q(['x']);
    expect(status(R, 'x^2 + 1')).toBe('IRREDUCIBLE');
    expect(status(R, 'x^2 - 2')).toBe('IRREDUCIBLE');
    expect(status(R, '1/2*x^3 - x + 1/3')).toBe('IRREDUCIBLE');
    expect(status(R, 'x^4 + 1')).toBe('UNPROVEN'); // irreducible over Q, reducible modulo every prime
    expect(status(R, 'x^2 - 1')).toBe('UNPROVEN'); // reducible: this test never claims so
    expect(status(Q(['x', 'y']), 'x^2 + y^2')).toBe('UNPROVEN');
  });
});
