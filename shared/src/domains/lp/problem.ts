/**
 * Linear programs with exact rational data: the request form (variables with bounds, a sparse
 * objective, rows with ≤, = or ≥ and a right-hand side, all numbers exact), the canonical stored
 * form, and the validation both go through. Shared by lp.solve, milp.solve, the parsers of CPLEX
 * LP and MPS text, and the independent certificate checkers, so that every one of them reads a
 * problem the same way.
 *
 * The problem: minimize (or maximize) c·x + c₀ subject to a_i·x (≤ | = | ≥) b_i for every row i
 * and l_j ≤ x_j ≤ u_j for every variable j, where l_j may be −∞ (null) and u_j +∞ (null); a
 * variable marked integer must take an integer value (milp.solve; lp.solve refuses such a problem
 * unless it is asked for the relaxation).
 */
import { z } from 'zod';
import { isPlainObject } from '../../artifacts/manifest.js';
import { JacobianError, type JsonPath } from '../../errors.js';
import { makeRational, RATIONALS, type Rational } from '../polynomial/field.js';

/** Schema and semantics URIs of a stored linear program. */
export const LP_PROBLEM_SCHEMA_URI = 'jacobian:schema/lp.problem/v1';
export const LP_PROBLEM_SEMANTICS_URI = 'jacobian:semantics/lp.problem.rows_and_bounds/v1';

/** The size bounds of one problem, checked before any arithmetic. */
export const LP_LIMITS = {
  maxVariables: 5000,
  maxConstraints: 5000,
  /** Non-zero coefficients over the objective and all rows. */
  maxNonzeros: 100_000,
  /** Bits of a number's numerator and of its denominator, each, after reduction to lowest terms. */
  maxNumberBits: 1024,
  /** Longest text of one number (a decimal with an exponent, or p/q). */
  maxNumberTextLength: 700,
  /** Largest |exponent| of a decimal number such as 1.5e-300. */
  maxExponent: 300,
  maxNameLength: 255,
  /**
   * Longest text and bits of one number of a certificate (x, y, d, a ray, the optimal value). Far
   * above the data's: a vertex solves a square system in the data, so by Hadamard's bound its
   * numerators and denominators grow with the dimension (a random 200×200 matrix with entries in
   * ±50 has a determinant of about 1590 bits: vertices of such an LP take some 950 characters as p/q).
   */
  maxCertificateNumberTextLength: 160_000,
  maxCertificateNumberBits: 262_144,
} as const;

/** The size bounds one number is read with. */
export interface LpNumberLimits {
  textLength: number;
  bits: number;
}
/** A problem's data (coefficients, bounds, right-hand sides). */
export const LP_DATA_NUMBER_LIMITS: LpNumberLimits = { textLength: LP_LIMITS.maxNumberTextLength, bits: LP_LIMITS.maxNumberBits };
/** A certificate's values. */
export const LP_CERTIFICATE_NUMBER_LIMITS: LpNumberLimits = { textLength: LP_LIMITS.maxCertificateNumberTextLength, bits: LP_LIMITS.maxCertificateNumberBits };

/** The rules a problem can break, named in every error about one. */
export const LpRule = {
  /** A number that is not an integer, a decimal (with an optional exponent) or a fraction p/q. */
  NUMBER_SYNTAX: 'number-syntax',
  ZERO_DENOMINATOR: 'zero-denominator',
  /** A numerator or denominator over LP_LIMITS.maxNumberBits bits (maxCertificateNumberBits in a certificate), or an exponent over maxExponent. */
  NUMBER_SIZE: 'number-size',
  /** A name that is empty, too long, has characters other than printable ASCII without spaces, or is "__proto__". */
  NAME_SYNTAX: 'name-syntax',
  DUPLICATE_NAME: 'duplicate-name',
  /** A coefficient, value or multiplier of a variable or row the problem does not declare. */
  UNKNOWN_NAME: 'unknown-name',
  /** A lower bound above the upper bound. */
  BOUND_ORDER: 'bound-order',
  /** More variables, rows or non-zeros than LP_LIMITS allows. */
  SIZE: 'size',
  /** A stored value that is not in canonical form (a zero coefficient, a non-reduced fraction). */
  CANONICAL: 'canonical',
} as const;
export type LpRule = (typeof LpRule)[keyof typeof LpRule];

function lpError(message: string, path: JsonPath, rule: LpRule): JacobianError {
  return new JacobianError('INVALID_REQUEST', `${message} (rule ${rule})`, { path, data: { rule } });
}

/** One number as a request writes it: a JSON number, or a string. */
export const LpNumberSchema = z
  .union([z.number().refine(Number.isFinite, 'must be finite'), z.string().min(1).max(LP_LIMITS.maxNumberTextLength)])
  .describe('an exact number: an integer, a decimal such as "2.5" or "1e-3", or a fraction "p/q" such as "-3/4"; a JSON number is read as the decimal it prints as (0.1 is exactly 1/10)')
  .meta({ id: 'lp_number' });
export type LpNumber = z.infer<typeof LpNumberSchema>;

const FRACTION = /^([+-]?)([0-9]+)\/([0-9]+)$/;
const DECIMAL = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

/** What is wrong with one number, in words and as a rule. */
export interface NumberProblem {
  rule: LpRule;
  message: string;
}

/** The exact value of one number, or the rule it breaks; `limits` are a problem's data's unless given. */
export function parseLpNumber(value: LpNumber, limits: LpNumberLimits = LP_DATA_NUMBER_LIMITS): Rational | NumberProblem {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const shown = `"${text.slice(0, 40)}"`;
  if (text.length > limits.textLength) return { rule: LpRule.NUMBER_SIZE, message: `has more than ${limits.textLength} characters` };
  let num: bigint;
  let den: bigint;
  const fraction = FRACTION.exec(text);
  if (fraction !== null) {
    const [, sign, numText = '', denText = ''] = fraction;
    num = sign === '-' ? -BigInt(numText) : BigInt(numText);
    den = BigInt(denText);
    if (den === 0n) return { rule: LpRule.ZERO_DENOMINATOR, message: `${shown} has a zero denominator` };
  } else {
    const decimal = DECIMAL.exec(text);
    const [, sign = '', whole = '', part = '', exponentText] = decimal ?? [];
    if (decimal === null || whole.length + part.length === 0) {
      return { rule: LpRule.NUMBER_SYNTAX, message: `${shown} is not an integer, a decimal (such as 2.5 or 1e-3) or a fraction p/q` };
    }
    const exponent = (exponentText === undefined ? 0 : Number(exponentText)) - part.length;
    if (Math.abs(exponent) > LP_LIMITS.maxExponent + limits.textLength) return { rule: LpRule.NUMBER_SIZE, message: `${shown} has an exponent beyond ±${LP_LIMITS.maxExponent}` };
    if (exponentText !== undefined && Math.abs(Number(exponentText)) > LP_LIMITS.maxExponent) return { rule: LpRule.NUMBER_SIZE, message: `${shown} has an exponent beyond ±${LP_LIMITS.maxExponent}` };
    const digits = BigInt(whole + part);
    num = sign === '-' ? -digits : digits;
    den = 1n;
    if (exponent >= 0) num *= 10n ** BigInt(exponent);
    else den = 10n ** BigInt(-exponent);
  }
  const value_ = makeRational(num, den);
  const limit = 1n << BigInt(limits.bits);
  if ((value_.num < 0n ? -value_.num : value_.num) >= limit || value_.den >= limit) {
    return { rule: LpRule.NUMBER_SIZE, message: `${shown} has a numerator or denominator of more than ${limits.bits} bits` };
  }
  return value_;
}

/** The exact value of one number, or INVALID_REQUEST at `path` naming the rule. */
export function lpNumber(value: LpNumber, path: JsonPath, limits: LpNumberLimits = LP_DATA_NUMBER_LIMITS): Rational {
  const parsed = parseLpNumber(value, limits);
  if ('rule' in parsed) throw lpError(`${typeof value === 'number' ? String(value) : `"${value.slice(0, 40)}"`} ${parsed.message.replace(/^"[^"]*" /, '')}`, path, parsed.rule);
  return parsed;
}

/** Canonical text of a rational: an integer, or "p/q" in lowest terms with q > 1. */
export const formatLpNumber = (value: Rational): string => RATIONALS.format(value);

/** The value of canonical text, or null when it is not canonical. */
export const parseCanonicalLpNumber = (text: string): Rational | null => RATIONALS.parseCanonical(text);

const NAME = /^[!-~]+$/;
/**
 * Refused as a name: as a key of a coefficient record, zod's record parsing (of a request and of a
 * stored problem) drops it without a word, and with it the coefficient.
 */
export const LP_RESERVED_NAME = '__proto__';
export const LpNameSchema = z
  .string()
  .min(1)
  .max(LP_LIMITS.maxNameLength)
  .regex(NAME, `printable ASCII without spaces (rule ${LpRule.NAME_SYNTAX})`)
  .refine((name) => name !== LP_RESERVED_NAME, `"${LP_RESERVED_NAME}" is reserved: objects keyed by it lose that key when parsed (rule ${LpRule.NAME_SYNTAX})`)
  .describe('a name: 1–255 printable ASCII characters without spaces');

/** A sparse linear form: name → coefficient. */
const CoefficientsSchema = z.record(z.string(), LpNumberSchema);

export const LpVariableSchema = z
  .object({
    name: LpNameSchema,
    lower: LpNumberSchema.nullable().optional().describe('lower bound; default 0; null for −∞ (a free variable has lower null)'),
    upper: LpNumberSchema.nullable().optional().describe('upper bound; default null, +∞'),
    integer: z.boolean().optional().describe('must take an integer value (milp.solve); default false'),
  })
  .strict();

export const LpRelationSchema = z.enum(['<=', '=', '>=']);
export type LpRelation = z.infer<typeof LpRelationSchema>;

export const LpConstraintSchema = z
  .object({
    name: LpNameSchema.optional().describe('default "r1", "r2", … by position'),
    coefficients: CoefficientsSchema.describe('variable name → coefficient; omitted variables have 0'),
    relation: LpRelationSchema,
    rhs: LpNumberSchema,
  })
  .strict();

/** A linear program as a request gives it. */
export const LpProblemInputSchema = z
  .object({
    sense: z.enum(['minimize', 'maximize']),
    variables: z.array(LpVariableSchema).min(1).max(LP_LIMITS.maxVariables).describe('every variable, with its bounds (default 0 ≤ x < +∞)'),
    objective: CoefficientsSchema.describe('variable name → cost; omitted variables cost 0'),
    objective_constant: LpNumberSchema.optional().describe('c₀, added to the objective; default 0'),
    constraints: z.array(LpConstraintSchema).max(LP_LIMITS.maxConstraints).describe('the rows a_i·x (<= | = | >=) b_i'),
  })
  .strict()
  .describe('min or max c·x + c₀ subject to rows a_i·x (<=, =, >=) b_i and bounds lower ≤ x ≤ upper; every number exact')
  .meta({ id: 'lp_problem' });
export type LpProblemInput = z.infer<typeof LpProblemInputSchema>;

const StoredNumber = z.string().max(LP_LIMITS.maxNumberTextLength);

/**
 * A stored map from names to number texts (a sparse form; a certificate vector), advertised as
 * what it is, `z.record(z.string(), z.string().max(maxLength))`, but parsed as the JSON object it
 * is rather than entry by entry: zod's record parse runs two schemas per entry and copies the
 * object, which was most of a certificate check on a dense problem (40 000 entries at 200×200).
 * The schema holding such a record checks its entries in its refinement, in the one loop that
 * reads them anyway: each value a string of at most `maxLength` characters (else rule
 * CANONICAL, or NUMBER_SIZE when too long), at its own path, with the name and number rules.
 * The object is passed through as parsed, so a `__proto__` key (which zod's record dropped) is
 * seen there and refused as an unknown name.
 */
export function storedNumberRecord(maxLength: number): z.ZodType<Record<string, string>> {
  const record = z
    .unknown()
    // abort: the holder's refinement, which reads the entries, must not run on a non-object.
    .refine(isPlainObject, { message: 'Invalid input: expected a JSON object of name → number', abort: true })
    .meta({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string', maxLength } });
  // The cast is the refinement's promise: the holder's refinement fails the parse on any value that is not such a string.
  return record as unknown as z.ZodType<Record<string, string>>;
}

/** Whether one value of a {@link storedNumberRecord} is a string of at most `maxLength` characters. */
export const isStoredText = (text: unknown, maxLength: number): text is string => typeof text === 'string' && text.length <= maxLength;

/** The error about a value of a {@link storedNumberRecord} that is not {@link isStoredText}. */
export function storedTextError(text: unknown, maxLength: number, path: JsonPath): JacobianError {
  if (typeof text !== 'string') return lpError(`${(JSON.stringify(text) ?? String(text)).slice(0, 40)} is not a number text (a stored number is a string such as "3" or "-7/2")`, path, LpRule.CANONICAL);
  return lpError(`"${text.slice(0, 40)}…" has more than ${maxLength} characters`, path, LpRule.NUMBER_SIZE);
}

const StoredCoefficients = storedNumberRecord(LP_LIMITS.maxNumberTextLength);

/** A stored linear program: names explicit and unique, numbers canonical, zero coefficients dropped. */
export const LpProblemSchema = z
  .object({
    sense: z.enum(['minimize', 'maximize']),
    variables: z
      .array(z.object({ name: LpNameSchema, lower: StoredNumber.nullable(), upper: StoredNumber.nullable(), integer: z.boolean() }).strict())
      .min(1)
      .max(LP_LIMITS.maxVariables),
    objective: StoredCoefficients,
    objective_constant: StoredNumber,
    constraints: z.array(z.object({ name: LpNameSchema, coefficients: StoredCoefficients, relation: LpRelationSchema, rhs: StoredNumber }).strict()).max(LP_LIMITS.maxConstraints),
  })
  .strict()
  .superRefine((problem, ctx) => {
    const issue = storedProblemIssue(problem);
    if (issue !== null) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
export type LpProblem = z.infer<typeof LpProblemSchema>;

/** Names must be unique within their kind; returns name → index. */
function indexNames(names: readonly string[], path: (i: number) => JsonPath, what: string): Map<string, number> {
  const index = new Map<string, number>();
  names.forEach((name, i) => {
    if (!NAME.test(name) || name.length > LP_LIMITS.maxNameLength || name === LP_RESERVED_NAME) throw lpError(`${what} name "${name.slice(0, 40)}" must be 1–${LP_LIMITS.maxNameLength} printable ASCII characters without spaces, and not "${LP_RESERVED_NAME}"`, path(i), LpRule.NAME_SYNTAX);
    const earlier = index.get(name);
    if (earlier !== undefined) throw lpError(`${what} name "${name}" is used twice (positions ${earlier} and ${i})`, path(i), LpRule.DUPLICATE_NAME);
    index.set(name, i);
  });
  return index;
}

/** A sparse form with canonical numbers and zero coefficients dropped; unknown names are INVALID_REQUEST at the name's path. */
function canonicalForm(form: Record<string, LpNumber>, variables: Map<string, number>, path: JsonPath, counter: { nonzeros: number }): Record<string, string> {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(form)) {
    if (!variables.has(name)) throw lpError(`"${name.slice(0, 40)}" is not a declared variable (declare it in variables)`, [...path, name], LpRule.UNKNOWN_NAME);
    const number = lpNumber(value, [...path, name]);
    if (number.num === 0n) continue;
    counter.nonzeros++;
    if (counter.nonzeros > LP_LIMITS.maxNonzeros) throw lpError(`the problem has more than ${LP_LIMITS.maxNonzeros} non-zero coefficients`, [...path, name], LpRule.SIZE);
    entries.push([name, formatLpNumber(number)]);
  }
  return Object.fromEntries(entries);
}

/**
 * The canonical stored form of a problem, checked against every rule: names, numbers, bound order,
 * sizes. Errors are INVALID_REQUEST at the offending field under `path`, naming the rule.
 */
export function canonicalLpProblem(input: LpProblemInput, path: JsonPath = ['problem']): LpProblem {
  if (input.variables.length > LP_LIMITS.maxVariables) throw lpError(`${input.variables.length} variables, over the limit ${LP_LIMITS.maxVariables}`, [...path, 'variables'], LpRule.SIZE);
  if (input.constraints.length > LP_LIMITS.maxConstraints) throw lpError(`${input.constraints.length} rows, over the limit ${LP_LIMITS.maxConstraints}`, [...path, 'constraints'], LpRule.SIZE);
  const variableIndex = indexNames(
    input.variables.map((v) => v.name),
    (i) => [...path, 'variables', i, 'name'],
    'variable',
  );
  const variables = input.variables.map((v, j) => {
    const at: JsonPath = [...path, 'variables', j];
    const lower = v.lower === undefined ? makeRational(0n, 1n) : v.lower === null ? null : lpNumber(v.lower, [...at, 'lower']);
    const upper = v.upper === undefined || v.upper === null ? null : lpNumber(v.upper, [...at, 'upper']);
    if (lower !== null && upper !== null && lower.num * upper.den > upper.num * lower.den) {
      throw lpError(`variable "${v.name}" has lower bound ${formatLpNumber(lower)} above its upper bound ${formatLpNumber(upper)}`, [...at, 'upper'], LpRule.BOUND_ORDER);
    }
    return { name: v.name, lower: lower === null ? null : formatLpNumber(lower), upper: upper === null ? null : formatLpNumber(upper), integer: v.integer ?? false };
  });
  indexNames(
    input.constraints.map((c, i) => c.name ?? `r${i + 1}`),
    (i) => [...path, 'constraints', i, 'name'],
    'row',
  );
  const counter = { nonzeros: 0 };
  const objective = canonicalForm(input.objective, variableIndex, [...path, 'objective'], counter);
  const constraints = input.constraints.map((c, i) => ({
    name: c.name ?? `r${i + 1}`,
    coefficients: canonicalForm(c.coefficients, variableIndex, [...path, 'constraints', i, 'coefficients'], counter),
    relation: c.relation,
    rhs: formatLpNumber(lpNumber(c.rhs, [...path, 'constraints', i, 'rhs'])),
  }));
  const objectiveConstant = input.objective_constant === undefined ? '0' : formatLpNumber(lpNumber(input.objective_constant, [...path, 'objective_constant']));
  return { sense: input.sense, variables, objective, objective_constant: objectiveConstant, constraints };
}

/** The stored shape of a problem, as LpProblemSchema's object schema gives it before its refinement. */
interface StoredLpProblemShape {
  variables: readonly { name: string; lower: string | null; upper: string | null }[];
  objective: Record<string, string>;
  objective_constant: string;
  constraints: readonly { name: string; coefficients: Record<string, string>; rhs: string }[];
}

/**
 * Why a stored problem is not what {@link canonicalLpProblem} would store, or null when it is.
 * Decides exactly `canonicalize(canonicalLpProblem(problem)) === canonicalize(problem)` without
 * building and serializing the copy: canonicalLpProblem keeps every name, sense, relation and
 * integer flag as given and changes a stored problem only where a number is not canonical
 * (reduced, no sign on positives, no leading zeros, q > 1) or a coefficient is zero, and refuses
 * it on a bad or duplicate name, an undeclared coefficient key, a number over the data's size
 * limits, crossed bounds or too many non-zeros; those are the conditions checked here, with
 * canonicalLpProblem's rules and paths (relative to the problem). Also the entries of the
 * coefficient records, which the schema leaves to this loop ({@link storedNumberRecord}): each a
 * string of at most maxNumberTextLength characters.
 */
function storedProblemIssue(problem: StoredLpProblemShape): { path: JsonPath; message: string } | null {
  try {
    checkStoredLpProblem(problem);
    return null;
  } catch (error) {
    if (!(error instanceof JacobianError)) throw error;
    return { path: error.path ?? [], message: error.message };
  }
}

const DATA_BIT_LIMIT = 1n << BigInt(LP_LIMITS.maxNumberBits);

/** The value of a stored number, or null when it is not canonical or over the data's bit limit. */
function storedValue(text: string): Rational | null {
  const value = parseCanonicalLpNumber(text);
  if (value === null || (value.num < 0n ? -value.num : value.num) >= DATA_BIT_LIMIT || value.den >= DATA_BIT_LIMIT) return null;
  return value;
}

/** The error about a stored number that {@link storedValue} refused: the rule canonicalLpProblem names for it, else CANONICAL. */
function storedNumberError(text: string, path: JsonPath): JacobianError {
  const parsed = lpNumber(text, path);
  return lpError(`"${text.slice(0, 40)}" is not in canonical form (${formatLpNumber(parsed)})`, path, LpRule.CANONICAL);
}

function checkStoredLpProblem(problem: StoredLpProblemShape): void {
  const variables = indexNames(
    problem.variables.map((v) => v.name),
    (i) => ['variables', i, 'name'],
    'variable',
  );
  indexNames(
    problem.constraints.map((c) => c.name),
    (i) => ['constraints', i, 'name'],
    'row',
  );
  // Data repeat their numbers (a matrix of small integers has few distinct texts): each text is read once.
  const values = new Map<string, Rational>();
  const read = (text: string, path: () => JsonPath): Rational => {
    let value = values.get(text);
    if (value === undefined) {
      if (!isStoredText(text, LP_LIMITS.maxNumberTextLength)) throw storedTextError(text, LP_LIMITS.maxNumberTextLength, path());
      value = storedValue(text) ?? undefined;
      if (value === undefined) throw storedNumberError(text, path());
      values.set(text, value);
    }
    return value;
  };
  for (const [j, v] of problem.variables.entries()) {
    const lower = v.lower === null ? null : read(v.lower, () => ['variables', j, 'lower']);
    const upper = v.upper === null ? null : read(v.upper, () => ['variables', j, 'upper']);
    if (lower !== null && upper !== null && lower.num * upper.den > upper.num * lower.den) {
      throw lpError(`variable "${v.name}" has lower bound ${v.lower} above its upper bound ${v.upper}`, ['variables', j, 'upper'], LpRule.BOUND_ORDER);
    }
  }
  let nonzeros = 0;
  // The path of an entry is built only for an error: a stored problem has up to 100 000 of them.
  // (The limit is checked per form, at the form that passes it.)
  // Object.keys, not Object.entries: the entries' pairs were a large share of this loop on wide rows.
  const form = (coefficients: Record<string, string>, path: () => JsonPath): void => {
    for (const name of Object.keys(coefficients)) {
      const text = coefficients[name] as string;
      if (!variables.has(name)) throw lpError(`"${name.slice(0, 40)}" is not a declared variable (declare it in variables)`, [...path(), name], LpRule.UNKNOWN_NAME);
      const value = values.get(text) ?? read(text, () => [...path(), name]);
      if (value.num === 0n) throw lpError('a zero coefficient, which the canonical form drops', [...path(), name], LpRule.CANONICAL);
      nonzeros++;
    }
    if (nonzeros > LP_LIMITS.maxNonzeros) throw lpError(`the problem has more than ${LP_LIMITS.maxNonzeros} non-zero coefficients`, path(), LpRule.SIZE);
  };
  form(problem.objective, () => ['objective']);
  for (const [i, c] of problem.constraints.entries()) {
    form(c.coefficients, () => ['constraints', i, 'coefficients']);
    read(c.rhs, () => ['constraints', i, 'rhs']);
  }
  read(problem.objective_constant, () => ['objective_constant']);
}

/** "a 3-variable, 2-row minimization" and the like, for scope statements. */
export function lpShape(problem: LpProblem): string {
  const integers = problem.variables.filter((v) => v.integer).length;
  const kind = problem.sense === 'minimize' ? 'minimization' : 'maximization';
  return `${problem.variables.length}-variable, ${problem.constraints.length}-row ${kind}${integers > 0 ? ` with ${integers} integer variable${integers === 1 ? '' : 's'}` : ''}`;
}
