/**
 * The isolated part of lp.certificate.verify and lp.farkas.verify: the canonical claim crossed a
 * process boundary as JSON and is parsed again here, then checked; the checks poll the deadline
 * and stop with EXECUTION_TIMEOUT (no verdict).
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkLpCertificateClaim, type LpCheckResult } from './lp-certificate-verify.js';

export function verifyLpCertificateKernel(input: { claim: unknown }, ctx: KernelContext): LpCheckResult {
  let calls = 0;
  return checkLpCertificateClaim(input.claim, () => {
    if (calls++ % 16 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the claim was checked; no verdict was reached");
  });
}
