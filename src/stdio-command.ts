/** `jacobian stdio`: every role in one process (startEmbedded), MCP over stdin and stdout. */
import { startStdioServer } from '@jacobian/mcp-api';
import { waitForSignal, type CommandContext } from './command.js';
import { logStart, startEmbedded, whenProvidersChecked } from './embedded.js';
import { startupProbes } from './probes.js';
import { providerSkippedReported, reportProviders } from './telemetry.js';

export async function run(context: CommandContext): Promise<number> {
  const { config, log, command } = context;
  const telemetry = await context.startTelemetry();
  const signalled = waitForSignal();
  log.debug('starting', { command });
  // Metrics have no scrape endpoint here; they are pushed when OTLP metrics are configured.
  const probes = startupProbes(log, config.dataDir);
  const starting = startEmbedded(config, { onProviderSkipped: providerSkippedReported(log, telemetry.metrics), health: probes.health, onProbe: probes.onProbe });
  // Served while the providers are probed: the handshake is answered at once (a client's
  // first request has a timeout), and calls that need the catalog wait for it.
  const ready = starting.then((jacobian) => jacobian.api);
  ready.catch(() => undefined); // a failed start is reported below, as the command's error
  const server = startStdioServer({ reasoningMode: config.reasoningMode, ready }, (error) => log.warn('mcp stdio error', { error: error.message }));
  // The client closing stdin ends the session; so do the usual signals.
  let started = false;
  const ended = new Promise<string>((resolve) => process.stdin.once('end', () => resolve('stdin closed')));
  // Closed during start-up with every request answered, the session is over before it began:
  // typically the SDK client's probe process, started only to answer server/discover while
  // the client starts the one it talks to. Finishing start-up would take the CPU that one
  // needs, so this process exits at once: the process pool kills its children on exit, the
  // native tools' shells die with this process (pdeathsig), and what start-up writes is
  // written whole (temporary file, then rename or link) or is only a cache.
  void ended.then(() => {
    if (started || server.unanswered() > 0) return;
    log.info('stdin closed during start-up; exiting');
    void context.stopTelemetry()
      .catch(() => undefined)
      .finally(() => process.exit(0));
  });
  let jacobian;
  try {
    jacobian = await starting;
  } catch (error) {
    await server.close().catch(() => undefined);
    throw error;
  }
  started = true;
  logStart(log, jacobian, config.dataDir);
  const running = jacobian;
  const checked = whenProvidersChecked(jacobian, log, probes, () => {
    probes.done();
    reportProviders(telemetry.metrics, [...running.runner.installed, ...running.checker.installed], running.runner.unavailable);
  });
  const reason = await Promise.race([signalled, ended]);
  log.info('shutting down', { reason });
  probes.stopping();
  await server.close();
  await jacobian.close();
  // A check still running ended with the pool; its outcome is logged before the process exits.
  await checked;
  return 0;
}
