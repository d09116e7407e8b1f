import { NotReadyReason, type EvictionPolicyReading, type EvictionPolicySource } from '@jacobian/shared';
import { evictionPolicyFix, readEvictionPolicy, REQUIRED_EVICTION_POLICY, type createRedisClient } from '@jacobian/shared/redis';
import type { Logger } from './log.js';

type Redis = ReturnType<typeof createRedisClient>;

/** The readiness check that fails while Redis's eviction policy is not `noeviction`. */
export const EVICTION_POLICY_CHECK = 'redis-eviction-policy';

/**
 * Check Redis's eviction policy once at start and return the live readiness check of it.
 *
 * A wrong policy is flagged, not refused: the role logs one error line and its `/readyz` fails
 * with the reason and the fix, but it starts and keeps working. The policy matters only once
 * Redis reaches `maxmemory`, and it can be changed on a running Redis (CONFIG SET, or an
 * ElastiCache parameter group, applied without a restart); a refusal would turn that latent
 * risk into every pod crash-looping, while a flag takes the api out of its Service and shows
 * the way out on every pod, which becomes ready by itself once the policy is fixed.
 *
 * The readiness check reads the policy again on each probe, and logs when it changes. A Redis
 * on which the policy can be read neither way (CONFIG and INFO both refused) is logged once as
 * unchecked and does not fail readiness: the operator has to make sure of it. Once the policy
 * has been read, a probe that cannot read it (Redis down) fails, without a reason.
 */
export async function watchEvictionPolicy(redis: Redis, log: Logger): Promise<() => Promise<void>> {
  let last = await readEvictionPolicy(redis);
  let source: EvictionPolicySource = last.status === 'unknown' ? 'CONFIG GET maxmemory-policy' : last.source;
  logReading(log, last, undefined);
  return async () => {
    const reading = await readEvictionPolicy(redis, source);
    if (reading.status !== 'unknown') source = reading.source;
    // A read that fails later (Redis unreachable) is the `redis` check's business; it is not logged here.
    if (reading.status !== 'unknown' && (last.status === 'unknown' || reading.policy !== last.policy)) {
      logReading(log, reading, last);
      last = reading;
    }
    if (reading.status === 'wrong') throw new NotReadyReason(evictionPolicyFix(reading.policy));
    // Read before, unreadable now: Redis is down or refusing (shown as failed, like the redis check).
    if (reading.status === 'unknown' && last.status !== 'unknown') throw new Error(reading.errors.join('; '));
  };
}

function logReading(log: Logger, reading: EvictionPolicyReading, previous: EvictionPolicyReading | undefined): void {
  switch (reading.status) {
    case 'wrong':
      log.error('redis eviction policy is not noeviction', {
        maxmemory_policy: reading.policy,
        required: REQUIRED_EVICTION_POLICY,
        source: reading.source,
        fix: evictionPolicyFix(reading.policy),
        readiness_check: EVICTION_POLICY_CHECK,
      });
      return;
    case 'ok':
      if (previous?.status === 'wrong') log.info('redis eviction policy is noeviction now', { maxmemory_policy: reading.policy, source: reading.source });
      else log.debug('redis eviction policy is noeviction', { source: reading.source });
      return;
    case 'unknown':
      log.warn('redis eviction policy could not be checked', {
        required: REQUIRED_EVICTION_POLICY,
        errors: reading.errors,
        fix: `make sure the Redis server's maxmemory-policy is ${REQUIRED_EVICTION_POLICY}; see docs/operations.md, "Redis"`,
      });
      return;
    default: {
      const unexpected: never = reading;
      throw new Error(`unexpected eviction policy reading ${JSON.stringify(unexpected)}`);
    }
  }
}
