/**
 * Raw MCP over Streamable HTTP: one JSON-RPC `tools/call` per POST on keep-alive connections,
 * with no SDK client in between, so the client's cost stays small next to the server's.
 *
 * Two envelopes:
 * - `modern` (protocol 2026-07-28): `_meta` envelope in the params plus the MCP-Protocol-Version,
 *   Mcp-Method and Mcp-Name headers; no handshake, answered with a JSON body.
 * - `legacy` (2025 era, stateless): a claim-less `tools/call` without `initialize`, answered
 *   by the stateless fallback over SSE (one `data:` event).
 */
import { Agent, request } from 'node:http';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';
export type Era = 'modern' | 'legacy';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'jacobian-bench', version: '0.1.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

export interface PreparedRequest {
  body: string;
  headers: Record<string, string>;
}

/** A `tools/call` POST in the given era. */
export function toolCall(era: Era, id: number, name: string, args: Record<string, unknown>): PreparedRequest {
  const params = era === 'modern' ? { name, arguments: args, _meta: MODERN_META } : { name, arguments: args };
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'content-length': String(Buffer.byteLength(body)),
  };
  if (era === 'modern') {
    headers['mcp-protocol-version'] = MODERN_PROTOCOL_VERSION;
    headers['mcp-method'] = 'tools/call';
    headers['mcp-name'] = name;
  }
  return { body, headers };
}

export interface RawResponse {
  status: number;
  contentType: string;
  body: string;
}

/** A keep-alive HTTP/1.1 client for one endpoint. */
/** A kept-alive socket that the server had closed (see {@link HttpClient.post}). */
class StaleSocketError extends Error {
  constructor(cause: Error) {
    super(`the kept-alive socket was closed by the server: ${cause.message}`, { cause });
  }
}

export class HttpClient {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;
  private readonly path: string;

  constructor(url: URL, maxSockets: number) {
    this.agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
    this.host = url.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(url.port || 80);
    this.path = url.pathname + url.search;
  }

  /**
   * POST a prepared request. A request sent on a kept-alive socket that the server closed as
   * idle meanwhile (ECONNRESET on a reused socket: the server's keep-alive timeout, 5 s, ran out
   * just as the request went) is sent once more on a new socket, as Node's documentation
   * advises; the server never read it.
   */
  async post(prepared: PreparedRequest): Promise<RawResponse> {
    try {
      return await this.postOnce(prepared);
    } catch (error) {
      if (!(error instanceof StaleSocketError)) throw error;
      return this.postOnce(prepared);
    }
  }

  private postOnce(prepared: PreparedRequest): Promise<RawResponse> {
    return new Promise<RawResponse>((resolve, reject) => {
      const req = request(
        { agent: this.agent, host: this.host, port: this.port, path: this.path, method: 'POST', headers: prepared.headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => reject(req.reusedSocket && error.code === 'ECONNRESET' ? new StaleSocketError(error) : error));
      req.end(prepared.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface ToolCallOutcome {
  /** The JSON-RPC result, if there was one. */
  result?: { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown[] };
  /** A JSON-RPC error, or a transport-level problem. */
  error?: string;
}

/** The JSON-RPC answer carried by a response, whether a JSON body or an SSE stream. */
export function parseToolCall(response: RawResponse): ToolCallOutcome {
  if (response.status !== 200) return { error: `HTTP ${response.status}: ${response.body.slice(0, 300)}` };
  const messages: string[] = [];
  if (response.contentType.startsWith('text/event-stream')) {
    for (const line of response.body.split('\n')) if (line.startsWith('data:')) messages.push(line.slice(5).trim());
  } else {
    messages.push(response.body);
  }
  for (const text of messages) {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      continue;
    }
    if (typeof message !== 'object' || message === null) continue;
    const { result, error } = message as { result?: ToolCallOutcome['result']; error?: { code?: number; message?: string } };
    if (result !== undefined) return { result };
    if (error !== undefined) return { error: `JSON-RPC ${error.code ?? '?'}: ${error.message ?? ''}` };
  }
  return { error: `no JSON-RPC answer in the response: ${response.body.slice(0, 300)}` };
}

/** Cheap per-response check for high-rate loops: HTTP 200, a result, and not a tool error. */
export function looksSuccessful(response: RawResponse): boolean {
  return response.status === 200 && response.body.includes('"result"') && !response.body.includes('"isError":true');
}
