import { describe, expect, it } from 'vitest';
import { JacobianError, ProviderRuntimeSchema } from '@jacobian/shared';
import { probeZ3Provider } from '../providers/z3.js';
import { loadZ3, maximumInducedTreeKernel, warmUp, type InducedTreeSearchOutput } from './maximum-induced-tree.kernel.js';
import { warmUp as countermodelWarmUp } from '../universal-algebra/countermodel-z3.kernel.js';
import { mulberry32 as prng } from '@jacobian/shared/testing';

type Graph = { order: number; edges: [number, number][] };


function randomGraph(order: number, density: number, rand: () => number): Graph {
  const edges: [number, number][] = [];
  for (let u = 0; u < order; u++) for (let v = u + 1; v < order; v++) if (rand() < density) edges.push([u, v]);
  return { order, edges };
}

/** Plain induced-tree test: distinct in-range vertices, |E(S)| = |S|-1, connected. */
function isInducedTree(graph: Graph, vertices: number[]): boolean {
  if (vertices.length === 0) return false;
  const set = new Set(vertices);
  if (set.size !== vertices.length || vertices.some((v) => !Number.isInteger(v) || v < 0 || v >= graph.order)) {
    return false;
  }
  const inner = graph.edges.filter(([u, v]) => set.has(u) && set.has(v));
  if (inner.length !== vertices.length - 1) return false;
  const seen = new Set([vertices[0]]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [u, v] of inner) {
      if (seen.has(u) !== seen.has(v)) {
        seen.add(u);
        seen.add(v);
        grew = true;
      }
    }
  }
  return seen.size === vertices.length;
}

function bruteForceMaximum(graph: Graph): number {
  let best = 0;
  for (let mask = 1; mask < 2 ** graph.order; mask++) {
    const vertices: number[] = [];
    for (let v = 0; v < graph.order; v++) if ((mask >> v) & 1) vertices.push(v);
    if (vertices.length > best && isInducedTree(graph, vertices)) best = vertices.length;
  }
  return best;
}

const PETERSEN: Graph = {
  order: 10,
  edges: [
    [0, 1], [0, 4], [0, 5], [1, 2], [1, 6], [2, 3], [2, 7], [3, 4],
    [3, 8], [4, 9], [5, 7], [5, 8], [6, 8], [6, 9], [7, 9],
  ],
};

function complete(n: number): Graph {
  const edges: [number, number][] = [];
  for (let u = 0; u < n; u++) for (let v = u + 1; v < n; v++) edges.push([u, v]);
  return { order: n, edges };
}
function path(n: number): Graph {
  const edges: [number, number][] = [];
  for (let i = 0; i + 1 < n; i++) edges.push([i, i + 1]);
  return { order: n, edges };
}
function cycle(n: number): Graph {
  // Edges must stay sorted with u < v, so the closing edge [0, n-1] goes right after [0, 1].
  const [first, ...rest] = path(n).edges;
  return { order: n, edges: first === undefined ? [] : [first, [0, n - 1], ...rest] };
}

const generous = () => ({ deadline: Date.now() + 30_000, signal: new AbortController().signal });

function expectConsistent(graph: Graph, out: InducedTreeSearchOutput): void {
  expect(out.lower_bound).toBe(out.witness.length);
  expect(out.lower_bound).toBeLessThanOrEqual(out.upper_bound);
  expect([...out.witness].sort((a, b) => a - b)).toEqual(out.witness);
  if (graph.order > 0) expect(isInducedTree(graph, out.witness)).toBe(true);
}

async function solveOptimal(graph: Graph): Promise<InducedTreeSearchOutput> {
  const out = await maximumInducedTreeKernel(graph, generous());
  expectConsistent(graph, out);
  expect(out.termination).toBe('OPTIMAL');
  expect(out.upper_bound).toBe(out.lower_bound);
  return out;
}

describe('maximumInducedTreeKernel', () => {
  it('matches brute force on seeded random graphs', async () => {
    const rand = prng(0x5eed);
    const densities = [0.1, 0.25, 0.4, 0.6, 0.85];
    for (let i = 0; i < 40; i++) {
      const graph = randomGraph(i % 12, densities[i % densities.length] as number, rand);
      const out = await solveOptimal(graph);
      expect(out.lower_bound, JSON.stringify(graph)).toBe(bruteForceMaximum(graph));
    }
  });

  it('returns 0 with an empty witness for order 0', async () => {
    expect(await maximumInducedTreeKernel({ order: 0, edges: [] }, generous())).toEqual({
      witness: [],
      lower_bound: 0,
      upper_bound: 0,
      termination: 'OPTIMAL',
      solver_calls: 0,
    });
  });

  it('solves the Petersen graph', async () => {
    const out = await solveOptimal(PETERSEN);
    expect(out.lower_bound).toBe(bruteForceMaximum(PETERSEN));
    expect(out.lower_bound).toBe(7);
  });

  it('knows the standard families', async () => {
    for (const n of [2, 3, 5, 9]) expect((await solveOptimal(complete(n))).lower_bound).toBe(2);
    for (const n of [1, 2, 6, 13]) expect((await solveOptimal(path(n))).lower_bound).toBe(n);
    for (const n of [3, 4, 8, 12]) expect((await solveOptimal(cycle(n))).lower_bound).toBe(n - 1);
    for (const n of [1, 4, 20]) expect((await solveOptimal({ order: n, edges: [] })).lower_bound).toBe(1);
  });

  it('returns BUDGET_EXHAUSTED with valid bounds when the deadline has already passed', async () => {
    // Petersen: the cheap bounds do not meet (greedy < cycle-packing bound), so a solver call
    // would be needed to finish.
    const out = await maximumInducedTreeKernel(PETERSEN, {
      deadline: Date.now() - 1000,
      signal: new AbortController().signal,
    });
    expectConsistent(PETERSEN, out);
    expect(out.termination).toBe('BUDGET_EXHAUSTED');
    expect(out.solver_calls).toBe(0);
    expect(out.lower_bound).toBeGreaterThanOrEqual(1);
    expect(out.upper_bound).toBeGreaterThanOrEqual(7);
  });

  it('returns CANCELLED when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = await maximumInducedTreeKernel(PETERSEN, { deadline: Date.now() + 30_000, signal: controller.signal });
    expectConsistent(PETERSEN, out);
    expect(out.termination).toBe('CANCELLED');
  });

  it('returns CANCELLED when aborted mid-search', async () => {
    const graph = randomGraph(90, 0.1, prng(99));
    const controller = new AbortController();
    const started = Date.now();
    const timer = setTimeout(() => controller.abort(), 300);
    const out = await maximumInducedTreeKernel(graph, { deadline: Date.now() + 30_000, signal: controller.signal });
    clearTimeout(timer);
    expectConsistent(graph, out);
    // A 90-vertex sparse graph is not provable within 300 ms; if it ever is, OPTIMAL is also fine.
    expect(['CANCELLED', 'OPTIMAL']).toContain(out.termination);
    if (out.termination === 'CANCELLED') expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('maximumInducedTreeKernel budgets and sharing', () => {
  it('stops near a short soft deadline with BUDGET_EXHAUSTED', async () => {
    const graph = randomGraph(120, 0.08, prng(4242));
    const started = Date.now();
    const out = await maximumInducedTreeKernel(graph, {
      deadline: started + 400,
      signal: new AbortController().signal,
    });
    expectConsistent(graph, out);
    expect(out.termination).toBe('BUDGET_EXHAUSTED');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('reports an abort carrying EXECUTION_TIMEOUT as BUDGET_EXHAUSTED, not CANCELLED', async () => {
    const controller = new AbortController();
    controller.abort(new JacobianError('EXECUTION_TIMEOUT', 'soft deadline reached'));
    const out = await maximumInducedTreeKernel(PETERSEN, { deadline: Date.now() + 30_000, signal: controller.signal });
    expectConsistent(PETERSEN, out);
    expect(out.termination).toBe('BUDGET_EXHAUSTED');
  });

  it('gives correct answers when calls overlap (they share one Z3 context)', async () => {
    const rand = prng(77);
    const graphs = [PETERSEN, randomGraph(11, 0.3, rand), randomGraph(10, 0.5, rand), cycle(9)];
    const outs = await Promise.all(graphs.map((graph) => maximumInducedTreeKernel(graph, generous())));
    outs.forEach((out, i) => {
      const graph = graphs[i] as Graph;
      expectConsistent(graph, out);
      expect(out.termination).toBe('OPTIMAL');
      expect(out.lower_bound).toBe(bruteForceMaximum(graph));
    });
  });
});

describe('warmUp (what a pool child runs first once a run of the module was killed)', () => {
  it("starts Z3 in this process, the countermodel's Z3 kernel exporting the same, and a run uses it", async () => {
    expect(countermodelWarmUp).toBe(warmUp);
    await warmUp();
    // Started: the API the runs use is the one warmUp awaited, and it works.
    const api = await loadZ3();
    expect(typeof api.Context).toBe('function');
    const out = await maximumInducedTreeKernel(PETERSEN, generous());
    expect(out.termination).toBe('OPTIMAL');
  });
});

describe('probeZ3Provider', () => {
  it('describes an available, healthy z3-solver', async () => {
    const runtime = await probeZ3Provider();
    expect(ProviderRuntimeSchema.safeParse(runtime).success).toBe(true);
    expect(runtime.digest_kind).toBe('PACKAGE_FILES');
    expect(runtime.license_id).toBe('MIT');
    expect(runtime.install_tier).toBe('T0');
    expect(runtime.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(runtime.license_files.some((f) => /^LICENSE/i.test(f))).toBe(true);
    // Cached digest: a second probe reports the same package identity.
    expect((await probeZ3Provider()).digest).toBe(runtime.digest);
  });
});
