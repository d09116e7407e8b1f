/**
 * The LP pack as one pipeline, through MCP on the real `jacobian` command: a problem read from
 * free MPS text by lp.problem.construct, solved by lp.solve from its problem_uri, and the stored
 * certificate claim VERIFIED by the independent lp.certificate.verify from its result_uri — for
 * each outcome (OPTIMAL, INFEASIBLE, UNBOUNDED), for the LP relaxation of an integer program
 * (scoped to the relaxation), and for seeded random LPs of each outcome.
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

async function run(capabilityId: string, mode: 'EXPLORE' | 'VERIFY', payload: Record<string, unknown>): Promise<{ output: Record<string, unknown>; level: string; statement: string | undefined }> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode, payload });
  expect(result.execution.status, `${capabilityId}: ${JSON.stringify(result.diagnostics)}`).toBe('COMPLETED');
  return { output: result.output as Record<string, unknown>, level: result.assurance.level, statement: result.scope?.statement };
}

/** Solve, then verify the stored claim: the outcome and the checker's verdict. */
async function solveAndVerify(problem: Record<string, unknown>): Promise<{ outcome: unknown; verdict: unknown; level: string; statement: string | undefined }> {
  const solved = await run('lp.solve', 'EXPLORE', problem);
  expect(solved.output['result_uri']).toMatch(ARTIFACT_URI);
  const checked = await run('lp.certificate.verify', 'VERIFY', { result_uri: solved.output['result_uri'] });
  return { outcome: solved.output['outcome'], verdict: checked.output['verdict'], level: checked.level, statement: checked.statement };
}

// max 3x + 2y s.t. x + y ≤ 4, x + 3y ≤ 6, x ≤ 3: optimum (3, 1), value 11.
const MPS = `NAME          PIPE
OBJSENSE
    MAX
ROWS
 N  obj
 L  c1
 L  c2
COLUMNS
    x  obj  3  c1  1
    x  c2  1
    y  obj  2  c1  1
    y  c2  3
RHS
    rhs  c1  4  c2  6
BOUNDS
 UP bnd  x  3
ENDATA
`;

/** A seeded generator (xorshift32), so that the random LPs are the same on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
}

describe('lp.problem.construct → lp.solve → lp.certificate.verify', () => {
  it('an MPS problem solved from its problem_uri, its optimality certificate VERIFIED from result_uri', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const constructed = await run('lp.problem.construct', 'EXPLORE', { mps_text: MPS });
    expect(constructed.output['problem_uri']).toMatch(ARTIFACT_URI);
    const solved = await run('lp.solve', 'EXPLORE', { problem_uri: constructed.output['problem_uri'] });
    expect(solved.output).toMatchObject({ outcome: 'OPTIMAL', objective_value: '11', primal: { x: '3', y: '1' } });
    const checked = await run('lp.certificate.verify', 'VERIFY', { result_uri: solved.output['result_uri'] });
    expect(checked).toMatchObject({ level: 'VERIFIED', output: { verdict: 'ACCEPTED' } });
    expect(checked.statement).toMatch(/optimal value 11/);
  });

  it('INFEASIBLE and UNBOUNDED answers carry certificates the checker VERIFIES', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const infeasible = { sense: 'minimize', variables: [{ name: 'x', upper: 2 }, { name: 'y', lower: null, upper: 1 }], objective: { x: 1 }, constraints: [{ name: 'r', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: '7/2' }] };
    expect(await solveAndVerify({ problem: infeasible })).toMatchObject({ outcome: 'INFEASIBLE', verdict: 'ACCEPTED', level: 'VERIFIED' });
    const unbounded = { sense: 'maximize', variables: [{ name: 'x' }, { name: 'y', lower: null }], objective: { x: 1, y: '-1/2' }, constraints: [{ name: 'r', coefficients: { x: 1, y: -1 }, relation: '<=', rhs: 1 }] };
    expect(await solveAndVerify({ problem: unbounded })).toMatchObject({ outcome: 'UNBOUNDED', verdict: 'ACCEPTED', level: 'VERIFIED' });
  });

  it('the relaxation of an integer program: VERIFIED as the LP relaxation only', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const knapsack = { sense: 'maximize', variables: ['a', 'b', 'c'].map((name) => ({ name, upper: 1, integer: true })), objective: { a: 5, b: 4, c: 3 }, constraints: [{ name: 'weight', coefficients: { a: 2, b: 3, c: 1 }, relation: '<=', rhs: 4 }] };
    const result = await solveAndVerify({ problem: knapsack, relaxation: true });
    expect(result).toMatchObject({ outcome: 'OPTIMAL', verdict: 'ACCEPTED', level: 'VERIFIED' });
    expect(result.statement).toMatch(/LP relaxation/);
  });

  it('seeded random LPs: every certificate lp.solve stores is VERIFIED by the checker', { timeout: 4 * E2E_TEST_TIMEOUT_MS }, async () => {
    const random = generator(34);
    const integer = (bound: number): number => Math.floor(random() * (2 * bound + 1)) - bound;
    const outcomes = new Set<unknown>();
    for (let trial = 0; trial < 12; trial++) {
      const n = 2 + (trial % 4);
      const m = 1 + (trial % 3);
      const variables = Array.from({ length: n }, (_, j) => ({ name: `x${j}`, lower: random() < 0.2 ? null : integer(2), ...(random() < 0.5 ? { upper: 3 + integer(3) + 3 } : {}) }));
      const constraints = Array.from({ length: m }, (_, i) => ({
        name: `r${i}`,
        coefficients: Object.fromEntries(variables.map((v) => [v.name, `${integer(5)}/${1 + Math.floor(random() * 3)}`])),
        relation: (['<=', '=', '>='] as const)[Math.floor(random() * 3)],
        rhs: integer(6),
      }));
      const problem = { sense: random() < 0.5 ? 'minimize' : 'maximize', variables, objective: Object.fromEntries(variables.map((v) => [v.name, integer(4)])), constraints };
      const result = await solveAndVerify({ problem });
      expect(result, JSON.stringify(problem)).toMatchObject({ verdict: 'ACCEPTED', level: 'VERIFIED' });
      outcomes.add(result.outcome);
    }
    expect(outcomes.size).toBeGreaterThan(1);
  });
});
