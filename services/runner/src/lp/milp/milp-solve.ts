/**
 * milp.solve: a mixed-integer linear program with exact rational data, solved by CBC or GLPK
 * (the first healthy), with the incumbent checked EXACTLY: every bound, row and integrality in
 * rational arithmetic on the problem's own data. Optimality and infeasibility are the solver's
 * claims (floating point, no certificate): COMPUTED, never VERIFIED, and the outcome says so.
 * The solver's objective, bound and gap are reported as its floating-point numbers, labelled.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  JacobianError,
  LP_LIMITS,
  LP_PROBLEM_SCHEMA_URI,
  LpNumberSchema,
  LpProblemInputSchema,
  lpNumber,
  RATIONALS,
  resolveLpOperand,
  runKernel,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type JsonPath,
  type ProviderRuntime,
} from '@jacobian/shared';
import { CBC_PROVIDER, GLPK_PROVIDER, runMilpSolver, type MilpSolverProbe } from '../../providers/milp-solvers.js';
import { exactMilp } from './exact-problem.js';
import { IncumbentMethod } from './incumbent.js';
import { IncumbentKernelOutput, type IncumbentKernelInput } from './incumbent.kernel.js';
import { SolverVerdict } from './solution-read.js';
import { SOLVER_INTEGER_LIMIT, SOLVER_NUMBER_RANGE_RULE, writeSolverMps } from './solver-mps.js';

export const MILP_SOLVE_ID = 'milp.solve';

const INCUMBENT_KERNEL = { module: fileURLToPath(new URL('./incumbent.kernel.ts', import.meta.url)), exportName: 'incumbentKernel' };

/** The longest solver time limit a request may ask for (the run's wall-time budget bounds it too). */
export const MAX_TIME_LIMIT_S = 3600;

export const MilpSolveInput = z
  .object({
    problem: LpProblemInputSchema.optional(),
    problem_uri: z.string().min(1).max(2048).optional().describe(`a stored linear program (${LP_PROBLEM_SCHEMA_URI}), instead of problem`),
    time_limit_s: z.number().int().positive().max(MAX_TIME_LIMIT_S).optional().describe("the solver's time limit in whole seconds; at most the run's wall-time budget; default: what the budget leaves"),
    relative_gap: LpNumberSchema.optional().describe('stop once the solver proves its incumbent within this relative gap of optimal, a number in [0, 1] written exactly ("0.01", "1/100"); default 0'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.problem === undefined) === (input.problem_uri === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of problem and problem_uri' });
  });
export type MilpSolveInput = z.infer<typeof MilpSolveInput>;

export const MilpStatus = { OPTIMAL: 'OPTIMAL', FEASIBLE: 'FEASIBLE', INFEASIBLE: 'INFEASIBLE', UNBOUNDED: 'UNBOUNDED', UNKNOWN: 'UNKNOWN' } as const;
export type MilpStatus = (typeof MilpStatus)[keyof typeof MilpStatus];

const SolverReport = z
  .object({
    said: z.string().describe("the solver's status in its own words"),
    objective: z.number().nullable().describe("solver's, floating point: its incumbent's objective, in the problem's sense (c₀ added)"),
    bound: z.number().nullable().describe("solver's, floating point: its bound on the optimum (a lower bound when minimizing, upper when maximizing); null when it has none"),
    gap: z.number().nullable().describe("solver's, floating point: its relative gap between incumbent and bound"),
    time_limit_s: z.number().describe('the time limit the solver was given'),
    relative_gap: z.number().describe('the gap at which it was allowed to stop'),
  })
  .strict()
  .describe("what the solver reported: its numbers are floating point and unchecked");

export const MilpSolveOutput = z
  .object({
    status: z
      .enum(MilpStatus)
      .describe(
        "OPTIMAL: the solver claims optimality and its incumbent is exactly feasible; FEASIBLE: stopped by a limit with an exactly feasible incumbent; INFEASIBLE / UNBOUNDED: the solver's claim, no certificate; UNKNOWN: no incumbent, or one that failed the exact check",
      ),
    objective: z.string().nullable().describe('c·x + c₀ of the incumbent, exactly (integer or p/q); null without an exactly feasible incumbent'),
    solution: z.record(z.string(), z.string()).nullable().describe('the exactly feasible incumbent: variable name → exact value; null otherwise'),
    incumbent_check: z
      .object({
        verified: z.boolean().describe('true: the incumbent satisfies every bound, row and integrality exactly'),
        method: z.enum(IncumbentMethod).nullable().describe("how exact values were made from the solver's decimals (integers rounded only within 1e-9)"),
        violations: z.array(z.string()).describe('what the exact check found wrong (empty when verified)'),
      })
      .strict()
      .nullable()
      .describe('the exact check of the solver\'s incumbent; null when it had none'),
    solver: SolverReport.nullable().describe('null when the problem was decided exactly before any solver ran'),
    reason: z.string().nullable().describe('why the status is what it is, in words'),
    engine: z.object({ provider: z.string(), version: z.string(), method: z.string(), compute_ms: z.number().int() }).strict(),
  })
  .strict();
export type MilpSolveOutput = z.infer<typeof MilpSolveOutput>;

const KNAPSACK_EXAMPLE = {
  sense: 'maximize',
  variables: ['a', 'b', 'c', 'd'].map((name) => ({ name, upper: 1, integer: true })),
  objective: { a: 8, b: 11, c: 6, d: 4 },
  constraints: [{ name: 'weight', coefficients: { a: 5, b: 7, c: 4, d: 3 }, relation: '<=', rhs: 14 }],
};
const MIXED_EXAMPLE = {
  sense: 'minimize',
  variables: [
    { name: 'n', lower: null, upper: null, integer: true },
    { name: 'y', lower: '1/3' },
  ],
  objective: { n: 1, y: '1/2' },
  constraints: [{ coefficients: { n: 3, y: -2 }, relation: '>=', rhs: '-7/2' }],
};

function solverName(runtime: ProviderRuntime): string {
  return runtime.provider === CBC_PROVIDER ? `CBC ${runtime.version}` : `GLPK ${runtime.version} (glpsol)`;
}

/** What is left of the budget for the solver's own limit, in seconds: most of it, leaving time to read the answer. */
function solverTimeLimit(requested: number | undefined, context: CapabilityContext): number {
  const remainingS = (context.deadline - Date.now()) / 1000;
  const available = Math.max(1, Math.min(remainingS - 1, remainingS * 0.85));
  return Math.round(Math.min(requested ?? available, available) * 1000) / 1000;
}

/**
 * milp.solve on the solver `runtime` names (CBC or GLPK); its probe (in `solvers`) holds the
 * tools it found, read when a run starts.
 *
 * @throws JacobianError REGISTRATION_INVALID for another runtime.
 */
export function milpSolve(runtime: ProviderRuntime, solvers: { cbc?: MilpSolverProbe; glpk?: MilpSolverProbe }): CapabilityDefinition<MilpSolveInput, MilpSolveOutput> {
  if (runtime.provider !== CBC_PROVIDER && runtime.provider !== GLPK_PROVIDER) throw new JacobianError('REGISTRATION_INVALID', `${MILP_SOLVE_ID} runs on ${CBC_PROVIDER} or ${GLPK_PROVIDER}, not ${runtime.provider}`);
  const probe = runtime.provider === CBC_PROVIDER ? solvers.cbc : solvers.glpk;
  const name = solverName(runtime);
  return {
    id: MILP_SOLVE_ID,
    version: '1.0.0',
    title: 'Solve a mixed-integer linear program',
    description: `Minimize or maximize c·x + c₀ subject to rows a·x (<=, =, >=) b, bounds, and integer variables, all data exact rationals; solved by ${name} (branch and cut). The incumbent is checked EXACTLY (rational arithmetic: every bound, row and integrality) before it is called feasible; optimality and infeasibility are the solver's floating-point claims (COMPUTED, no certificate). Objective, bound and gap as the solver reports them are labelled as its. The solver is given the data exactly: rows and the objective are scaled to integers; a number over 2^53 after scaling is refused (rule ${SOLVER_NUMBER_RANGE_RULE}).`,
    tags: ['lp', 'milp', 'integer-programming', 'optimization', 'exact', runtime.provider],
    keywords: [
      'mixed integer program',
      'mixed-integer linear programming',
      'MILP',
      'MIP',
      'integer linear programming',
      'ILP',
      'integer program',
      'knapsack',
      'assignment problem',
      'branch and bound',
      'branch and cut',
      'binary variables',
      '0-1 program',
      'CBC',
      'GLPK',
      'glpsol',
    ],
    domain: 'optimization',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [LP_PROBLEM_SCHEMA_URI],
    produced_artifact_types: [],
    input: MilpSolveInput,
    output: MilpSolveOutput,
    examples: [
      { title: 'A 0-1 knapsack (optimum 21: b, c, d)', mode: 'EXPLORE', payload: { problem: KNAPSACK_EXAMPLE } },
      { title: 'A free integer and a fractional bound (optimum 1/6 at n = 0, y = 1/3)', mode: 'EXPLORE', payload: { problem: MIXED_EXAMPLE } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given program: an exactly feasible incumbent, and the solver’s unverified claims about optimality or infeasibility.',
    limits: {
      max_variables: LP_LIMITS.maxVariables,
      max_constraints: LP_LIMITS.maxConstraints,
      max_nonzeros: LP_LIMITS.maxNonzeros,
      max_time_limit_s: MAX_TIME_LIMIT_S,
      max_solver_integer: SOLVER_INTEGER_LIMIT.toString(),
    },
    async run(input, context): Promise<CapabilityOutcome<MilpSolveOutput>> {
      if (input.time_limit_s !== undefined && input.time_limit_s * 1000 > context.budget.wall_time_ms) {
        throw new JacobianError('INVALID_REQUEST', `payload.time_limit_s: ${input.time_limit_s} s is more than the run's wall-time budget of ${context.budget.wall_time_ms} ms (rule within-budget)`, {
          path: ['payload', 'time_limit_s'],
          data: { rule: 'within-budget' },
          hint: 'raise budget.wall_time_ms or lower time_limit_s',
        });
      }
      const gap = input.relative_gap === undefined ? null : lpNumber(input.relative_gap, ['payload', 'relative_gap']);
      if (gap !== null && (gap.num < 0n || gap.num > gap.den)) {
        throw new JacobianError('INVALID_REQUEST', `payload.relative_gap: ${RATIONALS.format(gap)} is not in [0, 1] (rule relative-gap-range)`, { path: ['payload', 'relative_gap'], data: { rule: 'relative-gap-range' } });
      }
      const tools = probe?.tools;
      if (tools === undefined) throw new JacobianError('PROVIDER_UNAVAILABLE', `${name} has not passed its probe in this process`);
      const resolved = await resolveLpOperand(input, context.artifacts, { signal: context.signal });
      const problem = exactMilp(resolved.problem);
      const at = (field: JsonPath): JsonPath => (input.problem_uri !== undefined ? ['payload', 'problem_uri'] : ['payload', 'problem', ...field]);
      const started = Date.now();
      const written = writeSolverMps(problem, at);
      const scope = { kind: 'EXACT_INPUT' as const, statement: `the optimum of ${resolved.description}`.slice(0, 2000), input_uris: resolved.input_uris };
      const method = `${name}, branch and cut in floating point; the model given as integers ≤ 2^53 (exact); the incumbent checked in rational arithmetic`;
      if (!('feed' in written)) {
        return {
          status: 'COMPLETED',
          output: { status: 'INFEASIBLE', objective: null, solution: null, incumbent_check: null, solver: null, reason: written.infeasible, engine: { provider: runtime.provider, version: runtime.version, method: 'exact reading of the problem; no solver ran', compute_ms: Date.now() - started } },
          scope,
          completeness: { status: 'COMPLETE', basis: `decided exactly while reading the problem: ${written.infeasible}`.slice(0, 1000) },
          qualifiers: ['EXACT'],
          assurance: { level: 'COMPUTED', basis: `exact: ${written.infeasible}; no solver was needed`.slice(0, 1000), verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: [],
          artifact_uris: resolved.input_uris,
          diagnostics: [],
        };
      }
      const { feed } = written;
      // glpsol takes whole seconds (at least 1): the limit reported is the one it was given.
      const asked = solverTimeLimit(input.time_limit_s, context);
      const timeLimitS = runtime.provider === GLPK_PROVIDER ? Math.max(1, Math.floor(asked)) : asked;
      const relativeGap = gap === null ? 0 : Number(gap.num) / Number(gap.den);
      const answer = await runMilpSolver(tools, feed, { signal: context.signal, deadline: context.deadline, timeLimitS, relativeGap, memoryMb: context.budget.memory_mb });
      // The solver minimizes objectiveFactor · c·x; ours is c·x + c₀.
      const factor = Number(feed.objectiveFactor.num) / Number(feed.objectiveFactor.den);
      const constant = Number(problem.objectiveConstant.num) / Number(problem.objectiveConstant.den);
      const ours = (value: number | null): number | null => (value === null ? null : value / factor + constant);
      const solver = { said: answer.said, objective: ours(answer.objective), bound: ours(answer.bound), gap: answer.gap, time_limit_s: timeLimitS, relative_gap: relativeGap };
      // The exact check runs isolated: it is rational arithmetic over every row, killable at the deadline.
      const check = answer.values === null ? null : IncumbentKernelOutput.parse(await runKernel(context, INCUMBENT_KERNEL, { problem: resolved.problem, printed: answer.values } satisfies IncumbentKernelInput));
      const engine = { provider: runtime.provider, version: runtime.version, method, compute_ms: Date.now() - started };
      const exact =
        check === null || !check.verified ? null : { objective: check.objective, solution: Object.fromEntries(problem.names.map((n, j) => [n, check.values[j] as string])) };
      const incumbentCheck = check === null ? null : check.verified ? { verified: true, method: check.method, violations: [] } : { verified: false, method: null, violations: check.violations };
      const base = { objective: exact?.objective ?? null, solution: exact?.solution ?? null, incumbent_check: incumbentCheck, solver, engine };
      const gapText = relativeGap > 0 ? ` within the relative gap ${relativeGap} asked for` : '';
      const boundText = solver.bound === null ? 'it reported no bound' : `its bound is ${solver.bound}`;
      const common = { scope, relationships: [], artifact_uris: resolved.input_uris, diagnostics: [] };
      const claimOnly = (status: 'INFEASIBLE' | 'UNBOUNDED', reason: string): CapabilityOutcome<MilpSolveOutput> => ({
        ...common,
        status: 'COMPLETED',
        output: { ...base, status, reason },
        completeness: { status: 'COMPLETE', basis: `${name} says: ${answer.said}`.slice(0, 1000) },
        qualifiers: [],
        assurance: { level: 'COMPUTED', basis: `${reason}; the solver's claim, computed in floating point, with no certificate and not verified`.slice(0, 1000), verification_record_uri: null, checker_id: null },
        obligations: [{ id: `${status.toLowerCase()}-certificate`, statement: `No certificate: ${status} rests on ${name}'s floating-point computation alone.`, status: 'OPEN', discharged_by: [] }],
      });
      const unknown = (reason: string): CapabilityOutcome<MilpSolveOutput> => ({
        ...common,
        status: 'COMPLETED',
        output: { ...base, status: 'UNKNOWN', reason },
        completeness: { status: 'UNKNOWN', basis: reason.slice(0, 1000) },
        qualifiers: ['BOUNDED'],
        assurance: { level: 'HEURISTIC', basis: `no conclusion: ${reason}`.slice(0, 1000), verification_record_uri: null, checker_id: null },
        obligations: [],
        diagnostics: [
          ...(answer.verdict === SolverVerdict.LIMIT ? [{ severity: 'WARNING' as const, code: 'BUDGET_EXHAUSTED', stage: 'EXECUTION' as const, message: reason.slice(0, 2000), path: null, hint: 'raise budget.wall_time_ms and time_limit_s, or allow a relative_gap' }] : []),
          ...(check !== null && !check.verified
            ? [{ severity: 'WARNING' as const, code: 'INCUMBENT_NOT_VERIFIED', stage: 'PROVIDER' as const, message: `the solver's incumbent failed the exact check: ${check.violations.join('; ')}`.slice(0, 2000), path: null, hint: 'nothing about this incumbent is claimed; the solver may have worked to its own tolerances' }]
            : []),
        ],
      });
      switch (answer.verdict) {
        case SolverVerdict.OPTIMAL:
          if (exact === null) return unknown(`${name} called its incumbent optimal, but it failed the exact check: ${(check !== null && !check.verified ? check.violations : ['no incumbent']).join('; ')}`);
          return {
            ...common,
            status: 'COMPLETED',
            output: { ...base, status: 'OPTIMAL', reason: `${name} reports optimality${gapText}; the incumbent is exactly feasible` },
            completeness: { status: 'COMPLETE', basis: `${name} reports its incumbent optimal${gapText} (${boundText}); not verified` },
            qualifiers: [],
            assurance: {
              level: 'COMPUTED',
              basis: `the incumbent was checked EXACTLY (every bound, row and integrality, rational arithmetic) and its objective recomputed exactly; its optimality${gapText} is ${name}'s floating-point claim, computed, not verified`,
              verification_record_uri: null,
              checker_id: null,
            },
            obligations: [{ id: 'optimality-certificate', statement: `Optimality rests on ${name}'s floating-point branch and bound; no certificate of the bound was checked.`, status: 'OPEN', discharged_by: [] }],
          };
        case SolverVerdict.LIMIT:
          if (exact === null) return unknown(`${name} stopped (${answer.said}) ${check === null ? 'without an incumbent' : `with an incumbent that failed the exact check: ${check.verified ? '' : check.violations.join('; ')}`}`);
          return {
            ...common,
            status: 'COMPLETED',
            output: { ...base, status: 'FEASIBLE', reason: `${name} stopped (${answer.said}) before proving optimality; the incumbent is exactly feasible; ${boundText}` },
            completeness: { status: 'PARTIAL', basis: `an exactly feasible incumbent; optimality not established (${answer.said}; ${boundText}, the solver's)`.slice(0, 1000) },
            qualifiers: ['BOUNDED'],
            assurance: { level: 'COMPUTED', basis: `the incumbent was checked EXACTLY and its objective recomputed exactly; the bound and gap are ${name}'s floating-point numbers`, verification_record_uri: null, checker_id: null },
            obligations: [],
            diagnostics: [{ severity: 'WARNING', code: 'BUDGET_EXHAUSTED', stage: 'EXECUTION', message: `${name} stopped before proving optimality: ${answer.said}`, path: null, hint: 'raise budget.wall_time_ms and time_limit_s, or allow a relative_gap' }],
          };
        case SolverVerdict.INFEASIBLE:
          return claimOnly('INFEASIBLE', `${name} reports that no point satisfies the rows, bounds and integrality (${answer.said})`);
        case SolverVerdict.UNBOUNDED:
          return claimOnly('UNBOUNDED', `${name} reports the objective unbounded (${answer.said}): its LP relaxation has an improving ray; with rational data the program is unbounded if it has any integer-feasible point, which was not checked`);
      }
    },
  };
}
