import { randomUUID } from 'node:crypto';

import { z } from 'zod';

import { Mode } from '../contracts/capability.js';
import { CapabilityResultSchema, type CapabilityResult } from '../contracts/result.js';
import { JacobianError } from '../errors.js';
import {
  eventsToJsonl,
  parseOrThrow,
  parseReasoningEntry,
  REASONING_ID_PATTERN,
  REASONING_MAX_CYCLES,
  ReasoningMode,
  reasoningRunUri,
  type ProtocolViolation,
  type ReasoningEvent,
  type ReasoningEventBody,
  type ReasoningPhase,
  type ReportComparison,
} from './log.js';
import {
  decideBind,
  decideOutcome,
  decideWrite,
  foldRun,
  nextStep,
  resultDigest,
  violationEvent,
  type BindRunRequest,
  type NextStep,
  type RunState,
} from './state.js';
import type { ReasoningLogStore } from './store.js';

/** Options of {@link createReasoningLog}. */
export interface ReasoningLogOptions {
  mode: ReasoningMode;
  /** Required unless `mode` is OFF. */
  store?: ReasoningLogStore;
  /** New run and call IDs; must be unguessable and match REASONING_ID_PATTERN. Default `crypto.randomUUID`. */
  idGenerator?: () => string;
  /** The time stamped on events. Default `() => new Date()`. */
  clock?: () => Date;
  /** Re-decisions after losing a compare-and-append race before giving up with REASONING_LOG_UNAVAILABLE. Default 32. */
  maxConflictRetries?: number;
}

/** The open call of a run, as responses show it. */
export interface OpenCall {
  reasoning_call_id: string;
  capability_id: string;
  mode: Mode;
  /** Whether a math.run has been bound to it. */
  bound: boolean;
  /** Whether the server has recorded that math.run's outcome. */
  outcome_recorded: boolean;
}

/** Where a run stands; part of every response. */
export interface RunPosition extends NextStep {
  reasoning_run_id: string;
  /** `reasoning://run/{run_id}`. */
  resource_uri: string;
  /** Sequence number of the last event. */
  sequence: number;
  cycles_used: number;
  cycles_remaining: number;
  finalized: boolean;
  open_call: OpenCall | null;
}

/** The answer to `reasoning.write`. */
export interface WriteReceipt extends RunPosition {
  phase: ReasoningPhase;
  /** BEFORE_TOOL: the new call's ID, to pass to math.run; AFTER_TOOL: the call it closed. */
  reasoning_call_id: string | null;
  /** AFTER_TOOL INTERPRETED with a recorded outcome: the per-field verdict on the report. */
  comparison: ReportComparison | null;
  /** AFTER_TOOL fields whose report differs from what the server recorded. */
  mismatched_fields: (keyof ReportComparison)[];
  /** AUDIT: the violation recorded with this entry, if any. */
  violation: ProtocolViolation | null;
}

/** What {@link ReasoningLog.bindRun} decided; hand it to {@link ReasoningLog.recordOutcome} after the run. */
export type ReasoningBinding =
  | { status: 'BOUND'; reasoning_run_id: string; reasoning_call_id: string; sequence: number }
  /**
   * AUDIT only: the math.run breaks the protocol and proceeds unbound. `recorded` says whether
   * a PROTOCOL_VIOLATION event was appended (not possible without a known run, or past the bound).
   */
  | { status: 'NOT_BOUND'; violation: ProtocolViolation; message: string; recorded: boolean };

/** A run's log, for the `reasoning://run/{run_id}` resource. */
export interface RunLog extends RunPosition {
  events: ReasoningEvent[];
  /** The resource text: one JSON event per line (`application/x-ndjson`). */
  jsonl: string;
}

/** The reasoning log service; see {@link createReasoningLog}. */
export interface ReasoningLog {
  readonly mode: ReasoningMode;
  /** Validate and append one model entry (`reasoning.write`'s arguments, unparsed). */
  write(input: unknown): Promise<WriteReceipt>;
  /** Bind a math.run to its BEFORE_TOOL call, before anything is submitted. */
  bindRun(request: BindRunRequest): Promise<ReasoningBinding>;
  /** Record a bound run's actual outcome; null for a NOT_BOUND binding. Idempotent. */
  recordOutcome(binding: ReasoningBinding, result: CapabilityResult): Promise<RunPosition | null>;
  /** A run's events and position. */
  read(runId: string): Promise<RunLog>;
}

const BindRunRequestSchema = z
  .object({
    // Anything the model sent is accepted here; a malformed ID is an unknown run or call, not a crash.
    reasoning_run_id: z.string().optional(),
    reasoning_call_id: z.string().optional(),
    capability_id: z.string().min(1).max(128),
    mode: z.enum(Mode),
    request_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  })
  .strict();

function position(state: RunState): RunPosition {
  const open = state.open_call;
  return {
    reasoning_run_id: state.run_id,
    resource_uri: reasoningRunUri(state.run_id),
    sequence: state.length,
    cycles_used: state.cycles,
    cycles_remaining: REASONING_MAX_CYCLES - state.cycles,
    finalized: state.finalized,
    open_call:
      open === null
        ? null
        : { reasoning_call_id: open.call_id, capability_id: open.capability_id, mode: open.mode, bound: open.bound !== null, outcome_recorded: open.outcome !== null },
    ...nextStep(state),
  };
}

/**
 * Create the reasoning log: the transport-independent core behind `reasoning.write`, the
 * math.run binding and the `reasoning://run/{run_id}` resource.
 *
 * Every mutation is read → fold → decide → conditional append; when another writer appended
 * first, the decision is made again on the new state. So two concurrent `bindRun`s for one call
 * bind it once, and the other sees REUSED.
 *
 * - `OFF`: every method throws REASONING_LOG_DISABLED (the wiring exposes nothing).
 * - `REQUIRED`: `bindRun` throws REASONING_PROTOCOL_VIOLATION for an unbound, unknown,
 *   mismatched, reused or out-of-order call, appending nothing, so a correct math.run can still
 *   bind the call afterwards.
 * - `AUDIT`: the same checks, but a violation is appended as a PROTOCOL_VIOLATION event (when
 *   the run is known) and `bindRun` returns NOT_BOUND: the math.run proceeds, unlogged.
 *
 * @example
 * const log = createReasoningLog({ mode: 'REQUIRED', store: createFileReasoningLogStore({ directory }) });
 * const { reasoning_run_id } = await log.write({ phase: 'PLAN', summary: 'Find the largest induced tree.' });
 * const before = await log.write({ phase: 'BEFORE_TOOL', reasoning_run_id, capability_id: 'graph.induced_tree.maximum.compute', mode: 'EXPLORE', summary: '…' });
 * const binding = await log.bindRun({ reasoning_run_id, reasoning_call_id: before.reasoning_call_id!, capability_id, mode, request_digest });
 * const result = await queue.submit(run, target);
 * await log.recordOutcome(binding, result);
 */
export function createReasoningLog(options: ReasoningLogOptions): ReasoningLog {
  const mode = options.mode;
  if (!Object.hasOwn(ReasoningMode, mode)) {
    throw new JacobianError('CONFIG_INVALID', `reasoning log mode must be OFF, AUDIT or REQUIRED, got ${String(mode)}`, { path: ['mode'] });
  }
  if (mode !== 'OFF' && options.store === undefined) {
    throw new JacobianError('CONFIG_INVALID', `reasoning log mode ${mode} needs a store`, { path: ['store'] });
  }
  const newId = options.idGenerator ?? randomUUID;
  const clock = options.clock ?? (() => new Date());
  const maxRetries = options.maxConflictRetries ?? 32;

  function storeOrRefuse(operation: string): ReasoningLogStore {
    if (mode === 'OFF' || options.store === undefined) {
      throw new JacobianError('REASONING_LOG_DISABLED', `the reasoning log is OFF; ${operation} is not available`, {
        hint: 'The operator enables it with reasoning-log mode AUDIT or REQUIRED.',
      });
    }
    return options.store;
  }

  function freshId(): string {
    const id = newId();
    if (!REASONING_ID_PATTERN.test(id)) throw new JacobianError('INTERNAL', 'the reasoning log idGenerator produced an ID outside REASONING_ID_PATTERN');
    return id;
  }

  /** The run's events and state; the state is null when it has no events. */
  async function load(store: ReasoningLogStore, runId: string): Promise<{ events: ReasoningEvent[]; state: RunState | null }> {
    const events = await store.read(runId);
    return { events, state: events.length === 0 ? null : foldRun(runId, events) };
  }

  function notFound(runId: string, field: string): JacobianError {
    return new JacobianError('REASONING_RUN_NOT_FOUND', `${field} ${JSON.stringify(runId.slice(0, 80))} names no reasoning run; open one with PLAN`, { path: [field] });
  }

  /**
   * Read → decide → conditional append, again after every lost race. `decide` returns the body
   * to append (or null for nothing) plus what to answer; it must be pure.
   */
  async function mutate<T>(
    store: ReasoningLogStore,
    runId: string,
    decide: (state: RunState | null) => { body: ReasoningEventBody | null; answer: (state: RunState | null) => T },
  ): Promise<T> {
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      const { events, state } = await load(store, runId);
      const { body, answer } = decide(state);
      if (body === null) return answer(state);
      const event: ReasoningEvent = { ...body, sequence: events.length + 1, run_id: runId, recorded_at: clock().toISOString() };
      const appended = await store.append(event);
      if (appended.appended) return answer(foldRun(runId, [...events, event]));
    }
    throw new JacobianError('REASONING_LOG_UNAVAILABLE', `reasoning run ${runId} kept changing under ${maxRetries + 1} attempts to append`, { path: [runId] });
  }

  return {
    mode,

    async write(input) {
      const store = storeOrRefuse('reasoning.write');
      const entry = parseReasoningEntry(input);
      if (entry.phase === 'PLAN') {
        const runId = freshId();
        const event: ReasoningEvent = { type: 'PLAN', summary: entry.summary, sequence: 1, run_id: runId, recorded_at: clock().toISOString() };
        const appended = await store.append(event);
        // A fresh random run ID cannot already have events unless the generator repeats itself.
        if (!appended.appended) throw new JacobianError('INTERNAL', `reasoning run ID ${runId} was already taken`);
        return { ...position(foldRun(runId, [event])), phase: 'PLAN', reasoning_call_id: null, comparison: null, mismatched_fields: [], violation: null };
      }
      const runId = entry.reasoning_run_id;
      const callId = entry.phase === 'BEFORE_TOOL' ? freshId() : '';
      return mutate(store, runId, (state) => {
        if (state === null) throw notFound(runId, 'reasoning_run_id');
        const decision = decideWrite(state, entry, mode, callId);
        return {
          body: decision.body,
          answer: (after): WriteReceipt => ({
            ...position(after ?? state),
            phase: entry.phase,
            reasoning_call_id: decision.call_id,
            comparison: decision.comparison,
            mismatched_fields:
              decision.comparison === null
                ? []
                : (Object.keys(decision.comparison) as (keyof ReportComparison)[]).filter((field) => decision.comparison?.[field] === 'MISMATCH'),
            violation: decision.violation,
          }),
        };
      });
    },

    async bindRun(raw) {
      const store = storeOrRefuse('binding a math.run');
      const request = parseOrThrow(BindRunRequestSchema, raw, 'bindRun', 'INVALID_REQUEST');
      const runId = request.reasoning_run_id;
      const known = runId !== undefined && REASONING_ID_PATTERN.test(runId);
      return mutate<ReasoningBinding>(store, known ? runId : '', (state) => {
        const decision = decideBind(known ? state : null, request);
        if (decision.kind === 'bind') {
          return {
            body: decision.body,
            answer: (after) => ({ status: 'BOUND', reasoning_run_id: runId!, reasoning_call_id: request.reasoning_call_id!, sequence: after?.length ?? 0 }),
          };
        }
        if (mode === 'REQUIRED') throw decision.error;
        const body = known && state !== null ? violationEvent(state, request, decision.violation, decision.error.message) : null;
        return {
          body,
          answer: () => ({ status: 'NOT_BOUND', violation: decision.violation, message: decision.error.message, recorded: body !== null }),
        };
      });
    },

    async recordOutcome(binding, raw) {
      const store = storeOrRefuse('recording a math.run outcome');
      if (binding.status === 'NOT_BOUND') return null;
      const result = parseOrThrow(CapabilityResultSchema, raw, 'recordOutcome result', 'INVALID_REQUEST', ['result']);
      const runId = binding.reasoning_run_id;
      // Computed once, outside the retry loop: canonicalizing a large result is the expensive part.
      const digest = resultDigest(result);
      return mutate(store, runId, (state) => {
        if (state === null) throw notFound(runId, 'reasoning_run_id');
        return { body: decideOutcome(state, binding.reasoning_call_id, result, digest), answer: (after) => position(after ?? state) };
      });
    },

    async read(runId) {
      const store = storeOrRefuse(`reading ${reasoningRunUri(String(runId))}`);
      const events = await store.read(runId);
      if (events.length === 0) throw notFound(runId, 'run_id');
      return { ...position(foldRun(runId, events)), events, jsonl: eventsToJsonl(events) };
    },
  };
}
