/**
 * The lattice engine against PARI/GP, a peer tool (skipped where `gp` is not installed): the rank
 * and squared covolume of the lattice, the exact length λ_1 of a shortest vector (qfminim) against
 * the first LLL vector (never shorter, and within the LLL bound α^(r−1) λ_1²), and the index of a
 * sublattice from PARI's own Hermite bases.
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lllReduce, sublatticeIndex } from './lattice-engine.js';

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
