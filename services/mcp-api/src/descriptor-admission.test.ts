import { describe, expect, it } from 'vitest';
import { admissibleFromDescriptor, installCapability, zodIssuesToDiagnostics, type ProviderRuntime } from '@jacobian/shared';
import { artifactPut, constructExplicit, maximumInducedTree } from '@jacobian/runner';

const RUNTIME: ProviderRuntime = {
  provider: 'test',
  availability: 'AVAILABLE',
  version: '0',
  digest_kind: 'SOURCE_TREE',
  digest: 'b'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

/**
 * An API that sees only advertised descriptors (the cluster) rebuilds admission schemas from
 * their JSON Schema. It must reject what the JSON Schema can express exactly as the real
 * schema does, and accept everything the real schema accepts.
 */
describe('admission from an advertised descriptor', () => {
  const construct = admissibleFromDescriptor(installCapability(constructExplicit, RUNTIME, null).descriptor);
  const put = admissibleFromDescriptor(installCapability(artifactPut, RUNTIME, null).descriptor);
  const compute = admissibleFromDescriptor(installCapability(maximumInducedTree(RUNTIME), RUNTIME, null).descriptor);

  it('accepts every published example', () => {
    for (const [admissible, definition] of [
      [construct, constructExplicit],
      [put, artifactPut],
      [compute, maximumInducedTree(RUNTIME)],
    ] as const) {
      for (const example of definition.examples) expect(admissible.input.safeParse(example.payload).success).toBe(true);
    }
  });

  const rejected: [string, Record<string, unknown>, (string | number)[]][] = [
    ['an unknown field', { order: 3, edges: [], colour: 'red' }, ['payload', 'colour']],
    ['a 300-vertex graph', { order: 300, edges: [] }, ['payload', 'order']],
    ['a wrong type', { order: 'ten', edges: [] }, ['payload', 'order']],
    ['an edge that is not a pair', { order: 3, edges: [[0, 1, 2]] }, ['payload', 'edges', 0]],
  ];
  for (const [name, payload, path] of rejected) {
    it(`rejects ${name} with the field in the diagnostic path`, () => {
      const parsed = construct.input.safeParse(payload);
      expect(parsed.success).toBe(false);
      if (parsed.success) return;
      expect(zodIssuesToDiagnostics(parsed.error, ['payload']).map((d) => d.path)).toContainEqual(path);
      // The capability's own schema rejects it too: the rebuilt schema is never looser here.
      expect(constructExplicit.input.safeParse(payload).success).toBe(false);
    });
  }

  it('rejects a malformed artifact URI for the compute capability', () => {
    expect(compute.input.safeParse({ graph_uri: 'artifact://md5/1' }).success).toBe(false);
    expect(compute.input.safeParse({ graph_uri: `artifact://sha256/${'a'.repeat(64)}` }).success).toBe(true);
  });
});
