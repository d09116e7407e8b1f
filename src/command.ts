import type { JacobianConfig } from './config.js';
import type { Logger } from './log.js';
import type { ProcessTelemetry } from './telemetry.js';

/** The command line's options, as parsed by the CLI (each command checks those it takes). */
export interface CommandOptions {
  readonly host?: string | undefined;
  readonly port?: string | undefined;
  readonly pools?: string | undefined;
}

/** What the CLI gives the module of the command it runs. */
export interface CommandContext {
  readonly command: string;
  readonly options: CommandOptions;
  readonly config: JacobianConfig;
  /** The process environment, read by the command's configuration schema only. */
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  /** Metrics, and tracing when configured; for commands that serve (a one-shot command starts none). */
  startTelemetry(): Promise<ProcessTelemetry>;
  /** Exports the spans still buffered and stops telemetry; the CLI also calls it whichever way the command ends. */
  stopTelemetry(): Promise<void>;
}

/** A command's module: `run` resolves with the process's exit code. */
export interface CommandModule {
  run(context: CommandContext): Promise<number>;
}

/**
 * Resolves with the first SIGINT or SIGTERM. Called before a role starts, so a signal that
 * arrives during start-up (probing providers, connecting to Redis) no longer kills the process
 * at once, leaving its pool children behind: start-up completes, then the role shuts down.
 */
export function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

/** `--host` and `--port` of serve and api. */
export function parseHttp(host: string | undefined, port: string | undefined): { host: string; port: number } {
  const parsed = port === undefined ? 8752 : Number(port);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new Error(`--port: ${port} is not a port number (0-65535)`);
  return { host: host ?? '127.0.0.1', port: parsed };
}
