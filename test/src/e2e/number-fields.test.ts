/**
 * Number fields and elliptic curves over Q end to end, through MCP on the real `jacobian` command
 * (PARI/GP only: skipped where gp is not installed, where the capabilities are absent from the
 * catalog): class numbers with the GRH qualifier and its certified form, field invariants, the
 * conductor and minimal model of a curve, its torsion verified by the checker (and a tampered
 * claim rejected), and rank bounds with their points checked here on the curve.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOnCurve, parseRational, weierstrassOf } from '@jacobian/shared';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { mathFind, mathRun } from '../support/tools.js';

const GP_INSTALLED = ['/usr/bin/gp', '/usr/local/bin/gp'].some((file) => existsSync(file));

describe.skipIf(!GP_INSTALLED)('number fields and elliptic curves through MCP', () => {
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

  async function run<O>(capabilityId: string, payload: Record<string, unknown>, mode: 'EXPLORE' | 'VERIFY' = 'EXPLORE') {
    const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode, payload });
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    return { output: result.output as O, result };
  }

  it('the producers are on PARI/GP, the checker on ours, and each is found by the words of the field', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const [id, provider] of [
      ['number_field.invariants.compute', 'pari-gp'],
      ['number_field.class_group.compute', 'pari-gp'],
      ['elliptic_curve.invariants.compute', 'pari-gp'],
      ['elliptic_curve.torsion.compute', 'pari-gp'],
      ['elliptic_curve.rank.bound', 'pari-gp'],
      ['elliptic_curve.claim.verify', 'jacobian-checker-ts'],
    ] as const) {
      const inspected = await mathFind(connection.client, { capability_id: id, view: 'CONTRACT' });
      expect((inspected.response.capability as { provider: { name: string } } | null)?.provider.name, id).toBe(provider);
    }
    const found = await mathFind(connection.client, { query: 'class number of an imaginary quadratic field', limit: 3 });
    expect(found.response.matches.map((m) => m['capability_id'])).toContain('number_field.class_group.compute');
    const curve = await mathFind(connection.client, { query: 'conductor of an elliptic curve', limit: 3 });
    expect(curve.response.matches.map((m) => m['capability_id'])).toContain('elliptic_curve.invariants.compute');
  });

  it('class numbers: Q(√−5) = 2 under GRH, then certified; Q(√−23) = 3; a cubic field\'s invariants', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const conditional = await run<{ class_number: string; grh_assumed: boolean }>('number_field.class_group.compute', { polynomial: [1, 0, 5] });
    expect(conditional.output).toMatchObject({ class_number: '2', grh_assumed: true });
    expect(conditional.result.assurance).toMatchObject({ level: 'COMPUTED' });
    expect(conditional.result.obligations).toEqual([expect.objectContaining({ id: 'grh', status: 'OPEN' })]);
    const certified = await run<{ class_number: string; grh_assumed: boolean; certified: boolean }>('number_field.class_group.compute', { polynomial: [1, 0, 5], certify: true });
    expect(certified.output).toMatchObject({ class_number: '2', grh_assumed: false, certified: true });
    expect(certified.result.obligations).toEqual([]);
    expect((await run<{ class_number: string }>('number_field.class_group.compute', { polynomial: [1, 0, 23] })).output.class_number).toBe('3');
    // The cubic field of discriminant −23 (x³ − x − 1): complex cubic, signature (1, 1).
    const cubic = await run<{ discriminant: string; signature: { r1: number; r2: number } }>('number_field.invariants.compute', { polynomial: [1, 0, -1, -1] });
    expect(cubic.output).toMatchObject({ discriminant: '-23', signature: { r1: 1, r2: 1 } });
  });

  it('a reducible polynomial and a singular curve are refused naming the rule', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const reducible = await mathRun(connection.client, { capability_id: 'number_field.invariants.compute', mode: 'EXPLORE', payload: { polynomial: [1, 0, -9] } });
    expect(reducible.result.execution.status).toBe('ERROR');
    expect(JSON.stringify(reducible.result.diagnostics)).toMatch(/irreducible/);
    const singular = await mathRun(connection.client, { capability_id: 'elliptic_curve.invariants.compute', mode: 'EXPLORE', payload: { curve: [0, 0, 0, 0, 0] } });
    expect(singular.result.execution.status).toBe('ERROR');
    expect(JSON.stringify(singular.result.diagnostics)).toMatch(/non-singular/);
  });

  it('389a1: conductor 389; torsion of 210e2 Z/2 × Z/8 VERIFIED by the checker, a tampered generator REJECTED; rank 2 with its points on the curve', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const invariants = await run<{ conductor: string; minimal_model: { coefficients: string[] } }>('elliptic_curve.invariants.compute', { curve: [0, 1, 1, -2, 0] });
    expect(invariants.output).toMatchObject({ conductor: '389', minimal_model: { coefficients: ['0', '1', '1', '-2', '0'] } });
    // A non-minimal model with fractions: its change to the minimal model VERIFIED by the checker.
    const scaled = await run<{ minimal_model: { coefficients: string[] }; result_uri: string }>('elliptic_curve.invariants.compute', { curve: ['1/2', '1/3', 0, 3, 1] });
    expect((await run<{ verdict: string }>('elliptic_curve.claim.verify', { result_uri: scaled.output.result_uri }, 'VERIFY')).output.verdict).toBe('ACCEPTED');

    const torsion = await run<{ structure_text: string; result_uri: string; generators: string[][] }>('elliptic_curve.torsion.compute', { curve: [1, 0, 0, -1070, 7812] });
    expect(torsion.output.structure_text).toBe('Z/2 × Z/8');
    const verified = await run<{ verdict: string }>('elliptic_curve.claim.verify', { result_uri: torsion.output.result_uri }, 'VERIFY');
    expect(verified.output.verdict).toBe('ACCEPTED');
    expect(verified.result.assurance.level).toBe('VERIFIED');
    const [g8, g2] = torsion.output.generators;
    const tampered = await run<{ verdict: string; reason_code: string }>('elliptic_curve.claim.verify', { claim: { curve: [1, 0, 0, -1070, 7812], torsion: { structure: [8, 2], generators: [g8, g8] } } }, 'VERIFY');
    expect(tampered.output).toMatchObject({ verdict: 'REJECTED', reason_code: 'WRONG_ORDER' });
    expect(g2).toHaveLength(2);

    const rank = await run<{ rank: number | null; rank_lower_bound: number; rank_upper_bound: number; points: string[][]; result_uri: string | null }>('elliptic_curve.rank.bound', { curve: [0, 1, 1, -2, 0] });
    expect(rank.output).toMatchObject({ rank: 2, rank_lower_bound: 2, rank_upper_bound: 2 });
    expect(rank.result.qualifiers).toContain('BOUNDED');
    const a = weierstrassOf(['0', '1', '1', '-2', '0']);
    for (const [x, y] of rank.output.points) expect(isOnCurve(a, { x: parseRational(x as string)!, y: parseRational(y as string)! })).toBe(true);
    if (rank.output.result_uri !== null) expect((await run<{ verdict: string }>('elliptic_curve.claim.verify', { result_uri: rank.output.result_uri }, 'VERIFY')).output.verdict).toBe('ACCEPTED');
  });
});
