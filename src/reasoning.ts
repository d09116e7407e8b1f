import { join } from 'node:path';
import {
  createFileReasoningLogStore,
  createReasoningLog,
  type FileReasoningLogStoreOptions,
  type ReasoningLog,
  type ReasoningLogStore,
  type ReasoningMode,
  type RedisReasoningLogStoreOptions,
  tenantScopes,
} from '@jacobian/shared';
import type { ClusterEnvironment } from './cluster-config.js';

/** A started reasoning log: `log` is undefined in OFF, where nothing was created. */
export interface ReasoningWiring {
  readonly log: ReasoningLog | undefined;
  /** A named tenant's own log (its own files or streams); undefined in OFF. */
  logFor(tenant: string): ReasoningLog | undefined;
  /** Close the stores; idempotent, and nothing to do in OFF. */
  close(): Promise<void>;
}

const OFF: ReasoningWiring = { log: undefined, logFor: () => undefined, close: () => Promise.resolve() };

/** `createStore(undefined)` is the default tenant's store, `createStore(tenant)` a tenant's own. */
function wire(mode: ReasoningMode, createStore: (tenant: string | undefined) => ReasoningLogStore): ReasoningWiring {
  if (mode === 'OFF') return OFF;
  const store = createStore(undefined);
  const log = createReasoningLog({ mode, store });
  const stores: ReasoningLogStore[] = [];
  const tenants = tenantScopes<ReasoningLog>(
    log,
    (tenant) => {
      const own = createStore(tenant);
      stores.push(own);
      return createReasoningLog({ mode, store: own });
    },
    () => Promise.resolve(),
  );
  let closing: Promise<void> | undefined;
  return {
    log,
    logFor: (tenant) => tenants.of(tenant),
    close() {
      closing ??= (async () => {
        await tenants.close();
        await Promise.allSettled([store, ...stores].map((s) => s.close()));
      })();
      return closing;
    },
  };
}

/** Embedded (`serve`, `stdio`): a file-backed log in `<data dir>/reasoning`, one file per run. */
export function embeddedReasoningLog(
  mode: ReasoningMode,
  dataDir: string,
  createStore: (options: FileReasoningLogStoreOptions) => ReasoningLogStore = createFileReasoningLogStore,
): ReasoningWiring {
  return wire(mode, (tenant) => createStore({ directory: tenant === undefined ? join(dataDir, 'reasoning') : join(dataDir, 'reasoning', 'tenants', tenant) }));
}

/**
 * Cluster API role: one Redis stream per run, under the deployment's Redis and key prefix.
 * `createStore` is `createRedisReasoningLogStore` from `@jacobian/shared/redis`, passed by the
 * caller so that this module (also loaded by `serve` and `stdio`) does not load a Redis client.
 */
export function clusterReasoningLog(
  mode: ReasoningMode,
  env: Pick<ClusterEnvironment, 'REDIS_URL' | 'JACOBIAN_PREFIX'>,
  createStore: (options: RedisReasoningLogStoreOptions) => ReasoningLogStore,
): ReasoningWiring {
  return wire(mode, (tenant) => createStore({ connection: { url: env.REDIS_URL }, prefix: tenant === undefined ? env.JACOBIAN_PREFIX : `${env.JACOBIAN_PREFIX}:tenant:${tenant}` }));
}
