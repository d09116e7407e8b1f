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
 * A listing is read as the provider writes it (enumerate-pages.ts): each graph rechecked, full
 * pages stored while geng is still running.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isDeepStrictEqual } from 'node:util';
import {
  decodeGraph6,
  JacobianError,
  MAX_SHARD_CHILDREN,
  runKernel,
  toAppError,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type IndexedGraph,
  type ProviderRuntime,
  type ShardChild,
  type ShardHooks,
  type ShardRequest,
} from '@jacobian/shared';
import { GENG_MAX_ORDER, GENG_PROVIDER, gengMethod, runGeng, streamGeng, type GengProbe, type GengTool } from './enumerate-geng.js';
import {
  ENUMERATION_PAGE_SCHEMA_URI,
  ENUMERATION_PAGE_SEMANTICS_URI,
  FIRST_PAGE_BYTES,
  INLINE_MAX_GRAPHS,
  ListingSink,
  MAX_SHARDS,
  NormalizedFiltersSchema,
  PAGE_MAX_BYTES,
  PageRefSchema,
  ShardSchema,
  type EnumerationPagePayload,
  type Listing,
  type PageHeader,
  type PageRef,
} from './enumerate-pages.js';
import {
  ENUMERATE_TS_MAX_ORDER,
  EnumerationOutcome,
  nullGraphQualifies,
  type EnumerateKernelInput,
  type EnumerationFilters,
} from './enumerate.kernel.js';

/** Provider name of the TypeScript fallback (its identity digest covers the files that implement it). */
export const ENUMERATE_TS_PROVIDER = 'jacobian-graph-enumerate-ts';

/**
 * The files of the TypeScript provider, for its SOURCE_TREE digest (sourceProviderRuntime):
 * the capability, the kernel and the labeller it uses, the listing sink and the recheck.
 */
export const ENUMERATE_TS_SOURCES: readonly string[] = ['./enumerate.ts', './enumerate.kernel.ts', './enumerate-canon.ts', './enumerate-pages.ts', './enumerate-recheck.ts'].map((file) =>
  fileURLToPath(new URL(file, import.meta.url)),
);

/** Features the TypeScript provider declares (for its ProviderRuntime). */
export const ENUMERATE_TS_FEATURES: readonly string[] = ['graph-enumeration', 'canonical-augmentation', `max-order-${ENUMERATE_TS_MAX_ORDER}`];

/**
 * Method name of the TypeScript enumeration. Bump it whenever a change to enumerate.kernel.ts
 * (or the canonical labelling it uses, enumerate-canon.ts) changes the order of its output or
 * its shard split, so shards of different versions are never combined. (2: the bit-row
 * labeller and the refinement before it choose differently among tied vertices, and shards
 * split two levels above the leaves.)
 */
export const TS_ENUMERATION_METHOD = 'jacobian-ts-enumerate-2 (canonical augmentation)';

export {
  ENUMERATION_PAGE_SCHEMA_URI,
  ENUMERATION_PAGE_SEMANTICS_URI,
  EnumerationPagePayloadSchema,
  INLINE_MAX_GRAPHS,
  MAX_SHARDS,
  NormalizedFiltersSchema,
  PAGE_MAX_BYTES,
  type EnumerationPagePayload,
} from './enumerate-pages.js';

const Int = z.number().int().min(0);

/** The capability's ID; its shard jobs are runs of it too. */
export const ENUMERATE_ID = 'graph.enumerate.nonisomorphic';

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
      "enumerate only one part of a split: with nauty, geng's res/mod split; with the TypeScript fallback, the search nodes of order max(1, n - 2), numbered in search order, taken modulo count. The shards 0..count-1 under one method are disjoint and together make up the whole class; shards from different methods do not combine",
    ),
    count_only: z.boolean().optional().describe('count the graphs without listing them'),
    split: z
      .object({
        shards: z
          .number()
          .int()
          .min(2)
          .max(MAX_SHARD_CHILDREN)
          .describe(`how many shard jobs to split into, 2..${MAX_SHARD_CHILDREN}`),
      })
      .strict()
      .optional()
      .describe(
        'run the enumeration as separate shard jobs that any runner may take, and merge them: the request with shard {index, count: shards} for each index, then one answer for the whole class (the count summed, the pages in shard order, every shard job and its pages listed). A run is split only when asked; a queue that cannot split runs it whole, with the same answer',
      ),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.min_degree !== undefined && input.max_degree !== undefined && input.min_degree > input.max_degree) {
      ctx.addIssue({ code: 'custom', path: ['min_degree'], message: `min_degree ${input.min_degree} exceeds max_degree ${input.max_degree}` });
    }
    if (input.min_edges !== undefined && input.max_edges !== undefined && input.min_edges > input.max_edges) {
      ctx.addIssue({ code: 'custom', path: ['min_edges'], message: `min_edges ${input.min_edges} exceeds max_edges ${input.max_edges}` });
    }
    if (input.split !== undefined && input.shard !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['split'], message: 'split and shard exclude each other: split runs every shard as its own job, shard asks for one of them' });
    }
    if (input.shard !== undefined && input.shard.index >= input.shard.count) {
      ctx.addIssue({ code: 'custom', path: ['shard', 'index'], message: `shard.index ${input.shard.index} must be below shard.count ${input.shard.count}` });
    }
  });
export type EnumerateInput = z.infer<typeof EnumerateInput>;

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
    pages: z.array(PageRefSchema).describe(`page artifacts (${ENUMERATION_PAGE_SCHEMA_URI}) in order, when paged; their counts add up to count`),
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

/**
 * The reference recheck of one listed graph: decode it with the shared graph6 decoder and test
 * its order and the filters with {@link filterViolation}. Throws PROVIDER_FAILED naming the
 * problem; returns when the graph is in the class.
 */
function referenceRecheck(n: number, f: EnumerationFilters, who: string): (text: string, index: number) => void {
  return (text, index) => {
    let graph: IndexedGraph;
    try {
      graph = decodeGraph6(text);
    } catch (error) {
      throw new JacobianError('PROVIDER_FAILED', `${who} listed ${JSON.stringify(text.slice(0, 100))} (graph ${index}), which is not graph6: ${toAppError(error).message}`);
    }
    const problem = graph.order === n ? filterViolation(graph, f) : `has ${graph.order} vertices, not ${n}`;
    if (problem !== null) throw new JacobianError('PROVIDER_FAILED', `${who} listed the graph ${text} (graph ${index}), which ${problem}; the answer was discarded`);
  };
}

/** Bytes of the TypeScript kernel's listing handed to the sink between yields to the event loop. */
const LISTING_SLICE_BYTES = 1 << 20;

/** Throw EXECUTION_CANCELLED or EXECUTION_TIMEOUT when the run must stop. */
function stopIfOver(context: CapabilityContext, when: string): void {
  if (context.signal.aborted && Date.now() < context.deadline) {
    throw new JacobianError('EXECUTION_CANCELLED', `the run was cancelled ${when}; nothing was concluded`);
  }
  if (context.signal.aborted || Date.now() >= context.deadline) {
    throw new JacobianError('EXECUTION_TIMEOUT', `the wall-time budget ended ${when}; nothing was concluded and no count is claimed`, { hint: 'raise budget.wall_time_ms, or split the enumeration into shard jobs with split {shards: k}' });
  }
}

const tooManyToList = (limit: number): JacobianError =>
  new JacobianError('OUTPUT_LIMIT_EXCEEDED', `the listing of the graphs in scope is larger than ${limit} bytes of graph6 (budget.max_output_bytes); nothing was concluded`, {
    hint: 'ask count_only: true for the number alone, add filters, split the enumeration into shard jobs with split {shards: k} (or ask one shard {index, count}), or raise budget.max_output_bytes',
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

/** What a provider found: the exact count and, unless counting only, the listing. */
interface Enumerated {
  count: number;
  listing: Listing | null;
  basis: string;
}

function gengFailure(error: unknown, limit: number): JacobianError {
  const failure = toAppError(error);
  if (failure.code === 'OUTPUT_LIMIT_EXCEEDED') return tooManyToList(limit);
  if (failure.code === 'EXECUTION_TIMEOUT') {
    return new JacobianError('EXECUTION_TIMEOUT', `geng was killed at the end of the wall-time budget; nothing was concluded and no count is claimed`, {
      hint: 'raise budget.wall_time_ms, or split the enumeration into shard jobs with split {shards: k} (or ask one shard {index, count})',
    });
  }
  return failure;
}

async function enumerateWithGeng(tool: GengTool, header: PageHeader, countOnly: boolean, who: string, context: CapabilityContext): Promise<Enumerated> {
  const limit = context.budget.max_output_bytes;
  const request = { order: header.order, filters: header.filters, shard: header.shard, countOnly };
  const run = { signal: context.signal, deadline: context.deadline, memoryMb: context.budget.memory_mb };
  if (countOnly) {
    try {
      const answer = await runGeng(tool, request, { ...run, maxOutputBytes: 4096 });
      return { count: answer.count, listing: null, basis: `geng -u ran to completion and reported ${answer.count} graphs (counted without writing them)` };
    } catch (error) {
      throw gengFailure(error, limit);
    }
  }
  // The lines are rechecked and paged as geng writes them, on this core while geng runs on another.
  const sink = new ListingSink({ header, context, reference: referenceRecheck(header.order, header.filters, who) });
  let count: number;
  try {
    count = await streamGeng(tool, request, { ...run, maxOutputBytes: limit }, (chunk) => sink.write(chunk));
  } catch (error) {
    throw gengFailure(error, limit);
  }
  if (sink.count !== count) throw new JacobianError('PROVIDER_FAILED', `geng reported ${count} graphs but wrote ${sink.count} lines; the answer was discarded`);
  const listing = await sink.end();
  return { count, listing, basis: `geng ran to completion; its reported count ${count} equals the number of graph6 lines it wrote` };
}

async function enumerateWithTypescript(header: PageHeader, countOnly: boolean, who: string, context: CapabilityContext): Promise<Enumerated> {
  const n = header.order;
  // The listing crosses the process boundary as a JSON string; 1 kB covers the rest of the answer.
  const input: EnumerateKernelInput = { order: n, filters: header.filters, shard: header.shard, list: !countOnly, max_listing_bytes: Math.max(0, context.budget.max_output_bytes - 1024) };
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
  const basis = `the canonical augmentation search ran to completion (${found.nodes} search nodes, ${found.canonical_labellings} canonical labellings)`;
  if (countOnly) return { count: found.count, listing: null, basis };
  const sink = new ListingSink({ header, context, reference: referenceRecheck(n, header.filters, who) });
  const bytes = Buffer.from(found.listing, 'latin1');
  for (let at = 0; at < bytes.length; at += LISTING_SLICE_BYTES) {
    const wait = sink.write(bytes.subarray(at, at + LISTING_SLICE_BYTES));
    if (wait !== null) await wait;
    await yieldToEventLoop();
    stopIfOver(context, `while rechecking and storing the graphs (${sink.count} of ${found.count} done)`);
  }
  if (sink.count !== found.count) {
    throw new JacobianError('PROVIDER_FAILED', `the TypeScript enumeration counted ${found.count} graphs but listed ${sink.count}; the answer was discarded`);
  }
  return { count: found.count, listing: await sink.end(), basis };
}

// ---------------------------------------------------------------------------------------------
// Split runs: shard jobs and their merge

/**
 * The split plan (CapabilityDefinition.shards): a request with `split: {shards: k}` becomes k
 * child runs of this capability, child i being the same request without `split` and with
 * `shard: {index: i, count: k}`; any other request runs whole (a request naming a shard is a
 * shard already, and nothing is split unless asked: how many runners could share the work is
 * the caller's to know).
 */
export function planEnumerationShards(input: EnumerateInput): { children: ShardRequest[] } | null {
  if (input.split === undefined || input.shard !== undefined) return null;
  const count = input.split.shards;
  const { split: _split, ...whole } = input;
  void _split;
  return {
    children: Array.from({ length: count }, (_, index) => ({ capability_id: ENUMERATE_ID, payload: { ...whole, shard: { index, count } } })),
  };
}

/** A child's answer, checked against the request it was planned from; PROVIDER_FAILED naming the child otherwise. */
function childAnswer(child: ShardChild, count: number, order: number, filters: EnumerationFilters, countOnly: boolean): EnumerateOutput {
  const who = `shard ${child.index} of ${count} (job ${child.job_id})`;
  const parsed = EnumerateOutput.safeParse(child.result.output);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JacobianError('PROVIDER_FAILED', `${who} answered an output that breaks the capability's output schema at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`, {
      path: ['shards', child.index],
    });
  }
  const found = parsed.data;
  const problem =
    found.order !== order
      ? `order ${found.order}, not ${order}`
      : !isDeepStrictEqual(found.filters, filters)
        ? 'other filters'
        : found.shard?.index !== child.index || found.shard.count !== count
          ? `shard ${found.shard === null ? 'none' : `${found.shard.index} of ${found.shard.count}`}`
          : (found.listing === 'NONE') !== countOnly
            ? `listing ${found.listing}${countOnly ? ' although only a count was asked' : ' although a listing was asked'}`
            : null;
  if (problem !== null) throw new JacobianError('PROVIDER_FAILED', `${who} answered for ${problem}; the shards were not merged`, { path: ['shards', child.index] });
  return found;
}

/** The JSON size of a value, in bytes. */
const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/**
 * The merge of a split run (CapabilityDefinition.shards): called with every child COMPLETED,
 * in shard order. Refuses (PROVIDER_FAILED naming the child) unless every child answered for
 * its own shard of exactly this order and these filters, and all under one method and one
 * provider (name, version and digest): shards of different methods do not combine, and
 * runners with different backends may have taken them. The count is the sum; the listing is
 * the children's in shard order: inline when it holds at most INLINE_MAX_GRAPHS graphs and
 * the output stays within budget.max_output_bytes, else paged (a child's inline graphs are
 * then rechecked and stored as one page of that shard).
 */
export async function mergeEnumerationShards(input: EnumerateInput, children: readonly ShardChild[], context: CapabilityContext): Promise<CapabilityOutcome<EnumerateOutput>> {
  const n = input.order;
  const filters = normalizeFilters(input);
  const countOnly = input.count_only === true;
  const k = children.length;
  if (input.split !== undefined && input.split.shards !== k) {
    throw new JacobianError('INTERNAL', `the split asked for ${input.split.shards} shards but ${k} were merged`);
  }
  const answers = children.map((child) => childAnswer(child, k, n, filters, countOnly));
  const first = children[0];
  const firstAnswer = answers[0];
  if (first === undefined || firstAnswer === undefined) throw new JacobianError('INTERNAL', 'a split run had no shard to merge');
  const providerOf = (child: ShardChild): string => {
    const provider = child.result.provider;
    return provider === null ? 'no provider' : `${provider.name} ${provider.version} (${provider.digest_kind} ${provider.digest.slice(0, 12)})`;
  };
  for (const [i, child] of children.entries()) {
    const answer = answers[i] as EnumerateOutput;
    const differs =
      answer.method !== firstAnswer.method ? `by ${answer.method}, shard 0 (job ${first.job_id}) by ${firstAnswer.method}` : providerOf(child) !== providerOf(first) ? `with ${providerOf(child)}, shard 0 (job ${first.job_id}) with ${providerOf(first)}` : null;
    if (differs !== null) {
      throw new JacobianError('PROVIDER_FAILED', `shard ${child.index} of ${k} (job ${child.job_id}) was enumerated ${differs}; shards of different methods or providers do not combine (their splits differ), so nothing was concluded`, {
        path: ['shards', child.index],
        hint: 'run the split where every runner serves the enumeration with one provider, or ask without split',
      });
    }
  }
  const method = firstAnswer.method;
  const count = answers.reduce((sum, answer) => sum + answer.count, 0);
  const jobs = children.map((child) => child.job_id);
  const header = { order: n, filters, shard: null, method };

  let listing: EnumerateOutput['listing'] = 'NONE';
  let graphs: string[] | null = null;
  let pages: PageRef[] = [];
  if (!countOnly) {
    if (count <= INLINE_MAX_GRAPHS && answers.every((answer) => answer.listing === 'INLINE')) {
      const inline = answers.flatMap((answer) => answer.graphs ?? []);
      if (inline.length !== count) throw new JacobianError('PROVIDER_FAILED', `the shards listed ${inline.length} graphs inline but counted ${count}; nothing was concluded`);
      if (jsonBytes({ ...header, count, listing: 'INLINE', graphs: inline, pages: [] }) <= context.budget.max_output_bytes) {
        listing = 'INLINE';
        graphs = inline;
      }
    }
    if (listing === 'NONE') {
      listing = 'PAGED';
      pages = await mergedPages(children, answers, header, context);
    }
  }
  const output: EnumerateOutput = { ...header, count, listing, graphs, pages };
  if (jsonBytes(output) > context.budget.max_output_bytes) {
    throw new JacobianError('OUTPUT_LIMIT_EXCEEDED', `the merged answer of ${k} shards (${pages.length} page references) is larger than budget.max_output_bytes, ${context.budget.max_output_bytes} bytes; nothing was concluded`, {
      hint: 'raise budget.max_output_bytes, or split into fewer shards (each shard job\'s pages are listed in its own result)',
    });
  }
  return {
    status: 'COMPLETED',
    output,
    scope: {
      kind: 'EXACT_CLAIM',
      statement: `${describeClass(n, filters)}; enumerated as ${k} shard jobs under ${method}, which together make up the class; nothing about other orders or other filters`,
      input_uris: [],
    },
    completeness: {
      status: 'COMPLETE',
      basis: clip(
        `all ${k} shards under ${method} completed, each answering for its own shard of exactly this order and these filters (jobs ${jobs.join(', ')}); the count is the sum of theirs${countOnly ? '' : ' and the listing is theirs in shard order'}`,
        1000,
      ),
    },
    qualifiers: ['EXACT', 'EXHAUSTIVE', 'DETERMINISTIC'],
    assurance: {
      level: 'COMPUTED',
      basis: clip(
        `merged from ${k} shard jobs enumerated by ${method}${countOnly ? '' : ', each listed graph rechecked against the filters by the shard that listed it'}; that the graphs are pairwise non-isomorphic and none is missing rests on the enumeration and on the shards of one method being disjoint and together complete`,
        1000,
      ),
      verification_record_uri: null,
      checker_id: null,
    },
    obligations: [],
    relationships: [],
    artifact_uris: pages.map((page) => page.uri),
    diagnostics: [],
  };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The pages of a merged listing, in shard order, numbered across the whole listing. A child
 * that listed its graphs inline gets one page of its shard, stored here after its graphs are
 * rechecked (the page it would have stored had it paged them).
 */
async function mergedPages(children: readonly ShardChild[], answers: readonly EnumerateOutput[], header: PageHeader, context: CapabilityContext): Promise<PageRef[]> {
  const refs: PageRef[] = [];
  let firstIndex = 0;
  const add = (ref: Omit<PageRef, 'page' | 'first_index'>): void => {
    refs.push({ ...ref, page: refs.length, first_index: firstIndex });
    firstIndex += ref.count;
  };
  for (const [i, child] of children.entries()) {
    const answer = answers[i] as EnumerateOutput;
    const shard = answer.shard as NonNullable<EnumerateOutput['shard']>;
    if (answer.listing === 'PAGED') {
      const listed = answer.pages.reduce((sum, page) => sum + page.count, 0);
      if (listed !== answer.count) {
        throw new JacobianError('PROVIDER_FAILED', `shard ${child.index} (job ${child.job_id}) counted ${answer.count} graphs but its pages hold ${listed}; nothing was concluded`, { path: ['shards', child.index] });
      }
      for (const page of answer.pages) add({ uri: page.uri, count: page.count, shard });
      continue;
    }
    const graphs = answer.graphs ?? [];
    if (graphs.length !== answer.count) {
      throw new JacobianError('PROVIDER_FAILED', `shard ${child.index} (job ${child.job_id}) counted ${answer.count} graphs but listed ${graphs.length}; nothing was concluded`, { path: ['shards', child.index] });
    }
    if (graphs.length === 0) continue;
    const recheck = referenceRecheck(header.order, header.filters, `shard ${child.index} (job ${child.job_id})`);
    graphs.forEach(recheck);
    const payload: EnumerationPagePayload = { ...header, method: answer.method, shard, page: 0, first_index: 0, count: graphs.length, last: true, graph6: `${graphs.join('\n')}\n` };
    const stored = await context.artifacts.put(
      {
        schema_uri: ENUMERATION_PAGE_SCHEMA_URI,
        semantics_uri: ENUMERATION_PAGE_SEMANTICS_URI,
        payload,
        parents: [],
        summary: { order: header.order, page: 0, first_index: 0, graphs: graphs.length, last: true },
      },
      { signal: context.signal },
    );
    add({ uri: stored.uri, count: graphs.length, shard });
  }
  return refs;
}

/** The shard hooks of graph.enumerate.nonisomorphic. */
const ENUMERATION_SHARDS: ShardHooks<EnumerateInput, EnumerateOutput> = {
  plan: (input) => planEnumerationShards(input),
  merge: (input, children, context) => mergeEnumerationShards(input, children, context),
};

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
    id: ENUMERATE_ID,
    version: '1.0.0',
    title: 'Enumerate all graphs of an order up to isomorphism, with filters',
    description:
      'Lists (or counts) every simple graph on exactly n vertices, one per isomorphism class, optionally only those that are connected, 2-connected, triangle-free, ' +
      'C4-free, bipartite, within degree bounds or within an edge-count range. The count is exact; the graphs come as graph6, inline up to ' +
      `${INLINE_MAX_GRAPHS} and otherwise as page artifacts (${ENUMERATION_PAGE_SCHEMA_URI}), each one graph6 text: ${FIRST_PAGE_BYTES} bytes on the first page, twice as many on each next, at most ${PAGE_MAX_BYTES} (fewer where the artifact store's payload limit or its quick put takes less). ` +
      `A large enumeration can be split with shard {index, count} (the shards of one method are disjoint and together complete), or run as separate shard jobs on any runners with split {shards: k} (k ≤ ${MAX_SHARD_CHILDREN}), which answers for the whole class: counts summed, pages in shard order. ` +
      `Served here by ${geng ? `nauty's geng (${method}), orders up to ${GENG_MAX_ORDER}` : `the TypeScript fallback (${method}), orders up to ${ENUMERATE_TS_MAX_ORDER}`}. ` +
      'When the budget ends first the run concludes nothing (TIMEOUT), never a partial count.',
    tags: ['graph', 'enumeration', 'isomorphism', 'isomorph-free', 'generation', 'counting', 'graph6', 'geng', 'nauty', 'exact', 'exhaustive'],
    keywords: ['nonisomorphic graphs', 'non-isomorphic', 'all graphs on n vertices', 'generate graphs', 'list graphs', 'isomorphism classes', 'unlabelled graphs', 'unlabeled graphs', 'graph census', 'number of graphs', 'OEIS A000088', 'connected graphs', 'triangle-free', 'bipartite graphs', 'nauty geng', 'orderly generation', 'canonical augmentation'],
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
      { title: 'The 12,005,168 graphs on 10 vertices counted as 8 shard jobs on any runners', mode: 'EXPLORE', payload: { order: 10, count_only: true, split: { shards: 8 } } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule:
      'Covers exactly the requested order and filters (and only the requested shard, when one is given): the count and the list of one graph per isomorphism class of that class, nothing about other orders or filters. ' +
      'Shards combine only with shards of the same count under the same method. A split run (split {shards: k}) covers the whole class, and is COMPLETE only when all k shard jobs completed under one method and provider.',
    limits: {
      max_order: maxOrder,
      inline_max_graphs: INLINE_MAX_GRAPHS,
      first_page_bytes: FIRST_PAGE_BYTES,
      page_max_bytes: PAGE_MAX_BYTES,
      max_shards: MAX_SHARDS,
      max_split_shards: MAX_SHARD_CHILDREN,
      split_rule: 'a run is split into shard jobs only when the request asks for it with split {shards: k}; a request naming a shard, or without split, runs whole',
      method,
      listing_bytes: geng
        ? 'a listing of more graph6 bytes (one line per graph) than budget.max_output_bytes is refused; count_only has no such bound'
        : 'a listing is refused when its graph6 lines, as a JSON string (a newline or a backslash takes two bytes), take more than budget.max_output_bytes less 1 kB (it crosses a process boundary as JSON); count_only has no such bound',
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
      const header: PageHeader = { order: n, filters, shard, method };
      let found: Enumerated;
      if (n === 0) {
        // geng starts at one vertex; the graph with none is decided here for both providers (in shard 0).
        const count = nullGraphQualifies(filters) && (shard === null || shard.index === 0) ? 1 : 0;
        found = { count, listing: countOnly ? null : { graphs: count === 1 ? ['?'] : [], pages: [] }, basis: 'the only graph on 0 vertices was tested against the filters' };
      } else if (empty !== null) {
        found = { count: 0, listing: countOnly ? null : { graphs: [], pages: [] }, basis: `no graph qualifies: ${empty}` };
      } else if (backend.kind === 'geng') {
        found = await enumerateWithGeng(backend.tool, header, countOnly, enumerator, context);
      } else {
        found = await enumerateWithTypescript(header, countOnly, enumerator, context);
      }
      const pages = found.listing?.pages ?? [];
      const shardText =
        shard === null
          ? ''
          : `; only shard ${shard.index} of ${shard.count} under ${method} (the ${shard.count} shards under that method are disjoint and together make up the class)`;
      const listed = found.listing === null ? '' : `; each listed graph was decoded and rechecked against the filters by plain TypeScript`;
      return {
        status: 'COMPLETED',
        output: {
          ...header,
          count: found.count,
          listing: found.listing === null ? 'NONE' : found.listing.graphs !== null ? 'INLINE' : 'PAGED',
          graphs: found.listing?.graphs ?? null,
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
    shards: ENUMERATION_SHARDS,
  };
}
