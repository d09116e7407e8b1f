/**
 * The CPU-bound part of sat.model.find on our TypeScript solver, run isolated in a pool child so
 * that a timeout or a cancel kills it. The CNF crossed the process boundary as DIMACS text and
 * is parsed again here. The solver polls the deadline itself and answers UNKNOWN when it ends.
 */
import type { KernelContext } from '@jacobian/shared';
import { solveCdcl } from './cdcl.js';
import { parseDimacs } from './sat-domain.js';

/** Input of {@link solveCdclKernel}. */
export interface SolveKernelInput {
  dimacs: string;
}

/** Output of {@link solveCdclKernel}: the model as one literal per variable. */
export interface SolveKernelOutput {
  status: 'SATISFIABLE' | 'UNSATISFIABLE' | 'UNKNOWN';
  model: number[] | null;
  conflicts: number;
  decisions: number;
  propagations: number;
  stopped_by_deadline: boolean;
}

class DeadlineReached extends Error {}

export function solveCdclKernel(input: SolveKernelInput, ctx: KernelContext): SolveKernelOutput {
  const cnf = parseDimacs(input.dimacs, ['payload', 'dimacs']);
  try {
    const result = solveCdcl(cnf, {
      checkpoint: () => {
        if (Date.now() >= ctx.deadline) throw new DeadlineReached();
      },
    });
    const model = result.model === null ? null : Array.from({ length: cnf.variables }, (_, i) => ((result.model as Int8Array)[i + 1] === 1 ? i + 1 : -(i + 1)));
    return { status: result.status, model, conflicts: result.conflicts, decisions: result.decisions, propagations: result.propagations, stopped_by_deadline: false };
  } catch (error) {
    if (!(error instanceof DeadlineReached)) throw error;
    return { status: 'UNKNOWN', model: null, conflicts: 0, decisions: 0, propagations: 0, stopped_by_deadline: true };
  }
}
