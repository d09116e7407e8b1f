/**
 * Test support: an independent forward checker for DRAT refutations whose lemmas are all RUP
 * (reverse unit propagation), as CaDiCaL's are with its default options (no blocked-clause or
 * other RAT-only steps). It shares no code with the solver or the encoder.
 *
 * Deletion lines are ignored. That is sound: a RUP step only gets easier with more clauses,
 * and every clause kept is either an input clause or a lemma already shown to follow from
 * them, so every accepted lemma, the final empty clause included, follows from the input.
 * A lemma that needs a RAT argument is rejected, never accepted.
 */

/** The outcome of a check. */
export type RupCheck = { ok: true; lemmas: number } | { ok: false; reason: string };

function parseClauses(text: string, allowDeletions: boolean): { clauses: number[][]; deletions: number } {
  const clauses: number[][] = [];
  let deletions = 0;
  let current: number[] = [];
  let deleting = false;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('c') || line.startsWith('p')) continue;
    for (const token of line.split(/\s+/)) {
      if (token === 'd' && allowDeletions && current.length === 0) {
        deleting = true;
        continue;
      }
      const literal = Number(token);
      if (!Number.isSafeInteger(literal)) throw new Error(`not a literal: ${token}`);
      if (literal !== 0) {
        current.push(literal);
        continue;
      }
      if (deleting) deletions++;
      else clauses.push(current);
      current = [];
      deleting = false;
    }
  }
  if (current.length > 0) throw new Error('the last clause is not terminated by 0');
  return { clauses, deletions };
}

/** Unit propagation with two watched literals over a clause database that only grows. */
class Propagator {
  private readonly value: Int8Array;
  private readonly trail: number[] = [];
  private head = 0;
  private readonly clauses: number[][] = [];
  private readonly watches: number[][];
  /** The input and lemmas so far propagate to a conflict without any assumption. */
  inconsistent = false;

  constructor(variables: number) {
    this.value = new Int8Array(variables + 1);
    this.watches = Array.from({ length: 2 * variables + 2 }, () => []);
  }

  private code(literal: number): number {
    return literal > 0 ? 2 * literal : -2 * literal + 1;
  }

  private valueOf(literal: number): number {
    const v = this.value[Math.abs(literal)] as number;
    return literal > 0 ? v : -v;
  }

  private assign(literal: number): void {
    this.value[Math.abs(literal)] = literal > 0 ? 1 : -1;
    this.trail.push(literal);
  }

  /** Propagate the trail from `head`; true on conflict. */
  private propagate(): boolean {
    while (this.head < this.trail.length) {
      const falsified = -(this.trail[this.head++] as number);
      const watchers = this.watches[this.code(falsified)] as number[];
      let keep = 0;
      let conflict = false;
      for (let i = 0; i < watchers.length; i++) {
        const index = watchers[i] as number;
        if (conflict) {
          watchers[keep++] = index;
          continue;
        }
        const clause = this.clauses[index] as number[];
        if (clause[0] === falsified) {
          clause[0] = clause[1] as number;
          clause[1] = falsified;
        }
        if (this.valueOf(clause[0] as number) === 1) {
          watchers[keep++] = index;
          continue;
        }
        let moved = false;
        for (let j = 2; j < clause.length; j++) {
          if (this.valueOf(clause[j] as number) !== -1) {
            clause[1] = clause[j] as number;
            clause[j] = falsified;
            (this.watches[this.code(clause[1])] as number[]).push(index);
            moved = true;
            break;
          }
        }
        if (moved) continue;
        watchers[keep++] = index;
        if (this.valueOf(clause[0] as number) === -1) conflict = true;
        else this.assign(clause[0] as number);
      }
      watchers.length = keep;
      if (conflict) return true;
    }
    return false;
  }

  /** Add a clause at the top level and propagate it there. */
  add(input: readonly number[]): void {
    if (this.inconsistent) return;
    const clause = [...new Set(input)];
    if (clause.some((literal) => clause.includes(-literal))) return;
    // Order: true literals, then unassigned, then false, so that the watches are sound.
    clause.sort((a, b) => this.valueOf(b) - this.valueOf(a));
    const first = clause[0];
    if (first === undefined || this.valueOf(first) === -1) {
      this.inconsistent = true;
      return;
    }
    if (clause.length === 1 || this.valueOf(clause[1] as number) === -1) {
      if (this.valueOf(first) === 0) this.assign(first);
      if (clause.length === 1) {
        if (this.propagate()) this.inconsistent = true;
        return;
      }
    }
    const index = this.clauses.length;
    this.clauses.push(clause);
    (this.watches[this.code(first)] as number[]).push(index);
    (this.watches[this.code(clause[1] as number)] as number[]).push(index);
    if (this.propagate()) this.inconsistent = true;
  }

  /** Whether assuming the negation of `lemma` propagates to a conflict. */
  rup(lemma: readonly number[]): boolean {
    if (this.inconsistent) return true;
    const level = this.trail.length;
    let conflict = false;
    for (const literal of lemma) {
      const v = this.valueOf(literal);
      if (v === 1) {
        conflict = true;
        break;
      }
      if (v === 0) this.assign(-literal);
    }
    if (!conflict) conflict = this.propagate();
    while (this.trail.length > level) this.value[Math.abs(this.trail.pop() as number)] = 0;
    this.head = level;
    return conflict;
  }
}

/**
 * Check that `drat` (text DRAT) refutes `dimacs` using RUP steps only.
 *
 * @example checkRupRefutation('p cnf 1 2\n1 0\n-1 0\n', '0\n') // { ok: true, lemmas: 1 }
 */
export function checkRupRefutation(dimacs: string, drat: string): RupCheck {
  const formula = parseClauses(dimacs, false).clauses;
  const proof = parseClauses(drat, true).clauses;
  let variables = 0;
  for (const clause of [...formula, ...proof]) for (const literal of clause) variables = Math.max(variables, Math.abs(literal));
  const propagator = new Propagator(variables);
  for (const clause of formula) propagator.add(clause);
  for (const [index, lemma] of proof.entries()) {
    if (!propagator.rup(lemma)) return { ok: false, reason: `lemma ${index} (${lemma.join(' ')} 0) is not RUP` };
    if (lemma.length === 0) return { ok: true, lemmas: index + 1 };
    propagator.add(lemma);
  }
  return { ok: false, reason: `the proof of ${proof.length} lemmas never derives the empty clause` };
}
