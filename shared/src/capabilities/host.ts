import type { Attributes, Tracer } from '@opentelemetry/api';
import { z } from 'zod';

import { canonicalDigest } from '../canonical-json.js';
import type { ProgressListener } from '../contracts/progress.js';
import {
  ASSURANCE_RANK,
  resolveBudget,
  type CapabilityDescriptor,
  type CapabilityRequest,
  type Mode,
  type ResolvedBudget,
} from '../contracts/capability.js';
import {
  CapabilityResultSchema,
  type CapabilityResult,
  type Diagnostic,
  type ExecutionStatus,
  type ProviderRef,
} from '../contracts/result.js';
import { stageArtifacts } from '../artifacts/staged.js';
import type { ArtifactStore } from '../artifacts/store.js';
import type { IsolatedExecutor } from '../isolation/process-pool.js';
import { JacobianError, toAppError } from '../errors.js';
import { checkTenant } from '../tenancy/tenant.js';
import { activeMetrics, activeTracer, inSpan, recordResult, runSpanAttributes, SpanAttribute } from '../telemetry/instrumentation.js';
import type { CapabilityContext, CapabilityOutcome, InstalledCapability } from './define.js';
import { errorDiagnostic, zodIssuesToDiagnostics } from './diagnostics.js';
import { inOwnTurn, jsonLongerThanAbout } from './turns.js';

/** A request after admission: complete, with its budget resolved and its identity fixed. */
export interface AdmittedRun {
  capability_id: string;
  mode: Mode;
  payload: Record<string, unknown>;
  budget: ResolvedBudget;
  /** `sha256:<hex>` of the canonical request. */
  request_digest: string;
  job_id: string;
  /**
   * The tenant the run belongs to, when the endpoint is authenticated; absent for the default
   * tenant. Its artifacts are read and written in that tenant's store.
   */
  tenant?: string;
}

/**
 * Fix a request's identity. The digest covers everything that can change the answer, so the
 * same request twice is one job. Throws CANONICAL_JSON_INVALID (e.g. a float in the payload).
 */
export function admitRequest(request: CapabilityRequest, tenant?: string): AdmittedRun {
  const budget = resolveBudget(request.budget);
  const digest = canonicalDigest({
    capability_id: request.capability_id,
    mode: request.mode,
    payload: request.payload,
    budget,
  });
  const run: AdmittedRun = {
    capability_id: request.capability_id,
    mode: request.mode,
    payload: request.payload,
    budget,
    request_digest: `sha256:${digest}`,
    // A tenant's runs are its own jobs: the same request from two tenants computes twice, each
    // into its own store. The request digest (what a verification record binds) is the same.
    job_id: tenant === undefined ? `run-${digest.slice(0, 32)}` : `run-${digest.slice(0, 32)}.${checkTenant(tenant)}`,
  };
  if (tenant !== undefined) run.tenant = tenant;
  return run;
}

export function providerRef(installed: { readonly descriptor: CapabilityDescriptor }): ProviderRef {
  const runtime = installed.descriptor.provider_runtime;
  return { name: runtime.provider, version: runtime.version, digest_kind: runtime.digest_kind, digest: runtime.digest };
}

export interface NonConclusionOptions {
  status: Exclude<ExecutionStatus, 'COMPLETED'>;
  diagnostics: Diagnostic[];
  runtimeMs?: number;
  capabilityVersion?: string | null;
  provider?: ProviderRef | null;
}

/** A result that concludes nothing: admission failures, timeouts, cancellations, errors. */
export function nonConclusionResult(run: Pick<AdmittedRun, 'capability_id' | 'mode' | 'job_id' | 'request_digest'>, options: NonConclusionOptions): CapabilityResult {
  return {
    capability_id: run.capability_id,
    capability_version: options.capabilityVersion ?? null,
    mode: run.mode,
    execution: {
      status: options.status,
      runtime_ms: Math.max(0, Math.round(options.runtimeMs ?? 0)),
      job_id: run.job_id,
      request_digest: run.request_digest,
    },
    output: null,
    scope: null,
    completeness: { status: 'NOT_APPLICABLE', basis: 'no mathematical conclusion: the run did not complete' },
    qualifiers: [],
    assurance: { level: 'HEURISTIC', basis: 'no mathematical conclusion', verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: [],
    provider: options.provider ?? null,
    diagnostics: options.diagnostics,
  };
}

export interface ExecuteDependencies {
  artifacts: ArtifactStore;
  executor: IsolatedExecutor;
  now?: () => number;
}

/** Payloads longer than this, as JSON (about), are parsed in a turn of the event loop of their own. */
const LARGE_PAYLOAD_CHARS = 64 * 1024;

const compiledInputs = new WeakMap<z.ZodType, z.ZodType>();

/**
 * A capability's input schema compiled by zod (`z.compile`), made once per schema: a valid
 * payload is parsed by generated code (a 300 KB inline graph: several times faster), an invalid
 * one by zod's ordinary parser, so that the errors are the ones the schema has always given. A
 * schema zod cannot compile is used as it is.
 */
function compiledInput(schema: z.ZodType): z.ZodType {
  let compiled = compiledInputs.get(schema);
  if (compiled === undefined) {
    compiled = z.compile(schema);
    compiledInputs.set(schema, compiled);
  }
  return compiled;
}

function statusForError(error: JacobianError): Exclude<ExecutionStatus, 'COMPLETED'> {
  if (error.code === 'EXECUTION_TIMEOUT') return 'TIMEOUT';
  if (error.code === 'EXECUTION_CANCELLED') return 'CANCELLED';
  return 'ERROR';
}

/**
 * Run one installed capability on an admitted request: parse the payload with the
 * capability's schema before anything else, run it, then hold the outcome to the
 * descriptor's ceiling and the result contract, meanwhile syncing the artifacts it lists (what
 * the run stored with deferSync becomes durable; a failed sync makes the run an ERROR). What the
 * run stores is staged and written to the store only when it succeeds: a run that ends otherwise
 * leaves the store as it was.
 * Never throws for a run-level failure.
 *
 * With tracing on, the run is an execution span with the provider call as its child; with
 * metrics on, its runtime and status are counted. With both off, nothing is added.
 */
export function executeCapability(
  installed: InstalledCapability,
  run: AdmittedRun,
  deps: ExecuteDependencies,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<CapabilityResult> {
  const tracer = activeTracer();
  const metrics = activeMetrics();
  if (tracer === undefined && metrics === undefined) return execute(installed, run, deps, signal, onProgress, undefined);
  const counted = (result: CapabilityResult): CapabilityResult => {
    metrics?.runFinished(result.capability_id, result.mode, result.execution.status, result.execution.runtime_ms / 1000);
    return result;
  };
  if (tracer === undefined) return execute(installed, run, deps, signal, onProgress, undefined).then(counted);
  const attributes: Attributes = { ...runSpanAttributes(run), [SpanAttribute.provider]: installed.descriptor.provider_runtime.provider };
  return inSpan(tracer, `execute ${run.capability_id}`, { attributes }, async (span) => {
    const result = await execute(installed, run, deps, signal, onProgress, tracer);
    recordResult(span, result);
    return counted(result);
  });
}

/** The provider call of a traced run: its own span, named for the provider. */
function providerCall(tracer: Tracer, installed: InstalledCapability, call: () => Promise<CapabilityOutcome<unknown>>): Promise<CapabilityOutcome<unknown>> {
  const runtime = installed.descriptor.provider_runtime;
  const attributes: Attributes = {
    [SpanAttribute.provider]: runtime.provider,
    'jacobian.provider.version': runtime.version,
    [SpanAttribute.capability]: installed.descriptor.id,
  };
  return inSpan(tracer, `provider ${runtime.provider}`, { attributes }, async (span) => {
    const outcome = await call();
    span.setAttribute(SpanAttribute.outcome, outcome.status);
    return outcome;
  });
}

async function execute(
  installed: InstalledCapability,
  run: AdmittedRun,
  deps: ExecuteDependencies,
  signal: AbortSignal,
  onProgress: ProgressListener | undefined,
  tracer: Tracer | undefined,
): Promise<CapabilityResult> {
  const now = deps.now ?? Date.now;
  const started = now();
  const { definition, descriptor } = installed;
  const base = { capabilityVersion: descriptor.version, provider: providerRef(installed) };
  const fail = (status: Exclude<ExecutionStatus, 'COMPLETED'>, diagnostics: Diagnostic[]): CapabilityResult =>
    nonConclusionResult(run, { ...base, status, diagnostics, runtimeMs: now() - started });

  if (!descriptor.modes.includes(run.mode)) {
    return fail('ERROR', [
      errorDiagnostic(
        new JacobianError('MODE_NOT_SUPPORTED', `mode: ${descriptor.id} supports ${descriptor.modes.join(', ')}, not ${run.mode}`, {
          path: ['mode'],
        }),
      ),
    ]);
  }
  // A large payload's parse (an inline graph of 300 KB: milliseconds, tens under load) takes a turn of the event
  // loop of its own (see turns.ts), so that runs dispatched together do not parse back to back
  // while nothing else on this thread (the MCP API, in `jacobian serve`) is answered.
  const input = compiledInput(definition.input);
  const parsed = jsonLongerThanAbout(run.payload, LARGE_PAYLOAD_CHARS) ? await inOwnTurn(() => input.safeParse(run.payload)) : input.safeParse(run.payload);
  if (!parsed.success) return fail('ERROR', zodIssuesToDiagnostics(parsed.error, ['payload'], 'VALIDATION', { schema: definition.input, input: run.payload }));

  // One controller for the caller's abort and the wall-time budget (cheaper per run than
  // AbortSignal.timeout plus AbortSignal.any), released as soon as the capability returns.
  const controller = new AbortController();
  const combined = controller.signal;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`the wall-time budget of ${run.budget.wall_time_ms} ms ended`, 'TimeoutError'));
  }, run.budget.wall_time_ms);
  const forward = (): void => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  // What the run stores is staged, and written to the store only once the run has succeeded
  // (its outcome passed every check below): nothing of a refused, failed, timed-out or cancelled
  // run remains in the store (see artifacts/staged.ts).
  const staged = stageArtifacts(deps.artifacts);
  const failStaged = (status: Exclude<ExecutionStatus, 'COMPLETED'>, diagnostics: Diagnostic[]): CapabilityResult => {
    staged.discard();
    return fail(status, diagnostics);
  };
  let outcome: CapabilityOutcome<unknown>;
  try {
    const context: CapabilityContext = {
      mode: run.mode,
      budget: run.budget,
      jobId: run.job_id,
      requestDigest: run.request_digest,
      artifacts: staged,
      executor: deps.executor,
      signal: combined,
      deadline: started + run.budget.wall_time_ms,
      progress: (progress) => {
        // Informational: a listener's failure must not become the run's.
        try {
          onProgress?.(progress);
        } catch {
          // ignored
        }
      },
    };
    outcome = await (tracer === undefined ? definition.run(parsed.data, context) : providerCall(tracer, installed, () => definition.run(parsed.data, context)));
  } catch (thrown) {
    let error = toAppError(thrown);
    if (signal.aborted) error = new JacobianError('EXECUTION_CANCELLED', 'the run was cancelled; nothing was concluded');
    else if (timedOut) {
      error = new JacobianError('EXECUTION_TIMEOUT', `the run exceeded its wall-time budget of ${run.budget.wall_time_ms} ms; nothing was concluded`);
    }
    return failStaged(statusForError(error), [errorDiagnostic(error)]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', forward);
  }

  if (ASSURANCE_RANK[outcome.assurance.level] > ASSURANCE_RANK[descriptor.assurance_ceiling]) {
    return failStaged('ERROR', [
      errorDiagnostic(
        new JacobianError('INTERNAL', `${descriptor.id} claimed ${outcome.assurance.level} above its ceiling ${descriptor.assurance_ceiling}`),
      ),
    ]);
  }
  if (outcome.output !== null) {
    const checked = definition.output.safeParse(outcome.output);
    if (!checked.success) {
      return failStaged('ERROR', [
        errorDiagnostic(
          new JacobianError('INTERNAL', `${descriptor.id} produced output that violates its own output schema: ${checked.error.issues[0]?.message ?? ''}`),
        ),
      ]);
    }
  }
  const candidate: CapabilityResult = {
    capability_id: descriptor.id,
    capability_version: descriptor.version,
    mode: run.mode,
    execution: {
      status: outcome.status,
      runtime_ms: Math.max(0, Math.round(now() - started)),
      job_id: run.job_id,
      request_digest: run.request_digest,
    },
    output: outcome.output,
    scope: outcome.scope,
    completeness: outcome.completeness,
    qualifiers: outcome.qualifiers,
    assurance: outcome.assurance,
    obligations: outcome.obligations,
    relationships: outcome.relationships,
    artifact_uris: outcome.artifact_uris,
    provider: providerRef(installed),
    diagnostics: outcome.diagnostics,
  };
  const valid = CapabilityResultSchema.safeParse(candidate);
  if (!valid.success) {
    const issue = valid.error.issues[0];
    return failStaged('ERROR', [
      errorDiagnostic(
        new JacobianError('INTERNAL', `${descriptor.id} produced a result that breaks the result contract at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? ''}`),
      ),
    ]);
  }
  if (valid.data.execution.status !== 'COMPLETED') {
    // A run that stopped short (TIMEOUT, CANCELLED, ERROR) concludes nothing, and keeps nothing.
    staged.discard();
    return valid.data;
  }
  // The run succeeded: what it staged is written to the store, and that with what else the
  // outcome lists (stored with deferSync, say, before this run) becomes durable; the result is
  // returned only once it is.
  try {
    await staged.commit();
    await deps.artifacts.sync(outcome.artifact_uris);
  } catch (error) {
    return fail('ERROR', [errorDiagnostic(toAppError(error))]);
  }
  return valid.data;
}
