import { z } from 'zod';
import { canonicalDigest } from '../canonical-json.js';
import { CapabilityIdSchema, Mode, type CapabilityDescriptor } from './capability.js';

export const PolicyProfile = {
  DEFAULT: 'DEFAULT',
  /** Evaluation isolation: only computation and independent verification, no retrieval. */
  COMPUTE_VERIFY_NO_RETRIEVAL: 'COMPUTE_VERIFY_NO_RETRIEVAL',
} as const;
export type PolicyProfile = (typeof PolicyProfile)[keyof typeof PolicyProfile];

/** Tags a profile denies in addition to the operator's explicit lists. */
const PROFILE_DENIED_TAGS: Record<PolicyProfile, readonly string[]> = {
  DEFAULT: [],
  COMPUTE_VERIFY_NO_RETRIEVAL: ['retrieval'],
};

/**
 * Operator policy: which capabilities agents may see and call. It changes availability
 * only; it cannot install or authorize a checker.
 */
export const OperatorPolicySchema = z
  .object({
    profile: z.enum(PolicyProfile).default('DEFAULT'),
    hidden_ids: z.array(CapabilityIdSchema).default([]),
    hidden_domains: z.array(z.string().min(1)).default([]),
    hidden_tags: z.array(z.string().min(1)).default([]),
    hidden_modes: z.array(z.enum(Mode)).default([]),
  })
  .strict();
export type OperatorPolicy = z.infer<typeof OperatorPolicySchema>;
export type OperatorPolicyInput = z.input<typeof OperatorPolicySchema>;

export const DEFAULT_POLICY: OperatorPolicy = OperatorPolicySchema.parse({});

/** `sha256:<hex>` of the canonical policy with its lists sorted, so list order does not matter. */
export function policyDigest(policy: OperatorPolicy): string {
  const sorted = {
    profile: policy.profile,
    hidden_ids: [...new Set(policy.hidden_ids)].sort(),
    hidden_domains: [...new Set(policy.hidden_domains)].sort(),
    hidden_tags: [...new Set(policy.hidden_tags)].sort(),
    hidden_modes: [...new Set(policy.hidden_modes)].sort(),
  };
  return `sha256:${canonicalDigest(sorted)}`;
}

export type PolicyDecision =
  | { visible: true; modes: Mode[] }
  | { visible: false; reason: string };

/** What the policy leaves of a capability: the modes an agent may use, or why it is hidden. */
export function evaluatePolicy(policy: OperatorPolicy, descriptor: CapabilityDescriptor): PolicyDecision {
  if (policy.hidden_ids.includes(descriptor.id)) return { visible: false, reason: `capability ID ${descriptor.id} is hidden by operator policy` };
  if (policy.hidden_domains.includes(descriptor.domain)) return { visible: false, reason: `domain ${descriptor.domain} is hidden by operator policy` };
  const deniedTags = [...policy.hidden_tags, ...PROFILE_DENIED_TAGS[policy.profile]];
  const tag = descriptor.tags.find((t) => deniedTags.includes(t));
  if (tag !== undefined) {
    return { visible: false, reason: `tag ${tag} is denied by operator policy (profile ${policy.profile})` };
  }
  const modes = descriptor.modes.filter((m) => !policy.hidden_modes.includes(m));
  if (modes.length === 0) return { visible: false, reason: `every mode of ${descriptor.id} is hidden by operator policy` };
  return { visible: true, modes };
}
