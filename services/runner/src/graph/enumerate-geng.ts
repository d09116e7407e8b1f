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
import { randomBytes } from 'node:crypto';
import { close, constants, fstatSync, openSync, readSync, unlinkSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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
import { sharedLauncher, type LaunchedTool } from '../native/launcher.js';
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
/** Most stderr bytes kept from a streamed run: geng's report is two short lines. */
const STDERR_LIMIT = 16 * 1024;

/** Where to find geng. Entry points pass what their configuration says (NautyProbeOptions fits). */
export interface GengProbeOptions {
  /** Directories searched, in order (default DEFAULT_NAUTY_DIRECTORIES). */
  directories?: readonly string[];
  /** Path of geng, used as is instead of searching. */
  geng?: string;
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
    await healthCheck(tool, signal);
    const libraries = [...new Set(await linkedNautyLibraries(geng, signal))].sort();
    const parts = (await Promise.all([component('geng', geng), ...libraries.map((lib) => component('library', lib))])).map((part) => part.component);
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
      digest: canonicalDigest(parts),
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
 * Bytes taken from the spool file in one read. geng writes some 40 MB/s of graph6 at order 10,
 * so a read after a {@link SPOOL_POLL_MS} pause finds about 80 kB; a full read is followed at
 * once by the next.
 */
const SPOOL_READ_BYTES = 256 * 1024;
/** Pause before looking again when the spool file holds nothing new and geng still runs. */
const SPOOL_POLL_MS = 2;
/**
 * How often the spool file's size is checked against `maxOutputBytes` while geng runs. Reads
 * catch an oversized listing as they reach it; this also catches it while the listing makes
 * the reader wait (pages being stored), so the file never grows more than this interval's
 * worth of geng's output past the limit.
 */
const SPOOL_SIZE_CHECK_MS = 10;

const closeFile = promisify(close);

/** The folder of the spool files (the system's temporary folder; /tmp is an emptyDir for scratch files in infra/k8s). */
function spoolDirectory(): string {
  return tmpdir();
}

/**
 * Run geng to list graphs, handing what it writes to `onChunk` as it comes, so the caller's work
 * on the lines overlaps with geng's. Like runNativeTool: no shell, a minimal environment,
 * SIGKILL on the deadline, a cancel, past `maxOutputBytes`, or when `onChunk` throws.
 *
 * geng writes its listing to a spool file, not a pipe, and the file is read as it grows. geng
 * writes a pipe (a socket pair in Node) 4 KiB at a time, and each write wakes the reader: on
 * 10 shards of geng -c 10, piping raised geng's system time from 80 to 250 ms and the wall
 * time by about 5 %; writing a file, geng runs as it does with its output redirected to a file.
 * The file is created exclusively under a random name; the launcher opens it for geng and
 * unlinks it before geng starts (geng and this reader keep it open), so nothing is left behind
 * once geng runs, whatever happens (and this process unlinks it when geng could not start). It
 * holds at most about `maxOutputBytes` (see {@link SPOOL_SIZE_CHECK_MS}).
 *
 * geng is started by the shared native-tool launcher (see NativeLauncher), a small process whose
 * fork costs under a millisecond, not by this process (about 3 ms at 180 MB, with the event loop
 * blocked).
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
  const args = gengArguments(request);
  const name = path.basename(tool.geng);
  if (options.signal?.aborted === true) throw new JacobianError('EXECUTION_CANCELLED', `${name} was not started: the run was cancelled`);
  if (options.deadline - Date.now() <= 0) throw new JacobianError('EXECUTION_TIMEOUT', `${name} was not started: the wall-time budget was already spent`);
  const file = path.join(spoolDirectory(), `jacobian-geng-${randomBytes(12).toString('hex')}`);
  // Created synchronously: it only changes the folder (tens of microseconds), and the thread
  // pool may be busy syncing other runs' pages. Closing it frees its blocks, so that goes to the
  // thread pool.
  let spool: number;
  try {
    spool = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    throw new JacobianError('PROVIDER_FAILED', `${name} was not started: its spool file ${file} could not be created: ${toAppError(error).message}`, { cause: error });
  }
  try {
    return await streamThroughSpool(tool.geng, args, file, spool, options, onChunk);
  } catch (error) {
    throw toAppError(error);
  } finally {
    // Unlinked by the launcher once open for geng; here too in case geng never started.
    try {
      unlinkSync(file);
    } catch {
      // gone already, as it should be
    }
    // The reader has stopped reading by now: it ends before a listing is concluded, and a
    // stopped run's reader reads no more. A failing close loses nothing that was read; nothing
    // waits for it.
    void closeFile(spool).catch(() => undefined);
  }
}

/** {@link streamGeng} once its spool file `file` is open as `fd`: geng's stdout, and what is read. */
function streamThroughSpool(geng: string, args: string[], file: string, fd: number, options: NativeRunOptions, onChunk: (chunk: Buffer) => Promise<void> | null): Promise<number> {
  const name = path.basename(geng);
  return new Promise<number>((resolve, reject) => {
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) {
      reject(new JacobianError('EXECUTION_TIMEOUT', `${name} was not started: the wall-time budget was already spent`));
      return;
    }
    let stopReason: unknown = null;
    let settled = false;
    let exited = false;
    let closed: { code: number | null; signal: string | null; stderr: string } | null = null;
    let readerDone = false;
    /** geng once the launcher started it; a stop before that kills it as soon as it is known. */
    let launched: LaunchedTool | null = null;
    // The reader's pause while the file holds nothing new, cut short (or skipped) once geng has exited or is stopped.
    let wake: (() => void) | null = null;
    const nap = (ms: number): Promise<void> =>
      new Promise<void>((done) => {
        if (exited || stopReason !== null) {
          setImmediate(done);
          return;
        }
        const timer = setTimeout(() => {
          wake = null;
          done();
        }, ms);
        wake = () => {
          clearTimeout(timer);
          wake = null;
          done();
        };
      });
    const overLimit = (): JacobianError => new JacobianError('OUTPUT_LIMIT_EXCEEDED', `${name} wrote more than ${options.maxOutputBytes} bytes and was killed`);
    const stop = (reason: unknown): void => {
      if (stopReason !== null) return;
      stopReason = reason;
      launched?.kill();
      wake?.();
      finish();
    };
    const onAbort = (): void => stop(new JacobianError('EXECUTION_CANCELLED', `${name} was killed: the run was cancelled`));
    const timer = setTimeout(() => stop(new JacobianError('EXECUTION_TIMEOUT', `${name} was killed at the end of the wall-time budget`)), remaining);
    const sizeCheck = setInterval(() => {
      try {
        if (fstatSync(fd).size > options.maxOutputBytes) stop(overLimit());
      } catch (error) {
        stop(new JacobianError('PROVIDER_FAILED', `${name}'s spool file could not be examined: ${toAppError(error).message}`, { cause: error }));
      }
    }, SPOOL_SIZE_CHECK_MS);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (outcome: { error: unknown } | { count: number }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(sizeCheck);
      options.signal?.removeEventListener('abort', onAbort);
      if ('error' in outcome) reject(toAppError(outcome.error));
      else resolve(outcome.count);
    };
    // The outcome is known once geng is gone and, unless it was stopped, everything it wrote was taken.
    const finish = (): void => {
      if (closed === null) return;
      if (stopReason !== null) {
        settle({ error: stopReason });
        return;
      }
      if (!readerDone) return;
      const { code, signal } = closed;
      const errText = closed.stderr.trim();
      if (code !== 0) {
        const detail = errText === '' ? '' : `: ${errText.slice(0, 500)}`;
        settle({ error: new JacobianError('PROVIDER_FAILED', `${name} exited with ${code === null ? `signal ${signal ?? 'unknown'}` : `status ${code}`}${detail}`) });
        return;
      }
      try {
        settle({ count: parseGengCount(errText) });
      } catch (error) {
        settle({ error });
      }
    };

    sharedLauncher()
      .launch({ file: geng, args, env: { LC_ALL: 'C' }, stdoutFile: file, stderrLimit: STDERR_LIMIT })
      .then(
        (tool) => {
          launched = tool;
          if (stopReason !== null) tool.kill();
          tool.exited.then(
            (exit) => {
              exited = true;
              closed = exit;
              wake?.();
              finish();
            },
            (error: unknown) => {
              // The launcher died and took geng with it: nothing it wrote is vouched for.
              const lost = new JacobianError('PROVIDER_FAILED', `${name} was lost: ${toAppError(error).message}`, { cause: error });
              if (stopReason === null) stop(lost);
              exited = true;
              closed = { code: null, signal: 'SIGKILL', stderr: '' };
              finish();
            },
          );
        },
        (error: unknown) => {
          // Never started: there is no exit to wait for.
          stopReason ??= new JacobianError('PROVIDER_FAILED', `${name} could not be started: ${toAppError(error).message}`, { cause: error });
          wake?.();
          settle({ error: stopReason });
        },
      );

    // The reader: synchronous reads of what geng wrote (page cache, tens of microseconds; the
    // thread pool is busy with the pages' file writes and syncs), each followed by a turn of the
    // event loop. The file is read to its end once geng has exited.
    void (async () => {
      const buffer = Buffer.allocUnsafe(SPOOL_READ_BYTES);
      let position = 0;
      while (stopReason === null) {
        const ended = exited;
        const got = readSync(fd, buffer, 0, buffer.length, position);
        if (got === 0) {
          if (ended) break;
          await nap(SPOOL_POLL_MS);
          continue;
        }
        position += got;
        if (position > options.maxOutputBytes) {
          stop(overLimit());
          break;
        }
        const wait = onChunk(buffer.subarray(0, got));
        if (wait !== null) await wait;
        else if (got < buffer.length) await nap(SPOOL_POLL_MS);
        else await new Promise<void>((done) => setImmediate(done));
      }
      readerDone = true;
      finish();
    })().catch((error: unknown) => stop(error));
  });
}
