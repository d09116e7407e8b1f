import { z } from 'zod';
import { MATRIX_SCHEMA_URI, type CapabilityDefinition, type ProviderRuntime } from '@jacobian/shared';
import { answerField, EngineSchema, engineRecord, exactOutcome, MATRIX_DESCRIPTOR_LIMITS, MATRIX_VERSION, matrixInput, resolveMatrix, runLinearAlgebra } from './capability-support.js';

export const MATRIX_RREF_ID = 'matrix.rref.compute';

export const RrefInput = matrixInput({});
export type RrefInput = z.infer<typeof RrefInput>;

export const RrefOutput = z
  .object({
    rref: z.array(z.array(z.string())).describe('the non-zero rows of the reduced row echelon form, top to bottom (the zero rows below them are omitted); entries exact in the field'),
    rank: z.number().int(),
    pivots: z.array(z.number().int()).describe('the pivot column of each non-zero row, counted from 0, increasing'),
    nrows: z.number().int(),
    ncols: z.number().int(),
    field: z.string().describe('Q for integer and rational matrices, GF(p) otherwise'),
    engine: EngineSchema,
  })
  .strict();
export type RrefOutput = z.infer<typeof RrefOutput>;

/** matrix.rref.compute on our TypeScript engine. */
export function rrefCompute(runtime: ProviderRuntime): CapabilityDefinition<RrefInput, RrefOutput> {
  return {
    id: MATRIX_RREF_ID,
    version: MATRIX_VERSION,
    title: 'Reduced row echelon form (RREF)',
    description:
      'The reduced row echelon form of a dense matrix over Z or Q (computed over Q) or GF(p), any shape, with its pivot columns and rank: each pivot is 1, the only non-zero entry of its column, and pivots move right row by row. The RREF is unique, so equal row spaces give equal answers. By fraction-free Gauss–Jordan elimination on big integers (one exact division per entry at the end) or elimination modulo p.',
    tags: ['matrix', 'linear-algebra', 'rref', 'row-echelon-form', 'gauss-jordan', 'exact', 'typescript'],
    keywords: ['reduced row echelon form', 'row echelon form', 'RREF', 'row reduce', 'row reduction', 'Gauss–Jordan elimination', 'Gaussian elimination', 'pivot columns', 'pivots', 'row space basis', 'echelon form', 'rref mod p'],
    domain: 'matrix',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [],
    input: RrefInput,
    output: RrefOutput,
    examples: [
      { title: 'Row reduce a 3×4 rational matrix', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Q' }, rows: [[1, 2, -1, '1/2'], [2, 4, 0, 3], [-1, -2, 3, 1]] } } },
      { title: 'RREF over GF(3)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'GF', characteristic: '3' }, rows: [[1, 2, 0], [2, 1, 1]] } } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given matrix: its reduced row echelon form over Q (for Z and Q entries) or over GF(p).',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      const { output, ms } = await runLinearAlgebra(context, { operation: 'rref', matrix: resolved.matrix });
      const field = answerField(resolved);
      return exactOutcome(
        { rref: output.rref, rank: output.rank, pivots: output.pivots, nrows: resolved.matrix.nrows, ncols: resolved.matrix.ncols, field, engine: engineRecord(runtime, resolved, ms) },
        resolved,
        `the reduced row echelon form over ${field}`,
        'elimination ran to the end exactly',
      );
    },
  };
}
