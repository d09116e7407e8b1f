/**
 * The isolated part of lp.solve: the canonical problem crossed a process boundary as JSON and is
 * parsed again here; HiGHS (when asked for) and the exact simplex run here, the simplex polling
 * the deadline and stopping with EXECUTION_TIMEOUT (nothing concluded).
 */
import { z } from 'zod';
import { JacobianError, LpOutcomeSchema, LpProblemSchema, type KernelContext } from '@jacobian/shared';
import { discardHighs, loadHighs, type Highs } from './highs-start.js';
import type { Checkpoint } from './simplex.js';
import { solveLp, type LpSolution } from './solve-lp.js';

const KernelInput = z.object({ problem: z.unknown(), float: z.boolean() }).strict();
export type LpKernelInput = z.input<typeof KernelInput>;

const Vector = z.record(z.string(), z.string()).nullable();

/** What the kernel answers: the certificate (already checked exactly) and how it was found. */
export const LpKernelOutput = z
  .object({
    certificate: z
      .object({ outcome: LpOutcomeSchema, objective_value: z.string().nullable(), primal: Vector, dual: Vector, reduced_costs: Vector, farkas: Vector, ray: Vector })
      .strict(),
    record: z
      .object({
        float_phase: z.string().nullable(),
        started_from_float_basis: z.boolean(),
        stats: z.object({ start_pivots: z.number().int(), start_rejected: z.number().int(), phase1_pivots: z.number().int(), phase2_pivots: z.number().int(), bland_pivots: z.number().int() }).strict(),
      })
      .strict(),
  })
  .strict();
export type LpKernelOutput = z.infer<typeof LpKernelOutput>;

function deadlineCheck(ctx: KernelContext): Checkpoint {
  let calls = 0;
  return () => {
    if (calls++ % 8 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the simplex reached an answer; nothing was concluded");
  };
}

export async function lpSolveKernel(raw: unknown, ctx: KernelContext): Promise<LpSolution> {
  const input = KernelInput.parse(raw);
  const problem = LpProblemSchema.parse(input.problem);
  let highs: Highs | undefined;
  let loadFailure: string | null = null;
  if (input.float) {
    try {
      highs = await loadHighs();
    } catch (error) {
      loadFailure = error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200);
    }
  }
  // The float phase gets a quarter of what is left; the exact phase the rest.
  const floatSeconds = Math.max(0.05, (ctx.deadline - Date.now()) / 4000);
  const solution = solveLp(problem, { highs, checkpoint: deadlineCheck(ctx), floatSeconds });
  if (loadFailure !== null) solution.record.float_phase = `HiGHS failed to load (${loadFailure}); the slack basis served`;
  if (solution.record.float_phase?.includes(': failed: ') === true) discardHighs();
  return solution;
}
