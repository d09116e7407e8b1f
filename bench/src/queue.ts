/**
 * `bench queue`: end-to-end latency and throughput of a small capability through MCP over
 * HTTP, for the embedded `jacobian serve` and for a cluster (api + 2 runners + checker on
 * Redis and s3rver), against a bare BullMQ add → process → complete loop on the same Redis.
 *
 * Every math.run request carries a payload no other request has (its own vertex labels), so
 * no answer is served from the job-ID cache: every call is admitted, queued and computed.
 */
import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { startRedisServer } from '@jacobian/shared/testing';
import { generateCheckerKeys, jacobianEnvironment, startChild, startJacobian, type BenchContext } from './context.js';
import { JsonLineReader } from './lines.js';
import { HttpClient, parseToolCall, toolCall, type Era } from './mcp-http.js';
import { cpuMs, CpuWindow, ownCpuMs, waitForLogLine } from './proc.js';
import { ratio, round, summarize, table, type LatencySummary } from './stats.js';

export interface QueueOptions {
  /** Concurrent requests (closed loop) in the throughput phase; also the worker slots of every system. */
  concurrency: number;
  /** Measured sequential requests per system. */
  sequential: number;
  /** Unmeasured requests before each phase. */
  warmup: number;
  /** Length of each throughput phase. */
  durationMs: number;
  era: Era;
  /** Which small capability each request runs (see {@link BENCH_CAPABILITIES}). */
  capability: BenchCapability;
}

type CpuLap = ReturnType<CpuWindow['lap']>;

interface PhaseReport {
  latency: LatencySummary;
  /** Requests per second (throughput phase) or 1000 / mean latency (sequential phase). */
  rps: number;
  requests: number;
  failed: number;
  first_failure: string | null;
  seconds: number;
  /** execution.runtime_ms reported by the runner, for MCP systems. */
  runner_runtime_ms?: LatencySummary;
  /** Redis commands per request, all processes together, and Redis' own CPU time per request. */
  redis_per_request?: { commands: number; usec: number; top: Record<string, number> };
  /** HTTP requests the S3 server answered per MCP request, by method. */
  s3_per_request?: Record<string, number>;
  /** CPU time per request of each process (with its children), in ms. */
  cpu_ms_per_request: Record<string, number>;
  cpu: CpuLap;
}

/**
 * Where a sequential request's time went, from the BullMQ job hash (timestamp: the producer
 * created the job; processedOn: a worker took it; finishedOn: the worker finished it) against
 * the client's own clock (same machine, same clock).
 */
interface Breakdown {
  jobs: number;
  /** Client sent the request → the producer created the job (HTTP, MCP, admission, pre-add Redis work). */
  before_add_ms: LatencySummary;
  /** Job created → a worker took it (the add itself, the worker's fetch). */
  add_to_active_ms: LatencySummary;
  /** A worker took it → the worker finished it (the handler, result checks, the completion script). */
  active_to_finished_ms: LatencySummary;
  /** Finished → the client had the answer (completion event, result parsing, release, MCP answer). */
  finished_to_client_ms: LatencySummary;
}

interface SystemReport {
  system: string;
  description: string;
  sequential: PhaseReport;
  throughput: PhaseReport;
  breakdown?: Breakdown;
}

async function bullmqBreakdown(redisUrl: string, prefix: string, queueName: string, outcomes: readonly CallOutcome[]): Promise<Breakdown | undefined> {
  const queue = new Queue(queueName, { connection: { url: redisUrl }, prefix });
  const parts = { before: [] as number[], wait: [] as number[], active: [] as number[], after: [] as number[] };
  try {
    for (const outcome of outcomes) {
      if (outcome.jobId === undefined || !outcome.ok) continue;
      const job = await queue.getJob(outcome.jobId);
      if (job?.processedOn === undefined || job.finishedOn === undefined) continue;
      parts.before.push(job.timestamp - Math.floor(outcome.startWall));
      parts.wait.push(job.processedOn - job.timestamp);
      parts.active.push(job.finishedOn - job.processedOn);
      parts.after.push(Math.floor(outcome.endWall) - job.finishedOn);
    }
  } finally {
    await queue.close();
  }
  if (parts.before.length === 0) return undefined;
  return {
    jobs: parts.before.length,
    before_add_ms: summarize(parts.before),
    add_to_active_ms: summarize(parts.wait),
    active_to_finished_ms: summarize(parts.active),
    finished_to_client_ms: summarize(parts.after),
  };
}

export interface QueueReport {
  benchmark: 'queue';
  options: QueueOptions & { capability_id: string; payload_example: unknown; worker_slots: Record<string, string> };
  systems: SystemReport[];
  ratios: Record<string, number | string | boolean>;
  targets: { name: string; target: string; measured: number; met: boolean }[];
  stopped: { name: string; graceful: boolean; code: number | null; signal: string | null }[];
}

const BUCKET = 'jacobian-bench';

/** A tiny graph whose labels are unique to request `i` of this run: a path on three vertices. */
function pathFor(tag: string, i: number): { vertices: string[]; edges: [string, string][] } {
  const v = [`${tag}-${i}-a`, `${tag}-${i}-b`, `${tag}-${i}-c`];
  return { vertices: v, edges: [[v[0] as string, v[1] as string], [v[1] as string, v[2] as string]] };
}

/**
 * The small capabilities the benchmark can run. `triangles` answers inline and stores nothing;
 * `construct` stores the graph as an artifact (two S3 PUTs in the cluster: payload, then manifest).
 */
export const BENCH_CAPABILITIES = {
  triangles: { id: 'graph.triangle_count.compute', payload: (tag: string, i: number) => ({ graph: pathFor(tag, i) }) },
  construct: { id: 'graph.construct.explicit', payload: pathFor },
} as const;
export type BenchCapability = keyof typeof BENCH_CAPABILITIES;

async function redisCommandStats(redis: Redis): Promise<Map<string, { calls: number; usec: number }>> {
  const text = await redis.info('commandstats');
  const stats = new Map<string, { calls: number; usec: number }>();
  for (const line of text.split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line.trim());
    if (match) stats.set(match[1] as string, { calls: Number(match[2]), usec: Number(match[3]) });
  }
  return stats;
}

function redisDelta(
  before: Map<string, { calls: number; usec: number }>,
  after: Map<string, { calls: number; usec: number }>,
  requests: number,
  background: Map<string, { calls: number; usec: number }>,
  seconds: number,
): { commands: number; usec: number; top: Record<string, number> } {
  let calls = 0;
  let usec = 0;
  const per: [string, number][] = [];
  for (const [name, value] of after) {
    // INFO itself is the benchmark's own probe.
    if (name === 'info') continue;
    const prior = before.get(name) ?? { calls: 0, usec: 0 };
    const idle = background.get(name) ?? { calls: 0, usec: 0 };
    const dCalls = Math.max(0, value.calls - prior.calls - idle.calls * seconds);
    calls += dCalls;
    usec += Math.max(0, value.usec - prior.usec - idle.usec * seconds);
    if (dCalls > 0) per.push([name, dCalls / requests]);
  }
  per.sort((a, b) => b[1] - a[1]);
  return {
    commands: round(calls / requests, 2),
    usec: round(usec / requests, 1),
    top: Object.fromEntries(per.slice(0, 8).map(([name, value]) => [name, round(value, 2)])),
  };
}

/** What one request of a system under test took and reported. */
interface CallOutcome {
  ms: number;
  ok: boolean;
  failure?: string;
  /** execution.runtime_ms of the result. */
  runtimeMs?: number;
  /** The BullMQ job that carried it, when known. */
  jobId?: string;
  /** Wall-clock start and end (ms since the epoch, sub-millisecond). */
  startWall: number;
  endWall: number;
}
type Call = () => Promise<CallOutcome>;

const wallNow = (): number => performance.timeOrigin + performance.now();

interface Probes {
  redis: Redis;
  /** CPU time of every process of the run so far, in ms, by name. */
  cpuByProcess: () => Record<string, number>;
  /** Idle Redis command rate, subtracted from each phase's counts. */
  background: Map<string, { calls: number; usec: number }>;
  s3Stats: () => Promise<Record<string, number>>;
  cpu: CpuWindow;
}

function cpuDelta(before: Record<string, number>, after: Record<string, number>, requests: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(after)) {
    const d = (value - (before[name] ?? value)) / Math.max(1, requests);
    if (d > 0.005) out[name] = round(d, 2);
  }
  return out;
}

/** Redis commands per second while nothing is requested: heartbeats, catalog refreshes, idle workers. */
async function redisBackground(probes: Probes, ms = 2000): Promise<Map<string, { calls: number; usec: number }>> {
  const before = await redisCommandStats(probes.redis);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = await redisCommandStats(probes.redis);
  const rate = new Map<string, { calls: number; usec: number }>();
  for (const [name, value] of after) {
    const prior = before.get(name) ?? { calls: 0, usec: 0 };
    rate.set(name, { calls: ((value.calls - prior.calls) * 1000) / ms, usec: ((value.usec - prior.usec) * 1000) / ms });
  }
  return rate;
}

/**
 * Measure one phase: Redis, S3 and CPU before and after `drive`, which makes the calls and hands
 * each outcome to `record`. `rps` counts every call, or only the successful ones.
 */
async function measuredPhase(
  probes: Probes,
  withS3: boolean,
  rpsCounts: 'all' | 'successful',
  drive: (record: (outcome: CallOutcome) => void) => Promise<void>,
): Promise<PhaseReport> {
  const redisBefore = await redisCommandStats(probes.redis);
  const s3Before = withS3 ? await probes.s3Stats() : {};
  probes.cpu.lap();
  const cpuBefore = probes.cpuByProcess();
  const latencies: number[] = [];
  const runtimes: number[] = [];
  let failed = 0;
  let firstFailure: string | null = null;
  const started = performance.now();
  await drive((outcome) => {
    latencies.push(outcome.ms);
    if (outcome.runtimeMs !== undefined) runtimes.push(outcome.runtimeMs);
    if (!outcome.ok) {
      failed++;
      firstFailure ??= outcome.failure ?? 'failed';
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const requests = latencies.length;
  const cpu = probes.cpu.lap();
  const cpuPerRequest = cpuDelta(cpuBefore, probes.cpuByProcess(), requests);
  const redisAfter = await redisCommandStats(probes.redis);
  const s3After = withS3 ? await probes.s3Stats() : {};
  const report: PhaseReport = {
    latency: summarize(latencies),
    rps: round((rpsCounts === 'all' ? requests : requests - failed) / seconds, 1),
    requests,
    failed,
    first_failure: firstFailure,
    seconds: round(seconds, 2),
    redis_per_request: redisDelta(redisBefore, redisAfter, requests, probes.background, seconds),
    cpu_ms_per_request: cpuPerRequest,
    cpu,
  };
  if (runtimes.length > 0) report.runner_runtime_ms = summarize(runtimes);
  if (withS3) {
    report.s3_per_request = Object.fromEntries(
      Object.entries(s3After)
        .map(([method, n]) => [method, round((n - (s3Before[method] ?? 0)) / requests, 2)] as const)
        .filter(([, n]) => n > 0),
    );
  }
  return report;
}

/** `count` calls one after another. */
function sequentialPhase(call: Call, count: number, probes: Probes, withS3: boolean, outcomes?: CallOutcome[]): Promise<PhaseReport> {
  return measuredPhase(probes, withS3, 'all', async (record) => {
    for (let i = 0; i < count; i++) {
      const outcome = await call();
      outcomes?.push(outcome);
      record(outcome);
    }
  });
}

/** `options.concurrency` closed loops for `options.durationMs`, after a warm-up of the concurrent path. */
async function throughputPhase(call: Call, options: QueueOptions, probes: Probes, withS3: boolean): Promise<PhaseReport> {
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      for (let i = 0; i < Math.max(1, Math.ceil(options.warmup / options.concurrency)); i++) await call();
    }),
  );
  return measuredPhase(probes, withS3, 'successful', async (record) => {
    const deadline = performance.now() + options.durationMs;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (performance.now() < deadline) record(await call());
      }),
    );
  });
}

/** math.run of the small capability over MCP HTTP; every call has its own payload. */
function mcpCall(url: URL, options: QueueOptions, tag: string): { call: Call; close: () => void } {
  const client = new HttpClient(url, options.concurrency);
  let counter = 0;
  const call: Call = async () => {
    const i = counter++;
    const { id, payload } = BENCH_CAPABILITIES[options.capability];
    const prepared = toolCall(options.era, i, 'math.run', { capability_id: id, payload: payload(tag, i) });
    const startWall = wallNow();
    const t0 = performance.now();
    let response;
    try {
      response = await client.post(prepared);
    } catch (error) {
      return { ms: performance.now() - t0, ok: false, failure: (error as Error).message, startWall, endWall: wallNow() };
    }
    const ms = performance.now() - t0;
    const endWall = wallNow();
    const outcome = parseToolCall(response);
    const execution = outcome.result?.structuredContent?.['execution'] as { status?: string; runtime_ms?: number; job_id?: string } | undefined;
    if (execution?.status !== 'COMPLETED') {
      return { ms, ok: false, failure: outcome.error ?? JSON.stringify(outcome.result?.structuredContent ?? outcome.result).slice(0, 400), startWall, endWall };
    }
    return {
      ms,
      ok: true,
      startWall,
      endWall,
      ...(typeof execution.runtime_ms === 'number' ? { runtimeMs: execution.runtime_ms } : {}),
      ...(typeof execution.job_id === 'string' ? { jobId: execution.job_id } : {}),
    };
  };
  return { call, close: () => client.close() };
}

/** Wait until the API's catalog offers the capability (runners advertise through Redis). */
async function waitForCapability(url: URL, era: Era, capability: string, timeoutMs = 60_000): Promise<void> {
  const client = new HttpClient(url, 1);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const outcome = parseToolCall(await client.post(toolCall(era, 1, 'math.find', { capability_id: capability })));
      if (outcome.result?.structuredContent?.['capability'] != null) return;
      if (Date.now() > deadline) throw new Error(`${url.href} did not offer ${capability} within ${timeoutMs} ms: ${JSON.stringify(outcome).slice(0, 500)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    client.close();
  }
}

export async function runQueueBench(context: BenchContext, options: QueueOptions): Promise<QueueReport> {
  const tag = randomBytes(4).toString('hex');
  const slotsPerRunner = Math.max(1, Math.ceil(options.concurrency / 2));

  context.log('queue: starting Redis and s3rver');
  const redis = await startRedisServer();
  context.cleanups.push(() => redis.stop());
  const probeRedis = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  context.cleanups.push(async () => {
    probeRedis.disconnect();
    await Promise.resolve();
  });

  const s3 = startChild(context, 's3rver', 's3rver.ts', { env: { BENCH_S3_BUCKET: BUCKET }, pipeStdout: true, pipeStdin: true });
  const s3Lines = new JsonLineReader(s3.child.stdout as NonNullable<typeof s3.child.stdout>, 's3rver');
  const s3Info = (await s3Lines.next(60_000)) as { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string } | undefined;
  if (s3Info === undefined) throw new Error(`s3rver did not start; see ${s3.logFile}`);
  const s3Stats = async (): Promise<Record<string, number>> => {
    s3.child.stdin?.write('stats\n');
    const answer = (await s3Lines.next(10_000)) as { requests?: Record<string, number> } | undefined;
    return answer?.requests ?? {};
  };

  const keys = generateCheckerKeys(context);
  const cluster = (name: string, extra: Record<string, string>): Record<string, string> =>
    jacobianEnvironment(context, name, {
      REDIS_URL: redis.url,
      JACOBIAN_PREFIX: 'bench',
      S3_BUCKET: BUCKET,
      S3_REGION: s3Info.region,
      S3_ENDPOINT: s3Info.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: s3Info.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3Info.secretAccessKey,
      AWS_REGION: s3Info.region,
      AWS_EC2_METADATA_DISABLED: 'true',
      JACOBIAN_CHECKER_PUBLIC_KEYS: keys.publicKey,
      // Roles share this host: each takes a free operations port.
      JACOBIAN_OPS_PORT: '0',
      ...extra,
    });

  context.log('queue: starting the cluster (2 runners, checker, api) and the embedded server');
  await Promise.all([
    startJacobian(context, 'runner-1', ['runner'], { env: cluster('runner-1', { JACOBIAN_CONCURRENCY: String(slotsPerRunner) }), readyMessage: 'runner taking jobs' }),
    startJacobian(context, 'runner-2', ['runner'], { env: cluster('runner-2', { JACOBIAN_CONCURRENCY: String(slotsPerRunner) }), readyMessage: 'runner taking jobs' }),
    startJacobian(context, 'checker', ['checker'], { env: cluster('checker', { JACOBIAN_CHECKER_KEY_FILE: keys.privateKey }), readyMessage: 'checker taking jobs' }),
  ]);
  const api = await startJacobian(context, 'api', ['api', '--host', '127.0.0.1', '--port', '0'], { env: cluster('api', {}) });
  const embedded = await startJacobian(context, 'embedded', ['serve', '--host', '127.0.0.1', '--port', '0'], {
    env: jacobianEnvironment(context, 'embedded', { JACOBIAN_CONCURRENCY: String(options.concurrency) }),
  });
  if (api.url === undefined || embedded.url === undefined) throw new Error('a server did not log its URL');
  await waitForCapability(api.url, options.era, BENCH_CAPABILITIES[options.capability].id);
  await waitForCapability(embedded.url, options.era, BENCH_CAPABILITIES[options.capability].id);

  const cpu = new CpuWindow(() => (redis.pid > 0 ? [redis.pid] : []));
  const cpuByProcess = (): Record<string, number> => {
    const byName: Record<string, number> = { 'bench client': ownCpuMs() };
    if (redis.pid > 0) byName['redis'] = cpuMs(redis.pid, false);
    for (const { name, pid } of context.group.list()) byName[name] = cpuMs(pid);
    return byName;
  };
  const probes: Probes = { redis: probeRedis, cpuByProcess, background: new Map(), s3Stats, cpu };
  const systems: SystemReport[] = [];

  for (const [system, url, description] of [
    ['embedded', embedded.url, `jacobian serve (one process, in-process queue, local artifact folder), JACOBIAN_CONCURRENCY=${options.concurrency}`],
    ['cluster', api.url, `jacobian api + 2 × jacobian runner (JACOBIAN_CONCURRENCY=${slotsPerRunner} each) + checker, Redis, s3rver`],
  ] as const) {
    context.log(`queue: ${system}: ${options.warmup} warm-up + ${options.sequential} sequential requests`);
    await context.waitQuiet(`queue ${system}`);
    const { call, close } = mcpCall(url, options, `${tag}-${system}`);
    try {
      for (let i = 0; i < options.warmup; i++) await call();
      probes.background = await redisBackground(probes);
      const outcomes: CallOutcome[] = [];
      const sequential = await sequentialPhase(call, options.sequential, probes, true, outcomes);
      // Read the job hashes now: the throughput phase will push these jobs out of the kept 1000.
      const breakdown = system === 'cluster' ? await bullmqBreakdown(redis.url, 'bench', 'jacobian-pool-light', outcomes) : undefined;
      context.log(`queue: ${system}: p50 ${sequential.latency.p50_ms} ms, p99 ${sequential.latency.p99_ms} ms; ${options.durationMs / 1000} s at concurrency ${options.concurrency}`);
      const throughput = await throughputPhase(call, options, probes, true);
      context.log(`queue: ${system}: ${throughput.rps} requests/s`);
      systems.push({ system, description, sequential, throughput, ...(breakdown !== undefined ? { breakdown } : {}) });
    } finally {
      close();
    }
  }

  // The bare BullMQ peer, on the same Redis: workers in their own processes, as runners are.
  context.log('queue: bare BullMQ peer');
  const bareQueueName = 'bare';
  const barePrefix = 'barebench';
  const workers = [1, 2].map((n) =>
    startChild(context, `bare-worker-${n}`, 'bare-worker.ts', {
      env: { BENCH_REDIS_URL: redis.url, BENCH_PREFIX: barePrefix, BENCH_QUEUE: bareQueueName, BENCH_CONCURRENCY: String(slotsPerRunner) },
    }),
  );
  for (const worker of workers) await waitForLogLine(worker, (entry) => (entry['msg'] === 'ready' ? true : undefined));
  const connection = { url: redis.url };
  const queue = new Queue(bareQueueName, { connection, prefix: barePrefix });
  const events = new QueueEvents(bareQueueName, { connection, prefix: barePrefix });
  try {
    await queue.waitUntilReady();
    await events.waitUntilReady();
    let counter = 0;
    const bareCall: Call = async () => {
      const i = counter++;
      const jobId = `bare-${tag}-${i}`;
      const startWall = wallNow();
      const t0 = performance.now();
      try {
        const job = await queue.add(
          'noop',
          { i, tag },
          {
            jobId,
            attempts: 3,
            backoff: { type: 'exponential', delay: 1000 },
            removeOnComplete: { age: 3600, count: 1000 },
            removeOnFail: { age: 86_400, count: 1000 },
          },
        );
        const value = (await job.waitUntilFinished(events, 60_000)) as { ok?: boolean } | undefined;
        return { ms: performance.now() - t0, ok: value?.ok === true, jobId, startWall, endWall: wallNow() };
      } catch (error) {
        return { ms: performance.now() - t0, ok: false, failure: (error as Error).message, jobId, startWall, endWall: wallNow() };
      }
    };
    await context.waitQuiet('queue bare-bullmq');
    for (let i = 0; i < options.warmup; i++) await bareCall();
    probes.background = await redisBackground(probes);
    const outcomes: CallOutcome[] = [];
    const sequential = await sequentialPhase(bareCall, options.sequential, probes, false, outcomes);
    const breakdown = await bullmqBreakdown(redis.url, barePrefix, bareQueueName, outcomes);
    context.log(`queue: bare: p50 ${sequential.latency.p50_ms} ms, p99 ${sequential.latency.p99_ms} ms`);
    const throughput = await throughputPhase(bareCall, options, probes, false);
    context.log(`queue: bare: ${throughput.rps} jobs/s`);
    systems.push({
      system: 'bare-bullmq',
      description: `Queue.add → Worker (2 processes, concurrency ${slotsPerRunner} each, processor returns a small object) → job.waitUntilFinished(QueueEvents)`,
      sequential,
      throughput,
      ...(breakdown !== undefined ? { breakdown } : {}),
    });
  } finally {
    await events.close();
    await queue.close();
  }

  const get = (name: string): SystemReport => systems.find((s) => s.system === name) as SystemReport;
  const embeddedR = get('embedded');
  const clusterR = get('cluster');
  const bareR = get('bare-bullmq');
  const p50Ratio = ratio(clusterR.sequential.latency.p50_ms, bareR.sequential.latency.p50_ms);
  const throughputRatio = ratio(clusterR.throughput.rps, bareR.throughput.rps);
  const ratios = {
    cluster_p50_over_bare_p50: p50Ratio,
    cluster_p99_over_bare_p99: ratio(clusterR.sequential.latency.p99_ms, bareR.sequential.latency.p99_ms),
    cluster_throughput_over_bare_throughput: throughputRatio,
    embedded_throughput_over_bare_throughput: ratio(embeddedR.throughput.rps, bareR.throughput.rps),
    cluster_added_p50_ms_over_embedded: round(clusterR.sequential.latency.p50_ms - embeddedR.sequential.latency.p50_ms),
    cluster_added_p99_ms_over_embedded: round(clusterR.sequential.latency.p99_ms - embeddedR.sequential.latency.p99_ms),
    cluster_throughput_over_embedded_throughput: ratio(clusterR.throughput.rps, embeddedR.throughput.rps),
  };
  const targets = [
    { name: 'cluster p50 / bare BullMQ p50', target: '≤ 3', measured: p50Ratio, met: p50Ratio <= 3 },
    { name: 'cluster throughput / bare BullMQ throughput', target: '≥ 0.25', measured: throughputRatio, met: throughputRatio >= 0.25 },
  ];
  const failures = systems.reduce((n, s) => n + s.sequential.failed + s.throughput.failed, 0);
  if (failures > 0) context.log(`queue: WARNING: ${failures} requests failed; see first_failure in the JSON`);

  return {
    benchmark: 'queue',
    options: {
      ...options,
      capability_id: BENCH_CAPABILITIES[options.capability].id,
      payload_example: BENCH_CAPABILITIES[options.capability].payload(tag, 0),
      worker_slots: {
        embedded: `JACOBIAN_CONCURRENCY=${options.concurrency}`,
        cluster: `2 runners × JACOBIAN_CONCURRENCY=${slotsPerRunner}`,
        'bare-bullmq': `2 worker processes × concurrency ${slotsPerRunner}`,
      },
    },
    systems,
    ratios,
    targets,
    stopped: [],
  };
}

export function printQueueTables(report: QueueReport): string {
  const rows = report.systems.map((s) => [
    s.system,
    s.sequential.latency.p50_ms,
    s.sequential.latency.p99_ms,
    s.sequential.runner_runtime_ms?.p50_ms ?? 'n/a',
    s.throughput.rps,
    s.throughput.latency.p50_ms,
    s.throughput.latency.p99_ms,
    s.sequential.redis_per_request?.commands ?? 'n/a',
    s.sequential.redis_per_request?.usec ?? 'n/a',
    s.throughput.failed + s.sequential.failed,
    `${s.throughput.cpu.other_cores}`,
  ]);
  const main = table(
    ['system', 'seq p50 ms', 'seq p99 ms', 'run_ms p50', `rps @${report.options.concurrency}`, 'conc p50 ms', 'conc p99 ms', 'redis cmd/req', 'redis µs/req', 'failed', 'other cores'],
    rows,
  );
  const ratioRows = Object.entries(report.ratios).map(([name, value]) => [name, typeof value === 'number' ? value : String(value)]);
  const targets = table(
    ['target', 'wanted', 'measured', 'met'],
    report.targets.map((t) => [t.name, t.target, t.measured, t.met ? 'yes' : 'NO']),
  );
  const withBreakdown = report.systems.filter((s) => s.breakdown !== undefined);
  const breakdown = table(
    ['sequential request, p50 ms (mean)', ...withBreakdown.map((s) => s.system)],
    [
      ['client → job created', ...withBreakdown.map((s) => `${s.breakdown?.before_add_ms.p50_ms} (${s.breakdown?.before_add_ms.mean_ms})`)],
      ['job created → worker took it', ...withBreakdown.map((s) => `${s.breakdown?.add_to_active_ms.p50_ms} (${s.breakdown?.add_to_active_ms.mean_ms})`)],
      ['worker took it → finished', ...withBreakdown.map((s) => `${s.breakdown?.active_to_finished_ms.p50_ms} (${s.breakdown?.active_to_finished_ms.mean_ms})`)],
      ['  of which execution.runtime_ms', ...withBreakdown.map((s) => (s.sequential.runner_runtime_ms ? `${s.sequential.runner_runtime_ms.p50_ms} (${s.sequential.runner_runtime_ms.mean_ms})` : 'n/a'))],
      ['finished → client has answer', ...withBreakdown.map((s) => `${s.breakdown?.finished_to_client_ms.p50_ms} (${s.breakdown?.finished_to_client_ms.mean_ms})`)],
      ['total (client)', ...withBreakdown.map((s) => `${s.sequential.latency.p50_ms} (${s.sequential.latency.mean_ms})`)],
    ],
  );
  const names = [...new Set(report.systems.flatMap((s) => Object.keys(s.throughput.cpu_ms_per_request)))];
  const cpuTable = table(
    ['CPU ms per request (throughput phase)', ...report.systems.map((s) => s.system)],
    names.map((name) => [name, ...report.systems.map((s) => s.throughput.cpu_ms_per_request[name] ?? '-')]),
  );
  return [main, '', breakdown, '', cpuTable, '', table(['ratio', 'value'], ratioRows), '', targets].join('\n');
}
