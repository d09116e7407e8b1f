import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canonicalLpCertificateClaim,
  canonicalLpProblem,
  LP_CERTIFICATE_CLAIM_SCHEMA_URI,
  LP_CERTIFICATE_CLAIM_SEMANTICS_URI,
  LP_PROBLEM_SCHEMA_URI,
  LP_PROBLEM_SEMANTICS_URI,
  verifyRecordSignature,
  type ArtifactStore,
  type CapabilityResult,
  type InstalledCapability,
  type LpProblemInput,
} from '@jacobian/shared';
import { completedOutput, createCheckerHarness, type CheckerHarness } from '../checker-test-support.js';
import { verifyFarkas, verifyLpCertificate, type LpCertificateVerifyOutput } from './lp-certificate-verify-capability.js';

/** min x + 2y, demand: x + y ≥ 2, cap: x ≤ 3/2; optimum 5/2 at (3/2, 1/2), duals (2, −1). */
const small: LpProblemInput = {
  sense: 'minimize',
  variables: [{ name: 'x' }, { name: 'y' }],
  objective: { x: 1, y: 2 },
  constraints: [
    { name: 'demand', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 2 },
    { name: 'cap', coefficients: { x: 1 }, relation: '<=', rhs: '3/2' },
  ],
};
const optimal = { outcome: 'OPTIMAL', objective_value: '5/2', primal: { x: '3/2', y: '1/2' }, dual: { demand: 2, cap: -1 }, reduced_costs: {} } as const;

describe('lp.certificate.verify and lp.farkas.verify as capabilities', () => {
  let h: CheckerHarness;
  let artifacts: ArtifactStore;
  let certificate: InstalledCapability;
  let farkas: InstalledCapability;
  let unauthorized: InstalledCapability;

  const run = (which: InstalledCapability, payload: Record<string, unknown>): Promise<CapabilityResult> => h.run(which, payload);
  const out = (result: CapabilityResult): LpCertificateVerifyOutput => completedOutput<LpCertificateVerifyOutput>(result);
  const putProblem = async (problem: LpProblemInput): Promise<string> => (await artifacts.put({ schema_uri: LP_PROBLEM_SCHEMA_URI, semantics_uri: LP_PROBLEM_SEMANTICS_URI, payload: canonicalLpProblem(problem), parents: [], summary: {} })).uri;
  const putClaim = async (problem: LpProblemInput, claim: Parameters<typeof canonicalLpCertificateClaim>[0]): Promise<string> =>
    (await artifacts.put({ schema_uri: LP_CERTIFICATE_CLAIM_SCHEMA_URI, semantics_uri: LP_CERTIFICATE_CLAIM_SEMANTICS_URI, payload: canonicalLpCertificateClaim(claim, canonicalLpProblem(problem)), parents: [], summary: {} })).uri;

  beforeAll(async () => {
    h = await createCheckerHarness('jacobian-lp-checker-');
    artifacts = h.artifacts;
    certificate = await h.install(verifyLpCertificate);
    farkas = await h.install(verifyFarkas);
    unauthorized = await h.install(verifyFarkas, false);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('verifies every advertised example, with a signed record bound to the stored claim', async () => {
    for (const capability of [certificate, farkas]) {
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

  it('states exactly the claim in the scope: the problem, the outcome and the value', async () => {
    const result = await run(certificate, { claim: { problem: small, ...optimal } });
    expect(out(result)).toMatchObject({ verdict: 'ACCEPTED', claim_kind: 'LP_OPTIMAL' });
    expect(result.scope?.statement).toBe(
      'the given 2-variable, 2-row minimization has optimal value 5/2, attained at the given x; certificate conditions 1–4 hold (x feasible, d = c − Aᵀy, the signs of y and d, c·x + c₀ = the dual objective)',
    );
    const stored = await artifacts.get(out(result).claim_uri as string);
    expect(stored.manifest.schema_uri).toBe(LP_CERTIFICATE_CLAIM_SCHEMA_URI);
  });

  it('with integer variables, says the certificate is about the LP relaxation only', async () => {
    const mixed: LpProblemInput = { ...small, variables: [{ name: 'x', integer: true }, { name: 'y', integer: true }] };
    const result = await run(certificate, { claim: { problem: mixed, ...optimal } });
    expect(out(result)).toMatchObject({ verdict: 'ACCEPTED' });
    expect(result.scope?.statement).toMatch(/^the LP relaxation \(integrality dropped\) of the given 2-variable, 2-row minimization with 2 integer variables has optimal value 5\/2.*; the certificate is about the LP relaxation only, not about the integer program$/);
    const record = await artifacts.get(out(result).verification_record_uri as string);
    expect(verifyRecordSignature(record.payload, h.trusted)).toMatchObject({ body: { claim: { value: { relaxation: true } }, scope: { statement: result.scope?.statement } } });
  });

  it('rejects a false certificate naming the condition, the place and the amount, with no record', async () => {
    const result = await run(certificate, { claim: { problem: small, ...optimal, primal: { x: '8/5', y: '1/2' } } });
    expect(out(result)).toMatchObject({
      verdict: 'REJECTED',
      reason_code: 'PRIMAL_ROW',
      message: 'condition 1 (x feasible): row cap (≤): a·x = 8/5 > rhs 3/2, by 1/10',
      failure: { path: ['primal'], witness: 'row cap' },
      verification_record_uri: null,
      claim_uri: null,
    });
    expect(result.assurance.level).toBe('COMPUTED');
    expect(result.diagnostics[0]).toMatchObject({ code: 'CHECKER_REJECTED', path: ['payload', 'claim', 'primal'] });
    const wrongSign = await run(farkas, { problem: { ...small, objective: {} }, farkas: { demand: -1, cap: 0 } });
    expect(out(wrongSign)).toMatchObject({ verdict: 'REJECTED', reason_code: 'FARKAS_SIGN', failure: { path: ['farkas', 'demand'] } });
    expect(wrongSign.diagnostics[0]?.path).toEqual(['payload', 'farkas', 'demand']);
    // A feasible system: the zero certificate and any other fail.
    expect(out(await run(farkas, { problem: small, farkas: {} }))).toMatchObject({ verdict: 'REJECTED', reason_code: 'FARKAS_NOT_STRICT' });
  });

  it('verifies a stored claim by result_uri without storing it again, and rejects a stored false one naming result_uri', async () => {
    const uri = await putClaim(small, optimal);
    const result = await run(certificate, { result_uri: uri });
    expect(out(result)).toMatchObject({ verdict: 'ACCEPTED', claim_uri: uri });
    expect(result.scope?.input_uris).toEqual([uri]);
    expect(result.scope?.statement).toContain(`of the stored claim ${uri}`);
    const wrong = await putClaim(small, { ...optimal, dual: { demand: 1 }, reduced_costs: { y: 1 } });
    const rejected = await run(certificate, { result_uri: wrong });
    expect(out(rejected)).toMatchObject({ verdict: 'REJECTED', reason_code: 'DUAL_OBJECTIVE_MISMATCH' });
    expect(rejected.diagnostics[0]?.path).toEqual(['payload', 'result_uri']);
  });

  it('reads the problem by problem_uri for both checkers, and refuses an artifact that is not an LP problem', async () => {
    const problemUri = await putProblem({ sense: 'minimize', variables: [{ name: 'x', upper: 1 }, { name: 'y', upper: 1 }], objective: {}, constraints: [{ name: 'sum', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 3 }] });
    const viaCertificate = await run(certificate, { claim: { problem_uri: problemUri, outcome: 'INFEASIBLE', farkas: { sum: 1 } } });
    expect(out(viaCertificate)).toMatchObject({ verdict: 'ACCEPTED', claim_kind: 'LP_INFEASIBLE' });
    expect(viaCertificate.scope?.input_uris).toEqual([problemUri]);
    const claimArtifact = await artifacts.getManifest(out(viaCertificate).claim_uri as string);
    expect(claimArtifact.manifest.parents).toEqual([problemUri]);
    const viaFarkas = await run(farkas, { problem_uri: problemUri, farkas: { sum: '1/3' } });
    expect(out(viaFarkas)).toMatchObject({ verdict: 'ACCEPTED' });
    expect(viaFarkas.scope?.statement).toBe(`the system of 1 linear row in 2 variables with their bounds (objective ignored) of the stored problem ${problemUri} has no rational solution, as the given Farkas multipliers y show (their signs, and max of (Aᵀy)·x over the bounds < b·y)`);

    // A stored claim is not a problem, and a problem is not a claim.
    const claimUri = await putClaim(small, optimal);
    expect((await run(certificate, { claim: { problem_uri: claimUri, ...optimal } })).diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'claim', 'problem_uri'] });
    expect((await run(farkas, { problem_uri: claimUri, farkas: {} })).diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'problem_uri'] });
    expect((await run(certificate, { result_uri: problemUri })).diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'result_uri'] });
  });

  it('answers names not in the problem and malformed claims with errors at their place, not verdicts', async () => {
    const unknownRow = await run(certificate, { claim: { problem: small, ...optimal, dual: { demand: 2, cap: -1, supply: 1 } } });
    expect(unknownRow.execution.status).toBe('ERROR');
    expect(unknownRow.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'dual', 'supply'], message: expect.stringContaining('unknown-name') as unknown });
    const unknownVariable = await run(certificate, { claim: { problem: small, ...optimal, primal: { x: '3/2', y: '1/2', z: 0 } } });
    expect(unknownVariable.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'primal', 'z'] });
    expect((await run(farkas, { problem: small, farkas: { x: 1 } })).diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'farkas', 'x'] });
    expect((await run(certificate, { claim: { problem: small, outcome: 'OPTIMAL', primal: {} } })).diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'objective_value'] });
    expect((await run(certificate, { claim: { problem: small, ...optimal, objective_value: '5/0' } })).diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'objective_value'] });
    expect((await run(farkas, { farkas: {} })).diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload'] });
    // zod drops a record key "__proto__" (the request envelope refuses one), so a variable of that name could never carry
    // a coefficient faithfully (a problem built by a parser would lose them on reading): the name itself is refused.
    const proto = await run(certificate, { claim: { problem: { ...small, variables: [...small.variables, { name: '__proto__' }] }, ...optimal } });
    expect(proto.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'problem', 'variables', 2, 'name'], message: expect.stringContaining('name-syntax') as unknown });
    expect((await run(certificate, {})).diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload'] });
  });

  it('an unauthorized checker cannot produce VERIFIED', async () => {
    const result = await run(unauthorized, { problem: { ...small, constraints: [{ name: 'neg', coefficients: { x: 1 }, relation: '<=', rhs: -1 }] }, farkas: { neg: -1 } });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]?.code).toBe('CHECKER_NOT_AUTHORIZED');
  });
});
