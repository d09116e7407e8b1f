/**
 * Admission of large math.run requests off the API's event loop.
 *
 * Checking a request costs time in proportion to its size: a 300 KB inline graph took about
 * 160 ms of zod parsing and canonical hashing on the API's one thread, and twenty of them
 * stalled every other request (math.find among them) for seconds. A request whose arguments
 * exceed {@link LARGE_REQUEST_BYTES} is therefore checked in a worker thread (admission-worker.ts):
 * the request schema, the payload against the capability's advertised input schema (its JSON
 * Schema; the cross-field rules of the capability's own schema are checked again by the runner
 * before it computes, as in the cluster), and the request digest. The caller keeps the payload;
 * only the verdict comes back.
 *
 * One worker, started on the first large request and stopped after a minute without one; the
 * worker thread never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';
import type { AdmittedRun, CapabilityDescriptor, Diagnostic, SerializedError } from '@jacobian/shared';

/**
 * Longest math.run arguments (as JSON) admitted at all, over every transport: the HTTP body
 * limit, applied to stdio too, whose messages have no limit of their own. Larger operands are
 * stored first (graph.construct.explicit, sat.cnf.materialize, artifact.put) and passed by URI.
 */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** Arguments longer than this (as JSON) are admitted in the worker; shorter ones on the API's thread, where they cost less than the hand-over. */
export const LARGE_REQUEST_BYTES = 64 * 1024;

const IDLE_MS = 60_000;

/** One request to admit, as the worker receives it. */
export interface AdmissionJob {
  id: number;
  args_json: string;
  tenant?: string;
  /** Absent when the request names no installed capability (the worker then reports only request errors). */
  capability?: { key: string; input_schema?: unknown };
}

/** What the worker made of a request. */
export type AdmissionVerdict =
  | { kind: 'admitted'; run: Omit<AdmittedRun, 'payload'> }
  /** The request itself is malformed (paths from the request's root). */
  | { kind: 'request_invalid'; diagnostics: Diagnostic[] }
  /** The payload does not satisfy the capability's input schema (paths under payload). */
  | { kind: 'payload_invalid'; diagnostics: Diagnostic[] }
  /** admitRequest refused it (a float in the payload…). */
  | { kind: 'refused'; error: SerializedError }
  | { kind: 'schema_missing' }
  /** The worker failed, or stopped: the caller admits on its own thread instead. */
  | { kind: 'crashed'; message: string };

export interface AdmissionPool {
  admit(argsJson: string, descriptor: CapabilityDescriptor | undefined, tenant: string | undefined): Promise<AdmissionVerdict>;
  close(): Promise<void>;
}

/** The worker's code: the compiled file beside this one, or the TypeScript source through tsx's loader. */
function startWorker(): Worker {
  const typescript = import.meta.url.endsWith('.ts');
  const entry = new URL(`./admission-worker.${typescript ? 'ts' : 'js'}`, import.meta.url);
  if (!typescript) return new Worker(entry);
  const loader = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  // From sources the workspaces resolve to their TypeScript too (see tsconfig.base.json's customConditions).
  return new Worker(bootstrap, { eval: true, execArgv: [...process.execArgv, '--conditions=jacobian-source'] });
}

export function createAdmissionPool(options: { idleMs?: number } = {}): AdmissionPool {
  const idleMs = options.idleMs ?? IDLE_MS;
  let worker: Worker | undefined;
  /** Schema keys the current worker was sent. */
  let sent = new Set<string>();
  const pending = new Map<number, (verdict: AdmissionVerdict) => void>();
  const keys = new WeakMap<CapabilityDescriptor, string>();
  let nextKey = 0;
  let nextId = 0;
  let idle: NodeJS.Timeout | undefined;
  let closed = false;

  const keyOf = (descriptor: CapabilityDescriptor): string => {
    let key = keys.get(descriptor);
    if (key === undefined) {
      key = `${descriptor.id}#${nextKey++}`;
      keys.set(descriptor, key);
    }
    return key;
  };

  function stopped(current: Worker, message: string): void {
    if (worker !== current) return;
    worker = undefined;
    sent = new Set();
    for (const resolve of pending.values()) resolve({ kind: 'crashed', message });
    pending.clear();
  }

  function running(): Worker {
    if (worker !== undefined) return worker;
    const started = startWorker();
    started.unref();
    started.on('message', (message: { id?: number; verdict?: AdmissionVerdict }) => {
      if (message.id === undefined || message.verdict === undefined) return;
      const resolve = pending.get(message.id);
      pending.delete(message.id);
      resolve?.(message.verdict);
      if (pending.size === 0) armIdle();
    });
    started.on('error', (error) => stopped(started, error.message));
    started.on('exit', (code) => stopped(started, `the admission worker stopped (exit ${code})`));
    worker = started;
    return started;
  }

  function armIdle(): void {
    clearTimeout(idle);
    idle = setTimeout(() => {
      const current = worker;
      if (current === undefined || pending.size > 0) return;
      stopped(current, 'idle');
      void current.terminate();
    }, idleMs);
    idle.unref();
  }

  function post(argsJson: string, descriptor: CapabilityDescriptor | undefined, tenant: string | undefined, withSchema: boolean): Promise<AdmissionVerdict> {
    if (closed) return Promise.resolve({ kind: 'crashed', message: 'the admission pool is closed' });
    clearTimeout(idle);
    const target = running();
    const id = nextId++;
    const job: AdmissionJob = { id, args_json: argsJson };
    if (tenant !== undefined) job.tenant = tenant;
    if (descriptor !== undefined) {
      const key = keyOf(descriptor);
      job.capability = withSchema || !sent.has(key) ? { key, input_schema: descriptor.input_schema } : { key };
      sent.add(key);
    }
    return new Promise<AdmissionVerdict>((resolve) => {
      pending.set(id, resolve);
      target.postMessage(job);
    });
  }

  return {
    async admit(argsJson, descriptor, tenant) {
      const verdict = await post(argsJson, descriptor, tenant, false);
      // The worker forgot the schema (it keeps a bounded number): once more, with it.
      return verdict.kind === 'schema_missing' ? post(argsJson, descriptor, tenant, true) : verdict;
    },
    async close() {
      closed = true;
      clearTimeout(idle);
      const current = worker;
      if (current === undefined) return;
      stopped(current, 'the admission pool is closed');
      await current.terminate();
    },
  };
}
