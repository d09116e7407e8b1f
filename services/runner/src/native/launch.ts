/**
 * What starting a native tool takes and gives (see launcher.ts, which starts them, and shells.ts),
 * and what both ways of starting one share.
 */
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';

/** What to start. */
export interface LaunchRequest {
  /** Absolute path of the executable (no shell, no PATH search). */
  file: string;
  args: readonly string[];
  /** The whole environment of the tool. */
  env: Record<string, string>;
  /**
   * A file that exists and becomes the tool's stdin (opened, then unlinked once the tool has it).
   * Null: no input. A path under `/proc/` is a file without a name that the caller holds,
   * reopened through its descriptor: nothing to unlink.
   */
  stdinFile?: string | null;
  /**
   * A file that exists and becomes the tool's stdout (it is opened for writing, from its start,
   * then unlinked once the tool has it: the caller keeps its own descriptor to read it). Null:
   * stdout goes nowhere. A `/proc/` path as for `stdinFile`.
   */
  stdoutFile: string | null;
  /** Most stderr bytes reported back. */
  stderrLimit: number;
  /**
   * The tool's address-space limit (RLIMIT_AS, which the processes it starts inherit), in KiB:
   * set by the shell that execs it (`ulimit -v`). Absent or null: none. See memory.ts.
   */
  addressSpaceKiB?: number | null;
}

/** A launch refused because the tool's stdin or stdout file could not be opened. */
export class LaunchFileError extends Error {
  constructor(
    message: string,
    /** Which file could not be opened. */
    readonly opening: 'stdin' | 'stdout',
  ) {
    super(message);
    this.name = 'LaunchFileError';
  }
}

/** How a launched tool ended. */
export interface LaunchExit {
  code: number | null;
  signal: string | null;
  /** At most `stderrLimit` bytes of what it wrote to stderr. */
  stderr: string;
  /** Wall time where it was started (this process, or the launcher process), from the command to its shell (or just before the spawn) to its exit (and its stderr closed). */
  ms: number;
}

/** A tool that was started. */
export interface LaunchedTool {
  readonly pid: number;
  /** SIGKILL, if it still runs. */
  kill(): void;
  /** Settles once it has exited; rejects when what started it (its shell, or the launcher process) died first (the tool is then killed). */
  readonly exited: Promise<LaunchExit>;
}

/** A tool's `exited` promise, with the functions that settle it (see {@link LaunchedTool.exited}). */
export function exitPromise(): { exited: Promise<LaunchExit>; settle: (exit: LaunchExit) => void; lose: (error: Error) => void } {
  let settle!: (exit: LaunchExit) => void;
  let lose!: (error: Error) => void;
  const exited = new Promise<LaunchExit>((done, fail) => {
    settle = done;
    lose = fail;
  });
  // A caller that never awaits `exited` (it was stopped) must not see an unhandled rejection.
  exited.catch(() => undefined);
  return { exited, settle, lose };
}

/** SIGKILL to `pid`, if it is still there. */
export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** A child's stdio pipe is a socket, which can be ref'd and unref'd. */
export function handle(stream: Readable | Writable): { ref(): void; unref(): void } {
  return stream as unknown as Socket;
}

/** A request's address-space limit as whole KiB, or null for none (absent, not finite or not positive). */
export function addressSpaceKiBOf(request: Pick<LaunchRequest, 'addressSpaceKiB'>): number | null {
  const kib = request.addressSpaceKiB;
  return kib === undefined || kib === null || !Number.isFinite(kib) || kib <= 0 ? null : Math.ceil(kib);
}
