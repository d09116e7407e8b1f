import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, LATTICE_BASIS_CLAIM_SCHEMA_URI, LatticeBasisClaimSchema, NormalFormClaimSchema, type CapabilityDefinition, type CapabilityResult, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { constructMatrix, type ConstructMatrixOutput } from './construct-explicit.js';
import { latticeBasisReduce, type LatticeReduceOutput } from './lattice-basis-reduce.js';
import { latticeHermiteNormalFormCompute, type LatticeHermiteOutput } from './lattice-hermite-normal-form.js';
import { LINEAR_ALGEBRA_TS_PROVIDER } from './provider.js';
import { sublatticeIndexCompute, type SublatticeIndexOutput } from './sublattice-index.js';

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

describe('lattice capabilities on our TypeScript engine', () => {
  let h: CapabilityHarness;
  const cap: Record<string, InstalledCapability> = {};
  beforeAll(async () => {
    h = await createCapabilityHarness();
    for (const definition of [constructMatrix, latticeBasisReduce(TS), latticeHermiteNormalFormCompute(TS), sublatticeIndexCompute(TS)] as unknown as CapabilityDefinition<never, unknown>[]) cap[definition.id] = h.install(definition, TS);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (id: string, payload: unknown, budget?: Record<string, number>): Promise<CapabilityResult> =>
    h.run(cap[id] as InstalledCapability, { capability_id: id, payload, ...(budget === undefined ? {} : { budget }) });

  it('runs every advertised example to a conclusion', async () => {
    for (const capability of Object.values(cap)) for (const example of capability.descriptor.examples) ok(await run(capability.descriptor.id, example.payload));
  });

  it('LLL: U B = B′, the claim stored with δ, the relation found by the knapsack example', async () => {
    const B = [[1, 1, 1], [-1, 0, 2], [3, 5, 6]];
    const result = await run('lattice.basis.reduce', { matrix: { ring: Z, rows: B } });
    const out = ok<LatticeReduceOutput>(result);
    expect(out).toMatchObject({ rank: 3, delta: '3/4', alpha: '2', covolume_squared: '9', dependent_generators: false });
    expect(multiply(big(out.transform), big(B))).toEqual(big(out.reduced));
    expect(out.gram_schmidt_norms_squared).toHaveLength(3);
    const stored = await h.artifacts.get(out.result_uri ?? '');
    expect(stored.manifest.schema_uri).toBe(LATTICE_BASIS_CLAIM_SCHEMA_URI);
    expect(LatticeBasisClaimSchema.parse(stored.payload)).toMatchObject({ delta: '3/4', reduced: out.reduced, transform: out.transform });
    expect(result.artifact_uris).toEqual([out.result_uri]);

    const knapsack = cap['lattice.basis.reduce']?.descriptor.examples[1]?.payload;
    const relation = ok<LatticeReduceOutput>(await run('lattice.basis.reduce', knapsack));
    expect(relation.delta).toBe('99/100');
    const v = (relation.shortest_vector ?? []).map(BigInt);
    expect(v[3]).toBe(0n);
    expect((v[0] as bigint) * 1234567n + (v[1] as bigint) * 2345678n + (v[2] as bigint) * 3580245n).toBe(0n);
  });

  it('LLL of dependent generators: rank, zero rows last, relation rows of U', async () => {
    const B = [[2, 4, 6], [1, 2, 3], [0, 1, 1], [1, 3, 4]];
    const out = ok<LatticeReduceOutput>(await run('lattice.basis.reduce', { matrix: { ring: Z, rows: B }, delta: '1' }));
    expect(out).toMatchObject({ rank: 2, dependent_generators: true, delta: '1/1' });
    expect(out.reduced.slice(2)).toEqual([['0', '0', '0'], ['0', '0', '0']]);
    expect(multiply(big(out.transform.slice(2)), big(B))).toEqual([[0n, 0n, 0n], [0n, 0n, 0n]]);
  });

  it('refuses δ outside (1/4, 1] or not a rational, and a rational matrix, naming the rule, before any work', async () => {
    for (const [delta, rule] of [['1/4', 'delta-range'], ['1.01', 'delta-range'], ['0.2', 'delta-range'], ['three quarters', 'delta-syntax'], ['1/0', 'delta-syntax']] as const) {
      const refused = error(await run('lattice.basis.reduce', { matrix: { ring: Z, rows: [[1, 0]] }, delta }));
      expect(refused, delta).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'delta'] });
      expect(refused.message).toContain(`rule ${rule}`);
    }
    const overQ = error(await run('lattice.basis.reduce', { matrix: { ring: { kind: 'Q' }, rows: [[1, '1/2']] } }));
    expect(overQ).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix', 'ring'] });
    expect(overQ.message).toMatch(/rule integer-matrix/);
  });

  it('Hermite basis of a lattice: zero rows dropped, rank, index in Z^n, covolume; U with the claim', async () => {
    const plain = ok<LatticeHermiteOutput>(await run('lattice.hermite_normal_form.compute', { matrix: { ring: Z, rows: [[4, 6], [6, 9], [2, 4]] } }));
    expect(plain).toMatchObject({ basis: [['2', '0'], ['0', '1']], rank: 2, full_rank: true, index_in_Zn: '2', covolume_squared: '4', left_transform: null, result_uri: null });
    const A = [[1, 2, 3], [2, 4, 6], [0, 3, 3]];
    const out = ok<LatticeHermiteOutput>(await run('lattice.hermite_normal_form.compute', { matrix: { ring: Z, rows: A }, transforms: true }));
    expect(out).toMatchObject({ basis: [['1', '2', '3'], ['0', '3', '3']], rank: 2, pivot_columns: [0, 1], full_rank: false, index_in_Zn: 'INFINITE' });
    // det [[14, 15], [15, 18]] = 27.
    expect(out.covolume_squared).toBe('27');
    expect(multiply(big(out.left_transform ?? []), big(A))).toEqual(big([...out.basis, ['0', '0', '0']]));
    expect(NormalFormClaimSchema.parse((await h.artifacts.get(out.result_uri ?? '')).payload)).toMatchObject({ form: 'HERMITE' });
  });

  it('sublattice index: finite with the quotient, infinite for lower rank, both by matrix_uri', async () => {
    const z6 = ok<SublatticeIndexOutput>(await run('lattice.sublattice_index.compute', cap['lattice.sublattice_index.compute']?.descriptor.examples[0]?.payload));
    expect(z6).toMatchObject({ index: '6', finite: true, quotient_invariant_factors: ['6'], quotient_structure: 'Z/6' });
    const d3 = ok<SublatticeIndexOutput>(await run('lattice.sublattice_index.compute', cap['lattice.sublattice_index.compute']?.descriptor.examples[1]?.payload));
    expect(d3).toMatchObject({ index: 'INFINITE', finite: false, rank: 3, sublattice_rank: 2, quotient_structure: 'Z/2 ⊕ Z/2 ⊕ Z' });
    const L = ok<ConstructMatrixOutput>(await run('matrix.construct.explicit', { ring: Z, rows: [[1, 1], [1, -1]] }));
    const S = ok<ConstructMatrixOutput>(await run('matrix.construct.explicit', { ring: Z, rows: [[4, 0], [0, 4], [2, 2]] }));
    const result = await run('lattice.sublattice_index.compute', { lattice: { matrix_uri: L.matrix_uri }, sublattice: { matrix_uri: S.matrix_uri } });
    // L has covolume 2, L′ = span{(2, 2), (4, 0)} covolume 8: index 4, L / L′ ≅ Z/2 ⊕ Z/2.
    expect(ok<SublatticeIndexOutput>(result)).toMatchObject({ index: '4', quotient_structure: 'Z/2 ⊕ Z/2' });
    expect(result.scope?.input_uris).toEqual([L.matrix_uri, S.matrix_uri]);
  });

  it('refuses L′ not inside L with the witness generator, and lattices in different Z^n', async () => {
    const outside = error(await run('lattice.sublattice_index.compute', { lattice: { matrix: { ring: Z, rows: [[2, 0], [0, 2]] } }, sublattice: { matrix: { ring: Z, rows: [[2, 2], [1, 0]] } } }));
    expect(outside).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'sublattice', 'matrix', 'rows', 1] });
    expect(outside.message).toMatch(/generator 1 of L′, \(1, 0\), is not in L.*rule sublattice-contained/);
    const ambient = error(await run('lattice.sublattice_index.compute', { lattice: { matrix: { ring: Z, rows: [[1, 0]] } }, sublattice: { matrix: { ring: Z, rows: [[1, 0, 0]] } } }));
    expect(ambient.message).toMatch(/rule same-ambient-dimension/);
    const rational = error(await run('lattice.sublattice_index.compute', { lattice: { matrix: { ring: { kind: 'Q' }, rows: [[1, 0]] } }, sublattice: { matrix: { ring: Z, rows: [[1, 0]] } } }));
    expect(rational).toMatchObject({ path: ['payload', 'lattice', 'matrix', 'ring'] });
  });

  it('stops an LLL reduction that outruns its budget, concluding nothing', async () => {
    // 60 vectors of 60 entries of 1500 bits: far beyond 300 ms of integral LLL on any machine.
    let seed = 987654321n;
    const next = (): string => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 1500n);
      return seed.toString();
    };
    const rows = Array.from({ length: 60 }, () => Array.from({ length: 60 }, next));
    const result = await run('lattice.basis.reduce', { matrix: { ring: Z, rows } }, { wall_time_ms: 300 });
    expect(result.execution.status).toBe('TIMEOUT');
    expect(result.output).toBeNull();
  });
});
