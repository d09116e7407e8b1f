import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitRequest, CapabilityRequestSchema, encodeGraph6, type CapabilityResult, type CapabilityRequestInput } from '@jacobian/shared';
import { createRunner, runnerRegistrations, type Runner } from '../runner.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { requireNauty } from './nauty-test-support.js';
import { cycle, PETERSEN } from './test-graphs.js';
import { symmetryBackend, SYMMETRY_TS_PROVIDER, TS_CANONICAL_FORM_METHOD } from './symmetry.js';

const CANONICAL = 'graph.canonical_form.compute';
const GROUP = 'graph.automorphism_group.compute';
const TRANSFORM = 'graph.transform.format';

function handle(runner: Runner, request: CapabilityRequestInput): Promise<CapabilityResult> {
  return runner.handle(admitRequest(CapabilityRequestSchema.parse(request)), new AbortController().signal);
}

function output(result: CapabilityResult): Record<string, unknown> {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return result.output as Record<string, unknown>;
}

describe('graph symmetry: one capability ID, served by nauty when healthy, else by the TypeScript fallback', () => {
  let harness: CapabilityHarness;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    await requireNauty();
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  it('the default runner offers every capability, the symmetry ones served by nauty (max_order 256)', { timeout: 120_000 }, async () => {
    const runner = await createRunner({ artifacts: harness.artifacts, executor: harness.executor });
    expect(runner.unavailable).toEqual([]);
    const byId = new Map(runner.installed.map((capability) => [capability.descriptor.id, capability.descriptor]));
    for (const id of ['graph.construct.explicit', 'graph.clique_number.compute', 'graph.induced_tree.maximum.compute', 'artifact.put', CANONICAL, GROUP, TRANSFORM]) {
      expect(byId.has(id), id).toBe(true);
    }
    expect(byId.get(CANONICAL)?.provider_runtime.provider).toBe('nauty');
    expect(byId.get(GROUP)?.provider_runtime.provider).toBe('nauty');
    expect(byId.get(CANONICAL)?.limits['max_order']).toBe(256);
    expect(byId.get(TRANSFORM)?.provider_runtime.provider).toBe('jacobian-graph-ts');
    expect(byId.get(TRANSFORM)?.provider_runtime.features).toContain('graph-format-conversion');

    const form = output(await handle(runner, { capability_id: CANONICAL, payload: { graph6: encodeGraph6(PETERSEN) } }));
    expect(form['canonical_form_method']).toMatch(/^nauty-labelg \d/);
    const group = await handle(runner, { capability_id: GROUP, payload: { graph6: encodeGraph6(cycle(200)) } });
    expect(output(group)['order']).toBe('400');
    expect(group.provider?.name).toBe('nauty');
  });

  it('without nauty the same IDs register with the TypeScript fallback (max_order 64), and serve', async () => {
    const skipped: string[] = [];
    const providers = { nauty: { directories: ['/nonexistent'] }, onProviderSkipped: (name: string, reason: string) => skipped.push(`${name}: ${reason}`) };
    const registrations = runnerRegistrations(harness.executor, providers).filter(
      (registration) => registration.provider.name === `first-healthy-of(nauty, ${SYMMETRY_TS_PROVIDER})`,
    );
    expect(registrations.map((registration) => registration.provider.name)).toEqual([
      `first-healthy-of(nauty, ${SYMMETRY_TS_PROVIDER})`,
      `first-healthy-of(nauty, ${SYMMETRY_TS_PROVIDER})`,
    ]);
    const runner = await createRunner({ artifacts: harness.artifacts, executor: harness.executor, registrations });
    expect(runner.unavailable).toEqual([]);
    expect(runner.installed.map((capability) => [capability.descriptor.id, capability.descriptor.provider_runtime.provider, capability.descriptor.limits['max_order']])).toEqual([
      [CANONICAL, SYMMETRY_TS_PROVIDER, 64],
      [GROUP, SYMMETRY_TS_PROVIDER, 64],
    ]);
    expect(runner.installed[0]?.descriptor.provider_runtime).toMatchObject({ digest_kind: 'SOURCE_TREE', install_tier: 'T0' });
    // Probed once for both capabilities; the reason nauty was passed over reaches the caller.
    expect(skipped).toEqual([expect.stringMatching(/^nauty: nauty is not installed: .*scripts\/install-system-deps\.sh/)]);

    const form = await handle(runner, { capability_id: CANONICAL, payload: { graph6: encodeGraph6(PETERSEN) } });
    expect(output(form)).toMatchObject({ canonical_form_method: TS_CANONICAL_FORM_METHOD, automorphism_group_order: '120' });
    expect(form.provider?.name).toBe(SYMMETRY_TS_PROVIDER);
    expect(output(await handle(runner, { capability_id: GROUP, payload: { graph6: encodeGraph6(cycle(64)) } }))['order']).toBe('128');
    const tooBig = await handle(runner, { capability_id: GROUP, payload: { graph6: encodeGraph6(cycle(200)) } });
    expect(tooBig.diagnostics[0]).toMatchObject({ code: 'SIZE_LIMIT_EXCEEDED', path: ['payload', 'graph6'] });
  });

  it('a registration for a provider that is neither nauty nor the fallback is a wiring error', () => {
    expect(() => symmetryBackend({ ...FAKE_RUNTIME, provider: 'z3-solver' }, { tools: undefined })).toThrow(expect.objectContaining({ code: 'REGISTRATION_INVALID' }));
    expect(() => symmetryBackend({ ...FAKE_RUNTIME, provider: 'nauty' }, { tools: undefined })).toThrow(expect.objectContaining({ code: 'REGISTRATION_INVALID' }));
    expect(symmetryBackend({ ...FAKE_RUNTIME, provider: SYMMETRY_TS_PROVIDER }, { tools: undefined })).toEqual({ kind: 'typescript' });
  });
});
