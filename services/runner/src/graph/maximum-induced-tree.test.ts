import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InducedTreeResultPayloadSchema, PETERSEN_EXAMPLE, type InstalledCapability } from '@jacobian/shared';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { constructExplicit } from './construct-explicit.js';
import { maximumInducedTree, type MaximumInducedTreeOutput } from './maximum-induced-tree.js';

/** Brute force over all subsets: the largest induced tree, by a method unrelated to the solver. */
function bruteForceMaximum(order: number, edges: [number, number][]): number {
  let best = 0;
  for (let mask = 1; mask < 1 << order; mask++) {
    const vertices = [...Array(order).keys()].filter((v) => mask & (1 << v));
    const inside = edges.filter(([u, v]) => mask & (1 << u) && mask & (1 << v));
    if (inside.length !== vertices.length - 1) continue;
    const parent = new Map(vertices.map((v) => [v, v]));
    const findRoot = (v: number): number => {
      while (parent.get(v) !== v) v = parent.get(v) as number;
      return v;
    };
    let acyclic = true;
    for (const [u, v] of inside) {
      const [a, b] = [findRoot(u), findRoot(v)];
      if (a === b) acyclic = false;
      parent.set(a, b);
    }
    if (acyclic) best = Math.max(best, vertices.length);
  }
  return best;
}

function randomGraph(order: number, density: number, seed: number): [number, number][] {
  let state = seed;
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const edges: [number, number][] = [];
  for (let u = 0; u < order; u++) for (let v = u + 1; v < order; v++) if (next() < density) edges.push([u, v]);
  return edges;
}

describe('graph.induced_tree.maximum.compute', () => {
  let harness: CapabilityHarness;
  let construct: InstalledCapability;
  let compute: InstalledCapability;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    construct = harness.install(constructExplicit);
    compute = harness.install(maximumInducedTree(FAKE_RUNTIME));
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  async function graphUri(payload: Record<string, unknown>): Promise<string> {
    const result = await harness.run(construct, { capability_id: 'graph.construct.explicit', payload });
    return (result.output as { graph_uri: string }).graph_uri;
  }

  it('its example names the Petersen graph exactly as graph.construct.explicit stores it', async () => {
    const uri = await graphUri(PETERSEN_EXAMPLE);
    expect(compute.descriptor.examples[0]?.payload).toEqual({ graph_uri: uri });
  });

  it('finds 7 on the Petersen graph, stores a result bound to the graph, and leaves optimality open', async () => {
    const uri = await graphUri(PETERSEN_EXAMPLE);
    const result = await harness.run(compute, { capability_id: 'graph.induced_tree.maximum.compute', payload: { graph_uri: uri } });
    expect(result.execution.status).toBe('COMPLETED');
    const output = result.output as MaximumInducedTreeOutput;
    expect(output).toMatchObject({ maximum: 7, lower_bound: 7, upper_bound: 7, termination: 'OPTIMAL' });
    expect(result.completeness.status).toBe('COMPLETE');
    expect(result.assurance.level).toBe('COMPUTED');
    expect(result.scope?.input_uris).toEqual([uri]);
    expect(result.obligations[0]).toMatchObject({ id: 'optimality', status: 'OPEN', discharged_by: ['graph.induced_tree.maximum.verify'] });
    const stored = await harness.artifacts.get(output.result_uri);
    expect(stored.manifest.parents).toEqual([uri]);
    const payload = InducedTreeResultPayloadSchema.parse(stored.payload);
    expect(payload.input_uri).toBe(uri);
    expect(payload.claim.witness).toEqual(output.witness.vertices);
  });

  it('agrees with brute force on random graphs', async () => {
    for (let seed = 1; seed <= 10; seed++) {
      const order = 4 + (seed % 7);
      const edges = randomGraph(order, 0.2 + (seed % 5) * 0.15, seed);
      const uri = await graphUri({ order, edges });
      const result = await harness.run(compute, { capability_id: 'graph.induced_tree.maximum.compute', payload: { graph_uri: uri } });
      const output = result.output as MaximumInducedTreeOutput;
      expect(output.termination, `seed ${seed}`).toBe('OPTIMAL');
      expect(output.maximum, `seed ${seed}`).toBe(bruteForceMaximum(order, edges));
    }
  });

  it('under a tiny budget never claims a complete answer', async () => {
    const uri = await graphUri({ order: 80, edges: randomGraph(80, 0.12, 7) });
    const result = await harness.run(compute, {
      capability_id: 'graph.induced_tree.maximum.compute',
      payload: { graph_uri: uri },
      budget: { wall_time_ms: 300 },
    });
    expect(['TIMEOUT', 'COMPLETED']).toContain(result.execution.status);
    if (result.execution.status === 'COMPLETED') {
      const output = result.output as MaximumInducedTreeOutput;
      expect(output.termination).toBe('BUDGET_EXHAUSTED');
      expect(output.maximum).toBeNull();
      expect(result.completeness.status).toBe('PARTIAL');
      expect(result.diagnostics[0]?.code).toBe('BUDGET_EXHAUSTED');
    } else {
      expect(result.completeness.status).not.toBe('COMPLETE');
      expect(result.diagnostics[0]?.code).toBe('EXECUTION_TIMEOUT');
    }
  });

  it('rejects a graph URI that is not stored', async () => {
    const result = await harness.run(compute, {
      capability_id: 'graph.induced_tree.maximum.compute',
      payload: { graph_uri: `artifact://sha256/${'3'.repeat(64)}` },
    });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]?.code).toBe('ARTIFACT_NOT_FOUND');
  });
});
