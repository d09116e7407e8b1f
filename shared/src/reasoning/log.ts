/**
 * The reasoning log's formats: what a model writes with `reasoning.write` (entries), what the
 * log stores (events), and the bounds that keep both small. The log is operational and
 * unverified: it never changes capability membership, mathematics or assurance.
 *
 * A run's log is an append-only sequence of events numbered 1, 2, 3, … without gaps:
 *
 * | event type           | written by                 | records                                             |
 * |----------------------|----------------------------|-----------------------------------------------------|
 * | `PLAN`               | model (opens the run)      | summary                                             |
 * | `BEFORE_TOOL`        | model (opens a cycle)      | call ID (server-chosen), capability ID, mode, summary |
 * | `CALL_BOUND`         | server, before math.run    | call ID, capability ID, mode, request digest        |
 * | `CALL_OUTCOME`       | server, after math.run     | actual capability/version/mode, execution status, assurance, completeness, result digest, artifact URIs |
 * | `AFTER_TOOL`         | model (closes the cycle)   | interpretation status, summary, the model's report, the server's per-field comparison |
 * | `FINAL`              | model (closes the run)     | summary                                             |
 * | `PROTOCOL_VIOLATION` | server, AUDIT mode only    | a math.run that REQUIRED would have rejected, and why |
 *
 * Payloads and outputs are never copied: only digests, statuses and artifact URIs.
 */
import { z } from 'zod';

import { ArtifactUriSchema } from '../artifacts/manifest.js';
import { AssuranceLevel, CapabilityIdSchema, Mode } from '../contracts/capability.js';
import { CompletenessStatus, ExecutionStatus } from '../contracts/result.js';
import { JacobianError, type ErrorCode, type JsonPath } from '../errors.js';

/** Operator setting. OFF (the default) removes the tool, its resource and math.run's extra fields. */
export const ReasoningMode = { OFF: 'OFF', AUDIT: 'AUDIT', REQUIRED: 'REQUIRED' } as const;
export type ReasoningMode = (typeof ReasoningMode)[keyof typeof ReasoningMode];

/** The four model-authored entries. */
export const ReasoningPhase = { PLAN: 'PLAN', BEFORE_TOOL: 'BEFORE_TOOL', AFTER_TOOL: 'AFTER_TOOL', FINAL: 'FINAL' } as const;
export type ReasoningPhase = (typeof ReasoningPhase)[keyof typeof ReasoningPhase];

/** How an AFTER_TOOL closes its cycle: the result was read, or its content was lost. */
export const InterpretationStatus = { INTERPRETED: 'INTERPRETED', RESULT_UNAVAILABLE: 'RESULT_UNAVAILABLE' } as const;
export type InterpretationStatus = (typeof InterpretationStatus)[keyof typeof InterpretationStatus];

/** How a math.run (or an AFTER_TOOL) broke the protocol. */
export const ProtocolViolation = {
  /** math.run without reasoning_run_id and/or reasoning_call_id. */
  UNBOUND: 'UNBOUND',
  /** No run has this reasoning_run_id. */
  UNKNOWN_RUN: 'UNKNOWN_RUN',
  /** The run has no call with this reasoning_call_id. */
  UNKNOWN_CALL: 'UNKNOWN_CALL',
  /** capability_id or mode differ from the call's BEFORE_TOOL. */
  MISMATCHED: 'MISMATCHED',
  /** The call was already bound to a math.run. */
  REUSED: 'REUSED',
  /** The entry or call comes at the wrong point of the run (a closed call, a finished run, a cycle still open, …). */
  OUT_OF_ORDER: 'OUT_OF_ORDER',
} as const;
export type ProtocolViolation = (typeof ProtocolViolation)[keyof typeof ProtocolViolation];

/** What the run needs next, as named in every response. */
export const NextRequired = {
  /** Nothing written yet: open a run. */
  PLAN: 'PLAN',
  /** No cycle open: start one with BEFORE_TOOL, or finish with FINAL. */
  BEFORE_TOOL_OR_FINAL: 'BEFORE_TOOL_OR_FINAL',
  /** A BEFORE_TOOL is open but not bound: call math.run with its IDs (or abandon it with RESULT_UNAVAILABLE). */
  MATH_RUN: 'MATH_RUN',
  /** The open call was run (or is running): interpret it with AFTER_TOOL. */
  AFTER_TOOL: 'AFTER_TOOL',
  /** All cycles are used: only FINAL remains. */
  FINAL: 'FINAL',
  /** The run is finished. */
  NONE: 'NONE',
} as const;
export type NextRequired = (typeof NextRequired)[keyof typeof NextRequired];

/** What the server knew about a call when its AFTER_TOOL arrived. */
export const CallServerState = {
  /** The math.run finished and its outcome is recorded. */
  OUTCOME_RECORDED: 'OUTCOME_RECORDED',
  /** The call was bound but no outcome is recorded (still running, or lost). RESULT_UNAVAILABLE then records it as an ERROR non-conclusion. */
  RUNNING_OR_LOST: 'RUNNING_OR_LOST',
  /** The call was never bound to a math.run. */
  NOT_RUN: 'NOT_RUN',
} as const;
export type CallServerState = (typeof CallServerState)[keyof typeof CallServerState];

/** The server's verdict on one field of the model's AFTER_TOOL report. */
export const ReportMatch = {
  MATCH: 'MATCH',
  MISMATCH: 'MISMATCH',
  /** The model left the (optional) field out. */
  NOT_REPORTED: 'NOT_REPORTED',
  /** The server kept only the first {@link REASONING_MAX_ARTIFACT_URIS} URIs, so a full comparison is impossible. */
  UNCHECKABLE: 'UNCHECKABLE',
} as const;
export type ReportMatch = (typeof ReportMatch)[keyof typeof ReportMatch];

// ---------------------------------------------------------------------------------------------
// Bounds
// ---------------------------------------------------------------------------------------------

/** Longest summary, in Unicode characters (code points). */
export const REASONING_SUMMARY_MAX_CHARS = 512;
/** Longest summary, in UTF-8 bytes. */
export const REASONING_SUMMARY_MAX_BYTES = 2048;
/** Most BEFORE_TOOL → AFTER_TOOL cycles per run. */
export const REASONING_MAX_CYCLES = 64;
/** Most model-authored entries per run: one PLAN, two per cycle, one FINAL. */
export const REASONING_MAX_ENTRIES = 2 + 2 * REASONING_MAX_CYCLES;
/** Most PROTOCOL_VIOLATION events recorded per run (AUDIT); later ones are reported to the caller but not stored. */
export const REASONING_MAX_VIOLATIONS = 256;
/** Most events per run: the entries, a CALL_BOUND and a CALL_OUTCOME per cycle, and the violations. */
export const REASONING_MAX_EVENTS = REASONING_MAX_ENTRIES + 2 * REASONING_MAX_CYCLES + REASONING_MAX_VIOLATIONS;
/** Most artifact URIs kept in a CALL_OUTCOME or accepted in an AFTER_TOOL report. */
export const REASONING_MAX_ARTIFACT_URIS = 256;
/** Run and call IDs: unguessable bearer identifiers, safe as file names and Redis key parts. */
export const REASONING_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
/** A run's resource is `reasoning://run/{run_id}`. */
export const REASONING_RUN_URI_PREFIX = 'reasoning://run/';

/** The resource URI of a run. */
export function reasoningRunUri(runId: string): string {
  return `${REASONING_RUN_URI_PREFIX}${runId}`;
}

// ---------------------------------------------------------------------------------------------
// Entries (tool input)
// ---------------------------------------------------------------------------------------------

export const ReasoningIdSchema = z.string().regex(REASONING_ID_PATTERN, 'must be an ID returned by reasoning.write (16-64 characters of A-Z a-z 0-9 _ -)');
const DigestSchema = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256:<64 lowercase hex digits>');
// Bounds are checked after parsing, with messages that name both limits (see checkSummary).
const SummarySchema = z.string().describe(
  `a concise model-authored summary: at most ${REASONING_SUMMARY_MAX_CHARS} Unicode characters and ${REASONING_SUMMARY_MAX_BYTES} UTF-8 bytes; no prompts, credentials, personal data, payloads or copied tool output`,
);

/**
 * The flat argument object of `reasoning.write`, as the MCP tool advertises it (MCP tools take
 * an object schema, not a union). Which fields each phase requires or forbids is enforced by
 * {@link parseReasoningEntry}, which every caller must use.
 */
export const ReasoningWriteInputSchema = z
  .object({
    phase: z.enum(ReasoningPhase),
    summary: SummarySchema,
    reasoning_run_id: ReasoningIdSchema.optional().describe('BEFORE_TOOL, AFTER_TOOL, FINAL: the run ID returned by PLAN'),
    reasoning_call_id: ReasoningIdSchema.optional().describe('AFTER_TOOL: the call ID returned by BEFORE_TOOL'),
    capability_id: CapabilityIdSchema.optional().describe('BEFORE_TOOL: the exact capability ID math.run will be called with'),
    mode: z.enum(Mode).optional().describe('BEFORE_TOOL: the mode math.run will be called with'),
    interpretation_status: z.enum(InterpretationStatus).optional().describe('AFTER_TOOL: INTERPRETED, or RESULT_UNAVAILABLE when the result content was lost'),
    execution_status: z.enum(ExecutionStatus).optional().describe('AFTER_TOOL INTERPRETED: the execution status the result reported'),
    assurance_level: z.enum(AssuranceLevel).optional().describe('AFTER_TOOL INTERPRETED: the assurance level the result reported'),
    completeness_status: z.enum(CompletenessStatus).optional().describe('AFTER_TOOL INTERPRETED: the completeness status the result reported'),
    result_digest: DigestSchema.optional().describe('AFTER_TOOL INTERPRETED, optional: the result digest math.run reported'),
    artifact_uris: z
      .array(ArtifactUriSchema)
      .max(REASONING_MAX_ARTIFACT_URIS)
      .optional()
      .describe('AFTER_TOOL INTERPRETED, optional: the artifact URIs the result listed'),
  })
  .strict();
export type ReasoningWriteInput = z.infer<typeof ReasoningWriteInputSchema>;

/** What the model says the result was; the optional fields are null when left out. */
export interface ReportedOutcome {
  execution_status: ExecutionStatus;
  assurance_level: AssuranceLevel;
  completeness_status: CompletenessStatus;
  result_digest: string | null;
  artifact_uris: string[] | null;
}

/** A validated entry, one shape per phase. */
export type ReasoningEntry =
  | { phase: 'PLAN'; summary: string }
  | { phase: 'BEFORE_TOOL'; reasoning_run_id: string; capability_id: string; mode: Mode; summary: string }
  | {
      phase: 'AFTER_TOOL';
      reasoning_run_id: string;
      reasoning_call_id: string;
      interpretation_status: 'INTERPRETED';
      report: ReportedOutcome;
      summary: string;
    }
  | { phase: 'AFTER_TOOL'; reasoning_run_id: string; reasoning_call_id: string; interpretation_status: 'RESULT_UNAVAILABLE'; summary: string }
  | { phase: 'FINAL'; reasoning_run_id: string; summary: string };

type InputField = Exclude<keyof ReasoningWriteInput, 'phase' | 'summary'>;
const REPORT_REQUIRED: InputField[] = ['execution_status', 'assurance_level', 'completeness_status'];
const REPORT_OPTIONAL: InputField[] = ['result_digest', 'artifact_uris'];

/** Fields each phase requires; every other field is forbidden, except the optional report fields of INTERPRETED. */
const REQUIRED_FIELDS: Record<ReasoningPhase, InputField[]> = {
  PLAN: [],
  BEFORE_TOOL: ['reasoning_run_id', 'capability_id', 'mode'],
  AFTER_TOOL: ['reasoning_run_id', 'reasoning_call_id', 'interpretation_status'],
  FINAL: ['reasoning_run_id'],
};

/** Parse with a zod schema, turning the first issue into a JacobianError that names the field and the rule. */
export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, what: string, code: ErrorCode, prefix: JsonPath = []): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  let path: JsonPath = [...prefix, ...(issue?.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) ?? [])];
  let rule = issue?.message ?? 'invalid';
  if (issue?.code === 'unrecognized_keys') {
    path = [...path, ...issue.keys.slice(0, 1)];
    rule = `unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  }
  throw new JacobianError(code, `${what}: ${path.join('.') || '(root)'}: ${rule}`, { path });
}

/**
 * Check a summary's bounds: non-blank, well-formed Unicode, at most
 * {@link REASONING_SUMMARY_MAX_CHARS} characters (code points, as Python's `len` counts them)
 * and {@link REASONING_SUMMARY_MAX_BYTES} UTF-8 bytes. `limits` exists for tests.
 *
 * @throws JacobianError `INVALID_REQUEST` (blank, lone surrogate) or `SIZE_LIMIT_EXCEEDED`, path `['summary']`.
 */
export function checkSummary(
  summary: string,
  limits: { maxChars: number; maxBytes: number } = { maxChars: REASONING_SUMMARY_MAX_CHARS, maxBytes: REASONING_SUMMARY_MAX_BYTES },
): void {
  const path = ['summary'];
  if (summary.trim() === '') {
    throw new JacobianError('INVALID_REQUEST', 'reasoning.write: summary must not be blank', { path });
  }
  const bytes = new TextEncoder().encode(summary);
  // Lone surrogates have no UTF-8 form; the encoder replaces them, so the round trip differs.
  if (new TextDecoder().decode(bytes) !== summary) {
    throw new JacobianError('INVALID_REQUEST', 'reasoning.write: summary must be well-formed Unicode (it contains a lone surrogate)', { path });
  }
  const chars = [...summary].length;
  if (chars > limits.maxChars) {
    throw new JacobianError('SIZE_LIMIT_EXCEEDED', `reasoning.write: summary has ${chars} Unicode characters; at most ${limits.maxChars} are allowed`, {
      path,
      data: { chars, max_chars: limits.maxChars },
      hint: 'Summarize; do not copy tool output.',
    });
  }
  // With the shipped bounds this never fires after the character rule (a code point is at most
  // 4 bytes); it stays as the storage bound, independent of how characters are counted.
  if (bytes.byteLength > limits.maxBytes) {
    throw new JacobianError('SIZE_LIMIT_EXCEEDED', `reasoning.write: summary is ${bytes.byteLength} UTF-8 bytes; at most ${limits.maxBytes} are allowed`, {
      path,
      data: { bytes: bytes.byteLength, max_bytes: limits.maxBytes },
      hint: 'Summarize; do not copy tool output.',
    });
  }
}

/**
 * Validate `reasoning.write` arguments into a typed entry. Which fields a phase requires or
 * forbids is checked here (the advertised schema is flat), then the summary's bounds.
 *
 * @throws JacobianError `INVALID_REQUEST` or `SIZE_LIMIT_EXCEEDED`, with `path` naming the field.
 */
export function parseReasoningEntry(value: unknown): ReasoningEntry {
  const input = parseOrThrow(ReasoningWriteInputSchema, value, 'reasoning.write', 'INVALID_REQUEST');
  const { phase } = input;
  const unavailable = phase === 'AFTER_TOOL' && input.interpretation_status === 'RESULT_UNAVAILABLE';
  const required = [...REQUIRED_FIELDS[phase], ...(phase === 'AFTER_TOOL' && !unavailable ? REPORT_REQUIRED : [])];
  const optional = phase === 'AFTER_TOOL' && !unavailable ? REPORT_OPTIONAL : [];
  for (const field of required) {
    if (input[field] === undefined) {
      const when = REPORT_REQUIRED.includes(field) ? ' with interpretation_status INTERPRETED' : '';
      throw new JacobianError('INVALID_REQUEST', `reasoning.write: ${field} is required for phase ${phase}${when}`, { path: [field] });
    }
  }
  for (const field of Object.keys(input) as (keyof ReasoningWriteInput)[]) {
    if (field === 'phase' || field === 'summary' || required.includes(field) || optional.includes(field)) continue;
    if (input[field] === undefined) continue;
    const why = unavailable && [...REPORT_REQUIRED, ...REPORT_OPTIONAL].includes(field)
      ? ' with interpretation_status RESULT_UNAVAILABLE: the result was not seen, so nothing about it can be reported'
      : '';
    throw new JacobianError('INVALID_REQUEST', `reasoning.write: ${field} is not allowed for phase ${phase}${why}`, { path: [field] });
  }
  checkSummary(input.summary);

  // The checks above guarantee the fields read with `!` below.
  const summary = input.summary;
  switch (phase) {
    case 'PLAN':
      return { phase, summary };
    case 'BEFORE_TOOL':
      return { phase, reasoning_run_id: input.reasoning_run_id!, capability_id: input.capability_id!, mode: input.mode!, summary };
    case 'FINAL':
      return { phase, reasoning_run_id: input.reasoning_run_id!, summary };
    case 'AFTER_TOOL': {
      const ids = { reasoning_run_id: input.reasoning_run_id!, reasoning_call_id: input.reasoning_call_id! };
      if (unavailable) return { phase, ...ids, interpretation_status: 'RESULT_UNAVAILABLE', summary };
      const report: ReportedOutcome = {
        execution_status: input.execution_status!,
        assurance_level: input.assurance_level!,
        completeness_status: input.completeness_status!,
        result_digest: input.result_digest ?? null,
        artifact_uris: input.artifact_uris ?? null,
      };
      return { phase, ...ids, interpretation_status: 'INTERPRETED', report, summary };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Events (stored)
// ---------------------------------------------------------------------------------------------

const ReportedOutcomeSchema = z
  .object({
    execution_status: z.enum(ExecutionStatus),
    assurance_level: z.enum(AssuranceLevel),
    completeness_status: z.enum(CompletenessStatus),
    result_digest: DigestSchema.nullable(),
    artifact_uris: z.array(ArtifactUriSchema).max(REASONING_MAX_ARTIFACT_URIS).nullable(),
  })
  .strict();

/** The server's per-field verdict on an AFTER_TOOL report. */
export const ReportComparisonSchema = z
  .object({
    execution_status: z.enum(ReportMatch),
    assurance_level: z.enum(ReportMatch),
    completeness_status: z.enum(ReportMatch),
    result_digest: z.enum(ReportMatch),
    artifact_uris: z.enum(ReportMatch),
  })
  .strict();
export type ReportComparison = z.infer<typeof ReportComparisonSchema>;

const Summary = z.string().min(1).max(REASONING_SUMMARY_MAX_BYTES);
const base = {
  /** 1, 2, 3, … within the run, without gaps. */
  sequence: z.number().int().min(1).max(REASONING_MAX_EVENTS),
  run_id: ReasoningIdSchema,
  /** When the server appended the event (ISO 8601, UTC). Constrains post-hoc insertion; proves nothing. */
  recorded_at: z.string().min(1).max(40),
};

export const PlanEventSchema = z.object({ ...base, type: z.literal('PLAN'), summary: Summary }).strict();
export const BeforeToolEventSchema = z
  .object({ ...base, type: z.literal('BEFORE_TOOL'), call_id: ReasoningIdSchema, capability_id: CapabilityIdSchema, mode: z.enum(Mode), summary: Summary })
  .strict();
export const CallBoundEventSchema = z
  .object({
    ...base,
    type: z.literal('CALL_BOUND'),
    call_id: ReasoningIdSchema,
    capability_id: CapabilityIdSchema,
    mode: z.enum(Mode),
    /** The canonical digest of the math.run request, as the API computed it. */
    request_digest: DigestSchema,
  })
  .strict();
export const CallOutcomeEventSchema = z
  .object({
    ...base,
    type: z.literal('CALL_OUTCOME'),
    call_id: ReasoningIdSchema,
    capability_id: z.string().min(1).max(128),
    capability_version: z.string().max(64).nullable(),
    mode: z.enum(Mode),
    execution_status: z.enum(ExecutionStatus),
    assurance_level: z.enum(AssuranceLevel),
    completeness_status: z.enum(CompletenessStatus),
    /** `sha256:` + canonical digest of the whole CapabilityResult ({@link resultDigest}). */
    result_digest: DigestSchema,
    artifact_uris: z.array(ArtifactUriSchema).max(REASONING_MAX_ARTIFACT_URIS),
    /** True when the result listed more than {@link REASONING_MAX_ARTIFACT_URIS} URIs and only the first were kept. */
    artifact_uris_truncated: z.boolean(),
  })
  .strict();
export const AfterToolEventSchema = z
  .object({
    ...base,
    type: z.literal('AFTER_TOOL'),
    call_id: ReasoningIdSchema,
    interpretation_status: z.enum(InterpretationStatus),
    summary: Summary,
    /** What the server knew about the call when this entry arrived. */
    server_state: z.enum(CallServerState),
    /** The model's report (INTERPRETED) or null (RESULT_UNAVAILABLE). */
    reported: ReportedOutcomeSchema.nullable(),
    /** Per-field verdict, when there was both a report and a recorded outcome. */
    comparison: ReportComparisonSchema.nullable(),
    /** AUDIT only: an INTERPRETED entry REQUIRED would have rejected (no recorded outcome). */
    violation: z.enum(ProtocolViolation).nullable(),
  })
  .strict();
export const FinalEventSchema = z.object({ ...base, type: z.literal('FINAL'), summary: Summary }).strict();
export const ProtocolViolationEventSchema = z
  .object({
    ...base,
    type: z.literal('PROTOCOL_VIOLATION'),
    operation: z.literal('math.run'),
    violation: z.enum(ProtocolViolation),
    /** The reasoning_call_id the math.run carried, when it carried a well-formed one. */
    call_id: ReasoningIdSchema.nullable(),
    capability_id: z.string().min(1).max(128),
    mode: z.enum(Mode),
    request_digest: DigestSchema,
    message: z.string().min(1).max(1000),
  })
  .strict();

/** One stored event; a run's log is a list of these with sequence 1, 2, 3, …. */
export const ReasoningEventSchema = z.discriminatedUnion('type', [
  PlanEventSchema,
  BeforeToolEventSchema,
  CallBoundEventSchema,
  CallOutcomeEventSchema,
  AfterToolEventSchema,
  FinalEventSchema,
  ProtocolViolationEventSchema,
]);
export type ReasoningEvent = z.infer<typeof ReasoningEventSchema>;
export type ReasoningEventType = ReasoningEvent['type'];
export type CallOutcomeEvent = z.infer<typeof CallOutcomeEventSchema>;
export type AfterToolEvent = z.infer<typeof AfterToolEventSchema>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the log numbers and stamps it. */
export type ReasoningEventBody = DistributiveOmit<ReasoningEvent, 'sequence' | 'run_id' | 'recorded_at'>;

/** Parse a stored event; a damaged one is REASONING_LOG_CORRUPT naming `where` and the field. */
export function parseStoredEvent(value: unknown, where: JsonPath): ReasoningEvent {
  return parseOrThrow(ReasoningEventSchema, value, `reasoning log event ${where.join(':')} is damaged`, 'REASONING_LOG_CORRUPT', where);
}

/** Render events as the run resource's text: one JSON object per line, each line ending in `\n`. */
export function eventsToJsonl(events: readonly ReasoningEvent[]): string {
  return events.map((event) => `${JSON.stringify(event)}\n`).join('');
}
