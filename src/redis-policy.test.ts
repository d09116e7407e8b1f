import { NotReadyReason } from '@jacobian/shared';
import { createRedisClient } from '@jacobian/shared/redis';
import { startRedisServer, type RedisServer } from '@jacobian/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from './log.js';
import { watchEvictionPolicy } from './redis-policy.js';

interface Line {
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

function recordingLogger(): { log: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: string) =>
    (msg: string, fields?: object): void => {
      lines.push({ level, msg, fields: { ...fields } });
    };
  return { log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

describe('watchEvictionPolicy', () => {
  let redis: RedisServer;
  const clients: ReturnType<typeof createRedisClient>[] = [];
  const client = (options: { username?: string; password?: string } = {}): ReturnType<typeof createRedisClient> => {
    const c = createRedisClient({ url: redis.url }, { ...options, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
    c.on('error', () => undefined);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    redis = await startRedisServer({ args: ['--maxmemory-policy', 'volatile-lru'] });
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await redis?.stop();
  });

  it('logs a wrong policy once, fails with the reason, and passes and logs once the policy is fixed', async () => {
    const { log, lines } = recordingLogger();
    const admin = client();
    const check = await watchEvictionPolicy(client(), log);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'error',
      msg: 'redis eviction policy is not noeviction',
      fields: { maxmemory_policy: 'volatile-lru', required: 'noeviction', source: 'CONFIG GET maxmemory-policy', readiness_check: 'redis-eviction-policy' },
    });
    const failure = await check().then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(NotReadyReason);
    expect((failure as Error).message).toContain('maxmemory-policy is volatile-lru');
    // Still wrong: no second line.
    await check().catch(() => undefined);
    expect(lines).toHaveLength(1);

    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    try {
      await expect(check()).resolves.toBeUndefined();
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatchObject({ level: 'info', msg: 'redis eviction policy is noeviction now', fields: { maxmemory_policy: 'noeviction' } });
      await admin.config('SET', 'maxmemory-policy', 'allkeys-lfu');
      await expect(check()).rejects.toThrow('maxmemory-policy is allkeys-lfu');
      expect(lines.at(-1)).toMatchObject({ level: 'error', fields: { maxmemory_policy: 'allkeys-lfu' } });
    } finally {
      await admin.config('SET', 'maxmemory-policy', 'volatile-lru');
    }
  });

  it('warns once and passes where neither CONFIG nor INFO may be read', async () => {
    await client().acl('SETUSER', 'no-config', 'on', '>no-config-password', '~*', '&*', '+@all', '-config', '-info');
    const { log, lines } = recordingLogger();
    const check = await watchEvictionPolicy(client({ username: 'no-config', password: 'no-config-password' }), log);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', msg: 'redis eviction policy could not be checked', fields: { required: 'noeviction' } });
    expect(lines[0]?.fields['errors']).toEqual([expect.stringMatching(/^CONFIG GET maxmemory-policy: NOPERM/), expect.stringMatching(/^INFO memory: NOPERM/)]);
    await expect(check()).resolves.toBeUndefined();
    expect(lines).toHaveLength(1);
  });

  it('fails without a reason once a policy it read cannot be read any more', async () => {
    const { log } = recordingLogger();
    const watched = client();
    await watched.config('SET', 'maxmemory-policy', 'noeviction');
    try {
      const check = await watchEvictionPolicy(watched, log);
      await expect(check()).resolves.toBeUndefined();
      watched.disconnect();
      const failure = await check().then(() => undefined, (error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(failure).not.toBeInstanceOf(NotReadyReason);
    } finally {
      await client().config('SET', 'maxmemory-policy', 'volatile-lru');
    }
  });
});
