/**
 * Certificates of primality and compositeness, as integer.primality.decide stores them and
 * integer.primality.verify / integer.factorization.verify replay them. All integers are decimal
 * text (see integerTextSchema). A certificate of n is one of:
 *
 * - **small**: n < {@link DETERMINISTIC_MR_BOUND} (ψ13). n is prime iff it is 2, 3, …, 41 or a
 *   strong probable prime to each of the first 13 primes as bases (Sorenson–Webster): anyone can
 *   replay it, nothing else is carried.
 * - **pratt** (Lucas–Lehmer–Pratt): a witness a and the complete factorization of n − 1 into prime
 *   powers p^e, each prime with its own certificate nested. n is prime iff a^(n−1) ≡ 1 (mod n) and
 *   a^((n−1)/p) ≢ 1 (mod n) for every prime p | n − 1 (then a has order n − 1 in (Z/n)^×).
 * - **ecpp** (Atkin–Morain, the steps as PARI/GP's `primecert` returns them): steps
 *   [N, t, s, a, [x, y]] with N₁ = n. For each step, with b = y² − x³ − a·x mod N, the curve
 *   E: y² = x³ + a·x + b over Z/N, m = N + 1 − t and q = m / s: s divides m exactly; gcd(N, 6) = 1;
 *   gcd(4a³ + 27b², N) = 1; [s]P ≠ O and [q]([s]P) = O, computed modulo N with every division
 *   (or projective Z) checked coprime to N; and q > (N^(1/4) + 1)² (checked exactly as
 *   q − r − 1 > 2√r with r = ⌊√N⌋, which every prime factor of a composite N is at most). Then N is
 *   prime if q is (Goldwasser–Kilian, Atkin–Morain). The next step's N is q; the last q must be
 *   below {@link DETERMINISTIC_MR_BOUND}, where it is decided as a `small` certificate is.
 *
 * A compositeness witness of n is a non-trivial factor d (1 < d < n, d | n), or a base a
 * (2 ≤ a ≤ n − 2) to which odd n is not a strong probable prime (Miller–Rabin).
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DETERMINISTIC_MR_BOUND, integerTextSchema } from './arith.js';

/** The files whose bytes define these contracts and the arithmetic under them (for provider and checker identities). */
export const PRIMALITY_SOURCES: readonly string[] = ['./arith.ts', './primality.ts', './factorization.ts', '../polynomial/field.ts'].map((file) => fileURLToPath(new URL(file, import.meta.url)));

export const PRIMALITY_CLAIM_SCHEMA_URI = 'jacobian:schema/integer.primality.claim/v1';
export const PRIMALITY_CLAIM_SEMANTICS_URI = 'jacobian:semantics/integer.primality.small_pratt_ecpp/v1';

/** Sizes a certificate may have; a request or stored claim beyond them is refused before any work. */
export const PRIMALITY_LIMITS = {
  /** Digits of n and of every integer in a certificate. */
  maxDigits: 2000,
  /** Steps of one ECPP chain. */
  maxEcppSteps: 2000,
  /** Nesting of certificates (a Pratt certificate's primes' certificates, …). */
  maxDepth: 64,
  /** Certificates in one tree, counting nested ones. */
  maxNodes: 20_000,
  /** Prime powers of n − 1 in one Pratt certificate. */
  maxFactors: 7000,
} as const;

/** The certificate kinds (see the module comment). */
export const PrimalityCertificateKind = { SMALL: 'small', PRATT: 'pratt', ECPP: 'ecpp' } as const;
export type PrimalityCertificateKind = (typeof PrimalityCertificateKind)[keyof typeof PrimalityCertificateKind];

const Positive = integerTextSchema({ maxDigits: PRIMALITY_LIMITS.maxDigits, sign: 'positive' });
const NonNegative = integerTextSchema({ maxDigits: PRIMALITY_LIMITS.maxDigits, sign: 'non-negative' });
const AnyInteger = integerTextSchema({ maxDigits: PRIMALITY_LIMITS.maxDigits });

/** One Atkin–Morain step as PARI prints it: [N, t, s, a, [x, y]]. */
export const EcppStepSchema = z
  .tuple([Positive, AnyInteger, Positive, NonNegative, z.tuple([NonNegative, NonNegative])])
  .describe('[N, t, s, a, [x, y]]: the curve y² = x³ + a·x + b mod N through P = (x, y), of order m = N + 1 − t = s·q');
export type EcppStep = z.infer<typeof EcppStepSchema>;

// Type aliases, not interfaces: certificates are JSON values (artifact payloads), and only
// aliases are assignable to an index signature.
export type SmallCertificate = {
  kind: 'small';
  n: string;
};
export type PrattFactor = {
  prime: string;
  exponent: number;
  certificate: PrimalityCertificate;
};
export type PrattCertificate = {
  kind: 'pratt';
  n: string;
  witness: string;
  factors: PrattFactor[];
};
export type EcppCertificate = {
  kind: 'ecpp';
  n: string;
  steps: EcppStep[];
};
/** A primality certificate of `n` (see the module comment for what each kind proves). */
export type PrimalityCertificate = SmallCertificate | PrattCertificate | EcppCertificate;

const SmallCertificateSchema = z.object({ kind: z.literal('small'), n: Positive }).strict();
const EcppCertificateSchema = z.object({ kind: z.literal('ecpp'), n: Positive, steps: z.array(EcppStepSchema).min(1).max(PRIMALITY_LIMITS.maxEcppSteps) }).strict();

/** One prime power of a factorization, with the prime's certificate. */
export const CertifiedPrimePowerSchema: z.ZodType<PrattFactor> = z.lazy(() =>
  z
    .object({
      prime: Positive,
      exponent: z.number().int().min(1).max(10_000),
      certificate: PrimalityCertificateShapeSchema,
    })
    .strict(),
);

const PrattCertificateSchema: z.ZodType<PrattCertificate> = z.lazy(() =>
  z
    .object({
      kind: z.literal('pratt'),
      n: Positive,
      witness: Positive.describe('a of order n − 1 modulo n'),
      factors: z.array(CertifiedPrimePowerSchema).min(1).max(PRIMALITY_LIMITS.maxFactors).describe('n − 1 = ∏ prime^exponent, primes increasing'),
    })
    .strict(),
);

/** The shape of a certificate alone (no limits on the whole tree: see {@link PrimalityCertificateSchema}). */
const PrimalityCertificateShapeSchema: z.ZodType<PrimalityCertificate> = z.lazy(() => z.union([SmallCertificateSchema, PrattCertificateSchema, EcppCertificateSchema]));

/** The whole tree's structural rules: nesting depth, node count, and each nested prime equal to its certificate's n. */
function refineTree(certificate: PrimalityCertificate, ctx: z.RefinementCtx, basePath: (string | number)[] = []): void {
  let nodes = 0;
  const walk = (c: PrimalityCertificate, depth: number, path: (string | number)[]): boolean => {
    nodes++;
    if (nodes > PRIMALITY_LIMITS.maxNodes) {
      ctx.addIssue({ code: 'custom', path, message: `more than ${PRIMALITY_LIMITS.maxNodes} certificates in one tree (rule: certificate-size)` });
      return false;
    }
    if (depth > PRIMALITY_LIMITS.maxDepth) {
      ctx.addIssue({ code: 'custom', path, message: `certificates nested deeper than ${PRIMALITY_LIMITS.maxDepth} (rule: certificate-depth)` });
      return false;
    }
    if (c.kind === 'small' && BigInt(c.n) >= DETERMINISTIC_MR_BOUND) ctx.addIssue({ code: 'custom', path: [...path, 'n'], message: `a small certificate needs n < ${DETERMINISTIC_MR_BOUND} (rule: small-bound)` });
    if (c.kind === 'ecpp' && c.steps[0]?.[0] !== c.n) ctx.addIssue({ code: 'custom', path: [...path, 'steps', 0, 0], message: 'the first step must be about n (rule: ecpp-chain)' });
    if (c.kind !== 'pratt') return true;
    let previous = 0n;
    for (const [i, f] of c.factors.entries()) {
      const p = BigInt(f.prime);
      if (p <= previous) ctx.addIssue({ code: 'custom', path: [...path, 'factors', i, 'prime'], message: 'primes must be strictly increasing (rule: canonical-order)' });
      previous = p;
      if (f.certificate.n !== f.prime) ctx.addIssue({ code: 'custom', path: [...path, 'factors', i, 'certificate', 'n'], message: `must be the prime ${f.prime.slice(0, 40)} it certifies (rule: certificate-subject)` });
      if (!walk(f.certificate, depth + 1, [...path, 'factors', i, 'certificate'])) return false;
    }
    return true;
  };
  walk(certificate, 0, basePath);
}

/** A primality certificate, with the tree's limits and structural rules checked. */
export const PrimalityCertificateSchema: z.ZodType<PrimalityCertificate> = PrimalityCertificateShapeSchema.superRefine((c, ctx) => refineTree(c, ctx));

/** The witness of compositeness: a non-trivial factor, or a Miller–Rabin base n fails. */
export const CompositenessWitnessSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('factor'), factor: Positive.describe('d with 1 < d < n and d | n') }).strict(),
  z.object({ kind: z.literal('base'), base: Positive.describe('a with 2 ≤ a ≤ n − 2 to which n is not a strong probable prime') }).strict(),
]);
export type CompositenessWitness = z.infer<typeof CompositenessWitnessSchema>;

/** "n is prime, by this certificate". */
export const PrimeClaimSchema = z
  .object({ n: Positive, verdict: z.literal('PRIME'), certificate: PrimalityCertificateShapeSchema })
  .strict()
  .superRefine((claim, ctx) => {
    if (claim.certificate.n !== claim.n) ctx.addIssue({ code: 'custom', path: ['certificate', 'n'], message: 'must be the n of the claim (rule: certificate-subject)' });
    refineTree(claim.certificate, ctx, ['certificate']);
  });
export type PrimeClaim = z.infer<typeof PrimeClaimSchema>;

/** "n is composite, by this witness". */
export const CompositeClaimSchema = z.object({ n: Positive, verdict: z.literal('COMPOSITE'), witness: CompositenessWitnessSchema }).strict();
export type CompositeClaim = z.infer<typeof CompositeClaimSchema>;

/** The canonical claim integer.primality.decide stores and integer.primality.verify checks. */
export const PrimalityClaimSchema = z.union([PrimeClaimSchema, CompositeClaimSchema]);
export type PrimalityClaim = PrimeClaim | CompositeClaim;

/** Count of certificates in a tree and its deepest nesting (for summaries and budgets). */
export function primalityCertificateSize(certificate: PrimalityCertificate): { nodes: number; depth: number; ecppSteps: number } {
  let nodes = 0;
  let depth = 0;
  let ecppSteps = 0;
  const walk = (c: PrimalityCertificate, d: number): void => {
    nodes++;
    depth = Math.max(depth, d);
    if (c.kind === 'ecpp') ecppSteps += c.steps.length;
    if (c.kind === 'pratt') for (const f of c.factors) walk(f.certificate, d + 1);
  };
  walk(certificate, 0);
  return { nodes, depth, ecppSteps };
}
