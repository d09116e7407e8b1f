/**
 * The check behind claim.propositional.verify, run isolated so that a timeout or a cancel kills
 * it: parse the formula tree and the CNF again (they crossed a process boundary as JSON and
 * text), check the encoding clause by clause (tseitin-check.ts), then replay the refutation with
 * the same kernel as sat.unsat_proof.verify.
 */
import { JacobianError, parsePropositionalStructure, type KernelContext } from '@jacobian/shared';
import { checkUnsatProofKernel, type UnsatProofKernelOutput } from '../sat/unsat-proof-verify.kernel.js';
import { clauseOf, parseDimacs } from '../sat/sat-domain.js';
import { checkTseitinEncoding, type EncodingClaim } from './tseitin-check.js';

/** Input of {@link verifyPropositionalKernel}. */
export interface PropositionalKernelInput {
  formula: unknown;
  encoding: EncodingClaim;
  dimacs: string;
  format: 'DRAT_TEXT' | 'LRAT_TEXT';
  proof: string;
}

/** The encoding's verdict, then (when it holds) the proof's. */
export type PropositionalKernelOutput =
  | { stage: 'ENCODING'; accepted: false; message: string; clause: number | null }
  | { stage: 'PROOF'; encoding: { gates: number; clauses_checked: number }; proof: UnsatProofKernelOutput };

export function verifyPropositionalKernel(input: PropositionalKernelInput, ctx: KernelContext): PropositionalKernelOutput {
  const checkpoint = (): void => {
    if (Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended during the check; nothing was concluded");
  };
  const formula = parsePropositionalStructure(input.formula, ['formula']);
  const cnf = parseDimacs(input.dimacs, ['dimacs']);
  const clauses: number[][] = [];
  for (let i = 0; i < cnf.clauseCount; i++) clauses.push(clauseOf(cnf, i));
  const encoding = checkTseitinEncoding(formula, input.encoding, cnf.variables, clauses, checkpoint);
  if (!encoding.accepted) return { stage: 'ENCODING', accepted: false, message: encoding.message, clause: encoding.clause };
  const proof = checkUnsatProofKernel({ dimacs: input.dimacs, format: input.format, proof: input.proof, emit_lrat: false }, ctx);
  return { stage: 'PROOF', encoding: { gates: encoding.gates, clauses_checked: encoding.clauses_checked }, proof };
}
