/**
 * The isolated part of matrix.determinant.verify and matrix.rank.verify: the canonical claim
 * crossed a process boundary as JSON and is parsed again here, then checked; the checks poll the
 * deadline and stop with EXECUTION_TIMEOUT (no verdict).
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkDeterminantClaim, checkRankClaim, type RankDeterminantCheckResult } from './rank-determinant-verify.js';

function deadline(ctx: KernelContext): () => void {
  let calls = 0;
  return () => {
    if (calls++ % 16 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the claim was checked; no verdict was reached");
  };
}

export function verifyDeterminantKernel(input: { claim: unknown }, ctx: KernelContext): RankDeterminantCheckResult {
  return checkDeterminantClaim(input.claim, deadline(ctx));
}

export function verifyRankKernel(input: { claim: unknown }, ctx: KernelContext): RankDeterminantCheckResult {
  return checkRankClaim(input.claim, deadline(ctx));
}
