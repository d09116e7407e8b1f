/**
 * DIMACS CNF: a strict parser that names the line and the rule an input breaks, a deterministic
 * serializer, and the flat clause representation the SAT capabilities and checkers share.
 *
 * Accepted text: comment lines starting with `c`, one header `p cnf <variables> <clauses>`
 * before any clause, then clauses as whitespace-separated non-zero integers each ended by `0`
 * (a clause may span lines, and several may share a line). A line `%` ends the formula (the
 * SATLIB benchmark files end so); anything after it is ignored. Every literal must name a
 * variable in 1 … variables, and the number of clauses must equal the header's count.
 */
import { JacobianError, type JsonPath } from '../../errors.js';

/** Which rule of the DIMACS format an input broke; carried in `data.rule`. */
export const DimacsRule = {
  HEADER_MISSING: 'HEADER_MISSING',
  HEADER_MALFORMED: 'HEADER_MALFORMED',
  HEADER_DUPLICATE: 'HEADER_DUPLICATE',
  TOKEN_MALFORMED: 'TOKEN_MALFORMED',
  LITERAL_OUT_OF_RANGE: 'LITERAL_OUT_OF_RANGE',
  CLAUSE_UNTERMINATED: 'CLAUSE_UNTERMINATED',
  CLAUSE_COUNT_MISMATCH: 'CLAUSE_COUNT_MISMATCH',
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
} as const;
export type DimacsRule = (typeof DimacsRule)[keyof typeof DimacsRule];

/** Bounds a parser enforces before it allocates. */
export interface SatSizeLimits {
  maxVariables: number;
  maxClauses: number;
  /** Total literal occurrences over all clauses. */
  maxLiterals: number;
}

/** The bounds the SAT capabilities use: about 64 MB of clause memory at most. */
export const SAT_LIMITS: Readonly<SatSizeLimits> = Object.freeze({
  maxVariables: 4_000_000,
  maxClauses: 8_000_000,
  maxLiterals: 16_000_000,
});

/**
 * A CNF formula, clauses stored flat: clause i holds `literals[offsets[i] … offsets[i+1])`, in
 * the order written (duplicates and tautologies kept as given; consumers decide what they mean).
 */
export interface Cnf {
  readonly variables: number;
  readonly clauseCount: number;
  readonly literals: Int32Array;
  /** Length clauseCount + 1. */
  readonly offsets: Int32Array;
}

/** Clause i of a CNF as an array of DIMACS literals. */
export function clauseOf(cnf: Cnf, index: number): number[] {
  return Array.from(cnf.literals.subarray(cnf.offsets[index] as number, cnf.offsets[index + 1] as number));
}

/** Build a CNF from clause arrays (literals are checked against `variables`). */
export function cnfFromClauses(variables: number, clauses: readonly (readonly number[])[], path: JsonPath = []): Cnf {
  if (!Number.isSafeInteger(variables) || variables < 0) {
    throw satFormatError('CNF', path, null, 'HEADER_MALFORMED', `the number of variables must be an integer ≥ 0, got ${String(variables)}`);
  }
  const offsets = new Int32Array(clauses.length + 1);
  let total = 0;
  for (const [i, clause] of clauses.entries()) {
    total += clause.length;
    offsets[i + 1] = total;
  }
  const literals = new Int32Array(total);
  let at = 0;
  for (const [i, clause] of clauses.entries()) {
    for (const [j, literal] of clause.entries()) {
      if (!Number.isSafeInteger(literal) || literal === 0 || Math.abs(literal) > variables) {
        throw satFormatError('CNF', [...path, i, j], null, 'LITERAL_OUT_OF_RANGE', `literal ${String(literal)} of clause ${i} is not a non-zero integer naming a variable in 1 … ${variables}`);
      }
      literals[at++] = literal;
    }
  }
  return { variables, clauseCount: clauses.length, literals, offsets };
}

/**
 * The error of a SAT text format: `INVALID_REQUEST` (or the given code) with `data.rule`, and
 * `data.line` when the text has lines.
 */
export function satFormatError(format: string, path: JsonPath, line: number | null, rule: string, detail: string): JacobianError {
  const where = path.length === 0 ? '' : `${path.map(String).join('.')}: `;
  const at = line === null ? '' : ` at line ${line}`;
  return new JacobianError('INVALID_REQUEST', `${where}${format}${at}: ${detail} (${rule})`, { path, data: { format, rule, ...(line === null ? {} : { line }) } });
}

/** A growable Int32Array: the parsers and checkers append millions of integers without boxing. */
export class IntVector {
  data: Int32Array;
  length = 0;
  constructor(capacity = 16) {
    this.data = new Int32Array(Math.max(4, capacity));
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  /** A copy holding exactly the pushed values. */
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

const CHAR_0 = 48;
const CHAR_9 = 57;
const CHAR_MINUS = 45;
const CHAR_NEWLINE = 10;

/** Whether a character code is DIMACS whitespace (space, tab, CR, vertical tab, form feed). */
function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 13 || code === 11 || code === 12;
}

/**
 * A cursor over text made of integer tokens: tracks the line, skips blanks, reads one signed
 * integer. Shared by the DIMACS, DRAT and LRAT parsers.
 */
export class IntegerTokenizer {
  position = 0;
  line = 1;
  readonly length: number;
  constructor(
    readonly text: string,
    readonly format: string,
    readonly path: JsonPath,
  ) {
    this.length = text.length;
  }

  /** Skip blanks on the current line; true when at the end of a line or the text. */
  skipBlanks(): void {
    const { text } = this;
    while (this.position < this.length && isBlank(text.charCodeAt(this.position))) this.position++;
  }

  /** The character code at the cursor, or -1 at the end. */
  peek(): number {
    return this.position < this.length ? this.text.charCodeAt(this.position) : -1;
  }

  /** Move past the newline at the cursor. */
  newline(): void {
    this.position++;
    this.line++;
  }

  /** Skip to the end of the current line (not past the newline). */
  skipLine(): void {
    const next = this.text.indexOf('\n', this.position);
    this.position = next < 0 ? this.length : next;
  }

  /** The rest of the current line (for error messages), at most 40 characters. */
  excerpt(): string {
    const end = this.text.indexOf('\n', this.position);
    return this.text.slice(this.position, Math.min(end < 0 ? this.length : end, this.position + 40));
  }

  /**
   * Read a signed decimal integer at the cursor (no blanks before it). Throws TOKEN_MALFORMED
   * naming the token when what is there is not one, or does not end at a blank or line end.
   */
  readInteger(limit: number): number {
    const { text } = this;
    const start = this.position;
    let negative = false;
    let code = text.charCodeAt(this.position);
    if (code === CHAR_MINUS) {
      negative = true;
      this.position++;
      code = this.position < this.length ? text.charCodeAt(this.position) : -1;
    }
    if (code < CHAR_0 || code > CHAR_9) throw this.malformed(start);
    let value = 0;
    while (this.position < this.length) {
      code = text.charCodeAt(this.position);
      if (code < CHAR_0 || code > CHAR_9) break;
      value = value * 10 + (code - CHAR_0);
      if (value > limit) {
        throw satFormatError(this.format, this.path, this.line, 'LIMIT_EXCEEDED', `the number starting "${text.slice(start, start + 24)}" exceeds ${limit}`);
      }
      this.position++;
    }
    if (this.position < this.length) {
      code = text.charCodeAt(this.position);
      if (!isBlank(code) && code !== CHAR_NEWLINE) throw this.malformed(start);
    }
    return negative ? -value : value;
  }

  malformed(start: number): JacobianError {
    const end = this.text.slice(start).search(/\s/);
    const token = this.text.slice(start, end < 0 ? this.length : start + Math.min(end, 24));
    return satFormatError(this.format, this.path, this.line, 'TOKEN_MALFORMED', `"${token}" is not an integer`);
  }
}

const HEADER = /^p\s+cnf\s+(\d+)\s+(\d+)\s*$/;

/**
 * Parse DIMACS CNF text.
 *
 * @param path where the text sits in the request, for error paths (e.g. `['payload', 'dimacs']`).
 * @throws JacobianError INVALID_REQUEST naming the line and the {@link DimacsRule} broken.
 * @example parseDimacs('p cnf 2 2\n1 -2 0\n2 0\n').clauseCount === 2
 */
export function parseDimacs(text: string, path: JsonPath = [], limits: SatSizeLimits = SAT_LIMITS): Cnf {
  const format = 'DIMACS CNF';
  const cursor = new IntegerTokenizer(text, format, path);
  let variables = -1;
  let declared = 0;
  const literals = new IntVector(Math.min(1 << 20, Math.max(16, text.length >> 1)));
  const offsets = new IntVector(1024);
  offsets.push(0);
  let clauseStartLine = 0;
  let inClause = false;
  while (cursor.position < cursor.length) {
    cursor.skipBlanks();
    const code = cursor.peek();
    if (code === -1) break;
    if (code === CHAR_NEWLINE) {
      cursor.newline();
      continue;
    }
    if (code === 99 /* c */ && !inClause) {
      cursor.skipLine();
      continue;
    }
    if (code === 37 /* % */ && !inClause) break;
    if (code === 112 /* p */) {
      if (variables >= 0) throw satFormatError(format, path, cursor.line, 'HEADER_DUPLICATE', 'a second header line');
      if (inClause) throw satFormatError(format, path, cursor.line, 'HEADER_MALFORMED', 'the header appears inside a clause');
      const lineText = cursor.excerpt();
      const start = cursor.position;
      cursor.skipLine();
      const match = HEADER.exec(text.slice(start, cursor.position));
      if (match === null) throw satFormatError(format, path, cursor.line, 'HEADER_MALFORMED', `"${lineText}" is not "p cnf <variables> <clauses>"`);
      variables = Number(match[1]);
      declared = Number(match[2]);
      if (variables > limits.maxVariables) throw satFormatError(format, path, cursor.line, 'LIMIT_EXCEEDED', `${variables} variables exceed the limit of ${limits.maxVariables}`);
      if (declared > limits.maxClauses) throw satFormatError(format, path, cursor.line, 'LIMIT_EXCEEDED', `${declared} clauses exceed the limit of ${limits.maxClauses}`);
      continue;
    }
    if (variables < 0) {
      throw satFormatError(format, path, cursor.line, 'HEADER_MISSING', `"${cursor.excerpt()}" comes before the header "p cnf <variables> <clauses>"`);
    }
    const literal = cursor.readInteger(limits.maxVariables + 1);
    if (literal === 0) {
      if (offsets.length > declared) {
        throw satFormatError(format, path, clauseStartLine || cursor.line, 'CLAUSE_COUNT_MISMATCH', `more clauses than the ${declared} the header declares`);
      }
      offsets.push(literals.length);
      inClause = false;
      continue;
    }
    if (Math.abs(literal) > variables) {
      throw satFormatError(format, path, cursor.line, 'LITERAL_OUT_OF_RANGE', `literal ${literal} names variable ${Math.abs(literal)}, outside 1 … ${variables} of the header`);
    }
    if (!inClause) {
      inClause = true;
      clauseStartLine = cursor.line;
    }
    if (literals.length >= limits.maxLiterals) throw satFormatError(format, path, cursor.line, 'LIMIT_EXCEEDED', `more than ${limits.maxLiterals} literals in all`);
    literals.push(literal);
  }
  if (variables < 0) throw satFormatError(format, path, null, 'HEADER_MISSING', 'no header "p cnf <variables> <clauses>"');
  if (inClause) throw satFormatError(format, path, clauseStartLine, 'CLAUSE_UNTERMINATED', 'the last clause is not ended by 0');
  const clauseCount = offsets.length - 1;
  if (clauseCount !== declared) {
    throw satFormatError(format, path, null, 'CLAUSE_COUNT_MISMATCH', `the header declares ${declared} clauses but the text has ${clauseCount}`);
  }
  return { variables, clauseCount, literals: literals.toArray(), offsets: offsets.toArray() };
}

/**
 * Write a CNF as DIMACS text: optional comment lines, the header, one clause per line. Equal
 * formulas give byte-equal text.
 */
export function serializeDimacs(cnf: Cnf, comments: readonly string[] = []): string {
  const parts: string[] = [];
  for (const comment of comments) for (const line of comment.split('\n')) parts.push(`c ${line}`.trimEnd());
  parts.push(`p cnf ${cnf.variables} ${cnf.clauseCount}`);
  for (let i = 0; i < cnf.clauseCount; i++) {
    const start = cnf.offsets[i] as number;
    const end = cnf.offsets[i + 1] as number;
    let line = '';
    for (let k = start; k < end; k++) line += `${cnf.literals[k] as number} `;
    parts.push(`${line}0`);
  }
  return `${parts.join('\n')}\n`;
}
