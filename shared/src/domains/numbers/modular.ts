/**
 * The modular arithmetic pack's contract: the limits of its requests and the claims its producers
 * store (`result_uri`) and `modular.claim.verify` re-derives. Integers are decimal text
 * (integerTextSchema); factorizations list primes with exponents, and the checker decides their
 * primality itself.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { integerTextSchema } from './arith.js';
import { PrimalityCertificateSchema } from './primality.js';

export const MODULAR_LIMITS = {
  /** Digits of a, n and residues where no factoring is needed (inverse, CRT, Jacobi and Kronecker symbols). */
  maxDigits: 1000,
  /** Digits of a modulus that must be factored (orders, primitive roots, logarithms, square roots, Legendre). */
  maxFactoredDigits: 300,
  maxCongruences: 64,
  maxRoots: 10_000,
  /** Listed factors of one number in a claim. */
  maxFactors: 1000,
} as const;

export const MODULAR_CLAIM_SCHEMA_URI = 'jacobian:schema/modular.claim/v1';
export const MODULAR_CLAIM_SEMANTICS_URI = 'jacobian:semantics/modular.claim.residue_arithmetic/v1';

const Int = integerTextSchema({ maxDigits: MODULAR_LIMITS.maxDigits });
const Pos = integerTextSchema({ maxDigits: MODULAR_LIMITS.maxDigits, sign: 'positive' });
const NonNeg = integerTextSchema({ maxDigits: MODULAR_LIMITS.maxDigits, sign: 'non-negative' });

/** One prime power p^e of a factorization in a claim. */
export const ModularFactorSchema = z.object({ prime: Pos, exponent: z.number().int().min(1).max(4000) }).strict();
export type ModularFactor = z.infer<typeof ModularFactorSchema>;
const Factors = z.array(ModularFactorSchema).max(MODULAR_LIMITS.maxFactors);

/**
 * Primality certificates (small, Pratt or ECPP, see primality.ts) of the primes above the
 * deterministic Miller–Rabin bound that the claim rests on; the checker replays them.
 */
const Certificates = {
  prime_certificates: z
    .array(z.object({ prime: Pos, certificate: PrimalityCertificateSchema }).strict())
    .max(64)
    .optional()
    .describe('certificates of the primes above 3.3·10^24 used (replayed by the checker); a prime there without one is not proven'),
};

/** The order of g modulo p^k of n, factored: what a local logarithm is taken modulo. */
const LocalOrder = z.object({ prime: Pos, exponent: z.number().int().min(1), order: Pos, order_factors: Factors }).strict();

const InverseClaim = z.discriminatedUnion('outcome', [
  z.object({ kind: z.literal('INVERSE'), a: Int, n: Pos, outcome: z.literal('INVERTIBLE'), inverse: NonNeg }).strict(),
  z.object({ kind: z.literal('INVERSE'), a: Int, n: Pos, outcome: z.literal('NONE'), gcd: Pos }).strict(),
]);
const Congruence = z.object({ residue: Int, modulus: Pos }).strict();
const CrtClaim = z.discriminatedUnion('outcome', [
  z.object({ kind: z.literal('CRT'), congruences: z.array(Congruence).min(1).max(MODULAR_LIMITS.maxCongruences), outcome: z.literal('SOLVED'), residue: NonNeg, modulus: Pos }).strict(),
  z
    .object({ kind: z.literal('CRT'), congruences: z.array(Congruence).min(1).max(MODULAR_LIMITS.maxCongruences), outcome: z.literal('INCONSISTENT'), first: z.number().int().min(0), second: z.number().int().min(0), gcd: Pos })
    .strict(),
]);
const OrderClaim = z.discriminatedUnion('outcome', [
  z.object({ kind: z.literal('ORDER'), a: Int, n: Pos, outcome: z.literal('FOUND'), order: Pos, order_factors: Factors, ...Certificates }).strict(),
  z.object({ kind: z.literal('ORDER'), a: Int, n: Pos, outcome: z.literal('NONE'), gcd: Pos }).strict(),
]);
const PrimitiveRootClaim = z.discriminatedUnion('outcome', [
  z
    .object({ kind: z.literal('PRIMITIVE_ROOT'), n: Pos, outcome: z.literal('FOUND'), root: NonNeg, least: z.boolean(), modulus_factors: Factors, phi_factors: Factors, ...Certificates })
    .strict(),
  z.object({ kind: z.literal('PRIMITIVE_ROOT'), n: Pos, outcome: z.literal('NONE'), modulus_factors: Factors, ...Certificates }).strict(),
]);
const DiscreteLogBase = { kind: z.literal('DISCRETE_LOG'), base: Int, target: Int, n: Pos };
const DiscreteLogClaim = z.union([
  z.object({ ...DiscreteLogBase, outcome: z.literal('SOLVED'), log: NonNeg, order: Pos, order_factors: Factors, ...Certificates }).strict(),
  z.object({ ...DiscreteLogBase, outcome: z.literal('NONE'), reason: z.literal('TARGET_NOT_UNIT'), gcd: Pos }).strict(),
  z.object({ ...DiscreteLogBase, outcome: z.literal('NONE'), reason: z.literal('NOT_IN_SUBGROUP_LOCALLY'), local: LocalOrder, ...Certificates }).strict(),
  z
    .object({ ...DiscreteLogBase, outcome: z.literal('NONE'), reason: z.literal('INCOMPATIBLE_LOCAL_LOGS'), first: LocalOrder.extend({ log: NonNeg }), second: LocalOrder.extend({ log: NonNeg }), ...Certificates })
    .strict(),
]);
const SqrtFailureSchema = z
  .object({
    rule: z.enum(['ODD_VALUATION', 'NON_RESIDUE', 'NOT_1_MOD_4', 'NOT_1_MOD_8']),
    prime: Pos,
    exponent: z.number().int().min(1),
    valuation: z.number().int().min(0).describe('v with a ≡ p^v·u (mod p^k), p ∤ u'),
  })
  .strict();
const SqrtClaim = z.discriminatedUnion('outcome', [
  z
    .object({
      kind: z.literal('SQRT'),
      a: Int,
      n: Pos,
      outcome: z.literal('SOLVED'),
      count: Pos,
      roots: z.array(NonNeg).min(1).max(MODULAR_LIMITS.maxRoots),
      complete: z.boolean(),
      modulus_factors: Factors,
      ...Certificates,
    })
    .strict(),
  z.object({ kind: z.literal('SQRT'), a: Int, n: Pos, outcome: z.literal('NONE'), failure: SqrtFailureSchema, ...Certificates }).strict(),
]);
const SymbolClaim = z
  .object({ kind: z.literal('SYMBOL'), symbol: z.enum(['legendre', 'jacobi', 'kronecker']), a: Int, n: Int, value: z.union([z.literal(-1), z.literal(0), z.literal(1)]) })
  .strict();

/** Every claim of the modular pack, by kind and outcome. */
export const ModularClaimSchema = z.union([InverseClaim, CrtClaim, OrderClaim, PrimitiveRootClaim, DiscreteLogClaim, SqrtClaim, SymbolClaim]);
export type ModularClaim = z.infer<typeof ModularClaimSchema>;
export type ModularClaimKind = ModularClaim['kind'];

/** The files of this contract, for the SOURCE_TREE digest of a provider or checker built on it. */
export const MODULAR_SOURCES: readonly string[] = ['./modular.ts', './arith.ts', './primality.ts'].map((file) => fileURLToPath(new URL(file, import.meta.url)));
