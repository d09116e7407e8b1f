/**
 * A server span and a duration for every MCP request the API answers, after the OpenTelemetry
 * semantic conventions for MCP: span name `{mcp.method.name} {target}` (the tool of a
 * tools/call, the prompt of a prompts/get; the method alone otherwise), kind SERVER, and the
 * attributes `mcp.method.name`, `jsonrpc.request.id`, `gen_ai.tool.name` with
 * `gen_ai.operation.name` = `execute_tool` for tool calls, `gen_ai.prompt.name`,
 * `mcp.resource.uri` for resources/read, `mcp.session.id` where the transport has a session,
 * `mcp.protocol.version`, `network.transport`, and on failure `rpc.response.status_code` and
 * `error.type`.
 *
 * Transport-free: the SDK's transports (see instrumentMcpTransport) and the API's tool lane both
 * report through {@link startMcpRequest}. Nothing here reads arguments, results or prompt
 * variables (the conventions make those opt-in; they may hold payloads).
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

import { activeMetrics, activeTracer } from './instrumentation.js';

/** The MCP span attributes (OpenTelemetry semantic conventions, development status). */
export const McpAttribute = {
  method: 'mcp.method.name',
  requestId: 'jsonrpc.request.id',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  resourceUri: 'mcp.resource.uri',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  transport: 'network.transport',
  statusCode: 'rpc.response.status_code',
  errorType: 'error.type',
} as const;

/**
 * JSON-RPC error codes that mean the caller sent something this server could not serve: not an
 * error of the server (the conventions' list for server spans).
 */
const CALLER_ERRORS = new Set([-32700, -32600, -32601, -32602, -32002]);

/** The `_meta` key under which a client may put the current protocol version (2026-era requests). */
const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

export interface McpRequestOptions {
  /** `pipe` for stdio, `tcp` for Streamable HTTP. */
  transport: 'pipe' | 'tcp';
  /** The transport's session, if it has one (stateless HTTP and stdio have none). */
  sessionId?: string | undefined;
  /** The negotiated protocol version, when the transport knows it. */
  protocolVersion?: string | undefined;
  /**
   * Whether a tool or prompt name is one this server registered. Only those name the span and
   * label the duration: a client may send any name, and names must stay a bounded set.
   */
  isKnown?: (kind: 'tool' | 'prompt', name: string) => boolean;
  /** The context the span starts under when the request carries no trace context of its own (default: the active one). */
  parent?: Context;
}

/** An MCP request being served: run its handler in `context`, and `end` it with the response. */
export interface McpRequestTelemetry {
  readonly context: Context;
  /** Call `work` with this request's span as the active context. */
  run<T>(work: () => T): T;
  /** Record the response (a JSON-RPC result or error); idempotent. */
  end(response: unknown): void;
  /** Record that the request ended with no response (the connection closed); idempotent. */
  abandon(reason: string): void;
}

interface RequestLike {
  id?: unknown;
  method: string;
  params?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const metaGetter = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** The span name and attributes of a request, before its response. */
export function mcpRequestAttributes(request: RequestLike, options: Pick<McpRequestOptions, 'transport' | 'sessionId' | 'protocolVersion' | 'isKnown'>): { name: string; attributes: Attributes; target?: { tool?: string; prompt?: string } } {
  const params = isObject(request.params) ? request.params : {};
  const attributes: Attributes = { [McpAttribute.method]: request.method, [McpAttribute.transport]: options.transport };
  if (typeof request.id === 'string' || typeof request.id === 'number') attributes[McpAttribute.requestId] = String(request.id);
  if (options.sessionId !== undefined) attributes[McpAttribute.sessionId] = options.sessionId;
  const meta = isObject(params['_meta']) ? params['_meta'] : undefined;
  const version = options.protocolVersion ?? (typeof meta?.[PROTOCOL_VERSION_META_KEY] === 'string' ? meta[PROTOCOL_VERSION_META_KEY] : undefined);
  if (version !== undefined) attributes[McpAttribute.protocolVersion] = version;
  const name = typeof params['name'] === 'string' ? params['name'] : undefined;
  let spanName = request.method;
  let target: { tool?: string; prompt?: string } | undefined;
  if (request.method === 'tools/call' && name !== undefined) {
    attributes[McpAttribute.toolName] = name;
    attributes[McpAttribute.operationName] = 'execute_tool';
    if (options.isKnown?.('tool', name) === true) {
      spanName = `tools/call ${name}`;
      target = { tool: name };
    }
  } else if (request.method === 'prompts/get' && name !== undefined) {
    attributes[McpAttribute.promptName] = name;
    if (options.isKnown?.('prompt', name) === true) {
      spanName = `prompts/get ${name}`;
      target = { prompt: name };
    }
  } else if (request.method.startsWith('resources/') && typeof params['uri'] === 'string') {
    // Resource URIs name content digests and catalog entries, not payloads.
    attributes[McpAttribute.resourceUri] = params['uri'].slice(0, 256);
  }
  return target === undefined ? { name: spanName, attributes } : { name: spanName, attributes, target };
}

/** The error type of a response, or undefined for a success: the JSON-RPC code, or `tool_error` for a tool result with isError. */
function outcomeOf(response: unknown): { code?: number; errorType?: string } {
  if (!isObject(response)) return {};
  const error = response['error'];
  if (isObject(error) && typeof error['code'] === 'number') return { code: error['code'], errorType: String(error['code']) };
  const result = response['result'];
  if (isObject(result) && result['isError'] === true) return { errorType: 'tool_error' };
  return {};
}

/**
 * Start the span and the clock of one request, with the tracer and metrics installed in this
 * process; undefined when neither is. A trace context in the request's `params._meta`
 * (`traceparent`, as the conventions suggest) is the span's parent; otherwise `options.parent`
 * or the active context (the HTTP request's span).
 */
export function startMcpRequest(request: RequestLike, options: McpRequestOptions): McpRequestTelemetry | undefined {
  const tracer = activeTracer();
  const metrics = activeMetrics();
  if (tracer === undefined && metrics === undefined) return undefined;
  const started = performance.now();
  const { name, attributes, target } = mcpRequestAttributes(request, options);
  let parent = options.parent ?? context.active();
  let span: Span | undefined;
  if (tracer !== undefined) {
    const meta = isObject(request.params) && isObject(request.params['_meta']) ? request.params['_meta'] : undefined;
    if (meta !== undefined && typeof meta['traceparent'] === 'string') parent = propagation.extract(parent, meta, metaGetter);
    span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
  }
  const active = span === undefined ? parent : trace.setSpan(parent, span);
  let ended = false;
  const finish = (errorType: string | undefined, code: number | undefined): void => {
    if (ended) return;
    ended = true;
    if (span !== undefined) {
      if (code !== undefined) span.setAttribute(McpAttribute.statusCode, String(code));
      if (errorType !== undefined) span.setAttribute(McpAttribute.errorType, errorType);
      // A caller's mistake (unknown method, invalid params) and a tool's own error result are
      // not failures of this server; the status names the code only (messages may quote input).
      if (errorType !== undefined && errorType !== 'tool_error' && (code === undefined || !CALLER_ERRORS.has(code))) span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
      span.end();
    }
    metrics?.mcpOperation({
      method: request.method,
      ...(target?.tool === undefined ? {} : { tool: target.tool }),
      ...(target?.prompt === undefined ? {} : { prompt: target.prompt }),
      ...(errorType === undefined ? {} : { errorType }),
      transport: options.transport,
      seconds: (performance.now() - started) / 1000,
    });
  };
  return {
    context: active,
    run: (work) => context.with(active, work),
    end(response) {
      const { code, errorType } = outcomeOf(response);
      finish(errorType, code);
    },
    abandon(reason) {
      finish(reason, undefined);
    },
  };
}

/** The members of an MCP SDK transport this instrumentation uses (structural, so shared needs no MCP SDK). */
export interface McpTransportLike {
  onmessage?: ((message: never, extra?: never) => void) | undefined;
  onclose?: (() => void) | undefined;
  send(message: never, options?: never): Promise<void>;
  readonly sessionId?: string | undefined;
}

export interface InstrumentTransportOptions {
  transport: 'pipe' | 'tcp';
  isKnown?: McpRequestOptions['isKnown'];
}

type Handler = (message: unknown, extra?: unknown) => void;

/**
 * Report every request `transport` delivers (see startMcpRequest), from the message's arrival to
 * the response the server sends on it; call before the server connects to it. The handler the
 * server installs runs with the request's span active, so the server's own spans (math.run,
 * admission, the queue's producer span) are its children. A request left unanswered when the
 * transport closes ends as `connection_closed`. With neither tracer nor metrics installed the
 * transport is returned untouched.
 */
export function instrumentMcpTransport<T extends McpTransportLike>(transport: T, options: InstrumentTransportOptions): T {
  if (activeTracer() === undefined && activeMetrics() === undefined) return transport;
  const open = new Map<string | number, McpRequestTelemetry>();
  const requestOptions = (): McpRequestOptions => ({ transport: options.transport, sessionId: transport.sessionId, ...(options.isKnown === undefined ? {} : { isKnown: options.isKnown }) });
  const wrap = (handler: Handler): Handler => (message, extra) => {
    if (!isObject(message) || typeof message['method'] !== 'string') {
      handler(message, extra);
      return;
    }
    const id = message['id'];
    const telemetry = startMcpRequest(message as unknown as RequestLike, requestOptions());
    if (telemetry === undefined) {
      handler(message, extra);
      return;
    }
    if (typeof id === 'string' || typeof id === 'number') {
      open.get(id)?.abandon('superseded');
      open.set(id, telemetry);
      telemetry.run(() => handler(message, extra));
    } else {
      // A notification: no response ends it, its delivery does.
      try {
        telemetry.run(() => handler(message, extra));
      } finally {
        telemetry.end(undefined);
      }
    }
  };
  // Chain whatever `onmessage` is now (a plain property, or another wrapper's accessor).
  const own = Object.getOwnPropertyDescriptor(transport, 'onmessage');
  const initial = own?.value as Handler | undefined;
  let wrapped: Handler | undefined = initial === undefined ? undefined : wrap(initial);
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (own?.get === undefined ? wrapped : (own.get.call(transport) as Handler | undefined)),
    set: (handler: Handler | undefined) => {
      wrapped = handler === undefined ? undefined : wrap(handler);
      if (own?.set !== undefined) own.set.call(transport, wrapped);
    },
  });
  const send = transport.send.bind(transport) as (message: unknown, sendOptions?: unknown) => Promise<void>;
  (transport as unknown as { send: (message: unknown, sendOptions?: unknown) => Promise<void> }).send = (message, sendOptions) => {
    if (isObject(message) && !('method' in message) && (typeof message['id'] === 'string' || typeof message['id'] === 'number')) {
      const telemetry = open.get(message['id']);
      if (telemetry !== undefined) {
        open.delete(message['id']);
        telemetry.end(message);
      }
    }
    return send(message, sendOptions);
  };
  // The server keeps an onclose set before it connects and calls it first.
  const onclose = transport.onclose;
  transport.onclose = () => {
    for (const telemetry of open.values()) telemetry.abandon('connection_closed');
    open.clear();
    onclose?.();
  };
  return transport;
}
