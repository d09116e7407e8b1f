import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { installCapability, type CapabilityDefinition } from '../capabilities/define.js';
import type { CapabilityDescriptor, Mode, Role } from './capability.js';
import { DEFAULT_POLICY, evaluatePolicy, OperatorPolicySchema, policyDigest, type OperatorPolicyInput } from './policy.js';
import type { ProviderRuntime } from './provider.js';

const RUNTIME: ProviderRuntime = {
  provider: 'fake-provider',
  availability: 'AVAILABLE',
  version: '1.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: 'e'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

interface Spec {
  id: string;
  domain?: string;
  tags?: string[];
  modes?: Mode[];
  role?: Role;
}

/** A real descriptor, installed from a small definition the way the services install theirs. */
function descriptor(spec: Spec): CapabilityDescriptor {
  const role = spec.role ?? 'producer';
  const definition: CapabilityDefinition<{ n: number }, { n: number }> = {
    id: spec.id,
    version: '1.0.0',
    title: `Capability ${spec.id}`,
    description: `Test capability ${spec.id}.`,
    tags: spec.tags ?? [],
    domain: spec.domain ?? 'graph',
    modes: spec.modes ?? ['EXPLORE'],
    role,
    pool: role === 'checker' ? 'checker' : 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [],
    input: z.object({ n: z.number().int() }).strict(),
    output: z.object({ n: z.number().int() }).strict(),
    examples: [],
    relationships: [],
    assurance_ceiling: role === 'checker' ? 'VERIFIED' : 'COMPUTED',
    scope_rule: 'the input',
    limits: {},
    run: () => Promise.reject(new Error('not run in these tests')),
  };
  const checker = role === 'checker' ? { checker_id: `${spec.id}.checker`, checker_digest: `sha256:${'a'.repeat(64)}`, method: 'm' } : null;
  return installCapability(definition, RUNTIME, checker).descriptor;
}

const policy = (input: OperatorPolicyInput) => OperatorPolicySchema.parse(input);

describe('evaluatePolicy', () => {
  const construct = descriptor({ id: 'graph.construct', tags: ['graph', 'construction'] });
  const both = descriptor({ id: 'graph.check', modes: ['EXPLORE', 'VERIFY'], role: 'checker' });
  const verifyOnly = descriptor({ id: 'graph.verify', modes: ['VERIFY'], role: 'checker' });
  const lookup = descriptor({ id: 'oeis.lookup', domain: 'sequences', tags: ['retrieval', 'lookup'] });

  it('shows everything, with all its modes, under the default policy', () => {
    for (const d of [construct, both, verifyOnly, lookup]) {
      expect(evaluatePolicy(DEFAULT_POLICY, d)).toEqual({ visible: true, modes: d.modes });
    }
  });

  it('hides by exact ID only', () => {
    const p = policy({ hidden_ids: ['graph.construct'] });
    expect(evaluatePolicy(p, construct)).toEqual({ visible: false, reason: 'capability ID graph.construct is hidden by operator policy' });
    expect(evaluatePolicy(p, descriptor({ id: 'graph.construct_more' })).visible).toBe(true);
    expect(evaluatePolicy(p, descriptor({ id: 'graph.construct.more' })).visible).toBe(true);
  });

  it('hides by domain', () => {
    const p = policy({ hidden_domains: ['sequences'] });
    expect(evaluatePolicy(p, lookup)).toEqual({ visible: false, reason: 'domain sequences is hidden by operator policy' });
    expect(evaluatePolicy(p, construct).visible).toBe(true);
  });

  it('hides by tag (exact tag match)', () => {
    const p = policy({ hidden_tags: ['construction'] });
    expect(evaluatePolicy(p, construct)).toMatchObject({ visible: false, reason: expect.stringContaining('tag construction') as unknown });
    expect(evaluatePolicy(p, lookup).visible).toBe(true);
    expect(evaluatePolicy(policy({ hidden_tags: ['construct'] }), construct).visible).toBe(true);
  });

  it('removes hidden modes, and hides a capability whose every mode is hidden', () => {
    const p = policy({ hidden_modes: ['VERIFY'] });
    expect(evaluatePolicy(p, both)).toEqual({ visible: true, modes: ['EXPLORE'] });
    expect(evaluatePolicy(p, verifyOnly)).toEqual({ visible: false, reason: 'every mode of graph.verify is hidden by operator policy' });
    expect(evaluatePolicy(p, construct)).toEqual({ visible: true, modes: ['EXPLORE'] });
    expect(evaluatePolicy(policy({ hidden_modes: ['EXPLORE'] }), both)).toEqual({ visible: true, modes: ['VERIFY'] });
  });

  it('COMPUTE_VERIFY_NO_RETRIEVAL denies retrieval-tagged capabilities and nothing else', () => {
    const p = policy({ profile: 'COMPUTE_VERIFY_NO_RETRIEVAL' });
    expect(evaluatePolicy(p, lookup)).toEqual({
      visible: false,
      reason: 'tag retrieval is denied by operator policy (profile COMPUTE_VERIFY_NO_RETRIEVAL)',
    });
    expect(evaluatePolicy(p, descriptor({ id: 'x.lookup', tags: ['retrieval-cache', 'retrieve'] })).visible).toBe(true);
    for (const d of [construct, both, verifyOnly]) expect(evaluatePolicy(p, d)).toEqual({ visible: true, modes: d.modes });
    expect(evaluatePolicy(DEFAULT_POLICY, lookup).visible).toBe(true);
  });
});

describe('OperatorPolicySchema', () => {
  it('defaults to the DEFAULT profile with empty lists and is strict', () => {
    expect(DEFAULT_POLICY).toEqual({ profile: 'DEFAULT', hidden_ids: [], hidden_domains: [], hidden_tags: [], hidden_modes: [] });
    expect(OperatorPolicySchema.safeParse({ hidden: [] }).success).toBe(false);
    expect(OperatorPolicySchema.safeParse({ hidden_ids: ['Not An Id'] }).error?.issues[0]?.path).toEqual(['hidden_ids', 0]);
    expect(OperatorPolicySchema.safeParse({ hidden_modes: ['COMPUTE'] }).error?.issues[0]?.path).toEqual(['hidden_modes', 0]);
  });
});

describe('policyDigest', () => {
  const full = {
    profile: 'COMPUTE_VERIFY_NO_RETRIEVAL' as const,
    hidden_ids: ['a.b', 'c.d', 'e.f'],
    hidden_domains: ['graph', 'sequences'],
    hidden_tags: ['retrieval', 'slow', 'z3'],
    hidden_modes: ['VERIFY' as const, 'EXPLORE' as const],
  };

  it('is sha256:<64 hex>', () => {
    expect(policyDigest(DEFAULT_POLICY)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('does not depend on list order or repeated entries', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(full.hidden_ids, { minLength: 3 }),
        fc.shuffledSubarray(full.hidden_domains, { minLength: 2 }),
        fc.shuffledSubarray(full.hidden_tags, { minLength: 3 }),
        fc.shuffledSubarray(full.hidden_modes, { minLength: 2 }),
        fc.boolean(),
        (ids, domains, tags, modes, repeat) => {
          const p = policy({
            profile: full.profile,
            hidden_ids: repeat ? [...ids, ids[0] as string] : ids,
            hidden_domains: domains,
            hidden_tags: tags,
            hidden_modes: modes,
          });
          expect(policyDigest(p)).toBe(policyDigest(policy(full)));
        },
      ),
    );
  });

  it('changes when any part of the policy changes', () => {
    const digests = new Set([
      policyDigest(policy(full)),
      policyDigest(policy({ ...full, profile: 'DEFAULT' })),
      policyDigest(policy({ ...full, hidden_ids: ['a.b', 'c.d'] })),
      policyDigest(policy({ ...full, hidden_domains: ['graph'] })),
      policyDigest(policy({ ...full, hidden_tags: ['retrieval', 'slow', 'z4'] })),
      policyDigest(policy({ ...full, hidden_modes: ['VERIFY'] })),
      // The same word in a different list is a different policy.
      policyDigest(policy({ hidden_domains: ['graph'] })),
      policyDigest(policy({ hidden_tags: ['graph'] })),
      policyDigest(DEFAULT_POLICY),
    ]);
    expect(digests.size).toBe(9);
  });
});
