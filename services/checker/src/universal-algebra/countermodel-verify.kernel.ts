/**
 * The check behind universal_algebra.countermodel.verify, run isolated so that a timeout or a
 * cancel kills it: does a stated finite algebra satisfy every source law and violate the target
 * law at the stated assignment?
 *
 * It shares only the grammar (signature.ts, syntax.ts) with the producer. The tables are read
 * here as total functions on 0 … n−1, and terms are evaluated by the plain recursive evaluator
 * below: neither the producer's CNF encoding, nor its solver, nor the shared compiled evaluator
 * the producer rechecks with is involved. The exhaustive loop polls the deadline itself.
 */
import {
  CountermodelClaimSchema,
  JacobianError,
  parseLaw,
  parseLaws,
  resolveSignature,
  type CountermodelClaim,
  type JsonPath,
  type KernelContext,
  type Law,
  type Signature,
  type Term,
} from '@jacobian/shared';

/** Why a countermodel claim is false. */
export const CountermodelRejectionReason = {
  /** A table is missing, of the wrong shape, names no operation, or holds a non-element. */
  TABLE_INVALID: 'TABLE_INVALID',
  /** The assignment does not give every variable of the target (and only those) an element. */
  ASSIGNMENT_INVALID: 'ASSIGNMENT_INVALID',
  /** The target's two sides agree at the stated assignment. */
  TARGET_NOT_VIOLATED: 'TARGET_NOT_VIOLATED',
  /** The target fails there, but its sides take other values than the claim states. */
  TARGET_VALUES_MISMATCH: 'TARGET_VALUES_MISMATCH',
  /** A source law fails under some assignment. */
  SOURCE_LAW_VIOLATED: 'SOURCE_LAW_VIOLATED',
} as const;
export type CountermodelRejectionReason = (typeof CountermodelRejectionReason)[keyof typeof CountermodelRejectionReason];

/** Where and how a claim fails: the law and assignment when a law is at fault. */
export interface CountermodelFailure {
  /** The failing law as the claim gives it; null for a table or assignment fault. */
  law: string | null;
  /** Its index among the source laws; null for the target or no law. */
  law_index: number | null;
  assignment: Record<string, number> | null;
  left: number | null;
  right: number | null;
  /** The field of the claim at fault, e.g. `['laws', 2]` or `['tables', '*', 1, 0]`. */
  path: JsonPath;
}

/** The verdict of {@link checkCountermodelClaim}. */
export type CountermodelCheckResult =
  | { accepted: true; assignments_checked: number }
  | { accepted: false; reason_code: CountermodelRejectionReason; message: string; failure: CountermodelFailure; assignments_checked: number };

/** A table read as a total function: values indexed by the argument (row-major for binary). */
interface Table {
  readonly arity: 0 | 1 | 2;
  readonly values: Int32Array;
}

class Rejected extends Error {
  constructor(
    readonly reason: CountermodelRejectionReason,
    message: string,
    readonly failure: CountermodelFailure,
  ) {
    super(message);
  }
}

function tableFault(message: string, path: JsonPath): Rejected {
  return new Rejected('TABLE_INVALID', message, { law: null, law_index: null, assignment: null, left: null, right: null, path });
}

function isElement(value: unknown, order: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < order;
}

function describePath(path: JsonPath): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('').replace(/^\./, '');
}

/** Read every table as a total function on 0 … n−1, or reject naming the first bad entry. */
function readTables(signature: Signature, order: number, tables: Readonly<Record<string, unknown>>): Map<string, Table> {
  for (const name of Object.keys(tables)) {
    if (!signature.operationByName.has(name)) throw tableFault(`there is a table for "${name}", which is not an operation of the signature`, ['tables', name]);
  }
  const read = new Map<string, Table>();
  const entry = (value: unknown, path: JsonPath): number => {
    if (!isElement(value, order)) throw tableFault(`${describePath(path)} is ${JSON.stringify(value)}, not an element of 0 … ${order - 1}`, path);
    return value;
  };
  const row = (value: unknown, path: JsonPath, what: string): number[] => {
    if (!Array.isArray(value) || value.length !== order) throw tableFault(`${describePath(path)}: ${what} must list ${order} elements, one per argument 0 … ${order - 1}`, path);
    return value.map((item: unknown, index) => entry(item, [...path, index]));
  };
  for (const operation of signature.operations) {
    const path: JsonPath = ['tables', operation.name];
    if (!Object.hasOwn(tables, operation.name)) throw tableFault(`the table of "${operation.name}" (arity ${operation.arity}) is missing`, path);
    const table: unknown = tables[operation.name];
    let values: number[];
    if (operation.arity === 0) {
      values = [entry(table, path)];
    } else if (operation.arity === 1) {
      values = row(table, path, `the table of the unary operation "${operation.name}"`);
    } else {
      if (!Array.isArray(table) || table.length !== order) throw tableFault(`${describePath(path)}: the table of the binary operation "${operation.name}" must have ${order} rows`, path);
      values = table.flatMap((line: unknown, a) => row(line, [...path, a], `row ${a} of "${operation.name}"`));
    }
    read.set(operation.name, { arity: operation.arity, values: Int32Array.from(values) });
  }
  return read;
}

/** A term with its tables and variable slots resolved, for {@link valueOf}. */
type Node = { readonly slot: number } | { readonly table: Table; readonly args: readonly Node[] };

function resolveTerm(term: Term, slots: ReadonlyMap<string, number>, tables: ReadonlyMap<string, Table>): Node {
  if (term.kind === 'variable') return { slot: slots.get(term.name) as number };
  return { table: tables.get(term.operation) as Table, args: term.args.map((arg) => resolveTerm(arg, slots, tables)) };
}

/** The value of a resolved term under `values` (one element per slot), by plain recursion. */
function valueOf(node: Node, values: Int32Array, order: number): number {
  if ('slot' in node) return values[node.slot] as number;
  const { table, args } = node;
  if (table.arity === 0) return table.values[0] as number;
  const a = valueOf(args[0] as Node, values, order);
  if (table.arity === 1) return table.values[a] as number;
  return table.values[a * order + valueOf(args[1] as Node, values, order)] as number;
}

function assignmentOf(law: Law, values: Int32Array): Record<string, number> {
  return Object.fromEntries(law.variables.map((name, index) => [name, values[index] as number]));
}

function showAssignment(assignment: Readonly<Record<string, number>>): string {
  const entries = Object.entries(assignment);
  return entries.length === 0 ? 'the empty assignment' : entries.map(([name, value]) => `${name} = ${value}`).join(', ');
}

const CHECKPOINT_INTERVAL = 4096;

/**
 * Check a countermodel claim. The signature and laws must parse (the capability parses them
 * before it calls this, so a malformed claim is a request or artifact error, not a verdict).
 *
 * @param checkpoint called every few thousand assignments; may throw to stop.
 * @throws JacobianError INVALID_REQUEST when the signature or a law does not parse.
 */
export function checkCountermodelClaim(claim: CountermodelClaim, checkpoint: () => void = () => undefined): CountermodelCheckResult {
  const signature = resolveSignature(claim.signature, ['signature']);
  const laws = parseLaws(claim.laws, signature, ['laws']);
  const target = parseLaw(claim.target, signature, { path: ['target'] });
  const n = claim.order;
  let checked = 0;
  try {
    const tables = readTables(signature, n, claim.tables);

    const stated = claim.violating_assignment;
    for (const name of Object.keys(stated)) {
      if (!target.variables.includes(name)) {
        throw new Rejected('ASSIGNMENT_INVALID', `the assignment gives "${name}" a value, but "${name}" is not a variable of the target law`, {
          law: claim.target, law_index: null, assignment: { ...stated }, left: null, right: null, path: ['violating_assignment', name],
        });
      }
    }
    const targetValues = new Int32Array(target.variables.length);
    for (const [index, name] of target.variables.entries()) {
      const value = Object.hasOwn(stated, name) ? stated[name] : undefined;
      if (!isElement(value, n)) {
        throw new Rejected('ASSIGNMENT_INVALID', `the assignment must give the target's variable "${name}" an element of 0 … ${n - 1}; it gives ${value === undefined ? 'none' : JSON.stringify(value)}`, {
          law: claim.target, law_index: null, assignment: { ...stated }, left: null, right: null, path: ['violating_assignment', name],
        });
      }
      targetValues[index] = value;
    }
    const slots = (law: Law): Map<string, number> => new Map(law.variables.map((name, index) => [name, index]));
    const targetSlots = slots(target);
    const left = valueOf(resolveTerm(target.left, targetSlots, tables), targetValues, n);
    const right = valueOf(resolveTerm(target.right, targetSlots, tables), targetValues, n);
    checked++;
    const at = assignmentOf(target, targetValues);
    if (left === right) {
      throw new Rejected('TARGET_NOT_VIOLATED', `the target law "${claim.target}" holds at ${showAssignment(at)}: both sides are ${left}`, {
        law: claim.target, law_index: null, assignment: at, left, right, path: ['violating_assignment'],
      });
    }
    if (left !== claim.target_values.left || right !== claim.target_values.right) {
      throw new Rejected(
        'TARGET_VALUES_MISMATCH',
        `at ${showAssignment(at)} the sides of the target law "${claim.target}" are ${left} and ${right}, not the claimed ${claim.target_values.left} and ${claim.target_values.right}`,
        { law: claim.target, law_index: null, assignment: at, left, right, path: ['target_values'] },
      );
    }

    let sinceCheckpoint = 0;
    for (const [index, law] of laws.entries()) {
      const lawSlots = slots(law);
      const lhs = resolveTerm(law.left, lawSlots, tables);
      const rhs = resolveTerm(law.right, lawSlots, tables);
      const k = law.variables.length;
      const values = new Int32Array(k);
      for (;;) {
        const l = valueOf(lhs, values, n);
        const r = valueOf(rhs, values, n);
        checked++;
        if (l !== r) {
          const assignment = assignmentOf(law, values);
          throw new Rejected('SOURCE_LAW_VIOLATED', `source law ${index}, "${claim.laws[index] ?? ''}", fails at ${showAssignment(assignment)}: the left side is ${l} and the right side is ${r}`, {
            law: claim.laws[index] ?? null, law_index: index, assignment, left: l, right: r, path: ['laws', index],
          });
        }
        if (++sinceCheckpoint >= CHECKPOINT_INTERVAL) {
          sinceCheckpoint = 0;
          checkpoint();
        }
        // Next assignment in lexicographic order, the last variable fastest.
        let position = k - 1;
        while (position >= 0 && (values[position] as number) === n - 1) values[position--] = 0;
        if (position < 0) break;
        values[position] = (values[position] as number) + 1;
      }
    }
    return { accepted: true, assignments_checked: checked };
  } catch (error) {
    if (!(error instanceof Rejected)) throw error;
    return { accepted: false, reason_code: error.reason, message: error.message, failure: error.failure, assignments_checked: checked };
  }
}

/** Kernel entry point: the claim crossed a process boundary as JSON, so it is parsed again. */
export function checkCountermodelKernel(input: { claim: unknown }, ctx: KernelContext): CountermodelCheckResult {
  return checkCountermodelClaim(CountermodelClaimSchema.parse(input.claim), () => {
    if (Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended during the exhaustive check; nothing was concluded");
  });
}
