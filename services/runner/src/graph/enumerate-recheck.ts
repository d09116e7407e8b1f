/**
 * The fast form of the plain recheck of a listing: decode each graph6 line straight from the
 * bytes a provider wrote into bit rows and test the order and the filters, at a few tens of
 * nanoseconds per graph, so that rechecking twelve million graphs keeps pace with geng.
 *
 * Shares nothing with geng or with the TypeScript enumeration (enumerate.kernel.ts): its own
 * decoder and its own tests of each filter. It answers only yes or no; a no is explained by
 * the reference recheck (decodeGraph6 and filterViolation in enumerate.ts), which also has the
 * last word, and the tests hold the two to the same answers on random graphs.
 */
import type { EnumerationFilters } from './enumerate.kernel.js';

/** Largest order decoded into bit rows here; larger graphs go to the reference recheck. */
export const FAST_RECHECK_MAX_ORDER = 30;

/** Bytes of a graph6 text (without its newline) for a graph on n ≤ 62 vertices. */
export function graph6Bytes(n: number): number {
  return 1 + Math.ceil((n * (n - 1)) / 12);
}

function bitCount(x: number): number {
  let y = x - ((x >>> 1) & 0x55555555);
  y = (y & 0x33333333) + ((y >>> 2) & 0x33333333);
  return (Math.imul((y + (y >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/**
 * A graph6 byte's 6 data bits in reverse order (its first bit, value 32, becomes bit 0), so
 * that bit k of the decoded stream is pair k; −1 for a byte outside 63..126.
 */
const REVERSED_DATA = (() => {
  const table = new Int32Array(256).fill(-1);
  for (let byte = 63; byte <= 126; byte++) {
    let reversed = 0;
    for (let i = 0; i < 6; i++) if (((byte - 63) & (32 >> i)) !== 0) reversed |= 1 << i;
    table[byte] = reversed;
  }
  return table;
})();

/**
 * Tests graph6 texts of one order against one set of filters. Reusable, not re-entrant.
 *
 * A graph is decoded into its lower rows first: lower[v] holds the neighbours u < v, which is
 * exactly graph6's column v (the pairs (0, v) … (v − 1, v), in order), so the rows are cut
 * from the data bits as they stream by, without a table per byte. The edge count, the
 * connectivity test and the triangle test need only those rows; the full rows (both ends of
 * each edge) are built only for the filters that need them (degrees, 2-connectivity, 4-cycles,
 * bipartite).
 */
export class FastRecheck {
  readonly order: number;
  private readonly filters: EnumerationFilters;
  private readonly lower: Int32Array;
  private readonly rows: Int32Array;
  private readonly length: number;
  private readonly everyone: number;
  private readonly degreesBounded: boolean;
  private readonly edgesBounded: boolean;
  /** Whether a filter other than connectivity, triangles and the edge count is asked for (they need the full rows). */
  private readonly needsRows: boolean;
  private readonly filtered: boolean;
  /** Bits of the last data byte that are padding (formats.txt pads with zeros). */
  private readonly paddingMask: number;

  /** @throws RangeError for an order above {@link FAST_RECHECK_MAX_ORDER}. */
  constructor(order: number, filters: EnumerationFilters) {
    if (!Number.isInteger(order) || order < 1 || order > FAST_RECHECK_MAX_ORDER) throw new RangeError(`the fast recheck takes orders 1..${FAST_RECHECK_MAX_ORDER}, not ${order}`);
    this.order = order;
    this.filters = filters;
    this.length = graph6Bytes(order);
    const pairCount = (order * (order - 1)) / 2;
    this.paddingMask = (1 << ((this.length - 1) * 6 - pairCount)) - 1;
    this.everyone = (1 << order) - 1;
    this.lower = new Int32Array(order);
    this.rows = new Int32Array(order);
    const f = filters;
    this.degreesBounded = f.min_degree > 0 || f.max_degree < order - 1;
    this.edgesBounded = f.min_edges > 0 || f.max_edges < pairCount;
    this.needsRows = this.degreesBounded || f.biconnected || f.c4_free || f.bipartite;
    this.filtered = this.needsRows || this.edgesBounded || f.connected || f.triangle_free;
  }

  /**
   * Whether bytes[start, end) are graph6 of a graph of this order that passes the filters.
   * false means "ask the reference recheck", which names the problem.
   */
  passes(bytes: Uint8Array, start: number, end: number): boolean {
    const n = this.order;
    if (end - start !== this.length || bytes[start] !== 63 + n) return false;
    if (!this.filtered) {
      // Every graph of the order is in the class: only the text needs checking.
      for (let i = start + 1; i < end; i++) {
        const byte = bytes[i]!;
        if (byte < 63 || byte > 126) return false;
      }
      return end - start === 1 || ((bytes[end - 1]! - 63) & this.paddingMask) === 0;
    }
    const lower = this.lower;
    // `pending` holds the `left` data bits read but not yet cut into a row (bit 0 first).
    let pending = 0;
    let left = 0;
    let at = start + 1;
    for (let v = 1; v < n; v++) {
      if (left >= v) {
        lower[v] = pending & ((1 << v) - 1);
        pending >>>= v;
        left -= v;
        continue;
      }
      let column = pending;
      let got = left;
      let data = 0;
      while (got < v) {
        data = REVERSED_DATA[bytes[at++]!]!;
        if (data < 0) return false;
        // Bits shifted past bit 31 belong to later rows; they are taken from `data` below.
        column |= data << got;
        got += 6;
      }
      lower[v] = column & ((1 << v) - 1);
      left = got - v;
      pending = data >>> (6 - left);
    }
    // What is left is the padding, which must be zero.
    if (pending !== 0) return false;
    const f = this.filters;
    if (this.edgesBounded) {
      let edges = 0;
      for (let v = 1; v < n; v++) edges += bitCount(lower[v]!);
      if (edges < f.min_edges || edges > f.max_edges) return false;
    }
    if ((f.connected || f.biconnected) && !lowerConnected(lower, n, this.everyone)) return false;
    if (f.triangle_free && lowerHasTriangle(lower, n)) return false;
    return !this.needsRows || this.rowsPass(this.fullRows());
  }

/** Both ends of each edge: rows[x] holds every neighbour of x. */
  private fullRows(): Int32Array {
    const n = this.order;
    const rows = this.rows;
    const lower = this.lower;
    rows.set(lower);
    for (let v = 1; v < n; v++) {
      const bit = 1 << v;
      for (let b = lower[v]!; b !== 0; b &= b - 1) {
        const u = 31 - Math.clz32(b & -b);
        rows[u] = rows[u]! | bit;
      }
    }
    return rows;
  }

  /** The filters that need the full rows (degrees, 2-connectivity, 4-cycles, bipartiteness). */
  private rowsPass(rows: Int32Array): boolean {
    const n = this.order;
    const f = this.filters;
    const everyone = this.everyone;
    if (this.degreesBounded) {
      for (let x = 0; x < n; x++) {
        const d = bitCount(rows[x]!);
        if (d < f.min_degree || d > f.max_degree) return false;
      }
    }
    if (f.biconnected) {
      if (n < 3) return false;
      for (let x = 0; x < n; x++) {
        const without = everyone & ~(1 << x);
        if (componentOf(rows, x === 0 ? 1 : 0, 1 << x) !== without) return false;
      }
    }
    if (f.c4_free) {
      for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) if (bitCount(rows[a]! & rows[b]!) >= 2) return false;
    }
    if (f.bipartite && !twoColourable(rows, everyone)) return false;
    return true;
  }
}

/**
 * Whether the graph with these lower rows is connected, without building the full rows: sweeps
 * over v = 1 … n − 1 grow the set reached from vertex 0, taking v's lower neighbours when v is
 * reached and v itself when one of its lower neighbours is. A sweep that adds nothing ends it.
 */
function lowerConnected(lower: Int32Array, n: number, everyone: number): boolean {
  let reached = 1;
  for (;;) {
    const before = reached;
    for (let v = 1; v < n; v++) {
      const below = lower[v]!;
      if ((reached & (1 << v)) !== 0 || (below & reached) !== 0) reached |= (1 << v) | below;
    }
    if (reached === everyone) return true;
    if (reached === before) return false;
  }
}

/**
 * Whether the graph with these lower rows has a triangle, without building the full rows: a
 * triangle u < v < w has u among the lower neighbours of both v and w, and v among those of w.
 */
function lowerHasTriangle(lower: Int32Array, n: number): boolean {
  for (let w = 2; w < n; w++) {
    const below = lower[w]!;
    for (let b = below; b !== 0; b &= b - 1) if ((lower[31 - Math.clz32(b & -b)]! & below) !== 0) return true;
  }
  return false;
}

/** The vertices reachable from `start` without entering `blocked`, as bits. */
function componentOf(rows: Int32Array, start: number, blocked: number): number {
  let reached = 1 << start;
  let layer = reached;
  while (layer !== 0) {
    let next = 0;
    for (let b = layer; b !== 0; b &= b - 1) next |= rows[31 - Math.clz32(b & -b)]!;
    layer = next & ~reached & ~blocked;
    reached |= layer;
  }
  return reached;
}

/** Breadth-first layers from each unreached vertex: the graph is bipartite iff no edge joins two vertices of one parity. */
function twoColourable(rows: Int32Array, everyone: number): boolean {
  let unreached = everyone;
  while (unreached !== 0) {
    let layer = unreached & -unreached;
    let even = 0;
    let odd = 0;
    let parity = 0;
    let reached = layer;
    while (layer !== 0) {
      if (parity === 0) even |= layer;
      else odd |= layer;
      let next = 0;
      for (let b = layer; b !== 0; b &= b - 1) next |= rows[31 - Math.clz32(b & -b)]!;
      layer = next & ~reached;
      reached |= layer;
      parity ^= 1;
    }
    for (let b = even; b !== 0; b &= b - 1) if ((rows[31 - Math.clz32(b & -b)]! & even) !== 0) return false;
    for (let b = odd; b !== 0; b &= b - 1) if ((rows[31 - Math.clz32(b & -b)]! & odd) !== 0) return false;
    unreached &= ~reached;
  }
  return true;
}
