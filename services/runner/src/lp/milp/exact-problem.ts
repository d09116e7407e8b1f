/**
 * A stored linear program read into exact numbers by column index, and the exact check of a
 * candidate point against it: every bound, every row, and integrality, in rational arithmetic.
 * This check is what lets milp.solve call an incumbent feasible; the solver's word is not enough.
 */
import { JacobianError, parseCanonicalLpNumber, RATIONALS, type LpProblem, type LpRelation, type Rational } from '@jacobian/shared';

/** One row a·x (≤ | = | ≥) b with the coefficients by column index. */
export interface ExactRow {
  name: string;
  /** Position in the problem's constraints. */
  index: number;
  terms: [number, Rational][];
  relation: LpRelation;
  rhs: Rational;
}

/** A problem in exact numbers: column j is `names[j]`. */
export interface ExactMilp {
  sense: 'minimize' | 'maximize';
  names: string[];
  lower: (Rational | null)[];
  upper: (Rational | null)[];
  integer: boolean[];
  objective: [number, Rational][];
  objectiveConstant: Rational;
  rows: ExactRow[];
}

function exact(text: string): Rational {
  const value = parseCanonicalLpNumber(text);
  if (value === null) throw new JacobianError('INTERNAL', `a stored problem holds "${text.slice(0, 40)}", not a canonical number`);
  return value;
}

/** The exact numbers of a canonical stored problem (see canonicalLpProblem). */
export function exactMilp(problem: LpProblem): ExactMilp {
  const names = problem.variables.map((v) => v.name);
  const column = new Map(names.map((name, j) => [name, j]));
  const terms = (form: Record<string, string>): [number, Rational][] =>
    Object.entries(form).map(([name, value]) => {
      const j = column.get(name);
      if (j === undefined) throw new JacobianError('INTERNAL', `a stored problem names an undeclared variable "${name.slice(0, 40)}"`);
      return [j, exact(value)];
    });
  return {
    sense: problem.sense,
    names,
    lower: problem.variables.map((v) => (v.lower === null ? null : exact(v.lower))),
    upper: problem.variables.map((v) => (v.upper === null ? null : exact(v.upper))),
    integer: problem.variables.map((v) => v.integer),
    objective: terms(problem.objective),
    objectiveConstant: exact(problem.objective_constant),
    rows: problem.constraints.map((c, index) => ({ name: c.name, index, terms: terms(c.coefficients), relation: c.relation, rhs: exact(c.rhs) })),
  };
}

export const compare = (a: Rational, b: Rational): number => {
  const d = a.num * b.den - b.num * a.den;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};

/** Σ a_j x_j exactly. */
export function activity(terms: readonly [number, Rational][], x: readonly Rational[]): Rational {
  let sum = RATIONALS.zero;
  for (const [j, a] of terms) sum = RATIONALS.add(sum, RATIONALS.mul(a, x[j] as Rational));
  return sum;
}

/** Whether `value relation rhs` holds. */
export function holds(value: Rational, relation: LpRelation, rhs: Rational): boolean {
  const c = compare(value, rhs);
  return relation === '<=' ? c <= 0 : relation === '>=' ? c >= 0 : c === 0;
}

/** c·x + c₀ exactly. */
export function objectiveValue(problem: ExactMilp, x: readonly Rational[]): Rational {
  return RATIONALS.add(activity(problem.objective, x), problem.objectiveConstant);
}

/** Most violations listed for one point. */
const MAX_VIOLATIONS = 5;

/**
 * Every way `x` fails the problem (at most {@link MAX_VIOLATIONS}, in words): a bound, a row, or
 * an integer variable with a fractional value. [] means `x` is exactly feasible.
 */
export function violations(problem: ExactMilp, x: readonly Rational[]): string[] {
  const found: string[] = [];
  const add = (message: string): boolean => {
    found.push(message);
    return found.length >= MAX_VIOLATIONS;
  };
  const f = (r: Rational): string => RATIONALS.format(r);
  for (let j = 0; j < problem.names.length; j++) {
    const value = x[j] as Rational;
    const name = problem.names[j] as string;
    const lower = problem.lower[j] ?? null;
    const upper = problem.upper[j] ?? null;
    if (lower !== null && compare(value, lower) < 0 && add(`${name} = ${f(value)} is below its lower bound ${f(lower)}`)) return found;
    if (upper !== null && compare(value, upper) > 0 && add(`${name} = ${f(value)} is above its upper bound ${f(upper)}`)) return found;
    if (problem.integer[j] === true && value.den !== 1n && add(`${name} = ${f(value)} is not an integer`)) return found;
  }
  for (const row of problem.rows) {
    const value = activity(row.terms, x);
    if (!holds(value, row.relation, row.rhs) && add(`row ${row.name}: ${f(value)} ${row.relation} ${f(row.rhs)} is false`)) return found;
  }
  return found;
}
