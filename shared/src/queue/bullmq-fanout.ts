/**
 * Split runs on the BullMQ run queue, the parts both sides share. A parent job's children are
 * BullMQ child jobs (`parent: { id, queue }`), so BullMQ itself keeps the parent in
 * `waiting-children`, holding no runner, until every child has finished; the parent's
 * `:dependencies` set lists the children still pending, which is what cancellation reaches.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

import type { RedisConnectionOptions } from './bullmq-run-queue.js';
import { runQueueKeys } from './job-data.js';

/** BullMQ queues opened on demand by name (for the children's queues), closed together. */
export interface QueueCache {
  get(queueName: string): Queue;
  close(settle: (work: Promise<unknown>) => Promise<unknown>): Promise<void>;
}

export function createQueueCache(connection: RedisConnectionOptions, prefix: string, onError: (error: unknown) => void): QueueCache {
  const queues = new Map<string, Queue>();
  return {
    get(queueName) {
      let queue = queues.get(queueName);
      if (queue === undefined) {
        queue = new Queue(queueName, { connection, prefix });
        queue.on('error', onError);
        queues.set(queueName, queue);
      }
      return queue;
    },
    async close(settle) {
      const open = [...queues.values()];
      queues.clear();
      for (const queue of open) await settle(queue.close());
    },
  };
}

/** The Redis key of a job: `<prefix>:<queue>:<id>`, as BullMQ names it. */
export function jobKey(prefix: string, queueName: string, jobId: string): string {
  return `${prefix}:${queueName}:${jobId}`;
}

/**
 * The queue and ID of a job key under `prefix`, or undefined for a key that is not one. Job
 * IDs never contain `:` (JobIdSchema), so the ID is what follows the last one.
 */
export function parseJobKey(prefix: string, key: string): { queueName: string; jobId: string } | undefined {
  const cut = key.lastIndexOf(':');
  const queueKey = key.slice(0, cut);
  if (cut < 0 || !queueKey.startsWith(`${prefix}:`)) return undefined;
  const queueName = queueKey.slice(prefix.length + 1);
  const jobId = key.slice(cut + 1);
  return queueName === '' || jobId === '' ? undefined : { queueName, jobId };
}

/**
 * Cancel the unfinished children of a parent job. Those still waiting (or delayed) are removed,
 * so they never start; for the rest, which a runner holds, each child's cancel marker is set
 * (expiring after `ttlMs`) and its ID published to its queue's runners, which abort it, as a
 * caller's withdrawal does for any job. Removing the last pending child releases the parent,
 * which, finding its own cancel marker, then ends CANCELLED. Returns how many were pending.
 */
export async function cancelChildren(redis: Redis, prefix: string, parentKey: string, ttlMs: number, queues: QueueCache): Promise<number> {
  const pending = (await redis.smembers(`${parentKey}:dependencies`))
    .map((key) => parseJobKey(prefix, key))
    .filter((child) => child !== undefined);
  if (pending.length === 0) return 0;
  // Removal first: it succeeds exactly for the children no runner holds (a held job is locked),
  // and a removed child cannot start any more, so only the held ones need the message.
  const removed = await Promise.all(pending.map((child) => queues.get(child.queueName).remove(child.jobId)));
  const held = pending.filter((_, index) => removed[index] !== 1);
  if (held.length > 0) {
    const multi = redis.multi();
    for (const child of held) {
      const keys = runQueueKeys(prefix, child.queueName);
      // The marker first: a runner that takes the child again after the message still sees it.
      multi.set(keys.cancelMarker(child.jobId), '1', 'PX', ttlMs).publish(keys.cancelChannel, child.jobId);
    }
    await multi.exec();
  }
  return pending.length;
}
