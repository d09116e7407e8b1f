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
}

export function startupProbes(log: Logger, dataDir: string): StartupProbes {
  const health = createHealthCache(join(dataDir, 'provider-health.json'));
  const started = performance.now();
  let probed = 0;
  return {
    health,
    onProbe(event) {
      if (event.phase === 'started') {
        log.debug('probing provider', { provider: event.provider });
        return;
      }
      probed += 1;
      if (event.phase === 'healthy') log.info('provider probed', { provider: event.provider, healthy: true, ms: event.ms });
      else log.info('provider probed', { provider: event.provider, healthy: false, ms: event.ms, reason: event.reason });
    },
    done() {
      const by = (outcome: string): string[] => [...health.outcomes].filter(([, o]) => o === outcome).map(([provider]) => provider).sort();
      log.info('providers probed', { providers: probed, ms: Math.round(performance.now() - started), health_checked: by('checked'), health_remembered: by('remembered') });
    },
  };
}
