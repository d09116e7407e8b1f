/**
 * Providers still being checked at start-up (an embedded start that serves before z3-solver's
 * health check has ended): math.find says so, a math.run of one of their capabilities waits for
 * the check, and a provider whose check fails never has its capabilities offered.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createLocalFolderArtifactStore,
  OperatorPolicySchema,
  type ArtifactStore,
  type CapabilityResult,
  type InstalledCapability,
  type PendingOutcome,
  type PendingProvider,
} from '@jacobian/shared';
import { createApi, type Api } from './api.js';
import type { FindResponse } from './find.js';
import { createMcpServer } from './mcp-server.js';
import { SQUARE, squareQueue } from './square.fixture.js';

/**
 * What an embedded runner gives the API while `slow-provider` (which serves test.square) is
 * checked: the state the runner updates when the check ends, then the pending entry settles.
 */
function startingSystem(): { api: Api; queue: ReturnType<typeof squareQueue>; pass(): void; fail(reason: string): void } {
  let installed: readonly InstalledCapability[] = [];
  let pending: readonly PendingProvider[] = [];
  let settle: (outcome: PendingOutcome) => void = () => undefined;
  const settled = new Promise<PendingOutcome>((resolve) => (settle = resolve));
  pending = [{ provider: 'slow-provider', capability_ids: [SQUARE.descriptor.id], settled }];
  const queue = squareQueue();
  const api = createApi({ installed: () => installed, pending: () => pending, policy: OperatorPolicySchema.parse({}), queue, artifacts, trustedCheckerKeys: new Map() });
  return {
    api,
    queue,
    pass() {
      installed = [SQUARE];
      pending = [];
      settle({ provider: 'slow-provider', installed: [SQUARE] });
    },
    fail(reason) {
      pending = [];
      settle({ provider: 'slow-provider', unavailable: { provider: 'slow-provider', reason } });
    },
  };
}

let root: string;
let artifacts: ArtifactStore;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-pending-'));
  artifacts = createLocalFolderArtifactStore({ root });
});
afterAll(async () => {
  await artifacts.close();
  await rm(root, { recursive: true, force: true });
});

const RUN = { capability_id: 'test.square', payload: { n: 7 } };
/** Whether `promise` has settled once every callback queued now has run. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('math.find while a provider is being checked', () => {
  let client: Client;
  let handle: { close(): Promise<void> };
  afterEach(async () => {
    await client.close();
    await handle.close();
  });

  async function connect(api: Api): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    handle = serveStdio(() => createMcpServer(api), { transport: serverSide });
    client = new Client({ name: 'jacobian-test', version: '0.0.1' });
    await client.connect(clientSide);
    return client;
  }

  it('names the provider, structured and in the text; the note goes when the check passes and its capabilities are listed', async () => {
    const system = startingSystem();
    await connect(system.api);
    const before = await client.callTool({ name: 'math.find', arguments: { query: 'square an integer' } });
    const response = before.structuredContent as FindResponse;
    expect(response.pending_providers).toEqual([{ provider: 'slow-provider', detail: expect.stringContaining('will be once the check passes') as unknown }]);
    expect(response.total_matches).toBe(0);
    const text = before.content as { type: string; text: string }[];
    expect(text[0]?.text).toContain('pending: provider slow-provider is still being checked');

    system.pass();
    const after = await client.callTool({ name: 'math.find', arguments: { query: 'square an integer' } });
    const listed = after.structuredContent as FindResponse;
    expect(listed.pending_providers).toEqual([]);
    expect(listed.matches.map((m) => m['capability_id'])).toEqual(['test.square']);
    expect((after.content as { text: string }[])[0]?.text).not.toContain('pending:');
  });

  it('drops the note when the check fails, though the catalog is the same (remembered answers too)', async () => {
    const system = startingSystem();
    await connect(system.api);
    const before = await client.callTool({ name: 'math.find', arguments: {} });
    const digest = (before.structuredContent as FindResponse).catalog_digest;
    expect((before.structuredContent as FindResponse).pending_providers.map((p) => p.provider)).toEqual(['slow-provider']);
    system.fail('slow-provider failed its health check');
    const after = await client.callTool({ name: 'math.find', arguments: {} });
    expect((after.structuredContent as FindResponse).catalog_digest).toBe(digest);
    expect((after.structuredContent as FindResponse).pending_providers).toEqual([]);
  });
});

describe('math.run of a capability whose provider is being checked', () => {
  it('waits for the check, then runs', async () => {
    const system = startingSystem();
    const running = system.api.run(RUN);
    expect(await settledYet(running)).toBe(false);
    expect(system.queue.submits).toEqual([]);
    system.pass();
    const result = await running;
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(result.output).toEqual({ square: 49 });
    expect(system.queue.submits).toHaveLength(1);
  });

  it('counts the wait against the budget: the run gets what is left, under the identity of the request as sent', async () => {
    const system = startingSystem();
    const running = system.api.run({ ...RUN, budget: { wall_time_ms: 30_000 } });
    const unwaited = startingSystem();
    unwaited.pass();
    await unwaited.api.run({ ...RUN, budget: { wall_time_ms: 30_000 } });
    const asSent = unwaited.queue.submits[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
    system.pass();
    expect((await running).execution.status).toBe('COMPLETED');
    const submitted = system.queue.submits[0];
    expect(submitted?.budget.wall_time_ms).toBeLessThanOrEqual(30_000 - 40);
    expect(submitted?.budget.wall_time_ms).toBeGreaterThan(0);
    expect([submitted?.job_id, submitted?.request_digest]).toEqual([asSent?.job_id, asSent?.request_digest]);
    expect(asSent?.budget.wall_time_ms).toBe(30_000);
  });

  it('fails with PROVIDER_UNAVAILABLE, nothing run, when the check fails', async () => {
    const system = startingSystem();
    const running = system.api.run(RUN);
    const unbound = system.api.runUnbound(RUN);
    system.fail('slow-provider failed its health check');
    for (const result of [await running, await unbound]) {
      expect(result.execution.status).toBe('ERROR');
      expect(result.diagnostics).toEqual([
        expect.objectContaining({
          code: 'PROVIDER_UNAVAILABLE',
          path: ['capability_id'],
          message: 'capability_id: test.square is not available: its provider slow-provider failed its start-up health check (slow-provider failed its health check), so its capabilities are not offered',
        }),
      ]);
    }
    expect(system.queue.submits).toEqual([]);
    // Fail closed: later runs are refused as for any capability not installed.
    const later = await system.api.run(RUN);
    expect(later.diagnostics.map((d) => d.code)).toEqual(['UNKNOWN_CAPABILITY']);
  });

  it('waits no longer than the run\'s wall-time budget, and stops waiting when cancelled', async () => {
    const system = startingSystem();
    const timedOut: CapabilityResult = await system.api.run({ ...RUN, budget: { wall_time_ms: 100 } });
    expect(timedOut.execution.status).toBe('TIMEOUT');
    expect(timedOut.diagnostics).toEqual([expect.objectContaining({ code: 'EXECUTION_TIMEOUT', message: expect.stringContaining('its provider slow-provider was still being checked') as unknown })]);
    const controller = new AbortController();
    const cancelled = system.api.run(RUN, controller.signal);
    controller.abort();
    expect((await cancelled).execution.status).toBe('CANCELLED');
    expect(system.queue.submits).toEqual([]);
  });
});
