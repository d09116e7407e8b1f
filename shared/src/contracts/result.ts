import { z } from 'zod';
import { STAGES } from '../errors.js';
import { AssuranceLevel, CapabilityIdSchema, Mode } from './capability.js';
import { DigestKind } from './provider.js';

const ARTIFACT_URI = /^artifact:\/\/sha256\/[0-9a-f]{64}$/;
const ArtifactUri = z.string().regex(ARTIFACT_URI, 'must be artifact://sha256/<64 hex>');

export const ExecutionStatus = {
  COMPLETED: 'COMPLETED',
  TIMEOUT: 'TIMEOUT',
  CANCELLED: 'CANCELLED',
  ERROR: 'ERROR',
} as const;
export type ExecutionStatus = (typeof ExecutionStatus)[keyof typeof ExecutionStatus];

export const CompletenessStatus = {
  NOT_APPLICABLE: 'NOT_APPLICABLE',
  UNKNOWN: 'UNKNOWN',
  PARTIAL: 'PARTIAL',
  COMPLETE: 'COMPLETE',
} as const;
export type CompletenessStatus = (typeof CompletenessStatus)[keyof typeof CompletenessStatus];

export const Qualifier = {
  EXACT: 'EXACT',
  APPROXIMATE: 'APPROXIMATE',
  BOUNDED: 'BOUNDED',
  EXHAUSTIVE: 'EXHAUSTIVE',
  DETERMINISTIC: 'DETERMINISTIC',
  HEURISTIC: 'HEURISTIC',
} as const;
export type Qualifier = (typeof Qualifier)[keyof typeof Qualifier];

export const Severity = { ERROR: 'ERROR', WARNING: 'WARNING', INFO: 'INFO' } as const;
export type Severity = (typeof Severity)[keyof typeof Severity];

export const DiagnosticSchema = z
  .object({
    severity: z.enum(Severity),
    code: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
    stage: z.enum(STAGES),
    message: z.string().min(1).max(2000),
    path: z.array(z.union([z.string(), z.number().int()])).nullable(),
    hint: z.string().max(1000).nullable(),
  })
  .strict();
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

export const ScopeSchema = z
  .object({
    kind: z.enum(['EXACT_INPUT', 'EXACT_CLAIM']),
    statement: z.string().min(1).max(2000),
    input_uris: z.array(ArtifactUri),
  })
  .strict();
export type Scope = z.infer<typeof ScopeSchema>;

export const CompletenessSchema = z
  .object({ status: z.enum(CompletenessStatus), basis: z.string().min(1).max(1000) })
  .strict();
export type Completeness = z.infer<typeof CompletenessSchema>;

export const AssuranceSchema = z
  .object({
    level: z.enum(AssuranceLevel),
    basis: z.string().min(1).max(1000),
    verification_record_uri: ArtifactUri.nullable(),
    checker_id: z.string().nullable(),
  })
  .strict();
export type Assurance = z.infer<typeof AssuranceSchema>;

/**
 * An obligation of the claim the result's scope states: something that must hold for that claim
 * and was (DISCHARGED) or was not (OPEN) established. `discharged_by` names the capabilities that
 * discharged it, or for an OPEN one those that can. A statement beyond the claim is not an
 * obligation of it; it belongs in a diagnostic or a hint.
 */
export const ObligationSchema = z
  .object({
    id: z.string().min(1).max(200),
    statement: z.string().min(1).max(1000),
    status: z.enum(['OPEN', 'DISCHARGED']),
    discharged_by: z.array(CapabilityIdSchema),
  })
  .strict();
export type Obligation = z.infer<typeof ObligationSchema>;

export const ArtifactRelationshipPredicate = {
  /** subject was computed from object (a result from its input). */
  COMPUTED_FROM: 'COMPUTED_FROM',
  /** subject (a verification record) verifies object (a result). */
  VERIFIES: 'VERIFIES',
  /** subject was derived from object by canonicalization or transformation. */
  DERIVED_FROM: 'DERIVED_FROM',
} as const;

export const ArtifactRelationshipSchema = z
  .object({ subject: ArtifactUri, predicate: z.enum(ArtifactRelationshipPredicate), object: ArtifactUri })
  .strict();
export type ArtifactRelationship = z.infer<typeof ArtifactRelationshipSchema>;

export const ExecutionSchema = z
  .object({
    status: z.enum(ExecutionStatus),
    runtime_ms: z.number().int().nonnegative(),
    job_id: z.string().min(1),
    request_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  })
  .strict();
export type Execution = z.infer<typeof ExecutionSchema>;

export const ProviderRefSchema = z
  .object({
    name: z.string().min(1),
    version: z.string().min(1),
    digest_kind: z.enum(DigestKind),
    digest: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type ProviderRef = z.infer<typeof ProviderRefSchema>;

const CapabilityResultObject = z
  .object({
    capability_id: z.string().min(1).max(128),
    capability_version: z.string().nullable(),
    mode: z.enum(Mode),
    execution: ExecutionSchema,
    output: z.unknown().describe("the operation's typed output; null when nothing was concluded"),
    scope: ScopeSchema.nullable(),
    completeness: CompletenessSchema,
    qualifiers: z.array(z.enum(Qualifier)),
    assurance: AssuranceSchema,
    obligations: z.array(ObligationSchema),
    relationships: z.array(ArtifactRelationshipSchema),
    artifact_uris: z.array(ArtifactUri),
    provider: ProviderRefSchema.nullable(),
    diagnostics: z.array(DiagnosticSchema),
  })
  .strict();

/**
 * What `math.run` returns. The refinements are the design's invariants: they make an
 * over-claiming result unrepresentable rather than merely discouraged.
 */
export const CapabilityResultSchema = CapabilityResultObject.superRefine((result, ctx) => {
  const verified = result.assurance.level === 'VERIFIED';
  const recordUri = result.assurance.verification_record_uri;
  const errors = result.diagnostics.filter((d) => d.severity === 'ERROR');
  if (verified && result.mode !== 'VERIFY') {
    ctx.addIssue({ code: 'custom', path: ['assurance', 'level'], message: 'VERIFIED is only possible in VERIFY mode' });
  }
  if (verified && result.execution.status !== 'COMPLETED') {
    ctx.addIssue({ code: 'custom', path: ['assurance', 'level'], message: 'VERIFIED requires a COMPLETED execution' });
  }
  if (verified && recordUri === null) {
    ctx.addIssue({
      code: 'custom',
      path: ['assurance', 'verification_record_uri'],
      message: 'VERIFIED requires a verification record URI',
    });
  }
  // VERIFIED covers the whole claim asked: an obligation of that claim still open means it is not.
  const open = result.obligations.findIndex((o) => o.status === 'OPEN');
  if (verified && open >= 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['obligations', open, 'status'],
      message: `VERIFIED covers the whole claim; obligation ${result.obligations[open]?.id ?? ''} of that claim is still OPEN (verify a weaker claim in its own name, or leave the answer below VERIFIED)`,
    });
  }
  if (!verified && recordUri !== null) {
    ctx.addIssue({
      code: 'custom',
      path: ['assurance', 'verification_record_uri'],
      message: 'a verification record URI is only allowed with VERIFIED',
    });
  }
  if (verified && (result.assurance.checker_id === null || (recordUri !== null && !result.artifact_uris.includes(recordUri)))) {
    ctx.addIssue({
      code: 'custom',
      path: ['assurance'],
      message: 'VERIFIED names its checker and lists its verification record among artifact_uris',
    });
  }
  if (result.completeness.status === 'COMPLETE' && result.scope === null) {
    ctx.addIssue({ code: 'custom', path: ['scope'], message: 'COMPLETE requires an explicit scope' });
  }
  if (result.execution.status === 'COMPLETED' && errors.length > 0) {
    ctx.addIssue({ code: 'custom', path: ['diagnostics'], message: 'a COMPLETED run carries no ERROR diagnostics' });
  }
  if (result.execution.status !== 'COMPLETED') {
    if (errors.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['diagnostics'],
        message: `a ${result.execution.status} run carries at least one ERROR diagnostic saying why`,
      });
    }
    if (result.completeness.status === 'COMPLETE') {
      ctx.addIssue({
        code: 'custom',
        path: ['completeness', 'status'],
        message: 'a run that did not complete is never a complete conclusion',
      });
    }
    if (result.assurance.level !== 'HEURISTIC') {
      ctx.addIssue({
        code: 'custom',
        path: ['assurance', 'level'],
        message: 'a run that did not complete carries HEURISTIC assurance at most',
      });
    }
  }
  if (new Set(result.artifact_uris).size !== result.artifact_uris.length) {
    ctx.addIssue({ code: 'custom', path: ['artifact_uris'], message: 'artifact URIs are unique' });
  }
});
export type CapabilityResult = z.infer<typeof CapabilityResultSchema>;

/** The unrefined object shape, for JSON Schema derivation (refinements are not expressible there). */
export const CapabilityResultShape = CapabilityResultObject;
