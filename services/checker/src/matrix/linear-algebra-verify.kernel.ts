/**
 * The isolated part of matrix.linear_system.verify and matrix.inverse.verify: the canonical claim
 * crossed a process boundary as JSON and is parsed again here, then checked; the checks poll the
 * deadline and stop with EXECUTION_TIMEOUT (no verdict).
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkInverseClaim, checkLinearSystemClaim, type MatrixCheckResult } from './linear-algebra-verify.js';

function deadline(ctx: KernelContext): () => void {
  let calls = 0;
  return () => {
    if (calls++ % 16 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the claim was checked; no verdict was reached");
  };
}

export function verifyLinearSystemKernel(input: { claim: unknown }, ctx: KernelContext): MatrixCheckResult {
  return checkLinearSystemClaim(input.claim, deadline(ctx));
}

export function verifyInverseKernel(input: { claim: unknown }, ctx: KernelContext): MatrixCheckResult {
  return checkInverseClaim(input.claim, deadline(ctx));
}
