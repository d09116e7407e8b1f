/**
 * GLPK's `glpsol --exact` as an exact reference for our LP solver, in tests and benchmarks:
 * the problem written so that glpsol reads exactly our numbers, and glpsol's basic-solution file
 * (`-w`) read strictly. Spawning glpsol is the caller's (a test's spawnSync, a benchmark's timed
 * shell).
 *
 * Why the problem is rewritten. glpsol reads every number of its input into a double, and
 * glp_exact converts those doubles to rationals exactly; 1/3 and 0.1 have no double, so written as
 * they are (or rounded) glpsol would solve a nearby problem. {@link glpkExactFeed} therefore
 * writes an equivalent problem in integers only, each at most 2^53 (a double exactly):
 * - column j is scaled by s_j > 0, the lcm of its bounds' denominators (x_j = x'_j / s_j), so the
 *   bounds of x'_j are integers;
 * - then each row (coefficients and right-hand side) is multiplied by the lcm of its denominators;
 * - then the objective by the lcm of its denominators, F > 0.
 * None of this changes the feasible set up to the column scaling, the outcome, or which basis is
 * optimal (row and column statuses carry over one to one); the optimal value glpsol reports is F
 * times ours (the objective constant must be 0).
 *
 * What glpsol prints. `-w` writes the status line `s bas m n pst dst obj` and one line per row
 * (`i k st prim dual`) and per column (`j k st prim dual`), every value by printf `%.15g` of the
 * double glp_exact rounded its exact rational to: about 15 significant digits, not the exact
 * value. The statuses (b, l, u, f, s) are exact: they name glp_exact's final basis.
 */
import { JacobianError } from '../../errors.js';
import { bigGcd, makeRational, RATIONALS, type Rational } from '../polynomial/field.js';
import { writeCplexLp } from './cplex-lp.js';
import { writeFreeMps } from './free-mps.js';
import { formatLpNumber, parseCanonicalLpNumber, parseLpNumber, type LpProblem } from './problem.js';

/** The largest integer written for glpsol: every integer up to it is a double exactly. */
export const GLPK_EXACT_INTEGER_LIMIT = 2n ** 53n;

/** The problem as glpsol is given it, and how its answer maps back to ours. */
export interface GlpkExactFeed {
  /** The integer problem glpsol solves (same variable and row order and names as the original). */
  scaled: LpProblem;
  /** CPLEX LP (`glpsol --lp`) or free MPS (`glpsol --freemps`) text of `scaled`. */
  text: string;
  format: 'lp' | 'mps';
  /** glpsol's arguments before the file name and the output options: the format flag, and `--max` for a maximization in MPS (GLPK reads no OBJSENSE). */
  args: string[];
  /** F > 0: glpsol's optimal value is F times ours. */
  factor: Rational;
}

const lcm = (a: bigint, b: bigint): bigint => (a / bigGcd(a, b)) * b;
const abs = (a: bigint): bigint => (a < 0n ? -a : a);

function value(text: string): Rational {
  const parsed = parseCanonicalLpNumber(text);
  if (parsed === null) throw new Error(`glpkExactFeed: "${text.slice(0, 40)}" is not canonical`);
  return parsed;
}

function integer(r: Rational, what: string): string {
  if (r.den !== 1n) throw new Error(`glpkExactFeed: ${what} is ${formatLpNumber(r)}, not an integer after scaling`);
  if (abs(r.num) > GLPK_EXACT_INTEGER_LIMIT) throw new Error(`glpkExactFeed: ${what} is ${r.num} after scaling, over 2^53: glpsol would read it rounded`);
  return r.num.toString();
}

/**
 * The problem in integers for glpsol (see the module comment), as CPLEX LP or free MPS. The
 * objective constant must be 0 (GLPK's CPLEX LP reader refuses one and its MPS reader flips its
 * sign); throws when it is not, or when a scaled number exceeds 2^53.
 */
export function glpkExactFeed(problem: LpProblem, format: 'lp' | 'mps'): GlpkExactFeed {
  if (problem.objective_constant !== '0') throw new Error('glpkExactFeed: the objective constant must be 0 (GLPK reads it differently in each format)');
  const Q = RATIONALS;
  const columnScale = new Map(
    problem.variables.map((v) => {
      const s = [v.lower, v.upper].reduce((acc, bound) => (bound === null ? acc : lcm(acc, value(bound).den)), 1n);
      return [v.name, makeRational(s, 1n)];
    }),
  );
  const scale = (name: string): Rational => columnScale.get(name) ?? Q.one;
  const scaledForm = (form: Record<string, string>, extra: Rational | null): { form: Record<string, Rational>; extra: Rational | null; factor: Rational } => {
    const divided = Object.fromEntries(Object.entries(form).map(([name, a]) => [name, Q.div(value(a), scale(name))]));
    const d = [...Object.values(divided), ...(extra === null ? [] : [extra])].reduce((acc, r) => lcm(acc, r.den), 1n);
    const factor = makeRational(d, 1n);
    return { form: Object.fromEntries(Object.entries(divided).map(([name, a]) => [name, Q.mul(a, factor)])), extra: extra === null ? null : Q.mul(extra, factor), factor };
  };
  const objective = scaledForm(problem.objective, null);
  const scaled: LpProblem = {
    sense: problem.sense,
    variables: problem.variables.map((v) => ({
      name: v.name,
      lower: v.lower === null ? null : integer(Q.mul(value(v.lower), scale(v.name)), `the lower bound of ${v.name}`),
      upper: v.upper === null ? null : integer(Q.mul(value(v.upper), scale(v.name)), `the upper bound of ${v.name}`),
      integer: false,
    })),
    objective: Object.fromEntries(Object.entries(objective.form).map(([name, c]) => [name, integer(c, `the cost of ${name}`)])),
    objective_constant: '0',
    constraints: problem.constraints.map((row) => {
      const s = scaledForm(row.coefficients, value(row.rhs));
      return {
        name: row.name,
        relation: row.relation,
        coefficients: Object.fromEntries(Object.entries(s.form).map(([name, a]) => [name, integer(a, `the coefficient of ${name} in row ${row.name}`)])),
        rhs: integer(s.extra ?? Q.zero, `the right-hand side of row ${row.name}`),
      };
    }),
  };
  if (format === 'lp') {
    const written = writeCplexLp(scaled);
    if (!written.exact || written.renamed !== 0) throw new Error('glpkExactFeed: the CPLEX LP writer rounded a number or renamed a name');
    return { scaled, text: written.text, format, args: ['--lp'], factor: objective.factor };
  }
  const written = writeFreeMps(scaled, { objectiveSense: 'omit' });
  if (written.renamed !== 0) throw new Error('glpkExactFeed: the MPS writer renamed a name');
  return { scaled, text: written.text, format, args: ['--freemps', ...(problem.sense === 'maximize' ? ['--max'] : [])], factor: objective.factor };
}

/** A basis status as glpsol writes it: basic, at lower, at upper, free nonbasic, fixed nonbasic. */
export type GlpkStatus = 'b' | 'l' | 'u' | 'f' | 's';

/** glpsol's basic solution file, read. */
export interface GlpkBasicSolution {
  /** From the status line: f f optimal; n (no primal feasible point) infeasible; f n (no dual feasible point) unbounded. */
  outcome: 'OPTIMAL' | 'INFEASIBLE' | 'UNBOUNDED';
  primalStatus: string;
  dualStatus: string;
  /** The objective value as printed (%.15g), exact as a rational of that decimal. */
  objectiveText: string;
  objective: Rational;
  rowStatus: GlpkStatus[];
  columnStatus: GlpkStatus[];
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const STATUS = /^[blufs]$/;

function refuse(message: string): never {
  throw new JacobianError('PROVIDER_FAILED', `glpsol's solution file: ${message}`);
}

function decimal(text: string, where: string): Rational {
  if (!DECIMAL.test(text)) refuse(`${where}: "${text.slice(0, 40)}" is not a number`);
  const parsed = parseLpNumber(text);
  if ('rule' in parsed) refuse(`${where}: "${text.slice(0, 40)}" ${parsed.message}`);
  return parsed;
}

/**
 * Read glpsol's `-w` file of a basic solution (GLPK 5.0's glp_write_sol) strictly: comment lines
 * `c …` first, then `s bas m n pst dst obj`, m row lines `i k st prim dual` and n column lines
 * `j k st prim dual` in order, then `e o f` and nothing after. Anything else is PROVIDER_FAILED.
 */
export function readGlpkBasicSolution(text: string, rows: number, columns: number): GlpkBasicSolution {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let at = 0;
  while (at < lines.length && /^c(?: |$)/.test(lines[at] ?? '')) at++;
  const head = (lines[at++] ?? '').split(' ');
  if (head.length !== 7 || head[0] !== 's' || head[1] !== 'bas') refuse(`expected "s bas m n pst dst obj", found ${JSON.stringify(lines[at - 1] ?? '')}`);
  if (head[2] !== String(rows) || head[3] !== String(columns)) refuse(`${head[2]} rows and ${head[3]} columns, not ${rows} and ${columns}`);
  const [primalStatus = '', dualStatus = '', objectiveText = ''] = head.slice(4);
  if (!/^[ufin]$/.test(primalStatus) || !/^[ufin]$/.test(dualStatus)) refuse(`unknown solution statuses ${primalStatus} ${dualStatus}`);
  const objective = decimal(objectiveText, 'the objective value');
  let outcome: GlpkBasicSolution['outcome'];
  if (primalStatus === 'f' && dualStatus === 'f') outcome = 'OPTIMAL';
  else if (primalStatus === 'n') outcome = 'INFEASIBLE';
  else if (primalStatus === 'f' && dualStatus === 'n') outcome = 'UNBOUNDED';
  else refuse(`the statuses ${primalStatus} ${dualStatus} are no final outcome`);
  const statuses = (kind: 'i' | 'j', count: number): GlpkStatus[] =>
    Array.from({ length: count }, (_, k) => {
      const line = lines[at++] ?? '';
      const fields = line.split(' ');
      if (fields.length !== 5 || fields[0] !== kind || fields[1] !== String(k + 1) || !STATUS.test(fields[2] ?? '')) refuse(`expected "${kind} ${k + 1} st prim dual", found ${JSON.stringify(line.slice(0, 80))}`);
      decimal(fields[3] ?? '', `${kind} ${k + 1} primal value`);
      decimal(fields[4] ?? '', `${kind} ${k + 1} dual value`);
      return fields[2] as GlpkStatus;
    });
  const rowStatus = statuses('i', rows);
  const columnStatus = statuses('j', columns);
  if (lines[at++] !== 'e o f' || at !== lines.length) refuse('it does not end with "e o f" right after the last column');
  return { outcome, primalStatus, dualStatus, objectiveText, objective, rowStatus, columnStatus };
}

/**
 * Whether glpsol's printed objective (of the scaled problem, %.15g of a double within one
 * rounding of the exact value) agrees with our exact value v: |printed − F·v| ≤ 10^(e−14) where
 * 10^e ≤ |printed| < 10^(e+1) (half a unit of the 15th significant digit for the printing, plus at
 * most 2^−52·|F·v| for the double, with room); a printed 0 must be exactly 0.
 */
export function glpkValueAgrees(printed: Rational, factor: Rational, exact: Rational): boolean {
  const Q = RATIONALS;
  const target = Q.mul(factor, exact);
  if (printed.num === 0n) return target.num === 0n;
  const num = abs(printed.num);
  let e = num.toString().length - printed.den.toString().length;
  if (e >= 0 ? num < printed.den * 10n ** BigInt(e) : num * 10n ** BigInt(-e) < printed.den) e--;
  const tolerance = e - 14 >= 0 ? makeRational(10n ** BigInt(e - 14), 1n) : makeRational(1n, 10n ** BigInt(14 - e));
  const difference = Q.sub(printed, target);
  const size = difference.num < 0n ? Q.neg(difference) : difference;
  return size.num * tolerance.den <= tolerance.num * size.den;
}
