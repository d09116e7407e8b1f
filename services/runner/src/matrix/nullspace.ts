import { z } from 'zod';
import { MATRIX_SCHEMA_URI, type CapabilityDefinition, type ProviderRuntime } from '@jacobian/shared';
import {
  answerField,
  engineRecord,
  EngineSchema,
  MATRIX_DESCRIPTOR_LIMITS,
  MATRIX_VERSION,
  type MatrixBackendOptions,
  matrixInput,
  pariRunOptions,
  pariToolsOf,
  providerEngine,
  resolveMatrix,
  runLinearAlgebra,
  servedBy,
  servedOutcome,
} from './capability-support.js';
import { PARI_KERNEL_METHOD, pariKernels } from './pari-backend.js';

export const MATRIX_NULLSPACE_ID = 'matrix.nullspace.compute';

/** How the kernel bases are normalized, as the output states it. */
export const KERNEL_NORMALIZATION =
  'one vector per free (non-pivot) column f of the RREF: entry f is 1, the other free entries 0, the pivot entries fixed by the RREF; over Z each such vector is then scaled to a primitive integer vector with a positive leading entry (a basis over Q, written in integers — not a basis of the integer lattice of solutions)';

export const NullspaceInput = matrixInput({});
export type NullspaceInput = z.infer<typeof NullspaceInput>;

export const NullspaceOutput = z
  .object({
    right_kernel: z.array(z.array(z.string())).describe('a basis of the right kernel {x : A x = 0} (ncols entries each); empty when A has full column rank'),
    left_kernel: z.array(z.array(z.string())).describe('a basis of the left kernel {y : y A = 0} (nrows entries each), the right kernel of the transpose; empty when A has full row rank'),
    rank: z.number().int(),
    nullity: z.number().int().describe('ncols − rank, the number of right kernel vectors (rank–nullity)'),
    left_nullity: z.number().int().describe('nrows − rank, the number of left kernel vectors'),
    normalization: z.string(),
    field: z.string().describe('Q for integer and rational matrices, GF(p) otherwise'),
    engine: EngineSchema,
  })
  .strict();
export type NullspaceOutput = z.infer<typeof NullspaceOutput>;

/** matrix.nullspace.compute on PARI/GP (when `runtime` is its) or our TypeScript engine. */
export function nullspaceCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<NullspaceInput, NullspaceOutput> {
  const pari = pariToolsOf(MATRIX_NULLSPACE_ID, runtime, options);
  const served = servedBy(
    pari,
    `Exact bases of the right kernel (null space) {x : A x = 0} and the left kernel {y : y A = 0} of a dense matrix over Z or Q (over Q) or GF(p), any shape, read off reduced row echelon forms computed by fraction-free elimination (Bareiss) or elimination modulo p. Normalization: ${KERNEL_NORMALIZATION}. Their sizes satisfy rank–nullity.`,
    ['matrix', 'linear-algebra', 'kernel', 'nullspace', 'exact', 'typescript'],
    'matker',
  );
  return {
    id: MATRIX_NULLSPACE_ID,
    version: MATRIX_VERSION,
    title: 'Kernel (null space): right and left bases',
    description: served.description,
    tags: served.tags,
    keywords: ['kernel', 'null space', 'nullspace', 'right kernel', 'left kernel', 'left null space', 'cokernel', 'solutions of A x = 0', 'homogeneous linear system', 'linear dependencies among columns', 'linear relations', 'basis of the kernel', 'rank–nullity', 'nullity', 'kernel mod p'],
    domain: 'matrix',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [],
    input: NullspaceInput,
    output: NullspaceOutput,
    examples: [
      { title: 'Kernels of the singular 3×3 matrix 1..9 over Z', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] } } },
      { title: 'Null space of a 2×4 matrix over GF(5)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'GF', characteristic: '5' }, rows: [[1, 2, 3, 4], [0, 1, 1, 1]] } } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given matrix: bases of its right and left kernels over Q (for Z and Q entries) or over GF(p).',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      const field = answerField(resolved);
      const kernels =
        pari === null
          ? await runLinearAlgebra(context, { operation: 'nullspace', matrix: resolved.matrix }).then(({ output, ms }) => ({ ...output, engine: engineRecord(runtime, resolved, ms) }))
          : await pariKernels(pari, resolved.matrix, pariRunOptions(context)).then(({ ms, ...output }) => ({ ...output, engine: providerEngine(runtime, PARI_KERNEL_METHOD, ms) }));
      return servedOutcome(
        pari,
        {
          right_kernel: kernels.right,
          left_kernel: kernels.left,
          rank: kernels.rank,
          nullity: kernels.right.length,
          left_nullity: kernels.left.length,
          normalization: KERNEL_NORMALIZATION,
          field,
          engine: kernels.engine,
        },
        resolved,
        `bases of the right and left kernels over ${field}`,
        'elimination ran to the end exactly; the bases have rank–nullity sizes',
        { pariBasis: 'PARI/GP ran to the end; its bases passed our recheck (A x = 0, independent, rank–nullity sizes)' },
      );
    },
  };
}
