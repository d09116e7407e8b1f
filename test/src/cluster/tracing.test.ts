/**
 * Observability of the cluster end to end: one Redis, one Ceph RGW (a real S3 server), an
 * OTLP/HTTP receiver of this file (JSON on POST /v1/traces and /v1/metrics), and the real `jacobian api`,
 * `runner` and `checker` processes with the standard OTEL_* environment pointing at it.
 *
 * Each math.run call is one trace: the API's server span for the MCP request is its root, and
 * every hop the call takes (admission, the producer span, the runner's or checker's consumer
 * span, the execution and provider spans, artifact puts, the API's record check) is in it. A
 * VERIFY call that checks an earlier EXPLORE result is a trace of its own; the two are linked
 * by the artifact URI the VERIFY payload names, not by a parent span.
 *
 * The operations endpoints (/healthz, /readyz, /metrics) of every process are checked too,
 * including /readyz turning 503 while Redis is down. Nothing asserts wall-clock durations.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil, killLeftovers, servedUrl, startClusterInfrastructure, startRole, type ClusterInfrastructure, type RoleProcess } from '../support/cluster.js';
import { PETERSEN_EDGES, PETERSEN_ORDER } from '../support/graphs.js';
import { mathRun, type RunCall } from '../support/tools.js';

const HOOK_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 180_000;
const CALL_TIMEOUT_MS = 150_000;

const CONSTRUCT = 'graph.construct.explicit';
const COMPUTE = 'graph.induced_tree.maximum.compute';
const VERIFY = 'graph.induced_tree.maximum.verify';
const PREFIX = 'jcbtrace';

/** OTLP span kinds (opentelemetry-proto's Span.SpanKind). */
const KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

/** One span as received, flattened: its service and its attributes as plain values. */
interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  status: number;
  attributes: Record<string, string | number | boolean>;
  /** The span's JSON exactly as the exporter sent it. */
  raw: string;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number };
  attributes?: OtlpAttribute[];
}
interface ExportTraceServiceRequest {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function plain(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return JSON.stringify(value);
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));
}

/** One metric of one OTLP metrics push (sums and gauges; histograms are not read here). */
interface ReceivedMetrics {
  service: string;
  /** The pushing process's service.instance.id. */
  instance: string;
  name: string;
  unit: string;
  points: { attributes: Record<string, string | number | boolean>; value: number }[];
}

interface ExportMetricsServiceRequest {
  resourceMetrics?: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeMetrics?: {
      metrics?: {
        name: string;
        unit?: string;
        sum?: { dataPoints?: { attributes?: { key: string; value: OtlpValue }[]; asDouble?: number; asInt?: string | number }[] };
        gauge?: { dataPoints?: { attributes?: { key: string; value: OtlpValue }[]; asDouble?: number; asInt?: string | number }[] };
      }[];
    }[];
  }[];
}

/** An OTLP/HTTP receiver on 127.0.0.1:0 that accepts JSON export requests on POST /v1/traces and /v1/metrics. */
async function startReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; bodies: string[]; metrics: ReceivedMetrics[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const metrics: ReceivedMetrics[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const json = (request.headers['content-type'] ?? '').startsWith('application/json');
      if (request.method === 'POST' && request.url === '/v1/metrics' && json) {
        const decoded = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportMetricsServiceRequest;
        for (const resourceMetrics of decoded.resourceMetrics ?? []) {
          const resource = attributesOf(resourceMetrics.resource?.attributes);
          const service = String(resource['service.name']);
          const instance = String(resource['service.instance.id']);
          for (const scope of resourceMetrics.scopeMetrics ?? []) {
            for (const metric of scope.metrics ?? []) {
              const points = metric.sum?.dataPoints ?? metric.gauge?.dataPoints ?? [];
              metrics.push({ service, instance, name: metric.name, unit: metric.unit ?? '', points: points.map((p) => ({ attributes: attributesOf(p.attributes), value: p.asDouble ?? Number(p.asInt ?? NaN) })) });
            }
          }
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !json) {
        response.writeHead(415).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      const decoded = JSON.parse(body) as ExportTraceServiceRequest;
      for (const resourceSpans of decoded.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              status: span.status?.code ?? 0,
              attributes: attributesOf(span.attributes),
              raw: JSON.stringify(span),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    metrics,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let markerRoot: string;
let infrastructure: ClusterInfrastructure | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
const markers = new Set<string>();
const roles: RoleProcess[] = [];

beforeAll(async () => {
  markerRoot = await mkdtemp(join(tmpdir(), 'jacobian-tracing-'));
  const [startedInfrastructure, startedReceiver] = await Promise.allSettled([
    startClusterInfrastructure({ markerRoot, markers, prefix: PREFIX, s3Prefix: 'tracing-e2e/', bucketPrefix: 'jcb-trace' }),
    startReceiver(),
  ]);
  if (startedInfrastructure.status === 'fulfilled') infrastructure = startedInfrastructure.value;
  if (startedReceiver.status === 'fulfilled') receiver = startedReceiver.value;
  for (const started of [startedInfrastructure, startedReceiver]) if (started.status === 'rejected') throw started.reason;
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  const errors: unknown[] = [];
  await Promise.all(roles.map((role) => role.stop(20_000).catch((error: unknown) => errors.push(error))));
  await receiver?.close().catch((error: unknown) => errors.push(error));
  errors.push(...((await infrastructure?.stop()) ?? []));
  const left = killLeftovers(markers);
  if (markerRoot !== undefined) await rm(markerRoot, { recursive: true, force: true });
  expect(left, 'processes left behind (killed now)').toEqual([]);
  if (errors.length > 0) throw errors[0];
}, HOOK_TIMEOUT_MS);

describe('traces, metrics, logs and operations endpoints of a cluster', () => {
  let api: RoleProcess;
  let runner: RoleProcess;
  let checker: RoleProcess;
  let client: Client;
  /** A string that appears only in the requests' payloads (vertex labels). */
  const secret = `secret${randomBytes(6).toString('hex')}`;
  const calls: { construct?: RunCall; compute?: RunCall; verify?: RunCall } = {};

  function opsUrl(role: RoleProcess, readyMessage: string): string {
    const entry = role.logs().find((e) => e.msg === readyMessage);
    const url = entry?.['ops_url'];
    if (typeof url !== 'string') throw new Error(`${role.name} logged no ops_url; stderr:\n${role.stderr()}`);
    return url;
  }

  beforeAll(async () => {
    if (infrastructure === undefined || receiver === undefined) throw new Error('the infrastructure did not start');
    const env = infrastructure.env({
      JACOBIAN_HEARTBEAT_TTL_MS: '3000',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
    });
    const started = await Promise.allSettled([
      startRole('api', ['api', '--host', '127.0.0.1', '--port', '0'], env, markerRoot, 'serving MCP over Streamable HTTP'),
      startRole('runner', ['runner', '--pools', 'light,heavy'], env, markerRoot, 'runner taking jobs'),
      startRole('checker', ['checker'], env, markerRoot, 'checker taking jobs'),
    ]);
    for (const role of started) {
      if (role.status === 'fulfilled') {
        roles.push(role.value);
        markers.add(role.value.marker);
      }
    }
    for (const role of started) if (role.status === 'rejected') throw role.reason;
    [api, runner, checker] = roles as [RoleProcess, RoleProcess, RoleProcess];
    client = new Client({ name: 'jacobian-tracing-e2e', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(servedUrl(api)));
    // The API sees the runner's and the checker's capabilities once their heartbeats land.
    await pollUntil(
      'the catalog to list the construct, compute and verify capabilities',
      async () => {
        const read = await client.readResource({ uri: 'capability://catalog' });
        const content = read.contents[0];
        const ids = (JSON.parse(content !== undefined && 'text' in content ? content.text : '{}') as { capabilities?: { id: string }[] }).capabilities?.map((c) => c.id) ?? [];
        return [CONSTRUCT, COMPUTE, VERIFY].every((id) => ids.includes(id)) ? true : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  }, HOOK_TIMEOUT_MS);

  afterAll(async () => {
    await client?.close();
  });

  /** Every span of the trace that holds the spans of `jobId`, once the trace has `expected` spans by name. */
  async function traceOf(jobId: string, expected: string[]): Promise<ReceivedSpan[]> {
    const spans = (receiver as NonNullable<typeof receiver>).spans;
    let found: ReceivedSpan[] = [];
    return pollUntil(
      `the spans of job ${jobId} (${expected.join(', ')})`,
      () => {
        const traceIds = new Set(spans.filter((s) => s.attributes['jacobian.job.id'] === jobId).map((s) => s.traceId));
        expect([...traceIds].length, `job ${jobId} is in ${traceIds.size} traces`).toBeLessThanOrEqual(1);
        const [traceId] = [...traceIds];
        found = spans.filter((s) => s.traceId === traceId);
        return traceId !== undefined && expected.every((name) => found.some((s) => s.name === name)) ? found : undefined;
      },
      { timeoutMs: 30_000, describe: () => `received: ${found.map((s) => `${s.service}:${s.name}`).join(', ')}` },
    );
  }

  function only(spans: ReceivedSpan[], name: string, service?: string): ReceivedSpan {
    const matching = spans.filter((s) => s.name === name && (service === undefined || s.service === service));
    expect(matching, `spans named ${name}${service ? ` of ${service}` : ''}`).toHaveLength(1);
    return matching[0] as ReceivedSpan;
  }

  function isDescendant(spans: ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    for (let at = byId.get(span.parentSpanId); at !== undefined; at = byId.get(at.parentSpanId)) if (at.spanId === ancestor.spanId) return true;
    return false;
  }

  /** One root (the API's server span of the MCP request); every other span's parent is in the trace. */
  function expectWellFormed(spans: ReceivedSpan[]): ReceivedSpan {
    const ids = new Set(spans.map((s) => s.spanId));
    const roots = spans.filter((s) => !ids.has(s.parentSpanId));
    expect(roots.map((s) => `${s.service}:${s.name}`)).toEqual(['jacobian-api:POST /mcp']);
    const root = roots[0] as ReceivedSpan;
    expect(root.parentSpanId).toBe('');
    expect(root.kind).toBe(KIND.SERVER);
    expect(root.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/mcp', 'http.response.status_code': 200 });
    for (const span of spans) expect(span.raw, `span ${span.name} of ${span.service} carries the payload`).not.toContain(secret);
    return root;
  }

  it('an EXPLORE run is one trace from the API request through the runner to its artifact writes', { timeout: TEST_TIMEOUT_MS }, async () => {
    const vertices = Array.from({ length: PETERSEN_ORDER }, (_, i) => `${secret}-${i}`);
    const edges = PETERSEN_EDGES.map(([a, b]) => [vertices[a], vertices[b]]);
    calls.construct = await mathRun(client, { capability_id: CONSTRUCT, payload: { vertices, edges } }, { timeout: CALL_TIMEOUT_MS });
    expect(calls.construct.result.execution.status).toBe('COMPLETED');
    const graphUri = (calls.construct.result.output as { graph_uri: string }).graph_uri;
    calls.compute = await mathRun(client, { capability_id: COMPUTE, payload: { graph_uri: graphUri } }, { timeout: CALL_TIMEOUT_MS });
    expect(calls.compute.result.execution.status).toBe('COMPLETED');

    const jobId = calls.compute.result.execution.job_id;
    const spans = await traceOf(jobId, ['POST /mcp', 'tools/call math.run', 'math.run', 'admission', 'publish jacobian-pool-heavy', 'process jacobian-pool-heavy', `execute ${COMPUTE}`, 'artifact.put']);
    const root = expectWellFormed(spans);
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['jacobian-api', 'jacobian-runner']));

    const call = only(spans, 'tools/call math.run', 'jacobian-api');
    const run = only(spans, 'math.run', 'jacobian-api');
    const admission = only(spans, 'admission', 'jacobian-api');
    const producer = only(spans, 'publish jacobian-pool-heavy', 'jacobian-api');
    const consumer = only(spans, 'process jacobian-pool-heavy', 'jacobian-runner');
    const execution = only(spans, `execute ${COMPUTE}`, 'jacobian-runner');
    const provider = spans.find((s) => s.name.startsWith('provider ') && s.service === 'jacobian-runner');
    expect(provider, 'a provider span').toBeDefined();
    // The MCP request's span (OpenTelemetry's MCP conventions) is between the HTTP request and the API's run.
    expect(call.parentSpanId).toBe(root.spanId);
    expect(call.kind).toBe(KIND.SERVER);
    expect(call.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'math.run', 'gen_ai.operation.name': 'execute_tool', 'network.transport': 'tcp' });
    expect(typeof call.attributes['jsonrpc.request.id']).toBe('string');
    expect(run.parentSpanId).toBe(call.spanId);
    expect(admission.parentSpanId).toBe(run.spanId);
    expect(producer.kind).toBe(KIND.PRODUCER);
    expect(isDescendant(spans, producer, run)).toBe(true);
    expect(consumer.kind).toBe(KIND.CONSUMER);
    expect(consumer.parentSpanId).toBe(producer.spanId);
    expect(isDescendant(spans, execution, consumer)).toBe(true);
    expect(provider?.parentSpanId).toBe(execution.spanId);
    const puts = spans.filter((s) => s.name === 'artifact.put');
    expect(puts.length).toBeGreaterThan(0);
    for (const put of puts) {
      expect(put.service).toBe('jacobian-runner');
      expect(put.kind).toBe(KIND.CLIENT);
      expect(isDescendant(spans, put, execution)).toBe(true);
      expect(put.attributes['jacobian.artifact.store']).toBe('s3');
      expect(put.attributes['jacobian.artifact.bytes']).toBeGreaterThan(0);
    }

    const identity = { 'jacobian.capability.id': COMPUTE, 'jacobian.mode': 'EXPLORE', 'jacobian.job.id': jobId };
    expect(admission.attributes).toMatchObject(identity);
    expect(producer.attributes).toMatchObject({ ...identity, 'jacobian.pool': 'heavy' });
    expect(consumer.attributes).toMatchObject({ ...identity, 'jacobian.pool': 'heavy', 'jacobian.outcome': 'COMPLETED' });
    expect(execution.attributes).toMatchObject({ ...identity, 'jacobian.outcome': 'COMPLETED', 'jacobian.provider': provider?.attributes['jacobian.provider'] });
    expect(run.attributes).toMatchObject({ ...identity, 'jacobian.outcome': 'COMPLETED' });
    expect(provider?.name).toBe(`provider ${String(provider?.attributes['jacobian.provider'])}`);
    for (const span of spans) expect(span.status, `span ${span.name} failed`).not.toBe(2);

    // The construct call is a trace of its own, through the light pool.
    const constructSpans = await traceOf(calls.construct.result.execution.job_id, ['POST /mcp', 'process jacobian-pool-light', `execute ${CONSTRUCT}`, 'artifact.put']);
    expectWellFormed(constructSpans);
    expect(constructSpans[0]?.traceId).not.toBe(root.traceId);

    // The runner's log line about the run carries the trace's IDs.
    const finished = await pollUntil('the runner to log "run finished"', () => runner.logs().find((e) => e.msg === 'run finished' && e['job_id'] === jobId), { timeoutMs: 10_000 });
    expect(finished['trace_id']).toBe(root.traceId);
    expect(spans.map((s) => s.spanId)).toContain(finished['span_id']);
  });

  it('a VERIFY run is one trace from the API request through the checker and back to the record check', { timeout: TEST_TIMEOUT_MS }, async () => {
    const resultUri = (calls.compute?.result.output as { result_uri: string } | undefined)?.result_uri;
    expect(resultUri).toBeDefined();
    calls.verify = await mathRun(client, { capability_id: VERIFY, mode: 'VERIFY', payload: { result_uri: resultUri } }, { timeout: CALL_TIMEOUT_MS });
    expect(calls.verify.result.assurance.level).toBe('VERIFIED');

    const jobId = calls.verify.result.execution.job_id;
    const spans = await traceOf(jobId, ['POST /mcp', 'tools/call math.run', 'math.run', 'publish jacobian-checker', 'process jacobian-checker', `execute ${VERIFY}`, 'verification.check']);
    const root = expectWellFormed(spans);
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['jacobian-api', 'jacobian-checker']));
    const run = only(spans, 'math.run', 'jacobian-api');
    const producer = only(spans, 'publish jacobian-checker', 'jacobian-api');
    const consumer = only(spans, 'process jacobian-checker', 'jacobian-checker');
    const check = only(spans, `execute ${VERIFY}`, 'jacobian-checker');
    const provider = only(spans, 'provider jacobian-checker-ts', 'jacobian-checker');
    const recordCheck = only(spans, 'verification.check', 'jacobian-api');
    expect(isDescendant(spans, consumer, root)).toBe(true);
    expect(consumer.parentSpanId).toBe(producer.spanId);
    expect(isDescendant(spans, check, consumer)).toBe(true);
    expect(provider.parentSpanId).toBe(check.spanId);
    expect(recordCheck.parentSpanId).toBe(run.spanId);
    const identity = { 'jacobian.capability.id': VERIFY, 'jacobian.mode': 'VERIFY', 'jacobian.job.id': jobId };
    expect(consumer.attributes).toMatchObject({ ...identity, 'jacobian.pool': 'checker', 'jacobian.outcome': 'COMPLETED', 'jacobian.assurance': 'VERIFIED' });
    expect(check.attributes).toMatchObject({ ...identity, 'jacobian.provider': 'jacobian-checker-ts', 'jacobian.outcome': 'COMPLETED' });
    expect(recordCheck.attributes).toMatchObject({ 'jacobian.capability.id': VERIFY, 'jacobian.job.id': jobId, 'jacobian.verification': 'verified' });
    // The checker writes the signed record (and its candidate) under this trace.
    const puts = spans.filter((s) => s.name === 'artifact.put');
    expect(puts.length).toBeGreaterThan(0);
    for (const put of puts) expect(put.service).toBe('jacobian-checker');

    // Across the flow, spans came from all three services, and none holds the requests' payloads.
    const services = new Set((receiver as NonNullable<typeof receiver>).spans.map((s) => s.service));
    expect([...services].sort()).toEqual(['jacobian-api', 'jacobian-checker', 'jacobian-runner']);
    for (const body of (receiver as NonNullable<typeof receiver>).bodies) expect(body).not.toContain(secret);
    expect((receiver as NonNullable<typeof receiver>).bodies.join('')).toContain('"deployment.environment.name"');
  });

  it('every process serves /healthz, /readyz and /metrics, with the run metrics after the runs', { timeout: TEST_TIMEOUT_MS }, async () => {
    const endpoints = [
      { role: api, base: opsUrl(api, 'serving MCP over Streamable HTTP') },
      { role: api, base: servedUrl(api).origin },
      { role: runner, base: opsUrl(runner, 'runner taking jobs') },
      { role: checker, base: opsUrl(checker, 'checker taking jobs') },
    ];
    for (const { role, base } of endpoints) {
      const health = await fetch(`${base}/healthz`);
      expect(health.status, `${role.name} ${base}/healthz`).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${base}/readyz`);
      const readyBody = (await ready.json()) as { status: string; checks: Record<string, string> };
      expect(ready.status, `${role.name} ${base}/readyz: ${JSON.stringify(readyBody)}`).toBe(200);
      expect(Object.values(readyBody.checks).every((v) => v === 'ok')).toBe(true);
      expect(Object.keys(readyBody.checks)).toEqual(role === api ? ['redis', 'redis-eviction-policy', 'artifacts'] : ['redis', 'redis-eviction-policy', 'artifacts', 'providers']);
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    }
    const scrape = async (base: string): Promise<string> => (await fetch(`${base}/metrics`)).text();
    const runnerMetrics = await scrape(opsUrl(runner, 'runner taking jobs'));
    expect(runnerMetrics).toMatch(new RegExp(`^jacobian_run_duration_seconds_count\\{capability="${COMPUTE.replaceAll('.', '\\.')}",outcome="COMPLETED"\\} 1$`, 'm'));
    expect(runnerMetrics).toMatch(/^jacobian_runs_total\{capability="graph\.construct\.explicit",mode="EXPLORE",outcome="COMPLETED"\} 1$/m);
    expect(runnerMetrics).toMatch(/^jacobian_queue_wait_seconds_count\{pool="heavy"\} 1$/m);
    // Queue depth comes from the API only, so that summing over processes counts each queue once.
    expect(runnerMetrics).not.toMatch(/^jacobian_queue_jobs\{/m);
    expect(runnerMetrics).toMatch(/^jacobian_provider_up\{provider="[^"]+"\} 1$/m);
    expect(runnerMetrics).toMatch(/^jacobian_artifact_bytes_written_total\{store="s3"\} [1-9]\d*$/m);
    const checkerMetrics = await scrape(opsUrl(checker, 'checker taking jobs'));
    expect(checkerMetrics).toMatch(/^jacobian_checker_verifications_total\{outcome="accepted"\} 1$/m);
    expect(checkerMetrics).toMatch(/^jacobian_run_duration_seconds_count\{capability="graph\.induced_tree\.maximum\.verify",outcome="COMPLETED"\} 1$/m);
    expect(checkerMetrics).toMatch(/^jacobian_provider_up\{provider="jacobian-checker-ts"\} 1$/m);
    expect(checkerMetrics).not.toMatch(/^jacobian_queue_jobs\{/m);
    const apiMetrics = await scrape(servedUrl(api).origin);
    expect(apiMetrics).toMatch(/^jacobian_api_verifications_total\{outcome="verified"\} 1$/m);
    expect(apiMetrics).toMatch(/^jacobian_api_run_duration_seconds_count\{capability="graph\.induced_tree\.maximum\.compute",outcome="COMPLETED"\} 1$/m);
    expect(apiMetrics).toMatch(/^jacobian_api_runs_total\{capability="graph\.induced_tree\.maximum\.verify",mode="VERIFY",outcome="COMPLETED"\} 1$/m);
    expect(apiMetrics).toMatch(/^jacobian_queue_jobs\{pool="checker",state="active"\} 0$/m);
    // Labels never carry job IDs.
    for (const text of [runnerMetrics, checkerMetrics, apiMetrics]) expect(text).not.toContain('run-');

    // The same metrics arrive over OTLP from every role, cumulative, under the role's service name
    // and its own instance ID, with OpenTelemetry names and units.
    const pushed = (service: string, name: string, labels: Record<string, string>): number | undefined =>
      (receiver as NonNullable<typeof receiver>).metrics
        .filter((m) => m.service === service && m.name === name)
        .flatMap((m) => m.points)
        .filter((p) => Object.entries(labels).every(([k, v]) => p.attributes[k] === v))
        .map((p) => p.value)
        .at(-1);
    await pollUntil(
      'OTLP metrics pushes from the runner, the checker and the API',
      () =>
        pushed('jacobian-runner', 'jacobian.runs', { capability: 'graph.construct.explicit', mode: 'EXPLORE', outcome: 'COMPLETED' }) === 1 &&
        pushed('jacobian-checker', 'jacobian.checker.verifications', { outcome: 'accepted' }) === 1 &&
        pushed('jacobian-api', 'jacobian.api.verifications', { outcome: 'verified' }) === 1
          ? true
          : undefined,
      { timeoutMs: 30_000, describe: () => `pushed: ${[...new Set((receiver as NonNullable<typeof receiver>).metrics.map((m) => `${m.service}:${m.name}`))].slice(0, 40).join(', ')}` },
    );
    const received = (receiver as NonNullable<typeof receiver>).metrics;
    for (const metric of received) expect(metric.unit, `${metric.service} ${metric.name}`).not.toBe('');
    const instances = new Map(['jacobian-api', 'jacobian-runner', 'jacobian-checker'].map((service) => [service, new Set(received.filter((m) => m.service === service).map((m) => m.instance))]));
    // One instance per process, each its own.
    for (const [service, ids] of instances) expect([...ids], service).toHaveLength(1);
    expect(new Set([...instances.values()].map((ids) => [...ids][0])).size).toBe(3);
  });

  it('traces every MCP request by method: initialize, tools/list and resources/read are spans of their own', { timeout: TEST_TIMEOUT_MS }, async () => {
    const legacy = new Client({ name: 'jacobian-tracing-legacy', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    await legacy.connect(new StreamableHTTPClientTransport(servedUrl(api)));
    try {
      await legacy.listTools();
      await legacy.readResource({ uri: 'jacobian://instructions' });
    } finally {
      await legacy.close();
    }
    const spans = (receiver as NonNullable<typeof receiver>).spans;
    const found = await pollUntil(
      'the initialize, tools/list and resources/read spans',
      () => {
        const byName = (name: string): ReceivedSpan | undefined => spans.find((s) => s.service === 'jacobian-api' && s.name === name && (name !== 'resources/read' || s.attributes['mcp.resource.uri'] === 'jacobian://instructions'));
        const list = [byName('initialize'), byName('tools/list'), byName('resources/read')];
        return list.every((s) => s !== undefined) ? (list) : undefined;
      },
      { timeoutMs: 30_000 },
    );
    for (const span of found) {
      expect(span.kind).toBe(KIND.SERVER);
      expect(span.attributes['mcp.method.name']).toBe(span.name);
      expect(typeof span.attributes['jsonrpc.request.id']).toBe('string');
      // Each is under the HTTP request that carried it.
      expect(spans.find((s) => s.spanId === span.parentSpanId)?.name).toBe('POST /mcp');
    }
  });

  it('/readyz answers 503 naming Redis while Redis is down, and 200 once it is back', { timeout: TEST_TIMEOUT_MS }, async () => {
    const bases = [opsUrl(api, 'serving MCP over Streamable HTTP'), opsUrl(runner, 'runner taking jobs'), opsUrl(checker, 'checker taking jobs')];
    await (infrastructure as ClusterInfrastructure).redis.kill();
    for (const base of bases) {
      const body = await pollUntil(
        `${base}/readyz to answer 503`,
        async () => {
          const response = await fetch(`${base}/readyz`);
          return response.status === 503 ? ((await response.json()) as { status: string; checks: Record<string, string> }) : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      expect(body.status).toBe('not ready');
      expect(['failed', 'timed out']).toContain(body.checks['redis']);
      expect(body.checks['artifacts']).toBe('ok');
      // Alive all the same.
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    }
    await (infrastructure as ClusterInfrastructure).redis.restart();
    for (const base of bases) {
      await pollUntil(`${base}/readyz to answer 200 again`, async () => ((await fetch(`${base}/readyz`)).status === 200 ? true : undefined), { timeoutMs: 30_000, intervalMs: 250 });
    }
  });
});
