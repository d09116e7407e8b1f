/**
 * The `@jacobian/shared/redis` entry: the adapters that talk to Redis through ioredis and BullMQ
 * (the run queue and its workers, the task store, the reasoning log, the eviction-policy check). Only the cluster roles
 * (`jacobian api`, `runner`, `checker`) import it, so `serve` and `stdio` never load bullmq or
 * ioredis. Their types are also exported by the main entry.
 */
export { createBullmqRunQueue, createRedisClient, resolveRedisConnection } from './queue/bullmq-run-queue.js';
export { createBullmqRunWorker } from './queue/bullmq-run-worker.js';
export { createRedisTaskStore } from './tasks/redis-task-store.js';
export { createRedisReasoningLogStore } from './reasoning/redis-store.js';
export { evictionPolicyFix, readEvictionPolicy, REQUIRED_EVICTION_POLICY } from './queue/redis-eviction-policy.js';
