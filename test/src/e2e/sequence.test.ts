/**
 * Sequences end to end, through MCP on the real `jacobian` command: recurrence guessing on classic
 * sequences (each term computed here from its closed form), NONE where no recurrence of the
 * requested shape exists, extension, the OEIS transforms, the generating function, and the
 * guessed claim verified by the checker (and a one-term change rejected).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { mathFind, mathRun } from '../support/tools.js';

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

function binom(n: number, k: number): bigint {
  let c = 1n;
  for (let i = 0; i < k; i++) c = (c * BigInt(n - i)) / BigInt(i + 1);
  return c;
}
const upTo = (N: number, f: (n: number) => bigint): string[] => Array.from({ length: N }, (_, n) => f(n).toString());
const catalan = (n: number): bigint => binom(2 * n, n) / BigInt(n + 1);
const motzkin = (n: number): bigint => {
  let s = 0n;
  for (let k = 0; 2 * k <= n; k++) s += binom(n, 2 * k) * catalan(k);
  return s;
};
const apery = (n: number): bigint => {
  let s = 0n;
  for (let k = 0; k <= n; k++) s += (binom(n, k) * binom(n + k, k)) ** 2n;
  return s;
};
const franel = (n: number): bigint => {
  let s = 0n;
  for (let k = 0; k <= n; k++) s += binom(n, k) ** 3n;
  return s;
};
/** Derangements by inclusion–exclusion: Σ_k (−1)^k n!/k!. */
const derangements = (n: number): bigint => {
  let s = 0n;
  let term = 1n;
  for (let i = 1; i <= n; i++) term *= BigInt(i);
  for (let k = 0; k <= n; k++) {
    s += k % 2 === 0 ? term : -term;
    if (k < n) term /= BigInt(k + 1);
  }
  return s;
};

interface Guess {
  status: 'FOUND' | 'NONE';
  statement: string;
  recurrence: { kind: string; coefficients: unknown[]; valid_from: number } | null;
  spare: number;
  confirmed: boolean;
  solution_dimension: number;
  result_uri: string | null;
}

async function run(capabilityId: string, mode: 'EXPLORE' | 'VERIFY', payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { result } = await mathRun(connection.client, { capability_id: capabilityId, mode, payload });
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return result.output as Record<string, unknown>;
}
const guess = async (payload: Record<string, unknown>): Promise<Guess> => (await run('sequence.recurrence.guess', 'EXPLORE', payload)) as unknown as Guess;

describe('sequences through MCP', () => {
  it('is found by the words of the field', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const found = await mathFind(connection.client, { query: 'guess a linear recurrence Berlekamp-Massey' });
    expect(found.response.matches.map((m) => m['capability_id'])).toContain('sequence.recurrence.guess');
  });

  it('P-recursive guesses agree with the known recurrences, and the checker verifies them', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const [name, f, order, degree] of [
      ['Catalan', catalan, 1, 1],
      ['Motzkin', motzkin, 2, 1],
      ['Apéry', apery, 2, 3],
      ['Franel', franel, 2, 2],
      ['derangements', derangements, 2, 1],
    ] as const) {
      const terms = upTo(30, f);
      const found = await guess({ sequence: { terms }, kind: 'p-recursive', order, degree });
      expect(found.status, name).toBe('FOUND');
      expect(found.solution_dimension, name).toBe(1);
      expect(found.confirmed, name).toBe(true);
      // The guess extends to the next terms of the closed form (terms it never saw).
      const extended = await run('sequence.recurrence.evaluate', 'EXPLORE', { sequence: { terms: terms.slice(0, order + 1) }, recurrence: found.recurrence, count: 40 });
      expect(extended['terms'], name).toEqual(upTo(40, f));
      const checked = await run('sequence.recurrence.verify', 'VERIFY', { result_uri: found.result_uri });
      expect(checked['verdict'], name).toBe('ACCEPTED');
    }
    const apery30 = await guess({ sequence: { terms: upTo(30, apery) }, kind: 'p-recursive', order: 2, degree: 3 });
    const [p0, p1, p2] = apery30.recurrence?.coefficients as string[][];
    const sign = p0?.[3] === '1' ? 1 : -1;
    expect([p0, p1, p2].map((p) => p?.map((c) => String(sign * Number(c))))).toEqual([
      ['0', '0', '0', '1'],
      ['5', '-27', '51', '-34'],
      ['-1', '3', '-3', '1'],
    ]);
  });

  it('C-finite: Fibonacci-like sequences of random order are recovered with spare terms counted; none for the primes', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    let seed = 36;
    const rand = (k: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % k);
    for (let trial = 0; trial < 5; trial++) {
      const d = 1 + rand(6);
      const c = Array.from({ length: d }, () => rand(7) - 3);
      c[d - 1] = c[d - 1] === 0 ? 1 : (c[d - 1] as number);
      const a: bigint[] = Array.from({ length: d }, () => BigInt(rand(19) - 9));
      while (a.length < 3 * d + 4) a.push(c.reduce((s, ci, i) => s + BigInt(ci) * (a[a.length - 1 - i] as bigint), 0n));
      const found = await guess({ sequence: { terms: a.map(String) } });
      expect(found.status).toBe('FOUND');
      const order = found.recurrence?.coefficients.length ?? -1;
      expect(order).toBeLessThanOrEqual(d);
      expect(found.spare).toBe(a.length - 2 * order);
      const checked = await run('sequence.recurrence.verify', 'VERIFY', { result_uri: found.result_uri });
      expect(checked['verdict']).toBe('ACCEPTED');
    }
    const primes = ['2', '3', '5', '7', '11', '13', '17', '19', '23', '29', '31', '37', '41', '43', '47', '53', '59', '61', '67', '71'];
    const none = await guess({ sequence: { terms: primes, offset: 1 } });
    expect(none.status).toBe('NONE');
    expect(none.statement).toMatch(/^no C-finite recurrence of order ≤ 9 fits these 20 terms/);
    const noneP = await guess({ sequence: { terms: primes, offset: 1 }, kind: 'p-recursive', order: 2, degree: 2 });
    expect(noneP).toMatchObject({ status: 'NONE', statement: 'no recurrence of order ≤ 2 and degree ≤ 2 fits these 20 terms' });
    // Exactly 2d terms: found, but said to be unconfirmed.
    const tight = await guess({ sequence: { terms: ['1', '1', '3', '5'] }, max_order: 2 });
    expect(tight).toMatchObject({ status: 'FOUND', spare: 0, confirmed: false });
    expect(tight.statement).toContain('no term confirms it');
    // Order N would relate no given term: NONE, even when max_order allows it.
    expect(await guess({ sequence: { terms: ['0', '0', '0', '1'] }, max_order: 10 })).toMatchObject({ status: 'NONE', statement: 'no C-finite recurrence of order ≤ 3 fits these 4 terms (the shortest has order 4)' });
    // Fewer terms than 2·order: found, but not determined by them.
    const loose = await guess({ sequence: { terms: ['1', '2', '4', '9'] }, max_order: 3 });
    expect(loose).toMatchObject({ status: 'FOUND', spare: -2, confirmed: false });
    expect(loose.statement).toContain('the terms given do not determine it');
  });

  it('the checker rejects a recurrence that fails on one term', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const terms = upTo(15, catalan);
    terms[12] = (BigInt(terms[12] as string) + 1n).toString();
    const rejected = await run('sequence.recurrence.verify', 'VERIFY', { claim: { sequence: { terms }, recurrence: { kind: 'p-recursive', order: 1, degree: 1, coefficients: [['1', '1'], ['2', '-4']], valid_from: 1 } } });
    expect(rejected).toMatchObject({ verdict: 'REJECTED', reason_code: 'RELATION_FAILS', failure: { path: ['sequence', 'terms', 12] } });
  });

  it('transforms and the generating function', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const binomial = await run('sequence.transform.compute', 'EXPLORE', { sequence: { terms: upTo(9, catalan) }, transform: 'binomial' });
    // A007317, typed here, and recomputed from its definition.
    expect(binomial['terms']).toEqual(['1', '2', '5', '15', '51', '188', '731', '2950', '12235']);
    expect(binomial['terms']).toEqual(upTo(9, (n) => Array.from({ length: n + 1 }, (_, k) => binom(n, k) * catalan(k)).reduce((s, x) => s + x, 0n)));
    const euler = await run('sequence.transform.compute', 'EXPLORE', { sequence: { terms: Array.from({ length: 10 }, () => '1') }, transform: 'euler' });
    expect(euler).toMatchObject({ offset: 1, terms: ['1', '2', '3', '5', '7', '11', '15', '22', '30', '42'] });
    const gf = await run('sequence.generating_function.compute', 'EXPLORE', { sequence: { terms: ['0', '1', '1', '2'] }, recurrence: { kind: 'c-finite', coefficients: ['1', '1'], valid_from: 2 } });
    expect(gf).toMatchObject({ numerator: ['0', '1'], denominator: ['1', '-1', '-1'], text: '(x)/(1 - x - x^2)' });
    const { result } = await mathRun(connection.client, { capability_id: 'sequence.generating_function.compute', mode: 'EXPLORE', payload: { sequence: { terms: ['0', '1', '1', '3'] }, recurrence: { kind: 'c-finite', coefficients: ['1', '1'], valid_from: 2 } } });
    expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'sequence', 'terms', 3] });
  });

  it('bad requests are INVALID_REQUEST naming the field and the rule; evaluation stops where p_0(n) = 0', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const call = async (capabilityId: string, payload: Record<string, unknown>) => (await mathRun(connection.client, { capability_id: capabilityId, mode: 'EXPLORE', payload })).result;
    const noOrder = await call('sequence.recurrence.guess', { sequence: { terms: ['1', '2', '3'] }, kind: 'p-recursive', degree: 1 });
    expect(noOrder.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'order'] });
    const badTerm = await call('sequence.recurrence.guess', { sequence: { terms: ['1', '2/0', '3'] } });
    expect(badTerm.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'sequence', 'terms', 1] });
    expect(badTerm.diagnostics[0]?.message).toContain('denominator 0');
    const vanishing = await call('sequence.recurrence.evaluate', { sequence: { terms: ['1'] }, recurrence: { kind: 'p-recursive', order: 1, degree: 1, coefficients: [['-3', '1'], ['-1']], valid_from: 1 }, count: 6 });
    expect(vanishing.execution.status).toBe('ERROR');
    expect(vanishing.diagnostics[0]?.message).toMatch(/^p_0\(3\) = 0: the recurrence does not determine a\(3\); 2 terms were computed before it/);
  });
});
