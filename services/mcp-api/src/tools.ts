import type { CallToolResult, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  CapabilityRequestSchema,
  CapabilityResultShape,
  errorDiagnostic,
  isPlainObject,
  Mode,
  NextRequired,
  ProtocolViolation,
  ReasoningIdSchema,
  ReasoningPhase,
  ReasoningWriteInputSchema,
  ReportComparisonSchema,
  toAppError,
  throttleProgress,
  type CapabilityResult,
  type ProgressListener,
  type ReasoningLog,
  type RunProgress,
} from '@jacobian/shared';
import type { Api, ReasoningNote } from './api.js';
import { DOMAIN_FILTER_STATUSES, FindArgumentsSchema, PORTFOLIO_FITS, RECOVERY_KINDS, ROUTING_STATUSES } from './find.js';
import { projectFind, projectReasoningError, projectReasoningNote, projectReceipt, projectResult } from './projection.js';

/** The `_meta` key of a math.run result carrying the reasoning log's account of the call (log on only). */
export const REASONING_META_KEY = 'jacobian/reasoning';

type JsonObject = Record<string, unknown>;

/** Convert once, on first use: the schemas are fixed for the life of the process. */
function once(convert: () => JsonObject): () => JsonObject {
  let cached: JsonObject | undefined;
  return () => (cached ??= convert());
}

type Validation = { value: JsonObject } | { issues: { message: string; path?: PropertyKey[] }[] };

/**
 * A zod schema as the SDK sees it: its exact JSON Schema, converted once per process (the SDK
 * builds a server, and asks for the schemas, on every stateless HTTP request; converting afresh
 * each time was the largest single cost of serving a call), with our choice of validation.
 */
function advertised(schema: z.ZodType, validate: (value: unknown) => Validation): StandardSchemaWithJSON<JsonObject, JsonObject> {
  const input = once(() => z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }));
  const output = once(() => z.toJSONSchema(schema, { io: 'output', target: 'draft-2020-12' }));
  return { '~standard': { version: 1, vendor: 'jacobian', validate, jsonSchema: { input, output } } };
}

const anyObject =
  (what: string) =>
  (value: unknown): Validation =>
    isPlainObject(value) ? { value } : { issues: [{ message: `${what} must be a JSON object` }] };

/**
 * Input schemas let every object through the SDK's own validation. The SDK would answer a bad
 * argument with a bare text error; we answer with a typed diagnostic naming the field and the
 * rule (an ERROR CapabilityResult for math.run), so validation happens in our handlers with the
 * same zod schema.
 */
const advertisedInput = (schema: z.ZodType) => advertised(schema, anyObject('arguments'));

/** An output schema the SDK validates structured content against, with zod. */
function validatedOutput(schema: z.ZodType) {
  return advertised(schema, (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? { value: parsed.data as JsonObject } : { issues: parsed.error.issues.map((issue) => ({ message: issue.message, path: issue.path })) };
  });
}

/**
 * An output schema advertised but not validated again: math.run's CapabilityResult has already
 * been parsed in full with CapabilityResultSchema (the shape plus every cross-field invariant)
 * before it reaches this layer, so a second parse against the bare shape could only repeat it.
 */
const unvalidatedOutput = (schema: z.ZodType) => advertised(schema, anyObject('structured content'));

const FindOutputSchema = z
  .object({
    catalog_digest: z.string(),
    policy_digest: z.string(),
    policy_profile: z.string(),
    kind: z.enum(['BROWSE', 'SEARCH', 'INSPECT']),
    query_terms: z.array(z.string()).nullable(),
    total_matches: z.number().int().nullable(),
    matches: z.array(z.record(z.string(), z.unknown())),
    capability: z.record(z.string(), z.unknown()).nullable(),
    next_cursor: z.string().nullable(),
    pending_providers: z.array(z.object({ provider: z.string(), detail: z.string() }).strict()),
    portfolio_fit: z.enum(PORTFOLIO_FITS).nullable(),
    portfolio_fit_basis: z.string().nullable(),
    domain_filter_status: z.enum(DOMAIN_FILTER_STATUSES).nullable(),
    domain_filter_basis: z.string().nullable(),
    installed_domains: z.array(z.string()).nullable(),
    routing_status: z.enum(ROUTING_STATUSES).nullable(),
    routing_basis: z.string().nullable(),
    recovery_paths: z.array(z.object({ kind: z.enum(RECOVERY_KINDS), detail: z.string() }).strict()),
    diagnostics: z.array(z.record(z.string(), z.unknown())),
  })
  .strict();

/** Freeze a JSON value and everything in it: a shared answer must not change under anyone. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/** Distinct math.find calls remembered per API; the oldest is forgotten first. */
const FIND_CACHE_ENTRIES = 512;
/** Arguments longer than this (as JSON) are answered without being remembered. */
const FIND_CACHE_KEY_MAX = 1024;

interface FindCache {
  catalogDigest: string;
  pending: string;
  answers: Map<string, CallToolResult>;
}
const findCaches = new WeakMap<Api, FindCache>();

/**
 * math.find's answer to one call: the text projection plus the complete response.
 *
 * An answer is a function of the arguments and the catalog (which embeds the policy), so the
 * same arguments against the same catalog digest get the same answer object again, without
 * searching. The remembered answers are dropped whenever the catalog digest or the providers
 * still being checked change. Callers
 * must treat the returned object as read-only.
 */
export function findToolResult(api: Api, args: JsonObject): CallToolResult {
  const catalogDigest = api.catalog().digest;
  // Answers also name the providers still being checked: they are remembered for one such state.
  const pending = api.pendingProviders().join('\n');
  let cache = findCaches.get(api);
  if (cache === undefined || cache.catalogDigest !== catalogDigest || cache.pending !== pending) {
    cache = { catalogDigest, pending, answers: new Map() };
    findCaches.set(api, cache);
  }
  const key = JSON.stringify(args);
  const remembered = cache.answers.get(key);
  if (remembered !== undefined) return remembered;
  const response = api.find(args);
  const answer: CallToolResult = {
    content: [{ type: 'text', text: projectFind(response) }],
    structuredContent: response,
    ...(response.diagnostics.some((d) => d.severity === 'ERROR') ? { isError: true } : {}),
  };
  // The response names the catalog it was computed from; only an answer from the catalog the
  // cache belongs to is kept (the catalog may change while this call runs).
  if (key.length <= FIND_CACHE_KEY_MAX && response.catalog_digest === catalogDigest) {
    if (cache.answers.size >= FIND_CACHE_ENTRIES) {
      const oldest = cache.answers.keys().next();
      if (oldest.done !== true) cache.answers.delete(oldest.value);
    }
    cache.answers.set(key, deepFreeze(answer));
  }
  return answer;
}

/**
 * math.run's answer to one call: the compact text projection plus the complete CapabilityResult.
 * With the reasoning log on, the text ends with the log's account of the call (bound or not,
 * the result digest, the next required entry), which `_meta["jacobian/reasoning"]` also carries.
 */
export async function runToolResult(api: Api, args: JsonObject, signal: AbortSignal, onProgress?: ProgressListener): Promise<CallToolResult> {
  const { result, reasoning } = await api.runWithReasoning(args, signal, onProgress);
  return runCallToolResult(result, reasoning);
}

/** math.run's tool result for a capability result, with the reasoning log's note when it is on. */
export function runCallToolResult(result: CapabilityResult, reasoning: ReasoningNote | null): CallToolResult {
  const text = projectResult(result);
  return {
    content: [{ type: 'text', text: reasoning === null ? text : `${text}\n${projectReasoningNote(reasoning)}` }],
    structuredContent: result,
    ...(result.execution.status === 'ERROR' ? { isError: true } : {}),
    ...(reasoning === null ? {} : { _meta: { [REASONING_META_KEY]: reasoning } }),
  };
}

/** Least time between two progress notifications of one call. */
export const PROGRESS_NOTIFY_INTERVAL_MS = 250;
/**
 * Longest silence on a call that asked for progress: when the run has reported nothing for this
 * long, a heartbeat notification says how long it has been running. Clients that reset their
 * request timeout on progress (the SDK's `resetTimeoutOnProgress`) then never time out a run
 * that is still within its budget, whatever their timeout (the SDK's default is 60 s; budgets
 * reach 600 s). A second leaves room under timeouts as short as 1.5 s.
 */
export const PROGRESS_HEARTBEAT_MS = 1000;

/** One `notifications/progress` message's params, without the token. */
export interface ProgressNotice {
  progress: number;
  total?: number;
  message?: string;
}

/** What a call's progress channel gives the run: a listener, and a stop for when the call ends. */
export interface ProgressChannel {
  readonly listener: ProgressListener;
  /** No notification after this (call it when the result is ready, before answering). */
  stop(): void;
}

/**
 * The progress a call that carries a `progressToken` gets: the run's own reports (at most one
 * per PROGRESS_NOTIFY_INTERVAL_MS, the latest kept), and between them a heartbeat whenever
 * nothing was sent for `heartbeatMs`, with the time the call has been running and the run's
 * latest message. `progress` strictly increases, as the protocol requires: a heartbeat, or a
 * report that does not advance, is sent as a small step past the last value. `send` must not
 * throw. Timers are unref'ed.
 */
export function progressChannel(send: (notice: ProgressNotice) => void, options: { heartbeatMs?: number; now?: () => number } = {}): ProgressChannel {
  const heartbeatMs = options.heartbeatMs ?? PROGRESS_HEARTBEAT_MS;
  const now = options.now ?? Date.now;
  const started = now();
  let last = Number.NEGATIVE_INFINITY;
  let latest: RunProgress | undefined;
  let stopped = false;
  let heartbeat: NodeJS.Timeout | undefined;
  const emit = (report: RunProgress | undefined, beat: boolean): void => {
    if (stopped) return;
    const base = report?.progress ?? 0;
    const progress = !beat && base > last ? base : last === Number.NEGATIVE_INFINITY ? base : last + 0.001;
    last = progress;
    const seconds = Math.round((now() - started) / 1000);
    const message = beat ? `running for ${seconds} s${report?.message === undefined ? '' : `; last report: ${report.message}`}` : report?.message;
    const total = report?.total;
    send({ progress, ...(total === undefined || total < progress ? {} : { total }), ...(message === undefined ? {} : { message: message.slice(0, 300) }) });
    arm();
  };
  const arm = (): void => {
    clearTimeout(heartbeat);
    if (stopped) return;
    heartbeat = setTimeout(() => emit(latest, true), heartbeatMs);
    heartbeat.unref();
  };
  const throttled = throttleProgress((report) => emit(report, false), PROGRESS_NOTIFY_INTERVAL_MS);
  arm();
  return {
    listener: (report) => {
      latest = report;
      throttled(report);
    },
    stop: () => {
      stopped = true;
      throttled.cancel();
      clearTimeout(heartbeat);
    },
  };
}

/**
 * reasoning.write's answer: the WriteReceipt as structured content, with a text projection
 * naming the next required entry; a refused entry is an isError result whose structured
 * content is one typed diagnostic (code, stage, message, path, hint, data).
 */
export async function reasoningWriteResult(log: ReasoningLog, args: JsonObject): Promise<CallToolResult> {
  try {
    const receipt = await log.write(args);
    return { content: [{ type: 'text', text: projectReceipt(receipt) }], structuredContent: receipt as unknown as JsonObject };
  } catch (thrown) {
    const error = toAppError(thrown);
    return {
      content: [{ type: 'text', text: projectReasoningError(error) }],
      structuredContent: { diagnostics: [{ ...errorDiagnostic(error), data: error.data ?? null }] },
      isError: true,
    };
  }
}

const OpenCallSchema = z
  .object({ reasoning_call_id: z.string(), capability_id: z.string(), mode: z.enum(Mode), bound: z.boolean(), outcome_recorded: z.boolean() })
  .strict();

/** reasoning.write's structured content (a WriteReceipt). */
const WriteReceiptSchema = z
  .object({
    phase: z.enum(ReasoningPhase),
    reasoning_run_id: z.string(),
    reasoning_call_id: z.string().nullable(),
    resource_uri: z.string(),
    sequence: z.number().int(),
    cycles_used: z.number().int(),
    cycles_remaining: z.number().int(),
    finalized: z.boolean(),
    open_call: OpenCallSchema.nullable(),
    next_required: z.enum(NextRequired),
    allowed_next: z.array(z.enum(ReasoningPhase)),
    guidance: z.string(),
    comparison: ReportComparisonSchema.nullable(),
    mismatched_fields: z.array(z.string()),
    violation: z.enum(ProtocolViolation).nullable(),
  })
  .strict();

/** math.run's arguments with the reasoning log on: the request plus the two IDs of the current BEFORE_TOOL. */
const ReasoningRunArgumentsSchema = CapabilityRequestSchema.extend({
  reasoning_run_id: ReasoningIdSchema.optional().describe('the reasoning_run_id returned by reasoning.write PLAN'),
  reasoning_call_id: ReasoningIdSchema.optional().describe('the reasoning_call_id returned by the BEFORE_TOOL entry for this exact call'),
});

const RUN_TITLE = 'Run a mathematical capability';
const RUN_DESCRIPTION =
  'Run one installed capability by exact ID in EXPLORE (compute) or VERIFY (independent checker) mode, with an optional budget. Returns the complete CapabilityResult: execution status, typed output, scope, completeness, qualifiers, assurance, obligations, artifact URIs and diagnostics.';
const RUN_ANNOTATIONS = { readOnlyHint: false, idempotentHint: true, openWorldHint: false } as const;

/** The two tools' registrations, shared by every MCP server instance of the process. */
export const TOOLS = {
  find: {
    name: 'math.find',
    config: {
      title: 'Find mathematical capabilities',
      description:
        'Find or inspect installed mathematical operations. No arguments: browse in ID order. `query`: lexical search over IDs, titles, descriptions, tags and keywords (the field\'s vocabulary: laws, invariants, methods, tools), with optional `domain`, `mode`, `input_kind`, `artifact_type` (with TYPED_ARTIFACT), `limit` 1-20, `cursor`. Results carry deterministic retrieval signals (lexical_fit, portfolio_fit, domain_filter_status, routing_status, recovery_paths), not advice; jacobian://instructions defines them. `capability_id`: exact inspection with `view` SUMMARY, CONTRACT (complete input schema and validated examples) or FULL, or `example_index` for one invocation example whole.',
      inputSchema: advertisedInput(FindArgumentsSchema),
      outputSchema: validatedOutput(FindOutputSchema),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
  },
  run: {
    name: 'math.run',
    config: {
      title: RUN_TITLE,
      description: RUN_DESCRIPTION,
      inputSchema: advertisedInput(CapabilityRequestSchema),
      outputSchema: unvalidatedOutput(CapabilityResultShape),
      annotations: RUN_ANNOTATIONS,
    },
  },
  /** math.run when the reasoning log is on (AUDIT or REQUIRED): the same, plus the two reasoning IDs. */
  runWithReasoning: {
    name: 'math.run',
    config: {
      title: RUN_TITLE,
      description: `${RUN_DESCRIPTION} The reasoning log is on: pass reasoning_run_id and reasoning_call_id from the BEFORE_TOOL entry written with reasoning.write for this call.`,
      inputSchema: advertisedInput(ReasoningRunArgumentsSchema),
      outputSchema: unvalidatedOutput(CapabilityResultShape),
      annotations: RUN_ANNOTATIONS,
    },
  },
  /** Registered only when the reasoning log is on. */
  reasoningWrite: {
    name: 'reasoning.write',
    config: {
      title: 'Write a reasoning-log entry',
      description:
        'Append one entry to the operational reasoning log: PLAN opens a run (returns reasoning_run_id); BEFORE_TOOL names the capability and mode of the next math.run (returns reasoning_call_id, which math.run must carry with the run ID); AFTER_TOOL interprets that result and reports its execution status, assurance and completeness (the server compares them with what it recorded); FINAL closes the run. Summaries are short and model-authored; never paste payloads or tool output. The log never changes mathematics, assurance or checker authority. jacobian://instructions describes the lifecycle.',
      inputSchema: advertisedInput(ReasoningWriteInputSchema),
      outputSchema: validatedOutput(WriteReceiptSchema),
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    },
  },
} as const;
