import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { admitRequest, nonConclusionResult, type AdmittedRun } from '../capabilities/host.js';
import { CapabilityRequestSchema } from '../contracts/capability.js';
import type { CapabilityResult } from '../contracts/result.js';
import { JacobianError } from '../errors.js';
import { startRedisServer, type RedisServer } from '../testing/redis-server.js';
import { createBullmqRunQueue, type BullmqRunQueueOptions } from './bullmq-run-queue.js';
import { budgetLeft, createBullmqRunWorker, type BullmqRunWorker, type BullmqRunWorkerOptions } from './bullmq-run-worker.js';
import { decodeJobFailure, defaultRunQueueName, encodeJobFailure, parseRunJobData, RunJobDataSchema, runQueueKeys } from './job-data.js';
import type { RunHandler, RunQueue, RunTarget } from './run-queue.js';
import { completedRunResult } from './fixtures/results.js';

const POOL: RunTarget = { kind: 'pool', pool: 'light' };
const QUEUE_NAME = defaultRunQueueName(POOL);

function admitted(n: number, wallTimeMs = 30_000): AdmittedRun {
  return admitRequest(
    CapabilityRequestSchema.parse({ capability_id: 'test.op', payload: { n, salt: randomBytes(6).toString('hex') }, budget: { wall_time_ms: wallTimeMs } }),
  );
}

function completedResult(run: AdmittedRun, output: unknown = { n: run.payload['n'] }): CapabilityResult {
  return completedRunResult(run, output);
}

function nonConclusion(run: AdmittedRun, status: 'CANCELLED' | 'ERROR', code: 'EXECUTION_CANCELLED' | 'PROVIDER_FAILED'): CapabilityResult {
  return nonConclusionResult(run, {
    status,
    diagnostics: [{ severity: 'ERROR', code, stage: 'EXECUTION', message: status.toLowerCase(), path: null, hint: null }],
  });
}

function codes(result: CapabilityResult): string[] {
  return result.diagnostics.map((d) => d.code);
}

/** A handler from a synchronous body: what it returns resolves, what it throws rejects. */
function answering(body: (run: AdmittedRun) => CapabilityResult): RunHandler {
  return (run) => {
    try {
      return Promise.resolve(body(run));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
}

interface Gate {
  promise: Promise<void>;
  open(): void;
}
function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Wait until `check` holds, failing the test after a while. Only the tests poll. */
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

let redis: RedisServer;
const cleanups: (() => Promise<void>)[] = [];

function defer(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

function uniquePrefix(): string {
  return `t-${randomBytes(6).toString('hex')}`;
}

function openQueue(prefix: string, overrides: Partial<BullmqRunQueueOptions> = {}): RunQueue {
  const queue = createBullmqRunQueue({ connection: { url: redis.url }, prefix, backoffMs: 20, ...overrides });
  defer(() => queue.close());
  return queue;
}

async function openWorker(prefix: string, handler: RunHandler, overrides: Partial<BullmqRunWorkerOptions> = {}): Promise<BullmqRunWorker> {
  const worker = createBullmqRunWorker({ connection: { url: redis.url }, prefix, targets: [POOL], handler, concurrency: 4, ...overrides });
  defer(() => worker.close({ graceMs: 0 }));
  await worker.waitUntilReady();
  return worker;
}

/** A plain Redis client on the test's server. */
function rawClient(): Redis {
  const client = new Redis(redis.url);
  defer(() => {
    client.disconnect();
    return Promise.resolve();
  });
  return client;
}

/** A raw BullMQ view of a test's queue, to look at what Redis holds. */
function inspect(prefix: string, url = redis.url): Queue {
  const queue = new Queue(QUEUE_NAME, { connection: { url }, prefix });
  defer(() => queue.close());
  return queue;
}

const tsxImport = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const workerScript = fileURLToPath(new URL('./fixtures/worker-process.ts', import.meta.url));

interface WorkerProcess {
  readonly pid: number;
  readonly markerDir: string;
  marker(event: 'started' | 'aborted' | 'completed'): string;
  /** Stop it by PID with SIGKILL and wait for it to exit. */
  kill(): Promise<void>;
}

async function spawnWorkerProcess(env: { prefix: string; behavior: 'wait-for-abort' | 'complete'; markerDir: string; lockMs?: number }): Promise<WorkerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', tsxImport, workerScript], {
    env: {
      ...process.env,
      JACOBIAN_TEST_REDIS_URL: redis.url,
      JACOBIAN_TEST_PREFIX: env.prefix,
      JACOBIAN_TEST_POOL: 'light',
      JACOBIAN_TEST_MARKER_DIR: env.markerDir,
      JACOBIAN_TEST_BEHAVIOR: env.behavior,
      JACOBIAN_TEST_LOCK_MS: String(env.lockMs ?? 30_000),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the worker process did not start');
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
    void exited.then(() => reject(new Error(`the worker process exited before it was ready: ${stderr}`)));
  });
  return {
    pid,
    markerDir: env.markerDir,
    marker: (event) => join(env.markerDir, `${pid}.${event}`),
    kill,
  };
}

function markerDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jacobian-markers-'));
  defer(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis.stop();
});

afterEach(async () => {
  // Last opened, first closed: queues and workers before the processes and folders they use.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

describe('run job data', () => {
  it('parses a run and target, fills the trace context, and rejects anything extra', () => {
    const run = admitted(1);
    const data = parseRunJobData({ run, target: POOL });
    expect(data).toEqual({ run, target: POOL, trace: {} });
    expect(RunJobDataSchema.safeParse({ run, target: POOL, trace: {}, extra: 1 }).success).toBe(false);
    expect(() => parseRunJobData({ run: { ...run, budget: { wall_time_ms: 5 } }, target: POOL })).toThrow(/run\.budget/);
    expect(() => parseRunJobData({ run: { ...run, job_id: '12345' }, target: POOL })).toThrow(/job_id/);
  });

  it('carries an error code through a failure reason, and keeps foreign reasons as INTERNAL', () => {
    const decoded = decodeJobFailure(encodeJobFailure(new JacobianError('EXECUTION_CRASHED', 'the child died')));
    expect([decoded.code, decoded.message]).toEqual(['EXECUTION_CRASHED', 'the child died']);
    const foreign = decodeJobFailure('job stalled more than allowable limit');
    expect([foreign.code, foreign.message]).toEqual(['INTERNAL', 'job stalled more than allowable limit']);
  });
});

describe('the budget of a job taken up again', () => {
  it('is the whole budget at the first activation, what is left of it counted from the job\'s creation afterwards, none once it ended', () => {
    const run = admitted(21, 10_000);
    expect(budgetLeft(run, { attemptsStarted: 1, timestamp: 1_000 }, 50_000)).toBe(run);
    const left = budgetLeft(run, { attemptsStarted: 2, timestamp: 1_000 }, 4_500);
    expect(left?.budget).toEqual({ ...run.budget, wall_time_ms: 6_500 });
    expect([left?.job_id, left?.request_digest, left?.payload]).toEqual([run.job_id, run.request_digest, run.payload]);
    expect(budgetLeft(run, { attemptsStarted: 3, timestamp: 1_000 }, 11_000)).toBeUndefined();
    // A creation stamp ahead of this host's clock takes nothing away.
    expect(budgetLeft(run, { attemptsStarted: 2, timestamp: 9_000 }, 8_000)?.budget.wall_time_ms).toBe(10_000);
  });
});

describe('BullMQ run queue', () => {
  it('carries a run to a worker and its result back', async () => {
    const prefix = uniquePrefix();
    const seen: AdmittedRun[] = [];
    await openWorker(prefix, answering((run) => {
      seen.push(run);
      return completedResult(run);
    }));
    const queue = openQueue(prefix);
    const run = admitted(7);
    const result = await queue.submit(run, POOL);
    expect(result).toEqual(completedResult(run));
    // The worker parsed the job data back into the very run that was submitted.
    expect(seen).toEqual([run]);
    expect(queue.stats()).toEqual({ inFlight: 0, queued: 0, running: 0 });
  });

  it('gives the caller an INTERNAL ERROR when a runner returns a result that breaks the result contract', async () => {
    const prefix = uniquePrefix();
    await openWorker(prefix, answering((run) => ({ ...completedResult(run), scope: null })));
    const queue = openQueue(prefix);
    const result = await queue.submit(admitted(8), POOL);
    expect(result.execution.status).toBe('ERROR');
    expect(result.output).toBeNull();
    expect(result.diagnostics[0]).toMatchObject({ code: 'INTERNAL' });
    expect(result.diagnostics[0]?.message).toContain('breaks the result contract');
  });

  it('carries the runner\'s progress reports to the waiting caller through Redis, and drops malformed ones', async () => {
    const prefix = uniquePrefix();
    const proceed = gate();
    await openWorker(prefix, async (run, _signal, onProgress) => {
      onProgress?.({ progress: 1, total: 4, message: 'bounds 3..9' });
      // Past the worker's throttle interval, so the second report is written on its own.
      await sleep(300);
      onProgress?.({ progress: 3, total: 4, message: 'bounds 5..6' });
      await proceed.promise;
      return completedResult(run);
    });
    const raw = inspect(prefix);
    const queue = openQueue(prefix);
    const run = admitted(11);
    const seen: unknown[] = [];
    const result = queue.submit(run, POOL, { onProgress: (p) => seen.push(p) });
    await until('both reports to arrive', () => seen.length === 2);
    // A report written to the job by something else, not a valid RunProgress, never reaches the caller.
    const job = await raw.getJob(run.job_id);
    await job?.updateProgress({ progress: 'lots' });
    await sleep(200);
    proceed.open();
    expect((await result).execution.status).toBe('COMPLETED');
    expect(seen).toEqual([
      { progress: 1, total: 4, message: 'bounds 3..9' },
      { progress: 3, total: 4, message: 'bounds 5..6' },
    ]);
  });

  it('computes one job once for concurrent submissions, within and across API processes', async () => {
    const prefix = uniquePrefix();
    const release = gate();
    let calls = 0;
    await openWorker(prefix, async (run) => {
      calls++;
      await release.promise;
      return completedResult(run);
    });
    const first = openQueue(prefix);
    const second = openQueue(prefix);
    const run = admitted(1);
    const results = [first.submit(run, POOL), first.submit(run, POOL), second.submit(run, POOL)];
    await until('the handler to start', () => calls === 1);
    await until('the job to be seen running', () => first.stats().running === 1);
    release.open();
    const [a, b, c] = await Promise.all(results);
    expect(calls).toBe(1);
    expect(a).toEqual(completedResult(run));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it('answers a resubmitted completed job from Redis without computing again', async () => {
    const prefix = uniquePrefix();
    let calls = 0;
    const worker = await openWorker(prefix, answering((run) => {
      calls++;
      return completedResult(run, { call: calls });
    }));
    const run = admitted(2);
    const first = await openQueue(prefix).submit(run, POOL);
    // No runner any more, and a fresh API process: the answer can only come from Redis.
    await worker.close();
    const again = await openQueue(prefix).submit(run, POOL);
    expect(calls).toBe(1);
    expect(again).toEqual(first);
  });

  it('cancels a running job in another process when the last caller withdraws', async () => {
    const prefix = uniquePrefix();
    const child = await spawnWorkerProcess({ prefix, behavior: 'wait-for-abort', markerDir: markerDir() });
    const queue = openQueue(prefix);
    const run = admitted(3);
    const controller = new AbortController();
    const pending = queue.submit(run, POOL, { signal: controller.signal });
    await until('the child to start the run', () => existsSync(child.marker('started')));
    controller.abort();
    const result = await pending;
    expect(result.execution.status).toBe('CANCELLED');
    expect(codes(result)).toEqual(['EXECUTION_CANCELLED']);
    // The abort crossed Redis into the child, whose handler saw its signal fire.
    await until('the child to see the abort', () => existsSync(child.marker('aborted')));
    // The job ended as a completed CANCELLED result: not a failure, so never retried. (The
    // withdrawal's removal, one round trip after its message, may already have removed it.)
    const raw = inspect(prefix);
    await until('the job to complete', async () => ['completed', 'unknown'].includes(await raw.getJobState(run.job_id)));
    const job = await raw.getJob(run.job_id);
    if (job !== undefined) {
      expect((job.returnvalue as CapabilityResult).execution.status).toBe('CANCELLED');
      expect(job.attemptsStarted).toBe(1);
    }
    expect(queue.stats().inFlight).toBe(0);

    // A stored cancellation is not an answer: the same request later is computed afresh.
    rmSync(child.marker('started'));
    const retry = new AbortController();
    const again = queue.submit(run, POOL, { signal: retry.signal });
    await until('the child to start the run again', () => existsSync(child.marker('started')));
    retry.abort();
    expect((await again).execution.status).toBe('CANCELLED');
  });

  it('keeps computing while a caller in another API process still waits', async () => {
    const prefix = uniquePrefix();
    const release = gate();
    let calls = 0;
    const aborted: boolean[] = [];
    await openWorker(prefix, async (run, signal) => {
      calls++;
      await Promise.race([release.promise, waitForAbort(signal)]);
      aborted.push(signal.aborted);
      return signal.aborted ? nonConclusion(run, 'CANCELLED', 'EXECUTION_CANCELLED') : completedResult(run);
    });
    const leaving = openQueue(prefix);
    const staying = openQueue(prefix);
    const run = admitted(4);
    const controller = new AbortController();
    const withdrawn = leaving.submit(run, POOL, { signal: controller.signal });
    const kept = staying.submit(run, POOL);
    await until('the handler to start', () => calls === 1);
    await until('the second API process to wait for the running job', () => staying.stats().running === 1);
    controller.abort();
    expect((await withdrawn).execution.status).toBe('CANCELLED');
    release.open();
    expect(await kept).toEqual(completedResult(run));
    expect(aborted).toEqual([false]);
  });

  it('never runs a waiting job whose only caller withdrew', async () => {
    const prefix = uniquePrefix();
    const queue = openQueue(prefix);
    const raw = inspect(prefix);
    const run = admitted(5);
    const controller = new AbortController();
    const pending = queue.submit(run, POOL, { signal: controller.signal });
    await until('the job to wait in Redis', async () => (await raw.getJobState(run.job_id)) === 'waiting');
    controller.abort();
    expect((await pending).execution.status).toBe('CANCELLED');
    await until('the job to be removed', async () => (await raw.getJob(run.job_id)) === undefined);
    const ran: string[] = [];
    await openWorker(prefix, answering((job) => {
      ran.push(job.job_id);
      return completedResult(job);
    }));
    // A later job goes through the same runner, so it was live while the withdrawn one was not there.
    const later = admitted(6);
    expect(await queue.submit(later, POOL)).toEqual(completedResult(later));
    expect(ran).toEqual([later.job_id]);
  });

  it('lets answered callers leave their waiter counts, in batches, and leaves nothing behind', async () => {
    const prefix = uniquePrefix();
    await openWorker(prefix, answering((run) => completedResult(run)));
    const queue = openQueue(prefix);
    const runs = [admitted(40), admitted(41), admitted(42)];
    const results = await Promise.all(runs.map((run) => queue.submit(run, POOL)));
    expect(results).toEqual(runs.map((run) => completedResult(run)));
    const client = rawClient();
    const keys = runQueueKeys(prefix, QUEUE_NAME);
    await until('every waiter count to be released', async () => (await client.exists(...runs.map((run) => keys.waiters(run.job_id)))) === 0);
  });

  describe('a job whose cancel marker is set when a runner takes it', () => {
    /**
     * Add a run's job while the queue is paused, as a withdrawal that lost its race would leave
     * it: the marker set and the job still waiting. `timestamp` is the job's creation time.
     */
    async function withdrawnJob(prefix: string, run: AdmittedRun, options: { timestamp: number; startedBefore?: boolean; publish?: boolean }): Promise<Queue> {
      const raw = inspect(prefix);
      const client = rawClient();
      const keys = runQueueKeys(prefix, QUEUE_NAME);
      await raw.pause();
      await raw.add(run.capability_id, parseRunJobData({ run, target: POOL, trace: {} }), { jobId: run.job_id, timestamp: options.timestamp });
      // A job another runner held before (and died holding, or handed back) was started once.
      if (options.startedBefore === true) await client.hset(raw.toKey(run.job_id), 'ats', 1);
      await client.set(keys.cancelMarker(run.job_id), '1', 'PX', 60_000);
      if (options.publish === true) await client.publish(keys.cancelChannel, run.job_id);
      return raw;
    }

    async function outcome(raw: Queue, run: AdmittedRun): Promise<CapabilityResult> {
      await raw.resume();
      await until('the job to finish', async () => (await raw.getJobState(run.job_id)) === 'completed');
      return (await raw.getJob(run.job_id))?.returnvalue as CapabilityResult;
    }

    function recordingWorker(prefix: string, ran: string[]): Promise<BullmqRunWorker> {
      return openWorker(prefix, answering((run) => {
        ran.push(run.job_id);
        return completedResult(run);
      }));
    }

    it('is cancelled before it starts when the job predates the runner\'s subscription', async () => {
      const prefix = uniquePrefix();
      const run = admitted(43);
      const raw = await withdrawnJob(prefix, run, { timestamp: Date.now() - 60_000 });
      const ran: string[] = [];
      await recordingWorker(prefix, ran);
      const result = await outcome(raw, run);
      expect(result.execution.status).toBe('CANCELLED');
      expect(codes(result)).toEqual(['EXECUTION_CANCELLED']);
      expect(ran).toEqual([]);
    });

    it('is cancelled before it starts when the runner heard the cancel message before taking it', async () => {
      const prefix = uniquePrefix();
      const ran: string[] = [];
      await recordingWorker(prefix, ran);
      const run = admitted(44);
      const raw = await withdrawnJob(prefix, run, { timestamp: Date.now() + 60_000, publish: true });
      // The message travels on another connection than the job: let it arrive first.
      await sleep(100);
      const result = await outcome(raw, run);
      expect(result.execution.status).toBe('CANCELLED');
      expect(ran).toEqual([]);
    });

    it('is cancelled before it starts when another runner held it before', async () => {
      const prefix = uniquePrefix();
      const ran: string[] = [];
      await recordingWorker(prefix, ran);
      const run = admitted(45);
      const raw = await withdrawnJob(prefix, run, { timestamp: Date.now() + 60_000, startedBefore: true });
      const result = await outcome(raw, run);
      expect(result.execution.status).toBe('CANCELLED');
      expect(ran).toEqual([]);
    });

    it('runs when none of those holds: a fresh job no cancel message was published for is not looked up', async () => {
      // Every withdrawal publishes its message, so a marker without one cannot be current; the
      // runner does not spend a round trip on it.
      const prefix = uniquePrefix();
      const ran: string[] = [];
      await recordingWorker(prefix, ran);
      const run = admitted(46);
      const raw = await withdrawnJob(prefix, run, { timestamp: Date.now() + 60_000 });
      const result = await outcome(raw, run);
      expect(result).toEqual(completedResult(run));
      expect(ran).toEqual([run.job_id]);
    });
  });

  it('leaves a job running when the API process that submitted it closes: another process gets its result', async () => {
    const prefix = uniquePrefix();
    const release = gate();
    let started = 0;
    // A handler that stops when told to: a withdrawal would end it CANCELLED.
    await openWorker(prefix, (run, signal) => {
      started++;
      return Promise.race([
        release.promise.then(() => completedResult(run)),
        waitForAbort(signal).then(() => nonConclusion(run, 'CANCELLED', 'EXECUTION_CANCELLED')),
      ]);
    });
    const run = admitted(47);
    const leaving = createBullmqRunQueue({ connection: { url: redis.url }, prefix, backoffMs: 20 });
    const first = leaving.submit(run, POOL);
    await until('the handler to start', () => started === 1);
    await leaving.close();
    expect((await first).execution.status).toBe('CANCELLED');
    const later = openQueue(prefix).submit(run, POOL);
    release.open();
    expect(await later).toEqual(completedResult(run));
    expect(started).toBe(1);
  });

  it('retries a handler that throws an infrastructure error, and the caller gets the eventual result', async () => {
    const prefix = uniquePrefix();
    let calls = 0;
    await openWorker(prefix, answering((run) => {
      calls++;
      if (calls < 3) throw new Error(`transient failure ${calls}`);
      return completedResult(run);
    }));
    const run = admitted(8);
    expect(await openQueue(prefix, { attempts: 3 }).submit(run, POOL)).toEqual(completedResult(run));
    expect(calls).toBe(3);
  });

  it('reports a job that failed every attempt as an ERROR with its code, and computes it afresh when resubmitted', async () => {
    const prefix = uniquePrefix();
    let calls = 0;
    await openWorker(prefix, answering((run) => {
      calls++;
      if (calls <= 2) throw new JacobianError('EXECUTION_CRASHED', 'the isolated process died');
      return completedResult(run);
    }));
    const queue = openQueue(prefix, { attempts: 2 });
    const run = admitted(9);
    const failed = await queue.submit(run, POOL);
    expect(failed.execution.status).toBe('ERROR');
    expect(codes(failed)).toEqual(['EXECUTION_CRASHED']);
    expect(calls).toBe(2);
    expect(await queue.submit(run, POOL)).toEqual(completedResult(run));
    expect(calls).toBe(3);
  });

  it('never retries a run-level outcome: an ERROR result, or a thrown error that retrying cannot change', async () => {
    const prefix = uniquePrefix();
    const calls = new Map<string, number>();
    const rejected = admitted(10);
    const invalid = admitted(11);
    await openWorker(prefix, answering((run) => {
      calls.set(run.job_id, (calls.get(run.job_id) ?? 0) + 1);
      if (run.job_id === rejected.job_id) return nonConclusion(run, 'ERROR', 'PROVIDER_FAILED');
      throw new JacobianError('INVALID_REQUEST', 'payload.n: too big', { path: ['payload', 'n'] });
    }));
    const queue = openQueue(prefix, { attempts: 3 });
    expect(await queue.submit(rejected, POOL)).toEqual(nonConclusion(rejected, 'ERROR', 'PROVIDER_FAILED'));
    const thrown = await queue.submit(invalid, POOL);
    expect(thrown.execution.status).toBe('ERROR');
    expect(thrown.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'n'] });
    expect(Object.fromEntries(calls)).toEqual({ [rejected.job_id]: 1, [invalid.job_id]: 1 });
  });

  it('fails malformed job data at once, without retries', async () => {
    const prefix = uniquePrefix();
    let calls = 0;
    await openWorker(prefix, answering((run) => {
      calls++;
      return completedResult(run);
    }));
    const raw = inspect(prefix);
    await raw.add('test.op', { run: { job_id: 'run-x' }, target: POOL }, { jobId: 'run-x', attempts: 3 });
    await until('the job to fail', async () => (await raw.getJobState('run-x')) === 'failed');
    const job = await raw.getJob('run-x');
    expect(decodeJobFailure(job?.failedReason).code).toBe('INVALID_REQUEST');
    expect(job?.attemptsMade).toBe(1);
    expect(calls).toBe(0);
  });

  it('recovers a job from a runner killed mid-run: another runner completes it and the caller gets one result', async () => {
    const prefix = uniquePrefix();
    const dir = markerDir();
    const lockMs = 1000;
    const doomed = await spawnWorkerProcess({ prefix, behavior: 'wait-for-abort', markerDir: dir, lockMs });
    const queue = openQueue(prefix);
    const run = admitted(12);
    let settled = 0;
    const pending = queue.submit(run, POOL).then((result) => {
      settled++;
      return result;
    });
    await until('the first runner to start the run', () => existsSync(doomed.marker('started')));
    const survivor = await spawnWorkerProcess({ prefix, behavior: 'complete', markerDir: dir, lockMs });
    await doomed.kill();
    const result = await pending;
    // The survivor ran it with what was left of the budget: the job waited at least the lock's
    // duration for its takeover, counted from its creation.
    const given = (result.output as { wall_time_ms: number }).wall_time_ms;
    expect(given).toBeGreaterThan(0);
    expect(given).toBeLessThanOrEqual(run.budget.wall_time_ms - lockMs);
    expect(result).toEqual(completedResult(run, { pid: survivor.pid, wall_time_ms: given }));
    expect(settled).toBe(1);
    expect(existsSync(survivor.marker('completed'))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([`${doomed.pid}.started`, `${survivor.pid}.completed`, `${survivor.pid}.started`].sort());
  });

  it('answers TIMEOUT without running it when a job whose runner died is taken up after its budget ended', async () => {
    const prefix = uniquePrefix();
    const dir = markerDir();
    const lockMs = 1000;
    const doomed = await spawnWorkerProcess({ prefix, behavior: 'wait-for-abort', markerDir: dir, lockMs });
    const queue = openQueue(prefix);
    // The takeover comes at least the lock's duration after the first start: past this budget.
    const run = admitted(14, lockMs / 2);
    const pending = queue.submit(run, POOL);
    await until('the first runner to start the run', () => existsSync(doomed.marker('started')));
    const survivor = await spawnWorkerProcess({ prefix, behavior: 'complete', markerDir: dir, lockMs });
    await doomed.kill();
    const result = await pending;
    expect(result.execution.status).toBe('TIMEOUT');
    expect(result.diagnostics.map((d) => d.code)).toEqual(['EXECUTION_TIMEOUT']);
    expect(result.diagnostics[0]?.message).toContain('before another runner could take it up again');
    // The survivor took the job but never ran it.
    expect(readdirSync(dir)).toEqual([`${doomed.pid}.started`]);
    expect(existsSync(survivor.marker('started'))).toBe(false);
  });

  it('closes a worker gracefully: a run that finishes within the grace completes', async () => {
    const prefix = uniquePrefix();
    const release = gate();
    const aborted: boolean[] = [];
    let started = false;
    const worker = await openWorker(prefix, async (run, signal) => {
      started = true;
      await release.promise;
      aborted.push(signal.aborted);
      return completedResult(run);
    });
    const run = admitted(13);
    const pending = openQueue(prefix).submit(run, POOL);
    await until('the handler to start', () => started);
    const closing = worker.close({ graceMs: 30_000 });
    expect(worker.close()).toBe(closing);
    release.open();
    await closing;
    expect(await pending).toEqual(completedResult(run));
    expect(aborted).toEqual([false]);
    expect(worker.stats().running).toBe(0);
  });

  it('closes a worker gracefully: past the grace the run is aborted and handed to another runner', async () => {
    const prefix = uniquePrefix();
    const reasons: unknown[] = [];
    let started = false;
    const leaving = await openWorker(prefix, async (run, signal) => {
      started = true;
      await waitForAbort(signal);
      reasons.push(signal.reason);
      return nonConclusion(run, 'CANCELLED', 'EXECUTION_CANCELLED');
    });
    const run = admitted(14);
    const pending = openQueue(prefix).submit(run, POOL);
    await until('the handler to start', () => started);
    await leaving.close({ graceMs: 50 });
    expect(reasons).toHaveLength(1);
    expect(leaving.stats().running).toBe(0);
    // The caller did not cancel: the run waits for the next runner instead of ending CANCELLED.
    await openWorker(prefix, answering((job) => completedResult(job, { by: 'successor' })));
    expect(await pending).toEqual(completedResult(run, { by: 'successor' }));
  });

  it('gives a waiting caller an ERROR when no result can arrive within the budget, and withdraws the job', async () => {
    const prefix = uniquePrefix();
    const raw = inspect(prefix);
    const run = admitted(15, 100);
    const result = await openQueue(prefix, { resultMarginMs: 300 }).submit(run, POOL);
    expect(result.execution.status).toBe('ERROR');
    expect(codes(result)).toEqual(['QUEUE_UNAVAILABLE']);
    await until('the job to be removed', async () => (await raw.getJob(run.job_id)) === undefined);
  });

  it('answers QUEUE_UNAVAILABLE promptly when Redis cannot be reached at all', async () => {
    const nowhere = await startRedisServer();
    const url = nowhere.url;
    await nowhere.stop();
    const queue = createBullmqRunQueue({ connection: { url }, prefix: uniquePrefix(), unavailableAfterMs: 300 });
    defer(() => queue.close());
    const result = await queue.submit(admitted(16), POOL);
    expect(result.execution.status).toBe('ERROR');
    expect(codes(result)).toEqual(['QUEUE_UNAVAILABLE']);
    await queue.close();
    await expect(queue.submit(admitted(17), POOL)).rejects.toThrow(/closed/);
  });

  it('gives waiting callers an ERROR when Redis goes away mid-wait, and serves new runs once it is back', async () => {
    const own = await startRedisServer();
    defer(() => own.stop());
    const prefix = uniquePrefix();
    const stuck = admitted(18);
    const release = gate();
    let stuckStarted = false;
    const worker = createBullmqRunWorker({
      connection: { url: own.url },
      prefix,
      targets: [POOL],
      concurrency: 2,
      handler: async (run) => {
        if (run.job_id === stuck.job_id) {
          stuckStarted = true;
          await release.promise;
        }
        return completedResult(run);
      },
    });
    defer(async () => {
      release.open();
      await worker.close({ graceMs: 0 });
    });
    await worker.waitUntilReady();
    const queue = createBullmqRunQueue({ connection: { url: own.url }, prefix, unavailableAfterMs: 1000 });
    defer(() => queue.close());
    const pending = queue.submit(stuck, POOL);
    await until('the handler to start', () => stuckStarted);
    await own.kill();
    const result = await pending;
    expect(result.execution.status).toBe('ERROR');
    expect(codes(result)).toEqual(['QUEUE_UNAVAILABLE']);
    expect(queue.stats().inFlight).toBe(0);

    await own.restart();
    release.open();
    const fresh = admitted(19);
    expect(await queue.submit(fresh, POOL)).toEqual(completedResult(fresh));
  });
});
