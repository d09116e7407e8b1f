import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { createFileReasoningLogStore } from './file-store.js';
import { REASONING_MAX_CYCLES, type ReasoningMode } from './log.js';
import { createReasoningLog, type ReasoningLog } from './service.js';
import type { BindRunRequest } from './state.js';
import type { ReasoningLogStore } from './store.js';
import { REQUEST_DIGEST, artifactUri, completedResult, rejection } from './test-fixtures.js';
import { resultDigest } from './state.js';

const directories: string[] = [];
const stores: ReasoningLogStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function makeLog(mode: ReasoningMode): Promise<{ log: ReasoningLog; directory: string }> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'jacobian-reasoning-service-'));
  directories.push(directory);
  const store = createFileReasoningLogStore({ directory });
  stores.push(store);
  let tick = 0;
  // A fixed, stepping clock: event times are asserted exactly, never against the wall clock.
  const clock = (): Date => new Date(Date.UTC(2025, 0, 1, 0, 0, tick++));
  return { log: createReasoningLog({ mode, store, clock }), directory };
}

/** PLAN then BEFORE_TOOL for test.echo in EXPLORE; returns the IDs and a matching bind request. */
async function openCall(log: ReasoningLog, capability = 'test.echo'): Promise<{ runId: string; callId: string; bind: BindRunRequest }> {
  const { reasoning_run_id: runId } = await log.write({ phase: 'PLAN', summary: 'Echo a value and check the report.' });
  return { runId, ...(await nextCall(log, runId, capability)) };
}

async function nextCall(log: ReasoningLog, runId: string, capability = 'test.echo'): Promise<{ callId: string; bind: BindRunRequest }> {
  const before = await log.write({ phase: 'BEFORE_TOOL', reasoning_run_id: runId, capability_id: capability, mode: 'EXPLORE', summary: 'Run the echo.' });
  const callId = before.reasoning_call_id!;
  return { callId, bind: { reasoning_run_id: runId, reasoning_call_id: callId, capability_id: capability, mode: 'EXPLORE', request_digest: REQUEST_DIGEST } };
}

function interpreted(runId: string, callId: string, report: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    phase: 'AFTER_TOOL', reasoning_run_id: runId, reasoning_call_id: callId, interpretation_status: 'INTERPRETED',
    execution_status: 'COMPLETED', assurance_level: 'COMPUTED', completeness_status: 'COMPLETE', summary: 'The echo returned the value.', ...report,
  };
}

function unavailable(runId: string, callId: string): Record<string, unknown> {
  return { phase: 'AFTER_TOOL', reasoning_run_id: runId, reasoning_call_id: callId, interpretation_status: 'RESULT_UNAVAILABLE', summary: 'The result was lost.' };
}

async function expectViolation(promise: Promise<unknown>, violation: string, field: string): Promise<void> {
  const error = await rejection(promise);
  expect(error.code, error.message).toBe('REASONING_PROTOCOL_VIOLATION');
  expect(error.data?.['violation']).toBe(violation);
  expect(error.path).toEqual([field]);
}

describe('reasoning log: a full run', () => {
  it('PLAN → BEFORE_TOOL → bind → outcome → AFTER_TOOL → FINAL, naming the next step each time', async () => {
    const { log } = await makeLog('REQUIRED');
    const plan = await log.write({ phase: 'PLAN', summary: 'Echo a value and check the report.' });
    expect(plan).toMatchObject({ phase: 'PLAN', sequence: 1, next_required: 'BEFORE_TOOL_OR_FINAL', allowed_next: ['BEFORE_TOOL', 'FINAL'], cycles_used: 0, cycles_remaining: 64, open_call: null });
    const runId = plan.reasoning_run_id;
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(plan.resource_uri).toBe(`reasoning://run/${runId}`);

    const before = await log.write({ phase: 'BEFORE_TOOL', reasoning_run_id: runId, capability_id: 'test.echo', mode: 'EXPLORE', summary: 'Run the echo.' });
    const callId = before.reasoning_call_id!;
    expect(callId).toMatch(/^[0-9a-f-]{36}$/);
    expect(callId).not.toBe(runId);
    expect(before).toMatchObject({ sequence: 2, next_required: 'MATH_RUN', cycles_used: 1, open_call: { reasoning_call_id: callId, bound: false, outcome_recorded: false } });

    const binding = await log.bindRun({ reasoning_run_id: runId, reasoning_call_id: callId, capability_id: 'test.echo', mode: 'EXPLORE', request_digest: REQUEST_DIGEST });
    expect(binding).toEqual({ status: 'BOUND', reasoning_run_id: runId, reasoning_call_id: callId, sequence: 3 });

    const result = completedResult();
    const afterRun = await log.recordOutcome(binding, result);
    expect(afterRun).toMatchObject({ sequence: 4, next_required: 'AFTER_TOOL', open_call: { bound: true, outcome_recorded: true } });
    // Recording the same outcome again (a retry) appends nothing.
    expect((await log.recordOutcome(binding, result))?.sequence).toBe(4);

    const after = await log.write(interpreted(runId, callId, { result_digest: resultDigest(result), artifact_uris: [artifactUri('b'), artifactUri('a')] }));
    expect(after).toMatchObject({ sequence: 5, reasoning_call_id: callId, next_required: 'BEFORE_TOOL_OR_FINAL', mismatched_fields: [], violation: null, open_call: null });
    expect(after.comparison).toEqual({ execution_status: 'MATCH', assurance_level: 'MATCH', completeness_status: 'MATCH', result_digest: 'MATCH', artifact_uris: 'MATCH' });

    const final = await log.write({ phase: 'FINAL', reasoning_run_id: runId, summary: 'The echo matched.' });
    expect(final).toMatchObject({ sequence: 6, next_required: 'NONE', allowed_next: [], finalized: true });

    const read = await log.read(runId);
    expect(read.events.map((e) => [e.sequence, e.type, e.recorded_at])).toEqual([
      [1, 'PLAN', '2025-01-01T00:00:00.000Z'],
      [2, 'BEFORE_TOOL', '2025-01-01T00:00:01.000Z'],
      [3, 'CALL_BOUND', '2025-01-01T00:00:02.000Z'],
      [4, 'CALL_OUTCOME', '2025-01-01T00:00:03.000Z'],
      [5, 'AFTER_TOOL', '2025-01-01T00:00:04.000Z'],
      [6, 'FINAL', '2025-01-01T00:00:05.000Z'],
    ]);
    expect(read.events[2]).toMatchObject({ type: 'CALL_BOUND', call_id: callId, capability_id: 'test.echo', mode: 'EXPLORE', request_digest: REQUEST_DIGEST });
    expect(read.events[3]).toEqual({
      type: 'CALL_OUTCOME', sequence: 4, run_id: runId, recorded_at: '2025-01-01T00:00:03.000Z', call_id: callId,
      capability_id: 'test.echo', capability_version: '1.0.0', mode: 'EXPLORE', execution_status: 'COMPLETED', assurance_level: 'COMPUTED',
      completeness_status: 'COMPLETE', result_digest: resultDigest(result), artifact_uris: [artifactUri('a'), artifactUri('b')], artifact_uris_truncated: false,
    });
    // The log holds digests and statuses, never the output itself.
    expect(read.jsonl).not.toContain('SECRET-OUTPUT-VALUE');
    expect(read.jsonl.split('\n').slice(0, -1).map((line) => JSON.parse(line) as unknown)).toEqual(read.events);
    expect(read).toMatchObject({ reasoning_run_id: runId, finalized: true, next_required: 'NONE' });
  });

  it('records a report that differs from the actual outcome as mismatched, field by field', async () => {
    const { log } = await makeLog('REQUIRED');
    const { runId, callId, bind } = await openCall(log);
    const binding = await log.bindRun(bind);
    await log.recordOutcome(binding, completedResult({ completeness: { status: 'PARTIAL', basis: 'only part was echoed' }, scope: null }));
    const after = await log.write(
      interpreted(runId, callId, { assurance_level: 'VERIFIED', result_digest: `sha256:${'9'.repeat(64)}`, artifact_uris: [artifactUri('a')] }),
    );
    expect(after.comparison).toEqual({ execution_status: 'MATCH', assurance_level: 'MISMATCH', completeness_status: 'MISMATCH', result_digest: 'MISMATCH', artifact_uris: 'MISMATCH' });
    expect(after.mismatched_fields).toEqual(['assurance_level', 'completeness_status', 'result_digest', 'artifact_uris']);
    const stored = (await log.read(runId)).events.at(-1);
    expect(stored).toMatchObject({
      type: 'AFTER_TOOL', server_state: 'OUTCOME_RECORDED', violation: null, comparison: after.comparison,
      reported: { execution_status: 'COMPLETED', assurance_level: 'VERIFIED', completeness_status: 'COMPLETE', result_digest: `sha256:${'9'.repeat(64)}`, artifact_uris: [artifactUri('a')] },
    });
  });
});

describe('reasoning log: binding math.run in REQUIRED mode', () => {
  it('rejects unbound, unknown, mismatched, reused and out-of-order calls without consuming the binding', async () => {
    const { log } = await makeLog('REQUIRED');
    const { runId, callId, bind } = await openCall(log);
    const { reasoning_run_id: _r, reasoning_call_id: _c, ...unbound } = bind;

    await expectViolation(log.bindRun(unbound), 'UNBOUND', 'reasoning_run_id');
    await expectViolation(log.bindRun({ ...unbound, reasoning_run_id: runId }), 'UNBOUND', 'reasoning_call_id');
    await expectViolation(log.bindRun({ ...bind, reasoning_run_id: 'ffffffff-ffff-4fff-8fff-ffffffffffff' }), 'UNKNOWN_RUN', 'reasoning_run_id');
    await expectViolation(log.bindRun({ ...bind, reasoning_run_id: 'not a run' }), 'UNKNOWN_RUN', 'reasoning_run_id');
    await expectViolation(log.bindRun({ ...bind, reasoning_call_id: 'ffffffff-ffff-4fff-8fff-ffffffffffff' }), 'UNKNOWN_CALL', 'reasoning_call_id');
    await expectViolation(log.bindRun({ ...bind, reasoning_call_id: runId }), 'UNKNOWN_CALL', 'reasoning_call_id');
    await expectViolation(log.bindRun({ ...bind, capability_id: 'test.other' }), 'MISMATCHED', 'capability_id');
    await expectViolation(log.bindRun({ ...bind, mode: 'VERIFY' }), 'MISMATCHED', 'mode');
    // Nothing was appended by any rejection.
    expect((await log.read(runId)).sequence).toBe(2);

    // The binding was not consumed: the correct math.run still binds.
    expect(await log.bindRun(bind)).toMatchObject({ status: 'BOUND', reasoning_call_id: callId });
    const reused = await rejection(log.bindRun(bind));
    expect(reused.data).toMatchObject({ violation: 'REUSED', next_required: 'AFTER_TOOL', reasoning_run_id: runId });
    expect(reused.hint).toContain(callId);

    // A closed call cannot be bound again, nor an abandoned one, nor anything after FINAL.
    await log.write(unavailable(runId, callId));
    await expectViolation(log.bindRun(bind), 'REUSED', 'reasoning_call_id');
    const second = await nextCall(log, runId);
    await log.write(unavailable(runId, second.callId));
    await expectViolation(log.bindRun(second.bind), 'OUT_OF_ORDER', 'reasoning_call_id');
    await log.write({ phase: 'FINAL', reasoning_run_id: runId, summary: 'done' });
    await expectViolation(log.bindRun(second.bind), 'OUT_OF_ORDER', 'reasoning_run_id');
    expect((await log.read(runId)).events.filter((e) => e.type === 'CALL_BOUND' || e.type === 'PROTOCOL_VIOLATION')).toHaveLength(1);
  });

  it('a call of another run is unknown in this run', async () => {
    const { log } = await makeLog('REQUIRED');
    const a = await openCall(log);
    const b = await openCall(log);
    await expectViolation(log.bindRun({ ...a.bind, reasoning_call_id: b.callId }), 'UNKNOWN_CALL', 'reasoning_call_id');
    expect((await log.bindRun(b.bind)).status).toBe('BOUND');
  });

  it('refuses an INTERPRETED AFTER_TOOL before the server has an outcome', async () => {
    const { log } = await makeLog('REQUIRED');
    const { runId, callId, bind } = await openCall(log);
    await expectViolation(log.write(interpreted(runId, callId)), 'OUT_OF_ORDER', 'interpretation_status');
    await log.bindRun(bind);
    const running = await rejection(log.write(interpreted(runId, callId)));
    expect(running.message).toMatch(/no outcome for call .* yet/);
    expect((await log.read(runId)).sequence).toBe(3);
  });
});

describe('reasoning log: AUDIT mode', () => {
  it('records the violations REQUIRED would reject, lets the run proceed unbound, and still binds a correct call', async () => {
    const { log } = await makeLog('AUDIT');
    const { runId, callId, bind } = await openCall(log);
    const { reasoning_run_id: _r, reasoning_call_id: _c, ...unbound } = bind;

    // No run to record in: reported, not recorded.
    expect(await log.bindRun(unbound)).toMatchObject({ status: 'NOT_BOUND', violation: 'UNBOUND', recorded: false });
    expect(await log.bindRun({ ...bind, reasoning_run_id: 'ffffffff-ffff-4fff-8fff-ffffffffffff' })).toMatchObject({ status: 'NOT_BOUND', violation: 'UNKNOWN_RUN', recorded: false });
    expect(await log.bindRun({ ...bind, capability_id: 'test.other' })).toMatchObject({ status: 'NOT_BOUND', violation: 'MISMATCHED', recorded: true });
    expect(await log.bindRun({ ...bind, reasoning_call_id: 'ffffffff-ffff-4fff-8fff-ffffffffffff' })).toMatchObject({ violation: 'UNKNOWN_CALL', recorded: true });
    const mismatched = await log.bindRun({ ...bind, mode: 'VERIFY' });
    expect(await log.recordOutcome(mismatched, completedResult())).toBeNull();

    const binding = await log.bindRun(bind);
    expect(binding).toMatchObject({ status: 'BOUND', reasoning_call_id: callId });
    expect(await log.bindRun(bind)).toMatchObject({ status: 'NOT_BOUND', violation: 'REUSED', recorded: true });
    await log.recordOutcome(binding, completedResult());
    await log.write(interpreted(runId, callId));

    const events = (await log.read(runId)).events;
    expect(events.map((e) => e.type)).toEqual(['PLAN', 'BEFORE_TOOL', 'PROTOCOL_VIOLATION', 'PROTOCOL_VIOLATION', 'PROTOCOL_VIOLATION', 'CALL_BOUND', 'PROTOCOL_VIOLATION', 'CALL_OUTCOME', 'AFTER_TOOL']);
    expect(events[2]).toMatchObject({
      type: 'PROTOCOL_VIOLATION', operation: 'math.run', violation: 'MISMATCHED', call_id: callId, capability_id: 'test.other', mode: 'EXPLORE', request_digest: REQUEST_DIGEST,
    });
    expect(events[2]?.type === 'PROTOCOL_VIOLATION' && events[2].message).toMatch(/BEFORE_TOOL of call .* named test\.echo/);
  });

  it('accepts an INTERPRETED AFTER_TOOL for an unbound (legacy) call, recording the violation and no comparison', async () => {
    const { log } = await makeLog('AUDIT');
    const { runId, callId } = await openCall(log);
    const after = await log.write(interpreted(runId, callId));
    expect(after).toMatchObject({ violation: 'OUT_OF_ORDER', comparison: null, next_required: 'BEFORE_TOOL_OR_FINAL' });
    expect((await log.read(runId)).events.at(-1)).toMatchObject({ type: 'AFTER_TOOL', server_state: 'NOT_RUN', violation: 'OUT_OF_ORDER', comparison: null });
  });
});

describe('reasoning log: entry order and bounds', () => {
  it('keeps one cycle at a time, nothing after FINAL, and names what is required instead', async () => {
    const { log } = await makeLog('AUDIT');
    const { runId, callId } = await openCall(log);
    const twice = await rejection(log.write({ phase: 'BEFORE_TOOL', reasoning_run_id: runId, capability_id: 'test.echo', mode: 'EXPLORE', summary: 's' }));
    expect(twice).toMatchObject({ code: 'REASONING_PROTOCOL_VIOLATION', path: ['phase'] });
    expect(twice.data).toMatchObject({ violation: 'OUT_OF_ORDER', next_required: 'MATH_RUN' });
    expect((await rejection(log.write({ phase: 'FINAL', reasoning_run_id: runId, summary: 's' }))).message).toMatch(/FINAL while call .* is still open/);
    await expectViolation(log.write(unavailable(runId, 'ffffffff-ffff-4fff-8fff-ffffffffffff')), 'UNKNOWN_CALL', 'reasoning_call_id');
    await log.write(unavailable(runId, callId));
    await expectViolation(log.write(unavailable(runId, callId)), 'OUT_OF_ORDER', 'reasoning_call_id');
    await log.write({ phase: 'FINAL', reasoning_run_id: runId, summary: 'done' });
    await expectViolation(log.write({ phase: 'FINAL', reasoning_run_id: runId, summary: 'again' }), 'OUT_OF_ORDER', 'phase');
    const unknown = await rejection(log.write({ phase: 'FINAL', reasoning_run_id: 'ffffffff-ffff-4fff-8fff-ffffffffffff', summary: 's' }));
    expect(unknown).toMatchObject({ code: 'REASONING_RUN_NOT_FOUND', path: ['reasoning_run_id'] });
    expect((await rejection(log.read('ffffffff-ffff-4fff-8fff-ffffffffffff'))).code).toBe('REASONING_RUN_NOT_FOUND');
  });

  it('refuses a summary that is too long before anything is written', async () => {
    const { log } = await makeLog('REQUIRED');
    const { runId } = await openCall(log);
    const error = await rejection(log.write({ phase: 'FINAL', reasoning_run_id: runId, summary: 'é'.repeat(513) }));
    expect(error).toMatchObject({ code: 'SIZE_LIMIT_EXCEEDED', path: ['summary'] });
    expect((await log.read(runId)).sequence).toBe(2);
  });

  it(`allows ${REASONING_MAX_CYCLES} cycles per run and refuses the next, leaving FINAL`, async () => {
    const { log } = await makeLog('REQUIRED');
    const { reasoning_run_id: runId } = await log.write({ phase: 'PLAN', summary: 'many cycles' });
    for (let cycle = 1; cycle <= REASONING_MAX_CYCLES; cycle++) {
      const { callId } = await nextCall(log, runId);
      const closed = await log.write(unavailable(runId, callId));
      expect(closed.cycles_used).toBe(cycle);
    }
    const state = await log.read(runId);
    expect(state).toMatchObject({ cycles_remaining: 0, next_required: 'FINAL', allowed_next: ['FINAL'] });
    const error = await rejection(log.write({ phase: 'BEFORE_TOOL', reasoning_run_id: runId, capability_id: 'test.echo', mode: 'EXPLORE', summary: 'one more' }));
    expect(error).toMatchObject({ code: 'REASONING_LIMIT_EXCEEDED', path: ['phase'] });
    expect(error.message).toMatch(/all 64 cycles/);
    expect((await log.write({ phase: 'FINAL', reasoning_run_id: runId, summary: 'done' })).sequence).toBe(2 + 2 * REASONING_MAX_CYCLES);
  });
});

describe('reasoning log: RESULT_UNAVAILABLE', () => {
  it('closes a bound call without outcome as an ERROR non-conclusion; a late outcome is still recorded', async () => {
    const { log } = await makeLog('REQUIRED');
    const { runId, callId, bind } = await openCall(log);
    const binding = await log.bindRun(bind);
    const closed = await log.write(unavailable(runId, callId));
    expect(closed).toMatchObject({ next_required: 'BEFORE_TOOL_OR_FINAL', comparison: null, open_call: null });
    expect((await log.read(runId)).events.at(-1)).toMatchObject({ type: 'AFTER_TOOL', interpretation_status: 'RESULT_UNAVAILABLE', server_state: 'RUNNING_OR_LOST', reported: null });
    // The next cycle opens normally; the late outcome of the old call is still a recorded fact.
    const next = await nextCall(log, runId);
    await log.recordOutcome(binding, completedResult());
    const events = (await log.read(runId)).events;
    expect(events.map((e) => e.type)).toEqual(['PLAN', 'BEFORE_TOOL', 'CALL_BOUND', 'AFTER_TOOL', 'BEFORE_TOOL', 'CALL_OUTCOME']);
    expect(events.at(-1)).toMatchObject({ call_id: callId });
    expect((await log.bindRun(next.bind)).status).toBe('BOUND');
  });

  it('abandons a call that never ran', async () => {
    const { log } = await makeLog('REQUIRED');
    const { runId, callId } = await openCall(log);
    await log.write(unavailable(runId, callId));
    expect((await log.read(runId)).events.at(-1)).toMatchObject({ server_state: 'NOT_RUN' });
  });
});

describe('reasoning log: modes and configuration', () => {
  it('OFF refuses everything with REASONING_LOG_DISABLED and needs no store', async () => {
    const log = createReasoningLog({ mode: 'OFF' });
    expect(log.mode).toBe('OFF');
    for (const call of [
      () => log.write({ phase: 'PLAN', summary: 's' }),
      () => log.bindRun({ capability_id: 'test.echo', mode: 'EXPLORE', request_digest: REQUEST_DIGEST }),
      () => log.recordOutcome({ status: 'BOUND', reasoning_run_id: 'x', reasoning_call_id: 'y', sequence: 3 }, completedResult()),
      () => log.read('ffffffff-ffff-4fff-8fff-ffffffffffff'),
    ]) {
      expect((await rejection(call())).code).toBe('REASONING_LOG_DISABLED');
    }
  });

  it('rejects a bad configuration', () => {
    expect(() => createReasoningLog({ mode: 'REQUIRED' })).toThrow(/needs a store/);
    expect(() => createReasoningLog({ mode: 'ON' as ReasoningMode })).toThrow(/OFF, AUDIT or REQUIRED/);
  });

  it('uses the injected ID generator and refuses IDs outside the pattern', async () => {
    const { directory } = await makeLog('REQUIRED');
    const store = createFileReasoningLogStore({ directory });
    stores.push(store);
    let n = 0;
    const log = createReasoningLog({ mode: 'REQUIRED', store, idGenerator: () => `id-${String(++n).padStart(16, '0')}` });
    expect((await log.write({ phase: 'PLAN', summary: 's' })).reasoning_run_id).toBe('id-0000000000000001');
    const bad = createReasoningLog({ mode: 'REQUIRED', store, idGenerator: () => 'short' });
    expect((await rejection(bad.write({ phase: 'PLAN', summary: 's' }))).code).toBe('INTERNAL');
  });

  it('rejects a malformed bind request or result as INVALID_REQUEST', async () => {
    const { log } = await makeLog('REQUIRED');
    const { bind } = await openCall(log);
    expect((await rejection(log.bindRun({ ...bind, request_digest: 'nope' }))).path).toEqual(['request_digest']);
    const binding = await log.bindRun(bind);
    const bad = await rejection(log.recordOutcome(binding, { ...completedResult(), mode: 'GUESS' } as never));
    expect(bad).toMatchObject({ code: 'INVALID_REQUEST', path: ['result', 'mode'] });
  });
});
