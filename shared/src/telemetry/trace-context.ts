/**
 * W3C trace context through job data: the API side writes the producer span's `traceparent`
 * (and `tracestate`) into a job's `trace` field, the runner side continues the trace from it.
 * Only when tracing is on: with it off the field stays `{}` and nothing is read.
 */
import { context, defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

const propagator = new W3CTraceContextPropagator();

/**
 * The trace context of `from` (default: the active context) as job data fields: `traceparent`,
 * and `tracestate` when there is one. Empty when `from` holds no valid span context.
 */
export function injectTraceContext(from: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagator.inject(from, carrier, defaultTextMapSetter);
  return carrier;
}

/**
 * The context a consumer continues: the remote span that `carrier` names, on top of the root
 * context (never the consumer's ambient one). A carrier without a valid `traceparent` gives
 * the root context, so the consumer starts a trace of its own.
 */
export function extractTraceContext(carrier: Readonly<Record<string, string>>): Context {
  return propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
}
