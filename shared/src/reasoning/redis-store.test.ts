import { randomUUID } from 'node:crypto';

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startRedisServer, type RedisServer } from '../testing/redis-server.js';
import type { ReasoningEvent } from './log.js';
import { createRedisReasoningLogStore } from './redis-store.js';
import type { ReasoningLogStore } from './store.js';
import { describeReasoningLogStoreContract } from './store-contract.js';
import { rejection } from './test-fixtures.js';

let server: RedisServer;
let prefixes = 0;
const nextPrefix = (): string => `reasoning-test-${process.pid}-${++prefixes}`;

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server.stop();
});

describeReasoningLogStoreContract('Redis streams', () => {
  const prefix = nextPrefix();
  const store = createRedisReasoningLogStore({ connection: { url: server.url }, prefix });
  return Promise.resolve({
    store,
    reopen: () => createRedisReasoningLogStore({ connection: { url: server.url }, prefix }),
    async [Symbol.asyncDispose]() {
      await store.close();
    },
  });
});

function event(runId: string, sequence: number): ReasoningEvent {
  return { type: 'PLAN', sequence, run_id: runId, recorded_at: '2025-01-01T00:00:00.000Z', summary: `entry ${sequence}` };
}

/** A store under a fresh prefix plus a raw client to look behind its back; both closed afterwards. */
async function withStore(fn: (store: ReasoningLogStore, redis: Redis, prefix: string) => Promise<void>): Promise<void> {
  const prefix = nextPrefix();
  const store = createRedisReasoningLogStore({ connection: { url: server.url }, prefix });
  const redis = new Redis(server.url);
  try {
    await fn(store, redis, prefix);
  } finally {
    await store.close();
    redis.disconnect();
  }
}

describe('Redis reasoning log store', () => {
  it('keeps one stream per run under the prefix, entry IDs 0-<sequence>, one field holding the event', () =>
    withStore(async (store, redis, prefix) => {
      const runId = randomUUID();
      await store.append(event(runId, 1));
      await store.append(event(runId, 2));
      expect(await redis.keys(`${prefix}:*`)).toEqual([`${prefix}:reasoning:run:${runId}`]);
      const entries = await redis.xrange(`${prefix}:reasoning:run:${runId}`, '-', '+');
      expect(entries.map(([id, fields]) => [id, fields[0], JSON.parse(fields[1]!) as unknown])).toEqual([
        ['0-1', 'event', event(runId, 1)],
        ['0-2', 'event', event(runId, 2)],
      ]);
      expect(entries.every(([, fields]) => fields.length === 2)).toBe(true);
    }));

  it('refuses a stream holding a damaged entry', () =>
    withStore(async (store, redis, prefix) => {
      const runId = randomUUID();
      await store.append(event(runId, 1));
      await redis.xadd(`${prefix}:reasoning:run:${runId}`, '0-2', 'event', '{"type":"PLAN"}');
      const damaged = await rejection(store.read(runId));
      expect(damaged.code).toBe('REASONING_LOG_CORRUPT');
      expect(damaged.path?.slice(0, 2)).toEqual([runId, 2]);
    }));

  it('reports an unreachable Redis as REASONING_LOG_UNAVAILABLE', async () => {
    const store = createRedisReasoningLogStore({
      connection: { url: 'redis://127.0.0.1:1', retryStrategy: () => null },
      prefix: nextPrefix(),
      commandTimeoutMs: 500,
    });
    try {
      const error = await rejection(store.read(randomUUID()));
      expect(error.code).toBe('REASONING_LOG_UNAVAILABLE');
      expect(error.retryable).toBe(true);
    } finally {
      await store.close();
    }
  });
});
