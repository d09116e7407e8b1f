/**
 * `jacobian runner`: the runner role. It loads the runner's workspace and shared, never the MCP
 * API's or the checker's, so that the runner image carries only their dependencies.
 */
import { createProcessPool } from '@jacobian/shared';
import { createRunner } from '@jacobian/runner';
import type { ClusterEnvironment } from './cluster-config.js';
import type { CommandContext } from './command.js';
import type { JacobianConfig } from './config.js';
import type { Logger } from './log.js';
import { startupProbes } from './probes.js';
import { connect, roleReadiness, runClusterRole, serveOps, startRole, takeWork, type RoleTelemetry, type RunningRole } from './roles.js';
import { providerSkippedReported, reportProviders } from './telemetry.js';

export function run(context: CommandContext): Promise<number> {
  return runClusterRole(context, 'runner', (env, telemetry) => {
    const { pools: option } = context.options;
    const pools = option !== undefined ? option.split(',').map((p) => p.trim()).filter((p) => p.length > 0) : (env.JACOBIAN_POOLS ?? ['light', 'heavy']);
    if (pools.length === 0) throw new Error('--pools: give at least one pool name');
    return startRunnerRole(env, context.config, pools, context.log, telemetry);
  });
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

