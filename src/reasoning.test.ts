import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReasoningLogStore } from '@jacobian/shared';
import { clusterReasoningLog, embeddedReasoningLog } from './reasoning.js';

/** A store factory that records its options and the store's close. */
function fakeFactory<O>(): { create: (options: O) => ReasoningLogStore; calls: O[]; closed: () => number } {
  const calls: O[] = [];
  let closed = 0;
  return {
    calls,
    closed: () => closed,
    create: (options) => {
      calls.push(options);
      return {
        read: () => Promise.resolve([]),
        append: () => Promise.resolve({ appended: true }),
        close: () => {
          closed++;
          return Promise.resolve();
        },
      };
    },
  };
}

const ENV = { REDIS_URL: 'redis://cache.internal:6390', JACOBIAN_PREFIX: 'tenant-a' };

describe('cluster API role: the reasoning log', () => {
  it('creates nothing in OFF', async () => {
    const factory = fakeFactory();
    const wiring = clusterReasoningLog('OFF', ENV, factory.create);
    expect(wiring.log).toBeUndefined();
    expect(factory.calls).toEqual([]);
    await wiring.close();
  });

  it.each(['AUDIT', 'REQUIRED'] as const)('creates the Redis store with the deployment Redis and prefix in %s, and closes it', async (mode) => {
    const factory = fakeFactory();
    const wiring = clusterReasoningLog(mode, ENV, factory.create);
    expect(factory.calls).toEqual([{ connection: { url: 'redis://cache.internal:6390' }, prefix: 'tenant-a' }]);
    expect(wiring.log?.mode).toBe(mode);
    await wiring.close();
    expect(factory.closed()).toBe(1);
  });
});

describe('embedded: the reasoning log', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'jacobian-reasoning-wiring-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates nothing in OFF', () => {
    const factory = fakeFactory();
    expect(embeddedReasoningLog('OFF', dir, factory.create).log).toBeUndefined();
    expect(factory.calls).toEqual([]);
  });

  it('keeps one file per run in <data dir>/reasoning, readable after a restart', async () => {
    const first = embeddedReasoningLog('REQUIRED', dir);
    const plan = await first.log?.write({ phase: 'PLAN', summary: 'durable' });
    await first.close();
    expect(await readdir(join(dir, 'reasoning'))).toEqual([`${plan?.reasoning_run_id}.jsonl`]);
    const second = embeddedReasoningLog('AUDIT', dir);
    const run = await second.log?.read(plan?.reasoning_run_id ?? '');
    expect(run?.events.map((e) => e.type)).toEqual(['PLAN']);
    await second.close();
  });
});
