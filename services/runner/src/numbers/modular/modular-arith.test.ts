import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bigGcd, mod, powMod } from '@jacobian/shared';
import { cipolla, crt, discreteLog, inverseMod, kronecker, kroneckerByReciprocity, multiplicativeOrder, primitiveRoot, sqrtMod, tonelliShanks } from './modular-arith.js';

/** Naive references on small moduli. */
function naiveOrder(a: bigint, n: bigint): bigint | null {
  if (bigGcd(a, n) !== 1n) return null;
  let x = mod(a, n);
  const one = mod(1n, n);
  for (let k = 1n; ; k++) {
    if (x === one) return k;
    x = mod(x * a, n);
  }
}
function naivePhi(n: bigint): bigint {
  let c = 0n;
  for (let i = 0n; i < n; i++) if (bigGcd(i, n) === 1n) c++;
  return n === 1n ? 1n : c;
}
function naiveLog(g: bigint, h: bigint, n: bigint): bigint | null {
  const target = mod(h, n);
  let x = mod(1n, n);
  for (let k = 0n; k <= n; k++) {
    if (x === target) return k;
    x = (x * g) % n;
  }
  return null;
}
function naiveRoots(a: bigint, n: bigint): bigint[] {
  const roots: bigint[] = [];
  for (let x = 0n; x < n; x++) if (mod(x * x - a, n) === 0n) roots.push(x);
  return roots;
}
function isPrime(p: number): boolean {
  if (p < 2) return false;
  for (let d = 2; d * d <= p; d++) if (p % d === 0) return false;
  return true;
}
/** Kronecker by the definition: n factored into −1, 2 and odd primes, Legendre by Euler's criterion. */
function naiveKronecker(a: bigint, n: bigint): number {
  if (n === 0n) return a === 1n || a === -1n ? 1 : 0;
  let result = 1;
  if (n < 0n) {
    n = -n;
    if (a < 0n) result = -result;
  }
  for (let p = 2n; n > 1n; p++) {
    while (n % p === 0n) {
      n /= p;
      if (p === 2n) {
        const r = mod(a, 8n);
        result *= r % 2n === 0n ? 0 : r === 1n || r === 7n ? 1 : -1;
      } else {
        const e = powMod(mod(a, p), (p - 1n) / 2n, p);
        result *= e === 0n ? 0 : e === 1n ? 1 : -1;
      }
    }
  }
  return result === 0 ? 0 : result;
}

const small = fc.integer({ min: 1, max: 400 }).map(BigInt);
const any = fc.integer({ min: -1000, max: 1000 }).map(BigInt);

describe('modular arithmetic (producer) against naive references', () => {
  it('inverse: a·a⁻¹ ≡ 1, or a common divisor', () => {
    fc.assert(
      fc.property(any, small, (a, n) => {
        const r = inverseMod(a, n);
        if (r.outcome === 'INVERTIBLE') expect(mod(a * r.inverse, n)).toBe(mod(1n, n));
        else expect(r.gcd).toBe(bigGcd(a, n));
        expect(r.outcome === 'INVERTIBLE').toBe(bigGcd(a, n) === 1n);
      }),
    );
  });

  it('CRT with moduli not coprime: the least solution by search, or a conflicting pair', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(any, fc.integer({ min: 1, max: 24 }).map(BigInt)), { minLength: 1, maxLength: 4 }), (pairs) => {
        const congruences = pairs.map(([residue, modulus]) => ({ residue, modulus }));
        const lcm = congruences.reduce((l, c) => (l * c.modulus) / bigGcd(l, c.modulus), 1n);
        let least: bigint | null = null;
        for (let x = 0n; x < lcm && least === null; x++) if (congruences.every((c) => mod(x - c.residue, c.modulus) === 0n)) least = x;
        const r = crt(congruences);
        if (least === null) {
          expect(r.outcome).toBe('INCONSISTENT');
          if (r.outcome !== 'INCONSISTENT') return;
          const [f, s] = [congruences[r.first], congruences[r.second]];
          expect(bigGcd(f!.modulus, s!.modulus)).toBe(r.gcd);
          expect(mod(f!.residue - s!.residue, r.gcd)).not.toBe(0n);
        } else {
          expect(r).toEqual({ outcome: 'SOLVED', residue: least, modulus: lcm });
        }
      }),
    );
  });

  it('multiplicative order equals the naive order', () => {
    fc.assert(
      fc.property(any, small, (a, n) => {
        const r = multiplicativeOrder(a, n);
        const naive = naiveOrder(a, n);
        if (naive === null) expect(r.outcome).toBe('NONE');
        else expect(r.outcome === 'FOUND' && r.order).toBe(naive);
      }),
    );
  });

  it('primitive roots: the least root by search for every n ≤ 300, NONE exactly when no element has order φ(n)', () => {
    for (let n = 1n; n <= 300n; n++) {
      const phi = naivePhi(n);
      let least: bigint | null = null;
      for (let g = 0n; g < n && least === null; g++) if (naiveOrder(g, n) === phi) least = g;
      const r = primitiveRoot(n);
      if (least === null) expect(r.outcome, String(n)).toBe('NONE');
      else expect(r.outcome === 'FOUND' && r.root, String(n)).toBe(least);
    }
  });

  it('discrete log: the least exponent by search, or NONE', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 300 }).map(BigInt), any, any, (n, g0, h) => {
        let g = mod(g0, n);
        while (bigGcd(g, n) !== 1n) g = (g + 1n) % n;
        const r = discreteLog(g, h, n);
        const naive = naiveLog(g, h, n);
        if (naive === null) expect(r.outcome).toBe('NONE');
        else expect(r.outcome === 'SOLVED' && r.log).toBe(naive);
      }),
      { numRuns: 300 },
    );
  });

  it('discrete log in a prime field with a large prime in the group order (rho) and with a 2^k order', () => {
    // p − 1 = 2 · 13 · q with q = 2000000000003 > 2^40: above the baby-step limit, so rho serves.
    const p = 52000000000079n;
    const g = primitiveRoot(p);
    expect(g.outcome).toBe('FOUND');
    if (g.outcome !== 'FOUND') return;
    const x = 12345678901234n;
    const r = discreteLog(g.root, powMod(g.root, x, p), p);
    expect(r.outcome === 'SOLVED' && r.log).toBe(x);
    const n = 2n ** 64n;
    const r2 = discreteLog(5n, powMod(5n, 987654321n, n), n);
    expect(r2.outcome === 'SOLVED' && r2.log).toBe(987654321n);
    expect(discreteLog(5n, n - 1n, n)).toMatchObject({ outcome: 'NONE' });
  });

  it('square roots: every root in increasing order, the count, or NONE exactly when there are none', () => {
    fc.assert(
      fc.property(any, fc.integer({ min: 1, max: 600 }).map(BigInt), (a, n) => {
        const r = sqrtMod(a, n, 10_000);
        const naive = naiveRoots(a, n);
        if (naive.length === 0) expect(r.outcome).toBe('NONE');
        else expect(r).toMatchObject({ outcome: 'SOLVED', count: BigInt(naive.length), roots: naive, complete: true });
      }),
      { numRuns: 500 },
    );
  });

  it('square roots: a count-limited list is a set of distinct true roots', () => {
    const r = sqrtMod(0n, 2n ** 40n, 16);
    expect(r).toMatchObject({ outcome: 'SOLVED', count: 2n ** 20n, complete: false });
    if (r.outcome !== 'SOLVED') return;
    expect(r.roots).toHaveLength(16);
    for (const x of r.roots) expect(mod(x * x, 2n ** 40n)).toBe(0n);
  });

  it('Tonelli–Shanks and Cipolla agree with the residue for every residue of the primes below 400', () => {
    for (let p = 3; p < 400; p++) {
      if (!isPrime(p)) continue;
      const P = BigInt(p);
      for (let x = 1n; x < P; x++) {
        const u = (x * x) % P;
        expect((tonelliShanks(u, P) ** 2n) % P).toBe(u);
        expect((cipolla(u, P) ** 2n) % P).toBe(u);
      }
    }
  });

  it('Kronecker symbol: the definition, for negative, zero and even n, by two implementations', () => {
    for (let n = -60n; n <= 60n; n++) {
      for (let a = -40n; a <= 40n; a++) {
        expect(kronecker(a, n), `(${a}/${n})`).toBe(naiveKronecker(a, n));
        expect(kroneckerByReciprocity(a, n), `(${a}/${n})`).toBe(naiveKronecker(a, n));
      }
    }
  });
});
