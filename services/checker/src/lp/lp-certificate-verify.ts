/**
 * The checks behind lp.certificate.verify and lp.farkas.verify: the conditions stated at the top
 * of shared/src/domains/lp/certificate.ts, each decided exactly with this directory's own
 * rational arithmetic (exact.ts) and no code of any producer. shared/ is used only to parse the
 * stored claim (its schema re-checks that problem and vectors are canonical and name only rows and
 * variables of the problem).
 *
 * A failed condition is named with its number, where it fails (the row or variable) and by how
 * much, e.g. "condition 1 (x feasible): row cap: a·x = 7/2 > rhs 3, by 1/2".
 */
import { LpCertificateClaimSchema, type LpCertificateClaim, type LpRelation } from '@jacobian/shared';
import { brief, compare, equal, fraction, neg, scaled, sign, sub, Sum, ZERO, type Q, type Scaled } from './exact.js';

export const LpRejectionReason = {
  /** Condition 1: a variable of x outside its bounds. */
  PRIMAL_BOUND: 'PRIMAL_BOUND',
  /** Condition 1: a row that x does not satisfy. */
  PRIMAL_ROW: 'PRIMAL_ROW',
  /** Condition 2: d_j ≠ c_j − (Aᵀy)_j. */
  REDUCED_COST_MISMATCH: 'REDUCED_COST_MISMATCH',
  /** Condition 3: a row multiplier y_i with the wrong sign for the row's relation and the sense. */
  DUAL_SIGN: 'DUAL_SIGN',
  /** Condition 3: a non-zero reduced cost whose sign needs a bound that is infinite. */
  REDUCED_COST_SIGN: 'REDUCED_COST_SIGN',
  /** Condition 4: c·x + c₀ differs from the claimed optimal value. */
  OBJECTIVE_MISMATCH: 'OBJECTIVE_MISMATCH',
  /** Condition 4: the dual objective differs from the claimed optimal value (a duality gap). */
  DUAL_OBJECTIVE_MISMATCH: 'DUAL_OBJECTIVE_MISMATCH',
  /** Farkas: a multiplier with the wrong sign for its row (y_i ≥ 0 on ≥ rows, ≤ 0 on ≤ rows). */
  FARKAS_SIGN: 'FARKAS_SIGN',
  /** Farkas: (Aᵀy)_j ≠ 0 where the bound it needs is infinite, so max (Aᵀy)·x over the bounds is +∞. */
  FARKAS_INFINITE_BOUND: 'FARKAS_INFINITE_BOUND',
  /** Farkas: max (Aᵀy)·x over the bounds is not strictly below b·y. */
  FARKAS_NOT_STRICT: 'FARKAS_NOT_STRICT',
  /** Ray: a·r of the wrong sign for a row (≥ 0 on ≥, ≤ 0 on ≤, = 0 on = rows). */
  RAY_ROW: 'RAY_ROW',
  /** Ray: r_j < 0 at a finite lower bound or r_j > 0 at a finite upper bound: x + t·r leaves the bound. */
  RAY_BOUND: 'RAY_BOUND',
  /** Ray: c·r is not < 0 (minimize) or > 0 (maximize). */
  RAY_NOT_IMPROVING: 'RAY_NOT_IMPROVING',
} as const;
export type LpRejectionReason = (typeof LpRejectionReason)[keyof typeof LpRejectionReason];

export type LpCheckResult =
  | { accepted: true; message: string }
  | { accepted: false; reason_code: LpRejectionReason; message: string; path: (string | number)[]; witness: string | null };

type Checkpoint = () => void;

interface Row {
  name: string;
  /** The row's coefficients over one denominator: a_{i,columns[k]} = numerators[k]/den. */
  columns: number[];
  numerators: readonly bigint[];
  den: bigint;
  relation: LpRelation;
  rhs: Q;
}

/** The claim's problem and vectors as exact numbers, dense by variable and row index. */
interface Model {
  minimize: boolean;
  sense: string;
  names: string[];
  lower: (Q | null)[];
  upper: (Q | null)[];
  cost: Q[];
  constant: Q;
  rows: Row[];
}

const SYMBOL: Record<LpRelation, string> = { '<=': '≤', '=': '=', '>=': '≥' };

/** Reads the claim's numbers, each distinct text once (a matrix of small integers has few). */
type NumberReader = (text: string) => Q;

function numberReader(): NumberReader {
  const values = new Map<string, Q>();
  return (text) => {
    let value = values.get(text);
    if (value === undefined) {
      value = readCanonical(text);
      values.set(text, value);
    }
    return value;
  };
}

const CANONICAL_NUMBER = /^-?(0|[1-9][0-9]*)(\/[1-9][0-9]*)?$/;

/**
 * The value of a number of a parsed claim. Its schema has refused every number not in lowest terms
 * (and "-0", "p/1"), so the gcd is not taken a second time here: a vertex's coordinates run to
 * thousands of bits, where that gcd is a large share of the check. Anything else is a bug.
 */
function readCanonical(text: string): Q {
  if (!CANONICAL_NUMBER.test(text)) throw new Error(`not a canonical number: ${text.slice(0, 40)}`);
  const slash = text.indexOf('/');
  return slash < 0 ? { num: BigInt(text), den: 1n } : { num: BigInt(text.slice(0, slash)), den: BigInt(text.slice(slash + 1)) };
}

function rowOf(row: LpCertificateClaim['problem']['constraints'][number], at: (name: string) => number, read: NumberReader): Row {
  const columns: number[] = [];
  const values: Q[] = [];
  // Object.keys, not Object.entries: building the pairs was most of this loop on a dense row.
  for (const name of Object.keys(row.coefficients)) {
    columns.push(at(name));
    values.push(read(row.coefficients[name] as string));
  }
  const { nums, den } = scaled(values);
  return { name: row.name, columns, numerators: nums, den, relation: row.relation, rhs: read(row.rhs) };
}

function modelOf(claim: LpCertificateClaim, number: NumberReader): Model {
  const { problem } = claim;
  const index = new Map<string, number>();
  problem.variables.forEach((v, j) => index.set(v.name, j));
  const at = (name: string): number => {
    const j = index.get(name);
    if (j === undefined) throw new Error(`unknown variable ${name.slice(0, 40)} in a parsed claim`);
    return j;
  };
  const cost = problem.variables.map(() => ZERO);
  for (const name of Object.keys(problem.objective)) cost[at(name)] = number(problem.objective[name] as string);
  return {
    minimize: problem.sense === 'minimize',
    sense: problem.sense === 'minimize' ? 'minimization' : 'maximization',
    names: problem.variables.map((v) => v.name),
    lower: problem.variables.map((v) => (v.lower === null ? null : number(v.lower))),
    upper: problem.variables.map((v) => (v.upper === null ? null : number(v.upper))),
    cost,
    constant: number(problem.objective_constant),
    rows: problem.constraints.map((row) => rowOf(row, at, number)),
  };
}

/** A sparse claim vector, dense over `names` (omitted names are 0). */
function dense(vector: Record<string, string> | null, names: readonly string[], number: NumberReader): Q[] {
  return names.map((name) => {
    const text = vector === null ? undefined : Object.hasOwn(vector, name) ? vector[name] : undefined;
    return text === undefined ? ZERO : number(text);
  });
}

function reject(reason_code: LpRejectionReason, message: string, path: (string | number)[], witness: string | null = null): LpCheckResult {
  return { accepted: false, reason_code, message: message.slice(0, 2000), path, witness };
}

const show = (a: Q): string => brief(a);
const by = (a: Q, b: Q): string => show(sign(sub(a, b)) < 0 ? sub(b, a) : sub(a, b));

/**
 * An exact value p/q with q > 0 not necessarily in lowest terms: compared by cross multiplication
 * and reduced (with {@link reduced}) only for a message, since the reductions are most of what
 * a·x costs otherwise.
 */
type Unreduced = Q;
const reduced = (a: Unreduced): Q => fraction(a.num, a.den);

/** a·v for one row, v over its common denominator: (Σ_k A_k·V_{j_k}) / (row.den·v.den), unreduced. */
function activity(row: Row, v: Scaled): Unreduced {
  const { columns, numerators } = row;
  let sum = 0n;
  for (let k = 0; k < columns.length; k++) {
    const vj = v.nums[columns[k] as number] as bigint;
    if (vj !== 0n) sum += (numerators[k] as bigint) * vj;
  }
  return { num: sum, den: row.den * v.den };
}

/**
 * Aᵀy, dense by variable: with w_i = y_i/row_i.den over one common denominator L (w_i = W_i/L),
 * (Aᵀy)_j = (Σ_i A_ij·W_i) / L, integers only until one reduction per variable.
 */
function transposeTimes(model: Model, y: readonly Q[], checkpoint: Checkpoint): Unreduced[] {
  const w = scaled(model.rows.map((row, i) => fraction((y[i] as Q).num, (y[i] as Q).den * row.den)));
  const sums = model.names.map(() => 0n);
  model.rows.forEach((row, i) => {
    const wi = w.nums[i] as bigint;
    if (wi === 0n) return;
    checkpoint();
    const { columns, numerators } = row;
    for (let k = 0; k < columns.length; k++) {
      const j = columns[k] as number;
      sums[j] = (sums[j] as bigint) + (numerators[k] as bigint) * wi;
    }
  });
  return sums.map((s) => ({ num: s, den: w.den }));
}

/** Whether the value v of a·z for a row with `relation` has the sign that relation asks of a direction (≥ 0, ≤ 0 or = 0). */
function signFits(relation: LpRelation, v: Q): boolean {
  const s = sign(v);
  return relation === '>=' ? s >= 0 : relation === '<=' ? s <= 0 : s === 0;
}

/** Condition 1 (and the feasible point of UNBOUNDED): x within every bound and every row. */
function checkFeasible(model: Model, x: readonly Q[], condition: string, checkpoint: Checkpoint): LpCheckResult | null {
  const xs = scaled(x);
  for (const [j, name] of model.names.entries()) {
    const xj = x[j] as Q;
    const lower = model.lower[j] ?? null;
    const upper = model.upper[j] ?? null;
    if (lower !== null && compare(xj, lower) < 0) return reject(LpRejectionReason.PRIMAL_BOUND, `${condition}: variable ${name}: x = ${show(xj)} < lower bound ${show(lower)}, by ${by(lower, xj)}`, ['primal', name], `variable ${name}`);
    if (upper !== null && compare(xj, upper) > 0) return reject(LpRejectionReason.PRIMAL_BOUND, `${condition}: variable ${name}: x = ${show(xj)} > upper bound ${show(upper)}, by ${by(xj, upper)}`, ['primal', name], `variable ${name}`);
  }
  for (const row of model.rows) {
    checkpoint();
    const c = compare(activity(row, xs), row.rhs);
    const holds = row.relation === '>=' ? c >= 0 : row.relation === '<=' ? c <= 0 : c === 0;
    if (!holds) {
      const value = reduced(activity(row, xs));
      const relation = c < 0 ? '<' : '>';
      return reject(LpRejectionReason.PRIMAL_ROW, `${condition}: row ${row.name} (${SYMBOL[row.relation]}): a·x = ${show(value)} ${relation} rhs ${show(row.rhs)}, by ${by(value, row.rhs)}`, ['primal'], `row ${row.name}`);
    }
  }
  return null;
}

/** The sign a multiplier of a row must have (1: ≥ 0, −1: ≤ 0, 0: free), for a minimization; a maximization flips it. */
function multiplierSign(relation: LpRelation, minimize: boolean): -1 | 0 | 1 {
  const base = relation === '>=' ? 1 : relation === '<=' ? -1 : 0;
  return (minimize ? base : -base) as -1 | 0 | 1;
}

function checkOptimal(model: Model, claim: LpCertificateClaim, number: NumberReader, checkpoint: Checkpoint): LpCheckResult {
  const x = dense(claim.primal, model.names, number);
  const rowNames = model.rows.map((r) => r.name);
  const y = dense(claim.dual, rowNames, number);
  const d = dense(claim.reduced_costs, model.names, number);
  const v = number(claim.objective_value ?? '0');
  const infeasible = checkFeasible(model, x, 'condition 1 (x feasible)', checkpoint);
  if (infeasible !== null) return infeasible;

  const g = transposeTimes(model, y, checkpoint);
  for (const [j, name] of model.names.entries()) {
    const dj = d[j] as Q;
    const gj = g[j] as Unreduced;
    // d_j = c_j − g_j, i.e. d_j + g_j = c_j, decided on g_j unreduced.
    if (compare({ num: dj.num * gj.den + gj.num * dj.den, den: dj.den * gj.den }, model.cost[j] as Q) !== 0) {
      const expected = sub(model.cost[j] as Q, reduced(gj));
      return reject(
        LpRejectionReason.REDUCED_COST_MISMATCH,
        `condition 2 (d = c − Aᵀy): variable ${name}: d = ${show(dj)}, but c − (Aᵀy) = ${show(model.cost[j] as Q)} − ${show(reduced(gj))} = ${show(expected)}, off by ${by(dj, expected)}`,
        ['reduced_costs', name],
        `variable ${name}`,
      );
    }
  }

  for (const [i, row] of model.rows.entries()) {
    const yi = y[i] as Q;
    const needed = multiplierSign(row.relation, model.minimize);
    if (yi.num === 0n || needed === 0 || sign(yi) === needed) continue;
    return reject(
      LpRejectionReason.DUAL_SIGN,
      `condition 3 (signs): row ${row.name} (${SYMBOL[row.relation]}) of a ${model.sense}: y = ${show(yi)}, but must be ${needed > 0 ? '≥ 0' : '≤ 0'}${model.minimize ? '' : ' (a maximization flips the signs of a minimization)'}`,
      ['dual', row.name],
      `row ${row.name}`,
    );
  }
  /** The bound d_j·x_j is bounded by: the lower one when (minimize, d_j > 0) or (maximize, d_j < 0). */
  const bounds: Q[] = [];
  for (const [j, name] of model.names.entries()) {
    const dj = d[j] as Q;
    if (dj.num === 0n) {
      bounds.push(ZERO);
      continue;
    }
    const useLower = model.minimize === (sign(dj) > 0);
    const bound = useLower ? model.lower[j] : model.upper[j];
    if (bound === null || bound === undefined) {
      return reject(
        LpRejectionReason.REDUCED_COST_SIGN,
        `condition 3 (signs): variable ${name}: d = ${show(dj)} ${sign(dj) > 0 ? '> 0' : '< 0'} in a ${model.sense} needs a finite ${useLower ? 'lower' : 'upper'} bound, but ${name}'s is ${useLower ? '−∞' : '+∞'}`,
        ['reduced_costs', name],
        `variable ${name}`,
      );
    }
    bounds.push(bound);
  }

  const primal = new Sum();
  for (const [j, cj] of model.cost.entries()) primal.addProduct(cj, x[j] as Q);
  primal.add(model.constant);
  const primalValue = primal.value();
  if (!equal(primalValue, v)) {
    return reject(LpRejectionReason.OBJECTIVE_MISMATCH, `condition 4 (objectives): c·x + c₀ = ${show(primalValue)}, but the claimed optimal value is ${show(v)}, off by ${by(primalValue, v)}`, ['objective_value'], null);
  }
  const dual = new Sum();
  for (const [i, row] of model.rows.entries()) dual.addProduct(row.rhs, y[i] as Q);
  for (const [j, dj] of d.entries()) dual.addProduct(dj, bounds[j] as Q);
  dual.add(model.constant);
  const dualValue = dual.value();
  if (!equal(dualValue, v)) {
    return reject(
      LpRejectionReason.DUAL_OBJECTIVE_MISMATCH,
      `condition 4 (objectives): the dual objective b·y + Σ d_j·(bound) + c₀ = ${show(dualValue)}, but c·x + c₀ = ${show(v)}: a duality gap of ${by(dualValue, v)}`,
      ['dual'],
      null,
    );
  }
  return {
    accepted: true,
    message: `conditions 1–4 hold exactly: x satisfies all ${model.rows.length} rows and ${model.names.length} bound pairs; d = c − Aᵀy; y and d have the signs of a ${model.sense}; c·x + c₀ = ${show(v)} = the dual objective, so ${show(v)} is the optimal value`,
  };
}

function checkFarkas(model: Model, claim: LpCertificateClaim, number: NumberReader, checkpoint: Checkpoint): LpCheckResult {
  const y = dense(claim.farkas, model.rows.map((r) => r.name), number);
  for (const [i, row] of model.rows.entries()) {
    const yi = y[i] as Q;
    // Farkas multipliers have the signs of a minimization's duals: y_i·(a_i·x) ≥ y_i·b_i on every row.
    const needed = multiplierSign(row.relation, true);
    if (yi.num === 0n || needed === 0 || sign(yi) === needed) continue;
    return reject(LpRejectionReason.FARKAS_SIGN, `Farkas signs: row ${row.name} (${SYMBOL[row.relation]}): y = ${show(yi)}, but must be ${needed > 0 ? '≥ 0' : '≤ 0'} so that y·(a·x) ≥ y·b on the row`, ['farkas', row.name], `row ${row.name}`);
  }
  const g = transposeTimes(model, y, checkpoint);
  const maximum = new Sum();
  for (const [j, name] of model.names.entries()) {
    const gj = g[j] as Unreduced;
    if (gj.num === 0n) continue;
    const bound = sign(gj) > 0 ? model.upper[j] : model.lower[j];
    if (bound === null || bound === undefined) {
      return reject(
        LpRejectionReason.FARKAS_INFINITE_BOUND,
        `Farkas bound term: (Aᵀy) at variable ${name} is ${show(reduced(gj))} ${sign(gj) > 0 ? '> 0 and needs its upper bound, which is +∞' : '< 0 and needs its lower bound, which is −∞'}: max (Aᵀy)·x over the bounds is +∞, no contradiction`,
        ['farkas'],
        `variable ${name}`,
      );
    }
    maximum.addProduct(gj, bound);
  }
  const max = maximum.value();
  const rhs = new Sum();
  for (const [i, row] of model.rows.entries()) rhs.addProduct(row.rhs, y[i] as Q);
  const yb = rhs.value();
  if (compare(max, yb) >= 0) {
    return reject(LpRejectionReason.FARKAS_NOT_STRICT, `Farkas sum: max (Aᵀy)·x over the bounds = ${show(max)} ≥ b·y = ${show(yb)}${equal(max, yb) ? '' : `, by ${by(max, yb)}`}; it must be strictly below b·y`, ['farkas'], null);
  }
  return {
    accepted: true,
    message: `the Farkas conditions hold exactly: y has the right sign on every row, so every x satisfying the rows has (Aᵀy)·x ≥ b·y = ${show(yb)}, while every x within the bounds has (Aᵀy)·x ≤ ${show(max)} < b·y (every bound used finite): no x satisfies both`,
  };
}

function checkUnbounded(model: Model, claim: LpCertificateClaim, number: NumberReader, checkpoint: Checkpoint): LpCheckResult {
  const x = dense(claim.primal, model.names, number);
  const r = dense(claim.ray, model.names, number);
  const rs = scaled(r);
  const infeasible = checkFeasible(model, x, 'the point x is not feasible', checkpoint);
  if (infeasible !== null) return infeasible;
  for (const row of model.rows) {
    checkpoint();
    if (!signFits(row.relation, activity(row, rs))) {
      const value = reduced(activity(row, rs));
      const wanted = row.relation === '>=' ? '≥ 0' : row.relation === '<=' ? '≤ 0' : '= 0';
      return reject(LpRejectionReason.RAY_ROW, `ray: row ${row.name} (${SYMBOL[row.relation]}): a·r = ${show(value)}, but must be ${wanted} (off by ${show(sign(value) < 0 ? neg(value) : value)}), so x + t·r leaves the row`, ['ray'], `row ${row.name}`);
    }
  }
  for (const [j, name] of model.names.entries()) {
    const rj = r[j] as Q;
    if (sign(rj) < 0 && model.lower[j] !== null) return reject(LpRejectionReason.RAY_BOUND, `ray: variable ${name}: r = ${show(rj)} < 0, but ${name} has the finite lower bound ${show(model.lower[j] as Q)}, which x + t·r leaves`, ['ray', name], `variable ${name}`);
    if (sign(rj) > 0 && model.upper[j] !== null) return reject(LpRejectionReason.RAY_BOUND, `ray: variable ${name}: r = ${show(rj)} > 0, but ${name} has the finite upper bound ${show(model.upper[j] as Q)}, which x + t·r leaves`, ['ray', name], `variable ${name}`);
  }
  const slope = new Sum();
  for (const [j, cj] of model.cost.entries()) slope.addProduct(cj, r[j] as Q);
  const cr = slope.value();
  if (model.minimize ? sign(cr) >= 0 : sign(cr) <= 0) {
    return reject(LpRejectionReason.RAY_NOT_IMPROVING, `ray: c·r = ${show(cr)}, but a ${model.sense} needs c·r ${model.minimize ? '< 0' : '> 0'}`, ['ray'], null);
  }
  return {
    accepted: true,
    message: `x is feasible; r keeps every row and bound (a·r has each row's sign, r points away from every finite bound) and c·r = ${show(cr)} ${model.minimize ? '< 0' : '> 0'}: c·(x + t·r) + c₀ goes to ${model.minimize ? '−∞' : '+∞'} as t → ∞ with x + t·r feasible`,
  };
}

/** Check a stored LP certificate claim (it must parse with LpCertificateClaimSchema) against its outcome's conditions. */
export function checkLpCertificateClaim(raw: unknown, checkpoint: Checkpoint = () => undefined): LpCheckResult {
  const claim = LpCertificateClaimSchema.parse(raw);
  const number = numberReader();
  const model = modelOf(claim, number);
  switch (claim.outcome) {
    case 'OPTIMAL':
      return checkOptimal(model, claim, number, checkpoint);
    case 'INFEASIBLE':
      return checkFarkas(model, claim, number, checkpoint);
    case 'UNBOUNDED':
      return checkUnbounded(model, claim, number, checkpoint);
  }
}

