/**
 * The HTTP load generator of the math.find benchmark, in its own process (pinned to its own
 * core by the parent). It sends one fixed MCP `tools/call` POST from `concurrency` keep-alive
 * connections, each waiting for its answer before sending the next (closed loop), first
 * `warmupRequests` unmeasured, then either `requests` requests or `durationMs` of them.
 *
 * Configured by the JSON in BENCH_LOADGEN (see {@link LoadgenConfig}). Writes JSON lines to
 * stdout: `{"type":"progress",...}` every `progressEveryMs` during the measured phase, then one
 * `{"type":"result",...}`. Every response is checked (HTTP 200, a JSON-RPC result, not a tool
 * error); the first failure is reported.
 */
import { HttpClient, looksSuccessful, parseToolCall, toolCall, type Era } from '../mcp-http.js';
import { summarize } from '../stats.js';

export interface LoadgenConfig {
  url: string;
  era: Era;
  tool: string;
  args: Record<string, unknown>;
  /** When given, requests cycle through these arguments instead of sending `args` every time. */
  argsList?: Record<string, unknown>[];
  concurrency: number;
  warmupRequests: number;
  /** Stop after this many measured requests… */
  requests?: number;
  /** …or after this long (whichever comes first when both are given). */
  durationMs?: number;
  progressEveryMs?: number;
}

export interface LoadgenResult {
  type: 'result';
  requests: number;
  failed: number;
  first_failure: string | null;
  seconds: number;
  rps: number;
  latency: ReturnType<typeof summarize>;
  /** Size of one response body, in bytes. */
  response_bytes: number;
}

const raw = process.env['BENCH_LOADGEN'];
if (raw === undefined) throw new Error('loadgen: BENCH_LOADGEN is not set');
const config = JSON.parse(raw) as LoadgenConfig;
const client = new HttpClient(new URL(config.url), config.concurrency);
const prepared = toolCall(config.era, 1, config.tool, config.args);
const variants = (config.argsList ?? [config.args]).map((args) => toolCall(config.era, 1, config.tool, args));
let nextVariant = 0;

// Check the request once, in full, before loading the server with it.
const probe = await client.post(prepared);
const outcome = parseToolCall(probe);
if (outcome.error !== undefined || outcome.result?.isError === true || outcome.result?.structuredContent === undefined) {
  throw new Error(`loadgen: the probe request failed: ${outcome.error ?? JSON.stringify(outcome.result).slice(0, 500)}`);
}
const responseBytes = Buffer.byteLength(probe.body);

async function phase(count: number | undefined, durationMs: number | undefined, record: boolean, onProgress?: (done: number) => void) {
  const latencies = record && count !== undefined ? new Float64Array(count) : undefined;
  const sampled: number[] = [];
  let issued = 0;
  let done = 0;
  let failed = 0;
  let firstFailure: string | null = null;
  const started = performance.now();
  const deadline = durationMs !== undefined ? started + durationMs : Number.POSITIVE_INFINITY;
  let lastProgress = started;
  const loop = async (): Promise<void> => {
    for (;;) {
      if ((count !== undefined && issued >= count) || performance.now() >= deadline) return;
      const index = issued++;
      const t0 = performance.now();
      try {
        const response = await client.post(variants[nextVariant++ % variants.length] ?? prepared);
        if (!looksSuccessful(response)) {
          failed++;
          firstFailure ??= `HTTP ${response.status}: ${response.body.slice(0, 300)}`;
        }
      } catch (error) {
        failed++;
        firstFailure ??= error instanceof Error ? error.message : String(error);
      }
      const t1 = performance.now();
      if (latencies !== undefined) latencies[index] = t1 - t0;
      else if (record && sampled.length < 2_000_000) sampled.push(t1 - t0);
      done++;
      if (onProgress !== undefined && t1 - lastProgress >= (config.progressEveryMs ?? 1000)) {
        lastProgress = t1;
        onProgress(done);
      }
    }
  };
  await Promise.all(Array.from({ length: config.concurrency }, loop));
  const seconds = (performance.now() - started) / 1000;
  return { done, failed, firstFailure, seconds, samples: latencies !== undefined ? Array.from(latencies.subarray(0, done)) : sampled };
}

await phase(config.warmupRequests, undefined, false);
const measuredStart = performance.now();
const measured = await phase(config.requests, config.requests === undefined ? (config.durationMs ?? 10_000) : config.durationMs, true, (done) =>
  process.stdout.write(`${JSON.stringify({ type: 'progress', done, seconds: (performance.now() - measuredStart) / 1000 })}\n`),
);
client.close();
const result: LoadgenResult = {
  type: 'result',
  requests: measured.done,
  failed: measured.failed,
  first_failure: measured.firstFailure,
  seconds: Math.round(measured.seconds * 1000) / 1000,
  rps: Math.round((measured.done / measured.seconds) * 10) / 10,
  latency: summarize(measured.samples),
  response_bytes: responseBytes,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
