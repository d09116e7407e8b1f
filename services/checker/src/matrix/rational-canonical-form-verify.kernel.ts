/**
 * The isolated part of matrix.rational_canonical_form.verify: the canonical claim crossed a
 * process boundary as JSON and is parsed again here, then checked; the check polls the deadline
 * and stops with EXECUTION_TIMEOUT (no verdict).
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import type { MatrixCheckResult } from './linear-algebra-verify.js';
import { checkRationalCanonicalFormClaim } from './rational-canonical-form-verify.js';

export function verifyRationalCanonicalFormKernel(input: { claim: unknown }, ctx: KernelContext): MatrixCheckResult {
  let calls = 0;
  return checkRationalCanonicalFormClaim(input.claim, () => {
    if (calls++ % 16 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the claim was checked; no verdict was reached");
  });
}
