import { describe, expect, it } from 'vitest';
import { canonicalLpProblem, JacobianError, makeRational, RATIONALS, type LpProblemInput, type Rational } from '@jacobian/shared';
import { exactMilp, violations } from './exact-problem.js';
import { exactDecimal, exactIncumbent, simplestWithin } from './incumbent.js';
import { readCbcSolution, readGlpsolSolution } from './solution-read.js';
import { scaleToIntegers, writeSolverMps, type SolverFeed } from './solver-mps.js';

const exact = (input: LpProblemInput) => exactMilp(canonicalLpProblem(input));
const at = (field: (string | number)[]) => ['payload', 'problem', ...field];

function feedOf(input: LpProblemInput): SolverFeed {
  const written = writeSolverMps(exact(input), at);
  if (!('feed' in written)) throw new Error(`infeasible while written: ${written.infeasible}`);
  return written.feed;
}

/** 2x + 3y ≤ 12, x − y ≥ −2, x, y integers in [0, 10]; max x + y. */
const SMALL: LpProblemInput = {
  sense: 'maximize',
  variables: [
    { name: 'x', upper: 10, integer: true },
    { name: 'y', upper: 10, integer: true },
  ],
  objective: { x: 1, y: 1 },
  constraints: [
    { name: 'cap', coefficients: { x: 2, y: 3 }, relation: '<=', rhs: 12 },
    { name: 'tilt', coefficients: { x: 1, y: -1 }, relation: '>=', rhs: -2 },
  ],
};

describe('the private MPS feed', () => {
  it('scales a row exactly to coprime integers: lcm of denominators over gcd of numerators', () => {
    const { integers, factor } = scaleToIntegers([makeRational(2n, 3n), makeRational(-4n, 9n), makeRational(10n, 3n)]);
    expect(integers).toEqual([3n, -2n, 15n]);
    expect(RATIONALS.format(factor)).toBe('9/2');
    expect(scaleToIntegers([makeRational(6n, 1n), makeRational(-9n, 1n)]).integers).toEqual([2n, -3n]);
  });

  it('writes generated names only, integers only, explicit bounds on both sides, and the negated objective of a maximization', () => {
    const feed = feedOf({
      sense: 'maximize',
      variables: [
        { name: 'ENDATA', lower: null, upper: '7/2', integer: true },
        { name: "x'MARKER'", lower: '-1/3', upper: '5/2' },
        { name: 'unused' },
      ],
      objective: { ENDATA: '1/2', "x'MARKER'": '-3/4' },
      constraints: [{ name: 'RHS', coefficients: { ENDATA: '0.1', "x'MARKER'": '1/3' }, relation: '=', rhs: '2.5' }],
    });
    expect(feed.mps).not.toMatch(/ENDATA\b.*\n.*\S/);
    expect(feed.mps).not.toContain('unused');
    expect(feed.mps).not.toMatch(/[./]\d/);
    // Objective (1/2, −3/4) × 4 = (2, −3), negated for the maximization.
    expect(feed.mps).toContain(' x1 obj -2');
    expect(feed.mps).toContain(' x2 obj 3');
    expect(RATIONALS.format(feed.objectiveFactor)).toBe('-4');
    // Row (1/10, 1/3 | 5/2) × 30 = (3, 10 | 75).
    expect(feed.mps).toContain(' x1 r1 3');
    expect(feed.mps).toContain(' x2 r1 10');
    expect(feed.mps).toContain(' RHS r1 75');
    // The integer's upper bound rounded down; the continuous bounds as rows 3x ≥ −1 and 2x ≤ 5 with ⌊−1/3⌋, ⌈5/2⌉ as column bounds.
    expect(feed.mps).toContain(' MI BND x1\n UP BND x1 3\n');
    expect(feed.mps).toContain(' LO BND x2 -1\n UP BND x2 3\n');
    expect(feed.rows).toEqual([{ kind: 'row', index: 0 }, { kind: 'lower', column: 1 }, { kind: 'upper', column: 1 }]);
    expect(feed.mps).toContain(' G r2');
    expect(feed.mps).toContain(' x2 r2 3');
    expect(feed.mps).toContain(' RHS r2 -1');
    // A variable in nothing is declared with a zero cost.
    expect(feed.mps).toContain(' x3 obj 0');
    expect(feed.mps).toContain("MARKER 'MARKER' 'INTORG'\n x1 obj -2\n x1 r1 3\n MARKER 'MARKER' 'INTEND'\n");
  });

  it('refuses a number over 2^53 after scaling, naming the row and the rule', () => {
    const input: LpProblemInput = { sense: 'minimize', variables: [{ name: 'x' }, { name: 'y' }], objective: {}, constraints: [{ coefficients: { x: '1/3', y: '9007199254740993/7' }, relation: '<=', rhs: 1 }] };
    try {
      writeSolverMps(exact(input), at);
      expect.unreachable('a coefficient over 2^53 after scaling must be refused');
    } catch (error) {
      expect(error).toBeInstanceOf(JacobianError);
      expect((error as JacobianError).code).toBe('INVALID_REQUEST');
      expect((error as JacobianError).path).toEqual(['payload', 'problem', 'constraints', 0]);
      expect((error as JacobianError).data).toEqual({ rule: 'solver-number-range' });
    }
    // 2^53 itself is exact in a double, and passes.
    expect(() => feedOf({ sense: 'minimize', variables: [{ name: 'x', upper: '9007199254740992' }], objective: { x: 1 }, constraints: [] })).not.toThrow();
  });

  it('decides exactly what needs no solver: no integer between the bounds, a false row without variables', () => {
    expect(writeSolverMps(exact({ sense: 'minimize', variables: [{ name: 'k', lower: '1/3', upper: '2/3', integer: true }], objective: {}, constraints: [] }), at)).toEqual({ infeasible: expect.stringMatching(/no integer/) as unknown });
    expect(writeSolverMps(exact({ sense: 'minimize', variables: [{ name: 'x' }], objective: {}, constraints: [{ name: 'z', coefficients: { x: 0 }, relation: '=', rhs: 1 }] }), at)).toEqual({ infeasible: expect.stringMatching(/row z/) as unknown });
    // A true row without variables is left out.
    expect(feedOf({ sense: 'minimize', variables: [{ name: 'x' }], objective: {}, constraints: [{ coefficients: {}, relation: '<=', rhs: 1 }] }).rows).toEqual([]);
  });
});

/** CBC's solution file for SMALL at x = 3, y = 2 (optimum 5), as CBC 2.10 writes it; `x`, `y` substituted. */
const cbcFile = (x: string, y: string): string =>
  [
    'Optimal - objective value -5.00000000',
    `      0 r1                    12                       0`,
    `      1 r2                     1                       0`,
    `      0 x1                     ${x}                      -1`,
    `      1 x2                     ${y}                      -1`,
    '',
  ].join('\n');
const CBC_LOG = 'Result - Optimal solution found\n\nObjective value:                -5.00000000\n';

describe('reading the solvers strictly, and the exact check of what they say', () => {
  it('reads CBC: status, values, the objective; bound and gap of an optimum', () => {
    const feed = feedOf(SMALL);
    const answer = readCbcSolution(cbcFile('3', '2'), CBC_LOG, feed.columns, feed.rows.length);
    expect(answer).toEqual({ verdict: 'OPTIMAL', said: 'Optimal', values: ['3', '2'], objective: -5, bound: -5, gap: 0 });
    const check = exactIncumbent(exact(SMALL), answer.values ?? []);
    expect(check).toMatchObject({ verified: true, method: 'as-printed' });
  });

  it('a tampered CBC solution fails the exact check: a violated row, a fractional integer, a value just past a bound', () => {
    const problem = exact(SMALL);
    const feed = feedOf(SMALL);
    const read = (x: string, y: string) => readCbcSolution(cbcFile(x, y), CBC_LOG, feed.columns, feed.rows.length).values ?? [];
    // 2·3 + 3·3 = 15 > 12.
    const row = exactIncumbent(problem, read('3', '3'));
    expect(row).toEqual({ verified: false, violations: ['row cap: 15 <= 12 is false'] });
    expect(exactIncumbent(problem, read('2.5', '2'))).toEqual({ verified: false, violations: [expect.stringMatching(/x = 2\.5 is not within 1e-9 of an integer/) as unknown] });
    // Within 1e-9 of an integer: rounded, then checked (and feasible).
    expect(exactIncumbent(problem, read('3.0000000004', '1.9999999996'))).toMatchObject({ verified: true });
    expect(exactIncumbent(problem, read('3.000001', '2'))).toMatchObject({ verified: false });
    expect(exactIncumbent(problem, read('11', '0'))).toMatchObject({ verified: false, violations: expect.arrayContaining(['x = 11 is above its upper bound 10']) as unknown });
  });

  it('refuses malformed CBC answers (PROVIDER_FAILED): unknown status, a missing column, garbage values, a wrong row count', () => {
    const feed = feedOf(SMALL);
    const fails = (text: string): void => {
      let code: string | null = null;
      try {
        readCbcSolution(text, CBC_LOG, feed.columns, feed.rows.length);
      } catch (error) {
        code = error instanceof JacobianError ? error.code : 'not a JacobianError';
      }
      expect(code).toBe('PROVIDER_FAILED');
    };
    fails(cbcFile('3', '2').replace('Optimal', 'Probably fine'));
    fails(cbcFile('3', '2').replace(/.*x2.*\n/, ''));
    fails(cbcFile('3', 'two'));
    fails(cbcFile('3', '2').replace(/.*r2.*\n/, ''));
    fails(cbcFile('3', '2').replace('x2', 'x7'));
    fails('');
  });

  it('reads CBC statuses without an incumbent, and a time limit with one (bound and gap from the log)', () => {
    const feed = feedOf(SMALL);
    const rows = '      0 r1 0 0\n      1 r2 0 0\n      0 x1 0.5 0\n      1 x2 0 0\n';
    expect(readCbcSolution(`Integer infeasible - objective value 0.5\n${rows}`, '', 2, 2)).toMatchObject({ verdict: 'INFEASIBLE', values: null, objective: null });
    expect(readCbcSolution(`Unbounded - objective value 0\n${rows}`, '', 2, 2)).toMatchObject({ verdict: 'UNBOUNDED', values: null });
    expect(readCbcSolution(`Stopped on time (no integer solution - continuous used) - objective value 53.3\n${rows}`, 'Lower bound:                    55.302\n', 2, 2)).toMatchObject({ verdict: 'LIMIT', values: null, bound: 55.302 });
    const limited = readCbcSolution(cbcFile('3', '2').replace('Optimal', 'Stopped on time'), 'Objective value: -5\nLower bound:                    -6.5\nGap:                            0.3\n', feed.columns, feed.rows.length);
    expect(limited).toMatchObject({ verdict: 'LIMIT', values: ['3', '2'], objective: -5, bound: -6.5, gap: 0.3 });
    // Stopped at the allowed gap: optimal as CBC says, but its bound is not assumed to be the objective.
    const withinGap = readCbcSolution(cbcFile('3', '2').replace('Optimal', 'Optimal (within gap tolerance)'), 'Objective value: -5\n', feed.columns, feed.rows.length);
    expect(withinGap).toMatchObject({ verdict: 'OPTIMAL', said: 'Optimal (within gap tolerance)', bound: null, gap: null });
  });

  it('reads glpsol MIP and LP files, with the closing message deciding an undefined status', () => {
    const mip = 'c Problem:    jacobian\nc\ns mip 2 2 o -5\ni 1 12\ni 2 1\nj 1 3\nj 2 2\ne o f\n';
    const log = '+     3: mip =  -5.000000000e+00 >=     tree is empty   0.0% (0; 1)\nINTEGER OPTIMAL SOLUTION FOUND\n';
    expect(readGlpsolSolution(mip, log, 2, 2)).toEqual({ verdict: 'OPTIMAL', said: 'INTEGER OPTIMAL SOLUTION FOUND', values: ['3', '2'], objective: -5, bound: -5, gap: 0 });
    const stopped = mip.replace('s mip 2 2 o -5', 's mip 2 2 f -5');
    expect(readGlpsolSolution(stopped, '+ 40638: mip =   -5.000000000e+00 >=   -6.000000000e+00 20.0% (5288; 5104)\nTIME LIMIT EXCEEDED; SEARCH TERMINATED\n', 2, 2)).toMatchObject({ verdict: 'LIMIT', bound: -6, gap: 0.2 });
    expect(readGlpsolSolution(mip.replace('o -5', 'u 0'), 'LP HAS UNBOUNDED PRIMAL SOLUTION\n', 2, 2)).toMatchObject({ verdict: 'UNBOUNDED', values: null });
    // The relaxation's "OPTIMAL LP SOLUTION FOUND" comes first in a MIP's log; the last message decides.
    const relaxationThenLimit = 'OPTIMAL LP SOLUTION FOUND\nInteger optimization begins...\n+ 9: mip =   -5.0e+00 >=   -6.0e+00 20.0% (3; 0)\nTIME LIMIT EXCEEDED; SEARCH TERMINATED\n';
    expect(readGlpsolSolution(stopped, relaxationThenLimit, 2, 2)).toMatchObject({ verdict: 'LIMIT', said: 'TIME LIMIT EXCEEDED; SEARCH TERMINATED', values: ['3', '2'] });
    expect(readGlpsolSolution(mip.replace('o -5', 'u 0'), relaxationThenLimit, 2, 2)).toMatchObject({ verdict: 'LIMIT', values: null });
    expect(readGlpsolSolution(stopped, 'OPTIMAL LP SOLUTION FOUND\nRELATIVE MIP GAP TOLERANCE REACHED; SEARCH TERMINATED\n', 2, 2)).toMatchObject({ verdict: 'OPTIMAL' });
    expect(readGlpsolSolution(mip.replace('o -5', 'n 0'), 'PROBLEM HAS NO PRIMAL FEASIBLE SOLUTION\n', 2, 2)).toMatchObject({ verdict: 'INFEASIBLE' });
    // An undefined status with no message that explains it is refused.
    expect(() => readGlpsolSolution(mip.replace('o -5', 'u 0'), '', 2, 2)).toThrow(/PROVIDER_FAILED|MIP status/);
    const lp = 's bas 1 2 f f 4\ni 1 u 4 1\nj 1 b 4 0\nj 2 l 0 1\ne o f\n';
    expect(readGlpsolSolution(lp, 'OPTIMAL LP SOLUTION FOUND\n', 2, 1)).toMatchObject({ verdict: 'OPTIMAL', values: ['4', '0'], objective: 4 });
    expect(readGlpsolSolution(lp.replace('f f 4', 'u u 0'), 'PROBLEM HAS NO PRIMAL FEASIBLE SOLUTION\n', 2, 1)).toMatchObject({ verdict: 'INFEASIBLE' });
    expect(() => readGlpsolSolution(lp.replace('e o f\n', ''), '', 2, 1)).toThrow(/e o f/);
    expect(() => readGlpsolSolution(mip, log, 3, 2)).toThrow(/status line/);
  });
});

describe('exact values from printed decimals', () => {
  it('reads decimals exactly, with exponents', () => {
    expect(RATIONALS.format(exactDecimal('-0.0023816357') ?? RATIONALS.zero)).toBe('-23816357/10000000000');
    expect(RATIONALS.format(exactDecimal('1e+10') ?? RATIONALS.zero)).toBe('10000000000');
    expect(RATIONALS.format(exactDecimal('2.5E-3') ?? RATIONALS.zero)).toBe('1/400');
    expect(exactDecimal('inf')).toBeNull();
    expect(exactDecimal('nan')).toBeNull();
  });

  it('finds the simplest fraction within a tolerance', () => {
    const near = (text: string) => RATIONALS.format(simplestWithin(exactDecimal(text) ?? RATIONALS.zero, makeRational(1n, 10n ** 9n)));
    expect(near('0.3333333333')).toBe('1/3');
    expect(near('-1.1666666667')).toBe('-7/6');
    expect(near('3.1415926536')).toBe('103993/33102');
    expect(near('0.0000000001')).toBe('0');
    expect(near('5')).toBe('5');
  });

  it('recovers the exact vertex behind CBC’s 8 digits (continuous variables), and never accepts a point that fails', () => {
    // min −x − y, 3x + 7y ≤ 10, x − y ≤ 1/3, x, y ≥ 0 continuous, k ∈ {0, 1, 2} integer with k ≤ x.
    const problem = exact({
      sense: 'minimize',
      variables: [{ name: 'x' }, { name: 'y' }, { name: 'k', upper: 2, integer: true }],
      objective: { x: -1, y: -1 },
      constraints: [
        { coefficients: { x: 3, y: 7 }, relation: '<=', rhs: 10 },
        { coefficients: { x: 1, y: -1 }, relation: '<=', rhs: '1/3' },
        { coefficients: { k: 1, x: -1 }, relation: '<=', rhs: 0 },
      ],
    });
    // The vertex: x − y = 1/3 and 3x + 7y = 10: y = 9/10, x = 37/30.
    // Rounded up in the 8th digit, as printed the point is just outside both rows.
    const printed = ['1.2333334', '0.9', '1'];
    expect(violations(problem, printed.map((t) => exactDecimal(t) ?? RATIONALS.zero))).toHaveLength(2);
    const check = exactIncumbent(problem, printed);
    expect(check).toMatchObject({ verified: true, method: 'vertex-solve' });
    if (check.verified) expect(check.values.map((v) => RATIONALS.format(v))).toEqual(['37/30', '9/10', '1']);
    // Far from any feasible point: no repair passes, the violations of the printed point are reported.
    const wrong = exactIncumbent(problem, ['2', '2', '1']);
    expect(wrong.verified).toBe(false);
    if (!wrong.verified) expect(wrong.violations[0]).toMatch(/row r1/);
    expect(violations(problem, [makeRational(37n, 30n), makeRational(9n, 10n), RATIONALS.one])).toEqual([]);
  });

  it('a vertex with fewer tight rows than free columns: the extra column keeps its printed value, the others are solved exactly', () => {
    // x + y + z ≤ 1 (tight) and x − y = 1/3; printed 8-digit values overshoot the first row.
    const problem = exact({
      sense: 'minimize',
      variables: [{ name: 'x' }, { name: 'y' }, { name: 'z' }],
      objective: { x: -1, y: -1, z: -1 },
      constraints: [
        { coefficients: { x: 1, y: 1, z: 1 }, relation: '<=', rhs: 1 },
        { coefficients: { x: 1, y: -1 }, relation: '=', rhs: '1/3' },
      ],
    });
    const check = exactIncumbent(problem, ['0.5333334', '0.2000001', '0.2666666']);
    expect(check).toMatchObject({ verified: true, method: 'vertex-solve' });
    if (!check.verified) return;
    const [x, y, z] = check.values as [Rational, Rational, Rational];
    expect(RATIONALS.format(RATIONALS.sub(x, y))).toBe('1/3');
    expect(RATIONALS.format(RATIONALS.add(RATIONALS.add(x, y), z))).toBe('1');
    expect(violations(problem, check.values)).toEqual([]);
  });
});
