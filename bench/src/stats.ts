/** Latency statistics and the plain-text tables the benchmarks print. */
import { mulberry32 } from '@jacobian/shared/testing';

export interface LatencySummary {
  count: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  mean_ms: number;
  min_ms: number;
  max_ms: number;
}

/** Nearest-rank percentile of already sorted samples. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/** The median of the samples (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * A bootstrap interval of median(numerators) / median(denominators): the central `level` share of
 * the ratios of `resamples` resampled sets, drawn with a fixed seed so that a report's interval
 * follows from its samples. Paired (the default), sample i of each is one round's two runs,
 * measured one after the other and drawn together; unpaired, each side is drawn on its own. It
 * shows how far the ratio of the medians of so few rounds moves with the rounds drawn; it assumes
 * the rounds independent, which a machine whose speed drifts makes them only roughly. Null for
 * fewer than 2 samples on a side (2 pairs, paired).
 */
export function bootstrapRatioOfMedians(
  numerators: readonly number[],
  denominators: readonly number[],
  options: { level?: number; resamples?: number; seed?: number; paired?: boolean } = {},
): [number, number] | null {
  const paired = options.paired ?? true;
  const m = paired ? Math.min(numerators.length, denominators.length) : numerators.length;
  const n = paired ? m : denominators.length;
  if (m < 2 || n < 2) return null;
  const level = options.level ?? 0.9;
  const resamples = options.resamples ?? 2000;
  const next = mulberry32(options.seed ?? 1);
  const ratios: number[] = [];
  const a: number[] = new Array<number>(m);
  const b: number[] = new Array<number>(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < m; i++) {
      const pick = Math.floor(next() * m);
      a[i] = numerators[pick] as number;
      if (paired) b[i] = denominators[pick] as number;
    }
    if (!paired) for (let i = 0; i < n; i++) b[i] = denominators[Math.floor(next() * n)] as number;
    const denominator = median(b);
    if (denominator > 0) ratios.push(median(a) / denominator);
  }
  if (ratios.length === 0) return null;
  ratios.sort((x, y) => x - y);
  const tail = (1 - level) / 2;
  const at = (q: number): number => ratios[Math.min(ratios.length - 1, Math.max(0, Math.floor(q * ratios.length)))] as number;
  return [round(at(tail), 3), round(at(1 - tail), 3)];
}

export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function summarize(samplesMs: readonly number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((acc, v) => acc + v, 0);
  return {
    count: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p90_ms: round(percentile(sorted, 90)),
    p99_ms: round(percentile(sorted, 99)),
    mean_ms: round(sorted.length > 0 ? sum / sorted.length : Number.NaN),
    min_ms: round(sorted[0] ?? Number.NaN),
    max_ms: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

/** A ratio rounded for reports; NaN when the denominator is zero or missing. */
export function ratio(numerator: number, denominator: number): number {
  return denominator > 0 && Number.isFinite(numerator) ? round(numerator / denominator, 3) : Number.NaN;
}

/** A left-aligned text table with a header row and a separator. */
export function table(header: readonly string[], rows: readonly (readonly (string | number | boolean)[])[]): string {
  const cells = [header, ...rows].map((row) => row.map((cell) => (typeof cell === 'number' ? formatNumber(cell) : String(cell))));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: readonly string[]): string => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(cells[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
}
