import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import type { CommandModule } from './command.js';
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
 * Each command's module, loaded alone when that command runs. A cluster role's image installs
 * the production dependencies of its own workspace only (see its Dockerfile): `api`, `runner`
 * and `checker` load their role's workspace and shared, never another role's, and `checkers`
 * the checker's (test/src/infra/role-images.test.ts holds each to it). `serve` and `stdio` run
 * every role in one process and load every workspace.
 */
const COMMANDS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  serve: () => import('./serve-command.js'),
  stdio: () => import('./stdio-command.js'),
  api: () => import('./api-role.js'),
  runner: () => import('./runner-role.js'),
  checker: () => import('./checker-role.js'),
  checkers: () => import('./checkers-command.js'),
};

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
  const load = COMMANDS[command];
  if (load === undefined) throw new Error(`unknown command ${command}; see jacobian --help`);
  // Loaded only now, so --help and --version answer without loading the system.
  const [{ loadConfig }, { startTelemetry }, module] = await Promise.all([import('./config.js'), import('./telemetry.js'), load().catch(notInstalled(command))]);
  const config = await loadConfig(process.env);
  const log: Logger = createLogger(config.logLevel);
  return module.run({
    command,
    options: values,
    config,
    env: process.env,
    log,
    // Metrics, and tracing when configured; spans still buffered are exported before the process exits.
    async startTelemetry() {
      const telemetry = await startTelemetry(command, VERSION, process.env, log);
      stopTelemetry = () => telemetry.close();
      return telemetry;
    },
    stopTelemetry: () => stopTelemetry(),
  });
}

/** A command whose module cannot load here: a role image carries its own role's workspace only. */
function notInstalled(command: string): (error: unknown) => never {
  return (error) => {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(`jacobian ${command} is not installed here (a role image carries its own role only): ${(error as Error).message}`, { cause: error });
  };
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
