/**
 * The integer arithmetic functions: divisors, σ_k, Euler φ and Möbius μ from a certified
 * factorization (integer.factor.compute's: PARI/GP or our engine, every prime certified or the
 * result says which is not), and the p-adic valuation, perfect-power test, extended gcd and
 * integer n-th root, which need none. Each states its method; all are exact.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  integerTextSchema,
  isPrimeProven,
  JacobianError,
  runKernel,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type ProviderRuntime,
} from '@jacobian/shared';
import { EngineSchema, pariToolsOf, type MatrixBackendOptions } from '../../matrix/capability-support.js';
import { factorizationText, runFactorization, type FactorRun } from '../factor/factor-compute.js';
import type { IntegerOpInput, IntegerOpOutput } from './arithmetic.kernel.js';
import { divisorCount, divisors, mobius, sigma, totient, type PrimePowerFactor } from './functions.js';

const VERSION = '1.0.0';
/** Digits of n for the functions that factor n first (the budget decides what finishes). */
export const ARITHMETIC_FACTOR_MAX_DIGITS = 100;
/** Digits of the operands of valuation, gcd and roots. */
export const ARITHMETIC_MAX_DIGITS = 10_000;
/** Digits for the perfect-power test (an integer k-th root for every prime k ≤ log2 n). */
export const PERFECT_POWER_MAX_DIGITS = 2_000;
export const DIVISOR_LIST_MAX = 100_000;
export const SIGMA_MAX_K = 64;
export const ROOT_MAX_K = 100_000;
export const GCD_MAX_VALUES = 100;

const OP_KERNEL = { module: fileURLToPath(new URL('./arithmetic.kernel.ts', import.meta.url)), exportName: 'integerOpKernel' };

const positive = (what: string, digits = ARITHMETIC_FACTOR_MAX_DIGITS) => integerTextSchema({ maxDigits: digits, sign: 'positive' }).describe(`${what}, in decimal (at most ${digits} digits)`);

const FactorizationOutput = z.array(z.object({ prime: z.string(), exponent: z.number().int(), certified: z.boolean() }).strict()).describe('the factorization used: primes increasing, each certified unless said');

const base = {
  domain: 'integer',
  modes: ['EXPLORE' as const],
  role: 'producer' as const,
  input_kinds: ['STRUCTURED_REQUEST' as const],
  accepted_artifact_types: [],
  produced_artifact_types: [],
  relationships: [],
  assurance_ceiling: 'COMPUTED' as const,
};

/** A COMPLETED exact outcome of our own code, with its method in the assurance basis. */
function exactOutcome<O>(output: O, statement: string, basis: string): CapabilityOutcome<O> {
  return {
    status: 'COMPLETED',
    output,
    scope: { kind: 'EXACT_INPUT', statement: statement.slice(0, 2000), input_uris: [] },
    completeness: { status: 'COMPLETE', basis: basis.slice(0, 2000) },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: { level: 'COMPUTED', basis: basis.slice(0, 1000), verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: [],
    diagnostics: [],
  };
}

const short = (n: string): string => (n.length > 60 ? `${n.slice(0, 60)}… (${n.length} digits)` : n);

/**
 * Factor n and hand the factorization to `compute`. Unsplit parts are an EXECUTION_TIMEOUT (the
 * function needs every prime); uncertified primes make the answer HEURISTIC and say which.
 */
async function fromFactorization<O>(
  n: string,
  pari: ReturnType<typeof pariToolsOf>,
  runtime: ProviderRuntime,
  context: CapabilityContext,
  what: string,
  compute: (factors: PrimePowerFactor[], run: FactorRun) => O,
): Promise<CapabilityOutcome<O>> {
  const run = await runFactorization(n, pari, runtime, context);
  if (run.output.composites.length > 0) {
    throw new JacobianError('EXECUTION_TIMEOUT', `the factorization of n was not complete within the budget (${factorizationText(run.output).slice(0, 300)}); ${what} needs every prime, so nothing was concluded`);
  }
  const factors = run.output.factors.map((f) => ({ prime: BigInt(f.prime), exponent: f.exponent }));
  const output = compute(factors, run);
  const uncertified = run.output.factors.filter((f) => f.certificate === null).map((f) => f.prime);
  const method = `${what} from the factorization n = ${factorizationText(run.output).slice(0, 200)} (${run.engine.method})`;
  const outcome = exactOutcome(output, `${what} of n = ${short(n)}`, `${method}; every prime certified`);
  if (uncertified.length === 0) return outcome;
  const caveat = `${method}; the primes ${uncertified.map((p) => p.slice(0, 30)).join(', ')} are Baillie–PSW probable primes without a certificate (the budget ended): the value holds if they are prime`;
  return { ...outcome, qualifiers: ['EXACT', 'HEURISTIC'], completeness: { status: 'PARTIAL', basis: caveat.slice(0, 2000) }, assurance: { ...outcome.assurance, level: 'HEURISTIC', basis: caveat.slice(0, 1000) } };
}

const usedFactors = (run: FactorRun): z.infer<typeof FactorizationOutput> => run.output.factors.map((f) => ({ prime: f.prime, exponent: f.exponent, certified: f.certificate !== null }));

const providerText = (pari: ReturnType<typeof pariToolsOf>): string => (pari === null ? ' n is factored by our engine (trial division, Pollard rho, ECM), every prime certified.' : ' n is factored by PARI/GP (rechecked), every prime certified.');

// ---- divisors ----
export const DivisorsInput = z.object({ n: positive('n ≥ 1'), limit: z.number().int().min(1).max(DIVISOR_LIST_MAX).default(1000).describe(`most divisors listed (the smallest ones); at most ${DIVISOR_LIST_MAX}`) }).strict();
export const DivisorsOutput = z.object({ n: z.string(), divisor_count: z.string().describe('τ(n) = d(n), the number of positive divisors'), divisors: z.array(z.string()).describe('the positive divisors in increasing order, the smallest `limit` of them'), truncated: z.boolean(), factorization: FactorizationOutput, engine: EngineSchema }).strict();

export function divisorsCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<z.infer<typeof DivisorsInput>, z.infer<typeof DivisorsOutput>> {
  const pari = pariToolsOf('integer.divisors.compute', runtime, options);
  return {
    ...base,
    id: 'integer.divisors.compute',
    version: VERSION,
    title: 'Divisors of an integer and the divisor count τ(n)',
    description: `All positive divisors of n in increasing order (up to a limit, the smallest first) and their number τ(n) = d(n) = σ_0(n) = ∏(e_i + 1), from the prime factorization.${providerText(pari)}`,
    tags: ['number-theory', 'integer', 'divisors', 'exact'],
    keywords: ['divisors', 'list of divisors', 'divisor count', 'number of divisors', 'tau(n)', 'd(n)', 'divisor function', 'Divisors', 'DivisorSigma'],
    pool: 'heavy',
    input: DivisorsInput,
    output: DivisorsOutput,
    examples: [{ title: 'The divisors of 360 (τ = 24)', mode: 'EXPLORE', payload: { n: '360' } }],
    scope_rule: 'Covers exactly the one integer n.',
    limits: { max_digits: ARITHMETIC_FACTOR_MAX_DIGITS, max_listed: DIVISOR_LIST_MAX },
    run: (input, context) =>
      fromFactorization(input.n, pari, runtime, context, 'the divisors', (factors, run) => {
        const count = divisorCount(factors);
        return { n: input.n, divisor_count: count.toString(), divisors: divisors(factors, input.limit).map(String), truncated: count > BigInt(input.limit), factorization: usedFactors(run), engine: run.engine };
      }),
  };
}

// ---- sigma_k ----
export const SigmaInput = z.object({ n: positive('n ≥ 1'), k: z.number().int().min(0).max(SIGMA_MAX_K).default(1).describe(`the power k of σ_k(n) = Σ_{d|n} d^k, 0 ≤ k ≤ ${SIGMA_MAX_K}`) }).strict();
export const SigmaOutput = z.object({ n: z.string(), k: z.number().int(), sigma: z.string().describe('σ_k(n)'), factorization: FactorizationOutput, engine: EngineSchema }).strict();

export function sigmaCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<z.infer<typeof SigmaInput>, z.infer<typeof SigmaOutput>> {
  const pari = pariToolsOf('integer.sigma.compute', runtime, options);
  return {
    ...base,
    id: 'integer.sigma.compute',
    version: VERSION,
    title: 'Divisor function σ_k(n), the sum of the k-th powers of the divisors',
    description: `The divisor function σ_k(n) = Σ_{d|n} d^k = ∏ (p^{k(e+1)} − 1)/(p^k − 1): σ_1 is the sum of divisors (perfect, abundant, deficient numbers: σ(n) = 2n, > 2n, < 2n), σ_0 the number of divisors.${providerText(pari)}`,
    tags: ['number-theory', 'integer', 'divisor-function', 'exact'],
    keywords: ['divisor function', 'sigma function', 'sum of divisors', 'σ(n)', 'sigma_k', 'perfect number', 'abundant number', 'aliquot', 'DivisorSigma'],
    pool: 'heavy',
    input: SigmaInput,
    output: SigmaOutput,
    examples: [{ title: 'σ(28) = 56: 28 is perfect', mode: 'EXPLORE', payload: { n: '28', k: 1 } }],
    scope_rule: 'Covers exactly the one integer n and power k.',
    limits: { max_digits: ARITHMETIC_FACTOR_MAX_DIGITS, max_k: SIGMA_MAX_K },
    run: (input, context) => fromFactorization(input.n, pari, runtime, context, `σ_${input.k}(n)`, (factors, run) => ({ n: input.n, k: input.k, sigma: sigma(factors, input.k).toString(), factorization: usedFactors(run), engine: run.engine })),
  };
}

// ---- Euler phi ----
export const TotientInput = z.object({ n: positive('n ≥ 1') }).strict();
export const TotientOutput = z.object({ n: z.string(), totient: z.string().describe('φ(n)'), factorization: FactorizationOutput, engine: EngineSchema }).strict();

export function totientCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<z.infer<typeof TotientInput>, z.infer<typeof TotientOutput>> {
  const pari = pariToolsOf('integer.totient.compute', runtime, options);
  return {
    ...base,
    id: 'integer.totient.compute',
    version: VERSION,
    title: "Euler's totient φ(n)",
    description: `Euler's totient (phi) function φ(n) = #{1 ≤ a ≤ n : gcd(a, n) = 1} = ∏ p^{e−1}(p − 1), the order of the unit group (Z/nZ)^×.${providerText(pari)}`,
    tags: ['number-theory', 'integer', 'totient', 'exact'],
    keywords: ['Euler totient', 'totient function', 'Euler phi', 'φ(n)', 'phi(n)', 'units modulo n', 'order of the multiplicative group', 'eulerphi', 'EulerPhi'],
    pool: 'heavy',
    input: TotientInput,
    output: TotientOutput,
    examples: [{ title: 'φ(36) = 12', mode: 'EXPLORE', payload: { n: '36' } }],
    scope_rule: 'Covers exactly the one integer n.',
    limits: { max_digits: ARITHMETIC_FACTOR_MAX_DIGITS },
    run: (input, context) => fromFactorization(input.n, pari, runtime, context, 'φ(n)', (factors, run) => ({ n: input.n, totient: totient(factors).toString(), factorization: usedFactors(run), engine: run.engine })),
  };
}

// ---- Moebius mu ----
export const MobiusInput = z.object({ n: positive('n ≥ 1') }).strict();
export const MobiusOutput = z.object({ n: z.string(), mobius: z.number().int().describe('μ(n) ∈ {−1, 0, 1}'), squarefree: z.boolean(), distinct_primes: z.number().int(), factorization: FactorizationOutput, engine: EngineSchema }).strict();

export function mobiusCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<z.infer<typeof MobiusInput>, z.infer<typeof MobiusOutput>> {
  const pari = pariToolsOf('integer.mobius.compute', runtime, options);
  return {
    ...base,
    id: 'integer.mobius.compute',
    version: VERSION,
    title: 'Möbius function μ(n) and squarefreeness',
    description: `The Möbius function μ(n): 0 when a square > 1 divides n, otherwise (−1)^k for n squarefree with k prime factors; also whether n is squarefree.${providerText(pari)}`,
    tags: ['number-theory', 'integer', 'mobius', 'exact'],
    keywords: ['Möbius function', 'Mobius function', 'Moebius mu', 'μ(n)', 'mu(n)', 'squarefree', 'square-free', 'moebius', 'MoebiusMu', 'Liouville'],
    pool: 'heavy',
    input: MobiusInput,
    output: MobiusOutput,
    examples: [{ title: 'μ(30) = −1 (three primes, squarefree)', mode: 'EXPLORE', payload: { n: '30' } }],
    scope_rule: 'Covers exactly the one integer n.',
    limits: { max_digits: ARITHMETIC_FACTOR_MAX_DIGITS },
    run: (input, context) =>
      fromFactorization(input.n, pari, runtime, context, 'μ(n)', (factors, run) => {
        const mu = mobius(factors);
        return { n: input.n, mobius: mu, squarefree: factors.every((f) => f.exponent === 1), distinct_primes: factors.length, factorization: usedFactors(run), engine: run.engine };
      }),
  };
}

const OURS_ENGINE = (runtime: ProviderRuntime, method: string, ms: number) => ({ provider: runtime.provider, version: runtime.version, method, compute_ms: ms });

async function integerOp(context: CapabilityContext, input: IntegerOpInput): Promise<{ out: IntegerOpOutput; ms: number }> {
  const started = Date.now();
  const out = (await runKernel(context, OP_KERNEL, input)) as IntegerOpOutput;
  return { out, ms: Date.now() - started };
}

// ---- p-adic valuation ----
export const ValuationInput = z
  .object({
    n: integerTextSchema({ maxDigits: ARITHMETIC_MAX_DIGITS }).refine((t) => t !== '0', { message: 'a non-zero integer: v_p(0) = ∞ (rule: integer-non-zero)' }).describe(`n ≠ 0, in decimal (at most ${ARITHMETIC_MAX_DIGITS} digits)`),
    p: positive('the prime p', 24),
  })
  .strict();
export const ValuationOutput = z.object({ n: z.string(), p: z.string(), valuation: z.number().int().describe('v_p(n): the largest e with p^e | n'), unit_part: z.string().describe('n / p^e, not divisible by p'), engine: EngineSchema }).strict();

export function valuationCompute(runtime: ProviderRuntime): CapabilityDefinition<z.infer<typeof ValuationInput>, z.infer<typeof ValuationOutput>> {
  const method = 'division by p^(2^i), largest first';
  return {
    ...base,
    id: 'integer.valuation.compute',
    version: VERSION,
    title: 'p-adic valuation v_p(n) of an integer',
    description: 'The p-adic valuation (p-adic order, multiplicity of the prime p in n) v_p(n) = max{e : p^e | n} of a non-zero integer n, and the part n / p^{v_p(n)} prime to p. p must be prime (decided exactly: p has at most 24 digits, below ψ13).',
    tags: ['number-theory', 'integer', 'valuation', 'exact', 'typescript'],
    keywords: ['p-adic valuation', 'p-adic order', 'multiplicity of a prime', 'v_p(n)', 'ord_p', 'largest power of p dividing n', 'valuation', 'IntegerExponent'],
    pool: 'light',
    input: ValuationInput,
    output: ValuationOutput,
    examples: [{ title: 'v_2(96) = 5 (96 = 2^5 · 3)', mode: 'EXPLORE', payload: { n: '96', p: '2' } }],
    scope_rule: 'Covers exactly the given n and prime p.',
    limits: { max_digits: ARITHMETIC_MAX_DIGITS, max_prime_digits: 24 },
    async run(input, context) {
      if (isPrimeProven(BigInt(input.p)) !== true) throw new JacobianError('INVALID_REQUEST', `p = ${input.p} is not prime (rule: p-prime)`, { path: ['payload', 'p'], data: { rule: 'p-prime' } });
      const { out, ms } = await integerOp(context, { op: 'valuation', n: input.n, p: input.p });
      return exactOutcome({ n: input.n, p: input.p, valuation: out['valuation'] as number, unit_part: out['unit_part'] as string, engine: OURS_ENGINE(runtime, method, ms) }, `v_${input.p}(n) for n = ${short(input.n)}`, `exact division (${method}); p is prime by deterministic Miller–Rabin`);
    },
  };
}

// ---- perfect powers ----
export const PerfectPowerInput = z.object({ n: integerTextSchema({ maxDigits: PERFECT_POWER_MAX_DIGITS }).describe(`an integer n, in decimal (at most ${PERFECT_POWER_MAX_DIGITS} digits)`) }).strict();
export const PerfectPowerOutput = z
  .object({
    n: z.string(),
    perfect_power: z.boolean().describe('true when n = b^k for integers b and k ≥ 2'),
    base: z.string().nullable().describe('b with n = b^k for the largest such k (|b| smallest)'),
    exponent: z.number().int().nullable().describe('the largest k ≥ 2; every exponent that works divides it'),
    engine: EngineSchema,
  })
  .strict();

export function perfectPowerDecide(runtime: ProviderRuntime): CapabilityDefinition<z.infer<typeof PerfectPowerInput>, z.infer<typeof PerfectPowerOutput>> {
  const method = 'integer k-th roots by Newton iteration for every prime k ≤ log2 |n|, repeated on the root while exact';
  return {
    ...base,
    id: 'integer.perfect_power.decide',
    version: VERSION,
    title: 'Is n a perfect power b^k (k ≥ 2)?',
    description: 'Decides whether an integer n is a perfect power n = b^k with k ≥ 2 (perfect square, perfect cube, …; negative n: odd k), and gives the largest exponent k with its base b. 0, 1 and −1 are reported as not perfect powers here (they are b^k for every k).',
    tags: ['number-theory', 'integer', 'perfect-power', 'exact', 'typescript'],
    keywords: ['perfect power', 'perfect square', 'perfect cube', 'is n a power', 'ispower', 'PerfectPowerQ', 'integer root', 'b^k'],
    pool: 'light',
    input: PerfectPowerInput,
    output: PerfectPowerOutput,
    examples: [{ title: 'Is 1073741824 a perfect power? (2^30)', mode: 'EXPLORE', payload: { n: '1073741824' } }],
    scope_rule: 'Covers exactly the one integer n.',
    limits: { max_digits: PERFECT_POWER_MAX_DIGITS },
    async run(input, context) {
      const { out, ms } = await integerOp(context, { op: 'perfect_power', n: input.n });
      const yes = out['base'] !== null;
      return exactOutcome(
        { n: input.n, perfect_power: yes, base: out['base'] as string | null, exponent: out['exponent'] as number | null, engine: OURS_ENGINE(runtime, method, ms) },
        `whether n = ${short(input.n)} is a perfect power`,
        yes ? `b^k = n exactly (${method})` : `no integer k-th root of |n| is exact for any prime k ≤ log2 |n| (${method})`,
      );
    },
  };
}

// ---- extended gcd ----
export const GcdInput = z.object({ values: z.array(integerTextSchema({ maxDigits: ARITHMETIC_MAX_DIGITS })).min(1).max(GCD_MAX_VALUES).describe(`the integers a_1, …, a_k (1 ≤ k ≤ ${GCD_MAX_VALUES}), in decimal`) }).strict();
export const GcdOutput = z.object({ values: z.array(z.string()), gcd: z.string().describe('g = gcd(a_1, …, a_k) ≥ 0'), coefficients: z.array(z.string()).describe('Bézout coefficients x_i with Σ a_i x_i = g'), engine: EngineSchema }).strict();

export function gcdExtended(runtime: ProviderRuntime): CapabilityDefinition<z.infer<typeof GcdInput>, z.infer<typeof GcdOutput>> {
  const method = 'extended Euclidean algorithm, folded over the list; Σ a_i x_i = g checked';
  return {
    ...base,
    id: 'integer.gcd.extended',
    version: VERSION,
    title: 'Greatest common divisor with Bézout coefficients (extended Euclid)',
    description: 'The greatest common divisor g = gcd(a_1, …, a_k) of integers and Bézout coefficients x_i with a_1 x_1 + … + a_k x_k = g (extended Euclidean algorithm); the identity is checked before it is returned. Also gives lcm-free coprimality tests: g = 1.',
    tags: ['number-theory', 'integer', 'gcd', 'exact', 'typescript'],
    keywords: ['greatest common divisor', 'gcd', 'extended Euclidean algorithm', 'Bézout coefficients', 'Bezout identity', 'xgcd', 'gcdext', 'ExtendedGCD', 'coprime'],
    pool: 'light',
    input: GcdInput,
    output: GcdOutput,
    examples: [{ title: 'gcd(240, 46) = 2 = 240·(−9) + 46·47', mode: 'EXPLORE', payload: { values: ['240', '46'] } }],
    scope_rule: 'Covers exactly the given integers.',
    limits: { max_digits: ARITHMETIC_MAX_DIGITS, max_values: GCD_MAX_VALUES },
    async run(input, context) {
      const { out, ms } = await integerOp(context, { op: 'gcd', values: input.values });
      const g = BigInt(out['gcd'] as string);
      const x = (out['coefficients'] as string[]).map((c) => BigInt(c));
      const sum = input.values.reduce((s, a, i) => s + BigInt(a) * (x[i] as bigint), 0n);
      if (sum !== g || input.values.some((a) => (g === 0n ? BigInt(a) !== 0n : BigInt(a) % g !== 0n))) throw new JacobianError('INTERNAL', 'the Bézout identity did not hold; nothing was returned');
      return exactOutcome({ values: input.values, gcd: g.toString(), coefficients: x.map(String), engine: OURS_ENGINE(runtime, method, ms) }, `gcd and Bézout coefficients of ${input.values.length} integer(s)`, `${method}: g divides every a_i and Σ a_i x_i = g`);
    },
  };
}

// ---- integer root ----
export const RootInput = z.object({ n: integerTextSchema({ maxDigits: ARITHMETIC_MAX_DIGITS }).describe(`n, in decimal (at most ${ARITHMETIC_MAX_DIGITS} digits; negative only for odd k)`), k: z.number().int().min(1).max(ROOT_MAX_K).describe('the root index k ≥ 1') }).strict();
export const RootOutput = z.object({ n: z.string(), k: z.number().int(), root: z.string().describe('r = ⌊n^(1/k)⌋, the floor of the real k-th root'), exact: z.boolean().describe('true when r^k = n'), remainder: z.string().describe('n − r^k ≥ 0'), engine: EngineSchema }).strict();

export function rootCompute(runtime: ProviderRuntime): CapabilityDefinition<z.infer<typeof RootInput>, z.infer<typeof RootOutput>> {
  const method = 'Newton iteration on big integers from above; r^k ≤ n < (r + 1)^k checked';
  return {
    ...base,
    id: 'integer.root.compute',
    version: VERSION,
    title: 'Integer k-th root ⌊n^(1/k)⌋ with an exactness flag',
    description: 'The integer k-th root r = ⌊n^(1/k)⌋ (integer square root isqrt for k = 2, cube root, …) exactly on big integers, with r^k ≤ n < (r + 1)^k, whether n is an exact k-th power, and the remainder n − r^k. Negative n for odd k (the floor of the real root).',
    tags: ['number-theory', 'integer', 'root', 'exact', 'typescript'],
    keywords: ['integer square root', 'isqrt', 'integer nth root', 'floor of the k-th root', 'cube root', 'sqrtint', 'sqrtnint', 'exact root', 'IntegerPart of Surd'],
    pool: 'light',
    input: RootInput,
    output: RootOutput,
    examples: [{ title: '⌊√(10^20 + 1)⌋ = 10^10 (not exact)', mode: 'EXPLORE', payload: { n: '100000000000000000001', k: 2 } }],
    scope_rule: 'Covers exactly the given n and k.',
    limits: { max_digits: ARITHMETIC_MAX_DIGITS, max_k: ROOT_MAX_K },
    async run(input, context) {
      if (input.n.startsWith('-') && input.k % 2 === 0) throw new JacobianError('INVALID_REQUEST', `an even root (k = ${input.k}) of a negative n is not real (rule: even-root-negative)`, { path: ['payload', 'n'], data: { rule: 'even-root-negative' } });
      const { out, ms } = await integerOp(context, { op: 'root', n: input.n, k: input.k });
      const r = BigInt(out['root'] as string);
      const n = BigInt(input.n);
      const K = BigInt(input.k);
      if (!(r ** K <= n && n < (r + 1n) ** K)) throw new JacobianError('INTERNAL', 'the root failed r^k ≤ n < (r + 1)^k; nothing was returned');
      return exactOutcome(
        { n: input.n, k: input.k, root: r.toString(), exact: out['exact'] as boolean, remainder: out['remainder'] as string, engine: OURS_ENGINE(runtime, method, ms) },
        `⌊n^(1/${input.k})⌋ for n = ${short(input.n)}`,
        `${method}`,
      );
    },
  };
}
