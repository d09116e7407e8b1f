/**
 * Linux /proc helpers for end-to-end tests: process trees, CPU time, and leftover-process
 * checks. Everything here reads /proc directly, so the tests see what the kernel sees rather
 * than what the product reports about itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProcStat {
  pid: number;
  ppid: number;
  state: string;
  /** utime + stime of the whole process (all threads), in clock ticks. */
  cpuTicks: number;
  /** Start time after boot, in clock ticks: with the pid, identifies one process across samples. */
  startTime: number;
  comm: string;
}

/** Parse /proc/<pid>/stat; undefined when the process is gone. */
export function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // comm (field 2) is parenthesized and may itself contain spaces and parentheses.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const comm = text.slice(open + 1, close);
  // Fields from 3 on; index 0 here is field 3 (state).
  const rest = text.slice(close + 2).trim().split(/\s+/);
  const field = (n: number): number => Number(rest[n - 3]);
  return {
    pid,
    ppid: field(4),
    state: rest[0] ?? '?',
    cpuTicks: field(14) + field(15),
    startTime: field(22),
    comm,
  };
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** Every live descendant of `root` (children, grandchildren, …), found through the ppid chain. */
export function descendants(root: number): ProcStat[] {
  const byParent = new Map<number, ProcStat[]>();
  for (const pid of allPids()) {
    const stat = readStat(pid);
    if (stat === undefined) continue;
    const siblings = byParent.get(stat.ppid) ?? [];
    siblings.push(stat);
    byParent.set(stat.ppid, siblings);
  }
  const found: ProcStat[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const child of byParent.get(parent) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** True while /proc/<pid> exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}

export interface CpuWindow {
  /** CPU ticks the descendants used during the window (new processes count in full). */
  ticks: number;
  pids: number[];
}

/**
 * CPU used by the descendants of `root` over `windowMs`: utime+stime read twice. A process
 * present in both samples contributes its difference; one that appeared during the window
 * contributes all its ticks; one that vanished contributes what it had used by the first
 * sample minus nothing (it is ignored: its last ticks cannot be read any more).
 */
export async function descendantCpu(root: number, windowMs: number): Promise<CpuWindow> {
  const key = (s: ProcStat): string => `${s.pid}@${s.startTime}`;
  const before = new Map(descendants(root).map((s) => [key(s), s.cpuTicks]));
  await sleep(windowMs);
  const after = descendants(root);
  let ticks = 0;
  for (const stat of after) ticks += stat.cpuTicks - (before.get(key(stat)) ?? 0);
  return { ticks, pids: after.map((s) => s.pid) };
}

export interface PollOptions {
  /** Length of one measurement window. */
  windowMs?: number;
  /** Give up after this long (a bound, not an expectation). */
  timeoutMs?: number;
}

/**
 * Wait until the descendants of `root` use at most `maxTicks` of CPU in each of `consecutive`
 * (default 2) windows in a row.
 * Polls in consecutive windows instead of sleeping a fixed time; throws with the history of
 * measurements when the bound is reached first.
 */
export async function waitForIdle(root: number, maxTicks: number, options: PollOptions & { consecutive?: number } = {}): Promise<CpuWindow[]> {
  const windowMs = options.windowMs ?? 500;
  const consecutive = options.consecutive ?? 2;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const history: CpuWindow[] = [];
  let quiet = 0;
  for (;;) {
    const window = await descendantCpu(root, windowMs);
    history.push(window);
    quiet = window.ticks <= maxTicks ? quiet + 1 : 0;
    if (quiet >= consecutive) return history;
    if (Date.now() >= deadline) {
      throw new Error(
        `descendants of ${root} never went idle (≤ ${maxTicks} ticks per ${windowMs} ms, ${consecutive} windows in a row); measured: ${history
          .map((w) => `${w.ticks} ticks [${w.pids.join(',')}]`)
          .join('; ')}`,
      );
    }
  }
}

/** Wait until the descendants of `root` use at least `minTicks` of CPU within one window. */
export async function waitForBusy(root: number, minTicks: number, options: PollOptions = {}): Promise<CpuWindow[]> {
  const windowMs = options.windowMs ?? 500;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const history: CpuWindow[] = [];
  for (;;) {
    const window = await descendantCpu(root, windowMs);
    history.push(window);
    if (window.ticks >= minTicks) return history;
    if (Date.now() >= deadline) {
      throw new Error(
        `descendants of ${root} never became busy (≥ ${minTicks} ticks per ${windowMs} ms); measured: ${history.map((w) => w.ticks).join(', ')}`,
      );
    }
  }
}

/**
 * Processes whose environment holds `NAME=value` exactly. Every process a test starts gets a
 * unique JACOBIAN_DATA_DIR and passes it on to its children (kernel pool, probe siblings), so
 * this finds all of them, even after they were re-parented.
 */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = Buffer.from(`${name}=${value}\0`);
  const found: number[] = [];
  for (const pid of allPids()) {
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue;
    }
    const at = environ.indexOf(needle);
    // Match a whole entry: at the start or right after a NUL separator.
    if (at === 0 || (at > 0 && environ[at - 1] === 0)) {
      if (isAlive(pid)) found.push(pid);
    }
  }
  return found;
}

/** Wait (bounded) until `pid` has exited. Returns false if it is still alive at the bound. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Wait until no process carries `NAME=value` in its environment; SIGKILL, by pid, whatever is
 * still there at the bound (those are ours: they carry our unique value) and return their pids
 * so the caller can fail the test.
 */
export async function reapProcessesWithEnv(name: string, value: string, timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = processesWithEnv(name, value);
    if (left.length === 0) return [];
    if (Date.now() >= deadline) {
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      return left;
    }
    await sleep(100);
  }
}
