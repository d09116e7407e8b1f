/**
 * Every MCP request is a server span after the OpenTelemetry MCP conventions, whichever way it
 * arrives: the SDK over an in-memory (stdio-like) transport in both protocol eras, Streamable
 * HTTP through the SDK, and the tool lane. And each is a duration in the process's metrics.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createJacobianMetrics, createLocalFolderArtifactStore, installTelemetry, OperatorPolicySchema, type ArtifactStore, type RunQueue } from '@jacobian/shared';
import { memoryTracing, type MemoryTracing } from '@jacobian/shared/testing';
import { createApi, type Api } from './api.js';
import { startHttpServer, type RunningHttpServer } from './http.js';
import { createMcpServer } from './mcp-server.js';
import { SQUARE, squared } from './square.fixture.js';

/** OpenTelemetry's SpanKind.SERVER and SpanStatusCode.ERROR. */
const SERVER = 1;
const ERROR = 2;

const queue: RunQueue = {
  submit: (run) => Promise.resolve(squared(run)),
  stats: () => ({ inFlight: 0, queued: 0, running: 0 }),
  close: () => Promise.resolve(),
};

let root: string;
let store: ArtifactStore;
let api: Api;
let storedUri: string;
let tracing: MemoryTracing | undefined;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-mcp-telemetry-'));
  store = createLocalFolderArtifactStore({ root });
  storedUri = (await store.put({ schema_uri: 'urn:test:note', semantics_uri: 'urn:test:note', payload: { text: 'hello' }, summary: { kind: 'note' } })).uri;
  api = createApi({ installed: () => [SQUARE], policy: OperatorPolicySchema.parse({}), queue, artifacts: store, trustedCheckerKeys: new Map() });
});

afterAll(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

afterEach(async () => {
  await tracing?.close();
  tracing = undefined;
});

function spans(): { name: string; kind: number; status: number; traceId: string; spanId: string; parentSpanId: string | undefined; attributes: Record<string, unknown> }[] {
  return (tracing?.exporter.getFinishedSpans() ?? []).map((span) => ({
    name: span.name,
    kind: span.kind,
    status: span.status.code,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: { ...span.attributes },
  }));
}

function named(name: string): ReturnType<typeof spans>[number] {
  const matching = spans().filter((span) => span.name === name);
  expect(matching.map((span) => span.name), `spans named ${name} among ${spans().map((s) => s.name).join(', ')}`).toEqual([name]);
  return matching[0] as ReturnType<typeof spans>[number];
}

describe.each([
  ['legacy', { mode: 'legacy' }],
  ['modern', { mode: { pin: '2026-07-28' } }],
] as const)('MCP spans over an in-memory transport (%s era)', (era, versionNegotiation) => {
  it('names each request by method and target and carries the MCP attributes', async () => {
    tracing = memoryTracing();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(() => createMcpServer(api, { transport: 'pipe' }), { transport: serverSide });
    const client = new Client({ name: 'telemetry-test', version: '0.0.1' }, { versionNegotiation });
    try {
      await client.connect(clientSide);
      await client.listTools();
      await client.readResource({ uri: storedUri });
      await client.getPrompt({ name: 'jacobian-discover', arguments: { task: 'count the trees on 5 vertices' } });
      await client.callTool({ name: 'math.run', arguments: { capability_id: 'test.square', payload: { n: 3 } } });
      await expect(client.callTool({ name: 'no.such.tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
      await handle.close();
    }

    const list = named('tools/list');
    expect(list.kind).toBe(SERVER);
    expect(list.attributes).toMatchObject({ 'mcp.method.name': 'tools/list', 'network.transport': 'pipe' });
    expect(typeof list.attributes['jsonrpc.request.id']).toBe('string');
    expect(list.attributes).not.toHaveProperty('gen_ai.tool.name');
    // stdio and the stateless protocol have no session.
    expect(list.attributes).not.toHaveProperty('mcp.session.id');
    if (era === 'legacy') {
      expect(named('initialize').attributes).toMatchObject({ 'mcp.method.name': 'initialize', 'jsonrpc.request.id': expect.any(String) as unknown });
    } else {
      // The modern era has no initialize: each request names its protocol version.
      expect(spans().some((span) => span.name === 'initialize')).toBe(false);
      expect(list.attributes['mcp.protocol.version']).toBe('2026-07-28');
    }
    expect(named('resources/read').attributes).toMatchObject({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': storedUri });
    expect(named('prompts/get jacobian-discover').attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'jacobian-discover' });
    // The prompt's argument (the task) is not recorded.
    expect(JSON.stringify(spans())).not.toContain('count the trees');

    const call = named('tools/call math.run');
    expect(call.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'math.run', 'gen_ai.operation.name': 'execute_tool' });
    expect(call.status).not.toBe(ERROR);
    // The API's own span of the run is the request span's child.
    expect(named('math.run').parentSpanId).toBe(call.spanId);
    // An unknown tool names no span (names stay a bounded set), and is the caller's error, not the server's.
    const unknown = spans().filter((span) => span.attributes['gen_ai.tool.name'] === 'no.such.tool');
    expect(unknown.map((span) => span.name)).toEqual(['tools/call']);
    expect(unknown[0]?.status).not.toBe(ERROR);
    expect(unknown[0]?.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
  });
});

describe('mcp.session.id', () => {
  it('is the session of a transport that has one', async () => {
    tracing = memoryTracing();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // A transport with a session, as a stateful Streamable HTTP transport would be once initialized.
    Object.defineProperty(serverSide, 'sessionId', { value: 'session-7f3a', enumerable: true });
    // Connected directly: serveStdio would put a channel of its own, without a session, in between.
    const server = createMcpServer(api, { transport: 'tcp' });
    await server.connect(serverSide);
    const client = new Client({ name: 'telemetry-test', version: '0.0.1' }, { versionNegotiation: { mode: 'legacy' } });
    try {
      await client.connect(clientSide);
      await client.listTools();
    } finally {
      await client.close();
      await server.close();
    }
    expect(named('tools/list').attributes).toMatchObject({ 'mcp.session.id': 'session-7f3a' });
  });
});

describe('MCP spans over Streamable HTTP', () => {
  let server: RunningHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each([
    ['legacy', { mode: 'legacy' }],
    ['modern', { mode: { pin: '2026-07-28' } }],
  ] as const)('puts each request (%s era) under its HTTP span, through the SDK and the tool lane alike', async (era, versionNegotiation) => {
    tracing = memoryTracing();
    const metrics = createJacobianMetrics();
    // Tracer and metrics installed together, as a process has them.
    const uninstall = installTelemetry({ tracer: tracing.tracer, metrics });
    server = await startHttpServer({ api, host: '127.0.0.1', port: 0 });
    const client = new Client({ name: 'telemetry-test', version: '0.0.1' }, { versionNegotiation });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    try {
      await client.connect(transport);
      await client.listTools();
      await client.callTool({ name: 'math.run', arguments: { capability_id: 'test.square', payload: { n: 4 } } });
      // The server is stateless: it issued no Mcp-Session-Id (the client keeps the one it is given).
      expect(transport.sessionId).toBeUndefined();
    } finally {
      await client.close();
      uninstall();
    }
    const all = spans();
    // So no span names a session: the conventions set mcp.session.id only where there is one.
    expect(all.filter((span) => 'mcp.session.id' in span.attributes).map((span) => span.name)).toEqual([]);
    const byId = new Map(all.map((span) => [span.spanId, span]));
    for (const name of ['tools/list', 'tools/call math.run']) {
      const span = named(name);
      expect(span.attributes).toMatchObject({ 'network.transport': 'tcp' });
      expect(byId.get(span.parentSpanId ?? '')?.name, `${name}'s parent`).toBe('POST /mcp');
    }
    expect(named('math.run').parentSpanId).toBe(named('tools/call math.run').spanId);
    if (era === 'legacy') expect(byId.get(named('initialize').parentSpanId ?? '')?.name).toBe('POST /mcp');
    // The modern math.run took the tool lane; the span is the same.
    if (era === 'modern') expect(server.stats().toolLane).toBeGreaterThan(0);

    const text = (await metrics.render()).body;
    expect(text).toMatch(/^mcp_server_operation_duration_seconds_count\{mcp_method_name="tools\/list",network_transport="tcp"\} 1$/m);
    expect(text).toMatch(/^mcp_server_operation_duration_seconds_count\{mcp_method_name="tools\/call",network_transport="tcp",gen_ai_tool_name="math\.run"\} 1$/m);
    await metrics.shutdown();
  });

  it('continues a trace the client put in the request _meta', async () => {
    tracing = memoryTracing();
    server = await startHttpServer({ api, host: '127.0.0.1', port: 0 });
    const client = new Client({ name: 'telemetry-test', version: '0.0.1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      await client.callTool({ name: 'math.run', arguments: { capability_id: 'test.square', payload: { n: 5 } }, _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    } finally {
      await client.close();
    }
    const call = named('tools/call math.run');
    expect(call.traceId).toBe(traceId);
    expect(call.parentSpanId).toBe('00f067aa0ba902b7');
  });
});
