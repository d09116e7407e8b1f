import { describe, expect, it } from 'vitest';
import { canonicalLpProblem, RATIONALS, type LpProblem, type LpProblemInput, type Rational } from '@jacobian/shared';
import { certificateFailures } from './certificate-check.js';
import { loadHighs } from './highs-start.js';
import { solveExact } from './simplex.js';
import { solveLp } from './solve-lp.js';

const lp = (input: LpProblemInput): LpProblem => canonicalLpProblem(input);
type Highs = Awaited<ReturnType<typeof loadHighs>>;

/** Solve without and with HiGHS; both certificates must hold, and agree on the outcome and value. */
function solveBoth(problem: LpProblem, highs?: Highs): ReturnType<typeof solveLp> {
  const exact = solveLp(problem);
  expect(certificateFailures(problem, exact.certificate)).toEqual([]);
  expect(exact.record.float_phase).toBeNull();
  if (highs !== undefined) {
    const warm = solveLp(problem, { highs });
    expect(certificateFailures(problem, warm.certificate)).toEqual([]);
    expect(warm.certificate.outcome).toBe(exact.certificate.outcome);
    expect(warm.certificate.objective_value).toBe(exact.certificate.objective_value);
    expect(warm.record.float_phase).toMatch(/^HiGHS /);
  }
  return exact;
}

describe('exact simplex on textbook linear programs', () => {
  it('the classic production problem: value 36 at (2, 6) with shadow prices (0, 3/2, 1)', async () => {
    const highs = await loadHighs();
    const problem = lp({
      sense: 'maximize',
      variables: [{ name: 'x' }, { name: 'y' }],
      objective: { x: 3, y: 5 },
      constraints: [
        { name: 'a', coefficients: { x: 1 }, relation: '<=', rhs: 4 },
        { name: 'b', coefficients: { y: 2 }, relation: '<=', rhs: 12 },
        { name: 'c', coefficients: { x: 3, y: 2 }, relation: '<=', rhs: 18 },
      ],
    });
    const { certificate } = solveBoth(problem, highs);
    expect(certificate).toMatchObject({ outcome: 'OPTIMAL', objective_value: '36', primal: { x: '2', y: '6' }, dual: { b: '3/2', c: '1' }, reduced_costs: {} });
    // From HiGHS's optimal basis no exact pivot is needed.
    const warm = solveLp(problem, { highs });
    expect(warm.record.started_from_float_basis).toBe(true);
    expect(warm.record.stats.phase1_pivots + warm.record.stats.phase2_pivots).toBe(0);
  });

  it('a HiGHS that fails mid-solve leaves the exact simplex to start from the slack basis, and says so', () => {
    const broken = { version: { string: '0.0.0' }, infinity: Number.POSITIVE_INFINITY, createModel: () => { throw new Error('out of memory'); } } as unknown as Highs;
    const problem = lp({ sense: 'minimize', variables: [{ name: 'x' }, { name: 'y' }], objective: { x: 1, y: 1 }, constraints: [{ coefficients: { x: 1, y: 2 }, relation: '>=', rhs: 3 }] });
    const { certificate, record } = solveLp(problem, { highs: broken });
    expect(record).toMatchObject({ started_from_float_basis: false });
    expect(record.float_phase).toMatch(/^HiGHS 0\.0\.0: failed: /);
    expect(certificate).toMatchObject({ outcome: 'OPTIMAL', objective_value: '3/2', primal: { y: '3/2' } });
  });

  it('numbers HiGHS refuses (|a| ≥ 1e15) or cannot hold in a double: the exact simplex alone, exactly', async () => {
    const highs = await loadHighs();
    // 2^1024 − 1 is within the problem's 1024 bits but rounds to Infinity as a double.
    for (const c of ['1e16', ((1n << 1024n) - 1n).toString()]) {
      const problem = lp({ sense: 'maximize', variables: [{ name: 'x', upper: c }, { name: 'y' }], objective: { x: 1, y: c }, constraints: [{ coefficients: { x: c, y: 1 }, relation: '<=', rhs: c }, { coefficients: { x: 1, y: 1 }, relation: '<=', rhs: 3 }] });
      const { certificate, record } = solveLp(problem, { highs });
      expect(certificateFailures(problem, certificate)).toEqual([]);
      // x = 0, y = 3 (x + y ≤ 3 binds long before c·x + y ≤ c): value 3c.
      expect(certificate.objective_value).toBe((3n * (c === '1e16' ? 10n ** 16n : (1n << 1024n) - 1n)).toString());
      expect(record.started_from_float_basis).toBe(false);
      expect(record.float_phase).toMatch(/failed|not run/);
    }
  });

  it("Beale's cycling example ends at −5/4 (Bland's rule after degenerate pivots)", () => {
    const problem = lp({
      sense: 'minimize',
      variables: [{ name: 'x4' }, { name: 'x5' }, { name: 'x6' }, { name: 'x7' }],
      objective: { x4: '-3/4', x5: 20, x6: '-1/2', x7: 6 },
      constraints: [
        { coefficients: { x4: '1/4', x5: -8, x6: -1, x7: 9 }, relation: '<=', rhs: 0 },
        { coefficients: { x4: '1/2', x5: -12, x6: '-1/2', x7: 3 }, relation: '<=', rhs: 0 },
        { coefficients: { x6: 1 }, relation: '<=', rhs: 1 },
      ],
    });
    const { certificate } = solveBoth(problem);
    for (const stallLimit of [0, 1, 3]) {
      const result = solveExact(problem, { stallLimit });
      expect(result.outcome).toBe('OPTIMAL');
      if (stallLimit === 0) expect(result.stats.bland_pivots).toBe(result.stats.phase2_pivots + result.stats.phase1_pivots);
    }
    expect(certificate).toMatchObject({ outcome: 'OPTIMAL', objective_value: '-5/4', primal: { x4: '1', x6: '1' } });
  });

  it("Beale's example with explicit slack columns cycles under Dantzig's rule alone; the Bland fall-back ends it", () => {
    const problem = lp({
      sense: 'minimize',
      variables: ['s1', 's2', 's3', 'x4', 'x5', 'x6', 'x7'].map((name) => ({ name })),
      objective: { x4: '-3/4', x5: 20, x6: '-1/2', x7: 6 },
      constraints: [
        { coefficients: { s1: 1, x4: '1/4', x5: -8, x6: -1, x7: 9 }, relation: '=', rhs: 0 },
        { coefficients: { s2: 1, x4: '1/2', x5: -12, x6: '-1/2', x7: 3 }, relation: '=', rhs: 0 },
        { coefficients: { s3: 1, x6: 1 }, relation: '=', rhs: 1 },
      ],
    });
    let calls = 0;
    expect(() => solveExact(problem, { stallLimit: Number.POSITIVE_INFINITY, checkpoint: () => {
      if (++calls > 100_000) throw new Error('cycling');
    } })).toThrow('cycling');
    const result = solveExact(problem);
    expect(result.outcome).toBe('OPTIMAL');
    expect(result.stats.bland_pivots).toBeGreaterThan(0);
    expect(solveBoth(problem).certificate).toMatchObject({ outcome: 'OPTIMAL', objective_value: '-5/4', primal: { x4: '1', x6: '1', s1: '3/4' } });
  });

  it('infeasible rows: a Farkas certificate', async () => {
    const highs = await loadHighs();
    const problem = lp({
      sense: 'minimize',
      variables: [{ name: 'x' }, { name: 'y' }],
      objective: { x: 1 },
      constraints: [
        { name: 'big', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 3 },
        { name: 'small', coefficients: { x: 1, y: 1 }, relation: '<=', rhs: 1 },
      ],
    });
    expect(solveBoth(problem, highs).certificate).toMatchObject({ outcome: 'INFEASIBLE', farkas: { big: '1', small: '-1' } });
  });

  it('infeasible because of the bounds, and an empty row that cannot hold', () => {
    const bounds = lp({ sense: 'minimize', variables: [{ name: 'x', upper: 2 }, { name: 'y', lower: -1, upper: 1 }], objective: {}, constraints: [{ name: 'r', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 4 }] });
    expect(solveBoth(bounds).certificate).toMatchObject({ outcome: 'INFEASIBLE', farkas: { r: '1' } });
    const empty = lp({ sense: 'minimize', variables: [{ name: 'x' }], objective: { x: 1 }, constraints: [{ name: 'ok', coefficients: {}, relation: '<=', rhs: 1 }, { name: 'bad', coefficients: {}, relation: '=', rhs: 1 }] });
    const { certificate } = solveBoth(empty);
    expect(certificate.outcome).toBe('INFEASIBLE');
    expect(Object.keys(certificate.farkas ?? {})).toEqual(['bad']);
  });

  it('unbounded: a feasible point and an improving ray, minimize and maximize', async () => {
    const highs = await loadHighs();
    const max = lp({ sense: 'maximize', variables: [{ name: 'x' }, { name: 'y' }], objective: { x: 1, y: 1 }, constraints: [{ coefficients: { x: 1, y: -1 }, relation: '<=', rhs: 1 }] });
    expect(solveBoth(max, highs).certificate.outcome).toBe('UNBOUNDED');
    const min = lp({ sense: 'minimize', variables: [{ name: 'x', lower: null }], objective: { x: 1 }, constraints: [] });
    expect(solveBoth(min, highs).certificate).toMatchObject({ outcome: 'UNBOUNDED', ray: { x: '-1' } });
  });

  it('free variables, equality rows and bounds only', async () => {
    const highs = await loadHighs();
    const free = lp({
      sense: 'minimize',
      variables: [{ name: 'x', lower: null }, { name: 'y', lower: null }],
      objective: { x: 1, y: 2 },
      constraints: [
        { name: 'e', coefficients: { x: 1, y: -1 }, relation: '=', rhs: '1/3' },
        { name: 'g', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: -5 },
      ],
    });
    // x − y = 1/3, x + y ≥ −5, minimize x + 2y = (3(x + y) − (x − y))/2: −15/2 − 1/6 = −23/3.
    expect(solveBoth(free, highs).certificate).toMatchObject({ outcome: 'OPTIMAL', objective_value: '-23/3', dual: { e: '-1/2', g: '3/2' } });
    const boundsOnly = lp({ sense: 'minimize', variables: [{ name: 'x', lower: 1, upper: 2 }, { name: 'y', upper: 3 }, { name: 'z', lower: null, upper: '-7/2' }], objective: { x: 1, y: -1, z: -1 }, objective_constant: 10, constraints: [] });
    expect(solveBoth(boundsOnly, highs).certificate).toMatchObject({ outcome: 'OPTIMAL', objective_value: '23/2', primal: { x: '1', y: '3', z: '-7/2' }, reduced_costs: { x: '1', y: '-1', z: '-1' } });
    const fixed = lp({ sense: 'maximize', variables: [{ name: 'x', lower: 5, upper: 5 }, { name: 'y' }], objective: { x: 1, y: 1 }, constraints: [{ name: 's', coefficients: { x: 1, y: 1 }, relation: '<=', rhs: 7 }] });
    expect(solveBoth(fixed, highs).certificate).toMatchObject({ outcome: 'OPTIMAL', objective_value: '7', primal: { x: '5', y: '2' } });
  });

  it('big numbers and fractions stay exact', async () => {
    const highs = await loadHighs();
    const big = (1n << 100n).toString();
    const problem = lp({
      sense: 'maximize',
      variables: [{ name: 'x' }, { name: 'y' }],
      objective: { x: big, y: 1 },
      constraints: [
        { name: 'a', coefficients: { x: 3, y: 1 }, relation: '<=', rhs: `1/${big}` },
        { name: 'b', coefficients: { x: '1/7', y: 2 }, relation: '<=', rhs: '5/11' },
      ],
    });
    const { certificate } = solveBoth(problem, highs);
    expect(certificate.outcome).toBe('OPTIMAL');
    expect(certificate.primal).toEqual({ x: `1/${3n << 100n}` });
    expect(certificate.objective_value).toBe('1/3');
  });
});

/** c·x + c₀ as canonical text. */
function solveLpValue(problem: LpProblem, x: readonly Rational[]): string {
  const value = problem.variables.reduce((s, v, j) => RATIONALS.add(s, RATIONALS.mul(RATIONALS.parseCanonical(problem.objective[v.name] ?? '0') ?? RATIONALS.zero, x[j] as Rational)), RATIONALS.parseCanonical(problem.objective_constant) ?? RATIONALS.zero);
  return RATIONALS.format(value);
}

/** A seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Small random LPs; `shape` makes them larger and (rhs mostly 0) highly degenerate. */
function randomLp(seed: number, shape: { maxSize: number; degenerate: boolean } = { maxSize: 6, degenerate: false }): LpProblem {
  const rand = random(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
  const n = int(1, shape.maxSize);
  const m = int(0, shape.maxSize);
  const variables = Array.from({ length: n }, (_, j) => {
    const kind = int(0, 4);
    const lower = kind === 0 ? null : kind === 1 ? int(-3, 0) : 0;
    const upper = kind >= 3 ? (lower ?? -2) + int(0, 4) : null;
    return { name: `x${j}`, lower, upper };
  });
  const coefficient = (): number | string => (rand() < 0.4 ? 0 : rand() < 0.8 ? int(-4, 4) : `${int(-9, 9)}/${int(1, 5)}`);
  const form = (): Record<string, number | string> => Object.fromEntries(variables.map((v) => [v.name, coefficient()]));
  const relations = ['<=', '>=', '='] as const;
  const constraints = Array.from({ length: m }, () => ({ coefficients: form(), relation: relations[rand() < 0.45 ? 0 : rand() < 0.8 ? 1 : 2], rhs: shape.degenerate && rand() < 0.8 ? 0 : int(-6, 8) }));
  return lp({ sense: rand() < 0.5 ? 'minimize' : 'maximize', variables, objective: form(), objective_constant: int(-2, 2), constraints });
}

describe('random small linear programs', () => {
  it('any start basis, however wrong (dependent columns, infeasible, non-optimal), ends at the same exact answer', () => {
    const statuses = ['basic', 'lower', 'upper', 'zero'] as const;
    let rejected = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const problem = randomLp(seed);
      const rand = random(seed * 7919);
      const pick = (): (typeof statuses)[number] => statuses[Math.floor(rand() * 4)] as (typeof statuses)[number];
      const columns = problem.variables.map(pick);
      const rows = problem.constraints.map(pick);
      const slack = solveLp(problem);
      // solveLp checks the certificate exactly before it returns.
      const started = solveLp(problem, { start: { columns, rows } });
      rejected += started.record.stats.start_rejected;
      expect(started.certificate.outcome, `seed ${seed}`).toBe(slack.certificate.outcome);
      expect(started.certificate.objective_value, `seed ${seed}`).toBe(slack.certificate.objective_value);
      const exact = solveExact(problem);
      if (exact.outcome === 'OPTIMAL') expect(solveLpValue(problem, exact.x)).toBe(slack.certificate.objective_value);
    }
    expect(rejected).toBeGreaterThan(0);
  });


  it('every certificate holds, HiGHS and the slack basis agree, and HiGHS agrees in floating point', async () => {
    const highs = await loadHighs();
    const seen = { OPTIMAL: 0, INFEASIBLE: 0, UNBOUNDED: 0 };
    for (let seed = 1; seed <= 300; seed++) {
      const problem = randomLp(seed);
      const { certificate } = solveBoth(problem, highs);
      seen[certificate.outcome]++;
      // An independent opinion: HiGHS's own answer in floating point.
      const float = highs.solve(lpText(problem), {});
      if (certificate.outcome === 'OPTIMAL') {
        expect(float.Status, `seed ${seed}`).toBe('Optimal');
        const [num, den = '1'] = (certificate.objective_value as string).split('/');
        expect(float.ObjectiveValue).toBeCloseTo(Number(num) / Number(den), 6);
      } else if (certificate.outcome === 'INFEASIBLE') {
        expect(['Infeasible', 'Primal infeasible or unbounded'], `seed ${seed}`).toContain(float.Status);
      } else {
        expect(['Unbounded', 'Primal infeasible or unbounded'], `seed ${seed}`).toContain(float.Status);
      }
    }
    expect(seen.OPTIMAL).toBeGreaterThan(30);
    expect(seen.INFEASIBLE).toBeGreaterThan(10);
    expect(seen.UNBOUNDED).toBeGreaterThan(10);
  });
});

describe('larger and degenerate random linear programs', () => {
  it('up to 14×14 with most right-hand sides 0: certificates hold, with and without HiGHS, and match HiGHS in floating point', async () => {
    const highs = await loadHighs();
    let bland = 0;
    for (let seed = 1001; seed <= 1060; seed++) {
      const problem = randomLp(seed, { maxSize: 14, degenerate: true });
      const exact = solveBoth(problem, highs);
      bland += exact.record.stats.bland_pivots;
      const float = highs.solve(lpText(problem), {});
      if (exact.certificate.outcome === 'OPTIMAL') {
        const [num, den = '1'] = (exact.certificate.objective_value as string).split('/');
        expect(float.ObjectiveValue, `seed ${seed}`).toBeCloseTo(Number(num) / Number(den), 6);
      }
    }
    expect(bland).toBeGreaterThan(0);
  });
});

/** The problem in CPLEX LP text, for HiGHS's own reader (floating point). */
function lpText(problem: LpProblem): string {
  const num = (text: string): string => {
    const [a, b = '1'] = text.split('/');
    return String(Number(a) / Number(b));
  };
  const form = (coefficients: Record<string, string>): string => {
    const terms = Object.entries(coefficients).map(([name, a]) => `${Number(num(a)) < 0 ? '-' : '+'} ${Math.abs(Number(num(a)))} ${name}`);
    return terms.length === 0 ? `0 ${problem.variables[0]?.name ?? 'x'}` : terms.join(' ');
  };
  const lines = [problem.sense === 'minimize' ? 'Minimize' : 'Maximize', ` obj: ${form(problem.objective)} + ${num(problem.objective_constant)}`, 'Subject To'];
  problem.constraints.forEach((row) => lines.push(` ${row.name}: ${form(row.coefficients)} ${row.relation} ${num(row.rhs)}`));
  lines.push('Bounds');
  for (const v of problem.variables) lines.push(` ${v.lower === null ? '-inf' : num(v.lower)} <= ${v.name} <= ${v.upper === null ? '+inf' : num(v.upper)}`);
  lines.push('End');
  return lines.join('\n');
}
