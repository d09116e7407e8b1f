/**
 * Canonical labelling and automorphism generators of small graphs held as bit rows (vertex x's
 * neighbours are the bits of rows[x]; at most 30 vertices), for the TypeScript enumeration's
 * inner loop. Same scheme as invariants/automorphisms.ts (McKay's individualization-refinement),
 * cut down to what canonical augmentation needs and written to allocate nothing per call but
 * the generators it returns:
 *
 * - Refinement to the coarsest equitable ordered partition, by counting neighbours in a
 *   splitter cell with one popcount per vertex. Splitters are taken in order of their first
 *   position, a split cell's fragments are ordered by neighbour count, and a singleton never
 *   moves: every decision depends on the ordered cells, never on vertex names.
 * - Depth-first search tree: individualize each vertex of the first non-singleton cell and
 *   refine again; a leaf is a discrete partition, i.e. an ordering of the vertices, and its
 *   certificate is the adjacency matrix in that order. The canonical leaf is the one with the
 *   greatest certificate.
 * - Pruning only by automorphisms, so the canonical leaf is never lost: a leaf whose
 *   certificate equals the first leaf's (or the best leaf's) gives an automorphism, and the
 *   rest of the subtree where the two paths part is its image, so the search returns there;
 *   at the nodes of the first path, children in one orbit of the automorphisms found so far
 *   (which all fix the path's individualized vertices) are explored once.
 *
 * Every automorphism maps the first leaf to a leaf that is either visited (and then compared
 * with the first, giving that automorphism) or the image of a visited one under automorphisms
 * already found, so the automorphisms found generate the whole group; their orbits are
 * available through {@link RowsLabeller.sameOrbit} after a labelling.
 */

const NORMAL = 1 << 30;
/** Leaves visited between polls of the stop hook. */
const LEAF_POLL = 4096;

function popcount(x: number): number {
  let y = x - ((x >>> 1) & 0x55555555);
  y = (y & 0x33333333) + ((y >>> 2) & 0x33333333);
  return (Math.imul((y + (y >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Reusable canonical labeller for graphs of at most `maxOrder` vertices. Not re-entrant. */
export class RowsLabeller {
  private readonly maxOrder: number;
  /** Per search depth: the ordering of the vertices (position → vertex). */
  private readonly labs: Int32Array[];
  /** Per search depth: for a position that starts a cell, one past the cell's last position. */
  private readonly ends: Int32Array[];
  /** Cells of the partition at each depth. */
  private readonly cellCounts: Int32Array;
  /** Vertex individualized at each depth of the current path. */
  private readonly path: Int32Array;
  private readonly firstPath: Int32Array;
  private readonly bestPath: Int32Array;
  private readonly firstLab: Int32Array;
  private readonly bestLab: Int32Array;
  private readonly firstCert: Int32Array;
  private readonly bestCert: Int32Array;
  private readonly cert: Int32Array;
  private readonly position: Int32Array;
  private readonly counts: Int32Array;
  private readonly active: Uint8Array;
  private readonly orbitParent: Int32Array;
  /** The canonical position of each vertex after the last labelling. */
  readonly labelling: Int32Array;
  private rows: ArrayLike<number> = new Int32Array(0);
  private n = 0;
  private haveFirst = false;
  private leaves = 0;
  private stopped = false;
  private shouldStop: () => boolean = () => false;
  private generators: Int32Array[] = [];
  /** Labellings done (diagnostics). */
  labellings = 0;

  constructor(maxOrder: number) {
    if (!Number.isInteger(maxOrder) || maxOrder < 0 || maxOrder > 30) throw new RangeError(`RowsLabeller takes at most 30 vertices, not ${maxOrder}`);
    this.maxOrder = maxOrder;
    const size = Math.max(1, maxOrder);
    this.labs = Array.from({ length: size + 1 }, () => new Int32Array(size));
    this.ends = Array.from({ length: size + 1 }, () => new Int32Array(size + 1));
    this.cellCounts = new Int32Array(size + 1);
    this.path = new Int32Array(size + 1);
    this.firstPath = new Int32Array(size + 1);
    this.bestPath = new Int32Array(size + 1);
    this.firstLab = new Int32Array(size);
    this.bestLab = new Int32Array(size);
    this.firstCert = new Int32Array(size);
    this.bestCert = new Int32Array(size);
    this.cert = new Int32Array(size);
    this.position = new Int32Array(size);
    this.counts = new Int32Array(size);
    this.active = new Uint8Array(size + 1);
    this.orbitParent = new Int32Array(size);
    this.labelling = new Int32Array(size);
  }

  /**
   * Canonically label the graph on the first n vertices of `rows`: afterwards
   * {@link labelling} holds each vertex's canonical position and {@link sameOrbit} answers for
   * Aut(G). Returns generators of Aut(G), or null when `shouldStop` said stop (nothing then holds).
   */
  label(rows: ArrayLike<number>, n: number, shouldStop?: () => boolean): Int32Array[] | null {
    if (n > this.maxOrder) throw new RangeError(`this labeller takes at most ${this.maxOrder} vertices, not ${n}`);
    this.labellings++;
    this.rows = rows;
    this.n = n;
    this.haveFirst = false;
    this.leaves = 0;
    this.stopped = false;
    this.shouldStop = shouldStop ?? (() => false);
    this.generators = [];
    for (let x = 0; x < n; x++) this.orbitParent[x] = x;
    if (n === 0) return this.generators;
    const lab = this.labs[0]!;
    const end = this.ends[0]!;
    for (let x = 0; x < n; x++) lab[x] = x;
    end[0] = n;
    this.cellCounts[0] = 1;
    this.active.fill(0, 0, n);
    this.active[0] = 1;
    this.refine(0);
    this.search(0, true);
    if (this.stopped) return null;
    for (let i = 0; i < n; i++) this.labelling[this.bestLab[i]!] = i;
    return this.generators;
  }

  /**
   * The last cell of the coarsest equitable ordered partition that refines (the vertices
   * outside `top`, then those in `top`), as bits: an isomorphism invariant of (G, top), so the
   * canonical augmentation can often decide without a labelling. Clobbers the state of the
   * last labelling. `top` must be non-empty.
   */
  lastCell(rows: ArrayLike<number>, n: number, top: number): number {
    if (n > this.maxOrder) throw new RangeError(`this labeller takes at most ${this.maxOrder} vertices, not ${n}`);
    this.rows = rows;
    this.n = n;
    const lab = this.labs[0]!;
    const end = this.ends[0]!;
    let low = 0;
    let high = n;
    for (let x = 0; x < n; x++) {
      if (((top >>> x) & 1) === 1) lab[--high] = x;
      else lab[low++] = x;
    }
    this.active.fill(0, 0, n);
    this.active[0] = 1;
    if (high > 0) {
      end[0] = high;
      this.active[high] = 1;
      this.cellCounts[0] = 2;
    } else {
      this.cellCounts[0] = 1;
    }
    end[high] = n;
    this.refine(0);
    let s = 0;
    while (end[s]! < n) s = end[s]!;
    let cell = 0;
    for (let i = s; i < n; i++) cell |= 1 << lab[i]!;
    return cell;
  }

  /** Whether u and v lie in one orbit of the group of the last labelling. */
  sameOrbit(u: number, v: number): boolean {
    return this.find(u) === this.find(v);
  }

  private find(x: number): number {
    const parent = this.orbitParent;
    let r = x;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[x] !== r) {
      const next = parent[x]!;
      parent[x] = r;
      x = next;
    }
    return r;
  }

  /** Refine the partition at `depth` to equitable, starting from the splitters marked active. */
  private refine(depth: number): void {
    const n = this.n;
    const rows = this.rows;
    const lab = this.labs[depth]!;
    const end = this.ends[depth]!;
    const active = this.active;
    const counts = this.counts;
    let cells = this.cellCounts[depth]!;
    for (;;) {
      if (cells === n) break;
      let s = 0;
      while (s < n && active[s] === 0) s = end[s]!;
      if (s >= n) break;
      active[s] = 0;
      let splitter = 0;
      for (let i = s, e = end[s]!; i < e; i++) splitter |= 1 << lab[i]!;
      for (let t = 0; t < n; ) {
        const e = end[t]!;
        if (e - t > 1) {
          const first = popcount(rows[lab[t]!]! & splitter);
          counts[t] = first;
          let same = true;
          for (let i = t + 1; i < e; i++) {
            const c = popcount(rows[lab[i]!]! & splitter);
            counts[i] = c;
            if (c !== first) same = false;
          }
          if (!same) {
            // Insertion sort of the cell by count (cells are small), then cut it into fragments.
            for (let i = t + 1; i < e; i++) {
              const c = counts[i]!;
              const v = lab[i]!;
              let j = i - 1;
              while (j >= t && counts[j]! > c) {
                counts[j + 1] = counts[j]!;
                lab[j + 1] = lab[j]!;
                j--;
              }
              counts[j + 1] = c;
              lab[j + 1] = v;
            }
            // Every fragment becomes a splitter, except the (first) largest when the cell was
            // not one already: splitting by it tells nothing the others and the rest do not.
            const wasActive = active[t] === 1;
            let largest = t;
            let largestSize = 0;
            let start = t;
            for (let i = t + 1; i <= e; i++) {
              if (i === e || counts[i] !== counts[start]) {
                end[start] = i;
                active[start] = 1;
                if (i - start > largestSize) {
                  largest = start;
                  largestSize = i - start;
                }
                if (start !== t) cells++;
                start = i;
              }
            }
            if (!wasActive) active[largest] = 0;
          }
        }
        t = e;
      }
    }
    this.cellCounts[depth] = cells;
  }

  /** Explore the node at `depth`; returns the depth to resume at, or NORMAL. */
  private search(depth: number, onFirst: boolean): number {
    const n = this.n;
    if (this.cellCounts[depth] === n) return this.leaf(depth);
    const lab = this.labs[depth]!;
    const end = this.ends[depth]!;
    let s = 0;
    while (end[s]! - s === 1) s = end[s]!;
    const e = end[s]!;
    const childLab = this.labs[depth + 1]!;
    const childEnd = this.ends[depth + 1]!;
    for (let i = s; i < e; i++) {
      const w = lab[i]!;
      if (onFirst && i > s) {
        // Children in one orbit of the automorphisms found so far (which fix this path) are equivalent.
        let seen = false;
        const root = this.find(w);
        for (let j = s; j < i && !seen; j++) if (this.find(lab[j]!) === root) seen = true;
        if (seen) continue;
      }
      childLab.set(lab.subarray(0, n));
      childEnd.set(end.subarray(0, n));
      childLab[i] = childLab[s]!;
      childLab[s] = w;
      childEnd[s] = s + 1;
      childEnd[s + 1] = e;
      this.cellCounts[depth + 1] = this.cellCounts[depth]! + 1;
      this.active.fill(0, 0, n);
      this.active[s] = 1;
      this.refine(depth + 1);
      this.path[depth] = w;
      const resume = this.search(depth + 1, onFirst && i === s);
      if (this.stopped) return 0;
      if (resume < depth) return resume;
    }
    return NORMAL;
  }

  /** Compare the certificate of the leaf at `depth` with the first and best leaves. */
  private leaf(depth: number): number {
    if (++this.leaves % LEAF_POLL === 0 && this.shouldStop()) {
      this.stopped = true;
      return 0;
    }
    const n = this.n;
    const lab = this.labs[depth]!;
    const position = this.position;
    const cert = this.cert;
    const rows = this.rows;
    for (let i = 0; i < n; i++) position[lab[i]!] = i;
    for (let i = 0; i < n; i++) {
      let row = 0;
      for (let b = rows[lab[i]!]!; b !== 0; b &= b - 1) row |= 1 << position[31 - Math.clz32(b & -b)]!;
      cert[i] = row;
    }
    if (!this.haveFirst) {
      this.haveFirst = true;
      this.firstLab.set(lab.subarray(0, n));
      this.bestLab.set(lab.subarray(0, n));
      this.firstCert.set(cert.subarray(0, n));
      this.bestCert.set(cert.subarray(0, n));
      this.firstPath.set(this.path.subarray(0, depth));
      this.bestPath.set(this.path.subarray(0, depth));
      return NORMAL;
    }
    if (compare(cert, this.firstCert, n) === 0) {
      this.automorphism(this.firstLab, lab);
      return divergence(this.path, this.firstPath);
    }
    const order = compare(cert, this.bestCert, n);
    if (order === 0) {
      this.automorphism(this.bestLab, lab);
      return divergence(this.path, this.bestPath);
    }
    if (order > 0) {
      this.bestLab.set(lab.subarray(0, n));
      this.bestCert.set(cert.subarray(0, n));
      this.bestPath.set(this.path.subarray(0, depth));
    }
    return NORMAL;
  }

  /** Record the automorphism that maps the leaf `from` onto the leaf `to` (position by position). */
  private automorphism(from: Int32Array, to: Int32Array): void {
    const n = this.n;
    const g = new Int32Array(n);
    for (let i = 0; i < n; i++) g[from[i]!] = to[i]!;
    this.generators.push(g);
    for (let x = 0; x < n; x++) {
      const a = this.find(x);
      const b = this.find(g[x]!);
      if (a !== b) this.orbitParent[Math.max(a, b)] = Math.min(a, b);
    }
  }
}

function compare(a: Int32Array, b: Int32Array, n: number): number {
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x > y ? 1 : -1;
  }
  return 0;
}

/** The depth of the deepest common node of two search paths (the first index where they differ). */
function divergence(a: Int32Array, b: Int32Array): number {
  let d = 0;
  while (d < a.length && a[d] === b[d]) d++;
  return d;
}
