import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, fieldFromSpec, INVERSE_CLAIM_SCHEMA_URI, InverseClaimSchema, LINEAR_SYSTEM_CLAIM_SCHEMA_URI, LinearSystemClaimSchema, RATIONALS, type CapabilityDefinition, type CapabilityResult, type Field, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';
import { constructExplicit } from '../graph/construct-explicit.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { MULTIMODULAR_METHOD } from './capability-support.js';
import { constructMatrix, type ConstructMatrixOutput } from './construct-explicit.js';
import { determinantCompute, type DeterminantOutput } from './determinant.js';
import { inverseCompute, type InverseOutput } from './inverse.js';
import { linearSystemSolve, type SolveOutput } from './linear-system-solve.js';
import { nullspaceCompute, type NullspaceOutput } from './nullspace.js';
import { LINEAR_ALGEBRA_TS_PROVIDER } from './provider.js';
import { rankCompute, type RankOutput } from './rank.js';
import { rrefCompute, type RrefOutput } from './rref.js';

const TS: ProviderRuntime = { ...FAKE_RUNTIME, provider: LINEAR_ALGEBRA_TS_PROVIDER };
const Z = { kind: 'Z' as const };
const Q = { kind: 'Q' as const };

function ok<O>(result: CapabilityResult): O {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  expect(result.assurance.level).toBe('COMPUTED');
  expect(result.completeness.status).toBe('COMPLETE');
  return result.output as O;
}

function error(result: CapabilityResult): { code: string; path: (string | number)[] | null; message: string } {
  expect(result.execution.status).toBe('ERROR');
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (diagnostic === undefined) throw new Error(`no ERROR diagnostic in ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

/** Multiply a matrix of texts by a vector of texts in a field (an independent check of the answers). */
function apply<C>(F: Field<C>, rows: (string | number)[][], x: string[]): string[] {
  const parse = (t: string | number): C => {
    const text = String(t);
    const slash = text.indexOf('/');
    return slash < 0 ? F.fromBigInt(BigInt(text)) : F.fromFraction(BigInt(text.slice(0, slash)), BigInt(text.slice(slash + 1)));
  };
  return rows.map((row) => F.format(row.reduce((s, a, j) => F.add(s, F.mul(parse(a), parse(x[j] as string))), F.zero)));
}

describe('matrix capabilities on our TypeScript engine', () => {
  let h: CapabilityHarness;
  const cap: Record<string, InstalledCapability> = {};
  beforeAll(async () => {
    h = await createCapabilityHarness();
    const definitions: CapabilityDefinition<never, unknown>[] = [constructMatrix, rankCompute(TS), determinantCompute(TS), rrefCompute(TS), nullspaceCompute(TS), inverseCompute(TS), linearSystemSolve(TS), constructExplicit].map(
      (definition) => definition as unknown as CapabilityDefinition<never, unknown>,
    );
    for (const definition of definitions) cap[definition.id] = h.install(definition, TS);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (id: string, payload: unknown, budget?: Record<string, number>): Promise<CapabilityResult> =>
    h.run(cap[id] as InstalledCapability, { capability_id: id, payload: payload, ...(budget === undefined ? {} : { budget }) });

  it('runs every advertised example to a conclusion', async () => {
    for (const capability of Object.values(cap)) {
      for (const example of capability.descriptor.examples) ok(await run(capability.descriptor.id, example.payload));
    }
  });

  it('rank, determinant and RREF of known matrices', async () => {
    const M = { ring: Z, rows: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] };
    expect(ok<RankOutput>(await run('matrix.rank.compute', { matrix: M }))).toMatchObject({ rank: 2, nullity: 1, left_nullity: 1, field: 'Q', engine: { provider: LINEAR_ALGEBRA_TS_PROVIDER } });
    expect(ok<DeterminantOutput>(await run('matrix.determinant.compute', { matrix: M }))).toMatchObject({ determinant: '0', singular: true, n: 3, engine: { method: MULTIMODULAR_METHOD } });
    expect(ok<RankOutput>(await run('matrix.rank.compute', { matrix: M })).engine.method).toBe(MULTIMODULAR_METHOD);
    expect(ok<DeterminantOutput>(await run('matrix.determinant.compute', { matrix: { ring: Q, rows: [[1, '1/2', '1/3'], ['1/2', '1/3', '1/4'], ['1/3', '1/4', '1/5']] } })).determinant).toBe('1/2160');
    const big = (1n << 64n).toString();
    expect(ok<DeterminantOutput>(await run('matrix.determinant.compute', { matrix: { ring: Z, rows: [[big, '1'], ['1', big]] } })).determinant).toBe(((1n << 128n) - 1n).toString());
    expect(ok<RrefOutput>(await run('matrix.rref.compute', { matrix: M }))).toMatchObject({ rref: [['1', '0', '-1'], ['0', '1', '2']], pivots: [0, 1], rank: 2 });
    // Modulo 3 every row is (1, 2, 0).
    expect(ok<RankOutput>(await run('matrix.rank.compute', { matrix: { ring: { kind: 'GF', characteristic: '3' }, rows: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] } })).rank).toBe(1);
    expect(ok<DeterminantOutput>(await run('matrix.determinant.compute', { matrix: { ring: { kind: 'GF', characteristic: '7' }, rows: [[2, 0, 1], [1, 3, 2], [1, 1, 2]] } })).determinant).toBe('6');
    expect(ok<DeterminantOutput>(await run('matrix.determinant.compute', { matrix: { ring: Z, rows: [[2, 0, 1], [1, 3, 2], [1, 1, 2]] } })).determinant).toBe('6');
  });

  it('kernels: right and left bases that multiply out to zero, primitive integers over Z', async () => {
    const rows = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [2, 4, 6]];
    const out = ok<NullspaceOutput>(await run('matrix.nullspace.compute', { matrix: { ring: Z, rows } }));
    expect(out).toMatchObject({ rank: 2, nullity: 1, left_nullity: 2, right_kernel: [['1', '-2', '1']] });
    for (const v of out.right_kernel) expect(apply(RATIONALS, rows, v)).toEqual(['0', '0', '0', '0']);
    const transposed = rows[0]?.map((_, j) => rows.map((row) => row[j] as number)) ?? [];
    for (const y of out.left_kernel) {
      expect(y.every((t) => /^-?[0-9]+$/.test(t))).toBe(true);
      expect(apply(RATIONALS, transposed, y)).toEqual(['0', '0', '0']);
    }
  });

  it('inverse, and SINGULAR with a kernel vector that multiplies out to zero', async () => {
    const inverse = ok<InverseOutput>(await run('matrix.inverse.compute', { matrix: { ring: Q, rows: [[2, 1], [7, 4]] } }));
    expect(inverse).toMatchObject({ outcome: 'INVERTIBLE', inverse: [['4', '-1'], ['-7', '2']], kernel_vector: null, rank: 2 });
    const half = ok<InverseOutput>(await run('matrix.inverse.compute', { matrix: { ring: Q, rows: [['1/2', 0], [0, 3]] } }));
    expect(half.inverse).toEqual([['2', '0'], ['0', '1/3']]);
    const GF7 = { kind: 'GF' as const, characteristic: '7' };
    const singular = ok<InverseOutput>(await run('matrix.inverse.compute', { matrix: { ring: GF7, rows: [[1, 2], [3, 6]] } }));
    expect(singular).toMatchObject({ outcome: 'SINGULAR', inverse: null, rank: 1, field: 'GF(7)' });
    expect(apply(fieldFromSpec(GF7) as Field<unknown>, [[1, 2], [3, 6]], singular.kernel_vector ?? [])).toEqual(['0', '0']);
    expect(singular.kernel_vector?.some((x) => x !== '0')).toBe(true);
    expect(InverseClaimSchema.parse((await h.artifacts.get(singular.result_uri ?? '')).payload)).toMatchObject({ outcome: 'SINGULAR', kernel_vector: singular.kernel_vector, inverse: null });
    const claim = await h.artifacts.get(inverse.result_uri ?? '');
    expect(claim.manifest.schema_uri).toBe(INVERSE_CLAIM_SCHEMA_URI);
    expect(InverseClaimSchema.parse(claim.payload).inverse).toEqual(inverse.inverse);
  });

  it('solves systems: a solution plus the kernel, or INCONSISTENT with y A = 0 and y·b = 1', async () => {
    const A = [[1, 2, 1], [2, 4, 3]];
    const solved = ok<SolveOutput>(await run('matrix.linear_system.solve', { matrix: { ring: Q, rows: A }, rhs: [1, '5/2'] }));
    expect(solved).toMatchObject({ outcome: 'SOLVED', certificate: null, rank: 2 });
    expect(apply(RATIONALS, A, solved.solution ?? [])).toEqual(['1', '5/2']);
    expect(solved.kernel).toHaveLength(1);
    for (const v of solved.kernel ?? []) expect(apply(RATIONALS, A, v)).toEqual(['0', '0']);

    const B = [[1, 1], [2, 2]];
    const stored = await h.artifacts.get(solved.result_uri ?? '');
    expect(stored.manifest.schema_uri).toBe(LINEAR_SYSTEM_CLAIM_SCHEMA_URI);
    expect(LinearSystemClaimSchema.parse(stored.payload)).toMatchObject({ rhs: ['1', '5/2'], outcome: 'SOLVED', solution: solved.solution, kernel: solved.kernel, certificate: null });

    const none = ok<SolveOutput>(await run('matrix.linear_system.solve', { matrix: { ring: Z, rows: B }, rhs: [1, 3] }));
    expect(LinearSystemClaimSchema.parse((await h.artifacts.get(none.result_uri ?? '')).payload)).toMatchObject({ outcome: 'INCONSISTENT', certificate: none.certificate });
    expect(none).toMatchObject({ outcome: 'INCONSISTENT', solution: null, kernel: null });
    const y = none.certificate ?? [];
    expect(apply(RATIONALS, [[1, 2], [1, 2]], y)).toEqual(['0', '0']);
    expect(apply(RATIONALS, [[1, 3]], y)).toEqual(['1']);
  });

  it('takes a stored matrix by matrix_uri and names it in the scope', async () => {
    const stored = ok<ConstructMatrixOutput>(await run('matrix.construct.explicit', { ring: Q, rows: [[1, 2], [3, 4]] }));
    const result = await run('matrix.determinant.compute', { matrix_uri: stored.matrix_uri });
    expect(ok<DeterminantOutput>(result).determinant).toBe('-2');
    // The determinant is stored as a claim for matrix.determinant.verify, its parent the stored matrix.
    const claimUri = ok<DeterminantOutput>(result).result_uri ?? '';
    expect(result.artifact_uris).toEqual([claimUri]);
    expect((await h.artifacts.getManifest(claimUri)).manifest.parents).toEqual([stored.matrix_uri]);
    expect(result.scope?.input_uris).toEqual([stored.matrix_uri]);
    expect(result.scope?.statement).toContain(stored.matrix_uri);
    const solved = ok<SolveOutput>(await run('matrix.linear_system.solve', { matrix_uri: stored.matrix_uri, rhs: [5, 6] }));
    expect(solved.solution).toEqual(['-4', '9/2']);
    // The stored claim names the stored matrix as its parent.
    expect((await h.artifacts.getManifest(solved.result_uri ?? '')).manifest.parents).toEqual([stored.matrix_uri]);
  });

  it('refuses bad requests before any work, naming the place and the rule', async () => {
    const nonSquare = error(await run('matrix.determinant.compute', { matrix: { ring: Z, rows: [[1, 2, 3], [4, 5, 6]] } }));
    expect(nonSquare).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix', 'rows'] });
    expect(nonSquare.message).toMatch(/square matrices only; this one is 2×3 \(rule square\)/);
    const stored = ok<ConstructMatrixOutput>(await run('matrix.construct.explicit', { ring: Z, rows: [[1, 2, 3]] }));
    expect(error(await run('matrix.inverse.compute', { matrix_uri: stored.matrix_uri }))).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix_uri'] });
    expect(error(await run('matrix.rank.compute', { matrix: { ring: Q, rows: [[1, 2], [3, 4], [5, 6], [7, '8/0']] } }))).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix', 'rows', 3, 1] });
    expect(error(await run('matrix.rank.compute', { matrix: { ring: { kind: 'GF', characteristic: '12' }, rows: [[1]] } }))).toMatchObject({ path: ['payload', 'matrix', 'ring', 'characteristic'] });
    expect(error(await run('matrix.rank.compute', {}))).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload'] });
    expect(error(await run('matrix.rank.compute', { matrix: { ring: Z, rows: [[1]] }, matrix_uri: stored.matrix_uri }))).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix_uri'] });
    const wrongLength = error(await run('matrix.linear_system.solve', { matrix: { ring: Q, rows: [[1, 2], [3, 4]] }, rhs: [1, 2, 3] }));
    expect(wrongLength).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'rhs'] });
    expect(wrongLength.message).toMatch(/3 entries, but A has 2 rows/);
    expect(error(await run('matrix.linear_system.solve', { matrix: { ring: Z, rows: [[1, 2], [3, 4]] }, rhs: [1, '1/2'] }))).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'rhs', 1] });
    const graph = ok<{ graph_uri: string }>(await run('graph.construct.explicit', { order: 2, edges: [[0, 1]] }));
    expect(error(await run('matrix.rank.compute', { matrix_uri: graph.graph_uri }))).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'matrix_uri'] });
  });

  it('stops a computation that outruns its budget, concluding nothing', async () => {
    // 120×120 with 2000-bit entries: minors of ~240000 bits; far beyond a 500 ms budget on any machine.
    let seed = 12345n;
    const next = (): string => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 2000n);
      return seed.toString();
    };
    const rows = Array.from({ length: 120 }, () => Array.from({ length: 120 }, next));
    const result = await run('matrix.determinant.compute', { matrix: { ring: Z, rows } }, { wall_time_ms: 500 });
    expect(result.execution.status).toBe('TIMEOUT');
    expect(result.output).toBeNull();
  });
});
