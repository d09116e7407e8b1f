/**
 * Start the real `jacobian` command and connect the real MCP SDK client to it, over Streamable
 * HTTP or stdio, in the legacy (2025, `initialize`) or modern (2026-07-28) protocol era.
 *
 * Every process started here is stopped by its pid, and every fixture checks on close that no
 * process carrying its unique JACOBIAN_DATA_DIR is left (kernel pool children, the stdio
 * client's probe sibling…).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { reapProcessesWithEnv } from '@jacobian/shared/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { waitForExit } from './proc.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const JACOBIAN_BIN = join(REPO_ROOT, 'bin', 'jacobian.mjs');

/** Generous bounds for a loaded 2-core machine; they are limits, not expectations. */
export const STARTUP_TIMEOUT_MS = 60_000;
/** For beforeAll/afterAll hooks that start or stop processes. */
export const HOOK_TIMEOUT_MS = 2 * STARTUP_TIMEOUT_MS;
export const E2E_TEST_TIMEOUT_MS = 120_000;

const INHERITED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'];

/**
 * A hermetic environment for the command: the basic variables of this process, none of its
 * JACOBIAN_* or NODE_OPTIONS settings, plus the test's own variables.
 */
export function commandEnvironment(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, JACOBIAN_LOG_LEVEL: 'info', ...extra };
}

export interface StopOutcome {
  /** Exited by itself after SIGTERM, within the grace period. */
  graceful: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
}

async function stopChild(child: ChildProcess, graceMs: number): Promise<StopOutcome> {
  const exited = new Promise<StopOutcome>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ graceful: true, code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ graceful: true, code, signal }));
  });
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill('SIGTERM');
  const timer = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), graceMs).unref());
  const outcome = await Promise.race([exited, timer]);
  if (outcome !== undefined) return outcome;
  child.kill('SIGKILL');
  return { ...(await exited), graceful: false };
}

export interface HttpServerProcess {
  readonly pid: number;
  /** The MCP endpoint, parsed from the "serving MCP over Streamable HTTP" log line. */
  readonly url: URL;
  /** What the process wrote to stderr so far (JSON log lines). */
  stderr(): string;
  /** SIGTERM, then SIGKILL after a grace period; resolves once the process has exited. */
  stop(): Promise<StopOutcome>;
}

/**
 * `jacobian serve --host 127.0.0.1 --port 0`, resolved once it logs its URL and that it has
 * probed every provider: it serves before a slow health check not remembered yet (z3-solver's in
 * a new data dir) has ended, and the tests expect the whole catalog.
 */
export async function startHttpServer(env: Record<string, string>): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [JACOBIAN_BIN, 'serve', '--host', '127.0.0.1', '--port', '0'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not spawn jacobian serve');
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    let pending = '';
    let served: URL | undefined;
    let probed = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`jacobian serve did not log its URL and its providers probed within ${STARTUP_TIMEOUT_MS} ms; stderr:\n${stderr}`));
    }, STARTUP_TIMEOUT_MS);
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      clearTimeout(timer);
      reject(new Error(`jacobian serve exited (${code ?? signal ?? '?'}) before serving; stderr:\n${stderr}`));
    };
    child.once('exit', onExit);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        let entry: unknown;
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        const { msg, url: logged } = entry as { msg?: unknown; url?: unknown };
        if (msg === 'serving MCP over Streamable HTTP' && typeof logged === 'string') served = new URL(logged);
        if (msg === 'providers probed') probed = true;
        if (served !== undefined && probed) {
          clearTimeout(timer);
          child.off('exit', onExit);
          resolve(served);
        }
      }
    });
  });
  let stopping: Promise<StopOutcome> | undefined;
  return {
    pid,
    url,
    stderr: () => stderr,
    stop: () => (stopping ??= stopChild(child, 15_000)),
  };
}

export type TransportKind = 'http' | 'stdio';
export type Era = 'legacy' | 'modern';

export interface Combination {
  readonly transport: TransportKind;
  readonly era: Era;
}

/** Every transport × protocol era the product serves. */
export const ALL_COMBINATIONS: readonly Combination[] = [
  { transport: 'http', era: 'legacy' },
  { transport: 'http', era: 'modern' },
  { transport: 'stdio', era: 'legacy' },
  { transport: 'stdio', era: 'modern' },
];

export interface Connection {
  readonly client: Client;
  readonly combination: Combination;
  /** The jacobian process serving this connection (shared per file for HTTP; own for stdio). */
  readonly serverPid: number;
  close(): Promise<void>;
}

function newClient(era: Era): Client {
  const info = { name: 'jacobian-e2e', version: '1.0.0' };
  return era === 'modern' ? new Client(info, { versionNegotiation: { mode: 'auto' } }) : new Client(info);
}

function checkEra(client: Client, era: Era): void {
  const negotiated = client.getProtocolEra();
  if (negotiated !== era) throw new Error(`expected the ${era} protocol era, but the client negotiated ${String(negotiated)}`);
}

/**
 * A Jacobian under test: a fresh data dir, the environment of its processes, and (when asked
 * for) one shared `jacobian serve` process. Stdio connections each start their own
 * `jacobian stdio` process, because stdio is one connection per process.
 */
export interface JacobianFixture {
  readonly dataDir: string;
  readonly env: Record<string, string>;
  readonly http: HttpServerProcess | undefined;
  connect(combination: Combination): Promise<Connection>;
  /** Close connections, stop processes, check none is left, remove the data dir. */
  close(): Promise<void>;
}

export async function startJacobian(options: { env?: Record<string, string>; http?: boolean } = {}): Promise<JacobianFixture> {
  const dataDir = await mkdtemp(join(tmpdir(), 'jacobian-e2e-'));
  const env = commandEnvironment({ ...options.env, JACOBIAN_DATA_DIR: dataDir });
  const connections = new Set<Connection>();
  let http: HttpServerProcess | undefined;
  if (options.http ?? true) {
    try {
      http = await startHttpServer(env);
    } catch (error) {
      await reapProcessesWithEnv('JACOBIAN_DATA_DIR', dataDir, 5_000);
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  async function connectHttp(server: HttpServerProcess, combination: Combination): Promise<Connection> {
    const client = newClient(combination.era);
    await client.connect(new StreamableHTTPClientTransport(server.url));
    try {
      checkEra(client, combination.era);
    } catch (error) {
      await client.close();
      throw error;
    }
    return { client, combination, serverPid: server.pid, close: () => client.close() };
  }

  async function connectStdio(combination: Combination): Promise<Connection> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [JACOBIAN_BIN, 'stdio'], env, cwd: REPO_ROOT, stderr: 'pipe' });
    let stderr = '';
    // Drain the child's log lines so its stderr pipe never fills up.
    transport.stderr?.on('data', (chunk: Buffer | string) => {
      stderr += chunk.toString();
    });
    const client = newClient(combination.era);
    try {
      await client.connect(transport);
    } catch (error) {
      const pid = transport.pid;
      await transport.close().catch(() => undefined);
      if (pid !== null && !(await waitForExit(pid, 10_000))) process.kill(pid, 'SIGKILL');
      throw new Error(`stdio connect failed: ${(error as Error).message}; stderr:\n${stderr}`, { cause: error });
    }
    const pid = transport.pid;
    const close = async (): Promise<void> => {
      // Closing stdin ends the session; the server then stops its kernel pool and exits.
      await client.close();
      if (pid !== null && !(await waitForExit(pid, 15_000))) {
        process.kill(pid, 'SIGKILL');
        throw new Error(`jacobian stdio (pid ${pid}) did not exit after its client closed stdin; stderr:\n${stderr}`);
      }
    };
    try {
      if (pid === null) throw new Error('the stdio transport has no child pid');
      checkEra(client, combination.era);
    } catch (error) {
      await close();
      throw error;
    }
    return { client, combination, serverPid: pid, close };
  }

  function requireHttp(): HttpServerProcess {
    if (http === undefined) throw new Error('this fixture was started without an HTTP server');
    return http;
  }

  return {
    dataDir,
    env,
    http,
    async connect(combination) {
      const connection = combination.transport === 'http' ? await connectHttp(requireHttp(), combination) : await connectStdio(combination);
      let closing: Promise<void> | undefined;
      const tracked: Connection = {
        client: connection.client,
        combination,
        serverPid: connection.serverPid,
        close: () =>
          (closing ??= connection.close().finally(() => {
            connections.delete(tracked);
          })),
      };
      connections.add(tracked);
      return tracked;
    },
    async close() {
      const errors: unknown[] = [];
      for (const connection of [...connections]) await connection.close().catch((error: unknown) => errors.push(error));
      if (http !== undefined) {
        const server = http;
        const stopped = await server.stop();
        // A clean shutdown is part of the product: SIGTERM stops the server, its kernel pool and itself, exit code 0.
        if (!stopped.graceful) errors.push(new Error(`jacobian serve (pid ${server.pid}) ignored SIGTERM and was killed; stderr:\n${server.stderr()}`));
        else if (stopped.code !== 0) errors.push(new Error(`jacobian serve (pid ${server.pid}) exited with ${stopped.code ?? stopped.signal ?? '?'} on SIGTERM; stderr:\n${server.stderr()}`));
      }
      const left = await reapProcessesWithEnv('JACOBIAN_DATA_DIR', dataDir);
      if (left.length > 0) errors.push(new Error(`processes left behind (killed now): ${left.join(', ')}`));
      await rm(dataDir, { recursive: true, force: true });
      if (errors.length > 0) throw errors[0];
    },
  };
}

/**
 * Run the same tests against every transport × era combination: one describe block per
 * combination, each with its own client connection (and, for stdio, its own process),
 * opened before and closed after the block's tests.
 */
export function describeEachConnection(
  fixture: () => JacobianFixture,
  body: (connection: () => Connection, combination: Combination) => void,
  combinations: readonly Combination[] = ALL_COMBINATIONS,
): void {
  describe.each(combinations)('over $transport, $era era', (combination) => {
    let connection: Connection | undefined;
    beforeAll(async () => {
      connection = await fixture().connect(combination);
    }, HOOK_TIMEOUT_MS);
    afterAll(async () => {
      await connection?.close();
    }, HOOK_TIMEOUT_MS);
    body(() => {
      if (connection === undefined) throw new Error(`no connection over ${combination.transport} (${combination.era})`);
      return connection;
    }, combination);
  });
}
