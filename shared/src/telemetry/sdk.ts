/**
 * The OpenTelemetry exporters of a process, started only when an OTLP endpoint is configured
 * (see the entry point's telemetry settings). Kept out of the package's main entry (exported as
 * `@jacobian/shared/telemetry-sdk`), so a process that exports nothing never loads them.
 *
 * Configured by the standard environment, read by the SDK itself: the OTLP/HTTP endpoint and
 * headers (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
 * OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, ..._HEADERS, ..._TIMEOUT), the sampler
 * (OTEL_TRACES_SAMPLER, default parentbased_always_on, and OTEL_TRACES_SAMPLER_ARG) and the batch
 * processor (OTEL_BSP_*). The resource is the process's (see resource.ts). The exporters of this
 * line always send OTLP/HTTP JSON.
 */
import { diag, DiagLogLevel, type Tracer } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { Resource } from '@opentelemetry/resources';
import { PeriodicExportingMetricReader, type MetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export interface TracingOptions {
  /** The process's resource (see processResource). */
  resource: Resource;
  serviceVersion: string;
}

export interface RunningTracing {
  readonly tracer: Tracer;
  /** Export what is buffered, then stop; idempotent. */
  shutdown(): Promise<void>;
}

/**
 * Start the SDK: a tracer provider exporting in batches over OTLP/HTTP, registered as the
 * process's provider with the AsyncLocalStorage context manager and the W3C propagator.
 */
export function startTracing(options: TracingOptions): RunningTracing {
  const provider = new NodeTracerProvider({ resource: options.resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  provider.register();
  let stopping: Promise<void> | undefined;
  return {
    tracer: provider.getTracer('jacobian', options.serviceVersion),
    shutdown() {
      stopping ??= provider.shutdown();
      return stopping;
    },
  };
}

/**
 * Send the SDK's own warnings and errors (an export that failed, a bad OTEL_* value) to
 * `report`, one line each; without it they are dropped. Returns the function that stops it.
 */
export function reportDiagnostics(report: (message: string) => void): () => void {
  const forward = (message: string, ...args: unknown[]): void => report([message, ...args.map((arg) => (arg instanceof Error ? arg.message : String(arg)))].join(' ').slice(0, 500));
  const ignore = (): void => undefined;
  diag.setLogger({ error: forward, warn: forward, info: ignore, debug: ignore, verbose: ignore }, DiagLogLevel.WARN);
  return () => diag.disable();
}

export interface OtlpMetricReaderOptions {
  /** The full metrics URL, e.g. `http://collector:4318/v1/metrics`. */
  url: string;
  /** Time between pushes (OTEL_METRIC_EXPORT_INTERVAL; default 60 000 ms). */
  intervalMs: number;
  /** Longest a push may take (OTEL_METRIC_EXPORT_TIMEOUT; default 30 000 ms). */
  timeoutMs: number;
}

/**
 * A reader that pushes the metrics of the provider it is given to (see createJacobianMetrics)
 * every `intervalMs` over OTLP/HTTP JSON, cumulative, and once more at shutdown. A failed push
 * is reported through the SDK's diagnostics (see {@link reportDiagnostics}); the next one sends the cumulative values again.
 */
export function createOtlpMetricReader(options: OtlpMetricReaderOptions): MetricReader {
  // The push must end before the next one starts.
  const timeoutMs = Math.min(options.timeoutMs, options.intervalMs);
  return new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter({ url: options.url, timeoutMillis: timeoutMs }),
    exportIntervalMillis: options.intervalMs,
    exportTimeoutMillis: timeoutMs,
  });
}
