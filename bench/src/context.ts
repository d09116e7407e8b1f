/**
 * What every benchmark shares: a temporary folder for logs and data, the group of processes it
 * starts, and the `jacobian` command (bin/jacobian.mjs) started as separate processes.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnableFile } from '@jacobian/shared';
import { childEnvironment, waitForLogLine, type ManagedProcess, type ProcessGroup } from './proc.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const JACOBIAN_BIN = join(REPO_ROOT, 'bin', 'jacobian.mjs');
export const CHILDREN_DIR = fileURLToPath(new URL('./children/', import.meta.url));

export interface BenchContext {
  readonly runTag: string;
  /** This run's folder: logs, data dirs, keys. */
  readonly dir: string;
  readonly group: ProcessGroup;
  /** Log level of the jacobian processes. */
  readonly logLevel: string;
  /** Extra node flags of the jacobian processes (--cpu-prof…). */
  readonly jacobianNodeArgs: readonly string[];
  /** Cleanups other than processes (Redis, …), run in reverse order at the end. */
  readonly cleanups: (() => Promise<void>)[];
  log(message: string): void;
  /**
   * Wait (up to the run's --wait-quiet bound) until processes outside the benchmark use at
   * most a quarter of a core, so phases start on a quiet machine when one can be had. Returns
   * the other load last seen, in cores.
   */
  waitQuiet(label: string): Promise<number>;
}

export interface JacobianProcess {
  readonly process: ManagedProcess;
  readonly url: URL | undefined;
}

/** The environment of a jacobian process: hermetic, its own data dir, the given extras. */
export function jacobianEnvironment(context: BenchContext, name: string, extra: Record<string, string>): Record<string, string> {
  const dataDir = join(context.dir, 'data', name);
  mkdirSync(dataDir, { recursive: true });
  return childEnvironment(context.runTag, { JACOBIAN_DATA_DIR: dataDir, JACOBIAN_LOG_LEVEL: context.logLevel, ...extra });
}

/**
 * Start `jacobian <command> [args]` and wait until it is ready: for `serve` and `api` the
 * "serving MCP over Streamable HTTP" line (whose URL is returned), for the other roles the
 * given ready message.
 */
export async function startJacobian(
  context: BenchContext,
  name: string,
  args: readonly string[],
  options: { env: Record<string, string>; core?: number; readyMessage?: string },
): Promise<JacobianProcess> {
  const managed = context.group.spawnNode(name, [...context.jacobianNodeArgs, JACOBIAN_BIN, ...args], {
    cwd: REPO_ROOT,
    env: options.env,
    logFile: join(context.dir, `${name}.log`),
    ...(options.core !== undefined ? { core: options.core } : {}),
  });
  const ready = options.readyMessage ?? 'serving MCP over Streamable HTTP';
  const url = await waitForLogLine(managed, (entry) => {
    if (entry['msg'] !== ready) return undefined;
    return typeof entry['url'] === 'string' ? new URL(entry['url']) : null;
  });
  return { process: managed, url: url ?? undefined };
}

/**
 * Start one of this package's child entry points (children/*.ts, named by its source) with plain
 * `node`: `npm run bench` runs the benchmark compiled (bench/dist), children and jacobian alike.
 */
export function startChild(
  context: BenchContext,
  name: string,
  entry: string,
  options: { env: Record<string, string>; core?: number; pipeStdout?: boolean; pipeStdin?: boolean },
): ManagedProcess {
  return context.group.spawnNode(name, [runnableFile(join(CHILDREN_DIR, entry))], {
    cwd: REPO_ROOT,
    env: childEnvironment(context.runTag, options.env),
    logFile: join(context.dir, `${name}.log`),
    ...(options.core !== undefined ? { core: options.core } : {}),
    ...(options.pipeStdout ? { pipeStdout: true } : {}),
    ...(options.pipeStdin ? { pipeStdin: true } : {}),
  });
}

/** `jacobian keygen --out DIR`: the checker's key pair for the cluster. */
export function generateCheckerKeys(context: BenchContext): { privateKey: string; publicKey: string } {
  const out = join(context.dir, 'keys');
  mkdirSync(out, { recursive: true });
  const result = spawnSync(process.execPath, [JACOBIAN_BIN, 'keygen', '--out', out], {
    cwd: REPO_ROOT,
    env: childEnvironment(context.runTag, {}),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(`jacobian keygen failed (${result.status ?? result.signal ?? '?'}): ${result.stderr}`);
  const parsed = JSON.parse(result.stdout.trim()) as { private_key: string; public_key: string };
  return { privateKey: parsed.private_key, publicKey: parsed.public_key };
}
