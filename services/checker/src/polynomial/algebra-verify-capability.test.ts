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
  parsePolynomial,
  polynomialToJson,
  resolveRing,
  verifyRecordSignature,
  type ArtifactStore,
  type CapabilityDefinition,
  type CapabilityResult,
  type CheckerAuthorization,
  type CheckerIdentity,
  type InstalledCapability,
  type IsolatedExecutor,
  type PolynomialJson,
  type ProviderRuntime,
  type SigningKey,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import {
  FACTOR_VERIFY_CAPABILITY_ID,
  FACTORIZATION_PRODUCT_SEMANTICS_URI,
  MEMBERSHIP_VERIFY_CAPABILITY_ID,
  verifyFactorization,
  verifyIdealMembership,
  type AlgebraVerifyOutput,
} from './algebra-verify-capability.js';
import { FACTORIZATION_SCHEMA_URI, FACTORIZATION_SEMANTICS_URI, MEMBERSHIP_SCHEMA_URI, MEMBERSHIP_SEMANTICS_URI } from '@jacobian/shared';
import { checkFactorizationClaim } from './algebra-verify.js';

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

const QX = { field: { kind: 'Q' as const }, variables: ['x'], order: 'lex' as const };
const LEX = { field: { kind: 'Q' as const }, variables: ['x', 'y'], order: 'lex' as const };
const GF5 = { field: { kind: 'GF' as const, characteristic: '5' }, variables: ['x'], order: 'lex' as const };
type Ring = typeof QX | typeof LEX | typeof GF5;
const J = (ring: Ring, text: string): PolynomialJson => polynomialToJson(resolveRing(ring), parsePolynomial(resolveRing(ring), text));

function factorClaim(ring: Ring, polynomial: string, unit: string, factors: [string, number][]): Record<string, unknown> {
  return { ring, polynomial: J(ring, polynomial), unit, factors: factors.map(([f, multiplicity]) => ({ factor: J(ring, f), multiplicity })) };
}

const GENERATORS = ['x^2 - y', 'x*y - 1'];
/** The reduced lex basis of <x^2 - y, x*y - 1> with cofactors (hand-checked: y^3 - 1 = -y^2·g1 + (x*y + 1)·g2, x - y^2 = y·g1 - x·g2). */
const BASIS = ['y^3 - 1', 'x - y^2'];
const BASIS_COFACTORS = [
  ['-y^2', 'x*y + 1'],
  ['y', '-x'],
];
function notMemberClaim(polynomial: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ring: LEX,
    generators: GENERATORS.map((g) => J(LEX, g)),
    polynomial: J(LEX, polynomial),
    verdict: 'NOT_MEMBER',
    basis: BASIS.map((b) => J(LEX, b)),
    basis_cofactors: BASIS_COFACTORS.map((row) => row.map((c) => J(LEX, c))),
    ...overrides,
  };
}
function memberClaim(polynomial: string, cofactors: string[]): Record<string, unknown> {
  return { ring: LEX, generators: GENERATORS.map((g) => J(LEX, g)), polynomial: J(LEX, polynomial), verdict: 'MEMBER', cofactors: cofactors.map((c) => J(LEX, c)) };
}

describe('polynomial.factor.verify and polynomial.ideal_membership.verify', () => {
  let root: string;
  let artifacts: ArtifactStore;
  let executor: IsolatedExecutor;
  let key: SigningKey;
  let trusted: Map<string, KeyObject>;
  let factor: InstalledCapability;
  let membership: InstalledCapability;
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
  const out = (result: CapabilityResult): AlgebraVerifyOutput => {
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    return result.output as AlgebraVerifyOutput;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'jacobian-algebra-checker-'));
    artifacts = createLocalFolderArtifactStore({ root: join(root, 'artifacts') });
    executor = createProcessPool({ size: 1 });
    key = await loadOrCreateSigningKey(join(root, 'key.pem'));
    trusted = new Map([[key.keyId, key.publicKey]]);
    factor = await install(verifyFactorization, true);
    membership = await install(verifyIdealMembership, true);
    unauthorized = await install(verifyFactorization, false);
  });
  afterAll(async () => {
    await executor?.close();
    await artifacts?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('verifies factorizations into irreducibles with a signed record of that claim kind, every obligation discharged', async () => {
    const result = await run(factor, { claim: factorClaim(QX, '2*x^4 - 2', '2', [['x + 1', 1], ['x - 1', 1], ['x^2 + 1', 1]]) });
    const o = out(result);
    expect(o).toMatchObject({ verdict: 'ACCEPTED', claim_kind: 'FACTORIZATION_INTO_IRREDUCIBLES', reason_code: null });
    expect(result.assurance.level).toBe('VERIFIED');
    expect(result.obligations.map((x) => [x.id, x.status])).toEqual([
      ['product-identity', 'DISCHARGED'],
      ['factors-irreducible', 'DISCHARGED'],
    ]);
    expect(o.message).toMatch(/factor 2: irreducible modulo 3/);
    const body = verifyRecordSignature((await artifacts.get(o.verification_record_uri as string)).payload, trusted).body;
    expect(body).toMatchObject({ claim_semantics_uri: FACTORIZATION_SEMANTICS_URI, candidate_uri: o.result_uri, claim: { kind: 'FACTORIZATION_INTO_IRREDUCIBLES' } });
    expect(out(await run(factor, { claim: factorClaim(GF5, '3*x^2 + 3', '3', [['x + 2', 1], ['x + 3', 1]]) })).verdict).toBe('ACCEPTED');
    expect(out(await run(factor, { claim: factorClaim(GF5, 'x^4 + 3*x^2 + 2', '1', [['x^2 + 2', 1], ['x^2 + 1', 1]]) }))).toMatchObject({ verdict: 'REJECTED', reason_code: 'FACTOR_REDUCIBLE', failure: { path: ['factors', 1, 'factor'] } });
    expect(out(await run(factor, { claim: factorClaim(LEX, '(x - y)^3*(x + 2*y)', '1', [['x - y', 3], ['x + 2*y', 1]]) })).verdict).toBe('ACCEPTED');
    const stored = (await artifacts.put({ schema_uri: FACTORIZATION_SCHEMA_URI, semantics_uri: FACTORIZATION_SEMANTICS_URI, payload: factorClaim(QX, 'x^2 - 1', '1', [['x + 1', 1], ['x - 1', 1]]) as never, parents: [], summary: {} })).uri;
    const viaUri = out(await run(factor, { result_uri: stored }));
    expect(viaUri).toMatchObject({ verdict: 'ACCEPTED', result_uri: stored });
  });

  it('does not VERIFY a factorization into irreducibles whose irreducibility it cannot show: UNDECIDED, obligation OPEN, nothing signed', async () => {
    // x^4 + 1 is irreducible over Q but reducible modulo every prime; x^2 - 1 is reducible; x^2 + y^2 has two variables.
    for (const claim of [factorClaim(QX, 'x^4 + 1', '1', [['x^4 + 1', 1]]), factorClaim(QX, 'x^2 - 1', '1', [['x^2 - 1', 1]]), factorClaim(LEX, 'x^2 + y^2', '1', [['x^2 + y^2', 1]])]) {
      const result = await run(factor, { claim });
      expect(out(result)).toMatchObject({ verdict: 'UNDECIDED', claim_kind: 'FACTORIZATION_INTO_IRREDUCIBLES', verification_record_uri: null, result_uri: null });
      expect(result.assurance).toMatchObject({ level: 'COMPUTED', verification_record_uri: null });
      expect(result.completeness.status).toBe('PARTIAL');
      expect(result.obligations.filter((x) => x.status === 'OPEN').map((x) => x.id)).toEqual(['factors-irreducible']);
      expect(result.obligations.find((x) => x.status === 'OPEN')?.statement).toMatch(/factor 0 .*FACTORIZATION_PRODUCT_IDENTITY/);
      expect(result.artifact_uris).toEqual([]);
      expect(result.diagnostics[0]).toMatchObject({ severity: 'WARNING', code: 'CLAIM_NOT_VERIFIED' });
      // The weaker claim, asked by name, is verified in its own name.
      const product = await run(factor, { claim, claim_kind: 'FACTORIZATION_PRODUCT_IDENTITY' });
      const o = out(product);
      expect(o).toMatchObject({ verdict: 'ACCEPTED', claim_kind: 'FACTORIZATION_PRODUCT_IDENTITY' });
      expect(product.assurance.level).toBe('VERIFIED');
      expect(product.obligations.map((x) => x.id)).toEqual(['product-identity']);
      expect(product.scope?.statement).toMatch(/irreducibility is not part of it/);
      const body = verifyRecordSignature((await artifacts.get(o.verification_record_uri as string)).payload, trusted).body;
      expect(body).toMatchObject({ claim_semantics_uri: FACTORIZATION_PRODUCT_SEMANTICS_URI, claim: { kind: 'FACTORIZATION_PRODUCT_IDENTITY' } });
    }
  });

  it('rejects mutated factorizations, naming the failing part', async () => {
    const cases: [Record<string, unknown>, string, (string | number)[]][] = [
      [factorClaim(QX, '2*x^4 - 2', '2', [['x + 1', 1], ['x - 2', 1], ['x^2 + 1', 1]]), 'FACTOR_NOT_DIVISOR', ['factors', 1]],
      [factorClaim(QX, '2*x^4 - 2', '2', [['x + 1', 2], ['x - 1', 1], ['x^2 + 1', 1]]), 'FACTOR_NOT_DIVISOR', ['factors', 0]],
      [factorClaim(QX, '2*x^4 - 2', '3', [['x + 1', 1], ['x - 1', 1], ['x^2 + 1', 1]]), 'PRODUCT_MISMATCH', ['unit']],
      [factorClaim(QX, '2*x^4 - 2', '2', [['x + 1', 1], ['x - 1', 1]]), 'PRODUCT_MISMATCH', ['factors']],
      [factorClaim(QX, 'x^2 - 1', '1', [['x + 1', 1], ['x - 1', 1], ['2', 1]]), 'CONSTANT_FACTOR', ['factors', 2, 'factor']],
      [factorClaim(QX, 'x^2 - 1', '0', [['x + 1', 1], ['x - 1', 1]]), 'CONSTANT_FACTOR', ['unit']],
      [factorClaim(QX, 'x^2 - 1', '2/4', [['x + 1', 1], ['x - 1', 1]]), 'MALFORMED', ['unit']],
    ];
    for (const [claim, reason, path] of cases) {
      const result = await run(factor, { claim });
      expect(out(result), reason).toMatchObject({ verdict: 'REJECTED', reason_code: reason, failure: { path }, verification_record_uri: null });
      expect(result.assurance.level).toBe('COMPUTED');
    }
    const unsorted = factorClaim(QX, 'x^2 - 1', '1', [['x + 1', 1], ['x - 1', 1]]);
    (unsorted['polynomial'] as PolynomialJson).terms.reverse();
    expect(out(await run(factor, { claim: unsorted }))).toMatchObject({ reason_code: 'MALFORMED', failure: { path: ['polynomial', 'terms', 1] } });
  });

  it('accepts MEMBER certificates and rejects a changed cofactor', async () => {
    // x^3 - x*y = x·(x^2 - y) + 0·(x*y - 1); y^3 - 1 = -y^2·g1 + (x*y + 1)·g2.
    const ok = await run(membership, { claim: memberClaim('y^3 - 1', ['-y^2', 'x*y + 1']) });
    expect(out(ok)).toMatchObject({ verdict: 'ACCEPTED' });
    expect(ok.obligations.map((x) => [x.id, x.status])).toEqual([['membership-certificate', 'DISCHARGED']]);
    expect(out(await run(membership, { claim: memberClaim('x^3 - x*y', ['x', '0']) })).verdict).toBe('ACCEPTED');
    const bad = out(await run(membership, { claim: memberClaim('y^3 - 1', ['-y^2', 'x*y + 2']) }));
    expect(bad).toMatchObject({ verdict: 'REJECTED', reason_code: 'COFACTOR_MISMATCH', failure: { path: ['cofactors'], witness: 'x*y - 1' } });
    expect(out(await run(membership, { claim: memberClaim('y^3 - 1', ['-y^2']) }))).toMatchObject({ reason_code: 'MALFORMED', failure: { path: ['cofactors'] } });
  });

  it('does not reject or VERIFY a membership claim without its certificate: UNDECIDED with the obligation and the evidence named', async () => {
    const { cofactors: _none, ...bare } = memberClaim('y^3 - 1', ['-y^2', 'x*y + 1']);
    const cases: [Record<string, unknown>, string][] = [
      [bare, 'membership-certificate'],
      [notMemberClaim('x + 1', { basis: undefined, basis_cofactors: undefined }), 'basis-certificate'],
      [notMemberClaim('x + 1', { basis_cofactors: undefined }), 'basis-certificate'],
    ];
    for (const [claim, open] of cases) {
      const result = await run(membership, { claim: JSON.parse(JSON.stringify(claim)) as Record<string, unknown> });
      expect(out(result), open).toMatchObject({ verdict: 'UNDECIDED', reason_code: null, verification_record_uri: null });
      expect(result.assurance.level).toBe('COMPUTED');
      expect(result.obligations.filter((x) => x.status === 'OPEN').map((x) => x.id)).toEqual([open]);
      expect(result.obligations[0]?.statement).toMatch(/evidence that closes it/);
    }
  });

  it('gives text claims and their exponent-vector equivalents identical verdicts and the same stored candidate', async () => {
    const pairs: [Record<string, unknown>, Record<string, unknown>, InstalledCapability][] = [
      [{ ring: QX, polynomial: '2*x^4 - 2', unit: '2', factors: [{ factor: 'x + 1', multiplicity: 1 }, { factor: 'x - 1', multiplicity: 1 }, { factor: 'x^2 + 1', multiplicity: 1 }] }, factorClaim(QX, '2*x^4 - 2', '2', [['x + 1', 1], ['x - 1', 1], ['x^2 + 1', 1]]), factor],
      [{ ring: QX, polynomial: '2*x^4 - 2', unit: '2', factors: [{ factor: 'x + 1', multiplicity: 1 }, { factor: 'x - 2', multiplicity: 1 }] }, factorClaim(QX, '2*x^4 - 2', '2', [['x + 1', 1], ['x - 2', 1]]), factor],
      [{ ring: QX, polynomial: 'x^4 + 1', unit: '1', factors: [{ factor: 'x^4 + 1', multiplicity: 1 }] }, factorClaim(QX, 'x^4 + 1', '1', [['x^4 + 1', 1]]), factor],
      [{ ring: LEX, generators: GENERATORS, polynomial: 'y^3 - 1', verdict: 'MEMBER', cofactors: ['-y^2', 'x*y + 1'] }, memberClaim('y^3 - 1', ['-y^2', 'x*y + 1']), membership],
      [{ ring: LEX, generators: GENERATORS, polynomial: 'y^3 - 1', verdict: 'MEMBER', cofactors: ['-y^2', 'x*y + 2'] }, memberClaim('y^3 - 1', ['-y^2', 'x*y + 2']), membership],
      [{ ring: LEX, generators: GENERATORS, polynomial: 'x', verdict: 'NOT_MEMBER', basis: BASIS, basis_cofactors: BASIS_COFACTORS }, notMemberClaim('x'), membership],
    ];
    for (const [text, json, which] of pairs) {
      const [a, b] = [out(await run(which, { claim: text })), out(await run(which, { claim: json }))];
      expect({ ...a, verification_record_uri: null }).toEqual({ ...b, verification_record_uri: null });
    }
  });

  it('refuses a claim text that does not parse with a typed error naming the polynomial, column and rule', async () => {
    const bad = await run(factor, { claim: { ring: QX, polynomial: 'x^2 - 1', unit: '1', factors: [{ factor: 'x + 1', multiplicity: 1 }, { factor: 'x - * 1', multiplicity: 1 }] } });
    expect(bad.execution.status).toBe('ERROR');
    expect(bad.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'factors', 1, 'factor'] });
    expect(bad.diagnostics[0]?.message).toMatch(/payload\.claim\.factors\.1\.factor.*column 5/);
    const badMember = await run(membership, { claim: { ring: LEX, generators: ['x^2 - y', 'x*y - 1'], polynomial: 'y^3 - 1', verdict: 'MEMBER', cofactors: ['-y^2', 'x*y + w'] } });
    expect(badMember.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'cofactors', 1] });
  });

  it('accepts NOT_MEMBER only with a verified basis and a non-zero normal form', async () => {
    const ok = out(await run(membership, { claim: notMemberClaim('x + 1', { remainder: J(LEX, 'y^2 + 1') }) }));
    expect(ok).toMatchObject({ verdict: 'ACCEPTED' });
    const stored = (await artifacts.put({ schema_uri: MEMBERSHIP_SCHEMA_URI, semantics_uri: MEMBERSHIP_SEMANTICS_URI, payload: notMemberClaim('x') as never, parents: [], summary: {} })).uri;
    expect(out(await run(membership, { result_uri: stored }))).toMatchObject({ verdict: 'ACCEPTED', result_uri: stored });
    const cases: [Record<string, unknown>, string, (string | number)[]][] = [
      [notMemberClaim('x + 1', { basis_cofactors: [['-y^2', 'x*y + 1'], ['y', 'x']].map((row) => row.map((c) => J(LEX, c))) }), 'BASIS_REJECTED', ['basis_cofactors', 1]],
      [notMemberClaim('x + 1', { basis: [J(LEX, 'y^3 - 1')], basis_cofactors: [['-y^2', 'x*y + 1'].map((c) => J(LEX, c))] }), 'BASIS_REJECTED', ['generators', 0]],
      [notMemberClaim('y^3 - 1 + x*(x*y - 1)'), 'NORMAL_FORM_ZERO', ['verdict']],
      [notMemberClaim('x + 1', { remainder: J(LEX, 'y^2') }), 'REMAINDER_MISMATCH', ['remainder']],
    ];
    for (const [claim, reason, path] of cases) {
      const o = out(await run(membership, { claim: JSON.parse(JSON.stringify(claim)) as Record<string, unknown> }));
      expect(o, reason).toMatchObject({ verdict: 'REJECTED', reason_code: reason, failure: { path } });
    }
  });

  it('rejects bad requests with errors naming the field, and refuses without authorization', async () => {
    const both = await run(factor, { claim: factorClaim(QX, 'x', '1', [['x', 1]]), result_uri: `artifact://sha256/${'0'.repeat(64)}` });
    expect(both.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST' });
    const missing = await run(factor, { result_uri: `artifact://sha256/${'0'.repeat(64)}` });
    expect(missing.diagnostics[0]).toMatchObject({ code: 'ARTIFACT_NOT_FOUND', path: ['payload', 'result_uri'] });
    const stored = (await artifacts.put({ schema_uri: MEMBERSHIP_SCHEMA_URI, semantics_uri: MEMBERSHIP_SEMANTICS_URI, payload: notMemberClaim('x') as never, parents: [], summary: {} })).uri;
    expect((await run(factor, { result_uri: stored })).diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'result_uri'] });
    const notPrime = await run(factor, { claim: { ...factorClaim(QX, 'x', '1', [['x', 1]]), ring: { ...QX, field: { kind: 'GF', characteristic: '9' } } } });
    expect(notPrime.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'claim', 'ring', 'field', 'characteristic'] });
    const refused = await run(unauthorized, { claim: factorClaim(QX, 'x', '1', [['x', 1]]) });
    expect(refused.diagnostics[0]).toMatchObject({ code: 'CHECKER_NOT_AUTHORIZED' });
  });

  it('verifies the descriptor examples', async () => {
    for (const which of [factor, membership]) {
      for (const example of which.descriptor.examples) {
        const result = await run(which, example.payload);
        expect(out(result).verdict, example.title).toBe('ACCEPTED');
        expect(result.assurance.level).toBe('VERIFIED');
      }
    }
    expect([factor.descriptor.id, membership.descriptor.id]).toEqual([FACTOR_VERIFY_CAPABILITY_ID, MEMBERSHIP_VERIFY_CAPABILITY_ID]);
  });

  it('the pure check throws INVALID_REQUEST on a shape that is not a claim', () => {
    expect(() => checkFactorizationClaim({ ring: QX })).toThrow(/malformed/);
  });
});
