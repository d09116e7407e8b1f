import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clauseOf, evaluatePropositional, formulaStats, parsePropositional, tseitin, type PropositionalFormula, type TseitinTarget } from '@jacobian/shared';
import { checkTseitinEncoding } from './tseitin-check.js';

/** The shared encoder's CNF as clause arrays: an independent implementation to test against. */
function encode(formula: PropositionalFormula, target: TseitinTarget): { variables: number; clauses: number[][]; atom_variables: Record<string, number> } {
  const encoding = tseitin(formula, target);
  const clauses: number[][] = [];
  for (let i = 0; i < encoding.cnf.clauseCount; i++) clauses.push(clauseOf(encoding.cnf, i));
  return { variables: encoding.cnf.variables, clauses, atom_variables: { ...encoding.atomVariables } };
}

const ATOMS = ['p', 'q', 'r'];
const formulaArbitrary: fc.Arbitrary<PropositionalFormula> = fc.letrec<{ f: PropositionalFormula }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...ATOMS).map((name): PropositionalFormula => ({ kind: 'atom', name })),
    tie('f').map((operand): PropositionalFormula => ({ kind: 'not', operand })),
    fc.array(tie('f'), { minLength: 2, maxLength: 3 }).map((operands): PropositionalFormula => ({ kind: 'and', operands })),
    fc.array(tie('f'), { minLength: 2, maxLength: 3 }).map((operands): PropositionalFormula => ({ kind: 'or', operands })),
    fc.tuple(tie('f'), tie('f')).map(([antecedent, consequent]): PropositionalFormula => ({ kind: 'implies', antecedent, consequent })),
    fc.tuple(tie('f'), tie('f')).map(([left, right]): PropositionalFormula => ({ kind: 'iff', left, right })),
  ),
})).f;

/**
 * Soundness by brute force: every assignment of the atoms that gives F the value the target
 * excludes (false for NEGATION, true for FORMULA) extends to a model of the clauses.
 */
function soundByBruteForce(formula: PropositionalFormula, target: TseitinTarget, variables: number, clauses: number[][], atomVariables: Record<string, number>): boolean {
  const atoms = formulaStats(formula).atoms;
  const atomVars = new Set(atoms.map((a) => atomVariables[a] as number));
  const others = Array.from({ length: variables }, (_, i) => i + 1).filter((v) => !atomVars.has(v));
  for (let mask = 0; mask < 1 << atoms.length; mask++) {
    const alpha: Record<string, boolean> = {};
    atoms.forEach((a, i) => (alpha[a] = ((mask >> i) & 1) === 1));
    if (evaluatePropositional(formula, alpha) !== (target === 'FORMULA')) continue;
    let extends_ = false;
    for (let rest = 0; rest < 1 << others.length && !extends_; rest++) {
      const value = new Map<number, boolean>();
      atoms.forEach((a) => value.set(atomVariables[a] as number, alpha[a] as boolean));
      others.forEach((v, i) => value.set(v, ((rest >> i) & 1) === 1));
      extends_ = clauses.every((c) => c.some((l) => (l > 0 ? value.get(l) : !value.get(-l))));
    }
    if (!extends_) return false;
  }
  return true;
}

describe('the checker\'s Tseitin encoding check', () => {
  it('accepts the shared encoder\'s CNF of random formulas and of their negations', () => {
    fc.assert(
      fc.property(formulaArbitrary, fc.constantFrom<TseitinTarget>('FORMULA', 'NEGATION'), (formula, target) => {
        const { variables, clauses, atom_variables } = encode(formula, target);
        expect(checkTseitinEncoding(formula, { target, atom_variables }, variables, clauses)).toMatchObject({ accepted: true, clauses_checked: clauses.length });
      }),
      { numRuns: 300 },
    );
  });

  it('accepts only sound encodings: whatever a random mutation of the CNF, an accepted one passes the brute-force soundness test', () => {
    let rejected = 0;
    fc.assert(
      fc.property(
        formulaArbitrary.filter((f) => tseitin(f, 'NEGATION').cnf.variables <= 10),
        fc.constantFrom<TseitinTarget>('FORMULA', 'NEGATION'),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('flip', 'add-unit', 'add-binary', 'swap-atoms', 'wrong-target'),
        (formula, target, a, b, mutation) => {
          const { variables, clauses, atom_variables } = encode(formula, target);
          const pick = (n: number): number => (n % variables) + 1;
          let mutated = clauses.map((c) => [...c]);
          let atoms = { ...atom_variables };
          let claimedTarget = target;
          if (mutation === 'flip') {
            const clause = mutated[a % mutated.length] as number[];
            clause[b % clause.length] = -(clause[b % clause.length] as number);
          } else if (mutation === 'add-unit') mutated.push([(b % 2 === 0 ? 1 : -1) * pick(a)]);
          else if (mutation === 'add-binary') mutated.push([pick(a), -pick(b)]);
          else if (mutation === 'swap-atoms') {
            const names = Object.keys(atoms);
            if (names.length >= 2) atoms = { ...atoms, [names[0] as string]: atoms[names[1] as string] as number, [names[1] as string]: atoms[names[0] as string] as number };
          } else claimedTarget = target === 'FORMULA' ? 'NEGATION' : 'FORMULA';
          mutated = mutated.filter((c) => c.length > 0);
          const result = checkTseitinEncoding(formula, { target: claimedTarget, atom_variables: atoms }, variables, mutated);
          if (result.accepted) expect(soundByBruteForce(formula, claimedTarget, variables, mutated, atoms)).toBe(true);
          else rejected++;
        },
      ),
      { numRuns: 400 },
    );
    expect(rejected).toBeGreaterThan(100);
  });

  it('names the clause that does not follow: an extra clause making the CNF of a non-valid formula unsatisfiable', () => {
    const formula = parsePropositional('p -> q');
    const { variables, clauses, atom_variables } = encode(formula, 'NEGATION');
    // p -> q is not valid. The unit clause [3] asserts the gate of p -> q beside the root unit [-3]:
    // the CNF becomes unsatisfiable, and says nothing about the formula.
    const result = checkTseitinEncoding(formula, { target: 'NEGATION', atom_variables }, variables, [...clauses, [3]]);
    expect(result).toMatchObject({ accepted: false, clause: clauses.length });
    if (!result.accepted) expect(result.message).toMatch(/clause 5 \[3\] does not follow/);
  });

  it('rejects atoms without a variable, shared variables, unknown atoms and variables that mean nothing', () => {
    const formula = parsePropositional('p & q');
    const { variables, clauses, atom_variables } = encode(formula, 'NEGATION');
    expect(checkTseitinEncoding(formula, { target: 'NEGATION', atom_variables: { p: 1 } }, variables, clauses)).toMatchObject({ accepted: false });
    expect(checkTseitinEncoding(formula, { target: 'NEGATION', atom_variables: { p: 1, q: 1 } }, variables, clauses)).toMatchObject({ accepted: false });
    expect(checkTseitinEncoding(formula, { target: 'NEGATION', atom_variables: { ...atom_variables, r: 3 } }, variables, clauses)).toMatchObject({ accepted: false });
    expect(checkTseitinEncoding(formula, { target: 'NEGATION', atom_variables }, variables + 1, [...clauses, [variables + 1, -1]])).toMatchObject({ accepted: false, clause: clauses.length });
  });
});
