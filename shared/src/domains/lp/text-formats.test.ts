import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalize } from '../../canonical-json.js';
import { JacobianError } from '../../errors.js';
import { isCplexLpName, parseCplexLp, writeCplexLp } from './cplex-lp.js';
import { isFreeMpsName, parseFreeMps, writeFreeMps } from './free-mps.js';
import { canonicalLpProblem, LP_LIMITS, LpProblemInputSchema, parseLpNumber, type LpProblem, type LpProblemInput } from './problem.js';
import { DIET_LP, DIET_MPS, SMALL_FREE_LP, SMALL_MAX_LP, SMALL_MILP_LP, TRANSPORT_MPS } from './text-formats-fixtures.js';
import { LP_TEXT_LIMITS, roundedDecimal, terminatingDecimal } from './text-support.js';

const lp = (text: string): LpProblem => canonicalLpProblem(parseCplexLp(text), []);
const mps = (text: string): LpProblem => canonicalLpProblem(parseFreeMps(text), []);

interface Failure {
  message: string;
  path: unknown;
  rule: unknown;
  line: unknown;
  column: unknown;
}

function failure(run: () => unknown): Failure {
  try {
    run();
  } catch (error) {
    if (error instanceof JacobianError && error.code === 'INVALID_REQUEST') {
      const data = error.data ?? {};
      return { message: error.message, path: error.path, rule: data['rule'], line: data['line'], column: data['column'] };
    }
    throw error;
  }
  throw new Error('expected INVALID_REQUEST');
}

describe('CPLEX LP reader', () => {
  it('reads the diet problem: keywords in capitals, comments, a row over two lines, upper bounds', () => {
    const problem = lp(DIET_LP);
    expect(problem.sense).toBe('minimize');
    expect(problem.variables.map((v) => [v.name, v.lower, v.upper])).toEqual([
      ['oatmeal', '0', '4'],
      ['chicken', '0', '3'],
      ['eggs', '0', '2'],
      ['milk', '0', '8'],
      ['pie', '0', '2'],
      ['pork_beans', '0', '2'],
    ]);
    expect(problem.objective).toEqual({ oatmeal: '3', chicken: '24', eggs: '13', milk: '9', pie: '20', pork_beans: '19' });
    expect(problem.constraints.map((c) => [c.name, c.relation, c.rhs, Object.keys(c.coefficients).length])).toEqual([
      ['energy', '>=', '2000', 6],
      ['protein', '>=', '55', 6],
      ['calcium', '>=', '800', 6],
    ]);
    expect(problem.constraints[2]?.coefficients['milk']).toBe('285');
  });

  it('reads the same problem from free MPS', () => {
    expect(canonicalize(mps(DIET_MPS))).toBe(canonicalize(lp(DIET_LP)));
  });

  it('reads every synonym of its section keywords, in any case', () => {
    const variants: [string, string, string, string, string][] = [
      ['minimise', 'subject to', 'bound', 'generals', 'binaries'],
      ['MIN', 'SUCH THAT', 'BOUNDS', 'GEN', 'BIN'],
      ['Minimum', 'st', 'Bounds', 'General', 'Binary'],
      ['minimize', 's.t.', 'bounds', 'general', 'binary'],
      ['minimize', 'ST.', 'bounds', 'general', 'binary'],
    ];
    const expected = lp('minimize\n obj: x + y + z\nsubject to\n c: x + y + z >= 1\nbounds\n x <= 5\ngeneral\n y\nbinary\n z\nend\n');
    for (const [objective, constraints, bounds, general, binary] of variants) {
      const text = `${objective}\n obj: x + y + z\n${constraints}\n c: x + y + z >= 1\n${bounds}\n x <= 5\n${general}\n y\n${binary}\n z\nEND\n`;
      expect(canonicalize(lp(text)), text).toBe(canonicalize(expected));
    }
    expect(expected.variables).toEqual([
      { name: 'x', lower: '0', upper: '5', integer: false },
      { name: 'y', lower: '0', upper: null, integer: true },
      { name: 'z', lower: '0', upper: '1', integer: true },
    ]);
    for (const word of ['maximize', 'maximise', 'maximum', 'max', 'MAXIMIZE']) expect(lp(`${word}\n x\nst\nend`).sense).toBe('maximize');
  });

  it('reads terms, relations, constants and bounds exactly', () => {
    const problem = lp(String.raw`\ every form of term and bound
Maximize obj: 2 x - y + 0.5 z - x + 3 + 1/4
Subject To
 a: -x + 2.5e1 y < 7
 b: 3 x + y + 4 =< 10
 c: x - y_ >= 1
 x + z > -2
 d: x + z => 1e-2
 r1: x = 0
 e: 1/3 x + y + y = 2/3
Bounds
 -inf <= y <= +inf
 z >= -1
 3 >= x
 y_ = -4.5
 z <= 1E+1
End
`);
    expect(problem.objective).toEqual({ x: '1', y: '-1', z: '1/2' });
    expect(problem.objective_constant).toBe('13/4');
    expect(problem.constraints.map((c) => [c.name, c.relation, c.rhs])).toEqual([
      ['a', '<=', '7'],
      ['b', '<=', '6'],
      ['c', '>=', '1'],
      // The unnamed fourth row is "r4"; the explicit "r1" keeps its name.
      ['r4', '>=', '-2'],
      ['d', '>=', '1/100'],
      ['r1', '=', '0'],
      ['e', '=', '2/3'],
    ]);
    expect(problem.constraints[0]?.coefficients).toEqual({ x: '-1', y: '25' });
    expect(problem.constraints[6]?.coefficients).toEqual({ x: '1/3', y: '2' });
    expect(problem.variables).toEqual([
      { name: 'x', lower: '0', upper: '3', integer: false },
      { name: 'y', lower: null, upper: null, integer: false },
      { name: 'z', lower: '-1', upper: '10', integer: false },
      { name: 'y_', lower: '-9/2', upper: '-9/2', integer: false },
    ]);
  });

  it('names an unnamed row r<i>, appending "_" while an explicit row has that name', () => {
    const problem = lp('min\n x\nst\n r2: x >= 1\n x <= 5\n r2_: x >= 0\nend');
    expect(problem.constraints.map((c) => c.name)).toEqual(['r2', 'r2__', 'r2_']);
  });

  it('reads variables with zero coefficients, which writers use to declare them, and an empty constraints section', () => {
    const problem = lp('min\n obj: 0 a + 0 b\nsubject to\nbounds\n b free\nend');
    expect(problem.variables.map((v) => v.name)).toEqual(['a', 'b']);
    expect(problem.objective).toEqual({});
    expect(problem.constraints).toEqual([]);
  });

  const rejects: [string, string, number, number, string][] = [
    ['no objective section', 'subject to\n x >= 1\nend', 1, 1, 'missing-section'],
    ['a bad number', 'min\n obj: 1.5e999 x\nst\nend', 2, 7, 'number-size'],
    ['a fraction with zero denominator', 'min\n x + 1/0 y\nst\nend', 2, 6, 'zero-denominator'],
    ['a coefficient against its name', 'min\n 3x\nst\nend', 2, 3, 'term-separation'],
    ['a row with no relation', 'min\n x\nst\n c1: x + y\n c2: x >= 1\nend', 5, 2, 'no-relation'],
    ['a row with no relation before a section', 'min\n x\nst\n c1: x + y\nbounds\nend', 5, 1, 'no-relation'],
    ['a missing End', 'min\n x\nst\n c: x >= 1\n', 5, 1, 'missing-section'],
    ['a missing Subject To', 'min\n x\nbounds\n x <= 1\nend', 3, 1, 'missing-section'],
    ['a bound on an unknown variable', 'min\n x\nst\nbounds\n y <= 1\nend', 5, 2, 'unknown-name'],
    ['an unknown variable in general', 'min\n x\nst\ngeneral\n x y\nend', 5, 4, 'unknown-name'],
    ['a bound given twice', 'min\n x\nst\nbounds\n x <= 1\n x <= 2\nend', 6, 4, 'bound-repeated'],
    ['free after an upper bound', 'min\n x\nst\nbounds\n x <= 1\n x free\nend', 6, 2, 'bound-repeated'],
    ['a lower bound above the upper', 'min\n x\nst\nbounds\n x >= 5\n x <= 3\nend', 6, 4, 'bound-order'],
    ['a negative upper bound with the default lower bound 0', 'min\n x\nst\nbounds\n x <= -1\nend', 5, 4, 'bound-order'],
    ['a quadratic term', 'min\n obj: x + [ x ^ 2 ] / 2\nst\nend', 2, 11, 'unsupported'],
    ['an SOS section', 'min\n x\nst\nsos\n s1: x:1\nend', 4, 1, 'unsupported'],
    ['a variable on the right', 'min\n x\nst\n c: x >= y\nend', 4, 10, 'syntax'],
    ['a ranged row', 'min\n x\nst\n c: x >= 1 <= 4\nend', 4, 12, 'unsupported'],
    ['an infinite right-hand side', 'min\n x\nst\n c: x <= inf\nend', 4, 10, 'infinite-value'],
    ['+infinity as a lower bound', 'min\n x\nst\nbounds\n x >= inf\nend', 5, 4, 'infinite-value'],
    ['text after End', 'min\n x\nst\nend\n x', 5, 2, 'syntax'],
    ['a binary variable with a bound', 'min\n x\nst\nbounds\n x <= 3\nbinary\n x\nend', 7, 2, 'bound-repeated'],
    ['a bounds section twice', 'min\n x\nst\nbounds\nbounds\nend', 5, 1, 'section-order'],
    ['a second objective section', 'min\n x\nst\nmax\n x\nend', 4, 1, 'section-order'],
    ['a duplicate row name', 'min\n x\nst\n c: x >= 1\n c: x <= 2\nend', 5, 2, 'duplicate-name'],
    ['a name listed twice in general', 'min\n x\nst\ngeneral\n x\n x\nend', 6, 2, 'duplicate-entry'],
    ['a character outside ASCII', 'min\n x + ÿ\nst\nend', 2, 6, 'character'],
    ['a name starting with a period', 'min\n .x\nst\nend', 2, 2, 'syntax'],
    ['two terms without a sign', 'min\n x y\nst\nend', 2, 4, 'syntax'],
    ['a name over 255 characters', `min\n ${'v'.repeat(256)}\nst\nend`, 2, 2, 'name-syntax'],
    ['two signs', 'min\n x + - y\nst\nend', 2, 6, 'syntax'],
    ['the reserved name __proto__', 'min\n x + __proto__\nst\nend', 2, 6, 'name-syntax'],
  ];
  it.each(rejects)('refuses %s at its line and column, naming the rule', (_what, text, line, column, rule) => {
    const error = failure(() => parseCplexLp(text, { path: ['payload', 'lp_text'] }));
    expect(error).toMatchObject({ path: ['payload', 'lp_text'], rule, line, column });
    expect(error.message).toContain(`payload.lp_text (CPLEX LP) at line ${line}, column ${column}:`);
    expect(error.message).toContain(`(rule ${rule})`);
  });

  it('the contract refuses the name __proto__ (zod\'s record parsing would drop its coefficients silently)', () => {
    const request = JSON.parse('{"sense":"minimize","variables":[{"name":"__proto__"}],"objective":{"__proto__":5},"constraints":[]}') as unknown;
    expect(LpProblemInputSchema.safeParse(request).success).toBe(false);
    expect(failure(() => canonicalLpProblem({ sense: 'minimize', variables: [{ name: '__proto__' }], objective: {}, constraints: [] }))).toMatchObject({ rule: 'name-syntax', path: ['problem', 'variables', 0, 'name'] });
  });

  it('refuses a text over the length bound before reading it, and more variables than LP_LIMITS allows where the first one too many appears', () => {
    expect(failure(() => parseCplexLp(' '.repeat(LP_TEXT_LIMITS.maxTextLength + 1)))).toMatchObject({ rule: 'text-size', line: 1, column: 1 });
    const names = Array.from({ length: LP_LIMITS.maxVariables + 1 }, (_, k) => `x${k}`);
    const text = `min\n obj: ${names.join('\n + ')}\nst\nend`;
    expect(failure(() => parseCplexLp(text))).toMatchObject({ rule: 'size', line: 2 + LP_LIMITS.maxVariables, column: 4 });
  });
});

describe('free MPS reader', () => {
  it('reads the transportation problem: ranges on L, G and E rows as two rows, markers, bounds, a dropped N row', () => {
    const problem = mps(TRANSPORT_MPS);
    expect(problem.sense).toBe('minimize');
    expect(problem.objective_constant).toBe('0');
    expect(problem.constraints.map((c) => [c.name, c.relation, c.rhs])).toEqual([
      ['supply_seattle', '<=', '350'],
      ['supply_seattle_range', '>=', '0'],
      ['supply_san_diego', '<=', '600'],
      ['demand_new_york', '>=', '325'],
      ['demand_new_york_range', '<=', '375'],
      ['demand_chicago', '>=', '300'],
      ['demand_chicago_range', '<=', '400'],
      ['demand_topeka', '<=', '300'],
      ['demand_topeka_range', '>=', '275'],
    ]);
    expect(problem.constraints[4]?.coefficients).toEqual({ x_sea_ny: '1', x_sd_ny: '1' });
    expect(problem.objective).toMatchObject({ x_sea_ny: '9/40', x_sd_top: '63/500' });
    expect(problem.variables.every((v) => v.integer && v.lower === '0')).toBe(true);
    expect(problem.variables.map((v) => v.upper)).toEqual(['1000', '1000', '1000', '1000', '1000', null]);
  });

  it('reads OBJSENSE, every bound type, an objective RHS as minus the constant, and tabs', () => {
    const problem = mps(`NAME  bounds test
OBJSENSE
    MAX
ROWS
 N obj
 E c
COLUMNS
\tup obj 1 c 1
 lo obj 1 c 1
 fx obj 1 c 1
 fr obj 1 c 1
 mi obj 1 c 1
 pl obj 1 c 1
 bv obj 1 c 1
 li obj 1 c 1
 ui obj 1 c 1
RHS
 RHS obj 2.5 c 1
BOUNDS
 UP BND up 4
 LO BND lo -2
 FX BND fx 3/7
 FR BND fr
 MI BND mi
 UP BND mi -1
 PL BND pl
 BV BND bv
 LI BND li -3
 UP BND li 3
 UI BND ui 9
ENDATA
`);
    expect(problem.sense).toBe('maximize');
    expect(problem.objective_constant).toBe('-5/2');
    expect(problem.variables.map((v) => [v.name, v.lower, v.upper, v.integer])).toEqual([
      ['up', '0', '4', false],
      ['lo', '-2', null, false],
      ['fx', '3/7', '3/7', false],
      ['fr', null, null, false],
      ['mi', null, '-1', false],
      ['pl', '0', null, false],
      ['bv', '0', '1', true],
      ['li', '-3', '3', true],
      ['ui', '0', '9', true],
    ]);
    expect(mps('NAME\nOBJSENSE MIN\nROWS\n N obj\nCOLUMNS\n x obj 1\nENDATA').sense).toBe('minimize');
    // GLPK writes a column without coefficients as "w c 0 $ empty column".
    expect(mps('NAME\nROWS\n N obj\n L c\nCOLUMNS\n x c 1\n w c 0 $ empty column\nRHS\n RHS1 c 2 $ comment\nENDATA').variables.map((v) => v.name)).toEqual(['x', 'w']);
  });

  const rejects: [string, string, number, number, string][] = [
    ['an unknown section', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\nFOO\nENDATA', 6, 1, 'unknown-section'],
    ['a bad number', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1.2.3\nENDATA', 5, 8, 'number-syntax'],
    ['a column in two blocks', 'NAME\nROWS\n N obj\n L c\nCOLUMNS\n x obj 1\n y obj 1\n x c 1\nENDATA', 8, 2, 'column-block'],
    ['a bound on an unknown column', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n UP BND y 4\nENDATA', 7, 9, 'unknown-name'],
    ['a missing ENDATA', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\n', 6, 1, 'missing-section'],
    ['a missing COLUMNS', 'NAME\nROWS\n N obj\nENDATA\n', 4, 1, 'missing-section'],
    ['a row twice in a column', 'NAME\nROWS\n N obj\n L c\nCOLUMNS\n x c 1 c 2\nENDATA', 6, 8, 'duplicate-entry'],
    ['an entry on an unknown row', 'NAME\nROWS\n N obj\nCOLUMNS\n x d 1\nENDATA', 5, 4, 'unknown-name'],
    ['a negative upper bound without a lower bound', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n UP BND x -4\nENDATA', 7, 2, 'bound-ambiguous'],
    ['an integer column without an upper bound', "NAME\nROWS\n N obj\nCOLUMNS\n M 'MARKER' 'INTORG'\n x obj 1\n M 'MARKER' 'INTEND'\nENDATA", 6, 2, 'bound-ambiguous'],
    ['INTEND without INTORG', "NAME\nROWS\n N obj\nCOLUMNS\n M 'MARKER' 'INTEND'\nENDATA", 5, 13, 'marker'],
    ['an integer block left open', "NAME\nROWS\n N obj\nCOLUMNS\n M 'MARKER' 'INTORG'\n x obj 1\nENDATA", 7, 1, 'marker'],
    ['a second RHS set', 'NAME\nROWS\n N obj\n L c\nCOLUMNS\n x c 1\nRHS\n R1 c 1\n R2 c 2\nENDATA', 9, 2, 'multiple-sets'],
    ['an RHS given twice', 'NAME\nROWS\n N obj\n L c\nCOLUMNS\n x c 1\nRHS\n c 1\n c 2\nENDATA', 9, 2, 'duplicate-entry'],
    ['a range row name already taken', 'NAME\nROWS\n N obj\n L c\n L c_range\nCOLUMNS\n x c 1\nRANGES\n RNG c 4\nENDATA', 9, 6, 'duplicate-name'],
    ['a range on the objective', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\nRANGES\n RNG obj 4\nENDATA', 7, 6, 'syntax'],
    ['a bound given twice', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n UP BND x 4\n FX BND x 2\nENDATA', 8, 2, 'bound-repeated'],
    ['a lower bound above the upper', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n LO BND x 4\n UP BND x 2\nENDATA', 8, 2, 'bound-order'],
    ['a semi-continuous bound', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n SC BND x 2\nENDATA', 7, 2, 'unsupported'],
    ['a quadratic objective', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\nQUADOBJ\n x x 1\nENDATA', 6, 1, 'unsupported'],
    ['sections out of order', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\nRHS\nENDATA', 7, 1, 'section-order'],
    ['a data line before any section', ' x obj 1\nNAME\nENDATA', 1, 2, 'syntax'],
    ['an unknown row type', 'NAME\nROWS\n X c\nENDATA', 3, 2, 'syntax'],
    ['a duplicate row', 'NAME\nROWS\n N obj\n L obj\nENDATA', 4, 4, 'duplicate-name'],
    ['text after ENDATA', 'NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\nENDATA\nROWS', 7, 1, 'syntax'],
    ['a character outside ASCII', 'NAME\nROWS\n N objé\nENDATA', 3, 7, 'character'],
    ['OBJSENSE with no sense', 'NAME\nOBJSENSE\nROWS\nENDATA', 3, 1, 'syntax'],
    ['a row name starting with $ (a comment where rows are named)', 'NAME\nROWS\n N obj\n L $c\nENDATA', 4, 4, 'name-syntax'],
  ];
  it.each(rejects)('refuses %s at its line and column, naming the rule', (_what, text, line, column, rule) => {
    const error = failure(() => parseFreeMps(text, { path: ['payload', 'mps_text'] }));
    expect(error).toMatchObject({ path: ['payload', 'mps_text'], rule, line, column });
    expect(error.message).toContain(`payload.mps_text (free MPS) at line ${line}, column ${column}:`);
  });

  it('refuses more rows than LP_LIMITS allows at the first one too many', () => {
    const rows = Array.from({ length: LP_LIMITS.maxConstraints + 1 }, (_, i) => ` L c${i}`);
    expect(failure(() => parseFreeMps(`NAME\nROWS\n N obj\n${rows.join('\n')}\nENDATA`))).toMatchObject({ rule: 'size', line: 4 + LP_LIMITS.maxConstraints, column: 4 });
  });
});

describe('numbers as the writers write them', () => {
  it.each([
    ['1/8', '0.125'],
    ['-5/2', '-2.5'],
    ['7', '7'],
    ['1/3', null],
    ['-3/1250', '-0.0024'],
  ])('%s terminates as %s', (text, decimal) => {
    const value = parseLpNumber(text);
    if ('rule' in value) throw new Error(value.message);
    expect(terminatingDecimal(value)).toBe(decimal);
  });

  it('rounds to 20 significant digits, reading back within half a unit in the last place', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.bigInt({ min: 1n, max: 10n ** 30n }), (num, den) => {
        const value = parseLpNumber(`${num}/${den}`);
        if ('rule' in value) return;
        const text = roundedDecimal(value);
        const back = parseLpNumber(text);
        if ('rule' in back) throw new Error(`${text}: ${back.message}`);
        // |back − value| ≤ |value| / 10^19 / 2, exactly: 2·10^19·|back·den − num·back.den| ≤ |num|·back.den
        const difference = back.num * value.den - value.num * back.den;
        const abs = (a: bigint): bigint => (a < 0n ? -a : a);
        expect(2n * 10n ** 19n * abs(difference) <= abs(value.num) * back.den).toBe(true);
      }),
    );
  });
});

/** Random problems: names from a pool that includes names CPLEX LP or MPS cannot carry. */
const NAME_POOL = ['x', 'y', 'cost', 'x.1', 'a(b)', 'flow_1', 'x-1', '2x', 'e1', 'free', 'st', 'RHS', '$z', 'a:b', 'E', 'ROWS', 'c[1]', 'q*', 'constructor', '__proto__', 'toString'];
const numberArb = fc.oneof(
  fc.integer({ min: -20, max: 20 }).map(String),
  fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 1, max: 12 })).map(([p, q]) => `${p}/${q}`),
  fc.constantFrom('0.1', '-2.75', '1e-3', '123456789012345678901234567890', '-1/3'),
);
const problemArb = fc
  .record({
    sense: fc.constantFrom('minimize' as const, 'maximize' as const),
    names: fc.uniqueArray(fc.oneof(fc.constantFrom(...NAME_POOL), fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/)), { minLength: 1, maxLength: 6 }),
    rowCount: fc.integer({ min: 0, max: 5 }),
    constant: fc.oneof(fc.constant('0'), numberArb),
    seed: fc.array(fc.tuple(numberArb, fc.boolean(), fc.integer({ min: 0, max: 9 })), { minLength: 200, maxLength: 200 }),
    rowNames: fc.uniqueArray(fc.oneof(fc.constantFrom(...NAME_POOL, 'obj', 'r2'), fc.stringMatching(/^[a-z][a-z0-9]{0,4}$/)), { minLength: 5, maxLength: 5 }),
    named: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  })
  .map(({ sense, names, rowCount, constant, seed, rowNames, named }): LpProblemInput => {
    let k = 0;
    const draw = (): [string, boolean, number] => seed[k++ % seed.length] ?? ['0', false, 0];
    const variables = names.map((name) => {
      const [a, integer, kind] = draw();
      const [b] = draw();
      const [lo, hi] = [parseLpNumber(a), parseLpNumber(b)].map((v) => ('rule' in v ? 0 : Number(v.num) / Number(v.den)));
      const [low, high] = (lo ?? 0) <= (hi ?? 0) ? [a, b] : [b, a];
      const bounds = [{}, { lower: null }, { upper: high }, { lower: low, upper: high }, { lower: null, upper: high }, { lower: low }, { lower: low, upper: low }, {}, { lower: null, upper: null }, { upper: high }][kind] ?? {};
      return { name, ...bounds, ...(integer ? { integer: true } : {}) };
    });
    const form = (): Record<string, string> => Object.fromEntries(names.flatMap((name) => { const [v, keep] = draw(); return keep ? [[name, v]] : []; }));
    const constraints = Array.from({ length: rowCount }, (_, i) => {
      const [rhs, , kind] = draw();
      return { ...(named[i] === true ? { name: rowNames[i] ?? `row${i}` } : {}), coefficients: form(), relation: (['<=', '=', '>='] as const)[kind % 3] ?? '=', rhs };
    });
    return { sense, variables, objective: form(), objective_constant: constant, constraints };
  })
  .filter((input) => {
    try {
      canonicalLpProblem(input, []);
      return true;
    } catch {
      return false;
    }
  })
  .map((input) => canonicalLpProblem(input, []));

/** A problem read back from a writer's text, its names mapped back to the problem's own. */
function renameBack(read: LpProblem, written: { variableNames: string[]; rowNames: string[] }, original: LpProblem): LpProblem {
  const variable = new Map(written.variableNames.map((name, j) => [name, original.variables[j]?.name ?? name]));
  const row = new Map(written.rowNames.map((name, i) => [name, original.constraints[i]?.name ?? name]));
  const form = (f: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(f).map(([name, v]) => [variable.get(name) ?? name, v]));
  return {
    ...read,
    variables: read.variables.map((v) => ({ ...v, name: variable.get(v.name) ?? v.name })),
    objective: form(read.objective),
    constraints: read.constraints.map((c) => ({ ...c, name: row.get(c.name) ?? c.name, coefficients: form(c.coefficients) })),
  };
}

describe('writers read back to the same canonical problem', () => {
  it('CPLEX LP: random problems, names renamed where CPLEX cannot carry them', () => {
    fc.assert(
      fc.property(problemArb, (problem) => {
        const written = writeCplexLp(problem);
        expect(written.exact).toBe(true);
        expect(written.variableNames.every(isCplexLpName) && written.rowNames.every(isCplexLpName)).toBe(true);
        const read = lp(written.text);
        expect(canonicalize(renameBack(read, written, problem))).toBe(canonicalize(problem));
        if (written.renamed === 0) expect(canonicalize(read)).toBe(canonicalize(problem));
      }),
      { numRuns: 300 },
    );
  });

  it('free MPS: random problems, names renamed where MPS cannot carry them', () => {
    fc.assert(
      fc.property(problemArb, (problem) => {
        const written = writeFreeMps(problem);
        expect(written.exact).toBe(true);
        expect(written.variableNames.every(isFreeMpsName) && written.rowNames.every(isFreeMpsName)).toBe(true);
        const read = mps(written.text);
        expect(canonicalize(renameBack(read, written, problem))).toBe(canonicalize(problem));
      }),
      { numRuns: 300 },
    );
  });

  it('renames deterministically: _x<j> / _r<i>, "_" appended while taken', () => {
    const problem = canonicalLpProblem({
      sense: 'minimize',
      variables: [{ name: 'x-1' }, { name: '_x1' }, { name: 'free' }],
      objective: { 'x-1': 1 },
      constraints: [{ name: 'a:b', coefficients: { free: 1 }, relation: '>=', rhs: 1 }, { name: 'obj', coefficients: {}, relation: '<=', rhs: 0 }],
    }, []);
    const written = writeCplexLp(problem);
    expect(written).toMatchObject({ variableNames: ['_x1_', '_x1', '_x3'], rowNames: ['_r1', 'obj'], objectiveName: 'obj_', renamed: 3, exact: true });
    expect(writeFreeMps(problem)).toMatchObject({ variableNames: ['x-1', '_x1', 'free'], rowNames: ['a:b', 'obj'], objectiveName: 'obj_', renamed: 0 });
  });

  it('rounds what has no exact decimal when asked, and says so', () => {
    const problem = lp(SMALL_FREE_LP);
    const written = writeCplexLp(problem, { fractions: 'round' });
    expect(written.exact).toBe(false);
    expect(written.text).toContain('+ 3.3333333333333333333e-1 z');
    expect(writeCplexLp(problem).text).toContain('+ 1/3 z');
    // Long numbers are rounded too (GLPK refuses tokens over 255 characters, CBC's MPS fields over 100); 10^280 rounds exactly.
    const big = canonicalLpProblem({ sense: 'minimize', variables: [{ name: 'x', upper: (2n ** 200n).toString() }, { name: 'y', upper: `1${'0'.repeat(280)}` }], objective: { x: 1 }, constraints: [] }, []);
    const rounded = writeFreeMps(big, { fractions: 'round' });
    expect(rounded.text).toContain(' UP BND x 1.6069380442589902755e60\n');
    expect(rounded.text).toContain(' UP BND y 1.0000000000000000000e280\n');
    expect(rounded.exact).toBe(false);
    expect(writeFreeMps(big).text).toContain(` UP BND x ${2n ** 200n}\n`);
  });
});

describe('readers on damaged texts', () => {
  /** Either a problem the contract accepts, or INVALID_REQUEST at a place inside the text; never another error. */
  function readsOrFailsInside(read: (text: string) => LpProblemInput, text: string): void {
    try {
      canonicalLpProblem(read(text), []);
    } catch (error) {
      if (!(error instanceof JacobianError) || error.code !== 'INVALID_REQUEST') throw error;
      const { line, column, rule } = error.data ?? {};
      const lines = text.split('\n');
      expect(typeof rule).toBe('string');
      expect(line).toBeGreaterThanOrEqual(1);
      expect(line).toBeLessThanOrEqual(lines.length + 1);
      expect(column).toBeGreaterThanOrEqual(1);
      expect(column).toBeLessThanOrEqual((lines[(line as number) - 1] ?? '').length + 1);
    }
  }
  const edit = fc.tuple(fc.nat(), fc.constantFrom('', ' ', '\n', '-', '+', ':', '<=', '=', 'x', '3', '1/0', '.', 'inf', 'free', 'end', 'ENDATA', "'MARKER'", 'RHS', '\\', '*', 'st', 'bounds', 'UP', 'e5'), fc.integer({ min: 0, max: 3 }));
  const damage = (text: string, [at, insert, remove]: [number, string, number]): string => {
    const k = at % (text.length + 1);
    return text.slice(0, k) + insert + text.slice(k + remove);
  };

  it('CPLEX LP: every damaged text is read or refused at a place inside it', () => {
    const texts = [DIET_LP, SMALL_FREE_LP, SMALL_MILP_LP, writeCplexLp(mps(TRANSPORT_MPS)).text];
    fc.assert(fc.property(fc.constantFrom(...texts), fc.array(edit, { minLength: 1, maxLength: 4 }), (text, edits) => readsOrFailsInside(parseCplexLp, edits.reduce(damage, text))), { numRuns: 2000 });
  });

  it('free MPS: every damaged text is read or refused at a place inside it', () => {
    const texts = [DIET_MPS, TRANSPORT_MPS, writeFreeMps(lp(SMALL_FREE_LP)).text];
    fc.assert(fc.property(fc.constantFrom(...texts), fc.array(edit, { minLength: 1, maxLength: 4 }), (text, edits) => readsOrFailsInside(parseFreeMps, edits.reduce(damage, text))), { numRuns: 2000 });
  });
});

const found = (command: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
};
const GLPSOL = found('glpsol');
const CBC = found('cbc');

describe.skipIf(!GLPSOL && !CBC)('GLPK and CBC read what the writers write (known optima)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jacobian-lp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  const file = (text: string, extension: string): string => {
    const path = join(dir, `p${files++}.${extension}`);
    writeFileSync(path, text);
    return path;
  };

  /** glpsol's optimum of a file (reading an LP or free MPS), as a number. */
  function glpsol(path: string, format: '--lp' | '--freemps', maximize: boolean): number {
    const out = join(dir, `out${files++}.txt`);
    execFileSync('glpsol', [format, path, ...(maximize ? ['--max'] : []), '-o', out], { stdio: 'pipe' });
    const report = execFileSync('cat', [out], { encoding: 'utf8' });
    const value = /Objective:\s+\S+ = (\S+)/.exec(report)?.[1];
    expect(report).not.toMatch(/UNDEFINED|INFEASIBLE|UNBOUNDED/);
    return Number(value);
  }

  function cbc(path: string, maximize: boolean): number {
    const report = execFileSync('cbc', [path, ...(maximize ? ['-max'] : []), '-solve', '-quit'], { encoding: 'utf8', stdio: 'pipe' });
    expect(report).not.toMatch(/infeasible|errors on input|Coin0008I.*read with [1-9]/i);
    const value = /Objective value:\s+(\S+)/.exec(report)?.[1] ?? /Optimal - objective value (\S+)/.exec(report)?.[1];
    return Number(value);
  }

  const known: [string, string, number][] = [
    ['the diet problem', DIET_LP, 92.5],
    ['a small maximization', SMALL_MAX_LP, 11],
    ['a small integer program (its LP relaxation: 21)', SMALL_MILP_LP, 20],
    ['free and negative bounds, an equality, 1/3 and a constant', SMALL_FREE_LP, 1.5],
  ];

  it.each(known)('%s: CPLEX LP and free MPS as written give the known optimum', (_what, text, optimum) => {
    const problem = lp(text);
    const constant = Number(problem.objective_constant.split('/')[0]) / Number(problem.objective_constant.split('/')[1] ?? '1');
    const maximize = problem.sense === 'maximize';
    const options = { fractions: 'round', objectiveConstant: 'omit', objectiveSense: 'omit' } as const;
    const lpFile = file(writeCplexLp(problem, options).text, 'lp');
    const mpsFile = file(writeFreeMps(problem, options).text, 'mps');
    if (GLPSOL) {
      expect(glpsol(lpFile, '--lp', false) + constant).toBeCloseTo(optimum, 6);
      expect(glpsol(mpsFile, '--freemps', maximize) + constant).toBeCloseTo(optimum, 6);
    }
    if (CBC) {
      expect(cbc(lpFile, false) + constant).toBeCloseTo(optimum, 6);
      expect(cbc(mpsFile, maximize) + constant).toBeCloseTo(optimum, 6);
    }
  });

  it('names the formats cannot carry are renamed into names GLPK and CBC read (the known optimum 11 again)', () => {
    const problem = canonicalLpProblem({
      sense: 'maximize',
      variables: [{ name: 'x-1', upper: 3 }, { name: 'free' }],
      objective: { 'x-1': 3, free: 2 },
      constraints: [{ name: 'ROWS', coefficients: { 'x-1': 1, free: 1 }, relation: '<=', rhs: 4 }, { name: '$c:2', coefficients: { 'x-1': 1, free: 3 }, relation: '<=', rhs: 6 }],
    }, []);
    const lpWritten = writeCplexLp(problem);
    const mpsWritten = writeFreeMps(problem, { objectiveSense: 'omit' });
    expect([lpWritten.renamed, mpsWritten.renamed]).toEqual([3, 2]);
    if (GLPSOL) {
      expect(glpsol(file(lpWritten.text, 'lp'), '--lp', false)).toBeCloseTo(11, 9);
      expect(glpsol(file(mpsWritten.text, 'mps'), '--freemps', true)).toBeCloseTo(11, 9);
    }
    if (CBC) {
      expect(cbc(file(lpWritten.text, 'lp'), false)).toBeCloseTo(11, 9);
      expect(cbc(file(mpsWritten.text, 'mps'), true)).toBeCloseTo(11, 9);
    }
  });

  it.skipIf(!GLPSOL)('GLPK reads our free MPS of random problems and writes CPLEX LP and free MPS that our readers read back to the same problem', () => {
    const decimal = fc.oneof(fc.integer({ min: -30, max: 30 }).map(String), fc.integer({ min: -4000, max: 4000 }).map((k) => String(k / 8)));
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/).filter(isCplexLpName);
    const simpleArb = fc
      .record({
        sense: fc.constantFrom('minimize' as const, 'maximize' as const),
        names: fc.uniqueArray(name, { minLength: 1, maxLength: 6 }),
        // At least one row: GLPK 5.0 aborts writing a problem with none (assertion P->m > 0 in api/mps.c).
        rows: fc.array(fc.tuple(fc.array(fc.tuple(fc.nat(), decimal), { maxLength: 4 }), fc.constantFrom('<=' as const, '=' as const, '>=' as const), decimal), { minLength: 1, maxLength: 5 }),
        costs: fc.array(fc.tuple(fc.nat(), decimal), { maxLength: 6 }),
        bounds: fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), decimal, fc.integer({ min: 0, max: 20 }), fc.boolean()), { minLength: 6, maxLength: 6 }),
      })
      .map(({ sense, names, rows, costs, bounds }): LpProblemInput => {
        const form = (terms: [number, string][]): Record<string, string> => Object.fromEntries(terms.map(([j, v]) => [names[j % names.length] ?? '', v]));
        const variables = names.map((n, j) => {
          const [kind, low, width, integer] = bounds[j] ?? [0, '0', 0, false];
          const upper = String(Number(low) + width);
          const shape = [{}, { lower: null }, { upper: String(width) }, { lower: low, upper }, { lower: null, upper: null }, { lower: low }][kind] ?? {};
          return { name: n, ...shape, ...(integer ? { integer: true } : {}) };
        });
        return { sense, variables, objective: form(costs), constraints: rows.map(([terms, relation, rhs], i) => ({ name: `c${i}`, coefficients: form(terms), relation, rhs })) };
      })
      .map((input) => canonicalLpProblem(input, []));
    /** Variables in name order (GLPK's LP writer declares them in its own order), keys canonical. */
    const normal = (problem: LpProblem, sense: LpProblem['sense'] = problem.sense): string => canonicalize({ ...problem, sense, variables: [...problem.variables].sort((a, b) => (a.name < b.name ? -1 : 1)) });
    fc.assert(
      fc.property(simpleArb, (problem) => {
        const ours = file(writeFreeMps(problem, { objectiveSense: 'omit' }).text, 'mps');
        const lpOut = join(dir, `g${files++}.lp`);
        const mpsOut = join(dir, `g${files++}.mps`);
        execFileSync('glpsol', ['--freemps', ours, ...(problem.sense === 'maximize' ? ['--max'] : []), '--check', '--wlp', lpOut, '--wfreemps', mpsOut], { stdio: 'pipe' });
        const fromLp = lp(execFileSync('cat', [lpOut], { encoding: 'utf8' }));
        expect(normal(fromLp)).toBe(normal(problem));
        // GLPK's MPS has no OBJSENSE: it reads as a minimization of the same data.
        const fromMps = mps(execFileSync('cat', [mpsOut], { encoding: 'utf8' }));
        expect(normal(fromMps, problem.sense)).toBe(normal(problem));
      }),
      { numRuns: 60 },
    );
  });

  it.skipIf(!GLPSOL)('glpsol reads the ranged transportation MPS itself and our rewrite of it to the same known optimum 153.675', () => {
    expect(glpsol(file(TRANSPORT_MPS, 'mps'), '--freemps', false)).toBeCloseTo(153.675, 6);
    expect(glpsol(file(writeFreeMps(mps(TRANSPORT_MPS)).text, 'mps'), '--freemps', false)).toBeCloseTo(153.675, 6);
    expect(glpsol(file(writeCplexLp(mps(TRANSPORT_MPS)).text, 'lp'), '--lp', false)).toBeCloseTo(153.675, 6);
  });
});
