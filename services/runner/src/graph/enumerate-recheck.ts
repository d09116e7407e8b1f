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

/** Tests graph6 texts of one order against one set of filters. Reusable, not re-entrant. */
export class FastRecheck {
  readonly order: number;
  private readonly filters: EnumerationFilters;
  private readonly rows: Int32Array;
  private readonly length: number;
  /**
   * Decoding a data byte at once: byte j of the data touches the vertices touched[j·W …] (W =
   * {@link width}, −1 where unused), and its value b adds rowBits[(j·64 + b)·W + k] to the row
   * of the k-th of them (both ends of each of its edges).
   */
  private readonly touched: Int8Array;
  private readonly rowBits: Int32Array;
  private readonly width: number;
  private readonly degreesBounded: boolean;
  private readonly edgesBounded: boolean;
  private readonly structural: boolean;
  /** Bits of the last data byte that are padding (formats.txt pads with zeros). */
  private readonly paddingMask: number;

  /** @throws RangeError for an order above {@link FAST_RECHECK_MAX_ORDER}. */
  constructor(order: number, filters: EnumerationFilters) {
    if (!Number.isInteger(order) || order < 1 || order > FAST_RECHECK_MAX_ORDER) throw new RangeError(`the fast recheck takes orders 1..${FAST_RECHECK_MAX_ORDER}, not ${order}`);
    this.order = order;
    this.filters = filters;
    this.rows = new Int32Array(order);
    this.length = graph6Bytes(order);
    const bits = (this.length - 1) * 6;
    this.paddingMask = (1 << (bits - (order * (order - 1)) / 2)) - 1;
    const pairs: [number, number][] = [];
    for (let v = 1; v < order; v++) for (let u = 0; u < v; u++) pairs.push([u, v]);
    const dataBytes = this.length - 1;
    const vertices = Array.from({ length: dataBytes }, (_, j) => [...new Set(pairs.slice(6 * j, 6 * j + 6).flat())]);
    this.width = Math.max(1, ...vertices.map((list) => list.length));
    this.touched = new Int8Array(dataBytes * this.width).fill(-1);
    this.rowBits = new Int32Array(dataBytes * 64 * this.width);
    for (let j = 0; j < dataBytes; j++) {
      const list = vertices[j]!;
      for (const [k, x] of list.entries()) this.touched[j * this.width + k] = x;
      for (let b = 0; b < 64; b++) {
        for (let i = 0; i < 6; i++) {
          // The byte's first bit (value 32) is the pair of bit position 6j.
          const pair = pairs[6 * j + i];
          if (((b >> (5 - i)) & 1) === 0 || pair === undefined) continue;
          const [u, v] = pair;
          const at = (j * 64 + b) * this.width;
          this.rowBits[at + list.indexOf(u)] = this.rowBits[at + list.indexOf(u)]! | (1 << v);
          this.rowBits[at + list.indexOf(v)] = this.rowBits[at + list.indexOf(v)]! | (1 << u);
        }
      }
    }
    const f = filters;
    this.degreesBounded = f.min_degree > 0 || f.max_degree < order - 1;
    this.edgesBounded = f.min_edges > 0 || f.max_edges < (order * (order - 1)) / 2;
    this.structural = f.connected || f.biconnected || f.triangle_free || f.c4_free || f.bipartite;
  }

  /**
   * Whether bytes[start, end) are graph6 of a graph of this order that passes the filters.
   * false means "ask the reference recheck", which names the problem.
   */
  passes(bytes: Uint8Array, start: number, end: number): boolean {
    const n = this.order;
    if (end - start !== this.length || bytes[start] !== 63 + n) return false;
    if (!this.degreesBounded && !this.edgesBounded && !this.structural) {
      // Every graph of the order is in the class: only the text needs checking.
      for (let i = start + 1; i < end; i++) {
        const byte = bytes[i]!;
        if (byte < 63 || byte > 126) return false;
      }
      return end - start === 1 || ((bytes[end - 1]! - 63) & this.paddingMask) === 0;
    }
    if (end - start > 1 && ((bytes[end - 1]! - 63) & this.paddingMask) !== 0) return false;
    const rows = this.rows;
    const touched = this.touched;
    const rowBits = this.rowBits;
    const width = this.width;
    rows.fill(0);
    for (let i = start + 1, j = 0; i < end; i++, j++) {
      const byte = bytes[i]! - 63;
      if (byte < 0 || byte > 63) return false;
      if (byte === 0) continue;
      const from = (j * 64 + byte) * width;
      for (let k = 0; k < width; k++) {
        const x = touched[j * width + k]!;
        if (x < 0) break;
        rows[x] = rows[x]! | rowBits[from + k]!;
      }
    }
    let edges = 0;
    if (this.edgesBounded) for (let x = 0; x < n; x++) edges += bitCount(rows[x]!);
    edges /= 2;
    if (this.edgesBounded && (edges < this.filters.min_edges || edges > this.filters.max_edges)) return false;
    if (this.degreesBounded) {
      for (let x = 0; x < n; x++) {
        const d = bitCount(rows[x]!);
        if (d < this.filters.min_degree || d > this.filters.max_degree) return false;
      }
    }
    return !this.structural || this.rowsPass(rows);
  }

  /** The structural filters (connectivity, forbidden cycles, bipartiteness). */
  private rowsPass(rows: Int32Array): boolean {
    const n = this.order;
    const f = this.filters;
    const everyone = (1 << n) - 1;
    if ((f.connected || f.biconnected) && componentOf(rows, 0, 0) !== everyone) return false;
    if (f.biconnected) {
      if (n < 3) return false;
      for (let x = 0; x < n; x++) {
        const without = everyone & ~(1 << x);
        if (componentOf(rows, x === 0 ? 1 : 0, 1 << x) !== without) return false;
      }
    }
    if (f.triangle_free) {
      for (let a = 0; a < n; a++) {
        for (let b = rows[a]! & ~((2 << a) - 1); b !== 0; b &= b - 1) {
          if ((rows[a]! & rows[31 - Math.clz32(b & -b)]!) !== 0) return false;
        }
      }
    }
    if (f.c4_free) {
      for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) if (bitCount(rows[a]! & rows[b]!) >= 2) return false;
    }
    if (f.bipartite && !twoColourable(rows, everyone)) return false;
    return true;
  }
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
