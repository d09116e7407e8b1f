import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { admissibleFromDescriptor, installCapability } from '@jacobian/shared';
import { runnerRegistrations } from '../runner.js';
import { HIGHS_PROVIDER, LP_TS_PROVIDER, LP_TS_SOURCES, lpTsProvider } from './provider.js';

describe('the LP providers', () => {
  it('digest sources that all exist', async () => {
    for (const file of LP_TS_SOURCES) expect(existsSync(file), file).toBe(true);
    expect(await lpTsProvider().probe()).toMatchObject({ provider: LP_TS_PROVIDER, digest_kind: 'SOURCE_TREE' });
  });

  it('register lp.solve and polytope.separate with HiGHS first and our exact simplex as the fall-back; the descriptors admit their examples by JSON Schema alone', async () => {
    const runtime = await lpTsProvider().probe();
    const ours = runnerRegistrations().filter((registration) => registration.provider.name === `first-healthy-of(${HIGHS_PROVIDER}, ${LP_TS_PROVIDER})`);
    const installed = ours.map((registration) => installCapability(registration.create(runtime), runtime, null));
    expect(installed.map((capability) => capability.descriptor.id)).toEqual(['lp.solve', 'polytope.separate']);
    for (const { descriptor } of installed) {
      const { input } = admissibleFromDescriptor(descriptor);
      for (const example of descriptor.examples) expect(input.safeParse(example.payload).success, `${descriptor.id}: ${example.title}`).toBe(true);
      expect(input.safeParse({ ...(descriptor.examples[0]?.payload as object), unknown: 1 }).success, descriptor.id).toBe(false);
    }
  });
});
