/**
 * Contracts of the Diophantine pack (continued fractions, Pell's equation, integer linear
 * systems, binary quadratic forms, imaginary quadratic class groups): the integers and forms of
 * requests, and the claim the producers store and diophantine.claim.verify checks.
 *
 * Forms (a, b, c) mean a x² + b xy + c y², discriminant D = b² − 4ac; a transform
 * [[p, q], [r, s]] ∈ SL₂(Z) acts by (f·M)(x, y) = f(p x + q y, r x + s y).
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const DIOPHANTINE_CLAIM_SCHEMA_URI = 'jacobian:schema/number_theory.diophantine.claim/v1';
export const DIOPHANTINE_CLAIM_SEMANTICS_URI = 'jacobian:semantics/number_theory.diophantine.claim/v1';

/** Size limits of requests and claims, stated in the descriptors. */
export const DIOPHANTINE_LIMITS = {
  /** Digits of P, Q, p, q of a continued fraction and of D under a square root. */
  maxInputDigits: 200,
  /** Digits of D of Pell's equation. */
  maxPellDigits: 40,
  /** Digits of the coefficients of a binary quadratic form. */
  maxFormDigits: 60,
  /** Digits of an integer of a stored claim (a Pell solution can be long). */
  maxClaimDigits: 200_000,
  /** |D| up to which our own code enumerates reduced forms (class numbers exactly): about a second at 10^9; the work grows like |D|. */
  ourClassGroupMaxAbsD: 1_000_000_000n,
  /** Digits of D that PARI/GP takes for class groups. */
  maxClassGroupDigits: 60,
} as const;

// Claims hold many integers: a refinement (absent from the JSON Schema) and no description each keep the checker's contract short.
const INTEGER_PATTERN = /^(0|-?[1-9][0-9]*)$/;
const claimInteger = z
  .string()
  .max(DIOPHANTINE_LIMITS.maxClaimDigits + 1, { message: `an integer of at most ${DIOPHANTINE_LIMITS.maxClaimDigits} digits (rule: integer-digits)` })
  .refine((text) => INTEGER_PATTERN.test(text), { message: 'an integer in decimal without leading zeros (rule: integer-text)' });
const formInteger = claimInteger;

/** A binary quadratic form as request or claim text: [a, b, c]. */
export const FormSchema = z.tuple([formInteger, formInteger, formInteger]);
export type FormText = z.infer<typeof FormSchema>;
/** [[p, q], [r, s]] with ps − qr = 1. */
export const TransformSchema = z.tuple([z.tuple([claimInteger, claimInteger]), z.tuple([claimInteger, claimInteger])]);
export type TransformText = z.infer<typeof TransformSchema>;

const Pair = z.object({ x: claimInteger, y: claimInteger }).strict();
const Fraction = z
  .string()
  .max(DIOPHANTINE_LIMITS.maxClaimDigits)
  .refine((text) => /^-?(0|[1-9]\d*)(\/[1-9]\d*)?$/.test(text), { message: 'a rational p/q or an integer (rule: rational-text)' });

/**
 * One claim of the pack; `kind` says which and what it asserts (no field descriptions: the
 * checker's descriptor must stay small):
 *  - PELL: `plus` is the least positive solution of x² − D y² = 1; `minus` that of x² − D y² = −1, or null (none).
 *  - FORM_REDUCTION: `reduced` is reduced and equals `form`·`transform`.
 *  - FORM_EQUIVALENCE: f and g are (not) properly equivalent; `transform` T with f·T = g when they are.
 *  - CLASS_NUMBER: h(D) for D < 0 (primitive positive definite forms).
 *  - CLASS_GROUP: moreover the group is ⊕ Z/dᵢ (`invariants`, d₁ | d₂ | …, each > 1), the i-th
 *    `generators` form of order dᵢ, and the products ∏ gᵢ^{eᵢ} are the h classes.
 *  - INTEGER_SYSTEM_SOLVED: the integer solutions of A x = b are `particular` + Z-span of the rows K of
 *    `kernel`; `kernel_right_inverse` W has K W = I.
 *  - INTEGER_SYSTEM_NONE: `certificate` y has y A integral and y·b not an integer.
 */
export const DiophantineClaimSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('PELL'),
      D: claimInteger,
      plus: Pair,
      minus: Pair.nullable(),
    })
    .strict(),
  z.object({ kind: z.literal('FORM_REDUCTION'), form: FormSchema, reduced: FormSchema, transform: TransformSchema }).strict(),
  z
    .object({
      kind: z.literal('FORM_EQUIVALENCE'),
      f: FormSchema,
      g: FormSchema,
      equivalent: z.boolean(),
      transform: TransformSchema.nullable(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('CLASS_NUMBER'),
      D: claimInteger,
      class_number: claimInteger,
    })
    .strict(),
  z
    .object({
      kind: z.literal('CLASS_GROUP'),
      D: claimInteger,
      class_number: claimInteger,
      invariants: z.array(claimInteger),
      generators: z.array(FormSchema),
    })
    .strict(),
  z
    .object({
      kind: z.literal('INTEGER_SYSTEM_SOLVED'),
      matrix: z.array(z.array(claimInteger)).min(1),
      rhs: z.array(claimInteger).min(1),
      particular: z.array(claimInteger).min(1),
      kernel: z.array(z.array(claimInteger)),
      kernel_right_inverse: z.array(z.array(claimInteger)),
    })
    .strict(),
  z
    .object({
      kind: z.literal('INTEGER_SYSTEM_NONE'),
      matrix: z.array(z.array(claimInteger)).min(1),
      rhs: z.array(claimInteger).min(1),
      certificate: z.array(Fraction).min(1),
    })
    .strict(),
]);
export type DiophantineClaim = z.infer<typeof DiophantineClaimSchema>;

/** The files of these contracts, for the SOURCE_TREE digest of a provider or checker built on them. */
export const DIOPHANTINE_SOURCES: readonly string[] = ['./diophantine.ts', './arith.ts'].map((file) => fileURLToPath(new URL(file, import.meta.url)));
