/**
 * Bearer-token authentication of the MCP endpoint, as the MCP authorization spec describes for
 * a resource server: every request to /mcp carries `Authorization: Bearer <token>`; a missing or
 * unknown token is answered 401 with a `WWW-Authenticate` challenge naming the protected
 * resource metadata (RFC 9728), which this server publishes so OAuth clients can find the
 * authorization server the operator names.
 *
 * Two kinds of token are accepted, from the operator's auth file (JACOBIAN_AUTH_FILE):
 *
 * - static tokens, listed by their SHA-256 (the file never holds a token itself), each naming
 *   the tenant it belongs to;
 * - access tokens issued by an external OAuth authorization server: JWTs verified against the
 *   server's published keys (JWKS), whose issuer is the configured one, whose audience is this
 *   resource, and which carry the tenant in a configured claim; or, when the operator configures
 *   token introspection, any access token (opaque or JWT) asked about at the authorization
 *   server's RFC 7662 introspection endpoint, with the same checks on its answer. Active answers
 *   are remembered for a short, configured time (never past the token's expiry), refusals for at
 *   most 10 s of it, and concurrent requests with the same token share one question.
 *
 * The answer is the SDK's AuthInfo with the tenant in `extra.tenant`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { isPlainObject, JacobianError, zodIssuesToDiagnostics } from '@jacobian/shared';
import {
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  type AuthInfo,
  type OAuthProtectedResourceMetadata,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';

/** A tenant name: what runs, artifacts and logs are attributed to. */
export const TENANT_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const TenantSchema = z.string().regex(TENANT_PATTERN, 'a tenant is 1-63 of a-z 0-9 . _ -, starting with a letter or digit');

const HttpsUrlSchema = z.url({ protocol: /^https?$/ }).refine((value) => !value.includes('#'), 'a URL without a fragment');

export const AuthFileSchema = z
  .object({
    /**
     * This server's canonical URL as clients reach it (e.g. `https://jacobian.example.com/mcp`):
     * the `resource` of the protected resource metadata and the audience a JWT must name.
     */
    resource: HttpsUrlSchema,
    tokens: z
      .array(
        z
          .object({
            /** Lower-case hex SHA-256 of the token's UTF-8 bytes. */
            sha256: z.string().regex(/^[0-9a-f]{64}$/, '64 lower-case hex digits: the SHA-256 of the token'),
            tenant: TenantSchema,
            /** For operators: who holds it. Never shown to clients. */
            label: z.string().max(200).optional(),
            /** After this moment the token is refused. */
            expires_at: z.iso.datetime({ offset: true }).optional(),
          })
          .strict(),
      )
      .max(10_000)
      .default([]),
    oauth: z
      .object({
        /** The authorization server's issuer identifier; JWTs must carry it as `iss`. */
        issuer: HttpsUrlSchema,
        /** Where its signing keys are published; default: its RFC 8414 metadata's `jwks_uri`. */
        jwks_uri: HttpsUrlSchema.optional(),
        /** The JWT audience to require. Default: `resource`. */
        audience: z.string().min(1).optional(),
        /** The claim naming the caller's tenant. Default `tenant`. */
        tenant_claim: z.string().min(1).max(100).default('tenant'),
        /** Scopes every token must carry (space-separated `scope` claim, or `scp` array). */
        required_scopes: z.array(z.string().min(1)).default([]),
        /** Scopes advertised in the protected resource metadata. */
        scopes_supported: z.array(z.string().min(1)).optional(),
        /**
         * RFC 7662 token introspection: when set, every access token that is not a static token
         * is checked at the authorization server (opaque tokens, and JWTs, which then can be
         * revoked), instead of verifying JWTs locally.
         */
        introspection: z
          .object({
            /** Default: its RFC 8414 metadata's `introspection_endpoint`. */
            endpoint: HttpsUrlSchema.optional(),
            /** This resource server's client ID at the authorization server. */
            client_id: z.string().min(1).max(500),
            /** The environment variable holding the client secret (the file holds no secret). */
            client_secret_env: z
              .string()
              .regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name (A-Z, 0-9, _)')
              .default('JACOBIAN_OAUTH_CLIENT_SECRET'),
            /** How long an active answer is remembered, in seconds (never past the token's expiry). 0: ask every time. */
            cache_seconds: z.number().int().min(0).max(3600).default(60),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((file, context) => {
    if (file.tokens.length === 0 && file.oauth === undefined) {
      context.addIssue({ code: 'custom', path: ['tokens'], message: 'an auth file needs at least one token or an oauth section' });
    }
    const seen = new Set<string>();
    file.tokens.forEach((token, index) => {
      if (seen.has(token.sha256)) context.addIssue({ code: 'custom', path: ['tokens', index, 'sha256'], message: 'the same token is listed twice' });
      seen.add(token.sha256);
    });
  });
export type AuthFile = z.infer<typeof AuthFileSchema>;

/** Parse an auth file's text; errors name the file, the field and the rule. */
export function parseAuthFile(text: string, source: string): AuthFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JacobianError('CONFIG_INVALID', `${source}: not JSON (${(error as Error).message})`);
  }
  const parsed = AuthFileSchema.safeParse(value);
  if (!parsed.success) {
    const first = zodIssuesToDiagnostics(parsed.error, [])[0];
    throw new JacobianError('CONFIG_INVALID', `${source}: ${first?.message ?? 'invalid'}`, { path: first?.path ?? [] });
  }
  return parsed.data;
}

export function loadAuthFile(path: string): AuthFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new JacobianError('CONFIG_INVALID', `JACOBIAN_AUTH_FILE: cannot read ${path} (${(error as Error).message})`);
  }
  return parseAuthFile(text, `JACOBIAN_AUTH_FILE ${path}`);
}

/** The SHA-256 an auth file lists for a token. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** What the HTTP server needs to authenticate requests and describe itself. */
export interface Authenticator {
  readonly verifier: OAuthTokenVerifier;
  /** The URL of the metadata document, named in every challenge. */
  readonly resourceMetadataUrl: string;
  /** Paths at which the metadata document is served (RFC 9728 path-aware, plus the root form). */
  readonly metadataPaths: readonly string[];
  readonly metadata: OAuthProtectedResourceMetadata;
  readonly requiredScopes: readonly string[];
}

/** The tenant an authenticated request belongs to. */
export function tenantOf(auth: AuthInfo): string {
  const tenant = auth.extra?.['tenant'];
  if (typeof tenant !== 'string') throw new JacobianError('INTERNAL', 'an authenticated request without a tenant');
  return tenant;
}

function invalid(message: string): OAuthError {
  return new OAuthError(OAuthErrorCode.InvalidToken, message);
}

function scopesOf(payload: Record<string, unknown>): string[] {
  const scope = payload['scope'];
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s.length > 0);
  const scp = payload['scp'];
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  return [];
}

/** Static tokens are not OAuth tokens and never expire by themselves; the SDK wants an expiry. */
const STATIC_TOKEN_HORIZON_S = 3600;

export interface AuthenticatorOptions {
  /** How the authorization server's metadata is fetched, and tokens introspected (default: global fetch). */
  fetch?: typeof fetch;
  now?: () => number;
  /** Where the introspection client secret is read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** Active introspection answers remembered at most; refused tokens likewise, apart. */
const INTROSPECTION_CACHE_ENTRIES = 10_000;
/**
 * Longest time a refused token's refusal is remembered (and never longer than `cache_seconds`):
 * a client retrying a bad token, or many requests carrying it, cost the authorization server one
 * question, while a token refused only for now (say, not yet known there) is asked about again soon.
 */
const DENIAL_CACHE_MAX_SECONDS = 10;
/** How long the authorization server has to answer an introspection request. */
const INTROSPECTION_TIMEOUT_MS = 5000;

/** The string or strings of a claim (`aud` may be either). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** RFC 6749 §2.3.1: client credentials are form-encoded before they are joined and base64-encoded. */
function basicCredentials(clientId: string, secret: string): string {
  const encode = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`, 'utf8').toString('base64')}`;
}

export function createAuthenticator(file: AuthFile, options: AuthenticatorOptions = {}): Authenticator {
  const now = options.now ?? Date.now;
  const fetchImpl = options.fetch ?? fetch;
  const resource = new URL(file.resource);
  const statics = new Map(file.tokens.map((token) => [token.sha256, token]));
  const oauth = file.oauth;
  const introspection = oauth?.introspection;
  const env = options.env ?? process.env;
  const clientSecret = introspection === undefined ? undefined : env[introspection.client_secret_env];
  if (introspection !== undefined && (clientSecret === undefined || clientSecret === '')) {
    throw new JacobianError('CONFIG_INVALID', `oauth.introspection.client_secret_env: the environment variable ${introspection.client_secret_env} holds no client secret`, {
      path: ['oauth', 'introspection', 'client_secret_env'],
    });
  }

  /** The authorization server's metadata (RFC 8414, else OpenID discovery), fetched once it is found. */
  let serverMetadata: Record<string, unknown> | undefined;
  let discovering: Promise<Record<string, unknown>> | undefined;
  async function authorizationServerMetadata(issuer: string): Promise<Record<string, unknown>> {
    if (serverMetadata !== undefined) return serverMetadata;
    discovering ??= (async () => {
      // RFC 8414 metadata first, then OpenID discovery, as MCP clients look for them.
      const base = issuer.replace(/\/$/, '');
      const issuerUrl = new URL(base);
      const path = issuerUrl.pathname === '/' ? '' : issuerUrl.pathname;
      const candidates = [
        `${issuerUrl.origin}/.well-known/oauth-authorization-server${path}`,
        `${issuerUrl.origin}/.well-known/openid-configuration${path}`,
        `${base}/.well-known/openid-configuration`,
      ];
      for (const url of candidates) {
        const response = await fetchImpl(url, { headers: { accept: 'application/json' } }).catch(() => undefined);
        if (response?.ok !== true) continue;
        const metadata: unknown = await response.json().catch(() => undefined);
        if (isPlainObject(metadata)) return (serverMetadata = metadata);
      }
      throw new OAuthError(OAuthErrorCode.ServerError, `the authorization server ${issuer} publishes no metadata`);
    })();
    try {
      return await discovering;
    } finally {
      if (serverMetadata === undefined) discovering = undefined;
    }
  }

  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  async function keys(issuer: string, configured: string | undefined): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (jwks !== undefined) return jwks;
    if (configured !== undefined) return (jwks = createRemoteJWKSet(new URL(configured)));
    const published = (await authorizationServerMetadata(issuer))['jwks_uri'];
    if (typeof published !== 'string') throw new OAuthError(OAuthErrorCode.ServerError, `the authorization server ${issuer} publishes no jwks_uri`);
    return (jwks = createRemoteJWKSet(new URL(published)));
  }

  /**
   * What an accepted OAuth access token grants, from its claims (a verified JWT's, or an
   * introspection answer's): its tenant (which it must name), client and scopes.
   */
  function oauthAuthInfo(token: string, claims: Record<string, unknown>, expiresAt: number): AuthInfo {
    const claim = oauth?.tenant_claim ?? 'tenant';
    const tenant = claims[claim];
    if (typeof tenant !== 'string' || !TENANT_PATTERN.test(tenant)) throw invalid(`the access token names no valid tenant in its ${claim} claim`);
    const named = (key: string): string | undefined => (typeof claims[key] === 'string' ? claims[key] : undefined);
    const clientId = named('client_id') ?? named('azp') ?? named('sub') ?? 'unknown';
    return { token, clientId, scopes: scopesOf(claims), expiresAt, resource, extra: { tenant, kind: 'oauth' } };
  }

  /** Active introspection answers by token digest, oldest first. */
  const introspected = new Map<string, { info: AuthInfo; until: number }>();
  /** Refusals (invalid_token) by token digest, oldest first. */
  const refused = new Map<string, { error: OAuthError; until: number }>();
  /** Questions on their way to the authorization server, by token digest. */
  const asking = new Map<string, Promise<AuthInfo>>();

  /** Remember `value` under `digest` until `until`, dropping the oldest entries beyond the bound. */
  function remember<T>(cache: Map<string, T & { until: number }>, digest: string, value: T & { until: number }): void {
    if (value.until <= now()) return;
    cache.delete(digest);
    cache.set(digest, value);
    for (const key of cache.keys()) {
      if (cache.size <= INTROSPECTION_CACHE_ENTRIES) break;
      cache.delete(key);
    }
  }

  function introspect(token: string): Promise<AuthInfo> {
    if (oauth === undefined || introspection === undefined || clientSecret === undefined) return Promise.reject(invalid('unknown token'));
    const digest = tokenDigest(token);
    const remembered = introspected.get(digest);
    if (remembered !== undefined) {
      if (remembered.until > now()) return Promise.resolve(remembered.info);
      introspected.delete(digest);
    }
    const denial = refused.get(digest);
    if (denial !== undefined) {
      if (denial.until > now()) return Promise.reject(denial.error);
      refused.delete(digest);
    }
    const pending = asking.get(digest);
    if (pending !== undefined) return pending;
    const question = askAbout(token, oauth, introspection, clientSecret).then(
      (info) => {
        if (introspection.cache_seconds > 0) remember(introspected, digest, { info, until: Math.min((info.expiresAt ?? 0) * 1000, now() + introspection.cache_seconds * 1000) });
        return info;
      },
      (error: unknown) => {
        // A refusal is the server's answer about this token; a failure to ask is not remembered.
        if (error instanceof OAuthError && error.code === (OAuthErrorCode.InvalidToken as string) && introspection.cache_seconds > 0) {
          remember(refused, digest, { error, until: now() + Math.min(introspection.cache_seconds, DENIAL_CACHE_MAX_SECONDS) * 1000 });
        }
        throw error;
      },
    );
    asking.set(digest, question);
    const forget = (): void => {
      if (asking.get(digest) === question) asking.delete(digest);
    };
    question.then(forget, forget);
    return question;
  }

  /** One RFC 7662 question about `token`, and the checks on its answer (introspect checked that introspection is configured). */
  async function askAbout(
    token: string,
    oauth: NonNullable<typeof file.oauth>,
    introspection: NonNullable<typeof oauth.introspection>,
    clientSecret: string,
  ): Promise<AuthInfo> {
    let endpoint = introspection.endpoint;
    if (endpoint === undefined) {
      const published = (await authorizationServerMetadata(oauth.issuer))['introspection_endpoint'];
      if (typeof published !== 'string') throw new OAuthError(OAuthErrorCode.ServerError, `the authorization server ${oauth.issuer} publishes no introspection_endpoint`);
      endpoint = published;
    }
    let answer: Record<string, unknown>;
    try {
      const response = await fetchImpl(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: basicCredentials(introspection.client_id, clientSecret) },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        signal: AbortSignal.timeout(INTROSPECTION_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body: unknown = await response.json();
      if (!isPlainObject(body)) throw new Error('not a JSON object');
      answer = body;
    } catch (error) {
      throw new OAuthError(OAuthErrorCode.ServerError, `the access token could not be introspected (${error instanceof Error ? error.message : String(error)})`);
    }
    if (answer['active'] !== true) throw invalid('the access token is not active');
    if (answer['iss'] !== undefined && answer['iss'] !== oauth.issuer) throw invalid('the access token was issued by another authorization server');
    if (!stringsOf(answer['aud']).includes(oauth.audience ?? file.resource)) throw invalid('the access token was not issued for this resource');
    const exp = answer['exp'];
    if (typeof exp !== 'number' || !Number.isFinite(exp)) throw invalid('the access token has no expiry');
    if (exp * 1000 <= now()) throw invalid('the access token has expired');
    return oauthAuthInfo(token, answer, exp);
  }

  async function verifyJwt(token: string): Promise<AuthInfo> {
    if (oauth === undefined || token.split('.').length !== 3) throw invalid('unknown token');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await keys(oauth.issuer, oauth.jwks_uri), {
        issuer: oauth.issuer,
        audience: oauth.audience ?? file.resource,
        currentDate: new Date(now()),
      }));
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      if (error instanceof joseErrors.JOSEError) throw invalid(`the access token was refused: ${error.code}`);
      throw new OAuthError(OAuthErrorCode.ServerError, 'the access token could not be checked');
    }
    if (payload.exp === undefined) throw invalid('the access token has no expiry');
    return oauthAuthInfo(token, payload, payload.exp);
  }

  const verifier: OAuthTokenVerifier = {
    verifyAccessToken(token) {
      const entry = statics.get(tokenDigest(token));
      if (entry !== undefined) {
        const nowS = Math.floor(now() / 1000);
        const expiresAt = entry.expires_at === undefined ? nowS + STATIC_TOKEN_HORIZON_S : Math.floor(Date.parse(entry.expires_at) / 1000);
        if (expiresAt <= nowS) return Promise.reject(invalid('the token has expired'));
        return Promise.resolve({ token, clientId: `static:${entry.tenant}`, scopes: oauth?.required_scopes ?? [], expiresAt, resource, extra: { tenant: entry.tenant, kind: 'static' } });
      }
      return introspection === undefined ? verifyJwt(token) : introspect(token);
    },
  };

  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  const metadata: OAuthProtectedResourceMetadata = {
    resource: file.resource,
    authorization_servers: oauth === undefined ? [] : [oauth.issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'Jacobian',
    ...(oauth?.scopes_supported !== undefined ? { scopes_supported: oauth.scopes_supported } : {}),
  };
  return {
    verifier,
    resourceMetadataUrl,
    metadataPaths: [...new Set([`/.well-known/oauth-protected-resource${path}`, '/.well-known/oauth-protected-resource'])],
    metadata,
    requiredScopes: oauth?.required_scopes ?? [],
  };
}
