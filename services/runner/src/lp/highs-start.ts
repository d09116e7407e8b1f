/**
 * The floating-point phase of lp.solve: HiGHS (the npm package `highs`, WebAssembly) solves the
 * problem in doubles and we take its final simplex basis as the exact simplex's start. Nothing
 * HiGHS says is trusted: a basis it gets wrong costs exact pivots, never correctness.
 */
import type { LpProblem } from '@jacobian/shared';
import type { Highs } from 'highs';
import type { StartBasis, StartStatus } from './simplex.js';

export type { Highs };

let loading: Promise<Highs> | undefined;

/** The HiGHS runtime, instantiated once per process. */
export function loadHighs(): Promise<Highs> {
  if (loading === undefined) {
    // Node loads the package's ES module, whose default export is the loader; TypeScript reads
    // its CommonJS typings, where that loader is one level down.
    loading = import('highs').then((module) => (module.default as unknown as (typeof module.default)['default'])()).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  }
  return loading;
}

/**
 * Forget the instance: after HiGHS failed (a WebAssembly abort can leave the module unusable), the
 * next solve in this process loads a fresh one.
 */
export function discardHighs(): void {
  loading = undefined;
}

/** A number as a double; null when it is not finite there (too large for the float phase). */
function toDouble(text: string): number | null {
  const slash = text.indexOf('/');
  const value = slash < 0 ? Number(text) : Number(text.slice(0, slash)) / Number(text.slice(slash + 1));
  return Number.isFinite(value) ? value : null;
}

/** What the float phase did, for the engine record. */
export interface FloatStart {
  /** HiGHS's model status, as its name ("Optimal", "Infeasible", …). */
  status: string;
  /** The basis to start from, or null when HiGHS gave none usable (why in `status`). */
  basis: StartBasis | null;
  version: string;
}

const STATUS_NAMES: Record<number, string> = { 7: 'Optimal', 8: 'Infeasible', 9: 'Infeasible or unbounded', 10: 'Unbounded', 13: 'Time limit reached', 14: 'Iteration limit reached' };

/** Solve in floating point with HiGHS's simplex and return its final basis. */
export function highsStart(highs: Highs, problem: LpProblem, timeLimitSeconds: number): FloatStart {
  const version = highs.version.string;
  const n = problem.variables.length;
  const m = problem.constraints.length;
  const index = new Map(problem.variables.map((v, j) => [v.name, j]));
  const inf = highs.infinity;
  const numbers: (number | null)[] = [];
  const double = (text: string): number => {
    const value = toDouble(text);
    numbers.push(value);
    return value ?? 0;
  };
  const colCost = problem.variables.map((v) => (problem.objective[v.name] === undefined ? 0 : double(problem.objective[v.name] as string)));
  const colLower = problem.variables.map((v) => (v.lower === null ? -inf : double(v.lower)));
  const colUpper = problem.variables.map((v) => (v.upper === null ? inf : double(v.upper)));
  const rowLower = problem.constraints.map((c) => (c.relation === '<=' ? -inf : double(c.rhs)));
  const rowUpper = problem.constraints.map((c) => (c.relation === '>=' ? inf : double(c.rhs)));
  const starts = [0];
  const indices: number[] = [];
  const values: number[] = [];
  for (const row of problem.constraints) {
    for (const [name, a] of Object.entries(row.coefficients)) {
      indices.push(index.get(name) as number);
      values.push(double(a));
    }
    starts.push(indices.length);
  }
  if (numbers.some((x) => x === null)) return { status: 'not run: a number is beyond double range', basis: null, version };
  const model = highs.createModel({
    numCols: n,
    numRows: m,
    sense: problem.sense === 'maximize' ? highs.constants.objectiveSense.maximize : highs.constants.objectiveSense.minimize,
    colCost,
    colLower,
    colUpper,
    rowLower,
    rowUpper,
    matrix: { format: 'csr', numRows: m, numCols: n, starts, indices, values },
  });
  try {
    // The simplex, for a vertex basis to start from (an interior point would need crossover).
    model.options.set({ output_flag: false, time_limit: Math.max(0.05, timeLimitSeconds), solver: 'simplex' });
    const run = model.run();
    const status = STATUS_NAMES[run.modelStatus] ?? `model status ${run.modelStatus}`;
    const basis = model.getBasis();
    const name = (code: number): StartStatus | null => (code === 1 ? 'basic' : code === 0 ? 'lower' : code === 2 ? 'upper' : code === 3 || code === 4 ? 'zero' : null);
    const columns = Array.from(basis.colStatus, name);
    const rows = Array.from(basis.rowStatus, name);
    const basic = [...columns, ...rows].filter((s) => s === 'basic').length;
    if (columns.length !== n || rows.length !== m || columns.includes(null) || rows.includes(null) || basic !== m) return { status: `${status}; no usable basis`, basis: null, version };
    return { status, basis: { columns: columns as StartStatus[], rows: rows as StartStatus[] }, version };
  } finally {
    model.dispose();
  }
}
