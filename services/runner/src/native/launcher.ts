/**
 * Starting native tools through a small launcher process (launcher-process.mjs) instead of
 * forking this one.
 *
 * A spawn forks the process that makes it, and Linux copies the page tables of every private
 * page on a fork, with the event loop blocked meanwhile. Measured on this project's test machine
 * (2 vCPUs, Node 20), wall time of one `spawn()` call:
 * - a Node process with 8 MB of private memory: 0.8 ms;
 * - the benchmark's process (180 MB, as much as `jacobian serve` holds at start): 2.5–3.5 ms;
 * - with 200 MB of buffers: 9–12 ms.
 * The launcher holds a few MB, and this process only writes one line to a pipe. Even so, a spawn
 * from the launcher took 2 ms on this machine on 2026-12-01 (its whole process forked, then the
 * exec waited for), so the launcher starts tools through long-lived shells of its own where it
 * can, as a shell user's shell does (see launcher-process.mjs): geng -qt 10 launched so took as
 * long as from bash (median paired difference −0.03 ms over 50 rounds), against 2.4 ms more when
 * spawned by the launcher.
 *
 * The launcher is started on first use and shared. It keeps this process alive only while tools
 * run (its handles are unref'd otherwise), and it exits when this process does (its stdin
 * closes), killing the tools it runs. When it dies, every tool it was running is killed by pid
 * and reported lost; the next launch starts a new launcher.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const LAUNCHER_SCRIPT = fileURLToPath(new URL('./launcher-process.mjs', import.meta.url));
/** The launcher's own stderr kept for the report of its death. */
const LAUNCHER_STDERR_LIMIT = 4096;

/** What to start. */
export interface LaunchRequest {
  /** Absolute path of the executable (no shell, no PATH search). */
  file: string;
  args: readonly string[];
  /** The whole environment of the tool. */
  env: Record<string, string>;
  /** A file that exists and becomes the tool's stdin (opened, then unlinked). Null: no input. */
  stdinFile?: string | null;
  /**
   * A file that exists and becomes the tool's stdout (it is opened for writing, from its start,
   * then unlinked: the caller keeps its own descriptor to read it). Null: stdout goes nowhere.
   */
  stdoutFile: string | null;
  /** Most stderr bytes reported back. */
  stderrLimit: number;
}

/** A launch refused because the launcher could not open the tool's stdin or stdout file. */
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
  /** Wall time in the launcher, from just before the spawn (or the command to its shell) to the tool's exit (and its stderr closed). */
  ms: number;
}

/** A tool that was started. */
export interface LaunchedTool {
  readonly pid: number;
  /** SIGKILL, if it still runs. */
  kill(): void;
  /** Settles once it has exited; rejects when the launcher died first (the tool is then killed). */
  readonly exited: Promise<LaunchExit>;
}

interface Pending {
  pid: number | null;
  started: (pid: number) => void;
  failed: (error: Error) => void;
  exited: (exit: LaunchExit) => void;
  lost: (error: Error) => void;
}

type LauncherChild = ChildProcessByStdio<Writable, Readable, Readable>;

/** Starts native tools through one launcher process (see the module comment). */
export class NativeLauncher {
  private child: LauncherChild | null = null;
  private readonly shells: boolean;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  /**
   * `shells: false` makes the launcher spawn every tool itself, never through a shell of its own
   * (see launcher-process.mjs; by default it uses shells where it can).
   */
  constructor(options: { shells?: boolean } = {}) {
    this.shells = options.shells ?? true;
  }

  /**
   * Start a tool. Resolves once it runs; rejects when it could not be started (a missing
   * executable, a launcher that died or could not start; a {@link LaunchFileError} for a stdin
   * or stdout file that cannot be opened).
   */
  launch(request: LaunchRequest): Promise<LaunchedTool> {
    if (this.closed) return Promise.reject(new Error('the native-tool launcher is closed'));
    const child = this.running();
    const id = this.nextId++;
    return new Promise<LaunchedTool>((resolve, reject) => {
      let settleExit!: (exit: LaunchExit) => void;
      let loseExit!: (error: Error) => void;
      const exited = new Promise<LaunchExit>((done, lose) => {
        settleExit = done;
        loseExit = lose;
      });
      // A caller that never awaits `exited` (it was stopped) must not see an unhandled rejection.
      exited.catch(() => undefined);
      const entry: Pending = {
        pid: null,
        started: (pid) => {
          entry.pid = pid;
          resolve({ pid, exited, kill: () => this.kill(id) });
        },
        failed: (error) => {
          this.forget(id);
          reject(error);
        },
        exited: (exit) => {
          this.forget(id);
          settleExit(exit);
        },
        lost: (error) => {
          this.forget(id);
          if (entry.pid === null) reject(error);
          else loseExit(error);
        },
      };
      this.pending.set(id, entry);
      this.hold(child);
      child.stdin.write(`${JSON.stringify({ op: 'spawn', id, file: request.file, args: request.args, env: request.env, stdin: request.stdinFile ?? null, stdout: request.stdoutFile, stderrLimit: request.stderrLimit })}\n`);
    });
  }

  /** The launcher's pid while it runs (for diagnostics and tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Stop the launcher (killing what it runs); later launches are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (child === null) return;
    const gone = new Promise<void>((done) => child.once('close', () => done()));
    // Held until it is gone, or this process could exit with the promise pending.
    this.hold(child);
    child.stdin.end();
    await gone;
  }

  /** The launcher process, started if need be. */
  private running(): LauncherChild {
    if (this.child !== null) return this.child;
    // Plain node, without this process's flags (e.g. a TypeScript loader): the point is to be small.
    const child = spawn(process.execPath, [LAUNCHER_SCRIPT, ...(this.shells ? [] : ['--no-shells'])], { stdio: ['pipe', 'pipe', 'pipe'], env: {}, windowsHide: true });
    this.child = child;
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      if (stderr.length < LAUNCHER_STDERR_LIMIT) stderr += text.slice(0, LAUNCHER_STDERR_LIMIT - stderr.length);
    });
    // A launcher that is gone makes writes fail; its exit is what is reported.
    child.stdin.on('error', () => undefined);
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => this.receive(line));
    const died = (why: string): void => {
      if (this.child !== child) return;
      this.child = null;
      const detail = stderr.trim() === '' ? '' : `: ${stderr.trim().slice(0, 1000)}`;
      const error = new Error(`the native-tool launcher ${why}${detail}`);
      for (const entry of [...this.pending.values()]) {
        // Orphaned, the tools run on under their pids: killed at once, before they could exit
        // and have their pids reused.
        if (entry.pid !== null) killQuietly(entry.pid);
        entry.lost(error);
      }
    };
    child.on('error', (error) => died(`could not run: ${error.message}`));
    // 'close', not 'exit': every line it wrote is read by then.
    child.on('close', (code, signal) => died(`exited with ${code === null ? `signal ${signal ?? 'unknown'}` : `status ${code}`}`));
    this.release(child);
    return child;
  }

  private receive(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message === null || typeof message !== 'object') return;
    const m = message as { id?: unknown; event?: unknown; pid?: unknown; message?: unknown; opening?: unknown; code?: unknown; signal?: unknown; stderr?: unknown; ms?: unknown };
    const entry = typeof m.id === 'number' ? this.pending.get(m.id) : undefined;
    if (entry === undefined) return;
    if (m.event === 'spawned' && typeof m.pid === 'number') entry.started(m.pid);
    else if (m.event === 'error') {
      const text = typeof m.message === 'string' ? m.message : 'it could not be started';
      entry.failed(m.opening === 'stdin' || m.opening === 'stdout' ? new LaunchFileError(text, m.opening) : new Error(text));
    }
    else if (m.event === 'exit') {
      entry.exited({
        code: typeof m.code === 'number' ? m.code : null,
        signal: typeof m.signal === 'string' ? m.signal : null,
        stderr: typeof m.stderr === 'string' ? m.stderr : '',
        ms: typeof m.ms === 'number' ? m.ms : Number.NaN,
      });
    }
  }

  private kill(id: number): void {
    if (!this.pending.has(id) || this.child === null) return;
    this.child.stdin.write(`${JSON.stringify({ op: 'kill', id })}\n`);
  }

  private forget(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0 && this.child !== null) this.release(this.child);
  }

  /** Keep this process alive for the launcher's answers while tools run. */
  private hold(child: LauncherChild): void {
    child.ref();
    handle(child.stdout).ref();
  }

  /** Let this process exit although the launcher runs (it then exits too). */
  private release(child: LauncherChild): void {
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) handle(stream).unref();
  }
}

/** A child's stdio pipe is a socket, which can be ref'd and unref'd. */
function handle(stream: Readable | Writable): { ref(): void; unref(): void } {
  return stream as unknown as Socket;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

let shared: NativeLauncher | null = null;

/** The launcher this process shares between its native tools. */
export function sharedLauncher(): NativeLauncher {
  shared ??= new NativeLauncher();
  return shared;
}
