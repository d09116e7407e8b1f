/**
 * The isolated part of integer.primality.verify and integer.factorization.verify: the claim
 * crossed a process boundary as JSON and is parsed again here, then replayed; the replay polls
 * the deadline and stops with EXECUTION_TIMEOUT (no verdict).
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkFactorizationClaim, checkPrimalityClaim, type PrimalityCheckResult } from './primality-verify.js';

function poller(ctx: KernelContext): () => void {
  return () => {
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the certificate was replayed; no verdict was reached");
  };
}

export function verifyPrimalityKernel(input: { claim: unknown }, ctx: KernelContext): PrimalityCheckResult {
  return checkPrimalityClaim(input.claim, poller(ctx));
}

export function verifyFactorizationKernel(input: { claim: unknown }, ctx: KernelContext): PrimalityCheckResult {
  return checkFactorizationClaim(input.claim, poller(ctx));
}
