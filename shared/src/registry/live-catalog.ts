import type { Redis } from 'ioredis';
import { admissibleFromDescriptor, type AdmissibleCapability } from '../capabilities/define.js';
import { toAppError } from '../errors.js';
import { readLiveCapabilities, type RegistrationCache } from './redis-registry.js';

export interface LiveCatalogSource {
  /** The capabilities live processes offer, as of the last refresh; a new array only when the offer changed. */
  current(): readonly AdmissibleCapability[];
  /** `sha256:<hex>` of the current offer. */
  digest(): string;
  refresh(): Promise<void>;
  close(): void;
}

export interface LiveCatalogOptions {
  redis: Redis;
  prefix: string;
  /** How often to re-read registrations; well under the heartbeat TTL. */
  refreshMs: number;
  onError?: (error: Error) => void;
  onChange?: (digest: string, ids: string[]) => void;
}

/**
 * The API's view of what the cluster offers: registrations re-read on a timer, rebuilt into
 * admission schemas only when the offer's digest changes. A failed refresh keeps the last
 * good view (runs then fail at the queue with a clear error) and reports the failure.
 */
export async function createLiveCatalogSource(options: LiveCatalogOptions): Promise<LiveCatalogSource> {
  let capabilities: readonly AdmissibleCapability[] = [];
  let digest = '';
  const parsed: RegistrationCache = new Map();
  const refresh = async (): Promise<void> => {
    const live = await readLiveCapabilities(options.redis, options.prefix, parsed);
    if (live.digest === digest) return;
    capabilities = live.descriptors.map(admissibleFromDescriptor);
    digest = live.digest;
    options.onChange?.(digest, live.descriptors.map((d) => d.id));
  };
  await refresh();
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    refresh()
      .catch((error: unknown) => options.onError?.(toAppError(error)))
      .finally(() => {
        running = false;
      });
  }, options.refreshMs);
  timer.unref();
  return {
    current: () => capabilities,
    digest: () => digest,
    refresh,
    close: () => clearInterval(timer),
  };
}
