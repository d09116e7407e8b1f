/**
 * Our own finite model search for "an algebra of order n that satisfies the source laws and
 * violates the target law", in the style of SEM and MACE4: backtracking over table cells, with
 * ground law instances propagated as cells get fixed and the least-number heuristic against
 * isomorphic copies. It is fast on the small orders where a countermodel usually sits, so a
 * countermodel search need not start a SAT solver for them; every model it returns is still
 * rechecked by the independent evaluator before anyone sees it.
 *
 * Cells. Every table cell (a constant's one cell, f(a), a ∘ b) and one "witness" cell per
 * variable of the target law (the assignment under which the target must fail, as Skolem
 * constants) is a cell with a value in 0 … n−1 or unknown.
 *
 * Propagation. Every source law becomes its n^k ground instances (one per assignment of its k
 * variables). An instance is evaluated as far as the known cells allow: when both sides are
 * known they must agree (else: conflict); when one side is known and the other stops only at its
 * outermost cell, that cell is forced to the known value; otherwise the instance waits on the
 * first unknown cell it met (a watch list per cell, undone on backtracking). The target's one
 * ground instance over the witness cells must end with two different values.
 *
 * Least-number heuristic (LEAST_NUMBER). Let m be the largest element mentioned by the cells
 * fixed so far (as an argument or a value; −1 when none). The partial assignment is unchanged
 * by any permutation of the elements above m, and the laws mention no elements. So when a cell
 * whose arguments are at most m' = max(m, its own arguments) is decided, the values above
 * m' + 1 lead to subtrees that the transposition with m' + 1 maps onto the subtree of m' + 1;
 * only 0 … m' + 1 are tried. Every countermodel has an isomorphic copy the search reaches, and
 * isomorphisms preserve which laws hold and carry a violating assignment to a violating one.
 * With NONE every value of every cell is tried.
 */
import type { Law, Signature, Term } from '@jacobian/shared';
import type { OperationTable } from '@jacobian/shared';
import { SymmetryBreaking } from './cnf-encoding.js';

/** What the search is asked: the same problem as the CNF encoding's. */
export interface FiniteModelProblem {
  readonly signature: Signature;
  readonly laws: readonly Law[];
  readonly target: Law;
  readonly order: number;
  readonly symmetryBreaking: SymmetryBreaking;
}

/** Bounds of one search. */
export interface FiniteModelSearchOptions {
  /** performance.now() value at which the search gives up (GAVE_UP); checked every few hundred nodes. */
  stopAt: number;
  /** Largest number of decisions before giving up. */
  maxNodes?: number;
  /** Called every few hundred nodes; may throw to stop (cancellation). */
  checkpoint?: () => void;
  /** Clock, for tests. */
  now?: () => number;
}

/** How a search ended. */
export type FiniteModelSearchResult =
  | { readonly kind: 'FOUND'; readonly tables: Record<string, OperationTable>; readonly witness: Record<string, number>; readonly nodes: number }
  | { readonly kind: 'NONE'; readonly nodes: number }
  | { readonly kind: 'GAVE_UP'; readonly nodes: number; readonly why: 'TIME' | 'NODES' };

/** Ground instances beyond this are not built in one search (their memory and first pass). */
export const MAX_GROUND_INSTANCES = 400_000;

/** A one-sentence statement of what the search assumes about labellings. */
export function searchSymmetryStatement(method: SymmetryBreaking): string {
  return method === SymmetryBreaking.NONE
    ? 'none: every value of every table cell and witness element was tried'
    : 'least-number heuristic: when a cell whose arguments are at most m (the largest element mentioned so far by fixed cells, or by its own arguments) is decided, only the values 0 … m + 1 are tried; the elements above m are interchangeable at that point, so every countermodel keeps an isomorphic copy in the search, and isomorphisms preserve laws and violations';
}

/** How many ground instances the laws of `problem` have: Σ n^k. */
export function groundInstances(laws: readonly Law[], order: number): number {
  return laws.reduce((sum, law) => sum + order ** law.variables.length, 0);
}

// Opcodes of compiled sides: [opcode, operand] pairs in postfix order.
const VARIABLE = 0;
const WITNESS = 1;
const APPLY0 = 2;
const APPLY1 = 3;
const APPLY2 = 4;

const CHECK_INTERVAL = 256;

/**
 * Search for a countermodel of one order. Deterministic: the same problem gives the same model.
 *
 * @returns FOUND with the tables (request form) and the witness assignment of the target's
 *   variables; NONE when the search space is exhausted; GAVE_UP at `stopAt` or `maxNodes`.
 * @throws whatever `options.checkpoint` throws.
 */
export function searchFiniteModel(problem: FiniteModelProblem, options: FiniteModelSearchOptions): FiniteModelSearchResult {
  const n = problem.order;
  const now = options.now ?? (() => performance.now());
  const maxNodes = options.maxNodes ?? Number.MAX_SAFE_INTEGER;
  const operations = problem.signature.operations;
  const opIndex = new Map(operations.map((operation, index) => [operation.name, index]));

  // Cells: the tables in declaration order, then the witness cells.
  const base = new Int32Array(operations.length);
  let cellCount = 0;
  operations.forEach((operation, index) => {
    base[index] = cellCount;
    cellCount += n ** operation.arity;
  });
  const witnessBase = cellCount;
  const targetVariables = problem.target.variables;
  cellCount += targetVariables.length;
  /** The largest argument of each cell (−1 for constants and witness cells). */
  const maxArg = new Int32Array(cellCount).fill(-1);
  operations.forEach((operation, index) => {
    const first = base[index] as number;
    if (operation.arity === 1) for (let a = 0; a < n; a++) maxArg[first + a] = a;
    if (operation.arity === 2) for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) maxArg[first + a * n + b] = Math.max(a, b);
  });

  // Static decision order: constants and witness cells, then by largest argument (unary operations first, then binary ones, each in declaration order).
  const decisionOrder: number[] = [];
  operations.forEach((operation, index) => {
    if (operation.arity === 0) decisionOrder.push(base[index] as number);
  });
  for (let w = 0; w < targetVariables.length; w++) decisionOrder.push(witnessBase + w);
  for (let m = 0; m < n; m++) {
    // Unary cells before binary ones: f(m) often fixes which binary cell a law instance needs.
    operations.forEach((operation, index) => {
      if (operation.arity === 1) decisionOrder.push((base[index] as number) + m);
    });
    operations.forEach((operation, index) => {
      const first = base[index] as number;
      if (operation.arity === 2) {
        for (let b = 0; b <= m; b++) decisionOrder.push(first + m * n + b);
        for (let a = 0; a < m; a++) decisionOrder.push(first + a * n + m);
      }
    });
  }

  const compile = (term: Term, variableSlot: ReadonlyMap<string, number>, witness: boolean): Int32Array => {
    const code: number[] = [];
    const emit = (t: Term): void => {
      if (t.kind === 'variable') {
        code.push(witness ? WITNESS : VARIABLE, variableSlot.get(t.name) as number);
        return;
      }
      for (const arg of t.args) emit(arg);
      code.push(t.args.length === 0 ? APPLY0 : t.args.length === 1 ? APPLY1 : APPLY2, opIndex.get(t.operation) as number);
    };
    emit(term);
    return Int32Array.from(code);
  };

  // Instances: source-law instances first (0 … lawInstances−1), the target's one instance last.
  const laws = problem.laws;
  const leftCode: Int32Array[] = [];
  const rightCode: Int32Array[] = [];
  const lawInstances = groundInstances(laws, n);
  const instanceLaw = new Int32Array(lawInstances + 1);
  const instanceValues: number[] = [];
  const instanceOffset = new Int32Array(lawInstances + 1);
  let instance = 0;
  let maxCode = 0;
  laws.forEach((law, index) => {
    const slots = new Map(law.variables.map((name, slot) => [name, slot]));
    leftCode.push(compile(law.left, slots, false));
    rightCode.push(compile(law.right, slots, false));
    maxCode = Math.max(maxCode, leftCode[index]?.length ?? 0, rightCode[index]?.length ?? 0);
    const k = law.variables.length;
    const digits = new Array<number>(k).fill(0);
    for (let count = n ** k; count > 0; count--) {
      instanceLaw[instance] = index;
      instanceOffset[instance] = instanceValues.length;
      instanceValues.push(...digits);
      instance++;
      let position = k - 1;
      while (position >= 0 && digits[position] === n - 1) digits[position--] = 0;
      if (position >= 0) digits[position] = (digits[position] as number) + 1;
    }
  });
  const targetSlots = new Map(targetVariables.map((name, slot) => [name, slot]));
  const targetInstance = lawInstances;
  instanceLaw[targetInstance] = laws.length;
  leftCode.push(compile(problem.target.left, targetSlots, true));
  rightCode.push(compile(problem.target.right, targetSlots, true));
  maxCode = Math.max(maxCode, leftCode[laws.length]?.length ?? 0, rightCode[laws.length]?.length ?? 0);
  const assignments = Int32Array.from(instanceValues);
  const instanceCount = lawInstances + 1;

  // State.
  const values = new Int32Array(cellCount).fill(-1);
  const watch: number[][] = Array.from({ length: cellCount }, () => []);
  const watchLength = new Int32Array(cellCount);
  const stack = new Int32Array(maxCode / 2 + 1);
  const assignedTrail = new Int32Array(cellCount);
  let assignedTop = 0;
  // Each instance sits in at most one live list; appends are undone in reverse.
  let watchTrail = new Int32Array(Math.max(1024, instanceCount * 2));
  let watchTop = 0;
  const queue = new Int32Array(cellCount);
  let queueHead = 0;
  let queueTail = 0;
  let mentioned = -1;
  const useLnh = problem.symmetryBreaking === SymmetryBreaking.LEAST_NUMBER;

  let blockedCell = -1;
  let blockedTop = false;

  /** Value of one side of an instance, or −1 with blockedCell/blockedTop set. */
  const evaluateSide = (code: Int32Array, offset: number): number => {
    let top = 0;
    const last = code.length - 2;
    for (let pc = 0; pc < code.length; pc += 2) {
      const opcode = code[pc] as number;
      const operand = code[pc + 1] as number;
      if (opcode === VARIABLE) {
        stack[top++] = assignments[offset + operand] as number;
        continue;
      }
      let cell: number;
      if (opcode === WITNESS) {
        cell = witnessBase + operand;
      } else if (opcode === APPLY0) {
        cell = base[operand] as number;
      } else if (opcode === APPLY1) {
        cell = (base[operand] as number) + (stack[--top] as number);
      } else {
        const b = stack[--top] as number;
        const a = stack[--top] as number;
        cell = (base[operand] as number) + a * n + b;
      }
      const value = values[cell] as number;
      if (value < 0) {
        blockedCell = cell;
        blockedTop = opcode !== WITNESS && pc === last;
        return -1;
      }
      stack[top++] = value;
    }
    return stack[0] as number;
  };

  const addWatch = (cell: number, id: number): void => {
    const list = watch[cell] as number[];
    const length = watchLength[cell] as number;
    if (length < list.length) list[length] = id;
    else list.push(id);
    watchLength[cell] = length + 1;
    if (watchTop === watchTrail.length) {
      const grown = new Int32Array(watchTrail.length * 2);
      grown.set(watchTrail);
      watchTrail = grown;
    }
    watchTrail[watchTop++] = cell;
  };

  const assign = (cell: number, value: number): boolean => {
    const current = values[cell] as number;
    if (current >= 0) return current === value;
    values[cell] = value;
    assignedTrail[assignedTop++] = cell;
    queue[queueTail++] = cell;
    const arg = maxArg[cell] as number;
    if (value > mentioned) mentioned = value;
    if (arg > mentioned) mentioned = arg;
    return true;
  };

  /** Evaluate one instance as far as it goes: false on conflict. */
  const visit = (id: number): boolean => {
    const law = instanceLaw[id] as number;
    const offset = id === targetInstance ? 0 : (instanceOffset[id] as number);
    const left = evaluateSide(leftCode[law] as Int32Array, offset);
    const leftCell = blockedCell;
    const leftTop = blockedTop;
    const right = evaluateSide(rightCode[law] as Int32Array, offset);
    if (id === targetInstance) {
      if (left >= 0 && right >= 0) return left !== right;
      addWatch(left < 0 ? leftCell : blockedCell, id);
      return true;
    }
    if (left >= 0 && right >= 0) return left === right;
    if (left >= 0) {
      if (blockedTop) return assign(blockedCell, left);
      addWatch(blockedCell, id);
      return true;
    }
    if (right >= 0 && leftTop) return assign(leftCell, right);
    addWatch(leftCell, id);
    return true;
  };

  /** Drain the queue of newly fixed cells: false on conflict. */
  const propagate = (): boolean => {
    while (queueHead < queueTail) {
      const cell = queue[queueHead++] as number;
      const list = watch[cell] as number[];
      const length = watchLength[cell] as number;
      for (let i = 0; i < length; i++) {
        if (!visit(list[i] as number)) {
          queueHead = queueTail = 0;
          return false;
        }
      }
    }
    queueHead = queueTail = 0;
    return true;
  };

  const undoTo = (assignedMark: number, watchMark: number): void => {
    while (assignedTop > assignedMark) values[assignedTrail[--assignedTop] as number] = -1;
    while (watchTop > watchMark) {
      const cell = watchTrail[--watchTop] as number;
      watchLength[cell] = (watchLength[cell] as number) - 1;
    }
  };

  const result = (): FiniteModelSearchResult => {
    // fromEntries defines own properties, so no operation name can reach the prototype.
    const tables: Record<string, OperationTable> = Object.fromEntries(
      operations.map((operation, index): [string, OperationTable] => {
        const first = base[index] as number;
        const cells = Array.from(values.subarray(first, first + n ** operation.arity));
        return [operation.name, operation.arity === 0 ? (cells[0] as number) : operation.arity === 1 ? cells : Array.from({ length: n }, (_, a) => cells.slice(a * n, a * n + n))];
      }),
    );
    const witness = Object.fromEntries(targetVariables.map((name, w) => [name, values[witnessBase + w] as number]));
    return { kind: 'FOUND', tables, witness, nodes };
  };

  let nodes = 0;
  // The root: every instance once.
  for (let id = 0; id < instanceCount; id++) {
    if (!visit(id)) return { kind: 'NONE', nodes };
  }
  if (!propagate()) return { kind: 'NONE', nodes };

  // Decision levels: the cell, its next value, its largest value, and the marks to undo to.
  const levelCell: number[] = [];
  const levelNext: number[] = [];
  const levelLast: number[] = [];
  const levelAssigned: number[] = [];
  const levelWatch: number[] = [];
  const levelMentioned: number[] = [];
  const levelPosition: number[] = [];
  let position = 0;

  const openLevel = (): boolean => {
    while (position < decisionOrder.length && (values[decisionOrder[position] as number] as number) >= 0) position++;
    if (position === decisionOrder.length) return false;
    const cell = decisionOrder[position] as number;
    levelCell.push(cell);
    levelNext.push(0);
    levelLast.push(useLnh ? Math.min(n - 1, Math.max(mentioned, maxArg[cell] as number) + 1) : n - 1);
    levelAssigned.push(assignedTop);
    levelWatch.push(watchTop);
    levelMentioned.push(mentioned);
    levelPosition.push(position);
    return true;
  };

  if (!openLevel()) return result();
  for (;;) {
    const depth = levelCell.length - 1;
    if (depth < 0) return { kind: 'NONE', nodes };
    const next = levelNext[depth] as number;
    if (next > (levelLast[depth] as number)) {
      levelCell.pop();
      levelNext.pop();
      levelLast.pop();
      levelAssigned.pop();
      levelWatch.pop();
      levelMentioned.pop();
      position = levelPosition.pop() as number;
      continue;
    }
    undoTo(levelAssigned[depth] as number, levelWatch[depth] as number);
    mentioned = levelMentioned[depth] as number;
    position = levelPosition[depth] as number;
    levelNext[depth] = next + 1;
    if (++nodes % CHECK_INTERVAL === 0) {
      options.checkpoint?.();
      if (now() >= options.stopAt) return { kind: 'GAVE_UP', nodes, why: 'TIME' };
    }
    if (nodes > maxNodes) return { kind: 'GAVE_UP', nodes, why: 'NODES' };
    if (assign(levelCell[depth] as number, next) && propagate()) {
      if (!openLevel()) return result();
    }
  }
}
