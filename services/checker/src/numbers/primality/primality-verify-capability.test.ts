import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIMALITY_CLAIM_SCHEMA_URI, PRIMALITY_CLAIM_SEMANTICS_URI, verifyRecordSignature, type ArtifactStore, type CapabilityResult, type EcppCertificate, type InstalledCapability } from '@jacobian/shared';
import { completedOutput, createCheckerHarness, type CheckerHarness } from '../../checker-test-support.js';
import { verifyIntegerFactorization, verifyPrimality, type PrimalityVerifyOutput } from './primality-verify-capability.js';

const ECPP_300 = JSON.parse(readFileSync(new URL('./ecpp-300-digits.fixture.json', import.meta.url), 'utf8')) as EcppCertificate;

describe('integer.primality.verify and integer.factorization.verify as capabilities', () => {
  let h: CheckerHarness;
  let artifacts: ArtifactStore;
  let primality: InstalledCapability;
  let factorization: InstalledCapability;
  let unauthorized: InstalledCapability;
  const run = (which: InstalledCapability, payload: Record<string, unknown>): Promise<CapabilityResult> => h.run(which, payload);
  const out = (result: CapabilityResult): PrimalityVerifyOutput => completedOutput<PrimalityVerifyOutput>(result);

  beforeAll(async () => {
    h = await createCheckerHarness('jacobian-primality-checker-');
    artifacts = h.artifacts;
    primality = await h.install(verifyPrimality);
    factorization = await h.install(verifyIntegerFactorization);
    unauthorized = await h.install(verifyPrimality, false);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('verifies every advertised example, with a signed record bound to the stored claim', async () => {
    for (const capability of [primality, factorization]) {
      for (const example of capability.descriptor.examples) {
        const result = await run(capability, example.payload);
        const output = out(result);
        expect(output.verdict, example.title).toBe('ACCEPTED');
        expect(result.assurance.level).toBe('VERIFIED');
        const record = await artifacts.get(output.verification_record_uri as string);
        expect(verifyRecordSignature(record.payload, h.trusted)).toMatchObject({ body: { candidate_uri: output.claim_uri } });
      }
    }
  });

  it('verifies a stored 300-digit ECPP claim by result_uri, and rejects a tampered one naming the step', async () => {
    const claim = { n: ECPP_300.n, verdict: 'PRIME', certificate: ECPP_300 };
    const uri = (await artifacts.put({ schema_uri: PRIMALITY_CLAIM_SCHEMA_URI, semantics_uri: PRIMALITY_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: {} })).uri;
    const result = await run(primality, { result_uri: uri });
    expect(out(result)).toMatchObject({ verdict: 'ACCEPTED', claim_kind: 'PRIME', claim_uri: uri });
    expect(result.scope?.statement).toContain('Atkin–Morain ECPP');
    const steps = ECPP_300.steps.map((step, i) => (i === 5 ? ([step[0], (BigInt(step[1]) + 2n).toString(), step[2], step[3], step[4]] as typeof step) : step));
    const tampered = await run(primality, { claim: { ...claim, certificate: { ...ECPP_300, steps } } });
    expect(out(tampered)).toMatchObject({ verdict: 'REJECTED', verification_record_uri: null });
    expect(out(tampered).failure?.path.slice(0, 3)).toEqual(['certificate', 'steps', 5]);
    expect(tampered.diagnostics[0]).toMatchObject({ code: 'CHECKER_REJECTED' });
  });

  it('rejects a forged small certificate of a strong pseudoprime and a factorization with a composite "prime"', async () => {
    const forged = await run(primality, { claim: { n: '3825123056546413051', verdict: 'PRIME', certificate: { kind: 'small', n: '3825123056546413051' } } });
    expect(out(forged)).toMatchObject({ verdict: 'REJECTED', reason_code: 'SMALL_NOT_PRIME' });
    const composite = await run(factorization, { claim: { n: '1683', factors: [{ prime: '3', exponent: 1, certificate: { kind: 'small', n: '3' } }, { prime: '561', exponent: 1, certificate: { kind: 'small', n: '561' } }] } });
    expect(out(composite)).toMatchObject({ verdict: 'REJECTED', reason_code: 'SMALL_NOT_PRIME', failure: { path: ['factors', 1, 'certificate', 'n'] } });
    const missing = await run(factorization, { claim: { n: '1683', factors: [{ prime: '3', exponent: 2, certificate: { kind: 'small', n: '3' } }, { prime: '11', exponent: 1, certificate: { kind: 'small', n: '11' } }] } });
    expect(out(missing)).toMatchObject({ verdict: 'REJECTED', reason_code: 'PRODUCT_MISMATCH' });
  });

  it('refuses malformed claims with errors at their place, and an unauthorized checker', async () => {
    const bad = await run(primality, { claim: { n: '97', verdict: 'PRIME', certificate: { kind: 'small', n: '89' } } });
    expect(bad.execution.status).toBe('ERROR');
    expect(bad.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST' });
    const notAllowed = await run(unauthorized, { claim: { n: '97', verdict: 'PRIME', certificate: { kind: 'small', n: '97' } } });
    expect(notAllowed.diagnostics[0]).toMatchObject({ code: 'CHECKER_NOT_AUTHORIZED' });
  });
});
