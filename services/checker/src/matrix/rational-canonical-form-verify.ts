/**
 * The check behind matrix.rational_canonical_form.verify, written apart from the producer's
 * engine (no import from the runner). A claim that P⁻¹ A P = F = diag(C(d_1), …, C(d_k)) is the
 * rational canonical form of a square A (companion convention of FROBENIUS_CONVENTION: ones on
 * the subdiagonal, last column −c_0, …, −c_{m−1}) holds exactly when
 *
 * 1. every d_i is monic of degree ≥ 1, and their degrees add up to n (P is n×n);
 * 2. d_i divides d_{i+1} (exact polynomial division over the field);
 * 3. A P = P F, multiplied out exactly;
 * 4. P is invertible: full rank modulo a large prime (a lower bound on the rank over Q), or else
 *    by exact elimination over the field.
 *
 * Then P⁻¹ A P = F, and F, a direct sum of companion matrices whose polynomials divide each other,
 * has exactly d_1, …, d_k as invariant factors (each C(d) is cyclic with the single invariant
 * factor d), so F is the Frobenius form of A. No recomputation of the form.
 */
import { answerRing, fieldFromSpec, RationalCanonicalFormClaimSchema, RATIONALS, type Field, type Rational, type RationalCanonicalFormClaim } from '@jacobian/shared';
import { MatrixRejectionReason, type MatrixCheckResult } from './linear-algebra-verify.js';

type Checkpoint = () => void;

const RANK_PRIMES = [2305843009213693951n, 4611686018427387847n];

function reject(reason_code: MatrixRejectionReason, message: string, path: (string | number)[], witness: string | null = null): MatrixCheckResult {
  return { accepted: false, reason_code, message, path, witness };
}

function parse(F: Field<unknown>, text: string): unknown {
  const value = F.parseCanonical(text);
  if (value === null) throw new Error(`not a canonical element of ${F.name}: ${text.slice(0, 40)}`);
  return value;
}

/** The remainder of a by a monic b (both lowest degree first). */
function remainder(F: Field<unknown>, a: readonly unknown[], b: readonly unknown[]): unknown[] {
  const r = [...a];
  const db = b.length - 1;
  for (let k = r.length - 1; k >= db; k--) {
    const c = r[k];
    if (F.isZero(c)) continue;
    for (let j = 0; j <= db; j++) r[k - db + j] = F.sub(r[k - db + j], F.mul(c, b[j]));
  }
  return r.slice(0, db);
}

/** Whether the square matrix M has full rank over F (elimination on a copy). */
function fullRank(F: Field<unknown>, M: readonly (readonly unknown[])[], checkpoint: Checkpoint): boolean {
  const rows = M.map((row) => [...row]);
  const n = rows.length;
  for (let c = 0; c < n; c++) {
    const pivot = rows.findIndex((row, i) => i >= c && !F.isZero(row[c]));
    if (pivot < 0) return false;
    [rows[c], rows[pivot]] = [rows[pivot] as unknown[], rows[c] as unknown[]];
    const top = rows[c] as unknown[];
    const inverse = F.inv(top[c]);
    for (let i = c + 1; i < n; i++) {
      const row = rows[i] as unknown[];
      if (F.isZero(row[c])) continue;
      checkpoint();
      const factor = F.mul(row[c], inverse);
      for (let j = c; j < n; j++) row[j] = F.sub(row[j], F.mul(factor, top[j]));
    }
  }
  return true;
}

/** P invertible, with the method that showed it; or not. */
function invertible(F: Field<unknown>, P: unknown[][], checkpoint: Checkpoint): { holds: boolean; method: string } {
  if (F.kind === 'Q') {
    for (const p of RANK_PRIMES) {
      if (P.some((row) => row.some((a) => (a as Rational).den % p === 0n))) continue;
      const G = fieldFromSpec({ kind: 'GF', characteristic: p.toString() }) as Field<unknown>;
      if (fullRank(G, P.map((row) => row.map((a) => G.fromFraction((a as Rational).num, (a as Rational).den))), checkpoint)) return { holds: true, method: `P has full rank modulo the prime ${p}` };
    }
  }
  return { holds: fullRank(F, P, checkpoint), method: `elimination over ${F.name}` };
}

/** Check a stored rational canonical form claim (it must parse as canonical). */
export function checkRationalCanonicalFormClaim(raw: unknown, checkpoint: Checkpoint = () => undefined): MatrixCheckResult {
  const claim: RationalCanonicalFormClaim = RationalCanonicalFormClaimSchema.parse(raw);
  const F = (answerRing(claim.matrix.ring).field ?? RATIONALS) as Field<unknown>;
  const n = claim.matrix.nrows;
  if (claim.matrix.ncols !== n) return reject(MatrixRejectionReason.SHAPE, `A is ${n}×${claim.matrix.ncols}, not square`, ['matrix']);
  const A = claim.matrix.rows.map((row) => row.map((t) => parse(F, t)));
  const d = claim.invariant_factors.map((p) => p.map((t) => parse(F, t)));
  for (const [i, p] of d.entries()) {
    if (p.length < 2) return reject(MatrixRejectionReason.SHAPE, `d_${i + 1} is a constant; invariant factors have degree ≥ 1`, ['invariant_factors', i]);
    if (!F.isOne(p[p.length - 1])) return reject(MatrixRejectionReason.NOT_MONIC, `the leading coefficient of d_${i + 1} is ${F.format(p[p.length - 1]).slice(0, 80)}, not 1`, ['invariant_factors', i, p.length - 1]);
  }
  const total = d.reduce((s, p) => s + p.length - 1, 0);
  if (total !== n) return reject(MatrixRejectionReason.SHAPE, `the degrees of the invariant factors add up to ${total}, not n = ${n}`, ['invariant_factors']);
  if (claim.transform.length !== n || claim.transform.some((row) => row.length !== n)) return reject(MatrixRejectionReason.SHAPE, `P must be ${n}×${n}`, ['transform']);
  for (let i = 0; i + 1 < d.length; i++) {
    checkpoint();
    const r = remainder(F, d[i + 1] as unknown[], d[i] as unknown[]);
    if (r.some((c) => !F.isZero(c))) return reject(MatrixRejectionReason.NOT_DIVISIBLE, `d_${i + 1} does not divide d_${i + 2}`, ['invariant_factors', i + 1]);
  }
  // F: companion blocks along the diagonal.
  const form: unknown[][] = Array.from({ length: n }, () => Array.from({ length: n }, () => F.zero));
  let offset = 0;
  for (const p of d) {
    const m = p.length - 1;
    for (let i = 0; i < m; i++) {
      if (i > 0) (form[offset + i] as unknown[])[offset + i - 1] = F.one;
      (form[offset + i] as unknown[])[offset + m - 1] = F.neg(p[i]);
    }
    offset += m;
  }
  const P = claim.transform.map((row) => row.map((t) => parse(F, t)));
  // A P = P F, entry by entry.
  for (let i = 0; i < n; i++) {
    checkpoint();
    const a = A[i] as unknown[];
    const p = P[i] as unknown[];
    for (let j = 0; j < n; j++) {
      let left = F.zero;
      let right = F.zero;
      for (let k = 0; k < n; k++) {
        left = F.add(left, F.mul(a[k], (P[k] as unknown[])[j]));
        right = F.add(right, F.mul(p[k], (form[k] as unknown[])[j]));
      }
      if (!F.equals(left, right)) return reject(MatrixRejectionReason.NOT_SIMILAR, `A P ≠ P F: entry (${i}, ${j}) is ${F.format(left).slice(0, 60)} in A P and ${F.format(right).slice(0, 60)} in P F`, ['transform'], `entry (${i}, ${j})`);
    }
  }
  const inverse = invertible(F, P, checkpoint);
  if (!inverse.holds) return reject(MatrixRejectionReason.SINGULAR_TRANSFORM, `P is singular (${inverse.method}), so A P = P F shows nothing`, ['transform']);
  return {
    accepted: true,
    message: `the ${d.length} invariant factors are monic, each divides the next and their degrees add up to ${n}; A P = P F exactly over ${F.name} and P is invertible (${inverse.method}): P⁻¹ A P is the rational canonical form`,
  };
}
