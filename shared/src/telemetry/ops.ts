/**
 * The operations endpoints every process serves: `GET /healthz` (alive), `GET /readyz` (its
 * dependencies answer) and `GET /metrics` (Prometheus text). Transport-free here; the roles'
 * ops server and the API's MCP port both answer through {@link answerOps}.
 */
import type { ArtifactStore } from '../artifacts/store.js';
import type { JacobianMetrics } from './metrics.js';

/** How long one readiness check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 2000;

/** A readiness check's verdict: `ok`, `pending` (not set up yet), `failed` or `timed out`. Never an error text. */
export type CheckVerdict = 'ok' | 'pending' | 'failed' | 'timed out';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, CheckVerdict>;
  /** For checks that are not `ok`, the reason their check gave on purpose (see readiness-reasons.ts). */
  reasons?: Record<string, string>;
}

/**
 * The named checks a process must pass to be ready. Each starts `pending` and becomes a live
 * check once its dependency is set up (e.g. `providers` once they were probed).
 */
export interface Readiness {
  provide(name: string, check: () => Promise<unknown>): void;
  report(): Promise<ReadinessReport>;
}

export function createReadiness(names: readonly string[]): Readiness {
  const checks = new Map<string, (() => Promise<unknown>) | undefined>(names.map((name) => [name, undefined]));
  const run = async (check: () => Promise<unknown>): Promise<CheckVerdict> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<CheckVerdict>((resolve) => {
      timer = setTimeout(() => resolve('timed out'), CHECK_TIMEOUT_MS);
      timer.unref();
    });
    try {
      return await Promise.race([
        check().then(
          (): CheckVerdict => 'ok',
          (): CheckVerdict => 'failed',
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    provide(name, check) {
      checks.set(name, check);
    },
    async report() {
      const entries = await Promise.all([...checks].map(async ([name, check]) => [name, check === undefined ? 'pending' : await run(check)] as const));
      return { ready: entries.every(([, verdict]) => verdict === 'ok'), checks: Object.fromEntries(entries) };
    },
  };
}

/** A URI no store holds: asking for it exercises the store's read path (S3 HEAD, a file stat) and nothing else. */
const PROBE_URI = `artifact://sha256/${'0'.repeat(64)}`;

/** The artifact store's readiness: it answers whether it holds an artifact (false is fine; an error is not). */
export function artifactStoreCheck(store: ArtifactStore): () => Promise<unknown> {
  return () => store.has(PROBE_URI);
}

/** What a process serves on its operations routes. */
export interface OpsEndpoints {
  readiness: Readiness;
  metrics?: JacobianMetrics;
}

export interface OpsAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** The answer to GET `path`, or undefined when `path` is not an operations route. */
export async function answerOps(ops: OpsEndpoints, path: string): Promise<OpsAnswer | undefined> {
  switch (path) {
    case '/healthz':
      return { status: 200, contentType: 'application/json', body: JSON.stringify({ status: 'ok' }) };
    case '/readyz': {
      const report = await ops.readiness.report();
      // Reasons appear only when a check gave one (`{..., "reasons": {"<check>": "<reason>"}}`).
      const reasons = report.reasons !== undefined && Object.keys(report.reasons).length > 0 ? { reasons: report.reasons } : {};
      return {
        status: report.ready ? 200 : 503,
        contentType: 'application/json',
        body: JSON.stringify({ status: report.ready ? 'ready' : 'not ready', checks: report.checks, ...reasons }),
      };
    }
    case '/metrics': {
      if (ops.metrics === undefined) return { status: 404, contentType: 'text/plain', body: 'metrics are not served by this process\n' };
      const { contentType, body } = await ops.metrics.render();
      return { status: 200, contentType, body };
    }
    default:
      return undefined;
  }
}
