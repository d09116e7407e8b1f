/**
 * Terms and laws: our own tokenizer and recursive-descent parser, and a printer whose output
 * parses back to the same tree. Nothing a client sends is evaluated as code; the text only
 * ever becomes the small tree below.
 *
 * Grammar (whitespace between tokens is ignored):
 * ```
 * law      := term "=" term
 * term     := operand { INFIX operand }        one infix operator per chain, grouped to the left
 * operand  := PREFIX operand | primary         PREFIX: a unary operation named by a symbol (~x, -x)
 * primary  := "(" term ")"
 *           | VARIABLE | CONSTANT              a declared variable, or an operation of arity 0
 *           | OPERATION "(" term { "," term } ")"   any operation, with exactly its arity of arguments
 * ```
 * Precedence and associativity, stated once:
 * - prefix application `f(x, y)` and prefix symbols `~x` bind tighter than any infix operator;
 * - all infix operators share one precedence level, and a chain of the *same* operator groups to
 *   the left: `x * y * z` is `(x * y) * z`;
 * - different infix operators never mix without parentheses: `x * y + z` is rejected (rule
 *   `infix-mixing`); write `(x * y) + z` or `x * (y + z)`.
 *
 * Errors are JacobianError INVALID_REQUEST whose message names the column (1-based, in
 * characters) and the grammar rule, with `data: { column, rule }` and the request path.
 */
import { JacobianError, type JsonPath } from '../../errors.js';
import { UNIVERSAL_ALGEBRA_LIMITS } from './limits.js';
import { isOperationSymbol, type Signature } from './signature.js';

/** A variable occurrence. */
export interface VariableTerm {
  readonly kind: 'variable';
  readonly name: string;
}

/** An operation applied to as many arguments as its arity (none for a constant). */
export interface ApplicationTerm {
  readonly kind: 'application';
  readonly operation: string;
  readonly args: readonly Term[];
}

/** A term over a signature. */
export type Term = VariableTerm | ApplicationTerm;

/** An equation `left = right`, universally quantified over its variables. */
export interface Law {
  readonly left: Term;
  readonly right: Term;
  /**
   * The law's variables in order of first occurrence (left side first). Assignments are
   * enumerated lexicographically in this order, the first variable most significant.
   */
  readonly variables: readonly string[];
}

/** Names of the grammar rules that error messages cite. */
export const SyntaxRule = {
  LENGTH: 'length',
  CHARACTER: 'character',
  LAW: 'law',
  TERM: 'term',
  OPERAND: 'operand',
  PRIMARY: 'primary',
  ARGUMENTS: 'arguments',
  ARITY: 'arity',
  INFIX_MIXING: 'infix-mixing',
  NAME: 'name',
  DEPTH: 'depth',
  SIZE: 'size',
} as const;
export type SyntaxRule = (typeof SyntaxRule)[keyof typeof SyntaxRule];

type TokenKind = 'name' | 'symbol' | '(' | ')' | ',' | '=' | 'end';
interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** 1-based, in characters (code points). */
  readonly column: number;
}

/** Where a text came from, for error messages and paths. */
export interface ParseOptions {
  /** Path of the text in the request (e.g. `['payload', 'laws', 2]`); default `[]`. */
  path?: JsonPath;
}

function where(path: JsonPath): string {
  return path.length === 0 ? 'the text' : path.join('.');
}

function syntaxError(path: JsonPath, column: number, rule: SyntaxRule, message: string, hint?: string): JacobianError {
  return new JacobianError('INVALID_REQUEST', `${where(path)}, column ${column}: ${message} (rule: ${rule})`, {
    path,
    data: { column, rule },
    ...(hint === undefined ? {} : { hint }),
  });
}

const GRAMMAR_HINT =
  'laws are `term = term`; terms are variables, constants, f(t1, t2), prefix symbols ~t, and infix chains of one operator (parenthesize when mixing operators)';

function show(token: Token): string {
  return token.kind === 'end' ? 'the end of the text' : `"${token.text}"`;
}

/** Split a text into tokens. Rejects characters that belong to no token. */
function tokenize(text: string, path: JsonPath): Token[] {
  if (text.length > UNIVERSAL_ALGEBRA_LIMITS.maxLawLength) {
    throw syntaxError(path, 1, SyntaxRule.LENGTH, `the text has ${text.length} characters, more than the limit of ${UNIVERSAL_ALGEBRA_LIMITS.maxLawLength}`);
  }
  const chars = Array.from(text);
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i] as string;
    const column = i + 1;
    if (/\s/u.test(c)) {
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < chars.length && /[A-Za-z0-9_]/.test(chars[j] as string)) j++;
      tokens.push({ kind: 'name', text: chars.slice(i, j).join(''), column });
      i = j;
    } else if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < chars.length && /[0-9]/.test(chars[j] as string)) j++;
      tokens.push({ kind: 'name', text: chars.slice(i, j).join(''), column });
      i = j;
    } else if (c === '(' || c === ')' || c === ',' || c === '=') {
      tokens.push({ kind: c, text: c, column });
      i++;
    } else if (isOperationSymbol(c)) {
      tokens.push({ kind: 'symbol', text: c, column });
      i++;
    } else {
      const code = c.codePointAt(0) ?? 0;
      const shown = code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `"${c}"`;
      throw syntaxError(path, column, SyntaxRule.CHARACTER, `unexpected character ${shown}; a law is made of names, operation symbols, parentheses, commas and one "="`, GRAMMAR_HINT);
    }
  }
  tokens.push({ kind: 'end', text: '', column: chars.length + 1 });
  return tokens;
}

interface Parsed {
  readonly term: Term;
  /** Depth of `term`: 1 for a variable or constant. */
  readonly depth: number;
}

/** Recursive descent over one text. Recursion is bounded by {@link UNIVERSAL_ALGEBRA_LIMITS}. */
class Parser {
  private index = 0;
  private nodes = 0;
  private nesting = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly signature: Signature,
    private readonly path: JsonPath,
  ) {}

  private peek(): Token {
    return this.tokens[this.index] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index++;
    return token;
  }

  private expect(kind: TokenKind, rule: SyntaxRule, what: string): Token {
    const token = this.peek();
    if (token.kind !== kind) throw syntaxError(this.path, token.column, rule, `expected ${what} but found ${show(token)}`, GRAMMAR_HINT);
    return this.next();
  }

  /** Count a new node and check the size and depth bounds at the token that made it. */
  private node(term: Term, depth: number, at: Token): Parsed {
    this.nodes++;
    if (this.nodes > UNIVERSAL_ALGEBRA_LIMITS.maxLawNodes) {
      throw syntaxError(this.path, at.column, SyntaxRule.SIZE, `more than ${UNIVERSAL_ALGEBRA_LIMITS.maxLawNodes} variable and operation occurrences`);
    }
    if (depth > UNIVERSAL_ALGEBRA_LIMITS.maxTermDepth) {
      throw syntaxError(this.path, at.column, SyntaxRule.DEPTH, `the term is nested deeper than ${UNIVERSAL_ALGEBRA_LIMITS.maxTermDepth} levels`);
    }
    return { term, depth };
  }

  /** Enter one level of parentheses, prefix operator or argument list. */
  private enter(at: Token): void {
    this.nesting++;
    // Parentheses add nesting without adding depth; bound them too so recursion stays shallow.
    if (this.nesting > 2 * UNIVERSAL_ALGEBRA_LIMITS.maxTermDepth) {
      throw syntaxError(this.path, at.column, SyntaxRule.DEPTH, `parentheses and applications are nested deeper than ${2 * UNIVERSAL_ALGEBRA_LIMITS.maxTermDepth} levels`);
    }
  }

  private leave(): void {
    this.nesting--;
  }

  parseLaw(): Law {
    const left = this.parseTerm();
    const equals = this.peek();
    if (equals.kind !== '=') {
      throw syntaxError(this.path, equals.column, SyntaxRule.LAW, `expected "=" between the two sides of the law but found ${show(equals)}`, GRAMMAR_HINT);
    }
    this.next();
    const right = this.parseTerm();
    this.expect('end', SyntaxRule.LAW, 'the end of the law (a law has exactly one "=")');
    return { left: left.term, right: right.term, variables: lawVariables(left.term, right.term) };
  }

  parseWholeTerm(): Term {
    const parsed = this.parseTerm();
    this.expect('end', SyntaxRule.TERM, 'the end of the term');
    return parsed.term;
  }

  /** The infix operator `token` denotes, if any. */
  private infixAt(token: Token): string | null {
    if (token.kind !== 'name' && token.kind !== 'symbol') return null;
    const operation = this.signature.operationByName.get(token.text);
    return operation?.infix === true ? operation.name : null;
  }

  private parseTerm(): Parsed {
    let left = this.parseOperand();
    let chain: string | null = null;
    for (;;) {
      const token = this.peek();
      const operator = this.infixAt(token);
      if (operator === null) {
        if (token.kind === 'name' || token.kind === 'symbol' || token.kind === '(') {
          throw syntaxError(
            this.path,
            token.column,
            SyntaxRule.TERM,
            `expected an infix operator, ")", "," or "=" after a complete term but found ${show(token)}${
              this.signature.operationByName.has(token.text)
                ? ` ("${token.text}" is not declared infix)`
                : token.kind === '(' || this.signature.variableSet.has(token.text)
                  ? ''
                  : ` ("${token.text}" is not a declared operation)`
            }`,
            GRAMMAR_HINT,
          );
        }
        return left;
      }
      if (chain !== null && operator !== chain) {
        throw syntaxError(
          this.path,
          token.column,
          SyntaxRule.INFIX_MIXING,
          `the infix operators "${chain}" and "${operator}" meet without parentheses; all infix operators have one precedence, so mixed chains must be parenthesized`,
          `write (a ${chain} b) ${operator} c or a ${chain} (b ${operator} c)`,
        );
      }
      chain = operator;
      this.next();
      const right = this.parseOperand();
      left = this.node({ kind: 'application', operation: operator, args: [left.term, right.term] }, 1 + Math.max(left.depth, right.depth), token);
    }
  }

  private parseOperand(): Parsed {
    const token = this.peek();
    if (token.kind === 'symbol') {
      const operation = this.signature.operationByName.get(token.text);
      // `~(x)` is read by parsePrimary as an application; `~x` is the prefix form handled here.
      if (operation?.arity === 1 && this.tokens[this.index + 1]?.kind !== '(') {
        this.next();
        this.enter(token);
        const argument = this.parseOperand();
        this.leave();
        return this.node({ kind: 'application', operation: operation.name, args: [argument.term] }, 1 + argument.depth, token);
      }
    }
    return this.parsePrimary();
  }

  private parsePrimary(): Parsed {
    const token = this.peek();
    if (token.kind === '(') {
      this.next();
      this.enter(token);
      const inner = this.parseTerm();
      this.leave();
      this.expect(')', SyntaxRule.PRIMARY, `")" to close the "(" at column ${token.column}`);
      return inner;
    }
    if (token.kind !== 'name' && token.kind !== 'symbol') {
      throw syntaxError(
        this.path,
        token.column,
        SyntaxRule.PRIMARY,
        `expected a term (a variable, a constant, an application f(…) or a parenthesized term) but found ${show(token)}`,
        GRAMMAR_HINT,
      );
    }
    this.next();
    if (this.signature.variableSet.has(token.text)) {
      if (this.peek().kind === '(') {
        throw syntaxError(this.path, this.peek().column, SyntaxRule.PRIMARY, `"${token.text}" is a variable and cannot be applied to arguments`);
      }
      return this.node({ kind: 'variable', name: token.text }, 1, token);
    }
    const operation = this.signature.operationByName.get(token.text);
    if (operation === undefined) {
      throw syntaxError(
        this.path,
        token.column,
        SyntaxRule.NAME,
        `"${token.text}" is neither a declared variable nor a declared operation`,
        'declare every operation and variable in the signature',
      );
    }
    if (this.peek().kind !== '(') {
      if (operation.arity !== 0) {
        throw syntaxError(
          this.path,
          token.column,
          SyntaxRule.ARITY,
          `"${operation.name}" has arity ${operation.arity} and needs its argument${operation.arity === 1 ? '' : 's'}${operation.infix ? ' (it is infix: write x ' + operation.name + ' y)' : ` in parentheses: ${operation.name}(…)`}`,
        );
      }
      return this.node({ kind: 'application', operation: operation.name, args: [] }, 1, token);
    }
    const open = this.next();
    if (operation.arity === 0) {
      throw syntaxError(this.path, open.column, SyntaxRule.ARITY, `"${operation.name}" is a constant: write it without parentheses`);
    }
    this.enter(open);
    const args: Parsed[] = [this.parseTerm()];
    while (this.peek().kind === ',') {
      const comma = this.next();
      if (args.length >= operation.arity) {
        throw syntaxError(this.path, comma.column, SyntaxRule.ARITY, `"${operation.name}" takes ${operation.arity} argument${operation.arity === 1 ? '' : 's'}, but more are given`);
      }
      args.push(this.parseTerm());
    }
    this.leave();
    const close = this.expect(')', SyntaxRule.ARGUMENTS, `"," or ")" in the arguments of "${operation.name}"`);
    if (args.length !== operation.arity) {
      throw syntaxError(this.path, close.column, SyntaxRule.ARITY, `"${operation.name}" takes ${operation.arity} arguments, but ${args.length} ${args.length === 1 ? 'is' : 'are'} given`);
    }
    return this.node(
      { kind: 'application', operation: operation.name, args: args.map((a) => a.term) },
      1 + Math.max(...args.map((a) => a.depth)),
      token,
    );
  }
}

/** The variables of `left = right` in order of first occurrence. */
function lawVariables(left: Term, right: Term): string[] {
  const seen: string[] = [];
  const visit = (term: Term): void => {
    if (term.kind === 'variable') {
      if (!seen.includes(term.name)) seen.push(term.name);
    } else {
      for (const arg of term.args) visit(arg);
    }
  };
  visit(left);
  visit(right);
  return seen;
}

/**
 * Parse one law against a signature.
 *
 * @throws JacobianError INVALID_REQUEST naming the column and the grammar rule.
 * @example
 * parseLaw('x * (y * z) = (x * y) * z', signature, { path: ['payload', 'laws', 0] });
 */
export function parseLaw(text: string, signature: Signature, options: ParseOptions = {}): Law {
  const path = options.path ?? [];
  return new Parser(tokenize(text, path), signature, path).parseLaw();
}

/**
 * Parse one term against a signature (the same grammar as a side of a law).
 *
 * @throws JacobianError INVALID_REQUEST naming the column and the grammar rule.
 */
export function parseTerm(text: string, signature: Signature, options: ParseOptions = {}): Term {
  const path = options.path ?? [];
  return new Parser(tokenize(text, path), signature, path).parseWholeTerm();
}

/**
 * Parse a list of laws; the i-th law's errors carry the path `[...path, i]`.
 *
 * @throws JacobianError INVALID_REQUEST for more than {@link UNIVERSAL_ALGEBRA_LIMITS}.maxLaws laws or any law that does not parse.
 */
export function parseLaws(texts: readonly string[], signature: Signature, path: JsonPath = ['laws']): Law[] {
  if (texts.length > UNIVERSAL_ALGEBRA_LIMITS.maxLaws) {
    throw new JacobianError('INVALID_REQUEST', `${where(path)}: ${texts.length} laws, more than the limit of ${UNIVERSAL_ALGEBRA_LIMITS.maxLaws}`, { path });
  }
  return texts.map((text, index) => parseLaw(text, signature, { path: [...path, index] }));
}

function isInfixApplication(term: Term, signature: Signature): boolean {
  return term.kind === 'application' && term.args.length === 2 && signature.operationByName.get(term.operation)?.infix === true;
}

/**
 * Print a term so that {@link parseTerm} gives back the same tree: infix operations between
 * their arguments with every infix argument parenthesized, unary symbols as prefix `~x`
 * (`~(x * y)` around an infix argument), everything else as `f(x, y)`.
 */
export function printTerm(term: Term, signature: Signature): string {
  if (term.kind === 'variable') return term.name;
  const [first, second] = term.args;
  if (first === undefined) return term.operation;
  const operand = (arg: Term): string => (isInfixApplication(arg, signature) ? `(${printTerm(arg, signature)})` : printTerm(arg, signature));
  if (second !== undefined && isInfixApplication(term, signature)) {
    return `${operand(first)} ${term.operation} ${operand(second)}`;
  }
  if (second === undefined && isOperationSymbol(term.operation)) return `${term.operation}${operand(first)}`;
  return `${term.operation}(${term.args.map((arg) => printTerm(arg, signature)).join(', ')})`;
}

/** Print a law as `left = right` (see {@link printTerm}). */
export function printLaw(law: Pick<Law, 'left' | 'right'>, signature: Signature): string {
  return `${printTerm(law.left, signature)} = ${printTerm(law.right, signature)}`;
}

/**
 * A string that identifies a term's tree exactly (prefix form, fully parenthesized). Names
 * contain no parentheses or commas, so different trees give different keys.
 */
export function termKey(term: Term): string {
  if (term.kind === 'variable') return term.name;
  return term.args.length === 0 ? term.operation : `${term.operation}(${term.args.map(termKey).join(',')})`;
}

/** Whether two terms are the same tree. */
export function sameTerm(a: Term, b: Term): boolean {
  return termKey(a) === termKey(b);
}
