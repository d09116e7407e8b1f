import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, MATRIX_LIMITS, MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI, MinimalPolynomialClaimSchema, type CapabilityDefinition, type CapabilityResult, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';
import { triangularWithKnownMinimalPolynomial } from '@jacobian/shared/testing';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { characteristicPolynomialCompute, minimalPolynomialCompute, type CharacteristicPolynomialOutput, type MinimalPolynomialOutput } from './characteristic-polynomial.js';
import { constructMatrix, type ConstructMatrixOutput } from './construct-explicit.js';
import { LINEAR_ALGEBRA_TS_PROVIDER } from './provider.js';

const TS: ProviderRuntime = { ...FAKE_RUNTIME, provider: LINEAR_ALGEBRA_TS_PROVIDER };
const Z = { kind: 'Z' as const };
const Q = { kind: 'Q' as const };
const CHARPOLY = 'matrix.characteristic_polynomial.compute';
const MINPOLY = 'matrix.minimal_polynomial.compute';

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

describe('characteristic and minimal polynomial capabilities', () => {
  let h: CapabilityHarness;
  const cap: Record<string, InstalledCapability> = {};
  beforeAll(async () => {
    h = await createCapabilityHarness();
    for (const definition of [constructMatrix, characteristicPolynomialCompute(TS), minimalPolynomialCompute(TS)] as unknown as CapabilityDefinition<never, unknown>[]) cap[definition.id] = h.install(definition, TS);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (id: string, payload: unknown, budget?: Record<string, number>): Promise<CapabilityResult> =>
    h.run(cap[id] as InstalledCapability, { capability_id: id, payload, ...(budget === undefined ? {} : { budget }) });

  it('runs every advertised example to a conclusion', async () => {
    for (const id of [CHARPOLY, MINPOLY]) {
      for (const example of (cap[id] as InstalledCapability).descriptor.examples) ok(await run(id, example.payload));
    }
  });

  it('the characteristic polynomial as coefficients and text, with trace, determinant and square-freeness read off it', async () => {
    const out = ok<CharacteristicPolynomialOutput>(await run(CHARPOLY, { matrix: { ring: Z, rows: [[1, 2], [3, 4]] } }));
    expect(out).toMatchObject({ polynomial: 'x^2 - 5*x - 2', coefficients: ['-2', '-5', '1'], degree: 2, variable: 'x', trace: '5', determinant: '-2', square_free: true, field: 'Q' });
    const gf = ok<CharacteristicPolynomialOutput>(await run(CHARPOLY, { matrix: { ring: { kind: 'GF', characteristic: '5' }, rows: [[2, 0, 0], [0, 2, 0], [0, 0, 3]] }, variable: 'lambda' }));
    // (λ − 2)²(λ − 3) = λ³ − 7λ² + 16λ − 12 ≡ λ³ + 3λ² + λ + 3 (mod 5).
    expect(gf).toMatchObject({ polynomial: 'lambda^3 + 3*lambda^2 + lambda + 3', coefficients: ['3', '1', '3', '1'], trace: '2', determinant: '2', square_free: false, field: 'GF(5)' });
    const rational = ok<CharacteristicPolynomialOutput>(await run(CHARPOLY, { matrix: { ring: Q, rows: [['1/2', 1], [0, '-1/3']] } }));
    expect(rational).toMatchObject({ polynomial: 'x^2 - 1/6*x - 1/6', trace: '1/6', determinant: '-1/6' });
  });

  it('the minimal polynomial, stored as a claim whose parent is the stored matrix', async () => {
    const stored = ok<ConstructMatrixOutput>(await run('matrix.construct.explicit', { ring: Z, rows: [[2, 0, 0], [0, 2, 0], [0, 0, 3]] }));
    const result = await run(MINPOLY, { matrix_uri: stored.matrix_uri, variable: 't' });
    const out = ok<MinimalPolynomialOutput>(result);
    expect(out).toMatchObject({ polynomial: 't^2 - 5*t + 6', coefficients: ['6', '-5', '1'], degree: 2, n: 3, diagonalizable: true, field: 'Q' });
    expect(result.scope?.input_uris).toEqual([stored.matrix_uri]);
    const { manifest, payload } = await h.artifacts.get(out.result_uri ?? '');
    expect(manifest.schema_uri).toBe(MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI);
    expect(manifest.parents).toEqual([stored.matrix_uri]);
    expect(MinimalPolynomialClaimSchema.parse(payload)).toMatchObject({ coefficients: ['6', '-5', '1'], matrix: { nrows: 3 } });
    const jordan = ok<MinimalPolynomialOutput>(await run(MINPOLY, { matrix: { ring: { kind: 'GF', characteristic: '7' }, rows: [[1, 1], [0, 1]] } }));
    expect(jordan).toMatchObject({ polynomial: 'x^2 + 5*x + 1', diagonalizable: false, degree: 2 });
  });

  it('a 20×20 Q matrix of 200-digit entries: minimal polynomial coefficients far beyond the entry text limit are stored in the claim, and equal the known Π (x − λ_i)', async () => {
    // Large denominators work too, but our rational minimal polynomial takes ~30 s for 70-digit ones.
    const n = 20;
    const { rows, minimal } = triangularWithKnownMinimalPolynomial(n, 200);
    const result = await run(MINPOLY, { matrix: { ring: Q, rows } });
    const out = ok<MinimalPolynomialOutput>(result);
    expect(out.degree).toBe(n);
    expect(out.coefficients).toEqual(minimal);
    expect(Math.max(...out.coefficients.map((c) => c.length))).toBeGreaterThan(MATRIX_LIMITS.maxEntryTextLength);
    expect(out.result_uri).not.toBeNull();
    const stored = MinimalPolynomialClaimSchema.parse((await h.artifacts.get(out.result_uri ?? '')).payload);
    expect(stored.coefficients).toEqual(out.coefficients);
  });

  it('refuses a non-square matrix and a bad variable name before any work, naming the place and the rule', async () => {
    const nonSquare = error(await run(MINPOLY, { matrix: { ring: Z, rows: [[1, 2, 3], [4, 5, 6]] } }));
    expect(nonSquare).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix', 'rows'] });
    expect(nonSquare.message).toMatch(/square matrices only; this one is 2×3 \(rule square\)/);
    expect(error(await run(CHARPOLY, { matrix: { ring: Z, rows: [[1]] }, variable: '2x' }))).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'variable'] });
    expect(error(await run(CHARPOLY, { matrix: { ring: Q, rows: [[1, '1/0']] } }))).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix', 'rows', 0, 1] });
  });

  it('stops a computation that outruns its budget, concluding nothing', async () => {
    let seed = 12345n;
    const next = (): string => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 2000n);
      return `${seed}/${(seed % 1000n) + 1n}`;
    };
    const rows = Array.from({ length: 120 }, () => Array.from({ length: 120 }, next));
    const result = await run(CHARPOLY, { matrix: { ring: Q, rows } }, { wall_time_ms: 500 });
    expect(result.execution.status).toBe('TIMEOUT');
    expect(result.output).toBeNull();
  });
});
