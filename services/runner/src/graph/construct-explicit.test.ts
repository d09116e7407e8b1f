import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalGraph, GraphPayloadSchema, type CapabilityResult, type InstalledCapability } from '@jacobian/shared';
import { createCapabilityHarness, type CapabilityHarness } from '../testing/fixtures.js';
import { constructExplicit, ConstructExplicitInput } from './construct-explicit.js';

const PETERSEN = {
  order: 10,
  edges: [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [0, 5], [1, 6], [2, 7], [3, 8], [4, 9], [5, 7], [7, 9], [9, 6], [6, 8], [8, 5]],
};

function firstError(result: CapabilityResult): { code: string; path: (string | number)[] | null; message: string } {
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (!diagnostic) throw new Error(`expected an ERROR diagnostic, got ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

describe('graph.construct.explicit', () => {
  let harness: CapabilityHarness;
  let capability: InstalledCapability;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    capability = harness.install(constructExplicit);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  it('stores the Petersen graph as a canonical simple-graph artifact', async () => {
    const result = await harness.run(capability, { capability_id: constructExplicit.id, payload: PETERSEN });
    expect(result.execution.status).toBe('COMPLETED');
    expect(result.completeness.status).toBe('COMPLETE');
    expect(result.assurance.level).toBe('COMPUTED');
    const output = result.output as { graph_uri: string; order: number; size: number };
    expect(output).toMatchObject({ order: 10, size: 15 });
    expect(result.artifact_uris).toEqual([output.graph_uri]);
    const stored = await harness.artifacts.get(output.graph_uri);
    const graph = GraphPayloadSchema.parse(stored.payload);
    expect(graph.edges).toHaveLength(15);
    expect(graph.edges[0]).toEqual([0, 1]);
    expect(stored.manifest.summary).toEqual({ order: 10, size: 15 });
  });

  it('gives the same artifact whatever the order of vertices, edges and endpoints', async () => {
    const shuffled = {
      vertices: [9, 3, 0, 1, 2, 4, 5, 6, 7, 8],
      edges: PETERSEN.edges.map(([u, v]) => [v, u]).reverse(),
    };
    const a = await harness.run(capability, { capability_id: constructExplicit.id, payload: PETERSEN });
    const b = await harness.run(capability, { capability_id: constructExplicit.id, payload: shuffled });
    expect((b.output as { graph_uri: string }).graph_uri).toBe((a.output as { graph_uri: string }).graph_uri);
  });

  it('stores labels in NFC, up to 64 characters as stored, and the stored graph reads back', async () => {
    // 'e' + U+0301 (64 characters as sent) is 'é' (32 in NFC); 64 ASCII characters stay 64.
    const composed = 'e\u0301'.repeat(32);
    const long = 'a'.repeat(64);
    const result = await harness.run(capability, { capability_id: constructExplicit.id, payload: { vertices: [composed, long], edges: [[long, composed]] } });
    expect(result.execution.status).toBe('COMPLETED');
    const stored = await harness.artifacts.get((result.output as { graph_uri: string }).graph_uri);
    expect(GraphPayloadSchema.parse(stored.payload).labels).toEqual([long, '\u00e9'.repeat(32)]);
  });

  it('orders decimal labels numerically before other labels', () => {
    const graph = canonicalGraph(ConstructExplicitInput.parse({ vertices: ['b', 10, 2, 'a', '0'], edges: [['a', 10]] }));
    expect(graph.labels).toEqual(['0', '2', '10', 'a', 'b']);
    expect(graph.edges).toEqual([[2, 3]]);
  });

  it('canonical form is invariant under relabelling order (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 12 }).chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })).filter(([u, v]) => u !== v), {
              selector: ([u, v]) => (u < v ? `${u}-${v}` : `${v}-${u}`),
              maxLength: 30,
            }),
            fc.infiniteStream(fc.boolean()),
          ),
        ),
        ([n, edges, flips]) => {
          const vertices = Array.from({ length: n }, (_, i) => `v${i}`);
          const a = canonicalGraph(ConstructExplicitInput.parse({ vertices, edges: edges.map(([u, v]) => [`v${u}`, `v${v}`]) }));
          const flipped = edges.map(([u, v]) => (flips.next().value ? [`v${v}`, `v${u}`] : [`v${u}`, `v${v}`])).reverse();
          const b = canonicalGraph(ConstructExplicitInput.parse({ vertices: [...vertices].reverse(), edges: flipped }));
          expect(b).toEqual(a);
          expect(GraphPayloadSchema.safeParse(a).success).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  const invalid: [string, Record<string, unknown>, (string | number)[], RegExp][] = [
    ['a 300-vertex graph', { order: 300, edges: [] }, ['payload', 'order'], /256/],
    ['257 listed vertices', { vertices: Array.from({ length: 257 }, (_, i) => i), edges: [] }, ['payload', 'vertices'], /256/],
    ['a wrong type', { order: 'ten', edges: [] }, ['payload', 'order'], /number/],
    ['an unknown field', { order: 3, edges: [], weights: [] }, ['payload', 'weights'], /unknown field/],
    ['a loop', { order: 3, edges: [[1, 1]] }, ['payload', 'edges', 0], /loop/],
    ['a duplicate edge', { order: 3, edges: [[0, 1], [1, 0]] }, ['payload', 'edges', 1], /duplicate edge/],
    ['a dangling edge', { order: 3, edges: [[0, 3]] }, ['payload', 'edges', 0, 1], /dangling/],
    ['a dangling labelled edge', { vertices: ['a', 'b'], edges: [['a', 'c']] }, ['payload', 'edges', 0, 1], /dangling/],
    ['a vertex listed twice as 1 and "1"', { vertices: [1, '1'], edges: [] }, ['payload', 'vertices', 1], /duplicate vertex/],
    ['both order and vertices', { order: 2, vertices: [0, 1], edges: [] }, ['payload'], /exactly one/],
    ['neither order nor vertices', { edges: [] }, ['payload'], /exactly one/],
    ['a label with a control character', { vertices: ['a\u0007'], edges: [] }, ['payload', 'vertices', 0], /control/],
    // 64 characters as sent, 128 in NFC (each U+0958 becomes two), as it would be stored.
    ['a label longer than 64 characters in NFC', { vertices: ['b', '\u0958'.repeat(64)], edges: [] }, ['payload', 'vertices', 1], /after Unicode NFC/],
    ['an edge end longer than 64 characters in NFC', { vertices: ['b'], edges: [['b', '\u0958'.repeat(64)]] }, ['payload', 'edges', 0, 1], /after Unicode NFC/],
    ['a negative order', { order: -1, edges: [] }, ['payload', 'order'], />=/],
  ];
  for (const [name, payload, path, rule] of invalid) {
    it(`rejects ${name} with a diagnostic naming the field, and writes nothing`, async () => {
      const before = await harness.files();
      const result = await harness.run(capability, { capability_id: constructExplicit.id, payload });
      expect(result.execution.status).toBe('ERROR');
      expect(result.output).toBeNull();
      expect(result.artifact_uris).toEqual([]);
      const error = firstError(result);
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.path).toEqual(path);
      expect(error.message).toMatch(rule);
      expect(await harness.files()).toEqual(before);
    });
  }
});
