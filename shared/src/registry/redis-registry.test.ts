import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installCapability } from '../capabilities/define.js';
import type { CapabilityDefinition } from '../capabilities/define.js';
import type { ProviderRuntime } from '../contracts/provider.js';
import { startRedisServer, type RedisServer } from '../testing/redis-server.js';
import { createLiveCatalogSource } from './live-catalog.js';
import { assertRedisReachable, readLiveCapabilities, startAdvertising, type Registration } from './redis-registry.js';

const RUNTIME: ProviderRuntime = {
  provider: 'test',
  availability: 'AVAILABLE',
  version: '1',
  digest_kind: 'SOURCE_TREE',
  digest: 'c'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

function descriptor(id: string, title = `Capability ${id}`) {
  const definition: CapabilityDefinition<{ n: number }, { m: number }> = {
    id,
    version: '1.0.0',
    title,
    description: 'a test capability',
    tags: ['test'],
    domain: 'test',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [],
    input: z.object({ n: z.number().int() }).strict(),
    output: z.object({ m: z.number().int() }).strict(),
    examples: [],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'exact input',
    limits: {},
    run: () => Promise.reject(new Error('not run in this test')),
  };
  return installCapability(definition, RUNTIME, null).descriptor;
}

function registration(processId: string, ids: string[]): Registration {
  return { process_id: processId, role: 'runner', pools: ['light'], descriptors: ids.map((id) => descriptor(id)), started_at: 1 };
}

describe('Redis registration by heartbeat', () => {
  let server: RedisServer;
  let redis: Redis;
  let prefix = 0;
  const nextPrefix = (): string => `reg-test-${++prefix}`;

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
  });

  it('unions what live processes offer, in ID order, with a digest of the offer', async () => {
    const p = nextPrefix();
    const a = await startAdvertising({ redis, prefix: p, registration: registration('runner-a', ['t.b', 't.a']), ttlMs: 5000 });
    const b = await startAdvertising({ redis, prefix: p, registration: registration('runner-b', ['t.a', 't.c']), ttlMs: 5000 });
    const live = await readLiveCapabilities(redis, p);
    expect(live.descriptors.map((d) => d.id)).toEqual(['t.a', 't.b', 't.c']);
    expect(live.registrations.map((r) => r.process_id).sort()).toEqual(['runner-a', 'runner-b']);
    expect(live.conflicts).toEqual([]);
    await b.close();
    const after = await readLiveCapabilities(redis, p);
    expect(after.descriptors.map((d) => d.id)).toEqual(['t.a', 't.b']);
    expect(after.digest).not.toBe(live.digest);
    await a.close();
    expect((await readLiveCapabilities(redis, p)).descriptors).toEqual([]);
  });

  it('a process that stops beating leaves within the TTL', async () => {
    const p = nextPrefix();
    // A dead process: one beat with a short TTL and no refresh (interval longer than the test).
    const dead = await startAdvertising({ redis, prefix: p, registration: registration('dead', ['t.z']), ttlMs: 1000, intervalMs: 60_000 });
    expect((await readLiveCapabilities(redis, p)).descriptors.map((d) => d.id)).toEqual(['t.z']);
    let gone = false;
    for (let i = 0; i < 40 && !gone; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      gone = (await readLiveCapabilities(redis, p)).descriptors.length === 0;
    }
    expect(gone).toBe(true);
    await dead.close();
  });

  it('a live process keeps its registration past the TTL by beating', async () => {
    const p = nextPrefix();
    const live = await startAdvertising({ redis, prefix: p, registration: registration('alive', ['t.y']), ttlMs: 1000, intervalMs: 200 });
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect((await readLiveCapabilities(redis, p)).descriptors.map((d) => d.id)).toEqual(['t.y']);
    await live.close();
  });

  it('reports one capability offered with different descriptors as a conflict, choosing deterministically', async () => {
    const p = nextPrefix();
    const one = registration('one', ['t.x']);
    const other: Registration = { ...registration('other', []), descriptors: [descriptor('t.x', 'A different title')] };
    const a = await startAdvertising({ redis, prefix: p, registration: one, ttlMs: 5000 });
    const b = await startAdvertising({ redis, prefix: p, registration: other, ttlMs: 5000 });
    const first = await readLiveCapabilities(redis, p);
    expect(first.conflicts).toEqual(['t.x']);
    expect(first.descriptors).toHaveLength(1);
    expect((await readLiveCapabilities(redis, p)).descriptors[0]).toEqual(first.descriptors[0]);
    await Promise.all([a.close(), b.close()]);
  });

  it('ignores malformed registrations rather than failing the catalog', async () => {
    const p = nextPrefix();
    await redis.set(`${p}:registration:bogus`, '{"not":"a registration"}', 'PX', 5000);
    await redis.set(`${p}:registration:garbage`, 'not json', 'PX', 5000);
    const ok = await startAdvertising({ redis, prefix: p, registration: registration('ok', ['t.ok']), ttlMs: 5000 });
    expect((await readLiveCapabilities(redis, p)).descriptors.map((d) => d.id)).toEqual(['t.ok']);
    await ok.close();
  });

  it('names the unreachable Redis URL without its password', async () => {
    const closed = new Redis('redis://user:secret@127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    closed.on('error', () => undefined);
    await expect(assertRedisReachable(closed, 'redis://user:secret@127.0.0.1:1')).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/^REDIS_URL: cannot reach Redis at redis:\/\/\*\*\*@127\.0\.0\.1:1/) as unknown,
    });
    closed.disconnect();
  });
});

describe('live catalog source', () => {
  let server: RedisServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
  });

  it('follows registrations, keeps the same array while the offer is unchanged, and validates payloads', async () => {
    const changes: string[][] = [];
    const source = await createLiveCatalogSource({ redis, prefix: 'live', refreshMs: 60_000, onChange: (_d, ids) => changes.push(ids) });
    expect(source.current()).toEqual([]);
    const runner = await startAdvertising({ redis, prefix: 'live', registration: registration('r1', ['t.live']), ttlMs: 5000 });
    await source.refresh();
    const first = source.current();
    expect(first.map((c) => c.descriptor.id)).toEqual(['t.live']);
    await source.refresh();
    expect(source.current()).toBe(first);
    expect(first[0]?.input.safeParse({ n: 2 }).success).toBe(true);
    expect(first[0]?.input.safeParse({ n: 'two' }).success).toBe(false);
    expect(first[0]?.input.safeParse({ n: 2, extra: true }).success).toBe(false);
    await runner.close();
    await source.refresh();
    expect(source.current()).toEqual([]);
    expect(changes).toEqual([[], ['t.live'], []]);
    source.close();
  });
});
