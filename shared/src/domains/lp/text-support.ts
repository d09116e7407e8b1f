/**
 * What the CPLEX LP and free MPS readers and writers share: the rules a text can break (each
 * error names one, with its line and column), the problem builder both readers fill (it checks
 * the LP_LIMITS sizes as it grows, before any big structure exists), exact number reading and
 * writing, and the deterministic renaming of names a format cannot carry.
 */
import { JacobianError, type JsonPath } from '../../errors.js';
import { makeRational, RATIONALS, type Rational } from '../polynomial/field.js';
import { formatLpNumber, LP_LIMITS, LP_RESERVED_NAME, LpRule, parseLpNumber, type LpProblem, type LpProblemInput, type LpRelation } from './problem.js';

/** Bounds on a text, checked before it is read. */
export const LP_TEXT_LIMITS = {
  /** Characters of one CPLEX LP or MPS text (the largest math.run request is 4 MiB of JSON). */
  maxTextLength: 4 * 1024 * 1024,
} as const;

/** The rules of the text formats, in addition to the problem's own {@link LpRule}s. */
export const LpTextRule = {
  /** The text is longer than LP_TEXT_LIMITS.maxTextLength. */
  TEXT_SIZE: 'text-size',
  /** A character that is neither printable ASCII nor a tab or an end of line (outside a comment). */
  CHARACTER: 'character',
  /** A token where the grammar wants another one. */
  SYNTAX: 'syntax',
  /** A coefficient written against its variable name ("3x"): write "3 x". */
  TERM_SEPARATION: 'term-separation',
  /** A section header the format does not have. */
  UNKNOWN_SECTION: 'unknown-section',
  /** A section of the format that this reader does not support (SOS, semi-continuous, quadratic, ranged LP rows…). */
  UNSUPPORTED: 'unsupported',
  /** A section out of order, or twice. */
  SECTION_ORDER: 'section-order',
  /** A required section (Subject To, End, ROWS, COLUMNS, ENDATA) is missing. */
  MISSING_SECTION: 'missing-section',
  /** A row that ends without <=, = or >=. */
  NO_RELATION: 'no-relation',
  /** An infinite value where only a finite one makes sense (a right-hand side, +∞ as a lower bound). */
  INFINITE_VALUE: 'infinite-value',
  /** The same bound of one variable given twice. */
  BOUND_REPEATED: 'bound-repeated',
  /** A bound whose meaning the common readers disagree on; the text must say it explicitly. */
  BOUND_AMBIGUOUS: 'bound-ambiguous',
  /** The same coefficient, right-hand side or range given twice, or a name listed twice. */
  DUPLICATE_ENTRY: 'duplicate-entry',
  /** An MPS column whose entries are not all in one block of consecutive lines. */
  COLUMN_BLOCK: 'column-block',
  /** An MPS integer marker out of place (INTEND without INTORG, INTORG twice, no INTEND). */
  MARKER: 'marker',
  /** A second RHS, RANGES or BOUNDS set name in one MPS text: only one set of each is read. */
  MULTIPLE_SETS: 'multiple-sets',
} as const;
export type LpTextRule = (typeof LpTextRule)[keyof typeof LpTextRule];

/** A place in a text: 1-based line and column (columns count UTF-16 code units). */
export interface TextPosition {
  line: number;
  column: number;
}

/** How a reader names the text in its errors. */
export interface TextReadOptions {
  /** The JSON path of the text field, for errors (default ['text']). */
  path?: JsonPath;
}

/** One error in a text: INVALID_REQUEST at the text's path, with the line, column and rule in the message and data. */
export class TextErrors {
  constructor(
    readonly format: 'CPLEX LP' | 'free MPS',
    readonly path: JsonPath,
  ) {}

  at(position: TextPosition, rule: LpTextRule | LpRule, message: string): JacobianError {
    const where = this.path.length === 0 ? this.format : this.path.join('.');
    return new JacobianError('INVALID_REQUEST', `${where} (${this.format}) at line ${position.line}, column ${position.column}: ${message} (rule ${rule})`, {
      path: this.path,
      data: { rule, line: position.line, column: position.column, format: this.format },
    });
  }

  /** The text's length, before anything is read. */
  checkLength(text: string): void {
    if (text.length > LP_TEXT_LIMITS.maxTextLength) {
      throw this.at({ line: 1, column: 1 }, LpTextRule.TEXT_SIZE, `the text has ${text.length} characters; the limit is ${LP_TEXT_LIMITS.maxTextLength}`);
    }
  }
}

const NUMBER_LIMIT = 1n << BigInt(LP_LIMITS.maxNumberBits);
const bigAbs = (a: bigint): bigint => (a < 0n ? -a : a);

/** The exact value of a number's text, or INVALID_REQUEST at `position` naming the number rule. */
export function readNumber(errors: TextErrors, text: string, position: TextPosition): Rational {
  const value = parseLpNumber(text);
  if ('rule' in value) throw errors.at(position, value.rule, `the number "${text.slice(0, 40)}" ${value.message.replace(/^"[^"]*" /, '')}`);
  return value;
}

/** A sum or difference still within the number size bound, or INVALID_REQUEST at `position`. */
export function checkNumberSize(errors: TextErrors, value: Rational, position: TextPosition, what: string): Rational {
  if (bigAbs(value.num) >= NUMBER_LIMIT || value.den >= NUMBER_LIMIT) {
    throw errors.at(position, LpRule.NUMBER_SIZE, `${what} has a numerator or denominator of more than ${LP_LIMITS.maxNumberBits} bits`);
  }
  return value;
}

const NAME = /^[!-~]+$/;

/** A name as the problem contract allows it (printable ASCII without spaces, 1–255 characters), or INVALID_REQUEST. */
export function checkName(errors: TextErrors, name: string, position: TextPosition, what: string): string {
  if (!NAME.test(name) || name.length > LP_LIMITS.maxNameLength || name === LP_RESERVED_NAME) {
    throw errors.at(position, LpRule.NAME_SYNTAX, `${what} name "${name.slice(0, 40)}" must be 1–${LP_LIMITS.maxNameLength} printable ASCII characters without spaces, and not "${LP_RESERVED_NAME}"`);
  }
  return name;
}

interface BuilderVariable {
  name: string;
  lower: Rational | null;
  upper: Rational | null;
  /** Where each bound was set explicitly (null: the default). */
  lowerAt: TextPosition | null;
  upperAt: TextPosition | null;
  integer: boolean;
}

interface BuilderRow {
  name: string;
  relation: LpRelation;
  rhs: Rational;
  coefficients: Map<number, Rational>;
}

const ZERO = makeRational(0n, 1n);

/**
 * A problem as a reader assembles it. Every addition checks the LP_LIMITS size it could break
 * (variables, rows, coefficient entries) before it grows anything; {@link ProblemBuilder.finish}
 * checks bound order and the non-zero count and returns a request whose numbers are canonical,
 * so that canonicalLpProblem accepts it.
 */
export class ProblemBuilder {
  sense: 'minimize' | 'maximize' = 'minimize';
  objectiveConstant: Rational = ZERO;
  readonly variables: BuilderVariable[] = [];
  readonly variableIndex = new Map<string, number>();
  readonly objective = new Map<number, Rational>();
  readonly rows: BuilderRow[] = [];
  readonly rowIndex = new Map<string, number>();
  /** Coefficient entries stored so far (zeros included, which a writer uses to declare variables). */
  private entries = 0;

  constructor(private readonly errors: TextErrors) {}

  /** The index of a variable, declaring it (bounds 0 ≤ x < +∞) if it is new. */
  variable(name: string, position: TextPosition): number {
    const known = this.variableIndex.get(name);
    if (known !== undefined) return known;
    checkName(this.errors, name, position, 'variable');
    if (this.variables.length >= LP_LIMITS.maxVariables) throw this.errors.at(position, LpRule.SIZE, `more than ${LP_LIMITS.maxVariables} variables`);
    this.variables.push({ name, lower: ZERO, upper: null, lowerAt: null, upperAt: null, integer: false });
    this.variableIndex.set(name, this.variables.length - 1);
    return this.variables.length - 1;
  }

  /** A new row; its name must be new. */
  row(name: string, relation: LpRelation, position: TextPosition): BuilderRow {
    checkName(this.errors, name, position, 'row');
    if (this.rowIndex.has(name)) throw this.errors.at(position, LpRule.DUPLICATE_NAME, `row name "${name}" is used twice`);
    if (this.rows.length >= LP_LIMITS.maxConstraints) throw this.errors.at(position, LpRule.SIZE, `more than ${LP_LIMITS.maxConstraints} rows`);
    const row: BuilderRow = { name, relation, rhs: ZERO, coefficients: new Map() };
    this.rows.push(row);
    this.rowIndex.set(name, this.rows.length - 1);
    return row;
  }

  /** Add `value` to the coefficient of variable `j` in `form`; `sum` false: a second entry is an error. */
  addCoefficient(form: Map<number, Rational>, j: number, value: Rational, position: TextPosition, options: { sum: boolean; where: string }): void {
    const earlier = form.get(j);
    if (earlier === undefined) {
      this.entries++;
      if (this.entries > LP_LIMITS.maxNonzeros + LP_LIMITS.maxVariables) throw this.errors.at(position, LpRule.SIZE, `more than ${LP_LIMITS.maxNonzeros} non-zero coefficients`);
      form.set(j, value);
      return;
    }
    const name = this.variables[j]?.name ?? '';
    if (!options.sum) throw this.errors.at(position, LpTextRule.DUPLICATE_ENTRY, `the coefficient of "${name}" in ${options.where} is given twice`);
    form.set(j, checkNumberSize(this.errors, RATIONALS.add(earlier, value), position, `the summed coefficient of "${name}" in ${options.where}`));
  }

  /** Set one bound of variable `j`; setting the same bound twice is an error. */
  setBound(j: number, side: 'lower' | 'upper', value: Rational | null, position: TextPosition): void {
    const variable = this.variables[j];
    if (variable === undefined) throw new Error(`ProblemBuilder.setBound: no variable ${j}`);
    const earlier = side === 'lower' ? variable.lowerAt : variable.upperAt;
    if (earlier !== null) {
      throw this.errors.at(position, LpTextRule.BOUND_REPEATED, `the ${side} bound of "${variable.name}" was already given at line ${earlier.line}, column ${earlier.column}`);
    }
    if (side === 'lower') {
      variable.lower = value;
      variable.lowerAt = position;
    } else {
      variable.upper = value;
      variable.upperAt = position;
    }
  }

  /** The request form, numbers canonical, after the bound-order and non-zero checks. */
  finish(end: TextPosition): LpProblemInput {
    for (const variable of this.variables) {
      const { lower, upper } = variable;
      if (lower !== null && upper !== null && lower.num * upper.den > upper.num * lower.den) {
        const at = [variable.lowerAt, variable.upperAt].filter((p): p is TextPosition => p !== null).sort((a, b) => a.line - b.line || a.column - b.column).at(-1) ?? end;
        throw this.errors.at(at, LpRule.BOUND_ORDER, `variable "${variable.name}" has lower bound ${formatLpNumber(lower)} above its upper bound ${formatLpNumber(upper)}`);
      }
    }
    if (this.variables.length === 0) throw this.errors.at(end, LpTextRule.SYNTAX, 'the problem has no variables');
    let nonzeros = 0;
    const sparse = (form: Map<number, Rational>): Record<string, string> => {
      const entries: [string, string][] = [];
      for (const [j, value] of [...form.entries()].sort((a, b) => a[0] - b[0])) {
        if (value.num === 0n) continue;
        nonzeros++;
        entries.push([this.variables[j]?.name ?? '', formatLpNumber(value)]);
      }
      return Object.fromEntries(entries);
    };
    const objective = sparse(this.objective);
    const constraints = this.rows.map((row) => ({ name: row.name, coefficients: sparse(row.coefficients), relation: row.relation, rhs: formatLpNumber(row.rhs) }));
    if (nonzeros > LP_LIMITS.maxNonzeros) throw this.errors.at(end, LpRule.SIZE, `${nonzeros} non-zero coefficients, over the limit ${LP_LIMITS.maxNonzeros}`);
    return {
      sense: this.sense,
      variables: this.variables.map((v) => ({
        name: v.name,
        lower: v.lower === null ? null : formatLpNumber(v.lower),
        upper: v.upper === null ? null : formatLpNumber(v.upper),
        ...(v.integer ? { integer: true } : {}),
      })),
      objective,
      objective_constant: formatLpNumber(this.objectiveConstant),
      constraints,
    };
  }
}

/** How a writer writes numbers that have no finite decimal expansion (1/3), or whose expansion is too long. */
export type FractionStyle = 'fraction' | 'round';

/** Options of both writers. */
export interface LpWriteOptions {
  /**
   * 'fraction' (default): every number exactly; a terminating decimal as a decimal (1/8 as 0.125),
   * any other as p/q, which our readers accept and other readers (CPLEX, GLPK, CBC) do not.
   * 'round': every number as a decimal of at most 30 characters (GLPK and CBC refuse long
   * fields), the others rounded to 20 significant digits, d.ddd…e±k (for a floating-point
   * solver; the result says `exact: false` when a value changed).
   */
  fractions?: FractionStyle;
  /**
   * 'write' (default): the objective constant c₀ is written (CPLEX LP: a constant term of the
   * objective; MPS: −c₀ as the objective row's RHS). 'omit': left out, for readers that refuse
   * it (GLPK's CPLEX LP reader) or read it with the opposite sign (GLPK's MPS reader); add c₀ to
   * their objective value yourself.
   */
  objectiveConstant?: 'write' | 'omit';
}

/** A written problem: the text, the name each variable and row was written under, and whether every number is exact. */
export interface WrittenLp {
  text: string;
  /** Written name of each variable, in the problem's order (equal to its own name unless renamed). */
  variableNames: string[];
  /** Written name of each row, in the problem's order. */
  rowNames: string[];
  /** The objective's (or objective row's) name. */
  objectiveName: string;
  /** How many variable and row names were renamed (see each writer's rules). */
  renamed: number;
  /** False when some number was rounded (fractions 'round') or the objective constant omitted. */
  exact: boolean;
}

const DECIMAL_DIGITS = 20;
/**
 * Longest decimal written as it is in 'round' style: longer ones are rounded, since GLPK refuses
 * a token over 255 characters and CBC's MPS reader a field over 100 (measured).
 */
const ROUNDED_MAX_LENGTH = 30;

/** A rational as a decimal when its expansion terminates (denominator 2^a 5^b) within `maxLength` characters, else null. */
export function terminatingDecimal(value: Rational, maxLength: number = LP_LIMITS.maxNumberTextLength): string | null {
  let den = value.den;
  let twos = 0;
  let fives = 0;
  while (den % 2n === 0n) {
    den /= 2n;
    twos++;
  }
  while (den % 5n === 0n) {
    den /= 5n;
    fives++;
  }
  if (den !== 1n) return null;
  const places = Math.max(twos, fives);
  if (places === 0) {
    const integer = value.num.toString();
    return integer.length > maxLength ? null : integer;
  }
  if (places > maxLength) return null;
  const scaled = bigAbs(value.num) * (10n ** BigInt(places) / value.den);
  const digits = scaled.toString().padStart(places + 1, '0');
  const text = `${value.num < 0n ? '-' : ''}${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return text.length > maxLength ? null : text;
}

/** A rational rounded to DECIMAL_DIGITS significant digits, as d.ddd…e±k (exact for zero). */
export function roundedDecimal(value: Rational): string {
  if (value.num === 0n) return '0';
  const num = bigAbs(value.num);
  // 10^e ≤ |value| < 10^(e+1), found from digit counts and corrected by one comparison.
  let e = num.toString().length - value.den.toString().length;
  if (e >= 0 ? num < value.den * 10n ** BigInt(e) : num * 10n ** BigInt(-e) < value.den) e--;
  const shift = DECIMAL_DIGITS - 1 - e;
  const scaledNum = shift >= 0 ? num * 10n ** BigInt(shift) : num;
  const scaledDen = shift >= 0 ? value.den : value.den * 10n ** BigInt(-shift);
  let q = (2n * scaledNum + scaledDen) / (2n * scaledDen);
  let exponent = e;
  if (q.toString().length > DECIMAL_DIGITS) {
    q /= 10n;
    exponent++;
  }
  const digits = q.toString();
  return `${value.num < 0n ? '-' : ''}${digits[0] ?? '0'}.${digits.slice(1)}e${exponent}`;
}

/** One number of a stored problem (canonical text) as a writer writes it; `exact` is cleared when it is rounded. */
export function writeNumber(canonical: string, style: FractionStyle, exact: { value: boolean }): string {
  const value = parseLpNumber(canonical);
  if ('rule' in value) throw new Error(`writeNumber: "${canonical}" is not a canonical number`);
  const decimal = terminatingDecimal(value, style === 'round' ? ROUNDED_MAX_LENGTH : LP_LIMITS.maxNumberTextLength);
  if (decimal !== null) return decimal;
  if (style === 'fraction') return formatLpNumber(value);
  const rounded = roundedDecimal(value);
  const back = parseLpNumber(rounded);
  if ('rule' in back || back.num !== value.num || back.den !== value.den) exact.value = false;
  return rounded;
}

/**
 * Names a format cannot carry, replaced deterministically: the k-th variable (1-based) to rename
 * becomes `_x<j>` and the row `_r<i>` (j, i: its position in the problem, 1-based), with "_"
 * appended while that name is taken by any name written so far or kept as it was.
 */
export function writtenNames(problem: LpProblem, writable: (name: string) => boolean, reserved: readonly string[] = []): { variableNames: string[]; rowNames: string[]; renamed: number } {
  const taken = new Set<string>(reserved);
  const keep = (name: string): boolean => writable(name);
  for (const v of problem.variables) if (keep(v.name)) taken.add(v.name);
  for (const c of problem.constraints) if (keep(c.name)) taken.add(c.name);
  let renamed = 0;
  const fresh = (base: string): string => {
    let name = base;
    while (taken.has(name)) name += '_';
    taken.add(name);
    renamed++;
    return name;
  };
  const variableNames = problem.variables.map((v, j) => (keep(v.name) ? v.name : fresh(`_x${j + 1}`)));
  const rowNames = problem.constraints.map((c, i) => (keep(c.name) ? c.name : fresh(`_r${i + 1}`)));
  return { variableNames, rowNames, renamed };
}

/** The first of `base`, `base_`, `base__`, … that is not in `taken`. */
export function freshName(base: string, taken: ReadonlySet<string>): string {
  let name = base;
  while (taken.has(name)) name += '_';
  return name;
}
