/**
 * graph.enumerate.nonisomorphic: every simple graph of a given order up to isomorphism, with
 * filters (connected, 2-connected, triangle-free, C4-free, bipartite, degree and edge-count
 * bounds), counted exactly and listed in graph6: inline when few, else as paged artifacts.
 *
 * Served by nauty's geng when it is installed (enumerate-geng.ts) and by our TypeScript
 * canonical augmentation otherwise (enumerate.kernel.ts, isolated); which one answered is part
 * of the answer (`method`), since the order of the graphs, their labellings and the shard split
 * depend on it. The count is the same either way: both are exact.
 *
 * Nothing is concluded unless the enumeration finished: a budget that ends first gives TIMEOUT,
 * never a count. Every listed graph is decoded and checked against the filters by plain code
 * that shares nothing with either provider; that no two listed graphs are isomorphic rests on
 * the provider.
 *
 * The page payload contract lives here for now; it belongs with the shared graph contracts.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  decodeGraph6,
  JacobianError,
  runKernel,
  toAppError,
  type CapabilityContext,
  type CapabilityDefinition,
  type IndexedGraph,
  type ProviderRuntime,
} from '@jacobian/shared';
import { GENG_MAX_ORDER, GENG_PROVIDER, gengMethod, runGeng, type GengProbe, type GengTool } from './enumerate-geng.js';
import {
  ENUMERATE_TS_MAX_ORDER,
  EnumerationOutcome,
  nullGraphQualifies,
  type EnumerateKernelInput,
  type EnumerationFilters,
  type EnumerationShard,
} from './enumerate.kernel.js';

/** Provider name of the TypeScript fallback (its identity digest covers the files that implement it). */
export const ENUMERATE_TS_PROVIDER = 'jacobian-graph-enumerate-ts';

/** Features the TypeScript provider declares (for its ProviderRuntime). */
export const ENUMERATE_TS_FEATURES: readonly string[] = ['graph-enumeration', 'canonical-augmentation', `max-order-${ENUMERATE_TS_MAX_ORDER}`];

/**
 * Method name of the TypeScript enumeration. Bump it whenever a change to enumerate.kernel.ts
 * (or the canonical labelling it uses) changes the order of its output or its shard split, so
 * shards of different versions are never combined.
 */
export const TS_ENUMERATION_METHOD = 'jacobian-ts-enumerate-1 (canonical augmentation)';

/** Schema of one page of a listing. */
export const ENUMERATION_PAGE_SCHEMA_URI = 'jacobian:schema/graph.enumeration.page/v1';
/** What a page means: part of the list of one isomorphism class representative per class in scope. */
export const ENUMERATION_PAGE_SEMANTICS_URI = 'jacobian:semantics/graph.enumeration.nonisomorphic/v1';

/** Listings of at most this many graphs are returned inline. */
export const INLINE_MAX_GRAPHS = 200;
/** Most graphs on one page (fewer when the artifact store's payload limit demands it). */
export const PAGE_MAX_GRAPHS = 10_000;
/** Most shards a request may split into. */
export const MAX_SHARDS = 100_000;

const Int = z.number().int().min(0);

const ShardSchema = z
  .object({
    index: Int.describe('which shard, 0 ≤ index < count'),
    count: z.number().int().min(1).max(MAX_SHARDS).describe('how many shards the enumeration is split into'),
  })
  .strict();

/** Input of graph.enumerate.nonisomorphic. Absent filters do not restrict. */
export const EnumerateInput = z
  .object({
    order: Int.max(GENG_MAX_ORDER).describe(
      `number of vertices n (at most ${GENG_MAX_ORDER} with nauty's geng, ${ENUMERATE_TS_MAX_ORDER} with the TypeScript fallback; see limits.max_order)`,
    ),
    connected: z.boolean().optional().describe('only connected graphs (the graphs with 0 and 1 vertex count as connected, as OEIS A001349 does)'),
    biconnected: z.boolean().optional().describe('only 2-connected graphs: at least 3 vertices, connected, no cut vertex (as geng -C)'),
    triangle_free: z.boolean().optional().describe('only graphs without a triangle'),
    c4_free: z.boolean().optional().describe('only graphs without a 4-cycle as a subgraph (not necessarily induced)'),
    bipartite: z.boolean().optional().describe('only bipartite graphs'),
    min_degree: Int.max(1000).optional().describe('every vertex has at least this degree'),
    max_degree: Int.max(1000).optional().describe('every vertex has at most this degree'),
    min_edges: Int.max(1_000_000).optional().describe('at least this many edges'),
    max_edges: Int.max(1_000_000).optional().describe('at most this many edges'),
    shard: ShardSchema.optional().describe(
      "enumerate only one part of a split: with nauty, geng's res/mod split; with the TypeScript fallback, the search nodes of order max(1, n - 1), numbered in search order, taken modulo count. The shards 0..count-1 under one method are disjoint and together make up the whole class; shards from different methods do not combine",
    ),
    count_only: z.boolean().optional().describe('count the graphs without listing them'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.min_degree !== undefined && input.max_degree !== undefined && input.min_degree > input.max_degree) {
      ctx.addIssue({ code: 'custom', path: ['min_degree'], message: `min_degree ${input.min_degree} exceeds max_degree ${input.max_degree}` });
    }
    if (input.min_edges !== undefined && input.max_edges !== undefined && input.min_edges > input.max_edges) {
      ctx.addIssue({ code: 'custom', path: ['min_edges'], message: `min_edges ${input.min_edges} exceeds max_edges ${input.max_edges}` });
    }
    if (input.shard !== undefined && input.shard.index >= input.shard.count) {
      ctx.addIssue({ code: 'custom', path: ['shard', 'index'], message: `shard.index ${input.shard.index} must be below shard.count ${input.shard.count}` });
    }
  });
export type EnumerateInput = z.infer<typeof EnumerateInput>;

/** The filters as applied: every bound explicit, degrees clamped to 0..n−1 and edges to 0..C(n, 2). */
export const NormalizedFiltersSchema = z
  .object({
    connected: z.boolean(),
    biconnected: z.boolean(),
    triangle_free: z.boolean(),
    c4_free: z.boolean(),
    bipartite: z.boolean(),
    min_degree: Int,
    max_degree: Int,
    min_edges: Int,
    max_edges: Int,
  })
  .strict();

/** Payload of one page artifact (schema {@link ENUMERATION_PAGE_SCHEMA_URI}). */
export const EnumerationPagePayloadSchema = z
  .object({
    order: Int,
    filters: NormalizedFiltersSchema,
    shard: ShardSchema.nullable(),
    method: z.string().describe('what enumerated the graphs; their order and labellings depend on it'),
    page: Int.describe('0-based page number'),
    page_count: z.number().int().min(1),
    first_index: Int.describe('position of this page\'s first graph in the whole listing (0-based)'),
    total: Int.describe('the number of graphs in the whole listing, i.e. in scope'),
    graphs: z.array(z.string()).describe('graph6, no header, one representative per isomorphism class'),
  })
  .strict();
export type EnumerationPagePayload = z.infer<typeof EnumerationPagePayloadSchema>;

const PageRef = z
  .object({
    uri: z.string(),
    page: Int,
    first_index: Int,
    count: Int.describe('graphs on this page'),
  })
  .strict();

/** Output of graph.enumerate.nonisomorphic. */
export const EnumerateOutput = z
  .object({
    order: Int,
    filters: NormalizedFiltersSchema,
    shard: ShardSchema.nullable(),
    method: z.string().describe('what enumerated the graphs, e.g. "nauty-geng 2.8001 (32 bits)" or "' + TS_ENUMERATION_METHOD + '"'),
    count: Int.describe('the number of graphs in scope (the shard, when one was asked), up to isomorphism, exactly'),
    listing: z.enum(['INLINE', 'PAGED', 'NONE']).describe('INLINE: `graphs` holds them; PAGED: `pages` lists artifacts that hold them; NONE: count_only'),
    graphs: z.array(z.string()).nullable().describe('graph6 of one graph per isomorphism class, when listed inline'),
    pages: z.array(PageRef).describe(`page artifacts (${ENUMERATION_PAGE_SCHEMA_URI}) in order, when paged; their counts add up to count`),
  })
  .strict();
export type EnumerateOutput = z.infer<typeof EnumerateOutput>;

/** The implementation a registration serves with. */
export type EnumerationBackend = { kind: 'geng'; tool: GengTool } | { kind: 'typescript' };

/**
 * Pick the implementation for the provider that a probe chose (see firstHealthyOf): geng as its
 * probe vouched for it, or the TypeScript enumeration.
 *
 * @throws JacobianError REGISTRATION_INVALID for any other provider, or for geng without a
 *   successful probe: wiring mistakes, not run-time conditions.
 */
export function enumerationBackend(runtime: ProviderRuntime, geng: Pick<GengProbe, 'tool'>): EnumerationBackend {
  if (runtime.provider === GENG_PROVIDER) {
    const tool = geng.tool;
    if (tool === undefined) throw new JacobianError('REGISTRATION_INVALID', 'geng serves graph enumeration, but no geng probe succeeded');
    return { kind: 'geng', tool };
  }
  if (runtime.provider === ENUMERATE_TS_PROVIDER) return { kind: 'typescript' };
  throw new JacobianError('REGISTRATION_INVALID', `graph enumeration is served by ${GENG_PROVIDER} or ${ENUMERATE_TS_PROVIDER}, not ${runtime.provider}`);
}

const choose2 = (n: number): number => (n * (n - 1)) / 2;

/** The filters of a request made explicit for its order. */
export function normalizeFilters(input: EnumerateInput): EnumerationFilters {
  const n = input.order;
  const topDegree = Math.max(0, n - 1);
  return {
    connected: input.connected === true,
    biconnected: input.biconnected === true,
    triangle_free: input.triangle_free === true,
    c4_free: input.c4_free === true,
    bipartite: input.bipartite === true,
    min_degree: input.min_degree ?? 0,
    max_degree: Math.min(input.max_degree ?? topDegree, topDegree),
    min_edges: input.min_edges ?? 0,
    max_edges: Math.min(input.max_edges ?? choose2(n), choose2(n)),
  };
}

/**
 * Why no graph on n ≥ 1 vertices can pass the filters by counting degrees and edges alone, or
 * null when counting does not rule them out. It covers every case geng refuses as "impossible
 * mine,maxe,mindeg,maxdeg values" (geng exits with an error there instead of counting 0).
 */
export function emptyByCounting(n: number, f: EnumerationFilters): string | null {
  if (f.biconnected && n < 3) return 'a 2-connected graph has at least 3 vertices';
  let minDegree = f.min_degree;
  let minEdges = f.min_edges;
  if (f.connected || f.biconnected) {
    if (n > 1) minDegree = Math.max(minDegree, 1);
    minEdges = Math.max(minEdges, n - 1);
  }
  if (f.biconnected) minDegree = Math.max(minDegree, 2);
  if (minDegree > f.max_degree) return `the minimum degree would be at least ${minDegree} and the maximum degree at most ${f.max_degree}`;
  // The degrees sum to twice the edges: n·δ ≤ 2e ≤ n·Δ.
  minEdges = Math.max(minEdges, Math.ceil((n * minDegree) / 2));
  const maxEdges = Math.min(f.max_edges, Math.floor((n * f.max_degree) / 2));
  if (minEdges > maxEdges) return `the edge count would be at least ${minEdges} and at most ${maxEdges} (degree sum and edge bounds)`;
  return null;
}

/** Words for the class of graphs a request covers. */
export function describeClass(n: number, f: EnumerationFilters): string {
  const parts: string[] = [];
  if (f.biconnected) parts.push('2-connected (at least 3 vertices, connected, no cut vertex)');
  else if (f.connected) parts.push('connected');
  if (f.triangle_free) parts.push('triangle-free');
  if (f.c4_free) parts.push('without a 4-cycle as a subgraph');
  if (f.bipartite) parts.push('bipartite');
  if (f.min_degree > 0) parts.push(`minimum degree at least ${f.min_degree}`);
  if (f.max_degree < Math.max(0, n - 1)) parts.push(`maximum degree at most ${f.max_degree}`);
  if (f.min_edges === f.max_edges) parts.push(`exactly ${f.min_edges} edges`);
  else if (f.min_edges > 0 || f.max_edges < choose2(n)) parts.push(`between ${f.min_edges} and ${f.max_edges} edges`);
  const graphs = `the simple graphs on exactly ${n} vertices, one per isomorphism class`;
  return parts.length === 0 ? `all ${graphs}` : `${graphs}, satisfying all of: ${parts.join('; ')}`;
}

/**
 * null when `graph` passes the filters, else the first filter it fails, in words. Plain code
 * that shares nothing with geng or the TypeScript enumeration.
 */
export function filterViolation(graph: IndexedGraph, f: EnumerationFilters): string | null {
  const n = graph.order;
  const adjacent = new Uint8Array(n * n);
  const neighbours: number[][] = Array.from({ length: n }, () => []);
  for (const [u, v] of graph.edges) {
    adjacent[u * n + v] = 1;
    adjacent[v * n + u] = 1;
    neighbours[u]?.push(v);
    neighbours[v]?.push(u);
  }
  const m = graph.edges.length;
  if (m < f.min_edges || m > f.max_edges) return `has ${m} edges, outside ${f.min_edges}..${f.max_edges}`;
  for (const [v, list] of neighbours.entries()) {
    if (list.length < f.min_degree || list.length > f.max_degree) return `has vertex ${v} of degree ${list.length}, outside ${f.min_degree}..${f.max_degree}`;
  }
  /** Vertices reachable from `start` without passing `avoid` (−1: none). */
  const reachable = (start: number, avoid: number): number => {
    const seen = new Uint8Array(n);
    seen[start] = 1;
    const stack = [start];
    let count = 1;
    while (stack.length > 0) {
      const x = stack.pop() as number;
      for (const y of neighbours[x] ?? []) {
        if (y !== avoid && seen[y] === 0) {
          seen[y] = 1;
          count++;
          stack.push(y);
        }
      }
    }
    return count;
  };
  const isConnected = n <= 1 || reachable(0, -1) === n;
  if (f.connected && !isConnected) return 'is not connected';
  if (f.biconnected) {
    if (n < 3 || !isConnected) return 'is not 2-connected';
    for (let x = 0; x < n; x++) if (reachable(x === 0 ? 1 : 0, x) !== n - 1) return `is not 2-connected (vertex ${x} is a cut vertex)`;
  }
  if (f.triangle_free) {
    for (const [u, v] of graph.edges) {
      for (let w = 0; w < n; w++) if (adjacent[u * n + w] === 1 && adjacent[v * n + w] === 1) return `contains the triangle ${u} ${v} ${w}`;
    }
  }
  if (f.c4_free) {
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        let common = 0;
        for (let w = 0; w < n; w++) if (adjacent[a * n + w] === 1 && adjacent[b * n + w] === 1) common++;
        if (common >= 2) return `contains a 4-cycle through ${a} and ${b}`;
      }
    }
  }
  if (f.bipartite) {
    const side = new Int8Array(n).fill(-1);
    for (let s = 0; s < n; s++) {
      if (side[s] !== -1) continue;
      side[s] = 0;
      const queue = [s];
      for (let head = 0; head < queue.length; head++) {
        const x = queue[head] as number;
        for (const y of neighbours[x] ?? []) {
          if (side[y] === -1) {
            side[y] = side[x] === 0 ? 1 : 0;
            queue.push(y);
          } else if (side[y] === side[x]) {
            return 'is not bipartite';
          }
        }
      }
    }
  }
  return null;
}

/** Characters of the graph6 text of a graph on n ≤ 62 vertices. */
function graph6Length(n: number): number {
  return 1 + Math.ceil(choose2(n) / 6);
}

/** Graphs rechecked between yields to the event loop, so a long recheck leaves the runner responsive. */
const RECHECK_CHUNK = 4096;

/**
 * Decode every listed graph and check its order and the filters. Yields to the event loop
 * between chunks and stops when the run is cancelled or out of time.
 */
async function recheckListing(graphs: readonly string[], n: number, f: EnumerationFilters, who: string, context: CapabilityContext): Promise<void> {
  for (const [i, text] of graphs.entries()) {
    if (i % RECHECK_CHUNK === RECHECK_CHUNK - 1) {
      await yieldToEventLoop();
      stopIfOver(context, `while rechecking the graphs (${i} of ${graphs.length} done)`);
    }
    let graph: IndexedGraph;
    try {
      graph = decodeGraph6(text);
    } catch (error) {
      throw new JacobianError('PROVIDER_FAILED', `${who} listed ${JSON.stringify(text.slice(0, 100))} (graph ${i}), which is not graph6: ${toAppError(error).message}`);
    }
    const problem = graph.order === n ? filterViolation(graph, f) : `has ${graph.order} vertices, not ${n}`;
    if (problem !== null) throw new JacobianError('PROVIDER_FAILED', `${who} listed the graph ${text} (graph ${i}), which ${problem}; the answer was discarded`);
  }
}

/** Throw EXECUTION_CANCELLED or EXECUTION_TIMEOUT when the run must stop. */
function stopIfOver(context: CapabilityContext, when: string): void {
  if (context.signal.aborted && Date.now() < context.deadline) {
    throw new JacobianError('EXECUTION_CANCELLED', `the run was cancelled ${when}; nothing was concluded`);
  }
  if (context.signal.aborted || Date.now() >= context.deadline) {
    throw new JacobianError('EXECUTION_TIMEOUT', `the wall-time budget ended ${when}; nothing was concluded and no count is claimed`, { hint: 'raise budget.wall_time_ms, or split the enumeration with shard' });
  }
}

const tooManyToList = (limit: number): JacobianError =>
  new JacobianError('OUTPUT_LIMIT_EXCEEDED', `the listing of the graphs in scope is larger than ${limit} bytes of graph6 (budget.max_output_bytes); nothing was concluded`, {
    hint: 'ask count_only: true for the number alone, add filters, split the enumeration with shard {index, count}, or raise budget.max_output_bytes',
  });

const KERNEL = { module: fileURLToPath(new URL('./enumerate.kernel.ts', import.meta.url)), exportName: 'enumerateKernel' };

/** The kernel's answer, parsed again here because it crossed a process boundary. */
const KernelOutput = z
  .object({
    outcome: z.enum(EnumerationOutcome),
    count: Int,
    listing: z.string(),
    nodes: Int,
    canonical_labellings: Int,
  })
  .strict();

/** What a provider found: the exact count and, unless counting only, the graphs. */
interface Enumerated {
  count: number;
  graphs: string[] | null;
  basis: string;
}

async function enumerateWithGeng(tool: GengTool, n: number, f: EnumerationFilters, shard: EnumerationShard | null, countOnly: boolean, context: CapabilityContext): Promise<Enumerated> {
  const limit = context.budget.max_output_bytes;
  try {
    const answer = await runGeng(tool, { order: n, filters: f, shard, countOnly }, { signal: context.signal, deadline: context.deadline, maxOutputBytes: countOnly ? 4096 : limit });
    const basis =
      answer.graphs === null
        ? `geng -u ran to completion and reported ${answer.count} graphs (counted without writing them)`
        : `geng ran to completion; its reported count ${answer.count} equals the number of graph6 lines it wrote`;
    return { count: answer.count, graphs: answer.graphs, basis };
  } catch (error) {
    const failure = toAppError(error);
    if (failure.code === 'OUTPUT_LIMIT_EXCEEDED') throw tooManyToList(limit);
    if (failure.code === 'EXECUTION_TIMEOUT') {
      throw new JacobianError('EXECUTION_TIMEOUT', `geng was killed at the end of the wall-time budget; nothing was concluded and no count is claimed`, {
        hint: 'raise budget.wall_time_ms, or split the enumeration with shard {index, count}',
      });
    }
    throw failure;
  }
}

async function enumerateWithTypescript(n: number, f: EnumerationFilters, shard: EnumerationShard | null, countOnly: boolean, context: CapabilityContext): Promise<Enumerated> {
  // The listing crosses the process boundary as JSON, where a graph6 character may take two bytes.
  const maxListed = Math.max(0, Math.floor((context.budget.max_output_bytes - 1024) / (2 * graph6Length(n) + 1)));
  const input: EnumerateKernelInput = { order: n, filters: f, shard, list: !countOnly, max_listed: maxListed };
  const found = KernelOutput.parse(await runKernel(context, KERNEL, input));
  switch (found.outcome) {
    case 'STOPPED':
      stopIfOver(context, `after ${found.nodes} search nodes`);
      throw new JacobianError('EXECUTION_TIMEOUT', 'the enumeration was stopped before it finished; nothing was concluded and no count is claimed', { hint: 'raise budget.wall_time_ms' });
    case 'TOO_MANY_TO_LIST':
      throw tooManyToList(context.budget.max_output_bytes);
    case 'COMPLETE':
      break;
  }
  const graphs = countOnly ? null : found.listing === '' ? [] : found.listing.slice(0, -1).split('\n');
  if (graphs !== null && graphs.length !== found.count) {
    throw new JacobianError('PROVIDER_FAILED', `the TypeScript enumeration counted ${found.count} graphs but listed ${graphs.length}; the answer was discarded`);
  }
  return {
    count: found.count,
    graphs,
    basis: `the canonical augmentation search ran to completion (${found.nodes} search nodes, ${found.canonical_labellings} canonical labellings)`,
  };
}

/** Store a long listing as pages of at most PAGE_MAX_GRAPHS graphs, in order. */
async function storePages(
  graphs: readonly string[],
  header: Pick<EnumerationPagePayload, 'order' | 'filters' | 'shard' | 'method'>,
  context: CapabilityContext,
): Promise<z.infer<typeof PageRef>[]> {
  const perGraph = graph6Length(header.order) + 3;
  const perPage = Math.max(1, Math.min(PAGE_MAX_GRAPHS, Math.floor((context.artifacts.limits.maxPayloadBytes - 4096) / perGraph)));
  const pageCount = Math.ceil(graphs.length / perPage);
  const pages: z.infer<typeof PageRef>[] = [];
  for (let page = 0; page < pageCount; page++) {
    const first = page * perPage;
    const slice = graphs.slice(first, first + perPage);
    const payload: EnumerationPagePayload = EnumerationPagePayloadSchema.parse({ ...header, page, page_count: pageCount, first_index: first, total: graphs.length, graphs: slice });
    const stored = await context.artifacts.put(
      {
        schema_uri: ENUMERATION_PAGE_SCHEMA_URI,
        semantics_uri: ENUMERATION_PAGE_SEMANTICS_URI,
        payload,
        parents: [],
        summary: { order: header.order, page, page_count: pageCount, graphs: slice.length, total: graphs.length },
      },
      { signal: context.signal },
    );
    pages.push({ uri: stored.uri, page, first_index: first, count: slice.length });
  }
  return pages;
}

/**
 * The enumeration capability served by `backend` (see enumerationBackend): geng for orders up
 * to {@link GENG_MAX_ORDER}, or the TypeScript canonical augmentation up to
 * {@link ENUMERATE_TS_MAX_ORDER}.
 */
export function enumerateNonisomorphic(backend: EnumerationBackend): CapabilityDefinition<EnumerateInput, EnumerateOutput> {
  const geng = backend.kind === 'geng';
  const method = geng ? gengMethod(backend.tool) : TS_ENUMERATION_METHOD;
  const maxOrder = geng ? GENG_MAX_ORDER : ENUMERATE_TS_MAX_ORDER;
  const enumerator = geng ? "nauty's geng" : 'the TypeScript canonical augmentation';
  return {
    id: 'graph.enumerate.nonisomorphic',
    version: '1.0.0',
    title: 'Enumerate all graphs of an order up to isomorphism, with filters',
    description:
      'Lists (or counts) every simple graph on exactly n vertices, one per isomorphism class, optionally only those that are connected, 2-connected, triangle-free, ' +
      'C4-free, bipartite, within degree bounds or within an edge-count range. The count is exact; the graphs come as graph6, inline up to ' +
      `${INLINE_MAX_GRAPHS} and otherwise as page artifacts (${ENUMERATION_PAGE_SCHEMA_URI}) of at most ${PAGE_MAX_GRAPHS} each. ` +
      `A large enumeration can be split with shard {index, count} (the shards of one method are disjoint and together complete). ` +
      `Served here by ${geng ? `nauty's geng (${method}), orders up to ${GENG_MAX_ORDER}` : `the TypeScript fallback (${method}), orders up to ${ENUMERATE_TS_MAX_ORDER}`}. ` +
      'When the budget ends first the run concludes nothing (TIMEOUT), never a partial count.',
    tags: ['graph', 'enumeration', 'isomorphism', 'isomorph-free', 'generation', 'counting', 'graph6', 'geng', 'nauty', 'exact', 'exhaustive'],
    domain: 'graph',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [ENUMERATION_PAGE_SCHEMA_URI],
    input: EnumerateInput,
    output: EnumerateOutput,
    examples: [
      { title: 'The 21 connected graphs on 5 vertices', mode: 'EXPLORE', payload: { order: 5, connected: true } },
      { title: 'The 23 trees on 8 vertices', mode: 'EXPLORE', payload: { order: 8, connected: true, min_edges: 7, max_edges: 7 } },
      { title: 'How many triangle-free graphs on 9 vertices (1897)', mode: 'EXPLORE', payload: { order: 9, triangle_free: true, count_only: true } },
      { title: 'Shard 0 of 4 of the cubic graphs on 10 vertices', mode: 'EXPLORE', payload: { order: 10, min_degree: 3, max_degree: 3, shard: { index: 0, count: 4 } } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule:
      'Covers exactly the requested order and filters (and only the requested shard, when one is given): the count and the list of one graph per isomorphism class of that class, nothing about other orders or filters. ' +
      'Shards combine only with shards of the same count under the same method.',
    limits: {
      max_order: maxOrder,
      inline_max_graphs: INLINE_MAX_GRAPHS,
      page_max_graphs: PAGE_MAX_GRAPHS,
      max_shards: MAX_SHARDS,
      method,
      listing_bytes: geng
        ? 'a listing of more graph6 bytes (one line per graph) than budget.max_output_bytes is refused; count_only has no such bound'
        : 'a listing is refused when its graph6 lines could exceed half of budget.max_output_bytes (it crosses a process boundary as JSON); count_only has no such bound',
    },
    async run(input, context) {
      const n = input.order;
      // The input schema already caps the order at geng's limit; only the fallback has a lower one.
      if (n > maxOrder) {
        throw new JacobianError(
          'SIZE_LIMIT_EXCEEDED',
          `payload.order: ${n} vertices; this runner enumerates graphs with the TypeScript fallback, which accepts at most ${ENUMERATE_TS_MAX_ORDER} (nauty's geng, when installed, accepts up to ${GENG_MAX_ORDER})`,
          { path: ['payload', 'order'], hint: `ask for at most ${ENUMERATE_TS_MAX_ORDER} vertices, or ask the operator to install nauty (Debian package nauty) on the runners` },
        );
      }
      const filters = normalizeFilters(input);
      const shard = input.shard ?? null;
      const countOnly = input.count_only === true;
      const empty = n === 0 ? null : emptyByCounting(n, filters);
      let found: Enumerated;
      if (n === 0) {
        // geng starts at one vertex; the graph with none is decided here for both providers (in shard 0).
        const count = nullGraphQualifies(filters) && (shard === null || shard.index === 0) ? 1 : 0;
        found = { count, graphs: countOnly ? null : count === 1 ? ['?'] : [], basis: 'the only graph on 0 vertices was tested against the filters' };
      } else if (empty !== null) {
        found = { count: 0, graphs: countOnly ? null : [], basis: `no graph qualifies: ${empty}` };
      } else if (backend.kind === 'geng') {
        found = await enumerateWithGeng(backend.tool, n, filters, shard, countOnly, context);
      } else {
        found = await enumerateWithTypescript(n, filters, shard, countOnly, context);
      }
      if (found.graphs !== null) await recheckListing(found.graphs, n, filters, enumerator, context);

      const header = { order: n, filters, shard, method };
      const inline = found.graphs !== null && found.graphs.length <= INLINE_MAX_GRAPHS;
      const pages = found.graphs === null || inline ? [] : await storePages(found.graphs, header, context);
      const shardText =
        shard === null
          ? ''
          : `; only shard ${shard.index} of ${shard.count} under ${method} (the ${shard.count} shards under that method are disjoint and together make up the class)`;
      const listed = found.graphs === null ? '' : `; each listed graph was decoded and rechecked against the filters by plain TypeScript`;
      return {
        status: 'COMPLETED',
        output: {
          ...header,
          count: found.count,
          listing: found.graphs === null ? 'NONE' : inline ? 'INLINE' : 'PAGED',
          graphs: inline ? found.graphs : null,
          pages,
        },
        scope: {
          kind: 'EXACT_CLAIM',
          statement: `${describeClass(n, filters)}${shardText}; nothing about other orders or other filters`,
          input_uris: [],
        },
        completeness: { status: 'COMPLETE', basis: found.basis },
        qualifiers: ['EXACT', 'EXHAUSTIVE', 'DETERMINISTIC'],
        assurance: {
          level: 'COMPUTED',
          basis: `enumerated by ${enumerator} (${method})${listed}; that the graphs are pairwise non-isomorphic and that none is missing rests on the enumeration`,
          verification_record_uri: null,
          checker_id: null,
        },
        obligations: [],
        relationships: [],
        artifact_uris: pages.map((page) => page.uri),
        diagnostics: [],
      };
    },
  };
}
