import { z } from 'zod';
import { DETERMINANT_CLAIM_SCHEMA_URI, DETERMINANT_CLAIM_SEMANTICS_URI, DeterminantClaimSchema, MATRIX_SCHEMA_URI, type CapabilityDefinition, type ProviderRuntime } from '@jacobian/shared';
import {
  EngineSchema,
  MATRIX_DESCRIPTOR_LIMITS,
  MATRIX_VERSION,
  matrixInput,
  MULTIMODULAR_METHOD,
  pariToolsOf,
  produceClaim,
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
    result_uri: z.string().nullable().describe('the answer stored as a claim, to pass as result_uri to matrix.determinant.verify; null when not retained'),
    engine: EngineSchema,
  })
  .strict();
export type DeterminantOutput = z.infer<typeof DeterminantOutput>;

/** matrix.determinant.compute on PARI/GP (when `runtime` is its) or our TypeScript engine. */
export function determinantCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<DeterminantInput, DeterminantOutput> {
  const pari = pariToolsOf(MATRIX_DETERMINANT_ID, runtime, options);
  const served = servedBy(
    pari,
    'The exact determinant of a square dense matrix over Z, Q or GF(p). Over Z and Q multimodular: elimination modulo word-size primes until their product exceeds twice Hadamard\'s bound, then the Chinese remainder theorem (rational rows scaled to integers first, and the scale divided out); deterministic, no early stop. Over GF(p) elimination modulo p. Large entries and determinants are exact. The answer is stored as a claim (result_uri) that matrix.determinant.verify recomputes independently, by fraction-free Bareiss elimination on big integers. A non-square matrix is refused before any work, naming the rule.',
    ['matrix', 'linear-algebra', 'determinant', 'exact', 'typescript'],
    'matdet',
  );
  return {
    id: MATRIX_DETERMINANT_ID,
    version: MATRIX_VERSION,
    title: 'Determinant over Z, Q or GF(p)',
    description: served.description,
    tags: served.tags,
    keywords: ['determinant', 'det', 'det(A)', 'is the matrix singular', 'singular matrix', 'invertible', 'multimodular determinant', 'Chinese remainder theorem', 'Hadamard bound', 'Gaussian elimination', 'Leibniz formula', 'Laplace expansion', 'exact determinant of an integer matrix', 'determinant mod p'],
    domain: 'matrix',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [DETERMINANT_CLAIM_SCHEMA_URI],
    input: DeterminantInput,
    output: DeterminantOutput,
    examples: [
      { title: 'A 3×3 integer matrix (det = 6)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0, 1], [1, 3, 2], [1, 1, 2]] } } },
      { title: 'The 3×3 Hilbert matrix over Q (det = 1/2160)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Q' }, rows: [[1, '1/2', '1/3'], ['1/2', '1/3', '1/4'], ['1/3', '1/4', '1/5']] } } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'matrix.determinant.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given square matrix: its determinant in its ring.',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      requireSquare(resolved, input, 'the determinant');
      const n = resolved.matrix.nrows;
      return produceClaim(context, runtime, pari, resolved, 'the determinant', {
        pari: (tools, options) => pariDeterminant(tools, resolved.matrix, options).then(({ determinant, ms }) => ({ answer: determinant, ms })),
        pariMethod: PARI_DETERMINANT_METHOD,
        ours: () => runLinearAlgebra(context, { operation: 'determinant', matrix: resolved.matrix }).then(({ output, ms }) => ({ answer: output.determinant, ms })),
        method: MULTIMODULAR_METHOD,
        claim: (determinant) => ({
          schema_uri: DETERMINANT_CLAIM_SCHEMA_URI,
          semantics_uri: DETERMINANT_CLAIM_SEMANTICS_URI,
          payload: DeterminantClaimSchema.parse({ matrix: resolved.matrix, determinant }),
          summary: { n, singular: determinant === '0' },
        }),
        output: (determinant, resultUri, engine) => ({ determinant, n, singular: determinant === '0', result_uri: resultUri, engine }),
      });
    },
  };
}
