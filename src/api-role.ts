/**
 * `jacobian api`: the API role. It loads the MCP API's workspace and shared, never the runner's
 * or the checker's, so that the API image carries only their dependencies.
 */
import type { KeyObject } from 'node:crypto';
import {
  defaultRunQueueName,
  createLiveCatalogSource,
  keyId,
  loadPublicKey,
  readQueueDepths,
  runTargetOf,
  targetPool,
  type RunQueue,
  type RunTarget,
} from '@jacobian/shared';
import { createBullmqRunQueue, createRedisReasoningLogStore, createRedisTaskStore } from '@jacobian/shared/redis';
import { createApi, createAuthenticator, createTaskService, loadAuthFile, startHttpServer, type RunningHttpServer } from '@jacobian/mcp-api';
import type { ClusterEnvironment } from './cluster-config.js';
import { parseHttp, type CommandContext } from './command.js';
import type { JacobianConfig } from './config.js';
import type { Logger } from './log.js';
import { ensurePortFree, listenError } from './port.js';
import { clusterReasoningLog } from './reasoning.js';
import { connect, roleReadiness, runClusterRole, serveOps, startRole, type RoleTelemetry, type RunningRole } from './roles.js';

export function run(context: CommandContext): Promise<number> {
  const http = parseHttp(context.options.host, context.options.port);
  return runClusterRole(context, 'api', (env, telemetry) => startApiRole(env, context.config, http, context.log, telemetry));
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

