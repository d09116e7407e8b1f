/**
 * The cluster adapter of the run-queue port, API side: runs become BullMQ jobs in Redis and
 * their results come back through BullMQ's event stream. The semantics are the embedded
 * adapter's, stretched across processes:
 *
 * - the job ID is the run's deterministic `job_id`, so one request is one job cluster-wide;
 * - a completed answer still stored in Redis is returned without computing again;
 * - cancellation is by withdrawal: when the last waiter in every API process has gone, the job
 *   is removed if it has not started, and its runner is told to abort it if it has; an API
 *   process that closes leaves its jobs running (its callers are gone, but a task or a retry
 *   may ask for the same job again);
 * - Redis being unreachable is an ERROR result (QUEUE_UNAVAILABLE), never a hang;
 * - a split run (see ShardHandler) is one job to its callers: withdrawing its last caller cancels
 *   its unfinished children too, and its progress counts the children that have finished.
 */
import { Queue, QueueEvents, type JobState } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';

import { SpanKind } from '@opentelemetry/api';

import { errorDiagnostic } from '../capabilities/diagnostics.js';
import { cancelChildren, createQueueCache } from './bullmq-fanout.js';
import { nonConclusionResult, type AdmittedRun } from '../capabilities/host.js';
import { validProgress, type ProgressListener } from '../contracts/progress.js';
import type { CapabilityResult } from '../contracts/result.js';
import { JacobianError, toAppError } from '../errors.js';
import {
  decodeJobFailure,
  defaultRunQueueName,
  parseRunJobResult,
  runQueueKeys,
  type RunJobData,
} from './job-data.js';
import type { RunQueue, RunTarget } from './run-queue.js';
import { activeTracer, inSpan, messagingSpanAttributes } from '../telemetry/instrumentation.js';
import { injectTraceContext } from '../telemetry/trace-context.js';

/**
 * How to reach Redis: ioredis options, optionally with a `redis://` URL. Key prefixes belong in
 * the adapters' `prefix` option (BullMQ refuses ioredis' `keyPrefix`).
 */
export type RedisConnectionOptions = Omit<RedisOptions, 'retryStrategy' | 'keyPrefix'> & {
  url?: string;
  /** Delay before reconnection attempt `times`, or null to stop. Default: 100 ms per attempt, at most 2 s. */
  retryStrategy?: (times: number) => number | null;
};

/** How long finished jobs stay in Redis. */
export interface KeepJobsOptions {
  ageSeconds: number;
  count: number;
}

/** Options of {@link createBullmqRunQueue}. */
export interface BullmqRunQueueOptions {
  connection: RedisConnectionOptions;
  /** Prefix of every Redis key (BullMQ's `prefix`); distinct per deployment, and per test. Default `jacobian`. */
  prefix?: string;
  /** The BullMQ queue serving a target; runners must use the same mapping. Default {@link defaultRunQueueName}. */
  queueName?: (target: RunTarget) => string;
  /** Attempts per job when a runner fails for infrastructure reasons (not for any result). Default 3. */
  attempts?: number;
  /** First retry delay; it doubles with each attempt. Default 1000 ms. */
  backoffMs?: number;
  /** Completed jobs, whose answers serve repeated requests. Default one hour, at most 1000. */
  keepCompleted?: KeepJobsOptions;
  /** Failed jobs, kept for operators. Default one day, at most 1000. */
  keepFailed?: KeepJobsOptions;
  /**
   * How much longer than a run's wall-time budget a caller waits for its result (queueing,
   * retries, a stalled runner's recovery) before getting QUEUE_UNAVAILABLE. Default 60 000 ms.
   */
  resultMarginMs?: number;
  /** How long Redis may be unreachable before waiting callers get QUEUE_UNAVAILABLE. Default 5000 ms. */
  unavailableAfterMs?: number;
  /** Errors from background Redis activity that no caller is waiting on. Default: ignored. */
  onError?: (error: Error) => void;
}

type JobEvent =
  | { name: 'completed'; returnvalue: unknown }
  | { name: 'failed' | 'removed' | 'active' | 'waiting' | 'delayed' | 'stalled' };

interface Channel {
  readonly queue: Queue;
  readonly events: QueueEvents;
  readonly keys: ReturnType<typeof runQueueKeys>;
  readonly listeners: Map<string, Set<(event: JobEvent) => void>>;
}

type Phase = 'pending' | 'queued' | 'running';

/** One job ID being waited for in this process, shared by all its local callers. */
interface FlightState {
  readonly run: AdmittedRun;
  readonly data: RunJobData;
  readonly queueName: string;
  /** Aborted, with a JacobianError reason, when nobody in this process waits any more. */
  readonly controller: AbortController;
  /** Progress listeners of the callers in this process; every one hears every report. */
  readonly progressListeners: Set<ProgressListener>;
  waiters: number;
  phase: Phase;
}

interface Flight extends FlightState {
  readonly result: Promise<CapabilityResult>;
}

/** What Redis holds for a job ID right now. */
type Stored =
  /** `markerCleared`: the look also removed a stale cancel marker, so adding needs no extra step. */
  | { kind: 'missing'; markerCleared?: true }
  | { kind: 'pending'; phase: Phase }
  /** Completed with a COMPLETED result: an answer that serves any later request. */
  | { kind: 'answer'; result: CapabilityResult }
  /** Finished without an answer (CANCELLED, TIMEOUT or ERROR result, or failed). */
  | { kind: 'finished'; result: CapabilityResult };

/** A round ended because the job vanished (removed, or lost with Redis' memory); add it again. */
const GONE = Symbol('gone');

/** Rounds of add-and-wait per submission before giving up; each extra round is a rare race. */
const MAX_ROUNDS = 5;

/** Bound on each step of close(), which must finish even when Redis is gone. */
const CLOSE_STEP_MS = 2000;

const RELEASE_WAITER = `
local remaining = redis.call('DECR', KEYS[1])
if remaining <= 0 then redis.call('DEL', KEYS[1]) end
return remaining`;

/** {@link RELEASE_WAITER} for every key given, in one round trip. */
const RELEASE_WAITERS = `
for _, key in ipairs(KEYS) do
  if redis.call('DECR', key) <= 0 then redis.call('DEL', key) end
end
return #KEYS`;

/**
 * Callers who got their answer leave their waiter counts in batches: at most this long after
 * the answer, and at most {@link RELEASE_BATCH_MAX} per round trip. The count only matters
 * while the job is unfinished (it decides whether a withdrawal cancels it), so a late decrement
 * changes nothing; a withdrawal, which must reach the runner, is never batched.
 */
const RELEASE_BATCH_MS = 20;
const RELEASE_BATCH_MAX = 256;

/**
 * A caller's first step, in one round trip: count it as a waiter (KEYS[1], expiring after
 * ARGV[1] ms) and look whether the job's hash (KEYS[3]) exists. When it does not, the job will
 * be added fresh, so a cancel marker (KEYS[2]) left by an earlier, withdrawn job goes too.
 * Returns 1 when the job exists.
 */
const ENTER_WAITER = `
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
if redis.call('EXISTS', KEYS[3]) == 1 then return 1 end
redis.call('DEL', KEYS[2])
return 0`;

/** The two scripts, sent by SHA after their first use (ioredis' defineCommand). */
interface WaiterScripts {
  jacobianEnterWaiter(waiters: string, marker: string, job: string, ttlMs: number): Promise<number>;
  jacobianReleaseWaiter(waiters: string): Promise<number>;
  jacobianReleaseWaiters(count: number, ...waiters: string[]): Promise<number>;
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

/** Wait for `promise`, or stop waiting (the work continues) when `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(asError(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(asError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(asError(error));
      },
    );
  });
}

/** Settle within `ms` whatever happens; used where close() must not hang on a dead Redis. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

function resultForError(run: AdmittedRun, error: JacobianError): CapabilityResult {
  const status = error.code === 'EXECUTION_CANCELLED' ? 'CANCELLED' : error.code === 'EXECUTION_TIMEOUT' ? 'TIMEOUT' : 'ERROR';
  return nonConclusionResult(run, { status, diagnostics: [errorDiagnostic(error)] });
}

function phaseOf(state: JobState | 'unknown'): Phase {
  return state === 'active' ? 'running' : 'queued';
}

/**
 * Normalize connection options for BullMQ and our own clients. Reconnection is capped at 2 s
 * between tries (BullMQ's default climbs to 20 s), so a restarted Redis is found again quickly.
 */
export function resolveRedisConnection(connection: RedisConnectionOptions): RedisConnectionOptions {
  if ('keyPrefix' in connection) {
    throw new JacobianError('CONFIG_INVALID', 'connection.keyPrefix is not supported by BullMQ; use the prefix option');
  }
  return { retryStrategy: (times: number) => Math.min(100 * times, 2000), ...connection };
}

/** An ioredis client for the given connection options. */
export function createRedisClient(connection: RedisConnectionOptions, overrides: RedisOptions = {}): Redis {
  const { url, ...rest } = connection;
  return url === undefined ? new Redis({ ...rest, ...overrides }) : new Redis(url, { ...rest, ...overrides });
}

/**
 * Create the BullMQ adapter of {@link RunQueue}. Creating it never fails because Redis is
 * down: connections are made in the background, and a target's BullMQ queue on its first run.
 *
 * `submit` resolves a CapabilityResult in every run-level case: the runner's result, CANCELLED
 * when the caller's signal aborts, ERROR with QUEUE_UNAVAILABLE when Redis is unreachable for
 * `unavailableAfterMs` or no result arrives within the run's wall-time budget plus
 * `resultMarginMs`, ERROR with the runner's code when a job fails after all attempts. It
 * throws only for programming errors (a closed queue, a malformed run).
 *
 * @example
 * const queue = createBullmqRunQueue({ connection: { url: 'redis://127.0.0.1:6379' } });
 * const result = await queue.submit(admitRequest(request), { kind: 'pool', pool: 'light' }, { signal });
 * await queue.close();
 */
export function createBullmqRunQueue(options: BullmqRunQueueOptions): RunQueue {
  const connection = resolveRedisConnection(options.connection);
  const prefix = options.prefix ?? 'jacobian';
  const queueNameOf = options.queueName ?? defaultRunQueueName;
  const attempts = options.attempts ?? 3;
  const backoffMs = options.backoffMs ?? 1000;
  const keepCompleted = options.keepCompleted ?? { ageSeconds: 3600, count: 1000 };
  const keepFailed = options.keepFailed ?? { ageSeconds: 86_400, count: 1000 };
  const resultMarginMs = options.resultMarginMs ?? 60_000;
  const unavailableAfterMs = options.unavailableAfterMs ?? 5000;
  const report = (error: unknown): void => options.onError?.(asError(error));

  const flights = new Map<string, Flight>();
  const channels = new Map<string, Promise<Channel>>();
  const opened = new Set<Channel>();
  const releases = new Set<Promise<void>>();
  const readiness = new Set<(ready: boolean) => void>();
  let closed = false;
  let closing: Promise<void> | undefined;
  const closeController = new AbortController();
  /** Queues of split runs' children, opened when a withdrawal has children to remove. */
  const childQueues = createQueueCache(connection, prefix, report);

  // Our own client: waiter counts, cancel markers and messages, server time, and the
  // reachability signal every waiting caller watches.
  const redis = createRedisClient(connection, { lazyConnect: false });
  redis.defineCommand('jacobianEnterWaiter', { numberOfKeys: 3, lua: ENTER_WAITER });
  redis.defineCommand('jacobianReleaseWaiter', { numberOfKeys: 1, lua: RELEASE_WAITER });
  redis.defineCommand('jacobianReleaseWaiters', { lua: RELEASE_WAITERS });
  const scripts = redis as unknown as WaiterScripts;
  redis.on('error', report);
  /*
   * One outage signal shared by every waiting caller: it aborts with QUEUE_UNAVAILABLE once
   * Redis has been unreachable for `unavailableAfterMs` without a break, and a fresh one takes
   * its place for the callers that come after (who then wait a full period of their own).
   */
  let outage = new AbortController();
  let outageTimer: NodeJS.Timeout | undefined;
  const armOutage = (): void => {
    if (outageTimer !== undefined || closed) return;
    outageTimer = setTimeout(() => {
      outageTimer = undefined;
      const ended = outage;
      outage = new AbortController();
      ended.abort(
        new JacobianError('QUEUE_UNAVAILABLE', `the run queue's Redis has been unreachable for ${unavailableAfterMs} ms`, {
          hint: 'retry later; the operator should check Redis',
        }),
      );
      if (redis.status !== 'ready') armOutage();
    }, unavailableAfterMs);
    outageTimer.unref();
  };
  const disarmOutage = (): void => {
    clearTimeout(outageTimer);
    outageTimer = undefined;
  };
  redis.on('ready', () => {
    disarmOutage();
    for (const listener of [...readiness]) listener(true);
  });
  redis.on('close', () => {
    armOutage();
    for (const listener of [...readiness]) listener(false);
  });
  if (redis.status !== 'ready') armOutage();

  async function openChannel(queueName: string): Promise<Channel> {
    // Read events from the server's present moment: an event that lands before the reader's
    // first XREAD is still delivered, which `$` would lose. Raced with close, because an
    // ioredis client disconnected between reconnection attempts never fails its queued
    // commands: they would wait forever.
    const [seconds = 0, micros = 0] = (await abortable(redis.time(), closeController.signal)).map(Number);
    if (closed) throw new JacobianError('INTERNAL', 'the run queue is closed');
    const lastEventId = `${seconds * 1000 + Math.floor(micros / 1000)}-0`;
    const queue = new Queue(queueName, { connection, prefix });
    const events = new QueueEvents(queueName, { connection, prefix, lastEventId, autorun: false });
    const channel: Channel = { queue, events, keys: runQueueKeys(prefix, queueName), listeners: new Map() };
    opened.add(channel);
    const dispatch = (jobId: string, event: JobEvent): void => {
      for (const listener of [...(channel.listeners.get(jobId) ?? [])]) listener(event);
    };
    queue.on('error', report);
    events.on('error', report);
    events.on('completed', ({ jobId, returnvalue }) => dispatch(jobId, { name: 'completed', returnvalue: returnvalue as unknown }));
    events.on('progress', ({ jobId, data }: { jobId: string; data: unknown }) => {
      const flight = flights.get(jobId);
      // Written by a runner, read back from Redis: a malformed report is dropped.
      const progress = flight === undefined ? undefined : validProgress(data);
      if (flight === undefined || progress === undefined) return;
      for (const listener of [...flight.progressListeners]) listener(progress);
    });
    for (const name of ['failed', 'removed', 'active', 'waiting', 'delayed', 'stalled'] as const) {
      events.on(name, ({ jobId }: { jobId: string }) => dispatch(jobId, { name }));
    }
    return channel;
  }

  function channelFor(queueName: string): Promise<Channel> {
    const existing = channels.get(queueName);
    if (existing !== undefined) return existing;
    const opening = openChannel(queueName);
    const drop = (): void => {
      if (channels.get(queueName) === opening) channels.delete(queueName);
    };
    channels.set(queueName, opening);
    opening.then(
      (channel) =>
        channel.events.run().catch((error: unknown) => {
          // The event reader died (it retries connection errors itself); later submissions
          // open a fresh channel, and waiters on this one end at their deadline.
          report(error);
          drop();
        }),
      drop,
    );
    return opening;
  }

  async function readStored(channel: Channel, run: AdmittedRun): Promise<Stored> {
    // State first, then the job's fields: a finished job stays finished until it is removed,
    // whereas fields read first could belong to a moment before it finished.
    const state = await channel.queue.getJobState(run.job_id);
    switch (state) {
      case 'unknown':
        return { kind: 'missing' };
      case 'completed':
      case 'failed': {
        const job = await channel.queue.getJob(run.job_id);
        if (job === undefined) return { kind: 'missing' };
        // Removed and added again between the two reads: this is a new, unfinished job.
        if (job.finishedOn === undefined) return { kind: 'pending', phase: 'queued' };
        if (state === 'failed') return { kind: 'finished', result: resultForError(run, decodeJobFailure(job.failedReason)) };
        let result: CapabilityResult;
        try {
          result = parseRunJobResult(job.returnvalue);
        } catch (error) {
          return { kind: 'finished', result: resultForError(run, toAppError(error)) };
        }
        return result.execution.status === 'COMPLETED' ? { kind: 'answer', result } : { kind: 'finished', result };
      }
      case 'active':
      case 'delayed':
      case 'prioritized':
      case 'waiting':
      case 'waiting-children':
        return { kind: 'pending', phase: phaseOf(state) };
    }
  }

  async function addJob(channel: Channel, flight: FlightState, markerCleared: boolean): Promise<void> {
    const { run } = flight;
    // A fresh job must not inherit the cancel marker of an earlier, withdrawn one.
    if (!markerCleared) await redis.del(channel.keys.cancelMarker(run.job_id));
    const tracer = activeTracer();
    if (tracer === undefined) return enqueue(channel, flight);
    // The producer span: the job carries its context, and the runner's consumer span continues it.
    return inSpan(tracer, `publish ${flight.queueName}`, { kind: SpanKind.PRODUCER, attributes: messagingSpanAttributes(flight.run, flight.data.target, flight.queueName, 'send') }, () => {
      flight.data.trace = injectTraceContext();
      return enqueue(channel, flight);
    });
  }

  async function enqueue(channel: Channel, flight: FlightState): Promise<void> {
    const { run } = flight;
    await channel.queue.add(run.capability_id, flight.data, {
      jobId: run.job_id,
      attempts,
      backoff: { type: 'exponential', delay: backoffMs },
      removeOnComplete: { age: keepCompleted.ageSeconds, count: keepCompleted.count },
      removeOnFail: { age: keepFailed.ageSeconds, count: keepFailed.count },
    });
  }

  /**
   * One round: make sure the job exists (or serve the stored answer), then wait for it to
   * finish. Every event that could be stale or ambiguous is checked against Redis's current
   * state rather than trusted. `look` reads what Redis holds for the job; the first round's
   * look also registers the caller as a waiter (see {@link ENTER_WAITER}).
   */
  async function round(
    channel: Channel,
    flight: FlightState,
    signal: AbortSignal,
    look: () => Promise<Stored>,
  ): Promise<CapabilityResult | typeof GONE> {
    const { run } = flight;
    const jobId = run.job_id;
    return new Promise<CapabilityResult | typeof GONE>((resolve, reject) => {
      const listeners = channel.listeners.get(jobId) ?? new Set<(event: JobEvent) => void>();
      channel.listeners.set(jobId, listeners);
      let done = false;
      const finish = (outcome: CapabilityResult | typeof GONE | Error): void => {
        if (done) return;
        done = true;
        listeners.delete(onEvent);
        if (listeners.size === 0) channel.listeners.delete(jobId);
        readiness.delete(onReadiness);
        signal.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      // Phase changes seen as events; a state read that started before one of them is stale.
      let phaseChanges = 0;
      const setPhase = (phase: Phase): void => {
        phaseChanges++;
        flight.phase = phase;
      };
      const reconcile = (): void => {
        const changesBefore = phaseChanges;
        abortable(readStored(channel, run), signal).then((stored) => {
          switch (stored.kind) {
            case 'missing':
              finish(GONE);
              break;
            case 'pending':
              if (phaseChanges === changesBefore) flight.phase = stored.phase;
              break;
            case 'answer':
            case 'finished':
              finish(stored.result);
              break;
          }
        }, finish);
      };
      const onEvent = (event: JobEvent): void => {
        switch (event.name) {
          case 'completed': {
            let result: CapabilityResult;
            try {
              result = parseRunJobResult(event.returnvalue);
            } catch (error) {
              finish(resultForError(run, toAppError(error)));
              return;
            }
            // An answer is an answer whichever incarnation of the job produced it; anything
            // else may be the last word of an earlier, withdrawn job, so ask Redis.
            if (result.execution.status === 'COMPLETED') finish(result);
            else reconcile();
            return;
          }
          case 'failed':
          case 'removed':
            reconcile();
            return;
          case 'active':
            setPhase('running');
            return;
          case 'waiting':
          case 'delayed':
          case 'stalled':
            setPhase('queued');
            return;
        }
      };
      const onReadiness = (ready: boolean): void => {
        // Events may have been missed, or Redis restarted empty: look again.
        if (ready) reconcile();
      };
      const onAbort = (): void => finish(asError(signal.reason));
      listeners.add(onEvent);
      readiness.add(onReadiness);
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) {
        onAbort();
        return;
      }
      // Listening first, then looking, then adding: a job that finishes before the listener
      // is in place is found finished by the look, and one that finishes after it is heard
      // (BullMQ's events of a job follow its add). So a job this round adds, or finds
      // pending, needs no second look.
      const start = async (): Promise<void> => {
        const before = await look();
        switch (before.kind) {
          case 'answer':
            finish(before.result);
            return;
          case 'pending':
            if (phaseChanges === 0) flight.phase = before.phase;
            return;
          case 'finished':
            // A stored non-answer (cancelled, timed out, failed) is not served: compute afresh.
            await channel.queue.remove(jobId);
            break;
          case 'missing':
            break;
        }
        if (done) return;
        await addJob(channel, flight, before.kind === 'missing' && before.markerCleared === true);
        if (flight.phase === 'pending') flight.phase = 'queued';
      };
      abortable(start(), signal).then(undefined, finish);
    });
  }

  /** Waiter keys of answered callers, left together by {@link flushReleases}. */
  let answeredWaiters: string[] = [];
  let releaseTimer: NodeJS.Timeout | undefined;

  function track(work: Promise<void>): void {
    const tracked = work.catch(report).finally(() => releases.delete(tracked));
    releases.add(tracked);
  }

  function flushReleases(): void {
    clearTimeout(releaseTimer);
    releaseTimer = undefined;
    while (answeredWaiters.length > 0) {
      const batch = answeredWaiters.slice(0, RELEASE_BATCH_MAX);
      answeredWaiters = answeredWaiters.slice(RELEASE_BATCH_MAX);
      track(scripts.jacobianReleaseWaiters(batch.length, ...batch).then(() => undefined));
    }
  }

  function release(channel: Channel, run: AdmittedRun, cancel: boolean): void {
    const keys = channel.keys;
    if (!cancel) {
      answeredWaiters.push(keys.waiters(run.job_id));
      if (answeredWaiters.length >= RELEASE_BATCH_MAX) flushReleases();
      else if (releaseTimer === undefined) {
        releaseTimer = setTimeout(flushReleases, RELEASE_BATCH_MS);
        releaseTimer.unref();
      }
      return;
    }
    const ttlMs = run.budget.wall_time_ms + resultMarginMs;
    track((async () => {
      const remaining = Number(await scripts.jacobianReleaseWaiter(keys.waiters(run.job_id)));
      if (remaining > 0) return;
      // The marker first: a runner that picks the job up after the message still sees it.
      await redis.multi().set(keys.cancelMarker(run.job_id), '1', 'PX', ttlMs).publish(keys.cancelChannel, run.job_id).exec();
      // A split run's children, if it has any yet: those running are aborted, those waiting removed.
      await cancelChildren(redis, prefix, channel.queue.toKey(run.job_id), ttlMs, childQueues);
      // Removal succeeds only while the job waits (an active job is locked): it never starts.
      await channel.queue.remove(run.job_id);
    })());
  }

  async function drive(flight: FlightState): Promise<CapabilityResult> {
    const { run } = flight;
    const budgetMs = run.budget.wall_time_ms + resultMarginMs;
    const deadline = new AbortController();
    const timer = setTimeout(() => {
      deadline.abort(
        new JacobianError('QUEUE_UNAVAILABLE', `no result arrived within ${budgetMs} ms (the wall-time budget plus ${resultMarginMs} ms)`, {
          hint: 'no runner may be serving this pool, or the queue is backlogged; retry later',
        }),
      );
    }, budgetMs);
    timer.unref();
    const signal = AbortSignal.any([flight.controller.signal, deadline.signal, outage.signal]);
    let channel: Channel | undefined;
    let registered = false;
    let answered = false;
    try {
      channel = await abortable(channelFor(flight.queueName), signal);
      const entered = channel;
      const enter = async (): Promise<Stored> => {
        const { keys } = entered;
        const exists = await scripts.jacobianEnterWaiter(keys.waiters(run.job_id), keys.cancelMarker(run.job_id), entered.queue.toKey(run.job_id), budgetMs);
        registered = true;
        return exists === 1 ? readStored(entered, run) : { kind: 'missing', markerCleared: true };
      };
      let last: CapabilityResult | undefined;
      for (let attempt = 1; attempt <= MAX_ROUNDS; attempt++) {
        const outcome = await round(channel, flight, signal, attempt === 1 ? enter : () => readStored(entered, run));
        if (outcome === GONE) continue;
        last = outcome;
        // A CANCELLED result while we still wait comes from another process's withdrawal that
        // this caller joined too late: the caller still wants the answer, so start afresh.
        if (outcome.execution.status === 'CANCELLED' && attempt < MAX_ROUNDS) continue;
        answered = true;
        return outcome;
      }
      answered = true;
      return (
        last ??
        resultForError(run, new JacobianError('QUEUE_UNAVAILABLE', `job ${run.job_id} vanished from the queue ${MAX_ROUNDS} times in a row`))
      );
    } catch (error) {
      const reason: unknown = signal.aborted ? signal.reason : error;
      const appError =
        reason instanceof JacobianError
          ? reason
          : new JacobianError('QUEUE_UNAVAILABLE', `the run queue failed: ${asError(reason).message}`, { cause: reason });
      return resultForError(run, appError);
    } finally {
      clearTimeout(timer);
      // A caller's withdrawal cancels the job once nobody waits; this process closing does not:
      // the job runs on for whoever asks for it again (a task polled through another API
      // process, a client retrying after a restart), by its job ID.
      if (channel !== undefined && registered) release(channel, run, !answered && !closed);
    }
  }

  function startFlight(run: AdmittedRun, target: RunTarget): Flight {
    const state: FlightState = {
      run,
      // Built from an admitted run, field by field: the runner parses it as it reads it.
      data: {
        run: {
          capability_id: run.capability_id,
          mode: run.mode,
          payload: run.payload,
          budget: run.budget,
          request_digest: run.request_digest,
          job_id: run.job_id,
          ...(run.tenant === undefined ? {} : { tenant: run.tenant }),
        },
        target: target.kind === 'pool' ? { kind: 'pool', pool: target.pool } : { kind: 'checker' },
        trace: {},
      },
      queueName: queueNameOf(target),
      controller: new AbortController(),
      progressListeners: new Set(),
      waiters: 0,
      phase: 'pending',
    };
    const result = drive(state).finally(() => {
      if (flights.get(run.job_id) === state) flights.delete(run.job_id);
    });
    return Object.assign(state, { result });
  }

  return {
    submit(run, target, submitOptions = {}) {
      if (closed) return Promise.reject(new JacobianError('INTERNAL', 'the run queue is closed'));
      let flight = flights.get(run.job_id);
      if (flight === undefined) {
        try {
          flight = startFlight(run, target);
        } catch (error) {
          return Promise.reject(asError(error));
        }
        flights.set(run.job_id, flight);
      }
      const current = flight;
      current.waiters++;
      const { signal, onProgress } = submitOptions;
      if (onProgress !== undefined) {
        current.progressListeners.add(onProgress);
        void current.result.then(() => current.progressListeners.delete(onProgress));
      }
      if (signal === undefined) return current.result;
      return new Promise<CapabilityResult>((resolve) => {
        const onAbort = (): void => {
          if (onProgress !== undefined) current.progressListeners.delete(onProgress);
          current.waiters--;
          if (current.waiters === 0) {
            // Nobody here wants the answer: stop waiting, and let a retry start a new flight
            // rather than join this one.
            current.controller.abort(new JacobianError('EXECUTION_CANCELLED', 'every caller withdrew; the run was cancelled'));
            if (flights.get(run.job_id) === current) flights.delete(run.job_id);
          }
          resolve(resultForError(run, new JacobianError('EXECUTION_CANCELLED', 'the caller cancelled the run; nothing was concluded')));
        };
        if (signal.aborted) {
          onAbort();
          return;
        }
        signal.addEventListener('abort', onAbort, { once: true });
        void current.result.then((result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        });
      });
    },
    stats() {
      let queued = 0;
      let running = 0;
      for (const flight of flights.values()) {
        if (flight.phase === 'queued') queued++;
        else if (flight.phase === 'running') running++;
      }
      return { inFlight: flights.size, queued, running };
    },
    close() {
      closing ??= (async () => {
        closed = true;
        disarmOutage();
        const reason = new JacobianError('EXECUTION_CANCELLED', 'the run queue closed before the run finished; nothing was concluded');
        closeController.abort(new JacobianError('INTERNAL', 'the run queue is closed'));
        const pending = [...flights.values()];
        for (const flight of pending) flight.controller.abort(reason);
        await Promise.allSettled(pending.map((flight) => flight.result));
        flushReleases();
        // Withdrawals are best effort: with Redis gone they cannot land, and close must end.
        await settleWithin(Promise.allSettled([...releases]), CLOSE_STEP_MS);
        // Our client last-but-one: closing it fails any channel still being opened.
        const opening = [...channels.values()];
        channels.clear();
        if (redis.status === 'ready') await settleWithin(redis.quit(), CLOSE_STEP_MS);
        redis.disconnect();
        await Promise.allSettled(opening);
        for (const channel of opened) {
          await settleWithin(channel.events.close(), CLOSE_STEP_MS);
          await settleWithin(channel.queue.close(), CLOSE_STEP_MS);
        }
        opened.clear();
        await childQueues.close((work) => settleWithin(work, CLOSE_STEP_MS));
      })();
      return closing;
    },
  };
}
