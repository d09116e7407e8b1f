/**
 * Text and array forms of simple undirected graphs: graph6 and sparse6 exactly as Brendan
 * McKay's nauty `formats.txt` defines them, a plain edge list, an adjacency matrix and
 * adjacency lists.
 *
 * Every decoder is strict (it names the character, line or cell that breaks a rule, and the
 * rule) and returns a canonical {@link IndexedGraph}: edges [u, v] with u < v, sorted, no
 * repeats. Every encoder is deterministic, so equal graphs give byte-equal text; for graph6
 * and sparse6 the text is byte-identical to what nauty's own tools write.
 */
import { fileURLToPath } from 'node:url';
import { JacobianError, type ErrorCode, type JsonPath } from '../errors.js';
import { MAX_GRAPH_ORDER, type IndexedGraph } from './graph.js';

/** The graph text formats {@link detectGraphFormat} recognizes. */
export type GraphTextFormat = 'graph6' | 'sparse6';

const GRAPH6_HEADER = '>>graph6<<';
const SPARSE6_HEADER = '>>sparse6<<';
/** formats.txt: every data byte is 63 + x with 0 <= x <= 63. */
const BIAS = 63;
const MAX_BYTE = 126;
/** Largest order the four-byte N(n) form can carry: above it the second byte would be 126, which marks the eight-byte form. */
const N4_MAX = 258047;

// ---------------------------------------------------------------------------------------------
// Errors

/** Which rule of a format an input broke; carried in `data.rule` so callers can branch without parsing messages. */
export type GraphFormatRule =
  | 'NOT_TEXT'
  | 'HEADER'
  | 'EMPTY'
  | 'SINGLE_LINE'
  | 'BYTE_RANGE'
  | 'WRONG_FORMAT'
  | 'SIZE_TRUNCATED'
  | 'SIZE_NOT_SHORTEST'
  | 'ORDER_LIMIT'
  | 'LENGTH'
  | 'PADDING_NONZERO'
  | 'SPARSE6_PADDING'
  | 'VERTEX_RANGE'
  | 'LOOP'
  | 'MULTI_EDGE'
  | 'SYNTAX'
  | 'EDGE_COUNT'
  | 'NOT_SQUARE'
  | 'ENTRY'
  | 'ASYMMETRIC'
  | 'GRAPH_INVALID';

function textError(
  format: string,
  index: number,
  rule: GraphFormatRule,
  detail: string,
  path: JsonPath,
  code: ErrorCode = 'INVALID_REQUEST',
): JacobianError {
  return new JacobianError(code, `${format}: at character index ${index}: ${detail}`, {
    path,
    data: { format, index, rule },
  });
}

function lineError(line: number, rule: GraphFormatRule, detail: string, path: JsonPath, code: ErrorCode = 'INVALID_REQUEST'): JacobianError {
  return new JacobianError(code, `edge list: line ${line}: ${detail}`, { path, data: { format: 'edge-list', line, rule } });
}

function cellError(format: string, rule: GraphFormatRule, detail: string, path: JsonPath, code: ErrorCode = 'INVALID_REQUEST'): JacobianError {
  return new JacobianError(code, `${format}: ${detail}`, { path, data: { format, rule } });
}

function orderLimitDetail(n: number): string {
  return `the graph has order ${n}, above the maximum order ${MAX_GRAPH_ORDER}`;
}

/** A JSON value for a message; never throws (BigInt, symbols and functions have no JSON form). */
function describeValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function' || value === undefined) {
    return typeof value === 'function' ? 'a function' : String(value);
  }
  return JSON.stringify(value);
}

/** A character for a message: printable ASCII as itself, anything else by code unit, so messages stay one readable line. */
function describeChar(code: number): string {
  const shown = code >= 32 && code <= 126 ? `'${String.fromCharCode(code)}'` : 'a control or non-ASCII character';
  return `${shown} (code ${code})`;
}

// ---------------------------------------------------------------------------------------------
// Graph validation for encoders

/**
 * Check that an encoder's input is a simple graph within the order cap. Edges need not be sorted
 * (encoders sort), but each must be [u, v] with u < v < order and appear once: anything else
 * would be silently mis-encoded.
 */
function checkGraph(graph: IndexedGraph, fn: string): { n: number; edges: [number, number][] } {
  const n = checkedOrder(graph, fn);
  const edges: [number, number][] = [];
  forEachCheckedEdge(graph, n, fn, (u, v) => edges.push([u, v]));
  return { n, edges: edges.sort(compareEdges) };
}

function checkedOrder(graph: IndexedGraph, fn: string): number {
  const n = graph.order;
  if (!Number.isInteger(n) || n < 0) {
    throw cellError(fn, 'GRAPH_INVALID', `order must be a non-negative integer, got ${String(n)}`, ['order']);
  }
  if (n > MAX_GRAPH_ORDER) throw cellError(fn, 'ORDER_LIMIT', orderLimitDetail(n), ['order'], 'SIZE_LIMIT_EXCEEDED');
  return n;
}

/**
 * The edge checks of {@link checkGraph}, in input order, calling `visit` with each edge that
 * passed: graph6 sets one bit per edge and needs neither the copy nor the sort.
 */
function forEachCheckedEdge(graph: IndexedGraph, n: number, fn: string, visit: (u: number, v: number) => void): void {
  const seen = new Uint8Array(n * n);
  for (let i = 0; i < graph.edges.length; i++) {
    const [u, v] = graph.edges[i] as [number, number];
    if (!Number.isInteger(u) || !Number.isInteger(v) || !(u >= 0 && u < v && v < n)) {
      throw cellError(fn, 'GRAPH_INVALID', `edge ${i} is [${String(u)}, ${String(v)}]; edges must be [u, v] with 0 <= u < v < order (${n})`, ['edges', i]);
    }
    if (seen[u * n + v] === 1) throw cellError(fn, 'MULTI_EDGE', `edge ${i} [${u}, ${v}] is repeated; graphs are simple`, ['edges', i]);
    seen[u * n + v] = 1;
    visit(u, v);
  }
}

function compareEdges(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

// ---------------------------------------------------------------------------------------------
// Shared graph6 / sparse6 machinery

/** R(x) of formats.txt: big-endian bits, six per byte, zero-padded on the right, each byte biased by 63. */
function packBits(bits: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < bits.length; i += 6) {
    let value = 0;
    for (let j = 0; j < 6; j++) value = (value << 1) | (bits[i + j] ?? 0);
    out += String.fromCharCode(value + BIAS);
  }
  return out;
}

/** N(n) of formats.txt: one byte up to 62, then 126 + 18 bits up to 258047, then 126 126 + 36 bits. */
function encodeSize(n: number): string {
  if (n <= 62) return String.fromCharCode(n + BIAS);
  const width = n <= N4_MAX ? 18 : 36;
  const bits: number[] = [];
  // Division rather than shifts: 36-bit values overflow JavaScript's 32-bit bitwise operators.
  for (let i = width - 1; i >= 0; i--) bits.push(Math.floor(n / 2 ** i) % 2);
  return (width === 18 ? '~' : '~~') + packBits(bits);
}

/** A decoder's view of its input after the optional header and one trailing end-of-line are removed. */
interface Framed {
  /** The text as given, so positions in messages index into what the caller sent. */
  text: string;
  /** Index in `text` of the first character after the header. */
  start: number;
  /** Index in `text` just past the last character before the trailing end-of-line. */
  end: number;
}

function frame(text: unknown, format: GraphTextFormat, path: JsonPath): Framed {
  if (typeof text !== 'string') {
    throw cellError(format, 'NOT_TEXT', `expected a string, got ${text === null ? 'null' : typeof text}`, path);
  }
  const header = format === 'graph6' ? GRAPH6_HEADER : SPARSE6_HEADER;
  const other = format === 'graph6' ? SPARSE6_HEADER : GRAPH6_HEADER;
  let start = 0;
  if (text.startsWith(header)) start = header.length;
  else if (text.startsWith(other)) {
    throw textError(format, 0, 'HEADER', `the text starts with the header ${other}; decode it as ${other.slice(2, -2)}`, path);
  } else if (text.startsWith('>>')) {
    throw textError(format, 0, 'HEADER', `unknown header; the only header allowed is ${header}`, path);
  }
  // One end-of-line is tolerated because files and shells add it; a second line would be a second graph.
  let end = text.length;
  if (text.endsWith('\r\n')) end -= 2;
  else if (text.endsWith('\n')) end -= 1;
  if (end < start) end = start;
  return { text, start, end };
}

/** Check that text[from, end) holds only data bytes (63..126), naming the first that is not. */
function checkDataBytes(framed: Framed, from: number, format: GraphTextFormat, path: JsonPath): void {
  const { text, end } = framed;
  for (let i = from; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= BIAS && code <= MAX_BYTE) continue;
    if (code === 10 || code === 13) {
      throw textError(format, i, 'SINGLE_LINE', 'an end-of-line inside the text: exactly one graph per text, with at most one trailing end-of-line', path);
    }
    throw textError(format, i, 'BYTE_RANGE', `${describeChar(code)} is not a ${format} data byte: formats.txt allows only bytes 63..126 ('?'..'~')`, path);
  }
}

/**
 * Read N(n) starting at `at` (all bytes already known to be 63..126). Rejects the longer forms
 * for orders a shorter form covers, since formats.txt defines N(n) as one form per range; and
 * rejects orders above the cap here, before anything is sized by n.
 */
function decodeSize(framed: Framed, at: number, format: GraphTextFormat, path: JsonPath): { n: number; next: number } {
  const { text, end } = framed;
  if (at >= end) throw textError(format, at, 'SIZE_TRUNCATED', 'the text ends where N(n), the number of vertices, should start', path);
  const first = text.charCodeAt(at);
  if (first !== MAX_BYTE) return { n: first - BIAS, next: at + 1 };
  const long = at + 1 < end && text.charCodeAt(at + 1) === MAX_BYTE;
  const bytes = long ? 6 : 3;
  const from = at + (long ? 2 : 1);
  if (from + bytes > end) {
    throw textError(
      format,
      end,
      'SIZE_TRUNCATED',
      `N(n) starting at index ${at} needs ${long ? 8 : 4} bytes (${long ? '126 126' : '126'} then ${bytes} bytes of ${bytes * 6} bits) but the text ends`,
      path,
    );
  }
  let n = 0;
  for (let i = from; i < from + bytes; i++) n = n * 64 + (text.charCodeAt(i) - BIAS);
  const min = long ? N4_MAX + 1 : 63;
  if (n < min) {
    throw textError(
      format,
      at,
      'SIZE_NOT_SHORTEST',
      `N(n) uses the ${long ? 8 : 4}-byte form for n = ${n}; formats.txt uses it only for n >= ${min}, so n must be written as ${JSON.stringify(encodeSize(n))}`,
      path,
    );
  }
  if (n > MAX_GRAPH_ORDER) throw textError(format, at, 'ORDER_LIMIT', orderLimitDetail(n), path, 'SIZE_LIMIT_EXCEEDED');
  return { n, next: from + bytes };
}

// ---------------------------------------------------------------------------------------------
// graph6

/**
 * Encode a simple graph as graph6: N(n) then R(x), x the upper triangle of the adjacency matrix
 * column by column, (0,1),(0,2),(1,2),(0,3),... No header and no end-of-line.
 *
 * @throws JacobianError `INVALID_REQUEST` for a graph that is not simple and canonical-shaped,
 *   `SIZE_LIMIT_EXCEEDED` for order above {@link MAX_GRAPH_ORDER}.
 */
export function encodeGraph6(graph: IndexedGraph): string {
  const n = checkedOrder(graph, 'graph6');
  const bits = new Uint8Array((n * (n - 1)) / 2);
  forEachCheckedEdge(graph, n, 'graph6', (u, v) => {
    bits[(v * (v - 1)) / 2 + u] = 1;
  });
  return encodeSize(n) + packBits(bits);
}

/**
 * Decode one graph6 text. Accepts an optional `>>graph6<<` header and one trailing `\n` or
 * `\r\n`; rejects anything else formats.txt does not allow, including nonzero padding bits.
 *
 * @param path Where the text sits in the caller's request; errors carry it as `path`.
 * @throws JacobianError `INVALID_REQUEST` with `data: { format, index, rule }` (index 0-based into
 *   `text`), or `SIZE_LIMIT_EXCEEDED` (rule `ORDER_LIMIT`) for order above {@link MAX_GRAPH_ORDER}.
 */
export function decodeGraph6(text: string, path: JsonPath = []): IndexedGraph {
  const framed = frame(text, 'graph6', path);
  const { start, end } = framed;
  if (start === end) throw textError('graph6', start, 'EMPTY', 'no graph: the text is empty', path);
  const lead = text.charAt(start);
  if (lead === ':' || lead === ';' || lead === '&') {
    const which = lead === ':' ? 'sparse6' : lead === ';' ? 'incremental sparse6 (unsupported)' : 'digraph6 (unsupported)';
    throw textError('graph6', start, 'WRONG_FORMAT', `'${lead}' starts ${which}, not graph6`, path);
  }
  checkDataBytes(framed, start, 'graph6', path);
  const { n, next } = decodeSize(framed, start, 'graph6', path);
  const bitCount = (n * (n - 1)) / 2;
  const byteCount = Math.ceil(bitCount / 6);
  const have = end - next;
  if (have !== byteCount) {
    const index = have < byteCount ? end : next + byteCount;
    const detail = `n = ${n} needs exactly ${byteCount} bytes after N(n) (ceiling(${bitCount}/6)), but there are ${have}`;
    throw textError('graph6', index, 'LENGTH', have < byteCount ? `${detail}: the text ends early` : `${detail}: this character is one too many`, path);
  }
  const padding = byteCount * 6 - bitCount;
  if (padding > 0) {
    const last = text.charCodeAt(end - 1) - BIAS;
    if ((last & ((1 << padding) - 1)) !== 0) {
      throw textError('graph6', end - 1, 'PADDING_NONZERO', `the last ${padding} bit(s) of the final byte are padding and formats.txt pads with 0-bits; they are not all zero`, path);
    }
  }
  const edges: [number, number][] = [];
  let t = 0;
  for (let v = 1; v < n; v++) {
    for (let u = 0; u < v; u++, t++) {
      const byte = text.charCodeAt(next + Math.floor(t / 6)) - BIAS;
      if ((byte >> (5 - (t % 6))) & 1) edges.push([u, v]);
    }
  }
  return { order: n, edges: edges.sort(compareEdges) };
}

// ---------------------------------------------------------------------------------------------
// sparse6

/** formats.txt's k: the number of bits needed to write n-1 in binary (0 for n <= 1, as nauty counts). */
function sparse6Width(n: number): number {
  let k = 0;
  for (let x = n - 1; x > 0; x = Math.floor(x / 2)) k++;
  return k;
}

/**
 * Encode a simple graph as sparse6: ':' N(n) then the b/x stream, with edges taken in nauty's
 * order (by larger endpoint, then smaller) and padded by formats.txt's two rules, so the text
 * is byte-identical to nauty's. No header and no end-of-line.
 *
 * @throws JacobianError `INVALID_REQUEST` for a graph that is not simple and canonical-shaped,
 *   `SIZE_LIMIT_EXCEEDED` for order above {@link MAX_GRAPH_ORDER}.
 */
export function encodeSparse6(graph: IndexedGraph): string {
  const { n, edges } = checkGraph(graph, 'sparse6');
  const k = sparse6Width(n);
  const bits: number[] = [];
  const pushX = (x: number): void => {
    for (let i = k - 1; i >= 0; i--) bits.push((x >> i) & 1);
  };
  const byLarger = edges.map(([u, v]): [number, number] => [v, u]).sort(compareEdges);
  let current = 0;
  for (const [v, u] of byLarger) {
    if (v === current) {
      bits.push(0);
      pushX(u);
    } else if (v === current + 1) {
      bits.push(1);
      pushX(u);
    } else {
      // b=1 moves to current+1 < v, and x=v > current+1 then jumps to v; b=0 x=u adds the edge.
      bits.push(1);
      pushX(v);
      bits.push(0);
      pushX(u);
    }
    current = v;
  }
  const pad = (6 - (bits.length % 6)) % 6;
  // formats.txt padding rule 1: when n = 2^k (k < 6 is implied by pad <= 5), the stream ends at
  // vertex n-2, and the padding holds a whole pair, all-ones padding would read as b=1 (v = n-1)
  // then x = n-1: the loop {n-1, n-1}. A leading 0-bit makes it a harmless jump to n-1 instead.
  const special = pad >= k + 1 && n === 2 ** k && current === n - 2;
  for (let i = 0; i < pad; i++) bits.push(special && i === 0 ? 0 : 1);
  return ':' + encodeSize(n) + packBits(bits);
}

/**
 * Decode one sparse6 text. Accepts an optional `>>sparse6<<` header and one trailing `\n` or
 * `\r\n`. Follows formats.txt's decoding loop; because graphs here are simple, a loop or a
 * repeated edge is an error, not a feature. After the stream passes vertex n-1, or where an
 * incomplete pair remains, only padding may follow: fewer than 6 bits, all 1-bits or one 0-bit
 * then 1-bits (the two shapes formats.txt's padding rules produce).
 *
 * @param path Where the text sits in the caller's request; errors carry it as `path`.
 * @throws JacobianError `INVALID_REQUEST` with `data: { format, index, rule }` (index 0-based into
 *   `text`), or `SIZE_LIMIT_EXCEEDED` (rule `ORDER_LIMIT`) for order above {@link MAX_GRAPH_ORDER}.
 */
export function decodeSparse6(text: string, path: JsonPath = []): IndexedGraph {
  const framed = frame(text, 'sparse6', path);
  const { start, end } = framed;
  if (start === end) throw textError('sparse6', start, 'EMPTY', 'no graph: the text is empty', path);
  if (text.charAt(start) !== ':') {
    const lead = text.charAt(start);
    const why = lead === ';' ? "';' starts incremental sparse6, which needs the previous graph and is unsupported" : 'sparse6 text starts with \':\'';
    throw textError('sparse6', start, 'WRONG_FORMAT', `${why}; got ${describeChar(text.charCodeAt(start))}`, path);
  }
  checkDataBytes(framed, start + 1, 'sparse6', path);
  const { n, next } = decodeSize(framed, start + 1, 'sparse6', path);
  const k = sparse6Width(n);
  const totalBits = (end - next) * 6;
  const bitAt = (t: number): number => ((text.charCodeAt(next + Math.floor(t / 6)) - BIAS) >> (5 - (t % 6))) & 1;
  const indexOf = (t: number): number => next + Math.floor(t / 6);
  const seen = new Uint8Array(n * n);
  const edges: [number, number][] = [];

  let v = 0;
  let t = 0;
  let stop: 'past-end' | 'out-of-range' | 'incomplete' = 'incomplete';
  let badX = 0;
  while (t + k + 1 <= totalBits) {
    const b = bitAt(t);
    let x = 0;
    for (let i = 1; i <= k; i++) x = x * 2 + bitAt(t + i);
    if (b === 1) v++;
    // Once the stream names a vertex >= n nothing more can be an edge: nauty ignores the rest,
    // and a conforming encoder only ever writes padding there, which is checked below.
    if (v >= n) {
      stop = 'past-end';
      break;
    }
    if (x >= n) {
      stop = 'out-of-range';
      badX = x;
      break;
    }
    if (x > v) v = x;
    else if (x === v) {
      // Name the likely cause: an encoder that ignored padding rule 1 of formats.txt.
      const fromPadding = b === 1 && k >= 1 && n === 2 ** k && v === n - 1 && t >= totalBits - 6;
      throw textError(
        'sparse6',
        indexOf(t),
        'LOOP',
        `the pair at bit ${t} of the edge data encodes the loop {${v}, ${v}}; graphs here are simple` +
          (fromPadding
            ? ` (this looks like all-1 padding: with n = 2^k = ${n}, formats.txt pads with one 0-bit first when the stream ends at vertex n-2)`
            : ''),
        path,
      );
    } else {
      if (seen[x * n + v] === 1) {
        throw textError('sparse6', indexOf(t), 'MULTI_EDGE', `the pair at bit ${t} of the edge data repeats the edge {${x}, ${v}}; graphs here are simple`, path);
      }
      seen[x * n + v] = 1;
      edges.push([x, v]);
    }
    t += k + 1;
  }

  // Everything from bit t on must be padding.
  const padLength = totalBits - t;
  let shapeOk = padLength <= 5;
  for (let i = t + 1; shapeOk && i < totalBits; i++) shapeOk = bitAt(i) === 1;
  if (!shapeOk) {
    if (stop === 'out-of-range') {
      throw textError('sparse6', indexOf(t), 'VERTEX_RANGE', `the pair at bit ${t} of the edge data names vertex ${badX}, but the vertices are 0..${n - 1}`, path);
    }
    const where =
      stop === 'past-end'
        ? n === 0
          ? `the graph has no vertices, yet edge data starts at bit ${t}`
          : `the stream passes the last vertex (${n - 1}) at bit ${t} of the edge data`
        : `an incomplete (b, x) pair starts at bit ${t} of the edge data`;
    throw textError(
      'sparse6',
      indexOf(padLength > 5 ? t + padLength - 6 : t),
      'SPARSE6_PADDING',
      `${where} and ${padLength} bit(s) follow; only padding may follow, and formats.txt pads with fewer than 6 bits: all 1-bits, or one 0-bit then 1-bits`,
      path,
    );
  }
  return { order: n, edges: edges.sort(compareEdges) };
}

// ---------------------------------------------------------------------------------------------
// Detection

/**
 * Say which of graph6 and sparse6 a text is written in, by its header (if any) and its first
 * character; `null` when neither fits (another format, a header that disagrees with the body,
 * bytes outside 63..126, or no graph at all). A positive answer does not promise the decoder
 * will accept the text: it still checks lengths, padding and edges.
 */
export function detectGraphFormat(text: string): GraphTextFormat | null {
  if (typeof text !== 'string') return null;
  let body = text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
  let declared: GraphTextFormat | null = null;
  if (body.startsWith(GRAPH6_HEADER)) {
    declared = 'graph6';
    body = body.slice(GRAPH6_HEADER.length);
  } else if (body.startsWith(SPARSE6_HEADER)) {
    declared = 'sparse6';
    body = body.slice(SPARSE6_HEADER.length);
  }
  const sparse = body.startsWith(':');
  const data = sparse ? body.slice(1) : body;
  if (data.length === 0) return null;
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    if (code < BIAS || code > MAX_BYTE) return null;
  }
  const seen: GraphTextFormat = sparse ? 'sparse6' : 'graph6';
  return declared === null || declared === seen ? seen : null;
}

// ---------------------------------------------------------------------------------------------
// Edge list

/**
 * The edge-list text of a graph: a first line `n m`, then one line `u v` (0-based, u < v) per
 * edge in canonical order, each line ending in `\n`.
 *
 * @throws JacobianError as {@link encodeGraph6} does, for an invalid graph.
 */
export function toEdgeList(graph: IndexedGraph): string {
  const { n, edges } = checkGraph(graph, 'edge list');
  return `${n} ${edges.length}\n` + edges.map(([u, v]) => `${u} ${v}\n`).join('');
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * Parse edge-list text: a first line `n m`, then exactly m lines `u v` of distinct vertices
 * below n, in any order and orientation, no edge twice. Numbers are plain decimals (no sign or
 * leading zero); spaces or tabs separate them; lines end in `\n` or `\r\n`, the last one
 * optionally; blank lines are errors.
 *
 * @param path Where the text sits in the caller's request; errors carry it as `path`.
 * @throws JacobianError `INVALID_REQUEST` with `data: { format: 'edge-list', line, rule }` (line
 *   1-based), or `SIZE_LIMIT_EXCEEDED` for n above {@link MAX_GRAPH_ORDER}.
 */
export function fromEdgeList(text: string, path: JsonPath = []): IndexedGraph {
  if (typeof text !== 'string') {
    throw cellError('edge list', 'NOT_TEXT', `expected a string, got ${text === null ? 'null' : typeof text}`, path);
  }
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  // Blank lines are checked before counts: a blank line usually means a truncated or
  // concatenated file, which "wrong number of edges" would describe misleadingly.
  const blank = lines.findIndex((line) => /^[ \t]*$/.test(line));
  if (blank >= 0) throw lineError(blank + 1, 'SYNTAX', 'blank line; only a single end-of-line may end the text', path);

  const numbers = (lineNo: number, what: string): [number, number] => {
    const line = lines[lineNo - 1] ?? '';
    const fields = line.replace(/^[ \t]+|[ \t]+$/g, '').split(/[ \t]+/);
    if (fields.length !== 2) throw lineError(lineNo, 'SYNTAX', `expected ${what} (two numbers), got ${fields.length} field(s)`, path);
    for (const field of fields) {
      if (!DECIMAL.test(field)) throw lineError(lineNo, 'SYNTAX', `${JSON.stringify(field)} is not a non-negative decimal integer without sign or leading zeros`, path);
    }
    return [Number(fields[0]), Number(fields[1])];
  };

  const [n, m] = numbers(1, "the header 'n m'");
  if (n > MAX_GRAPH_ORDER) throw lineError(1, 'ORDER_LIMIT', orderLimitDetail(n), path, 'SIZE_LIMIT_EXCEEDED');
  const maxEdges = (n * (n - 1)) / 2;
  if (m > maxEdges) throw lineError(1, 'EDGE_COUNT', `m = ${m} exceeds n(n-1)/2 = ${maxEdges}, the most edges a simple graph of order ${n} has`, path);
  const edgeLines = lines.length - 1;
  if (edgeLines < m) throw lineError(lines.length + 1, 'EDGE_COUNT', `the header declares m = ${m} edges but only ${edgeLines} edge line(s) follow`, path);
  if (edgeLines > m) throw lineError(m + 2, 'EDGE_COUNT', `the header declares m = ${m} edges but more edge lines follow`, path);

  const firstLine = new Map<number, number>();
  const edges: [number, number][] = [];
  for (let lineNo = 2; lineNo <= m + 1; lineNo++) {
    const [a, b] = numbers(lineNo, "an edge 'u v'");
    if (a >= n || b >= n) throw lineError(lineNo, 'VERTEX_RANGE', `vertex ${Math.max(a, b)} is out of range; the vertices are 0..${n - 1}`, path);
    if (a === b) throw lineError(lineNo, 'LOOP', `the loop {${a}, ${a}}; graphs here are simple`, path);
    const u = Math.min(a, b);
    const v = Math.max(a, b);
    const earlier = firstLine.get(u * n + v);
    if (earlier !== undefined) throw lineError(lineNo, 'MULTI_EDGE', `the edge {${u}, ${v}} already appears on line ${earlier}; graphs here are simple`, path);
    firstLine.set(u * n + v, lineNo);
    edges.push([u, v]);
  }
  return { order: n, edges: edges.sort(compareEdges) };
}

// ---------------------------------------------------------------------------------------------
// Adjacency matrix

/**
 * The adjacency matrix of a graph: n rows of n entries, 1 where an edge joins row and column.
 *
 * @throws JacobianError as {@link encodeGraph6} does, for an invalid graph.
 */
export function toAdjacencyMatrix(graph: IndexedGraph): number[][] {
  const { n, edges } = checkGraph(graph, 'adjacency matrix');
  const matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const [u, v] of edges) {
    (matrix[u] as number[])[v] = 1;
    (matrix[v] as number[])[u] = 1;
  }
  return matrix;
}

/**
 * Read an adjacency matrix: square, every entry the number 0 or 1, symmetric, zero diagonal.
 * Checked at run time, since the matrix usually comes from JSON.
 *
 * @param path Where the matrix sits in the caller's request; errors extend it with row and column.
 * @throws JacobianError `INVALID_REQUEST` with `data: { format, rule }`, or `SIZE_LIMIT_EXCEEDED`
 *   for more than {@link MAX_GRAPH_ORDER} rows.
 */
export function fromAdjacencyMatrix(matrix: number[][], path: JsonPath = []): IndexedGraph {
  const format = 'adjacency matrix';
  if (!Array.isArray(matrix)) throw cellError(format, 'NOT_SQUARE', 'expected an array of rows', path);
  const n = matrix.length;
  if (n > MAX_GRAPH_ORDER) throw cellError(format, 'ORDER_LIMIT', `${orderLimitDetail(n)} (one row per vertex)`, path, 'SIZE_LIMIT_EXCEEDED');
  const rows: unknown[][] = [];
  for (let i = 0; i < n; i++) {
    const row: unknown = matrix[i];
    if (!Array.isArray(row)) throw cellError(format, 'NOT_SQUARE', `row ${i} is not an array`, [...path, i]);
    if (row.length !== n) throw cellError(format, 'NOT_SQUARE', `row ${i} has ${row.length} entries; a matrix with ${n} rows must have ${n} in each`, [...path, i]);
    rows.push(row as unknown[]);
  }
  const edges: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const entry = rows[i]?.[j];
      if (entry !== 0 && entry !== 1) {
        throw cellError(format, 'ENTRY', `entry [${i}][${j}] is ${describeValue(entry)}; entries must be the numbers 0 or 1`, [...path, i, j]);
      }
      if (i === j && entry === 1) throw cellError(format, 'LOOP', `diagonal entry [${i}][${i}] is 1, a loop; the diagonal must be 0`, [...path, i, j]);
      if (j > i && entry !== rows[j]?.[i]) {
        throw cellError(format, 'ASYMMETRIC', `entry [${i}][${j}] is ${entry} but [${j}][${i}] is not; an undirected graph's matrix is symmetric`, [...path, i, j]);
      }
      if (j > i && entry === 1) edges.push([i, j]);
    }
  }
  return { order: n, edges };
}

// ---------------------------------------------------------------------------------------------
// Adjacency lists

/**
 * The adjacency lists of a graph: entry i lists the neighbours of vertex i in increasing order.
 *
 * @throws JacobianError as {@link encodeGraph6} does, for an invalid graph.
 */
export function toAdjacencyLists(graph: IndexedGraph): number[][] {
  const { n, edges } = checkGraph(graph, 'adjacency lists');
  const lists = Array.from({ length: n }, () => [] as number[]);
  for (const [u, v] of edges) {
    (lists[u] as number[]).push(v);
    (lists[v] as number[]).push(u);
  }
  for (const list of lists) list.sort((a, b) => a - b);
  return lists;
}

/**
 * Read adjacency lists: one list per vertex, of integer vertices in 0..n-1, in any order, with
 * no loop, no repeat, and symmetric (j in list i exactly when i in list j).
 *
 * @param path Where the lists sit in the caller's request; errors extend it with list and position.
 * @throws JacobianError `INVALID_REQUEST` with `data: { format, rule }`, or `SIZE_LIMIT_EXCEEDED`
 *   for more than {@link MAX_GRAPH_ORDER} lists.
 */
export function fromAdjacencyLists(lists: number[][], path: JsonPath = []): IndexedGraph {
  const format = 'adjacency lists';
  if (!Array.isArray(lists)) throw cellError(format, 'SYNTAX', 'expected an array of lists', path);
  const n = lists.length;
  if (n > MAX_GRAPH_ORDER) throw cellError(format, 'ORDER_LIMIT', `${orderLimitDetail(n)} (one list per vertex)`, path, 'SIZE_LIMIT_EXCEEDED');
  const adjacent = new Uint8Array(n * n);
  for (let i = 0; i < n; i++) {
    const list: unknown = lists[i];
    if (!Array.isArray(list)) throw cellError(format, 'SYNTAX', `list ${i} is not an array`, [...path, i]);
    for (const [p, entry] of (list as unknown[]).entries()) {
      if (typeof entry !== 'number' || !Number.isInteger(entry) || entry < 0 || entry >= n) {
        throw cellError(format, 'VERTEX_RANGE', `list ${i} entry ${p} is ${describeValue(entry)}; entries must be integer vertices 0..${n - 1}`, [...path, i, p]);
      }
      if (entry === i) throw cellError(format, 'LOOP', `list ${i} contains ${i} itself, a loop; graphs here are simple`, [...path, i, p]);
      if (adjacent[i * n + entry] === 1) throw cellError(format, 'MULTI_EDGE', `list ${i} names ${entry} twice; graphs here are simple`, [...path, i, p]);
      adjacent[i * n + entry] = 1;
    }
  }
  const edges: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (adjacent[i * n + j] !== adjacent[j * n + i]) {
        const [has, lacks] = adjacent[i * n + j] === 1 ? [i, j] : [j, i];
        const p = (lists[has] as number[]).indexOf(lacks);
        throw cellError(format, 'ASYMMETRIC', `list ${has} names ${lacks} but list ${lacks} does not name ${has}; an undirected graph's lists are symmetric`, [...path, has, p]);
      }
      if (j > i && adjacent[i * n + j] === 1) edges.push([i, j]);
    }
  }
  return { order: n, edges };
}

/** This file's path: graph providers include it in their source identity, since it defines how they read and write graphs. */
export const GRAPH_FORMATS_SOURCE: string = fileURLToPath(import.meta.url);
