/**
 * Claims as agents write them: every polynomial of a Groebner basis, factorization or ideal
 * membership claim may be given as text in our grammar (what the producers take, e.g.
 * "x^2 - y") or as canonical JSON (exponent vectors, what the producers store). The ring is the
 * same declaration the producers take (field, variables in decreasing order, monomial order).
 *
 * {@link canonicalGroebnerClaim} (and its two siblings) turns such an input into the stored claim: texts are parsed with the
 * shared grammar in the claim's ring and encoded as canonical JSON; JSON is passed on untouched,
 * so the checker still decodes it strictly. A text and its JSON equivalent become the same
 * claim, with the same digest, so they get the same verdict.
 */
import { z } from 'zod';
import type { JsonPath } from '../../errors.js';
import { PolynomialJsonSchema, polynomialToJson, resolveRing, RingSpecSchema, type PolynomialJson } from './canonical.js';
import { POLYNOMIAL_LIMITS } from './limits.js';
import type { PolynomialRing } from './polynomial.js';
import { FactorizationClaimSchema, GroebnerBasisClaimSchema, MembershipClaimSchema, type FactorizationClaim, type GroebnerBasisClaim, type MembershipClaim } from './results.js';
import { parsePolynomial } from './syntax.js';

/** One polynomial of a claim: text in the ring's variables, or canonical JSON. */
export const PolynomialInputSchema = z
  .union([
    z.string().min(1).max(POLYNOMIAL_LIMITS.maxTextLength).describe('polynomial text in the ring\'s variables, as the producers take it, e.g. "x^2 - y", "3/4*x*y - 1"'),
    PolynomialJsonSchema,
  ])
  .describe('a polynomial: text such as "x^2 - y", or canonical JSON {terms: [{coefficient, exponents}]} (terms strictly decreasing in the ring order)');
export type PolynomialInput = z.infer<typeof PolynomialInputSchema>;

const List = z.array(PolynomialInputSchema).max(POLYNOMIAL_LIMITS.maxPolynomials);

/** A Groebner basis claim whose polynomials may be texts: {@link GroebnerBasisClaimSchema} otherwise. */
export const GroebnerBasisClaimInputSchema = z
  .object({
    ring: RingSpecSchema.describe('the ring, as polynomial.groebner_basis.compute takes it: field, variables in decreasing order, monomial order'),
    generators: List.min(1).describe('the generators of the ideal'),
    basis: List.describe('the reduced Groebner basis: monic, sorted by increasing leading monomial'),
    cofactors: z.array(List).optional().describe('the certificate that the basis lies in the ideal: cofactors[i][j] multiplies generators[j] and the sum is basis[i]'),
  })
  .strict();
export type GroebnerBasisClaimInput = z.infer<typeof GroebnerBasisClaimInputSchema>;

/** A factorization claim whose polynomials may be texts: {@link FactorizationClaimSchema} otherwise. */
export const FactorizationClaimInputSchema = z
  .object({
    ring: RingSpecSchema.describe('the ring, as polynomial.factor.compute takes it'),
    polynomial: PolynomialInputSchema.describe('the polynomial factored'),
    unit: z.string().min(1).max(2 * POLYNOMIAL_LIMITS.maxCoefficientDigits + 2).describe('a non-zero field element in canonical text, e.g. "1", "-3", "7/2"'),
    factors: z
      .array(z.object({ factor: PolynomialInputSchema, multiplicity: z.number().int().min(1).max(POLYNOMIAL_LIMITS.maxDegree) }).strict())
      .max(POLYNOMIAL_LIMITS.maxDegree),
  })
  .strict();
export type FactorizationClaimInput = z.infer<typeof FactorizationClaimInputSchema>;

/** An ideal membership claim whose polynomials may be texts: {@link MembershipClaimSchema} otherwise. */
export const MembershipClaimInputSchema = z
  .object({
    ring: RingSpecSchema.describe('the ring, as polynomial.ideal_membership.decide takes it'),
    generators: List.min(1),
    polynomial: PolynomialInputSchema,
    verdict: z.enum(['MEMBER', 'NOT_MEMBER']),
    cofactors: List.optional().describe('MEMBER: cofactors[j] multiplies generators[j]; their sum is the polynomial'),
    basis: List.optional().describe('NOT_MEMBER: the reduced Groebner basis of the ideal'),
    basis_cofactors: z.array(List).optional().describe('NOT_MEMBER: basis[i] = Σ_j basis_cofactors[i][j]·generators[j]'),
    remainder: PolynomialInputSchema.optional().describe('NOT_MEMBER: the normal form of the polynomial modulo the basis'),
  })
  .strict();
export type MembershipClaimInput = z.infer<typeof MembershipClaimInputSchema>;

/** Parse a text of a claim at `path`; JSON goes on as given (the checker decodes it strictly). */
function canonicalPolynomial(ring: PolynomialRing<unknown>, input: PolynomialInput, path: JsonPath): PolynomialJson {
  return typeof input === 'string' ? polynomialToJson(ring, parsePolynomial(ring, input, { path })) : input;
}

interface Encoder {
  one: (p: PolynomialInput, at: JsonPath) => PolynomialJson;
  list: (ps: readonly PolynomialInput[], at: JsonPath) => PolynomialJson[];
  rows: (rs: readonly (readonly PolynomialInput[])[], at: JsonPath) => PolynomialJson[][];
}

/** Texts of the claim at `path` parsed in its ring (validated first, so a bad ring is named as such). */
function encoder(ringSpec: unknown, path: JsonPath): Encoder {
  const ring = resolveRing(ringSpec, [...path, 'ring']);
  const one = (p: PolynomialInput, at: JsonPath): PolynomialJson => canonicalPolynomial(ring, p, [...path, ...at]);
  const list = (ps: readonly PolynomialInput[], at: JsonPath): PolynomialJson[] => ps.map((p, i) => one(p, [...at, i]));
  const rows = (rs: readonly (readonly PolynomialInput[])[], at: JsonPath): PolynomialJson[][] => rs.map((row, i) => list(row, [...at, i]));
  return { one, list, rows };
}

/*
 * The three functions below return the claim with every text replaced by its canonical JSON.
 * `path` is where the claim sits in the request, e.g. `['payload', 'claim']`: a bad ring or a
 * text that does not parse throws INVALID_REQUEST at the exact place, naming the column and the
 * grammar rule (see parsePolynomial).
 */

/** A Groebner basis claim with its texts parsed (see the module comment). */
export function canonicalGroebnerClaim(claim: GroebnerBasisClaimInput, path: JsonPath): GroebnerBasisClaim {
  const { list, rows } = encoder(claim.ring, path);
  return GroebnerBasisClaimSchema.parse({
    ring: claim.ring,
    generators: list(claim.generators, ['generators']),
    basis: list(claim.basis, ['basis']),
    ...(claim.cofactors === undefined ? {} : { cofactors: rows(claim.cofactors, ['cofactors']) }),
  });
}

/** A factorization claim with its texts parsed. */
export function canonicalFactorizationClaim(claim: FactorizationClaimInput, path: JsonPath): FactorizationClaim {
  const { one } = encoder(claim.ring, path);
  return FactorizationClaimSchema.parse({
    ring: claim.ring,
    polynomial: one(claim.polynomial, ['polynomial']),
    unit: claim.unit,
    factors: claim.factors.map(({ factor, multiplicity }, i) => ({ factor: one(factor, ['factors', i, 'factor']), multiplicity })),
  });
}

/** An ideal membership claim with its texts parsed. */
export function canonicalMembershipClaim(claim: MembershipClaimInput, path: JsonPath): MembershipClaim {
  const { one, list, rows } = encoder(claim.ring, path);
  return MembershipClaimSchema.parse({
    ring: claim.ring,
    generators: list(claim.generators, ['generators']),
    polynomial: one(claim.polynomial, ['polynomial']),
    verdict: claim.verdict,
    ...(claim.cofactors === undefined ? {} : { cofactors: list(claim.cofactors, ['cofactors']) }),
    ...(claim.basis === undefined ? {} : { basis: list(claim.basis, ['basis']) }),
    ...(claim.basis_cofactors === undefined ? {} : { basis_cofactors: rows(claim.basis_cofactors, ['basis_cofactors']) }),
    ...(claim.remainder === undefined ? {} : { remainder: one(claim.remainder, ['remainder']) }),
  });
}
