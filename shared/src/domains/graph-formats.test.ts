import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { JacobianError } from '../errors.js';
import { MAX_GRAPH_ORDER, type IndexedGraph } from './graph.js';
import {
  decodeGraph6,
  decodeSparse6,
  detectGraphFormat,
  encodeGraph6,
  encodeSparse6,
  fromAdjacencyLists,
  fromAdjacencyMatrix,
  fromEdgeList,
  toAdjacencyLists,
  toAdjacencyMatrix,
  toEdgeList,
} from './graph-formats.js';
import { mulberry32 as prng } from '../testing/seeded.js';

// ---------------------------------------------------------------------------------------------
// Helpers

function graph(order: number, edges: [number, number][]): IndexedGraph {
  return { order, edges };
}

/** The error a call throws; fails the test if it returns or throws anything but a JacobianError. */
function rejection(fn: () => unknown): JacobianError {
  let result: unknown;
  try {
    result = fn();
  } catch (error) {
    expect(error).toBeInstanceOf(JacobianError);
    return error as JacobianError;
  }
  throw new Error(`expected a JacobianError, got ${JSON.stringify(result)}`);
}

function isCanonical(g: IndexedGraph): boolean {
  const seen = new Set<string>();
  return g.edges.every(([u, v], i) => {
    const previous = g.edges[i - 1];
    const ordered = previous === undefined || previous[0] < u || (previous[0] === u && previous[1] < v);
    const key = `${u},${v}`;
    const fresh = !seen.has(key);
    seen.add(key);
    return Number.isInteger(u) && Number.isInteger(v) && u >= 0 && u < v && v < g.order && ordered && fresh;
  });
}


function randomGraph(n: number, density: number, seed: number): IndexedGraph {
  const random = prng(seed);
  const edges: [number, number][] = [];
  for (let u = 0; u < n; u++) for (let v = u + 1; v < n; v++) if (random() < density) edges.push([u, v]);
  return graph(n, edges);
}

const DENSITIES = [0, 0.01, 0.05, 0.2, 0.5, 0.8, 1];

/** Random simple graphs of order 0..maxOrder: dense ones by density and seed, sparse ones as shrinkable edge lists. */
function graphArbitrary(maxOrder: number): fc.Arbitrary<IndexedGraph> {
  const dense = fc
    .record({ n: fc.integer({ min: 0, max: maxOrder }), density: fc.constantFrom(...DENSITIES), seed: fc.integer() })
    .map(({ n, density, seed }) => randomGraph(n, density, seed));
  const sparse = fc.integer({ min: 0, max: maxOrder }).chain((n) =>
    fc.array(fc.tuple(fc.nat(Math.max(n - 1, 0)), fc.nat(Math.max(n - 1, 0))), { maxLength: 3 * n }).map((pairs) => {
      const keys = new Set<number>();
      for (const [a, b] of pairs) if (a !== b) keys.add(Math.min(a, b) * n + Math.max(a, b));
      const edges = [...keys].sort((x, y) => x - y).map((key): [number, number] => [Math.floor(key / n), key % n]);
      return graph(n, edges);
    }),
  );
  return fc.oneof(dense, sparse);
}

/** The graph formats.txt uses as its graph6 example. */
const FORMATS_G6_EXAMPLE = graph(5, [
  [0, 2],
  [0, 4],
  [1, 3],
  [3, 4],
]);
/** The graph formats.txt uses as its sparse6 example. */
const FORMATS_S6_EXAMPLE = graph(7, [
  [0, 1],
  [0, 2],
  [1, 2],
  [5, 6],
]);
/** The Petersen graph as nauty labels "IheA@GUAo" (edge list from `nauty-showg -e`). */
const PETERSEN = graph(10, [
  [0, 1],
  [0, 4],
  [0, 5],
  [1, 2],
  [1, 6],
  [2, 3],
  [2, 7],
  [3, 4],
  [3, 8],
  [4, 9],
  [5, 7],
  [5, 8],
  [6, 8],
  [6, 9],
  [7, 9],
]);
/** The triangle 0-1-2 plus the isolated vertex 3: n = 2^k and the stream ends at n-2, so padding rule 1 applies. */
const TRIANGLE_PLUS_ISOLATED = graph(4, [
  [0, 1],
  [0, 2],
  [1, 2],
]);

function complete(n: number): IndexedGraph {
  const edges: [number, number][] = [];
  for (let u = 0; u < n; u++) for (let v = u + 1; v < n; v++) edges.push([u, v]);
  return graph(n, edges);
}

// ---------------------------------------------------------------------------------------------
// Round trips

describe('round trips (property)', () => {
  const formats: [string, (g: IndexedGraph) => IndexedGraph][] = [
    ['graph6', (g) => decodeGraph6(encodeGraph6(g))],
    ['sparse6', (g) => decodeSparse6(encodeSparse6(g))],
    ['edge list', (g) => fromEdgeList(toEdgeList(g))],
    ['adjacency matrix', (g) => fromAdjacencyMatrix(toAdjacencyMatrix(g))],
    ['adjacency lists', (g) => fromAdjacencyLists(toAdjacencyLists(g))],
  ];
  it.each(formats)('%s: encode then decode is the identity on graphs of order 0..100', (_name, roundTrip) => {
    fc.assert(
      fc.property(graphArbitrary(100), (g) => {
        const back = roundTrip(g);
        expect(back).toEqual(g);
        expect(isCanonical(back)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('graph6 and sparse6 texts are canonical: decode then encode gives the same bytes', () => {
    fc.assert(
      fc.property(graphArbitrary(100), (g) => {
        const g6 = encodeGraph6(g);
        const s6 = encodeSparse6(g);
        expect(encodeGraph6(decodeGraph6(g6))).toBe(g6);
        expect(encodeSparse6(decodeSparse6(s6))).toBe(s6);
        expect(detectGraphFormat(g6)).toBe('graph6');
        expect(detectGraphFormat(s6)).toBe('sparse6');
      }),
      { numRuns: 150 },
    );
  });

  it('decoders put unsorted or reversed input into canonical form', () => {
    const canonical = graph(5, [
      [0, 4],
      [1, 2],
      [2, 3],
    ]);
    expect(fromEdgeList('5 3\n3 2\n4 0\n1 2\n')).toEqual(canonical);
    expect(fromAdjacencyLists([[4], [2], [3, 1], [2], [0]])).toEqual(canonical);
    expect(encodeGraph6(graph(5, [[2, 3], [0, 4], [1, 2]]))).toBe(encodeGraph6(canonical));
  });

  it('handles the largest order, 256, in every format', () => {
    for (const g of [complete(MAX_GRAPH_ORDER), randomGraph(MAX_GRAPH_ORDER, 0.05, 7), graph(MAX_GRAPH_ORDER, [])]) {
      expect(decodeGraph6(encodeGraph6(g))).toEqual(g);
      expect(decodeSparse6(encodeSparse6(g))).toEqual(g);
      expect(fromEdgeList(toEdgeList(g))).toEqual(g);
      expect(fromAdjacencyMatrix(toAdjacencyMatrix(g))).toEqual(g);
      expect(fromAdjacencyLists(toAdjacencyLists(g))).toEqual(g);
    }
    expect(encodeGraph6(complete(MAX_GRAPH_ORDER))).toHaveLength(4 + Math.ceil((256 * 255) / 2 / 6));
  });
});

// ---------------------------------------------------------------------------------------------
// graph6

describe('graph6', () => {
  it('encodes and decodes the example of formats.txt: "DQc"', () => {
    expect(encodeGraph6(FORMATS_G6_EXAMPLE)).toBe('DQc');
    expect(decodeGraph6('DQc')).toEqual(FORMATS_G6_EXAMPLE);
  });

  it('encodes and decodes the Petersen graph as "IheA@GUAo"', () => {
    expect(encodeGraph6(PETERSEN)).toBe('IheA@GUAo');
    expect(decodeGraph6('IheA@GUAo')).toEqual(PETERSEN);
  });

  it('encodes the smallest graphs', () => {
    expect(encodeGraph6(graph(0, []))).toBe('?');
    expect(encodeGraph6(graph(1, []))).toBe('@');
    expect(encodeGraph6(graph(2, []))).toBe('A?');
    expect(encodeGraph6(graph(2, [[0, 1]]))).toBe('A_');
    expect(decodeGraph6('?')).toEqual(graph(0, []));
    expect(decodeGraph6('@')).toEqual(graph(1, []));
    expect(decodeGraph6('A_')).toEqual(graph(2, [[0, 1]]));
  });

  it('uses the one-byte N(n) up to n = 62 and the four-byte form from n = 63', () => {
    const g62 = encodeGraph6(graph(62, []));
    expect(g62.slice(0, 1)).toBe('}');
    expect(g62).toHaveLength(1 + Math.ceil((62 * 61) / 2 / 6));
    const g63 = encodeGraph6(graph(63, []));
    expect(g63.slice(0, 4)).toBe('~??~');
    expect(g63).toHaveLength(4 + Math.ceil((63 * 62) / 2 / 6));
    expect(decodeGraph6(g62).order).toBe(62);
    expect(decodeGraph6(g63).order).toBe(63);
    expect(encodeGraph6(graph(256, [])).slice(0, 4)).toBe('~?C?');
    for (let n = 0; n <= MAX_GRAPH_ORDER; n++) expect(decodeGraph6(encodeGraph6(graph(n, []))).order).toBe(n);
  });

  it('accepts the >>graph6<< header and one trailing end-of-line', () => {
    for (const text of ['>>graph6<<DQc', 'DQc\n', 'DQc\r\n', '>>graph6<<DQc\n']) expect(decodeGraph6(text)).toEqual(FORMATS_G6_EXAMPLE);
  });

  it('rejects orders above the cap with a clear error, for both long N(n) forms', () => {
    const cases: [string, number][] = [
      ['~?C@', 257],
      ['~B?x', 12345], // N(12345) from formats.txt
      ['~}~~', 258047], // largest four-byte N(n)
      ['~~?ZZZZZ', 460175067], // N(460175067) from formats.txt
      ['~~~~~~~~', 2 ** 36 - 1],
    ];
    for (const [text, n] of cases) {
      const error = rejection(() => decodeGraph6(text + '????'));
      expect(error.code).toBe('SIZE_LIMIT_EXCEEDED');
      expect(error.message).toBe(`graph6: at character index 0: the graph has order ${n}, above the maximum order 256`);
      expect(error.data).toEqual({ format: 'graph6', index: 0, rule: 'ORDER_LIMIT' });
    }
    expect(rejection(() => decodeSparse6(':~?C@')).code).toBe('SIZE_LIMIT_EXCEEDED');
  });

  it('rejects an N(n) written in a longer form than formats.txt assigns', () => {
    const four = rejection(() => decodeGraph6('~??}' + '?'.repeat(316)));
    expect(four.data).toEqual({ format: 'graph6', index: 0, rule: 'SIZE_NOT_SHORTEST' });
    expect(four.message).toContain('4-byte form for n = 62; formats.txt uses it only for n >= 63, so n must be written as "}"');
    const eight = rejection(() => decodeGraph6('~~?????D'));
    expect(eight.data).toEqual({ format: 'graph6', index: 0, rule: 'SIZE_NOT_SHORTEST' });
    expect(eight.message).toContain('8-byte form for n = 5');
  });

  it('rejects malformed text, naming the character index and the rule', () => {
    const cases: [string, number, string, RegExp][] = [
      ['', 0, 'EMPTY', /the text is empty/],
      ['\n', 0, 'EMPTY', /the text is empty/],
      ['>>graph6<<', 10, 'EMPTY', /the text is empty/],
      ['D Qc', 1, 'BYTE_RANGE', /' ' \(code 32\) is not a graph6 data byte: formats.txt allows only bytes 63\.\.126/],
      ['DQc\u00e9', 3, 'BYTE_RANGE', /code 233/],
      ['DQc\nDQc', 3, 'SINGLE_LINE', /exactly one graph per text/],
      ['DQc\n\n', 3, 'SINGLE_LINE', /exactly one graph per text/],
      ['DQ', 2, 'LENGTH', /n = 5 needs exactly 2 bytes after N\(n\) \(ceiling\(10\/6\)\), but there are 1: the text ends early/],
      ['DQcc', 3, 'LENGTH', /there are 3: this character is one too many/],
      ['DQd', 2, 'PADDING_NONZERO', /last 2 bit\(s\) of the final byte are padding and formats\.txt pads with 0-bits/],
      ['A`', 1, 'PADDING_NONZERO', /last 5 bit\(s\)/],
      ['@?', 1, 'LENGTH', /n = 1 needs exactly 0 bytes/],
      ['~', 1, 'SIZE_TRUNCATED', /N\(n\) starting at index 0 needs 4 bytes/],
      ['~~??', 4, 'SIZE_TRUNCATED', /needs 8 bytes/],
      [':Fa@x^', 0, 'WRONG_FORMAT', /':' starts sparse6, not graph6/],
      ['&DI?AO?', 0, 'WRONG_FORMAT', /digraph6 \(unsupported\)/],
      ['>>sparse6<<:Fa@x^', 0, 'HEADER', /decode it as sparse6/],
      ['>>digraph6<<&DI?AO?', 0, 'HEADER', /unknown header/],
    ];
    for (const [text, index, rule, message] of cases) {
      const error = rejection(() => decodeGraph6(text, ['payload', 'graph6']));
      expect(error.code, text).toBe('INVALID_REQUEST');
      expect(error.data, text).toEqual({ format: 'graph6', index, rule });
      expect(error.path).toEqual(['payload', 'graph6']);
      expect(error.message, text).toMatch(new RegExp(`^graph6: at character index ${index}: `));
      expect(error.message, text).toMatch(message);
    }
  });

  it('rejects a non-string', () => {
    const error = rejection(() => decodeGraph6(42 as unknown as string));
    expect(error.data).toEqual({ format: 'graph6', rule: 'NOT_TEXT' });
  });
});

// ---------------------------------------------------------------------------------------------
// sparse6

describe('sparse6', () => {
  it('encodes and decodes the example of formats.txt: ":Fa@x^"', () => {
    expect(encodeSparse6(FORMATS_S6_EXAMPLE)).toBe(':Fa@x^');
    expect(decodeSparse6(':Fa@x^')).toEqual(FORMATS_S6_EXAMPLE);
  });

  it('matches nauty on small known graphs', () => {
    // Strings written by `nauty-copyg -s`.
    expect(encodeSparse6(FORMATS_G6_EXAMPLE)).toBe(':DgH_~');
    expect(encodeSparse6(graph(0, []))).toBe(':?');
    expect(encodeSparse6(graph(1, []))).toBe(':@');
    expect(encodeSparse6(graph(2, []))).toBe(':A');
    expect(encodeSparse6(graph(2, [[0, 1]]))).toBe(':An');
    expect(decodeSparse6(':DgH_~')).toEqual(FORMATS_G6_EXAMPLE);
    expect(decodeSparse6(':An')).toEqual(graph(2, [[0, 1]]));
  });

  it('applies padding rule 1 (n = 2^k, stream ending at n-2): one 0-bit before the 1-bits', () => {
    // Bits 100 100 001 then padding 011: with all-1 padding the last pair would read b=1, x=3, the loop {3,3}.
    expect(encodeSparse6(TRIANGLE_PLUS_ISOLATED)).toBe(':CcJ');
    expect(decodeSparse6(':CcJ')).toEqual(TRIANGLE_PLUS_ISOLATED);
    const error = rejection(() => decodeSparse6(':CcN'));
    expect(error.data).toEqual({ format: 'sparse6', index: 3, rule: 'LOOP' });
    expect(error.message).toContain('encodes the loop {3, 3}; graphs here are simple (this looks like all-1 padding');
  });

  it('applies padding rule 1 only when a whole (b, x) pair fits in the padding', () => {
    // n = 16, k = 4: four pairs fill 20 bits and leave 4 bits of padding, fewer than k + 1,
    // so nauty pads with 1-bits; some encoders write 0111 there, which decodes the same.
    const g = graph(16, [
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
    ]);
    const text = encodeSparse6(g);
    const last = text.charCodeAt(text.length - 1) - 63;
    expect(last & 0b1111).toBe(0b1111);
    expect(decodeSparse6(text)).toEqual(g);
    const variant = text.slice(0, -1) + String.fromCharCode(63 + (last & ~0b1000));
    expect(decodeSparse6(variant)).toEqual(g);
  });

  it('uses the four-byte N(n) from n = 63', () => {
    expect(encodeSparse6(graph(62, []))).toBe(':}');
    expect(encodeSparse6(graph(63, []))).toBe(':~??~');
    expect(decodeSparse6(':~??~')).toEqual(graph(63, []));
  });

  it('accepts the >>sparse6<< header and one trailing end-of-line', () => {
    for (const text of ['>>sparse6<<:Fa@x^', ':Fa@x^\n', '>>sparse6<<:Fa@x^\r\n']) expect(decodeSparse6(text)).toEqual(FORMATS_S6_EXAMPLE);
  });

  it('rejects loops, multi-edges, bad vertices and bad padding, naming the character index and the rule', () => {
    const cases: [string, number, string, RegExp][] = [
      // n=7, k=3. Bits 0 000 | 11: the pair b=0, x=0 at v=0 is the loop {0,0}.
      [':FB', 2, 'LOOP', /the pair at bit 0 of the edge data encodes the loop \{0, 0\}; graphs here are simple$/],
      // Bits 1 000 | 0 000 | 1111: the edge {0,1} twice.
      [':F_N', 2, 'MULTI_EDGE', /the pair at bit 4 of the edge data repeats the edge \{0, 1\}; graphs here are simple/],
      // The example's second edge (0-2) rewritten as 0-1: bits 1 000 1 000 -> 1 000 0 000.
      [':F_@x^', 2, 'MULTI_EDGE', /repeats the edge \{0, 1\}/],
      // n=5, k=3. Bits 0 101 | 11: x = 5 is not a vertex.
      [':DV', 2, 'VERTEX_RANGE', /the pair at bit 0 of the edge data names vertex 5, but the vertices are 0\.\.4/],
      // n=7. Bits 1 000 | 00: padding must be 1-bits.
      [':F_', 2, 'SPARSE6_PADDING', /an incomplete \(b, x\) pair starts at bit 4 of the edge data and 2 bit\(s\) follow; only padding may follow/],
      // A whole extra byte after the example's padding.
      [':Fa@x^~', 6, 'SPARSE6_PADDING', /the stream passes the last vertex \(6\) at bit 20 of the edge data and 10 bit\(s\) follow/],
      // n=0 and n=1 have no edge data at all.
      [':?~', 2, 'SPARSE6_PADDING', /the graph has no vertices/],
      [':@~', 2, 'SPARSE6_PADDING', /passes the last vertex \(0\)/],
      [':@?', 2, 'LOOP', /loop \{0, 0\}; graphs here are simple$/],
      ['', 0, 'EMPTY', /the text is empty/],
      [':', 1, 'SIZE_TRUNCATED', /the text ends where N\(n\)/],
      ['DQc', 0, 'WRONG_FORMAT', /sparse6 text starts with ':'; got 'D' \(code 68\)/],
      [';Fa', 0, 'WRONG_FORMAT', /incremental sparse6/],
      [':Fa@ x^', 4, 'BYTE_RANGE', /' ' \(code 32\) is not a sparse6 data byte/],
      [':Fa@x^\n:Fa@x^', 6, 'SINGLE_LINE', /exactly one graph per text/],
      ['>>graph6<<DQc', 0, 'HEADER', /decode it as graph6/],
      [':~??}', 1, 'SIZE_NOT_SHORTEST', /4-byte form for n = 62/],
    ];
    for (const [text, index, rule, message] of cases) {
      const error = rejection(() => decodeSparse6(text, ['s6']));
      expect(error.code, text).toBe('INVALID_REQUEST');
      expect(error.data, text).toEqual({ format: 'sparse6', index, rule });
      expect(error.path).toEqual(['s6']);
      expect(error.message, text).toMatch(new RegExp(`^sparse6: at character index ${index}: `));
      expect(error.message, text).toMatch(message);
    }
  });

  it('counts character indices from the start of the text, header included', () => {
    expect(rejection(() => decodeSparse6('>>sparse6<<:FB')).data).toEqual({ format: 'sparse6', index: 13, rule: 'LOOP' });
    expect(rejection(() => decodeGraph6('>>graph6<<DQd')).data).toEqual({ format: 'graph6', index: 12, rule: 'PADDING_NONZERO' });
  });
});

// ---------------------------------------------------------------------------------------------
// Robustness

describe('decoders on arbitrary text', () => {
  const unit = fc.oneof(
    fc.integer({ min: 63, max: 126 }).map((code) => String.fromCharCode(code)),
    fc.constantFrom(':', '\n', '\r', ' ', '>', '~', '?', '0', '1', '\u00e9'),
  );
  it('either return a canonical graph or throw a JacobianError, never anything else', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        for (const decode of [decodeGraph6, decodeSparse6, fromEdgeList]) {
          let result: IndexedGraph | undefined;
          try {
            result = decode(text);
          } catch (error) {
            expect(error).toBeInstanceOf(JacobianError);
          }
          if (result !== undefined) expect(isCanonical(result)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reject or canonically decode every one-character corruption of a valid text', () => {
    fc.assert(
      fc.property(graphArbitrary(40), fc.nat(), fc.integer({ min: 63, max: 126 }), (g, at, code) => {
        for (const [encode, decode] of [
          [encodeGraph6, decodeGraph6],
          [encodeSparse6, decodeSparse6],
        ] as const) {
          const text = encode(g);
          const i = at % text.length;
          const corrupted = text.slice(0, i) + String.fromCharCode(code) + text.slice(i + 1);
          try {
            const back = decode(corrupted);
            expect(isCanonical(back)).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(JacobianError);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Detection

describe('detectGraphFormat', () => {
  it.each([
    ['DQc', 'graph6'],
    ['DQc\n', 'graph6'],
    ['>>graph6<<DQc', 'graph6'],
    [':Fa@x^', 'sparse6'],
    ['>>sparse6<<:Fa@x^\n', 'sparse6'],
    ['>>graph6<<:Fa@x^', null],
    ['>>sparse6<<DQc', null],
    [';Fa', null],
    ['&DI?AO?', null],
    ['', null],
    [':', null],
    ['3 2\n0 1\n1 2\n', null],
    ['DQc\nDQc', null],
  ] as const)('%j is %s', (text, expected) => {
    expect(detectGraphFormat(text)).toBe(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// Edge list

describe('edge list', () => {
  it('writes "n m" then one "u v" line per edge', () => {
    expect(toEdgeList(FORMATS_G6_EXAMPLE)).toBe('5 4\n0 2\n0 4\n1 3\n3 4\n');
    expect(toEdgeList(graph(3, []))).toBe('3 0\n');
    expect(toEdgeList(graph(0, []))).toBe('0 0\n');
  });

  it('reads with or without the final newline, CRLF, and spaces or tabs between numbers', () => {
    for (const text of ['5 4\n0 2\n0 4\n1 3\n3 4', '5 4\r\n2 0\r\n0 4\r\n3 1\r\n4 3\r\n', '5\t4\n 0  2 \n0\t4\n1 3\n3 4\n']) {
      expect(fromEdgeList(text)).toEqual(FORMATS_G6_EXAMPLE);
    }
    expect(fromEdgeList('0 0')).toEqual(graph(0, []));
  });

  it('rejects malformed lists, naming the line and the rule', () => {
    const cases: [string, number, string, RegExp][] = [
      ['', 1, 'SYNTAX', /blank line; only a single end-of-line may end the text/],
      ['5\n', 1, 'SYNTAX', /expected the header 'n m' \(two numbers\), got 1 field/],
      ['5 1 2\n0 1\n', 1, 'SYNTAX', /got 3 field/],
      ['5 -1\n', 1, 'SYNTAX', /"-1" is not a non-negative decimal integer/],
      ['5 1\n0 01\n', 2, 'SYNTAX', /"01" is not a non-negative decimal integer without sign or leading zeros/],
      ['5 1\n0 1.0\n', 2, 'SYNTAX', /"1.0"/],
      ['5 11\n', 1, 'EDGE_COUNT', /m = 11 exceeds n\(n-1\)\/2 = 10/],
      ['5 2\n0 1\n', 3, 'EDGE_COUNT', /declares m = 2 edges but only 1 edge line\(s\) follow/],
      ['5 1\n0 1\n1 2\n', 3, 'EDGE_COUNT', /declares m = 1 edges but more edge lines follow/],
      ['5 1\n0 1\n\n', 3, 'SYNTAX', /blank line/],
      ['5 2\n0 1\n \n1 2\n', 3, 'SYNTAX', /blank line/],
      ['5 1\n0 5\n', 2, 'VERTEX_RANGE', /vertex 5 is out of range; the vertices are 0\.\.4/],
      ['5 1\n2 2\n', 2, 'LOOP', /the loop \{2, 2\}; graphs here are simple/],
      ['5 3\n0 1\n1 2\n1 0\n', 4, 'MULTI_EDGE', /the edge \{0, 1\} already appears on line 2/],
    ];
    for (const [text, line, rule, message] of cases) {
      const error = rejection(() => fromEdgeList(text, ['edges_text']));
      expect(error.code, text).toBe('INVALID_REQUEST');
      expect(error.data, text).toEqual({ format: 'edge-list', line, rule });
      expect(error.path).toEqual(['edges_text']);
      expect(error.message, text).toMatch(new RegExp(`^edge list: line ${line}: `));
      expect(error.message, text).toMatch(message);
    }
  });

  it('rejects an order above the cap', () => {
    const error = rejection(() => fromEdgeList('257 0\n'));
    expect(error.code).toBe('SIZE_LIMIT_EXCEEDED');
    expect(error.message).toBe('edge list: line 1: the graph has order 257, above the maximum order 256');
  });
});

// ---------------------------------------------------------------------------------------------
// Adjacency matrix and lists

describe('adjacency matrix', () => {
  it('converts both ways', () => {
    const matrix = [
      [0, 0, 1, 0, 1],
      [0, 0, 0, 1, 0],
      [1, 0, 0, 0, 0],
      [0, 1, 0, 0, 1],
      [1, 0, 0, 1, 0],
    ];
    expect(toAdjacencyMatrix(FORMATS_G6_EXAMPLE)).toEqual(matrix);
    expect(fromAdjacencyMatrix(matrix)).toEqual(FORMATS_G6_EXAMPLE);
    expect(fromAdjacencyMatrix([])).toEqual(graph(0, []));
  });

  it('rejects matrices that are not square, 0/1, symmetric with zero diagonal', () => {
    const cases: [unknown, (string | number)[], string, RegExp][] = [
      ['0 1', ['m'], 'NOT_SQUARE', /expected an array of rows/],
      [[[0, 1], [1]], ['m', 1], 'NOT_SQUARE', /row 1 has 1 entries; a matrix with 2 rows must have 2 in each/],
      [[[0, 1], 'x'], ['m', 1], 'NOT_SQUARE', /row 1 is not an array/],
      [[[0, 2], [2, 0]], ['m', 0, 1], 'ENTRY', /entry \[0\]\[1\] is 2; entries must be the numbers 0 or 1/],
      [[[0, true], [true, 0]], ['m', 0, 1], 'ENTRY', /is true/],
      [[[0, Number.NaN], [0, 0]], ['m', 0, 1], 'ENTRY', /is NaN/],
      [[[0, '1'], ['1', 0]], ['m', 0, 1], 'ENTRY', /is "1"/],
      [[[1, 0], [0, 0]], ['m', 0, 0], 'LOOP', /diagonal entry \[0\]\[0\] is 1, a loop; the diagonal must be 0/],
      [[[0, 1], [0, 0]], ['m', 0, 1], 'ASYMMETRIC', /entry \[0\]\[1\] is 1 but \[1\]\[0\] is not; an undirected graph's matrix is symmetric/],
    ];
    for (const [matrix, path, rule, message] of cases) {
      const error = rejection(() => fromAdjacencyMatrix(matrix as number[][], ['m']));
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.path).toEqual(path);
      expect(error.data).toEqual({ format: 'adjacency matrix', rule });
      expect(error.message).toMatch(message);
    }
    const big = rejection(() => fromAdjacencyMatrix(new Array<number[]>(257).fill([])));
    expect(big.code).toBe('SIZE_LIMIT_EXCEEDED');
  });
});

describe('adjacency lists', () => {
  it('converts both ways, with sorted neighbours', () => {
    const lists = [[2, 4], [3], [0], [1, 4], [0, 3]];
    expect(toAdjacencyLists(FORMATS_G6_EXAMPLE)).toEqual(lists);
    expect(fromAdjacencyLists(lists)).toEqual(FORMATS_G6_EXAMPLE);
    expect(fromAdjacencyLists([[4, 2], [3], [0], [4, 1], [3, 0]])).toEqual(FORMATS_G6_EXAMPLE);
  });

  it('rejects lists that are not symmetric, loop-free and repeat-free', () => {
    const cases: [unknown, (string | number)[], string, RegExp][] = [
      [{}, ['l'], 'SYNTAX', /expected an array of lists/],
      [[[1], 1], ['l', 1], 'SYNTAX', /list 1 is not an array/],
      [[[1], [0, 2], [1, 3]], ['l', 2, 1], 'VERTEX_RANGE', /list 2 entry 1 is 3; entries must be integer vertices 0\.\.2/],
      [[[0.5], []], ['l', 0, 0], 'VERTEX_RANGE', /is 0\.5/],
      [[[1, 1], [0]], ['l', 0, 1], 'MULTI_EDGE', /list 0 names 1 twice/],
      [[[0]], ['l', 0, 0], 'LOOP', /list 0 contains 0 itself, a loop/],
      [[[1, 2], [0], []], ['l', 0, 1], 'ASYMMETRIC', /list 0 names 2 but list 2 does not name 0/],
    ];
    for (const [lists, path, rule, message] of cases) {
      const error = rejection(() => fromAdjacencyLists(lists as number[][], ['l']));
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.path).toEqual(path);
      expect(error.data).toEqual({ format: 'adjacency lists', rule });
      expect(error.message).toMatch(message);
    }
  });
});

describe('encoders check their input graph', () => {
  const encoders = [encodeGraph6, encodeSparse6, toEdgeList, toAdjacencyMatrix, toAdjacencyLists];
  it('rejects edges that are out of order, out of range or repeated, and orders above the cap', () => {
    for (const encode of encoders) {
      expect(rejection(() => encode(graph(3, [[1, 0]]))).data).toMatchObject({ rule: 'GRAPH_INVALID' });
      expect(rejection(() => encode(graph(3, [[1, 3]]))).path).toEqual(['edges', 0]);
      expect(rejection(() => encode(graph(3, [[0, 1], [0, 1]]))).data).toMatchObject({ rule: 'MULTI_EDGE' });
      expect(rejection(() => encode(graph(2.5, []))).data).toMatchObject({ rule: 'GRAPH_INVALID' });
      expect(rejection(() => encode(graph(257, []))).code).toBe('SIZE_LIMIT_EXCEEDED');
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Cross-check against nauty's own tools

const COPYG = '/usr/bin/nauty-copyg';
const SHOWG = '/usr/bin/nauty-showg';

/** A corpus that exercises every N(n) form we allow, all densities, and padding rule 1. */
function nautyCorpus(): IndexedGraph[] {
  const random = prng(20240611);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const orders = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 62, 63, 64, 100, 127, 128, 255, 256];
  const corpus: IndexedGraph[] = [];
  for (let i = 0; i < 200; i++) {
    const n = random() < 0.5 ? pick(orders) : Math.floor(random() * 101);
    corpus.push(randomGraph(n, pick(DENSITIES), Math.floor(random() * 2 ** 31)));
  }
  // Powers of two whose last vertex is isolated, so the stream ends at n-2 and rule 1 may apply.
  for (const n of [4, 8, 16]) {
    for (let i = 0; i < 15; i++) {
      const g = randomGraph(n - 1, pick([0.2, 0.5, 0.8]), Math.floor(random() * 2 ** 31));
      corpus.push(graph(n, g.edges));
    }
  }
  // Every labelled graph on at most 4 vertices.
  for (let n = 0; n <= 4; n++) {
    const pairs = complete(n).edges;
    for (let mask = 0; mask < 2 ** pairs.length; mask++) corpus.push(graph(n, pairs.filter((_, i) => (mask >> i) & 1)));
  }
  return corpus;
}

function runNauty(tool: string, args: string[], lines: string[]): string[] {
  const output = execFileSync(tool, args, { input: lines.join('\n') + '\n', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return output.split('\n').slice(0, -1);
}

/** Parse `showg -e -q -l0`: per graph a line "n m" and a line of "u v" pairs (empty when m = 0). */
function parseShowg(lines: string[]): IndexedGraph[] {
  const graphs: IndexedGraph[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const [n, m] = (lines[i] ?? '').split(' ').map(Number);
    const numbers = (lines[i + 1] ?? '').trim() === '' ? [] : (lines[i + 1] ?? '').trim().split(/\s+/).map(Number);
    const edges: [number, number][] = [];
    for (let j = 0; j < numbers.length; j += 2) edges.push([numbers[j] as number, numbers[j + 1] as number]);
    expect(edges).toHaveLength(m as number);
    graphs.push(graph(n as number, edges.sort((a, b) => a[0] - b[0] || a[1] - b[1])));
  }
  return graphs;
}

describe('cross-check against nauty', () => {
  it('agrees byte for byte with nauty-copyg and nauty-showg on ~280 graphs', () => {
    for (const tool of [COPYG, SHOWG]) {
      expect(existsSync(tool), `${tool} is missing: run scripts/install-system-deps.sh (it installs the Debian package nauty)`).toBe(true);
    }
    const corpus = nautyCorpus();
    const ourG6 = corpus.map(encodeGraph6);
    const ourS6 = corpus.map(encodeSparse6);
    // The corpus must reach the cases that make sparse6 delicate.
    expect(ourS6).toContain(':CcJ');
    expect(ourG6.some((text) => text.startsWith('~'))).toBe(true);

    // nauty reads our graph6 and writes sparse6: it must be our sparse6, byte for byte.
    const nautyS6 = runNauty(COPYG, ['-s', '-q'], ourG6);
    expect(nautyS6).toEqual(ourS6);
    // nauty reads our sparse6 and writes graph6: it must be our graph6.
    const nautyG6 = runNauty(COPYG, ['-g', '-q'], ourS6);
    expect(nautyG6).toEqual(ourG6);
    // nauty's reading of our texts, as edge lists, is the graph we encoded.
    expect(parseShowg(runNauty(SHOWG, ['-e', '-q', '-l0'], ourG6))).toEqual(corpus);
    expect(parseShowg(runNauty(SHOWG, ['-e', '-q', '-l0'], ourS6))).toEqual(corpus);
    // And we read nauty's texts back as the same graphs.
    expect(nautyS6.map((text) => decodeSparse6(text))).toEqual(corpus);
    expect(nautyG6.map((text) => decodeGraph6(text))).toEqual(corpus);
  });

  it("decodes the strings of formats.txt the way nauty's showg does", () => {
    expect(existsSync(SHOWG), `${SHOWG} is missing: run scripts/install-system-deps.sh (it installs the Debian package nauty)`).toBe(true);
    const texts = ['DQc', ':Fa@x^', 'IheA@GUAo', ':CcJ'];
    const nauty = parseShowg(runNauty(SHOWG, ['-e', '-q', '-l0'], texts));
    expect(nauty).toEqual([decodeGraph6('DQc'), decodeSparse6(':Fa@x^'), decodeGraph6('IheA@GUAo'), decodeSparse6(':CcJ')]);
  });
});
