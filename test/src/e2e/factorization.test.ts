/**
 * Integer factorization and the arithmetic functions end to end, through MCP on the real
 * `jacobian` command: found by a mathematician's words; integer.factor.compute factors a
 * semiprime of two 20-digit primes (PARI/GP where gp is installed, our ECM otherwise) with every
 * prime certified, and integer.factorization.verify VERIFIES the stored claim; the arithmetic
 * functions answer on n = 360 and friends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { ARTIFACT_URI, mathFind, mathRun } from '../support/tools.js';

let jacobian: JacobianFixture;
let connection: Connection;

beforeAll(async () => {
  jacobian = await startJacobian();
  connection = await jacobian.connect({ transport: 'http', era: 'modern' });
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await connection?.close();
  await jacobian?.close();
}, HOOK_TIMEOUT_MS);

async function run(capabilityId: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode: 'EXPLORE', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return result.output as Record<string, unknown>;
}

describe('integer factorization and arithmetic functions through MCP', () => {
  it('are found by the words of the field', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const [query, id] of [
      ['prime factorization of an integer with ECM', 'integer.factor.compute'],
      ['Pollard rho factoring', 'integer.factor.compute'],
      ['divisor function sigma sum of divisors', 'integer.sigma.compute'],
      ['Euler totient phi', 'integer.totient.compute'],
      ['Möbius function', 'integer.mobius.compute'],
    ] as const) {
      const found = await mathFind(connection.client, { query, limit: 3 });
      expect(found.response.matches.map((m) => m['capability_id']), query).toContain(id);
    }
  });

  it('factors a 40-digit semiprime with certified primes, and the checker VERIFIES the claim', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    // nextprime(10^19) · nextprime(3·10^19)
    const p = 10000000000000000051n;
    const q = 30000000000000000041n;
    const output = await run('integer.factor.compute', { n: (p * q).toString() });
    expect(output).toMatchObject({ complete: true, factorization: `${p} · ${q}`, uncertified_primes: [], composite_cofactors: [] });
    expect(output['result_uri']).toMatch(ARTIFACT_URI);
    const { result } = await mathRun(connection.client, { capability_id: 'integer.factorization.verify', mode: 'VERIFY', payload: { result_uri: output['result_uri'] } });
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(result.assurance.level).toBe('VERIFIED');
  });

  it('computes divisors, σ, φ, μ, valuations, perfect powers, Bézout and roots', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    expect(await run('integer.divisors.compute', { n: '360', limit: 4 })).toMatchObject({ divisor_count: '24', divisors: ['1', '2', '3', '4'], truncated: true });
    expect(await run('integer.sigma.compute', { n: '28' })).toMatchObject({ sigma: '56' });
    expect(await run('integer.totient.compute', { n: '36' })).toMatchObject({ totient: '12' });
    expect(await run('integer.mobius.compute', { n: '30' })).toMatchObject({ mobius: -1, squarefree: true });
    expect(await run('integer.valuation.compute', { n: '96', p: '2' })).toMatchObject({ valuation: 5, unit_part: '3' });
    expect(await run('integer.perfect_power.decide', { n: '1073741824' })).toMatchObject({ perfect_power: true, base: '2', exponent: 30 });
    expect(await run('integer.gcd.extended', { values: ['240', '46'] })).toMatchObject({ gcd: '2' });
    expect(await run('integer.root.compute', { n: '1000000', k: 3 })).toMatchObject({ root: '100', exact: true });
  });
});
