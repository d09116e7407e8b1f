/**
 * LRAT proofs (text): clausal proofs whose every lemma carries its own justification.
 *
 * An addition step is `id l1 … lk 0 h1 … hm 0`: the lemma gets the clause ID `id` (larger than
 * every ID before it; the formula's clauses are 1 … m in file order), and the hints say which
 * clauses become unit, in order, under the negation of the lemma until one is falsified. A
 * negative hint −j starts the RAT part: for the clause j containing the negated pivot (the
 * lemma's first literal), the hints after it refute the resolvent. A deletion step is
 * `id d j1 … jn 0`. Lines starting with `c` are comments.
 */
import type { JsonPath } from '../../errors.js';
import { IntegerTokenizer, satFormatError } from './dimacs.js';

/** Which rule of the LRAT format a proof broke; carried in `data.rule`. */
export const LratRule = {
  TOKEN_MALFORMED: 'TOKEN_MALFORMED',
  STEP_UNTERMINATED: 'STEP_UNTERMINATED',
  ID_INVALID: 'ID_INVALID',
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
} as const;
export type LratRule = (typeof LratRule)[keyof typeof LratRule];

/** One LRAT step. */
export type LratStep =
  | { readonly kind: 'add'; readonly id: number; readonly literals: Int32Array; readonly hints: Int32Array; readonly line: number }
  | { readonly kind: 'delete'; readonly id: number; readonly ids: Int32Array; readonly line: number };

/** A parsed LRAT proof. */
export interface LratProof {
  readonly steps: readonly LratStep[];
  readonly maxVariable: number;
}

/** Bounds of the LRAT parser. */
export interface LratLimits {
  maxVariables: number;
  maxSteps: number;
  /** Largest clause ID. */
  maxId: number;
}

export const LRAT_LIMITS: Readonly<LratLimits> = Object.freeze({ maxVariables: 4_000_000, maxSteps: 20_000_000, maxId: 2 ** 31 - 1 });

/**
 * Parse a text LRAT proof. The order of IDs and whether hints name existing clauses are the
 * checker's business; this checks only the syntax.
 *
 * @throws JacobianError INVALID_REQUEST naming the line and the {@link LratRule} broken.
 */
export function parseLrat(text: string, path: JsonPath = [], limits: LratLimits = LRAT_LIMITS): LratProof {
  const format = 'LRAT proof';
  const cursor = new IntegerTokenizer(text, format, path);
  const steps: LratStep[] = [];
  let maxVariable = 0;
  const numbers: number[] = [];
  const nextToken = (): 'newline' | 'end' | 'number' | 'd' | 'c' => {
    for (;;) {
      cursor.skipBlanks();
      const code = cursor.peek();
      if (code === -1) return 'end';
      if (code === 10) return 'newline';
      if (code === 100) return 'd';
      if (code === 99) return 'c';
      return 'number';
    }
  };
  while (cursor.position < cursor.length) {
    const token = nextToken();
    if (token === 'end') break;
    if (token === 'newline') {
      cursor.newline();
      continue;
    }
    if (token === 'c') {
      cursor.skipLine();
      continue;
    }
    if (token === 'd') throw satFormatError(format, path, cursor.line, 'TOKEN_MALFORMED', 'a step starts with "d" instead of its clause ID');
    const line = cursor.line;
    const id = cursor.readInteger(limits.maxId);
    if (id <= 0) throw satFormatError(format, path, line, 'ID_INVALID', `step ID ${id} is not positive`);
    if (steps.length >= limits.maxSteps) throw satFormatError(format, path, line, 'LIMIT_EXCEEDED', `more than ${limits.maxSteps} steps`);
    // Read integers up to the next 0, across line ends.
    const readList = (what: string, limit: number): Int32Array => {
      numbers.length = 0;
      for (;;) {
        const next = nextToken();
        if (next === 'end') throw satFormatError(format, path, line, 'STEP_UNTERMINATED', `the ${what} of step ${id} is not ended by 0`);
        if (next === 'newline') {
          cursor.newline();
          continue;
        }
        if (next !== 'number') throw satFormatError(format, path, cursor.line, 'TOKEN_MALFORMED', `"${cursor.excerpt()}" inside the ${what} of step ${id}`);
        const value = cursor.readInteger(limit);
        if (value === 0) return Int32Array.from(numbers);
        numbers.push(value);
      }
    };
    if (nextToken() === 'd') {
      cursor.position++;
      const ids = readList('deleted IDs', limits.maxId);
      for (const deleted of ids) if (deleted <= 0) throw satFormatError(format, path, line, 'ID_INVALID', `deleted ID ${deleted} is not positive`);
      steps.push({ kind: 'delete', id, ids, line });
      continue;
    }
    const literals = readList('clause', limits.maxVariables);
    for (const literal of literals) maxVariable = Math.max(maxVariable, Math.abs(literal));
    const hints = readList('hints', limits.maxId);
    steps.push({ kind: 'add', id, literals, hints, line });
  }
  return { steps, maxVariable };
}

/** Write LRAT steps as text, one step per line. */
export function serializeLrat(steps: readonly LratStep[]): string {
  const parts: string[] = [];
  for (const step of steps) {
    if (step.kind === 'delete') parts.push(`${step.id} d ${step.ids.join(' ')}${step.ids.length > 0 ? ' ' : ''}0\n`);
    else parts.push(`${step.id} ${step.literals.join(' ')}${step.literals.length > 0 ? ' ' : ''}0 ${step.hints.join(' ')}${step.hints.length > 0 ? ' ' : ''}0\n`);
  }
  return parts.join('');
}
