/**
 * The eviction policy Jacobian needs of its Redis: `noeviction`. Under memory pressure any other
 * policy deletes keys to make room, and the keys with a TTL go first under the `volatile-*`
 * policies: BullMQ's job locks, the runners' heartbeat registrations and the MCP tasks all have
 * one. A lost lock hands a running job to a second runner; a lost heartbeat takes capabilities
 * out of the catalog; a lost task answers "not found" to its client. With `noeviction` a full
 * Redis refuses writes instead, which fails runs visibly (QUEUE_UNAVAILABLE) and loses nothing.
 */
import type { Redis } from 'ioredis';

export const REQUIRED_EVICTION_POLICY = 'noeviction';

/** How the policy was read: CONFIG GET, or INFO's memory section where CONFIG is disabled (managed Redis). */
export type EvictionPolicySource = 'CONFIG GET maxmemory-policy' | 'INFO memory';

export type EvictionPolicyReading =
  | { status: 'ok' | 'wrong'; policy: string; source: EvictionPolicySource }
  /** Neither way answered; `errors` says why, one entry per way tried. */
  | { status: 'unknown'; errors: string[] };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

async function fromConfig(redis: Redis): Promise<string> {
  // ['maxmemory-policy', '<value>'], or [] where the parameter is hidden.
  const reply = (await redis.config('GET', 'maxmemory-policy')) as unknown;
  const value = Array.isArray(reply) && reply.length >= 2 ? (reply[1] as unknown) : undefined;
  if (typeof value !== 'string' || value === '') throw new Error('the reply names no maxmemory-policy');
  return value;
}

async function fromInfo(redis: Redis): Promise<string> {
  const info = await redis.info('memory');
  const line = info.split(/\r?\n/).find((l) => l.startsWith('maxmemory_policy:'));
  const value = line?.slice('maxmemory_policy:'.length).trim();
  if (value === undefined || value === '') throw new Error('the memory section has no maxmemory_policy');
  return value;
}

const READERS: Record<EvictionPolicySource, (redis: Redis) => Promise<string>> = {
  'CONFIG GET maxmemory-policy': fromConfig,
  'INFO memory': fromInfo,
};

/**
 * Read Redis's `maxmemory-policy`: with `CONFIG GET`, and where that is refused (ElastiCache and
 * other managed Redis disable CONFIG; an ACL may deny it) from `INFO memory`. `prefer` is tried
 * first (the way that answered last time), so a server without CONFIG costs one command per read.
 * Never throws: when neither answers, the reading is `unknown`, with the errors.
 */
export async function readEvictionPolicy(redis: Redis, prefer: EvictionPolicySource = 'CONFIG GET maxmemory-policy'): Promise<EvictionPolicyReading> {
  const order: EvictionPolicySource[] = prefer === 'INFO memory' ? ['INFO memory', 'CONFIG GET maxmemory-policy'] : ['CONFIG GET maxmemory-policy', 'INFO memory'];
  const errors: string[] = [];
  for (const source of order) {
    try {
      const policy = await READERS[source](redis);
      return { status: policy === REQUIRED_EVICTION_POLICY ? 'ok' : 'wrong', policy, source };
    } catch (error) {
      errors.push(`${source}: ${messageOf(error)}`);
    }
  }
  return { status: 'unknown', errors };
}

/** What to do about a wrong policy, in one sentence for logs and /readyz. */
export function evictionPolicyFix(policy: string): string {
  return (
    `Redis maxmemory-policy is ${policy}, and Jacobian needs ${REQUIRED_EVICTION_POLICY}: under memory pressure Redis would evict job locks, heartbeats and tasks. ` +
    `Set maxmemory-policy ${REQUIRED_EVICTION_POLICY} (redis.conf or CONFIG SET; on ElastiCache in the parameter group, as infra/terraform/modules/redis does); see docs/operations.md, "Redis".`
  );
}
