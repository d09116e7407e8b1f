import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, NORMAL_FORM_CLAIM_SCHEMA_URI, NormalFormClaimSchema, type CapabilityDefinition, type CapabilityResult, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { constructMatrix, type ConstructMatrixOutput } from './construct-explicit.js';
import { hermiteNormalFormCompute, type HermiteOutput } from './hermite-normal-form.js';
import { LINEAR_ALGEBRA_TS_PROVIDER } from './provider.js';
import { abelianGroupStructure, smithNormalFormCompute, type SmithOutput } from './smith-normal-form.js';

const TS: ProviderRuntime = { ...FAKE_RUNTIME, provider: LINEAR_ALGEBRA_TS_PROVIDER };
const Z = { kind: 'Z' as const };

function ok<O>(result: CapabilityResult): O {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  expect(result.assurance.level).toBe('COMPUTED');
  return result.output as O;
}

function error(result: CapabilityResult): { code: string; path: (string | number)[] | null; message: string } {
  expect(result.execution.status).toBe('ERROR');
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (diagnostic === undefined) throw new Error(`no ERROR diagnostic in ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

const big = (M: readonly (readonly (string | number)[])[]): bigint[][] => M.map((row) => row.map((x) => BigInt(x)));
function multiply(A: readonly (readonly bigint[])[], B: readonly (readonly bigint[])[]): bigint[][] {
  return A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));
}

describe('integer normal forms on our TypeScript engine', () => {
  let h: CapabilityHarness;
  const cap: Record<string, InstalledCapability> = {};
  beforeAll(async () => {
    h = await createCapabilityHarness();
    for (const definition of [constructMatrix, hermiteNormalFormCompute(TS), smithNormalFormCompute(TS)] as unknown as CapabilityDefinition<never, unknown>[]) cap[definition.id] = h.install(definition, TS);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (id: string, payload: unknown): Promise<CapabilityResult> => h.run(cap[id] as InstalledCapability, { capability_id: id, payload });

  it('runs every advertised example to a conclusion', async () => {
    for (const capability of Object.values(cap)) for (const example of capability.descriptor.examples) ok(await run(capability.descriptor.id, example.payload));
  });

  it('Hermite normal form, with U A = H and the claim stored when transforms are asked', async () => {
    const A = [[3, 3, 1], [0, 0, 0], [2, 2, 5]];
    const plain = ok<HermiteOutput>(await run('matrix.hermite_normal_form.compute', { matrix: { ring: Z, rows: A } }));
    expect(plain).toMatchObject({ hnf: [['1', '1', '9'], ['0', '0', '13'], ['0', '0', '0']], rank: 2, pivot_columns: [0, 2], left_transform: null, result_uri: null });
    const withU = await run('matrix.hermite_normal_form.compute', { matrix: { ring: Z, rows: A }, transforms: true });
    const out = ok<HermiteOutput>(withU);
    expect(out.hnf).toEqual(plain.hnf);
    expect(multiply(big(out.left_transform ?? []), big(A))).toEqual(big(out.hnf));
    const stored = await h.artifacts.get(out.result_uri ?? '');
    expect(stored.manifest.schema_uri).toBe(NORMAL_FORM_CLAIM_SCHEMA_URI);
    expect(NormalFormClaimSchema.parse(stored.payload)).toMatchObject({ form: 'HERMITE', hnf: out.hnf, left_transform: out.left_transform, diagonal: null, right_transform: null });
    expect(withU.artifact_uris).toEqual([out.result_uri]);
  });

  it('Smith normal form: invariant factors, cokernel structure, U A V = D', async () => {
    const A = [[2, 4, 4], [-6, 6, 12], [10, -4, -16]];
    const out = ok<SmithOutput>(await run('matrix.smith_normal_form.compute', { matrix: { ring: Z, rows: A }, transforms: true }));
    expect(out).toMatchObject({ diagonal: ['2', '6', '12'], invariant_factors: ['2', '6', '12'], rank: 3, cokernel: { free_rank: 0, torsion: ['2', '6', '12'], structure: 'Z/2 ⊕ Z/6 ⊕ Z/12' } });
    const D = multiply(multiply(big(out.left_transform ?? []), big(A)), big(out.right_transform ?? []));
    expect(D).toEqual([[2n, 0n, 0n], [0n, 6n, 0n], [0n, 0n, 12n]]);
    expect(NormalFormClaimSchema.parse((await h.artifacts.get(out.result_uri ?? '')).payload)).toMatchObject({ form: 'SMITH', diagonal: out.diagonal, hnf: null });
    // A 4×2 of rank 1: cokernel Z/3 ⊕ Z^3.
    const thin = ok<SmithOutput>(await run('matrix.smith_normal_form.compute', { matrix: { ring: Z, rows: [[3, 6], [6, 12], [0, 0], [-3, -6]] } }));
    expect(thin).toMatchObject({ diagonal: ['3', '0'], invariant_factors: ['3'], rank: 1, cokernel: { free_rank: 3, structure: 'Z/3 ⊕ Z^3' }, left_transform: null, result_uri: null });
    expect(abelianGroupStructure([], 0)).toBe('0');
    expect(abelianGroupStructure(['2'], 1)).toBe('Z/2 ⊕ Z');
  });

  it('takes a stored matrix by matrix_uri, entries of hundreds of bits exact', async () => {
    const p = (1n << 127n) - 1n;
    const stored = ok<ConstructMatrixOutput>(await run('matrix.construct.explicit', { ring: Z, rows: [[p.toString(), '0'], ['0', (2n * p).toString()]] }));
    const result = await run('matrix.smith_normal_form.compute', { matrix_uri: stored.matrix_uri });
    expect(ok<SmithOutput>(result).diagonal).toEqual([p.toString(), (2n * p).toString()]);
    expect(result.scope?.input_uris).toEqual([stored.matrix_uri]);
  });

  it('refuses matrices over Q and GF(p), naming the ring and the rule', async () => {
    const overQ = error(await run('matrix.hermite_normal_form.compute', { matrix: { ring: { kind: 'Q' }, rows: [[1, '1/2']] } }));
    expect(overQ).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix', 'ring'] });
    expect(overQ.message).toMatch(/integer matrices only.*over Q \(rule integer-matrix\)/);
    const stored = ok<ConstructMatrixOutput>(await run('matrix.construct.explicit', { ring: { kind: 'GF', characteristic: '7' }, rows: [[1, 2]] }));
    const overGF = error(await run('matrix.smith_normal_form.compute', { matrix_uri: stored.matrix_uri }));
    expect(overGF).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix_uri'] });
    expect(overGF.message).toMatch(/GF\(7\) \(rule integer-matrix\)/);
    expect(error(await run('matrix.smith_normal_form.compute', { matrix: { ring: Z, rows: [[1]] }, transforms: 'yes' }))).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'transforms'] });
  });
});
