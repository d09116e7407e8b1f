/**
 * What the cluster roles (`jacobian api`, `runner`, `checker`) share: start-up of Redis and the
 * artifact store, the operations port, the queue worker and heartbeat, ordered cleanup. It loads
 * no service workspace: each role's module (api-role.ts, runner-role.ts, checker-role.ts) loads
 * its own, so a role's image carries only that workspace's dependencies.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { format } from 'node:util';
import {
  artifactStoreCheck,
  assertRedisReachable,
  createReadiness,
  explainReadiness,
  tenantScopes,
  startAdvertising,
  type ArtifactStore,
  type CapabilityDescriptor,
  type JacobianMetrics,
  type Readiness,
  type RunHandler,
  type RunTarget,
  type ShardHandler,
  type S3ArtifactStoreOptions,
  type S3StoreArea,
} from '@jacobian/shared';
import { createBullmqRunWorker, createRedisClient } from '@jacobian/shared/redis';
import { createS3ArtifactStore, verifyS3Access } from '@jacobian/shared/s3';
import { loadClusterEnvironment, type ClusterEnvironment, type Role } from './cluster-config.js';
import { waitForSignal, type CommandContext } from './command.js';
import type { JacobianConfig } from './config.js';
import type { Logger } from './log.js';
import { startOpsServer } from './ops-server.js';
import { EVICTION_POLICY_CHECK, watchEvictionPolicy } from './redis-policy.js';

/** What a role reports its metrics to (started by the entry point, with tracing when configured). */
export interface RoleTelemetry {
  readonly metrics: JacobianMetrics;
}

/** A started role: close it to stop taking work, drain, and release everything in order. */
export interface RunningRole {
  readonly description: string;
  close(): Promise<void>;
}

/** Cleanups run in reverse order of acquisition, each one even if another fails. */
export class Cleanups {
  private readonly steps: (() => Promise<unknown> | void)[] = [];
  add(step: () => Promise<unknown> | void): void {
    this.steps.push(step);
  }
  async run(): Promise<void> {
    const steps = this.steps.splice(0).reverse();
    const failures: unknown[] = [];
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  }
}

/**
 * One log line per run this process executes (identity and outcome, never payloads), and one
 * more at its start when the level is debug.
 */
function logged(log: Logger, handler: RunHandler): RunHandler {
  return async (run, signal, onProgress) => {
    log.debug('run started', { job_id: run.job_id, capability_id: run.capability_id, mode: run.mode });
    const result = await handler(run, signal, onProgress);
    log.info('run finished', {
      job_id: run.job_id,
      capability_id: run.capability_id,
      status: result.execution.status,
      runtime_ms: result.execution.runtime_ms,
      assurance: result.assurance.level,
    });
    return result;
  };
}

function s3Options(env: ClusterEnvironment): S3ArtifactStoreOptions {
  return {
    region: env.S3_REGION,
    bucket: env.S3_BUCKET,
    prefix: env.S3_PREFIX,
    ...(env.S3_ENDPOINT !== undefined ? { endpoint: env.S3_ENDPOINT } : {}),
    // Self-hosted S3 servers (MinIO, Ceph RGW) are usually addressed by path.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? env.S3_ENDPOINT !== undefined,
  };
}

function processId(role: string): string {
  return `${role}-${hostname().replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 40)}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/**
 * The role's operations port (see JACOBIAN_OPS_PORT), started before anything else so that
 * /healthz answers while the role starts and /readyz says what it still waits for. Its URL, or
 * undefined when it is off, or when another process on this host holds the port (several roles
 * on one machine without JACOBIAN_OPS_PORT=0): the role then works without it, and says so.
 */
export async function serveOps(env: ClusterEnvironment, readiness: Readiness, telemetry: RoleTelemetry, cleanups: Cleanups, log: Logger): Promise<string | undefined> {
  const port = env.JACOBIAN_OPS_PORT;
  if (port === null) return undefined;
  try {
    const server = await startOpsServer({
      host: env.JACOBIAN_OPS_HOST,
      port,
      ops: { readiness, metrics: telemetry.metrics },
      onError: (error) => log.warn('ops server error', { error: error.message }),
    });
    cleanups.add(() => server.close());
    return server.url;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
      throw new Error(`JACOBIAN_OPS_HOST, JACOBIAN_OPS_PORT: cannot serve on ${env.JACOBIAN_OPS_HOST}:${port}: ${(error as Error).message}`, { cause: error });
    }
    log.warn('operations port in use; /healthz, /readyz and /metrics are not served on it', { host: env.JACOBIAN_OPS_HOST, port, variable: 'JACOBIAN_OPS_PORT' });
    return undefined;
  }
}

/** The readiness checks of a role: Redis, its eviction policy, the artifact store, and `more`. */
export function roleReadiness(...more: string[]): Readiness {
  return explainReadiness(createReadiness(['redis', EVICTION_POLICY_CHECK, 'artifacts', ...more]));
}

/**
 * Shared start-up of every role: Redis (reachable, and its eviction policy checked) and the
 * artifact store, both checked before anything serves. `area` is where the role writes artifacts: the checker writes in the `records` area
 * (`<prefix>records/`), so bucket permissions can let it alone write verification records.
 */
export async function connect(
  env: ClusterEnvironment,
  cleanups: Cleanups,
  log: Logger,
  readiness: Readiness,
  area: S3StoreArea = 'main',
): Promise<{ redis: ReturnType<typeof createRedisClient>; artifacts: ArtifactStore; artifactsFor: (tenant: string) => ArtifactStore }> {
  const connection = { url: env.REDIS_URL };
  const redis = createRedisClient(connection, { lazyConnect: true, maxRetriesPerRequest: 1 });
  // Connection errors surface through the commands that fail; without a listener ioredis
  // would print each reconnect attempt's error to stderr outside our JSON logs.
  redis.on('error', (error: Error) => log.debug('redis connection error', { error: error.message }));
  cleanups.add(() => redis.disconnect());
  await assertRedisReachable(redis, env.REDIS_URL);
  readiness.provide('redis', () => redis.ping());
  // Logged now; a wrong policy fails /readyz with the fix but does not stop the role (see watchEvictionPolicy).
  readiness.provide(EVICTION_POLICY_CHECK, await watchEvictionPolicy(redis, log));
  const options: S3ArtifactStoreOptions = { ...s3Options(env), area };
  await verifyS3Access(options);
  const artifacts = createS3ArtifactStore(options);
  cleanups.add(() => artifacts.close());
  readiness.provide('artifacts', artifactStoreCheck(artifacts));
  // A named tenant's artifacts live under `<S3_PREFIX>tenants/<tenant>/`.
  const base = options.prefix === undefined || options.prefix === '' || options.prefix.endsWith('/') ? (options.prefix ?? '') : `${options.prefix}/`;
  const tenants = tenantScopes(artifacts, (tenant) => createS3ArtifactStore({ ...options, prefix: `${base}tenants/${tenant}/` }), (store) => store.close());
  cleanups.add(() => tenants.close());
  return { redis, artifacts, artifactsFor: (tenant) => tenants.of(tenant) };
}

/**
 * What the runner and checker roles share once their executor is ready: a BullMQ worker on
 * their queues, then the heartbeat that puts their capabilities in the catalog. Cleanups run
 * in reverse, so a stopping process leaves the catalog before it drains.
 */
export async function takeWork(options: {
  env: ClusterEnvironment;
  config: JacobianConfig;
  log: Logger;
  cleanups: Cleanups;
  redis: ReturnType<typeof createRedisClient>;
  role: 'runner' | 'checker';
  targets: RunTarget[];
  handler: RunHandler;
  /** Runners: the split-and-merge side of capabilities that fan out into child runs. */
  shards?: ShardHandler;
  descriptors: CapabilityDescriptor[];
  telemetry: RoleTelemetry;
}): Promise<void> {
  const { env, log, cleanups } = options;
  // Queue depth is exported by the API alone (every pool its catalog serves): were every worker
  // to export it too, a sum over instances would count each queue once per process.
  const worker = createBullmqRunWorker({
    connection: { url: env.REDIS_URL },
    prefix: env.JACOBIAN_PREFIX,
    targets: options.targets,
    handler: logged(log, options.handler),
    ...(options.shards === undefined ? {} : { shards: options.shards }),
    concurrency: options.config.concurrency,
    drainGraceMs: env.JACOBIAN_DRAIN_GRACE_MS,
    lockDurationMs: env.JACOBIAN_JOB_LOCK_MS,
    stalledIntervalMs: env.JACOBIAN_JOB_LOCK_MS,
    onError: (error) => log.warn('worker error', { error: error.message }),
  });
  cleanups.add(() => worker.close());
  await worker.waitUntilReady();
  const advertiser = await startAdvertising({
    redis: options.redis,
    prefix: env.JACOBIAN_PREFIX,
    ttlMs: env.JACOBIAN_HEARTBEAT_TTL_MS,
    registration: {
      process_id: processId(options.role),
      role: options.role,
      pools: options.targets.map((target) => (target.kind === 'pool' ? target.pool : 'checker')),
      descriptors: options.descriptors,
      started_at: Math.floor(Date.now() / 1000),
    },
    onError: (error) => log.warn('heartbeat failed', { error: error.message }),
  });
  cleanups.add(() => advertiser.close());
}

/** Start a role's resources; on any failure release what was acquired, so nothing half-started lingers. */
export async function startRole(build: (cleanups: Cleanups) => Promise<string>): Promise<RunningRole> {
  const cleanups = new Cleanups();
  try {
    const description = await build(cleanups);
    return { description, close: () => cleanups.run() };
  } catch (error) {
    await cleanups.run().catch(() => undefined);
    throw error;
  }
}


/**
 * A cluster command from start to end: read the cluster environment, start telemetry, start the
 * role, and close it on the first SIGINT or SIGTERM.
 */
export async function runClusterRole(context: CommandContext, role: Role, start: (env: ClusterEnvironment, telemetry: RoleTelemetry) => Promise<RunningRole>): Promise<number> {
  const { log } = context;
  const telemetry = await context.startTelemetry();
  const env = loadClusterEnvironment(context.env, role);
  // BullMQ warns with console.warn (a Redis version it does not recommend, an eviction policy
  // other than noeviction): as plain text, that would break the JSON lines of the log.
  console.warn = (...args: unknown[]) => log.warn('library warning', { message: format(...args) });
  const signalled = waitForSignal();
  log.debug('starting', { command: role });
  const running = await start(env, { metrics: telemetry.metrics });
  const signal = await signalled;
  log.info('shutting down', { signal, role: running.description });
  await running.close();
  return 0;
}
