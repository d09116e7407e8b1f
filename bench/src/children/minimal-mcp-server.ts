/**
 * The peer of the math.find benchmark: the smallest stateless MCP server on the same SDK and
 * the same HTTP stack as Jacobian's (createMcpHandler with a per-request McpServer factory,
 * createMcpHonoApp's Host/Origin guards and JSON body parser, @hono/node-server), serving one
 * trivial tool, `ping`, with an input and an output schema and a small structuredContent.
 * Logs the same "serving MCP over Streamable HTTP" line as Jacobian; closes on SIGTERM.
 */
import { serve, type ServerType } from '@hono/node-server';
import { createMcpHonoApp } from '@modelcontextprotocol/hono';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

const host = '127.0.0.1';

function createServer(): McpServer {
  const server = new McpServer({ name: 'minimal', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'ping',
    {
      description: 'Answers with a small structured object.',
      inputSchema: z.object({}),
      outputSchema: z.object({ ok: z.boolean(), server: z.string() }),
    },
    () => ({ content: [{ type: 'text', text: '{"ok":true,"server":"minimal"}' }], structuredContent: { ok: true, server: 'minimal' } }),
  );
  return server;
}

const mcp = createMcpHandler(() => createServer(), { legacy: 'stateless' });
const app = createMcpHonoApp({ host });
app.all('/mcp', (c) => mcp.fetch(c.req.raw, { parsedBody: (c.var as { parsedBody?: unknown }).parsedBody }));
const server = await new Promise<ServerType>((resolve, reject) => {
  const started = serve({ fetch: app.fetch, port: 0, hostname: host }, () => resolve(started));
  started.once('error', reject);
});
const { port } = server.address() as AddressInfo;
process.stderr.write(`${JSON.stringify({ level: 'info', msg: 'serving MCP over Streamable HTTP', url: `http://${host}:${port}/mcp` })}\n`);

// Diagnostics: SIGUSR2 logs memory usage (after a full GC when started with --expose-gc).
process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  process.stderr.write(`${JSON.stringify({ level: 'info', msg: 'memory', ...process.memoryUsage() })}\n`);
});

process.once('SIGTERM', () => {
  void (async () => {
    await mcp.close();
    (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    server.close(() => process.exit(0));
  })();
});
