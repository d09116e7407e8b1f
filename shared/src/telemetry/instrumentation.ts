/**
 * Where instrumented code finds this process's tracer and metrics.
 *
 * This follows OpenTelemetry's split of API and SDK: library code (the queue adapters, the
 * capability host, the artifact stores) only asks, and the entry point of a process installs
 * what its configuration turned on. It is process state on purpose, like the OpenTelemetry API's
 * own global provider: threading a tracer through every port would touch every call site for
 * something that must cost nothing when it is off. With nothing installed (the default, and
 * every unit test), each instrumentation point is one `undefined` check: no span, no context,
 * no clock read, no allocation.
 */
import { context, SpanStatusCode, type Attributes, type Context, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';

import type { AdmittedRun } from '../capabilities/host.js';
import type { CapabilityResult } from '../contracts/result.js';
import type { RunTarget } from '../queue/run-queue.js';
import { ErrorCode, toAppError } from '../errors.js';
import type { JacobianMetrics } from './metrics.js';

/** Span attribute names. Identities, modes and outcomes only: never payloads, inputs, outputs or tokens. */
export const SpanAttribute = {
  capability: 'jacobian.capability.id',
  mode: 'jacobian.mode',
  pool: 'jacobian.pool',
  /** The run's execution status (COMPLETED, ERROR, TIMEOUT, CANCELLED). */
  outcome: 'jacobian.outcome',
  provider: 'jacobian.provider',
  tenant: 'jacobian.tenant',
  jobId: 'jacobian.job.id',
  /** The run's assurance level (VERIFIED, ...), where one is known. */
  assurance: 'jacobian.assurance',
  artifactStore: 'jacobian.artifact.store',
  artifactBytes: 'jacobian.artifact.bytes',
  /** A verification record check's verdict: verified, rejected (the record does not bind the result), unchecked (it could not be read). */
  verification: 'jacobian.verification',
  /** The error code of a failure (the code only: messages may quote a request). */
  errorCode: 'jacobian.error.code',
} as const;

/** Span attributes of an admitted run: its capability, mode, job and tenant; never its payload. */
export function runSpanAttributes(run: AdmittedRun): Attributes {
  return {
    [SpanAttribute.capability]: run.capability_id,
    [SpanAttribute.mode]: run.mode,
    [SpanAttribute.jobId]: run.job_id,
    ...(run.tenant === undefined ? {} : { [SpanAttribute.tenant]: run.tenant }),
  };
}

/** The pool a run target names, as spans and metrics label it (the checker's queue is "checker"). */
export function targetPool(target: RunTarget): string {
  return target.kind === 'pool' ? target.pool : 'checker';
}

/**
 * Attributes of a run job's producer (`send`) or consumer (`process`) span, after OTel's
 * messaging conventions: the run's identity, its pool, the BullMQ queue and the job ID.
 */
export function messagingSpanAttributes(run: AdmittedRun, target: RunTarget, queueName: string, operation: 'send' | 'process'): Attributes {
  return {
    ...runSpanAttributes(run),
    [SpanAttribute.pool]: targetPool(target),
    'messaging.system': 'bullmq',
    'messaging.operation.type': operation,
    'messaging.destination.name': queueName,
    'messaging.message.id': run.job_id,
  };
}

export interface Telemetry {
  readonly tracer?: Tracer;
  readonly metrics?: JacobianMetrics;
}

let installed: Telemetry = {};

/**
 * Install the tracer and metrics of this process (the entry point does, once it has read its
 * configuration). Returns the function that puts back what was installed before.
 */
export function installTelemetry(telemetry: Telemetry): () => void {
  const previous = installed;
  installed = { ...telemetry };
  return () => {
    installed = previous;
  };
}

/** The tracer, when tracing is on; undefined otherwise. */
export function activeTracer(): Tracer | undefined {
  return installed.tracer;
}

/** The metrics, when this process serves them; undefined otherwise. */
export function activeMetrics(): JacobianMetrics | undefined {
  return installed.metrics;
}

/** Mark `span` failed with the error's code (never its message, which may quote a request). */
export function markSpanError(span: Span, error: unknown): void {
  const code = toAppError(error).code;
  span.setAttribute(SpanAttribute.errorCode, code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: code });
}

/**
 * The code of an infrastructure failure a result reports (a retryable code, or INTERNAL), or
 * undefined when the result is a run-level outcome (a conclusion, a timeout, a rejected input).
 */
function infrastructureFailure(result: CapabilityResult): string | undefined {
  if (result.execution.status !== 'ERROR') return undefined;
  for (const diagnostic of result.diagnostics) {
    if (diagnostic.severity !== 'ERROR') continue;
    const known = (ErrorCode as Record<string, { retryable: boolean } | undefined>)[diagnostic.code];
    if (diagnostic.code === 'INTERNAL' || known?.retryable === true) return diagnostic.code;
  }
  return undefined;
}

/** Record a result's outcome on `span`, failing the span when the result reports an infrastructure error. */
export function recordResult(span: Span, result: CapabilityResult): void {
  span.setAttribute(SpanAttribute.outcome, result.execution.status);
  span.setAttribute(SpanAttribute.assurance, result.assurance.level);
  const failure = infrastructureFailure(result);
  if (failure !== undefined) {
    span.setAttribute(SpanAttribute.errorCode, failure);
    span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
  }
}

/**
 * Run `work` inside a new active span (child of `parent`, default the active context), ending
 * it when `work` settles; a thrown error marks the span failed and is rethrown.
 */
export function inSpan<T>(tracer: Tracer, name: string, options: SpanOptions, work: (span: Span) => Promise<T>, parent?: Context): Promise<T> {
  return tracer.startActiveSpan(name, options, parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markSpanError(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}
