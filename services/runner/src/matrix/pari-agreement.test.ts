/**
 * matrix.rref.compute, matrix.inverse.compute, matrix.linear_system.solve and the right and left
 * kernels of matrix.nullspace.compute — the isolated kernel those capabilities run — against
 * PARI/GP as independent truth, on random and structured matrices (singular, wide and tall,
 * entries of ±2^64 and beyond, Q with denominators, GF(p) for small and large p). Skipped only
 * when gp is not installed (CI installs it).
 *
 * PARI has no RREF, so it is derived from PARI output: the pivot columns are where
 * matrank(A[,1..j]) grows; with B = matimage(A~)~ (a basis of the row space, r × n) the RREF is
 * B[,P]^-1 B — the unique matrix with that row space whose pivot columns form the identity. The
 * inverse must equal A^-1 (and be refused exactly when matdet(A) == 0). A solution's existence
 * must agree with matinverseimage (which returns [] when there is none), its kernel dimension
 * with #matker(A), and a unique solution must equal PARI's. Then gp itself checks every vector we
 * gave: A x = b, A K = 0 with K of full rank, y A = 0 and y·b = 1 for an inconsistency certificate,
 * A v = 0 with v ≠ 0 for a singularity certificate, and Y A = 0 with Y of full rank for the left kernel.
 */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RATIONALS, resolveMatrixRing, type Field, type MatrixPayload } from '@jacobian/shared';
import { gpScript, probePari, runGp, type GpSection, type PariTools } from '../providers/pari.js';
import { linearAlgebraKernel, type LinearAlgebraKernelInput, type LinearAlgebraKernelOutput } from './linear-algebra.kernel.js';
import { generator, gpOptions, matrix, randomIntegerCases, randomMatrix } from './matrix-test-support.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));

/** Our engine, as the capabilities run it (in-process here). */
function ours<O extends LinearAlgebraKernelOutput['operation']>(input: LinearAlgebraKernelInput & { operation: O }): Extract<LinearAlgebraKernelOutput, { operation: O }> {
  const ctx = { deadline: Date.now() + 60_000, signal: new AbortController().signal, progress: () => undefined };
  return linearAlgebraKernel(input, ctx) as Extract<LinearAlgebraKernelOutput, { operation: O }>;
}

interface Case {
  name: string;
  matrix: MatrixPayload;
  /** Right-hand sides: the first is A x0 (always consistent), the second random. */
  rhs: string[][];
}

const NUMBER = /^-?(0|[1-9]\d*)(\/[1-9]\d*)?$/;
/** A gp literal of our own numbers (checked against the number grammar), over GF(p) wrapped in Mod. */
function literal(A: MatrixPayload, body: string, entries: readonly string[]): string {
  for (const x of entries) if (!NUMBER.test(x)) throw new Error(`not a number: ${x}`);
  return A.ring.kind === 'GF' ? `Mod(${body},${A.ring.characteristic})` : body;
}
const column = (A: MatrixPayload, v: readonly string[]): string => literal(A, `[${v.join(',')}]~`, v);
const row = (A: MatrixPayload, v: readonly string[]): string => literal(A, `[${v.join(',')}]`, v);
/** The matrix whose rows are `rows` (each of length `width`), empty allowed. */
const rowsMatrix = (A: MatrixPayload, rows: readonly (readonly string[])[], width: number): string =>
  rows.length === 0 ? `matrix(0,${width})` : literal(A, `Mat([${rows.map((r) => r.join(',')).join(';')}])`, rows.flat());

function cases(): Case[] {
  const random = generator(20261208);
  const out: { name: string; matrix: MatrixPayload }[] = randomIntegerCases(random, [
    [4, 4, 10n, 4],
    [5, 5, 1000n, 3],
    [3, 6, 50n, 3],
    [3, 6, 50n, 2],
    [6, 3, 50n, 3],
    [6, 3, 50n, 2],
    [4, 4, 1n << 64n, 4],
    [5, 5, 1n << 64n, 4],
    [4, 6, 1n << 64n, 3],
    [7, 7, 3n, 7],
    [1, 4, 9n, 1],
    [4, 1, 9n, 1],
    [1, 1, 12n, 1],
  ]);
  const Z = { kind: 'Z' } as const;
  out.push({ name: 'Z zero 3×4', matrix: matrix(Z, [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]) });
  out.push({ name: 'Z 1..9 (singular)', matrix: matrix(Z, [[1, 2, 3], [4, 5, 6], [7, 8, 9]]) });
  out.push({ name: 'Z zero column and zero row', matrix: matrix(Z, [[0, 2, 1, 0], [0, 0, 0, 0], [0, 4, 3, 5]]) });
  out.push({ name: 'Q Hilbert 5', matrix: matrix({ kind: 'Q' }, Array.from({ length: 5 }, (_, i) => Array.from({ length: 5 }, (_, j) => `1/${i + j + 1}`))) });
  out.push({ name: 'Q 3×4 rank 2', matrix: matrix({ kind: 'Q' }, [['1/2', '-3', '4/5', 1], [1, -6, '8/5', 2], [0, '7/3', 1, '-1/9']]) });
  // Random rationals: an integer matrix of rank 3 with each row and column scaled by 1/d.
  for (const [m, n] of [[4, 4], [5, 3], [3, 5]] as const) {
    const M = randomMatrix(random, m, n, 1000n, 3);
    const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
    const rows = M.map((r, i) =>
      r.map((x, j) => {
        const d = BigInt(i + 2) * BigInt(2 * j + 3);
        const g = gcd(x, d);
        return g === d ? (x / d).toString() : `${x / g}/${d / g}`;
      }),
    );
    out.push({ name: `Q ${m}×${n} rank ≤ 3 with denominators`, matrix: matrix({ kind: 'Q' }, rows) });
  }
  for (const [p, m, n, rank] of [
    ['7', 5, 5, 5],
    ['2', 6, 6, 4],
    ['3', 4, 6, 3],
    ['5', 6, 4, 2],
    ['1000000007', 5, 5, 4],
    ['1000000007', 4, 4, 4],
    ['170141183460469231731687303715884105727', 4, 4, 4],
    ['170141183460469231731687303715884105727', 5, 3, 2],
  ] as const) {
    const P = BigInt(p);
    const rows = randomMatrix(random, m, n, P, rank).map((r) => r.map((x) => (((x % P) + P) % P).toString()));
    out.push({ name: `GF(${p.length > 12 ? '2^127-1' : p}) ${m}×${n} rank ≤ ${rank}`, matrix: matrix({ kind: 'GF', characteristic: p }, rows) });
  }
  return out.map(({ name, matrix: A }) => {
    const F = (resolveMatrixRing(A.ring).field ?? RATIONALS) as Field<unknown>;
    const entry = (x: string): unknown => F.parseCanonical(x) ?? F.fromBigInt(BigInt(x));
    const x0 = Array.from({ length: A.ncols }, () => F.fromBigInt(random(5n)));
    const consistent = A.rows.map((r) => F.format(r.reduce((s, a, j) => F.add(s, F.mul(entry(a), x0[j])), F.zero)));
    const other = Array.from({ length: A.nrows }, () => F.format(F.fromBigInt(random(7n))));
    return { name, matrix: A, rhs: [consistent, other] };
  });
}

describe.skipIf(GP === undefined)('rref, inverse, linear systems and kernels agree with PARI/GP', () => {
  let tools: PariTools;
  beforeAll(async () => {
    tools = (await probePari({ binary: GP as string })).tools;
  });

  for (const { name, matrix: A, rhs } of cases()) {
    it(name, async () => {
      const square = A.nrows === A.ncols;
      const sections: GpSection[] = [
        { name: 'rank', statements: 'r=matrank(A);print(r);' },
        { name: 'pivots', statements: 'P=[];k=0;for(j=1,#A,if(matrank(A[,1..j])>k,k++;P=concat(P,j)));jv(P);' },
        { name: 'rref', statements: 'if(r,B=matimage(A~)~;jm(lift(vecextract(B,P)^-1*B)));' },
        { name: 'kernels', statements: 'print(#matker(A));print(#matker(A~));' },
        ...rhs.map((_, k) => ({ name: `solve${k}`, statements: `X=matinverseimage(A,b${k});jv(lift(X));` })),
        ...(square ? [{ name: 'inverse', statements: 'print(matdet(A)==0);if(matdet(A),jm(lift(A^-1)));' }] : []),
      ];
      const setup = rhs.map((b, k) => `b${k}=${column(A, b)};`);
      const pari = (await runGp(tools.binary, gpScript(A, sections, setup), sections.map((s) => s.name), gpOptions())).sections;
      const one = (section: string, line = 0): string => pari[section]?.[line]?.[0] ?? 'missing';
      const rank = Number(one('rank'));
      const [kernelDim, leftDim] = [Number(one('kernels', 0)), Number(one('kernels', 1))];

      // RREF: equal to PARI's B[,P]^-1 B, pivots and rank equal.
      const rref = ours({ operation: 'rref', matrix: A });
      expect(rref.rank).toBe(rank);
      expect(rref.pivots.map((j) => String(j + 1))).toEqual(pari['pivots']?.[0]);
      expect(rref.rref).toEqual(pari['rref']);

      // Checks gp runs on our vectors: each prints 1 when it holds.
      const checks: { label: string; setup?: string; expr: string }[] = [];

      // Kernels: dimensions as PARI's matker; the vectors are killed by A and independent.
      const kernels = ours({ operation: 'nullspace', matrix: A });
      expect(kernels.rank).toBe(rank);
      expect(kernels.right.length).toBe(kernelDim);
      expect(kernels.left.length).toBe(leftDim);
      checks.push({ label: 'A K = 0, rank K = #K (right kernel)', setup: `K=${rowsMatrix(A, kernels.right, A.ncols)}~;`, expr: 'A*K==0&&matrank(K)==#K' });
      checks.push({ label: 'Y A = 0, rank Y = #Y (left kernel)', setup: `Y=${rowsMatrix(A, kernels.left, A.nrows)};`, expr: 'Y*A==0&&matrank(Y)==#Y~' });

      // Linear systems: consistency as matinverseimage says; then gp checks our vectors.
      rhs.forEach((b, k) => {
        const solved = ours({ operation: 'solve', matrix: A, rhs: b });
        const theirs = pari[`solve${k}`]?.[0] ?? [];
        expect(solved.rank).toBe(rank);
        expect(solved.consistent, `b${k}`).toBe(theirs.length > 0);
        if (k === 0) expect(solved.consistent).toBe(true);
        if (solved.consistent) {
          expect(solved.kernel.length).toBe(kernelDim);
          if (kernelDim === 0) expect(solved.solution).toEqual(theirs);
          checks.push({ label: `A x = b${k}`, expr: `A*${column(A, solved.solution)}==b${k}` });
          checks.push({ label: `kernel of solve ${k}`, setup: `K=${rowsMatrix(A, solved.kernel, A.ncols)}~;`, expr: 'A*K==0&&matrank(K)==#K' });
        } else {
          checks.push({ label: `y A = 0, y b${k} = 1`, setup: `y=${row(A, solved.certificate)};`, expr: `y*A==0&&y*b${k}==1` });
        }
      });

      // Inverse: A^-1 exactly, refused exactly when matdet(A) == 0, with a kernel vector.
      if (square) {
        const inverse = ours({ operation: 'inverse', matrix: A });
        const singular = one('inverse') === '1';
        expect(!inverse.invertible).toBe(singular);
        if (inverse.invertible) expect(inverse.inverse).toEqual(pari['inverse']?.slice(1));
        else {
          expect(inverse.rank).toBe(rank);
          checks.push({ label: 'A v = 0, v ≠ 0 (singular)', setup: `v=${column(A, inverse.kernel_vector)};`, expr: 'v!=0&&A*v==0' });
        }
      }

      const verdicts = (await runGp(tools.binary, gpScript(A, [{ name: 'checks', statements: checks.map((c) => `${c.setup ?? ''}print(if(${c.expr},1,0));`).join('') }], rhs.map((b, k) => `b${k}=${column(A, b)};`)), ['checks'], gpOptions())).sections['checks'] ?? [];
      expect(verdicts.length).toBe(checks.length);
      expect(checks.filter((_, i) => verdicts[i]?.[0] !== '1').map((c) => c.label)).toEqual([]);
    });
  }
});
