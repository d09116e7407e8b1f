/**
 * Exact counting invariants: triangles, and spanning trees by Kirchhoff's matrix-tree theorem.
 * Spanning-tree counts grow like n^(n-2) (about 2000 bits at 256 vertices), so they are computed
 * and returned as BigInt with a fraction-free determinant; no floating point is involved.
 */
import { adjacencyLists, type IndexedGraph } from './search.js';
import { isConnected } from './connectivity.js';

/**
 * The number of triangles (3-cycles, i.e. unordered vertex triples pairwise adjacent).
 *
 * For each edge {u, v} the common neighbours are counted by intersecting adjacency bitsets; each
 * triangle is thereby counted once per edge, three times in all. O(E * V / 32).
 */
export function triangleCount(graph: IndexedGraph): number {
  const n = graph.order;
  const words = Math.ceil(n / 32);
  const rows = new Uint32Array(n * words);
  for (const [u, v] of graph.edges) {
    rows[u * words + (v >>> 5)] = (rows[u * words + (v >>> 5)] ?? 0) | (1 << (v & 31));
    rows[v * words + (u >>> 5)] = (rows[v * words + (u >>> 5)] ?? 0) | (1 << (u & 31));
  }
  let total = 0;
  for (const [u, v] of graph.edges) {
    for (let w = 0; w < words; w++) total += popCount((rows[u * words + w] ?? 0) & (rows[v * words + w] ?? 0));
  }
  return total / 3;
}

function popCount(word: number): number {
  let x = word >>> 0;
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * The number of spanning trees τ(G), exactly.
 *
 * Kirchhoff's matrix-tree theorem: τ(G) is any cofactor of the Laplacian L = D - A; here the
 * determinant of L with the last row and column removed, computed by Bareiss' fraction-free
 * elimination in BigInt (every intermediate value is a minor, so every division is exact). The
 * reduced Laplacian of a connected graph is symmetric positive definite, which the elimination
 * exploits.
 *
 * Conventions: 0n for disconnected graphs; 1n for order 1 (the single vertex is its own spanning
 * tree); 0n for order 0, because a tree has at least one vertex, so the empty graph has no
 * spanning tree (consistent with {@link spanningTree} returning null there).
 */
export function spanningTreeCount(graph: IndexedGraph): bigint {
  const n = graph.order;
  if (n === 0 || !isConnected(graph)) return 0n;
  const size = n - 1;
  const matrix: bigint[][] = Array.from({ length: size }, () => new Array<bigint>(size).fill(0n));
  const adjacency = adjacencyLists(graph);
  for (let u = 0; u < size; u++) {
    const row = matrix[u] ?? [];
    row[u] = BigInt(adjacency[u]?.length ?? 0);
    for (const v of adjacency[u] ?? []) if (v < size) row[v] = -1n;
  }
  return symmetricBareissDeterminant(matrix);
}

/**
 * Determinant of a symmetric positive-definite BigInt matrix by Bareiss elimination, reading and
 * writing only the upper triangle (destroys `matrix`).
 *
 * After step k the entry (i, j) is the minor on rows {0..k, i} and columns {0..k, j} of the
 * input, which bounds entry growth and makes the division by the previous pivot exact. Those
 * minors are symmetric in i and j, so half the work suffices. The pivots are leading principal
 * minors, positive for a positive-definite matrix, so no row exchange is ever needed.
 */
function symmetricBareissDeterminant(matrix: bigint[][]): bigint {
  const size = matrix.length;
  let previousPivot = 1n;
  for (let k = 0; k < size; k++) {
    const pivotRow = matrix[k] ?? [];
    const pivot = pivotRow[k] ?? 0n;
    if (pivot <= 0n) throw new Error(`internal error: non-positive pivot ${pivot} in a reduced Laplacian`);
    for (let i = k + 1; i < size; i++) {
      const row = matrix[i] ?? [];
      const factor = pivotRow[i] ?? 0n; // entry (i, k), read from the upper triangle
      for (let j = i; j < size; j++) {
        const scaled = (row[j] ?? 0n) * pivot;
        // Skipping the product when `factor` is zero matters for sparse Laplacians.
        row[j] = (factor === 0n ? scaled : scaled - factor * (pivotRow[j] ?? 0n)) / previousPivot;
      }
    }
    previousPivot = pivot;
  }
  return previousPivot;
}

/**
 * One spanning tree of `graph`: the breadth-first-search tree from vertex 0, as `order - 1`
 * edges `[u, v]` with `u < v`, sorted. `null` when the graph is disconnected or has order 0
 * (see {@link spanningTreeCount}); `[]` for order 1.
 */
export function spanningTree(graph: IndexedGraph): [number, number][] | null {
  const n = graph.order;
  if (n === 0) return null;
  const adjacency = adjacencyLists(graph);
  const seen = new Uint8Array(n);
  const order = [0];
  const tree: [number, number][] = [];
  seen[0] = 1;
  for (let i = 0; i < order.length; i++) {
    const x = order[i] ?? 0;
    for (const w of adjacency[x] ?? []) {
      if (seen[w] === 0) {
        seen[w] = 1;
        order.push(w);
        tree.push(x < w ? [x, w] : [w, x]);
      }
    }
  }
  if (tree.length !== n - 1) return null;
  return tree.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
