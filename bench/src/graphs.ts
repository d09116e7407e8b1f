/**
 * `bench graphs`: graph.enumerate.nonisomorphic against nauty's geng run directly on the same
 * work, in one run on this machine: n = 9 and 10, without and with filters.
 *
 * Systems, per case (order n, filters):
 * - geng direct: `nauty-geng -q [flags] n [res/mod] > file` (or `-u` for a count-only case),
 *   run from bash and timed by bash (see peer.ts), from just before it starts geng to geng's
 *   exit. Its count is the number of lines it wrote.
 * - capability, geng provider: the capability's execution path (executeCapability: request
 *   admission, input schema, budget, geng streamed, every graph rechecked, pages stored,
 *   result validation) in this process, with one local-folder artifact store per provider and
 *   case, kept open from run to run with its journal, as `jacobian serve` keeps its store; each
 *   run's pages are removed after it (unmeasured). Wall time of executeCapability.
 * - capability, TypeScript provider: the same with the TypeScript canonical augmentation, whose
 *   kernel runs in a child of a process pool (size 1, started and warmed up before measuring).
 *
 * In-process rather than math.run over MCP HTTP: `jacobian serve` picks geng whenever it is
 * installed (so it cannot measure the TypeScript provider), and in-process measures exactly
 * what the targets are about (the provider's own overhead over geng) without an HTTP round trip
 * and queue hop of a few milliseconds per call, which would only matter at n ≤ 9. The peer gets
 * the same: a bare process writing a file.
 *
 * A listing of more than --graphs-shard-mib MiB of graph6 (default 12; one call may return at
 * most budget.max_output_bytes = 16 MiB) is split into k shards with geng's res/mod and the
 * capability's `shard`; geng direct then runs the same k shards (the primary ratio: the same
 * work) and once whole (the secondary ratio: what the split itself costs). Shards run one after
 * another, on one "runner" (this process).
 *
 * Each comparison is a {@link GraphsComparison} in {@link graphsComparisons}:
 * - providers-vs-geng: the above;
 * - sharded-2-runners (also a --graphs-cases name): one split request (`split: {shards: k}`,
 *   n = 10, count only) sent by math.run over MCP HTTP to a cluster (Redis, s3rver, `jacobian
 *   api`, `jacobian runner --pools heavy` with JACOBIAN_CONCURRENCY=1, so one shard job and one
 *   geng at a time, pinned to its own core with taskset when there is one): a cluster with one
 *   runner and one with two, called in alternation; the wall time of the call, 1 runner over 2
 *   (target ≥ 1.8×). See {@link shardedRunners}.
 *
 * Every count is checked: geng's against OEIS where published, the sum of geng's shards against
 * geng whole, each capability's count against geng's, and each paged listing's page counts
 * against its count. A mismatch is a disagreement in the report and fails the run.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import {
  admitRequest,
  CapabilityRequestSchema,
  createLocalFolderArtifactStore,
  createProcessPool,
  executeCapability,
  installCapability,
  sourceProviderRuntime,
  type CapabilityResult,
  type InstalledCapability,
  type IsolatedExecutor,
  type LocalFolderArtifactStore,
} from '@jacobian/shared';
import { ENUMERATE_TS_FEATURES, ENUMERATE_TS_PROVIDER, ENUMERATE_TS_SOURCES, enumerateNonisomorphic, probeGeng } from '@jacobian/runner';
import { startRedisServer } from '@jacobian/shared/testing';
import { generateCheckerKeys, jacobianEnvironment, startChild, startJacobian, type BenchContext, type JacobianProcess } from './context.js';
import { JsonLineReader } from './lines.js';
import { HttpClient, parseToolCall, toolCall } from './mcp-http.js';
import { runPeer } from './peer.js';
import { cpuMs, CpuWindow, hasTaskset, readJsonLines } from './proc.js';
import { bootstrapRatioOfMedians, median, ratio, round, table } from './stats.js';

/** Where the benchmark expects Debian's geng. */
export const GENG_BINARY = '/usr/bin/nauty-geng';
const CAPABILITY_ID = 'graph.enumerate.nonisomorphic';
/** The largest listing one call may return (budget.max_output_bytes at its maximum). */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
const WALL_TIME_MS = 600_000;

export interface GraphsOptions {
  orders: number[];
  /** IDs of the cases to run (all of {@link CASES} when empty). */
  cases: string[];
  /** Measured rounds; each round runs every system once per case, and the median is reported. */
  repeat: number;
  /** Listings above this many bytes of graph6 are split into shards. */
  shardBytes: number;
}

/** One enumeration problem, in geng's flags and in the capability's payload. */
interface EnumerationCase {
  id: string;
  words: string;
  gengFlags: string[];
  payload: Record<string, unknown>;
  countOnly: boolean;
  /** Published counts, by order. */
  oeis?: { id: string; counts: Record<number, number> };
}

const A000088: { id: string; counts: Record<number, number> } = { id: 'A000088', counts: { 9: 274_668, 10: 12_005_168 } };
const A001349 = { id: 'A001349', counts: { 9: 261_080, 10: 11_716_571 } };
const A006785 = { id: 'A006785', counts: { 9: 1897, 10: 12_172 } };

export const CASES: readonly EnumerationCase[] = [
  { id: 'all', words: 'every graph, listed', gengFlags: [], payload: {}, countOnly: false, oeis: A000088 },
  { id: 'connected', words: 'connected, listed', gengFlags: ['-c'], payload: { connected: true }, countOnly: false, oeis: A001349 },
  { id: 'triangle-free', words: 'triangle-free, listed', gengFlags: ['-t'], payload: { triangle_free: true }, countOnly: false, oeis: A006785 },
  { id: 'connected-mindeg2', words: 'connected, minimum degree 2, listed', gengFlags: ['-c', '-d2'], payload: { connected: true, min_degree: 2 }, countOnly: false },
  { id: 'all-count', words: 'every graph, counted only (geng -u)', gengFlags: [], payload: {}, countOnly: true, oeis: A000088 },
];
/** The cases run when none are named (connected-mindeg2 adds about 30 s at n = 10). */
export const DEFAULT_CASES = ['all', 'connected', 'triangle-free', 'all-count'];

/** One measured run of one system on one case: every shard, one after another. */
interface SystemRun {
  ms: number;
  /** CPU time of this process and its children (geng, the kernel's pool child) over the run. */
  cpu_ms: number;
  count: number;
  /** Pages stored (capability) or bytes written (geng direct). */
  pages?: number;
  bytes?: number;
  failure?: string;
}

interface SystemSummary {
  /** Median wall time over the rounds. */
  ms: number;
  cpu_ms: number;
  count: number;
  runs: SystemRun[];
}

interface CaseReport {
  case: string;
  words: string;
  order: number;
  shards: number;
  /** Measured rounds: --graphs-repeat, or more for a short case (see {@link roundsFor}). */
  rounds: number;
  geng_direct_shards: SystemSummary;
  /** geng in one process (only when sharded; else the same as geng_direct_shards). */
  geng_direct_whole: SystemSummary | null;
  capability_geng: SystemSummary;
  capability_typescript: SystemSummary;
  ratios: {
    geng_provider_vs_geng: number;
    typescript_vs_geng: number;
    /** CPU time (this process and its children) against geng's: robust to other load, blind to overlap. */
    geng_provider_vs_geng_cpu: number;
    typescript_vs_geng_cpu: number;
    /**
     * The median over the rounds of each round's capability time over that round's geng direct
     * time (the same shards): the two run one after the other, so a drift of the machine's speed
     * between rounds cancels out, which it does not in the ratio of the medians (the targets).
     */
    geng_provider_vs_geng_paired: number;
    /**
     * For a case of one shard, geng_provider_vs_geng_paired over the rounds in which the
     * capability ran first, and over those in which geng direct did (null when sharded: there
     * each round mixes both orders). Each run can leave work behind for the next: the
     * capability's spool file closed in the background, geng direct's listing still unwritten in
     * the page cache. How far the two differ shows how much that weighs.
     */
    geng_provider_vs_geng_paired_by_order: { capability_first: number; geng_first: number } | null;
    typescript_vs_geng_paired: number;
    /**
     * A 90 % bootstrap interval of geng_provider_vs_geng over the rounds (see
     * bootstrapRatioOfMedians in stats.ts): how far the ratio of the medians moves with the rounds
     * drawn. Null for a single round.
     */
    geng_provider_vs_geng_interval: [number, number] | null;
    geng_provider_vs_geng_whole: number | null;
    typescript_vs_geng_whole: number | null;
  };
  oeis: string | null;
  disagreements: string[];
  /** Busy cores of other processes on the machine while this case ran. */
  other_cores: number;
}

export interface GraphsReport {
  benchmark: 'graphs';
  options: GraphsOptions & { capability_id: string; geng: string; geng_version: string; measured: string };
  comparisons: Record<string, unknown>[];
  cases: CaseReport[];
  sharded: ShardedReport[];
  targets: { name: string; target: string; measured: string; met: boolean }[];
  notes: string[];
  stopped: { name: string; graceful: boolean; code: number | null; signal: string | null }[];
}

/** Fail clearly when geng is not installed; its version line otherwise. */
export function checkGeng(): string {
  const result = spawnSync(GENG_BINARY, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (result.error !== undefined || result.status !== 0) {
    throw new Error(`bench graphs needs nauty's geng at ${GENG_BINARY}: install Debian's package nauty (apt-get install -y nauty)`);
  }
  return result.stdout.trim();
}

/** Bytes of one graph6 line (newline included) of order n. */
function lineBytes(n: number): number {
  return 2 + Math.ceil((n * (n - 1)) / 12);
}

/** ` [lo–hi]` for a bootstrap interval, '' for none. */
function intervalText(interval: [number, number] | null): string {
  return interval === null ? '' : ` [90 %: ${interval[0]}–${interval[1]}]`;
}

/** ` (capability first x, geng first y)` for a one-shard case's paired ratios by order, '' for none. */
function byOrderText(byOrder: { capability_first: number; geng_first: number } | null): string {
  return byOrder === null ? '' : ` (capability first ${byOrder.capability_first}×, geng first ${byOrder.geng_first}×)`;
}

/** The median over rounds of `runs[i].ms / direct[i].ms` (round i's two runs). */
function paired(runs: readonly SystemRun[], direct: readonly SystemRun[]): number {
  const ratios = runs.flatMap((run, index) => {
    const reference = direct[index];
    return reference === undefined || reference.ms <= 0 ? [] : [run.ms / reference.ms];
  });
  return round(median(ratios), 3);
}

/**
 * {@link paired} over the rounds of a one-shard case in which the capability went first (odd
 * rounds, see pairedRun) and over those in which geng direct did (even rounds, round 0 included).
 */
function pairedByOrder(runs: readonly SystemRun[], direct: readonly SystemRun[]): { capability_first: number; geng_first: number } {
  const odd = (_: unknown, index: number): boolean => index % 2 === 1;
  const even = (_: unknown, index: number): boolean => index % 2 === 0;
  return { capability_first: paired(runs.filter(odd), direct.filter(odd)), geng_first: paired(runs.filter(even), direct.filter(even)) };
}

function summary(runs: SystemRun[]): SystemSummary {
  return { ms: round(median(runs.map((r) => r.ms)), 1), cpu_ms: round(median(runs.map((r) => r.cpu_ms)), 0), count: runs[0]?.count ?? 0, runs };
}

/** CPU of this process and every descendant, reaped ones included. */
function benchCpuMs(): number {
  return cpuMs(process.pid, true);
}

// ---------------------------------------------------------------------------------------------
// geng direct

/**
 * Run geng once, stdout to `file` (or counting with -u), from a shell (see peer.ts), timed by
 * the shell: from just before it starts geng to geng's exit. The capability starts geng through
 * the runner's launcher, and its time includes the trip there and back.
 */
async function runGengOnce(context: BenchContext, args: string[], file: string | null, leftovers: Leftovers): Promise<{ ms: number; count: number; bytes: number }> {
  // Kept open here: runPeer removes the file once geng has exited.
  const fd = file === null ? null : openSync(file, 'w+');
  try {
    const { code, signal, stderr, ms } = await runPeer(context, { file: GENG_BINARY, args, env: { LC_ALL: 'C' }, stdoutFile: file, stderrLimit: 16_384 });
    if (code !== 0) throw new Error(`geng ${args.join(' ')} exited with ${code ?? signal ?? '?'}: ${stderr.slice(0, 300)}`);
    if (fd === null) {
      const match = />Z (\d+) graphs generated/.exec(stderr);
      if (match === null) throw new Error(`geng ${args.join(' ')} printed no count: ${stderr.slice(0, 300)}`);
      return { ms, count: Number(match[1]), bytes: 0 };
    }
    const bytes = fstatSync(fd).size;
    const n = Number(args.find((a) => /^\d+$/.test(a)));
    const line = lineBytes(n);
    // Lines of one order have one length: the count is the size over it, checked by the last byte.
    const last = Buffer.alloc(1);
    if (bytes % line !== 0 || (bytes > 0 && (readSync(fd, last, 0, 1, bytes - 1) !== 1 || last[0] !== 10))) {
      throw new Error(`geng ${args.join(' ')} wrote ${bytes} bytes, not whole lines of ${line} bytes`);
    }
    return { ms, count: bytes / line, bytes };
  } finally {
    if (fd !== null) leftovers.removals.push(() => closeSync(fd));
  }
}

/**
 * What the systems leave on disk (geng's listings, the capability's stores), removed only
 * between cases (see {@link removeLeftovers}): freeing a listing's blocks or a store's 512
 * folders is file-system metadata that the next journal commit writes, and the next commit may
 * be a measured call's. Nothing in a real deployment deletes a store after each call. Each
 * provider keeps one store for the whole case, as `jacobian serve` keeps one (see
 * {@link capabilityRun}).
 */
interface Leftovers {
  readonly removals: (() => void)[];
  readonly stores: Map<string, { artifacts: LocalFolderArtifactStore; root: string }>;
}

function newLeftovers(): Leftovers {
  return { removals: [], stores: new Map() };
}

async function removeLeftovers(leftovers: Leftovers): Promise<void> {
  for (const { artifacts, root } of leftovers.stores.values()) {
    await artifacts.close();
    rmSync(root, { recursive: true, force: true });
  }
  leftovers.stores.clear();
  for (const remove of leftovers.removals.splice(0)) remove();
}

/** geng direct on the k shards (or the whole class when k = 1), one after another. */
async function gengDirect(context: BenchContext, c: EnumerationCase, n: number, shards: number, dir: string, leftovers: Leftovers): Promise<SystemRun> {
  const total = newSystemRun();
  for (let index = 0; index < shards; index++) addRun(total, await gengShard(context, c, n, shards, index, dir, leftovers));
  return total;
}

/** geng direct on shard `index` of k (the whole class when k = 1). */
async function gengShard(context: BenchContext, c: EnumerationCase, n: number, shards: number, index: number, dir: string, leftovers: Leftovers): Promise<SystemRun> {
  const cpu = benchCpuMs();
  const args = c.countOnly ? ['-u', ...c.gengFlags, String(n)] : ['-q', ...c.gengFlags, String(n)];
  if (shards > 1) args.push(`${index}/${shards}`);
  const file = c.countOnly ? null : join(dir, `geng-${c.id}-${n}-${index}.g6`);
  const run = await runGengOnce(context, args, file, leftovers);
  return { ms: run.ms, cpu_ms: benchCpuMs() - cpu, count: run.count, bytes: run.bytes };
}

/** A run of no shards yet, to which {@link addRun} adds each shard's. */
function newSystemRun(): SystemRun {
  return { ms: 0, cpu_ms: 0, count: 0 };
}

/** Add one shard's run to `total` (a failure is kept, with the shard it came from). */
function addRun(total: SystemRun, shard: SystemRun): void {
  total.ms = round(total.ms + shard.ms, 1);
  total.cpu_ms = round(total.cpu_ms + shard.cpu_ms, 0);
  total.count += shard.count;
  if (shard.bytes !== undefined) total.bytes = (total.bytes ?? 0) + shard.bytes;
  if (shard.pages !== undefined) total.pages = (total.pages ?? 0) + shard.pages;
  if (shard.failure !== undefined) total.failure ??= shard.failure;
}

// ---------------------------------------------------------------------------------------------
// The capability, in process

export interface Installed {
  geng: InstalledCapability;
  typescript: InstalledCapability;
  executor: IsolatedExecutor;
}

async function install(context: BenchContext): Promise<Installed> {
  const { tool, runtime } = await probeGeng();
  const tsRuntime = await sourceProviderRuntime({ provider: ENUMERATE_TS_PROVIDER, version: 'bench', files: ENUMERATE_TS_SOURCES, features: [...ENUMERATE_TS_FEATURES] });
  const executor = createProcessPool({ size: 1 });
  context.cleanups.push(() => executor.close());
  return {
    geng: installCapability(enumerateNonisomorphic({ kind: 'geng', tool }), runtime, null),
    typescript: installCapability(enumerateNonisomorphic({ kind: 'typescript' }), tsRuntime, null),
    executor,
  };
}

/** Numbers the stores of {@link capabilityRun}, each removed only with the case's leftovers. */
let storeNumber = 0;

/**
 * The provider's store for this case: made by the first run (with its shard folders and journal
 * files, by one unmeasured put), as `jacobian serve` keeps its store, and kept until the case ends.
 */
async function caseStore(which: string, c: EnumerationCase, n: number, dir: string, leftovers: Leftovers): Promise<{ artifacts: LocalFolderArtifactStore; root: string }> {
  const known = leftovers.stores.get(which);
  if (known !== undefined) return known;
  const root = join(dir, `store-${which}-${c.id}-${n}-${++storeNumber}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const artifacts = createLocalFolderArtifactStore({ root, prepareShardFolders: true, journal: true });
  const made = { artifacts, root };
  leftovers.stores.set(which, made);
  await artifacts.put({ schema_uri: 'jacobian:schema/bench.store-ready/v1', semantics_uri: 'jacobian:semantics/bench.store-ready/v1', payload: { store: 'ready' } });
  return made;
}

/**
 * Remove a run's pages from the store's folder (unmeasured, once their files are written), so
 * that the next run of the same enumeration stores them anew instead of finding them in place.
 */
async function forgetPages(store: { artifacts: LocalFolderArtifactStore; root: string }, uris: readonly string[]): Promise<void> {
  await store.artifacts.written();
  for (const uri of uris) {
    const manifestHex = uri.slice('artifact://sha256/'.length);
    const manifestFile = join(store.root, 'manifests', 'sha256', manifestHex.slice(0, 2), manifestHex);
    const payloadHex = (JSON.parse(readFileSync(manifestFile, 'utf8')) as { payload_digest: string }).payload_digest.slice('sha256:'.length);
    rmSync(manifestFile, { force: true });
    rmSync(join(store.root, 'blobs', 'sha256', payloadHex.slice(0, 2), payloadHex), { force: true });
  }
}

/** The capability on the k shards, one call after another, with the case's store. */
async function capabilityRun(installed: Installed, which: 'geng' | 'typescript', c: EnumerationCase, n: number, shards: number, dir: string, leftovers: Leftovers): Promise<SystemRun> {
  const store = await caseStore(which, c, n, dir, leftovers);
  const total = newSystemRun();
  const uris: string[] = [];
  try {
    for (let index = 0; index < shards && total.failure === undefined; index++) addRun(total, await capabilityShard(installed, which, c, n, shards, index, store, uris));
  } finally {
    await forgetPages(store, uris);
  }
  return total;
}

/**
 * The capability on shard `index` of k (the whole class when k = 1), with the case's store; its
 * pages' URIs are added to `uris`, for {@link forgetPages} once the round's runs are done.
 */
async function capabilityShard(
  installed: Installed,
  which: 'geng' | 'typescript',
  c: EnumerationCase,
  n: number,
  shards: number,
  index: number,
  store: { artifacts: LocalFolderArtifactStore },
  uris: string[],
): Promise<SystemRun> {
  const cpu = benchCpuMs();
  const payload = { order: n, ...c.payload, ...(c.countOnly ? { count_only: true } : {}), ...(shards > 1 ? { shard: { index, count: shards } } : {}) };
  const request = CapabilityRequestSchema.parse({ capability_id: CAPABILITY_ID, payload, budget: { wall_time_ms: WALL_TIME_MS, max_output_bytes: MAX_OUTPUT_BYTES } });
  const started = performance.now();
  const result = await executeCapability(installed[which], admitRequest(request), { artifacts: store.artifacts, executor: installed.executor }, new AbortController().signal);
  const ms = performance.now() - started;
  const checked = checkResult(result, c.countOnly);
  if (typeof checked === 'string') return { ms, cpu_ms: benchCpuMs() - cpu, count: 0, failure: `shard ${index}/${shards}: ${checked}` };
  uris.push(...checked.uris);
  return { ms, cpu_ms: benchCpuMs() - cpu, count: checked.count, pages: checked.uris.length };
}

/**
 * geng direct and the capability with the geng provider on the same k shards, interleaved: shard
 * by shard, each shard run by both back to back, and which of the two goes first alternating
 * with the shard and the round. So both meet the same phases of the machine's speed, which on
 * some hosts drifts by tens of per cent within seconds: run as two blocks of k shards each, one
 * system met a slow spell the other missed (on an Intel Xeon host, 2026-12-06, connected at
 * n = 10 read 1.12–1.34× in blocks and 1.05–1.09× interleaved; bench/README.md, `graphs`, Order).
 */
async function pairedRun(context: BenchContext, installed: Installed, c: EnumerationCase, n: number, shards: number, round_: number, dir: string, leftovers: Leftovers): Promise<{ direct: SystemRun; viaGeng: SystemRun }> {
  const store = await caseStore('geng', c, n, dir, leftovers);
  const direct = newSystemRun();
  const viaGeng = newSystemRun();
  const uris: string[] = [];
  try {
    for (let index = 0; index < shards && viaGeng.failure === undefined; index++) {
      const byGeng = async (): Promise<void> => addRun(direct, await gengShard(context, c, n, shards, index, dir, leftovers));
      const byCapability = async (): Promise<void> => addRun(viaGeng, await capabilityShard(installed, 'geng', c, n, shards, index, store, uris));
      for (const run of (index + round_) % 2 === 0 ? [byGeng, byCapability] : [byCapability, byGeng]) await run();
    }
  } finally {
    await forgetPages(store, uris);
  }
  return { direct, viaGeng };
}

/** The count and page URIs of a result, or what is wrong with it. */
function checkResult(result: CapabilityResult, countOnly: boolean): { count: number; uris: string[] } | string {
  if (result.execution.status !== 'COMPLETED' || result.completeness.status !== 'COMPLETE') {
    return `${result.execution.status}: ${JSON.stringify(result.diagnostics).slice(0, 400)}`;
  }
  const output = result.output as { count: number; listing: string; graphs: string[] | null; pages: { count: number; uri: string }[] };
  if (countOnly) return output.listing === 'NONE' ? { count: output.count, uris: [] } : `listing ${output.listing} for count_only`;
  const listed = output.listing === 'INLINE' ? (output.graphs ?? []).length : output.pages.reduce((sum, page) => sum + page.count, 0);
  if (listed !== output.count) return `count ${output.count} but ${listed} graphs listed`;
  return { count: output.count, uris: output.pages.map((page) => page.uri) };
}

// ---------------------------------------------------------------------------------------------
// The run

/**
 * One comparison of the benchmark. `graphs` runs each selected one in turn; each produces its
 * part of the report. `installed` installs (once) the in-process providers, warmed up.
 */
export interface GraphsComparison {
  id: string;
  selected(options: GraphsOptions): boolean;
  run(
    context: BenchContext,
    options: GraphsOptions,
    installed: () => Promise<Installed>,
  ): Promise<{ cases?: CaseReport[]; sharded?: ShardedReport; entry?: Record<string, unknown> }>;
}

/** The comparisons, in order: providers against geng direct, then the sharded enumeration on 2 runners against 1. */
export function graphsComparisons(): GraphsComparison[] {
  return [
    {
      id: 'providers-vs-geng',
      selected: (options) => options.cases.length === 0 || options.cases.some((id) => CASES.some((c) => c.id === id)),
      run: async (context, options, installed) => ({ cases: await providersVsGeng(context, options, await installed()) }),
    },
    {
      id: SHARDED_CASE,
      selected: (options) => options.cases.length === 0 || options.cases.includes(SHARDED_CASE),
      run: async (context, options) => {
        const sharded = await shardedRunners(context, options);
        return { sharded, entry: { order: sharded.order, shards: sharded.shards, speedup: sharded.speedup } };
      },
    },
  ];
}

/**
 * A case whose geng direct run (whole, first) takes less than this is short: a few rounds of it
 * swing with the machine's noise by more than the distance to a target (triangle-free at n = 10
 * was 1.08× on 3 rounds and 1.12–1.14× on 15, 2026-12-06), so it gets more.
 */
export const SHORT_CASE_MS = 250;
/** Fewest measured rounds of a short case, whatever --graphs-repeat says. */
export const SHORT_CASE_MIN_ROUNDS = 15;
/**
 * A short case also gets as many rounds as its geng direct run fits in this many milliseconds:
 * on an Intel Xeon host (2026-12-06), triangle-free at n = 10 (geng about 31 ms) measured 1.149×
 * [90 %: 0.997–1.367] on 15 rounds and 1.056× [1.014–1.129] on 40, minutes apart (bench/README.md,
 * `graphs`, Rounds).
 */
export const SHORT_CASE_GENG_MS = 2000;

/** Measured rounds of a case whose first geng direct run took `gengMs`. */
export function roundsFor(gengMs: number, repeat: number): number {
  if (!(gengMs < SHORT_CASE_MS)) return repeat;
  return Math.max(repeat, SHORT_CASE_MIN_ROUNDS, Math.ceil(SHORT_CASE_GENG_MS / Math.max(gengMs, 1)));
}

async function providersVsGeng(context: BenchContext, options: GraphsOptions, installed: Installed): Promise<CaseReport[]> {
  const dir = join(context.dir, 'graphs');
  mkdirSync(dir, { recursive: true });
  const selected = CASES.filter((c) => (options.cases.some((id) => CASES.some((known) => known.id === id)) ? options.cases : DEFAULT_CASES).includes(c.id));
  const reports: CaseReport[] = [];
  for (const n of options.orders) {
    for (const c of selected) {
      // Unmeasured: the same filters at order 8 by every system, so each provider's code paths
      // for them are compiled before the clock starts (a run at n = 9 lasts tens of milliseconds).
      const leftovers = newLeftovers();
      await gengDirect(context, c, 8, 1, dir, leftovers);
      for (const which of ['geng', 'typescript'] as const) await capabilityRun(installed, which, c, 8, 1, dir, leftovers);
      await removeLeftovers(leftovers);
      await context.waitQuiet(`graphs ${c.id} n=${n}`);
      const cpu = new CpuWindow(() => []);
      // geng whole first: its size decides the split, its count is the reference.
      const whole: SystemRun[] = [];
      whole.push(await gengDirect(context, c, n, 1, dir, leftovers));
      const shards = c.countOnly ? 1 : Math.max(1, Math.ceil((whole[0]?.bytes ?? 0) / options.shardBytes));
      const direct: SystemRun[] = [];
      const viaGeng: SystemRun[] = [];
      const viaTs: SystemRun[] = [];
      const rounds = roundsFor(whole[0]?.ms ?? Infinity, options.repeat);
      for (let round_ = 0; round_ < rounds; round_++) {
        if (shards > 1) {
          // geng whole is for reference; the ratios compare the same shards, run interleaved.
          if (round_ > 0) whole.push(await gengDirect(context, c, n, 1, dir, leftovers));
          const pair = await pairedRun(context, installed, c, n, shards, round_, dir, leftovers);
          direct.push(pair.direct);
          viaGeng.push(pair.viaGeng);
        } else if (round_ === 0) {
          // The first geng direct run was the one that decided the split; the capability follows it.
          viaGeng.push(await capabilityRun(installed, 'geng', c, n, 1, dir, leftovers));
        } else {
          // From then on the two alternate which goes first (pairedRun), as the shards of a split case do.
          const pair = await pairedRun(context, installed, c, n, 1, round_, dir, leftovers);
          whole.push(pair.direct);
          viaGeng.push(pair.viaGeng);
        }
        viaTs.push(await capabilityRun(installed, 'typescript', c, n, shards, dir, leftovers));
      }
      const load = cpu.lap();
      await removeLeftovers(leftovers);
      const wholeSummary = summary(whole);
      const directSummary = shards > 1 ? summary(direct) : wholeSummary;
      const gengSummary = summary(viaGeng);
      const tsSummary = summary(viaTs);
      const disagreements: string[] = [];
      const expected = c.oeis?.counts[n];
      if (expected !== undefined && wholeSummary.count !== expected) disagreements.push(`geng counted ${wholeSummary.count}, OEIS ${c.oeis?.id} says ${expected}`);
      for (const [name, runs] of [
        ['geng whole', whole],
        ['geng shards', direct],
        ['capability (geng)', viaGeng],
        ['capability (TypeScript)', viaTs],
      ] as const) {
        for (const run of runs) {
          if (run.failure !== undefined) disagreements.push(`${name}: ${run.failure}`);
          else if (run.count !== wholeSummary.count) disagreements.push(`${name} counted ${run.count}, geng whole ${wholeSummary.count}`);
        }
      }
      const report: CaseReport = {
        case: c.id,
        words: c.words,
        order: n,
        shards,
        rounds,
        geng_direct_shards: directSummary,
        geng_direct_whole: shards > 1 ? wholeSummary : null,
        capability_geng: gengSummary,
        capability_typescript: tsSummary,
        ratios: {
          geng_provider_vs_geng: ratio(gengSummary.ms, directSummary.ms),
          typescript_vs_geng: ratio(tsSummary.ms, directSummary.ms),
          geng_provider_vs_geng_cpu: ratio(gengSummary.cpu_ms, directSummary.cpu_ms),
          geng_provider_vs_geng_paired: paired(viaGeng, shards > 1 ? direct : whole),
          geng_provider_vs_geng_paired_by_order: shards > 1 || rounds < 2 ? null : pairedByOrder(viaGeng, whole),
          typescript_vs_geng_paired: paired(viaTs, shards > 1 ? direct : whole),
          geng_provider_vs_geng_interval: bootstrapRatioOfMedians(
            viaGeng.map((run) => run.ms),
            (shards > 1 ? direct : whole).map((run) => run.ms),
          ),
          typescript_vs_geng_cpu: ratio(tsSummary.cpu_ms, directSummary.cpu_ms),
          geng_provider_vs_geng_whole: shards > 1 ? ratio(gengSummary.ms, wholeSummary.ms) : null,
          typescript_vs_geng_whole: shards > 1 ? ratio(tsSummary.ms, wholeSummary.ms) : null,
        },
        oeis: c.oeis === undefined || expected === undefined ? null : `${c.oeis.id}(${n}) = ${expected}`,
        disagreements,
        other_cores: load.other_cores,
      };
      reports.push(report);
      context.log(
        `graphs: n=${n} ${c.id} (${shards} shard${shards === 1 ? '' : 's'}, ${rounds} round${rounds === 1 ? '' : 's'}): geng ${round(directSummary.ms, 0)} ms, capability/geng ${round(gengSummary.ms, 0)} ms (${report.ratios.geng_provider_vs_geng}×${intervalText(report.ratios.geng_provider_vs_geng_interval)}; paired ${report.ratios.geng_provider_vs_geng_paired}×${byOrderText(report.ratios.geng_provider_vs_geng_paired_by_order)}), capability/TS ${round(tsSummary.ms, 0)} ms (${report.ratios.typescript_vs_geng}×), count ${wholeSummary.count}${disagreements.length > 0 ? `; DISAGREEMENTS: ${disagreements.join('; ')}` : ''}`,
      );
    }
  }
  return reports;
}

// ---------------------------------------------------------------------------------------------
// Sharded enumeration: 2 runners against 1

/** The --graphs-cases name of the sharded comparison. */
export const SHARDED_CASE = 'sharded-2-runners';
/** Its work: every graph on 10 vertices, counted (geng -u 10: about 2.3 s of one core), in 8 shard jobs. */
const SHARDED_ORDER = 10;
const SHARDED_SHARDS = 8;
const SHARDED_BUDGET_MS = 300_000;
/**
 * Fewest measured rounds (one call per cluster each), whatever --graphs-repeat says: on an Intel
 * Xeon host (2026-12-06) four rounds gave 1.588× [90 %: 1.343–2.126].
 */
const SHARDED_MIN_ROUNDS = 8;
const SHARDED_BUCKET = 'jacobian-bench-graphs';

/** One split call to the cluster. */
interface ShardedCall {
  ms: number;
  count: number;
  /** Shard jobs each runner finished during the call, from the runners' logs. */
  jobs_by_runner: Record<string, number>;
  /** CPU time of each runner (with its geng children) over the call. */
  cpu_ms_by_runner: Record<string, number>;
  failure?: string;
}

interface ShardedPhase {
  runners: number;
  /** Median wall time of the split call. */
  ms: number;
  /** Median other load (cores) during its calls. */
  other_cores: number;
  /** Median over the calls of the busiest runner's CPU time: the call's length on an otherwise idle machine, less the queue's waits. */
  busiest_runner_cpu_ms: number;
  calls: ShardedCall[];
}

export interface ShardedReport {
  order: number;
  shards: number;
  payload: Record<string, unknown>;
  cores: number;
  pinned: boolean;
  /** geng -u in one process on the same class, for scale: the work without the queue or the split. */
  geng_direct_ms: number;
  one_runner: ShardedPhase;
  two_runners: ShardedPhase;
  /** one_runner.ms / two_runners.ms: the target's measure. */
  speedup: number;
  /** A 90 % bootstrap interval of the speed-up, each cluster's calls drawn on their own (see bootstrapRatioOfMedians in stats.ts). */
  speedup_interval: [number, number] | null;
  /** one_runner.busiest_runner_cpu_ms / two_runners.busiest_runner_cpu_ms: how evenly the shard jobs split the work (blind to other load). */
  cpu_speedup: number;
  /** The peer on the same split: what two cores give this machine's geng, without a queue (see {@link gengOnCores}). */
  geng_direct_cores: {
    /** Median wall time of the k shards one after another on one core. */
    one_core_ms: number;
    /** Median wall time of the k shards on two cores, half each. */
    two_cores_ms: number;
    speedup: number;
    speedup_interval: [number, number] | null;
    pinned: boolean;
  };
  disagreements: string[];
}

/**
 * The shell command of geng direct counting shards `indices` of k at order n, one after another,
 * each pinned to `core` (when taskset exists); it stops at the first failure.
 */
function gengShardLoop(n: number, k: number, indices: readonly number[], core: number | null): string {
  const pin = core === null ? '' : `/usr/bin/env taskset -c ${core} `;
  return `for i in ${indices.join(' ')}; do ${pin}${GENG_BINARY} -u ${n} $i/${k} || exit 1; done`;
}

/** `1 core` or `2 cores`. */
function coresText(cores: 1 | 2): string {
  return cores === 1 ? '1 core' : '2 cores';
}

/**
 * geng direct on the comparison's k shards, as a user with two cores would split it by hand: one
 * shell loop over all k shards on one core, against two loops at once (even shards on core 0,
 * odd on core 1), each timed by the shell that runs it (see peer.ts). Its speed-up is what the
 * machine's two cores give geng itself: on a host whose cores slow each other down (a shared
 * physical core, a shared clock), two runners cannot reach 2× either. Returns the wall time and
 * the count (the sum of the ">Z" lines), or what went wrong.
 */
async function gengOnCores(context: BenchContext, n: number, k: number, cores: 1 | 2, pinned: boolean): Promise<{ ms: number; count: number } | string> {
  const all = Array.from({ length: k }, (_, i) => i);
  const script =
    cores === 1
      ? gengShardLoop(n, k, all, pinned ? 0 : null)
      : `(${gengShardLoop(n, k, all.filter((i) => i % 2 === 0), pinned ? 0 : null)}) & a=$!; (${gengShardLoop(n, k, all.filter((i) => i % 2 === 1), pinned ? 1 : null)}) & b=$!; wait $a && wait $b`;
  const run = await runPeer(context, { file: '/bin/sh', args: ['-c', script], env: { LC_ALL: 'C', PATH: '/usr/bin:/bin' }, stdoutFile: null, stderrLimit: 16_384 });
  if (run.code !== 0) return `geng on ${coresText(cores)} exited with ${run.code ?? run.signal ?? '?'}: ${run.stderr.slice(0, 300)}`;
  const counts = [...run.stderr.matchAll(/>Z (\d+) graphs generated/g)].map((m) => Number(m[1]));
  if (counts.length !== k) return `geng on ${coresText(cores)} printed ${counts.length} counts for ${k} shards`;
  return { ms: round(run.ms, 1), count: counts.reduce((a, b) => a + b, 0) };
}

/** Wait until the API's catalog offers the capability (runners advertise through Redis). */
async function waitForOffer(url: URL, capability: string, timeoutMs = 90_000): Promise<void> {
  const client = new HttpClient(url, 1);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const outcome = parseToolCall(await client.post(toolCall('modern', 1, 'math.find', { capability_id: capability })));
      if (outcome.result?.structuredContent?.['capability'] != null) return;
      if (Date.now() > deadline) throw new Error(`${url.href} did not offer ${capability} within ${timeoutMs} ms: ${JSON.stringify(outcome).slice(0, 500)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    client.close();
  }
}

/** Shard jobs of `parent` each runner's log says it finished, by runner name. */
function finishedShardJobs(runners: readonly JacobianProcess[], parentJobId: string): Record<string, number> {
  const byRunner: Record<string, number> = {};
  for (const runner of runners) {
    byRunner[runner.process.name] = readJsonLines(runner.process.logFile).filter(
      (entry) => entry['msg'] === 'run finished' && typeof entry['job_id'] === 'string' && entry['job_id'].startsWith(`${parentJobId}.s`),
    ).length;
  }
  return byRunner;
}

/** One cluster of the comparison: an API and its runners, on their own queue prefix. */
interface ShardedCluster {
  label: string;
  api: JacobianProcess;
  client: HttpClient;
  runners: JacobianProcess[];
  calls: ShardedCall[];
  other_cores: number[];
}

/**
 * The sharded comparison. Two clusters share one Redis and one s3rver, each on its own queue
 * prefix: `1 runner` (a `jacobian api` and one `jacobian runner --pools heavy`) and `2 runners`
 * (an api and two runners). Every runner has JACOBIAN_CONCURRENCY=1 (one job, one process-pool
 * child) and is pinned to one core when taskset exists: the single runner and the first of the
 * pair to core 0, the second of the pair to core 1. Idle clusters use no CPU, so the rounds
 * alternate between them (1, 2, then 2, 1, …): both see the same drift in the load of the
 * shared machine. Each cluster first answers one unmeasured split call at n = 9 (its runners'
 * first jobs); then each of max(8, --graphs-repeat) rounds makes one measured split call at
 * n = 10 on each, and the medians are compared; after the two calls of a round, geng direct runs
 * the same k shards on one core and on two ({@link gengOnCores}), for what the machine's two
 * cores give the peer. Every call
 * has its own budget (wall_time_ms differs by a millisecond), so its job ID is new and nothing
 * is served from the queue's cache. Checked: each call COMPLETED and COMPLETE, its count equals
 * OEIS A000088(10), it names all k shard jobs, and the runners' logs account for every one.
 */
async function shardedRunners(context: BenchContext, options: GraphsOptions): Promise<ShardedReport> {
  const n = SHARDED_ORDER;
  const k = SHARDED_SHARDS;
  const expected = A000088.counts[n] as number;
  const payload = { order: n, count_only: true, split: { shards: k } };
  const disagreements: string[] = [];
  // Its calls last a second or two on a shared machine: never fewer than SHARDED_MIN_ROUNDS rounds (1, 2, 2, 1, …).
  const rounds = Math.max(SHARDED_MIN_ROUNDS, options.repeat);

  await context.waitQuiet('graphs sharded: geng direct');
  const direct: number[] = [];
  for (let round_ = 0; round_ < rounds; round_++) {
    const run = await runGengOnce(context, ['-u', String(n)], null, newLeftovers());
    if (run.count !== expected) disagreements.push(`geng -u ${n} counted ${run.count}, OEIS A000088 says ${expected}`);
    direct.push(run.ms);
  }

  context.log('graphs sharded: starting Redis, s3rver and two clusters (api + 1 runner, api + 2 runners)');
  const redis = await startRedisServer();
  context.cleanups.push(() => redis.stop());
  const s3 = startChild(context, 'graphs-s3rver', 's3rver.ts', { env: { BENCH_S3_BUCKET: SHARDED_BUCKET }, pipeStdout: true, pipeStdin: true });
  const s3Info = (await new JsonLineReader(s3.child.stdout as NonNullable<typeof s3.child.stdout>, 's3rver').next(60_000)) as
    | { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string }
    | undefined;
  if (s3Info === undefined) throw new Error(`s3rver did not start; see ${s3.logFile}`);
  const keys = generateCheckerKeys(context);
  const tag = randomBytes(3).toString('hex');
  const environment = (prefix: string, name: string, extra: Record<string, string>): Record<string, string> =>
    jacobianEnvironment(context, name, {
      REDIS_URL: redis.url,
      JACOBIAN_PREFIX: prefix,
      S3_BUCKET: SHARDED_BUCKET,
      S3_REGION: s3Info.region,
      S3_ENDPOINT: s3Info.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: s3Info.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3Info.secretAccessKey,
      AWS_REGION: s3Info.region,
      AWS_EC2_METADATA_DISABLED: 'true',
      JACOBIAN_CHECKER_PUBLIC_KEYS: keys.publicKey,
      JACOBIAN_OPS_PORT: '0',
      ...extra,
    });
  const startCluster = async (label: string, size: number): Promise<ShardedCluster> => {
    const prefix = `graphs-${tag}-${size}`;
    const runners = await Promise.all(
      Array.from({ length: size }, (_, i) =>
        startJacobian(context, `graphs-${size}-runner-${i + 1}`, ['runner', '--pools', 'heavy'], {
          env: environment(prefix, `graphs-${size}-runner-${i + 1}`, { JACOBIAN_CONCURRENCY: '1' }),
          core: i,
          readyMessage: 'runner taking jobs',
        }),
      ),
    );
    const api = await startJacobian(context, `graphs-${size}-api`, ['api', '--host', '127.0.0.1', '--port', '0'], { env: environment(prefix, `graphs-${size}-api`, {}) });
    if (api.url === undefined) throw new Error(`the api of the ${label} cluster did not log its URL`);
    await waitForOffer(api.url, CAPABILITY_ID);
    const client = new HttpClient(api.url, 1);
    context.cleanups.push(() => {
      client.close();
      return Promise.resolve();
    });
    return { label, api, client, runners, calls: [], other_cores: [] };
  };
  const clusters = [await startCluster('1 runner', 1), await startCluster('2 runners', 2)] as const;

  let callId = 0;
  /** One split call of `order` to `cluster`, checked. */
  const call = async (cluster: ShardedCluster, order: number): Promise<ShardedCall> => {
    callId++;
    const budget = { wall_time_ms: SHARDED_BUDGET_MS + callId };
    const { runners } = cluster;
    const cpuBefore = runners.map((r) => cpuMs(r.process.pid));
    const started = performance.now();
    const response = await cluster.client.post(toolCall('modern', callId, 'math.run', { capability_id: CAPABILITY_ID, payload: { ...payload, order }, budget }));
    const ms = round(performance.now() - started, 1);
    const cpu = Object.fromEntries(runners.map((r, i) => [r.process.name, round(cpuMs(r.process.pid) - (cpuBefore[i] ?? 0), 0)]));
    const outcome = parseToolCall(response);
    const result = outcome.result?.structuredContent as
      | { execution?: { status?: string; job_id?: string }; completeness?: { status?: string }; output?: { count?: number }; diagnostics?: { code?: string }[] }
      | undefined;
    const jobId = result?.execution?.job_id ?? '';
    // A runner logs a job's end just after answering it: give the logs a moment to catch up.
    let jobs = finishedShardJobs(runners, jobId);
    for (let i = 0; i < 20 && Object.values(jobs).reduce((a, b) => a + b, 0) < k; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      jobs = finishedShardJobs(runners, jobId);
    }
    const base = { ms, count: result?.output?.count ?? 0, jobs_by_runner: jobs, cpu_ms_by_runner: cpu };
    const wanted = order === n ? expected : A000088.counts[order];
    const failure =
      result?.execution?.status !== 'COMPLETED' || result.completeness?.status !== 'COMPLETE'
        ? `${result?.execution?.status ?? 'no result'}: ${(outcome.error ?? JSON.stringify(result?.diagnostics ?? result)).slice(0, 400)}`
        : (result.diagnostics ?? []).filter((d) => d.code === 'SHARD_CHILD').length !== k
          ? `the result does not name ${k} shard jobs`
          : Object.values(jobs).reduce((a, b) => a + b, 0) !== k
            ? `the runners' logs show ${Object.values(jobs).reduce((a, b) => a + b, 0)} finished shard jobs, not ${k}`
            : base.count !== wanted
              ? `counted ${base.count}, OEIS A000088(${order}) says ${wanted}`
              : undefined;
    if (failure !== undefined) disagreements.push(`${cluster.label}, n = ${order}: ${failure}`);
    return failure === undefined ? base : { ...base, failure };
  };

  for (const cluster of clusters) await call(cluster, n - 1);
  const tasksetPinned = hasTaskset();
  const peerOneCore: number[] = [];
  const peerTwoCores: number[] = [];
  await context.waitQuiet('graphs sharded: clusters');
  for (let round_ = 0; round_ < rounds; round_++) {
    for (const cluster of round_ % 2 === 0 ? clusters : [...clusters].reverse()) {
      const window = new CpuWindow(() => (redis.pid > 0 ? [redis.pid] : []));
      const measured = await call(cluster, n);
      cluster.other_cores.push(window.lap().other_cores);
      cluster.calls.push(measured);
      context.log(`graphs sharded: ${cluster.label}: ${measured.ms} ms, shard jobs by runner ${JSON.stringify(measured.jobs_by_runner)}, runner CPU ms ${JSON.stringify(measured.cpu_ms_by_runner)}`);
    }
    // The peer on the same split, in the same round (the clusters are idle meanwhile).
    for (const cores of round_ % 2 === 0 ? ([1, 2] as const) : ([2, 1] as const)) {
      const peer = await gengOnCores(context, n, k, cores, tasksetPinned);
      if (typeof peer === 'string') {
        disagreements.push(peer);
        continue;
      }
      context.log(`graphs sharded: geng direct, ${k} shards on ${coresText(cores)}: ${peer.ms} ms`);
      if (peer.count !== expected) disagreements.push(`geng on ${coresText(cores)} counted ${peer.count}, OEIS A000088 says ${expected}`);
      else (cores === 1 ? peerOneCore : peerTwoCores).push(peer.ms);
    }
  }
  if (clusters[1].calls.some((c) => Object.values(c.jobs_by_runner).some((jobs) => jobs === 0))) {
    context.log('graphs sharded: WARNING: a runner took no shard job in a 2-runner call');
  }
  const phases = clusters.map(
    (cluster): ShardedPhase => ({
      runners: cluster.runners.length,
      ms: round(median(cluster.calls.map((c) => c.ms)), 1),
      busiest_runner_cpu_ms: round(median(cluster.calls.map((c) => Math.max(...Object.values(c.cpu_ms_by_runner)))), 0),
      calls: cluster.calls,
      other_cores: round(median(cluster.other_cores), 2),
    }),
  );
  const pinned = clusters.every((cluster) => cluster.runners.every((r) => r.process.core !== undefined));
  for (const cluster of clusters) {
    for (const runner of cluster.runners) await runner.process.stop();
    await cluster.api.process.stop();
  }
  await s3.stop();

  const [one, two] = phases as [ShardedPhase, ShardedPhase];
  const speedup = ratio(one.ms, two.ms);
  const speedupInterval = bootstrapRatioOfMedians(
    one.calls.map((c) => c.ms),
    two.calls.map((c) => c.ms),
    { paired: false },
  );
  const cpuSpeedup = ratio(one.busiest_runner_cpu_ms, two.busiest_runner_cpu_ms);
  const peerOne = peerOneCore.length === 0 ? 0 : round(median(peerOneCore), 1);
  const peerTwo = peerTwoCores.length === 0 ? 0 : round(median(peerTwoCores), 1);
  const gengDirectCores = {
    one_core_ms: peerOne,
    two_cores_ms: peerTwo,
    speedup: peerTwo > 0 ? ratio(peerOne, peerTwo) : 0,
    speedup_interval: peerOneCore.length === peerTwoCores.length ? bootstrapRatioOfMedians(peerOneCore, peerTwoCores) : null,
    pinned: tasksetPinned,
  };
  context.log(
    `graphs sharded: n=${n} in ${k} shard jobs: 1 runner ${one.ms} ms, 2 runners ${two.ms} ms (${speedup}×${intervalText(speedupInterval)}; busiest runner's CPU ${cpuSpeedup}×); geng direct ${round(median(direct), 0)} ms; geng direct on the same shards, 1 core ${peerOne} ms, 2 cores ${peerTwo} ms (${gengDirectCores.speedup}×${intervalText(gengDirectCores.speedup_interval)})`,
  );
  return {
    order: n,
    shards: k,
    payload,
    cores: availableParallelism(),
    pinned,
    geng_direct_ms: round(median(direct), 1),
    one_runner: one,
    two_runners: two,
    speedup,
    speedup_interval: speedupInterval,
    cpu_speedup: cpuSpeedup,
    geng_direct_cores: gengDirectCores,
    disagreements,
  };
}

export async function runGraphsBench(context: BenchContext, options: GraphsOptions): Promise<GraphsReport> {
  const version = checkGeng();
  for (const id of options.cases) {
    if (!CASES.some((c) => c.id === id) && id !== SHARDED_CASE) throw new Error(`--graphs-cases: ${id} is not one of ${[...CASES.map((c) => c.id), SHARDED_CASE].join(', ')}`);
  }
  let installing: Promise<Installed> | undefined;
  const installed = (): Promise<Installed> => (installing ??= installAndWarmUp(context));
  const cases: CaseReport[] = [];
  const comparisons: Record<string, unknown>[] = [];
  const sharded: ShardedReport[] = [];
  for (const comparison of graphsComparisons()) {
    if (!comparison.selected(options)) continue;
    const part = await comparison.run(context, options, installed);
    if (part.cases !== undefined) cases.push(...part.cases);
    if (part.sharded !== undefined) sharded.push(part.sharded);
    comparisons.push({ id: comparison.id, ...(part.entry ?? {}) });
  }

  const at = (n: number, key: 'geng_provider_vs_geng' | 'typescript_vs_geng'): number[] => cases.filter((c) => c.order === n).map((c) => c.ratios[key]);
  const worst = (values: number[]): number => (values.length === 0 ? Number.NaN : Math.max(...values));
  const targets: GraphsReport['targets'] = [];
  if (cases.length > 0 && options.orders.includes(10)) {
    const geng10 = worst(at(10, 'geng_provider_vs_geng'));
    // The worst case's bootstrap interval (see CaseReport.ratios): whether the verdict could go either way.
    const worstCase = cases.find((c) => c.order === 10 && c.ratios.geng_provider_vs_geng === geng10);
    const interval = worstCase?.ratios.geng_provider_vs_geng_interval ?? null;
    targets.push({ name: 'geng provider vs geng direct, n = 10 (worst case)', target: '≤ 1.10×', measured: `${geng10}×${intervalText(interval)}`, met: geng10 <= 1.1 });
  }
  for (const n of cases.length > 0 ? options.orders.filter((o) => o === 9 || o === 10) : []) {
    const ts = worst(at(n, 'typescript_vs_geng'));
    targets.push({ name: `TypeScript provider vs geng direct, n = ${n} (worst case)`, target: '≤ 5×', measured: `${ts}×`, met: ts <= 5 });
  }
  for (const report of sharded) {
    targets.push({
      name: `sharded enumeration (n = ${report.order}, ${report.shards} shard jobs), 2 runners vs 1 on ${report.cores} cores`,
      target: '≥ 1.8×',
      measured: `${report.speedup}×${intervalText(report.speedup_interval)}; geng direct 1 vs 2 cores ${report.geng_direct_cores.speedup}×`,
      met: report.disagreements.length === 0 && report.speedup >= 1.8,
    });
  }
  return {
    benchmark: 'graphs',
    options: { ...options, capability_id: CAPABILITY_ID, geng: GENG_BINARY, geng_version: version, measured: 'in process: executeCapability with a local-folder artifact store and a process pool of 1; sharded: math.run over MCP HTTP to a cluster' },
    comparisons,
    cases,
    sharded,
    targets,
    notes: [
      `times are medians over the rounds (--graphs-repeat; for a case whose geng direct run takes under ${SHORT_CASE_MS} ms, whose few rounds swing with the machine's noise, at least ${SHORT_CASE_MIN_ROUNDS} and as many as fit ${SHORT_CASE_GENG_MS} ms of geng direct); ratios divide the capability by geng direct on the same shards (wall time; the targets are on wall time)`,
      'geng direct and the capability with the geng provider run interleaved: shard by shard (one shard: round by round), back to back, the one that goes first alternating; the TypeScript provider runs after them in each round',
      'geng-prov × 90 % is a bootstrap interval of the ratio of the medians (2000 resamples of the rounds, each round\'s two runs kept together, a fixed seed): how far that ratio moves with the rounds drawn; a target whose wanted value lies inside it is met or missed by the draw',
      'paired × is the median over the rounds of each round\'s capability time over that round\'s geng direct time (they run one after the other): a drift of the machine between rounds cancels out of it, not out of the ratio of the medians, on which the targets are',
      'cpu × divides CPU time (this process and its children: geng, the kernel pool child) the same way; it ignores other load on the machine but also the overlap of the provider with geng on the second core',
      'n ≤ 9 runs take tens of milliseconds, so their ratios carry the fixed cost of a call (request admission, spawning geng, storing a page) and the noise of a shared machine',
      'sharded: the speed-up (the target) is the median wall time of the split call with 1 runner over that with 2 runners; other_cores is the load of processes outside the benchmark while each phase ran (the machine is shared), which the second runner competes with; cpu × divides the busiest runner\'s CPU time the same way: how evenly the shard jobs split the work, blind to that load',
      'a failed enumeration or a count that disagrees with geng or OEIS is listed under disagreements and fails the run',
    ],
    stopped: [],
  };
}

/** Install both providers and warm them up (the pool's child, the JIT of the recheck and the labeller, geng's pages in the cache). */
async function installAndWarmUp(context: BenchContext): Promise<Installed> {
  const installed = await install(context);
  const warmDir = join(context.dir, 'graphs-warm-up');
  mkdirSync(warmDir, { recursive: true });
  const warm: EnumerationCase = { id: 'warm-up', words: 'warm-up', gengFlags: [], payload: {}, countOnly: false };
  const leftovers = newLeftovers();
  try {
    for (let i = 0; i < 2; i++) {
      await gengDirect(context, warm, 8, 1, warmDir, leftovers);
      for (const which of ['geng', 'typescript'] as const) {
        const run = await capabilityRun(installed, which, warm, 8, 2, warmDir, leftovers);
        if (run.failure !== undefined || run.count !== 12_346) throw new Error(`the warm-up enumeration of order 8 by the ${which} provider failed: ${run.failure ?? `count ${run.count}`}`);
      }
    }
  } finally {
    await removeLeftovers(leftovers);
  }
  return installed;
}

export function printGraphsTables(report: GraphsReport): string {
  const rows = report.cases.map((c) => [
    c.order,
    c.case,
    c.capability_geng.count,
    c.shards,
    c.rounds,
    c.geng_direct_whole?.ms ?? c.geng_direct_shards.ms,
    c.geng_direct_shards.ms,
    c.capability_geng.ms,
    c.capability_typescript.ms,
    c.ratios.geng_provider_vs_geng,
    c.ratios.geng_provider_vs_geng_interval === null ? '' : c.ratios.geng_provider_vs_geng_interval.join('–'),
    c.ratios.typescript_vs_geng,
    c.ratios.geng_provider_vs_geng_paired,
    c.ratios.geng_provider_vs_geng_cpu,
    c.ratios.typescript_vs_geng_cpu,
    c.other_cores,
    c.disagreements.length === 0 ? 'ok' : 'MISMATCH',
  ]);
  const main = table(['n', 'case', 'count', 'shards', 'rounds', 'geng whole ms', 'geng shards ms', 'cap/geng ms', 'cap/TS ms', 'geng-prov ×', 'geng-prov × 90 %', 'TS ×', 'geng-prov paired ×', 'geng-prov cpu ×', 'TS cpu ×', 'other cores', 'counts'], rows);
  const targets = table(
    ['target', 'wanted', 'measured', 'met'],
    report.targets.map((t) => [t.name, t.target, t.measured, t.met]),
  );
  const sharded = report.sharded.map((s) =>
    table(
      ['sharded', 'runners', 'median ms', 'calls ms', 'shard jobs by runner', 'busiest runner cpu ms', 'other cores'],
      [s.one_runner, s.two_runners].map((p) => [
        `n=${s.order}, ${s.shards} shard jobs, count only`,
        p.runners,
        p.ms,
        p.calls.map((c) => c.ms).join(' '),
        p.calls.map((c) => Object.values(c.jobs_by_runner).join('+')).join(' '),
        p.busiest_runner_cpu_ms,
        p.other_cores,
      ]),
    ) +
    `\n(geng -u ${s.order} in one process: ${s.geng_direct_ms} ms; 2 runners vs 1: ${s.speedup}× wall${intervalText(s.speedup_interval)}, ${s.cpu_speedup}× busiest runner's CPU${s.pinned ? '; runners pinned one core each' : ''}; geng direct on the same ${s.shards} shards: 1 core ${s.geng_direct_cores.one_core_ms} ms, 2 cores ${s.geng_direct_cores.two_cores_ms} ms, ${s.geng_direct_cores.speedup}×${intervalText(s.geng_direct_cores.speedup_interval)})`,
  );
  const problems = [
    ...report.cases.flatMap((c) => c.disagreements.map((d) => `n=${c.order} ${c.case}: ${d}`)),
    ...report.sharded.flatMap((s) => s.disagreements.map((d) => `sharded n=${s.order}: ${d}`)),
  ];
  const parts = [...(report.cases.length > 0 ? [main, ''] : []), ...sharded.flatMap((t) => [t, '']), targets];
  return [...parts, ...(problems.length > 0 ? ['', 'DISAGREEMENTS:', ...problems] : [])].join('\n');
}
