/**
 * Our Diophantine code against PARI/GP on random and known inputs: contfrac, quadunit (Pell),
 * qfbred, qfbclassno, quadclassunit (structure), matsolvemod over Z (solvability, particular
 * solution, kernel lattice). Skipped only where gp is not installed.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSquare } from '@jacobian/shared';
import { gpInteger, gpProgram, runGp } from '../../providers/pari.js';
import { rationalContinuedFraction } from './continued-fraction.js';
import { solveIntegerSystem } from './integer-linear-system.js';
import { solvePell } from './pell.js';
import { classGroup, decideEquivalence, reduceForm, reducedForms, type Form } from './quadratic-forms.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));

/** A deterministic pseudo-random sequence (so a failure can be replayed). */
function random(seed: number): (lo: number, hi: number) => number {
  let s = seed >>> 0;
  return (lo, hi) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return lo + (s % (hi - lo + 1));
  };
}

async function gp(definitions: string[], statements: string): Promise<string[][]> {
  const answer = await runGp(GP as string, gpProgram(definitions, [{ name: 'out', statements }]), ['out'], { deadline: Date.now() + 60_000, maxOutputBytes: 16 * 1024 * 1024 });
  return answer.sections['out'] ?? [];
}

const vec = (xs: readonly (bigint | number)[]): string => `[${xs.map((x) => gpInteger(String(x))).join(',')}]`;

describe.skipIf(GP === undefined)('agreement with PARI/GP', () => {
  it('contfrac of 200 random rationals', async () => {
    const r = random(1);
    const cases = Array.from({ length: 200 }, () => [BigInt(r(-1_000_000, 1_000_000)) * BigInt(r(1, 100_000)), BigInt(r(1, 1_000_000))] as const);
    const rows = await gp([`V=[${cases.map(([p, q]) => `${gpInteger(String(p))}/${gpInteger(String(q))}`).join(',')}];`], 'for(i=1,#V,jv(contfrac(V[i])));');
    cases.forEach(([p, q], i) => {
      const ours = rationalContinuedFraction(p, q).map(String);
      // PARI may end with a 1 (the other expansion); fold it the canonical way.
      const theirs = [...(rows[i] ?? [])];
      if (theirs.length > 1 && theirs.at(-1) === '1') {
        theirs.pop();
        theirs[theirs.length - 1] = String(BigInt(theirs.at(-1) as string) + 1n);
      }
      expect(ours, `${p}/${q}`).toEqual(theirs);
    });
  });

  it('Pell: the fundamental unit of Z[√D] (quadunit(4D)) for every non-square D ≤ 1500', async () => {
    const Ds = Array.from({ length: 1499 }, (_, i) => BigInt(i + 2)).filter((d) => !isSquare(d));
    const rows = await gp([`V=${vec(Ds)};`], 'for(i=1,#V,u=quadunit(4*V[i]);print(real(u)," ",imag(u)," ",norm(u)));');
    Ds.forEach((D, i) => {
      const [x, y, n] = rows[i] ?? [];
      const ours = solvePell(D, 100_000);
      if (n === '-1') {
        expect(ours.minus, `D = ${D}`).toEqual({ x: BigInt(x as string), y: BigInt(y as string) });
      } else {
        expect(ours.minus, `D = ${D}`).toBeNull();
        expect(ours.plus, `D = ${D}`).toEqual({ x: BigInt(x as string), y: BigInt(y as string) });
      }
    });
  });

  it('qfbred: definite forms reduce to PARI\'s reduced form; indefinite ones to a form PARI\'s is equivalent to', async () => {
    const r = random(2);
    const forms: Form[] = [];
    while (forms.length < 300) {
      const f: Form = [BigInt(r(-2000, 2000)), BigInt(r(-2000, 2000)), BigInt(r(-2000, 2000))];
      const D = f[1] * f[1] - 4n * f[0] * f[2];
      // PARI does not reduce negative definite forms.
      if (D !== 0n && !(D > 0n && isSquare(D)) && f[0] !== 0n && !(D < 0n && f[0] < 0n)) forms.push(f);
    }
    const rows = await gp([`V=[${forms.map((f) => vec(f)).join(',')}];`], 'for(i=1,#V,f=V[i];jv(Vec(qfbred(Qfb(f[1],f[2],f[3])))));');
    forms.forEach((f, i) => {
      const theirs = (rows[i] ?? []).map(BigInt) as unknown as Form;
      const ours = reduceForm(f);
      if (ours.kind === 'definite') expect(ours.form, `(${f.join(', ')})`).toEqual(theirs);
      else expect(decideEquivalence(ours.form, theirs, 100_000).equivalent, `(${f.join(', ')})`).toBe(true);
    });
  });

  it('qfbclassno and quadclassunit for 300 random discriminants −3 … −10^6', async () => {
    const r = random(3);
    const Ds: bigint[] = [];
    while (Ds.length < 300) {
      const D = -BigInt(r(3, 1_000_000));
      if ((((D % 4n) + 4n) % 4n) <= 1n) Ds.push(D);
    }
    const rows = await gp([`V=${vec(Ds)};`], 'for(i=1,#V,q=quadclassunit(V[i]);print(qfbclassno(V[i])," ",q[1]);jv(q[2]));');
    Ds.forEach((D, i) => {
      const [h, h2] = rows[2 * i] ?? [];
      const cyc = rows[2 * i + 1] ?? [];
      expect(String(reducedForms(D).length), `h(${D})`).toBe(h);
      expect(h2).toBe(h);
      expect(classGroup(D).invariants.map(String).reverse(), `Cl(${D})`).toEqual(cyc.filter((d) => d !== '1'));
    });
  });

  it('bezout: a x + b y = c is solvable exactly when PARI\'s gcd divides c', async () => {
    const r = random(5);
    const cases = Array.from({ length: 200 }, () => [BigInt(r(-5000, 5000)), BigInt(r(-5000, 5000)), BigInt(r(-50, 50))] as const).filter(([a, b]) => a !== 0n || b !== 0n);
    const rows = await gp([`V=[${cases.map(([a, b]) => vec([a, b])).join(',')}];`], 'for(i=1,#V,jv(bezout(V[i][1],V[i][2])));');
    cases.forEach(([a, b, c], i) => {
      const [u, v, g] = (rows[i] ?? []).map(BigInt) as [bigint, bigint, bigint];
      expect(a * u + b * v).toBe(g);
      const ours = solveIntegerSystem([[a, b]], [c]);
      expect(ours.outcome === 'SOLVED', `${a}x + ${b}y = ${c}`).toBe(c % g === 0n);
      if (ours.outcome === 'SOLVED') expect(a * (ours.particular[0] as bigint) + b * (ours.particular[1] as bigint)).toBe(c);
    });
  });

  it('matsolvemod over Z: the same solvability, and our kernel basis has the Gram determinant of PARI\'s', async () => {
    const r = random(4);
    const systems = Array.from({ length: 150 }, () => {
      const m = r(1, 3);
      const n = r(1, 4);
      const A = Array.from({ length: m }, () => Array.from({ length: n }, () => BigInt(r(-9, 9))));
      const b = Array.from({ length: m }, () => BigInt(r(-20, 20)));
      return { A, b };
    });
    const literal = ({ A, b }: { A: bigint[][]; b: bigint[] }): string => `[Mat([${A.map((row) => row.map((x) => gpInteger(String(x))).join(',')).join(';')}]),${vec(b)}~]`;
    const rows = await gp(
      [`V=[${systems.map(literal).join(',')}];`],
      'for(i=1,#V,s=matsolvemod(V[i][1],0,V[i][2],1);if(s===0,print(0),print(1);jv(s[1]);K=s[2];print(if(#K,matdet(mattranspose(K)*K),1))));',
    );
    let at = 0;
    for (const { A, b } of systems) {
      const solvable = rows[at++]?.[0] === '1';
      const ours = solveIntegerSystem(A, b);
      expect(ours.outcome === 'SOLVED', JSON.stringify({ A: A.map(String), b: b.map(String) })).toBe(solvable);
      if (!solvable || ours.outcome !== 'SOLVED') continue;
      at++; // PARI's particular solution: any one will do.
      const gram = BigInt(rows[at++]?.[0] ?? '0');
      // Our basis spans the whole integer kernel, which contains PARI's: equal Gram determinants make them one lattice (PARI's generators may be dependent: then its Gram determinant is 0 and says nothing).
      const K = ours.kernel;
      if (K.length === 0) continue;
      const G = K.map((u) => K.map((v) => u.reduce((s, x, j) => s + x * (v[j] as bigint), 0n)));
      const det = (M: bigint[][]): bigint => (M.length === 1 ? (M[0] as bigint[])[0] as bigint : M[0]!.reduce((s, x, j) => s + (j % 2 === 0 ? 1n : -1n) * x * det(M.slice(1).map((row) => row.filter((_, k) => k !== j))), 0n));
      if (gram !== 0n) expect(det(G)).toBe(gram);
    }
  });
});
