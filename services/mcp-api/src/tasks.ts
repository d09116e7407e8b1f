/**
 * Long math.run calls as MCP tasks (the `io.modelcontextprotocol/tasks` extension of the
 * 2026-07-28 protocol). A client that declares the extension in its request's capabilities gets
 * the tool result as usual when the run ends within a short grace period, and otherwise a task
 * handle (`resultType: "task"`) at once; it then polls `tasks/get` (status, the run's latest
 * progress, and the final tool result) and may `tasks/cancel`.
 *
 * The task's state is in the task store (Redis in the cluster), and the run is a queue job
 * whose ID follows from the request. So an API process that did not start a task, or restarted
 * since, answers for it: on `tasks/get` it joins the run again by its arguments (the same job,
 * never a second computation) and records the outcome when it arrives.
 *
 * Every process that waits on a task's run keeps the stored task in step, once per poll
 * interval: it writes the run's latest progress there (so `tasks/get` reports it from any
 * process), and when it finds the task cancelled (by `tasks/cancel` on another process) it
 * withdraws its own wait. The queue cancels a job once nobody waits for it, so a cancellation
 * reaches the run wherever the task was started.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { BUDGET_LIMITS, isPlainObject, isTerminal, newTaskId, TaskIdSchema, toAppError, type ProgressListener, type TaskRecord, type TaskStore } from '@jacobian/shared';

import type { Api } from './api.js';
import { runCallToolResult, runToolResult } from './tools.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

type JsonObject = Record<string, unknown>;

/** A JSON-RPC error answer to a task method. */
export interface TaskMethodError {
  error: { code: number; message: string };
}

/** JSON-RPC invalid params: an unknown or malformed task ID. */
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

export interface TaskServiceOptions {
  store: TaskStore;
  /** How long a call waits for its run before answering with a task handle. Default 1000 ms. */
  graceMs?: number;
  /** The polling interval suggested to clients, and how often a process waiting on a task's run brings the stored task in step. Default 1000 ms. */
  pollIntervalMs?: number;
  /** How long a task is kept beyond its run's wall-time budget. Default one hour. */
  retentionMs?: number;
  now?: () => number;
  onError?: (error: Error) => void;
}

export interface TaskService {
  /** Whether a tools/call request's `_meta` declares the tasks extension. */
  declared(meta: unknown): boolean;
  /**
   * math.run for a client that declared the extension: a tool result, or a task handle. A
   * `progressToken` in its request is not answered with notifications: such a client reads
   * the run's progress with `tasks/get` (the protocol leaves progress notifications optional).
   */
  callRun(api: Api, args: JsonObject, signal: AbortSignal): Promise<CallToolResult | JsonObject>;
  get(api: Api, params: unknown): Promise<JsonObject | TaskMethodError>;
  cancel(api: Api, params: unknown): Promise<JsonObject | TaskMethodError>;
  /** tasks/update: math.run never asks its caller for input, so there is nothing to update. */
  update(api: Api, params: unknown): Promise<JsonObject | TaskMethodError>;
}

interface Watcher {
  readonly controller: AbortController;
  progress: string | null;
}

function withoutReasoningIds(args: JsonObject): JsonObject {
  const { reasoning_run_id: _run, reasoning_call_id: _call, ...rest } = args;
  return rest;
}

export function createTaskService(options: TaskServiceOptions): TaskService {
  const { store } = options;
  const graceMs = options.graceMs ?? 1000;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const retentionMs = options.retentionMs ?? 3_600_000;
  const now = options.now ?? Date.now;
  /** Runs this process watches, by task ID. */
  const watchers = new Map<string, Watcher>();
  const report = (error: unknown): void => options.onError?.(error instanceof Error ? error : new Error(String(error)));

  const keyOf = (api: Api, taskId: string): string => `${api.tenant ?? ''}\u0000${taskId}`;

  function wire(record: TaskRecord, watcher: Watcher | undefined): JsonObject {
    const message = watcher?.progress ?? record.status_message;
    return {
      taskId: record.task_id,
      status: record.status,
      ...(message === null ? {} : { statusMessage: message }),
      createdAt: record.created_at,
      lastUpdatedAt: record.last_updated_at,
      ttlMs: record.ttl_ms,
      pollIntervalMs,
      ...(record.status === 'completed' && record.result !== null ? { result: record.result } : {}),
      ...(record.status === 'failed' && record.error !== null ? { error: record.error } : {}),
    };
  }

  /**
   * While this process waits on a task's run: write its latest progress to the stored task, and
   * withdraw the wait once the stored task is cancelled (or gone). Returns the stop function.
   */
  function keepInStep(api: Api, taskId: string, watcher: Watcher): () => void {
    let written: string | null = null;
    let busy = false;
    const timer = setInterval(() => {
      if (busy || watcher.controller.signal.aborted) return;
      busy = true;
      const progress = watcher.progress;
      const step =
        progress !== null && progress !== written
          ? store.settle(api.tenant, taskId, { status: 'working', status_message: progress, result: null, error: null }).then((record) => {
              written = progress;
              return record;
            })
          : store.get(api.tenant, taskId);
      step
        .then((record) => {
          if (record === undefined || record.status === 'cancelled') watcher.controller.abort(new Error('the task was cancelled'));
        }, report)
        .finally(() => {
          busy = false;
        });
    }, pollIntervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Record a run's end (unless the task already ended, e.g. cancelled first). */
  function follow(api: Api, taskId: string, watcher: Watcher, run: Promise<CallToolResult>): void {
    const key = keyOf(api, taskId);
    watchers.set(key, watcher);
    const stop = keepInStep(api, taskId, watcher);
    run
      .then(
        (result) => store.settle(api.tenant, taskId, { status: 'completed', status_message: 'the run finished', result: result, error: null }),
        (error: unknown) =>
          store.settle(api.tenant, taskId, { status: 'failed', status_message: 'the run failed', result: null, error: { code: INTERNAL_ERROR, message: toAppError(error).message } }),
      )
      .catch(report)
      .finally(() => {
        stop();
        if (watchers.get(key) === watcher) watchers.delete(key);
      });
  }

  function progressOf(watcher: Watcher): ProgressListener {
    return (progress) => {
      const total = progress.total === undefined || progress.total === null ? '' : ` of ${progress.total}`;
      watcher.progress = `${progress.message ?? 'working'} (${progress.progress}${total})`.slice(0, 500);
    };
  }

  /** Join a task's run in this process (after a restart, or from another API process). */
  function adopt(api: Api, record: TaskRecord): Watcher {
    const watcher: Watcher = { controller: new AbortController(), progress: null };
    follow(api, record.task_id, watcher, api.runUnbound(record.arguments, watcher.controller.signal).then((result) => runCallToolResult(result, null)));
    return watcher;
  }

  async function lookup(api: Api, params: unknown): Promise<{ record: TaskRecord } | { failure: TaskMethodError }> {
    const taskId = isPlainObject(params) ? params['taskId'] : undefined;
    const parsed = TaskIdSchema.safeParse(taskId);
    if (!parsed.success) return { failure: { error: { code: INVALID_PARAMS, message: `params.taskId: ${parsed.error.issues[0]?.message ?? 'invalid'}` } } };
    const record = await store.get(api.tenant, parsed.data);
    // Another tenant's task is as unknown as one that never existed.
    if (record === undefined) return { failure: { error: { code: INVALID_PARAMS, message: `params.taskId: no task ${parsed.data} (unknown, expired, or not yours)` } } };
    return { record };
  }

  return {
    declared(meta) {
      if (!isPlainObject(meta)) return false;
      const capabilities = meta['io.modelcontextprotocol/clientCapabilities'];
      return isPlainObject(capabilities) && isPlainObject(capabilities['extensions']) && isPlainObject(capabilities['extensions'][TASKS_EXTENSION]);
    },

    async callRun(api, args, signal) {
      const watcher: Watcher = { controller: new AbortController(), progress: null };
      const onClientGone = (): void => watcher.controller.abort(signal.reason);
      signal.addEventListener('abort', onClientGone, { once: true });
      // While the call is the client's, its going away cancels the run; the listener goes once it is not.
      const run = runToolResult(api, args, watcher.controller.signal, progressOf(watcher)).finally(() => signal.removeEventListener('abort', onClientGone));
      let timer: NodeJS.Timeout | undefined;
      let early: { result: CallToolResult } | undefined;
      try {
        early = await Promise.race([run.then((result) => ({ result })), new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), graceMs)))]);
      } finally {
        clearTimeout(timer);
      }
      if (early !== undefined) return early.result;
      // The run's wall-time budget (the default when unset), clamped to the allowed range: the
      // task outlives it by the retention time.
      const requested = isPlainObject(args['budget']) && typeof args['budget']['wall_time_ms'] === 'number' ? args['budget']['wall_time_ms'] : undefined;
      const wallTimeMs = Math.min(Math.max(1, Math.floor(requested ?? BUDGET_LIMITS.wall_time_ms.default)), BUDGET_LIMITS.wall_time_ms.max);
      const at = new Date(now()).toISOString();
      const record: TaskRecord = {
        task_id: newTaskId(),
        tenant: api.tenant,
        status: 'working',
        status_message: 'the run is in progress',
        created_at: at,
        last_updated_at: at,
        ttl_ms: wallTimeMs + retentionMs,
        arguments: withoutReasoningIds(args),
        result: null,
        error: null,
      };
      try {
        // Durable before the handle is returned: a tasks/get for it must find it.
        await store.create(record);
      } catch (error) {
        report(error);
        // No task could be recorded: answer as a plain call instead, still cancelled if the client goes.
        return run;
      }
      // The task owns the run from here: the client's going away no longer cancels it.
      signal.removeEventListener('abort', onClientGone);
      follow(api, record.task_id, watcher, run);
      return { resultType: 'task', ...wire(record, watcher) };
    },

    async get(api, params) {
      const looked = await lookup(api, params);
      if ('failure' in looked) return looked.failure;
      const found = looked.record;
      let watcher = watchers.get(keyOf(api, found.task_id));
      if (watcher === undefined && !isTerminal(found.status)) watcher = adopt(api, found);
      return { resultType: 'complete', ...wire(found, watcher) };
    },

    async cancel(api, params) {
      const looked = await lookup(api, params);
      if ('failure' in looked) return looked.failure;
      const found = looked.record;
      if (!isTerminal(found.status)) {
        await store.settle(api.tenant, found.task_id, { status: 'cancelled', status_message: 'cancelled by the client', result: null, error: null });
        // Withdraw this process's wait; the queue cancels the job once nobody waits for it.
        const watcher = watchers.get(keyOf(api, found.task_id)) ?? adopt(api, found);
        watcher.controller.abort(new Error('the task was cancelled'));
      }
      return { resultType: 'complete' };
    },

    async update(api, params) {
      const looked = await lookup(api, params);
      if ('failure' in looked) return looked.failure;
      // Nothing is outstanding: responses to unknown keys are ignored, as the extension says.
      return { resultType: 'complete' };
    },
  };
}
