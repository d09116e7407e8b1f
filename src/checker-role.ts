/**
 * `jacobian checker`: the checker role. It loads the checker's workspace and shared, never the
 * MCP API's or the runner's, so that the checker image carries only their dependencies.
 */
import { createProcessPool, loadSigningKey } from '@jacobian/shared';
import { createChecker } from '@jacobian/checker';
import type { ClusterEnvironment } from './cluster-config.js';
import type { CommandContext } from './command.js';
import type { JacobianConfig } from './config.js';
import type { Logger } from './log.js';
import { connect, roleReadiness, runClusterRole, serveOps, startRole, takeWork, type RoleTelemetry, type RunningRole } from './roles.js';
import { reportProviders } from './telemetry.js';

export function run(context: CommandContext): Promise<number> {
  return runClusterRole(context, 'checker', (env, telemetry) => startCheckerRole(env, context.config, context.log, telemetry));
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
