import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, LP_CERTIFICATE_CLAIM_SCHEMA_URI, LP_PROBLEM_SCHEMA_URI, LP_PROBLEM_SEMANTICS_URI, LpCertificateClaimSchema, canonicalLpProblem, type CapabilityResult, type LpProblemInput, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { certificateFailures } from './certificate-check.js';
import { LP_SOLVE_ID, lpSolve, type LpSolveOutput } from './lp-solve.js';
import { HIGHS_PROVIDER, highsProvider, LP_TS_PROVIDER, lpTsProvider } from './provider.js';

const TS: ProviderRuntime = { ...FAKE_RUNTIME, provider: LP_TS_PROVIDER };
const HIGHS: ProviderRuntime = { ...FAKE_RUNTIME, provider: HIGHS_PROVIDER };

const production: LpProblemInput = {
  sense: 'maximize',
  variables: [{ name: 'x' }, { name: 'y' }],
  objective: { x: 3, y: 5 },
  constraints: [
    { name: 'a', coefficients: { x: 1 }, relation: '<=', rhs: 4 },
    { name: 'b', coefficients: { y: 2 }, relation: '<=', rhs: 12 },
    { name: 'c', coefficients: { x: 3, y: 2 }, relation: '<=', rhs: 18 },
  ],
};

function ok(result: CapabilityResult): LpSolveOutput {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  expect(result.assurance.level).toBe('COMPUTED');
  return result.output as LpSolveOutput;
}

function error(result: CapabilityResult): { code: string; path: (string | number)[] | null; message: string; hint?: string | null } {
  expect(result.execution.status).toBe('ERROR');
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (diagnostic === undefined) throw new Error(`no ERROR diagnostic in ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

describe('lp.solve', () => {
  let h: CapabilityHarness;
  let ts: InstalledCapability;
  let highs: InstalledCapability;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    ts = h.install(lpSolve(TS), TS);
    highs = h.install(lpSolve(HIGHS), HIGHS);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (capability: InstalledCapability, payload: unknown, budget?: Record<string, number>): Promise<CapabilityResult> =>
    h.run(capability, { capability_id: LP_SOLVE_ID, payload, ...(budget === undefined ? {} : { budget }) });

  it('probes: our exact simplex always, HiGHS where its package loads and solves the health LP', async () => {
    expect(await lpTsProvider().probe()).toMatchObject({ provider: LP_TS_PROVIDER, digest_kind: 'SOURCE_TREE' });
    expect(await highsProvider().probe()).toMatchObject({ provider: HIGHS_PROVIDER, digest_kind: 'COMPOSITE', install_tier: 'T0', license_id: 'MIT' });
  });

  it('runs every advertised example on both providers', async () => {
    for (const capability of [ts, highs]) {
      for (const example of capability.descriptor.examples) ok(await run(capability, example.payload));
    }
  });

  it('OPTIMAL with shadow prices, the claim stored for lp.certificate.verify, and the engine saying who served', async () => {
    const out = ok(await run(highs, { problem: production }));
    expect(out).toMatchObject({ outcome: 'OPTIMAL', objective_value: '36', primal: { x: '2', y: '6' }, dual: { b: '3/2', c: '1' }, relaxation: false });
    expect(out.engine).toMatchObject({ provider: HIGHS_PROVIDER, started_from_float_basis: true, exact_pivots: 0 });
    expect(out.engine.float_phase).toMatch(/^HiGHS 1\.\d+\.\d+: Optimal$/);
    const plain = ok(await run(ts, { problem: production }));
    expect(plain.engine).toMatchObject({ provider: LP_TS_PROVIDER, float_phase: null, started_from_float_basis: false });
    expect(plain.engine.exact_pivots).toBeGreaterThan(0);
    expect(plain.objective_value).toBe('36');
    const stored = await h.artifacts.get(out.result_uri as string);
    expect(stored.manifest.schema_uri).toBe(LP_CERTIFICATE_CLAIM_SCHEMA_URI);
    const claim = LpCertificateClaimSchema.parse(stored.payload);
    expect(claim).toMatchObject({ outcome: 'OPTIMAL', objective_value: '36', dual: { b: '3/2', c: '1' } });
    expect(certificateFailures(claim.problem, claim)).toEqual([]);
  });

  it('INFEASIBLE and UNBOUNDED with their certificates', async () => {
    const infeasible = ok(await run(highs, { problem: { sense: 'minimize', variables: [{ name: 'x' }], objective: {}, constraints: [{ coefficients: { x: 1 }, relation: '>=', rhs: '5/2' }, { coefficients: { x: 2 }, relation: '<=', rhs: 1 }] } }));
    expect(infeasible).toMatchObject({ outcome: 'INFEASIBLE', objective_value: null, primal: null, farkas: { r1: '2', r2: '-1' } });
    const unbounded = ok(await run(ts, { problem: { sense: 'maximize', variables: [{ name: 'x', lower: null }, { name: 'y' }], objective: { x: 1, y: 1 }, constraints: [{ coefficients: { x: 1, y: -1 }, relation: '=', rhs: 0 }] } }));
    expect(unbounded).toMatchObject({ outcome: 'UNBOUNDED', primal: {}, objective_value: null, dual: null });
    expect(unbounded.ray).toEqual({ x: '1', y: '1' });
  });

  it('a problem by problem_uri, and integer variables refused unless the relaxation is asked for', async () => {
    const integer: LpProblemInput = { ...production, variables: [{ name: 'x', integer: true }, { name: 'y' }] };
    const refused = error(await run(highs, { problem: integer }));
    expect(refused).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'problem', 'variables', 0, 'integer'] });
    expect(refused.message).toContain('integer-variables');
    expect(refused.hint).toContain('milp.solve');
    const stored = await h.artifacts.put({ schema_uri: LP_PROBLEM_SCHEMA_URI, semantics_uri: LP_PROBLEM_SEMANTICS_URI, payload: canonicalLpProblem(integer), parents: [], summary: {} });
    expect(error(await run(ts, { problem_uri: stored.uri })).path).toEqual(['payload', 'problem_uri']);
    const relaxed = ok(await run(ts, { problem_uri: stored.uri, relaxation: true }));
    expect(relaxed).toMatchObject({ outcome: 'OPTIMAL', objective_value: '36', relaxation: true });
    const claim = LpCertificateClaimSchema.parse((await h.artifacts.get(relaxed.result_uri as string)).payload);
    expect(claim.relaxation).toBe(true);
  });

  it('bad input is INVALID_REQUEST at the field, before any work', async () => {
    const before = await h.files();
    const bad = error(await run(ts, { problem: { ...production, constraints: [{ coefficients: { z: 1 }, relation: '<=', rhs: 1 }] } }));
    expect(bad).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'problem', 'constraints', 0, 'coefficients', 'z'] });
    expect(error(await run(ts, { problem: { ...production, variables: [{ name: 'x', lower: 2, upper: 1 }, { name: 'y' }] } })).message).toContain('bound-order');
    expect(error(await run(ts, {})).code).toBe('INVALID_REQUEST');
    expect(await h.files()).toEqual(before);
  });

  it('a budget too small for the LP ends as a timeout, nothing concluded', async () => {
    // A dense random 200×200 LP takes the exact simplex from the slack basis many seconds (a 100×100 one about one second here).
    const n = 200;
    let seed = 100;
    // mulberry32, entries in −5..15.
    const next = (): number => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * 21);
    };
    const variables = Array.from({ length: n }, (_, j) => ({ name: `x${j}` }));
    const constraints = Array.from({ length: n }, () => ({ coefficients: Object.fromEntries(variables.map((v) => [v.name, next() - 5])), relation: '<=' as const, rhs: 100 + next() * 5 }));
    const result = await run(ts, { problem: { sense: 'maximize', variables, objective: Object.fromEntries(variables.map((v) => [v.name, (next() % 10) + 1])), constraints } }, { wall_time_ms: 1500 });
    expect(result.execution.status).toBe('TIMEOUT');
    // Stopped by the simplex's own checkpoint at the soft deadline, not only by the pool's kill.
    expect(result.diagnostics.map((d) => d.message).join()).toContain('before the simplex reached an answer');
    expect(result.artifact_uris).toEqual([]);
  });
});
