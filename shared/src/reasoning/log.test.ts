import { describe, expect, it } from 'vitest';

import { JacobianError, type ErrorCode, type JsonPath } from '../errors.js';
import {
  checkSummary,
  parseReasoningEntry,
  REASONING_MAX_EVENTS,
  REASONING_SUMMARY_MAX_BYTES,
  REASONING_SUMMARY_MAX_CHARS,
  type ReasoningEvent,
} from './log.js';
import { compareReport, foldRun, nextStep } from './state.js';
import { artifactUri } from './test-fixtures.js';

const RUN = 'run-0000000000000001';
const CALL = 'call-000000000000001';

function thrown(fn: () => unknown): JacobianError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(JacobianError);
    return error as JacobianError;
  }
  throw new Error('expected a throw');
}

const interpreted = {
  phase: 'AFTER_TOOL',
  reasoning_run_id: RUN,
  reasoning_call_id: CALL,
  interpretation_status: 'INTERPRETED',
  execution_status: 'COMPLETED',
  assurance_level: 'COMPUTED',
  completeness_status: 'COMPLETE',
  summary: 'read it',
};

describe('parseReasoningEntry', () => {
  it('accepts each phase with exactly its fields', () => {
    expect(parseReasoningEntry({ phase: 'PLAN', summary: 'plan' })).toEqual({ phase: 'PLAN', summary: 'plan' });
    expect(parseReasoningEntry({ phase: 'BEFORE_TOOL', reasoning_run_id: RUN, capability_id: 'test.echo', mode: 'VERIFY', summary: 's' })).toEqual({
      phase: 'BEFORE_TOOL', reasoning_run_id: RUN, capability_id: 'test.echo', mode: 'VERIFY', summary: 's',
    });
    expect(parseReasoningEntry(interpreted)).toEqual({
      phase: 'AFTER_TOOL', reasoning_run_id: RUN, reasoning_call_id: CALL, interpretation_status: 'INTERPRETED', summary: 'read it',
      report: { execution_status: 'COMPLETED', assurance_level: 'COMPUTED', completeness_status: 'COMPLETE', result_digest: null, artifact_uris: null },
    });
    const withOptional = parseReasoningEntry({ ...interpreted, result_digest: `sha256:${'2'.repeat(64)}`, artifact_uris: [artifactUri('a')] });
    expect(withOptional.phase === 'AFTER_TOOL' && withOptional.interpretation_status === 'INTERPRETED' && withOptional.report.artifact_uris).toEqual([artifactUri('a')]);
    expect(parseReasoningEntry({ phase: 'AFTER_TOOL', reasoning_run_id: RUN, reasoning_call_id: CALL, interpretation_status: 'RESULT_UNAVAILABLE', summary: 'lost' })).toEqual({
      phase: 'AFTER_TOOL', reasoning_run_id: RUN, reasoning_call_id: CALL, interpretation_status: 'RESULT_UNAVAILABLE', summary: 'lost',
    });
    expect(parseReasoningEntry({ phase: 'FINAL', reasoning_run_id: RUN, summary: 'done' })).toEqual({ phase: 'FINAL', reasoning_run_id: RUN, summary: 'done' });
  });

  it.each<[string, unknown, ErrorCode, JsonPath, RegExp]>([
    ['an unknown phase', { phase: 'THINK', summary: 's' }, 'INVALID_REQUEST', ['phase'], /phase/],
    ['an unknown field', { phase: 'PLAN', summary: 's', thoughts: 'x' }, 'INVALID_REQUEST', ['thoughts'], /unknown field "thoughts"/],
    ['no summary', { phase: 'PLAN' }, 'INVALID_REQUEST', ['summary'], /summary/],
    ['a PLAN with a run ID', { phase: 'PLAN', summary: 's', reasoning_run_id: RUN }, 'INVALID_REQUEST', ['reasoning_run_id'], /reasoning_run_id is not allowed for phase PLAN/],
    ['a BEFORE_TOOL without capability_id', { phase: 'BEFORE_TOOL', reasoning_run_id: RUN, mode: 'EXPLORE', summary: 's' }, 'INVALID_REQUEST', ['capability_id'], /capability_id is required for phase BEFORE_TOOL/],
    ['a BEFORE_TOOL without mode', { phase: 'BEFORE_TOOL', reasoning_run_id: RUN, capability_id: 'test.echo', summary: 's' }, 'INVALID_REQUEST', ['mode'], /mode is required/],
    ['a BEFORE_TOOL with a malformed capability ID', { phase: 'BEFORE_TOOL', reasoning_run_id: RUN, capability_id: 'Echo', mode: 'EXPLORE', summary: 's' }, 'INVALID_REQUEST', ['capability_id'], /capability_id/],
    ['a malformed run ID', { phase: 'FINAL', reasoning_run_id: 'short', summary: 's' }, 'INVALID_REQUEST', ['reasoning_run_id'], /reasoning_run_id/],
    ['an AFTER_TOOL without interpretation_status', { ...interpreted, interpretation_status: undefined }, 'INVALID_REQUEST', ['interpretation_status'], /interpretation_status is required/],
    ['an INTERPRETED without assurance', { ...interpreted, assurance_level: undefined }, 'INVALID_REQUEST', ['assurance_level'], /assurance_level is required for phase AFTER_TOOL with interpretation_status INTERPRETED/],
    ['a RESULT_UNAVAILABLE with a report', { ...interpreted, interpretation_status: 'RESULT_UNAVAILABLE' }, 'INVALID_REQUEST', ['execution_status'], /not allowed .* RESULT_UNAVAILABLE/],
    ['an AFTER_TOOL naming a capability', { ...interpreted, capability_id: 'test.echo' }, 'INVALID_REQUEST', ['capability_id'], /not allowed for phase AFTER_TOOL/],
    ['a malformed result digest', { ...interpreted, result_digest: 'abc' }, 'INVALID_REQUEST', ['result_digest'], /sha256/],
    ['a blank summary', { phase: 'PLAN', summary: '  \n' }, 'INVALID_REQUEST', ['summary'], /summary must not be blank/],
    ['a lone surrogate', { phase: 'PLAN', summary: 'a\uD800b' }, 'INVALID_REQUEST', ['summary'], /well-formed Unicode/],
    ['a summary of 513 characters', { phase: 'PLAN', summary: 'x'.repeat(513) }, 'SIZE_LIMIT_EXCEEDED', ['summary'], /513 Unicode characters; at most 512/],
    ['513 astral characters (2052 bytes)', { phase: 'PLAN', summary: '𝔽'.repeat(513) }, 'SIZE_LIMIT_EXCEEDED', ['summary'], /513 Unicode characters/],
  ])('rejects %s, naming the field and the rule', (_label, input, code, path, message) => {
    const error = thrown(() => parseReasoningEntry(input));
    expect(error.code).toBe(code);
    expect(error.path).toEqual(path);
    expect(error.message).toMatch(message);
  });

  it('counts characters as code points, so 512 astral characters (2048 bytes) are the most that fit', () => {
    const astral = '𝔽'.repeat(REASONING_SUMMARY_MAX_CHARS);
    expect(astral.length).toBe(2 * REASONING_SUMMARY_MAX_CHARS);
    expect(Buffer.byteLength(astral)).toBe(REASONING_SUMMARY_MAX_BYTES);
    expect(parseReasoningEntry({ phase: 'PLAN', summary: astral }).summary).toBe(astral);
    expect(parseReasoningEntry({ phase: 'PLAN', summary: 'x'.repeat(512) }).summary).toHaveLength(512);
  });

  it('enforces the byte bound on its own (reachable only with a tighter character bound than 512 code points)', () => {
    // 512 code points are at most 2048 UTF-8 bytes, so with the shipped bounds the character
    // rule always fires first; the byte rule is checked with limits where it can fire.
    const error = thrown(() => checkSummary('é'.repeat(300), { maxChars: 512, maxBytes: 512 }));
    expect(error.code).toBe('SIZE_LIMIT_EXCEEDED');
    expect(error.path).toEqual(['summary']);
    expect(error.message).toMatch(/summary is 600 UTF-8 bytes; at most 512 are allowed/);
    expect(() => checkSummary('é'.repeat(256), { maxChars: 512, maxBytes: 512 })).not.toThrow();
  });
});

describe('foldRun', () => {
  const at = '2025-01-01T00:00:00.000Z';
  const plan: ReasoningEvent = { type: 'PLAN', sequence: 1, run_id: RUN, recorded_at: at, summary: 'p' };
  const before: ReasoningEvent = { type: 'BEFORE_TOOL', sequence: 2, run_id: RUN, recorded_at: at, call_id: CALL, capability_id: 'test.echo', mode: 'EXPLORE', summary: 'b' };

  it('derives the open call and the next step', () => {
    expect(nextStep(foldRun(RUN, [plan])).next_required).toBe('BEFORE_TOOL_OR_FINAL');
    const state = foldRun(RUN, [plan, before]);
    expect(state.open_call?.call_id).toBe(CALL);
    expect(nextStep(state)).toMatchObject({ next_required: 'MATH_RUN', allowed_next: ['AFTER_TOOL'] });
    expect(nextStep(state).guidance).toContain(CALL);
  });

  it.each<[string, ReasoningEvent[], RegExp]>([
    ['a gap in the numbering', [plan, { ...before, sequence: 3 }], /expected sequence 2/],
    ['a run not starting with PLAN', [{ ...before, sequence: 1 }], /starts with exactly one PLAN/],
    ['a second PLAN', [plan, { ...plan, sequence: 2 }], /starts with exactly one PLAN/],
    ['an event of another run', [plan, { ...before, run_id: 'run-0000000000000002' }], /belongs to run/],
    ['a bind of an unknown call', [plan, { type: 'CALL_BOUND', sequence: 2, run_id: RUN, recorded_at: at, call_id: CALL, capability_id: 'test.echo', mode: 'EXPLORE', request_digest: `sha256:${'1'.repeat(64)}` }], /bound out of order/],
    ['a second BEFORE_TOOL while one is open', [plan, before, { ...before, sequence: 3, call_id: 'call-000000000000002' }], /opened out of order/],
  ])('refuses %s as REASONING_LOG_CORRUPT', (_label, events, message) => {
    const error = thrown(() => foldRun(RUN, events));
    expect(error.code).toBe('REASONING_LOG_CORRUPT');
    expect(error.message).toMatch(message);
  });

  it('bounds events per run consistently with its parts', () => {
    expect(REASONING_MAX_EVENTS).toBe(2 + 4 * 64 + 256);
  });
});

describe('compareReport', () => {
  const outcome = {
    type: 'CALL_OUTCOME', sequence: 4, run_id: RUN, recorded_at: 'x', call_id: CALL, capability_id: 'test.echo', capability_version: '1.0.0', mode: 'EXPLORE',
    execution_status: 'COMPLETED', assurance_level: 'COMPUTED', completeness_status: 'COMPLETE', result_digest: `sha256:${'3'.repeat(64)}`,
    artifact_uris: [artifactUri('a'), artifactUri('b')], artifact_uris_truncated: false,
  } as const;
  const report = { execution_status: 'COMPLETED', assurance_level: 'COMPUTED', completeness_status: 'COMPLETE', result_digest: null, artifact_uris: null } as const;

  it('compares each field; URIs as sets; absent optional fields are NOT_REPORTED', () => {
    expect(compareReport(report, { ...outcome, artifact_uris: [...outcome.artifact_uris] })).toEqual({
      execution_status: 'MATCH', assurance_level: 'MATCH', completeness_status: 'MATCH', result_digest: 'NOT_REPORTED', artifact_uris: 'NOT_REPORTED',
    });
    const full = { ...report, result_digest: outcome.result_digest, artifact_uris: [artifactUri('b'), artifactUri('a')] };
    expect(compareReport(full, { ...outcome, artifact_uris: [...outcome.artifact_uris] })).toMatchObject({ result_digest: 'MATCH', artifact_uris: 'MATCH' });
    expect(compareReport({ ...full, artifact_uris: [artifactUri('a')] }, { ...outcome, artifact_uris: [...outcome.artifact_uris] }).artifact_uris).toBe('MISMATCH');
    expect(compareReport(full, { ...outcome, artifact_uris: [...outcome.artifact_uris], artifact_uris_truncated: true }).artifact_uris).toBe('UNCHECKABLE');
  });
});
