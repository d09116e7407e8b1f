/**
 * Why a readiness check fails, for the operator who reads `/readyz`. A check's verdict never
 * carries its error text (an error may hold a URL or an internal detail, and `/readyz` answers
 * without authentication), so a check that knows what is wrong and how to fix it says so on
 * purpose: it rejects with a {@link NotReadyReason}, whose text is written for the operator and
 * shown under `reasons` in `/readyz` (answerOps in telemetry/ops.ts). Any other rejection still shows only as `failed`.
 */
import type { Readiness, ReadinessReport } from './telemetry/ops.js';

/** A readiness failure whose message is meant to be shown: what is wrong and the way out. */
export class NotReadyReason extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NotReadyReason';
  }
}

/** A readiness report with, for each check that is not `ok`, the reason its check gave, if any. */
export interface ExplainedReadinessReport extends ReadinessReport {
  reasons: Record<string, string>;
}

export interface ExplainedReadiness extends Readiness {
  report(): Promise<ExplainedReadinessReport>;
}

/**
 * `readiness` whose checks may give a reason (a {@link NotReadyReason}). A reason is the one of
 * the check's latest completed run, and is shown only while the check's verdict is not `ok`.
 *
 * @example
 * const readiness = explainReadiness(createReadiness(['redis-eviction-policy']));
 * readiness.provide('redis-eviction-policy', async () => {
 *   if ((await policy()) !== 'noeviction') throw new NotReadyReason('set maxmemory-policy noeviction');
 * });
 */
export function explainReadiness(readiness: Readiness): ExplainedReadiness {
  const reasons = new Map<string, string>();
  return {
    provide(name, check) {
      readiness.provide(name, () =>
        check().then(
          (value) => {
            reasons.delete(name);
            return value;
          },
          (error: unknown) => {
            if (error instanceof NotReadyReason) reasons.set(name, error.message);
            else reasons.delete(name);
            throw error;
          },
        ),
      );
    },
    async report() {
      const report = await readiness.report();
      const shown: Record<string, string> = {};
      for (const [name, verdict] of Object.entries(report.checks)) {
        const reason = reasons.get(name);
        if (verdict !== 'ok' && reason !== undefined) shown[name] = reason;
      }
      return { ...report, reasons: shown };
    },
  };
}
