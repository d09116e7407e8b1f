/**
 * The roles against a Redis whose eviction policy is wrong: real `jacobian api`, `runner` and
 * `checker` processes, a real redis-server started with `--maxmemory-policy volatile-lru` (the
 * policy of ElastiCache's default parameter group) and s3rver as the artifact store.
 *
 * A wrong policy is flagged, not refused (see src/redis-policy.ts): each role logs one JSON
 * error line naming the policy and the fix, starts, and fails /readyz with the reason until the
 * policy is fixed on the running Redis, after which it becomes ready by itself. A second Redis
 * without CONFIG (as managed Redis) is read through INFO memory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer, startS3rver, type RedisServer, type S3rverInstance } from '@jacobian/shared/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foreignStderrLines, killLeftovers, pollUntil, runCommand, startRole, waitForLog, type LogEntry, type RoleProcess } from '../support/cluster.js';
import { commandEnvironment } from '../support/jacobian.js';

const HOOK_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 120_000;
const WRONG_POLICY_LINE = 'redis eviction policy is not noeviction';
const CHECK = 'redis-eviction-policy';
/** BullMQ's own warning, which it prints with console.warn; the roles log it as a JSON line. */
const BULLMQ_WARNING = /^IMPORTANT! Eviction policy is volatile-lru\. It should be "noeviction"$/;

interface ReadyzBody {
  status: string;
  checks: Record<string, string>;
  reasons?: Record<string, string>;
}

async function readyz(baseUrl: string): Promise<{ status: number; body: ReadyzBody }> {
  const response = await fetch(new URL('/readyz', baseUrl));
  return { status: response.status, body: (await response.json()) as ReadyzBody };
}

const opsUrlOf = (role: RoleProcess, readyMessage: string): string => {
  const url = role.logs().find((e) => e.msg === readyMessage)?.['ops_url'];
  if (typeof url !== 'string') throw new Error(`${role.name} logged no ops_url; stderr:\n${role.stderr()}`);
  return url;
};

describe('a role on a Redis whose maxmemory-policy is not noeviction', () => {
  let markerRoot: string;
  const markers = new Set<string>();
  let redis: RedisServer;
  let noConfigRedis: RedisServer;
  let s3: S3rverInstance;
  let admin: Redis;
  const roles: RoleProcess[] = [];
  let env: (redisUrl: string) => Record<string, string>;

  const ROLES = [
    { name: 'api', args: ['api', '--host', '127.0.0.1', '--port', '0'], ready: 'serving MCP over Streamable HTTP' },
    { name: 'runner', args: ['runner', '--pools', 'light'], ready: 'runner taking jobs' },
    { name: 'checker', args: ['checker'], ready: 'checker taking jobs' },
  ] as const;

  const start = async (name: string, args: readonly string[], ready: string, redisUrl: string): Promise<RoleProcess> => {
    const role = await startRole(name, [...args], env(redisUrl), markerRoot, ready);
    markers.add(role.marker);
    roles.push(role);
    return role;
  };

  beforeAll(async () => {
    markerRoot = await mkdtemp(join(tmpdir(), 'jacobian-redis-policy-'));
    const bucket = `policy-${randomBytes(4).toString('hex')}`;
    [redis, noConfigRedis, s3] = await Promise.all([
      startRedisServer({ args: ['--maxmemory-policy', 'volatile-lru'] }),
      startRedisServer({ args: ['--maxmemory-policy', 'allkeys-lru', '--rename-command', 'CONFIG', '""'] }),
      startS3rver({ buckets: [bucket] }),
    ]);
    admin = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    const keygen = await runCommand(['keygen', '--out', join(markerRoot, 'keys')], commandEnvironment({}), markerRoot);
    markers.add(keygen.marker);
    if (keygen.code !== 0) throw new Error(`jacobian keygen exited with ${keygen.code}: ${keygen.stderr}`);
    const keys = JSON.parse(keygen.stdout) as { private_key: string; public_key: string };
    env = (redisUrl) =>
      commandEnvironment({
        REDIS_URL: redisUrl,
        JACOBIAN_PREFIX: `policy-${randomBytes(3).toString('hex')}`,
        S3_BUCKET: bucket,
        S3_REGION: s3.region,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        AWS_EC2_METADATA_DISABLED: 'true',
        JACOBIAN_CHECKER_KEY_FILE: keys.private_key,
        JACOBIAN_CHECKER_PUBLIC_KEYS: keys.public_key,
        JACOBIAN_CONCURRENCY: '1',
        JACOBIAN_OPS_PORT: '0',
      });
  }, HOOK_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.allSettled(roles.map((role) => role.stop()));
    killLeftovers(markers);
    admin?.disconnect();
    await Promise.allSettled([redis?.stop(), noConfigRedis?.stop(), s3?.stop()]);
    if (markerRoot) await rm(markerRoot, { recursive: true, force: true });
  }, HOOK_TIMEOUT_MS);

  it(
    'every role starts, logs the policy and the fix, and fails /readyz with the reason until the policy is noeviction',
    async () => {
      const started = await Promise.all(ROLES.map(async (r) => ({ ...r, role: await start(r.name, r.args, r.ready, redis.url) })));

      for (const { role, ready } of started) {
        const line: LogEntry = await waitForLog(role, WRONG_POLICY_LINE, (e) => e.msg === WRONG_POLICY_LINE, 5_000);
        expect(line, role.name).toMatchObject({
          level: 'error',
          maxmemory_policy: 'volatile-lru',
          required: 'noeviction',
          source: 'CONFIG GET maxmemory-policy',
          readiness_check: CHECK,
        });
        expect(line['fix'], role.name).toEqual(expect.stringContaining('Set maxmemory-policy noeviction'));
        expect(typeof line['time'], role.name).toBe('string');
        // The error line comes before the role says it is serving or taking jobs: it is checked at start.
        const logs = role.logs();
        expect(logs.findIndex((e) => e.msg === WRONG_POLICY_LINE), role.name).toBeLessThan(logs.findIndex((e) => e.msg === ready));

        const { status, body } = await readyz(opsUrlOf(role, ready));
        expect(status, role.name).toBe(503);
        expect(body.checks, role.name).toMatchObject({ redis: 'ok', [CHECK]: 'failed', artifacts: 'ok' });
        expect(body.reasons?.[CHECK], role.name).toMatch(/maxmemory-policy is volatile-lru, and Jacobian needs noeviction.*Set maxmemory-policy noeviction/);
      }

      // The api answers /readyz on its MCP port too, with the same reason.
      const api = started.find((s) => s.name === 'api')!.role;
      const mcpUrl = api.logs().find((e) => e.msg === 'serving MCP over Streamable HTTP')?.['url'] as string;
      const onMcpPort = await readyz(mcpUrl);
      expect(onMcpPort.status).toBe(503);
      expect(onMcpPort.body.reasons?.[CHECK]).toContain('volatile-lru');

      // Fixed on the running Redis, as a parameter group change would: every role becomes ready, without a restart.
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      for (const { role, ready } of started) {
        const url = opsUrlOf(role, ready);
        const ready200 = await pollUntil(`${role.name} /readyz to answer 200`, async () => {
          const answer = await readyz(url);
          return answer.status === 200 ? answer : undefined;
        }, { timeoutMs: 30_000, intervalMs: 200 });
        expect(ready200.body.checks[CHECK], role.name).toBe('ok');
        expect(ready200.body.reasons, role.name).toBeUndefined();
        await waitForLog(role, 'the policy fixed', (e) => e.msg === 'redis eviction policy is noeviction now' && e['maxmemory_policy'] === 'noeviction', 5_000);
        expect(role.exit(), role.name).toBeUndefined();
        // stderr holds JSON lines only; BullMQ's own warning (from the workers; the api's queue
        // connects on its first run) is one of them.
        expect(foreignStderrLines(role.stderr()), role.name).toEqual([]);
        if (role.name !== 'api') {
          expect(
            role.logs().some((e) => e.msg === 'library warning' && e.level === 'warn' && BULLMQ_WARNING.test(String(e['message']))),
            role.name,
          ).toBe(true);
        }
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'reads the policy through INFO memory where CONFIG is disabled, as on managed Redis',
    async () => {
      const api = await start('api-no-config', ROLES[0].args, ROLES[0].ready, noConfigRedis.url);
      const line = await waitForLog(api, WRONG_POLICY_LINE, (e) => e.msg === WRONG_POLICY_LINE, 5_000);
      expect(line).toMatchObject({ level: 'error', maxmemory_policy: 'allkeys-lru', source: 'INFO memory' });
      const { status, body } = await readyz(opsUrlOf(api, ROLES[0].ready));
      expect(status).toBe(503);
      expect(body.reasons?.[CHECK]).toContain('maxmemory-policy is allkeys-lru');
    },
    TEST_TIMEOUT_MS,
  );
});
