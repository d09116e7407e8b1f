/**
 * lp.solve's own check of the certificate it is about to return, in exact arithmetic, against the
 * conditions stated in shared/src/domains/lp/certificate.ts. It is not the independent checker
 * (lp.certificate.verify is): it exists so that a certificate that does not hold is never
 * returned, whatever went wrong in the solve.
 */
import { bigGcd, makeRational, parseCanonicalLpNumber, RATIONALS, type LpOutcome, type LpProblem, type Rational } from '@jacobian/shared';

/** The certificate fields as stored: sparse maps of canonical numbers. */
export interface CertificateTexts {
  outcome: LpOutcome;
  objective_value: string | null;
  primal: Record<string, string> | null;
  dual: Record<string, string> | null;
  reduced_costs: Record<string, string> | null;
  farkas: Record<string, string> | null;
  ray: Record<string, string> | null;
}

const Q = RATIONALS;
const cmp = (a: Rational, b: Rational): number => {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
};

function number(text: string | undefined): Rational {
  if (text === undefined) return Q.zero;
  const value = parseCanonicalLpNumber(text);
  if (value === null) throw new Error(`"${text.slice(0, 40)}" is not a canonical number`);
  return value;
}

/** A vector over one common denominator: v_k = nums_k / den. */
export interface Lifted {
  nums: Map<string, bigint>;
  den: bigint;
}

/**
 * Put a vector over one common denominator, so that sums of its products with the problem's
 * (small) coefficients need no gcd per term: one reduction per sum instead of one per product.
 */
export function lift(vector: Record<string, string>): Lifted {
  const values = Object.entries(vector).map(([name, text]) => [name, number(text)] as const);
  let den = 1n;
  for (const [, v] of values) if (den % v.den !== 0n) den = (den / bigGcd(den, v.den)) * v.den;
  return { nums: new Map(values.map(([name, v]) => [name, v.num * (den / v.den)])), den };
}

/** An unreduced sum n/d whose denominator is the lcm of the small denominators added in. */
export interface Accumulator {
  n: bigint;
  d: bigint;
}

/** acc += a·k for a small rational a and an integer k. */
export function addScaled(acc: Accumulator, a: Rational, k: bigint): void {
  if (a.den === acc.d) acc.n += a.num * k;
  else if (acc.d % a.den === 0n) acc.n += a.num * k * (acc.d / a.den);
  else {
    const g = bigGcd(acc.d, a.den);
    acc.n = acc.n * (a.den / g) + a.num * k * (acc.d / g);
    acc.d *= a.den / g;
  }
}

/** Σ a_k·v_k for a sparse form of canonical numbers and a lifted vector. */
export function dotLifted(coefficients: Record<string, string>, vector: Lifted): Rational {
  const sum: Accumulator = { n: 0n, d: 1n };
  for (const [name, a] of Object.entries(coefficients)) {
    const v = vector.nums.get(name);
    if (v !== undefined && v !== 0n) addScaled(sum, number(a), v);
  }
  return makeRational(sum.n, sum.d * vector.den);
}

/** Every condition the certificate breaks, in words; [] when it holds exactly. */
export function certificateFailures(problem: LpProblem, certificate: CertificateTexts): string[] {
  const failures: string[] = [];
  const minimize = problem.sense === 'minimize';
  const variables = problem.variables.map((v) => ({ name: v.name, lower: v.lower === null ? null : number(v.lower), upper: v.upper === null ? null : number(v.upper) }));
  const cost = (name: string): Rational => number(problem.objective[name]);
  const dot = (coefficients: Record<string, string>, vector: Record<string, string>): Rational => dotLifted(coefficients, lift(vector));
  /** Aᵀy as a map. */
  const transpose = (y: Record<string, string>): Map<string, Rational> => {
    const lifted = lift(y);
    const sums = new Map<string, Accumulator>();
    for (const row of problem.constraints) {
      const yi = lifted.nums.get(row.name);
      if (yi === undefined || yi === 0n) continue;
      for (const [name, a] of Object.entries(row.coefficients)) {
        let sum = sums.get(name);
        if (sum === undefined) sums.set(name, (sum = { n: 0n, d: 1n }));
        addScaled(sum, number(a), yi);
      }
    }
    return new Map([...sums].map(([name, sum]) => [name, makeRational(sum.n, sum.d * lifted.den)]));
  };
  /** Row multiplier signs: ≥ 0 on ≥ rows and ≤ 0 on ≤ rows (minimize, and Farkas), flipped for maximize. */
  const rowSigns = (y: Record<string, string>, flip: boolean, field: string): void => {
    for (const row of problem.constraints) {
      const num = number(y[row.name]).num;
      const s = (num > 0n ? 1 : num < 0n ? -1 : 0) * (flip ? -1 : 1);
      if (row.relation === '>=' && s < 0) failures.push(`${field}.${row.name}: wrong sign for a >= row`);
      if (row.relation === '<=' && s > 0) failures.push(`${field}.${row.name}: wrong sign for a <= row`);
    }
  };
  const feasible = (x: Record<string, string>): void => {
    const lifted = lift(x);
    for (const v of variables) {
      const value = number(x[v.name]);
      if (v.lower !== null && cmp(value, v.lower) < 0) failures.push(`primal.${v.name} is below its lower bound`);
      if (v.upper !== null && cmp(value, v.upper) > 0) failures.push(`primal.${v.name} is above its upper bound`);
    }
    for (const row of problem.constraints) {
      const c = cmp(dotLifted(row.coefficients, lifted), number(row.rhs));
      if ((row.relation === '<=' && c > 0) || (row.relation === '>=' && c < 0) || (row.relation === '=' && c !== 0)) failures.push(`row ${row.name} is violated by primal`);
    }
  };
  switch (certificate.outcome) {
    case 'OPTIMAL': {
      const x = certificate.primal ?? {};
      const y = certificate.dual ?? {};
      const d = certificate.reduced_costs ?? {};
      feasible(x);
      const g = transpose(y);
      rowSigns(y, !minimize, 'dual');
      let dualObjective = problem.constraints.reduce((s, row) => Q.add(s, Q.mul(number(row.rhs), number(y[row.name]))), Q.zero);
      for (const v of variables) {
        const dj = number(d[v.name]);
        if (!Q.equals(dj, Q.sub(cost(v.name), g.get(v.name) ?? Q.zero))) failures.push(`reduced_costs.${v.name} is not c − Aᵀy`);
        if (dj.num === 0n) continue;
        const needsLower = (dj.num > 0n) === minimize;
        const bound = needsLower ? v.lower : v.upper;
        if (bound === null) {
          failures.push(`reduced_costs.${v.name} has a sign that needs an infinite ${needsLower ? 'lower' : 'upper'} bound`);
          continue;
        }
        dualObjective = Q.add(dualObjective, Q.mul(dj, bound));
      }
      const c0 = number(problem.objective_constant);
      const primalValue = Q.add(dot(problem.objective, x), c0);
      const value = certificate.objective_value === null ? null : number(certificate.objective_value);
      if (value === null || !Q.equals(primalValue, value)) failures.push('objective_value is not c·x + c₀');
      if (!Q.equals(Q.add(dualObjective, c0), primalValue)) failures.push('the dual objective differs from the primal objective');
      break;
    }
    case 'INFEASIBLE': {
      const y = certificate.farkas ?? {};
      rowSigns(y, false, 'farkas');
      const g = transpose(y);
      const by = problem.constraints.reduce((s, row) => Q.add(s, Q.mul(number(row.rhs), number(y[row.name]))), Q.zero);
      let max = Q.zero;
      for (const v of variables) {
        const gj = g.get(v.name) ?? Q.zero;
        if (gj.num === 0n) continue;
        const bound = gj.num > 0n ? v.upper : v.lower;
        if (bound === null) {
          failures.push(`farkas: (Aᵀy).${v.name} needs an infinite bound`);
          continue;
        }
        max = Q.add(max, Q.mul(gj, bound));
      }
      if (cmp(max, by) >= 0) failures.push('farkas: max of (Aᵀy)·x over the bounds is not below b·y');
      break;
    }
    case 'UNBOUNDED': {
      const x = certificate.primal ?? {};
      const r = certificate.ray ?? {};
      feasible(x);
      const ray = lift(r);
      for (const row of problem.constraints) {
        const s = dotLifted(row.coefficients, ray).num;
        if ((row.relation === '>=' && s < 0n) || (row.relation === '<=' && s > 0n) || (row.relation === '=' && s !== 0n)) failures.push(`ray leaves row ${row.name}`);
      }
      for (const v of variables) {
        const rj = number(r[v.name]).num;
        if (v.lower !== null && rj < 0n) failures.push(`ray.${v.name} decreases a variable with a lower bound`);
        if (v.upper !== null && rj > 0n) failures.push(`ray.${v.name} increases a variable with an upper bound`);
      }
      const cr = dot(problem.objective, r).num;
      if (minimize ? cr >= 0n : cr <= 0n) failures.push('ray does not improve the objective');
      break;
    }
  }
  return failures;
}
