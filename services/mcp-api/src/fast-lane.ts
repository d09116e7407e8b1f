/**
 * The modern tool-call lane: serves a 2026-07-28 `tools/call` of math.find or math.run over
 * HTTP without building an MCP server instance for it.
 *
 * The SDK's stateless entry builds and connects a fresh McpServer for every HTTP request and
 * converts every tool's schemas on it; for a tool call that is most of the request's cost. In the
 * 2026-07-28 protocol a tool call is self-contained (the `_meta` envelope carries the protocol
 * version, client info and capabilities; there is no session), so the answer does not need a
 * server instance: it needs the SDK's checks of the request and the same tool handlers.
 *
 * The lane takes a request only when it is certain the SDK would serve it as a plain tool call,
 * and hands everything else to the SDK unchanged (with the body it already read):
 *
 * - POST to exactly `/mcp` with a JSON content type and a declared Content-Length within the
 *   body limit, whose Host and Origin pass the same checks as the HTTP app's guards;
 * - `MCP-Protocol-Version` a supported modern revision, `Mcp-Method: tools/call`, and
 *   `Mcp-Name` one of the lane's tools, plain (no Base64 sentinel);
 * - a body that parses as JSON and that the SDK's own classifier ({@link classifyInboundRequest})
 *   routes as a modern request with the same revision; method `tools/call`, `params.name` equal
 *   to `Mcp-Name`, `params.arguments` a JSON object, and no params beyond name, arguments and
 *   `_meta`.
 *
 * What it answers is what the SDK answers for the same request: the tool result with
 * `resultType: "complete"` and the server info in `_meta`, as one JSON body with status 200.
 * A handler that throws is answered as the SDK answers it, with a tool error carrying the
 * message. The handlers send no notifications, so the SDK would never upgrade these answers to
 * a stream. A client that disconnects aborts the call's signal, which cancels a math.run.
 * A test sends the same requests through both paths and compares the answers. Each call it
 * answers is an MCP span and duration, as the SDK's requests are (see mcp-spans.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  isJsonContentType,
  SERVER_INFO_META_KEY,
  validateHostHeader,
  validateOriginHeader,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import { inOwnTurn, isPlainObject, startMcpRequest, type McpRequestTelemetry } from '@jacobian/shared';

type JsonObject = Record<string, unknown>;

/**
 * A tool the lane serves: the same function the MCP server registers for it. A cancellable
 * tool gets a signal that aborts when the client goes away; the others get none (making one
 * per call is a measurable share of a cached math.find).
 */
export type LaneTool =
  | {
      cancellable: true;
      call: (args: JsonObject, signal: AbortSignal, request: IncomingMessage, meta: JsonObject | undefined) => Promise<CallToolResult | JsonObject>;
      /**
       * Whether a call with this `_meta` reads its progress elsewhere (a task's `tasks/get`),
       * so that the lane serves it even when it carries a `progressToken`.
       */
      progressElsewhere?: (meta: JsonObject) => boolean;
    }
  | { cancellable: false; call: (args: JsonObject, signal: undefined, request: IncomingMessage) => CallToolResult };

/**
 * A method the SDK does not serve in the modern era, answered by the lane (the tasks
 * extension's tasks/get, tasks/update, tasks/cancel): a result object, or a JSON-RPC error.
 */
export type LaneMethod = (params: JsonObject, request: IncomingMessage) => Promise<JsonObject | { error: { code: number; message: string } }>;

export interface ModernToolLaneOptions {
  tools: ReadonlyMap<string, LaneTool>;
  serverInfo: { name: string; version: string };
  /** Host names the Host header may name; undefined: no Host check (the app has none either). */
  allowedHostnames?: readonly string[];
  /** Host names the Origin header may name; undefined: no Origin check. */
  allowedOrigins?: readonly string[];
  /** Extension methods by name; their requests carry the task ID as `Mcp-Name`. */
  methods?: ReadonlyMap<string, LaneMethod>;
  /** Requests declaring a longer body go to the SDK, which answers 413. */
  maxBodyBytes: number;
  /** A handler's thrown error, reported as the SDK's `onerror` would see it. */
  onError?: (error: Error) => void;
}

export interface ModernToolLane {
  /** Whether the request's line and headers make it a candidate; nothing is read yet. */
  claims(request: IncomingMessage): boolean;
  /**
   * Read the body and answer (calling `taken` first), or hand the request to `fallback` with the
   * body it read. A claimed request must be given to `serve` and nowhere else.
   */
  serve(request: IncomingMessage, response: ServerResponse, taken: () => void, fallback: (body: Buffer) => void): void;
}

/**
 * The modern revisions the SDK's handler serves. The SDK does not export its list; the parity
 * tests (http.test.ts) fail if the SDK stops answering one of these as the lane does.
 */
const MODERN_VERSIONS: readonly string[] = ['2026-07-28'];
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

/** One header's value as the Fetch API's `Headers.get` gives it (repeated values joined). */
function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** RFC 9110 optional whitespace (SP, HTAB) removed at both ends, as the SDK does. */
function stripOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

interface RoutedTool {
  kind: 'tool';
  id: string | number;
  tool: LaneTool;
  args: JsonObject;
  meta: JsonObject | undefined;
}
interface RoutedMethod {
  kind: 'method';
  id: string | number;
  method: LaneMethod;
  params: JsonObject;
}
type Routed = RoutedTool | RoutedMethod;

/** Bodies longer than this are parsed in a turn of the event loop of their own. */
const LARGE_BODY_BYTES = 64 * 1024;

export function createModernToolLane(options: ModernToolLaneOptions): ModernToolLane {
  const { tools, maxBodyBytes } = options;
  const allowedHostnames = options.allowedHostnames === undefined ? undefined : [...options.allowedHostnames];
  const allowedOrigins = options.allowedOrigins === undefined ? undefined : [...options.allowedOrigins];
  const serverInfoMeta = { [SERVER_INFO_META_KEY]: { ...options.serverInfo } };

  function claims(request: IncomingMessage): boolean {
    if (request.method !== 'POST' || request.url !== '/mcp') return false;
    if (!isJsonContentType(header(request, 'content-type'))) return false;
    const length = header(request, 'content-length');
    if (length === undefined || !/^\d+$/.test(length) || Number(length) > maxBodyBytes) return false;
    const version = header(request, 'mcp-protocol-version');
    if (version === undefined || !MODERN_VERSIONS.includes(stripOws(version))) return false;
    const method = header(request, 'mcp-method');
    if (method === undefined) return false;
    const name = header(request, 'mcp-name');
    if (name === undefined) return false;
    if (stripOws(method) === 'tools/call') {
      if (!tools.has(stripOws(name))) return false;
    } else if (options.methods?.has(stripOws(method)) !== true) return false;
    if (allowedHostnames !== undefined && !validateHostHeader(header(request, 'host'), allowedHostnames).ok) return false;
    if (allowedOrigins !== undefined && !validateOriginHeader(header(request, 'origin'), allowedOrigins).ok) return false;
    return true;
  }

  /** The tool call's id, arguments and handler, or undefined when the SDK must decide. */
  function route(request: IncomingMessage, body: unknown): Routed | undefined {
    const protocolVersionHeader = header(request, 'mcp-protocol-version');
    const mcpMethodHeader = header(request, 'mcp-method');
    const mcpNameHeader = header(request, 'mcp-name');
    const outcome = classifyInboundRequest({
      httpMethod: 'POST',
      body,
      ...(protocolVersionHeader === undefined ? {} : { protocolVersionHeader }),
      ...(mcpMethodHeader === undefined ? {} : { mcpMethodHeader }),
      ...(mcpNameHeader === undefined ? {} : { mcpNameHeader }),
    });
    if (outcome.kind !== 'modern' || outcome.messageKind !== 'request') return undefined;
    const revision = outcome.classification.revision;
    if (revision === undefined || revision !== stripOws(protocolVersionHeader ?? '')) return undefined;
    const message = outcome.message as { id: string | number; method: string; params?: unknown };
    if (!isPlainObject(message.params)) return undefined;
    const extension = options.methods?.get(message.method);
    if (extension !== undefined) {
      // The routing header names the task the params name.
      if (message.params['taskId'] !== stripOws(mcpNameHeader ?? '')) return undefined;
      return { kind: 'method', id: message.id, method: extension, params: message.params };
    }
    if (message.method !== 'tools/call') return undefined;
    const params = message.params;
    if (Object.keys(params).some((key) => !PARAM_KEYS.has(key))) return undefined;
    const name = params['name'];
    if (typeof name !== 'string' || name !== stripOws(mcpNameHeader ?? '')) return undefined;
    const tool = tools.get(name);
    const args = params['arguments'];
    if (tool === undefined || !isPlainObject(args)) return undefined;
    // A caller asking for progress gets notifications on the same call, which the SDK streams,
    // unless it reads the progress elsewhere.
    const meta = params['_meta'];
    if (isPlainObject(meta) && meta['progressToken'] !== undefined && !(tool.cancellable && tool.progressElsewhere?.(meta) === true)) return undefined;
    return { kind: 'tool', id: message.id, tool, args, meta: isPlainObject(meta) ? meta : undefined };
  }

  /** The lane's tools are the server's; the tasks methods name no tool or prompt. */
  const requestOptions = { transport: 'tcp', isKnown: (kind: 'tool' | 'prompt', name: string) => kind === 'tool' && tools.has(name) } as const;

  /** Serialized results, for tools that return the same result object again (math.find's cache). */
  const serialized = new WeakMap<object, string>();

  function answer(response: ServerResponse, id: string | number, result: CallToolResult | JsonObject, telemetry: McpRequestTelemetry | undefined): void {
    if (response.destroyed || response.headersSent) return;
    telemetry?.end({ result });
    let resultText = serialized.get(result);
    if (resultText === undefined) {
      // A task handle or a task method's result names its own resultType.
      const resultType = typeof result['resultType'] === 'string' ? result['resultType'] : 'complete';
      const meta = isPlainObject(result['_meta']) ? result['_meta'] : {};
      resultText = JSON.stringify({ ...result, resultType, _meta: { ...meta, ...serverInfoMeta } });
      serialized.set(result, resultText);
    }
    // The SDK's member order: result, jsonrpc, id.
    const text = `{"result":${resultText},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  }

  function answerError(response: ServerResponse, id: string | number, error: { code: number; message: string }, telemetry: McpRequestTelemetry | undefined): void {
    if (response.destroyed || response.headersSent) return;
    telemetry?.end({ error });
    const text = JSON.stringify({ jsonrpc: '2.0', id, error });
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  }

  function callMethod(request: IncomingMessage, response: ServerResponse, routed: RoutedMethod, telemetry: McpRequestTelemetry | undefined): void {
    routed.method(routed.params, request).then(
      (answered) => {
        if ('error' in answered && isPlainObject(answered['error']) && !('resultType' in answered)) answerError(response, routed.id, answered.error as { code: number; message: string }, telemetry);
        else answer(response, routed.id, answered, telemetry);
      },
      (error: unknown) => {
        const reported = toError(error);
        options.onError?.(reported);
        answerError(response, routed.id, { code: -32603, message: reported.message }, telemetry);
      },
    );
  }

  function call(request: IncomingMessage, response: ServerResponse, routed: RoutedTool, telemetry: McpRequestTelemetry | undefined): void {
    const toolError = (error: unknown): CallToolResult => {
      const reported = toError(error);
      options.onError?.(reported);
      return { content: [{ type: 'text', text: reported.message }], isError: true };
    };
    const { tool } = routed;
    if (!tool.cancellable) {
      let result: CallToolResult;
      try {
        result = tool.call(routed.args, undefined, request);
      } catch (error) {
        result = toolError(error);
      }
      answer(response, routed.id, result, telemetry);
      return;
    }
    const controller = new AbortController();
    const onClose = (): void => {
      if (!response.writableFinished) controller.abort(new Error('the client closed the connection'));
    };
    response.once('close', onClose);
    let pending: Promise<CallToolResult | JsonObject>;
    try {
      pending = tool.call(routed.args, controller.signal, request, routed.meta);
    } catch (error) {
      pending = Promise.resolve(toolError(error));
    }
    void pending.catch(toolError).then((result) => {
      response.off('close', onClose);
      answer(response, routed.id, result, telemetry);
    });
  }

  function serve(request: IncomingMessage, response: ServerResponse, taken: () => void, fallback: (body: Buffer) => void): void {
    const dispatch = (body: Buffer): void => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        fallback(body);
        return;
      }
      const routed = route(request, parsed);
      if (routed === undefined) {
        fallback(body);
        return;
      }
      taken();
      const telemetry = startMcpRequest(parsed as { method: string }, requestOptions);
      if (telemetry === undefined) {
        if (routed.kind === 'method') callMethod(request, response, routed, undefined);
        else call(request, response, routed, undefined);
        return;
      }
      // A client that goes away before the answer: the request ends unanswered.
      response.once('close', () => telemetry.abandon('connection_closed'));
      telemetry.run(() => (routed.kind === 'method' ? callMethod(request, response, routed, telemetry) : call(request, response, routed, telemetry)));
    };
    // Node's parser delivers exactly the declared Content-Length, which claims() bounded.
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('error', () => response.destroy());
    request.once('end', () => {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      // A large body (a 300 KB inline graph: tens of ms to parse) is parsed in a turn of the event
      // loop of its own (see inOwnTurn), so that twenty arriving together do not hold back every
      // other request on this thread.
      if (body.length > LARGE_BODY_BYTES) void inOwnTurn(() => dispatch(body)).catch(() => response.destroy());
      else dispatch(body);
    });
  }

  return { claims, serve };
}
