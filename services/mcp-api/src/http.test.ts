import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createFileReasoningLogStore,
  createLocalFolderArtifactStore,
  createReasoningLog,
  inOwnTurn,
  nonConclusionResult,
  OperatorPolicySchema,
  type AdmittedRun,
  type ArtifactStore,
  type CapabilityResult,
  type ReasoningLog,
  type ReasoningLogStore,
  type RunQueue,
} from '@jacobian/shared';
import { createApi, type Api } from './api.js';
import { startHttpServer, type RunningHttpServer } from './http.js';
import { SQUARE, squared } from './square.fixture.js';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'lane-test', version: '0.0.1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Exchange {
  status: number;
  contentType: string;
  body: string;
}

/** One raw POST, so that every header and byte of the request is the test's choice. */
function post(url: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Exchange> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-length': String(Buffer.byteLength(body)), ...headers }, signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function modernHeaders(name: string, method = 'tools/call'): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    'mcp-name': name,
  };
}

function toolCall(name: string, args: unknown, extra: Record<string, unknown> = {}, id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: META, ...extra } });
}

/** A queue that answers squares, or waits for cancellation when n is 999. */
const cancelled: string[] = [];
const queue: RunQueue = {
  submit: (run: AdmittedRun, _target, options) => {
    if (run.payload['n'] !== 999) return Promise.resolve(squared(run));
    return new Promise<CapabilityResult>((resolve) => {
      options?.signal?.addEventListener('abort', () => {
        cancelled.push(run.job_id);
        resolve(nonConclusionResult(run, { status: 'CANCELLED', diagnostics: [] }));
      });
    });
  },
  stats: () => ({ inFlight: 0, queued: 0, running: 0 }),
  close: () => Promise.resolve(),
};

let root: string;
let store: ArtifactStore;
let api: Api;
let withLane: RunningHttpServer;
let sdkOnly: RunningHttpServer;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-http-'));
  store = createLocalFolderArtifactStore({ root });
  api = createApi({ installed: () => [SQUARE], policy: OperatorPolicySchema.parse({}), queue, artifacts: store, trustedCheckerKeys: new Map() });
  withLane = await startHttpServer({ api, host: '127.0.0.1', port: 0 });
  sdkOnly = await startHttpServer({ api, host: '127.0.0.1', port: 0, toolLane: false });
});

afterAll(async () => {
  await withLane.close();
  await sdkOnly.close();
  await store.close();
  await rm(root, { recursive: true, force: true });
});

/** Send the same request to both servers; return both answers and which path the lane server used. */
async function both(
  body: string,
  headers: Record<string, string>,
  servers: { lane: RunningHttpServer; sdk: RunningHttpServer } = { lane: withLane, sdk: sdkOnly },
): Promise<{ lane: Exchange; sdk: Exchange; viaLane: boolean }> {
  const before = servers.lane.stats().toolLane;
  const lane = await post(servers.lane.url, body, headers);
  const viaLane = servers.lane.stats().toolLane > before;
  const sdk = await post(servers.sdk.url, body, headers);
  return { lane, sdk, viaLane };
}

function expectSameAnswer(lane: Exchange, sdk: Exchange): void {
  expect(lane.status).toBe(sdk.status);
  expect(lane.contentType).toBe(sdk.contentType);
  if (sdk.contentType.includes('application/json')) expect(JSON.parse(lane.body)).toEqual(JSON.parse(sdk.body));
  else expect(lane.body).toBe(sdk.body);
}

describe('modern tool lane: answers exactly as the SDK does', () => {
  const served: [string, string, unknown][] = [
    ['math.find browse', 'math.find', {}],
    ['math.find search', 'math.find', { query: 'square integer', limit: 3 }],
    ['math.find inspect CONTRACT', 'math.find', { capability_id: 'test.square', view: 'CONTRACT' }],
    ['math.find with a bad limit (typed diagnostic, isError)', 'math.find', { limit: 99 }],
    ['math.find with an unknown argument', 'math.find', { color: 'red' }],
    ['math.find naming natural-language proof (NO_ROUTE, recovery paths)', 'math.find', { query: 'check my informal proof' }],
    ['math.find with an unknown domain (UNKNOWN_DOMAIN)', 'math.find', { query: 'square', domain: 'topology' }],
    ['math.run computing', 'math.run', { capability_id: 'test.square', mode: 'EXPLORE', payload: { n: 12 } }],
    ['math.run with a bad payload (ERROR result)', 'math.run', { capability_id: 'test.square', mode: 'EXPLORE', payload: { n: -1 } }],
    ['math.run of an unknown capability', 'math.run', { capability_id: 'test.nothing', mode: 'EXPLORE', payload: {} }],
    ['math.run in an unsupported mode', 'math.run', { capability_id: 'test.square', mode: 'VERIFY', payload: { n: 2 } }],
  ];

  it.each(served)('%s: served by the lane, same answer as the SDK', async (_title, name, args) => {
    const { lane, sdk, viaLane } = await both(toolCall(name, args), modernHeaders(name));
    expect(viaLane).toBe(true);
    expect(lane.status).toBe(200);
    expectSameAnswer(lane, sdk);
    const parsed = JSON.parse(lane.body) as { result: { resultType: string; structuredContent: unknown; _meta: Record<string, unknown> } };
    expect(parsed.result.resultType).toBe('complete');
    expect(parsed.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'jacobian' });
  });

  it('refuses a payload key named __proto__ as it arrives over HTTP, naming its place, on both paths', async () => {
    // JSON.parse keeps the key as an own property, and JSON.stringify sends it back: the body holds "__proto__".
    const args = JSON.parse('{"capability_id": "test.square", "mode": "EXPLORE", "payload": {"n": 3, "__proto__": {"n": 4}}}') as Record<string, unknown>;
    const body = toolCall('math.run', args);
    expect(body).toContain('"__proto__"');
    const { lane, sdk, viaLane } = await both(body, modernHeaders('math.run'));
    expect(viaLane).toBe(true);
    expectSameAnswer(lane, sdk);
    const result = (JSON.parse(lane.body) as { result: { structuredContent: { execution: { status: string }; diagnostics: { code: string; path: unknown }[] } } }).result.structuredContent;
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', '__proto__'] });
  });

  it('keeps a string request id', async () => {
    const { lane, sdk, viaLane } = await both(toolCall('math.find', {}, {}, 'abc-1'), modernHeaders('math.find'));
    expect(viaLane).toBe(true);
    expectSameAnswer(lane, sdk);
    expect((JSON.parse(lane.body) as { id: unknown }).id).toBe('abc-1');
  });

  const refused: [string, string, Record<string, string>][] = [
    ['Mcp-Name disagreeing with params.name', toolCall('math.find', {}), modernHeaders('math.run')],
    ['no Mcp-Name header', toolCall('math.find', {}), (({ 'mcp-name': _n, ...rest }) => rest)(modernHeaders('math.find'))],
    ['Mcp-Name as a Base64 sentinel', toolCall('math.find', {}), { ...modernHeaders('math.find'), 'mcp-name': '=?base64?bWF0aC5maW5k?=' }],
    ['arguments missing', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'math.find', _meta: META } }), modernHeaders('math.find')],
    ['arguments not an object', toolCall('math.find', [1, 2]), modernHeaders('math.find')],
    ['an extra params member', toolCall('math.find', {}, { task: { ttl: 1000 } }), modernHeaders('math.find')],
    ['a body that is not JSON', '{"jsonrpc": "2.0", "id": 1,', modernHeaders('math.find')],
    ['a JSON-RPC batch', `[${toolCall('math.find', {})}]`, modernHeaders('math.find')],
    ['an invalid envelope', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'math.find', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } } }), modernHeaders('math.find')],
    ['header and envelope versions differing', toolCall('math.find', {}), { ...modernHeaders('math.find'), 'mcp-protocol-version': '2027-01-01' }],
    ['Mcp-Method disagreeing with the body', toolCall('math.find', {}), modernHeaders('math.find', 'tools/list')],
    ['a legacy (envelope-less) call', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'math.find', arguments: {} } }), { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }],
    ['a foreign Host', toolCall('math.find', {}), { ...modernHeaders('math.find'), host: 'evil.example:80' }],
    ['a foreign Origin', toolCall('math.find', {}), { ...modernHeaders('math.find'), origin: 'http://evil.example' }],
    ['a text/plain body', toolCall('math.find', {}), { ...modernHeaders('math.find'), 'content-type': 'text/plain' }],
    ['a tool the lane does not serve', toolCall('math.other', {}), modernHeaders('math.other')],
  ];

  it.each(refused)('%s: left to the SDK, whose answer is unchanged', async (_title, body, headers) => {
    const { lane, sdk, viaLane } = await both(body, headers);
    expect(viaLane).toBe(false);
    expectSameAnswer(lane, sdk);
  });

  it('cancels a math.run whose client disconnects, and answers nobody', async () => {
    const controller = new AbortController();
    const before = cancelled.length;
    const pending = post(withLane.url, toolCall('math.run', { capability_id: 'test.square', mode: 'EXPLORE', payload: { n: 999 } }), modernHeaders('math.run'), controller.signal);
    await expect.poll(() => withLane.stats().toolLane).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => cancelled.length).toBe(before + 1);
  });

  it('serves many concurrent calls, each with its own id', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(withLane.url, toolCall('math.run', { capability_id: 'test.square', mode: 'EXPLORE', payload: { n: i } }, {}, i), modernHeaders('math.run'))),
    );
    answers.forEach((answer, i) => {
      const parsed = JSON.parse(answer.body) as { id: number; result: { structuredContent: { output: { square: number } } } };
      expect(parsed.id).toBe(i);
      expect(parsed.result.structuredContent.output.square).toBe(i * i);
    });
  });
});

describe('math.find answers are remembered per catalog', () => {
  it('answers a repeated call identically on both paths, twice', async () => {
    const body = toolCall('math.find', { query: 'integer' });
    const first = await both(body, modernHeaders('math.find'));
    const second = await both(body, modernHeaders('math.find'));
    expectSameAnswer(first.lane, second.lane);
    expectSameAnswer(first.sdk, second.sdk);
    expectSameAnswer(second.lane, second.sdk);
  });

  it('answers from the new catalog as soon as it changes', async () => {
    let installed = [SQUARE];
    const changing = createApi({ installed: () => installed, policy: OperatorPolicySchema.parse({}), queue, artifacts: store, trustedCheckerKeys: new Map() });
    const server = await startHttpServer({ api: changing, host: '127.0.0.1', port: 0 });
    try {
      const body = toolCall('math.find', {});
      const before = JSON.parse((await post(server.url, body, modernHeaders('math.find'))).body) as { result: { structuredContent: { total_matches: number; catalog_digest: string } } };
      expect(before.result.structuredContent.total_matches).toBe(1);
      installed = [];
      const after = JSON.parse((await post(server.url, body, modernHeaders('math.find'))).body) as { result: { structuredContent: { total_matches: number; catalog_digest: string } } };
      expect(after.result.structuredContent.total_matches).toBe(0);
      expect(after.result.structuredContent.catalog_digest).not.toBe(before.result.structuredContent.catalog_digest);
    } finally {
      await server.close();
    }
  });
});

describe('modern tool lane with the reasoning log REQUIRED: math.run answers exactly as the SDK does', () => {
  // Each server has its own log; both logs draw IDs from the same sequence, so the same entries
  // written to both get the same IDs and one math.run body is bound on each.
  const stores: ReasoningLogStore[] = [];
  const logs: ReasoningLog[] = [];
  const servers: RunningHttpServer[] = [];
  let pair: { lane: RunningHttpServer; sdk: RunningHttpServer };

  beforeAll(async () => {
    for (const toolLane of [true, false]) {
      let next = 0;
      const logStore = createFileReasoningLogStore({ directory: path.join(root, `reasoning-${String(toolLane)}`) });
      const log = createReasoningLog({ mode: 'REQUIRED', store: logStore, idGenerator: () => `parity-id-${String(++next).padStart(8, '0')}` });
      const reasoningApi = createApi({ installed: () => [SQUARE], policy: OperatorPolicySchema.parse({}), queue, artifacts: store, trustedCheckerKeys: new Map(), reasoning: log });
      stores.push(logStore);
      logs.push(log);
      servers.push(await startHttpServer({ api: reasoningApi, host: '127.0.0.1', port: 0, toolLane }));
    }
    pair = { lane: servers[0] as RunningHttpServer, sdk: servers[1] as RunningHttpServer };
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all(stores.map((store) => store.close()));
  });

  /** PLAN and BEFORE_TOOL on both logs; the IDs are the same on both. */
  async function openCallOnBoth(): Promise<{ reasoning_run_id: string; reasoning_call_id: string }> {
    const opened = await Promise.all(
      logs.map(async (log) => {
        const plan = await log.write({ phase: 'PLAN', summary: 'parity' });
        const before = await log.write({ phase: 'BEFORE_TOOL', reasoning_run_id: plan.reasoning_run_id, capability_id: 'test.square', mode: 'EXPLORE', summary: 'square' });
        return { reasoning_run_id: plan.reasoning_run_id, reasoning_call_id: before.reasoning_call_id as string };
      }),
    );
    expect(opened[0]).toEqual(opened[1]);
    return opened[0] as { reasoning_run_id: string; reasoning_call_id: string };
  }

  const runArgs = (ids: Record<string, unknown>) => ({ capability_id: 'test.square', mode: 'EXPLORE', payload: { n: 13 }, ...ids });

  it('a bound math.run, then the same call reused: same answers on both paths', async () => {
    const ids = await openCallOnBoth();
    const bound = await both(toolCall('math.run', runArgs(ids)), modernHeaders('math.run'), pair);
    expect(bound.viaLane).toBe(true);
    expectSameAnswer(bound.lane, bound.sdk);
    const parsed = JSON.parse(bound.lane.body) as { result: { isError?: boolean; _meta: Record<string, { status: string }> } };
    expect(parsed.result.isError).toBeUndefined();
    expect(parsed.result._meta['jacobian/reasoning']?.status).toBe('BOUND');
    const reused = await both(toolCall('math.run', runArgs(ids)), modernHeaders('math.run'), pair);
    expectSameAnswer(reused.lane, reused.sdk);
    expect((JSON.parse(reused.lane.body) as { result: { _meta: Record<string, { violation: string }> } }).result._meta['jacobian/reasoning']?.violation).toBe('REUSED');
  });

  it.each([
    ['an unbound math.run (rejected)', {}],
    ['a math.run naming an unknown run', { reasoning_run_id: 'q'.repeat(20), reasoning_call_id: 'q'.repeat(20) }],
    ['a math.run with a non-string ID', { reasoning_run_id: 7 }],
  ])('%s: same answer on both paths', async (_title, ids) => {
    const { lane, sdk, viaLane } = await both(toolCall('math.run', runArgs(ids)), modernHeaders('math.run'), pair);
    expect(viaLane).toBe(true);
    expectSameAnswer(lane, sdk);
    expect((JSON.parse(lane.body) as { result: { isError?: boolean } }).result.isError).toBe(true);
  });
});

describe('startHttpServer: a burst of new connections before the runs’ large steps', () => {
  it('accepts and answers the connections of a burst before the next large step (inOwnTurn) runs', async () => {
    const clients = 12;
    const sockets: Socket[] = [];
    let answered = 0;
    try {
      // A large step during which the burst connects, each client sending a request: libuv accepts
      // one connection per turn of the loop, so the next step, were it not held back while
      // connections keep being accepted, would run after the first of them only.
      const burst = inOwnTurn(() => {
        for (let i = 0; i < clients; i++) {
          const socket = connect(withLane.port, '127.0.0.1');
          socket.on('error', () => undefined).once('data', () => answered++);
          socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
          sockets.push(socket);
        }
        // Let the kernel complete the loopback handshakes while this thread is busy.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      });
      const answeredBeforeNextStep = inOwnTurn(() => answered);
      await burst;
      // Each connection is accepted in a turn of its own and its request read and answered in the
      // next, so all but the last one or two answers have arrived when the step runs (none without the rule).
      expect(await answeredBeforeNextStep).toBeGreaterThanOrEqual(clients - 2);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});
