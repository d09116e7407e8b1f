import { describe, expect, it } from 'vitest';
import { canonicalLpProblem } from '@jacobian/shared';
import { certificateFailures, type CertificateTexts } from './certificate-check.js';

const none = { objective_value: null, primal: null, dual: null, reduced_costs: null, farkas: null, ray: null };
// max 3x + 5y; x ≤ 4, 2y ≤ 12, 3x + 2y ≤ 18: OPTIMAL 36 at (2, 6), y = (0, 3/2, 1).
const production = canonicalLpProblem({
  sense: 'maximize',
  variables: [{ name: 'x' }, { name: 'y' }],
  objective: { x: 3, y: 5 },
  constraints: [
    { name: 'a', coefficients: { x: 1 }, relation: '<=', rhs: 4 },
    { name: 'b', coefficients: { y: 2 }, relation: '<=', rhs: 12 },
    { name: 'c', coefficients: { x: 3, y: 2 }, relation: '<=', rhs: 18 },
  ],
});
const optimal: CertificateTexts = { ...none, outcome: 'OPTIMAL', objective_value: '36', primal: { x: '2', y: '6' }, dual: { b: '3/2', c: '1' }, reduced_costs: {} };

describe("lp.solve's own certificate check", () => {
  it('accepts a true OPTIMAL certificate', () => {
    expect(certificateFailures(production, optimal)).toEqual([]);
  });

  it('rejects wrong OPTIMAL certificates: value, infeasible x, dual signs, d ≠ c − Aᵀy, a gap, a sign needing an infinite bound', () => {
    expect(certificateFailures(production, { ...optimal, objective_value: '36001/1000' })).toContain('objective_value is not c·x + c₀');
    expect(certificateFailures(production, { ...optimal, primal: { x: '3', y: '6' }, objective_value: '39' }).join()).toMatch(/row c is violated/);
    // y = (0, 0, 5/3) has d = (−2, 5/3): the right size of c·x, wrong signs.
    expect(certificateFailures(production, { ...optimal, dual: { c: '5/3' }, reduced_costs: { x: '-2', y: '5/3' } }).join()).toMatch(/needs an infinite upper bound/);
    expect(certificateFailures(production, { ...optimal, dual: { b: '-3/2', c: '1' } }).join()).toMatch(/wrong sign|not c − Aᵀy/);
    expect(certificateFailures(production, { ...optimal, reduced_costs: { x: '1' } }).join()).toMatch(/reduced_costs.x is not c − Aᵀy/);
    // A feasible but suboptimal x: the duals no longer close the gap.
    expect(certificateFailures(production, { ...optimal, primal: { x: '2', y: '5' }, objective_value: '31' })).toContain('the dual objective differs from the primal objective');
  });

  it('INFEASIBLE: accepts a Farkas y, rejects one with a wrong sign or without the strict gap', () => {
    const problem = canonicalLpProblem({ sense: 'minimize', variables: [{ name: 'x', upper: 1 }], objective: {}, constraints: [{ name: 'r', coefficients: { x: 1 }, relation: '>=', rhs: 2 }, { name: 's', coefficients: { x: 1 }, relation: '>=', rhs: 1 }] });
    expect(certificateFailures(problem, { ...none, outcome: 'INFEASIBLE', farkas: { r: '1' } })).toEqual([]);
    expect(certificateFailures(problem, { ...none, outcome: 'INFEASIBLE', farkas: { r: '-1' } }).join()).toMatch(/wrong sign/);
    // x ≥ 1 with x ≤ 1 is consistent: max x over the bounds is 1, not below 1.
    expect(certificateFailures(problem, { ...none, outcome: 'INFEASIBLE', farkas: { s: '1' } }).join()).toMatch(/not below b·y/);
    const free = canonicalLpProblem({ sense: 'minimize', variables: [{ name: 'x', lower: null }], objective: {}, constraints: [{ name: 'r', coefficients: { x: 1 }, relation: '>=', rhs: 2 }] });
    expect(certificateFailures(free, { ...none, outcome: 'INFEASIBLE', farkas: { r: '1' } }).join()).toMatch(/infinite bound/);
  });

  it('UNBOUNDED: accepts a ray, rejects one that leaves a row or a bound or does not improve', () => {
    const problem = canonicalLpProblem({ sense: 'maximize', variables: [{ name: 'x' }, { name: 'y', upper: 3 }], objective: { x: 1, y: 1 }, constraints: [{ name: 'r', coefficients: { x: 1, y: -1 }, relation: '>=', rhs: -1 }] });
    const good: CertificateTexts = { ...none, outcome: 'UNBOUNDED', primal: {}, ray: { x: '1' } };
    expect(certificateFailures(problem, good)).toEqual([]);
    expect(certificateFailures(problem, { ...good, ray: { y: '1' } }).join()).toMatch(/leaves row r/);
    expect(certificateFailures(problem, { ...good, ray: { x: '-1' } }).join()).toMatch(/lower bound/);
    expect(certificateFailures(problem, { ...good, ray: { x: '1', y: '1' } }).join()).toMatch(/upper bound/);
    expect(certificateFailures(problem, { ...good, primal: { y: '4' } }).join()).toMatch(/above its upper bound/);
    const min = canonicalLpProblem({ ...problem, sense: 'minimize' });
    expect(certificateFailures(min, good)).toContain('ray does not improve the objective');
  });
});
