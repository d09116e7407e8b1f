import { describe, expect, it } from 'vitest';
import { solveWithCadical } from './cadical.testing.js';
import { checkDrat } from './drat-check.js';
import { checkLrat, type LratCheckResult } from './lrat-check.js';
import { cnfFromClauses, parseDrat, parseLrat, pigeonhole, serializeLrat, type LratStep } from './sat-domain.js';

/** The four clauses over two variables (IDs 1 … 4). */
const ALL_FOUR = [[1, 2], [-1, 2], [1, -2], [-1, -2]];
const cnf4 = cnfFromClauses(2, ALL_FOUR);
/** With (−3 1) as clause 5: (3) is RAT on 3 against it. */
const cnfRat = cnfFromClauses(3, [...ALL_FOUR, [-3, 1]]);

function rejected(result: LratCheckResult): Extract<LratCheckResult, { verdict: 'REJECTED' }> {
  if (result.verdict !== 'REJECTED') throw new Error('expected REJECTED, got ACCEPTED');
  return result;
}

describe('checkLrat', () => {
  it('accepts a RUP refutation whose hints propagate to conflicts', () => {
    // (1): ¬1 makes (1 2) unit, then (1 −2) false. Empty: (1) unit, (−1 2) unit, (−1 −2) false.
    expect(checkLrat(cnf4, parseLrat('5 1 0 1 3 0\n6 0 5 2 4 0\n'))).toMatchObject({ verdict: 'ACCEPTED', empty_clause_id: 6, stats: { lemmas_checked: 2, rat_lemmas: 0 } });
  });

  it('accepts a RAT lemma with a group for every clause containing the negated pivot', () => {
    const result = checkLrat(cnfRat, parseLrat('6 3 0 -5 1 3 0\n7 0 6 5 2 4 0\n'));
    expect(result).toMatchObject({ verdict: 'ACCEPTED', stats: { rat_lemmas: 1 } });
  });

  it('accepts a vacuous RAT lemma (no clause contains the negated pivot) and a tautology without hints', () => {
    expect(checkLrat(cnf4, parseLrat('5 3 0 0\n6 1 -1 0 0\n7 -3 1 0 1 3 0\n8 0 5 7 2 4 0\n')).verdict).toBe('ACCEPTED');
  });

  it('applies deletions and ignores steps after the empty clause', () => {
    const result = checkLrat(cnf4, parseLrat('5 1 0 1 3 0\n5 d 1 3 0\n6 0 5 2 4 0\n7 1 0 0\n'));
    expect(result).toMatchObject({ verdict: 'ACCEPTED', stats: { deletions: 2 } });
  });

  it.each<[string, string, Partial<Extract<LratCheckResult, { verdict: 'REJECTED' }>>]>([
    ['a hint that is not unit', '5 1 0 2 3 0\n6 0 5 2 4 0\n', { reason: 'HINT_NOT_UNIT', step: 0, clause_id: 2, line: 1 }],
    ['hints that reach no conflict', '5 1 0 1 0\n6 0 5 2 4 0\n', { reason: 'NO_CONFLICT', step: 0, id: 5 }],
    ['a hint naming no clause', '5 1 0 1 9 0\n', { reason: 'UNKNOWN_CLAUSE', clause_id: 9 }],
    ['a hint naming a deleted clause', '5 d 3 0\n5 1 0 1 3 0\n', { reason: 'UNKNOWN_CLAUSE', step: 1, clause_id: 3 }],
    ['a deleted step another step relies on', '6 0 5 2 4 0\n', { reason: 'UNKNOWN_CLAUSE', step: 0, clause_id: 5 }],
    ['an ID that does not increase', '4 1 0 1 3 0\n', { reason: 'ID_NOT_INCREASING', step: 0, id: 4 }],
    ['the deletion of an absent clause', '5 d 7 0\n', { reason: 'UNKNOWN_CLAUSE', clause_id: 7 }],
    ['no empty clause', '5 1 0 1 3 0\n', { reason: 'NO_EMPTY_CLAUSE', step: 1, id: null }],
    ['an altered literal', '5 -1 0 1 3 0\n6 0 5 2 4 0\n', { reason: 'HINT_NOT_UNIT', step: 0 }],
  ])('rejects %s, naming the step', (_what, text, expected) => {
    expect(rejected(checkLrat(cnf4, parseLrat(text)))).toMatchObject(expected);
  });

  it.each<[string, string, Partial<Extract<LratCheckResult, { verdict: 'REJECTED' }>>]>([
    ['a RAT group that reaches no conflict', '6 3 0 -5 1 0\n7 0 6 5 2 4 0\n', { reason: 'RAT_GROUP_NO_CONFLICT', clause_id: 5 }],
    ['a missing RAT group', '6 3 0 0\n7 0 6 5 2 4 0\n', { reason: 'NO_CONFLICT', clause_id: 5 }],
    ['a RAT group of a clause without the negated pivot', '6 3 0 -5 1 3 -2 0\n', { reason: 'RAT_GROUP_INVALID', clause_id: 2 }],
  ])('rejects %s', (_what, text, expected) => {
    expect(rejected(checkLrat(cnfRat, parseLrat(text)))).toMatchObject({ step: 0, ...expected });
  });

  it('rejects a RAT lemma missing one of two candidate groups', () => {
    const cnf = cnfFromClauses(3, [...ALL_FOUR, [-3, 1], [-3, 2]]);
    // (3 1) and (3 2) both follow: give a group for clause 5 only.
    expect(rejected(checkLrat(cnf, parseLrat('7 3 0 -5 1 3 0\n')))).toMatchObject({ reason: 'RAT_CANDIDATE_MISSING', clause_id: 6 });
    expect(checkLrat(cnf, parseLrat('7 3 0 -5 1 3 -6 1 2 0\n8 0 7 5 2 4 0\n')).verdict).toBe('ACCEPTED');
  });

  describe('on LRAT trimmed from CaDiCaL’s proof of PHP(7,6)', () => {
    const cnf = pigeonhole(6);
    const drat = checkDrat(cnf, parseDrat(solveWithCadical(cnf).proof ?? Buffer.alloc(0)), { lrat: true });
    if (drat.verdict !== 'ACCEPTED' || drat.lrat === null) throw new Error('the DRAT proof of PHP(7,6) was not accepted');
    const steps = parseLrat(drat.lrat).steps;
    const additions = steps.flatMap((step, index) => (step.kind === 'add' && step.literals.length > 0 ? [index] : []));
    const middle = additions[Math.floor(additions.length / 2)] as number;

    it('accepts it', () => {
      expect(checkLrat(cnf, parseLrat(drat.lrat ?? ''))).toMatchObject({ verdict: 'ACCEPTED' });
    });

    it('rejects it with a step deleted, at the first step whose hints name it', () => {
      const removed = steps[middle] as LratStep;
      const edited = steps.filter((_, index) => index !== middle);
      const firstUse = edited.findIndex((step) => (step.kind === 'add' ? step.hints.some((h) => Math.abs(h) === removed.id) : step.ids.includes(removed.id)));
      expect(firstUse).toBeGreaterThanOrEqual(middle);
      expect(rejected(checkLrat(cnf, parseLrat(serializeLrat(edited))))).toMatchObject({ reason: 'UNKNOWN_CLAUSE', step: firstUse, clause_id: removed.id });
    });

    it('rejects it with a literal of a lemma altered, at that lemma', () => {
      const target = additions.find((index) => index >= middle && (steps[index] as Extract<LratStep, { kind: 'add' }>).literals.length >= 2) as number;
      const edited = steps.map((step, index) => {
        if (index !== target || step.kind !== 'add') return step;
        const literals = Int32Array.from(step.literals);
        literals[literals.length - 1] = -(literals[literals.length - 1] as number);
        return { ...step, literals };
      });
      expect(rejected(checkLrat(cnf, parseLrat(serializeLrat(edited))))).toMatchObject({ step: target });
    });

    it('rejects it without its empty clause', () => {
      const edited = steps.filter((step) => !(step.kind === 'add' && step.literals.length === 0));
      expect(rejected(checkLrat(cnf, parseLrat(serializeLrat(edited))))).toMatchObject({ reason: 'NO_EMPTY_CLAUSE' });
    });
  });
});
