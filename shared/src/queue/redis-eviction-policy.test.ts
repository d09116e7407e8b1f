import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../testing/redis-server.js';
import { evictionPolicyFix, readEvictionPolicy } from './redis-eviction-policy.js';

/** Real Redis servers: one as installed, one with the policy ElastiCache's default parameter group has, one without CONFIG (as managed Redis). */
describe('readEvictionPolicy', () => {
  let plain: RedisServer;
  let volatileLru: RedisServer;
  let noConfig: RedisServer;
  const clients: Redis[] = [];
  const client = (url: string, options: { username?: string; password?: string } = {}): Redis => {
    const redis = new Redis(url, { ...options, lazyConnect: true, maxRetriesPerRequest: 1 });
    clients.push(redis);
    return redis;
  };

  beforeAll(async () => {
    [plain, volatileLru, noConfig] = await Promise.all([
      startRedisServer(),
      startRedisServer({ args: ['--maxmemory-policy', 'volatile-lru'] }),
      startRedisServer({ args: ['--maxmemory-policy', 'allkeys-lru', '--rename-command', 'CONFIG', '""'] }),
    ]);
  });

  afterAll(async () => {
    for (const redis of clients) redis.disconnect();
    await Promise.all([plain?.stop(), volatileLru?.stop(), noConfig?.stop()]);
  });

  it('reads noeviction, the default of a Redis server, with CONFIG GET', async () => {
    expect(await readEvictionPolicy(client(plain.url))).toEqual({ status: 'ok', policy: 'noeviction', source: 'CONFIG GET maxmemory-policy' });
  });

  it('reads a wrong policy, and a policy changed on the running server', async () => {
    const redis = client(volatileLru.url);
    expect(await readEvictionPolicy(redis)).toEqual({ status: 'wrong', policy: 'volatile-lru', source: 'CONFIG GET maxmemory-policy' });
    await redis.config('SET', 'maxmemory-policy', 'noeviction');
    try {
      expect(await readEvictionPolicy(redis)).toMatchObject({ status: 'ok', policy: 'noeviction' });
    } finally {
      await redis.config('SET', 'maxmemory-policy', 'volatile-lru');
    }
  });

  it('falls back to INFO memory where CONFIG is disabled, and asks INFO first when told to', async () => {
    const redis = client(noConfig.url);
    await expect(redis.config('GET', 'maxmemory-policy')).rejects.toThrow(/unknown command/i);
    expect(await readEvictionPolicy(redis)).toEqual({ status: 'wrong', policy: 'allkeys-lru', source: 'INFO memory' });
    const sent: string[] = [];
    // Connected first: a new connection's ready check (INFO) would show in MONITOR too.
    const marker = client(noConfig.url);
    await marker.ping();
    const monitor = await client(noConfig.url).monitor();
    monitor.on('monitor', (_time: string, args: string[]) => sent.push(args.join(' ').toLowerCase()));
    expect(await readEvictionPolicy(redis, 'INFO memory')).toMatchObject({ status: 'wrong', source: 'INFO memory' });
    // MONITOR relays commands in the order they ran: once it relays this marker, the read's commands are in.
    await marker.echo('read-done');
    await expect.poll(() => sent.includes('echo read-done'), { timeout: 5000 }).toBe(true);
    monitor.disconnect();
    expect(sent.filter((c) => c.startsWith('info') || c.startsWith('config'))).toEqual(['info memory']);
  });

  it('is unknown, with both errors, when neither CONFIG nor INFO may be used', async () => {
    const admin = client(volatileLru.url);
    await admin.acl('SETUSER', 'limited', 'on', '>limited-password', '~*', '&*', '+@all', '-config', '-info');
    // ioredis's ready check runs INFO and accepts a NOPERM answer.
    const reading = await readEvictionPolicy(client(volatileLru.url, { username: 'limited', password: 'limited-password' }));
    expect(reading.status).toBe('unknown');
    expect(reading.status === 'unknown' ? reading.errors : []).toEqual([
      expect.stringMatching(/^CONFIG GET maxmemory-policy: NOPERM/),
      expect.stringMatching(/^INFO memory: NOPERM/),
    ]);
  });

  it('names the policy, the one needed and where to set it', () => {
    const fix = evictionPolicyFix('volatile-lru');
    expect(fix).toContain('maxmemory-policy is volatile-lru');
    expect(fix).toContain('Set maxmemory-policy noeviction');
    expect(fix).toContain('parameter group');
  });
});
