/**
 * Durable state of MCP tasks (the `io.modelcontextprotocol/tasks` extension): a long math.run
 * answered with a task handle, polled with tasks/get, cancelled with tasks/cancel. The store
 * keeps what an API process needs to answer for a task it did not start, or started before a
 * restart: the tool call's arguments (to find the run again by its deterministic job ID), the
 * status, and the final tool result once there is one.
 *
 * Two adapters: in memory (embedded, where the runs themselves live in the process) and Redis
 * (cluster, so a task survives an API restart). Each task belongs to one tenant; a lookup from
 * another tenant finds nothing.
 */
import { randomBytes } from 'node:crypto';

import { z } from 'zod';

import { JacobianError } from '../errors.js';
import { createRedisClient, resolveRedisConnection, type RedisConnectionOptions } from '../queue/bullmq-run-queue.js';

export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

export const TaskIdSchema = z.string().regex(/^task-[0-9a-f]{32}$/, 'a task ID returned by math.run');

export const TaskRecordSchema = z
  .object({
    task_id: TaskIdSchema,
    tenant: z.string().nullable(),
    status: z.enum(TASK_STATUSES),
    status_message: z.string().max(1000).nullable(),
    created_at: z.string(),
    last_updated_at: z.string(),
    ttl_ms: z.number().int().positive(),
    /** math.run's arguments, without reasoning IDs: admitting them again finds the same job. */
    arguments: z.record(z.string(), z.unknown()),
    /** The final tool result (completed), or the JSON-RPC error (failed). */
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.object({ code: z.number().int(), message: z.string() }).strict().nullable(),
  })
  .strict();
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

export function newTaskId(): string {
  return `task-${randomBytes(16).toString('hex')}`;
}

export interface TaskStore {
  /** Store a new task; resolves once a get would find it (the spec's durability rule). */
  create(record: TaskRecord): Promise<void>;
  get(tenant: string | null, taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Move a task that is not yet terminal to a new state; a terminal task never changes (the
   * first of a completion and a cancellation wins). Resolves with the state now stored.
   */
  settle(tenant: string | null, taskId: string, patch: Pick<TaskRecord, 'status' | 'status_message' | 'result' | 'error'>): Promise<TaskRecord | undefined>;
  close(): Promise<void>;
}

function applyPatch(record: TaskRecord, patch: Pick<TaskRecord, 'status' | 'status_message' | 'result' | 'error'>, now: number): TaskRecord {
  if (isTerminal(record.status)) return record;
  return { ...record, ...patch, last_updated_at: new Date(now).toISOString() };
}

/** The embedded store: tasks in memory, dropped after their TTL. */
export function createMemoryTaskStore(options: { now?: () => number; maxTasks?: number } = {}): TaskStore {
  const now = options.now ?? Date.now;
  const maxTasks = options.maxTasks ?? 10_000;
  const tasks = new Map<string, { record: TaskRecord; expires: number }>();
  const keyOf = (tenant: string | null, taskId: string): string => `${tenant ?? ''}\u0000${taskId}`;
  const prune = (): void => {
    const t = now();
    for (const [key, entry] of tasks) if (entry.expires <= t) tasks.delete(key);
    // Oldest first (insertion order) when over the bound.
    for (const key of tasks.keys()) {
      if (tasks.size <= maxTasks) break;
      tasks.delete(key);
    }
  };
  return {
    create(record) {
      prune();
      tasks.set(keyOf(record.tenant, record.task_id), { record, expires: now() + record.ttl_ms });
      return Promise.resolve();
    },
    get(tenant, taskId) {
      const entry = tasks.get(keyOf(tenant, taskId));
      if (entry === undefined || entry.expires <= now()) return Promise.resolve(undefined);
      return Promise.resolve(entry.record);
    },
    settle(tenant, taskId, patch) {
      const entry = tasks.get(keyOf(tenant, taskId));
      if (entry === undefined || entry.expires <= now()) return Promise.resolve(undefined);
      entry.record = applyPatch(entry.record, patch, now());
      return Promise.resolve(entry.record);
    },
    close() {
      tasks.clear();
      return Promise.resolve();
    },
  };
}

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
