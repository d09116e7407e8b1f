/**
 * A warm pool of forked Node processes that run CPU-bound kernels in isolation.
 *
 * Why processes and not a `Promise.race`: a timed-out or cancelled kernel must stop burning
 * CPU. A synchronous loop (exhaustive enumeration, a Z3 call) cannot be interrupted from the
 * same thread, so the parent enforces every hard limit by SIGKILL-ing the child and then
 * replacing it. Children are reused between tasks so expensive kernel initialization (such as
 * Z3's WASM start-up) is paid once per child, not once per task.
 *
 * Warm modules: a kernel killed at its wall time or by a cancel took its child's start-up work
 * with it (its module's import, and whatever the module sets up on first use). Left so, a task
 * whose budget is shorter than that start-up would time out on every new child, for ever: with
 * 150 ms, `graph.induced_tree.maximum.compute` on a 4-cycle never completed (Z3's start-up in a
 * new child is about 0.5 s; a warm child answers in 5 ms). So the module of such a kernel is
 * remembered, and every child started later imports it, and awaits its `warmUp` export if it has
 * one, before it says ready (a task waiting for that child waits, counted in its budget, without
 * killing it). Modules of kernels that end otherwise (done, failed, over their memory budget) are
 * not: a module is warmed only where a run has shown it needs to be.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { JacobianError, toAppError, type ErrorCode, type SerializedError } from '../errors.js';
import { validProgress, type ProgressListener, type RunProgress } from '../contracts/progress.js';
import { RUNNING_COMPILED, runnableFile } from '../module-files.js';
import { isChildMessage, type ChildMessage, type RunMessage } from './protocol.js';

/** Where a kernel lives: a module (absolute path or `file://` URL, TS or JS) and one of its exports. */
export interface KernelRef {
  module: string;
  exportName: string;
}

/** Hard limits for one invocation; all are enforced by the parent process. */
export interface ExecutionBudget {
  /** Wall-clock time from dispatch to the child until the child is killed. */
  wallTimeMs: number;
  /** Resident set size of the whole child process, in MiB (1 MiB = 1024 × 1024 bytes). */
  memoryMb: number;
  /** Size of the output, measured as UTF-8 bytes of its JSON text. */
  maxOutputBytes: number;
}

/** One unit of work for an {@link IsolatedExecutor}. */
export interface KernelTask {
  kernel: KernelRef;
  /** Must be JSON-serializable; it crosses the process boundary as JSON. */
  input: unknown;
  budget: ExecutionBudget;
  /**
   * How long before the hard wall-time kill the kernel's `ctx.deadline` falls (and `ctx.signal`
   * fires). Defaults to 10% of `wallTimeMs`, at least 50 ms; never more than half the budget.
   */
  softDeadlineMarginMs?: number;
}

/** How an invocation ended. `run` resolves with one of these; it does not reject for kernel failures. */
export type KernelOutcome =
  | { status: 'COMPLETED'; output: unknown; runtimeMs: number; peakRssMb?: number }
  | { status: 'TIMEOUT' | 'CANCELLED' | 'ERROR'; error: SerializedError; runtimeMs: number };

/** The second argument every kernel receives. */
export interface KernelContext {
  /** Epoch milliseconds by which a cooperative kernel should return (before the hard kill). */
  readonly deadline: number;
  /** Aborted at the soft deadline, with an EXECUTION_TIMEOUT JacobianError as its reason. */
  readonly signal: AbortSignal;
  /**
   * Report how far the kernel has come. Cheap but not free (one IPC message): call it when
   * something changes (a bound improves), not in a tight loop.
   */
  readonly progress: (progress: RunProgress) => void;
}

/** The shape a kernel export must have. Output must be JSON-serializable. */
export type KernelFunction<I = unknown, O = unknown> = (input: I, ctx: KernelContext) => O | Promise<O>;

/** Runs kernels so that a timeout or cancellation really stops the work. */
export interface IsolatedExecutor {
  /**
   * Run one task. Resolves once the task has finished and, if its child had to be killed,
   * once that child has exited. Rejects only when the executor is closed.
   */
  run(task: KernelTask, options?: { signal?: AbortSignal; onProgress?: ProgressListener }): Promise<KernelOutcome>;
  /** Live child processes: how many exist, how many hold a task, and their pids. */
  stats(): { size: number; busy: number; idle: number; pids: number[] };
  /** Kill every child and wait for each to exit. Idempotent. Pending and running tasks resolve CANCELLED. */
  close(): Promise<void>;
}

/** Options for {@link createProcessPool}. */
export interface ProcessPoolOptions {
  /** Maximum number of child processes, and so of tasks running at once. */
  size: number;
  /** Children kept started and waiting for work (0 … size). Defaults to `size`. */
  idleChildren?: number;
  /** Environment of the children. Defaults to the parent's environment. */
  env?: NodeJS.ProcessEnv;
  /**
   * The idle children are started once this settles rather than at once (a task before then
   * still starts a child for itself). A starting process passes its start-up, so children
   * booting do not take the CPU its start-up needs.
   */
  warmAfter?: Promise<unknown>;
}

// 50 ms bounds how far past its memory budget a fast-allocating kernel can get before the kill.
const MEMORY_POLL_INTERVAL_MS = 50;
// A child that has not said "ready" by then is broken (tsx missing, disk stalled…).
const CHILD_STARTUP_TIMEOUT_MS = 30_000;
const BYTES_PER_MIB = 1024 * 1024;
const MIN_SOFT_MARGIN_MS = 50;

interface Job {
  readonly task: KernelTask;
  readonly resolve: (outcome: KernelOutcome) => void;
  readonly onProgress: ProgressListener | undefined;
  settled: boolean;
  worker: Worker | undefined;
  detachAbort: () => void;
  /**
   * When the task's wall time ends (performance.now() clock): it counts from run(), so time spent
   * waiting for a free child or for a child to start is part of the budget.
   */
  readonly deadline: number;
  /** Settles the task as TIMEOUT if it has not started by its deadline. */
  waitTimer: NodeJS.Timeout | undefined;
}

interface Execution {
  readonly id: number;
  readonly startedAt: number;
  readonly timers: NodeJS.Timeout[];
  /** Whether VmHWM was reset for this task, making it the true peak between polls. */
  hwmReset: boolean;
  peakRssBytes: number;
  /** Set when the parent decided to kill; reported once the child has actually exited. */
  killOutcome: { status: 'TIMEOUT' | 'CANCELLED' | 'ERROR'; error: SerializedError } | undefined;
  /** The kernel's module (a file:// URL). */
  readonly moduleUrl: string;
}

interface Worker {
  readonly child: ChildProcess;
  readonly pid: number | undefined;
  readonly exited: Promise<void>;
  ready: boolean;
  dying: boolean;
  gone: boolean;
  job: Job | undefined;
  execution: Execution | undefined;
  startupTimer: NodeJS.Timeout | undefined;
  markExited: () => void;
}

function failure(code: ErrorCode, message: string, data?: Record<string, unknown>): SerializedError {
  return new JacobianError(code, message, data === undefined ? {} : { data }).toJSON();
}

function isPositiveFinite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/** Returns a reason the task is malformed, or undefined when it can be dispatched. */
function validateTask(task: KernelTask): SerializedError | undefined {
  const { kernel, budget } = task;
  if (typeof kernel?.module !== 'string' || typeof kernel.exportName !== 'string' || kernel.exportName === '') {
    return failure('INVALID_REQUEST', 'kernel must name a module and an export');
  }
  if (!kernel.module.startsWith('file:') && !isAbsolute(kernel.module)) {
    return failure('INVALID_REQUEST', `kernel module must be an absolute path or file:// URL, got "${kernel.module}"`);
  }
  if (
    !isPositiveFinite(budget?.wallTimeMs) ||
    !isPositiveFinite(budget.memoryMb) ||
    typeof budget.maxOutputBytes !== 'number' ||
    !Number.isFinite(budget.maxOutputBytes) ||
    budget.maxOutputBytes < 0
  ) {
    return failure('BUDGET_INVALID', 'budget needs positive wallTimeMs and memoryMb and a non-negative maxOutputBytes');
  }
  const margin = task.softDeadlineMarginMs;
  if (margin !== undefined && (typeof margin !== 'number' || !Number.isFinite(margin) || margin < 0)) {
    return failure('BUDGET_INVALID', 'softDeadlineMarginMs must be a non-negative number');
  }
  return undefined;
}

/** The soft-deadline margin actually applied; capped at half the budget so `deadline > start`. */
function softMarginMs(task: KernelTask): number {
  const { wallTimeMs } = task.budget;
  const requested = task.softDeadlineMarginMs ?? Math.max(MIN_SOFT_MARGIN_MS, wallTimeMs * 0.1);
  return Math.min(requested, wallTimeMs / 2);
}

/** Reads VmRSS and VmHWM (bytes) of a Linux process; undefined where /proc is unavailable. */
function readRss(pid: number): { rss: number; hwm: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const rss = /^VmRSS:\s+(\d+)\s+kB/m.exec(text)?.[1];
  const hwm = /^VmHWM:\s+(\d+)\s+kB/m.exec(text)?.[1];
  if (rss === undefined) return undefined;
  return { rss: Number(rss) * 1024, hwm: hwm === undefined ? 0 : Number(hwm) * 1024 };
}

/**
 * Reset the kernel's "peak RSS" counter so VmHWM measures only the current task — and catches
 * spikes that happen between two polls. Writing 5 to clear_refs does exactly that (Linux ≥ 4.0).
 */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

function toMib(bytes: number): number {
  return Math.round((bytes / BYTES_PER_MIB) * 10) / 10;
}

/**
 * How a child runs kernels in the form this module runs in (see module-files.ts). Compiled, a
 * child is plain `node` running child-entry.js, and kernels are compiled modules too. From the
 * TypeScript sources (tests), the child loads TypeScript through tsx's ESM entry (`tsx` →
 * `dist/loader.mjs`, resolved from this package so the child does not depend on its working
 * directory), and resolves the workspaces to their sources as this process does (the `jacobian-source`
 * export condition).
 */
function childCommand(): { entry: string; execArgv: string[] } {
  if (RUNNING_COMPILED) return { entry: fileURLToPath(new URL('./child-entry.js', import.meta.url)), execArgv: [] };
  const require = createRequire(import.meta.url);
  return {
    entry: fileURLToPath(new URL('./child-entry.ts', import.meta.url)),
    execArgv: ['--conditions=jacobian-source', '--import', pathToFileURL(require.resolve('tsx')).href],
  };
}

class ProcessPool implements IsolatedExecutor {
  private readonly size: number;
  private readonly idleTarget: number;
  private readonly env: NodeJS.ProcessEnv;
  private readonly execArgv: string[];
  private readonly entry: string;
  private readonly workers: Worker[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private closing: Promise<void> | undefined;
  /** Set when a child died before becoming ready; stops eager respawning from looping. */
  private startupBroken = false;
  /** False until `warmAfter` settled: no idle child is started ahead of work before then. */
  private warming = false;
  /** Modules of kernels killed at their wall time or by a cancel, which later children import first (see the module comment). */
  private readonly warmModules = new Set<string>();
  // If the host process exits without close(), do not leave children behind. Killing is
  // synchronous, so it works inside an 'exit' handler.
  private readonly killAllOnExit = (): void => {
    for (const worker of this.workers) worker.child.kill('SIGKILL');
  };

  constructor(options: ProcessPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) {
      throw new JacobianError('CONFIG_INVALID', `process pool size must be a positive integer, got ${options.size}`);
    }
    const idle = options.idleChildren ?? options.size;
    if (!Number.isInteger(idle) || idle < 0 || idle > options.size) {
      throw new JacobianError('CONFIG_INVALID', `idleChildren must be an integer between 0 and size, got ${idle}`);
    }
    this.size = options.size;
    this.idleTarget = idle;
    this.env = options.env ?? process.env;
    ({ entry: this.entry, execArgv: this.execArgv } = childCommand());
    process.on('exit', this.killAllOnExit);
    const startWarming = (): void => {
      this.warming = true;
      this.ensureWarm();
    };
    if (options.warmAfter === undefined) startWarming();
    else void options.warmAfter.finally(startWarming).catch(() => undefined);
  }

  run(task: KernelTask, options: { signal?: AbortSignal; onProgress?: ProgressListener } = {}): Promise<KernelOutcome> {
    if (this.closed) {
      return Promise.reject(new JacobianError('INTERNAL', 'process pool is closed; create a new pool to run tasks'));
    }
    const invalid = validateTask(task);
    if (invalid !== undefined) return Promise.resolve({ status: 'ERROR', error: invalid, runtimeMs: 0 });
    const { signal } = options;
    if (signal?.aborted) {
      return Promise.resolve({
        status: 'CANCELLED',
        error: failure('EXECUTION_CANCELLED', 'task was cancelled before it started'),
        runtimeMs: 0,
      });
    }
    return new Promise<KernelOutcome>((resolve) => {
      const job: Job = {
        task,
        resolve,
        onProgress: options.onProgress,
        settled: false,
        worker: undefined,
        detachAbort: () => {},
        deadline: performance.now() + task.budget.wallTimeMs,
        waitTimer: undefined,
      };
      job.waitTimer = setTimeout(() => this.expireWaiting(job), task.budget.wallTimeMs);
      if (signal !== undefined) {
        const onAbort = (): void => this.abort(job);
        signal.addEventListener('abort', onAbort, { once: true });
        job.detachAbort = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(job);
      this.pump();
    });
  }

  stats(): { size: number; busy: number; idle: number; pids: number[] } {
    const busy = this.workers.filter((w) => w.job !== undefined).length;
    return {
      size: this.workers.length,
      busy,
      idle: this.workers.length - busy,
      pids: this.workers.flatMap((w) => (w.pid === undefined ? [] : [w.pid])),
    };
  }

  close(): Promise<void> {
    if (this.closing !== undefined) return this.closing;
    this.closed = true;
    process.off('exit', this.killAllOnExit);
    for (const job of this.queue.splice(0)) {
      this.settle(job, this.cancelled('the process pool closed before the task started', 0));
    }
    for (const worker of [...this.workers]) {
      const job = worker.job;
      if (job !== undefined && worker.execution === undefined) {
        // Assigned to a child that is still booting: it never started.
        worker.job = undefined;
        this.settle(job, this.cancelled('the process pool closed before the task started', 0));
      }
      this.kill(worker, {
        status: 'CANCELLED',
        error: failure('EXECUTION_CANCELLED', 'the process pool closed while the task was running'),
      });
    }
    this.closing = Promise.all(this.workers.map((w) => w.exited)).then(() => undefined);
    return this.closing;
  }

  // ---- scheduling -------------------------------------------------------------------------

  /** Hand queued jobs (FIFO) to free children, spawning up to `size`; then top up warm children. */
  private pump(): void {
    if (this.closed) return;
    while (this.queue.length > 0) {
      const worker = this.freeWorker();
      if (worker === undefined) break;
      const job = this.queue.shift() as Job;
      job.worker = worker;
      worker.job = job;
      this.setRef(worker, true);
      if (worker.ready) this.start(worker, job);
      // Otherwise start() runs when the child reports ready.
    }
    this.ensureWarm();
  }

  private freeWorker(): Worker | undefined {
    const free = this.workers.filter((w) => w.job === undefined && !w.dying);
    const ready = free.find((w) => w.ready);
    if (ready !== undefined) return ready;
    if (free[0] !== undefined) return free[0];
    // Dying children still count: they exist until their exit, and `size` bounds processes.
    return this.workers.length < this.size ? this.spawn() : undefined;
  }

  private ensureWarm(): void {
    if (this.closed || this.startupBroken || !this.warming) return;
    let idle = this.workers.filter((w) => w.job === undefined && !w.dying).length;
    while (this.workers.length < this.size && idle < this.idleTarget) {
      this.spawn();
      idle += 1;
    }
  }

  /**
   * Settle a task that no child has started yet (queued, or assigned to a child still booting,
   * which stays in the pool); false when a child is already running it.
   */
  private settleWaiting(job: Job, outcome: KernelOutcome): boolean {
    const worker = job.worker;
    if (worker === undefined) {
      const index = this.queue.indexOf(job);
      if (index >= 0) this.queue.splice(index, 1);
      this.settle(job, outcome);
      return true;
    }
    if (worker.execution !== undefined) return false;
    worker.job = undefined;
    this.setRef(worker, false);
    this.settle(job, outcome);
    this.pump();
    return true;
  }

  /** The wall time of a task that never started is over: it ends as a timeout. */
  private expireWaiting(job: Job): void {
    if (job.settled) return;
    const { wallTimeMs } = job.task.budget;
    this.settleWaiting(job, {
      status: 'TIMEOUT',
      error: failure('EXECUTION_TIMEOUT', `kernel did not start within its wall-time budget of ${wallTimeMs} ms (no child process was free or ready in time)`, { wallTimeMs }),
      runtimeMs: 0,
    });
  }

  private abort(job: Job): void {
    if (job.settled) return;
    if (this.settleWaiting(job, this.cancelled('task was cancelled while waiting for a free child process', 0))) return;
    const worker = job.worker as Worker;
    this.kill(worker, {
      status: 'CANCELLED',
      error: failure('EXECUTION_CANCELLED', 'task was cancelled; its child process was killed'),
    });
  }

  private cancelled(message: string, runtimeMs: number): KernelOutcome {
    return { status: 'CANCELLED', error: failure('EXECUTION_CANCELLED', message), runtimeMs };
  }

  private settle(job: Job, outcome: KernelOutcome): void {
    if (job.settled) return;
    job.settled = true;
    if (job.waitTimer !== undefined) clearTimeout(job.waitTimer);
    job.detachAbort();
    job.resolve(outcome);
  }

  // ---- child lifecycle --------------------------------------------------------------------

  private spawn(): Worker {
    const child = fork(this.entry, this.warmModules.size === 0 ? [] : ['--warm', ...this.warmModules], {
      execArgv: this.execArgv,
      env: this.env,
      serialization: 'json',
      // Kernel stdout must never reach the parent's stdout: in stdio MCP mode that stream is
      // the protocol. Both child streams go to the parent's stderr instead.
      stdio: ['ignore', 2, 2, 'ipc'],
    });
    let markExited = (): void => {};
    const exited = new Promise<void>((resolve) => {
      markExited = resolve;
    });
    const worker: Worker = {
      child,
      pid: child.pid,
      exited,
      ready: false,
      dying: false,
      gone: false,
      job: undefined,
      execution: undefined,
      startupTimer: undefined,
      markExited,
    };
    worker.startupTimer = setTimeout(() => {
      if (!worker.ready) this.kill(worker, undefined);
    }, CHILD_STARTUP_TIMEOUT_MS);
    worker.startupTimer.unref();
    child.on('message', (message: unknown) => {
      if (isChildMessage(message)) this.onMessage(worker, message);
    });
    child.once('exit', (code, signal) => this.onExit(worker, code, signal));
    child.on('error', () => {
      // A child that never got a pid will not emit 'exit'; any other error (e.g. a send on a
      // closed channel) is followed by 'exit', which does the bookkeeping.
      if (worker.pid === undefined) this.onExit(worker, null, null);
    });
    this.workers.push(worker);
    this.setRef(worker, false);
    return worker;
  }

  /** Idle children must not keep the host process alive; busy ones must. */
  private setRef(worker: Worker, ref: boolean): void {
    if (ref) {
      worker.child.ref();
      worker.child.channel?.ref();
    } else {
      worker.child.unref();
      worker.child.channel?.unref();
    }
  }

  private kill(worker: Worker, outcome: Execution['killOutcome']): void {
    if (worker.execution !== undefined && worker.execution.killOutcome === undefined) {
      worker.execution.killOutcome = outcome;
      // Its child's start-up goes with it: the children started from now on do it first.
      if (outcome !== undefined && outcome.status !== 'ERROR') this.warmModules.add(worker.execution.moduleUrl);
      for (const timer of worker.execution.timers) clearTimeout(timer);
    }
    if (worker.dying) return;
    worker.dying = true;
    // Whoever awaits this child's exit (run() or close()) must keep the event loop alive.
    this.setRef(worker, true);
    worker.child.kill('SIGKILL');
  }

  private onExit(worker: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    if (worker.gone) return;
    worker.gone = true;
    worker.dying = true;
    if (worker.startupTimer !== undefined) clearTimeout(worker.startupTimer);
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);

    const job = worker.job;
    const execution = worker.execution;
    worker.job = undefined;
    worker.execution = undefined;
    if (execution !== undefined) {
      for (const timer of execution.timers) clearTimeout(timer);
    }
    if (!worker.ready && !this.closed) this.startupBroken = true;

    if (job !== undefined) {
      const runtimeMs = execution === undefined ? 0 : performance.now() - execution.startedAt;
      const decided = execution?.killOutcome;
      if (decided !== undefined) {
        this.settle(job, { ...decided, runtimeMs });
      } else {
        const what = execution === undefined ? 'before it was ready' : 'while running the kernel';
        this.settle(job, {
          status: 'ERROR',
          error: failure('EXECUTION_CRASHED', `child process ${worker.pid ?? '?'} exited unexpectedly ${what}`, {
            exitCode: code,
            signal,
          }),
          runtimeMs,
        });
      }
    }
    worker.markExited();
    this.pump();
  }

  private onMessage(worker: Worker, message: ChildMessage): void {
    if (message.type === 'ready') {
      if (worker.ready || worker.dying) return;
      worker.ready = true;
      this.startupBroken = false;
      if (worker.startupTimer !== undefined) clearTimeout(worker.startupTimer);
      if (worker.job !== undefined && worker.execution === undefined) this.start(worker, worker.job);
      else this.pump();
      return;
    }
    const execution = worker.execution;
    const job = worker.job;
    // Late replies from a task we already decided to kill are ignored: the kill stands.
    if (execution === undefined || job === undefined || execution.id !== message.id) return;
    if (execution.killOutcome !== undefined || worker.dying) return;
    if (message.type === 'progress') {
      // A child is less trusted than our code: a malformed report is dropped.
      const progress = validProgress(message.progress);
      if (progress !== undefined) job.onProgress?.(progress);
      return;
    }

    for (const timer of execution.timers) clearTimeout(timer);
    // One last reading so a short task still reports its peak; never a kill at this point.
    this.sampleMemory(worker, execution, false);
    const runtimeMs = performance.now() - execution.startedAt;
    worker.execution = undefined;
    worker.job = undefined;
    this.setRef(worker, false);

    if (message.type === 'error') {
      const error = toAppError(message.error).toJSON();
      const status =
        error.code === 'EXECUTION_TIMEOUT' ? 'TIMEOUT' : error.code === 'EXECUTION_CANCELLED' ? 'CANCELLED' : 'ERROR';
      this.settle(job, { status, error, runtimeMs });
    } else {
      this.settle(job, this.completed(job.task, message, execution, runtimeMs));
    }
    this.pump();
  }

  private completed(
    task: KernelTask,
    message: Extract<ChildMessage, { type: 'result' }>,
    execution: Execution,
    runtimeMs: number,
  ): KernelOutcome {
    // The child already checked; checking again means a buggy or hostile child cannot push
    // an oversized output past the budget.
    const bytes = Buffer.byteLength(message.outputJson, 'utf8');
    const limit = task.budget.maxOutputBytes;
    if (bytes > limit) {
      return {
        status: 'ERROR',
        error: failure('OUTPUT_LIMIT_EXCEEDED', `kernel output is ${bytes} bytes of JSON, over the limit of ${limit}`, {
          outputBytes: bytes,
          maxOutputBytes: limit,
        }),
        runtimeMs,
      };
    }
    let output: unknown;
    try {
      output = JSON.parse(message.outputJson);
    } catch {
      return { status: 'ERROR', error: failure('INTERNAL', 'child sent output that is not valid JSON'), runtimeMs };
    }
    const peak = Math.max(execution.peakRssBytes, typeof message.rssBytes === 'number' ? message.rssBytes : 0);
    return { status: 'COMPLETED', output, runtimeMs, ...(peak > 0 ? { peakRssMb: toMib(peak) } : {}) };
  }

  // ---- one execution ----------------------------------------------------------------------

  private start(worker: Worker, job: Job): void {
    const { task } = job;
    const pid = worker.pid;
    const id = this.nextId++;
    const startedAt = performance.now();
    if (job.waitTimer !== undefined) clearTimeout(job.waitTimer);
    job.waitTimer = undefined;
    // What is left of the wall time after waiting for this child (the wait timer has not fired,
    // so some is left); the soft margin stays at most half of it.
    const wallTimeMs = Math.max(1, Math.round(job.deadline - startedAt));
    const budgetMs = task.budget.wallTimeMs;
    const margin = Math.min(softMarginMs(task), wallTimeMs / 2);
    const moduleUrl = pathToFileURL(runnableFile(task.kernel.module.startsWith('file:') ? fileURLToPath(task.kernel.module) : task.kernel.module)).href;
    const message: RunMessage = {
      type: 'run',
      id,
      moduleUrl,
      exportName: task.kernel.exportName,
      input: task.input,
      deadline: Date.now() + wallTimeMs - margin,
      maxOutputBytes: task.budget.maxOutputBytes,
    };
    const execution: Execution = {
      id,
      startedAt,
      timers: [],
      hwmReset: pid !== undefined && process.platform === 'linux' && resetPeakRss(pid),
      peakRssBytes: 0,
      killOutcome: undefined,
      moduleUrl,
    };

    try {
      worker.child.send(message);
    } catch (error) {
      // JSON serialization happens synchronously inside send(); the child saw nothing.
      worker.job = undefined;
      this.setRef(worker, false);
      this.settle(job, {
        status: 'ERROR',
        error: failure('INVALID_REQUEST', `task input is not JSON-serializable: ${toAppError(error).message}`),
        runtimeMs: 0,
      });
      this.pump();
      return;
    }
    worker.execution = execution;

    execution.timers.push(
      setTimeout(() => {
        this.kill(worker, {
          status: 'TIMEOUT',
          error: failure('EXECUTION_TIMEOUT', `kernel exceeded its wall-time budget of ${budgetMs} ms and was killed`, {
            wallTimeMs: budgetMs,
          }),
        });
      }, wallTimeMs),
    );
    if (margin > 0) {
      const soft = setTimeout(() => {
        if (worker.execution !== execution || worker.dying) return;
        try {
          worker.child.send({ type: 'soft-cancel', id });
        } catch {
          // The channel is closing because the child is exiting; 'exit' reports that.
        }
      }, wallTimeMs - margin);
      soft.unref();
      execution.timers.push(soft);
    }
    if (pid !== undefined && process.platform === 'linux') {
      const poll = setInterval(() => this.sampleMemory(worker, execution, true), MEMORY_POLL_INTERVAL_MS);
      poll.unref();
      execution.timers.push(poll);
    }
  }

  /** Record the child's RSS; when `enforce`, kill it if it is over the task's memory budget. */
  private sampleMemory(worker: Worker, execution: Execution, enforce: boolean): void {
    if (worker.pid === undefined || execution.killOutcome !== undefined) return;
    const sample = readRss(worker.pid);
    if (sample === undefined) return;
    const current = execution.hwmReset ? Math.max(sample.rss, sample.hwm) : sample.rss;
    execution.peakRssBytes = Math.max(execution.peakRssBytes, current);
    const job = worker.job;
    if (!enforce || job === undefined || worker.execution !== execution) return;
    const limitMb = job.task.budget.memoryMb;
    if (execution.peakRssBytes > limitMb * BYTES_PER_MIB) {
      this.kill(worker, {
        status: 'ERROR',
        error: failure(
          'MEMORY_LIMIT_EXCEEDED',
          `kernel used ${toMib(execution.peakRssBytes)} MiB of memory, over its budget of ${limitMb} MiB, and was killed`,
          { rssMb: toMib(execution.peakRssBytes), memoryMb: limitMb },
        ),
      });
    }
  }
}

/**
 * Create a pool of isolated child processes for running kernels.
 *
 * `idleChildren` children are started immediately and re-started after a kill, so a task
 * usually finds a warm child; the pool never holds more than `size` processes.
 */
export function createProcessPool(options: ProcessPoolOptions): IsolatedExecutor {
  return new ProcessPool(options);
}
