/**
 * The isolated part of elliptic_curve.claim.verify: the canonical claim crossed a process boundary
 * as JSON and is parsed again here, then checked; the checks poll the deadline and stop with
 * EXECUTION_TIMEOUT (no verdict).
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkEllipticCurveClaim, type EllipticCheckResult } from './elliptic-claim-verify.js';

export function verifyEllipticCurveClaimKernel(input: { claim: unknown }, ctx: KernelContext): EllipticCheckResult {
  let calls = 0;
  return checkEllipticCurveClaim(input.claim, () => {
    if (calls++ % 16 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the claim was checked; no verdict was reached");
  });
}
