/**
 * What both queue adapters say the same way about split runs (see ShardHandler): how far a
 * parent has come, and what a child that never gave a result of its own stands for.
 */
import { errorDiagnostic } from '../capabilities/diagnostics.js';
import { nonConclusionResult, type AdmittedRun } from '../capabilities/host.js';
import type { RunProgress } from '../contracts/progress.js';
import type { CapabilityResult } from '../contracts/result.js';
import type { JacobianError } from '../errors.js';

/** A parent's progress: how many of its children have finished, whatever their outcome. */
export function shardProgress(done: number, total: number): RunProgress {
  return { progress: Math.min(done, total), total, message: `${Math.min(done, total)} of ${total} shards done` };
}

/** The result that stands for a child ended by `error` before it gave one (removed, failed, cut short). */
export function childWithoutResult(run: Pick<AdmittedRun, 'capability_id' | 'mode' | 'job_id' | 'request_digest'>, error: JacobianError): CapabilityResult {
  const status = error.code === 'EXECUTION_CANCELLED' ? 'CANCELLED' : error.code === 'EXECUTION_TIMEOUT' ? 'TIMEOUT' : 'ERROR';
  return nonConclusionResult(run, { status, diagnostics: [errorDiagnostic(error)] });
}
