/**
 * A small CDCL SAT solver in TypeScript: the embedded default of sat.model.find when CaDiCaL is
 * not installed. Two watched literals, first-UIP learning, VSIDS on a binary heap, phase saving,
 * Luby restarts; no clause deletion (it is meant for the small and medium instances an agent
 * sends inline, not for competitions). Every learned clause is RUP, so the solver can log them
 * as a DRAT proof that an independent checker replays.
 */
import type { Cnf } from './sat-domain.js';

export interface CdclOptions {
  /** Called every few hundred conflicts; throw to stop (a deadline). */
  checkpoint?: () => void;
  /** Stop with UNKNOWN after this many conflicts. */
  maxConflicts?: number;
  /** Log learned clauses and the empty clause as text DRAT. */
  proof?: boolean;
}

export interface CdclResult {
  status: 'SATISFIABLE' | 'UNSATISFIABLE' | 'UNKNOWN';
  /** SATISFIABLE: `model[v]` is 1 or −1 for every variable 1 … n. */
  model: Int8Array | null;
  conflicts: number;
  decisions: number;
  propagations: number;
  /** With `proof`: the DRAT lines (each ending in "0"). */
  proof: string[] | null;
}

const LUBY_UNIT = 100;

/** The i-th term (0-based) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 … */
export function luby(i: number): number {
  let size = 1;
  let sequence = 0;
  while (size < i + 1) {
    sequence++;
    size = 2 * size + 1;
  }
  let x = i;
  while (size - 1 !== x) {
    size = (size - 1) >> 1;
    sequence--;
    x %= size;
  }
  return 2 ** sequence;
}

class Solver {
  readonly n: number;
  readonly clauses: Int32Array[] = [];
  readonly watches: number[][];
  readonly value: Int8Array;
  readonly level: Int32Array;
  readonly reason: Int32Array;
  readonly trail: Int32Array;
  trailLength = 0;
  head = 0;
  readonly levelStart: number[] = [];
  readonly activity: Float64Array;
  increment = 1;
  readonly heap: number[] = [];
  readonly position: Int32Array;
  readonly phase: Uint8Array;
  readonly seen: Uint8Array;
  propagations = 0;
  readonly proof: string[] | null;

  constructor(n: number, proof: boolean) {
    this.n = n;
    this.watches = Array.from({ length: 2 * n + 2 }, () => []);
    this.value = new Int8Array(2 * n + 2);
    this.level = new Int32Array(n + 1);
    this.reason = new Int32Array(n + 1).fill(-1);
    this.trail = new Int32Array(n + 1);
    this.activity = new Float64Array(n + 1);
    this.position = new Int32Array(n + 1).fill(-1);
    this.phase = new Uint8Array(n + 1).fill(1);
    this.seen = new Uint8Array(n + 1);
    this.proof = proof ? [] : null;
    for (let v = 1; v <= n; v++) this.heapInsert(v);
  }

  get decisionLevel(): number {
    return this.levelStart.length;
  }

  // --- heap of unassigned variables by activity ---------------------------------------------
  heapInsert(v: number): void {
    if (this.position[v] !== -1) return;
    this.position[v] = this.heap.length;
    this.heap.push(v);
    this.siftUp(this.heap.length - 1);
  }
  siftUp(i: number): void {
    const { heap, activity, position } = this;
    const v = heap[i] as number;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent] as number;
      if ((activity[p] as number) >= (activity[v] as number)) break;
      heap[i] = p;
      position[p] = i;
      i = parent;
    }
    heap[i] = v;
    position[v] = i;
  }
  siftDown(i: number): void {
    const { heap, activity, position } = this;
    const v = heap[i] as number;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && (activity[heap[child + 1] as number] as number) > (activity[heap[child] as number] as number)) child++;
      const c = heap[child] as number;
      if ((activity[c] as number) <= (activity[v] as number)) break;
      heap[i] = c;
      position[c] = i;
      i = child;
    }
    heap[i] = v;
    position[v] = i;
  }
  heapPop(): number {
    const { heap, position } = this;
    const top = heap[0] as number;
    const last = heap.pop() as number;
    position[top] = -1;
    if (heap.length > 0) {
      heap[0] = last;
      position[last] = 0;
      this.siftDown(0);
    }
    return top;
  }
  bump(v: number): void {
    this.activity[v] = (this.activity[v] as number) + this.increment;
    if ((this.activity[v]) > 1e100) {
      for (let u = 1; u <= this.n; u++) this.activity[u] = (this.activity[u] as number) * 1e-100;
      this.increment *= 1e-100;
    }
    const at = this.position[v] as number;
    if (at >= 0) this.siftUp(at);
  }

  // --- assignment ------------------------------------------------------------------------
  enqueue(code: number, reason: number): void {
    const v = code >> 1;
    this.value[code] = 1;
    this.level[v] = this.decisionLevel;
    this.reason[v] = reason;
    this.trail[this.trailLength++] = code;
  }

  backtrack(level: number): void {
    if (this.decisionLevel <= level) return;
    const to = this.levelStart[level] as number;
    for (let k = this.trailLength - 1; k >= to; k--) {
      const code = this.trail[k] as number;
      const v = code >> 1;
      this.value[code] = 0;
      this.phase[v] = code & 1;
      this.reason[v] = -1;
      this.heapInsert(v);
    }
    this.trailLength = to;
    this.head = to;
    this.levelStart.length = level;
  }

  /** Returns a falsified clause or −1. */
  propagate(): number {
    const { value, clauses, watches } = this;
    while (this.head < this.trailLength) {
      const falseCode = (this.trail[this.head++] as number) ^ 1;
      const list = watches[falseCode] as number[];
      let i = 0;
      let j = 0;
      const length = list.length;
      while (i < length) {
        const ci = list[i++] as number;
        const c = clauses[ci] as Int32Array;
        if (c[0] === falseCode) {
          c[0] = c[1] as number;
          c[1] = falseCode;
        }
        const first = c[0] as number;
        if (value[first] === 1) {
          list[j++] = ci;
          continue;
        }
        let moved = false;
        for (let k = 2; k < c.length; k++) {
          const code = c[k] as number;
          if (value[code ^ 1] !== 1) {
            c[1] = code;
            c[k] = falseCode;
            (watches[code] as number[]).push(ci);
            moved = true;
            break;
          }
        }
        if (moved) continue;
        list[j++] = ci;
        if (value[first ^ 1] === 1) {
          while (i < length) list[j++] = list[i++] as number;
          list.length = j;
          return ci;
        }
        this.enqueue(first, ci);
        this.propagations++;
      }
      list.length = j;
    }
    return -1;
  }

  addClause(codes: Int32Array): number {
    const index = this.clauses.length;
    this.clauses.push(codes);
    (this.watches[codes[0] as number] as number[]).push(index);
    (this.watches[codes[1] as number] as number[]).push(index);
    return index;
  }

  /** First-UIP learning: the learned clause (asserting literal first) and the level to go back to. */
  analyze(conflict: number): { learned: Int32Array; backLevel: number } {
    const { seen, level, trail, reason, clauses } = this;
    const learned: number[] = [0];
    let pending = 0;
    let index = this.trailLength - 1;
    let implied = -1;
    let clause = conflict;
    const current = this.decisionLevel;
    for (;;) {
      const c = clauses[clause] as Int32Array;
      for (let k = implied === -1 ? 0 : 1; k < c.length; k++) {
        const code = c[k] as number;
        const v = code >> 1;
        if (seen[v] === 1 || level[v] === 0) continue;
        seen[v] = 1;
        this.bump(v);
        if (level[v] === current) pending++;
        else learned.push(code);
      }
      while (seen[(trail[index] as number) >> 1] === 0) index--;
      implied = trail[index--] as number;
      seen[implied >> 1] = 0;
      if (--pending === 0) break;
      clause = reason[implied >> 1] as number;
    }
    learned[0] = implied ^ 1;
    let backLevel = 0;
    let second = 1;
    for (let k = 1; k < learned.length; k++) {
      const v = (learned[k] as number) >> 1;
      seen[v] = 0;
      if ((level[v] as number) > backLevel) {
        backLevel = level[v] as number;
        second = k;
      }
    }
    if (learned.length > 1) {
      const t = learned[1] as number;
      learned[1] = learned[second] as number;
      learned[second] = t;
    }
    this.increment /= 0.95;
    return { learned: Int32Array.from(learned), backLevel };
  }

  log(codes: ArrayLike<number>): void {
    if (this.proof === null) return;
    let line = '';
    for (let k = 0; k < codes.length; k++) {
      const code = codes[k] as number;
      line += `${(code & 1) === 1 ? -(code >> 1) : code >> 1} `;
    }
    this.proof.push(`${line}0`);
  }
}

/** Solve a CNF. @throws whatever `options.checkpoint` throws. */
export function solveCdcl(cnf: Cnf, options: CdclOptions = {}): CdclResult {
  const solver = new Solver(cnf.variables, options.proof === true);
  let conflicts = 0;
  let decisions = 0;
  const result = (status: CdclResult['status']): CdclResult => {
    let model: Int8Array | null = null;
    if (status === 'SATISFIABLE') {
      model = new Int8Array(cnf.variables + 1);
      for (let v = 1; v <= cnf.variables; v++) model[v] = solver.value[v << 1] === 1 ? 1 : -1;
    }
    if (status === 'UNSATISFIABLE') solver.proof?.push('0');
    return { status, model, conflicts, decisions, propagations: solver.propagations, proof: solver.proof };
  };

  // Load: repeated literals dropped, tautologies skipped, units asserted at level 0.
  const mark = new Uint8Array(2 * cnf.variables + 2);
  for (let i = 0; i < cnf.clauseCount; i++) {
    const codes: number[] = [];
    let tautology = false;
    for (let k = cnf.offsets[i] as number; k < (cnf.offsets[i + 1] as number); k++) {
      const literal = cnf.literals[k] as number;
      const code = literal > 0 ? literal << 1 : (-literal << 1) | 1;
      if (mark[code] === 1) continue;
      if (mark[code ^ 1] === 1) tautology = true;
      mark[code] = 1;
      codes.push(code);
    }
    for (const code of codes) mark[code] = 0;
    if (tautology) continue;
    if (codes.length === 0) return result('UNSATISFIABLE');
    if (codes.length === 1) {
      const code = codes[0] as number;
      if (solver.value[code ^ 1] === 1) return result('UNSATISFIABLE');
      if (solver.value[code] === 0) solver.enqueue(code, -1);
      continue;
    }
    solver.addClause(Int32Array.from(codes));
  }

  let restartNumber = 0;
  let untilRestart = LUBY_UNIT * luby(restartNumber);
  for (;;) {
    const conflict = solver.propagate();
    if (conflict >= 0) {
      conflicts++;
      if (solver.decisionLevel === 0) return result('UNSATISFIABLE');
      if ((conflicts & 255) === 0) options.checkpoint?.();
      if (options.maxConflicts !== undefined && conflicts >= options.maxConflicts) return result('UNKNOWN');
      const { learned, backLevel } = solver.analyze(conflict);
      solver.log(learned);
      solver.backtrack(backLevel);
      if (learned.length === 1) solver.enqueue(learned[0] as number, -1);
      else solver.enqueue(learned[0] as number, solver.addClause(learned));
      if (--untilRestart <= 0) {
        solver.backtrack(0);
        untilRestart = LUBY_UNIT * luby(++restartNumber);
      }
      continue;
    }
    let next = 0;
    while (solver.heap.length > 0) {
      const v = solver.heapPop();
      if (solver.value[v << 1] === 0 && solver.value[(v << 1) | 1] === 0) {
        next = v;
        break;
      }
    }
    if (next === 0) return result('SATISFIABLE');
    decisions++;
    solver.levelStart.push(solver.trailLength);
    solver.enqueue((next << 1) | (solver.phase[next] as number), -1);
  }
}

/** Check that a model satisfies every clause: the index of the first falsified clause, or −1. */
export function firstFalsifiedClause(cnf: Cnf, model: Int8Array): number {
  for (let i = 0; i < cnf.clauseCount; i++) {
    let satisfied = false;
    for (let k = cnf.offsets[i] as number; k < (cnf.offsets[i + 1] as number); k++) {
      const literal = cnf.literals[k] as number;
      if ((model[Math.abs(literal)] ?? 0) === Math.sign(literal)) {
        satisfied = true;
        break;
      }
    }
    if (!satisfied) return i;
  }
  return -1;
}
