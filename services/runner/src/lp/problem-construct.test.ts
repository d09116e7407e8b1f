import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalize, LP_PROBLEM_SCHEMA_URI, LpProblemSchema, resolveLpOperand, writeCplexLp, writeFreeMps, type CapabilityResult, type InstalledCapability, type LpProblem } from '@jacobian/shared';
import { runnerRegistrations } from '../runner.js';
import { createCapabilityHarness, type CapabilityHarness } from '../testing/fixtures.js';
import { constructLpProblem, type ConstructLpProblemOutput } from './problem-construct.js';

function firstError(result: CapabilityResult): { code: string; path: (string | number)[] | null; message: string } {
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (!diagnostic) throw new Error(`expected an ERROR diagnostic, got ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

const LP_TEXT = `\\ a production plan
Maximize
 profit: 3 chairs + 2 tables - 1/2 overtime
Subject To
 wood:  chairs + tables <= 4
 labour: chairs + 3 tables - overtime <= 6
Bounds
 chairs <= 3
 overtime <= 2
General
 tables
End
`;

const JSON_FORM = {
  sense: 'maximize',
  variables: [{ name: 'chairs', upper: 3 }, { name: 'tables', integer: true }, { name: 'overtime', upper: '2.0' }],
  objective: { chairs: 3, tables: '2', overtime: '-0.5' },
  constraints: [
    { name: 'wood', coefficients: { chairs: 1, tables: 1 }, relation: '<=', rhs: 4 },
    { name: 'labour', coefficients: { chairs: 1, tables: 3, overtime: -1 }, relation: '<=', rhs: 6 },
  ],
};

describe('lp.problem.construct', () => {
  let harness: CapabilityHarness;
  let capability: InstalledCapability;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    capability = harness.install(constructLpProblem);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  const run = (payload: unknown): Promise<CapabilityResult> => harness.run(capability, { capability_id: constructLpProblem.id, payload });
  const output = (result: CapabilityResult): ConstructLpProblemOutput => {
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    return result.output as ConstructLpProblemOutput;
  };

  it('stores CPLEX LP text as the canonical problem, which resolves as an LP operand', async () => {
    const result = await run({ lp_text: LP_TEXT });
    const out = output(result);
    expect(out.format).toBe('cplex_lp');
    expect(out.summary).toEqual({ sense: 'maximize', variables: 3, rows: 2, nonzeros: 5, objective_nonzeros: 3, integer_variables: 1, free_variables: 0 });
    expect(result.artifact_uris).toEqual([out.problem_uri]);
    const stored = await harness.artifacts.get(out.problem_uri);
    expect(stored.manifest.schema_uri).toBe(LP_PROBLEM_SCHEMA_URI);
    const problem = LpProblemSchema.parse(stored.payload);
    expect(problem.objective).toEqual({ chairs: '3', tables: '2', overtime: '-1/2' });
    expect(out.problem).toEqual(problem);
    const resolved = await resolveLpOperand({ problem_uri: out.problem_uri }, harness.artifacts);
    expect(resolved.input_uris).toEqual([out.problem_uri]);
    expect(canonicalize(resolved.problem)).toBe(canonicalize(problem));
  });

  it('stores one artifact for the same problem given as JSON, CPLEX LP or free MPS (our writers\' texts included)', async () => {
    const fromLp = output(await run({ lp_text: LP_TEXT }));
    const fromJson = output(await run({ problem: JSON_FORM }));
    expect(fromJson.format).toBe('json');
    expect(fromJson.problem_uri).toBe(fromLp.problem_uri);
    const problem = fromLp.problem as LpProblem;
    const fromMps = output(await run({ mps_text: writeFreeMps(problem).text }));
    expect(fromMps).toMatchObject({ format: 'free_mps', problem_uri: fromLp.problem_uri });
    expect(output(await run({ lp_text: writeCplexLp(problem).text })).problem_uri).toBe(fromLp.problem_uri);
  });

  it('leaves a large problem out of the output but stores it whole', async () => {
    const n = 400;
    const names = Array.from({ length: n }, (_, j) => `x${j}`);
    const text = `min\n obj: ${names.join(' + ')}\nst\n${names.map((name, i) => ` c${i}: ${name} + ${names[(i + 1) % n] ?? ''} >= 1`).join('\n')}\nend\n`;
    const out = output(await run({ lp_text: text }));
    expect(out.problem).toBeUndefined();
    expect(out.summary).toMatchObject({ variables: n, rows: n, nonzeros: 2 * n });
    expect(LpProblemSchema.parse((await harness.artifacts.get(out.problem_uri)).payload).constraints).toHaveLength(n);
  });

  // Diagnostics carry the message and path (not the error's data): the line, column and rule are in the message.
  const invalid: [string, unknown, (string | number)[], RegExp][] = [
    ['LP text with a row without relation', { lp_text: 'min\n x\nst\n c1: x + y\nend' }, ['payload', 'lp_text'], /line 5, column 1: .*no-relation/],
    ['MPS text with a bound on an unknown column', { mps_text: 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n UP BND y 1\nENDATA' }, ['payload', 'mps_text'], /line 7, column 9: .*unknown-name/],
    ['MPS text without ENDATA', { mps_text: 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1' }, ['payload', 'mps_text'], /line 6, column 1: .*missing-section/],
    ['a JSON problem with an unknown variable', { problem: { ...JSON_FORM, objective: { chair: 1 } } }, ['payload', 'problem', 'objective', 'chair'], /unknown-name/],
    ['a JSON problem with bounds out of order', { problem: { ...JSON_FORM, variables: [{ name: 'chairs', lower: 5, upper: 3 }, { name: 'tables' }, { name: 'overtime' }] } }, ['payload', 'problem', 'variables', 0, 'upper'], /bound-order/],
    ['two forms at once', { lp_text: LP_TEXT, mps_text: 'NAME' }, ['payload', 'mps_text'], /only one of/],
    ['no form', {}, ['payload'], /one of `problem`/],
    ['an unknown field', { lp_text: LP_TEXT, format: 'lp' }, ['payload', 'format'], /unknown field/],
  ];
  it.each(invalid)('refuses %s before storing anything, naming the place and rule', async (_name, payload, path, message) => {
    const before = await harness.files();
    const result = await run(payload);
    expect(result.execution.status).toBe('ERROR');
    const error = firstError(result);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.path).toEqual(path);
    expect(error.message).toMatch(message);
    expect(await harness.files()).toEqual(before);
  });

  it('runs its examples', async () => {
    for (const example of constructLpProblem.examples) expect(output(await run(example.payload)).summary.variables).toBeGreaterThan(0);
  });

  it('is registered with our own provider, whose probe digests the capability and the shared LP sources', async () => {
    const registration = runnerRegistrations().find((r) => r.provider.name === 'jacobian-lp-problem-ts');
    expect(registration).toBeDefined();
    const runtime = await registration?.provider.probe();
    expect(runtime).toMatchObject({ provider: 'jacobian-lp-problem-ts', availability: 'AVAILABLE', digest_kind: 'SOURCE_TREE' });
    expect(runtime?.features).toEqual(expect.arrayContaining(['cplex-lp-format', 'free-mps-format']));
    if (runtime !== undefined) expect(registration?.create(runtime).id).toBe('lp.problem.construct');
  });
});
