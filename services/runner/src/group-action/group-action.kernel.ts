/**
 * The group_action computation as a kernel for the isolation pool: Schreier–Sims and the
 * enumeration of up to GROUP_ACTION_LIMITS.maxGroupOrder elements are synchronous, so they run
 * in a pool child that a cancel or timeout kills; they also poll the deadline (checkBudget).
 */
import type { GroupOperand, KernelContext } from '@jacobian/shared';
import { cycleIndexOutput, type CycleIndexOutput } from './cycle-index.js';
import { computeGroup } from './group.js';
import { polyaOutput, type PolyaCountOutput } from './polya-count.js';

/** What the kernel is asked: the operand (validated by the caller, read again here) and which answer. */
export interface GroupActionKernelInput {
  operand: GroupOperand;
  task: { kind: 'cycle_index' } | { kind: 'polya'; colours: number; content: number[] | null };
}

export function groupActionKernel(input: GroupActionKernelInput, ctx: KernelContext): CycleIndexOutput | PolyaCountOutput {
  const group = computeGroup(input.operand, ctx);
  return input.task.kind === 'cycle_index' ? cycleIndexOutput(group) : polyaOutput(group, input.task.colours, input.task.content, ctx);
}
