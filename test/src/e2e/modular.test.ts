/**
 * Modular arithmetic end to end, through MCP on the real `jacobian` command: each producer's
 * answer (inverse, CRT, order, primitive root, discrete log, square roots, symbols), its stored
 * claim verified by modular.claim.verify (VERIFIED with a record), a tampered claim REJECTED, a
 * bad request refused naming the field and rule, and the capabilities found by the field's words.
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

interface ModularOut {
  outcome: string;
  answer: string;
  claim: Record<string, unknown>;
  unproven_primes: string[];
  result_uri: string | null;
}

async function compute(capabilityId: string, payload: Record<string, unknown>): Promise<ModularOut> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode: 'EXPLORE', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(result.assurance.level).toBe('COMPUTED');
  return result.output as ModularOut;
}

async function verify(payload: Record<string, unknown>) {
  const { result } = await mathRun(connection.client, { capability_id: 'modular.claim.verify', mode: 'VERIFY', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return result;
}

const CASES: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['modular.inverse.compute', { a: '3', n: '7' }, { outcome: 'INVERTIBLE', inverse: '5' }],
  ['modular.inverse.compute', { a: '6', n: '9' }, { outcome: 'NONE', gcd: '3' }],
  ['modular.crt.solve', { congruences: [{ residue: '1', modulus: '4' }, { residue: '3', modulus: '6' }] }, { outcome: 'SOLVED', residue: '9', modulus: '12' }],
  ['modular.crt.solve', { congruences: [{ residue: '1', modulus: '4' }, { residue: '2', modulus: '6' }] }, { outcome: 'INCONSISTENT', first: 0, second: 1, gcd: '2' }],
  ['modular.order.compute', { a: '5', n: '1000000007' }, { outcome: 'FOUND', order: '1000000006' }],
  ['modular.primitive_root.compute', { n: '1000000007' }, { outcome: 'FOUND', root: '5' }],
  ['modular.primitive_root.compute', { n: '15' }, { outcome: 'NONE' }],
  ['modular.discrete_log.solve', { base: '5', target: '123456789', n: '1000000007' }, { outcome: 'SOLVED' }],
  ['modular.discrete_log.solve', { base: '5', target: '7', n: '8' }, { outcome: 'NONE', reason: 'NOT_IN_SUBGROUP_LOCALLY' }],
  ['modular.sqrt.solve', { a: '1', n: '24' }, { outcome: 'SOLVED', count: '8', roots: ['1', '5', '7', '11', '13', '17', '19', '23'] }],
  ['modular.sqrt.solve', { a: '5', n: '7' }, { outcome: 'NONE', failure: { rule: 'NON_RESIDUE', prime: '7', exponent: 1, valuation: 0 } }],
  ['modular.symbol.compute', { symbol: 'kronecker', a: '5', n: '-12' }, { value: -1 }],
  // Primes above 3.3·10^24: certified (Pratt; ECPP from PARI's primecert for the 40-digit one) and the certificates replayed by the checker.
  ['modular.primitive_root.compute', { n: '4000000000000000000017467' }, { outcome: 'FOUND', root: '2' }],
  ['modular.sqrt.solve', { a: '4', n: '1000000000000000000000000000000000000003' }, { outcome: 'SOLVED', count: '2', roots: ['2', '1000000000000000000000000000000000000001'] }],
];

describe('modular arithmetic through MCP', () => {
  it.each(CASES)('%s %j: answered, stored, and VERIFIED by modular.claim.verify', { timeout: E2E_TEST_TIMEOUT_MS }, async (id, payload, expected) => {
    const out = await compute(id, payload);
    expect(out.claim).toMatchObject(expected);
    expect(out.unproven_primes).toEqual([]);
    expect(out.result_uri).toMatch(ARTIFACT_URI);
    const checked = await verify({ result_uri: out.result_uri });
    expect(checked.assurance.level, JSON.stringify(checked.output)).toBe('VERIFIED');
    expect(checked.output).toMatchObject({ verdict: 'ACCEPTED', claim_uri: out.result_uri });
  });

  it('the discrete log is rechecked here: 5^x ≡ 123456789 (mod 10^9 + 7)', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const out = await compute('modular.discrete_log.solve', { base: '5', target: '123456789', n: '1000000007' });
    const x = BigInt(out.claim['log'] as string);
    let [r, b, e] = [1n, 5n, x];
    while (e > 0n) {
      if (e & 1n) r = (r * b) % 1000000007n;
      b = (b * b) % 1000000007n;
      e >>= 1n;
    }
    expect(r).toBe(123456789n);
  });

  it('a tampered claim is REJECTED, not VERIFIED', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const result = await verify({ claim: { kind: 'ORDER', a: '2', n: '7', outcome: 'FOUND', order: '6', order_factors: [{ prime: '2', exponent: 1 }, { prime: '3', exponent: 1 }] } });
    expect(result.assurance.level).toBe('COMPUTED');
    expect(result.output).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_MINIMAL' });
  });

  it('a discrete log with a non-unit base is refused, naming the field and rule', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const { result } = await mathRun(connection.client, { capability_id: 'modular.discrete_log.solve', mode: 'EXPLORE', payload: { base: '6', target: '3', n: '9' } });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'base'] });
    expect(result.diagnostics[0]?.message).toContain('base-unit');
  });

  it('found by the words of the field', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const [query, id] of [
      ['modular inverse', 'modular.inverse.compute'],
      ['Chinese remainder theorem', 'modular.crt.solve'],
      ['primitive root modulo a prime', 'modular.primitive_root.compute'],
      ['discrete logarithm', 'modular.discrete_log.solve'],
      ['Tonelli-Shanks square root mod p', 'modular.sqrt.solve'],
    ] as const) {
      const found = await mathFind(connection.client, { query });
      expect(found.response.matches.map((m) => m['capability_id']), query).toContain(id);
    }
  });
});
