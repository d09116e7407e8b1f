/**
 * The recheck every SAT model gets before anyone sees it: plain code, independent of the solver
 * that found it, run where the model is read (this thread for small answers, the isolated kernel
 * that reads a large cadical answer).
 */
import { JacobianError } from '@jacobian/shared';
import { firstFalsifiedClause } from './cdcl.js';
import type { Cnf } from './sat-domain.js';

/**
 * The model as one literal per variable, after checking that it satisfies every clause.
 *
 * @throws JacobianError PROVIDER_FAILED when it falsifies a clause (`who` names the solver).
 */
export function checkedModel(cnf: Cnf, values: Int8Array, who: string): number[] {
  const model = new Int8Array(cnf.variables + 1);
  for (let v = 1; v <= cnf.variables; v++) model[v] = (values[v] ?? 0) === 1 ? 1 : -1;
  const falsified = firstFalsifiedClause(cnf, model);
  if (falsified >= 0) throw new JacobianError('PROVIDER_FAILED', `${who} answered SATISFIABLE but its assignment falsifies clause ${falsified + 1}; the result was discarded`);
  return Array.from({ length: cnf.variables }, (_, i) => (model[i + 1] === 1 ? i + 1 : -(i + 1)));
}
