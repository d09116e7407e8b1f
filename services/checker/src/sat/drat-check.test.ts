import { beforeAll, describe, expect, it } from 'vitest';
import { solveWithCadical } from './cadical.testing.js';
import { checkDrat, type DratCheckResult } from './drat-check.js';
import { checkLrat } from './lrat-check.js';
import {
  clauseOf,
  cnfFromClauses,
  dratFromSteps,
  dratStepClause,
  parseDrat,
  parseDratText,
  parseLrat,
  pigeonhole,
  randomKSat,
  serializeDratText,
  type Cnf,
  type DratProof,
} from './sat-domain.js';

/** The four clauses over two variables: unsatisfiable, but unit propagation alone finds nothing. */
const ALL_FOUR = [[1, 2], [-1, 2], [1, -2], [-1, -2]];

function proofOf(text: string): DratProof {
  return parseDratText(text);
}

function accepted(result: DratCheckResult): Extract<DratCheckResult, { verdict: 'ACCEPTED' }> {
  if (result.verdict !== 'ACCEPTED') throw new Error(`expected ACCEPTED, got ${result.reason}: ${result.message}`);
  return result;
}

function rejected(result: DratCheckResult): Extract<DratCheckResult, { verdict: 'REJECTED' }> {
  if (result.verdict !== 'REJECTED') throw new Error('expected REJECTED, got ACCEPTED');
  return result;
}

/**
 * An independent, deliberately naive RUP test: assign the negation of the lemma, then sweep all
 * clauses until nothing changes, looking for a falsified one. No watches, no trail order.
 */
function naiveRup(clauses: readonly (readonly number[])[], lemma: readonly number[]): boolean {
  const value = new Map<number, boolean>();
  const isTrue = (l: number): boolean => value.get(Math.abs(l)) === l > 0;
  const isFalse = (l: number): boolean => value.has(Math.abs(l)) && value.get(Math.abs(l)) !== l > 0;
  for (const l of lemma) {
    if (isTrue(l)) return true;
    value.set(Math.abs(l), l < 0);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const clause of clauses) {
      if (clause.some(isTrue)) continue;
      const open = clause.filter((l) => !isFalse(l));
      if (open.length === 0) return true;
      if (open.length === 1) {
        const l = open[0] as number;
        value.set(Math.abs(l), l > 0);
        changed = true;
      }
    }
  }
  return false;
}

/** The formula and every lemma added before `step` (deletions not applied: a superset). */
function clausesBefore(cnf: Cnf, proof: DratProof, step: number): number[][] {
  const clauses = Array.from({ length: cnf.clauseCount }, (_, i) => clauseOf(cnf, i));
  for (let i = 0; i < step; i++) if (proof.kinds[i] === 0) clauses.push(dratStepClause(proof, i));
  return clauses;
}

/** The proof with its steps rewritten by `edit` (which may drop or change them). */
function editProof(proof: DratProof, edit: (step: { delete: boolean; clause: number[] }, index: number) => { delete: boolean; clause: number[] } | null): DratProof {
  const steps: { delete: boolean; clause: number[] }[] = [];
  for (let i = 0; i < proof.stepCount; i++) {
    const edited = edit({ delete: proof.kinds[i] === 1, clause: dratStepClause(proof, i) }, i);
    if (edited !== null) steps.push(edited);
  }
  return parseDratText(serializeDratText(dratFromSteps(steps)));
}

function withoutClause(cnf: Cnf, index: number): Cnf {
  const clauses = Array.from({ length: cnf.clauseCount }, (_, i) => clauseOf(cnf, i));
  clauses.splice(index, 1);
  return cnfFromClauses(cnf.variables, clauses);
}

describe('checkDrat on hand-made proofs', () => {
  it('accepts a RUP refutation and reports its core; the LRAT it writes checks', () => {
    const cnf = cnfFromClauses(2, ALL_FOUR);
    const result = accepted(checkDrat(cnf, proofOf('1 0\n0\n'), { lrat: true }));
    expect(result.stats).toMatchObject({ lemmas: 2, core_lemmas: 1, rat_lemmas: 0, core_formula_clauses: 4 });
    expect(Array.from(result.core_lemma_steps)).toEqual([0]);
    expect(checkLrat(cnf, parseLrat(result.lrat ?? ''))).toMatchObject({ verdict: 'ACCEPTED' });
  });

  it('accepts a lemma that is RAT but not RUP (a fresh variable, as extended resolution introduces), which a RUP-only check rejects', () => {
    // The clauses propagate nothing until 3 is assumed; (3) is RAT on 3 vacuously, (-3 1) is RUP.
    const cnf = cnfFromClauses(2, ALL_FOUR);
    const proof = proofOf('3 0\n-3 1 0\n0\n');
    expect(naiveRup(clausesBefore(cnf, proof, 0), [3])).toBe(false);
    const result = accepted(checkDrat(cnf, proof, { lrat: true }));
    expect(result.stats.rat_lemmas).toBe(1);
    expect(Array.from(result.core_lemma_steps)).toEqual([0, 1]);
    expect(checkLrat(cnf, parseLrat(result.lrat ?? ''))).toMatchObject({ verdict: 'ACCEPTED', stats: { rat_lemmas: 1 } });
  });

  it('accepts a RAT lemma whose check resolves against a clause containing the negated pivot', () => {
    // (3) is not RUP; its resolvent with (-3 1) is (3 1), which is RUP.
    const cnf = cnfFromClauses(3, [...ALL_FOUR, [-3, 1]]);
    const proof = proofOf('3 0\n0\n');
    expect(naiveRup(clausesBefore(cnf, proof, 0), [3])).toBe(false);
    const result = accepted(checkDrat(cnf, proof, { lrat: true }));
    expect(result.stats.rat_lemmas).toBe(1);
    const lrat = result.lrat ?? '';
    expect(lrat.split('\n')[0]).toMatch(/^6 3 0 -5 /);
    expect(checkLrat(cnf, parseLrat(lrat))).toMatchObject({ verdict: 'ACCEPTED' });
  });

  it('rejects a lemma that is neither RUP nor RAT, naming the step, the pivot and the clause the RAT check fails on', () => {
    const cnf = cnfFromClauses(5, [...ALL_FOUR, [-3, 1], [-3, 5]]);
    const result = rejected(checkDrat(cnf, proofOf('c the lemma\n3 0\n0\n')));
    expect(result).toMatchObject({ reason: 'RAT_FAILED', step: 0, line: 2, lemma: [3], pivot: 3 });
    expect(result.rat_clause).toEqual({ origin: { kind: 'formula', index: 5 }, literals: [-3, 5] });
    expect(result.message).toContain('step 1 (line 2)');
  });

  it('rejects the RAT check against an earlier lemma, naming that lemma', () => {
    // (1 2) is satisfiable: (-1) is RAT-checked against (1 2) and fails.
    const cnf = cnfFromClauses(2, [[1, 2]]);
    const result = rejected(checkDrat(cnf, proofOf('-1 0\n-2 0\n0\n')));
    expect(result).toMatchObject({ reason: 'RAT_FAILED', step: 1, lemma: [-2], pivot: -2 });
    expect(result.rat_clause?.origin).toEqual({ kind: 'formula', index: 0 });
  });

  it('rejects an empty clause that does not follow by propagation', () => {
    const result = rejected(checkDrat(cnfFromClauses(2, [[1, 2]]), proofOf('1 0\n0\n')));
    expect(result).toMatchObject({ reason: 'NOT_RUP', step: 1, line: 2, lemma: [], pivot: null });
  });

  it('rejects a proof without the empty clause even when its clauses propagate to a conflict', () => {
    const result = rejected(checkDrat(cnfFromClauses(2, ALL_FOUR), proofOf('1 0\n')));
    expect(result).toMatchObject({ reason: 'NO_EMPTY_CLAUSE', step: 1, line: null });
  });

  it('ignores deletions of reason clauses and of absent clauses, and counts them', () => {
    // (-1) becomes the reason of ¬1 and its deletion is ignored, so (3) still follows; (7 8) is absent.
    const cnf = cnfFromClauses(4, [[-1, 2], [-1, -2], [1, 3, 4], [1, 3, -4], [1, -3, 4], [1, -3, -4]]);
    const result = accepted(checkDrat(cnf, proofOf('-1 0\nd -1 0\nd 7 8 0\n3 0\n0\n')));
    expect(result.stats).toMatchObject({ deletions: 2, ignored_reason_deletions: 1, ignored_missing_deletions: 1, core_lemmas: 2 });
  });

  it('applies deletions: a lemma that needs a deleted clause is rejected', () => {
    const cnf = cnfFromClauses(2, ALL_FOUR);
    // Without (1 -2), the unit (1) does not follow.
    const result = rejected(checkDrat(cnf, proofOf('d -2 1 0\n1 0\n0\n')));
    expect(result).toMatchObject({ step: 1, lemma: [1] });
  });

  it('accepts a formula that contains the empty clause, and tautologies and repeated literals in clauses', () => {
    expect(checkDrat(cnfFromClauses(1, [[1], []]), proofOf('0\n')).verdict).toBe('ACCEPTED');
    const cnf = cnfFromClauses(3, [...ALL_FOUR, [3, -3], [1, 1, 2]]);
    const result = accepted(checkDrat(cnf, proofOf('1 1 0\n2 -2 0\n0\n'), { lrat: true }));
    expect(checkLrat(cnf, parseLrat(result.lrat ?? ''))).toMatchObject({ verdict: 'ACCEPTED' });
  });

  it('stops when the checkpoint throws', () => {
    const cnf = pigeonhole(6);
    const { proof } = solveWithCadical(cnf);
    expect(() =>
      checkDrat(cnf, parseDrat(proof ?? Buffer.alloc(0)), {
        checkpoint: () => {
          throw new Error('deadline');
        },
      }),
    ).toThrow('deadline');
  });
});

/** The instances of the issue: pigeonhole PHP(n+1, n), n = 5 … 8, and unsatisfiable random 3-SAT at ratio 4.26 (seeds chosen once). */
const INSTANCES: { name: string; cnf: () => Cnf; lrat: boolean }[] = [
  ...[5, 6, 7, 8].map((n) => ({ name: `PHP(${n + 1},${n})`, cnf: () => pigeonhole(n), lrat: n <= 7 })),
  { name: 'random 3-SAT n=100 seed 3', cnf: () => randomKSat(100, 4.26, 3), lrat: true },
  { name: 'random 3-SAT n=150 seed 3', cnf: () => randomKSat(150, 4.26, 3), lrat: true },
  { name: 'random 3-SAT n=200 seed 1', cnf: () => randomKSat(200, 4.26, 1), lrat: false },
];

describe('checkDrat on CaDiCaL proofs', () => {
  it.each(INSTANCES)('accepts CaDiCaL’s DRAT proof of $name (and checks the LRAT trimmed from it)', ({ cnf: make, lrat }) => {
    const cnf = make();
    const answer = solveWithCadical(cnf);
    expect(answer.status).toBe('UNSATISFIABLE');
    const proof = parseDrat(answer.proof ?? Buffer.alloc(0));
    const result = accepted(checkDrat(cnf, proof, { lrat }));
    expect(result.stats.core_lemmas).toBeGreaterThan(0);
    expect(result.stats.core_lemmas).toBeLessThanOrEqual(result.stats.lemmas);
    if (lrat) expect(checkLrat(cnf, parseLrat(result.lrat ?? ''))).toMatchObject({ verdict: 'ACCEPTED' });
  });

  it('accepts CaDiCaL’s binary DRAT proof', () => {
    const cnf = pigeonhole(6);
    const answer = solveWithCadical(cnf, { binaryProof: true });
    const proof = parseDrat(answer.proof ?? Buffer.alloc(0));
    expect(proof.format).toBe('DRAT_BINARY');
    expect(checkDrat(cnf, proof).verdict).toBe('ACCEPTED');
  });

  describe.each([
    { name: 'PHP(8,7)', make: () => pigeonhole(7) },
    { name: 'random 3-SAT n=150 seed 3', make: () => randomKSat(150, 4.26, 3) },
  ])('mutations of the proof of $name', ({ make }) => {
    const cnf = make();
    let proof: DratProof;
    let original: Extract<DratCheckResult, { verdict: 'ACCEPTED' }>;
    let core: number[];
    let middle: number;
    beforeAll(() => {
      proof = parseDrat(solveWithCadical(cnf).proof ?? Buffer.alloc(0));
      original = accepted(checkDrat(cnf, proof));
      core = Array.from(original.core_lemma_steps);
      middle = core[Math.floor(core.length / 2)] as number;
    });

    /** A rejection must name a lemma that really is not RUP with respect to everything before it. */
    function expectGenuineFailure(mutatedCnf: Cnf, mutated: DratProof, result: DratCheckResult, atOrAfter: number): void {
      const failure = rejected(result);
      expect(failure.step).toBeGreaterThanOrEqual(atOrAfter);
      expect(failure.lemma).toEqual(dratStepClause(mutated, failure.step).filter((l, i, all) => all.indexOf(l) === i));
      expect(failure.line).toBe(mutated.lines[failure.step]);
      expect(naiveRup(clausesBefore(mutatedCnf, mutated, failure.step), failure.lemma ?? [])).toBe(false);
    }

    it('rejects the proof when an input clause of the core is removed from the CNF', () => {
      // The first core clause (in formula order) whose removal leaves a satisfiable formula: no proof may then be accepted.
      let smaller: Cnf | null = null;
      for (const index of original.core_formula) {
        const candidate = withoutClause(cnf, index);
        if (solveWithCadical(candidate).status === 'SATISFIABLE') {
          smaller = candidate;
          break;
        }
      }
      if (smaller === null) throw new Error('no core clause leaves a satisfiable formula when removed');
      expectGenuineFailure(smaller, proof, checkDrat(smaller, proof), 0);
    });

    it('rejects the proof with a core lemma deleted, naming a later step that needed it', () => {
      const mutated = editProof(proof, (step, i) => (i === middle ? null : step));
      expectGenuineFailure(cnf, mutated, checkDrat(cnf, mutated), middle);
    });

    it('rejects the proof with a literal of a core lemma altered', () => {
      const target = core.find((step) => step >= middle && dratStepClause(proof, step).length >= 2) as number;
      const mutated = editProof(proof, (step, i) => (i === target ? { ...step, clause: step.clause.map((l, k) => (k === step.clause.length - 1 ? -l : l)) } : step));
      expectGenuineFailure(cnf, mutated, checkDrat(cnf, mutated), target);
    });

    it('rejects the proof truncated before its empty clause', () => {
      let last = proof.stepCount - 1;
      while (!(proof.kinds[last] === 0 && proof.offsets[last] === proof.offsets[last + 1])) last--;
      const mutated = editProof(proof, (step, i) => (i >= last ? null : step));
      expect(rejected(checkDrat(cnf, mutated))).toMatchObject({ reason: 'NO_EMPTY_CLAUSE', step: last });
    });
  });
});
