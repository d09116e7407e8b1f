import { PassThrough } from 'node:stream';

import { OperatorPolicySchema, type RunQueue } from '@jacobian/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createApi, type Api } from './api.js';
import { startHttpServer, type RunningHttpServer } from './http.js';
import { malformedRequestAnswer } from './request-guard.js';
import { SQUARE, squared } from './square.fixture.js';
import { startStdioServer } from './stdio.js';

const queue: RunQueue = {
  submit: (run) => Promise.resolve(squared(run)),
  stats: () => ({ inFlight: 0, queued: 0, running: 0 }),
  close: () => Promise.resolve(),
};
const api: Api = createApi({ installed: () => [SQUARE], policy: OperatorPolicySchema.parse({}), queue, artifacts: undefined as never, trustedCheckerKeys: new Map() });

const CLIENT = { name: 'guard-test', version: '1.0.0' };
function initialize(params: unknown, id: number | string = 1): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'initialize', ...(params === undefined ? {} : { params }) };
}

/** Malformed params, the field the answer must name, and a word of the rule it must state. */
const MALFORMED: Array<[string, unknown, string, RegExp]> = [
  ['a number as protocolVersion', { protocolVersion: 20250618, capabilities: {}, clientInfo: CLIENT }, 'params.protocolVersion', /non-empty string .*got a number/],
  ['an object as protocolVersion', { protocolVersion: { v: '2025-06-18' }, capabilities: {}, clientInfo: CLIENT }, 'params.protocolVersion', /non-empty string .*got an object/],
  ['an empty protocolVersion', { protocolVersion: '', capabilities: {}, clientInfo: CLIENT }, 'params.protocolVersion', /non-empty string .*got an empty string/],
  ['a blank protocolVersion', { protocolVersion: '  ', capabilities: {}, clientInfo: CLIENT }, 'params.protocolVersion', /non-empty string/],
  ['null as protocolVersion', { protocolVersion: null, capabilities: {}, clientInfo: CLIENT }, 'params.protocolVersion', /got null/],
  ['no protocolVersion', { capabilities: {}, clientInfo: CLIENT }, 'params.protocolVersion', /got nothing/],
  ['no params', undefined, 'params', /must be an object/],
  ['an array as capabilities', { protocolVersion: '2025-06-18', capabilities: [], clientInfo: CLIENT }, 'params.capabilities', /must be an object/],
  ['no clientInfo', { protocolVersion: '2025-06-18', capabilities: {} }, 'params.clientInfo', /string name and version/],
  ['a number as client name', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 7, version: '1' } }, 'params.clientInfo.name', /must be a string/],
];

describe('malformedRequestAnswer', () => {
  it.each(MALFORMED)('answers %s with -32602 naming %s', (_name, params, field, rule) => {
    const answer = malformedRequestAnswer(initialize(params));
    expect(answer?.error.code).toBe(-32602);
    expect(answer?.error.message).toContain(`initialize: ${field}`);
    expect(answer?.error.message).toMatch(rule);
    // Short, and no schema dump.
    expect(answer?.error.message.length).toBeLessThan(160);
    expect(answer?.error.message).not.toMatch(/invalid_type|"code"|\[\s*\{/);
    expect(answer?.id).toBe(1);
  });

  it('leaves well-formed initialize requests (any revision string: the SDK negotiates) and every other message alone', () => {
    for (const version of ['2025-06-18', '2024-11-05', '2099-01-01', 'draft']) expect(malformedRequestAnswer(initialize({ protocolVersion: version, capabilities: {}, clientInfo: CLIENT }))).toBeUndefined();
    expect(malformedRequestAnswer({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { protocolVersion: 5 } })).toBeUndefined();
    expect(malformedRequestAnswer({ jsonrpc: '2.0', method: 'initialize', params: {} })).toBeUndefined();
    expect(malformedRequestAnswer([initialize({})])).toBeUndefined();
    expect(malformedRequestAnswer('initialize')).toBeUndefined();
  });
});

/** Other 2025-era requests with malformed params: method, params, the field named, a word of the rule. */
const MALFORMED_OTHERS: Array<[string, Record<string, unknown>, string, RegExp]> = [
  ['resources/read', { uri: 5 }, 'params.uri', /^resources\/read: params\.uri: expected string, received number$/],
  ['prompts/get', { name: 3 }, 'params.name', /expected string/],
  ['tools/list', { cursor: 5 }, 'params.cursor', /expected string/],
  ['tools/call', { name: 5 }, 'params.name', /expected string/],
  ['tools/call', { name: 'math.find', arguments: 5 }, 'params.arguments', /expected record/],
];

describe('other malformed 2025-era requests', () => {
  it.each(MALFORMED_OTHERS)('answers %s %j with -32602 naming %s', (method, params, field, rule) => {
    const answer = malformedRequestAnswer({ jsonrpc: '2.0', id: 4, method, params });
    expect(answer?.error.code).toBe(-32602);
    expect(answer?.error.message).toContain(`${method}: ${field}`);
    expect(answer?.error.message).toMatch(rule);
    expect(answer?.error.message).not.toMatch(/invalid_type|"code"|\[\s*\{/);
  });

  it('leaves well-formed requests, modern ones (the SDK checks their envelope) and non-object params (-32600 from the SDK) alone', () => {
    expect(malformedRequestAnswer({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'math.find', arguments: {} } })).toBeUndefined();
    expect(malformedRequestAnswer({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'capability://catalog' } })).toBeUndefined();
    expect(malformedRequestAnswer({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
    expect(malformedRequestAnswer({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } })).toBeUndefined();
    expect(malformedRequestAnswer({ jsonrpc: '2.0', id: 1, method: 'ping', params: 5 })).toBeUndefined();
    expect(malformedRequestAnswer({ jsonrpc: '2.0', id: 1, method: 'math/unknown', params: { x: 1 } })).toBeUndefined();
  });
});

describe('malformed requests over HTTP', () => {
  let server: RunningHttpServer;
  beforeAll(async () => {
    server = await startHttpServer({ api, host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  async function post(body: unknown): Promise<{ status: number; json: { id?: unknown; result?: { protocolVersion?: string }; error?: { code: number; message: string } } }> {
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });
    const text = await response.text();
    // The SDK answers a legacy request as one SSE event.
    const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
    return { status: response.status, json: JSON.parse(data) as never };
  }

  it.each(MALFORMED)('answers %s with -32602 naming %s', async (_name, params, field, rule) => {
    const { status, json } = await post(initialize(params, 'init-1'));
    expect(status).toBe(200);
    expect(json.id).toBe('init-1');
    expect(json.error?.code).toBe(-32602);
    expect(json.error?.message).toContain(`initialize: ${field}`);
    expect(json.error?.message).toMatch(rule);
    expect(json.result).toBeUndefined();
  });

  it.each(MALFORMED_OTHERS)('answers %s %j with -32602 naming %s', async (method, params, field, rule) => {
    const { status, json } = await post({ jsonrpc: '2.0', id: 4, method, params });
    expect(status).toBe(200);
    expect(json.error?.code).toBe(-32602);
    expect(json.error?.message).toContain(`${method}: ${field}`);
    expect(json.error?.message).toMatch(rule);
  });

  it('still initializes a well-formed client, and negotiates an unknown revision', async () => {
    expect((await post(initialize({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT }))).json.result?.protocolVersion).toBe('2025-06-18');
    expect((await post(initialize({ protocolVersion: '1999-01-01', capabilities: {}, clientInfo: CLIENT }))).json.result?.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('malformed requests over stdio', () => {
  it('is answered -32602 naming the field, and the connection then initializes', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: Array<Record<string, unknown>> = [];
    let pending = '';
    const waiters: Array<() => void> = [];
    stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let newline;
      while ((newline = pending.indexOf('\n')) !== -1) {
        lines.push(JSON.parse(pending.slice(0, newline)) as Record<string, unknown>);
        pending = pending.slice(newline + 1);
        waiters.shift()?.();
      }
    });
    const next = async (): Promise<Record<string, unknown>> => {
      if (lines.length === 0) await new Promise<void>((resolve) => waiters.push(resolve));
      return lines.shift() as Record<string, unknown>;
    };
    const handle = startStdioServer(api, undefined, { stdin, stdout });
    try {
      for (const [, params, field, rule] of MALFORMED.slice(0, 3)) {
        stdin.write(`${JSON.stringify(initialize(params, 9))}\n`);
        const answer = (await next()) as { id: number; error?: { code: number; message: string }; result?: unknown };
        expect(answer.id).toBe(9);
        expect(answer.error?.code).toBe(-32602);
        expect(answer.error?.message).toContain(`initialize: ${field}`);
        expect(answer.error?.message).toMatch(rule);
      }
      stdin.write(`${JSON.stringify(initialize({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT }, 10))}\n`);
      const answer = (await next()) as { id: number; result?: { protocolVersion: string; serverInfo: { name: string } } };
      expect(answer.id).toBe(10);
      expect(answer.result?.protocolVersion).toBe('2025-06-18');
      expect(answer.result?.serverInfo.name).toBe('jacobian');
      // After initialize, a malformed request on the connection is refused alike, and a good one served.
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'resources/read', params: { uri: 5 } })}\n`);
      const refused = (await next()) as { id: number; error?: { code: number; message: string } };
      expect(refused).toMatchObject({ id: 11, error: { code: -32602 } });
      expect(refused.error?.message).toContain('resources/read: params.uri');
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'tools/list' })}\n`);
      const listed = (await next()) as { id: number; result?: { tools: Array<{ name: string }> } };
      expect(listed.id).toBe(12);
      expect(listed.result?.tools.map((tool) => tool.name)).toContain('math.find');
    } finally {
      await handle.close();
    }
  });
});
