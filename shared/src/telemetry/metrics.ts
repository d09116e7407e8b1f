/**
 * This process's metrics. The OpenTelemetry metrics SDK is the one source: every instrument
 * lives on one MeterProvider, which `GET /metrics` reads (Prometheus text) and, when configured,
 * a periodic OTLP reader pushes (see the entry point). Each process has its own provider (no
 * global one), so tests can hold several.
 *
 * Instruments carry OpenTelemetry names and units (`jacobian.run.duration`, `s`); the Prometheus
 * text names them as the OpenTelemetry-to-Prometheus compatibility rules do (unit suffix, `_total`
 * on counters: `jacobian_run_duration_seconds`, `jacobian_runs_total`), which is also what a
 * collector's Prometheus exporter makes of the OTLP push, so one query works on either path.
 *
 * Every attribute has a bounded set of values: capability IDs (the installed catalog), modes,
 * execution statuses, pool names (configuration), provider names, MCP method and tool names.
 * Never job IDs or tenants.
 */
import type { Attributes, Meter } from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { RuntimeNodeInstrumentation } from '@opentelemetry/instrumentation-runtime-node';
import type { Resource } from '@opentelemetry/resources';
import { DataPointType, MeterProvider, type MetricData, type MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';

/** Waiting, active and delayed jobs of one pool's queue, read at scrape time. */
export interface QueueDepth {
  /** The pool (`light`, `heavy`, ...) or `checker`. */
  pool: string;
  waiting: number;
  active: number;
  delayed: number;
}

/** A verdict of the checker role on a VERIFY run: VERIFIED, completed without VERIFIED, or not completed. */
export type CheckerVerdict = 'accepted' | 'rejected' | 'error';

/** One MCP request the API answered (see `mcp.server.operation.duration` in the MCP conventions). */
export interface McpOperation {
  method: string;
  /** The tool of a tools/call. */
  tool?: string;
  /** The prompt of a prompts/get. */
  prompt?: string;
  /** The JSON-RPC error code, or `tool_error` for a tool result with isError; absent on success. */
  errorType?: string;
  /** `pipe` (stdio) or `tcp` (HTTP). */
  transport: 'pipe' | 'tcp';
  seconds: number;
}

export interface JacobianMetrics {
  /** A run this process executed (runner, checker, embedded): its latency and count. */
  runFinished(capability: string, mode: string, outcome: string, seconds: number): void;
  /** A job's time from creation to its first start, per pool. */
  queueWait(pool: string, seconds: number): void;
  /** A job BullMQ found stalled (its worker stopped renewing the lock) and moved back to wait or failed. */
  jobStalled(pool: string): void;
  /** Bytes of canonical payload and manifest stored by a successful artifact put. */
  artifactBytesWritten(store: 's3' | 'local', bytes: number): void;
  /** The checker role's verdict on a run it executed. */
  checkerVerdict(verdict: CheckerVerdict): void;
  /** A math.run the API admitted and answered: its latency and count, end to end. */
  apiRunFinished(capability: string, mode: string, outcome: string, seconds: number): void;
  /** The API's check of a VERIFIED result's signed record. */
  apiVerification(verdict: 'verified' | 'not_verified'): void;
  /** An MCP request the API answered. */
  mcpOperation(operation: McpOperation): void;
  /** The start-up probe's verdict on a provider (1 healthy, 0 not). */
  providerHealth(provider: string, up: boolean): void;
  /**
   * Read queue depths at every collection (scrape or push); after a failed read the depths last
   * read are reported again (the SDK keeps an asynchronous gauge's last value per series).
   */
  watchQueueDepths(read: () => Promise<readonly QueueDepth[]>): void;
  /** The exposition: Prometheus text and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
  /** Push what the push readers hold now (tests, and before exit). */
  forceFlush(): Promise<void>;
  /** Stop the runtime collectors and every reader after a last push; idempotent. */
  shutdown(): Promise<void>;
}

export interface JacobianMetricsOptions {
  /** The process's resource (service, instance, k8s); the SDK's default resource when absent. */
  resource?: Resource;
  /** Further readers on the same provider, e.g. a PeriodicExportingMetricReader with an OTLP exporter. */
  readers?: MetricReader[];
  /** Node's runtime metrics (event loop delay, heap, GC) and the process's CPU and memory; default false. */
  runtime?: boolean;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];

/** The Prometheus text format this exposition follows. */
const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * The unit words the OpenTelemetry-to-Prometheus compatibility rules append to a name (UCUM to
 * Prometheus base units). Units in braces (`{run}`) are annotations and add nothing.
 */
const UNIT_WORDS: Readonly<Record<string, string>> = { s: 'seconds', ms: 'milliseconds', By: 'bytes', KiBy: 'kibibytes', MiBy: 'mebibytes', '%': 'percent' };

/**
 * The Prometheus name of an OpenTelemetry metric: `.` and other invalid characters become `_`,
 * the unit word is appended unless the name already has it as a word, a gauge of unit `1` gets
 * `_ratio`. (`_total` on counters is the serializer's.)
 */
export function prometheusName(name: string, unit: string, gauge: boolean): string {
  const base = name.replace(/[^a-zA-Z0-9_:]/g, '_').replace(/_{2,}/g, '_');
  const words = base.split('_');
  const word = unit === '1' ? (gauge ? 'ratio' : undefined) : UNIT_WORDS[unit];
  return word === undefined || words.includes(word) ? base : `${base}_${word}`;
}

/** A gauge in Prometheus terms: an OpenTelemetry gauge or a non-monotonic sum. */
function isGauge(metric: MetricData): boolean {
  return metric.dataPointType === DataPointType.GAUGE || (metric.dataPointType === DataPointType.SUM && !metric.isMonotonic);
}

function withPrometheusNames(collected: ResourceMetrics): ResourceMetrics {
  return {
    resource: collected.resource,
    scopeMetrics: collected.scopeMetrics.map((scope) => ({
      scope: scope.scope,
      metrics: scope.metrics.map(
        (metric): MetricData => ({
          ...metric,
          descriptor: { ...metric.descriptor, name: prometheusName(metric.descriptor.name, metric.descriptor.unit, isGauge(metric)) },
        }),
      ),
    })),
  };
}

/**
 * The process's CPU time and resident memory under their semantic-convention names
 * (`process.cpu.time`, `process.memory.usage`); the runtime instrumentation has the rest.
 */
function observeProcess(meter: Meter): void {
  meter.createObservableCounter('process.cpu.time', { description: 'CPU time this process used, by mode', unit: 's' }).addCallback((result) => {
    const usage = process.cpuUsage();
    result.observe(usage.user / 1e6, { 'cpu.mode': 'user' });
    result.observe(usage.system / 1e6, { 'cpu.mode': 'system' });
  });
  meter.createObservableUpDownCounter('process.memory.usage', { description: 'Resident memory of this process', unit: 'By' }).addCallback((result) => {
    result.observe(process.memoryUsage.rss());
  });
}

/** Create the metrics of one process, on a MeterProvider of its own. */
export function createJacobianMetrics(options: JacobianMetricsOptions = {}): JacobianMetrics {
  // The pull side: a reader only, its HTTP server never started (the ops routes serve /metrics).
  const pull = new PrometheusExporter({ preventServerStart: true });
  // No otel_scope_* labels on every series: one scope, and series names stay as operators know them.
  const serializer = new PrometheusSerializer(undefined, false, undefined, false, true);
  const provider = new MeterProvider({ ...(options.resource === undefined ? {} : { resource: options.resource }), readers: [pull, ...(options.readers ?? [])] });
  const meter = provider.getMeter('jacobian');
  let runtime: RuntimeNodeInstrumentation | undefined;
  if (options.runtime === true) {
    runtime = new RuntimeNodeInstrumentation({ enabled: false, monitoringPrecision: 10 });
    runtime.setMeterProvider(provider);
    runtime.enable();
    observeProcess(meter);
  }

  /** A run-latency histogram (by capability and outcome) and a run counter (also by mode), recorded together. */
  const runRecorder = (prefix: string, help: { duration: string; count: string }): JacobianMetrics['runFinished'] => {
    const duration = meter.createHistogram(`${prefix}.run.duration`, { description: help.duration, unit: 's', advice: { explicitBucketBoundaries: LATENCY_BUCKETS } });
    const count = meter.createCounter(`${prefix}.runs`, { description: help.count, unit: '{run}' });
    return (capability, mode, outcome, seconds) => {
      duration.record(Math.max(0, seconds), { capability, outcome });
      count.add(1, { capability, mode, outcome });
    };
  };
  const runFinished = runRecorder('jacobian', {
    duration: 'Runtime of runs this process executed, by capability and execution status',
    count: 'Runs this process executed, by capability, mode and execution status',
  });
  const apiRunFinished = runRecorder('jacobian.api', {
    duration: 'End-to-end latency of admitted math.run calls at the API, by capability and execution status',
    count: 'Admitted math.run calls the API answered, by capability, mode and execution status',
  });
  const queueWait = meter.createHistogram('jacobian.queue.wait', {
    description: 'Time from a job being queued to its first start, by pool',
    unit: 's',
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
  });
  const stalled = meter.createCounter('jacobian.jobs.stalled', {
    description: 'Jobs found stalled (their runner stopped renewing the lock) and moved back to wait or failed, by pool',
    unit: '{job}',
  });
  // The name keeps "bytes" as a word, so the unit adds no second one: jacobian_artifact_bytes_written_total.
  const artifactBytes = meter.createCounter('jacobian.artifact.bytes_written', {
    description: 'Bytes of canonical payloads and manifests stored by successful artifact puts (a repeated put of a stored artifact counts again)',
    unit: 'By',
  });
  const checkerVerdicts = meter.createCounter('jacobian.checker.verifications', {
    description: 'VERIFY runs the checker executed: accepted (VERIFIED), rejected (completed without VERIFIED) or error (not completed)',
    unit: '{verification}',
  });
  const apiVerifications = meter.createCounter('jacobian.api.verifications', {
    description: "The API's checks of VERIFIED results' signed records: verified or not_verified",
    unit: '{verification}',
  });
  const mcpDuration = meter.createHistogram('mcp.server.operation.duration', {
    description: 'MCP requests the API answered, from receipt to the response, by method, tool or prompt, and error type',
    unit: 's',
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
  });
  const providerUp = meter.createGauge('jacobian.provider.up', { description: 'Start-up probe of each provider: 1 healthy, 0 unavailable', unit: '{provider}' });
  const depthReaders: (() => Promise<readonly QueueDepth[]>)[] = [];
  meter
    .createObservableGauge('jacobian.queue.jobs', {
      description: 'Jobs in each pool queue by state (waiting, active, delayed), read from Redis at collection time',
      unit: '{job}',
    })
    .addCallback(async (result) => {
      for (const read of depthReaders) {
        let depths: readonly QueueDepth[];
        try {
          depths = await read();
        } catch {
          // Redis unreachable: no depth this collection (readiness reports the outage).
          continue;
        }
        for (const depth of depths) {
          result.observe(depth.waiting, { pool: depth.pool, state: 'waiting' });
          result.observe(depth.active, { pool: depth.pool, state: 'active' });
          result.observe(depth.delayed, { pool: depth.pool, state: 'delayed' });
        }
      }
    });

  let stopping: Promise<void> | undefined;
  return {
    runFinished,
    apiRunFinished,
    queueWait(pool, seconds) {
      queueWait.record(Math.max(0, seconds), { pool });
    },
    jobStalled(pool) {
      stalled.add(1, { pool });
    },
    artifactBytesWritten(store, bytes) {
      artifactBytes.add(bytes, { store });
    },
    checkerVerdict(verdict) {
      checkerVerdicts.add(1, { outcome: verdict });
    },
    apiVerification(verdict) {
      apiVerifications.add(1, { outcome: verdict });
    },
    mcpOperation(operation) {
      const attributes: Attributes = { 'mcp.method.name': operation.method, 'network.transport': operation.transport };
      if (operation.tool !== undefined) attributes['gen_ai.tool.name'] = operation.tool;
      if (operation.prompt !== undefined) attributes['gen_ai.prompt.name'] = operation.prompt;
      if (operation.errorType !== undefined) attributes['error.type'] = operation.errorType;
      mcpDuration.record(Math.max(0, operation.seconds), attributes);
    },
    providerHealth(provider, up) {
      providerUp.record(up ? 1 : 0, { provider });
    },
    watchQueueDepths(read) {
      depthReaders.push(read);
    },
    async render() {
      const { resourceMetrics } = await pull.collect();
      return { contentType: PROMETHEUS_CONTENT_TYPE, body: serializer.serialize(withPrometheusNames(resourceMetrics)) };
    },
    forceFlush() {
      return provider.forceFlush();
    },
    shutdown() {
      stopping ??= (async () => {
        runtime?.disable();
        await provider.shutdown();
      })();
      return stopping;
    },
  };
}
