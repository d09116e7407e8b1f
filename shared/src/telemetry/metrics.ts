/**
 * This process's metrics, in Prometheus text at `GET /metrics`. prom-client is the source of
 * truth; each process has its own registry (no global one), so tests can hold several.
 *
 * Every label has a bounded set of values: capability IDs (the installed catalog), modes,
 * execution statuses, pool names (configuration), provider names. Never job IDs or tenants.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

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

export interface JacobianMetrics {
  readonly registry: Registry;
  /** A run this process executed (runner, checker, embedded): its latency and count. */
  runFinished(capability: string, mode: string, outcome: string, seconds: number): void;
  /** A job's time from creation to its first start, per pool. */
  queueWait(pool: string, seconds: number): void;
  /** Bytes of canonical payload and manifest stored by a successful artifact put. */
  artifactBytesWritten(store: 's3' | 'local', bytes: number): void;
  /** The checker role's verdict on a run it executed. */
  checkerVerdict(verdict: CheckerVerdict): void;
  /** A math.run the API admitted and answered: its latency and count, end to end. */
  apiRunFinished(capability: string, mode: string, outcome: string, seconds: number): void;
  /** The API's check of a VERIFIED result's signed record. */
  apiVerification(verdict: 'verified' | 'not_verified'): void;
  /** The start-up probe's verdict on a provider (1 healthy, 0 not). */
  providerHealth(provider: string, up: boolean): void;
  /** Read queue depths at every scrape; a failed read leaves the depth gauge empty for that scrape. */
  watchQueueDepths(read: () => Promise<readonly QueueDepth[]>): void;
  /** The exposition: Prometheus text and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];

/** Create the metrics of one process, in a registry of its own (with Node's process metrics). */
export function createJacobianMetrics(options: { defaultLabels?: Record<string, string> } = {}): JacobianMetrics {
  const registry = new Registry();
  if (options.defaultLabels !== undefined) registry.setDefaultLabels(options.defaultLabels);
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  /** A run-latency histogram (by capability and outcome) and a run counter (also by mode), recorded together. */
  const runRecorder = (names: { duration: string; count: string }, help: { duration: string; count: string }): JacobianMetrics['runFinished'] => {
    const duration = new Histogram({ name: names.duration, help: help.duration, labelNames: ['capability', 'outcome'] as const, buckets: LATENCY_BUCKETS, registers });
    const count = new Counter({ name: names.count, help: help.count, labelNames: ['capability', 'mode', 'outcome'] as const, registers });
    return (capability, mode, outcome, seconds) => {
      duration.observe({ capability, outcome }, seconds);
      count.inc({ capability, mode, outcome });
    };
  };
  const runFinished = runRecorder(
    { duration: 'jacobian_run_duration_seconds', count: 'jacobian_runs_total' },
    { duration: 'Runtime of runs this process executed, by capability and execution status', count: 'Runs this process executed, by capability, mode and execution status' },
  );
  const queueWait = new Histogram({
    name: 'jacobian_queue_wait_seconds',
    help: 'Time from a job being queued to its first start, by pool',
    labelNames: ['pool'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const artifactBytes = new Counter({
    name: 'jacobian_artifact_bytes_written_total',
    help: 'Bytes of canonical payloads and manifests stored by successful artifact puts (a repeated put of a stored artifact counts again)',
    labelNames: ['store'] as const,
    registers,
  });
  const checkerVerdicts = new Counter({
    name: 'jacobian_checker_verifications_total',
    help: 'VERIFY runs the checker executed: accepted (VERIFIED), rejected (completed without VERIFIED) or error (not completed)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const apiRunFinished = runRecorder(
    { duration: 'jacobian_api_run_duration_seconds', count: 'jacobian_api_runs_total' },
    {
      duration: 'End-to-end latency of admitted math.run calls at the API, by capability and execution status',
      count: 'Admitted math.run calls the API answered, by capability, mode and execution status',
    },
  );
  const apiVerifications = new Counter({
    name: 'jacobian_api_verifications_total',
    help: "The API's checks of VERIFIED results' signed records: verified or not_verified",
    labelNames: ['outcome'] as const,
    registers,
  });
  const providerUp = new Gauge({
    name: 'jacobian_provider_up',
    help: 'Start-up probe of each provider: 1 healthy, 0 unavailable',
    labelNames: ['provider'] as const,
    registers,
  });
  const depthReaders: (() => Promise<readonly QueueDepth[]>)[] = [];
  new Gauge({
    name: 'jacobian_queue_jobs',
    help: 'Jobs in each pool queue by state (waiting, active, delayed), read from Redis at scrape time',
    labelNames: ['pool', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      for (const read of depthReaders) {
        let depths: readonly QueueDepth[];
        try {
          depths = await read();
        } catch {
          // Redis unreachable: no depth this scrape (readiness reports the outage).
          continue;
        }
        for (const depth of depths) {
          this.set({ pool: depth.pool, state: 'waiting' }, depth.waiting);
          this.set({ pool: depth.pool, state: 'active' }, depth.active);
          this.set({ pool: depth.pool, state: 'delayed' }, depth.delayed);
        }
      }
    },
  });
  return {
    registry,
    runFinished,
    queueWait(pool, seconds) {
      queueWait.observe({ pool }, Math.max(0, seconds));
    },
    artifactBytesWritten(store, bytes) {
      artifactBytes.inc({ store }, bytes);
    },
    checkerVerdict(verdict) {
      checkerVerdicts.inc({ outcome: verdict });
    },
    apiRunFinished,
    apiVerification(verdict) {
      apiVerifications.inc({ outcome: verdict });
    },
    providerHealth(provider, up) {
      providerUp.set({ provider }, up ? 1 : 0);
    },
    watchQueueDepths(read) {
      depthReaders.push(read);
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
