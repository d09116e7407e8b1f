import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, LP_PROBLEM_SCHEMA_URI, LP_PROBLEM_SEMANTICS_URI, canonicalLpProblem, type CapabilityResult, type InstalledCapability, type LpProblemInput } from '@jacobian/shared';
import { mulberry32 } from '@jacobian/shared/testing';
import { createCapabilityHarness, type CapabilityHarness } from '../../testing/fixtures.js';
import { milpSolverProvider, type MilpSolverKind, type MilpSolverProbe } from '../../providers/milp-solvers.js';
import { milpSolve, type MilpSolveOutput } from './milp-solve.js';

const INSTALLED: MilpSolverKind[] = (
  [
    ['cbc', '/usr/bin/cbc'],
    ['glpk', '/usr/bin/glpsol'],
  ] as const
)
  .filter(([, file]) => existsSync(file))
  .map(([kind]) => kind);

function ok(result: CapabilityResult): MilpSolveOutput {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  return result.output as MilpSolveOutput;
}

function refused(result: CapabilityResult): { code: string; path: (string | number)[] | null; message: string } {
  expect(result.execution.status).toBe('ERROR');
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (diagnostic === undefined) throw new Error(`no ERROR diagnostic in ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

const binary = (name: string, extra: Record<string, unknown> = {}) => ({ name, upper: 1, integer: true, ...extra });

/** Every 0/1 (or small integer box) point of a pure integer problem, by brute force: the exact optimum or null. */
function bruteForce(problem: LpProblemInput, box: number): { value: number; point: number[] } | null {
  const n = problem.variables.length;
  let best: { value: number; point: number[] } | null = null;
  const point = new Array<number>(n).fill(-box);
  const value = (form: Record<string, string | number>): number => problem.variables.reduce((s, v, j) => s + Number(form[v.name] ?? 0) * (point[j] as number), 0);
  for (;;) {
    const inBounds = problem.variables.every((v, j) => (v.lower === null || (point[j] as number) >= Number(v.lower ?? 0)) && (v.upper === null || v.upper === undefined || (point[j] as number) <= Number(v.upper)));
    const feasible = inBounds && problem.constraints.every((c) => (c.relation === '<=' ? value(c.coefficients) <= Number(c.rhs) : c.relation === '>=' ? value(c.coefficients) >= Number(c.rhs) : value(c.coefficients) === Number(c.rhs)));
    if (feasible) {
      const v = value(problem.objective);
      if (best === null || (problem.sense === 'minimize' ? v < best.value : v > best.value)) best = { value: v, point: [...point] };
    }
    let j = 0;
    while (j < n && point[j] === box) point[j++] = -box;
    if (j === n) return best;
    point[j] = (point[j] as number) + 1;
  }
}

/** A random pure integer program with variables in [-2, 2] (or [0, 2]) and a few rows. */
function randomIntegerProgram(seed: number): LpProblemInput {
  const random = mulberry32(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const n = int(2, 5);
  const names = Array.from({ length: n }, (_, j) => `v${j}`);
  const variables = names.map((name) => (random() < 0.5 ? { name, lower: -2, upper: 2, integer: true } : { name, lower: 0, upper: 2, integer: true }));
  const form = (): Record<string, number> => Object.fromEntries(names.flatMap((name) => (random() < 0.7 ? [[name, int(-5, 5)]] : [])));
  const constraints = Array.from({ length: int(1, 4) }, () => ({ coefficients: form(), relation: (['<=', '>=', '='] as const)[int(0, 2)] as '<=' | '>=' | '=', rhs: int(-6, 6) }));
  return { sense: random() < 0.5 ? 'minimize' : 'maximize', variables, objective: form(), constraints };
}

describe.skipIf(INSTALLED.length === 0).each(INSTALLED)('milp.solve on %s', (kind) => {
  let h: CapabilityHarness;
  let cap: InstalledCapability;
  let probe: MilpSolverProbe;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    probe = milpSolverProvider(kind);
    const runtime = await probe.probe();
    cap = h.install(milpSolve(runtime, { [kind]: probe }), runtime);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (payload: unknown, budget?: Record<string, number>): Promise<CapabilityResult> => h.run(cap, { capability_id: 'milp.solve', payload, ...(budget === undefined ? {} : { budget }) });

  it('names its provider and runs every advertised example to OPTIMAL', async () => {
    expect(cap.descriptor.description).toContain(kind === 'cbc' ? 'CBC' : 'GLPK');
    const answers = [];
    for (const example of cap.descriptor.examples) answers.push(ok(await run(example.payload)));
    expect(answers.map((a) => [a.status, a.objective])).toEqual([
      ['OPTIMAL', '21'],
      ['OPTIMAL', '1/6'],
    ]);
    expect(answers[0]?.solution).toEqual({ a: '0', b: '1', c: '1', d: '1' });
    expect(answers[1]?.solution).toEqual({ n: '0', y: '1/3' });
    expect(answers[0]?.engine.provider).toBe(kind);
  });

  it('OPTIMAL is COMPUTED, the incumbent exactly feasible, optimality stated as the solver’s claim', async () => {
    const result = await run(cap.descriptor.examples[0]?.payload);
    const output = ok(result);
    expect(result.assurance.level).toBe('COMPUTED');
    expect(result.assurance.basis).toMatch(/EXACTLY/);
    expect(result.assurance.basis).toMatch(/not verified/);
    expect(output.incumbent_check).toEqual({ verified: true, method: 'as-printed', violations: [] });
    expect(output.solver?.objective).toBeCloseTo(21, 6);
    expect(output.solver?.bound).toBeCloseTo(21, 6);
    expect(result.obligations.map((o) => o.id)).toEqual(['optimality-certificate']);
  });

  it('a 4×4 assignment problem: the known optimum, each worker and job once', async () => {
    const cost = [
      [9, 2, 7, 8],
      [6, 4, 3, 7],
      [5, 8, 1, 8],
      [7, 6, 9, 4],
    ];
    const x = (i: number, j: number): string => `x_${i}_${j}`;
    const variables = cost.flatMap((row, i) => row.map((_, j) => binary(x(i, j))));
    const objective = Object.fromEntries(cost.flatMap((row, i) => row.map((c, j) => [x(i, j), c])));
    const constraints = [
      ...cost.map((_, i) => ({ name: `worker${i}`, coefficients: Object.fromEntries(cost.map((__, j) => [x(i, j), 1])), relation: '=' as const, rhs: 1 })),
      ...cost.map((_, j) => ({ name: `job${j}`, coefficients: Object.fromEntries(cost.map((__, i) => [x(i, j), 1])), relation: '=' as const, rhs: 1 })),
    ];
    const output = ok(await run({ problem: { sense: 'minimize', variables, objective, constraints } }));
    // 2 + 6 + 1 + 4 = 13 (x01, x10, x22, x33), the optimum over all 24 permutations.
    expect(output).toMatchObject({ status: 'OPTIMAL', objective: '13' });
    expect(Object.entries(output.solution ?? {}).filter(([, v]) => v === '1').map(([k]) => k).sort()).toEqual(['x_0_1', 'x_1_0', 'x_2_2', 'x_3_3']);
  });

  it('INFEASIBLE when only the integers are infeasible (the LP relaxation is feasible), COMPUTED with an open obligation', async () => {
    // 3x + 5y = 4 in [0, 3]²: x = 4/3 solves the relaxation; no gcd argument applies (gcd 1).
    const result = await run({ problem: { sense: 'minimize', variables: [{ name: 'x', integer: true, upper: 3 }, { name: 'y', integer: true, upper: 3 }], objective: { x: 1 }, constraints: [{ coefficients: { x: 3, y: 5 }, relation: '=', rhs: 4 }] } });
    expect(ok(result)).toMatchObject({ status: 'INFEASIBLE', objective: null, solution: null, incumbent_check: null });
    expect(result.assurance).toMatchObject({ level: 'COMPUTED' });
    expect(result.assurance.basis).toMatch(/no certificate/);
    expect(result.obligations.map((o) => o.status)).toEqual(['OPEN']);
  });

  it('UNBOUNDED as the solver’s claim', async () => {
    const result = await run({ problem: { sense: 'maximize', variables: [{ name: 'x', integer: true }, { name: 'y', lower: null, upper: 5 }], objective: { x: 1, y: 1 }, constraints: [{ coefficients: { x: 1, y: -1 }, relation: '>=', rhs: 1 }] } });
    expect(ok(result).status).toBe('UNBOUNDED');
    expect(result.assurance.basis).toMatch(/not verified/);
  });

  it('equality rows, negative lower bounds and free integer variables', async () => {
    // min x + 2y - z, x + y + z = 3, x - y >= -7, x in [-5, 5], y free integer, z in [-3, 0]: y as low as x - y >= -7 allows.
    const problem: LpProblemInput = {
      sense: 'minimize',
      variables: [
        { name: 'x', lower: -5, upper: 5, integer: true },
        { name: 'y', lower: null, upper: null, integer: true },
        { name: 'z', lower: -3, upper: 0, integer: true },
      ],
      objective: { x: 1, y: 2, z: -1 },
      constraints: [
        { coefficients: { x: 1, y: 1, z: 1 }, relation: '=', rhs: 3 },
        { coefficients: { x: 1, y: -1 }, relation: '>=', rhs: -7 },
      ],
    };
    const output = ok(await run({ problem }));
    expect(output.status).toBe('OPTIMAL');
    expect(output.objective).toBe(String(bruteForce(problem, 12)?.value));
  });

  it('fractional data scaled exactly: thirds and sevenths, a fractional bound on a continuous variable, maximization with a constant', async () => {
    const problem = {
      sense: 'maximize',
      variables: [
        { name: 'n', upper: '22/7', integer: true },
        { name: 'y', lower: '1/3', upper: '10/3' },
      ],
      objective: { n: '1/3', y: '1/7' },
      objective_constant: '-1/21',
      constraints: [{ coefficients: { n: '2/3', y: '1/7' }, relation: '<=', rhs: '13/6' }],
    };
    // n ≤ 3 (integer ≤ 22/7); n = 3: y ≤ (13/6 − 2)·7 = 7/6; value 1 + 1/6 − 1/21 = 47/42. n = 2: y = 10/3 caps: 2/3 + 10/21 − 1/21 = 23/21 < 47/42.
    const output = ok(await run({ problem }));
    expect(output).toMatchObject({ status: 'OPTIMAL', objective: '47/42', solution: { n: '3', y: '7/6' } });
    expect(output.incumbent_check?.verified).toBe(true);
  });

  it('reads a stored problem by problem_uri', async () => {
    const stored = await h.artifacts.put({
      schema_uri: LP_PROBLEM_SCHEMA_URI,
      semantics_uri: LP_PROBLEM_SEMANTICS_URI,
      payload: canonicalLpProblem(cap.descriptor.examples[0]?.payload['problem'] as LpProblemInput),
      parents: [],
    });
    const result = await run({ problem_uri: stored.uri });
    expect(ok(result)).toMatchObject({ status: 'OPTIMAL', objective: '21' });
    expect(result.scope?.input_uris).toEqual([stored.uri]);
  });

  it('refuses, before any solver runs, a number the solver cannot read exactly and a time limit over the budget', async () => {
    const big = refused(await run({ problem: { sense: 'minimize', variables: [{ name: 'x', integer: true }], objective: { x: 1 }, constraints: [{ coefficients: { x: '9007199254740993' }, relation: '>=', rhs: 1 }] } }));
    expect(big).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'problem', 'constraints', 0] });
    expect(big.message).toMatch(/solver-number-range/);
    const time = refused(await run({ problem: cap.descriptor.examples[0]?.payload['problem'], time_limit_s: 60 }, { wall_time_ms: 10_000 }));
    expect(time).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'time_limit_s'] });
  });

  it('decides exactly, without a solver, an integer variable with no integer between its bounds, a false empty row, an equality failing its gcd', async () => {
    const bounds = ok(await run({ problem: { sense: 'minimize', variables: [{ name: 'x', lower: '1/3', upper: '2/3', integer: true }], objective: { x: 1 }, constraints: [] } }));
    expect(bounds).toMatchObject({ status: 'INFEASIBLE', solver: null });
    expect(bounds.reason).toMatch(/no integer/);
    const empty = ok(await run({ problem: { sense: 'minimize', variables: [{ name: 'x' }], objective: { x: 1 }, constraints: [{ coefficients: {}, relation: '>=', rhs: 1 }] } }));
    expect(empty).toMatchObject({ status: 'INFEASIBLE', solver: null });
    // 6x + 9y = 4 over free integers: branch and bound would search without end; gcd 3 ∤ 4 decides it.
    const gcd = ok(await run({ problem: { sense: 'minimize', variables: [{ name: 'x', lower: null, integer: true }, { name: 'y', lower: null, integer: true }], objective: {}, constraints: [{ coefficients: { x: '2/3', y: 1 }, relation: '=', rhs: '4/9' }] } }));
    expect(gcd).toMatchObject({ status: 'INFEASIBLE', solver: null });
    expect(gcd.reason).toMatch(/gcd 3, which does not divide its right-hand side 4/);
  });

  it('agrees with brute force on random small integer programs', async () => {
    for (let seed = 1; seed <= 25; seed++) {
      const problem = randomIntegerProgram(seed);
      const truth = bruteForce(problem, 2);
      const output = ok(await run({ problem }));
      if (truth === null) expect(output.status, `seed ${seed}`).toBe('INFEASIBLE');
      else expect([output.status, output.objective], `seed ${seed}`).toEqual(['OPTIMAL', String(truth.value)]);
    }
  });
});
