import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRunQueueName } from '../queue/job-data.js';
import type { RunTarget } from '../queue/run-queue.js';
import { startRedisServer, type RedisServer } from '../testing/redis-server.js';
import { readQueueDepths } from './queue-depth.js';

describe('readQueueDepths (real Redis, real BullMQ keys)', () => {
  let server: RedisServer;
  let redis: Redis;
  const queues: Queue[] = [];

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { lazyConnect: false });
  });
  afterAll(async () => {
    for (const queue of queues) await queue.close();
    await redis.quit();
    await server.stop();
  });

  async function fill(prefix: string, name: string, waiting: number, delayed: number): Promise<void> {
    const queue = new Queue(name, { connection: { url: server.url }, prefix });
    queues.push(queue);
    for (let i = 0; i < waiting; i++) await queue.add('run', { i });
    for (let i = 0; i < delayed; i++) await queue.add('run', { i }, { delay: 60_000 });
  }

  const light: RunTarget = { kind: 'pool', pool: 'light' };
  const checker: RunTarget = { kind: 'checker' };

  it('counts waiting and delayed jobs per target under the adapters\' default queue names, and zeros for empty queues', async () => {
    await fill('depth-a', defaultRunQueueName(light), 3, 2);
    const depths = await readQueueDepths(redis, 'depth-a', [light, checker]);
    expect(depths).toEqual([
      { pool: 'light', waiting: 3, active: 0, delayed: 2 },
      { pool: 'checker', waiting: 0, active: 0, delayed: 0 },
    ]);
    expect(await readQueueDepths(redis, 'depth-a', [])).toEqual([]);
  });

  it('reads the queues a custom mapping names, not the default ones', async () => {
    const custom = (target: RunTarget): string => `custom-${target.kind === 'pool' ? target.pool : 'checker'}`;
    await fill('depth-b', custom(light), 1, 0);
    await fill('depth-b', defaultRunQueueName(light), 4, 0);
    expect(await readQueueDepths(redis, 'depth-b', [light], custom)).toEqual([{ pool: 'light', waiting: 1, active: 0, delayed: 0 }]);
    expect(await readQueueDepths(redis, 'depth-b', [light])).toEqual([{ pool: 'light', waiting: 4, active: 0, delayed: 0 }]);
  });
});
