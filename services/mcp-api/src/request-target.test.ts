/**
 * Authentication cannot be routed around: every request-target variant, written byte by byte
 * over a raw socket to a real server with bearer authentication, is refused (400 for a
 * non-canonical target, 401 for a canonical path without a valid token) and never answered with
 * an MCP result; the same requests carrying the token still work where they are canonical.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { createJacobianMetrics, createLocalFolderArtifactStore, createMemoryTaskStore, createReadiness, OperatorPolicySchema, type ArtifactStore, type RunQueue } from '@jacobian/shared';
import {
  carriesJsonRpcResult,
  LEGACY_HEADERS,
  LEGACY_INITIALIZE,
  MODERN_FIND,
  MODERN_HEADERS,
  nonCanonicalMcpTargets,
  rawHttp,
  rawRequest,
  type RawExchange,
} from '@jacobian/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createApi, type Api } from './api.js';
import { createAuthenticator, parseAuthFile, tokenDigest } from './auth.js';
import { startHttpServer, type RunningHttpServer } from './http.js';
import { readRequestTarget } from './request-target.js';
import { SQUARE, squared } from './square.fixture.js';
import { createTaskService } from './tasks.js';

const TOKEN = 'tok-target-0123456789abcdef';

const queue: RunQueue = {
  submit: (run) => Promise.resolve(squared(run)),
  stats: () => ({ inFlight: 0, queued: 0, running: 0 }),
  close: () => Promise.resolve(),
};

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('readRequestTarget', () => {
  it.each(['/mcp', '/healthz', '/', '/mcp?x=1', '/mcp?a=%20&b=/c?d', '/.well-known/oauth-protected-resource/mcp', '/MCP', '/a.b/c~d_e-f', '/...'])('accepts the canonical %s', (target) => {
    const reading = readRequestTarget(target);
    expect(reading.ok).toBe(true);
    if (reading.ok) expect(reading.path).toBe(target.split('?')[0]);
  });

  it.each(nonCanonicalMcpTargets(8080))('refuses %s, saying why', (target) => {
    const reading = readRequestTarget(target);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.reason.length).toBeGreaterThan(10);
  });

  it('accepts an exact path as given (an operator resource path with escapes) and nothing near it', () => {
    const exact = new Set(['/.well-known/oauth-protected-resource/a%20b']);
    expect(readRequestTarget('/.well-known/oauth-protected-resource/a%20b', exact)).toEqual({ ok: true, path: '/.well-known/oauth-protected-resource/a%20b' });
    expect(readRequestTarget('/.well-known/oauth-protected-resource/a%20b/../../mcp', exact).ok).toBe(false);
  });
});

interface Composition {
  name: string;
  auth: boolean;
  tasks: boolean;
  toolLane: boolean;
}

/**
 * The compositions `jacobian serve` (in-memory tasks) and `jacobian api` (tasks in Redis; the
 * HTTP server sees the same task service interface) start, with the tool lane on and off, and
 * without authentication.
 */
const COMPOSITIONS: Composition[] = [
  { name: 'with auth, tasks and the tool lane (serve and api)', auth: true, tasks: true, toolLane: true },
  { name: 'with auth, through the SDK only', auth: true, tasks: false, toolLane: false },
  { name: 'without auth', auth: false, tasks: true, toolLane: true },
];

let root: string;
let store: ArtifactStore;
let api: Api;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-target-'));
  store = createLocalFolderArtifactStore({ root });
  api = createApi({ installed: () => [SQUARE], policy: OperatorPolicySchema.parse({}), queue, artifacts: store, trustedCheckerKeys: new Map(), tenants: { artifacts: () => store, reasoning: () => undefined } });
});

afterAll(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

/** No response in the exchange carries an MCP answer, and each has one of `statuses`. */
function expectRefused(exchange: RawExchange, statuses: readonly number[], label: string): void {
  for (const response of exchange.responses) {
    expect(carriesJsonRpcResult(response.body), `${label}: ${response.body}`).toBe(false);
    if (response.status >= 200) expect(statuses, `${label}: status ${response.status} ${response.body}`).toContain(response.status);
  }
  // Every probe asks for the connection to close; an answer that never ends is a failure too.
  expect(exchange.closed, `${label}: the connection stayed open`).toBe(true);
}

describe.each(COMPOSITIONS)('request targets, $name', (composition) => {
  let server: RunningHttpServer;
  let port: number;
  const host = (): readonly [string, string] => ['Host', `127.0.0.1:${port}`];
  const bearer: readonly [string, string] = ['Authorization', `Bearer ${TOKEN}`];
  const close: readonly [string, string] = ['Connection', 'close'];

  beforeAll(async () => {
    port = await freePort();
    const auth = composition.auth
      ? createAuthenticator(parseAuthFile(JSON.stringify({ resource: `http://127.0.0.1:${port}/mcp`, tokens: [{ sha256: tokenDigest(TOKEN), tenant: 'acme' }] }), 'test auth file'))
      : undefined;
    server = await startHttpServer({
      api,
      host: '127.0.0.1',
      port,
      toolLane: composition.toolLane,
      ...(auth === undefined ? {} : { auth }),
      ...(composition.tasks ? { tasks: createTaskService({ store: createMemoryTaskStore() }) } : {}),
      ops: { readiness: createReadiness([]), metrics: createJacobianMetrics() },
    });
  });

  afterAll(async () => {
    await server.close();
  });

  /** The legacy initialize and the modern math.find, to `target` with `method` and extra headers. */
  function probes(method: string, target: string, extra: ReadonlyArray<readonly [string, string]> = []): string[] {
    return [
      rawRequest({ method, target, headers: [host(), ...LEGACY_HEADERS, ...extra, close], body: LEGACY_INITIALIZE }),
      rawRequest({ method, target, headers: [host(), ...MODERN_HEADERS, ...extra, close], body: MODERN_FIND }),
    ];
  }

  const METHODS = ['POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];

  it('refuses every non-canonical target with 400 and a short reason, with or without a token, whatever the method', async () => {
    for (const target of nonCanonicalMcpTargets(port)) {
      for (const method of METHODS) {
        for (const withToken of [false, true]) {
          for (const bytes of probes(method, target, withToken ? [bearer] : [])) {
            const exchange = await rawHttp(port, bytes);
            const label = `${method} ${target}${withToken ? ' with the token' : ''}`;
            expectRefused(exchange, [400], label);
            const final = exchange.responses.at(-1);
            expect(final?.status, label).toBe(400);
            // Node's own parser refuses some targets before the server sees them, with no body.
            if (final?.body !== '' && method !== 'HEAD') expect((JSON.parse(final?.body ?? '{}') as { error?: string }).error, label).toBe('bad_request');
          }
        }
      }
    }
  });

  it('refuses ambiguous or missing routing headers with 400', async () => {
    const cases: Array<[string, string]> = [
      ['two Authorization headers, the valid one first', rawRequest({ method: 'POST', target: '/mcp', headers: [host(), ...LEGACY_HEADERS, bearer, ['Authorization', 'Bearer nope'], close], body: LEGACY_INITIALIZE })],
      ['two Authorization headers, the valid one last', rawRequest({ method: 'POST', target: '/mcp', headers: [host(), ...LEGACY_HEADERS, ['Authorization', 'Bearer nope'], bearer, close], body: LEGACY_INITIALIZE })],
      ['two Host headers', rawRequest({ method: 'POST', target: '/mcp', headers: [host(), ['Host', 'evil.example'], ...LEGACY_HEADERS, close], body: LEGACY_INITIALIZE })],
      ['two Mcp-Name headers', rawRequest({ method: 'POST', target: '/mcp', headers: [host(), ...MODERN_HEADERS, ['Mcp-Name', 'math.run'], close], body: MODERN_FIND })],
      ['no Host (HTTP/1.0)', rawRequest({ method: 'POST', target: '/mcp', version: 'HTTP/1.0', headers: [...LEGACY_HEADERS], body: LEGACY_INITIALIZE })],
      ['a Host holding a path', rawRequest({ method: 'POST', target: '/healthz', headers: [['Host', `127.0.0.1:${port}/mcp#`], ...LEGACY_HEADERS, close], body: LEGACY_INITIALIZE })],
      ['a Host holding a query', rawRequest({ method: 'POST', target: '/readyz', headers: [['Host', 'evil.example/mcp?'], ...LEGACY_HEADERS, close], body: LEGACY_INITIALIZE })],
      ['a Host with user info', rawRequest({ method: 'POST', target: '/mcp', headers: [['Host', `user@127.0.0.1:${port}`], ...LEGACY_HEADERS, close], body: LEGACY_INITIALIZE })],
    ];
    for (const [label, bytes] of cases) {
      const exchange = await rawHttp(port, bytes);
      expectRefused(exchange, [400], label);
      expect(exchange.responses.at(-1)?.status, label).toBe(400);
    }
  });

  it('answers CONNECT, asterisk-form and Upgrade requests without an MCP result', async () => {
    const cases: Array<[string, string]> = [
      ['CONNECT authority-form', rawRequest({ method: 'CONNECT', target: `127.0.0.1:${port}`, headers: [host()] })],
      ['CONNECT to /mcp', rawRequest({ method: 'CONNECT', target: '/mcp', headers: [host()] })],
      ['OPTIONS *', rawRequest({ method: 'OPTIONS', target: '*', headers: [host(), close] })],
      ['an Upgrade to /x/../mcp', rawRequest({ method: 'POST', target: '/x/../mcp', headers: [host(), ...LEGACY_HEADERS, ['Connection', 'Upgrade'], ['Upgrade', 'websocket']], body: LEGACY_INITIALIZE })],
      ['Expect: 100-continue to /x/../mcp', rawRequest({ method: 'POST', target: '/x/../mcp', headers: [host(), ...LEGACY_HEADERS, ['Expect', '100-continue'], close], body: LEGACY_INITIALIZE })],
    ];
    for (const [label, bytes] of cases) expectRefused(await rawHttp(port, bytes), [400], label);
    if (composition.auth) {
      const upgrade = await rawHttp(port, rawRequest({ method: 'POST', target: '/mcp', headers: [host(), ...LEGACY_HEADERS, ['Connection', 'Upgrade'], ['Upgrade', 'websocket']], body: LEGACY_INITIALIZE }));
      expectRefused(upgrade, [401], 'an Upgrade to /mcp without a token');
    }
  });

  it.runIf(composition.auth)('asks for the token on every canonical path but the open ones, unknown paths included', async () => {
    const targets = ['/mcp', '/mcp?x=1', '/mcp?/../healthz', '/MCP', '/Mcp', '/', '/unknown', '/healthz/x', '/healthzx', '/mcp.json', '/mcp?access_token=x'];
    for (const target of targets) {
      for (const method of METHODS) {
        for (const bytes of probes(method, target)) {
          const exchange = await rawHttp(port, bytes);
          expectRefused(exchange, [401], `${method} ${target}`);
          if (method !== 'HEAD') expect(exchange.responses.at(-1)?.headers['www-authenticate'], `${method} ${target}`).toMatch(/^Bearer /);
        }
      }
    }
    // Other schemes and a token in the wrong place are no token.
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', `Bearer ${TOKEN}x`, `Token ${TOKEN}`, `Bearer  ${TOKEN} extra`]) {
      for (const bytes of probes('POST', '/mcp', [['Authorization', authorization]])) expectRefused(await rawHttp(port, bytes), [400, 401], authorization);
    }
    // Chunked bodies and HTTP/1.0 are authenticated alike.
    const chunked = `${LEGACY_INITIALIZE.length.toString(16)}\r\n${LEGACY_INITIALIZE}\r\n0\r\n\r\n`;
    expectRefused(await rawHttp(port, rawRequest({ method: 'POST', target: '/mcp', headers: [host(), ...LEGACY_HEADERS, ['Transfer-Encoding', 'chunked'], close], body: chunked })), [401], 'chunked');
    expectRefused(await rawHttp(port, rawRequest({ method: 'POST', target: '/mcp', version: 'HTTP/1.0', headers: [host(), ...LEGACY_HEADERS], body: LEGACY_INITIALIZE })), [401], 'HTTP/1.0');
  });

  it.runIf(composition.auth)('keeps the probes and the metadata open, and /metrics off this port, with no MCP answer', async () => {
    for (const target of ['/healthz', '/readyz', '/healthz?/../mcp', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource', '/metrics']) {
      for (const method of METHODS) {
        // A GET with a body is refused by the app's JSON parser (400); either way, no MCP answer.
        for (const bytes of probes(method, target)) expectRefused(await rawHttp(port, bytes), [200, 400, 404, 405], `${method} ${target}`);
      }
    }
    const health = await rawHttp(port, rawRequest({ method: 'GET', target: '/healthz', headers: [host(), close] }));
    expect(health.responses[0]?.status).toBe(200);
    const metrics = await rawHttp(port, rawRequest({ method: 'GET', target: '/metrics', headers: [host(), bearer, close] }));
    expect(metrics.responses[0]?.status).toBe(404);
  });

  it.runIf(composition.auth)('authenticates each pipelined request on its own', async () => {
    const first = rawRequest({ method: 'POST', target: '/mcp', headers: [host(), ...MODERN_HEADERS, bearer], body: MODERN_FIND });
    const second = rawRequest({ method: 'POST', target: '/mcp', headers: [host(), ...MODERN_HEADERS, close], body: MODERN_FIND });
    const exchange = await rawHttp(port, first + second);
    expect(exchange.responses.map((response) => response.status)).toEqual([200, 401]);
    expect(carriesJsonRpcResult(exchange.responses[0]?.body ?? '')).toBe(true);
    expect(carriesJsonRpcResult(exchange.responses[1]?.body ?? '')).toBe(false);
    // An open route first does not open the next request.
    const open = rawRequest({ method: 'GET', target: '/healthz', headers: [host()] });
    const after = await rawHttp(port, open + rawRequest({ method: 'POST', target: '/mcp', headers: [host(), ...LEGACY_HEADERS, close], body: LEGACY_INITIALIZE }));
    expect(after.responses.map((response) => response.status)).toEqual([200, 401]);
    expectRefused(after, [200, 401], 'healthz then /mcp');
  });

  it('serves canonical MCP requests (with the token when authentication is on), by the lane and by the SDK', async () => {
    const credentials: ReadonlyArray<readonly [string, string]> = composition.auth ? [bearer] : [];
    for (const target of ['/mcp', '/mcp?x=1']) {
      const [legacy = '', modern = ''] = probes('POST', target, credentials);
      const before = server.stats();
      const initialized = (await rawHttp(port, legacy, { until: 1 })).responses.at(-1);
      expect(initialized?.status, `${target} ${initialized?.body}`).toBe(200);
      expect(initialized?.body, target).toMatch(/"serverInfo"/);
      const found = (await rawHttp(port, modern, { until: 1 })).responses.at(-1);
      expect(found?.status, target).toBe(200);
      expect(found?.body, target).toMatch(/"result":\{/);
      expect(found?.body, target).toContain('test.square');
      const after = server.stats();
      expect(after.toolLane + after.sdk - before.toolLane - before.sdk).toBe(2);
    }
    if (composition.toolLane) {
      // The canonical modern call takes the lane.
      const before = server.stats().toolLane;
      await rawHttp(port, probes('POST', '/mcp', credentials)[1] ?? '');
      expect(server.stats().toolLane).toBe(before + 1);
    }
    // A canonical path that is not a route is not found, once authenticated.
    const missing = await rawHttp(port, probes('POST', '/MCP', credentials)[0] ?? '');
    expectRefused(missing, [404], '/MCP');
  });
});
