/**
 * The independent checkers of integer primality and factorization claims:
 *
 * - `integer.primality.verify`: "n is prime" with a small / Pratt / Atkin–Morain ECPP certificate,
 *   or "n is composite" with a factor or a Miller–Rabin base, as integer.primality.decide stores
 *   it (`result_uri`) or inline;
 * - `integer.factorization.verify`: "n = ∏ p^e with every p prime by its certificate", as
 *   integer.factor.compute stores it or inline.
 *
 * Both replay the conditions of shared/src/domains/numbers/primality.ts with this checker's own
 * code (primality-verify.ts; nothing of the runner's certifier) in an isolated kernel. An accepted
 * claim is stored (unless it came stored) and gets a signed verification record bound to it; a
 * rejected one names the failed condition and where in the certificate.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  getTypedArtifactAt,
  INTEGER_FACTORIZATION_CLAIM_SCHEMA_URI,
  INTEGER_FACTORIZATION_CLAIM_SEMANTICS_URI,
  INTEGER_FACTORIZATION_LIMITS,
  IntegerFactorizationClaimSchema,
  isAuthorized,
  JacobianError,
  PRIMALITY_CLAIM_SCHEMA_URI,
  PRIMALITY_CLAIM_SEMANTICS_URI,
  PRIMALITY_LIMITS,
  PRIMALITY_SOURCES,
  primalityCertificateSize,
  PrimalityClaimSchema,
  runKernel,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type IntegerFactorizationClaim,
  type JsonPath,
  type JsonValue,
  type PrimalityClaim,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../../graph/induced-tree-verify.js';
import { matrixCheckResult, matrixVerifyInput, matrixVerifyOutput } from '../../matrix/linear-algebra-verify-capability.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../../record.js';
import { PrimalityRejectionReason } from './primality-verify.js';

export const PRIMALITY_VERIFY_CAPABILITY_ID = 'integer.primality.verify';
export const FACTORIZATION_VERIFY_CAPABILITY_ID = 'integer.factorization.verify';
export const PRIMALITY_CHECKER_ID = 'jacobian.integer.primality.certificate_replay';
export const FACTORIZATION_CHECKER_ID = 'jacobian.integer.factorization.product_and_certificates';
const VERSION = '1.0.0';

const KERNEL_MODULE = fileURLToPath(new URL('./primality-verify.kernel.ts', import.meta.url));
/** The files whose bytes form these checkers' identity. */
export const PRIMALITY_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./primality-verify.ts', import.meta.url)),
  KERNEL_MODULE,
  fileURLToPath(new URL('../../matrix/linear-algebra-verify-capability.ts', import.meta.url)),
  RECORD_SOURCE,
  ...PRIMALITY_SOURCES,
];

const LIMITS = { max_digits: PRIMALITY_LIMITS.maxDigits, max_ecpp_steps: PRIMALITY_LIMITS.maxEcppSteps, max_certificate_depth: PRIMALITY_LIMITS.maxDepth, max_certificates: PRIMALITY_LIMITS.maxNodes, max_factors: INTEGER_FACTORIZATION_LIMITS.maxFactors };

const CheckResult = matrixCheckResult(PrimalityRejectionReason);
const PrimalityKind = z.enum(['PRIME', 'COMPOSITE']);
const PrimalityInput = matrixVerifyInput(PrimalityClaimSchema, {
  resultUri: "the claim stored by integer.primality.decide (its output's result_uri)",
  claim: 'the claim inline: {n, verdict: "PRIME", certificate} or {n, verdict: "COMPOSITE", witness}',
});
type PrimalityInput = z.infer<typeof PrimalityInput>;
const PrimalityOutput = matrixVerifyOutput(PrimalityKind, PrimalityRejectionReason, '["certificate", "steps", 3]');
export type PrimalityVerifyOutput = z.infer<typeof PrimalityOutput>;

const FactorizationInput = matrixVerifyInput(IntegerFactorizationClaimSchema, {
  resultUri: "the claim stored by integer.factor.compute (its output's result_uri)",
  claim: 'the claim inline: {n, factors: [{prime, exponent, certificate}]}',
});
type FactorizationInput = z.infer<typeof FactorizationInput>;
const FactorizationOutput = matrixVerifyOutput(z.literal('FACTORIZATION'), PrimalityRejectionReason, '["factors", 2, "certificate"]');
export type FactorizationVerifyOutput = z.infer<typeof FactorizationOutput>;

const short = (n: string): string => (n.length <= 60 ? n : `${n.slice(0, 25)}…${n.slice(-25)} (${n.length} digits)`);

function primalityStatement(claim: PrimalityClaim): string {
  if (claim.verdict === 'COMPOSITE') return `${short(claim.n)} is composite: ${claim.witness.kind === 'factor' ? `${short(claim.witness.factor)} divides it` : `it is not a strong probable prime to base ${short(claim.witness.base)} (Miller–Rabin)`}`;
  const size = primalityCertificateSize(claim.certificate);
  const kind = claim.certificate.kind === 'small' ? 'deterministic Miller–Rabin below ψ13' : claim.certificate.kind === 'pratt' ? 'a Pratt (Lucas) certificate' : 'an Atkin–Morain ECPP certificate';
  return `${short(claim.n)} is prime, by ${kind} (${size.nodes} certificate${size.nodes === 1 ? '' : 's'}, ${size.ecppSteps} ECPP step${size.ecppSteps === 1 ? '' : 's'})`;
}

function factorizationStatement(claim: IntegerFactorizationClaim): string {
  const product = claim.factors.map((f) => (f.exponent === 1 ? short(f.prime) : `${short(f.prime)}^${f.exponent}`)).join(' · ') || '1';
  return `${short(claim.n)} = ${product}, every factor prime by its certificate`;
}

interface ReadClaim {
  claim: JsonValue;
  storedUri: string | null;
  statement: string;
  kind: string;
  claimPath: JsonPath;
  schemaUri: string;
  semanticsUri: string;
  summary: Record<string, string | number | boolean>;
  value: Record<string, unknown>;
}

async function checkClaim<O>(id: string, exportName: string, read: ReadClaim, authority: CheckerAuthority, context: CapabilityContext): Promise<CapabilityOutcome<O>> {
  const statement = read.statement.slice(0, 2000);
  const inputUris = read.storedUri === null ? [] : [read.storedUri];
  const identity = authority.identity();
  if (!isAuthorized(authority.authorization(), identity)) {
    throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
      hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
    });
  }
  const checked = CheckResult.parse(await runKernel(context, { module: KERNEL_MODULE, exportName }, { claim: read.claim }));
  const scope = { kind: 'EXACT_CLAIM' as const, statement, input_uris: inputUris };
  if (!checked.accepted) {
    return {
      status: 'COMPLETED',
      output: { verdict: 'REJECTED', claim_kind: read.kind, claim: statement, claim_uri: null, reason_code: checked.reason_code, message: checked.message, failure: { path: checked.path, witness: checked.witness }, verification_record_uri: null } as O,
      scope,
      completeness: { status: 'COMPLETE', basis: 'the checker examined the claim and found a condition that fails' },
      qualifiers: ['EXACT', 'DETERMINISTIC'],
      assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
      obligations: [],
      relationships: [],
      artifact_uris: inputUris,
      diagnostics: [{ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: `${checked.reason_code}: ${checked.message}`.slice(0, 2000), path: read.storedUri === null ? [...read.claimPath, ...checked.path] : read.claimPath, hint: null }],
    };
  }
  const candidateUri =
    read.storedUri ?? (await context.artifacts.put({ schema_uri: read.schemaUri, semantics_uri: read.semanticsUri, payload: read.claim, parents: [], summary: { ...read.summary, submitted_inline: true } }, { signal: context.signal })).uri;
  const stored = await storeVerificationRecord(context, authority.signingKey, {
    capabilityId: id,
    capabilityVersion: VERSION,
    identity,
    claim: { kind: read.kind, statement, value: read.value },
    claimSemanticsUri: read.semanticsUri,
    candidateUri,
    inputUris: [],
    evidenceFormat: `jacobian:evidence/${id}.claim/v1`,
  });
  return {
    status: 'COMPLETED',
    output: { verdict: 'ACCEPTED', claim_kind: read.kind, claim: statement, claim_uri: candidateUri, reason_code: null, message: checked.message, failure: null, verification_record_uri: stored.uri } as O,
    scope,
    completeness: { status: 'COMPLETE', basis: checked.message.slice(0, 1000) },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: {
      level: 'VERIFIED',
      basis: `independent checker ${identity.checker_id}, authorized by the operator, replayed the claim (${read.kind}) in exact integer arithmetic with its own code`.slice(0, 1000),
      verification_record_uri: stored.uri,
      checker_id: identity.checker_id,
    },
    obligations: [],
    relationships: [{ subject: stored.uri, predicate: 'VERIFIES', object: candidateUri }],
    artifact_uris: [stored.uri, candidateUri],
    diagnostics: [],
  };
}

const RESULT_PATH: JsonPath = ['payload', 'result_uri'];
const CLAIM_PATH: JsonPath = ['payload', 'claim'];

/** integer.primality.verify, as the checker service registers it. */
export function verifyPrimality(authority: CheckerAuthority): CapabilityDefinition<PrimalityInput, PrimalityVerifyOutput> {
  return {
    id: PRIMALITY_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify a primality certificate (Pratt, ECPP) or a compositeness witness',
    description:
      'Independently replays a primality proof of an integer n, with no code of the producer: a small certificate (n < ψ13 ≈ 3.3·10^24, deterministic Miller–Rabin on the first 13 prime bases), a Pratt certificate (Lucas test: a of order n − 1, the full factorization of n − 1, each prime certified recursively), or an Atkin–Morain elliptic curve (ECPP) certificate as PARI/GP primecert prints it, steps [N, t, s, a, [x, y]]: curve y² = x³ + ax + b mod N, m = N + 1 − t = s·q, [m]P = O and [s]P ≠ O with gcd checks, q > (N^(1/4) + 1)² (Goldwasser–Kilian), the chain ending in a small prime. Or a compositeness claim: a non-trivial factor, or a Miller–Rabin (strong probable prime) witness base. Takes the result_uri of integer.primality.decide or a claim inline. A false claim is REJECTED naming the condition and where (wrong curve order, missing factor of n − 1, wrong witness…).',
    tags: ['number-theory', 'integer', 'primality', 'certificate', 'ecpp', 'verification', 'checker'],
    keywords: [
      'verify primality certificate',
      'primality proof',
      'prove n is prime',
      'Pratt certificate',
      'Lucas primality test',
      'Lucas–Lehmer–Pratt',
      'ECPP',
      'elliptic curve primality proving',
      'Atkin–Morain',
      'Goldwasser–Kilian',
      'primecert',
      'primecertisvalid',
      'Miller–Rabin witness',
      'strong pseudoprime',
      'compositeness witness',
      'Carmichael number',
    ],
    domain: 'integer',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [PRIMALITY_CLAIM_SCHEMA_URI],
    produced_artifact_types: [PRIMALITY_CLAIM_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: PrimalityInput,
    output: PrimalityOutput,
    examples: [
      {
        title: '2^61 − 1 is prime by a small certificate (deterministic Miller–Rabin below ψ13)',
        mode: 'VERIFY',
        payload: { claim: { n: '2305843009213693951', verdict: 'PRIME', certificate: { kind: 'small', n: '2305843009213693951' } } },
      },
      {
        title: '10^30 + 57 is prime by a one-step Atkin–Morain ECPP certificate (PARI primecert)',
        mode: 'VERIFY',
        payload: {
          claim: {
            n: '1000000000000000000000000000057',
            verdict: 'PRIME',
            certificate: { kind: 'ecpp', n: '1000000000000000000000000000057', steps: [['1000000000000000000000000000057', '1941308218874090', '1603111594224', '0', ['519335238006017621936447751736', '51315546389334118416664791836']]] },
          },
        },
      },
      { title: '561 is composite: 2 is a Miller–Rabin witness', mode: 'VERIFY', payload: { claim: { n: '561', verdict: 'COMPOSITE', witness: { kind: 'base', base: '2' } } } },
    ],
    relationships: [{ kind: 'VERIFIES', capability_id: 'integer.primality.decide' }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one claim: the given integer n is prime (by the given certificate) or composite (by the given witness).',
    limits: LIMITS,
    checker: {
      checker_id: PRIMALITY_CHECKER_ID,
      method:
        'the conditions of jacobian:schema/integer.primality.claim/v1 replayed on big integers: Miller–Rabin on the 13 first primes below ψ13; Pratt: product of prime powers = n − 1, a^(n−1) ≡ 1 and a^((n−1)/p) ≢ 1, nested certificates; ECPP: chain N → q, gcd(N, 6) = 1, s | m, q − ⌊√N⌋ − 1 > 2√⌊√N⌋, gcd(4a³ + 27b², N) = 1, [s]P and [q][s]P in Jacobian coordinates with gcd(Z, N) / Z ≡ 0, gcd(Y, N) checks; witnesses: d | n with 1 < d < n, or n not a strong probable prime to a',
      source_files: PRIMALITY_CHECKER_SOURCES,
      configuration: { ...LIMITS, conditions: 'integer.primality.claim/v1' },
    },
    async run(input, context) {
      let claim: PrimalityClaim;
      let storedUri: string | null = null;
      if (input.result_uri !== undefined) {
        const read = await getTypedArtifactAt(
          context.artifacts,
          input.result_uri,
          RESULT_PATH,
          { schemaUri: PRIMALITY_CLAIM_SCHEMA_URI, semanticsUri: PRIMALITY_CLAIM_SEMANTICS_URI, what: 'a stored primality claim', payload: PrimalityClaimSchema, hint: 'pass the result_uri of integer.primality.decide, or give the claim inline' },
          { signal: context.signal },
        );
        claim = read.payload;
        storedUri = read.artifact.uri;
      } else {
        if (input.claim === undefined) throw new Error('integer.primality.verify: the input was not validated (neither result_uri nor claim)');
        claim = input.claim;
      }
      const size = claim.verdict === 'PRIME' ? primalityCertificateSize(claim.certificate) : null;
      return checkClaim<PrimalityVerifyOutput>(
        PRIMALITY_VERIFY_CAPABILITY_ID,
        'verifyPrimalityKernel',
        {
          claim,
          storedUri,
          statement: primalityStatement(claim),
          kind: claim.verdict,
          claimPath: storedUri === null ? CLAIM_PATH : RESULT_PATH,
          schemaUri: PRIMALITY_CLAIM_SCHEMA_URI,
          semanticsUri: PRIMALITY_CLAIM_SEMANTICS_URI,
          summary: { verdict: claim.verdict, digits: claim.n.length, ...(claim.verdict === 'PRIME' ? { certificate: claim.certificate.kind } : { witness: claim.witness.kind }) },
          value: { n: claim.n, verdict: claim.verdict, ...(size === null || claim.verdict !== 'PRIME' ? {} : { certificate_kind: claim.certificate.kind, certificates: size.nodes, ecpp_steps: size.ecppSteps }) },
        },
        authority,
        context,
      );
    },
  };
}

/** integer.factorization.verify, as the checker service registers it. */
export function verifyIntegerFactorization(authority: CheckerAuthority): CapabilityDefinition<FactorizationInput, FactorizationVerifyOutput> {
  return {
    id: FACTORIZATION_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify a certified integer factorization',
    description:
      'Independently checks a prime factorization n = p1^e1 · … · pk^ek of an integer: the product equals n exactly and every pi is prime by its own certificate (small / Pratt / Atkin–Morain ECPP, replayed as integer.primality.verify does), with no code of the producer. Takes the result_uri of integer.factor.compute or a claim inline. A false claim is REJECTED: PRODUCT_MISMATCH when a factor is missing or wrong, a certificate reason (e.g. SMALL_NOT_PRIME) when a "prime" is composite.',
    tags: ['number-theory', 'integer', 'factorization', 'primality', 'certificate', 'verification', 'checker'],
    keywords: ['verify integer factorization', 'check prime factorization', 'certified factorization', 'prime factors with certificates', 'fundamental theorem of arithmetic', 'primality certificates of factors', 'factor n and prove the factors prime', 'Pratt', 'ECPP'],
    domain: 'integer',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [INTEGER_FACTORIZATION_CLAIM_SCHEMA_URI],
    produced_artifact_types: [INTEGER_FACTORIZATION_CLAIM_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: FactorizationInput,
    output: FactorizationOutput,
    examples: [
      {
        title: '1275 = 3 · 5² · 17, each prime by a small certificate',
        mode: 'VERIFY',
        payload: {
          claim: {
            n: '1275',
            factors: [
              { prime: '3', exponent: 1, certificate: { kind: 'small', n: '3' } },
              { prime: '5', exponent: 2, certificate: { kind: 'small', n: '5' } },
              { prime: '17', exponent: 1, certificate: { kind: 'small', n: '17' } },
            ],
          },
        },
      },
    ],
    relationships: [{ kind: 'VERIFIES', capability_id: 'integer.factor.compute' }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one claim: n equals the given product of prime powers and each given factor is prime (by its certificate); hence this is the prime factorization of n.',
    limits: LIMITS,
    checker: {
      checker_id: FACTORIZATION_CHECKER_ID,
      method: 'the product of the prime powers compared with n on big integers, then each prime certificate replayed by the conditions of jacobian:schema/integer.primality.claim/v1 (see integer.primality.verify)',
      source_files: PRIMALITY_CHECKER_SOURCES,
      configuration: { ...LIMITS, conditions: 'integer.factorization.claim/v1' },
    },
    async run(input, context) {
      let claim: IntegerFactorizationClaim;
      let storedUri: string | null = null;
      if (input.result_uri !== undefined) {
        const read = await getTypedArtifactAt(
          context.artifacts,
          input.result_uri,
          RESULT_PATH,
          { schemaUri: INTEGER_FACTORIZATION_CLAIM_SCHEMA_URI, semanticsUri: INTEGER_FACTORIZATION_CLAIM_SEMANTICS_URI, what: 'a stored integer factorization claim', payload: IntegerFactorizationClaimSchema, hint: 'pass the result_uri of integer.factor.compute, or give the claim inline' },
          { signal: context.signal },
        );
        claim = read.payload;
        storedUri = read.artifact.uri;
      } else {
        if (input.claim === undefined) throw new Error('integer.factorization.verify: the input was not validated (neither result_uri nor claim)');
        claim = input.claim;
      }
      return checkClaim<FactorizationVerifyOutput>(
        FACTORIZATION_VERIFY_CAPABILITY_ID,
        'verifyFactorizationKernel',
        {
          claim,
          storedUri,
          statement: factorizationStatement(claim),
          kind: 'FACTORIZATION',
          claimPath: storedUri === null ? CLAIM_PATH : RESULT_PATH,
          schemaUri: INTEGER_FACTORIZATION_CLAIM_SCHEMA_URI,
          semanticsUri: INTEGER_FACTORIZATION_CLAIM_SEMANTICS_URI,
          summary: { digits: claim.n.length, distinct_primes: claim.factors.length },
          value: { n: claim.n, primes: claim.factors.map((f) => f.prime).slice(0, 50), exponents: claim.factors.map((f) => f.exponent).slice(0, 50) },
        },
        authority,
        context,
      );
    },
  };
}
