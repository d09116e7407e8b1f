/**
 * The native-tool launcher: a small Node process that starts native tools for the runner.
 *
 * Starting a child means forking the process that starts it. Linux copies the page tables of
 * every private page on a fork. A runner or `jacobian serve` holds 150–250 MB of heap, so a spawn
 * from it took about 3 ms on this project's test machine, with its event loop blocked for all of
 * it. This process holds a few MB, and forks in under 1 ms. See launcher.ts for the client.
 *
 * Plain JavaScript, run by plain `node` (no TypeScript loader), so that it stays small.
 *
 * Shells: even this small process takes 1–2 ms to fork (Node's spawn forks it whole, and waits
 * for the exec), where a shell forks in a fraction of that. So, where it can (Linux with /proc
 * and /bin/sh; not with `--no-shells`), it starts a tool the way a shell user's shell does: it
 * writes the command to a long-lived `/bin/sh` of its own (one per environment and concurrent
 * tool, started on first use and reused), which forks, applies the redirections and execs the
 * tool, prints its pid, waits for it and prints its status (a tool killed by signal n reports
 * 128 + n, which this maps back to the signal; so a tool that itself exits with 128 + n, for a
 * signal n, is reported as killed by it: no tool Jacobian runs exits so). The tool starts as a
 * background job of a non-interactive shell, with SIGINT and SIGQUIT ignored (POSIX); tools are
 * stopped with SIGKILL only. The files are the ones this process opened, by
 * `/proc/<this pid>/fd/<n>`; the tool's stderr goes to a nameless file read once it exits. The
 * shell is started with exactly the requested environment, and unsets the PWD it would add. An
 * executable that cannot be run (missing, not executable), or a command that cannot go through a
 * line protocol (a newline in an argument), is spawned directly instead.
 *
 * Protocol: one JSON object per line, both ways.
 * - In: `{"op":"spawn","id":N,"file":F,"args":[...],"env":{...},"stdin":PATH|null,"stdout":PATH|null,"stderrLimit":B,"addressSpaceKiB":K|null}`
 *   (`addressSpaceKiB`: RLIMIT_AS of the tool, set by a shell before it execs the tool; optional).
 *   The tool reads its stdin from the existing file `stdin` (opened, then unlinked) or from
 *   nothing; its stdout goes to the existing file `stdout` (opened for writing, then unlinked: the
 *   caller holds it open and reads it) or nowhere; its stderr comes back. A path under `/proc/`
 *   is a file without a name that the caller holds, reopened through its descriptor: nothing to
 *   unlink. stdout is opened first, so that when it cannot be, stdin is left as it was.
 * - In: `{"op":"kill","id":N}`: SIGKILL to that tool, if it still runs.
 * - Out: `{"id":N,"event":"spawned","pid":P}`, then `{"id":N,"event":"exit","code":C,"signal":S,
 *   "stderr":T,"ms":M}` once it has exited and its stderr is closed (`ms`: from just before the
 *   spawn, or the command written to a shell, to then); or `{"id":N,"event":"error","message":T}` when it could not be started,
 *   with `"opening":"stdin"|"stdout"` when that file could not be opened (also for a spawn
 *   request with an id whose other fields are malformed).
 *
 * When its stdin ends (the runner exited, or closed it), it kills every tool it started and exits.
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, openSync, readFileSync, readSync, unlinkSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { createInterface } from 'node:readline';

/**
 * @typedef {{ id: number, file: string, args: string[], env: Record<string, string>, stdin: string | null, stdout: string | null, stderrLimit: number, addressSpaceKiB: number | null }} SpawnRequest
 */

/** The tools started and not yet exited, by request id: how to kill each. @type {Map<number, { kill(): void }>} */
const running = new Map();

const SHELL = '/bin/sh';
/**
 * The shells' loop (see the module comment). A command is: a count, that many lines (the
 * executable and its arguments), then the stdin, stdout and stderr paths. `1<>` opens stdout
 * for writing from its start without truncating it, as a direct spawn does; then the address-space
 * limit in KiB (`-` for none), set with `ulimit -v` in the subshell that execs the tool (same pid).
 * Answers: the pid, then the status.
 */
const SHELL_LOOP = [
  'unset PWD',
  'while IFS= read -r n; do',
  '  set --',
  '  while [ "$n" -gt 0 ]; do IFS= read -r a; set -- "$@" "$a"; n=$((n - 1)); done',
  '  IFS= read -r i; IFS= read -r o; IFS= read -r e; IFS= read -r m',
  '  ( [ "$m" = - ] || ulimit -v "$m" || exit 126; exec "$@" ) <"$i" 1<>"$o" 2>"$e" &',
  '  echo "$!"',
  '  wait "$!"',
  '  echo "$?"',
  'done',
].join('\n');
/** Linux's `__O_TMPFILE` with the `O_DIRECTORY` it requires: a file without a name. */
const O_TMPFILE = 0o20000000 | constants.O_DIRECTORY;
/** Idle shells kept per environment. */
const MAX_IDLE_SHELLS = 4;
const useShells = !process.argv.includes('--no-shells') && process.platform === 'linux' && existsSync(SHELL) && existsSync(`/proc/${process.pid}/fd`);

/**
 * @typedef {{ child: import('node:child_process').ChildProcessByStdio<import('node:stream').Writable, import('node:stream').Readable, null>, key: string, answer: ((line: string | null) => void) | null }} Shell
 */
/** Idle shells by environment. @type {Map<string, Shell[]>} */
const idleShells = new Map();
/** Every shell, idle or busy. @type {Set<Shell>} */
const shells = new Set();

/** @param {Record<string, unknown>} message */
function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** @param {unknown} error */
function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Open a file the caller made for the tool, then unlink it (the caller unlinks it too; a name
 * already gone is fine), unless it is a nameless file reopened through `/proc/<pid>/fd/<n>`.
 * Throws when it cannot be opened.
 * @param {string} file
 * @param {number} flags
 */
function openAndUnlink(file, flags) {
  const fd = openSync(file, flags);
  if (file.startsWith('/proc/')) return fd;
  try {
    unlinkSync(file);
  } catch {
    // see above
  }
  return fd;
}

/** @param {SpawnRequest} request */
function launch(request) {
  const { id } = request;
  /** @type {[number | 'ignore', number | 'ignore']} */
  const stdio = ['ignore', 'ignore'];
  const closeOpened = () => {
    for (const fd of stdio) if (typeof fd === 'number') closeSync(fd);
  };
  for (const [index, file, flags, role] of /** @type {const} */ ([
    [1, request.stdout, constants.O_WRONLY, 'stdout'],
    [0, request.stdin, constants.O_RDONLY, 'stdin'],
  ])) {
    if (file === null) continue;
    try {
      stdio[index] = openAndUnlink(file, flags);
    } catch (error) {
      closeOpened();
      send({ id, event: 'error', message: `its ${role} ${file} could not be opened: ${describe(error)}`, opening: role });
      return;
    }
  }
  if (useShells && shellCanRun(request)) {
    launchInShell(request, stdio);
    return;
  }
  const started = performance.now();
  /** @type {import('node:child_process').ChildProcessByStdio<null, null, import('node:stream').Readable>} */
  let child;
  try {
    // With an address-space limit, a shell sets it and execs the tool (same pid).
    child =
      request.addressSpaceKiB === null
        ? spawn(request.file, request.args, { stdio: [...stdio, 'pipe'], env: request.env })
        : spawn(SHELL, ['-c', 'ulimit -v "$1" || exit 126; shift; exec "$@"', 'sh', String(request.addressSpaceKiB), request.file, ...request.args], { stdio: [...stdio, 'pipe'], env: request.env });
  } catch (error) {
    send({ id, event: 'error', message: describe(error) });
    return;
  } finally {
    closeOpened();
  }
  /** @type {Buffer[]} */
  const stderr = [];
  let stderrBytes = 0;
  child.stderr.on('data', (/** @type {Buffer} */ chunk) => {
    if (stderrBytes < request.stderrLimit) stderr.push(chunk.subarray(0, request.stderrLimit - stderrBytes));
    stderrBytes += chunk.length;
  });
  child.on('error', (error) => {
    // Without a pid the tool never started, and no 'close' follows.
    if (child.pid === undefined) send({ id, event: 'error', message: describe(error) });
  });
  if (child.pid === undefined) return;
  running.set(id, { kill: () => child.kill('SIGKILL') });
  send({ id, event: 'spawned', pid: child.pid });
  child.on('close', (code, signal) => {
    running.delete(id);
    send({ id, event: 'exit', code, signal, stderr: Buffer.concat(stderr).toString('utf8'), ms: performance.now() - started });
  });
}

/**
 * Whether `request` can go through a shell: an executable this process may run, and nothing a
 * line of the shell's protocol cannot carry.
 * @param {SpawnRequest} request
 */
function shellCanRun(request) {
  if ([request.file, ...request.args].some((text) => text.includes('\n') || text.includes('\0'))) return false;
  try {
    accessSync(request.file, constants.X_OK);
  } catch {
    // Spawned directly, which reports why it cannot be run.
    return false;
  }
  return true;
}

/** @param {Record<string, string>} env */
function environmentKey(env) {
  return JSON.stringify(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * An idle shell with exactly `env`, or a new one.
 * @param {Record<string, string>} env
 * @returns {Shell}
 */
function takeShell(env) {
  const key = environmentKey(env);
  const idle = idleShells.get(key);
  const reused = idle?.pop();
  if (reused !== undefined) return reused;
  const child = spawn(SHELL, ['-c', SHELL_LOOP], { stdio: ['pipe', 'pipe', 'ignore'], env });
  /** @type {Shell} */
  const shell = { child, key, answer: null };
  shells.add(shell);
  child.stdin.on('error', () => undefined);
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => shell.answer?.(line));
  child.on('close', () => {
    shells.delete(shell);
    const list = idleShells.get(key);
    const at = list?.indexOf(shell) ?? -1;
    if (list !== undefined && at >= 0) list.splice(at, 1);
    shell.answer?.(null);
  });
  return shell;
}

/**
 * SIGKILL to the children of `pid` (Linux's /proc/<pid>/task/<pid>/children).
 * @param {number | undefined} pid
 */
function killChildrenOf(pid) {
  if (pid === undefined) return;
  /** @type {string} */
  let listed;
  try {
    listed = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  } catch {
    return;
  }
  for (const child of listed.split(' ').filter((text) => /^\d+$/.test(text))) {
    try {
      process.kill(Number(child), 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** @param {Shell} shell */
function releaseShell(shell) {
  shell.answer = null;
  if (!shells.has(shell)) return;
  const list = idleShells.get(shell.key) ?? [];
  idleShells.set(shell.key, list);
  if (list.length < MAX_IDLE_SHELLS) list.push(shell);
  else shell.child.stdin.end();
}

/** A file without a name for a tool's stderr (or, where those cannot be made, a named one unlinked at once). */
function stderrFile() {
  try {
    return openSync(tmpdir(), O_TMPFILE | constants.O_RDWR, 0o600);
  } catch {
    const file = join(tmpdir(), `jacobian-stderr-${process.pid}-${performance.now().toString(36).replace('.', '')}-${Math.random().toString(36).slice(2)}`);
    const fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600);
    unlinkSync(file);
    return fd;
  }
}

/**
 * The first `limit` bytes of the file open as `fd`.
 * @param {number} fd
 * @param {number} limit
 */
function readHead(fd, limit) {
  const bytes = Buffer.alloc(limit);
  let got = 0;
  while (got < limit) {
    const read = readSync(fd, bytes, got, limit - got, got);
    if (read === 0) break;
    got += read;
  }
  return bytes.toString('utf8', 0, got);
}

/**
 * Start `request` through a shell (see the module comment), with the files this process opened.
 * @param {SpawnRequest} request
 * @param {[number | 'ignore', number | 'ignore']} stdio
 */
function launchInShell(request, stdio) {
  const { id } = request;
  /** @type {number} */
  let errFd;
  try {
    errFd = stderrFile();
  } catch (error) {
    for (const fd of stdio) if (typeof fd === 'number') closeSync(fd);
    send({ id, event: 'error', message: `its stderr file could not be made: ${describe(error)}` });
    return;
  }
  const path = (/** @type {number | 'ignore'} */ fd) => (fd === 'ignore' ? '/dev/null' : `/proc/${process.pid}/fd/${fd}`);
  const closeFiles = () => {
    for (const fd of [...stdio, errFd]) if (typeof fd === 'number') closeSync(fd);
  };
  const shell = takeShell(request.env);
  /** @type {number | null} */
  let pid = null;
  let killAsked = false;
  const killTool = () => {
    if (pid === null) {
      killAsked = true;
      return;
    }
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  };
  running.set(id, { kill: killTool });
  const started = performance.now();
  shell.answer = (line) => {
    if (line === null) {
      // The shell is gone: so is the tool, or it is killed now.
      running.delete(id);
      if (pid !== null) killTool();
      closeFiles();
      if (pid === null) send({ id, event: 'error', message: 'the shell that was to start it exited' });
      else send({ id, event: 'exit', code: null, signal: 'SIGKILL', stderr: 'the shell that started it exited', ms: performance.now() - started });
      return;
    }
    if (pid === null) {
      pid = Number(line);
      send({ id, event: 'spawned', pid });
      if (killAsked) killTool();
      return;
    }
    const status = Number(line);
    const signal = status > 128 ? (Object.entries(osConstants.signals).find(([, number]) => number === status - 128)?.[0] ?? null) : null;
    running.delete(id);
    const stderr = readHead(errFd, request.stderrLimit);
    closeFiles();
    releaseShell(shell);
    send({ id, event: 'exit', code: signal === null ? status : null, signal, stderr, ms: performance.now() - started });
  };
  shell.child.stdin.write(`${[String(1 + request.args.length), request.file, ...request.args, path(stdio[0]), path(stdio[1]), path(errFd), request.addressSpaceKiB === null ? '-' : String(request.addressSpaceKiB)].join('\n')}\n`);
}

/**
 * A spawn request as sent by launcher.ts, or null for anything else.
 * @param {Record<string, unknown>} m
 * @returns {SpawnRequest | null}
 */
function spawnRequest(m) {
  const { id, file, args, env, stdin, stdout, stderrLimit } = m;
  const limit = m['addressSpaceKiB'] ?? null;
  if (limit !== null && (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit <= 0)) return null;
  if (typeof id !== 'number' || typeof file !== 'string' || !Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) return null;
  if (env === null || typeof env !== 'object' || !Object.values(env).every((value) => typeof value === 'string')) return null;
  if ((stdin !== null && typeof stdin !== 'string') || (stdout !== null && typeof stdout !== 'string') || typeof stderrLimit !== 'number') return null;
  return { id, file, args: /** @type {string[]} */ (args), env: /** @type {Record<string, string>} */ (env), stdin, stdout, stderrLimit, addressSpaceKiB: limit };
}

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  /** @type {unknown} */
  let parsed;
  try {
    parsed = JSON.parse(line);
  } catch {
    return;
  }
  if (parsed === null || typeof parsed !== 'object') return;
  const m = /** @type {Record<string, unknown>} */ (parsed);
  if (m['op'] === 'kill' && typeof m['id'] === 'number') {
    running.get(m['id'])?.kill('SIGKILL');
  } else if (m['op'] === 'spawn') {
    const request = spawnRequest(m);
    if (request !== null) launch(request);
    // Answered, so that the caller's launch settles.
    else if (typeof m['id'] === 'number') send({ id: m['id'], event: 'error', message: 'the launch request is malformed' });
  }
});

process.stdin.on('end', () => {
  for (const tool of running.values()) tool.kill();
  for (const shell of shells) {
    // A tool whose pid the shell had not yet told is its child.
    killChildrenOf(shell.child.pid);
    shell.child.kill('SIGKILL');
  }
  process.exit(0);
});
