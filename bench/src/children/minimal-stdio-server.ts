/**
 * The peer of the start-up benchmark: the smallest MCP server over stdio on the same SDK and the
 * same transport as `jacobian stdio` (serveStdio with a per-connection McpServer factory), with
 * one tool named `math.find` that takes a query and answers a small structured object. Started
 * the way an MCP client starts `jacobian stdio`: plain `node` on compiled JavaScript. It exits
 * when its stdin closes, as `jacobian stdio` does.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

function createServer(): McpServer {
  const server = new McpServer({ name: 'minimal-stdio', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'math.find',
    {
      description: 'Answers with a small structured object.',
      inputSchema: z.object({ query: z.string() }),
      outputSchema: z.object({ results: z.array(z.object({ id: z.string() })) }),
    },
    () => ({ content: [{ type: 'text', text: '{"results":[{"id":"minimal"}]}' }], structuredContent: { results: [{ id: 'minimal' }] } }),
  );
  return server;
}

const server = serveStdio(() => createServer());
process.stdin.once('end', () => {
  void server.close().then(() => process.exit(0));
});
