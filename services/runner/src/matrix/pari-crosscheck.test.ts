/**
 * Our factorizer and Frobenius form against PARI/GP, the peer system, as independent truth:
 * `factor` over Z and `matfrobenius(M, 1)` (the invariant factors, largest first). Skipped where
 * gp is not installed (Debian: apt-get install -y pari-gp).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fieldFromSpec, makeRational, RATIONALS, type Field } from '@jacobian/shared';
import { fieldBackend, LinearAlgebra, RATIONAL_BACKEND } from './engine.js';
import { frobeniusForm } from './frobenius.js';
import { factorGF, factorInteger } from './univariate-factor.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((p) => existsSync(p));

/** Run one gp script; its printed lines. */
function gp(script: string): string[] {
  const result = spawnSync(GP as string, ['-q', '-D', 'parisizemax=512M'], { input: script, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`gp failed: ${result.stderr}`);
  return result.stdout.split('\n').filter((line) => line.trim() !== '');
}

/** "[1, 0, -10]" (highest degree first) ↦ coefficients lowest first. */
const vector = (text: string): string[] =>
  text
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((s) => s.trim())
    .reverse();

let seed = 2026n;
function next(bound: bigint): bigint {
  seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
  return ((seed >> 20n) % (2n * bound + 1n)) - bound;
}
const polyText = (p: readonly bigint[]): string => p.map((c, k) => `(${c})*x^${k}`).join('+');

describe.skipIf(GP === undefined)('against PARI/GP', () => {
  it('factor over Z: 60 products of random parts (degrees up to 24, some repeated) factor as PARI factors them', () => {
    const cases: bigint[][] = [];
    for (let t = 0; t < 60; t++) {
      let f: bigint[] = [1n];
      const parts = 1 + Number((next(2n) + 2n) % 4n);
      for (let i = 0; i < parts; i++) {
        const degree = 1 + Number((next(3n) + 3n) % 6n);
        const part = [...Array.from({ length: degree }, () => next(t % 3 === 0 ? 1n << 40n : 20n)), 1n + ((next(3n) + 3n) % 3n)];
        const times = i === 0 && t % 4 === 0 ? 2 : 1;
        for (let e = 0; e < times; e++) {
          const out = new Array<bigint>(f.length + part.length - 1).fill(0n);
          f.forEach((a, x) => part.forEach((b, y) => (out[x + y] = (out[x + y] as bigint) + a * b)));
          f = out;
        }
      }
      // Primitive: PARI then leaves no integer content among the factors.
      let g = 0n;
      for (const c of f) g = g === 0n ? (c < 0n ? -c : c) : (function gcd(a: bigint, b: bigint): bigint { return b === 0n ? a : gcd(b, a % b); })(g, c < 0n ? -c : c);
      cases.push(f.map((c) => c / g));
    }
    const lines = gp(cases.map((f) => `F=factor(${polyText(f)}); print(#F~); for(i=1,#F~, print(Vec(F[i,1]), " ", F[i,2]))`).join('\n'));
    let at = 0;
    for (const f of cases) {
      const count = Number(lines[at++]);
      const theirs: string[] = [];
      for (let i = 0; i < count; i++) {
        const line = lines[at++] as string;
        const cut = line.lastIndexOf(' ');
        theirs.push(`${vector(line.slice(0, cut)).join(',')}^${line.slice(cut + 1)}`);
      }
      const ours = factorInteger(f).factors.map((x) => `${x.factor.join(',')}^${x.multiplicity}`);
      expect(ours.sort(), polyText(f)).toEqual(theirs.sort());
    }
  });

  it('factor over GF(p): random polynomials modulo 2, 3 and 1009 as PARI factors them', () => {
    const cases: { p: number; f: number[] }[] = [];
    for (let t = 0; t < 45; t++) {
      const p = [2, 3, 1009][t % 3] as number;
      const degree = 2 + (t % 14);
      cases.push({ p, f: [...Array.from({ length: degree }, () => Number((next(1000n) + 1000n) % BigInt(p))), 1] });
    }
    const lines = gp(cases.map(({ p, f }) => `F=factor((${f.map((c, k) => `${c}*x^${k}`).join('+')})*Mod(1,${p})); print(#F~); for(i=1,#F~, print(lift(Vec(F[i,1])), " ", F[i,2]))`).join('\n'));
    let at = 0;
    for (const { p, f } of cases) {
      const count = Number(lines[at++]);
      const theirs: string[] = [];
      for (let i = 0; i < count; i++) {
        const line = lines[at++] as string;
        const cut = line.lastIndexOf(' ');
        theirs.push(`${vector(line.slice(0, cut)).join(',')}^${line.slice(cut + 1)}`);
      }
      const F = fieldFromSpec({ kind: 'GF', characteristic: String(p) }) as Field<number>;
      const ours = factorGF(F, f).factors.map((x) => `${x.factor.join(',')}^${x.multiplicity}`);
      expect(ours.sort(), `${f.join(',')} mod ${p}`).toEqual(theirs.sort());
    }
  });

  it('invariant factors (matfrobenius) of random and derogatory matrices over Q and GF(p)', () => {
    const cases: { rows: bigint[][]; p: number | null }[] = [];
    for (let t = 0; t < 30; t++) {
      const n = 2 + (t % 9);
      const p = t % 3 === 2 ? 7 : null;
      // Derogatory: diag(B, B, c I) for half of them.
      const m = t % 2 === 0 ? n : Math.max(1, Math.floor(n / 2));
      const B = Array.from({ length: m }, () => Array.from({ length: m }, () => next(3n)));
      const size = t % 2 === 0 ? n : 2 * m + 2;
      const rows = Array.from({ length: size }, (_, i) =>
        Array.from({ length: size }, (_, j) => (t % 2 === 0 ? ((B[i] as bigint[])[j] as bigint) : i < 2 * m && j < 2 * m ? (Math.floor(i / m) === Math.floor(j / m) ? ((B[i % m] as bigint[])[j % m] as bigint) : 0n) : i === j ? 5n : 0n)),
      );
      cases.push({ rows, p });
    }
    const lines = gp(cases.map(({ rows, p }) => `v=matfrobenius(${p === null ? '' : `Mod(1,${p})*`}[${rows.map((row) => row.join(',')).join(';')}],1); print(#v); for(i=1,#v, print(${p === null ? '' : 'lift'}(Vec(v[i]))))`).join('\n'));
    let at = 0;
    for (const { rows, p } of cases) {
      const count = Number(lines[at++]);
      const theirs: string[] = [];
      for (let i = 0; i < count; i++) theirs.push(vector(lines[at++] as string).join(','));
      const F = (p === null ? RATIONALS : fieldFromSpec({ kind: 'GF', characteristic: String(p) })) as Field<unknown>;
      const la = p === null ? (new LinearAlgebra(RATIONAL_BACKEND) as LinearAlgebra<unknown>) : new LinearAlgebra(fieldBackend(F));
      const A = rows.map((row) => row.map((x) => (p === null ? makeRational(x, 1n) : F.fromBigInt(x))));
      const ours = frobeniusForm(la, A).invariantFactors.map((d) => d.map((c) => F.format(c)).join(','));
      // PARI lists them largest first.
      expect(ours, JSON.stringify(rows.map((row) => row.map(String)))).toEqual(theirs.reverse());
    }
  });
});
