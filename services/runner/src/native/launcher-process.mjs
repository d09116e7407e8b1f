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
 * Protocol: one JSON object per line, both ways.
 * - In: `{"op":"spawn","id":N,"file":F,"args":[...],"env":{...},"stdin":PATH|null,"stdout":PATH|null,"stderrLimit":B}`.
 *   The tool reads its stdin from the existing file `stdin` (opened, then unlinked) or from
 *   nothing; its stdout goes to the existing file `stdout` (opened for writing, then unlinked: the
 *   caller holds it open and reads it) or nowhere; its stderr comes back. A path under `/proc/`
 *   is a file without a name that the caller holds, reopened through its descriptor: nothing to
 *   unlink. stdout is opened first, so that when it cannot be, stdin is left as it was.
 * - In: `{"op":"kill","id":N}`: SIGKILL to that tool, if it still runs.
 * - Out: `{"id":N,"event":"spawned","pid":P}`, then `{"id":N,"event":"exit","code":C,"signal":S,
 *   "stderr":T,"ms":M}` once it has exited and its stderr is closed (`ms`: from just before the
 *   spawn to then); or `{"id":N,"event":"error","message":T}` when it could not be started,
 *   with `"opening":"stdin"|"stdout"` when that file could not be opened.
 *
 * When its stdin ends (the runner exited, or closed it), it kills every tool it started and exits.
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { closeSync, constants, openSync, unlinkSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { createInterface } from 'node:readline';

/**
 * @typedef {{ id: number, file: string, args: string[], env: Record<string, string>, stdin: string | null, stdout: string | null, stderrLimit: number }} SpawnRequest
 */

/** The tools started and not yet exited, by request id. @type {Map<number, import('node:child_process').ChildProcess>} */
const running = new Map();

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
  const started = performance.now();
  /** @type {import('node:child_process').ChildProcessByStdio<null, null, import('node:stream').Readable>} */
  let child;
  try {
    child = spawn(request.file, request.args, { stdio: [...stdio, 'pipe'], env: request.env });
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
  running.set(id, child);
  send({ id, event: 'spawned', pid: child.pid });
  child.on('close', (code, signal) => {
    running.delete(id);
    send({ id, event: 'exit', code, signal, stderr: Buffer.concat(stderr).toString('utf8'), ms: performance.now() - started });
  });
}

/**
 * A spawn request as sent by launcher.ts, or null for anything else.
 * @param {Record<string, unknown>} m
 * @returns {SpawnRequest | null}
 */
function spawnRequest(m) {
  const { id, file, args, env, stdin, stdout, stderrLimit } = m;
  if (typeof id !== 'number' || typeof file !== 'string' || !Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) return null;
  if (env === null || typeof env !== 'object' || !Object.values(env).every((value) => typeof value === 'string')) return null;
  if ((stdin !== null && typeof stdin !== 'string') || (stdout !== null && typeof stdout !== 'string') || typeof stderrLimit !== 'number') return null;
  return { id, file, args: /** @type {string[]} */ (args), env: /** @type {Record<string, string>} */ (env), stdin, stdout, stderrLimit };
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
  }
});

process.stdin.on('end', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
