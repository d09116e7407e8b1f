/**
 * The stop conditions of the factoring loops: the run's deadline (epoch ms) and its abort signal,
 * polled every few hundred modular multiplications.
 */
import { JacobianError, type ArithmeticBudget } from '@jacobian/shared';

export type FactorBudget = ArithmeticBudget;

/** @throws JacobianError EXECUTION_CANCELLED when the signal aborted, EXECUTION_TIMEOUT past the deadline. */
export function checkBudget(budget: FactorBudget | undefined): void {
  if (budget?.signal?.aborted === true) throw new JacobianError('EXECUTION_CANCELLED', 'the computation was cancelled');
  if (budget?.deadline !== undefined && Date.now() > budget.deadline) throw new JacobianError('EXECUTION_TIMEOUT', 'the factorization reached its time budget before finishing');
}
