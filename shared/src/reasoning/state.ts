/**
 * The reasoning protocol as pure functions: {@link foldRun} turns a run's events into its
 * state, and the `decide*` functions turn a state plus a request into the one event to append
 * (or a typed rejection). No I/O and no clock here, so every rule is testable on its own and
 * the service can re-run a decision after a write conflict.
 */
import { canonicalDigest } from '../canonical-json.js';
import type { Mode } from '../contracts/capability.js';
import type { CapabilityResult } from '../contracts/result.js';
import { JacobianError, type JsonPath } from '../errors.js';
import {
  NextRequired,
  REASONING_ID_PATTERN,
  REASONING_MAX_ARTIFACT_URIS,
  REASONING_MAX_CYCLES,
  REASONING_MAX_EVENTS,
  REASONING_MAX_VIOLATIONS,
  type CallOutcomeEvent,
  type CallServerState,
  type ProtocolViolation,
  type ReasoningEntry,
  type ReasoningEvent,
  type ReasoningEventBody,
  type ReasoningMode,
  type ReasoningPhase,
  type ReportComparison,
  type ReportedOutcome,
  type ReportMatch,
} from './log.js';

/** One BEFORE_TOOL call and what happened to it. */
export interface CallState {
  readonly call_id: string;
  readonly capability_id: string;
  readonly mode: Mode;
  /** 1-based cycle number. */
  readonly cycle: number;
  /** The CALL_BOUND event's sequence and request digest, once a math.run carried this call. */
  bound: { sequence: number; request_digest: string } | null;
  outcome: CallOutcomeEvent | null;
  /** Set by the AFTER_TOOL that closed the cycle. */
  closed: { interpretation_status: 'INTERPRETED' | 'RESULT_UNAVAILABLE'; server_state: CallServerState } | null;
}

/** A run's state, folded from its events. */
export interface RunState {
  readonly run_id: string;
  /** Number of events, which is also the last sequence number. */
  length: number;
  finalized: boolean;
  /** BEFORE_TOOL entries so far. */
  cycles: number;
  /** PROTOCOL_VIOLATION events so far. */
  violations: number;
  /** The call whose cycle is open (BEFORE_TOOL written, AFTER_TOOL not yet). */
  open_call: CallState | null;
  readonly calls: Map<string, CallState>;
}

/** What a response tells the model about the run's next step. */
export interface NextStep {
  next_required: NextRequired;
  /** The phases reasoning.write accepts now. */
  allowed_next: ReasoningPhase[];
  /** One sentence saying what to do. */
  guidance: string;
}

function corrupt(runId: string, event: ReasoningEvent, rule: string): JacobianError {
  return new JacobianError('REASONING_LOG_CORRUPT', `reasoning log of run ${runId} is inconsistent at sequence ${event.sequence} (${event.type}): ${rule}`, {
    path: [runId, event.sequence],
  });
}

/**
 * Fold a run's events, in order, into its state. The events must number 1, 2, 3, … and obey
 * the protocol (they do when written through the service); anything else means the store was
 * damaged, and is refused rather than guessed at.
 *
 * @throws JacobianError `REASONING_LOG_CORRUPT` naming the run and the sequence number.
 */
export function foldRun(runId: string, events: readonly ReasoningEvent[]): RunState {
  const state: RunState = { run_id: runId, length: 0, finalized: false, cycles: 0, violations: 0, open_call: null, calls: new Map() };
  for (const event of events) {
    if (event.sequence !== state.length + 1) throw corrupt(runId, event, `expected sequence ${state.length + 1}`);
    if (event.run_id !== runId) throw corrupt(runId, event, `the event belongs to run ${event.run_id}`);
    if ((state.length === 0) !== (event.type === 'PLAN')) throw corrupt(runId, event, 'a run starts with exactly one PLAN');
    applyEvent(state, event);
    state.length = event.sequence;
  }
  return state;
}

function applyEvent(state: RunState, event: ReasoningEvent): void {
  const call = 'call_id' in event && event.call_id !== null ? state.calls.get(event.call_id) : undefined;
  switch (event.type) {
    case 'PLAN':
      return;
    case 'BEFORE_TOOL': {
      if (state.finalized || state.open_call !== null || call !== undefined) throw corrupt(state.run_id, event, 'a cycle opened out of order');
      const opened: CallState = { call_id: event.call_id, capability_id: event.capability_id, mode: event.mode, cycle: state.cycles + 1, bound: null, outcome: null, closed: null };
      state.calls.set(event.call_id, opened);
      state.open_call = opened;
      state.cycles += 1;
      return;
    }
    case 'CALL_BOUND':
      if (call === undefined || call.bound !== null || call.closed !== null) throw corrupt(state.run_id, event, 'a call bound out of order');
      call.bound = { sequence: event.sequence, request_digest: event.request_digest };
      return;
    case 'CALL_OUTCOME':
      // An outcome may arrive after the cycle was closed with RESULT_UNAVAILABLE: it is still a fact.
      if (call === undefined || call.bound === null || call.outcome !== null) throw corrupt(state.run_id, event, 'an outcome without a bound call');
      call.outcome = event;
      return;
    case 'AFTER_TOOL':
      if (call === undefined || state.open_call !== call) throw corrupt(state.run_id, event, 'an AFTER_TOOL for a call that is not open');
      call.closed = { interpretation_status: event.interpretation_status, server_state: event.server_state };
      state.open_call = null;
      return;
    case 'FINAL':
      if (state.finalized || state.open_call !== null) throw corrupt(state.run_id, event, 'FINAL with an open cycle');
      state.finalized = true;
      return;
    case 'PROTOCOL_VIOLATION':
      state.violations += 1;
      return;
  }
}

/** What the run needs next, for responses. */
export function nextStep(state: RunState): NextStep {
  const run = state.run_id;
  if (state.finalized) {
    return { next_required: NextRequired.NONE, allowed_next: [], guidance: `Run ${run} is finished; start a new run with PLAN.` };
  }
  const open = state.open_call;
  if (open === null) {
    if (state.cycles >= REASONING_MAX_CYCLES) {
      return { next_required: NextRequired.FINAL, allowed_next: ['FINAL'], guidance: `All ${REASONING_MAX_CYCLES} cycles of run ${run} are used; write FINAL.` };
    }
    return {
      next_required: NextRequired.BEFORE_TOOL_OR_FINAL,
      allowed_next: ['BEFORE_TOOL', 'FINAL'],
      guidance: `Write BEFORE_TOOL with reasoning_run_id ${run} before the next math.run, or FINAL when done.`,
    };
  }
  if (open.bound === null) {
    return {
      next_required: NextRequired.MATH_RUN,
      allowed_next: ['AFTER_TOOL'],
      guidance: `Call math.run for ${open.capability_id} in ${open.mode} mode with reasoning_run_id ${run} and reasoning_call_id ${open.call_id}, then write AFTER_TOOL (RESULT_UNAVAILABLE abandons the call).`,
    };
  }
  return {
    next_required: NextRequired.AFTER_TOOL,
    allowed_next: ['AFTER_TOOL'],
    guidance: `Write AFTER_TOOL for reasoning_call_id ${open.call_id} (RESULT_UNAVAILABLE if its result was lost).`,
  };
}

/** The error for a protocol breach; `data.violation` names it, `hint` says what to do instead. */
export function violationError(violation: ProtocolViolation, message: string, path: JsonPath, state: RunState | null): JacobianError {
  const next = state === null ? null : nextStep(state);
  return new JacobianError('REASONING_PROTOCOL_VIOLATION', message, {
    path,
    data: { violation, ...(state === null ? {} : { reasoning_run_id: state.run_id, next_required: next?.next_required }) },
    ...(next === null ? {} : { hint: next.guidance }),
  });
}

function limitError(message: string, path: JsonPath, data: Record<string, unknown>): JacobianError {
  return new JacobianError('REASONING_LIMIT_EXCEEDED', message, { path, data });
}

function checkRoom(state: RunState): void {
  if (state.length >= REASONING_MAX_EVENTS) {
    throw limitError(`reasoning run ${state.run_id} holds ${state.length} events; at most ${REASONING_MAX_EVENTS} are allowed`, ['reasoning_run_id'], {
      max_events: REASONING_MAX_EVENTS,
    });
  }
}

/** What a write appends, plus what its response reports. */
export interface WriteDecision {
  body: ReasoningEventBody;
  call_id: string | null;
  comparison: ReportComparison | null;
  violation: ProtocolViolation | null;
}

/**
 * Decide the event for an entry of an existing run (PLAN opens a run and needs no state).
 * Log integrity is enforced in both modes; the one difference is an INTERPRETED AFTER_TOOL
 * for a call without a recorded outcome: REQUIRED rejects it, AUDIT records it with
 * `violation: OUT_OF_ORDER` (so a legacy unbound math.run can still be interpreted).
 *
 * @param newCallId the ID a BEFORE_TOOL gets (unused for other phases).
 * @throws JacobianError `REASONING_PROTOCOL_VIOLATION` or `REASONING_LIMIT_EXCEEDED`.
 */
export function decideWrite(state: RunState, entry: Exclude<ReasoningEntry, { phase: 'PLAN' }>, mode: ReasoningMode, newCallId: string): WriteDecision {
  if (state.finalized) {
    throw violationError('OUT_OF_ORDER', `reasoning.write: run ${state.run_id} already has its FINAL entry; nothing can follow it`, ['phase'], state);
  }
  checkRoom(state);
  const open = state.open_call;
  switch (entry.phase) {
    case 'BEFORE_TOOL':
      if (open !== null) {
        throw violationError('OUT_OF_ORDER', `reasoning.write: BEFORE_TOOL while call ${open.call_id} is still open; one cycle at a time: write its AFTER_TOOL first`, ['phase'], state);
      }
      if (state.cycles >= REASONING_MAX_CYCLES) {
        throw limitError(`reasoning.write: run ${state.run_id} has used all ${REASONING_MAX_CYCLES} cycles; write FINAL`, ['phase'], { max_cycles: REASONING_MAX_CYCLES });
      }
      return {
        body: { type: 'BEFORE_TOOL', call_id: newCallId, capability_id: entry.capability_id, mode: entry.mode, summary: entry.summary },
        call_id: newCallId,
        comparison: null,
        violation: null,
      };
    case 'FINAL':
      if (open !== null) {
        throw violationError('OUT_OF_ORDER', `reasoning.write: FINAL while call ${open.call_id} is still open; write its AFTER_TOOL first`, ['phase'], state);
      }
      return { body: { type: 'FINAL', summary: entry.summary }, call_id: null, comparison: null, violation: null };
    case 'AFTER_TOOL':
      return decideAfterTool(state, entry, mode);
  }
}

function decideAfterTool(state: RunState, entry: Extract<ReasoningEntry, { phase: 'AFTER_TOOL' }>, mode: ReasoningMode): WriteDecision {
  const call = state.calls.get(entry.reasoning_call_id);
  const path = ['reasoning_call_id'];
  if (call === undefined) {
    throw violationError('UNKNOWN_CALL', `reasoning.write: run ${state.run_id} has no call ${entry.reasoning_call_id}`, path, state);
  }
  if (call !== state.open_call) {
    throw violationError('OUT_OF_ORDER', `reasoning.write: call ${call.call_id} already has its AFTER_TOOL`, path, state);
  }
  const serverState: CallServerState = call.outcome !== null ? 'OUTCOME_RECORDED' : call.bound !== null ? 'RUNNING_OR_LOST' : 'NOT_RUN';
  if (entry.interpretation_status === 'RESULT_UNAVAILABLE') {
    return {
      body: { type: 'AFTER_TOOL', call_id: call.call_id, interpretation_status: 'RESULT_UNAVAILABLE', summary: entry.summary, server_state: serverState, reported: null, comparison: null, violation: null },
      call_id: call.call_id,
      comparison: null,
      violation: null,
    };
  }
  let violation: ProtocolViolation | null = null;
  if (call.outcome === null) {
    const why =
      serverState === 'NOT_RUN'
        ? `call ${call.call_id} was never run; call math.run with its IDs first, or write RESULT_UNAVAILABLE to abandon it`
        : `the server has no outcome for call ${call.call_id} yet; wait for math.run's result, or write RESULT_UNAVAILABLE if it was lost`;
    if (mode === 'REQUIRED') throw violationError('OUT_OF_ORDER', `reasoning.write: AFTER_TOOL INTERPRETED, but ${why}`, ['interpretation_status'], state);
    violation = 'OUT_OF_ORDER';
  }
  const comparison = call.outcome === null ? null : compareReport(entry.report, call.outcome);
  return {
    body: { type: 'AFTER_TOOL', call_id: call.call_id, interpretation_status: 'INTERPRETED', summary: entry.summary, server_state: serverState, reported: entry.report, comparison, violation },
    call_id: call.call_id,
    comparison,
    violation,
  };
}

/** Compare the model's report with the recorded outcome, field by field (artifact URIs as sets). */
export function compareReport(report: ReportedOutcome, outcome: CallOutcomeEvent): ReportComparison {
  const same = (a: string, b: string): ReportMatch => (a === b ? 'MATCH' : 'MISMATCH');
  let uris: ReportMatch;
  if (report.artifact_uris === null) uris = 'NOT_REPORTED';
  else if (outcome.artifact_uris_truncated) uris = 'UNCHECKABLE';
  else {
    const reported = new Set(report.artifact_uris);
    const actual = new Set(outcome.artifact_uris);
    uris = reported.size === actual.size && [...reported].every((uri) => actual.has(uri)) ? 'MATCH' : 'MISMATCH';
  }
  return {
    execution_status: same(report.execution_status, outcome.execution_status),
    assurance_level: same(report.assurance_level, outcome.assurance_level),
    completeness_status: same(report.completeness_status, outcome.completeness_status),
    result_digest: report.result_digest === null ? 'NOT_REPORTED' : same(report.result_digest, outcome.result_digest),
    artifact_uris: uris,
  };
}

/** What the API knows about a math.run before submitting it. */
export interface BindRunRequest {
  /** From math.run's arguments; absent when the model sent none. */
  reasoning_run_id?: string | undefined;
  reasoning_call_id?: string | undefined;
  capability_id: string;
  mode: Mode;
  /** `sha256:<hex>`: the canonical request digest (the run's `execution.request_digest`). */
  request_digest: string;
}

/** A binding's outcome: the CALL_BOUND event to append, or the violation (with its error). */
export type BindDecision =
  | { kind: 'bind'; body: ReasoningEventBody }
  | { kind: 'violation'; violation: ProtocolViolation; error: JacobianError };

/**
 * Decide whether a math.run may bind its call. `state` is null when the request names no run,
 * a malformed one or an unknown one. Checks, in order: both IDs present (UNBOUND), the run
 * exists (UNKNOWN_RUN) and is not finished (OUT_OF_ORDER), the call exists (UNKNOWN_CALL), was
 * not bound before (REUSED), is still open (OUT_OF_ORDER), and capability and mode equal its
 * BEFORE_TOOL's (MISMATCHED). A violation appends nothing here; the service decides whether
 * to reject (REQUIRED) or record it (AUDIT).
 */
export function decideBind(state: RunState | null, request: BindRunRequest): BindDecision {
  const reject = (violation: ProtocolViolation, message: string, path: JsonPath): BindDecision => ({
    kind: 'violation',
    violation,
    error: violationError(violation, `math.run ${message}`, path, state),
  });
  if (request.reasoning_run_id === undefined) return reject('UNBOUND', 'carries no reasoning_run_id; write BEFORE_TOOL and pass both of its IDs', ['reasoning_run_id']);
  if (state === null) return reject('UNKNOWN_RUN', `names reasoning_run_id ${JSON.stringify(request.reasoning_run_id.slice(0, 80))}, which is no run; open one with PLAN`, ['reasoning_run_id']);
  if (request.reasoning_call_id === undefined) return reject('UNBOUND', 'carries no reasoning_call_id; write BEFORE_TOOL and pass the call ID it returns', ['reasoning_call_id']);
  if (state.finalized) return reject('OUT_OF_ORDER', `names run ${state.run_id}, which already has its FINAL entry`, ['reasoning_run_id']);
  const call = REASONING_ID_PATTERN.test(request.reasoning_call_id) ? state.calls.get(request.reasoning_call_id) : undefined;
  if (call === undefined) return reject('UNKNOWN_CALL', `names reasoning_call_id ${JSON.stringify(request.reasoning_call_id.slice(0, 80))}, which is no call of run ${state.run_id}`, ['reasoning_call_id']);
  if (call.bound !== null) return reject('REUSED', `reuses call ${call.call_id}, which is already bound to a math.run; write BEFORE_TOOL for a new call`, ['reasoning_call_id']);
  if (call !== state.open_call) return reject('OUT_OF_ORDER', `names call ${call.call_id}, whose cycle is already closed; write BEFORE_TOOL for a new call`, ['reasoning_call_id']);
  if (call.capability_id !== request.capability_id) {
    return reject('MISMATCHED', `runs capability ${request.capability_id}, but BEFORE_TOOL of call ${call.call_id} named ${call.capability_id}`, ['capability_id']);
  }
  if (call.mode !== request.mode) {
    return reject('MISMATCHED', `runs in ${request.mode} mode, but BEFORE_TOOL of call ${call.call_id} named ${call.mode}`, ['mode']);
  }
  checkRoom(state);
  return {
    kind: 'bind',
    body: { type: 'CALL_BOUND', call_id: call.call_id, capability_id: call.capability_id, mode: call.mode, request_digest: request.request_digest },
  };
}

/** The PROTOCOL_VIOLATION event AUDIT records for a rejected binding, or null when the run cannot take more. */
export function violationEvent(state: RunState, request: BindRunRequest, violation: ProtocolViolation, message: string): ReasoningEventBody | null {
  if (state.violations >= REASONING_MAX_VIOLATIONS || state.length >= REASONING_MAX_EVENTS) return null;
  const callId = request.reasoning_call_id !== undefined && REASONING_ID_PATTERN.test(request.reasoning_call_id) ? request.reasoning_call_id : null;
  return {
    type: 'PROTOCOL_VIOLATION',
    operation: 'math.run',
    violation,
    call_id: callId,
    capability_id: request.capability_id,
    mode: request.mode,
    request_digest: request.request_digest,
    message: message.slice(0, 1000),
  };
}

/** `sha256:` + the canonical digest of a CapabilityResult: what CALL_OUTCOME records and AFTER_TOOL may report. */
export function resultDigest(result: CapabilityResult): string {
  return `sha256:${canonicalDigest(result)}`;
}

/**
 * Decide the CALL_OUTCOME for a bound call's result, or null when the same outcome is already
 * recorded (a retried recordOutcome). A different second outcome is refused.
 */
export function decideOutcome(state: RunState, callId: string, result: CapabilityResult, digest = resultDigest(result)): ReasoningEventBody | null {
  const call = state.calls.get(callId);
  if (call?.bound == null) {
    throw violationError('UNKNOWN_CALL', `recordOutcome: call ${callId} of run ${state.run_id} is not bound`, ['reasoning_call_id'], state);
  }
  if (call.outcome !== null) {
    if (call.outcome.result_digest === digest) return null;
    throw violationError('REUSED', `recordOutcome: call ${callId} already has a different outcome`, ['reasoning_call_id'], state);
  }
  checkRoom(state);
  return {
    type: 'CALL_OUTCOME',
    call_id: callId,
    capability_id: result.capability_id,
    capability_version: result.capability_version,
    mode: result.mode,
    execution_status: result.execution.status,
    assurance_level: result.assurance.level,
    completeness_status: result.completeness.status,
    result_digest: digest,
    artifact_uris: result.artifact_uris.slice(0, REASONING_MAX_ARTIFACT_URIS),
    artifact_uris_truncated: result.artifact_uris.length > REASONING_MAX_ARTIFACT_URIS,
  };
}
