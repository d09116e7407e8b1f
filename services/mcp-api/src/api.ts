import type { KeyObject } from 'node:crypto';
import {
  activeMetrics,
  activeTracer,
  admitRequest,
  BUDGET_LIMITS,
  buildCatalog,
  CapabilityRequestSchema,
  checkTenant,
  errorDiagnostic,
  evaluatePolicy,
  inSpan,
  isPlainObject,
  JacobianError,
  nonConclusionResult,
  parseArtifactUri,
  providerRef,
  recordResult,
  resultDigest,
  runSpanAttributes,
  jsonLongerThanAbout,
  runTargetOf,
  SpanAttribute,
  toAppError,
  VERIFICATION_RECORD_SCHEMA_URI,
  verifyRecordSignature,
  zodIssuesToDiagnostics,
  type ArtifactStore,
  type CapabilityDescriptor,
  type CapabilityResult,
  type Catalog,
  type AdmissibleCapability,
  type LoadedArtifact,
  type Mode,
  type OperatorPolicy,
  type PendingProvider,
  type ProgressListener,
  type ProtocolViolation,
  type NextRequired,
  type ReasoningBinding,
  type ReasoningLog,
  type RunQueue,
  type AdmittedRun,
  type Span,
  type SpanAttributes as Attributes,
} from '@jacobian/shared';
import { z } from 'zod';
import { createAdmissionPool, LARGE_REQUEST_BYTES, MAX_REQUEST_BYTES, type AdmissionPool } from './admission-pool.js';
import { find, FindArgumentsSchema, rejectedFindResponse, type FindResponse } from './find.js';
import { unknownCapability } from './suggest.js';

export interface ApiDependencies {
  /** What live runners and checkers offer right now, with the schemas admission checks payloads against. */
  installed: () => readonly AdmissibleCapability[];
  policy: OperatorPolicy;
  queue: RunQueue;
  artifacts: ArtifactStore;
  /** Public keys of checker services whose signed records this API accepts, by key ID. */
  trustedCheckerKeys: ReadonlyMap<string, KeyObject>;
  /**
   * The reasoning log, when the operator turned it on (AUDIT or REQUIRED). Absent (or OFF):
   * math.run takes no reasoning IDs and nothing is logged.
   */
  reasoning?: ReasoningLog | undefined;
  /**
   * What a named tenant gets instead of `artifacts` and `reasoning` (see tenantScopes). Without
   * it the API serves the default tenant only, and {@link Api.forTenant} refuses.
   */
  tenants?: {
    artifacts(tenant: string): ArtifactStore;
    /** The tenant's own reasoning log; undefined when the log is OFF. */
    reasoning(tenant: string): ReasoningLog | undefined;
  };
  /**
   * Where requests larger than LARGE_REQUEST_BYTES are admitted (see admission-pool.ts). Default:
   * a pool of this API, whose worker starts with the first large request; null: every request
   * is admitted on the calling thread.
   */
  admissionPool?: AdmissionPool | null;
  /**
   * Providers still being checked at start-up (a process that serves its own runner's catalog,
   * see the runner's `deferSlowProviders`): math.find names them, and a math.run of one of their
   * capabilities waits for the check. Absent: none ever is.
   */
  pending?: () => readonly PendingProvider[];
}

/** What a math.run response tells the model about the reasoning log (only when it is on). */
export interface ReasoningNote {
  /**
   * BOUND: the run was bound to its BEFORE_TOOL call; NOT_BOUND: AUDIT let a run that breaks the
   * protocol through, unlogged; REJECTED: REQUIRED refused it and nothing ran; NOT_ADMITTED: the
   * request was invalid, nothing ran, and the call it named is untouched (retry with its IDs).
   */
  status: 'BOUND' | 'NOT_BOUND' | 'REJECTED' | 'NOT_ADMITTED';
  reasoning_run_id: string | null;
  reasoning_call_id: string | null;
  violation: ProtocolViolation | null;
  /** BOUND: whether the server recorded the run's outcome (CALL_OUTCOME). */
  outcome_recorded: boolean;
  /** BOUND with a recorded outcome: the result digest the log holds; report it in AFTER_TOOL. */
  result_digest: string | null;
  /** The run's next required entry, when the server knows it. */
  next_required: NextRequired | null;
  guidance: string;
}

/** A math.run's result, and what the reasoning log made of it (null when the log is off). */
export interface RunAnswer {
  result: CapabilityResult;
  reasoning: ReasoningNote | null;
}

/** The MCP surface's logic, independent of transport: discovery, admission, results, artifacts. */
export interface Api {
  catalog(): Catalog;
  /** The providers still being checked at start-up, by name (empty once all have been). */
  pendingProviders(): readonly string[];
  find(args: unknown): FindResponse;
  /** Stop what the API started for itself (the admission worker); idempotent. */
  close(): Promise<void>;
  /** `onProgress` hears the run's progress reports while it runs (informational). */
  run(args: unknown, signal?: AbortSignal, onProgress?: ProgressListener): Promise<CapabilityResult>;
  /** {@link Api.run}, with the reasoning log's account of the call. */
  runWithReasoning(args: unknown, signal?: AbortSignal, onProgress?: ProgressListener): Promise<RunAnswer>;
  /**
   * math.run without the reasoning log: how a task's run is found again by another API process
   * (or after a restart). The same arguments admit the same job, so this joins the run that is
   * going on, or gets its stored answer, rather than computing twice.
   */
  runUnbound(args: unknown, signal?: AbortSignal): Promise<CapabilityResult>;
  /** The reasoning log when its mode is AUDIT or REQUIRED; null when it is OFF. */
  readonly reasoning: ReasoningLog | null;
  readArtifact(uri: string, signal?: AbortSignal): Promise<LoadedArtifact>;
  /** The tenant this view serves; null for the default tenant. */
  readonly tenant: string | null;
  /**
   * The same surface for one tenant: its runs are its own jobs, its artifacts and reasoning log
   * its own; nothing of another tenant's can be read through it, even by digest or ID.
   */
  forTenant(tenant: string): Api;
}

/**
 * How long after a run's wall-time budget its caller still waits for the result (the runner
 * stops the run at the budget; this covers handing the result back). Beyond it the API answers
 * TIMEOUT itself, so an answer arrives within the budget plus this plus the time to send it.
 */
export const ANSWER_GRACE_MS = 1000;

/** The queue signals of runs in flight (see submit). */
const retained = new Set<AbortSignal>();

/** What waiting for a provider's start-up check came to: an answer already (nothing runs), or how long it took. */
type PendingWait = { refused: CapabilityResult } | { waitedMs: number };

const UNADMITTED = {
  job_id: 'unadmitted',
  request_digest: `sha256:${'0'.repeat(64)}`,
};

function idOf(args: unknown): string {
  if (typeof args === 'object' && args !== null) {
    const id = (args as Record<string, unknown>)['capability_id'];
    if (typeof id === 'string' && id.length > 0) return id.slice(0, 128);
  }
  return 'unknown';
}

/** math.run's reasoning fields (accepted only when the log is on); any string, so a malformed ID is an unknown run or call. */
const ReasoningIdsSchema = z
  .object({
    reasoning_run_id: z.string().max(256).optional(),
    reasoning_call_id: z.string().max(256).optional(),
  })
  .strict();
/** Take the reasoning IDs out of math.run's arguments, so the request digest and job ID never depend on them. */
function splitReasoningIds(args: unknown): { ids: Record<string, unknown>; rest: unknown } {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ids: {}, rest: args };
  const { reasoning_run_id: runId, reasoning_call_id: callId, ...rest } = args as Record<string, unknown>;
  const ids: Record<string, unknown> = {};
  if (runId !== undefined) ids['reasoning_run_id'] = runId;
  if (callId !== undefined) ids['reasoning_call_id'] = callId;
  return { ids, rest };
}

/** A log failure that must not change the result's conclusion: a WARNING diagnostic. */
function withLogWarning(result: CapabilityResult, error: JacobianError, what: string): CapabilityResult {
  const diagnostic = errorDiagnostic(new JacobianError(error.code, `${what}: ${error.message}`.slice(0, 2000)));
  return { ...result, diagnostics: [...result.diagnostics, { ...diagnostic, severity: 'WARNING' }] };
}

/** A math.run span's outcome attributes; an unadmitted request's capability ID is not recorded (it is the caller's text). */
function describeRun(span: Span, result: CapabilityResult): void {
  if (result.execution.job_id !== UNADMITTED.job_id) {
    span.setAttributes({ [SpanAttribute.capability]: result.capability_id, [SpanAttribute.mode]: result.mode, [SpanAttribute.jobId]: result.execution.job_id });
  }
  recordResult(span, result);
}

function modeOf(args: unknown): Mode {
  if (typeof args === 'object' && args !== null && (args as Record<string, unknown>)['mode'] === 'VERIFY') return 'VERIFY';
  return 'EXPLORE';
}

export function createApi(options: ApiDependencies): Api {
  const deps: ApiDependencies = options.admissionPool === undefined ? { ...options, admissionPool: createAdmissionPool() } : options;
  const views = new Map<string, Api>();
  const forTenant = (tenant: string): Api => {
    let view = views.get(tenant);
    if (view === undefined) {
      const scoped = deps.tenants;
      if (scoped === undefined) throw new JacobianError('INTERNAL', `tenant ${tenant}: this API was configured without per-tenant stores`);
      checkTenant(tenant);
      view = createApiView({ ...deps, artifacts: scoped.artifacts(tenant), reasoning: scoped.reasoning(tenant) }, tenant, forTenant);
      views.set(tenant, view);
    }
    return view;
  };
  return createApiView(deps, undefined, forTenant);
}

function createApiView(deps: ApiDependencies, tenant: string | undefined, forTenant: (tenant: string) => Api): Api {
  const log = deps.reasoning?.mode === 'OFF' ? undefined : deps.reasoning;
  let cached: { installed: readonly AdmissibleCapability[]; catalog: Catalog; descriptors: Map<string, CapabilityDescriptor> } | undefined;
  function current(): NonNullable<typeof cached> {
    const installed = deps.installed();
    if (cached?.installed !== installed) {
      const descriptors = new Map(installed.map((c) => [c.descriptor.id, c.descriptor]));
      cached = { installed, descriptors, catalog: buildCatalog([...descriptors.values()], deps.policy) };
    }
    return cached;
  }

  const pendingProviders = (): readonly string[] => (deps.pending?.() ?? []).map((entry) => entry.provider);

  const tenantAttributes: Attributes = tenant === undefined ? {} : { [SpanAttribute.tenant]: tenant };

  /** Reject before any job exists; the result names the field and the rule. */
  function rejected(args: unknown, error: JacobianError, capability?: AdmissibleCapability): CapabilityResult {
    return nonConclusionResult(
      { capability_id: idOf(args), mode: modeOf(args), ...UNADMITTED },
      {
        status: 'ERROR',
        diagnostics: [errorDiagnostic(error)],
        capabilityVersion: capability?.descriptor.version ?? null,
        provider: capability ? providerRef(capability) : null,
      },
    );
  }

  /**
   * A VERIFIED result stands only if its record is a stored artifact, signed by a trusted
   * checker key, issued by the checker the catalog names, for exactly this request.
   */
  function confirmVerification(result: CapabilityResult, capability: AdmissibleCapability, signal?: AbortSignal): Promise<void> {
    const tracer = activeTracer();
    if (tracer === undefined) return checkRecord(result, capability, signal);
    const attributes = { [SpanAttribute.capability]: result.capability_id, [SpanAttribute.jobId]: result.execution.job_id };
    return inSpan(tracer, 'verification.check', { attributes }, async (span) => {
      try {
        await checkRecord(result, capability, signal);
      } catch (error) {
        // The result is downgraded (VERIFICATION_RECORD_INVALID), or the store could not be read.
        span.setAttribute(SpanAttribute.verification, error instanceof JacobianError && error.code === 'VERIFICATION_RECORD_INVALID' ? 'rejected' : 'unchecked');
        throw error;
      }
      span.setAttribute(SpanAttribute.verification, 'verified');
    });
  }

  async function checkRecord(result: CapabilityResult, capability: AdmissibleCapability, signal?: AbortSignal): Promise<void> {
    const uri = result.assurance.verification_record_uri;
    if (uri === null) throw new JacobianError('VERIFICATION_RECORD_INVALID', 'VERIFIED without a verification record');
    const stored = await deps.artifacts.get(uri, signal ? { signal } : undefined);
    if (stored.manifest.schema_uri !== VERIFICATION_RECORD_SCHEMA_URI) {
      throw new JacobianError('VERIFICATION_RECORD_INVALID', `${uri} is not a verification record`);
    }
    const record = verifyRecordSignature(stored.payload, deps.trustedCheckerKeys);
    const expected = capability.descriptor.checker;
    const body = record.body;
    const mismatches: string[] = [];
    if (expected === null || body.checker_id !== expected.checker_id || body.checker_digest !== expected.checker_digest) mismatches.push('checker identity');
    if (body.checker_id !== result.assurance.checker_id) mismatches.push('checker named in the result');
    if (body.capability_id !== result.capability_id) mismatches.push('capability');
    if (body.request_digest !== result.execution.request_digest) mismatches.push('request digest');
    // The record must sign exactly the claim the result states: a weaker claim is never passed off as it.
    if (result.scope === null || body.claim.statement !== result.scope.statement || body.scope.statement !== result.scope.statement) mismatches.push('claim');
    if (!result.artifact_uris.includes(body.candidate_uri)) mismatches.push('candidate');
    if (!stored.manifest.parents.includes(body.candidate_uri)) mismatches.push('record lineage');
    if (mismatches.length > 0) {
      throw new JacobianError('VERIFICATION_RECORD_INVALID', `verification record does not bind this result: ${mismatches.join(', ')} differ`);
    }
  }

  type Admission = { rejected: CapabilityResult } | { admitted: AdmittedRun; capability: AdmissibleCapability };

  /**
   * {@link admitRequestArgs}, or for a large request {@link admitInWorker}, as an `admission`
   * span when tracing is on. A small request is admitted synchronously (a promise only for a
   * large one), so that its run reaches the queue in the same turn as the call.
   */
  function admit(args: unknown): Admission | Promise<Admission> {
    if (isPlainObject(args) && jsonLongerThanAbout(args, MAX_REQUEST_BYTES)) {
      return {
        rejected: rejected(
          args,
          new JacobianError('SIZE_LIMIT_EXCEEDED', `payload: the arguments of math.run exceed ${MAX_REQUEST_BYTES} bytes as JSON (the request size limit)`, {
            path: ['payload'],
            data: { maxBytes: MAX_REQUEST_BYTES },
            hint: 'store a large operand first (for example with graph.construct.explicit, sat.cnf.materialize or artifact.put) and pass its artifact URI',
          }),
        ),
      };
    }
    const large = deps.admissionPool != null && isPlainObject(args) && jsonLongerThanAbout(args, LARGE_REQUEST_BYTES);
    const tracer = activeTracer();
    if (tracer === undefined) return large ? admitInWorker(args) : admitRequestArgs(args);
    const span = tracer.startSpan('admission');
    const described = (admission: Admission): Admission => {
      if ('rejected' in admission) span.setAttribute(SpanAttribute.outcome, 'REJECTED');
      else span.setAttributes(runSpanAttributes(admission.admitted));
      span.end();
      return admission;
    };
    try {
      return large ? admitInWorker(args).then(described) : described(admitRequestArgs(args));
    } catch (error) {
      span.end();
      throw error;
    }
  }

  /** A malformed request: nothing about a capability is known. */
  function requestInvalid(args: unknown, diagnostics: CapabilityResult['diagnostics']): Admission {
    return { rejected: nonConclusionResult({ capability_id: idOf(args), mode: modeOf(args), ...UNADMITTED }, { status: 'ERROR', diagnostics }) };
  }

  /** A payload that does not satisfy the capability's input schema. */
  function payloadInvalid(request: { capability_id: string; mode: Mode }, capability: AdmissibleCapability, diagnostics: CapabilityResult['diagnostics']): Admission {
    return {
      rejected: nonConclusionResult(
        { capability_id: request.capability_id, mode: request.mode, ...UNADMITTED },
        { status: 'ERROR', diagnostics, capabilityVersion: capability.descriptor.version, provider: providerRef(capability) },
      ),
    };
  }

  /** The installed capability a well-formed request names, if it exists, policy shows it and it offers the mode. */
  function choose(args: unknown, request: { capability_id: string; mode: Mode }): { rejected: CapabilityResult } | { capability: AdmissibleCapability } {
    const capability = current().installed.find((c) => c.descriptor.id === request.capability_id);
    if (capability === undefined) {
      return {
        rejected: rejected(
          args,
          unknownCapability(request.capability_id, current().catalog.capabilities.map((entry) => entry.id)),
        ),
      };
    }
    const decision = evaluatePolicy(deps.policy, capability.descriptor);
    if (!decision.visible) {
      return { rejected: rejected(args, new JacobianError('CAPABILITY_POLICY_DENIED', `capability_id: ${request.capability_id} is not available: ${decision.reason}`, { path: ['capability_id'] })) };
    }
    if (!capability.descriptor.modes.includes(request.mode)) {
      return {
        rejected: rejected(
          args,
          new JacobianError('MODE_NOT_SUPPORTED', `mode: ${request.capability_id} supports ${capability.descriptor.modes.join(', ')} only, not ${request.mode}`, {
            path: ['mode'],
            hint: request.mode === 'VERIFY' ? 'look for a checker capability related to it (VERIFIED_BY) with math.find' : undefined,
          }),
          capability,
        ),
      };
    }
    if (!decision.modes.includes(request.mode)) {
      return {
        rejected: rejected(args, new JacobianError('CAPABILITY_POLICY_DENIED', `mode: ${request.mode} of ${request.capability_id} is hidden by operator policy`, { path: ['mode'] }), capability),
      };
    }
    return { capability };
  }

  /** Validate, check policy and admit a request on this thread; nothing is submitted. */
  function admitRequestArgs(args: unknown): Admission {
    const parsed = CapabilityRequestSchema.safeParse(args);
    if (!parsed.success) return requestInvalid(args, zodIssuesToDiagnostics(parsed.error, [], 'VALIDATION', { schema: CapabilityRequestSchema, input: args }));
    const request = parsed.data;
    const chosen = choose(args, request);
    if ('rejected' in chosen) return chosen;
    const { capability } = chosen;
    const payload = capability.input.safeParse(request.payload);
    if (!payload.success) return payloadInvalid(request, capability, zodIssuesToDiagnostics(payload.error, ['payload'], 'VALIDATION', { schema: capability.input, input: request.payload }));
    try {
      return { admitted: admitRequest(request, tenant), capability };
    } catch (error) {
      // The digest covers {capability_id, mode, payload, budget}, so the error's path
      // already starts at the request's own field (e.g. ['payload', 'x', 1]).
      return { rejected: rejected(args, toAppError(error), capability) };
    }
  }

  /**
   * {@link admitRequestArgs} for a large request (arguments as JSON gives them): the request's
   * own fields, the capability, policy and mode are checked here (cheap); the payload's schema
   * and the request digest in the admission worker. The payload is checked against the
   * capability's advertised JSON Schema; its cross-field rules are checked by the runner
   * before anything is computed. A worker that fails leaves the request to this thread.
   */
  async function admitInWorker(args: Record<string, unknown>): Promise<Admission> {
    const pool = deps.admissionPool as AdmissionPool;
    const head = CapabilityRequestSchema.safeParse({ ...args, payload: isPlainObject(args['payload']) ? {} : args['payload'] });
    let capability: AdmissibleCapability | undefined;
    if (head.success) {
      const chosen = choose(args, head.data);
      if ('rejected' in chosen) return chosen;
      capability = chosen.capability;
    }
    let text: string;
    try {
      text = JSON.stringify(args);
    } catch {
      return admitRequestArgs(args);
    }
    const verdict = await pool.admit(text, capability?.descriptor, tenant);
    switch (verdict.kind) {
      case 'request_invalid':
        return requestInvalid(args, verdict.diagnostics);
      case 'payload_invalid':
        return head.success && capability !== undefined ? payloadInvalid(head.data, capability, verdict.diagnostics) : admitRequestArgs(args);
      case 'refused':
        return { rejected: rejected(args, toAppError(verdict.error), capability) };
      case 'admitted': {
        if (capability === undefined) return admitRequestArgs(args);
        const { capability_id, mode, budget, request_digest, job_id } = verdict.run;
        const admitted: AdmittedRun = { capability_id, mode, payload: args['payload'] as Record<string, unknown>, budget, request_digest, job_id };
        if (verdict.run.tenant !== undefined) admitted.tenant = verdict.run.tenant;
        return { admitted, capability };
      }
      case 'schema_missing':
      case 'crashed':
        return admitRequestArgs(args);
    }
  }

  /** {@link submit}, with its end-to-end latency and outcome counted when metrics are on. */
  function execute(admitted: AdmittedRun, capability: AdmissibleCapability, signal?: AbortSignal, onProgress?: ProgressListener, spentMs = 0): Promise<CapabilityResult> {
    const metrics = activeMetrics();
    if (metrics === undefined) return submit(admitted, capability, signal, onProgress, spentMs);
    const started = performance.now();
    return submit(admitted, capability, signal, onProgress, spentMs).then((result) => {
      metrics.apiRunFinished(admitted.capability_id, admitted.mode, result.execution.status, (performance.now() - started) / 1000);
      return result;
    });
  }

  /**
   * Submit an admitted run and check what comes back (the result contract, a VERIFIED record).
   * The budget holds end to end: when no result has come back {@link ANSWER_GRACE_MS} after the
   * run's wall-time budget (counted from admission, so time spent waiting in the queue counts),
   * this caller withdraws (the queue cancels the run once nobody waits for it) and the answer
   * is TIMEOUT. `spentMs` of the budget went before admission (waiting for a provider's start-up
   * check): the run executes with what is left, under the same identity (job ID, request digest).
   */
  async function submit(admitted: AdmittedRun, capability: AdmissibleCapability, signal?: AbortSignal, onProgress?: ProgressListener, spentMs = 0): Promise<CapabilityResult> {
    const target = runTargetOf(capability.descriptor);
    const started = performance.now();
    const deadline = new AbortController();
    const leftMs = Math.max(1, Math.floor(admitted.budget.wall_time_ms - spentMs));
    const run = leftMs < admitted.budget.wall_time_ms ? { ...admitted, budget: { ...admitted.budget, wall_time_ms: leftMs } } : admitted;
    const limitMs = leftMs + ANSWER_GRACE_MS;
    const timer = setTimeout(() => deadline.abort(new JacobianError('EXECUTION_TIMEOUT', `no answer within the wall-time budget of ${admitted.budget.wall_time_ms} ms`)), limitMs);
    timer.unref();
    // Held here until the queue answers: a signal made by AbortSignal.any is only weakly held by
    // its sources, and would otherwise be collected (its listeners never told) while it waits.
    const combined = signal === undefined ? deadline.signal : AbortSignal.any([signal, deadline.signal]);
    const queued = deps.queue
      .submit(run, target, {
        signal: combined,
        ...(onProgress === undefined ? {} : { onProgress }),
      })
      .catch((error: unknown) => nonConclusionResult(admitted, { status: 'ERROR', diagnostics: [errorDiagnostic(toAppError(error))] }));
    // The deadline answers even if the queue is slow to acknowledge the withdrawal.
    const expired = new Promise<undefined>((resolve) => deadline.signal.addEventListener('abort', () => resolve(undefined), { once: true }));
    retained.add(combined);
    let result: CapabilityResult | undefined;
    try {
      result = await Promise.race([queued, expired]);
    } finally {
      clearTimeout(timer);
      retained.delete(combined);
    }
    if (result === undefined || (deadline.signal.aborted && signal?.aborted !== true && result.execution.status === 'CANCELLED')) {
      // Withdrawn at the deadline: the queue answered CANCELLED (or nothing yet) because this caller left.
      return nonConclusionResult(admitted, {
        status: 'TIMEOUT',
        runtimeMs: performance.now() - started,
        capabilityVersion: capability.descriptor.version,
        provider: providerRef(capability),
        diagnostics: [
          errorDiagnostic(
            new JacobianError(
              'EXECUTION_TIMEOUT',
              `no result within the wall-time budget of ${admitted.budget.wall_time_ms} ms (+${ANSWER_GRACE_MS} ms to answer), counted from admission; the run was withdrawn and nothing was concluded`,
              { hint: 'raise budget.wall_time_ms, or retry when the server is less busy' },
            ),
          ),
        ],
      });
    }
    // The queue hands back results that satisfy the result contract: the cluster queue parses
    // each one as it arrives from Redis, the embedded one gets them from the host, which
    // checked them as it built them. So they are not parsed a third time here.
    if (result.assurance.level === 'VERIFIED') {
      try {
        await confirmVerification(result, capability, signal);
        activeMetrics()?.apiVerification('verified');
      } catch (error) {
        activeMetrics()?.apiVerification('not_verified');
        return nonConclusionResult(admitted, {
          status: 'ERROR',
          capabilityVersion: capability.descriptor.version,
          provider: providerRef(capability),
          diagnostics: [errorDiagnostic(toAppError(error))],
        });
      }
    }
    return result;
  }

  /**
   * math.run. With the reasoning log on, the reasoning IDs are taken out before admission (the
   * request digest and job ID never depend on them), the admitted run is bound to its
   * BEFORE_TOOL call before anything is submitted (REQUIRED: a breach is an ERROR result and
   * nothing runs), and the bound run's outcome is recorded before answering.
   */
  function runWithReasoning(args: unknown, signal?: AbortSignal, onProgress?: ProgressListener): Promise<RunAnswer> {
    return traced(() => answerRun(args, signal, onProgress), (answer) => answer.result);
  }

  /** A math.run call, as a `math.run` span described by its result when tracing is on. */
  function traced<T>(call: () => Promise<T>, resultOf: (answer: T) => CapabilityResult): Promise<T> {
    const tracer = activeTracer();
    if (tracer === undefined) return call();
    return inSpan(tracer, 'math.run', { attributes: tenantAttributes }, async (span) => {
      const answer = await call();
      describeRun(span, resultOf(answer));
      return answer;
    });
  }

  /**
   * A run of a capability whose provider is still being checked at start-up waits for the check,
   * for at most the run's wall-time budget and until the
   * caller cancels. A check that passed installed the capability: the run is admitted as any
   * other. Otherwise the answer is here: PROVIDER_UNAVAILABLE when the check failed (fail closed:
   * its capabilities never register), TIMEOUT or CANCELLED while it is still running; nothing ran.
   * Undefined (synchronously) when there is nothing to wait for. The wait counts against the
   * budget: a run admitted after it gets what is left (see {@link submit}'s `spentMs`).
   */
  function waitForPendingProvider(args: unknown, signal?: AbortSignal): Promise<PendingWait> | undefined {
    const pending = deps.pending?.() ?? [];
    if (pending.length === 0 || !isPlainObject(args)) return undefined;
    const id = args['capability_id'];
    if (typeof id !== 'string') return undefined;
    const provider = pending.find((entry) => entry.capability_ids.includes(id));
    if (provider === undefined || current().descriptors.has(id)) return undefined;
    const budget = args['budget'];
    const requested = isPlainObject(budget) ? budget['wall_time_ms'] : undefined;
    const limits = BUDGET_LIMITS.wall_time_ms;
    const waitMs = typeof requested === 'number' && Number.isFinite(requested) ? Math.min(Math.max(requested, limits.min), limits.max) : limits.default;
    const unadmitted = { capability_id: id, mode: modeOf(args), ...UNADMITTED };
    const started = performance.now();
    return new Promise<PendingWait>((resolve) => {
      const finish = (result: CapabilityResult | undefined): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancelled);
        resolve(result === undefined ? { waitedMs: performance.now() - started } : { refused: result });
      };
      const stillChecking = (status: 'TIMEOUT' | 'CANCELLED', error: JacobianError): CapabilityResult =>
        nonConclusionResult(unadmitted, { status, runtimeMs: performance.now() - started, diagnostics: [errorDiagnostic(error)] });
      const timer = setTimeout(
        () =>
          finish(
            stillChecking(
              'TIMEOUT',
              new JacobianError('EXECUTION_TIMEOUT', `capability_id: ${id}: its provider ${provider.provider} was still being checked (start-up health check) when the wall-time budget of ${waitMs} ms ran out; nothing ran`, {
                path: ['capability_id'],
                hint: 'call again: math.find lists the capability once its provider passes the check',
              }),
            ),
          ),
        waitMs,
      );
      const cancelled = (): void => finish(stillChecking('CANCELLED', new JacobianError('EXECUTION_CANCELLED', `capability_id: ${id}: cancelled while its provider ${provider.provider} was being checked; nothing ran`)));
      if (signal?.aborted === true) return cancelled();
      signal?.addEventListener('abort', cancelled, { once: true });
      void provider.settled.then((outcome) => {
        if ('installed' in outcome) return finish(undefined);
        finish(
          rejected(
            args,
            new JacobianError('PROVIDER_UNAVAILABLE', `capability_id: ${id} is not available: its provider ${provider.provider} failed its start-up health check (${outcome.unavailable.reason}), so its capabilities are not offered`, {
              path: ['capability_id'],
            }),
          ),
        );
      });
    });
  }

  async function answerRun(args: unknown, signal?: AbortSignal, onProgress?: ProgressListener): Promise<RunAnswer> {
    const waiting = waitForPendingProvider(args, signal);
    const waited = waiting === undefined ? { waitedMs: 0 } : await waiting;
    if ('refused' in waited) {
      const refused = waited.refused;
      const split = splitReasoningIds(args);
      const named = log !== undefined && (split.ids['reasoning_run_id'] !== undefined || split.ids['reasoning_call_id'] !== undefined);
      if (!named) return { result: refused, reasoning: null };
      const ids = ReasoningIdsSchema.safeParse(split.ids);
      return {
        result: refused,
        reasoning: {
          status: 'NOT_ADMITTED',
          reasoning_run_id: ids.success ? (ids.data.reasoning_run_id ?? null) : null,
          reasoning_call_id: ids.success ? (ids.data.reasoning_call_id ?? null) : null,
          violation: null,
          outcome_recorded: false,
          result_digest: null,
          next_required: null,
          guidance: 'Nothing ran and nothing was bound: call math.run again with the same reasoning IDs once the capability is listed.',
        },
      };
    }
    if (log === undefined) {
      const pending = admit(args);
      const admission = pending instanceof Promise ? await pending : pending;
      if ('rejected' in admission) return { result: admission.rejected, reasoning: null };
      return { result: await execute(admission.admitted, admission.capability, signal, onProgress, waited.waitedMs), reasoning: null };
    }
    const split = splitReasoningIds(args);
    const ids = ReasoningIdsSchema.safeParse(split.ids);
    if (!ids.success) {
      const result = nonConclusionResult({ capability_id: idOf(args), mode: modeOf(args), ...UNADMITTED }, { status: 'ERROR', diagnostics: zodIssuesToDiagnostics(ids.error, []) });
      return { result, reasoning: null };
    }
    const runId = ids.data.reasoning_run_id ?? null;
    const callId = ids.data.reasoning_call_id ?? null;
    const note = (fields: Partial<ReasoningNote> & Pick<ReasoningNote, 'status' | 'guidance'>): ReasoningNote => ({
      reasoning_run_id: runId,
      reasoning_call_id: callId,
      violation: null,
      outcome_recorded: false,
      result_digest: null,
      next_required: null,
      ...fields,
    });
    const pending = admit(split.rest);
    const admission = pending instanceof Promise ? await pending : pending;
    if ('rejected' in admission) {
      const named = runId !== null || callId !== null;
      return {
        result: admission.rejected,
        reasoning: named ? note({ status: 'NOT_ADMITTED', guidance: 'Nothing ran and nothing was bound: correct the request and call math.run again with the same reasoning IDs.' }) : null,
      };
    }
    const { admitted, capability } = admission;
    let binding: ReasoningBinding | undefined;
    let bindFailure: JacobianError | undefined;
    try {
      binding = await log.bindRun({ ...ids.data, capability_id: admitted.capability_id, mode: admitted.mode, request_digest: admitted.request_digest });
    } catch (error) {
      bindFailure = toAppError(error);
      if (log.mode === 'REQUIRED') {
        const data = bindFailure.data ?? {};
        const violation = typeof data['violation'] === 'string' ? (data['violation'] as ProtocolViolation) : null;
        const next = typeof data['next_required'] === 'string' ? (data['next_required'] as NextRequired) : null;
        return {
          result: rejected(args, bindFailure, capability),
          reasoning: note({ status: 'REJECTED', violation, next_required: next, guidance: bindFailure.hint ?? bindFailure.message }),
        };
      }
    }
    let result = await execute(admitted, capability, signal, onProgress, waited.waitedMs);
    if (binding === undefined) {
      // AUDIT, and the log itself failed: the run went ahead unlogged, and says so.
      const failure = bindFailure as JacobianError;
      return { result: withLogWarning(result, failure, 'the reasoning log could not bind this run'), reasoning: note({ status: 'NOT_BOUND', guidance: failure.message }) };
    }
    if (binding.status === 'NOT_BOUND') {
      const recorded = binding.recorded ? ' Recorded as a PROTOCOL_VIOLATION.' : '';
      return { result, reasoning: note({ status: 'NOT_BOUND', violation: binding.violation, guidance: `${binding.message}.${recorded}` }) };
    }
    try {
      const position = await log.recordOutcome(binding, result);
      return {
        result,
        reasoning: note({
          status: 'BOUND',
          outcome_recorded: true,
          result_digest: resultDigest(result),
          next_required: position?.next_required ?? null,
          guidance: position?.guidance ?? '',
        }),
      };
    } catch (error) {
      result = withLogWarning(result, toAppError(error), 'the reasoning log could not record this run\'s outcome');
      return {
        result,
        reasoning: note({
          status: 'BOUND',
          next_required: 'AFTER_TOOL',
          guidance: `The server could not record the outcome of call ${binding.reasoning_call_id}; close it with AFTER_TOOL, interpretation_status RESULT_UNAVAILABLE.`,
        }),
      };
    }
  }

  return {
    catalog: () => current().catalog,

    pendingProviders,

    find(args) {
      const parsed = FindArgumentsSchema.safeParse(args);
      const { catalog, descriptors } = current();
      const pending = pendingProviders();
      if (!parsed.success) return rejectedFindResponse(catalog, 'BROWSE', zodIssuesToDiagnostics(parsed.error, [], 'VALIDATION', { schema: FindArgumentsSchema, input: args }), pending);
      try {
        return find(parsed.data, { catalog, descriptors, pending });
      } catch (error) {
        return rejectedFindResponse(catalog, parsed.data.capability_id !== undefined ? 'INSPECT' : 'BROWSE', [errorDiagnostic(toAppError(error))], pending);
      }
    },

    run: async (args, signal, onProgress) => (await runWithReasoning(args, signal, onProgress)).result,

    runUnbound(args, signal) {
      const unbound = async (): Promise<CapabilityResult> => {
        const waiting = waitForPendingProvider(args, signal);
        const waited = waiting === undefined ? { waitedMs: 0 } : await waiting;
        if ('refused' in waited) return waited.refused;
        const pending = admit(splitReasoningIds(args).rest);
        const admission = pending instanceof Promise ? await pending : pending;
        if ('rejected' in admission) return admission.rejected;
        return execute(admission.admitted, admission.capability, signal, undefined, waited.waitedMs);
      };
      return traced(unbound, (result) => result);
    },

    runWithReasoning,

    reasoning: log ?? null,

    async readArtifact(uri, signal) {
      parseArtifactUri(uri);
      return deps.artifacts.get(uri, signal ? { signal } : undefined);
    },

    tenant: tenant ?? null,

    forTenant,

    close: () => deps.admissionPool?.close() ?? Promise.resolve(),
  };
}
