/**
 * The checker's own test that a CNF is a sound definitional (Tseitin) encoding of a formula F or
 * of ¬F, so that a refutation of the CNF proves F unsatisfiable or valid. It shares nothing with
 * the encoder (shared/src/domains/propositional/tseitin.ts is not imported): it reads the formula
 * tree, gives each variable a meaning, and checks every clause against those meanings.
 *
 * Meanings: each atom is the variable the stored encoding names for it (distinct, in range);
 * each `and`, `or`, `->` and `<->` node gets the next variable after the atoms in post-order
 * (the encoder's documented numbering, taken as a hypothesis only: every clause is checked
 * against it, so a wrong guess rejects, it never accepts); `!` negates and a group is transparent.
 *
 * Soundness. Let α be any assignment of the atoms and extend it by giving each node variable the
 * value of its node under α. The check accepts only if every clause is either
 * (a) implied by the definition x_N ↔ op(children) of one node N, with the children's variables
 *     treated as free (a stronger condition than needed), so it holds under the extension; or
 * (b) the unit clause that asserts the root: [r] for target FORMULA, [¬r] for NEGATION, where r
 *     is the root's literal.
 * Then for target NEGATION every α that falsifies F extends to a model of the CNF; so if the CNF is
 * unsatisfiable, no α falsifies F: F is valid. For FORMULA, likewise, F is unsatisfiable. Variables
 * that occur in no clause do not matter; a clause over a variable with no meaning is rejected.
 */
import type { PropositionalFormula } from '@jacobian/shared';

/** A gate of the formula: its variable, operator and child literals. */
interface Gate {
  variable: number;
  op: 'and' | 'or' | 'implies' | 'iff';
  children: number[];
}

/** Why an encoding is not accepted, naming the clause (0-based) when one is at fault. */
export type EncodingCheckResult =
  | { accepted: true; gates: number; clauses_checked: number; root_literal: number }
  | { accepted: false; message: string; clause: number | null };

/** What the stored encoding says: which CNF variable each atom is, and which formula was encoded. */
export interface EncodingClaim {
  target: 'FORMULA' | 'NEGATION';
  atom_variables: Record<string, number>;
}

/**
 * Check that `clauses` (over variables 1 … `variables`) is a sound encoding of F (target FORMULA)
 * or ¬F (NEGATION) under the stated atom variables.
 *
 * @param checkpoint polled while checking; throw from it to stop.
 */
export function checkTseitinEncoding(formula: PropositionalFormula, encoding: EncodingClaim, variables: number, clauses: readonly (readonly number[])[], checkpoint: () => void = () => {}): EncodingCheckResult {
  const reject = (message: string, clause: number | null = null): EncodingCheckResult => ({ accepted: false, message, clause });
  // Atoms: every atom of F named once, to a distinct variable in range.
  const atomOf = new Map<number, string>();
  const atomVariable = new Map<string, number>();
  const collect = (f: PropositionalFormula): void => {
    switch (f.kind) {
      case 'atom':
        atomVariable.set(f.name, -1);
        return;
      case 'not':
        return collect(f.operand);
      case 'group':
        return collect(f.inner);
      case 'and':
      case 'or':
        for (const operand of f.operands) collect(operand);
        return;
      case 'implies':
        collect(f.antecedent);
        return collect(f.consequent);
      case 'iff':
        collect(f.left);
        return collect(f.right);
    }
  };
  collect(formula);
  for (const atom of atomVariable.keys()) {
    const v = Object.hasOwn(encoding.atom_variables, atom) ? encoding.atom_variables[atom] : undefined;
    if (v === undefined || !Number.isSafeInteger(v) || v < 1 || v > variables) return reject(`the encoding gives atom ${JSON.stringify(atom)} no variable in 1 … ${variables}`);
    if (atomOf.has(v)) return reject(`the encoding gives atoms ${JSON.stringify(atomOf.get(v))} and ${JSON.stringify(atom)} the same variable ${v}`);
    atomOf.set(v, atom);
    atomVariable.set(atom, v);
  }
  const extra = Object.keys(encoding.atom_variables).filter((name) => !atomVariable.has(name));
  if (extra.length > 0) return reject(`the encoding names atoms that are not in the formula: ${extra.slice(0, 5).map((a) => JSON.stringify(a)).join(', ')}`);

  // Gates: the next variable after the atoms for each binary or n-ary node, in post-order.
  const gateOf = new Map<number, Gate>();
  let next = atomVariable.size;
  const literal = (f: PropositionalFormula): number => {
    switch (f.kind) {
      case 'atom':
        return atomVariable.get(f.name) as number;
      case 'not':
        return -literal(f.operand);
      case 'group':
        return literal(f.inner);
      case 'and':
      case 'or': {
        const children = f.operands.map(literal);
        const variable = ++next;
        gateOf.set(variable, { variable, op: f.kind, children });
        return variable;
      }
      case 'implies': {
        const children = [literal(f.antecedent), literal(f.consequent)];
        const variable = ++next;
        gateOf.set(variable, { variable, op: 'implies', children });
        return variable;
      }
      case 'iff': {
        const children = [literal(f.left), literal(f.right)];
        const variable = ++next;
        gateOf.set(variable, { variable, op: 'iff', children });
        return variable;
      }
    }
  };
  const root = literal(formula);
  if (next > variables) return reject(`the formula needs ${next} variables (atoms and gates), the CNF has ${variables}`);
  const rootUnit = encoding.target === 'FORMULA' ? root : -root;

  for (const [index, clause] of clauses.entries()) {
    if (index % 256 === 0) checkpoint();
    if (clause.length === 1 && clause[0] === rootUnit) continue;
    const unknown = clause.find((l) => !atomOf.has(Math.abs(l)) && !gateOf.has(Math.abs(l)));
    if (unknown !== undefined) return reject(`clause ${index + 1} uses variable ${Math.abs(unknown)}, which stands for no atom or subformula of the formula`, index);
    if (isTautology(clause)) continue;
    const justified = clause.some((l) => {
      const gate = gateOf.get(Math.abs(l));
      return gate !== undefined && impliedByGate(gate, clause);
    });
    if (!justified) return reject(`clause ${index + 1} [${clause.join(' ')}] does not follow from the definition of any subformula in it, nor is it the unit clause [${rootUnit}] that asserts the ${encoding.target === 'FORMULA' ? 'formula' : 'negation of the formula'}`, index);
  }
  return { accepted: true, gates: gateOf.size, clauses_checked: clauses.length, root_literal: root };
}

function isTautology(clause: readonly number[]): boolean {
  const seen = new Set(clause);
  return clause.some((l) => seen.has(-l));
}

/**
 * Whether every assignment satisfying x ↔ op(children), the children's variables free, satisfies
 * the clause; i.e. no assignment falsifies the clause and satisfies the definition.
 */
function impliedByGate(gate: Gate, clause: readonly number[]): boolean {
  const scope = new Set<number>([gate.variable, ...gate.children.map(Math.abs)]);
  if (!clause.every((l) => scope.has(Math.abs(l)))) return false;
  // Falsifying the clause fixes each of its variables (it is no tautology: one value each).
  const fixed = new Map<number, boolean>();
  for (const l of clause) fixed.set(Math.abs(l), l < 0);
  // A child may be the gate's own variable only in a malformed encoding; fixed values cover it.
  const required = fixed.get(gate.variable);
  const values = reachableValues(gate, fixed);
  // The definition can hold with the clause false iff op can take x's value (x free: any value).
  if (required === undefined) return values.size === 0;
  return !values.has(required);
}

/** The values op(children) can take over completions of the children's free variables. */
function reachableValues(gate: Gate, fixed: ReadonlyMap<number, boolean>): Set<boolean> {
  const value = (l: number): boolean | undefined => {
    const v = fixed.get(Math.abs(l));
    return v === undefined ? undefined : l > 0 ? v : !v;
  };
  const out = new Set<boolean>();
  if (gate.op === 'and' || gate.op === 'or') {
    // For `or` the roles of true and false swap (De Morgan).
    const absorbing = gate.op === 'and' ? false : true;
    const values = gate.children.map(value);
    const free = gate.children.filter((l, i) => values[i] === undefined);
    const freeSet = new Set(free);
    // The absorbing value is reachable if some child is (or can be made) absorbing.
    if (values.some((v) => v === absorbing) || free.length > 0) out.add(absorbing);
    // The other value needs every child non-absorbing: none fixed absorbing, no free complementary pair.
    if (!values.some((v) => v === absorbing) && !free.some((l) => freeSet.has(-l))) out.add(!absorbing);
    return out;
  }
  // Binary: enumerate the free variables among the two children.
  const [a, b] = gate.children as [number, number];
  const freeVariables = [...new Set([Math.abs(a), Math.abs(b)])].filter((v) => !fixed.has(v));
  for (let mask = 0; mask < 1 << freeVariables.length; mask++) {
    const assignment = new Map(fixed);
    freeVariables.forEach((v, i) => assignment.set(v, ((mask >> i) & 1) === 1));
    const at = (l: number): boolean => (l > 0 ? (assignment.get(l) as boolean) : !(assignment.get(-l) as boolean));
    out.add(gate.op === 'implies' ? !at(a) || at(b) : at(a) === at(b));
  }
  return out;
}
