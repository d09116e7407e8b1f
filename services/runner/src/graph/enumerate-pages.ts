/**
 * The listing of graph.enumerate.nonisomorphic: the page payload contract, and the sink that
 * takes a provider's graph6 lines as they come, rechecks each one, and stores full pages while
 * the provider is still writing.
 *
 * Pages are stored as soon as they are full (and known not to be the last), so that reading,
 * rechecking, canonical JSON, hashing and writing overlap with geng instead of following it.
 * That is why a page does not carry the total: it is not known until the provider ends. The
 * last page says so (`last: true`); the capability's output lists every page with its count.
 * The pages go to the run's staged artifacts (shared/src/artifacts/staged.ts, set up by the
 * capability host): they reach the store only if the run succeeds, so a run refused at
 * max_output_bytes (or failed, timed out, cancelled) leaves nothing in it, and never removes a
 * page another run stored.
 *
 * The page payload contract lives here for now; it belongs with the shared graph contracts.
 */
import { z } from 'zod';
import { JacobianError, toAppError, type CapabilityContext } from '@jacobian/shared';
import { FAST_RECHECK_MAX_ORDER, FastRecheck, graph6Bytes } from './enumerate-recheck.js';

/**
 * Schema of one page of a listing. v2: the graphs as one graph6 text (a line per graph, as geng
 * writes them: canonical JSON of one string costs a small fraction of ten thousand strings),
 * and no total or page count (pages are stored before the provider ends) but `last`.
 */
export const ENUMERATION_PAGE_SCHEMA_URI = 'jacobian:schema/graph.enumeration.page/v2';
/** What a page means: part of the list of one isomorphism class representative per class in scope. */
export const ENUMERATION_PAGE_SEMANTICS_URI = 'jacobian:semantics/graph.enumeration.nonisomorphic/v1';

/** Listings of at most this many graphs are returned inline. */
export const INLINE_MAX_GRAPHS = 200;
/**
 * Most bytes of graph6 text on one page: 1 MiB, e.g. 104,857 graphs of order 10. Each page costs
 * a store round trip (two requests on S3), so pages are large. Fewer when the artifact store's
 * payload limit demands it, or when its quick put takes less (ArtifactStore.quickPutBytes; see
 * {@link graphsOnPage}).
 */
export const PAGE_MAX_BYTES = 1 << 20;
/** Bytes of a page's canonical JSON other than its graph6 text: the other fields (under 1 kB). */
const PAGE_FIELDS_BYTES = 4096;
/** Bytes of a page's manifest (about 400). */
const PAGE_MANIFEST_BYTES = 4096;
/**
 * Bytes of graph6 text on the first page; each next page holds twice as many, up to
 * {@link PAGE_MAX_BYTES} (16, 32, 64 ... 1024 KiB). Every page but the last is stored while the
 * provider still writes; the last only once it has ended, and that put is what the caller waits
 * for. Growing pages keep that last page a fraction of a short listing instead of all of it:
 * geng -t 10 (122 kB) ends with a page of 7 kB, not one of 122 kB, whose canonical JSON and
 * SHA-256 took 0.5–0.6 ms after geng's exit on this project's test machine. A long listing
 * costs five pages more than with 1 MiB pages throughout.
 */
export const FIRST_PAGE_BYTES = 16 * 1024;
/**
 * A page is stored with deferSync (PutOptions) when the graph6 of the pages so stored, with it,
 * stays within this many bytes. Those pages become durable together at the end (in the local
 * store, one `fdatasync` of the journal file for all of them: the sink starts it once the last
 * page is stored, and the host waits for it) instead of one sync per page while the provider
 * writes. Measured on this project's test machine (geng -t 10, 4 pages, 122 kB,
 * calls alternating in one process), those syncs made geng itself 0.3–0.45 ms slower, and one
 * sync of all of them at the end about 0.1 ms longer than of the last page alone. The other
 * pages are synced as they are stored (which in a local store also makes the deferred ones
 * durable), so a long listing does not leave megabytes to write out after the provider ended.
 */
export const DEFERRED_SYNC_BYTES = 256 * 1024;
/** Most shards a request may split into. */
export const MAX_SHARDS = 100_000;

const Int = z.number().int().min(0);

export const ShardSchema = z
  .object({
    index: Int.describe('which shard, 0 ≤ index < count'),
    count: z.number().int().min(1).max(MAX_SHARDS).describe('how many shards the enumeration is split into'),
  })
  .strict();

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
    first_index: Int.describe("position of this page's first graph in the whole listing (0-based)"),
    count: z.number().int().min(1).describe('graphs on this page: lines of graph6'),
    last: z.boolean().describe('whether this is the last page of the listing'),
    graph6: z
      .string()
      .regex(/^(?:[?-~]+\n)+$/)
      .describe('one representative per isomorphism class, each as a line of graph6 (no header) ending in "\\n"'),
  })
  .strict()
  .superRefine((page, ctx) => {
    const lines = page.graph6.split('\n').length - 1;
    if (lines !== page.count) ctx.addIssue({ code: 'custom', path: ['count'], message: `count is ${page.count} but graph6 holds ${lines} lines` });
  });
export type EnumerationPagePayload = z.infer<typeof EnumerationPagePayloadSchema>;

export const PageRefSchema = z
  .object({
    uri: z.string(),
    page: Int.describe('position of the page in the listing (0-based)'),
    first_index: Int.describe("position of the page's first graph in the listing (0-based)"),
    count: Int.describe('graphs on this page'),
    shard: ShardSchema.optional().describe(
      "in a listing merged from shard jobs (split): the shard whose listing the page belongs to; the page artifact's own page and first_index count within that shard",
    ),
  })
  .strict();
export type PageRef = z.infer<typeof PageRefSchema>;

/** What every page of one listing repeats. */
export type PageHeader = Pick<EnumerationPagePayload, 'order' | 'filters' | 'shard' | 'method'>;

/**
 * Graphs on page `page` (0-based) of a listing of graphs of `order`: {@link FIRST_PAGE_BYTES}
 * of graph6 lines on the first, twice as many on each next, at most {@link PAGE_MAX_BYTES}, few
 * enough for the store's payload limit and, when the store has a quick put
 * (`quickPutBytes`), few enough for it, whatever the lines hold; at least one.
 *
 * Why the quick put: with pages of 1 MiB of graph6, whose canonical JSON is larger than a
 * record of the local folder store's journal, every full page was stored synced (its two files
 * and a rename, each waiting for commits of the file system's journal), and geng, writing its
 * own file on the same disk meanwhile, ran longer. Measured on this project's test machine (10
 * shards of geng -c 10, 12 MB each, through the sink into a journaled store, shard by shard
 * alternating with geng alone from bash; medians of 3–4 rounds): 1.068–1.077× geng alone with
 * 1 MiB pages, 1.031× with pages of 448 KiB, and 1.033× with the store in memory (tmpfs); with
 * this bound (52,013 graphs of order 10, 508 KiB a page) 1.025×, and the whole capability 1.022×
 * (1.077–1.091× before).
 */
export function graphsOnPage(order: number, page: number, maxPayloadBytes: number, quickPutBytes?: number): number {
  const line = graph6Bytes(order) + 1;
  // In canonical JSON a graph6 character takes two bytes at worst (an escaped backslash), as
  // does the newline; PAGE_FIELDS_BYTES cover the rest of the payload, PAGE_MANIFEST_BYTES the manifest.
  const fits = Math.floor((maxPayloadBytes - PAGE_FIELDS_BYTES) / (2 * line));
  const quick = quickPutBytes === undefined ? Infinity : Math.floor((quickPutBytes - PAGE_FIELDS_BYTES - PAGE_MANIFEST_BYTES) / (2 * line));
  const bytes = Math.min(PAGE_MAX_BYTES, FIRST_PAGE_BYTES * 2 ** Math.min(page, 30));
  return Math.max(1, Math.min(Math.floor(bytes / line), fits, quick));
}

/** A finished listing: inline (few graphs) or stored pages. */
export type Listing = { graphs: string[]; pages: [] } | { graphs: null; pages: PageRef[] };

/**
 * Pages being stored at once. A store's put is mostly waiting on the disk or the network (the
 * local folder store syncs each file), so several run side by side; past this many,
 * {@link ListingSink.write} asks its caller to wait.
 */
const MAX_PAGES_IN_FLIGHT = 8;

/** A page's graph6 text and how many lines it holds. */
interface PageText {
  text: string;
  count: number;
}

/**
 * Takes graph6 lines (bytes, each ending in "\n", split anywhere across writes), rechecks
 * each graph (the fast recheck, then `reference` for a graph it does not pass, which throws
 * PROVIDER_FAILED naming the problem, or accepts), and stores the pages in order.
 */
export class ListingSink {
  /** Graphs taken so far. */
  count = 0;
  private readonly header: PageHeader;
  private readonly context: CapabilityContext;
  private readonly reference: (text: string, index: number) => void;
  private readonly fast: FastRecheck | null;
  private readonly lineBytes: number;
  private readonly maxPayloadBytes: number;
  private readonly quickPutBytes: number | undefined;
  /** Graphs the page being filled holds when full (see {@link graphsOnPage}). */
  private perPage: number;
  /** Pages filled so far. */
  private filled = 0;
  private carry: Buffer | null = null;
  /**
   * The current page: its bytes (copied from the provider's chunks, reused from page to page),
   * and its line count. Kept as bytes rather than pieces of text, so that a page becomes one
   * string once, and no string per chunk is made for the garbage collector to move.
   */
  private page: Buffer = Buffer.allocUnsafe(64 * 1024);
  private pageBytes = 0;
  private lines = 0;
  /** Full pages not yet known to be followed by more graphs (only while the listing may still be inline). */
  private waiting: PageText[] = [];
  private nextPage = 0;
  private firstIndex = 0;
  private readonly refs: PageRef[] = [];
  /** Pages being stored, settling (never rejecting) when stored or failed. */
  private readonly storing = new Set<Promise<void>>();
  /** Bytes of graph6 on the pages stored with deferSync (see {@link DEFERRED_SYNC_BYTES}). */
  private deferredBytes = 0;
  private failure: JacobianError | undefined = undefined;

  constructor(options: { header: PageHeader; context: CapabilityContext; reference: (text: string, index: number) => void }) {
    this.header = options.header;
    this.context = options.context;
    this.reference = options.reference;
    const n = options.header.order;
    this.fast = n >= 1 && n <= FAST_RECHECK_MAX_ORDER ? new FastRecheck(n, options.header.filters) : null;
    this.lineBytes = n >= 1 && n <= 62 ? graph6Bytes(n) : -1;
    this.maxPayloadBytes = options.context.artifacts.limits.maxPayloadBytes;
    this.quickPutBytes = options.context.artifacts.quickPutBytes;
    this.perPage = graphsOnPage(n, 0, this.maxPayloadBytes, this.quickPutBytes);
  }

  /**
   * Take the next bytes of the listing. Returns a promise when stored pages are piling up: the
   * caller should read no more until it settles.
   *
   * @throws JacobianError PROVIDER_FAILED for a graph that is not graph6 of the order or breaks
   *   a filter; a page store's failure.
   */
  write(chunk: Uint8Array): Promise<void> | null {
    this.throwIfFailed();
    let rest = chunk;
    if (this.carry !== null) {
      // Only the line cut at the end of the last write is joined with the start of this one;
      // the rest of the chunk is read where it lies.
      const newline = chunk.indexOf(10);
      const carry = this.carry;
      this.carry = null;
      if (newline < 0) {
        rest = Buffer.concat([carry, chunk]);
      } else {
        this.take(Buffer.concat([carry, chunk.subarray(0, newline + 1)]));
        rest = chunk.subarray(newline + 1);
      }
    }
    this.take(rest);
    // Every full page but the newest is followed by more graphs, and so is the newest once a
    // graph after it arrived: store those now, so that when the provider ends only the page it
    // was filling is left to store. (While the listing may still be inline, nothing is stored.)
    if (this.count > INLINE_MAX_GRAPHS) this.storeWaiting(this.lines > 0 ? 0 : 1);
    return this.storing.size >= MAX_PAGES_IN_FLIGHT ? Promise.race(this.storing) : null;
  }

  /** Recheck the complete lines of `bytes` and add them to the pages; keep a cut last line. */
  private take(bytes: Uint8Array): void {
    const size = bytes.length;
    const fixed = this.lineBytes;
    let start = 0;
    let segment = 0;
    for (;;) {
      let end = start + fixed;
      if (fixed < 0 || end >= size || bytes[end] !== 10) {
        end = bytes.indexOf(10, start);
        if (end < 0) break;
      }
      // The line is checked as bytes; only a graph the fast recheck does not pass becomes a string.
      if (this.fast === null || !this.fast.passes(bytes, start, end)) this.reference(Buffer.from(bytes.buffer, bytes.byteOffset, size).toString('latin1', start, end), this.count);
      this.count++;
      start = end + 1;
      if (++this.lines === this.perPage) {
        this.append(bytes, segment, start);
        segment = start;
        this.pageFull();
      }
    }
    if (segment < start) this.append(bytes, segment, start);
    if (start < size) this.carry = Buffer.from(bytes.subarray(start));
  }

  /**
   * The listing, once every byte was written: inline when it holds at most
   * {@link INLINE_MAX_GRAPHS} graphs, else the pages (all stored when this settles).
   *
   * @throws JacobianError PROVIDER_FAILED when the bytes end inside a line; a page store's failure.
   */
  async end(): Promise<Listing> {
    this.throwIfFailed();
    if (this.carry !== null) throw new JacobianError('PROVIDER_FAILED', 'the listing does not end with a complete line; the answer was discarded');
    const current = this.takePage();
    if (this.count <= INLINE_MAX_GRAPHS) {
      const all = [...this.waiting.map((page) => page.text), current.text].join('');
      return { graphs: all === '' ? [] : all.slice(0, -1).split('\n'), pages: [] };
    }
    // The last page is the one being filled, or, when the listing ended with a full page, that page.
    const last = current.count > 0 ? current : this.waiting.pop()!;
    this.storeWaiting(0);
    this.store(last, true);
    while (this.storing.size > 0) await Promise.all(this.storing);
    // Every page is stored: those with deferSync start to become durable (in a local store, one
    // sync of them all) while the run's output is made and checked. The host waits for it, and
    // reports a failure.
    void this.context.artifacts.sync(this.refs.map((ref) => ref.uri)).catch(() => undefined);
    this.throwIfFailed();
    return { graphs: null, pages: this.refs.sort((a, b) => a.page - b.page) };
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** Add bytes[from, to) (whole lines) to the current page. */
  private append(bytes: Uint8Array, from: number, to: number): void {
    const size = this.pageBytes + (to - from);
    if (size > this.page.length) {
      const larger = Buffer.allocUnsafe(Math.max(size, 2 * this.page.length));
      this.page.copy(larger, 0, 0, this.pageBytes);
      this.page = larger;
    }
    this.page.set(bytes.subarray(from, to), this.pageBytes);
    this.pageBytes = size;
  }

  /** The current page as text, and a new empty page. */
  private takePage(): PageText {
    const page: PageText = { text: this.page.toString('latin1', 0, this.pageBytes), count: this.lines };
    this.pageBytes = 0;
    this.lines = 0;
    return page;
  }

  /**
   * The current page is full: it waits until a later graph shows it is not the last one (see
   * {@link write}), and, while the listing may still be inline, until it holds more graphs
   * than an inline listing does.
   */
  private pageFull(): void {
    this.waiting.push(this.takePage());
    this.perPage = graphsOnPage(this.header.order, ++this.filled, this.maxPayloadBytes, this.quickPutBytes);
  }

  /** Store the full pages that wait, but the newest `keep`; none of them is the last page. */
  private storeWaiting(keep: number): void {
    while (this.waiting.length > keep) this.store(this.waiting.shift()!, false);
  }

  /** Start storing one page (pages may settle out of order; {@link end} sorts them). */
  private store(page: PageText, last: boolean): void {
    const index = this.nextPage++;
    const first = this.firstIndex;
    this.firstIndex += page.count;
    const payload: EnumerationPagePayload = { ...this.header, page: index, first_index: first, count: page.count, last, graph6: page.text };
    const deferSync = this.deferredBytes + page.text.length <= DEFERRED_SYNC_BYTES;
    if (deferSync) this.deferredBytes += page.text.length;
    const task = (async () => {
      try {
        if (this.failure !== undefined) return;
        const stored = await this.context.artifacts.put(
          {
            schema_uri: ENUMERATION_PAGE_SCHEMA_URI,
            semantics_uri: ENUMERATION_PAGE_SEMANTICS_URI,
            payload,
            parents: [],
            summary: { order: this.header.order, page: index, first_index: first, graphs: page.count, last },
          },
          { signal: this.context.signal, deferSync },
        );
        this.refs.push({ uri: stored.uri, page: index, first_index: first, count: page.count });
      } catch (error) {
        this.failure ??= toAppError(error);
      }
    })();
    this.storing.add(task);
    void task.finally(() => this.storing.delete(task));
  }
}
