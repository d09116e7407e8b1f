/**
 * The counting capabilities through MCP on the real `jacobian` command: found by the words an
 * agent uses, answering OEIS values exactly with their method, and a request over a limit
 * answered with INVALID_REQUEST at the field, naming the rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { errorDiagnostic, mathFind, mathRun } from '../support/tools.js';

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

const output = async (capability_id: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> => {
  const { result } = await mathRun(connection.client, { capability_id, mode: 'EXPLORE', payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(result.assurance.level).toBe('COMPUTED');
  return result.output as Record<string, unknown>;
};

describe('counting through MCP', () => {
  it('is found by the words of the field', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const [query, id] of [
      ['Stirling numbers of the second kind', 'combinatorics.stirling.compute'],
      ['partitions into distinct parts', 'combinatorics.partition.count'],
      ['Catalan numbers and Dyck paths', 'combinatorics.number.compute'],
    ] as const) {
      const found = await mathFind(connection.client, { query, limit: 3 });
      expect(found.response.matches.map((m) => m['capability_id'])).toContain(id);
    }
  });

  it('answers OEIS values exactly, with the method', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    expect(await output('combinatorics.number.compute', { kind: 'bell', n: 15, table: true })).toMatchObject({
      values: ['1', '1', '2', '5', '15', '52', '203', '877', '4140', '21147', '115975', '678570', '4213597', '27644437', '190899322', '1382958545'],
      method: expect.stringMatching(/Bell \(Aitken\) triangle/) as unknown,
    });
    expect(await output('combinatorics.number.compute', { kind: 'catalan', n: 20 })).toMatchObject({ value: '6564120420' });
    expect(await output('combinatorics.number.compute', { kind: 'derangement', n: 12 })).toMatchObject({ value: '176214841' });
    expect(await output('combinatorics.partition.count', { n: 1000 })).toMatchObject({ value: '24061467864032622473692149727991', method: expect.stringMatching(/pentagonal/) as unknown });
    expect(await output('combinatorics.partition.count', { n: 30, distinct: true })).toMatchObject({ value: '296' });
    expect(await output('combinatorics.stirling.compute', { kind: 'second', n: 7 })).toMatchObject({ values: ['0', '1', '63', '301', '350', '140', '21', '1'] });
    expect(await output('combinatorics.stirling.compute', { kind: 'first_signed', n: 6, k: 2 })).toMatchObject({ value: '274' });
    expect(await output('combinatorics.binomial.compute', { n: 100, k: 50 })).toMatchObject({ value: '100891344545564193334812497256' });
    expect(await output('combinatorics.composition.count', { n: 12, parts_in: [1, 2] })).toMatchObject({ value: '233' });
  });

  it('refuses a request over a limit at the field, naming the rule', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const { result } = await mathRun(connection.client, { capability_id: 'combinatorics.number.compute', mode: 'EXPLORE', payload: { kind: 'bell', n: 5000 } });
    expect(result.execution.status).toBe('ERROR');
    const error = errorDiagnostic(result, 'INVALID_REQUEST');
    expect(error.path).toEqual(['payload', 'n']);
    expect(error.message).toMatch(/rule: n-limit/);
  });
});
