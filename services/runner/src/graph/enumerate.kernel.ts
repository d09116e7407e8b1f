/**
 * All graphs of a given order up to isomorphism, with filters, in plain TypeScript: the embedded
 * fallback for nauty's geng, run as a kernel in the isolation pool so that a budget or a cancel
 * kills it.
 *
 * Method: McKay's canonical augmentation ("Isomorph-free exhaustive generation", J. Algorithms
 * 26 (1998)), one vertex at a time, as geng does.
 * - A node of the search is a graph on k vertices; its children add vertex k joined to a set S
 *   of the old vertices, one S per orbit of Aut(parent) on subsets (orbits computed from the
 *   parent's automorphism generators).
 * - A child C is kept iff its new vertex lies in the orbit m(C) of Aut(C) that is "canonically
 *   deletable": the orbit of the vertex that, among the vertices with the greatest invariant
 *   (degree, then the sum of the neighbours' degrees, then the triangles through it), has the
 *   smallest canonical label. m(C) depends only on C's isomorphism class, so every class of
 *   order k + 1 is kept exactly once: from the class of C − m(C), through one orbit of S.
 *   The canonical labelling is needed only when the new vertex ties with another one on the
 *   invariant; a new vertex that is alone at the top is kept without it.
 * - Triangle-free, C4-free, bipartite, maximum degree and maximum edge count hold for every
 *   induced subgraph of a graph that has them, so every ancestor of a wanted graph has them
 *   too and children without them are dropped at every level. Minimum degree and minimum edge
 *   count prune with what the remaining vertices could still add; connectivity and
 *   2-connectivity are tested on the graphs of the final order.
 *
 * Graphs are bit rows (vertex x's neighbours as bits of row[x]), so orders stay at most 30; the
 * capability allows far less ({@link ENUMERATE_TS_MAX_ORDER}), since the number of graphs grows
 * too fast for more.
 */
import type { IndexedGraph, KernelContext } from '@jacobian/shared';
import { canonicalLabelling } from './invariants/automorphisms.js';
import type { SearchControl } from './invariants/search.js';

/**
 * Largest order the TypeScript enumeration accepts. Measured on one core of a busy 2-core CI
 * machine: order 9 unfiltered (274,668 graphs) takes about 2.5 s; order 10 unfiltered
 * (12,005,168 graphs) about 90 s counting only, and its listing is beyond any output budget.
 * Order 10 with a restrictive filter (triangle-free, bipartite, C4-free, bounded degree or
 * edges) takes well under a second, since those prune whole subtrees. Order 11 (over a
 * billion graphs) is out of reach without geng.
 */
export const ENUMERATE_TS_MAX_ORDER = 10;

/** The filters, normalized: every bound present, degrees within 0..order−1, edges within 0..C(order, 2). */
export interface EnumerationFilters {
  /** Every two vertices joined by a path (true of the graphs with 0 and 1 vertex). */
  connected: boolean;
  /** 2-connected: at least 3 vertices, connected, and no cut vertex (as geng -C). */
  biconnected: boolean;
  /** No 3-cycle. */
  triangle_free: boolean;
  /** No 4-cycle as a subgraph (not necessarily induced). */
  c4_free: boolean;
  bipartite: boolean;
  /** Every vertex has at least this degree (vacuous for the graph with no vertices). */
  min_degree: number;
  /** Every vertex has at most this degree. */
  max_degree: number;
  min_edges: number;
  max_edges: number;
}

/** One part of a split enumeration: the graphs whose search node at the split level has index ≡ index (mod count). */
export interface EnumerationShard {
  index: number;
  count: number;
}

/** What the kernel is asked. */
export interface EnumerateKernelInput {
  order: number;
  filters: EnumerationFilters;
  shard: EnumerationShard | null;
  /** Collect the graphs in graph6 (else only count them). */
  list: boolean;
  /** Most graphs to collect; one more ends the run with TOO_MANY_TO_LIST. */
  max_listed: number;
}

/** How the enumeration ended. */
export const EnumerationOutcome = {
  /** Every graph in scope was generated: `count` is exact. */
  COMPLETE: 'COMPLETE',
  /** The deadline or a cancel stopped it: `count` is a lower bound, not a count. */
  STOPPED: 'STOPPED',
  /** More graphs than `max_listed`: nothing is concluded. */
  TOO_MANY_TO_LIST: 'TOO_MANY_TO_LIST',
} as const;
export type EnumerationOutcome = (typeof EnumerationOutcome)[keyof typeof EnumerationOutcome];

/** JSON answer of the kernel. */
export interface EnumerateKernelOutput {
  outcome: EnumerationOutcome;
  /** Graphs found (exact only when COMPLETE). */
  count: number;
  /** The graphs found, graph6, one per line, each line ending with "\n" (empty unless listing). */
  listing: string;
  /** Search nodes kept (graphs of every order up to the final one), for diagnostics. */
  nodes: number;
  /** Canonical labellings computed (parents' groups and ties), for diagnostics. */
  canonical_labellings: number;
}

/** Hooks of {@link enumerateGraphs} besides stopping. */
export interface EnumerationControl extends SearchControl {
  /** Told the number of graphs found now and then (at most about once a second). */
  onCount?(count: number): void;
}

/** Children between polls of the control. */
const POLL_INTERVAL = 1024;
/** Largest order bit rows hold (the sign bit stays unused). */
const MAX_BIT_ORDER = 30;

function popcount(x: number): number {
  let y = x - ((x >>> 1) & 0x55555555);
  y = (y & 0x33333333) + ((y >>> 2) & 0x33333333);
  return (Math.imul((y + (y >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Whether the graph with no vertices passes the filters: it is connected (as OEIS A001349 counts it), not 2-connected, and has no degrees to bound. */
export function nullGraphQualifies(filters: EnumerationFilters): boolean {
  return !filters.biconnected && filters.min_edges === 0;
}

/** graph6 of the graph on `n` vertices whose neighbours are the bits of `rows` (n ≤ 62). */
export function graph6OfRows(rows: ArrayLike<number>, n: number): string {
  let text = String.fromCharCode(63 + n);
  let byte = 0;
  let filled = 0;
  for (let v = 1; v < n; v++) {
    for (let u = 0; u < v; u++) {
      byte = (byte << 1) | (((rows[u] ?? 0) >>> v) & 1);
      if (++filled === 6) {
        text += String.fromCharCode(63 + byte);
        byte = 0;
        filled = 0;
      }
    }
  }
  if (filled > 0) text += String.fromCharCode(63 + (byte << (6 - filled)));
  return text;
}

function indexedGraph(rows: Int32Array, n: number): IndexedGraph {
  const edges: [number, number][] = [];
  for (let u = 0; u < n; u++) {
    for (let v = u + 1; v < n; v++) if (((rows[u]! >>> v) & 1) === 1) edges.push([u, v]);
  }
  return { order: n, edges };
}

/** Vertices reachable from vertex `start` of the first n vertices, avoiding the vertices of `removed`, as bits. */
function reach(rows: Int32Array, n: number, start: number, removed: number): number {
  const all = ((1 << n) - 1) & ~removed;
  let seen = 1 << start;
  let frontier = seen;
  while (frontier !== 0) {
    let next = 0;
    for (let f = frontier; f !== 0; f &= f - 1) next |= rows[31 - Math.clz32(f & -f)]!;
    next &= all & ~seen;
    seen |= next;
    frontier = next;
  }
  return seen;
}

function connected(rows: Int32Array, n: number): boolean {
  return n <= 1 || reach(rows, n, 0, 0) === (1 << n) - 1;
}

function biconnected(rows: Int32Array, n: number): boolean {
  if (n < 3 || !connected(rows, n)) return false;
  for (let x = 0; x < n; x++) {
    const start = x === 0 ? 1 : 0;
    if (reach(rows, n, start, 1 << x) !== ((1 << n) - 1) - (1 << x)) return false;
  }
  return true;
}

/** Whether the first n vertices can be 2-coloured. */
function bipartite(rows: Int32Array, n: number): boolean {
  const colour = new Int8Array(n).fill(-1);
  const queue = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    if (colour[s] !== -1) continue;
    colour[s] = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    while (head < tail) {
      const x = queue[head++]!;
      for (let b = rows[x]!; b !== 0; b &= b - 1) {
        const y = 31 - Math.clz32(b & -b);
        if (colour[y] === -1) {
          colour[y] = 1 - colour[x]!;
          queue[tail++] = y;
        } else if (colour[y] === colour[x]) {
          return false;
        }
      }
    }
  }
  return true;
}

/** Image of the vertex set `mask` under the permutation `g`. */
function imageOf(mask: number, g: readonly number[]): number {
  let image = 0;
  for (let b = mask; b !== 0; b &= b - 1) image |= 1 << g[31 - Math.clz32(b & -b)]!;
  return image;
}

/** One vertex set per orbit of the group generated by `generators` on the subsets of k vertices: each orbit's least bit mask. */
function subsetRepresentatives(k: number, generators: readonly (readonly number[])[]): Int32Array {
  const total = 1 << k;
  if (generators.length === 0) return Int32Array.from({ length: total }, (_, s) => s);
  const seen = new Uint8Array(total);
  const reps: number[] = [];
  const stack: number[] = [];
  for (let s = 0; s < total; s++) {
    if (seen[s] === 1) continue;
    reps.push(s);
    seen[s] = 1;
    stack.push(s);
    while (stack.length > 0) {
      const t = stack.pop()!;
      for (const g of generators) {
        const u = imageOf(t, g);
        if (seen[u] === 0) {
          seen[u] = 1;
          stack.push(u);
        }
      }
    }
  }
  return Int32Array.from(reps);
}

/** Whether u and v lie in one orbit of the group generated by `generators`. */
function sameOrbit(n: number, generators: readonly (readonly number[])[], u: number, v: number): boolean {
  const parent = Int32Array.from({ length: n }, (_, x) => x);
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r]!;
    return r;
  };
  for (const g of generators) {
    for (let x = 0; x < n; x++) {
      const a = find(x);
      const b = find(g[x]!);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  return find(u) === find(v);
}

/**
 * Enumerate the graphs of `input.order` vertices that pass `input.filters`, one per isomorphism
 * class (in the input's shard only, when one is given). Synchronous; polls `control` every
 * {@link POLL_INTERVAL} children and in every canonical labelling, and returns STOPPED as soon
 * as it says stop.
 *
 * @throws RangeError for an order above 30 or filters that are not normalized.
 */
export function enumerateGraphs(input: EnumerateKernelInput, control: EnumerationControl): EnumerateKernelOutput {
  const n = input.order;
  const f = input.filters;
  if (!Number.isInteger(n) || n < 0 || n > MAX_BIT_ORDER) throw new RangeError(`order must be an integer in 0..${MAX_BIT_ORDER}, got ${n}`);
  const maxEdges = (n * (n - 1)) / 2;
  if (f.min_degree < 0 || f.max_degree > Math.max(0, n - 1) || f.min_edges < 0 || f.max_edges > maxEdges) {
    throw new RangeError('the filters must be normalized: degrees within 0..order-1, edge counts within 0..C(order, 2)');
  }
  const shard = input.shard;
  const lines: string[] = [];
  let count = 0;
  let nodes = 0;
  let labellings = 0;
  let outcome: EnumerationOutcome = EnumerationOutcome.COMPLETE;

  /** Record one graph of the final order; false when the run must end. */
  const found = (rows: Int32Array): boolean => {
    count++;
    if (input.list) {
      if (count > input.max_listed) {
        outcome = EnumerationOutcome.TOO_MANY_TO_LIST;
        return false;
      }
      lines.push(graph6OfRows(rows, n));
    }
    return true;
  };

  if (n === 0) {
    if (nullGraphQualifies(f) && (shard === null || shard.index === 0)) found(new Int32Array(0));
    return { outcome, count: outcome === EnumerationOutcome.COMPLETE ? count : 0, listing: lines.map((l) => `${l}\n`).join(''), nodes: 1, canonical_labellings: 0 };
  }

  /** The search node at this order is where shards split: its kept nodes are numbered in search order. */
  const splitLevel = Math.max(1, n - 1);
  let splitIndex = 0;
  let polls = 0;
  let lastCountReport = Date.now();
  const levels = Array.from({ length: n + 1 }, () => new Int32Array(n));
  const degrees = Array.from({ length: n + 1 }, () => new Int32Array(n));
  const invariant = new Int32Array(n);

  const stop = (): boolean => {
    outcome = EnumerationOutcome.STOPPED;
    return false;
  };

  /**
   * Automorphism generators of the graph on the first k vertices, or null when the control
   * stopped the labelling search (a search stopped early proves nothing).
   */
  const automorphisms = (rows: Int32Array, k: number): { labelling: number[]; generators: number[][] } | null => {
    labellings++;
    const result = canonicalLabelling(indexedGraph(rows, k), control);
    return result.exhaustive ? { labelling: result.labelling, generators: result.generators } : null;
  };

  /** Whether the final graph passes the filters that were not kept at every level. */
  const finalFilters = (rows: Int32Array, edges: number): boolean => {
    if (edges < f.min_edges) return false;
    for (let x = 0; x < n; x++) if (popcount(rows[x]!) < f.min_degree) return false;
    if (f.connected && !connected(rows, n)) return false;
    if (f.biconnected && !biconnected(rows, n)) return false;
    return true;
  };

  /**
   * Whether the child of the graph on k vertices that joins vertex k to the set `s` keeps the
   * hereditary filters and can still reach the minimum degree and edge count.
   */
  const admissible = (rows: Int32Array, deg: Int32Array, k: number, edges: number, s: number): boolean => {
    const size = popcount(s);
    const childEdges = edges + size;
    if (childEdges > f.max_edges || size > f.max_degree) return false;
    const remaining = n - k - 1;
    if (size + remaining < f.min_degree) return false;
    const addable = Math.min((n * (n - 1)) / 2 - ((k + 1) * k) / 2, remaining * f.max_degree);
    if (childEdges + addable < f.min_edges) return false;
    for (let x = 0; x < k; x++) {
      const inS = (s >>> x) & 1;
      const d = deg[x]! + inS;
      if (d > f.max_degree || d + remaining < f.min_degree) return false;
      if (f.triangle_free && inS === 1 && (rows[x]! & s) !== 0) return false;
      // A new 4-cycle runs k, a, x, b, k for two neighbours a, b of x in s.
      if (f.c4_free && popcount(rows[x]! & s) >= 2) return false;
    }
    return true;
  };

  /**
   * McKay's test: whether the last vertex (k − 1) of the graph on the first k vertices is in
   * the canonically deletable orbit. Returns the graph's automorphism generators when they
   * were computed on the way, 'stop' when the control stopped a labelling.
   */
  const canonicalDeletion = (rows: Int32Array, deg: Int32Array, k: number): { keep: boolean; generators: number[][] | null } | 'stop' => {
    const v = k - 1;
    for (let x = 0; x < k; x++) deg[x] = popcount(rows[x]!);
    for (let x = 0; x < k; x++) {
      let neighbourDegrees = 0;
      let triangles = 0;
      for (let b = rows[x]!; b !== 0; b &= b - 1) {
        const y = 31 - Math.clz32(b & -b);
        neighbourDegrees += deg[y]!;
        triangles += popcount(rows[x]! & rows[y]!);
      }
      // Each part is below 2^10 for k ≤ 30 except the neighbour-degree sum (< 900): no overlap.
      invariant[x] = deg[x]! * 2 ** 20 + neighbourDegrees * 2 ** 10 + (triangles >>> 1);
    }
    const top = invariant[v]!;
    let ties = false;
    for (let x = 0; x < v; x++) {
      if (invariant[x]! > top) return { keep: false, generators: null };
      if (invariant[x] === top) ties = true;
    }
    if (!ties) return { keep: true, generators: null };
    const group = automorphisms(rows, k);
    if (group === null) return 'stop';
    let chosen = v;
    for (let x = 0; x < v; x++) if (invariant[x] === top && group.labelling[x]! < group.labelling[chosen]!) chosen = x;
    return { keep: chosen === v || sameOrbit(k, group.generators, chosen, v), generators: group.generators };
  };

  /** Visit the kept graph on the first k vertices of `levels[k]`; false when the run must end. */
  const visit = (k: number, edges: number, known: number[][] | null): boolean => {
    const rows = levels[k]!;
    nodes++;
    if (shard !== null && k === splitLevel && splitIndex++ % shard.count !== shard.index) return true;
    if (k === n) return finalFilters(rows, edges) ? found(rows) : true;
    let generators = known;
    if (generators === null) {
      const group = automorphisms(rows, k);
      if (group === null) return stop();
      generators = group.generators;
    }
    const deg = degrees[k]!;
    for (let x = 0; x < k; x++) deg[x] = popcount(rows[x]!);
    const child = levels[k + 1]!;
    const childDeg = degrees[k + 1]!;
    for (const s of subsetRepresentatives(k, generators)) {
      if (++polls % POLL_INTERVAL === 0) {
        if (control.shouldStop()) return stop();
        const now = Date.now();
        if (control.onCount !== undefined && now - lastCountReport >= 1000) {
          lastCountReport = now;
          control.onCount(count);
        }
      }
      if (!admissible(rows, deg, k, edges, s)) continue;
      for (let x = 0; x < k; x++) child[x] = ((s >>> x) & 1) === 1 ? rows[x]! | (1 << k) : rows[x]!;
      child[k] = s;
      // Bipartiteness is hereditary too; tested on the child before the costlier deletion test.
      if (f.bipartite && !bipartite(child, k + 1)) continue;
      const test = canonicalDeletion(child, childDeg, k + 1);
      if (test === 'stop') return stop();
      if (test.keep && !visit(k + 1, edges + popcount(s), test.generators)) return false;
    }
    return true;
  };

  levels[1]![0] = 0;
  visit(1, 0, []);
  return {
    outcome,
    count,
    listing: outcome === EnumerationOutcome.COMPLETE ? lines.map((l) => `${l}\n`).join('') : '',
    nodes,
    canonical_labellings: labellings,
  };
}

/**
 * Kernel entry: {@link enumerateGraphs} under the pool's soft deadline and cancel, reporting
 * the number of graphs found as progress (informational: a run that stops concludes nothing).
 */
export function enumerateKernel(input: EnumerateKernelInput, ctx: KernelContext): EnumerateKernelOutput {
  return enumerateGraphs(input, {
    shouldStop: () => Date.now() >= ctx.deadline || ctx.signal.aborted,
    onCount: (count) => ctx.progress({ progress: count, message: `${count} graphs found so far` }),
  });
}
