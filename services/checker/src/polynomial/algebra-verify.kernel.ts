/**
 * The isolated parts of polynomial.factor.verify and polynomial.ideal_membership.verify: the claim
 * crossed a process boundary as JSON and is decoded again here, then checked; the checks poll the
 * deadline and stop with EXECUTION_TIMEOUT (no verdict).
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkFactorizationClaim, checkMembershipClaim, type AlgebraCheckResult, type FactorizationClaimKind } from './algebra-verify.js';

function deadline(ctx: KernelContext): () => void {
  let calls = 0;
  return () => {
    if (calls++ % 16 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the claim was checked; no verdict was reached");
  };
}

export function verifyFactorizationKernel(input: { claim: unknown; kind: FactorizationClaimKind }, ctx: KernelContext): AlgebraCheckResult {
  return checkFactorizationClaim(input.claim, { checkpoint: deadline(ctx), kind: input.kind });
}

export function verifyMembershipKernel(input: { claim: unknown }, ctx: KernelContext): AlgebraCheckResult {
  return checkMembershipClaim(input.claim, { checkpoint: deadline(ctx) });
}
