import type { ProgressListener } from '../contracts/progress.js';
import type { CapabilityResult } from '../contracts/result.js';
import type { AdmittedRun } from '../capabilities/host.js';

/** Where a run goes: a producer pool by name, or the checker service. */
export type RunTarget = { kind: 'pool'; pool: string } | { kind: 'checker' };

/**
 * Something that executes admitted runs: a runner (for its pools) or the checker service.
 * `onProgress` receives the run's progress reports, if it makes any.
 */
export type RunHandler = (run: AdmittedRun, signal: AbortSignal, onProgress?: ProgressListener) => Promise<CapabilityResult>;

/**
 * The run-queue port: submit an admitted run and await its result. The same job ID submitted
 * twice while the first is in flight is computed once; both callers get the result. Aborting
 * `signal` withdraws this caller; the work is cancelled once no caller is waiting for it.
 */
export interface RunQueue {
  /**
   * `onProgress` receives the run's progress reports while this caller waits (every caller of a
   * shared job gets them). Reports are informational and may be dropped or coalesced.
   * Resolves with a result that satisfies the result contract (CapabilityResultSchema): an
   * adapter whose results cross a process boundary parses each one as it arrives.
   */
  submit(run: AdmittedRun, target: RunTarget, options?: { signal?: AbortSignal; onProgress?: ProgressListener }): Promise<CapabilityResult>;
  stats(): { inFlight: number; queued: number; running: number };
  close(): Promise<void>;
}
