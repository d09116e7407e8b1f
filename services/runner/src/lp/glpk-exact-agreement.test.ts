/**
 * Our exact simplex against GLPK's exact simplex (`glpsol --exact`, GMP rationals), a peer tool
 * (skipped where /usr/bin/glpsol is not installed), on seeded random linear programs in all three
 * outcomes, with ≤, = and ≥ rows, free, bounded, upper-only and fixed variables and fractional
 * data (thirds, sevenths, tenths).
 *
 * What glpsol is given: the same problem in integers only (glpkExactFeed: columns scaled so that
 * bounds are integers, then rows and objective scaled to integers, every number at most 2^53),
 * since glpsol reads numbers as doubles and 1/3 or 0.1 has none; written with our CPLEX LP writer
 * for even seeds and our free MPS writer for odd ones, and read back by our own readers to the
 * same problem. What is compared:
 * - the outcome, exactly (glpsol's solution statuses and its log line);
 * - OPTIMAL: glpsol's printed objective (%.15g of a double) against F times our exact value, to
 *   within a unit of its 15th significant digit; and exactly: glpsol's final basis (its row and
 *   column statuses, which are exact), installed as our simplex's start on the original problem,
 *   needs no pivot (it is optimal in our exact arithmetic too) and gives our exact value, with a
 *   certificate our own check accepts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalLpProblem, parseCplexLp, parseFreeMps, RATIONALS, type LpProblem, type LpProblemInput } from '@jacobian/shared';
import { glpkExactFeed, glpkValueAgrees, mulberry32, readGlpkBasicSolution, type GlpkBasicSolution, type GlpkStatus } from '@jacobian/shared/testing';
import { certificateFailures } from './certificate-check.js';
import type { StartBasis, StartStatus } from './simplex.js';
import { solveLp } from './solve-lp.js';

const GLPSOL = '/usr/bin/glpsol';
const HAVE_GLPSOL = existsSync(GLPSOL);

/** A random problem; `large` gives 15–30 variables and rows, else 2–8. */
function randomProblem(seed: number): LpProblemInput {
  const random = mulberry32(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const large = seed % 10 === 9;
  const number = (): string => {
    const kind = random();
    if (kind < 0.35) return `${int(-20, 20)}/${int(2, 7)}`;
    if (kind < 0.5) return (int(-99, 99) / 10).toFixed(1);
    return String(int(-9, 9));
  };
  const n = large ? int(15, 30) : int(2, 8);
  const m = large ? int(15, 30) : int(1, 8);
  const names = Array.from({ length: n }, (_, j) => `x${j + 1}`);
  const variables = names.map((name) => {
    const kind = random();
    const low = `${int(-12, 6)}/${int(1, 4)}`;
    if (kind < 0.4) return { name };
    if (kind < 0.55) return { name, lower: null };
    if (kind < 0.72) return { name, lower: low, upper: `${int(25, 60)}/${int(1, 4)}` };
    if (kind < 0.82) return { name, lower: null, upper: `${int(-6, 12)}/${int(1, 5)}` };
    if (kind < 0.92) return { name, lower: low };
    return { name, lower: low, upper: low };
  });
  const form = (density: number): Record<string, string> => Object.fromEntries(names.flatMap((name) => (random() < density ? [[name, number()]] : [])));
  const constraints = Array.from({ length: m }, (_, i) => {
    let coefficients = form(large ? 0.4 : 0.7);
    if (Object.keys(coefficients).length === 0) coefficients = { [names[int(0, n - 1)] ?? 'x1']: number() };
    return { name: `r${i + 1}`, coefficients, relation: (['<=', '>=', '='] as const)[int(0, 2)] as '<=' | '>=' | '=', rhs: number() };
  });
  return { sense: random() < 0.5 ? 'minimize' : 'maximize', variables, objective: form(0.8), constraints };
}

const START: Record<GlpkStatus, StartStatus> = { b: 'basic', l: 'lower', u: 'upper', f: 'zero', s: 'lower' };
const LOG_LINE: Record<GlpkBasicSolution['outcome'], string> = { OPTIMAL: 'OPTIMAL SOLUTION FOUND', INFEASIBLE: 'PROBLEM HAS NO FEASIBLE SOLUTION', UNBOUNDED: 'PROBLEM HAS UNBOUNDED SOLUTION' };

describe.skipIf(!HAVE_GLPSOL)(`our exact simplex against glpsol --exact${HAVE_GLPSOL ? '' : ` (skipped: ${GLPSOL} not installed; apt-get install glpk-utils)`}`, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lp-glpk-exact-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function glpsol(problem: LpProblem, seed: number): { answer: GlpkBasicSolution; factor: ReturnType<typeof glpkExactFeed>['factor'] } {
    const feed = glpkExactFeed(problem, seed % 2 === 0 ? 'lp' : 'mps');
    // glpsol sees exactly the scaled problem: our own readers read the text back to it.
    const back = canonicalLpProblem(feed.format === 'lp' ? parseCplexLp(feed.text) : { ...parseFreeMps(feed.text), sense: problem.sense });
    expect(back).toEqual(canonicalLpProblem(feed.scaled));
    const input = path.join(dir, `p${seed}.${feed.format}`);
    const output = path.join(dir, `p${seed}.sol`);
    writeFileSync(input, feed.text);
    const run = spawnSync(GLPSOL, [...feed.args, input, '--exact', '-w', output], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    // The exact simplex ran (not the floating-point one).
    expect(run.stdout).toContain('glp_exact:');
    const answer = readGlpkBasicSolution(readFileSync(output, 'utf8'), problem.constraints.length, problem.variables.length);
    expect(run.stdout).toContain(LOG_LINE[answer.outcome]);
    return { answer, factor: feed.factor };
  }

  it('agrees on the outcome of 240 random LPs (each outcome at least 40 times) and on the exact optimal value, through glpsol’s own final basis', () => {
    const seen = { OPTIMAL: 0, INFEASIBLE: 0, UNBOUNDED: 0 };
    let pivotsSaved = 0;
    for (let seed = 1; seed <= 240; seed++) {
      const problem = canonicalLpProblem(randomProblem(seed));
      const ours = solveLp(problem);
      const { answer, factor } = glpsol(problem, seed);
      expect(answer.outcome, `seed ${seed}`).toBe(ours.certificate.outcome);
      seen[answer.outcome]++;
      if (answer.outcome !== 'OPTIMAL') continue;
      const exact = RATIONALS.parseCanonical(ours.certificate.objective_value ?? '') ?? RATIONALS.zero;
      expect(glpkValueAgrees(answer.objective, factor, exact), `seed ${seed}: glpsol printed ${answer.objectiveText}, ours × ${RATIONALS.format(factor)} is ${RATIONALS.format(RATIONALS.mul(factor, exact))}`).toBe(true);
      const start: StartBasis = { columns: answer.columnStatus.map((s) => START[s]), rows: answer.rowStatus.map((s) => START[s]) };
      const fromGlpk = solveLp(problem, { start });
      expect(fromGlpk.record.stats.start_rejected, `seed ${seed}`).toBe(0);
      expect(fromGlpk.record.stats.phase1_pivots + fromGlpk.record.stats.phase2_pivots, `seed ${seed}: glpsol's basis is not optimal in exact arithmetic`).toBe(0);
      expect(fromGlpk.certificate.objective_value).toBe(ours.certificate.objective_value);
      expect(certificateFailures(problem, fromGlpk.certificate)).toEqual([]);
      pivotsSaved += ours.record.stats.phase1_pivots + ours.record.stats.phase2_pivots;
    }
    expect(seen.OPTIMAL).toBeGreaterThanOrEqual(40);
    expect(seen.INFEASIBLE).toBeGreaterThanOrEqual(40);
    expect(seen.UNBOUNDED).toBeGreaterThanOrEqual(40);
    // The optimal problems are not all trivial: from the slack basis they took pivots.
    expect(pivotsSaved).toBeGreaterThan(200);
  }, 60_000);

  it('a value glpsol prints wrong in the 14th digit, or a basis that is not optimal, is caught', () => {
    const problem = canonicalLpProblem({
      sense: 'maximize',
      variables: [{ name: 'x', upper: '1/3' }, { name: 'y' }],
      objective: { x: '1/7', y: 1 },
      constraints: [{ name: 'c', coefficients: { x: 1, y: 3 }, relation: '<=', rhs: 1 }],
    });
    const { answer, factor } = glpsol(problem, 0);
    expect(answer.outcome).toBe('OPTIMAL');
    const ours = solveLp(problem);
    const exact = RATIONALS.parseCanonical(ours.certificate.objective_value ?? '') ?? RATIONALS.zero;
    expect(glpkValueAgrees(answer.objective, factor, exact)).toBe(true);
    // Off by 2·10^-14 relative: refused.
    expect(glpkValueAgrees(RATIONALS.mul(answer.objective, RATIONALS.fromFraction(50_000_000_000_001n, 50_000_000_000_000n)), factor, exact)).toBe(false);
    // The slack basis is no optimal basis: installed as a start, it costs pivots.
    const slack: StartBasis = { columns: ['lower', 'lower'], rows: ['basic'] };
    const fromSlack = solveLp(problem, { start: slack });
    expect(fromSlack.record.stats.phase2_pivots).toBeGreaterThan(0);
  });

  it('reads glpsol’s solution file strictly', () => {
    const good = 'c Problem:\nc\ns bas 1 2 f f 3.5\ni 1 u 3 1\nj 1 b 1 0\nj 2 l 0 -0.5\ne o f\n';
    expect(readGlpkBasicSolution(good, 1, 2)).toMatchObject({ outcome: 'OPTIMAL', objectiveText: '3.5', rowStatus: ['u'], columnStatus: ['b', 'l'] });
    for (const bad of [good.replace('s bas 1 2', 's bas 2 2'), good.replace('j 2 l', 'j 2 x'), good.replace('e o f\n', ''), `${good}j 3 b 0 0\n`, good.replace('3.5', '3,5'), good.replace('f f', 'u f'), good.replace('j 1 b', 'j 2 b')]) {
      expect(() => readGlpkBasicSolution(bad, 1, 2)).toThrow(/glpsol's solution file/);
    }
  });
});
