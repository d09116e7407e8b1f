/**
 * integer.factor.compute and the arithmetic functions on both providers: our engine, and PARI/GP
 * (skipped without gp), with the stored claim read back, naive references on small n, and
 * agreement with PARI's factor, sigma, eulerphi, moebius, valuation, ispower, gcdext, sqrtnint.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IntegerFactorizationClaimSchema, isProbablePrimeBpsw, type CapabilityResult, type ProviderRuntime } from '@jacobian/shared';
import { PARI_PROVIDER, probePari, type PariTools } from '../../providers/pari.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../../testing/fixtures.js';
import { divisorsCompute, gcdExtended, mobiusCompute, perfectPowerDecide, rootCompute, sigmaCompute, totientCompute, valuationCompute } from '../arithmetic/arithmetic-capabilities.js';
import { FACTOR_COMPUTE_ID, FACTOR_TS_PROVIDER, factorCompute, type FactorComputeOutput } from './factor-compute.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));
const PARI: ProviderRuntime = { ...FAKE_RUNTIME, provider: PARI_PROVIDER };
const TS: ProviderRuntime = { ...FAKE_RUNTIME, provider: FACTOR_TS_PROVIDER };

const out = <T>(result: CapabilityResult): T => {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return result.output as T;
};

function nextPrime(start: bigint): bigint {
  let p = start;
  while (!isProbablePrimeBpsw(p)) p++;
  return p;
}

/** Naive references: trial division of every d ≤ n. */
function naive(n: number): { divisors: number[]; sigma2: bigint; phi: number; mu: number } {
  const divisors: number[] = [];
  for (let d = 1; d <= n; d++) if (n % d === 0) divisors.push(d);
  let phi = 0;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  for (let a = 1; a <= n; a++) if (gcd(a, n) === 1) phi++;
  let mu = 1;
  let m = n;
  for (let p = 2; p <= m; p++) {
    if (m % p !== 0) continue;
    m /= p;
    if (m % p === 0) {
      mu = 0;
      break;
    }
    mu = -mu;
  }
  return { divisors, sigma2: divisors.reduce((s, d) => s + BigInt(d) ** 2n, 0n), phi, mu };
}

describe('integer.factor.compute and the arithmetic functions on our engine', () => {
  let h: CapabilityHarness;
  beforeAll(async () => {
    h = await createCapabilityHarness();
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('factors with certified primes and stores the claim; 1 has the empty factorization', async () => {
    const cap = h.install(factorCompute(TS), TS);
    const f6 = out<FactorComputeOutput>(await h.run(cap, { capability_id: FACTOR_COMPUTE_ID, payload: { n: '18446744073709551617' } }));
    expect(f6).toMatchObject({ factorization: '274177 · 67280421310721', complete: true, composite_cofactors: [], uncertified_primes: [] });
    expect(f6.factors.every((f) => f.certified && f.certificate_kind === 'small')).toBe(true);
    const claim = IntegerFactorizationClaimSchema.parse((await h.artifacts.get(f6.result_uri as string)).payload);
    expect(claim.factors.map((f) => f.prime)).toEqual(['274177', '67280421310721']);
    // A 40-digit semiprime of two 20-digit primes above ψ13: ECM splits, Pratt certifies.
    const p = nextPrime(10n ** 19n);
    const q = nextPrime(3n * 10n ** 19n);
    const semi = out<FactorComputeOutput>(await h.run(cap, { capability_id: FACTOR_COMPUTE_ID, payload: { n: (p * q).toString() } }));
    expect(semi.factors.map((f) => f.prime)).toEqual([p.toString(), q.toString()]);
    expect(semi.complete).toBe(true);
    const one = out<FactorComputeOutput>(await h.run(cap, { capability_id: FACTOR_COMPUTE_ID, payload: { n: '1' } }));
    expect(one).toMatchObject({ factorization: '1', factors: [], complete: true });
  }, 60_000);

  it('says what it did not finish: a budget too short for a 60-digit semiprime gives a PARTIAL result, not a factorization', async () => {
    const cap = h.install(factorCompute(TS), TS);
    const n = ((10n ** 29n + 7n) * (10n ** 30n + 57n) * 8n).toString();
    const result = await h.run(cap, { capability_id: FACTOR_COMPUTE_ID, payload: { n }, budget: { wall_time_ms: 1500 } });
    if (result.execution.status === 'COMPLETED') {
      const o = result.output as FactorComputeOutput;
      expect(o.complete).toBe(false);
      expect(result.completeness.status).toBe('PARTIAL');
      expect(o.result_uri).toBeNull();
      expect(o.factors[0]).toMatchObject({ prime: '2', exponent: 3 });
    } else {
      expect(result.execution.status).toBe('TIMEOUT');
    }
  }, 60_000);

  it('refuses malformed n before any work, naming the rule', async () => {
    const cap = h.install(factorCompute(TS), TS);
    for (const [n, rule] of [['0', 'integer-sign'], ['-6', 'integer-sign'], ['012', 'integer-text'], ['1'.repeat(201), 'integer-digits']] as const) {
      const result = await h.run(cap, { capability_id: FACTOR_COMPUTE_ID, payload: { n } });
      expect(result.execution.status).toBe('ERROR');
      expect(result.diagnostics[0]?.message).toContain(rule);
    }
  });

  it('agrees with naive references for n < 400: divisors, σ_2, φ, μ', async () => {
    const div = h.install(divisorsCompute(TS), TS);
    const sig = h.install(sigmaCompute(TS), TS);
    const phi = h.install(totientCompute(TS), TS);
    const mu = h.install(mobiusCompute(TS), TS);
    for (const n of [1, 2, 12, 36, 97, 210, 256, 360, 391]) {
      const ref = naive(n);
      const payload = { n: String(n) };
      expect(out<{ divisors: string[]; divisor_count: string }>(await h.run(div, { capability_id: 'integer.divisors.compute', payload }))).toMatchObject({ divisors: ref.divisors.map(String), divisor_count: String(ref.divisors.length) });
      expect(out<{ sigma: string }>(await h.run(sig, { capability_id: 'integer.sigma.compute', payload: { n: String(n), k: 2 } })).sigma).toBe(ref.sigma2.toString());
      expect(out<{ totient: string }>(await h.run(phi, { capability_id: 'integer.totient.compute', payload })).totient).toBe(String(ref.phi));
      expect(out<{ mobius: number }>(await h.run(mu, { capability_id: 'integer.mobius.compute', payload })).mobius).toBe(ref.mu);
    }
    const limited = out<{ divisors: string[]; truncated: boolean; divisor_count: string }>(await h.run(div, { capability_id: 'integer.divisors.compute', payload: { n: '720720', limit: 5 } }));
    expect(limited).toMatchObject({ divisors: ['1', '2', '3', '4', '5'], truncated: true, divisor_count: '240' });
  }, 60_000);

  it('valuation, perfect powers, extended gcd and roots, with typed errors for bad input', async () => {
    const val = h.install(valuationCompute(TS), TS);
    const pow = h.install(perfectPowerDecide(TS), TS);
    const gcd = h.install(gcdExtended(TS), TS);
    const root = h.install(rootCompute(TS), TS);
    expect(out(await h.run(val, { capability_id: 'integer.valuation.compute', payload: { n: '-96', p: '2' } }))).toMatchObject({ valuation: 5, unit_part: '-3' });
    expect(out(await h.run(val, { capability_id: 'integer.valuation.compute', payload: { n: (3n ** 1000n * 7n).toString(), p: '3' } }))).toMatchObject({ valuation: 1000, unit_part: '7' });
    const notPrime = await h.run(val, { capability_id: 'integer.valuation.compute', payload: { n: '96', p: '4' } });
    expect(notPrime.execution.status).toBe('ERROR');
    expect(notPrime.diagnostics[0]?.message).toContain('p-prime');
    expect(out(await h.run(pow, { capability_id: 'integer.perfect_power.decide', payload: { n: (2n ** 30n).toString() } }))).toMatchObject({ perfect_power: true, base: '2', exponent: 30 });
    expect(out(await h.run(pow, { capability_id: 'integer.perfect_power.decide', payload: { n: '-216' } }))).toMatchObject({ perfect_power: true, base: '-6', exponent: 3 });
    expect(out(await h.run(pow, { capability_id: 'integer.perfect_power.decide', payload: { n: (6n ** 12n + 1n).toString() } }))).toMatchObject({ perfect_power: false, base: null });
    expect(out(await h.run(gcd, { capability_id: 'integer.gcd.extended', payload: { values: ['240', '46'] } }))).toMatchObject({ gcd: '2' });
    expect(out(await h.run(gcd, { capability_id: 'integer.gcd.extended', payload: { values: ['6', '10', '15'] } }))).toMatchObject({ gcd: '1' });
    expect(out(await h.run(root, { capability_id: 'integer.root.compute', payload: { n: '100000000000000000001', k: 2 } }))).toMatchObject({ root: '10000000000', exact: false, remainder: '1' });
    expect(out(await h.run(root, { capability_id: 'integer.root.compute', payload: { n: '-28', k: 3 } }))).toMatchObject({ root: '-4', exact: false, remainder: '36' });
    const even = await h.run(root, { capability_id: 'integer.root.compute', payload: { n: '-4', k: 2 } });
    expect(even.diagnostics[0]?.message).toContain('even-root-negative');
  }, 60_000);
});

describe.skipIf(GP === undefined)('on PARI/GP, and agreement with PARI', () => {
  let h: CapabilityHarness;
  let tools: PariTools;
  const gp = (script: string): string[] => execFileSync(GP as string, ['-q', '-f'], { input: script, encoding: 'utf8' }).trim().split('\n');
  beforeAll(async () => {
    h = await createCapabilityHarness();
    tools = (await probePari({ binary: GP as string })).tools;
  }, 60_000);
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it("serves PARI's factor rechecked and certified (ECPP above 60 digits), and our engine agrees with it on random 25-digit numbers", async () => {
    const pariCap = h.install(factorCompute(PARI, { pari: { tools } }), PARI);
    const oursCap = h.install(factorCompute(TS), TS);
    const big = (10n ** 69n + 9n) * 3n ** 4n; // nextprime(10^69) · 3^4
    const o = out<FactorComputeOutput>(await h.run(pariCap, { capability_id: FACTOR_COMPUTE_ID, payload: { n: big.toString() } }));
    expect(o.engine.provider).toBe(PARI_PROVIDER);
    expect(o.complete).toBe(true);
    expect(o.factors[0]).toMatchObject({ prime: '3', exponent: 4 });
    expect(o.factors[1]).toMatchObject({ prime: (10n ** 69n + 9n).toString(), exponent: 1, certified: true, certificate_kind: 'ecpp' });
    const lines = gp('setrand(35);for(i=1,6,n=random(10^25)+10^24;f=factor(n);print(n," ",strjoin(apply(x->Str(x),f[,1]~)," ")))');
    for (const line of lines) {
      const [n, ...primes] = line.split(' ');
      const ours = out<FactorComputeOutput>(await h.run(oursCap, { capability_id: FACTOR_COMPUTE_ID, payload: { n: n as string } }));
      expect(ours.factors.map((f) => f.prime), n).toEqual(primes);
      const theirs = out<FactorComputeOutput>(await h.run(pariCap, { capability_id: FACTOR_COMPUTE_ID, payload: { n: n as string } }));
      expect(theirs.factors.map((f) => f.prime)).toEqual(primes);
    }
  }, 120_000);

  it('σ_k, φ, μ, valuation, ispower, gcdext and sqrtnint agree with PARI on random inputs', async () => {
    const sig = h.install(sigmaCompute(TS), TS);
    const phi = h.install(totientCompute(PARI, { pari: { tools } }), PARI);
    const mu = h.install(mobiusCompute(TS), TS);
    const val = h.install(valuationCompute(TS), TS);
    const pow = h.install(perfectPowerDecide(TS), TS);
    const gcd = h.install(gcdExtended(TS), TS);
    const root = h.install(rootCompute(TS), TS);
    const lines = gp(
      'setrand(7);w=[1,4,9,8,27,1024];for(i=1,8,n=(1+random(10^18))*w[1+random(6)];a=random(10^30);b=random(10^25);k=2+random(5);[u,v,g]=gcdext(a,b);print(n," ",sigma(n,3)," ",eulerphi(n)," ",moebius(n)," ",valuation(n,2)," ",ispower(n)," ",a," ",b," ",g," ",k," ",sqrtnint(a,k)))',
    );
    for (const line of lines) {
      const [n, s3, ph, m, v2, isPow, a, b, g, k, r] = line.split(' ');
      expect(out<{ sigma: string }>(await h.run(sig, { capability_id: 'integer.sigma.compute', payload: { n, k: 3 } })).sigma).toBe(s3);
      expect(out<{ totient: string }>(await h.run(phi, { capability_id: 'integer.totient.compute', payload: { n } })).totient).toBe(ph);
      expect(String(out<{ mobius: number }>(await h.run(mu, { capability_id: 'integer.mobius.compute', payload: { n } })).mobius)).toBe(m);
      expect(String(out<{ valuation: number }>(await h.run(val, { capability_id: 'integer.valuation.compute', payload: { n, p: '2' } })).valuation)).toBe(v2);
      const powered = out<{ exponent: number | null }>(await h.run(pow, { capability_id: 'integer.perfect_power.decide', payload: { n } }));
      expect(String(powered.exponent ?? 0)).toBe(isPow);
      expect(out<{ gcd: string }>(await h.run(gcd, { capability_id: 'integer.gcd.extended', payload: { values: [a, b] } })).gcd).toBe(g);
      expect(out<{ root: string }>(await h.run(root, { capability_id: 'integer.root.compute', payload: { n: a, k: Number(k) } })).root).toBe(r);
    }
  }, 120_000);
});
