import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, MODULAR_CLAIM_SCHEMA_URI, ModularClaimSchema, type CapabilityResult, type InstalledCapability } from '@jacobian/shared';
import { createCapabilityHarness, type CapabilityHarness } from '../../testing/fixtures.js';
import { modularCapabilities, type ModularOutput } from './modular-capabilities.js';
import { certifyUnproven, computeModular } from './modular.kernel.js';

function error(result: CapabilityResult) {
  expect(result.execution.status).toBe('ERROR');
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (diagnostic === undefined) throw new Error(`no ERROR diagnostic in ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

describe('modular capabilities', () => {
  let h: CapabilityHarness;
  const installed: Record<string, InstalledCapability> = {};
  beforeAll(async () => {
    h = await createCapabilityHarness();
    for (const definition of modularCapabilities()) installed[definition.id] = h.install(definition);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (id: string, payload: unknown, budget?: Record<string, number>) => h.run(installed[id] as InstalledCapability, { capability_id: id, payload, ...(budget === undefined ? {} : { budget }) });

  it('answers with the claim stored as a modular claim artifact', async () => {
    const result = await run('modular.inverse.compute', { a: '3', n: '7' });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    const out = result.output as ModularOutput;
    expect(out).toMatchObject({ outcome: 'INVERTIBLE', answer: '3⁻¹ ≡ 5 (mod 7)', unproven_primes: [] });
    expect(result.qualifiers).toEqual(['EXACT', 'DETERMINISTIC']);
    const stored = await h.artifacts.get(out.result_uri as string);
    expect(stored.manifest.schema_uri).toBe(MODULAR_CLAIM_SCHEMA_URI);
    expect(ModularClaimSchema.parse(stored.payload)).toEqual(out.claim);
  });

  it('a prime above 3.3·10^24 gets a primality certificate (Pratt: p − 1 = 2q factors), so the answer stays EXACT', async () => {
    const result = await run('modular.order.compute', { a: '2', n: '4000000000000000000017467' });
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    const out = result.output as ModularOutput;
    expect(out.unproven_primes).toEqual([]);
    expect(result.qualifiers).toEqual(['EXACT', 'DETERMINISTIC']);
    expect(out.claim).toMatchObject({ prime_certificates: [{ prime: '4000000000000000000017467', certificate: { kind: 'pratt' } }] });
  });

  it('a prime that gets no certificate in time is named in unproven_primes: HEURISTIC, not EXACT', async () => {
    const output = computeModular({ operation: 'order', a: '2', n: '4000000000000000000017467' }, {});
    expect(output.unproven_primes).toEqual(['4000000000000000000017467']);
    const late = await certifyUnproven(output, { pari: null, deadline: Date.now() - 1 });
    expect(late.unproven_primes).toEqual(['4000000000000000000017467']);
    expect(late.claim).not.toHaveProperty('prime_certificates');
    const certified = await certifyUnproven(output, { pari: null, deadline: Date.now() + 30_000 });
    expect(certified.unproven_primes).toEqual([]);
  });

  it.each([
    ['modular.symbol.compute', { symbol: 'legendre', a: '2', n: '15' }, ['payload', 'n'], 'odd-prime'],
    ['modular.symbol.compute', { symbol: 'jacobi', a: '2', n: '10' }, ['payload', 'n'], 'odd-positive'],
    ['modular.discrete_log.solve', { base: '6', target: '3', n: '9' }, ['payload', 'base'], 'base-unit'],
    ['modular.inverse.compute', { a: '3', n: '0' }, ['payload', 'n'], 'integer-sign'],
    ['modular.order.compute', { a: '2', n: '1'.repeat(301) }, ['payload', 'n'], 'integer-digits'],
    ['modular.sqrt.solve', { a: '2', n: '07' }, ['payload', 'n'], 'integer-text'],
  ])('%s %j is refused at %j (rule %s), nothing stored', async (id, payload, path, rule) => {
    const before = await h.files();
    const d = error(await run(id, payload));
    expect(d.code).toBe('INVALID_REQUEST');
    expect(d.path).toEqual(path);
    expect(d.message).toContain(rule);
    expect(await h.files()).toEqual(before);
  });

  it('a discrete log whose group order has a 31-digit prime stops at the time budget with EXECUTION_TIMEOUT, concluding nothing', async () => {
    // p = 2q + 1, q a 31-digit prime: rho needs ~10^15 steps.
    const result = await run('modular.discrete_log.solve', { base: '3', target: '123456789', n: '2000000000000000000000000000543' }, { wall_time_ms: 1500 });
    expect(result.execution.status).toBe('TIMEOUT');
    expect(result.output).toBeNull();
  });
});
