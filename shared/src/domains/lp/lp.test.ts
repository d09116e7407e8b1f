import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalize } from '../../canonical-json.js';
import { JacobianError } from '../../errors.js';
import { canonicalLpCertificateClaim, LpCertificateClaimInputSchema, LpCertificateClaimSchema } from './certificate.js';
import { canonicalLpProblem, LP_LIMITS, LpProblemSchema, LpRule, parseLpNumber, type LpProblem, type LpProblemInput } from './problem.js';

const diet: LpProblemInput = {
  sense: 'minimize',
  variables: [{ name: 'x' }, { name: 'y', lower: '1/2', upper: 10 }, { name: 'z', lower: null, integer: true }],
  objective: { x: 2, y: '0.5', z: '0' },
  constraints: [
    { coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 3 },
    { name: 'cap', coefficients: { x: '3/6', z: '-1e-2' }, relation: '<=', rhs: '1.25' },
  ],
};

function ruleOf(run: () => unknown): { rule: unknown; path: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof JacobianError) return { rule: (error.data as { rule?: unknown } | undefined)?.rule, path: error.path };
    throw error;
  }
  throw new Error('expected a JacobianError');
}

describe('LP numbers', () => {
  it.each([
    ['3', '3'],
    ['-3/6', '-1/2'],
    ['2.50', '5/2'],
    ['1e-3', '1/1000'],
    ['-1.5E+2', '-150'],
    ['.5', '1/2'],
    ['7.', '7'],
    [0.1, '1/10'],
    [1e21, '1000000000000000000000'],
    [-0, '0'],
  ])('%s is exactly %s', (text, expected) => {
    const value = parseLpNumber(text);
    expect('rule' in value ? value : `${value.num}${value.den === 1n ? '' : `/${value.den}`}`).toBe(expected);
  });

  it.each([
    ['abc', LpRule.NUMBER_SYNTAX],
    ['1/0', LpRule.ZERO_DENOMINATOR],
    ['.', LpRule.NUMBER_SYNTAX],
    ['1e400', LpRule.NUMBER_SIZE],
    ['1/2/3', LpRule.NUMBER_SYNTAX],
    [`${'9'.repeat(400)}`, LpRule.NUMBER_SIZE],
  ])('%s breaks %s', (text, rule) => {
    const value = parseLpNumber(text);
    expect('rule' in value && value.rule).toBe(rule);
  });
});

describe('LP problems', () => {
  it('canonicalizes numbers, default names and bounds, and drops zero coefficients', () => {
    const problem = canonicalLpProblem(diet);
    expect(problem).toEqual({
      sense: 'minimize',
      variables: [
        { name: 'x', lower: '0', upper: null, integer: false },
        { name: 'y', lower: '1/2', upper: '10', integer: false },
        { name: 'z', lower: null, upper: null, integer: true },
      ],
      objective: { x: '2', y: '1/2' },
      objective_constant: '0',
      constraints: [
        { name: 'r1', coefficients: { x: '1', y: '1' }, relation: '>=', rhs: '3' },
        { name: 'cap', coefficients: { x: '1/2', z: '-1/100' }, relation: '<=', rhs: '5/4' },
      ],
    });
    // The stored form is accepted as stored, also after canonical JSON has sorted its keys.
    expect(LpProblemSchema.safeParse(JSON.parse(canonicalize(problem))).success).toBe(true);
  });

  it('refuses a stored problem that is not canonical', () => {
    const problem = canonicalLpProblem(diet);
    const result = LpProblemSchema.safeParse({ ...problem, objective: { x: '4/2' } });
    expect(result.success).toBe(false);
  });

  /** The old check, rebuilt here: a stored problem is canonical when canonicalLpProblem gives it back unchanged. */
  const rebuildsUnchanged = (stored: unknown): boolean => {
    try {
      return canonicalize(canonicalLpProblem(stored as LpProblemInput, [])) === canonicalize(stored);
    } catch (error) {
      if (error instanceof JacobianError) return false;
      throw error;
    }
  };
  const stored = canonicalLpProblem(diet);
  const row = (coefficients: Record<string, string>, rhs = '3'): LpProblem['constraints'][number] => ({ name: 'r1', coefficients, relation: '>=', rhs });

  it.each<[string, LpProblem, string, (string | number)[]]>([
    ['a non-reduced fraction', { ...stored, objective: { x: '2/4' } }, LpRule.CANONICAL, ['objective', 'x']],
    ['a fraction over 1', { ...stored, objective: { x: '1/1' } }, LpRule.CANONICAL, ['objective', 'x']],
    ['a negative denominator', { ...stored, objective: { x: '1/-2' } }, LpRule.NUMBER_SYNTAX, ['objective', 'x']],
    ['a plus sign', { ...stored, constraints: [row({ x: '+1' }), ...stored.constraints.slice(1)] }, LpRule.CANONICAL, ['constraints', 0, 'coefficients', 'x']],
    ['a leading zero', { ...stored, constraints: [row({ x: '1' }, '03'), ...stored.constraints.slice(1)] }, LpRule.CANONICAL, ['constraints', 0, 'rhs']],
    ['minus zero', { ...stored, objective_constant: '-0' }, LpRule.CANONICAL, ['objective_constant']],
    ['a decimal', { ...stored, variables: [{ ...stored.variables[0]!, upper: '2.5' }, ...stored.variables.slice(1)] }, LpRule.CANONICAL, ['variables', 0, 'upper']],
    ['a space', { ...stored, variables: [{ ...stored.variables[0]!, lower: ' 0' }, ...stored.variables.slice(1)] }, LpRule.CANONICAL, ['variables', 0, 'lower']],
    ['a zero denominator', { ...stored, objective: { x: '1/0' } }, LpRule.ZERO_DENOMINATOR, ['objective', 'x']],
    ['a number over 1024 bits', { ...stored, objective: { x: `${2n ** 1024n}` } }, LpRule.NUMBER_SIZE, ['objective', 'x']],
    ['a zero coefficient', { ...stored, objective: { x: '2', z: '0' } }, LpRule.CANONICAL, ['objective', 'z']],
    ['a zero coefficient in a row', { ...stored, constraints: [row({ x: '1', y: '0' }), ...stored.constraints.slice(1)] }, LpRule.CANONICAL, ['constraints', 0, 'coefficients', 'y']],
    ['an undeclared key', { ...stored, constraints: [row({ w: '1' }), ...stored.constraints.slice(1)] }, LpRule.UNKNOWN_NAME, ['constraints', 0, 'coefficients', 'w']],
    ['a duplicate variable', { ...stored, variables: [...stored.variables, stored.variables[0]!] }, LpRule.DUPLICATE_NAME, ['variables', 3, 'name']],
    ['a duplicate row', { ...stored, constraints: [...stored.constraints, stored.constraints[0]!] }, LpRule.DUPLICATE_NAME, ['constraints', 2, 'name']],
    ['a reserved row name', { ...stored, constraints: [...stored.constraints, { ...row({}), name: '__proto__' }] }, LpRule.NAME_SYNTAX, ['constraints', 2, 'name']],
    ['lower above upper', { ...stored, variables: [{ ...stored.variables[0]!, lower: '3', upper: '5/2' }, ...stored.variables.slice(1)] }, LpRule.BOUND_ORDER, ['variables', 0, 'upper']],
    // The entries of the coefficient records, which the schema leaves to the refinement's loop.
    ['a coefficient given as a JSON number', { ...stored, objective: { x: 2 as unknown as string } }, LpRule.CANONICAL, ['objective', 'x']],
    ['a coefficient of more than 700 characters', { ...stored, constraints: [row({ x: `1${'0'.repeat(700)}` }), ...stored.constraints.slice(1)] }, LpRule.NUMBER_SIZE, ['constraints', 0, 'coefficients', 'x']],
    ['an undeclared key in the objective', { ...stored, objective: { x: '2', w: '1' } }, LpRule.UNKNOWN_NAME, ['objective', 'w']],
  ])('refuses a stored problem with %s, as rebuilding it did', (_, problem, rule, path) => {
    expect(rebuildsUnchanged(problem)).toBe(false);
    const result = LpProblemSchema.safeParse(problem);
    expect(result.success).toBe(false);
    const issue = result.error?.issues[0];
    expect(issue?.path).toEqual(path);
    expect(issue?.message).toContain(`rule ${rule}`);
    // Inside a claim, the issue is under `problem`.
    const claim = LpCertificateClaimSchema.safeParse({ problem, relaxation: true, outcome: 'INFEASIBLE', objective_value: null, primal: null, dual: null, reduced_costs: null, farkas: {}, ray: null });
    expect(claim.error?.issues.map((i) => i.path)).toContainEqual(['problem', ...path]);
  });

  it('refuses coefficient records that are not JSON objects, at their field', () => {
    for (const bad of [[], null, 'x: 1', 3]) {
      expect(LpProblemSchema.safeParse({ ...stored, objective: bad }).error?.issues[0]?.path).toEqual(['objective']);
      expect(LpProblemSchema.safeParse({ ...stored, constraints: [{ ...row({ x: '1' }), coefficients: bad }] }).error?.issues[0]?.path).toEqual(['constraints', 0, 'coefficients']);
    }
    const { objective: _, ...without } = stored;
    expect(LpProblemSchema.safeParse(without).error?.issues[0]?.path).toEqual(['objective']);
  });

  it('refuses a __proto__ key of a stored record (as JSON.parse gives it) as an unknown name, where zod\'s record dropped it', () => {
    const problem = JSON.parse(canonicalize(stored).replace('"objective":{', '"objective":{"__proto__":"1",')) as LpProblem;
    expect(Object.hasOwn(problem.objective, '__proto__')).toBe(true);
    const issue = LpProblemSchema.safeParse(problem).error?.issues[0];
    expect(issue?.path).toEqual(['objective', '__proto__']);
    expect(issue?.message).toContain(`rule ${LpRule.UNKNOWN_NAME}`);
  });

  it('advertises the coefficient records with the JSON Schema of z.record(z.string(), z.string().max(700))', () => {
    const { $schema: _, ...expected } = z.toJSONSchema(z.record(z.string(), z.string().max(LP_LIMITS.maxNumberTextLength)));
    const schema = JSON.parse(JSON.stringify(z.toJSONSchema(LpProblemSchema))) as { properties: { objective: unknown; constraints: { items: { properties: { coefficients: unknown } } } } };
    expect(schema.properties.objective).toEqual(expected);
    expect(schema.properties.constraints.items.properties.coefficients).toEqual(expected);
  });

  it('refuses a stored problem over the non-zero limit, as rebuilding it did', () => {
    const variables = Array.from({ length: 400 }, (_, j) => ({ name: `x${j}`, lower: '0', upper: null, integer: false }));
    const coefficients = Object.fromEntries(variables.map((v) => [v.name, '1']));
    const rows = Math.ceil(LP_LIMITS.maxNonzeros / 400);
    const make = (count: number): LpProblem => ({ sense: 'maximize', variables, objective: {}, objective_constant: '0', constraints: Array.from({ length: count }, (_, i) => ({ name: `r${i}`, coefficients, relation: '<=' as const, rhs: '1' })) });
    expect(LpProblemSchema.safeParse(make(rows)).success).toBe(true);
    const over = make(rows + 1);
    expect(rebuildsUnchanged(over)).toBe(false);
    const result = LpProblemSchema.safeParse(over);
    expect(result.error?.issues[0]?.message).toContain(`rule ${LpRule.SIZE}`);
    expect(result.error?.issues[0]?.path).toEqual(['constraints', rows, 'coefficients']);
  });

  it('accepts what rebuilding it accepted: equal bounds, negative fractions, integers at the bit limit, no rows', () => {
    const edge: LpProblem = {
      sense: 'maximize',
      variables: [
        { name: 'a', lower: '-7/3', upper: '-7/3', integer: false },
        { name: 'b', lower: null, upper: `${2n ** 1024n - 1n}`, integer: true },
      ],
      objective: { a: '-1/2', b: `-${2n ** 1024n - 1n}` },
      objective_constant: '-5/9',
      constraints: [],
    };
    for (const problem of [edge, stored]) {
      expect(rebuildsUnchanged(problem)).toBe(true);
      expect(LpProblemSchema.safeParse(problem).success).toBe(true);
    }
  });

  it.each<[string, (p: LpProblemInput) => LpProblemInput, string, (string | number)[]]>([
    ['an unknown variable', (p) => ({ ...p, objective: { w: 1 } }), LpRule.UNKNOWN_NAME, ['problem', 'objective', 'w']],
    ['a duplicate variable', (p) => ({ ...p, variables: [...p.variables, { name: 'x' }] }), LpRule.DUPLICATE_NAME, ['problem', 'variables', 3, 'name']],
    ['a row name clashing with a default one', (p) => ({ ...p, constraints: [...p.constraints, { name: 'r1', coefficients: {}, relation: '=', rhs: 0 }] }), LpRule.DUPLICATE_NAME, ['problem', 'constraints', 2, 'name']],
    ['crossed bounds', (p) => ({ ...p, variables: [{ name: 'x', lower: 2, upper: 1 }, ...p.variables.slice(1)] }), LpRule.BOUND_ORDER, ['problem', 'variables', 0, 'upper']],
    ['a bad rhs', (p) => ({ ...p, constraints: [{ ...p.constraints[0]!, rhs: '1/0' }] }), LpRule.ZERO_DENOMINATOR, ['problem', 'constraints', 0, 'rhs']],
    ['a name with a space', (p) => ({ ...p, variables: [{ name: 'a b' }] , objective: {}, constraints: [] }), LpRule.NAME_SYNTAX, ['problem', 'variables', 0, 'name']],
    ['a variable named __proto__, whose coefficients JSON parsing would drop', (p) => ({ ...p, variables: [...p.variables, { name: '__proto__' }] }), LpRule.NAME_SYNTAX, ['problem', 'variables', 3, 'name']],
    ['a row named __proto__', (p) => ({ ...p, constraints: [...p.constraints, { name: '__proto__', coefficients: {}, relation: '=', rhs: 0 }] }), LpRule.NAME_SYNTAX, ['problem', 'constraints', 2, 'name']],
  ])('refuses %s, naming the field and the rule', (_, change, rule, path) => {
    expect(ruleOf(() => canonicalLpProblem(change(diet)))).toEqual({ rule, path });
  });

  it('counts non-zeros against the limit', () => {
    const variables = Array.from({ length: 400 }, (_, j) => ({ name: `x${j}` }));
    const row = Object.fromEntries(variables.map((v) => [v.name, 1]));
    const rows = Math.ceil(LP_LIMITS.maxNonzeros / 400);
    const problem: LpProblemInput = { sense: 'maximize', variables, objective: {}, constraints: Array.from({ length: rows + 1 }, () => ({ coefficients: row, relation: '<=' as const, rhs: 1 })) };
    expect(ruleOf(() => canonicalLpProblem(problem)).rule).toBe(LpRule.SIZE);
  });
});

describe('LP certificate claims', () => {
  const problem = canonicalLpProblem({ ...diet, variables: diet.variables.map((v) => ({ ...v, integer: false })) });

  it('requires exactly the fields of the outcome', () => {
    expect(LpCertificateClaimInputSchema.safeParse({ problem: diet, outcome: 'INFEASIBLE', farkas: { r1: 1 } }).success).toBe(true);
    const missing = LpCertificateClaimInputSchema.safeParse({ problem: diet, outcome: 'OPTIMAL', primal: {} });
    expect(missing.success).toBe(false);
    const extra = LpCertificateClaimInputSchema.safeParse({ problem: diet, outcome: 'INFEASIBLE', farkas: {}, ray: { x: 1 } });
    expect(extra.success).toBe(false);
    expect(LpCertificateClaimInputSchema.safeParse({ outcome: 'INFEASIBLE', farkas: {} }).success).toBe(false);
  });

  it('reads certificate numbers beyond the data\'s 1024 bits, up to their own limit', () => {
    const huge = `${2n ** 2000n + 1n}/${3n ** 1200n}`;
    expect(ruleOf(() => canonicalLpProblem({ ...diet, objective: { x: huge } })).rule).toBe(LpRule.NUMBER_SIZE);
    const claim = canonicalLpCertificateClaim({ outcome: 'UNBOUNDED', primal: { x: huge }, ray: { x: 1 } }, problem);
    expect(claim.primal).toEqual({ x: huge });
    expect(LpCertificateClaimSchema.safeParse(JSON.parse(canonicalize(claim))).success).toBe(true);
    expect(LpCertificateClaimInputSchema.safeParse({ problem: diet, outcome: 'UNBOUNDED', primal: { x: huge }, ray: { x: 1 } }).success).toBe(true);
    const over = `${2n ** BigInt(LP_LIMITS.maxCertificateNumberBits)}`;
    expect(ruleOf(() => canonicalLpCertificateClaim({ outcome: 'UNBOUNDED', primal: { x: over }, ray: { x: 1 } }, problem))).toEqual({ rule: LpRule.NUMBER_SIZE, path: ['payload', 'primal', 'x'] });
  });

  it('stores canonical sparse vectors and refuses names the problem lacks', () => {
    const claim = canonicalLpCertificateClaim({ outcome: 'UNBOUNDED', primal: { x: '3', y: '0.0', z: 0 }, ray: { z: '-2/4' } }, problem);
    expect(claim).toMatchObject({ relaxation: false, primal: { x: '3' }, ray: { z: '-1/2' }, dual: null, farkas: null });
    expect(LpCertificateClaimSchema.safeParse(JSON.parse(canonicalize(claim))).success).toBe(true);
    expect(ruleOf(() => canonicalLpCertificateClaim({ outcome: 'INFEASIBLE', farkas: { x: 1 } }, problem))).toEqual({ rule: LpRule.UNKNOWN_NAME, path: ['payload', 'farkas', 'x'] });
    expect(LpCertificateClaimSchema.safeParse({ ...claim, ray: { z: '0' } }).success).toBe(false);
    expect(LpCertificateClaimSchema.safeParse({ ...claim, relaxation: true }).success).toBe(false);
  });

  const optimal = canonicalLpCertificateClaim({ outcome: 'OPTIMAL', objective_value: '1', primal: { x: '3' }, dual: { r1: '1' }, reduced_costs: {} }, problem);
  it.each<[string, Record<string, unknown>, string, (string | number)[]]>([
    ['a value given as a JSON number', { primal: { x: 3 } }, LpRule.CANONICAL, ['primal', 'x']],
    ['a null value', { dual: { r1: null } }, LpRule.CANONICAL, ['dual', 'r1']],
    ['a value over the certificate length limit', { primal: { x: `1${'0'.repeat(LP_LIMITS.maxCertificateNumberTextLength)}` } }, LpRule.NUMBER_SIZE, ['primal', 'x']],
    ['a non-reduced fraction', { reduced_costs: { y: '2/4' } }, LpRule.CANONICAL, ['reduced_costs', 'y']],
    ['a stored zero', { primal: { x: '3', y: '0' } }, LpRule.CANONICAL, ['primal', 'y']],
    ['bad rational text', { primal: { x: '1.5' } }, LpRule.CANONICAL, ['primal', 'x']],
    ['an unknown variable', { reduced_costs: { w: '1' } }, LpRule.UNKNOWN_NAME, ['reduced_costs', 'w']],
    ['a row name among the variables', { primal: { cap: '1' } }, LpRule.UNKNOWN_NAME, ['primal', 'cap']],
    ['an unknown row', { dual: { r1: '1', nowhere: '1' } }, LpRule.UNKNOWN_NAME, ['dual', 'nowhere']],
    ['a __proto__ key (as JSON.parse gives it)', { dual: JSON.parse('{"__proto__":"1"}') as unknown }, LpRule.UNKNOWN_NAME, ['dual', '__proto__']],
  ])('refuses a stored claim with %s in a vector, naming the field and the rule', (_, change, rule, path) => {
    expect(LpCertificateClaimSchema.safeParse(optimal).success).toBe(true);
    const issue = LpCertificateClaimSchema.safeParse({ ...optimal, ...change }).error?.issues[0];
    expect(issue?.path).toEqual(path);
    expect(issue?.message).toContain(`rule ${rule}`);
  });

  it('refuses a stored vector that is not a JSON object, at its field, and advertises the vectors as records', () => {
    for (const bad of [['1'], '1', 1]) expect(LpCertificateClaimSchema.safeParse({ ...optimal, primal: bad }).error?.issues[0]?.path).toEqual(['primal']);
    const record = z.toJSONSchema(z.record(z.string(), z.string().max(LP_LIMITS.maxCertificateNumberTextLength)).nullable());
    const schema = z.toJSONSchema(LpCertificateClaimSchema) as { properties: Record<string, unknown> };
    for (const field of ['primal', 'dual', 'reduced_costs', 'farkas', 'ray']) expect({ $schema: record.$schema, ...(schema.properties[field] as object) }).toEqual(record);
  });
});
