import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitRequest, capabilityRegistration, CapabilityRequestSchema, JacobianError, type CapabilityRequestInput, type CapabilityResult, type ProviderProbe } from '@jacobian/shared';
import { slowCheckProvider } from '@jacobian/shared/testing';
import { constructExplicit } from './graph/construct-explicit.js';
import { cliqueNumber, independenceNumber } from './graph/invariants.js';
import { createRunner, type Runner } from './runner.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from './testing/fixtures.js';

function handle(runner: Runner, request: CapabilityRequestInput): Promise<CapabilityResult> {
  return runner.handle(admitRequest(CapabilityRequestSchema.parse(request)), new AbortController().signal);
}

const quick: ProviderProbe = { name: 'quick-provider', probe: () => Promise.resolve({ ...FAKE_RUNTIME, provider: 'quick-provider' }) };
const CLIQUE = cliqueNumber.id;
const TRIANGLE = { order: 3, edges: [[0, 1], [0, 2], [1, 2]] };

describe('a runner that defers a provider in a slow health check (an embedded start)', () => {
  let harness: CapabilityHarness;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  it('starts without its capabilities, offers and runs them once the check passes', { timeout: 60_000 }, async () => {
    const slow = slowCheckProvider({ ...FAKE_RUNTIME, provider: 'slow-provider' });
    const runner = await createRunner({
      artifacts: harness.artifacts,
      executor: harness.executor,
      registrations: [capabilityRegistration(quick, () => independenceNumber), capabilityRegistration(slow.provider, () => cliqueNumber, { ids: [CLIQUE] })],
      deferSlowProviders: true,
    });
    const before = runner.installed;
    expect(before.map((c) => c.descriptor.id)).toEqual([independenceNumber.id]);
    expect(runner.pending.map((p) => [p.provider, p.capability_ids])).toEqual([['slow-provider', [CLIQUE]]]);
    // Not offered while its provider is being checked: the runner never runs it unchecked.
    const early = await handle(runner, { capability_id: CLIQUE, payload: { graph: TRIANGLE } });
    expect(early.diagnostics.map((d) => d.code)).toEqual(['UNKNOWN_CAPABILITY']);

    slow.pass();
    await runner.settled;
    expect(runner.pending).toEqual([]);
    expect(runner.unavailable).toEqual([]);
    // A new list (the embedded API rebuilds its catalog on a new one).
    expect(runner.installed).not.toBe(before);
    expect(runner.installed.map((c) => [c.descriptor.id, c.descriptor.provider_runtime.provider])).toEqual([
      [independenceNumber.id, 'quick-provider'],
      [CLIQUE, 'slow-provider'],
    ]);
    const result = await handle(runner, { capability_id: CLIQUE, payload: { graph: TRIANGLE } });
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(result.output).toMatchObject({ value: 3 });
  });

  it('never offers the capabilities of a provider whose check fails', { timeout: 60_000 }, async () => {
    const slow = slowCheckProvider({ ...FAKE_RUNTIME, provider: 'slow-provider' });
    const runner = await createRunner({
      artifacts: harness.artifacts,
      executor: harness.executor,
      registrations: [capabilityRegistration(quick, () => independenceNumber), capabilityRegistration(slow.provider, () => cliqueNumber, { ids: [CLIQUE] })],
      deferSlowProviders: true,
    });
    slow.fail(new JacobianError('PROVIDER_UNAVAILABLE', 'slow-provider failed its health check'));
    await runner.settled;
    expect(runner.pending).toEqual([]);
    expect(runner.unavailable).toEqual([{ provider: 'slow-provider', reason: 'slow-provider failed its health check' }]);
    expect(runner.installed.map((c) => c.descriptor.id)).toEqual([independenceNumber.id]);
    const result = await handle(runner, { capability_id: CLIQUE, payload: { graph: TRIANGLE } });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['UNKNOWN_CAPABILITY']);
  });

  it('does not offer a capability that joins in a pool it does not serve, and says why', { timeout: 60_000 }, async () => {
    const slow = slowCheckProvider({ ...FAKE_RUNTIME, provider: 'slow-provider' });
    const runner = await createRunner({
      artifacts: harness.artifacts,
      executor: harness.executor,
      registrations: [capabilityRegistration(quick, () => independenceNumber), capabilityRegistration(slow.provider, () => constructExplicit, { ids: [constructExplicit.id] })],
      deferSlowProviders: true,
    });
    expect(runner.pools).toEqual(['heavy']);
    slow.pass();
    await runner.settled;
    expect(runner.installed.map((c) => c.descriptor.id)).toEqual([independenceNumber.id]);
    expect(runner.unavailable).toEqual([{ provider: 'slow-provider', reason: `${constructExplicit.id} (pool light): not in the pools this runner serves (heavy)` }]);
  });

  it('without deferral (a cluster runner), waits for the check before it starts', { timeout: 60_000 }, async () => {
    const slow = slowCheckProvider({ ...FAKE_RUNTIME, provider: 'slow-provider' });
    const starting = createRunner({
      artifacts: harness.artifacts,
      executor: harness.executor,
      registrations: [capabilityRegistration(quick, () => independenceNumber), capabilityRegistration(slow.provider, () => cliqueNumber, { ids: [CLIQUE] })],
    });
    setImmediate(() => slow.pass());
    const runner = await starting;
    expect(runner.pending).toEqual([]);
    expect(runner.installed.map((c) => c.descriptor.id)).toEqual([independenceNumber.id, CLIQUE]);
  });
});
