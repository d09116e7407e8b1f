import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createJacobianMetrics } from './metrics.js';
import { startOtlpMetricsExport, toOtlpMetrics, type OtlpMetric, type OtlpMetricsRequest } from './otlp-metrics.js';

const RESOURCE = { 'service.name': 'jacobian-test' };
const SCOPE = { name: 'jacobian', version: '0.0.0' };

function metricsOf(request: OtlpMetricsRequest): Map<string, OtlpMetric> {
  return new Map((request.resourceMetrics[0]?.scopeMetrics[0]?.metrics ?? []).map((m) => [m.name, m]));
}

describe('toOtlpMetrics', () => {
  it('turns counters into cumulative monotonic sums, gauges into gauges and cumulative le buckets into per-bucket counts', async () => {
    const registry = new Registry();
    const runs = new Counter({ name: 'runs_total', help: 'runs', labelNames: ['outcome'], registers: [registry] });
    const depth = new Gauge({ name: 'depth', help: 'depth', labelNames: ['pool'], registers: [registry] });
    const latency = new Histogram({ name: 'latency_seconds', help: 'latency', labelNames: ['capability'], buckets: [1, 5], registers: [registry] });
    runs.inc({ outcome: 'COMPLETED' }, 3);
    runs.inc({ outcome: 'ERROR' });
    depth.set({ pool: 'light' }, 7);
    for (const seconds of [0.5, 3, 7, 0.2]) latency.observe({ capability: 'a' }, seconds);
    latency.observe({ capability: 'b' }, 2);

    const request = toOtlpMetrics(await registry.getMetricsAsJSON(), { resource: RESOURCE, scope: SCOPE, startTimeMs: 1000, nowMs: 2000 });
    expect(request.resourceMetrics[0]?.resource.attributes).toEqual([{ key: 'service.name', value: { stringValue: 'jacobian-test' } }]);
    const metrics = metricsOf(request);

    const sum = metrics.get('runs_total');
    expect(sum && 'sum' in sum ? sum.sum : null).toMatchObject({ aggregationTemporality: 2, isMonotonic: true });
    const points = sum && 'sum' in sum ? sum.sum.dataPoints : [];
    expect(points.map((p) => [p.attributes[0]?.value.stringValue, p.asDouble]).sort()).toEqual([['COMPLETED', 3], ['ERROR', 1]]);
    expect(points[0]).toMatchObject({ startTimeUnixNano: '1000000000', timeUnixNano: '2000000000' });

    const gauge = metrics.get('depth');
    expect(gauge && 'gauge' in gauge ? gauge.gauge.dataPoints.map((p) => [p.attributes, p.asDouble]) : null).toEqual([[[{ key: 'pool', value: { stringValue: 'light' } }], 7]]);

    const histogram = metrics.get('latency_seconds');
    const series = histogram && 'histogram' in histogram ? histogram.histogram.dataPoints : [];
    const a = series.find((p) => p.attributes.some((x) => x.value.stringValue === 'a'));
    const b = series.find((p) => p.attributes.some((x) => x.value.stringValue === 'b'));
    // 0.5 and 0.2 in (-inf, 1], 3 in (1, 5], 7 above 5; `le` is not an attribute.
    expect(a).toMatchObject({ count: '4', sum: 10.7, explicitBounds: [1, 5], bucketCounts: ['2', '1', '1'], attributes: [{ key: 'capability', value: { stringValue: 'a' } }] });
    expect(b).toMatchObject({ count: '1', sum: 2, bucketCounts: ['0', '1', '0'] });
    expect(series).toHaveLength(2);
  });
});

describe('startOtlpMetricsExport', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function receiver(): Promise<{ url: string; received: { path: string; type: string; header: string; body: OtlpMetricsRequest }[] }> {
    const received: { path: string; type: string; header: string; body: OtlpMetricsRequest }[] = [];
    server = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          path: request.url ?? '',
          type: request.headers['content-type'] ?? '',
          header: String(request.headers['x-tenant'] ?? ''),
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpMetricsRequest,
        });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server?.address() as AddressInfo).port}/v1/metrics`, received };
  }

  it("pushes Jacobian's metrics as OTLP JSON on each interval and once more at shutdown", async () => {
    const { url, received } = await receiver();
    const metrics = createJacobianMetrics();
    metrics.runFinished('graph.construct.explicit', 'EXPLORE', 'COMPLETED', 0.01);
    const running = startOtlpMetricsExport({ registry: metrics.registry, url, intervalMs: 50, timeoutMs: 5000, headers: { 'x-tenant': 'ops' }, resource: RESOURCE, scope: SCOPE });
    for (let i = 0; i < 100 && received.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.length).toBeGreaterThanOrEqual(2);
    metrics.runFinished('graph.construct.explicit', 'EXPLORE', 'COMPLETED', 0.02);
    const before = received.length;
    await running.shutdown();
    expect(received.length).toBe(before + 1);
    const last = received.at(-1);
    expect(last).toMatchObject({ path: '/v1/metrics', type: 'application/json', header: 'ops' });
    const runs = metricsOf(last?.body as OtlpMetricsRequest).get('jacobian_runs_total');
    const point = runs && 'sum' in runs ? runs.sum.dataPoints[0] : undefined;
    // Cumulative: the second run is counted with the first.
    expect(point?.asDouble).toBe(2);
    expect(point?.attributes).toEqual(
      expect.arrayContaining([
        { key: 'capability', value: { stringValue: 'graph.construct.explicit' } },
        { key: 'outcome', value: { stringValue: 'COMPLETED' } },
      ]),
    );
    // No exports after shutdown.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(received.length).toBe(before + 1);
  });

  it('reports a failed export and keeps going', async () => {
    const errors: string[] = [];
    const running = startOtlpMetricsExport({
      registry: createJacobianMetrics().registry,
      url: 'http://127.0.0.1:9/v1/metrics',
      intervalMs: 60_000,
      timeoutMs: 2000,
      resource: RESOURCE,
      scope: SCOPE,
      onError: (message) => errors.push(message),
    });
    await running.flush();
    await running.shutdown();
    expect(errors.length).toBe(2);
    expect(errors[0]).toMatch(/^OTLP metrics export to http:\/\/127\.0\.0\.1:9\/v1\/metrics failed/);
  });
});
