/**
 * Canonical labelling and automorphism group of a simple undirected graph, by McKay's
 * individualization-refinement scheme (the scheme of nauty, here in plain TypeScript as the
 * embedded fallback for nauty's `labelg` / `dreadnaut`).
 *
 * Outline:
 * - {@link refineEquitable}: colour refinement to the coarsest equitable partition finer than a
 *   given ordered partition. Every decision it takes (which splitter next, how a cell splits, in
 *   which order the fragments sit) depends only on the ordered cell structure and on neighbour
 *   counts, never on vertex names. That label-invariance is what makes the canonical form correct:
 *   relabelling the graph relabels the whole search tree.
 * - The search tree: a node is an equitable partition; its children individualize each vertex of
 *   a target cell (chosen label-invariantly) and refine again; leaves are discrete partitions,
 *   i.e. orderings of the vertices, each inducing a relabelled graph.
 * - Every leaf gets a key: the sequence of refinement traces along its path (an
 *   isomorphism-invariant fingerprint), then the relabelled adjacency matrix as a bit string. The
 *   canonical leaf is the leaf with the greatest key. Because the key is a function of the leaf that
 *   commutes with relabelling, isomorphic graphs get identical canonical graphs.
 * - Pruning keeps every leaf graph reachable that could be the maximum or witness an automorphism:
 *   (1) two leaves with the same relabelled graph define an automorphism, which proves whole
 *   subtrees equivalent ("jump back" to the common ancestor); (2) at any node, children in the same
 *   orbit of the automorphisms found so far that fix the node's individualized vertices are
 *   equivalent (orbit pruning); (3) a node whose trace prefix is below the best leaf's cannot hold
 *   the maximum, and is dropped unless its trace prefix equals the first leaf's (it may still
 *   witness an automorphism, which the exact group order needs).
 * - Group order: by the orbit-stabilizer theorem along the first path v1, v2, ..., vm,
 *   |Aut| = prod_k |orbit of v(k+1) under Aut fixing v1..vk|. When the search below the first-path
 *   node at level k finishes, the automorphisms found that fix v1..vk generate exactly that
 *   stabilizer (McKay 1981, Theorem 2.34 of "Practical graph isomorphism"), so the product over
 *   the finished levels is exact, computed in bigint.
 */
import type { IndexedGraph, SearchControl } from './search.js';

/** Adjacency in compressed sparse row form: neighbours of v are targets[offsets[v] .. offsets[v+1]). */
interface Csr {
  order: number;
  offsets: Int32Array;
  targets: Int32Array;
}

/** The isomorphism-invariant fingerprint of one refinement: cell count first, then a hash of its events. */
interface Trace {
  cells: number;
  hash: number;
}

/** Build the CSR adjacency, rejecting inputs that are not simple graphs on 0..order-1. */
function buildCsr(graph: IndexedGraph): Csr {
  const n = graph.order;
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`graph order must be a non-negative integer, got ${n}`);
  const degree = new Int32Array(n + 1);
  const seen = new Set<number>();
  for (const [u, v] of graph.edges) {
    if (!Number.isInteger(u) || !Number.isInteger(v) || u < 0 || v >= n || u >= v) {
      throw new RangeError(`edge [${u}, ${v}] is not a pair u < v of vertices of a graph of order ${n}`);
    }
    // Duplicates would be counted twice by refinement and appear twice in the canonical edge list.
    const key = u * n + v;
    if (seen.has(key)) throw new RangeError(`duplicate edge [${u}, ${v}]`);
    seen.add(key);
    degree[u] = (degree[u] ?? 0) + 1;
    degree[v] = (degree[v] ?? 0) + 1;
  }
  const offsets = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) offsets[v + 1] = (offsets[v] ?? 0) + (degree[v] ?? 0);
  const fill = offsets.slice(0, n);
  const targets = new Int32Array(2 * graph.edges.length);
  for (const [u, v] of graph.edges) {
    targets[fill[u]!++] = v;
    targets[fill[v]!++] = u;
  }
  return { order: n, offsets, targets };
}

/**
 * An ordered partition stored as in nauty: `lab` lists the vertices position by position, each
 * cell is a contiguous range of positions identified by its start. Cells only ever split in place,
 * so a singleton keeps its position for the rest of the path (the automorphism argument relies on it).
 */
class Partition {
  constructor(
    /** position -> vertex */
    readonly lab: Int32Array,
    /** vertex -> position */
    readonly pos: Int32Array,
    /** at a cell's start position: the position just past its end (garbage elsewhere) */
    readonly cellEnd: Int32Array,
    /** position -> start of the cell holding it */
    readonly cellStartAt: Int32Array,
    public cells: number,
  ) {}

  static fromCells(order: number, cells: readonly (readonly number[])[]): Partition {
    const lab = new Int32Array(order);
    const pos = new Int32Array(order).fill(-1);
    const cellEnd = new Int32Array(order);
    const cellStartAt = new Int32Array(order);
    let at = 0;
    let count = 0;
    for (const cell of cells) {
      if (cell.length === 0) continue;
      const start = at;
      for (const v of cell) {
        if (!Number.isInteger(v) || v < 0 || v >= order || pos[v] !== -1) {
          throw new RangeError(`partition cells must be disjoint sets of vertices 0..${order - 1}; bad vertex ${v}`);
        }
        lab[at] = v;
        pos[v] = at;
        cellStartAt[at] = start;
        at++;
      }
      cellEnd[start] = at;
      count++;
    }
    if (at !== order) throw new RangeError(`partition cells cover ${at} of ${order} vertices`);
    return new Partition(lab, pos, cellEnd, cellStartAt, count);
  }

  clone(): Partition {
    return new Partition(this.lab.slice(), this.pos.slice(), this.cellEnd.slice(), this.cellStartAt.slice(), this.cells);
  }

  cellStarts(): number[] {
    const starts: number[] = [];
    for (let s = 0; s < this.lab.length; s = this.cellEnd[s]!) starts.push(s);
    return starts;
  }

  /** Split {w} off the front of its cell; returns the singleton's position (its cell start). */
  individualize(w: number): number {
    const p = this.pos[w]!;
    const start = this.cellStartAt[p]!;
    const end = this.cellEnd[start]!;
    const displaced = this.lab[start]!;
    this.lab[start] = w;
    this.pos[w] = start;
    this.lab[p] = displaced;
    this.pos[displaced] = p;
    this.cellEnd[start] = start + 1;
    this.cellEnd[start + 1] = end;
    for (let i = start + 1; i < end; i++) this.cellStartAt[i] = start + 1;
    this.cells++;
    return start;
  }
}

/** Scratch arrays reused by every refinement of one graph (they are all-zero between calls). */
interface Scratch {
  count: Int32Array;
  inQueue: Uint8Array;
  cellTouched: Uint8Array;
}

function newScratch(order: number): Scratch {
  return { count: new Int32Array(order), inQueue: new Uint8Array(order), cellTouched: new Uint8Array(order) };
}

/** Order-sensitive 32-bit mixing; a collision only weakens pruning, never correctness. */
function mix(hash: number, value: number): number {
  return Math.imul(hash ^ (value + 0x9e3779b9 + (hash << 6) + (hash >>> 2)), 0x01000193) >>> 0;
}

/**
 * Refine `p` in place to the coarsest equitable partition finer than it, given that every cell not
 * in `splitters` is already known to be a valid splitter (for instance because `p` was equitable
 * before one of its cells split). Hopcroft's "all fragments but the largest" rule keeps it near
 * O(m log n). Returns the trace of the refinement.
 *
 * Label-invariance: the queue holds cell start positions and is FIFO, fragments are ordered by
 * neighbour count, touched cells are processed by position, and the "largest fragment" tie breaks
 * by position. None of these looks at a vertex name.
 */
function refine(p: Partition, csr: Csr, splitters: readonly number[], scratch: Scratch, seed: number): Trace {
  const n = csr.order;
  const { lab, pos, cellEnd, cellStartAt } = p;
  const { count, inQueue, cellTouched } = scratch;
  const queue: number[] = [];
  for (const s of splitters) {
    if (inQueue[s] === 0) {
      inQueue[s] = 1;
      queue.push(s);
    }
  }
  let hash = mix(0x811c9dc5, seed);
  const touchedVertices: number[] = [];
  const touchedCells: number[] = [];
  let head = 0;
  while (head < queue.length && p.cells < n) {
    const w = queue[head++]!;
    inQueue[w] = 0;
    const wEnd = cellEnd[w]!;
    hash = mix(mix(hash, w), wEnd - w);
    for (let i = w; i < wEnd; i++) {
      const u = lab[i]!;
      for (let k = csr.offsets[u]!, kEnd = csr.offsets[u + 1]!; k < kEnd; k++) {
        const v = csr.targets[k]!;
        if (count[v]!++ === 0) touchedVertices.push(v);
        const c = cellStartAt[pos[v]!]!;
        if (cellTouched[c] === 0) {
          cellTouched[c] = 1;
          touchedCells.push(c);
        }
      }
    }
    touchedCells.sort((a, b) => a - b);
    for (const c of touchedCells) {
      cellTouched[c] = 0;
      const end = cellEnd[c]!;
      let min = count[lab[c]!]!;
      let max = min;
      for (let i = c + 1; i < end; i++) {
        const k = count[lab[i]!]!;
        if (k < min) min = k;
        if (k > max) max = k;
      }
      if (min === max) {
        // No split, but the (uniform) count is still invariant information worth fingerprinting.
        hash = mix(mix(hash, c), min);
        continue;
      }
      const members = Array.from(lab.subarray(c, end)).sort((a, b) => count[a]! - count[b]!);
      const fragmentStarts: number[] = [];
      for (let i = 0; i < members.length; i++) {
        const v = members[i]!;
        lab[c + i] = v;
        pos[v] = c + i;
        if (i === 0 || count[v] !== count[members[i - 1]!]) fragmentStarts.push(c + i);
      }
      hash = mix(hash, c);
      let largest = c;
      let largestSize = 0;
      for (let f = 0; f < fragmentStarts.length; f++) {
        const fs = fragmentStarts[f]!;
        const fe = fragmentStarts[f + 1] ?? end;
        cellEnd[fs] = fe;
        for (let i = fs; i < fe; i++) cellStartAt[i] = fs;
        hash = mix(mix(hash, fe - fs), count[lab[fs]!]!);
        if (fe - fs > largestSize) {
          largest = fs;
          largestSize = fe - fs;
        }
      }
      p.cells += fragmentStarts.length - 1;
      // A cell still waiting in the queue must have all its fragments examined (its first fragment
      // keeps its start, so it is already there); otherwise the largest fragment is implied by the rest.
      const wasQueued = inQueue[c] === 1;
      for (const fs of fragmentStarts) {
        if (inQueue[fs] === 1) continue;
        if (!wasQueued && fs === largest) continue;
        inQueue[fs] = 1;
        queue.push(fs);
      }
    }
    touchedCells.length = 0;
    for (const v of touchedVertices) count[v] = 0;
    touchedVertices.length = 0;
  }
  // Leave the scratch clean when stopping early because the partition became discrete.
  for (let i = head; i < queue.length; i++) inQueue[queue[i]!] = 0;
  return { cells: p.cells, hash: mix(hash, p.cells) };
}

/**
 * The coarsest equitable partition finer than the ordered partition `cells` (default: one cell
 * holding every vertex): each cell is split by the number of neighbours its vertices have in each
 * other cell until every vertex of a cell has the same number of neighbours in every cell.
 *
 * The result is label-invariant: for any permutation σ of the vertices,
 * `refineEquitable(σ(G), σ(cells))` equals σ applied cell by cell to `refineEquitable(G, cells)`.
 * Cells are returned in their (invariant) order, each cell's vertices ascending.
 *
 * @throws RangeError if `cells` is not a partition of 0..order-1 or the graph is not simple.
 */
export function refineEquitable(graph: IndexedGraph, cells?: readonly (readonly number[])[]): number[][] {
  const csr = buildCsr(graph);
  const n = graph.order;
  const p = Partition.fromCells(n, cells ?? [Array.from({ length: n }, (_, v) => v)]);
  refine(p, csr, p.cellStarts(), newScratch(n), 0);
  return p.cellStarts().map((s) => Array.from(p.lab.subarray(s, p.cellEnd[s])).sort((a, b) => a - b));
}

/**
 * The target cell of a non-discrete equitable partition: the non-singleton cell joined
 * non-trivially (some but not all of a cell's vertices adjacent) to the most cells, the first such
 * by position. Choosing by joins rather than position alone keeps regular graphs' trees small;
 * choosing by invariants only keeps the tree label-invariant.
 */
function targetCell(p: Partition, csr: Csr, joins: Int32Array): number {
  const n = csr.order;
  let best = -1;
  let bestJoins = -1;
  for (let s = 0; s < n; s = p.cellEnd[s]!) {
    if (p.cellEnd[s]! - s === 1) continue;
    // Equitable: one representative's neighbour counts are the whole cell's.
    const x = p.lab[s]!;
    const touched: number[] = [];
    for (let k = csr.offsets[x]!, kEnd = csr.offsets[x + 1]!; k < kEnd; k++) {
      const c = p.cellStartAt[p.pos[csr.targets[k]!]!]!;
      if (joins[c]!++ === 0) touched.push(c);
    }
    let nonTrivial = 0;
    for (const c of touched) {
      if (joins[c]! < p.cellEnd[c]! - c) nonTrivial++;
      joins[c] = 0;
    }
    if (nonTrivial > bestJoins) {
      best = s;
      bestJoins = nonTrivial;
    }
  }
  return best;
}

/** A discrete partition reached by the search, with what is needed to compare it with later leaves. */
interface Leaf {
  /** Individualized vertices along its path. */
  seq: number[];
  /** Traces of the nodes along its path, root first. */
  traces: Trace[];
  /** position -> vertex */
  lab: Int32Array;
  /** Relabelled adjacency matrix, row by row, each row as ceil(n/32) 32-bit words. */
  graph: Uint32Array;
}

function compareTrace(a: Trace, b: Trace): number {
  if (a.cells !== b.cells) return a.cells < b.cells ? -1 : 1;
  if (a.hash !== b.hash) return a.hash < b.hash ? -1 : 1;
  return 0;
}

function compareWords(a: Uint32Array, b: Uint32Array): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The relabelled adjacency matrix of a leaf: row i, bit j set iff lab[i] ~ lab[j]. */
function leafGraph(p: Partition, csr: Csr): Uint32Array {
  const n = csr.order;
  const words = (n + 31) >>> 5;
  const rows = new Uint32Array(n * words);
  for (let i = 0; i < n; i++) {
    const v = p.lab[i]!;
    for (let k = csr.offsets[v]!, kEnd = csr.offsets[v + 1]!; k < kEnd; k++) {
      const j = p.pos[csr.targets[k]!]!;
      const at = i * words + (j >>> 5);
      rows[at] = (rows[at]! | (1 << (j & 31))) >>> 0;
    }
  }
  return rows;
}

function commonPrefix(a: readonly number[], b: readonly number[], length: number): number {
  let d = 0;
  while (d < length && a[d] === b[d]) d++;
  return d;
}

/** Union-find over vertices, for orbits of a set of permutations. */
class Orbits {
  private readonly parent: Int32Array;
  constructor(order: number) {
    this.parent = new Int32Array(order);
    for (let v = 0; v < order; v++) this.parent[v] = v;
  }
  find(v: number): number {
    let r = v;
    while (this.parent[r] !== r) r = this.parent[r]!;
    while (this.parent[v] !== r) {
      const next = this.parent[v]!;
      this.parent[v] = r;
      v = next;
    }
    return r;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

/** Result of {@link canonicalLabelling}. */
export interface CanonicalLabelling {
  /** `labelling[v]` is the new label of vertex v: a bijection onto 0..order-1. */
  labelling: number[];
  /** The graph relabelled by `labelling`, edges [u, v] with u < v sorted ascending. */
  canonical: IndexedGraph;
  /**
   * |Aut(G)| when `exhaustive`; otherwise the order of a subgroup (a pointwise stabilizer of a
   * prefix of the first path), so a divisor of |Aut(G)| and a lower bound on it.
   */
  automorphism_group_order: bigint;
  /**
   * Automorphisms found, each as an image array (`g[v]` is the image of v). When `exhaustive`
   * they generate the full automorphism group; none is the identity.
   */
  generators: number[][];
  /**
   * True when the search finished. When false, `labelling` is a bijection but NOT canonical
   * (isomorphic inputs may get different `canonical` graphs) and the group order is only a divisor.
   */
  exhaustive: boolean;
  /** Search tree nodes visited (root and leaves included), for diagnostics. */
  nodes: number;
}

/** How often (in nodes) the control is polled; each node costs a refinement, so this is frequent enough. */
const POLL_INTERVAL = 256;

/** Returned up the recursion when the control asked to stop: below every level, so every frame unwinds. */
const STOPPED = -1;

/**
 * Canonical labelling and automorphism group of a simple undirected graph by
 * individualization-refinement (McKay's scheme, as in nauty).
 *
 * The canonical leaf is the one with the greatest key (refinement traces along its path, then the
 * relabelled adjacency matrix as a bit string); `canonical` is the input relabelled by that leaf, so
 * two graphs are isomorphic exactly when their `canonical` graphs are equal — provided both results
 * are `exhaustive` and come from the same version of this code (the key depends on implementation
 * details such as the trace hash and the target-cell rule, so canonical forms are not comparable
 * with nauty's or across versions).
 *
 * `control.shouldStop()` is polled at the root and then every {@link POLL_INTERVAL} nodes; when it
 * returns true the search ends with `exhaustive: false`, the best leaf so far (or the root's
 * equitable ordering if no leaf was reached) as the labelling, and the order of the stabilizer
 * proven so far as the group order.
 *
 * @throws RangeError if the graph is not a simple graph on 0..order-1 (edges u < v, no duplicates).
 */
export function canonicalLabelling(graph: IndexedGraph, control: SearchControl): CanonicalLabelling {
  const csr = buildCsr(graph);
  const n = graph.order;
  const scratch = newScratch(n);
  const joins = new Int32Array(n);

  const root = Partition.fromCells(n, n === 0 ? [] : [Array.from({ length: n }, (_, v) => v)]);
  const rootTrace = refine(root, csr, root.cellStarts(), scratch, 0);
  let nodes = 1;
  let stopped = control.shouldStop();

  /** The first leaf (defines the first path) and the greatest leaf so far. */
  const leaves: { first: Leaf | null; best: Leaf | null } = { first: null, best: null };
  const generators: Int32Array[] = [];
  /** Individualized vertices and traces of the current path, indexed by level. */
  const seq: number[] = [];
  const traces: Trace[] = [rootTrace];
  /** orbitSize[k]: orbit of first.seq[k] under the stabilizer of first.seq[0..k), once level k is finished. */
  const orbitSize: number[] = [];
  /** Shallowest first-path level whose subtree is finished (levels >= it are exact). */
  let finishedFrom = Number.POSITIVE_INFINITY;

  /** Orbits of the group generated by the found automorphisms that fix prefix[0..length) pointwise. */
  const orbitsFixing = (prefix: readonly number[], length: number): Orbits => {
    const orbits = new Orbits(n);
    for (const g of generators) {
      let fixes = true;
      for (let i = 0; i < length && fixes; i++) fixes = g[prefix[i]!] === prefix[i];
      if (!fixes) continue;
      for (let v = 0; v < n; v++) orbits.union(v, g[v]!);
    }
    return orbits;
  };

  /** Record the automorphism mapping leaf `from` onto the current leaf (equal relabelled graphs). */
  const recordAutomorphism = (from: Leaf, lab: Int32Array): void => {
    const g = new Int32Array(n);
    let identity = true;
    for (let i = 0; i < n; i++) {
      g[from.lab[i]!] = lab[i]!;
      if (from.lab[i] !== lab[i]) identity = false;
    }
    if (!identity) generators.push(g);
  };

  /**
   * Sign of the current path's trace prefix (levels 1..level) against the best leaf's. Computed
   * afresh at every node rather than inherited from the parent, because the best leaf changes while
   * a subtree is being explored.
   */
  const compareWithBest = (best: Leaf, level: number): number => {
    for (let i = 1; i <= level; i++) {
      const theirs = best.traces[i];
      // Equal prefixes imply equal cell counts, so the best path is at least as deep; defensive only.
      if (theirs === undefined) return 1;
      const c = compareTrace(traces[i]!, theirs);
      if (c !== 0) return c;
    }
    return 0;
  };

  /**
   * Handle a leaf at `level`. Returns the level whose child loop should continue: `level - 1` in
   * the ordinary case; the common ancestor's level when an automorphism proves the rest of that
   * ancestor's current child subtree equivalent to one already explored.
   */
  const processLeaf = (p: Partition, level: number, eqFirst: boolean): number => {
    const leaf: Leaf = { seq: seq.slice(0, level), traces: traces.slice(0, level + 1), lab: p.lab.slice(), graph: leafGraph(p, csr) };
    const { first, best } = leaves;
    if (first === null || best === null) {
      leaves.first = leaf;
      leaves.best = leaf;
      finishedFrom = level;
      return level - 1;
    }
    if (eqFirst && compareWords(leaf.graph, first.graph) === 0) {
      recordAutomorphism(first, leaf.lab);
      return commonPrefix(seq, first.seq, level);
    }
    const cmpBest = compareWithBest(best, level);
    if (cmpBest > 0) {
      leaves.best = leaf;
      return level - 1;
    }
    if (cmpBest === 0) {
      const c = compareWords(leaf.graph, best.graph);
      if (c === 0) {
        recordAutomorphism(best, leaf.lab);
        return commonPrefix(seq, best.seq, level);
      }
      if (c > 0) leaves.best = leaf;
    }
    return level - 1;
  };

  /**
   * Explore the children of a non-discrete equitable node at `level`. `eqFirst`: its trace prefix
   * equals the first leaf's; `onFirst`: it lies on the first path. Returns as {@link processLeaf}
   * does, or STOPPED.
   */
  const explore = (p: Partition, level: number, eqFirst: boolean, onFirst: boolean): number => {
    const target = targetCell(p, csr, joins);
    // Child order may depend on names: it changes only which leaf is met first, never the maximum.
    const candidates = Array.from(p.lab.subarray(target, p.cellEnd[target])).sort((a, b) => a - b);
    const explored: number[] = [];
    let orbits: Orbits | null = null;
    let orbitsGenerators = -1;
    for (const w of candidates) {
      if (explored.length > 0 && generators.length > 0) {
        if (orbitsGenerators !== generators.length) {
          orbits = orbitsFixing(seq, level);
          orbitsGenerators = generators.length;
        }
        const o = orbits;
        if (o !== null && explored.some((x) => o.find(x) === o.find(w))) continue;
      }
      explored.push(w);
      seq[level] = w;
      const child = p.clone();
      const singleton = child.individualize(w);
      const trace = refine(child, csr, [singleton], scratch, singleton);
      traces[level + 1] = trace;
      nodes++;
      if (nodes % POLL_INTERVAL === 1 && control.shouldStop()) {
        stopped = true;
        return STOPPED;
      }
      const { first: firstLeaf, best: bestLeaf } = leaves;
      const firstTrace = firstLeaf?.traces[level + 1];
      const childEqFirst = firstLeaf === null || (eqFirst && firstTrace !== undefined && compareTrace(trace, firstTrace) === 0);
      // Below the best and not a possible image of the first leaf: no leaf here can matter.
      if (!childEqFirst && bestLeaf !== null && compareWithBest(bestLeaf, level + 1) < 0) continue;
      const resume =
        child.cells === n
          ? processLeaf(child, level + 1, childEqFirst)
          : explore(child, level + 1, childEqFirst, onFirst && firstLeaf === null);
      if (resume < level) return resume;
    }
    const firstLeaf = leaves.first;
    if (onFirst && firstLeaf !== null) {
      const v = firstLeaf.seq[level]!;
      const o = orbitsFixing(firstLeaf.seq, level);
      const r = o.find(v);
      let size = 0;
      for (let u = 0; u < n; u++) if (o.find(u) === r) size++;
      orbitSize[level] = size;
      finishedFrom = level;
    }
    return level - 1;
  };

  if (!stopped) {
    if (root.cells === n) processLeaf(root, 0, true);
    else explore(root, 0, true, true);
  }

  const chosen = leaves.best;
  const lab = chosen === null ? root.lab : chosen.lab;
  const labelling = new Array<number>(n);
  for (let i = 0; i < n; i++) labelling[lab[i]!] = i;
  const edges = graph.edges.map(([u, v]): [number, number] => {
    const a = labelling[u]!;
    const b = labelling[v]!;
    return a < b ? [a, b] : [b, a];
  });
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);

  let order = 1n;
  for (let k = finishedFrom; k < orbitSize.length; k++) order *= BigInt(orbitSize[k] ?? 1);

  return {
    labelling,
    canonical: { order: n, edges },
    automorphism_group_order: order,
    generators: generators.map((g) => Array.from(g)),
    exhaustive: !stopped,
    nodes,
  };
}

/** Result of {@link automorphismGroupOrder}. */
export interface AutomorphismGroupOrder {
  /** |Aut(G)| when `exhaustive`, else a divisor of it (the order of a subgroup proven so far). */
  order: bigint;
  exhaustive: boolean;
  nodes: number;
}

/** |Aut(G)| of a simple undirected graph: {@link canonicalLabelling} without the labelling. */
export function automorphismGroupOrder(graph: IndexedGraph, control: SearchControl): AutomorphismGroupOrder {
  const result = canonicalLabelling(graph, control);
  return { order: result.automorphism_group_order, exhaustive: result.exhaustive, nodes: result.nodes };
}
