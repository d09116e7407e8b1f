/**
 * CBC and GLPK against each other on random small mixed-integer programs with fractional data,
 * through the capability: each answer's incumbent is checked exactly by us, so two OPTIMAL
 * answers must have the same exact objective (the optimum is unique even when the point is not).
 * Also the paths that need a real solver: a time limit with an incumbent (FEASIBLE), a pure LP
 * (glpsol's basic-solution file), cancellation, and a solver whose answer was tampered with.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, canonicalLpProblem, type CapabilityResult, type InstalledCapability, type LpProblemInput } from '@jacobian/shared';
import { mulberry32 } from '@jacobian/shared/testing';
import { createCapabilityHarness, type CapabilityHarness } from '../../testing/fixtures.js';
import { compositeIdentity, fileStamps, rememberVerifiedStamp } from '../../providers/executable.js';
import { milpSolverProvider, probeMilpSolver, runMilpSolver, type MilpSolverProbe, type MilpSolverTools } from '../../providers/milp-solvers.js';
import { exactMilp } from './exact-problem.js';
import { milpSolve, type MilpSolveOutput } from './milp-solve.js';
import { writeSolverMps } from './solver-mps.js';

const HAVE_CBC = existsSync('/usr/bin/cbc');
const HAVE_GLPK = existsSync('/usr/bin/glpsol');

function ok(result: CapabilityResult): MilpSolveOutput {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  return result.output as MilpSolveOutput;
}

/** A random program: integers and continuous variables, thirds and halves in the data. */
function randomMixedProgram(seed: number): LpProblemInput {
  const random = mulberry32(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const number = (): string => (random() < 0.3 ? `${int(-9, 9)}/${[2, 3, 6][int(0, 2)]}` : String(int(-5, 5)));
  const n = int(2, 6);
  const names = Array.from({ length: n }, (_, j) => `v${j}`);
  const variables = names.map((name) =>
    random() < 0.6 ? { name, lower: int(-3, 0), upper: int(1, 4), integer: true } : { name, lower: `${int(-6, 0)}/${int(1, 3)}`, upper: `${int(1, 12)}/${int(1, 3)}` },
  );
  const form = (): Record<string, string> => Object.fromEntries(names.flatMap((name) => (random() < 0.7 ? [[name, number()]] : [])));
  const constraints = Array.from({ length: int(1, 4) }, () => ({ coefficients: form(), relation: (['<=', '>=', '='] as const)[int(0, 2)] as '<=' | '>=' | '=', rhs: number() }));
  return { sense: random() < 0.5 ? 'minimize' : 'maximize', variables, objective: form(), objective_constant: number(), constraints };
}

/** A market-split program with slacks (Cornuéjols–Dawande): an incumbent at once, optimality out of reach in a second. */
function marketSplit(seed: number, rows: number, columns: number): LpProblemInput {
  const random = mulberry32(seed);
  const a = Array.from({ length: rows }, () => Array.from({ length: columns }, () => Math.floor(random() * 100)));
  const xs = Array.from({ length: columns }, (_, j) => `x${j}`);
  return {
    sense: 'minimize',
    variables: [...xs.map((name) => ({ name, upper: 1, integer: true })), ...a.flatMap((_, i) => [{ name: `p${i}` }, { name: `q${i}` }])],
    objective: Object.fromEntries(a.flatMap((_, i) => [[`p${i}`, 1], [`q${i}`, 1]])),
    constraints: a.map((row, i) => ({ coefficients: { ...Object.fromEntries(xs.map((x, j) => [x, row[j] as number])), [`p${i}`]: 1, [`q${i}`]: -1 }, relation: '=' as const, rhs: Math.floor(row.reduce((s, v) => s + v, 0) / 2) })),
  };
}

describe.skipIf(!HAVE_CBC || !HAVE_GLPK)('CBC and GLPK agree', () => {
  let h: CapabilityHarness;
  const caps: Record<'cbc' | 'glpk', InstalledCapability> = {} as never;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    for (const kind of ['cbc', 'glpk'] as const) {
      const probe = milpSolverProvider(kind);
      const runtime = await probe.probe();
      caps[kind] = h.install(milpSolve(runtime, { [kind]: probe }), runtime);
    }
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (kind: 'cbc' | 'glpk', payload: unknown): Promise<CapabilityResult> => h.run(caps[kind], { capability_id: 'milp.solve', payload });

  it('on 40 random mixed-integer programs with fractional data: the same status and the same exact optimum', async () => {
    const seen = new Set<string>();
    for (let seed = 100; seed < 140; seed++) {
      const problem = randomMixedProgram(seed);
      const [cbc, glpk] = [ok(await run('cbc', { problem })), ok(await run('glpk', { problem }))];
      expect([cbc.status, cbc.objective], `seed ${seed}: ${JSON.stringify(problem)}`).toEqual([glpk.status, glpk.objective]);
      expect(['OPTIMAL', 'INFEASIBLE'], `seed ${seed}`).toContain(cbc.status);
      if (cbc.status === 'OPTIMAL') expect(cbc.incumbent_check?.verified).toBe(true);
      seen.add(cbc.status);
    }
    // The generator reaches both outcomes.
    expect([...seen].sort()).toEqual(['INFEASIBLE', 'OPTIMAL']);
  });

  it('a pure LP (no integer variables): glpsol’s basic solution and CBC’s, the same exact vertex', async () => {
    const problem: LpProblemInput = {
      sense: 'maximize',
      variables: [{ name: 'x' }, { name: 'y' }],
      objective: { x: 3, y: 2 },
      constraints: [
        { coefficients: { x: 1, y: 1 }, relation: '<=', rhs: '13/3' },
        { coefficients: { x: 1, y: 3 }, relation: '<=', rhs: 6 },
        { coefficients: { x: 1 }, relation: '<=', rhs: '7/2' },
      ],
    };
    // x = 7/2, y = 13/3 − 7/2 = 5/6: 21/2 + 5/3 = 73/6.
    for (const kind of ['cbc', 'glpk'] as const) expect(ok(await run(kind, { problem })), kind).toMatchObject({ status: 'OPTIMAL', objective: '73/6', solution: { x: '7/2', y: '5/6' } });
  });

  it('pure LPs without a solution: both solvers say INFEASIBLE, and UNBOUNDED, as claims', async () => {
    const infeasible: LpProblemInput = { sense: 'minimize', variables: [{ name: 'x', lower: null }], objective: { x: 1 }, constraints: [{ coefficients: { x: 1 }, relation: '>=', rhs: 2 }, { coefficients: { x: 1 }, relation: '<=', rhs: '3/2' }] };
    const unbounded: LpProblemInput = { sense: 'maximize', variables: [{ name: 'x' }, { name: 'y', lower: null }], objective: { x: 1 }, constraints: [{ coefficients: { x: 1, y: -1 }, relation: '<=', rhs: 1 }] };
    for (const kind of ['cbc', 'glpk'] as const) {
      expect(ok(await run(kind, { problem: infeasible })), kind).toMatchObject({ status: 'INFEASIBLE', solution: null });
      expect(ok(await run(kind, { problem: unbounded })), kind).toMatchObject({ status: 'UNBOUNDED', solution: null });
    }
  });

  it('a relative gap: the solver may stop early, and OPTIMAL then says it is within that gap', async () => {
    // 40 items, 3 knapsack rows: both solvers find an incumbent within 30 % of their bound at once.
    const random = mulberry32(3);
    const names = Array.from({ length: 40 }, (_, j) => `i${j}`);
    const problem: LpProblemInput = {
      sense: 'maximize',
      variables: names.map((name) => ({ name, upper: 1, integer: true })),
      objective: Object.fromEntries(names.map((name) => [name, 10 + Math.floor(random() * 90)])),
      constraints: Array.from({ length: 3 }, () => ({ coefficients: Object.fromEntries(names.map((name) => [name, 5 + Math.floor(random() * 40)])), relation: '<=' as const, rhs: 300 })),
    };
    for (const kind of ['cbc', 'glpk'] as const) {
      const result = await run(kind, { problem, relative_gap: '3/10' });
      const output = ok(result);
      expect(output.status, kind).toBe('OPTIMAL');
      expect(output.solver?.relative_gap).toBe(0.3);
      expect(output.reason).toMatch(/within the relative gap 0.3 asked for/);
      expect(result.assurance.basis).toMatch(/within the relative gap 0.3/);
    }
    const outside = await run('cbc', { problem, relative_gap: '3/2' });
    expect(outside.execution.status).toBe('ERROR');
    expect(outside.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'relative_gap'] });
  });

  it('a time limit with an incumbent: FEASIBLE, PARTIAL, the bound and gap labelled the solver’s', async () => {
    const problem = marketSplit(11, 5, 40);
    for (const kind of ['cbc', 'glpk'] as const) {
      const result = await run(kind, { problem, time_limit_s: 1 });
      const output = ok(result);
      expect(output.status, kind).toBe('FEASIBLE');
      expect(output.incumbent_check?.verified).toBe(true);
      expect(result.completeness.status).toBe('PARTIAL');
      expect(result.assurance.level).toBe('COMPUTED');
      expect(result.diagnostics.map((d) => d.code)).toContain('BUDGET_EXHAUSTED');
      expect(output.solver?.time_limit_s).toBe(1);
      // The exact objective (a sum of non-negative slacks) is what the solver said, up to its floating point.
      expect(Math.abs(Number(output.objective) - (output.solver?.objective ?? NaN))).toBeLessThan(1e-6);
      if (output.solver?.bound !== null && output.solver?.bound !== undefined) expect(output.solver.bound).toBeLessThanOrEqual(Number(output.objective) + 1e-6);
    }
  });
});

describe.skipIf(!HAVE_CBC)('solver runs are bounded, and a tampered answer is never called feasible', () => {
  let dir: string;
  let tools: MilpSolverTools;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'jacobian-milp-test-'));
    tools = (await probeMilpSolver('cbc')).tools;
  });
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('a cancelled run kills the solver and rejects with EXECUTION_CANCELLED', async () => {
    const written = writeSolverMps(exactMilp(canonicalLpProblem(marketSplit(5, 6, 60))), (field) => field);
    if (!('feed' in written)) throw new Error('the market split is not infeasible');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300).unref();
    await expect(runMilpSolver(tools, written.feed, { signal: controller.signal, deadline: Date.now() + 60_000, timeLimitS: 60, relativeGap: 0 })).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
  });

  it('a run past its deadline kills the solver and rejects with EXECUTION_TIMEOUT', async () => {
    const written = writeSolverMps(exactMilp(canonicalLpProblem(marketSplit(5, 6, 60))), (field) => field);
    if (!('feed' in written)) throw new Error('the market split is not infeasible');
    await expect(runMilpSolver(tools, written.feed, { deadline: Date.now() + 400, timeLimitS: 60, relativeGap: 0 })).rejects.toMatchObject({ code: 'EXECUTION_TIMEOUT' });
  });

  it('a solver that says Optimal with a point violating a row: UNKNOWN, incumbent not verified, no solution given', async () => {
    // Knapsack weights 5, 7, 4, 3 ≤ 14: the "solver" takes all four (weight 19).
    const fake = path.join(dir, 'cbc');
    const file = ['Optimal - objective value -29', '      0 r1 19 0', '      0 x1 1 0', '      1 x2 1 0', '      2 x3 1 0', '      3 x4 1 0'].join('\\n');
    await writeFile(fake, `#!/bin/sh\nwhile [ "$#" -gt 1 ]; do if [ "$1" = "-solu" ]; then printf '${file}\\n' > "$2"; fi; shift; done\necho "Result - Optimal solution found"\n`);
    await chmod(fake, 0o755);
    // The fake's identity vouched for as a probe would (stamp, then digest), so that the identity guard lets it run.
    const stamp = await fileStamps(fake, []);
    const { components, digest } = await compositeIdentity(fake, []);
    rememberVerifiedStamp(digest, stamp);
    const probe: MilpSolverProbe = { name: 'cbc', tools: { ...tools, binary: fake, components, digest }, probe: () => Promise.reject(new Error('not probed')) };
    const runtime = (await probeMilpSolver('cbc')).runtime;
    await using h = await createCapabilityHarness();
    const cap = h.install(milpSolve(runtime, { cbc: probe }), runtime);
    const payload = cap.descriptor.examples[0]?.payload;
    const result = await h.run(cap, { capability_id: 'milp.solve', payload });
    const output = ok(result);
    expect(output).toMatchObject({ status: 'UNKNOWN', objective: null, solution: null, incumbent_check: { verified: false, method: null } });
    expect(output.incumbent_check?.violations).toEqual(['row weight: 19 <= 14 is false']);
    expect(output.reason).toMatch(/failed the exact check/);
    expect(result.assurance.level).toBe('HEURISTIC');
    expect(result.completeness.status).toBe('UNKNOWN');
    expect(result.diagnostics.map((d) => d.code)).toEqual(['INCUMBENT_NOT_VERIFIED']);
  });

  it('a solver whose executable changed after its probe is refused before it runs (PROVIDER_FAILED)', async () => {
    const copy = path.join(dir, 'changed', 'cbc');
    const fs = await import('node:fs/promises');
    await fs.mkdir(path.dirname(copy), { recursive: true });
    await fs.copyFile(tools.binary, copy);
    await chmod(copy, 0o755);
    const probed = (await probeMilpSolver('cbc', { binary: copy })).tools;
    const written = writeSolverMps(exactMilp(canonicalLpProblem(marketSplit(5, 2, 6))), (field) => field);
    if (!('feed' in written)) throw new Error('the market split is not infeasible');
    const options = { deadline: Date.now() + 60_000, timeLimitS: 10, relativeGap: 0 };
    await expect(runMilpSolver(probed, written.feed, options)).resolves.toMatchObject({ verdict: 'OPTIMAL' });
    await fs.appendFile(copy, Buffer.from([0]));
    await expect(runMilpSolver(probed, written.feed, options)).rejects.toMatchObject({ code: 'PROVIDER_FAILED', message: expect.stringMatching(/digest changed/) as unknown });
  });

  it('a run of an executable other than the probed one is refused before it runs, whatever the probed files\' stamps say', async () => {
    const other = path.join(dir, 'other-cbc');
    await writeFile(other, '#!/bin/sh\necho "Result - Optimal solution found"\n');
    await chmod(other, 0o755);
    const written = writeSolverMps(exactMilp(canonicalLpProblem(marketSplit(5, 2, 6))), (field) => field);
    if (!('feed' in written)) throw new Error('the market split is not infeasible');
    await expect(runMilpSolver({ ...tools, binary: other }, written.feed, { deadline: Date.now() + 60_000, timeLimitS: 10, relativeGap: 0 })).rejects.toMatchObject({ code: 'PROVIDER_FAILED', message: expect.stringMatching(/not the one probed/) as unknown });
  });

  it('a solver that fails its health check is not registered (PROVIDER_UNAVAILABLE)', async () => {
    // Prints a release, then a wrong optimum for every program.
    const fake = path.join(dir, 'bad', 'cbc');
    await rm(path.dirname(fake), { recursive: true, force: true });
    await (await import('node:fs/promises')).mkdir(path.dirname(fake));
    await writeFile(fake, `#!/bin/sh\necho "Version: 2.10.8"\nwhile [ "$#" -gt 1 ]; do if [ "$1" = "-solu" ]; then printf 'Optimal - objective value -12\\n      0 r1 4 0\\n      1 r2 6 0\\n      0 x1 4 0\\n      1 x2 0 0\\n' > "$2"; fi; shift; done\n`);
    await chmod(fake, 0o755);
    await expect(probeMilpSolver('cbc', { binary: fake })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: expect.stringMatching(/failed its probe/) as unknown });
  });
});
