import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { admitRequest, executeCapability, type AdmittedRun } from '../capabilities/host.js';
import { createShardHandler, shardJobId } from '../capabilities/shards.js';
import { CapabilityRequestSchema } from '../contracts/capability.js';
import type { RunProgress } from '../contracts/progress.js';
import type { CapabilityResult } from '../contracts/result.js';
import { startRedisServer, type RedisServer } from '../testing/redis-server.js';
import { createBullmqRunQueue } from './bullmq-run-queue.js';
import { createBullmqRunWorker } from './bullmq-run-worker.js';
import { defaultRunQueueName, parseRunJobData } from './job-data.js';
import type { RunHandler, RunQueue, RunTarget } from './run-queue.js';
import { installSumRange, NO_ARTIFACTS, NO_EXECUTOR, SUM_RANGE_ID, SumRangeOutput } from './fixtures/sum-range.js';

const POOL: RunTarget = { kind: 'pool', pool: 'light' };
const QUEUE_NAME = defaultRunQueueName(POOL);

function sumRequest(payload: Record<string, unknown>): AdmittedRun {
  return admitRequest(CapabilityRequestSchema.parse({ capability_id: SUM_RANGE_ID, payload }));
}

function bruteSum(from: number, to: number): string {
  let sum = 0n;
  for (let i = from; i < to; i++) sum += BigInt(i);
  return String(sum);
}

function output(result: CapabilityResult): SumRangeOutput {
  return SumRangeOutput.parse(result.output);
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

let redis: RedisServer;
const cleanups: (() => Promise<void>)[] = [];
const defer = (cleanup: () => Promise<void>): void => void cleanups.push(cleanup);

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

function uniquePrefix(): string {
  return `t-${randomBytes(6).toString('hex')}`;
}

function openQueue(prefix: string, attempts = 3): RunQueue {
  const queue = createBullmqRunQueue({ connection: { url: redis.url }, prefix, backoffMs: 20, attempts });
  defer(() => queue.close());
  return queue;
}

function inspect(prefix: string): Queue {
  const queue = new Queue(QUEUE_NAME, { connection: { url: redis.url }, prefix });
  defer(() => queue.close());
  return queue;
}

/** An in-process runner of test.sum.range with its split plan; `wrap` may stand between the worker and the host. */
async function openWorker(prefix: string, options: { label: string; concurrency?: number; wrap?: (handler: RunHandler) => RunHandler; started?: string[] }): Promise<void> {
  const installed = installSumRange({ label: options.label, onStart: (jobId) => options.started?.push(jobId) });
  const deps = { artifacts: NO_ARTIFACTS, executor: NO_EXECUTOR };
  const handler: RunHandler = (run, signal, onProgress) => executeCapability(installed, run, deps, signal, onProgress);
  const worker = createBullmqRunWorker({
    connection: { url: redis.url },
    prefix,
    targets: [POOL],
    concurrency: options.concurrency ?? 2,
    handler: options.wrap?.(handler) ?? handler,
    shards: createShardHandler({ capability: (id) => (id === SUM_RANGE_ID ? installed : undefined), deps }),
  });
  defer(() => worker.close({ graceMs: 0 }));
  await worker.waitUntilReady();
}

const tsxImport = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const workerScript = fileURLToPath(new URL('./fixtures/shard-worker-process.ts', import.meta.url));

interface RunnerProcess {
  readonly pid: number;
  /** Job IDs this process saw reach `event`. */
  jobs(event: 'started' | 'aborted' | 'completed'): string[];
  kill(): Promise<void>;
}

function markerDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jacobian-shard-markers-'));
  defer(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function spawnRunner(env: { prefix: string; dir: string; behavior: 'complete' | 'hang'; lockMs?: number; concurrency?: number }): Promise<RunnerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', tsxImport, workerScript], {
    env: {
      ...process.env,
      JACOBIAN_TEST_REDIS_URL: redis.url,
      JACOBIAN_TEST_PREFIX: env.prefix,
      JACOBIAN_TEST_POOL: POOL.kind === 'pool' ? POOL.pool : '',
      JACOBIAN_TEST_MARKER_DIR: env.dir,
      JACOBIAN_TEST_BEHAVIOR: env.behavior,
      JACOBIAN_TEST_LOCK_MS: String(env.lockMs ?? 30_000),
      JACOBIAN_TEST_CONCURRENCY: String(env.concurrency ?? 1),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the runner process did not start');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(pid, 'SIGKILL');
      await exited;
    }
  };
  defer(kill);
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('ready\n')) resolve();
    });
    void exited.then(() => reject(new Error(`the runner process exited before it was ready: ${stderr}`)));
  });
  return {
    pid,
    jobs: (event) =>
      readdirSync(env.dir)
        .filter((name) => name.startsWith(`${pid}.${event}.`))
        .map((name) => name.slice(`${pid}.${event}.`.length)),
    kill,
  };
}

describe('BullMQ run queue: split runs', () => {
  it('spreads the children over two runner processes, merges once, and reports progress as they finish', async () => {
    const prefix = uniquePrefix();
    const dir = markerDir();
    const runners = [await spawnRunner({ prefix, dir, behavior: 'complete' }), await spawnRunner({ prefix, dir, behavior: 'complete' })];
    const queue = openQueue(prefix);
    // Each child takes a while, so that a runner busy with one leaves the next to the other.
    const parent = sumRequest({ from: 3, to: 4003, split: 4, delay_ms: 300 });
    const progress: RunProgress[] = [];
    const result = await queue.submit(parent, POOL, { onProgress: (p) => progress.push(p) });
    expect(result.execution).toMatchObject({ status: 'COMPLETED', job_id: parent.job_id });
    expect(result.completeness.status).toBe('COMPLETE');
    const merged = output(result);
    expect(merged.sum).toBe(bruteSum(3, 4003));
    const children = [0, 1, 2, 3].map((index) => shardJobId(parent.job_id, index));
    expect(merged.shards?.map((shard) => shard.job_id)).toEqual(children);
    // Which runner computed each child, from the results, agrees with what the runners saw.
    const byRunner = new Map(runners.map((runner) => [String(runner.pid), runner.jobs('completed')]));
    for (const shard of merged.shards ?? []) expect(byRunner.get(shard.computed_by)).toContain(shard.job_id);
    expect(new Set(merged.shards?.map((shard) => shard.computed_by)).size).toBe(2);
    // Each child computed once, cluster-wide; the parent itself never ran the capability.
    expect(runners.flatMap((runner) => runner.jobs('started')).sort()).toEqual([...children].sort());
    expect(result.diagnostics.filter((d) => d.code === 'SHARD_CHILD')).toHaveLength(4);
    expect(progress.some((p) => p.total === 4 && p.progress >= 1)).toBe(true);
    for (const report of progress) expect(report.progress).toBeLessThanOrEqual(report.total ?? 0);
  });

  it('computes the same parent request, submitted twice from two API processes, once', async () => {
    const prefix = uniquePrefix();
    const started: string[] = [];
    await openWorker(prefix, { label: 'only', concurrency: 3, started });
    const parent = sumRequest({ from: 10, to: 1000, split: 3, delay_ms: 50 });
    const [a, b] = await Promise.all([openQueue(prefix).submit(parent, POOL), openQueue(prefix).submit(parent, POOL)]);
    expect(a).toEqual(b);
    expect(output(a).sum).toBe(bruteSum(10, 1000));
    expect(started.sort()).toEqual([0, 1, 2].map((index) => shardJobId(parent.job_id, index)).sort());
    // Later, from a fresh API process: the stored answer, without computing.
    expect(await openQueue(prefix).submit(parent, POOL)).toEqual(a);
    expect(started).toHaveLength(3);
  });

  it('makes the parent ERROR, naming the child, when a child answers ERROR (never retried)', async () => {
    const prefix = uniquePrefix();
    const started: string[] = [];
    await openWorker(prefix, { label: 'only', started });
    const parent = sumRequest({ from: 0, to: 60, split: 3, fail_part: 2 });
    const result = await openQueue(prefix).submit(parent, POOL);
    expect(result.execution.status).toBe('ERROR');
    expect(result.completeness.status).not.toBe('COMPLETE');
    const errors = result.diagnostics.filter((d) => d.severity === 'ERROR');
    expect(errors.map((d) => [d.code, d.path])).toEqual([['PROVIDER_FAILED', ['shards', 2]]]);
    expect(errors[0]?.message).toContain(shardJobId(parent.job_id, 2));
    // A mathematical outcome is an answer, not a failure: the failing child ran once.
    expect(started.filter((jobId) => jobId === shardJobId(parent.job_id, 2))).toHaveLength(1);
  });

  it('retries a child\'s infrastructure failure like any job\'s, and the parent names the child that failed every attempt', async () => {
    const prefix = uniquePrefix();
    const attempts = new Map<string, number>();
    await openWorker(prefix, {
      label: 'only',
      wrap: (handler) => (run, signal, onProgress) => {
        attempts.set(run.job_id, (attempts.get(run.job_id) ?? 0) + 1);
        if (run.job_id.endsWith('.s1')) return Promise.reject(new Error('the process pool broke'));
        return handler(run, signal, onProgress);
      },
    });
    const parent = sumRequest({ from: 0, to: 60, split: 2 });
    const result = await openQueue(prefix, 2).submit(parent, POOL);
    expect(result.execution.status).toBe('ERROR');
    const errors = result.diagnostics.filter((d) => d.severity === 'ERROR');
    expect(errors.map((d) => [d.code, d.path])).toEqual([['INTERNAL', ['shards', 1]]]);
    expect(errors[0]?.message).toContain('the process pool broke');
    expect(attempts.get(shardJobId(parent.job_id, 1))).toBe(2);
    expect(attempts.get(shardJobId(parent.job_id, 0))).toBe(1);
  });

  it('cancels the children when the parent\'s last caller withdraws: running ones are aborted, waiting ones removed', async () => {
    const prefix = uniquePrefix();
    const dir = markerDir();
    const runner = await spawnRunner({ prefix, dir, behavior: 'hang', concurrency: 2 });
    const queue = openQueue(prefix);
    const raw = inspect(prefix);
    const parent = sumRequest({ from: 0, to: 30, split: 3 });
    const children = [0, 1, 2].map((index) => shardJobId(parent.job_id, index));
    const controller = new AbortController();
    const pending = queue.submit(parent, POOL, { signal: controller.signal });
    await until('two children to run', () => runner.jobs('started').length === 2);
    const waitingChild = children.find((jobId) => !runner.jobs('started').includes(jobId)) ?? '';
    expect(await raw.getJobState(waitingChild)).toBe('waiting');
    controller.abort();
    expect((await pending).execution.status).toBe('CANCELLED');
    // The abort crossed Redis into the runner, whose running children saw their signals fire.
    await until('the running children to be aborted', () => runner.jobs('aborted').length === 2);
    expect(runner.jobs('aborted').sort()).toEqual(runner.jobs('started').sort());
    expect(await raw.getJob(waitingChild)).toBeUndefined();
    // The parent, released once no child was pending, ends CANCELLED (or is gone).
    await until('the parent to end', async () => ['completed', 'unknown'].includes(await raw.getJobState(parent.job_id)));
    const stored = await raw.getJob(parent.job_id);
    if (stored !== undefined) expect((stored.returnvalue as CapabilityResult).execution.status).toBe('CANCELLED');
    expect(runner.jobs('started')).not.toContain(waitingChild);
    expect(existsSync(join(dir, `${runner.pid}.started.${parent.job_id}`))).toBe(false);
  });

  it('resumes a parent from its recorded plan: a later activation adds only the children that are missing', async () => {
    const prefix = uniquePrefix();
    const installed = installSumRange({ label: 'planner' });
    const parent = sumRequest({ from: 0, to: 100, split: 2 });
    const decision = await createShardHandler({ capability: () => installed, deps: { artifacts: NO_ARTIFACTS, executor: NO_EXECUTOR } }).plan(parent, new AbortController().signal);
    if (decision === null || !('children' in decision)) throw new Error('expected a split');
    // What a runner that died after planning and adding the first child leaves behind: the
    // parent back in its queue with its plan recorded, and one child linked to it.
    const raw = inspect(prefix);
    const fanout = { started_at: Date.now(), children: decision.children.map((child) => ({ run: child.run, target: child.target, queue: QUEUE_NAME })) };
    await raw.add(parent.capability_id, { run: parent, target: POOL, trace: {}, fanout }, { jobId: parent.job_id });
    const [first] = decision.children;
    if (first === undefined) throw new Error('expected a first child');
    await raw.add(first.run.capability_id, { run: first.run, target: POOL, trace: {} }, { jobId: first.run.job_id, parent: { id: parent.job_id, queue: raw.qualifiedName }, ignoreDependencyOnFailure: true });
    const pending = openQueue(prefix).submit(parent, POOL);
    const started: string[] = [];
    await openWorker(prefix, { label: 'resumer', started });
    const result = await pending;
    expect(output(result).sum).toBe(bruteSum(0, 100));
    expect(started.sort()).toEqual([0, 1].map((index) => shardJobId(parent.job_id, index)).sort());
  });

  it('gives the parent one result when a runner is killed mid-child: the stalled child is recovered by another runner', async () => {
    const prefix = uniquePrefix();
    const dir = markerDir();
    const lockMs = 1000;
    const doomed = await spawnRunner({ prefix, dir, behavior: 'hang', lockMs });
    const queue = openQueue(prefix);
    const raw = inspect(prefix);
    const parent = sumRequest({ from: 7, to: 707, split: 2 });
    let settled = 0;
    const pending = queue.submit(parent, POOL).then((result) => {
      settled++;
      return result;
    });
    await until('the first runner to start a child', () => doomed.jobs('started').length === 1);
    const survivor = await spawnRunner({ prefix, dir, behavior: 'complete', lockMs });
    await doomed.kill();
    const result = await pending;
    expect(result.execution.status).toBe('COMPLETED');
    const merged = output(result);
    expect(merged.sum).toBe(bruteSum(7, 707));
    expect(merged.shards?.map((shard) => shard.computed_by)).toEqual([String(survivor.pid), String(survivor.pid)]);
    expect(settled).toBe(1);
    expect(doomed.jobs('completed')).toEqual([]);
    // The plan was recorded in the parent's job, once, before its children were added.
    const stored = await raw.getJob(parent.job_id);
    expect(parseRunJobData(stored?.data).fanout?.children.map((child) => child.run.job_id)).toEqual([0, 1].map((index) => shardJobId(parent.job_id, index)));
  });
});
