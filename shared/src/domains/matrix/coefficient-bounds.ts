/**
 * How large the coefficients of an eigenpolynomial of a square matrix A can be: a monic polynomial
 * whose roots are eigenvalues of A, each at most as often as in det(x I − A) — the characteristic
 * polynomial, the minimal polynomial, the invariant factors (each a monic factor of det(x I − A)
 * over the answer field). Claims holding such coefficients are bounded by this, not by the entry
 * limit of MATRIX_LIMITS: the minimal polynomial of a 20×20 matrix of 250-bit integers already has
 * coefficients of about 5,000 bits.
 *
 * Over Z and Q, for the coefficient c of x^(d−j) of such a p of degree d:
 *
 * - size: every eigenvalue has |λ| ≤ ρ = max_i Σ_k |a_ik| (the row-sum norm), and c = ±e_j(λ_1, …,
 *   λ_d), so |c| ≤ C(d, j) ρ^j ≤ 2^d ρ^j;
 * - denominator: with d_i the lcm of the denominators of row i and P = Π d_i, the polynomial
 *   P·det(x I − A) = det(x Δ − Δ A), Δ = diag(d_i), has integer coefficients and leading coefficient
 *   P. For a monic factor p over Q, with L the lcm of the denominators of its coefficients, L·p is
 *   primitive with leading coefficient L, so L divides P (Gauss's lemma). And with D the lcm of all
 *   denominators, the D λ are algebraic integers (eigenvalues of the integer matrix D A), so
 *   D^j c = ±e_j(D λ) is an integer: the denominator of c divides D^j as well;
 * - numerator: |c|·den(c) ≤ 2^d ρ^j · min(P, D^j).
 *
 * The logarithms are bounded from the entries' digit counts alone (a k-digit number lies in
 * [10^(k−1), 10^k)), with no arithmetic on the entries, so the bound costs a pass over the texts.
 * Over GF(p) a coefficient is a residue below p.
 */
import { z } from 'zod';
import { MATRIX_LIMITS, MAX_ENTRY_DIGITS } from './limits.js';
import { MatrixRule, type EntrySizeLimit, type MatrixPayload } from './matrix.js';

const LOG2_10 = Math.log2(10);
const ENTRY_TEXT = /^-?(\d+)(?:\/(\d+))?$/;

/** The bound on one coefficient: the size limit its numerator and denominator must keep, and the longest text it can have. */
export interface CoefficientBound extends EntrySizeLimit {
  readonly maxTextLength: number;
}

/** What the bound needs of a matrix, in bits (upper bounds). */
interface MatrixProfile {
  readonly n: number;
  /** log2 of the row-sum norm ρ (may be negative). */
  readonly log2Rho: number;
  /** log2 P, P the product of the rows' denominator lcms. */
  readonly log2P: number;
  /** log2 D, D the lcm of all denominators. */
  readonly log2D: number;
}

/** Decimal digits of a number below 2^bits. */
const digits = (bits: number): number => Math.max(1, Math.ceil(bits * Math.log10(2)));

const WHY = 'the bound on the coefficients of a polynomial whose roots are eigenvalues of the matrix: |c| ≤ 2^d ρ^j, denominator dividing min(Π row lcms, D^j)';

function boundsOf(profile: MatrixProfile, degree: number): CoefficientBound[] {
  const rho = Math.max(0, profile.log2Rho);
  return Array.from({ length: degree + 1 }, (_, k) => {
    const j = degree - k;
    // One bit of slack on each: the logarithms are floating point.
    const denominatorBits = Math.ceil(Math.min(profile.log2P, j * profile.log2D)) + 1;
    const numeratorBits = Math.ceil(degree + j * rho + denominatorBits) + 1;
    const maxTextLength = 1 + digits(numeratorBits) + (denominatorBits > 1 ? 1 + digits(denominatorBits) : 0);
    return { numeratorBits, denominatorBits, maxTextLength, rule: MatrixRule.COEFFICIENT_SIZE, why: WHY };
  });
}

function profileOf(matrix: MatrixPayload): MatrixProfile {
  const n = matrix.nrows;
  let maxLog2Entry = Number.NEGATIVE_INFINITY;
  let log2P = 0;
  const all = new Set<string>();
  for (const row of matrix.rows) {
    const seen = new Set<string>();
    for (const text of row) {
      const match = ENTRY_TEXT.exec(text);
      if (match === null) continue;
      const num = match[1] as string;
      const den = match[2];
      if (num === '0') continue;
      maxLog2Entry = Math.max(maxLog2Entry, num.length * LOG2_10 - (den === undefined ? 0 : (den.length - 1) * LOG2_10));
      if (den !== undefined && !seen.has(den)) {
        seen.add(den);
        log2P += den.length * LOG2_10;
      }
      if (den !== undefined) all.add(den);
    }
  }
  let log2D = 0;
  for (const den of all) log2D += den.length * LOG2_10;
  return { n, log2Rho: maxLog2Entry === Number.NEGATIVE_INFINITY ? 0 : Math.log2(n) + maxLog2Entry, log2P, log2D };
}

/**
 * The bound on each coefficient c_0, …, c_degree (lowest degree first) of a polynomial of that
 * degree whose roots are eigenvalues of `matrix` (canonical, square): a correct claim's
 * coefficients are within it, so a longer one is refused before it is parsed.
 */
export function eigenpolynomialCoefficientBounds(matrix: MatrixPayload, degree: number): CoefficientBound[] {
  if (matrix.ring.kind === 'GF') {
    const bits = Math.ceil(matrix.ring.characteristic.length * LOG2_10) + 1;
    const bound: CoefficientBound = { numeratorBits: bits, denominatorBits: 1, maxTextLength: matrix.ring.characteristic.length, rule: MatrixRule.COEFFICIENT_SIZE, why: `a residue modulo ${matrix.ring.characteristic.slice(0, 40)}` };
    return Array.from({ length: degree + 1 }, () => bound);
  }
  return boundsOf(profileOf(matrix), degree);
}

/**
 * The size limits a claim's coefficients are validated against: at most the longer of the entry
 * text limit and the bound's text length (so that every claim valid before the bound existed stays
 * valid, and a wrong but short coefficient gets the checker's verdict rather than a refusal), with
 * its numerator and denominator each of at most that many digits. A longer coefficient is refused,
 * rule coefficient-size, before BigInt() sees it.
 */
export function coefficientSizeLimits(matrix: MatrixPayload, degree: number): CoefficientBound[] {
  return eigenpolynomialCoefficientBounds(matrix, degree).map((bound) => {
    const maxTextLength = Math.max(MATRIX_LIMITS.maxEntryTextLength, bound.maxTextLength);
    const bits = Math.ceil(maxTextLength * LOG2_10);
    return { numeratorBits: bits, denominatorBits: bits, maxTextLength, rule: MatrixRule.COEFFICIENT_SIZE, why: WHY };
  });
}

/** The most coefficients an eigenpolynomial claim may give: n + 1 matter (degree ≤ n); one more lets the checker reject a longer one itself. */
export const MAX_EIGENPOLYNOMIAL_COEFFICIENTS = MATRIX_LIMITS.maxRows + 2;

/**
 * The longest coefficient text of any such polynomial of any matrix within MATRIX_LIMITS: the
 * bound for a maxRows × maxRows matrix whose every entry has a numerator and a distinct
 * denominator of maxEntryBits bits, at the largest degree a claim may give. Strings are refused
 * beyond it before anything else; each claim is then held to the bound of its own matrix.
 */
export const MAX_EIGENPOLYNOMIAL_COEFFICIENT_TEXT_LENGTH = ((): number => {
  const n = MATRIX_LIMITS.maxRows;
  const entryBits = MAX_ENTRY_DIGITS * LOG2_10;
  const worst = boundsOf({ n, log2Rho: Math.log2(n) + entryBits, log2P: n * n * entryBits, log2D: n * n * entryBits }, MAX_EIGENPOLYNOMIAL_COEFFICIENTS - 1);
  return Math.max(...worst.map((b) => b.maxTextLength));
})();

/** One coefficient as a request gives it: like a matrix entry, but as long as an eigenpolynomial's coefficient can be. */
export const EigenpolynomialCoefficientSchema = z
  .union([z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER), z.string().min(1).max(MAX_EIGENPOLYNOMIAL_COEFFICIENT_TEXT_LENGTH)])
  .describe('an integer (JSON number up to 2^53, or a decimal string) or a fraction "p/q"; as long as the coefficients of a polynomial whose roots are eigenvalues of the matrix can be')
  .meta({ id: 'polynomial_coefficient' });
