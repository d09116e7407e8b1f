/**
 * Mixed-integer programs end to end, through MCP on the real `jacobian` command: milp.solve is
 * listed with the solver that serves it (the first healthy of CBC and GLPK), found by the words
 * of the field, and answers a knapsack with an exactly checked incumbent, integer programs whose
 * LP relaxation is feasible as INFEASIBLE (the solver's claim, COMPUTED; or exactly, by a gcd),
 * and fractional data exactly.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { mathFind, mathRun } from '../support/tools.js';

const SOLVER = existsSync('/usr/bin/cbc') ? 'cbc' : existsSync('/usr/bin/glpsol') ? 'glpk' : null;

let jacobian: JacobianFixture;
let connection: Connection;

beforeAll(async () => {
  if (SOLVER === null) return;
  jacobian = await startJacobian();
  connection = await jacobian.connect({ transport: 'http', era: 'modern' });
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await connection?.close();
  await jacobian?.close();
}, HOOK_TIMEOUT_MS);

interface MilpOutput {
  status: string;
  objective: string | null;
  solution: Record<string, string> | null;
  incumbent_check: { verified: boolean } | null;
  solver: { said: string; bound: number | null } | null;
  engine: { provider: string };
}

async function solve(payload: Record<string, unknown>): Promise<{ output: MilpOutput; level: string; basis: string }> {
  const { result } = await mathRun(connection.client, { capability_id: 'milp.solve', mode: 'EXPLORE', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return { output: result.output as MilpOutput, level: result.assurance.level, basis: result.assurance.basis };
}

describe.skipIf(SOLVER === null)('mixed-integer programs through MCP', () => {
  it('is listed with its solver and found as an integer program', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const inspected = await mathFind(connection.client, { capability_id: 'milp.solve', view: 'CONTRACT' });
    expect((inspected.response.capability as { provider: { name: string } } | null)?.provider.name).toBe(SOLVER);
    const found = await mathFind(connection.client, { query: 'integer linear programming knapsack', limit: 3 });
    expect(found.response.matches.map((m) => m['capability_id'])).toContain('milp.solve');
  });

  it('a knapsack: OPTIMAL, the incumbent exactly feasible, optimality the solver’s claim', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const weights = [12, 7, 11, 8, 9, 6, 5, 14];
    const values = [24, 13, 23, 15, 16, 11, 9, 27];
    const names = weights.map((_, j) => `item${j}`);
    // Brute force over the 256 subsets: the optimum the solver must reach.
    let best = 0;
    for (let mask = 0; mask < 1 << names.length; mask++) {
      const pick = names.map((_, j) => (mask >> j) & 1);
      if (pick.reduce((s, p, j) => s + p * (weights[j] as number), 0) <= 30) best = Math.max(best, pick.reduce((s, p, j) => s + p * (values[j] as number), 0));
    }
    const problem = {
      sense: 'maximize',
      variables: names.map((name) => ({ name, upper: 1, integer: true })),
      objective: Object.fromEntries(names.map((name, j) => [name, values[j] as number])),
      constraints: [{ name: 'capacity', coefficients: Object.fromEntries(names.map((name, j) => [name, weights[j] as number])), relation: '<=', rhs: 30 }],
    };
    const { output, level, basis } = await solve({ problem });
    expect(output).toMatchObject({ status: 'OPTIMAL', objective: String(best), incumbent_check: { verified: true }, engine: { provider: SOLVER } });
    const chosen = names.filter((name) => output.solution?.[name] === '1');
    expect(chosen.reduce((s, name) => s + (weights[names.indexOf(name)] as number), 0)).toBeLessThanOrEqual(30);
    expect(level).toBe('COMPUTED');
    expect(basis).toMatch(/not verified/);
  });

  it('INFEASIBLE when only the integers are infeasible: the solver’s claim, or exactly by a gcd; fractional data solved exactly', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    // 3x + 5y = 4 in [0, 3]²: the relaxation has x = 4/3; the solver decides.
    const claimed = await solve({ problem: { sense: 'minimize', variables: [{ name: 'x', upper: 3, integer: true }, { name: 'y', upper: 3, integer: true }], objective: { x: 1 }, constraints: [{ coefficients: { x: 3, y: 5 }, relation: '=', rhs: 4 }] } });
    expect(claimed.output).toMatchObject({ status: 'INFEASIBLE', solution: null, solver: { said: expect.any(String) as unknown } });
    expect(claimed.level).toBe('COMPUTED');
    expect(claimed.basis).toMatch(/no certificate/);
    // 6x + 9y = 4 over free integers: gcd 3 does not divide 4, decided before any solver runs.
    const exact = await solve({ problem: { sense: 'minimize', variables: [{ name: 'x', lower: null, integer: true }, { name: 'y', lower: null, integer: true }], objective: {}, constraints: [{ coefficients: { x: 6, y: 9 }, relation: '=', rhs: 4 }] } });
    expect(exact.output).toMatchObject({ status: 'INFEASIBLE', solver: null });
    // min x/2 + y with x integer, y ≥ 0, x + y ≥ 5/2, x ≤ 7/4 (so x ≤ 1): x = 1, y = 3/2, value 2 (x = 0 costs 5/2).
    const fractional = await solve({ problem: { sense: 'minimize', variables: [{ name: 'x', upper: '7/4', integer: true }, { name: 'y' }], objective: { x: '1/2', y: 1 }, constraints: [{ coefficients: { x: 1, y: 1 }, relation: '>=', rhs: '5/2' }] } });
    expect(fractional.output).toMatchObject({ status: 'OPTIMAL', objective: '2', solution: { x: '1', y: '3/2' } });
  });
});
