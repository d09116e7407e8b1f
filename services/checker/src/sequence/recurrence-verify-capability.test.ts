import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalRecurrenceClaim, RecurrenceClaimInputSchema, SEQUENCE_CLAIM_SCHEMA_URI, SEQUENCE_CLAIM_SEMANTICS_URI, verifyRecordSignature, type CapabilityResult, type InstalledCapability } from '@jacobian/shared';
import { completedOutput, createCheckerHarness, type CheckerHarness } from '../checker-test-support.js';
import { checkRecurrenceClaim } from './recurrence-verify.js';
import { verifyRecurrence, type RecurrenceVerifyOutput } from './recurrence-verify-capability.js';

const fib = ['0', '1', '1', '2', '3', '5', '8', '13', '21', '34', '55', '89'];
const catalan = ['1', '1', '2', '5', '14', '42', '132', '429', '1430', '4862'];
const catalanRec = { kind: 'p-recursive', order: 1, degree: 1, coefficients: [['1', '1'], ['2', '-4']], valid_from: 1 } as const;
const fibRec = { kind: 'c-finite', coefficients: ['1', '1'], valid_from: 2 } as const;
const check = (claim: unknown): ReturnType<typeof checkRecurrenceClaim> => checkRecurrenceClaim(canonicalRecurrenceClaim(RecurrenceClaimInputSchema.parse(claim), []).claim, () => undefined);

describe('the recurrence check', () => {
  it('accepts Fibonacci and Catalan, rejects one wrong term naming n and the residual', () => {
    expect(check({ sequence: { terms: fib }, recurrence: fibRec })).toMatchObject({ accepted: true });
    expect(check({ sequence: { terms: catalan }, recurrence: catalanRec })).toMatchObject({ accepted: true });
    const wrong = [...fib];
    wrong[7] = '14';
    expect(check({ sequence: { terms: wrong }, recurrence: fibRec })).toMatchObject({ accepted: false, reason_code: 'RELATION_FAILS', path: ['sequence', 'terms', 7], witness: '1' });
    // The range is what is checked: the same bad term outside from..to is not looked at.
    expect(check({ sequence: { terms: wrong }, recurrence: fibRec, from: 2, to: 6 })).toMatchObject({ accepted: true });
    const wrongCatalan = [...catalan];
    wrongCatalan[9] = '4861';
    expect(check({ sequence: { terms: wrongCatalan }, recurrence: catalanRec })).toMatchObject({ accepted: false, path: ['sequence', 'terms', 9] });
  });

  it('rational terms and coefficients, and an offset', () => {
    expect(check({ sequence: { terms: ['1/3', '1/6', '1/12', '1/24'], offset: 5 }, recurrence: { kind: 'c-finite', coefficients: ['1/2'], valid_from: 6 } })).toMatchObject({ accepted: true });
    expect(check({ sequence: { terms: ['1/3', '1/6', '1/12', '1/25'], offset: 5 }, recurrence: { kind: 'c-finite', coefficients: ['1/2'], valid_from: 6 } })).toMatchObject({ accepted: false, path: ['sequence', 'terms', 3] });
  });

  it('property: changing any one checked term of a C-finite sequence is rejected', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 11 }), fc.integer({ min: 1, max: 1000 }), (i, delta) => {
        const terms = [...fib];
        terms[i] = String(BigInt(terms[i] as string) + BigInt(delta));
        expect(check({ sequence: { terms }, recurrence: fibRec })).toMatchObject({ accepted: false });
      }),
      { numRuns: 50, seed: 36 },
    );
  });

  it('refuses claims whose range needs missing terms, and the zero relation', () => {
    expect(() => check({ sequence: { terms: fib }, recurrence: fibRec, to: 12 })).toThrow(/past the last supplied index/);
    expect(() => check({ sequence: { terms: fib }, recurrence: { ...fibRec, valid_from: 1 } })).toThrow(/below offset \+ order/);
    expect(() => check({ sequence: { terms: fib }, recurrence: { kind: 'p-recursive', order: 1, degree: 0, coefficients: [['0'], ['0']], valid_from: 1 } })).toThrow(/says nothing/);
  });
});

describe('sequence.recurrence.verify as a capability', () => {
  let h: CheckerHarness;
  let verify: InstalledCapability;
  let unauthorized: InstalledCapability;
  const out = (result: CapabilityResult): RecurrenceVerifyOutput => completedOutput<RecurrenceVerifyOutput>(result);

  beforeAll(async () => {
    h = await createCheckerHarness('jacobian-sequence-checker-');
    verify = await h.install(verifyRecurrence);
    unauthorized = await h.install(verifyRecurrence, false);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('verifies the example and a stored claim, with signed records; rejects a failing term with no record', async () => {
    for (const example of verify.descriptor.examples) {
      const result = await h.run(verify, example.payload);
      expect(out(result).verdict).toBe('ACCEPTED');
      expect(result.assurance.level).toBe('VERIFIED');
      const record = await h.artifacts.get(out(result).verification_record_uri as string);
      expect(verifyRecordSignature(record.payload, h.trusted)).toMatchObject({ body: { candidate_uri: out(result).claim_uri } });
    }
    const { claim } = canonicalRecurrenceClaim(RecurrenceClaimInputSchema.parse({ sequence: { terms: catalan }, recurrence: catalanRec }), []);
    const stored = await h.artifacts.put({ schema_uri: SEQUENCE_CLAIM_SCHEMA_URI, semantics_uri: SEQUENCE_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: {} });
    const byUri = await h.run(verify, { result_uri: stored.uri });
    expect(out(byUri)).toMatchObject({ verdict: 'ACCEPTED', claim_uri: stored.uri, claim_kind: 'SEQUENCE_P_RECURSIVE_RECURRENCE' });
    expect(byUri.scope?.statement).toContain('n = 1..9');
    const wrong = [...fib];
    wrong[11] = '90';
    const rejected = await h.run(verify, { claim: { sequence: { terms: wrong }, recurrence: fibRec } });
    expect(out(rejected)).toMatchObject({ verdict: 'REJECTED', reason_code: 'RELATION_FAILS', verification_record_uri: null, failure: { path: ['sequence', 'terms', 11] } });
    expect(rejected.assurance.level).toBe('COMPUTED');
  });

  it('an unauthorized checker produces no VERIFIED; a bad range is INVALID_REQUEST naming the field', async () => {
    const denied = await h.run(unauthorized, { claim: { sequence: { terms: fib }, recurrence: fibRec } });
    expect(denied.execution.status).toBe('ERROR');
    expect(denied.diagnostics[0]?.code).toBe('CHECKER_NOT_AUTHORIZED');
    const bad = await h.run(verify, { claim: { sequence: { terms: fib }, recurrence: fibRec, to: 40 } });
    expect(bad.execution.status).toBe('ERROR');
    expect(bad.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'to'] });
  });
});
