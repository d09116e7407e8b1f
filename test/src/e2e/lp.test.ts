/**
 * Exact linear programming end to end, through MCP on the real `jacobian` command: lp.solve on
 * HiGHS's start and our exact simplex, its OPTIMAL and INFEASIBLE certificates checked here by
 * hand in exact arithmetic, and the stored claim read back in the shared claim form; and
 * polytope.separate on the same exact LP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LpCertificateClaimSchema, makeRational, RATIONALS, type Rational } from '@jacobian/shared';
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

function q(text: string | undefined): Rational {
  const [num = '0', den = '1'] = (text ?? '0').split('/');
  return makeRational(BigInt(num), BigInt(den));
}

interface Solved {
  outcome: string;
  objective_value: string | null;
  primal: Record<string, string> | null;
  dual: Record<string, string> | null;
  reduced_costs: Record<string, string> | null;
  farkas: Record<string, string> | null;
  result_uri: string | null;
  engine: { provider: string; float_phase: string | null; started_from_float_basis: boolean; exact_pivots: number };
}

async function solve(payload: Record<string, unknown>): Promise<Solved> {
  const { result } = await mathRun(connection.client, { capability_id: 'lp.solve', mode: 'EXPLORE', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return result.output as Solved;
}

describe('exact linear programming through MCP', () => {
  it('lp.solve is served by HiGHS with our exact simplex, and found by the words of the field', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const inspected = await mathFind(connection.client, { capability_id: 'lp.solve', view: 'CONTRACT' });
    expect((inspected.response.capability as { provider: { name: string } } | null)?.provider.name).toBe('highs');
    const found = await mathFind(connection.client, { query: 'shadow prices of a linear program' });
    expect(found.response.matches.map((m) => m['capability_id'])).toContain('lp.solve');
  });

  it('OPTIMAL: primal feasible, dual feasible, equal objectives, checked here; the claim stored', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const rows = [
      { name: 'a', coefficients: { x: 1 }, relation: '<=', rhs: 4 },
      { name: 'b', coefficients: { y: 2 }, relation: '<=', rhs: 12 },
      { name: 'c', coefficients: { x: 3, y: 2 }, relation: '<=', rhs: 18 },
    ];
    const out = await solve({ problem: { sense: 'maximize', variables: [{ name: 'x' }, { name: 'y' }], objective: { x: 3, y: 5 }, constraints: rows } });
    expect(out).toMatchObject({ outcome: 'OPTIMAL', objective_value: '36', primal: { x: '2', y: '6' } });
    expect(out.engine).toMatchObject({ provider: 'highs', started_from_float_basis: true });
    // Maximize, ≤ rows: y ≥ 0; reduced costs c − Aᵀy are 0 (x, y > 0 have no upper bounds); b·y = 36.
    const y = out.dual ?? {};
    for (const row of rows) expect(q(y[row.name]).num >= 0n).toBe(true);
    const Aty = (name: 'x' | 'y'): Rational => rows.reduce((s, row) => RATIONALS.add(s, RATIONALS.mul(q(y[row.name]), q(String((row.coefficients as Record<string, number>)[name] ?? 0)))), RATIONALS.zero);
    expect(Aty('x')).toEqual(q('3'));
    expect(Aty('y')).toEqual(q('5'));
    expect(rows.reduce((s, row) => RATIONALS.add(s, RATIONALS.mul(q(y[row.name]), q(String(row.rhs)))), RATIONALS.zero)).toEqual(q('36'));
    expect(out.result_uri).toMatch(ARTIFACT_URI);
    const claim = LpCertificateClaimSchema.parse((await readArtifact(connection.client, out.result_uri as string)).payload);
    expect(claim).toMatchObject({ outcome: 'OPTIMAL', objective_value: '36', relaxation: false, dual: y });
  });

  it('INFEASIBLE: a Farkas certificate, checked here', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const out = await solve({ problem: { sense: 'minimize', variables: [{ name: 'x', upper: 1 }, { name: 'y', upper: 1 }], objective: { x: 1 }, constraints: [{ name: 'r', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 3 }] } });
    expect(out.outcome).toBe('INFEASIBLE');
    // y_r ≥ 0 on the ≥ row; g = y_r·(1, 1) is maximized over the box at (1, 1): 2·y_r < 3·y_r.
    const yr = q(out.farkas?.['r']);
    expect(yr.num > 0n).toBe(true);
  });

  it('polytope.separate: the unit square against an outside point, separated by x ≤ 1', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const { result } = await mathRun(connection.client, { capability_id: 'polytope.separate', mode: 'EXPLORE', payload: { point: [2, '1/2'], vertices: [[0, 0], [1, 0], [0, 1], [1, 1]] } });
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(result.output).toMatchObject({ outcome: 'SEPARATED', hyperplane: { normal: ['1', '0'], offset: '1' } });
  });
});
