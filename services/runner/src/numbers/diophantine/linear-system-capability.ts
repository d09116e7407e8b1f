/**
 * diophantine.linear_system.solve: all integer solutions of A x = b (particular solution plus a
 * lattice basis of the integer kernel), or NONE with a rational certificate y (y A integral, y·b
 * not an integer), through the Hermite normal form engine of the linear algebra pack.
 */
import { z } from 'zod';
import { DIOPHANTINE_CLAIM_SCHEMA_URI, JacobianError, MATRIX_LIMITS, MATRIX_SCHEMA_URI, type CapabilityDefinition, type Diagnostic, type ProviderRuntime } from '@jacobian/shared';
import { MATRIX_DESCRIPTOR_LIMITS, matrixInput, resolveMatrix } from '../../matrix/capability-support.js';
import { requireInteger } from '../../matrix/normal-form-support.js';
import { DIOPHANTINE_VERSION, EngineSchema, engineRecord, exactOutcome, integerInput, runDiophantine, storeDiophantineClaim } from './support.js';

export const INTEGER_LINEAR_SYSTEM_ID = 'diophantine.linear_system.solve';
const ENTRY_DIGITS = Math.ceil(MATRIX_LIMITS.maxEntryBits * Math.log10(2));

export const IntegerSystemInput = matrixInput({
  rhs: z.array(integerInput(ENTRY_DIGITS)).min(1).max(MATRIX_LIMITS.maxRows).describe('b: one integer per row of A'),
});
export type IntegerSystemInput = z.infer<typeof IntegerSystemInput>;

export const IntegerSystemOutput = z
  .object({
    outcome: z.enum(['SOLVED', 'NONE']).describe('SOLVED: the integer solutions are exactly particular + Z-combinations of kernel_basis; NONE: there is no integer solution, as certificate shows'),
    particular: z.array(z.string()).nullable().describe('one integer solution x0 of A x = b'),
    kernel_basis: z.array(z.array(z.string())).nullable().describe('a basis of the lattice {x ∈ Z^n : A x = 0} (n − rank vectors; empty when the solution is unique)'),
    obstruction: z.enum(['NOT_INTEGRAL', 'INCONSISTENT_OVER_Q']).nullable().describe('NONE: rational solutions exist but none integral, or none at all'),
    certificate: z.array(z.string()).nullable().describe('NONE: a rational vector y (one entry per equation) with y A integral and y·b not an integer; an integer x with A x = b would make y·b = (y A)·x an integer'),
    certificate_dot_rhs: z.string().nullable().describe('NONE: y·b, a non-integer rational'),
    rank: z.number().int(),
    result_uri: z.string().nullable().describe('the answer stored as a claim for diophantine.claim.verify (SOLVED with W, K W = I, certifying the kernel basis; NONE with y)'),
    engine: EngineSchema,
  })
  .strict();
export type IntegerSystemOutput = z.infer<typeof IntegerSystemOutput>;

export function integerLinearSystemSolve(runtime: ProviderRuntime): CapabilityDefinition<IntegerSystemInput, IntegerSystemOutput> {
  return {
    id: INTEGER_LINEAR_SYSTEM_ID,
    version: DIOPHANTINE_VERSION,
    title: 'Integer solutions of A x = b',
    description:
      'All integer solutions of a system of linear Diophantine equations A x = b (A an integer matrix, any shape): one particular solution and a lattice basis of the integer kernel, so that the solutions are exactly x0 + Z-combinations of the basis (the Bezout identity generalised; one equation a1 x1 + … + an xn = c is solvable iff gcd(a) | c). Computed from the Hermite normal form U Aᵀ = H with unimodular U (the HNF engine of the linear algebra pack; Smith/Hermite normal forms). NONE comes with a certificate: a rational y with y A integral and y·b not an integer. Rechecked exactly (A x0 = b, A k = 0, |det U| = 1; y A ∈ Z^n, y·b ∉ Z). Example: 6x + 10y + 15z = 1 has the solutions (−14, 7, 1) + lattice.',
    tags: ['number-theory', 'diophantine', 'linear-diophantine', 'integer', 'hermite-normal-form', 'certificate', 'exact', 'typescript'],
    keywords: ['linear Diophantine equation', 'system of linear Diophantine equations', 'integer solutions of A x = b', 'Bezout', 'Bézout identity', 'extended gcd', 'integer kernel', 'lattice of integer solutions', 'Hermite normal form', 'Smith normal form', 'no integer solution certificate', 'matsolvemod', 'integer linear system'],
    domain: 'number_theory',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [DIOPHANTINE_CLAIM_SCHEMA_URI],
    input: IntegerSystemInput,
    output: IntegerSystemOutput,
    examples: [
      { title: '6x + 10y + 15z = 1: a particular solution and a basis of the solution lattice', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[6, 10, 15]] }, rhs: [1] } },
      { title: '2x + 4y = 3 has no integer solution: y = (1/2) gives y A = (1, 2), y·b = 3/2', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[2, 4]] }, rhs: [3] } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'diophantine.claim.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'A x = b over Z: all solutions, or proof of none.',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      requireInteger(resolved, input, 'integer solutions of A x = b');
      const { matrix } = resolved;
      if (input.rhs.length !== matrix.nrows) {
        throw new JacobianError('INVALID_REQUEST', `payload.rhs: has ${input.rhs.length} entries, but A has ${matrix.nrows} rows (rule dimensions)`, { path: ['payload', 'rhs'], data: { rule: 'dimensions', rows: matrix.nrows, entries: input.rhs.length } });
      }
      const { output, ms } = await runDiophantine(context, { operation: 'linear_system', matrix: matrix.rows, rhs: input.rhs });
      const engine = engineRecord(runtime, 'Hermite normal form U Aᵀ = H with unimodular U (the linear algebra pack\'s HNF engine), forward substitution in Hᵀ z = b, x = Uᵀ z', ms);
      const system = `the linear Diophantine system A x = b with A ${resolved.description.replace(/^the /, '')} and the given b`;
      const diagnostics: Diagnostic[] = [];
      if (output.outcome === 'SOLVED') {
        const kernel = output.kernel ?? [];
        const solvedUri = await storeDiophantineClaim(
          { kind: 'INTEGER_SYSTEM_SOLVED', matrix: matrix.rows, rhs: input.rhs, particular: output.particular, kernel, kernel_right_inverse: output.kernel_right_inverse },
          { kind: 'INTEGER_SYSTEM_SOLVED', nrows: matrix.nrows, ncols: matrix.ncols },
          context,
          diagnostics,
          resolved.input_uris,
        );
        return exactOutcome<IntegerSystemOutput>(
          { outcome: 'SOLVED', particular: output.particular, kernel_basis: kernel, obstruction: null, certificate: null, certificate_dot_rhs: null, rank: output.rank, result_uri: solvedUri, engine },
          `all integer solutions of ${system}`,
          `U is unimodular (|det U| = 1 rechecked), so the last ${kernel.length} rows of U are a basis of the integer kernel (K W = I rechecked); A x0 = b rechecked`,
          { artifactUris: solvedUri === null ? [] : [solvedUri], diagnostics, inputUris: resolved.input_uris },
        );
      }
      const resultUri = await storeDiophantineClaim({ kind: 'INTEGER_SYSTEM_NONE', matrix: matrix.rows, rhs: input.rhs, certificate: output.certificate }, { kind: 'INTEGER_SYSTEM_NONE', nrows: matrix.nrows, ncols: matrix.ncols }, context, diagnostics, resolved.input_uris);
      return exactOutcome<IntegerSystemOutput>(
        { outcome: 'NONE', particular: null, kernel_basis: null, obstruction: output.obstruction, certificate: output.certificate, certificate_dot_rhs: output.certificate_dot_rhs, rank: output.rank, result_uri: resultUri, engine },
        `that ${system} has no integer solution, with a certificate`,
        `y A is integral and y·b = ${output.certificate_dot_rhs} is not an integer (rechecked exactly)`,
        { artifactUris: resultUri === null ? [] : [resultUri], diagnostics, inputUris: resolved.input_uris },
      );
    },
  };
}
