/**
 * The CaDiCaL SAT solver as a provider: found on disk, identified by the sha256 of its
 * executable, health-checked on a tiny satisfiable and a tiny unsatisfiable instance, and run
 * on DIMACS files without a shell (started by the native-tool launcher), with a DRAT proof in
 * text form, bounded output, and a kill at the caller's deadline or abort.
 */
import { createHash } from 'node:crypto';
import { constants, fstatSync, readSync } from 'node:fs';
import { access, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JacobianError, platformTag, ProviderRuntimeSchema, toAppError, type ProviderProbe, type ProviderRuntime } from '@jacobian/shared';
import { findExecutable, type ExecutableLocation } from './executable.js';
import { ensureHealthy, type HealthCache } from './health-cache.js';
import { sharedLauncher, type LaunchExit, type LaunchedTool } from '../native/launcher.js';
import { addressSpaceLimitKiB, MemoryWatch } from '../native/memory.js';
import { sharedSpools, withSpool } from '../native/spooled.js';
import { runNativeTool } from './nauty.js';

/** The provider name capabilities built on CaDiCaL register under. */
export const CADICAL_PROVIDER = 'cadical';

/**
 * Where the probe looks when no binary is named. Library code does not read PATH (the
 * environment is read once, in entry points); an entry point may pass PATH's folders here.
 */
export const DEFAULT_CADICAL_DIRECTORIES: readonly string[] = ['/usr/local/bin', '/usr/bin', '/bin', '/opt/homebrew/bin'];

/** What the solver offers that our capabilities rely on. */
const CADICAL_FEATURES = ['dimacs-cnf', 'drat-text-proof', 'model-output'];

/** Where to find the executable: an explicit path, or folders to search for `cadical`. */
export type CadicalLocation = ExecutableLocation;

/**
 * The absolute, symlink-free path of the cadical executable.
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE when no executable is found.
 */
export async function findCadical(location: CadicalLocation = {}): Promise<string> {
  return findExecutable('cadical', location, DEFAULT_CADICAL_DIRECTORIES, 'install the cadical package (Debian: apt-get install cadical) or name the binary');
}

/** sha256 of an executable's bytes: the provider's identity (digest kind EXECUTABLE). */
export async function executableDigest(file: string): Promise<string> {
  return createHash('sha256').update(await readFile(file)).digest('hex');
}

/** How one solver run should go. */
export interface CadicalRunOptions {
  binary: string;
  cnfPath: string;
  /** Where to write the DRAT proof (text); null for no proof. */
  proofPath: string | null;
  /** Aborting kills the solver; the run then rejects with EXECUTION_CANCELLED. */
  signal: AbortSignal;
  /** Epoch ms at which the solver is killed and the run reports UNKNOWN (stopped by DEADLINE). */
  stopAt: number;
  /** Largest stdout accepted; beyond it the solver is killed and the run fails (PROVIDER_FAILED). */
  maxStdoutBytes: number;
  /** Largest proof file allowed; beyond it the solver is killed and the run reports UNKNOWN (stopped by PROOF_LIMIT). */
  maxProofBytes: number;
  /** Called once the process exists, with its pid (for supervision and tests). */
  onSpawn?: (pid: number) => void;
  /**
   * The memory budget (budget.memory_mb), in MiB: over it the solver is killed and the run
   * rejects with MEMORY_LIMIT_EXCEEDED (see native/memory.ts). Absent: no limit (the probe's tiny instances).
   */
  memoryMb?: number | undefined;
  /**
   * Reading a large answer elsewhere: when the solver ended on its own and printed more than
   * `minBytes`, its answer is not read here (on this thread) but handed to `read` with the spool
   * file (which exists until `read` settles); `read` interprets it (see
   * {@link interpretCadicalAnswer}) and its value becomes the run's `offloaded`, with `result`
   * the status it found and `model` null. Absent: every answer is read here.
   */
  offload?: { minBytes: number; read: (answer: CadicalAnswerFile) => Promise<{ result: CadicalRun['result'] }> };
}

/** The solver's answer as a file, for {@link CadicalRunOptions.offload}. */
export interface CadicalAnswerFile {
  file: string;
  bytes: number;
  exitCode: number | null;
  signal: string | null;
  stderr: string;
}

/** What one solver run found. */
export interface CadicalRun {
  result: 'SATISFIABLE' | 'UNSATISFIABLE' | 'UNKNOWN';
  /** For SATISFIABLE: `model[v]` is 1 when variable v is true, −1 when false, 0 when not printed. */
  model: Int8Array | null;
  exitCode: number | null;
  /** Why we stopped the solver ourselves, if we did. */
  stoppedBy: 'DEADLINE' | 'PROOF_LIMIT' | null;
  runtimeMs: number;
  pid: number | null;
  /** What {@link CadicalRunOptions.offload} returned, when the answer was read there. */
  offloaded?: unknown;
}

/** Why we killed the solver ourselves. */
type KillReason = 'CANCELLED' | 'DEADLINE' | 'PROOF_LIMIT' | 'OUTPUT_LIMIT' | 'MEMORY_LIMIT';

const STDERR_KEEP_BYTES = 4096;
const PROOF_POLL_MS = 100;
/** How often the spool file's size is checked against `maxStdoutBytes` while the solver runs. */
const STDOUT_POLL_MS = 10;

/** Parse the `v` lines of a satisfiable answer. */
export function parseModel(lines: readonly string[]): Int8Array {
  const literals: number[] = [];
  let max = 0;
  for (const line of lines) {
    if (!line.startsWith('v')) continue;
    for (const token of line.slice(1).trim().split(/\s+/)) {
      if (token === '') continue;
      const literal = Number(token);
      if (!Number.isSafeInteger(literal)) throw new JacobianError('PROVIDER_FAILED', `cadical printed a malformed model literal "${token.slice(0, 20)}"`);
      if (literal === 0) continue;
      literals.push(literal);
      max = Math.max(max, Math.abs(literal));
    }
  }
  const model = new Int8Array(max + 1);
  for (const literal of literals) model[Math.abs(literal)] = literal > 0 ? 1 : -1;
  return model;
}

/**
 * Run cadical on a DIMACS file. The process is started by the native-tool launcher (no fork of
 * this process), without a shell and with an empty environment, its stdout to a spool file; it
 * is killed (SIGKILL) on abort, at `stopAt`, when its stdout exceeds `maxStdoutBytes` or its
 * proof file exceeds `maxProofBytes`. The promise settles only after the process has exited, so
 * no solver outlives the call.
 *
 * @throws JacobianError EXECUTION_CANCELLED on abort; MEMORY_LIMIT_EXCEEDED over `memoryMb` (or
 *   out of its address-space cap); PROVIDER_FAILED when cadical cannot be
 *   started, exits abnormally, is lost with its launcher, or prints more or other than a SAT
 *   solver's answer.
 */
export async function runCadical(options: CadicalRunOptions): Promise<CadicalRun> {
  const { signal } = options;
  if (signal.aborted) throw new JacobianError('EXECUTION_CANCELLED', 'the solver run was cancelled before it started');
  const args = ['-q', ...(options.proofPath === null ? [] : ['--no-binary']), options.cnfPath, ...(options.proofPath === null ? [] : [options.proofPath])];
  return withSpool('cadical', sharedSpools, (spool) => runCadicalInto(options, args, spool));
}

/** {@link runCadical} once its spool file is made: `spool.fd` is read for the answer. */
async function runCadicalInto(options: CadicalRunOptions, args: string[], spool: { file: string; fd: number }): Promise<CadicalRun> {
  const { signal } = options;
  const started = Date.now();
  // Set from timers and listeners; an object so that the read after the await is not narrowed away.
  const state: { killedFor: KillReason | null; launched: LaunchedTool | null } = { killedFor: null, launched: null };
  const kill = (reason: KillReason): void => {
    if (state.killedFor !== null) return;
    state.killedFor = reason;
    state.launched?.kill();
  };
  const onAbort = (): void => kill('CANCELLED');
  const memory = options.memoryMb === undefined ? null : new MemoryWatch('cadical', options.memoryMb, () => kill('MEMORY_LIMIT'));
  signal.addEventListener('abort', onAbort, { once: true });
  const deadlineTimer = setTimeout(() => kill('DEADLINE'), Math.max(0, options.stopAt - Date.now()));
  deadlineTimer.unref();
  const proofPath = options.proofPath;
  const proofTimer =
    proofPath === null
      ? undefined
      : setInterval(() => {
          stat(proofPath).then(
            (info) => {
              if (info.size > options.maxProofBytes) kill('PROOF_LIMIT');
            },
            () => undefined,
          );
        }, PROOF_POLL_MS);
  proofTimer?.unref();
  const stdoutTimer = setInterval(() => {
    try {
      if (fstatSync(spool.fd).size > options.maxStdoutBytes) kill('OUTPUT_LIMIT');
    } catch {
      // Read again at the end, where a failure is reported.
    }
  }, STDOUT_POLL_MS);
  stdoutTimer.unref();

  let exit: LaunchExit;
  let pid: number;
  try {
    let launched: LaunchedTool;
    try {
      launched = await sharedLauncher().launch({ file: options.binary, args, env: {}, stdoutFile: spool.file, stderrLimit: STDERR_KEEP_BYTES, addressSpaceKiB: options.memoryMb === undefined ? null : addressSpaceLimitKiB(options.memoryMb) });
    } catch (error) {
      throw new JacobianError('PROVIDER_FAILED', `cadical could not be started: ${toAppError(error).message}`, { cause: error });
    }
    state.launched = launched;
    pid = launched.pid;
    if (state.killedFor !== null) launched.kill();
    else memory?.start(launched.pid);
    options.onSpawn?.(launched.pid);
    try {
      exit = await launched.exited;
    } catch (error) {
      throw new JacobianError('PROVIDER_FAILED', `cadical was lost: ${toAppError(error).message}`, { cause: error });
    }
  } finally {
    memory?.stop();
    clearTimeout(deadlineTimer);
    if (proofTimer !== undefined) clearInterval(proofTimer);
    clearInterval(stdoutTimer);
    signal.removeEventListener('abort', onAbort);
  }
  const runtimeMs = Date.now() - started;
  const base = { exitCode: exit.code, runtimeMs, pid };
  const size = fstatSync(spool.fd).size;
  if (state.killedFor === null && size > options.maxStdoutBytes) state.killedFor = 'OUTPUT_LIMIT';
  // Out of its address-space cap, cadical aborts on std::bad_alloc (SIGABRT): no answer, and not a crash.
  const outOfMemory = state.killedFor === null || state.killedFor === 'MEMORY_LIMIT' ? (memory?.explainExit(exit.code === 10 || exit.code === 20 ? 0 : exit.code, exit.signal, exit.stderr) ?? null) : null;
  if (outOfMemory !== null) throw outOfMemory;
  switch (state.killedFor) {
    case 'MEMORY_LIMIT':
      // Killed by the watch, which made its error: explainExit returned it above.
      throw new JacobianError('MEMORY_LIMIT_EXCEEDED', `cadical exceeded its memory budget of ${String(options.memoryMb)} MiB and was killed`);
    case 'CANCELLED':
      throw new JacobianError('EXECUTION_CANCELLED', 'the solver run was cancelled; the solver was killed');
    case 'OUTPUT_LIMIT':
      throw new JacobianError('PROVIDER_FAILED', `cadical printed more than ${options.maxStdoutBytes} bytes; it was killed`);
    case 'DEADLINE':
    case 'PROOF_LIMIT':
      return { ...base, result: 'UNKNOWN', model: null, stoppedBy: state.killedFor };
    case null:
      break;
  }
  if (options.offload !== undefined && size > options.offload.minBytes) {
    const read = await options.offload.read({ file: spool.file, bytes: size, exitCode: exit.code, signal: exit.signal, stderr: exit.stderr });
    return { ...base, result: read.result, model: null, stoppedBy: null, offloaded: read };
  }
  const bytes = Buffer.alloc(size);
  for (let offset = 0; offset < size; ) {
    const got = readSync(spool.fd, bytes, offset, size - offset, offset);
    if (got === 0) break;
    offset += got;
  }
  const answer = interpretCadicalAnswer(bytes.toString('utf8'), exit.code, exit.signal, exit.stderr);
  return { ...base, ...answer, stoppedBy: null };
}

/**
 * What cadical's stdout and exit say, once it ended on its own: the status, and for SATISFIABLE
 * the model (`model[v]` 1 true, −1 false, 0 not printed). Pure, so that a large answer can be
 * read in an isolated kernel (see {@link CadicalRunOptions.offload}) as a small one is here.
 *
 * @throws JacobianError PROVIDER_FAILED when the output is not a SAT solver's answer consistent with the exit code.
 */
export function interpretCadicalAnswer(text: string, exitCode: number | null, exitSignal: string | null, stderr: string): { result: CadicalRun['result']; model: Int8Array | null } {
  const lines = text.split('\n');
  const status = lines.find((line) => line.startsWith('s '))?.trim();
  if (status === 's SATISFIABLE' && exitCode === 10) return { result: 'SATISFIABLE', model: parseModel(lines) };
  if (status === 's UNSATISFIABLE' && exitCode === 20) return { result: 'UNSATISFIABLE', model: null };
  if (status === 's UNKNOWN' && exitCode === 0) return { result: 'UNKNOWN', model: null };
  const detail = stderr.slice(0, 500).trim();
  throw new JacobianError(
    'PROVIDER_FAILED',
    `cadical ended with exit code ${String(exitCode)}${exitSignal === null ? '' : ` (signal ${exitSignal})`} and status line ${status === undefined ? '(none)' : JSON.stringify(status)}${detail === '' ? '' : `: ${detail}`}`,
  );
}

/**
 * Whether a DRAT proof in text form ends by deriving the empty clause: its last added lemma
 * (deletion lines `d …` after it are ignored, cadical writes some) is the line `0`.
 */
export function endsWithEmptyClause(proof: string): boolean {
  const added = proof
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('d'));
  return added.at(-1) === '0';
}

/** Bound on each step of the probe: the version, and each health-check instance. */
const HEALTH_TIMEOUT_MS = 10_000;

/** `cadical --version`, bounded in time and output, started by the native-tool launcher like every run. */
async function readVersion(binary: string, signal?: AbortSignal): Promise<string> {
  let text: string;
  try {
    text = (await runNativeTool(binary, ['--version'], '', { signal, deadline: Date.now() + HEALTH_TIMEOUT_MS, maxOutputBytes: 4096 })).stdout;
  } catch (error) {
    throw new JacobianError('PROVIDER_UNAVAILABLE', `cadical --version failed: ${toAppError(error).message}`, { cause: error });
  }
  const version = text.split('\n')[0]?.trim() ?? '';
  if (version === '' || version.length > 64) {
    throw new JacobianError('PROVIDER_UNAVAILABLE', `cadical --version printed no version line of 1 to 64 characters (output ${JSON.stringify(text.slice(0, 64))})`);
  }
  return version;
}

/** (x1 ∨ x2) ∧ ¬x1 ∧ (¬x2 ∨ x3): satisfiable only by x1 = false, x2 = true, x3 = true. */
const HEALTH_SAT = { text: 'p cnf 3 3\n1 2 0\n-1 0\n-2 3 0\n', model: [-1, 2, 3] };
/** All four clauses over two variables: unsatisfiable. */
const HEALTH_UNSAT = 'p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n';

/** Solve the two tiny instances and check the answers, the model and the proof. */
async function healthCheck(binary: string, signal: AbortSignal): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'jacobian-cadical-probe-'));
  try {
    const satPath = path.join(dir, 'sat.cnf');
    const unsatPath = path.join(dir, 'unsat.cnf');
    const proofPath = path.join(dir, 'unsat.drat');
    await writeFile(satPath, HEALTH_SAT.text);
    await writeFile(unsatPath, HEALTH_UNSAT);
    const common = { binary, signal, maxStdoutBytes: 4096, maxProofBytes: 65_536 };
    const sat = await runCadical({ ...common, cnfPath: satPath, proofPath: null, stopAt: Date.now() + HEALTH_TIMEOUT_MS });
    const model = sat.model;
    if (sat.result !== 'SATISFIABLE' || model === null || HEALTH_SAT.model.some((literal) => model[Math.abs(literal)] !== Math.sign(literal))) {
      throw new Error(`the satisfiable instance was answered ${sat.result} with model ${model === null ? 'none' : Array.from(model).join(' ')}`);
    }
    const unsat = await runCadical({ ...common, cnfPath: unsatPath, proofPath, stopAt: Date.now() + HEALTH_TIMEOUT_MS });
    if (unsat.result !== 'UNSATISFIABLE') throw new Error(`the unsatisfiable instance was answered ${unsat.result}`);
    if (!endsWithEmptyClause(await readFile(proofPath, 'utf8'))) throw new Error('the DRAT proof of the unsatisfiable instance does not end with the empty clause');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The Debian package's license file, when it is there. */
async function licenseFiles(binary: string): Promise<string[]> {
  const candidates = ['/usr/share/doc/cadical/copyright', path.join(path.dirname(binary), '..', 'share', 'doc', 'cadical', 'copyright')];
  const found: string[] = [];
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.R_OK);
      const resolved = path.resolve(candidate);
      if (!found.includes(resolved)) found.push(resolved);
    } catch {
      // Not installed alongside: the license is still MIT.
    }
  }
  return found;
}

/**
 * Describe the installed cadical and prove it works: find the executable, read its version,
 * digest its bytes, and solve a tiny SAT and a tiny UNSAT instance correctly (model checked,
 * proof ending with the empty clause).
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE if it is missing or fails any of these.
 */
export async function probeCadical(options: CadicalLocation & { signal?: AbortSignal; health?: HealthCache } = {}): Promise<ProviderRuntime> {
  const binary = await findCadical(options);
  const signal = options.signal ?? new AbortController().signal;
  try {
    const version = await readVersion(binary, options.signal);
    const digest = await executableDigest(binary);
    const identity = { provider: CADICAL_PROVIDER, version, digest_kind: 'EXECUTABLE', digest, platform: platformTag(), paths: [binary], check_module: fileURLToPath(import.meta.url) };
    await ensureHealthy(options.health, () => identity, () => healthCheck(binary, signal));
    return ProviderRuntimeSchema.parse({
      provider: CADICAL_PROVIDER,
      availability: 'AVAILABLE',
      version,
      digest_kind: 'EXECUTABLE',
      digest,
      platform: platformTag(),
      install_tier: 'T1',
      license_id: 'MIT',
      license_files: await licenseFiles(binary),
      features: [...CADICAL_FEATURES],
    });
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === 'PROVIDER_UNAVAILABLE') throw appError;
    throw new JacobianError('PROVIDER_UNAVAILABLE', `cadical at ${binary} failed its health check: ${appError.message}`, { cause: error });
  }
}

/** The cadical provider for registration: probed once at start, fail closed. */
export function cadicalProvider(location: CadicalLocation & { health?: HealthCache } = {}): ProviderProbe {
  return { name: CADICAL_PROVIDER, probe: (signal) => probeCadical({ ...location, ...(signal === undefined ? {} : { signal }) }) };
}
