import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { KeyObject } from 'node:crypto';
import {
  artifactStoreCheck,
  assertRedisReachable,
  defaultRunQueueName,
  createReadiness,
  createLiveCatalogSource,
  explainReadiness,
  createProcessPool,
  tenantScopes,
  keyId,
  loadPublicKey,
  loadSigningKey,
  readQueueDepths,
  runTargetOf,
  startAdvertising,
  targetPool,
  type ArtifactStore,
  type CapabilityDescriptor,
  type JacobianMetrics,
  type Readiness,
  type RunHandler,
  type RunQueue,
  type RunTarget,
  type ShardHandler,
  type S3ArtifactStoreOptions,
  type S3StoreArea,
} from '@jacobian/shared';
import { createBullmqRunQueue, createBullmqRunWorker, createRedisClient, createRedisReasoningLogStore, createRedisTaskStore } from '@jacobian/shared/redis';
import { createS3ArtifactStore, verifyS3Access } from '@jacobian/shared/s3';
import { createApi, createAuthenticator, createTaskService, loadAuthFile, startHttpServer, type RunningHttpServer } from '@jacobian/mcp-api';
import { createRunner } from '@jacobian/runner';
import { createChecker } from '@jacobian/checker';
import type { JacobianConfig } from './config.js';
import type { ClusterEnvironment } from './cluster-config.js';
import type { Logger } from './log.js';
import { startOpsServer } from './ops-server.js';
import { ensurePortFree, listenError } from './port.js';
import { startupProbes } from './probes.js';
import { providerSkippedReported, reportProviders } from './telemetry.js';
import { clusterReasoningLog } from './reasoning.js';
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
class Cleanups {
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

/**
 * At debug level, one line when this API process hands a run to the queue and one when its
 * answer comes back (identity, target and outcome, never payloads): with the runners' lines, a
 * run's path through the cluster can be followed in the logs.
 */
function loggedQueue(log: Logger, queue: RunQueue): RunQueue {
  return {
    submit(run, target, options) {
      log.debug('run submitted', { job_id: run.job_id, capability_id: run.capability_id, mode: run.mode, target: targetPool(target) });
      return queue.submit(run, target, options).then((result) => {
        log.debug('run answered', { job_id: run.job_id, status: result.execution.status });
        return result;
      });
    },
    stats: () => queue.stats(),
    close: () => queue.close(),
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
async function serveOps(env: ClusterEnvironment, readiness: Readiness, telemetry: RoleTelemetry, cleanups: Cleanups, log: Logger): Promise<string | undefined> {
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
function roleReadiness(...more: string[]): Readiness {
  return explainReadiness(createReadiness(['redis', EVICTION_POLICY_CHECK, 'artifacts', ...more]));
}

/**
 * Shared start-up of every role: Redis (reachable, and its eviction policy checked) and the
 * artifact store, both checked before anything serves. `area` is where the role writes artifacts: the checker writes in the `records` area
 * (`<prefix>records/`), so bucket permissions can let it alone write verification records.
 */
async function connect(
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

/** `jacobian api`: MCP over HTTP; admits runs onto the queues; computes nothing. */
export function startApiRole(
  env: ClusterEnvironment,
  config: JacobianConfig,
  http: { host: string; port: number },
  log: Logger,
  telemetry: RoleTelemetry,
): Promise<RunningRole> {
  return startRole(async (cleanups) => {
    // Before anything connects: a port another process holds fails now, with the way out.
    await ensurePortFree(http.host, http.port);
    const readiness = roleReadiness();
    const opsUrl = await serveOps(env, readiness, telemetry, cleanups, log);
    // Checked before anything connects: a bad auth file stops the role at once.
    const auth = config.authFile === undefined ? undefined : createAuthenticator(loadAuthFile(config.authFile));
    const trusted = new Map<string, KeyObject>();
    for (const path of env.JACOBIAN_CHECKER_PUBLIC_KEYS ?? []) {
      const key = await loadPublicKey(path);
      trusted.set(keyId(key), key);
    }
    const { redis, artifacts, artifactsFor } = await connect(env, cleanups, log, readiness);
    const catalog = await createLiveCatalogSource({
      redis,
      prefix: env.JACOBIAN_PREFIX,
      refreshMs: Math.max(250, Math.floor(env.JACOBIAN_HEARTBEAT_TTL_MS / 5)),
      onError: (error) => log.warn('catalog refresh failed', { error: error.message }),
      onChange: (digest, ids) => log.info('catalog changed', { digest, capabilities: ids.length }),
    });
    cleanups.add(() => catalog.close());
    // The depth of every queue the catalog's capabilities are served from.
    telemetry.metrics.watchQueueDepths(() => {
      const targets = new Map<string, RunTarget>();
      for (const { descriptor } of catalog.current()) {
        const target = runTargetOf(descriptor);
        targets.set(defaultRunQueueName(target), target);
      }
      return readQueueDepths(redis, env.JACOBIAN_PREFIX, [...targets.values()]);
    });
    // Closed after the queue (cleanups run in reverse), so runs finishing meanwhile still record their outcomes.
    const reasoning = clusterReasoningLog(config.reasoningMode, env, createRedisReasoningLogStore);
    cleanups.add(() => reasoning.close());
    const queue = loggedQueue(
      log,
      createBullmqRunQueue({
        connection: { url: env.REDIS_URL },
        prefix: env.JACOBIAN_PREFIX,
        onError: (error) => log.warn('queue error', { error: error.message }),
      }),
    );
    cleanups.add(() => queue.close());
    const api = createApi({
      installed: () => catalog.current(),
      policy: config.policy,
      queue,
      artifacts,
      trustedCheckerKeys: trusted,
      reasoning: reasoning.log,
      tenants: { artifacts: artifactsFor, reasoning: (tenant) => reasoning.logFor(tenant) },
    });
    // Task state in Redis: a task outlives this process, and any API process answers for it.
    const taskStore = createRedisTaskStore({ connection: { url: env.REDIS_URL }, prefix: env.JACOBIAN_PREFIX });
    cleanups.add(() => taskStore.close());
    const tasks = createTaskService({ store: taskStore, onError: (error) => log.warn('task error', { error: error.message }) });
    const server: RunningHttpServer = await startHttpServer({
      api,
      tasks,
      host: http.host,
      port: http.port,
      ...(auth === undefined ? {} : { auth }),
      ops: { readiness, metrics: telemetry.metrics },
      onError: (error) => log.warn('mcp http error', { error: error.message }),
    }).catch((error: unknown) => {
      throw listenError(error, http.host, http.port);
    });
    cleanups.add(() => server.close());
    log.info('serving MCP over Streamable HTTP', {
      url: server.url,
      role: 'api',
      capabilities: catalog.current().length,
      reasoning_mode: config.reasoningMode,
      ...(opsUrl === undefined ? {} : { ops_url: opsUrl }),
    });
    return `api at ${server.url}`;
  });
}

/**
 * What the runner and checker roles share once their executor is ready: a BullMQ worker on
 * their queues, then the heartbeat that puts their capabilities in the catalog. Cleanups run
 * in reverse, so a stopping process leaves the catalog before it drains.
 */
async function takeWork(options: {
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
async function startRole(build: (cleanups: Cleanups) => Promise<string>): Promise<RunningRole> {
  const cleanups = new Cleanups();
  try {
    const description = await build(cleanups);
    return { description, close: () => cleanups.run() };
  } catch (error) {
    await cleanups.run().catch(() => undefined);
    throw error;
  }
}

/** `jacobian runner --pools a,b`: executes producer runs of its pools and advertises what it offers. */
export function startRunnerRole(env: ClusterEnvironment, config: JacobianConfig, pools: readonly string[], log: Logger, telemetry: RoleTelemetry): Promise<RunningRole> {
  return startRole(async (cleanups) => {
    const readiness = roleReadiness('providers');
    const opsUrl = await serveOps(env, readiness, telemetry, cleanups, log);
    const { redis, artifacts, artifactsFor } = await connect(env, cleanups, log, readiness);
    const executor = createProcessPool({ size: config.concurrency });
    cleanups.add(() => executor.close());
    const probes = startupProbes(log, config.dataDir);
    const runner = await createRunner({ artifacts, artifactsFor, executor, pools, providers: { onProviderSkipped: providerSkippedReported(log, telemetry.metrics), health: probes.health, onProbe: probes.onProbe } });
    probes.done();
    for (const provider of runner.unavailable) log.warn('provider unavailable; its capabilities are not offered', provider);
    reportProviders(telemetry.metrics, runner.installed, runner.unavailable);
    readiness.provide('providers', () => Promise.resolve());
    await takeWork({
      env,
      config,
      log,
      cleanups,
      redis,
      role: 'runner',
      targets: pools.map((pool) => ({ kind: 'pool', pool })),
      handler: (run, signal, onProgress) => runner.handle(run, signal, onProgress),
      shards: runner.shards,
      descriptors: runner.installed.map((c) => c.descriptor),
      telemetry,
    });
    log.info('runner taking jobs', { pools, capabilities: runner.installed.map((c) => c.descriptor.id), ...(opsUrl === undefined ? {} : { ops_url: opsUrl }) });
    return `runner for ${pools.join(', ')}`;
  });
}

/** `jacobian checker`: the only role with the authorization list and the signing key. */
export function startCheckerRole(env: ClusterEnvironment, config: JacobianConfig, log: Logger, telemetry: RoleTelemetry): Promise<RunningRole> {
  return startRole(async (cleanups) => {
    const readiness = roleReadiness('providers');
    const opsUrl = await serveOps(env, readiness, telemetry, cleanups, log);
    const signingKey = await loadSigningKey(env.JACOBIAN_CHECKER_KEY_FILE as string);
    const { redis, artifacts, artifactsFor } = await connect(env, cleanups, log, readiness, 'records');
    const executor = createProcessPool({ size: config.concurrency });
    cleanups.add(() => executor.close());
    const checker = await createChecker({ artifacts, artifactsFor, executor, authorization: config.authorization, signingKey });
    reportProviders(telemetry.metrics, checker.installed, []);
    readiness.provide('providers', () => Promise.resolve());
    await takeWork({
      env,
      config,
      log,
      cleanups,
      redis,
      role: 'checker',
      targets: [{ kind: 'checker' }],
      handler: (run, signal, onProgress) => checker.handle(run, signal, onProgress),
      descriptors: checker.installed.map((c) => c.descriptor),
      telemetry,
    });
    log.info('checker taking jobs', { key_id: signingKey.keyId, checkers: checker.identities.map((i) => i.checker_id), ...(opsUrl === undefined ? {} : { ops_url: opsUrl }) });
    return 'checker';
  });
}
