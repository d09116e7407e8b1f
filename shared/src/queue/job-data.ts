/**
 * The wire contract between the API side and the runners of the BullMQ run queue: what a job
 * carries, what it returns, how an infrastructure failure is reported, and the Redis names
 * both sides must agree on. Both sides parse what they read; nothing crossing Redis is trusted.
 */
import { z } from 'zod';

import type { AdmittedRun } from '../capabilities/host.js';
import { MAX_SHARD_CHILDREN } from '../capabilities/shards.js';
import { BudgetSchema, Mode } from '../contracts/capability.js';
import { CapabilityResultSchema, type CapabilityResult } from '../contracts/result.js';
import { ERROR_CODES, JacobianError, toAppError } from '../errors.js';
import { TenantSchema } from '../tenancy/tenant.js';
import type { RunTarget } from './run-queue.js';

/**
 * A BullMQ custom job ID: no `:` (it separates Redis key segments) and not all digits (BullMQ
 * rejects integer-like custom IDs, which collide with its own counters).
 */
export const JobIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a job ID is 1–128 of [A-Za-z0-9._-], starting alphanumeric')
  .refine((id) => !/^\d+$/.test(id), 'a job ID is not all digits');

/** An {@link AdmittedRun} as it travels in job data. */
export const AdmittedRunSchema = z
  .object({
    capability_id: z.string().min(1).max(128),
    mode: z.enum(Mode),
    payload: z.record(z.string(), z.unknown()),
    budget: BudgetSchema.required(),
    request_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    job_id: JobIdSchema,
    tenant: TenantSchema.optional(),
  })
  .strict();

/** A {@link RunTarget} as it travels in job data. */
export const RunTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pool'), pool: z.string().regex(/^[a-z][a-z0-9-]*$/) }).strict(),
  z.object({ kind: z.literal('checker') }).strict(),
]);

/**
 * A parent's split, written into its job by the runner that planned it, so that every later
 * activation of the parent (after a stall, or to merge) works from the same children whichever
 * runner takes it.
 */
export const FanoutSchema = z
  .object({
    /** Epoch ms when the parent was planned. */
    started_at: z.number().int().nonnegative(),
    /** In plan order; each child's job is `run.job_id` in the BullMQ queue `queue`. */
    children: z
      .array(z.object({ run: AdmittedRunSchema, target: RunTargetSchema, queue: z.string().min(1).max(200) }).strict())
      .min(1)
      .max(MAX_SHARD_CHILDREN),
  })
  .strict();
export type Fanout = z.infer<typeof FanoutSchema>;

/** What one BullMQ job carries. */
export const RunJobDataSchema = z
  .object({
    run: AdmittedRunSchema,
    target: RunTargetSchema,
    /**
     * W3C trace context (`traceparent`, `tracestate`) of the job's producer span, which the
     * consumer continues (see telemetry/trace-context.ts); `{}` when tracing is off.
     */
    trace: z.record(z.string(), z.string()).default({}),
    /** Present once a runner split the run into child jobs. */
    fanout: FanoutSchema.optional(),
  })
  .strict();
/** The parsed job data, with the trace context filled in. */
export type RunJobData = z.infer<typeof RunJobDataSchema>;

// The schema and the port's types describe the same values; fail the build if they drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const runShapeMatches: Same<z.infer<typeof AdmittedRunSchema>, AdmittedRun> = true;
const targetShapeMatches: Same<z.infer<typeof RunTargetSchema>, RunTarget> = true;
void runShapeMatches;
void targetShapeMatches;

/** A job's return value: exactly a CapabilityResult, whatever its execution status. */
export const RunJobResultSchema = CapabilityResultSchema;

/** Parse job data read from Redis; throws INVALID_REQUEST naming the first offending field. */
export function parseRunJobData(data: unknown): RunJobData {
  const parsed = RunJobDataSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) ?? [];
  throw new JacobianError('INVALID_REQUEST', `job data breaks the run-job contract at ${path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`, {
    path,
  });
}

/** Parse a job's return value read from Redis; throws INTERNAL when a runner broke the result contract. */
export function parseRunJobResult(value: unknown): CapabilityResult {
  const parsed = RunJobResultSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new JacobianError(
    'INTERNAL',
    `a runner returned a result that breaks the result contract at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
  );
}

const JobFailureSchema = z.object({ code: z.enum(ERROR_CODES), message: z.string() }).strict();

/**
 * Encode an infrastructure failure as a BullMQ failure reason. BullMQ keeps only the thrown
 * error's message, so the code rides in it as JSON and survives the trip through Redis.
 */
export function encodeJobFailure(error: JacobianError): string {
  return JSON.stringify({ code: error.code, message: error.message });
}

/** Decode a BullMQ failure reason; a reason we did not encode becomes INTERNAL with its text. */
export function decodeJobFailure(reason: string | undefined): JacobianError {
  if (reason === undefined || reason === '') return new JacobianError('INTERNAL', 'the job failed without a reason');
  try {
    const parsed = JobFailureSchema.safeParse(JSON.parse(reason));
    if (parsed.success) return toAppError(parsed.data);
  } catch {
    // Not ours (BullMQ's own reasons, e.g. "job stalled more than allowable limit"): keep the text.
  }
  return new JacobianError('INTERNAL', reason.slice(0, 2000));
}

/** The default BullMQ queue per target: `jacobian-pool-<pool>` or `jacobian-checker`. */
export function defaultRunQueueName(target: RunTarget): string {
  return target.kind === 'checker' ? 'jacobian-checker' : `jacobian-pool-${target.pool}`;
}

/**
 * Redis names the adapter keeps beside BullMQ's own keys, under the same prefix. A separate
 * `jacobian-run` segment keeps them apart from anything BullMQ writes under `<prefix>:<queue>:`.
 */
export function runQueueKeys(prefix: string, queueName: string) {
  const base = `${prefix}:jacobian-run:${queueName}`;
  return {
    /** Pub/sub channel; a message is a job ID whose runner should abort it. */
    cancelChannel: `${base}:cancel`,
    /** Set while a job is being cancelled, so a runner that picks it up late still sees it. */
    cancelMarker: (jobId: string) => `${base}:cancelled:${jobId}`,
    /** How many API processes are waiting for a job; the last to leave cancels it. */
    waiters: (jobId: string) => `${base}:waiters:${jobId}`,
  };
}
