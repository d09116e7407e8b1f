import { z } from 'zod';
import { MATRIX_SCHEMA_URI, type CapabilityDefinition, type ProviderRuntime } from '@jacobian/shared';
import {
  EngineSchema,
  engineRecord,
  exactOutcome,
  MATRIX_DESCRIPTOR_LIMITS,
  MATRIX_VERSION,
  matrixInput,
  PARI_ASSURANCE,
  pariRunOptions,
  pariToolsOf,
  requireSquare,
  resolveMatrix,
  runLinearAlgebra,
  servedBy,
  type MatrixBackendOptions,
} from './capability-support.js';
import { PARI_DETERMINANT_METHOD, pariDeterminant } from './pari-backend.js';

export const MATRIX_DETERMINANT_ID = 'matrix.determinant.compute';

export const DeterminantInput = matrixInput({});
export type DeterminantInput = z.infer<typeof DeterminantInput>;

export const DeterminantOutput = z
  .object({
    determinant: z.string().describe('det A, exactly: an integer for Z matrices, a fraction "p/q" in lowest terms for Q, the least non-negative residue for GF(p)'),
    n: z.number().int().describe('the order of the square matrix'),
    singular: z.boolean().describe('true exactly when det A = 0'),
    engine: EngineSchema,
  })
  .strict();
export type DeterminantOutput = z.infer<typeof DeterminantOutput>;

/** matrix.determinant.compute on PARI/GP (when `runtime` is its) or our TypeScript engine. */
export function determinantCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<DeterminantInput, DeterminantOutput> {
  const pari = pariToolsOf(MATRIX_DETERMINANT_ID, runtime, options);
  const served = servedBy(
    pari,
    'The exact determinant of a square dense matrix over Z, Q or GF(p): by fraction-free Gaussian elimination (Bareiss) on big integers (rational rows scaled to integers first, and the scale divided out), or by elimination modulo p. No floating point: large entries and large determinants are exact. A non-square matrix is refused before any work, naming the rule.',
    ['matrix', 'linear-algebra', 'determinant', 'exact', 'typescript'],
    'matdet',
  );
  return {
    id: MATRIX_DETERMINANT_ID,
    version: MATRIX_VERSION,
    title: 'Determinant over Z, Q or GF(p)',
    description: served.description,
    tags: served.tags,
    keywords: ['determinant', 'det', 'det(A)', 'is the matrix singular', 'singular matrix', 'invertible', 'Bareiss algorithm', 'fraction-free elimination', 'Gaussian elimination', 'Leibniz formula', 'Laplace expansion', 'exact determinant of an integer matrix', 'determinant mod p'],
    domain: 'matrix',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [],
    input: DeterminantInput,
    output: DeterminantOutput,
    examples: [
      { title: 'A 3×3 integer matrix (det = 6)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0, 1], [1, 3, 2], [1, 1, 2]] } } },
      { title: 'The 3×3 Hilbert matrix over Q (det = 1/2160)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Q' }, rows: [[1, '1/2', '1/3'], ['1/2', '1/3', '1/4'], ['1/3', '1/4', '1/5']] } } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given square matrix: its determinant in its ring.',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      requireSquare(resolved, input, 'the determinant');
      if (pari !== null) {
        const { determinant, ms } = await pariDeterminant(pari, resolved.matrix, pariRunOptions(context));
        return exactOutcome(
          { determinant, n: resolved.matrix.nrows, singular: determinant === '0', engine: { provider: runtime.provider, version: runtime.version, method: PARI_DETERMINANT_METHOD, compute_ms: ms } },
          resolved,
          'the determinant',
          'PARI/GP ran to the end and its answer passed our recheck',
          resolved.description,
          undefined,
          PARI_ASSURANCE,
        );
      }
      const { output, ms } = await runLinearAlgebra(context, { operation: 'determinant', matrix: resolved.matrix });
      return exactOutcome(
        { determinant: output.determinant, n: resolved.matrix.nrows, singular: output.determinant === '0', engine: engineRecord(runtime, resolved, ms) },
        resolved,
        'the determinant',
        'elimination ran to the end exactly',
      );
    },
  };
}
