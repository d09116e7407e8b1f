/**
 * The check behind matrix.minimal_polynomial.verify, written apart from the producer's engine (no
 * import from the runner). A claim that p = c_0 + c_1 x + … + c_d x^d is the minimal polynomial
 * of a square A holds exactly when
 *
 * 1. p is monic (c_d = 1);
 * 2. p(A) = 0, multiplied out exactly column by column (p(A) e_j by Horner's rule; over Q in
 *    integers, A = B/δ and each column over one common denominator);
 * 3. p is minimal. Since p(A) = 0, the minimal polynomial divides p, so p is minimal exactly when
 *    I, A, …, A^{d−1} are linearly independent (deg of the minimal polynomial ≥ d). No factorizer
 *    is needed: the checker certifies the degree by its own method, the Krylov lower bound. If for
 *    some vector v the vectors v, A v, …, A^{d−1} v are independent, every non-zero polynomial of
 *    degree < d leaves A^k v ≠ 0, so deg ≥ d. The vectors v are fixed pseudo-random; over Q their
 *    independence is shown modulo large primes (a rank modulo p is a lower bound on the rank over
 *    Q). When no vector reaches d (a derogatory A, or an unlucky small field), the checker
 *    decides exactly: it computes the rank of I, A, …, A^{d−1} as vectors of length n² over the
 *    field, and rejects when it is below d.
 */
import { answerRing, fieldFromSpec, MinimalPolynomialClaimSchema, RATIONALS, type Field, type MinimalPolynomialClaim, type Rational } from '@jacobian/shared';
import type { MatrixCheckResult } from './linear-algebra-verify.js';
import { MatrixRejectionReason } from './linear-algebra-verify.js';

type Checkpoint = () => void;

const KRYLOV_PRIMES = [2305843009213693951n, 4611686018427387847n];
const KRYLOV_TRIES = 3;

function reject(reason_code: MatrixRejectionReason, message: string, path: (string | number)[], witness: string | null = null): MatrixCheckResult {
  return { accepted: false, reason_code, message, path, witness };
}

function parse(F: Field<unknown>, text: string): unknown {
  const value = F.parseCanonical(text);
  if (value === null) throw new Error(`not a canonical element of ${F.name}: ${text.slice(0, 40)}`);
  return value;
}

function times(F: Field<unknown>, A: readonly (readonly unknown[])[], v: readonly unknown[]): unknown[] {
  return A.map((row) => {
    let s = F.zero;
    for (let j = 0; j < row.length; j++) s = F.add(s, F.mul(row[j], v[j]));
    return s;
  });
}

/** Rank of a list of vectors, by elimination on a copy; stops early once `target` is reached. */
function rankUpTo(F: Field<unknown>, vectors: readonly (readonly unknown[])[], target: number, checkpoint: Checkpoint): number {
  const M = vectors.map((v) => [...v]);
  const width = M[0]?.length ?? 0;
  let r = 0;
  for (let c = 0; c < width && r < M.length && r < target; c++) {
    const pivot = M.findIndex((row, i) => i >= r && !F.isZero(row[c]));
    if (pivot < 0) continue;
    [M[r], M[pivot]] = [M[pivot] as unknown[], M[r] as unknown[]];
    const top = M[r] as unknown[];
    const inverse = F.inv(top[c]);
    for (let i = r + 1; i < M.length; i++) {
      const row = M[i] as unknown[];
      if (F.isZero(row[c])) continue;
      checkpoint();
      const factor = F.mul(row[c], inverse);
      for (let j = c; j < width; j++) row[j] = F.sub(row[j], F.mul(factor, top[j]));
    }
    r++;
  }
  return r;
}

/** A fixed pseudo-random vector (xorshift), entries in [−50, 50], as elements of F. */
function pseudoRandomVector(F: Field<unknown>, n: number, seed: number): unknown[] {
  let state = (seed * 2654435761 + 12345) >>> 0 || 1;
  return Array.from({ length: n }, () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return F.fromBigInt(BigInt((state % 101) - 50));
  });
}

/** Whether v, A v, …, A^{d−1} v are independent over the field F of A. */
function krylovIndependent(F: Field<unknown>, A: readonly (readonly unknown[])[], v: readonly unknown[], d: number, checkpoint: Checkpoint): boolean {
  const vectors: unknown[][] = [];
  let w = [...v];
  for (let k = 0; k < d; k++) {
    checkpoint();
    vectors.push(w);
    if (k + 1 < d) w = times(F, A, w);
  }
  return rankUpTo(F, vectors, d, checkpoint) >= d;
}

/** A rational matrix modulo p, or null when a denominator is divisible by p. */
function modP(A: readonly (readonly Rational[])[], p: bigint): { F: Field<unknown>; A: unknown[][] } | null {
  const F = fieldFromSpec({ kind: 'GF', characteristic: p.toString() }) as Field<unknown>;
  const out: unknown[][] = [];
  for (const row of A) {
    if (row.some((a) => a.den % p === 0n)) return null;
    out.push(row.map((a) => F.fromFraction(a.num, a.den)));
  }
  return { F, A: out };
}

/**
 * deg(minimal polynomial) ≥ d, or the exact rank of I, A, …, A^{d−1} when it is not; with the
 * method that decided it.
 */
function minimalDegreeAtLeast(F: Field<unknown>, A: unknown[][], d: number, checkpoint: Checkpoint): { holds: true; method: string } | { holds: false; rank: number; method: string } {
  const n = A.length;
  if (d <= 1) return { holds: true, method: 'a monic polynomial of degree ≤ 1 killing A is minimal, as no non-zero constant kills A' };
  for (let seed = 1; seed <= KRYLOV_TRIES; seed++) {
    if (F.kind === 'Q') {
      for (const p of KRYLOV_PRIMES) {
        const reduced = modP(A as Rational[][], p);
        if (reduced === null) continue;
        if (krylovIndependent(reduced.F, reduced.A, pseudoRandomVector(reduced.F, n, seed), d, checkpoint)) {
          return { holds: true, method: `Krylov lower bound: v, A v, …, A^${d - 1} v are independent modulo the prime ${p} for a fixed integer vector v` };
        }
      }
    } else if (krylovIndependent(F, A, pseudoRandomVector(F, n, seed), d, checkpoint)) {
      return { holds: true, method: `Krylov lower bound: v, A v, …, A^${d - 1} v are independent over ${F.name} for a fixed vector v` };
    }
  }
  // Exactly: the rank of the powers I, A, …, A^{d−1} as vectors of length n².
  const powers: unknown[][] = [];
  let power: unknown[][] = A.map((_, i) => A.map((__, j) => (i === j ? F.one : F.zero)));
  for (let k = 0; k < d; k++) {
    checkpoint();
    powers.push(power.flat());
    if (k + 1 < d) {
      // power · A, column by column of the transpose: rows of power times A.
      const columns = A[0]?.map((_, j) => A.map((row) => row[j])) ?? [];
      power = power.map((row) => columns.map((column) => times(F, [row], column)[0]));
    }
  }
  const rank = rankUpTo(F, powers, d, checkpoint);
  const method = `exact rank of I, A, …, A^${d - 1} as vectors over ${F.name}`;
  return rank >= d ? { holds: true, method } : { holds: false, rank, method };
}

/** A non-zero entry of p(A), or null when p(A) = 0: column j is p(A) e_j by Horner's rule, in F's arithmetic. */
function nonZeroEntry(F: Field<unknown>, A: unknown[][], c: unknown[], checkpoint: Checkpoint): { i: number; j: number; value: string } | null {
  const d = c.length - 1;
  for (let j = 0; j < A.length; j++) {
    let w = A.map(() => F.zero);
    for (let k = d; k >= 0; k--) {
      checkpoint();
      w = times(F, A, w);
      w[j] = F.add(w[j], c[k]);
    }
    const i = w.findIndex((x) => !F.isZero(x));
    if (i >= 0) return { i, j, value: F.format(w[i]) };
  }
  return null;
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/**
 * The same over Q, in integers: A = B/δ with B integral (δ the lcm of A's denominators), and each
 * Horner vector w held as W/den with W integral and one common denominator, so that a step
 * w ← A w + c_k e_j is one integer matrix–vector product B W (over δ·den) and a handful of gcds,
 * where rational arithmetic would take gcds for every product. Exactly the same values: p(A) = 0
 * is decided exactly, not modulo anything. For integer A and p, δ = den = 1 throughout.
 */
function nonZeroEntryOverQ(A: Rational[][], c: Rational[], checkpoint: Checkpoint): { i: number; j: number; value: string } | null {
  const n = A.length;
  const d = c.length - 1;
  let delta = 1n;
  for (const row of A) for (const a of row) if (a.den !== 1n) delta = (delta / gcd(delta, a.den)) * a.den;
  const B = A.map((row) => row.map((a) => (a.num * delta) / a.den));
  for (let j = 0; j < n; j++) {
    let W: bigint[] = Array.from({ length: n }, () => 0n);
    let den = 1n;
    for (let k = d; k >= 0; k--) {
      checkpoint();
      // A w = B W / (δ·den).
      W = B.map((row) => {
        let s = 0n;
        for (let t = 0; t < n; t++) s += (row[t] as bigint) * (W[t] as bigint);
        return s;
      });
      den *= delta;
      // + c_k e_j, over the common denominator lcm(den, c_k.den).
      const ck = c[k] as Rational;
      const g = gcd(den, ck.den);
      const lift = ck.den / g;
      if (lift !== 1n) W = W.map((x) => x * lift);
      den *= lift;
      W[j] = (W[j] as bigint) + ck.num * (den / ck.den);
      if (den !== 1n) {
        let common = den;
        for (const x of W) {
          if (common === 1n) break;
          common = gcd(common, x);
        }
        if (common !== 1n) {
          W = W.map((x) => x / common);
          den /= common;
        }
      }
    }
    const i = W.findIndex((x) => x !== 0n);
    if (i >= 0) {
      const g = gcd(W[i] as bigint, den);
      const [num, q] = [(W[i] as bigint) / g, den / g];
      return { i, j, value: q === 1n ? num.toString() : `${num}/${q}` };
    }
  }
  return null;
}

/** Check a stored minimal polynomial claim (it must parse as canonical). */
export function checkMinimalPolynomialClaim(raw: unknown, checkpoint: Checkpoint = () => undefined): MatrixCheckResult {
  const claim: MinimalPolynomialClaim = MinimalPolynomialClaimSchema.parse(raw);
  const F = (answerRing(claim.matrix.ring).field ?? RATIONALS) as Field<unknown>;
  const n = claim.matrix.nrows;
  if (claim.matrix.ncols !== n) return reject(MatrixRejectionReason.SHAPE, `A is ${n}×${claim.matrix.ncols}, not square`, ['matrix']);
  const A = claim.matrix.rows.map((row) => row.map((t) => parse(F, t)));
  const c = claim.coefficients.map((t) => parse(F, t));
  const d = c.length - 1;
  const lead = c[d];
  if (!F.isOne(lead)) {
    return reject(MatrixRejectionReason.NOT_MONIC, `the leading coefficient c_${d} is ${F.format(lead).slice(0, 80)}, not 1: a minimal polynomial is monic (a zero leading coefficient is not allowed either)`, ['coefficients', d]);
  }
  if (d > n) return reject(MatrixRejectionReason.NOT_MINIMAL, `degree ${d} exceeds n = ${n}; the characteristic polynomial, of degree n, already kills A (Cayley–Hamilton)`, ['coefficients']);
  // p(A) e_j for every j: the columns of p(A).
  const nonZero = F.kind === 'Q' ? nonZeroEntryOverQ(A as Rational[][], c as Rational[], checkpoint) : nonZeroEntry(F, A, c, checkpoint);
  if (nonZero !== null) {
    const { i, j, value } = nonZero;
    return reject(MatrixRejectionReason.DOES_NOT_ANNIHILATE, `p(A) ≠ 0: its entry (${i}, ${j}) is ${value.slice(0, 80)}`, ['coefficients'], `entry (${i}, ${j}) of p(A)`);
  }
  const minimal = minimalDegreeAtLeast(F, A, d, checkpoint);
  if (!minimal.holds) {
    return reject(
      MatrixRejectionReason.NOT_MINIMAL,
      `p kills A but is not minimal: I, A, …, A^${d - 1} span only ${minimal.rank} dimensions, so the minimal polynomial has degree ${minimal.rank} < ${d} (${minimal.method})`,
      ['coefficients'],
      `minimal degree ${minimal.rank}`,
    );
  }
  return {
    accepted: true,
    message: `p is monic of degree ${d}, p(A) = 0 exactly over ${F.name}, and no polynomial of lower degree kills A (${minimal.method}): p is the minimal polynomial`,
  };
}
