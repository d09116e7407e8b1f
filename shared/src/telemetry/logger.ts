/**
 * The JSON log lines of every process: pino, one object per line, `time` (ISO 8601), `level`
 * as text, `msg`, then the call's fields; and `trace_id`/`span_id` when a span is active, so a
 * line can be found from its trace. Fields are metadata (IDs, counts, codes), never payloads.
 */
import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger } from 'pino';

import { activeTracer } from './instrumentation.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** The active span's IDs, when tracing is on and a span is active (pino merges the line's fields into what this returns). */
function traceFields(): object {
  if (activeTracer() === undefined) return {};
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * A pino logger writing to `destination` (default: stderr, synchronously, so that the last
 * lines before an exit are not lost; stdout belongs to MCP stdio).
 */
export function createJsonLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: traceFields,
    },
    destination ?? pino.destination({ fd: 2, sync: true }),
  );
}
