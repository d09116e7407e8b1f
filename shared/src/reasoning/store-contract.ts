import { randomUUID } from 'node:crypto';

import { describe, expect, test } from 'vitest';

import type { JacobianError } from '../errors.js';
import type { ReasoningEvent } from './log.js';
import { createReasoningLog } from './service.js';
import type { ReasoningLogStore } from './store.js';
import { REQUEST_DIGEST, completedResult, rejection } from './test-fixtures.js';

/** A fresh, empty store for one contract test, plus a second store object over the same data. */
export interface ReasoningLogStoreHarness {
  store: ReasoningLogStore;
  /** A new store object over the same backing data, as a restarted process would open it. */
  reopen: () => ReasoningLogStore;
  [Symbol.asyncDispose](): Promise<void>;
}

const AT = '2025-01-01T00:00:00.000Z';

/** A valid event for store tests; stores are protocol-agnostic, so every event is a PLAN. */
function event(runId: string, sequence: number, summary = `entry ${sequence}`): ReasoningEvent {
  return { type: 'PLAN', sequence, run_id: runId, recorded_at: AT, summary };
}

/**
 * Register the behaviour every {@link ReasoningLogStore} adapter must show, plus the service
 * scenarios whose correctness rests on the store (compare-and-append under concurrency,
 * restart), as a vitest `describe`. `makeHarness` is called once per test.
 */
export function describeReasoningLogStoreContract(name: string, makeHarness: () => Promise<ReasoningLogStoreHarness>): void {
  async function withHarness(fn: (harness: ReasoningLogStoreHarness) => Promise<void>): Promise<void> {
    const harness = await makeHarness();
    try {
      await fn(harness);
    } finally {
      await harness.store.close();
      await harness[Symbol.asyncDispose]();
    }
  }

  describe(`reasoning log store contract: ${name}`, () => {
    test('a run that was never written reads as empty, as does an ID that cannot be a run', () =>
      withHarness(async ({ store }) => {
        expect(await store.read(randomUUID())).toEqual([]);
        expect(await store.read('../../etc/passwd')).toEqual([]);
        expect(await store.read('')).toEqual([]);
      }));

    test('appends with contiguous sequence numbers read back in order, unchanged', () =>
      withHarness(async ({ store }) => {
        const runId = randomUUID();
        const written = [event(runId, 1), event(runId, 2, 'Unicode: é, 𝔽, \u2028 and "quotes"'), event(runId, 3)];
        for (const e of written) expect(await store.append(e)).toEqual({ appended: true });
        expect(await store.read(runId)).toEqual(written);
      }));

    test('append is conditional: a stale or a skipped sequence number writes nothing and reports the length', () =>
      withHarness(async ({ store }) => {
        const runId = randomUUID();
        expect(await store.append(event(runId, 2))).toEqual({ appended: false, length: 0 });
        expect(await store.read(runId)).toEqual([]);
        await store.append(event(runId, 1));
        await store.append(event(runId, 2));
        expect(await store.append(event(runId, 2, 'again'))).toEqual({ appended: false, length: 2 });
        expect(await store.append(event(runId, 1, 'again'))).toEqual({ appended: false, length: 2 });
        expect(await store.append(event(runId, 4))).toEqual({ appended: false, length: 2 });
        expect((await store.read(runId)).map((e) => e.sequence)).toEqual([1, 2]);
        expect((await store.read(runId)).map((e) => 'summary' in e && e.summary)).toEqual(['entry 1', 'entry 2']);
      }));

    test('concurrent appends of one sequence number: exactly one wins', () =>
      withHarness(async ({ store, reopen }) => {
        const runId = randomUUID();
        await store.append(event(runId, 1));
        const other = reopen();
        try {
          const contenders = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? store : other).append(event(runId, 2, `contender ${i}`)));
          const results = await Promise.all(contenders);
          expect(results.filter((r) => r.appended)).toHaveLength(1);
          for (const lost of results.filter((r) => !r.appended)) expect(lost).toEqual({ appended: false, length: 2 });
          const winner = results.findIndex((r) => r.appended);
          expect(await store.read(runId)).toEqual([event(runId, 1), event(runId, 2, `contender ${winner}`)]);
        } finally {
          await other.close();
        }
      }));

    test('an invalid event is refused before anything is written', () =>
      withHarness(async ({ store }) => {
        const runId = randomUUID();
        const bad = { ...event(runId, 1), summary: '' };
        expect((await rejection(store.append(bad))).code).toBe('INTERNAL');
        const badId = { ...event(runId, 1), run_id: 'no/slashes/allowed' };
        expect((await rejection(store.append(badId))).code).toBe('INTERNAL');
        expect(await store.read(runId)).toEqual([]);
      }));

    test('runs are independent', () =>
      withHarness(async ({ store }) => {
        const a = randomUUID();
        const b = randomUUID();
        await store.append(event(a, 1, 'a'));
        await store.append(event(b, 1, 'b'));
        await store.append(event(a, 2, 'a2'));
        expect(await store.read(a)).toEqual([event(a, 1, 'a'), event(a, 2, 'a2')]);
        expect(await store.read(b)).toEqual([event(b, 1, 'b')]);
      }));

    test('a reopened store reads what was written and continues the numbering', () =>
      withHarness(async ({ store, reopen }) => {
        const runId = randomUUID();
        await store.append(event(runId, 1));
        await store.append(event(runId, 2));
        await store.close();
        const again = reopen();
        try {
          expect(await again.read(runId)).toEqual([event(runId, 1), event(runId, 2)]);
          expect(await again.append(event(runId, 2, 'stale'))).toEqual({ appended: false, length: 2 });
          expect(await again.append(event(runId, 3))).toEqual({ appended: true });
          expect((await again.read(runId)).map((e) => e.sequence)).toEqual([1, 2, 3]);
        } finally {
          await again.close();
        }
      }));

    test('a closed store refuses work with REASONING_LOG_UNAVAILABLE; close is idempotent', () =>
      withHarness(async ({ store }) => {
        await store.close();
        await store.close();
        const runId = randomUUID();
        expect((await rejection(store.read(runId))).code).toBe('REASONING_LOG_UNAVAILABLE');
        expect((await rejection(store.append(event(runId, 1)))).code).toBe('REASONING_LOG_UNAVAILABLE');
      }));

    test('service: two concurrent binds of one call bind it exactly once (REQUIRED)', () =>
      withHarness(async ({ store, reopen }) => {
        const other = reopen();
        try {
          const log = createReasoningLog({ mode: 'REQUIRED', store });
          const second = createReasoningLog({ mode: 'REQUIRED', store: other });
          const plan = await log.write({ phase: 'PLAN', summary: 'plan' });
          const runId = plan.reasoning_run_id;
          const before = await log.write({ phase: 'BEFORE_TOOL', reasoning_run_id: runId, capability_id: 'test.echo', mode: 'EXPLORE', summary: 'echo' });
          const request = { reasoning_run_id: runId, reasoning_call_id: before.reasoning_call_id!, capability_id: 'test.echo', mode: 'EXPLORE' as const, request_digest: REQUEST_DIGEST };
          const attempts = await Promise.allSettled([log.bindRun(request), second.bindRun(request), log.bindRun(request), second.bindRun(request)]);
          const bound = attempts.filter((a) => a.status === 'fulfilled');
          expect(bound).toHaveLength(1);
          for (const failed of attempts.filter((a) => a.status === 'rejected')) {
            const error = failed.reason as JacobianError;
            expect(error.code).toBe('REASONING_PROTOCOL_VIOLATION');
            expect(error.data?.['violation']).toBe('REUSED');
          }
          const events = (await log.read(runId)).events;
          expect(events.filter((e) => e.type === 'CALL_BOUND')).toHaveLength(1);
          expect(events.map((e) => e.sequence)).toEqual([1, 2, 3]);
        } finally {
          await other.close();
        }
      }));

    test('service: a new service over a reopened store sees the same run and continues it', () =>
      withHarness(async ({ store, reopen }) => {
        const log = createReasoningLog({ mode: 'REQUIRED', store });
        const { reasoning_run_id: runId } = await log.write({ phase: 'PLAN', summary: 'plan' });
        const before = await log.write({ phase: 'BEFORE_TOOL', reasoning_run_id: runId, capability_id: 'test.echo', mode: 'EXPLORE', summary: 'echo' });
        const callId = before.reasoning_call_id!;
        const binding = await log.bindRun({ reasoning_run_id: runId, reasoning_call_id: callId, capability_id: 'test.echo', mode: 'EXPLORE', request_digest: REQUEST_DIGEST });
        const beforeRestart = await log.read(runId);
        await store.close();

        const restarted = reopen();
        try {
          const again = createReasoningLog({ mode: 'REQUIRED', store: restarted });
          const read = await again.read(runId);
          expect(read.jsonl).toBe(beforeRestart.jsonl);
          expect(read.next_required).toBe('AFTER_TOOL');
          expect(read.open_call).toEqual({ reasoning_call_id: callId, capability_id: 'test.echo', mode: 'EXPLORE', bound: true, outcome_recorded: false });
          // The binding survived: the call cannot be bound a second time after the restart.
          const reuse = await rejection(again.bindRun({ reasoning_run_id: runId, reasoning_call_id: callId, capability_id: 'test.echo', mode: 'EXPLORE', request_digest: REQUEST_DIGEST }));
          expect(reuse.data?.['violation']).toBe('REUSED');
          await again.recordOutcome(binding, completedResult());
          const after = await again.write({
            phase: 'AFTER_TOOL', reasoning_run_id: runId, reasoning_call_id: callId, interpretation_status: 'INTERPRETED',
            execution_status: 'COMPLETED', assurance_level: 'COMPUTED', completeness_status: 'COMPLETE', summary: 'echoed',
          });
          expect(after.mismatched_fields).toEqual([]);
          expect((await again.write({ phase: 'FINAL', reasoning_run_id: runId, summary: 'done' })).next_required).toBe('NONE');
          expect((await again.read(runId)).events.map((e) => e.type)).toEqual(['PLAN', 'BEFORE_TOOL', 'CALL_BOUND', 'CALL_OUTCOME', 'AFTER_TOOL', 'FINAL']);
        } finally {
          await restarted.close();
        }
      }));
  });
}
