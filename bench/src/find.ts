/**
 * `bench find`: math.find requests per second over HTTP with the server on one core, against
 * a minimal stateless MCP server on the same SDK and HTTP stack (same core, same load
 * generator on the other core), then a long run against Jacobian sampling its RSS.
 */
import { loadavg } from 'node:os';
import { descendants, rssKiB } from '@jacobian/shared/testing';
import type { LoadgenConfig, LoadgenResult } from './children/loadgen.js';
import { jacobianEnvironment, startChild, startJacobian, type BenchContext } from './context.js';
import { JsonLineReader } from './lines.js';
import type { Era } from './mcp-http.js';
import { CpuWindow, hasTaskset, waitForLogLine, type ManagedProcess } from './proc.js';
import { ratio, round, table } from './stats.js';

export interface FindOptions {
  /** Connections of the load generator (closed loop). */
  concurrency: number;
  /** Length of each rate measurement. */
  durationMs: number;
  /** Unmeasured requests before each rate measurement. */
  warmup: number;
  /** Rate measurements per server, interleaved. */
  rounds: number;
  /** Requests of the long run against Jacobian; 0 skips it. */
  requests: number;
  /** Bound on the long run's length; it stops at this time even if fewer requests were sent. 0: no bound. */
  maxLongRunMs: number;
  /** RSS sampling interval of the long run. */
  sampleMs: number;
  era: Era;
  /** Also measure the load generator against a bare node:http server (its ceiling). */
  calibrate: boolean;
}

interface RateRound {
  round: number;
  server: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  failed: number;
  first_failure: string | null;
  response_bytes: number;
  cpu: ReturnType<CpuWindow['lap']>;
}

interface RssSample {
  seconds: number;
  requests: number;
  rss_kib: number;
  /** The server and its kernel-pool children. */
  tree_rss_kib: number;
}

export interface FindReport {
  benchmark: 'find';
  options: FindOptions & { server_core: number | null; loadgen_core: number | null; find_arguments: unknown; varied_find_arguments: string; peer_tool: string };
  rates: RateRound[];
  summary: Record<string, number>;
  calibration: { rps: number; p50_ms: number } | null;
  long_run: {
    requests: number;
    failed: number;
    first_failure: string | null;
    seconds: number;
    rps: number;
    p50_ms: number;
    p99_ms: number;
    /** Requests asked for; `requests` is what was sent before the time bound. */
    requested: number;
    rss_kib: { start: number; after_warmup: number; end: number; max: number; min_after_warmup: number };
    warmup_requests: number;
    /** Least-squares slope of RSS over the second half of the run. */
    slope_kib_per_100k_requests: number;
    /** RSS minimum and maximum over requests 10–35% (early) and the last quarter (late). */
    envelope_kib: { early_min: number; early_max: number; late_min: number; late_max: number };
    flat: boolean;
    flat_rule: string;
    /** Machine load during the long run; other_cores is work outside the benchmark. */
    cpu: ReturnType<CpuWindow['lap']>;
    samples: RssSample[];
  } | null;
  targets: { name: string; target: string; measured: number | string; met: boolean }[];
}

/** A lexical search of the kind an agent sends first. */
const FIND_ARGUMENTS = { query: 'graph tree', limit: 5 };

/**
 * 2,400 distinct searches (two words of the catalog's vocabulary, limit 1-20), sent in turn, so
 * that no answer is remembered from an earlier request (Jacobian remembers 512 math.find answers
 * per catalog): the rate of the search itself.
 */
const WORDS = ['graph', 'tree', 'induced', 'maximum', 'verify', 'construct', 'explicit', 'artifact', 'vertex', 'edge', 'store', 'json', 'labels', 'checker', 'exhaustive', 'solver'];
const VARIED_FIND_ARGUMENTS: Record<string, unknown>[] = WORDS.flatMap((a, i) =>
  WORDS.slice(i + 1).flatMap((b) => Array.from({ length: 20 }, (_, l) => ({ query: `${a} ${b}`, limit: l + 1 }))),
);
const SERVER_CORE = 0;
const LOADGEN_CORE = 1;

async function runLoadgen(
  context: BenchContext,
  name: string,
  config: LoadgenConfig,
  onProgress?: (done: number, seconds: number) => void,
): Promise<LoadgenResult> {
  const child = startChild(context, name, 'loadgen.ts', { env: { BENCH_LOADGEN: JSON.stringify(config) }, core: LOADGEN_CORE, pipeStdout: true });
  const lines = new JsonLineReader(child.child.stdout as NonNullable<typeof child.child.stdout>, name);
  for (;;) {
    const line = (await lines.next(3_600_000)) as { type?: string; done?: number; seconds?: number } | undefined;
    if (line === undefined) {
      const exit = await child.exit;
      throw new Error(`${name} ended without a result (exit ${exit.code ?? exit.signal ?? '?'}); see ${child.logFile}`);
    }
    if (line.type === 'progress') onProgress?.(line.done ?? 0, line.seconds ?? 0);
    else if (line.type === 'result') {
      await child.exit;
      return line as LoadgenResult;
    }
  }
}

function treeRss(pid: number): number {
  let total = rssKiB(pid) ?? 0;
  for (const child of descendants(pid)) total += rssKiB(child.pid) ?? 0;
  return total;
}

function slope(points: readonly { x: number; y: number }[]): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den > 0 ? num / den : 0;
}

async function startPinned(context: BenchContext, name: string, start: () => Promise<{ process: ManagedProcess; url: URL | undefined }>) {
  const started = await start();
  if (started.url === undefined) throw new Error(`${name} did not log its URL`);
  return { process: started.process, url: started.url };
}

export async function runFindBench(context: BenchContext, options: FindOptions): Promise<FindReport> {
  const pinned = hasTaskset();
  if (!pinned) context.log('find: taskset not found; servers and load generator are NOT pinned to cores');
  context.log(`find: starting jacobian serve and the minimal SDK server on core ${SERVER_CORE}`);
  const jacobian = await startPinned(context, 'jacobian', () =>
    startJacobian(context, 'find-jacobian', ['serve', '--host', '127.0.0.1', '--port', '0'], { env: jacobianEnvironment(context, 'find-jacobian', {}), core: SERVER_CORE }),
  );
  const minimalProcess = startChild(context, 'minimal-mcp-server', 'minimal-mcp-server.ts', { env: {}, core: SERVER_CORE });
  const minimalUrl = await waitForLogLine(minimalProcess, (e) => (e['msg'] === 'serving MCP over Streamable HTTP' && typeof e['url'] === 'string' ? new URL(e['url']) : undefined));

  const servers = [
    { name: 'minimal-sdk', url: minimalUrl, tool: 'ping', args: {} as Record<string, unknown> },
    { name: 'jacobian', url: jacobian.url, tool: 'math.find', args: FIND_ARGUMENTS as Record<string, unknown> },
    { name: 'jacobian-varied', url: jacobian.url, tool: 'math.find', args: FIND_ARGUMENTS as Record<string, unknown>, argsList: VARIED_FIND_ARGUMENTS },
  ];
  const cpu = new CpuWindow(() => []);
  const rates: RateRound[] = [];
  for (let round_ = 1; round_ <= options.rounds; round_++) {
    for (const server of servers) {
      await context.waitQuiet(`find round ${round_} ${server.name}`);
      context.log(`find: round ${round_}: ${server.name}: ${options.warmup} warm-up, then ${options.durationMs / 1000} s at ${options.concurrency} connections`);
      cpu.lap();
      const result = await runLoadgen(context, `loadgen-${server.name}-${round_}`, {
        url: server.url.href,
        era: options.era,
        tool: server.tool,
        args: server.args,
        ...(server.argsList === undefined ? {} : { argsList: server.argsList }),
        concurrency: options.concurrency,
        warmupRequests: options.warmup,
        durationMs: options.durationMs,
      });
      const lap = cpu.lap();
      context.log(`find: round ${round_}: ${server.name}: ${result.rps} requests/s (p50 ${result.latency.p50_ms} ms), other load ${lap.other_cores} cores`);
      rates.push({
        round: round_,
        server: server.name,
        rps: result.rps,
        p50_ms: result.latency.p50_ms,
        p99_ms: result.latency.p99_ms,
        failed: result.failed,
        first_failure: result.first_failure,
        response_bytes: result.response_bytes,
        cpu: lap,
      });
    }
  }

  let calibration: FindReport['calibration'] = null;
  if (options.calibrate) {
    const raw = startChild(context, 'raw-http-server', 'raw-http-server.ts', { env: {}, core: SERVER_CORE });
    const rawUrl = await waitForLogLine(raw, (e) => (typeof e['url'] === 'string' ? new URL(e['url']) : undefined));
    const result = await runLoadgen(context, 'loadgen-calibration', {
      url: rawUrl.href,
      era: options.era,
      tool: 'ping',
      args: {},
      concurrency: options.concurrency,
      warmupRequests: options.warmup,
      durationMs: Math.min(options.durationMs, 5000),
    });
    await raw.stop();
    calibration = { rps: result.rps, p50_ms: result.latency.p50_ms };
    context.log(`find: load generator ceiling (bare node:http server): ${result.rps} requests/s`);
  }
  await minimalProcess.stop();

  const mean = (name: string): number => {
    const list = rates.filter((r) => r.server === name).map((r) => r.rps);
    return list.length > 0 ? round(list.reduce((a, b) => a + b, 0) / list.length, 1) : Number.NaN;
  };
  const jacobianRps = mean('jacobian');
  const minimalRps = mean('minimal-sdk');
  const rateRatio = ratio(jacobianRps, minimalRps);
  const variedRps = mean('jacobian-varied');
  const summary: Record<string, number> = {
    jacobian_find_rps: jacobianRps,
    minimal_sdk_rps: minimalRps,
    jacobian_over_minimal: rateRatio,
    jacobian_varied_find_rps: variedRps,
    jacobian_varied_over_minimal: ratio(variedRps, minimalRps),
  };
  for (let r = 1; r <= options.rounds; r++) {
    const j = rates.find((x) => x.round === r && x.server === 'jacobian');
    const m = rates.find((x) => x.round === r && x.server === 'minimal-sdk');
    if (j !== undefined && m !== undefined) summary[`round_${r}_jacobian_over_minimal`] = ratio(j.rps, m.rps);
  }

  let longRun: FindReport['long_run'] = null;
  if (options.requests > 0) {
    const estimate = Number.isFinite(jacobianRps) && jacobianRps > 0 ? options.requests / jacobianRps : Number.NaN;
    context.log(
      `find: long run: ${options.requests} math.find requests at ~${jacobianRps}/s, about ${Math.round(estimate)} s` +
        (options.maxLongRunMs > 0 && estimate * 1000 > options.maxLongRunMs ? `; capped at ${options.maxLongRunMs / 1000} s, so fewer requests will be sent` : ''),
    );
    await context.waitQuiet('find long run');
    const pid = jacobian.process.pid;
    const samples: RssSample[] = [];
    const startRss = rssKiB(pid) ?? 0;
    let done = 0;
    const started = performance.now();
    const sample = (): void => {
      const rss = rssKiB(pid);
      if (rss !== undefined) samples.push({ seconds: round((performance.now() - started) / 1000, 1), requests: done, rss_kib: rss, tree_rss_kib: treeRss(pid) });
    };
    cpu.lap();
    const timer = setInterval(sample, options.sampleMs);
    let lastLogged = 0;
    let result: LoadgenResult;
    try {
      result = await runLoadgen(
        context,
        'loadgen-long-run',
        {
          url: jacobian.url.href,
          era: options.era,
          tool: 'math.find',
          args: FIND_ARGUMENTS,
          concurrency: options.concurrency,
          warmupRequests: 0,
          requests: options.requests,
          ...(options.maxLongRunMs > 0 ? { durationMs: options.maxLongRunMs } : {}),
          progressEveryMs: Math.max(200, Math.floor(options.sampleMs / 2)),
        },
        (n, seconds) => {
          done = n;
          if (seconds - lastLogged >= 30) {
            lastLogged = seconds;
            context.log(`find: long run: ${n} requests in ${Math.round(seconds)} s, RSS ${rssKiB(pid) ?? '?'} KiB, load average ${loadavg()[0]?.toFixed(2) ?? '?'}`);
          }
        },
      );
    } finally {
      clearInterval(timer);
    }
    const longRunCpu = cpu.lap();
    done = result.requests;
    sample();
    const warmupRequests = Math.floor(result.requests / 10);
    const afterWarmup = samples.find((s) => s.requests >= warmupRequests) ?? samples[0];
    const later = samples.filter((s) => s.requests >= warmupRequests);
    const end = samples[samples.length - 1];
    const secondHalf = samples.filter((s) => s.requests >= result.requests / 2).map((s) => ({ x: s.requests, y: s.rss_kib }));
    const warm = afterWarmup?.rss_kib ?? startRss;
    const within = (from: number, to: number): number[] =>
      samples.filter((s) => s.requests >= result.requests * from && s.requests < result.requests * to + (to >= 1 ? 1 : 0)).map((s) => s.rss_kib);
    const early = within(0.1, 0.35);
    const late = within(0.75, 1);
    const envelope = {
      early_min: early.length > 0 ? Math.min(...early) : warm,
      early_max: early.length > 0 ? Math.max(...early) : warm,
      late_min: late.length > 0 ? Math.min(...late) : warm,
      late_max: late.length > 0 ? Math.max(...late) : warm,
    };
    const endRss = end?.rss_kib ?? startRss;
    longRun = {
      requests: result.requests,
      requested: options.requests,
      failed: result.failed,
      first_failure: result.first_failure,
      seconds: result.seconds,
      rps: result.rps,
      p50_ms: result.latency.p50_ms,
      p99_ms: result.latency.p99_ms,
      rss_kib: {
        start: startRss,
        after_warmup: warm,
        end: endRss,
        max: Math.max(startRss, ...samples.map((s) => s.rss_kib)),
        min_after_warmup: Math.min(...later.map((s) => s.rss_kib)),
      },
      warmup_requests: warmupRequests,
      slope_kib_per_100k_requests: round(slope(secondHalf) * 100_000, 1),
      envelope_kib: envelope,
      flat: envelope.late_max <= envelope.early_max * 1.1 && envelope.late_min <= envelope.early_min * 1.1,
      flat_rule:
        'the RSS envelope holds: over the last quarter of the requests, the maximum and the minimum RSS are each ≤ 1.10 × those over requests 10–35% (after the warm-up tenth). Garbage collection makes RSS a sawtooth, so single samples (end vs after warm-up) are compared only for information.',
      cpu: longRunCpu,
      samples: thin(samples, 200),
    };
    context.log(`find: long run: ${result.rps} requests/s; RSS ${startRss} → ${warm} (after warm-up) → ${endRss} KiB, max ${longRun.rss_kib.max} KiB`);
  }

  const targets: FindReport['targets'] = [
    { name: 'math.find rps (one search, repeated) / minimal SDK server rps', target: '≥ 2.5', measured: rateRatio, met: rateRatio >= 2.5 },
    { name: 'math.find rps (2,400 distinct searches) / minimal SDK server rps', target: '≥ 2.5', measured: ratio(variedRps, minimalRps), met: ratio(variedRps, minimalRps) >= 2.5 },
  ];
  if (longRun !== null) {
    targets.push({
      name: `flat memory over ${longRun.requests} math.find requests`,
      target: `RSS envelope (min and max) of the last quarter ≤ 1.10 × that of requests 10–35%, over 1,000,000 requests`,
      measured: `max ${longRun.envelope_kib.early_max} → ${longRun.envelope_kib.late_max} KiB (${round(longRun.envelope_kib.late_max / longRun.envelope_kib.early_max, 3)}×), min ${longRun.envelope_kib.early_min} → ${longRun.envelope_kib.late_min} KiB (${round(longRun.envelope_kib.late_min / longRun.envelope_kib.early_min, 3)}×)`,
      met: longRun.flat && longRun.requests >= 1_000_000 && longRun.failed === 0,
    });
  }
  return {
    benchmark: 'find',
    options: {
      ...options,
      server_core: pinned ? SERVER_CORE : null,
      loadgen_core: pinned ? LOADGEN_CORE : null,
      find_arguments: FIND_ARGUMENTS,
      varied_find_arguments: `${VARIED_FIND_ARGUMENTS.length} distinct searches: two of ${WORDS.length} words, limit 1-20, in turn`,
      peer_tool: 'ping (empty input schema; output schema {ok: boolean, server: string})',
    },
    rates,
    summary,
    calibration,
    long_run: longRun,
    targets,
  };
}

function thin<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const step = items.length / max;
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(items[Math.floor(i * step)] as T);
  out.push(items[items.length - 1] as T);
  return out;
}

export function printFindTables(report: FindReport): string {
  const rates = table(
    ['round', 'server', 'rps', 'p50 ms', 'p99 ms', 'resp bytes', 'failed', 'other cores'],
    report.rates.map((r) => [r.round, r.server, r.rps, r.p50_ms, r.p99_ms, r.response_bytes, r.failed, r.cpu.other_cores]),
  );
  const summary = table(
    ['measure', 'value'],
    [
      ...Object.entries(report.summary).map(([k, v]) => [k, v] as [string, number]),
      ...(report.calibration ? [['loadgen_ceiling_rps (bare node:http)', report.calibration.rps] as [string, number]] : []),
    ],
  );
  const parts = [rates, '', summary];
  if (report.long_run !== null) {
    const l = report.long_run;
    parts.push(
      '',
      table(
        ['long run', 'value'],
        [
          ['requests (sent of asked)', `${l.requests} of ${l.requested}`],
          ['failed', l.failed],
          ['seconds', l.seconds],
          ['rps', l.rps],
          ['RSS start KiB', l.rss_kib.start],
          [`RSS after warm-up (${l.warmup_requests} req) KiB`, l.rss_kib.after_warmup],
          ['RSS end KiB', l.rss_kib.end],
          ['RSS max KiB', l.rss_kib.max],
          ['slope KiB / 100k req (2nd half)', l.slope_kib_per_100k_requests],
          ['RSS min–max, requests 10–35% KiB', `${l.envelope_kib.early_min}–${l.envelope_kib.early_max}`],
          ['RSS min–max, last quarter KiB', `${l.envelope_kib.late_min}–${l.envelope_kib.late_max}`],
          ['flat', l.flat ? 'yes' : 'NO'],
          ['other cores (load outside the benchmark)', l.cpu.other_cores],
        ],
      ),
    );
  }
  parts.push('', table(['target', 'wanted', 'measured', 'met'], report.targets.map((t) => [t.name, t.target, t.measured, t.met ? 'yes' : 'NO'])));
  return parts.join('\n');
}
