/**
 * The isolated part of modular.claim.verify: the claim crossed a process boundary as JSON and is
 * parsed again here, then checked; the loops poll the deadline and stop with EXECUTION_TIMEOUT
 * (no verdict).
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkModularClaim, type ModularCheckResult } from './modular-verify.js';

export function verifyModularKernel(input: { claim: unknown }, ctx: KernelContext): ModularCheckResult {
  let calls = 0;
  return checkModularClaim(input.claim, () => {
    if (calls++ % 256 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the claim was checked; no verdict was reached");
  });
}
