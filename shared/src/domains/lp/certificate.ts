/**
 * The certificate of a linear program's answer, as lp.solve stores it and lp.certificate.verify /
 * lp.farkas.verify check it. Vectors are sparse maps from a variable's or row's name to an exact
 * number (omitted names are 0). With the problem's data — rows a_i·x (rel_i) b_i, bounds
 * l ≤ x ≤ u (null for infinite), objective c·x + c₀ — the three outcomes and their conditions:
 *
 * - **OPTIMAL** (value v): a primal point x, row multipliers y (`dual`) and reduced costs
 *   d (`reduced_costs`) with
 *   1. x satisfies every row and every bound;
 *   2. d = c − Aᵀy exactly;
 *   3. signs, for minimize: y_i ≥ 0 on ≥ rows, y_i ≤ 0 on ≤ rows (free on = rows); d_j > 0 only
 *      where l_j is finite and d_j < 0 only where u_j is finite. For maximize every sign flips:
 *      y_i ≤ 0 on ≥ rows, y_i ≥ 0 on ≤ rows; d_j < 0 only where l_j is finite, d_j > 0 only where
 *      u_j is finite. Either way y_i is the shadow price ∂v/∂b_i;
 *   4. c·x + c₀ = v = b·y + Σ_j d_j·(l_j where the sign of d_j needs the lower bound, else u_j) + c₀,
 *      the dual objective. (Weak duality: for any feasible x′, c·x′ ≥ the dual objective when
 *      minimizing, ≤ when maximizing; so x is optimal.)
 * - **INFEASIBLE**: row multipliers y (`farkas`) with y_i ≥ 0 on ≥ rows, y_i ≤ 0 on ≤ rows (free
 *   on = rows), so that every x satisfying the rows has g·x ≥ b·y for g = Aᵀy; and
 *   max { g·x : l ≤ x ≤ u } = Σ_{g_j>0} g_j u_j + Σ_{g_j<0} g_j l_j < b·y, where every bound used
 *   is finite. Then no x satisfies both the rows and the bounds. (Bounds are never contradictory:
 *   a problem with l_j > u_j is refused when it is read.)
 * - **UNBOUNDED**: a feasible point x (`primal`) and a ray r (`ray`) with a_i·r ≥ 0 on ≥ rows,
 *   ≤ 0 on ≤ rows, = 0 on = rows; r_j ≥ 0 where l_j is finite and r_j ≤ 0 where u_j is finite; and
 *   c·r < 0 when minimizing, > 0 when maximizing. Then x + t·r is feasible for all t ≥ 0 and the
 *   objective goes to −∞ (+∞).
 *
 * Integer markers play no part in these conditions: a certificate is about the problem's linear
 * relaxation. A claim whose problem has integer variables says so in its `relaxation` field.
 */
import { z } from 'zod';
import { ArtifactUriSchema } from '../../artifacts/manifest.js';
import { JacobianError, type JsonPath } from '../../errors.js';
import { formatLpNumber, isStoredText, LP_CERTIFICATE_NUMBER_LIMITS, LP_LIMITS, LpProblemInputSchema, LpProblemSchema, LpRule, lpNumber, parseCanonicalLpNumber, storedNumberRecord, storedTextError, type LpNumber, type LpProblem } from './problem.js';

export const LP_CERTIFICATE_CLAIM_SCHEMA_URI = 'jacobian:schema/lp.certificate.claim/v1';
export const LP_CERTIFICATE_CLAIM_SEMANTICS_URI = 'jacobian:semantics/lp.certificate.duality_farkas_ray/v1';

export const LpOutcomeSchema = z.enum(['OPTIMAL', 'INFEASIBLE', 'UNBOUNDED']);
export type LpOutcome = z.infer<typeof LpOutcomeSchema>;

/** One number of a certificate: as a problem's (LpNumberSchema), but up to LP_LIMITS.maxCertificateNumberTextLength characters. */
export const LpCertificateNumberSchema = z
  .union([z.number().refine(Number.isFinite, 'must be finite'), z.string().min(1).max(LP_LIMITS.maxCertificateNumberTextLength)])
  .describe('an exact number: an integer, a decimal such as "2.5", or a fraction "p/q"; JSON numbers are read as the decimal they print as');
const StoredNumber = z.string().max(LP_LIMITS.maxCertificateNumberTextLength);
const SparseVector = z.record(z.string(), LpCertificateNumberSchema);
/** Its entries are checked in the claim's refinement (see storedNumberRecord). */
const StoredSparseVector = storedNumberRecord(LP_LIMITS.maxCertificateNumberTextLength);

/** Which certificate fields each outcome needs; every other certificate field must be absent. */
export const CERTIFICATE_FIELDS: Record<LpOutcome, readonly ('objective_value' | 'primal' | 'dual' | 'reduced_costs' | 'farkas' | 'ray')[]> = {
  OPTIMAL: ['objective_value', 'primal', 'dual', 'reduced_costs'],
  INFEASIBLE: ['farkas'],
  UNBOUNDED: ['primal', 'ray'],
};
const ALL_FIELDS = ['objective_value', 'primal', 'dual', 'reduced_costs', 'farkas', 'ray'] as const;

function refineOutcomeFields(input: Record<string, unknown> & { outcome: LpOutcome }, ctx: z.RefinementCtx): void {
  const needed = CERTIFICATE_FIELDS[input.outcome];
  for (const field of ALL_FIELDS) {
    const present = input[field] !== undefined && input[field] !== null;
    if (needed.includes(field) && !present) ctx.addIssue({ code: 'custom', path: [field], message: `required when outcome is ${input.outcome}` });
    if (!needed.includes(field) && present) ctx.addIssue({ code: 'custom', path: [field], message: `must be absent or null when outcome is ${input.outcome}` });
  }
}

/** The certificate fields of a request: an agent's own certificate, or a producer's printed one. */
export const lpCertificateShape = {
  outcome: LpOutcomeSchema,
  objective_value: LpCertificateNumberSchema.nullable().optional().describe('OPTIMAL: the optimal value c·x + c₀'),
  primal: SparseVector.nullable().optional().describe('OPTIMAL, UNBOUNDED: variable name → value of a feasible x'),
  dual: SparseVector.nullable().optional().describe('OPTIMAL: row name → multiplier y_i (shadow price)'),
  reduced_costs: SparseVector.nullable().optional().describe('OPTIMAL: variable name → d_j = c_j − (Aᵀy)_j'),
  farkas: SparseVector.nullable().optional().describe('INFEASIBLE: row name → multiplier y_i'),
  ray: SparseVector.nullable().optional().describe('UNBOUNDED: variable name → improving direction r_j'),
} as const;

/** A certificate claim as a request gives it: the problem inline or by problem_uri, and the certificate. */
export const LpCertificateClaimInputSchema = z
  .object({
    problem: LpProblemInputSchema.optional(),
    problem_uri: ArtifactUriSchema.optional().describe('a stored linear program'),
    ...lpCertificateShape,
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.problem === undefined) === (input.problem_uri === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of `problem` and `problem_uri`' });
    refineOutcomeFields(input, ctx);
  });
export type LpCertificateClaimInput = z.infer<typeof LpCertificateClaimInputSchema>;

/** A stored certificate claim: the canonical problem and canonical sparse vectors (zeros dropped). */
export const LpCertificateClaimSchema = z
  .object({
    problem: LpProblemSchema,
    /** True when the problem has integer variables: the certificate is about its linear relaxation. */
    relaxation: z.boolean(),
    outcome: LpOutcomeSchema,
    objective_value: StoredNumber.nullable(),
    primal: StoredSparseVector.nullable(),
    dual: StoredSparseVector.nullable(),
    reduced_costs: StoredSparseVector.nullable(),
    farkas: StoredSparseVector.nullable(),
    ray: StoredSparseVector.nullable(),
  })
  .strict()
  .superRefine((claim, ctx) => {
    refineOutcomeFields(claim, ctx);
    if (claim.relaxation !== claim.problem.variables.some((v) => v.integer)) ctx.addIssue({ code: 'custom', path: ['relaxation'], message: 'must be true exactly when the problem has integer variables' });
    if (claim.objective_value !== null && parseCanonicalLpNumber(claim.objective_value) === null) ctx.addIssue({ code: 'custom', path: ['objective_value'], message: `not a canonical number (rule ${LpRule.CANONICAL})` });
    const variables = new Set(claim.problem.variables.map((v) => v.name));
    const rows = new Set(claim.problem.constraints.map((c) => c.name));
    const vectors: [string, Record<string, string> | null, Set<string>][] = [
      ['primal', claim.primal, variables],
      ['reduced_costs', claim.reduced_costs, variables],
      ['ray', claim.ray, variables],
      ['dual', claim.dual, rows],
      ['farkas', claim.farkas, rows],
    ];
    for (const [field, vector, names] of vectors) {
      if (vector === null) continue;
      for (const name of Object.keys(vector)) {
        const text: unknown = vector[name];
        if (!isStoredText(text, LP_LIMITS.maxCertificateNumberTextLength)) {
          ctx.addIssue({ code: 'custom', path: [field, name], message: storedTextError(text, LP_LIMITS.maxCertificateNumberTextLength, [field, name]).message });
          continue;
        }
        if (!names.has(name)) {
          ctx.addIssue({ code: 'custom', path: [field, name], message: `"${name.slice(0, 40)}" is not a ${names === rows ? 'row' : 'variable'} of the problem (rule ${LpRule.UNKNOWN_NAME})` });
          continue;
        }
        const value = parseCanonicalLpNumber(text);
        if (value === null || value.num === 0n) ctx.addIssue({ code: 'custom', path: [field, name], message: `not a canonical non-zero number (rule ${LpRule.CANONICAL})` });
      }
    }
  });
export type LpCertificateClaim = z.infer<typeof LpCertificateClaimSchema>;

/** A certificate vector in canonical form: names checked against `names`, numbers exact, zeros dropped. */
export function canonicalSparseVector(vector: Record<string, LpNumber>, names: ReadonlySet<string>, what: 'variable' | 'row', path: JsonPath): Record<string, string> {
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(vector)) {
    if (!names.has(name)) {
      throw new JacobianError('INVALID_REQUEST', `"${name.slice(0, 40)}" is not a ${what} of the problem (rule ${LpRule.UNKNOWN_NAME})`, { path: [...path, name], data: { rule: LpRule.UNKNOWN_NAME } });
    }
    const number = lpNumber(value, [...path, name], LP_CERTIFICATE_NUMBER_LIMITS);
    if (number.num !== 0n) out.push([name, formatLpNumber(number)]);
  }
  return Object.fromEntries(out);
}

/**
 * The stored claim of a validated certificate request, given the problem it is about (already
 * canonical: resolved from problem_uri, or canonicalLpProblem of the inline one).
 * Bad names and numbers are INVALID_REQUEST at their path under `path`.
 */
export function canonicalLpCertificateClaim(input: Omit<LpCertificateClaimInput, 'problem' | 'problem_uri'>, problem: LpProblem, path: JsonPath = ['payload']): LpCertificateClaim {
  const variables = new Set(problem.variables.map((v) => v.name));
  const rows = new Set(problem.constraints.map((c) => c.name));
  const vector = (value: Record<string, LpNumber> | null | undefined, names: ReadonlySet<string>, what: 'variable' | 'row', field: string): Record<string, string> | null =>
    value === undefined || value === null ? null : canonicalSparseVector(value, names, what, [...path, field]);
  return {
    problem,
    relaxation: problem.variables.some((v) => v.integer),
    outcome: input.outcome,
    objective_value: input.objective_value === undefined || input.objective_value === null ? null : formatLpNumber(lpNumber(input.objective_value, [...path, 'objective_value'], LP_CERTIFICATE_NUMBER_LIMITS)),
    primal: vector(input.primal, variables, 'variable', 'primal'),
    dual: vector(input.dual, rows, 'row', 'dual'),
    reduced_costs: vector(input.reduced_costs, variables, 'variable', 'reduced_costs'),
    farkas: vector(input.farkas, rows, 'row', 'farkas'),
    ray: vector(input.ray, variables, 'variable', 'ray'),
  };
}
