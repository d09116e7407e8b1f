import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startRedisServer, type RedisServer } from '../testing/redis-server.js';
import { createRedisTaskStore } from './redis-task-store.js';
import { createMemoryTaskStore, newTaskId, type TaskRecord, type TaskStore } from './task-store.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});

function record(tenant: string | null, ttlMs = 60_000): TaskRecord {
  const at = new Date().toISOString();
  return { task_id: newTaskId(), tenant, status: 'working', status_message: null, created_at: at, last_updated_at: at, ttl_ms: ttlMs, arguments: { capability_id: 'x' }, result: null, error: null };
}

describe.each([
  ['memory', (): TaskStore => createMemoryTaskStore()],
  ['redis', (): TaskStore => createRedisTaskStore({ connection: { url: redis.url }, prefix: `t${Math.random().toString(16).slice(2)}` })],
])('task store (%s)', (_name, open) => {
  it('finds a created task only under its own tenant', async () => {
    const store = open();
    const task = record('acme');
    await store.create(task);
    expect(await store.get('acme', task.task_id)).toEqual(task);
    expect(await store.get('globex', task.task_id)).toBeUndefined();
    expect(await store.get(null, task.task_id)).toBeUndefined();
    await store.close();
  });

  it('lets the first terminal state win', async () => {
    const store = open();
    const task = record(null);
    await store.create(task);
    const cancelled = await store.settle(null, task.task_id, { status: 'cancelled', status_message: 'by the client', result: null, error: null });
    expect(cancelled?.status).toBe('cancelled');
    const late = await store.settle(null, task.task_id, { status: 'completed', status_message: 'done', result: { content: [] }, error: null });
    expect(late).toMatchObject({ status: 'cancelled', result: null });
    expect(await store.settle(null, newTaskId(), { status: 'completed', status_message: null, result: null, error: null })).toBeUndefined();
    await store.close();
  });

  it('forgets a task after its TTL', async () => {
    const store = open();
    const task = record(null, 30);
    await store.create(task);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await store.get(null, task.task_id)).toBeUndefined();
    await store.close();
  });
});
