/**
 * The Tseitin encoding of a propositional formula (or of its negation) into CNF, for deciding it
 * with a SAT solver. Each atom gets a variable 1 … k in order of first appearance (the map is
 * returned and stored with the CNF); each `and`, `or`, `->` and `<->` node gets one more variable
 * defined equivalent to it by a few clauses; `!` is a negated literal and a group is transparent.
 * The root literal (negated for ¬F) is a unit clause. The CNF is satisfiable exactly when the
 * encoded formula is, and a model's atom variables satisfy it: callers still recheck any model
 * by evaluating the formula itself, and a refutation of the CNF refutes the formula only through
 * this encoding's soundness.
 */
import { cnfFromClauses, type Cnf } from '../sat/dimacs.js';
import { formulaStats, type PropositionalFormula } from './syntax.js';

/** Which formula the CNF encodes: F itself, or ¬F. */
export type TseitinTarget = 'FORMULA' | 'NEGATION';

/** A CNF with what its variables mean. */
export interface TseitinEncoding {
  cnf: Cnf;
  target: TseitinTarget;
  /** Atom → its variable (1 … atoms.length, in order of first appearance). */
  atomVariables: Record<string, number>;
  /** The atoms in variable order. */
  atoms: string[];
  /** The literal equivalent to the formula F (before negation). */
  rootLiteral: number;
}

/**
 * Encode F (`target` FORMULA) or ¬F (NEGATION) as an equisatisfiable CNF.
 *
 * @example tseitin(parsePropositional('p -> p'), 'NEGATION').cnf // unsatisfiable
 */
export function tseitin(formula: PropositionalFormula, target: TseitinTarget): TseitinEncoding {
  const { atoms } = formulaStats(formula);
  const atomVariables: Record<string, number> = Object.create(null) as Record<string, number>;
  atoms.forEach((atom, i) => {
    atomVariables[atom] = i + 1;
  });
  let next = atoms.length;
  const clauses: number[][] = [];
  const literal = (f: PropositionalFormula): number => {
    switch (f.kind) {
      case 'atom':
        return atomVariables[f.name] as number;
      case 'not':
        return -literal(f.operand);
      case 'group':
        return literal(f.inner);
      case 'and': {
        const parts = f.operands.map(literal);
        const x = ++next;
        for (const c of parts) clauses.push([-x, c]);
        clauses.push([x, ...parts.map((c) => -c)]);
        return x;
      }
      case 'or': {
        const parts = f.operands.map(literal);
        const x = ++next;
        for (const c of parts) clauses.push([x, -c]);
        clauses.push([-x, ...parts]);
        return x;
      }
      case 'implies': {
        const a = literal(f.antecedent);
        const b = literal(f.consequent);
        const x = ++next;
        clauses.push([-x, -a, b], [x, a], [x, -b]);
        return x;
      }
      case 'iff': {
        const a = literal(f.left);
        const b = literal(f.right);
        const x = ++next;
        clauses.push([-x, -a, b], [-x, a, -b], [x, a, b], [x, -a, -b]);
        return x;
      }
    }
  };
  const rootLiteral = literal(formula);
  clauses.push([target === 'FORMULA' ? rootLiteral : -rootLiteral]);
  return { cnf: cnfFromClauses(next, clauses), target, atomVariables, atoms, rootLiteral };
}

/** The atoms' values in a model of a Tseitin CNF (one literal per variable, v or −v). */
export function atomAssignment(encoding: TseitinEncoding, model: readonly number[]): Record<string, boolean> {
  // No prototype: an atom may be named __proto__.
  const assignment: Record<string, boolean> = Object.create(null) as Record<string, boolean>;
  for (const atom of encoding.atoms) assignment[atom] = (model[(encoding.atomVariables[atom] as number) - 1] ?? 0) > 0;
  return assignment;
}
