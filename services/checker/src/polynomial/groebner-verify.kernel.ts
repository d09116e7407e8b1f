/**
 * The isolated part of `polynomial.groebner_basis.verify`: the claim crossed a process boundary
 * as JSON and is decoded again here, then checked by {@link checkGroebnerBasisClaim}, which polls
 * the deadline between reductions and stops with EXECUTION_TIMEOUT (no verdict) when it passes.
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkGroebnerBasisClaim, type GroebnerCheckResult } from './groebner-verify.js';

export function verifyGroebnerBasisKernel(input: { claim: unknown }, ctx: KernelContext): GroebnerCheckResult {
  let calls = 0;
  return checkGroebnerBasisClaim(input.claim, {
    checkpoint: () => {
      // The first call and every 16th look at the clock.
      if (calls++ % 16 !== 0) return;
      if (ctx.signal.aborted || Date.now() >= ctx.deadline) {
        throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the Groebner basis claim was checked; no verdict was reached");
      }
    },
  });
}
