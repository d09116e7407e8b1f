/**
 * DRAT proofs, text and binary, parsed into one flat form.
 *
 * Text DRAT: one step per line (a step may also span lines), each a clause of non-zero
 * integers ended by `0`; a step starting with `d` deletes the clause; lines starting with `c`
 * are comments. Binary DRAT (drat-trim's format, CaDiCaL's default): a byte `a` (0x61) or `d`
 * (0x64), then each literal l as the variable-length unsigned integer 2·|l| + (l < 0), seven
 * bits a byte, least significant first, high bit set on all but the last byte; a zero byte ends
 * the clause.
 *
 * Lemmas may name variables beyond the formula's (extended resolution introduces new ones), up
 * to the limit given.
 */
import type { JsonPath } from '../../errors.js';
import { IntegerTokenizer, IntVector, SAT_LIMITS, satFormatError, type SatSizeLimits } from './dimacs.js';

/** Which rule of the DRAT format a proof broke; carried in `data.rule`. */
export const DratRule = {
  TOKEN_MALFORMED: 'TOKEN_MALFORMED',
  STEP_UNTERMINATED: 'STEP_UNTERMINATED',
  DELETION_MISPLACED: 'DELETION_MISPLACED',
  BINARY_MALFORMED: 'BINARY_MALFORMED',
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
} as const;
export type DratRule = (typeof DratRule)[keyof typeof DratRule];

/** A step adds a lemma or deletes a clause. */
export const DratStepKind = { ADD: 0, DELETE: 1 } as const;

/**
 * A DRAT proof, steps stored flat: step i is `kinds[i]` (0 add, 1 delete) of the clause
 * `literals[offsets[i] … offsets[i+1])`, written at `lines[i]` (1-based line of its first
 * literal in text, byte offset of its marker in binary).
 */
export interface DratProof {
  readonly format: 'DRAT_TEXT' | 'DRAT_BINARY';
  readonly stepCount: number;
  readonly kinds: Uint8Array;
  readonly offsets: Int32Array;
  readonly literals: Int32Array;
  readonly lines: Int32Array;
  /** Largest variable any step names. */
  readonly maxVariable: number;
}

/** The clause of step i as an array of DIMACS literals. */
export function dratStepClause(proof: DratProof, step: number): number[] {
  return Array.from(proof.literals.subarray(proof.offsets[step] as number, proof.offsets[step + 1] as number));
}

/** Proof limits: lemmas and deletions count as steps (maxClauses), literals over all steps. */
export const DRAT_LIMITS: Readonly<SatSizeLimits> = Object.freeze({ maxVariables: SAT_LIMITS.maxVariables, maxClauses: 20_000_000, maxLiterals: 100_000_000 });

class DratBuilder {
  readonly kinds = new IntVector(1024);
  readonly offsets = new IntVector(1024);
  readonly literals = new IntVector(4096);
  readonly lines = new IntVector(1024);
  maxVariable = 0;
  constructor() {
    this.offsets.push(0);
  }
  finish(format: DratProof['format']): DratProof {
    const kinds = new Uint8Array(this.kinds.length);
    for (let i = 0; i < this.kinds.length; i++) kinds[i] = this.kinds.data[i] as number;
    return {
      format,
      stepCount: this.kinds.length,
      kinds,
      offsets: this.offsets.toArray(),
      literals: this.literals.toArray(),
      lines: this.lines.toArray(),
      maxVariable: this.maxVariable,
    };
  }
}

/**
 * Parse a text DRAT proof.
 *
 * @throws JacobianError INVALID_REQUEST naming the line and the {@link DratRule} broken.
 */
export function parseDratText(text: string, path: JsonPath = [], limits: SatSizeLimits = DRAT_LIMITS): DratProof {
  const format = 'DRAT proof';
  const cursor = new IntegerTokenizer(text, format, path);
  const out = new DratBuilder();
  let inStep = false;
  let deleting = false;
  let stepLine = 0;
  while (cursor.position < cursor.length) {
    cursor.skipBlanks();
    const code = cursor.peek();
    if (code === -1) break;
    if (code === 10) {
      cursor.newline();
      continue;
    }
    if (!inStep && code === 99 /* c */) {
      cursor.skipLine();
      continue;
    }
    if (code === 100 /* d */) {
      if (inStep) throw satFormatError(format, path, cursor.line, 'DELETION_MISPLACED', '"d" inside a clause: a deletion must start its step');
      const next = cursor.position + 1 < cursor.length ? text.charCodeAt(cursor.position + 1) : 10;
      if (next !== 32 && next !== 9 && next !== 10 && next !== 13) throw cursor.malformed(cursor.position);
      cursor.position++;
      inStep = true;
      deleting = true;
      stepLine = cursor.line;
      continue;
    }
    if (!inStep) {
      inStep = true;
      deleting = false;
      stepLine = cursor.line;
    }
    const literal = cursor.readInteger(limits.maxVariables);
    if (literal === 0) {
      if (out.kinds.length >= limits.maxClauses) throw satFormatError(format, path, cursor.line, 'LIMIT_EXCEEDED', `more than ${limits.maxClauses} steps`);
      out.kinds.push(deleting ? 1 : 0);
      out.offsets.push(out.literals.length);
      out.lines.push(stepLine);
      inStep = false;
      continue;
    }
    if (out.literals.length >= limits.maxLiterals) throw satFormatError(format, path, cursor.line, 'LIMIT_EXCEEDED', `more than ${limits.maxLiterals} literals in all`);
    const variable = literal < 0 ? -literal : literal;
    if (variable > out.maxVariable) out.maxVariable = variable;
    out.literals.push(literal);
  }
  if (inStep) throw satFormatError(format, path, stepLine, 'STEP_UNTERMINATED', 'the last step is not ended by 0');
  return out.finish('DRAT_TEXT');
}

/**
 * Parse a binary DRAT proof.
 *
 * @throws JacobianError INVALID_REQUEST naming the byte offset and the {@link DratRule} broken.
 */
export function parseDratBinary(bytes: Uint8Array, path: JsonPath = [], limits: SatSizeLimits = DRAT_LIMITS): DratProof {
  const format = 'binary DRAT proof';
  const fail = (offset: number, rule: DratRule, detail: string): Error => satFormatError(format, path, null, rule, `byte ${offset}: ${detail}`);
  const out = new DratBuilder();
  const limit = 2 * limits.maxVariables + 1;
  let position = 0;
  while (position < bytes.length) {
    const marker = bytes[position] as number;
    if (marker !== 0x61 && marker !== 0x64) throw fail(position, 'BINARY_MALFORMED', `expected a step marker "a" or "d", found byte 0x${marker.toString(16)}`);
    const stepOffset = position++;
    for (;;) {
      let value = 0;
      let shift = 0;
      let byte: number;
      do {
        if (position >= bytes.length) throw fail(stepOffset, 'STEP_UNTERMINATED', 'the step is not ended by a zero byte');
        byte = bytes[position++] as number;
        value += (byte & 0x7f) * 2 ** shift;
        shift += 7;
        if (value > limit) throw fail(position - 1, 'LIMIT_EXCEEDED', `a literal exceeds the variable limit of ${limits.maxVariables}`);
      } while ((byte & 0x80) !== 0);
      if (value === 0) break;
      if (value === 1) throw fail(position - 1, 'BINARY_MALFORMED', 'the encoded literal 1 names variable 0');
      const variable = value >>> 1;
      if (variable > out.maxVariable) out.maxVariable = variable;
      if (out.literals.length >= limits.maxLiterals) throw fail(position, 'LIMIT_EXCEEDED', `more than ${limits.maxLiterals} literals in all`);
      out.literals.push((value & 1) === 1 ? -variable : variable);
    }
    if (out.kinds.length >= limits.maxClauses) throw fail(stepOffset, 'LIMIT_EXCEEDED', `more than ${limits.maxClauses} steps`);
    out.kinds.push(marker === 0x64 ? 1 : 0);
    out.offsets.push(out.literals.length);
    out.lines.push(stepOffset);
  }
  return out.finish('DRAT_BINARY');
}

/**
 * Whether proof bytes are binary DRAT: drat-trim's test, a byte in the first kilobyte that no
 * text proof contains (text holds only digits, `-`, `d`, `c` comments and blanks; a comment's
 * printable characters are allowed too).
 */
export function looksLikeBinaryDrat(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 1024);
  for (let i = 0; i < end; i++) {
    const byte = bytes[i] as number;
    if (byte !== 10 && byte !== 13 && byte !== 9 && (byte < 32 || byte > 126)) return true;
  }
  return false;
}

/** Parse DRAT bytes in whichever form they are (see {@link looksLikeBinaryDrat}). */
export function parseDrat(bytes: Uint8Array, path: JsonPath = [], limits: SatSizeLimits = DRAT_LIMITS): DratProof {
  return looksLikeBinaryDrat(bytes) ? parseDratBinary(bytes, path, limits) : parseDratText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'), path, limits);
}

/** Write a proof as text DRAT, one step per line. */
export function serializeDratText(proof: DratProof): string {
  const parts: string[] = [];
  for (let i = 0; i < proof.stepCount; i++) {
    let line = proof.kinds[i] === 1 ? 'd ' : '';
    for (let k = proof.offsets[i] as number; k < (proof.offsets[i + 1] as number); k++) line += `${proof.literals[k] as number} `;
    parts.push(`${line}0\n`);
  }
  return parts.join('');
}

/** Build a proof from steps (for tests and generated proofs). */
export function dratFromSteps(steps: readonly { delete?: boolean; clause: readonly number[] }[]): DratProof {
  const out = new DratBuilder();
  for (const [i, step] of steps.entries()) {
    for (const literal of step.clause) {
      const variable = Math.abs(literal);
      if (variable > out.maxVariable) out.maxVariable = variable;
      out.literals.push(literal);
    }
    out.kinds.push(step.delete === true ? 1 : 0);
    out.offsets.push(out.literals.length);
    out.lines.push(i + 1);
  }
  return out.finish('DRAT_TEXT');
}
