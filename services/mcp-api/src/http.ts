import { serve, type ServerType } from '@hono/node-server';
import { createMcpHonoApp } from '@modelcontextprotocol/hono';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { AddressInfo } from 'node:net';
import type { Api } from './api.js';
import { createMcpServer } from './mcp-server.js';

export interface HttpServerOptions {
  api: Api;
  host: string;
  port: number;
  onError?: (error: Error) => void;
}

export interface RunningHttpServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Streamable HTTP at /mcp. One endpoint serves current-protocol clients and older
 * (2025) clients statelessly; each request gets its own MCP server over the shared API.
 * Host and Origin are checked against loopback names when bound to loopback.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const mcp = createMcpHandler(() => createMcpServer(options.api), {
    legacy: 'stateless',
    ...(options.onError ? { onerror: options.onError } : {}),
  });
  const app = createMcpHonoApp({ host: options.host });
  app.all('/mcp', (c) => mcp.fetch(c.req.raw, { parsedBody: (c.var as { parsedBody?: unknown }).parsedBody }));
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, () => resolve(started));
    started.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${address.port}/mcp`,
    port: address.port,
    close() {
      closing ??= (async () => {
        await mcp.close();
        await new Promise<void>((resolve) => {
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          server.close(() => resolve());
        });
      })();
      return closing;
    },
  };
}
