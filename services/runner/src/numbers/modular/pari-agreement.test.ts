/**
 * Agreement with PARI/GP (znorder, znprimroot, znlog, issquare and Mod(a, p)^(1/2), kronecker,
 * chinese, Mod(a, n)^-1) on seeded random cases, small and large (100 digits for inverse, CRT and
 * symbols) and adversarial (Carmichael numbers, prime powers, 2^k, p − 1 smooth and not). Skipped
 * cleanly when gp is not installed. Only integers generated here are printed into the script.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeModular, type ModularKernelInput } from './modular.kernel.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((path) => existsSync(path));

/** Run a gp script; each printed line is one answer. */
function gp(lines: string[]): string[] {
  const out = execFileSync(GP as string, ['-q', '-f', '-s', '256M'], { input: `${lines.join('\n')}\nquit;\n`, encoding: 'utf8', maxBuffer: 64 << 20 });
  return out.trim().split('\n');
}

/** A seeded generator of big integers (xorshift), so failures reproduce. */
function rng(seed: number) {
  let s = BigInt(seed) || 1n;
  const next = (): bigint => {
    s ^= (s << 13n) & 0xffffffffffffffffn;
    s ^= s >> 7n;
    s ^= (s << 17n) & 0xffffffffffffffffn;
    return s;
  };
  return (digits: number): bigint => {
    let x = 0n;
    while (x.toString().length < digits) x = x * 18446744073709551616n + next();
    return BigInt(x.toString().slice(0, digits));
  };
}

const run = (input: ModularKernelInput) => computeModular(input, {});
const CARMICHAEL = [561n, 1105n, 1729n, 2465n, 2821n, 6601n, 8911n, 41041n, 825265n];

describe.skipIf(GP === undefined)('modular answers agree with PARI/GP', () => {
  const big = rng(35);

  it('inverse and CRT on 100-digit integers (Mod(a, n)^-1, chinese)', () => {
    const cases = Array.from({ length: 40 }, () => ({ a: big(100), n: big(100) + 1n }));
    const answers = gp(cases.map(({ a, n }) => `print(iferr(lift(Mod(${a},${n})^-1),E,"NONE"))`));
    cases.forEach(({ a, n }, i) => {
      const claim = run({ operation: 'inverse', a: a.toString(), n: n.toString() }).claim;
      expect(claim.kind === 'INVERSE' && claim.outcome === 'INVERTIBLE' ? claim.inverse : 'NONE').toBe(answers[i]);
    });
    const systems = Array.from({ length: 40 }, (_, i) => {
      const g = i % 3 === 0 ? big(30) : 1n;
      return [0, 1, 2].map(() => ({ residue: big(90).toString(), modulus: (g * (big(70) + 1n)).toString() }));
    });
    const crt = gp(systems.map((s) => `print(iferr(my(c=chinese([${s.map((c) => `Mod(${c.residue},${c.modulus})`).join(',')}]));Str(lift(c)," ",c.mod),E,"INCONSISTENT"))`));
    systems.forEach((congruences, i) => {
      const claim = run({ operation: 'crt', congruences }).claim;
      expect(claim.kind === 'CRT' && claim.outcome === 'SOLVED' ? `${claim.residue} ${claim.modulus}` : 'INCONSISTENT').toBe(crt[i]);
    });
  });

  it('Kronecker symbols for every sign and parity, and 100-digit entries (kronecker)', () => {
    const cases: [bigint, bigint][] = [];
    for (let a = -12n; a <= 12n; a++) for (let n = -12n; n <= 12n; n++) cases.push([a, n]);
    for (let i = 0; i < 40; i++) cases.push([big(100) * (i % 2 === 0 ? 1n : -1n), big(100) * (i % 3 === 0 ? -2n : 1n)]);
    const answers = gp(cases.map(([a, n]) => `print(kronecker(${a},${n}))`));
    cases.forEach(([a, n], i) => {
      expect(run({ operation: 'symbol', symbol: 'kronecker', a: a.toString(), n: n.toString() }).claim, `(${a}/${n})`).toMatchObject({ value: Number(answers[i]) });
    });
  });

  it('multiplicative orders on Carmichael numbers, prime powers, 2^k and random moduli (znorder)', () => {
    const moduli = [...CARMICHAEL, 3n ** 20n, 2n ** 64n, 2n * 7n ** 9n, 1000000007n * 998244353n, ...Array.from({ length: 20 }, () => big(12) + 2n)];
    const cases = moduli.flatMap((n) => [2n, 3n, 10n, big(8)].map((a) => ({ a, n })));
    const answers = gp(cases.map(({ a, n }) => `print(iferr(znorder(Mod(${a},${n})),E,"NONE"))`));
    cases.forEach(({ a, n }, i) => {
      const claim = run({ operation: 'order', a: a.toString(), n: n.toString() }).claim;
      expect(claim.kind === 'ORDER' && claim.outcome === 'FOUND' ? claim.order : 'NONE', `ord_${n}(${a})`).toBe(answers[i]);
    });
  });

  it('primitive roots: the least one for primes equals znprimroot; for other n a generator exactly when PARI finds one', () => {
    const moduli = [2n, 4n, 8n, 9n, 18n, 50n, 3n ** 15n, 2n * 5n ** 12n, 1000000007n, 998244353n, 2305843009213693951n, ...CARMICHAEL, ...Array.from({ length: 20 }, () => big(10) + 3n)];
    const answers = gp(moduli.map((n) => `print(iferr(Str(lift(znprimroot(${n}))," ",isprime(${n})," ",eulerphi(${n})),E,"NONE"))`));
    moduli.forEach((n, i) => {
      const claim = run({ operation: 'primitive_root', n: n.toString() }).claim;
      const answer = answers[i] as string;
      if (answer === 'NONE') {
        expect(claim, String(n)).toMatchObject({ outcome: 'NONE' });
        return;
      }
      expect(claim.kind === 'PRIMITIVE_ROOT' && claim.outcome, String(n)).toBe('FOUND');
      const [root, prime, phi] = answer.split(' ');
      if (claim.kind !== 'PRIMITIVE_ROOT' || claim.outcome !== 'FOUND') return;
      if (prime === '1') expect(claim.root, String(n)).toBe(root);
      const [order] = gp([`print(znorder(Mod(${claim.root},${n})))`]);
      expect(order, String(n)).toBe(phi);
    });
  });

  it('discrete logarithms equal znlog (the least exponent), and NONE exactly when znlog has none', () => {
    const cases: { g: bigint; h: bigint; n: bigint }[] = [];
    for (const n of [1000000007n, 2n ** 40n, 3n ** 25n, 2n * 3n ** 10n, 561n, 1729n * 13n, 1000003n * 1000033n, 2n ** 61n - 1n]) {
      for (let i = 0; i < 6; i++) cases.push({ g: [3n, 5n, 7n, 11n][i % 4] as bigint, h: big(14) % n, n });
    }
    const units = cases.filter(({ g, n }) => {
      let [a, b] = [g, n];
      while (b !== 0n) [a, b] = [b, a % b];
      return a === 1n;
    });
    const answers = gp(units.map(({ g, h, n }) => `my(x=znlog(${h},Mod(${g},${n})));print(if(x==[],"NONE",x))`));
    units.forEach(({ g, h, n }, i) => {
      const claim = run({ operation: 'discrete_log', base: g.toString(), target: h.toString(), n: n.toString() }).claim;
      expect(claim.kind === 'DISCRETE_LOG' && claim.outcome === 'SOLVED' ? claim.log : 'NONE', `log_${g}(${h}) mod ${n}`).toBe(answers[i]);
    });
  });

  it('square roots: existence (issquare), every root counted by brute force in gp, and a root mod 40-digit primes (Mod(a, p)^(1/2))', () => {
    const small: { a: bigint; n: bigint }[] = [];
    for (let i = 0; i < 60; i++) {
      const n = [2n ** 10n, 3n ** 6n, 5n ** 4n * 4n, 561n, 1105n, 720n][i % 6] as bigint;
      small.push({ a: i % 5 === 0 ? big(6) ** 2n : big(6), n });
    }
    const counts = gp(small.map(({ a, n }) => `print(sum(x=0,${n}-1,Mod(x,${n})^2==Mod(${a},${n}))," ",issquare(Mod(${a},${n})))`));
    small.forEach(({ a, n }, i) => {
      const claim = run({ operation: 'sqrt', a: a.toString(), n: n.toString(), max_roots: 10_000 }).claim;
      const [count, square] = (counts[i] as string).split(' ');
      expect(square === '1', `${a} mod ${n}`).toBe(claim.kind === 'SQRT' && claim.outcome === 'SOLVED');
      if (claim.kind === 'SQRT' && claim.outcome === 'SOLVED') expect(claim.count).toBe(count);
    });
    const primes = gp(Array.from({ length: 12 }, (_, i) => `print(nextprime(${big(40)}${i % 2 === 0 ? '' : '*2^20'}))`)).map(BigInt);
    const residues = primes.map((p) => big(30) % p);
    const roots = gp(primes.map((p, i) => `print(iferr(lift(Mod(${residues[i]},${p})^(1/2)),E,"NONE"))`));
    primes.forEach((p, i) => {
      const claim = run({ operation: 'sqrt', a: (residues[i] as bigint).toString(), n: p.toString(), max_roots: 10 }).claim;
      if (roots[i] === 'NONE') {
        expect(claim).toMatchObject({ outcome: 'NONE', failure: { rule: 'NON_RESIDUE' } });
      } else {
        const r = BigInt(roots[i] as string);
        expect(claim).toMatchObject({ outcome: 'SOLVED', count: '2' });
        if (claim.kind === 'SQRT' && claim.outcome === 'SOLVED') expect(claim.roots).toEqual([r, p - r].sort((x, y) => (x < y ? -1 : 1)).map(String));
      }
    });
  });
});
