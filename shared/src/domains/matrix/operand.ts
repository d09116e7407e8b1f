/**
 * How matrix capabilities receive a matrix: inline (`matrix`: ring and rows) or as a stored
 * matrix artifact (`matrix_uri`, e.g. from matrix.construct.explicit). One schema and one
 * resolver, shared by producers and checkers, so every matrix capability accepts the same forms
 * with the same errors.
 */
import type { z } from 'zod';
import { ArtifactUriSchema } from '../../artifacts/manifest.js';
import { getTypedArtifactAt } from '../../artifacts/read-at.js';
import type { ArtifactStore } from '../../artifacts/store.js';
import { inOwnTurn } from '../../capabilities/turns.js';
import type { JsonPath } from '../../errors.js';
import { canonicalMatrix, ExplicitMatrixSchema, MATRIX_SCHEMA_URI, MATRIX_SEMANTICS_URI, MatrixPayloadSchema, matrixShape, type ExplicitMatrix, type MatrixPayload } from './matrix.js';

/** Matrices with more entries than this are canonicalized in a turn of the event loop of their own (fractions are reduced by gcds; see turns.ts). */
const LARGE_INLINE_ENTRIES = 4096;

/** {@link canonicalMatrix}, in a turn of its own for a large matrix. */
export async function canonicalMatrixInTurn(matrix: ExplicitMatrix): Promise<MatrixPayload> {
  const entries = matrix.rows.length * (matrix.rows[0]?.length ?? 0);
  return entries > LARGE_INLINE_ENTRIES ? inOwnTurn(() => canonicalMatrix(matrix)) : canonicalMatrix(matrix);
}

/** The matrix fields of a matrix capability's input: exactly one of them. Pair with {@link refineMatrixOperand}. */
export const matrixOperandShape = {
  matrix: ExplicitMatrixSchema.optional().describe('the matrix inline: {"ring": …, "rows": [[…], …]}'),
  matrix_uri: ArtifactUriSchema.optional().describe('a stored matrix artifact, e.g. from matrix.construct.explicit'),
} as const;

/** The fields of {@link matrixOperandShape}, as parsed. */
export interface MatrixOperand {
  matrix?: ExplicitMatrix | undefined;
  matrix_uri?: string | undefined;
}

/** Cross-field rule of a matrix operand: exactly one form. */
export function refineMatrixOperand(input: MatrixOperand, ctx: z.RefinementCtx): void {
  const given = (['matrix', 'matrix_uri'] as const).filter((field) => input[field] !== undefined);
  if (given.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      path: given.length > 1 ? ['matrix_uri'] : [],
      message: given.length === 0 ? 'give the matrix as `matrix` (ring and rows) or `matrix_uri` (a stored matrix)' : 'give only one of `matrix` and `matrix_uri`',
    });
  }
}

/** A matrix operand made concrete. */
export interface ResolvedMatrix {
  matrix: MatrixPayload;
  /** Stored artifacts the matrix came from ([] inline). */
  input_uris: string[];
  /** "the stored 3×3 matrix over Q artifact://…" or "the given 3×3 matrix over Q", for scope statements. */
  description: string;
}

/**
 * Resolve a validated operand; reads the artifact when one is named, and fails with
 * ARTIFACT_TYPE_MISMATCH at `[...path, 'matrix_uri']` when it is not a canonical matrix.
 */
export async function resolveMatrixOperand(input: MatrixOperand, artifacts: ArtifactStore, options: { signal?: AbortSignal; path?: JsonPath } = {}): Promise<ResolvedMatrix> {
  const path = options.path ?? ['payload'];
  if (input.matrix_uri !== undefined) {
    const { artifact, payload } = await getTypedArtifactAt(
      artifacts,
      input.matrix_uri,
      [...path, 'matrix_uri'],
      {
        schemaUri: MATRIX_SCHEMA_URI,
        semanticsUri: MATRIX_SEMANTICS_URI,
        what: 'a stored matrix',
        payload: MatrixPayloadSchema,
        hint: 'store the matrix with matrix.construct.explicit and pass its matrix_uri, or pass the matrix inline',
      },
      options.signal === undefined ? {} : { signal: options.signal },
    );
    return { matrix: payload, input_uris: [artifact.uri], description: `the stored ${matrixShape(payload)} matrix ${artifact.uri}` };
  }
  const explicit = input.matrix;
  if (explicit === undefined) throw new Error('resolveMatrixOperand: the operand was not validated (neither matrix nor matrix_uri)');
  const matrix = await canonicalMatrixInTurn(explicit);
  return { matrix, input_uris: [], description: `the given ${matrixShape(matrix)} matrix` };
}
