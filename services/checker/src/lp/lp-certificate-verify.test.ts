import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize, canonicalLpCertificateClaim, canonicalLpProblem, makeRational, RATIONALS, type LpCertificateClaimInput, type LpProblemInput, type LpRelation, type Rational } from '@jacobian/shared';
import { checkLpCertificateClaim, LpRejectionReason } from './lp-certificate-verify.js';

// The tests build their certificates with shared's rationals, not with the checker's exact.ts.
const Q = RATIONALS;
const fmt = (a: Rational): string => Q.format(a);
const int = (k: number): Rational => Q.fromBigInt(BigInt(k));
const frac = (p: number, q: number): Rational => makeRational(BigInt(p), BigInt(q));
const sgn = (a: Rational): number => (a.num > 0n ? 1 : a.num < 0n ? -1 : 0);

type Certificate = Omit<LpCertificateClaimInput, 'problem' | 'problem_uri'>;

/** The stored claim the checker reads (through canonical JSON, as the store hands it back). */
function stored(problem: LpProblemInput, certificate: Certificate): unknown {
  return JSON.parse(canonicalize(canonicalLpCertificateClaim(certificate, canonicalLpProblem(problem))));
}
const check = (problem: LpProblemInput, certificate: Certificate) => checkLpCertificateClaim(stored(problem, certificate));

/**
 * min x + 2y  s.t.  demand: x + y ≥ 2,  cap: x ≤ 3/2,  x, y ≥ 0.
 * Optimum 5/2 at (3/2, 1/2), duals y = (2, −1), reduced costs 0.
 */
const small: LpProblemInput = {
  sense: 'minimize',
  variables: [{ name: 'x' }, { name: 'y' }],
  objective: { x: 1, y: 2 },
  constraints: [
    { name: 'demand', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 2 },
    { name: 'cap', coefficients: { x: 1 }, relation: '<=', rhs: '3/2' },
  ],
};
const smallOptimal: Certificate = { outcome: 'OPTIMAL', objective_value: '5/2', primal: { x: '3/2', y: '1/2' }, dual: { demand: 2, cap: -1 }, reduced_costs: {} };

describe('hand-made certificates of each outcome', () => {
  it('OPTIMAL: the small minimization, and the same problem as a maximization of −x − 2y with the maximization signs', () => {
    expect(check(small, smallOptimal)).toMatchObject({ accepted: true, message: expect.stringContaining('optimal value') as unknown });
    const flipped: LpProblemInput = { ...small, sense: 'maximize', objective: { x: -1, y: -2 } };
    expect(check(flipped, { outcome: 'OPTIMAL', objective_value: '-5/2', primal: { x: '3/2', y: '1/2' }, dual: { demand: -2, cap: 1 }, reduced_costs: {} })).toMatchObject({ accepted: true });
  });

  it('OPTIMAL with non-zero reduced costs at bounds, a free variable, an equality row and a constant', () => {
    // min 3a − b + c + 7  s.t.  e: a + c = 4 (y = 1),  a ∈ [1, 5], b ∈ (−∞, 2], c free.
    // x = (4, 2, 0)? c is free so its reduced cost must be 0: c_c = 1 = y_e, y_e = 1.
    // d_a = 3 − 1 = 2 > 0 needs a at its lower bound 1; d_b = −1 < 0 needs b at its upper bound 2.
    const problem: LpProblemInput = {
      sense: 'minimize',
      variables: [{ name: 'a', lower: 1, upper: 5 }, { name: 'b', lower: null, upper: 2 }, { name: 'c', lower: null }],
      objective: { a: 3, b: -1, c: 1 },
      objective_constant: 7,
      constraints: [{ name: 'e', coefficients: { a: 1, c: 1 }, relation: '=', rhs: 4 }],
    };
    // c·x + c₀ = 3 − 2 + 3 + 7 = 11; dual: b·y + d_a·l_a + d_b·u_b + c₀ = 4 + 2 − 2 + 7 = 11.
    expect(check(problem, { outcome: 'OPTIMAL', objective_value: 11, primal: { a: 1, b: 2, c: 3 }, dual: { e: 1 }, reduced_costs: { a: 2, b: -1 } })).toMatchObject({ accepted: true });
  });

  it('INFEASIBLE: a row against the bounds, and two contradicting rows over free variables', () => {
    const boxed: LpProblemInput = { sense: 'minimize', variables: [{ name: 'x', upper: 1 }, { name: 'y', upper: 1 }], objective: {}, constraints: [{ name: 'sum', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 3 }] };
    expect(check(boxed, { outcome: 'INFEASIBLE', farkas: { sum: 1 } })).toMatchObject({ accepted: true });
    const rows: LpProblemInput = {
      sense: 'maximize',
      variables: [{ name: 'x', lower: null }, { name: 'y', lower: null }],
      objective: { x: 1 },
      constraints: [
        { name: 'low', coefficients: { x: 1, y: 1 }, relation: '<=', rhs: 1 },
        { name: 'high', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 3 },
      ],
    };
    // Farkas signs do not depend on the sense.
    expect(check(rows, { outcome: 'INFEASIBLE', farkas: { low: '-1/2', high: '1/2' } })).toMatchObject({ accepted: true });
  });

  it('UNBOUNDED: max x + y with x − y ≤ 1, from x = 0 along (1, 1); and min −x with x free along (1)', () => {
    const problem: LpProblemInput = { sense: 'maximize', variables: [{ name: 'x' }, { name: 'y' }], objective: { x: 1, y: 1 }, constraints: [{ name: 'r1', coefficients: { x: 1, y: -1 }, relation: '<=', rhs: 1 }] };
    expect(check(problem, { outcome: 'UNBOUNDED', primal: {}, ray: { x: 1, y: 1 } })).toMatchObject({ accepted: true });
    const free: LpProblemInput = { sense: 'minimize', variables: [{ name: 'x', lower: null }], objective: { x: -1 }, constraints: [] };
    expect(check(free, { outcome: 'UNBOUNDED', primal: { x: -7 }, ray: { x: '1/3' } })).toMatchObject({ accepted: true });
  });
});

describe('certificates with numbers far larger than the data', () => {
  // min x2, r1: q·x1 = p, r2: q·x2 − p·x1 = 0, x free: x = (p/q, p²/q²), y = (p/q², 1/q). The data have
  // about 1000 bits; the optimum's numerator and denominator about 2000, over the data's 1024-bit limit.
  const p = 2n ** 1000n + 1n;
  const q = 3n ** 630n;
  const chain: LpProblemInput = {
    sense: 'minimize',
    variables: [{ name: 'x1', lower: null }, { name: 'x2', lower: null }],
    objective: { x2: 1 },
    constraints: [
      { name: 'r1', coefficients: { x1: q.toString() }, relation: '=', rhs: p.toString() },
      { name: 'r2', coefficients: { x1: (-p).toString(), x2: q.toString() }, relation: '=', rhs: 0 },
    ],
  };
  const value = `${p * p}/${q * q}`;
  const certificate: Certificate = { outcome: 'OPTIMAL', objective_value: value, primal: { x1: `${p}/${q}`, x2: value }, dual: { r1: `${p}/${q * q}`, r2: `1/${q}` }, reduced_costs: {} };

  it('accepts the exact certificate and rejects it with the last digit of the value changed', () => {
    expect(value.length).toBeGreaterThan(1000);
    expect(check(chain, certificate)).toMatchObject({ accepted: true });
    const off = `${p * p + 1n}/${q * q}`;
    expect(check(chain, { ...certificate, primal: { x1: `${p}/${q}`, x2: off } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.PRIMAL_ROW, witness: 'row r2', message: expect.stringMatching(new RegExp(`by 1/${q.toString().slice(0, 20)}\\d*…\\(303 chars\\)$`)) as unknown });
  });
});

describe('certificates the checker must reject', () => {
  it('a dual multiplier of the wrong sign on a ≥ row and on a ≤ row (with d recomputed, so only the sign is wrong)', () => {
    // y_cap = +1 on a ≤ row of a minimization; d = c − Aᵀy = (1 − 2 − 1, 2 − 2) = (−2, 0).
    expect(check(small, { ...smallOptimal, dual: { demand: 2, cap: 1 }, reduced_costs: { x: -2 } })).toMatchObject({
      accepted: false,
      reason_code: LpRejectionReason.DUAL_SIGN,
      path: ['dual', 'cap'],
      message: expect.stringMatching(/row cap \(≤\) of a minimization: y = 1, but must be ≤ 0/) as unknown,
    });
    expect(check(small, { ...smallOptimal, dual: { demand: -1 }, reduced_costs: { x: 2, y: 3 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.DUAL_SIGN, path: ['dual', 'demand'] });
  });

  it('a Farkas multiplier of the wrong sign on a ≥ row and on a ≤ row', () => {
    const rows: LpProblemInput = {
      sense: 'minimize',
      variables: [{ name: 'x', lower: null }],
      objective: {},
      constraints: [
        { name: 'low', coefficients: { x: 1 }, relation: '<=', rhs: 1 },
        { name: 'high', coefficients: { x: 1 }, relation: '>=', rhs: 3 },
      ],
    };
    expect(check(rows, { outcome: 'INFEASIBLE', farkas: { low: -1, high: 1 } })).toMatchObject({ accepted: true });
    // (1, −1) has Aᵀy = 0 too; only the signs are wrong.
    expect(check(rows, { outcome: 'INFEASIBLE', farkas: { low: 1, high: -1 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.FARKAS_SIGN, path: ['farkas', 'low'] });
    expect(check(rows, { outcome: 'INFEASIBLE', farkas: { low: -1, high: -1 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.FARKAS_SIGN, path: ['farkas', 'high'] });
  });

  it('a Farkas sum not strictly below b·y: equal, above, and the zero certificate (the original product\'s bug)', () => {
    const boxed = (rhs: number): LpProblemInput => ({ sense: 'minimize', variables: [{ name: 'x', upper: 1 }, { name: 'y', upper: 1 }], objective: {}, constraints: [{ name: 'sum', coefficients: { x: 1, y: 1 }, relation: '>=', rhs }] });
    expect(check(boxed(2), { outcome: 'INFEASIBLE', farkas: { sum: 1 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.FARKAS_NOT_STRICT, message: expect.stringContaining('= 2 ≥ b·y = 2') as unknown });
    expect(check(boxed(1), { outcome: 'INFEASIBLE', farkas: { sum: 5 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.FARKAS_NOT_STRICT, message: expect.stringContaining('by 5') as unknown });
    expect(check(boxed(3), { outcome: 'INFEASIBLE', farkas: {} })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.FARKAS_NOT_STRICT });
  });

  it('a Farkas certificate that uses an infinite bound, and a reduced cost whose sign needs one', () => {
    // x + y ≥ 3 with x ≤ 1 and y unbounded above: y = 1 needs u_y, which is +∞.
    const open: LpProblemInput = { sense: 'minimize', variables: [{ name: 'x', upper: 1 }, { name: 'y' }], objective: {}, constraints: [{ name: 'sum', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 3 }] };
    expect(check(open, { outcome: 'INFEASIBLE', farkas: { sum: 1 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.FARKAS_INFINITE_BOUND, witness: 'variable y' });
    // min −y, y ≥ 0 with no upper bound, "optimal" at y = 0 with d_y = −1 < 0, which needs a finite upper bound.
    const unbounded: LpProblemInput = { sense: 'minimize', variables: [{ name: 'y' }], objective: { y: -1 }, constraints: [] };
    expect(check(unbounded, { outcome: 'OPTIMAL', objective_value: 0, primal: {}, dual: {}, reduced_costs: { y: -1 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.REDUCED_COST_SIGN, path: ['reduced_costs', 'y'] });
  });

  it('reduced costs not equal to c − Aᵀy', () => {
    expect(check(small, { ...smallOptimal, reduced_costs: { y: '1/3' } })).toMatchObject({
      accepted: false,
      reason_code: LpRejectionReason.REDUCED_COST_MISMATCH,
      path: ['reduced_costs', 'y'],
      message: expect.stringContaining('variable y: d = 1/3, but c − (Aᵀy) = 2 − 2 = 0, off by 1/3') as unknown,
    });
  });

  it('a primal point infeasible by 1/10^30, in a row and at a bound', () => {
    const tiny = `1/${10n ** 30n}`;
    const below = fmt(Q.sub(frac(1, 2), Q.parseCanonical(tiny) as Rational));
    expect(check(small, { ...smallOptimal, primal: { x: '3/2', y: below } })).toMatchObject({
      accepted: false,
      reason_code: LpRejectionReason.PRIMAL_ROW,
      witness: 'row demand',
      message: expect.stringContaining(`, by ${tiny}`) as unknown,
    });
    expect(check(small, { ...smallOptimal, primal: { x: '3/2', y: `-${tiny}` } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.PRIMAL_BOUND, path: ['primal', 'y'] });
    const above = fmt(Q.add(frac(3, 2), Q.parseCanonical(tiny) as Rational));
    expect(check(small, { ...smallOptimal, primal: { x: above, y: '1/2' } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.PRIMAL_ROW, witness: 'row cap', message: expect.stringMatching(/row cap \(≤\): a·x = .+ > rhs 3\/2, by 1\/10{30}$/) as unknown });
  });

  it('a dual objective different from the primal one (dual feasible, but not optimal)', () => {
    // y = (1, 0): d = (0, 1), signs fine; dual objective 2 ≠ 5/2.
    expect(check(small, { ...smallOptimal, dual: { demand: 1 }, reduced_costs: { y: 1 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.DUAL_OBJECTIVE_MISMATCH, message: expect.stringContaining('duality gap of 1/2') as unknown });
    // A claimed value that is not c·x + c₀.
    expect(check(small, { ...smallOptimal, objective_value: 2 })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.OBJECTIVE_MISMATCH, path: ['objective_value'] });
    // A feasible but non-optimal x with its own value: no dual certificate can close the gap.
    expect(check(small, { ...smallOptimal, objective_value: 4, primal: { x: 0, y: 2 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.DUAL_OBJECTIVE_MISMATCH });
  });

  it('a ray that does not improve (c·r = 0), that leaves a bound, or a row', () => {
    const problem: LpProblemInput = { sense: 'maximize', variables: [{ name: 'x' }, { name: 'y' }], objective: { x: 1, y: -1 }, constraints: [{ name: 'r1', coefficients: { x: 1, y: -1 }, relation: '<=', rhs: 1 }] };
    expect(check(problem, { outcome: 'UNBOUNDED', primal: {}, ray: { x: 1, y: 1 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.RAY_NOT_IMPROVING, message: expect.stringContaining('c·r = 0') as unknown });
    expect(check(problem, { outcome: 'UNBOUNDED', primal: {}, ray: { x: -1 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.RAY_BOUND, path: ['ray', 'x'] });
    expect(check(problem, { outcome: 'UNBOUNDED', primal: {}, ray: { x: 1 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.RAY_ROW, witness: 'row r1' });
    // The right ray, but from an infeasible point.
    expect(check({ ...problem, objective: { x: 1, y: 1 } }, { outcome: 'UNBOUNDED', primal: { x: 2 }, ray: { x: 1, y: 1 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.PRIMAL_ROW });
  });

  it('a maximization certified with minimization signs', () => {
    const flipped: LpProblemInput = { ...small, sense: 'maximize', objective: { x: -1, y: -2 } };
    // The minimization's duals (2, −1), with d = c − Aᵀy = (−1 − 1, −2 − 2) recomputed: condition 2 holds, the signs do not.
    expect(check(flipped, { outcome: 'OPTIMAL', objective_value: '-5/2', primal: { x: '3/2', y: '1/2' }, dual: { demand: 2, cap: -1 }, reduced_costs: { x: -2, y: -4 } })).toMatchObject({
      accepted: false,
      reason_code: LpRejectionReason.DUAL_SIGN,
      path: ['dual', 'demand'],
      message: expect.stringContaining('a maximization flips the signs') as unknown,
    });
    // An unbounded "ray" of a maximization that decreases the objective.
    const up: LpProblemInput = { sense: 'maximize', variables: [{ name: 'x' }], objective: { x: -1 }, constraints: [] };
    expect(check(up, { outcome: 'UNBOUNDED', primal: {}, ray: { x: 1 } })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.RAY_NOT_IMPROVING });
  });

  it('never reads a claim whose vectors name rows or variables the problem lacks', () => {
    const claim = stored(small, smallOptimal) as Record<string, unknown>;
    expect(() => checkLpCertificateClaim({ ...claim, dual: { demand: '2', nowhere: '1' } })).toThrow(/not a row of the problem/);
    expect(() => checkLpCertificateClaim({ ...claim, primal: { x: '3/2', z: '1/2' } })).toThrow(/not a variable of the problem/);
  });

  it('never reads a claim whose vectors or rows hold anything but canonical number texts', () => {
    const claim = stored(small, smallOptimal) as { problem: { constraints: { coefficients: Record<string, unknown> }[] } } & Record<string, unknown>;
    const [demand, cap] = claim.problem.constraints;
    const withRow = (coefficients: unknown): unknown => ({ ...claim, problem: { ...claim.problem, constraints: [{ ...demand, coefficients }, cap] } });
    expect(() => checkLpCertificateClaim({ ...claim, dual: { demand: 2, cap: '-1' } })).toThrow(/rule canonical/);
    expect(() => checkLpCertificateClaim({ ...claim, primal: { x: '6/4', y: '1/2' } })).toThrow(/rule canonical/);
    expect(() => checkLpCertificateClaim({ ...claim, primal: ['3/2', '1/2'] })).toThrow(/expected a JSON object/);
    expect(() => checkLpCertificateClaim(withRow({ x: 1, y: '1' }))).toThrow(/rule canonical/);
    expect(() => checkLpCertificateClaim(withRow({ x: '1', y: '2/2' }))).toThrow(/rule canonical/);
    expect(() => checkLpCertificateClaim(withRow({ x: '1', w: '1' }))).toThrow(/not a declared variable/);
    expect(() => checkLpCertificateClaim(withRow(null))).toThrow(/expected a JSON object/);
  });
});

// ------------------------------------------------------------------------------------------------
// Random LPs with a known certificate, built backwards (complementary slackness for OPTIMAL).

/** Draws small integers from a fast-check array, cycling. */
function drawer(values: readonly number[]): (k: number) => number {
  let i = 0;
  return (k) => {
    const v = values[i++ % values.length] ?? 0;
    return ((v % k) + k) % k;
  };
}
const RELATIONS: LpRelation[] = ['<=', '=', '>='];
const dot = (a: readonly Rational[], b: readonly Rational[]): Rational => a.reduce((s, ai, j) => Q.add(s, Q.mul(ai, b[j] as Rational)), Q.zero);
const sparse = (v: readonly Rational[], names: readonly string[]): Record<string, string> => Object.fromEntries(v.flatMap((a, j) => (sgn(a) === 0 ? [] : [[names[j] as string, fmt(a)]])));
const draws = fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 40, maxLength: 160 });

interface Built {
  problem: LpProblemInput;
  certificate: Certificate;
}

/**
 * An LP with a known optimum: choose x, which rows are tight, y on the tight rows and d at the
 * bounds x sits on, both with the signs of the sense; then b from x and c = d + Aᵀy. The dual
 * objective equals c·x by complementary slackness.
 */
function optimalLp(draw: (k: number) => number, sense: 'minimize' | 'maximize'): Built & { A: Rational[][]; y: Rational[]; c: Rational[]; names: string[]; rowNames: string[] } {
  const flip = sense === 'minimize' ? 1 : -1;
  const n = 1 + draw(5);
  const m = draw(6);
  const names = Array.from({ length: n }, (_, j) => `x${j + 1}`);
  const rowNames = Array.from({ length: m }, (_, i) => `r${i + 1}`);
  const x = names.map(() => frac(draw(11) - 5, 1 + draw(3)));
  const variables: LpProblemInput['variables'] = [];
  const d: Rational[] = [];
  for (const [j, name] of names.entries()) {
    const xj = x[j] as Rational;
    const kind = draw(5);
    const room = int(1 + draw(3));
    if (kind === 0) {
      variables.push({ name, lower: fmt(xj), upper: draw(2) === 0 ? null : fmt(Q.add(xj, room)) });
      d.push(int(flip * draw(4)));
    } else if (kind === 1) {
      variables.push({ name, lower: draw(2) === 0 ? null : fmt(Q.sub(xj, room)), upper: fmt(xj) });
      d.push(int(-flip * draw(4)));
    } else if (kind === 2) {
      variables.push({ name, lower: fmt(Q.sub(xj, room)), upper: draw(2) === 0 ? null : fmt(Q.add(xj, room)) });
      d.push(Q.zero);
    } else if (kind === 3) {
      variables.push({ name, lower: null, upper: null });
      d.push(Q.zero);
    } else {
      variables.push({ name, lower: fmt(xj), upper: fmt(xj) });
      d.push(frac(draw(7) - 3, 1 + draw(2)));
    }
  }
  const A = rowNames.map(() => names.map(() => int(draw(7) - 3)));
  const constraints: LpProblemInput['constraints'] = [];
  const y: Rational[] = [];
  for (const [i, name] of rowNames.entries()) {
    const relation = RELATIONS[draw(3)] as LpRelation;
    const activity = dot(A[i] as Rational[], x);
    const tight = relation === '=' || draw(2) === 0;
    let rhs = activity;
    if (tight) y.push(relation === '=' ? frac(draw(7) - 3, 1 + draw(2)) : int(flip * (relation === '>=' ? 1 : -1) * draw(4)));
    else {
      rhs = relation === '>=' ? Q.sub(activity, int(1 + draw(3))) : Q.add(activity, int(1 + draw(3)));
      y.push(Q.zero);
    }
    constraints.push({ name, coefficients: sparse(A[i] as Rational[], names), relation, rhs: fmt(rhs) });
  }
  const c = names.map((_, j) => Q.add(d[j] as Rational, dot(A.map((row) => row[j] as Rational), y)));
  const c0 = int(draw(5) - 2);
  const value = Q.add(dot(c, x), c0);
  return {
    problem: { sense, variables, objective: sparse(c, names), objective_constant: fmt(c0), constraints },
    certificate: { outcome: 'OPTIMAL', objective_value: fmt(value), primal: sparse(x, names), dual: sparse(y, rowNames), reduced_costs: sparse(d, names) },
    A,
    y,
    c,
    names,
    rowNames,
  };
}

/** An infeasible system with its Farkas certificate: y of the right signs, bounds finite where Aᵀy needs them, b with b·y above the bound sum by `margin`. */
function infeasibleLp(draw: (k: number) => number, margin: Rational): Built & { y: Rational[]; g: Rational[]; rowNames: string[] } {
  const n = 1 + draw(4);
  const m = 1 + draw(5);
  const names = Array.from({ length: n }, (_, j) => `v${j + 1}`);
  const rowNames = Array.from({ length: m }, (_, i) => `c${i + 1}`);
  const A = rowNames.map(() => names.map(() => int(draw(9) - 4)));
  const relations = rowNames.map(() => RELATIONS[draw(3)] as LpRelation);
  const y = relations.map((relation) => (relation === '=' ? int(draw(7) - 3) : int((relation === '>=' ? 1 : -1) * draw(4))));
  if (sgn(y[0] as Rational) === 0) y[0] = int(relations[0] === '<=' ? -1 : 1);
  const g = names.map((_, j) => dot(A.map((row) => row[j] as Rational), y));
  const lower: (Rational | null)[] = names.map(() => (draw(3) === 0 ? null : int(draw(5) - 2)));
  const upper: (Rational | null)[] = lower.map((l) => (draw(3) === 0 ? null : Q.add(l ?? Q.zero, int(draw(4)))));
  for (const [j, gj] of g.entries()) {
    if (sgn(gj) > 0 && upper[j] === null) upper[j] = Q.add(lower[j] ?? Q.zero, int(draw(3)));
    if (sgn(gj) < 0 && lower[j] === null) lower[j] = Q.sub(upper[j] ?? Q.zero, int(draw(3)));
  }
  const max = g.reduce((s, gj, j) => Q.add(s, sgn(gj) === 0 ? Q.zero : Q.mul(gj, (sgn(gj) > 0 ? upper[j] : lower[j]) as Rational)), Q.zero);
  const b = rowNames.map(() => int(draw(11) - 5));
  // b₀ so that b·y = max + margin.
  const rest = b.slice(1).reduce((s, bi, i) => Q.add(s, Q.mul(bi, y[i + 1] as Rational)), Q.zero);
  b[0] = Q.div(Q.sub(Q.add(max, margin), rest), y[0] as Rational);
  return {
    problem: {
      sense: 'minimize',
      variables: names.map((name, j) => ({ name, lower: lower[j] === null ? null : fmt(lower[j] as Rational), upper: upper[j] === null ? null : fmt(upper[j] as Rational) })),
      objective: {},
      constraints: rowNames.map((name, i) => ({ name, coefficients: sparse(A[i] as Rational[], names), relation: relations[i] as LpRelation, rhs: fmt(b[i] as Rational) })),
    },
    certificate: { outcome: 'INFEASIBLE', farkas: sparse(y, rowNames) },
    y,
    g,
    rowNames,
  };
}

/** An unbounded LP: a feasible x, a ray r, rows whose relation a·r fits, bounds r points away from, and c with c·r improving. */
function unboundedLp(draw: (k: number) => number, sense: 'minimize' | 'maximize'): Built & { r: Rational[]; c: Rational[]; x: Rational[]; names: string[] } {
  const n = 1 + draw(5);
  const m = draw(6);
  const names = Array.from({ length: n }, (_, j) => `z${j + 1}`);
  const r = names.map(() => int(draw(5) - 2));
  if (r.every((rj) => sgn(rj) === 0)) r[0] = Q.one;
  const x = names.map(() => frac(draw(7) - 3, 1 + draw(2)));
  const variables = names.map((name, j) => {
    const s = sgn(r[j] as Rational);
    const xj = x[j] as Rational;
    const lower = s >= 0 && draw(2) === 0 ? fmt(Q.sub(xj, int(draw(3)))) : null;
    const upper = s <= 0 && draw(2) === 0 ? fmt(Q.add(xj, int(draw(3)))) : null;
    return { name, lower, upper };
  });
  const constraints: LpProblemInput['constraints'] = [];
  for (let i = 0; i < m; i++) {
    const a = names.map(() => int(draw(7) - 3));
    const ar = sgn(dot(a, r));
    const relation: LpRelation = ar > 0 ? '>=' : ar < 0 ? '<=' : (RELATIONS[draw(3)] as LpRelation);
    const activity = dot(a, x);
    const rhs = relation === '>=' ? Q.sub(activity, int(draw(3))) : relation === '<=' ? Q.add(activity, int(draw(3))) : activity;
    constraints.push({ name: `q${i + 1}`, coefficients: sparse(a, names), relation, rhs: fmt(rhs) });
  }
  const c = names.map(() => int(draw(7) - 3));
  const k = r.findIndex((rj) => sgn(rj) !== 0);
  const cr = dot(c, r);
  const want = sense === 'minimize' ? -1 : 1;
  if (sgn(cr) !== want) c[k] = Q.add(c[k] as Rational, Q.div(Q.sub(int(want), cr), r[k] as Rational));
  return { problem: { sense, variables, objective: sparse(c, names), constraints }, certificate: { outcome: 'UNBOUNDED', primal: sparse(x, names), ray: sparse(r, names) }, r, c, x, names };
}

describe('random LPs with known certificates', () => {
  it('accepts the OPTIMAL certificate built by complementary slackness, for both senses', () => {
    fc.assert(
      fc.property(draws, fc.boolean(), (values, min) => {
        const { problem, certificate } = optimalLp(drawer(values), min ? 'minimize' : 'maximize');
        expect(check(problem, certificate)).toMatchObject({ accepted: true });
      }),
      { numRuns: 200 },
    );
  });

  it('rejects it with the value off by 1, a reduced cost off by 1, a dual sign flipped (d recomputed), or a coordinate of x pushed past its bound by 1/10^30', () => {
    const tiny = makeRational(1n, 10n ** 30n);
    fc.assert(
      fc.property(draws, fc.boolean(), fc.nat(), (values, min, pick) => {
        const built = optimalLp(drawer(values), min ? 'minimize' : 'maximize');
        const { problem, certificate, names, rowNames, A, y, c } = built;
        const value = Q.parseCanonical(String(certificate.objective_value)) as Rational;
        expect(check(problem, { ...certificate, objective_value: fmt(Q.add(value, Q.one)) })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.OBJECTIVE_MISMATCH });
        const j = pick % names.length;
        const name = names[j] as string;
        const d = { ...(certificate.reduced_costs as Record<string, string>) };
        d[name] = fmt(Q.add(Q.parseCanonical(d[name] ?? '0') as Rational, Q.one));
        expect(check(problem, { ...certificate, reduced_costs: d })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.REDUCED_COST_MISMATCH, path: ['reduced_costs', name] });

        const signed = rowNames.findIndex((_, i) => problem.constraints[i]?.relation !== '=' && sgn(y[i] as Rational) !== 0);
        if (signed >= 0) {
          const flipped = y.map((yi, i) => (i === signed ? Q.neg(yi) : yi));
          const dFlipped = names.map((_, k) => Q.sub(c[k] as Rational, dot(A.map((row) => row[k] as Rational), flipped)));
          expect(check(problem, { ...certificate, dual: sparse(flipped, rowNames), reduced_costs: sparse(dFlipped, names) })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.DUAL_SIGN, path: ['dual', rowNames[signed]] });
        }

        const bounded = problem.variables.findIndex((v) => v.lower !== null && v.lower !== undefined);
        if (bounded >= 0) {
          const variable = problem.variables[bounded] as { name: string; lower: string };
          const primal = { ...(certificate.primal as Record<string, string>), [variable.name]: fmt(Q.sub(Q.parseCanonical(variable.lower) as Rational, tiny)) };
          expect(check(problem, { ...certificate, primal })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.PRIMAL_BOUND, path: ['primal', variable.name] });
        }
      }),
      { numRuns: 200 },
    );
  });

  it('on these feasible, bounded LPs no Farkas certificate and no improving ray is ever accepted', () => {
    fc.assert(
      fc.property(draws, fc.boolean(), fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 6, maxLength: 6 }), (values, min, guess) => {
        const { problem, rowNames, names } = optimalLp(drawer(values), min ? 'minimize' : 'maximize');
        const farkas = Object.fromEntries(rowNames.map((name, i) => [name, guess[i % guess.length] ?? 0]));
        expect(check(problem, { outcome: 'INFEASIBLE', farkas })).toMatchObject({ accepted: false });
        const x = problem.variables.map((v) => v.lower ?? v.upper ?? '0');
        const ray = Object.fromEntries(names.map((name, j) => [name, guess[j % guess.length] ?? 0]));
        // x may be infeasible here; either way an unbounded claim about a bounded LP must fail.
        expect(check(problem, { outcome: 'UNBOUNDED', primal: Object.fromEntries(names.map((name, j) => [name, x[j] as string])), ray })).toMatchObject({ accepted: false });
      }),
      { numRuns: 200 },
    );
  });

  it('accepts the Farkas certificate of a random infeasible system, and rejects it at margin 0, with a sign flipped, or with a needed bound removed', () => {
    fc.assert(
      fc.property(draws, fc.integer({ min: 1, max: 5 }), (values, q) => {
        const built = infeasibleLp(drawer(values), frac(1, q));
        expect(check(built.problem, built.certificate)).toMatchObject({ accepted: true });
        const tight = infeasibleLp(drawer(values), Q.zero);
        expect(check(tight.problem, tight.certificate)).toMatchObject({ accepted: false, reason_code: LpRejectionReason.FARKAS_NOT_STRICT });

        const signed = built.rowNames.findIndex((_, i) => built.problem.constraints[i]?.relation !== '=' && sgn(built.y[i] as Rational) !== 0);
        if (signed >= 0) {
          const farkas = sparse(built.y.map((yi, i) => (i === signed ? Q.neg(yi) : yi)), built.rowNames);
          expect(check(built.problem, { outcome: 'INFEASIBLE', farkas })).toMatchObject({ accepted: false, reason_code: LpRejectionReason.FARKAS_SIGN, path: ['farkas', built.rowNames[signed]] });
        }
        const needs = built.g.findIndex((gj) => sgn(gj) !== 0);
        if (needs >= 0) {
          const variables = built.problem.variables.map((v, j) => (j !== needs ? v : sgn(built.g[j] as Rational) > 0 ? { ...v, upper: null } : { ...v, lower: null }));
          expect(check({ ...built.problem, variables }, built.certificate)).toMatchObject({ accepted: false, reason_code: LpRejectionReason.FARKAS_INFINITE_BOUND, witness: `variable ${built.problem.variables[needs]?.name}` });
        }
      }),
      { numRuns: 200 },
    );
  });

  it('accepts the ray of a random unbounded LP, and rejects it when c·r = 0 or when a bound blocks the ray', () => {
    fc.assert(
      fc.property(draws, fc.boolean(), (values, min) => {
        const built = unboundedLp(drawer(values), min ? 'minimize' : 'maximize');
        expect(check(built.problem, built.certificate)).toMatchObject({ accepted: true });
        const k = built.r.findIndex((rj) => sgn(rj) !== 0);
        const cr = dot(built.c, built.r);
        const flat = built.c.map((cj, j) => (j === k ? Q.sub(cj, Q.div(cr, built.r[k] as Rational)) : cj));
        expect(check({ ...built.problem, objective: sparse(flat, built.names) }, built.certificate)).toMatchObject({ accepted: false, reason_code: LpRejectionReason.RAY_NOT_IMPROVING });
        // A finite bound at x on the side the ray moves to.
        const xk = fmt(built.x[k] as Rational);
        const variables = built.problem.variables.map((v, j) => (j !== k ? v : sgn(built.r[k] as Rational) > 0 ? { ...v, upper: xk } : { ...v, lower: xk }));
        expect(check({ ...built.problem, variables }, built.certificate)).toMatchObject({ accepted: false, reason_code: LpRejectionReason.RAY_BOUND, path: ['ray', built.names[k]] });
      }),
      { numRuns: 200 },
    );
  });
});
