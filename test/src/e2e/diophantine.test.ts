/**
 * The Diophantine pack end to end, through MCP on the real `jacobian` command: continued
 * fractions, Pell's equation, integer linear systems, binary quadratic forms and imaginary class
 * groups found by a mathematician's words and run; their stored claims VERIFIED by
 * diophantine.claim.verify (by result_uri), and a tampered claim REJECTED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { ARTIFACT_URI, mathFind, mathRun } from '../support/tools.js';

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

async function explore<O>(capabilityId: string, payload: Record<string, unknown>): Promise<O> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode: 'EXPLORE', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(result.assurance.level).toBe('COMPUTED');
  return result.output as O;
}

async function verify(payload: Record<string, unknown>): Promise<{ level: string; verdict: string; reason: string | null }> {
  const { result } = await mathRun(connection.client, { capability_id: 'diophantine.claim.verify', mode: 'VERIFY', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  const output = result.output as { verdict: string; reason_code: string | null };
  return { level: result.assurance.level, verdict: output.verdict, reason: output.reason_code };
}

describe('the Diophantine pack through MCP', () => {
  it('is found by the words of the field', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const queries: [string, string][] = [
      ["fundamental solution of Pell's equation", 'diophantine.pell_equation.solve'],
      ['convergents of a continued fraction', 'diophantine.continued_fraction.compute'],
      ['class number of an imaginary quadratic field', 'quadratic_form.class_group.compute'],
      ['reduced binary quadratic form', 'quadratic_form.reduce'],
      ['integer solutions of a linear Diophantine system', 'diophantine.linear_system.solve'],
    ];
    for (const [query, id] of queries) {
      const found = await mathFind(connection.client, { query, limit: 5 });
      expect(found.response.matches.map((m) => m['capability_id']), query).toContain(id);
    }
  });

  it('continued fraction of √7 with its convergents', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const out = await explore<{ notation: string; convergents: { p: string; q: string }[] }>('diophantine.continued_fraction.compute', { number: { kind: 'quadratic', P: 0, D: 7, Q: 1 }, convergents: 4 });
    expect(out.notation).toBe('[2; (1, 1, 1, 4)]');
    // 8/3: 8² − 7·3² = 1.
    expect(out.convergents.at(-1)).toEqual({ p: '8', q: '3' });
  });

  it('Pell D = 61: the fundamental solution, checked here, VERIFIED by the checker from the stored claim', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const out = await explore<{ plus: { x: string; y: string }; minus: { x: string; y: string } | null; result_uri: string }>('diophantine.pell_equation.solve', { D: 61 });
    const [x, y] = [BigInt(out.plus.x), BigInt(out.plus.y)];
    expect(x * x - 61n * y * y).toBe(1n);
    expect(out.result_uri).toMatch(ARTIFACT_URI);
    expect(await verify({ result_uri: out.result_uri })).toEqual({ level: 'VERIFIED', verdict: 'ACCEPTED', reason: null });
    // The same claim with the square of the solution is rejected: not fundamental.
    const square = { x: (x * x + 61n * y * y).toString(), y: (2n * x * y).toString() };
    expect(await verify({ claim: { kind: 'PELL', D: '61', plus: square, minus: out.minus === null ? null : { x: out.minus.x, y: out.minus.y } } })).toEqual({ level: 'COMPUTED', verdict: 'REJECTED', reason: 'NOT_FUNDAMENTAL' });
  });

  it('every Pell claim for D = 2..50 and every class number for −3 ≥ D ≥ −200 is VERIFIED by the checker', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (let D = 2; D <= 50; D++) {
      if (Number.isInteger(Math.sqrt(D))) continue;
      const out = await explore<{ result_uri: string }>('diophantine.pell_equation.solve', { D });
      expect((await verify({ result_uri: out.result_uri })).level, `D = ${D}`).toBe('VERIFIED');
    }
    for (let D = -3; D >= -200; D--) {
      if (((D % 4) + 4) % 4 > 1) continue;
      const out = await explore<{ result_uri: string }>('quadratic_form.class_group.compute', { discriminant: D });
      expect((await verify({ result_uri: out.result_uri })).level, `D = ${D}`).toBe('VERIFIED');
    }
  });

  it('equivalence answers for indefinite and definite pairs, either way, are VERIFIED by the checker\'s own reduction and cycles', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const pairs: [number[], number[]][] = [
      [[1, 5, -3], [-3, 5, 1]],
      [[1, 0, -3], [-1, 0, 3]],
      [[1, 5, -3], [-1, -5, 3]],
      [[2, 1, -5], [-2, 1, 5]],
      [[3, 5, 7], [3, -1, 5]],
      [[2, 1, 3], [2, -1, 3]],
      [[5, 11, -7], [7, 3, -5]],
    ];
    const seen = new Set<boolean>();
    for (const [f, g] of pairs) {
      const out = await explore<{ equivalent: boolean; result_uri: string }>('quadratic_form.equivalence.decide', { f, g });
      seen.add(out.equivalent);
      expect((await verify({ result_uri: out.result_uri })).level, `${f.join(",")} ~ ${g.join(",")}: ${String(out.equivalent)}`).toBe('VERIFIED');
    }
    expect([...seen].sort()).toEqual([false, true]);
  });

  it('class group of −3299 (Z/3 × Z/9) and its class number VERIFIED by the checker\'s own count', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const out = await explore<{ class_number: string; invariants: string[]; result_uri: string }>('quadratic_form.class_group.compute', { discriminant: -3299 });
    expect(out).toMatchObject({ class_number: '27', invariants: ['3', '9'] });
    expect((await verify({ result_uri: out.result_uri })).level).toBe('VERIFIED');
  });

  it('form reduction and integer systems (SOLVED with K W = I, NONE with y) VERIFIED', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const reduced = await explore<{ reduced: string[]; result_uri: string }>('quadratic_form.reduce', { form: [33, 71, 39] });
    expect((await verify({ result_uri: reduced.result_uri })).level).toBe('VERIFIED');
    const solved = await explore<{ outcome: string; result_uri: string }>('diophantine.linear_system.solve', { matrix: { ring: { kind: 'Z' }, rows: [[6, 10, 15], [1, 2, 3]] }, rhs: [1, 7] });
    expect(solved.outcome).toBe('SOLVED');
    expect((await verify({ result_uri: solved.result_uri })).level).toBe('VERIFIED');
    const none = await explore<{ outcome: string; result_uri: string }>('diophantine.linear_system.solve', { matrix: { ring: { kind: 'Z' }, rows: [[4, 6], [2, 8]] }, rhs: [1, 2] });
    expect(none.outcome).toBe('NONE');
    expect((await verify({ result_uri: none.result_uri })).level).toBe('VERIFIED');
  });
});
