import { createJacobianMetrics, installTelemetry, processResource, type JacobianMetrics, type MetricReader } from '@jacobian/shared';
import type { RunningTracing } from '@jacobian/shared/telemetry-sdk';
import type { InstalledCapability } from '@jacobian/shared';
import { providerSkipped, type Logger } from './log.js';


/** What the process's entry point started: metrics always (pushed over OTLP when configured), tracing when configured. */
export interface ProcessTelemetry {
  readonly metrics: JacobianMetrics;
  /** Whether spans are exported (OTLP/HTTP). */
  readonly tracing: boolean;
  /** Export the spans still buffered, stop the SDK, and uninstall; idempotent. */
  close(): Promise<void>;
}

/** An OTel environment setting, trimmed and lower-cased ('' when unset). */
function setting(env: NodeJS.ProcessEnv, name: string): string {
  return env[name]?.trim().toLowerCase() ?? '';
}

/** OTEL_SDK_DISABLED=true, or OTEL_<signal>_EXPORTER=none: that signal is not exported. */
function exportOff(env: NodeJS.ProcessEnv, exporter: 'OTEL_TRACES_EXPORTER' | 'OTEL_METRICS_EXPORTER'): boolean {
  return setting(env, 'OTEL_SDK_DISABLED') === 'true' || setting(env, exporter) === 'none';
}

/**
 * Tracing is on when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), OTEL_SDK_DISABLED is not true and OTEL_TRACES_EXPORTER is
 * not `none`. Off, the SDK is not even loaded.
 */
export function tracingConfigured(env: NodeJS.ProcessEnv): boolean {
  if (exportOff(env, 'OTEL_TRACES_EXPORTER')) return false;
  return [env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'], env['OTEL_EXPORTER_OTLP_ENDPOINT']].some((value) => value !== undefined && value.trim() !== '');
}

function positiveMs(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}

/**
 * Where the metrics go over OTLP, or undefined: metrics are pushed when an OTLP endpoint is
 * configured (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, the full URL, or OTEL_EXPORTER_OTLP_ENDPOINT
 * plus `/v1/metrics`), OTEL_SDK_DISABLED is not true and OTEL_METRICS_EXPORTER is not `none`.
 */
export function metricsExportUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (exportOff(env, 'OTEL_METRICS_EXPORTER')) return undefined;
  const specific = env['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT']?.trim();
  if (specific !== undefined && specific !== '') return specific;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  if (base === undefined || base === '') return undefined;
  return `${base.replace(/\/+$/, '')}/v1/metrics`;
}

/**
 * Start this process's metrics and, when configured, its tracing and its OTLP metrics push,
 * under one resource (service name `jacobian-<role>` unless OTEL_SERVICE_NAME or
 * OTEL_RESOURCE_ATTRIBUTES names one; the instance, host and k8s pod from the environment), and
 * install them for the instrumented code.
 */
export async function startTelemetry(role: string, version: string, env: NodeJS.ProcessEnv, log: Logger): Promise<ProcessTelemetry> {
  const resource = processResource({ serviceName: `jacobian-${role}`, serviceVersion: version, env });
  const metricsUrl = metricsExportUrl(env);
  const tracingOn = tracingConfigured(env);
  let tracing: RunningTracing | undefined;
  let stopDiagnostics: (() => void) | undefined;
  const readers: MetricReader[] = [];
  if (tracingOn || metricsUrl !== undefined) {
    for (const signal of ['TRACES', 'METRICS'] as const) {
      const protocol = env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] ?? env['OTEL_EXPORTER_OTLP_PROTOCOL'];
      if (protocol !== undefined && protocol !== 'http/json') log.warn('only OTLP/HTTP JSON is exported; the configured protocol is ignored', { protocol, signal: signal.toLowerCase() });
    }
    const sdk = await import('@jacobian/shared/telemetry-sdk');
    stopDiagnostics = sdk.reportDiagnostics((message) => log.warn('telemetry export', { error: message }));
    if (tracingOn) tracing = sdk.startTracing({ resource, serviceVersion: version });
    if (metricsUrl !== undefined) {
      readers.push(
        sdk.createOtlpMetricReader({
          url: metricsUrl,
          intervalMs: positiveMs(env['OTEL_METRIC_EXPORT_INTERVAL'], 60_000),
          timeoutMs: positiveMs(env['OTEL_METRIC_EXPORT_TIMEOUT'], 30_000),
        }),
      );
    }
  }
  const metrics = createJacobianMetrics({ resource, readers, runtime: true });
  const uninstall = installTelemetry(tracing === undefined ? { metrics } : { metrics, tracer: tracing.tracer });
  let closing: Promise<void> | undefined;
  return {
    metrics,
    tracing: tracing !== undefined,
    close() {
      closing ??= (async () => {
        try {
          await Promise.allSettled([tracing?.shutdown(), metrics.shutdown()]);
        } finally {
          uninstall();
          stopDiagnostics?.();
        }
      })();
      return closing;
    },
  };
}

/** The start-up probe's verdict per provider: those serving installed capabilities are up, those unavailable down. */
export function reportProviders(metrics: JacobianMetrics, installed: readonly InstalledCapability[], unavailable: readonly { provider: string }[]): void {
  for (const provider of unavailable) metrics.providerHealth(provider.provider, false);
  for (const capability of installed) metrics.providerHealth(capability.descriptor.provider_runtime.provider, true);
}

/** A preferred provider that failed its probe while a fallback serves: logged, and reported down. */
export function providerSkippedReported(log: Logger, metrics: JacobianMetrics): (provider: string, reason: string) => void {
  const skipped = providerSkipped(log);
  return (provider, reason) => {
    skipped(provider, reason);
    metrics.providerHealth(provider, false);
  };
}
