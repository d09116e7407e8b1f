import { describe, expect, it } from 'vitest';
import { metricsExportUrl, tracingConfigured } from './telemetry.js';

describe('OTLP configuration from the OTEL_* environment', () => {
  it('pushes metrics to the metrics endpoint, or to the base endpoint plus /v1/metrics, unless disabled', () => {
    expect(metricsExportUrl({})).toBeUndefined();
    expect(metricsExportUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe('http://collector:4318/v1/metrics');
    expect(metricsExportUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe('http://collector:4318/v1/metrics');
    expect(metricsExportUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://b:4318/custom' })).toBe('http://b:4318/custom');
    expect(metricsExportUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_METRICS_EXPORTER: 'none' })).toBeUndefined();
    expect(metricsExportUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    // Traces alone configured: no metrics push.
    expect(metricsExportUrl({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://a:4318/v1/traces' })).toBeUndefined();
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://a:4318/v1/traces' })).toBe(true);
  });

  it('exports spans when an endpoint is set, unless OTEL_TRACES_EXPORTER is none or the SDK is disabled', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: ' None ' })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'TRUE' })).toBe(false);
    // Turning traces off leaves the metric push alone, and the other way round.
    expect(metricsExportUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe('http://a:4318/v1/metrics');
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_METRICS_EXPORTER: 'none' })).toBe(true);
  });
});
