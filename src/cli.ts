import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { createLogger, type Logger } from './log.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const HELP = `jacobian ${VERSION}: a mathematical toolbox for AI agents, over MCP

Usage:
  jacobian serve [--host 127.0.0.1] [--port 8752]   every role in one process; MCP over Streamable HTTP at /mcp
  jacobian stdio                                    every role in one process; MCP over stdin/stdout
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
`;

async function waitForSignal(): Promise<string> {
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
  if (command !== 'serve' && (values.host !== undefined || values.port !== undefined)) {
    throw new Error('--host and --port apply to jacobian serve only');
  }
  // Loaded only now, so --help and --version answer without loading the system.
  const [{ loadConfig }, { startEmbedded }, { startHttpServer, startStdioServer }] = await Promise.all([
    import('./config.js'),
    import('./embedded.js'),
    import('@jacobian/mcp-api'),
  ]);
  const config = await loadConfig(process.env);
  const log: Logger = createLogger(config.logLevel);
  switch (command) {
    case 'serve': {
      const host = values.host ?? '127.0.0.1';
      const port = values.port === undefined ? 8752 : Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: ${values.port} is not a port number (0-65535)`);
      const jacobian = await startEmbedded(config);
      logStart(log, jacobian.runner.unavailable, jacobian.api.catalog().capabilities.length, config.dataDir);
      const http = await startHttpServer({ api: jacobian.api, host, port, onError: (error) => log.warn('mcp http error', { error: error.message }) });
      log.info('serving MCP over Streamable HTTP', { url: http.url });
      const signal = await waitForSignal();
      log.info('shutting down', { signal });
      await http.close();
      await jacobian.close();
      return 0;
    }
    case 'stdio': {
      const jacobian = await startEmbedded(config);
      logStart(log, jacobian.runner.unavailable, jacobian.api.catalog().capabilities.length, config.dataDir);
      const server = startStdioServer(jacobian.api, (error) => log.warn('mcp stdio error', { error: error.message }));
      // The client closing stdin ends the session; so do the usual signals.
      const reason = await Promise.race([
        waitForSignal(),
        new Promise<string>((resolve) => process.stdin.once('end', () => resolve('stdin closed'))),
      ]);
      log.info('shutting down', { reason });
      await server.close();
      await jacobian.close();
      return 0;
    }
    case 'checkers': {
      const jacobian = await startEmbedded({ ...config, concurrency: 1 });
      process.stdout.write(`${JSON.stringify({ authorized: jacobian.checker.identities.map(({ checker_id, checker_digest }) => ({ checker_id, checker_digest })) }, null, 2)}\n`);
      await jacobian.close();
      return 0;
    }
    default:
      throw new Error(`unknown command ${command}; see jacobian --help`);
  }
}

function logStart(log: Logger, unavailable: readonly { provider: string; reason: string }[], capabilities: number, dataDir: string): void {
  for (const provider of unavailable) log.warn('provider unavailable; its capabilities are not registered', provider);
  log.info('jacobian started', { capabilities, data_dir: dataDir });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`jacobian: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
