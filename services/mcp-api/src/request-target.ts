/**
 * The one reading of an HTTP request's target and routing headers that every part of the HTTP
 * server acts on: authentication, the tool lane and the hono app.
 *
 * Routers normalize what they are given: the WHATWG URL parser resolves `.` and `..` segments and
 * takes absolute-form targets apart, hono decodes percent-escapes before matching, and a
 * fragment or a backslash means different things to different parsers. Had authentication read
 * the raw target while a router read a normalized one, `/x/../mcp` would reach the MCP handler
 * unauthenticated. So a request is refused (400) unless its target is already in the canonical
 * form every one of those readers leaves unchanged: origin-form, a path of plain segments, an
 * optional query, no fragment. Then the path authenticated is the path routed.
 *
 * Headers whose repetition makes two readers disagree (Node keeps the first Authorization and
 * Host, the Fetch API joins every value) are refused when repeated.
 */
import type { IncomingMessage } from 'node:http';

/**
 * A path segment: RFC 3986 unreserved characters only. No percent-escapes (hono decodes them
 * before routing), no sub-delimiters (`;` is a parameter separator to some routers), no `.` or
 * `..` segment (checked apart) and no empty segment (`//mcp`, `/mcp/`).
 */
const PATH = /^(?:\/[A-Za-z0-9._~-]+)+$/;
/** RFC 3986 query characters, with well-formed percent-escapes only. */
const QUERY = /^(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*$/;
/** RFC 3986 reg-name (no escapes) or IP literal, and an optional port: what a Host header may hold. */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9._-]{0,251}[A-Za-z0-9_])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/** Headers that must appear at most once. */
const SINGLE_HEADERS: ReadonlySet<string> = new Set(['host', 'authorization', 'content-type', 'content-length', 'origin', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id']);

export type TargetReading = { ok: true; path: string } | { ok: false; reason: string };

/**
 * The canonical path of `target`, or why it is not canonical. `exact` names extra paths
 * accepted as they are (the protected resource metadata path derived from an operator's
 * resource URL may hold escapes); they are answered without any router.
 */
export function readRequestTarget(target: string | undefined, exact: ReadonlySet<string> = new Set()): TargetReading {
  if (target === undefined || !target.startsWith('/')) return { ok: false, reason: 'the request target must be a path (origin-form), such as /mcp' };
  if (target.includes('#')) return { ok: false, reason: 'the request target must not hold a fragment (#)' };
  const mark = target.indexOf('?');
  const path = mark === -1 ? target : target.slice(0, mark);
  const query = mark === -1 ? '' : target.slice(mark + 1);
  if (!QUERY.test(query)) return { ok: false, reason: 'the query holds a character that must be percent-encoded, or a malformed escape' };
  if (exact.has(path) || path === '/') return { ok: true, path };
  if (!PATH.test(path)) return { ok: false, reason: 'the path must be plain segments of A-Z a-z 0-9 . _ ~ - (no escapes, no empty segment, no trailing slash)' };
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return { ok: false, reason: 'the path must not hold . or .. segments' };
  return { ok: true, path };
}

/**
 * The canonical path of `request` (see {@link readRequestTarget}), or why the request is
 * refused: a target not in canonical form, a repeated routing or credential header, a missing
 * or malformed Host, or a URL the adapter would build with another path.
 */
export function readRequest(request: IncomingMessage, exact: ReadonlySet<string> = new Set()): TargetReading {
  const reading = readRequestTarget(request.url, exact);
  if (!reading.ok) return reading;
  const ambiguous = ambiguousHeaders(request);
  if (ambiguous !== undefined) return { ok: false, reason: ambiguous };
  if (!routedPathMatches(request, reading.path)) return { ok: false, reason: 'the request target and Host do not name one path' };
  return reading;
}

/** Why the request's headers are ambiguous, or undefined when they are not. */
function ambiguousHeaders(request: IncomingMessage): string | undefined {
  // Node has already dropped or joined repeats in `headers`; as many raw pairs as names means none.
  const raw = request.rawHeaders;
  let names = 0;
  for (const name in request.headers) if (Object.hasOwn(request.headers, name)) names++;
  const seen = new Set<string>();
  for (let i = names * 2 === raw.length ? raw.length : 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!SINGLE_HEADERS.has(name)) continue;
    if (seen.has(name)) return `the ${name} header must appear once`;
    seen.add(name);
  }
  const host = request.headers.host;
  if (host === undefined || host === '') return 'a Host header is required';
  if (!HOST.test(host)) return 'the Host header must be a host name or IP literal with an optional port';
  return undefined;
}

/**
 * Whether the URL the hono adapter builds from Host and target has exactly `path` as its path:
 * a last guard, so that a parser difference this module did not foresee fails closed.
 */
function routedPathMatches(request: IncomingMessage, path: string): boolean {
  try {
    return new URL(`http://${request.headers.host ?? ''}${request.url ?? ''}`).pathname === path;
  } catch {
    return false;
  }
}
