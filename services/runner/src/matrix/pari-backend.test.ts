/**
 * PARI/GP against our TypeScript engine on random and structured matrices (singular,
 * non-square, large entries, GF(p)): every answer of the PARI backend (after its own rechecks and
 * conversions) must equal our engine's. Skipped only when gp is not installed (CI installs it).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATIONALS, resolveMatrixRing, type Field, type MatrixPayload, type Rational } from '@jacobian/shared';
import { checkPariIdentity, gpInteger, gpMatrix, gpPolynomial, gpProgram, probePari, runGp, type PariTools } from '../providers/pari.js';
import { characteristicPolynomial, isSquareFree, minimalPolynomial, rationalCharacteristicPolynomial, rationalMinimalPolynomial } from './characteristic.js';
import { primitiveIntegerVector, ringEngine } from './engine.js';
import { asText, generator, randomIntegerCases, gpOptions as options, matrix, randomMatrix } from './matrix-test-support.js';
import { hermiteNormalForm, smithNormalForm } from './normal-form-engine.js';
import { pariCharacteristic, pariDeterminant, pariHermite, pariKernels, pariMinimal, pariRank, pariSmith } from './pari-backend.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));

/** Our engine's answers for every operation the PARI backend serves. */
function ours(A: MatrixPayload): { rank: number; det: string | null; right: string[][]; left: string[][]; charpoly: string[] | null; minpoly: string[] | null } {
  const engine = ringEngine(A.ring);
  const rows = engine.parse(A.rows);
  const format = (x: unknown): string => engine.format(x);
  const kernel = (v: unknown[]): string[] => (A.ring.kind === 'Z' ? primitiveIntegerVector(v as Rational[]) : v).map(format);
  const { right, left, rank } = engine.algebra.nullspace(rows);
  const square = A.nrows === A.ncols;
  const F = (resolveMatrixRing(A.ring).field ?? RATIONALS) as Field<unknown>;
  const poly = (kind: 'char' | 'min'): string[] =>
    (F.kind === 'Q'
      ? kind === 'char'
        ? rationalCharacteristicPolynomial(rows as Rational[][])
        : rationalMinimalPolynomial(rows as Rational[][])
      : kind === 'char'
        ? characteristicPolynomial(F, rows)
        : minimalPolynomial(F, rows)
    ).map((c) => F.format(c));
  return { rank, det: square ? format(engine.algebra.determinant(rows)) : null, right: right.map(kernel), left: left.map(kernel), charpoly: square ? poly('char') : null, minpoly: square ? poly('min') : null };
}

/** The cases: random of full and lower rank, non-square, large entries, rational, GF(p) small and large p. */
function cases(): { name: string; matrix: MatrixPayload }[] {
  const random = generator(20261207);
  const out: { name: string; matrix: MatrixPayload }[] = randomIntegerCases(random, [
    [4, 4, 10n, 4],
    [5, 5, 1000n, 3],
    [3, 6, 50n, 3],
    [6, 3, 50n, 2],
    [4, 5, 1n << 64n, 4],
    [5, 5, 1n << 64n, 4],
    [7, 7, 3n, 7],
    [1, 4, 9n, 1],
    [4, 1, 9n, 1],
    [1, 1, 12n, 1],
  ]);
  const Z = { kind: 'Z' } as const;
  out.push({ name: 'Z zero 3×4', matrix: matrix(Z, [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]) });
  out.push({ name: 'Z identity 4', matrix: matrix(Z, [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]) });
  out.push({ name: 'Z derogatory diag(2,2,3) with a Jordan block', matrix: matrix(Z, [[2, 1, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 3]]) });
  out.push({ name: 'Z 1..9 (singular)', matrix: matrix(Z, [[1, 2, 3], [4, 5, 6], [7, 8, 9]]) });
  out.push({ name: 'Q Hilbert 4', matrix: matrix({ kind: 'Q' }, [[1, '1/2', '1/3', '1/4'], ['1/2', '1/3', '1/4', '1/5'], ['1/3', '1/4', '1/5', '1/6'], ['1/4', '1/5', '1/6', '1/7']]) });
  out.push({ name: 'Q 3×4 rank 2', matrix: matrix({ kind: 'Q' }, [['1/2', '-3', '4/5', 1], [1, -6, '8/5', 2], [0, '7/3', 1, '-1/9']]) });
  for (const [p, m, n, rank] of [
    ['7', 5, 5, 5],
    ['2', 6, 6, 4],
    ['3', 4, 6, 3],
    ['1000000007', 5, 5, 4],
    ['170141183460469231731687303715884105727', 4, 4, 4],
  ] as const) {
    const P = BigInt(p);
    const rows = randomMatrix(random, m, n, P, rank).map((row) => row.map((x) => (((x % P) + P) % P).toString()));
    out.push({ name: `GF(${p.length > 12 ? '2^127-1' : p}) ${m}×${n} rank ≤ ${rank}`, matrix: matrix({ kind: 'GF', characteristic: p }, rows) });
  }
  return out;
}

describe.skipIf(GP === undefined)('PARI/GP agrees with our engine', () => {
  let tools: PariTools;
  beforeAll(async () => {
    tools = (await probePari({ binary: GP as string })).tools;
  });

  for (const { name, matrix: A } of cases()) {
    it(name, async () => {
      const want = ours(A);
      expect((await pariRank(tools, A, options())).rank).toBe(want.rank);
      const kernels = await pariKernels(tools, A, options());
      expect(kernels.rank).toBe(want.rank);
      expect(kernels.right).toEqual(want.right);
      expect(kernels.left).toEqual(want.left);
      if (want.det !== null) expect((await pariDeterminant(tools, A, options())).determinant).toBe(want.det);
      if (want.charpoly !== null) {
        const F = (resolveMatrixRing(A.ring).field ?? RATIONALS) as Field<unknown>;
        const char = await pariCharacteristic(tools, A, options());
        expect(char.coefficients).toEqual(want.charpoly);
        expect(char.squareFree).toBe(isSquareFree(F, want.charpoly.map((c) => F.parseCanonical(c))));
        const min = await pariMinimal(tools, A, options());
        expect(min.coefficients).toEqual(want.minpoly);
        expect(min.squareFree).toBe(isSquareFree(F, (want.minpoly ?? []).map((c) => F.parseCanonical(c))));
      }
      if (A.ring.kind === 'Z') {
        const integers = A.rows.map((row) => row.map((x) => BigInt(x)));
        const hermite = hermiteNormalForm(integers);
        for (const transforms of [false, true]) {
          const h = await pariHermite(tools, A, transforms, options());
          expect(h.hnf).toEqual(asText(hermite.hnf));
          expect(h.pivots).toEqual(hermite.pivots);
          expect(h.transform === null).toBe(!transforms);
          const s = await pariSmith(tools, A, transforms, options());
          expect(s.diagonal).toEqual(smithNormalForm(integers).diagonal.map((d) => d.toString()));
          expect(s.left === null).toBe(!transforms);
        }
      }
    });
  }
});

describe('PARI/GP scripts and answers', () => {
  it('puts only numbers of the ring into a script', () => {
    expect(gpMatrix(matrix({ kind: 'Q' }, [['1/2', -3]]))).toBe('Mat([1/2,-3])');
    expect(gpMatrix(matrix({ kind: 'GF', characteristic: '5' }, [[1, 2], [3, 4]]))).toBe('Mod(Mat([1,2;3,4]),5)');
    const forged = { ring: { kind: 'Z' }, nrows: 1, ncols: 1, rows: [['system("id")']] } as MatrixPayload;
    expect(() => gpMatrix(forged)).toThrow(/not a number/);
    const fraction = { ring: { kind: 'Z' }, nrows: 1, ncols: 1, rows: [['1/2']] } as MatrixPayload;
    expect(() => gpMatrix(fraction)).toThrow(/not a number/);
  });

  it('re-prints only integers and polynomials of numbers into a number-theory script', () => {
    expect(gpInteger('-123')).toBe('-123');
    for (const bad of ['1e5', '0x10', '-0', '1;quit', ' 1', '']) expect(() => gpInteger(bad), bad).toThrow(/not an integer/);
    expect(gpPolynomial(['1', '0', '-2'])).toBe("Pol([1,0,-2],'x)");
    expect(gpPolynomial(['1/2', '3'], 'y')).toBe("Pol([1/2,3],'y)");
    expect(() => gpPolynomial(['1', 'x'])).toThrow(/not a number/);
    expect(() => gpPolynomial(['1'], 'xy')).toThrow(/one-letter/);
    expect(() => gpPolynomial([])).toThrow(/at least one/);
    expect(gpProgram(['n=5;'], [{ name: 'f', statements: 'print(n);' }])).toMatch(/^default\(debugmem,0\);[\s\S]*\nn=5;\nprint\("@@jacobian:f"\);\nprint\(n\);\nprint\("@@jacobian:end"\);\nquit;\n$/);
  });

  describe('with a fake gp', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'jacobian-pari-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    const fake = async (name: string, body: string): Promise<string> => {
      const file = path.join(dir, name);
      await writeFile(file, `#!/bin/sh\n${body}\n`);
      await chmod(file, 0o755);
      return file;
    };

    it('is unavailable when gp is missing or is not gp', async () => {
      await expect(probePari({ searchDirectories: [dir] })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
      const binary = await fake('gp', 'echo "Singular 4.3.1"');
      await expect(probePari({ binary })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    });

    it('is unavailable when gp answers a health case wrongly', async () => {
      const binary = await fake('gp-wrong', 'case "$1" in --version-short) echo 2.15.2;; *) cat >/dev/null; echo "@@jacobian:det"; echo 7; echo "@@jacobian:end";; esac');
      await expect(probePari({ binary })).rejects.toThrow(/failed its probe: .*expected/);
    });

    it('refuses an answer with anything on stderr, text that is not a number, a missing section or output after the end', async () => {
      const run = async (body: string): Promise<unknown> => runGp(await fake(`gp-${Math.random().toString(36).slice(2)}`, `cat >/dev/null; ${body}`), 'ignored', ['det'], options());
      await expect(run('echo "@@jacobian:det"; echo 6; echo "  ***   at top-level" >&2; echo "@@jacobian:end"')).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
      await expect(run('echo "@@jacobian:det"; echo "Mod(6, 7)"; echo "@@jacobian:end"')).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
      await expect(run('echo "@@jacobian:end"')).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
      await expect(run('echo "@@jacobian:det"; echo 6; echo "@@jacobian:end"; echo 7')).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
      await expect(run('echo "@@jacobian:det"; echo 6; echo "@@jacobian:end"')).resolves.toMatchObject({ sections: { det: [['6']] } });
    });
  });

  it.skipIf(GP === undefined)('runs only the gp it probed: another digest is a PROVIDER_FAILED', async () => {
    const { tools } = await probePari({ binary: GP as string });
    await expect(checkPariIdentity(tools)).resolves.toBeUndefined();
    await expect(checkPariIdentity({ ...tools, digest: `sha256:${'0'.repeat(64)}` })).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
  });

  it.skipIf(GP === undefined)('stops gp at the deadline (EXECUTION_TIMEOUT)', async () => {
    const tools = (await probePari({ binary: GP as string })).tools;
    const random = generator(7);
    const A = matrix({ kind: 'Z' }, asText(randomMatrix(random, 150, 150, 1n << 64n)));
    await expect(pariSmith(tools, A, true, { deadline: Date.now() + 300, maxOutputBytes: 1 << 24, memoryMb: 1024 })).rejects.toMatchObject({ code: 'EXECUTION_TIMEOUT' });
  });
});
