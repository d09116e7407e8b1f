import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import canonicalizeReference from 'canonicalize';
import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';

import { createLocalFolderArtifactStore } from '../artifacts/local-folder-store.js';
import type { ArtifactDraft } from '../artifacts/manifest.js';
import type { ArtifactStore } from '../artifacts/store.js';
import { CapabilityRequestSchema, type CapabilityRequestInput } from '../contracts/capability.js';
import type { ProviderRuntime } from '../contracts/provider.js';
import { CapabilityResultSchema, type CapabilityResult } from '../contracts/result.js';
import { JacobianError } from '../errors.js';
import type { IsolatedExecutor } from '../isolation/process-pool.js';
import { installCapability, type CapabilityContext, type CapabilityDefinition, type CapabilityOutcome, type InstalledCapability } from './define.js';
import { admitRequest, executeCapability, type AdmittedRun } from './host.js';
import { capabilityRegistration, registerCapabilities, type ProviderProbe } from './registry.js';
import { slowCheckProvider, type SlowCheckProvider } from '../testing/slow-check-provider.js';

const RUNTIME: ProviderRuntime = {
  provider: 'fake-provider',
  availability: 'AVAILABLE',
  version: '3.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: 'c'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

const unused = (): Promise<never> => Promise.reject(new Error('not used in this test'));
const artifacts: ArtifactStore = {
  limits: { maxPayloadBytes: 1024, maxManifestBytes: 1024 },
  put: unused,
  get: unused,
  getManifest: unused,
  has: unused,
  sync: () => Promise.resolve(),
  close: () => Promise.resolve(),
};
const executor: IsolatedExecutor = { run: unused, stats: () => ({ size: 0, busy: 0, idle: 0, pids: [] }), close: () => Promise.resolve() };

const Input = z.object({ n: z.number().int().min(0).max(100), k: z.number().int().default(2) }).strict();
const Output = z.object({ power: z.number().int() }).strict();
type In = z.infer<typeof Input>;
type Out = z.infer<typeof Output>;

function completed(output: Out): CapabilityOutcome<Out> {
  return {
    status: 'COMPLETED',
    output,
    scope: { kind: 'EXACT_INPUT', statement: 'n and k as given', input_uris: [] },
    completeness: { status: 'COMPLETE', basis: 'direct computation' },
    qualifiers: ['EXACT'],
    assurance: { level: 'COMPUTED', basis: 'integer arithmetic', verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: [],
    diagnostics: [],
  };
}

function install(run: (input: In, context: CapabilityContext) => Promise<CapabilityOutcome<Out>>, overrides: Partial<CapabilityDefinition<In, Out>> = {}): InstalledCapability {
  return installCapability<In, Out>(
    {
      id: 'test.power',
      version: '1.0.0',
      title: 'Integer power',
      description: 'n to the k.',
      tags: [],
      domain: 'arithmetic',
      modes: ['EXPLORE'],
      role: 'producer',
      pool: 'light',
      input_kinds: ['STRUCTURED_REQUEST'],
      accepted_artifact_types: [],
      produced_artifact_types: [],
      input: Input,
      output: Output,
      examples: [],
      relationships: [],
      assurance_ceiling: 'COMPUTED',
      scope_rule: 'n and k',
      limits: {},
      run,
      ...overrides,
    },
    RUNTIME,
    null,
  );
}

function admitted(input: Partial<CapabilityRequestInput> = {}): AdmittedRun {
  return admitRequest(CapabilityRequestSchema.parse({ capability_id: 'test.power', payload: { n: 3 }, ...input }));
}

/** Resolves once `signal` aborts, then rejects the way a cooperative kernel would. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    const stop = (): void => reject(new JacobianError('PROVIDER_FAILED', 'stopped because the signal fired'));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

const deps = { artifacts, executor };
const never = new AbortController().signal;

function diagnosticOf(result: CapabilityResult): CapabilityResult['diagnostics'][number] {
  expect(result.diagnostics).toHaveLength(1);
  return result.diagnostics[0] as CapabilityResult['diagnostics'][number];
}

describe('executeCapability', () => {
  it('returns a result only once the artifacts its outcome lists are synced, and an ERROR when that fails', async () => {
    const uris = ['artifact://sha256/' + 'a'.repeat(64), 'artifact://sha256/' + 'b'.repeat(64)];
    const listing = (): Promise<CapabilityOutcome<Out>> => Promise.resolve({ ...completed({ power: 9 }), artifact_uris: uris });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const sync = vi.fn((_uris: readonly string[]) => gate);
    const pending = executeCapability(install(listing), admitted(), { artifacts: { ...artifacts, sync }, executor }, never);
    let settled = false;
    void pending.then(() => (settled = true));
    for (let turn = 0; turn < 20; turn++) await new Promise((done) => setImmediate(done));
    expect(sync.mock.calls).toEqual([[uris]]);
    expect(settled).toBe(false);
    open();
    const result = await pending;
    expect(result.execution.status).toBe('COMPLETED');
    expect(result.artifact_uris).toEqual(uris);

    const failing = vi.fn(() => Promise.reject(new JacobianError('ARTIFACT_STORE_UNAVAILABLE', 'the journal /data/journal could not be synced: EIO')));
    const failed = await executeCapability(install(listing), admitted(), { artifacts: { ...artifacts, sync: failing }, executor }, never);
    expect(failed.execution.status).toBe('ERROR');
    expect(failed.output).toBeNull();
    expect(failed.artifact_uris).toEqual([]);
    const diagnostic = diagnosticOf(failed);
    expect(diagnostic.code).toBe('ARTIFACT_STORE_UNAVAILABLE');
    expect(diagnostic.message).toContain('EIO');
  });

  it('runs a valid payload (defaults applied) and returns a contract-valid COMPLETED result', async () => {
    const run = vi.fn((input: In) => Promise.resolve(completed({ power: input.n ** input.k })));
    const clock = [1000, 1042];
    const now = (): number => clock.shift() ?? 1042;
    const request = admitted({ payload: { n: 7 } });
    const result = await executeCapability(install(run), request, { ...deps, now }, never);
    expect(run).toHaveBeenCalledTimes(1);
    expect(run.mock.calls[0]?.[0]).toEqual({ n: 7, k: 2 });
    expect(CapabilityResultSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({
      capability_id: 'test.power',
      capability_version: '1.0.0',
      mode: 'EXPLORE',
      execution: { status: 'COMPLETED', runtime_ms: 42, job_id: request.job_id, request_digest: request.request_digest },
      output: { power: 49 },
      provider: { name: 'fake-provider', version: '3.0.0', digest_kind: 'SOURCE_TREE', digest: 'c'.repeat(64) },
    });
  });

  it('passes the run its identity, budget and a deadline', async () => {
    let seen: CapabilityContext | undefined;
    const request = admitted({ budget: { wall_time_ms: 5000 } });
    await executeCapability(
      install((input, context) => {
        seen = context;
        return Promise.resolve(completed({ power: input.n }));
      }),
      request,
      { ...deps, now: () => 10_000 },
      never,
    );
    expect(seen).toMatchObject({ mode: 'EXPLORE', jobId: request.job_id, requestDigest: request.request_digest, deadline: 15_000 });
    expect(seen?.budget).toEqual({ wall_time_ms: 5000, memory_mb: 1024, max_output_bytes: 4 * 1024 * 1024 });
    // The run's own staged view of the store (see artifacts/staged.ts), with the store's limits.
    expect(seen?.artifacts).not.toBe(artifacts);
    expect(seen?.artifacts.limits).toEqual(artifacts.limits);
    expect(seen?.executor).toBe(executor);
  });

  it('writes what a run stored to the store only when it completes: a run that fails or is refused leaves the store untouched', async () => {
    const root = await mkdtemp(join(tmpdir(), 'jacobian-host-staged-'));
    const store = createLocalFolderArtifactStore({ root });
    try {
      const draft = (n: number): ArtifactDraft => ({ schema_uri: 'jacobian:schema/test/v1', semantics_uri: 'jacobian:semantics/test/v1', payload: { n }, summary: {} });
      let uri = '';
      const storing = (fail: JacobianError | null) => async (_input: In, context: CapabilityContext): Promise<CapabilityOutcome<Out>> => {
        uri = (await context.artifacts.put(draft(fail === null ? 1 : 2))).uri;
        // The run reads what it stored.
        expect((await context.artifacts.get(uri)).payload).toEqual({ n: fail === null ? 1 : 2 });
        if (fail !== null) throw fail;
        return { ...completed({ power: 1 }), artifact_uris: [uri] };
      };
      const refused = await executeCapability(install(storing(new JacobianError('OUTPUT_LIMIT_EXCEEDED', 'too much'))), admitted(), { artifacts: store, executor }, never);
      expect(refused.execution.status).toBe('ERROR');
      expect(await store.has(uri)).toBe(false);
      expect(await readdir(root)).toEqual([]);
      const done = await executeCapability(install(storing(null)), admitted(), { artifacts: store, executor }, never);
      expect(done.execution.status).toBe('COMPLETED');
      expect((await store.get(uri)).payload).toEqual({ n: 1 });
    } finally {
      await store.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it.each([
    ['a value out of range', { n: 101 }, [['payload', 'n']]],
    ['a wrong type', { n: '3' }, [['payload', 'n']]],
    ['a missing field', {}, [['payload', 'n']]],
    ['an unknown field', { n: 1, extra: 1 }, [['payload', 'extra']]],
    ['two bad fields', { n: -1, k: 0.5 }, [['payload', 'n'], ['payload', 'k']]],
  ])('rejects an invalid payload (%s) with diagnostics under payload, without running', async (_name, payload, paths) => {
    const run = vi.fn(() => Promise.resolve(completed({ power: 0 })));
    const result = await executeCapability(install(run), { ...admitted(), payload }, deps, never);
    expect(run).not.toHaveBeenCalled();
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics.map((d) => d.path)).toEqual(paths);
    expect(result.diagnostics.every((d) => d.code === 'INVALID_REQUEST' && d.stage === 'VALIDATION' && d.severity === 'ERROR')).toBe(true);
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    if (_name === 'an unknown field') expect(result.diagnostics[0]?.message).toContain('"extra"');
  });

  it('rejects a mode the capability does not offer, without running', async () => {
    const run = vi.fn(() => Promise.resolve(completed({ power: 0 })));
    const result = await executeCapability(install(run), admitted({ mode: 'VERIFY' }), deps, never);
    expect(run).not.toHaveBeenCalled();
    expect(result.execution.status).toBe('ERROR');
    expect(diagnosticOf(result)).toMatchObject({ code: 'MODE_NOT_SUPPORTED', path: ['mode'], stage: 'ADMISSION' });
  });

  it.each([
    ['VERIFIED above a COMPUTED ceiling', 'COMPUTED', 'VERIFIED'],
    ['COMPUTED above a HEURISTIC ceiling', 'HEURISTIC', 'COMPUTED'],
  ] as const)('turns an outcome claiming %s into ERROR', async (_name, ceiling, claimed) => {
    const outcome = completed({ power: 9 });
    outcome.assurance = { level: claimed, basis: 'over-claim', verification_record_uri: null, checker_id: null };
    const result = await executeCapability(install(() => Promise.resolve(outcome), { assurance_ceiling: ceiling }), admitted(), deps, never);
    expect(result.execution.status).toBe('ERROR');
    expect(result.output).toBeNull();
    expect(result.assurance.level).toBe('HEURISTIC');
    expect(diagnosticOf(result)).toMatchObject({ code: 'INTERNAL', message: `test.power claimed ${claimed} above its ceiling ${ceiling}` });
  });

  it('turns output that violates the output schema into ERROR', async () => {
    const outcome = completed({ power: 9 });
    (outcome as unknown as { output: unknown }).output = { power: 9.5 };
    const result = await executeCapability(install(() => Promise.resolve(outcome)), admitted(), deps, never);
    expect(result.execution.status).toBe('ERROR');
    expect(result.output).toBeNull();
    expect(diagnosticOf(result).message).toContain('produced output that violates its own output schema');
  });

  it('turns an outcome that breaks the result contract into ERROR', async () => {
    const outcome = completed({ power: 9 });
    outcome.scope = null;
    const result = await executeCapability(install(() => Promise.resolve(outcome)), admitted(), deps, never);
    expect(result.execution.status).toBe('ERROR');
    expect(diagnosticOf(result).message).toContain('breaks the result contract at scope');
  });

  it.each([
    ['EXECUTION_TIMEOUT', 'TIMEOUT'],
    ['EXECUTION_CANCELLED', 'CANCELLED'],
    ['ARTIFACT_NOT_FOUND', 'ERROR'],
    ['PROVIDER_FAILED', 'ERROR'],
  ] as const)('maps a run that throws %s to %s', async (code, status) => {
    const result = await executeCapability(
      install(() => Promise.reject(new JacobianError(code, `thrown ${code}`, { path: ['payload', 'n'] }))),
      admitted(),
      deps,
      never,
    );
    expect(result.execution.status).toBe(status);
    expect(diagnosticOf(result)).toMatchObject({ code, message: `thrown ${code}`, path: ['payload', 'n'], severity: 'ERROR' });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  });

  it('maps a plain thrown Error to ERROR / INTERNAL with its message', async () => {
    const result = await executeCapability(install(() => Promise.reject(new RangeError('boom'))), admitted(), deps, never);
    expect(result.execution.status).toBe('ERROR');
    expect(diagnosticOf(result)).toMatchObject({ code: 'INTERNAL', message: 'boom' });
  });

  it('reports CANCELLED when the caller aborts, whatever the run throws', async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const pending = executeCapability(
      install((_input, context) => {
        signal = context.signal;
        setTimeout(() => controller.abort(), 20);
        return untilAborted(context.signal);
      }),
      admitted(),
      deps,
      controller.signal,
    );
    const result = await pending;
    expect(signal?.aborted).toBe(true);
    expect(result.execution.status).toBe('CANCELLED');
    expect(diagnosticOf(result)).toMatchObject({ code: 'EXECUTION_CANCELLED', stage: 'EXECUTION' });
  });

  it('reports TIMEOUT when the wall-time budget expires', async () => {
    const started = Date.now();
    const result = await executeCapability(
      install((_input, context) => untilAborted(context.signal)),
      admitted({ budget: { wall_time_ms: 150 } }),
      deps,
      never,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(result.execution.status).toBe('TIMEOUT');
    expect(diagnosticOf(result)).toMatchObject({ code: 'EXECUTION_TIMEOUT' });
    expect(result.diagnostics[0]?.message).toContain('150 ms');
  });
});

describe('admitRequest', () => {
  const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

  it('gives the same job and digest for the same request with keys in another order', () => {
    const a = admitRequest(
      CapabilityRequestSchema.parse({ capability_id: 'x.y', mode: 'EXPLORE', payload: { b: [1, { d: 2, c: 3 }], a: 'z' }, budget: { memory_mb: 128, wall_time_ms: 1000 } }),
    );
    const b = admitRequest(
      CapabilityRequestSchema.parse({ budget: { wall_time_ms: 1000, memory_mb: 128 }, payload: { a: 'z', b: [1, { c: 3, d: 2 }] }, capability_id: 'x.y' }),
    );
    expect(b).toEqual(a);
    expect(a.job_id).toBe(`run-${a.request_digest.slice('sha256:'.length, 'sha256:'.length + 32)}`);
  });

  it('digests exactly the RFC 8785 form of capability, mode, payload and resolved budget', () => {
    const run = admitRequest(CapabilityRequestSchema.parse({ capability_id: 'x.y', payload: { n: 5, s: 'é' } }));
    const expected = canonicalizeReference({
      capability_id: 'x.y',
      mode: 'EXPLORE',
      payload: { n: 5, s: 'é' },
      budget: { wall_time_ms: 30_000, memory_mb: 1024, max_output_bytes: 4 * 1024 * 1024 },
    });
    expect(run.request_digest).toBe(`sha256:${sha256(expected as string)}`);
    expect(run.budget).toEqual({ wall_time_ms: 30_000, memory_mb: 1024, max_output_bytes: 4 * 1024 * 1024 });
  });

  it('treats an explicit default budget as the omitted budget, and any other budget, mode or payload as another job', () => {
    const base = admitRequest(CapabilityRequestSchema.parse({ capability_id: 'x.y', payload: { n: 1 } }));
    const explicitDefault = admitRequest(CapabilityRequestSchema.parse({ capability_id: 'x.y', payload: { n: 1 }, budget: { wall_time_ms: 30_000 } }));
    expect(explicitDefault.request_digest).toBe(base.request_digest);
    const others = [
      { capability_id: 'x.y', payload: { n: 1 }, budget: { wall_time_ms: 30_001 } },
      { capability_id: 'x.y', payload: { n: 1 }, budget: { memory_mb: 2048 } },
      { capability_id: 'x.y', payload: { n: 1 }, mode: 'VERIFY' as const },
      { capability_id: 'x.y', payload: { n: 2 } },
      { capability_id: 'x.z', payload: { n: 1 } },
    ].map((r) => admitRequest(CapabilityRequestSchema.parse(r)));
    const digests = new Set([base.request_digest, ...others.map((o) => o.request_digest)]);
    const jobs = new Set([base.job_id, ...others.map((o) => o.job_id)]);
    expect([digests.size, jobs.size]).toEqual([6, 6]);
  });

  it.each([
    ['a float', { x: 1.5 }, ['payload', 'x']],
    ['a float deep inside', { a: [{ b: 0.1 }] }, ['payload', 'a', 0, 'b']],
    ['an unsafe integer', { big: 2 ** 53 }, ['payload', 'big']],
  ])('throws CANONICAL_JSON_INVALID for %s in the payload', (_name, payload, path) => {
    let error: unknown;
    try {
      admitRequest(CapabilityRequestSchema.parse({ capability_id: 'x.y', payload }));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(JacobianError);
    expect((error as JacobianError).code).toBe('CANONICAL_JSON_INVALID');
    expect((error as JacobianError).path).toEqual(path);
  });
});

describe('registerCapabilities', () => {
  function simple(id: string): CapabilityDefinition<In, Out> {
    return install(() => Promise.resolve(completed({ power: 1 })), { id }).definition as CapabilityDefinition<In, Out>;
  }
  const healthy = (name: string, calls: { count: number } = { count: 0 }): ProviderProbe => ({
    name,
    probe: () => {
      calls.count++;
      return Promise.resolve({ ...RUNTIME, provider: name });
    },
  });

  it('installs the capabilities of healthy providers and fails closed on a failing probe', async () => {
    const brokenCreate = vi.fn(() => simple('test.broken'));
    const report = await registerCapabilities([
      capabilityRegistration(healthy('good-provider'), () => simple('test.good')),
      capabilityRegistration({ name: 'z3-missing', probe: () => Promise.reject(new JacobianError('PROVIDER_UNAVAILABLE', 'z3 is not installed')) }, brokenCreate),
      capabilityRegistration({ name: 'bad-runtime', probe: () => Promise.resolve({ ...RUNTIME, digest: 'short' }) }, () => simple('test.bad_runtime')),
    ]);
    expect(report.installed.map((c) => c.descriptor.id)).toEqual(['test.good']);
    expect(report.installed[0]?.descriptor.provider_runtime.provider).toBe('good-provider');
    expect(brokenCreate).not.toHaveBeenCalled();
    expect(report.unavailable.map((u) => u.provider)).toEqual(['z3-missing', 'bad-runtime']);
    expect(report.unavailable[0]?.reason).toBe('z3 is not installed');
  });

  it('probes a provider shared by several capabilities once and hands each its runtime', async () => {
    const calls = { count: 0 };
    const provider = healthy('shared-provider', calls);
    const seen: string[] = [];
    const report = await registerCapabilities([
      capabilityRegistration(provider, (runtime) => {
        seen.push(runtime.provider);
        return simple('test.one');
      }),
      capabilityRegistration(provider, () => simple('test.two')),
    ]);
    expect(calls.count).toBe(1);
    expect(seen).toEqual(['shared-provider']);
    expect(report.installed.map((c) => c.descriptor.id)).toEqual(['test.one', 'test.two']);
    expect(report.unavailable).toEqual([]);
  });

  it('rejects duplicate capability IDs with REGISTRATION_INVALID', async () => {
    const attempt = registerCapabilities([
      capabilityRegistration(healthy('p1'), () => simple('test.same')),
      capabilityRegistration(healthy('p2'), () => simple('test.same')),
    ]);
    await expect(attempt).rejects.toMatchObject({ code: 'REGISTRATION_INVALID', message: 'capability test.same is registered twice' });
  });

  it('stops registration for a definition whose example its schema rejects', async () => {
    const bad = install(() => Promise.resolve(completed({ power: 1 }))).definition as CapabilityDefinition<In, Out>;
    const attempt = registerCapabilities([capabilityRegistration(healthy('p'), () => ({ ...bad, examples: [{ title: 't', mode: 'EXPLORE', payload: { n: 'x' } }] }))]);
    await expect(attempt).rejects.toMatchObject({ code: 'REGISTRATION_INVALID', path: ['examples', 0, 'payload', 'n'] });
  });

  const slowCheck = (name: string): SlowCheckProvider => slowCheckProvider({ ...RUNTIME, provider: name });

  describe('deferring a provider in a slow health check', () => {
    it('answers without it, then installs its capabilities when the check passes', async () => {
      const slow = slowCheck('slow-provider');
      const report = await registerCapabilities(
        [capabilityRegistration(healthy('quick-provider'), () => simple('test.quick')), capabilityRegistration(slow.provider, () => simple('test.slow'), { ids: ['test.slow'] })],
        { defer: true },
      );
      expect(report.installed.map((c) => c.descriptor.id)).toEqual(['test.quick']);
      expect(report.unavailable).toEqual([]);
      expect(report.pending.map((p) => ({ provider: p.provider, capability_ids: p.capability_ids }))).toEqual([{ provider: 'slow-provider', capability_ids: ['test.slow'] }]);
      slow.pass();
      const outcome = await report.pending[0]?.settled;
      expect(outcome).toMatchObject({ provider: 'slow-provider' });
      expect(outcome !== undefined && 'installed' in outcome ? outcome.installed.map((c) => [c.descriptor.id, c.descriptor.provider_runtime.provider]) : outcome).toEqual([['test.slow', 'slow-provider']]);
      expect(slow.probes.count).toBe(1);
    });

    it('never installs the capabilities of a provider whose check fails (fail closed)', async () => {
      const slow = slowCheck('failing-provider');
      const create = vi.fn(() => simple('test.never'));
      const report = await registerCapabilities([capabilityRegistration(healthy('quick-provider'), () => simple('test.quick')), capabilityRegistration(slow.provider, create, { ids: ['test.never'] })], { defer: true });
      slow.fail(new JacobianError('PROVIDER_UNAVAILABLE', 'failing-provider failed its health check'));
      expect(await report.pending[0]?.settled).toEqual({ provider: 'failing-provider', unavailable: { provider: 'failing-provider', reason: 'failing-provider failed its health check' } });
      expect(create).not.toHaveBeenCalled();
      expect(report.installed.map((c) => c.descriptor.id)).toEqual(['test.quick']);
    });

    it('awaits the slow check without defer, and a probe that starts no check with it', async () => {
      const slow = slowCheck('slow-provider');
      const waiting = registerCapabilities([capabilityRegistration(slow.provider, () => simple('test.slow'), { ids: ['test.slow'] })]);
      setImmediate(() => slow.pass());
      const report = await waiting;
      expect([report.installed.map((c) => c.descriptor.id), report.pending]).toEqual([['test.slow'], []]);
      // A check remembered from an earlier start: `checking` never resolves, the probe ends later.
      const remembered: ProviderProbe = {
        name: 'remembered-provider',
        checking: new Promise<void>(() => undefined),
        probe: () => new Promise((resolve) => setImmediate(() => resolve({ ...RUNTIME, provider: 'remembered-provider' }))),
      };
      const deferring = await registerCapabilities([capabilityRegistration(remembered, () => simple('test.remembered'), { ids: ['test.remembered'] })], { defer: true });
      expect([deferring.installed.map((c) => c.descriptor.id), deferring.pending]).toEqual([['test.remembered'], []]);
    });

    it('requires the capability IDs of a provider that may be deferred, and holds its capabilities to them', async () => {
      const undeclared = registerCapabilities([capabilityRegistration(slowCheck('slow-provider').provider, () => simple('test.slow'))], { defer: true });
      await expect(undeclared).rejects.toMatchObject({ code: 'REGISTRATION_INVALID', message: expect.stringContaining('does not declare its IDs') as unknown });
      const slow = slowCheck('slow-provider');
      const report = await registerCapabilities([capabilityRegistration(slow.provider, () => simple('test.other'), { ids: ['test.slow'] })], { defer: true });
      slow.pass();
      expect(await report.pending[0]?.settled).toMatchObject({ unavailable: { provider: 'slow-provider', reason: expect.stringContaining('not among the IDs its registration declares') as unknown } });
    });
  });

  it('measures a checker identity from its declared source files', async () => {
    const self = fileURLToPath(import.meta.url);
    const checker = {
      ...simple('test.verify'),
      role: 'checker' as const,
      modes: ['VERIFY' as const],
      pool: 'checker',
      assurance_ceiling: 'VERIFIED' as const,
      checker: { checker_id: 'test.checker', method: 'look closely', source_files: [self], configuration: { depth: 1 } },
    };
    const report = await registerCapabilities([capabilityRegistration(healthy('checker-provider'), () => checker)]);
    const identity = report.installed[0]?.descriptor.checker;
    expect(identity).toMatchObject({ checker_id: 'test.checker', method: 'look closely' });
    expect(identity?.checker_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const other = await registerCapabilities([
      capabilityRegistration(healthy('checker-provider'), () => ({ ...checker, checker: { ...checker.checker, configuration: { depth: 2 } } })),
    ]);
    expect(other.installed[0]?.descriptor.checker?.checker_digest).not.toBe(identity?.checker_digest);
  });
});
