/**
 * Split runs of graph.enumerate.nonisomorphic (`split: {shards: k}`): the shard jobs run
 * through the queues as ordinary runs, and the runner's shard handler merges them. Counts are
 * checked against OEIS and against the same request run whole; listings against the whole
 * listing, up to isomorphism (nauty's labelg).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  admitRequest,
  capabilityRegistration,
  CapabilityRequestSchema,
  createEmbeddedRunQueue,
  createLocalFolderArtifactStore,
  decodeGraph6,
  MAX_SHARD_CHILDREN,
  shardJobId,
  type AdmittedRun,
  type ArtifactStore,
  type Budget,
  type CapabilityContext,
  type CapabilityResult,
  type ProviderRuntime,
  type RunHandler,
  type RunQueue,
  type RunTarget,
  type ShardChild,
} from '@jacobian/shared';
import { createBullmqRunQueue } from '@jacobian/shared/redis';
import { startRedisServer, type RedisServer } from '@jacobian/shared/testing';
import { createRunner, type Runner } from '../runner.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import {
  ENUMERATE_ID,
  ENUMERATE_TS_PROVIDER,
  ENUMERATION_PAGE_SCHEMA_URI,
  EnumerateOutput,
  EnumerationPagePayloadSchema,
  enumerateNonisomorphic,
  filterViolation,
  mergeEnumerationShards,
  planEnumerationShards,
  EnumerateInput,
  type EnumerationBackend,
} from './enumerate.js';
import { probeGeng, type GengTool } from './enumerate-geng.js';

const GENG = '/usr/bin/nauty-geng';
const LABELG = '/usr/bin/nauty-labelg';
const HAVE_GENG = existsSync(GENG);
const HEAVY: RunTarget = { kind: 'pool', pool: 'heavy' };
const BIG: Budget = { wall_time_ms: 300_000 };
const TS_RUNTIME: ProviderRuntime = { ...FAKE_RUNTIME, provider: ENUMERATE_TS_PROVIDER };

/** A000088: graphs on n nodes. */
const A000088 = [1, 1, 2, 4, 11, 34, 156, 1044, 12346, 274668, 12005168];
/** A001349: connected graphs on n nodes (the null graph counted as connected). */
const A001349 = [1, 1, 1, 2, 6, 21, 112, 853, 11117, 261080, 11716571];

type Backend = 'geng' | 'typescript';
const BACKENDS: Backend[] = HAVE_GENG ? ['geng', 'typescript'] : ['typescript'];

function request(payload: Record<string, unknown>, budget: Budget = BIG): AdmittedRun {
  return admitRequest(CapabilityRequestSchema.parse({ capability_id: ENUMERATE_ID, payload, budget }));
}

function output(result: CapabilityResult): EnumerateOutput {
  expect(result.execution.status, JSON.stringify(result.diagnostics).slice(0, 2000)).toBe('COMPLETED');
  expect(result.completeness.status).toBe('COMPLETE');
  return EnumerateOutput.parse(result.output);
}

/** nauty's canonical forms of graph6 graphs (order ≥ 1), sorted: equal lists mean equal sets of isomorphism classes. */
function canonicalForms(graphs: readonly string[]): string[] {
  if (graphs.length === 0) return [];
  const out = execFileSync(LABELG, ['-q'], { input: `${graphs.join('\n')}\n`, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.trimEnd().split('\n').sort();
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

let harness: CapabilityHarness;
let tool: GengTool | undefined;
let gengRuntime: ProviderRuntime | undefined;
const runners = {} as Record<Backend, Runner>;

function backendOf(which: Backend): { backend: EnumerationBackend; runtime: ProviderRuntime } {
  if (which === 'typescript') return { backend: { kind: 'typescript' }, runtime: TS_RUNTIME };
  if (tool === undefined || gengRuntime === undefined) throw new Error('geng is not installed');
  return { backend: { kind: 'geng', tool }, runtime: gengRuntime };
}

/** A runner serving only the enumeration, with `backend`, on the harness's store and pool. */
function runnerWith(backend: EnumerationBackend, runtime: ProviderRuntime): Promise<Runner> {
  return createRunner({
    artifacts: harness.artifacts,
    executor: harness.executor,
    registrations: [capabilityRegistration({ name: runtime.provider, probe: () => Promise.resolve(runtime) }, () => enumerateNonisomorphic(backend))],
  });
}

interface EmbeddedHarness {
  queue: RunQueue;
  /** Job IDs the pool handler ran, in order (a split parent never reaches it). */
  ran: string[];
  submit(payload: Record<string, unknown>, budget?: Budget): Promise<CapabilityResult>;
}

/**
 * An embedded queue wired as src/embedded.ts wires it: the runner's pools, and its shard
 * handler. `route` may send a run to another runner's handler; `wrap` may stand in between.
 */
function embedded(runner: Runner, options: { concurrency?: number; route?: (run: AdmittedRun) => Runner; wrap?: (handler: RunHandler) => RunHandler } = {}): EmbeddedHarness {
  const ran: string[] = [];
  const handler: RunHandler = (run, signal, onProgress) => {
    ran.push(run.job_id);
    return (options.route?.(run) ?? runner).handle(run, signal, onProgress);
  };
  const queue = createEmbeddedRunQueue({ pools: new Map([['heavy', options.wrap?.(handler) ?? handler]]), concurrency: options.concurrency ?? 2, shards: runner.shards });
  cleanups.push(() => queue.close());
  return { queue, ran, submit: (payload, budget) => queue.submit(request(payload, budget), HEAVY) };
}

/** Every graph of a paged or inline listing, reading the pages (and checking their contract and numbering). */
async function listed(found: EnumerateOutput, artifacts: ArtifactStore = harness.artifacts): Promise<string[]> {
  if (found.listing === 'INLINE') return found.graphs ?? [];
  expect(found.listing).toBe('PAGED');
  const graphs: string[] = [];
  for (const [i, ref] of found.pages.entries()) {
    expect(ref).toMatchObject({ page: i, first_index: graphs.length });
    const stored = await artifacts.get(ref.uri);
    expect(stored.manifest.schema_uri).toBe(ENUMERATION_PAGE_SCHEMA_URI);
    const page = EnumerationPagePayloadSchema.parse(stored.payload);
    expect(page).toMatchObject({ order: found.order, filters: found.filters, method: found.method, count: ref.count });
    // A merged listing's pages belong to shards; the page's own numbering is its shard's.
    expect(page.shard).toEqual(ref.shard ?? found.shard);
    for (const line of page.graph6.slice(0, -1).split('\n')) graphs.push(line);
  }
  expect(graphs).toHaveLength(found.count);
  return graphs;
}

beforeAll(async () => {
  harness = await createCapabilityHarness();
  if (HAVE_GENG) ({ tool, runtime: gengRuntime } = await probeGeng());
  for (const which of BACKENDS) {
    const { backend, runtime } = backendOf(which);
    runners[which] = await runnerWith(backend, runtime);
  }
});
afterAll(async () => {
  await harness[Symbol.asyncDispose]();
});

describe('graph.enumerate.nonisomorphic split into shard jobs: the plan', () => {
  it('splits only a request that asks for it, into k requests of one shard each', () => {
    const input = EnumerateInput.parse({ order: 7, connected: true, count_only: true, split: { shards: 3 } });
    expect(planEnumerationShards(input)?.children).toEqual(
      [0, 1, 2].map((index) => ({ capability_id: ENUMERATE_ID, payload: { order: 7, connected: true, count_only: true, shard: { index, count: 3 } } })),
    );
    expect(planEnumerationShards(EnumerateInput.parse({ order: 7 }))).toBeNull();
    expect(planEnumerationShards(EnumerateInput.parse({ order: 7, shard: { index: 1, count: 3 } }))).toBeNull();
    // Every child is a valid request of the capability.
    for (const child of planEnumerationShards(input)?.children ?? []) expect(EnumerateInput.safeParse(child.payload).success).toBe(true);
  });

  it('runs a split request whole, with the same answer, where nothing splits it (executeCapability alone)', async () => {
    const installed = harness.install(enumerateNonisomorphic({ kind: 'typescript' }), TS_RUNTIME);
    const whole = output(await harness.run(installed, { capability_id: ENUMERATE_ID, payload: { order: 6, connected: true, split: { shards: 4 } } }));
    expect(whole).toMatchObject({ count: A001349[6], shard: null, listing: 'INLINE' });
    expect(whole.graphs).toEqual(output(await harness.run(installed, { capability_id: ENUMERATE_ID, payload: { order: 6, connected: true } })).graphs);
  });

  it('refuses a split with a shard, and a shard count outside 2..MAX_SHARD_CHILDREN, naming the field', async () => {
    const h = embedded(runners.typescript);
    for (const [payload, path] of [
      [{ order: 5, split: { shards: 2 }, shard: { index: 0, count: 2 } }, ['payload', 'split']],
      [{ order: 5, split: { shards: 1 } }, ['payload', 'split', 'shards']],
      [{ order: 5, split: { shards: MAX_SHARD_CHILDREN + 1 } }, ['payload', 'split', 'shards']],
      [{ order: 5, split: { shards: 2, extra: 1 } }, ['payload', 'split', 'extra']],
    ] as const) {
      const result = await h.submit(payload);
      expect(result.execution.status, JSON.stringify(payload)).toBe('ERROR');
      const error = result.diagnostics.find((d) => d.severity === 'ERROR');
      expect(error?.code).toBe('INVALID_REQUEST');
      expect(error?.path).toEqual(path);
    }
    expect(h.ran).toHaveLength(4);
  });
});

describe.each(BACKENDS)('graph.enumerate.nonisomorphic split into shard jobs, served by %s, through the embedded queue', (which) => {
  const top = which === 'geng' ? 10 : 9;

  it(`counts as the whole request does and as OEIS A000088 and A001349 (n = 0..${top}, 2 to 7 shards)`, async () => {
    const h = embedded(runners[which]);
    for (let n = 0; n <= top; n++) {
      const k = 2 + (n % 6);
      const all = output(await h.submit({ order: n, count_only: true, split: { shards: k } }));
      expect(all, `n = ${n}`).toMatchObject({ count: A000088[n], shard: null, listing: 'NONE', graphs: null, pages: [] });
      const connected = output(await h.submit({ order: n, connected: true, count_only: true, split: { shards: k } }));
      expect(connected.count, `connected, n = ${n}`).toBe(A001349[n]);
    }
  });

  it('counts as the whole request does under filter combinations (n = 6..8)', async () => {
    const h = embedded(runners[which]);
    const filters: Record<string, unknown>[] = [
      { triangle_free: true },
      { bipartite: true, connected: true },
      { biconnected: true },
      { c4_free: true, max_degree: 3 },
      { connected: true, min_degree: 2, max_edges: 12 },
      { min_degree: 3, max_degree: 3 },
    ];
    let nonZero = 0;
    for (const n of [6, 7, 8]) {
      for (const [i, filter] of filters.entries()) {
        const whole = output(await h.submit({ order: n, ...filter, count_only: true }));
        const split = output(await h.submit({ order: n, ...filter, count_only: true, split: { shards: 2 + i } }));
        expect(split.count, `n = ${n}, ${JSON.stringify(filter)}`).toBe(whole.count);
        expect(split.filters).toEqual(whole.filters);
        if (whole.count > 0) nonZero++;
      }
    }
    expect(nonZero).toBeGreaterThan(12);
  });

  it('lists the whole class: pages in shard order, each naming its shard, the union the isomorphism classes of the whole listing', async () => {
    const h = embedded(runners[which]);
    const parent = request({ order: 7, split: { shards: 3 } });
    const result = await h.queue.submit(parent, HEAVY);
    const found = output(result);
    expect(found).toMatchObject({ order: 7, count: 1044, shard: null, listing: 'PAGED', graphs: null });
    expect(found.pages.map((page) => page.shard?.index)).toEqual([...found.pages.map((page) => page.shard?.index)].sort());
    const graphs = await listed(found);
    const whole = await listed(output(await h.submit({ order: 7 })));
    expect(new Set(canonicalForms(graphs)).size).toBe(1044);
    expect(canonicalForms(graphs)).toEqual(canonicalForms(whole));
    expect(result.scope?.statement).toContain('enumerated as 3 shard jobs');
    // The parent names its shard jobs and lists their pages; each shard job's own answer is its part.
    const children = [0, 1, 2].map((index) => shardJobId(parent.job_id, index));
    const notes = result.diagnostics.filter((d) => d.code === 'SHARD_CHILD');
    expect(notes.map((d) => d.path)).toEqual([0, 1, 2].map((index) => ['shards', index]));
    for (const [index, note] of notes.entries()) expect(note.message).toContain(children[index]);
    expect(result.completeness.basis).toContain(children.join(', '));
    const parts: string[] = [];
    for (const index of [0, 1, 2]) {
      const child = await h.submit({ order: 7, shard: { index, count: 3 } });
      for (const uri of child.artifact_uris) expect(result.artifact_uris).toContain(uri);
      parts.push(...(await listed(output(child))));
    }
    expect(graphs).toEqual(parts);
    expect(result.artifact_uris).toEqual(found.pages.map((page) => page.uri));
  });

  it('lists a small class inline, in shard order; pages the inline listings of shards when the whole is too long to be inline', async () => {
    const h = embedded(runners[which]);
    const small = output(await h.submit({ order: 6, connected: true, split: { shards: 3 } }));
    expect(small).toMatchObject({ count: 112, listing: 'INLINE', pages: [] });
    const shards: string[] = [];
    for (const index of [0, 1, 2]) shards.push(...(output(await h.submit({ order: 6, connected: true, shard: { index, count: 3 } })).graphs ?? []));
    expect(small.graphs).toEqual(shards);
    // 396 graphs in all, about 100 in each of 4 shards.
    const payload = { order: 7, connected: true, min_edges: 10, max_edges: 12 };
    const wide = output(await h.submit({ ...payload, split: { shards: 4 } }));
    expect(wide.count).toBeGreaterThan(200);
    expect(wide.listing).toBe('PAGED');
    const children = await Promise.all([0, 1, 2, 3].map(async (index) => output(await h.submit({ ...payload, shard: { index, count: 4 } }))));
    // A shard listed inline gets one page of its own in the merge; a paged shard keeps its pages.
    expect(children.some((child) => child.listing === 'INLINE' && child.count > 0)).toBe(true);
    const expected = children.flatMap((child, index) =>
      child.listing === 'PAGED' ? child.pages.map((page) => [index, page.count, page.uri]) : child.count === 0 ? [] : [[index, child.count, expect.any(String)]],
    );
    expect(wide.pages.map((page) => [page.shard?.index, page.count, page.uri])).toEqual(expected);
    const graphs = await listed(wide);
    const parts: string[] = [];
    for (const child of children) parts.push(...(await listed(child)));
    expect(graphs).toEqual(parts);
    for (const g of graphs) expect(filterViolation(decodeGraph6(g), wide.filters)).toBeNull();
    // An inline listing stays within budget.max_output_bytes: the 180 connected graphs on 10
    // vertices with 10 edges and maximum degree 3 are inline when the budget holds the inline
    // answer (about 2.5 kB), paged when it is one byte short.
    const cubicish = { order: 10, connected: true, max_degree: 3, min_edges: 10, max_edges: 10, split: { shards: 3 } };
    const roomy = output(await h.submit(cubicish));
    expect(roomy).toMatchObject({ count: 180, listing: 'INLINE' });
    const size = Buffer.byteLength(JSON.stringify(roomy));
    expect(output(await h.submit(cubicish, { ...BIG, max_output_bytes: size }))).toMatchObject({ listing: 'INLINE', graphs: roomy.graphs });
    const tight = output(await h.submit(cubicish, { ...BIG, max_output_bytes: size - 1 }));
    expect(tight).toMatchObject({ count: 180, listing: 'PAGED', graphs: null });
    expect(await listed(tight)).toEqual(roomy.graphs);
  });

  it('concludes nothing when a shard job does not complete, naming the shard', async () => {
    // Shard 1 gets 1 ms of wall time: it ends TIMEOUT, whatever the machine.
    const h = embedded(runners[which], {
      wrap: (handler) => (run, signal, onProgress) => (run.job_id.endsWith('.s1') ? handler({ ...run, budget: { ...run.budget, wall_time_ms: 1 } }, signal, onProgress) : handler(run, signal, onProgress)),
    });
    const parent = request({ order: 9, connected: true, count_only: true, split: { shards: 3 } });
    const result = await h.queue.submit(parent, HEAVY);
    expect(result.execution.status).toBe('TIMEOUT');
    expect(result.output).toBeNull();
    expect(result.completeness.status).not.toBe('COMPLETE');
    const errors = result.diagnostics.filter((d) => d.severity === 'ERROR');
    expect(errors.map((d) => [d.code, d.path])).toEqual([['EXECUTION_TIMEOUT', ['shards', 1]]]);
    expect(errors[0]?.message).toContain(shardJobId(parent.job_id, 1));
  });

  it('computes the same request twice once: each shard job runs once', async () => {
    const h = embedded(runners[which]);
    const parent = request({ order: 8, count_only: true, split: { shards: 4 } });
    const [a, b] = await Promise.all([h.queue.submit(parent, HEAVY), h.queue.submit({ ...parent }, HEAVY)]);
    expect(output(a).count).toBe(A000088[8]);
    expect(b).toBe(a);
    expect(await h.queue.submit(parent, HEAVY)).toBe(a);
    expect([...h.ran].sort()).toEqual([0, 1, 2, 3].map((index) => shardJobId(parent.job_id, index)).sort());
  });
});

describe.runIf(HAVE_GENG)('graph.enumerate.nonisomorphic split into shard jobs: what is refused', () => {
  it('refuses to merge shards enumerated by different methods (runners with different providers)', async () => {
    // Odd shards go to a runner with geng, even ones to a runner with the TypeScript enumeration.
    const h = embedded(runners.typescript, { route: (run) => (/\.s\d*[13579]$/.test(run.job_id) ? runners.geng : runners.typescript) });
    const parent = request({ order: 7, count_only: true, split: { shards: 3 } });
    const result = await h.queue.submit(parent, HEAVY);
    expect(result.execution.status).toBe('ERROR');
    expect(result.output).toBeNull();
    expect(result.completeness.status).not.toBe('COMPLETE');
    const error = result.diagnostics.find((d) => d.severity === 'ERROR');
    expect(error).toMatchObject({ code: 'PROVIDER_FAILED', path: ['shards', 1] });
    expect(error?.message).toContain(shardJobId(parent.job_id, 1));
    expect(error?.message).toContain('do not combine');
  });

  it('refuses a shard that answered for another shard, order or filters, and a shard whose geng failed', async () => {
    const input = EnumerateInput.parse({ order: 6, count_only: true, split: { shards: 2 } });
    const parent = request({ order: 6, count_only: true, split: { shards: 2 } });
    const children: ShardChild[] = [];
    for (const index of [0, 1]) {
      const run = request({ order: 6, count_only: true, shard: { index, count: 2 } });
      children.push({ index, job_id: shardJobId(parent.job_id, index), result: await runners.geng.handle(run, new AbortController().signal) });
    }
    const context = { budget: parent.budget, artifacts: harness.artifacts, signal: new AbortController().signal } as unknown as CapabilityContext;
    expect((await mergeEnumerationShards(input, children, context)).output?.count).toBe(156);
    const swapped = [{ ...children[1]!, index: 0 }, { ...children[0]!, index: 1 }];
    await expect(mergeEnumerationShards(input, swapped, context)).rejects.toThrow(/shard 0 of 2 .* answered for shard 1 of 2/);
    const other = { ...children[1]!, result: { ...children[1]!.result, output: { ...(children[1]!.result.output as EnumerateOutput), filters: { ...(children[1]!.result.output as EnumerateOutput).filters, connected: true } } } };
    await expect(mergeEnumerationShards(input, [children[0]!, other], context)).rejects.toThrow(/shard 1 of 2 .* answered for other filters/);
    await expect(mergeEnumerationShards({ ...input, order: 7 }, children, context)).rejects.toThrow(/answered for order 6, not 7/);
    const otherProvider = { ...children[1]!, result: { ...children[1]!.result, provider: { ...children[1]!.result.provider!, digest: 'c'.repeat(64) } } };
    await expect(mergeEnumerationShards(input, [children[0]!, otherProvider], context)).rejects.toThrow(/do not combine/);

    // A geng that fails on shard 1 of 3 only: the parent ERRORs, naming that shard.
    const dir = mkdtempSync(join(tmpdir(), 'jacobian-shard-geng-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const fake = join(dir, 'nauty-geng');
    await writeFile(fake, `#!/bin/sh\ncase " $* " in *" 1/3 "*) echo "geng: disk on fire" >&2; exit 3;; esac\nexec ${tool!.geng} "$@"\n`);
    await chmod(fake, 0o755);
    const broken = await runnerWith({ kind: 'geng', tool: { ...tool!, geng: fake } }, gengRuntime!);
    const failing = request({ order: 7, connected: true, count_only: true, split: { shards: 3 } });
    const result = await embedded(broken).queue.submit(failing, HEAVY);
    expect(result.execution.status).toBe('ERROR');
    expect(result.completeness.status).not.toBe('COMPLETE');
    const errors = result.diagnostics.filter((d) => d.severity === 'ERROR');
    expect(errors.map((d) => [d.code, d.path])).toEqual([['PROVIDER_FAILED', ['shards', 1]]]);
    expect(errors[0]?.message).toContain(shardJobId(failing.job_id, 1));
    expect(errors[0]?.message).toContain('disk on fire');
  });
});

describe('graph.enumerate.nonisomorphic split into shard jobs, through BullMQ with two runner processes', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis.stop();
  });

  const tsxImport = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const workerScript = fileURLToPath(new URL('./enumerate-shards-worker.ts', import.meta.url));

  async function spawnRunner(env: Record<string, string>): Promise<number> {
    // The worker runs from the sources, as this test does: the workspaces resolve to their src/
    // (the jacobian-source condition), and its pool's children load TypeScript through tsx too.
    const child: ChildProcess = spawn(process.execPath, ['--conditions=jacobian-source', '--import', tsxImport, workerScript], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const pid = child.pid;
    if (pid === undefined) throw new Error('the runner process did not start');
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(pid, 'SIGKILL');
        await exited;
      }
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('ready\n')) resolve();
      });
      void exited.then(() => reject(new Error(`the runner process exited before it was ready: ${stderr}`)));
    });
    return pid;
  }

  it('spreads the shard jobs over both runners and merges them into the whole class', async () => {
    const which: Backend = HAVE_GENG ? 'geng' : 'typescript';
    const dir = mkdtempSync(join(tmpdir(), 'jacobian-shard-runners-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const markers = join(dir, 'markers');
    const root = join(dir, 'artifacts');
    execFileSync('mkdir', ['-p', markers, root]);
    const prefix = `t-${randomBytes(6).toString('hex')}`;
    const env = { JACOBIAN_TEST_REDIS_URL: redis.url, JACOBIAN_TEST_PREFIX: prefix, JACOBIAN_TEST_BACKEND: which, JACOBIAN_TEST_MARKER_DIR: markers, JACOBIAN_TEST_ARTIFACT_ROOT: root };
    const pids = [await spawnRunner(env), await spawnRunner(env)];
    const queue = createBullmqRunQueue({ connection: { url: redis.url }, prefix });
    cleanups.push(() => queue.close());

    // Enough work per shard (geng: n = 10, TypeScript: n = 9) that an idle runner takes the next one.
    const n = which === 'geng' ? 10 : 9;
    const parent = request({ order: n, count_only: true, split: { shards: 6 } });
    const result = await queue.submit(parent, HEAVY);
    expect(output(result)).toMatchObject({ order: n, count: A000088[n], shard: null, listing: 'NONE' });
    const children = [0, 1, 2, 3, 4, 5].map((index) => shardJobId(parent.job_id, index));
    const done = readdirSync(markers).map((name) => ({ pid: Number(name.slice(0, name.indexOf('.'))), job: name.slice(name.indexOf('.') + 1) }));
    expect(done.map((d) => d.job).sort()).toEqual([...children].sort());
    expect(new Set(done.map((d) => d.pid))).toEqual(new Set(pids));
    expect(result.diagnostics.filter((d) => d.code === 'SHARD_CHILD').map((d) => d.path)).toEqual(children.map((_, index) => ['shards', index]));

    // A listing: every shard's pages, written by either runner, read back as the whole class.
    const listing = output(await queue.submit(request({ order: 7, split: { shards: 3 } }), HEAVY));
    const store = createLocalFolderArtifactStore({ root });
    cleanups.push(() => store.close());
    const graphs = await listed(listing, store);
    expect(new Set(canonicalForms(graphs)).size).toBe(A000088[7]);
  });
});
