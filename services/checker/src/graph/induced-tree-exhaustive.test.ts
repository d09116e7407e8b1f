import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JacobianError } from '@jacobian/shared';
import {
  EXHAUSTIVE_MAX_ORDER,
  checkMaximumInducedTreeClaim,
  exhaustiveMaximumInducedTree,
} from './induced-tree-exhaustive.js';
import { mulberry32 as prng } from '@jacobian/shared/testing';

type Graph = { order: number; edges: [number, number][] };


function randomGraph(order: number, density: number, rand: () => number): Graph {
  const edges: [number, number][] = [];
  for (let u = 0; u < order; u++) for (let v = u + 1; v < order; v++) if (rand() < density) edges.push([u, v]);
  return { order, edges };
}

/**
 * Reference brute force with a different shape from the checker: vertex arrays, edge-list
 * scans and union-find instead of bitmask flooding.
 */
function referenceIsTree(graph: Graph, vertices: number[]): boolean {
  if (vertices.length === 0) return false;
  const inSet = new Set(vertices);
  const parent = new Map<number, number>(vertices.map((v) => [v, v]));
  const find = (v: number): number => {
    let r = v;
    while (parent.get(r) !== r) r = parent.get(r) as number;
    return r;
  };
  let edges = 0;
  for (const [u, v] of graph.edges) {
    if (!inSet.has(u) || !inSet.has(v)) continue;
    edges++;
    const ru = find(u);
    const rv = find(v);
    if (ru === rv) return false; // cycle
    parent.set(ru, rv);
  }
  return edges === vertices.length - 1;
}

function referenceMaximum(graph: Graph): number {
  let best = 0;
  const visit = (next: number, chosen: number[]): void => {
    if (next === graph.order) {
      if (chosen.length > best && referenceIsTree(graph, chosen)) best = chosen.length;
      return;
    }
    visit(next + 1, chosen);
    chosen.push(next);
    visit(next + 1, chosen);
    chosen.pop();
  };
  visit(0, []);
  return best;
}

const PETERSEN: Graph = {
  order: 10,
  edges: [
    [0, 1], [0, 4], [0, 5], [1, 2], [1, 6], [2, 3], [2, 7], [3, 4],
    [3, 8], [4, 9], [5, 7], [5, 8], [6, 8], [6, 9], [7, 9],
  ],
};

describe('exhaustiveMaximumInducedTree', () => {
  it('agrees with a separate brute force on seeded random graphs', () => {
    const rand = prng(20240611);
    for (let i = 0; i < 60; i++) {
      const order = i % 12;
      const density = [0.1, 0.3, 0.5, 0.8][i % 4] as number;
      const graph = randomGraph(order, density, rand);
      const result = exhaustiveMaximumInducedTree(graph);
      expect(result.maximum).toBe(referenceMaximum(graph));
      expect(result.witness).toHaveLength(result.maximum);
      expect(result.subsets_examined).toBe(2 ** order);
      if (order > 0) expect(referenceIsTree(graph, result.witness)).toBe(true);
    }
  });

  it('handles the empty graph and known families', () => {
    expect(exhaustiveMaximumInducedTree({ order: 0, edges: [] })).toEqual({
      maximum: 0,
      witness: [],
      subsets_examined: 1,
    });
    expect(exhaustiveMaximumInducedTree({ order: 5, edges: [] }).maximum).toBe(1);
    const complete: Graph = { order: 6, edges: [] };
    for (let u = 0; u < 6; u++) for (let v = u + 1; v < 6; v++) complete.edges.push([u, v]);
    expect(exhaustiveMaximumInducedTree(complete).maximum).toBe(2);
    const cycle: Graph = { order: 7, edges: [[0, 6], ...Array.from({ length: 6 }, (_, i) => [i, i + 1] as [number, number])] };
    expect(exhaustiveMaximumInducedTree(cycle).maximum).toBe(6);
  });

  it('finds the Petersen graph value (brute force agrees)', () => {
    const result = exhaustiveMaximumInducedTree(PETERSEN);
    expect(result.maximum).toBe(referenceMaximum(PETERSEN));
    expect(result.maximum).toBe(7);
    expect(referenceIsTree(PETERSEN, result.witness)).toBe(true);
  });

  it('handles the largest supported order and refuses order 15', () => {
    const rand = prng(7);
    const graph = randomGraph(EXHAUSTIVE_MAX_ORDER, 0.3, rand);
    expect(exhaustiveMaximumInducedTree(graph).subsets_examined).toBe(16384);
    const big = { order: 15, edges: [] };
    expect(() => exhaustiveMaximumInducedTree(big)).toThrow(JacobianError);
    try {
      exhaustiveMaximumInducedTree(big);
    } catch (error) {
      expect((error as JacobianError).code).toBe('CHECKER_UNSUPPORTED');
    }
    try {
      checkMaximumInducedTreeClaim(big, { maximum: 1, witness: [0] });
      expect.unreachable();
    } catch (error) {
      expect((error as JacobianError).code).toBe('CHECKER_UNSUPPORTED');
    }
  });
});

describe('checkMaximumInducedTreeClaim', () => {
  // Path 0-1-2-3 plus a triangle 3-4-5: maximum induced tree is 0,1,2,3,4 (size 5).
  const graph: Graph = { order: 6, edges: [[0, 1], [1, 2], [2, 3], [3, 4], [3, 5], [4, 5]] };

  it('accepts a correct claim', () => {
    expect(checkMaximumInducedTreeClaim(graph, { maximum: 5, witness: [0, 1, 2, 3, 4] })).toEqual({
      accepted: true,
      maximum: 5,
      subsets_examined: 64,
    });
    expect(checkMaximumInducedTreeClaim({ order: 0, edges: [] }, { maximum: 0, witness: [] }).accepted).toBe(true);
    expect(checkMaximumInducedTreeClaim(PETERSEN, exhaustiveMaximumInducedTree(PETERSEN)).accepted).toBe(true);
  });

  const rejections: [string, { maximum: number; witness: number[] }, string][] = [
    ['disconnected witness', { maximum: 2, witness: [0, 2] }, 'WITNESS_NOT_INDUCED_TREE'],
    ['witness with a cycle', { maximum: 3, witness: [3, 4, 5] }, 'WITNESS_NOT_INDUCED_TREE'],
    ['empty witness on a non-empty graph', { maximum: 0, witness: [] }, 'WITNESS_NOT_INDUCED_TREE'],
    ['witness of the wrong size', { maximum: 5, witness: [0, 1, 2, 3] }, 'WITNESS_SIZE_MISMATCH'],
    ['maximum too small', { maximum: 4, witness: [0, 1, 2, 3] }, 'NOT_MAXIMUM'],
    ['maximum too large', { maximum: 6, witness: [0, 1, 2, 3, 4] }, 'WITNESS_SIZE_MISMATCH'],
    ['vertex out of range', { maximum: 2, witness: [5, 6] }, 'WITNESS_OUT_OF_RANGE'],
    ['negative vertex', { maximum: 2, witness: [-1, 0] }, 'WITNESS_OUT_OF_RANGE'],
    ['non-integer vertex', { maximum: 2, witness: [0.5, 1] }, 'WITNESS_OUT_OF_RANGE'],
    ['duplicate vertices', { maximum: 3, witness: [0, 1, 1] }, 'WITNESS_OUT_OF_RANGE'],
  ];
  it.each(rejections)('rejects %s', (_name, claim, code) => {
    const verdict = checkMaximumInducedTreeClaim(graph, claim);
    expect(verdict.accepted).toBe(false);
    if (!verdict.accepted) {
      expect(verdict.reason_code).toBe(code);
      expect(verdict.message.length).toBeGreaterThan(0);
    }
  });

  it('rejects any claim whose maximum differs from the exhaustive maximum (property)', () => {
    const graphArb = fc
      .integer({ min: 0, max: 9 })
      .chain((order) =>
        fc.record({
          order: fc.constant(order),
          edges: fc.subarray(
            Array.from({ length: order }, (_, u) =>
              Array.from({ length: order - u - 1 }, (_, i) => [u, u + i + 1] as [number, number]),
            ).flat(),
          ),
        }),
      );
    fc.assert(
      fc.property(
        graphArb,
        fc.integer({ min: -2, max: 11 }),
        fc.integer({ min: 0, max: 1 << 9 }),
        (g, maximum, witnessBits) => {
          const truth = exhaustiveMaximumInducedTree(g).maximum;
          fc.pre(maximum !== truth);
          // Try both an arbitrary witness and an actual (valid) induced tree as witness.
          const arbitrary = Array.from({ length: g.order }, (_, v) => v).filter((v) => (witnessBits >>> v) & 1);
          const real = exhaustiveMaximumInducedTree(g).witness;
          for (const witness of [arbitrary, real]) {
            expect(checkMaximumInducedTreeClaim(g, { maximum, witness }).accepted).toBe(false);
          }
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });
});
