/**
 * Connectivity invariants with witnesses: connected components, vertex connectivity κ(G) with a
 * minimum separating set, and edge connectivity λ(G) with a minimum edge cut.
 *
 * κ(G) uses unit-capacity max-flow on the vertex-split graph between a few vertex pairs chosen
 * as in Esfahanian–Hakimi; λ(G) uses the Stoer–Wagner minimum cut, which needs no flow at all.
 */
import { adjacencyLists, type IndexedGraph } from './search.js';

/** Vertex connectivity κ(G) with a minimum separating vertex set (see {@link vertexConnectivity}). */
export interface VertexConnectivity {
  value: number;
  /** Sorted ascending; `[]` for a disconnected graph; `null` when no separating set exists. */
  separator: number[] | null;
}

/** Edge connectivity λ(G) with a minimum edge cut (see {@link edgeConnectivity}). */
export interface EdgeConnectivity {
  value: number;
  /** Edges `[u, v]` with `u < v`, in the graph's (sorted) edge order. */
  cut: [number, number][];
}

const NONE = -1;

/**
 * The connected components of `graph`: each sorted ascending, listed in order of their smallest
 * vertex. The graph of order 0 has no components.
 */
export function components(graph: IndexedGraph): number[][] {
  const adjacency = adjacencyLists(graph);
  const seen = new Uint8Array(graph.order);
  const result: number[][] = [];
  for (let start = 0; start < graph.order; start++) {
    if (seen[start] === 1) continue;
    seen[start] = 1;
    const component = [start];
    for (let i = 0; i < component.length; i++) {
      for (const w of adjacency[component[i] ?? 0] ?? []) {
        if (seen[w] === 0) {
          seen[w] = 1;
          component.push(w);
        }
      }
    }
    component.sort((a, b) => a - b);
    result.push(component);
  }
  return result;
}

/**
 * Whether `graph` is connected, i.e. has exactly one component. By that definition the graph of
 * order 0 (no components) is not connected, and the graph of order 1 is.
 */
export function isConnected(graph: IndexedGraph): boolean {
  return components(graph).length === 1;
}

/**
 * Vertex connectivity κ(G): the minimum number of vertices whose removal leaves a disconnected
 * graph, with such a set as witness.
 *
 * Conventions: a complete graph K_n has κ = n - 1 and `separator: null`, since removing vertices
 * never disconnects it (this covers order 1, K_1, with value 0); the graph of order 0 has value 0
 * and `separator: null`; a disconnected graph has value 0 and `separator: []`.
 *
 * Method (Esfahanian–Hakimi): let v have minimum degree δ. N(v) is a separator, so κ ≤ δ. A
 * minimum separator S either misses v (then v and some vertex t not adjacent to v lie in
 * different components of G - S) or contains v (then, S being minimum, v has neighbours x, y in
 * two different components, and x, y are non-adjacent). So κ is the minimum of the local
 * connectivities κ(v, t) and κ(x, y) over those pairs, each computed by max-flow (Menger) and
 * only far enough to decide whether it beats the current best.
 */
export function vertexConnectivity(graph: IndexedGraph): VertexConnectivity {
  const n = graph.order;
  if (n === 0) return { value: 0, separator: null };
  if (graph.edges.length === (n * (n - 1)) / 2) return { value: n - 1, separator: null };
  if (!isConnected(graph)) return { value: 0, separator: [] };

  const adjacency = adjacencyLists(graph);
  const adjacent = adjacencyMatrix(graph);
  let v = 0;
  for (let u = 1; u < n; u++) if (degree(adjacency, u) < degree(adjacency, v)) v = u;
  let separator = [...(adjacency[v] ?? [])];

  const flow = new LocalVertexConnectivity(n, adjacency, adjacent);
  const tryPair = (s: number, t: number): void => {
    // A connected non-complete graph has κ ≥ 1, so once a separator of size 1 is known, stop.
    if (separator.length <= 1) return;
    const smaller = flow.separatorBelow(s, t, separator.length);
    if (smaller !== null) separator = smaller;
  };
  for (let t = 0; t < n; t++) if (t !== v && adjacent[v * n + t] === 0) tryPair(v, t);
  const neighbours = adjacency[v] ?? [];
  for (let i = 0; i < neighbours.length; i++) {
    for (let j = i + 1; j < neighbours.length; j++) {
      const x = neighbours[i] ?? 0;
      const y = neighbours[j] ?? 0;
      if (adjacent[x * n + y] === 0) tryPair(x, y);
    }
  }
  separator.sort((a, b) => a - b);
  return { value: separator.length, separator };
}

/**
 * Edge connectivity λ(G): the minimum number of edges whose removal leaves a disconnected graph,
 * with such a set as witness. Order 0 and 1 give value 0 and `cut: []` (nothing to disconnect);
 * a disconnected graph gives value 0 and `cut: []`.
 *
 * Method: Stoer–Wagner global minimum cut on unit edge weights, O(V^3) with an adjacency matrix,
 * which is cheaper here than V - 1 max-flows on dense graphs.
 */
export function edgeConnectivity(graph: IndexedGraph): EdgeConnectivity {
  const n = graph.order;
  if (n <= 1 || !isConnected(graph)) return { value: 0, cut: [] };

  // weight[a * n + b]: number of original edges between the merged super-vertices a and b.
  const weight = new Int32Array(n * n);
  for (const [u, v] of graph.edges) {
    weight[u * n + v] = 1;
    weight[v * n + u] = 1;
  }
  const members: number[][] = Array.from({ length: n }, (_, i) => [i]);
  const active: number[] = Array.from({ length: n }, (_, i) => i);
  const attachment = new Int32Array(n);
  const added = new Uint8Array(n);
  let bestValue = Number.POSITIVE_INFINITY;
  let bestSide: number[] = [];

  while (active.length > 1) {
    // Maximum-adjacency ordering: the last vertex's attachment is a minimum cut separating it
    // from the second-to-last one (Stoer–Wagner lemma).
    for (const a of active) {
      attachment[a] = 0;
      added[a] = 0;
    }
    let previous = NONE;
    let last = NONE;
    for (let step = 0; step < active.length; step++) {
      let chosen = NONE;
      for (const a of active) {
        if (added[a] === 0 && (chosen === NONE || (attachment[a] ?? 0) > (attachment[chosen] ?? 0))) chosen = a;
      }
      added[chosen] = 1;
      previous = last;
      last = chosen;
      for (const a of active) if (added[a] === 0) attachment[a] = (attachment[a] ?? 0) + (weight[chosen * n + a] ?? 0);
    }
    const phaseCut = attachment[last] ?? 0;
    if (phaseCut < bestValue) {
      bestValue = phaseCut;
      bestSide = [...(members[last] ?? [])];
    }
    // Merge `last` into `previous`: later phases then find cuts that keep them together.
    for (const a of active) {
      const merged = (weight[previous * n + a] ?? 0) + (weight[last * n + a] ?? 0);
      weight[previous * n + a] = merged;
      weight[a * n + previous] = merged;
    }
    weight[previous * n + previous] = 0;
    members[previous]?.push(...(members[last] ?? []));
    active.splice(active.indexOf(last), 1);
  }

  const side = new Uint8Array(n);
  for (const u of bestSide) side[u] = 1;
  const cut = graph.edges.filter(([u, v]) => side[u] !== side[v]);
  return { value: cut.length, cut };
}

function degree(adjacency: number[][], v: number): number {
  return adjacency[v]?.length ?? 0;
}

function adjacencyMatrix(graph: IndexedGraph): Uint8Array {
  const n = graph.order;
  const matrix = new Uint8Array(n * n);
  for (const [u, v] of graph.edges) {
    matrix[u * n + v] = 1;
    matrix[v * n + u] = 1;
  }
  return matrix;
}

/**
 * Max-flow between two non-adjacent vertices s, t in the vertex-split graph: every vertex x other
 * than s and t becomes x_in -> x_out with capacity 1, every edge {u, w} becomes u_out -> w_in and
 * w_out -> u_in with unbounded capacity. By Menger's theorem the flow value is κ(s, t), and the
 * vertices whose unit arc crosses a minimum cut form a minimum s-t separator. Unbounded edge arcs
 * are what guarantee that the minimum cut consists of vertex arcs only.
 *
 * Flow is stored as `pred[x]`, the vertex that sends flow into x_in (NONE when x carries no flow):
 * inflow into x_in is at most 1, so this single pointer determines the whole residual graph.
 * Residual states are numbered 2x (x_in) and 2x + 1 (x_out).
 */
class LocalVertexConnectivity {
  private readonly n: number;
  private readonly adjacency: number[][];
  private readonly adjacent: Uint8Array;
  private readonly pred: Int32Array;
  private readonly visited: Int32Array;
  private readonly from: Int32Array;
  private readonly queue: Int32Array;
  private stamp = 0;

  constructor(n: number, adjacency: number[][], adjacent: Uint8Array) {
    this.n = n;
    this.adjacency = adjacency;
    this.adjacent = adjacent;
    this.pred = new Int32Array(n);
    this.visited = new Int32Array(2 * n);
    this.from = new Int32Array(2 * n);
    this.queue = new Int32Array(2 * n);
  }

  /**
   * A minimum s-t separator when κ(s, t) < limit, otherwise null (augmentation stops as soon as
   * the flow reaches `limit`, since a larger value could not improve the caller's best).
   */
  separatorBelow(s: number, t: number, limit: number): number[] | null {
    const { pred, n, adjacent } = this;
    pred.fill(NONE);
    // Common neighbours are vertex-disjoint paths of length 2: routing them first settles most
    // of the flow in dense graphs without any search.
    let value = 0;
    for (const c of this.adjacency[s] ?? []) {
      if (adjacent[c * n + t] === 1) {
        pred[c] = s;
        value++;
      }
    }
    // Then greedily disjoint paths s-a-b-t of length 3, again without search. Any initial flow
    // is fine: augmentation below can reroute it.
    for (const a of this.adjacency[s] ?? []) {
      if (value >= limit) break;
      if (pred[a] !== NONE || adjacent[a * n + t] === 1) continue;
      for (const b of this.adjacency[a] ?? []) {
        if (b !== s && b !== t && pred[b] === NONE && adjacent[b * n + t] === 1 && adjacent[b * n + s] === 0) {
          pred[a] = s;
          pred[b] = a;
          value++;
          break;
        }
      }
    }
    while (value < limit) {
      if (!this.augment(s, t)) return this.minimumCut(value);
      value++;
    }
    return null;
  }

  /** One BFS in the residual graph from s_out; on reaching t_in, push one unit along the path. */
  private augment(s: number, t: number): boolean {
    const { pred, visited, from, queue } = this;
    const stamp = ++this.stamp;
    const source = 2 * s + 1;
    const sink = 2 * t;
    let head = 0;
    let tail = 0;
    const visit = (state: number, previous: number): void => {
      if (visited[state] === stamp) return;
      visited[state] = stamp;
      from[state] = previous;
      queue[tail++] = state;
    };
    visit(source, NONE);
    let found = false;
    search: while (head < tail) {
      const state = queue[head++] ?? 0;
      const x = state >> 1;
      if ((state & 1) === 1) {
        for (const w of this.adjacency[x] ?? []) {
          if (w === s) continue;
          if (w === t) {
            from[sink] = state;
            found = true;
            break search;
          }
          visit(2 * w, state);
        }
        // Residual of a used unit arc x_in -> x_out: its reverse x_out -> x_in.
        if (x !== s && pred[x] !== NONE) visit(2 * x, state);
      } else {
        const p = pred[x] ?? NONE;
        if (p === NONE) visit(2 * x + 1, state);
        else visit(2 * p + 1, state); // cancel the flow p_out -> x_in
      }
    }
    if (!found) return false;
    for (let state = sink; state !== source; ) {
      const previous = from[state] ?? NONE;
      const x = state >> 1;
      const p = previous >> 1;
      if ((state & 1) === 0 && (previous & 1) === 1) {
        if (p === x) pred[x] = NONE; // reverse of x's unit arc: x no longer carries flow
        else if (x !== t) pred[x] = p; // forward edge arc p_out -> x_in (replaces any old pred)
      }
      // The other two step kinds (x_in -> x_out forward, x_in -> pred_out reverse) need no
      // update: the first is implied by x gaining a pred, the second by pred being overwritten.
      state = previous;
    }
    return true;
  }

  /** After a failed search: vertices whose in-side is reachable and out-side is not. */
  private minimumCut(value: number): number[] {
    const { visited, stamp, n } = this;
    const separator: number[] = [];
    for (let x = 0; x < n; x++) {
      if (visited[2 * x] === stamp && visited[2 * x + 1] !== stamp) separator.push(x);
    }
    if (separator.length !== value) {
      throw new Error(`internal error: vertex cut of size ${separator.length} for flow ${value}`);
    }
    return separator;
  }
}
