import { join } from 'node:path';
import {
  createFileReasoningLogStore,
  createReasoningLog,
  createRedisReasoningLogStore,
  type FileReasoningLogStoreOptions,
  type ReasoningLog,
  type ReasoningLogStore,
  type ReasoningMode,
  type RedisReasoningLogStoreOptions,
} from '@jacobian/shared';
import type { ClusterEnvironment } from './cluster-config.js';

/** A started reasoning log: `log` is undefined in OFF, where nothing was created. */
export interface ReasoningWiring {
  readonly log: ReasoningLog | undefined;
  /** Close the store; idempotent, and nothing to do in OFF. */
  close(): Promise<void>;
}

const OFF: ReasoningWiring = { log: undefined, close: () => Promise.resolve() };

function wire(mode: ReasoningMode, createStore: () => ReasoningLogStore): ReasoningWiring {
  if (mode === 'OFF') return OFF;
  const store = createStore();
  return { log: createReasoningLog({ mode, store }), close: () => store.close() };
}

/** Embedded (`serve`, `stdio`): a file-backed log in `<data dir>/reasoning`, one file per run. */
export function embeddedReasoningLog(
  mode: ReasoningMode,
  dataDir: string,
  createStore: (options: FileReasoningLogStoreOptions) => ReasoningLogStore = createFileReasoningLogStore,
): ReasoningWiring {
  return wire(mode, () => createStore({ directory: join(dataDir, 'reasoning') }));
}

/** Cluster API role: one Redis stream per run, under the deployment's Redis and key prefix. */
export function clusterReasoningLog(
  mode: ReasoningMode,
  env: Pick<ClusterEnvironment, 'REDIS_URL' | 'JACOBIAN_PREFIX'>,
  createStore: (options: RedisReasoningLogStoreOptions) => ReasoningLogStore = createRedisReasoningLogStore,
): ReasoningWiring {
  return wire(mode, () => createStore({ connection: { url: env.REDIS_URL }, prefix: env.JACOBIAN_PREFIX }));
}
