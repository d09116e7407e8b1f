import { z } from 'zod';
import {
  canonicalMatrixInTurn,
  ExplicitMatrixSchema,
  MATRIX_LIMITS,
  MATRIX_SCHEMA_URI,
  MATRIX_SEMANTICS_URI,
  MatrixRingSchema,
  matrixShape,
  type CapabilityDefinition,
  type ExplicitMatrix,
} from '@jacobian/shared';

/** The request is the matrix itself (the same object every matrix capability's `matrix` field takes). */
export const ConstructMatrixInput = ExplicitMatrixSchema;
export type ConstructMatrixInput = ExplicitMatrix;

export const ConstructMatrixOutput = z
  .object({
    matrix_uri: z.string().describe('the stored matrix, to pass as matrix_uri to any matrix capability'),
    ring: MatrixRingSchema,
    nrows: z.number().int(),
    ncols: z.number().int(),
  })
  .strict();
export type ConstructMatrixOutput = z.infer<typeof ConstructMatrixOutput>;

export const MATRIX_CONSTRUCT_ID = 'matrix.construct.explicit';

export const constructMatrix: CapabilityDefinition<ConstructMatrixInput, ConstructMatrixOutput> = {
  id: MATRIX_CONSTRUCT_ID,
  version: '1.0.0',
  title: 'Store a matrix over Z, Q or GF(p)',
  description: `Validates a dense matrix given row by row over the integers Z, the rationals Q (entries as integers or exact fractions "p/q") or a prime field GF(p) (p checked prime), before writing anything: rows of equal length, at most ${MATRIX_LIMITS.maxRows}×${MATRIX_LIMITS.maxColumns}, entries of at most ${MATRIX_LIMITS.maxEntryBits} bits, no zero denominators (nor, over GF(p), denominators divisible by p); a bad entry is named by row, column and rule. Stores the canonical matrix (fractions in lowest terms, residues in [0, p)) as an artifact every matrix capability accepts as matrix_uri.`,
  tags: ['matrix', 'linear-algebra', 'construction', 'artifact', 'canonicalization'],
  keywords: ['store a matrix', 'create a matrix', 'matrix from rows', 'enter a matrix', 'dense matrix', 'rational matrix', 'integer matrix', 'matrix over a finite field', 'matrix artifact'],
  domain: 'matrix',
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [MATRIX_SCHEMA_URI],
  input: ConstructMatrixInput,
  output: ConstructMatrixOutput,
  examples: [
    { title: 'A 3×3 rational matrix', mode: 'EXPLORE', payload: { ring: { kind: 'Q' }, rows: [[2, '1/2', 0], [-1, 3, '-7/3'], [0, 1, 4]] } },
    { title: 'A 2×4 matrix over GF(5)', mode: 'EXPLORE', payload: { ring: { kind: 'GF', characteristic: '5' }, rows: [[1, 2, 3, 4], [4, 3, 2, 1]] } },
  ],
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the supplied matrix over the named ring; the artifact is that one matrix in canonical form.',
  limits: { max_rows: MATRIX_LIMITS.maxRows, max_columns: MATRIX_LIMITS.maxColumns, max_entry_bits: MATRIX_LIMITS.maxEntryBits },
  async run(input, context) {
    const matrix = await canonicalMatrixInTurn(input);
    const stored = await context.artifacts.put(
      { schema_uri: MATRIX_SCHEMA_URI, semantics_uri: MATRIX_SEMANTICS_URI, payload: matrix, parents: [], summary: { ring: matrix.ring.kind, nrows: matrix.nrows, ncols: matrix.ncols } },
      { signal: context.signal },
    );
    return {
      status: 'COMPLETED',
      output: { matrix_uri: stored.uri, ring: matrix.ring, nrows: matrix.nrows, ncols: matrix.ncols },
      scope: { kind: 'EXACT_INPUT', statement: `the ${matrixShape(matrix)} matrix as supplied`, input_uris: [] },
      completeness: { status: 'COMPLETE', basis: 'every entry was validated, canonicalized and stored' },
      qualifiers: ['EXACT', 'DETERMINISTIC'],
      assurance: { level: 'COMPUTED', basis: 'validated and canonicalized by the matrix contract', verification_record_uri: null, checker_id: null },
      obligations: [],
      relationships: [],
      artifact_uris: [stored.uri],
      diagnostics: [],
    };
  },
};
