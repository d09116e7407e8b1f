/**
 * The exact check of a solver's incumbent, isolated: the stored problem and the printed values
 * cross a process boundary as JSON and are parsed again here; the check (and the vertex solve it
 * may need, see incumbent.ts) stops at the kernel's soft deadline with EXECUTION_TIMEOUT.
 */
import { z } from 'zod';
import { LP_LIMITS, LpProblemSchema, RATIONALS, type KernelContext } from '@jacobian/shared';
import { exactMilp, objectiveValue } from './exact-problem.js';
import { exactIncumbent, IncumbentMethod } from './incumbent.js';

const KernelInput = z
  .object({
    problem: LpProblemSchema,
    printed: z.array(z.string().max(64)).max(LP_LIMITS.maxVariables),
  })
  .strict();
export type IncumbentKernelInput = z.input<typeof KernelInput>;

export const IncumbentKernelOutput = z.union([
  z.object({ verified: z.literal(true), method: z.enum(IncumbentMethod), values: z.array(z.string()), objective: z.string() }).strict(),
  z.object({ verified: z.literal(false), violations: z.array(z.string()) }).strict(),
]);
export type IncumbentKernelOutput = z.infer<typeof IncumbentKernelOutput>;

export function incumbentKernel(raw: unknown, ctx: KernelContext): IncumbentKernelOutput {
  const input = KernelInput.parse(raw);
  const problem = exactMilp(input.problem);
  const check = exactIncumbent(problem, input.printed, ctx.signal);
  if (!check.verified) return { verified: false, violations: check.violations };
  return { verified: true, method: check.method, values: check.values.map((v) => RATIONALS.format(v)), objective: RATIONALS.format(objectiveValue(problem, check.values)) };
}
