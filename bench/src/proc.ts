/**
 * Processes the benchmarks start, and what /proc says about them. Every process is started
 * here, carries this run's unique JACOBIAN_BENCH_RUN in its environment, and is stopped by its
 * PID (SIGTERM, then SIGKILL after a grace period); anything still carrying the marker at the
 * end (kernel-pool children, say) is killed by PID too. The /proc readings themselves (stat,
 * RSS, process trees, processes found by their environment) are in @jacobian/shared/testing,
 * shared with the tests in test/.
 */
import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { descendants, readStat, reapProcessesWithEnv } from '@jacobian/shared/testing';

const INHERITED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'];

/** The variable that marks every process of one benchmark run. */
export const RUN_MARKER = 'JACOBIAN_BENCH_RUN';

let tasksetChecked: boolean | undefined;

/** Whether `taskset` (util-linux) is on PATH. */
export function hasTaskset(): boolean {
  tasksetChecked ??= spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0;
  return tasksetChecked;
}

/** A hermetic environment: basic variables of this process, none of its JACOBIAN_* or NODE_OPTIONS, plus `extra`. */
export function childEnvironment(runTag: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra, [RUN_MARKER]: runTag };
}

export interface StopOutcome {
  name: string;
  pid: number;
  graceful: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Where its stderr (and stdout unless piped) goes. */
  readonly logFile: string;
  /** Pinned to this CPU with taskset, if it was. */
  readonly core: number | undefined;
  exited(): boolean;
  /** Resolves with the exit code once the process has exited. */
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(graceMs?: number): Promise<StopOutcome>;
}

export interface SpawnOptions {
  env: Record<string, string>;
  cwd: string;
  logFile: string;
  /** Pin to this CPU with `taskset -c` (when taskset exists). */
  core?: number;
  /** Pipe stdout to this process instead of the log file. */
  pipeStdout?: boolean;
  /** Pipe stdin from this process. */
  pipeStdin?: boolean;
}

/** The processes of one run, stopped together in reverse order of start. */
export class ProcessGroup {
  private readonly processes: ManagedProcess[] = [];

  constructor(readonly runTag: string) {}

  /** Start `node <args>` (through `taskset -c <core>` when pinned; taskset execs, so the PID is node's). */
  spawnNode(name: string, args: readonly string[], options: SpawnOptions): ManagedProcess {
    const pin = options.core !== undefined && hasTaskset();
    const command = pin ? 'taskset' : process.execPath;
    const argv = pin ? ['-c', String(options.core), process.execPath, ...args] : [...args];
    const log = openSync(options.logFile, 'a');
    const stdio: StdioOptions = [options.pipeStdin ? 'pipe' : 'ignore', options.pipeStdout ? 'pipe' : log, log];
    let child: ChildProcess;
    try {
      child = spawn(command, argv, { cwd: options.cwd, env: options.env, stdio });
    } finally {
      closeSync(log);
    }
    const pid = child.pid;
    if (pid === undefined) throw new Error(`could not start ${name}`);
    let done = false;
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => {
        done = true;
        resolve({ code, signal });
      });
    });
    let stopping: Promise<StopOutcome> | undefined;
    const managed: ManagedProcess = {
      name,
      pid,
      child,
      logFile: options.logFile,
      core: pin ? options.core : undefined,
      exited: () => done,
      exit,
      stop: (graceMs = 20_000) =>
        (stopping ??= (async () => {
          if (done) return { name, pid, graceful: true, ...(await exit) };
          child.kill('SIGTERM');
          const timer = sleep(graceMs, undefined, { ref: false }).then(() => undefined);
          const outcome = await Promise.race([exit, timer]);
          if (outcome !== undefined) return { name, pid, graceful: true, ...outcome };
          child.kill('SIGKILL');
          return { name, pid, graceful: false, ...(await exit) };
        })()),
    };
    this.processes.push(managed);
    return managed;
  }

  /** Name and PID of every live process of the group. */
  list(): { name: string; pid: number }[] {
    return this.processes.filter((p) => !p.exited()).map((p) => ({ name: p.name, pid: p.pid }));
  }

  /** Live PIDs of the group. */
  pids(): number[] {
    return this.processes.filter((p) => !p.exited()).map((p) => p.pid);
  }

  /** Stop every process, last started first; then kill by PID whatever still carries the run marker. */
  async stopAll(): Promise<{ stopped: StopOutcome[]; leftovers: number[] }> {
    const stopped: StopOutcome[] = [];
    for (const managed of [...this.processes].reverse()) {
      stopped.push(await managed.stop());
    }
    this.processes.length = 0;
    const leftovers = await reapProcessesWithEnv(RUN_MARKER, this.runTag, 10_000);
    return { stopped, leftovers };
  }
}

/** Resolve with the first JSON log line of `file` that satisfies `match`; fail if `process` exits or time runs out. */
export async function waitForLogLine<T>(
  managed: ManagedProcess,
  match: (entry: Record<string, unknown>) => T | undefined,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let text = '';
    try {
      text = readFileSync(managed.logFile, 'utf8');
    } catch {
      // Not written yet.
    }
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof entry === 'object' && entry !== null) {
        const found = match(entry as Record<string, unknown>);
        if (found !== undefined) return found;
      }
    }
    if (managed.exited()) throw new Error(`${managed.name} (pid ${managed.pid}) exited before it was ready; see ${managed.logFile}:\n${text.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`${managed.name} (pid ${managed.pid}) was not ready within ${timeoutMs} ms; see ${managed.logFile}:\n${text.slice(-2000)}`);
    await sleep(100);
  }
}

/** Every JSON line of a log file. */
export function readJsonLines(file: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const entries: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry: unknown = JSON.parse(line);
      if (typeof entry === 'object' && entry !== null) entries.push(entry as Record<string, unknown>);
    } catch {
      // A partial last line.
    }
  }
  return entries;
}

/** CPU time of a process and its live descendants (plus their reaped children), in ms. */
export function cpuMs(pid: number, withDescendants = true): number {
  let ticks = ticksWithReaped(pid);
  if (withDescendants) for (const child of descendants(pid)) ticks += ticksWithReaped(child.pid);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** utime + stime + cutime + cstime: a process and its reaped children, in clock ticks; 0 when it is gone. */
function ticksWithReaped(pid: number): number {
  const stat = readStat(pid);
  return stat === undefined ? 0 : stat.cpuTicks + stat.reapedChildrenCpuTicks;
}

/** CPU time of this process alone (not its children), in ms. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** The clock-tick rate of /proc times (USER_HZ); 100 on every mainstream Linux. */
const TICKS_PER_SECOND = 100;

interface CpuSnapshot {
  at: number;
  machineBusy: number;
  ours: number;
}

function machineBusyTicks(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, ...fields] = line.trim().split(/\s+/);
  const values = fields.map(Number);
  const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return total - idle;
}

/**
 * CPU accounting for a measurement window: the machine's busy time from /proc/stat against
 * the time of this process, its descendants (reaped ones included, through cutime/cstime) and
 * the extra PIDs given (the daemonized Redis). What is left is other work on the machine.
 */
export class CpuWindow {
  private start: CpuSnapshot;

  constructor(private readonly extraPids: () => readonly number[]) {
    this.start = this.snapshot();
  }

  private snapshot(): CpuSnapshot {
    const ours = [process.pid, ...descendants(process.pid).map((stat) => stat.pid), ...this.extraPids()];
    let ticks = 0;
    for (const pid of new Set(ours)) ticks += ticksWithReaped(pid);
    return { at: performance.now(), machineBusy: machineBusyTicks(), ours: ticks };
  }

  /** Busy cores (machine, ours, others) averaged over the window since construction or the last call. */
  lap(): { seconds: number; machine_busy_cores: number; bench_cores: number; other_cores: number } {
    const end = this.snapshot();
    const seconds = (end.at - this.start.at) / 1000;
    const cores = (ticks: number): number => Math.round((ticks / TICKS_PER_SECOND / Math.max(seconds, 1e-9)) * 100) / 100;
    const machine = cores(end.machineBusy - this.start.machineBusy);
    const ours = cores(end.ours - this.start.ours);
    this.start = end;
    return { seconds: Math.round(seconds * 10) / 10, machine_busy_cores: machine, bench_cores: ours, other_cores: Math.max(0, Math.round((machine - ours) * 100) / 100) };
  }
}

export function machineInfo(): Record<string, unknown> {
  const list = cpus();
  return {
    nproc: list.length,
    cpu_model: list[0]?.model ?? 'unknown',
    memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    taskset: hasTaskset(),
    loadavg_at_start: loadavg().map((v) => Math.round(v * 100) / 100),
  };
}
