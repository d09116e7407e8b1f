import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { createLocalFolderArtifactStore } from '../artifacts/local-folder-store.js';
import type { ArtifactStore } from '../artifacts/store.js';
import { admitRequest, executeCapability, type AdmittedRun } from '../capabilities/host.js';
import { createShardHandler, shardJobId } from '../capabilities/shards.js';
import { CapabilityRequestSchema, type Budget } from '../contracts/capability.js';
import type { RunProgress } from '../contracts/progress.js';
import type { CapabilityResult } from '../contracts/result.js';
import { createEmbeddedRunQueue } from './embedded-run-queue.js';
import type { RunHandler, RunQueue, RunTarget } from './run-queue.js';
import { installSumRange, NO_ARTIFACTS, NO_EXECUTOR, SUM_RANGE_ID, SumRangeOutput, type SumRangeOptions } from './fixtures/sum-range.js';

const POOL: RunTarget = { kind: 'pool', pool: 'light' };

function sumRequest(payload: Record<string, unknown>, budget?: Budget): AdmittedRun {
  return admitRequest(CapabilityRequestSchema.parse({ capability_id: SUM_RANGE_ID, payload, ...(budget === undefined ? {} : { budget }) }));
}

/** The sum of from..to−1, by plain iteration: the independent truth. */
function bruteSum(from: number, to: number): string {
  let sum = 0n;
  for (let i = from; i < to; i++) sum += BigInt(i);
  return String(sum);
}

/** Wait until `predicate` holds (polling the event loop), failing after a while. */
async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface Harness {
  queue: RunQueue;
  /** Job IDs whose run started, in order. */
  started: string[];
  /** Runs whose handler is executing now, and the most at once. */
  active: number;
  maxActive: number;
  /** The signal each run's handler was given, by job ID. */
  signals: Map<string, AbortSignal>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function harness(concurrency: number, options: Partial<SumRangeOptions> & { artifacts?: ArtifactStore } = {}): Harness {
  const state: Omit<Harness, 'queue'> = { started: [], active: 0, maxActive: 0, signals: new Map() };
  const installed = installSumRange({ label: 'embedded', ...options, onStart: (jobId) => state.started.push(jobId) });
  const deps = { artifacts: options.artifacts ?? NO_ARTIFACTS, executor: NO_EXECUTOR };
  const handler: RunHandler = async (run, signal, onProgress) => {
    state.signals.set(run.job_id, signal);
    state.active++;
    state.maxActive = Math.max(state.maxActive, state.active);
    try {
      return await executeCapability(installed, run, deps, signal, onProgress);
    } finally {
      state.active--;
    }
  };
  const queue = createEmbeddedRunQueue({
    pools: new Map([['light', handler]]),
    concurrency,
    shards: createShardHandler({ capability: (id) => (id === SUM_RANGE_ID ? installed : undefined), deps }),
  });
  cleanups.push(() => queue.close());
  return Object.assign(state, { queue });
}

function output(result: CapabilityResult): SumRangeOutput {
  return SumRangeOutput.parse(result.output);
}

describe('embedded run queue: split runs', () => {
  it('fans a run out into its children and merges their results, reporting progress as they finish', async () => {
    const h = harness(4);
    const parent = sumRequest({ from: -37, to: 1001, split: 4 });
    const progress: RunProgress[] = [];
    const result = await h.queue.submit(parent, POOL, { onProgress: (p) => progress.push(p) });
    expect(result.execution).toMatchObject({ status: 'COMPLETED', job_id: parent.job_id, request_digest: parent.request_digest });
    expect(result.completeness.status).toBe('COMPLETE');
    expect(output(result).sum).toBe(bruteSum(-37, 1001));
    const children = [0, 1, 2, 3].map((index) => shardJobId(parent.job_id, index));
    expect(output(result).shards?.map((shard) => shard.job_id)).toEqual(children);
    // Only the children ran the capability; the parent was planned and merged.
    expect([...h.started].sort()).toEqual([...children].sort());
    // The parent lists its children: one INFO diagnostic each, naming its job.
    const notes = result.diagnostics.filter((d) => d.code === 'SHARD_CHILD');
    expect(notes.map((d) => d.path)).toEqual([0, 1, 2, 3].map((index) => ['shards', index]));
    for (const [index, note] of notes.entries()) expect(note.message).toContain(children[index]);
    expect(progress.filter((p) => p.total === 4).map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(h.queue.stats()).toEqual({ inFlight: 0, queued: 0, running: 0 });
  });

  it('runs a run whole when its plan says so, and never splits a child again', async () => {
    const h = harness(2);
    const whole = sumRequest({ from: 0, to: 10 });
    const result = await h.queue.submit(whole, POOL);
    expect(output(result)).toMatchObject({ sum: '45', shards: null, part: null });
    expect(h.started).toEqual([whole.job_id]);
    // A request that already names its part is a child's request: it runs whole too.
    const part = sumRequest({ from: 0, to: 10, split: 2, part: { index: 1, count: 2 } });
    expect(output(await h.queue.submit(part, POOL)).sum).toBe(bruteSum(5, 10));
  });

  it('does not deadlock at concurrency 1: a waiting parent holds no slot, even with several parents at once', async () => {
    const h = harness(1);
    const parents = [sumRequest({ from: 0, to: 100, split: 3, delay_ms: 5 }), sumRequest({ from: 100, to: 200, split: 3, delay_ms: 5 })];
    const results = await Promise.all(parents.map((parent) => h.queue.submit(parent, POOL)));
    expect(results.map((result) => output(result).sum)).toEqual([bruteSum(0, 100), bruteSum(100, 200)]);
    expect(h.started).toHaveLength(6);
    expect(h.maxActive).toBe(1);
  });

  it('makes the parent not COMPLETE when a child fails, naming the child', async () => {
    const h = harness(2);
    const parent = sumRequest({ from: 0, to: 90, split: 3, fail_part: 1 });
    const result = await h.queue.submit(parent, POOL);
    expect(result.execution.status).toBe('ERROR');
    expect(result.output).toBeNull();
    expect(result.completeness.status).not.toBe('COMPLETE');
    expect(result.completeness.basis).toContain('shard(s) 1 of 3');
    const errors = result.diagnostics.filter((d) => d.severity === 'ERROR');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'PROVIDER_FAILED', path: ['shards', 1] });
    expect(errors[0]?.message).toContain(shardJobId(parent.job_id, 1));
    // The children that did complete are still listed.
    expect(result.diagnostics.filter((d) => d.code === 'SHARD_CHILD').map((d) => d.message.includes('COMPLETED'))).toEqual([true, false, true]);
  });

  it('cancels running children and never starts waiting ones when the parent\'s last caller withdraws', async () => {
    const h = harness(2, { hang: true });
    const parent = sumRequest({ from: 0, to: 30, split: 3 });
    const controller = new AbortController();
    const pending = h.queue.submit(parent, POOL, { signal: controller.signal });
    await until(() => h.started.length === 2, 'two children to start');
    controller.abort();
    const result = await pending;
    expect(result.execution.status).toBe('CANCELLED');
    const running = h.started.map((jobId) => h.signals.get(jobId));
    await until(() => h.active === 0, 'the running children to stop');
    expect(running.map((signal) => signal?.aborted)).toEqual([true, true]);
    expect(h.started).not.toContain(shardJobId(parent.job_id, 2));
    expect(h.queue.stats().inFlight).toBe(0);
  });

  it('computes the same parent request twice once', async () => {
    const h = harness(3);
    const parent = sumRequest({ from: 5, to: 500, split: 3, delay_ms: 5 });
    const [a, b] = await Promise.all([h.queue.submit(parent, POOL), h.queue.submit({ ...parent }, POOL)]);
    expect(a).toBe(b);
    expect(h.started).toHaveLength(3);
    // And once more, later: the completed answer is served.
    expect(await h.queue.submit(parent, POOL)).toBe(a);
    expect(h.started).toHaveLength(3);
  });

  it('ends the fan-out at the parent\'s wall-time budget: the parent TIMEOUTs, naming the unfinished children', async () => {
    const h = harness(1, { hang: true });
    const parent = sumRequest({ from: 0, to: 30, split: 3 }, { wall_time_ms: 200 });
    const result = await h.queue.submit(parent, POOL);
    expect(result.execution.status).toBe('TIMEOUT');
    const errors = result.diagnostics.filter((d) => d.severity === 'ERROR');
    expect(errors.map((d) => [d.code, d.path])).toEqual([0, 1, 2].map((index) => ['EXECUTION_TIMEOUT', ['shards', index]]));
    expect(h.queue.stats().inFlight).toBe(0);
  });

  it('keeps the children\'s artifacts visible in the parent\'s result', async () => {
    const root = mkdtempSync(join(tmpdir(), 'jacobian-shard-artifacts-'));
    const artifacts = createLocalFolderArtifactStore({ root });
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    cleanups.push(() => artifacts.close());
    const h = harness(2, { artifactPerPart: true, artifacts });
    const parent = sumRequest({ from: 0, to: 40, split: 2 });
    const result = await h.queue.submit(parent, POOL);
    expect(result.execution.status).toBe('COMPLETED');
    expect(result.artifact_uris).toHaveLength(2);
    for (const uri of result.artifact_uris) expect(await artifacts.has(uri)).toBe(true);
    const child = await h.queue.submit(sumRequest({ from: 0, to: 40, part: { index: 0, count: 2 } }), POOL);
    expect(result.artifact_uris).toContain(child.artifact_uris[0]);
  });
});
