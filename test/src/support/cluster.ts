/**
 * Cluster end-to-end support: the `jacobian api`, `runner` and `checker` roles as separate OS
 * processes of the real command, their JSON log lines, and bounded polls over them.
 *
 * Every process started here gets its own JACOBIAN_DATA_DIR value (the roles ignore it; it is
 * a marker that the kernel pool children inherit), so /proc finds every process a role left
 * behind, even re-parented orphans. Processes are stopped by pid only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { descendants, processesWithEnv, startCephRgw, startRedisServer, type CephRgwInstance, type ProcStat, type RedisServer } from '@jacobian/shared/testing';
import { commandEnvironment, JACOBIAN_BIN, REPO_ROOT, type StopOutcome } from './jacobian.js';

/** One JSON log line of a role (see src/log.ts). */
export interface LogEntry {
  time?: string;
  level?: string;
  msg?: string;
  [field: string]: unknown;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running (or exited) role process. */
export interface RoleProcess {
  readonly name: string;
  readonly pid: number;
  /** The unique JACOBIAN_DATA_DIR value of this process and its descendants. */
  readonly marker: string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Its JSON log lines so far, in order (non-JSON lines are skipped). */
  logs(): readonly LogEntry[];
  /** The exit, once it happened. */
  exit(): Exit | undefined;
  readonly exited: Promise<Exit>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<StopOutcome>;
  /** SIGKILL (a crash); resolves once the process has exited. */
  kill(): Promise<Exit>;
}

/** Bound on a role's start-up on a loaded 2-core machine (a limit, not an expectation). */
export const ROLE_STARTUP_TIMEOUT_MS = 90_000;

/** Poll `check` until it returns a value other than undefined; throw with `describe()` at the bound. */
export async function pollUntil<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  options: { timeoutMs: number; intervalMs?: number; describe?: () => string },
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${what}${options.describe ? `; ${options.describe()}` : ''}`);
    }
    await sleep(options.intervalMs ?? 100);
  }
}

/** Spawn `bin/jacobian.mjs <args>` with `env` plus a unique marker; stderr is captured and parsed. */
export function spawnRole(name: string, args: string[], env: Record<string, string>, markerRoot: string): RoleProcess {
  const marker = join(markerRoot, `${name}-${randomBytes(4).toString('hex')}`);
  const child: ChildProcess = spawn(process.execPath, [JACOBIAN_BIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...env, JACOBIAN_DATA_DIR: marker },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not spawn jacobian ${args.join(' ')}`);
  let stderr = '';
  let pending = '';
  const entries: LogEntry[] = [];
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      try {
        const entry: unknown = JSON.parse(line);
        if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) entries.push(entry as LogEntry);
      } catch {
        // Not a log line (e.g. the final "jacobian: <error>" message).
      }
    }
  });
  let exit: Exit | undefined;
  // 'close' rather than 'exit': stderr has been read to its end by then.
  const exited = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });

  let stopping: Promise<StopOutcome> | undefined;
  const stop = (graceMs = 20_000): Promise<StopOutcome> =>
    (stopping ??= (async () => {
      if (exit !== undefined) return { graceful: true, ...exit };
      child.kill('SIGTERM');
      const timer = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), graceMs).unref());
      const outcome = await Promise.race([exited, timer]);
      if (outcome !== undefined) return { graceful: true, ...outcome };
      child.kill('SIGKILL');
      return { graceful: false, ...(await exited) };
    })());

  return {
    name,
    pid,
    marker,
    stderr: () => stderr,
    logs: () => entries,
    exit: () => exit,
    exited,
    stop,
    async kill() {
      if (exit === undefined) child.kill('SIGKILL');
      return exited;
    },
  };
}

/** Wait (bounded) for a log line of `role` matching `predicate`; fails early if the process exits. */
export async function waitForLog(role: RoleProcess, what: string, predicate: (entry: LogEntry) => boolean, timeoutMs: number): Promise<LogEntry> {
  return pollUntil(
    `${role.name} (pid ${role.pid}) to log ${what}`,
    () => {
      const found = role.logs().find(predicate);
      if (found !== undefined) return found;
      const exit = role.exit();
      if (exit !== undefined) {
        throw new Error(`${role.name} (pid ${role.pid}) exited (${exit.code ?? exit.signal ?? '?'}) before logging ${what}; stderr:\n${role.stderr()}`);
      }
      return undefined;
    },
    { timeoutMs, intervalMs: 50, describe: () => `stderr:\n${role.stderr().slice(-4000)}` },
  );
}

/** Spawn a role and resolve once it logs `readyMessage`; on failure it is killed and the error carries its stderr. */
export async function startRole(name: string, args: string[], env: Record<string, string>, markerRoot: string, readyMessage: string): Promise<RoleProcess> {
  const role = spawnRole(name, args, env, markerRoot);
  try {
    await waitForLog(role, `"${readyMessage}"`, (entry) => entry.msg === readyMessage, ROLE_STARTUP_TIMEOUT_MS);
  } catch (error) {
    await role.kill();
    throw error;
  }
  return role;
}

/** The URL an API process logged with "serving MCP over Streamable HTTP". */
export function servedUrl(api: RoleProcess): URL {
  const entry = api.logs().find((e) => e.msg === 'serving MCP over Streamable HTTP');
  if (entry === undefined || typeof entry['url'] !== 'string') throw new Error(`${api.name} has not logged its URL; stderr:\n${api.stderr()}`);
  return new URL(entry['url']);
}

/** Log lines of `msg` about `jobId` (the runner's "run started" / "run finished"). */
export function jobLogs(role: RoleProcess, msg: string, jobId: string): LogEntry[] {
  return role.logs().filter((e) => e.msg === msg && e['job_id'] === jobId);
}

export interface CommandRun extends Exit {
  pid: number;
  marker: string;
  stdout: string;
  stderr: string;
}

/**
 * Run the command to completion; SIGKILL it by pid and fail if it has not exited by itself
 * within `boundMs`.
 */
export function runCommand(args: string[], env: Record<string, string>, markerRoot: string, boundMs = 60_000): Promise<CommandRun> {
  const marker = join(markerRoot, `cmd-${randomBytes(4).toString('hex')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [JACOBIAN_BIN, ...args], { cwd: REPO_ROOT, env: { ...env, JACOBIAN_DATA_DIR: marker }, stdio: ['ignore', 'pipe', 'pipe'] });
    const pid = child.pid;
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`jacobian ${args.join(' ')} did not exit by itself within ${boundMs} ms; stderr:\n${stderr}`));
    }, boundMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ pid: pid ?? 0, marker, code, signal, stdout, stderr });
    });
  });
}

/** A loopback port that was free a moment ago and on which nothing listens now. */
export async function closedPort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** Live processes carrying `marker` as JACOBIAN_DATA_DIR (the role and everything it started). */
export function processesOf(marker: string): number[] {
  return processesWithEnv('JACOBIAN_DATA_DIR', marker);
}

/** Kill (SIGKILL, by pid) every process still carrying one of `markers`; returns their pids. */
export function killLeftovers(markers: Iterable<string>): number[] {
  const left: number[] = [];
  for (const marker of markers) {
    for (const pid of processesOf(marker)) {
      left.push(pid);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  return left;
}

export interface TreesCpuWindow {
  ticks: number;
  pids: number[];
}

/** CPU used by the descendants of all `roots` together over `windowMs` (see proc.ts descendantCpu). */
export async function descendantsCpu(roots: readonly number[], windowMs: number): Promise<TreesCpuWindow> {
  const key = (s: ProcStat): string => `${s.pid}@${s.startTime}`;
  const sample = (): ProcStat[] => {
    const seen = new Map<string, ProcStat>();
    for (const root of roots) for (const stat of descendants(root)) seen.set(key(stat), stat);
    return [...seen.values()];
  };
  const before = new Map(sample().map((s) => [key(s), s.cpuTicks]));
  await sleep(windowMs);
  const after = sample();
  let ticks = 0;
  for (const stat of after) ticks += stat.cpuTicks - (before.get(key(stat)) ?? 0);
  return { ticks, pids: after.map((s) => s.pid) };
}

/**
 * Wait until the descendants of all `roots` together use at most `maxTicks` per window in
 * `consecutive` windows in a row; throw with the measurements at the bound.
 */
export async function waitForTreesIdle(
  roots: readonly number[],
  maxTicks: number,
  options: { windowMs?: number; timeoutMs?: number; consecutive?: number } = {},
): Promise<TreesCpuWindow[]> {
  const windowMs = options.windowMs ?? 500;
  const consecutive = options.consecutive ?? 2;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const history: TreesCpuWindow[] = [];
  let quiet = 0;
  for (;;) {
    const window = await descendantsCpu(roots, windowMs);
    history.push(window);
    quiet = window.ticks <= maxTicks ? quiet + 1 : 0;
    if (quiet >= consecutive) return history;
    if (Date.now() >= deadline) {
      throw new Error(
        `descendants of ${roots.join(', ')} never went idle (≤ ${maxTicks} ticks per ${windowMs} ms, ${consecutive} windows in a row); measured: ${history
          .map((w) => `${w.ticks} ticks [${w.pids.join(',')}]`)
          .join('; ')}`,
      );
    }
  }
}

/** Node's own warning block (the first one a process prints ends with the --trace-warnings hint). */
const NODE_WARNING_BLOCK = /^\(node:\d+\) [\s\S]*?\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)$/gm;

/**
 * Lines of `stderr` that are neither a JSON log line of the product nor a warning Node itself
 * prints (such as the AWS SDK's NodeVersionSupportWarning on Node 20). `allowed` lines are
 * accepted too (e.g. a failed command's final `jacobian: <message>`).
 */
export function foreignStderrLines(stderr: string, allowed: (line: string) => boolean = () => false): string[] {
  return stderr
    .replace(NODE_WARNING_BLOCK, '')
    .split('\n')
    .filter((line) => {
      if (line.trim() === '' || /^\(node:\d+\) /.test(line) || allowed(line)) return false;
      try {
        const parsed: unknown = JSON.parse(line);
        return typeof parsed !== 'object' || parsed === null || Array.isArray(parsed);
      } catch {
        return true;
      }
    });
}

/** What every cluster test file starts first: Redis, Ceph RGW with a new bucket, and a checker key pair. */
export interface ClusterInfrastructure {
  readonly redis: RedisServer;
  readonly rgw: CephRgwInstance;
  /** A client of the RGW with its credentials (the test's own view of the bucket). */
  readonly admin: S3Client;
  readonly bucket: string;
  readonly keys: { privateKey: string; publicKey: string };
  /**
   * The environment the roles share: Redis under `prefix`, the bucket under `s3Prefix`, the
   * checker's keys, one run at a time per role, and an operations port of each role's own;
   * `overrides` on top.
   */
  env(overrides?: Record<string, string>): Record<string, string>;
  /** Stop the RGW and Redis, and close the client; the errors met, if any. */
  stop(): Promise<unknown[]>;
}

/**
 * Start Redis and Ceph RGW side by side, make a bucket named `<bucketPrefix>-<random>` and a
 * checker key pair under `markerRoot` (the keygen's marker goes to `markers`). Whatever started
 * is stopped again when a later step fails, so a failed start leaves nothing behind.
 */
export async function startClusterInfrastructure(options: {
  markerRoot: string;
  markers: Set<string>;
  prefix: string;
  s3Prefix: string;
  bucketPrefix: string;
}): Promise<ClusterInfrastructure> {
  const [startedRedis, startedRgw] = await Promise.allSettled([startRedisServer(), startCephRgw()]);
  const stoppers: (() => Promise<void>)[] = [];
  if (startedRgw.status === 'fulfilled') stoppers.push(() => startedRgw.value.stop());
  if (startedRedis.status === 'fulfilled') stoppers.push(() => startedRedis.value.stop());
  const stop = async (): Promise<unknown[]> => {
    const errors: unknown[] = [];
    for (const stopOne of stoppers.splice(0)) await stopOne().catch((error: unknown) => errors.push(error));
    return errors;
  };
  try {
    if (startedRedis.status === 'rejected') throw startedRedis.reason;
    if (startedRgw.status === 'rejected') throw startedRgw.reason;
    const redis = startedRedis.value;
    const rgw = startedRgw.value;
    const admin = new S3Client({
      endpoint: rgw.endpoint,
      region: rgw.region,
      forcePathStyle: true,
      credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
    });
    stoppers.unshift(() => Promise.resolve(admin.destroy()));
    const bucket = `${options.bucketPrefix}-${randomBytes(5).toString('hex')}`;
    await admin.send(new CreateBucketCommand({ Bucket: bucket }));
    const keygen = await runCommand(['keygen', '--out', join(options.markerRoot, 'keys')], commandEnvironment({}), options.markerRoot);
    options.markers.add(keygen.marker);
    if (keygen.code !== 0) throw new Error(`jacobian keygen exited with ${keygen.code}: ${keygen.stderr}`);
    const written = JSON.parse(keygen.stdout) as { private_key: string; public_key: string };
    const keys = { privateKey: written.private_key, publicKey: written.public_key };
    return {
      redis,
      rgw,
      admin,
      bucket,
      keys,
      env: (overrides = {}) =>
        commandEnvironment({
          REDIS_URL: redis.url,
          JACOBIAN_PREFIX: options.prefix,
          S3_BUCKET: bucket,
          S3_REGION: rgw.region,
          S3_ENDPOINT: rgw.endpoint,
          S3_PREFIX: options.s3Prefix,
          S3_FORCE_PATH_STYLE: 'true',
          AWS_ACCESS_KEY_ID: rgw.accessKeyId,
          AWS_SECRET_ACCESS_KEY: rgw.secretAccessKey,
          AWS_EC2_METADATA_DISABLED: 'true',
          JACOBIAN_CHECKER_KEY_FILE: keys.privateKey,
          JACOBIAN_CHECKER_PUBLIC_KEYS: keys.publicKey,
          JACOBIAN_CONCURRENCY: '1',
          // Several roles share this host: each takes a free operations port.
          JACOBIAN_OPS_PORT: '0',
          ...overrides,
        }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
