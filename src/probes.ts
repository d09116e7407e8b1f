import { join } from 'node:path';
import { createHealthCache, type HealthCache, type ProbeEvent } from '@jacobian/runner';
import type { Logger } from './log.js';

/** What a starting process gives its runner for probing providers. */
export interface StartupProbes {
  /** Passed health checks, remembered in `<data dir>/provider-health.json` across starts. */
  readonly health: HealthCache;
  /** Logs each probe as it starts (debug) and ends (info, with how long it took). */
  readonly onProbe: (event: ProbeEvent) => void;
  /** Logs the end of probing: how long it took, and which health checks ran or were remembered. */
  done(): void;
  /**
   * The process is shutting down: a probe still running (a health check in a pool child) is
   * stopped with the pool, and its end is logged as that rather than as the provider failing.
   */
  stopping(): void;
  readonly stopped: boolean;
}

export function startupProbes(log: Logger, dataDir: string): StartupProbes {
  const health = createHealthCache(join(dataDir, 'provider-health.json'));
  const started = performance.now();
  let probed = 0;
  let stopped = false;
  return {
    health,
    onProbe(event) {
      if (event.phase === 'started') {
        log.debug('probing provider', { provider: event.provider });
        return;
      }
      probed += 1;
      if (event.phase === 'healthy') log.info('provider probed', { provider: event.provider, healthy: true, ms: event.ms });
      else if (stopped) log.info('provider probe ended by the shutdown', { provider: event.provider, ms: event.ms, reason: event.reason });
      else log.info('provider probed', { provider: event.provider, healthy: false, ms: event.ms, reason: event.reason });
    },
    stopping() {
      stopped = true;
    },
    get stopped() {
      return stopped;
    },
    done() {
      const by = (outcome: string): string[] => [...health.outcomes].filter(([, o]) => o === outcome).map(([provider]) => provider).sort();
      log.info('providers probed', { providers: probed, ms: Math.round(performance.now() - started), health_checked: by('checked'), health_remembered: by('remembered') });
    },
  };
}
