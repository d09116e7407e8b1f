/** The cluster adapter of the task store (see task-store.ts): one Redis string per task. */
import { JacobianError } from '../errors.js';
import { createRedisClient, resolveRedisConnection, type RedisConnectionOptions } from '../queue/bullmq-run-queue.js';
import { applyPatch, TaskRecordSchema, type TaskRecord, type TaskStore } from './task-store.js';

/** Set the task only while the stored one is not terminal; return what is stored afterwards. */
const SETTLE_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current then return false end
local status = cjson.decode(current)['status']
if status == 'completed' or status == 'failed' or status == 'cancelled' then return current end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return ARGV[1]`;

/** The cluster store: one Redis string per task, expiring with the task's TTL. */
export function createRedisTaskStore(options: { connection: RedisConnectionOptions; prefix?: string; now?: () => number }): TaskStore {
  const prefix = options.prefix ?? 'jacobian';
  const now = options.now ?? Date.now;
  const redis = createRedisClient(resolveRedisConnection(options.connection), { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  redis.defineCommand('jacobianSettleTask', { numberOfKeys: 1, lua: SETTLE_SCRIPT });
  const settleScript = redis as unknown as { jacobianSettleTask(key: string, value: string): Promise<string | null> };
  const keyOf = (tenant: string | null, taskId: string): string => `${prefix}:tasks:${tenant ?? '-'}:${taskId}`;
  const parse = (text: string | null): TaskRecord | undefined => {
    if (text === null) return undefined;
    const parsed = TaskRecordSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new JacobianError('INTERNAL', `a stored task does not match the task record: ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  };
  const unavailable = (error: unknown): JacobianError =>
    error instanceof JacobianError ? error : new JacobianError('QUEUE_UNAVAILABLE', `the task store's Redis failed: ${error instanceof Error ? error.message : String(error)}`);
  return {
    async create(record) {
      try {
        await redis.set(keyOf(record.tenant, record.task_id), JSON.stringify(record), 'PX', record.ttl_ms);
      } catch (error) {
        throw unavailable(error);
      }
    },
    async get(tenant, taskId) {
      try {
        return parse(await redis.get(keyOf(tenant, taskId)));
      } catch (error) {
        throw unavailable(error);
      }
    },
    async settle(tenant, taskId, patch) {
      try {
        const current = parse(await redis.get(keyOf(tenant, taskId)));
        if (current === undefined) return undefined;
        const next = applyPatch(current, patch, now());
        return parse(await settleScript.jacobianSettleTask(keyOf(tenant, taskId), JSON.stringify(next)));
      } catch (error) {
        throw unavailable(error);
      }
    },
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => undefined);
      redis.disconnect();
    },
  };
}
