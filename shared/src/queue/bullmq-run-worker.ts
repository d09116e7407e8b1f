/**
 * The cluster adapter of the run-queue port, runner side: BullMQ workers that take run jobs
 * for some targets and hand them to a {@link RunHandler}.
 *
 * The line between "retry" and "return" is the design's: a CapabilityResult of any status
 * (COMPLETED, TIMEOUT, CANCELLED, ERROR) is a run-level outcome and becomes the job's return
 * value, so it is never retried into a different answer. Only a handler that throws (its
 * process pool broke, Redis blinked) fails the job, and BullMQ retries it with backoff.
 *
 * Split runs (given `shards`): a parent job is planned by whichever runner takes it, which adds
 * the children as BullMQ child jobs in their own pools' queues and moves the parent to
 * `waiting-children`, giving its slot back; once every child has finished, BullMQ puts the
 * parent back in its queue and the runner that takes it merges the children's results.
 */
import { SpanKind, type Attributes, type Tracer } from '@opentelemetry/api';
import { UnrecoverableError, WaitingChildrenError, WaitingError, Worker, type Job } from 'bullmq';

import type { ShardChild } from '../capabilities/define.js';
import { errorDiagnostic } from '../capabilities/diagnostics.js';
import { nonConclusionResult, type AdmittedRun } from '../capabilities/host.js';
import { throttleProgress, type RunProgress } from '../contracts/progress.js';
import type { CapabilityResult } from '../contracts/result.js';
import { JacobianError, toAppError } from '../errors.js';
import { cancelChildren, createQueueCache, jobKey, parseJobKey } from './bullmq-fanout.js';
import { createRedisClient, resolveRedisConnection, type RedisConnectionOptions } from './bullmq-run-queue.js';
import { childWithoutResult, shardProgress } from './fanout.js';
import {
  decodeJobFailure,
  defaultRunQueueName,
  encodeJobFailure,
  parseRunJobData,
  parseRunJobResult,
  runQueueKeys,
  type Fanout,
  type RunJobData,
} from './job-data.js';
import type { RunHandler, RunTarget, ShardHandler } from './run-queue.js';
import { activeMetrics, activeTracer, markSpanError, messagingSpanAttributes, recordResult, targetPool } from '../telemetry/instrumentation.js';
import { extractTraceContext } from '../telemetry/trace-context.js';

/** Options of {@link createBullmqRunWorker}. */
export interface BullmqRunWorkerOptions {
  connection: RedisConnectionOptions;
  /** Must equal the API side's prefix. Default `jacobian`. */
  prefix?: string;
  /** The targets this process serves: its pools, or the checker. */
  targets: readonly RunTarget[];
  handler: RunHandler;
  /**
   * Splits pool runs whose capability declares a split plan, and merges their children (see
   * ShardHandler). Children inherit the parent job's attempts, backoff and retention. Default:
   * no run is split. Every runner of a deployment should be given the same.
   */
  shards?: ShardHandler;
  /** Jobs run at once per target queue. */
  concurrency: number;
  /** Must equal the API side's mapping. Default {@link defaultRunQueueName}. */
  queueName?: (target: RunTarget) => string;
  /**
   * How long a job's lock outlives its last renewal (renewed every half of it). A process that
   * dies loses its jobs to another runner after this, plus up to one stalled-check interval.
   * Default 30 000 ms.
   */
  lockDurationMs?: number;
  /** How often this process looks for jobs whose runner died. Default 30 000 ms. */
  stalledIntervalMs?: number;
  /** Runner deaths a job survives before it fails. Default 1. */
  maxStalledCount?: number;
  /** Default grace of {@link BullmqRunWorker.close}. Default 20 000 ms. */
  drainGraceMs?: number;
  /** Errors from background Redis activity. Default: ignored. */
  onError?: (error: Error) => void;
}

/** A runner process's consumer of the BullMQ run queue. */
export interface BullmqRunWorker {
  /** Resolves once every target's worker is connected and taking jobs. */
  waitUntilReady(options?: { signal?: AbortSignal }): Promise<void>;
  /** Jobs whose handler is running in this process now. */
  stats(): { running: number };
  /**
   * Stop taking jobs, let running ones finish for up to `graceMs` (default `drainGraceMs`),
   * then abort their signals. A job whose handler answers an abort with CANCELLED goes back
   * to the queue for another runner: the caller did not cancel it, this process is leaving.
   * Idempotent; later calls return the first call's promise.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Least time between two progress writes of one job. */
const PROGRESS_INTERVAL_MS = 250;

/** Abort reasons, as strings because BullMQ's cancelJob carries a string reason. */
const CANCELLED_BY_CALLER = 'jacobian:cancelled-by-caller';
const SHUTTING_DOWN = 'jacobian:runner-shutting-down';

/** After aborting running jobs at close, how long handlers get to return before we stop waiting. */
const ABORT_GRACE_MS = 10_000;

/** Bound on each connection shutdown at close, which must finish even when Redis is gone. */
const CLOSE_STEP_MS = 2000;

/**
 * How long a cancel message is remembered for a job this process does not hold (yet): a job
 * taken just after its message arrived is then cancelled before it starts.
 */
const REMEMBER_CANCEL_MS = 60_000;
/** Bound on the remembered cancel messages; the oldest go first. */
const REMEMBER_CANCEL_MAX = 100_000;
/**
 * Jobs created up to this long after the cancel subscription (re)started are checked against
 * their Redis cancel marker: their message may have been published before the subscription
 * took effect, and job timestamps come from the API host's clock.
 */
const SUBSCRIPTION_MARGIN_MS = 2000;

/**
 * How long the cancel markers a runner sets on a withdrawn parent's children live beyond the
 * parent's wall-time budget (the API side uses its result margin; this is its default).
 */
const CHILD_MARKER_MARGIN_MS = 60_000;

type LifecycleState = 'starting' | 'running' | 'draining' | 'closed';

/**
 * The consumer span of one activation of a job, continuing the trace its producer wrote into
 * the job data. BullMQ's control-flow errors (the job went back to wait, or waits for its
 * children) end the span without failing it; any other throw is an infrastructure failure.
 */
function consume(tracer: Tracer, job: Job, data: RunJobData, work: () => Promise<CapabilityResult>): Promise<CapabilityResult> {
  const attributes: Attributes = { ...messagingSpanAttributes(data.run, data.target, job.queueName, 'process'), 'jacobian.job.attempt': job.attemptsStarted };
  return tracer.startActiveSpan(`process ${job.queueName}`, { kind: SpanKind.CONSUMER, attributes }, extractTraceContext(data.trace), async (span) => {
    try {
      const result = await work();
      recordResult(span, result);
      return result;
    } catch (error) {
      if (error instanceof WaitingError || error instanceof WaitingChildrenError) span.setAttribute('jacobian.job.requeued', true);
      else markSpanError(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

function cancelledResult(run: AdmittedRun, when: string): CapabilityResult {
  return nonConclusionResult(run, {
    status: 'CANCELLED',
    diagnostics: [errorDiagnostic(new JacobianError('EXECUTION_CANCELLED', `the run was cancelled ${when}; nothing was concluded`))],
  });
}

function errorResult(run: AdmittedRun, error: JacobianError): CapabilityResult {
  return nonConclusionResult(run, { status: 'ERROR', diagnostics: [errorDiagnostic(error)] });
}

/**
 * Whether a thrown error is a run-level conclusion rather than an infrastructure failure: it
 * carries a known code that retrying cannot change. INTERNAL is what unknown errors become,
 * so it is treated as infrastructure and retried.
 */
function isConclusive(error: JacobianError): boolean {
  return error.code !== 'INTERNAL' && !error.retryable;
}

/**
 * The run a job's activation executes. The first activation gets the whole wall-time budget. A
 * job taken up again (its runner died and another took it over, its runner handed it back while
 * closing, or BullMQ retried it after an infrastructure failure) gets what is left of the budget
 * counted from the job's creation, as its caller's clock counts it (the API answers TIMEOUT at
 * the budget plus a grace from admission): undefined when nothing is left. The run's identity
 * (job ID, request digest) is unchanged; only the budget the host enforces shrinks.
 */
export function budgetLeft(run: AdmittedRun, job: Pick<Job, 'attemptsStarted' | 'timestamp'>, now = Date.now()): AdmittedRun | undefined {
  if (job.attemptsStarted <= 1) return run;
  const left = run.budget.wall_time_ms - Math.max(0, now - job.timestamp);
  if (left <= 0) return undefined;
  return { ...run, budget: { ...run.budget, wall_time_ms: left } };
}

function timedOutBeforeRestart(run: AdmittedRun): CapabilityResult {
  return nonConclusionResult(run, {
    status: 'TIMEOUT',
    diagnostics: [
      errorDiagnostic(
        new JacobianError(
          'EXECUTION_TIMEOUT',
          `the run's wall-time budget of ${run.budget.wall_time_ms} ms ended before another runner could take it up again (its first runner stopped); nothing was concluded`,
        ),
      ),
    ],
  });
}

async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return settled;
}

/**
 * Create the runner side of the BullMQ run queue: one BullMQ Worker per target queue, plus a
 * subscription to the queues' cancel channels. Jobs are taken only once that subscription is
 * live, so no cancellation can slip past a job that has started.
 *
 * @example
 * const worker = createBullmqRunWorker({
 *   connection: { url: 'redis://127.0.0.1:6379' },
 *   targets: [{ kind: 'pool', pool: 'light' }],
 *   handler: (run, signal) => executeCapability(installed, run, deps, signal),
 *   concurrency: 4,
 * });
 * process.once('SIGTERM', () => void worker.close());
 */
export function createBullmqRunWorker(options: BullmqRunWorkerOptions): BullmqRunWorker {
  if (options.targets.length === 0) throw new JacobianError('CONFIG_INVALID', 'a run worker needs at least one target');
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new JacobianError('CONFIG_INVALID', `concurrency must be a positive integer, not ${options.concurrency}`);
  }
  const connection = resolveRedisConnection(options.connection);
  const prefix = options.prefix ?? 'jacobian';
  const queueNameOf = options.queueName ?? defaultRunQueueName;
  const drainGraceMs = options.drainGraceMs ?? 20_000;
  const report = (error: unknown): void => options.onError?.(error instanceof Error ? error : new Error(String(error)));

  let state: LifecycleState = 'starting';
  let running = 0;
  let closing: Promise<void> | undefined;

  const commands = createRedisClient(connection);
  const subscriber = createRedisClient(connection);
  commands.on('error', report);
  subscriber.on('error', report);

  /*
   * Cancellation before a job starts. A caller's withdrawal sets the job's cancel marker,
   * publishes its ID to every runner of the queue, then removes the job if it still waits; a
   * later submission of the same request deletes the marker as it adds the job afresh. So a job
   * this process takes was either never cancelled, or cancelled while it waited and the removal
   * lost the race to us, or cancelled while another runner held it (which then died or handed
   * it back). We listen continuously from `subscribedSince`, so the message of the second kind
   * reached us and is remembered here. The marker, which alone is authoritative, is read from
   * Redis only for jobs we heard a cancel for, jobs that were started before, and jobs that may
   * predate our subscription: every other job is spared that round trip.
   */
  const cancelMessages = new Map<string, number>();
  let subscribedSince = Number.POSITIVE_INFINITY;
  subscriber.on('close', () => {
    subscribedSince = Number.POSITIVE_INFINITY;
  });
  subscriber.on('ready', () => {
    // ioredis subscribes again on reconnection; messages before that are lost to us.
    if (state !== 'starting') subscribedSince = Date.now();
  });
  function rememberCancel(jobId: string): void {
    const now = Date.now();
    cancelMessages.delete(jobId);
    cancelMessages.set(jobId, now);
    for (const [oldest, at] of cancelMessages) {
      if (at > now - REMEMBER_CANCEL_MS && cancelMessages.size <= REMEMBER_CANCEL_MAX) break;
      cancelMessages.delete(oldest);
    }
  }

  async function cancelRequested(job: Job, marker: string): Promise<boolean> {
    const heard = cancelMessages.get(job.id ?? '');
    const heardRecently = heard !== undefined && heard > Date.now() - REMEMBER_CANCEL_MS;
    const startedBefore = job.attemptsStarted > 1;
    const mayPredateSubscription = !(job.timestamp > subscribedSince + SUBSCRIPTION_MARGIN_MS);
    if (!heardRecently && !startedBefore && !mayPredateSubscription) return false;
    try {
      return (await commands.exists(marker)) > 0;
    } catch (error) {
      report(error);
      return false;
    }
  }

  /** Put the job back in the queue for another runner; BullMQ then leaves it alone. */
  async function requeue(job: Job, token: string | undefined): Promise<never> {
    await job.moveToWait(token);
    throw new WaitingError();
  }

  /** Queues of the children this process adds, and of the parents whose progress it reports. */
  const queues = createQueueCache(connection, prefix, report);

  /**
   * The parent's side of a split run, for a job that is not itself a child. First activation:
   * plan, and record the children in the job's data before adding any, so that every later
   * activation (after a stall, or to merge) works from the same children on any runner. Every
   * activation: add the children the parent does not know yet, then wait for them, giving the
   * slot back (throws WaitingChildrenError), or, when none is pending, merge their results.
   * Undefined: the run is not split.
   */
  async function splitStep(
    shards: ShardHandler,
    job: Job,
    token: string | undefined,
    data: RunJobData,
    signal: AbortSignal,
    keys: ReturnType<typeof runQueueKeys>,
    progress: (report: RunProgress) => void,
  ): Promise<CapabilityResult | undefined> {
    const { run } = data;
    let fanout: Fanout | undefined = data.fanout;
    if (fanout === undefined) {
      const decision = await shards.plan(run, signal);
      if (decision === null) return undefined;
      if ('result' in decision) return decision.result;
      fanout = {
        started_at: Date.now(),
        children: decision.children.map((child) => ({ run: child.run, target: child.target, queue: queueNameOf(child.target) })),
      };
      await job.updateData({ ...data, fanout });
    }
    const parentKey = jobKey(prefix, job.queueName, run.job_id);
    const linked = await commands
      .multi()
      .smembers(`${parentKey}:dependencies`)
      .hkeys(`${parentKey}:processed`)
      .hkeys(`${parentKey}:failed`)
      .exec();
    const known = new Set((linked ?? []).flatMap(([error, keysOf]) => (error === null && Array.isArray(keysOf) ? (keysOf as string[]) : [])));
    // Withdrawn while planning, before any child exists: nothing to start, nothing to cancel.
    if (known.size === 0 && signal.aborted && signal.reason === CANCELLED_BY_CALLER) return cancelledResult(run, 'before its shards started');
    for (const child of fanout.children) {
      if (known.has(jobKey(prefix, child.queue, child.run.job_id))) continue;
      const queue = queues.get(child.queue);
      // A job under this ID that the parent does not know is a leftover of an earlier parent
      // under the same ID (its answer is not this parent's): it goes before the child is added.
      await queue.remove(child.run.job_id);
      await queue.add(
        child.run.capability_id,
        { run: child.run, target: child.target, trace: data.trace },
        {
          jobId: child.run.job_id,
          parent: { id: run.job_id, queue: job.queueQualifiedName },
          // A child that fails every attempt is recorded as failed, and the parent still merges.
          ignoreDependencyOnFailure: true,
          ...(job.opts.attempts === undefined ? {} : { attempts: job.opts.attempts }),
          ...(job.opts.backoff === undefined ? {} : { backoff: job.opts.backoff }),
          ...(job.opts.removeOnComplete === undefined ? {} : { removeOnComplete: job.opts.removeOnComplete }),
          ...(job.opts.removeOnFail === undefined ? {} : { removeOnFail: job.opts.removeOnFail }),
        },
      );
    }
    if (await job.moveToWaitingChildren(token ?? '')) {
      // A caller's withdrawal that came while we planned found fewer children than we added;
      // the rest are cancelled here. (One that came after reads them all from Redis itself.)
      const withdrawn = (signal.aborted && signal.reason === CANCELLED_BY_CALLER) || (await commands.exists(keys.cancelMarker(run.job_id))) > 0;
      if (withdrawn) await cancelChildren(commands, prefix, parentKey, run.budget.wall_time_ms + CHILD_MARKER_MARGIN_MS, queues);
      throw new WaitingChildrenError();
    }
    const values: Record<string, unknown> = (await job.getChildrenValues()) ?? {};
    const failures = await job.getIgnoredChildrenFailures();
    const children = fanout.children.map((child, index): ShardChild => {
      const key = jobKey(prefix, child.queue, child.run.job_id);
      let result: CapabilityResult;
      if (Object.hasOwn(values, key)) {
        try {
          result = parseRunJobResult(values[key]);
        } catch (error) {
          result = childWithoutResult(child.run, toAppError(error));
        }
      } else if (Object.hasOwn(failures, key)) {
        result = childWithoutResult(child.run, decodeJobFailure(failures[key]));
      } else {
        result = childWithoutResult(child.run, new JacobianError('EXECUTION_CANCELLED', 'the shard was removed before it gave a result'));
      }
      return { index, job_id: child.run.job_id, result };
    });
    return shards.merge(run, children, signal, { startedAt: fanout.started_at, onProgress: progress });
  }

  /** Tell a parent's waiting callers how many of its children have finished. */
  async function reportParentProgress(parentKey: string): Promise<void> {
    const parent = parseJobKey(prefix, parentKey);
    if (parent === undefined) return;
    const counts = await commands
      .multi()
      .scard(`${parentKey}:dependencies`)
      .hlen(`${parentKey}:processed`)
      .hlen(`${parentKey}:failed`)
      .exec();
    const [pending = 0, processed = 0, failed = 0] = (counts ?? []).map(([error, count]) => (error === null ? Number(count) : 0));
    const total = pending + processed + failed;
    if (total === 0) return;
    await queues.get(parent.queueName).updateJobProgress(parent.jobId, shardProgress(processed + failed, total));
  }

  function processorFor(keys: ReturnType<typeof runQueueKeys>) {
    return async (job: Job, token: string | undefined, signal: AbortSignal | undefined): Promise<CapabilityResult> => {
      let run: AdmittedRun;
      let data: RunJobData;
      try {
        data = parseRunJobData(job.data);
        ({ run } = data);
        if (run.job_id !== job.id) {
          throw new JacobianError('INVALID_REQUEST', `job ${job.id ?? '?'} carries the run of job ${run.job_id}`);
        }
      } catch (error) {
        // Malformed data stays malformed: fail at once, without retries.
        throw new UnrecoverableError(encodeJobFailure(toAppError(error)));
      }
      const metrics = activeMetrics();
      // A job's wait is counted once: not for a retry, nor for a split parent coming back to merge.
      if (metrics !== undefined && job.attemptsStarted <= 1 && data.fanout === undefined) {
        metrics.queueWait(targetPool(data.target), ((job.processedOn ?? Date.now()) - job.timestamp) / 1000);
      }
      const tracer = activeTracer();
      if (tracer === undefined) return processRun(keys, job, token, signal, run, data);
      return consume(tracer, job, data, () => processRun(keys, job, token, signal, run, data));
    };
  }

  /** A parsed job's run: cancellation, the split step or the handler, and what goes back to BullMQ. */
  async function processRun(
    keys: ReturnType<typeof runQueueKeys>,
    job: Job,
    token: string | undefined,
    signal: AbortSignal | undefined,
    run: AdmittedRun,
    data: RunJobData,
  ): Promise<CapabilityResult> {
    // BullMQ passes a signal to a processor that declares three parameters, as this one does.
    const jobSignal = signal ?? new AbortController().signal;
    if (state === 'draining' || state === 'closed') return requeue(job, token);
    running++;
    try {
      if (jobSignal.aborted && jobSignal.reason === SHUTTING_DOWN) return await requeue(job, token);
      if (jobSignal.aborted || (await cancelRequested(job, keys.cancelMarker(run.job_id)))) {
        return cancelledResult(run, data.fanout === undefined ? 'before it started' : 'while its shards ran');
      }
      let result: CapabilityResult;
      // Progress goes to the job (BullMQ publishes it as a `progress` event), at most every
      // PROGRESS_INTERVAL_MS; a failed write is dropped, since progress is informational.
      const progress = throttleProgress((report: RunProgress) => {
        job.updateProgress(report).catch(() => undefined);
      }, PROGRESS_INTERVAL_MS);
      try {
        // A child is never split again; a parent splits, waits, or merges (see splitStep).
        const split = options.shards === undefined || job.parentKey !== undefined ? undefined : await splitStep(options.shards, job, token, data, jobSignal, keys, progress);
        if (split !== undefined) result = split;
        else {
          const left = budgetLeft(run, job);
          result = left === undefined ? timedOutBeforeRestart(run) : await options.handler(left, jobSignal, progress);
        }
      } catch (thrown) {
        if (thrown instanceof WaitingChildrenError) throw thrown;
        if (jobSignal.aborted && jobSignal.reason === SHUTTING_DOWN) return await requeue(job, token);
        if (jobSignal.aborted) return cancelledResult(run, 'while it ran');
        const error = toAppError(thrown);
        if (isConclusive(error)) return errorResult(run, error);
        throw new Error(encodeJobFailure(error), { cause: thrown });
      } finally {
        // Nothing after the answer: a late report would follow the completion event.
        progress.cancel();
      }
      // The handler's result is not parsed again here: the host checked it against the result
      // contract as it built it, and the API parses it as it arrives from Redis.
      if (result.execution.job_id !== run.job_id) {
        return errorResult(run, new JacobianError('INTERNAL', `the handler answered job ${result.execution.job_id} for job ${run.job_id}`));
      }
      if (result.execution.status === 'CANCELLED' && jobSignal.reason === SHUTTING_DOWN) return await requeue(job, token);
      return result;
    } finally {
      running--;
    }
  }

  const workers = new Map<string, Worker>();
  const byChannel = new Map<string, Worker>();
  for (const target of options.targets) {
    const queueName = queueNameOf(target);
    if (workers.has(queueName)) continue;
    const keys = runQueueKeys(prefix, queueName);
    const worker = new Worker(queueName, processorFor(keys), {
      connection,
      prefix,
      concurrency: options.concurrency,
      autorun: false,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount: options.maxStalledCount ?? 1,
    });
    worker.on('error', report);
    // The worker whose stalled check found the job counts it (each stall once, cluster-wide).
    const pool = targetPool(target);
    worker.on('stalled', () => activeMetrics()?.jobStalled(pool));
    if (options.shards !== undefined) {
      // After BullMQ recorded a child's end in its parent: the parent's callers hear the count.
      // A report about a parent that has just finished or gone is dropped.
      const childEnded = (job: Job | undefined): void => {
        if (job?.parentKey !== undefined) reportParentProgress(job.parentKey).catch(() => undefined);
      };
      worker.on('completed', childEnded);
      worker.on('failed', childEnded);
    }
    workers.set(queueName, worker);
    byChannel.set(keys.cancelChannel, worker);
  }

  subscriber.on('message', (channel: string, jobId: string) => {
    const worker = byChannel.get(channel);
    if (worker === undefined) return;
    rememberCancel(jobId);
    worker.cancelJob(jobId, CANCELLED_BY_CALLER);
  });

  // Cancel messages first, jobs second. Without Redis this waits for it: the process simply
  // starts serving once Redis is there.
  const starting = (async () => {
    await subscriber.subscribe(...byChannel.keys());
    if (state !== 'starting') return;
    subscribedSince = Date.now();
    state = 'running';
    for (const worker of workers.values()) worker.run().catch(report);
  })();
  starting.catch(report);

  return {
    async waitUntilReady(readyOptions = {}) {
      const signal = readyOptions.signal;
      const ready = (async () => {
        await starting;
        await Promise.all([...workers.values()].map((worker) => worker.waitUntilReady()));
      })();
      if (signal === undefined) return ready;
      signal.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
        signal.addEventListener('abort', onAbort, { once: true });
        ready.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
    stats() {
      return { running };
    },
    close(closeOptions = {}) {
      closing ??= (async () => {
        state = 'draining';
        const graceMs = closeOptions.graceMs ?? drainGraceMs;
        // BullMQ's close stops fetching at once and resolves when the running jobs are done.
        const drained = Promise.allSettled([...workers.values()].map((worker) => worker.close()));
        if (!(await settleWithin(drained, graceMs))) {
          for (const worker of workers.values()) worker.cancelAllJobs(SHUTTING_DOWN);
          if (!(await settleWithin(drained, ABORT_GRACE_MS))) {
            report(new JacobianError('INTERNAL', `run handlers did not stop within ${ABORT_GRACE_MS} ms of being aborted`));
          }
        }
        await queues.close((work) => settleWithin(work, CLOSE_STEP_MS));
        for (const client of [subscriber, commands]) {
          if (client.status === 'ready') await settleWithin(client.quit(), CLOSE_STEP_MS);
          client.disconnect();
        }
        state = 'closed';
      })();
      return closing;
    },
  };
}
