/**
 * /proc-based waits for end-to-end tests: CPU time of a process tree over a window, waiting
 * for it to go idle or busy, and for a process to exit. The /proc readings themselves (stat,
 * process trees, processes found by an environment marker) are in @jacobian/shared/testing,
 * shared with the benchmarks.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { descendants, isAlive, type ProcStat } from '@jacobian/shared/testing';

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

/** Wait (bounded) until `pid` has exited. Returns false if it is still alive at the bound. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}
