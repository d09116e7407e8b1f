/** quadratic_form.reduce and quadratic_form.equivalence.decide: binary quadratic forms under SL₂(Z). */
import { z } from 'zod';
import { DIOPHANTINE_CLAIM_SCHEMA_URI, DIOPHANTINE_LIMITS, type CapabilityDefinition, type Diagnostic, type ProviderRuntime } from '@jacobian/shared';
import { DIOPHANTINE_VERSION, EngineSchema, engineRecord, exactOutcome, formInput, runDiophantine, storeDiophantineClaim } from './support.js';

export const FORM_REDUCE_ID = 'quadratic_form.reduce';
export const FORM_EQUIVALENCE_ID = 'quadratic_form.equivalence.decide';
const DIGITS = DIOPHANTINE_LIMITS.maxFormDigits;
const MAX_CYCLE = 1_000_000;

export const FORM_CONVENTION =
  'f = (a, b, c) is a x² + b xy + c y², D = b² − 4ac; M = [[p, q], [r, s]] with ps − qr = 1 acts by (f·M)(x, y) = f(p x + q y, r x + s y). Reduced: definite (D < 0) |b| ≤ a ≤ c with b ≥ 0 if |b| = a or a = c (for a < 0, −f is reduced); indefinite (D > 0, not a square) 0 < b < √D and √D − b < 2|a| < √D + b (Gauss)';

const Form = z.tuple([z.string(), z.string(), z.string()]);
const Transform = z.tuple([z.tuple([z.string(), z.string()]), z.tuple([z.string(), z.string()])]);

export const ReduceInput = z.object({ form: formInput(DIGITS) }).strict();
export type ReduceInput = z.infer<typeof ReduceInput>;
export const ReduceOutput = z
  .object({
    form: Form,
    discriminant: z.string(),
    kind: z.enum(['POSITIVE_DEFINITE', 'NEGATIVE_DEFINITE', 'INDEFINITE']),
    reduced: Form.describe('the reduced form properly equivalent to f (unique for definite forms; one form of the cycle for indefinite ones)'),
    transform: Transform.describe('M ∈ SL₂(Z) with f·M = reduced'),
    convention: z.string(),
    result_uri: z.string().nullable().describe('the claim stored for diophantine.claim.verify'),
    engine: EngineSchema,
  })
  .strict();
export type ReduceOutput = z.infer<typeof ReduceOutput>;

function definiteness(form: readonly string[], kind: 'definite' | 'indefinite'): ReduceOutput['kind'] {
  if (kind === 'indefinite') return 'INDEFINITE';
  return BigInt(form[0] as string) > 0n ? 'POSITIVE_DEFINITE' : 'NEGATIVE_DEFINITE';
}

export function formReduce(runtime: ProviderRuntime): CapabilityDefinition<ReduceInput, ReduceOutput> {
  return {
    id: FORM_REDUCE_ID,
    version: DIOPHANTINE_VERSION,
    title: 'Reduce a binary quadratic form (with the SL₂(Z) transform)',
    description: `Reduces an integral binary quadratic form (a, b, c) = a x² + b xy + c y² of non-square discriminant under proper equivalence (SL₂(Z)), with the transform M as a witness. Definite forms (D < 0): Gauss/Lagrange reduction to the unique reduced form; indefinite forms (D > 0): the reduction operator rho to a reduced form of Gauss (reduced forms of one class form a cycle; see quadratic_form.equivalence.decide). Square discriminants (forms that factor) are refused (rule non-square-discriminant). Rechecked: det M = 1 and f·M = reduced exactly. Convention: ${FORM_CONVENTION}. Example: (3, 5, 7) reduces to (3, −1, 5).`,
    tags: ['number-theory', 'quadratic-form', 'binary-quadratic-form', 'reduction', 'exact', 'typescript'],
    keywords: ['binary quadratic form', 'reduced form', 'reduce a quadratic form', 'Gauss reduction', 'Lagrange reduction', 'proper equivalence', 'SL2(Z)', 'unimodular substitution', 'discriminant b^2 - 4ac', 'positive definite form', 'indefinite form', 'qfbred'],
    domain: 'number_theory',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [DIOPHANTINE_CLAIM_SCHEMA_URI],
    input: ReduceInput,
    output: ReduceOutput,
    examples: [
      { title: '3x² + 5xy + 7y² (D = −59) reduces to 3x² − xy + 5y²', mode: 'EXPLORE', payload: { form: [3, 5, 7] } },
      { title: 'An indefinite form of discriminant 37: (−3, 5, 1)', mode: 'EXPLORE', payload: { form: [-3, 5, 1] } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'diophantine.claim.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given form: a reduced form properly equivalent to it and the transform.',
    limits: { max_coefficient_digits: DIGITS },
    async run(input, context) {
      const { output, ms } = await runDiophantine(context, { operation: 'reduce', form: input.form });
      const [a, b, c] = input.form.map(BigInt) as [bigint, bigint, bigint];
      const diagnostics: Diagnostic[] = [];
      const resultUri = await storeDiophantineClaim({ kind: 'FORM_REDUCTION', form: input.form, reduced: output.reduced, transform: output.transform }, { kind: 'FORM_REDUCTION' }, context, diagnostics);
      return exactOutcome<ReduceOutput>(
        {
          form: input.form,
          discriminant: (b * b - 4n * a * c).toString(),
          kind: definiteness(input.form, output.kind),
          reduced: output.reduced,
          transform: output.transform,
          convention: FORM_CONVENTION,
          result_uri: resultUri,
          engine: engineRecord(runtime, output.kind === 'definite' ? 'Gauss–Lagrange reduction: translations x → x + t y and the swap (c, −b, a), on big integers' : 'the reduction operator rho (Cohen, A Course in Computational Algebraic Number Theory, §5.6) until Gauss-reduced', ms),
        },
        `a reduced form properly equivalent to (${input.form.join(', ')})`,
        'reduction ended in a reduced form; det M = 1 and f·M = reduced rechecked exactly',
        { artifactUris: resultUri === null ? [] : [resultUri], diagnostics },
      );
    },
  };
}

export const EquivalenceInput = z
  .object({
    f: formInput(DIGITS),
    g: formInput(DIGITS),
    max_cycle: z.number().int().min(1).max(MAX_CYCLE).default(100_000).describe('indefinite forms: most reduced forms walked on the cycle before OUTPUT_LIMIT_EXCEEDED (default 100000)'),
  })
  .strict();
export type EquivalenceInput = z.infer<typeof EquivalenceInput>;
export const EquivalenceOutput = z
  .object({
    equivalent: z.boolean().describe('whether g = f·T for some T ∈ SL₂(Z) (proper equivalence)'),
    transform: Transform.nullable().describe('when equivalent: T with f·T = g'),
    reason: z.string().describe('why: the witness, or what separates them'),
    reduced_f: Form.nullable(),
    reduced_g: Form.nullable(),
    cycle_length: z.number().int().nullable().describe('indefinite forms: the length of the cycle of reduced forms of f'),
    result_uri: z.string().nullable().describe('the claim stored for diophantine.claim.verify'),
    engine: EngineSchema,
  })
  .strict();
export type EquivalenceOutput = z.infer<typeof EquivalenceOutput>;

export function formEquivalenceDecide(runtime: ProviderRuntime): CapabilityDefinition<EquivalenceInput, EquivalenceOutput> {
  return {
    id: FORM_EQUIVALENCE_ID,
    version: DIOPHANTINE_VERSION,
    title: 'Decide whether two binary quadratic forms are equivalent',
    description: `Decides proper equivalence (under SL₂(Z)) of two integral binary quadratic forms of the same non-square discriminant, with the transform T (f·T = g) as a witness when they are. Definite forms: by reduction to the unique reduced forms. Indefinite forms: g's reduced form must lie on the cycle of reduced forms of f under the rho operator (bounded by max_cycle). Different discriminants are never equivalent. Improper equivalence (GL₂(Z), det −1) is not decided here. Rechecked: det T = 1 and f·T = g exactly. Convention: ${FORM_CONVENTION}. Example: (1, 5, −3) and (−3, 5, 1) are equivalent.`,
    tags: ['number-theory', 'quadratic-form', 'binary-quadratic-form', 'equivalence', 'exact', 'typescript'],
    keywords: ['equivalence of binary quadratic forms', 'are two quadratic forms equivalent', 'properly equivalent forms', 'SL2(Z) equivalence', 'cycle of reduced forms', 'reduced indefinite forms', 'form class', 'same class', 'qfbred'],
    domain: 'number_theory',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [DIOPHANTINE_CLAIM_SCHEMA_URI],
    input: EquivalenceInput,
    output: EquivalenceOutput,
    examples: [
      { title: '(3, 5, 7) and (3, −1, 5) are equivalent (D = −59)', mode: 'EXPLORE', payload: { f: [3, 5, 7], g: [3, -1, 5] } },
      { title: '(2, 1, 3) and (2, −1, 3) are not properly equivalent (D = −23, inverse classes)', mode: 'EXPLORE', payload: { f: [2, 1, 3], g: [2, -1, 3] } },
      { title: 'Indefinite: (1, 5, −3) and (−3, 5, 1) (D = 37)', mode: 'EXPLORE', payload: { f: [1, 5, -3], g: [-3, 5, 1] } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'diophantine.claim.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the two given forms: whether they are properly (SL₂(Z)) equivalent.',
    limits: { max_coefficient_digits: DIGITS, max_cycle: MAX_CYCLE },
    async run(input, context) {
      const { output, ms } = await runDiophantine(context, { operation: 'equivalence', f: input.f, g: input.g, max_cycle: input.max_cycle });
      const reason = output.equivalent
        ? 'T ∈ SL₂(Z) with f·T = g (rechecked)'
        : output.reason === 'DISCRIMINANTS_DIFFER'
          ? 'the discriminants differ, and equivalent forms have the same discriminant'
          : output.reason === 'DISTINCT_REDUCED_FORMS'
            ? `their reduced forms (${output.reduced_f?.join(', ')}) and (${output.reduced_g?.join(', ')}) differ, and every definite class has exactly one reduced form`
            : `the reduced form (${output.reduced_g?.join(', ')}) of g is not on the cycle of ${output.cycle_length} reduced forms of f, and the reduced forms of one indefinite class form exactly one cycle`;
      const diagnostics: Diagnostic[] = [];
      const resultUri = await storeDiophantineClaim({ kind: 'FORM_EQUIVALENCE', f: input.f, g: input.g, equivalent: output.equivalent, transform: output.transform }, { kind: 'FORM_EQUIVALENCE', equivalent: output.equivalent }, context, diagnostics);
      return exactOutcome<EquivalenceOutput>(
        { equivalent: output.equivalent, transform: output.transform, reason, reduced_f: output.reduced_f, reduced_g: output.reduced_g, cycle_length: output.cycle_length, result_uri: resultUri, engine: engineRecord(runtime, 'reduction (definite) or the rho-cycle of reduced forms (indefinite), on big integers', ms) },
        `whether (${input.f.join(', ')}) and (${input.g.join(', ')}) are properly equivalent`,
        reason,
        { artifactUris: resultUri === null ? [] : [resultUri], diagnostics },
      );
    },
  };
}
