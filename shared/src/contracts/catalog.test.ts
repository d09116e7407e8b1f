import { createHash } from 'node:crypto';
import canonicalizeReference from 'canonicalize';
import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { installCapability, type CapabilityDefinition } from '../capabilities/define.js';
import type { CapabilityDescriptor } from './capability.js';
import { buildCatalog, CatalogSchema, descriptorDigest, inputFields } from './catalog.js';
import { DEFAULT_POLICY, OperatorPolicySchema, policyDigest } from './policy.js';
import type { ProviderRuntime } from './provider.js';

const RUNTIME: ProviderRuntime = {
  provider: 'fake-provider',
  availability: 'AVAILABLE',
  version: '2.1.0',
  digest_kind: 'PACKAGE_FILES',
  digest: '9'.repeat(64),
  platform: 'test',
  install_tier: 'T1',
  license_id: 'Apache-2.0',
  license_files: ['LICENSE'],
  features: ['f'],
};

function descriptor(id: string, overrides: Partial<CapabilityDefinition<unknown, unknown>> = {}): CapabilityDescriptor {
  const definition: CapabilityDefinition<unknown, unknown> = {
    id,
    version: '1.0.0',
    title: `Capability ${id}`,
    description: `Test capability ${id}.`,
    tags: ['test'],
    domain: id.split('.')[0] as string,
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: ['urn:test:out'],
    input: z.object({ zeta: z.number().int(), alpha: z.string().optional(), mid: z.boolean().default(false) }).strict(),
    output: z.object({ n: z.number().int() }).strict(),
    examples: [],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'the input',
    limits: {},
    run: () => Promise.reject(new Error('not run in these tests')),
    ...overrides,
  };
  return installCapability(definition, RUNTIME, null).descriptor;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const IDS = ['zeta.op', 'alpha.op_two', 'beta.x', 'alpha.op', 'alpha.b'];
const descriptors = IDS.map((id) => descriptor(id));

describe('buildCatalog', () => {
  it('lists capabilities in ID order (UTF-16 code units), whatever the input order', () => {
    const catalog = buildCatalog(descriptors, DEFAULT_POLICY);
    expect(catalog.capabilities.map((c) => c.id)).toEqual(['alpha.b', 'alpha.op', 'alpha.op_two', 'beta.x', 'zeta.op']);
    expect(CatalogSchema.parse(catalog)).toEqual(catalog);
  });

  it('has a digest that does not depend on input order', () => {
    const reference = buildCatalog(descriptors, DEFAULT_POLICY).digest;
    expect(reference).toMatch(/^sha256:[0-9a-f]{64}$/);
    fc.assert(
      fc.property(fc.shuffledSubarray(descriptors, { minLength: descriptors.length }), (shuffled) => {
        expect(buildCatalog(shuffled, DEFAULT_POLICY).digest).toBe(reference);
      }),
    );
  });

  it('is the sha256 of the RFC 8785 form of its policy digest and entries', () => {
    const catalog = buildCatalog(descriptors, DEFAULT_POLICY);
    const expected = canonicalizeReference({ policy_digest: catalog.policy_digest, capabilities: catalog.capabilities });
    expect(catalog.digest).toBe(`sha256:${sha256(expected as string)}`);
    expect(catalog.policy_digest).toBe(policyDigest(DEFAULT_POLICY));
    expect(catalog.policy_profile).toBe('DEFAULT');
    expect(catalog.catalog_version).toBe(1);
  });

  it('projects each descriptor into a compact entry with its descriptor digest', () => {
    const entry = buildCatalog(descriptors, DEFAULT_POLICY).capabilities.find((c) => c.id === 'beta.x');
    const source = descriptors.find((d) => d.id === 'beta.x') as CapabilityDescriptor;
    expect(entry).toEqual({
      id: 'beta.x',
      version: '1.0.0',
      title: 'Capability beta.x',
      domain: 'beta',
      tags: ['test'],
      modes: ['EXPLORE'],
      role: 'producer',
      pool: 'light',
      input_kinds: ['STRUCTURED_REQUEST'],
      accepted_artifact_types: [],
      produced_artifact_types: ['urn:test:out'],
      assurance_ceiling: 'COMPUTED',
      // `mid` has a default, so on the input side it is not required.
      input_fields: { required: ['zeta'], available: ['alpha', 'mid', 'zeta'] },
      provider: { name: 'fake-provider', version: '2.1.0', digest_kind: 'PACKAGE_FILES', digest: '9'.repeat(64), install_tier: 'T1', license_id: 'Apache-2.0' },
      checker: null,
      descriptor_digest: `sha256:${sha256(canonicalizeReference(source) as string)}`,
    });
    expect(entry?.descriptor_digest).toBe(descriptorDigest(source));
  });

  it('changes its digest when a descriptor changes, even in a field the entry does not show', () => {
    const before = buildCatalog(descriptors, DEFAULT_POLICY);
    const changed = descriptors.map((d) => (d.id === 'beta.x' ? descriptor('beta.x', { description: 'A different description.' }) : d));
    const after = buildCatalog(changed, DEFAULT_POLICY);
    expect(after.digest).not.toBe(before.digest);
    const entryOf = (c: typeof before) => c.capabilities.find((e) => e.id === 'beta.x');
    expect(entryOf(after)?.descriptor_digest).not.toBe(entryOf(before)?.descriptor_digest);
    const versioned = descriptors.map((d) => (d.id === 'beta.x' ? descriptor('beta.x', { version: '1.0.1' }) : d));
    expect(buildCatalog(versioned, DEFAULT_POLICY).digest).not.toBe(before.digest);
  });

  it('changes its digest when membership changes', () => {
    const all = buildCatalog(descriptors, DEFAULT_POLICY).digest;
    const fewer = buildCatalog(descriptors.slice(1), DEFAULT_POLICY).digest;
    const more = buildCatalog([...descriptors, descriptor('gamma.new')], DEFAULT_POLICY).digest;
    expect(new Set([all, fewer, more]).size).toBe(3);
    expect(buildCatalog([], DEFAULT_POLICY).capabilities).toEqual([]);
  });

  it('applies the policy and changes its digest when the policy changes', () => {
    const base = buildCatalog(descriptors, DEFAULT_POLICY);
    const hidden = buildCatalog(descriptors, OperatorPolicySchema.parse({ hidden_ids: ['beta.x'], hidden_domains: ['zeta'] }));
    expect(hidden.capabilities.map((c) => c.id)).toEqual(['alpha.b', 'alpha.op', 'alpha.op_two']);
    expect(hidden.digest).not.toBe(base.digest);
    // A policy that hides nothing installed still changes the digest: the policy is part of what agents see.
    const noop = buildCatalog(descriptors, OperatorPolicySchema.parse({ hidden_ids: ['not.installed'] }));
    expect(noop.capabilities).toEqual(base.capabilities);
    expect(noop.digest).not.toBe(base.digest);
    expect(noop.policy_digest).not.toBe(base.policy_digest);
  });

  it('shows only the modes the policy leaves', () => {
    const checker = installCapability(
      {
        id: 'alpha.check',
        version: '1.0.0',
        title: 'check',
        description: 'check',
        tags: [],
        domain: 'alpha',
        modes: ['EXPLORE', 'VERIFY'],
        role: 'checker',
        pool: 'checker',
        input_kinds: ['TYPED_ARTIFACT'],
        accepted_artifact_types: [],
        produced_artifact_types: [],
        input: z.object({}),
        output: z.object({}),
        examples: [],
        relationships: [],
        assurance_ceiling: 'VERIFIED',
        scope_rule: 'claim',
        limits: {},
        run: () => Promise.reject(new Error('unused')),
      },
      RUNTIME,
      { checker_id: 'c', checker_digest: `sha256:${'1'.repeat(64)}`, method: 'm' },
    ).descriptor;
    const catalog = buildCatalog([checker], OperatorPolicySchema.parse({ hidden_modes: ['VERIFY'] }));
    expect(catalog.capabilities.map((c) => [c.id, c.modes, c.checker?.checker_id])).toEqual([['alpha.check', ['EXPLORE'], 'c']]);
  });
});

describe('inputFields', () => {
  it('reads required and sorted available fields, tolerating schemas without them', () => {
    expect(inputFields({ properties: { b: {}, a: {} }, required: ['b', 3] })).toEqual({ required: ['b'], available: ['a', 'b'] });
    expect(inputFields({})).toEqual({ required: [], available: [] });
    expect(inputFields({ properties: null, required: 'a' })).toEqual({ required: [], available: [] });
  });
});
