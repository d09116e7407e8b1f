/**
 * Large requests are admitted in the admission worker, off the API's event loop: the same
 * verdicts as on the calling thread (job ID, digest, diagnostics), and a math.find sent while
 * large calls are being admitted is answered before any of them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admitRequest,
  CapabilityRequestSchema,
  createLocalFolderArtifactStore,
  installCapability,
  jsonLongerThanAbout,
  OperatorPolicySchema,
  type AdmittedRun,
  type ArtifactStore,
  type CapabilityResult,
  type InstalledCapability,
  type RunQueue,
} from '@jacobian/shared';
import { createApi, type Api } from './api.js';
import { createAdmissionPool, LARGE_REQUEST_BYTES, MAX_REQUEST_BYTES, type AdmissionPool } from './admission-pool.js';
import { startHttpServer } from './http.js';
import { SQUARE, squared } from './square.fixture.js';

const Edge = z.tuple([z.number().int().min(0), z.number().int().min(0)]);
/** A capability with a large structured input, like an inline graph; the refinement is its own rule (not in JSON Schema). */
const EDGES: InstalledCapability = installCapability(
  {
    ...SQUARE.definition,
    id: 'test.edges',
    title: 'Count edges',
    description: 'Counts the edges of an edge list.',
    input: z
      .object({ order: z.number().int().min(1).max(1000), edges: z.array(Edge).max(200_000) })
      .strict()
      .superRefine((input, ctx) => {
        if (input.edges.some(([a, b]) => a >= input.order || b >= input.order)) ctx.addIssue({ code: 'custom', path: ['edges'], message: 'dangling edge' });
      }),
    examples: [{ title: 'one edge', mode: 'EXPLORE', payload: { order: 2, edges: [[0, 1]] } }],
  },
  SQUARE.descriptor.provider_runtime,
  null,
);

function edges(order: number): [number, number][] {
  const list: [number, number][] = [];
  for (let i = 0; i < order; i++) for (let j = i + 1; j < order; j++) list.push([i, j]);
  return list;
}

const submitted: AdmittedRun[] = [];
const queue: RunQueue = {
  submit: (run) => {
    submitted.push(run);
    return Promise.resolve({ ...squared({ ...run, payload: { n: 1 } }), output: { edges: (run.payload['edges'] as unknown[]).length } } as CapabilityResult);
  },
  stats: () => ({ inFlight: 0, queued: 0, running: 0 }),
  close: () => Promise.resolve(),
};

let root: string;
let store: ArtifactStore;
let pool: AdmissionPool;
let offloaded: Api;
let inline: Api;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-admission-'));
  store = createLocalFolderArtifactStore({ root });
  pool = createAdmissionPool();
  const deps = { installed: () => [SQUARE, EDGES], policy: OperatorPolicySchema.parse({}), queue, artifacts: store, trustedCheckerKeys: new Map() };
  offloaded = createApi({ ...deps, admissionPool: pool });
  inline = createApi({ ...deps, admissionPool: null });
});

afterAll(async () => {
  await pool.close();
  await store.close();
  await rm(root, { recursive: true, force: true });
});

const LARGE = { capability_id: 'test.edges', payload: { order: 200, edges: edges(200) }, budget: { wall_time_ms: 5000 } };

describe('jsonLongerThanAbout', () => {
  it('tells a large request from a small one without serializing it', () => {
    expect(jsonLongerThanAbout(LARGE, LARGE_REQUEST_BYTES)).toBe(true);
    expect(JSON.stringify(LARGE).length).toBeGreaterThan(LARGE_REQUEST_BYTES);
    expect(jsonLongerThanAbout({ capability_id: 'test.square', payload: { n: 7 } }, LARGE_REQUEST_BYTES)).toBe(false);
  });
});

describe('a large request admitted in the worker', () => {
  it('is the same run as on the calling thread: job ID, digest, budget, and the payload the caller sent', async () => {
    submitted.length = 0;
    const result = await offloaded.run(LARGE);
    expect(result.execution.status).toBe('COMPLETED');
    const expected = admitRequest(CapabilityRequestSchema.parse(LARGE));
    expect(submitted).toEqual([expected]);
    expect(submitted[0]?.payload).toBe(LARGE.payload);
  }, 30_000);

  it.each([
    ['an unknown key in the payload', { ...LARGE, payload: { ...LARGE.payload, colour: 'red' } }],
    ['a payload field of the wrong type', { ...LARGE, payload: { ...LARGE.payload, order: 'many' } }],
    ['a float in the payload', { ...LARGE, payload: { ...LARGE.payload, edges: [...LARGE.payload.edges, [1, 2.5]] } }],
    ['a budget out of bounds', { ...LARGE, budget: { wall_time_ms: 1 } }],
    ['an unknown capability', { ...LARGE, capability_id: 'test.nope' }],
    ['a payload key named __proto__', { ...LARGE, payload: JSON.parse(`{"__proto__":1,"order":2,"edges":${JSON.stringify(LARGE.payload.edges)}}`) as unknown }],
  ])('is refused as on the calling thread: %s', async (_name, request) => {
    submitted.length = 0;
    const there = await offloaded.run(request);
    const here = await inline.run(request);
    expect(there).toEqual(here);
    expect(there.execution).toMatchObject({ status: 'ERROR', job_id: 'unadmitted' });
    expect(submitted).toEqual([]);
  }, 30_000);

  it('refuses arguments over the request size limit on any transport, naming the field and the limit, before anything else', async () => {
    submitted.length = 0;
    const huge = { ...LARGE, payload: { order: 2, edges: [[0, 1]], note: 'x'.repeat(MAX_REQUEST_BYTES) } };
    for (const api of [offloaded, inline]) {
      const result = await api.run(huge);
      expect(result.execution).toMatchObject({ status: 'ERROR', job_id: 'unadmitted' });
      expect(result.diagnostics[0]).toMatchObject({ code: 'SIZE_LIMIT_EXCEEDED', path: ['payload'] });
      expect(result.diagnostics[0]?.message).toContain(String(MAX_REQUEST_BYTES));
    }
    expect(submitted).toEqual([]);
  });

  it("leaves the capability's own cross-field rules to the runner (the advertised JSON Schema cannot state them)", async () => {
    submitted.length = 0;
    const dangling = { ...LARGE, payload: { ...LARGE.payload, order: 100 } };
    expect((await inline.run(dangling)).execution.job_id).toBe('unadmitted');
    expect((await offloaded.run(dangling)).execution.status).toBe('COMPLETED');
    expect(submitted).toHaveLength(1);
  }, 30_000);
});

describe('the event loop stays free', () => {
  it('answers a math.find sent while large math.run calls are being admitted before any of them', async () => {
    // The pool of this API, counting the requests handed to it and holding their verdicts until
    // the test lets them go: math.find is sent once every large call has reached the server and
    // is being admitted, and must be answered while they still are.
    let handed = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const counted: AdmissionPool = {
      admit: async (...args) => {
        handed++;
        const verdict = await pool.admit(...args);
        await gate;
        return verdict;
      },
      close: () => Promise.resolve(),
    };
    const api = createApi({ installed: () => [SQUARE, EDGES], policy: OperatorPolicySchema.parse({}), queue, artifacts: store, trustedCheckerKeys: new Map(), admissionPool: counted });
    const server = await startHttpServer({ api, host: '127.0.0.1', port: 0 });
    const call = async (id: number, name: string, args: unknown): Promise<string> => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
        }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { result?: { isError?: boolean } };
      expect(body.result?.isError).toBeFalsy();
      return name;
    };
    try {
      const order: string[] = [];
      // Distinct budgets: distinct requests, each admitted on its own.
      const large = Array.from({ length: 6 }, (_, i) => call(i + 1, 'math.run', { ...LARGE, budget: { wall_time_ms: 6000 + i } }).then((name) => order.push(name)));
      for (let waited = 0; handed < 6; waited++) {
        if (waited > 10_000) throw new Error(`only ${handed} of 6 large calls reached the admission pool`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await call(100, 'math.find', { query: 'edges' }).then((name) => order.push(name));
      expect(order).toEqual(['math.find']);
      release();
      await Promise.all(large);
      expect(order.filter((name) => name === 'math.run')).toHaveLength(6);
    } finally {
      release();
      await server.close();
    }
  }, 60_000);
});
