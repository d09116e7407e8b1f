type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string, fields?: object): void;
  info(message: string, fields?: object): void;
  warn(message: string, fields?: object): void;
  error(message: string, fields?: object): void;
}

/**
 * JSON lines on stderr: stdout belongs to the MCP stdio protocol. Fields are metadata such
 * as IDs and counts, never payloads.
 */
export function createLogger(level: Level): Logger {
  const write = (at: Exclude<Level, 'silent'>, message: string, fields?: object): void => {
    if (RANK[at] < RANK[level]) return;
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: at, msg: message, ...fields })}\n`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

/** Log a preferred provider that failed its probe while a fallback serves its capabilities. */
export function providerSkipped(log: Logger): (provider: string, reason: string) => void {
  return (provider, reason) => log.warn('provider unavailable; a fallback provider serves its capabilities', { provider, reason });
}
