/**
 * lp.solve: a linear program solved exactly, its answer (OPTIMAL, INFEASIBLE or UNBOUNDED) with a
 * certificate that holds in exact rational arithmetic, stored as a claim for lp.certificate.verify.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  canonicalLpCertificateClaim,
  JacobianError,
  LP_CERTIFICATE_CLAIM_SCHEMA_URI,
  LP_CERTIFICATE_CLAIM_SEMANTICS_URI,
  LP_LIMITS,
  LP_PROBLEM_SCHEMA_URI,
  LpCertificateClaimSchema,
  LpOutcomeSchema,
  LpProblemInputSchema,
  resolveLpOperand,
  runKernel,
  type CapabilityDefinition,
  type Diagnostic,
  type ProviderRuntime,
} from '@jacobian/shared';
import { storeClaim } from '../matrix/capability-support.js';
import { LpKernelOutput, type LpKernelInput } from './lp.kernel.js';
import { HIGHS_PROVIDER } from './provider.js';
import { EXACT_METHOD } from './solve-lp.js';

export const LP_SOLVE_ID = 'lp.solve';
const VERSION = '1.0.0';
const KERNEL = { module: fileURLToPath(new URL('./lp.kernel.ts', import.meta.url)), exportName: 'lpSolveKernel' };

export const LpSolveInput = z
  .object({
    problem: LpProblemInputSchema.optional(),
    problem_uri: ArtifactUriSchema.optional().describe('a stored linear program (lp.problem.construct)'),
    relaxation: z.boolean().optional().describe('true: solve the LP relaxation of a problem with integer variables (the markers are ignored); without it such a problem is refused (use milp.solve)'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.problem === undefined) === (input.problem_uri === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of `problem` and `problem_uri`' });
  });
export type LpSolveInput = z.infer<typeof LpSolveInput>;

const Sparse = z.record(z.string(), z.string()).nullable();

export const LpEngineSchema = z
  .object({
    provider: z.string(),
    version: z.string(),
    method: z.string(),
    compute_ms: z.number().int(),
    float_phase: z.string().nullable().describe('"HiGHS <version>: <its status>" when HiGHS solved first in floating point; null when the exact simplex ran alone'),
    started_from_float_basis: z.boolean().describe("true when the exact simplex started from HiGHS's final basis"),
    exact_pivots: z.number().int().describe('exact simplex iterations after the start (0: the start basis was already optimal, infeasible-proving or unbounded-proving)'),
    start_pivots: z.number().int().describe("pivots that brought HiGHS's basic columns into the exact basis"),
    bland_pivots: z.number().int().describe("iterations chosen by Bland's rule after degenerate stalls"),
  })
  .strict()
  .describe('who computed the answer and how');

export const LpSolveOutput = z
  .object({
    outcome: LpOutcomeSchema,
    objective_value: z.string().nullable().describe('OPTIMAL: the optimal value c·x + c₀, exactly'),
    primal: Sparse.describe('OPTIMAL: an optimal x; UNBOUNDED: a feasible x (variable → value, zeros omitted)'),
    dual: Sparse.describe('OPTIMAL: row → multiplier y_i, the shadow price ∂value/∂b_i'),
    reduced_costs: Sparse.describe('OPTIMAL: variable → d_j = c_j − (Aᵀy)_j'),
    farkas: Sparse.describe('INFEASIBLE: row → Farkas multiplier y_i'),
    ray: Sparse.describe('UNBOUNDED: variable → improving direction r_j'),
    relaxation: z.boolean().describe('true when the problem has integer variables and this is its LP relaxation'),
    result_uri: z.string().nullable().describe('the certificate stored as a claim, to pass to lp.certificate.verify; null when not retained'),
    engine: LpEngineSchema,
  })
  .strict();
export type LpSolveOutput = z.infer<typeof LpSolveOutput>;

const DESCRIPTION_EXACT =
  'Solve a linear program exactly: min or max c·x + c₀ subject to rows a·x ≤, =, ≥ b and bounds (free, lower, upper), all data exact rationals. OPTIMAL: x, dual y (shadow prices), reduced costs, equal primal and dual objectives; INFEASIBLE: a Farkas certificate; UNBOUNDED: a feasible point and an improving ray. The certificate is checked exactly before it is returned, and stored for lp.certificate.verify. Exact rational bounded-variable simplex (phase 1, Bland anti-cycling).';
const DESCRIPTION_HIGHS = ' HiGHS solves in floating point first; the exact simplex starts from its basis and pivots until the certificate holds exactly (as QSopt_ex, SoPlex).';

/** lp.solve on HiGHS + our exact simplex (when `runtime` is HiGHS's) or on our exact simplex alone. */
export function lpSolve(runtime: ProviderRuntime): CapabilityDefinition<LpSolveInput, LpSolveOutput> {
  const float = runtime.provider === HIGHS_PROVIDER;
  return {
    id: LP_SOLVE_ID,
    version: VERSION,
    title: 'Linear program, solved exactly with a certificate',
    description: float ? DESCRIPTION_EXACT + DESCRIPTION_HIGHS : DESCRIPTION_EXACT,
    tags: ['lp', 'linear-programming', 'optimization', 'exact', 'certificate', float ? 'highs' : 'typescript'],
    keywords: [
      'linear program',
      'linear programming',
      'LP',
      'simplex method',
      'exact rational simplex',
      'duality',
      'dual variables',
      'shadow prices',
      'reduced costs',
      'Farkas lemma',
      'infeasible',
      'unbounded',
      'optimal vertex',
      'minimize subject to constraints',
      'maximize subject to constraints',
      'LP relaxation',
    ],
    domain: 'optimization',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [LP_PROBLEM_SCHEMA_URI],
    produced_artifact_types: [LP_CERTIFICATE_CLAIM_SCHEMA_URI],
    input: LpSolveInput,
    output: LpSolveOutput,
    examples: [
      {
        title: 'max 3x + 5y, x ≤ 4, 2y ≤ 12, 3x + 2y ≤ 18 (OPTIMAL 36, shadow prices 3/2 and 1)',
        mode: 'EXPLORE',
        payload: {
          problem: {
            sense: 'maximize',
            variables: [{ name: 'x' }, { name: 'y' }],
            objective: { x: 3, y: 5 },
            constraints: [
              { name: 'a', coefficients: { x: 1 }, relation: '<=', rhs: 4 },
              { name: 'b', coefficients: { y: 2 }, relation: '<=', rhs: 12 },
              { name: 'c', coefficients: { x: 3, y: 2 }, relation: '<=', rhs: 18 },
            ],
          },
        },
      },
      {
        title: 'x + y ≥ 3 and x + y ≤ 1 (INFEASIBLE, Farkas y = (1, −1))',
        mode: 'EXPLORE',
        payload: {
          problem: {
            sense: 'minimize',
            variables: [{ name: 'x' }, { name: 'y' }],
            objective: { x: 1 },
            constraints: [
              { coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 3 },
              { coefficients: { x: 1, y: 1 }, relation: '<=', rhs: 1 },
            ],
          },
        },
      },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'lp.certificate.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given linear program (its LP relaxation when relaxation is true).',
    limits: { max_variables: LP_LIMITS.maxVariables, max_rows: LP_LIMITS.maxConstraints, max_nonzeros: LP_LIMITS.maxNonzeros, max_number_bits: LP_LIMITS.maxNumberBits },
    async run(input, context) {
      const resolved = await resolveLpOperand(input, context.artifacts, { signal: context.signal });
      const integer = resolved.problem.variables.findIndex((v) => v.integer);
      if (integer >= 0 && input.relaxation !== true) {
        const name = resolved.problem.variables[integer]?.name ?? '';
        const path = input.problem_uri !== undefined ? ['payload', 'problem_uri'] : ['payload', 'problem', 'variables', integer, 'integer'];
        throw new JacobianError('INVALID_REQUEST', `variable "${name.slice(0, 40)}" is integer: lp.solve solves linear programs only (rule integer-variables)`, {
          path,
          data: { rule: 'integer-variables' },
          hint: 'milp.solve solves mixed-integer programs; pass relaxation: true to solve the LP relaxation here',
        });
      }
      const started = Date.now();
      const kernelInput: LpKernelInput = { problem: resolved.problem, float };
      const { certificate, record } = LpKernelOutput.parse(await runKernel(context, KERNEL, kernelInput));
      const computeMs = Date.now() - started;
      const claim = LpCertificateClaimSchema.parse(canonicalLpCertificateClaim(certificate, resolved.problem));
      const diagnostics: Diagnostic[] = [];
      const resultUri = await storeClaim(
        { schema_uri: LP_CERTIFICATE_CLAIM_SCHEMA_URI, semantics_uri: LP_CERTIFICATE_CLAIM_SEMANTICS_URI, payload: claim, parents: resolved.input_uris, summary: { outcome: claim.outcome, relaxation: claim.relaxation } },
        context,
        diagnostics,
      );
      const engine = {
        provider: runtime.provider,
        version: runtime.version,
        method: float ? `HiGHS floating-point simplex for a starting basis, then ${EXACT_METHOD}` : EXACT_METHOD,
        compute_ms: computeMs,
        float_phase: record.float_phase,
        started_from_float_basis: record.started_from_float_basis,
        exact_pivots: record.stats.phase1_pivots + record.stats.phase2_pivots,
        start_pivots: record.stats.start_pivots,
        bland_pivots: record.stats.bland_pivots,
      };
      const subject = claim.relaxation ? `the LP relaxation of ${resolved.description}` : resolved.description;
      return {
        status: 'COMPLETED',
        output: { ...certificate, relaxation: claim.relaxation, result_uri: resultUri, engine },
        scope: { kind: 'EXACT_INPUT', statement: `the ${certificate.outcome} answer, with its certificate, of ${subject}`.slice(0, 2000), input_uris: resolved.input_uris },
        completeness: { status: 'COMPLETE', basis: 'the exact simplex ran to an optimal, infeasibility-proving or unboundedness-proving basis, and the certificate holds exactly' },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: 'COMPUTED',
          basis: "computed by our exact rational simplex; the certificate was checked exactly by the producer's own check before it was returned; lp.certificate.verify checks it independently",
          verification_record_uri: null,
          checker_id: null,
        },
        obligations: [],
        relationships: [],
        artifact_uris: resultUri === null ? [] : [resultUri],
        diagnostics,
      };
    },
  };
}
