import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Api } from './api.js';
import { createMcpServer } from './mcp-server.js';

/** MCP over this process's stdin/stdout, for desktop clients. stdout carries protocol only. */
export function startStdioServer(api: Api, onError?: (error: Error) => void): { close(): Promise<void> } {
  return serveStdio(() => createMcpServer(api), onError ? { onerror: onError } : {});
}
