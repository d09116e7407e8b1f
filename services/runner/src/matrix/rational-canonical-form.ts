/**
 * matrix.rational_canonical_form.compute on our TypeScript engine (frobenius.ts, run in its
 * isolated kernel): the Frobenius normal form, its invariant factors and the transforming matrix
 * P, stored as a claim that matrix.rational_canonical_form.verify checks without recomputing the
 * form (P invertible, A P = P F, the invariant factors monic, each dividing the next).
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  FROBENIUS_CONVENTION,
  JacobianError,
  MATRIX_SCHEMA_URI,
  RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI,
  RATIONAL_CANONICAL_FORM_CLAIM_SEMANTICS_URI,
  RationalCanonicalFormClaimSchema,
  runKernel,
  transformSizeProblem,
  type CapabilityContext,
  type CapabilityDefinition,
  type Diagnostic,
  type ProviderRuntime,
  type ResolvedMatrix,
} from '@jacobian/shared';
import { answerField, EngineSchema, exactOutcome, MATRIX_DESCRIPTOR_LIMITS, MATRIX_VERSION, requireSquare, resolveMatrix, storeClaim } from './capability-support.js';
import { CharacteristicPolynomialInput, polynomialText } from './characteristic-polynomial.js';
import { SpectralKernelOutput, type SpectralKernelInput } from './spectral.kernel.js';

export const MATRIX_RATIONAL_CANONICAL_FORM_ID = 'matrix.rational_canonical_form.compute';

const KERNEL = { module: fileURLToPath(new URL('./spectral.kernel.ts', import.meta.url)), exportName: 'spectralKernel' };

export const FROBENIUS_METHOD =
  'cyclic decomposition without factoring: a maximal vector (local minimal polynomials merged by gcd-only coprime splitting), its Krylov basis, an invariant complement cut out by a dual functional, recursion; exact field arithmetic (rationals over Q)';

/** Run one operation in the isolated kernel; the answer is parsed, and must be of that operation, before it is used. */
export async function runSpectral<K extends SpectralKernelInput['operation']>(context: CapabilityContext, operation: K, resolved: ResolvedMatrix): Promise<{ output: Extract<SpectralKernelOutput, { operation: K }>; ms: number }> {
  const started = Date.now();
  const output = SpectralKernelOutput.parse(await runKernel(context, KERNEL, { operation, matrix: resolved.matrix }));
  if (output.operation !== operation) throw new JacobianError('INTERNAL', `the spectral kernel answered ${output.operation} to ${operation}`);
  return { output: output as Extract<SpectralKernelOutput, { operation: K }>, ms: Date.now() - started };
}

export const RationalCanonicalFormInput = CharacteristicPolynomialInput;
export type RationalCanonicalFormInput = CharacteristicPolynomialInput;

const Rows = z.array(z.array(z.string()));

export const RationalCanonicalFormOutput = z
  .object({
    invariant_factors: z
      .array(z.object({ polynomial: z.string(), coefficients: z.array(z.string()).describe('lowest degree first, monic'), degree: z.number().int() }).strict())
      .describe('d_1 | d_2 | … | d_k: the similarity invariants of A, one companion block each; d_k is the minimal polynomial, their product the characteristic polynomial'),
    form: Rows.describe('F = diag(C(d_1), …, C(d_k)), rows top to bottom'),
    transform: Rows.describe('P (invertible, rows top to bottom) with P⁻¹ A P = F'),
    blocks: z.number().int().describe('k, the number of companion blocks (1 exactly when A is cyclic: minimal = characteristic polynomial)'),
    variable: z.string(),
    convention: z.string(),
    field: z.string().describe('Q for integer and rational matrices, GF(p) otherwise'),
    result_uri: z.string().nullable().describe('the claim (A, invariant factors, P), to pass as result_uri to matrix.rational_canonical_form.verify; null when not retained'),
    engine: EngineSchema,
  })
  .strict();
export type RationalCanonicalFormOutput = z.infer<typeof RationalCanonicalFormOutput>;

/** matrix.rational_canonical_form.compute on our TypeScript engine. */
export function rationalCanonicalFormCompute(runtime: ProviderRuntime): CapabilityDefinition<RationalCanonicalFormInput, RationalCanonicalFormOutput> {
  return {
    id: MATRIX_RATIONAL_CANONICAL_FORM_ID,
    version: MATRIX_VERSION,
    title: 'Rational canonical (Frobenius) form with P over Q or GF(p)',
    description:
      'The rational canonical form (Frobenius normal form) of a square matrix over Z, Q (answered over Q) or GF(p), exactly, with the transforming matrix: P⁻¹ A P = F, the block diagonal of the companion matrices of the invariant factors d_1 | d_2 | … | d_k (d_k the minimal polynomial). Similar matrices have the same invariant factors. No factoring needed. The claim is stored for matrix.rational_canonical_form.verify; the output states the convention.',
    tags: ['matrix', 'linear-algebra', 'rational-canonical-form', 'similarity', 'exact', 'typescript'],
    keywords: [
      'rational canonical form',
      'Frobenius normal form',
      'Frobenius form',
      'invariant factors of a matrix',
      'similarity invariants',
      'companion matrix',
      'companion blocks',
      'cyclic decomposition',
      'are two matrices similar',
      'similarity transform',
      'normal form under similarity',
      'FrobeniusForm',
      'matfrobenius',
    ],
    domain: 'matrix',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI],
    input: RationalCanonicalFormInput,
    output: RationalCanonicalFormOutput,
    examples: [
      { title: 'diag(2, 2, 3): invariant factors x - 2 and x^2 - 5*x + 6', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0, 0], [0, 2, 0], [0, 0, 3]] } } },
      { title: 'A 3×3 matrix over GF(5)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'GF', characteristic: '5' }, rows: [[1, 2, 0], [0, 1, 0], [0, 0, 1]] } } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'matrix.rational_canonical_form.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given square matrix: its Frobenius form over Q (for Z and Q entries) or GF(p), and one transforming matrix (P is not unique).',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      requireSquare(resolved, input, 'the rational canonical form');
      const { output, ms } = await runSpectral(context, 'rational_canonical_form', resolved);
      const variable = input.variable ?? 'x';
      const diagnostics: Diagnostic[] = [];
      // A P too large for one artifact (rule transform-size) is answered, but not stored.
      const tooLarge = transformSizeProblem(output.transform, resolved.matrix.nrows);
      let resultUri: string | null = null;
      if (tooLarge !== null) {
        diagnostics.push({ severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED', stage: 'ARTIFACT', message: `the claim was not stored: P at ${tooLarge.path.join('.')}: ${tooLarge.message}`.slice(0, 2000), path: null, hint: 'the answer in the output stands' });
      } else {
        const claim = RationalCanonicalFormClaimSchema.parse({ matrix: resolved.matrix, invariant_factors: output.invariant_factors, transform: output.transform });
        resultUri = await storeClaim(
          { schema_uri: RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI, semantics_uri: RATIONAL_CANONICAL_FORM_CLAIM_SEMANTICS_URI, payload: claim, parents: resolved.input_uris, summary: { n: resolved.matrix.nrows, blocks: output.invariant_factors.length } },
          context,
          diagnostics,
        );
      }
      return exactOutcome<RationalCanonicalFormOutput>(
        {
          invariant_factors: output.invariant_factors.map((coefficients) => ({ polynomial: polynomialText(resolved.matrix, coefficients, variable), coefficients, degree: coefficients.length - 1 })),
          form: output.form,
          transform: output.transform,
          blocks: output.invariant_factors.length,
          variable,
          convention: FROBENIUS_CONVENTION,
          field: answerField(resolved),
          result_uri: resultUri,
          engine: { provider: runtime.provider, version: runtime.version, method: FROBENIUS_METHOD, compute_ms: ms },
        },
        resolved,
        'the rational canonical form with a transforming matrix',
        'the cyclic decomposition ran to the end exactly',
        resolved.description,
        { artifact_uris: resultUri === null ? [] : [resultUri], diagnostics },
      );
    },
  };
}
