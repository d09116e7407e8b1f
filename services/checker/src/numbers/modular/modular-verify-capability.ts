/**
 * modular.claim.verify: the checker of the modular producers (inverse, CRT, order, primitive
 * root, discrete log, square roots, symbols). A claim, stored by a producer (`result_uri`) or
 * given inline, is re-derived by modular-verify.ts in an isolated kernel with the checker's own
 * code; an accepted claim gets a signed verification record, a rejected one names the failing
 * part and rule.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  getTypedArtifactAt,
  isAuthorized,
  JacobianError,
  MODULAR_CLAIM_SCHEMA_URI,
  MODULAR_CLAIM_SEMANTICS_URI,
  MODULAR_LIMITS,
  MODULAR_SOURCES,
  ModularClaimSchema,
  runKernel,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityDefinition,
  type ModularClaim,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../../graph/induced-tree-verify.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../../record.js';
import { ModularRejectionReason } from './modular-verify.js';

export const MODULAR_VERIFY_CAPABILITY_ID = 'modular.claim.verify';
export const MODULAR_CHECKER_ID = 'jacobian.modular.claim.rederive';
const VERSION = '1.0.0';
const KERNEL = { module: fileURLToPath(new URL('./modular-verify.kernel.ts', import.meta.url)), exportName: 'verifyModularKernel' };

/** The files whose bytes form this checker's identity. */
export const MODULAR_CHECKER_SOURCES: string[] = [fileURLToPath(import.meta.url), fileURLToPath(new URL('./modular-verify.ts', import.meta.url)), fileURLToPath(new URL('../primality/primality-verify.ts', import.meta.url)), KERNEL.module, RECORD_SOURCE, ...MODULAR_SOURCES];

const Path = z.array(z.union([z.string(), z.number().int()]));
const CheckResult = z.union([
  z.object({ accepted: z.literal(true), message: z.string(), method: z.string() }).strict(),
  z.object({ accepted: z.literal(false), reason_code: z.enum(ModularRejectionReason), message: z.string(), path: Path, witness: z.string().nullable() }).strict(),
]);

const VerifyInput = z
  .object({
    result_uri: ArtifactUriSchema.optional().describe('a claim stored by a modular producer (its output result_uri)'),
    // Loose here (the full union's JSON schema is too large for a catalog card), parsed whole in run().
    claim: z
      .object({ kind: z.enum(['INVERSE', 'CRT', 'ORDER', 'PRIMITIVE_ROOT', 'DISCRETE_LOG', 'SQRT', 'SYMBOL']) })
      .passthrough()
      .optional()
      .describe("a claim inline, exactly as a modular producer's output `claim` prints it (kind, the inputs, outcome and certificate fields)"),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.result_uri === undefined) === (input.claim === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of `result_uri` (a stored claim) and `claim` (inline)' });
  });
type VerifyInput = z.infer<typeof VerifyInput>;

const VerifyOutput = z
  .object({
    verdict: z.enum(['ACCEPTED', 'REJECTED']).describe('ACCEPTED: the claim holds (VERIFIED); REJECTED: it fails a check, named by reason_code and failure'),
    claim_kind: z.enum(['INVERSE', 'CRT', 'ORDER', 'PRIMITIVE_ROOT', 'DISCRETE_LOG', 'SQRT', 'SYMBOL']),
    claim: z.string().describe('the claim that was checked, in words'),
    claim_uri: z.string().nullable().describe('the accepted claim, as stored; null when rejected'),
    reason_code: z.enum(ModularRejectionReason).nullable(),
    message: z.string(),
    failure: z.object({ path: Path.describe('the failing part of the claim, e.g. ["order_factors", 0, "prime"]'), witness: z.string().nullable() }).strict().nullable(),
    verification_record_uri: z.string().nullable().describe('the signed verification record; null unless ACCEPTED'),
  })
  .strict();
export type ModularVerifyOutput = z.infer<typeof VerifyOutput>;

const RESULT_PATH = ['payload', 'result_uri'];

const cut = (t: string): string => (t.length > 40 ? `${t.slice(0, 20)}…(${t.length} digits)` : t);

/** The claim in words. */
function statement(c: ModularClaim): string {
  switch (c.kind) {
    case 'INVERSE':
      return c.outcome === 'INVERTIBLE' ? `${cut(c.a)}⁻¹ ≡ ${cut(c.inverse)} (mod ${cut(c.n)})` : `${cut(c.a)} has no inverse modulo ${cut(c.n)}`;
    case 'CRT':
      return c.outcome === 'SOLVED' ? `the solutions of the ${c.congruences.length} congruences are x ≡ ${cut(c.residue)} (mod ${cut(c.modulus)})` : `the ${c.congruences.length} congruences have no common solution`;
    case 'ORDER':
      return c.outcome === 'FOUND' ? `ord_${cut(c.n)}(${cut(c.a)}) = ${cut(c.order)}` : `${cut(c.a)} is not a unit modulo ${cut(c.n)}`;
    case 'PRIMITIVE_ROOT':
      return c.outcome === 'FOUND' ? `${cut(c.root)} is ${c.least ? 'the least' : 'a'} primitive root modulo ${cut(c.n)}` : `there is no primitive root modulo ${cut(c.n)}`;
    case 'DISCRETE_LOG':
      return c.outcome === 'SOLVED' ? `the least x with ${cut(c.base)}^x ≡ ${cut(c.target)} (mod ${cut(c.n)}) is ${cut(c.log)}` : `${cut(c.base)}^x ≡ ${cut(c.target)} (mod ${cut(c.n)}) has no solution`;
    case 'SQRT':
      return c.outcome === 'SOLVED' ? `x² ≡ ${cut(c.a)} (mod ${cut(c.n)}) has exactly ${cut(c.count)} roots, ${c.roots.length} of them listed` : `x² ≡ ${cut(c.a)} (mod ${cut(c.n)}) has no solution`;
    case 'SYMBOL':
      return `the ${c.symbol} symbol (${cut(c.a)}/${cut(c.n)}) = ${c.value}`;
  }
}

/** modular.claim.verify. */
export function verifyModularClaim(authority: CheckerAuthority): CapabilityDefinition<VerifyInput, ModularVerifyOutput> {
  return {
    id: MODULAR_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify a modular arithmetic claim by re-deriving it',
    description:
      "Independently re-derives a claim of the modular producers (inverse, CRT, multiplicative order, primitive root, discrete logarithm, square roots, Legendre/Jacobi/Kronecker symbols) with the checker's own code: a·b ≡ 1 or a common divisor; every congruence and the lcm, or a conflicting pair; order minimality by a^(m/q) ≢ 1 on a factorization whose primes it proves; the primitive-root property (and leastness) on proven factorizations of n and φ(n), or Gauss's rule; g^x ≡ h with x below the proven exact order, or the local NONE certificate; every square root and their count recounted, or the Legendre-symbol obstruction (Euler's criterion); symbols recomputed. A prime above 3.3·10^24 must come with a primality certificate (small, Pratt or ECPP), replayed here; without one: REJECTED with UNPROVEN_PRIME. VERIFIED with a signed record, or REJECTED naming the part and rule.",
    tags: ['number-theory', 'modular-arithmetic', 'verification', 'checker', 'certificate'],
    keywords: [
      'verify a modular inverse',
      'check a Chinese remainder solution',
      'verify multiplicative order',
      'certify a primitive root',
      'verify a discrete logarithm',
      'check a square root modulo n',
      'verify Legendre symbol',
      'quadratic non-residue certificate',
      'order minimality',
    ],
    domain: 'modular',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MODULAR_CLAIM_SCHEMA_URI],
    produced_artifact_types: [MODULAR_CLAIM_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyInput,
    output: VerifyOutput,
    examples: [
      { title: 'ord_7(2) = 3', mode: 'VERIFY', payload: { claim: { kind: 'ORDER', a: '2', n: '7', outcome: 'FOUND', order: '3', order_factors: [{ prime: '3', exponent: 1 }] } } },
      {
        title: '5 is the least primitive root modulo 23',
        mode: 'VERIFY',
        payload: { claim: { kind: 'PRIMITIVE_ROOT', n: '23', outcome: 'FOUND', root: '5', least: true, modulus_factors: [{ prime: '23', exponent: 1 }], phi_factors: [{ prime: '2', exponent: 1 }, { prime: '11', exponent: 1 }] } },
      },
      { title: 'x² ≡ 5 (mod 7) has no solution: (5/7) = −1', mode: 'VERIFY', payload: { claim: { kind: 'SQRT', a: '5', n: '7', outcome: 'NONE', failure: { rule: 'NON_RESIDUE', prime: '7', exponent: 1, valuation: 0 } } } },
    ],
    relationships: ['modular.inverse.compute', 'modular.crt.solve', 'modular.order.compute', 'modular.primitive_root.compute', 'modular.discrete_log.solve', 'modular.sqrt.solve', 'modular.symbol.compute'].map((id) => ({ kind: 'VERIFIES' as const, capability_id: id })),
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one claim as stated (its answer and, for NONE, that no answer exists), for the given integers.',
    limits: { max_digits: MODULAR_LIMITS.maxDigits, max_roots: MODULAR_LIMITS.maxRoots, max_congruences: MODULAR_LIMITS.maxCongruences },
    checker: {
      checker_id: MODULAR_CHECKER_ID,
      method: 'each claim re-derived from its certificate with the checker’s own exact integer code; primes proven by deterministic Miller–Rabin below 3.3·10^24, above it only by a replayed primality certificate',
      source_files: MODULAR_CHECKER_SOURCES,
      configuration: { max_digits: MODULAR_LIMITS.maxDigits, prime_bound: '3317044064679887385961981', least_primitive_root_bound: 1_000_000 },
    },
    async run(input, context) {
      let claim: ModularClaim;
      let storedUri: string | null = null;
      if (input.result_uri !== undefined) {
        const { artifact, payload } = await getTypedArtifactAt(
          context.artifacts,
          input.result_uri,
          RESULT_PATH,
          { schemaUri: MODULAR_CLAIM_SCHEMA_URI, semanticsUri: MODULAR_CLAIM_SEMANTICS_URI, what: 'a stored modular claim', payload: ModularClaimSchema, hint: 'pass the result_uri of a modular producer, or give the claim inline' },
          { signal: context.signal },
        );
        claim = payload;
        storedUri = artifact.uri;
      } else {
        const parsed = ModularClaimSchema.safeParse(input.claim);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const path = ['payload', 'claim', ...(issue?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p)))];
          throw new JacobianError('INVALID_REQUEST', `${path.join('.')}: not a modular claim of kind ${input.claim?.kind ?? '?'}: ${issue?.message ?? 'invalid'} (rule modular-claim)`, {
            path,
            data: { rule: 'modular-claim' },
            hint: "give the `claim` a modular producer printed, or its result_uri",
          });
        }
        claim = parsed.data;
      }
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
          hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
        });
      }
      const checked = CheckResult.parse(await runKernel(context, KERNEL, { claim }));
      const said = statement(claim).slice(0, 2000);
      const inputUris = storedUri === null ? [] : [storedUri];
      const scope = { kind: 'EXACT_CLAIM' as const, statement: said, input_uris: inputUris };
      if (!checked.accepted) {
        return {
          status: 'COMPLETED',
          output: { verdict: 'REJECTED', claim_kind: claim.kind, claim: said, claim_uri: null, reason_code: checked.reason_code, message: checked.message, failure: { path: checked.path, witness: checked.witness }, verification_record_uri: null },
          scope,
          completeness: { status: 'COMPLETE', basis: 'the checker examined the claim and found it false or unproven' },
          qualifiers: ['EXACT', 'DETERMINISTIC'],
          assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: [],
          artifact_uris: inputUris,
          diagnostics: [{ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: `${checked.reason_code}: ${checked.message}`.slice(0, 2000), path: storedUri === null ? ['payload', 'claim', ...checked.path] : RESULT_PATH, hint: null }],
        };
      }
      const candidateUri =
        storedUri ??
        (await context.artifacts.put({ schema_uri: MODULAR_CLAIM_SCHEMA_URI, semantics_uri: MODULAR_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: { kind: claim.kind, submitted_inline: true } }, { signal: context.signal })).uri;
      const stored = await storeVerificationRecord(context, authority.signingKey, {
        capabilityId: MODULAR_VERIFY_CAPABILITY_ID,
        capabilityVersion: VERSION,
        identity,
        claim: { kind: `MODULAR_${claim.kind}`, statement: said, value: { kind: claim.kind, ...('outcome' in claim ? { outcome: claim.outcome } : { value: claim.value }) } },
        claimSemanticsUri: MODULAR_CLAIM_SEMANTICS_URI,
        candidateUri,
        inputUris: [],
        evidenceFormat: `jacobian:evidence/${MODULAR_VERIFY_CAPABILITY_ID}.claim/v1`,
      });
      return {
        status: 'COMPLETED',
        output: { verdict: 'ACCEPTED', claim_kind: claim.kind, claim: said, claim_uri: candidateUri, reason_code: null, message: checked.message, failure: null, verification_record_uri: stored.uri },
        scope,
        completeness: { status: 'COMPLETE', basis: checked.message.slice(0, 1000) },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: 'VERIFIED',
          basis: `independent checker ${identity.checker_id}, authorized by the operator, re-derived the claim (${claim.kind}) by ${checked.method}`.slice(0, 1000),
          verification_record_uri: stored.uri,
          checker_id: identity.checker_id,
        },
        obligations: [],
        relationships: [{ subject: stored.uri, predicate: 'VERIFIES', object: candidateUri }],
        artifact_uris: [stored.uri, candidateUri],
        diagnostics: [],
      };
    },
  };
}
