/**
 * The counting capabilities as the host runs them: every example, answers with their method,
 * tables, and bad requests refused before any work with the field and the rule named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, COUNTING_LIMITS, type CapabilityResult, type CountingResult, type InstalledCapability } from '@jacobian/shared';
import { createCapabilityHarness, type CapabilityHarness } from '../testing/fixtures.js';
import { binomialCompute } from './binomial.js';
import { compositionCount } from './composition.js';
import { countingNumberCompute } from './number.js';
import { partitionCount } from './partition.js';
import { stirlingCompute } from './stirling.js';

let h: CapabilityHarness;
const installed = new Map<string, InstalledCapability>();

beforeAll(async () => {
  h = await createCapabilityHarness();
  for (const capability of [h.install(binomialCompute), h.install(stirlingCompute), h.install(countingNumberCompute), h.install(partitionCount), h.install(compositionCount)]) installed.set(capability.descriptor.id, capability);
});
afterAll(async () => {
  await h?.[Symbol.asyncDispose]();
});

const run = (id: string, payload: unknown, budget?: Record<string, number>): Promise<CapabilityResult> =>
  h.run(installed.get(id) as InstalledCapability, { capability_id: id, payload, ...(budget === undefined ? {} : { budget }) });

async function ok(id: string, payload: unknown): Promise<CountingResult> {
  const result = await run(id, payload);
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  return result.output as CountingResult;
}

async function refused(id: string, payload: unknown, path: (string | number)[], rule: RegExp): Promise<void> {
  const result = await run(id, payload);
  expect(result.execution.status).toBe('ERROR');
  const error = result.diagnostics.find((d) => d.code === 'INVALID_REQUEST');
  expect(error?.path, JSON.stringify(result.diagnostics)).toEqual(['payload', ...path]);
  expect(error?.message).toMatch(rule);
}

describe('counting capabilities', () => {
  it('registers five, in the combinatorics domain, and runs every example', async () => {
    expect([...installed.keys()]).toEqual(['combinatorics.binomial.compute', 'combinatorics.stirling.compute', 'combinatorics.number.compute', 'combinatorics.partition.count', 'combinatorics.composition.count']);
    for (const capability of installed.values()) {
      expect(capability.descriptor.domain).toBe('combinatorics');
      for (const example of capability.descriptor.examples) await ok(capability.descriptor.id, example.payload);
    }
  });

  it('answers with the exact value, its digits and the method', async () => {
    expect(await ok('combinatorics.binomial.compute', { n: 10, k: 3 })).toMatchObject({ value: '120', digits: 3, method: expect.stringMatching(/multiplicative formula/) as unknown });
    expect(await ok('combinatorics.binomial.compute', { kind: 'multinomial', parts: [2, 3, 4] })).toMatchObject({ value: '1260' });
    expect(await ok('combinatorics.binomial.compute', { n: 4, row: true })).toMatchObject({ values: ['1', '4', '6', '4', '1'] });
    expect(await ok('combinatorics.stirling.compute', { kind: 'first_signed', n: 5 })).toMatchObject({ values: ['0', '24', '-50', '35', '-10', '1'], method: expect.stringMatching(/signed/) as unknown });
    expect(await ok('combinatorics.stirling.compute', { kind: 'second', n: 3, k: 7 })).toMatchObject({ value: '0' });
    expect(await ok('combinatorics.number.compute', { kind: 'bell', n: 5, table: true })).toMatchObject({ values: ['1', '1', '2', '5', '15', '52'] });
    expect(await ok('combinatorics.number.compute', { kind: 'derangement', n: 4 })).toMatchObject({ value: '9' });
    expect(await ok('combinatorics.partition.count', { n: 100 })).toMatchObject({ value: '190569292', method: expect.stringMatching(/pentagonal/) as unknown });
    expect(await ok('combinatorics.partition.count', { n: 10, exact_parts: 3 })).toMatchObject({ value: '8', method: expect.stringMatching(/conjugation/) as unknown });
    expect(await ok('combinatorics.composition.count', { n: 10, exact_parts: 3 })).toMatchObject({ value: '36' });
  });

  it('computes the largest admitted requests', async () => {
    // p(10000) ≈ 3.6167·10^106 (OEIS A000041 b-file).
    const p = await ok('combinatorics.partition.count', { n: COUNTING_LIMITS.partitionMaxN });
    expect(p).toMatchObject({ digits: 107, value: expect.stringMatching(/^3616725132563629/) as unknown });
    expect((await ok('combinatorics.number.compute', { kind: 'catalan', n: COUNTING_LIMITS.catalanMaxN })).digits).toBeGreaterThan(12_000);
  });

  it('refuses bad requests naming the field and the rule', async () => {
    await refused('combinatorics.binomial.compute', { n: 10 }, ['k'], /rule: required/);
    await refused('combinatorics.binomial.compute', { n: 10, k: 2, parts: [1] }, ['parts'], /rule: field-kind/);
    await refused('combinatorics.binomial.compute', { n: 5000, row: true }, ['n'], /rule: row-size/);
    await refused('combinatorics.binomial.compute', { kind: 'multinomial', parts: [60_000, 60_000] }, ['parts'], /rule: total-size/);
    await refused('combinatorics.binomial.compute', { n: -1, k: 0 }, ['n'], /0/);
    await refused('combinatorics.stirling.compute', { kind: 'second', n: COUNTING_LIMITS.stirlingMaxN + 1 }, ['n'], /1000/);
    await refused('combinatorics.number.compute', { kind: 'bell', n: 5000 }, ['n'], /rule: n-limit/);
    await refused('combinatorics.partition.count', { n: 10, parts_in: [1, 1] }, ['parts_in'], /rule: distinct-values/);
    await refused('combinatorics.partition.count', { n: 10, max_parts: 2, exact_parts: 2 }, ['exact_parts'], /rule: one-count-bound/);
    await refused('combinatorics.partition.count', { n: 10_000, distinct: true }, ['n'], /rule: work-limit/);
    await refused('combinatorics.composition.count', { n: 5000, max_part: 3000, exact_parts: 2000 }, ['exact_parts'], /rule: work-limit/);
  });

  it('refuses a table larger than the output budget, naming the limit', async () => {
    const result = await run('combinatorics.number.compute', { kind: 'catalan', n: COUNTING_LIMITS.catalanMaxN, table: true });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics.map((d) => d.code)).toContain('OUTPUT_LIMIT_EXCEEDED');
    const small = await run('combinatorics.binomial.compute', { n: 1000, row: true }, { max_output_bytes: 4096 });
    expect(small.diagnostics.map((d) => d.code)).toContain('OUTPUT_LIMIT_EXCEEDED');
  });
});
