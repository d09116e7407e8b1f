/**
 * The isolated part of diophantine.claim.verify: the claim crossed a process boundary as JSON and
 * is parsed again here, then checked; the checks poll the deadline and stop with
 * EXECUTION_TIMEOUT (no verdict).
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkDiophantineClaim, type DiophantineCheckResult } from './diophantine-verify.js';

export function verifyDiophantineKernel(input: { claim: unknown }, ctx: KernelContext): DiophantineCheckResult {
  let calls = 0;
  return checkDiophantineClaim(input.claim, () => {
    if (calls++ % 64 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the claim was checked; no verdict was reached");
  });
}
