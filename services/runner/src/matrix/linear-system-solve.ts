import { z } from 'zod';
import {
  canonicalVector,
  JacobianError,
  LINEAR_SYSTEM_CLAIM_SCHEMA_URI,
  LINEAR_SYSTEM_CLAIM_SEMANTICS_URI,
  LinearSystemClaimSchema,
  MATRIX_LIMITS,
  MATRIX_SCHEMA_URI,
  MatrixEntrySchema,
  resolveMatrixRing,
  type CapabilityDefinition,
  type Diagnostic,
  type ProviderRuntime,
} from '@jacobian/shared';
import { answerField, EngineSchema, engineRecord, exactOutcome, storeClaim, MATRIX_DESCRIPTOR_LIMITS, MATRIX_VERSION, matrixInput, resolveMatrix, runLinearAlgebra } from './capability-support.js';
import { KERNEL_NORMALIZATION } from './nullspace.js';

export const LINEAR_SYSTEM_SOLVE_ID = 'matrix.linear_system.solve';

export const SolveInput = matrixInput({
  rhs: z.array(MatrixEntrySchema).min(1).max(MATRIX_LIMITS.maxRows).describe('the right-hand side b: one entry per row of A, in A\'s ring'),
});
export type SolveInput = z.infer<typeof SolveInput>;

export const SolveOutput = z
  .object({
    outcome: z.enum(['SOLVED', 'INCONSISTENT']).describe('SOLVED: the solutions are exactly solution + span(kernel); INCONSISTENT: there is none, and certificate shows it'),
    solution: z.array(z.string()).nullable().describe('one solution x of A x = b (the free variables set to 0); null when INCONSISTENT'),
    kernel: z.array(z.array(z.string())).nullable().describe('a basis of the kernel of A, so that every solution is solution + a combination of these; empty when the solution is unique; null when INCONSISTENT'),
    certificate: z
      .array(z.string())
      .nullable()
      .describe('when INCONSISTENT: y with y A = 0 and y·b = 1 (a combination of the equations that reads 0 = 1); null when SOLVED'),
    rank: z.number().int().describe('the rank of A'),
    normalization: z.string().describe('how the kernel basis is normalized'),
    field: z.string().describe('Q for integer and rational systems (solutions over Q, not integer solutions), GF(p) otherwise'),
    result_uri: z.string().nullable().describe('the answer stored as a claim, to pass as result_uri to matrix.linear_system.verify; null when not retained'),
    engine: EngineSchema,
  })
  .strict();
export type SolveOutput = z.infer<typeof SolveOutput>;

/** matrix.linear_system.solve on our TypeScript engine. */
export function linearSystemSolve(runtime: ProviderRuntime): CapabilityDefinition<SolveInput, SolveOutput> {
  return {
    id: LINEAR_SYSTEM_SOLVE_ID,
    version: MATRIX_VERSION,
    title: 'Solve A x = b exactly (or certify no solution)',
    description:
      'Solves A x = b for a dense matrix A over Z or Q (solutions over Q) or GF(p), any shape (underdetermined, overdetermined, singular): SOLVED with one solution and a basis of the kernel of A, which together describe the whole solution set (an affine subspace), or INCONSISTENT with a certificate y such that y A = 0 and y·b = 1, which anyone can check by multiplying out; matrix.linear_system.verify checks either answer independently (given these output fields with A and b) and signs a verification record. By fraction-free Gauss–Jordan elimination (Bareiss) of [A | b] on big integers, or elimination modulo p.',
    tags: ['matrix', 'linear-algebra', 'linear-system', 'solve', 'exact', 'certificate', 'typescript'],
    keywords: [
      'solve a linear system',
      'system of linear equations',
      'linear equations',
      'A x = b',
      'Ax=b',
      'simultaneous equations',
      'general solution',
      'particular solution',
      'solution set',
      'affine subspace',
      'inconsistent system',
      'no solution certificate',
      'Fredholm alternative',
      'Gaussian elimination',
      'Cramer',
      'rational solution',
      'linear system mod p',
    ],
    domain: 'matrix',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [LINEAR_SYSTEM_CLAIM_SCHEMA_URI],
    input: SolveInput,
    output: SolveOutput,
    examples: [
      { title: 'An underdetermined system over Q: a solution and a kernel basis', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Q' }, rows: [[1, 2, 1], [2, 4, 3]] }, rhs: [1, '5/2'] } },
      { title: 'An inconsistent system over Z: the certificate y has y A = 0 and y·b = 1', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[1, 1], [2, 2]] }, rhs: [1, 3] } },
      { title: 'A square system over GF(101)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'GF', characteristic: '101' }, rows: [[3, 1], [1, 2]] }, rhs: [9, 8] } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'matrix.linear_system.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given system A x = b: all its solutions over Q (for Z and Q entries) or over GF(p), or a certificate that there are none; integer solutions of integer systems are not decided here.',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      const { matrix } = resolved;
      if (input.rhs.length !== matrix.nrows) {
        throw new JacobianError('INVALID_REQUEST', `payload.rhs: has ${input.rhs.length} entries, but A has ${matrix.nrows} rows (rule dimensions)`, { path: ['payload', 'rhs'], data: { rule: 'dimensions', rows: matrix.nrows, entries: input.rhs.length } });
      }
      const rhs = canonicalVector(input.rhs, resolveMatrixRing(matrix.ring), ['payload', 'rhs']);
      const { output, ms } = await runLinearAlgebra(context, { operation: 'solve', matrix, rhs });
      const field = answerField(resolved);
      const engine = engineRecord(runtime, resolved, ms);
      const system = `the system A x = b with A ${resolved.description.replace(/^the /, '')} and the given b`;
      const claim = LinearSystemClaimSchema.parse(
        output.consistent
          ? { matrix, rhs, outcome: 'SOLVED', solution: output.solution, kernel: output.kernel, certificate: null }
          : { matrix, rhs, outcome: 'INCONSISTENT', solution: null, kernel: null, certificate: output.certificate },
      );
      const diagnostics: Diagnostic[] = [];
      const resultUri = await storeClaim(
        { schema_uri: LINEAR_SYSTEM_CLAIM_SCHEMA_URI, semantics_uri: LINEAR_SYSTEM_CLAIM_SEMANTICS_URI, payload: claim, parents: resolved.input_uris, summary: { outcome: claim.outcome, nrows: matrix.nrows, ncols: matrix.ncols } },
        context,
        diagnostics,
      );
      const evidence = { artifact_uris: resultUri === null ? [] : [resultUri], diagnostics };
      return output.consistent
        ? exactOutcome<SolveOutput>(
            { outcome: 'SOLVED', solution: output.solution, kernel: output.kernel, certificate: null, rank: output.rank, normalization: KERNEL_NORMALIZATION, field, result_uri: resultUri, engine },
            resolved,
            `all solutions over ${field}`,
            `rank A = rank [A | b] = ${output.rank}; the solution set is solution + span of ${output.kernel.length} kernel vector${output.kernel.length === 1 ? '' : 's'}`,
            system,
            evidence,
          )
        : exactOutcome<SolveOutput>(
            { outcome: 'INCONSISTENT', solution: null, kernel: null, certificate: output.certificate, rank: output.rank, normalization: KERNEL_NORMALIZATION, field, result_uri: resultUri, engine },
            resolved,
            `that no solution exists over ${field}, with a certificate,`,
            `rank [A | b] = rank A + 1; the certificate y has y A = 0 and y·b = 1`,
            system,
            evidence,
          );
    },
  };
}
