/**
 * One exact LP solve, as lp.solve runs it: an optional floating-point start from HiGHS, the exact
 * simplex from there, and our own exact check of the certificate before anything is returned.
 */
import { formatLpNumber, JacobianError, makeRational, RATIONALS, type LpProblem, type Rational } from '@jacobian/shared';
import { addScaled, certificateFailures, lift, type Accumulator, type CertificateTexts } from './certificate-check.js';
import { highsStart, type FloatStart } from './highs-start.js';
import { solveExact, type Checkpoint, type SimplexStats, type StartBasis } from './simplex.js';

export const EXACT_METHOD = 'exact bounded-variable primal simplex over the rationals (big integers, M = det(B)·B⁻¹ updated by integer-preserving pivots; phase 1 minimizes the sum of bound violations; Dantzig pricing, Bland after degenerate stalls)';

/** What served and how: the float start (if any) and the exact pivots it took. */
export interface SolveRecord {
  /** "HiGHS 1.15.1: Optimal" when HiGHS ran, null when the exact simplex started from the slack basis alone. */
  float_phase: string | null;
  /** Whether the exact simplex started from HiGHS's basis. */
  started_from_float_basis: boolean;
  stats: SimplexStats;
}

export interface LpSolution {
  certificate: CertificateTexts;
  record: SolveRecord;
}

type Highs = Parameters<typeof highsStart>[0];

const texts = (names: readonly string[], values: readonly Rational[]): Record<string, string> =>
  Object.fromEntries(names.flatMap((name, i) => {
    const value = values[i] as Rational;
    return value.num === 0n ? [] : [[name, formatLpNumber(value)]];
  }));

/**
 * Solve exactly. With `highs`, HiGHS's final basis is the start (a failure of HiGHS itself falls
 * back to `start` or the slack basis, said in the record). The certificate is checked against the problem
 * before it is returned; one that fails is an INTERNAL error, never an answer.
 */
export function solveLp(problem: LpProblem, options: { highs?: Highs | undefined; checkpoint?: Checkpoint; floatSeconds?: number; start?: StartBasis } = {}): LpSolution {
  let float: FloatStart | null = null;
  if (options.highs !== undefined) {
    try {
      float = highsStart(options.highs, problem, options.floatSeconds ?? 10);
    } catch (error) {
      float = { status: `failed: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`, basis: null, version: options.highs.version.string };
    }
  }
  const result = solveExact(problem, { ...(options.checkpoint === undefined ? {} : { checkpoint: options.checkpoint }), start: float?.basis ?? options.start });
  const variables = problem.variables.map((v) => v.name);
  const rows = problem.constraints.map((c) => c.name);
  const none = { objective_value: null, primal: null, dual: null, reduced_costs: null, farkas: null, ray: null };
  let certificate: CertificateTexts;
  switch (result.outcome) {
    case 'OPTIMAL': {
      const Q = RATIONALS;
      const parse = (text: string): Rational => Q.parseCanonical(text) ?? Q.zero;
      // d = c − Aᵀy and the value c·x + c₀, exactly, from the problem's own data (y over one denominator: one gcd per column).
      const dual = texts(rows, result.y);
      const y = lift(dual);
      const sums = new Map<string, Accumulator>();
      for (const row of problem.constraints) {
        const yi = y.nums.get(row.name);
        if (yi === undefined) continue;
        for (const [name, a] of Object.entries(row.coefficients)) {
          let sum = sums.get(name);
          if (sum === undefined) sums.set(name, (sum = { n: 0n, d: 1n }));
          addScaled(sum, parse(a), yi);
        }
      }
      const reduced = new Map<string, Rational>(
        variables.map((name) => {
          const sum = sums.get(name);
          const c = parse(problem.objective[name] ?? '0');
          return [name, sum === undefined ? c : Q.sub(c, makeRational(sum.n, sum.d * y.den))];
        }),
      );
      const value = problem.variables.reduce((s, v, j) => Q.add(s, Q.mul(parse(problem.objective[v.name] ?? '0'), result.x[j] as Rational)), parse(problem.objective_constant));
      certificate = {
        ...none,
        outcome: 'OPTIMAL',
        objective_value: formatLpNumber(value),
        primal: texts(variables, result.x),
        dual,
        reduced_costs: texts(variables, variables.map((name) => reduced.get(name) ?? Q.zero)),
      };
      break;
    }
    case 'INFEASIBLE':
      certificate = { ...none, outcome: 'INFEASIBLE', farkas: texts(rows, result.farkas) };
      break;
    case 'UNBOUNDED':
      certificate = { ...none, outcome: 'UNBOUNDED', primal: texts(variables, result.x), ray: texts(variables, result.ray) };
      break;
  }
  const failures = certificateFailures(problem, certificate);
  if (failures.length > 0) {
    throw new JacobianError('INTERNAL', `lp.solve produced a ${certificate.outcome} certificate that does not hold exactly (${failures.slice(0, 5).join('; ')}); it was not returned`, { data: { failures: failures.slice(0, 20) } });
  }
  return {
    certificate,
    record: { float_phase: float === null ? null : `HiGHS ${float.version}: ${float.status}`, started_from_float_basis: float?.basis != null, stats: result.stats },
  };
}
