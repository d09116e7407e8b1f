/**
 * The same metrics as `/metrics`, pushed over OTLP/HTTP (JSON) to a collector: prom-client stays
 * the one source, and its registry is read and translated at each export. Counters become
 * cumulative monotonic sums, gauges gauges, histograms cumulative explicit-bucket histograms
 * (prom-client's cumulative `le` buckets turned into per-bucket counts).
 */
import type { MetricObjectWithValues, MetricValue, MetricValueWithName, Registry } from 'prom-client';

/** One OTLP attribute (`KeyValue`), string-valued. */
interface OtlpAttribute {
  key: string;
  value: { stringValue: string };
}

interface NumberPoint {
  attributes: OtlpAttribute[];
  startTimeUnixNano: string;
  timeUnixNano: string;
  asDouble: number;
}

interface HistogramPoint {
  attributes: OtlpAttribute[];
  startTimeUnixNano: string;
  timeUnixNano: string;
  count: string;
  sum: number;
  bucketCounts: string[];
  explicitBounds: number[];
}

/** OTLP `Metric`, as the JSON encoding of opentelemetry-proto has it. */
export type OtlpMetric =
  | { name: string; description: string; sum: { dataPoints: NumberPoint[]; aggregationTemporality: 2; isMonotonic: true } }
  | { name: string; description: string; gauge: { dataPoints: NumberPoint[] } }
  | { name: string; description: string; histogram: { dataPoints: HistogramPoint[]; aggregationTemporality: 2 } };

/** `ExportMetricsServiceRequest`, JSON encoding. */
export interface OtlpMetricsRequest {
  resourceMetrics: {
    resource: { attributes: OtlpAttribute[] };
    scopeMetrics: { scope: { name: string; version: string }; metrics: OtlpMetric[] }[];
  }[];
}

/** AggregationTemporality CUMULATIVE. */
const CUMULATIVE = 2;

function attributes(labels: Partial<Record<string, string | number>>, skip?: string): OtlpAttribute[] {
  return Object.entries(labels)
    .filter(([key, value]) => key !== skip && value !== undefined)
    .map(([key, value]) => ({ key, value: { stringValue: String(value) } }));
}

/** A stable key for a label set without `le`: the points of one histogram series. */
function seriesKey(labels: Partial<Record<string, string | number>>): string {
  return JSON.stringify(
    Object.entries(labels)
      .filter(([key]) => key !== 'le')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

function histogramPoints(metric: MetricObjectWithValues<MetricValueWithName<string>>, start: string, now: string): HistogramPoint[] {
  interface Series {
    labels: Partial<Record<string, string | number>>;
    buckets: { bound: number; cumulative: number }[];
    sum: number;
    count: number;
  }
  const series = new Map<string, Series>();
  const of = (labels: Partial<Record<string, string | number>>): Series => {
    const key = seriesKey(labels);
    let found = series.get(key);
    if (found === undefined) {
      found = { labels, buckets: [], sum: 0, count: 0 };
      series.set(key, found);
    }
    return found;
  };
  for (const value of metric.values) {
    const name = value.metricName ?? '';
    if (name.endsWith('_bucket')) {
      const le = value.labels['le'];
      const bound = le === '+Inf' ? Infinity : Number(le);
      of(value.labels).buckets.push({ bound, cumulative: value.value });
    } else if (name.endsWith('_sum')) of(value.labels).sum = value.value;
    else if (name.endsWith('_count')) of(value.labels).count = value.value;
  }
  return [...series.values()].map((s) => {
    const sorted = [...s.buckets].sort((a, b) => a.bound - b.bound);
    const finite = sorted.filter((b) => Number.isFinite(b.bound));
    // Per-bucket counts: (bound[i-1], bound[i]], then the overflow bucket above the last bound.
    const counts: number[] = [];
    let below = 0;
    for (const bucket of finite) {
      counts.push(bucket.cumulative - below);
      below = bucket.cumulative;
    }
    counts.push(s.count - below);
    return {
      attributes: attributes(s.labels, 'le'),
      startTimeUnixNano: start,
      timeUnixNano: now,
      count: String(s.count),
      sum: s.sum,
      bucketCounts: counts.map((c) => String(Math.max(0, c))),
      explicitBounds: finite.map((b) => b.bound),
    };
  });
}

function numberPoints(values: readonly MetricValue<string>[], start: string, now: string): NumberPoint[] {
  return values.map((value) => ({ attributes: attributes(value.labels), startTimeUnixNano: start, timeUnixNano: now, asDouble: value.value }));
}

/**
 * Translate a registry's metrics (as `getMetricsAsJSON()` gives them) to an OTLP request.
 * Summaries, which no Jacobian metric uses, are left out.
 */
export function toOtlpMetrics(
  metrics: readonly MetricObjectWithValues<MetricValue<string>>[],
  options: { resource: Record<string, string>; scope: { name: string; version: string }; startTimeMs: number; nowMs: number },
): OtlpMetricsRequest {
  const start = `${BigInt(Math.round(options.startTimeMs)) * 1_000_000n}`;
  const now = `${BigInt(Math.round(options.nowMs)) * 1_000_000n}`;
  const translated: OtlpMetric[] = [];
  for (const metric of metrics) {
    const base = { name: metric.name, description: metric.help };
    switch (String(metric.type)) {
      case 'counter':
        translated.push({ ...base, sum: { dataPoints: numberPoints(metric.values, start, now), aggregationTemporality: CUMULATIVE, isMonotonic: true } });
        break;
      case 'gauge':
        translated.push({ ...base, gauge: { dataPoints: numberPoints(metric.values, start, now) } });
        break;
      case 'histogram':
        translated.push({ ...base, histogram: { dataPoints: histogramPoints(metric, start, now), aggregationTemporality: CUMULATIVE } });
        break;
      default:
        break;
    }
  }
  return {
    resourceMetrics: [
      {
        resource: { attributes: attributes(options.resource) },
        scopeMetrics: [{ scope: options.scope, metrics: translated }],
      },
    ],
  };
}

/** Options of {@link startOtlpMetricsExport}. */
export interface OtlpMetricsExportOptions {
  registry: Registry;
  /** The full metrics URL, e.g. `http://collector:4318/v1/metrics`. */
  url: string;
  /** Time between exports (OTEL_METRIC_EXPORT_INTERVAL; default 60 000 ms). */
  intervalMs: number;
  /** Longest an export may take (OTEL_METRIC_EXPORT_TIMEOUT; default 30 000 ms). */
  timeoutMs: number;
  headers?: Record<string, string>;
  resource: Record<string, string>;
  scope: { name: string; version: string };
  /** An export that failed (the next one tries again with the cumulative values). */
  onError?: (message: string) => void;
}

export interface RunningMetricsExport {
  /** Export now; resolves when the collector answered or the export failed. */
  flush(): Promise<void>;
  /** Stop the timer after one last export; idempotent. */
  shutdown(): Promise<void>;
}

/** Push the registry's metrics every `intervalMs`, and once more at shutdown. */
export function startOtlpMetricsExport(options: OtlpMetricsExportOptions): RunningMetricsExport {
  const startTimeMs = Date.now();
  let pending: Promise<void> = Promise.resolve();
  const exportOnce = async (): Promise<void> => {
    try {
      const request = toOtlpMetrics(await options.registry.getMetricsAsJSON(), { resource: options.resource, scope: options.scope, startTimeMs, nowMs: Date.now() });
      const response = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      // The body is drained so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) options.onError?.(`OTLP metrics export to ${options.url} answered HTTP ${response.status}`);
    } catch (error) {
      options.onError?.(`OTLP metrics export to ${options.url} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  // Exports never overlap: each waits for the one before.
  const flush = (): Promise<void> => (pending = pending.then(exportOnce));
  const timer = setInterval(() => void flush(), options.intervalMs);
  timer.unref();
  let stopping: Promise<void> | undefined;
  return {
    flush,
    shutdown() {
      stopping ??= (async () => {
        clearInterval(timer);
        await flush();
      })();
      return stopping;
    },
  };
}
