import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { CapabilityRequestSchema } from '../contracts/capability.js';
import type { ProviderRuntime } from '../contracts/provider.js';
import { CapabilityResultSchema, type CapabilityResult } from '../contracts/result.js';
import { JacobianError } from '../errors.js';
import { completedRunResult } from '../queue/fixtures/results.js';
import { installSumRange, NO_ARTIFACTS, NO_EXECUTOR, SUM_RANGE_ID } from '../queue/fixtures/sum-range.js';
import { installCapability, type CapabilityDefinition, type CapabilityOutcome, type ShardChild, type ShardHooks, type ShardRequest } from './define.js';
import { admitRequest, nonConclusionResult, providerRef, type AdmittedRun } from './host.js';
import { createShardHandler, MAX_SHARD_CHILDREN, mergeShards, planShards, shardJobId } from './shards.js';

const RUNTIME: ProviderRuntime = {
  provider: 'fake-split-provider',
  availability: 'AVAILABLE',
  version: '1.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: 'e'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

const Input = z.object({ n: z.number().int().min(0).max(1000), part: z.number().int().optional() }).strict();
const Output = z.object({ total: z.number().int() }).strict();
type In = z.infer<typeof Input>;
type Out = z.infer<typeof Output>;

function outcome(total: number, overrides: Partial<CapabilityOutcome<Out>> = {}): CapabilityOutcome<Out> {
  return {
    status: 'COMPLETED',
    output: { total },
    scope: { kind: 'EXACT_INPUT', statement: 'n as given', input_uris: [] },
    completeness: { status: 'COMPLETE', basis: 'every part added' },
    qualifiers: ['EXACT'],
    assurance: { level: 'COMPUTED', basis: 'integer arithmetic', verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: [],
    diagnostics: [],
    ...overrides,
  };
}

/** A capability `test.split` whose split plan and merge the test chooses; it lives in pool `heavy`. */
function splitting(shards: Partial<ShardHooks<In, Out>>, id = 'test.split'): ReturnType<typeof installCapability> {
  const definition: CapabilityDefinition<In, Out> = {
    id,
    version: '2.0.0',
    title: 'Split test',
    description: 'A capability whose split plan a test chooses.',
    tags: [],
    domain: 'arithmetic',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [],
    input: Input,
    output: Output,
    examples: [],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'n as given',
    limits: {},
    run: (input) => Promise.resolve(outcome(input.n)),
    shards: {
      plan: shards.plan ?? ((input) => (input.part === undefined ? { children: [0, 1].map((part) => ({ capability_id: id, payload: { n: input.n, part } })) } : null)),
      merge: shards.merge ?? ((_input, children) => Promise.resolve(outcome(children.reduce((sum, child) => sum + (child.result.output as Out).total, 0)))),
    },
  };
  return installCapability(definition, RUNTIME, null);
}

function admitted(payload: Record<string, unknown>, budget?: Record<string, number>, capability_id = 'test.split'): AdmittedRun {
  return admitRequest(CapabilityRequestSchema.parse({ capability_id, payload, ...(budget === undefined ? {} : { budget }) }));
}

const deps = { artifacts: NO_ARTIFACTS, executor: NO_EXECUTOR };
const never = new AbortController().signal;

function plannedChildren(decision: ReturnType<typeof planShards>) {
  if (decision === null || !('children' in decision)) throw new Error(`expected children, got ${JSON.stringify(decision)}`);
  return decision.children;
}

function plannedError(decision: ReturnType<typeof planShards>): CapabilityResult {
  if (decision === null || !('result' in decision)) throw new Error(`expected a result, got ${JSON.stringify(decision)}`);
  expect(CapabilityResultSchema.safeParse(decision.result).success).toBe(true);
  return decision.result;
}

function child(index: number, parent: AdmittedRun, result: (run: AdmittedRun) => CapabilityResult): ShardChild {
  const run = { ...admitted({ n: parent.payload['n'], part: index }), job_id: shardJobId(parent.job_id, index) };
  return { index, job_id: run.job_id, result: result(run) };
}

const uri = (digit: string): string => `artifact://sha256/${digit.repeat(64)}`;

describe('planShards', () => {
  it('admits each child like any request, with a job ID derived from the parent and the pool its descriptor names', () => {
    const installed = splitting({});
    const parent = admitted({ n: 7 });
    const children = plannedChildren(planShards(installed, parent, () => installed));
    expect(children.map((c) => c.run.job_id)).toEqual([`${parent.job_id}.s0`, `${parent.job_id}.s1`]);
    for (const [index, c] of children.entries()) {
      const direct = admitted({ n: 7, part: index });
      expect(c.run).toEqual({ ...direct, job_id: shardJobId(parent.job_id, index) });
      expect(c.target).toEqual({ kind: 'pool', pool: 'heavy' });
    }
  });

  it('gives children the parent\'s budget by default and never more than it', () => {
    const plan = (): { children: ShardRequest[] } => ({
      children: [
        { capability_id: 'test.split', payload: { n: 1, part: 0 } },
        { capability_id: 'test.split', payload: { n: 1, part: 1 }, budget: { wall_time_ms: 500_000, memory_mb: 128 } },
      ],
    });
    const installed = splitting({ plan });
    const parent = admitted({ n: 1 }, { wall_time_ms: 60_000, memory_mb: 2048, max_output_bytes: 100_000 });
    const [first, second] = plannedChildren(planShards(installed, parent, () => installed));
    expect(first?.run.budget).toEqual(parent.budget);
    expect(second?.run.budget).toEqual({ wall_time_ms: 60_000, memory_mb: 128, max_output_bytes: 100_000 });
  });

  it('runs whole (null) without a split plan, when the plan says so, or when the input is invalid', () => {
    const installed = splitting({});
    expect(planShards(installed, admitted({ n: 3, part: 1 }), () => installed)).toBeNull();
    expect(planShards(installed, admitted({ n: -1 }), () => installed)).toBeNull();
    const plain = installSumRange({ label: 'x' });
    const { shards: _shards, ...withoutHooks } = plain.definition;
    void _shards;
    expect(planShards({ ...plain, definition: withoutHooks }, admitted({ from: 0, to: 4, split: 2 }, undefined, SUM_RANGE_ID), () => plain)).toBeNull();
  });

  it('answers ERROR, naming the child, for a plan that cannot be carried out', () => {
    const parent = admitted({ n: 5 });
    const unknown = splitting({ plan: () => ({ children: [{ capability_id: 'test.split', payload: { n: 1 } }, { capability_id: 'test.elsewhere', payload: {} }] }) });
    const lookup = (id: string) => (id === 'test.split' ? unknown : undefined);
    expect(plannedError(planShards(unknown, parent, lookup)).diagnostics[0]).toMatchObject({ code: 'UNKNOWN_CAPABILITY', path: ['shards', 1, 'capability_id'] });

    const invalid = splitting({ plan: () => ({ children: [{ capability_id: 'test.split', payload: { n: 'many' } }] }) });
    expect(plannedError(planShards(invalid, parent, () => invalid)).diagnostics[0]).toMatchObject({ code: 'INTERNAL', path: ['shards', 0, 'payload', 'n'] });

    const many = splitting({ plan: () => ({ children: Array.from({ length: MAX_SHARD_CHILDREN + 1 }, (_, part) => ({ capability_id: 'test.split', payload: { n: 1, part } })) }) });
    expect(plannedError(planShards(many, parent, () => many)).diagnostics[0]?.code).toBe('SIZE_LIMIT_EXCEEDED');

    const none = splitting({ plan: () => ({ children: [] }) });
    expect(plannedError(planShards(none, parent, () => none)).diagnostics[0]?.code).toBe('INTERNAL');

    const throwing = splitting({
      plan: () => {
        throw new JacobianError('INVALID_REQUEST', 'payload.n: too large to split', { path: ['payload', 'n'] });
      },
    });
    const refused = plannedError(planShards(throwing, parent, () => throwing));
    expect(refused.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'n'] });
    expect(refused).toMatchObject({ capability_version: '2.0.0', provider: { name: 'fake-split-provider' } });
  });
});

describe('mergeShards', () => {
  it('merges completed children, lists their jobs and artifacts, and counts the runtime from the plan', async () => {
    const installed = splitting({});
    const parent = admitted({ n: 4 });
    const children = [1, 0].map((index) =>
      child(index, parent, (run) => ({ ...completedRunResult(run, { total: 10 + index }), artifact_uris: [uri(String(index)), uri('f')] })),
    );
    let clock = 1000;
    const result = await mergeShards(installed, parent, children, { ...deps, now: () => (clock += 250) }, never, { startedAt: 0 });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    expect(result.execution).toMatchObject({ status: 'COMPLETED', job_id: parent.job_id });
    expect(result.execution.runtime_ms).toBeGreaterThanOrEqual(1000);
    expect(result.output).toEqual({ total: 21 });
    expect(result.artifact_uris).toEqual([uri('0'), uri('f'), uri('1')]);
    const notes = result.diagnostics.filter((d) => d.code === 'SHARD_CHILD');
    expect(notes.map((d) => [d.severity, d.path])).toEqual([
      ['INFO', ['shards', 0]],
      ['INFO', ['shards', 1]],
    ]);
    expect(notes[0]?.message).toContain(shardJobId(parent.job_id, 0));
  });

  it('names the children\'s provider when they agree on it, whichever provider the merging runner has', async () => {
    const installed = splitting({});
    const parent = admitted({ n: 4 });
    const elsewhere = { name: 'other-engine', version: '9.9', digest_kind: 'EXECUTABLE' as const, digest: `sha256:${'e'.repeat(64)}` };
    const agreeing = [0, 1].map((index) => child(index, parent, (run) => ({ ...completedRunResult(run, { total: index }), provider: elsewhere })));
    expect((await mergeShards(installed, parent, agreeing, deps, never)).provider).toEqual(elsewhere);
    const mixed = [child(0, parent, (run) => ({ ...completedRunResult(run, { total: 0 }), provider: elsewhere })), child(1, parent, (run) => completedRunResult(run, { total: 1 }))];
    expect((await mergeShards(installed, parent, mixed, deps, never)).provider).toEqual(providerRef(installed));
  });

  it('concludes nothing when a child did not complete: ERROR before TIMEOUT before CANCELLED, each such child named', async () => {
    let merged = 0;
    const installed = splitting({
      merge: () => {
        merged++;
        return Promise.resolve(outcome(0));
      },
    });
    const parent = admitted({ n: 9 });
    const ended = (status: 'ERROR' | 'TIMEOUT' | 'CANCELLED', code: string) => (run: AdmittedRun) =>
      nonConclusionResult(run, { status, diagnostics: [{ severity: 'ERROR', code, stage: 'EXECUTION', message: `${code.toLowerCase()} here`, path: null, hint: 'try again' }] });
    const fine = (run: AdmittedRun) => completedRunResult(run, { total: 1 });

    const mixed = await mergeShards(installed, parent, [child(0, parent, ended('CANCELLED', 'EXECUTION_CANCELLED')), child(1, parent, ended('TIMEOUT', 'EXECUTION_TIMEOUT')), child(2, parent, fine)], deps, never);
    expect(mixed.execution.status).toBe('TIMEOUT');
    expect(mixed.completeness).toEqual({ status: 'NOT_APPLICABLE', basis: 'no conclusion: shard(s) 0, 1 of 3 did not complete' });
    expect(mixed.diagnostics.filter((d) => d.severity === 'ERROR').map((d) => [d.code, d.path, d.hint])).toEqual([
      ['EXECUTION_CANCELLED', ['shards', 0], 'try again'],
      ['EXECUTION_TIMEOUT', ['shards', 1], 'try again'],
    ]);
    expect(CapabilityResultSchema.safeParse(mixed).success).toBe(true);

    const failed = await mergeShards(installed, parent, [child(0, parent, ended('TIMEOUT', 'EXECUTION_TIMEOUT')), child(1, parent, ended('ERROR', 'EXECUTION_CRASHED'))], deps, never);
    expect(failed.execution.status).toBe('ERROR');
    expect(failed.diagnostics.find((d) => d.code === 'EXECUTION_CRASHED')?.message).toContain(`shard 1 of 2 (job ${shardJobId(parent.job_id, 1)}) ended ERROR: execution_crashed here`);
    expect(merged).toBe(0);
  });

  it('refuses a merge that claims more than its children: a stronger assurance, or COMPLETE over a partial child', async () => {
    const parent = admitted({ n: 2 });
    const heuristicChild = (run: AdmittedRun): CapabilityResult => ({
      ...completedRunResult(run, { total: 1 }),
      assurance: { level: 'HEURISTIC', basis: 'sampled', verification_record_uri: null, checker_id: null },
    });
    const overClaiming = await mergeShards(splitting({}), parent, [child(0, parent, heuristicChild), child(1, parent, (run) => completedRunResult(run, { total: 1 }))], deps, never);
    expect(overClaiming.execution.status).toBe('ERROR');
    expect(overClaiming.diagnostics[0]?.message).toContain('above the weakest shard');

    const partialChild = (run: AdmittedRun): CapabilityResult => ({ ...completedRunResult(run, { total: 1 }), completeness: { status: 'PARTIAL', basis: 'half' } });
    const overComplete = await mergeShards(splitting({}), parent, [child(0, parent, partialChild), child(1, parent, (run) => completedRunResult(run, { total: 1 }))], deps, never);
    expect(overComplete.execution.status).toBe('ERROR');
    expect(overComplete.diagnostics[0]?.message).toContain('COMPLETE although shard(s) 0');

    // Honest about the partial child: accepted.
    const honest = splitting({ merge: () => Promise.resolve(outcome(2, { completeness: { status: 'PARTIAL', basis: 'shard 0 is partial' } })) });
    expect((await mergeShards(honest, parent, [child(0, parent, partialChild), child(1, parent, (run) => completedRunResult(run, { total: 1 }))], deps, never)).execution.status).toBe('COMPLETED');
  });

  it('holds a merged outcome to the output schema, and a merge that throws is an ERROR that still lists the children', async () => {
    const parent = admitted({ n: 2 });
    const two = [0, 1].map((index) => child(index, parent, (run) => ({ ...completedRunResult(run, { total: 1 }), artifact_uris: [uri(String(index))] })));
    const malformed = splitting({ merge: () => Promise.resolve({ ...outcome(0), output: { total: 'lots' } as unknown as Out }) });
    expect((await mergeShards(malformed, parent, two, deps, never)).diagnostics[0]?.message).toContain('violates its own output schema');
    const throwing = splitting({ merge: () => Promise.reject(new JacobianError('PROVIDER_FAILED', 'shards disagree on the method')) });
    const result = await mergeShards(throwing, parent, two, deps, never);
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'PROVIDER_FAILED' });
    expect(result.artifact_uris).toEqual([uri('0'), uri('1')]);
    expect(result.diagnostics.filter((d) => d.code === 'SHARD_CHILD')).toHaveLength(2);
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  });
});

describe('createShardHandler', () => {
  it('plans only capabilities it serves, and answers UNKNOWN_CAPABILITY for a merge of one it does not', async () => {
    const installed = splitting({});
    const handler = createShardHandler({ capability: (id) => (id === 'test.split' ? installed : undefined), deps });
    expect(await handler.plan(admitted({ n: 1 }, undefined, 'test.other'), never)).toBeNull();
    expect(plannedChildren(await handler.plan(admitted({ n: 1 }), never))).toHaveLength(2);
    const other = admitted({ n: 1 }, undefined, 'test.other');
    const result = await handler.merge(other, [], never, { startedAt: 0 });
    expect(result.diagnostics[0]?.code).toBe('UNKNOWN_CAPABILITY');
  });
});
