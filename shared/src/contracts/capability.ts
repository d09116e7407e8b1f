import { z } from 'zod';
import { ProviderRuntimeSchema } from './provider.js';
import { refusingReservedKeys } from './json-record.js';

/** EXPLORE proposes or computes; VERIFY may return VERIFIED only through an authorized checker. */
export const Mode = { EXPLORE: 'EXPLORE', VERIFY: 'VERIFY' } as const;
export type Mode = (typeof Mode)[keyof typeof Mode];

/** Producers compute; checkers replay independent checks on stored evidence. */
export const Role = { PRODUCER: 'producer', CHECKER: 'checker' } as const;
export type Role = (typeof Role)[keyof typeof Role];

export const AssuranceLevel = { HEURISTIC: 'HEURISTIC', COMPUTED: 'COMPUTED', VERIFIED: 'VERIFIED' } as const;
export type AssuranceLevel = (typeof AssuranceLevel)[keyof typeof AssuranceLevel];

/** Order of assurance levels, for ceilings. */
export const ASSURANCE_RANK: Record<AssuranceLevel, number> = { HEURISTIC: 0, COMPUTED: 1, VERIFIED: 2 };

export const InputKind = {
  STRUCTURED_REQUEST: 'STRUCTURED_REQUEST',
  FORMAL_PROPOSITION: 'FORMAL_PROPOSITION',
  TYPED_ARTIFACT: 'TYPED_ARTIFACT',
  NATURAL_LANGUAGE_PROOF: 'NATURAL_LANGUAGE_PROOF',
} as const;
export type InputKind = (typeof InputKind)[keyof typeof InputKind];

export const CAPABILITY_ID_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*){1,7}$/;
export const CapabilityIdSchema = z
  .string()
  .max(128)
  .regex(CAPABILITY_ID_PATTERN, 'must be dot-separated lowercase segments, e.g. graph.construct.explicit');

export const SemverSchema = z.string().regex(/^\d+\.\d+\.\d+$/, 'must be a semantic version MAJOR.MINOR.PATCH');

export const CapabilityRelationshipKind = {
  /** This capability accepts artifacts produced by the other one. */
  CONSUMES_OUTPUT_OF: 'CONSUMES_OUTPUT_OF',
  /** The other capability is an independent checker for this one's results. */
  VERIFIED_BY: 'VERIFIED_BY',
  /** This capability independently checks results of the other one. */
  VERIFIES: 'VERIFIES',
} as const;
export type CapabilityRelationshipKind = (typeof CapabilityRelationshipKind)[keyof typeof CapabilityRelationshipKind];

export const CapabilityRelationshipSchema = z
  .object({ kind: z.enum(CapabilityRelationshipKind), capability_id: CapabilityIdSchema })
  .strict();
export type CapabilityRelationship = z.infer<typeof CapabilityRelationshipSchema>;

/** A JSON Schema document (derived from zod; never hand-written). */
export const JsonSchemaObject = z.record(z.string(), z.unknown());

/** A descriptor carries at most this many invocation examples. */
export const INVOCATION_EXAMPLES_MAX = 5;
/**
 * The largest invocation example, as JSON in UTF-8 bytes: every example must be reachable
 * whole through math.find (by `example_index`), whose answers stay under 16 KiB.
 */
export const INVOCATION_EXAMPLE_MAX_BYTES = 8 * 1024;

export const InvocationExampleSchema = z
  .object({
    title: z.string().min(1).max(200),
    mode: z.enum(Mode),
    payload: z.record(z.string(), z.unknown()),
  })
  .strict()
  .refine((example) => Buffer.byteLength(JSON.stringify(example)) <= INVOCATION_EXAMPLE_MAX_BYTES, {
    message: `an invocation example must be at most ${INVOCATION_EXAMPLE_MAX_BYTES} bytes as JSON`,
  });
export type InvocationExample = z.infer<typeof InvocationExampleSchema>;

/** Fixed checker identity carried by a checker capability's descriptor. */
export const CheckerIdentitySchema = z
  .object({
    checker_id: z.string().min(1).max(200),
    /** `sha256:<hex>` over the checker's code and configuration. */
    checker_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    method: z.string().min(1).max(500),
  })
  .strict();
export type CheckerIdentity = z.infer<typeof CheckerIdentitySchema>;

/**
 * The serializable description of one installed capability. It is what discovery shows
 * and what the catalog digests; the code that runs it lives beside it in the service.
 */
export const CapabilityDescriptorSchema = z
  .object({
    id: CapabilityIdSchema,
    version: SemverSchema,
    title: z.string().min(1).max(120),
    description: z.string().min(1).max(2000),
    tags: z.array(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/)).max(20),
    /**
     * The words of the field for this outcome, for search: synonyms, other spellings, names of
     * the laws, invariants, objects, methods and tools a mathematician would type ("clique
     * number", "ω", "Gröbner basis", "Mace4"). Searched like tags; never shown as a claim.
     */
    keywords: z.array(z.string().min(1).max(60)).max(80).default([]),
    domain: z.string().regex(/^[a-z][a-z0-9_]*$/),
    modes: z.array(z.enum(Mode)).min(1),
    role: z.enum(Role),
    pool: z.string().regex(/^[a-z][a-z0-9-]*$/),
    input_kinds: z.array(z.enum(InputKind)).min(1),
    accepted_artifact_types: z.array(z.string()),
    produced_artifact_types: z.array(z.string()),
    input_schema: JsonSchemaObject,
    output_schema: JsonSchemaObject,
    examples: z.array(InvocationExampleSchema).max(INVOCATION_EXAMPLES_MAX),
    relationships: z.array(CapabilityRelationshipSchema),
    assurance_ceiling: z.enum(AssuranceLevel),
    scope_rule: z.string().min(1).max(1000),
    limits: z.record(z.string(), z.union([z.number().int(), z.string()])),
    provider_runtime: ProviderRuntimeSchema,
    checker: CheckerIdentitySchema.nullable(),
  })
  .strict()
  .superRefine((descriptor, ctx) => {
    if (descriptor.role === 'checker' && descriptor.checker === null) {
      ctx.addIssue({ code: 'custom', path: ['checker'], message: 'a checker capability must declare its checker identity' });
    }
    if (descriptor.role === 'producer' && descriptor.checker !== null) {
      ctx.addIssue({ code: 'custom', path: ['checker'], message: 'a producer capability has no checker identity' });
    }
    if (descriptor.assurance_ceiling === 'VERIFIED' && !descriptor.modes.includes('VERIFY')) {
      ctx.addIssue({ code: 'custom', path: ['assurance_ceiling'], message: 'VERIFIED ceiling requires VERIFY mode' });
    }
    if (descriptor.role === 'producer' && descriptor.assurance_ceiling === 'VERIFIED') {
      ctx.addIssue({ code: 'custom', path: ['assurance_ceiling'], message: 'a producer cannot certify its own result' });
    }
    for (const [i, example] of descriptor.examples.entries()) {
      if (!descriptor.modes.includes(example.mode)) {
        ctx.addIssue({ code: 'custom', path: ['examples', i, 'mode'], message: `mode ${example.mode} is not offered` });
      }
    }
  });
export type CapabilityDescriptor = z.infer<typeof CapabilityDescriptorSchema>;

/** Upper limits an operator allows for a single run's budget. */
export const BUDGET_LIMITS = {
  wall_time_ms: { min: 100, max: 600_000, default: 30_000 },
  memory_mb: { min: 64, max: 8192, default: 1024 },
  max_output_bytes: { min: 1024, max: 16 * 1024 * 1024, default: 4 * 1024 * 1024 },
} as const;

export const BudgetSchema = z
  .object({
    wall_time_ms: z
      .number()
      .int()
      .min(BUDGET_LIMITS.wall_time_ms.min)
      .max(BUDGET_LIMITS.wall_time_ms.max)
      .optional()
      .describe('wall-clock limit for the run in milliseconds'),
    memory_mb: z
      .number()
      .int()
      .min(BUDGET_LIMITS.memory_mb.min)
      .max(BUDGET_LIMITS.memory_mb.max)
      .optional()
      .describe('resident memory limit of the isolated execution in MiB'),
    max_output_bytes: z
      .number()
      .int()
      .min(BUDGET_LIMITS.max_output_bytes.min)
      .max(BUDGET_LIMITS.max_output_bytes.max)
      .optional()
      .describe('largest serialized output accepted from the execution'),
  })
  .strict();
export type Budget = z.infer<typeof BudgetSchema>;
export type ResolvedBudget = Required<Budget>;

export function resolveBudget(budget: Budget | undefined): ResolvedBudget {
  return {
    wall_time_ms: budget?.wall_time_ms ?? BUDGET_LIMITS.wall_time_ms.default,
    memory_mb: budget?.memory_mb ?? BUDGET_LIMITS.memory_mb.default,
    max_output_bytes: budget?.max_output_bytes ?? BUDGET_LIMITS.max_output_bytes.default,
  };
}

/** One call of `math.run`. The payload is validated later by the capability's own schema. */
export const CapabilityRequestSchema = z
  .object({
    capability_id: z.string().min(1).max(128).describe('exact capability ID from math.find'),
    payload: refusingReservedKeys(z.record(z.string(), z.unknown()).describe("the capability's input, per its CONTRACT view")),
    mode: z.enum(Mode).default('EXPLORE').describe('EXPLORE computes; VERIFY asks an authorized checker'),
    budget: BudgetSchema.optional(),
  })
  .strict();
export type CapabilityRequest = z.infer<typeof CapabilityRequestSchema>;
export type CapabilityRequestInput = z.input<typeof CapabilityRequestSchema>;
