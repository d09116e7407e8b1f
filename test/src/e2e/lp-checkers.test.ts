/**
 * The LP certificate checkers end to end, through MCP on the real `jacobian` command: found by a
 * mathematician's words, served by the checker's own code; an optimality certificate (duality)
 * VERIFIED with its record, the same claim with a wrong dual REJECTED naming the row; an agent's
 * Farkas certificate VERIFIED, an invalid one (zero multipliers, the original product's bug)
 * REJECTED; a problem_uri that is not an LP problem refused as a type mismatch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { ARTIFACT_URI, mathFind, mathRun, readArtifact } from '../support/tools.js';

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

interface Verdict {
  level: string;
  verdict: string;
  reason: string | null;
  message: string;
  statement: string | undefined;
  record: string | null;
}

async function verify(capabilityId: string, payload: Record<string, unknown>): Promise<Verdict> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode: 'VERIFY', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  const output = result.output as { verdict: string; reason_code: string | null; message: string; verification_record_uri: string | null };
  return { level: result.assurance.level, verdict: output.verdict, reason: output.reason_code, message: output.message, statement: result.scope?.statement, record: output.verification_record_uri };
}

/**
 * A diet-like LP: min 3a + 2b, energy: a + b ≥ 4, protein: a + 3b ≥ 6, 0 ≤ a ≤ 3, b ≥ 0. Energy from
 * b is cheaper, so the optimum is (0, 4) with value 8: y_energy = 2 makes d_b = 0, and d_a = 3 − 2 = 1 > 0
 * with a at its lower bound 0; the dual objective 4·2 + 1·0 = 8.
 */
const diet = {
  sense: 'minimize',
  variables: [{ name: 'a', upper: 3 }, { name: 'b' }],
  objective: { a: 3, b: 2 },
  constraints: [
    { name: 'energy', coefficients: { a: 1, b: 1 }, relation: '>=', rhs: 4 },
    { name: 'protein', coefficients: { a: 1, b: 3 }, relation: '>=', rhs: 6 },
  ],
};
const dietOptimal = { outcome: 'OPTIMAL', objective_value: 8, primal: { b: 4 }, dual: { energy: 2 }, reduced_costs: { a: 1 } };

describe('LP certificate checkers through MCP', () => {
  it('are served by the checker and found by the words of the field', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const id of ['lp.certificate.verify', 'lp.farkas.verify']) {
      const inspected = await mathFind(connection.client, { capability_id: id, view: 'CONTRACT' });
      expect((inspected.response.capability as { provider: { name: string } } | null)?.provider.name, id).toBe('jacobian-checker-ts');
    }
    const duality = await mathFind(connection.client, { query: 'verify LP optimality certificate duality', limit: 3 });
    expect(duality.response.matches.map((m) => m['capability_id'])).toContain('lp.certificate.verify');
    const farkas = await mathFind(connection.client, { query: 'check a Farkas certificate of infeasibility', limit: 3 });
    expect(farkas.response.matches.map((m) => m['capability_id'])).toContain('lp.farkas.verify');
  });

  it('verifies an optimality certificate and rejects one with a duality gap, naming it', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const accepted = await verify('lp.certificate.verify', { claim: { problem: diet, ...dietOptimal } });
    expect(accepted).toMatchObject({ level: 'VERIFIED', verdict: 'ACCEPTED', reason: null });
    expect(accepted.record).toMatch(ARTIFACT_URI);
    expect(accepted.statement).toMatch(/^the given 2-variable, 2-row minimization has optimal value 8, attained at the given x/);
    const record = await readArtifact(connection.client, accepted.record as string);
    expect(JSON.stringify(record)).toContain('lp.certificate.verify');
    // A feasible but worse point (a = 3, b = 1, value 11) with the same duals: c·x = 11 ≠ dual objective 8.
    const gap = await verify('lp.certificate.verify', { claim: { problem: diet, ...dietOptimal, objective_value: 11, primal: { a: 3, b: 1 } } });
    expect(gap).toMatchObject({ level: 'COMPUTED', verdict: 'REJECTED', reason: 'DUAL_OBJECTIVE_MISMATCH', record: null });
    expect(gap.message).toContain('duality gap of 3');
  });

  it('verifies an agent\'s Farkas certificate, rejects zero multipliers, and refuses a problem_uri that is not an LP problem', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    // a ≤ 3 and b ≤ 1 (bounds) against a + b ≥ 5.
    const system = { sense: 'minimize', variables: [{ name: 'a', upper: 3 }, { name: 'b', upper: 1 }], objective: {}, constraints: [{ name: 'need', coefficients: { a: 1, b: 1 }, relation: '>=', rhs: 5 }] };
    expect(await verify('lp.farkas.verify', { problem: system, farkas: { need: 1 } })).toMatchObject({ level: 'VERIFIED', verdict: 'ACCEPTED' });
    expect(await verify('lp.farkas.verify', { problem: system, farkas: {} })).toMatchObject({ level: 'COMPUTED', verdict: 'REJECTED', reason: 'FARKAS_NOT_STRICT' });
    expect(await verify('lp.certificate.verify', { claim: { problem: system, outcome: 'INFEASIBLE', farkas: { need: -1 } } })).toMatchObject({ verdict: 'REJECTED', reason: 'FARKAS_SIGN' });

    const { result: put } = await mathRun(connection.client, { capability_id: 'artifact.put', mode: 'EXPLORE', payload: { schema_uri: 'urn:example:lp/v1', semantics_uri: 'urn:example:lp/v1', payload: system } });
    const uri = (put.output as { artifact_uri: string }).artifact_uri;
    const { result } = await mathRun(connection.client, { capability_id: 'lp.farkas.verify', mode: 'VERIFY', payload: { problem_uri: uri, farkas: { need: 1 } } });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'problem_uri'] });
  });
});
