import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport, ResourceNotFoundError } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  CapabilityResultSchema,
  createLocalFolderArtifactStore,
  OperatorPolicySchema,
  type AdmittedRun,
  type ArtifactStore,
  type RunQueue,
} from '@jacobian/shared';
import { createApi, type Api } from './api.js';
import { createMcpServer } from './mcp-server.js';
import { SQUARE, squared } from './square.fixture.js';

const submits: AdmittedRun[] = [];
/** n = 777 stands for a long run: it reports progress twice, past the notifier's throttle interval, then answers. */
const queue: RunQueue = {
  submit: async (run, _target, options) => {
    submits.push(run);
    if (run.payload['n'] === 777) {
      options?.onProgress?.({ progress: 1, total: 2, message: 'half way' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      options?.onProgress?.({ progress: 2, total: 2, message: 'done' });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return squared(run);
  },
  stats: () => ({ inFlight: 0, queued: 0, running: 0 }),
  close: () => Promise.resolve(),
};

let root: string;
let store: ArtifactStore;
let api: Api;
let storedUri: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-mcp-'));
  store = createLocalFolderArtifactStore({ root });
  storedUri = (await store.put({ schema_uri: 'urn:test:note', semantics_uri: 'urn:test:note', payload: { text: 'hello' }, summary: { kind: 'note' } })).uri;
  api = createApi({ installed: () => [SQUARE], policy: OperatorPolicySchema.parse({}), queue, artifacts: store, trustedCheckerKeys: new Map() });
});

afterAll(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

const ERAS = [
  ['legacy', { mode: 'legacy' }, 'legacy'],
  ['modern', { mode: { pin: '2026-07-28' } }, 'modern'],
] as const;

describe.each(ERAS)('MCP server over in-memory transport (%s era)', (_name, versionNegotiation, era) => {
  let client: Client;
  let handle: { close(): Promise<void> };

  async function connect(): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    handle = serveStdio(() => createMcpServer(api), { transport: serverSide });
    client = new Client({ name: 'jacobian-test', version: '0.0.1' }, { versionNegotiation });
    await client.connect(clientSide);
    return client;
  }

  afterEach(async () => {
    await client.close();
    await handle.close();
  });

  it('speaks the expected protocol era', async () => {
    await connect();
    expect(client.getProtocolEra()).toBe(era);
  });

  it('lists exactly math.find and math.run, each with input and output schemas', async () => {
    await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['math.find', 'math.run']);
    for (const tool of tools) {
      expect(tool.outputSchema?.['type']).toBe('object');
      expect(tool.inputSchema.type).toBe('object');
    }
    const run = tools.find((t) => t.name === 'math.run');
    expect(run?.inputSchema).toMatchObject({ additionalProperties: false, required: ['capability_id', 'payload'] });
    expect(Object.keys(run?.inputSchema.properties ?? {}).sort()).toEqual(['budget', 'capability_id', 'mode', 'payload']);
    expect(Object.keys(run?.outputSchema?.['properties'] as object | undefined ?? {})).toEqual(expect.arrayContaining(['execution', 'assurance', 'completeness', 'scope', 'diagnostics']));
    const find = tools.find((t) => t.name === 'math.find');
    expect(Object.keys(find?.inputSchema.properties ?? {}).sort()).toEqual(['artifact_type', 'capability_id', 'cursor', 'domain', 'example_index', 'input_kind', 'limit', 'mode', 'query', 'view']);
    expect(Object.keys(find?.outputSchema?.['properties'] as object | undefined ?? {})).toEqual(
      expect.arrayContaining(['portfolio_fit', 'portfolio_fit_basis', 'domain_filter_status', 'installed_domains', 'routing_status', 'routing_basis', 'recovery_paths']),
    );
  });

  it('runs a capability and returns the complete result as structured content', async () => {
    await connect();
    await client.listTools();
    const response = await client.callTool({ name: 'math.run', arguments: { capability_id: 'test.square', payload: { n: 12 } } });
    expect(response.isError).toBeFalsy();
    const result = CapabilityResultSchema.parse(response.structuredContent);
    expect(result.output).toEqual({ square: 144 });
    expect(result.execution.status).toBe('COMPLETED');
    const text = (response.content as { type: string; text: string }[])[0]?.text ?? '';
    expect(text).toContain('test.square@1.0.0 [EXPLORE] execution: COMPLETED');
    expect(text).toContain('output: {"square":144}');
  });

  it('sends math.run progress as notifications/progress when the call asks for it, and none otherwise', async () => {
    await connect();
    await client.listTools();
    const progress: unknown[] = [];
    const response = await client.callTool(
      { name: 'math.run', arguments: { capability_id: 'test.square', payload: { n: 777 } } },
      { onprogress: (p) => progress.push(p) },
    );
    expect(CapabilityResultSchema.parse(response.structuredContent).output).toEqual({ square: 777 * 777 });
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'half way' },
      { progress: 2, total: 2, message: 'done' },
    ]);
    // The same run without a progress request (answered from the fake queue again): no notifications.
    const quiet: unknown[] = [];
    client.setNotificationHandler('notifications/progress', (n) => void quiet.push(n));
    await client.callTool({ name: 'math.run', arguments: { capability_id: 'test.square', payload: { n: 777 } } });
    expect(quiet).toEqual([]);
  });

  it('answers an unknown top-level argument of math.run with a structured ERROR result', async () => {
    await connect();
    await client.listTools();
    const before = submits.length;
    const response = await client.callTool({ name: 'math.run', arguments: { capability_id: 'test.square', payload: { n: 1 }, priority: 'high' } });
    expect(response.isError).toBe(true);
    const result = CapabilityResultSchema.parse(response.structuredContent);
    expect(result.execution.status).toBe('ERROR');
    expect(result.capability_id).toBe('test.square');
    expect(result.diagnostics[0]).toMatchObject({ severity: 'ERROR', code: 'INVALID_REQUEST', stage: 'VALIDATION' });
    expect(result.diagnostics[0]?.message).toContain('"priority"');
    expect(submits.length).toBe(before);
  });

  it('names the unknown argument in diagnostics[0].path', async () => {
    await connect();
    const response = await client.callTool({ name: 'math.run', arguments: { capability_id: 'test.square', payload: { n: 1 }, priority: 'high' } });
    const result = CapabilityResultSchema.parse(response.structuredContent);
    expect(result.diagnostics[0]?.path).toEqual(['priority']);
  });

  it('answers a bad payload and an unknown capability with structured diagnostics naming the field', async () => {
    await connect();
    const bad = await client.callTool({ name: 'math.run', arguments: { capability_id: 'test.square', payload: { n: 'seven' } } });
    expect(bad.isError).toBe(true);
    expect(CapabilityResultSchema.parse(bad.structuredContent).diagnostics[0]?.path).toEqual(['payload', 'n']);
    const unknown = await client.callTool({ name: 'math.run', arguments: { capability_id: 'test.nope', payload: {} } });
    expect(unknown.isError).toBe(true);
    expect(CapabilityResultSchema.parse(unknown.structuredContent).diagnostics[0]).toMatchObject({ code: 'UNKNOWN_CAPABILITY', path: ['capability_id'] });
  });

  it('answers math.find with structured content, and invalid arguments with isError', async () => {
    await connect();
    await client.listTools();
    const browse = await client.callTool({ name: 'math.find', arguments: {} });
    expect(browse.isError).toBeFalsy();
    expect(browse.structuredContent).toMatchObject({ kind: 'BROWSE', total_matches: 1, catalog_digest: api.catalog().digest });
    const bad = await client.callTool({ name: 'math.find', arguments: { limit: 0 } });
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as { diagnostics: { path: unknown }[] }).diagnostics[0]?.path).toEqual(['limit']);
    expect(bad.structuredContent).toMatchObject({ portfolio_fit: null, routing_status: null, recovery_paths: [] });
  });

  it('answers math.find with retrieval signals that pass its output schema', async () => {
    await connect();
    await client.listTools();
    const strong = await client.callTool({ name: 'math.find', arguments: { query: 'square' } });
    expect(strong.isError).toBeFalsy();
    expect(strong.structuredContent).toMatchObject({ portfolio_fit: 'STRONG_CANDIDATES', routing_status: 'UNCONSTRAINED', domain_filter_status: 'UNFILTERED', recovery_paths: [] });
    expect((strong.structuredContent as { matches: Record<string, unknown>[] }).matches[0]).toMatchObject({ capability_id: 'test.square', lexical_fit: 'STRONG', query_coverage_milli: 1000 });
    const prose = await client.callTool({ name: 'math.find', arguments: { input_kind: 'NATURAL_LANGUAGE_PROOF' } });
    expect(prose.isError).toBeFalsy();
    expect(prose.structuredContent).toMatchObject({ routing_status: 'NO_ROUTE', total_matches: 0, domain_filter_status: 'UNFILTERED' });
    expect((prose.structuredContent as { recovery_paths: { kind: string }[] }).recovery_paths.map((p) => p.kind)).toEqual(['REFORMULATE', 'REMOVE_FILTER', 'BROWSE', 'READ_CATALOG']);
    const text = (prose.content as { type: string; text: string }[])[0]?.text ?? '';
    expect(text).toContain('routing_status: NO_ROUTE');
    expect(text).toContain('- READ_CATALOG: ');
  });

  it('lists the instruction and catalog resources, the artifact template and both prompts', async () => {
    await connect();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['capability://catalog', 'jacobian://instructions']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['artifact://sha256/{digest}']);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['jacobian-check-evidence', 'jacobian-discover']);
    const discover = prompts.find((p) => p.name === 'jacobian-discover');
    expect(discover?.arguments).toEqual([expect.objectContaining({ name: 'task', required: true })]);
  });

  it('serves the catalog and a stored artifact', async () => {
    await connect();
    const catalog = await client.readResource({ uri: 'capability://catalog' });
    const catalogText = (catalog.contents[0] as { text: string }).text;
    expect(JSON.parse(catalogText)).toEqual(api.catalog());
    const artifact = await client.readResource({ uri: storedUri });
    const body = JSON.parse((artifact.contents[0] as { text: string }).text) as { uri: string; payload: unknown; manifest: { summary: unknown } };
    expect(body).toMatchObject({ uri: storedUri, payload: { text: 'hello' }, manifest: { summary: { kind: 'note' } } });
  });

  it.each([`artifact://sha256/${'0'.repeat(64)}`, 'artifact://sha256/not-a-digest'])('answers a read of %s with ResourceNotFoundError', async (uri) => {
    await connect();
    const error: unknown = await client.readResource({ uri }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ResourceNotFoundError);
  });
});

describe.each(ERAS)('MCP server over an API still starting (%s era)', (_name, versionNegotiation) => {
  it('answers the handshake and the lists at once, and math.find once the API has started', async () => {
    let start: (api: Api) => void = () => undefined;
    const ready = new Promise<Api>((resolve) => (start = resolve));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(() => createMcpServer({ reasoningMode: 'OFF', ready }), { transport: serverSide });
    const client = new Client({ name: 'jacobian-test', version: '0.0.1' }, { versionNegotiation });
    try {
      await client.connect(clientSide);
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['math.find', 'math.run']);
      let answered = false;
      const found = client.callTool({ name: 'math.find', arguments: { query: 'square' } }).then((result) => {
        answered = true;
        return result;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toBe(false);
      start(api);
      const result = await found;
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.structuredContent)).toContain(SQUARE.descriptor.id);
    } finally {
      await client.close();
      await handle.close();
    }
  });
});
