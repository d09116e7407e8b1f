/**
 * Primality with certificates end to end, through MCP on the real `jacobian` command: found by a
 * mathematician's words; integer.primality.decide answers PRIME with a certificate (Pratt, or an
 * Atkin–Morain ECPP certificate from PARI/GP where gp is installed, labelled as such) or COMPOSITE
 * with a witness; integer.primality.verify replays the stored claim with the checker's own code
 * (VERIFIED with a signed record) and rejects a tampered certificate; integer.factorization.verify
 * rejects a factorization with a composite "prime".
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

interface Decided {
  verdict: string;
  certificate_kind: string | null;
  certificate_source: string | null;
  certificate: Record<string, unknown> | null;
  witness: { kind: string } | null;
  result_uri: string | null;
}

async function decide(n: string): Promise<Decided> {
  const { result } = await mathRun(connection.client, { capability_id: 'integer.primality.decide', mode: 'EXPLORE', payload: { n } });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(result.assurance.level).toBe('COMPUTED');
  return result.output as Decided;
}

async function verify(capabilityId: string, payload: Record<string, unknown>): Promise<{ level: string; verdict: string; reason: string | null; record: string | null }> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode: 'VERIFY', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  const output = result.output as { verdict: string; reason_code: string | null; verification_record_uri: string | null };
  return { level: result.assurance.level, verdict: output.verdict, reason: output.reason_code, record: output.verification_record_uri };
}

describe('primality certificates through MCP', () => {
  it('are found by the words of the field', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const [query, id] of [
      ['is this number prime', 'integer.primality.decide'],
      ['check an Atkin-Morain ECPP elliptic curve primality certificate', 'integer.primality.verify'],
      ['verify a prime factorization of an integer with certificates for the primes', 'integer.factorization.verify'],
    ] as const) {
      const found = await mathFind(connection.client, { query, limit: 3 });
      expect(found.response.matches.map((m) => m['capability_id']), query).toContain(id);
    }
  });

  it('decides a 40-digit prime with a certificate that the checker VERIFIES, and rejects it tampered', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const n = '1000000000000000000000000000000000000003'; // nextprime(10^39)
    const decided = await decide(n);
    expect(decided.verdict).toBe('PRIME');
    expect(['pratt', 'ecpp']).toContain(decided.certificate_kind);
    expect(decided.certificate_source).toBe(decided.certificate_kind === 'ecpp' ? 'PARI_PRIMECERT' : 'OURS');
    expect(decided.result_uri).toMatch(ARTIFACT_URI);
    const verified = await verify('integer.primality.verify', { result_uri: decided.result_uri });
    expect(verified).toMatchObject({ level: 'VERIFIED', verdict: 'ACCEPTED', reason: null });
    expect(verified.record).toMatch(ARTIFACT_URI);
    const certificate = decided.certificate as { kind: string; witness?: string; steps?: [string, string, string, string, [string, string]][] };
    const tampered =
      certificate.kind === 'pratt'
        ? { ...certificate, witness: '4' }
        : { ...certificate, steps: (certificate.steps ?? []).map((s, i) => (i === 0 ? [s[0], (BigInt(s[1]) + 2n).toString(), s[2], s[3], s[4]] : s)) };
    const rejected = await verify('integer.primality.verify', { claim: { n, verdict: 'PRIME', certificate: tampered } });
    expect(rejected).toMatchObject({ level: 'COMPUTED', verdict: 'REJECTED', record: null });
    expect(rejected.reason).toMatch(/^(PRATT_ORDER|ECPP_ORDER|ECPP_PARAMETERS|ECPP_BOUND)$/);
  });

  it('decides a Carmichael number and a strong pseudoprime composite, with witnesses the checker accepts', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const n of ['561', '3825123056546413051']) {
      const decided = await decide(n);
      expect(decided).toMatchObject({ verdict: 'COMPOSITE', certificate: null });
      expect(await verify('integer.primality.verify', { result_uri: decided.result_uri })).toMatchObject({ level: 'VERIFIED', verdict: 'ACCEPTED' });
    }
  });

  it('rejects a factorization whose "prime" is a Carmichael number', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const claim = { n: '1683', factors: [{ prime: '3', exponent: 1, certificate: { kind: 'small', n: '3' } }, { prime: '561', exponent: 1, certificate: { kind: 'small', n: '561' } }] };
    expect(await verify('integer.factorization.verify', { claim })).toMatchObject({ verdict: 'REJECTED', reason: 'SMALL_NOT_PRIME' });
    const good = { n: '1683', factors: [{ prime: '3', exponent: 2, certificate: { kind: 'small', n: '3' } }, { prime: '11', exponent: 1, certificate: { kind: 'small', n: '11' } }, { prime: '17', exponent: 1, certificate: { kind: 'small', n: '17' } }] };
    expect(await verify('integer.factorization.verify', { claim: good })).toMatchObject({ level: 'VERIFIED', verdict: 'ACCEPTED' });
  });
});
