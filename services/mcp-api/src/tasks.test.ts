import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import {
  createLocalFolderArtifactStore,
  createMemoryTaskStore,
  nonConclusionResult,
  OperatorPolicySchema,
  type AdmittedRun,
  type ArtifactStore,
  type CapabilityResult,
  type ProgressListener,
  type RunQueue,
  type TaskStore,
} from '@jacobian/shared';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createApi, type Api } from './api.js';
import { startHttpServer, type RunningHttpServer } from './http.js';
import { SQUARE, squared } from './square.fixture.js';
import { createTaskService, TASKS_EXTENSION } from './tasks.js';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'tasks-test', version: '0.0.1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const WITH_TASKS = { ...META, 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } } };

/**
 * A queue computing squares; a run of n ≥ 500 waits until the test releases it (or its callers
 * withdraw). Like the real queues, one job ID is one computation: a second submission joins.
 */
class SlowQueue implements RunQueue {
  readonly computed: string[] = [];
  readonly cancelled: string[] = [];
  private readonly jobs = new Map<string, { promise: Promise<CapabilityResult>; release: () => void; waiters: number; abort: () => void }>();

  /** Progress reports heard by every caller of a job, as the real queues deliver them. */
  private readonly listeners = new Map<string, ProgressListener[]>();

  submit(run: AdmittedRun, _target: unknown, options?: { signal?: AbortSignal; onProgress?: ProgressListener }): Promise<CapabilityResult> {
    const n = run.payload['n'] as number;
    if (n < 500) return Promise.resolve(squared(run));
    if (options?.onProgress !== undefined) this.listeners.set(run.job_id, [...(this.listeners.get(run.job_id) ?? []), options.onProgress]);
    let job = this.jobs.get(run.job_id);
    if (job === undefined) {
      this.computed.push(run.job_id);
      let release!: () => void;
      let abort!: () => void;
      const promise = new Promise<CapabilityResult>((resolve) => {
        release = () => resolve(squared(run));
        abort = () => {
          this.cancelled.push(run.job_id);
          resolve(nonConclusionResult(run, { status: 'CANCELLED', diagnostics: [] }));
        };
      });
      job = { promise, release, abort, waiters: 0 };
      this.jobs.set(run.job_id, job);
    }
    const current = job;
    current.waiters++;
    options?.signal?.addEventListener('abort', () => {
      current.waiters--;
      if (current.waiters === 0) current.abort();
    });
    return current.promise;
  }

  release(): void {
    for (const job of this.jobs.values()) job.release();
  }

  /** A progress report from every running job to its callers. */
  report(progress: number, message: string): void {
    for (const listeners of this.listeners.values()) for (const listener of listeners) listener({ progress, message });
  }

  stats() {
    return { inFlight: this.jobs.size, queued: 0, running: 0 };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

let root: string;
let store: ArtifactStore;
const servers: RunningHttpServer[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-tasks-'));
  store = createLocalFolderArtifactStore({ root });
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

afterAll(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

function apiOver(queue: RunQueue): Api {
  return createApi({ installed: () => [SQUARE], policy: OperatorPolicySchema.parse({}), queue, artifacts: store, trustedCheckerKeys: new Map() });
}

async function serve(queue: RunQueue, tasks: TaskStore): Promise<RunningHttpServer> {
  const server = await startHttpServer({ api: apiOver(queue), host: '127.0.0.1', port: 0, tasks: createTaskService({ store: tasks, graceMs: 50, pollIntervalMs: 10 }) });
  servers.push(server);
  return server;
}

/** Every JSON-RPC message of an answer: one JSON body, or the data lines of an SSE stream. */
async function messagesOf(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return [JSON.parse(text) as Record<string, unknown>];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice('data:'.length)) as Record<string, unknown>);
}

/** One modern JSON-RPC request over HTTP; `name` is the Mcp-Name routing header. */
async function rpcMessages(server: RunningHttpServer, method: string, name: string, params: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': method, 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(response.status).toBe(200);
  return messagesOf(response);
}

/** The answer to one modern JSON-RPC request (the last message, after any notifications). */
async function rpc(server: RunningHttpServer, method: string, name: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const messages = await rpcMessages(server, method, name, params);
  const last = messages.at(-1);
  expect(last).toHaveProperty('id', 1);
  return last as Record<string, unknown>;
}

function runCall(server: RunningHttpServer, n: number, meta: Record<string, unknown>): Promise<Record<string, unknown>> {
  return rpc(server, 'tools/call', 'math.run', { name: 'math.run', arguments: { capability_id: 'test.square', mode: 'EXPLORE', payload: { n } }, _meta: meta });
}

const taskCall = (server: RunningHttpServer, method: string, taskId: string) => rpc(server, method, taskId, { taskId, _meta: META });

async function pollUntil(server: RunningHttpServer, taskId: string, status: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 500; i++) {
    const task = (await taskCall(server, 'tasks/get', taskId))['result'] as Record<string, unknown>;
    if (task['status'] === status) return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

describe('math.run as an MCP task', () => {
  it('answers a quick run on its own call, even when the client declares tasks', async () => {
    const server = await serve(new SlowQueue(), createMemoryTaskStore());
    const answer = (await runCall(server, 7, WITH_TASKS))['result'] as Record<string, unknown>;
    expect(answer['resultType']).toBe('complete');
    expect(answer['structuredContent']).toMatchObject({ output: { square: 49 } });
  });

  it('answers a long run with a task handle, reports it working, then completed with the tool result', async () => {
    const queue = new SlowQueue();
    const server = await serve(queue, createMemoryTaskStore());
    const handle = (await runCall(server, 600, WITH_TASKS))['result'] as Record<string, unknown>;
    expect(handle).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 10 });
    const taskId = handle['taskId'] as string;
    expect(taskId).toMatch(/^task-[0-9a-f]{32}$/);
    expect(typeof handle['ttlMs']).toBe('number');
    expect(((await taskCall(server, 'tasks/get', taskId))['result'] as Record<string, unknown>)['status']).toBe('working');
    queue.release();
    const done = await pollUntil(server, taskId, 'completed');
    expect(done['resultType']).toBe('complete');
    expect(done['result']).toMatchObject({ structuredContent: { output: { square: 360_000 }, execution: { status: 'COMPLETED' } } });
    expect(queue.computed).toHaveLength(1);
  });

  it('keeps a long run on its own call for a client that did not declare tasks', async () => {
    const queue = new SlowQueue();
    const server = await serve(queue, createMemoryTaskStore());
    const pending = runCall(server, 601, META);
    await new Promise((resolve) => setTimeout(resolve, 150));
    queue.release();
    const answer = (await pending)['result'] as Record<string, unknown>;
    expect(answer['resultType']).toBe('complete');
    expect(answer['structuredContent']).toMatchObject({ output: { square: 361_201 } });
  });

  it('cancels a task: the run is withdrawn and the task reads cancelled', async () => {
    const queue = new SlowQueue();
    const server = await serve(queue, createMemoryTaskStore());
    const taskId = ((await runCall(server, 602, WITH_TASKS))['result'] as Record<string, unknown>)['taskId'] as string;
    expect(((await taskCall(server, 'tasks/cancel', taskId))['result'] as Record<string, unknown>)['resultType']).toBe('complete');
    expect(await pollUntil(server, taskId, 'cancelled')).not.toHaveProperty('result');
    expect(queue.cancelled).toHaveLength(1);
    // A cancelled task stays cancelled even if the work had finished meanwhile.
    queue.release();
    expect(((await taskCall(server, 'tasks/get', taskId))['result'] as Record<string, unknown>)['status']).toBe('cancelled');
  });

  it('refuses unknown and malformed task IDs with a JSON-RPC invalid-params error', async () => {
    const server = await serve(new SlowQueue(), createMemoryTaskStore());
    const unknown = await taskCall(server, 'tasks/get', `task-${'0'.repeat(32)}`);
    expect(unknown['error']).toMatchObject({ code: -32602 });
    const malformed = await taskCall(server, 'tasks/cancel', 'nope');
    expect(malformed['error']).toMatchObject({ code: -32602 });
  });

  it('is answered by another API process (or the same after a restart) from the task store, without computing twice', async () => {
    const queue = new SlowQueue();
    const tasks = createMemoryTaskStore();
    const first = await serve(queue, tasks);
    const taskId = ((await runCall(first, 603, WITH_TASKS))['result'] as Record<string, unknown>)['taskId'] as string;
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    const second = await serve(queue, tasks);
    expect(((await taskCall(second, 'tasks/get', taskId))['result'] as Record<string, unknown>)['status']).toBe('working');
    queue.release();
    const done = await pollUntil(second, taskId, 'completed');
    expect(done['result']).toMatchObject({ structuredContent: { output: { square: 363_609 } } });
    expect(queue.computed).toHaveLength(1);
  });

  it('cancels a task through another API process while the one that started it still waits: the run is withdrawn', async () => {
    const queue = new SlowQueue();
    const tasks = createMemoryTaskStore();
    const first = await serve(queue, tasks);
    const second = await serve(queue, tasks);
    const taskId = ((await runCall(first, 604, WITH_TASKS))['result'] as Record<string, unknown>)['taskId'] as string;
    expect(((await taskCall(second, 'tasks/cancel', taskId))['result'] as Record<string, unknown>)['resultType']).toBe('complete');
    // The first process finds the task cancelled in the store and withdraws its own wait.
    for (let i = 0; i < 500 && queue.cancelled.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(queue.cancelled).toHaveLength(1);
    expect(queue.computed).toHaveLength(1);
    expect(((await taskCall(first, 'tasks/get', taskId))['result'] as Record<string, unknown>)['status']).toBe('cancelled');
  });

  it('reports a run\'s progress from any API process, not only the one that watches the run', async () => {
    const queue = new SlowQueue();
    const tasks = createMemoryTaskStore();
    const first = await serve(queue, tasks);
    const taskId = ((await runCall(first, 605, WITH_TASKS))['result'] as Record<string, unknown>)['taskId'] as string;
    queue.report(3, 'solver call 3');
    let message: unknown;
    for (let i = 0; i < 500; i++) {
      message = (await tasks.get(null, taskId))?.status_message;
      if (message === 'solver call 3 (3)') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(message).toBe('solver call 3 (3)');
    // A process that does not watch the run reads it from the store.
    const service = createTaskService({ store: tasks, graceMs: 50, pollIntervalMs: 10 });
    const elsewhere = apiOver(new SlowQueue());
    expect(await service.get(elsewhere, { taskId })).toMatchObject({ status: 'working', statusMessage: 'solver call 3 (3)' });
    queue.release();
    expect(await pollUntil(first, taskId, 'completed')).toMatchObject({ statusMessage: 'the run finished' });
  });

  it('makes a task for a client that declares tasks even when it passes a progress token (its progress is read with tasks/get)', async () => {
    const queue = new SlowQueue();
    const server = await serve(queue, createMemoryTaskStore());
    const messages = await rpcMessages(server, 'tools/call', 'math.run', {
      name: 'math.run',
      arguments: { capability_id: 'test.square', mode: 'EXPLORE', payload: { n: 606 } },
      _meta: { ...WITH_TASKS, progressToken: 'p-1' },
    });
    expect(messages).toHaveLength(1);
    const handle = messages[0]?.['result'] as Record<string, unknown>;
    expect(handle).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = handle['taskId'] as string;
    queue.report(2, 'halfway');
    for (let i = 0; i < 500; i++) {
      const task = (await taskCall(server, 'tasks/get', taskId))['result'] as Record<string, unknown>;
      if (task['statusMessage'] === 'halfway (2)') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(((await taskCall(server, 'tasks/get', taskId))['result'] as Record<string, unknown>)['statusMessage']).toBe('halfway (2)');
    queue.release();
    const done = await pollUntil(server, taskId, 'completed');
    expect(done['result']).toMatchObject({ structuredContent: { output: { square: 367_236 } } });
    expect(queue.computed).toHaveLength(1);
  });

  it('still streams progress notifications on the same call to a client that did not declare tasks', async () => {
    const queue = new SlowQueue();
    const server = await serve(queue, createMemoryTaskStore());
    const pending = rpcMessages(server, 'tools/call', 'math.run', {
      name: 'math.run',
      arguments: { capability_id: 'test.square', mode: 'EXPLORE', payload: { n: 607 } },
      _meta: { ...META, progressToken: 'p-2' },
    });
    for (let i = 0; i < 500 && queue.computed.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    queue.report(1, 'started');
    await new Promise((resolve) => setTimeout(resolve, 300));
    queue.release();
    const messages = await pending;
    expect(messages.filter((message) => message['method'] === 'notifications/progress')[0]?.['params']).toMatchObject({ progressToken: 'p-2', progress: 1, message: 'started' });
    expect((messages.at(-1)?.['result'] as Record<string, unknown>)['structuredContent']).toMatchObject({ output: { square: 368_449 } });
  });

  it('keeps tenants\' tasks apart', async () => {
    const queue = new SlowQueue();
    const taskStore = createMemoryTaskStore();
    const service = createTaskService({ store: taskStore, graceMs: 20 });
    const api = createApi({
      installed: () => [SQUARE],
      policy: OperatorPolicySchema.parse({}),
      queue,
      artifacts: store,
      trustedCheckerKeys: new Map(),
      tenants: { artifacts: () => store, reasoning: () => undefined },
    });
    const handle = (await service.callRun(api.forTenant('acme'), { capability_id: 'test.square', mode: 'EXPLORE', payload: { n: 700 } }, new AbortController().signal)) as Record<string, unknown>;
    const taskId = handle['taskId'] as string;
    expect(await service.get(api.forTenant('acme'), { taskId })).toMatchObject({ status: 'working' });
    expect(await service.get(api.forTenant('globex'), { taskId })).toMatchObject({ error: { code: -32602 } });
    expect(await service.cancel(api, { taskId })).toMatchObject({ error: { code: -32602 } });
    queue.release();
  });

  it('declares the tasks extension to clients', async () => {
    const server = await serve(new SlowQueue(), createMemoryTaskStore());
    const client = new Client({ name: 'tasks-test', version: '0.0.1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      expect(client.getServerCapabilities()?.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    } finally {
      await client.close();
    }
  });
});
