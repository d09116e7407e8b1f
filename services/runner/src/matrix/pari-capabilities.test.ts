/**
 * The matrix capabilities PARI/GP serves (first-healthy-of(pari-gp, ours)), run end to end on both
 * providers: every advertised example gives the same output on each but for the engine record
 * (and the stored claim's URI), and the outcome says who served it (assurance and completeness
 * basis). LLL bases may differ (LLL is not unique): lattice-pari.test.ts compares those by
 * lattice and reducedness. Skipped only where gp is not installed.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapabilityResult, ProviderRuntime } from '@jacobian/shared';
import { PARI_PROVIDER, probePari, type PariTools } from '../providers/pari.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { LINEAR_ALGEBRA_TS_PROVIDER, PARI_ASSURANCE, PARI_RECHECKED_BASIS, TS_ASSURANCE } from './capability-support.js';
import { PARI_MATRIX_CAPABILITY_FACTORIES } from './provider.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));
const PARI: ProviderRuntime = { ...FAKE_RUNTIME, provider: PARI_PROVIDER };
const TS: ProviderRuntime = { ...FAKE_RUNTIME, provider: LINEAR_ALGEBRA_TS_PROVIDER };

/** The output without what legitimately differs between providers. */
function comparable(result: CapabilityResult): unknown {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  const { engine: _engine, result_uri: _uri, ...rest } = result.output as Record<string, unknown>;
  return rest;
}

describe.skipIf(GP === undefined)('matrix capabilities on PARI/GP and on our engine', () => {
  let h: CapabilityHarness;
  let tools: PariTools;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    tools = (await probePari({ binary: GP as string })).tools;
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('each example: the same output on both but for the engine; the outcome names who served', async () => {
    for (const create of PARI_MATRIX_CAPABILITY_FACTORIES) {
      const onPari = h.install(create(PARI, { pari: { tools } }), PARI);
      const onOurs = h.install(create(TS, {}), TS);
      const id = onPari.descriptor.id;
      for (const example of onPari.descriptor.examples) {
        const pari = await h.run(onPari, { capability_id: id, payload: example.payload });
        const ours = await h.run(onOurs, { capability_id: id, payload: example.payload });
        if (id !== 'lattice.basis.reduce') expect(comparable(pari), `${id}: ${example.title}`).toEqual(comparable(ours));
        expect((pari.output as { engine: { provider: string } }).engine.provider, id).toBe(PARI_PROVIDER);
        expect(pari.assurance.basis, id).toBe(PARI_ASSURANCE);
        expect(ours.assurance.basis, id).toBe(TS_ASSURANCE);
        if (id !== 'lattice.basis.reduce' && id !== 'matrix.nullspace.compute') expect(pari.completeness?.basis, id).toBe(PARI_RECHECKED_BASIS);
        expect(ours.completeness?.basis, id).not.toMatch(/PARI/);
      }
    }
  });
});
