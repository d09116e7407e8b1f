/**
 * matrix.eigenvalues.compute on our TypeScript engine (spectral.kernel.ts): the eigenvalues in
 * the field exactly (rational ones over Q, residues over GF(p)) with algebraic and geometric
 * multiplicities, and the rest of the spectrum as the irreducible factors of the characteristic
 * polynomial over the field, with multiplicities (our own factorizer, univariate-factor.ts).
 */
import { z } from 'zod';
import { MATRIX_SCHEMA_URI, type CapabilityDefinition, type ProviderRuntime } from '@jacobian/shared';
import { answerField, EngineSchema, exactOutcome, MATRIX_DESCRIPTOR_LIMITS, MATRIX_VERSION, requireSquare, resolveMatrix } from './capability-support.js';
import { CharacteristicPolynomialInput, polynomialText } from './characteristic-polynomial.js';
import { runSpectral } from './rational-canonical-form.js';

export const MATRIX_EIGENVALUES_ID = 'matrix.eigenvalues.compute';

export const EIGENVALUES_METHOD =
  'characteristic polynomial (multimodular Hessenberg over Q, direct over GF(p)) factored into irreducibles: over Q Zassenhaus (square-free parts, factorization modulo a prime, Hensel lifting to a Mignotte bound, subset recombination), over GF(p) square-free, distinct-degree and Cantor–Zassenhaus splitting; geometric multiplicity n − rank(A − λI)';

export const EigenvaluesInput = CharacteristicPolynomialInput;
export type EigenvaluesInput = CharacteristicPolynomialInput;

export const EigenvaluesOutput = z
  .object({
    eigenvalues: z
      .array(
        z
          .object({
            value: z.string().describe('λ, exact in the field'),
            algebraic_multiplicity: z.number().int().describe('the exponent of x − λ in the characteristic polynomial'),
            geometric_multiplicity: z.number().int().describe('dim ker(A − λI) = n − rank(A − λI)'),
          })
          .strict(),
      )
      .describe('the eigenvalues that lie in the field (rational ones over Q), each once'),
    other_factors: z
      .array(z.object({ polynomial: z.string(), coefficients: z.array(z.string()).describe('lowest degree first, monic'), degree: z.number().int(), multiplicity: z.number().int() }).strict())
      .describe('the irreducible factors of degree ≥ 2 of the characteristic polynomial over the field: their roots are the other eigenvalues (in extensions), each factor of degree d giving d conjugate eigenvalues of that multiplicity'),
    characteristic_polynomial: z.string(),
    factorization: z.string().describe('the characteristic polynomial as a product of monic irreducibles over the field, e.g. "(x - 2)^2*(x^2 + 1)"'),
    splits: z.boolean().describe('every eigenvalue lies in the field (no other factors)'),
    diagonalizable_over_field: z.boolean().describe('A is diagonalizable over the field itself: it splits and every geometric multiplicity equals the algebraic one'),
    variable: z.string(),
    field: z.string().describe('Q for integer and rational matrices, GF(p) otherwise'),
    engine: EngineSchema,
  })
  .strict();
export type EigenvaluesOutput = z.infer<typeof EigenvaluesOutput>;

/** matrix.eigenvalues.compute on our TypeScript engine. */
export function eigenvaluesCompute(runtime: ProviderRuntime): CapabilityDefinition<EigenvaluesInput, EigenvaluesOutput> {
  return {
    id: MATRIX_EIGENVALUES_ID,
    version: MATRIX_VERSION,
    title: 'Eigenvalues (spectrum) over Q or GF(p), exactly',
    description:
      'The eigenvalues of a square matrix over Z, Q (answered over Q) or GF(p), exactly: those in the field with algebraic and geometric multiplicity, and the rest of the spectrum as the irreducible factors of the characteristic polynomial over the field, with multiplicities (our own factorizer: Zassenhaus with Hensel lifting over Q, Cantor–Zassenhaus over GF(p)). Says whether A is diagonalizable over the field.',
    tags: ['matrix', 'linear-algebra', 'eigenvalues', 'spectrum', 'factorization', 'exact', 'typescript'],
    keywords: [
      'eigenvalues',
      'eigenvalues of a matrix',
      'spectrum',
      'characteristic roots',
      'latent roots',
      'rational eigenvalues',
      'algebraic multiplicity',
      'geometric multiplicity',
      'eigenspace dimension',
      'eigenvalues mod p',
      'factor the characteristic polynomial',
      'diagonalizable over Q',
      'Eigenvalues',
    ],
    domain: 'matrix',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [],
    input: EigenvaluesInput,
    output: EigenvaluesOutput,
    examples: [
      { title: 'Eigenvalue 2 (twice, one eigenvector) and the factor x^2 + 1', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[2, 1, 0, 0], [0, 2, 0, 0], [0, 0, 0, -1], [0, 0, 1, 0]] } } },
      { title: 'Over GF(5), x^2 + 1 splits: eigenvalues 2 and 3', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'GF', characteristic: '5' }, rows: [[0, 4], [1, 0]] } } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given square matrix: its eigenvalues in Q (for Z and Q entries) or GF(p), and the irreducible factors over that field for the rest.',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      requireSquare(resolved, input, 'the eigenvalues');
      const { output, ms } = await runSpectral(context, 'eigenvalues', resolved);
      const variable = input.variable ?? 'x';
      const text = (coefficients: readonly string[]): string => polynomialText(resolved.matrix, coefficients, variable);
      const linear = output.eigenvalues.map((e) => ({ text: text([e.value === '0' ? '0' : negate(e.value, resolved.matrix.ring), '1']), multiplicity: e.algebraic_multiplicity }));
      const others = output.factors.map((f) => ({ text: text(f.coefficients), multiplicity: f.multiplicity }));
      const factorization = [...linear, ...others].map(({ text: t, multiplicity }) => `${t === variable ? t : `(${t})`}${multiplicity > 1 ? `^${multiplicity}` : ''}`).join('*');
      const splits = output.factors.length === 0;
      return exactOutcome<EigenvaluesOutput>(
        {
          eigenvalues: output.eigenvalues,
          other_factors: output.factors.map((f) => ({ polynomial: text(f.coefficients), coefficients: f.coefficients, degree: f.coefficients.length - 1, multiplicity: f.multiplicity })),
          characteristic_polynomial: text(output.characteristic),
          factorization,
          splits,
          diagonalizable_over_field: splits && output.eigenvalues.every((e) => e.geometric_multiplicity === e.algebraic_multiplicity),
          variable,
          field: answerField(resolved),
          engine: { provider: runtime.provider, version: runtime.version, method: EIGENVALUES_METHOD, compute_ms: ms },
        },
        resolved,
        'the eigenvalues in the field and the irreducible factorization of the characteristic polynomial',
        'the characteristic polynomial was factored completely into irreducibles exactly',
      );
    },
  };
}

/** −λ as canonical text in the answer's field (the constant term of x − λ). */
function negate(value: string, ring: { kind: string; characteristic?: string }): string {
  if (ring.kind === 'GF') {
    const p = BigInt(ring.characteristic ?? '0');
    const v = BigInt(value);
    return v === 0n ? '0' : (p - v).toString();
  }
  return value.startsWith('-') ? value.slice(1) : `-${value}`;
}
