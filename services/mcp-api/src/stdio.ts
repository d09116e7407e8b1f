import type { Readable, Writable } from 'node:stream';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Api } from './api.js';
import { guardRequests } from './request-guard.js';
import { createMcpServer } from './mcp-server.js';

/**
 * MCP over this process's stdin/stdout, for desktop clients. stdout carries protocol only.
 * `streams` replaces stdin and stdout (tests).
 */
export function startStdioServer(api: Api, onError?: (error: Error) => void, streams?: { stdin: Readable; stdout: Writable }): { close(): Promise<void> } {
  // A malformed initialize is answered -32602 before the SDK sees it (see request-guard.ts).
  const transport = guardRequests(streams === undefined ? new StdioServerTransport() : new StdioServerTransport(streams.stdin, streams.stdout), onError);
  return serveStdio(() => createMcpServer(api), { transport, ...(onError ? { onerror: onError } : {}) });
}
