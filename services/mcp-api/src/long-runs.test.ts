/**
 * Long runs and client timeouts: a call that carries a progressToken hears a heartbeat while its
 * run is silent, so a client that resets its timeout on progress completes a run longer than
 * its timeout; over stdio (in-memory transport), the SDK's HTTP path and the modern tool lane.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { CapabilityResultSchema, createLocalFolderArtifactStore, OperatorPolicySchema, type ArtifactStore, type RunQueue } from '@jacobian/shared';
import { createApi, type Api } from './api.js';
import { startHttpServer } from './http.js';
import { createMcpServer } from './mcp-server.js';
import { SQUARE, squared } from './square.fixture.js';
import { INSTRUCTIONS } from './instructions.js';
import { PROGRESS_HEARTBEAT_MS, progressChannel, type ProgressNotice } from './tools.js';

/** A run that reports nothing for 2.6 s, longer than the clients' 1.5 s timeout below. */
const SILENT_RUN_MS = 2600;
const CLIENT_TIMEOUT_MS = 1500;

const queue: RunQueue = {
  submit: async (run, _target, options) => {
    const timer = new Promise((resolve) => setTimeout(resolve, SILENT_RUN_MS));
    const aborted = new Promise((resolve) => options?.signal?.addEventListener('abort', resolve, { once: true }));
    await Promise.race([timer, aborted]);
    return squared(run);
  },
  stats: () => ({ inFlight: 0, queued: 0, running: 0 }),
  close: () => Promise.resolve(),
};

let root: string;
let store: ArtifactStore;
let api: Api;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-long-runs-'));
  store = createLocalFolderArtifactStore({ root });
  api = createApi({ installed: () => [SQUARE], policy: OperatorPolicySchema.parse({}), queue, artifacts: store, trustedCheckerKeys: new Map() });
});

afterAll(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

const RUN = { name: 'math.run', arguments: { capability_id: 'test.square', payload: { n: 9 } } };

/** Call math.run with a short timeout; `reset`: the timeout restarts on each progress notification. */
async function longCall(client: Client, reset: boolean): Promise<{ square: unknown; heard: { progress: number; message?: string }[] }> {
  const heard: { progress: number; message?: string }[] = [];
  const response = await client.callTool(RUN, { timeout: CLIENT_TIMEOUT_MS, resetTimeoutOnProgress: reset, onprogress: (p) => heard.push(p) });
  return { square: CapabilityResultSchema.parse(response.structuredContent).output, heard };
}

function expectHeartbeats(heard: { progress: number; message?: string }[]): void {
  // At least one heartbeat per second of silence; strictly increasing progress.
  expect(heard.length).toBeGreaterThanOrEqual(Math.floor(SILENT_RUN_MS / PROGRESS_HEARTBEAT_MS) - 1);
  for (let i = 1; i < heard.length; i++) expect(heard[i]?.progress).toBeGreaterThan(heard[i - 1]?.progress ?? Number.NEGATIVE_INFINITY);
  expect(heard[0]?.message).toMatch(/^running for \d+ s$/);
}

describe('a run longer than the client timeout, with resetTimeoutOnProgress', () => {
  it('completes over stdio (in-memory transport), and times out without the reset', async () => {
    for (const versionNegotiation of [{ mode: 'legacy' as const }, { mode: { pin: '2026-07-28' } }]) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const handle = serveStdio(() => createMcpServer(api), { transport: serverSide });
      const client = new Client({ name: 'long-runs-test', version: '0.0.1' }, { versionNegotiation });
      try {
        await client.connect(clientSide);
        const { square, heard } = await longCall(client, true);
        expect(square).toEqual({ square: 81 });
        expectHeartbeats(heard);
        // The control: the same call without the reset is timed out by the client.
        await expect(longCall(client, false)).rejects.toThrow(/timed out|timeout/i);
      } finally {
        await client.close();
        await handle.close();
      }
    }
  }, 30_000);

  it.each([
    ['modern protocol, tool lane on (the call with a progressToken is served by the SDK path)', { pin: '2026-07-28' } as const, true],
    ['modern protocol, SDK path only', { pin: '2026-07-28' } as const, false],
    ['legacy protocol, stateless HTTP', 'legacy' as const, true],
  ])('completes over HTTP: %s', async (_name, mode, toolLane) => {
    const server = await startHttpServer({ api, host: '127.0.0.1', port: 0, toolLane });
    const client = new Client({ name: 'long-runs-test', version: '0.0.1' }, { versionNegotiation: { mode } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const { square, heard } = await longCall(client, true);
      expect(square).toEqual({ square: 81 });
      expectHeartbeats(heard);
    } finally {
      await client.close();
      await server.close();
    }
  }, 30_000);
});

describe('jacobian://instructions', () => {
  it('tells a client how to wait for a long run: progress with the timeout reset, or tasks; and the end-to-end budget', () => {
    expect(INSTRUCTIONS).toContain('### Long runs and client timeouts');
    expect(INSTRUCTIONS).toContain('resetTimeoutOnProgress: true');
    expect(INSTRUCTIONS).toMatch(new RegExp(`said nothing for\\s+${PROGRESS_HEARTBEAT_MS / 1000} s a heartbeat`));
    expect(INSTRUCTIONS).toContain('io.modelcontextprotocol/tasks');
    expect(INSTRUCTIONS).toContain('The budget holds end to end');
  });
});

describe('progressChannel', () => {
  it('sends the run reports, a heartbeat after each silence, increasing progress, and nothing after stop', () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      const sent: ProgressNotice[] = [];
      const channel = progressChannel((notice) => sent.push(notice), { heartbeatMs: 1000, now: () => now });
      now = 1000;
      vi.advanceTimersByTime(1000);
      expect(sent).toEqual([{ progress: 0, message: 'running for 1 s' }]);
      channel.listener({ progress: 3, total: 10, message: 'bound 3' });
      expect(sent[1]).toEqual({ progress: 3, total: 10, message: 'bound 3' });
      now = 2500;
      vi.advanceTimersByTime(1000);
      expect(sent[2]).toEqual({ progress: 3.001, total: 10, message: 'running for 3 s; last report: bound 3' });
      // A report that does not advance is a small step past the last value.
      vi.advanceTimersByTime(300);
      channel.listener({ progress: 2, message: 'bound 2' });
      expect(sent[3]?.progress).toBeGreaterThan(3.001);
      channel.stop();
      vi.advanceTimersByTime(10_000);
      channel.listener({ progress: 9 });
      vi.advanceTimersByTime(10_000);
      expect(sent).toHaveLength(4);
    } finally {
      vi.useRealTimers();
    }
  });
});
