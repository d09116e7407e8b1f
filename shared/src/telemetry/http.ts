import { context, defaultTextMapGetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { IncomingMessage, ServerResponse } from 'node:http';

const propagator = new W3CTraceContextPropagator();

/**
 * Serve one HTTP request inside a server span named `<method> <route>`: the span continues the
 * caller's `traceparent` when it sends one, is the active context of `handle` and of every
 * listener later added to the request and response (their events fire outside `handle`'s
 * call), and ends when the response closes, failed on a 5xx. Only the method, route and status
 * are recorded: never headers (bearer tokens) or bodies.
 */
export function serveTraced(tracer: Tracer, route: string, request: IncomingMessage, response: ServerResponse, handle: () => void): void {
  const method = request.method ?? 'GET';
  const parent = propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
  const span = tracer.startSpan(
    `${method} ${route}`,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'http.route': route, 'url.scheme': 'http' } },
    parent,
  );
  const active = trace.setSpan(parent, span);
  response.once('close', () => {
    span.setAttribute('http.response.status_code', response.statusCode);
    if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${response.statusCode}` });
    span.end();
  });
  context.bind(active, request);
  context.bind(active, response);
  context.with(active, handle);
}
