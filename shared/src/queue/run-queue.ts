import type { ProgressListener } from '../contracts/progress.js';
import type { CapabilityResult } from '../contracts/result.js';
import type { ShardChild } from '../capabilities/define.js';
import type { AdmittedRun } from '../capabilities/host.js';
import type { CapabilityDescriptor } from '../contracts/capability.js';

/** Where a run goes: a producer pool by name, or the checker service. */
export type RunTarget = { kind: 'pool'; pool: string } | { kind: 'checker' };

/** Where runs of a capability go: a checker's to the checker service, a producer's to its pool. */
export function runTargetOf(descriptor: Pick<CapabilityDescriptor, 'role' | 'pool'>): RunTarget {
  return descriptor.role === 'checker' ? { kind: 'checker' } : { kind: 'pool', pool: descriptor.pool };
}

/**
 * Something that executes admitted runs: a runner (for its pools) or the checker service.
 * `onProgress` receives the run's progress reports, if it makes any.
 */
export type RunHandler = (run: AdmittedRun, signal: AbortSignal, onProgress?: ProgressListener) => Promise<CapabilityResult>;

/** One child run of a split: admitted, with its deterministic job ID, and where it goes. */
export interface ShardChildRun {
  readonly run: AdmittedRun;
  readonly target: RunTarget;
}

/**
 * What a runner decides for a run it may split: run it whole (null), fan it out into child runs,
 * or answer at once (a plan that cannot be made is an ERROR result).
 */
export type ShardDecision = null | { readonly children: readonly ShardChildRun[] } | { readonly result: CapabilityResult };

/**
 * The optional split-and-merge side of a runner (see CapabilityDefinition.shards; built by
 * createShardHandler). A queue adapter given one calls `plan` for every pool run that is not
 * itself a child, before the run's handler. When it fans out, the adapter runs the children as
 * ordinary runs of their targets (any runner, deterministic job IDs, the same retries and
 * cancellation), holds no concurrency slot for the parent while they run, then calls `merge`
 * with every child's result in plan order: a child that failed or was removed is given as an
 * ERROR or CANCELLED result, never left out. `merge` never throws for a run-level outcome.
 */
export interface ShardHandler {
  plan(run: AdmittedRun, signal: AbortSignal): Promise<ShardDecision>;
  /** `startedAt`: epoch ms when the parent was planned; the parent's runtime is counted from it. */
  merge(
    run: AdmittedRun,
    children: readonly ShardChild[],
    signal: AbortSignal,
    options: { startedAt: number; onProgress?: ProgressListener },
  ): Promise<CapabilityResult>;
}

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
