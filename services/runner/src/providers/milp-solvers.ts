/**
 * CBC (Debian package `coinor-cbc`) and GLPK's glpsol (Debian `glpk-utils`) as native providers
 * of mixed-integer programming: found on disk, identified by the bytes that run (the executable
 * and the solver libraries it loads), their release read, and proved healthy on tiny programs
 * with known answers (an optimum checked exactly, an integer-infeasible program whose LP
 * relaxation is feasible) before milp.solve registers with them (fail closed).
 *
 * Nothing a client sends reaches a solver as text: the model file is written by our MPS writer
 * (lp/milp/solver-mps.ts) from numbers and generated names only, and the command line is ours.
 * Runs go through the native-tool launcher (no shell, a kill at the deadline or on cancel, the
 * memory budget enforced); the solution file is read strictly (lp/milp/solution-read.ts).
 */
import { constants } from 'node:fs';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JacobianError, platformTag, ProviderRuntimeSchema, RATIONALS, toAppError, type LpProblem, type ProviderProbe, type ProviderRuntime } from '@jacobian/shared';
import { exactIncumbent } from '../lp/milp/incumbent.js';
import { exactMilp, objectiveValue } from '../lp/milp/exact-problem.js';
import { readCbcSolution, readGlpsolSolution, SolverVerdict, type SolverAnswer } from '../lp/milp/solution-read.js';
import { writeSolverMps, type SolverFeed } from '../lp/milp/solver-mps.js';
import { checkExecutableIdentity, compositeIdentity, fileStamps, findExecutable, linkedLibraries, rememberVerifiedStamp, type ExecutableLocation } from './executable.js';
import { ensureHealthy, type HealthCache } from './health-cache.js';
import { runNativeTool, type Component } from './nauty.js';

export const CBC_PROVIDER = 'cbc';
export const GLPK_PROVIDER = 'glpk';
export type MilpSolverKind = typeof CBC_PROVIDER | typeof GLPK_PROVIDER;

/** Where the probe looks when no binary is named (library code does not read PATH). */
export const DEFAULT_MILP_SOLVER_DIRECTORIES: readonly string[] = ['/usr/bin', '/usr/local/bin', '/opt/homebrew/bin', '/opt/local/bin'];

interface SolverSpec {
  executable: string;
  hint: string;
  /** Prefixes of the shared objects digested with the executable. */
  libraries: readonly string[];
  versionArgs: readonly string[];
  version: RegExp;
  license: string;
  copyright: string;
  features: readonly string[];
}

const SPECS: Record<MilpSolverKind, SolverSpec> = {
  cbc: {
    executable: 'cbc',
    hint: 'install the Debian package coinor-cbc (apt-get install -y coinor-cbc)',
    libraries: ['libCbc', 'libCgl', 'libClp', 'libOsi', 'libCoinUtils'],
    versionArgs: ['-quit'],
    version: /^Version: (\d+\.\d+(?:\.\d+)?)\s*$/m,
    license: 'EPL-1.0',
    copyright: '/usr/share/doc/coinor-cbc/copyright',
    features: ['milp', 'branch-and-cut', 'free-mps'],
  },
  glpk: {
    executable: 'glpsol',
    hint: 'install the Debian package glpk-utils (apt-get install -y glpk-utils)',
    libraries: ['libglpk'],
    versionArgs: ['--version'],
    version: /GLPK LP\/MIP Solver,? v?(\d+\.\d+(?:\.\d+)?)/,
    license: 'GPL-3.0-or-later',
    copyright: '/usr/share/doc/glpk-utils/copyright',
    features: ['milp', 'branch-and-cut', 'free-mps'],
  },
};

/** The executable a successful probe vouched for. */
export interface MilpSolverTools {
  readonly kind: MilpSolverKind;
  readonly binary: string;
  readonly version: string;
  /** The executable and the solver libraries it loads, as digested (role, file name, bytes, sha256). */
  readonly components: readonly Component[];
  /** The COMPOSITE digest of the executable and its solver libraries. */
  readonly digest: string;
}

/**
 * Check, before a run, that the solver's executable and libraries are still the bytes its probe
 * digested (by stat stamp, digesting again only when a stat changed: see checkExecutableIdentity).
 *
 * @throws JacobianError PROVIDER_FAILED when they changed.
 */
export async function checkMilpSolverIdentity(tools: MilpSolverTools): Promise<void> {
  await checkExecutableIdentity(tools, SPECS[tools.kind].libraries, tools.kind);
}

/** How one solver run is bounded and what it is asked. */
export interface MilpRunOptions {
  signal?: AbortSignal | undefined;
  /** Epoch ms at which the solver is killed (EXECUTION_TIMEOUT); its own time limit should end well before. */
  deadline: number;
  /** The solver's own time limit, in seconds (glpsol takes whole seconds: rounded down, at least 1). */
  timeLimitS: number;
  /** Relative gap at which the solver may stop and call its incumbent optimal; 0 for none. */
  relativeGap: number;
  memoryMb?: number | undefined;
}

/** The solver's answer with its run time. */
export interface MilpRun extends SolverAnswer {
  ms: number;
}

/** Most bytes of log accepted from a solver. */
const LOG_LIMIT = 8 * 1024 * 1024;

function solverArguments(kind: MilpSolverKind, model: string, solution: string, options: MilpRunOptions): string[] {
  if (kind === CBC_PROVIDER) {
    return [model, '-timeMode', 'elapsed', '-sec', String(options.timeLimitS), '-ratioGap', String(options.relativeGap), '-printingOptions', 'all', '-solve', '-solu', solution];
  }
  // --nopresol: without the LP presolver an LP ends in a definite status (its presolver may say only
  // "no dual feasible solution", infeasible or unbounded); MIP preprocessing is unaffected.
  const args = ['--freemps', model, '--nopresol', '--tmlim', String(Math.max(1, Math.floor(options.timeLimitS))), '--mipgap', String(options.relativeGap), '-w', solution];
  if (options.memoryMb !== undefined) args.push('--memlim', String(Math.max(1, Math.floor(options.memoryMb / 2))));
  return args;
}

/**
 * Run the solver on a feed and read its answer. The model and solution files live in a private
 * folder of the temporary directory, removed afterwards whatever happens.
 *
 * @throws JacobianError EXECUTION_TIMEOUT / EXECUTION_CANCELLED / MEMORY_LIMIT_EXCEEDED /
 *   OUTPUT_LIMIT_EXCEEDED when the run is stopped; PROVIDER_FAILED when the solver fails, writes
 *   no solution, or writes one we cannot read.
 */
export async function runMilpSolver(tools: MilpSolverTools, feed: SolverFeed, options: MilpRunOptions): Promise<MilpRun> {
  await checkMilpSolverIdentity(tools);
  const dir = await mkdtemp(path.join(tmpdir(), `jacobian-${tools.kind}-`));
  try {
    const model = path.join(dir, 'model.mps');
    const solution = path.join(dir, 'solution.txt');
    await writeFile(model, feed.mps);
    const started = Date.now();
    const out = await runNativeTool(tools.binary, solverArguments(tools.kind, model, solution, options), '', {
      signal: options.signal,
      deadline: options.deadline,
      maxOutputBytes: LOG_LIMIT,
      memoryMb: options.memoryMb,
    });
    const ms = Date.now() - started;
    let text: string;
    try {
      text = await readFile(solution, 'utf8');
    } catch {
      const said = out.stdout
        .split('\n')
        .filter((line) => /error|invalid|not valid|unable/i.test(line))
        .slice(0, 5)
        .join(' | ');
      throw new JacobianError('PROVIDER_FAILED', `${tools.kind} wrote no solution file${said === '' ? '' : `: ${said.slice(0, 500)}`}${out.stderr === '' ? '' : ` (stderr: ${out.stderr.slice(0, 300)})`}`);
    }
    const read = tools.kind === CBC_PROVIDER ? readCbcSolution : readGlpsolSolution;
    return { ...read(text, out.stdout, feed.columns, feed.rows.length), ms };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const PROBE_TIMEOUT_MS = 20_000;

/** max 3x + 2y, x + y ≤ 4, x + 3y ≤ 6, x ≤ 7/2, x, y ≥ 0 integers: optimum 11 at x = 3, y = 1. */
const HEALTH_OPTIMAL: LpProblem = {
  sense: 'maximize',
  variables: [
    { name: 'x', lower: '0', upper: '7/2', integer: true },
    { name: 'y', lower: '0', upper: null, integer: true },
  ],
  objective: { x: '3', y: '2' },
  objective_constant: '0',
  constraints: [
    { name: 'a', coefficients: { x: '1', y: '1' }, relation: '<=', rhs: '4' },
    { name: 'b', coefficients: { x: '1', y: '3' }, relation: '<=', rhs: '6' },
  ],
};
/** 3x + 5y = 4 with x, y integers in [0, 3]: infeasible (no gcd argument decides it), while its LP relaxation is feasible. */
const HEALTH_INFEASIBLE: LpProblem = {
  sense: 'minimize',
  variables: [
    { name: 'x', lower: '0', upper: '3', integer: true },
    { name: 'y', lower: '0', upper: '3', integer: true },
  ],
  objective: { x: '1' },
  objective_constant: '0',
  constraints: [{ name: 'a', coefficients: { x: '3', y: '5' }, relation: '=', rhs: '4' }],
};

async function healthCheck(tools: MilpSolverTools, signal: AbortSignal | undefined): Promise<void> {
  const run = async (problem: LpProblem): Promise<{ answer: MilpRun; exact: ReturnType<typeof exactMilp> }> => {
    const exact = exactMilp(problem);
    const written = writeSolverMps(exact, (field) => field);
    if (!('feed' in written)) throw new Error('the health problem was found infeasible while being written');
    const answer = await runMilpSolver(tools, written.feed, { signal, deadline: Date.now() + PROBE_TIMEOUT_MS, timeLimitS: 10, relativeGap: 0 });
    return { answer, exact };
  };
  const optimal = await run(HEALTH_OPTIMAL);
  if (optimal.answer.verdict !== SolverVerdict.OPTIMAL || optimal.answer.values === null) throw new Error(`the knapsack-like program was answered ${optimal.answer.said}`);
  const check = exactIncumbent(optimal.exact, optimal.answer.values);
  if (!check.verified) throw new Error(`its optimum failed the exact check: ${check.violations.join('; ')}`);
  const value = RATIONALS.format(objectiveValue(optimal.exact, check.values));
  if (value !== '11' || check.values.map((v) => RATIONALS.format(v)).join(',') !== '3,1') throw new Error(`its optimum was ${check.values.map((v) => RATIONALS.format(v)).join(',')} with value ${value}, not 3,1 with 11`);
  const infeasible = await run(HEALTH_INFEASIBLE);
  if (infeasible.answer.verdict !== SolverVerdict.INFEASIBLE) throw new Error(`3x + 5y = 4 in integers of [0, 3] was answered ${infeasible.answer.said}, not infeasible`);
}

async function readVersion(spec: SolverSpec, binary: string, signal: AbortSignal | undefined): Promise<string> {
  const out = await runNativeTool(binary, spec.versionArgs, '', { signal, deadline: Date.now() + PROBE_TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
  const match = spec.version.exec(out.stdout);
  if (match === null) throw new Error(`${spec.executable} ${spec.versionArgs.join(' ')} printed ${JSON.stringify(out.stdout.slice(0, 120))}, without a release`);
  return match[1] as string;
}

/**
 * Describe the installed solver and prove it works: find it, read its release, digest it with
 * its solver libraries, and solve the health programs correctly (checked exactly).
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE if it is missing or fails any of these.
 */
export async function probeMilpSolver(kind: MilpSolverKind, options: ExecutableLocation & { signal?: AbortSignal; health?: HealthCache } = {}): Promise<{ runtime: ProviderRuntime; tools: MilpSolverTools }> {
  const spec = SPECS[kind];
  const binary = await findExecutable(spec.executable, options, DEFAULT_MILP_SOLVER_DIRECTORIES, spec.hint);
  try {
    const version = await readVersion(spec, binary, options.signal);
    const libraries = await linkedLibraries(binary, spec.libraries, options.signal);
    // Stamped before digesting: a file swapped in between then has a stamp of its own, which
    // checkMilpSolverIdentity does not find vouched for, and it digests the file again.
    const stamp = await fileStamps(binary, libraries);
    const { components, digest } = await compositeIdentity(binary, libraries);
    const tools: MilpSolverTools = { kind, binary, version, components, digest };
    const identity = { provider: kind, version, digest_kind: 'COMPOSITE', digest, platform: platformTag(), paths: [binary, ...libraries], check_module: fileURLToPath(import.meta.url) };
    await ensureHealthy(options.health, () => identity, () => healthCheck(tools, options.signal));
    const licenseFiles = await access(spec.copyright, constants.R_OK).then(
      () => [spec.copyright],
      () => [],
    );
    const runtime = ProviderRuntimeSchema.parse({
      provider: kind,
      availability: 'AVAILABLE',
      version,
      digest_kind: 'COMPOSITE',
      digest,
      platform: platformTag(),
      install_tier: 'T1',
      license_id: spec.license,
      license_files: licenseFiles,
      features: [...spec.features],
    });
    // The files as digested: checkMilpSolverIdentity need not digest them again until they change.
    rememberVerifiedStamp(digest, stamp);
    return { runtime, tools };
  } catch (error) {
    const cause = toAppError(error);
    if (cause.code === 'EXECUTION_CANCELLED') throw cause;
    throw new JacobianError('PROVIDER_UNAVAILABLE', `${spec.executable} at ${binary} failed its probe: ${cause.message}; ${spec.hint}`, { cause: error });
  }
}

/** A MILP solver's probe, remembering the tools its last successful probe vouched for. */
export interface MilpSolverProbe extends ProviderProbe {
  readonly tools: MilpSolverTools | undefined;
}

/** CBC or glpsol for registration: probed once at start, fail closed. */
export function milpSolverProvider(kind: MilpSolverKind, location: ExecutableLocation & { health?: HealthCache } = {}): MilpSolverProbe {
  let tools: MilpSolverTools | undefined;
  return {
    name: kind,
    get tools() {
      return tools;
    },
    async probe(signal) {
      const result = await probeMilpSolver(kind, { ...location, ...(signal === undefined ? {} : { signal }) });
      tools = result.tools;
      return result.runtime;
    },
  };
}
