/**
 * Finite algebras given by operation tables, their validation against a signature, and exact
 * evaluation of terms and laws. Elements are the integers 0 … n−1.
 */
import { z } from 'zod';
import { JacobianError, type JsonPath } from '../../errors.js';
import { UNIVERSAL_ALGEBRA_LIMITS } from './limits.js';
import type { Signature } from './signature.js';
import type { Law, Term } from './syntax.js';

const Element = z.number().int().min(0);

/**
 * The table of one operation: an element for a constant, an array `t[a]` for a unary
 * operation, an n×n array `t[a][b]` (row = left argument) for a binary one.
 */
export const OperationTableSchema = z.union([Element, z.array(Element), z.array(z.array(Element))]);
export type OperationTable = z.infer<typeof OperationTableSchema>;

/** A finite algebra as a request gives it: the order n and one table per operation of the signature. */
export const FiniteAlgebraSchema = z
  .object({
    order: z.number().int().min(1).max(UNIVERSAL_ALGEBRA_LIMITS.maxAlgebraOrder).describe('n: the elements are 0 … n−1'),
    tables: z
      .record(z.string(), OperationTableSchema)
      .describe('one table per operation of the signature, by name: constant → element, unary → [f(0), …], binary → rows [[0∘0, 0∘1, …], …]'),
  })
  .strict();
export type FiniteAlgebraInput = z.infer<typeof FiniteAlgebraSchema>;

/** A validated finite algebra: tables as flat arrays, exactly the signature's operations. */
export interface FiniteAlgebra {
  readonly order: number;
  /** Per operation: arity and values; a binary table is flattened row-major (`a·n + b`). */
  readonly operations: ReadonlyMap<string, { readonly arity: 0 | 1 | 2; readonly values: readonly number[] }>;
}

function elementError(path: JsonPath, value: unknown, order: number): JacobianError {
  return new JacobianError('INVALID_REQUEST', `${path.join('.')}: ${JSON.stringify(value)} is not an element of an algebra of order ${order} (an integer 0 … ${order - 1})`, { path });
}

function readElement(value: unknown, order: number, path: JsonPath): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= order) throw elementError(path, value, order);
  return value;
}

function readRow(value: unknown, order: number, path: JsonPath, what: string): number[] {
  if (!Array.isArray(value) || value.length !== order) {
    throw new JacobianError('INVALID_REQUEST', `${path.join('.')}: ${what} must be an array of ${order} elements`, { path });
  }
  return value.map((entry, index) => readElement(entry, order, [...path, index]));
}

/**
 * Check tables against a signature and return the algebra in evaluation form.
 *
 * @param path where the algebra sits in the request (e.g. `['payload', 'algebra']`).
 * @throws JacobianError INVALID_REQUEST naming the table entry at fault: a missing or
 *   undeclared operation, a table of the wrong shape, or an entry outside 0 … n−1.
 * @example
 * validateAlgebra(signature, { order: 2, tables: { '*': [[0, 1], [1, 0]], e: 0 } });
 */
export function validateAlgebra(signature: Signature, input: unknown, path: JsonPath = ['algebra']): FiniteAlgebra {
  const parsed = FiniteAlgebraSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at: JsonPath = [...path, ...(issue?.path ?? []).map((p) => (typeof p === 'symbol' ? String(p) : p))];
    throw new JacobianError('INVALID_REQUEST', `${at.join('.')}: ${issue?.message ?? 'invalid algebra'}`, { path: at });
  }
  const { order, tables } = parsed.data;
  for (const name of Object.keys(tables)) {
    if (!signature.operationByName.has(name)) {
      throw new JacobianError('INVALID_REQUEST', `${[...path, 'tables', name].join('.')}: "${name}" is not an operation of the signature`, { path: [...path, 'tables', name] });
    }
  }
  const operations = new Map<string, { arity: 0 | 1 | 2; values: number[] }>();
  for (const operation of signature.operations) {
    const at: JsonPath = [...path, 'tables', operation.name];
    if (!Object.hasOwn(tables, operation.name)) {
      throw new JacobianError('INVALID_REQUEST', `${at.join('.')}: the table of "${operation.name}" (arity ${operation.arity}) is missing`, { path: at });
    }
    const table: unknown = tables[operation.name];
    let values: number[];
    if (operation.arity === 0) {
      values = [readElement(table, order, at)];
    } else if (operation.arity === 1) {
      values = readRow(table, order, at, `the table of the unary operation "${operation.name}"`);
    } else {
      if (!Array.isArray(table) || table.length !== order) {
        throw new JacobianError('INVALID_REQUEST', `${at.join('.')}: the table of the binary operation "${operation.name}" must have ${order} rows`, { path: at });
      }
      values = table.flatMap((row: unknown, a) => readRow(row, order, [...at, a], `row ${a} of "${operation.name}"`));
    }
    operations.set(operation.name, { arity: operation.arity, values });
  }
  return { order, operations };
}

/** The tables of an algebra in request form (constant → element, unary → array, binary → rows). */
export function algebraTables(algebra: FiniteAlgebra): Record<string, OperationTable> {
  const n = algebra.order;
  const entries: [string, OperationTable][] = [...algebra.operations].map(([name, { arity, values }]) => {
    if (arity === 0) return [name, values[0] as number];
    if (arity === 1) return [name, [...values]];
    return [name, Array.from({ length: n }, (_, a) => values.slice(a * n, a * n + n))];
  });
  // fromEntries defines own properties, so no operation name can reach the prototype.
  return Object.fromEntries(entries);
}

function operationOf(algebra: FiniteAlgebra, name: string): { readonly arity: 0 | 1 | 2; readonly values: readonly number[] } {
  const operation = algebra.operations.get(name);
  if (operation === undefined) throw new JacobianError('INVALID_REQUEST', `the algebra has no table for the operation "${name}"`);
  return operation;
}

/**
 * The value of a term in an algebra under an assignment of its variables.
 *
 * @throws JacobianError INVALID_REQUEST if a variable is unassigned or assigned a non-element,
 *   or an operation has no table.
 */
export function evaluateTerm(algebra: FiniteAlgebra, term: Term, assignment: Readonly<Record<string, number>>): number {
  if (term.kind === 'variable') {
    const value = Object.hasOwn(assignment, term.name) ? assignment[term.name] : undefined;
    if (value === undefined || !Number.isInteger(value) || value < 0 || value >= algebra.order) {
      throw new JacobianError('INVALID_REQUEST', `the variable "${term.name}" is not assigned an element of 0 … ${algebra.order - 1}`);
    }
    return value;
  }
  const { values } = operationOf(algebra, term.operation);
  const args = term.args.map((arg) => evaluateTerm(algebra, arg, assignment));
  const [a, b] = args;
  const index = a === undefined ? 0 : b === undefined ? a : a * algebra.order + b;
  return values[index] as number;
}

/** A law compiled to postfix code over integer variable slots, so exhaustive checks avoid recursion and lookups. */
interface CompiledSide {
  /** Instruction stream: [opcode, operand] pairs. */
  readonly code: Int32Array;
  /** Tables referenced by index from the code. */
  readonly tables: readonly (readonly number[])[];
}

const PUSH_VARIABLE = 0;
const CONSTANT = 1;
const UNARY = 2;
const BINARY = 3;

function compile(algebra: FiniteAlgebra, term: Term, slots: ReadonlyMap<string, number>): CompiledSide {
  const code: number[] = [];
  const tables: (readonly number[])[] = [];
  const tableIndex = new Map<string, number>();
  const emit = (t: Term): void => {
    if (t.kind === 'variable') {
      code.push(PUSH_VARIABLE, slots.get(t.name) as number);
      return;
    }
    for (const arg of t.args) emit(arg);
    let index = tableIndex.get(t.operation);
    if (index === undefined) {
      index = tables.length;
      tables.push(operationOf(algebra, t.operation).values);
      tableIndex.set(t.operation, index);
    }
    code.push(t.args.length === 0 ? CONSTANT : t.args.length === 1 ? UNARY : BINARY, index);
  };
  emit(term);
  return { code: Int32Array.from(code), tables };
}

function run(side: CompiledSide, values: Int32Array, order: number, stack: Int32Array): number {
  let top = 0;
  const { code, tables } = side;
  for (let pc = 0; pc < code.length; pc += 2) {
    const operand = code[pc + 1] as number;
    const opcode = code[pc] as number;
    if (opcode === PUSH_VARIABLE) {
      stack[top++] = values[operand] as number;
    } else if (opcode === CONSTANT) {
      stack[top++] = (tables[operand] as readonly number[])[0] as number;
    } else if (opcode === UNARY) {
      stack[top - 1] = (tables[operand] as readonly number[])[stack[top - 1] as number] as number;
    } else {
      const b = stack[--top] as number;
      const a = stack[top - 1] as number;
      stack[top - 1] = (tables[operand] as readonly number[])[a * order + b] as number;
    }
  }
  return stack[0] as number;
}

/** The outcome of checking one law in one finite algebra. */
export interface LawEvaluation {
  /** True when both sides agree under every assignment of the law's variables. */
  readonly holds: boolean;
  /** How many assignments were evaluated (all n^k when the law holds). */
  readonly assignmentsChecked: number;
  /** The first violating assignment in lexicographic order (first variable most significant), with both sides' values. */
  readonly violation: { readonly assignment: Record<string, number>; readonly left: number; readonly right: number } | null;
}

/** Options of {@link evaluateLaws}. */
export interface EvaluateLawsOptions {
  /**
   * Called every few thousand assignments; may throw to stop (a kernel throws its timeout
   * here, since a synchronous loop cannot otherwise see its deadline).
   */
  checkpoint?: () => void;
}

const CHECKPOINT_INTERVAL = 4096;

/**
 * How many assignments checking `laws` in an algebra of order `order` visits, per law.
 *
 * @param path where the laws sit in the request, for the error.
 * @throws JacobianError INVALID_REQUEST if one law needs more than
 *   {@link UNIVERSAL_ALGEBRA_LIMITS}.maxAssignmentsPerLaw assignments or all together more
 *   than maxAssignmentsTotal.
 */
export function assignmentCounts(order: number, laws: readonly Law[], path: JsonPath = ['laws']): number[] {
  const counts = laws.map((law, index) => {
    const count = order ** law.variables.length;
    if (count > UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsPerLaw) {
      throw new JacobianError(
        'INVALID_REQUEST',
        `${[...path, index].join('.')}: checking a law with ${law.variables.length} variables in an algebra of order ${order} visits ${order}^${law.variables.length} = ${count} assignments, more than the limit of ${UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsPerLaw}`,
        { path: [...path, index], hint: 'use fewer variables per law or a smaller algebra' },
      );
    }
    return count;
  });
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total > UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsTotal) {
    throw new JacobianError('INVALID_REQUEST', `${path.join('.')}: the laws need ${total} assignments together, more than the limit of ${UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsTotal}`, {
      path,
      hint: 'split the laws over several requests',
    });
  }
  return counts;
}

/**
 * For each law, whether it holds in the algebra under every assignment of its variables
 * (exhaustive over all n^k assignments), with the first violating assignment in lexicographic
 * order when it does not.
 *
 * @throws JacobianError INVALID_REQUEST when the assignment bounds of {@link assignmentCounts}
 *   are exceeded or an operation has no table; whatever `options.checkpoint` throws.
 * @example
 * evaluateLaws(z3, [parseLaw('x + y = y + x', signature)]); // [{ holds: true, assignmentsChecked: 9, violation: null }]
 */
export function evaluateLaws(algebra: FiniteAlgebra, laws: readonly Law[], options: EvaluateLawsOptions = {}): LawEvaluation[] {
  assignmentCounts(algebra.order, laws);
  const n = algebra.order;
  let sinceCheckpoint = 0;
  return laws.map((law): LawEvaluation => {
    const k = law.variables.length;
    const slots = new Map(law.variables.map((name, index) => [name, index]));
    const left = compile(algebra, law.left, slots);
    const right = compile(algebra, law.right, slots);
    const stack = new Int32Array(Math.max(left.code.length, right.code.length) / 2 + 1);
    const values = new Int32Array(k);
    let checked = 0;
    for (;;) {
      checked++;
      const l = run(left, values, n, stack);
      const r = run(right, values, n, stack);
      if (l !== r) {
        return {
          holds: false,
          assignmentsChecked: checked,
          violation: { assignment: Object.fromEntries(law.variables.map((name, index) => [name, values[index] as number])), left: l, right: r },
        };
      }
      if (++sinceCheckpoint >= CHECKPOINT_INTERVAL) {
        sinceCheckpoint = 0;
        options.checkpoint?.();
      }
      // Next assignment in lexicographic order: the last variable varies fastest.
      let position = k - 1;
      while (position >= 0 && (values[position] as number) === n - 1) values[position--] = 0;
      if (position < 0) return { holds: true, assignmentsChecked: checked, violation: null };
      values[position] = (values[position] as number) + 1;
    }
  });
}
