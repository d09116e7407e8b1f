/**
 * Linux processes as /proc shows them, for the tests in test/ and the benchmarks in bench/:
 * parsed /proc/<pid>/stat, resident memory, process trees through the ppid chain, and finding (and killing by
 * PID) the processes that carry a marker variable in their environment. Everything here reads
 * /proc directly, so callers see what the kernel sees rather than what a process reports about
 * itself. Linux only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** The fields of /proc/<pid>/stat the callers use; see {@link readStat}. */
export interface ProcStat {
  pid: number;
  ppid: number;
  /** One letter: R running, S sleeping, Z zombie, … */
  state: string;
  /** utime + stime of the whole process (all threads), in clock ticks. */
  cpuTicks: number;
  /** cutime + cstime: CPU time of its children that it has waited for (reaped), in clock ticks. */
  reapedChildrenCpuTicks: number;
  /** Start time after boot, in clock ticks: with the pid, identifies one process across samples. */
  startTime: number;
  comm: string;
}

/** The text of /proc/<pid>/<file>; undefined when the process is gone. */
function readProcFile(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Parse /proc/<pid>/stat; undefined when the process is gone. */
export function readStat(pid: number): ProcStat | undefined {
  const text = readProcFile(pid, 'stat');
  if (text === undefined) return undefined;
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
    reapedChildrenCpuTicks: field(16) + field(17),
    startTime: field(22),
    comm,
  };
}

/** Resident set size of a process, in KiB (VmRSS of /proc/<pid>/status); undefined when it is gone. */
export function rssKiB(pid: number): number | undefined {
  const text = readProcFile(pid, 'status');
  if (text === undefined) return undefined;
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** PIDs of every process in /proc (this one included). */
function listPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** Every live descendant of `root` (children, grandchildren, …), found through the ppid chain; breadth first. */
export function descendants(root: number): ProcStat[] {
  const byParent = new Map<number, ProcStat[]>();
  for (const pid of listPids()) {
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

/**
 * Live processes (other than this one) whose environment holds `NAME=value` exactly. A unique
 * value given to every process a caller starts is passed on to their children too, so this
 * finds all of them, even after they were re-parented.
 */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = Buffer.from(`${name}=${value}\0`);
  const found: number[] = [];
  for (const pid of listPids()) {
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

/**
 * Wait until no process carries `NAME=value` in its environment; SIGKILL, by pid, whatever is
 * still there at the bound (those are the caller's: they carry its unique value) and return
 * their pids, so that the caller can report them.
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
