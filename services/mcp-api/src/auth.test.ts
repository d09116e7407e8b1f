import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { createJacobianMetrics, createLocalFolderArtifactStore, createReadiness, JacobianError, OperatorPolicySchema, type ArtifactStore, type RunQueue } from '@jacobian/shared';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createApi, type Api } from './api.js';
import { createAuthenticator, parseAuthFile, tokenDigest, type AuthFile } from './auth.js';
import { startHttpServer, type RunningHttpServer } from './http.js';
import { SQUARE, squared } from './square.fixture.js';

const queue: RunQueue = {
  submit: (run) => Promise.resolve(squared(run)),
  stats: () => ({ inFlight: 0, queued: 0, running: 0 }),
  close: () => Promise.resolve(),
};

/** A port free right now, so the auth file can name the URL the server will have. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A stand-in OAuth authorization server on loopback: its RFC 8414 metadata and its JWKS. */
async function startAuthorizationServer(): Promise<{ issuer: string; sign: (claims: Record<string, unknown>, options?: { expiresIn?: string; audience?: string; issuer?: string; key?: CryptoKey }) => Promise<string>; otherKey: CryptoKey; server: Server }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const other = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  let issuer = '';
  const server = createServer((request, response) => {
    if (request.url === '/.well-known/oauth-authorization-server') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, response_types_supported: ['code'] }));
    } else if (request.url === '/jwks') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: [jwk] }));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sign = (claims: Record<string, unknown>, options: { expiresIn?: string; audience?: string; issuer?: string; key?: CryptoKey } = {}): Promise<string> =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(options.issuer ?? issuer)
      .setAudience(options.audience ?? RESOURCE_PLACEHOLDER)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m')
      .sign(options.key ?? privateKey);
  return { issuer, sign, otherKey: other.privateKey, server };
}

let RESOURCE_PLACEHOLDER = '';

/** The square capability over `store`, for every tenant. */
function tenantApi(store: ArtifactStore): Api {
  return createApi({
    installed: () => [SQUARE],
    policy: OperatorPolicySchema.parse({}),
    queue,
    artifacts: store,
    trustedCheckerKeys: new Map(),
    tenants: { artifacts: () => store, reasoning: () => undefined },
  });
}

describe('the auth file', () => {
  const valid = { resource: 'https://jacobian.example.com/mcp', tokens: [{ sha256: tokenDigest('s3cret'), tenant: 'acme' }] };

  it('accepts static tokens, an oauth section, or both', () => {
    expect(parseAuthFile(JSON.stringify(valid), 'auth.json').tokens[0]?.tenant).toBe('acme');
    const oauthOnly = parseAuthFile(JSON.stringify({ resource: valid.resource, oauth: { issuer: 'https://auth.example.com' } }), 'auth.json');
    expect(oauthOnly.oauth?.tenant_claim).toBe('tenant');
  });

  it.each([
    ['not JSON', '{', /auth.json: not JSON/, []],
    ['no resource', JSON.stringify({ tokens: valid.tokens }), /auth.json/, ['resource']],
    ['a token listed by itself instead of its digest', JSON.stringify({ ...valid, tokens: [{ sha256: 's3cret', tenant: 'acme' }] }), /SHA-256/, ['tokens', 0, 'sha256']],
    ['a tenant with capitals', JSON.stringify({ ...valid, tokens: [{ sha256: tokenDigest('x'), tenant: 'Acme' }] }), /tenant/, ['tokens', 0, 'tenant']],
    ['the same token twice', JSON.stringify({ ...valid, tokens: [...valid.tokens, { sha256: tokenDigest('s3cret'), tenant: 'other' }] }), /twice/, ['tokens', 1, 'sha256']],
    ['neither tokens nor oauth', JSON.stringify({ resource: valid.resource }), /at least one token/, ['tokens']],
    ['an unknown field', JSON.stringify({ ...valid, tokenz: [] }), /auth.json/, []],
  ])('rejects %s, naming the field', (_name, text, message, path) => {
    let caught: unknown;
    try {
      parseAuthFile(text, 'auth.json');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JacobianError);
    expect((caught as JacobianError).code).toBe('CONFIG_INVALID');
    expect((caught as JacobianError).message).toMatch(message);
    if (path.length > 0) expect((caught as JacobianError).path).toEqual(path);
  });
});

describe('bearer-token authentication over HTTP', () => {
  let root: string;
  let store: ArtifactStore;
  let api: Api;
  let server: RunningHttpServer;
  let as: Awaited<ReturnType<typeof startAuthorizationServer>>;
  let resource: string;
  const TOKEN = 'tok-acme-0123456789abcdef';
  const EXPIRED = 'tok-expired-0123456789abcdef';

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-auth-'));
    store = createLocalFolderArtifactStore({ root });
    api = tenantApi(store);
    as = await startAuthorizationServer();
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    RESOURCE_PLACEHOLDER = resource;
    const file: AuthFile = parseAuthFile(
      JSON.stringify({
        resource,
        tokens: [
          { sha256: tokenDigest(TOKEN), tenant: 'acme', label: 'test client' },
          { sha256: tokenDigest(EXPIRED), tenant: 'acme', expires_at: '2020-01-01T00:00:00Z' },
        ],
        oauth: { issuer: as.issuer, required_scopes: ['mcp'], scopes_supported: ['mcp'] },
      }),
      'test auth file',
    );
    server = await startHttpServer({ api, host: '127.0.0.1', port, auth: createAuthenticator(file), ops: { readiness: createReadiness([]), metrics: createJacobianMetrics() } });
  });

  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => as.server.close(() => resolve()));
    await store.close();
    await rm(root, { recursive: true, force: true });
  });

  function post(headers: Record<string, string> = {}): Promise<Response> {
    return fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
  }

  async function connected(token: string): Promise<Client> {
    const client = new Client({ name: 'auth-test', version: '0.0.1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  }

  it('refuses a request without a token with 401 and a challenge naming the resource metadata', async () => {
    const response = await post();
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="http://127.0.0.1:${new URL(resource).port}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('refuses an unknown token and an expired one as invalid_token', async () => {
    for (const token of ['not-a-token', EXPIRED]) {
      const response = await post({ authorization: `Bearer ${token}` });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });

  it('publishes the protected resource metadata, naming the operator\'s authorization server', async () => {
    for (const suffix of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(new URL(suffix, server.url));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource,
        authorization_servers: [as.issuer],
        bearer_methods_supported: ['header'],
        resource_name: 'Jacobian',
        scopes_supported: ['mcp'],
      });
    }
    expect((await fetch(new URL('/.well-known/oauth-protected-resource/mcp', server.url), { method: 'POST' })).status).toBe(405);
  });

  it('serves an SDK client that carries a static token', async () => {
    const client = await connected(TOKEN);
    try {
      const result = await client.callTool({ name: 'math.run', arguments: { capability_id: 'test.square', mode: 'EXPLORE', payload: { n: 7 } } });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.structuredContent)).toContain('"square":49');
    } finally {
      await client.close();
    }
  });

  it('serves an SDK client that carries an access token from the authorization server', async () => {
    const client = await connected(await as.sign({ tenant: 'globex', scope: 'mcp', client_id: 'agent-1' }));
    try {
      const found = await client.callTool({ name: 'math.find', arguments: { query: 'square' } });
      expect(found.isError).not.toBe(true);
    } finally {
      await client.close();
    }
  });

  it.each([
    ['another audience', { tenant: 'globex', scope: 'mcp' }, { audience: 'https://elsewhere.example.com/mcp' }, 401],
    ['another issuer', { tenant: 'globex', scope: 'mcp' }, { issuer: 'https://evil.example.com' }, 401],
    ['a key the authorization server does not publish', { tenant: 'globex', scope: 'mcp' }, { key: 'other' as const }, 401],
    ['no tenant claim', { scope: 'mcp' }, {}, 401],
    ['an expiry in the past', { tenant: 'globex', scope: 'mcp' }, { expiresIn: '-1m' }, 401],
    ['a missing required scope', { tenant: 'globex', scope: 'read' }, {}, 403],
  ])('refuses an access token with %s', async (_name, claims, options, status) => {
    const { key, ...rest } = options as { key?: 'other'; audience?: string; issuer?: string; expiresIn?: string };
    const token = await as.sign(claims, { ...rest, ...(key === 'other' ? { key: as.otherKey } : {}) });
    const response = await post({ authorization: `Bearer ${token}` });
    expect(response.status).toBe(status);
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('keeps /healthz open, and does not serve /metrics on the MCP port', async () => {
    expect((await fetch(new URL('/healthz', server.url))).status).toBe(200);
    expect((await fetch(new URL('/metrics', server.url))).status).toBe(404);
  });
});

/**
 * A stand-in authorization server that issues opaque tokens and answers RFC 7662 introspection
 * for the client `jacobian` with the secret `intro-secret`; it counts the questions it gets.
 */
async function startIntrospectingServer(): Promise<{ issuer: string; tokens: Map<string, Record<string, unknown>>; asked: () => number; server: Server }> {
  const tokens = new Map<string, Record<string, unknown>>();
  let asked = 0;
  let issuer = '';
  const server = createServer((request, response) => {
    if (request.url === '/.well-known/oauth-authorization-server') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ issuer, introspection_endpoint: `${issuer}/introspect`, token_endpoint: `${issuer}/token`, response_types_supported: ['code'] }));
      return;
    }
    if (request.url !== '/introspect' || request.method !== 'POST') {
      response.writeHead(404).end();
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      asked++;
      const expected = `Basic ${Buffer.from('jacobian:intro-secret').toString('base64')}`;
      if (request.headers.authorization !== expected || request.headers['content-type'] !== 'application/x-www-form-urlencoded') {
        response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client' }));
        return;
      }
      const token = new URLSearchParams(body).get('token') ?? '';
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(tokens.get(token) ?? { active: false }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, tokens, asked: () => asked, server };
}

describe('bearer-token authentication by token introspection (RFC 7662)', () => {
  let root: string;
  let store: ArtifactStore;
  let server: RunningHttpServer;
  let as: Awaited<ReturnType<typeof startIntrospectingServer>>;
  let resource: string;
  let clock = Date.now();
  const later = (): number => Math.floor(clock / 1000) + 600;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-introspect-'));
    store = createLocalFolderArtifactStore({ root });
    const api = tenantApi(store);
    as = await startIntrospectingServer();
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    const file = parseAuthFile(
      JSON.stringify({ resource, oauth: { issuer: as.issuer, required_scopes: ['mcp'], introspection: { client_id: 'jacobian', client_secret_env: 'TEST_INTROSPECTION_SECRET', cache_seconds: 30 } } }),
      'test auth file',
    );
    const auth = createAuthenticator(file, { env: { TEST_INTROSPECTION_SECRET: 'intro-secret' }, now: () => clock });
    server = await startHttpServer({ api, host: '127.0.0.1', port, auth });
  });

  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => as.server.close(() => resolve()));
    await store.close();
    await rm(root, { recursive: true, force: true });
  });

  const ping = (token: string): Promise<Response> =>
    fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });

  it('serves an SDK client whose opaque token the authorization server reports active for this resource', async () => {
    as.tokens.set('opaque-globex', { active: true, iss: as.issuer, aud: [resource], exp: later(), scope: 'mcp read', client_id: 'agent-7', tenant: 'globex' });
    const client = new Client({ name: 'introspect-test', version: '0.0.1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: 'Bearer opaque-globex' } } }));
    try {
      const result = await client.callTool({ name: 'math.run', arguments: { capability_id: 'test.square', mode: 'EXPLORE', payload: { n: 9 } } });
      expect(JSON.stringify(result.structuredContent)).toContain('"square":81');
    } finally {
      await client.close();
    }
  });

  it('remembers an active answer for its cache time, then asks again (a revoked token is refused)', async () => {
    as.tokens.set('opaque-revocable', { active: true, aud: resource, exp: later(), scope: 'mcp', tenant: 'acme' });
    const before = as.asked();
    expect((await ping('opaque-revocable')).status).toBe(200);
    expect((await ping('opaque-revocable')).status).toBe(200);
    expect(as.asked()).toBe(before + 1);
    as.tokens.set('opaque-revocable', { active: false });
    clock += 31_000;
    const refused = await ping('opaque-revocable');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(as.asked()).toBe(before + 2);
  });

  it('asks once for concurrent requests carrying the same token', async () => {
    as.tokens.set('opaque-busy', { active: true, aud: resource, exp: later(), scope: 'mcp', tenant: 'acme' });
    const before = as.asked();
    const statuses = await Promise.all(Array.from({ length: 8 }, () => ping('opaque-busy').then((response) => response.status)));
    expect(statuses).toEqual(Array.from({ length: 8 }, () => 200));
    expect(as.asked()).toBe(before + 1);
  });

  it('remembers a refusal for at most 10 s (within the cache time), then asks again', async () => {
    as.tokens.set('opaque-pending', { active: false });
    const before = as.asked();
    const [first, second] = [await ping('opaque-pending'), await ping('opaque-pending')];
    expect([first.status, second.status]).toEqual([401, 401]);
    expect(second.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(as.asked()).toBe(before + 1);
    // The token becomes active at the server; after 10 s the refusal is forgotten.
    as.tokens.set('opaque-pending', { active: true, aud: resource, exp: later() + 60, scope: 'mcp', tenant: 'acme' });
    clock += 9_000;
    expect((await ping('opaque-pending')).status).toBe(401);
    clock += 2_000;
    expect((await ping('opaque-pending')).status).toBe(200);
    expect(as.asked()).toBe(before + 2);
  });

  it.each([
    ['inactive', { active: false }, 401],
    ['for another resource', { active: true, aud: 'https://elsewhere.example.com/mcp', exp: 0, scope: 'mcp', tenant: 'acme' }, 401],
    ['without an audience', { active: true, exp: 0, scope: 'mcp', tenant: 'acme' }, 401],
    ['from another issuer', { active: true, iss: 'https://evil.example.com', aud: 'RESOURCE', exp: 0, scope: 'mcp', tenant: 'acme' }, 401],
    ['without an expiry', { active: true, aud: 'RESOURCE', scope: 'mcp', tenant: 'acme' }, 401],
    ['without a tenant', { active: true, aud: 'RESOURCE', exp: 0, scope: 'mcp' }, 401],
    ['without the required scope', { active: true, aud: 'RESOURCE', exp: 0, scope: 'read', tenant: 'acme' }, 403],
  ])('refuses a token reported %s', async (name, reported: Record<string, unknown>, status) => {
    const answer = reported;
    const token = `opaque-${name.replace(/\W+/g, '-')}`;
    as.tokens.set(token, { ...answer, ...(answer['aud'] === 'RESOURCE' ? { aud: resource } : {}), ...('exp' in answer ? { exp: later() } : {}) });
    const response = await ping(token);
    expect(response.status).toBe(status);
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('reports server_error when the authorization server refuses the introspection request itself', async () => {
    const file = parseAuthFile(JSON.stringify({ resource, oauth: { issuer: as.issuer, introspection: { client_id: 'jacobian', client_secret_env: 'S' } } }), 'test auth file');
    const wrong = createAuthenticator(file, { env: { S: 'wrong-secret' } });
    as.tokens.set('opaque-any', { active: true, aud: resource, exp: later(), tenant: 'acme' });
    const refused = await wrong.verifier.verifyAccessToken('opaque-any').then(
      () => undefined,
      (error: unknown) => error as { code?: unknown; message?: unknown },
    );
    expect(refused?.code).toBe('server_error');
    expect(String(refused?.message)).toContain('HTTP 401');
    // A failure to ask is not an answer about the token: the next request asks again.
    const before = as.asked();
    await expect(wrong.verifier.verifyAccessToken('opaque-any')).rejects.toMatchObject({ code: 'server_error' });
    expect(as.asked()).toBe(before + 1);
  });

  it('refuses to start without the client secret, naming the variable', () => {
    const file = parseAuthFile(JSON.stringify({ resource, oauth: { issuer: as.issuer, introspection: { client_id: 'jacobian' } } }), 'test auth file');
    expect(() => createAuthenticator(file, { env: {} })).toThrow(/JACOBIAN_OAUTH_CLIENT_SECRET/);
  });
});
