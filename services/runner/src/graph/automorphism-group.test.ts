import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admitRequest,
  CapabilityRequestSchema,
  decodeGraph6,
  encodeGraph6,
  executeCapability,
  type CapabilityResult,
  type IndexedGraph,
  type InstalledCapability,
  type IsolatedExecutor,
  type ProviderRuntime,
} from '@jacobian/shared';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import type { NautyTools } from '../providers/nauty.js';
import { automorphismGroup, type AutomorphismGroupOutput } from './automorphism-group.js';
import { orbitsOf } from './symmetry-checks.js';
import { graphSymmetryKernel, type SymmetryKernelInput } from './symmetry.kernel.js';
import { requireNauty } from './nauty-test-support.js';
import { completeBipartite, completeGraph, cycle, factorial, mulberry32, namedGraphs, PETERSEN, randomGraph, randomPermutation, relabel } from './test-graphs.js';
import { SYMMETRY_TS_PROVIDER } from './symmetry.js';

const ID = 'graph.automorphism_group.compute';
const TS_RUNTIME: ProviderRuntime = { ...FAKE_RUNTIME, provider: SYMMETRY_TS_PROVIDER };
type Backend = 'nauty' | 'typescript';

function output(result: CapabilityResult): AutomorphismGroupOutput {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return result.output as AutomorphismGroupOutput;
}

/** Is g an automorphism? Checked here by comparing edge sets, independently of the capability's recheck. */
function isAutomorphism(graph: IndexedGraph, g: readonly number[]): boolean {
  const key = ([u, v]: readonly [number, number]): string => (u < v ? `${u},${v}` : `${v},${u}`);
  const edges = new Set(graph.edges.map(key));
  return new Set(g).size === graph.order && graph.edges.every(([u, v]) => edges.has(key([g[u] as number, g[v] as number])));
}

/** |Aut(G)| and the orbits by brute force over all n! permutations (Heap's algorithm): independent truth for small n. */
function bruteForce(graph: IndexedGraph): { order: bigint; orbits: number[][] } {
  const n = graph.order;
  const p = Array.from({ length: n }, (_, i) => i);
  const c = new Array<number>(n).fill(0);
  const automorphisms: number[][] = [];
  const visit = (): void => {
    if (isAutomorphism(graph, p)) automorphisms.push([...p]);
  };
  visit();
  for (let i = 0; i < n; ) {
    if ((c[i] as number) < i) {
      const j = i % 2 === 0 ? 0 : (c[i] as number);
      [p[j], p[i]] = [p[i] as number, p[j] as number];
      visit();
      c[i] = (c[i] as number) + 1;
      i = 0;
    } else {
      c[i] = 0;
      i++;
    }
  }
  return { order: BigInt(automorphisms.length), orbits: orbitsOf(n, automorphisms) };
}

const orbitSets = (found: AutomorphismGroupOutput): number[][] => found.orbits.map((orbit) => orbit.vertices);

describe('graph.automorphism_group.compute', () => {
  let harness: CapabilityHarness;
  let tools: NautyTools;
  const installed = {} as Record<Backend, InstalledCapability>;

  beforeAll(async () => {
    harness = await createCapabilityHarness();
    let runtime: ProviderRuntime;
    ({ tools, runtime } = await requireNauty());
    installed.nauty = harness.install(automorphismGroup({ kind: 'nauty', tools }), runtime);
    installed.typescript = harness.install(automorphismGroup({ kind: 'typescript' }), TS_RUNTIME);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  function run(backend: Backend, payload: Record<string, unknown>): Promise<CapabilityResult> {
    return harness.run(installed[backend], { capability_id: ID, payload });
  }
  const group = async (backend: Backend, graph: IndexedGraph, maxGenerators?: number): Promise<AutomorphismGroupOutput> =>
    output(await run(backend, { graph6: encodeGraph6(graph), ...(maxGenerators === undefined ? {} : { max_generators: maxGenerators }) }));

  describe.each(['nauty', 'typescript'] as const)('served by %s', (backend) => {
    const maxOrder = backend === 'nauty' ? 256 : 64;

    it('gives the known orders of named graphs (Petersen 120, K_n n!, C_n 2n, cube 48, ...) with valid generators', async () => {
      for (const { name, graph, order } of namedGraphs(maxOrder)) {
        const found = await group(backend, relabel(graph, randomPermutation(graph.order, mulberry32(7))), 256);
        expect(found.order, name).toBe(order.toString());
        expect(found.order_divisor, name).toBe(order.toString());
        expect(found.generators_truncated, name).toBe(false);
        const copy = relabel(graph, randomPermutation(graph.order, mulberry32(7)));
        for (const g of found.generators) expect(isAutomorphism(copy, g), name).toBe(true);
        // Vertex-transitive except the path and K_{3,4}.
        const transitive = !['P_6', 'K_{3,4}'].includes(name);
        if (transitive) expect(found.orbits, name).toHaveLength(1);
      }
    });

    it('agrees with brute force over all permutations on every graph of order 6 (156 graphs)', async () => {
      const graphs = execFileSync('/usr/bin/nauty-geng', ['-q', '6'], { encoding: 'utf8' }).trim().split('\n').map((text) => decodeGraph6(text));
      expect(graphs).toHaveLength(156);
      for (const graph of graphs) {
        const truth = bruteForce(graph);
        const found = await group(backend, graph);
        expect(found.order, encodeGraph6(graph)).toBe(truth.order.toString());
        expect(orbitSets(found), encodeGraph6(graph)).toEqual(truth.orbits);
      }
    });

    it('lists at most max_generators generators and says when it cut the list', async () => {
      const found = await group(backend, completeGraph(8), 2);
      expect(found.order).toBe(factorial(8).toString());
      expect(found.generators).toHaveLength(2);
      expect(found.generator_count).toBeGreaterThan(2);
      expect(found.generators_truncated).toBe(true);
      expect((await group(backend, completeGraph(8), 0)).generators).toEqual([]);
    });

    it('gives orbits with the input labels', async () => {
      // A star: the centre "hub" is fixed, the leaves form one orbit.
      const result = await run(backend, { graph: { vertices: ['hub', 'x', 'y', 'z'], edges: [['hub', 'x'], ['hub', 'y'], ['hub', 'z']] } });
      const found = output(result);
      expect(found.order).toBe('6');
      expect(found.orbits.map((orbit) => orbit.labels)).toEqual([['hub'], ['x', 'y', 'z']]);
      expect(result.completeness.status).toBe('COMPLETE');
      expect(result.qualifiers).toEqual(['EXACT', 'DETERMINISTIC']);
      expect(installed[backend].descriptor.limits).toMatchObject({ max_order: maxOrder, max_generators: 256 });
    });

    it('names the field of a bad input', async () => {
      const bad = await run(backend, { graph6: 'Cr', max_generators: 257 });
      expect(bad.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'max_generators'] });
      const twoForms = await run(backend, { graph6: 'Cr', graph: { order: 1, edges: [] } });
      expect(twoForms.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'graph6'] });
    });
  });

  it('nauty and the TypeScript search agree on the group orders and orbits of 100 random graphs', async () => {
    let compared = 0;
    for (let seed = 0; seed < 100; seed++) {
      const n = 1 + (seed % 40);
      const p = [0.05, 0.15, 0.3, 0.5, 0.8][seed % 5] as number;
      // Every fourth graph is a disjoint union of two copies, whose groups are large and wreath-shaped.
      const base = randomGraph(seed % 4 === 0 ? Math.ceil(n / 2) : n, p, mulberry32(5000 + seed));
      const graph =
        seed % 4 === 0 ? { order: 2 * base.order, edges: [...base.edges, ...base.edges.map(([u, v]): [number, number] => [u + base.order, v + base.order])] } : base;
      const [a, b] = [await group('nauty', graph), await group('typescript', graph)];
      expect(b.order, encodeGraph6(graph)).toBe(a.order);
      expect(orbitSets(b), encodeGraph6(graph)).toEqual(orbitSets(a));
      compared++;
    }
    expect(compared).toBe(100);
  });

  it('nauty: exact orders far beyond 2^53, e.g. |Aut(K_{100,156})| = 100!·156!', async () => {
    const found = await group('nauty', completeBipartite(100, 156));
    expect(found.order).toBe((factorial(100) * factorial(156)).toString());
    expect(found.generator_count).toBeLessThan(256);
    expect((await group('nauty', cycle(256))).order).toBe('512');
    expect((await group('nauty', PETERSEN, 256)).generators.every((g) => isAutomorphism(PETERSEN, g))).toBe(true);
  });

  it('typescript: refuses graphs above 64 vertices with SIZE_LIMIT_EXCEEDED naming the field', async () => {
    const result = await run('typescript', { graph6: encodeGraph6(cycle(65)) });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'SIZE_LIMIT_EXCEEDED', path: ['payload', 'graph6'] });
  });

  it('typescript: a search stopped by the budget gives a PARTIAL answer, marked, with a divisor of the order', async () => {
    // The real kernel, run in this process with its soft deadline already past: it stops at the root.
    const expired: IsolatedExecutor = {
      run: (task) =>
        Promise.resolve({
          status: 'COMPLETED',
          output: graphSymmetryKernel(task.input as SymmetryKernelInput, { deadline: Date.now() - 1, signal: new AbortController().signal, progress: () => undefined }),
          runtimeMs: 1,
        }),
      stats: () => ({ size: 0, busy: 0, idle: 0, pids: [] }),
      close: () => Promise.resolve(),
    };
    const request = admitRequest(CapabilityRequestSchema.parse({ capability_id: ID, payload: { graph6: encodeGraph6(PETERSEN) } }));
    const result = await executeCapability(installed.typescript, request, { artifacts: harness.artifacts, executor: expired }, new AbortController().signal);
    const found = output(result);
    expect(found.order).toBeNull();
    expect(120n % BigInt(found.order_divisor)).toBe(0n);
    expect(result.completeness.status).toBe('PARTIAL');
    expect(result.qualifiers).toEqual(['BOUNDED']);
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'WARNING', code: 'BUDGET_EXHAUSTED' })]);
  });
});
