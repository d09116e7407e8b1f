/**
 * HTTP/1.1 over a raw TCP socket on loopback, for tests that must choose every byte of a
 * request (request targets no HTTP client would send, repeated headers, pipelining), and the
 * family of request-target variants the MCP endpoint's authentication is tested against.
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  /** Every response the server wrote, interim (1xx) ones included, in order. */
  responses: RawResponse[];
  /** Everything received, as latin1 text. */
  raw: string;
  /** The server closed the connection, or the expected responses were complete (rather than the bound running out). */
  closed: boolean;
}

/** Split what a server wrote on one connection into responses (content-length, chunked, or to the close). */
export function parseRawResponses(raw: string): RawResponse[] {
  return parseResponses(raw).responses;
}

/** The responses in `raw`, and how many final (non-1xx) ones are complete. */
function parseResponses(raw: string): { responses: RawResponse[]; completeFinal: number } {
  const responses: RawResponse[] = [];
  let completeFinal = 0;
  let rest = raw;
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const status = Number(statusLine.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    rest = rest.slice(end + 4);
    let body = '';
    let complete = false;
    if (status >= 100 && status < 200) {
      // An interim response has no body.
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      complete = rest.length >= length;
      body = rest.slice(0, length);
      rest = rest.slice(length);
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        if (lineEnd === -1) {
          rest = '';
          break;
        }
        const size = parseInt(rest.slice(0, lineEnd), 16);
        rest = rest.slice(lineEnd + 2);
        if (!(size > 0)) {
          const trailerEnd = rest.indexOf('\r\n');
          complete = trailerEnd !== -1;
          rest = trailerEnd === -1 ? '' : rest.slice(trailerEnd + 2);
          break;
        }
        body += rest.slice(0, size);
        rest = rest.slice(size + 2);
      }
    } else {
      body = rest;
      rest = '';
    }
    if (complete) completeFinal++;
    responses.push({ status, headers, body: Buffer.from(body, 'latin1').toString('utf8') });
  }
  return { responses, completeFinal };
}

export interface RawHttpOptions {
  /** Stop reading once this many final responses are complete (the server may keep the connection). */
  until?: number;
  /** Stop reading after this long: a bound for a server that keeps the connection open, not a measurement. Default 10 s. */
  boundMs?: number;
}

/**
 * Write `bytes` to `port` on 127.0.0.1 and read until the server closes the connection, until
 * `until` responses are complete, or until the bound passes.
 */
export function rawHttp(port: number, bytes: string | Buffer, options: RawHttpOptions = {}): Promise<RawExchange> {
  const { until, boundMs = 10_000 } = options;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let closed = false;
    const timer = setTimeout(() => socket.destroy(), boundMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (until !== undefined && parseResponses(Buffer.concat(chunks).toString('latin1')).completeFinal >= until) {
        closed = true;
        socket.destroy();
      }
    });
    socket.on('end', () => {
      closed = true;
    });
    // A reset after the server's answer is still an answer; a refused connection is not.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') {
        clearTimeout(timer);
        reject(error);
      } else closed = true;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('latin1');
      resolve({ responses: parseRawResponses(raw), raw, closed });
    });
    socket.write(bytes);
  });
}

export interface RawRequest {
  method: string;
  target: string;
  /** Default HTTP/1.1. */
  version?: string;
  /** Header lines in order, repeated names allowed. A Host line is not added for you. */
  headers: ReadonlyArray<readonly [string, string]>;
  body?: string;
}

/** The bytes of one request; Content-Length is added for a body unless a header already frames it. */
export function rawRequest(request: RawRequest): string {
  const body = request.body ?? '';
  const framed = request.headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name));
  const lines = [`${request.method} ${request.target} ${request.version ?? 'HTTP/1.1'}`, ...request.headers.map(([name, value]) => `${name}: ${value}`)];
  if (body !== '' && !framed) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Whether a response body carries an MCP answer: a JSON-RPC result (as JSON, or in an SSE event). */
export function carriesJsonRpcResult(body: string): boolean {
  return /"result"\s*:/.test(body) || /"serverInfo"\s*:/.test(body) || /"protocolVersion"\s*:/.test(body);
}

/** A legacy (2025) initialize request body. */
export const LEGACY_INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-probe', version: '1.0.0' } },
});

const MODERN = '2026-07-28';
/** A modern (2026-07-28) math.find call, which the fast tool lane serves. */
export const MODERN_FIND = JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: {
    name: 'math.find',
    arguments: { query: 'square' },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'raw-probe', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

/** The headers of the two MCP requests above (without Host and Authorization). */
export const LEGACY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Content-Type', 'application/json'],
  ['Accept', 'application/json, text/event-stream'],
];
export const MODERN_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ...LEGACY_HEADERS,
  ['MCP-Protocol-Version', MODERN],
  ['Mcp-Method', 'tools/call'],
  ['Mcp-Name', 'math.find'],
];

/**
 * Request targets that name the MCP endpoint to some parser (the WHATWG URL parser, a router
 * that decodes escapes, one that folds case or drops parameters, one that reads a backslash as
 * a slash) without being the canonical `/mcp`. A server must refuse each (400), whoever asks.
 */
export function nonCanonicalMcpTargets(port: number): string[] {
  return [
    '/x/../mcp',
    '/./mcp',
    '/%6dcp',
    '/%6Dcp',
    '/%4d%43%50',
    '/healthz/../mcp',
    '/readyz/../mcp',
    '/.well-known/oauth-protected-resource/../../mcp',
    '/mcp#frag',
    '/mcp%23frag',
    '/healthz#/../mcp',
    'http://evil.example/mcp',
    `http://127.0.0.1:${port}/mcp`,
    'https://127.0.0.1/mcp',
    `http://127.0.0.1:${port}/x/../mcp`,
    '//mcp',
    '///mcp',
    '/mcp/',
    '/mcp//',
    '/mcp;x',
    '/mcp;',
    '/mcp\\',
    '\\mcp',
    '/x\\..\\mcp',
    '/x/..\\mcp',
    '/%2e%2e/mcp',
    '/x/%2e%2e/mcp',
    '/x/%2E%2E/mcp',
    '/.%2e/mcp',
    '/%2e/mcp',
    '/x%2f..%2fmcp',
    '/%2fmcp',
    '/mcp%2f',
    '/mcp%00',
    '/mcp%20',
    '/mcp/.',
    '/mcp/x/..',
    '/healthz/..%2fmcp',
    '/MCP/../mcp',
    '/mcp?x=%zz',
    '/mcp?x#y',
    '*',
    'mcp',
    '/mcp\u00e9',
  ];
}
