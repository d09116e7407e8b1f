/**
 * Recurrences of exact sequences: guessing (Berlekamp–Massey for C-finite, a kernel of the
 * linear system of unknown polynomial coefficients for P-recursive), extension by a recurrence,
 * the OEIS transforms and the rational generating function of a C-finite recurrence.
 *
 * Every guess is about the terms given: a recurrence found here fits them, nothing more.
 */
import { bigGcd, JacobianError, makeRational, RATIONALS, type Rational, type Recurrence } from '@jacobian/shared';
import { kernelFromRref, LinearAlgebra, primitiveIntegerVector, RATIONAL_BACKEND, type Checkpoint } from '../matrix/engine.js';

const Q = RATIONALS;
const NONE: Checkpoint = () => undefined;

/** The sequence scaled by the lcm of its denominators: integers with the same recurrences. */
function integerTerms(terms: readonly Rational[]): bigint[] {
  let l = 1n;
  for (const a of terms) if (a.den !== 1n) l = (l / bigGcd(l, a.den)) * a.den;
  return terms.map((a) => (a.num * l) / a.den);
}

/** The result of Berlekamp–Massey: c_1..c_L with a(n) = Σ c_i a(n-i) for every n ≥ L (positions in the given list). */
export interface MinimalRecurrence {
  coefficients: Rational[];
  /** L, the linear complexity of the given terms. */
  order: number;
}

/**
 * Berlekamp–Massey over Q, fraction-free: the connection polynomial C (C[0] ≠ 0) is kept with
 * integer coefficients; the update C ← b·C − d·x^m·B is BM's C − (d/b)·x^m·B times b, and C's
 * content is divided out after each step. The shortest linear recurrence of the given terms
 * (Massey 1969); it holds from position L on.
 */
export function berlekampMassey(terms: readonly Rational[], checkpoint: Checkpoint = NONE): MinimalRecurrence {
  const s = integerTerms(terms);
  let C: bigint[] = [1n];
  let B: bigint[] = [1n];
  let L = 0;
  let m = 1;
  let b = 1n;
  for (let n = 0; n < s.length; n++) {
    checkpoint();
    let d = 0n;
    for (let i = 0; i <= L && i < C.length; i++) d += (C[i] as bigint) * (s[n - i] as bigint);
    if (d === 0n) {
      m++;
      continue;
    }
    const next = C.map((c) => b * c);
    while (next.length < B.length + m) next.push(0n);
    for (let i = 0; i < B.length; i++) next[i + m] = (next[i + m] as bigint) - d * (B[i] as bigint);
    let g = 0n;
    for (const c of next) if (c !== 0n) g = bigGcd(g, c);
    const reduced = g > 1n ? next.map((c) => c / g) : next;
    if (2 * L <= n) {
      B = C;
      b = d;
      L = n + 1 - L;
      m = 1;
    } else {
      m++;
    }
    C = reduced;
  }
  const c0 = C[0] as bigint;
  const coefficients = Array.from({ length: L }, (_, i) => makeRational(-(C[i + 1] ?? 0n), c0));
  return { coefficients, order: L };
}

/** A P-recursive guess: the kernel of the system, and the recurrence chosen from it. */
export interface PRecursiveGuess {
  /** Basis of the solution space (each the flattened p_0..p_r, lowest degree first, primitive integers). */
  basis: Rational[][][];
  /** Equations (one per n from offset + r to the last index) and unknowns (r + 1)(d + 1). */
  equations: number;
  unknowns: number;
  rank: number;
}

/**
 * The recurrences Σ_{i=0..r} p_i(n) a(n-i) = 0 with deg p_i ≤ d that hold at every n from
 * offset + r to the last index: the right kernel of the (N − r) × (r+1)(d+1) matrix with entry
 * n^k a(n-i) in column i(d+1) + k, by the matrix engine's fraction-free RREF.
 */
export function guessPRecursive(terms: readonly Rational[], offset: number, order: number, degree: number, checkpoint: Checkpoint = NONE): PRecursiveGuess {
  const s = integerTerms(terms);
  const width = (order + 1) * (degree + 1);
  const rows: Rational[][] = [];
  for (let j = order; j < s.length; j++) {
    checkpoint();
    const n = BigInt(offset + j);
    const row: Rational[] = [];
    for (let i = 0; i <= order; i++) {
      let power = s[j - i] as bigint;
      for (let k = 0; k <= degree; k++) {
        row.push(Q.fromBigInt(power));
        power *= n;
      }
    }
    rows.push(row);
  }
  if (rows.length === 0) throw new JacobianError('INTERNAL', 'a P-recursive guess with no equations');
  const algebra = new LinearAlgebra(RATIONAL_BACKEND, checkpoint);
  const echelon = algebra.rref(rows);
  const kernel = kernelFromRref(Q, echelon, width).map((v) => primitiveIntegerVector(v));
  const basis = kernel.map((v) => Array.from({ length: order + 1 }, (_, i) => v.slice(i * (degree + 1), (i + 1) * (degree + 1))));
  return { basis, equations: rows.length, unknowns: width, rank: echelon.rank };
}

/** p(n) for p given lowest degree first. */
export function evalPoly(p: readonly Rational[], n: bigint): Rational {
  let acc = Q.zero;
  for (let k = p.length - 1; k >= 0; k--) acc = Q.add(Q.mul(acc, Q.fromBigInt(n)), p[k] as Rational);
  return acc;
}

/**
 * Extend terms a(offset..) by the recurrence until `count` terms in all. Terms at indices below
 * valid_from must be given. A P-recursive recurrence with p_0(n) = 0 at a needed n stops there
 * (rule leading-coefficient-vanishes).
 */
export function extendByRecurrence(terms: readonly Rational[], offset: number, rec: Recurrence, count: number, checkpoint: Checkpoint = NONE): Rational[] {
  const out = [...terms];
  const firstNew = offset + out.length;
  if (firstNew < rec.validFrom) {
    throw new JacobianError('INVALID_REQUEST', `the recurrence holds from n = ${rec.validFrom}; terms up to index ${rec.validFrom - 1} must be given, the last given is ${firstNew - 1}`, { path: ['payload', 'sequence', 'terms'], data: { rule: 'too-few-terms' } });
  }
  while (out.length < count) {
    checkpoint();
    const j = out.length;
    const n = offset + j;
    if (rec.kind === 'c-finite') {
      let acc = Q.zero;
      for (let i = 0; i < rec.coefficients.length; i++) acc = Q.add(acc, Q.mul(rec.coefficients[i] as Rational, out[j - 1 - i] as Rational));
      out.push(acc);
      continue;
    }
    const lead = evalPoly(rec.coefficients[0] as Rational[], BigInt(n));
    if (Q.isZero(lead)) {
      throw new JacobianError('INVALID_REQUEST', `p_0(${n}) = 0: the recurrence does not determine a(${n}); ${out.length - terms.length} terms were computed before it (give a(${n}) as a term to go past it)`, {
        path: ['payload', 'recurrence', 'coefficients', 0],
        data: { rule: 'leading-coefficient-vanishes', n },
      });
    }
    let acc = Q.zero;
    for (let i = 1; i <= rec.order; i++) acc = Q.add(acc, Q.mul(evalPoly(rec.coefficients[i] as Rational[], BigInt(n)), out[j - i] as Rational));
    out.push(Q.neg(Q.div(acc, lead)));
  }
  return out;
}

/** The transforms, with the OEIS definitions (Sloane and Plouffe; OEIS "transforms" page). */
export const TRANSFORMS = {
  binomial: 'b(n) = Σ_{k=0..n} C(n,k) a(k), terms read as a(0), a(1), …',
  inverse_binomial: 'b(n) = Σ_{k=0..n} (−1)^(n−k) C(n,k) a(k), terms read as a(0), a(1), …',
  partial_sums: 'b(n) = Σ_{k=0..n} a(k), terms read as a(0), a(1), …',
  differences: 'b(n) = a(n+1) − a(n): one term fewer',
  euler: '1 + Σ_{n≥1} b(n) x^n = Π_{k≥1} (1 − x^k)^(−a(k)), terms read as a(1), a(2), …; b(n) = (1/n) Σ_{k=1..n} c(k) b(n−k) with c(k) = Σ_{d|k} d·a(d), b(0) = 1',
  mobius: 'b(n) = Σ_{d|n} μ(n/d) a(d), terms read as a(1), a(2), …',
  inverse_mobius: 'b(n) = Σ_{d|n} a(d), terms read as a(1), a(2), …',
} as const;
export type TransformName = keyof typeof TRANSFORMS;

function mobiusTable(n: number): number[] {
  const mu = new Array<number>(n + 1).fill(1);
  const composite = new Array<boolean>(n + 1).fill(false);
  for (let p = 2; p <= n; p++) {
    if (composite[p]) continue;
    for (let k = p; k <= n; k += p) {
      if (k > p) composite[k] = true;
      mu[k] = -(mu[k] as number);
    }
    const sq = p * p;
    for (let k = sq; k <= n; k += sq) mu[k] = 0;
  }
  return mu;
}

/** Apply one transform exactly. */
export function transform(name: TransformName, a: readonly Rational[], checkpoint: Checkpoint = NONE): Rational[] {
  const N = a.length;
  switch (name) {
    case 'binomial':
    case 'inverse_binomial': {
      const out: Rational[] = [];
      for (let n = 0; n < N; n++) {
        checkpoint();
        let c = 1n;
        let acc = Q.zero;
        for (let k = 0; k <= n; k++) {
          const sign = name === 'inverse_binomial' && (n - k) % 2 === 1 ? -1n : 1n;
          acc = Q.add(acc, Q.mul(Q.fromBigInt(sign * c), a[k] as Rational));
          c = (c * BigInt(n - k)) / BigInt(k + 1);
        }
        out.push(acc);
      }
      return out;
    }
    case 'partial_sums': {
      let acc = Q.zero;
      return a.map((x) => (acc = Q.add(acc, x)));
    }
    case 'differences':
      return a.slice(1).map((x, i) => Q.sub(x, a[i] as Rational));
    case 'euler': {
      const c: Rational[] = [Q.zero];
      for (let k = 1; k <= N; k++) {
        let acc = Q.zero;
        for (let d = 1; d <= k; d++) if (k % d === 0) acc = Q.add(acc, Q.mul(Q.fromBigInt(BigInt(d)), a[d - 1] as Rational));
        c.push(acc);
      }
      const b: Rational[] = [Q.one];
      for (let n = 1; n <= N; n++) {
        checkpoint();
        let acc = Q.zero;
        for (let k = 1; k <= n; k++) acc = Q.add(acc, Q.mul(c[k] as Rational, b[n - k] as Rational));
        b.push(Q.div(acc, Q.fromBigInt(BigInt(n))));
      }
      return b.slice(1);
    }
    case 'mobius':
    case 'inverse_mobius': {
      const mu = mobiusTable(N);
      const out: Rational[] = [];
      for (let n = 1; n <= N; n++) {
        checkpoint();
        let acc = Q.zero;
        for (let d = 1; d <= n; d++) {
          if (n % d !== 0) continue;
          const weight = name === 'mobius' ? (mu[n / d] as number) : 1;
          if (weight !== 0) acc = Q.add(acc, Q.mul(Q.fromBigInt(BigInt(weight)), a[d - 1] as Rational));
        }
        out.push(acc);
      }
      return out;
    }
  }
}

/**
 * The generating function Σ_{n≥offset} a(n) x^n of a C-finite sequence as P(x)/Q(x):
 * Q(x) = 1 − c_1 x − … − c_d x^d, P(x) = (Σ a(n) x^n)·Q(x) truncated below degree valid_from
 * (higher coefficients vanish by the recurrence). Needs a(offset)..a(valid_from − 1).
 */
export function rationalGeneratingFunction(terms: readonly Rational[], offset: number, coefficients: readonly Rational[], validFrom: number): { numerator: Rational[]; denominator: Rational[] } {
  const denominator = [Q.one, ...coefficients.map((c) => Q.neg(c))];
  const series = (k: number): Rational => (k < offset ? Q.zero : (terms[k - offset] as Rational));
  const numerator: Rational[] = [];
  for (let k = 0; k < validFrom; k++) {
    let acc = Q.zero;
    for (let i = 0; i < denominator.length && i <= k; i++) acc = Q.add(acc, Q.mul(denominator[i] as Rational, series(k - i)));
    numerator.push(acc);
  }
  while (numerator.length > 0 && Q.isZero(numerator[numerator.length - 1] as Rational)) numerator.pop();
  return { numerator, denominator };
}

/** The first `count` coefficients of P(x)/Q(x) with Q(0) = 1: the series check of a generating function. */
export function seriesOfRational(numerator: readonly Rational[], denominator: readonly Rational[], count: number, checkpoint: Checkpoint = NONE): Rational[] {
  const q0 = denominator[0] as Rational;
  const out: Rational[] = [];
  for (let k = 0; k < count; k++) {
    checkpoint();
    let acc = numerator[k] ?? Q.zero;
    for (let i = 1; i < denominator.length && i <= k; i++) acc = Q.sub(acc, Q.mul(denominator[i] as Rational, out[k - i] as Rational));
    out.push(Q.div(acc, q0));
  }
  return out;
}

/** The first n in from..to (indices) where the given terms break the recurrence, or null. */
export function firstFailure(terms: readonly Rational[], offset: number, rec: Recurrence, from: number, to: number, checkpoint: Checkpoint = NONE): number | null {
  const at = (n: number): Rational => terms[n - offset] as Rational;
  for (let n = from; n <= to; n++) {
    checkpoint();
    let residual = Q.zero;
    if (rec.kind === 'c-finite') {
      residual = at(n);
      for (let i = 0; i < rec.coefficients.length; i++) residual = Q.sub(residual, Q.mul(rec.coefficients[i] as Rational, at(n - 1 - i)));
    } else {
      for (let i = 0; i <= rec.order; i++) residual = Q.add(residual, Q.mul(evalPoly(rec.coefficients[i] as Rational[], BigInt(n)), at(n - i)));
    }
    if (!Q.isZero(residual)) return n;
  }
  return null;
}
