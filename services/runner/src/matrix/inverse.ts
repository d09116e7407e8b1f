import { z } from 'zod';
import { INVERSE_CLAIM_SCHEMA_URI, INVERSE_CLAIM_SEMANTICS_URI, InverseClaimSchema, MATRIX_SCHEMA_URI, type CapabilityDefinition, type Diagnostic, type ProviderRuntime } from '@jacobian/shared';
import { answerField, EngineSchema, engineRecord, exactOutcome, storeClaim, MATRIX_DESCRIPTOR_LIMITS, MATRIX_VERSION, matrixInput, requireSquare, resolveMatrix, runLinearAlgebra } from './capability-support.js';

export const MATRIX_INVERSE_ID = 'matrix.inverse.compute';

export const InverseInput = matrixInput({});
export type InverseInput = z.infer<typeof InverseInput>;

export const InverseOutput = z
  .object({
    outcome: z.enum(['INVERTIBLE', 'SINGULAR']).describe('INVERTIBLE with the inverse, or SINGULAR with a certificate: a non-zero kernel vector'),
    inverse: z.array(z.array(z.string())).nullable().describe('A⁻¹, rows top to bottom, exact in the field; null when SINGULAR'),
    kernel_vector: z
      .array(z.string())
      .nullable()
      .describe('when SINGULAR: a non-zero x with A x = 0, the certificate that no inverse exists (over Z a primitive integer vector); null when INVERTIBLE'),
    rank: z.number().int(),
    n: z.number().int(),
    field: z.string().describe('Q for integer and rational matrices (the inverse of an integer matrix is rational), GF(p) otherwise'),
    result_uri: z.string().nullable().describe('the answer stored as a claim, to pass as result_uri to matrix.inverse.verify; null when not retained'),
    engine: EngineSchema,
  })
  .strict();
export type InverseOutput = z.infer<typeof InverseOutput>;

/** matrix.inverse.compute on our TypeScript engine. */
export function inverseCompute(runtime: ProviderRuntime): CapabilityDefinition<InverseInput, InverseOutput> {
  return {
    id: MATRIX_INVERSE_ID,
    version: MATRIX_VERSION,
    title: 'Matrix inverse (or a singularity certificate)',
    description:
      'The exact inverse A⁻¹ of a square dense matrix over Z or Q (over Q) or GF(p), by fraction-free Gauss–Jordan elimination of [A | I] on big integers or elimination modulo p. When A is singular (not invertible) the answer is SINGULAR with a certificate: a non-zero vector x with A x = 0, which anyone can check by multiplying out; matrix.inverse.verify checks either answer independently and signs a verification record. A non-square matrix is refused before any work, naming the rule.',
    tags: ['matrix', 'linear-algebra', 'inverse', 'invertible', 'exact', 'certificate', 'typescript'],
    keywords: ['inverse matrix', 'matrix inverse', 'invert a matrix', 'A^-1', 'A⁻¹', 'invertible', 'nonsingular', 'singular matrix', 'Gauss–Jordan elimination', 'adjugate', 'inverse mod p', 'inverse of a rational matrix'],
    domain: 'matrix',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [INVERSE_CLAIM_SCHEMA_URI],
    input: InverseInput,
    output: InverseOutput,
    examples: [
      { title: 'Invert a 2×2 integer matrix (the inverse is rational)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[2, 1], [7, 4]] } } },
      { title: 'A singular matrix over GF(7): the answer carries a kernel vector', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'GF', characteristic: '7' }, rows: [[1, 2], [3, 6]] } } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'matrix.inverse.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given square matrix: its inverse over Q (for Z and Q entries) or over GF(p), or a kernel vector showing it has none.',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      requireSquare(resolved, input, 'the inverse');
      const { output, ms } = await runLinearAlgebra(context, { operation: 'inverse', matrix: resolved.matrix });
      const n = resolved.matrix.nrows;
      const field = answerField(resolved);
      const engine = engineRecord(runtime, resolved, ms);
      const claim = InverseClaimSchema.parse(
        output.invertible ? { matrix: resolved.matrix, outcome: 'INVERTIBLE', inverse: output.inverse, kernel_vector: null } : { matrix: resolved.matrix, outcome: 'SINGULAR', inverse: null, kernel_vector: output.kernel_vector },
      );
      const diagnostics: Diagnostic[] = [];
      const resultUri = await storeClaim(
        { schema_uri: INVERSE_CLAIM_SCHEMA_URI, semantics_uri: INVERSE_CLAIM_SEMANTICS_URI, payload: claim, parents: resolved.input_uris, summary: { outcome: claim.outcome, n } },
        context,
        diagnostics,
      );
      const evidence = { artifact_uris: resultUri === null ? [] : [resultUri], diagnostics };
      return output.invertible
        ? exactOutcome<InverseOutput>(
            { outcome: 'INVERTIBLE', inverse: output.inverse, kernel_vector: null, rank: n, n, field, result_uri: resultUri, engine },
            resolved,
            `the inverse over ${field}`,
            'Gauss–Jordan elimination of [A | I] reached the identity on the left',
            resolved.description,
            evidence,
          )
        : exactOutcome<InverseOutput>(
            { outcome: 'SINGULAR', inverse: null, kernel_vector: output.kernel_vector, rank: output.rank, n, field, result_uri: resultUri, engine },
            resolved,
            `that no inverse exists over ${field}, with a kernel vector as certificate,`,
            `A has rank ${output.rank} < ${n}; the kernel vector shows it`,
            resolved.description,
            evidence,
          );
    },
  };
}
