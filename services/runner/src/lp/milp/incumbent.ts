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
 *      equality row) solved exactly for the others (rational Gaussian elimination); variables the
 *      system leaves free keep their printed values;
 *   2. each printed value replaced by the simplest fraction within 1e-9 of it (continued fractions);
 *   3. the values as printed (exact decimals).
 * Whatever passes was checked against every bound, row and integrality in rational arithmetic;
 * when none passes, the violations of the values as printed are reported.
 */
import { makeRational, RATIONALS, type Rational } from '@jacobian/shared';
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
/**
 * The vertex solve runs when its elimination (equations × free columns × the smaller of the two
 * rational operations) stays under this, so that it ends in well under a second.
 */
const MAX_VERTEX_OPERATIONS = 4_000_000;

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

/** Step 2 of the module comment; null when the system is too large or inconsistent. */
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
  const equations: Rational[][] = [];
  for (const row of problem.rows) {
    const floatActivity = row.terms.reduce((s, [j, a]) => s + (Number(a.num) / Number(a.den)) * (approximate[j] as number), 0);
    if (row.relation !== '=' && !tight(floatActivity, row.rhs)) continue;
    const coefficients: Rational[] = Array.from({ length: free.length + 1 }, () => RATIONALS.zero);
    let rhs = row.rhs;
    let touches = false;
    for (const [j, a] of row.terms) {
      const k = position.get(j);
      if (k === undefined) rhs = RATIONALS.sub(rhs, RATIONALS.mul(a, x[j] as Rational));
      else {
        coefficients[k] = a;
        touches = true;
      }
    }
    if (!touches) continue;
    coefficients[free.length] = rhs;
    equations.push(coefficients);
  }
  if (equations.length * (free.length + 1) * Math.min(equations.length, free.length) > MAX_VERTEX_OPERATIONS) return null;
  // Gauss–Jordan elimination over Q.
  const pivots: number[] = [];
  let r = 0;
  for (let c = 0; c < free.length && r < equations.length; c++) {
    const p = equations.findIndex((row, i) => i >= r && !RATIONALS.isZero(row[c] as Rational));
    if (p < 0) continue;
    signal?.throwIfAborted();
    [equations[r], equations[p]] = [equations[p] as Rational[], equations[r] as Rational[]];
    const pivotRow = equations[r] as Rational[];
    const inverse = RATIONALS.inv(pivotRow[c] as Rational);
    for (let k = c; k <= free.length; k++) pivotRow[k] = RATIONALS.mul(pivotRow[k] as Rational, inverse);
    for (let i = 0; i < equations.length; i++) {
      if (i === r) continue;
      const row = equations[i] as Rational[];
      const factor = row[c] as Rational;
      if (RATIONALS.isZero(factor)) continue;
      for (let k = c; k <= free.length; k++) row[k] = RATIONALS.sub(row[k] as Rational, RATIONALS.mul(factor, pivotRow[k] as Rational));
    }
    pivots.push(c);
    r++;
  }
  // A row 0 = b ≠ 0 left over: the rows read as tight are not all tight at any point.
  for (let i = r; i < equations.length; i++) if (!RATIONALS.isZero((equations[i] as Rational[])[free.length] as Rational)) return null;
  // Non-pivot columns keep their printed values; pivot columns follow from them.
  const pivotSet = new Set(pivots);
  free.forEach((j, k) => {
    if (!pivotSet.has(k)) x[j] = exactPoint[j] as Rational;
  });
  pivots.forEach((c, i) => {
    const row = equations[i] as Rational[];
    let value = row[free.length] as Rational;
    for (let k = 0; k < free.length; k++) if (!pivotSet.has(k) && !RATIONALS.isZero(row[k] as Rational)) value = RATIONALS.sub(value, RATIONALS.mul(row[k] as Rational, x[free[k] as number] as Rational));
    x[free[c] as number] = value;
  });
  return x;
}
