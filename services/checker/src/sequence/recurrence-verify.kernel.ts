/**
 * The isolated part of sequence.recurrence.verify: the canonical claim crossed a process boundary
 * as JSON and is parsed again here, then checked; the check polls the deadline and stops with
 * EXECUTION_TIMEOUT (no verdict).
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkRecurrenceClaim, type SequenceCheckResult } from './recurrence-verify.js';

export function verifyRecurrenceKernel(input: { claim: unknown }, ctx: KernelContext): SequenceCheckResult {
  let calls = 0;
  return checkRecurrenceClaim(input.claim, () => {
    if (calls++ % 64 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the claim was checked; no verdict was reached");
  });
}
