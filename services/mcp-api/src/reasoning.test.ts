/**
 * The reasoning log on the MCP surface, over an in-memory client in both protocol eras: absent
 * in OFF; in REQUIRED the reasoning.write tool, math.run's binding (rejections before anything
 * is submitted), the recorded outcome and the report comparison, and the run resource; in AUDIT
 * unbound runs go through and the breach is recorded. Reasoning never changes the catalog or
 * the mathematics.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport, ResourceNotFoundError, type CallToolResult } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  CapabilityResultSchema,
  createFileReasoningLogStore,
  createLocalFolderArtifactStore,
  createReasoningLog,
  OperatorPolicySchema,
  ReasoningEventSchema,
  resultDigest,
  type ArtifactStore,
  type CapabilityResult,
  type ReasoningEvent,
  type ReasoningLogStore,
  type ReasoningMode,
  type WriteReceipt,
} from '@jacobian/shared';
import { createApi, type Api, type ReasoningNote } from './api.js';
import { INSTRUCTIONS } from './instructions.js';
import { createMcpServer } from './mcp-server.js';
import { SQUARE, squareQueue } from './square.fixture.js';
import { REASONING_META_KEY } from './tools.js';

const queue = squareQueue();
const submits = queue.submits;

let root: string;
let artifacts: ArtifactStore;
const stores: ReasoningLogStore[] = [];
const apis = new Map<ReasoningMode, Api>();

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-reasoning-mcp-'));
  artifacts = createLocalFolderArtifactStore({ root: path.join(root, 'artifacts') });
  for (const mode of ['OFF', 'AUDIT', 'REQUIRED'] as const) {
    let reasoning;
    if (mode !== 'OFF') {
      const store = createFileReasoningLogStore({ directory: path.join(root, `reasoning-${mode}`) });
      stores.push(store);
      reasoning = createReasoningLog({ mode, store });
    }
    apis.set(mode, createApi({ installed: () => [SQUARE], policy: OperatorPolicySchema.parse({}), queue, artifacts, trustedCheckerKeys: new Map(), reasoning }));
  }
});

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await artifacts.close();
  await rm(root, { recursive: true, force: true });
});

const ERAS = [
  ['legacy', { mode: 'legacy' }],
  ['modern', { mode: { pin: '2026-07-28' } }],
] as const;

/** Every number and string inside a JSON value. */
function jsonLeaves(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(jsonLeaves);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(jsonLeaves);
  return [value];
}

function textOf(response: CallToolResult): string {
  const first = response.content[0];
  return first?.type === 'text' ? first.text : '';
}

const square = (n: number, ids: Record<string, string> = {}): Record<string, unknown> => ({ capability_id: 'test.square', mode: 'EXPLORE', payload: { n }, ...ids });

describe.each(ERAS)('reasoning log over MCP (%s era)', (_era, versionNegotiation) => {
  const open: { client: Client; handle: { close(): Promise<void> } }[] = [];

  async function connect(mode: ReasoningMode): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const api = apis.get(mode) as Api;
    const handle = serveStdio(() => createMcpServer(api), { transport: serverSide });
    const client = new Client({ name: 'jacobian-reasoning-test', version: '0.0.1' }, { versionNegotiation });
    await client.connect(clientSide);
    open.push({ client, handle });
    return client;
  }

  afterEach(async () => {
    for (const { client, handle } of open.splice(0)) {
      await client.close();
      await handle.close();
    }
  });

  async function write(client: Client, args: Record<string, unknown>): Promise<WriteReceipt> {
    const response = await client.callTool({ name: 'reasoning.write', arguments: args });
    expect(response.isError, textOf(response)).toBeFalsy();
    const receipt = response.structuredContent as WriteReceipt;
    expect(textOf(response)).toContain(`next_required: ${receipt.next_required}`);
    return receipt;
  }

  async function writeRefused(client: Client, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await client.callTool({ name: 'reasoning.write', arguments: args });
    expect(response.isError).toBe(true);
    const diagnostics = (response.structuredContent as { diagnostics: Record<string, unknown>[] }).diagnostics;
    expect(diagnostics).toHaveLength(1);
    expect(textOf(response)).toContain(String(diagnostics[0]?.['code']));
    return diagnostics[0] as Record<string, unknown>;
  }

  async function run(client: Client, args: Record<string, unknown>): Promise<{ result: CapabilityResult; note: ReasoningNote | undefined; text: string }> {
    const response = await client.callTool({ name: 'math.run', arguments: args });
    const result = CapabilityResultSchema.parse(response.structuredContent);
    expect(response.isError === true).toBe(result.execution.status === 'ERROR');
    const note = response._meta?.[REASONING_META_KEY] as ReasoningNote | undefined;
    return { result, note, text: textOf(response) };
  }

  async function readRun(client: Client, runId: string): Promise<{ text: string; events: ReasoningEvent[] }> {
    const uri = `reasoning://run/${runId}`;
    const read = await client.readResource({ uri });
    expect(read.contents).toHaveLength(1);
    const content = read.contents[0] as { uri: string; mimeType: string; text: string };
    expect(content).toMatchObject({ uri, mimeType: 'application/x-ndjson' });
    expect(content.text.endsWith('\n')).toBe(true);
    const events = content.text
      .trimEnd()
      .split('\n')
      .map((line) => ReasoningEventSchema.parse(JSON.parse(line)));
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    return { text: content.text, events };
  }

  /** PLAN, then BEFORE_TOOL for test.square in EXPLORE mode: the two IDs math.run needs. */
  async function openCall(client: Client, capabilityId = 'test.square'): Promise<{ reasoning_run_id: string; reasoning_call_id: string }> {
    const plan = await write(client, { phase: 'PLAN', summary: 'Square a few integers.' });
    expect(plan).toMatchObject({ phase: 'PLAN', sequence: 1, next_required: 'BEFORE_TOOL_OR_FINAL', resource_uri: `reasoning://run/${plan.reasoning_run_id}` });
    const before = await write(client, { phase: 'BEFORE_TOOL', reasoning_run_id: plan.reasoning_run_id, capability_id: capabilityId, mode: 'EXPLORE', summary: 'Square n.' });
    expect(before).toMatchObject({ phase: 'BEFORE_TOOL', next_required: 'MATH_RUN', open_call: { capability_id: capabilityId, mode: 'EXPLORE', bound: false } });
    expect(before.reasoning_call_id).toEqual(expect.any(String));
    return { reasoning_run_id: plan.reasoning_run_id, reasoning_call_id: before.reasoning_call_id as string };
  }

  describe('OFF (the default)', () => {
    it('has no reasoning.write, no reasoning fields on math.run, no run template and no lifecycle in the instructions', async () => {
      const client = await connect('OFF');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['math.find', 'math.run']);
      const runTool = tools.find((t) => t.name === 'math.run');
      expect(Object.keys(runTool?.inputSchema.properties ?? {}).sort()).toEqual(['budget', 'capability_id', 'mode', 'payload']);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['artifact://sha256/{digest}']);
      const instructions = await client.readResource({ uri: 'jacobian://instructions' });
      expect((instructions.contents[0] as { text: string }).text).toBe(INSTRUCTIONS);
      expect(client.getInstructions()).not.toContain('reasoning');
      const before = submits.length;
      const refused = await run(client, square(3, { reasoning_run_id: 'a'.repeat(20) }));
      expect(refused.result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['reasoning_run_id'] });
      expect(refused.note).toBeUndefined();
      expect(refused.text).not.toContain('reasoning:');
      expect(submits.length).toBe(before);
      const plain = await run(client, square(3));
      expect(plain.note).toBeUndefined();
      expect(plain.text).not.toContain('reasoning');
    });

    it('refuses reading a reasoning run: there is no such resource', async () => {
      const client = await connect('OFF');
      await expect(client.readResource({ uri: `reasoning://run/${'a'.repeat(20)}` })).rejects.toThrow();
    });
  });

  describe('REQUIRED', () => {
    it('advertises reasoning.write, the two math.run fields, the run template and the lifecycle', async () => {
      const client = await connect('REQUIRED');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['math.find', 'math.run', 'reasoning.write']);
      const writeTool = tools.find((t) => t.name === 'reasoning.write');
      expect(writeTool?.outputSchema?.['type']).toBe('object');
      expect(Object.keys(writeTool?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['phase', 'summary', 'reasoning_run_id', 'reasoning_call_id', 'execution_status']));
      const runTool = tools.find((t) => t.name === 'math.run');
      expect(runTool?.inputSchema).toMatchObject({ additionalProperties: false, required: ['capability_id', 'payload'] });
      expect(Object.keys(runTool?.inputSchema.properties ?? {}).sort()).toEqual(['budget', 'capability_id', 'mode', 'payload', 'reasoning_call_id', 'reasoning_run_id']);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['artifact://sha256/{digest}', 'reasoning://run/{run_id}']);
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri).sort()).toEqual(['capability://catalog', 'jacobian://instructions']);
      const instructions = (await client.readResource({ uri: 'jacobian://instructions' })).contents[0] as { text: string };
      expect(instructions.text.startsWith(INSTRUCTIONS)).toBe(true);
      expect(instructions.text).toContain('REQUIRED mode');
      expect(instructions.text).toContain('never changes capability membership, mathematics');
      expect(client.getInstructions()).toContain('reasoning.write PLAN');
    });

    it('runs the full cycle PLAN → BEFORE_TOOL → math.run → AFTER_TOOL (matching) → FINAL, and serves the log without payloads', async () => {
      const client = await connect('REQUIRED');
      const ids = await openCall(client);
      const before = submits.length;
      const bound = await run(client, square(777, ids));
      expect(submits.length).toBe(before + 1);
      expect(bound.result.execution.status).toBe('COMPLETED');
      expect(bound.result.output).toEqual({ square: 603729 });
      const digest = resultDigest(bound.result);
      expect(bound.note).toEqual({
        status: 'BOUND',
        ...ids,
        violation: null,
        outcome_recorded: true,
        result_digest: digest,
        next_required: 'AFTER_TOOL',
        guidance: expect.stringContaining(ids.reasoning_call_id) as unknown,
      });
      expect(bound.text).toContain(`result_digest: ${digest}`);
      expect(bound.text).toContain('reasoning next_required: AFTER_TOOL');

      const after = await write(client, {
        phase: 'AFTER_TOOL',
        ...ids,
        interpretation_status: 'INTERPRETED',
        execution_status: 'COMPLETED',
        assurance_level: 'COMPUTED',
        completeness_status: 'COMPLETE',
        result_digest: digest,
        artifact_uris: [],
        summary: 'The square is exact and computed.',
      });
      expect(after.comparison).toEqual({ execution_status: 'MATCH', assurance_level: 'MATCH', completeness_status: 'MATCH', result_digest: 'MATCH', artifact_uris: 'MATCH' });
      expect(after.mismatched_fields).toEqual([]);
      expect(after.next_required).toBe('BEFORE_TOOL_OR_FINAL');
      const final = await write(client, { phase: 'FINAL', reasoning_run_id: ids.reasoning_run_id, summary: 'Done: one square computed.' });
      expect(final).toMatchObject({ finalized: true, next_required: 'NONE', cycles_used: 1 });

      const log = await readRun(client, ids.reasoning_run_id);
      expect(log.events.map((e) => e.type)).toEqual(['PLAN', 'BEFORE_TOOL', 'CALL_BOUND', 'CALL_OUTCOME', 'AFTER_TOOL', 'FINAL']);
      expect(log.events[2]).toMatchObject({ call_id: ids.reasoning_call_id, capability_id: 'test.square', request_digest: bound.result.execution.request_digest });
      expect(log.events[3]).toMatchObject({ execution_status: 'COMPLETED', assurance_level: 'COMPUTED', completeness_status: 'COMPLETE', result_digest: digest, artifact_uris: [] });
      // Digests and statuses only: neither the payload (n = 777) nor the output (603729) is
      // copied. Compared as values, not as text: a random call ID or a digest may contain "777".
      const copied = log.events.flatMap((event) => jsonLeaves(event)).filter((leaf) => leaf === 777 || leaf === 603729 || leaf === '777' || leaf === '603729');
      expect(copied).toEqual([]);
    });

    it('takes the IDs out before admission: the request digest and job are those of the same request without them', async () => {
      const client = await connect('REQUIRED');
      const offClient = await connect('OFF');
      const ids = await openCall(client);
      const bound = await run(client, square(41, ids));
      const plain = await run(offClient, square(41));
      expect(bound.result.execution.request_digest).toBe(plain.result.execution.request_digest);
      expect(bound.result.execution.job_id).toBe(plain.result.execution.job_id);
      // The mathematics is the same, field for field.
      expect(bound.result).toEqual(plain.result);
    });

    it('records an AFTER_TOOL whose report differs from the recorded outcome as mismatched', async () => {
      const client = await connect('REQUIRED');
      const ids = await openCall(client);
      await run(client, square(5, ids));
      const after = await write(client, {
        phase: 'AFTER_TOOL',
        ...ids,
        interpretation_status: 'INTERPRETED',
        execution_status: 'COMPLETED',
        assurance_level: 'VERIFIED',
        completeness_status: 'PARTIAL',
        result_digest: `sha256:${'0'.repeat(64)}`,
        summary: 'Claims more than the result said.',
      });
      expect(after.comparison).toEqual({ execution_status: 'MATCH', assurance_level: 'MISMATCH', completeness_status: 'MISMATCH', result_digest: 'MISMATCH', artifact_uris: 'NOT_REPORTED' });
      expect(after.mismatched_fields.sort()).toEqual(['assurance_level', 'completeness_status', 'result_digest']);
      const log = await readRun(client, ids.reasoning_run_id);
      const recorded = log.events.find((e) => e.type === 'AFTER_TOOL');
      expect(recorded).toMatchObject({ server_state: 'OUTCOME_RECORDED', reported: { assurance_level: 'VERIFIED' }, comparison: { assurance_level: 'MISMATCH' } });
    });

    it('rejects an unbound math.run before submitting anything, and the open call can still be used', async () => {
      const client = await connect('REQUIRED');
      const ids = await openCall(client);
      const before = submits.length;
      const unbound = await run(client, square(6));
      expect(submits.length).toBe(before);
      expect(unbound.result.execution).toMatchObject({ status: 'ERROR', job_id: 'unadmitted' });
      expect(unbound.result.output).toBeNull();
      expect(unbound.result.diagnostics[0]).toMatchObject({ severity: 'ERROR', code: 'REASONING_PROTOCOL_VIOLATION', stage: 'ADMISSION', path: ['reasoning_run_id'] });
      expect(unbound.note).toMatchObject({ status: 'REJECTED', violation: 'UNBOUND' });
      expect(unbound.text).toContain('reasoning: REJECTED');

      const onlyRun = await run(client, square(6, { reasoning_run_id: ids.reasoning_run_id }));
      expect(onlyRun.result.diagnostics[0]).toMatchObject({ code: 'REASONING_PROTOCOL_VIOLATION', path: ['reasoning_call_id'] });
      expect(onlyRun.note).toMatchObject({ status: 'REJECTED', violation: 'UNBOUND', next_required: 'MATH_RUN' });
      const unknownRun = await run(client, square(6, { reasoning_run_id: 'x'.repeat(20), reasoning_call_id: ids.reasoning_call_id }));
      expect(unknownRun.note).toMatchObject({ status: 'REJECTED', violation: 'UNKNOWN_RUN' });
      expect(submits.length).toBe(before);

      // Nothing was consumed or appended by the rejections.
      expect((await readRun(client, ids.reasoning_run_id)).events.map((e) => e.type)).toEqual(['PLAN', 'BEFORE_TOOL']);
      const bound = await run(client, square(6, ids));
      expect(bound.note).toMatchObject({ status: 'BOUND', outcome_recorded: true });
      expect(submits.length).toBe(before + 1);
    });

    it('rejects a reused call and a call for another capability, without submitting', async () => {
      const client = await connect('REQUIRED');
      const ids = await openCall(client);
      await run(client, square(8, ids));
      const before = submits.length;
      const reused = await run(client, square(9, ids));
      expect(reused.result.diagnostics[0]).toMatchObject({ code: 'REASONING_PROTOCOL_VIOLATION', path: ['reasoning_call_id'] });
      expect(reused.note).toMatchObject({ status: 'REJECTED', violation: 'REUSED' });
      expect(submits.length).toBe(before);

      const other = await openCall(client, 'test.cube');
      const mismatched = await run(client, square(9, other));
      expect(mismatched.result.diagnostics[0]).toMatchObject({ code: 'REASONING_PROTOCOL_VIOLATION', path: ['capability_id'] });
      expect(mismatched.note).toMatchObject({ status: 'REJECTED', violation: 'MISMATCHED' });
      expect(submits.length).toBe(before);
    });

    it('leaves the call untouched when the request itself is invalid', async () => {
      const client = await connect('REQUIRED');
      const ids = await openCall(client);
      const before = submits.length;
      const invalid = await run(client, square(-1, ids));
      expect(invalid.result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'n'] });
      expect(invalid.note).toMatchObject({ status: 'NOT_ADMITTED', ...ids });
      const notString = await run(client, { ...square(2), reasoning_run_id: 42 });
      expect(notString.result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['reasoning_run_id'] });
      expect(submits.length).toBe(before);
      expect((await readRun(client, ids.reasoning_run_id)).events).toHaveLength(2);
    });

    it('answers a refused entry with a typed diagnostic carrying code, path, hint and data', async () => {
      const client = await connect('REQUIRED');
      const unknown = await writeRefused(client, { phase: 'FINAL', reasoning_run_id: 'y'.repeat(20), summary: 'x' });
      expect(unknown).toMatchObject({ severity: 'ERROR', code: 'REASONING_RUN_NOT_FOUND', path: ['reasoning_run_id'] });
      const tooLong = await writeRefused(client, { phase: 'PLAN', summary: 'x'.repeat(600) });
      expect(tooLong).toMatchObject({ code: 'SIZE_LIMIT_EXCEEDED', path: ['summary'], data: { chars: 600, max_chars: 512 } });
      const missing = await writeRefused(client, { phase: 'BEFORE_TOOL', summary: 'x' });
      expect(missing).toMatchObject({ code: 'INVALID_REQUEST', path: ['reasoning_run_id'], data: null });
      const ids = await openCall(client);
      const early = await writeRefused(client, { phase: 'AFTER_TOOL', ...ids, interpretation_status: 'INTERPRETED', execution_status: 'COMPLETED', assurance_level: 'COMPUTED', completeness_status: 'COMPLETE', summary: 'x' });
      expect(early).toMatchObject({ code: 'REASONING_PROTOCOL_VIOLATION', data: { violation: 'OUT_OF_ORDER', next_required: 'MATH_RUN' }, hint: expect.stringContaining('math.run') as unknown });
    });

    it('answers a read of an unknown run with ResourceNotFoundError', async () => {
      const client = await connect('REQUIRED');
      for (const runId of ['z'.repeat(20), 'not an id']) {
        const error: unknown = await client.readResource({ uri: `reasoning://run/${encodeURIComponent(runId)}` }).then(
          () => null,
          (thrown: unknown) => thrown,
        );
        expect(error).toBeInstanceOf(ResourceNotFoundError);
      }
    });

    it('changes neither capability membership nor the catalog digest', async () => {
      const off = await (await connect('OFF')).callTool({ name: 'math.find', arguments: {} });
      const required = await (await connect('REQUIRED')).callTool({ name: 'math.find', arguments: {} });
      expect(required.structuredContent).toEqual(off.structuredContent);
      expect((required.structuredContent as { catalog_digest: string }).catalog_digest).toBe(apis.get('OFF')?.catalog().digest);
    });
  });

  describe('AUDIT', () => {
    it('lets an unbound math.run through, and records the breach in a known run', async () => {
      const client = await connect('AUDIT');
      const ids = await openCall(client);
      const before = submits.length;
      const unbound = await run(client, square(10, { reasoning_run_id: ids.reasoning_run_id }));
      expect(submits.length).toBe(before + 1);
      expect(unbound.result.execution.status).toBe('COMPLETED');
      expect(unbound.result.diagnostics).toEqual([]);
      expect(unbound.note).toMatchObject({ status: 'NOT_BOUND', violation: 'UNBOUND' });
      expect(unbound.note?.guidance).toContain('Recorded as a PROTOCOL_VIOLATION');

      const anonymous = await run(client, square(11));
      expect(anonymous.result.execution.status).toBe('COMPLETED');
      expect(anonymous.note).toMatchObject({ status: 'NOT_BOUND', violation: 'UNBOUND', reasoning_run_id: null });
      expect(submits.length).toBe(before + 2);

      const log = await readRun(client, ids.reasoning_run_id);
      expect(log.events.map((e) => e.type)).toEqual(['PLAN', 'BEFORE_TOOL', 'PROTOCOL_VIOLATION']);
      expect(log.events[2]).toMatchObject({ operation: 'math.run', violation: 'UNBOUND', capability_id: 'test.square', request_digest: unbound.result.execution.request_digest });
      // The call is still open: a bound run works as in REQUIRED.
      const bound = await run(client, square(10, ids));
      expect(bound.note).toMatchObject({ status: 'BOUND', outcome_recorded: true });
    });
  });
});
