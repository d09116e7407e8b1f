/**
 * A disposable Redis server for integration tests: its own process, on a free loopback port,
 * with its data in a temporary folder and no persistence. Tests never touch a shared Redis.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A running disposable Redis server; see {@link startRedisServer}. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** PID of the current server process; it changes on {@link RedisServer.restart}. */
  readonly pid: number;
  /** Stop the server (SIGTERM, waiting until it is gone) and remove its folder. Idempotent. */
  stop(): Promise<void>;
  /** Kill the server abruptly (SIGKILL), as a crash would; its folder stays for a restart. */
  kill(): Promise<void>;
  /** Start a fresh server on the same port (stopping the current one if it still runs); data is not kept. */
  restart(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Options of {@link startRedisServer}. */
export interface StartRedisServerOptions {
  signal?: AbortSignal;
  /** How long to wait for the server to answer PING. */
  readyTimeoutMs?: number;
  /**
   * More configuration on the command line, after the defaults (a later directive wins), kept
   * across {@link RedisServer.restart}; e.g. `['--maxmemory-policy', 'volatile-lru']`, or
   * `['--rename-command', 'CONFIG', '""']` for a server without CONFIG, as managed Redis is.
   */
  args?: readonly string[];
}

const MISSING_BINARY_HINT = 'redis-server is not installed; run scripts/install-system-deps.sh (as root) to install it';

async function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('could not find a free port'))));
    });
  });
}

function launch(args: string[], signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    execFile('redis-server', args, { signal, timeout: 10_000 }, (error, _stdout, stderr) => {
      if (error === null) {
        resolve();
        return;
      }
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new Error(MISSING_BINARY_HINT, { cause: error }));
        return;
      }
      reject(new Error(`redis-server failed to start: ${stderr.trim() || error.message}`, { cause: error }));
    });
  });
}

/** Whether the server on `port` answers PING with PONG. */
function answersPing(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/**
 * Whether `pid` is a live process. A daemonized server is reparented to PID 1, which may not
 * reap it here, so an exited server can linger as a zombie: count that as gone.
 */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The state letter follows the parenthesized command name.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal.throwIfAborted();
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20, undefined, { signal });
  }
}

/**
 * Start `redis-server` daemonized on a free loopback port, in a fresh temporary folder, with
 * persistence off; resolve once it answers PING. Throws, naming scripts/install-system-deps.sh,
 * when the binary is missing.
 *
 * @example
 * const redis = await startRedisServer();
 * try {
 *   const queue = createBullmqRunQueue({ connection: { url: redis.url } });
 * } finally {
 *   await redis.stop();
 * }
 */
export async function startRedisServer(options: StartRedisServerOptions = {}): Promise<RedisServer> {
  const signal = options.signal ?? new AbortController().signal;
  const readyTimeoutMs = options.readyTimeoutMs ?? 10_000;
  const dir = await mkdtemp(join(tmpdir(), 'jacobian-redis-'));
  const pidFile = join(dir, 'redis.pid');
  let port = 0;
  let pid = 0;
  let removed = false;

  const args = (): string[] => [
    '--bind', '127.0.0.1',
    '--port', String(port),
    '--daemonize', 'yes',
    '--pidfile', pidFile,
    '--logfile', join(dir, 'redis.log'),
    '--dir', dir,
    '--save', '',
    '--appendonly', 'no',
    ...(options.args ?? []),
  ];

  async function readPid(): Promise<number> {
    const text = await readFile(pidFile, 'utf8').catch(() => '');
    const value = Number.parseInt(text.trim(), 10);
    return Number.isInteger(value) && value > 0 ? value : 0;
  }

  async function start(): Promise<void> {
    await mkdir(dir, { recursive: true });
    await rm(pidFile, { force: true });
    await launch(args(), signal);
    try {
      // The launcher exits right after forking; the daemon writes its PID file, then listens.
      await waitUntil('the redis-server PID file', async () => (pid = await readPid()) > 0, readyTimeoutMs, signal);
      await waitUntil(`redis-server on port ${port} to answer PING`, () => answersPing(port), readyTimeoutMs, signal);
    } catch (error) {
      const log = await readFile(join(dir, 'redis.log'), 'utf8').catch(() => '');
      if (pid > 0) await terminate('SIGKILL');
      throw new Error(`${(error as Error).message}${log ? `; redis.log ends with: ${log.slice(-500)}` : ''}`, { cause: error });
    }
  }

  async function terminate(how: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    if (pid === 0) return;
    const target = pid;
    pid = 0;
    if (!(await isAlive(target))) return;
    try {
      process.kill(target, how);
    } catch {
      return;
    }
    await waitUntil(`redis-server ${target} to exit`, async () => !(await isAlive(target)), 10_000, new AbortController().signal);
  }

  // The probe above frees its port before Redis binds it; another process can win that race.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (error) {
      if ((error as Error).message === MISSING_BINARY_HINT || attempt >= 3) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }

  const server: RedisServer = {
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    port,
    get pid() {
      return pid;
    },
    async stop() {
      await terminate('SIGTERM');
      if (!removed) {
        removed = true;
        await rm(dir, { recursive: true, force: true });
      }
    },
    async kill() {
      await terminate('SIGKILL');
    },
    async restart() {
      await terminate('SIGTERM');
      removed = false;
      await start();
    },
    [Symbol.asyncDispose]() {
      return server.stop();
    },
  };
  return server;
}
