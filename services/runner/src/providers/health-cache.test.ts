import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHealthCache, ensureHealthy, type HealthIdentity } from './health-cache.js';

let dir: string;
let checkModule: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'jacobian-health-cache-'));
  checkModule = join(dir, 'check.js');
  await writeFile(checkModule, 'export const check = 1;\n');
  file = join(dir, 'data', 'provider-health.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function identity(overrides: Partial<HealthIdentity> = {}): HealthIdentity {
  return { provider: 'tool', version: '1.0', digest_kind: 'EXECUTABLE', digest: 'a'.repeat(64), platform: 'linux-x64-node20', paths: ['/usr/bin/tool'], check_module: checkModule, ...overrides };
}

/** A check that counts its runs, and fails while `failing` is set. */
function countingCheck(): { check: () => Promise<void>; runs: () => number; fail: (value: boolean) => void } {
  let runs = 0;
  let failing = false;
  return {
    check: () => {
      runs += 1;
      return failing ? Promise.reject(new Error('wrong answer on the tiny problem')) : Promise.resolve();
    },
    runs: () => runs,
    fail: (value) => (failing = value),
  };
}

describe('provider health cache', () => {
  it('runs a check once, and a later start with the same identity remembers the pass', async () => {
    const counter = countingCheck();
    expect(await createHealthCache(file).ensureHealthy(identity(), counter.check)).toBe('checked');
    const next = createHealthCache(file);
    expect(await next.ensureHealthy(identity(), counter.check)).toBe('remembered');
    expect(counter.runs()).toBe(1);
    expect(next.outcomes.get('tool')).toBe('remembered');
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ format: 1 });
  });

  it.each([
    ['the digest of the bytes (a rebuilt or upgraded binary at the same path)', { digest: 'b'.repeat(64) }],
    ['the version', { version: '1.1' }],
    ['the paths it runs from', { paths: ['/opt/tool/bin/tool'] }],
    ['the platform (another Node)', { platform: 'linux-x64-node22' }],
  ])('checks again when %s changed', async (_what, changed) => {
    const counter = countingCheck();
    await createHealthCache(file).ensureHealthy(identity(), counter.check);
    expect(await createHealthCache(file).ensureHealthy(identity(changed), counter.check)).toBe('checked');
    expect(counter.runs()).toBe(2);
  });

  it('checks again when the check itself changed', async () => {
    const counter = countingCheck();
    await createHealthCache(file).ensureHealthy(identity(), counter.check);
    await writeFile(checkModule, 'export const check = 2;\n');
    expect(await createHealthCache(file).ensureHealthy(identity(), counter.check)).toBe('checked');
    expect(counter.runs()).toBe(2);
  });

  it('never remembers a failure: the next probe checks again, and a fixed provider passes', async () => {
    const counter = countingCheck();
    counter.fail(true);
    const cache = createHealthCache(file);
    await expect(cache.ensureHealthy(identity(), counter.check)).rejects.toThrow('wrong answer');
    await expect(createHealthCache(file).ensureHealthy(identity(), counter.check)).rejects.toThrow('wrong answer');
    counter.fail(false);
    expect(await cache.ensureHealthy(identity(), counter.check)).toBe('checked');
    expect(counter.runs()).toBe(3);
  });

  it('runs concurrent checks of one identity once (a provider probed for several capabilities)', async () => {
    const counter = countingCheck();
    const cache = createHealthCache(undefined);
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => cache.ensureHealthy(identity(), counter.check)));
    expect(counter.runs()).toBe(1);
    // The first caller ran it; the others waited on it, or found its pass remembered.
    expect(outcomes[0]).toBe('checked');
    for (const outcome of outcomes) expect(['checked', 'remembered']).toContain(outcome);
  });

  it('ignores a malformed file and rewrites it', async () => {
    await rm(join(dir, 'data'), { recursive: true, force: true });
    await writeFile(join(dir, 'bad.json'), '{"format": 1, "passes": ');
    const bad = join(dir, 'bad.json');
    const counter = countingCheck();
    expect(await createHealthCache(bad).ensureHealthy(identity(), counter.check)).toBe('checked');
    expect(await createHealthCache(bad).ensureHealthy(identity(), counter.check)).toBe('remembered');
  });

  it('without a cache, always checks', async () => {
    const counter = countingCheck();
    expect(await ensureHealthy(undefined, () => identity(), counter.check)).toBe('checked');
    expect(await ensureHealthy(undefined, () => identity(), counter.check)).toBe('checked');
    expect(counter.runs()).toBe(2);
  });
});

describe('remembered digests', () => {
  it('computes a digest once per stamp, across starts, and again for another stamp; a pass and a digest share the file', async () => {
    let computed = 0;
    const compute = (digest: string) => (): Promise<string> => {
      computed += 1;
      return Promise.resolve(digest);
    };
    expect(await createHealthCache(file).digestOf('stamp-1', compute('1'.repeat(64)))).toBe('1'.repeat(64));
    await createHealthCache(file).ensureHealthy(identity(), countingCheck().check);
    expect(await createHealthCache(file).digestOf('stamp-1', compute('9'.repeat(64)))).toBe('1'.repeat(64));
    expect(computed).toBe(1);
    expect(await createHealthCache(file).digestOf('stamp-2', compute('2'.repeat(64)))).toBe('2'.repeat(64));
    expect(computed).toBe(2);
    const counter = countingCheck();
    expect(await createHealthCache(file).ensureHealthy(identity(), counter.check)).toBe('remembered');
  });

  it('computes again over a stored value that is not a digest', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ format: 1, passes: {}, digests: { s: { digest: 'not a digest', computed_at: '2026-01-01T00:00:00.000Z' } } }));
    expect(await createHealthCache(file).digestOf('s', () => Promise.resolve('3'.repeat(64)))).toBe('3'.repeat(64));
  });
});
