/**
 * The problem as the MILP solvers read it: free MPS text, private to milp.solve (the general LP
 * and MPS writers of the LP domain can replace it; it is named for this one job).
 *
 * Exactness of what the solver sees. CBC and GLPK read every number into a double, and a decimal
 * such as 0.1 has no double, so the text carries integers only, each at most 2^53 in magnitude
 * (every such integer is a double exactly). Rows are scaled to integers exactly: a row a·x ≤ b
 * is multiplied by the positive rational lcm(denominators)/gcd(numerators); the objective
 * likewise, the factor remembered (negated for a maximization: MPS minimizes). A fractional
 * bound of an integer variable is rounded inwards (x ≥ 1/3 is x ≥ 1 for an integer x); a
 * fractional bound l of a continuous variable becomes the scaled row d·x ≥ n (l = n/d) with the
 * column bound ⌊l⌋, implied by it. A number that stays over 2^53 after this is refused (rule
 * solver-number-range). Decided here exactly, without a solver: an integer variable with no
 * integer between its bounds, a false row without variables, and an equality in integer
 * variables whose coefficients' gcd does not divide its right-hand side. Names are ours, never the request's: column j is x{j+1}, row i r{i+1}.
 */
import { bigGcd, JacobianError, makeRational, RATIONALS, type JsonPath, type LpRelation, type Rational } from '@jacobian/shared';
import type { ExactMilp } from './exact-problem.js';

/** The largest magnitude of a number written for the solver: every integer up to it is a double exactly. */
export const SOLVER_INTEGER_LIMIT = 2n ** 53n;

/** The rule a problem breaks when a number cannot be given to the solver exactly. */
export const SOLVER_NUMBER_RANGE_RULE = 'solver-number-range';

/** Where a row the solver sees comes from: a row of the problem, or a fractional bound of a continuous variable. */
export type FeedRow = { kind: 'row'; index: number } | { kind: 'lower' | 'upper'; column: number };

/** What was written, and what is needed to read the solver's answer back. */
export interface SolverFeed {
  /** Free MPS text (NAME … FREE, for CBC). */
  mps: string;
  /** Solver row r{i+1} is `rows[i]`. */
  rows: FeedRow[];
  columns: number;
  /** The solver's objective is `objectiveFactor` · c·x (c₀ not included); negative for a maximization. */
  objectiveFactor: Rational;
  hasIntegers: boolean;
  /** Problem rows that were scaled by a factor other than 1. */
  scaledRows: number;
}

/** The feed, or the exact reason the problem has no feasible point found while writing it. */
export type FeedResult = { feed: SolverFeed } | { infeasible: string };

const floorOf = (r: Rational): bigint => (r.num >= 0n ? r.num / r.den : -((-r.num + r.den - 1n) / r.den));
const ceilOf = (r: Rational): bigint => -floorOf(RATIONALS.neg(r));
const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/**
 * `values` times the positive rational that makes them coprime integers: lcm of the
 * denominators over gcd of the numerators (1 when all are zero).
 */
export function scaleToIntegers(values: readonly Rational[]): { integers: bigint[]; factor: Rational } {
  let lcm = 1n;
  for (const v of values) lcm = (lcm / bigGcd(lcm, v.den)) * v.den;
  const scaled = values.map((v) => v.num * (lcm / v.den));
  const gcd = scaled.reduce((g, n) => bigGcd(g, n), 0n);
  const divisor = gcd === 0n ? 1n : gcd;
  return { integers: scaled.map((n) => n / divisor), factor: makeRational(lcm, divisor) };
}

/**
 * Write `problem` for the solver. `at(field)` turns a field of the problem (e.g.
 * `['constraints', 2, 'rhs']`) into the request path errors name.
 *
 * @throws JacobianError INVALID_REQUEST (rule solver-number-range) when a number is over 2^53
 *   in magnitude after exact scaling.
 */
export function writeSolverMps(problem: ExactMilp, at: (field: JsonPath) => JsonPath): FeedResult {
  const n = problem.names.length;
  const refuse = (what: string, field: JsonPath): never => {
    throw new JacobianError('INVALID_REQUEST', `${what}: after exact scaling to integers it has a number over 2^53 in magnitude, which CBC and GLPK cannot read exactly (they read doubles) (rule ${SOLVER_NUMBER_RANGE_RULE})`, {
      path: at(field),
      data: { rule: SOLVER_NUMBER_RANGE_RULE },
      hint: 'scale the variable or the row so that its coefficients, right-hand side and bounds are smaller integers or simpler fractions',
    });
  };
  const fits = (values: readonly bigint[]): boolean => values.every((v) => abs(v) <= SOLVER_INTEGER_LIMIT);

  // Column entries: objective first, then rows in order.
  const entries: string[][] = Array.from({ length: n }, () => []);
  const rowLines: string[] = [];
  const rhsLines: string[] = [];
  const rows: FeedRow[] = [];
  const relationCode: Record<LpRelation, string> = { '<=': 'L', '=': 'E', '>=': 'G' };
  const addRow = (source: FeedRow, terms: readonly [number, bigint][], relation: LpRelation, rhs: bigint): void => {
    rows.push(source);
    const name = `r${rows.length}`;
    rowLines.push(` ${relationCode[relation]} ${name}`);
    for (const [j, a] of terms) entries[j]?.push(`${name} ${a}`);
    if (rhs !== 0n) rhsLines.push(` RHS ${name} ${rhs}`);
  };

  // The objective, scaled to coprime integers; the factor's sign makes MPS's minimization ours.
  const objective = scaleToIntegers(problem.objective.map(([, c]) => c));
  if (!fits(objective.integers)) refuse('the objective', ['objective']);
  const sign = problem.sense === 'maximize' ? -1n : 1n;
  problem.objective.forEach(([j], k) => entries[j]?.push(`obj ${sign * (objective.integers[k] as bigint)}`));
  const objectiveFactor = makeRational(sign * objective.factor.num, objective.factor.den);

  let scaledRows = 0;
  for (const row of problem.rows) {
    const field: JsonPath = ['constraints', row.index];
    if (row.terms.length === 0) {
      // 0 (≤ | = | ≥) b: decided here exactly; a true one is left out.
      const zeroHolds = row.relation === '<=' ? row.rhs.num >= 0n : row.relation === '>=' ? row.rhs.num <= 0n : row.rhs.num === 0n;
      if (!zeroHolds) return { infeasible: `row ${row.name} has no variables and reads 0 ${row.relation} ${RATIONALS.format(row.rhs)}, which is false` };
      continue;
    }
    const scaled = scaleToIntegers([...row.terms.map(([, a]) => a), row.rhs]);
    if (!fits(scaled.integers)) refuse(`row ${row.name}`, field);
    // An equality in integer variables only is solvable only if the gcd of its coefficients
    // divides its right-hand side (branch and bound may never find that out: 6x + 9y = 4).
    if (row.relation === '=' && row.terms.every(([j]) => problem.integer[j] === true)) {
      const rhs = scaled.integers.at(-1) as bigint;
      const gcd = scaled.integers.slice(0, -1).reduce((g, a) => bigGcd(g, a), 0n);
      if (rhs % gcd !== 0n) return { infeasible: `row ${row.name} is an equality in integer variables whose coefficients, scaled to coprime integers, have gcd ${gcd}, which does not divide its right-hand side ${rhs}` };
    }
    if (!RATIONALS.isOne(scaled.factor)) scaledRows++;
    addRow(
      { kind: 'row', index: row.index },
      row.terms.map(([j], k) => [j, scaled.integers[k] as bigint]),
      row.relation,
      scaled.integers.at(-1) as bigint,
    );
  }

  // Bounds: integers only in the BOUNDS section, fractional ones of continuous variables as rows.
  const boundLines: string[] = [];
  for (let j = 0; j < n; j++) {
    const name = `x${j + 1}`;
    const field: JsonPath = ['variables', j];
    const lowerExact = problem.lower[j] ?? null;
    const upperExact = problem.upper[j] ?? null;
    let lower: bigint | null = null;
    let upper: bigint | null = null;
    if (problem.integer[j] === true) {
      lower = lowerExact === null ? null : ceilOf(lowerExact);
      upper = upperExact === null ? null : floorOf(upperExact);
      if (lower !== null && upper !== null && lower > upper) {
        return { infeasible: `the integer variable ${problem.names[j]} has bounds ${RATIONALS.format(lowerExact as Rational)} ≤ x ≤ ${RATIONALS.format(upperExact as Rational)}, between which there is no integer` };
      }
    } else {
      for (const [side, bound] of [['lower', lowerExact], ['upper', upperExact]] as const) {
        if (bound === null) continue;
        const rounded = side === 'lower' ? floorOf(bound) : ceilOf(bound);
        if (side === 'lower') lower = rounded;
        else upper = rounded;
        if (bound.den === 1n) continue;
        if (!fits([bound.num, bound.den])) refuse(`the ${side} bound of ${problem.names[j]}`, [...field, side]);
        addRow({ kind: side, column: j }, [[j, bound.den]], side === 'lower' ? '>=' : '<=', bound.num);
      }
    }
    if (!fits([lower ?? 0n, upper ?? 0n])) refuse(`the bounds of ${problem.names[j]}`, field);
    if (lower !== null && upper !== null && lower === upper) boundLines.push(` FX BND ${name} ${lower}`);
    else {
      // Always both sides, lower first: readers differ on defaults (an integer column's upper
      // bound, a negative UP after a zero lower bound), so nothing is left to them.
      boundLines.push(lower === null ? ` MI BND ${name}` : ` LO BND ${name} ${lower}`);
      boundLines.push(upper === null ? ` PL BND ${name}` : ` UP BND ${name} ${upper}`);
    }
  }

  const columnLines: string[] = [];
  let inIntegers = false;
  for (let j = 0; j < n; j++) {
    const integer = problem.integer[j] === true;
    if (integer !== inIntegers) {
      columnLines.push(integer ? " MARKER 'MARKER' 'INTORG'" : " MARKER 'MARKER' 'INTEND'");
      inIntegers = integer;
    }
    const list = entries[j] as string[];
    // A column must appear to exist: one that is nowhere gets an explicit zero cost.
    for (const entry of list.length === 0 ? ['obj 0'] : list) columnLines.push(` x${j + 1} ${entry}`);
  }
  if (inIntegers) columnLines.push(" MARKER 'MARKER' 'INTEND'");

  const mps = ['NAME jacobian FREE', 'ROWS', ' N obj', ...rowLines, 'COLUMNS', ...columnLines, 'RHS', ...rhsLines, 'BOUNDS', ...boundLines, 'ENDATA', ''].join('\n');
  return { feed: { mps, rows, columns: n, objectiveFactor, hasIntegers: problem.integer.some((i) => i), scaledRows } };
}
