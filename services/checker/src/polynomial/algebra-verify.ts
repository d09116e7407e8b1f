/**
 * The independent checks of factorization and ideal membership claims, on the shared reference
 * arithmetic only (none of the runner's engines, no CAS).
 *
 * Factorization (`polynomial.factor.verify`): every polynomial decodes strictly; the unit is a
 * non-zero field element; every factor is non-constant with a positive multiplicity; each
 * factor^multiplicity divides the polynomial exactly (which names a wrong factor); and
 * unit·Π factor^multiplicity equals the polynomial exactly. When the claim asked is the
 * factorization into irreducibles (the producer's claim), each factor's irreducibility is then
 * tested (irreducibility.ts): a factor shown reducible rejects the claim; one that cannot be shown
 * either way leaves the `factors-irreducible` obligation open, so the claim is not accepted.
 *
 * Ideal membership (`polynomial.ideal_membership.verify`):
 * - MEMBER: Σ_j cofactors[j]·generators[j] = polynomial exactly;
 * - NOT_MEMBER: the claim must carry a Groebner basis with cofactors; the Groebner checker
 *   (groebner-verify.ts) must accept it with both inclusions (so the basis is the reduced
 *   Groebner basis of exactly the generated ideal), and the normal form of the polynomial modulo
 *   that basis must be non-zero (and equal the claimed remainder, if given). A normal form modulo a
 *   Groebner basis is zero exactly for members of the ideal, so the verdict follows.
 * A claim without the certificate its verdict needs is not rejected (it may well be true): the
 * check passes what it could and names the open obligation and the evidence that would close it.
 */
import type { z } from 'zod';
import { FactorizationClaimSchema, JacobianError, MembershipClaimSchema, polynomialFromJson, printPolynomial, resolveRing, type JsonPath, type Polynomial, type PolynomialRing, type PolynomialTerm } from '@jacobian/shared';
import { checkGroebnerBasisClaim } from './groebner-verify.js';
import { irreducibility } from './irreducibility.js';


export const AlgebraRejectionReason = {
  /** A polynomial or coefficient is not canonical for the ring, or a part of the claim is missing or mis-shaped. */
  MALFORMED: 'MALFORMED',
  /** A factor is constant (the constant belongs in the unit) or the unit is zero. */
  CONSTANT_FACTOR: 'CONSTANT_FACTOR',
  /** factor^multiplicity does not divide the polynomial. */
  FACTOR_NOT_DIVISOR: 'FACTOR_NOT_DIVISOR',
  /** unit · Π factor^multiplicity differs from the polynomial. */
  PRODUCT_MISMATCH: 'PRODUCT_MISMATCH',
  /** MEMBER: Σ cofactors[j]·generators[j] differs from the polynomial. */
  COFACTOR_MISMATCH: 'COFACTOR_MISMATCH',
  /** NOT_MEMBER: the Groebner checker rejected the basis. */
  BASIS_REJECTED: 'BASIS_REJECTED',
  /** NOT_MEMBER: the polynomial reduces to zero modulo the basis, so it IS a member. */
  NORMAL_FORM_ZERO: 'NORMAL_FORM_ZERO',
  /** NOT_MEMBER: the claimed remainder is not the normal form. */
  REMAINDER_MISMATCH: 'REMAINDER_MISMATCH',
  /** A factor of a factorization into irreducibles is reducible (Rabin's test over GF(p)). */
  FACTOR_REDUCIBLE: 'FACTOR_REDUCIBLE',
} as const;
export type AlgebraRejectionReason = (typeof AlgebraRejectionReason)[keyof typeof AlgebraRejectionReason];

/** One obligation of the claim asked, as the check left it. */
export interface CheckedObligation {
  id: string;
  statement: string;
}

/**
 * What the check found. `accepted: true` means no check failed; the claim asked holds only when
 * `open` is empty as well (otherwise an obligation of it lacks evidence).
 */
export type AlgebraCheckResult =
  | { accepted: true; message: string; discharged: CheckedObligation[]; open: CheckedObligation[] }
  | { accepted: false; reason_code: AlgebraRejectionReason; message: string; path: JsonPath; witness: string | null };

/** Which factorization claim is asked: the producer's (into irreducibles), or the product identity alone. */
export const FactorizationClaimKind = {
  FACTORIZATION_INTO_IRREDUCIBLES: 'FACTORIZATION_INTO_IRREDUCIBLES',
  FACTORIZATION_PRODUCT_IDENTITY: 'FACTORIZATION_PRODUCT_IDENTITY',
} as const;
export type FactorizationClaimKind = (typeof FactorizationClaimKind)[keyof typeof FactorizationClaimKind];

const WITNESS_LIMIT = 2000;
function reject(reason_code: AlgebraRejectionReason, message: string, path: JsonPath, witness: string | null = null): AlgebraCheckResult {
  return { accepted: false, reason_code, message, path, witness: witness === null ? null : witness.length > WITNESS_LIMIT ? `${witness.slice(0, WITNESS_LIMIT)}…` : witness };
}

function parseOrThrow<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JacobianError('INVALID_REQUEST', `the ${what} is malformed: ${issue?.message ?? 'invalid'}`, { path: (issue?.path ?? []).map((p) => (typeof p === 'symbol' ? String(p) : p)) });
  }
  return parsed.data;
}

/** Decode with strict canonical JSON; a non-canonical polynomial becomes a MALFORMED rejection. */
function decodeAll<T>(decode: () => T): T | AlgebraCheckResult {
  try {
    return decode();
  } catch (error) {
    if (error instanceof JacobianError && error.code === 'INVALID_REQUEST') return reject(AlgebraRejectionReason.MALFORMED, error.message, error.path ?? []);
    throw error;
  }
}

function isRejection(value: unknown): value is AlgebraCheckResult {
  return typeof value === 'object' && value !== null && 'accepted' in value;
}

/** q when divisor·q = p exactly, else null (our own long division by leading terms). */
function divides<C>(R: PolynomialRing<C>, p: Polynomial<C>, divisor: Polynomial<C>, checkpoint: () => void): boolean {
  const lead = R.leadingTerm(divisor);
  let rest = p;
  while (rest.length > 0) {
    checkpoint();
    const t = rest[0] as PolynomialTerm<C>;
    const m = new Int32Array(R.arity);
    for (let i = 0; i < R.arity; i++) {
      const e = (t.monomial[i] as number) - (lead.monomial[i] as number);
      if (e < 0) return false;
      m[i] = e;
    }
    rest = R.sub(rest, R.mulTerm(divisor, m, R.field.div(t.coefficient, lead.coefficient)));
  }
  return true;
}

/** Options: a checkpoint that may throw to stop (the kernel throws EXECUTION_TIMEOUT). */
export interface AlgebraCheckOptions {
  checkpoint?: () => void;
}

/** Options of a factorization check: also which claim is asked (default: into irreducibles). */
export interface FactorizationCheckOptions extends AlgebraCheckOptions {
  kind?: FactorizationClaimKind;
}

/** Check a factorization claim. A malformed shape throws INVALID_REQUEST; a false claim is a rejection naming the failing part. */
export function checkFactorizationClaim(input: unknown, options: FactorizationCheckOptions = {}): AlgebraCheckResult {
  const checkpoint = options.checkpoint ?? ((): void => {});
  const claim = parseOrThrow(FactorizationClaimSchema, input, 'factorization claim');
  const R = resolveRing(claim.ring, ['ring']);
  const F = R.field;
  const decoded = decodeAll(() => ({ f: polynomialFromJson(R, claim.polynomial, ['polynomial']), factors: claim.factors.map((x, i) => polynomialFromJson(R, x.factor, ['factors', i, 'factor'])) }));
  if (isRejection(decoded)) return decoded;
  const unit = F.parseCanonical(claim.unit);
  if (unit === null) return reject(AlgebraRejectionReason.MALFORMED, `the unit "${claim.unit.slice(0, 40)}" is not a coefficient of ${F.name} in canonical form`, ['unit']);
  if (F.isZero(unit)) return reject(AlgebraRejectionReason.CONSTANT_FACTOR, 'the unit is zero', ['unit']);
  if (decoded.f.length === 0) return reject(AlgebraRejectionReason.MALFORMED, 'the polynomial is zero, which has no factorization', ['polynomial']);
  for (const [i, p] of decoded.factors.entries()) {
    if (R.degree(p) <= 0) return reject(AlgebraRejectionReason.CONSTANT_FACTOR, `factor ${i} is constant (${printPolynomial(R, p)}); constants belong in the unit`, ['factors', i, 'factor']);
  }
  // Each factor^multiplicity must divide the polynomial (which names a wrong factor), and their
  // product with the unit must be the polynomial; each power is computed once for both.
  const powers: Polynomial<unknown>[] = [];
  for (const [i, p] of decoded.factors.entries()) {
    const m = (claim.factors[i] as { multiplicity: number }).multiplicity;
    if (R.degree(p) * m > R.degree(decoded.f)) return reject(AlgebraRejectionReason.FACTOR_NOT_DIVISOR, `factor ${i} to the power ${m} has degree above the polynomial's`, ['factors', i]);
    const power = R.pow(p, m);
    if (!divides(R, decoded.f, power, checkpoint)) {
      return reject(AlgebraRejectionReason.FACTOR_NOT_DIVISOR, `factor ${i}${m > 1 ? ` to the power ${m}` : ''} does not divide the polynomial`, ['factors', i], printPolynomial(R, p));
    }
    powers.push(power);
  }
  let product = R.constant(unit);
  for (const power of powers) {
    checkpoint();
    product = R.mul(product, power);
  }
  if (!R.equals(product, decoded.f)) {
    const scalarOnly = product.length === decoded.f.length && product.every((t, k) => t.monomial.every((e, v) => e === (decoded.f[k] as PolynomialTerm<unknown>).monomial[v]));
    const difference = printPolynomial(R, R.sub(product, decoded.f));
    return scalarOnly
      ? reject(AlgebraRejectionReason.PRODUCT_MISMATCH, 'the factors multiply back to the polynomial only up to a constant: the unit is wrong', ['unit'], difference)
      : reject(AlgebraRejectionReason.PRODUCT_MISMATCH, 'unit · Π factor^multiplicity differs from the polynomial (a factor or multiplicity is missing or wrong)', ['factors'], difference);
  }
  const n = decoded.factors.length;
  const productText = `the unit and the ${n} factor${n === 1 ? '' : 's'} with their multiplicities multiply back to the polynomial exactly`;
  const discharged: CheckedObligation[] = [{ id: 'product-identity', statement: 'unit · Π factor^multiplicity equals the polynomial exactly' }];
  if ((options.kind ?? FactorizationClaimKind.FACTORIZATION_INTO_IRREDUCIBLES) === FactorizationClaimKind.FACTORIZATION_PRODUCT_IDENTITY) {
    return { accepted: true, message: `${productText} (irreducibility is not part of the claim asked)`, discharged, open: [] };
  }
  const proven: string[] = [];
  const unproven: string[] = [];
  for (const [i, p] of decoded.factors.entries()) {
    const verdict = irreducibility(R, p, checkpoint);
    if (verdict.status === 'REDUCIBLE') {
      return reject(AlgebraRejectionReason.FACTOR_REDUCIBLE, `factor ${i} is reducible over ${F.name} (${verdict.method})`, ['factors', i, 'factor'], printPolynomial(R, p));
    }
    if (verdict.status === 'IRREDUCIBLE') proven.push(`factor ${i}: ${verdict.method}`);
    else unproven.push(`factor ${i} (${printPolynomial(R, p).slice(0, 80)}): ${verdict.why}`);
  }
  if (unproven.length > 0) {
    return {
      accepted: true,
      message: `${productText}; irreducibility was shown for ${proven.length} of the ${n} factors, not for ${unproven.join('; ')}`,
      discharged,
      open: [
        {
          id: 'factors-irreducible',
          statement: `every factor is irreducible over ${F.name}: not shown for ${unproven.join('; ')}. No certificate of irreducibility is accepted for such a factor yet; ask claim_kind FACTORIZATION_PRODUCT_IDENTITY for the product identity alone`,
        },
      ],
    };
  }
  return {
    accepted: true,
    message: `${productText}; every factor is irreducible over ${F.name} (${proven.join('; ')})`,
    discharged: [...discharged, { id: 'factors-irreducible', statement: `every factor is irreducible over ${F.name} (${proven.join('; ')})` }],
    open: [],
  };
}

/** Check an ideal membership claim. A malformed shape throws INVALID_REQUEST; a false claim is a rejection naming the failing part and rule. */
export function checkMembershipClaim(input: unknown, options: AlgebraCheckOptions = {}): AlgebraCheckResult {
  const checkpoint = options.checkpoint ?? ((): void => {});
  const claim = parseOrThrow(MembershipClaimSchema, input, 'membership claim');
  const R = resolveRing(claim.ring, ['ring']);
  const decoded = decodeAll(() => ({ generators: claim.generators.map((g, i) => polynomialFromJson(R, g, ['generators', i])), f: polynomialFromJson(R, claim.polynomial, ['polynomial']) }));
  if (isRejection(decoded)) return decoded;
  const { generators, f } = decoded;
  if (claim.verdict === 'MEMBER') {
    if (claim.cofactors === undefined) {
      return {
        accepted: true,
        message: 'the claim has no cofactors, so membership was not shown',
        discharged: [],
        open: [{ id: 'membership-certificate', statement: 'the polynomial is a combination of the generators: not shown, the claim has no cofactors; evidence that closes it: cofactors, one per generator, whose combination is the polynomial (polynomial.ideal_membership.decide stores them)' }],
      };
    }
    if (claim.cofactors.length !== generators.length) return reject(AlgebraRejectionReason.MALFORMED, `there are ${claim.cofactors.length} cofactors for ${generators.length} generators`, ['cofactors']);
    const cofactors = decodeAll(() => (claim.cofactors ?? []).map((c, j) => polynomialFromJson(R, c, ['cofactors', j])));
    if (isRejection(cofactors)) return cofactors;
    let sum: Polynomial<unknown> = [];
    cofactors.forEach((c, j) => {
      checkpoint();
      sum = R.add(sum, R.mul(c, generators[j] as Polynomial<unknown>));
    });
    if (!R.equals(sum, f)) {
      return reject(AlgebraRejectionReason.COFACTOR_MISMATCH, 'Σ cofactors[j]·generators[j] differs from the polynomial (the witness is the difference)', ['cofactors'], printPolynomial(R, R.sub(sum, f)));
    }
    return {
      accepted: true,
      message: `the ${generators.length} cofactors combine the generators into the polynomial exactly, so it lies in the ideal`,
      discharged: [{ id: 'membership-certificate', statement: 'Σ cofactors[j]·generators[j] equals the polynomial exactly' }],
      open: [],
    };
  }
  const noBasis = (what: string): AlgebraCheckResult => ({
    accepted: true,
    message: `non-membership was not shown: ${what}`,
    discharged: [],
    open: [
      {
        id: 'basis-certificate',
        statement: `the polynomial is outside the ideal: not shown, ${what}; evidence that closes it: the reduced Groebner basis of the ideal (basis) with cofactors expressing each element in the generators (basis_cofactors), as polynomial.ideal_membership.decide stores them`,
      },
    ],
  });
  if (claim.basis === undefined || claim.basis_cofactors === undefined) {
    return noBasis(`the claim has no ${claim.basis === undefined ? 'basis' : 'basis_cofactors'}`);
  }
  const basisCheck = checkGroebnerBasisClaim({ ring: claim.ring, generators: claim.generators, basis: claim.basis, cofactors: claim.basis_cofactors }, { checkpoint });
  if (!basisCheck.accepted) {
    const [head, ...rest] = basisCheck.path;
    const path: JsonPath = head === 'cofactors' ? ['basis_cofactors', ...rest] : basisCheck.path;
    return reject(AlgebraRejectionReason.BASIS_REJECTED, `the Groebner basis certificate was rejected: ${basisCheck.reason_code}: ${basisCheck.message}`, path, basisCheck.witness);
  }
  if (basisCheck.ideal_inclusion !== 'EQUAL') return noBasis('the basis was not shown to generate exactly the ideal');
  const basis = claim.basis.map((b, i) => polynomialFromJson(R, b, ['basis', i]));
  const normalForm = R.normalForm(f, basis, checkpoint);
  if (normalForm.length === 0) return reject(AlgebraRejectionReason.NORMAL_FORM_ZERO, 'the polynomial reduces to zero modulo the verified Groebner basis: it is a member of the ideal', ['verdict']);
  if (claim.remainder !== undefined) {
    const remainder = decodeAll(() => polynomialFromJson(R, claim.remainder, ['remainder']));
    if (isRejection(remainder)) return remainder;
    if (!R.equals(remainder, normalForm)) return reject(AlgebraRejectionReason.REMAINDER_MISMATCH, 'the claimed remainder is not the normal form of the polynomial modulo the basis', ['remainder'], printPolynomial(R, normalForm));
  }
  return {
    accepted: true,
    message: `the basis is verified as the reduced Groebner basis of the ideal (with cofactors), and the polynomial's normal form modulo it is non-zero (${normalForm.length} term${normalForm.length === 1 ? '' : 's'}), so it is not in the ideal`,
    discharged: [
      { id: 'basis-certificate', statement: 'the basis is the reduced Groebner basis of exactly the ideal (both inclusions, with cofactors)' },
      { id: 'normal-form-non-zero', statement: 'the normal form of the polynomial modulo the basis is not zero' },
    ],
    open: [],
  };
}
