import type { Redis } from 'ioredis';

import { defaultRunQueueName } from '../queue/job-data.js';
import type { RunTarget } from '../queue/run-queue.js';
import { targetPool } from './instrumentation.js';
import type { QueueDepth } from './metrics.js';

/**
 * Read the depth of the targets' BullMQ queues (named by `queueName`, which must be the queue
 * adapters' mapping; default theirs) in one
 * round trip, from the keys BullMQ keeps under `<prefix>:<queue>:`: `wait` (and `prioritized`)
 * are waiting, `active` running, `delayed` waiting out a retry's backoff. The `wait` list is
 * also what a KEDA redis list scaler reads.
 */
export async function readQueueDepths(
  redis: Redis,
  prefix: string,
  targets: readonly RunTarget[],
  queueName: (target: RunTarget) => string = defaultRunQueueName,
): Promise<QueueDepth[]> {
  if (targets.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const target of targets) {
    const base = `${prefix}:${queueName(target)}`;
    pipeline.llen(`${base}:wait`).zcard(`${base}:prioritized`).llen(`${base}:active`).zcard(`${base}:delayed`);
  }
  const replies = (await pipeline.exec()) ?? [];
  const counts = replies.map(([error, count]) => {
    if (error !== null) throw error;
    return Number(count);
  });
  return targets.map((target, index) => {
    const at = index * 4;
    return {
      pool: targetPool(target),
      waiting: (counts[at] ?? 0) + (counts[at + 1] ?? 0),
      active: counts[at + 2] ?? 0,
      delayed: counts[at + 3] ?? 0,
    };
  });
}
