/**
 * Producer kernel for "maximum induced tree": the largest vertex set S whose induced
 * subgraph is connected and acyclic.
 *
 * Strategy: a cheap greedy incumbent and a cheap sound upper bound, then a sequence of Z3
 * satisfiability queries "an induced tree with at least k vertices exists" for increasing k.
 * A `sat` answer yields a larger incumbent (re-validated in plain TypeScript before it is
 * trusted); `unsat` closes the gap and proves optimality; `unknown` (timeout or interrupt)
 * ends the search with the best bounds so far.
 */
import type { Context } from 'z3-solver';
import { JacobianError } from '@jacobian/shared';

/** The graph shape this kernel accepts (validated upstream: u < v, sorted, no duplicates). */
export interface InducedTreeGraph {
  order: number;
  edges: [number, number][];
}

/** Per-call execution context supplied by the runner. */
export interface InducedTreeKernelContext {
  /** Soft deadline as epoch milliseconds; solver calls are budgeted against it. */
  deadline: number;
  /** Cooperative cancellation; aborting stops the search and returns current bounds. */
  signal: AbortSignal;
  /** Progress reports (the pool's KernelContext gives one); each names the current bounds. */
  progress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** How the search ended. */
export type InducedTreeTermination = 'OPTIMAL' | 'BUDGET_EXHAUSTED' | 'CANCELLED';

/** Result of {@link maximumInducedTreeKernel}. */
export interface InducedTreeSearchOutput {
  /** Sorted vertex indices of the best induced tree found (empty only for order 0). */
  witness: number[];
  /** Always equal to `witness.length`. */
  lower_bound: number;
  /** A proven upper bound on the maximum induced tree size. */
  upper_bound: number;
  termination: InducedTreeTermination;
  /** Number of Z3 `check()` invocations made. */
  solver_calls: number;
}

import { withZ3Context, type Z3ContextName } from '../providers/z3-instance.js';

// The process-wide z3 instance lives in providers/z3-instance.ts (the health check uses it too);
// warmUp is this kernel module's, for the pool's warm modules.
export { loadZ3, warmUp, withZ3Context, type Z3Api, type Z3ContextName } from '../providers/z3-instance.js';

// ---------------------------------------------------------------------------------------------
// Plain graph helpers (no solver)
// ---------------------------------------------------------------------------------------------

interface PreparedGraph {
  order: number;
  /** Neighbour lists. */
  adj: number[][];
  /** Row-major adjacency matrix, order*order bytes (order ≤ 256, so at most 64 KiB). */
  matrix: Uint8Array;
}

function prepareGraph(graph: InducedTreeGraph): PreparedGraph {
  const n = graph.order;
  const adj: number[][] = Array.from({ length: n }, () => []);
  const matrix = new Uint8Array(n * n);
  for (const [u, v] of graph.edges) {
    adj[u]?.push(v);
    adj[v]?.push(u);
    matrix[u * n + v] = 1;
    matrix[v * n + u] = 1;
  }
  return { order: n, adj, matrix };
}

/**
 * True iff `vertices` is a non-empty set of distinct in-range vertices inducing a tree.
 * Used to re-validate every model Z3 hands back: the solver is trusted for search, not truth.
 */
function isInducedTree(g: PreparedGraph, vertices: readonly number[]): boolean {
  const n = g.order;
  if (vertices.length === 0) return false;
  const member = new Uint8Array(n);
  for (const v of vertices) {
    if (!Number.isInteger(v) || v < 0 || v >= n || member[v] === 1) return false;
    member[v] = 1;
  }
  let inducedEdges = 0;
  for (const v of vertices) {
    for (const w of g.adj[v] ?? []) if (member[w] === 1 && v < w) inducedEdges++;
  }
  if (inducedEdges !== vertices.length - 1) return false;
  // With exactly |S|-1 edges, connectivity is equivalent to being a tree.
  const seen = new Uint8Array(n);
  const start = vertices[0] as number;
  const stack = [start];
  seen[start] = 1;
  let reached = 1;
  while (stack.length > 0) {
    const v = stack.pop() as number;
    for (const w of g.adj[v] ?? []) {
      if (member[w] === 1 && seen[w] === 0) {
        seen[w] = 1;
        reached++;
        stack.push(w);
      }
    }
  }
  return reached === vertices.length;
}

/**
 * Greedy incumbent: from each start vertex, grow a tree by repeatedly adding an outside
 * vertex with exactly one tree neighbour (which keeps the induced subgraph a tree), preferring
 * the vertex that blocks the fewest other candidates. Stops early (keeping what it has) when
 * `shouldStop` says so, but always returns at least one vertex for a non-empty graph.
 */
function greedyInducedTree(g: PreparedGraph, shouldStop: () => boolean): number[] {
  const n = g.order;
  if (n === 0) return [];
  // Low-degree starts first: they tend to seed long trees and give a good answer early
  // when the budget cuts the loop short.
  const starts = Array.from({ length: n }, (_, v) => v).sort(
    (a, b) => (g.adj[a]?.length ?? 0) - (g.adj[b]?.length ?? 0) || a - b,
  );
  let best: number[] = [starts[0] as number];
  const inTree = new Uint8Array(n);
  const treeNeighbours = new Int32Array(n);
  for (const start of starts) {
    if (shouldStop()) break;
    inTree.fill(0);
    treeNeighbours.fill(0);
    const tree: number[] = [];
    const add = (v: number): void => {
      inTree[v] = 1;
      tree.push(v);
      for (const w of g.adj[v] ?? []) treeNeighbours[w] = (treeNeighbours[w] ?? 0) + 1;
    };
    add(start);
    for (;;) {
      let pick = -1;
      let pickScore = Number.POSITIVE_INFINITY;
      for (let v = 0; v < n; v++) {
        if (inTree[v] === 1 || treeNeighbours[v] !== 1) continue;
        // Adding v turns every outside neighbour that currently has one tree neighbour into
        // one with two, removing it from the candidate pool for good.
        let blocked = 0;
        for (const w of g.adj[v] ?? []) if (inTree[w] === 0 && treeNeighbours[w] === 1) blocked++;
        if (blocked < pickScore) {
          pickScore = blocked;
          pick = v;
        }
      }
      if (pick < 0) break;
      add(pick);
    }
    if (tree.length > best.length) best = tree;
    if (best.length === n) break;
  }
  return best.sort((a, b) => a - b);
}

/**
 * A cheap, sound upper bound. An induced tree lies inside one connected component and is
 * acyclic, so it must omit at least one vertex of every cycle; vertex-disjoint cycles need
 * distinct omitted vertices. Hence for each component C: |tree ∩ C| ≤ |C| − (number of
 * vertex-disjoint cycles packed inside C). The packing is greedy, so the bound is valid but
 * not necessarily tight.
 */
function cyclePackingUpperBound(g: PreparedGraph): number {
  const n = g.order;
  if (n === 0) return 0;
  const component = new Int32Array(n).fill(-1);
  const componentSize: number[] = [];
  for (let s = 0; s < n; s++) {
    if (component[s] !== -1) continue;
    const id = componentSize.length;
    let size = 0;
    const stack = [s];
    component[s] = id;
    while (stack.length > 0) {
      const v = stack.pop() as number;
      size++;
      for (const w of g.adj[v] ?? []) {
        if (component[w] === -1) {
          component[w] = id;
          stack.push(w);
        }
      }
    }
    componentSize.push(size);
  }
  const packed = new Array<number>(componentSize.length).fill(0);

  const alive = new Uint8Array(n).fill(1);
  const degree = new Int32Array(n);
  for (let v = 0; v < n; v++) degree[v] = g.adj[v]?.length ?? 0;
  const kill = (v: number): void => {
    alive[v] = 0;
    for (const w of g.adj[v] ?? []) degree[w] = (degree[w] ?? 0) - 1;
  };
  // Vertices of degree ≤ 1 lie on no cycle; peeling them leaves a graph of minimum degree 2
  // (or nothing), in which a BFS from any vertex must meet a non-tree edge.
  const peel = (): void => {
    const queue: number[] = [];
    for (let v = 0; v < n; v++) if (alive[v] === 1 && (degree[v] ?? 0) <= 1) queue.push(v);
    while (queue.length > 0) {
      const v = queue.pop() as number;
      if (alive[v] === 0) continue;
      kill(v);
      for (const w of g.adj[v] ?? []) if (alive[w] === 1 && (degree[w] ?? 0) <= 1) queue.push(w);
    }
  };
  const parent = new Int32Array(n);
  const depth = new Int32Array(n);
  const visited = new Uint8Array(n);
  for (;;) {
    peel();
    let root = -1;
    for (let v = 0; v < n; v++) if (alive[v] === 1) { root = v; break; }
    if (root < 0) break;
    visited.fill(0);
    visited[root] = 1;
    parent[root] = -1;
    depth[root] = 0;
    const queue = [root];
    let closing: [number, number] | undefined;
    for (let head = 0; head < queue.length && closing === undefined; head++) {
      const u = queue[head] as number;
      for (const w of g.adj[u] ?? []) {
        if (alive[w] === 0) continue;
        if (visited[w] === 0) {
          visited[w] = 1;
          parent[w] = u;
          depth[w] = (depth[u] ?? 0) + 1;
          queue.push(w);
        } else if (w !== parent[u]) {
          closing = [u, w];
          break;
        }
      }
    }
    if (closing === undefined) {
      // Unreachable after peeling; bail out rather than loop forever. The bound stays sound.
      break;
    }
    // Collect the cycle: both tree paths up to their lowest common ancestor plus (u, w).
    let [a, b] = closing;
    const cycle: number[] = [];
    while (a !== b) {
      if ((depth[a] ?? 0) >= (depth[b] ?? 0)) {
        cycle.push(a);
        a = parent[a] ?? -1;
      } else {
        cycle.push(b);
        b = parent[b] ?? -1;
      }
    }
    cycle.push(a);
    const id = component[root] ?? 0;
    packed[id] = (packed[id] ?? 0) + 1;
    for (const v of cycle) kill(v);
  }
  let bound = 0;
  for (let id = 0; id < componentSize.length; id++) {
    bound = Math.max(bound, (componentSize[id] ?? 0) - (packed[id] ?? 0));
  }
  return bound;
}

// ---------------------------------------------------------------------------------------------
// Z3 encoding
// ---------------------------------------------------------------------------------------------

/**
 * Triangle clauses are redundant (the tree constraints already forbid cycles) but prune the
 * search cheaply; past this many we stop adding them so dense graphs do not bloat the query.
 */
const MAX_TRIANGLE_CLAUSES = 20_000;

/**
 * Refuse to build a query whose estimated size exceeds this many lines: beyond it the solver's
 * memory and the load time (several seconds per million lines) are out of proportion.
 */
const MAX_QUERY_LINES = 3_000_000;

/** Upper estimate of the number of lines {@link encodeQuery} emits for target size k. */
function estimateQueryLines(g: PreparedGraph, edgeCount: number, k: number): number {
  return 2 * edgeCount * (k + 4) + g.order * (2 * k + 6) + edgeCount + MAX_TRIANGLE_CLAUSES + 1;
}

/**
 * SMT-LIB text for "some induced tree has at least k vertices", as purely Boolean constraints
 * with cardinalities, so Z3's QF_FD engine (CDCL SAT with native cardinality support) solves
 * it. Building text and parsing it once is far cheaper than hundreds of thousands of
 * individual binding calls through WASM.
 *
 * Variables:
 * - `x{v}`: v is chosen. `b{v}`: some vertex below v is chosen; `r{v}` ⇔ x_v ∧ ¬b_v makes the
 *   root the smallest chosen vertex (unique, and it breaks the root-choice symmetry).
 * - `p{v}_{u}` for each edge {u, v}: u is v's parent. A chosen non-root vertex has exactly one
 *   parent, which is chosen; the root has none.
 * - `g{v}_{i}` (1 ≤ i ≤ T): depth(v) ≥ i, in unary. A parent arc forces
 *   depth(v) ≥ depth(u) + 1 and every depth is ≤ T, so parent chains strictly descend and end
 *   at the root: the arcs form a spanning tree of S (connectivity).
 * - Every induced edge must be a parent arc in one direction, so E(S) is exactly that spanning
 *   tree (acyclicity).
 *
 * Depth bound T = k − 1 loses nothing: deleting a non-root leaf from an induced tree leaves an
 * induced tree with the same smallest vertex, so if any induced tree has ≥ k vertices, one has
 * exactly k, and its depth from its smallest vertex is ≤ k − 1. Conversely every model is an
 * induced tree with ≥ k vertices. So the query is satisfiable iff the answer is ≥ k.
 */
function* encodeQuery(g: PreparedGraph, edges: readonly [number, number][], k: number): Generator<string> {
  const n = g.order;
  const depthBound = k - 1;
  const depthAtLeast = (v: number, i: number): string =>
    i <= 0 ? 'true' : i > depthBound ? 'false' : `g${v}_${i}`;

  for (let v = 0; v < n; v++) {
    yield `(declare-fun x${v} () Bool)`;
    yield `(declare-fun b${v} () Bool)`;
    yield `(declare-fun r${v} () Bool)`;
    for (let i = 1; i <= depthBound; i++) yield `(declare-fun g${v}_${i} () Bool)`;
    for (const u of g.adj[v] ?? []) yield `(declare-fun p${v}_${u} () Bool)`;
  }
  for (let v = 0; v < n; v++) {
    yield v === 0 ? '(assert (not b0))' : `(assert (= b${v} (or b${v - 1} x${v - 1})))`;
    yield `(assert (= r${v} (and x${v} (not b${v}))))`;
    for (let i = 2; i <= depthBound; i++) yield `(assert (or (not g${v}_${i}) g${v}_${i - 1}))`;
  }
  for (let v = 0; v < n; v++) {
    const arcs = (g.adj[v] ?? []).map((u) => `p${v}_${u}`);
    if (arcs.length === 0) {
      // An isolated vertex can only be the root of a one-vertex tree.
      yield `(assert (or (not x${v}) r${v}))`;
      continue;
    }
    yield `(assert (or (not x${v}) r${v} ${arcs.join(' ')}))`;
    if (arcs.length > 1) yield `(assert ((_ at-most 1) ${arcs.join(' ')}))`;
    for (const u of g.adj[v] ?? []) {
      const arc = `p${v}_${u}`;
      yield `(assert (or (not ${arc}) x${v}))`;
      yield `(assert (or (not ${arc}) x${u}))`;
      yield `(assert (or (not ${arc}) (not r${v})))`;
      for (let i = 0; i <= depthBound; i++) {
        const from = depthAtLeast(u, i);
        const to = depthAtLeast(v, i + 1);
        yield `(assert (or (not ${arc})${from === 'true' ? '' : ` (not ${from})`} ${to}))`;
      }
    }
  }
  for (const [u, v] of edges) {
    yield `(assert (or (not x${u}) (not x${v}) p${u}_${v} p${v}_${u}))`;
  }
  let triangles = 0;
  outer: for (const [a, b] of edges) {
    for (const c of g.adj[b] ?? []) {
      if (c > b && g.matrix[a * n + c] === 1) {
        if (triangles++ >= MAX_TRIANGLE_CLAUSES) break outer;
        yield `(assert (or (not x${a}) (not x${b}) (not x${c})))`;
      }
    }
  }
  const all = Array.from({ length: n }, (_, v) => `x${v}`).join(' ');
  yield `(assert ((_ at-least ${k}) ${all}))`;
}

/**
 * Largest SMT-LIB text handed to one `fromString` call. The binding copies the string onto
 * the WASM thread's C stack (20 MiB in this build), so one huge string would crash the
 * module; small chunks also bound how long we are deaf to the deadline and the signal, since
 * parsing is synchronous (Z3 parses roughly 5-7 MB/s here).
 */
const MAX_CHUNK_CHARS = 256 * 1024;

/**
 * Feed SMT-LIB lines to the solver in bounded chunks, yielding to the event loop between
 * chunks so an abort can be noticed. Declarations persist across calls on one solver and are
 * generated before their uses, so any split at line boundaries is valid.
 *
 * @returns false if `shouldStop` fired before the whole query was loaded.
 */
async function loadQuery(
  solver: { fromString(text: string): void },
  lines: Iterable<string>,
  shouldStop: () => boolean,
): Promise<boolean> {
  let chunk: string[] = [];
  let size = 0;
  const flush = async (): Promise<boolean> => {
    if (chunk.length > 0) solver.fromString(chunk.join('\n'));
    chunk = [];
    size = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
    return !shouldStop();
  };
  for (const line of lines) {
    if (size + line.length + 1 > MAX_CHUNK_CHARS && !(await flush())) return false;
    chunk.push(line);
    size += line.length + 1;
  }
  return flush();
}

function result(
  witness: number[],
  upper: number,
  termination: InducedTreeTermination,
  solverCalls: number,
): InducedTreeSearchOutput {
  return {
    witness,
    lower_bound: witness.length,
    upper_bound: upper,
    termination,
    solver_calls: solverCalls,
  };
}

/**
 * The host aborts the signal both for real cancellation and when the soft deadline passes
 * (reason code EXECUTION_TIMEOUT). The latter is a spent budget, not a cancellation.
 */
function abortedTermination(signal: AbortSignal, deadline: number): InducedTreeTermination {
  const reason: unknown = signal.reason;
  const timedOut =
    typeof reason === 'object' && reason !== null && (reason as { code?: unknown }).code === 'EXECUTION_TIMEOUT';
  return timedOut || Date.now() >= deadline ? 'BUDGET_EXHAUSTED' : 'CANCELLED';
}

/** Grace beyond the soft deadline before we interrupt Z3 ourselves (its timeout can lag). */
const INTERRUPT_GRACE_MS = 50;

/**
 * Compute a maximum induced tree of `input`, or the best bounds reachable before the soft
 * deadline or cancellation.
 *
 * @returns witness (sorted), lower/upper bounds with lower = |witness| ≤ upper, termination
 *   status and the number of Z3 checks made. `OPTIMAL` means lower = upper is proven.
 * @throws JacobianError PROVIDER_UNAVAILABLE if Z3 cannot be initialized; PROVIDER_FAILED if
 *   Z3 rejects a query or returns a model that is not an induced tree of the required size.
 */
export async function maximumInducedTreeKernel(
  input: InducedTreeGraph,
  ctx: InducedTreeKernelContext,
): Promise<InducedTreeSearchOutput> {
  const { deadline, signal } = ctx;
  const g = prepareGraph(input);
  const n = g.order;
  if (n === 0) return result([], 0, 'OPTIMAL', 0);

  let best = greedyInducedTree(g, () => signal.aborted || Date.now() >= deadline);
  let upper = Math.max(best.length, cyclePackingUpperBound(g));
  let solverCalls = 0;

  // Decide termination by priority: a closed gap is a proof, whatever else happened.
  const stopReason = (): InducedTreeTermination | undefined => {
    if (best.length >= upper) return 'OPTIMAL';
    if (signal.aborted) return abortedTermination(signal, deadline);
    if (Date.now() >= deadline) return 'BUDGET_EXHAUSTED';
    return undefined;
  };
  const early = stopReason();
  if (early !== undefined) return result(best, upper, early, 0);

  /** One query "some induced tree has ≥ target vertices"; updates best/upper. */
  const runQuery = async (z3: Context<Z3ContextName>, target: number): Promise<'done' | 'stopped'> => {
    // A fresh solver per target: the depth bound depends on the target (see encodeQuery), and
    // the final, unsatisfiable query dominates the cost anyway.
    const solver = new z3.Solver('QF_FD');
    try {
      let loaded: boolean;
      try {
        loaded = await loadQuery(solver, encodeQuery(g, input.edges, target), () => stopReason() !== undefined);
      } catch (error) {
        throw new JacobianError('PROVIDER_FAILED', 'Z3 rejected the generated query', {
          cause: error,
          data: { detail: error instanceof Error ? error.message : String(error) },
        });
      }
      // Loading can take seconds on big graphs; it stops early at the deadline or on abort.
      if (!loaded || stopReason() !== undefined) return 'stopped';

      const remaining = Math.max(1, Math.floor(deadline - Date.now()));
      solver.set('timeout', remaining);
      // The interrupt hooks live only around check(): an interrupt on an idle Context is
      // harmless, but there is no reason to send one.
      const interrupt = (): void => {
        z3.interrupt();
      };
      signal.addEventListener('abort', interrupt);
      const backstop = setTimeout(interrupt, remaining + INTERRUPT_GRACE_MS);
      let status: 'sat' | 'unsat' | 'unknown';
      try {
        solverCalls++;
        status = await solver.check();
      } finally {
        clearTimeout(backstop);
        signal.removeEventListener('abort', interrupt);
      }

      if (status === 'unsat') {
        upper = best.length;
        return 'done';
      }
      if (status === 'unknown') return 'stopped';
      const model = solver.model();
      const witness: number[] = [];
      try {
        for (let v = 0; v < n; v++) {
          if (z3.isTrue(model.eval(z3.Bool.const(`x${v}`), true))) witness.push(v);
        }
      } finally {
        model.release();
      }
      if (witness.length < target || !isInducedTree(g, witness)) {
        throw new JacobianError('PROVIDER_FAILED', 'Z3 returned a model that is not a valid induced tree', {
          data: { target, witness },
        });
      }
      best = witness;
      return 'done';
    } finally {
      solver.release();
    }
  };

  // Progress: the gap between the bounds closes from both sides; `progress` counts solver
  // calls made, and the message names the bounds proven so far.
  const report = (): void => {
    ctx.progress?.({ progress: solverCalls, message: `induced tree of ${best.length} vertices found; at most ${upper} possible` });
  };
  report();
  return withZ3Context('kernel', async (z3) => {
    for (;;) {
      const reason = stopReason();
      if (reason !== undefined) return result(best, upper, reason, solverCalls);
      const target = best.length + 1;
      if (estimateQueryLines(g, input.edges.length, target) > MAX_QUERY_LINES) {
        // Too large to hand to the solver responsibly; the greedy answer and bound stand.
        return result(best, upper, 'BUDGET_EXHAUSTED', solverCalls);
      }
      const outcome = await runQuery(z3, target);
      report();
      if (outcome === 'stopped') {
        // Z3 gave up (timeout or interrupt) or we stopped while loading: report why.
        const termination =
          stopReason() ?? (signal.aborted ? abortedTermination(signal, deadline) : 'BUDGET_EXHAUSTED');
        return result(best, upper, termination, solverCalls);
      }
    }
  });
}
