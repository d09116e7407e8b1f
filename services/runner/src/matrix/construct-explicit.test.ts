import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATRIX_SCHEMA_URI, MatrixPayloadSchema, resolveMatrixOperand, type CapabilityResult, type InstalledCapability } from '@jacobian/shared';
import { createCapabilityHarness, type CapabilityHarness } from '../testing/fixtures.js';
import { constructMatrix, type ConstructMatrixOutput } from './construct-explicit.js';

function firstError(result: CapabilityResult): { code: string; path: (string | number)[] | null; message: string } {
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (!diagnostic) throw new Error(`expected an ERROR diagnostic, got ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

describe('matrix.construct.explicit', () => {
  let harness: CapabilityHarness;
  let capability: InstalledCapability;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    capability = harness.install(constructMatrix);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  const run = (payload: unknown): Promise<CapabilityResult> => harness.run(capability, { capability_id: constructMatrix.id, payload: payload });

  it('stores a rational matrix in canonical form, and the stored matrix resolves as an operand', async () => {
    const result = await run({ ring: { kind: 'Q' }, rows: [[2, '2/4', 0], ['-6/3', 3, '-7/3']] });
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(result.assurance.level).toBe('COMPUTED');
    const output = result.output as ConstructMatrixOutput;
    expect(output).toMatchObject({ ring: { kind: 'Q' }, nrows: 2, ncols: 3 });
    expect(result.artifact_uris).toEqual([output.matrix_uri]);
    const stored = await harness.artifacts.get(output.matrix_uri);
    expect(stored.manifest.schema_uri).toBe(MATRIX_SCHEMA_URI);
    expect(MatrixPayloadSchema.parse(stored.payload).rows).toEqual([['2', '1/2', '0'], ['-2', '3', '-7/3']]);
    const resolved = await resolveMatrixOperand({ matrix_uri: output.matrix_uri }, harness.artifacts);
    expect(resolved).toMatchObject({ input_uris: [output.matrix_uri], matrix: { nrows: 2, ncols: 3 } });
  });

  it('gives the same artifact however equal entries are written', async () => {
    const a = await run({ ring: { kind: 'GF', characteristic: '7' }, rows: [[1, 2], [3, 4]] });
    const b = await run({ ring: { kind: 'GF', characteristic: '7' }, rows: [['8', '-5'], ['3/1', '1/2']] });
    expect((b.output as ConstructMatrixOutput).matrix_uri).toBe((a.output as ConstructMatrixOutput).matrix_uri);
  });

  const invalid: [string, unknown, (string | number)[], RegExp][] = [
    ['a ragged matrix', { ring: { kind: 'Z' }, rows: [[1, 2], [3]] }, ['payload', 'rows', 1], /row 1 has 1 entries.*ragged-rows/],
    ['a fraction over Z', { ring: { kind: 'Z' }, rows: [[1, 2], [3, 4], [5, 6], [7, '1/2']] }, ['payload', 'rows', 3, 1], /row 3, column 1.*integer-entry/],
    ['a zero denominator', { ring: { kind: 'Q' }, rows: [[1, '1/0']] }, ['payload', 'rows', 0, 1], /zero-denominator/],
    ['a non-integer string', { ring: { kind: 'Q' }, rows: [['1e3']] }, ['payload', 'rows', 0, 0], /entry-syntax/],
    ['GF(p) with p composite', { ring: { kind: 'GF', characteristic: '91' }, rows: [[1]] }, ['payload', 'ring', 'characteristic'], /not a prime/],
    ['too many rows', { ring: { kind: 'Z' }, rows: Array.from({ length: 201 }, () => [0]) }, ['payload', 'rows'], /200/],
    ['an unknown field', { ring: { kind: 'Z' }, rows: [[1]], cols: 1 }, ['payload', 'cols'], /unknown field/],
  ];
  it.each(invalid)('rejects %s before storing anything, naming the place and rule', async (_name, payload, path, message) => {
    const before = await harness.files();
    const result = await run(payload);
    expect(result.execution.status).toBe('ERROR');
    const error = firstError(result);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.path).toEqual(path);
    expect(error.message).toMatch(message);
    expect(await harness.files()).toEqual(before);
  });
});
