/**
 * Our grammar for polynomials: a tokenizer and a recursive-descent parser that expands the text
 * straight into a polynomial of a declared ring. Nothing a client sends is evaluated as code; the
 * text only ever becomes numbers, variables and the ring's own arithmetic.
 *
 * Grammar (whitespace between tokens is ignored):
 * ```
 * polynomial := sum END
 * sum        := signed { ("+" | "-") product }
 * signed     := ["+" | "-"] product
 * product    := factor { "*" factor | "/" INTEGER }   division only by a non-zero integer literal
 * factor     := "-" factor | power                     unary minus binds looser than "^": -x^2 = -(x^2)
 * power      := primary [ "^" INTEGER ]                non-negative exponent; x^2^3 is rejected
 * primary    := INTEGER | VARIABLE | "(" sum ")"
 * INTEGER    := [0-9]+                                 any size (bigint), at most maxCoefficientDigits
 * VARIABLE   := a declared variable name               [A-Za-z_][A-Za-z0-9_]*
 * ```
 * Rationals are written as quotients of integers: `3/4*x`, `x/2`, `-(1/3)*y^2`. Over GF(p) a
 * division by a multiple of p is an error.
 *
 * Errors are JacobianError INVALID_REQUEST whose message names the column (1-based, in
 * characters) and the grammar rule, with `data: { column, rule }` and the request path.
 */
import { JacobianError, type JsonPath } from '../../errors.js';
import { checkDigits } from './field.js';
import { POLYNOMIAL_LIMITS } from './limits.js';
import type { Polynomial, PolynomialRing } from './polynomial.js';

/** Names of the grammar rules that error messages cite. */
export const PolynomialSyntaxRule = {
  LENGTH: 'length',
  CHARACTER: 'character',
  SUM: 'sum',
  PRODUCT: 'product',
  POWER: 'power',
  PRIMARY: 'primary',
  VARIABLE: 'variable',
  EXPONENT: 'exponent',
  DIVISION: 'division',
  NESTING: 'nesting',
  SIZE: 'size',
} as const;
export type PolynomialSyntaxRule = (typeof PolynomialSyntaxRule)[keyof typeof PolynomialSyntaxRule];

/** The pattern of a variable name. */
export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

type TokenKind = 'integer' | 'name' | '+' | '-' | '*' | '/' | '^' | '(' | ')' | 'end';
interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** 1-based, in characters (code points). */
  readonly column: number;
}

function where(path: JsonPath): string {
  return path.length === 0 ? 'the text' : path.join('.');
}

function syntaxError(path: JsonPath, column: number, rule: PolynomialSyntaxRule, message: string, hint?: string): JacobianError {
  return new JacobianError('INVALID_REQUEST', `${where(path)}, column ${column}: ${message} (rule: ${rule})`, {
    path,
    data: { column, rule },
    ...(hint === undefined ? {} : { hint }),
  });
}

const GRAMMAR_HINT = 'polynomials are sums of products of integers, declared variables and parenthesized sums, with + - * ^ and division by integer literals, e.g. 3/4*x^2*y - (y + 1)^3';

function show(token: Token): string {
  return token.kind === 'end' ? 'the end of the text' : `"${token.text}"`;
}

function tokenize(text: string, path: JsonPath): Token[] {
  if (text.length > POLYNOMIAL_LIMITS.maxTextLength) {
    throw syntaxError(path, 1, PolynomialSyntaxRule.LENGTH, `the text has ${text.length} characters, more than the limit of ${POLYNOMIAL_LIMITS.maxTextLength}`);
  }
  const chars = Array.from(text);
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i] as string;
    const column = i + 1;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < chars.length && /[A-Za-z0-9_]/.test(chars[j] as string)) j++;
      tokens.push({ kind: 'name', text: chars.slice(i, j).join(''), column });
      i = j;
    } else if (c >= '0' && c <= '9') {
      let j = i + 1;
      while (j < chars.length && (chars[j] as string) >= '0' && (chars[j] as string) <= '9') j++;
      tokens.push({ kind: 'integer', text: chars.slice(i, j).join(''), column });
      i = j;
    } else if (c === '+' || c === '-' || c === '*' || c === '/' || c === '^' || c === '(' || c === ')') {
      tokens.push({ kind: c, text: c, column });
      i++;
    } else {
      const code = c.codePointAt(0) ?? 0;
      const shown = code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `"${c}"`;
      throw syntaxError(path, column, PolynomialSyntaxRule.CHARACTER, `unexpected character ${shown}`, GRAMMAR_HINT);
    }
  }
  tokens.push({ kind: 'end', text: '', column: chars.length + 1 });
  return tokens;
}

/** Recursive descent; recursion is bounded by maxNesting. */
class Parser<C> {
  private index = 0;
  private nesting = 0;
  private readonly variableIndex: Map<string, number>;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly ring: PolynomialRing<C>,
    private readonly path: JsonPath,
  ) {
    this.variableIndex = new Map(ring.variables.map((name, i) => [name, i]));
  }

  private peek(): Token {
    return this.tokens[this.index] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index++;
    return token;
  }

  /** Run ring arithmetic, turning its size errors into syntax errors at `at`. */
  private arith<T>(at: Token, compute: () => T): T {
    try {
      return compute();
    } catch (error) {
      if (error instanceof JacobianError && error.code === 'INVALID_REQUEST') {
        const rule = error.data?.['rule'] === 'division-by-zero' ? PolynomialSyntaxRule.DIVISION : PolynomialSyntaxRule.SIZE;
        throw syntaxError(this.path, at.column, rule, error.message);
      }
      throw error;
    }
  }

  private enter(at: Token): void {
    if (++this.nesting > POLYNOMIAL_LIMITS.maxNesting) {
      throw syntaxError(this.path, at.column, PolynomialSyntaxRule.NESTING, `parentheses and unary minus are nested deeper than ${POLYNOMIAL_LIMITS.maxNesting} levels`);
    }
  }

  parseWhole(): Polynomial<C> {
    const first = this.peek();
    if (first.kind === 'end') throw syntaxError(this.path, first.column, PolynomialSyntaxRule.SUM, 'the text is empty; write 0 for the zero polynomial', GRAMMAR_HINT);
    const p = this.parseSum();
    const end = this.peek();
    if (end.kind !== 'end') {
      const expected = end.kind === ')' ? 'an unmatched ")"' : `${show(end)} where an operator (+ - * / ^) or the end was expected`;
      throw syntaxError(this.path, end.column, PolynomialSyntaxRule.SUM, `unexpected ${expected}`, GRAMMAR_HINT);
    }
    return p;
  }

  private parseSum(): Polynomial<C> {
    const R = this.ring;
    let sign = 1;
    const lead = this.peek();
    if (lead.kind === '+' || lead.kind === '-') {
      this.next();
      if (lead.kind === '-') sign = -1;
    }
    let p = this.parseProduct();
    if (sign < 0) p = R.neg(p);
    for (;;) {
      const op = this.peek();
      if (op.kind !== '+' && op.kind !== '-') return p;
      this.next();
      const q = this.parseProduct();
      p = this.arith(op, () => (op.kind === '+' ? R.add(p, q) : R.sub(p, q)));
      if (p.length > POLYNOMIAL_LIMITS.maxTerms) throw syntaxError(this.path, op.column, PolynomialSyntaxRule.SIZE, `the sum has more than ${POLYNOMIAL_LIMITS.maxTerms} terms`);
    }
  }

  private parseProduct(): Polynomial<C> {
    const R = this.ring;
    let p = this.parseFactor();
    for (;;) {
      const op = this.peek();
      if (op.kind === '*') {
        this.next();
        const q = this.parseFactor();
        p = this.arith(op, () => R.mul(p, q));
      } else if (op.kind === '/') {
        this.next();
        const d = this.peek();
        if (d.kind !== 'integer') {
          throw syntaxError(this.path, d.column, PolynomialSyntaxRule.DIVISION, `expected a non-zero integer literal after "/" but found ${show(d)}; only division by integer literals is allowed`, GRAMMAR_HINT);
        }
        this.next();
        checkDigits(d.text, this.path);
        const divisor = BigInt(d.text);
        if (divisor === 0n) throw syntaxError(this.path, d.column, PolynomialSyntaxRule.DIVISION, 'division by zero');
        const factor = this.arith(d, () => R.field.fromFraction(1n, divisor));
        p = R.scale(p, factor);
      } else if (op.kind === 'name' || op.kind === 'integer' || op.kind === '(') {
        throw syntaxError(this.path, op.column, PolynomialSyntaxRule.PRODUCT, `expected an operator before ${show(op)}; products are written with "*"`, GRAMMAR_HINT);
      } else {
        return p;
      }
    }
  }

  private parseFactor(): Polynomial<C> {
    const token = this.peek();
    if (token.kind === '-') {
      this.next();
      this.enter(token);
      const p = this.ring.neg(this.parseFactor());
      this.nesting--;
      return p;
    }
    return this.parsePower();
  }

  private parsePower(): Polynomial<C> {
    const base = this.parsePrimary();
    const caret = this.peek();
    if (caret.kind !== '^') return base;
    this.next();
    const e = this.peek();
    if (e.kind !== 'integer') {
      throw syntaxError(this.path, e.column, PolynomialSyntaxRule.EXPONENT, `expected a non-negative integer exponent after "^" but found ${show(e)}`, GRAMMAR_HINT);
    }
    this.next();
    if (e.text.length > 6 || Number(e.text) > POLYNOMIAL_LIMITS.maxExponent) {
      throw syntaxError(this.path, e.column, PolynomialSyntaxRule.EXPONENT, `the exponent ${e.text.length > 12 ? `${e.text.slice(0, 12)}…` : e.text} is larger than the limit of ${POLYNOMIAL_LIMITS.maxExponent}`);
    }
    const after = this.peek();
    if (after.kind === '^') {
      throw syntaxError(this.path, after.column, PolynomialSyntaxRule.POWER, 'a power of a power must be parenthesized: write (x^2)^3', GRAMMAR_HINT);
    }
    return this.arith(caret, () => this.ring.pow(base, Number(e.text)));
  }

  private parsePrimary(): Polynomial<C> {
    const R = this.ring;
    const token = this.next();
    switch (token.kind) {
      case 'integer':
        checkDigits(token.text, this.path);
        return R.constant(R.field.fromBigInt(BigInt(token.text)));
      case 'name': {
        const index = this.variableIndex.get(token.text);
        if (index === undefined) {
          throw syntaxError(this.path, token.column, PolynomialSyntaxRule.VARIABLE, `"${token.text}" is not a declared variable (declared: ${R.variables.join(', ') || 'none'})`);
        }
        return R.variable(index);
      }
      case '(': {
        this.enter(token);
        const p = this.parseSum();
        this.nesting--;
        const close = this.next();
        if (close.kind !== ')') throw syntaxError(this.path, close.column, PolynomialSyntaxRule.PRIMARY, `expected ")" to close the "(" at column ${token.column} but found ${show(close)}`, GRAMMAR_HINT);
        return p;
      }
      case '+':
      case '-':
      case '*':
      case '/':
      case '^':
      case ')':
      case 'end':
        throw syntaxError(this.path, token.column, PolynomialSyntaxRule.PRIMARY, `expected an integer, a variable or "(" but found ${show(token)}`, GRAMMAR_HINT);
    }
  }
}

/** Where a text came from, for error messages and paths. */
export interface PolynomialParseOptions {
  /** Path of the text in the request (e.g. `['generators', 2]`); default `[]`. */
  path?: JsonPath;
}

/**
 * Parse and expand one polynomial text in `ring`.
 *
 * @example
 * parsePolynomial(ring, '(x + 1/2*y)^2 - x*y')  // x^2 + 1/4*y^2 over Q in x > y
 */
export function parsePolynomial<C>(ring: PolynomialRing<C>, text: string, options: PolynomialParseOptions = {}): Polynomial<C> {
  const path = options.path ?? [];
  return new Parser(tokenize(text, path), ring, path).parseWhole();
}

/** Parse a list of texts; each error's path ends with the index of its text. */
export function parsePolynomials<C>(ring: PolynomialRing<C>, texts: readonly string[], options: PolynomialParseOptions = {}): Polynomial<C>[] {
  const path = options.path ?? [];
  if (texts.length > POLYNOMIAL_LIMITS.maxPolynomials) {
    throw new JacobianError('INVALID_REQUEST', `${texts.length} polynomials, more than the limit of ${POLYNOMIAL_LIMITS.maxPolynomials}`, { path, data: { rule: 'size' } });
  }
  return texts.map((text, i) => parsePolynomial(ring, text, { path: [...path, i] }));
}
