/**
 * Our LRAT checker: forward checking of a clausal proof whose every lemma carries its hints.
 *
 * Each lemma is checked on its own, in proof order, against the clauses present at that point
 * (the formula's, IDs 1 … m, and the lemmas added since, minus deletions):
 * - RUP: under the negation of the lemma, each hint (a positive clause ID) must be unit — all
 *   its literals false but one, which is then assigned — until a hint is falsified;
 * - RAT (negative hints): if the positive hints before the first negative one reach no
 *   conflict, the lemma must be RAT on its first literal p: for every present clause D that
 *   contains ¬p (tautologies aside) there must be a group `−id(D) h1 h2 …` whose hints, under
 *   the negation of the lemma, of the units found so far and of D \ {¬p}, reach a conflict.
 * A lemma that is a tautology is accepted as it is. Clause IDs must increase; a hint or a
 * deletion must name a present clause. The proof is accepted when it adds the empty clause
 * (steps after it are ignored). No search happens: a hint that is not unit is a rejection.
 */
import type { Cnf, LratProof, LratStep } from './sat-domain.js';

/** Why an LRAT proof is rejected. */
export const LratRejectionReason = {
  /** A step's ID is not larger than every ID before it (the formula's are 1 … m). */
  ID_NOT_INCREASING: 'ID_NOT_INCREASING',
  /** A hint or a deletion names a clause that is not present. */
  UNKNOWN_CLAUSE: 'UNKNOWN_CLAUSE',
  /** A hint clause is neither unit nor falsified under the current assignment. */
  HINT_NOT_UNIT: 'HINT_NOT_UNIT',
  /** The hints end without a falsified clause, and there is no RAT part (or no pivot for one) while some clause contains the negated pivot. */
  NO_CONFLICT: 'NO_CONFLICT',
  /** A RAT group's hints end without a falsified clause. */
  RAT_GROUP_NO_CONFLICT: 'RAT_GROUP_NO_CONFLICT',
  /** A RAT group names a clause that does not contain the negated pivot, or the lemma is empty. */
  RAT_GROUP_INVALID: 'RAT_GROUP_INVALID',
  /** A clause containing the negated pivot has no RAT group. */
  RAT_CANDIDATE_MISSING: 'RAT_CANDIDATE_MISSING',
  /** The proof never adds the empty clause. */
  NO_EMPTY_CLAUSE: 'NO_EMPTY_CLAUSE',
} as const;
export type LratRejectionReason = (typeof LratRejectionReason)[keyof typeof LratRejectionReason];

export interface LratCheckStats {
  formula_clauses: number;
  steps: number;
  lemmas_checked: number;
  rat_lemmas: number;
  deletions: number;
}

/** The verdict of {@link checkLrat}. */
export type LratCheckResult =
  | { verdict: 'ACCEPTED'; stats: LratCheckStats; empty_clause_id: number }
  | {
      verdict: 'REJECTED';
      reason: LratRejectionReason;
      /** 0-based index of the failing step (the number of steps for NO_EMPTY_CLAUSE). */
      step: number;
      line: number | null;
      /** The ID of the failing step. */
      id: number | null;
      lemma: number[] | null;
      /** The clause ID of the offending hint or candidate, when there is one. */
      clause_id: number | null;
      message: string;
      stats: LratCheckStats;
    };

export interface LratCheckOptions {
  /** Called now and then; throw from it to stop the check (a deadline). */
  checkpoint?: () => void;
}

class Rejection extends Error {
  constructor(
    readonly reason: LratRejectionReason,
    readonly clauseId: number | null,
    message: string,
  ) {
    super(message);
  }
}

function encode(literal: number): number {
  return literal > 0 ? literal << 1 : (-literal << 1) | 1;
}

/** Literal codes of a clause, duplicates dropped; `tautology` when it holds a literal and its negation. */
function toCodes(literals: ArrayLike<number>, mark: Uint8Array): { codes: Int32Array; tautology: boolean } {
  const out: number[] = [];
  let tautology = false;
  for (let k = 0; k < literals.length; k++) {
    const code = encode(literals[k] as number);
    if (mark[code] === 1) continue;
    if (mark[code ^ 1] === 1) tautology = true;
    mark[code] = 1;
    out.push(code);
  }
  for (const code of out) mark[code] = 0;
  return { codes: Int32Array.from(out), tautology };
}

/**
 * Check an LRAT refutation of a CNF.
 *
 * @throws whatever `options.checkpoint` throws (a deadline).
 */
export function checkLrat(cnf: Cnf, proof: LratProof, options: LratCheckOptions = {}): LratCheckResult {
  const variables = Math.max(cnf.variables, proof.maxVariable);
  const mark = new Uint8Array(2 * variables + 2);
  const value = new Int8Array(2 * variables + 2);
  const trail = new Int32Array(variables + 1);
  let trailLength = 0;
  const clauses = new Map<number, Int32Array>();
  const tautologies = new Set<number>();
  for (let i = 0; i < cnf.clauseCount; i++) {
    const { codes, tautology } = toCodes(cnf.literals.subarray(cnf.offsets[i], cnf.offsets[i + 1]), mark);
    clauses.set(i + 1, codes);
    if (tautology) tautologies.add(i + 1);
  }
  const stats: LratCheckStats = { formula_clauses: cnf.clauseCount, steps: proof.steps.length, lemmas_checked: 0, rat_lemmas: 0, deletions: 0 };
  let lastId = cnf.clauseCount;

  const assign = (code: number): void => {
    value[code] = 1;
    trail[trailLength++] = code;
  };
  const undo = (to: number): void => {
    while (trailLength > to) value[trail[--trailLength] as number] = 0;
  };
  /** Assign the negation of `codes` except `skip`; true when that contradicts the assignment. */
  const assumeNegation = (codes: Int32Array, skip: number): boolean => {
    for (const code of codes) {
      if (code === skip) continue;
      if (value[code] === 1) return true;
      if (value[code ^ 1] === 0) assign(code ^ 1);
    }
    return false;
  };
  /** Apply one positive hint: true when the clause is falsified (a conflict). */
  const applyHint = (id: number): boolean => {
    const clause = clauses.get(id);
    if (clause === undefined) throw new Rejection('UNKNOWN_CLAUSE', id, `hint ${id} names no present clause`);
    let unassigned = -1;
    for (const code of clause) {
      if (value[code] === 1) throw new Rejection('HINT_NOT_UNIT', id, `hint ${id} is satisfied, not unit`);
      if (value[code ^ 1] === 1) continue;
      if (unassigned >= 0) throw new Rejection('HINT_NOT_UNIT', id, `hint ${id} has two unassigned literals, so it is not unit`);
      unassigned = code;
    }
    if (unassigned < 0) return true;
    assign(unassigned);
    return false;
  };

  const checkAddition = (step: Extract<LratStep, { kind: 'add' }>): void => {
    const { codes, tautology } = toCodes(step.literals, mark);
    if (tautology) return;
    const { hints } = step;
    try {
      if (assumeNegation(codes, -1)) return;
      let k = 0;
      for (; k < hints.length && (hints[k] as number) > 0; k++) {
        if (applyHint(hints[k] as number)) return;
      }
      // RAT on the first literal (with no groups, when no clause contains the negated pivot).
      if (codes.length === 0) {
        if (k === hints.length) throw new Rejection('NO_CONFLICT', null, 'the hints end without a falsified clause');
        throw new Rejection('RAT_GROUP_INVALID', null, 'the empty clause has no pivot for RAT hints');
      }
      const withoutGroups = k === hints.length;
      const negatedPivot = (codes[0] as number) ^ 1;
      const covered = new Set<number>();
      const level = trailLength;
      while (k < hints.length) {
        const id = -(hints[k++] as number);
        if (id <= 0) throw new Rejection('RAT_GROUP_INVALID', null, 'a RAT group does not start with a negative clause ID');
        options.checkpoint?.();
        const candidate = clauses.get(id);
        if (candidate === undefined) throw new Rejection('UNKNOWN_CLAUSE', id, `RAT hint −${id} names no present clause`);
        if (!candidate.includes(negatedPivot)) throw new Rejection('RAT_GROUP_INVALID', id, `RAT hint −${id} names a clause without the negated pivot ${-(step.literals[0] as number)}`);
        covered.add(id);
        let conflict = assumeNegation(candidate, negatedPivot);
        for (; k < hints.length && (hints[k] as number) > 0; k++) {
          if (!conflict && applyHint(hints[k] as number)) conflict = true;
        }
        if (!conflict) throw new Rejection('RAT_GROUP_NO_CONFLICT', id, `the hints of the RAT group of clause ${id} end without a falsified clause`);
        undo(level);
      }
      for (const [id, clause] of clauses) {
        if (!covered.has(id) && !tautologies.has(id) && clause.includes(negatedPivot)) {
          if (withoutGroups) {
            throw new Rejection('NO_CONFLICT', id, `the hints end without a falsified clause, and there is no RAT group for clause ${id}, which contains the negated pivot ${-(step.literals[0] as number)}`);
          }
          throw new Rejection('RAT_CANDIDATE_MISSING', id, `clause ${id} contains the negated pivot ${-(step.literals[0] as number)} but has no RAT group`);
        }
      }
      stats.rat_lemmas++;
    } finally {
      undo(0);
    }
  };

  for (const [index, step] of proof.steps.entries()) {
    if ((index & 255) === 0) options.checkpoint?.();
    try {
      if (step.kind === 'delete') {
        for (const id of step.ids) {
          if (!clauses.delete(id)) throw new Rejection('UNKNOWN_CLAUSE', id, `deletes clause ${id}, which is not present`);
          tautologies.delete(id);
          stats.deletions++;
        }
        continue;
      }
      if (step.id <= lastId) throw new Rejection('ID_NOT_INCREASING', null, `ID ${step.id} is not larger than ${lastId}, the largest before it`);
      checkAddition(step);
      stats.lemmas_checked++;
      lastId = step.id;
      if (step.literals.length === 0) return { verdict: 'ACCEPTED', stats, empty_clause_id: step.id };
      const { codes, tautology } = toCodes(step.literals, mark);
      clauses.set(step.id, codes);
      if (tautology) tautologies.add(step.id);
    } catch (error) {
      if (!(error instanceof Rejection)) throw error;
      const lemma = step.kind === 'add' ? Array.from(step.literals) : null;
      return {
        verdict: 'REJECTED',
        reason: error.reason,
        step: index,
        line: step.line,
        id: step.id,
        lemma,
        clause_id: error.clauseId,
        message: `step ${index + 1} (line ${step.line}, ID ${step.id}): ${error.message}`,
        stats,
      };
    }
  }
  return {
    verdict: 'REJECTED',
    reason: 'NO_EMPTY_CLAUSE',
    step: proof.steps.length,
    line: null,
    id: null,
    lemma: null,
    clause_id: null,
    message: `the proof ends after ${proof.steps.length} steps without adding the empty clause`,
    stats,
  };
}
