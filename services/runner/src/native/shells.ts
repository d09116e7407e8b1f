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
 * How: a shell is `/bin/sh` running a loop (see {@link SHELL_LOOP}) that forks a child ahead of
 * each command and prints its pid; the child reads the command (the executable, its arguments,
 * and the paths of its stdin, stdout and stderr), opens the files and execs the tool, so that no
 * fork lies between a command and its tool; the shell waits for it, prints its status, and forks
 * the next. Measured on this project's test machine (2026-12-06, 2 vCPUs, two runs of 80–100
 * rounds alternating the two ways with the tool run from bash): the child forked ahead saved a
 * median (paired) 0.07–0.14 ms on `/bin/true` (1.1–1.3 ms from bash), 0.12–0.15 ms on
 * `geng -qt 8` (2.2 ms), 0.03 ms on `geng -qt 9` (4.8 ms); `geng -qt 10` (18 ms) took 0.6–0.8 ms
 * more than from bash either way: what follows a tool's exit (this process woken, its code run)
 * is slower after it waited that long. One shell runs one tool at a time; shells are kept per
 * environment (at most {@link MAX_IDLE_SHELLS} idle ones each) and reused. A shell is started
 * with exactly the requested environment (and unsets the PWD it would add), so the tool gets
 * exactly that.
 *
 * Files: this process opens a named stdin or stdout file itself (so a file that cannot be opened
 * is refused here, as the launcher refuses it: {@link LaunchFileError}), unlinks it, and hands
 * the shell its descriptor as `/proc/<this pid>/fd/<n>`; a path under /proc is handed on as it
 * is. The tool's stderr goes to a nameless file made ahead, read once it has exited.
 *
 * Lifetime: a shell is started through `setpriv --pdeathsig TERM`, so it gets SIGTERM when this
 * process ends, however it ends; it then kills the tool it runs (or the child it forked ahead)
 * and exits. Its trap does the same on SIGHUP. It ignores SIGINT and SIGQUIT (a Ctrl-C to the
 * terminal's process group is this process's to handle), as do the tools, which run as
 * background jobs of a non-interactive shell (POSIX); tools are only ever stopped with SIGKILL.
 * When a shell dies under its tool, the tool is killed and reported lost.
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
import { addressSpaceKiBOf, exitPromise, handle, killQuietly, LaunchFileError, type LaunchedTool, type LaunchRequest } from './launch.js';
import { SpoolSupply, unlinkQuietly, type Spool } from './scratch.js';

const SHELL = '/bin/sh';
/** Where util-linux's setpriv may be (Debian: /usr/bin; merged /usr makes /bin the same). */
const SETPRIV_PATHS = ['/usr/bin/setpriv', '/bin/setpriv'];

/**
 * The shells' loop. The shell forks a child ahead of each command (the armed child) and prints
 * its pid; the armed child waits for the command, and becomes the tool: no fork is left between
 * the command and the tool. A command is a count, that many lines (the executable and its
 * arguments), then the stdin, stdout and stderr paths, then the address-space limit in KiB (`-`
 * for none; `ulimit -v` sets it before the exec, see memory.ts). The armed child opens the files on a
 * compound command, so that a file that cannot be opened fails that command only (it prints `-`
 * and exits) and not the shell; otherwise it prints `+` and execs the tool, which gets them as 0,
 * 1 and 2, and nothing else of the shell's (`<>` opens stdout for writing from its start without
 * truncating it). Once it has exited the shell prints its status, then the next armed child's
 * pid. Lines, in order: a pid; then per command `+` (or `-`), the status, the next pid.
 *
 * The command comes on descriptor 6, the shell's stdin kept there: a background job's stdin is
 * /dev/null. An armed child that finds the end of that input (this process let the shell go)
 * sends its shell SIGTERM, whose trap ends the shell (unless the shell is gone already: its
 * parent is then another process). An armed child outlives a shell killed by SIGKILL, holding
 * the shell's pipes: this process kills it when the shell exits (see {@link ToolShells.take}).
 */
export const SHELL_LOOP = [
  'p=',
  `trap '[ -z "$p" ] || kill -9 "$p" 2>/dev/null; exit 1' TERM HUP`,
  "trap '' INT QUIT",
  'unset PWD',
  'exec 6<&0 0</dev/null',
  'while :; do',
  '  (',
  '    exec 0<&6 6<&-',
  '    IFS= read -r n || { read -r _ _ _ q _ </proc/self/stat; [ "$q" != "$$" ] || kill -TERM $$; exit 0; }',
  '    set --',
  '    while [ "$n" -gt 0 ]; do IFS= read -r a; set -- "$@" "$a"; n=$((n - 1)); done',
  '    IFS= read -r i; IFS= read -r o; IFS= read -r e; IFS= read -r m',
  '    { if [ "$m" = - ] || ulimit -v "$m"; then echo +; exec "$@" <&3 1>&4 2>&5 3<&- 4<&- 5<&-; fi; } 3<"$i" 4<>"$o" 5>"$e"',
  '    echo -',
  '  ) &',
  '  p=$!',
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
  /** The pid of its armed child, which becomes the next tool; null until the shell prints it. */
  armed: number | null;
  /** Called with the armed child's pid once the shell prints it (null: it exited first). */
  onArmed: ((pid: number | null) => void) | null;
  /** Takes the lines about the command it runs (null: it exited) while it runs one. */
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
    const limit = String(addressSpaceKiBOf(request) ?? '-');
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
      const { exited, settle: settleExit, lose: loseExit } = exitPromise();
      let started = 0;
      /** The tool's pid once it runs; null before, and for good when it could not be started. */
      let pid: number | null = null;
      /** The armed child could not open a file: refused once its status came, so that the shell is idle again by then. */
      let refused: Error | null = null;
      const gone = (): void => {
        // The shell is gone: so is the tool, or it is killed now.
        closeFiles();
        if (pid === null) {
          reject(refused ?? (shell.answered ? new Error('the shell that was to start it exited') : new ShellStartError('its shell exited before it answered: shells cannot be started here')));
        } else {
          killQuietly(pid);
          loseExit(new Error('the shell that started it exited; the tool was killed'));
        }
      };
      const answer = (line: string | null): void => {
        if (line === null) {
          gone();
          return;
        }
        if (refused !== null) {
          // The armed child's status: the shell takes the next command once it printed the next pid.
          if (/^\d{1,3}$/.test(line)) this.release(shell);
          else this.discard(shell);
          reject(refused);
          return;
        }
        if (pid === null) {
          const armed = shell.armed;
          shell.armed = null;
          if (line === '+' && armed !== null) {
            pid = armed;
            // The tool holds its stdin and stdout now.
            closeOpened();
            for (const file of named) unlinkQuietly(file);
            const running = armed;
            resolve({ pid: running, exited, kill: () => killQuietly(running) });
            return;
          }
          closeFiles();
          if (line === '-') {
            refused = new Error(`its stdin, stdout or stderr file could not be opened by the shell that was to start it, or its address-space limit not set (${stdinPath}, ${stdoutPath}, ${stderrPath}, ${limit} KiB)`);
          } else {
            // Not the protocol: the shell is not trusted with another command.
            this.discard(shell);
            reject(new Error(`the shell that was to start it answered ${JSON.stringify(line.slice(0, 100))}, not + or -`));
          }
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
      const send = (): void => {
        started = performance.now();
        shell.answer = answer;
        shell.child.stdin.write(`${[String(1 + request.args.length), request.file, ...request.args, stdinPath, stdoutPath, stderrPath, limit].join('\n')}\n`);
      };
      this.hold(shell);
      // The command goes to the armed child once the shell has named it (a new shell names its first one as it starts).
      if (shell.armed !== null) send();
      else {
        shell.onArmed = (armed) => {
          if (armed === null) gone();
          else send();
        };
      }
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
    const shell: Shell = { child, key, answered: false, armed: null, onArmed: null, answer: null };
    this.all.add(shell);
    // A shell that is gone makes writes fail; its close is what is reported.
    child.stdin.on('error', () => undefined);
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => this.heard(shell, line));
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
      const onArmed = shell.onArmed;
      shell.onArmed = null;
      onArmed?.(null);
    };
    // 'close', not 'exit': every line it printed is read by then. A shell that could not be started has no pid, and may see no 'close'.
    child.on('close', end);
    // A shell killed outright leaves its armed child, which holds its pipes open (so no 'close'):
    // it is killed here; one not named yet reads the end of its input (Node closes a child's stdin
    // as it exits) and exits.
    child.on('exit', () => {
      if (shell.armed !== null) killQuietly(shell.armed);
    });
    child.on('error', () => {
      if (child.pid === undefined) end();
    });
    return shell;
  }

  /**
   * A line from `shell`: about the command it runs, or else its next armed child's pid (see
   * {@link SHELL_LOOP}). Anything else breaks the protocol, and the shell is discarded.
   */
  private heard(shell: Shell, line: string): void {
    shell.answered = true;
    if (shell.answer !== null) {
      shell.answer(line);
      return;
    }
    const pid = /^\d{1,10}$/.test(line) ? Number(line) : 0;
    if (pid <= 0 || shell.armed !== null) {
      this.discard(shell);
      return;
    }
    shell.armed = pid;
    const onArmed = shell.onArmed;
    shell.onArmed = null;
    onArmed?.(pid);
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
