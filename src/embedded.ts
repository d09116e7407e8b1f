import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import {
  createEmbeddedRunQueue,
  createLocalFolderArtifactStore,
  createProcessPool,
  loadOrCreateSigningKey,
  tenantScopes,
  type ArtifactStore,
  type RunHandler,
} from '@jacobian/shared';
import { createApi, type Api } from '@jacobian/mcp-api';
import { createRunner, type Runner, type RunnerRegistrationOptions } from '@jacobian/runner';
import { createChecker, type CheckerService } from '@jacobian/checker';
import type { JacobianConfig } from './config.js';
import type { Logger } from './log.js';
import { embeddedReasoningLog } from './reasoning.js';

export interface EmbeddedJacobian {
  readonly api: Api;
  readonly runner: Runner;
  readonly checker: CheckerService;
  /** The default tenant's artifact store (for the readiness check of `serve`). */
  readonly artifacts: ArtifactStore;
  close(): Promise<void>;
}

/**
 * Every role in one process with embedded defaults: the in-process run queue, a local
 * artifact folder, an isolated process pool for kernels, the checker's key in the data dir,
 * and (when JACOBIAN_REASONING_MODE is not OFF) the reasoning log in `<data dir>/reasoning`.
 *
 * It resolves once every provider but the deferrable ones has been probed: z3-solver, when its
 * health check still runs (a cold start), is `runner.pending` until it ends, math.find says so,
 * and a math.run of one of its capabilities waits for it; `runner.settled` resolves then.
 */
export async function startEmbedded(
  config: JacobianConfig,
  options: RunnerRegistrationOptions = {},
): Promise<EmbeddedJacobian> {
  // Long-lived stores: their shard folders are made up front rather than by the first put into each.
  const artifacts = createLocalFolderArtifactStore({ root: join(config.dataDir, 'artifacts'), prepareShardFolders: true, journal: true });
  // The pool's idle children boot once start-up is over: nothing at start needs them, and they
  // would take the CPU the provider probes need (a task before then starts a child for itself).
  // So does a slow health check not remembered (z3-solver's in a new data dir): start-up does not
  // wait for it (deferSlowProviders below), and it would only slow the rest down.
  let startedUp: () => void = () => undefined;
  const startUp = new Promise<void>((resolve) => (startedUp = resolve));
  const executor = createProcessPool({ size: config.concurrency, warmAfter: startUp });
  const cleanups: (() => Promise<void>)[] = [() => executor.close(), () => artifacts.close()];
  const closeAll = async (): Promise<void> => {
    // Every cleanup runs even if an earlier one fails.
    const results = await Promise.allSettled(cleanups.splice(0).map((cleanup) => cleanup()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  try {
    const signingKey = await loadOrCreateSigningKey(join(config.dataDir, 'keys', 'checker-ed25519.pem'));
    // A named tenant's artifacts live in their own folder, `<data dir>/artifacts/tenants/<tenant>`.
    const tenantArtifacts = tenantScopes(artifacts, (tenant) => createLocalFolderArtifactStore({ root: join(config.dataDir, 'artifacts', 'tenants', tenant), prepareShardFolders: true, journal: true }), (store) => store.close());
    cleanups.push(() => tenantArtifacts.close());
    const artifactsFor = (tenant: string): ArtifactStore => tenantArtifacts.of(tenant);
    // Independent of each other: the runner's provider probes and the checker's identities (digests of its code) at once.
    const [runner, checker] = await Promise.all([
      // Served before z3-solver's health check ends (a cold start): see the runner's deferSlowProviders.
      createRunner({ artifacts, artifactsFor, executor, providers: { ...options, slowChecksAfter: startUp }, deferSlowProviders: true }),
      createChecker({ artifacts, artifactsFor, executor, authorization: config.authorization, signingKey }),
    ]);
    const pools = new Map<string, RunHandler>(runner.pools.map((pool) => [pool, (run, signal, onProgress) => runner.handle(run, signal, onProgress)]));
    // A file store holds nothing open until used; it is closed with the queue, below.
    const reasoning = embeddedReasoningLog(config.reasoningMode, config.dataDir);
    const queue = createEmbeddedRunQueue({ pools, checker: (run, signal, onProgress) => checker.handle(run, signal, onProgress), concurrency: config.concurrency, shards: runner.shards });
    // The log closes once the queue has drained, so runs finishing meanwhile still record their outcomes.
    cleanups.unshift(() => queue.close().finally(() => reasoning.close()));
    // A new list only when the runner's changes (a pending provider's capabilities joined): the
    // API rebuilds its catalog when the list it is given is a new one.
    let offered = { runner: runner.installed, all: [...runner.installed, ...checker.installed] };
    const installed = (): typeof offered.all => {
      if (offered.runner !== runner.installed) offered = { runner: runner.installed, all: [...runner.installed, ...checker.installed] };
      return offered.all;
    };
    const trusted = new Map<string, KeyObject>([[signingKey.keyId, signingKey.publicKey]]);
    const api = createApi({
      installed,
      pending: () => runner.pending,
      policy: config.policy,
      queue,
      artifacts,
      trustedCheckerKeys: trusted,
      reasoning: reasoning.log,
      tenants: { artifacts: artifactsFor, reasoning: (tenant) => reasoning.logFor(tenant) },
    });
    return { api, runner, checker, artifacts, close: closeAll };
  } catch (error) {
    await closeAll().catch(() => undefined);
    throw error;
  } finally {
    startedUp();
  }
}

/** What `serve` and `stdio` log of an embedded start (see startEmbedded). */
interface StartedJacobian {
  readonly api: { catalog(): { capabilities: readonly unknown[] } };
  readonly runner: { readonly unavailable: readonly { provider: string; reason: string }[]; readonly pending: readonly { provider: string }[]; readonly settled: Promise<void> };
}

export function logStart(log: Logger, jacobian: StartedJacobian, dataDir: string): void {
  for (const provider of jacobian.runner.unavailable) log.warn('provider unavailable; its capabilities are not registered', provider);
  const pending = jacobian.runner.pending.map((entry) => entry.provider);
  log.info('jacobian started', { capabilities: jacobian.api.catalog().capabilities.length, data_dir: dataDir, ...(pending.length > 0 ? { providers_being_checked: pending } : {}) });
}

/**
 * Once no provider is still being checked: `done` runs, and the outcome of each that was is
 * logged (its capabilities registered, or it failed and they never are).
 */
export function whenProvidersChecked(jacobian: StartedJacobian, log: Logger, probes: { readonly stopped: boolean }, done: () => void): Promise<void> {
  const pending = jacobian.runner.pending.map((entry) => entry.provider);
  return jacobian.runner.settled.then(() => {
    for (const provider of pending) {
      const failed = jacobian.runner.unavailable.find((entry) => entry.provider === provider);
      if (failed === undefined) log.info('provider checked; its capabilities are registered', { provider, capabilities: jacobian.api.catalog().capabilities.length });
      // Shutting down stops a check still running: that is not the provider failing.
      else if (probes.stopped) log.info('provider check ended by the shutdown', failed);
      else log.warn('provider unavailable; its capabilities are not registered', failed);
    }
    done();
  });
}
