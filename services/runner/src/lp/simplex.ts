/**
 * Our exact simplex: a bounded-variable primal simplex over the rationals, with a phase 1 that
 * minimizes the sum of bound violations, on big integers throughout.
 *
 * The problem is put in the form [A −I]·(x, r) = 0 with bounds on every x_j and on every row
 * activity r_i = a_i·x (≤ row: r_i ≤ b_i; ≥ row: r_i ≥ b_i; = row: r_i = b_i), each row scaled by
 * a positive integer so that A is integral. A basis is m of the n + m variables; the engine keeps
 * M = d·B⁻¹ with d = |det B| (an integer matrix, the adjugate up to sign) and updates it by the
 * integer-preserving pivot M'_i = (α_p·M_i − α_i·M_p)/d, an exact division (Edmonds; Bareiss).
 * Nonbasic variables sit at a finite bound, or at 0 when free.
 *
 * Pricing is Dantzig's (largest reduced cost); after a run of degenerate pivots it switches to
 * Bland's rule (smallest index entering and leaving) until a pivot makes progress, so the method
 * cannot cycle. The start may be the slack basis or a basis suggested by a floating-point solver
 * (its columns pivoted in where they are independent): the pivots that follow are exact, so a
 * wrong suggestion costs pivots, never correctness.
 *
 * The answers are in the conventions of the LP certificate (shared/src/domains/lp/certificate.ts):
 * OPTIMAL with x and row multipliers y; INFEASIBLE with a Farkas y (the phase 1 duals); UNBOUNDED
 * with a feasible x and an improving ray.
 */
import { bigGcd, JacobianError, makeRational, parseCanonicalLpNumber, type LpProblem, type Rational } from '@jacobian/shared';

/** Called often (per row of each O(m²) loop); throws to stop the computation. */
export type Checkpoint = () => void;

/** Where a variable starts, as a floating-point solver's basis says: basic, at lower, at upper, or free at zero. */
export type StartStatus = 'basic' | 'lower' | 'upper' | 'zero';

/** A suggested start: one status per variable (in problem order) and one per row (its activity). */
export interface StartBasis {
  columns: readonly StartStatus[];
  rows: readonly StartStatus[];
}

export interface SimplexOptions {
  checkpoint?: Checkpoint;
  start?: StartBasis | undefined;
  /** Consecutive degenerate pivots after which Bland's rule takes over (default 10). */
  stallLimit?: number;
}

export interface SimplexStats {
  /** Pivots that brought the suggested basis in (not simplex iterations). */
  start_pivots: number;
  /** Suggested basic columns left out because they were dependent on those already in. */
  start_rejected: number;
  /** Simplex iterations (basis changes and bound flips) in phase 1 and phase 2. */
  phase1_pivots: number;
  phase2_pivots: number;
  /** Iterations chosen by Bland's rule after a degenerate stall. */
  bland_pivots: number;
}

export type SimplexResult =
  | { outcome: 'OPTIMAL'; x: Rational[]; y: Rational[]; stats: SimplexStats }
  | { outcome: 'INFEASIBLE'; farkas: Rational[]; stats: SimplexStats }
  | { outcome: 'UNBOUNDED'; x: Rational[]; ray: Rational[]; stats: SimplexStats };

/** A fraction with a positive denominator, not necessarily reduced (compared by cross-multiplication). */
interface Frac {
  n: bigint;
  d: bigint;
}

const ZERO: Rational = { num: 0n, den: 1n };
const fromRational = (r: Rational): Frac => ({ n: r.num, d: r.den });
const cmp = (a: Frac, b: Frac): number => {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
};
const reduce = (f: Frac): Rational => makeRational(f.n, f.d);
const sign = (a: bigint): number => (a > 0n ? 1 : a < 0n ? -1 : 0);
const abs = (a: bigint): bigint => (a < 0n ? -a : a);
const lcm = (a: bigint, b: bigint): bigint => (a / bigGcd(a, b)) * b;

function parse(text: string): Rational {
  const value = parseCanonicalLpNumber(text);
  if (value === null) throw new JacobianError('INTERNAL', `the simplex was given a non-canonical number "${text.slice(0, 40)}"`);
  return value;
}

/** The problem in the engine's form: integral scaled rows by column, bounds on the n + m variables, costs. */
interface Model {
  n: number;
  m: number;
  /** Column j of the scaled A: (row, integer coefficient) pairs. */
  columns: [number, bigint][][];
  /** The positive integer each row was multiplied by. */
  scale: bigint[];
  lower: (Rational | null)[];
  upper: (Rational | null)[];
  /** Costs of the minimization (negated for a maximization), structural columns only. */
  cost: Rational[];
}

function buildModel(problem: LpProblem): Model {
  const n = problem.variables.length;
  const m = problem.constraints.length;
  const index = new Map(problem.variables.map((v, j) => [v.name, j]));
  const columns: [number, bigint][][] = Array.from({ length: n }, () => []);
  const scale: bigint[] = [];
  const lower: (Rational | null)[] = problem.variables.map((v) => (v.lower === null ? null : parse(v.lower)));
  const upper: (Rational | null)[] = problem.variables.map((v) => (v.upper === null ? null : parse(v.upper)));
  problem.constraints.forEach((row, i) => {
    const entries = Object.entries(row.coefficients).map(([name, text]) => [index.get(name), parse(text)] as const);
    const rhs = parse(row.rhs);
    const s = entries.reduce((acc, [, a]) => lcm(acc, a.den), rhs.den);
    scale.push(s);
    for (const [j, a] of entries) {
      if (j === undefined) throw new JacobianError('INTERNAL', `row ${row.name} names an undeclared variable`);
      (columns[j] as [number, bigint][]).push([i, (a.num * s) / a.den]);
    }
    const b = makeRational(rhs.num * s, rhs.den);
    lower.push(row.relation === '<=' ? null : b);
    upper.push(row.relation === '>=' ? null : b);
  });
  const flip = problem.sense === 'maximize';
  const cost = problem.variables.map((v) => {
    const text = problem.objective[v.name];
    if (text === undefined) return ZERO;
    const c = parse(text);
    return flip ? { num: -c.num, den: c.den } : c;
  });
  return { n, m, columns, scale, lower, upper, cost };
}

type Status = 'L' | 'U' | 'F';

class Engine {
  readonly model: Model;
  readonly n: number;
  readonly m: number;
  /** head[p]: the variable basic in position p; pos[k]: its position, or −1 when nonbasic. */
  readonly head: number[];
  readonly pos: number[];
  readonly status: Status[];
  /** Values of nonbasic variables (a bound, or 0 when free). */
  readonly value: Rational[];
  /** M = d·B⁻¹, d > 0. */
  M: bigint[][];
  d = 1n;
  readonly checkpoint: Checkpoint;
  readonly stats: SimplexStats = { start_pivots: 0, start_rejected: 0, phase1_pivots: 0, phase2_pivots: 0, bland_pivots: 0 };

  constructor(model: Model, checkpoint: Checkpoint) {
    this.model = model;
    this.n = model.n;
    this.m = model.m;
    this.checkpoint = checkpoint;
    const total = this.n + this.m;
    this.head = Array.from({ length: this.m }, (_, p) => this.n + p);
    this.pos = Array.from({ length: total }, (_, k) => (k < this.n ? -1 : k - this.n));
    this.status = Array.from({ length: total }, () => 'F');
    this.value = Array.from({ length: total }, () => ZERO);
    // The slack basis: B = −I, so B⁻¹ = −I and |det B| = 1.
    this.M = Array.from({ length: this.m }, (_, i) => Array.from({ length: this.m }, (_, j) => (i === j ? -1n : 0n)));
    for (let j = 0; j < this.n; j++) this.setNonbasic(j, 'L');
  }

  /** Put k nonbasic at the bound `wanted` asks for, or the other finite one, or free at 0. */
  setNonbasic(k: number, wanted: Status): void {
    const lo = this.model.lower[k] ?? null;
    const up = this.model.upper[k] ?? null;
    let status: Status;
    if (wanted === 'U' && up !== null) status = 'U';
    else if (wanted !== 'U' && lo !== null) status = 'L';
    else if (up !== null) status = 'U';
    else if (lo !== null) status = 'L';
    else status = 'F';
    this.status[k] = status;
    this.value[k] = status === 'L' ? (lo as Rational) : status === 'U' ? (up as Rational) : ZERO;
  }

  /** α = M·(column k), the entering column times d. */
  alpha(k: number): bigint[] {
    const out = new Array<bigint>(this.m).fill(0n);
    if (k >= this.n) {
      const i = k - this.n;
      for (let p = 0; p < this.m; p++) out[p] = -(this.M[p] as bigint[])[i]!;
      return out;
    }
    const column = this.model.columns[k] as [number, bigint][];
    for (let p = 0; p < this.m; p++) {
      const row = this.M[p] as bigint[];
      let s = 0n;
      for (const [i, a] of column) s += row[i]! * a;
      out[p] = s;
    }
    return out;
  }

  /** Replace the basic variable in position p by k (α = alpha(k), α_p ≠ 0); the leaving one goes to `leave`. */
  pivot(p: number, k: number, alpha: bigint[], leave: Status): void {
    const ap = alpha[p]!;
    const Mp = this.M[p] as bigint[];
    const d = this.d;
    for (let i = 0; i < this.m; i++) {
      if (i === p) continue;
      this.checkpoint();
      const ai = alpha[i]!;
      const row = this.M[i] as bigint[];
      if (ai === 0n) {
        for (let j = 0; j < this.m; j++) row[j] = (ap * row[j]!) / d;
      } else {
        for (let j = 0; j < this.m; j++) row[j] = (ap * row[j]! - ai * Mp[j]!) / d;
      }
    }
    if (ap < 0n) {
      for (const row of this.M) for (let j = 0; j < this.m; j++) row[j] = -row[j]!;
      this.d = -ap;
    } else {
      this.d = ap;
    }
    const out = this.head[p]!;
    this.head[p] = k;
    this.pos[k] = p;
    this.pos[out] = -1;
    this.setNonbasic(out, leave);
  }

  /** Values of the basic variables: z_B = −B⁻¹·(N·z_N). */
  basicValues(): Frac[] {
    const v: Rational[] = new Array<Rational>(this.m).fill(ZERO);
    const add = (i: number, q: Rational): void => {
      const a = v[i] as Rational;
      v[i] = a.den === q.den ? { num: a.num + q.num, den: a.den } : { num: a.num * q.den + q.num * a.den, den: a.den * q.den };
    };
    for (let k = 0; k < this.n + this.m; k++) {
      if (this.pos[k] !== -1) continue;
      const x = this.value[k] as Rational;
      if (x.num === 0n) continue;
      if (k >= this.n) add(k - this.n, { num: -x.num, den: x.den });
      else for (const [i, a] of this.model.columns[k] as [number, bigint][]) add(i, { num: a * x.num, den: x.den });
    }
    let D = 1n;
    const reduced = v.map((q) => makeRational(q.num, q.den));
    for (const q of reduced) D = lcm(D, q.den);
    const w = reduced.map((q) => (q.num * D) / q.den);
    const den = this.d * D;
    return this.M.map((row) => {
      this.checkpoint();
      let s = 0n;
      for (let i = 0; i < this.m; i++) if (w[i] !== 0n) s += row[i]! * w[i]!;
      return { n: -s, d: den };
    });
  }

  /** Dual numerators p = c_B·M for integral basic costs (π = p / (C·d)). */
  duals(costOf: (k: number) => bigint): bigint[] {
    const p = new Array<bigint>(this.m).fill(0n);
    for (let q = 0; q < this.m; q++) {
      const c = costOf(this.head[q]!);
      if (c === 0n) continue;
      this.checkpoint();
      const row = this.M[q] as bigint[];
      for (let i = 0; i < this.m; i++) p[i]! += c * row[i]!;
    }
    return p;
  }

  /** Reduced cost of variable k times C·d, for integral costs `costOf` (0 on logicals) and p = duals(costOf). */
  reducedCost(k: number, p: bigint[], costOf: (k: number) => bigint): bigint {
    if (k >= this.n) return p[k - this.n]!;
    let s = costOf(k) * this.d;
    for (const [i, a] of this.model.columns[k] as [number, bigint][]) s -= p[i]! * a;
    return s;
  }

  /** Install a suggested basis: its statuses for the nonbasic variables, its basic columns pivoted in where independent. */
  installStart(start: StartBasis): void {
    const wanted = [...start.columns, ...start.rows];
    if (wanted.length !== this.n + this.m) return;
    const wantedBasic = wanted.map((s) => s === 'basic');
    for (let k = 0; k < this.n; k++) if (!wantedBasic[k]) this.setNonbasic(k, wanted[k] === 'upper' ? 'U' : 'L');
    for (let k = 0; k < this.n; k++) {
      if (!wantedBasic[k]) continue;
      const alpha = this.alpha(k);
      let best = -1;
      for (let p = 0; p < this.m; p++) {
        const out = this.head[p]!;
        if (out < this.n || wantedBasic[out] || alpha[p] === 0n) continue;
        if (best === -1 || abs(alpha[p]!) < abs(alpha[best]!)) best = p;
      }
      if (best === -1) {
        this.stats.start_rejected++;
        continue;
      }
      const out = this.head[best]!;
      this.pivot(best, k, alpha, wanted[out] === 'upper' ? 'U' : 'L');
      this.stats.start_pivots++;
    }
  }

  solve(stallLimit: number): SimplexResult {
    const { model } = this;
    let C = 1n;
    for (const c of model.cost) C = lcm(C, c.den);
    const phase2Cost = (k: number): bigint => (k < this.n ? ((model.cost[k] as Rational).num * C) / (model.cost[k] as Rational).den : 0n);
    let degenerate = 0;
    for (;;) {
      this.checkpoint();
      const z = this.basicValues();
      // Phase 1 costs: −1 below the lower bound, +1 above the upper, 0 within.
      const violation = z.map((value, p) => {
        const k = this.head[p]!;
        const lo = model.lower[k] ?? null;
        const up = model.upper[k] ?? null;
        if (lo !== null && cmp(value, fromRational(lo)) < 0) return -1n;
        if (up !== null && cmp(value, fromRational(up)) > 0) return 1n;
        return 0n;
      });
      const phase1 = violation.some((v) => v !== 0n);
      const phase1Cost = (k: number): bigint => {
        const p = this.pos[k]!;
        return p === -1 ? 0n : violation[p]!;
      };
      const costOf = phase1 ? phase1Cost : phase2Cost;
      const p = this.duals(costOf);
      const bland = degenerate >= stallLimit;
      // Entering variable: Dantzig (largest |reduced cost|), or Bland (smallest index) after a stall.
      let enter = -1;
      let enterDirection = 0;
      let enterCost = 0n;
      for (let k = 0; k < this.n + this.m; k++) {
        if (this.pos[k] !== -1) continue;
        const lo = model.lower[k] ?? null;
        const up = model.upper[k] ?? null;
        if (lo !== null && up !== null && lo.num === up.num && lo.den === up.den) continue;
        const rc = this.reducedCost(k, p, costOf);
        const s = this.status[k];
        const direction = s === 'L' ? (rc < 0n ? 1 : 0) : s === 'U' ? (rc > 0n ? -1 : 0) : -sign(rc);
        if (direction === 0) continue;
        if (enter === -1 || (!bland && abs(rc) > abs(enterCost))) {
          enter = k;
          enterDirection = direction;
          enterCost = rc;
          if (bland) break;
        }
      }
      if (enter === -1) {
        if (phase1) return { outcome: 'INFEASIBLE', farkas: this.farkas(p), stats: this.stats };
        return { outcome: 'OPTIMAL', x: this.point(z), y: this.rowDuals(p, C), stats: this.stats };
      }
      // Ratio test: the first breakpoint along the direction.
      const alpha = this.alpha(enter);
      let limit: Frac | null = null;
      let leave = -1;
      let leaveStatus: Status = 'L';
      const consider = (t: Frac, p: number, s: Status): void => {
        const c = limit === null ? -1 : cmp(t, limit);
        const k = p === -1 ? enter : this.head[p]!;
        const current = leave === -1 ? enter : this.head[leave]!;
        if (c < 0 || (c === 0 && k < current)) {
          limit = t;
          leave = p;
          leaveStatus = s;
        }
      };
      const lo = model.lower[enter] ?? null;
      const up = model.upper[enter] ?? null;
      const now = this.value[enter] as Rational;
      if (enterDirection > 0 && up !== null) consider({ n: up.num * now.den - now.num * up.den, d: up.den * now.den }, -1, 'U');
      if (enterDirection < 0 && lo !== null) consider({ n: now.num * lo.den - lo.num * now.den, d: lo.den * now.den }, -1, 'L');
      for (let q = 0; q < this.m; q++) {
        // z_B changes by g/d per unit step, g = −direction·α.
        const g = enterDirection > 0 ? -alpha[q]! : alpha[q]!;
        if (g === 0n) continue;
        const k = this.head[q]!;
        const value = z[q] as Frac;
        const klo = model.lower[k] ?? null;
        const kup = model.upper[k] ?? null;
        const below = violation[q] === -1n;
        const above = violation[q] === 1n;
        // Step t with value + t·g/d = bound: t = (bound − value)·d/g.
        const step = (bound: Rational): Frac => {
          const num = (bound.num * value.d - value.n * bound.den) * this.d;
          const den = bound.den * value.d * g;
          return den < 0n ? { n: -num, d: -den } : { n: num, d: den };
        };
        if (g < 0n) {
          if (above) consider(step(kup as Rational), q, 'U');
          else if (!below && klo !== null) consider(step(klo), q, 'L');
        } else {
          if (below) consider(step(klo as Rational), q, 'L');
          else if (!above && kup !== null) consider(step(kup), q, 'U');
        }
      }
      if (phase1) this.stats.phase1_pivots++;
      else this.stats.phase2_pivots++;
      if (bland) this.stats.bland_pivots++;
      if (limit === null) {
        if (phase1) throw new JacobianError('INTERNAL', 'the phase 1 objective decreased without bound, which a sum of violations cannot');
        return { outcome: 'UNBOUNDED', x: this.point(z), ray: this.ray(enter, enterDirection, alpha), stats: this.stats };
      }
      const t = reduce(limit);
      degenerate = t.num === 0n ? degenerate + 1 : 0;
      if (leave === -1) {
        // A bound flip: the entering variable reaches its other bound first.
        this.setNonbasic(enter, leaveStatus);
        continue;
      }
      this.pivot(leave, enter, alpha, leaveStatus);
    }
  }

  /** x from the nonbasic values and the basic values z. */
  point(z: Frac[]): Rational[] {
    return Array.from({ length: this.n }, (_, j) => {
      const p = this.pos[j]!;
      return p === -1 ? (this.value[j] as Rational) : reduce(z[p] as Frac);
    });
  }

  /** y of the original rows from the scaled rows' dual numerators: y_i = s_i·p_i/(C·d), negated for a maximization. */
  rowDuals(p: bigint[], C: bigint): Rational[] {
    return p.map((pi, i) => makeRational(pi * this.model.scale[i]!, C * this.d));
  }

  /** The Farkas multipliers: the phase 1 duals, scaled by the positive d (and the rows' scales). */
  farkas(p: bigint[]): Rational[] {
    const y = p.map((pi, i) => pi * this.model.scale[i]!);
    const g = y.reduce((acc, v) => bigGcd(acc, v), 0n);
    return y.map((v) => ({ num: g > 1n ? v / g : v, den: 1n }));
  }

  /** The improving ray: the entering variable moves by direction·d, the basic ones by −direction·α. */
  ray(enter: number, direction: number, alpha: bigint[]): Rational[] {
    const r = new Array<bigint>(this.n).fill(0n);
    if (enter < this.n) r[enter] = direction > 0 ? this.d : -this.d;
    for (let q = 0; q < this.m; q++) {
      const k = this.head[q]!;
      if (k < this.n) r[k] = direction > 0 ? -alpha[q]! : alpha[q]!;
    }
    const g = r.reduce((acc, v) => bigGcd(acc, v), 0n);
    return r.map((v) => ({ num: g > 1n ? v / g : v, den: 1n }));
  }
}

/**
 * Solve a canonical problem exactly (integer markers are ignored: this is the LP relaxation).
 * For a maximization the duals are those of the certificate's maximize convention.
 */
export function solveExact(problem: LpProblem, options: SimplexOptions = {}): SimplexResult {
  const engine = new Engine(buildModel(problem), options.checkpoint ?? (() => undefined));
  if (options.start !== undefined) engine.installStart(options.start);
  const result = engine.solve(options.stallLimit ?? 10);
  if (result.outcome === 'OPTIMAL' && problem.sense === 'maximize') return { ...result, y: result.y.map((v) => ({ num: -v.num, den: v.den })) };
  return result;
}
