/**
 * A job whose runner died (its lock gone, the job still active) is found by another runner's
 * stalled check, moved back to wait, and counted in `jacobian_jobs_stalled_total` by pool.
 * Real Redis; the dead runner is a BullMQ worker that took the job and whose lock is removed.
 */
import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { installTelemetry } from '../telemetry/instrumentation.js';
import { createJacobianMetrics } from '../telemetry/metrics.js';
import { startRedisServer, type RedisServer } from '../testing/redis-server.js';
import { createBullmqRunWorker } from './bullmq-run-worker.js';
import { defaultRunQueueName } from './job-data.js';
import type { RunTarget } from './run-queue.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 30_000);
afterAll(async () => {
  await redis.stop();
});

it('counts a job found stalled under its pool', { timeout: 60_000 }, async () => {
  const prefix = `jcbstall${randomBytes(4).toString('hex')}`;
  const target: RunTarget = { kind: 'pool', pool: 'heavy' };
  const queueName = defaultRunQueueName(target);
  const cleanups: (() => Promise<unknown>)[] = [];
  const metrics = createJacobianMetrics();
  const uninstall = installTelemetry({ metrics });
  try {
    const queue = new Queue(queueName, { connection: { url: redis.url }, prefix });
    cleanups.push(() => queue.close());
    await queue.add('test.stalled', { not: 'a run' }, { jobId: 'run-stalled-1' });
    // A runner takes the job, then dies: its lock is gone and the job stays active.
    const dead = new Worker(queueName, null, { connection: { url: redis.url }, prefix, autorun: false });
    const job = await dead.getNextJob('dead-runner-token');
    expect(job?.id).toBe('run-stalled-1');
    await dead.close(true);
    const client = new Redis(redis.url);
    cleanups.push(() => client.quit());
    expect(await client.del(`${prefix}:${queueName}:run-stalled-1:lock`)).toBe(1);
    const before = (await metrics.render()).body;
    expect(before).not.toContain('jacobian_jobs_stalled_total');

    const worker = createBullmqRunWorker({
      connection: { url: redis.url },
      prefix,
      targets: [target],
      concurrency: 1,
      stalledIntervalMs: 200,
      lockDurationMs: 1000,
      handler: () => new Promise(() => undefined),
    });
    cleanups.push(() => worker.close({ graceMs: 0 }));
    await worker.waitUntilReady();
    let text = '';
    for (let i = 0; i < 150 && !/^jacobian_jobs_stalled_total\{pool="heavy"\} 1$/m.test(text); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = (await metrics.render()).body;
    }
    expect(text).toMatch(/^jacobian_jobs_stalled_total\{pool="heavy"\} 1$/m);
  } finally {
    uninstall();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await metrics.shutdown();
  }
});
