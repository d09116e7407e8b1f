/**
 * Evidence that crosses packs, end to end through MCP on `jacobian serve`: a countermodel search
 * that finds none keeps CaDiCaL's DRAT refutation of its CNF, and the SAT pack's own DRAT checker
 * (no CaDiCaL involved) verifies that stored proof.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { ARTIFACT_URI, mathRun } from '../support/tools.js';

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

const GROUP = {
  signature: {
    operations: [
      { name: '*', arity: 2, infix: true },
      { name: 'e', arity: 0 },
      { name: 'i', arity: 1 },
    ],
    variables: ['x', 'y', 'z'],
  },
  laws: ['x * (y * z) = (x * y) * z', 'e * x = x', 'i(x) * x = e'],
};

describe('a countermodel search\'s refutation, checked by the SAT pack', () => {
  it('every group of order 3 is abelian: NO_WITNESS_FOUND keeps a DRAT proof that sat.unsat_proof.verify verifies', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const { result } = await mathRun(connection.client, { capability_id: 'universal_algebra.search.countermodel', mode: 'EXPLORE', payload: { ...GROUP, target: 'x * y = y * x', order: 3 } });
    expect(result.execution.status).toBe('COMPLETED');
    const output = result.output as { status: string; orders: { order: number; evidence: { drat_uri: string | null } | null }[] };
    expect(output.status).toBe('NO_WITNESS_FOUND');
    const proofUri = output.orders.find((o) => o.order === 3)?.evidence?.drat_uri;
    expect(proofUri).toMatch(ARTIFACT_URI);
    expect(result.obligations.find((o) => o.id === 'drat-proof-check')?.statement).toContain('sat.unsat_proof.verify');

    const verified = await mathRun(connection.client, { capability_id: 'sat.unsat_proof.verify', mode: 'VERIFY', payload: { proof_uri: proofUri } });
    expect(verified.result.execution.status, JSON.stringify(verified.result.diagnostics)).toBe('COMPLETED');
    expect(verified.result.assurance.level).toBe('VERIFIED');
  });
});
