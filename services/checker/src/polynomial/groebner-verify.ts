/**
 * The independent checker of reduced Groebner basis claims (`polynomial.groebner_basis.verify`).
 * It shares only the reference polynomial arithmetic of @jacobian/shared with the producers
 * (none of the runner's Buchberger engine, no CAS) and checks, in this order:
 *
 * 1. every polynomial is canonical JSON of the stated ring (decoded strictly);
 * 2. the basis is reduced: no zero element, every element monic, no term of any element divisible
 *    by the leading monomial of another element (this also makes leading monomials distinct);
 * 3. cofactors, when given: basis[i] = Σ_j cofactors[i][j]·generators[j] exactly, so <G> ⊆ I;
 * 4. every generator reduces to zero modulo the basis, so I ⊆ <G>;
 * 5. the basis is a Groebner basis: every S-polynomial reduces to zero (Buchberger's criterion),
 *    except pairs skipped by the two criteria justified below.
 *
 * Skipped pairs, and why that is sound (Buchberger's refined criterion; Cox–Little–O'Shea,
 * Ideals, Varieties, and Algorithms, ch. 2 §10, Theorem 6 and Proposition 4): G is a Groebner
 * basis as soon as, for every pair, S(gi, gj) has an lcm representation (a standard representation
 * whose terms are all < lcm(lm gi, lm gj)). A remainder of zero gives one. (a) Coprime leading
 * monomials always give one (product criterion). (b) If some gk has lm gk | lcm_ij, and lcm_ik and
 * lcm_kj both differ from lcm_ij, then both strictly divide lcm_ij and S(gi, gj) is a combination of
 * S(gi, gk) and S(gk, gj) with monomial multipliers, each term below lcm_ij, so it has an lcm
 * representation when those two do. Since strict divisibility of lcms is well founded, every pair
 * skipped by (b) rests, by induction on its lcm, on pairs that were reduced or skipped by (a).
 *
 * Without cofactors, check 3 does not happen and the verdict says so (`ideal_inclusion` is
 * 'GENERATORS_IN_BASIS_ONLY'): the basis is then only shown to be a reduced Groebner basis of an
 * ideal that contains the generators.
 */
import {
  GroebnerBasisClaimSchema,
  JacobianError,
  monomialDivides,
  monomialEquals,
  monomialLcm,
  monomialsCoprime,
  polynomialFromJson,
  printPolynomial,
  resolveRing,
  type JsonPath,
  type Monomial,
  type Polynomial,
  type PolynomialRing,
} from '@jacobian/shared';

/** Why a Groebner basis claim is rejected. */
export const GroebnerRejectionReason = {
  /** A polynomial is not canonical JSON of the ring, or cofactors have the wrong shape. */
  MALFORMED: 'MALFORMED',
  /** A basis element is zero. */
  ZERO_ELEMENT: 'ZERO_ELEMENT',
  /** A basis element's leading coefficient is not 1. */
  NOT_MONIC: 'NOT_MONIC',
  /** A term of a basis element is divisible by the leading monomial of another element. */
  NOT_REDUCED: 'NOT_REDUCED',
  /** Σ_j cofactors[i][j]·generators[j] differs from basis[i]. */
  COFACTOR_MISMATCH: 'COFACTOR_MISMATCH',
  /** A generator does not reduce to zero modulo the basis: the basis misses part of the ideal. */
  GENERATOR_NOT_REDUCED_TO_ZERO: 'GENERATOR_NOT_REDUCED_TO_ZERO',
  /** An S-polynomial does not reduce to zero: the basis is not a Groebner basis. */
  S_POLYNOMIAL_NOT_REDUCED_TO_ZERO: 'S_POLYNOMIAL_NOT_REDUCED_TO_ZERO',
} as const;
export type GroebnerRejectionReason = (typeof GroebnerRejectionReason)[keyof typeof GroebnerRejectionReason];

/** What was shown about the ideal the basis generates. */
export const IdealInclusion = {
  /** Both inclusions: the generators reduce to zero, and the cofactors express every basis element. */
  EQUAL: 'EQUAL',
  /** Only that the generators lie in the ideal of the basis (no cofactors were given). */
  GENERATORS_IN_BASIS_ONLY: 'GENERATORS_IN_BASIS_ONLY',
} as const;
export type IdealInclusion = (typeof IdealInclusion)[keyof typeof IdealInclusion];

/** Work done, reported with every verdict. */
export interface GroebnerCheckCounts {
  pairs_total: number;
  pairs_reduced: number;
  pairs_skipped_coprime: number;
  pairs_skipped_chain: number;
  generators_reduced: number;
  cofactor_rows_checked: number;
}

/** The verdict of {@link checkGroebnerBasisClaim}. */
export type GroebnerCheckResult =
  | { accepted: true; ideal_inclusion: IdealInclusion; counts: GroebnerCheckCounts }
  | {
      accepted: false;
      reason_code: GroebnerRejectionReason;
      message: string;
      /** The failing element, e.g. `['basis', 3]`, `['generators', 1]`, `['cofactors', 2]`; for an S-pair, its first element. */
      path: JsonPath;
      /** For S_POLYNOMIAL_NOT_REDUCED_TO_ZERO: the indices of the two basis elements. */
      pair: [number, number] | null;
      /** The offending remainder or difference, in canonical text (truncated), when there is one. */
      witness: string | null;
      counts: GroebnerCheckCounts;
    };

/** Options of {@link checkGroebnerBasisClaim}. */
export interface GroebnerCheckOptions {
  /** Called during long reductions; throw from it to stop (a kernel throws EXECUTION_TIMEOUT). */
  checkpoint?: () => void;
}

const WITNESS_LIMIT = 2000;

function truncate(text: string): string {
  return text.length > WITNESS_LIMIT ? `${text.slice(0, WITNESS_LIMIT)}…` : text;
}

/**
 * Check one claim. Malformed JSON shapes (not even a claim) throw INVALID_REQUEST; a claim that
 * parses but is false is a rejection naming the failing element and rule.
 */
export function checkGroebnerBasisClaim(claimInput: unknown, options: GroebnerCheckOptions = {}): GroebnerCheckResult {
  const parsed = GroebnerBasisClaimSchema.safeParse(claimInput);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JacobianError('INVALID_REQUEST', `the Groebner basis claim is malformed: ${issue?.message ?? 'invalid'}`, {
      path: (issue?.path ?? []).map((p) => (typeof p === 'symbol' ? String(p) : p)),
    });
  }
  const claim = parsed.data;
  const ring = resolveRing(claim.ring, ['ring']);
  const counts: GroebnerCheckCounts = { pairs_total: 0, pairs_reduced: 0, pairs_skipped_coprime: 0, pairs_skipped_chain: 0, generators_reduced: 0, cofactor_rows_checked: 0 };
  const reject = (reason_code: GroebnerRejectionReason, message: string, path: JsonPath, witness: string | null = null, pair: [number, number] | null = null): GroebnerCheckResult => ({
    accepted: false,
    reason_code,
    message,
    path,
    pair,
    witness: witness === null ? null : truncate(witness),
    counts,
  });

  // 1. Decode strictly.
  let generators: Polynomial<unknown>[];
  let basis: Polynomial<unknown>[];
  try {
    generators = claim.generators.map((g, i) => polynomialFromJson(ring, g, ['generators', i]));
    basis = claim.basis.map((b, i) => polynomialFromJson(ring, b, ['basis', i]));
  } catch (error) {
    if (error instanceof JacobianError && error.code === 'INVALID_REQUEST') return reject(GroebnerRejectionReason.MALFORMED, error.message, error.path ?? []);
    throw error;
  }

  // 2. Reduced: non-zero, monic, no term divisible by another element's leading monomial.
  const F = ring.field;
  for (const [i, b] of basis.entries()) {
    const lead = b[0];
    if (lead === undefined) return reject(GroebnerRejectionReason.ZERO_ELEMENT, `basis element ${i} is zero`, ['basis', i]);
    if (!F.isOne(lead.coefficient)) {
      return reject(GroebnerRejectionReason.NOT_MONIC, `basis element ${i} has leading coefficient ${F.format(lead.coefficient)}, not 1`, ['basis', i], printPolynomial(ring, b));
    }
  }
  const leads = basis.map((b) => (b[0] as { monomial: Monomial }).monomial);
  for (const [i, b] of basis.entries()) {
    for (const [t, term] of b.entries()) {
      for (const [j, lead] of leads.entries()) {
        if (j !== i && monomialDivides(lead, term.monomial)) {
          return reject(
            GroebnerRejectionReason.NOT_REDUCED,
            `term ${t} of basis element ${i} is divisible by the leading monomial of basis element ${j}`,
            ['basis', i, 'terms', t],
            printPolynomial(ring, b),
          );
        }
      }
    }
  }

  // 3. Cofactors: basis[i] = Σ_j cofactors[i][j]·generators[j].
  if (claim.cofactors !== undefined) {
    if (claim.cofactors.length !== basis.length) {
      return reject(GroebnerRejectionReason.MALFORMED, `there are ${claim.cofactors.length} cofactor rows for ${basis.length} basis elements`, ['cofactors']);
    }
    for (const [i, row] of claim.cofactors.entries()) {
      if (row.length !== generators.length) {
        return reject(GroebnerRejectionReason.MALFORMED, `cofactor row ${i} has ${row.length} entries for ${generators.length} generators`, ['cofactors', i]);
      }
      let sum: Polynomial<unknown> = [];
      for (const [j, json] of row.entries()) {
        let c: Polynomial<unknown>;
        try {
          c = polynomialFromJson(ring, json, ['cofactors', i, j]);
        } catch (error) {
          if (error instanceof JacobianError && error.code === 'INVALID_REQUEST') return reject(GroebnerRejectionReason.MALFORMED, error.message, error.path ?? []);
          throw error;
        }
        sum = ring.add(sum, ring.mul(c, generators[j] as Polynomial<unknown>));
        options.checkpoint?.();
      }
      const difference = ring.sub(sum, basis[i] as Polynomial<unknown>);
      if (difference.length > 0) {
        return reject(
          GroebnerRejectionReason.COFACTOR_MISMATCH,
          `the cofactors of basis element ${i} combine the generators into a different polynomial`,
          ['cofactors', i],
          printPolynomial(ring, difference),
        );
      }
      counts.cofactor_rows_checked++;
    }
  }

  // 4. Every generator reduces to zero.
  for (const [j, g] of generators.entries()) {
    const remainder = ring.normalForm(g, basis, options.checkpoint);
    counts.generators_reduced++;
    if (remainder.length > 0) {
      return reject(
        GroebnerRejectionReason.GENERATOR_NOT_REDUCED_TO_ZERO,
        `generator ${j} does not reduce to zero modulo the basis: the basis does not generate the whole ideal`,
        ['generators', j],
        printPolynomial(ring, remainder),
      );
    }
  }

  // 5. S-polynomials, with the two criteria justified in the module comment.
  const sFailure = checkSPolynomials(ring, basis, leads, counts, options.checkpoint);
  if (sFailure !== null) {
    const [i, j, remainder] = sFailure;
    return reject(
      GroebnerRejectionReason.S_POLYNOMIAL_NOT_REDUCED_TO_ZERO,
      `the S-polynomial of basis elements ${i} and ${j} does not reduce to zero: the basis is not a Groebner basis`,
      ['basis', i],
      printPolynomial(ring, remainder),
      [i, j],
    );
  }
  return { accepted: true, ideal_inclusion: claim.cofactors === undefined ? IdealInclusion.GENERATORS_IN_BASIS_ONLY : IdealInclusion.EQUAL, counts };
}

/** The first pair whose S-polynomial has a non-zero remainder, or null. */
function checkSPolynomials(
  ring: PolynomialRing<unknown>,
  basis: readonly Polynomial<unknown>[],
  leads: readonly Monomial[],
  counts: GroebnerCheckCounts,
  checkpoint: (() => void) | undefined,
): [number, number, Polynomial<unknown>] | null {
  for (let i = 0; i < basis.length; i++) {
    for (let j = i + 1; j < basis.length; j++) {
      counts.pairs_total++;
      const a = leads[i] as Monomial;
      const b = leads[j] as Monomial;
      if (monomialsCoprime(a, b)) {
        counts.pairs_skipped_coprime++;
        continue;
      }
      const lcm = monomialLcm(a, b);
      let chain = false;
      for (let k = 0; k < basis.length && !chain; k++) {
        if (k === i || k === j) continue;
        const c = leads[k] as Monomial;
        if (!monomialDivides(c, lcm)) continue;
        chain = !monomialEquals(monomialLcm(a, c), lcm) && !monomialEquals(monomialLcm(c, b), lcm);
      }
      if (chain) {
        counts.pairs_skipped_chain++;
        continue;
      }
      const remainder = ring.normalForm(ring.sPolynomial(basis[i] as Polynomial<unknown>, basis[j] as Polynomial<unknown>), basis, checkpoint);
      counts.pairs_reduced++;
      checkpoint?.();
      if (remainder.length > 0) return [i, j, remainder];
    }
  }
  return null;
}
