/**
 * The lattice engine against PARI/GP, a peer tool (skipped where `gp` is not installed): the rank
 * and squared covolume of the lattice, the exact length λ_1 of a shortest vector (qfminim) against
 * the first LLL vector (never shorter, and within the LLL bound α^(r−1) λ_1²), and the index of a
 * sublattice from PARI's own Hermite bases. Then PARI's qflll as the provider of
 * lattice.basis.reduce: its answers, rechecked by adoptLllAnswer, pass the textbook LLL test and
 * span the lattice our engine's do (the bases themselves may differ: LLL is not unique), and the
 * capability says which provider served, falling back to our engine where qflll cannot serve δ.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, type CapabilityDefinition, type CapabilityResult, type InstalledCapability, type MatrixPayload } from '@jacobian/shared';
import { compositeIdentity } from '../providers/executable.js';
import { PARI_PROVIDER, probePari, type PariTools } from '../providers/pari.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { LINEAR_ALGEBRA_TS_PROVIDER } from './capability-support.js';
import { latticeBasisReduce, type LatticeReduceOutput } from './lattice-basis-reduce.js';
import { adoptLllAnswer, lllReduce, sublatticeIndex, type Delta } from './lattice-engine.js';
import { asText, generator, gpOptions, isLllReduced, matrix as payload, randomIntegerCases, sameLattice } from './matrix-test-support.js';
import { PARI_LLL_METHOD, pariLll } from './pari-backend.js';

const gp = spawnSync('gp', ['--version-short'], { encoding: 'utf8' });
const available = gp.status === 0;

/** Run a GP script, one printed value per line. */
function pari(script: string): string[] {
  const result = spawnSync('gp', ['-q', '-f', '--default', 'parisizemax=256M'], { input: `${script}\nquit\n`, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`gp failed: ${result.stderr}`);
  return result.stdout.trim().split('\n');
}

const gpMatrix = (M: readonly (readonly bigint[])[]): string => `Mat([${M.map((row) => row.join(",")).join(";")}])`;
const entry = fc.bigInt({ min: -60n, max: 60n });
const matrix = (rows: number, cols: number) => fc.array(fc.array(entry, { minLength: cols, maxLength: cols }), { minLength: rows, maxLength: rows });
const norm = (v: readonly bigint[]): bigint => v.reduce((s, x) => s + x * x, 0n);

describe.skipIf(!available)(`the lattice engine against PARI/GP${available ? '' : ' (skipped: gp not installed)'}`, () => {
  it('LLL (δ = 3/4 and 0.99): rank and covolume² as PARI finds them; the first vector no shorter than λ_1 (qfminim) and within α^(r−1) λ_1²', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }).chain((m) => fc.tuple(fc.constant(m), fc.integer({ min: 1, max: 6 }))).chain(([m, n]) => matrix(m, n)),
        fc.constantFrom({ num: 3n, den: 4n }, { num: 99n, den: 100n }),
        (B, delta) => {
          const out = lllReduce(B, delta);
          const [rank, covolume, minimum] = pari(`M=${gpMatrix(B)}; H=mathnf(M~); G=H~*H; print(matrank(M)); print(matdet(G)); print(if(#H, qfminim(G,,0)[2], 0))`);
          expect(out.rank).toBe(Number(rank));
          if (out.rank === 0) return;
          expect(out.gram[out.rank - 1]?.toString()).toBe(covolume);
          const first = norm(out.reduced[0] as bigint[]);
          const lambda = BigInt(minimum as string);
          expect(first >= lambda).toBe(true);
          // |b_1|² ≤ α^(r−1) λ_1² with α = 4q/(4p − q).
          const power = BigInt(out.rank - 1);
          expect(first * (4n * delta.num - delta.den) ** power <= lambda * (4n * delta.den) ** power).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('[L : L′] for L′ = C·(generators of L): the index squared is PARI\'s ratio of Gram determinants of the Hermite bases, or the ranks differ', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(matrix(n + 1, n), fc.integer({ min: 1, max: n + 2 }))).chain(([A, k]) => fc.tuple(fc.constant(A), fc.array(fc.array(fc.bigInt({ min: -4n, max: 4n }), { minLength: A.length, maxLength: A.length }), { minLength: k, maxLength: k }))),
        ([A, C]) => {
          const S = C.map((row) => (A[0] ?? []).map((_, j) => row.reduce((s, c, i) => s + c * ((A[i] as bigint[])[j] as bigint), 0n)));
          const result = sublatticeIndex(A, S);
          if (!result.contained) throw new Error('C·A spans a sublattice of A');
          const [rankL, rankS, ratio] = pari(`A=${gpMatrix(A)}; S=${gpMatrix(S)}; HA=mathnf(A~); HS=mathnf(S~); print(#HA); print(#HS); print(if(#HA==#HS, matdet(HS~*HS)/matdet(HA~*HA), -1))`);
          expect(result.rank).toBe(Number(rankL));
          expect(result.sublatticeRank).toBe(Number(rankS));
          if (result.index === null) expect(result.sublatticeRank).toBeLessThan(result.rank);
          else expect((result.index * result.index).toString()).toBe(ratio);
        },
      ),
      { numRuns: 40 },
    );
  });
});

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));
const big = (M: readonly (readonly string[])[]): bigint[][] => M.map((row) => row.map((x) => BigInt(x)));
const multiplyRows = (A: readonly (readonly bigint[])[], B: readonly (readonly bigint[])[]): bigint[][] => A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));

/** Lattices of every shape: random full rank, dependent generators, tall, wide, ±2^64 entries, a knapsack, zero. */
function lllCases(): { name: string; matrix: MatrixPayload }[] {
  const random = generator(20261207);
  const Z = { kind: 'Z' } as const;
  const out = randomIntegerCases(random, [
    [4, 4, 50n, 4],
    [6, 6, 1000n, 6],
    [3, 7, 100n, 3],
    [7, 3, 100n, 3],
    [6, 4, 20n, 2],
    [5, 5, 1n << 64n, 5],
    [8, 8, 1n << 64n, 8],
    [5, 5, 1n << 64n, 3],
    [1, 3, 9n, 1],
    [12, 12, 1n << 20n, 12],
  ]);
  const a = [1234567n, 2345678n, 3580245n, 98765431n];
  out.push({ name: 'knapsack rows e_i | 10^8 a_i', matrix: payload(Z, asText(a.map((x, i) => [...a.map((_, j) => (i === j ? 1n : 0n)), x * 10n ** 8n]))) });
  out.push({ name: 'zero 2×3', matrix: payload(Z, [[0, 0, 0], [0, 0, 0]]) });
  return out;
}

describe.skipIf(GP === undefined)('PARI/GP qflll as a provider of lattice.basis.reduce', () => {
  let tools: PariTools;
  beforeAll(async () => {
    tools = (await probePari({ binary: GP as string })).tools;
  });

  it('PARI\'s answers, rechecked and size-reduced exactly, are δ-reduced (textbook test) for δ = 3/4 and 0.97, and span the lattice our engine reduces; the bases may differ', async () => {
    const deltas: Delta[] = [{ num: 3n, den: 4n }, { num: 97n, den: 100n }];
    let differing = 0;
    for (const { name, matrix } of lllCases()) {
      const B = big(matrix.rows);
      const answer = await pariLll(tools, matrix, gpOptions());
      for (const delta of deltas) {
        const adopted = adoptLllAnswer(B, big(answer.transform), big(answer.reduced), delta);
        // (0.51, 0.99)-reduced, then size-reduced: Lovász holds for every δ ≤ 0.99 − 0.51² + 0.49² = 0.97.
        if (!adopted.accepted) throw new Error(`${name}: PARI's basis fails Lovász at row ${adopted.row} for δ = ${delta.num}/${delta.den}`);
        const basis = adopted.reduced.slice(0, adopted.rank);
        expect(isLllReduced(basis, delta), name).toBe(true);
        expect(multiplyRows(adopted.transform, B), name).toEqual(adopted.reduced);
        const ours = lllReduce(B, delta);
        expect(adopted.rank, name).toBe(ours.rank);
        expect(adopted.gram.at(-1), name).toBe(ours.gram.at(-1));
        expect(sameLattice(basis, ours.reduced.slice(0, ours.rank)), name).toBe(true);
        expect(sameLattice(basis, B), name).toBe(true);
        if (JSON.stringify(basis.map((r) => r.map(String))) !== JSON.stringify(ours.reduced.slice(0, ours.rank).map((r) => r.map(String)))) differing++;
      }
    }
    // LLL is not unique: on these cases PARI's bases differ from ours in 11 of 24 (PARI 2.15.2), as the descriptor says.
    expect(differing).toBeGreaterThan(0);
  });

  describe('the capability on the PARI/GP runtime', () => {
    let h: CapabilityHarness;
    let capability: InstalledCapability;
    let dir: string;
    const PARI_RUNTIME = { ...FAKE_RUNTIME, provider: PARI_PROVIDER };
    beforeAll(async () => {
      h = await createCapabilityHarness();
      capability = h.install(latticeBasisReduce(PARI_RUNTIME, { pari: { tools } }) as unknown as CapabilityDefinition<never, unknown>, PARI_RUNTIME);
      dir = await mkdtemp(path.join(tmpdir(), 'jacobian-qflll-'));
    });
    afterAll(async () => {
      await h?.[Symbol.asyncDispose]();
      await rm(dir, { recursive: true, force: true });
    });
    const run = (cap: InstalledCapability, payload: unknown): Promise<CapabilityResult> => h.run(cap, { capability_id: 'lattice.basis.reduce', payload });
    const completed = (result: CapabilityResult): LatticeReduceOutput => {
      expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
      expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
      return result.output as LatticeReduceOutput;
    };

    it('serves δ ≤ 99/100 on PARI/GP (engine and assurance say so, swaps null), δ above on our engine with a note', async () => {
      const rows = [[1, 1, 1], [-1, 0, 2], [3, 5, 6], [2, 6, 9]];
      const onPari = await run(capability, { matrix: { ring: { kind: 'Z' }, rows }, delta: '0.99' });
      const out = completed(onPari);
      expect(out.engine).toMatchObject({ provider: PARI_PROVIDER, method: PARI_LLL_METHOD });
      expect(out.swaps).toBeNull();
      expect(onPari.assurance.basis).toMatch(/PARI\/GP/);
      expect(out).toMatchObject({ rank: 3, dependent_generators: true, delta: '99/100' });
      expect(multiplyRows(big(out.transform), big(rows.map((r) => r.map(String))))).toEqual(big(out.reduced));
      expect(isLllReduced(big(out.reduced.slice(0, 3)), { num: 99n, den: 100n })).toBe(true);
      expect(out.result_uri).not.toBeNull();

      const onOurs = await run(capability, { matrix: { ring: { kind: 'Z' }, rows }, delta: '1' });
      const ours = completed(onOurs);
      expect(ours.engine.provider).toBe(LINEAR_ALGEBRA_TS_PROVIDER);
      expect(typeof ours.swaps).toBe('number');
      expect(onOurs.assurance.basis).toMatch(/TypeScript/);
      expect(onOurs.diagnostics).toContainEqual(expect.objectContaining({ severity: 'INFO', code: 'PROVIDER_FALLBACK', path: ['payload', 'delta'] }));
      expect(capability.descriptor.description).toMatch(/PARI\/GP serves δ ≤ 99\/100/);
      expect(capability.descriptor.tags).toContain('pari-gp');
    });

    it('falls back to our engine when PARI\'s basis fails the Lovász condition for δ, and refuses a wrong PARI answer', async () => {
      const fake = async (name: string, answer: string): Promise<PariTools> => {
        const binary = path.join(dir, name);
        await writeFile(binary, `#!/bin/sh\ncat >/dev/null\nprintf '${answer}'\n`);
        await chmod(binary, 0o755);
        const { components, digest } = await compositeIdentity(binary, []);
        return { binary, version: '2.15.2', components, digest };
      };
      const rows = [['3', '0'], ['0', '2']];
      // A "qflll" answering the input itself: (3, 0), (0, 2) is reduced for δ = 26/100, not for δ = 3/4.
      const lazy = h.install(latticeBasisReduce(PARI_RUNTIME, { pari: { tools: await fake('gp-lazy', '@@jacobian:image\\n1 0\\n0 1\\n@@jacobian:kernel\\n@@jacobian:reduced\\n3 0\\n0 2\\n@@jacobian:end\\n') } }) as unknown as CapabilityDefinition<never, unknown>, PARI_RUNTIME);
      const low = completed(await run(lazy, { matrix: { ring: { kind: 'Z' }, rows }, delta: '26/100' }));
      expect(low.engine.provider).toBe(PARI_PROVIDER);
      const fallback = await run(lazy, { matrix: { ring: { kind: 'Z' }, rows } });
      const out = completed(fallback);
      expect(out.engine.provider).toBe(LINEAR_ALGEBRA_TS_PROVIDER);
      expect(out.reduced).toEqual([['0', '2'], ['3', '0']]);
      expect(fallback.diagnostics).toContainEqual(expect.objectContaining({ code: 'PROVIDER_FALLBACK', message: expect.stringMatching(/fails the Lovász condition with δ = 3\/4 at row 1/) as unknown }));
      // A "qflll" whose transform does not give its basis: PROVIDER_FAILED, nothing returned.
      const wrong = h.install(latticeBasisReduce(PARI_RUNTIME, { pari: { tools: await fake('gp-wrong', '@@jacobian:image\\n1 0\\n0 1\\n@@jacobian:kernel\\n@@jacobian:reduced\\n3 0\\n0 1\\n@@jacobian:end\\n') } }) as unknown as CapabilityDefinition<never, unknown>, PARI_RUNTIME);
      const refused = await run(wrong, { matrix: { ring: { kind: 'Z' }, rows } });
      expect(refused.execution.status).toBe('ERROR');
      expect(refused.diagnostics).toContainEqual(expect.objectContaining({ code: 'PROVIDER_FAILED' }));
    });
  });
});
