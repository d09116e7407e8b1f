/**
 * Linear programs stored through MCP on the real `jacobian` command: lp.problem.construct found by
 * the words an agent uses, reading CPLEX LP and free MPS text to one canonical artifact (read back
 * through the artifact resource), and a bad text answered with an error naming its line, column
 * and rule at the text field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LpProblemSchema } from '@jacobian/shared';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { ARTIFACT_URI, errorDiagnostic, mathFind, mathRun, readArtifact } from '../support/tools.js';

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

const LP_TEXT = 'Maximize\n obj: 3 x + 2 y\nSubject To\n c1: x + y <= 4\n c2: x + 3 y <= 6\nBounds\n x <= 3\nEnd\n';
const MPS_TEXT = 'NAME small\nOBJSENSE\n MAX\nROWS\n N obj\n L c1\n L c2\nCOLUMNS\n x obj 3 c1 1\n x c2 1\n y obj 2 c1 1\n y c2 3\nRHS\n RHS c1 4 c2 6\nBOUNDS\n UP BND x 3\nENDATA\n';

describe('lp.problem.construct through MCP', () => {
  it('is found for "read an MPS file", and stores LP and MPS text of one problem as one canonical artifact', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const found = await mathFind(connection.client, { query: 'read an MPS file', limit: 3 });
    expect(found.response.matches.map((m) => m['capability_id'])).toContain('lp.problem.construct');
    const fromLp = await mathRun(connection.client, { capability_id: 'lp.problem.construct', mode: 'EXPLORE', payload: { lp_text: LP_TEXT } });
    const fromMps = await mathRun(connection.client, { capability_id: 'lp.problem.construct', mode: 'EXPLORE', payload: { mps_text: MPS_TEXT } });
    for (const { result } of [fromLp, fromMps]) expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    const uri = (fromLp.result.output as { problem_uri: string }).problem_uri;
    expect(uri).toMatch(ARTIFACT_URI);
    expect((fromMps.result.output as { problem_uri: string }).problem_uri).toBe(uri);
    const stored = await readArtifact(connection.client, uri);
    const problem = LpProblemSchema.parse(stored.payload);
    expect(problem).toMatchObject({ sense: 'maximize', objective: { x: '3', y: '2' }, constraints: [{ name: 'c1', rhs: '4' }, { name: 'c2', rhs: '6' }] });
    expect(problem.variables).toEqual([
      { name: 'x', lower: '0', upper: '3', integer: false },
      { name: 'y', lower: '0', upper: null, integer: false },
    ]);
  });

  it('answers a bad text with INVALID_REQUEST at the text field, naming line, column and rule', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const { result } = await mathRun(connection.client, { capability_id: 'lp.problem.construct', mode: 'EXPLORE', payload: { mps_text: MPS_TEXT.replace(' UP BND x 3', ' UP BND z 3') } });
    expect(result.execution.status).toBe('ERROR');
    const error = errorDiagnostic(result, 'INVALID_REQUEST');
    expect(error.path).toEqual(['payload', 'mps_text']);
    expect(error.message).toMatch(/line 16, column 9: "z" is not a column of COLUMNS \(rule unknown-name\)/);
  });
});
