/**
 * Native tools started through long-lived shells of this process's own, with no process between
 * this one and them.
 *
 * Why: a tool started by the launcher process (launcher.ts) costs two more hops each way, this
 * process to the launcher and back, each a write to a pipe and a wake-up of an idle process.
 * Measured on this project's test machine (2026-12-01, 2 vCPUs; `geng -qt 10` into a file read
 * as it grows, 80 rounds, the two ways alternating in one process with geng run from bash):
 * through the launcher's shells 2.24 ms more than from bash (median paired difference), through
 * a shell of this process 1.40 ms more; graph.enumerate.nonisomorphic's whole run (triangle-free,
 * n = 10) 6.02 and 4.68 ms more.
 *
 * How: a shell is `/bin/sh` running a loop (see {@link SHELL_LOOP}) that reads a command (the
 * executable, its arguments, and the paths of its stdin, stdout and stderr), opens the files,
 * starts the tool as a background job, prints its pid, waits for it and prints its status. One
 * shell runs one tool at a time; shells are kept per environment (at most
 * {@link MAX_IDLE_SHELLS} idle ones each) and reused. A shell is started with exactly the
 * requested environment (and unsets the PWD it would add), so the tool gets exactly that.
 *
 * Files: this process opens a named stdin or stdout file itself (so a file that cannot be opened
 * is refused here, as the launcher refuses it: {@link LaunchFileError}), unlinks it, and hands
 * the shell its descriptor as `/proc/<this pid>/fd/<n>`; a path under /proc is handed on as it
 * is. The tool's stderr goes to a nameless file made ahead, read once it has exited.
 *
 * Lifetime: a shell is started through `setpriv --pdeathsig TERM`, so it gets SIGTERM when this
 * process ends, however it ends; it then kills the tool it runs and exits. Its trap does the
 * same on SIGHUP. It ignores SIGINT and SIGQUIT (a Ctrl-C to the terminal's process group is
 * this process's to handle), as do the tools, which run as background jobs of a non-interactive
 * shell (POSIX); tools are only ever stopped with SIGKILL. When a shell dies under its tool, the
 * tool is killed and reported lost.
 *
 * A tool killed by signal n has status 128 + n, which is mapped back to the signal; so a tool
 * that itself exits with 128 + n, for a signal n, is reported as killed by it (no tool Jacobian
 * runs exits so).
 *
 * Where this cannot be done (not Linux, no /proc, no /bin/sh or setpriv; a command a line cannot
 * carry, i.e. a newline or NUL byte; an executable that cannot be run) the caller starts the tool
 * through the launcher process instead ({@link ToolShells.canRun}). A shell that exits before it
 * answers anything (say, a setpriv this container does not let work) refuses its launch with a
 * {@link ShellStartError}, leaving the request's files as they were, and the caller then starts
 * tools through the launcher process for good (see launcher.ts).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { accessSync, close, closeSync, constants, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { exitPromise, handle, killQuietly, LaunchFileError, type LaunchedTool, type LaunchRequest } from './launch.js';
import { SpoolSupply, unlinkQuietly, type Spool } from './scratch.js';

const SHELL = '/bin/sh';
/** Where util-linux's setpriv may be (Debian: /usr/bin; merged /usr makes /bin the same). */
const SETPRIV_PATHS = ['/usr/bin/setpriv', '/bin/setpriv'];

/**
 * The shells' loop. A command is a count, that many lines (the executable and its arguments),
 * then the stdin, stdout and stderr paths. The files are opened by the shell itself, on a
 * compound command, so that a file that cannot be opened fails that command only (it answers
 * `-`) and not the shell; `<>` opens stdout for writing from its start without truncating it.
 * The tool gets them as 0, 1 and 2, and nothing else of the shell's. Answers: the pid, then
 * the status.
 */
export const SHELL_LOOP = [
  'p=',
  `trap '[ -z "$p" ] || kill -9 "$p" 2>/dev/null; exit 1' TERM HUP`,
  "trap '' INT QUIT",
  'unset PWD',
  'while IFS= read -r n; do',
  '  set --',
  '  while [ "$n" -gt 0 ]; do IFS= read -r a; set -- "$@" "$a"; n=$((n - 1)); done',
  '  IFS= read -r i; IFS= read -r o; IFS= read -r e',
  '  { "$@" <&3 1>&4 2>&5 3<&- 4<&- 5<&- & p=$!; } 3<"$i" 4<>"$o" 5>"$e"',
  '  if [ -z "$p" ]; then echo -; continue; fi',
  '  echo "$p"',
  '  wait "$p"',
  '  s=$?',
  '  p=',
  '  echo "$s"',
  'done',
].join('\n');

/** Idle shells kept per environment. */
const MAX_IDLE_SHELLS = 4;

type ShellChild = ChildProcessByStdio<Writable, Readable, null>;

interface Shell {
  child: ShellChild;
  key: string;
  /** Whether it has printed anything yet: one that exits before its first answer could not start. */
  answered: boolean;
  /** Takes the next line the shell prints (null: it exited) while it runs a command. */
  answer: ((line: string | null) => void) | null;
}

let setprivPath: string | null | undefined;

/** setpriv, if this system has it (looked up once). */
function setpriv(): string | null {
  if (setprivPath === undefined) setprivPath = SETPRIV_PATHS.find((file) => executable(file)) ?? null;
  return setprivPath;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isProcPath(file: string): boolean {
  return file.startsWith('/proc/');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** SIGKILL to the children of `pid` (Linux's /proc/<pid>/task/<pid>/children): what a shell runs. */
function killChildrenOf(pid: number | undefined): void {
  if (pid === undefined) return;
  let listed: string;
  try {
    listed = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  } catch {
    return;
  }
  for (const child of listed.split(' ')) if (/^\d+$/.test(child)) killQuietly(Number(child));
}

/** The first `limit` bytes of the file open as `fd`, as text. */
function readHead(fd: number, limit: number): string {
  const bytes = Buffer.alloc(limit);
  let got = 0;
  while (got < limit) {
    const read = readSync(fd, bytes, got, limit - got, got);
    if (read === 0) break;
    got += read;
  }
  return bytes.toString('utf8', 0, got);
}

function environmentKey(env: Record<string, string>): string {
  return JSON.stringify(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * A shell exited before it answered anything: shells cannot be started here (say, a setpriv that
 * does not work in this container). Nothing of the request was used up: its named files are still
 * there, so the caller can start the tool another way.
 */
export class ShellStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShellStartError';
  }
}

/** Tools started through shells of this process (see the module comment). */
export class ToolShells {
  private readonly idle = new Map<string, Shell[]>();
  private readonly all = new Set<Shell>();
  private readonly stderrFiles = new SpoolSupply({ role: 'stderr' });
  private readonly setpriv: string;
  private closed = false;

  /** `setpriv`: the setpriv shells are started with (default: util-linux's, see {@link ToolShells.available}). */
  constructor(options: { setpriv?: string } = {}) {
    this.setpriv = options.setpriv ?? setpriv() ?? 'setpriv';
  }

  /** Whether this system has what the shells need: Linux with /proc, /bin/sh and setpriv. */
  static available(): boolean {
    return process.platform === 'linux' && existsSync(`/proc/${process.pid}/fd`) && executable(SHELL) && setpriv() !== null;
  }

  /** Whether `request` can go through a shell: an executable this process may run, and nothing a line of the shell's protocol cannot carry. */
  canRun(request: LaunchRequest): boolean {
    // Only a cast gets anything but strings here; the launcher answers such a request as malformed.
    const args: unknown = request.args;
    const lines: unknown[] = [request.file, ...(Array.isArray(args) ? (args as unknown[]) : [null]), request.stdinFile ?? '', request.stdoutFile ?? ''];
    if (!lines.every((text) => typeof text === 'string' && !text.includes('\n') && !text.includes('\0'))) return false;
    return executable(request.file);
  }

  /** The pids of the shells (for diagnostics and tests). */
  get pids(): number[] {
    return [...this.all].flatMap((shell) => (shell.child.pid === undefined ? [] : [shell.child.pid]));
  }

  /**
   * Start a tool. Resolves once it runs; rejects when it could not be started (a
   * {@link LaunchFileError} for a stdin or stdout file that cannot be opened; a
   * {@link ShellStartError} when its shell exited before it answered anything; an Error when
   * the shell could not open a file, or exited first).
   */
  launch(request: LaunchRequest): Promise<LaunchedTool> {
    if (this.closed) return Promise.reject(new Error('the native-tool launcher is closed'));
    // stdout first, so that when it cannot be opened, stdin is left as it was (as the launcher does).
    const opened: number[] = [];
    const closeOpened = (): void => {
      for (const fd of opened.splice(0)) closeSync(fd);
    };
    const paths: string[] = [];
    // Unlinked once the tool holds them, so that they are still there for another way to start it.
    const named: string[] = [];
    for (const [file, flags, role] of [
      [request.stdoutFile, constants.O_WRONLY, 'stdout'],
      [request.stdinFile ?? null, constants.O_RDONLY, 'stdin'],
    ] as const) {
      if (file === null) {
        paths.push('/dev/null');
        continue;
      }
      if (isProcPath(file)) {
        paths.push(file);
        continue;
      }
      let fd: number;
      try {
        fd = openSync(file, flags);
      } catch (error) {
        closeOpened();
        return Promise.reject(new LaunchFileError(`its ${role} ${file} could not be opened: ${describe(error)}`, role));
      }
      opened.push(fd);
      named.push(file);
      paths.push(`/proc/${process.pid}/fd/${fd}`);
    }
    const [stdoutPath, stdinPath] = paths as [string, string];
    let stderr: Spool;
    try {
      stderr = this.stderrFiles.take(path.basename(request.file));
    } catch (error) {
      // PROVIDER_FAILED, naming the tool and the file.
      closeOpened();
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    if (stderr.named) unlinkQuietly(stderr.file);
    const stderrPath = `/proc/${process.pid}/fd/${stderr.fd}`;
    let stderrOpen = true;
    const closeFiles = (): void => {
      closeOpened();
      if (!stderrOpen) return;
      stderrOpen = false;
      // Closing it frees its blocks, which may wait for the file system's journal: not here.
      close(stderr.fd, () => undefined);
    };
    let shell: Shell;
    try {
      shell = this.take(request.env);
    } catch (error) {
      closeFiles();
      return Promise.reject(new Error(`no shell could be started for it: ${describe(error)}`));
    }
    return new Promise<LaunchedTool>((resolve, reject) => {
      let pid: number | null = null;
      const { exited, settle: settleExit, lose: loseExit } = exitPromise();
      const started = performance.now();
      shell.answer = (line) => {
        if (line === null) {
          // The shell is gone: so is the tool, or it is killed now.
          closeFiles();
          if (pid === null) reject(shell.answered ? new Error('the shell that was to start it exited') : new ShellStartError('its shell exited before it answered: shells cannot be started here'));
          else {
            killQuietly(pid);
            loseExit(new Error('the shell that started it exited; the tool was killed'));
          }
          return;
        }
        shell.answered = true;
        if (pid === null) {
          const told = /^\d{1,10}$/.test(line) ? Number(line) : 0;
          if (told <= 0) {
            closeFiles();
            if (line === '-') {
              this.release(shell);
              reject(new Error(`its stdin, stdout or stderr file could not be opened by the shell that was to start it (${stdinPath}, ${stdoutPath}, ${stderrPath})`));
            } else {
              // Not the protocol: the shell is not trusted with another command.
              this.discard(shell);
              reject(new Error(`the shell that was to start it answered ${JSON.stringify(line.slice(0, 100))}, not a pid`));
            }
            return;
          }
          pid = told;
          // The tool holds its stdin and stdout now.
          closeOpened();
          for (const file of named) unlinkQuietly(file);
          const running = told;
          resolve({ pid: running, exited, kill: () => killQuietly(running) });
          return;
        }
        const ms = performance.now() - started;
        const status = /^\d{1,3}$/.test(line) ? Number(line) : null;
        const text = readHead(stderr.fd, request.stderrLimit);
        closeFiles();
        if (status === null) {
          this.discard(shell);
          loseExit(new Error(`the shell that started it answered ${JSON.stringify(line.slice(0, 100))}, not a status`));
          return;
        }
        this.release(shell);
        const signal = status > 128 ? (Object.entries(osConstants.signals).find(([, number]) => number === status - 128)?.[0] ?? null) : null;
        settleExit({ code: signal === null ? status : null, signal, stderr: text, ms });
      };
      this.hold(shell);
      shell.child.stdin.write(`${[String(1 + request.args.length), request.file, ...request.args, stdinPath, stdoutPath, stderrPath].join('\n')}\n`);
    });
  }

  /** Stop every shell, killing what they run; later launches are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const gone = [...this.all].map((shell) => {
      const { child } = shell;
      const closed = new Promise<void>((done) => child.once('close', () => done()));
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      // Held until it is gone, or this process could exit with the promise pending.
      this.hold(shell);
      if (shell.answer !== null) {
        killChildrenOf(child.pid);
        child.kill('SIGKILL');
      } else child.stdin.end();
      return closed;
    });
    await Promise.all(gone);
  }

  /** An idle shell with exactly `env`, or a new one. */
  private take(env: Record<string, string>): Shell {
    const key = environmentKey(env);
    const reused = this.idle.get(key)?.pop();
    if (reused !== undefined) return reused;
    const child: ShellChild = spawn(this.setpriv, ['--pdeathsig', 'TERM', '--', SHELL, '-c', SHELL_LOOP], { stdio: ['pipe', 'pipe', 'ignore'], env });
    const shell: Shell = { child, key, answered: false, answer: null };
    this.all.add(shell);
    // A shell that is gone makes writes fail; its close is what is reported.
    child.stdin.on('error', () => undefined);
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => shell.answer?.(line));
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      this.all.delete(shell);
      const list = this.idle.get(key);
      const at = list?.indexOf(shell) ?? -1;
      if (list !== undefined && at >= 0) list.splice(at, 1);
      const answer = shell.answer;
      shell.answer = null;
      answer?.(null);
    };
    // 'close', not 'exit': every line it printed is read by then. A shell that could not be started has no pid, and may see no 'close'.
    child.on('close', end);
    child.on('error', () => {
      if (child.pid === undefined) end();
    });
    return shell;
  }

  /** The shell's command is done: keep it for the next one with its environment, or let it go. */
  private release(shell: Shell): void {
    shell.answer = null;
    this.unhold(shell);
    if (!this.all.has(shell)) return;
    const list = this.idle.get(shell.key) ?? [];
    this.idle.set(shell.key, list);
    if (list.length < MAX_IDLE_SHELLS && !this.closed) list.push(shell);
    else shell.child.stdin.end();
  }

  /** A shell that broke the protocol: killed with whatever it runs. */
  private discard(shell: Shell): void {
    shell.answer = null;
    this.unhold(shell);
    killChildrenOf(shell.child.pid);
    shell.child.kill('SIGKILL');
  }

  /** Keep this process alive for the shell's answers while it runs a tool. */
  private hold(shell: Shell): void {
    shell.child.ref();
    handle(shell.child.stdout).ref();
  }

  /** Let this process exit although the shell runs (it then exits too). */
  private unhold(shell: Shell): void {
    shell.child.unref();
    handle(shell.child.stdin).unref();
    handle(shell.child.stdout).unref();
  }
}
