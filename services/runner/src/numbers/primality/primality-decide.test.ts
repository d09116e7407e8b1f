/**
 * integer.primality.decide end to end on both providers (PARI/GP adds ECPP; ours small and Pratt
 * only), with the stored claim read back and parsed; random agreement with PARI's isprime.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrimalityClaimSchema, type CapabilityResult, type ProviderRuntime } from '@jacobian/shared';
import { PARI_PROVIDER, probePari, type PariTools } from '../../providers/pari.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../../testing/fixtures.js';
import { PRIMALITY_DECIDE_ID, PRIMALITY_TS_PROVIDER, primalityDecide, type PrimalityDecideOutput } from './primality-decide.js';
import { replayPrimalityCertificate } from './replay.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));
const PARI: ProviderRuntime = { ...FAKE_RUNTIME, provider: PARI_PROVIDER };
const TS: ProviderRuntime = { ...FAKE_RUNTIME, provider: PRIMALITY_TS_PROVIDER };

const out = (result: CapabilityResult): PrimalityDecideOutput => {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return result.output as PrimalityDecideOutput;
};

describe('integer.primality.decide on our TypeScript (small and Pratt)', () => {
  let h: CapabilityHarness;
  beforeAll(async () => {
    h = await createCapabilityHarness();
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('decides primes with certificates and composites (Carmichael, strong pseudoprimes, prime powers) with witnesses', async () => {
    const cap = h.install(primalityDecide(TS), TS);
    const run = async (n: string): Promise<PrimalityDecideOutput> => out(await h.run(cap, { capability_id: PRIMALITY_DECIDE_ID, payload: { n } }));
    expect(await run('2')).toMatchObject({ verdict: 'PRIME', certificate_kind: 'small', certificate_source: 'OURS' });
    const mersenne = await run('618970019642690137449562111');
    expect(mersenne).toMatchObject({ verdict: 'PRIME', certificate_kind: 'pratt', certificate_source: 'OURS' });
    expect(replayPrimalityCertificate(mersenne.certificate as NonNullable<PrimalityDecideOutput['certificate']>)).toBeNull();
    const stored = await h.artifacts.get(mersenne.result_uri as string);
    expect(PrimalityClaimSchema.parse(stored.payload)).toMatchObject({ n: '618970019642690137449562111', verdict: 'PRIME' });
    expect(await run('561')).toMatchObject({ verdict: 'COMPOSITE', witness: { kind: 'factor', factor: '3' } });
    // Strong pseudoprime to the prime bases ≤ 31 with no factor below 10^4: the witness is a base.
    expect(await run('3825123056546413051')).toMatchObject({ verdict: 'COMPOSITE', witness: { kind: 'base', base: '37' } });
    // ψ12 (strong pseudoprime to the prime bases ≤ 37), and the square of a 13-digit prime.
    expect((await run('318665857834031151167461')).verdict).toBe('COMPOSITE');
    expect((await run(((10n ** 12n + 39n) ** 2n).toString())).verdict).toBe('COMPOSITE');
  });

  it('refuses 1, 0 and malformed integers before any work, naming the rule', async () => {
    const cap = h.install(primalityDecide(TS), TS);
    for (const [n, rule] of [['1', 'integer-at-least-2'], ['0', 'integer-sign'], ['07', 'integer-text']] as const) {
      const result = await h.run(cap, { capability_id: PRIMALITY_DECIDE_ID, payload: { n } });
      expect(result.execution.status).toBe('ERROR');
      expect(result.diagnostics[0]?.message).toContain(rule);
    }
  });

  it('without PARI, a large prime whose n − 1 does not factor in time ends in EXECUTION_TIMEOUT, not an uncertified PRIME', async () => {
    const cap = h.install(primalityDecide(TS), TS);
    const result = await h.run(cap, { capability_id: PRIMALITY_DECIDE_ID, payload: { n: '20000000000000000001099658000000000000004044684283' }, budget: { wall_time_ms: 1500 } });
    expect(result.execution.status).toBe('TIMEOUT');
    expect(result.output).toBeNull();
  });
});

describe.skipIf(GP === undefined)('integer.primality.decide on PARI/GP (ECPP), and agreement with PARI isprime', () => {
  let h: CapabilityHarness;
  let tools: PariTools;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    tools = (await probePari({ binary: GP as string })).tools;
  }, 60_000);
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('a 120-digit prime by a PARI ECPP certificate, labelled as such and replayed', async () => {
    const cap = h.install(primalityDecide(PARI, { pari: { tools } }), PARI);
    const n = (10n ** 119n + 69n).toString(); // nextprime(10^119)
    expect(execFileSync(GP as string, ['-q', '-f'], { input: `print(isprime(${n}))`, encoding: 'utf8' }).trim()).toBe('1');
    const output = out(await h.run(cap, { capability_id: PRIMALITY_DECIDE_ID, payload: { n } }));
    expect(output).toMatchObject({ verdict: 'PRIME', certificate_kind: 'ecpp', certificate_source: 'PARI_PRIMECERT', engine: { provider: PARI_PROVIDER } });
    expect(replayPrimalityCertificate(output.certificate as NonNullable<PrimalityDecideOutput['certificate']>)).toBeNull();
  }, 60_000);

  it('agrees with isprime on random 20- to 80-digit numbers and their next primes', async () => {
    const cap = h.install(primalityDecide(PARI, { pari: { tools } }), PARI);
    const lines = execFileSync(GP as string, ['-q', '-f'], { input: 'setrand(35);for(i=1,12,n=random(10^(20+5*i))+10^(19+5*i);print(n," ",isprime(n));p=nextprime(n);print(p," ",isprime(p)))', encoding: 'utf8' }).trim().split('\n');
    for (const line of lines) {
      const [n, isPrime] = line.split(' ') as [string, string];
      const output = out(await h.run(cap, { capability_id: PRIMALITY_DECIDE_ID, payload: { n } }));
      expect(output.verdict, n).toBe(isPrime === '1' ? 'PRIME' : 'COMPOSITE');
    }
  }, 120_000);
});
