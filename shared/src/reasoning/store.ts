import { JacobianError } from '../errors.js';
import { REASONING_ID_PATTERN, ReasoningEventSchema, parseOrThrow, type ReasoningEvent } from './log.js';

/** The answer of a conditional append. */
export type AppendResult =
  | { appended: true }
  /** The run did not have `event.sequence - 1` events; `length` is how many it had. Nothing was written. */
  | { appended: false; length: number };

/**
 * The storage port of the reasoning log: one append-only, durable sequence of events per run.
 *
 * Stores know nothing of the protocol; they guarantee three things:
 * - `append` is conditional: it writes `event` only if the run then holds exactly
 *   `event.sequence - 1` events, atomically with that check, so sequence numbers are contiguous
 *   and two writers deciding from the same state cannot both succeed (compare-and-append);
 * - an acknowledged append is durable (survives a restart of the process; for Redis, as far as
 *   the server's own persistence goes);
 * - events are never updated or deleted.
 */
export interface ReasoningLogStore {
  /** All events of a run in sequence order; `[]` for a run that does not exist (or an ID that cannot be one). */
  read(runId: string): Promise<ReasoningEvent[]>;
  /** Append `event` to run `event.run_id` if it currently holds `event.sequence - 1` events. */
  append(event: ReasoningEvent): Promise<AppendResult>;
  /** Release resources; idempotent. The store refuses work afterwards. */
  close(): Promise<void>;
}

/** Validate an event before a store writes it; a bad one is a programming error (INTERNAL). */
export function checkEventToAppend(event: ReasoningEvent): ReasoningEvent {
  return parseOrThrow(ReasoningEventSchema, event, 'reasoning log store refuses an invalid event', 'INTERNAL');
}

/** Whether `runId` can name a run; stores use it before building a path or key from it. */
export function isRunId(runId: string): boolean {
  return REASONING_ID_PATTERN.test(runId);
}

/** The error of a store that was closed. */
export function storeClosed(operation: string): JacobianError {
  return new JacobianError('REASONING_LOG_UNAVAILABLE', `reasoning log store is closed; ${operation} refused`);
}

/** An I/O or connection failure of a store. */
export function storeUnavailable(operation: string, runId: string, error: unknown): JacobianError {
  return new JacobianError(
    'REASONING_LOG_UNAVAILABLE',
    `reasoning log ${operation} of run ${runId} failed: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error, path: [runId] },
  );
}
