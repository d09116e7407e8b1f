/**
 * Our DRAT checker: backward checking with RAT, core-first unit propagation over two watched
 * literals, written for this service and sharing no code with any solver.
 *
 * The method is the one of drat-trim (Wetzler, Heule, Hunt, "DRAT-trim: efficient checking and
 * trimming using expressive clausal proofs", SAT 2014), implemented from its description:
 *
 * 1. Forward pass. The formula and the lemmas are added in proof order, unit propagation is
 *    kept at fixpoint on the top-level assignment, and deletions are applied, until the clauses
 *    propagate to a conflict. Nothing is checked yet.
 * 2. The clauses of that conflict, and the reasons of the literals it rests on, are marked core.
 * 3. Backward pass. Steps are undone in reverse order: a deletion puts its clause back, a lemma is
 *    taken out and, if it is core, checked against the clauses before it: RUP (assigning its
 *    negation propagates to a conflict), or else RAT on its first literal p (for every active
 *    clause D containing ¬p, the resolvent lemma ∪ (D \ {¬p}) is RUP). Every clause a successful
 *    check uses is marked core in turn; lemmas never marked are never checked.
 *
 * Propagation is core-first: core clauses propagate to fixpoint before any other clause may
 * add one unit, which keeps the core small and the backward pass fast.
 *
 * Deletions: a deletion of a clause that is the reason of a literal of the top-level assignment
 * (a unit clause, or a clause that is unit under the assignment) is ignored, as drat-trim does
 * by default; so is a deletion of a clause that is not there. Ignoring a deletion keeps a clause
 * the proof dropped, which can only make a RUP check easier and a RAT check stricter: sound.
 *
 * The empty clause must be a step of the proof. Checking stops at the first point where the
 * clauses propagate to a conflict (at the latest, the first empty clause); later steps are
 * ignored.
 *
 * On acceptance the checker can write the core as an LRAT proof (our DRAT→LRAT trimming): the
 * formula's clauses keep IDs 1 … m, the core lemmas get m+1, m+2, … in proof order, each with
 * the unit-propagation chain found when it was checked, and deletions of retained clauses are
 * carried over.
 */
import { JacobianError } from '@jacobian/shared';
import type { Cnf, DratProof } from './sat-domain.js';

/** Why a proof is rejected. */
export const DratRejectionReason = {
  /** A core lemma is not RUP, and its RAT check on the first literal fails on a named clause. */
  RAT_FAILED: 'RAT_FAILED',
  /** A core lemma is not RUP and has no literal to be RAT on (the empty clause). */
  NOT_RUP: 'NOT_RUP',
  /** The proof never adds the empty clause. */
  NO_EMPTY_CLAUSE: 'NO_EMPTY_CLAUSE',
} as const;
export type DratRejectionReason = (typeof DratRejectionReason)[keyof typeof DratRejectionReason];

/** Where a clause comes from: a clause of the formula (0-based index) or a lemma (0-based proof step). */
export type ClauseOrigin = { kind: 'formula'; index: number } | { kind: 'lemma'; step: number };

/** Counts of a check. */
export interface DratCheckStats {
  formula_clauses: number;
  proof_steps: number;
  lemmas: number;
  deletions: number;
  /** Deletions ignored because the clause was a reason of the top-level assignment. */
  ignored_reason_deletions: number;
  /** Deletions ignored because no such clause was present. */
  ignored_missing_deletions: number;
  /** Steps after the point where the clauses first propagate to a conflict (not needed, not checked). */
  steps_after_conflict: number;
  core_lemmas: number;
  rat_lemmas: number;
  core_formula_clauses: number;
  propagations: number;
}

/** The verdict of {@link checkDrat}. */
export type DratCheckResult =
  | {
      verdict: 'ACCEPTED';
      stats: DratCheckStats;
      /** 0-based indices of the formula clauses the refutation uses. */
      core_formula: Int32Array;
      /** 0-based proof steps of the lemmas the refutation uses (all checked). */
      core_lemma_steps: Int32Array;
      /** The core as an LRAT proof, when asked for. */
      lrat: string | null;
    }
  | {
      verdict: 'REJECTED';
      reason: DratRejectionReason;
      /** 0-based index of the failing step in the proof (for NO_EMPTY_CLAUSE: the number of steps). */
      step: number;
      /** Its line in a text proof (byte offset in a binary one); null for NO_EMPTY_CLAUSE. */
      line: number | null;
      lemma: number[] | null;
      pivot: number | null;
      /** RAT_FAILED: the clause containing the negated pivot whose resolvent is not RUP. */
      rat_clause: { origin: ClauseOrigin; literals: number[] } | null;
      message: string;
      stats: DratCheckStats;
    };

export interface DratCheckOptions {
  /** Write the core as LRAT on acceptance. */
  lrat?: boolean;
  /** Called now and then; throw from it to stop the check (a deadline). */
  checkpoint?: () => void;
}

const ACTIVE = 1;
const CORE = 2;
const TAUTOLOGY = 4;

/** propagateLiteral: nothing found / a unit found in NONCORE mode (then it stops early). */
const NONE = -1;
const UNIT = -2;

const CHECKPOINT_EVERY = 256;

/** Encode a DIMACS literal: 2v for v, 2v+1 for −v. */
function encode(literal: number): number {
  return literal > 0 ? literal << 1 : (-literal << 1) | 1;
}
function decode(code: number): number {
  return (code & 1) === 1 ? -(code >> 1) : code >> 1;
}

class Rejection extends Error {
  constructor(
    readonly reason: DratRejectionReason,
    readonly step: number,
    readonly pivot: number | null,
    readonly ratClause: number,
    message: string,
  ) {
    super(message);
  }
}

/** A growable store of integers in segments, for per-lemma LRAT hints. */
class Hints {
  data = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

/** The checker's state; one instance checks one proof. */
class DratChecker {
  // Clauses: formula 0 … m−1, then one per added lemma.
  readonly clauseCount: number;
  readonly start: Int32Array;
  readonly size: Int32Array;
  readonly flags: Uint8Array;
  readonly origin: Int32Array; // formula index, or −(step + 1) for a lemma
  readonly pivot: Int32Array; // encoded first literal as written (lemmas), −1 when empty
  readonly arena: Int32Array;
  arenaLength = 0;
  clauses = 0;
  // Assignment.
  readonly variables: number;
  readonly value: Int8Array; // by literal code: 1 when true
  readonly reason: Int32Array; // by variable
  readonly trailPosition: Int32Array; // by variable
  readonly trail: Int32Array;
  trailLength = 0;
  headCore = 0;
  headAll = 0;
  readonly seen: Uint8Array; // by variable
  // Watches: pairs (clause, blocker); list 2·code for non-core clauses, 2·code + 1 for core ones,
  // so that core-first propagation visits each kind without skipping over the other.
  readonly watches: Int32Array[];
  readonly watchLength: Int32Array;
  readonly units = new Hints();
  // Deletion lookup.
  readonly buckets = new Map<number, number[]>();
  readonly mark: Uint8Array; // by literal code, scratch
  // LRAT.
  readonly wantLrat: boolean;
  readonly hintStart: Int32Array;
  readonly hintEnd: Int32Array;
  readonly hints = new Hints();
  readonly chain = new Hints();
  propagations = 0;
  sinceCheckpoint = 0;

  constructor(
    readonly cnf: Cnf,
    readonly proof: DratProof,
    readonly options: DratCheckOptions,
  ) {
    let lemmas = 0;
    let lemmaLiterals = 0;
    for (let i = 0; i < proof.stepCount; i++) {
      if (proof.kinds[i] === 0) {
        lemmas++;
        lemmaLiterals += (proof.offsets[i + 1] as number) - (proof.offsets[i] as number);
      }
    }
    this.clauseCount = cnf.clauseCount + lemmas;
    this.start = new Int32Array(this.clauseCount);
    this.size = new Int32Array(this.clauseCount);
    this.flags = new Uint8Array(this.clauseCount);
    this.origin = new Int32Array(this.clauseCount);
    this.pivot = new Int32Array(this.clauseCount).fill(-1);
    this.arena = new Int32Array(cnf.literals.length + lemmaLiterals);
    this.variables = Math.max(cnf.variables, proof.maxVariable);
    const codes = 2 * this.variables + 2;
    this.value = new Int8Array(codes);
    this.mark = new Uint8Array(codes);
    this.reason = new Int32Array(this.variables + 1).fill(-1);
    this.trailPosition = new Int32Array(this.variables + 1);
    this.trail = new Int32Array(this.variables + 1);
    this.seen = new Uint8Array(this.variables + 1);
    this.watches = new Array<Int32Array>(2 * codes);
    for (let i = 0; i < 2 * codes; i++) this.watches[i] = EMPTY;
    this.watchLength = new Int32Array(2 * codes);
    this.wantLrat = options.lrat === true;
    this.hintStart = new Int32Array(this.wantLrat ? this.clauseCount + 1 : 0);
    this.hintEnd = new Int32Array(this.wantLrat ? this.clauseCount + 1 : 0);
  }

  tick(): void {
    if (this.options.checkpoint !== undefined && ++this.sinceCheckpoint >= CHECKPOINT_EVERY) {
      this.sinceCheckpoint = 0;
      this.options.checkpoint();
    }
  }

  // --- clause storage ------------------------------------------------------------------------

  /** Store a clause (duplicate literals dropped, order kept); returns its index. */
  store(literals: Int32Array, from: number, to: number, origin: number): number {
    const c = this.clauses++;
    const begin = this.arenaLength;
    let tautology = false;
    const { mark, arena } = this;
    for (let k = from; k < to; k++) {
      const code = encode(literals[k] as number);
      if (mark[code] === 1) continue;
      if (mark[code ^ 1] === 1) tautology = true;
      mark[code] = 1;
      arena[this.arenaLength++] = code;
    }
    for (let k = begin; k < this.arenaLength; k++) mark[arena[k] as number] = 0;
    this.start[c] = begin;
    this.size[c] = this.arenaLength - begin;
    this.origin[c] = origin;
    this.flags[c] = ACTIVE | (tautology ? TAUTOLOGY : 0);
    if (this.size[c] > 0) this.pivot[c] = arena[begin] as number;
    return c;
  }

  hashOf(c: number): number {
    let sum = 0;
    let xor = 0;
    let product = 1;
    const s = this.start[c] as number;
    const e = s + (this.size[c] as number);
    for (let k = s; k < e; k++) {
      const code = this.arena[k] as number;
      sum = (sum + code) | 0;
      xor ^= Math.imul(code, 0x9e3779b1);
      product = Math.imul(product, (code << 1) | 1);
    }
    return (Math.imul(sum, 1000003) ^ xor ^ Math.imul(product, 0x85ebca6b)) | 0;
  }

  hashInsert(c: number): void {
    const h = this.hashOf(c);
    const bucket = this.buckets.get(h);
    if (bucket === undefined) this.buckets.set(h, [c]);
    else bucket.push(c);
  }

  /** Find and unhash an active clause with exactly the literals of step `step` (as a set); −1 when none. */
  hashTake(step: number): number {
    const { proof, mark, arena } = this;
    const from = proof.offsets[step] as number;
    const to = proof.offsets[step + 1] as number;
    // Hash the step's literal set as stored clauses are hashed.
    let sum = 0;
    let xor = 0;
    let product = 1;
    let distinct = 0;
    for (let k = from; k < to; k++) {
      const code = encode(proof.literals[k] as number);
      if (mark[code] === 1) continue;
      mark[code] = 1;
      distinct++;
      sum = (sum + code) | 0;
      xor ^= Math.imul(code, 0x9e3779b1);
      product = Math.imul(product, (code << 1) | 1);
    }
    const h = (Math.imul(sum, 1000003) ^ xor ^ Math.imul(product, 0x85ebca6b)) | 0;
    let found = -1;
    const bucket = this.buckets.get(h);
    if (bucket !== undefined) {
      for (let b = 0; b < bucket.length; b++) {
        const c = bucket[b] as number;
        if (this.size[c] !== distinct) continue;
        const s = this.start[c] as number;
        let same = true;
        for (let k = s; k < s + distinct; k++) {
          if (mark[arena[k] as number] !== 1) {
            same = false;
            break;
          }
        }
        if (same) {
          found = c;
          bucket[b] = bucket[bucket.length - 1] as number;
          bucket.pop();
          if (bucket.length === 0) this.buckets.delete(h);
          break;
        }
      }
    }
    for (let k = from; k < to; k++) mark[encode(proof.literals[k] as number)] = 0;
    return found;
  }

  // --- assignment ----------------------------------------------------------------------------

  assign(code: number, reason: number): void {
    const v = code >> 1;
    this.value[code] = 1;
    this.reason[v] = reason;
    this.trailPosition[v] = this.trailLength;
    this.trail[this.trailLength++] = code;
  }

  backtrack(to: number): void {
    const { trail, value, reason } = this;
    for (let k = this.trailLength - 1; k >= to; k--) {
      const code = trail[k] as number;
      value[code] = 0;
      reason[code >> 1] = -1;
    }
    this.trailLength = to;
    if (this.headCore > to) this.headCore = to;
    if (this.headAll > to) this.headAll = to;
  }

  /** The watch list of a literal code for clause c's kind. */
  listOf(code: number, c: number): number {
    return (code << 1) | (((this.flags[c] as number) & CORE) >> 1);
  }

  watch(list: number, c: number, blocker: number): void {
    let data = this.watches[list] as Int32Array;
    const length = this.watchLength[list] as number;
    if (length + 2 > data.length) {
      const grown = new Int32Array(Math.max(8, data.length * 2));
      grown.set(data);
      this.watches[list] = grown;
      data = grown;
    }
    data[length] = c;
    data[length + 1] = blocker;
    this.watchLength[list] = length + 2;
  }

  unwatch(list: number, c: number): void {
    const data = this.watches[list] as Int32Array;
    const length = this.watchLength[list] as number;
    for (let k = 0; k < length; k += 2) {
      if (data[k] === c) {
        data[k] = data[length - 2] as number;
        data[k + 1] = data[length - 1] as number;
        this.watchLength[list] = length - 2;
        return;
      }
    }
  }

  /**
   * Make an active clause take part in propagation under the current assignment: watch two
   * literals (non-false ones first, else the false ones assigned last), and report what it
   * implies. Returns the clause when it is falsified, else −1 (after assigning its unit, if any).
   */
  attach(c: number): number {
    if (((this.flags[c] as number) & TAUTOLOGY) !== 0) return -1;
    const { arena, value, trailPosition } = this;
    const s = this.start[c] as number;
    const n = this.size[c] as number;
    if (n === 0) return c;
    if (n === 1) {
      this.units.push(c);
      const code = arena[s] as number;
      if (value[code] === 1) return -1;
      if (value[code ^ 1] === 1) return c;
      this.assign(code, c);
      return -1;
    }
    // Order the first two positions by preference: not false, then false assigned latest.
    for (let position = 0; position < 2; position++) {
      let best = s + position;
      let bestScore = -2;
      for (let k = s + position; k < s + n; k++) {
        const code = arena[k] as number;
        const score = value[code ^ 1] === 1 ? (trailPosition[code >> 1] as number) : 0x7fffffff;
        if (score > bestScore) {
          bestScore = score;
          best = k;
          if (score === 0x7fffffff) break;
        }
      }
      const swap = arena[s + position] as number;
      arena[s + position] = arena[best] as number;
      arena[best] = swap;
    }
    const first = arena[s] as number;
    const second = arena[s + 1] as number;
    this.watch(this.listOf(first, c), c, second);
    this.watch(this.listOf(second, c), c, first);
    if (value[first ^ 1] === 1) return c;
    if (value[second ^ 1] === 1 && value[first] !== 1) this.assign(first, c);
    return -1;
  }

  detach(c: number): void {
    const n = this.size[c] as number;
    if (n < 2 || ((this.flags[c] as number) & TAUTOLOGY) !== 0) return;
    const s = this.start[c] as number;
    this.unwatch(this.listOf(this.arena[s] as number, c), c);
    this.unwatch(this.listOf(this.arena[s + 1] as number, c), c);
  }

  /** Whether clause c is the reason of a literal of the assignment. */
  isReason(c: number): boolean {
    if ((this.size[c] as number) === 0) return false;
    const code = this.arena[this.start[c] as number] as number;
    return this.value[code] === 1 && this.reason[code >> 1] === c;
  }

  // --- propagation ---------------------------------------------------------------------------

  /**
   * Visit the clauses of watch list `list` (of the literal `falseCode`, which just became
   * false). Returns a falsified clause, NONE, or, with `stopAtUnit`, UNIT as soon as one clause
   * gave a unit (core-first propagation then lets the core catch up before going on).
   */
  propagateList(falseCode: number, list: number, stopAtUnit: boolean): number {
    const data = this.watches[list] as Int32Array;
    const length = this.watchLength[list] as number;
    const { arena, value, start, size } = this;
    const coreBit = list & 1;
    let i = 0;
    let j = 0;
    let result = NONE;
    while (i < length) {
      const c = data[i] as number;
      const blocker = data[i + 1] as number;
      i += 2;
      if (value[blocker] === 1) {
        data[j++] = c;
        data[j++] = blocker;
        continue;
      }
      const s = start[c] as number;
      let other = arena[s] as number;
      if (other === falseCode) {
        other = arena[s + 1] as number;
        arena[s] = other;
        arena[s + 1] = falseCode;
      }
      if (other !== blocker && value[other] === 1) {
        data[j++] = c;
        data[j++] = other;
        continue;
      }
      const end = s + (size[c] as number);
      let k = s + 2;
      for (; k < end; k++) {
        const code = arena[k] as number;
        if (value[code ^ 1] !== 1) {
          arena[s + 1] = code;
          arena[k] = falseCode;
          this.watch((code << 1) | coreBit, c, other);
          break;
        }
      }
      if (k < end) continue;
      data[j++] = c;
      data[j++] = other;
      if (value[other ^ 1] === 1) {
        result = c;
        break;
      }
      this.assign(other, c);
      this.propagations++;
      if (stopAtUnit) {
        result = UNIT;
        break;
      }
    }
    while (i < length) data[j++] = data[i++] as number;
    this.watchLength[list] = j;
    return result;
  }

  /** Propagate the assignment to fixpoint; returns a falsified clause or −1. */
  propagate(coreFirst: boolean): number {
    const { trail } = this;
    if (!coreFirst) {
      while (this.headAll < this.trailLength) {
        const falseCode = (trail[this.headAll++] as number) ^ 1;
        let conflict = this.propagateList(falseCode, (falseCode << 1) | 1, false);
        if (conflict < 0) conflict = this.propagateList(falseCode, falseCode << 1, false);
        if (conflict >= 0) return conflict;
      }
      this.headCore = this.headAll;
      return -1;
    }
    for (;;) {
      while (this.headCore < this.trailLength) {
        const falseCode = (trail[this.headCore++] as number) ^ 1;
        const conflict = this.propagateList(falseCode, (falseCode << 1) | 1, false);
        if (conflict >= 0) return conflict;
      }
      if (this.headAll >= this.trailLength) return -1;
      const falseCode = (trail[this.headAll] as number) ^ 1;
      const result = this.propagateList(falseCode, falseCode << 1, true);
      if (result >= 0) return result;
      if (result === NONE) this.headAll++;
    }
  }

  /** After literals were taken off the trail: assert the active unit clauses again and re-propagate from the start. */
  repropagate(): number {
    this.headCore = 0;
    this.headAll = 0;
    const { units, arena, value } = this;
    for (let u = 0; u < units.length; u++) {
      const c = units.data[u] as number;
      if (((this.flags[c] as number) & ACTIVE) === 0) continue;
      const code = arena[this.start[c] as number] as number;
      if (value[code] === 1) continue;
      if (value[code ^ 1] === 1) return c;
      this.assign(code, c);
    }
    return this.propagate(true);
  }

  /** Mark a clause core, moving its watches to the core lists. */
  markCore(c: number): void {
    const flags = this.flags[c] as number;
    if ((flags & CORE) !== 0) return;
    const watched = (flags & ACTIVE) !== 0 && (flags & TAUTOLOGY) === 0 && (this.size[c] as number) >= 2;
    if (!watched) {
      this.flags[c] = flags | CORE;
      return;
    }
    const s = this.start[c] as number;
    const first = this.arena[s] as number;
    const second = this.arena[s + 1] as number;
    this.unwatch(first << 1, c);
    this.unwatch(second << 1, c);
    this.flags[c] = flags | CORE;
    this.watch((first << 1) | 1, c, second);
    this.watch((second << 1) | 1, c, first);
  }

  /**
   * Mark core the clauses a conflict rests on: the falsified clause (if any) and the reasons of
   * every literal in its cone. With LRAT on, leave in `chain` those clauses in propagation order
   * (the falsified one last). `seedVariable` starts from a variable instead of a clause.
   */
  analyze(conflict: number, seedVariable: number): void {
    const { seen, arena, trail, reason } = this;
    let pending = 0;
    this.chain.length = 0;
    if (conflict >= 0) {
      this.markCore(conflict);
      const s = this.start[conflict] as number;
      const e = s + (this.size[conflict] as number);
      for (let k = s; k < e; k++) {
        const v = (arena[k] as number) >> 1;
        if (seen[v] === 0) {
          seen[v] = 1;
          pending++;
        }
      }
    } else {
      seen[seedVariable] = 1;
      pending = 1;
    }
    for (let k = this.trailLength - 1; k >= 0 && pending > 0; k--) {
      const v = (trail[k] as number) >> 1;
      if (seen[v] === 0) continue;
      seen[v] = 0;
      pending--;
      const r = reason[v] as number;
      if (r < 0) continue;
      this.markCore(r);
      if (this.wantLrat) this.chain.push(r);
      const s = this.start[r] as number;
      const e = s + (this.size[r] as number);
      for (let q = s + 1; q < e; q++) {
        const u = (arena[q] as number) >> 1;
        if (seen[u] === 0) {
          seen[u] = 1;
          pending++;
        }
      }
    }
    if (this.wantLrat) {
      // Propagation order is the trail's: reverse what the backward walk collected.
      const { data } = this.chain;
      for (let a = 0, b = this.chain.length - 1; a < b; a++, b--) {
        const t = data[a] as number;
        data[a] = data[b] as number;
        data[b] = t;
      }
      if (conflict >= 0) this.chain.push(conflict);
    }
  }

  /** Append the current chain to the hints of the lemma being checked. */
  keepChain(): void {
    for (let k = 0; k < this.chain.length; k++) this.hints.push(this.chain.data[k] as number);
  }

  /**
   * Assign the negation of the literals arena[from … to) except `skip`. Returns the variable of
   * a literal already true (the negation contradicts the assignment at once), or −1.
   */
  assumeNegation(from: number, to: number, skip: number): number {
    const { arena, value } = this;
    for (let k = from; k < to; k++) {
      const code = arena[k] as number;
      if (code === skip) continue;
      if (value[code] === 1) return code >> 1;
      if (value[code ^ 1] === 1) continue;
      this.assign(code ^ 1, -1);
    }
    return -1;
  }

  /** Check lemma c (already taken out of the clause set) by RUP, else by RAT on its pivot. */
  checkLemma(c: number): void {
    const top = this.trailLength;
    const s = this.start[c] as number;
    const e = s + (this.size[c] as number);
    if (this.wantLrat) this.hintStart[c] = this.hints.length;
    const contradiction = this.assumeNegation(s, e, -1);
    const conflict = contradiction >= 0 ? -1 : this.propagate(true);
    if (contradiction >= 0 || conflict >= 0) {
      this.analyze(conflict, contradiction);
      if (this.wantLrat) {
        this.keepChain();
        this.hintEnd[c] = this.hints.length;
      }
      this.backtrack(top);
      return;
    }
    const step = -(this.origin[c] as number) - 1;
    const pivot = this.pivot[c] as number;
    if (pivot < 0) {
      this.backtrack(top);
      throw new Rejection('NOT_RUP', step, null, -1, `step ${step + 1} (line ${this.proof.lines[step] as number}) adds the empty clause, but the clauses before it do not propagate to a conflict`);
    }
    // RAT on the pivot: the negation of the lemma stays assigned (at fixpoint) for every candidate.
    const level = this.trailLength;
    const negatedPivot = pivot ^ 1;
    const { arena } = this;
    const candidates: number[] = [];
    for (let d = 0; d < this.clauses; d++) {
      const flags = this.flags[d] as number;
      if ((flags & ACTIVE) === 0 || (flags & TAUTOLOGY) !== 0) continue;
      const ds = this.start[d] as number;
      const de = ds + (this.size[d] as number);
      for (let k = ds; k < de; k++) {
        if (arena[k] === negatedPivot) {
          candidates.push(d);
          break;
        }
      }
    }
    for (const d of candidates) {
      this.tick();
      const ds = this.start[d] as number;
      const de = ds + (this.size[d] as number);
      const contradicts = this.assumeNegation(ds, de, negatedPivot);
      const ratConflict = contradicts >= 0 ? -1 : this.propagate(true);
      if (contradicts < 0 && ratConflict < 0) {
        this.backtrack(top);
        throw new Rejection(
          'RAT_FAILED',
          step,
          decode(pivot),
          d,
          `step ${step + 1} (line ${this.proof.lines[step] as number}) is not RUP, and not RAT on its first literal ${decode(pivot)}: the resolvent with ${this.describe(d)} is not RUP`,
        );
      }
      this.analyze(ratConflict, contradicts);
      this.markCore(d);
      if (this.wantLrat) {
        this.hints.push(-(d + 1));
        this.keepChain();
      }
      this.backtrack(level);
    }
    if (this.wantLrat) this.hintEnd[c] = this.hints.length;
    this.ratLemmas++;
    this.backtrack(top);
  }

  ratLemmas = 0;

  describe(d: number): string {
    const o = this.origin[d] as number;
    const literals = this.literalsOf(d).join(' ');
    return o >= 0 ? `formula clause ${o + 1} (${literals} 0)` : `the lemma of step ${-o} (${literals} 0)`;
  }

  /** The literals of clause c as written in the formula or the proof (repeats dropped), not in watch order. */
  literalsOf(c: number): number[] {
    const o = this.origin[c] as number;
    const [source, from, to] =
      o >= 0 ? [this.cnf.literals, this.cnf.offsets[o] as number, this.cnf.offsets[o + 1] as number] : [this.proof.literals, this.proof.offsets[-o - 1] as number, this.proof.offsets[-o] as number];
    const out: number[] = [];
    for (let k = from; k < to; k++) {
      const literal = source[k] as number;
      if (!out.includes(literal)) out.push(literal);
    }
    return out;
  }

  originOf(c: number): ClauseOrigin {
    const o = this.origin[c] as number;
    return o >= 0 ? { kind: 'formula', index: o } : { kind: 'lemma', step: -o - 1 };
  }
}

const EMPTY = new Int32Array(0);

/**
 * Check a DRAT refutation of a CNF.
 *
 * @returns ACCEPTED with the core (and LRAT when asked), or REJECTED naming the failing step.
 * @throws whatever `options.checkpoint` throws (a deadline); JacobianError INTERNAL on a broken invariant.
 */
export function checkDrat(cnf: Cnf, proof: DratProof, options: DratCheckOptions = {}): DratCheckResult {
  const checker = new DratChecker(cnf, proof, options);
  const stepClause = new Int32Array(proof.stepCount).fill(-1);
  const stats: DratCheckStats = {
    formula_clauses: cnf.clauseCount,
    proof_steps: proof.stepCount,
    lemmas: 0,
    deletions: 0,
    ignored_reason_deletions: 0,
    ignored_missing_deletions: 0,
    steps_after_conflict: 0,
    core_lemmas: 0,
    rat_lemmas: 0,
    core_formula_clauses: 0,
    propagations: 0,
  };
  for (let i = 0; i < proof.stepCount; i++) {
    if (proof.kinds[i] === 0) stats.lemmas++;
    else stats.deletions++;
  }
  const finish = (): void => {
    stats.propagations = checker.propagations;
    stats.rat_lemmas = checker.ratLemmas;
  };

  let hasEmptyClause = false;
  for (let i = 0; i < proof.stepCount && !hasEmptyClause; i++) hasEmptyClause = proof.kinds[i] === 0 && proof.offsets[i] === proof.offsets[i + 1];
  if (!hasEmptyClause) {
    return {
      verdict: 'REJECTED',
      reason: 'NO_EMPTY_CLAUSE',
      step: proof.stepCount,
      line: null,
      lemma: null,
      pivot: null,
      rat_clause: null,
      message: `the proof ends after ${proof.stepCount} steps without adding the empty clause, so it claims no refutation`,
      stats,
    };
  }

  // Forward pass: the formula, then the steps, until the clauses propagate to a conflict.
  let conflict = -1;
  for (let i = 0; i < cnf.clauseCount; i++) {
    const c = checker.store(cnf.literals, cnf.offsets[i] as number, cnf.offsets[i + 1] as number, i);
    checker.hashInsert(c);
    const falsified = checker.attach(c);
    if (falsified >= 0 && conflict < 0) conflict = falsified;
  }
  if (conflict < 0) conflict = checker.propagate(false);
  let stopped = conflict >= 0 ? 0 : proof.stepCount;
  for (let i = 0; i < proof.stepCount && conflict < 0; i++) {
    checker.tick();
    const from = proof.offsets[i] as number;
    const to = proof.offsets[i + 1] as number;
    if (proof.kinds[i] === 0) {
      if (from === to) {
        // The empty clause, with no conflict yet: it is not RUP, and has no pivot for RAT.
        finish();
        return {
          verdict: 'REJECTED',
          reason: 'NOT_RUP',
          step: i,
          line: proof.lines[i] as number,
          lemma: [],
          pivot: null,
          rat_clause: null,
          message: `step ${i + 1} (line ${proof.lines[i] as number}) adds the empty clause, but the formula and the lemmas before it do not propagate to a conflict`,
          stats,
        };
      }
      const c = checker.store(proof.literals, from, to, -(i + 1));
      stepClause[i] = c;
      checker.hashInsert(c);
      conflict = checker.attach(c);
      if (conflict < 0) conflict = checker.propagate(false);
      if (conflict >= 0) stopped = i + 1;
    } else {
      const c = checker.hashTake(i);
      if (c < 0) {
        stats.ignored_missing_deletions++;
      } else if (checker.isReason(c)) {
        stats.ignored_reason_deletions++;
        checker.hashInsert(c);
      } else {
        checker.flags[c] = (checker.flags[c] as number) & ~ACTIVE;
        checker.detach(c);
        stepClause[i] = c;
      }
    }
  }
  // The loop ends at a conflict, or rejects at the first empty clause reached without one.
  if (conflict < 0) throw new JacobianError('INTERNAL', 'the forward pass passed the empty clause without a conflict');
  stats.steps_after_conflict = proof.stepCount - stopped;
  checker.analyze(conflict, -1);
  const emptyHints = checker.wantLrat ? Array.from(checker.chain.data.subarray(0, checker.chain.length)) : [];

  // Backward pass: undo the steps, checking every core lemma against the clauses before it.
  // Propagation stopped at the conflict, so the first lemma taken out is followed by a full
  // re-propagation, which brings the top level back to a fixpoint.
  try {
    for (let i = stopped - 1; i >= 0; i--) {
      checker.tick();
      const c = stepClause[i] as number;
      if (c < 0) continue;
      if (proof.kinds[i] === 1) {
        checker.flags[c] = (checker.flags[c] as number) | ACTIVE;
        let falsified = checker.attach(c);
        if (falsified < 0) falsified = checker.propagate(true);
        if (falsified >= 0) throw new JacobianError('INTERNAL', `restoring the clause deleted at step ${i + 1} gave a conflict the forward pass did not see`);
        continue;
      }
      const wasReason = checker.isReason(c);
      checker.flags[c] = (checker.flags[c] as number) & ~ACTIVE;
      checker.detach(c);
      if (wasReason || i === stopped - 1) {
        if (wasReason) checker.backtrack(checker.trailPosition[(checker.arena[checker.start[c] as number] as number) >> 1] as number);
        if (checker.repropagate() >= 0) throw new JacobianError('INTERNAL', `taking out the lemma of step ${i + 1} left a conflict`);
      }
      if (((checker.flags[c]) & CORE) !== 0) checker.checkLemma(c);
    }
  } catch (error) {
    if (!(error instanceof Rejection)) throw error;
    finish();
    return {
      verdict: 'REJECTED',
      reason: error.reason,
      step: error.step,
      line: proof.lines[error.step] as number,
      lemma: dedupe(proof, error.step),
      pivot: error.pivot,
      rat_clause: error.ratClause >= 0 ? { origin: checker.originOf(error.ratClause), literals: checker.literalsOf(error.ratClause) } : null,
      message: error.message,
      stats,
    };
  }

  finish();
  const coreFormula: number[] = [];
  for (let i = 0; i < cnf.clauseCount; i++) if (((checker.flags[i] as number) & CORE) !== 0) coreFormula.push(i);
  const coreSteps: number[] = [];
  for (let i = 0; i < stopped; i++) {
    const c = stepClause[i] as number;
    if (proof.kinds[i] === 0 && c >= 0 && ((checker.flags[c] as number) & CORE) !== 0) coreSteps.push(i);
  }
  stats.core_lemmas = coreSteps.length;
  stats.core_formula_clauses = coreFormula.length;
  return {
    verdict: 'ACCEPTED',
    stats,
    core_formula: Int32Array.from(coreFormula),
    core_lemma_steps: Int32Array.from(coreSteps),
    lrat: checker.wantLrat ? writeLrat(checker, proof, stepClause, stopped, emptyHints) : null,
  };
}

/** The literals of a proof step, duplicates dropped, in written order. */
function dedupe(proof: DratProof, step: number): number[] {
  const out: number[] = [];
  for (let k = proof.offsets[step] as number; k < (proof.offsets[step + 1] as number); k++) {
    const literal = proof.literals[k] as number;
    if (!out.includes(literal)) out.push(literal);
  }
  return out;
}

/** The core as LRAT: core lemmas in proof order with their hints, deletions of retained clauses, the empty clause last. */
function writeLrat(checker: DratChecker, proof: DratProof, stepClause: Int32Array, stopped: number, emptyHints: number[]): string {
  const m = checker.cnf.clauseCount;
  const ids = new Int32Array(checker.clauseCount);
  for (let i = 0; i < m; i++) ids[i] = i + 1;
  let next = m + 1;
  let lastId = m;
  const parts: string[] = [];
  const pendingDeletions: number[] = [];
  const flushDeletions = (): void => {
    if (pendingDeletions.length === 0) return;
    parts.push(`${lastId} d ${pendingDeletions.join(' ')} 0\n`);
    pendingDeletions.length = 0;
  };
  const idOf = (c: number): number => {
    const id = ids[c] as number;
    if (id === 0) throw new JacobianError('INTERNAL', `LRAT hint names clause ${c}, which was not written`);
    return id;
  };
  for (let i = 0; i < stopped; i++) {
    const c = stepClause[i] as number;
    if (c < 0) continue;
    if (proof.kinds[i] === 1) {
      if (ids[c] !== 0) pendingDeletions.push(ids[c] as number);
      continue;
    }
    if (((checker.flags[c] as number) & CORE) === 0) continue;
    flushDeletions();
    const id = next++;
    ids[c] = id;
    lastId = id;
    let line = `${id} `;
    for (const literal of dedupe(proof, i)) line += `${literal} `;
    line += '0 ';
    for (let k = checker.hintStart[c] as number; k < (checker.hintEnd[c] as number); k++) {
      const h = checker.hints.data[k] as number;
      line += `${h < 0 ? -idOf(-h - 1) : idOf(h)} `;
    }
    parts.push(`${line}0\n`);
  }
  flushDeletions();
  parts.push(`${next} 0 ${emptyHints.map((c) => idOf(c)).join(' ')}${emptyHints.length > 0 ? ' ' : ''}0\n`);
  return parts.join('');
}
