import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalGraph, ExplicitGraphSchema, graphOperandShape, refineGraphOperand, type ExplicitGraph } from './graph-operand.js';
import { canonicalLabel, compareLabels, type GraphPayload } from './graph.js';

/**
 * The rules of an inline graph as they are stated: on canonical labels, one edge after the other
 * (the schema checks them on vertex indices, which a large graph makes much faster). Returns the
 * first issue, as the schema reports it, or null.
 */
function firstIssueByLabels(input: ExplicitGraph): { path: (string | number)[]; message: string } | null {
  if ((input.order === undefined) === (input.vertices === undefined)) return { path: [], message: 'give exactly one of `order` or `vertices`' };
  const labels = input.vertices?.map(canonicalLabel) ?? null;
  if (labels !== null) {
    for (let i = 0; i < labels.length; i++) {
      const first = labels.indexOf(labels[i] as string);
      if (first < i) return { path: ['vertices', i], message: `duplicate vertex "${labels[i]}" (also vertices[${first}])` };
    }
  }
  const order = input.order ?? labels?.length ?? 0;
  const seen = new Map<string, number>();
  for (const [i, [a, b]] of input.edges.entries()) {
    const ends = [canonicalLabel(a), canonicalLabel(b)];
    for (const [side, end] of ends.entries()) {
      const exists = labels !== null ? labels.includes(end) : /^(0|[1-9][0-9]*)$/.test(end) && Number(end) < order;
      if (!exists) {
        return { path: ['edges', i, side], message: `dangling edge: vertex "${end}" is not among the ${labels !== null ? 'listed vertices' : `vertices 0..${order - 1}`}` };
      }
    }
    if (ends[0] === ends[1]) return { path: ['edges', i], message: `loop at vertex "${ends[0]}": simple graphs have no loops` };
    const key = [...ends].sort(compareLabels).join('\u0000');
    const first = seen.get(key);
    if (first !== undefined) return { path: ['edges', i], message: `duplicate edge (same as edges[${first}]); simple graphs have no multi-edges` };
    seen.set(key, i);
  }
  return null;
}

/** The canonical form as it is stated: labels in canonical order, edges as sorted index pairs found by label. */
function canonicalByLabels(input: ExplicitGraph): GraphPayload {
  const labels = (input.vertices?.map(canonicalLabel) ?? Array.from({ length: input.order ?? 0 }, (_, i) => String(i))).sort(compareLabels);
  const edges = input.edges
    .map(([a, b]): [number, number] => {
      const u = labels.indexOf(canonicalLabel(a));
      const v = labels.indexOf(canonicalLabel(b));
      return u < v ? [u, v] : [v, u];
    })
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return { order: labels.length, labels, edges };
}

// Labels that meet each other: integers and their decimal strings, -0, a decimal with a leading
// zero, and a string that NFC normalization changes ("e" + combining acute = "é").
const label = fc.oneof(fc.integer({ min: 0, max: 7 }), fc.constantFrom(-0, '0', '3', '07', 'a', 'é', 'e\u0301', 'x'));
const explicitGraph = fc.oneof(
  fc.record({ order: fc.integer({ min: 0, max: 8 }), edges: fc.array(fc.tuple(label, label), { maxLength: 12 }) }),
  fc.record({ vertices: fc.array(label, { maxLength: 8 }), edges: fc.array(fc.tuple(label, label), { maxLength: 12 }) }),
  fc.record({ order: fc.integer({ min: 0, max: 4 }), vertices: fc.array(label, { maxLength: 3 }), edges: fc.array(fc.tuple(label, label), { maxLength: 3 }) }),
);

describe('ExplicitGraphSchema: the edge checks on vertex indices', () => {
  it('report the issue the rules on labels report (path and message), and accept the same graphs', () => {
    fc.assert(
      fc.property(explicitGraph, (graph) => {
        const parsed = ExplicitGraphSchema.safeParse(graph);
        const expected = firstIssueByLabels(graph);
        if (expected === null) expect(parsed.success).toBe(true);
        else expect(parsed.error?.issues.map((issue) => ({ path: issue.path, message: issue.message }))).toEqual([expected]);
      }),
      { numRuns: 2000 },
    );
  });

  it('canonicalGraph gives the canonical form found by labels, with no -0 among the indices', () => {
    fc.assert(
      fc.property(explicitGraph, (graph) => {
        const parsed = ExplicitGraphSchema.safeParse(graph);
        fc.pre(parsed.success);
        const canonical = canonicalGraph(parsed.data);
        expect(canonical).toEqual(canonicalByLabels(parsed.data));
        expect(canonical.edges.flat().some((index) => Object.is(index, -0))).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('reports the first edge joining a pair again, in a large graph given by order', () => {
    const edges: [number, number][] = [];
    for (let i = 0; i < 256; i++) for (let j = i + 1; j < 256; j++) if (i > 0 || j > 1) edges.push([i, j]);
    const first = edges.findIndex(([u, v]) => u === 3 && v === 255);
    edges.push([255, 3]);
    const parsed = ExplicitGraphSchema.safeParse({ order: 256, edges });
    expect(parsed.error?.issues).toMatchObject([{ path: ['edges', 32639], message: `duplicate edge (same as edges[${first}]); simple graphs have no multi-edges` }]);
  });
});

describe('a graph operand schema compiled by zod (as the capability host parses payloads)', () => {
  const schema = z.object(graphOperandShape).strict().superRefine(refineGraphOperand);
  const compiled = z.compile(schema);
  // Valid operands and every way of being invalid: wrong types, negative or fractional labels,
  // control characters, extra keys, tuples of the wrong length, two forms at once.
  const anything = fc.oneof(fc.integer({ min: -2, max: 7 }), fc.double({ min: 0, max: 4, noNaN: true }), fc.constantFrom('a', '', 'b\u0007', null, true), fc.constant([1, 2, 3]));
  const operand = fc.oneof(
    explicitGraph.map((graph) => ({ graph })),
    fc.record({ graph: fc.record({ order: anything, edges: fc.array(fc.oneof(fc.tuple(anything, anything), fc.array(anything, { maxLength: 3 })), { maxLength: 4 }) }) }),
    fc.record({ graph: explicitGraph, extra: fc.constant(1) }),
    fc.record({ graph6: fc.constantFrom('A_', 'Bw', '?', '', '~'), graph: fc.option(explicitGraph, { nil: undefined }) }),
  );

  it('parses to what zod parses at run time: the same data, or the same issues', () => {
    fc.assert(
      fc.property(operand, (input) => {
        const byRuntime = schema.safeParse(input);
        const byCompiled = compiled.safeParse(input);
        expect(byCompiled.success).toBe(byRuntime.success);
        if (byRuntime.success) expect(byCompiled.data).toEqual(byRuntime.data);
        else expect(byCompiled.error?.issues).toEqual(byRuntime.error.issues);
      }),
      { numRuns: 2000 },
    );
  });
});
