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
 * - Auxiliary variables A(p, cell, v) for the auxiliary functions of DEFINITIONAL laws (below).
 *
 * Source laws (universal) are flattened in one of two ways, per law whichever gives fewer
 * clauses (LawFlattening.AUTO):
 * - DIRECT, without auxiliary variables, as in MACE-style model finders: every distinct
 *   non-variable proper subterm gets a value slot, and for every assignment of the law's
 *   variables and every value of the slots, one clause says "if each slot holds the value of its
 *   term, then both sides agree". So for `l = r` with k variables and m slots there are
 *   n^(k+m) clauses (fewer after dropping tautologies and clauses that the at-most-one clauses
 *   already imply).
 * - DEFINITIONAL: compound subterms get auxiliary functions with exactly-one cells, defined by
 *   clauses "if the arguments hold these values, the function's cell holds the term's value"
 *   (see {@link DefinitionalPlanner}); the law then says "if one side's value is c, the other
 *   side's cell holds c". Sound and complete on the tables: in a model of the CNF each
 *   auxiliary cell holds the true value of its term (by induction on the term: the defining
 *   clause with its premises at their true values forces that value, and exactly-one leaves no
 *   other), so the law's clause makes both sides equal; conversely tables that satisfy the law
 *   satisfy every clause with each auxiliary cell set to its true value. The medial law at
 *   order 8 needs under a million clauses this way, against n^9 = 134 million DIRECT.
 * Both are families of clauses "¬premise₁ ∨ … ∨ ¬premiseₖ ∨ conclusion" over all assignments
 * of a few element variables, emitted by one loop.
 *
 * The target law is violated by an existential witness: the W variables choose an assignment,
 * the V variables are forced true at the value of each subterm under it, and for every element
 * v the clause ¬L(v) ∨ ¬R(v) forbids the two sides from sharing a value. Extra true V bits can
 * only add conflicts, so a satisfying assignment always carries a genuine violation.
 *
 * Symmetry breaking (LEAST_NUMBER): see {@link symmetryCells}.
 */
import { JacobianError, termKey, type ApplicationTerm, type Law, type OperationTable, type Signature, type Term, type VariableTerm } from '@jacobian/shared';

/** Symmetry breaking added to the encoding. */
export const SymmetryBreaking = {
  /** The least-number canonical labelling of {@link symmetryCells}. */
  LEAST_NUMBER: 'LEAST_NUMBER',
  /** No symmetry breaking: every labelling of every model satisfies the CNF. */
  NONE: 'NONE',
} as const;
export type SymmetryBreaking = (typeof SymmetryBreaking)[keyof typeof SymmetryBreaking];

/** How source laws are turned into clauses (see the module comment). */
export const LawFlattening = {
  /** Per law, whichever of the two gives fewer clauses (DIRECT on a tie). */
  AUTO: 'AUTO',
  /** One clause family over the law's variables and a slot for each subterm; no auxiliary variables. */
  DIRECT: 'DIRECT',
  /** Compound subterms through auxiliary functions, so each clause family spans fewer element variables. */
  DEFINITIONAL: 'DEFINITIONAL',
} as const;
export type LawFlattening = (typeof LawFlattening)[keyof typeof LawFlattening];

/** The question, parsed: a model of `laws` of order `order` in which `target` fails. */
export interface CountermodelProblem {
  readonly signature: Signature;
  readonly laws: readonly Law[];
  readonly target: Law;
  readonly order: number;
  readonly symmetryBreaking: SymmetryBreaking;
  /** How source laws become clauses; AUTO when absent. */
  readonly flattening?: LawFlattening;
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
  /** A(p, cell, v) = first + cell·n + v, for the auxiliary functions of the DEFINITIONAL flattening. */
  readonly auxiliaries: readonly AuxiliaryBlock[];
  /** Number of variables in all. */
  readonly variables: number;
}

/** The variables of one auxiliary function: its pattern (variables #0, #1, … are its arguments) and cells. */
export interface AuxiliaryBlock {
  readonly pattern: string;
  readonly arity: number;
  readonly first: number;
  readonly cells: number;
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
  return layoutOf(problem, lawPlan(problem));
}

function layoutOf(problem: CountermodelProblem, plan: LawPlan): VariableLayout {
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
  const auxiliaries = plan.auxiliaries.map((auxiliary): AuxiliaryBlock => {
    const cells = n ** auxiliary.arity;
    const block = { pattern: auxiliary.pattern, arity: auxiliary.arity, first: next, cells };
    next += cells * n;
    return block;
  });
  return { order: n, tables, witness, targetValues, auxiliaries, variables: next - 1 };
}

/** One entry of the symmetry-breaking sequence: a table cell, or the witness of a target variable. */
export interface SymmetryCell {
  /** How the cell reads, e.g. `witness x`, `e`, `i(2)`, `3 * 3`. */
  readonly label: string;
  readonly kind: 'WITNESS' | 'TABLE';
  /** The target variable (WITNESS) or the operation (TABLE). */
  readonly name: string;
  /** The table cell (0 for a witness). */
  readonly cell: number;
  /** For g(d): d, the element that is already labelled when g(d) is; −1 otherwise. */
  readonly floor: number;
}

/**
 * The sequence of cells that LEAST_NUMBER symmetry breaking constrains, and the unary map g it
 * uses.
 *
 * The sequence is w_1, …, w_m (the witnesses of the target's variables, in order of first
 * occurrence), then c_1, …, c_k (the constants in declaration order), then g(0), …, g(n−1),
 * where g is the first unary operation, or else x ↦ x∘x for the first binary operation ∘, or
 * absent. The constraint: the j-th cell's value is at most 1 + the largest value of the cells
 * before it, and for g(d) at most d + 1 as well — i.e. value ≤ 1 + max(earlier cells, floor).
 * So the first witness is element 0, the second 0 or 1, and so on.
 *
 * Why it is sound: any countermodel of order n, with any assignment that violates the target,
 * can be relabelled to satisfy it. Give labels 0, 1, … in this order: the element each target
 * variable is assigned, if still unlabelled, gets the next label; so does each constant's
 * element; then for d = 0, 1, …: if no element has label d yet, any unlabelled element gets it;
 * then g(d)'s element, if unlabelled, gets the next label. Labels stay contiguous, so when a
 * cell is reached every label used so far is at most max(earlier cells, floor), and the cell's
 * value is either one of them or the next one. The relabelled algebra is isomorphic to the
 * original; isomorphisms preserve which laws hold and carry the violating assignment to a
 * violating one, which the witnesses take. So the constraint removes labellings, never
 * isomorphism classes of countermodels. Fixing the witnesses first matters most when the CNF is
 * unsatisfiable: the solver need not refute every placement of the violation separately.
 */
export function symmetryCells(problem: CountermodelProblem): SymmetryCell[] {
  if (problem.symmetryBreaking === SymmetryBreaking.NONE) return [];
  const n = problem.order;
  const cells: SymmetryCell[] = [
    ...problem.target.variables.map((variable): SymmetryCell => ({ label: `witness ${variable}`, kind: 'WITNESS', name: variable, cell: 0, floor: -1 })),
    ...problem.signature.operations
      .filter((operation) => operation.arity === 0)
      .map((operation): SymmetryCell => ({ label: operation.name, kind: 'TABLE', name: operation.name, cell: 0, floor: -1 })),
  ];
  const unary = problem.signature.operations.find((operation) => operation.arity === 1);
  const binary = problem.signature.operations.find((operation) => operation.arity === 2);
  for (let d = 0; d < n; d++) {
    if (unary !== undefined) {
      cells.push({ label: `${unary.name}(${d})`, kind: 'TABLE', name: unary.name, cell: d, floor: d });
    } else if (binary !== undefined) {
      cells.push({ label: binary.infix ? `${d} ${binary.name} ${d}` : `${binary.name}(${d}, ${d})`, kind: 'TABLE', name: binary.name, cell: d * n + d, floor: d });
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
    `(and at most d + 1 for the cell of element d); every countermodel has an isomorphic relabelling that satisfies this (label the elements its violating assignment takes, ` +
    `then the constants, by first appearance, then each d and its image in turn), so countermodels are lost only up to isomorphism, which preserves laws and violations`
  );
}

/** Sizes of the encoding's parts, in clauses. */
export interface EncodingSummary {
  variables: number;
  clauses: number;
  sections: { tables: number; witness: number; symmetry: number; auxiliary: number; laws: number; target: number };
}

/** An element variable of a clause family (a law variable, a subterm's value, a result), by index. */
type Ref = number;

/** A function whose cells are blocks of n variables: an operation's table (by name) or an auxiliary function (by index). */
type FunctionRef = string | number;

/** "fn(args) = value", one variable of the encoding once the element variables have values. */
interface Atom {
  readonly fn: FunctionRef;
  readonly args: readonly Ref[];
  readonly value: Ref;
}

/** For every assignment of elements to `width` element variables: ¬premise₁ ∨ … ∨ ¬premiseₖ ∨ conclusion. */
interface ClauseFamily {
  readonly width: number;
  readonly premises: readonly Atom[];
  readonly conclusion: Atom;
}

/** An auxiliary function of the encoding: the value of a term pattern, as a function of its variables. */
interface Auxiliary {
  /** The pattern, its variables renamed #0, #1, … in order of first occurrence (the function's arguments). */
  readonly pattern: string;
  readonly arity: number;
  /** Its defining clauses: "if the subterms hold these values, the function's cell holds this one". */
  definition: ClauseFamily | null;
}

/** How one source law is encoded. */
type LawEncoding =
  | { readonly kind: 'TRIVIAL' }
  | { readonly kind: 'DISTINCT_VARIABLES' }
  | { readonly kind: 'CLAUSES'; readonly family: ClauseFamily };

/** The source laws' encoding: the auxiliary functions they share and one clause family per law. */
interface LawPlan {
  readonly auxiliaries: readonly Auxiliary[];
  readonly laws: readonly LawEncoding[];
}

/** Clauses of the exactly-one constraint on one cell of n values. */
function exactlyOneClauses(n: number): number {
  return 1 + (n * (n - 1)) / 2;
}

/** Collects the element variables and premises of one clause family. */
class FamilyBuilder {
  width = 0;
  readonly premises: Atom[] = [];
  private readonly refs = new Map<string, Ref>();

  /** The element variable standing for a term variable, allocated on first use. */
  variable(name: string): Ref {
    let ref = this.refs.get(name);
    if (ref === undefined) {
      ref = this.width++;
      this.refs.set(name, ref);
    }
    return ref;
  }

  /** A new element variable, for the value of a subterm or a result. */
  fresh(): Ref {
    return this.width++;
  }

  family(conclusion: Atom): ClauseFamily {
    return { width: this.width, premises: this.premises, conclusion };
  }
}

/** The pattern of a term: its key with variables renamed #0, #1, … by first occurrence, and those variables. */
function patternOf(term: ApplicationTerm): { key: string; params: string[] } {
  const params: string[] = [];
  const rename = (t: Term): Term => {
    if (t.kind === 'variable') {
      let index = params.indexOf(t.name);
      if (index < 0) index = params.push(t.name) - 1;
      return { kind: 'variable', name: `#${index}` };
    }
    return { kind: 'application', operation: t.operation, args: t.args.map(rename) };
  };
  return { key: termKey(rename(term)), params };
}

function isFlat(term: ApplicationTerm): boolean {
  return term.args.every((arg) => arg.kind === 'variable');
}

/**
 * Plans the DEFINITIONAL flattening. A term that is not an operation applied to variables gets
 * an auxiliary function A_p over its pattern p's variables, with exactly-one cells like a table,
 * defined by one clause family: "if the arguments' values are …, then A_p(σ) = the value of p".
 * A binary application f(s, t) of two compound terms is either defined directly (the values of s
 * and t as premises: the family spans the term's variables and three values) or by abstracting s
 * into a fresh variable u (premises "s = u" and "f(u, t) = c", where f(u, t) is itself a pattern
 * over u and t's variables only): whichever gives fewer clauses. So for the medial law
 * (x·y)·(z·w) = (x·z)·(y·w) no family spans more than six element variables, against nine for
 * the DIRECT flattening; the pattern #0·(#1·#2) serves both sides.
 */
class DefinitionalPlanner {
  readonly auxiliaries: Auxiliary[] = [];
  private readonly indexOf = new Map<string, number>();
  private readonly costOf = new Map<string, number>();
  private names = 0;

  constructor(private readonly n: number) {}

  /** A variable name no law uses: laws' variables are identifiers, without '#'. */
  private freshName(): string {
    return `#u${this.names++}`;
  }

  /** Clauses needed before t's value is one cell: none for a table cell, else its auxiliary's cells and definition. */
  cellCost(term: ApplicationTerm): number {
    if (isFlat(term)) return 0;
    const { key, params } = patternOf(term);
    let cost = this.costOf.get(key);
    if (cost === undefined) {
      cost = this.n ** params.length * exactlyOneClauses(this.n) + this.strategy(term, params.length, true).cost;
      this.costOf.set(key, cost);
    }
    return cost;
  }

  /**
   * How to compute term's value in a family that already spans `base` element variables,
   * `result` when the value needs an element variable of its own: directly, or by abstracting
   * argument `peel`.
   */
  strategy(term: ApplicationTerm, base: number, result: boolean): { cost: number; peel: number | null } {
    const compound = term.args.flatMap((arg, index) => (arg.kind === 'application' ? [index] : []));
    const own = result ? 1 : 0;
    let best: { cost: number; peel: number | null } = {
      cost: this.n ** (base + compound.length + own) + compound.reduce((sum, index) => sum + this.cellCost(term.args[index] as ApplicationTerm), 0),
      peel: null,
    };
    if (compound.length < 2) return best;
    for (const index of compound) {
      const reduced = this.abstracted(term, index, this.freshName());
      const cost = this.n ** (base + 1 + own) + this.cellCost(term.args[index] as ApplicationTerm) + this.cellCost(reduced);
      if (cost < best.cost) best = { cost, peel: index };
    }
    return best;
  }

  private abstracted(term: ApplicationTerm, index: number, name: string): ApplicationTerm {
    return { kind: 'application', operation: term.operation, args: term.args.map((arg, i) => (i === index ? { kind: 'variable', name } : arg)) };
  }

  /** The cell that holds term's value: a table cell, or its auxiliary's (defined on first use). */
  cell(term: ApplicationTerm, builder: FamilyBuilder): { fn: FunctionRef; args: Ref[] } {
    if (isFlat(term)) return { fn: term.operation, args: term.args.map((arg) => builder.variable((arg as VariableTerm).name)) };
    const { key, params } = patternOf(term);
    let index = this.indexOf.get(key);
    if (index === undefined) {
      index = this.auxiliaries.push({ pattern: key, arity: params.length, definition: null }) - 1;
      this.indexOf.set(key, index);
      const own = new FamilyBuilder();
      const args = params.map((name) => own.variable(name));
      const value = this.compute(term, own, true);
      const c = own.fresh();
      own.premises.push({ ...value, value: c });
      (this.auxiliaries[index] as Auxiliary).definition = own.family({ fn: index, args, value: c });
    }
    return { fn: index, args: params.map((name) => builder.variable(name)) };
  }

  /** Add to builder the premises that put term's value in the returned cell, by the cheapest strategy. */
  compute(term: ApplicationTerm, builder: FamilyBuilder, result: boolean): { fn: FunctionRef; args: Ref[] } {
    const { peel } = this.strategy(term, builder.width, result);
    if (peel !== null) {
      const name = this.freshName();
      const u = builder.variable(name);
      builder.premises.push({ ...this.cell(term.args[peel] as ApplicationTerm, builder), value: u });
      return this.cell(this.abstracted(term, peel, name), builder);
    }
    const args = term.args.map((arg) => {
      if (arg.kind === 'variable') return builder.variable(arg.name);
      const value = builder.fresh();
      builder.premises.push({ ...this.cell(arg, builder), value });
      return value;
    });
    return { fn: term.operation, args };
  }

  /** The clauses a law needs (its family and its auxiliaries, counted as if not shared), and which side anchors it. */
  lawCost(law: Law): { cost: number; anchor: 'left' | 'right' | null } {
    const { left, right } = law;
    const width = law.variables.length;
    if (left.kind === 'variable' || right.kind === 'variable') {
      const main = (left.kind === 'application' ? left : right) as ApplicationTerm;
      return { cost: this.strategy(main, width, false).cost, anchor: null };
    }
    const viaLeft = this.cellCost(left) + this.strategy(right, width, true).cost;
    const viaRight = this.cellCost(right) + this.strategy(left, width, true).cost;
    return viaRight < viaLeft ? { cost: viaRight, anchor: 'right' } : { cost: viaLeft, anchor: 'left' };
  }

  /**
   * A law's family. With a variable side x: "if the other side's arguments hold …, its cell
   * holds x". Otherwise one side (the anchor) is a single cell (a table's or an auxiliary's),
   * and the family says "if the other side's value is c, the anchor's cell holds c"; the
   * anchor's exactly-one constraint then makes both sides equal.
   */
  family(law: Law, anchor: 'left' | 'right' | null): ClauseFamily {
    const builder = new FamilyBuilder();
    for (const name of law.variables) builder.variable(name);
    const { left, right } = law;
    if (anchor === null) {
      const main = (left.kind === 'application' ? left : right) as ApplicationTerm;
      const variable = (left.kind === 'variable' ? left : right) as VariableTerm;
      const cell = this.compute(main, builder, false);
      return builder.family({ ...cell, value: builder.variable(variable.name) });
    }
    const [fixed, other] = (anchor === 'left' ? [left, right] : [right, left]) as [ApplicationTerm, ApplicationTerm];
    const target = this.cell(fixed, builder);
    const cell = this.compute(other, builder, true);
    const c = builder.fresh();
    builder.premises.push({ ...cell, value: c });
    return builder.family({ ...target, value: c });
  }
}

/** The DIRECT flattening of a law as one clause family (see the module comment). */
function directFamily(law: Law, main: ApplicationTerm, other: Term, slotTerms: readonly Term[]): ClauseFamily {
  const k = law.variables.length;
  const variableIndex = new Map(law.variables.map((name, index) => [name, index]));
  const slotIndex = new Map(slotTerms.map((term, index) => [termKey(term), k + index]));
  const ref = (term: Term): Ref => (term.kind === 'variable' ? (variableIndex.get(term.name) as number) : (slotIndex.get(termKey(term)) as number));
  const atom = (term: ApplicationTerm, value: Ref): Atom => ({ fn: term.operation, args: term.args.map(ref), value });
  const premises = slotTerms.map((term) => atom(term as ApplicationTerm, ref(term)));
  // "If every slot holds its term's value, then": other(args) = value(main), or main(args) = the variable other.
  const conclusion = other.kind === 'application' ? atom(other, ref(main)) : atom(main, ref(other));
  return { width: k + slotTerms.length, premises, conclusion };
}

/** Plan the source laws' clauses: per law DIRECT or DEFINITIONAL as the problem asks (AUTO: fewer clauses). */
function lawPlan(problem: CountermodelProblem): LawPlan {
  const n = problem.order;
  const mode = problem.flattening ?? LawFlattening.AUTO;
  const planner = new DefinitionalPlanner(n);
  const laws = problem.laws.map((law): LawEncoding => {
    const flat = flattening(law);
    if (flat.kind !== 'CLAUSES') return flat;
    const direct = directFamily(law, flat.main, flat.other, flat.slotTerms);
    if (mode === LawFlattening.DIRECT) return { kind: 'CLAUSES', family: direct };
    const { cost, anchor } = planner.lawCost(law);
    if (mode === LawFlattening.AUTO && n ** direct.width <= cost) return { kind: 'CLAUSES', family: direct };
    return { kind: 'CLAUSES', family: planner.family(law, anchor) };
  });
  return { auxiliaries: planner.auxiliaries, laws };
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

/**
 * An upper bound on the clauses {@link encodeCountermodel} emits, computed without emitting
 * them, so oversized requests are refused before any work.
 */
export function estimateClauses(problem: CountermodelProblem): number {
  const n = problem.order;
  const plan = lawPlan(problem);
  let total = 0;
  for (const operation of problem.signature.operations) total += n ** operation.arity * exactlyOneClauses(n);
  total += problem.target.variables.length * exactlyOneClauses(n);
  total += symmetryCells(problem).length * n;
  for (const auxiliary of plan.auxiliaries) total += n ** auxiliary.arity * exactlyOneClauses(n) + n ** (auxiliary.definition as ClauseFamily).width;
  for (const law of plan.laws) total += law.kind === 'TRIVIAL' ? 0 : law.kind === 'DISTINCT_VARIABLES' ? 2 : n ** law.family.width;
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
  const plan = lawPlan(problem);
  const layout = layoutOf(problem, plan);
  const n = problem.order;
  const blockOf = new Map(layout.tables.map((block) => [block.operation, block]));
  /** The variable "fn(args) = value": cells in lexicographic order of their arguments. */
  const cellVariable = (fn: FunctionRef, args: ArrayLike<number>, value: number): number => {
    const first = typeof fn === 'string' ? (blockOf.get(fn) as TableBlock).first : (layout.auxiliaries[fn] as AuxiliaryBlock).first;
    let cell = 0;
    for (let i = 0; i < args.length; i++) cell = cell * n + (args[i] as number);
    return first + cell * n + value;
  };
  /** Every block of the layout is made of cells of n variables from 1: the cell of a variable. */
  const cellOf = (variable: number): number => Math.floor((variable - 1) / n);

  const sections = { tables: 0, witness: 0, symmetry: 0, auxiliary: 0, laws: 0, target: 0 };
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
  const witnessFirst = new Map(layout.witness.map((block) => [block.variable, block.first]));
  const sequence = symmetryCells(problem).map((cell) => ({
    ...cell,
    first: cell.kind === 'WITNESS' ? (witnessFirst.get(cell.name) as number) : (blockOf.get(cell.name) as TableBlock).first + cell.cell * n,
  }));
  sequence.forEach((cell, j) => {
    for (let v = 1; v < n; v++) {
      if (cell.floor >= v - 1) continue;
      const clause = [-(cell.first + v)];
      for (const earlier of sequence.slice(0, j)) for (let u = v - 1; u < n; u++) clause.push(earlier.first + u);
      put(clause);
    }
  });

  const negatives: number[] = [];
  const clause: number[] = [];
  const cellValue = new Map<number, number>();
  /** Emit a family's clauses, for every assignment of its element variables, the first most significant. */
  const emitFamily = (family: ClauseFamily): void => {
    const values = new Int32Array(family.width);
    const args: number[] = [];
    for (;;) {
      negatives.length = 0;
      cellValue.clear();
      let implied = false;
      for (const premise of family.premises) {
        args.length = 0;
        for (const r of premise.args) args.push(values[r] as number);
        const variable = cellVariable(premise.fn, args, values[premise.value] as number);
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
        const { conclusion } = family;
        args.length = 0;
        for (const r of conclusion.args) args.push(values[r] as number);
        const positive = cellVariable(conclusion.fn, args, values[conclusion.value] as number);
        if (!negatives.includes(positive)) {
          clause.length = 0;
          for (const variable of negatives) clause.push(-variable);
          clause.push(positive);
          put(clause);
        }
      }
      let position = family.width - 1;
      while (position >= 0 && (values[position] as number) === n - 1) values[position--] = 0;
      if (position < 0) return;
      values[position] = (values[position] as number) + 1;
    }
  };

  section = 'auxiliary';
  for (const block of layout.auxiliaries) for (let cell = 0; cell < block.cells; cell++) exactlyOne(block.first + cell * n);
  for (const auxiliary of plan.auxiliaries) emitFamily(auxiliary.definition as ClauseFamily);

  section = 'laws';
  for (const law of plan.laws) {
    if (law.kind === 'TRIVIAL') continue;
    if (law.kind === 'DISTINCT_VARIABLES') {
      // x = y with x ≠ y fails in every algebra of order ≥ 2. Say "false" as two contradicting
      // units rather than an input empty clause, which makes cadical write an empty DRAT proof.
      if (n >= 2) {
        put([1]);
        put([-1]);
      }
      continue;
    }
    emitFamily(law.family);
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
        lits.push(-cellVariable(term.operation, argValues, c), own + c);
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
