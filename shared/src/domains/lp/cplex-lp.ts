/**
 * CPLEX LP text: a strict reader to the request form, and a writer that our reader, GLPK's glpsol
 * and CBC read back.
 *
 * What the reader accepts (keywords in any case, each at the start of a line):
 * - `\` starts a comment to the end of the line.
 * - The objective section first: minimize, minimise, minimum, min, maximize, maximise, maximum,
 *   max; then an optional name `obj:` and a linear expression, which may hold constant terms
 *   (summed into objective_constant).
 * - Then the constraints section, required (it may be empty): subject to, such that, st, s.t.,
 *   st.; rows `[name:] expression relation [sign] number`, relations <=, =<, <, >=, =>, >, =
 *   (< and > mean <= and >=, as in CPLEX). Constant terms on the left move to the right-hand side.
 *   An unnamed row i (1-based among all rows) is named "r<i>", with "_" appended while an
 *   explicit name takes it. Variables on the right and ranged rows (`a <= expr <= b`) are errors.
 * - Then, in any order, each at most once: bounds (bound, bounds): one per line, `x <= u`,
 *   `x >= l`, `l <= x`, `u >= x`, `l <= x <= u`, `x = v`, `x free`, with `inf` and `infinity`
 *   (signed or not) for infinities; general (generals, gen) and binary (binaries, bin): names.
 *   A binary variable is integer with bounds 0 and 1 and may have no other bound.
 * - `end`, required; only comments and blanks after it.
 * - Terms: `[+|-] [number] name`; a coefficient and its name need a space between them ("3 x";
 *   "3x" is refused, so that "2e1x" can never be misread); "- x" and "-x" are both −1·x. A name
 *   repeated in one expression adds up. Numbers are exact: integers, decimals with an optional
 *   exponent and, as our extension, fractions p/q (no spaces).
 * - Names: 1–255 of the letters, digits and ! " # $ % & ( ) / , . ; ? @ _ ` ' { } | ~, not
 *   starting with a digit or a period (CPLEX's rules). Variables exist by appearing in the
 *   objective or a row (with a zero coefficient, if need be); a name first seen in bounds,
 *   general or binary is an unknown variable.
 * - Strictness beyond CPLEX: a bound given twice for one variable (CPLEX keeps the last) is an
 *   error; so is a name listed twice in one general or binary section. The default bounds are
 *   0 and +∞ (integers too); `x <= -1` keeps the lower bound 0 (CPLEX's rule), so it is a
 *   bound-order error unless the lower bound is also given.
 * - Not supported (an error naming the section): semi-continuous, SOS, quadratic terms `[ ]`,
 *   indicator constraints, lazy constraints, user cuts.
 */
import type { JsonPath } from '../../errors.js';
import { RATIONALS, type Rational } from '../polynomial/field.js';
import { LpRule, type LpProblem, type LpProblemInput, type LpRelation } from './problem.js';
import {
  checkNumberSize,
  freshName,
  LpTextRule,
  ProblemBuilder,
  readNumber,
  TextErrors,
  writeNumber,
  writtenNames,
  type LpWriteOptions,
  type TextPosition,
  type TextReadOptions,
  type WrittenLp,
} from './text-support.js';

type TokenKind = 'number' | 'name' | 'sign' | 'relation' | 'colon' | 'end';
interface Token extends TextPosition {
  kind: TokenKind;
  text: string;
  /** The first token of its line: only there can a keyword start a section. */
  lineStart: boolean;
}

/** Characters of a CPLEX name besides letters and digits. */
const NAME_SYMBOLS = '!"#$%&()/,.;?@_`\'{}|~';
const NAME_CHAR = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  const c = String.fromCharCode(code);
  NAME_CHAR[code] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || NAME_SYMBOLS.includes(c) ? 1 : 0;
}
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isNameChar = (c: string): boolean => c.length === 1 && NAME_CHAR[c.charCodeAt(0)] === 1;
const NUMBER = /[0-9]*\.?[0-9]*(?:[eE][+-]?[0-9]+)?(?:\/[0-9]+)?/y;

/** The tokens of a text, made as the reader asks for them (a bad text fails where its error is, before the rest is tokenized). */
class Lexer {
  private line = 1;
  private lineOffset = 0;
  private lineStart = true;
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly errors: TextErrors,
  ) {}

  private at(offset: number): TextPosition {
    return { line: this.line, column: offset - this.lineOffset + 1 };
  }

  private token(kind: TokenKind, start: number, end: number): Token {
    const made: Token = { kind, text: this.text.slice(start, end), line: this.line, column: start - this.lineOffset + 1, lineStart: this.lineStart };
    this.lineStart = false;
    this.i = end;
    return made;
  }

  /** The next token; 'end' (at the end of the text) for ever after. */
  next(): Token {
    const text = this.text;
    while (this.i < text.length) {
      const i = this.i;
      const c = text[i] ?? '';
      if (c === '\n') {
        this.i++;
        this.line++;
        this.lineOffset = this.i;
        this.lineStart = true;
      } else if (c === ' ' || c === '\t' || c === '\r') {
        this.i++;
      } else if (c === '\\') {
        const newline = text.indexOf('\n', i);
        this.i = newline < 0 ? text.length : newline;
      } else if (c === '+' || c === '-') {
        return this.token('sign', i, i + 1);
      } else if (c === ':') {
        return this.token('colon', i, i + 1);
      } else if (c === '<' || c === '>' || c === '=') {
        const next = text[i + 1];
        const two = (c === '<' || c === '>') && next === '=' ? 2 : c === '=' && (next === '<' || next === '>') ? 2 : 1;
        return this.token('relation', i, i + two);
      } else if (isDigit(c) || (c === '.' && isDigit(text[i + 1] ?? ''))) {
        NUMBER.lastIndex = i;
        const match = NUMBER.exec(text);
        const end = i + (match?.[0].length ?? 1);
        if (isNameChar(text[end] ?? ' ')) {
          throw this.errors.at(this.at(end), LpTextRule.TERM_SEPARATION, `"${text.slice(i, end + 1)}": put a space between a coefficient and its variable name ("3 x", not "3x")`);
        }
        return this.token('number', i, end);
      } else if (isNameChar(c) && c !== '.') {
        let end = i + 1;
        while (end < text.length && NAME_CHAR[text.charCodeAt(end)] === 1) end++;
        return this.token('name', i, end);
      } else if (c === '[' || c === ']' || c === '^' || c === '*') {
        throw this.errors.at(this.at(i), LpTextRule.UNSUPPORTED, `"${c}": quadratic terms are not supported (linear programs only)`);
      } else {
        const shown = c.charCodeAt(0) < 0x20 || c.charCodeAt(0) > 0x7e ? `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : `"${c}"`;
        throw this.errors.at(this.at(i), c === '.' ? LpTextRule.SYNTAX : LpTextRule.CHARACTER, `unexpected character ${shown}${c === '.' ? ' (a name cannot start with a period)' : ''}`);
      }
    }
    return { kind: 'end', text: '', ...this.at(this.i), lineStart: true };
  }
}

type Section = 'objective' | 'constraints' | 'bounds' | 'general' | 'binary' | 'end';

const OBJECTIVE_WORDS = new Map<string, 'minimize' | 'maximize'>(Object.entries({
  minimize: 'minimize',
  minimise: 'minimize',
  minimum: 'minimize',
  min: 'minimize',
  maximize: 'maximize',
  maximise: 'maximize',
  maximum: 'maximize',
  max: 'maximize',
} as const));
const SECTION_WORDS = new Map<string, Section>(Object.entries({
  st: 'constraints',
  's.t.': 'constraints',
  'st.': 'constraints',
  bounds: 'bounds',
  bound: 'bounds',
  general: 'general',
  generals: 'general',
  gen: 'general',
  binary: 'binary',
  binaries: 'binary',
  bin: 'binary',
  end: 'end',
} as const));
const UNSUPPORTED_WORDS = new Map<string, string>(Object.entries({
  semi: 'semi-continuous variables',
  semis: 'semi-continuous variables',
  'semi-continuous': 'semi-continuous variables',
  sos: 'special ordered sets',
  sos1: 'special ordered sets',
  sos2: 'special ordered sets',
  lazy: 'lazy constraints',
  user: 'user cuts',
  pwl: 'piecewise-linear terms',
}));

/** Every word that a line can start a section with, for the writer's renaming. */
const KEYWORDS = new Set([...OBJECTIVE_WORDS.keys(), ...SECTION_WORDS.keys(), ...UNSUPPORTED_WORDS.keys(), 'subject', 'such', 'free', 'inf', 'infinity', 'integer', 'integers']);

const INFINITY_WORDS = new Set(['inf', 'infinity']);

/** A signed value in bounds: a number or ±∞. */
type BoundValue = { kind: 'finite'; value: Rational } | { kind: 'infinite'; sign: 1 | -1 };

class LpReader {
  private readonly source: Lexer;
  /** The next few tokens (the reader looks at most two ahead); the last is 'end' once the text is done. */
  private readonly ahead: Token[] = [];
  private readonly builder: ProblemBuilder;
  /** Rows whose name is generated, with their positions (named once every explicit name is known). */
  private readonly unnamed: { row: number; position: TextPosition }[] = [];

  constructor(
    text: string,
    private readonly errors: TextErrors,
  ) {
    this.source = new Lexer(text, errors);
    this.builder = new ProblemBuilder(errors);
  }

  private get token(): Token {
    return this.peek(0);
  }

  private peek(offset: number): Token {
    while (this.ahead.length <= offset && this.ahead.at(-1)?.kind !== 'end') this.ahead.push(this.source.next());
    return this.ahead[offset] ?? (this.ahead.at(-1) as Token);
  }

  /** The current token; moves past it (never past the end). */
  private next(): Token {
    const token = this.peek(0);
    if (token.kind !== 'end') this.ahead.shift();
    return token;
  }

  private skip(count: number): void {
    for (let k = 0; k < count; k++) this.next();
  }

  /** The section a token starts, when it is a keyword at the start of its line (consuming nothing). */
  private sectionAt(): { section: Section | 'objective-again'; length: number } | null {
    const token = this.token;
    if (token.kind === 'end') return { section: 'end', length: 0 };
    if (!token.lineStart || token.kind !== 'name') return null;
    const word = token.text.toLowerCase();
    const second = this.peek(1);
    const sameLine = second.line === token.line && second.kind === 'name';
    if (OBJECTIVE_WORDS.has(word)) return { section: 'objective-again', length: 1 };
    if ((word === 'subject' && sameLine && second.text.toLowerCase() === 'to') || (word === 'such' && sameLine && second.text.toLowerCase() === 'that')) return { section: 'constraints', length: 2 };
    if (word === 'subject' || word === 'such') throw this.errors.at(token, LpTextRule.SYNTAX, `"${token.text}" at the start of a line must be followed by "${word === 'subject' ? 'to' : 'that'}"`);
    const section = SECTION_WORDS.get(word);
    if (section !== undefined) return { section, length: 1 };
    const unsupported = UNSUPPORTED_WORDS.get(word);
    if (unsupported !== undefined) throw this.errors.at(token, LpTextRule.UNSUPPORTED, `"${token.text}" starts a section of ${unsupported}, which this reader does not support (linear programs with integer markers only)`);
    return null;
  }

  read(): LpProblemInput {
    const first = this.token;
    const objectiveWord = first.kind === 'name' ? OBJECTIVE_WORDS.get(first.text.toLowerCase()) : undefined;
    if (objectiveWord === undefined || !first.lineStart) {
      throw this.errors.at(first, LpTextRule.MISSING_SECTION, `expected the objective section (Minimize or Maximize, or min, max, minimise, maximise, minimum, maximum) first, found ${this.describe(first)}`);
    }
    this.builder.sense = objectiveWord;
    this.next();
    this.readObjective();
    let section = this.sectionAt();
    if (section === null || section.section !== 'constraints') {
      throw this.errors.at(this.token, section?.section === 'objective-again' ? LpTextRule.SECTION_ORDER : LpTextRule.MISSING_SECTION, `expected "Subject To" (or st, s.t., such that) after the objective, found ${this.describe(this.token)}`);
    }
    this.skip(section.length);
    this.readConstraints();
    const seen = new Map<Section, Token>();
    for (;;) {
      const start = this.token;
      section = this.sectionAt();
      if (section === null) throw this.errors.at(start, LpTextRule.SYNTAX, `unexpected ${this.describe(start)}`);
      if (section.section === 'end') break;
      if (section.section === 'objective-again' || section.section === 'constraints') throw this.errors.at(start, LpTextRule.SECTION_ORDER, `"${start.text}": the ${section.section === 'constraints' ? 'constraints' : 'objective'} section comes only once, before bounds, general and binary`);
      const earlier = seen.get(section.section);
      if (earlier !== undefined) throw this.errors.at(start, LpTextRule.SECTION_ORDER, `a second ${section.section} section (the first is at line ${earlier.line})`);
      seen.set(section.section, start);
      this.skip(section.length);
      if (section.section === 'bounds') this.readBounds();
      else this.readIntegers(section.section === 'binary');
    }
    const end = this.token;
    if (end.kind === 'end') throw this.errors.at(end, LpTextRule.MISSING_SECTION, 'the text ends without "End"');
    this.next();
    if (this.token.kind !== 'end') throw this.errors.at(this.token, LpTextRule.SYNTAX, `nothing but comments may follow "End", found ${this.describe(this.token)}`);
    this.nameRows();
    this.checkBinaries();
    return this.builder.finish(end);
  }

  private describe(token: Token): string {
    return token.kind === 'end' ? 'the end of the text' : `"${token.text}"`;
  }

  private readObjective(): void {
    if (this.token.kind === 'name' && this.peek(1).kind === 'colon' && this.sectionAt() === null) {
      this.next();
      this.next();
    }
    const constant = this.readExpression(this.builder.objective, 'the objective');
    this.builder.objectiveConstant = constant;
  }

  /**
   * A linear expression into `form`; returns the sum of its constant terms. Stops at a relation,
   * a section keyword, a row label (`name:`) or the end.
   */
  private readExpression(form: Map<number, Rational>, where: string): Rational {
    let constant = RATIONALS.zero;
    let first = true;
    for (;;) {
      const start = this.token;
      if (this.sectionAt() !== null || start.kind === 'relation' || (start.kind === 'name' && this.peek(1).kind === 'colon')) return constant;
      let sign: Rational = RATIONALS.one;
      if (start.kind === 'sign') {
        sign = start.text === '-' ? RATIONALS.neg(RATIONALS.one) : RATIONALS.one;
        this.next();
      } else if (!first) {
        throw this.errors.at(start, LpTextRule.SYNTAX, `expected + or - before the next term of ${where}, found ${this.describe(start)}`);
      }
      first = false;
      let coefficient: Rational | null = null;
      const termStart = this.token;
      if (this.token.kind === 'number') {
        coefficient = RATIONALS.mul(sign, readNumber(this.errors, this.token.text, this.token));
        this.next();
      }
      const nameToken = this.token;
      if (nameToken.kind === 'name' && !(nameToken.lineStart && this.sectionAt() !== null) && this.peek(1).kind !== 'colon') {
        if (INFINITY_WORDS.has(nameToken.text.toLowerCase())) throw this.errors.at(nameToken, LpTextRule.INFINITE_VALUE, `"${nameToken.text}" in ${where}: infinity may appear only in bounds`);
        this.next();
        const j = this.builder.variable(nameToken.text, nameToken);
        this.builder.addCoefficient(form, j, coefficient ?? sign, nameToken, { sum: true, where });
      } else if (coefficient !== null) {
        constant = checkNumberSize(this.errors, RATIONALS.add(constant, coefficient), termStart, `the constant of ${where}`);
      } else {
        throw this.errors.at(nameToken, LpTextRule.SYNTAX, `expected a number or a variable name after "${start.text}" in ${where}, found ${this.describe(nameToken)}`);
      }
    }
  }

  private readConstraints(): void {
    for (;;) {
      const start = this.token;
      if (this.sectionAt() !== null) return;
      let name: string | null = null;
      if (start.kind === 'name' && this.peek(1).kind === 'colon') {
        name = start.text;
        this.next();
        this.next();
      }
      const position = this.builder.rows.length + 1;
      const where = name === null ? `row ${position} (line ${start.line})` : `row "${name}"`;
      const exprStart = this.token;
      // An unnamed row is held under a name no CPLEX name can be ("\\" starts a comment) until every explicit name is known.
      const row = this.builder.row(name ?? `\\r${position}`, '=', name === null ? exprStart : start);
      if (name === null) this.unnamed.push({ row: this.builder.rows.length - 1, position: exprStart });
      const constant = this.readExpression(row.coefficients, where);
      const relationToken = this.token;
      if (relationToken.kind !== 'relation') {
        if (exprStart === relationToken) throw this.errors.at(relationToken, LpTextRule.SYNTAX, `${where} has no terms`);
        throw this.errors.at(relationToken, LpTextRule.NO_RELATION, `${where}, begun at line ${start.line}, column ${start.column}, ends without a relation (<=, >= or =) and right-hand side`);
      }
      if (exprStart === relationToken) throw this.errors.at(relationToken, LpTextRule.SYNTAX, `${where} has no terms before "${relationToken.text}"`);
      this.next();
      row.relation = relationOf(relationToken.text);
      const rhs = this.readRhs(where);
      if (this.token.kind === 'relation') throw this.errors.at(this.token, LpTextRule.UNSUPPORTED, `${where}: ranged rows (a <= expression <= b) are not supported; write two rows`);
      row.rhs = checkNumberSize(this.errors, RATIONALS.sub(rhs, constant), relationToken, `the right-hand side of ${where}`);
    }
  }

  /** `[sign] number` on the right of a row. */
  private readRhs(where: string): Rational {
    let negative = false;
    const start = this.token;
    if (start.kind === 'sign') {
      negative = start.text === '-';
      this.next();
    }
    const token = this.token;
    if (token.kind === 'name' && INFINITY_WORDS.has(token.text.toLowerCase())) throw this.errors.at(token, LpTextRule.INFINITE_VALUE, `the right-hand side of ${where} must be finite`);
    if (token.kind === 'name') throw this.errors.at(token, LpTextRule.SYNTAX, `the right-hand side of ${where} must be a number; move "${token.text}" to the left-hand side`);
    if (token.kind !== 'number') throw this.errors.at(token, LpTextRule.SYNTAX, `expected the right-hand side (a number) of ${where}, found ${this.describe(token)}`);
    this.next();
    const value = readNumber(this.errors, token.text, token);
    // A name on the rhs's own line is a variable on the right; on a later line it starts an unnamed row.
    if (this.token.kind === 'name' && this.token.line === token.line && this.peek(1).kind !== 'colon') throw this.errors.at(this.token, LpTextRule.SYNTAX, `the right-hand side of ${where} must be a number; move "${this.token.text}" to the left-hand side`);
    return negative ? RATIONALS.neg(value) : value;
  }

  /** Unnamed rows get "r<i>", with "_" appended while an explicit name takes it. */
  private nameRows(): void {
    const taken = new Set(this.builder.rows.map((row) => row.name).filter((_, i) => !this.unnamed.some((u) => u.row === i)));
    for (const { row: index, position } of this.unnamed) {
      const row = this.builder.rows[index];
      if (row === undefined) continue;
      this.builder.rowIndex.delete(row.name);
      const name = freshName(`r${index + 1}`, taken);
      taken.add(name);
      if (name.length > 255) throw this.errors.at(position, LpRule.NAME_SYNTAX, `the generated name "${name.slice(0, 40)}…" of row ${index + 1} is too long`);
      row.name = name;
      this.builder.rowIndex.set(name, index);
    }
  }

  /** One bound statement per line. */
  private readBounds(): void {
    while (this.sectionAt() === null) {
      const start = this.token;
      const line: Token[] = [];
      do line.push(this.next());
      while (!this.token.lineStart);
      this.bound(line, start);
    }
  }

  private bound(line: Token[], start: Token): void {
    const texts = line.map((t) => t.text.toLowerCase());
    const fail = (message: string, at: Token = start): never => {
      throw this.errors.at(at, LpTextRule.SYNTAX, message);
    };
    const shape = 'expected a bound such as "x <= 4", "x >= -1", "-inf <= x <= 2", "x = 3" or "x free"';
    const variableAt = (token: Token | undefined): number => {
      if (token?.kind !== 'name' || INFINITY_WORDS.has(token.text.toLowerCase())) return fail(shape, token ?? start);
      const j = this.builder.variableIndex.get(token.text);
      if (j === undefined) throw this.errors.at(token, LpRule.UNKNOWN_NAME, `"${token.text}" is not a variable of the objective or of any row`);
      return j;
    };
    if (line.length === 2 && texts[1] === 'free') {
      const j = variableAt(line[0]);
      this.builder.setBound(j, 'lower', null, start);
      this.builder.setBound(j, 'upper', null, start);
      return;
    }
    // value := [sign] (number | inf | infinity)
    let k = 0;
    const value = (): BoundValue => {
      const first = line[k];
      let sign: 1 | -1 = 1;
      let token = first;
      if (token?.kind === 'sign') {
        sign = token.text === '-' ? -1 : 1;
        k++;
        token = line[k];
      }
      if (token?.kind === 'number') {
        k++;
        const v = readNumber(this.errors, token.text, token);
        return { kind: 'finite', value: sign < 0 ? RATIONALS.neg(v) : v };
      }
      if (token?.kind === 'name' && INFINITY_WORDS.has(token.text.toLowerCase())) {
        k++;
        return { kind: 'infinite', sign };
      }
      return fail(shape, token ?? first ?? start);
    };
    const relation = (): { relation: LpRelation; token: Token } => {
      const token = line[k];
      if (token?.kind !== 'relation') return fail(shape, token ?? start);
      k++;
      return { relation: relationOf(token.text), token };
    };
    const assign = (j: number, rel: LpRelation, v: BoundValue, at: Token): void => {
      // rel relates the variable to the value: x rel v.
      const name = this.builder.variables[j]?.name ?? '';
      if (rel === '=') {
        if (v.kind === 'infinite') throw this.errors.at(at, LpTextRule.INFINITE_VALUE, `"${name}" cannot be fixed at infinity`);
        this.builder.setBound(j, 'lower', v.value, at);
        this.builder.setBound(j, 'upper', v.value, at);
        return;
      }
      const side = rel === '<=' ? 'upper' : 'lower';
      if (v.kind === 'infinite' && v.sign === (side === 'upper' ? -1 : 1)) throw this.errors.at(at, LpTextRule.INFINITE_VALUE, `${side === 'upper' ? '-infinity as an upper' : '+infinity as a lower'} bound of "${name}"`);
      this.builder.setBound(j, side, v.kind === 'infinite' ? null : v.value, at);
    };
    if (line[0]?.kind === 'name' && !INFINITY_WORDS.has(texts[0] ?? '')) {
      // x rel v
      const j = variableAt(line[0]);
      k = 1;
      const { relation: rel, token } = relation();
      const v = value();
      if (k !== line.length) fail(`unexpected "${line[k]?.text ?? ''}" after the bound`, line[k]);
      assign(j, rel, v, token);
      return;
    }
    // v rel x [rel v]
    const left = value();
    const first = relation();
    const j = variableAt(line[k]);
    k++;
    assign(j, flip(first.relation), left, first.token);
    if (k === line.length) return;
    const second = relation();
    if (first.relation === '=' || second.relation === '=' || first.relation !== second.relation) fail(`a two-sided bound needs the same relation twice ("l <= x <= u" or "u >= x >= l")`, second.token);
    const right = value();
    if (k !== line.length) fail(`unexpected "${line[k]?.text ?? ''}" after the bound`, line[k]);
    assign(j, second.relation, right, second.token);
  }

  private readonly binaries: { j: number; at: Token }[] = [];

  private readIntegers(binary: boolean): void {
    const listed = new Map<number, Token>();
    while (this.sectionAt() === null) {
      const token = this.next();
      if (token.kind !== 'name') throw this.errors.at(token, LpTextRule.SYNTAX, `expected a variable name in the ${binary ? 'binary' : 'general'} section, found "${token.text}"`);
      const j = this.builder.variableIndex.get(token.text);
      if (j === undefined) throw this.errors.at(token, LpRule.UNKNOWN_NAME, `"${token.text}" is not a variable of the objective or of any row`);
      const earlier = listed.get(j);
      if (earlier !== undefined) throw this.errors.at(token, LpTextRule.DUPLICATE_ENTRY, `"${token.text}" is already listed at line ${earlier.line}`);
      listed.set(j, token);
      const variable = this.builder.variables[j];
      if (variable !== undefined) variable.integer = true;
      if (binary) this.binaries.push({ j, at: token });
    }
  }

  /** Binary: bounds 0 and 1, and no bound of the bounds section. */
  private checkBinaries(): void {
    for (const { j, at } of this.binaries) {
      const variable = this.builder.variables[j];
      if (variable === undefined) continue;
      const earlier = variable.lowerAt ?? variable.upperAt;
      if (earlier !== null) throw this.errors.at(at, LpTextRule.BOUND_REPEATED, `binary variable "${variable.name}" also has a bound at line ${earlier.line}; a binary variable's bounds are 0 and 1`);
      this.builder.setBound(j, 'lower', RATIONALS.zero, at);
      this.builder.setBound(j, 'upper', RATIONALS.one, at);
    }
  }
}

function relationOf(text: string): LpRelation {
  if (text === '=') return '=';
  return text.includes('<') ? '<=' : '>=';
}

function flip(relation: LpRelation): LpRelation {
  return relation === '<=' ? '>=' : relation === '>=' ? '<=' : '=';
}

/**
 * Read CPLEX LP text (see the module comment for the grammar) into the request form, every number
 * exact and canonical. Errors: INVALID_REQUEST at `options.path` (default ['text']) with the line,
 * column and rule in the message and in `data`.
 */
export function parseCplexLp(text: string, options: TextReadOptions = {}): LpProblemInput {
  const errors = new TextErrors('CPLEX LP', options.path ?? (['text'] as JsonPath));
  errors.checkLength(text);
  return new LpReader(text, errors).read();
}

/** True when CPLEX LP (and GLPK and CBC) can carry `name` as it is. */
export function isCplexLpName(name: string): boolean {
  if (name.length === 0 || name.length > 255) return false;
  for (const c of name) if (!isNameChar(c)) return false;
  const first = name[0] ?? '';
  if (isDigit(first) || first === '.') return false;
  // "e" or "E" followed by digits reads as an exponent after a number in some readers (CPLEX warns).
  if (/^[eE][0-9]*$/.test(name)) return false;
  return !KEYWORDS.has(name.toLowerCase());
}

const TERMS_PER_LINE = 8;

/**
 * Write a stored problem as CPLEX LP. Every variable appears in the objective in the problem's
 * order (with coefficient 0 where it has none), so that a reader declares the variables in that
 * order; rows keep their order and names; integer variables are listed under General with their
 * bounds under Bounds. Names CPLEX LP cannot carry (characters outside CPLEX's set, a leading
 * digit or period, "e" followed by digits only, a keyword such as "free" or "st") are renamed as
 * {@link writtenNames} says; the objective is named "obj" (with "_" appended while a row has that
 * name). Numbers: see {@link LpWriteOptions}.
 *
 * Readers differ (measured with GLPK 5.0 and CBC 2.10): GLPK refuses a constant term in the
 * objective (write with objectiveConstant 'omit') and a constraints section with no rows; CBC
 * reads both.
 */
export function writeCplexLp(problem: LpProblem, options: LpWriteOptions = {}): WrittenLp {
  const style = options.fractions ?? 'fraction';
  const exact = { value: true };
  const { variableNames, rowNames, renamed } = writtenNames(problem, isCplexLpName);
  const objectiveName = freshName('obj', new Set(rowNames));
  const index = new Map(problem.variables.map((v, j) => [v.name, j]));
  const number = (canonical: string): string => writeNumber(canonical, style, exact);
  const term = (name: string, value: string): string => {
    const written = number(value);
    return written.startsWith('-') ? `- ${written.slice(1)} ${name}` : `+ ${written} ${name}`;
  };
  const lines: string[] = [];
  const emit = (head: string, terms: string[], tail: string): void => {
    const chunks: string[] = [];
    for (let k = 0; k < terms.length; k += TERMS_PER_LINE) chunks.push(terms.slice(k, k + TERMS_PER_LINE).join(' '));
    if (chunks.length === 0) chunks.push('');
    chunks[0] = `${head}${chunks[0] ?? ''}`;
    chunks[chunks.length - 1] = `${chunks.at(-1) ?? ''}${tail}`;
    lines.push(...chunks.map((chunk, k) => (k === 0 ? ` ${chunk}` : `   ${chunk}`)));
  };
  lines.push(`\\ ${problem.variables.length} variables, ${problem.constraints.length} rows`);
  lines.push(problem.sense === 'minimize' ? 'Minimize' : 'Maximize');
  const objectiveTerms = problem.variables.map((v, j) => term(variableNames[j] ?? '', Object.hasOwn(problem.objective, v.name) ? (problem.objective[v.name] ?? '0') : '0'));
  let objectiveTail = '';
  if (problem.objective_constant !== '0') {
    if (options.objectiveConstant === 'omit') exact.value = false;
    else {
      const c = number(problem.objective_constant);
      objectiveTail = c.startsWith('-') ? ` - ${c.slice(1)}` : ` + ${c}`;
    }
  }
  emit(`${objectiveName}: `, objectiveTerms, objectiveTail);
  lines.push('Subject To');
  problem.constraints.forEach((row, i) => {
    const entries = Object.entries(row.coefficients).sort((a, b) => (index.get(a[0]) ?? 0) - (index.get(b[0]) ?? 0));
    const terms = entries.length === 0 ? [`+ 0 ${variableNames[0] ?? ''}`] : entries.map(([name, value]) => term(variableNames[index.get(name) ?? 0] ?? '', value));
    emit(`${rowNames[i] ?? ''}: `, terms, ` ${row.relation} ${number(row.rhs)}`);
  });
  const bounds: string[] = [];
  problem.variables.forEach((v, j) => {
    const name = variableNames[j] ?? '';
    if (v.lower === '0' && v.upper === null) return;
    if (v.lower === null && v.upper === null) bounds.push(` ${name} free`);
    else if (v.lower !== null && v.lower === v.upper) bounds.push(` ${name} = ${number(v.lower)}`);
    else if (v.upper === null) bounds.push(` ${name} >= ${number(v.lower ?? '0')}`);
    else if (v.lower === '0') bounds.push(` ${name} <= ${number(v.upper)}`);
    else bounds.push(` ${v.lower === null ? '-inf' : number(v.lower)} <= ${name} <= ${number(v.upper)}`);
  });
  if (bounds.length > 0) lines.push('Bounds', ...bounds);
  const integers = problem.variables.flatMap((v, j) => (v.integer ? [variableNames[j] ?? ''] : []));
  if (integers.length > 0) {
    lines.push('General');
    for (let k = 0; k < integers.length; k += TERMS_PER_LINE) lines.push(` ${integers.slice(k, k + TERMS_PER_LINE).join(' ')}`);
  }
  lines.push('End', '');
  return { text: lines.join('\n'), variableNames, rowNames, objectiveName, renamed, exact: exact.value };
}
