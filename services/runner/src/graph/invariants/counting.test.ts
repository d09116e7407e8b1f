import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { spanningTree, spanningTreeCount, triangleCount } from './counting.js';
import type { IndexedGraph } from './search.js';
import { completeBipartite, completeGraph, cycle, friendshipGraph, graphOf, hypercube, mulberry32, path, PETERSEN, randomGraph, type Edge } from '../test-graphs.js';

/** Triangles by checking every vertex triple. */
function bruteForceTriangles(graph: IndexedGraph): number {
  const n = graph.order;
  const adjacent = new Uint8Array(n * n);
  for (const [u, v] of graph.edges) adjacent[u * n + v] = adjacent[v * n + u] = 1;
  let count = 0;
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      if (adjacent[a * n + b] === 0) continue;
      for (let c = b + 1; c < n; c++) if (adjacent[a * n + c] === 1 && adjacent[b * n + c] === 1) count++;
    }
  }
  return count;
}

/** Whether `edges` connect all `order` vertices (with order - 1 edges: whether they form a tree). */
function spansConnected(order: number, edges: readonly (readonly [number, number])[]): boolean {
  const root = Array.from({ length: order }, (_, v) => v);
  const find = (v: number): number => (root[v] === v ? v : (root[v] = find(root[v] ?? v)));
  let merges = 0;
  for (const [u, v] of edges) {
    const [a, b] = [find(u), find(v)];
    if (a !== b) {
      root[a] = b;
      merges++;
    }
  }
  return merges === order - 1;
}

/** Spanning trees by enumerating every (n - 1)-edge subset and keeping those forming a tree. */
function bruteForceSpanningTrees(graph: IndexedGraph): number {
  const n = graph.order;
  if (n === 0) return 0;
  const m = graph.edges.length;
  let count = 0;
  const chosen: Edge[] = [];
  const choose = (index: number): void => {
    if (chosen.length === n - 1) {
      if (spansConnected(n, chosen)) count++;
      return;
    }
    if (m - index < n - 1 - chosen.length) return;
    chosen.push(graph.edges[index] ?? [0, 0]);
    choose(index + 1);
    chosen.pop();
    choose(index + 1);
  };
  choose(0);
  return count;
}

/** The reduced Laplacian determinant in floating point (partial pivoting), rounded: fine below 2^40. */
function floatSpanningTrees(graph: IndexedGraph): number {
  const n = graph.order;
  if (n === 0) return 0;
  // Remove vertex 0 (the implementation removes the last one): any cofactor is τ(G).
  const a = Array.from({ length: n - 1 }, () => new Array<number>(n - 1).fill(0));
  for (const [u, v] of graph.edges) {
    for (const [x, y] of [[u, v], [v, u]] as const) {
      if (x > 0) {
        (a[x - 1] ?? [])[x - 1] = (a[x - 1]?.[x - 1] ?? 0) + 1;
        if (y > 0) (a[x - 1] ?? [])[y - 1] = -1;
      }
    }
  }
  let det = 1;
  for (let k = 0; k < n - 1; k++) {
    let pivot = k;
    for (let i = k + 1; i < n - 1; i++) if (Math.abs(a[i]?.[k] ?? 0) > Math.abs(a[pivot]?.[k] ?? 0)) pivot = i;
    if (Math.abs(a[pivot]?.[k] ?? 0) < 1e-9) return 0;
    if (pivot !== k) {
      [a[k], a[pivot]] = [a[pivot] ?? [], a[k] ?? []];
      det = -det;
    }
    const rowK = a[k] ?? [];
    det *= rowK[k] ?? 0;
    for (let i = k + 1; i < n - 1; i++) {
      const row = a[i] ?? [];
      const factor = (row[k] ?? 0) / (rowK[k] ?? 1);
      for (let j = k; j < n - 1; j++) row[j] = (row[j] ?? 0) - factor * (rowK[j] ?? 0);
    }
  }
  return Math.round(det);
}

/** The reduced Laplacian determinant modulo a prime p < 2^26 (so products stay exact doubles). */
function modularSpanningTrees(graph: IndexedGraph, p: number): number {
  const n = graph.order;
  const size = n - 1;
  // Remove vertex 0 here, unlike the implementation, so the two computations share nothing.
  const a = new Float64Array(size * size);
  for (const [u, v] of graph.edges) {
    for (const [x, y] of [[u, v], [v, u]] as const) {
      if (x > 0) {
        a[(x - 1) * size + (x - 1)] = (a[(x - 1) * size + (x - 1)] ?? 0) + 1;
        if (y > 0) a[(x - 1) * size + (y - 1)] = p - 1;
      }
    }
  }
  const inverse = (x: number): number => {
    // Fermat: x^(p-2) mod p, by square-and-multiply with exact products below 2^52.
    let result = 1;
    let base = x % p;
    for (let e = p - 2; e > 0; e = Math.floor(e / 2)) {
      if (e % 2 === 1) result = (result * base) % p;
      base = (base * base) % p;
    }
    return result;
  };
  let det = 1;
  for (let k = 0; k < size; k++) {
    let pivot = k;
    while (pivot < size && (a[pivot * size + k] ?? 0) % p === 0) pivot++;
    if (pivot === size) return 0;
    if (pivot !== k) {
      for (let j = 0; j < size; j++) {
        const t = a[k * size + j] ?? 0;
        a[k * size + j] = a[pivot * size + j] ?? 0;
        a[pivot * size + j] = t;
      }
      det = (p - det) % p;
    }
    const pivotValue = (a[k * size + k] ?? 0) % p;
    det = (det * pivotValue) % p;
    const pivotInverse = inverse(pivotValue);
    for (let i = k + 1; i < size; i++) {
      const factor = (((a[i * size + k] ?? 0) % p) * pivotInverse) % p;
      if (factor === 0) continue;
      for (let j = k; j < size; j++) {
        a[i * size + j] = ((a[i * size + j] ?? 0) + (p - ((factor * ((a[k * size + j] ?? 0) % p)) % p))) % p;
      }
    }
  }
  return det;
}

/** The witness is a spanning tree of the graph, in canonical form. */
function expectValidSpanningTree(graph: IndexedGraph, tree: [number, number][] | null): void {
  expect(tree).not.toBeNull();
  const edges = tree ?? [];
  const present = new Set(graph.edges.map(([u, v]) => u * graph.order + v));
  expect(edges.length).toBe(graph.order - 1);
  for (const [u, v] of edges) {
    expect(u).toBeLessThan(v);
    expect(present.has(u * graph.order + v)).toBe(true);
  }
  expect(edges).toEqual([...edges].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  expect(spansConnected(graph.order, edges)).toBe(true);
}

describe('triangleCount', () => {
  it('counts C(n, 3) in K_n, none in bipartite or triangle-free graphs', () => {
    for (let n = 0; n <= 30; n++) expect(triangleCount(completeGraph(n))).toBe(n < 3 ? 0 : (n * (n - 1) * (n - 2)) / 6);
    expect(triangleCount(completeGraph(256))).toBe(2763520);
    expect(triangleCount(PETERSEN)).toBe(0);
    expect(triangleCount(hypercube(6))).toBe(0);
    expect(triangleCount(completeBipartite(7, 9))).toBe(0);
    expect(triangleCount(cycle(3))).toBe(1);
    expect(triangleCount(cycle(4))).toBe(0);
    expect(triangleCount({ order: 0, edges: [] })).toBe(0);
  });

  it('counts n triangles in the wheel W_n (n >= 4) and k in the friendship graph F_k', () => {
    for (let n = 4; n <= 20; n++) {
      const wheel = graphOf(n + 1, [...cycle(n).edges, ...Array.from({ length: n }, (_, i): Edge => [i, n])]);
      expect(triangleCount(wheel)).toBe(n);
    }
    for (let k = 1; k <= 10; k++) expect(triangleCount(friendshipGraph(k))).toBe(k);
  });

  it('agrees with checking every triple on 400 random graphs and on G(256, 0.1)', () => {
    const random = mulberry32(3);
    for (let i = 0; i < 400; i++) {
      const graph = randomGraph(i % 40, random(), random);
      expect(triangleCount(graph)).toBe(bruteForceTriangles(graph));
    }
    const large = randomGraph(256, 0.1, mulberry32(256));
    expect(triangleCount(large)).toBe(bruteForceTriangles(large));
  });
});

describe('spanningTreeCount: known values', () => {
  it('follows the conventions for orders 0 and 1 and for disconnected graphs', () => {
    expect(spanningTreeCount({ order: 0, edges: [] })).toBe(0n);
    expect(spanningTreeCount({ order: 1, edges: [] })).toBe(1n);
    expect(spanningTreeCount({ order: 2, edges: [] })).toBe(0n);
    expect(spanningTreeCount(graphOf(6, [...completeGraph(3).edges, [3, 4], [4, 5], [3, 5]]))).toBe(0n);
  });

  it("gives Cayley's n^(n-2) for K_n, including K_10 = 100000000 and K_128", () => {
    for (let n = 1; n <= 16; n++) expect(spanningTreeCount(completeGraph(n))).toBe(BigInt(n) ** BigInt(Math.max(0, n - 2)));
    expect(spanningTreeCount(completeGraph(10))).toBe(100000000n);
    expect(spanningTreeCount(completeGraph(128))).toBe(128n ** 126n);
  });

  it('gives 2000 for Petersen, 42467328 for Q_4, n for C_n, 1 for trees', () => {
    expect(spanningTreeCount(PETERSEN)).toBe(2000n);
    expect(spanningTreeCount(hypercube(3))).toBe(384n);
    expect(spanningTreeCount(hypercube(4))).toBe(42467328n);
    for (let n = 3; n <= 40; n++) expect(spanningTreeCount(cycle(n))).toBe(BigInt(n));
    for (let n = 1; n <= 40; n++) expect(spanningTreeCount(path(n))).toBe(1n);
    expect(spanningTreeCount(completeBipartite(1, 12))).toBe(1n);
    expect(spanningTreeCount(graphOf(9, [[0, 1], [0, 2], [1, 3], [1, 4], [2, 5], [5, 6], [5, 7], [7, 8]]))).toBe(1n);
  });

  it('gives m^(n-1) n^(m-1) for K_{m,n}', () => {
    for (let m = 1; m <= 8; m++) {
      for (let n = 1; n <= 8; n++) {
        expect(spanningTreeCount(completeBipartite(m, n))).toBe(BigInt(m) ** BigInt(n - 1) * BigInt(n) ** BigInt(m - 1));
      }
    }
    expect(spanningTreeCount(completeBipartite(30, 40))).toBe(30n ** 39n * 40n ** 29n);
  });
});

describe('spanningTreeCount and spanningTree: cross-checks', () => {
  it('agree with subset enumeration (or a float determinant when dense) on 400 random graphs', () => {
    const random = mulberry32(11);
    let enumerated = 0;
    for (let i = 0; i < 400; i++) {
      const graph = randomGraph(i % 10, 0.2 + 0.7 * random(), random);
      const count = spanningTreeCount(graph);
      if (graph.edges.length <= 20) {
        expect(count).toBe(BigInt(bruteForceSpanningTrees(graph)));
        enumerated++;
      } else {
        expect(count).toBe(BigInt(floatSpanningTrees(graph)));
      }
      const tree = spanningTree(graph);
      if (count === 0n) expect(tree).toBeNull();
      else expectValidSpanningTree(graph, tree);
    }
    expect(enumerated).toBeGreaterThan(200);
  });

  it('is multiplicative over blocks joined at a cut vertex and under bridges', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), fc.integer(), (p, q, seed) => {
        const random = mulberry32(seed);
        const a = randomGraph(p, 0.7, random);
        const b = randomGraph(q, 0.7, random);
        const shifted = b.edges.map(([u, v]): Edge => [u + p - 1, v + p - 1]);
        // Identify the last vertex of `a` with the first of `b`.
        const glued = graphOf(p + q - 1, [...a.edges, ...shifted]);
        expect(spanningTreeCount(glued)).toBe(spanningTreeCount(a) * spanningTreeCount(b));
        // Or join them by a bridge.
        const bridged = graphOf(p + q, [...a.edges, ...b.edges.map(([u, v]): Edge => [u + p, v + p]), [p - 1, p]]);
        expect(spanningTreeCount(bridged)).toBe(spanningTreeCount(a) * spanningTreeCount(b));
      }),
      { numRuns: 200 },
    );
  });

  it('agrees with a modular determinant on random graphs of order 256', () => {
    for (const [density, seed] of [
      [0.1, 1],
      [0.02, 2],
    ] as const) {
      const graph = randomGraph(256, density, mulberry32(seed));
      const count = spanningTreeCount(graph);
      for (const p of [1_000_003, 999_983, 67_108_859]) expect(Number(count % BigInt(p))).toBe(modularSpanningTrees(graph, p));
      const tree = spanningTree(graph);
      if (count === 0n) expect(tree).toBeNull();
      else expectValidSpanningTree(graph, tree);
    }
  });
});

describe('spanningTree', () => {
  it('follows the conventions for orders 0 and 1 and for disconnected graphs', () => {
    expect(spanningTree({ order: 0, edges: [] })).toBeNull();
    expect(spanningTree({ order: 1, edges: [] })).toEqual([]);
    expect(spanningTree({ order: 3, edges: [[0, 1]] })).toBeNull();
  });

  it('returns the BFS tree from vertex 0', () => {
    expect(spanningTree(completeGraph(4))).toEqual([[0, 1], [0, 2], [0, 3]]);
    expect(spanningTree(cycle(5))).toEqual([[0, 1], [0, 4], [1, 2], [3, 4]]);
    expectValidSpanningTree(PETERSEN, spanningTree(PETERSEN));
    expectValidSpanningTree(hypercube(8), spanningTree(hypercube(8)));
  });
});
