import type { ProgressListener, RunProgress } from '../contracts/progress.js';
import type { CapabilityResult } from '../contracts/result.js';
import type { ShardChild } from '../capabilities/define.js';
import { nonConclusionResult, type AdmittedRun } from '../capabilities/host.js';
import { errorDiagnostic } from '../capabilities/diagnostics.js';
import { JacobianError, toAppError } from '../errors.js';
import { childWithoutResult, shardProgress } from './fanout.js';
import type { RunHandler, RunQueue, RunTarget, ShardChildRun, ShardHandler } from './run-queue.js';

export interface EmbeddedRunQueueOptions {
  /** Handler per producer pool name; one runner may serve several pools. */
  pools: ReadonlyMap<string, RunHandler>;
  checker?: RunHandler;
  /** Runs executing at once, across all targets. */
  concurrency: number;
  /** Completed results kept to answer a retried request without computing again. */
  completedCacheSize?: number;
  /**
   * Splits pool runs whose capability declares a split plan, and merges their children (see
   * ShardHandler). Children are ordinary runs of this queue, under the same concurrency limit;
   * the parent holds no slot while they run, and its wall-time budget bounds the whole fan-out.
   * Default: no run is split.
   */
  shards?: ShardHandler;
}

interface Job {
  readonly run: AdmittedRun;
  readonly target: RunTarget;
  /** A child of a split run: never split again. */
  readonly child: boolean;
  readonly handler: RunHandler;
  readonly controller: AbortController;
  readonly result: Promise<CapabilityResult>;
  /** Progress listeners of the callers waiting now; every one hears every report. */
  readonly listeners: Set<ProgressListener>;
  waiters: number;
  started: boolean;
}

function cancelledResult(run: AdmittedRun): CapabilityResult {
  return nonConclusionResult(run, {
    status: 'CANCELLED',
    diagnostics: [errorDiagnostic(new JacobianError('EXECUTION_CANCELLED', 'the run was cancelled before it finished; nothing was concluded'))],
  });
}

/**
 * The in-process adapter of the run queue, with the semantics the cluster adapter keeps:
 * deterministic job IDs, one computation per job ID, FIFO admission under a concurrency
 * limit, cancellation that reaches the executing handler.
 */
export function createEmbeddedRunQueue(options: EmbeddedRunQueueOptions): RunQueue {
  const jobs = new Map<string, Job>();
  const waiting: (() => void)[] = [];
  const completed = new Map<string, CapabilityResult>();
  const cacheSize = options.completedCacheSize ?? 512;
  let running = 0;
  let closed = false;

  function remember(result: CapabilityResult): void {
    // Only completed runs are answers; a timeout or cancellation must be retryable.
    if (result.execution.status !== 'COMPLETED' || cacheSize === 0) return;
    completed.delete(result.execution.job_id);
    completed.set(result.execution.job_id, result);
    while (completed.size > cacheSize) {
      const oldest = completed.keys().next().value;
      if (oldest === undefined) break;
      completed.delete(oldest);
    }
  }

  async function acquireSlot(signal: AbortSignal): Promise<boolean> {
    if (running < options.concurrency) {
      running++;
      return true;
    }
    return new Promise<boolean>((resolve) => {
      const onAbort = (): void => {
        const index = waiting.indexOf(grant);
        if (index >= 0) waiting.splice(index, 1);
        resolve(false);
      };
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        running++;
        resolve(true);
      };
      waiting.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  function releaseSlot(): void {
    running--;
    const next = waiting.shift();
    if (next) next();
  }

  function emitter(job: Job): ProgressListener {
    return (progress: RunProgress) => {
      for (const listener of [...job.listeners]) listener(progress);
    };
  }

  function errorResult(run: AdmittedRun, error: unknown): CapabilityResult {
    return nonConclusionResult(run, { status: 'ERROR', diagnostics: [errorDiagnostic(toAppError(error))] });
  }

  /** Run the job whole, or plan its split, in a slot: a result, or the children to fan out to. */
  async function runOrPlan(job: Job, shards: ShardHandler | undefined): Promise<{ result: CapabilityResult } | { children: readonly ShardChildRun[] }> {
    const { run, controller } = job;
    if (!(await acquireSlot(controller.signal))) return { result: cancelledResult(run) };
    job.started = true;
    try {
      if (controller.signal.aborted) return { result: cancelledResult(run) };
      if (shards !== undefined && !job.child && job.target.kind === 'pool') {
        const decision = await shards.plan(run, controller.signal);
        if (decision !== null) return decision;
      }
      return { result: await job.handler(run, controller.signal, emitter(job)) };
    } catch (error) {
      return { result: errorResult(run, error) };
    } finally {
      releaseSlot();
    }
  }

  /**
   * Run a parent's children as ordinary jobs of this queue, holding no slot meanwhile (so a
   * parent never starves its own children, even at concurrency 1), then merge in a slot.
   */
  async function fanOut(parent: Job, shards: ShardHandler, children: readonly ShardChildRun[]): Promise<CapabilityResult> {
    const { run, controller } = parent;
    const startedAt = Date.now();
    const report = emitter(parent);
    const deadline = AbortSignal.timeout(run.budget.wall_time_ms);
    const stop = AbortSignal.any([controller.signal, deadline]);
    let done = 0;
    const settled = await Promise.all(
      children.map(async (child, index): Promise<ShardChild> => {
        let result: CapabilityResult;
        try {
          result = await enqueue(child.run, child.target, { signal: stop }, true);
        } catch (error) {
          // The queue closed (or no runner serves the child's pool): the child never ran.
          result = childWithoutResult(child.run, toAppError(error));
        }
        done++;
        report(shardProgress(done, children.length));
        // A child the parent's deadline cut short timed out, whatever its own budget said.
        if (result.execution.status === 'CANCELLED' && deadline.aborted && !controller.signal.aborted) {
          result = childWithoutResult(
            child.run,
            new JacobianError('EXECUTION_TIMEOUT', `the split run's wall-time budget of ${run.budget.wall_time_ms} ms ended before this shard finished`),
          );
        }
        return { index, job_id: child.run.job_id, result };
      }),
    );
    if (controller.signal.aborted) return cancelledResult(run);
    if (!(await acquireSlot(controller.signal))) return cancelledResult(run);
    try {
      return await shards.merge(run, settled, controller.signal, { startedAt, onProgress: report });
    } catch (error) {
      return errorResult(run, error);
    } finally {
      releaseSlot();
    }
  }

  async function execute(job: Job): Promise<CapabilityResult> {
    const shards = options.shards;
    const outcome = await runOrPlan(job, shards);
    if ('result' in outcome) return outcome.result;
    // runOrPlan plans only with a shard handler.
    if (shards === undefined) return errorResult(job.run, new JacobianError('INTERNAL', 'a run was split without a shard handler'));
    return fanOut(job, shards, outcome.children);
  }

  function handlerFor(target: RunTarget): RunHandler {
    const handler = target.kind === 'checker' ? options.checker : options.pools.get(target.pool);
    if (handler === undefined) {
      const name = target.kind === 'checker' ? 'the checker service' : `pool ${target.pool}`;
      throw new JacobianError('PROVIDER_UNAVAILABLE', `no runner serves ${name} in this process`);
    }
    return handler;
  }

  /** Submit a run, as a caller or (`child`) as a parent's child; see RunQueue.submit. */
  async function enqueue(
    run: AdmittedRun,
    target: RunTarget,
    submitOptions: { signal?: AbortSignal; onProgress?: ProgressListener },
    child: boolean,
  ): Promise<CapabilityResult> {
    if (closed) throw new JacobianError('INTERNAL', 'the run queue is closed');
    const cached = completed.get(run.job_id);
    if (cached !== undefined) return cached;
    let job = jobs.get(run.job_id);
    if (job === undefined) {
      const controller = new AbortController();
      const handler = handlerFor(target);
      const created: Job = {
        run,
        target,
        child,
        handler,
        controller,
        listeners: new Set(),
        waiters: 0,
        started: false,
        result: Promise.resolve().then(async () => {
          const result = await execute(created);
          // A cancelled job may already have been replaced by a fresh one under its ID.
          if (jobs.get(run.job_id) === created) jobs.delete(run.job_id);
          remember(result);
          return result;
        }),
      };
      job = created;
      jobs.set(run.job_id, job);
    }
    const current = job;
    current.waiters++;
    const { signal, onProgress } = submitOptions;
    if (onProgress !== undefined) {
      current.listeners.add(onProgress);
      const forget = (): void => void current.listeners.delete(onProgress);
      current.result.then(forget, forget);
    }
    if (signal === undefined) return current.result;
    return new Promise<CapabilityResult>((resolve, reject) => {
      const onAbort = (): void => {
        if (onProgress !== undefined) current.listeners.delete(onProgress);
        current.waiters--;
        // The last caller gone: nobody wants the answer, so stop computing it, and let a
        // retry of the same request start afresh rather than join the dying job.
        if (current.waiters === 0) {
          current.controller.abort();
          if (jobs.get(run.job_id) === current) jobs.delete(run.job_id);
        }
        resolve(cancelledResult(run));
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      current.result.then(
        (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  return {
    submit(run, target, submitOptions = {}) {
      return enqueue(run, target, submitOptions, false);
    },
    stats() {
      return { inFlight: jobs.size, queued: waiting.length, running };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const job of jobs.values()) job.controller.abort();
      await Promise.allSettled([...jobs.values()].map((job) => job.result));
    },
  };
}
