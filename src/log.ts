import { createJsonLogger, type LogLevel } from '@jacobian/shared/logger';

export interface Logger {
  debug(message: string, fields?: object): void;
  info(message: string, fields?: object): void;
  warn(message: string, fields?: object): void;
  error(message: string, fields?: object): void;
}

/**
 * JSON lines on stderr (pino): stdout belongs to the MCP stdio protocol. Each line has `time`
 * (ISO 8601), `level` as text and `msg`, then the fields, and `trace_id`/`span_id` while a
 * span is active. Fields are metadata such as IDs and counts, never payloads.
 */
export function createLogger(level: LogLevel): Logger {
  const log = createJsonLogger(level);
  return {
    debug: (m, f) => (f === undefined ? log.debug(m) : log.debug(f, m)),
    info: (m, f) => (f === undefined ? log.info(m) : log.info(f, m)),
    warn: (m, f) => (f === undefined ? log.warn(m) : log.warn(f, m)),
    error: (m, f) => (f === undefined ? log.error(m) : log.error(f, m)),
  };
}

/** Log a preferred provider that failed its probe while a fallback serves its capabilities. */
export function providerSkipped(log: Logger): (provider: string, reason: string) => void {
  return (provider, reason) => log.warn('provider unavailable; a fallback provider serves its capabilities', { provider, reason });
}
