/**
 * Polynomial capabilities end to end, through MCP on the real `jacobian` command: a reduced
 * Groebner basis computed by whichever provider serves (Singular where it is installed, our
 * TypeScript engine otherwise), compared with Singular's own answer read by the test helper,
 * verified by the independent checker from the stored claim, mutated claims rejected naming the
 * failing element, bad input, and a run stopped by its budget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cyclicSystem, GroebnerBasisClaimSchema, katsuraSystem, parsePolynomials, printPolynomial, resolveRing, type GroebnerBasisClaim } from '@jacobian/shared';
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
