import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalFolderArtifactStore, decodeGraph6, encodeGraph6, prepareArtifact, type CapabilityContext, type CapabilityResult, type InstalledCapability, type ProviderProbe, type ProviderRuntime } from '@jacobian/shared';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { firstHealthyOf } from '../providers/nauty.js';
import {
  describeClass,
  emptyByCounting,
  ENUMERATE_TS_PROVIDER,
  ENUMERATION_PAGE_SCHEMA_URI,
  EnumerationPagePayloadSchema,
  enumerateNonisomorphic,
  enumerationBackend,
  filterViolation,
  normalizeFilters,
  TS_ENUMERATION_METHOD,
  type EnumerateOutput,
} from './enumerate.js';
import { sharedLauncher } from '../native/launcher.js';
import { SpoolSupply } from '../native/spooled.js';
import { GENG_PROVIDER, gengArguments, gengMethod, gengProvider, parseGengCount, probeGeng, runGeng, streamGeng, type GengRequest, type GengTool } from './enumerate-geng.js';
import { RowsLabeller } from './enumerate-canon.js';
import { EnumerationPagePayloadSchema as PagePayload, graphsOnPage, ListingSink, type EnumerationPagePayload, type PageHeader } from './enumerate-pages.js';
import { FAST_RECHECK_MAX_ORDER, FastRecheck } from './enumerate-recheck.js';
import { enumerateGraphs, graph6OfRows, type EnumerationFilters } from './enumerate.kernel.js';
import { canonicalLabelling } from './invariants/automorphisms.js';
import { adjacencyMasks, mulberry32, namedGraphs, randomGraph, randomPermutation, relabel } from './test-graphs.js';

const ID = 'graph.enumerate.nonisomorphic';
const GENG = '/usr/bin/nauty-geng';
const LABELG = '/usr/bin/nauty-labelg';
const TS_RUNTIME: ProviderRuntime = { ...FAKE_RUNTIME, provider: ENUMERATE_TS_PROVIDER };
const BIG = { wall_time_ms: 300_000 };

// Published counts (OEIS), index = number of vertices.
/** A000088: graphs on n nodes. */
const A000088 = [1, 1, 2, 4, 11, 34, 156, 1044, 12346, 274668, 12005168];
/** A001349: connected graphs on n nodes (the null graph counted as connected). */
const A001349 = [1, 1, 1, 2, 6, 21, 112, 853, 11117, 261080, 11716571];
/** A000055: trees on n nodes (index 0, the null graph, is not expressible as "connected with n − 1 edges"). */
const A000055 = [1, 1, 1, 1, 2, 3, 6, 11, 23, 47, 106];
/** A033995: bipartite graphs on n nodes. */
const A033995 = [1, 1, 2, 3, 7, 13, 35, 88, 303, 1119, 5479];
/** A006785: triangle-free graphs on n nodes. */
const A006785 = [1, 1, 2, 3, 7, 14, 38, 107, 410, 1897, 12172];
/**
 * A002218 (2-connected graphs) from n = 3; OEIS counts K_2 as a block, geng -C (and this
 * capability) does not, so n ≤ 2 give 0 here.
 */
const BICONNECTED = [0, 0, 0, 1, 3, 10, 56, 468, 7123];

const NO_FILTERS = (n: number): EnumerationFilters => normalizeFilters({ order: n });

/** geng's graphs, straight from the executable (no capability code in between). */
function gengList(args: string[]): string[] {
  const out = execFileSync(GENG, ['-q', ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return out === '' ? [] : out.trimEnd().split('\n');
}

/** nauty's canonical forms of graph6 graphs (order ≥ 1), sorted: equal lists mean equal sets of isomorphism classes. */
function canonicalForms(graphs: readonly string[]): string[] {
  if (graphs.length === 0) return [];
  const out = execFileSync(LABELG, ['-q'], { input: `${graphs.join('\n')}\n`, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return out.trimEnd().split('\n').sort();
}

/** Run the TypeScript enumeration in this process, without a budget. */
function tsList(n: number, filters: EnumerationFilters): string[] {
  const found = enumerateGraphs({ order: n, filters, shard: null, list: true, max_listing_bytes: 1e9 }, { shouldStop: () => false });
  expect(found.outcome).toBe('COMPLETE');
  return found.listing === '' ? [] : found.listing.trimEnd().split('\n');
}

function output(result: CapabilityResult): EnumerateOutput {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(result.completeness.status).toBe('COMPLETE');
  return result.output as EnumerateOutput;
}

function firstError(result: CapabilityResult): { code: string; message: string } {
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (!diagnostic) throw new Error(`expected an ERROR diagnostic, got ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

describe('graph.enumerate.nonisomorphic', () => {
  let harness: CapabilityHarness;
  let tool: GengTool;
  let gengRuntime: ProviderRuntime;
  const installed = {} as Record<'geng' | 'typescript', InstalledCapability>;

  beforeAll(async () => {
    harness = await createCapabilityHarness();
    ({ tool, runtime: gengRuntime } = await probeGeng());
    installed.geng = harness.install(enumerateNonisomorphic({ kind: 'geng', tool }), gengRuntime);
    installed.typescript = harness.install(enumerateNonisomorphic({ kind: 'typescript' }), TS_RUNTIME);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  function run(backend: 'geng' | 'typescript', payload: Record<string, unknown>, budget?: Record<string, number>, signal?: AbortSignal): Promise<CapabilityResult> {
    return harness.run(installed[backend], { capability_id: ID, payload, ...(budget === undefined ? {} : { budget }) }, signal);
  }
  const count = async (backend: 'geng' | 'typescript', payload: Record<string, unknown>): Promise<number> =>
    output(await run(backend, { ...payload, count_only: true }, BIG)).count;

  /** Every listed graph, inline or read back from its pages (checking the page contract on the way). */
  async function listed(found: EnumerateOutput): Promise<string[]> {
    if (found.listing === 'INLINE') return found.graphs ?? [];
    expect(found.listing).toBe('PAGED');
    const graphs: string[] = [];
    for (const [i, ref] of found.pages.entries()) {
      const stored = await harness.artifacts.get(ref.uri);
      expect(stored.manifest.schema_uri).toBe(ENUMERATION_PAGE_SCHEMA_URI);
      const page = EnumerationPagePayloadSchema.parse(stored.payload);
      expect(page).toMatchObject({ order: found.order, filters: found.filters, shard: found.shard, method: found.method, page: i, last: i === found.pages.length - 1 });
      expect(page.first_index).toBe(graphs.length);
      expect(ref).toMatchObject({ page: i, first_index: graphs.length, count: page.count });
      for (const line of page.graph6.slice(0, -1).split('\n')) graphs.push(line);
    }
    return graphs;
  }

  describe.each(['geng', 'typescript'] as const)('served by %s', (backend) => {
    const top = backend === 'geng' ? 10 : 9;

    it('counts all graphs as OEIS A000088 (n = 0..10)', async () => {
      for (let n = 0; n <= 10; n++) expect(await count(backend, { order: n }), `n = ${n}`).toBe(A000088[n]);
    });

    it(`counts connected graphs as OEIS A001349 (n = 0..${top})`, async () => {
      for (let n = 0; n <= top; n++) expect(await count(backend, { order: n, connected: true }), `n = ${n}`).toBe(A001349[n]);
    });

    it('counts trees (A000055), bipartite (A033995), triangle-free (A006785) and 2-connected graphs (A002218) (n up to 10)', async () => {
      for (let n = 1; n <= 10; n++) {
        expect(await count(backend, { order: n, connected: true, min_edges: n - 1, max_edges: n - 1 }), `trees, n = ${n}`).toBe(A000055[n]);
      }
      for (let n = 0; n <= 10; n++) {
        expect(await count(backend, { order: n, bipartite: true }), `bipartite, n = ${n}`).toBe(A033995[n]);
        expect(await count(backend, { order: n, triangle_free: true }), `triangle-free, n = ${n}`).toBe(A006785[n]);
      }
      for (let n = 0; n <= 8; n++) expect(await count(backend, { order: n, biconnected: true }), `2-connected, n = ${n}`).toBe(BICONNECTED[n]);
    });

    it('lists few graphs inline: the 6 connected graphs on 4 vertices, each connected, pairwise non-isomorphic', async () => {
      const result = await run(backend, { order: 4, connected: true });
      const found = output(result);
      expect(found).toMatchObject({ order: 4, count: 6, listing: 'INLINE', pages: [], shard: null, method: backend === 'geng' ? gengMethod(tool) : TS_ENUMERATION_METHOD });
      const graphs = found.graphs ?? [];
      expect(graphs).toHaveLength(6);
      for (const g of graphs) expect(filterViolation(decodeGraph6(g), found.filters)).toBeNull();
      expect(new Set(canonicalForms(graphs)).size).toBe(6);
      expect(result.artifact_uris).toEqual([]);
      expect(result.scope).toEqual({ kind: 'EXACT_CLAIM', statement: `${describeClass(4, found.filters)}; nothing about other orders or other filters`, input_uris: [] });
      expect(result.scope?.statement).toContain('on exactly 4 vertices');
      expect(result.scope?.statement).toContain('connected');
      expect(result.qualifiers).toEqual(['EXACT', 'EXHAUSTIVE', 'DETERMINISTIC']);
      expect(result.provider?.name).toBe(backend === 'geng' ? GENG_PROVIDER : ENUMERATE_TS_PROVIDER);
    });

    it('pages a long listing: the 274668 graphs on 9 vertices in pages growing from 16 KiB to 1 MiB, whose lines are 274668 isomorphism classes', async () => {
      const result = await run(backend, { order: 9 }, { ...BIG, max_output_bytes: 16 * 1024 * 1024 });
      const found = output(result);
      expect(found.listing).toBe('PAGED');
      expect(found.graphs).toBeNull();
      // A graph6 line of order 9 is 8 bytes with its newline: 2048 lines fit in 16 KiB, 131072 in 1 MiB.
      expect(found.pages.map((page) => page.count)).toEqual([2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072, 14_572]);
      expect(result.artifact_uris).toEqual(found.pages.map((page) => page.uri));
      const graphs = await listed(found);
      expect(graphs).toHaveLength(274_668);
      for (const g of graphs.slice(0, 1000)) expect(decodeGraph6(g).order).toBe(9);
      const forms = canonicalForms(graphs);
      expect(new Set(forms).size).toBe(274_668);
      expect(forms).toEqual(canonicalForms(gengList(['9'])));
      // A listing of 201 graphs is paged, of 200 inline.
      const connected7 = output(await run(backend, { order: 7, connected: true, min_edges: 10, max_edges: 12 }));
      expect(connected7.count).toBeGreaterThan(200);
      expect(connected7).toMatchObject({ listing: 'PAGED', graphs: null });
      expect(await listed(connected7)).toHaveLength(connected7.count);
    });

    it('splits into shards that are disjoint and together make up the class; the scope names the shard', async () => {
      const whole = await listed(output(await run(backend, { order: 7 })));
      const parts: string[][] = [];
      for (let index = 0; index < 3; index++) {
        const result = await run(backend, { order: 7, shard: { index, count: 3 } });
        const found = output(result);
        expect(found.shard).toEqual({ index, count: 3 });
        expect(result.scope?.statement).toContain(`only shard ${index} of 3 under ${found.method}`);
        parts.push(await listed(found));
      }
      expect(parts.reduce((sum, part) => sum + part.length, 0)).toBe(1044);
      expect(parts.every((part) => part.length > 0)).toBe(true);
      expect(canonicalForms(parts.flat())).toEqual(canonicalForms(whole));
      // Counting shards add up too, at an order where each shard holds thousands.
      let total = 0;
      for (let index = 0; index < 5; index++) total += await count(backend, { order: 8, connected: true, shard: { index, count: 5 } });
      expect(total).toBe(A001349[8]);
      // More shards than graphs: still disjoint and complete.
      for (const n of [0, 1, 2, 3]) {
        const sizes: string[] = [];
        for (let index = 0; index < 4; index++) sizes.push(...(await listed(output(await run(backend, { order: n, shard: { index, count: 4 } })))));
        expect(sizes.length, `n = ${n}`).toBe(A000088[n]);
        if (n > 0) expect(new Set(canonicalForms(sizes)).size).toBe(A000088[n]);
      }
    });

    it('concludes nothing when the wall-time budget ends first: TIMEOUT, no output, no count', async () => {
      const result = await run(backend, { order: backend === 'geng' ? 12 : 10, count_only: true }, { wall_time_ms: 300 });
      expect(result.execution.status).toBe('TIMEOUT');
      expect(result.output).toBeNull();
      expect(result.completeness.status).not.toBe('COMPLETE');
      expect(result.artifact_uris).toEqual([]);
      expect(firstError(result).code).toBe('EXECUTION_TIMEOUT');
    });

    it('concludes nothing when cancelled', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200).unref();
      const result = await run(backend, { order: backend === 'geng' ? 12 : 10, count_only: true }, BIG, controller.signal);
      expect(result.execution.status).toBe('CANCELLED');
      expect(result.output).toBeNull();
    });

    it('keeps nothing of a refused listing: the store is byte for byte as before, and pages an earlier run stored survive', async () => {
      /** Every file of the store with the digest of its bytes. */
      const state = async (): Promise<string[]> => Promise.all((await harness.files()).map(async (file) => `${file} ${createHash('sha256').update(await readFile(file)).digest('hex')}`));
      // A successful listing stores its pages; the refused one below starts with the same pages.
      const done = output(await run(backend, { order: 8 }, { max_output_bytes: 1024 * 1024, wall_time_ms: 120_000 }));
      expect(done.listing).toBe('PAGED');
      expect(done.pages.length).toBeGreaterThan(2);
      const before = await state();
      const refused = await run(backend, { order: 8 }, { max_output_bytes: 64 * 1024, wall_time_ms: 120_000 });
      expect(refused.diagnostics.find((d) => d.severity === 'ERROR')?.code).toBe('OUTPUT_LIMIT_EXCEEDED');
      expect(refused.artifact_uris).toEqual([]);
      expect(await state()).toEqual(before);
      expect(await listed(done)).toHaveLength(A000088[8] as number);
      // A refused listing whose pages nobody stored before leaves none of them either.
      const fresh = await run(backend, { order: 8, min_edges: 5 }, { max_output_bytes: 64 * 1024, wall_time_ms: 120_000 });
      expect(fresh.diagnostics.find((d) => d.severity === 'ERROR')?.code).toBe('OUTPUT_LIMIT_EXCEEDED');
      expect(await state()).toEqual(before);
    });

    it('refuses a listing larger than budget.max_output_bytes, and says how to get the count', async () => {
      const result = await run(backend, { order: 9 }, { max_output_bytes: 64 * 1024, wall_time_ms: 120_000 });
      expect(result.execution.status).toBe('ERROR');
      expect(result.output).toBeNull();
      const error = result.diagnostics.find((d) => d.severity === 'ERROR');
      expect(error?.code).toBe('OUTPUT_LIMIT_EXCEEDED');
      expect(error?.hint).toContain('count_only');
    });

    it('decides the graph with no vertices and classes that degree counting empties, without enumerating', async () => {
      expect(output(await run(backend, { order: 0, connected: true }))).toMatchObject({ count: 1, graphs: ['?'], listing: 'INLINE' });
      expect(output(await run(backend, { order: 0, biconnected: true }))).toMatchObject({ count: 0, graphs: [] });
      expect(output(await run(backend, { order: 0, shard: { index: 1, count: 2 } }))).toMatchObject({ count: 0, graphs: [] });
      // 3-regular graphs on 5 vertices would have 7.5 edges; geng refuses such bounds as "impossible".
      const cubic = await run(backend, { order: 5, min_degree: 3, max_degree: 3 });
      expect(output(cubic)).toMatchObject({ count: 0, graphs: [], listing: 'INLINE' });
      expect(cubic.completeness.basis).toContain('no graph qualifies');
      expect(output(await run(backend, { order: 2, biconnected: true, count_only: true }))).toMatchObject({ count: 0, graphs: null, listing: 'NONE' });
    });
  });

  it('the two providers agree on the isomorphism classes for every combination of the structural filters (n = 1..7)', () => {
    const flags = ['connected', 'biconnected', 'triangle_free', 'c4_free', 'bipartite'] as const;
    const gengFlag = { connected: '-c', biconnected: '-C', triangle_free: '-t', c4_free: '-f', bipartite: '-b' } as const;
    for (let n = 1; n <= 7; n++) {
      for (let mask = 0; mask < 32; mask++) {
        const chosen = flags.filter((_, i) => ((mask >> i) & 1) === 1);
        const filters = { ...NO_FILTERS(n), ...Object.fromEntries(chosen.map((flag) => [flag, true])) };
        const ours = tsList(n, filters);
        // geng refuses -C below 3 vertices; there are no 2-connected graphs there.
        const theirs = filters.biconnected && n < 3 ? [] : gengList([...chosen.map((flag) => gengFlag[flag]), String(n)]);
        const label = `n = ${n}, ${chosen.join(' ') || 'no filter'}`;
        expect(ours.length, label).toBe(theirs.length);
        expect(canonicalForms(ours), label).toEqual(canonicalForms(theirs));
      }
    }
  });

  it('the two providers agree on random filter combinations with degree and edge bounds (n = 1..8)', async () => {
    const arbitrary = fc.integer({ min: 1, max: 8 }).chain((n) =>
      fc.record({
        order: fc.constant(n),
        connected: fc.boolean(),
        biconnected: fc.integer({ min: 0, max: 4 }).map((x) => x === 0),
        triangle_free: fc.boolean(),
        c4_free: fc.boolean(),
        bipartite: fc.boolean(),
        min_degree: fc.integer({ min: 0, max: n }),
        max_degree: fc.integer({ min: 0, max: n }),
        min_edges: fc.integer({ min: 0, max: (n * (n - 1)) / 2 + 1 }),
        max_edges: fc.integer({ min: 0, max: (n * (n - 1)) / 2 + 1 }),
      }),
    );
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(arbitrary, async (request) => {
        const { min_degree, max_degree, min_edges, max_edges } = request;
        const input = { ...request, min_degree: Math.min(min_degree, max_degree), max_degree: Math.max(min_degree, max_degree), min_edges: Math.min(min_edges, max_edges), max_edges: Math.max(min_edges, max_edges) };
        const filters = normalizeFilters(input);
        // The kernel alone, without the counting shortcut, is the reference for the shortcut too.
        const ours = tsList(input.order, filters);
        const empty = emptyByCounting(input.order, filters);
        if (empty !== null) expect(ours, empty).toEqual([]);
        const theirs = empty === null ? ((await runGeng(tool, { order: input.order, filters, shard: null, countOnly: false }, { deadline: Date.now() + 30_000, maxOutputBytes: 1 << 24 })).graphs ?? []) : [];
        expect(ours.length, JSON.stringify(input)).toBe(theirs.length);
        if (input.order <= 7) expect(canonicalForms(ours), JSON.stringify(input)).toEqual(canonicalForms(theirs));
        if (ours.length > 0) nonEmpty++;
      }),
      { numRuns: 150, seed: 20240611 },
    );
    // Random bounds often leave nothing; enough of the runs must compare real lists.
    expect(nonEmpty).toBeGreaterThan(30);
  });

  it('emptyByCounting covers every bound geng refuses as impossible (n = 1..6)', () => {
    let refused = 0;
    for (let n = 1; n <= 6; n++) {
      for (const flag of ['', '-c', '-C'] as const) {
        for (let d = 0; d <= n; d++) {
          for (let D = 0; D < n; D++) {
            const filters = { ...NO_FILTERS(n), connected: flag === '-c', biconnected: flag === '-C', min_degree: d, max_degree: D };
            const args = gengArguments({ order: n, filters, shard: null, countOnly: true });
            const geng = spawnSync(GENG, args, { encoding: 'utf8' });
            const label = `geng ${args.join(' ')}`;
            const empty = emptyByCounting(n, filters);
            if (geng.status !== 0) {
              refused++;
              expect(geng.stderr, label).toContain('impossible');
              expect(empty, label).not.toBeNull();
            } else if (empty !== null) {
              expect(parseGengCount(geng.stderr), label).toBe(0);
            }
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(20);
  });

  it('refuses bad requests: crossed bounds, a shard index out of range, orders above the provider limit', async () => {
    const crossed = await run('typescript', { order: 5, min_degree: 3, max_degree: 2 });
    expect(firstError(crossed).code).toBe('INVALID_REQUEST');
    const edges = await run('typescript', { order: 5, min_edges: 4, max_edges: 3 });
    expect(firstError(edges).code).toBe('INVALID_REQUEST');
    const shard = await run('geng', { order: 5, shard: { index: 3, count: 3 } });
    expect(firstError(shard).code).toBe('INVALID_REQUEST');
    const unknown = await run('geng', { order: 5, regular: true });
    expect(firstError(unknown).code).toBe('INVALID_REQUEST');
    const tooBig = await run('typescript', { order: 11, count_only: true });
    expect(firstError(tooBig)).toMatchObject({ code: 'SIZE_LIMIT_EXCEEDED' });
    expect(firstError(tooBig).message).toContain('at most 10');
    expect(firstError(await run('geng', { order: 33, count_only: true })).code).toBe('INVALID_REQUEST');
    expect(installed.typescript.descriptor.limits).toMatchObject({ max_order: 10, method: TS_ENUMERATION_METHOD });
    expect(installed.geng.descriptor.limits).toMatchObject({ max_order: 32, method: gengMethod(tool) });
  });

  it('a listing stopped while geng streams it (budget, cancel) concludes nothing, whatever pages were stored on the way', async () => {
    // geng -t 12 writes 16 MB of graph6 over a second or more.
    const slow = { order: 12, triangle_free: true };
    const timedOut = await run('geng', slow, { wall_time_ms: 400, max_output_bytes: 16 * 1024 * 1024 });
    expect(timedOut.execution.status).toBe('TIMEOUT');
    expect(timedOut.output).toBeNull();
    expect(timedOut.artifact_uris).toEqual([]);
    expect(firstError(timedOut).code).toBe('EXECUTION_TIMEOUT');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300).unref();
    const cancelled = await run('geng', slow, { wall_time_ms: 60_000, max_output_bytes: 16 * 1024 * 1024 }, controller.signal);
    expect(cancelled.execution.status).toBe('CANCELLED');
    expect(cancelled.output).toBeNull();
    // Past max_output_bytes while streaming: refused with the hint, geng killed.
    const tooMuch = await run('geng', slow, { wall_time_ms: 60_000, max_output_bytes: 2 * 1024 * 1024 });
    expect(firstError(tooMuch).code).toBe('OUTPUT_LIMIT_EXCEEDED');
  });

  describe('a geng that lies is caught', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'jacobian-fake-geng-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    async function fakeGeng(name: string, stdout: string, stderr: string): Promise<InstalledCapability> {
      const file = join(dir, name);
      await writeFile(file, `#!/bin/sh\nprintf '${stdout}'\nprintf '${stderr}' >&2\n`);
      await chmod(file, 0o755);
      return harness.install(enumerateNonisomorphic({ kind: 'geng', tool: { geng: file, version: '0.0', wordSize: 32 } }), gengRuntime);
    }
    const report = (count: number): string => `>A geng -d0D3 n=4 e=0-6\\n>Z ${count} graphs generated in 0.00 sec\\n`;

    it('a count that disagrees with the lines written', async () => {
      const liar = await fakeGeng('short', 'C~\\nC^\\n', report(3));
      const result = await harness.run(liar, { capability_id: ID, payload: { order: 4 } });
      expect(firstError(result).code).toBe('PROVIDER_FAILED');
      expect(firstError(result).message).toContain('reported 3 graphs but wrote 2 lines');
    });

    it('a graph that breaks a filter, or is not graph6 of the order asked', async () => {
      const triangle = await fakeGeng('triangle', 'C~\\n', report(1));
      const result = await harness.run(triangle, { capability_id: ID, payload: { order: 4, triangle_free: true } });
      expect(firstError(result).code).toBe('PROVIDER_FAILED');
      expect(firstError(result).message).toContain('contains the triangle');
      const wrongOrder = await fakeGeng('order', 'Bw\\n', report(1));
      expect(firstError(await harness.run(wrongOrder, { capability_id: ID, payload: { order: 4 } })).message).toContain('has 3 vertices, not 4');
      const garbage = await fakeGeng('garbage', 'hello\\n', report(1));
      expect(firstError(await harness.run(garbage, { capability_id: ID, payload: { order: 4 } })).message).toContain('not graph6');
    });

    it('a report it cannot read', async () => {
      const mute = await fakeGeng('mute', 'C~\\n', '');
      expect(firstError(await harness.run(mute, { capability_id: ID, payload: { order: 4 } })).message).toContain("geng's report could not be read");
    });
  });

  describe("streamGeng's spool file", () => {
    let spool: string;
    let saved: string | undefined;
    beforeAll(async () => {
      spool = await mkdtemp(join(tmpdir(), 'jacobian-geng-spool-'));
      saved = process.env['TMPDIR'];
      process.env['TMPDIR'] = spool;
    });
    afterAll(async () => {
      if (saved === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = saved;
      await rm(spool, { recursive: true, force: true });
    });
    const listing = (order: number, extra: Partial<EnumerationFilters> = {}): GengRequest => ({ order, filters: { ...NO_FILTERS(order), ...extra }, shard: null, countOnly: false });
    const options = (maxOutputBytes: number) => ({ deadline: Date.now() + 120_000, maxOutputBytes });

    it('hands on exactly what geng writes, and leaves nothing in the temporary folder', async () => {
      const parts: Buffer[] = [];
      const count = await streamGeng(tool, listing(9, { connected: true }), options(16 * 1024 * 1024), (chunk) => {
        parts.push(Buffer.from(chunk));
        return null;
      });
      expect(count).toBe(A001349[9]);
      expect(parts.length).toBeGreaterThan(1);
      expect(Buffer.concat(parts).toString('latin1')).toBe(`${gengList(['-c', '9']).join('\n')}\n`);
      expect(await readdir(spool)).toEqual([]);
    });

    it('kills geng past maxOutputBytes while the listing makes the reader wait', async () => {
      let calls = 0;
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      // geng -t 12 writes 16 MB; the reader takes one chunk and then waits until released.
      const stream = streamGeng(tool, listing(12, { triangle_free: true }), options(1024 * 1024), () => {
        calls++;
        return held;
      });
      const error = await stream.then(
        () => null,
        (caught: unknown) => caught as { code?: string },
      );
      release();
      expect(error?.code).toBe('OUTPUT_LIMIT_EXCEEDED');
      expect(calls).toBe(1);
      expect(await readdir(spool)).toEqual([]);
    });

    it('reports geng lost when what started it dies (its shell, or the launcher process), starts anew for the next run, and leaves no spool file when geng cannot start', async () => {
      let calls = 0;
      const lost = await streamGeng(tool, listing(12, { triangle_free: true }), options(32 * 1024 * 1024), () => {
        if (++calls === 1) {
          const launcher = sharedLauncher();
          for (const pid of [...launcher.shellPids, launcher.pid ?? []].flat()) process.kill(pid, 'SIGKILL');
        }
        return null;
      }).then(
        () => null,
        (caught: unknown) => caught as { code?: string; message?: string },
      );
      expect(lost).toMatchObject({ code: 'PROVIDER_FAILED' });
      expect(lost?.message).toMatch(/was lost: (the shell that started it exited|the native-tool launcher exited with signal SIGKILL)/);
      expect(await readdir(spool)).toEqual([]);
      const count = await streamGeng(tool, listing(7), options(1024 * 1024), () => null);
      expect(count).toBe(A000088[7]);
      // A geng that cannot be started leaves no spool file either.
      const missing = await streamGeng({ ...tool, geng: join(spool, 'no-such-geng') }, listing(4), options(1024), () => null).then(
        () => null,
        (caught: unknown) => caught as { code?: string; message?: string },
      );
      expect(missing).toMatchObject({ code: 'PROVIDER_FAILED' });
      expect(missing?.message).toMatch(/no-such-geng could not be started: .*ENOENT/);
      expect(await readdir(spool)).toEqual([]);
    });

    it("stops geng with what the listing threw, and says when the spool file cannot be made", async () => {
      const refusal = new Error('this listing refuses its second chunk');
      let calls = 0;
      const thrown = await streamGeng(tool, listing(10), options(16 * 1024 * 1024), () => {
        if (++calls === 2) throw refusal;
        return null;
      }).then(
        () => null,
        (caught: unknown) => caught as Error,
      );
      expect(calls).toBe(2);
      expect(thrown?.message).toContain('refuses its second chunk');
      expect(await readdir(spool)).toEqual([]);
      process.env['TMPDIR'] = join(spool, 'missing');
      try {
        // Spool files created as the run starts (this process's shared supply has one made ahead).
        const missing = await streamGeng(tool, listing(4), { ...options(1024), spools: new SpoolSupply({ ahead: false }) }, () => null).then(
          () => null,
          (caught: unknown) => caught as { code?: string; message?: string },
        );
        expect(missing).toMatchObject({ code: 'PROVIDER_FAILED' });
        expect(missing?.message).toContain('spool file');
      } finally {
        process.env['TMPDIR'] = spool;
      }
    });
  });

  describe('provider selection', () => {
    it('probes geng: a valid runtime naming its version, digested with the libnauty it loads', () => {
      expect(gengRuntime).toMatchObject({ provider: GENG_PROVIDER, availability: 'AVAILABLE', digest_kind: 'COMPOSITE', install_tier: 'T1', version: tool.version });
      expect(gengRuntime.features).toContain('res-mod-split');
      expect(tool.geng).toMatch(/geng$/);
    });

    it('falls back to the TypeScript provider when geng is missing, and maps each runtime to its backend', async () => {
      const missing = gengProvider({ directories: ['/nonexistent-for-jacobian-tests'] });
      const typescript: ProviderProbe = { name: ENUMERATE_TS_PROVIDER, probe: () => Promise.resolve(TS_RUNTIME) };
      const skipped: string[] = [];
      const chosen = await firstHealthyOf([missing, typescript], { onSkipped: (name, reason) => skipped.push(`${name}: ${reason}`) }).probe();
      expect(chosen.provider).toBe(ENUMERATE_TS_PROVIDER);
      expect(skipped[0]).toContain('not installed');
      expect(enumerationBackend(chosen, missing)).toEqual({ kind: 'typescript' });
      const present = gengProvider();
      const runtime = await firstHealthyOf([present, typescript]).probe();
      expect(runtime.provider).toBe(GENG_PROVIDER);
      expect(enumerationBackend(runtime, present)).toMatchObject({ kind: 'geng', tool: { geng: tool.geng } });
      expect(() => enumerationBackend(runtime, missing)).toThrow(/no geng probe succeeded/);
      expect(() => enumerationBackend(FAKE_RUNTIME, present)).toThrow(/not test-provider/);
    });
  });
});

describe('filterViolation (the plain recheck)', () => {
  const graph = (n: number, edges: [number, number][]) => ({ order: n, edges });
  const all = (n: number, extra: Partial<EnumerationFilters>): EnumerationFilters => ({ ...NO_FILTERS(n), ...extra });

  it('accepts graphs in the class and rejects each kind of violation', () => {
    const c5 = graph(5, [[0, 1], [1, 2], [2, 3], [3, 4], [0, 4]]);
    expect(filterViolation(c5, all(5, { connected: true, biconnected: true, triangle_free: true, c4_free: true, min_degree: 2, max_degree: 2, min_edges: 5, max_edges: 5 }))).toBeNull();
    expect(filterViolation(c5, all(5, { bipartite: true }))).toBe('is not bipartite');
    expect(filterViolation(graph(4, [[0, 1], [1, 2], [2, 3], [0, 3]]), all(4, { c4_free: true }))).toContain('4-cycle');
    expect(filterViolation(graph(3, [[0, 1], [1, 2], [0, 2]]), all(3, { triangle_free: true }))).toContain('triangle');
    expect(filterViolation(graph(4, [[0, 1], [2, 3]]), all(4, { connected: true }))).toBe('is not connected');
    expect(filterViolation(graph(3, [[0, 1], [1, 2]]), all(3, { biconnected: true }))).toContain('cut vertex');
    expect(filterViolation(graph(2, [[0, 1]]), all(2, { biconnected: true }))).toBe('is not 2-connected');
    expect(filterViolation(graph(3, [[0, 1]]), all(3, { min_degree: 1 }))).toContain('degree 0');
    expect(filterViolation(graph(3, [[0, 1], [0, 2]]), all(3, { max_degree: 1 }))).toContain('degree 2');
    expect(filterViolation(graph(3, [[0, 1]]), all(3, { min_edges: 2 }))).toContain('1 edges');
    expect(filterViolation(graph(1, []), all(1, { connected: true }))).toBeNull();
  });
});

describe('the TypeScript enumeration kernel', () => {
  it('writes graph6 exactly as the shared encoder does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer(), (n, p, seed) => {
        const g = randomGraph(n, p, mulberry32(seed));
        const rows = new Int32Array(n);
        for (const [u, v] of g.edges) {
          rows[u] = rows[u]! | (1 << v);
          rows[v] = rows[v]! | (1 << u);
        }
        expect(graph6OfRows(rows, n)).toBe(encodeGraph6(g));
      }),
      { numRuns: 300 },
    );
  });

  it('stops when told, claiming nothing', () => {
    const found = enumerateGraphs({ order: 8, filters: NO_FILTERS(8), shard: null, list: true, max_listing_bytes: 1e9 }, { shouldStop: () => true });
    expect(found.outcome).toBe('STOPPED');
    expect(found.listing).toBe('');
  });

  it('stops listing past max_listing_bytes, counting the listing as a JSON string', () => {
    const all = enumerateGraphs({ order: 6, filters: NO_FILTERS(6), shard: null, list: true, max_listing_bytes: 1e9 }, { shouldStop: () => false });
    const json = JSON.stringify(all.listing).length - 2;
    expect(json).toBeGreaterThan(all.listing.length);
    expect(enumerateGraphs({ order: 6, filters: NO_FILTERS(6), shard: null, list: true, max_listing_bytes: json }, { shouldStop: () => false })).toMatchObject({ outcome: 'COMPLETE', count: 156 });
    const found = enumerateGraphs({ order: 6, filters: NO_FILTERS(6), shard: null, list: true, max_listing_bytes: json - 1 }, { shouldStop: () => false });
    expect(found.outcome).toBe('TOO_MANY_TO_LIST');
    expect(found.listing).toBe('');
  });

  it('refuses filters that are not normalized', () => {
    expect(() => enumerateGraphs({ order: 4, filters: { ...NO_FILTERS(4), max_degree: 7 }, shard: null, list: false, max_listing_bytes: 0 }, { shouldStop: () => false })).toThrow(RangeError);
  });
});

describe('the bit-row canonical labeller (enumerate-canon.ts)', () => {
  /** The graph relabelled canonically, as sorted edge keys. */
  function canonicalEdges(labeller: RowsLabeller, rows: number[], n: number): string {
    expect(labeller.label(Int32Array.from(rows), n)).not.toBeNull();
    const keys: number[] = [];
    for (let u = 0; u < n; u++) for (let v = u + 1; v < n; v++) if (((rows[u]! >>> v) & 1) === 1) keys.push(Math.min(labeller.labelling[u]!, labeller.labelling[v]!) * 64 + Math.max(labeller.labelling[u]!, labeller.labelling[v]!));
    return keys.sort((a, b) => a - b).join(',');
  }

  /** The order of the permutation group the generators generate, by closure (small groups only). */
  function closureOrder(n: number, generators: readonly Int32Array[]): number {
    const identity = Array.from({ length: n }, (_, i) => i);
    const seen = new Set([identity.join(',')]);
    const queue = [identity];
    while (queue.length > 0) {
      const p = queue.pop()!;
      for (const g of generators) {
        const q = p.map((x) => g[x]!);
        const key = q.join(',');
        if (!seen.has(key)) {
          seen.add(key);
          queue.push(q);
        }
      }
    }
    return seen.size;
  }

  it('gives isomorphic graphs one canonical form, and generators that are automorphisms with the orbits of the reference labeller', () => {
    const labeller = new RowsLabeller(12);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer(), (n, p, seed) => {
        const random = mulberry32(seed);
        const g = randomGraph(n, p, random);
        const h = relabel(g, randomPermutation(n, random));
        const rows = adjacencyMasks(g);
        expect(canonicalEdges(labeller, adjacencyMasks(h), n)).toBe(canonicalEdges(labeller, rows, n));
        const generators = labeller.label(Int32Array.from(rows), n)!;
        for (const gen of generators) {
          for (let u = 0; u < n; u++) for (let v = 0; v < n; v++) expect(((rows[gen[u]!]! >>> gen[v]!) & 1) === 1).toBe(((rows[u]! >>> v) & 1) === 1);
        }
        const reference = canonicalLabelling(g, { shouldStop: () => false });
        const orbit = (x: number): number[] => {
          const found = new Set([x]);
          for (let grew = true; grew; ) {
            grew = false;
            for (const y of [...found]) {
              for (const r of reference.generators) {
                if (!found.has(r[y]!)) {
                  found.add(r[y]!);
                  grew = true;
                }
              }
            }
          }
          return [...found];
        };
        for (let u = 0; u < n; u++) for (const v of orbit(u)) expect(labeller.sameOrbit(u, v), `${u} ~ ${v}`).toBe(true);
        for (let u = 0; u < n; u++) for (let v = 0; v < n; v++) if (labeller.sameOrbit(u, v)) expect(orbit(u)).toContain(v);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('finds generators of the whole automorphism group of named graphs', () => {
    const labeller = new RowsLabeller(30);
    const named = namedGraphs(30).filter((entry) => entry.order <= 50_000n);
    expect(named.length).toBeGreaterThan(8);
    for (const { name, graph, order } of named) {
      const generators = labeller.label(Int32Array.from(adjacencyMasks(graph)), graph.order);
      expect(generators, name).not.toBeNull();
      expect(closureOrder(graph.order, generators!), name).toBe(Number(order));
    }
  });
});

describe('the fast recheck (enumerate-recheck.ts)', () => {
  const bytes = (text: string): Uint8Array => Buffer.from(text, 'latin1');

  it('agrees with filterViolation on random graphs and random filters', () => {
    fc.assert(
      fc.property(
        // Up to FAST_RECHECK_MAX_ORDER: rows cut from data bits that straddle several bytes (and bit 31) at the larger orders.
        fc.integer({ min: 1, max: FAST_RECHECK_MAX_ORDER }).chain((n) =>
          fc.record({
            n: fc.constant(n),
            p: fc.double({ min: 0, max: 1, noNaN: true }),
            seed: fc.integer(),
            flags: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
            degrees: fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })),
            edges: fc.tuple(fc.integer({ min: 0, max: (n * (n - 1)) / 2 }), fc.integer({ min: 0, max: (n * (n - 1)) / 2 })),
            bounded: fc.boolean(),
          }),
        ),
        ({ n, p, seed, flags, degrees, edges, bounded }) => {
          const g = randomGraph(n, p, mulberry32(seed));
          const [connected, biconnected, triangle_free, c4_free, bipartite] = flags as [boolean, boolean, boolean, boolean, boolean];
          const filters: EnumerationFilters = {
            ...NO_FILTERS(n),
            connected,
            biconnected,
            triangle_free,
            c4_free,
            bipartite,
            ...(bounded ? { min_degree: Math.min(...degrees), max_degree: Math.max(...degrees), min_edges: Math.min(...edges), max_edges: Math.max(...edges) } : {}),
          };
          const text = encodeGraph6(g);
          expect(new FastRecheck(n, filters).passes(bytes(text), 0, text.length), `${text} ${JSON.stringify(filters)}`).toBe(filterViolation(g, filters) === null);
        },
      ),
      { numRuns: 2000, seed: 5 },
    );
  });

  /**
   * The fast recheck against filterViolation on random graphs of orders `min`…30 with edge
   * probability `p(n)`, chosen so that the filter is met about half the time; `filters` may
   * vary with a coin.
   */
  function agreesNearThreshold(min: number, p: (n: number) => number, filters: (n: number, coin: boolean) => EnumerationFilters, seed: number): void {
    fc.assert(
      fc.property(fc.integer({ min, max: FAST_RECHECK_MAX_ORDER }), fc.integer(), fc.boolean(), (n, graphSeed, coin) => {
        const g = randomGraph(n, Math.min(1, p(n)), mulberry32(graphSeed));
        const chosen = filters(n, coin);
        const text = encodeGraph6(g);
        expect(new FastRecheck(n, chosen).passes(bytes(text), 0, text.length), text).toBe(filterViolation(g, chosen) === null);
      }),
      { numRuns: 3000, seed },
    );
  }

  it('agrees with filterViolation on connectivity near its threshold, where one edge decides it', () => {
    // Sparse graphs (about n/2 to n edges) are connected or not about equally often; the
    // connectivity test then meets long paths, vertices reached only from above, and isolated vertices.
    agreesNearThreshold(2, (n) => 2.2 / n, (n, edgesBounded) => ({ ...NO_FILTERS(n), connected: true, ...(edgesBounded ? { min_edges: n - 1 } : {}) }), 17);
  });

  it('agrees with filterViolation on triangles near their threshold, with and without the filters that need full rows', () => {
    // At about 1.5 edges per vertex, a random graph has a triangle about half the time.
    agreesNearThreshold(3, (n) => 3 / n, (n, withDegrees) => ({ ...NO_FILTERS(n), triangle_free: true, ...(withDegrees ? { max_degree: n - 2 } : {}) }), 23);
  });

  it('takes a graph in the middle of a buffer, and the same instance again and again', () => {
    const n = 10;
    const filters = { ...NO_FILTERS(n), connected: true };
    const check = new FastRecheck(n, filters);
    const random = mulberry32(3);
    const graphs = Array.from({ length: 200 }, () => randomGraph(n, random() * 0.5, random));
    const text = graphs.map((g) => `${encodeGraph6(g)}\n`).join('');
    const all = bytes(`junk${text}`);
    let at = 4;
    for (const g of graphs) {
      const end = all.indexOf(10, at);
      expect(check.passes(all, at, end)).toBe(filterViolation(g, filters) === null);
      at = end + 1;
    }
  });

  it('rejects texts that are not graph6 of the order: wrong order, length, byte range, padding', () => {
    const check = new FastRecheck(5, NO_FILTERS(5));
    const good = encodeGraph6(randomGraph(5, 0.5, mulberry32(1)));
    expect(check.passes(bytes(good), 0, good.length)).toBe(true);
    // Order 5 has 10 bits in two bytes: the last two bits of the second byte are padding.
    const padded = `${good.slice(0, -1)}${String.fromCharCode(63 + ((good.charCodeAt(good.length - 1) - 63) | 1))}`;
    expect(() => decodeGraph6(padded)).toThrow(/padding/);
    for (const bad of ['Cw', `${good}?`, good.slice(0, -1), `D${' '.repeat(good.length - 1)}`, padded]) {
      expect(check.passes(bytes(bad), 0, bad.length), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('the listing sink and its pages (enumerate-pages.ts)', () => {
  /**
   * The 853 connected graphs on 7 vertices from geng, their page header, and a context whose
   * store takes pages of 100 graphs (graph6 lines of order 7 are 6 bytes: 4096 + 2 · 6 · 100
   * bytes) and, when asked, shows each page put to `onPut`.
   */
  function connectedOrder7(harness: CapabilityHarness, onPut?: (page: EnumerationPagePayload) => void): { lines: string[]; header: PageHeader; context: CapabilityContext } {
    const n = 7;
    const header: PageHeader = { order: n, filters: { ...NO_FILTERS(n), connected: true }, shard: null, method: 'test' };
    const artifacts = harness.artifacts;
    const context = {
      artifacts: {
        ...artifacts,
        limits: { ...artifacts.limits, maxPayloadBytes: 4096 + 2 * 6 * 100 },
        put: (draft: Parameters<typeof artifacts.put>[0], options?: Parameters<typeof artifacts.put>[1]) => {
          if (onPut !== undefined) onPut(PagePayload.parse(draft.payload));
          return artifacts.put(draft, options);
        },
      },
      signal: new AbortController().signal,
    } as unknown as CapabilityContext;
    return { lines: gengList(['-c', '7']), header, context };
  }

  it("sizes pages from 16 KiB of graph6 lines, doubling up to 1 MiB, within the store's payload limit, at least one graph", () => {
    const unlimited = 16 * 1024 * 1024;
    // Order 10: 10 bytes a line with its newline.
    expect(Array.from({ length: 9 }, (_, page) => graphsOnPage(10, page, unlimited))).toEqual([1638, 3276, 6553, 13_107, 26_214, 52_428, 104_857, 104_857, 104_857]);
    expect(graphsOnPage(10, 1000, unlimited)).toBe(104_857);
    // Each graph6 character and newline may take two bytes of canonical JSON, and 4 kB go to the rest.
    expect([0, 3, 8].map((page) => graphsOnPage(10, page, 4096 + 2 * 10 * 1000))).toEqual([1000, 1000, 1000]);
    expect(graphsOnPage(10, 0, 4096)).toBe(1);
    // Order 1: lines of 2 bytes.
    expect(graphsOnPage(1, 0, unlimited)).toBe(8192);
    // A store whose quick put takes 1 MiB less a record header (the local folder store's journal):
    // pages of at most (room − 8 kB) / 20 graphs of order 10, whatever the lines hold; smaller pages as before.
    const room = 1024 * 1024 - 116;
    expect(Array.from({ length: 9 }, (_, page) => graphsOnPage(10, page, unlimited, room))).toEqual([1638, 3276, 6553, 13_107, 26_214, 52_013, 52_013, 52_013, 52_013]);
    expect(graphsOnPage(10, 8, 4096 + 2 * 10 * 1000, room)).toBe(1000);
    expect(graphsOnPage(10, 0, unlimited, 8192)).toBe(1);
  });

  it("keeps every page within a journaled store's quick put, so none is stored synced file by file", async () => {
    const root = await mkdtemp(join(tmpdir(), 'jacobian-quick-pages-'));
    // The smallest journal: records of at most 60 KiB, so a short listing spans many of them.
    const artifacts = createLocalFolderArtifactStore({ root, journal: { bytes: 64 * 1024 } });
    try {
      const room = artifacts.quickPutBytes!;
      const sizes: number[] = [];
      const context = {
        artifacts: {
          limits: artifacts.limits,
          quickPutBytes: room,
          put: (draft: Parameters<typeof artifacts.put>[0], options?: Parameters<typeof artifacts.put>[1]) => {
            const prepared = prepareArtifact(draft, artifacts.limits);
            sizes.push(prepared.payloadBytes.byteLength + prepared.manifestBytes.byteLength);
            return artifacts.put(draft, options);
          },
          sync: (uris: readonly string[]) => artifacts.sync(uris),
        },
        signal: new AbortController().signal,
      } as unknown as CapabilityContext;
      // Lines of 6 bytes: the connected graphs of order 7, and between them runs of a graph whose
      // graph6 is mostly backslashes (0x5c, escaped in JSON: 10 bytes of canonical JSON for 6 of graph6).
      const n = 7;
      const backslashes = 'F\\\\\\?';
      expect(decodeGraph6(backslashes).order).toBe(n);
      const lines = gengList(['-c', '7']);
      const text = Array.from({ length: 40 }, (_, copy) => `${lines.join('\n')}\n${copy % 2 === 0 ? `${backslashes}\n`.repeat(6000) : ''}`).join('');
      const header: PageHeader = { order: n, filters: NO_FILTERS(n), shard: null, method: 'test' };
      const sink = new ListingSink({ header, context, reference: () => undefined });
      const wait = sink.write(Buffer.from(text, 'latin1'));
      if (wait !== null) await wait;
      const listing = await sink.end();
      const perPage = Math.floor((room - 8192) / 12);
      expect(listing.pages.map((page) => page.count).slice(0, 3)).toEqual([2730, perPage, perPage]);
      expect(listing.pages.reduce((sum, page) => sum + page.count, 0)).toBe(text.length / 6);
      expect(sizes).toHaveLength(listing.pages.length);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(room);
      // A page of backslashes: 10 bytes of JSON a line, against 12 allowed for.
      expect(Math.max(...sizes)).toBeGreaterThan(((room - 8192) * 10) / 12);
    } finally {
      await artifacts.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('pages the same lines whatever the chunk boundaries, and calls the reference only for graphs the fast recheck does not pass', async () => {
    const harness = await createCapabilityHarness();
    try {
      const { lines, header, context } = connectedOrder7(harness);
      const text = `${lines.join('\n')}\n`;
      let referenced = 0;
      const sink = new ListingSink({ header, context, reference: () => void referenced++ });
      const random = mulberry32(9);
      const all = Buffer.from(text, 'latin1');
      for (let at = 0; at < all.length; ) {
        const size = 1 + Math.floor(random() * 50);
        const wait = sink.write(all.subarray(at, at + size));
        if (wait !== null) await wait;
        at += size;
      }
      const listing = await sink.end();
      expect(referenced).toBe(0);
      expect(listing.graphs).toBeNull();
      expect(listing.pages.map((page) => page.count)).toEqual([...Array.from({ length: 8 }, () => 100), 53]);
      const read: string[] = [];
      for (const [i, ref] of listing.pages.entries()) {
        const page = PagePayload.parse((await harness.artifacts.get(ref.uri)).payload);
        expect(page).toMatchObject({ page: i, first_index: read.length, count: ref.count, last: i === 8 });
        for (const line of page.graph6.slice(0, -1).split('\n')) read.push(line);
      }
      expect(read).toEqual(lines);
      // A line cut short is refused.
      const cut = new ListingSink({ header, context, reference: () => undefined });
      expect(cut.write(Buffer.from(text.slice(0, 20), 'latin1'))).toBeNull();
      await expect(cut.end()).rejects.toThrow(/complete line/);
    } finally {
      await harness[Symbol.asyncDispose]();
    }
  });

  it('stores pages with deferSync while their graph6 stays within 256 KiB, and starts their sync once every page is stored', async () => {
    const harness = await createCapabilityHarness();
    try {
      const lines = gengList(['-c', '7']);
      const n = 7;
      const header: PageHeader = { order: n, filters: { ...NO_FILTERS(n), connected: true }, shard: null, method: 'test' };
      const artifacts = harness.artifacts;
      const puts: { page: number; bytes: number; deferSync: boolean | undefined }[] = [];
      const syncs: string[][] = [];
      const context = {
        artifacts: {
          ...artifacts,
          limits: artifacts.limits,
          put: (draft: Parameters<typeof artifacts.put>[0], options?: Parameters<typeof artifacts.put>[1]) => {
            const page = PagePayload.parse(draft.payload);
            puts.push({ page: page.page, bytes: page.graph6.length, deferSync: options?.deferSync });
            return artifacts.put(draft, options);
          },
          sync: (uris: readonly string[]) => {
            syncs.push([...uris]);
            return artifacts.sync(uris);
          },
        },
        signal: new AbortController().signal,
      } as unknown as CapabilityContext;
      // 100 copies of the 853 connected graphs on 7 vertices (the sink rechecks each line, not
      // that they differ): 511,800 bytes of graph6 on pages of 16, 32, 64, 128 and 256 KiB, and the rest.
      const text = `${lines.join('\n')}\n`.repeat(100);
      const sink = new ListingSink({ header, context, reference: () => undefined });
      const wait = sink.write(Buffer.from(text, 'latin1'));
      if (wait !== null) await wait;
      const listing = await sink.end();
      expect(listing.pages.map((page) => page.count)).toEqual([2730, 5461, 10922, 21845, 43690, 652]);
      const byPage = [...puts].sort((a, b) => a.page - b.page);
      expect(byPage.map((put) => put.bytes)).toEqual([16_380, 32_766, 65_532, 131_070, 262_140, 3912]);
      // 245,748 bytes on the first four; the fifth would pass 262,144; the last fits again.
      expect(byPage.map((put) => put.deferSync)).toEqual([true, true, true, true, false, true]);
      // Once every page was stored: all of them.
      expect(syncs).toHaveLength(1);
      expect(new Set(syncs[0])).toEqual(new Set(listing.pages.map((page) => page.uri)));
      await artifacts.sync(listing.pages.map((page) => page.uri));
      for (const ref of listing.pages) expect(PagePayload.parse((await artifacts.get(ref.uri)).payload).count).toBe(ref.count);
    } finally {
      await harness[Symbol.asyncDispose]();
    }
  });

  it('stores a full page as soon as a graph after it arrives, so that at the end only the page being filled is left', async () => {
    const harness = await createCapabilityHarness();
    try {
      const put: { page: number; last: boolean }[] = [];
      const { lines, header, context } = connectedOrder7(harness, (payload) => put.push({ page: payload.page, last: payload.last }));
      const artifacts = harness.artifacts;
      const bytes = (from: number, to: number): Buffer => Buffer.from(lines.slice(from, to).map((line) => `${line}\n`).join(''), 'latin1');

      // Three full pages in one write: the first two are followed by graphs; the third may be the last.
      const sink = new ListingSink({ header, context, reference: () => undefined });
      expect(sink.write(bytes(0, 300))).toBeNull();
      expect(put).toEqual([
        { page: 0, last: false },
        { page: 1, last: false },
      ]);
      // A line cut short after it is not yet a graph...
      const next = bytes(300, 301);
      expect(sink.write(next.subarray(0, 3))).toBeNull();
      expect(put).toHaveLength(2);
      // ...its end is: page 2 is not the last, and is stored at once.
      expect(sink.write(next.subarray(3))).toBeNull();
      expect(put).toEqual([
        { page: 0, last: false },
        { page: 1, last: false },
        { page: 2, last: false },
      ]);
      expect(sink.write(bytes(301, 520))).toBeNull();
      expect(put.map((entry) => entry.page)).toEqual([0, 1, 2, 3, 4]);
      const listing = await sink.end();
      expect(put.at(-1)).toEqual({ page: 5, last: true });
      expect(listing.pages.map((page) => page.count)).toEqual([100, 100, 100, 100, 100, 20]);

      // A listing that ends with a full page: that page is stored at the end, as the last.
      put.length = 0;
      const whole = new ListingSink({ header, context, reference: () => undefined });
      expect(whole.write(bytes(0, 150))).toBeNull();
      expect(whole.write(bytes(150, 300))).toBeNull();
      expect(put).toEqual([
        { page: 0, last: false },
        { page: 1, last: false },
      ]);
      const ended = await whole.end();
      expect(put.at(-1)).toEqual({ page: 2, last: true });
      expect(ended.pages.map((page) => page.count)).toEqual([100, 100, 100]);
      const last = PagePayload.parse((await artifacts.get(ended.pages[2]!.uri)).payload);
      expect(last).toMatchObject({ page: 2, first_index: 200, count: 100, last: true });
      expect(last.graph6).toBe(bytes(200, 300).toString('latin1'));

      // At most the inline listing's graphs: nothing is stored, even past a full page (pages of 100, inline up to 200).
      put.length = 0;
      const few = new ListingSink({ header, context, reference: () => undefined });
      expect(few.write(bytes(0, 150))).toBeNull();
      expect(put).toEqual([]);
      const inline = await few.end();
      expect(inline.graphs).toEqual(lines.slice(0, 150));
      expect(put).toEqual([]);

      // A graph that fails the fast recheck goes to the reference, whose refusal fails the write
      // that brings it (here the edgeless graph, not connected, after two and a half pages).
      const lying = new ListingSink({
        header,
        context,
        reference: (text, index) => {
          throw new Error(`graph ${index} (${text}) is not connected`);
        },
      });
      expect(() => lying.write(Buffer.concat([bytes(0, 250), Buffer.from('F????\n', 'latin1'), bytes(251, 300)]))).toThrow(/graph 250 \(F\?\?\?\?\) is not connected/);

      // A page whose store fails fails the listing, at the latest when it ends.
      const failing = { ...context, artifacts: { ...context.artifacts, put: () => Promise.reject(new Error('disk full')) } } as unknown as CapabilityContext;
      const unstored = new ListingSink({ header, context: failing, reference: () => undefined });
      expect(unstored.write(bytes(0, 301))).toBeNull();
      await expect(unstored.end()).rejects.toThrow(/disk full/);
    } finally {
      await harness[Symbol.asyncDispose]();
    }
  });

  it('the page contract: count matches the lines, graph6 is lines of graph6 bytes', () => {
    const page = { order: 3, filters: NO_FILTERS(3), shard: null, method: 'm', page: 0, first_index: 0, count: 2, last: true, graph6: 'Bw\nBg\n' };
    expect(PagePayload.parse(page)).toEqual(page);
    expect(PagePayload.safeParse({ ...page, count: 3 }).success).toBe(false);
    expect(PagePayload.safeParse({ ...page, graph6: 'Bw\nBg' }).success).toBe(false);
    expect(PagePayload.safeParse({ ...page, graph6: 'Bw\n B\n' }).success).toBe(false);
  });
});
