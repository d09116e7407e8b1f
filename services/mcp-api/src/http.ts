import { getRequestListener } from '@hono/node-server';
import { createMcpHonoApp } from '@modelcontextprotocol/hono';
import {
  bearerAuthChallengeResponse,
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  verifyBearerToken,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import { activeTracer, answerOps, connectionAccepted, createReadiness, listenHttp, serveTraced, type OpsEndpoints } from '@jacobian/shared';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Api } from './api.js';
import { tenantOf, type Authenticator } from './auth.js';
import type { TaskService } from './tasks.js';
import { createModernToolLane, type LaneMethod, type LaneTool } from './fast-lane.js';
import { malformedRequestAnswer } from './request-guard.js';
import { createMcpServer, SERVER_INFO } from './mcp-server.js';
import { readRequest } from './request-target.js';
import { findToolResult, runToolResult, TOOLS } from './tools.js';

export interface HttpServerOptions {
  api: Api;
  host: string;
  port: number;
  onError?: (error: Error) => void;
  /**
   * Serve 2026-07-28 tool calls of math.find and math.run without a per-request MCP server
   * (see fast-lane.ts). Default true; false sends every request through the SDK.
   */
  toolLane?: boolean;
  /**
   * Require a bearer token on /mcp (see auth.ts), and publish the protected resource metadata.
   * Absent: no authentication (the default for a server bound to loopback).
   */
  auth?: Authenticator;
  /**
   * Long math.run calls as MCP tasks, for clients that declare the tasks extension (see
   * tasks.ts). Absent: every call is answered on its own request.
   */
  tasks?: TaskService;
  /** /readyz and /metrics (see answerOps); absent: /readyz answers ready and /metrics is not served. */
  ops?: OpsEndpoints;
}

export interface RunningHttpServer {
  readonly url: string;
  readonly port: number;
  /** Requests answered so far by the tool lane and by the SDK's handler. */
  stats(): { toolLane: number; sdk: number };
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'];

/** A request that passed authentication carries its AuthInfo here, for the SDK's handlers. */
type AuthenticatedMessage = IncomingMessage & { jacobianAuth?: AuthInfo };

/** A short JSON refusal; the request body is not read, so the connection closes after it. */
function refuse(response: ServerResponse, status: 400 | 404, message: string): void {
  const body = JSON.stringify({ error: status === 400 ? 'bad_request' : 'not_found', message });
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.end(body);
}

/** Write a web Response (an auth challenge) to a node response; the request body is not read. */
async function sendResponse(answer: Response, response: ServerResponse): Promise<void> {
  const body = await answer.text();
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // The unread body would otherwise keep the connection busy; close it after the answer.
  headers['connection'] = 'close';
  response.writeHead(answer.status, headers);
  response.end(body);
}

/**
 * Streamable HTTP at /mcp. One endpoint serves current-protocol clients and older
 * (2025) clients statelessly; each request the SDK serves gets its own MCP server over the
 * shared API, and current-protocol tool calls take the tool lane, which answers them the same
 * way without one. Host and Origin are checked against loopback names when bound to loopback.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const auth = options.auth;
  /** The API view a request is served by: its tenant's when it authenticated as one. */
  const apiFor = (authInfo: AuthInfo | undefined): Api => (authInfo === undefined ? options.api : options.api.forTenant(tenantOf(authInfo)));
  const tasks = options.tasks;
  // Stateless: no Mcp-Session-Id is issued, so no request has a session and MCP spans carry no
  // mcp.session.id (the conventions set it where there is one; see instrumentMcpTransport).
  const mcp = createMcpHandler((context) => createMcpServer(apiFor(context.authInfo), { tasks: tasks !== undefined }), {
    legacy: 'stateless',
    ...(options.onError ? { onerror: options.onError } : {}),
  });
  const app = createMcpHonoApp({ host: options.host });
  app.all('/mcp', (c) => {
    const authInfo = (c.env as { incoming?: AuthenticatedMessage } | undefined)?.incoming?.jacobianAuth;
    const parsedBody = (c.var as { parsedBody?: unknown }).parsedBody;
    // A malformed 2025-era initialize: -32602 naming the field, not the SDK's -32603 (see request-guard.ts).
    const refusal = c.req.method === 'POST' ? malformedRequestAnswer(parsedBody) : undefined;
    if (refusal !== undefined) return c.json(refusal, 200);
    return mcp.fetch(c.req.raw, { parsedBody, ...(authInfo === undefined ? {} : { authInfo }) });
  });
  const ops = options.ops ?? { readiness: createReadiness([]) };
  // Probes stay open; with bearer authentication on, the metrics (capability IDs, run counts)
  // are not given to whoever reaches the MCP port: the operations port serves them.
  for (const route of auth === undefined ? ['/healthz', '/readyz', '/metrics'] : ['/healthz', '/readyz']) {
    app.get(route, async (c) => {
      const answer = await answerOps(ops, route);
      return c.body(answer?.body ?? '', (answer?.status ?? 404) as 200, { 'content-type': answer?.contentType ?? 'text/plain' });
    });
  }
  const viaApp = getRequestListener(app.fetch);

  // The same guards createMcpHonoApp installs for a loopback host.
  const loopback = LOOPBACK_HOSTS.includes(options.host);
  const tools = new Map<string, LaneTool>([
    [TOOLS.find.name, { cancellable: false, call: (args, _signal, request) => findToolResult(apiFor((request as AuthenticatedMessage).jacobianAuth), args) }],
    [
      TOOLS.run.name,
      {
        cancellable: true,
        call: (args, signal, request, meta) => {
          const api = apiFor((request as AuthenticatedMessage).jacobianAuth);
          return tasks?.declared(meta) === true ? tasks.callRun(api, args, signal) : runToolResult(api, args, signal);
        },
        // A client that declared tasks reads a long run's progress with tasks/get.
        progressElsewhere: (meta) => tasks?.declared(meta) === true,
      },
    ],
  ]);
  const apiOf = (request: IncomingMessage): Api => apiFor((request as AuthenticatedMessage).jacobianAuth);
  const methods =
    tasks === undefined
      ? undefined
      : new Map<string, LaneMethod>([
          ['tasks/get', (params, request) => tasks.get(apiOf(request), params)],
          ['tasks/cancel', (params, request) => tasks.cancel(apiOf(request), params)],
          ['tasks/update', (params, request) => tasks.update(apiOf(request), params)],
        ]);
  const lane =
    options.toolLane === false
      ? undefined
      : createModernToolLane({
          tools,
          ...(methods === undefined ? {} : { methods }),
          serverInfo: SERVER_INFO,
          ...(loopback ? { allowedHostnames: localhostAllowedHostnames(), allowedOrigins: localhostAllowedOrigins() } : {}),
          maxBodyBytes: DEFAULT_MAX_REQUEST_BODY_SIZE,
          ...(options.onError ? { onError: options.onError } : {}),
        });

  const counts = { toolLane: 0, sdk: 0 };
  const metadataPaths = new Set(auth?.metadataPaths ?? []);
  const metadataBody = auth === undefined ? '' : JSON.stringify(auth.metadata);

  function serve(request: IncomingMessage, response: ServerResponse): void {
    if (lane?.claims(request)) {
      lane.serve(
        request,
        response,
        () => counts.toolLane++,
        (body) => {
          counts.sdk++;
          // The SDK's path reads the body we already consumed from this buffer.
          (request as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
          void viaApp(request, response);
        },
      );
      return;
    }
    counts.sdk++;
    void viaApp(request, response);
  }

  /** Routes answered without a token when authentication is on; every other path needs one. */
  const openPaths = new Set(['/healthz', '/readyz']);

  const server = createServer((request, response) => {
    // Before any routing or tracing: one canonical reading of the target for every reader.
    const reading = readRequest(request, metadataPaths);
    if (!reading.ok) {
      refuse(response, 400, reading.reason);
      return;
    }
    const path = reading.path;
    const tracer = activeTracer();
    // A server span per MCP request; the operations routes (probes, scrapes) are not traced.
    if (tracer !== undefined && path === '/mcp') serveTraced(tracer, '/mcp', request, response, () => accept(request, response, path));
    else accept(request, response, path);
  });
  // Connections waiting to be accepted go before the runs' large steps (see connectionAccepted).
  server.on('connection', connectionAccepted);

  /**
   * Authenticate on the path the request reaches (the canonical one, which the lane and the
   * app route on): with authentication on, every path but the open probes and the metadata
   * needs a token, unknown paths included, so that no route can be reached around it.
   */
  function accept(request: IncomingMessage, response: ServerResponse, path: string): void {
    if (auth === undefined) {
      serve(request, response);
      return;
    }
    if (metadataPaths.has(path)) {
      // RFC 9728: public, so that a client refused with 401 can find the authorization server.
      const allow = request.method === 'GET' || request.method === 'HEAD';
      response.writeHead(allow ? 200 : 405, { 'content-type': 'application/json', 'access-control-allow-origin': '*', ...(allow ? {} : { allow: 'GET, HEAD' }) });
      response.end(allow && request.method === 'GET' ? metadataBody : undefined);
      return;
    }
    if (path === '/metrics') {
      // Served on the operations port only when authentication is on (see the routes above).
      refuse(response, 404, 'not served on this port');
      return;
    }
    if (openPaths.has(path)) {
      serve(request, response);
      return;
    }
    verifyBearerToken(request.headers.authorization, {
      verifier: auth.verifier,
      requiredScopes: [...auth.requiredScopes],
      resourceMetadataUrl: auth.resourceMetadataUrl,
      expectedResource: new URL(auth.metadata.resource),
    }).then(
      (info) => {
        (request as AuthenticatedMessage).jacobianAuth = info;
        serve(request, response);
      },
      (error: unknown) => {
        void sendResponse(bearerAuthChallengeResponse(error, { requiredScopes: [...auth.requiredScopes], resourceMetadataUrl: auth.resourceMetadataUrl }), response);
      },
    );
  }
  const listening = await listenHttp(server, options.host, options.port);
  let closing: Promise<void> | undefined;
  return {
    url: `${listening.origin}/mcp`,
    port: listening.port,
    stats: () => ({ ...counts }),
    close() {
      closing ??= (async () => {
        await mcp.close();
        await new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        });
      })();
      return closing;
    },
  };
}
