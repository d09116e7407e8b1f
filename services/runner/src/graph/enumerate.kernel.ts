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
 *   deletable". Let T be the vertices with the greatest invariant (degree, then the sum of the
 *   neighbours' degrees, then the triangles through it) and R the last cell of the coarsest
 *   equitable refinement of the ordered partition (V − T, T); m(C) is the orbit of the vertex
 *   of R with the smallest canonical label (R itself when it is a single vertex). m(C)
 *   depends only on C's isomorphism class, so every class of order k + 1 is kept exactly
 *   once: from the class of C − m(C), through one orbit of S. The refinement is needed only
 *   when the new vertex ties with another one on the invariant, and the canonical labelling
 *   only when it shares R with another vertex.
 * - The hot loop runs over the subsets S of one parent with O(1) tests first: the new vertex
 *   must have the greatest degree, which holds iff no old vertex has degree above |S| and none
 *   of degree |S| is in S (the parent's vertices are kept as bit masks by degree); the sums of
 *   neighbours' degrees and the triangles are computed only for the old vertices that tie on
 *   degree, from per-parent tables; the canonical labelling (enumerate-canon.ts, on bit rows,
 *   allocation-free) only for those that still tie. Orbits of Aut(parent) on subsets come from
 *   one image table per generator (the image of S is built from the image of S minus its
 *   lowest vertex).
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
import type { KernelContext } from '@jacobian/shared';
import { RowsLabeller } from './enumerate-canon.js';
import type { SearchControl } from './invariants/search.js';

/**
 * Largest order the TypeScript enumeration accepts. Measured on one core of a busy 2-core
 * machine (Node 20): order 9 unfiltered (274,668 graphs) takes about 0.3 s; order 10
 * unfiltered (12,005,168 graphs) about 7 s counting only (geng -u: about 2.4 s) and 9 s
 * listing, which a call returns in shards of at most 16 MiB of graph6 (10 shards). Order 10
 * with a restrictive filter (triangle-free, bipartite, C4-free, bounded degree or edges) takes
 * well under a second, since those prune whole subtrees. Order 11 (a billion graphs, about
 * 90 times order 10) is out of reach without geng.
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
  /**
   * Most bytes the listing may take as a JSON string (each line's graph6 text, its newline as
   * the two bytes of "\\n", and one more byte per backslash, which JSON escapes too); the
   * graph that would pass it ends the run with TOO_MANY_TO_LIST.
   */
  max_listing_bytes: number;
}

/** How the enumeration ended. */
export const EnumerationOutcome = {
  /** Every graph in scope was generated: `count` is exact. */
  COMPLETE: 'COMPLETE',
  /** The deadline or a cancel stopped it: `count` is a lower bound, not a count. */
  STOPPED: 'STOPPED',
  /** The listing would take more than `max_listing_bytes`: nothing is concluded. */
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

/** Characters of one graph6 line (with its newline) of a graph on n ≤ 62 vertices. */
function graph6LineLength(n: number): number {
  return 2 + Math.ceil((n * (n - 1)) / 12);
}

/** Write graph6 of the graph on n vertices of `rows`, then "\n", into `out` at `at`; returns the offset after it. */
function writeGraph6Line(rows: Int32Array, n: number, out: Uint8Array, at: number): number {
  let i = at;
  out[i++] = 63 + n;
  let byte = 0;
  let filled = 0;
  for (let v = 1; v < n; v++) {
    for (let u = 0; u < v; u++) {
      byte = (byte << 1) | ((rows[u]! >>> v) & 1);
      if (++filled === 6) {
        out[i++] = 63 + byte;
        byte = 0;
        filled = 0;
      }
    }
  }
  if (filled > 0) out[i++] = 63 + (byte << (6 - filled));
  out[i++] = 10;
  return i;
}

/** Graph6 lines collected in large byte chunks (one string per graph would cost more than the search). */
class ListingWriter {
  private readonly lineLength: number;
  private readonly chunkLines: number;
  private readonly chunks: Uint8Array[] = [];
  private current: Uint8Array;
  private offset = 0;

  constructor(private readonly n: number) {
    this.lineLength = graph6LineLength(n);
    this.chunkLines = Math.max(1, Math.floor((1 << 20) / this.lineLength));
    this.current = new Uint8Array(this.chunkLines * this.lineLength);
  }

  /** Bytes of the listing as a JSON string so far (without the quotes). */
  private jsonBytes = 0;

  /** Add a graph's line; false (and nothing added) when the listing would pass `maxJsonBytes` as a JSON string. */
  add(rows: Int32Array, maxJsonBytes: number): boolean {
    if (this.offset === this.current.length) {
      this.chunks.push(this.current);
      this.current = new Uint8Array(this.chunkLines * this.lineLength);
      this.offset = 0;
    }
    const start = this.offset;
    const end = writeGraph6Line(rows, this.n, this.current, start);
    // The newline takes two bytes in JSON, as does each backslash (graph6 byte 92).
    let bytes = end - start + 1;
    for (let i = start; i < end; i++) if (this.current[i] === 92) bytes++;
    if (this.jsonBytes + bytes > maxJsonBytes) return false;
    this.jsonBytes += bytes;
    this.offset = end;
    return true;
  }

  text(): string {
    return Buffer.concat([...this.chunks, this.current.subarray(0, this.offset)]).toString('latin1');
  }
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
  const listing = input.list ? new ListingWriter(n) : null;
  let count = 0;
  let nodes = 0;
  let outcome: EnumerationOutcome = EnumerationOutcome.COMPLETE;

  /** Record one graph of the final order; false when the run must end. */
  const found = (rows: Int32Array): boolean => {
    count++;
    if (listing !== null) {
      if (!listing.add(rows, input.max_listing_bytes)) {
        outcome = EnumerationOutcome.TOO_MANY_TO_LIST;
        return false;
      }
    }
    return true;
  };

  if (n === 0) {
    if (nullGraphQualifies(f) && (shard === null || shard.index === 0)) found(new Int32Array(0));
    return { outcome, count: outcome === EnumerationOutcome.COMPLETE ? count : 0, listing: outcome === EnumerationOutcome.COMPLETE && listing !== null ? listing.text() : '', nodes: 1, canonical_labellings: 0 };
  }

  /**
   * The search nodes of this order are where shards split: numbered in search order, node i
   * goes to shard i mod count. Two levels above the leaves, so that each shard repeats only the
   * small upper part of the search (order 8: 12,346 nodes for order 10) and still gets
   * thousands of subtrees, which evens out their sizes.
   */
  const splitLevel = Math.max(1, n - 2);
  let splitIndex = 0;
  let polls = 0;
  let lastCountReport = Date.now();
  const labeller = new RowsLabeller(n);
  const shouldStop = (): boolean => control.shouldStop();
  const levels = Array.from({ length: n + 1 }, () => new Int32Array(n));
  const degrees = Array.from({ length: n + 1 }, () => new Int32Array(n));
  /** Per level: byDegree[d] holds the parent's vertices of degree d as bits. */
  const byDegree = Array.from({ length: n + 1 }, () => new Int32Array(n + 2));
  /** Per level: the sum of the neighbours' degrees, and the triangles, through each parent vertex. */
  const neighbourDegrees = Array.from({ length: n + 1 }, () => new Int32Array(n));
  const triangles = Array.from({ length: n + 1 }, () => new Int32Array(n));
  /** Per level: orbit representatives of the subsets, the marks of the orbit search, and each generator's image table. */
  const representatives: (Int32Array | undefined)[] = [];
  const marks: (Uint8Array | undefined)[] = [];
  const images: Int32Array[][] = Array.from({ length: n + 1 }, () => []);
  const stack: number[] = [];

  const stop = (): boolean => {
    outcome = EnumerationOutcome.STOPPED;
    return false;
  };

  /**
   * One vertex set per orbit of the group generated by `generators` on the subsets of k
   * vertices (each orbit's least bit mask, in increasing order), in representatives[k]; returns
   * how many.
   */
  const subsetOrbits = (k: number, generators: readonly Int32Array[]): number => {
    const total = 1 << k;
    const reps = (representatives[k] ??= new Int32Array(total));
    const seen = (marks[k] ??= new Uint8Array(total));
    const tables = images[k]!;
    for (let gi = 0; gi < generators.length; gi++) {
      const g = generators[gi]!;
      const table = (tables[gi] ??= new Int32Array(total));
      table[0] = 0;
      for (let m = 1; m < total; m++) table[m] = table[m & (m - 1)]! | (1 << g[31 - Math.clz32(m & -m)]!);
    }
    seen.fill(0);
    let found = 0;
    for (let m = 0; m < total; m++) {
      if (seen[m] === 1) continue;
      reps[found++] = m;
      seen[m] = 1;
      stack.push(m);
      while (stack.length > 0) {
        const t = stack.pop()!;
        for (let gi = 0; gi < generators.length; gi++) {
          const u = tables[gi]![t]!;
          if (seen[u] === 0) {
            seen[u] = 1;
            stack.push(u);
          }
        }
      }
    }
    return found;
  };

  /** Whether the final graph passes the filters that were not kept at every level. */
  const finalFilters = (rows: Int32Array, edges: number): boolean => {
    if (edges < f.min_edges) return false;
    if (f.min_degree > 0) for (let x = 0; x < n; x++) if (popcount(rows[x]!) < f.min_degree) return false;
    if (f.connected && !connected(rows, n)) return false;
    if (f.biconnected && !biconnected(rows, n)) return false;
    return true;
  };

  /** Visit the kept graph on the first k vertices of `levels[k]`; false when the run must end. */
  const visit = (k: number, edges: number, known: Int32Array[] | null): boolean => {
    const rows = levels[k]!;
    nodes++;
    if (shard !== null && k === splitLevel && splitIndex++ % shard.count !== shard.index) return true;
    if (k === n) return finalFilters(rows, edges) ? found(rows) : true;
    let generators = known;
    if (generators === null) {
      generators = labeller.label(rows, k, shouldStop);
      if (generators === null) return stop();
    }
    const deg = degrees[k]!;
    const classes = byDegree[k]!;
    const sums = neighbourDegrees[k]!;
    const tri = triangles[k]!;
    classes.fill(0);
    let maxDegree = 0;
    for (let x = 0; x < k; x++) {
      const d = popcount(rows[x]!);
      deg[x] = d;
      classes[d] = classes[d]! | (1 << x);
      if (d > maxDegree) maxDegree = d;
    }
    for (let x = 0; x < k; x++) {
      let sum = 0;
      let t = 0;
      const row = rows[x]!;
      for (let b = row; b !== 0; b &= b - 1) {
        const y = 31 - Math.clz32(b & -b);
        sum += deg[y]!;
        t += popcount(row & rows[y]!);
      }
      sums[x] = sum;
      tri[x] = t >>> 1;
    }
    // What the filters ask of the new vertex's neighbourhood S, given that k + 1 … n − 1 may still add one edge each.
    const remaining = n - k - 1;
    let full = 0;
    let mustJoin = 0;
    for (let x = 0; x < k; x++) {
      if (deg[x]! >= f.max_degree) full |= 1 << x;
      if (deg[x]! + 1 + remaining < f.min_degree) return true;
      if (deg[x]! + remaining < f.min_degree) mustJoin |= 1 << x;
    }
    const addable = Math.min(maxEdges - ((k + 1) * k) / 2, remaining * f.max_degree);
    const trivial = generators.length === 0;
    const total = trivial ? 1 << k : subsetOrbits(k, generators);
    const reps = representatives[k];
    const child = levels[k + 1]!;
    const bit = 1 << k;
    for (let i = 0; i < total; i++) {
      const s = trivial ? i : reps![i]!;
      if (++polls % POLL_INTERVAL === 0) {
        if (control.shouldStop()) return stop();
        const now = Date.now();
        if (control.onCount !== undefined && now - lastCountReport >= 1000) {
          lastCountReport = now;
          control.onCount(count);
        }
      }
      const size = popcount(s);
      // McKay's test, first on degrees: the new vertex must have the greatest degree of the child.
      if (maxDegree > size || (classes[size]! & s) !== 0) continue;
      // Hereditary filters and what the lower bounds still allow.
      if (size > f.max_degree || (s & full) !== 0 || size + remaining < f.min_degree || (mustJoin & ~s) !== 0) continue;
      const childEdges = edges + size;
      if (childEdges > f.max_edges || childEdges + addable < f.min_edges) continue;
      if (f.triangle_free) {
        let clash = false;
        for (let b = s; b !== 0 && !clash; b &= b - 1) if ((rows[31 - Math.clz32(b & -b)]! & s) !== 0) clash = true;
        if (clash) continue;
      }
      if (f.c4_free) {
        // A new 4-cycle runs k, a, x, b, k for two neighbours a, b of x in S.
        let clash = false;
        for (let x = 0; x < k && !clash; x++) if (popcount(rows[x]! & s) >= 2) clash = true;
        if (clash) continue;
      }
      // The old vertices that tie with the new one on degree.
      const tied = (classes[size]! & ~s) | (size > 0 ? classes[size - 1]! & s : 0);
      let top = 0;
      if (tied !== 0) {
        // Next: the sum of the neighbours' degrees, then the triangles through the vertex (in the child).
        let newSum = size;
        let newTriangles = 0;
        for (let b = s; b !== 0; b &= b - 1) {
          const y = 31 - Math.clz32(b & -b);
          newSum += deg[y]!;
          newTriangles += popcount(rows[y]! & s);
        }
        newTriangles >>>= 1;
        let beaten = false;
        for (let b = tied; b !== 0; b &= b - 1) {
          const x = 31 - Math.clz32(b & -b);
          const inS = (s >>> x) & 1;
          const common = popcount(rows[x]! & s);
          const sum = sums[x]! + common + (inS === 1 ? size : 0);
          if (sum < newSum) continue;
          if (sum > newSum) {
            beaten = true;
            break;
          }
          const t = tri[x]! + (inS === 1 ? common : 0);
          if (t > newTriangles) {
            beaten = true;
            break;
          }
          if (t === newTriangles) top |= 1 << x;
        }
        if (beaten) continue;
      }
      for (let x = 0; x < k; x++) child[x] = ((s >>> x) & 1) === 1 ? rows[x]! | bit : rows[x]!;
      child[k] = s;
      // Bipartiteness is hereditary too; tested before the costlier canonical labelling.
      if (f.bipartite && !bipartite(child, k + 1)) continue;
      let childGenerators: Int32Array[] | null = null;
      if (top !== 0) {
        // Still tied: refine (the others, the tied ones) to equitable; the deletable vertices are
        // those of the last cell, and the new vertex must be one of them.
        const last = labeller.lastCell(child, k + 1, top | bit);
        if ((last & bit) === 0) continue;
        if (last !== bit) {
          // Keep the child iff the new vertex is in the orbit of the vertex of that cell with the least canonical label.
          childGenerators = labeller.label(child, k + 1, shouldStop);
          if (childGenerators === null) return stop();
          const label = labeller.labelling;
          let chosen = k;
          for (let b = last; b !== 0; b &= b - 1) {
            const x = 31 - Math.clz32(b & -b);
            if (label[x]! < label[chosen]!) chosen = x;
          }
          if (chosen !== k && !labeller.sameOrbit(chosen, k)) continue;
        }
      }
      if (!visit(k + 1, childEdges, childGenerators)) return false;
    }
    return true;
  };

  levels[1]![0] = 0;
  visit(1, 0, []);
  return {
    outcome,
    count,
    listing: outcome === EnumerationOutcome.COMPLETE && listing !== null ? listing.text() : '',
    nodes,
    canonical_labellings: labeller.labellings,
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
