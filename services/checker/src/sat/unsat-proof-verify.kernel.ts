/**
 * The check behind sat.unsat_proof.verify, run isolated so that a timeout or a cancel kills it:
 * parse the CNF and the proof again (they crossed a process boundary as text) and replay the
 * proof with our DRAT or LRAT checker, polling the deadline.
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkDrat, type ClauseOrigin } from './drat-check.js';
import { checkLrat } from './lrat-check.js';
import { parseDimacs, parseDratText, parseLrat, type DratProof, type LratProof } from './sat-domain.js';

/** Input of {@link checkUnsatProofKernel}. */
export interface UnsatProofKernelInput {
  dimacs: string;
  format: 'DRAT_TEXT' | 'LRAT_TEXT';
  proof: string;
  emit_lrat: boolean;
}

/** The kernel's verdict, as JSON. */
export type UnsatProofKernelOutput =
  | { accepted: true; stats: Record<string, number>; lrat: string | null }
  | {
      accepted: false;
      reason: string;
      message: string;
      /** 1-based step in the proof; null when the proof does not parse or ends without the empty clause. */
      step: number | null;
      line: number | null;
      lemma: number[] | null;
      pivot: number | null;
      rat_clause: { origin: ClauseOrigin; literals: number[] } | null;
      clause_id: number | null;
      stats: Record<string, number>;
    };

export function checkUnsatProofKernel(input: UnsatProofKernelInput, ctx: KernelContext): UnsatProofKernelOutput {
  const checkpoint = (): void => {
    if (Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended during the proof check; nothing was concluded");
  };
  const cnf = parseDimacs(input.dimacs, ['payload', 'dimacs']);
  let drat: DratProof | null = null;
  let lrat: LratProof | null = null;
  try {
    if (input.format === 'DRAT_TEXT') drat = parseDratText(input.proof, ['proof']);
    else lrat = parseLrat(input.proof, ['proof']);
  } catch (error) {
    if (!(error instanceof JacobianError)) throw error;
    // A proof that does not parse proves nothing: a rejection, naming its line.
    const line = typeof error.data?.['line'] === 'number' ? error.data['line'] : null;
    return { accepted: false, reason: 'PROOF_MALFORMED', message: error.message, step: null, line, lemma: null, pivot: null, rat_clause: null, clause_id: null, stats: {} };
  }
  if (drat !== null) {
    const result = checkDrat(cnf, drat, { lrat: input.emit_lrat, checkpoint });
    const stats = { ...result.stats };
    if (result.verdict === 'ACCEPTED') return { accepted: true, stats, lrat: result.lrat };
    const noStep = result.reason === 'NO_EMPTY_CLAUSE';
    return { accepted: false, reason: result.reason, message: result.message, step: noStep ? null : result.step + 1, line: result.line, lemma: result.lemma, pivot: result.pivot, rat_clause: result.rat_clause, clause_id: null, stats };
  }
  const result = checkLrat(cnf, lrat as LratProof, { checkpoint });
  const stats = { ...result.stats };
  if (result.verdict === 'ACCEPTED') return { accepted: true, stats: { ...stats, empty_clause_id: result.empty_clause_id }, lrat: null };
  const noStep = result.reason === 'NO_EMPTY_CLAUSE';
  return { accepted: false, reason: result.reason, message: result.message, step: noStep ? null : result.step + 1, line: result.line, lemma: result.lemma, pivot: null, rat_clause: null, clause_id: result.clause_id, stats };
}
