import { z } from 'zod';
import { canonicalDigest } from '../canonical-json.js';
import {
  AssuranceLevel,
  CapabilityIdSchema,
  CheckerIdentitySchema,
  InputKind,
  Mode,
  Role,
  type CapabilityDescriptor,
} from './capability.js';
import { evaluatePolicy, policyDigest, type OperatorPolicy } from './policy.js';
import { DigestKind, InstallTier } from './provider.js';

export const CatalogEntrySchema = z
  .object({
    id: CapabilityIdSchema,
    version: z.string(),
    title: z.string(),
    domain: z.string(),
    tags: z.array(z.string()),
    modes: z.array(z.enum(Mode)),
    role: z.enum(Role),
    pool: z.string(),
    input_kinds: z.array(z.enum(InputKind)),
    accepted_artifact_types: z.array(z.string()),
    produced_artifact_types: z.array(z.string()),
    assurance_ceiling: z.enum(AssuranceLevel),
    input_fields: z.object({ required: z.array(z.string()), available: z.array(z.string()) }).strict(),
    provider: z
      .object({
        name: z.string(),
        version: z.string(),
        digest_kind: z.enum(DigestKind),
        digest: z.string(),
        install_tier: z.enum(InstallTier),
        license_id: z.string(),
      })
      .strict(),
    checker: CheckerIdentitySchema.nullable(),
    /** `sha256:<hex>` of the complete descriptor this entry projects. */
    descriptor_digest: z.string(),
  })
  .strict();
export type CatalogEntry = z.infer<typeof CatalogEntrySchema>;

export const CatalogSchema = z
  .object({
    catalog_version: z.literal(1),
    digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    policy_profile: z.string(),
    policy_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    capabilities: z.array(CatalogEntrySchema),
  })
  .strict();
export type Catalog = z.infer<typeof CatalogSchema>;

/** Top-level input fields of a derived JSON Schema, for compact cards. */
export function inputFields(schema: Record<string, unknown>): { required: string[]; available: string[] } {
  const properties = schema['properties'];
  const required = schema['required'];
  return {
    required: Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [],
    available: typeof properties === 'object' && properties !== null ? Object.keys(properties).sort() : [],
  };
}

export function descriptorDigest(descriptor: CapabilityDescriptor): string {
  return `sha256:${canonicalDigest(descriptor)}`;
}

/**
 * The catalog agents see: installed descriptors filtered by policy, in stable ID order,
 * with a digest that changes exactly when membership, a descriptor, or the policy changes.
 */
export function buildCatalog(descriptors: readonly CapabilityDescriptor[], policy: OperatorPolicy): Catalog {
  const entries: CatalogEntry[] = [];
  for (const descriptor of [...descriptors].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const decision = evaluatePolicy(policy, descriptor);
    if (!decision.visible) continue;
    const runtime = descriptor.provider_runtime;
    entries.push({
      id: descriptor.id,
      version: descriptor.version,
      title: descriptor.title,
      domain: descriptor.domain,
      tags: descriptor.tags,
      modes: decision.modes,
      role: descriptor.role,
      pool: descriptor.pool,
      input_kinds: descriptor.input_kinds,
      accepted_artifact_types: descriptor.accepted_artifact_types,
      produced_artifact_types: descriptor.produced_artifact_types,
      assurance_ceiling: descriptor.assurance_ceiling,
      input_fields: inputFields(descriptor.input_schema),
      provider: {
        name: runtime.provider,
        version: runtime.version,
        digest_kind: runtime.digest_kind,
        digest: runtime.digest,
        install_tier: runtime.install_tier,
        license_id: runtime.license_id,
      },
      checker: descriptor.checker,
      descriptor_digest: descriptorDigest(descriptor),
    });
  }
  const digestOfPolicy = policyDigest(policy);
  const digest = `sha256:${canonicalDigest({ policy_digest: digestOfPolicy, capabilities: entries })}`;
  return { catalog_version: 1, digest, policy_profile: policy.profile, policy_digest: digestOfPolicy, capabilities: entries };
}
