/**
 * The metrics SDK end to end: instruments with units, the process's resource (instance and k8s
 * identity), pushed by the OTLP/HTTP exporter to a real receiver on loopback that decodes what it
 * was sent, and the same provider rendered as Prometheus text.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createJacobianMetrics, prometheusName, type JacobianMetrics } from './metrics.js';
import { processResource, processResourceAttributes } from './resource.js';
import { createOtlpMetricReader } from './sdk.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpPoint {
  attributes?: OtlpAttribute[];
  asDouble?: number;
  asInt?: string | number;
  count?: string | number;
  sum?: number;
  bucketCounts?: (string | number)[];
  explicitBounds?: number[];
}
interface OtlpMetric {
  name: string;
  unit?: string;
  description?: string;
  sum?: { dataPoints: OtlpPoint[]; aggregationTemporality: number; isMonotonic?: boolean };
  gauge?: { dataPoints: OtlpPoint[] };
  histogram?: { dataPoints: OtlpPoint[]; aggregationTemporality: number };
}
interface ExportMetricsServiceRequest {
  resourceMetrics: { resource: { attributes: OtlpAttribute[] }; scopeMetrics: { scope: { name: string }; metrics: OtlpMetric[] }[] }[];
}

function plain(value: OtlpValue): string | number {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.doubleValue ?? NaN;
}
function attributesOf(list: OtlpAttribute[] | undefined): Record<string, string | number> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));
}

/** AggregationTemporality CUMULATIVE in opentelemetry-proto. */
const CUMULATIVE = 2;

const opened: { server?: Server; metrics: JacobianMetrics[] } = { metrics: [] };
afterEach(async () => {
  await Promise.all(opened.metrics.splice(0).map((m) => m.shutdown()));
  const server = opened.server;
  opened.server = undefined;
  if (server !== undefined) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** An OTLP/HTTP receiver on 127.0.0.1:0: it decodes each POST /v1/metrics it is sent (JSON). */
async function startReceiver(): Promise<{ url: string; received: { path: string; contentType: string; body: ExportMetricsServiceRequest }[] }> {
  const received: { path: string; contentType: string; body: ExportMetricsServiceRequest }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = request.headers['content-type'] ?? '';
      if (request.method !== 'POST' || !contentType.startsWith('application/json')) {
        response.writeHead(415).end();
        return;
      }
      received.push({ path: request.url ?? '', contentType, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportMetricsServiceRequest });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  opened.server = server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/metrics`, received };
}

/** A process's metrics as one replica has them; `url` absent: no push. */
function replica(url: string | undefined, pod: string | undefined): JacobianMetrics {
  const env = pod === undefined ? {} : { K8S_POD_NAME: pod, K8S_NAMESPACE_NAME: 'jacobian', K8S_NODE_NAME: 'node-a', K8S_POD_UID: `uid-${pod}` };
  const metrics = createJacobianMetrics({
    resource: processResource({ serviceName: 'jacobian-runner', serviceVersion: '1.2.3', env, hostName: pod ?? 'laptop' }),
    // A long interval: only forceFlush and shutdown push, so the test decides when.
    readers: url === undefined ? [] : [createOtlpMetricReader({ url, intervalMs: 3_600_000, timeoutMs: 10_000 })],
  });
  opened.metrics.push(metrics);
  return metrics;
}

describe('metrics over OTLP/HTTP', () => {
  it('pushes every instrument with its unit, cumulative, under a resource that tells replicas apart', async () => {
    const { url, received } = await startReceiver();
    const a = replica(url, 'jacobian-runner-light-7c9f-abcde');
    const b = replica(url, 'jacobian-runner-light-7c9f-fghij');
    for (const metrics of [a, b]) {
      metrics.runFinished('graph.construct.explicit', 'EXPLORE', 'COMPLETED', 0.02);
      metrics.queueWait('light', 0.4);
      metrics.jobStalled('light');
      metrics.artifactBytesWritten('s3', 512);
      metrics.checkerVerdict('rejected');
      metrics.apiRunFinished('graph.construct.explicit', 'EXPLORE', 'ERROR', 1.5);
      metrics.apiVerification('verified');
      metrics.mcpOperation({ method: 'tools/list', transport: 'tcp', seconds: 0.003 });
      metrics.providerHealth('nauty', true);
      metrics.watchQueueDepths(() => Promise.resolve([{ pool: 'light', waiting: 4, active: 1, delayed: 2 }]));
    }
    a.runFinished('graph.construct.explicit', 'EXPLORE', 'COMPLETED', 0.03);
    await Promise.all([a.forceFlush(), b.forceFlush()]);

    expect(received.length).toBe(2);
    const byInstance = new Map<string, { resource: Record<string, string | number>; metrics: Map<string, OtlpMetric> }>();
    for (const push of received) {
      expect(push.path).toBe('/v1/metrics');
      expect(push.contentType).toMatch(/^application\/json/);
      for (const resourceMetrics of push.body.resourceMetrics) {
        const resource = attributesOf(resourceMetrics.resource.attributes);
        const metrics = new Map(resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.map((m) => [m.name, m] as const)));
        byInstance.set(String(resource['service.instance.id']), { resource, metrics });
      }
    }
    // The pod name is the instance: two replicas, two series sets.
    expect([...byInstance.keys()].sort()).toEqual(['jacobian-runner-light-7c9f-abcde', 'jacobian-runner-light-7c9f-fghij']);
    const first = byInstance.get('jacobian-runner-light-7c9f-abcde');
    expect(first?.resource).toMatchObject({
      'service.name': 'jacobian-runner',
      'service.version': '1.2.3',
      'k8s.pod.name': 'jacobian-runner-light-7c9f-abcde',
      'k8s.pod.uid': 'uid-jacobian-runner-light-7c9f-abcde',
      'k8s.namespace.name': 'jacobian',
      'k8s.node.name': 'node-a',
      'host.name': 'jacobian-runner-light-7c9f-abcde',
      'telemetry.sdk.name': 'opentelemetry',
    });
    expect(typeof first?.resource['process.pid']).toBe('number');

    const expectedUnits: Record<string, string> = {
      'jacobian.run.duration': 's',
      'jacobian.runs': '{run}',
      'jacobian.queue.wait': 's',
      'jacobian.jobs.stalled': '{job}',
      'jacobian.artifact.bytes_written': 'By',
      'jacobian.checker.verifications': '{verification}',
      'jacobian.api.run.duration': 's',
      'jacobian.api.runs': '{run}',
      'jacobian.api.verifications': '{verification}',
      'mcp.server.operation.duration': 's',
      'jacobian.provider.up': '{provider}',
      'jacobian.queue.jobs': '{job}',
    };
    const metrics = first?.metrics ?? new Map<string, OtlpMetric>();
    expect(Object.fromEntries([...metrics.values()].map((m) => [m.name, m.unit]))).toEqual(expectedUnits);
    for (const metric of metrics.values()) expect(metric.description, metric.name).not.toBe('');

    const runs = metrics.get('jacobian.runs');
    expect(runs?.sum).toMatchObject({ aggregationTemporality: CUMULATIVE, isMonotonic: true });
    expect(runs?.sum?.dataPoints.map((p) => [attributesOf(p.attributes), Number(p.asInt ?? p.asDouble)])).toEqual([
      [{ capability: 'graph.construct.explicit', mode: 'EXPLORE', outcome: 'COMPLETED' }, 2],
    ]);
    const wait = metrics.get('jacobian.queue.wait')?.histogram;
    expect(wait?.aggregationTemporality).toBe(CUMULATIVE);
    const waitPoint = wait?.dataPoints[0];
    expect(attributesOf(waitPoint?.attributes)).toEqual({ pool: 'light' });
    expect(Number(waitPoint?.count)).toBe(1);
    // 0.4 s falls in (0.25, 0.5]: the fifth bound's bucket, the sixth count.
    expect(waitPoint?.explicitBounds?.slice(0, 7)).toEqual([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5]);
    expect(waitPoint?.bucketCounts?.map(Number).indexOf(1)).toBe(6);
    const depth = metrics.get('jacobian.queue.jobs')?.gauge?.dataPoints.map((p) => [attributesOf(p.attributes)['state'], Number(p.asDouble ?? p.asInt)]);
    expect(Object.fromEntries(depth ?? [])).toEqual({ waiting: 4, active: 1, delayed: 2 });
    expect(metrics.get('jacobian.provider.up')?.gauge?.dataPoints.map((p) => [attributesOf(p.attributes), Number(p.asDouble ?? p.asInt)])).toEqual([[{ provider: 'nauty' }, 1]]);
    expect(attributesOf(metrics.get('mcp.server.operation.duration')?.histogram?.dataPoints[0]?.attributes)).toEqual({ 'mcp.method.name': 'tools/list', 'network.transport': 'tcp' });

    // Shutdown pushes once more, with the cumulative values.
    a.runFinished('graph.construct.explicit', 'EXPLORE', 'COMPLETED', 0.04);
    await a.shutdown();
    const last = received.at(-1)?.body.resourceMetrics[0];
    expect(attributesOf(last?.resource.attributes)['service.instance.id']).toBe('jacobian-runner-light-7c9f-abcde');
    const lastRuns = last?.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.name === 'jacobian.runs');
    expect(Number(lastRuns?.sum?.dataPoints[0]?.asInt ?? lastRuns?.sum?.dataPoints[0]?.asDouble)).toBe(3);
  });

  it('gives a process outside Kubernetes a generated instance ID, and no k8s attributes', async () => {
    const { url, received } = await startReceiver();
    replica(url, undefined).runFinished('x.y', 'EXPLORE', 'COMPLETED', 0.1);
    replica(url, undefined).runFinished('x.y', 'EXPLORE', 'COMPLETED', 0.1);
    await Promise.all(opened.metrics.map((m) => m.forceFlush()));
    const resources = received.map((push) => attributesOf(push.body.resourceMetrics[0]?.resource.attributes));
    expect(resources).toHaveLength(2);
    const ids = resources.map((r) => String(r['service.instance.id']));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
    for (const resource of resources) expect(Object.keys(resource).filter((key) => key.startsWith('k8s.'))).toEqual([]);
  });
});

describe('the Prometheus text of the same provider', () => {
  it('names each instrument by its unit, counters with _total, and carries the resource in target_info', async () => {
    const metrics = replica(undefined, 'jacobian-api-5d8-xyz');
    metrics.apiRunFinished('graph.construct.explicit', 'VERIFY', 'COMPLETED', 0.2);
    metrics.artifactBytesWritten('local', 64);
    metrics.jobStalled('heavy');
    metrics.mcpOperation({ method: 'tools/call', tool: 'math.run', errorType: 'tool_error', transport: 'pipe', seconds: 0.01 });
    const { contentType, body } = await metrics.render();
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(body).toMatch(/^# TYPE jacobian_api_run_duration_seconds histogram$/m);
    expect(body).toMatch(/^jacobian_api_runs_total\{capability="graph\.construct\.explicit",mode="VERIFY",outcome="COMPLETED"\} 1$/m);
    expect(body).toMatch(/^jacobian_artifact_bytes_written_total\{store="local"\} 64$/m);
    expect(body).toMatch(/^jacobian_jobs_stalled_total\{pool="heavy"\} 1$/m);
    expect(body).toMatch(/^mcp_server_operation_duration_seconds_count\{mcp_method_name="tools\/call",network_transport="pipe",gen_ai_tool_name="math\.run",error_type="tool_error"\} 1$/m);
    // No scope labels on the series; the instance is in target_info, which Prometheus joins on.
    expect(body).not.toContain('otel_scope_name');
    expect(body).toMatch(/^target_info\{.*service_instance_id="jacobian-api-5d8-xyz".*\} 1$/m);
    expect(body).toMatch(/^target_info\{.*k8s_pod_name="jacobian-api-5d8-xyz".*\} 1$/m);
  });

  it('follows the compatibility rules for unit suffixes', () => {
    expect(prometheusName('jacobian.run.duration', 's', false)).toBe('jacobian_run_duration_seconds');
    expect(prometheusName('jacobian.artifact.bytes_written', 'By', false)).toBe('jacobian_artifact_bytes_written');
    expect(prometheusName('v8js.memory.heap.used', 'By', true)).toBe('v8js_memory_heap_used_bytes');
    expect(prometheusName('jacobian.runs', '{run}', false)).toBe('jacobian_runs');
    expect(prometheusName('nodejs.eventloop.utilization', '1', true)).toBe('nodejs_eventloop_utilization_ratio');
    expect(prometheusName('a.b', '1', false)).toBe('a_b');
  });
});

describe('the process resource', () => {
  it('takes OTEL_RESOURCE_ATTRIBUTES over what it knows, and OTEL_SERVICE_NAME over both', () => {
    const attributes = processResourceAttributes({
      serviceName: 'jacobian-api',
      serviceVersion: '1',
      hostName: 'h',
      env: { K8S_POD_NAME: 'pod-1', OTEL_RESOURCE_ATTRIBUTES: 'service.namespace=jacobian,service.instance.id=chosen,host.name=other', OTEL_SERVICE_NAME: 'edge-api' },
    });
    expect(attributes).toMatchObject({ 'service.name': 'edge-api', 'service.namespace': 'jacobian', 'service.instance.id': 'chosen', 'host.name': 'other', 'k8s.pod.name': 'pod-1' });
    expect(processResourceAttributes({ serviceName: 'jacobian-api', serviceVersion: '1', env: { K8S_POD_NAME: ' ' }, newInstanceId: () => 'fresh' })).toMatchObject({
      'service.name': 'jacobian-api',
      'service.instance.id': 'fresh',
    });
  });
});
