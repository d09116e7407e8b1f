import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Api } from './api.js';
import { guardRequests } from './request-guard.js';
import { createMcpServer, type StartingApi } from './mcp-server.js';

/**
 * MCP over this process's stdin/stdout, for desktop clients. stdout carries protocol only.
 * `streams` replaces stdin and stdout (tests).
 *
 * Given an API still starting, it serves from the start: a client's handshake (the SDK client
 * probes with `server/discover` in a process of its own, then starts the one it talks to) is
 * answered at once, and the first math.find waits only for the catalog (see StartingApi).
 */
export function startStdioServer(
  api: Api | StartingApi,
  onError?: (error: Error) => void,
  streams?: { stdin: Readable; stdout: Writable },
): { close(): Promise<void>; unanswered(): number } {
  const wire = streams === undefined ? new StdioServerTransport() : new StdioServerTransport(streams.stdin, streams.stdout);
  // Requests received and not yet answered, counted on the wire.
  const open = new Set<string | number>();
  const send = wire.send.bind(wire);
  wire.send = (message: JSONRPCMessage) => {
    if (!('method' in message) && 'id' in message && message.id !== undefined) open.delete(message.id);
    return send(message);
  };
  // A malformed initialize is answered -32602 before the SDK sees it (see request-guard.ts).
  const transport = guardRequests(wire, onError, (message) => {
    if ('method' in message && 'id' in message) open.add(message.id);
  });
  const handle = serveStdio(() => createMcpServer(api, { transport: 'pipe' }), { transport, ...(onError ? { onerror: onError } : {}) });
  return { close: () => handle.close(), unanswered: () => open.size };
}
