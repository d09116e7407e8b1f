/**
 * Calibration only: a bare node:http server answering every POST with a fixed small JSON-RPC
 * result. Its rate under the load generator is the generator's ceiling on this machine, so the
 * report can show that the generator was not what limited the MCP servers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = JSON.stringify({ result: { content: [{ type: 'text', text: 'ok' }], structuredContent: { ok: true } }, jsonrpc: '2.0', id: 1 });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stderr.write(`${JSON.stringify({ level: 'info', msg: 'serving MCP over Streamable HTTP', url: `http://127.0.0.1:${port}/mcp` })}\n`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
