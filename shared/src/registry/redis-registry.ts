import type { Redis } from 'ioredis';
import { z } from 'zod';
import { canonicalDigest } from '../canonical-json.js';
import { CapabilityDescriptorSchema, type CapabilityDescriptor } from '../contracts/capability.js';
import { descriptorDigest } from '../contracts/catalog.js';
import { JacobianError, toAppError } from '../errors.js';

/** What one live runner or checker process offers, as stored under its heartbeat key. */
export const RegistrationSchema = z
  .object({
    process_id: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/),
    role: z.enum(['runner', 'checker']),
    pools: z.array(z.string()),
    descriptors: z.array(CapabilityDescriptorSchema),
    /** Seconds since the epoch when the process started, for operators. */
    started_at: z.number().int(),
  })
  .strict();
export type Registration = z.infer<typeof RegistrationSchema>;

export interface AdvertiserOptions {
  redis: Redis;
  /** Key prefix shared by every process of one deployment, e.g. `jacobian`. */
  prefix: string;
  registration: Registration;
  /** How long a registration outlives its last heartbeat. */
  ttlMs: number;
  /** Heartbeat period; a third of the TTL tolerates two missed beats. */
  intervalMs?: number;
  onError?: (error: Error) => void;
}

export interface Advertiser {
  /** Stop beating and remove the registration at once (a clean exit leaves the catalog now, not at TTL). */
  close(): Promise<void>;
}

function registrationKey(prefix: string, processId: string): string {
  return `${prefix}:registration:${processId}`;
}

/**
 * Advertise a process's capabilities by heartbeat: a key with a TTL, refreshed on a timer.
 * A process that dies stops refreshing, and its capabilities leave the catalog within the TTL.
 */
export async function startAdvertising(options: AdvertiserOptions): Promise<Advertiser> {
  const registration = RegistrationSchema.parse(options.registration);
  const key = registrationKey(options.prefix, registration.process_id);
  const value = JSON.stringify(registration);
  const beat = async (): Promise<void> => {
    await options.redis.set(key, value, 'PX', options.ttlMs);
  };
  // The first beat must succeed: a process that cannot register must not start serving.
  await beat();
  const timer = setInterval(() => {
    beat().catch((error: unknown) => options.onError?.(toAppError(error)));
  }, options.intervalMs ?? Math.max(100, Math.floor(options.ttlMs / 3)));
  timer.unref();
  let closed: Promise<void> | undefined;
  return {
    close() {
      closed ??= (async () => {
        clearInterval(timer);
        await options.redis.del(key).catch(() => undefined);
      })();
      return closed;
    },
  };
}

export interface LiveCapabilities {
  /** Descriptors offered by at least one live process, one per capability ID. */
  descriptors: CapabilityDescriptor[];
  /** Live registrations, by process ID. */
  registrations: Registration[];
  /** Capability IDs offered with different descriptors by different processes (a rolling upgrade). */
  conflicts: string[];
  /** `sha256:<hex>` over the sorted descriptor digests: changes exactly when the offer changes. */
  digest: string;
}

/**
 * Read what live processes offer now. When two processes offer one capability with different
 * descriptors, the one with the lexicographically smallest descriptor digest is shown and the
 * ID is reported as a conflict, so the choice is deterministic across API replicas.
 */
/**
 * Parsed registrations by their stored text. A heartbeat rewrites the same text, so a reader
 * that keeps one of these parses and digests each registration once, not on every refresh.
 */
export type RegistrationCache = Map<string, { registration: Registration; digests: string[] } | null>;

export async function readLiveCapabilities(redis: Redis, prefix: string, cache: RegistrationCache = new Map()): Promise<LiveCapabilities> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:registration:*`, 'COUNT', 200);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const values = keys.length === 0 ? [] : await redis.mget(...keys.sort());
  const registrations: Registration[] = [];
  const byId = new Map<string, Map<string, CapabilityDescriptor>>();
  const seen = new Set<string>();
  for (const value of values) {
    if (value === null) continue; // expired between SCAN and MGET
    seen.add(value);
    let entry = cache.get(value);
    if (entry === undefined) {
      const parsed = RegistrationSchema.safeParse(safeJson(value));
      entry = parsed.success ? { registration: parsed.data, digests: parsed.data.descriptors.map(descriptorDigest) } : null;
      cache.set(value, entry);
    }
    if (entry === null) continue;
    registrations.push(entry.registration);
    for (const [i, descriptor] of entry.registration.descriptors.entries()) {
      const versions = byId.get(descriptor.id) ?? new Map<string, CapabilityDescriptor>();
      versions.set(entry.digests[i] as string, descriptor);
      byId.set(descriptor.id, versions);
    }
  }
  for (const value of cache.keys()) if (!seen.has(value)) cache.delete(value);
  const descriptors: CapabilityDescriptor[] = [];
  const digestOf = new Map<CapabilityDescriptor, string>();
  const conflicts: string[] = [];
  for (const [id, versions] of [...byId.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [first] = [...versions.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    if (first === undefined) continue;
    descriptors.push(first[1]);
    digestOf.set(first[1], first[0]);
    if (versions.size > 1) conflicts.push(id);
  }
  return {
    descriptors,
    registrations,
    conflicts,
    digest: `sha256:${canonicalDigest(descriptors.map((descriptor) => digestOf.get(descriptor) as string))}`,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Fail with a message naming the URL (without credentials) when Redis cannot be reached. */
export async function assertRedisReachable(redis: Redis, url: string): Promise<void> {
  try {
    await redis.ping();
  } catch (error) {
    const shown = url.replace(/\/\/[^@/]*@/, '//***@');
    throw new JacobianError('CONFIG_INVALID', `REDIS_URL: cannot reach Redis at ${shown}: ${toAppError(error).message}`, { cause: error });
  }
}
