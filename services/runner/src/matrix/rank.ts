import { z } from 'zod';
import { MATRIX_SCHEMA_URI, RANK_CLAIM_SCHEMA_URI, RANK_CLAIM_SEMANTICS_URI, RankClaimSchema, type CapabilityDefinition, type ProviderRuntime } from '@jacobian/shared';
import {
  answerField,
  EngineSchema,
  MATRIX_DESCRIPTOR_LIMITS,
  MATRIX_VERSION,
  matrixInput,
  MULTIMODULAR_METHOD,
  pariToolsOf,
  produceClaim,
  resolveMatrix,
  runLinearAlgebra,
  servedBy,
  type MatrixBackendOptions,
} from './capability-support.js';
import { PARI_RANK_METHOD, pariRank } from './pari-backend.js';

export const MATRIX_RANK_ID = 'matrix.rank.compute';

export const RankInput = matrixInput({});
export type RankInput = z.infer<typeof RankInput>;

export const RankOutput = z
  .object({
    rank: z.number().int().describe('the rank: the dimension of the row space (= of the column space) over the field'),
    nrows: z.number().int(),
    ncols: z.number().int(),
    nullity: z.number().int().describe('ncols − rank: the dimension of the right kernel (rank–nullity)'),
    left_nullity: z.number().int().describe('nrows − rank: the dimension of the left kernel'),
    field: z.string().describe('the field the rank is taken over: Q for integer and rational matrices, GF(p) otherwise'),
    result_uri: z.string().nullable().describe('the answer stored as a claim, to pass as result_uri to matrix.rank.verify; null when not retained'),
    engine: EngineSchema,
  })
  .strict();
export type RankOutput = z.infer<typeof RankOutput>;

/** matrix.rank.compute on PARI/GP (when `runtime` is its) or our TypeScript engine. */
export function rankCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<RankInput, RankOutput> {
  const pari = pariToolsOf(MATRIX_RANK_ID, runtime, options);
  const served = servedBy(
    pari,
    'The exact rank of a dense matrix over Z or Q (rank over Q) or GF(p), any shape; with the nullity and left nullity by rank–nullity. Over Z and Q multimodular: r = the largest rank modulo word-size primes (never above the true rank), primes taken until their product exceeds Hadamard\'s bound on the (r+1)×(r+1) minors, which proves no larger minor is non-zero; deterministic. Over GF(p) elimination modulo p. The answer is stored as a claim (result_uri) that matrix.rank.verify proves independently, by a minor and a kernel. The matrix is inline or a stored matrix_uri.',
    ['matrix', 'linear-algebra', 'rank', 'exact', 'typescript'],
    'matrank',
  );
  return {
    id: MATRIX_RANK_ID,
    version: MATRIX_VERSION,
    title: 'Matrix rank over Q or GF(p)',
    description: served.description,
    tags: served.tags,
    keywords: ['rank of a matrix', 'matrix rank', 'row rank', 'column rank', 'linearly independent rows', 'linear independence', 'dimension of the row space', 'rank–nullity', 'nullity', 'Gaussian elimination', 'multimodular rank', 'rank over a finite field', 'rank mod p'],
    domain: 'matrix',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [RANK_CLAIM_SCHEMA_URI],
    input: RankInput,
    output: RankOutput,
    examples: [
      { title: 'A rank-2 3×3 integer matrix', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] } } },
      { title: 'Rank over GF(2) of a 3×4 matrix', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'GF', characteristic: '2' }, rows: [[1, 1, 0, 1], [0, 1, 1, 1], [1, 0, 1, 0]] } } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'matrix.rank.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given matrix: its rank over Q (for Z and Q entries) or over GF(p).',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      const { nrows, ncols } = resolved.matrix;
      const field = answerField(resolved);
      return produceClaim(context, runtime, pari, resolved, `the rank over ${field}`, {
        pari: (tools, options) => pariRank(tools, resolved.matrix, options).then(({ rank, ms }) => ({ answer: rank, ms })),
        pariMethod: PARI_RANK_METHOD,
        ours: () => runLinearAlgebra(context, { operation: 'rank', matrix: resolved.matrix }).then(({ output, ms }) => ({ answer: output.rank, ms })),
        method: MULTIMODULAR_METHOD,
        claim: (rank) => ({ schema_uri: RANK_CLAIM_SCHEMA_URI, semantics_uri: RANK_CLAIM_SEMANTICS_URI, payload: RankClaimSchema.parse({ matrix: resolved.matrix, rank }), summary: { rank, nrows, ncols } }),
        output: (rank, resultUri, engine) => ({ rank, nrows, ncols, nullity: ncols - rank, left_nullity: nrows - rank, field, result_uri: resultUri, engine }),
      });
    },
  };
}
