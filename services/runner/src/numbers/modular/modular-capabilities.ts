/**
 * The modular arithmetic capabilities (domain `modular`), on our own TypeScript over the shared
 * integer arithmetic: inverse, CRT, order, primitive root, discrete logarithm, square roots and
 * the Legendre/Jacobi/Kronecker symbols. Each validates its whole request, computes in the
 * isolated kernel (modular.kernel.ts, every answer rechecked exactly there), and stores its
 * answer as a claim for modular.claim.verify, which re-derives it with the checker's own code.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  integerTextSchema,
  isPrimeProven,
  JacobianError,
  MODULAR_CLAIM_SCHEMA_URI,
  MODULAR_CLAIM_SEMANTICS_URI,
  MODULAR_LIMITS,
  runKernel,
  type CapabilityDefinition,
  type Diagnostic,
  type ModularClaim,
  type Qualifier,
} from '@jacobian/shared';
import { storeClaim } from '../../matrix/capability-support.js';
import type { PariTools } from '../../providers/pari.js';
import { ModularKernelOutput, type ModularKernelInput, type ModularKernelRequest } from './modular.kernel.js';

const VERSION = '1.0.0';
const KERNEL = { module: fileURLToPath(new URL('./modular.kernel.ts', import.meta.url)), exportName: 'modularKernel' };
export const MODULAR_VERIFY_ID = 'modular.claim.verify';

const Int = integerTextSchema({ maxDigits: MODULAR_LIMITS.maxDigits });
const Pos = integerTextSchema({ maxDigits: MODULAR_LIMITS.maxDigits, sign: 'positive' });
const FactoredInt = integerTextSchema({ maxDigits: MODULAR_LIMITS.maxFactoredDigits });
const FactoredPos = integerTextSchema({ maxDigits: MODULAR_LIMITS.maxFactoredDigits, sign: 'positive' });

export const ModularOutput = z
  .object({
    outcome: z.string().describe('INVERTIBLE / SOLVED / FOUND / VALUE, or NONE / INCONSISTENT with the certificate in the claim'),
    answer: z.string().describe('the answer in words'),
    // Loose in the descriptor (the full union with primality certificates is too large for a catalog card); the kernel's claim is parsed whole before it is returned.
    claim: z
      .object({ kind: z.enum(['INVERSE', 'CRT', 'ORDER', 'PRIMITIVE_ROOT', 'DISCRETE_LOG', 'SQRT', 'SYMBOL']) })
      .passthrough()
      .describe('the answer with its certificate (factorizations, NONE certificates, primality certificates of primes above 3.3·10^24), as stored for modular.claim.verify'),
    unproven_primes: z.array(z.string()).describe('primes used that passed Baillie–PSW only (above 3.3·10^24); empty when every prime used is proven'),
    method: z.string(),
    result_uri: z.string().nullable().describe('the stored claim, to pass to modular.claim.verify; null when not retained'),
  })
  .strict();
export type ModularOutput = z.infer<typeof ModularOutput>;

interface Spec<I> {
  id: string;
  title: string;
  description: string;
  keywords: string[];
  tags: string[];
  input: z.ZodType<I>;
  examples: CapabilityDefinition<unknown, unknown>['examples'];
  scope: string;
  /** Rules the schema cannot state, checked before any computation. */
  validate?: (input: I) => void;
  kernelInput: (input: I) => ModularKernelInput;
  answer: (claim: ModularClaim) => string;
}

function outcomeOf(claim: ModularClaim): string {
  return 'outcome' in claim ? claim.outcome : 'VALUE';
}

/** PARI/GP as its probe found it (tools absent when gp is not installed or failed its probe): ECPP certificates for large primes. */
export interface ModularOptions {
  readonly pari?: { readonly tools: PariTools | undefined } | undefined;
}

function define<I>(spec: Spec<I>, options: ModularOptions = {}): CapabilityDefinition<I, ModularOutput> {
  return {
    id: spec.id,
    version: VERSION,
    title: spec.title,
    description: spec.description,
    tags: ['number-theory', 'modular-arithmetic', 'exact', ...spec.tags],
    keywords: spec.keywords,
    domain: 'modular',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [MODULAR_CLAIM_SCHEMA_URI],
    input: spec.input,
    output: ModularOutput,
    examples: spec.examples,
    relationships: [{ kind: 'VERIFIED_BY', capability_id: MODULAR_VERIFY_ID }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: spec.scope,
    limits: { max_digits: MODULAR_LIMITS.maxDigits, max_factored_digits: MODULAR_LIMITS.maxFactoredDigits, max_congruences: MODULAR_LIMITS.maxCongruences, max_roots: MODULAR_LIMITS.maxRoots },
    async run(input, context) {
      spec.validate?.(input);
      const request: ModularKernelRequest = { request: spec.kernelInput(input), pari: options.pari?.tools ?? null, memory_mb: context.budget.memory_mb };
      const { claim, unproven_primes, method } = ModularKernelOutput.parse(await runKernel(context, KERNEL, request));
      const diagnostics: Diagnostic[] = [];
      const resultUri = await storeClaim(
        { schema_uri: MODULAR_CLAIM_SCHEMA_URI, semantics_uri: MODULAR_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: { kind: claim.kind, outcome: outcomeOf(claim) } },
        context,
        diagnostics,
      );
      const answer = spec.answer(claim).slice(0, 2000);
      const proven = unproven_primes.length === 0;
      const qualifiers: Qualifier[] = proven ? ['EXACT', 'DETERMINISTIC'] : ['HEURISTIC', 'DETERMINISTIC'];
      const caveat = proven ? '' : `; the prime(s) ${unproven_primes.map((p) => p.slice(0, 60)).join(', ').slice(0, 400)} passed Baillie–PSW only (above the deterministic Miller–Rabin bound 3.3·10^24), not proven, and the parts of the answer that rest on their primality (minimality, counts, NONE certificates) are not proven`;
      return {
        status: 'COMPLETED',
        output: { outcome: outcomeOf(claim), answer, claim, unproven_primes, method, result_uri: resultUri },
        scope: { kind: 'EXACT_INPUT', statement: answer, input_uris: [] },
        completeness: { status: 'COMPLETE', basis: `the computation ran to its end: ${method}`.slice(0, 1000) },
        qualifiers,
        assurance: {
          level: 'COMPUTED',
          basis: `computed by our TypeScript (${method}) and rechecked exactly before it was returned; modular.claim.verify re-derives it with the checker's own code${caveat}`.slice(0, 1000),
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

function invalid(path: string[], rule: string, message: string, hint?: string): JacobianError {
  return new JacobianError('INVALID_REQUEST', `${path.join('.')}: ${message} (rule ${rule})`, { path: ['payload', ...path], data: { rule }, ...(hint === undefined ? {} : { hint }) });
}

const factorsText = (fs: readonly { prime: string; exponent: number }[]): string => (fs.length === 0 ? '1' : fs.map((f) => (f.exponent === 1 ? f.prime : `${f.prime}^${f.exponent}`)).join('·'));

// ---------------------------------------------------------------------------------------------

const InverseInput = z.object({ a: Int.describe('the integer to invert'), n: Pos.describe('the modulus n ≥ 1') }).strict();
const modularInverse = (options: ModularOptions) =>
  define<z.infer<typeof InverseInput>>(
  {
  id: 'modular.inverse.compute',
  title: 'Modular inverse a⁻¹ mod n',
  description:
    'The inverse of a modulo n: the b in [0, n) with a·b ≡ 1 (mod n), by the extended Euclidean algorithm (Bézout), rechecked. NONE when gcd(a, n) > 1, with that gcd as the certificate. Integers of up to 1000 digits.',
  keywords: ['modular inverse', 'multiplicative inverse modulo n', 'inverse mod', 'reciprocal modulo', 'a^-1 mod n', 'extended Euclidean algorithm', 'Bezout coefficients', 'unit modulo n', 'invertible residue'],
  tags: ['inverse'],
  input: InverseInput,
  examples: [
    { title: '3⁻¹ mod 7 = 5', mode: 'EXPLORE', payload: { a: '3', n: '7' } },
    { title: '6 has no inverse mod 9 (gcd 3)', mode: 'EXPLORE', payload: { a: '6', n: '9' } },
  ],
  scope: 'Covers exactly the given a and n.',
  kernelInput: (input) => ({ operation: 'inverse', a: input.a, n: input.n }),
  answer: (c) => (c.kind === 'INVERSE' && c.outcome === 'INVERTIBLE' ? `${c.a}⁻¹ ≡ ${c.inverse} (mod ${c.n})` : c.kind === 'INVERSE' && c.outcome === 'NONE' ? `${c.a} has no inverse modulo ${c.n}: gcd = ${c.gcd}` : ''),
  },
  options,
);

const CrtInput = z
  .object({
    congruences: z
      .array(z.object({ residue: Int.describe('r_i'), modulus: Pos.describe('m_i ≥ 1') }).strict())
      .min(1)
      .max(MODULAR_LIMITS.maxCongruences)
      .describe('the system x ≡ r_i (mod m_i); the moduli need not be pairwise coprime'),
  })
  .strict();
const modularCrt = (options: ModularOptions) =>
  define<z.infer<typeof CrtInput>>(
  {
  id: 'modular.crt.solve',
  title: 'Chinese remainder theorem: solve x ≡ r_i (mod m_i)',
  description:
    'Solves a system of simultaneous congruences x ≡ r_i (mod m_i) by the Chinese remainder theorem generalized to moduli that are not pairwise coprime: SOLVED with the unique residue x in [0, L) modulo L = lcm(m_i), or INCONSISTENT with a pair of congruences i, j and g = gcd(m_i, m_j) with r_i ≢ r_j (mod g), which refutes the system. Up to 64 congruences of 1000 digits.',
  keywords: ['Chinese remainder theorem', 'CRT', 'simultaneous congruences', 'system of congruences', 'combine congruences', 'moduli not coprime', 'lcm of the moduli', 'chinese remaindering'],
  tags: ['crt'],
  input: CrtInput,
  examples: [
    { title: 'x ≡ 2 (mod 3), x ≡ 3 (mod 5), x ≡ 2 (mod 7): x ≡ 23 (mod 105)', mode: 'EXPLORE', payload: { congruences: [{ residue: '2', modulus: '3' }, { residue: '3', modulus: '5' }, { residue: '2', modulus: '7' }] } },
    { title: 'x ≡ 1 (mod 4), x ≡ 2 (mod 6): inconsistent (gcd 2)', mode: 'EXPLORE', payload: { congruences: [{ residue: '1', modulus: '4' }, { residue: '2', modulus: '6' }] } },
  ],
  scope: 'Covers exactly the given system of congruences.',
  kernelInput: (input) => ({ operation: 'crt', congruences: input.congruences }),
  answer: (c) =>
    c.kind !== 'CRT'
      ? ''
      : c.outcome === 'SOLVED'
        ? `x ≡ ${c.residue} (mod ${c.modulus}) is the whole solution set of the ${c.congruences.length} congruence(s)`
        : `no solution: congruences ${c.first} and ${c.second} disagree modulo gcd = ${c.gcd}`,
  },
  options,
);

const OrderInput = z.object({ a: FactoredInt.describe('the residue a'), n: FactoredPos.describe('the modulus n ≥ 1 (it is factored)') }).strict();
const modularOrder = (options: ModularOptions) =>
  define<z.infer<typeof OrderInput>>(
  {
  id: 'modular.order.compute',
  title: 'Multiplicative order of a modulo n',
  description:
    'The multiplicative order ord_n(a): the least m ≥ 1 with a^m ≡ 1 (mod n), from the Carmichael function λ(n) (n and each p − 1 factored) divided by each prime while the power stays 1; returned with its factorization (a^m ≡ 1 and a^(m/q) ≢ 1 for every prime q | m, the certificate of minimality). NONE when gcd(a, n) > 1. A prime above 3.3·10^24 is a Baillie–PSW probable prime, named in unproven_primes.',
  keywords: ['multiplicative order', 'order of an element modulo n', 'ord_n(a)', 'order of a unit', 'period of powers', 'Carmichael function', 'lambda(n)', 'exponent of the unit group'],
  tags: ['order'],
  input: OrderInput,
  examples: [
    { title: 'ord_7(2) = 3', mode: 'EXPLORE', payload: { a: '2', n: '7' } },
    { title: 'ord_(10^9+7)(5)', mode: 'EXPLORE', payload: { a: '5', n: '1000000007' } },
  ],
  scope: 'Covers exactly the given a and n.',
  kernelInput: (input) => ({ operation: 'order', a: input.a, n: input.n }),
  answer: (c) =>
    c.kind !== 'ORDER' ? '' : c.outcome === 'FOUND' ? `ord_${c.n}(${c.a}) = ${c.order} = ${factorsText(c.order_factors)}` : `${c.a} is not a unit modulo ${c.n} (gcd ${c.gcd}): it has no multiplicative order`,
  },
  options,
);

const PrimitiveRootInput = z.object({ n: FactoredPos.describe('the modulus n ≥ 1 (it is factored)') }).strict();
const modularPrimitiveRoot = (options: ModularOptions) =>
  define<z.infer<typeof PrimitiveRootInput>>(
  {
  id: 'modular.primitive_root.compute',
  title: 'Least primitive root modulo n',
  description:
    'The least primitive root modulo n (a generator of the cyclic group (Z/nZ)*, an element of order φ(n)), or NONE with the reason: a primitive root exists exactly for n = 1, 2, 4, p^k and 2p^k (p an odd prime, Gauss). Candidates g = 2, 3, … are tested by g^(φ/q) ≢ 1 for every prime q | φ(n); φ(n) is returned factored. A prime above 3.3·10^24 is a Baillie–PSW probable prime, named in unproven_primes.',
  keywords: ['primitive root', 'generator of the multiplicative group', 'generator modulo n', 'cyclic group (Z/nZ)*', 'primitive element', 'least primitive root', 'Euler phi', 'totient'],
  tags: ['primitive-root', 'generator'],
  input: PrimitiveRootInput,
  examples: [
    { title: 'The least primitive root mod 23 is 5', mode: 'EXPLORE', payload: { n: '23' } },
    { title: 'No primitive root mod 15 (two odd primes)', mode: 'EXPLORE', payload: { n: '15' } },
  ],
  scope: 'Covers exactly the given n.',
  kernelInput: (input) => ({ operation: 'primitive_root', n: input.n }),
  answer: (c) =>
    c.kind !== 'PRIMITIVE_ROOT'
      ? ''
      : c.outcome === 'FOUND'
        ? `the least primitive root modulo ${c.n} is ${c.root}; φ(${c.n}) = ${factorsText(c.phi_factors)}`
        : `there is no primitive root modulo ${c.n} = ${factorsText(c.modulus_factors)}: n is not 1, 2, 4, p^k or 2p^k`,
  },
  options,
);

const DiscreteLogInput = z
  .object({
    base: FactoredInt.describe('the base g, a unit modulo n'),
    target: FactoredInt.describe('the target h'),
    n: FactoredPos.describe('the modulus n ≥ 1 (it is factored)'),
  })
  .strict();
const modularDiscreteLog = (options: ModularOptions) =>
  define<z.infer<typeof DiscreteLogInput>>(
  {
  id: 'modular.discrete_log.solve',
  title: 'Discrete logarithm: the least x with g^x ≡ h (mod n)',
  description:
    'The discrete logarithm (index) of h to the base g modulo n: the least x ≥ 0 with g^x ≡ h (mod n); every solution is x + t·ord_n(g), and ord_n(g) is returned factored. Pohlig–Hellman modulo each prime power of n, baby-step giant-step (Shanks) per prime of the order, Pollard rho for logarithms above 2^40; rechecked by exponentiation. NONE with the reason: h is not a unit (gcd); h is not in ⟨g⟩ modulo a prime power p^k (h^ord ≢ 1 there); or two local logarithms x_i mod ord_i disagree modulo gcd(ord_i, ord_j). The base must be a unit. The cost grows with the square root of the largest prime of the order.',
  keywords: ['discrete logarithm', 'discrete log', 'index of h to base g', 'ind_g(h)', 'solve g^x = h mod n', 'Pohlig-Hellman', 'baby-step giant-step', 'Pollard rho for logarithms', 'exponent x with a power congruent'],
  tags: ['discrete-log'],
  input: DiscreteLogInput,
  examples: [
    { title: '3^x ≡ 13 (mod 17): x = 4', mode: 'EXPLORE', payload: { base: '3', target: '13', n: '17' } },
    { title: '2^x ≡ 3 (mod 7) has no solution (ord 2 = 3)', mode: 'EXPLORE', payload: { base: '2', target: '3', n: '7' } },
  ],
  scope: 'Covers exactly the given g, h and n; x is the least non-negative solution.',
  validate: (input) => {
    const n = BigInt(input.n);
    let a = ((BigInt(input.base) % n) + n) % n;
    let b = n;
    while (b !== 0n) [a, b] = [b, a % b];
    if (a !== 1n) throw invalid(['base'], 'base-unit', `the base must be a unit modulo n (gcd(g, n) = ${a})`, 'the powers of a non-unit are not a group; factor the common part out of n first');
  },
  kernelInput: (input) => ({ operation: 'discrete_log', base: input.base, target: input.target, n: input.n }),
  answer: (c) => {
    if (c.kind !== 'DISCRETE_LOG') return '';
    if (c.outcome === 'SOLVED') return `${c.base}^x ≡ ${c.target} (mod ${c.n}) exactly for x ≡ ${c.log} (mod ${c.order}); the least is x = ${c.log}`;
    if (c.reason === 'TARGET_NOT_UNIT') return `no solution: ${c.target} is not a unit modulo ${c.n} (gcd ${c.gcd}), every power of ${c.base} is`;
    if (c.reason === 'NOT_IN_SUBGROUP_LOCALLY') return `no solution: modulo ${c.local.prime}^${c.local.exponent} the target is not a power of the base (of order ${c.local.order} there)`;
    return `no solution: modulo ${c.first.prime}^${c.first.exponent} x ≡ ${c.first.log} (mod ${c.first.order}) and modulo ${c.second.prime}^${c.second.exponent} x ≡ ${c.second.log} (mod ${c.second.order}), which disagree`;
  },
  },
  options,
);

const SqrtInput = z
  .object({
    a: FactoredInt.describe('the residue a'),
    n: FactoredPos.describe('the modulus n ≥ 1 (it is factored)'),
    max_roots: z.number().int().min(1).max(MODULAR_LIMITS.maxRoots).optional().describe('list at most this many roots (default 100); the count is always exact'),
  })
  .strict();
const modularSqrt = (options: ModularOptions) =>
  define<z.infer<typeof SqrtInput>>(
  {
  id: 'modular.sqrt.solve',
  title: 'Square roots modulo n: x² ≡ a (mod n)',
  description:
    'All square roots of a modulo n: every x in [0, n) with x² ≡ a (mod n), in increasing order, with their exact count (a list of at most max_roots, complete = false when there are more). Modulo p: Tonelli–Shanks, or Cipolla when a high power of 2 divides p − 1; Hensel lifting to p^k, 2^k by the residue of a mod 8, non-units by the valuation of a; CRT across the prime powers; every root rechecked. NONE when a is a quadratic non-residue, naming the prime power where it fails: Legendre symbol (u/p) = −1, an odd valuation of a, or a unit ≢ 1 mod 4 or mod 8 at 2.',
  keywords: ['modular square root', 'square root mod p', 'sqrt mod n', 'quadratic residue', 'quadratic congruence x^2 = a mod n', 'Tonelli-Shanks', 'Cipolla', 'Hensel lifting', 'quadratic non-residue'],
  tags: ['square-root', 'quadratic-residue'],
  input: SqrtInput,
  examples: [
    { title: 'x² ≡ 10 (mod 13): x = 6, 7', mode: 'EXPLORE', payload: { a: '10', n: '13' } },
    { title: 'x² ≡ 1 (mod 24): eight roots', mode: 'EXPLORE', payload: { a: '1', n: '24' } },
    { title: 'x² ≡ 5 (mod 7): none, (5/7) = −1', mode: 'EXPLORE', payload: { a: '5', n: '7' } },
  ],
  scope: 'Covers exactly the given a and n.',
  kernelInput: (input) => ({ operation: 'sqrt', a: input.a, n: input.n, max_roots: input.max_roots ?? 100 }),
  answer: (c) => {
    if (c.kind !== 'SQRT') return '';
    if (c.outcome === 'SOLVED') return `x² ≡ ${c.a} (mod ${c.n}) has ${c.count} root(s)${c.complete ? `: ${c.roots.join(', ')}` : `; ${c.roots.length} listed`}`;
    const f = c.failure;
    const why = f.rule === 'NON_RESIDUE' ? 'its unit part is a quadratic non-residue (Legendre symbol −1)' : f.rule === 'ODD_VALUATION' ? `a has odd valuation ${f.valuation}` : `its unit part is not ${f.rule === 'NOT_1_MOD_4' ? '1 mod 4' : '1 mod 8'}`;
    return `x² ≡ ${c.a} (mod ${c.n}) has no solution: modulo ${f.prime}^${f.exponent} ${why}`;
  },
  },
  options,
);

const SymbolInput = z
  .object({
    symbol: z.enum(['legendre', 'jacobi', 'kronecker']).describe('legendre: n an odd prime; jacobi: n odd and positive; kronecker: any integer n'),
    a: Int.describe('the top entry a'),
    n: Int.describe('the bottom entry n'),
  })
  .strict();
const modularSymbol = (options: ModularOptions) =>
  define<z.infer<typeof SymbolInput>>(
  {
  id: 'modular.symbol.compute',
  title: 'Legendre, Jacobi and Kronecker symbols (a/n)',
  description:
    'The Legendre symbol (a/p) (p an odd prime: 1 for a quadratic residue, −1 for a non-residue, 0 when p | a), the Jacobi symbol (a/n) (n odd positive) and the Kronecker symbol (a/n) for every integer n, including even, negative and 0 ((a/2) by a mod 8, (a/−1) by the sign of a, (a/0) = 1 iff a = ±1). Binary quadratic reciprocity; rechecked by Euler\'s criterion (Legendre) or a second implementation. Integers of up to 1000 digits (Legendre: p of up to 300 digits, tested for primality).',
  keywords: ['Legendre symbol', 'Jacobi symbol', 'Kronecker symbol', '(a/p)', 'quadratic residue symbol', 'quadratic reciprocity', 'Euler criterion', 'is a a quadratic residue mod p'],
  tags: ['symbol', 'quadratic-residue'],
  input: SymbolInput,
  examples: [
    { title: 'Legendre (2/7) = 1', mode: 'EXPLORE', payload: { symbol: 'legendre', a: '2', n: '7' } },
    { title: 'Kronecker (5/−12) = −1', mode: 'EXPLORE', payload: { symbol: 'kronecker', a: '5', n: '-12' } },
  ],
  scope: 'Covers exactly the given symbol, a and n.',
  validate: (input) => {
    const n = BigInt(input.n);
    if (input.symbol === 'jacobi' && (n <= 0n || n % 2n === 0n)) throw invalid(['n'], 'odd-positive', 'the Jacobi symbol needs an odd positive n', 'the Kronecker symbol is defined for every n');
    if (input.symbol === 'legendre') {
      if (input.n.length > MODULAR_LIMITS.maxFactoredDigits) throw invalid(['n'], 'integer-digits', `the Legendre symbol's p is tested for primality: at most ${MODULAR_LIMITS.maxFactoredDigits} digits`);
      if (n <= 2n || n % 2n === 0n || isPrimeProven(n) === false) throw invalid(['n'], 'odd-prime', 'the Legendre symbol needs an odd prime p', 'the Jacobi symbol takes any odd positive n');
      if (isPrimeProven(n) === null) throw invalid(['n'], 'odd-prime', 'p is a Baillie–PSW probable prime above 3.3·10^24, not proven prime', 'the Jacobi symbol (the same value when p is prime) takes any odd positive n');
    }
  },
  kernelInput: (input) => ({ operation: 'symbol', symbol: input.symbol, a: input.a, n: input.n }),
  answer: (c) => (c.kind === 'SYMBOL' ? `the ${c.symbol[0]?.toUpperCase()}${c.symbol.slice(1)} symbol (${c.a}/${c.n}) = ${c.value}` : ''),
  },
  options,
);

/** Every modular producer, in catalog order; `pari` (its probe) lends ECPP to the certification of large primes. */
export function modularCapabilities(options: ModularOptions = {}): CapabilityDefinition<never, ModularOutput>[] {
  return [modularInverse, modularCrt, modularOrder, modularPrimitiveRoot, modularDiscreteLog, modularSqrt, modularSymbol].map((make) => make(options) as CapabilityDefinition<never, ModularOutput>);
}

/** The files of our modular code, for the provider's SOURCE_TREE digest (with MODULAR_SOURCES). */
export const MODULAR_TS_FILES = ['./numbers/modular/modular-capabilities.ts', './numbers/modular/modular.kernel.ts', './numbers/modular/modular-arith.ts', './matrix/capability-support.ts', './numbers/primality/certify.ts', './numbers/primality/replay.ts', './numbers/primality/pari-ecpp.ts'];
