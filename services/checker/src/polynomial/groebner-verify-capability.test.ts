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
  cyclicSystem,
  executeCapability,
  GROEBNER_BASIS_SCHEMA_URI,
  GROEBNER_BASIS_SEMANTICS_URI,
  installCapability,
  katsuraSystem,
  loadOrCreateSigningKey,
  parsePolynomials,
  polynomialToJson,
  resolveRing,
  ringSpecOf,
  verifyRecordSignature,
  type ArtifactStore,
  type CapabilityResult,
  type CheckerAuthorization,
  type CheckerIdentity,
  canonicalGroebnerClaim,
  GroebnerBasisClaimSchema,
  type GroebnerBasisClaim,
  type GroebnerBasisClaimInput,
  type InstalledCapability,
  type IsolatedExecutor,
  type Polynomial,
  type PolynomialRing,
  type ProviderRuntime,
  type SigningKey,
} from '@jacobian/shared';
import { findSingular, singularReducedBases } from '@jacobian/shared/testing';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { GROEBNER_CHECKER_ID, GROEBNER_CONTAINING_SEMANTICS_URI, GROEBNER_VERIFY_CAPABILITY_ID, verifyGroebnerBasis, type VerifyGroebnerBasisOutput } from './groebner-verify-capability.js';

const singular = findSingular();
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

function claimOf(R: PolynomialRing<unknown>, generators: readonly Polynomial<unknown>[], basis: readonly Polynomial<unknown>[], cofactors?: Polynomial<unknown>[][]): GroebnerBasisClaim {
  return {
    ring: ringSpecOf(R),
    generators: generators.map((g) => polynomialToJson(R, g)),
    basis: basis.map((b) => polynomialToJson(R, b)),
    ...(cofactors === undefined ? {} : { cofactors: cofactors.map((row) => row.map((c) => polynomialToJson(R, c))) }),
  };
}

describe('polynomial.groebner_basis.verify', () => {
  let root: string;
  let artifacts: ArtifactStore;
  let executor: IsolatedExecutor;
  let key: SigningKey;
  let trusted: Map<string, KeyObject>;
  let capability: InstalledCapability;
  let unauthorized: InstalledCapability;

  async function install(authorize: boolean): Promise<InstalledCapability> {
    let identity: CheckerIdentity | null = null;
    const authority: CheckerAuthority = {
      authorization: (): CheckerAuthorization => ({ authorized: authorize && identity !== null ? [{ checker_id: identity.checker_id, checker_digest: identity.checker_digest }] : [] }),
      signingKey: key,
      identity: () => identity as CheckerIdentity,
    };
    const definition = verifyGroebnerBasis(authority);
    identity = await checkerIdentity(definition.checker ?? (() => { throw new Error('no checker declaration'); })());
    return installCapability(definition, RUNTIME, identity);
  }

  const run = (payload: Record<string, unknown>, budget?: { wall_time_ms: number }, which?: InstalledCapability): Promise<CapabilityResult> =>
    executeCapability(
      which ?? capability,
      admitRequest(CapabilityRequestSchema.parse({ capability_id: GROEBNER_VERIFY_CAPABILITY_ID, mode: 'VERIFY', payload, ...(budget === undefined ? {} : { budget }) })),
      { artifacts, executor },
      new AbortController().signal,
    );
  const store = async (claim: GroebnerBasisClaim): Promise<string> =>
    (await artifacts.put({ schema_uri: GROEBNER_BASIS_SCHEMA_URI, semantics_uri: GROEBNER_BASIS_SEMANTICS_URI, payload: claim, parents: [], summary: {} })).uri;
  const outputOf = (result: CapabilityResult): VerifyGroebnerBasisOutput => {
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    return result.output as VerifyGroebnerBasisOutput;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'jacobian-groebner-checker-'));
    artifacts = createLocalFolderArtifactStore({ root: join(root, 'artifacts') });
    executor = createProcessPool({ size: 1 });
    key = await loadOrCreateSigningKey(join(root, 'key.pem'));
    trusted = new Map([[key.keyId, key.publicKey]]);
    capability = await install(true);
    unauthorized = await install(false);
  });
  afterAll(async () => {
    await executor?.close();
    await artifacts?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('verifies its examples: with cofactors the whole claim; without them the weaker claim, asked by name, in its own name', async () => {
    const [withCofactors, without] = capability.descriptor.examples;
    const full = await run(withCofactors?.payload ?? {});
    const fullOut = outputOf(full);
    expect(fullOut).toMatchObject({ verdict: 'ACCEPTED', claim_kind: 'REDUCED_GROEBNER_BASIS', ideal_inclusion: 'EQUAL', generators: 2, basis_size: 2, reason_code: null });
    expect(full.assurance).toMatchObject({ level: 'VERIFIED', checker_id: GROEBNER_CHECKER_ID, verification_record_uri: fullOut.verification_record_uri });
    expect(full.obligations.map((o) => [o.id, o.status])).toEqual([
      ['basis-reduced-groebner', 'DISCHARGED'],
      ['generators-in-ideal-of-basis', 'DISCHARGED'],
      ['basis-in-ideal', 'DISCHARGED'],
    ]);
    expect(full.scope?.statement).toContain('is the reduced Groebner basis of the ideal generated by');
    const record = await artifacts.get(fullOut.verification_record_uri as string);
    const body = verifyRecordSignature(record.payload, trusted).body;
    expect(body).toMatchObject({ verdict: 'ACCEPTED', checker_id: GROEBNER_CHECKER_ID, request_digest: full.execution.request_digest });
    expect(body).toMatchObject({ candidate_uri: fullOut.result_uri, claim_semantics_uri: GROEBNER_BASIS_SEMANTICS_URI, claim: { kind: 'REDUCED_GROEBNER_BASIS' } });
    // The inline claim (given as text) was stored as the canonical JSON candidate the record binds.
    const candidate = await artifacts.get(fullOut.result_uri as string);
    expect(candidate.manifest.schema_uri).toBe(GROEBNER_BASIS_SCHEMA_URI);
    expect(GroebnerBasisClaimSchema.parse(candidate.payload).basis[0]).toEqual({ terms: [{ coefficient: '1', exponents: [0, 3] }, { coefficient: '-1', exponents: [0, 0] }] });

    const weak = await run(without?.payload ?? {});
    const weakOut = outputOf(weak);
    expect(weakOut).toMatchObject({ verdict: 'ACCEPTED', claim_kind: 'REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS', ideal_inclusion: 'GENERATORS_IN_BASIS_ONLY' });
    expect(weak.assurance.level).toBe('VERIFIED');
    expect(weak.obligations.every((o) => o.status === 'DISCHARGED')).toBe(true);
    expect(weak.scope?.statement).toContain('an ideal that contains');
    const weakRecord = await artifacts.get(weakOut.verification_record_uri as string);
    expect(verifyRecordSignature(weakRecord.payload, trusted).body).toMatchObject({ claim_semantics_uri: GROEBNER_CONTAINING_SEMANTICS_URI, claim: { kind: 'REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS' } });
  });

  it('does not VERIFY the full claim without cofactors: UNDECIDED, COMPUTED, basis-in-ideal OPEN with the evidence that closes it, nothing signed', async () => {
    const weakPayload = capability.descriptor.examples[1]?.payload ?? {};
    const claim = weakPayload['claim'] as GroebnerBasisClaim;
    for (const payload of [{ claim }, { claim, claim_kind: 'REDUCED_GROEBNER_BASIS' }, { result_uri: await store(claim) }]) {
      const result = await run(payload);
      const out = outputOf(result);
      expect(out).toMatchObject({ verdict: 'UNDECIDED', claim_kind: 'REDUCED_GROEBNER_BASIS', ideal_inclusion: 'GENERATORS_IN_BASIS_ONLY', verification_record_uri: null, reason_code: null });
      expect(result.assurance).toMatchObject({ level: 'COMPUTED', verification_record_uri: null, checker_id: null });
      expect(result.completeness.status).toBe('PARTIAL');
      const open = result.obligations.filter((o) => o.status === 'OPEN');
      expect(open.map((o) => o.id)).toEqual(['basis-in-ideal']);
      expect(open[0]?.statement).toMatch(/cofactors: true/);
      expect(result.scope?.statement).toContain('is the reduced Groebner basis of the ideal generated by');
      expect(result.diagnostics[0]).toMatchObject({ severity: 'WARNING', code: 'CLAIM_NOT_VERIFIED' });
      expect(result.artifact_uris.every((uri) => uri === (payload as { result_uri?: string }).result_uri)).toBe(true);
    }
    // The schema itself refuses the old answer: VERIFIED with that obligation open.
    const result = await run({ claim });
    const forged = { ...result, assurance: { level: 'VERIFIED', basis: 'x', verification_record_uri: `artifact://sha256/${'e'.repeat(64)}`, checker_id: GROEBNER_CHECKER_ID }, artifact_uris: [`artifact://sha256/${'e'.repeat(64)}`] };
    expect(CapabilityResultSchema.safeParse(forged).error?.issues.map((i) => i.path.join('.'))).toContain(`obligations.${result.obligations.findIndex((o) => o.status === 'OPEN')}.status`);
  });

  it('gives a text claim and its exponent-vector equivalent identical verdicts and the same stored candidate', async () => {
    const text = (capability.descriptor.examples[0]?.payload['claim'] ?? {}) as { ring: GroebnerBasisClaim['ring']; generators: string[]; basis: string[]; cofactors: string[][] };
    const R = resolveRing(text.ring);
    const json = claimOf(R, parsePolynomials(R, text.generators), parsePolynomials(R, text.basis), text.cofactors.map((row) => parsePolynomials(R, row)));
    const bare = <T extends { cofactors?: unknown }>(claim: T): Omit<T, 'cofactors'> => {
      const { cofactors: _dropped, ...rest } = claim;
      return rest;
    };
    const pairs: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ claim: text }, { claim: json }],
      [{ claim: bare(text) }, { claim: bare(json) }],
      [{ claim: bare(text), claim_kind: 'REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS' }, { claim: bare(json), claim_kind: 'REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS' }],
      [{ claim: { ...text, basis: ['y^3 - 2', 'x - y^2'] } }, { claim: { ...json, basis: claimOf(R, [], parsePolynomials(R, ['y^3 - 2', 'x - y^2'])).basis } }],
      [{ claim: { ...text, basis: ['2*y^3 - 2', 'x - y^2'] } }, { claim: { ...json, basis: claimOf(R, [], parsePolynomials(R, ['2*y^3 - 2', 'x - y^2'])).basis } }],
      // Mixed: texts and exponent vectors in one claim.
      [{ claim: { ...json, generators: text.generators } }, { claim: json }],
    ];
    for (const [a, b] of pairs) {
      const [x, y] = [outputOf(await run(a)), outputOf(await run(b))];
      expect({ ...x, verification_record_uri: null }).toEqual({ ...y, verification_record_uri: null });
    }
    expect(outputOf(await run(pairs[4]?.[0] ?? {})).reason_code).toBe('NOT_MONIC');
  });

  it('refuses a claim text that does not parse with a typed error naming the polynomial, column and rule', async () => {
    const text = (capability.descriptor.examples[0]?.payload['claim'] ?? {}) as { basis: string[] };
    const bad = await run({ claim: { ...(capability.descriptor.examples[0]?.payload['claim'] as object), basis: [text.basis[0], 'x - y^^2'] } });
    expect(bad.execution.status).toBe('ERROR');
    expect(bad.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'basis', 1] });
    expect(bad.diagnostics[0]?.message).toMatch(/payload\.claim\.basis\.1.*column 7/);
    const unknownVariable = await run({ claim: { ...(capability.descriptor.examples[0]?.payload['claim'] as object), cofactors: [['-y^2', 'x*y + 1'], ['z', '-x']] } });
    expect(unknownVariable.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'cofactors', 1, 0] });
    expect(unknownVariable.diagnostics[0]?.message).toMatch(/"z"/);
  });

  it('rejects mutated claims naming the failing element and rule: an element dropped, a coefficient changed, a non-reduced element added, a wrong cofactor', async () => {
    const claim = canonicalGroebnerClaim(capability.descriptor.examples[0]?.payload['claim'] as GroebnerBasisClaimInput, []);
    const R = resolveRing(claim.ring);
    const [y3, xy2] = parsePolynomials(R, ['y^3 - 1', 'x - y^2']) as [Polynomial<unknown>, Polynomial<unknown>];
    const gens = parsePolynomials(R, ['x^2 - y', 'x*y - 1']);

    const dropped = await run({ claim: claimOf(R, gens, [xy2]) });
    expect(outputOf(dropped)).toMatchObject({ verdict: 'REJECTED', reason_code: 'GENERATOR_NOT_REDUCED_TO_ZERO', failure: { path: ['generators', 0] }, verification_record_uri: null });
    expect(dropped.assurance.level).toBe('COMPUTED');
    expect(dropped.diagnostics[0]).toMatchObject({ code: 'CHECKER_REJECTED', path: ['payload', 'claim', 'generators', 0] });

    const changed = await run({ claim: claimOf(R, gens, [...parsePolynomials(R, ['y^3 - 2']), xy2]) });
    expect(outputOf(changed)).toMatchObject({ verdict: 'REJECTED', reason_code: 'GENERATOR_NOT_REDUCED_TO_ZERO' });

    const nonReduced = await run({ claim: claimOf(R, gens, [y3, ...parsePolynomials(R, ['x*y^3 - x']), xy2]) });
    expect(outputOf(nonReduced)).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_REDUCED', failure: { path: ['basis', 1, 'terms', 0] } });

    const wrongCofactor = await run({ claim: claimOf(R, gens, [y3, xy2], [parsePolynomials(R, ['-y^2', 'x*y']), parsePolynomials(R, ['y', '-x'])]) });
    expect(outputOf(wrongCofactor)).toMatchObject({ verdict: 'REJECTED', reason_code: 'COFACTOR_MISMATCH', failure: { path: ['cofactors', 0], witness: '-x*y + 1' } });
  });

  it('reads stored claims, refusing other artifacts and bad rings with errors naming result_uri', async () => {
    const claim = canonicalGroebnerClaim(capability.descriptor.examples[0]?.payload['claim'] as GroebnerBasisClaimInput, []);
    const uri = await store(claim);
    const stored = await run({ result_uri: uri });
    expect(outputOf(stored)).toMatchObject({ verdict: 'ACCEPTED', result_uri: uri });
    expect(stored.scope?.input_uris).toEqual([uri]);
    const record = await artifacts.get(outputOf(stored).verification_record_uri as string);
    expect(record.manifest.parents).toEqual([uri]);

    const other = (await artifacts.put({ schema_uri: 'example:other', semantics_uri: 'example:other', payload: { a: 1 }, parents: [], summary: {} })).uri;
    const wrong = await run({ result_uri: other });
    expect(wrong.execution.status).toBe('ERROR');
    expect(wrong.diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'result_uri'] });
    const badRing = await run({ result_uri: await store({ ...claim, ring: { ...claim.ring, field: { kind: 'GF', characteristic: '32001' } } }) });
    expect(badRing.diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'result_uri'] });
    const inlineBadRing = await run({ claim: { ...claim, ring: { ...claim.ring, field: { kind: 'GF', characteristic: '32001' } } } });
    expect(inlineBadRing.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'ring', 'field', 'characteristic'] });
    const both = await run({ result_uri: uri, claim });
    expect(both.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST' });
    const missing = await run({ result_uri: `artifact://sha256/${'0'.repeat(64)}` });
    expect(missing.diagnostics[0]).toMatchObject({ code: 'ARTIFACT_NOT_FOUND', path: ['payload', 'result_uri'] });
  });

  it('refuses to verify when the operator has not authorized it', async () => {
    const result = await run(capability.descriptor.examples[0]?.payload ?? {}, undefined, unauthorized);
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]?.code).toBe('CHECKER_NOT_AUTHORIZED');
  });

  describe.skipIf(singular.path === null)(`on Singular's bases${singular.path === null ? ` (skipped: ${singular.reason})` : ''}`, () => {
    const problems = [cyclicSystem(4), katsuraSystem(3), cyclicSystem(5)].flatMap((system) =>
      [{ kind: 'Q' as const }, { kind: 'GF' as const, characteristic: '32003' }].map((field) => ({ system, ring: resolveRing({ field, variables: system.variables, order: 'grevlex' }) })),
    );
    const claims = (): GroebnerBasisClaim[] => {
      const jobs = problems.map(({ system, ring }) => ({ ring, generators: parsePolynomials(ring, system.generators) }));
      const bases = singularReducedBases(jobs);
      return jobs.map((job, k) => claimOf(job.ring, job.generators, bases[k] ?? []));
    };

    it('accepts them stored, and rejects each with an element dropped, a coefficient changed, or a non-reduced element added', { timeout: 300_000 }, async () => {
      for (const [k, claim] of claims().entries()) {
        const name = `${problems[k]?.system.name ?? ''} over ${claim.ring.field.kind}`;
        const uri = await store(claim);
        // Singular gives no cofactors: the weaker claim, asked by name, is verified; the full one stays open.
        const accepted = await run({ result_uri: uri, claim_kind: 'REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS' });
        expect(outputOf(accepted).verdict, name).toBe('ACCEPTED');
        expect(accepted.assurance.level).toBe('VERIFIED');
        const undecided = await run({ result_uri: uri });
        expect(outputOf(undecided).verdict, name).toBe('UNDECIDED');
        expect(undecided.assurance.level).toBe('COMPUTED');

        const last = claim.basis.length - 1;
        const dropped = outputOf(await run({ claim: { ...claim, basis: claim.basis.filter((_, i) => i !== last) } }));
        expect(dropped.verdict, `${name}, dropped`).toBe('REJECTED');
        expect(['GENERATOR_NOT_REDUCED_TO_ZERO', 'S_POLYNOMIAL_NOT_REDUCED_TO_ZERO']).toContain(dropped.reason_code);

        // Change the last coefficient of the last element (a term below its lead, so it stays monic).
        const target = claim.basis[last] as GroebnerBasisClaim['basis'][number];
        const terms = target.terms.map((t, i) => (i === target.terms.length - 1 ? { ...t, coefficient: t.coefficient === '2' ? '3' : '2' } : t));
        const changed = outputOf(await run({ claim: { ...claim, basis: claim.basis.map((b, i) => (i === last ? { terms } : b)) } }));
        expect(changed.verdict, `${name}, changed`).toBe('REJECTED');
        expect(changed.failure?.path[0]).toMatch(/^(generators|basis)$/);

        // x0 + 1: its lead x0 divides a term of the basis (cyclic and katsura bases have an element led by the first variable).
        const R = resolveRing(claim.ring);
        const added = outputOf(await run({ claim: { ...claim, basis: [...claim.basis, polynomialToJson(R, R.add(R.variable(0), R.one()))] } }));
        expect(added.verdict, `${name}, added`).toBe('REJECTED');
        expect(added.reason_code).toBe('NOT_REDUCED');
      }
    });

    it('answers TIMEOUT, not a verdict, when the budget ends before the check', { timeout: 120_000 }, async () => {
      // katsura-7 over GF(32003): checking its 74-element basis takes about 1.2 s here, twelve
      // times the smallest budget (cyclic-6's check, at 30-80 ms, could finish within it).
      const system = katsuraSystem(7);
      const ring = resolveRing({ field: { kind: 'GF', characteristic: '32003' }, variables: system.variables, order: 'grevlex' });
      const generators = parsePolynomials(ring, system.generators);
      const [basis] = singularReducedBases([{ ring, generators }]);
      const result = await run({ claim: claimOf(ring, generators, basis ?? []) }, { wall_time_ms: 100 });
      expect(result.execution.status).toBe('TIMEOUT');
      expect(result.output).toBeNull();
    });
  });
});
