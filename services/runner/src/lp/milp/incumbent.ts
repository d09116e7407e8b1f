/**
 * From the decimals a solver printed to an exact point, checked exactly against the problem.
 *
 * Integer variables: the printed value is rounded to the nearest integer only when it is within
 * 1e-9 of it (compared exactly); otherwise the incumbent fails. Continuous variables: solvers
 * print 8 to 15 significant digits (CBC 8), so the printed decimal is seldom the exact vertex, and
 * when it is feasible it may be a hair worse than the vertex. Three candidates are made, and of
 * those that pass the exact check the one with the best objective is the incumbent:
 *   1. the vertex the solver was at: with the integers fixed, the continuous variables within a
 *      tolerance of a bound are set to it, and the rows within a tolerance of equality (and every
 *      equality row) solved exactly for the others: a square system with one solution by the matrix
 *      engine's fraction-free elimination, any other by sparse rational Gauss–Jordan, where the
 *      variables the system leaves free keep their printed values;
 *   2. each printed value replaced by the simplest fraction within 1e-9 of it (continued fractions);
 *   3. the values as printed (exact decimals).
 * Whatever passes was checked against every bound, row and integrality in rational arithmetic;
 * when none passes, the violations of the values as printed are reported.
 */
import { makeRational, RATIONALS, type Rational } from '@jacobian/shared';
import { ringEngine, type SolveResult } from '../../matrix/engine.js';
import { compare, objectiveValue, violations, type ExactMilp } from './exact-problem.js';

/** How the exact point was obtained from the printed one. */
export const IncumbentMethod = { AS_PRINTED: 'as-printed', VERTEX: 'vertex-solve', SIMPLEST_FRACTIONS: 'simplest-fractions' } as const;
export type IncumbentMethod = (typeof IncumbentMethod)[keyof typeof IncumbentMethod];

export type IncumbentCheck =
  | { verified: true; values: Rational[]; method: IncumbentMethod }
  | { verified: false; violations: string[] };

/** Tolerance for rounding an integer variable's printed value. */
const INTEGER_TOLERANCE = makeRational(1n, 10n ** 9n);
/** Tolerance (relative to 1 + |b|) for reading a row or bound as tight at the solver's point. */
const TIGHT_TOLERANCE = 1e-6;
/** The vertex solve gives up when its equations hold more entries than this (fill-in), to stay fast. */
const MAX_VERTEX_ENTRIES = 1_000_000;
/** The largest square system solved densely by the matrix engine. */
const MAX_DENSE_CELLS = 4_000_000;

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** The exact value of a decimal as printed; null when it is not one (or absurdly large). */
export function exactDecimal(text: string): Rational | null {
  const match = DECIMAL.exec(text);
  if (match === null) return null;
  const [, sign, whole = '', part = '', exponentText] = match;
  if (whole.length + part.length === 0) return null;
  const exponent = (exponentText === undefined ? 0 : Number(exponentText)) - part.length;
  if (Math.abs(exponent) > 400) return null;
  let num = BigInt(whole + part);
  let den = 1n;
  if (exponent >= 0) num *= 10n ** BigInt(exponent);
  else den = 10n ** BigInt(-exponent);
  return makeRational(sign === '-' ? -num : num, den);
}

const nearestInteger = (r: Rational): bigint => {
  const twice = 2n * r.num + r.den;
  const twiceDen = 2n * r.den;
  // floor((2num + den) / 2den) = floor(r + 1/2)
  return twice >= 0n ? twice / twiceDen : -((-twice + twiceDen - 1n) / twiceDen);
};

/** The simplest fraction within `tolerance` of `x` (Stern–Brocot by continued fractions). */
export function simplestWithin(x: Rational, tolerance: Rational): Rational {
  const lo = RATIONALS.sub(x, tolerance);
  const hi = RATIONALS.add(x, tolerance);
  return simplestBetween(lo, hi);
}

function simplestBetween(lo: Rational, hi: Rational): Rational {
  const floorLo = lo.num >= 0n ? lo.num / lo.den : -((-lo.num + lo.den - 1n) / lo.den);
  if (lo.num <= 0n && hi.num >= 0n) return RATIONALS.zero;
  if (hi.num < 0n) return RATIONALS.neg(simplestBetween(RATIONALS.neg(hi), RATIONALS.neg(lo)));
  // 0 < lo ≤ hi: the smallest integer ≥ lo, if ≤ hi; else recurse on the reciprocals of the fractional parts.
  const ceilLo = lo.den === 1n ? lo.num : floorLo + 1n;
  if (compare(RATIONALS.fromBigInt(ceilLo), hi) <= 0) return RATIONALS.fromBigInt(ceilLo);
  const whole = RATIONALS.fromBigInt(floorLo);
  const inner = simplestBetween(RATIONALS.inv(RATIONALS.sub(hi, whole)), RATIONALS.inv(RATIONALS.sub(lo, whole)));
  return RATIONALS.add(whole, RATIONALS.inv(inner));
}

/**
 * The exact incumbent from the solver's printed values (column order), checked exactly.
 * Integer variables more than 1e-9 from an integer, and unreadable values, fail at once.
 */
export function exactIncumbent(problem: ExactMilp, printed: readonly string[], signal?: AbortSignal): IncumbentCheck {
  const n = problem.names.length;
  const asPrinted: Rational[] = [];
  const approximate: number[] = [];
  for (let j = 0; j < n; j++) {
    const text = printed[j] ?? '';
    const value = exactDecimal(text);
    if (value === null) return { verified: false, violations: [`${problem.names[j]}: the solver printed "${text.slice(0, 40)}", not a number`] };
    approximate.push(Number(text));
    if (problem.integer[j] === true) {
      const k = nearestInteger(value);
      const distance = RATIONALS.sub(value, RATIONALS.fromBigInt(k));
      if (compare(distance.num < 0n ? RATIONALS.neg(distance) : distance, INTEGER_TOLERANCE) > 0) {
        return { verified: false, violations: [`the integer variable ${problem.names[j]} = ${text} is not within 1e-9 of an integer`] };
      }
      asPrinted.push(RATIONALS.fromBigInt(k));
    } else asPrinted.push(value);
  }
  const first = violations(problem, asPrinted);
  if (problem.integer.every((integer) => integer)) return first.length === 0 ? { verified: true, values: asPrinted, method: IncumbentMethod.AS_PRINTED } : { verified: false, violations: first };
  // Every candidate that passes the exact check; the best objective wins (the vertex on a tie),
  // so that a point printed a hair inside the feasible region does not stand for the vertex.
  signal?.throwIfAborted();
  const vertex = vertexSolve(problem, asPrinted, approximate, signal);
  const simplest = asPrinted.map((value, j) => (problem.integer[j] === true ? value : simplestWithin(value, INTEGER_TOLERANCE)));
  const candidates: [IncumbentMethod, Rational[] | null][] = [
    [IncumbentMethod.VERTEX, vertex],
    [IncumbentMethod.SIMPLEST_FRACTIONS, simplest],
    [IncumbentMethod.AS_PRINTED, asPrinted],
  ];
  let best: { values: Rational[]; method: IncumbentMethod; objective: Rational } | null = null;
  for (const [method, values] of candidates) {
    signal?.throwIfAborted();
    if (values === null || violations(problem, values).length > 0) continue;
    const value = objectiveValue(problem, values);
    const better = best === null || (problem.sense === 'minimize' ? compare(value, best.objective) < 0 : compare(value, best.objective) > 0);
    if (better) best = { values, method, objective: value };
  }
  return best === null ? { verified: false, violations: first } : { verified: true, values: best.values, method: best.method };
}

const tight = (value: number, target: Rational): boolean => {
  const b = Number(target.num) / Number(target.den);
  return Math.abs(value - b) <= TIGHT_TOLERANCE * (1 + Math.abs(b));
};

/** One equation Σ a_k y_k = rhs over the free columns k, sparse. */
interface SparseEquation {
  terms: Map<number, Rational>;
  rhs: Rational;
}

/**
 * Step 1 of the module comment, by sparse Gauss–Jordan elimination (a vertex has at most as
 * many free columns as tight rows, and rows are sparse); null when the system is inconsistent
 * or fills in past {@link MAX_VERTEX_ENTRIES}.
 */
function vertexSolve(problem: ExactMilp, exactPoint: readonly Rational[], approximate: readonly number[], signal: AbortSignal | undefined): Rational[] | null {
  const n = problem.names.length;
  const x = [...exactPoint];
  const free: number[] = [];
  for (let j = 0; j < n; j++) {
    if (problem.integer[j] === true) continue;
    const value = approximate[j] as number;
    const lower = problem.lower[j] ?? null;
    const upper = problem.upper[j] ?? null;
    if (lower !== null && tight(value, lower)) x[j] = lower;
    else if (upper !== null && tight(value, upper)) x[j] = upper;
    else free.push(j);
  }
  if (free.length === 0) return x;
  const position = new Map(free.map((j, k) => [j, k]));
  // Tight rows: Σ_free a_j x_j = b − Σ_fixed a_j x_j.
  const equations: SparseEquation[] = [];
  let entries = 0;
  for (const row of problem.rows) {
    const floatActivity = row.terms.reduce((s, [j, a]) => s + (Number(a.num) / Number(a.den)) * (approximate[j] as number), 0);
    if (row.relation !== '=' && !tight(floatActivity, row.rhs)) continue;
    const terms = new Map<number, Rational>();
    let rhs = row.rhs;
    for (const [j, a] of row.terms) {
      const k = position.get(j);
      if (k === undefined) rhs = RATIONALS.sub(rhs, RATIONALS.mul(a, x[j] as Rational));
      else terms.set(k, a);
    }
    if (terms.size === 0) {
      if (!RATIONALS.isZero(rhs)) return null;
      continue;
    }
    entries += terms.size;
    equations.push({ terms, rhs });
  }
  // A square system with one solution (the usual vertex: as many tight rows as free columns) goes
  // to our matrix engine's fraction-free elimination, far faster than rational Gauss–Jordan here.
  if (equations.length === free.length && equations.length * free.length <= MAX_DENSE_CELLS) {
    const A = equations.map((equation) => Array.from({ length: free.length }, (_, k) => equation.terms.get(k) ?? RATIONALS.zero));
    const solved = ringEngine({ kind: 'Q' }, () => signal?.throwIfAborted()).algebra.solve(A, equations.map((equation) => equation.rhs)) as SolveResult<Rational>;
    if (!solved.consistent) return null;
    if (solved.kernel.length === 0) {
      free.forEach((j, k) => {
        x[j] = solved.solution[k] as Rational;
      });
      return x;
    }
  }
  // How many equations each column is in (at the start: a static Markowitz count).
  const counts = new Array<number>(free.length).fill(0);
  for (const equation of equations) for (const k of equation.terms.keys()) counts[k] = (counts[k] as number) + 1;
  // Gauss–Jordan: each equation in turn, reduced by the pivots before it, takes a pivot and clears it from the others.
  const pivotOf: number[] = [];
  const done: SparseEquation[] = [];
  for (const equation of equations) {
    signal?.throwIfAborted();
    // Clear the pivot columns found so far (Gauss–Jordan keeps them out of later equations too).
    for (let i = 0; i < done.length; i++) {
      const column = pivotOf[i] as number;
      const factor = equation.terms.get(column);
      if (factor === undefined) continue;
      entries += subtractMultiple(equation, done[i] as SparseEquation, factor);
    }
    if (equation.terms.size === 0) {
      // 0 = rhs: consistent only when rhs is 0.
      if (!RATIONALS.isZero(equation.rhs)) return null;
      continue;
    }
    // The column in the fewest equations (fewest to clear, least fill-in), the lowest on a tie.
    let column = -1;
    for (const k of equation.terms.keys()) {
      const better = column < 0 || (counts[k] as number) < (counts[column] as number) || ((counts[k] as number) === (counts[column] as number) && k < column);
      if (better) column = k;
    }
    const inverse = RATIONALS.inv(equation.terms.get(column) as Rational);
    for (const [k, a] of equation.terms) equation.terms.set(k, RATIONALS.mul(a, inverse));
    equation.rhs = RATIONALS.mul(equation.rhs, inverse);
    // Clear the new pivot column from the equations already done.
    for (const other of done) {
      const factor = other.terms.get(column);
      if (factor !== undefined) entries += subtractMultiple(other, equation, factor);
    }
    if (entries > MAX_VERTEX_ENTRIES) return null;
    pivotOf.push(column);
    done.push(equation);
  }
  // Non-pivot columns keep their printed values; each pivot column follows from them.
  const pivots = new Set(pivotOf);
  done.forEach((equation, i) => {
    let value = equation.rhs;
    for (const [k, a] of equation.terms) if (!pivots.has(k)) value = RATIONALS.sub(value, RATIONALS.mul(a, x[free[k] as number] as Rational));
    x[free[pivotOf[i] as number] as number] = value;
  });
  return x;
}

/** target −= factor · source (sparse); the change in the number of entries. */
function subtractMultiple(target: SparseEquation, source: SparseEquation, factor: Rational): number {
  const before = target.terms.size;
  for (const [k, a] of source.terms) {
    const value = RATIONALS.sub(target.terms.get(k) ?? RATIONALS.zero, RATIONALS.mul(factor, a));
    if (RATIONALS.isZero(value)) target.terms.delete(k);
    else target.terms.set(k, value);
  }
  target.rhs = RATIONALS.sub(target.rhs, RATIONALS.mul(factor, source.rhs));
  return target.terms.size - before;
}
