import { describe, expect, it, vi } from 'vitest';

import { admitRequest, nonConclusionResult, type AdmittedRun } from '../capabilities/host.js';
import { CapabilityRequestSchema } from '../contracts/capability.js';
import type { CapabilityResult } from '../contracts/result.js';
import { JacobianError } from '../errors.js';
import { createEmbeddedRunQueue } from './embedded-run-queue.js';
import type { RunHandler, RunQueue, RunTarget } from './run-queue.js';
import { completedRunResult } from './fixtures/results.js';

const POOL: RunTarget = { kind: 'pool', pool: 'light' };

function run(n: number, capability_id = 'test.op'): AdmittedRun {
  return admitRequest(CapabilityRequestSchema.parse({ capability_id, payload: { n } }));
}

function completedResult(job: AdmittedRun, value: unknown = job.payload['n']): CapabilityResult {
  return completedRunResult(job, { value });
}

function failedResult(job: AdmittedRun, status: 'TIMEOUT' | 'CANCELLED' | 'ERROR'): CapabilityResult {
  const code = status === 'TIMEOUT' ? 'EXECUTION_TIMEOUT' : status === 'CANCELLED' ? 'EXECUTION_CANCELLED' : 'PROVIDER_FAILED';
  return nonConclusionResult(job, {
    status,
    diagnostics: [{ severity: 'ERROR', code, stage: 'EXECUTION', message: status, path: null, hint: null }],
  });
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

/** Wait until `predicate` holds (polling the event loop), failing after a while. */
async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A handler that waits for its gate (or its abort signal) and records what it saw. */
function controlledHandler(): {
  handler: RunHandler;
  calls: AdmittedRun[];
  signals: AbortSignal[];
  gates: Map<string, Gate>;
  active: number;
  maxActive: number;
  release(job: AdmittedRun): void;
} {
  const state = {
    calls: [] as AdmittedRun[],
    signals: [] as AbortSignal[],
    gates: new Map<string, Gate>(),
    active: 0,
    maxActive: 0,
    release(job: AdmittedRun): void {
      const g = state.gates.get(job.job_id) ?? gate();
      state.gates.set(job.job_id, g);
      g.open();
    },
    handler: (async (job: AdmittedRun, signal: AbortSignal): Promise<CapabilityResult> => {
      state.calls.push(job);
      state.signals.push(signal);
      state.active++;
      state.maxActive = Math.max(state.maxActive, state.active);
      try {
        const g = state.gates.get(job.job_id) ?? gate();
        state.gates.set(job.job_id, g);
        const aborted = new Promise<'aborted'>((resolve) => signal.addEventListener('abort', () => resolve('aborted'), { once: true }));
        const outcome = await Promise.race([g.promise.then(() => 'released' as const), aborted]);
        return outcome === 'aborted' ? failedResult(job, 'CANCELLED') : completedResult(job);
      } finally {
        state.active--;
      }
    }) as RunHandler,
  };
  return state;
}

function queueWith(handler: RunHandler, options: { concurrency?: number; completedCacheSize?: number; checker?: RunHandler } = {}): RunQueue {
  return createEmbeddedRunQueue({
    pools: new Map([['light', handler]]),
    concurrency: options.concurrency ?? 4,
    ...(options.checker ? { checker: options.checker } : {}),
    ...(options.completedCacheSize !== undefined ? { completedCacheSize: options.completedCacheSize } : {}),
  });
}

describe('createEmbeddedRunQueue: one computation per job', () => {
  it('runs concurrent submits of one job ID once and gives both callers the same result', async () => {
    const h = controlledHandler();
    const queue = queueWith(h.handler);
    const job = run(1);
    const first = queue.submit(job, POOL);
    const second = queue.submit({ ...job }, POOL);
    await until(() => h.calls.length === 1, 'the handler to start');
    expect(queue.stats()).toEqual({ inFlight: 1, queued: 0, running: 1 });
    h.release(job);
    const [a, b] = await Promise.all([first, second]);
    expect(h.calls).toHaveLength(1);
    expect(a).toBe(b);
    expect(a.execution).toMatchObject({ status: 'COMPLETED', job_id: job.job_id });
    expect(queue.stats()).toEqual({ inFlight: 0, queued: 0, running: 0 });
  });

  it('answers a repeated request from the completed cache without calling the handler', async () => {
    const handler = vi.fn((job: AdmittedRun) => Promise.resolve(completedResult(job)));
    const queue = queueWith(handler);
    const first = await queue.submit(run(2), POOL);
    const again = await queue.submit(run(2), POOL);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(again).toBe(first);
    await queue.submit(run(3), POOL);
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it.each(['TIMEOUT', 'CANCELLED', 'ERROR'] as const)('does not cache a %s result: the retry computes again', async (status) => {
    const handler = vi.fn((job: AdmittedRun) => Promise.resolve(handler.mock.calls.length === 1 ? failedResult(job, status) : completedResult(job)));
    const queue = queueWith(handler);
    expect((await queue.submit(run(4), POOL)).execution.status).toBe(status);
    expect((await queue.submit(run(4), POOL)).execution.status).toBe('COMPLETED');
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('turns a throwing handler into an ERROR result carrying its code, and does not cache it', async () => {
    const handler = vi.fn(() => Promise.reject(new JacobianError('PROVIDER_FAILED', 'solver crashed')));
    const queue = queueWith(handler);
    const job = run(5);
    const result = await queue.submit(job, POOL);
    expect(result.execution).toMatchObject({ status: 'ERROR', job_id: job.job_id });
    expect(result.diagnostics).toMatchObject([{ code: 'PROVIDER_FAILED', message: 'solver crashed' }]);
    await queue.submit(job, POOL);
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('evicts the oldest completed result beyond completedCacheSize, and caches nothing with size 0', async () => {
    const handler = vi.fn((job: AdmittedRun) => Promise.resolve(completedResult(job)));
    const queue = queueWith(handler, { completedCacheSize: 1 });
    await queue.submit(run(1), POOL);
    await queue.submit(run(2), POOL);
    await queue.submit(run(2), POOL);
    expect(handler).toHaveBeenCalledTimes(2);
    await queue.submit(run(1), POOL);
    expect(handler).toHaveBeenCalledTimes(3);

    const uncached = vi.fn((job: AdmittedRun) => Promise.resolve(completedResult(job)));
    const noCache = queueWith(uncached, { completedCacheSize: 0 });
    await noCache.submit(run(1), POOL);
    await noCache.submit(run(1), POOL);
    expect(uncached).toHaveBeenCalledTimes(2);
  });
});

describe('createEmbeddedRunQueue: routing', () => {
  it('sends checker runs to the checker handler and pool runs to their pool', async () => {
    const pool = vi.fn((job: AdmittedRun) => Promise.resolve(completedResult(job, 'pool')));
    const checker = vi.fn((job: AdmittedRun) => Promise.resolve(completedResult(job, 'checker')));
    const queue = queueWith(pool, { checker });
    expect((await queue.submit(run(1), { kind: 'checker' })).output).toEqual({ value: 'checker' });
    expect((await queue.submit(run(2), POOL)).output).toEqual({ value: 'pool' });
    expect([pool.mock.calls.length, checker.mock.calls.length]).toEqual([1, 1]);
  });

  it('rejects a target nobody serves with PROVIDER_UNAVAILABLE', async () => {
    const queue = queueWith(() => Promise.reject(new Error('unused')));
    await expect(queue.submit(run(1), { kind: 'pool', pool: 'heavy' })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await expect(queue.submit(run(1), { kind: 'checker' })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
  });
});

describe('createEmbeddedRunQueue: concurrency', () => {
  it('never runs more handlers at once than the limit, and admits in FIFO order', async () => {
    const h = controlledHandler();
    const queue = queueWith(h.handler, { concurrency: 2 });
    const jobs = [1, 2, 3, 4, 5].map((n) => run(n));
    const results = jobs.map((job) => queue.submit(job, POOL));
    await until(() => h.calls.length === 2, 'two handlers to start');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.calls).toHaveLength(2);
    expect(queue.stats()).toEqual({ inFlight: 5, queued: 3, running: 2 });
    for (const job of jobs) h.release(job);
    const done = await Promise.all(results);
    expect(done.map((r) => r.execution.job_id)).toEqual(jobs.map((j) => j.job_id));
    expect(h.maxActive).toBe(2);
    expect(h.calls.map((c) => c.job_id)).toEqual(jobs.map((j) => j.job_id));
    expect(queue.stats()).toEqual({ inFlight: 0, queued: 0, running: 0 });
  });

  it('with concurrency 1 runs strictly one at a time', async () => {
    const h = controlledHandler();
    const queue = queueWith(h.handler, { concurrency: 1 });
    const jobs = [1, 2, 3].map((n) => run(n));
    for (const job of jobs) h.release(job);
    await Promise.all(jobs.map((job) => queue.submit(job, POOL)));
    expect(h.maxActive).toBe(1);
    expect(h.calls).toHaveLength(3);
  });
});

describe('createEmbeddedRunQueue: cancellation', () => {
  it('aborting one of two waiters withdraws that caller only; the job runs on for the other', async () => {
    const h = controlledHandler();
    const queue = queueWith(h.handler);
    const job = run(1);
    const leaving = new AbortController();
    const first = queue.submit(job, POOL, { signal: leaving.signal });
    const second = queue.submit(job, POOL, { signal: new AbortController().signal });
    await until(() => h.calls.length === 1, 'the handler to start');
    leaving.abort();
    const withdrawn = await first;
    expect(withdrawn.execution.status).toBe('CANCELLED');
    expect(withdrawn.diagnostics[0]?.code).toBe('EXECUTION_CANCELLED');
    expect(h.signals[0]?.aborted).toBe(false);
    h.release(job);
    const kept = await second;
    expect(kept.execution.status).toBe('COMPLETED');
    expect(h.calls).toHaveLength(1);
  });

  it('a waiter without a signal keeps the job alive when the other waiter aborts', async () => {
    const h = controlledHandler();
    const queue = queueWith(h.handler);
    const job = run(1);
    const leaving = new AbortController();
    const first = queue.submit(job, POOL, { signal: leaving.signal });
    const second = queue.submit(job, POOL);
    await until(() => h.calls.length === 1, 'the handler to start');
    leaving.abort();
    expect((await first).execution.status).toBe('CANCELLED');
    expect(h.signals[0]?.aborted).toBe(false);
    h.release(job);
    expect((await second).execution.status).toBe('COMPLETED');
  });

  it('aborting the only waiter aborts the handler signal and yields CANCELLED', async () => {
    const h = controlledHandler();
    const queue = queueWith(h.handler);
    const job = run(1);
    const controller = new AbortController();
    const pending = queue.submit(job, POOL, { signal: controller.signal });
    await until(() => h.calls.length === 1, 'the handler to start');
    controller.abort();
    const result = await pending;
    expect(result.execution).toMatchObject({ status: 'CANCELLED', job_id: job.job_id });
    expect(h.signals[0]?.aborted).toBe(true);
    await until(() => queue.stats().inFlight === 0, 'the job to end');
  });

  it('aborting the last of two waiters aborts the handler signal', async () => {
    const h = controlledHandler();
    const queue = queueWith(h.handler);
    const job = run(1);
    const a = new AbortController();
    const b = new AbortController();
    const first = queue.submit(job, POOL, { signal: a.signal });
    const second = queue.submit(job, POOL, { signal: b.signal });
    await until(() => h.calls.length === 1, 'the handler to start');
    a.abort();
    await first;
    expect(h.signals[0]?.aborted).toBe(false);
    b.abort();
    expect((await second).execution.status).toBe('CANCELLED');
    expect(h.signals[0]?.aborted).toBe(true);
  });

  it('a queued job whose only waiter aborts never reaches the handler', async () => {
    const h = controlledHandler();
    const queue = queueWith(h.handler, { concurrency: 1 });
    const blocker = run(1);
    const queued = run(2);
    const blocking = queue.submit(blocker, POOL);
    await until(() => h.calls.length === 1, 'the blocker to start');
    const controller = new AbortController();
    const pending = queue.submit(queued, POOL, { signal: controller.signal });
    await until(() => queue.stats().queued === 1, 'the second job to queue');
    controller.abort();
    expect((await pending).execution.status).toBe('CANCELLED');
    await until(() => queue.stats().queued === 0, 'the queue to drop the job');
    h.release(blocker);
    await blocking;
    await until(() => queue.stats().inFlight === 0, 'every job to end');
    expect(h.calls.map((c) => c.job_id)).toEqual([blocker.job_id]);
  });

  it('a signal already aborted at submit yields CANCELLED without running the handler', async () => {
    const handler = vi.fn((job: AdmittedRun) => Promise.resolve(completedResult(job)));
    const queue = queueWith(handler);
    const result = await queue.submit(run(1), POOL, { signal: AbortSignal.abort() });
    expect(result.execution.status).toBe('CANCELLED');
    await until(() => queue.stats().inFlight === 0, 'the job to end');
    expect(handler).not.toHaveBeenCalled();
  });

  it('a retry submitted while a cancelled job is still winding down gets a fresh computation', async () => {
    let calls = 0;
    const handler: RunHandler = async (job, signal) => {
      calls++;
      if (calls === 1) {
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        // A kernel needs a moment to stop after the abort (e.g. a child process being killed).
        await new Promise((resolve) => setTimeout(resolve, 50));
        return failedResult(job, 'CANCELLED');
      }
      return completedResult(job);
    };
    const queue = queueWith(handler);
    const job = run(1);
    const controller = new AbortController();
    const first = queue.submit(job, POOL, { signal: controller.signal });
    await until(() => calls === 1, 'the handler to start');
    controller.abort();
    expect((await first).execution.status).toBe('CANCELLED');
    const retry = await queue.submit(job, POOL);
    expect(retry.execution.status).toBe('COMPLETED');
    expect(calls).toBe(2);
  });

  it('close() cancels in-flight and queued jobs, then refuses new submits', async () => {
    const h = controlledHandler();
    const queue = queueWith(h.handler, { concurrency: 1 });
    const running = queue.submit(run(1), POOL);
    await until(() => h.calls.length === 1, 'the handler to start');
    const queued = queue.submit(run(2), POOL);
    await queue.close();
    expect(h.signals[0]?.aborted).toBe(true);
    expect((await running).execution.status).toBe('CANCELLED');
    expect((await queued).execution.status).toBe('CANCELLED');
    expect(h.calls).toHaveLength(1);
    await expect(queue.submit(run(3), POOL)).rejects.toMatchObject({ code: 'INTERNAL', message: 'the run queue is closed' });
    await queue.close();
  });
});

describe('createEmbeddedRunQueue: progress', () => {
  it('gives every waiter of a job its progress reports, and a withdrawn waiter no more', async () => {
    const reported = gate();
    const finish = gate();
    const handler: RunHandler = async (job, _signal, onProgress) => {
      onProgress?.({ progress: 1, message: 'first' });
      await reported.promise;
      onProgress?.({ progress: 2, message: 'second' });
      await finish.promise;
      return completedResult(job);
    };
    const queue = queueWith(handler);
    const job = run(7);
    const seenA: unknown[] = [];
    const seenB: unknown[] = [];
    const withdraw = new AbortController();
    const a = queue.submit(job, POOL, { onProgress: (p) => seenA.push(p) });
    const b = queue.submit({ ...job }, POOL, { onProgress: (p) => seenB.push(p), signal: withdraw.signal });
    await until(() => seenA.length === 1 && seenB.length === 1, 'the first report to reach both waiters');
    withdraw.abort();
    expect((await b).execution.status).toBe('CANCELLED');
    reported.open();
    await until(() => seenA.length === 2, 'the second report');
    finish.open();
    expect((await a).execution.status).toBe('COMPLETED');
    expect(seenA).toEqual([
      { progress: 1, message: 'first' },
      { progress: 2, message: 'second' },
    ]);
    expect(seenB).toEqual([{ progress: 1, message: 'first' }]);
  });
});
