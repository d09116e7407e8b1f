#!/usr/bin/env node
// Measures the Redis memory a queued run takes, for sizing Redis (docs/operations.md, "Redis").
// Runs the compiled code (`npm run build` first) against a redis-server of its own on a free
// loopback port: submits N runs through the API's BullMQ queue with no runner taking them, and
// reports used_memory before and after (per run), MEMORY USAGE of one job hash, and what the
// events stream adds. Usage: node scripts/measure-redis-job-memory.mjs [N]
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { stdout } from 'node:process';
import process from 'node:process';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { admitRequest, CapabilityRequestSchema } from '@jacobian/shared';
import { createBullmqRunQueue } from '@jacobian/shared/redis';
import { startRedisServer } from '@jacobian/shared/testing';

const N = Number(process.argv[2] ?? 1000);
const PREFIX = 'measure';
const TARGET = { kind: 'pool', pool: 'light' };
const QUEUE = `${PREFIX}:jacobian-pool-light`;

// Two typical requests: a run on a stored graph (its artifact URI) and the Petersen graph inline.
const PETERSEN = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [0, 5], [1, 6], [2, 7], [3, 8], [4, 9], [5, 7], [7, 9], [9, 6], [6, 8], [8, 5]];
const REQUESTS = {
  'graph.induced_tree.maximum.compute on a graph_uri': () => ({
    capability_id: 'graph.induced_tree.maximum.compute',
    payload: { graph_uri: `artifact://sha256/${randomBytes(32).toString('hex')}` },
    budget: { wall_time_ms: 600_000 },
  }),
  'graph.construct.explicit with the Petersen graph inline': () => ({
    capability_id: 'graph.construct.explicit',
    payload: { order: 10, edges: PETERSEN, salt: randomBytes(4).toString('hex') },
    budget: { wall_time_ms: 600_000 },
  }),
};

/** @param {Redis} redis */
const usedMemory = async (redis) => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);

const server = await startRedisServer();
const redis = new Redis(server.url);
try {
  for (const [name, request] of Object.entries(REQUESTS)) {
    await redis.flushall();
    const controller = new globalThis.AbortController();
    // Every pending submit listens to it.
    setMaxListeners(0, controller.signal);
    const queue = createBullmqRunQueue({ connection: { url: server.url }, prefix: PREFIX });
    const pending = [];
    const submit = () => {
      const run = admitRequest(CapabilityRequestSchema.parse(request()));
      pending.push(queue.submit(run, TARGET, { signal: controller.signal }).catch(() => undefined));
      return run;
    };
    const waiting = () => redis.llen(`${QUEUE}:wait`);
    const until = async (count) => {
      while ((await waiting()) < count) await sleep(20);
    };
    // One run first, so that the queue's own keys (meta, id counter, the events stream) exist.
    const first = submit();
    await until(1);
    const before = await usedMemory(redis);
    const eventsBefore = (await redis.memory('USAGE', `${QUEUE}:events`, 'SAMPLES', '0')) ?? 0;
    for (let i = 0; i < N; i++) submit();
    await until(N + 1);
    const after = await usedMemory(redis);
    const eventsAfter = (await redis.memory('USAGE', `${QUEUE}:events`, 'SAMPLES', '0')) ?? 0;
    const jobKey = `${QUEUE}:${first.job_id}`;
    const hash = await redis.memory('USAGE', jobKey, 'SAMPLES', '0');
    const data = (await redis.hget(jobKey, 'data')) ?? '';
    const keys = await redis.dbsize();
    const waiters = (await redis.keys(`${PREFIX}:jacobian-run:*:waiters:*`)).length;
    stdout.write(
      `${JSON.stringify({
        request: name,
        runs: N,
        used_memory_per_run: Math.round((after - before) / N),
        job_hash_memory_usage: hash,
        job_data_bytes: Buffer.byteLength(data),
        events_stream_per_run: Math.round((eventsAfter - eventsBefore) / N),
        keys,
        waiter_keys: waiters,
        redis_version: /redis_version:(\S+)/.exec(await redis.info('server'))?.[1],
      })}\n`,
    );
    controller.abort();
    await Promise.all(pending);
    await queue.close();
  }
} finally {
  redis.disconnect();
  await server.stop();
}
