import { randomBytes } from 'node:crypto';

import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { admitRequest, type AdmittedRun } from '../capabilities/host.js';
import { CapabilityRequestSchema } from '../contracts/capability.js';
import { createBullmqRunQueue } from '../queue/bullmq-run-queue.js';
import { createBullmqRunWorker } from '../queue/bullmq-run-worker.js';
import { completedRunResult } from '../queue/fixtures/results.js';
import { defaultRunQueueName, parseRunJobData } from '../queue/job-data.js';
import type { RunHandler, RunTarget } from '../queue/run-queue.js';
import { memoryTracing } from '../testing/memory-tracing.js';
import { startRedisServer, type RedisServer } from '../testing/redis-server.js';
import { SpanAttribute } from './instrumentation.js';
import { extractTraceContext, injectTraceContext } from './trace-context.js';

const POOL: RunTarget = { kind: 'pool', pool: 'light' };
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;


describe('trace context in job data', () => {
  it('carries a span context through inject and extract', () => {
    const spanContext = { traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex'), traceFlags: 1 };
    const carrier = injectTraceContext(trace.setSpanContext(ROOT_CONTEXT, spanContext));
    expect(carrier['traceparent']).toBe(`00-${spanContext.traceId}-${spanContext.spanId}-01`);
    const extracted = trace.getSpanContext(extractTraceContext(carrier));
    expect(extracted).toMatchObject({ ...spanContext, isRemote: true });
  });

  it('injects nothing without a span, and extracts a root context from an empty or malformed carrier', () => {
    expect(injectTraceContext(ROOT_CONTEXT)).toEqual({});
    expect(trace.getSpanContext(extractTraceContext({}))).toBeUndefined();
    expect(trace.getSpanContext(extractTraceContext({ traceparent: 'not-a-traceparent' }))).toBeUndefined();
  });
});

describe('trace context through the BullMQ run queue', () => {
  let redis: RedisServer;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis.stop();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function admitted(): AdmittedRun {
    return admitRequest(CapabilityRequestSchema.parse({ capability_id: 'test.op', payload: { secret: `payload-${randomBytes(6).toString('hex')}` } }));
  }

  /** A queue and a worker on a fresh prefix; the worker's handler records the span context it runs in. */
  interface Harness {
    submit: (run: AdmittedRun) => Promise<unknown>;
    stored: (run: AdmittedRun) => Promise<unknown>;
    seen: (string | undefined)[];
  }

  async function queueAndWorker(): Promise<Harness> {
    const prefix = `t-${randomBytes(6).toString('hex')}`;
    const seen: (string | undefined)[] = [];
    const handler: RunHandler = (run) => {
      seen.push(trace.getActiveSpan()?.spanContext().traceId);
      return Promise.resolve(completedRunResult(run, { ok: true }));
    };
    const queue = createBullmqRunQueue({ connection: { url: redis.url }, prefix });
    const worker = createBullmqRunWorker({ connection: { url: redis.url }, prefix, targets: [POOL], handler, concurrency: 1 });
    const inspect = new Queue(defaultRunQueueName(POOL), { connection: { url: redis.url }, prefix });
    cleanups.push(() => queue.close(), () => worker.close({ graceMs: 0 }), () => inspect.close());
    await worker.waitUntilReady();
    return {
      submit: (run) => queue.submit(run, POOL),
      stored: async (run) => ((await inspect.getJob(run.job_id)) as { data: unknown } | undefined)?.data,
      seen,
    };
  }

  it('adds no trace fields to job data when tracing is off', async () => {
    const { submit, stored, seen } = await queueAndWorker();
    const run = admitted();
    await submit(run);
    const data = parseRunJobData(await stored(run));
    expect(data.trace).toEqual({});
    expect(JSON.stringify(await stored(run))).not.toContain('traceparent');
    expect(seen).toEqual([undefined]);
  });

  it('writes the producer span into the job, and the consumer continues its trace', async () => {
    const telemetry = memoryTracing();
    cleanups.push(() => telemetry.close());
    const { submit, stored, seen } = await queueAndWorker();
    const run = admitted();
    await telemetry.tracer.startActiveSpan('request', async (request) => {
      await submit(run);
      request.end();
    });
    const data = parseRunJobData(await stored(run));
    const [, traceId, producerSpanId] = TRACEPARENT.exec(data.trace['traceparent'] ?? '') ?? [];
    const spans = telemetry.exporter.getFinishedSpans();
    const byName = (name: string): ReadableSpan => {
      const span = spans.find((s) => s.name === name);
      if (span === undefined) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`);
      return span;
    };
    const request = byName('request');
    const producer = byName(`publish ${defaultRunQueueName(POOL)}`);
    const consumer = byName(`process ${defaultRunQueueName(POOL)}`);
    expect(traceId).toBe(request.spanContext().traceId);
    expect(producerSpanId).toBe(producer.spanContext().spanId);
    expect(producer.kind).toBe(SpanKind.PRODUCER);
    expect(producer.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(consumer.kind).toBe(SpanKind.CONSUMER);
    expect(consumer.spanContext().traceId).toBe(traceId);
    expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
    expect(seen).toEqual([traceId]);
    expect(consumer.attributes).toMatchObject({
      [SpanAttribute.capability]: 'test.op',
      [SpanAttribute.mode]: 'EXPLORE',
      [SpanAttribute.pool]: 'light',
      [SpanAttribute.jobId]: run.job_id,
      [SpanAttribute.outcome]: 'COMPLETED',
    });
    // OTel's messaging conventions on both ends, naming the queue and the job.
    const messaging = (operation: string) => ({
      [SpanAttribute.jobId]: run.job_id,
      [SpanAttribute.pool]: 'light',
      'messaging.system': 'bullmq',
      'messaging.operation.type': operation,
      'messaging.destination.name': defaultRunQueueName(POOL),
      'messaging.message.id': run.job_id,
    });
    expect(producer.attributes).toMatchObject(messaging('send'));
    expect(consumer.attributes).toMatchObject({ ...messaging('process'), 'jacobian.job.attempt': 1 });
    const secret = String(run.payload['secret']);
    for (const span of spans) expect(JSON.stringify(span.attributes)).not.toContain(secret);
  });
});
