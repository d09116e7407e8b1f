/**
 * Split runs: the host's side of CapabilityDefinition.shards. A run whose capability declares a
 * split plan fans out into child runs (full requests, admitted like any other, with job IDs
 * derived from the parent's) that any runner may take; the queue adapters carry them (see
 * ShardHandler in queue/run-queue.ts) and hand their results back here to be merged.
 *
 * What the host guarantees about a parent's result, whatever the capability's merge says:
 * - it is COMPLETED only when every child COMPLETED; otherwise it concludes nothing, its status
 *   comes from the children (ERROR before TIMEOUT before CANCELLED) and an ERROR diagnostic
 *   names each child that did not complete, with that child's own reason;
 * - its assurance is at most the weakest child's, and it is COMPLETE only when every child is;
 * - it lists every child's artifact URIs, and an INFO diagnostic per child (`SHARD_CHILD`, path
 *   `['shards', index]`) gives the child's job ID and status, so shard artifacts stay visible.
 *
 * Budgets: a child's budget defaults to the parent's and each field is capped at the parent's,
 * so no child may run longer, use more memory or return more than the parent was allowed. The
 * whole fan-out is bounded by the parent's wall time in the embedded queue, and by the API
 * caller's wait (wall time plus the queue's result margin) in the cluster queue, whose
 * withdrawal cancels the children.
 */
import { ASSURANCE_RANK, BudgetSchema, type AssuranceLevel, type Budget, type ResolvedBudget } from '../contracts/capability.js';
import type { ProgressListener } from '../contracts/progress.js';
import type { CapabilityResult, Diagnostic, ExecutionStatus } from '../contracts/result.js';
import { ErrorCode, JacobianError, toAppError, type ErrorCode as ErrorCodeName } from '../errors.js';
import type { ShardChildRun, ShardDecision, ShardHandler } from '../queue/run-queue.js';
import type { AdmissibleCapability, InstalledCapability, ShardChild } from './define.js';
import { errorDiagnostic } from './diagnostics.js';
import { admitRequest, executeCapability, nonConclusionResult, providerRef, type AdmittedRun, type ExecuteDependencies } from './host.js';

/** Most children one run may split into. */
export const MAX_SHARD_CHILDREN = 256;

/** Longest diagnostic message (DiagnosticSchema). */
const MESSAGE_MAX = 2000;
/** Longest completeness basis (CompletenessSchema). */
const BASIS_MAX = 1000;

/**
 * The job ID of child `index` of a parent: deterministic, so the same parent request twice
 * still computes once, and unique per parent, so a child belongs to exactly one parent.
 */
export function shardJobId(parentJobId: string, index: number): string {
  return `${parentJobId}.s${index}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A child's budget: what it asked for, else the parent's; never more than the parent's. */
function childBudget(parent: ResolvedBudget, requested: Budget | undefined): ResolvedBudget {
  return {
    wall_time_ms: Math.min(requested?.wall_time_ms ?? parent.wall_time_ms, parent.wall_time_ms),
    memory_mb: Math.min(requested?.memory_mb ?? parent.memory_mb, parent.memory_mb),
    max_output_bytes: Math.min(requested?.max_output_bytes ?? parent.max_output_bytes, parent.max_output_bytes),
  };
}

/**
 * Decide whether `run` is split, and into which children. Null when its capability has no
 * split plan, when the plan says to run it whole, or when its input or mode is invalid (the
 * whole run then reports that). A plan that cannot be carried out (a child of an unknown or
 * unsuitable capability, an invalid child payload, too many children) is an ERROR result.
 *
 * `lookup` finds a child's capability: its descriptor names the pool the child goes to.
 */
export function planShards(installed: InstalledCapability, run: AdmittedRun, lookup: (capabilityId: string) => AdmissibleCapability | undefined): ShardDecision {
  const { definition, descriptor } = installed;
  const hooks = definition.shards;
  if (hooks === undefined || !descriptor.modes.includes(run.mode)) return null;
  const parsed = definition.input.safeParse(run.payload);
  if (!parsed.success) return null;
  const fail = (error: JacobianError): ShardDecision => ({
    result: nonConclusionResult(run, { status: 'ERROR', diagnostics: [errorDiagnostic(error)], capabilityVersion: descriptor.version, provider: providerRef(installed) }),
  });
  let plan: ReturnType<typeof hooks.plan>;
  try {
    plan = hooks.plan(parsed.data, { mode: run.mode, budget: run.budget, jobId: run.job_id, requestDigest: run.request_digest });
  } catch (thrown) {
    const error = toAppError(thrown);
    return fail(error.code === 'INTERNAL' ? new JacobianError('INTERNAL', `${descriptor.id}: its split plan failed: ${error.message}`) : error);
  }
  if (plan === null) return null;
  if (plan.children.length === 0) return fail(new JacobianError('INTERNAL', `${descriptor.id}: its split plan named no child run`));
  if (plan.children.length > MAX_SHARD_CHILDREN) {
    return fail(
      new JacobianError('SIZE_LIMIT_EXCEEDED', `${descriptor.id}: the request splits into ${plan.children.length} child runs; at most ${MAX_SHARD_CHILDREN} are allowed`, {
        hint: `ask for at most ${MAX_SHARD_CHILDREN} shards`,
      }),
    );
  }
  const children: ShardChildRun[] = [];
  for (const [index, request] of plan.children.entries()) {
    const at = ['shards', index];
    const child = lookup(request.capability_id);
    if (child === undefined) {
      return fail(
        new JacobianError('UNKNOWN_CAPABILITY', `${descriptor.id}: shard ${index} asks for ${request.capability_id}, which this runner does not know`, { path: [...at, 'capability_id'] }),
      );
    }
    if (child.descriptor.role !== 'producer') {
      return fail(new JacobianError('INTERNAL', `${descriptor.id}: shard ${index} asks for ${request.capability_id}, a ${child.descriptor.role}; only producers run as shards`));
    }
    if (!child.descriptor.modes.includes(run.mode)) {
      return fail(
        new JacobianError('MODE_NOT_SUPPORTED', `${descriptor.id}: shard ${index} asks for ${request.capability_id}, which does not support ${run.mode}`, { path: [...at, 'capability_id'] }),
      );
    }
    const budget = BudgetSchema.safeParse(request.budget ?? {});
    if (!budget.success) {
      return fail(new JacobianError('INTERNAL', `${descriptor.id}: shard ${index} has an invalid budget: ${budget.error.issues[0]?.message ?? 'invalid'}`, { path: [...at, 'budget'] }));
    }
    const payload = child.input.safeParse(request.payload);
    if (!payload.success) {
      const issue = payload.error.issues[0];
      const path = (issue?.path ?? []).map((p) => (typeof p === 'symbol' ? String(p) : p));
      return fail(
        new JacobianError('INTERNAL', `${descriptor.id}: shard ${index}'s payload breaks ${request.capability_id}'s input schema at ${path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`, {
          path: [...at, 'payload', ...path],
        }),
      );
    }
    let admitted: AdmittedRun;
    try {
      const admittedRequest = admitRequest({ capability_id: request.capability_id, payload: request.payload, mode: run.mode, budget: childBudget(run.budget, budget.data) }, run.tenant);
      admitted = { ...admittedRequest, job_id: shardJobId(run.job_id, index) };
    } catch (thrown) {
      const error = toAppError(thrown);
      return fail(new JacobianError(error.code, `${descriptor.id}: shard ${index} cannot be admitted: ${error.message}`, { path: at }));
    }
    children.push({ run: admitted, target: { kind: 'pool', pool: child.descriptor.pool } });
  }
  return { children };
}

const STATUS_PRECEDENCE: readonly Exclude<ExecutionStatus, 'COMPLETED'>[] = ['ERROR', 'TIMEOUT', 'CANCELLED'];

const STATUS_CODE: Record<Exclude<ExecutionStatus, 'COMPLETED'>, ErrorCodeName> = {
  ERROR: 'INTERNAL',
  TIMEOUT: 'EXECUTION_TIMEOUT',
  CANCELLED: 'EXECUTION_CANCELLED',
};

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** One INFO diagnostic per child: its job ID, status and artifacts, in plan order. */
function childNotes(children: readonly ShardChild[]): Diagnostic[] {
  return children.map((child) => ({
    severity: 'INFO',
    code: 'SHARD_CHILD',
    stage: 'EXECUTION',
    message: `shard ${child.index} of ${children.length}: job ${child.job_id}, ${child.result.execution.status}, ${child.result.artifact_uris.length} artifact(s)`,
    path: ['shards', child.index],
    hint: null,
  }));
}

/** Why a child did not complete, as an ERROR diagnostic of its parent. */
function unfinishedDiagnostic(child: ShardChild, count: number): Diagnostic {
  const status = child.result.execution.status as Exclude<ExecutionStatus, 'COMPLETED'>;
  const reason = child.result.diagnostics.find((d) => d.severity === 'ERROR');
  const code = reason?.code ?? STATUS_CODE[status];
  return {
    severity: 'ERROR',
    code,
    stage: reason?.stage ?? (Object.hasOwn(ErrorCode, code) ? ErrorCode[code as ErrorCodeName].stage : 'EXECUTION'),
    message: clip(`shard ${child.index} of ${count} (job ${child.job_id}) ended ${status}${reason === undefined ? '' : `: ${reason.message}`}`, MESSAGE_MAX),
    path: ['shards', child.index],
    hint: reason?.hint ?? null,
  };
}

/** Options of {@link mergeShards}. */
export interface MergeShardsOptions {
  /** Epoch ms when the parent was planned; its runtime counts from here. Default: now. */
  startedAt?: number;
  onProgress?: ProgressListener;
}

/**
 * The parent's result from its children's (see the module comment for what is guaranteed).
 * The capability's merge runs only when every child COMPLETED, under the parent's budget, and
 * its outcome is checked as executeCapability checks any outcome. Never throws for a run-level
 * failure.
 */
export async function mergeShards(
  installed: InstalledCapability,
  run: AdmittedRun,
  children: readonly ShardChild[],
  deps: ExecuteDependencies,
  signal: AbortSignal,
  options: MergeShardsOptions = {},
): Promise<CapabilityResult> {
  const now = deps.now ?? Date.now;
  const startedAt = options.startedAt ?? now();
  const { definition, descriptor } = installed;
  const ordered = [...children].sort((a, b) => a.index - b.index);
  const notes = childNotes(ordered);
  const childArtifacts = unique(ordered.flatMap((child) => child.result.artifact_uris));
  const base = { capabilityVersion: descriptor.version, provider: providerRef(installed) };
  const hooks = definition.shards;

  const unfinished = ordered.filter((child) => child.result.execution.status !== 'COMPLETED');
  if (hooks === undefined || ordered.length === 0 || unfinished.length > 0) {
    let result: CapabilityResult;
    if (hooks === undefined || ordered.length === 0) {
      const why = hooks === undefined ? `${descriptor.id} declares no merge for split runs` : 'a split run had no child runs to merge';
      result = nonConclusionResult(run, { ...base, status: 'ERROR', diagnostics: [errorDiagnostic(new JacobianError('INTERNAL', why)), ...notes] });
    } else {
      const statuses = new Set(unfinished.map((child) => child.result.execution.status));
      const status = STATUS_PRECEDENCE.find((candidate) => statuses.has(candidate)) ?? 'ERROR';
      result = nonConclusionResult(run, { ...base, status, diagnostics: [...unfinished.map((child) => unfinishedDiagnostic(child, ordered.length)), ...notes] });
      result.completeness = {
        status: 'NOT_APPLICABLE',
        basis: clip(`no conclusion: shard(s) ${unfinished.map((child) => child.index).join(', ')} of ${ordered.length} did not complete`, BASIS_MAX),
      };
    }
    result.execution.runtime_ms = Math.max(0, Math.round(now() - startedAt));
    result.artifact_uris = childArtifacts;
    return result;
  }

  const weakest = ordered.reduce<AssuranceLevel>(
    (low, child) => (ASSURANCE_RANK[child.result.assurance.level] < ASSURANCE_RANK[low] ? child.result.assurance.level : low),
    descriptor.assurance_ceiling,
  );
  const partial = ordered.filter((child) => child.result.completeness.status !== 'COMPLETE');
  // The merge runs through executeCapability, so its outcome meets every check a run's does.
  const merging: InstalledCapability = {
    ...installed,
    definition: {
      ...definition,
      async run(input, context) {
        const outcome = await hooks.merge(input, ordered, context);
        if (ASSURANCE_RANK[outcome.assurance.level] > ASSURANCE_RANK[weakest]) {
          throw new JacobianError('INTERNAL', `${descriptor.id} merged its shards to ${outcome.assurance.level}, above the weakest shard's ${weakest}`);
        }
        if (outcome.completeness.status === 'COMPLETE' && partial.length > 0) {
          throw new JacobianError('INTERNAL', `${descriptor.id} merged its shards as COMPLETE although shard(s) ${partial.map((child) => child.index).join(', ')} are not`);
        }
        return outcome;
      },
    },
  };
  const result = await executeCapability(merging, run, deps, signal, options.onProgress);
  // The answer is the children's work: when they agree on their provider, the parent names it
  // (the runner that merged may serve the capability with another one).
  const providers = new Set(ordered.map((child) => JSON.stringify(child.result.provider)));
  const childProvider = providers.size === 1 ? (ordered[0]?.result.provider ?? null) : null;
  return {
    ...result,
    ...(childProvider === null || result.execution.status !== 'COMPLETED' ? {} : { provider: childProvider }),
    execution: { ...result.execution, runtime_ms: Math.max(result.execution.runtime_ms, Math.round(now() - startedAt)) },
    artifact_uris: unique([...result.artifact_uris, ...childArtifacts]),
    diagnostics: [...result.diagnostics, ...notes],
  };
}

/** Options of {@link createShardHandler}. */
export interface ShardHandlerOptions {
  /** The installed capability of an ID, when this runner serves it; also finds child capabilities. */
  capability(capabilityId: string): InstalledCapability | undefined;
  deps: ExecuteDependencies;
  /** The dependencies of one run (a tenant's run merges into its tenant's store); default `deps`. */
  depsFor?: (run: AdmittedRun) => ExecuteDependencies;
}

/**
 * The split-and-merge side of a runner, for the queue adapters (`shards` of
 * createEmbeddedRunQueue and createBullmqRunWorker).
 *
 * @example
 * const shards = createShardHandler({ capability: (id) => byId.get(id), deps: { artifacts, executor } });
 * const worker = createBullmqRunWorker({ ...options, handler, shards });
 */
export function createShardHandler(options: ShardHandlerOptions): ShardHandler {
  return {
    plan(run) {
      const installed = options.capability(run.capability_id);
      return Promise.resolve(installed === undefined ? null : planShards(installed, run, (id) => options.capability(id)));
    },
    async merge(run, children, signal, mergeOptions) {
      const installed = options.capability(run.capability_id);
      if (installed === undefined) {
        return nonConclusionResult(run, {
          status: 'ERROR',
          diagnostics: [errorDiagnostic(new JacobianError('UNKNOWN_CAPABILITY', `capability_id: ${run.capability_id} is not offered by this runner`, { path: ['capability_id'] }))],
        });
      }
      return mergeShards(installed, run, children, options.depsFor?.(run) ?? options.deps, signal, mergeOptions);
    },
  };
}
