/**
 * Starting native tools without forking this process: through shells of its own (shells.ts)
 * where it can, else through a small launcher process (launcher-process.mjs).
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
 *
 * Still, each tool started by the launcher costs two hops more each way (this process to the
 * launcher, the launcher to its shell, and back), so where the system allows it (Linux with
 * /proc, /bin/sh and setpriv) tools start through shells of this process's own, which cost a
 * fork of this process each, once, and are reused (see shells.ts). The launcher then only starts
 * what those cannot (see {@link ToolShells.canRun}).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { addressSpaceKiBOf, exitPromise, handle, killQuietly, LaunchFileError, type LaunchedTool, type LaunchExit, type LaunchRequest } from './launch.js';
import { ShellStartError, ToolShells } from './shells.js';

export { LaunchFileError, type LaunchedTool, type LaunchExit, type LaunchRequest } from './launch.js';

const LAUNCHER_SCRIPT = fileURLToPath(new URL('./launcher-process.mjs', import.meta.url));
/** The launcher's own stderr kept for the report of its death. */
const LAUNCHER_STDERR_LIMIT = 4096;

interface Pending {
  pid: number | null;
  started: (pid: number) => void;
  failed: (error: Error) => void;
  exited: (exit: LaunchExit) => void;
  lost: (error: Error) => void;
}

type LauncherChild = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * How a {@link NativeLauncher} starts tools:
 * - `own-shells`: through shells of this process (shells.ts), and what those cannot run through
 *   the launcher process (which then spawns it); the default where the system allows it;
 * - `launcher-shells`: through the launcher process, which starts tools through shells of its
 *   own (launcher-process.mjs); the default elsewhere;
 * - `launcher`: through the launcher process, which spawns each tool itself.
 */
export type LaunchRoute = 'own-shells' | 'launcher-shells' | 'launcher';

/** Starts native tools (see the module comment). */
export class NativeLauncher {
  private child: LauncherChild | null = null;
  private route: LaunchRoute;
  private ownShells: ToolShells | null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  /**
   * `route`: see {@link LaunchRoute} (`own-shells` where the system does not allow it falls back
   * to `launcher-shells`, as it does for good when its first shell cannot start); `setpriv`: the
   * setpriv the own shells are started with (for tests; default util-linux's).
   */
  constructor(options: { route?: LaunchRoute; setpriv?: string } = {}) {
    const wanted = options.route ?? 'own-shells';
    this.route = wanted === 'own-shells' && !ToolShells.available() ? 'launcher-shells' : wanted;
    this.ownShells = this.route === 'own-shells' ? new ToolShells(options.setpriv === undefined ? {} : { setpriv: options.setpriv }) : null;
  }

  /** How this launcher starts tools: the route asked for, or the one it fell back to. */
  get startsThrough(): LaunchRoute {
    return this.route;
  }

  /**
   * Start a tool. Resolves once it runs; rejects when it could not be started (a missing
   * executable, a launcher or shell that died or could not start; a {@link LaunchFileError} for
   * a stdin or stdout file that cannot be opened).
   */
  launch(request: LaunchRequest): Promise<LaunchedTool> {
    if (this.closed) return Promise.reject(new Error('the native-tool launcher is closed'));
    const shells = this.ownShells;
    if (shells?.canRun(request) === true) {
      return shells.launch(request).catch((error: unknown) => {
        if (!(error instanceof ShellStartError) || this.closed) throw error;
        // Shells cannot be started here: the launcher process starts tools from now on.
        if (this.ownShells === shells) {
          this.ownShells = null;
          this.route = 'launcher-shells';
          void shells.close();
        }
        return this.launch(request);
      });
    }
    return this.throughLauncher(request);
  }

  /** Start a tool through the launcher process. */
  private throughLauncher(request: LaunchRequest): Promise<LaunchedTool> {
    const child = this.running();
    const id = this.nextId++;
    return new Promise<LaunchedTool>((resolve, reject) => {
      const { exited, settle: settleExit, lose: loseExit } = exitPromise();
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
      child.stdin.write(`${JSON.stringify({ op: 'spawn', id, file: request.file, args: request.args, env: request.env, stdin: request.stdinFile ?? null, stdout: request.stdoutFile, stderrLimit: request.stderrLimit, addressSpaceKiB: addressSpaceKiBOf(request) })}\n`);
    });
  }

  /** The launcher process's pid while it runs (for diagnostics and tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The pids of this process's own shells (for diagnostics and tests; none unless the route is `own-shells`). */
  get shellPids(): number[] {
    return this.ownShells?.pids ?? [];
  }

  /** Stop the shells and the launcher (killing what they run); later launches are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await this.ownShells?.close();
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
    const child = spawn(process.execPath, [LAUNCHER_SCRIPT, ...(this.route === 'launcher' ? ['--no-shells'] : [])], { stdio: ['pipe', 'pipe', 'pipe'], env: {}, windowsHide: true });
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

let shared: NativeLauncher | null = null;

/** The launcher this process shares between its native tools. */
export function sharedLauncher(): NativeLauncher {
  shared ??= new NativeLauncher();
  return shared;
}
