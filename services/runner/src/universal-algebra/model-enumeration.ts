/**
 * Every model of a set of laws at one order n, up to isomorphism: a backtracking search over the
 * cells of the operation tables in our own TypeScript (no solver).
 *
 * The search, as in Mace4:
 * - **Cells and decisions.** Each table entry is a cell; cells are decided in a fixed order (the
 *   constants, then every cell whose largest argument is 0, then 1, …), each over the values
 *   0 … n−1 that symmetry breaking allows.
 * - **Ground instances and propagation.** Each law is instantiated under all n^k assignments of
 *   its k variables. An instance is evaluated on the partial tables; when a side is blocked on an
 *   undecided cell the instance waits on that cell (it is re-evaluated once the cell is set),
 *   when one side is known and the other is blocked only at its outermost operation the missing
 *   cell is deduced, and when both sides are known and differ the branch fails. Every instance is
 *   fully evaluated by the time all cells are set, so every complete assignment reached is a model.
 * - **Symmetry breaking.** When a cell is decided, two values are equivalent when a permutation
 *   of the elements maps the set cells onto themselves (relabelled), fixes this cell's arguments
 *   and maps one value to the other: it maps the models of one branch onto those of the other,
 *   isomorphically. Only the least value of each class is tried, so every isomorphism class keeps
 *   a labelling in the tree. The classes are joined from two groups of such permutations: those
 *   fixing every element mentioned so far (the least-number heuristic of Mace4: all unmentioned
 *   elements are interchangeable), and a subgroup of the stabilizer of the partial tables kept
 *   along the branch (each node filters its parent's list), which catches symmetries of cells
 *   set by deduction, such as the identity row of a group.
 * - **Isomorphism classes.** Each model reached is given colours that every isomorphism
 *   preserves (by refinement over the tables), and relabelled by every permutation that gives
 *   the colours consecutive labels in increasing colour order; the least table under these
 *   relabellings is its canonical form, and the number of relabellings that reach it is the order
 *   of its automorphism group. Two models are isomorphic exactly when their canonical forms are
 *   equal, so the distinct forms are the classes.
 *
 * Cells of a model are laid out flat, operation by operation in signature order: a constant is
 * one cell, a unary operation n cells `f(a)`, a binary one n² cells `a·n + b` (row = left).
 */
import type { Law, Signature, Term } from '@jacobian/shared';

/** Largest order enumerated: the stabilizer at the root, and canonical forms at worst, go through all n! permutations. */
export const MAX_ENUMERATION_ORDER = 8;
/** Most ground instances (assignments of every law's variables, summed over the laws). */
export const MAX_ENUMERATION_INSTANCES = 1 << 20;

/** What to enumerate. */
export interface EnumerationProblem {
  readonly signature: Signature;
  readonly laws: readonly Law[];
  readonly order: number;
}

/** Options of {@link enumerateModels}. */
export interface EnumerationOptions {
  /** Stop once this many isomorphism classes are listed and another one is found. */
  readonly maxModels: number;
  /** Polled every few thousand search steps; true stops the search (a deadline has come). */
  readonly shouldStop?: () => boolean;
}

/** One isomorphism class: its canonical labelling and the order of its automorphism group. */
export interface EnumeratedModel {
  /** The canonical tables as flat cells (see the file comment for the layout). */
  readonly cells: readonly number[];
  readonly automorphisms: number;
}

/** Why a search ended early; null when it covered the whole tree. */
export type EnumerationStop = 'MODEL_LIMIT' | 'DEADLINE' | null;

/** The classes found, in increasing order of their canonical cells. */
export interface EnumerationResult {
  readonly models: EnumeratedModel[];
  /** null: the list is complete. MODEL_LIMIT: more than `maxModels` classes exist. DEADLINE: the search was stopped. */
  readonly stopped: EnumerationStop;
  /** Decisions made (values tried at decided cells). */
  readonly decisions: number;
  /** Complete assignments reached: models, several of which may be isomorphic. */
  readonly leaves: number;
  /** Σ n!/|Aut| over the listed classes: how many models on the labelled set 0 … n−1 they account for. */
  readonly labelledCount: number;
}

/** Where each operation's cells sit in the flat layout. */
export interface CellLayout {
  readonly order: number;
  readonly operations: readonly { readonly name: string; readonly arity: 0 | 1 | 2; readonly base: number }[];
  /** Total number of cells. */
  readonly cells: number;
}

/** The flat cell layout of a signature's tables at order n. */
export function cellLayout(signature: Signature, order: number): CellLayout {
  let base = 0;
  const operations = signature.operations.map((operation) => {
    const entry = { name: operation.name, arity: operation.arity, base };
    base += order ** operation.arity;
    return entry;
  });
  return { order, operations, cells: base };
}

/** How many ground instances the laws have at order n (n^k per law with k variables). */
export function instanceCount(laws: readonly Law[], order: number): number {
  return laws.reduce((sum, law) => sum + order ** law.variables.length, 0);
}

const PUSH_VARIABLE = 0;
const CONSTANT = 1;
const UNARY = 2;
const BINARY = 3;

/** A law side as postfix code: [opcode, operand] pairs; operands are variable slots or cell bases. */
function compileSide(term: Term, slots: ReadonlyMap<string, number>, bases: ReadonlyMap<string, number>): Int32Array {
  const code: number[] = [];
  const emit = (t: Term): void => {
    if (t.kind === 'variable') {
      code.push(PUSH_VARIABLE, slots.get(t.name) as number);
      return;
    }
    for (const arg of t.args) emit(arg);
    code.push(t.args.length === 0 ? CONSTANT : t.args.length === 1 ? UNARY : BINARY, bases.get(t.operation) as number);
  };
  emit(term);
  return Int32Array.from(code);
}

function termDepth(term: Term): number {
  return term.kind === 'variable' ? 1 : 1 + Math.max(0, ...term.args.map(termDepth));
}

/** All permutations of 0 … n−1 in lexicographic order, flat (n entries each). */
function permutations(n: number): Uint8Array {
  const count = factorial(n);
  const out = new Uint8Array(count * n);
  const current = Array.from({ length: n }, (_, i) => i);
  for (let index = 0; index < count; index++) {
    out.set(current, index * n);
    // Next permutation in lexicographic order.
    let i = n - 2;
    while (i >= 0 && (current[i] as number) > (current[i + 1] as number)) i--;
    if (i < 0) break;
    let j = n - 1;
    while ((current[j] as number) < (current[i] as number)) j--;
    [current[i], current[j]] = [current[j] as number, current[i] as number];
    for (let a = i + 1, b = n - 1; a < b; a++, b--) [current[a], current[b]] = [current[b] as number, current[a] as number];
  }
  return out;
}

/** n! for the small n this module handles. */
export function factorial(n: number): number {
  let product = 1;
  for (let i = 2; i <= n; i++) product *= i;
  return product;
}

/** One step of a 32-bit multiplicative hash (the colour descriptions of {@link ModelSearch}). */
function mix(hash: number, value: number): number {
  return Math.imul(hash ^ value, 0x01000193) >>> 0;
}

/** How often (in decisions and leaves) the search polls `shouldStop`. */
const POLL_INTERVAL = 1024;

/**
 * The search state. Hot loops use typed arrays and plain fields; everything undone on
 * backtracking is on a trail (assigned cells, watch-list pushes).
 */
class ModelSearch {
  private readonly n: number;
  private readonly cellCount: number;
  /** Value of each cell, −1 while undecided. */
  private readonly cells: Int32Array;
  /** Arguments of each cell (−1 when absent), and the first cell of its operation. */
  private readonly argA: Int32Array;
  private readonly argB: Int32Array;
  private readonly cellBase: Int32Array;
  /** Union-find over the values of one decision (see {@link search}). */
  private readonly parent: Int32Array;
  /** How many set cells mention each element (as an argument or the value). */
  private readonly mentions: Int32Array;
  /** The decision order. */
  private readonly decisionOrder: Int32Array;
  /** Per law: compiled sides, variable count, first instance id. */
  private readonly lawLeft: Int32Array[];
  private readonly lawRight: Int32Array[];
  private readonly lawArity: Int32Array;
  private readonly lawStart: Int32Array;
  /** Law of each instance id. */
  private readonly instanceLaw: Uint16Array;
  /** Instances waiting on each cell (see the file comment). */
  private readonly watches: number[][];
  private readonly trail: number[] = [];
  private readonly watchTrail: number[] = [];
  private readonly queue: number[] = [];
  private readonly values: Int32Array;
  private readonly stack: Int32Array;
  /** Set by {@link evaluate} when it returns −1: the cell it is blocked on, and whether that is the side's outermost operation. */
  private blockedCell = -1;
  private blockedAtRoot = false;

  // Canonical forms.
  private readonly perms: Uint8Array;
  /** Per encoding position: the base of its operation and its new-label arguments (−1 when absent). */
  private readonly positionBase: Int32Array;
  private readonly positionA: Int32Array;
  private readonly positionB: Int32Array;
  private readonly best: Int32Array;
  private readonly candidate: Int32Array;
  private readonly newToOld: Int32Array;
  private readonly oldToNew: Int32Array;
  private readonly permutationsBySize = new Map<number, Uint8Array>();
  /** Scratch of {@link colours}. */
  private readonly hits: Int32Array;
  private readonly colour: Int32Array;
  private readonly hashes: Uint32Array;
  private readonly histogram: Int32Array;
  private readonly layout: CellLayout;

  private readonly classes = new Map<string, EnumeratedModel>();
  private decisions = 0;
  private leaves = 0;
  private sincePoll = 0;
  private stopped: EnumerationStop = null;

  constructor(
    problem: EnumerationProblem,
    private readonly options: EnumerationOptions,
  ) {
    const n = problem.order;
    this.n = n;
    const layout = cellLayout(problem.signature, n);
    this.layout = layout;
    this.cellCount = layout.cells;
    this.cells = new Int32Array(layout.cells).fill(-1);
    this.argA = new Int32Array(layout.cells).fill(-1);
    this.argB = new Int32Array(layout.cells).fill(-1);
    this.cellBase = new Int32Array(layout.cells);
    this.parent = new Int32Array(n);
    const keys: { cell: number; key: [number, number, number] }[] = [];
    for (const [opIndex, operation] of layout.operations.entries()) {
      const size = n ** operation.arity;
      for (let index = 0; index < size; index++) {
        const cell = operation.base + index;
        this.cellBase[cell] = operation.base;
        let top = -1;
        if (operation.arity === 1) {
          this.argA[cell] = index;
          top = index;
        } else if (operation.arity === 2) {
          const a = Math.floor(index / n);
          const b = index % n;
          this.argA[cell] = a;
          this.argB[cell] = b;
          top = Math.max(a, b);
        }
        keys.push({ cell, key: [top, opIndex, index] });
      }
    }
    keys.sort((x, y) => x.key[0] - y.key[0] || x.key[1] - y.key[1] || x.key[2] - y.key[2]);
    this.decisionOrder = Int32Array.from(keys.map((k) => k.cell));
    this.mentions = new Int32Array(n);
    this.watches = Array.from({ length: layout.cells }, () => []);

    const bases = new Map(layout.operations.map((operation) => [operation.name, operation.base]));
    this.lawLeft = [];
    this.lawRight = [];
    this.lawArity = new Int32Array(problem.laws.length);
    this.lawStart = new Int32Array(problem.laws.length + 1);
    let maxDepth = 1;
    let maxVariables = 0;
    for (const [index, law] of problem.laws.entries()) {
      const slots = new Map(law.variables.map((name, slot) => [name, slot]));
      this.lawLeft.push(compileSide(law.left, slots, bases));
      this.lawRight.push(compileSide(law.right, slots, bases));
      this.lawArity[index] = law.variables.length;
      this.lawStart[index + 1] = (this.lawStart[index] as number) + n ** law.variables.length;
      maxDepth = Math.max(maxDepth, termDepth(law.left), termDepth(law.right));
      maxVariables = Math.max(maxVariables, law.variables.length);
    }
    const instances = this.lawStart[problem.laws.length] as number;
    this.instanceLaw = new Uint16Array(instances);
    for (let law = 0; law < problem.laws.length; law++) this.instanceLaw.fill(law, this.lawStart[law], this.lawStart[law + 1]);
    this.values = new Int32Array(Math.max(1, maxVariables));
    // Postfix evaluation of a binary tree of depth d never holds more than d values.
    this.stack = new Int32Array(maxDepth + 1);

    this.perms = permutations(n);
    this.positionBase = new Int32Array(layout.cells);
    this.positionA = new Int32Array(layout.cells).fill(-1);
    this.positionB = new Int32Array(layout.cells).fill(-1);
    for (const operation of layout.operations) {
      const size = n ** operation.arity;
      for (let index = 0; index < size; index++) {
        const position = operation.base + index;
        this.positionBase[position] = operation.base;
        if (operation.arity === 1) this.positionA[position] = index;
        if (operation.arity === 2) {
          this.positionA[position] = Math.floor(index / n);
          this.positionB[position] = index % n;
        }
      }
    }
    this.best = new Int32Array(layout.cells);
    this.candidate = new Int32Array(layout.cells);
    this.newToOld = new Int32Array(n);
    this.oldToNew = new Int32Array(n);
    this.hits = new Int32Array(layout.operations.length * n);
    this.colour = new Int32Array(n);
    this.hashes = new Uint32Array(n);
    this.histogram = new Int32Array(2 * n);
  }

  run(): EnumerationResult {
    const instances = this.instanceLaw.length;
    let consistent = true;
    // Level 0: every instance is evaluated once on the empty tables; these watches are never undone.
    for (let id = 0; id < instances && consistent; id++) consistent = this.processInstance(id);
    if (consistent) consistent = this.propagate();
    if (consistent) {
      const all = Int32Array.from({ length: factorial(this.n) }, (_, index) => index * this.n);
      this.search(0, this.stabilizing(all));
    }
    const models = [...this.classes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, model]) => model);
    const total = factorial(this.n);
    return {
      models,
      stopped: this.stopped,
      decisions: this.decisions,
      leaves: this.leaves,
      labelledCount: models.reduce((sum, model) => sum + total / model.automorphisms, 0),
    };
  }

  private poll(): boolean {
    if (this.stopped !== null) return true;
    if (++this.sincePoll >= POLL_INTERVAL) {
      this.sincePoll = 0;
      if (this.options.shouldStop?.() === true) this.stopped = 'DEADLINE';
    }
    return this.stopped !== null;
  }

  /**
   * The permutations among `group` (offsets into {@link perms}) that map the set cells onto
   * themselves, values relabelled; null when only the identity is left. A subgroup of the
   * stabilizer of the partial tables, which is all that symmetry breaking below needs.
   */
  private stabilizing(group: Int32Array): Int32Array | null {
    const kept: number[] = [];
    const n = this.n;
    for (const offset of group) {
      let fixes = true;
      for (const cell of this.trail) {
        const a = this.argA[cell] as number;
        const b = this.argB[cell] as number;
        const image =
          (this.cellBase[cell] as number) +
          (a < 0 ? 0 : b < 0 ? (this.perms[offset + a] as number) : (this.perms[offset + a] as number) * n + (this.perms[offset + b] as number));
        if ((this.cells[image] as number) !== (this.perms[offset + (this.cells[cell] as number)] as number)) {
          fixes = false;
          break;
        }
      }
      if (fixes) kept.push(offset);
    }
    return kept.length <= 1 ? null : Int32Array.from(kept);
  }

  private find(value: number): number {
    let root = value;
    while ((this.parent[root] as number) !== root) root = this.parent[root] as number;
    return root;
  }

  private union(x: number, y: number): void {
    const rx = this.find(x);
    const ry = this.find(y);
    // The smaller element represents its class, so the least value of each class is tried.
    if (rx < ry) this.parent[ry] = rx;
    else if (ry < rx) this.parent[rx] = ry;
  }

  /**
   * Decide the next undecided cell, trying one value of each class of values that a
   * permutation fixing the set cells and this cell's arguments exchanges: all values never
   * mentioned so far (least-number heuristic), and the orbits of `group`, a subgroup of the
   * stabilizer of the partial tables (null: only the identity).
   */
  private search(from: number, group: Int32Array | null): void {
    let position = from;
    while (position < this.cellCount && (this.cells[this.decisionOrder[position] as number] as number) >= 0) position++;
    if (position === this.cellCount) {
      this.leaf();
      return;
    }
    const n = this.n;
    const cell = this.decisionOrder[position] as number;
    const a = this.argA[cell] as number;
    const b = this.argB[cell] as number;
    for (let e = 0; e < n; e++) this.parent[e] = e;
    let fresh = -1;
    for (let e = 0; e < n; e++) {
      if ((this.mentions[e] as number) === 0 && e !== a && e !== b) {
        if (fresh < 0) fresh = e;
        else this.union(fresh, e);
      }
    }
    if (group !== null) {
      for (const offset of group) {
        if ((a >= 0 && (this.perms[offset + a] as number) !== a) || (b >= 0 && (this.perms[offset + b] as number) !== b)) continue;
        for (let e = 0; e < n; e++) this.union(e, this.perms[offset + e] as number);
      }
    }
    // The recursion below reuses the union-find, so the values to try are taken out first.
    const tried: number[] = [];
    for (let value = 0; value < n; value++) if (this.find(value) === value) tried.push(value);
    for (const value of tried) {
      if (this.poll()) return;
      this.decisions++;
      const trailMark = this.trail.length;
      const watchMark = this.watchTrail.length;
      this.assign(cell, value);
      if (this.propagate()) this.search(position + 1, group === null ? null : this.stabilizing(group));
      this.undo(trailMark, watchMark);
      if (this.stopped !== null) return;
    }
  }

  private assign(cell: number, value: number): void {
    this.cells[cell] = value;
    this.trail.push(cell);
    (this.mentions[value] as number)++;
    const a = this.argA[cell] as number;
    const b = this.argB[cell] as number;
    if (a >= 0) (this.mentions[a] as number)++;
    if (b >= 0) (this.mentions[b] as number)++;
    this.queue.push(cell);
  }

  private undo(trailMark: number, watchMark: number): void {
    while (this.watchTrail.length > watchMark) (this.watches[this.watchTrail.pop() as number] as number[]).pop();
    while (this.trail.length > trailMark) {
      const cell = this.trail.pop() as number;
      (this.mentions[this.cells[cell] as number] as number)--;
      const a = this.argA[cell] as number;
      const b = this.argB[cell] as number;
      if (a >= 0) (this.mentions[a] as number)--;
      if (b >= 0) (this.mentions[b] as number)--;
      this.cells[cell] = -1;
    }
  }

  /** Re-evaluate the instances waiting on each newly set cell; false on a contradiction. */
  private propagate(): boolean {
    while (this.queue.length > 0) {
      const cell = this.queue.pop() as number;
      const waiting = this.watches[cell] as number[];
      // Nothing is pushed onto a set cell's list, so its length is fixed while we walk it.
      for (let i = 0; i < waiting.length; i++) {
        if (!this.processInstance(waiting[i] as number)) {
          this.queue.length = 0;
          return false;
        }
      }
    }
    return true;
  }

  private watch(cell: number, id: number): void {
    (this.watches[cell] as number[]).push(id);
    this.watchTrail.push(cell);
  }

  /**
   * Evaluate one instance on the partial tables: false when its sides differ; otherwise it is
   * satisfied, or a missing outermost cell is deduced, or it waits on the first cell it is blocked on.
   */
  private processInstance(id: number): boolean {
    const law = this.instanceLaw[id] as number;
    let index = id - (this.lawStart[law] as number);
    const n = this.n;
    for (let slot = (this.lawArity[law] as number) - 1; slot >= 0; slot--) {
      this.values[slot] = index % n;
      index = Math.floor(index / n);
    }
    const left = this.evaluate(this.lawLeft[law] as Int32Array);
    if (left < 0) {
      const cell = this.blockedCell;
      if (this.blockedAtRoot) {
        const right = this.evaluate(this.lawRight[law] as Int32Array);
        if (right >= 0) {
          this.assign(cell, right);
          return true;
        }
      }
      this.watch(cell, id);
      return true;
    }
    const right = this.evaluate(this.lawRight[law] as Int32Array);
    if (right >= 0) return left === right;
    if (this.blockedAtRoot) {
      this.assign(this.blockedCell, left);
      return true;
    }
    this.watch(this.blockedCell, id);
    return true;
  }

  /** Value of a compiled side under {@link values}, or −1 with {@link blockedCell} set. */
  private evaluate(code: Int32Array): number {
    const stack = this.stack;
    const cells = this.cells;
    const n = this.n;
    let top = 0;
    for (let pc = 0; pc < code.length; pc += 2) {
      const opcode = code[pc] as number;
      const operand = code[pc + 1] as number;
      if (opcode === PUSH_VARIABLE) {
        stack[top++] = this.values[operand] as number;
        continue;
      }
      let cell: number;
      if (opcode === CONSTANT) {
        cell = operand;
        top++;
      } else if (opcode === UNARY) {
        cell = operand + (stack[top - 1] as number);
      } else {
        const b = stack[--top] as number;
        cell = operand + (stack[top - 1] as number) * n + b;
      }
      const value = cells[cell] as number;
      if (value < 0) {
        this.blockedCell = cell;
        this.blockedAtRoot = pc + 2 === code.length;
        return -1;
      }
      stack[top - 1] = value;
    }
    return stack[0] as number;
  }

  /**
   * Colours of the elements of the complete model in {@link cells} that every isomorphism
   * preserves (ranks 0 … c−1): start from one colour and refine by, per operation, how often the
   * element is a value, whether it is the constant, the colours of f(a) and a∘a, and how many
   * entries of each colour its row and column hold, until the number of colours stops growing.
   * Each description is hashed to a number; ranks come from sorting the hashes, so they depend on
   * the structure only, not on the labels (a hash collision merely merges two colours).
   */
  private colours(): Int32Array {
    const n = this.n;
    const cells = this.cells;
    const hits = this.hits;
    hits.fill(0);
    for (const [index, operation] of this.layout.operations.entries()) {
      const size = n ** operation.arity;
      for (let cell = 0; cell < size; cell++) (hits[index * n + (cells[operation.base + cell] as number)] as number)++;
    }
    const colour = this.colour;
    colour.fill(0);
    const hashes = this.hashes;
    const histogram = this.histogram;
    let classes = 1;
    for (let round = 0; round < n; round++) {
      for (let a = 0; a < n; a++) {
        let h = mix(0x9e3779b9, colour[a] as number);
        for (const [index, operation] of this.layout.operations.entries()) {
          const base = operation.base;
          h = mix(h, hits[index * n + a] as number);
          if (operation.arity === 0) {
            h = mix(h, (cells[base] as number) === a ? 1 : 0);
          } else if (operation.arity === 1) {
            h = mix(h, colour[cells[base + a] as number] as number);
          } else {
            h = mix(h, colour[cells[base + a * n + a] as number] as number);
            histogram.fill(0);
            for (let b = 0; b < n; b++) {
              (histogram[colour[cells[base + a * n + b] as number] as number] as number)++;
              (histogram[n + (colour[cells[base + b * n + a] as number] as number)] as number)++;
            }
            for (let c = 0; c < 2 * n; c++) h = mix(h, histogram[c] as number);
          }
        }
        hashes[a] = h;
      }
      const distinct = [...new Set(hashes)].sort((x, y) => x - y);
      for (let a = 0; a < n; a++) colour[a] = distinct.indexOf(hashes[a] as number);
      if (distinct.length === classes) break;
      classes = distinct.length;
    }
    return colour;
  }

  /** The permutations of 0 … k−1, flat, computed once per k. */
  private blockPermutations(k: number): Uint8Array {
    let table = this.permutationsBySize.get(k);
    if (table === undefined) {
      table = permutations(k);
      this.permutationsBySize.set(k, table);
    }
    return table;
  }

  /**
   * A complete model: reduce it to its canonical form and record its class. The canonical form
   * is the least relabelled table over the relabellings that give the elements of each colour
   * (see {@link colours}) consecutive labels, colours in increasing order; every isomorphism
   * maps colours to colours, so this is a canonical form, and the relabellings reaching it are
   * as many as the automorphisms.
   */
  private leaf(): void {
    this.leaves++;
    if (this.poll()) return;
    const n = this.n;
    const colour = this.colours();
    const sorted = Array.from({ length: n }, (_, e) => e).sort((x, y) => (colour[x] as number) - (colour[y] as number) || x - y);
    const starts: number[] = [];
    for (let i = 0; i < n; i++) if (i === 0 || colour[sorted[i] as number] !== colour[sorted[i - 1] as number]) starts.push(i);
    starts.push(n);
    const blocks = starts.length - 1;
    const chosen = new Int32Array(blocks);
    const p = this.newToOld;
    const q = this.oldToNew;
    const place = (block: number): void => {
      const start = starts[block] as number;
      const k = (starts[block + 1] as number) - start;
      const table = this.blockPermutations(k);
      const offset = (chosen[block] as number) * k;
      for (let t = 0; t < k; t++) {
        const element = sorted[start + (table[offset + t] as number)] as number;
        p[start + t] = element;
        q[element] = start + t;
      }
    };
    for (let block = 0; block < blocks; block++) place(block);
    const size = this.cellCount;
    const cells = this.cells;
    const best = this.best;
    const candidate = this.candidate;
    let automorphisms = 0;
    for (;;) {
      let order = automorphisms === 0 ? -1 : 0;
      let position = 0;
      for (; position < size; position++) {
        const a = this.positionA[position] as number;
        const b = this.positionB[position] as number;
        const source = (this.positionBase[position] as number) + (a < 0 ? 0 : b < 0 ? (p[a] as number) : (p[a] as number) * n + (p[b] as number));
        const value = q[cells[source] as number] as number;
        candidate[position] = value;
        if (order === 0) {
          const held = best[position] as number;
          if (value > held) break;
          if (value < held) order = -1;
        }
      }
      if (position === size) {
        if (order === -1) {
          best.set(candidate);
          automorphisms = 1;
        } else {
          automorphisms++;
        }
      }
      // Next relabelling: an odometer over the permutations of each colour block.
      let block = blocks - 1;
      for (; block >= 0; block--) {
        const k = (starts[block + 1] as number) - (starts[block] as number);
        chosen[block] = (chosen[block] as number) + 1;
        if ((chosen[block] as number) < factorial(k)) {
          place(block);
          break;
        }
        chosen[block] = 0;
        place(block);
      }
      if (block < 0) break;
    }
    let key = '';
    for (let position = 0; position < size; position++) key += String.fromCharCode(48 + (best[position] as number));
    if (this.classes.has(key)) return;
    if (this.classes.size >= this.options.maxModels) {
      this.stopped = 'MODEL_LIMIT';
      return;
    }
    this.classes.set(key, { cells: Array.from(best), automorphisms });
  }
}

/**
 * Every model of the laws at the problem's order, up to isomorphism (see the file comment for
 * the method). Runs synchronously; `options.shouldStop` is how a deadline reaches it.
 *
 * @example
 * enumerateModels({ signature, laws: [parseLaw('x * (y * z) = (x * y) * z', signature)], order: 3 }, { maxModels: 1000 }).models.length; // 24
 */
export function enumerateModels(problem: EnumerationProblem, options: EnumerationOptions): EnumerationResult {
  return new ModelSearch(problem, options).run();
}
