/**
 * The request-target family against a running `jacobian` HTTP server with authentication, over
 * raw sockets: every non-canonical target is refused with 400 whether or not it carries the
 * token, a canonical path without a token gets 401, and no answer without a valid token ever
 * carries an MCP result; with the token, the canonical endpoint still serves.
 */
import { carriesJsonRpcResult, LEGACY_HEADERS, LEGACY_INITIALIZE, MODERN_FIND, MODERN_HEADERS, nonCanonicalMcpTargets, rawHttp, rawRequest } from '@jacobian/shared/testing';

export interface TargetFinding {
  request: string;
  statuses: number[];
  /** An MCP result came back for it. */
  answered: boolean;
}

/** Every probe whose answer broke the rules (an empty list when the server holds). */
export async function requestTargetViolations(port: number, token: string): Promise<TargetFinding[]> {
  const host: readonly [string, string] = ['Host', `127.0.0.1:${port}`];
  const close: readonly [string, string] = ['Connection', 'close'];
  const bearer: readonly [string, string] = ['Authorization', `Bearer ${token}`];
  const violations: TargetFinding[] = [];
  /** `allowed` statuses; 0 allows a connection closed without an answer. */
  const probe = async (label: string, bytes: string, allowed: readonly number[], mayAnswer: boolean): Promise<void> => {
    const exchange = await rawHttp(port, bytes);
    const statuses = exchange.responses.map((response) => response.status).filter((status) => status >= 200);
    const answered = exchange.responses.some((response) => carriesJsonRpcResult(response.body));
    const unanswered = statuses.length === 0 && !allowed.includes(0);
    if ((answered && !mayAnswer) || unanswered || statuses.some((status) => !allowed.includes(status))) violations.push({ request: label, statuses, answered });
  };
  for (const target of nonCanonicalMcpTargets(port)) {
    for (const method of ['POST', 'GET', 'DELETE', 'OPTIONS']) {
      for (const credentials of [[], [bearer]] as const) {
        for (const [headers, body] of [[LEGACY_HEADERS, LEGACY_INITIALIZE], [MODERN_HEADERS, MODERN_FIND]] as const) {
          await probe(`${method} ${target}${credentials.length > 0 ? ' (token)' : ''}`, rawRequest({ method, target, headers: [host, ...headers, ...credentials, close], body }), [400], false);
        }
      }
    }
  }
  for (const target of ['/mcp', '/mcp?x=1', '/MCP', '/', '/unknown']) {
    for (const [headers, body] of [[LEGACY_HEADERS, LEGACY_INITIALIZE], [MODERN_HEADERS, MODERN_FIND]] as const) {
      await probe(`POST ${target}`, rawRequest({ method: 'POST', target, headers: [host, ...headers, close], body }), [401], false);
    }
  }
  await probe('two Authorization headers', rawRequest({ method: 'POST', target: '/mcp', headers: [host, ...MODERN_HEADERS, bearer, ['Authorization', 'Bearer nope'], close], body: MODERN_FIND }), [400], false);
  await probe('HTTP/1.0 without Host', rawRequest({ method: 'POST', target: '/mcp', version: 'HTTP/1.0', headers: [...LEGACY_HEADERS], body: LEGACY_INITIALIZE }), [400], false);
  // Node closes a CONNECT's connection unanswered (the server has no 'connect' listener).
  await probe('CONNECT', rawRequest({ method: 'CONNECT', target: `127.0.0.1:${port}`, headers: [host] }), [0, 400], false);
  // The open probe and, with the token, the endpoint itself.
  await probe('GET /healthz', rawRequest({ method: 'GET', target: '/healthz', headers: [host, close] }), [200], false);
  const served = await rawHttp(port, rawRequest({ method: 'POST', target: '/mcp', headers: [host, ...MODERN_HEADERS, bearer, close], body: MODERN_FIND }), { until: 1 });
  if (served.responses[0]?.status !== 200 || !carriesJsonRpcResult(served.responses[0].body)) violations.push({ request: 'POST /mcp with the token', statuses: served.responses.map((r) => r.status), answered: false });
  return violations;
}
