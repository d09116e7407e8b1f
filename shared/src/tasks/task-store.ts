/**
 * Durable state of MCP tasks (the `io.modelcontextprotocol/tasks` extension): a long math.run
 * answered with a task handle, polled with tasks/get, cancelled with tasks/cancel. The store
 * keeps what an API process needs to answer for a task it did not start, or started before a
 * restart: the tool call's arguments (to find the run again by its deterministic job ID), the
 * status, and the final tool result once there is one.
 *
 * Two adapters: in memory (embedded, where the runs themselves live in the process) and Redis
 * (cluster, so a task survives an API restart; in redis-task-store.ts, reached through
 * `@jacobian/shared/redis` so the embedded roles never load a Redis client). Each task belongs to one tenant; a lookup from
 * another tenant finds nothing.
 */
import { randomBytes } from 'node:crypto';

import { z } from 'zod';

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

/** The record after a status change; shared by both adapters. */
export function applyPatch(record: TaskRecord, patch: Pick<TaskRecord, 'status' | 'status_message' | 'result' | 'error'>, now: number): TaskRecord {
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
