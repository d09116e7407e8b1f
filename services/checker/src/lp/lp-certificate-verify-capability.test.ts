import type { KeyObject } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admitRequest,
  CapabilityRequestSchema,
  CapabilityResultSchema,
  canonicalLpCertificateClaim,
  canonicalLpProblem,
  checkerIdentity,
  createLocalFolderArtifactStore,
  createProcessPool,
  executeCapability,
  installCapability,
  LP_CERTIFICATE_CLAIM_SCHEMA_URI,
  LP_CERTIFICATE_CLAIM_SEMANTICS_URI,
  LP_PROBLEM_SCHEMA_URI,
  LP_PROBLEM_SEMANTICS_URI,
  loadOrCreateSigningKey,
  verifyRecordSignature,
  type ArtifactStore,
  type CapabilityDefinition,
  type CapabilityResult,
  type CheckerAuthorization,
  type CheckerIdentity,
  type InstalledCapability,
  type IsolatedExecutor,
  type LpProblemInput,
  type ProviderRuntime,
  type SigningKey,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { verifyFarkas, verifyLpCertificate, type LpCertificateVerifyOutput } from './lp-certificate-verify-capability.js';

const RUNTIME: ProviderRuntime = {
  provider: 'jacobian-checker-ts',
  availability: 'AVAILABLE',
  version: '0.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: 'c'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

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
  let root: string;
  let artifacts: ArtifactStore;
  let executor: IsolatedExecutor;
  let key: SigningKey;
  let trusted: Map<string, KeyObject>;
  let certificate: InstalledCapability;
  let farkas: InstalledCapability;
  let unauthorized: InstalledCapability;

  async function install(make: (a: CheckerAuthority) => CapabilityDefinition<unknown, unknown>, authorize: boolean): Promise<InstalledCapability> {
    let identity: CheckerIdentity | null = null;
    const authority: CheckerAuthority = {
      authorization: (): CheckerAuthorization => ({ authorized: authorize && identity !== null ? [{ checker_id: identity.checker_id, checker_digest: identity.checker_digest }] : [] }),
      signingKey: key,
      identity: () => identity as CheckerIdentity,
    };
    const definition = make(authority);
    if (definition.checker === undefined) throw new Error('no checker declaration');
    identity = await checkerIdentity(definition.checker);
    return installCapability(definition, RUNTIME, identity);
  }
  const run = (which: InstalledCapability, payload: Record<string, unknown>): Promise<CapabilityResult> =>
    executeCapability(which, admitRequest(CapabilityRequestSchema.parse({ capability_id: which.descriptor.id, mode: 'VERIFY', payload })), { artifacts, executor }, new AbortController().signal);
  const out = (result: CapabilityResult): LpCertificateVerifyOutput => {
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    return result.output as LpCertificateVerifyOutput;
  };
  const putProblem = async (problem: LpProblemInput): Promise<string> => (await artifacts.put({ schema_uri: LP_PROBLEM_SCHEMA_URI, semantics_uri: LP_PROBLEM_SEMANTICS_URI, payload: canonicalLpProblem(problem), parents: [], summary: {} })).uri;
  const putClaim = async (problem: LpProblemInput, claim: Parameters<typeof canonicalLpCertificateClaim>[0]): Promise<string> =>
    (await artifacts.put({ schema_uri: LP_CERTIFICATE_CLAIM_SCHEMA_URI, semantics_uri: LP_CERTIFICATE_CLAIM_SEMANTICS_URI, payload: canonicalLpCertificateClaim(claim, canonicalLpProblem(problem)), parents: [], summary: {} })).uri;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'jacobian-lp-checker-'));
    artifacts = createLocalFolderArtifactStore({ root: join(root, 'artifacts') });
    executor = createProcessPool({ size: 1 });
    key = await loadOrCreateSigningKey(join(root, 'key.pem'));
    trusted = new Map([[key.keyId, key.publicKey]]);
    certificate = await install(verifyLpCertificate, true);
    farkas = await install(verifyFarkas, true);
    unauthorized = await install(verifyFarkas, false);
  });
  afterAll(async () => {
    await executor?.close();
    await artifacts?.close();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it('verifies every advertised example, with a signed record bound to the stored claim', async () => {
    for (const capability of [certificate, farkas]) {
      for (const example of capability.descriptor.examples) {
        const result = await run(capability, example.payload);
        const output = out(result);
        expect(output.verdict, example.title).toBe('ACCEPTED');
        expect(result.assurance.level).toBe('VERIFIED');
        const record = await artifacts.get(output.verification_record_uri as string);
        expect(verifyRecordSignature(record.payload, trusted)).toMatchObject({ body: { candidate_uri: output.claim_uri } });
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
    expect(verifyRecordSignature(record.payload, trusted)).toMatchObject({ body: { claim: { value: { relaxation: true } }, scope: { statement: result.scope?.statement } } });
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
