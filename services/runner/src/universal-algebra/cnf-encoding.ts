/**
 * The propositional encoding of "an algebra of order n that satisfies the source laws and
 * violates the target law", in CNF for a SAT solver.
 *
 * Variables.
 * - Table variables: for every operation f, argument tuple a and element v, one variable
 *   T(f, a, v) meaning f(a) = v; each table cell is constrained to exactly one value (one
 *   at-least-one clause and pairwise at-most-one clauses). Operations come in declaration
 *   order, cells in lexicographic order of their arguments (row-major for binary tables):
 *   variable = first(f) + cell·n + v, numbered from 1. A model is exactly its tables.
 * - Witness variables W(x, v) for each variable x of the target law (exactly one each).
 * - Value variables V(s, v) for each distinct non-variable subterm s of the target law.
 *
 * Source laws (universal) are flattened without auxiliary variables, as in MACE-style model
 * finders: every distinct non-variable proper subterm gets a value slot, and for every
 * assignment of the law's variables and every value of the slots, one clause says "if each
 * slot holds the value of its term, then both sides agree". So for `l = r` with k variables
 * and m slots there are n^(k+m) clauses (fewer after dropping tautologies and clauses that the
 * at-most-one clauses already imply).
 *
 * The target law is violated by an existential witness: the W variables choose an assignment,
 * the V variables are forced true at the value of each subterm under it, and for every element
 * v the clause ¬L(v) ∨ ¬R(v) forbids the two sides from sharing a value. Extra true V bits can
 * only add conflicts, so a satisfying assignment always carries a genuine violation.
 *
 * Symmetry breaking (LEAST_NUMBER): see {@link symmetryCells}.
 */
import { JacobianError, termKey, type ApplicationTerm, type Law, type OperationTable, type Signature, type Term } from '@jacobian/shared';

/** Symmetry breaking added to the encoding. */
export const SymmetryBreaking = {
  /** The least-number canonical labelling of {@link symmetryCells}. */
  LEAST_NUMBER: 'LEAST_NUMBER',
  /** No symmetry breaking: every labelling of every model satisfies the CNF. */
  NONE: 'NONE',
} as const;
export type SymmetryBreaking = (typeof SymmetryBreaking)[keyof typeof SymmetryBreaking];

/** The question, parsed: a model of `laws` of order `order` in which `target` fails. */
export interface CountermodelProblem {
  readonly signature: Signature;
  readonly laws: readonly Law[];
  readonly target: Law;
  readonly order: number;
  readonly symmetryBreaking: SymmetryBreaking;
}

/** The table variables of one operation: T(f, cell, v) = first + cell·n + v. */
export interface TableBlock {
  readonly operation: string;
  readonly arity: 0 | 1 | 2;
  readonly first: number;
  readonly cells: number;
}

/** Where every variable of the encoding lives. */
export interface VariableLayout {
  readonly order: number;
  readonly tables: readonly TableBlock[];
  /** W(x, v) = first + v, for the target law's variables in order of first occurrence. */
  readonly witness: readonly { readonly variable: string; readonly first: number }[];
  /** V(s, v) = first + v, for the target's distinct non-variable subterms, by {@link termKey}. */
  readonly targetValues: readonly { readonly term: string; readonly first: number }[];
  /** Number of variables in all. */
  readonly variables: number;
}

/** Every distinct non-variable subterm of `terms`, children before parents. */
function applicationSubterms(terms: readonly Term[], proper: boolean): Term[] {
  const seen = new Map<string, Term>();
  const visit = (term: Term, top: boolean): void => {
    if (term.kind === 'variable') return;
    for (const arg of term.args) visit(arg, false);
    if (!(proper && top)) {
      const key = termKey(term);
      if (!seen.has(key)) seen.set(key, term);
    }
  };
  for (const term of terms) visit(term, true);
  return [...seen.values()];
}

/** Lay out the variables of a problem. Deterministic: the same problem gives the same numbering. */
export function variableLayout(problem: CountermodelProblem): VariableLayout {
  const n = problem.order;
  let next = 1;
  const tables = problem.signature.operations.map((operation): TableBlock => {
    const cells = n ** operation.arity;
    const block = { operation: operation.name, arity: operation.arity, first: next, cells };
    next += cells * n;
    return block;
  });
  const witness = problem.target.variables.map((variable) => {
    const block = { variable, first: next };
    next += n;
    return block;
  });
  const targetValues = applicationSubterms([problem.target.left, problem.target.right], false).map((term) => {
    const block = { term: termKey(term), first: next };
    next += n;
    return block;
  });
  return { order: n, tables, witness, targetValues, variables: next - 1 };
}

/** One entry of the symmetry-breaking sequence. */
export interface SymmetryCell {
  /** How the cell reads, e.g. `e`, `i(2)`, `3 * 3`. */
  readonly label: string;
  readonly operation: string;
  readonly cell: number;
  /** For g(d): d, the element that is already labelled when g(d) is; −1 for constants. */
  readonly floor: number;
}

/**
 * The sequence of table cells that LEAST_NUMBER symmetry breaking constrains, and the unary
 * map g it uses.
 *
 * The sequence is c_1, …, c_k (the constants in declaration order), then g(0), …, g(n−1),
 * where g is the first unary operation, or else x ↦ x∘x for the first binary operation ∘, or
 * absent. The constraint: the j-th cell's value is at most 1 + the largest value of the cells
 * before it, and for g(d) at most d + 1 as well — i.e. value ≤ 1 + max(earlier cells, floor).
 *
 * Why it is sound: any algebra of order n can be relabelled to satisfy it. Give labels 0, 1, …
 * in this order: each constant's element, if still unlabelled, gets the next label; then for
 * d = 0, 1, …: if no element has label d yet, any unlabelled element gets it; then g(d)'s
 * element, if unlabelled, gets the next label. Labels stay contiguous, so when a cell is
 * reached every label used so far is at most max(earlier cells, floor), and the cell's value
 * is either one of them or the next one. The relabelled algebra is isomorphic to the original;
 * isomorphisms preserve which laws hold and carry a violating assignment to a violating one.
 * So the constraint removes labellings, never isomorphism classes of countermodels.
 */
export function symmetryCells(problem: CountermodelProblem): SymmetryCell[] {
  if (problem.symmetryBreaking === SymmetryBreaking.NONE) return [];
  const n = problem.order;
  const cells: SymmetryCell[] = problem.signature.operations
    .filter((operation) => operation.arity === 0)
    .map((operation) => ({ label: operation.name, operation: operation.name, cell: 0, floor: -1 }));
  const unary = problem.signature.operations.find((operation) => operation.arity === 1);
  const binary = problem.signature.operations.find((operation) => operation.arity === 2);
  for (let d = 0; d < n; d++) {
    if (unary !== undefined) {
      cells.push({ label: `${unary.name}(${d})`, operation: unary.name, cell: d, floor: d });
    } else if (binary !== undefined) {
      cells.push({ label: binary.infix ? `${d} ${binary.name} ${d}` : `${binary.name}(${d}, ${d})`, operation: binary.name, cell: d * n + d, floor: d });
    }
  }
  return cells;
}

/** A one-sentence statement of the symmetry breaking used, for results and artifacts. */
export function symmetryStatement(problem: CountermodelProblem): string {
  if (problem.symmetryBreaking === SymmetryBreaking.NONE) {
    return 'none: every labelling of every model of order n satisfies the CNF';
  }
  // Never empty: a signature has at least one operation, and each arity contributes cells.
  const cells = symmetryCells(problem);
  return (
    `least-number canonical labelling: along the cells ${cells.map((c) => c.label).join(', ')}, each cell's value is at most 1 + the largest earlier value ` +
    `(and at most d + 1 for the cell of element d); every algebra has an isomorphic relabelling that satisfies this (label constants by first appearance, ` +
    `then each d and its image in turn), so countermodels are lost only up to isomorphism, which preserves laws and violations`
  );
}

/** Sizes of the encoding's parts, in clauses. */
export interface EncodingSummary {
  variables: number;
  clauses: number;
  sections: { tables: number; witness: number; symmetry: number; laws: number; target: number };
}

/** Refer to an argument of a flattened term: a law variable or a slot, by index into the value vector. */
type Ref = number;

interface FlatApplication {
  readonly operation: string;
  readonly args: readonly Ref[];
}

/** How a law is flattened: the application side, the other side, and the slots of the clauses. */
type Flattening =
  | { readonly kind: 'TRIVIAL' }
  | { readonly kind: 'DISTINCT_VARIABLES' }
  | { readonly kind: 'CLAUSES'; readonly main: ApplicationTerm; readonly other: Term; readonly slotTerms: readonly Term[] };

function flattening(law: Law): Flattening {
  const { left, right } = law;
  if (termKey(left) === termKey(right)) return { kind: 'TRIVIAL' };
  if (left.kind === 'application') return clauseFlattening(left, right);
  if (right.kind === 'application') return clauseFlattening(right, left);
  return { kind: 'DISTINCT_VARIABLES' };
}

/** Slots: the proper subterms of both sides, and the main side itself when the other side is an application. */
function clauseFlattening(main: ApplicationTerm, other: Term): Flattening {
  const slotTerms = applicationSubterms(other.kind === 'application' ? [main, other] : [main], true);
  if (other.kind === 'application' && !slotTerms.some((term) => termKey(term) === termKey(main))) slotTerms.push(main);
  return { kind: 'CLAUSES', main, other, slotTerms };
}

/** The clauses of a law's flattening before simplification: n^(k+m), 2 for x = y, 0 for t = t. */
function flattenedClauses(law: Law, order: number): number {
  const flat = flattening(law);
  switch (flat.kind) {
    case 'TRIVIAL':
      return 0;
    case 'DISTINCT_VARIABLES':
      return 2;
    case 'CLAUSES':
      return order ** (law.variables.length + flat.slotTerms.length);
  }
}

/**
 * An upper bound on the clauses {@link encodeCountermodel} emits, computed without emitting
 * them, so oversized requests are refused before any work.
 */
export function estimateClauses(problem: CountermodelProblem): number {
  const n = problem.order;
  const exactlyOne = 1 + (n * (n - 1)) / 2;
  let total = 0;
  for (const operation of problem.signature.operations) total += n ** operation.arity * exactlyOne;
  total += problem.target.variables.length * exactlyOne;
  total += symmetryCells(problem).length * n;
  for (const law of problem.laws) total += flattenedClauses(law, n);
  for (const term of applicationSubterms([problem.target.left, problem.target.right], false)) {
    if (term.kind === 'application') total += n ** (term.args.length + 1);
  }
  return total + n;
}

/** Called with each clause (a list of non-zero literals); the array is reused, copy it to keep it. */
export type ClauseSink = (clause: readonly number[]) => void;

const CHECKPOINT_INTERVAL = 65_536;

/**
 * Emit the CNF of a problem, clause by clause.
 *
 * @param checkpoint called every few tens of thousands of clauses; may throw to stop.
 */
export function encodeCountermodel(problem: CountermodelProblem, emit: ClauseSink, checkpoint: () => void = () => undefined): EncodingSummary {
  const layout = variableLayout(problem);
  const n = problem.order;
  const blockOf = new Map(layout.tables.map((block) => [block.operation, block]));
  const tableVariable = (operation: string, args: readonly number[], value: number): number => {
    const block = blockOf.get(operation) as TableBlock;
    const cell = args.length === 0 ? 0 : args.length === 1 ? (args[0] as number) : (args[0] as number) * n + (args[1] as number);
    return block.first + cell * n + value;
  };
  /** Table cells are contiguous blocks of n variables from 1: the cell of a table variable. */
  const cellOf = (variable: number): number => Math.floor((variable - 1) / n);

  const sections = { tables: 0, witness: 0, symmetry: 0, laws: 0, target: 0 };
  let section: keyof typeof sections = 'tables';
  let sinceCheckpoint = 0;
  const put = (clause: readonly number[]): void => {
    emit(clause);
    sections[section]++;
    if (++sinceCheckpoint >= CHECKPOINT_INTERVAL) {
      sinceCheckpoint = 0;
      checkpoint();
    }
  };
  const exactlyOne = (first: number): void => {
    put(Array.from({ length: n }, (_, v) => first + v));
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) put([-(first + a), -(first + b)]);
  };

  for (const block of layout.tables) for (let cell = 0; cell < block.cells; cell++) exactlyOne(block.first + cell * n);

  section = 'witness';
  for (const block of layout.witness) exactlyOne(block.first);

  section = 'symmetry';
  const sequence = symmetryCells(problem).map((cell) => ({ ...cell, first: (blockOf.get(cell.operation) as TableBlock).first + cell.cell * n }));
  sequence.forEach((cell, j) => {
    for (let v = 1; v < n; v++) {
      if (cell.floor >= v - 1) continue;
      const clause = [-(cell.first + v)];
      for (const earlier of sequence.slice(0, j)) for (let u = v - 1; u < n; u++) clause.push(earlier.first + u);
      put(clause);
    }
  });

  section = 'laws';
  const negatives: number[] = [];
  const clause: number[] = [];
  for (const law of problem.laws) encodeLaw(law);

  function encodeLaw(law: Law): void {
    const flat = flattening(law);
    if (flat.kind === 'TRIVIAL') return;
    if (flat.kind === 'DISTINCT_VARIABLES') {
      // x = y with x ≠ y fails in every algebra of order ≥ 2. Say "false" as two contradicting
      // units rather than an input empty clause, which makes cadical write an empty DRAT proof.
      if (n >= 2) {
        put([1]);
        put([-1]);
      }
      return;
    }
    const { main, other, slotTerms } = flat;
    const k = law.variables.length;
    const variableIndex = new Map(law.variables.map((name, index) => [name, index]));
    const slotIndex = new Map(slotTerms.map((term, index) => [termKey(term), k + index]));
    const ref = (term: Term): Ref => (term.kind === 'variable' ? (variableIndex.get(term.name) as number) : (slotIndex.get(termKey(term)) as number));
    const flatten = (term: ApplicationTerm): FlatApplication => ({ operation: term.operation, args: term.args.map(ref) });
    const slots = slotTerms.map((term) => ({ at: ref(term), ...flatten(term as ApplicationTerm) }));
    // "If every slot holds its term's value, then": other(args) = value(main), or main(args) = the variable other.
    const conclusion = other.kind === 'application' ? flatten(other) : flatten(main);
    const conclusionValue: Ref = other.kind === 'application' ? ref(main) : ref(other);

    const width = k + slots.length;
    const values = new Int32Array(width);
    const args: number[] = [];
    const cellValue = new Map<number, number>();
    for (;;) {
      negatives.length = 0;
      cellValue.clear();
      let implied = false;
      for (const slot of slots) {
        args.length = 0;
        for (const r of slot.args) args.push(values[r] as number);
        const variable = tableVariable(slot.operation, args, values[slot.at] as number);
        const cell = cellOf(variable);
        const seen = cellValue.get(cell);
        if (seen === undefined) {
          cellValue.set(cell, variable);
          negatives.push(variable);
        } else if (seen !== variable) {
          // Two values for one cell: the at-most-one clauses already imply this clause.
          implied = true;
          break;
        }
      }
      if (!implied) {
        args.length = 0;
        for (const r of conclusion.args) args.push(values[r] as number);
        const positive = tableVariable(conclusion.operation, args, values[conclusionValue] as number);
        if (!negatives.includes(positive)) {
          clause.length = 0;
          for (const variable of negatives) clause.push(-variable);
          clause.push(positive);
          put(clause);
        }
      }
      let position = width - 1;
      while (position >= 0 && (values[position] as number) === n - 1) values[position--] = 0;
      if (position < 0) return;
      values[position] = (values[position] as number) + 1;
    }
  }

  section = 'target';
  const witnessOf = new Map(layout.witness.map((block) => [block.variable, block.first]));
  const valueOf = new Map(layout.targetValues.map((block) => [block.term, block.first]));
  const firstOf = (term: Term): number => (term.kind === 'variable' ? (witnessOf.get(term.name) as number) : (valueOf.get(termKey(term)) as number));
  for (const term of applicationSubterms([problem.target.left, problem.target.right], false)) {
    if (term.kind !== 'application') continue;
    const argFirsts = term.args.map(firstOf);
    const own = firstOf(term);
    const argValues = new Int32Array(term.args.length);
    for (;;) {
      for (let c = 0; c < n; c++) {
        const lits: number[] = [];
        argFirsts.forEach((first, i) => lits.push(-(first + (argValues[i] as number))));
        lits.push(-tableVariable(term.operation, Array.from(argValues), c), own + c);
        put(lits);
      }
      let position = term.args.length - 1;
      while (position >= 0 && (argValues[position] as number) === n - 1) argValues[position--] = 0;
      if (position < 0) break;
      argValues[position] = (argValues[position] as number) + 1;
    }
  }
  const leftFirst = firstOf(problem.target.left);
  const rightFirst = firstOf(problem.target.right);
  for (let v = 0; v < n; v++) put(leftFirst === rightFirst ? [-(leftFirst + v)] : [-(leftFirst + v), -(rightFirst + v)]);

  return { variables: layout.variables, clauses: Object.values(sections).reduce((a, b) => a + b, 0), sections };
}

/** A model read back from the solver: the tables and the witness assignment. */
export interface DecodedModel {
  tables: Record<string, OperationTable>;
  witness: Record<string, number>;
}

/**
 * Read tables and witness from a satisfying assignment (`value(v)` true when variable v is
 * true). Every cell and witness must have exactly one true value.
 *
 * @throws JacobianError PROVIDER_FAILED when the assignment does not describe tables.
 */
export function decodeModel(layout: VariableLayout, value: (variable: number) => boolean): DecodedModel {
  const n = layout.order;
  const one = (first: number, what: string): number => {
    const found: number[] = [];
    for (let v = 0; v < n; v++) if (value(first + v)) found.push(v);
    if (found.length !== 1) throw new JacobianError('PROVIDER_FAILED', `the solver's model gives ${what} ${found.length} values (${found.join(', ')}); the result was discarded`);
    return found[0] as number;
  };
  const tables: Record<string, OperationTable> = Object.fromEntries(
    layout.tables.map((block): [string, OperationTable] => {
      const cells = Array.from({ length: block.cells }, (_, cell) => one(block.first + cell * n, `the cell ${cell} of "${block.operation}"`));
      return [block.operation, block.arity === 0 ? (cells[0] as number) : block.arity === 1 ? cells : Array.from({ length: n }, (_, a) => cells.slice(a * n, a * n + n))];
    }),
  );
  const witness = Object.fromEntries(layout.witness.map((block) => [block.variable, one(block.first, `the target variable "${block.variable}"`)]));
  return { tables, witness };
}
