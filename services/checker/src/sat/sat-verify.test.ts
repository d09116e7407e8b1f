import type { KeyObject } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admitRequest,
  CapabilityRequestSchema,
  CapabilityResultSchema,
  checkerIdentity,
  createLocalFolderArtifactStore,
  createProcessPool,
  executeCapability,
  installCapability,
  loadOrCreateSigningKey,
  VERIFICATION_RECORD_SCHEMA_URI,
  verifyRecordSignature,
  type ArtifactStore,
  type CapabilityDefinition,
  type CapabilityResult,
  type CheckerAuthorization,
  type CheckerIdentity,
  type InstalledCapability,
  type IsolatedExecutor,
  type ProviderRuntime,
  type SigningKey,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { solveWithCadical } from './cadical.testing.js';
import { MODEL_CHECKER_ID, verifyModel, type VerifyModelOutput } from './model-verify.js';
import {
  DRAT_REFUTATION_SEMANTICS_URI,
  pigeonhole,
  SAT_CNF_SCHEMA_URI,
  SAT_CNF_SEMANTICS_URI,
  SAT_DRAT_SCHEMA_URI,
  SAT_LRAT_SCHEMA_URI,
  SAT_MODEL_SCHEMA_URI,
  SAT_MODEL_SEMANTICS_URI,
  serializeDimacs,
} from './sat-domain.js';
import { UNSAT_PROOF_CHECKER_ID, verifyUnsatProof, type VerifyUnsatProofOutput } from './unsat-proof-verify.js';

const RUNTIME: ProviderRuntime = {
  provider: 'jacobian-checker-ts',
  availability: 'AVAILABLE',
  version: '0.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: 'b'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

const ALL_FOUR = 'p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n';
const THREE = 'p cnf 3 3\n1 -2 0\n2 3 0\n-1 -3 0\n';

describe('SAT checker capabilities', () => {
  let root: string;
  let artifacts: ArtifactStore;
  let executor: IsolatedExecutor;
  let key: SigningKey;
  let trusted: Map<string, KeyObject>;
  let modelCapability: InstalledCapability;
  let proofCapability: InstalledCapability;
  let unauthorizedProof: InstalledCapability;

  async function install<I, O>(make: (authority: CheckerAuthority) => CapabilityDefinition<I, O>, authorize: boolean): Promise<InstalledCapability> {
    let identity: CheckerIdentity | null = null;
    const authority: CheckerAuthority = {
      authorization: (): CheckerAuthorization => ({ authorized: authorize && identity !== null ? [{ checker_id: identity.checker_id, checker_digest: identity.checker_digest }] : [] }),
      signingKey: key,
      identity: () => identity as CheckerIdentity,
    };
    const definition = make(authority);
    identity = await checkerIdentity(definition.checker ?? (() => { throw new Error('no checker declaration'); })());
    return installCapability(definition, RUNTIME, identity);
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'jacobian-sat-checker-'));
    artifacts = createLocalFolderArtifactStore({ root: join(root, 'artifacts') });
    executor = createProcessPool({ size: 1 });
    key = await loadOrCreateSigningKey(join(root, 'key.pem'));
    trusted = new Map([[key.keyId, key.publicKey]]);
    modelCapability = await install(verifyModel, true);
    proofCapability = await install(verifyUnsatProof, true);
    unauthorizedProof = await install(verifyUnsatProof, false);
  });
  afterAll(async () => {
    await executor.close();
    await artifacts.close();
    await rm(root, { recursive: true, force: true });
  });

  async function run(capability: InstalledCapability, payload: Record<string, unknown>): Promise<CapabilityResult> {
    const request = admitRequest(CapabilityRequestSchema.parse({ capability_id: capability.descriptor.id, mode: 'VERIFY', payload }));
    const result = await executeCapability(capability, request, { artifacts, executor }, new AbortController().signal);
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    return result;
  }

  async function storeCnf(dimacs: string, variables: number, clauses: number): Promise<string> {
    return (await artifacts.put({ schema_uri: SAT_CNF_SCHEMA_URI, semantics_uri: SAT_CNF_SEMANTICS_URI, payload: { format: 'DIMACS_CNF', variables, clauses, dimacs }, parents: [], summary: {} })).uri;
  }

  async function expectSignedRecord(result: CapabilityResult, checkerId: string, candidateUri: string, cnfUri: string): Promise<void> {
    expect(result.assurance).toMatchObject({ level: 'VERIFIED', checker_id: checkerId });
    const recordUri = result.assurance.verification_record_uri as string;
    const stored = await artifacts.get(recordUri);
    expect(stored.manifest).toMatchObject({ schema_uri: VERIFICATION_RECORD_SCHEMA_URI, parents: [candidateUri, cnfUri] });
    const record = verifyRecordSignature(stored.payload, trusted);
    expect(record.body).toMatchObject({ verdict: 'ACCEPTED', checker_id: checkerId, candidate_uri: candidateUri, input_uris: [cnfUri], request_digest: result.execution.request_digest });
  }

  describe('sat.model.verify', () => {
    it('accepts a model given inline, stores the CNF and the model, and signs a record', async () => {
      const result = await run(modelCapability, { dimacs: THREE, model: [1, 2, -3] });
      expect(result.diagnostics).toEqual([]);
      const output = result.output as VerifyModelOutput;
      expect(output).toMatchObject({ verdict: 'ACCEPTED', reason_code: null, variables: 3, clauses: 3 });
      const model = await artifacts.get(output.model_uri as string);
      expect(model.manifest).toMatchObject({ schema_uri: SAT_MODEL_SCHEMA_URI, semantics_uri: SAT_MODEL_SEMANTICS_URI, parents: [output.cnf_uri] });
      await expectSignedRecord(result, MODEL_CHECKER_ID, output.model_uri as string, output.cnf_uri as string);
    });

    it('accepts a stored model through its parent CNF, and a partial assignment that already satisfies every clause', async () => {
      const cnfUri = await storeCnf(THREE, 3, 3);
      const modelUri = (await artifacts.put({ schema_uri: SAT_MODEL_SCHEMA_URI, semantics_uri: SAT_MODEL_SEMANTICS_URI, payload: { variables: 3, assignment: [-1, -2, 3] }, parents: [cnfUri], summary: {} })).uri;
      const result = await run(modelCapability, { model_uri: modelUri });
      expect(result.output).toMatchObject({ verdict: 'ACCEPTED', model_uri: modelUri, cnf_uri: cnfUri });
      await expectSignedRecord(result, MODEL_CHECKER_ID, modelUri, cnfUri);
      expect((await run(modelCapability, { cnf_uri: cnfUri, model: [-1, -2, 3] })).output).toMatchObject({ verdict: 'ACCEPTED' });
      expect((await run(modelCapability, { dimacs: 'p cnf 3 2\n1 2 0\n-1 3 0\n', model: [2, 3] })).output).toMatchObject({ verdict: 'ACCEPTED' });
    });

    it.each([
      [[1, 2, 3], 'CLAUSE_NOT_SATISFIED', 'clause 3 (-1 -3 0)'],
      [[1, -1, 2], 'ASSIGNMENT_INVALID', 'variable 1 is given twice'],
      [[1, 2, 4], 'ASSIGNMENT_INVALID', 'literal 4 (entry 2)'],
    ])('rejects %j as %s, naming where', async (model, reason, message) => {
      const result = await run(modelCapability, { dimacs: THREE, model });
      expect(result.assurance.level).toBe('COMPUTED');
      expect(result.output).toMatchObject({ verdict: 'REJECTED', reason_code: reason, verification_record_uri: null });
      expect((result.output as VerifyModelOutput).message).toContain(message);
      expect(result.diagnostics[0]).toMatchObject({ code: 'CHECKER_REJECTED', severity: 'WARNING' });
    });

    it('is an error, not a verdict, for a malformed CNF (naming the line) or a wrong artifact', async () => {
      const bad = await run(modelCapability, { dimacs: 'p cnf 2 1\n1 5 0\n', model: [1] });
      expect(bad.execution.status).toBe('ERROR');
      expect(bad.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'dimacs'] });
      expect(bad.diagnostics[0]?.message).toContain('line 2');
      const cnfUri = await storeCnf(THREE, 3, 3);
      const wrong = await run(modelCapability, { model_uri: cnfUri });
      expect(wrong.diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'model_uri'] });
    });
  });

  describe('sat.unsat_proof.verify', () => {
    it('accepts an inline DRAT refutation, stores CNF, proof and trimmed LRAT, and signs a record', async () => {
      const result = await run(proofCapability, { dimacs: ALL_FOUR, drat: '1 0\n0\n', emit_lrat: true });
      expect(result.diagnostics).toEqual([]);
      const output = result.output as VerifyUnsatProofOutput;
      expect(output).toMatchObject({ verdict: 'ACCEPTED', format: 'DRAT_TEXT', reason_code: null });
      const proof = await artifacts.get(output.proof_uri as string);
      expect(proof.manifest).toMatchObject({ schema_uri: SAT_DRAT_SCHEMA_URI, semantics_uri: DRAT_REFUTATION_SEMANTICS_URI, parents: [output.cnf_uri] });
      await expectSignedRecord(result, UNSAT_PROOF_CHECKER_ID, output.proof_uri as string, output.cnf_uri as string);
      // The trimmed LRAT is itself a proof the checker accepts.
      const lrat = await artifacts.get(output.lrat_uri as string);
      expect(lrat.manifest).toMatchObject({ schema_uri: SAT_LRAT_SCHEMA_URI, parents: [output.cnf_uri] });
      const again = await run(proofCapability, { proof_uri: output.lrat_uri });
      expect(again.output).toMatchObject({ verdict: 'ACCEPTED', format: 'LRAT_TEXT' });
    });

    it('accepts CaDiCaL’s stored DRAT proof of PHP(7,6) through its parent CNF', async () => {
      const cnf = pigeonhole(6);
      const answer = solveWithCadical(cnf);
      const cnfUri = await storeCnf(serializeDimacs(cnf), cnf.variables, cnf.clauseCount);
      const text = answer.proof?.toString('latin1') ?? '';
      const proofUri = (await artifacts.put({ schema_uri: SAT_DRAT_SCHEMA_URI, semantics_uri: DRAT_REFUTATION_SEMANTICS_URI, payload: { format: 'DRAT_TEXT', proof: text, lines: text.split('\n').length - 1 }, parents: [cnfUri], summary: {} })).uri;
      const result = await run(proofCapability, { proof_uri: proofUri });
      expect(result.output).toMatchObject({ verdict: 'ACCEPTED', proof_uri: proofUri, cnf_uri: cnfUri });
      await expectSignedRecord(result, UNSAT_PROOF_CHECKER_ID, proofUri, cnfUri);
    });

    it.each([
      [{ drat: '1 0\n' }, 'NO_EMPTY_CLAUSE', null],
      [{ drat: '3 0\n0\n', dimacs: 'p cnf 5 6\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n-3 1 0\n-3 5 0\n' }, 'RAT_FAILED', 1],
      [{ drat: '1 x 0\n' }, 'PROOF_MALFORMED', null],
      [{ lrat: '5 1 0 2 3 0\n6 0 5 2 4 0\n' }, 'HINT_NOT_UNIT', 1],
    ])('rejects %j as %s, naming the step', async (proof, reason, step) => {
      const result = await run(proofCapability, { dimacs: ALL_FOUR, ...proof });
      expect(result.assurance.level).toBe('COMPUTED');
      expect(result.output).toMatchObject({ verdict: 'REJECTED', reason_code: reason, verification_record_uri: null });
      expect((result.output as VerifyUnsatProofOutput).failure?.step ?? null).toBe(step);
    });

    it('rejects a satisfiable formula’s “proof” and wrote nothing for it', async () => {
      const result = await run(proofCapability, { dimacs: THREE, drat: '0\n' });
      expect(result.output).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_RUP', failure: { step: 1, line: 1, lemma: [] } });
      expect(result.artifact_uris).toEqual([]);
    });

    it('does not produce VERIFIED when the operator has not authorized the checker', async () => {
      const result = await run(unauthorizedProof, { dimacs: ALL_FOUR, drat: '1 0\n0\n' });
      expect(result.execution.status).toBe('ERROR');
      expect(result.diagnostics[0]).toMatchObject({ code: 'CHECKER_NOT_AUTHORIZED' });
    });

    it('refuses requests that give the proof or the CNF ambiguously', () => {
      for (const payload of [{ dimacs: ALL_FOUR }, { dimacs: ALL_FOUR, drat: '0\n', lrat: '5 0 0\n' }, { drat: '0\n' }]) {
        expect(() => CapabilityRequestSchema.parse({ capability_id: 'sat.unsat_proof.verify', mode: 'VERIFY', payload })).not.toThrow();
        expect(proofCapability.definition.input.safeParse(payload).success).toBe(false);
      }
    });
  });
});
