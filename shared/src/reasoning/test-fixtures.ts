// Fixtures for the reasoning-log tests and the store contract; never imported by product code.
import { expect } from 'vitest';

import type { CapabilityResult } from '../contracts/result.js';
import { JacobianError } from '../errors.js';

export const REQUEST_DIGEST = `sha256:${'1'.repeat(64)}`;
export const artifactUri = (hexDigit: string): string => `artifact://sha256/${hexDigit.repeat(64)}`;

/** A well-formed COMPLETED / COMPUTED / COMPLETE result of `test.echo`, built by hand. */
export function completedResult(overrides: Partial<CapabilityResult> = {}): CapabilityResult {
  return {
    capability_id: 'test.echo',
    capability_version: '1.0.0',
    mode: 'EXPLORE',
    execution: { status: 'COMPLETED', runtime_ms: 3, job_id: 'run-0001', request_digest: REQUEST_DIGEST },
    output: { echoed: 'SECRET-OUTPUT-VALUE' },
    scope: { kind: 'EXACT_INPUT', statement: 'the supplied value', input_uris: [] },
    completeness: { status: 'COMPLETE', basis: 'the whole value was echoed' },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: { level: 'COMPUTED', basis: 'computed by the producer', verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: [artifactUri('a'), artifactUri('b')],
    provider: { name: 'test', version: '0.1.0', digest_kind: 'SOURCE_TREE', digest: 'f'.repeat(64) },
    diagnostics: [],
    ...overrides,
  };
}

/** Await a promise that must reject with a JacobianError, and return it. */
export async function rejection(promise: Promise<unknown>): Promise<JacobianError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(JacobianError);
    return error as JacobianError;
  }
  throw new Error('expected a rejection');
}
