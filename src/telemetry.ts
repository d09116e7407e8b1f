import { readFileSync } from 'node:fs';
import { createJacobianMetrics, installTelemetry, type JacobianMetrics } from '@jacobian/shared';
import type { RunningTracing } from '@jacobian/shared/telemetry-sdk';
import type { Logger } from './log.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** What the process's entry point started: metrics always, tracing when configured. */
export interface ProcessTelemetry {
  readonly metrics: JacobianMetrics;
  /** Whether spans are exported (OTLP/HTTP). */
  readonly tracing: boolean;
  /** Export the spans still buffered, stop the SDK, and uninstall; idempotent. */
  close(): Promise<void>;
}

/**
 * Tracing is on when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) and OTEL_SDK_DISABLED is not true. Off, the SDK is not
 * even loaded.
 */
export function tracingConfigured(env: NodeJS.ProcessEnv): boolean {
  const endpoint = [env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'], env['OTEL_EXPORTER_OTLP_ENDPOINT']].some((value) => value !== undefined && value.trim() !== '');
  return endpoint && env['OTEL_SDK_DISABLED']?.trim().toLowerCase() !== 'true';
}

/**
 * Start this process's metrics and, when configured, its tracing (service name
 * `jacobian-<role>` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES names one), and
 * install them for the instrumented code.
 */
export async function startTelemetry(role: string, env: NodeJS.ProcessEnv, log: Logger): Promise<ProcessTelemetry> {
  const metrics = createJacobianMetrics();
  let tracing: RunningTracing | undefined;
  if (tracingConfigured(env)) {
    const protocol = env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ?? env['OTEL_EXPORTER_OTLP_PROTOCOL'];
    if (protocol !== undefined && protocol !== 'http/json') {
      log.warn('only OTLP/HTTP JSON is exported; the configured protocol is ignored', { protocol });
    }
    const { startTracing } = await import('@jacobian/shared/telemetry-sdk');
    tracing = startTracing({
      serviceName: `jacobian-${role}`,
      serviceVersion: VERSION,
      onDiagnostic: (message) => log.warn('tracing', { error: message }),
    });
  }
  const uninstall = installTelemetry(tracing === undefined ? { metrics } : { metrics, tracer: tracing.tracer });
  let closing: Promise<void> | undefined;
  return {
    metrics,
    tracing: tracing !== undefined,
    close() {
      closing ??= (async () => {
        try {
          await tracing?.shutdown();
        } finally {
          uninstall();
        }
      })();
      return closing;
    },
  };
}
