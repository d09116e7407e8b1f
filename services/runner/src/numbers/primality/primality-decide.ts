/**
 * integer.primality.decide: PRIME with a certificate (stored as a primality claim for
 * integer.primality.verify) or COMPOSITE with a witness. Registered on the first healthy of
 * PARI/GP (which adds Atkin–Morain ECPP certificates from `primecert`) and our TypeScript
 * (small and Pratt certificates only: a large prime whose n − 1 does not factor within the budget
 * ends in EXECUTION_TIMEOUT, never in an uncertified PRIME).
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  CompositenessWitnessSchema,
  DETERMINISTIC_MR_BOUND,
  integerTextSchema,
  PRIMALITY_CLAIM_SCHEMA_URI,
  PRIMALITY_CLAIM_SEMANTICS_URI,
  PRIMALITY_SOURCES,
  primalityCertificateSize,
  PrimalityCertificateSchema,
  PrimalityClaimSchema,
  runKernel,
  type CapabilityDefinition,
  type Diagnostic,
  type PrimalityClaim,
  type ProviderRuntime,
} from '@jacobian/shared';
import { PARI_PROVIDER, type PariTools } from '../../providers/pari.js';
import { RUNNER_VERSION } from '../../version.js';
import { EngineSchema, pariToolsOf, storeClaim, type MatrixBackendOptions } from '../../matrix/capability-support.js';
import type { DecidePrimalityKernelOutput } from './primality-decide.kernel.js';

export const PRIMALITY_DECIDE_ID = 'integer.primality.decide';
export const PRIMALITY_TS_PROVIDER = 'jacobian-primality-ts';
const VERSION = '1.0.0';
/** Digits of n accepted (PARI's primecert on 1000 digits takes minutes: the budget decides). */
export const PRIMALITY_DECIDE_MAX_DIGITS = 1000;
/** A certificate larger than this (JSON bytes) is returned by result_uri only. */
const INLINE_CERTIFICATE_BYTES = 64 * 1024;

const KERNEL = { module: fileURLToPath(new URL('./primality-decide.kernel.ts', import.meta.url)), exportName: 'decidePrimalityKernel' };

/** The files of our own primality code (the TypeScript provider's identity; PARI's serves them too). */
export const PRIMALITY_TS_FILES: string[] = ['./numbers/primality/primality-decide.ts', './numbers/primality/primality-decide.kernel.ts', './numbers/primality/certify.ts', './numbers/primality/replay.ts', './numbers/primality/pari-ecpp.ts'];
export const PRIMALITY_TS_SHARED_SOURCES: readonly string[] = PRIMALITY_SOURCES;

export const PrimalityDecideInput = z
  .object({
    n: integerTextSchema({ maxDigits: PRIMALITY_DECIDE_MAX_DIGITS, sign: 'positive' })
      .refine((text) => text !== '1', { message: 'an integer n ≥ 2: 1 is neither prime nor composite (rule: integer-at-least-2)' })
      .describe(`the integer n ≥ 2 to decide, in decimal (at most ${PRIMALITY_DECIDE_MAX_DIGITS} digits)`),
  })
  .strict();
export type PrimalityDecideInput = z.infer<typeof PrimalityDecideInput>;

export const PrimalityDecideOutput = z
  .object({
    n: z.string(),
    verdict: z.enum(['PRIME', 'COMPOSITE']),
    certificate_kind: z.enum(['small', 'pratt', 'ecpp']).nullable().describe('PRIME: small (deterministic Miller–Rabin below ψ13), pratt (Lucas/Pratt), ecpp (Atkin–Morain); null when COMPOSITE'),
    certificate: PrimalityCertificateSchema.nullable().describe(`PRIME: the certificate, inline when under ${INLINE_CERTIFICATE_BYTES / 1024} KiB of JSON (else read it at result_uri); null when COMPOSITE`),
    certificate_size: z.object({ certificates: z.number().int(), depth: z.number().int(), ecpp_steps: z.number().int() }).strict().nullable(),
    certificate_source: z.enum(['OURS', 'PARI_PRIMECERT']).nullable().describe('who produced the certificate: our code (small, Pratt) or PARI/GP primecert (ECPP anywhere in it); every certificate was replayed by our own check'),
    witness: CompositenessWitnessSchema.nullable().describe('COMPOSITE: a factor d (1 < d < n) or a Miller–Rabin base a to which n is not a strong probable prime'),
    result_uri: z.string().nullable().describe('the claim stored for integer.primality.verify'),
    engine: EngineSchema,
  })
  .strict();
export type PrimalityDecideOutput = z.infer<typeof PrimalityDecideOutput>;

const DESCRIPTION =
  'Decides whether an integer n is prime, with a proof either way. PRIME comes with a primality certificate: below ψ13 ≈ 3.3·10^24 deterministic Miller–Rabin on the first 13 prime bases (reproducible by anyone), above it a Pratt certificate (Lucas test: a of order n − 1 with the full factorization of n − 1, each prime certified recursively) when n − 1 factors within the budget';
const OURS_LIMIT = ' Served by our TypeScript (no PARI/GP here): small and Pratt certificates only, so a large prime whose n − 1 does not factor by trial division and Pollard rho within the budget ends with EXECUTION_TIMEOUT (no ECPP without PARI/GP), never with an uncertified answer.';
const PARI_TEXT = ', otherwise an Atkin–Morain elliptic curve (ECPP) certificate from PARI/GP primecert, labelled as PARI-produced and replayed by our own check before it is returned.';
const TAIL =
  ' COMPOSITE comes with a witness: a non-trivial factor, or a Miller–Rabin base (Carmichael numbers and strong pseudoprimes get one too; Baillie–PSW (BPSW) screens first). The claim is stored for integer.primality.verify (independent replay, VERIFIED).';

function kindOf(claim: PrimalityClaim): 'small' | 'pratt' | 'ecpp' | null {
  return claim.verdict === 'PRIME' ? claim.certificate.kind : null;
}

/** integer.primality.decide on PARI/GP (adds ECPP) or our TypeScript (small and Pratt). */
export function primalityDecide(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<PrimalityDecideInput, PrimalityDecideOutput> {
  const pari: PariTools | null = pariToolsOf(PRIMALITY_DECIDE_ID, runtime, options);
  return {
    id: PRIMALITY_DECIDE_ID,
    version: VERSION,
    title: 'Is n prime? Decide primality with a certificate (Pratt, ECPP) or a compositeness witness',
    description: pari === null ? `${DESCRIPTION}.${OURS_LIMIT}${TAIL}` : `${DESCRIPTION}${PARI_TEXT}${TAIL}`,
    tags: ['number-theory', 'integer', 'primality', 'certificate', ...(pari === null ? ['typescript'] : ['ecpp', 'pari-gp'])],
    keywords: [
      'is n prime',
      'primality test',
      'primality proving',
      'prove that n is prime',
      'primality certificate',
      'Pratt certificate',
      'Lucas primality test',
      'ECPP',
      'elliptic curve primality proving',
      'Atkin–Morain',
      'primecert',
      'Miller–Rabin',
      'Baillie–PSW',
      'BPSW',
      'strong pseudoprime',
      'Carmichael number',
      'compositeness witness',
      'isprime',
      'PrimeQ',
    ],
    domain: 'integer',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [PRIMALITY_CLAIM_SCHEMA_URI],
    input: PrimalityDecideInput,
    output: PrimalityDecideOutput,
    examples: [
      { title: 'Is the Mersenne number 2^89 − 1 = 618970019642690137449562111 prime? (a Pratt certificate)', mode: 'EXPLORE', payload: { n: '618970019642690137449562111' } },
      { title: 'Is 561 prime? (a Carmichael number: composite, witness 3)', mode: 'EXPLORE', payload: { n: '561' } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'integer.primality.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the one integer n: whether it is prime, with the certificate or witness that shows it.',
    limits: { max_digits: PRIMALITY_DECIDE_MAX_DIGITS, deterministic_miller_rabin_bound: DETERMINISTIC_MR_BOUND.toString(), ecpp: pari === null ? 'absent (no PARI/GP): small and Pratt certificates only' : 'PARI/GP primecert' },
    async run(input, context) {
      const started = Date.now();
      const answer = (await runKernel(context, KERNEL, { n: input.n, pari, memoryMb: context.budget.memory_mb })) as DecidePrimalityKernelOutput;
      const claim: PrimalityClaim = PrimalityClaimSchema.parse(answer.verdict === 'PRIME' ? { n: input.n, verdict: 'PRIME', certificate: answer.certificate } : { n: input.n, verdict: 'COMPOSITE', witness: answer.witness });
      const diagnostics: Diagnostic[] = [];
      const size = claim.verdict === 'PRIME' ? primalityCertificateSize(claim.certificate) : null;
      const fromPari = size !== null && size.ecppSteps > 0;
      const resultUri = await storeClaim(
        { schema_uri: PRIMALITY_CLAIM_SCHEMA_URI, semantics_uri: PRIMALITY_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: { verdict: claim.verdict, digits: input.n.length, ...(claim.verdict === 'PRIME' ? { certificate: claim.certificate.kind, source: fromPari ? 'PARI/GP primecert' : 'ours' } : { witness: claim.witness.kind }) } },
        context,
        diagnostics,
      );
      const inline = claim.verdict === 'PRIME' && JSON.stringify(claim.certificate).length <= INLINE_CERTIFICATE_BYTES ? claim.certificate : null;
      const method =
        claim.verdict === 'COMPOSITE'
          ? 'trial division below 10^4, Miller–Rabin bases below 1000, Pollard rho (Brent) for the witness'
          : claim.certificate.kind === 'small'
            ? 'deterministic Miller–Rabin on the first 13 prime bases (n < ψ13)'
            : fromPari
              ? 'PARI/GP primecert (Atkin–Morain ECPP), read row by row and replayed by our projective check'
              : 'Pratt certificate: n − 1 factored by trial division and Pollard rho (Brent), witness search, recursive; replayed';
      const engine = fromPari && pari !== null ? { provider: PARI_PROVIDER, version: pari.version, method, compute_ms: answer.ms } : { provider: pari === null ? runtime.provider : PRIMALITY_TS_PROVIDER, version: pari === null ? runtime.version : RUNNER_VERSION, method, compute_ms: answer.ms };
      const statement = claim.verdict === 'PRIME' ? `${input.n.length}-digit n = ${input.n.slice(0, 60)}${input.n.length > 60 ? '…' : ''} is prime` : `${input.n.length}-digit n = ${input.n.slice(0, 60)}${input.n.length > 60 ? '…' : ''} is composite`;
      return {
        status: 'COMPLETED',
        output: {
          n: input.n,
          verdict: claim.verdict,
          certificate_kind: kindOf(claim),
          certificate: inline,
          certificate_size: size === null ? null : { certificates: size.nodes, depth: size.depth, ecpp_steps: size.ecppSteps },
          certificate_source: claim.verdict === 'PRIME' ? (fromPari ? 'PARI_PRIMECERT' : 'OURS') : null,
          witness: claim.verdict === 'COMPOSITE' ? claim.witness : null,
          result_uri: resultUri,
          engine,
        },
        scope: { kind: 'EXACT_INPUT', statement, input_uris: [] },
        completeness: { status: 'COMPLETE', basis: `decided in ${Date.now() - started} ms; ${claim.verdict === 'PRIME' ? 'the certificate was replayed by our own check' : 'the witness was checked'}` },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: 'COMPUTED',
          basis: (claim.verdict === 'PRIME'
            ? fromPari
              ? 'PRIME by an Atkin–Morain ECPP certificate produced by PARI/GP primecert and replayed by the runner\'s own check (not BPSW alone); integer.primality.verify replays it independently for VERIFIED'
              : `PRIME by a ${claim.certificate.kind === 'small' ? 'deterministic Miller–Rabin (n < ψ13)' : 'Pratt'} certificate of our own, replayed by the runner's check; integer.primality.verify replays it independently for VERIFIED`
            : 'COMPOSITE by the witness given (a factor or a Miller–Rabin base), checked; integer.primality.verify rechecks it for VERIFIED'
          ).slice(0, 1000),
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
