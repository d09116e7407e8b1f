/**
 * elliptic_curve.claim.verify: the exact parts of what elliptic_curve.torsion.compute and
 * elliptic_curve.rank.bound store (or an agent's own claim, inline): rational points on a curve
 * over Q with their orders ("infinite" by Mazur), a torsion subgroup with generators and
 * optionally the primes whose point counts prove it is all of E(Q)_tors, and a change of
 * variables to another model. Re-derived by the checker's own arithmetic
 * (elliptic-claim-verify.ts) in an isolated kernel; an accepted claim is stored and gets a signed
 * verification record, a rejected one names the failing part and rule. What PARI/GP alone
 * computes (class groups, conductors, Tamagawa numbers, rank upper bounds) is not claimed here and
 * never becomes VERIFIED.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ELLIPTIC_CURVE_CLAIM_SCHEMA_URI,
  ELLIPTIC_CURVE_CLAIM_SEMANTICS_URI,
  ELLIPTIC_CURVE_LIMITS,
  EllipticCurveClaimSchema,
  getTypedArtifactAt,
  isAuthorized,
  JacobianError,
  runKernel,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type EllipticCurveClaim,
  type JsonPath,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { matrixCheckResult, matrixVerifyInput, matrixVerifyOutput } from '../matrix/linear-algebra-verify-capability.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import { EllipticRejectionReason } from './elliptic-claim-verify.js';

export const ELLIPTIC_CLAIM_VERIFY_CAPABILITY_ID = 'elliptic_curve.claim.verify';
export const ELLIPTIC_CLAIM_CHECKER_ID = 'jacobian.elliptic_curve.points_orders_models.exact';
const VERSION = '1.0.0';

const KERNEL = { module: fileURLToPath(new URL('./elliptic-claim-verify.kernel.ts', import.meta.url)), exportName: 'verifyEllipticCurveClaimKernel' };
/** The files whose bytes form this checker's identity. */
export const ELLIPTIC_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./elliptic-claim-verify.ts', import.meta.url)),
  KERNEL.module,
  fileURLToPath(new URL('../lp/exact.ts', import.meta.url)),
  fileURLToPath(new URL('../matrix/linear-algebra-verify-capability.ts', import.meta.url)),
  RECORD_SOURCE,
];

const CheckResult = matrixCheckResult(EllipticRejectionReason);
const VerifyInput = matrixVerifyInput(EllipticCurveClaimSchema, {
  resultUri: 'a claim stored by elliptic_curve.invariants.compute, elliptic_curve.torsion.compute or elliptic_curve.rank.bound (their output\'s result_uri)',
  claim: 'the claim inline: curve [a1, a2, a3, a4, a6], and any of points (with orders), torsion (structure, generators, bound_primes), model_change (change, model)',
});
type VerifyInput = z.infer<typeof VerifyInput>;
const VerifyOutput = matrixVerifyOutput(z.literal('ELLIPTIC_CURVE_CLAIM'), EllipticRejectionReason, '["torsion", "generators", 0]');
export type EllipticClaimVerifyOutput = z.infer<typeof VerifyOutput>;

const RESULT_PATH: JsonPath = ['payload', 'result_uri'];
const LIMITS = { max_digits: ELLIPTIC_CURVE_LIMITS.maxDigits, max_points: ELLIPTIC_CURVE_LIMITS.maxPoints, max_bound_primes: ELLIPTIC_CURVE_LIMITS.maxBoundPrimes, max_bound_prime: ELLIPTIC_CURVE_LIMITS.maxBoundPrime };

/** The claim in words, exactly as checked. */
function statement(claim: EllipticCurveClaim): string {
  const parts = [`E: [${claim.curve.join(', ')}] is an elliptic curve over Q`];
  for (const p of claim.points) parts.push(`(${p.point.join(', ')}) ∈ E(Q) has ${p.order === 'infinite' ? 'infinite order' : `order ${p.order}`}`);
  if (claim.torsion !== undefined) {
    const { structure, generators, bound_primes } = claim.torsion;
    const group = structure.length === 0 ? 'the trivial group' : structure.map((n) => `Z/${n}`).join(' × ');
    parts.push(`${generators.length === 0 ? 'the trivial subgroup' : `the points ${generators.map((g) => `(${g.join(', ')})`).join(', ')} generate a subgroup ≅ ${group}`}${bound_primes === undefined ? '' : `, which is all of E(Q)_tors (point counts at ${bound_primes.length} primes)`}`);
  }
  if (claim.model_change !== undefined) {
    const { change, model } = claim.model_change;
    parts.push(`x = u²x′ + r, y = u³y′ + su²x′ + t with [u, r, s, t] = [${change.u}, ${change.r}, ${change.s}, ${change.t}] takes E to [${model.join(', ')}]`);
  }
  return parts.join('; ');
}

async function check(read: { claim: EllipticCurveClaim; storedUri: string | null; claimPath: JsonPath }, authority: CheckerAuthority, context: CapabilityContext): Promise<CapabilityOutcome<EllipticClaimVerifyOutput>> {
  const { claim, storedUri } = read;
  const text = statement(claim).slice(0, 2000);
  const identity = authority.identity();
  if (!isAuthorized(authority.authorization(), identity)) {
    throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
      hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
    });
  }
  const checked = CheckResult.parse(await runKernel(context, KERNEL, { claim }));
  const inputUris = storedUri === null ? [] : [storedUri];
  const scope = { kind: 'EXACT_CLAIM' as const, statement: text, input_uris: inputUris };
  if (!checked.accepted) {
    return {
      status: 'COMPLETED',
      output: { verdict: 'REJECTED', claim_kind: 'ELLIPTIC_CURVE_CLAIM', claim: text, claim_uri: null, reason_code: checked.reason_code, message: checked.message, failure: { path: checked.path, witness: checked.witness }, verification_record_uri: null },
      scope,
      completeness: { status: 'COMPLETE', basis: 'the checker examined the claim and found a part of it false or unsupported by its evidence' },
      qualifiers: ['EXACT', 'DETERMINISTIC'],
      assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
      obligations: [],
      relationships: [],
      artifact_uris: inputUris,
      diagnostics: [{ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: `${checked.reason_code}: ${checked.message}`.slice(0, 2000), path: storedUri === null ? [...read.claimPath, ...checked.path] : RESULT_PATH, hint: null }],
    };
  }
  const candidateUri =
    storedUri ??
    (await context.artifacts.put({ schema_uri: ELLIPTIC_CURVE_CLAIM_SCHEMA_URI, semantics_uri: ELLIPTIC_CURVE_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: { points: claim.points.length, torsion: claim.torsion !== undefined, model_change: claim.model_change !== undefined, submitted_inline: true } }, { signal: context.signal })).uri;
  const stored = await storeVerificationRecord(context, authority.signingKey, {
    capabilityId: ELLIPTIC_CLAIM_VERIFY_CAPABILITY_ID,
    capabilityVersion: VERSION,
    identity,
    claim: { kind: 'ELLIPTIC_CURVE_CLAIM', statement: text, value: { curve: claim.curve, points: claim.points.length, torsion_order: claim.torsion === undefined ? null : claim.torsion.structure.reduce((p, n) => p * n, 1), torsion_complete: claim.torsion?.bound_primes !== undefined, model_change: claim.model_change !== undefined } },
    claimSemanticsUri: ELLIPTIC_CURVE_CLAIM_SEMANTICS_URI,
    candidateUri,
    inputUris: [],
    evidenceFormat: `jacobian:evidence/${ELLIPTIC_CLAIM_VERIFY_CAPABILITY_ID}.claim/v1`,
  });
  return {
    status: 'COMPLETED',
    output: { verdict: 'ACCEPTED', claim_kind: 'ELLIPTIC_CURVE_CLAIM', claim: text, claim_uri: candidateUri, reason_code: null, message: checked.message, failure: null, verification_record_uri: stored.uri },
    scope,
    completeness: { status: 'COMPLETE', basis: checked.message.slice(0, 1000) },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: {
      level: 'VERIFIED',
      basis: `independent checker ${identity.checker_id}, authorized by the operator, accepted the claim: points, orders (infinite ones by Mazur's theorem), subgroup, reduction bound and change of variables re-derived in exact rational arithmetic`.slice(0, 1000),
      verification_record_uri: stored.uri,
      checker_id: identity.checker_id,
    },
    obligations: [],
    relationships: [{ subject: stored.uri, predicate: 'VERIFIES', object: candidateUri }],
    artifact_uris: [stored.uri, candidateUri],
    diagnostics: [],
  };
}

/** elliptic_curve.claim.verify, as the checker service registers it. */
export function verifyEllipticCurveClaim(authority: CheckerAuthority): CapabilityDefinition<VerifyInput, EllipticClaimVerifyOutput> {
  return {
    id: ELLIPTIC_CLAIM_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify points, torsion and models of an elliptic curve',
    description:
      'Independently checks, in exact rational arithmetic with no code of the producers, a claim about an elliptic curve over Q (Weierstrass [a1, a2, a3, a4, a6]): the curve non-singular (Δ ≠ 0); each rational point on the curve with its exact order by repeated addition, or of infinite order (no multiple up to 12 is O: Mazur\'s theorem); a torsion subgroup from its generators (orders, Mazur\'s list, n₁n₂ distinct elements) and, with bound primes, that it is all of E(Q)_tors (gcd #Ẽ(F_p) over odd primes of good reduction); a change of variables [u, r, s, t] to a given model, by substitution. Give the result_uri of elliptic_curve.invariants.compute, elliptic_curve.torsion.compute or elliptic_curve.rank.bound, or a claim inline. A false claim is REJECTED naming the part and rule (NOT_ON_CURVE, WRONG_ORDER, FINITE_ORDER, SUBGROUP_ORDER, BOUND_NOT_MET, MODEL_MISMATCH, …).',
    tags: ['number-theory', 'elliptic-curve', 'verification', 'checker'],
    keywords: ['verify a point on an elliptic curve', 'check the order of a torsion point', 'verify torsion subgroup', 'verify minimal model change of variables', 'Weierstrass equation', 'point of infinite order', 'Mazur theorem', 'reduction modulo p', 'isomorphism of Weierstrass models'],
    domain: 'elliptic_curve',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [ELLIPTIC_CURVE_CLAIM_SCHEMA_URI],
    produced_artifact_types: [ELLIPTIC_CURVE_CLAIM_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyInput,
    output: VerifyOutput,
    examples: [
      { title: '11a1: (5, 5) has order 5 and generates all of E(Q)_tors ≅ Z/5', mode: 'VERIFY', payload: { claim: { curve: [0, -1, 1, -10, -20], torsion: { structure: [5], generators: [['5', '5']], bound_primes: [3, 7] } } } },
      { title: '37a1: (0, 0) has infinite order', mode: 'VERIFY', payload: { claim: { curve: [0, 0, 1, -1, 0], points: [{ point: ['0', '0'], order: 'infinite' }] } } },
      { title: 'u = 1/2 takes y² + xy/2 = x³ + 3x + 1 to y² + xy = x³ + 48x + 64', mode: 'VERIFY', payload: { claim: { curve: ['1/2', 0, 0, 3, 1], model_change: { change: { u: '1/2', r: 0, s: 0, t: 0 }, model: [1, 0, 0, 48, 64] } } } },
    ],
    relationships: [
      { kind: 'VERIFIES', capability_id: 'elliptic_curve.invariants.compute' },
      { kind: 'VERIFIES', capability_id: 'elliptic_curve.torsion.compute' },
      { kind: 'VERIFIES', capability_id: 'elliptic_curve.rank.bound' },
    ],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one claim about the given curve: its points, orders, torsion and model change.',
    limits: LIMITS,
    checker: {
      checker_id: ELLIPTIC_CLAIM_CHECKER_ID,
      method: 'exact rationals (the checker\'s own): Δ = (c4³ − c6²)/1728; F(x, y) = 0 per point; orders by repeated chord-and-tangent addition up to 12 (Mazur); subgroup elements iP + jQ counted distinct; #Ẽ(F_p) per x by Euler\'s criterion on the discriminant in y; the change of variables by expanding F(u²x′ + r, u³y′ + su²x′ + t) and comparing with u⁶F′',
      source_files: ELLIPTIC_CHECKER_SOURCES,
      configuration: { ...LIMITS, mazur_bound: 12 },
    },
    async run(input, context) {
      if (input.result_uri !== undefined) {
        const { artifact, payload } = await getTypedArtifactAt(
          context.artifacts,
          input.result_uri,
          RESULT_PATH,
          { schemaUri: ELLIPTIC_CURVE_CLAIM_SCHEMA_URI, semanticsUri: ELLIPTIC_CURVE_CLAIM_SEMANTICS_URI, what: 'a stored elliptic curve claim', payload: EllipticCurveClaimSchema, hint: 'pass the result_uri of elliptic_curve.torsion.compute or elliptic_curve.rank.bound, or give the claim inline' },
          { signal: context.signal },
        );
        return check({ claim: payload, storedUri: artifact.uri, claimPath: RESULT_PATH }, authority, context);
      }
      const claim = input.claim;
      if (claim === undefined) throw new Error('elliptic_curve.claim.verify: the input was not validated (neither result_uri nor claim)');
      return check({ claim, storedUri: null, claimPath: ['payload', 'claim'] }, authority, context);
    },
  };
}
