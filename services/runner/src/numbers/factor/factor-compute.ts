/**
 * integer.factor.compute: the prime factorization of a positive integer, every prime with a
 * primality certificate (certifyPrime: small, Pratt, or ECPP from PARI/GP), stored as a certified
 * factorization claim for integer.factorization.verify. Registered on the first healthy of PARI/GP
 * (its `factor`, rechecked: product n, each prime certified) and our engine (trial division,
 * Pollard rho, ECM). What the budget did not finish is said: unsplit composite parts and primes
 * without a certificate make the result PARTIAL, never a complete factorization.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  INTEGER_FACTORIZATION_CLAIM_SCHEMA_URI,
  INTEGER_FACTORIZATION_CLAIM_SEMANTICS_URI,
  IntegerFactorizationClaimSchema,
  integerTextSchema,
  PRIMALITY_SOURCES,
  runKernel,
  type CapabilityContext,
  type CapabilityDefinition,
  type Diagnostic,
  type ProviderRuntime,
} from '@jacobian/shared';
import { PARI_PROVIDER, type PariTools } from '../../providers/pari.js';
import { EngineSchema, pariToolsOf, storeClaim, type MatrixBackendOptions } from '../../matrix/capability-support.js';
import type { FactorKernelOutput } from './factor.kernel.js';

export const FACTOR_COMPUTE_ID = 'integer.factor.compute';
export const FACTOR_TS_PROVIDER = 'jacobian-factor-ts';
const VERSION = '1.0.0';
/** Digits of n accepted; the budget decides what finishes (our ECM: 40 digits in seconds). */
export const FACTOR_MAX_DIGITS = 200;

/** Our factoring and certification code: the TypeScript provider's identity. */
export const FACTOR_TS_FILES: string[] = [
  './numbers/factor/factor-compute.ts',
  './numbers/factor/factor.kernel.ts',
  './numbers/factor/certified.ts',
  './numbers/factor/factor.ts',
  './numbers/factor/ecm.ts',
  './numbers/factor/mpqs.ts',
  './numbers/primality/certify.ts',
  './numbers/primality/replay.ts',
  './numbers/primality/pari-ecpp.ts',
  './numbers/arithmetic/functions.ts',
  './numbers/arithmetic/arithmetic-capabilities.ts',
  './numbers/arithmetic/arithmetic.kernel.ts',
];
export const FACTOR_TS_SHARED_SOURCES: readonly string[] = PRIMALITY_SOURCES;
export const FACTOR_TS_FEATURES = ['trial-division', 'pollard-rho-brent', 'mpqs', 'ecm-montgomery-suyama', 'certified-primes-small-pratt'];

const FACTOR_KERNEL = { module: fileURLToPath(new URL('./factor.kernel.ts', import.meta.url)), exportName: 'factorKernel' };

/** The factorization as the kernel gave it, with its provenance. */
export interface FactorRun {
  output: FactorKernelOutput;
  engine: z.infer<typeof EngineSchema>;
  ms: number;
}

export const OURS_METHOD = 'trial division below 2^14, Pollard rho (Brent), the multiple-polynomial quadratic sieve (18–46 digits), ECM (Montgomery curves, Suyama σ, B1 from 400 up, B2 = 100·B1, baby-step giant-step stage 2); primes certified (deterministic Miller–Rabin below ψ13, else Pratt)';
export const PARI_METHOD = 'PARI/GP factor (rechecked: primes increasing, product n); primes certified (deterministic Miller–Rabin below ψ13, Pratt, or Atkin–Morain ECPP from PARI/GP primecert, each replayed by our check)';

/** Factor n (decimal text, n ≥ 1) in the kernel, on PARI/GP when `pari` is given, else on our engine. */
export async function runFactorization(n: string, pari: PariTools | null, runtime: ProviderRuntime, context: CapabilityContext): Promise<FactorRun> {
  const started = Date.now();
  const output = (await runKernel(context, FACTOR_KERNEL, { n, pari, memoryMb: context.budget.memory_mb })) as FactorKernelOutput;
  const ms = Date.now() - started;
  const engine = pari !== null ? { provider: PARI_PROVIDER, version: pari.version, method: PARI_METHOD, compute_ms: ms } : { provider: runtime.provider, version: runtime.version, method: OURS_METHOD, compute_ms: ms };
  return { output, engine, ms };
}

/** "2^3 · 3 · 5" (and "· C^e" for composite parts), "1" for the empty product. */
export function factorizationText(output: Pick<FactorKernelOutput, 'factors' | 'composites'>): string {
  const parts = [...output.factors.map((f) => ({ base: f.prime, exponent: f.exponent })), ...output.composites.map((c) => ({ base: `C(${c.value})`, exponent: c.exponent }))].map(({ base, exponent }) => (exponent === 1 ? base : `${base}^${exponent}`));
  return parts.length === 0 ? '1' : parts.join(' · ');
}

export const FactorComputeInput = z
  .object({
    n: integerTextSchema({ maxDigits: FACTOR_MAX_DIGITS, sign: 'positive' }).describe(`the positive integer n to factor, in decimal (at most ${FACTOR_MAX_DIGITS} digits)`),
  })
  .strict();
export type FactorComputeInput = z.infer<typeof FactorComputeInput>;

export const FactorComputeOutput = z
  .object({
    n: z.string(),
    factorization: z.string().describe('n as a product, e.g. "2^3 · 3 · 5"; an unsplit composite part shows as C(…)'),
    factors: z
      .array(
        z
          .object({
            prime: z.string(),
            exponent: z.number().int(),
            certified: z.boolean().describe('true: primality proven by the certificate kind given; false: a Baillie–PSW probable prime not certified within the budget'),
            certificate_kind: z.enum(['small', 'pratt', 'ecpp']).nullable(),
          })
          .strict(),
      )
      .describe('the primes found, increasing, with exponents'),
    composite_cofactors: z.array(z.object({ value: z.string(), exponent: z.number().int() }).strict()).describe('composite parts not split within the budget; [] when the split is complete'),
    uncertified_primes: z.array(z.string()).describe('probable primes without a certificate (the budget ended); [] when every prime is certified'),
    complete: z.boolean().describe('true only when n is split into primes and every prime is certified'),
    distinct_primes: z.number().int(),
    result_uri: z.string().nullable().describe('the certified factorization claim for integer.factorization.verify (only when complete)'),
    engine: EngineSchema,
    ecm: z.object({ curves: z.number().int(), largest_b1: z.number().int(), rho_splits: z.number().int(), ecm_splits: z.number().int(), mpqs_splits: z.number().int() }).strict().nullable().describe('our engine: ECM curves run and splits by method (rho, ECM, quadratic sieve); null when PARI/GP split n'),
  })
  .strict();
export type FactorComputeOutput = z.infer<typeof FactorComputeOutput>;

const DESCRIPTION =
  'Prime factorization of a positive integer n = p1^e1 · … · pk^ek (integer factorization, factor n, prime decomposition), with a primality certificate for every prime factor (deterministic Miller–Rabin below ψ13 ≈ 3.3·10^24, Pratt certificates, Atkin–Morain ECPP when PARI/GP is present), stored as a claim that integer.factorization.verify replays. Composite parts the budget did not split and primes it did not certify are listed and make the result PARTIAL; nothing is called prime on a probable-prime test alone.';
const OURS_TEXT = ' Served by our TypeScript: trial division, Pollard rho (Brent), the multiple-polynomial quadratic sieve (MPQS, 18 to 46 digits) and Lenstra ECM (elliptic curve method, Montgomery curves with Suyama parametrization, two stages, increasing B1): semiprimes of 40 digits in about a second; no ECPP without PARI/GP, so a prime above ψ13 whose p − 1 does not factor stays uncertified.';
const PARI_TEXT = ' Served by PARI/GP factor (MPQS, ECM, rho), its answer rechecked (product n) and every prime certified by our code or PARI/GP primecert, replayed before it is returned.';

/** integer.factor.compute on PARI/GP (rechecked, certified) or our engine. */
export function factorCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<FactorComputeInput, FactorComputeOutput> {
  const pari = pariToolsOf(FACTOR_COMPUTE_ID, runtime, options);
  return {
    id: FACTOR_COMPUTE_ID,
    version: VERSION,
    title: 'Prime factorization of an integer, every prime certified',
    description: DESCRIPTION + (pari === null ? OURS_TEXT : PARI_TEXT),
    tags: ['number-theory', 'integer', 'factorization', 'certificate', ...(pari === null ? ['typescript', 'ecm'] : ['pari-gp'])],
    keywords: [
      'prime factorization',
      'integer factorization',
      'factor an integer',
      'prime factors',
      'prime decomposition',
      'semiprime',
      'ECM',
      'elliptic curve method',
      'Lenstra ECM',
      'Pollard rho',
      'quadratic sieve',
      'MPQS',
      'Brent',
      'trial division',
      'certified factorization',
      'FactorInteger',
      'factorint',
    ],
    domain: 'integer',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [INTEGER_FACTORIZATION_CLAIM_SCHEMA_URI],
    input: FactorComputeInput,
    output: FactorComputeOutput,
    examples: [
      { title: 'Factor the Fermat number F6 = 2^64 + 1 = 274177 · 67280421310721 (Landry)', mode: 'EXPLORE', payload: { n: '18446744073709551617' } },
      { title: 'Factor the Carmichael number 561 = 3 · 11 · 17', mode: 'EXPLORE', payload: { n: '561' } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'integer.factorization.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the one integer n: its prime factorization, complete only as stated.',
    limits: { max_digits: FACTOR_MAX_DIGITS, ecpp: pari === null ? 'absent (no PARI/GP): primes above ψ13 need a Pratt certificate' : 'PARI/GP primecert' },
    async run(input, context) {
      const { output, engine } = await runFactorization(input.n, pari, runtime, context);
      const diagnostics: Diagnostic[] = [];
      const uncertified = output.factors.filter((f) => f.certificate === null).map((f) => f.prime);
      const split = output.composites.length === 0;
      const complete = split && uncertified.length === 0;
      let resultUri: string | null = null;
      if (complete) {
        const claim = IntegerFactorizationClaimSchema.safeParse({ n: input.n, factors: output.factors.map((f) => ({ prime: f.prime, exponent: f.exponent, certificate: f.certificate })) });
        if (claim.success) {
          resultUri = await storeClaim(
            { schema_uri: INTEGER_FACTORIZATION_CLAIM_SCHEMA_URI, semantics_uri: INTEGER_FACTORIZATION_CLAIM_SEMANTICS_URI, payload: claim.data, parents: [], summary: { digits: input.n.length, distinct_primes: output.factors.length, source: output.source } },
            context,
            diagnostics,
          );
        } else {
          diagnostics.push({ severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED', stage: 'ARTIFACT', message: `the claim was not stored: ${claim.error.issues[0]?.message ?? 'not a claim'}`.slice(0, 2000), path: null, hint: 'the answer in the output stands' });
        }
      }
      const text = factorizationText(output);
      const subject = `n = ${input.n.length > 60 ? `${input.n.slice(0, 60)}… (${input.n.length} digits)` : input.n}`;
      const gaps = [
        ...(split ? [] : [`composite part(s) ${output.composites.map((c) => `${c.value.slice(0, 40)} (${c.value.length} digits)`).join(', ')} not split within the budget`]),
        ...(uncertified.length === 0 ? [] : [`probable prime(s) ${uncertified.map((p) => `${p.slice(0, 40)} (${p.length} digits)`).join(', ')} passed Baillie–PSW but got no certificate within the budget`]),
      ].join('; ');
      return {
        status: 'COMPLETED',
        output: {
          n: input.n,
          factorization: text.length > 4000 ? `${text.slice(0, 4000)}…` : text,
          factors: output.factors.map((f) => ({ prime: f.prime, exponent: f.exponent, certified: f.certificate !== null, certificate_kind: f.certificate?.kind ?? null })),
          composite_cofactors: output.composites,
          uncertified_primes: uncertified,
          complete,
          distinct_primes: output.factors.length,
          result_uri: resultUri,
          engine,
          ecm: output.stats === null ? null : { curves: output.stats.ecm_curves, largest_b1: output.stats.ecm_largest_b1, rho_splits: output.stats.rho_splits, ecm_splits: output.stats.ecm_splits, mpqs_splits: output.stats.mpqs_splits },
        },
        scope: { kind: 'EXACT_INPUT', statement: `the prime factorization of ${subject}${complete ? '' : ' (partial)'}`, input_uris: [] },
        completeness: complete
          ? { status: 'COMPLETE', basis: `split in ${output.factor_ms} ms, ${output.factors.length} prime(s) certified in ${output.certify_ms} ms; the product of the prime powers is n` }
          : { status: 'PARTIAL', basis: `not complete: ${gaps}`.slice(0, 2000) },
        qualifiers: complete ? ['EXACT', 'DETERMINISTIC'] : uncertified.length > 0 ? ['EXACT', 'HEURISTIC'] : ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: uncertified.length > 0 ? 'HEURISTIC' : 'COMPUTED',
          basis: (complete
            ? `every prime carries a certificate replayed by the runner's own check (${output.source === 'PARI' ? "PARI/GP's factor, its product rechecked" : 'our engine'}); integer.factorization.verify replays the claim independently for VERIFIED`
            : uncertified.length > 0
              ? `the primes ${uncertified.map((p) => p.slice(0, 30)).join(', ')} are Baillie–PSW probable primes only (no certificate within the budget); the other primes are certified; the product is exact`
              : 'every prime listed is certified; composite parts remain unsplit (the budget ended); the product is exact'
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
