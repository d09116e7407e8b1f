/**
 * nauty's geng (Brendan McKay) as the provider of graph.enumerate.nonisomorphic: its probe,
 * its command line, and reading what it prints.
 *
 * geng is not one of the tools the nauty provider's probe vouches for (labelg and dreadnaut), so
 * it has a probe of its own: it finds the executable, identifies the bytes that will run (geng
 * and the libnauty it loads), and proves it on published counts before a capability registers
 * with it. Runs go through runNativeTool: no shell, bounded output, killed on the deadline or a
 * cancel. geng's own count (its `>Z` line) must equal the number of graphs it wrote.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  canonicalDigest,
  decodeGraph6,
  JacobianError,
  platformTag,
  ProviderRuntimeSchema,
  toAppError,
  type ProviderProbe,
  type ProviderRuntime,
} from '@jacobian/shared';
import { runSpooled } from '../native/spooled.js';
import { ensureHealthy, type HealthCache } from '../providers/health-cache.js';
import { component, DEFAULT_NAUTY_DIRECTORIES, linkedNautyLibraries, locate, runNativeTool, type NativeRunOptions } from '../providers/nauty.js';
import type { EnumerationFilters, EnumerationShard } from './enumerate.kernel.js';

/** The provider name geng registers under (ProviderRuntime.provider). */
export const GENG_PROVIDER = 'nauty-geng';

/** geng's largest order (its MAXN: "n must be in the range 1..32"). */
export const GENG_MAX_ORDER = 32;

/** Debian prefixes nauty's gtools with `nauty-`; upstream and Homebrew install them bare. */
const GENG_NAMES = ['nauty-geng', 'geng'];

const INSTALL_HINT = 'install the Debian package nauty (scripts/install-system-deps.sh does)';
const PROBE_TIMEOUT_MS = 10_000;

/** Where to find geng. Entry points pass what their configuration says (NautyProbeOptions fits). */
export interface GengProbeOptions {
  /** Directories searched, in order (default DEFAULT_NAUTY_DIRECTORIES). */
  directories?: readonly string[];
  /** Path of geng, used as is instead of searching. */
  geng?: string;
  /** Health checks remembered across starts (see health-cache.ts); without it, every probe checks. */
  health?: HealthCache;
}

/** The executable a successful probe vouched for. */
export interface GengTool {
  /** Absolute path (symlinks resolved). */
  readonly geng: string;
  /** nauty's version id as geng prints it, e.g. "2.8001" (Debian's 2.8.6). */
  readonly version: string;
  /** WORDSIZE geng was built with. */
  readonly wordSize: number;
}

/** The method string results served by geng carry: the version decides the order of its output and its res/mod split. */
export function gengMethod(tool: GengTool): string {
  return `nauty-geng ${tool.version} (${tool.wordSize} bits)`;
}

/** What to enumerate, normalized (order ≥ 1: geng does not take 0). */
export interface GengRequest {
  order: number;
  filters: EnumerationFilters;
  shard: EnumerationShard | null;
  /** `-u`: count without writing graphs. */
  countOnly: boolean;
}

/**
 * geng's arguments for a request. Every bound is written out: degrees as -d/-D, the edge range
 * as `mine:maxe` (never `#:0`, which geng reads as "# or more"), the shard as `res/mod`.
 * No -q: geng's `>Z` line carries its count.
 */
export function gengArguments(request: GengRequest): string[] {
  const { order, filters: f, shard } = request;
  if (!Number.isInteger(order) || order < 1 || order > GENG_MAX_ORDER) throw new RangeError(`geng takes orders 1..${GENG_MAX_ORDER}, not ${order}`);
  if (f.min_edges > f.max_edges) throw new RangeError('the edge range is empty; decide it without geng');
  const flags: string[] = [];
  if (f.biconnected) flags.push('-C');
  else if (f.connected) flags.push('-c');
  if (f.triangle_free) flags.push('-t');
  if (f.c4_free) flags.push('-f');
  if (f.bipartite) flags.push('-b');
  flags.push(`-d${f.min_degree}`, `-D${f.max_degree}`, request.countOnly ? '-u' : '-g');
  return [...flags, String(order), `${f.min_edges}:${f.max_edges}`, ...(shard === null ? [] : [`${shard.index}/${shard.count}`])];
}

/** What geng reported. */
export interface GengAnswer {
  /** geng's count, from its `>Z` line. */
  count: number;
  /** The graphs it wrote, graph6 (null when counting only). */
  graphs: string[] | null;
}

const START_LINE = /^>A \S+ .*$/;
const COUNT_LINE = /^>Z (\d+) graphs generated in \d+(?:\.\d+)? sec$/;

/** geng's count from its stderr (an `>A` line then a `>Z` line); anything else is PROVIDER_FAILED. */
export function parseGengCount(stderr: string): number {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '');
  const last = lines.at(-1) ?? '';
  const match = COUNT_LINE.exec(last);
  if (match === null || lines.length !== 2 || !START_LINE.test(lines[0] ?? '')) {
    throw new JacobianError('PROVIDER_FAILED', `geng's report could not be read: ${JSON.stringify(stderr.slice(0, 300))}`);
  }
  const count = Number(match[1]);
  if (!Number.isSafeInteger(count)) throw new JacobianError('PROVIDER_FAILED', `geng reported ${match[1]} graphs, beyond exact integers`);
  return count;
}

/**
 * Run geng. When listing, its stdout must be exactly `count` graph6 lines (the lines are not
 * decoded here; the capability rechecks each graph); when counting, it must write nothing.
 *
 * @throws JacobianError PROVIDER_FAILED on a failed run or output that disagrees with geng's
 *   count; the codes of runNativeTool when the run is stopped (EXECUTION_TIMEOUT,
 *   EXECUTION_CANCELLED, OUTPUT_LIMIT_EXCEEDED past `maxOutputBytes`).
 */
export async function runGeng(tool: GengTool, request: GengRequest, options: NativeRunOptions): Promise<GengAnswer> {
  const out = await runNativeTool(tool.geng, gengArguments(request), '', options);
  const count = parseGengCount(out.stderr);
  if (request.countOnly) {
    if (out.stdout !== '') throw new JacobianError('PROVIDER_FAILED', 'geng -u wrote graphs although it was asked only to count');
    return { count, graphs: null };
  }
  if (count === 0) {
    if (out.stdout !== '') throw new JacobianError('PROVIDER_FAILED', 'geng reported 0 graphs but wrote some');
    return { count, graphs: [] };
  }
  if (!out.stdout.endsWith('\n')) throw new JacobianError('PROVIDER_FAILED', "geng's output does not end with a complete line");
  const graphs = out.stdout.slice(0, -1).split('\n');
  if (graphs.length !== count) {
    throw new JacobianError('PROVIDER_FAILED', `geng reported ${count} graphs but wrote ${graphs.length} lines; the answer was discarded`);
  }
  return { count, graphs };
}

// ---------------------------------------------------------------------------------------------
// Probe

/**
 * Health check on published counts (OEIS A000088, A001349): geng -u counts 34 graphs on 5
 * vertices, and geng -c writes exactly the 6 connected graphs on 4 vertices, as graph6 of
 * order 4 that its `>Z` line counts.
 */
async function healthCheck(tool: GengTool, signal: AbortSignal | undefined): Promise<void> {
  const options = { signal, deadline: Date.now() + PROBE_TIMEOUT_MS, maxOutputBytes: 64 * 1024 };
  const all = (order: number) => ({ connected: false, biconnected: false, triangle_free: false, c4_free: false, bipartite: false, min_degree: 0, max_degree: order - 1, min_edges: 0, max_edges: (order * (order - 1)) / 2 });
  const counted = await runGeng(tool, { order: 5, filters: all(5), shard: null, countOnly: true }, options);
  if (counted.count !== 34) throw new Error(`geng -u counted ${counted.count} graphs on 5 vertices, not 34`);
  const listed = await runGeng(tool, { order: 4, filters: { ...all(4), connected: true }, shard: null, countOnly: false }, options);
  const graphs = listed.graphs ?? [];
  if (graphs.length !== 6 || new Set(graphs).size !== 6 || graphs.some((g) => decodeGraph6(g).order !== 4)) {
    throw new Error(`geng -c 4 wrote ${JSON.stringify(graphs)}, not 6 distinct graphs of order 4`);
  }
}

/** A successful probe: the runtime record and the executable it describes. */
export interface GengProbeResult {
  runtime: ProviderRuntime;
  tool: GengTool;
}

/**
 * Find geng, identify it and prove it healthy. The digest is COMPOSITE: sha256 over the
 * canonical list of (role, file name, size, sha256) of geng and the libnauty objects it loads.
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE when geng is missing, is not nauty's, or fails
 *   the health check (EXECUTION_CANCELLED when `signal` aborts).
 */
export async function probeGeng(options: GengProbeOptions = {}, signal?: AbortSignal): Promise<GengProbeResult> {
  const directories = options.directories ?? DEFAULT_NAUTY_DIRECTORIES;
  const explicit = options.geng;
  const geng = explicit === undefined ? await locate(GENG_NAMES, directories) : await locate([path.basename(explicit)], [path.dirname(explicit)]);
  if (geng === null) {
    throw new JacobianError('PROVIDER_UNAVAILABLE', `nauty's geng is not installed: no executable ${explicit ?? `${GENG_NAMES.join(' or ')} in ${directories.join(', ')}`}; ${INSTALL_HINT}`);
  }
  try {
    const out = await runNativeTool(geng, ['--version'], '', { signal, deadline: Date.now() + PROBE_TIMEOUT_MS, maxOutputBytes: 4096 });
    const match = /Nauty&Traces version (\d+\.\d+) \((\d+) bits\)/.exec(out.stdout);
    if (match === null) throw new Error(`geng --version printed ${JSON.stringify(out.stdout.slice(0, 100))}, not a nauty version line`);
    const tool: GengTool = { geng, version: match[1] ?? '', wordSize: Number(match[2]) };
    const libraries = [...new Set(await linkedNautyLibraries(geng, signal))].sort();
    const parts = (await Promise.all([component('geng', geng), ...libraries.map((lib) => component('library', lib))])).map((part) => part.component);
    const digest = canonicalDigest(parts);
    const identity = { provider: GENG_PROVIDER, version: tool.version, digest_kind: 'COMPOSITE', digest, platform: platformTag(), paths: [geng, ...libraries], check_module: fileURLToPath(import.meta.url) };
    await ensureHealthy(options.health, () => identity, () => healthCheck(tool, signal));
    const copyright = path.join(path.dirname(path.dirname(geng)), 'share', 'doc', 'nauty', 'copyright');
    const licenseFiles = await access(copyright, constants.R_OK).then(
      () => [copyright],
      () => [],
    );
    const runtime = ProviderRuntimeSchema.parse({
      provider: GENG_PROVIDER,
      availability: 'AVAILABLE',
      version: tool.version,
      digest_kind: 'COMPOSITE',
      digest,
      platform: platformTag(),
      install_tier: 'T1',
      license_id: 'Apache-2.0',
      license_files: licenseFiles,
      features: ['graph-enumeration', 'res-mod-split', `max-order-${GENG_MAX_ORDER}`, `wordsize-${tool.wordSize}`, ...(libraries.length > 0 ? ['libnauty-digested'] : [])],
    });
    return { runtime, tool };
  } catch (error) {
    const cause = toAppError(error);
    if (cause.code === 'EXECUTION_CANCELLED') throw cause;
    throw new JacobianError('PROVIDER_UNAVAILABLE', `nauty's geng failed its probe (${geng}): ${cause.message}; ${INSTALL_HINT}`, { cause: error });
  }
}

/** The geng probe, remembering the executable its last successful probe vouched for. */
export interface GengProbe extends ProviderProbe {
  /** The executable of the last successful probe; undefined before one. */
  readonly tool: GengTool | undefined;
}

/** A ProviderProbe for geng; a capability created for its runtime runs {@link GengProbe.tool}. */
export function gengProvider(options: GengProbeOptions = {}): GengProbe {
  let tool: GengTool | undefined;
  return {
    name: GENG_PROVIDER,
    get tool() {
      return tool;
    },
    async probe(signal) {
      const result = await probeGeng(options, signal);
      tool = result.tool;
      return result.runtime;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Streaming a listing

/**
 * Run geng to list graphs, handing what it writes to `onChunk` as it comes, so the caller's work
 * on the lines overlaps with geng's: through {@link runSpooled} (the native-tool launcher, a
 * spool file read as it grows; no shell, a minimal environment, SIGKILL on the deadline, a
 * cancel, past `maxOutputBytes`, or when `onChunk` throws).
 *
 * `onChunk` gets a view of a buffer that is reused: its bytes are valid until `onChunk`
 * returns, or, when it returns a promise, until that settles; reading waits for the promise
 * (geng does not: it keeps writing to the file).
 *
 * @returns geng's own count (its `>Z` line); comparing it with the lines taken is the caller's.
 * @throws JacobianError PROVIDER_FAILED on a failed run, an unreadable report or a spool file
 *   that cannot be made or read; what `onChunk` threw; EXECUTION_TIMEOUT, EXECUTION_CANCELLED or
 *   OUTPUT_LIMIT_EXCEEDED when stopped.
 */
export async function streamGeng(tool: GengTool, request: GengRequest, options: NativeRunOptions, onChunk: (chunk: Buffer) => Promise<void> | null): Promise<number> {
  if (request.countOnly) throw new RangeError('streamGeng lists graphs; count with runGeng');
  return parseGengCount(await runSpooled(tool.geng, gengArguments(request), '', options, onChunk));
}
