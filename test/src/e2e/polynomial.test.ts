/**
 * Polynomial capabilities end to end, through MCP on the real `jacobian` command: a reduced
 * Groebner basis computed by whichever provider serves (Singular where it is installed, our
 * TypeScript engine otherwise), compared with Singular's own answer read by the test helper,
 * verified by the independent checker from the stored claim, mutated claims rejected naming the
 * failing element, bad input, and a run stopped by its budget. Then the other certificates: a
 * factorization (Singular) and ideal membership claims of both verdicts, each stored by its
 * producer and verified through MCP by the checker, and each rejected once tampered with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cyclicSystem,
  FactorizationClaimSchema,
  GroebnerBasisClaimSchema,
  katsuraSystem,
  MembershipClaimSchema,
  parsePolynomial,
  parsePolynomials,
  polynomialFromJson,
  polynomialToJson,
  printPolynomial,
  resolveRing,
  type FactorizationClaim,
  type GroebnerBasisClaim,
  type MembershipClaim,
} from '@jacobian/shared';
import { findSingular, singularReducedBases } from '@jacobian/shared/testing';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { ARTIFACT_URI, mathFind, mathRun, readArtifact } from '../support/tools.js';

const COMPUTE = 'polynomial.groebner_basis.compute';
const VERIFY = 'polynomial.groebner_basis.verify';
const singular = findSingular();

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

interface ComputeOutput {
  basis: string[];
  count: number;
  result_uri: string | null;
  basis_uri: string | null;
  cofactors: string[][] | null;
  engine: { provider: string };
}

interface VerifyOutput {
  verdict: 'ACCEPTED' | 'REJECTED';
  ideal_inclusion: string | null;
  reason_code: string | null;
  failure: { path: (string | number)[] } | null;
}

describe('polynomial Groebner bases through MCP', () => {
  it('lists the producer and the checker, each with its provider', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const id of [COMPUTE, VERIFY]) {
      const inspected = await mathFind(connection.client, { capability_id: id, view: 'CONTRACT' });
      const capability = inspected.response.capability as { provider: { name: string } } | null;
      expect(capability, id).not.toBeNull();
      expect(capability?.provider.name).toBe(id === VERIFY ? 'jacobian-checker-ts' : singular.path === null ? 'jacobian-polynomial-ts' : 'singular');
    }
  });

  const systems = [
    { system: cyclicSystem(4), field: { kind: 'GF', characteristic: '32003' }, order: 'grevlex' },
    { system: katsuraSystem(3), field: { kind: 'Q' }, order: 'grlex' },
  ] as const;
  for (const { system, field, order } of systems) {
    it(`computes ${system.name} (${field.kind}, ${order}) with cofactors; the checker verifies the stored claim and rejects its mutations`, { timeout: 2 * E2E_TEST_TIMEOUT_MS }, async () => {
      const ring = { field, variables: [...system.variables], order };
      const { result } = await mathRun(connection.client, { capability_id: COMPUTE, mode: 'EXPLORE', payload: { ring, generators: [...system.generators], cofactors: true } });
      expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
      expect(result.completeness.status).toBe('COMPLETE');
      const out = result.output as ComputeOutput;
      expect(out.count).toBe(out.basis.length);
      expect(out.result_uri).toMatch(ARTIFACT_URI);
      expect(out.cofactors).toHaveLength(out.count);

      if (singular.path !== null) {
        // Independent truth: Singular's reduced basis, read back by the test helper's own parser.
        const R = resolveRing(ring);
        const [expected] = singularReducedBases([{ ring: R, generators: parsePolynomials(R, system.generators) }]);
        expect(out.basis).toEqual((expected ?? []).map((p) => printPolynomial(R, p)));
      }

      const verified = await mathRun(connection.client, { capability_id: VERIFY, mode: 'VERIFY', payload: { result_uri: out.result_uri } });
      expect(verified.result.execution.status, JSON.stringify(verified.result.diagnostics)).toBe('COMPLETED');
      expect(verified.result.assurance.level).toBe('VERIFIED');
      expect((verified.result.output as VerifyOutput)).toMatchObject({ verdict: 'ACCEPTED', ideal_inclusion: 'EQUAL' });

      const stored = await readArtifact(connection.client, out.result_uri as string);
      const claim: GroebnerBasisClaim = GroebnerBasisClaimSchema.parse(stored.payload);
      const last = claim.basis.length - 1;
      const mutations: { name: string; claim: GroebnerBasisClaim }[] = [
        { name: 'element dropped', claim: { ring: claim.ring, generators: claim.generators, basis: claim.basis.slice(0, last) } },
        {
          name: 'coefficient changed',
          claim: {
            ring: claim.ring,
            generators: claim.generators,
            basis: claim.basis.map((b, i) => (i === last ? { terms: b.terms.map((t, k) => (k === b.terms.length - 1 ? { ...t, coefficient: t.coefficient === '2' ? '3' : '2' } : t)) } : b)),
          },
        },
        { name: 'non-reduced element added', claim: { ring: claim.ring, generators: claim.generators, basis: [...claim.basis, claim.basis[last] as GroebnerBasisClaim['basis'][number]] } },
      ];
      for (const mutation of mutations) {
        const rejected = await mathRun(connection.client, { capability_id: VERIFY, mode: 'VERIFY', payload: { claim: mutation.claim } });
        expect(rejected.result.execution.status, mutation.name).toBe('COMPLETED');
        const verdict = rejected.result.output as VerifyOutput;
        expect(verdict.verdict, mutation.name).toBe('REJECTED');
        expect(verdict.failure?.path.length, mutation.name).toBeGreaterThan(0);
        expect(rejected.result.assurance.level).toBe('COMPUTED');
      }
    });
  }

  it('answers bad input with an error naming the field, and a run past its budget with TIMEOUT', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const ring = { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'grevlex' };
    const bad = await mathRun(connection.client, { capability_id: COMPUTE, mode: 'EXPLORE', payload: { ring, generators: ['x + y', 'x*w'] } });
    expect(bad.result.execution.status).toBe('ERROR');
    expect(bad.result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'generators', 1] });

    const cyclic8 = cyclicSystem(8);
    const slow = await mathRun(connection.client, {
      capability_id: COMPUTE,
      mode: 'EXPLORE',
      payload: { ring: { field: { kind: 'Q' }, variables: [...cyclic8.variables], order: 'grevlex' }, generators: [...cyclic8.generators] },
      budget: { wall_time_ms: 1000 },
    });
    expect(slow.result.execution.status).toBe('TIMEOUT');
    expect(slow.result.output).toBeNull();
  });
});

interface AlgebraVerifyOutput {
  verdict: 'ACCEPTED' | 'REJECTED';
  reason_code: string | null;
  failure: { path: (string | number)[] } | null;
  verification_record_uri: string | null;
}

/** Run a checker in VERIFY mode through MCP; returns its output and assurance. */
async function verifyThroughMcp(capabilityId: string, payload: Record<string, unknown>): Promise<{ output: AlgebraVerifyOutput; assurance: string }> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode: 'VERIFY', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return { output: result.output as AlgebraVerifyOutput, assurance: result.assurance.level };
}

describe('factorization and ideal membership certificates through MCP', () => {
  const QXY = { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'grevlex' };

  it.skipIf(singular.path === null)('factors x^4 - 1 over Q with Singular; the checker verifies the stored claim and rejects a changed factor', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const ring = { field: { kind: 'Q' }, variables: ['x'], order: 'lex' };
    const { result } = await mathRun(connection.client, { capability_id: 'polynomial.factor.compute', mode: 'EXPLORE', payload: { ring, polynomial: 'x^4 - 1' } });
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    const out = result.output as { factors: { factor: string; multiplicity: number }[]; result_uri: string | null };
    expect(out.factors.map((f) => f.factor).sort()).toEqual(['x + 1', 'x - 1', 'x^2 + 1'].sort());
    expect(out.result_uri).toMatch(ARTIFACT_URI);

    const verified = await verifyThroughMcp('polynomial.factor.verify', { result_uri: out.result_uri });
    expect(verified.output.verdict).toBe('ACCEPTED');
    expect(verified.assurance).toBe('VERIFIED');
    expect(verified.output.verification_record_uri).toMatch(ARTIFACT_URI);

    const claim: FactorizationClaim = FactorizationClaimSchema.parse((await readArtifact(connection.client, out.result_uri as string)).payload);
    // The factor x + 1 becomes x + 2: the product no longer matches, and the checker names a factor.
    const R = resolveRing(ring);
    const tampered: FactorizationClaim = {
      ...claim,
      factors: claim.factors.map((f) =>
        printPolynomial(R, polynomialFromJson(R, f.factor)) === 'x + 1' ? { ...f, factor: polynomialToJson(R, parsePolynomial(R, 'x + 2')) } : f,
      ),
    };
    expect(tampered).not.toEqual(claim);
    const rejected = await verifyThroughMcp('polynomial.factor.verify', { claim: tampered });
    expect(rejected.output.verdict).toBe('REJECTED');
    expect(rejected.output.failure?.path[0]).toBe('factors');
    expect(rejected.assurance).toBe('COMPUTED');
  });

  it('decides membership both ways; the checker verifies each stored claim and rejects altered cofactors and a false NOT_MEMBER', { timeout: 2 * E2E_TEST_TIMEOUT_MS }, async () => {
    const generators = ['x^2 - y', 'x*y - 1'];
    // x·(x^2 - y) + y·(x*y - 1) is in the ideal; x is not (the ideal is that of the points with x^3 = 1, y = x^2).
    const cases = [
      { polynomial: 'x^3 - x*y + x*y^2 - y', verdict: 'MEMBER' },
      { polynomial: 'x', verdict: 'NOT_MEMBER' },
    ] as const;
    const claims: MembershipClaim[] = [];
    for (const { polynomial, verdict } of cases) {
      const { result } = await mathRun(connection.client, { capability_id: 'polynomial.ideal_membership.decide', mode: 'EXPLORE', payload: { ring: QXY, generators, polynomial } });
      expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
      const out = result.output as { verdict: string; result_uri: string | null };
      expect(out.verdict, polynomial).toBe(verdict);
      expect(out.result_uri).toMatch(ARTIFACT_URI);
      const verified = await verifyThroughMcp('polynomial.ideal_membership.verify', { result_uri: out.result_uri });
      expect(verified.output.verdict, polynomial).toBe('ACCEPTED');
      expect(verified.assurance, polynomial).toBe('VERIFIED');
      claims.push(MembershipClaimSchema.parse((await readArtifact(connection.client, out.result_uri as string)).payload));
    }

    const [member, notMember] = claims as [MembershipClaim, MembershipClaim];
    // The first cofactor plus one: Σ c_j·g_j is no longer the polynomial.
    const R = resolveRing(QXY);
    const cofactors = member.cofactors ?? [];
    expect(cofactors.length).toBe(generators.length);
    const bumped = polynomialToJson(R, parsePolynomial(R, `${printPolynomial(R, polynomialFromJson(R, cofactors[0]))} + 1`));
    const altered = await verifyThroughMcp('polynomial.ideal_membership.verify', { claim: { ...member, cofactors: [bumped, ...cofactors.slice(1)] } });
    expect(altered.output.verdict).toBe('REJECTED');
    expect(altered.assurance).toBe('COMPUTED');

    // A member claimed NOT_MEMBER with the true basis: its normal form is zero, so the claim fails.
    const falseVerdict = await verifyThroughMcp('polynomial.ideal_membership.verify', { claim: { ...notMember, polynomial: member.polynomial, remainder: undefined } });
    expect(falseVerdict.output.verdict).toBe('REJECTED');
    expect(falseVerdict.assurance).toBe('COMPUTED');
  });
});
