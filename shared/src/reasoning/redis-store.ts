import { JacobianError } from '../errors.js';
import { createRedisClient, resolveRedisConnection, type RedisConnectionOptions } from '../queue/bullmq-run-queue.js';
import { parseStoredEvent, type ReasoningEvent } from './log.js';
import { checkEventToAppend, isRunId, storeClosed, storeUnavailable, type AppendResult, type ReasoningLogStore } from './store.js';

/** Options of {@link createRedisReasoningLogStore}. */
export interface RedisReasoningLogStoreOptions {
  connection: RedisConnectionOptions;
  /** Prefix of every key; distinct per deployment (and per test). Default `jacobian`. */
  prefix?: string;
  /** How long one Redis command may take before the operation fails with REASONING_LOG_UNAVAILABLE. Default 5000 ms. */
  commandTimeoutMs?: number;
}

/**
 * Compare-and-append. KEYS[1] is the run's stream, ARGV[1] the number of events the caller saw,
 * ARGV[2] the event's JSON. Entries are never trimmed or deleted, so XLEN is the last sequence
 * number; the entry ID `0-<sequence>` makes the stream itself refuse a second entry with the
 * same number even if the length check were bypassed. Returns the length before the call and
 * whether the event was added.
 */
const APPEND_IF_LENGTH = `
local length = redis.call('XLEN', KEYS[1])
if length ~= tonumber(ARGV[1]) then return {length, 0} end
redis.call('XADD', KEYS[1], '0-' .. (length + 1), 'event', ARGV[2])
return {length, 1}`;

/**
 * The cluster reasoning-log store: one Redis stream per run at `<prefix>:reasoning:run:<run_id>`,
 * each entry `0-<sequence>` with one field `event` holding the event's JSON. Appends are
 * conditional in a Lua script (atomic on the server); no MAXLEN trimming, no deletion. The log
 * outlives this process; it is as durable as the Redis server's persistence (AOF) makes it.
 */
export function createRedisReasoningLogStore(options: RedisReasoningLogStoreOptions): ReasoningLogStore {
  const prefix = options.prefix ?? 'jacobian';
  const redis = createRedisClient(resolveRedisConnection(options.connection), {
    commandTimeout: options.commandTimeoutMs ?? 5000,
    maxRetriesPerRequest: 2,
  });
  // Failures reach callers through their commands; without a listener ioredis would print them.
  redis.on('error', () => undefined);
  let closed = false;
  const keyOf = (runId: string): string => `${prefix}:reasoning:run:${runId}`;

  return {
    async read(runId) {
      if (closed) throw storeClosed('read');
      if (!isRunId(runId)) return [];
      let entries: [id: string, fields: string[]][];
      try {
        entries = await redis.xrange(keyOf(runId), '-', '+');
      } catch (error) {
        throw storeUnavailable('read', runId, error);
      }
      return entries.map(([id, fields], index): ReasoningEvent => {
        const where = [runId, index + 1];
        let value: unknown;
        try {
          value = fields[0] === 'event' && fields[1] !== undefined ? JSON.parse(fields[1]) : undefined;
        } catch {
          value = undefined;
        }
        const event = parseStoredEvent(value, where);
        if (id !== `0-${index + 1}` || event.sequence !== index + 1 || event.run_id !== runId) {
          throw new JacobianError('REASONING_LOG_CORRUPT', `reasoning log of run ${runId} has entry ${id} holding sequence ${event.sequence} of run ${event.run_id}`, {
            path: where,
          });
        }
        return event;
      });
    },

    async append(candidate): Promise<AppendResult> {
      if (closed) throw storeClosed('append');
      const event = checkEventToAppend(candidate);
      let reply: unknown;
      try {
        reply = await redis.eval(APPEND_IF_LENGTH, 1, keyOf(event.run_id), String(event.sequence - 1), JSON.stringify(event));
      } catch (error) {
        throw storeUnavailable('append', event.run_id, error);
      }
      const [length, added] = Array.isArray(reply) ? reply.map(Number) : [];
      if (length === undefined || added === undefined || !Number.isSafeInteger(length)) {
        throw new JacobianError('INTERNAL', `reasoning log append script answered ${JSON.stringify(reply)}`);
      }
      return added === 1 ? { appended: true } : { appended: false, length };
    },

    async close() {
      if (closed) return;
      closed = true;
      if (redis.status === 'ready') await redis.quit().catch(() => undefined);
      redis.disconnect();
    },
  };
}
