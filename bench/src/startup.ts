/**
 * The start-up benchmark: time from spawning a stdio MCP server to its first `math.find` answer,
 * as a desktop client sees it (the SDK's client and stdio transport, the current protocol with
 * version negotiation), for
 * - `jacobian-cold`: `jacobian stdio` with a new, empty data dir (no provider health remembered:
 *   every health check runs; no checker key: one is made). It answers once every probe has ended
 *   but z3-solver's health check, when that outlasts them: the answer then names z3-solver in
 *   `pending_providers`, and each sample records the providers its answer named so,
 * - `jacobian-warm`: `jacobian stdio` with a data dir from an earlier start (health checks
 *   remembered, key present), which is how a desktop client restarts it,
 * - `minimal`: the smallest stdio server on the same SDK (children/minimal-stdio-server.ts) with
 *   one tool named `math.find`, started the same way (plain node on compiled JavaScript).
 * Rounds are interleaved (the order rotates every round), so load from elsewhere falls on every
 * system alike; ratios are per round, to the minimal server of the same round, and their median
 * is reported. The target: jacobian's first answer within 5× the minimal server's.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runnableFile } from '@jacobian/shared';
import { CHILDREN_DIR, JACOBIAN_BIN, REPO_ROOT, type BenchContext } from './context.js';
import { childEnvironment } from './proc.js';
import { median, round, table } from './stats.js';

export interface StartupBenchOptions {
  /** Measured rounds; each starts every system once. */
  rounds: number;
}

const SYSTEMS = ['minimal', 'jacobian-cold', 'jacobian-warm'] as const;
type StartupSystem = (typeof SYSTEMS)[number];

/** The target: jacobian's first math.find within this many times the minimal server's. */
const TARGET_RATIO = 5;
const QUERY = 'chromatic number of a graph';

interface Sample {
  system: StartupSystem;
  round: number;
  /** Spawn to the end of the client's connect (the protocol handshake). */
  connect_ms: number;
  /** Spawn to the first math.find answered. */
  first_find_ms: number;
  /** The providers that answer named as still being checked (their capabilities not yet listed). */
  pending_providers: string[];
}

export interface StartupBenchReport {
  benchmark: 'startup';
  rounds: number;
  samples: Sample[];
  summary: {
    system: StartupSystem;
    connect_median_ms: number;
    first_find_median_ms: number;
    first_find_min_ms: number;
    first_find_max_ms: number;
    ratio_to_minimal_median: number | null;
    /** Rounds whose first answer named providers still being checked. */
    rounds_with_pending_providers: number;
  }[];
  target: { ratio: number; met: { cold: boolean; warm: boolean } };
  stopped?: unknown;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Start one server over stdio, ask math.find once, close; the times are from the spawn. Priming
 * (`settle`), it then asks again until no provider is being checked, so that every health check
 * has passed and is remembered in the data dir, as after a session of some length.
 */
async function measure(context: BenchContext, system: StartupSystem, round: number, dataDir: string, settle = false): Promise<Sample> {
  const args = system === 'minimal' ? [runnableFile(join(CHILDREN_DIR, 'minimal-stdio-server.ts'))] : [JACOBIAN_BIN, 'stdio'];
  const env = childEnvironment(context.runTag, system === 'minimal' ? {} : { JACOBIAN_DATA_DIR: dataDir, JACOBIAN_LOG_LEVEL: context.logLevel });
  const transport = new StdioClientTransport({ command: process.execPath, args, env, cwd: REPO_ROOT, stderr: 'ignore' });
  const client = new Client({ name: 'bench-startup', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const started = performance.now();
  await client.connect(transport);
  const connected = performance.now();
  const pid = transport.pid;
  try {
    const answer = await client.callTool({ name: 'math.find', arguments: { query: QUERY } }, { timeout: 300_000 });
    const answered = performance.now();
    if (answer.isError === true) throw new Error(`${system}: math.find answered with an error: ${JSON.stringify(answer.content).slice(0, 300)}`);
    const pendingOf = (result: typeof answer): string[] => ((result.structuredContent as { pending_providers?: { provider: string }[] } | undefined)?.pending_providers ?? []).map((note) => note.provider);
    const pending = pendingOf(answer);
    const deadline = Date.now() + 120_000;
    for (let still = pending; settle && still.length > 0; ) {
      if (Date.now() > deadline) throw new Error(`${system}: providers still being checked 120 s after start: ${still.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      still = pendingOf(await client.callTool({ name: 'math.find', arguments: { query: QUERY } }, { timeout: 300_000 }));
    }
    return { system, round, connect_ms: round1(connected - started), first_find_ms: round1(answered - started), pending_providers: pending };
  } finally {
    // Closing stdin ends the session: the server shuts down (jacobian stops its pool) and exits.
    await client.close();
    const deadline = Date.now() + 20_000;
    while (pid !== null && pid !== undefined && alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (pid !== null && pid !== undefined && alive(pid)) {
      context.log(`startup: ${system} (pid ${pid}) still running 20 s after its stdin closed; killing it`);
      process.kill(pid, 'SIGKILL');
    }
  }
}

function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}

export async function runStartupBench(context: BenchContext, options: StartupBenchOptions): Promise<StartupBenchReport> {
  const warmDir = join(context.dir, 'data', 'warm');
  mkdirSync(warmDir, { recursive: true });
  // One unmeasured start of each: the warm data dir gets its remembered health checks (the start
  // lasts until none is still being checked) and key,
  // and the system's file cache holds every system's files before the first measured round.
  context.log('startup: priming (one unmeasured start of each system)');
  await measure(context, 'minimal', 0, '');
  await measure(context, 'jacobian-warm', 0, warmDir, true);
  const samples: Sample[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const order = SYSTEMS.map((_, i) => SYSTEMS[(i + round) % SYSTEMS.length] as StartupSystem);
    for (const system of order) {
      const dataDir = system === 'jacobian-warm' ? warmDir : join(context.dir, 'data', `cold-${round}`);
      const sample = await measure(context, system, round, dataDir);
      const pending = sample.pending_providers.length > 0 ? `; still checking ${sample.pending_providers.join(', ')}` : '';
      context.log(`startup round ${round}/${options.rounds}: ${system} first math.find at ${sample.first_find_ms} ms (connected at ${sample.connect_ms} ms${pending})`);
      samples.push(sample);
    }
  }
  const minimalOf = new Map(samples.filter((s) => s.system === 'minimal').map((s) => [s.round, s.first_find_ms]));
  const summary = SYSTEMS.map((system) => {
    const own = samples.filter((s) => s.system === system);
    const firsts = own.map((s) => s.first_find_ms);
    const ratios = own.map((s) => s.first_find_ms / (minimalOf.get(s.round) ?? Number.NaN));
    return {
      system,
      connect_median_ms: round(median(own.map((s) => s.connect_ms)), 1),
      first_find_median_ms: round(median(firsts), 1),
      first_find_min_ms: Math.min(...firsts),
      first_find_max_ms: Math.max(...firsts),
      ratio_to_minimal_median: system === 'minimal' ? null : round(median(ratios), 2),
      rounds_with_pending_providers: own.filter((s) => s.pending_providers.length > 0).length,
    };
  });
  const ratioOf = (system: StartupSystem): number => summary.find((s) => s.system === system)?.ratio_to_minimal_median ?? Number.POSITIVE_INFINITY;
  return {
    benchmark: 'startup',
    rounds: options.rounds,
    samples,
    summary,
    target: { ratio: TARGET_RATIO, met: { cold: ratioOf('jacobian-cold') <= TARGET_RATIO, warm: ratioOf('jacobian-warm') <= TARGET_RATIO } },
  };
}

export function printStartupTables(report: StartupBenchReport): string {
  const rows = report.summary.map((s) => [
    s.system,
    s.connect_median_ms,
    s.first_find_median_ms,
    s.first_find_min_ms,
    s.first_find_max_ms,
    s.ratio_to_minimal_median === null ? '1 (peer)' : `${s.ratio_to_minimal_median}×`,
    `${s.rounds_with_pending_providers}/${report.rounds}`,
  ]);
  const target = `target: first math.find within ${report.target.ratio}× the minimal server's: cold ${report.target.met.cold ? 'met' : 'NOT met'}, warm ${report.target.met.warm ? 'met' : 'NOT met'}`;
  return `${table(['system', 'connect ms (median)', 'first math.find ms (median)', 'min', 'max', 'ratio to minimal (median per round)', 'answered with a provider being checked'], rows)}\n${target}\n`;
}
