/**
 * The independent checkers of linear programming answers:
 *
 * - `lp.certificate.verify`: a claim that a linear program is OPTIMAL with value v (primal x,
 *   duals y, reduced costs d), INFEASIBLE (Farkas multipliers y) or UNBOUNDED (feasible x,
 *   improving ray r), as lp.solve stores it (`result_uri`) or inline, with the problem inline or
 *   by problem_uri;
 * - `lp.farkas.verify`: an agent's own claim that a system of linear rows and bounds has no
 *   rational solution, with the multipliers y.
 *
 * Both decide exactly the conditions stated in shared/src/domains/lp/certificate.ts, with their
 * own rational arithmetic (lp-certificate-verify.ts, exact.ts; no code of the producers), in an
 * isolated kernel. An accepted claim is stored (unless it came stored) and gets a signed
 * verification record bound to it; a rejected one names the failed condition, where and by how much.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  canonicalLpCertificateClaim,
  getTypedArtifactAt,
  isAuthorized,
  JacobianError,
  LP_CERTIFICATE_CLAIM_SCHEMA_URI,
  LP_CERTIFICATE_CLAIM_SEMANTICS_URI,
  LP_LIMITS,
  LP_PROBLEM_SCHEMA_URI,
  LP_SOURCES,
  LpCertificateClaimInputSchema,
  LpCertificateClaimSchema,
  LpCertificateNumberSchema,
  LpProblemInputSchema,
  lpShape,
  resolveLpOperand,
  runKernel,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type JsonPath,
  type LpCertificateClaim,
  type LpProblem,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { matrixCheckResult, matrixVerifyInput, matrixVerifyOutput } from '../matrix/linear-algebra-verify-capability.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import { LpRejectionReason } from './lp-certificate-verify.js';

export const LP_CERTIFICATE_VERIFY_CAPABILITY_ID = 'lp.certificate.verify';
export const LP_FARKAS_VERIFY_CAPABILITY_ID = 'lp.farkas.verify';
export const LP_CERTIFICATE_CHECKER_ID = 'jacobian.lp.certificate.exact_conditions';
export const LP_FARKAS_CHECKER_ID = 'jacobian.lp.farkas.exact_conditions';
const VERSION = '1.0.0';

const KERNEL = { module: fileURLToPath(new URL('./lp-certificate-verify.kernel.ts', import.meta.url)), exportName: 'verifyLpCertificateKernel' };
/** The files whose bytes form these checkers' identity (the schema helpers are linear-algebra-verify-capability.ts's). */
export const LP_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./lp-certificate-verify.ts', import.meta.url)),
  fileURLToPath(new URL('./exact.ts', import.meta.url)),
  KERNEL.module,
  fileURLToPath(new URL('../matrix/linear-algebra-verify-capability.ts', import.meta.url)),
  RECORD_SOURCE,
  ...LP_SOURCES,
];

const LIMITS = { max_variables: LP_LIMITS.maxVariables, max_constraints: LP_LIMITS.maxConstraints, max_nonzeros: LP_LIMITS.maxNonzeros, max_number_bits: LP_LIMITS.maxNumberBits };

const FarkasRejectionReason = {
  FARKAS_SIGN: LpRejectionReason.FARKAS_SIGN,
  FARKAS_INFINITE_BOUND: LpRejectionReason.FARKAS_INFINITE_BOUND,
  FARKAS_NOT_STRICT: LpRejectionReason.FARKAS_NOT_STRICT,
} as const;

const CheckResult = matrixCheckResult(LpRejectionReason);
const ClaimKind = z.enum(['LP_OPTIMAL', 'LP_INFEASIBLE', 'LP_UNBOUNDED']);
type ClaimKind = z.infer<typeof ClaimKind>;

const CertificateInput = matrixVerifyInput(LpCertificateClaimInputSchema, {
  resultUri: "the claim stored by lp.solve (its output's result_uri)",
  claim: 'the claim inline: problem (or problem_uri), outcome, and the outcome\'s certificate fields',
});
type CertificateInput = z.infer<typeof CertificateInput>;
const CertificateOutput = matrixVerifyOutput(ClaimKind, LpRejectionReason, '["dual", "cap"]');
export type LpCertificateVerifyOutput = z.infer<typeof CertificateOutput>;

const FarkasInput = z
  .object({
    problem: LpProblemInputSchema.optional().describe('the system: variables with bounds and the rows; sense and objective are ignored (objective may be {})'),
    problem_uri: ArtifactUriSchema.optional().describe('a stored linear program whose rows and bounds form the system'),
    farkas: z.record(z.string(), LpCertificateNumberSchema).describe('row name → multiplier y_i (≥ 0 on >= rows, ≤ 0 on <= rows, free on = rows; omitted rows 0)'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.problem === undefined) === (input.problem_uri === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of `problem` and `problem_uri`' });
  });
type FarkasInput = z.infer<typeof FarkasInput>;
const FarkasOutput = matrixVerifyOutput(z.literal('LP_INFEASIBLE'), FarkasRejectionReason, '["farkas", "r2"]');
export type LpFarkasVerifyOutput = z.infer<typeof FarkasOutput>;

const kindOf = (claim: LpCertificateClaim): ClaimKind => (claim.outcome === 'OPTIMAL' ? 'LP_OPTIMAL' : claim.outcome === 'INFEASIBLE' ? 'LP_INFEASIBLE' : 'LP_UNBOUNDED');

/** The claim in words, exactly as checked; with integer variables it is about the LP relaxation only. */
function certificateStatement(claim: LpCertificateClaim, described: string): string {
  const subject = claim.relaxation ? `the LP relaxation (integrality dropped) of ${described}` : described;
  const only = claim.relaxation ? '; the certificate is about the LP relaxation only, not about the integer program' : '';
  switch (claim.outcome) {
    case 'OPTIMAL':
      return `${subject} has optimal value ${claim.objective_value ?? '0'}, attained at the given x; certificate conditions 1–4 hold (x feasible, d = c − Aᵀy, the signs of y and d, c·x + c₀ = the dual objective)${only}`;
    case 'INFEASIBLE':
      return `${subject} has no feasible point: no rational x satisfies its rows and bounds, as the given Farkas multipliers y show (their signs, and max of (Aᵀy)·x over the bounds < b·y)${only}`;
    case 'UNBOUNDED':
      return `${subject} is unbounded: the given x is feasible and the given ray r improves without limit (objective → ${claim.problem.sense === 'minimize' ? '−∞' : '+∞'} along x + t·r, t ≥ 0)${only}`;
  }
}

function systemShape(problem: LpProblem): string {
  const integers = problem.variables.some((v) => v.integer) ? ', integer markers ignored' : '';
  return `system of ${problem.constraints.length} linear row${problem.constraints.length === 1 ? '' : 's'} in ${problem.variables.length} variable${problem.variables.length === 1 ? '' : 's'} with their bounds (objective ignored${integers})`;
}

/** A claim made concrete: canonical, where it came from, and where its parts are in the request. */
interface ReadClaim {
  claim: LpCertificateClaim;
  /** The given result_uri, when the claim came stored. */
  storedUri: string | null;
  /** Stored problems the inline claim is about. */
  problemUris: string[];
  statement: string;
  kind: ClaimKind;
  /** Where the claim's fields are in the request (for failure paths). */
  claimPath: JsonPath;
}

const RESULT_PATH: JsonPath = ['payload', 'result_uri'];

/**
 * The run of both checkers: refuse an unauthorized checker, run the checks in the isolated kernel,
 * and answer REJECTED naming the failed condition, or store the claim and a signed record.
 */
async function checkLpClaim(id: string, read: ReadClaim, authority: CheckerAuthority, context: CapabilityContext): Promise<CapabilityOutcome<LpCertificateVerifyOutput>> {
  const { claim, storedUri, problemUris, kind } = read;
  const statement = read.statement.slice(0, 2000);
  const inputUris = storedUri === null ? problemUris : [storedUri];
  const identity = authority.identity();
  if (!isAuthorized(authority.authorization(), identity)) {
    throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
      hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
    });
  }
  const checked = CheckResult.parse(await runKernel(context, KERNEL, { claim }));
  const scope = { kind: 'EXACT_CLAIM' as const, statement, input_uris: inputUris };
  if (!checked.accepted) {
    return {
      status: 'COMPLETED',
      output: { verdict: 'REJECTED', claim_kind: kind, claim: statement, claim_uri: null, reason_code: checked.reason_code, message: checked.message, failure: { path: checked.path, witness: checked.witness }, verification_record_uri: null },
      scope,
      completeness: { status: 'COMPLETE', basis: 'the checker examined the claim and found it false' },
      qualifiers: ['EXACT', 'DETERMINISTIC'],
      assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
      obligations: [],
      relationships: [],
      artifact_uris: inputUris,
      diagnostics: [{ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: `${checked.reason_code}: ${checked.message}`.slice(0, 2000), path: storedUri === null ? [...read.claimPath, ...checked.path] : RESULT_PATH, hint: null }],
    };
  }
  const shape = { variables: claim.problem.variables.length, rows: claim.problem.constraints.length };
  const candidateUri =
    storedUri ??
    (
      await context.artifacts.put(
        { schema_uri: LP_CERTIFICATE_CLAIM_SCHEMA_URI, semantics_uri: LP_CERTIFICATE_CLAIM_SEMANTICS_URI, payload: claim, parents: problemUris, summary: { claim: kind, ...shape, relaxation: claim.relaxation, submitted_inline: true } },
        { signal: context.signal },
      )
    ).uri;
  const stored = await storeVerificationRecord(context, authority.signingKey, {
    capabilityId: id,
    capabilityVersion: VERSION,
    identity,
    claim: { kind, statement, value: { outcome: claim.outcome, sense: claim.problem.sense, ...shape, relaxation: claim.relaxation, objective_value: claim.objective_value } },
    claimSemanticsUri: LP_CERTIFICATE_CLAIM_SEMANTICS_URI,
    candidateUri,
    inputUris: problemUris,
    evidenceFormat: `jacobian:evidence/${id}.claim/v1`,
  });
  return {
    status: 'COMPLETED',
    output: { verdict: 'ACCEPTED', claim_kind: kind, claim: statement, claim_uri: candidateUri, reason_code: null, message: checked.message, failure: null, verification_record_uri: stored.uri },
    scope,
    completeness: { status: 'COMPLETE', basis: checked.message.slice(0, 1000) },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: {
      level: 'VERIFIED',
      basis: `independent checker ${identity.checker_id}, authorized by the operator, accepted the claim (${kind}): every condition checked in exact rational arithmetic`.slice(0, 1000),
      verification_record_uri: stored.uri,
      checker_id: identity.checker_id,
    },
    obligations: [],
    relationships: [{ subject: stored.uri, predicate: 'VERIFIES', object: candidateUri }],
    artifact_uris: [stored.uri, candidateUri, ...problemUris],
    diagnostics: [],
  };
}

/** lp.certificate.verify, as the checker service registers it. */
export function verifyLpCertificate(authority: CheckerAuthority): CapabilityDefinition<CertificateInput, LpCertificateVerifyOutput> {
  return {
    id: LP_CERTIFICATE_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify a linear program certificate (optimal, infeasible, unbounded)',
    description:
      'Independently checks an LP answer of lp.solve (result_uri) or given inline, in exact rational arithmetic with no code of the producer. OPTIMAL: x feasible; reduced costs d = c − Aᵀy; dual signs per row relation and sense, d_j ≠ 0 only at a finite bound; c·x + c₀ = v = dual objective (strong duality). INFEASIBLE: Farkas multipliers y of the right signs with max (Aᵀy)·x over the bounds < b·y. UNBOUNDED: x feasible, ray r keeps rows and bounds, c·r improving. With integer variables the claim is about the LP relaxation only. A false claim is REJECTED naming the condition, the row or variable and the amount.',
    tags: ['linear-programming', 'lp', 'optimization', 'duality', 'certificate', 'verification', 'checker'],
    keywords: ['verify LP optimality', 'check a linear program certificate', 'strong duality', 'dual feasibility', 'primal feasibility', 'complementary slackness', 'reduced costs', 'shadow prices', 'Farkas certificate of infeasibility', 'unbounded ray', 'exact rational simplex certificate'],
    domain: 'optimization',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [LP_PROBLEM_SCHEMA_URI, LP_CERTIFICATE_CLAIM_SCHEMA_URI],
    produced_artifact_types: [LP_CERTIFICATE_CLAIM_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: CertificateInput,
    output: CertificateOutput,
    examples: [
      {
        title: 'min x + 2y, x + y ≥ 2, x ≤ 3/2, x, y ≥ 0: optimal value 5/2 at (3/2, 1/2), duals (2, −1)',
        mode: 'VERIFY',
        payload: {
          claim: {
            problem: { sense: 'minimize', variables: [{ name: 'x' }, { name: 'y' }], objective: { x: 1, y: 2 }, constraints: [{ name: 'demand', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 2 }, { name: 'cap', coefficients: { x: 1 }, relation: '<=', rhs: '3/2' }] },
            outcome: 'OPTIMAL',
            objective_value: '5/2',
            primal: { x: '3/2', y: '1/2' },
            dual: { demand: 2, cap: -1 },
            reduced_costs: {},
          },
        },
      },
      {
        title: 'max x + y, x − y ≤ 1, x, y ≥ 0 is unbounded: x = 0, ray (1, 1)',
        mode: 'VERIFY',
        payload: { claim: { problem: { sense: 'maximize', variables: [{ name: 'x' }, { name: 'y' }], objective: { x: 1, y: 1 }, constraints: [{ coefficients: { x: 1, y: -1 }, relation: '<=', rhs: 1 }] }, outcome: 'UNBOUNDED', primal: {}, ray: { x: 1, y: 1 } } },
      },
    ],
    relationships: [{ kind: 'VERIFIES', capability_id: 'lp.solve' }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one claim: the given outcome (optimal value v attained at x, infeasible, or unbounded) of the given linear program over the rationals; for a problem with integer variables, of its LP relaxation only.',
    limits: LIMITS,
    checker: {
      checker_id: LP_CERTIFICATE_CHECKER_ID,
      method: 'the conditions of jacobian:schema/lp.certificate.claim/v1 decided in exact rational arithmetic (BigInt fractions, row sums over a common denominator): a·x against every row and bound, c − Aᵀy against d, sign rules per relation and sense, primal and dual objectives; Farkas sum against b·y; a·r, r at the bounds and c·r for a ray',
      source_files: LP_CHECKER_SOURCES,
      configuration: { ...LIMITS, conditions: 'lp.certificate.claim/v1' },
    },
    async run(input, context) {
      if (input.result_uri !== undefined) {
        const { artifact, payload } = await getTypedArtifactAt(
          context.artifacts,
          input.result_uri,
          RESULT_PATH,
          { schemaUri: LP_CERTIFICATE_CLAIM_SCHEMA_URI, semanticsUri: LP_CERTIFICATE_CLAIM_SEMANTICS_URI, what: 'a stored LP certificate claim', payload: LpCertificateClaimSchema, hint: 'pass the result_uri of lp.solve, or give the claim inline' },
          { signal: context.signal },
        );
        const statement = certificateStatement(payload, `the ${lpShape(payload.problem)} of the stored claim ${artifact.uri}`);
        return checkLpClaim(LP_CERTIFICATE_VERIFY_CAPABILITY_ID, { claim: payload, storedUri: artifact.uri, problemUris: [], statement, kind: kindOf(payload), claimPath: RESULT_PATH }, authority, context);
      }
      const inline = input.claim;
      if (inline === undefined) throw new Error('lp.certificate.verify: the input was not validated (neither result_uri nor claim)');
      const claimPath: JsonPath = ['payload', 'claim'];
      const { problem, problem_uri, ...certificate } = inline;
      const resolved = await resolveLpOperand({ problem, problem_uri }, context.artifacts, { signal: context.signal, path: claimPath });
      const claim = canonicalLpCertificateClaim(certificate, resolved.problem, claimPath);
      return checkLpClaim(LP_CERTIFICATE_VERIFY_CAPABILITY_ID, { claim, storedUri: null, problemUris: resolved.input_uris, statement: certificateStatement(claim, resolved.description), kind: kindOf(claim), claimPath }, authority, context);
    },
  };
}

/** lp.farkas.verify, as the checker service registers it. */
export function verifyFarkas(authority: CheckerAuthority): CapabilityDefinition<FarkasInput, LpFarkasVerifyOutput> {
  return {
    id: LP_FARKAS_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify a Farkas certificate that linear inequalities have no solution',
    description:
      'Checks your own claim that a system of linear inequalities and equations (rows ≤, =, ≥ and bounds on the variables; the LP problem form, objective ignored) has no rational solution, given Farkas multipliers y (Farkas lemma, theorem of the alternative). Exact rational arithmetic: y_i ≥ 0 on ≥ rows, ≤ 0 on ≤ rows, free on = rows; g = Aᵀy; max g·x over the bounds (only finite bounds used) < b·y. A false claim is REJECTED naming the row or variable and the amount (FARKAS_SIGN, FARKAS_INFINITE_BOUND, FARKAS_NOT_STRICT).',
    tags: ['linear-programming', 'farkas', 'infeasibility', 'linear-inequalities', 'certificate', 'verification', 'checker'],
    keywords: ['Farkas lemma', 'certificate of infeasibility', 'system of linear inequalities has no solution', 'theorem of the alternative', 'Farkas multipliers', 'infeasible linear system', 'dual ray', 'inconsistent inequalities'],
    domain: 'optimization',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [LP_PROBLEM_SCHEMA_URI],
    produced_artifact_types: [LP_CERTIFICATE_CLAIM_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: FarkasInput,
    output: FarkasOutput,
    examples: [
      {
        title: 'x + y ≥ 3 with 0 ≤ x, y ≤ 1 has no solution: y = 1 gives max (x + y) = 2 < 3',
        mode: 'VERIFY',
        payload: { problem: { sense: 'minimize', variables: [{ name: 'x', upper: 1 }, { name: 'y', upper: 1 }], objective: {}, constraints: [{ name: 'sum', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 3 }] }, farkas: { sum: 1 } },
      },
      {
        title: 'x + y ≤ 1 and x + y ≥ 3 (x, y free) contradict: y = (−1, 1)',
        mode: 'VERIFY',
        payload: {
          problem: { sense: 'minimize', variables: [{ name: 'x', lower: null }, { name: 'y', lower: null }], objective: {}, constraints: [{ name: 'low', coefficients: { x: 1, y: 1 }, relation: '<=', rhs: 1 }, { name: 'high', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 3 }] },
          farkas: { low: -1, high: 1 },
        },
      },
    ],
    relationships: [],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one claim: the given system of linear rows and bounds has no rational solution (hence none at all).',
    limits: LIMITS,
    checker: {
      checker_id: LP_FARKAS_CHECKER_ID,
      method: 'the INFEASIBLE conditions of jacobian:schema/lp.certificate.claim/v1 in exact rational arithmetic (BigInt fractions): sign of each multiplier per row relation, g = Aᵀy, Σ_{g_j>0} g_j u_j + Σ_{g_j<0} g_j l_j with every bound used finite, strictly below b·y',
      source_files: LP_CHECKER_SOURCES,
      configuration: { ...LIMITS, conditions: 'lp.certificate.claim/v1 INFEASIBLE' },
    },
    async run(input, context) {
      const resolved = await resolveLpOperand({ problem: input.problem, problem_uri: input.problem_uri }, context.artifacts, { signal: context.signal, path: ['payload'] });
      const claim = canonicalLpCertificateClaim({ outcome: 'INFEASIBLE', farkas: input.farkas }, resolved.problem, ['payload']);
      const described = resolved.input_uris[0] === undefined ? `the given ${systemShape(claim.problem)}` : `the ${systemShape(claim.problem)} of the stored problem ${resolved.input_uris[0]}`;
      const statement = `${described} has no rational solution, as the given Farkas multipliers y show (their signs, and max of (Aᵀy)·x over the bounds < b·y)`;
      const outcome = await checkLpClaim(LP_FARKAS_VERIFY_CAPABILITY_ID, { claim, storedUri: null, problemUris: resolved.input_uris, statement, kind: 'LP_INFEASIBLE', claimPath: ['payload'] }, authority, context);
      return outcome as CapabilityOutcome<LpFarkasVerifyOutput>;
    },
  };
}
