/**
 * `jacobian serve`: every role in one process (startEmbedded), MCP over Streamable HTTP. The
 * embedded default loads every workspace; the cluster roles each load their own.
 */
import { createAuthenticator, createTaskService, loadAuthFile, startHttpServer } from '@jacobian/mcp-api';
import { artifactStoreCheck, createMemoryTaskStore, createReadiness } from '@jacobian/shared';
import { parseHttp, waitForSignal, type CommandContext } from './command.js';
import { logStart, startEmbedded, whenProvidersChecked } from './embedded.js';
import { ensurePortFree, listenError } from './port.js';
import { startupProbes } from './probes.js';
import { providerSkippedReported, reportProviders } from './telemetry.js';

export async function run(context: CommandContext): Promise<number> {
  const { config, log, command } = context;
  const telemetry = await context.startTelemetry();
  const { host, port } = parseHttp(context.options.host, context.options.port);
  const auth = config.authFile === undefined ? undefined : createAuthenticator(loadAuthFile(config.authFile));
  const signalled = waitForSignal();
  // Before the slow part of start-up: a port another process holds fails now, not after it.
  await ensurePortFree(host, port);
  log.debug('starting', { command });
  const metrics = telemetry.metrics;
  const probes = startupProbes(log, config.dataDir);
  const jacobian = await startEmbedded(config, { onProviderSkipped: providerSkippedReported(log, metrics), health: probes.health, onProbe: probes.onProbe });
  // Providers were probed by startEmbedded, but for those still being checked (ready once
  // they have been); the local artifact folder is the one dependency left to check.
  const readiness = createReadiness(['artifacts', 'providers']);
  readiness.provide('artifacts', artifactStoreCheck(jacobian.artifacts));
  const checked = whenProvidersChecked(jacobian, log, probes, () => {
    probes.done();
    reportProviders(metrics, [...jacobian.runner.installed, ...jacobian.checker.installed], jacobian.runner.unavailable);
  });
  void checked.then(() => readiness.provide('providers', () => Promise.resolve()));
  const onError = (error: Error): void => log.warn('mcp http error', { error: error.message });
  // Embedded runs live in this process, so their tasks do too.
  const tasks = createTaskService({ store: createMemoryTaskStore(), onError });
  let http;
  try {
    http = await startHttpServer({ api: jacobian.api, host, port, ...(auth === undefined ? {} : { auth }), tasks, onError, ops: { readiness, metrics } });
  } catch (error) {
    await jacobian.close().catch(() => undefined);
    throw listenError(error, host, port);
  }
  // Started means serving: logged once the port is listened on.
  logStart(log, jacobian, config.dataDir);
  log.info('serving MCP over Streamable HTTP', { url: http.url });
  const signal = await signalled;
  log.info('shutting down', { signal });
  probes.stopping();
  await http.close();
  await jacobian.close();
  // A check still running ended with the pool; its outcome is logged before the process exits.
  await checked;
  return 0;
}
