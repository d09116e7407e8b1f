import { format, parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { createLogger, type Logger } from './log.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const HELP = `jacobian ${VERSION}: a mathematical toolbox for AI agents, over MCP

Usage:
  jacobian serve [--host 127.0.0.1] [--port 8752]   every role in one process; MCP over Streamable HTTP at /mcp
  jacobian stdio                                    every role in one process; MCP over stdin/stdout
  jacobian api [--host 127.0.0.1] [--port 8752]     cluster role: MCP over HTTP, admits runs to Redis queues
  jacobian runner [--pools light,heavy]             cluster role: runs producer capabilities of its pools
  jacobian checker                                  cluster role: independent checkers, signs verification records
  jacobian keygen --out DIR                         write a checker key pair (checker-ed25519.pem, checker-ed25519.pub.pem)
  jacobian checkers                                 print the identities of the bundled checkers (for authorization files)
  jacobian --help | --version

Environment:
  JACOBIAN_DATA_DIR               artifacts and the checker key (default $XDG_DATA_HOME/jacobian or ~/.local/share/jacobian)
  JACOBIAN_CONCURRENCY            runs executing at once (default: number of CPUs)
  JACOBIAN_POLICY_FILE            JSON operator policy {profile, hidden_ids, hidden_domains, hidden_tags, hidden_modes}
  JACOBIAN_POLICY_PROFILE         DEFAULT or COMPUTE_VERIFY_NO_RETRIEVAL
  JACOBIAN_HIDE_IDS, _DOMAINS, _TAGS, _MODES   comma-separated additions to the policy
  JACOBIAN_CHECKER_AUTHORIZATION  'bundled' (default), 'none', or a JSON file {"authorized":[{"checker_id","checker_digest"}]}
  JACOBIAN_LOG_LEVEL              debug, info (default), warn, error, silent (logs go to stderr)
  JACOBIAN_REASONING_MODE         OFF (default: no reasoning.write tool), AUDIT (record protocol breaches) or REQUIRED
                                  (math.run must carry the current BEFORE_TOOL's IDs); the log is kept in
                                  $JACOBIAN_DATA_DIR/reasoning (embedded) or in Redis (cluster api)

Cluster roles (api, runner, checker) also read:
  REDIS_URL                       redis://host:port shared by every role (required)
  S3_BUCKET, S3_REGION, S3_ENDPOINT, S3_PREFIX, S3_FORCE_PATH_STYLE   the artifact store; credentials from the AWS chain
  JACOBIAN_PREFIX                 Redis key prefix of this deployment (default jacobian)
  JACOBIAN_POOLS                  pools a runner serves when --pools is not given (default light,heavy)
  JACOBIAN_CHECKER_KEY_FILE       the checker's Ed25519 private key (checker; required)
  JACOBIAN_CHECKER_PUBLIC_KEYS    comma-separated public key files whose records the API trusts (api; required)
  JACOBIAN_HEARTBEAT_TTL_MS       how long a registration outlives its last heartbeat (default 15000)
  JACOBIAN_DRAIN_GRACE_MS         how long a stopping runner lets running jobs finish (default 30000)
  JACOBIAN_OPS_HOST               address of the operations server: GET /healthz, /readyz, /metrics (default 127.0.0.1)
  JACOBIAN_OPS_PORT               its port (default 9464; 0 picks a free port, logged in the ready line; off: none)
                                  (the api also answers /healthz, /readyz and /metrics on its MCP port, as serve does)

Tracing and metrics over OTLP (every command that serves; off unless an endpoint is set):
  OTEL_EXPORTER_OTLP_ENDPOINT     OTLP/HTTP collector, e.g. http://127.0.0.1:4318 (spans go to <endpoint>/v1/traces and
                                  metrics to <endpoint>/v1/metrics, as JSON)
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT   full URLs, instead of the above
  OTEL_EXPORTER_OTLP_HEADERS      headers of every export, key=value,...
  OTEL_METRIC_EXPORT_INTERVAL     milliseconds between metric pushes (default 60000); OTEL_METRICS_EXPORTER=none: no push
  OTEL_SERVICE_NAME               service name (default jacobian-<command>, e.g. jacobian-runner)
  OTEL_RESOURCE_ATTRIBUTES        extra resource attributes, key=value,...
  OTEL_TRACES_SAMPLER             default parentbased_always_on (OTEL_TRACES_SAMPLER_ARG for ratios)
  OTEL_TRACES_EXPORTER            none: no spans are exported (the SDK is not loaded)
  OTEL_SDK_DISABLED               true turns tracing and the metric push off whatever else is set
`;

/**
 * Resolves with the first SIGINT or SIGTERM. Called before a role starts, so a signal that
 * arrives during start-up (probing providers, connecting to Redis) no longer kills the process
 * at once, leaving its pool children behind: start-up completes, then the role shuts down.
 */
function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      host: { type: 'string' },
      port: { type: 'string' },
      pools: { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = positionals[0] ?? 'serve';
  if (positionals.length > 1) throw new Error(`unexpected argument ${positionals[1]}; see jacobian --help`);
  if (command !== 'serve' && command !== 'api' && (values.host !== undefined || values.port !== undefined)) {
    throw new Error('--host and --port apply to jacobian serve and jacobian api only');
  }
  if (command !== 'runner' && values.pools !== undefined) throw new Error('--pools applies to jacobian runner only');
  if (command !== 'keygen' && values.out !== undefined) throw new Error('--out applies to jacobian keygen only');
  if (command === 'keygen') {
    if (values.out === undefined) throw new Error('jacobian keygen needs --out DIR');
    const path = await import('node:path');
    const { writeSigningKeyPair } = await import('@jacobian/shared');
    const privateKey = path.join(values.out, 'checker-ed25519.pem');
    const publicKey = path.join(values.out, 'checker-ed25519.pub.pem');
    const id = await writeSigningKeyPair(privateKey, publicKey);
    process.stdout.write(`${JSON.stringify({ key_id: id, private_key: privateKey, public_key: publicKey })}\n`);
    return 0;
  }
  // Loaded only now, so --help and --version answer without loading the system.
  const [
    { loadConfig },
    { startEmbedded },
    { createAuthenticator, createTaskService, loadAuthFile, startHttpServer, startStdioServer },
    { artifactStoreCheck, createMemoryTaskStore, createReadiness },
    { providerSkippedReported, reportProviders, startTelemetry },
    { startupProbes },
    { ensurePortFree, listenError },
  ] = await Promise.all([import('./config.js'), import('./embedded.js'), import('@jacobian/mcp-api'), import('@jacobian/shared'), import('./telemetry.js'), import('./probes.js'), import('./port.js')]);
  const config = await loadConfig(process.env);
  const log: Logger = createLogger(config.logLevel);
  if (command === 'checkers') {
    // One-shot and serves nothing: no telemetry.
    const jacobian = await startEmbedded({ ...config, concurrency: 1 }, { health: startupProbes(log, config.dataDir).health });
    process.stdout.write(`${JSON.stringify({ authorized: jacobian.checker.identities.map(({ checker_id, checker_digest }) => ({ checker_id, checker_digest })) }, null, 2)}\n`);
    await jacobian.close();
    return 0;
  }
  // Metrics, and tracing when configured; spans still buffered are exported before the process exits.
  const telemetry = await startTelemetry(command, VERSION, process.env, log);
  stopTelemetry = () => telemetry.close();
  switch (command) {
    case 'serve': {
      const { host, port } = parseHttp(values.host, values.port);
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
    case 'stdio': {
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
        void stopTelemetry()
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
    case 'api':
    case 'runner':
    case 'checker': {
      const { loadClusterEnvironment } = await import('./cluster-config.js');
      const roles = await import('./roles.js');
      const env = loadClusterEnvironment(process.env, command);
      // BullMQ warns with console.warn (a Redis version it does not recommend, an eviction policy
      // other than noeviction): as plain text, that would break the JSON lines of the log.
      console.warn = (...args: unknown[]) => log.warn('library warning', { message: format(...args) });
      const roleTelemetry = { metrics: telemetry.metrics };
      const signalled = waitForSignal();
      log.debug('starting', { command });
      let role;
      if (command === 'api') {
        role = await roles.startApiRole(env, config, parseHttp(values.host, values.port), log, roleTelemetry);
      } else if (command === 'runner') {
        const pools = values.pools !== undefined ? values.pools.split(',').map((p) => p.trim()).filter((p) => p.length > 0) : (env.JACOBIAN_POOLS ?? ['light', 'heavy']);
        if (pools.length === 0) throw new Error('--pools: give at least one pool name');
        role = await roles.startRunnerRole(env, config, pools, log, roleTelemetry);
      } else {
        role = await roles.startCheckerRole(env, config, log, roleTelemetry);
      }
      const signal = await signalled;
      log.info('shutting down', { signal, role: role.description });
      await role.close();
      return 0;
    }
    default:
      throw new Error(`unknown command ${command}; see jacobian --help`);
  }
}

function parseHttp(host: string | undefined, port: string | undefined): { host: string; port: number } {
  const parsed = port === undefined ? 8752 : Number(port);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new Error(`--port: ${port} is not a port number (0-65535)`);
  return { host: host ?? '127.0.0.1', port: parsed };
}

/** What `serve` and `stdio` log of an embedded start (see startEmbedded). */
interface StartedJacobian {
  readonly api: { catalog(): { capabilities: readonly unknown[] } };
  readonly runner: { readonly unavailable: readonly { provider: string; reason: string }[]; readonly pending: readonly { provider: string }[]; readonly settled: Promise<void> };
}

function logStart(log: Logger, jacobian: StartedJacobian, dataDir: string): void {
  for (const provider of jacobian.runner.unavailable) log.warn('provider unavailable; its capabilities are not registered', provider);
  const pending = jacobian.runner.pending.map((entry) => entry.provider);
  log.info('jacobian started', { capabilities: jacobian.api.catalog().capabilities.length, data_dir: dataDir, ...(pending.length > 0 ? { providers_being_checked: pending } : {}) });
}

/**
 * Once no provider is still being checked: `done` runs, and the outcome of each that was is
 * logged (its capabilities registered, or it failed and they never are).
 */
function whenProvidersChecked(jacobian: StartedJacobian, log: Logger, probes: { readonly stopped: boolean }, done: () => void): Promise<void> {
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

/** Set once telemetry started: flushes and stops it, whichever way the command ends. */
let stopTelemetry: () => Promise<void> = () => Promise.resolve();

main(process.argv.slice(2)).then(
  async (code) => {
    await stopTelemetry().catch(() => undefined);
    process.exit(code);
  },
  async (error: unknown) => {
    process.stderr.write(`jacobian: ${error instanceof Error ? error.message : String(error)}\n`);
    await stopTelemetry().catch(() => undefined);
    process.exit(2);
  },
);
