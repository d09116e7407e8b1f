/**
 * The claim "n = ∏ prime^exponent, and each prime is prime by its certificate", as
 * integer.factor.compute stores it and integer.factorization.verify checks it: the product
 * equals n exactly and every certificate replays (see primality.ts for the certificate kinds).
 * n = 1 has the empty factorization.
 */
import { z } from 'zod';
import { integerTextSchema } from './arith.js';
import { CertifiedPrimePowerSchema, PRIMALITY_LIMITS, PrimalityCertificateSchema } from './primality.js';

export const INTEGER_FACTORIZATION_CLAIM_SCHEMA_URI = 'jacobian:schema/integer.factorization.claim/v1';
export const INTEGER_FACTORIZATION_CLAIM_SEMANTICS_URI = 'jacobian:semantics/integer.factorization.certified_primes/v1';

/** Sizes a factorization claim may have. */
export const INTEGER_FACTORIZATION_LIMITS = {
  /** Digits of n. */
  maxDigits: PRIMALITY_LIMITS.maxDigits,
  /** Distinct primes. */
  maxFactors: 7000,
} as const;

/** A factorization with a certificate for every prime, primes strictly increasing. */
export const IntegerFactorizationClaimSchema = z
  .object({
    n: integerTextSchema({ maxDigits: INTEGER_FACTORIZATION_LIMITS.maxDigits, sign: 'positive' }),
    factors: z.array(CertifiedPrimePowerSchema).max(INTEGER_FACTORIZATION_LIMITS.maxFactors).describe('n = ∏ prime^exponent, primes increasing, each with its primality certificate'),
  })
  .strict()
  .superRefine((claim, ctx) => {
    let previous = 0n;
    for (const [i, f] of claim.factors.entries()) {
      const p = BigInt(f.prime);
      if (p <= previous) ctx.addIssue({ code: 'custom', path: ['factors', i, 'prime'], message: 'primes must be strictly increasing (rule: canonical-order)' });
      previous = p;
      if (f.certificate.n !== f.prime) ctx.addIssue({ code: 'custom', path: ['factors', i, 'certificate', 'n'], message: `must be the prime ${f.prime.slice(0, 40)} it certifies (rule: certificate-subject)` });
      const tree = PrimalityCertificateSchema.safeParse(f.certificate);
      if (!tree.success) for (const issue of tree.error.issues) ctx.addIssue({ code: 'custom', path: ['factors', i, 'certificate', ...issue.path.map((k) => (typeof k === 'symbol' ? String(k) : k))], message: issue.message });
    }
  });
export type IntegerFactorizationClaim = z.infer<typeof IntegerFactorizationClaimSchema>;
