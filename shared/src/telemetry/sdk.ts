/**
 * The OpenTelemetry SDK of a process, started only when tracing is configured (see the entry
 * point's telemetry settings). Kept out of the package's main entry (exported as
 * `@jacobian/shared/telemetry-sdk`), so a process with tracing off never loads it.
 *
 * Configured by the standard environment, read by the SDK itself: the OTLP/HTTP endpoint and
 * headers (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, ..._HEADERS,
 * ..._TIMEOUT), the sampler (OTEL_TRACES_SAMPLER, default parentbased_always_on, and
 * OTEL_TRACES_SAMPLER_ARG), the resource (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) and the
 * batch processor (OTEL_BSP_*). The exporter of this line always sends OTLP/HTTP JSON.
 */
import { diag, DiagLogLevel, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

export interface TracingOptions {
  /** The service name unless OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) sets one. */
  serviceName: string;
  serviceVersion: string;
  /** The SDK's own warnings and errors (an export that failed, a bad OTEL_* value). Default: dropped. */
  onDiagnostic?: (message: string) => void;
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
  const report = options.onDiagnostic;
  if (report !== undefined) {
    const forward = (message: string, ...args: unknown[]): void => report([message, ...args.map((arg) => (arg instanceof Error ? arg.message : String(arg)))].join(' ').slice(0, 500));
    const ignore = (): void => undefined;
    diag.setLogger({ error: forward, warn: forward, info: ignore, debug: ignore, verbose: ignore }, DiagLogLevel.WARN);
  }
  // Later resources win: the environment's service name over the role's default.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName, [ATTR_SERVICE_VERSION]: options.serviceVersion }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  provider.register();
  let stopping: Promise<void> | undefined;
  return {
    tracer: provider.getTracer('jacobian', options.serviceVersion),
    shutdown() {
      stopping ??= provider.shutdown().finally(() => diag.disable());
      return stopping;
    },
  };
}
