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
  parsePropositional,
  PROPOSITIONAL_FORMULA_SEMANTICS_URI,
  PROPOSITIONAL_STRUCTURE_SCHEMA_URI,
  propositionalPayload,
  tseitin,
  verifyRecordSignature,
  type ArtifactStore,
  type CapabilityResult,
  type CheckerAuthorization,
  type CheckerIdentity,
  type InstalledCapability,
  type IsolatedExecutor,
  type ProviderRuntime,
  type SigningKey,
  type TseitinTarget,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { DRAT_REFUTATION_SEMANTICS_URI, SAT_CNF_SCHEMA_URI, SAT_CNF_SEMANTICS_URI, SAT_DRAT_SCHEMA_URI, serializeDimacs } from '../sat/sat-domain.js';
import { verifyUnsatProof } from '../sat/unsat-proof-verify.js';
import { PROPOSITIONAL_CHECKER_ID, PROPOSITIONAL_VALID_SEMANTICS_URI, PROPOSITIONAL_VERIFY_CAPABILITY_ID, verifyPropositional, type VerifyPropositionalOutput } from './propositional-verify.js';

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

describe('claim.propositional.verify', () => {
  let root: string;
  let artifacts: ArtifactStore;
  let executor: IsolatedExecutor;
  let key: SigningKey;
  let trusted: Map<string, KeyObject>;
  let capability: InstalledCapability;
  let unsatProof: InstalledCapability;

  async function install(make: (authority: CheckerAuthority) => Parameters<typeof installCapability>[0]): Promise<InstalledCapability> {
    let identity: CheckerIdentity | null = null;
    const authority: CheckerAuthority = {
      authorization: (): CheckerAuthorization => ({ authorized: identity === null ? [] : [{ checker_id: identity.checker_id, checker_digest: identity.checker_digest }] }),
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
  const outputOf = (result: CapabilityResult): VerifyPropositionalOutput => {
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    return result.output as VerifyPropositionalOutput;
  };

  /** Store what claim.propositional.decide stores for a refutation: formula ← Tseitin CNF (with its encoding) ← DRAT proof. */
  async function storeRefutation(text: string, target: TseitinTarget, drat: string, extraClauses: number[][] = []): Promise<{ structure: string; cnf: string; proof: string }> {
    const formula = parsePropositional(text);
    const structure = (await artifacts.put({ schema_uri: PROPOSITIONAL_STRUCTURE_SCHEMA_URI, semantics_uri: PROPOSITIONAL_FORMULA_SEMANTICS_URI, payload: propositionalPayload(formula), parents: [], summary: {} })).uri;
    const encoding = tseitin(formula, target);
    const clauses: number[][] = [];
    for (let i = 0; i < encoding.cnf.clauseCount; i++) clauses.push(Array.from(encoding.cnf.literals.subarray(encoding.cnf.offsets[i], encoding.cnf.offsets[i + 1])));
    const all = [...clauses, ...extraClauses];
    const dimacs = `p cnf ${encoding.cnf.variables} ${all.length}\n${all.map((c) => `${c.join(' ')} 0`).join('\n')}\n`;
    const cnf = (
      await artifacts.put({
        schema_uri: SAT_CNF_SCHEMA_URI,
        semantics_uri: SAT_CNF_SEMANTICS_URI,
        payload: { format: 'DIMACS_CNF', variables: encoding.cnf.variables, clauses: all.length, dimacs, encoding: { kind: 'TSEITIN', target, structure_uri: structure, atom_variables: { ...encoding.atomVariables }, root_literal: encoding.rootLiteral } },
        parents: [structure],
        summary: {},
      })
    ).uri;
    const proof = (await artifacts.put({ schema_uri: SAT_DRAT_SCHEMA_URI, semantics_uri: DRAT_REFUTATION_SEMANTICS_URI, payload: { format: 'DRAT_TEXT', proof: drat, lines: 1 }, parents: [cnf], summary: {} })).uri;
    return { structure, cnf, proof };
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'jacobian-propositional-checker-'));
    artifacts = createLocalFolderArtifactStore({ root: join(root, 'artifacts') });
    executor = createProcessPool({ size: 1 });
    key = await loadOrCreateSigningKey(join(root, 'key.pem'));
    trusted = new Map([[key.keyId, key.publicKey]]);
    capability = await install(verifyPropositional);
    unsatProof = await install(verifyUnsatProof);
  });
  afterAll(async () => {
    await executor?.close();
    await artifacts?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('verifies its example inline and stores the chain formula ← CNF ← proof that its record binds', async () => {
    const result = await run(capability, capability.descriptor.examples[0]?.payload ?? {});
    const out = outputOf(result);
    expect(out).toMatchObject({ verdict: 'ACCEPTED', formula_verdict: 'VALID', reason_code: null, encoding: { gates: 3, clauses_checked: 10 } });
    expect(result.assurance).toMatchObject({ level: 'VERIFIED', checker_id: PROPOSITIONAL_CHECKER_ID });
    expect(result.obligations.every((o) => o.status === 'DISCHARGED')).toBe(true);
    const body = verifyRecordSignature((await artifacts.get(out.verification_record_uri as string)).payload, trusted).body;
    expect(body).toMatchObject({ claim: { kind: 'PROPOSITIONAL_VALID' }, claim_semantics_uri: PROPOSITIONAL_VALID_SEMANTICS_URI, candidate_uri: out.proof_uri, input_uris: [out.cnf_uri, out.structure_uri] });
    expect((await artifacts.get(out.cnf_uri as string)).manifest.parents).toEqual([out.structure_uri]);
  });

  it('verifies a stored VALID refutation as the formula\'s validity, and a stored UNSATISFIABLE one', async () => {
    // Peirce's law: unit propagation on the CNF of its negation already conflicts, so the empty clause is RUP.
    const valid = await storeRefutation('((p -> q) -> p) -> p', 'NEGATION', '0\n');
    const result = await run(capability, { proof_uri: valid.proof, verdict: 'VALID' });
    expect(outputOf(result)).toMatchObject({ verdict: 'ACCEPTED', formula_verdict: 'VALID', structure_uri: valid.structure, cnf_uri: valid.cnf, proof_uri: valid.proof });
    expect(result.assurance.level).toBe('VERIFIED');
    expect(result.scope?.statement).toMatch(new RegExp(`the formula ${valid.structure} .* is valid`));
    const unsat = await storeRefutation('(p <-> !q) & (p <-> q)', 'FORMULA', '-1 0\n0\n');
    const result2 = await run(capability, { proof_uri: unsat.proof });
    expect(outputOf(result2)).toMatchObject({ verdict: 'ACCEPTED', formula_verdict: 'UNSATISFIABLE' });
  });

  it('rejects a refuted CNF that is no sound encoding of the formula, although sat.unsat_proof.verify verifies the CNF unsatisfiable', async () => {
    // p -> q is not valid. Add [3] (its gate asserted) to the CNF of its negation: unsatisfiable, proof "0".
    const bogus = await storeRefutation('p -> q', 'NEGATION', '0\n', [[3]]);
    const cnfOnly = await run(unsatProof, { proof_uri: bogus.proof });
    expect(cnfOnly.assurance.level).toBe('VERIFIED'); // "this CNF is unsatisfiable": true, and all it says
    expect(cnfOnly.scope?.statement).toMatch(/the CNF .* is unsatisfiable/);
    const result = await run(capability, { proof_uri: bogus.proof });
    expect(outputOf(result)).toMatchObject({ verdict: 'REJECTED', reason_code: 'ENCODING_UNSOUND', failure: { clause: 5 }, verification_record_uri: null });
    expect(result.assurance.level).toBe('COMPUTED');
    expect(result.diagnostics[0]).toMatchObject({ code: 'CHECKER_REJECTED', path: ['payload', 'proof_uri'] });
  });

  it('rejects a proof that does not refute the CNF, naming the step', async () => {
    // (p | q) -> p is not valid: the CNF of its negation is satisfiable, and "0" is no refutation.
    const notValid = await storeRefutation('(p | q) -> p', 'NEGATION', '0\n');
    const out = outputOf(await run(capability, { proof_uri: notValid.proof }));
    expect(out).toMatchObject({ verdict: 'REJECTED', reason_code: 'PROOF_REJECTED', proof_reason: 'NOT_RUP' });
  });

  it('refuses evidence that says nothing about a formula, a verdict the CNF does not encode, and incomplete inline evidence', async () => {
    const valid = await storeRefutation('((p -> q) -> p) -> p', 'NEGATION', '0\n');
    const wrongVerdict = await run(capability, { proof_uri: valid.proof, verdict: 'UNSATISFIABLE' });
    expect(wrongVerdict.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'verdict'] });
    const plainCnf = (await artifacts.put({ schema_uri: SAT_CNF_SCHEMA_URI, semantics_uri: SAT_CNF_SEMANTICS_URI, payload: { format: 'DIMACS_CNF', variables: 1, clauses: 2, dimacs: 'p cnf 1 2\n1 0\n-1 0\n' }, parents: [], summary: {} })).uri;
    const plainProof = (await artifacts.put({ schema_uri: SAT_DRAT_SCHEMA_URI, semantics_uri: DRAT_REFUTATION_SEMANTICS_URI, payload: { format: 'DRAT_TEXT', proof: '0\n', lines: 1 }, parents: [plainCnf], summary: {} })).uri;
    const plain = await run(capability, { proof_uri: plainProof });
    expect(plain.diagnostics[0]).toMatchObject({ code: 'CHECKER_UNSUPPORTED', path: ['payload', 'proof_uri'] });
    const partial = await run(capability, { formula: 'p | !p', verdict: 'VALID', drat: '0\n' });
    expect(partial.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST' });
    const badFormula = await run(capability, { formula: 'p | | q', verdict: 'VALID', dimacs: serializeDimacs({ variables: 1, clauseCount: 0, literals: new Int32Array(), offsets: new Int32Array([0]) }), atom_variables: { p: 1 }, drat: '0\n' });
    expect(badFormula.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'formula'] });
    expect(PROPOSITIONAL_VERIFY_CAPABILITY_ID).toBe(capability.descriptor.id);
  });
});
