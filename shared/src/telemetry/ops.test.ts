import { Writable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { memoryTracing } from '../testing/memory-tracing.js';
import { createJsonLogger } from './logger.js';
import { createJacobianMetrics } from './metrics.js';
import { answerOps, createReadiness } from './ops.js';

describe('metrics', () => {
  it('renders run latency, counts and provider health with bounded labels', async () => {
    const metrics = createJacobianMetrics();
    metrics.runFinished('graph.colouring.find', 'EXPLORE', 'COMPLETED', 0.02);
    metrics.runFinished('graph.colouring.find', 'EXPLORE', 'COMPLETED', 0.2);
    metrics.providerHealth('nauty', false);
    metrics.providerHealth('jacobian-graph-ts', true);
    metrics.artifactBytesWritten('s3', 120);
    metrics.checkerVerdict('rejected');
    const { contentType, body } = await metrics.render();
    expect(contentType).toMatch(/^text\/plain/);
    expect(body).toContain('jacobian_run_duration_seconds_bucket{capability="graph.colouring.find",outcome="COMPLETED",le="0.025"} 1');
    expect(body).toContain('jacobian_run_duration_seconds_bucket{capability="graph.colouring.find",outcome="COMPLETED",le="+Inf"} 2');
    expect(body).toContain('jacobian_run_duration_seconds_count{capability="graph.colouring.find",outcome="COMPLETED"} 2');
    expect(body).toContain('jacobian_runs_total{capability="graph.colouring.find",mode="EXPLORE",outcome="COMPLETED"} 2');
    expect(body).toContain('jacobian_provider_up{provider="nauty"} 0');
    expect(body).toContain('jacobian_provider_up{provider="jacobian-graph-ts"} 1');
    expect(body).toContain('jacobian_artifact_bytes_written_total{store="s3"} 120');
    expect(body).toContain('jacobian_checker_verifications_total{outcome="rejected"} 1');
  });

  it('reads queue depths at scrape time, and keeps the last depths read when a read fails', async () => {
    const metrics = createJacobianMetrics();
    let depth = 3;
    let failing = false;
    metrics.watchQueueDepths(() => (failing ? Promise.reject(new Error('redis down')) : Promise.resolve([{ pool: 'light', waiting: depth, active: 1, delayed: 0 }])));
    expect((await metrics.render()).body).toContain('jacobian_queue_jobs{pool="light",state="waiting"} 3');
    depth = 5;
    expect((await metrics.render()).body).toContain('jacobian_queue_jobs{pool="light",state="waiting"} 5');
    failing = true;
    depth = 9;
    expect((await metrics.render()).body).toContain('jacobian_queue_jobs{pool="light",state="waiting"} 5');
  });
});

describe('readiness and the operations routes', () => {
  it('is ready only when every named check passes, and names the ones that do not', async () => {
    const readiness = createReadiness(['redis', 'artifacts', 'providers']);
    const ops = { readiness };
    expect(await readiness.report()).toEqual({ ready: false, checks: { redis: 'pending', artifacts: 'pending', providers: 'pending' } });
    readiness.provide('redis', () => Promise.resolve('PONG'));
    readiness.provide('artifacts', () => Promise.reject(new Error('secret-bearing message')));
    readiness.provide('providers', () => Promise.resolve());
    const notReady = await answerOps(ops, '/readyz');
    expect(notReady?.status).toBe(503);
    expect(JSON.parse(notReady?.body ?? '')).toEqual({ status: 'not ready', checks: { redis: 'ok', artifacts: 'failed', providers: 'ok' } });
    expect(notReady?.body).not.toContain('secret-bearing');
    readiness.provide('artifacts', () => Promise.resolve(false));
    const ready = await answerOps(ops, '/readyz');
    expect(ready?.status).toBe(200);
    expect(JSON.parse(ready?.body ?? '')).toMatchObject({ status: 'ready' });
  });

  it('counts a check that does not answer as timed out', async () => {
    const readiness = createReadiness(['redis']);
    readiness.provide('redis', () => new Promise(() => undefined));
    expect(await readiness.report()).toEqual({ ready: false, checks: { redis: 'timed out' } });
  });

  it('answers /healthz, /metrics, and nothing else', async () => {
    const ops = { readiness: createReadiness([]), metrics: createJacobianMetrics() };
    ops.metrics.runFinished('graph.colouring.find', 'EXPLORE', 'ERROR', 0.1);
    expect(await answerOps(ops, '/healthz')).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect((await answerOps(ops, '/metrics'))?.body).toContain('# TYPE jacobian_runs_total counter');
    expect((await answerOps({ readiness: createReadiness([]) }, '/metrics'))?.status).toBe(404);
    expect(await answerOps(ops, '/mcp')).toBeUndefined();
  });
});

describe('log lines', () => {
  function capture(): { lines: () => Record<string, unknown>[]; stream: Writable } {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString('utf8'));
        done();
      },
    });
    return { stream, lines: () => chunks.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>) };
  }

  it('are JSON with time, level as text and msg, and honour the level', () => {
    const { stream, lines } = capture();
    const log = createJsonLogger('info', stream);
    log.debug('hidden');
    log.info({ job_id: 'run-1', capabilities: 3 }, 'run finished');
    expect(lines()).toEqual([{ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown, level: 'info', msg: 'run finished', job_id: 'run-1', capabilities: 3 }]);
  });

  it('carry the active span\'s trace_id and span_id while tracing is on', async () => {
    const telemetry = memoryTracing();
    try {
      const { stream, lines } = capture();
      const log = createJsonLogger('info', stream);
      log.info('outside');
      const ids = telemetry.tracer.startActiveSpan('work', (span) => {
        log.info('inside');
        span.end();
        return span.spanContext();
      });
      const [outside, inside] = lines();
      expect(outside).not.toHaveProperty('trace_id');
      expect(inside).toMatchObject({ msg: 'inside', trace_id: ids.traceId, span_id: ids.spanId });
    } finally {
      await telemetry.close();
    }
  });
});
