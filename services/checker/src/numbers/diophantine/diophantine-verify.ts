/**
 * The checks behind diophantine.claim.verify, written apart from the producers (no import from
 * the runner). Each claim kind is decided with this module's own arithmetic:
 *
 *  - PELL: x² − D y² = 1 exactly, and fundamentality re-derived from the period of √D, computed
 *    here by its own recurrence (mₖ, dₖ, aₖ): the least solution is the convergent at the end of
 *    the first period (or of the second, when the period is odd); −1 is solvable iff the period is
 *    odd, its least solution at the end of the first period.
 *  - FORM_REDUCTION: det M = 1, f·M = the reduced form exactly, and the reduced form satisfies the
 *    definition (definite: |b| ≤ a ≤ c, b ≥ 0 on the boundary; indefinite: Gauss).
 *  - FORM_EQUIVALENCE: equivalent: det T = 1 and f·T = g. Not equivalent: a different
 *    discriminant, or different reduced forms by this module's own reduction (definite), or g's
 *    reduced form off the cycle of f's reduced forms under this module's own rho step (indefinite).
 *  - CLASS_NUMBER: h re-counted by this module's own enumeration of primitive reduced forms, by b
 *    and then the divisors a of (b² − D)/4 (the producer enumerates by a, then b).
 *  - CLASS_GROUP: h as for CLASS_NUMBER; d₁ | d₂ | …, ∏ dᵢ = h; and the products ∏ gᵢ^{eᵢ}
 *    (0 ≤ eᵢ < dᵢ), composed by this module's own Dirichlet formula (B from the united forms, not
 *    the producer's Shanks algorithm) and reduced by its own reduction, are h distinct classes
 *    while each gᵢ^{dᵢ} is the principal form: the map ⊕ Z/dᵢ → Cl(D) is a bijective homomorphism.
 *  - INTEGER_SYSTEM_SOLVED: A x₀ = b, A k = 0 for each row k of K, K W = I (so the rows of K are
 *    independent and span a saturated lattice: any integer v = c K has c = v W integral), and the
 *    number of rows of K is n − rank A by this module's own fraction-free elimination: K is then a
 *    basis of ker A ∩ Z^n, and x₀ + Z-span(K) is every integer solution.
 *  - INTEGER_SYSTEM_NONE: y A ∈ Z^n and y·b ∉ Z, in exact rationals.
 */
import { DiophantineClaimSchema, isqrt, JacobianError, type DiophantineClaim } from '@jacobian/shared';

export const DiophantineRejectionReason = {
  /** x² − D y² ≠ ±1, or a transform's image is not the claimed form, or y A / y·b fail. */
  IDENTITY_FAILS: 'IDENTITY_FAILS',
  /** A solution is not the least one (the period says another). */
  NOT_FUNDAMENTAL: 'NOT_FUNDAMENTAL',
  /** The claim about the solvability of x² − D y² = −1 contradicts the parity of the period. */
  WRONG_SOLVABILITY: 'WRONG_SOLVABILITY',
  /** det M ≠ 1. */
  NOT_SL2: 'NOT_SL2',
  /** The claimed reduced form is not reduced. */
  NOT_REDUCED: 'NOT_REDUCED',
  /** The claimed non-equivalence is false (same reduced form), or the discriminants differ for a claimed equivalence. */
  WRONG_EQUIVALENCE: 'WRONG_EQUIVALENCE',
  /** The class number is not the number of reduced forms. */
  WRONG_CLASS_NUMBER: 'WRONG_CLASS_NUMBER',
  /** Dimensions do not match. */
  SHAPE: 'SHAPE',
} as const;
export type DiophantineRejectionReason = (typeof DiophantineRejectionReason)[keyof typeof DiophantineRejectionReason];

export type DiophantineCheckResult =
  | { accepted: true; message: string }
  | { accepted: false; reason_code: DiophantineRejectionReason; message: string; path: (string | number)[]; witness: string | null };

type Checkpoint = () => void;

/** Limits of what this checker re-derives within a run. */
export const CHECKER_LIMITS = { maxPeriod: 2_000_000, maxClassNumberAbsD: 1_000_000_000n } as const;

const reject = (reason_code: DiophantineRejectionReason, message: string, path: (string | number)[], witness: string | null = null): DiophantineCheckResult => ({ accepted: false, reason_code, message, path, witness });

type F = [bigint, bigint, bigint];
type M = [[bigint, bigint], [bigint, bigint]];
const toF = (t: readonly string[]): F => [BigInt(t[0] as string), BigInt(t[1] as string), BigInt(t[2] as string)];
const toM = (t: readonly (readonly string[])[]): M => [
  [BigInt(t[0]?.[0] as string), BigInt(t[0]?.[1] as string)],
  [BigInt(t[1]?.[0] as string), BigInt(t[1]?.[1] as string)],
];
/** f(p x + q y, r x + s y) expanded. */
function image(f: F, m: M): F {
  const [a, b, c] = f;
  const [[p, q], [r, s]] = m;
  return [a * p * p + b * p * r + c * r * r, 2n * a * p * q + b * (p * s + q * r) + 2n * c * r * s, a * q * q + b * q * s + c * s * s];
}
const disc = (f: F): bigint => f[1] * f[1] - 4n * f[0] * f[2];
const eq = (f: F, g: F): boolean => f[0] === g[0] && f[1] === g[1] && f[2] === g[2];
const fmt = (f: F): string => `(${f.join(', ')})`;
const absB = (x: bigint): bigint => (x < 0n ? -x : x);

function definiteReduced(f: F): boolean {
  const [a, b, c] = f;
  return a > 0n && absB(b) <= a && a <= c && (b >= 0n || (-b !== a && a !== c));
}

function indefiniteReduced(f: F): boolean {
  const [a, b] = f;
  const D = disc(f);
  // 0 < b < √D and √D − b < 2|a| < √D + b, squared where both sides are non-negative.
  const twoA = 2n * absB(a);
  if (b <= 0n || b * b >= D || a === 0n) return false;
  const lower = twoA + b > 0n && (twoA + b) * (twoA + b) > D;
  const upper = twoA <= b || (twoA - b) * (twoA - b) < D;
  return lower && upper;
}

/** This module's own reduction of a positive definite form: normalize b, swap while a > c. */
function reducePositive(f: F, checkpoint: Checkpoint): F {
  let [a, b, c] = f;
  for (;;) {
    checkpoint();
    // b into (−a, a]: with k = round-down of (a − b)/2a, b + 2ak ∈ (−a, a].
    const twoA = 2n * a;
    let k = (a - b) / twoA;
    if ((a - b) % twoA !== 0n && a - b < 0n) k -= 1n;
    if (k !== 0n) {
      c = a * k * k + b * k + c;
      b = b + twoA * k;
    }
    if (a > c) {
      [a, b, c] = [c, -b, a];
      continue;
    }
    if (a === c && b < 0n) b = -b;
    return [a, b, c];
  }
}

/**
 * One step (a, b, c) → (c, b', a') of this module's indefinite reduction, through the SL₂(Z) map
 * (x, y) → (−y, x + t y): b' = −b + 2ct ≡ −b (mod 2c), chosen in (√D − 2|c|, √D) when |c| < √D and
 * in (−|c|, |c|] otherwise; a' = (b'² − D)/4c.
 */
function rhoStep(f: F, D: bigint, checkpoint: Checkpoint): F {
  checkpoint();
  const [, b, c] = f;
  const s = isqrt(D);
  const m = 2n * absB(c);
  const residue = (((-b) % m) + m) % m;
  let r: bigint;
  if (absB(c) <= s) {
    // The largest r ≤ s with r ≡ −b (mod 2|c|).
    r = s - ((((s - residue) % m) + m) % m);
  } else {
    // r ≡ −b in (−|c|, |c|].
    r = residue > absB(c) ? residue - m : residue;
  }
  return [c, r, (r * r - D) / (4n * c)];
}

function reduceIndefinite(f: F, checkpoint: Checkpoint): F {
  const D = disc(f);
  let g = f;
  while (!indefiniteReduced(g)) g = rhoStep(g, D, checkpoint);
  return g;
}

/** The period of √D by the recurrence m ← d a − m, d ← (D − m²)/d, a ← ⌊(a₀ + m)/d⌋. */
function periodOfRoot(D: bigint, checkpoint: Checkpoint): { a0: bigint; terms: bigint[] } | null {
  const a0 = isqrt(D);
  const terms: bigint[] = [];
  let m = 0n;
  let d = 1n;
  let a = a0;
  do {
    if (terms.length > CHECKER_LIMITS.maxPeriod) return null;
    checkpoint();
    m = d * a - m;
    d = (D - m * m) / d;
    a = (a0 + m) / d;
    terms.push(a);
  } while (d !== 1n);
  return { a0, terms };
}

function checkPell(claim: Extract<DiophantineClaim, { kind: 'PELL' }>, checkpoint: Checkpoint): DiophantineCheckResult {
  const D = BigInt(claim.D);
  const [x, y] = [BigInt(claim.plus.x), BigInt(claim.plus.y)];
  if (D <= 0n || isqrt(D) ** 2n === D) return reject('IDENTITY_FAILS', `D = ${D} is not a positive non-square`, ['D']);
  if (x <= 0n || y <= 0n || x * x - D * y * y !== 1n) return reject('IDENTITY_FAILS', 'x² − D y² ≠ 1 (or x, y not positive)', ['plus']);
  if (claim.minus !== null) {
    const [u, v] = [BigInt(claim.minus.x), BigInt(claim.minus.y)];
    if (u <= 0n || v <= 0n || u * u - D * v * v !== -1n) return reject('IDENTITY_FAILS', 'x² − D y² ≠ −1 (or x, y not positive)', ['minus']);
  }
  const period = periodOfRoot(D, checkpoint);
  if (period === null) throw new JacobianError('OUTPUT_LIMIT_EXCEEDED', `the period of √D is longer than ${CHECKER_LIMITS.maxPeriod} terms; no verdict was reached`);
  const l = period.terms.length;
  // Convergents through index 2l − 1: h_k = a_k h_{k−1} + h_{k−2}.
  let [h1, h2] = [period.a0, 1n];
  let [k1, k2] = [1n, 0n];
  let atL: { x: bigint; y: bigint } | null = l === 1 ? { x: h1, y: k1 } : null;
  const end = l % 2 === 0 ? l : 2 * l;
  for (let i = 1; i < end; i++) {
    checkpoint();
    const a = period.terms[(i - 1) % l] as bigint;
    [h1, h2] = [a * h1 + h2, h1];
    [k1, k2] = [a * k1 + k2, k1];
    if (i === l - 1) atL = { x: h1, y: k1 };
  }
  if (h1 !== x || k1 !== y) return reject('NOT_FUNDAMENTAL', `the least solution of x² − D y² = 1 is the convergent p_${end - 1}/q_${end - 1} of the period (length ${l}); the claimed one is not it`, ['plus'], `${h1}`.slice(0, 200));
  if (l % 2 === 0) {
    if (claim.minus !== null) return reject('WRONG_SOLVABILITY', `the period of √D has even length ${l}: x² − D y² = −1 has no solution`, ['minus']);
  } else {
    if (claim.minus === null) return reject('WRONG_SOLVABILITY', `the period of √D has odd length ${l}: x² − D y² = −1 is solvable`, ['minus']);
    if (atL === null || atL.x !== BigInt(claim.minus.x) || atL.y !== BigInt(claim.minus.y)) return reject('NOT_FUNDAMENTAL', `the least solution of x² − D y² = −1 is the convergent p_${l - 1}/q_${l - 1}; the claimed one is not it`, ['minus']);
  }
  return { accepted: true, message: `x² − ${D} y² = 1 holds and (x, y) is the convergent at the end of the ${l % 2 === 0 ? 'first' : 'second'} period of √D (period length ${l}, re-derived); −1 is ${l % 2 === 0 ? 'unsolvable (even period)' : 'solvable with the claimed least solution (odd period)'}` };
}

function checkReduction(claim: Extract<DiophantineClaim, { kind: 'FORM_REDUCTION' }>): DiophantineCheckResult {
  const f = toF(claim.form);
  const g = toF(claim.reduced);
  const m = toM(claim.transform);
  if (m[0][0] * m[1][1] - m[0][1] * m[1][0] !== 1n) return reject('NOT_SL2', 'det M ≠ 1', ['transform']);
  if (!eq(image(f, m), g)) return reject('IDENTITY_FAILS', `f·M = ${fmt(image(f, m))}, not the claimed ${fmt(g)}`, ['reduced']);
  const D = disc(f);
  const reduced = D < 0n ? (g[0] > 0n ? definiteReduced(g) : definiteReduced([-g[0], -g[1], -g[2]])) : indefiniteReduced(g);
  if (!reduced) return reject('NOT_REDUCED', `${fmt(g)} is not reduced`, ['reduced']);
  return { accepted: true, message: `det M = 1, f·M = ${fmt(g)}, and ${fmt(g)} is reduced (${D < 0n ? 'definite' : 'indefinite, Gauss'})` };
}

function checkEquivalence(claim: Extract<DiophantineClaim, { kind: 'FORM_EQUIVALENCE' }>, checkpoint: Checkpoint): DiophantineCheckResult {
  const f = toF(claim.f);
  const g = toF(claim.g);
  if (claim.equivalent) {
    if (claim.transform === null) throw new JacobianError('INVALID_REQUEST', 'an equivalence claim needs its transform T (rule transform-required)', { data: { rule: 'transform-required' } });
    const m = toM(claim.transform);
    if (m[0][0] * m[1][1] - m[0][1] * m[1][0] !== 1n) return reject('NOT_SL2', 'det T ≠ 1', ['transform']);
    if (!eq(image(f, m), g)) return reject('IDENTITY_FAILS', `f·T = ${fmt(image(f, m))}, not g`, ['transform']);
    return { accepted: true, message: 'det T = 1 and f·T = g exactly' };
  }
  if (disc(f) !== disc(g)) return { accepted: true, message: `the discriminants ${disc(f)} and ${disc(g)} differ` };
  if (disc(f) > 0n) {
    const D = disc(f);
    if (isqrt(D) ** 2n === D) throw new JacobianError('INVALID_REQUEST', 'a square discriminant: the forms factor over Q (rule non-square-discriminant)', { data: { rule: 'non-square-discriminant' } });
    const rf = reduceIndefinite(f, checkpoint);
    const rg = reduceIndefinite(g, checkpoint);
    let current = rf;
    for (let steps = 0; ; steps++) {
      if (eq(current, rg)) return reject('WRONG_EQUIVALENCE', `${fmt(rg)}, the reduced form of g, lies on the cycle of f's reduced forms: they are equivalent`, ['equivalent']);
      if (steps > CHECKER_LIMITS.maxPeriod) throw new JacobianError('OUTPUT_LIMIT_EXCEEDED', `the cycle of reduced forms is longer than ${CHECKER_LIMITS.maxPeriod}; no verdict was reached`);
      current = rhoStep(current, D, checkpoint);
      if (eq(current, rf)) break;
    }
    return { accepted: true, message: `g's reduced form ${fmt(rg)} is not on the cycle of reduced forms of f, and the reduced forms of one indefinite class make up exactly one cycle` };
  }
  if ((f[0] > 0n) !== (g[0] > 0n)) return { accepted: true, message: 'one form is positive definite and the other negative definite' };
  const sign = f[0] > 0n ? 1n : -1n;
  const rf = reducePositive([sign * f[0], sign * f[1], sign * f[2]], checkpoint);
  const rg = reducePositive([sign * g[0], sign * g[1], sign * g[2]], checkpoint);
  if (eq(rf, rg)) return reject('WRONG_EQUIVALENCE', `both reduce to ${fmt(rf)}: they are equivalent`, ['equivalent']);
  return { accepted: true, message: `their reduced forms ${fmt(rf)} and ${fmt(rg)} differ, and each definite class has one reduced form` };
}

/** h(D) for D < 0 by b ≥ 0, then a | (b² − D)/4 with b ≤ a ≤ c; (a, ±b, c) counted twice unless b = 0, a = b or a = c. */
export function countReducedForms(D: bigint, checkpoint: Checkpoint): bigint {
  const N = -D;
  let h = 0n;
  const gcd = (x: bigint, y: bigint): bigint => {
    while (y !== 0n) [x, y] = [y, x % y];
    return x < 0n ? -x : x;
  };
  for (let b = N % 2n; 3n * b * b <= N; b += 2n) {
    const ac = (b * b + N) / 4n;
    for (let a = b === 0n ? 1n : b; a * a <= ac; a++) {
      checkpoint();
      if (ac % a !== 0n) continue;
      const c = ac / a;
      if (gcd(gcd(a, b), c) !== 1n) continue;
      h += b === 0n || a === b || a === c ? 1n : 2n;
    }
  }
  return h;
}

/**
 * Dirichlet composition of primitive positive definite forms of one discriminant: with
 * e = gcd(a₁, a₂, (b₁ + b₂)/2) = u a₁ + v a₂ + w (b₁ + b₂)/2, the composite is
 * (a₁a₂/e², B, ·) with B = (u a₁ b₂ + v a₂ b₁ + w (b₁b₂ + D)/2)/e, then reduced.
 */
function dirichletCompose(f: F, g: F, D: bigint, checkpoint: Checkpoint): F {
  const [a1, b1] = f;
  const [a2, b2] = g;
  const m = (b1 + b2) / 2n;
  const bezout = (x: bigint, y: bigint): [bigint, bigint, bigint] => {
    let [r0, r1, s0, s1, t0, t1] = [x, y, 1n, 0n, 0n, 1n];
    while (r1 !== 0n) {
      const q = r0 / r1;
      [r0, r1, s0, s1, t0, t1] = [r1, r0 - q * r1, s1, s0 - q * s1, t1, t0 - q * t1];
    }
    return r0 < 0n ? [-r0, -s0, -t0] : [r0, s0, t0];
  };
  const [e1, p, q] = bezout(a1, a2);
  const [e, r, w] = bezout(e1, m);
  const [u, v] = [p * r, q * r];
  const A = (a1 * a2) / (e * e);
  let B = (u * a1 * b2 + v * a2 * b1 + (w * (b1 * b2 + D)) / 2n) / e;
  const twoA = 2n * A;
  B = ((B % twoA) + twoA) % twoA;
  return reducePositive([A, B, (B * B - D) / (4n * A)], checkpoint);
}

function checkClassGroup(claim: Extract<DiophantineClaim, { kind: 'CLASS_GROUP' }>, checkpoint: Checkpoint): DiophantineCheckResult {
  const counted = checkClassNumber({ kind: 'CLASS_NUMBER', D: claim.D, class_number: claim.class_number }, checkpoint);
  if (!counted.accepted) return counted;
  const D = BigInt(claim.D);
  const h = BigInt(claim.class_number);
  const d = claim.invariants.map(BigInt);
  const gens = claim.generators.map(toF);
  if (d.length !== gens.length) return reject('SHAPE', 'one generator per invariant', ['generators']);
  for (const [i, di] of d.entries()) {
    if (di < 2n || (i > 0 && di % (d[i - 1] as bigint) !== 0n)) return reject('SHAPE', `the invariants must be > 1 with d_${i - 1} | d_${i}`, ['invariants', i]);
  }
  if (d.reduce((x, y) => x * y, 1n) !== h) return reject('WRONG_CLASS_NUMBER', 'the invariants do not multiply to h', ['invariants']);
  for (const [i, g] of gens.entries()) {
    if (disc(g) !== D || g[0] <= 0n) return reject('SHAPE', `generator ${i} is not a positive definite form of discriminant ${D}`, ['generators', i]);
  }
  const parity = ((D % 2n) + 2n) % 2n;
  const principal: F = [1n, parity, (parity - D) / 4n];
  const key = (f: F): string => `${f[0]},${f[1]}`;
  let classes = new Map<string, F>([[key(principal), principal]]);
  for (const [i, g0] of gens.entries()) {
    const g = reducePositive(g0, checkpoint);
    const next = new Map<string, F>();
    for (const element of classes.values()) {
      let current = element;
      for (let e = 0n; e < (d[i] as bigint); e++) {
        if (next.has(key(current))) return reject('WRONG_CLASS_NUMBER', `the generators do not give ${h} distinct classes (a repeat at generator ${i})`, ['generators', i]);
        next.set(key(current), current);
        current = dirichletCompose(current, g, D, checkpoint);
      }
      if (!eq(current, element)) return reject('WRONG_CLASS_NUMBER', `generator ${i} to the power ${d[i]} is not the principal class`, ['generators', i]);
    }
    classes = next;
  }
  return { accepted: true, message: `h = ${h} by the checker's own count; the ${gens.length} generators of orders ${d.join(', ')} give ${h} distinct classes under its own Dirichlet composition` };
}

function checkClassNumber(claim: Extract<DiophantineClaim, { kind: 'CLASS_NUMBER' }>, checkpoint: Checkpoint): DiophantineCheckResult {
  const D = BigInt(claim.D);
  if (D >= 0n || ((D % 4n) + 4n) % 4n > 1n) return reject('SHAPE', `${D} is not an imaginary quadratic discriminant`, ['D']);
  if (-D > CHECKER_LIMITS.maxClassNumberAbsD) throw new JacobianError('INVALID_REQUEST', `the checker re-counts reduced forms only for |D| ≤ ${CHECKER_LIMITS.maxClassNumberAbsD} (rule class-number-size)`, { data: { rule: 'class-number-size' } });
  const h = countReducedForms(D, checkpoint);
  if (h !== BigInt(claim.class_number)) return reject('WRONG_CLASS_NUMBER', `there are ${h} primitive reduced forms of discriminant ${D}, not ${claim.class_number}`, ['class_number'], h.toString());
  return { accepted: true, message: `the checker's own count of primitive reduced forms of discriminant ${D} is ${h}` };
}

/** The rank of an integer matrix by fraction-free elimination (this module's own). */
function integerRank(rows: readonly (readonly bigint[])[], checkpoint: Checkpoint): number {
  const M = rows.map((row) => [...row]);
  const n = M[0]?.length ?? 0;
  let rank = 0;
  let previous = 1n;
  for (let c = 0; c < n && rank < M.length; c++) {
    const p = M.findIndex((row, i) => i >= rank && row[c] !== 0n);
    if (p < 0) continue;
    [M[rank], M[p]] = [M[p] as bigint[], M[rank] as bigint[]];
    const top = M[rank] as bigint[];
    const pivot = top[c] as bigint;
    for (let i = rank + 1; i < M.length; i++) {
      checkpoint();
      const row = M[i] as bigint[];
      const a = row[c] as bigint;
      for (let j = c; j < n; j++) row[j] = (pivot * (row[j] as bigint) - a * (top[j] as bigint)) / previous;
    }
    previous = pivot;
    rank++;
  }
  return rank;
}

function checkSystemSolved(claim: Extract<DiophantineClaim, { kind: 'INTEGER_SYSTEM_SOLVED' }>, checkpoint: Checkpoint): DiophantineCheckResult {
  const A = claim.matrix.map((row) => row.map(BigInt));
  const b = claim.rhs.map(BigInt);
  const n = A[0]?.length ?? 0;
  const x = claim.particular.map(BigInt);
  const K = claim.kernel.map((row) => row.map(BigInt));
  const W = claim.kernel_right_inverse.map((row) => row.map(BigInt));
  const k = K.length;
  if (A.length !== b.length || A.some((row) => row.length !== n) || x.length !== n || K.some((row) => row.length !== n) || W.length !== n || W.some((row) => row.length !== k)) {
    return reject('SHAPE', 'A, b, x0, K and W must have matching dimensions', ['kernel_right_inverse']);
  }
  const times = (v: readonly bigint[]): bigint[] => A.map((row) => row.reduce((s, a, j) => s + a * (v[j] as bigint), 0n));
  if (times(x).some((v, i) => v !== b[i])) return reject('IDENTITY_FAILS', 'A x0 ≠ b', ['particular']);
  for (const [i, row] of K.entries()) {
    checkpoint();
    if (times(row).some((v) => v !== 0n)) return reject('IDENTITY_FAILS', `A k ≠ 0 for kernel row ${i}`, ['kernel', i]);
  }
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      checkpoint();
      const v = (K[i] as bigint[]).reduce((s, a, t) => s + a * ((W[t] as bigint[])[j] as bigint), 0n);
      if (v !== (i === j ? 1n : 0n)) return reject('IDENTITY_FAILS', `(K W)[${i}][${j}] = ${v}, not ${i === j ? 1 : 0}: the kernel rows are not a basis of a saturated lattice`, ['kernel_right_inverse']);
    }
  }
  const rank = integerRank(A, checkpoint);
  if (k !== n - rank) return reject('SHAPE', `rank A = ${rank}, so the integer kernel has rank ${n - rank}, not ${k}`, ['kernel']);
  return { accepted: true, message: `A x0 = b, A K = 0, K W = I and rank A = ${rank}: x0 + Z-span of the ${k} kernel rows is every integer solution` };
}

function rational(text: string): { num: bigint; den: bigint } {
  const [n, d = '1'] = text.split('/');
  return { num: BigInt(n as string), den: BigInt(d) };
}

function checkSystemNone(claim: Extract<DiophantineClaim, { kind: 'INTEGER_SYSTEM_NONE' }>, checkpoint: Checkpoint): DiophantineCheckResult {
  const A = claim.matrix.map((row) => row.map(BigInt));
  const b = claim.rhs.map(BigInt);
  const y = claim.certificate.map(rational);
  const n = A[0]?.length ?? 0;
  if (A.length !== b.length || y.length !== b.length || A.some((row) => row.length !== n)) return reject('SHAPE', 'A, b and y must have matching dimensions', ['certificate']);
  // Common denominator L of y: y = Y / L with integer Y; y·v is an integer iff L | Y·v.
  const lcm = y.reduce((L, { den }) => {
    let [p, q] = [L, den];
    while (q !== 0n) [p, q] = [q, p % q];
    return (L / p) * den;
  }, 1n);
  const Y = y.map(({ num, den }) => num * (lcm / den));
  for (let j = 0; j < n; j++) {
    checkpoint();
    const s = Y.reduce((sum, v, i) => sum + v * ((A[i] as bigint[])[j] as bigint), 0n);
    if (s % lcm !== 0n) return reject('IDENTITY_FAILS', `(y A)_${j} is not an integer`, ['certificate'], `${s}/${lcm}`);
  }
  const yb = Y.reduce((sum, v, i) => sum + v * (b[i] as bigint), 0n);
  if (yb % lcm === 0n) return reject('IDENTITY_FAILS', 'y·b is an integer: y proves nothing', ['certificate'], `${yb / lcm}`);
  return { accepted: true, message: `y A is integral and y·b = ${yb}/${lcm} is not an integer, so A x = b has no integer solution` };
}

/** Check one claim (parsed again here). */
export function checkDiophantineClaim(raw: unknown, checkpoint: Checkpoint = () => undefined): DiophantineCheckResult {
  const claim = DiophantineClaimSchema.parse(raw);
  switch (claim.kind) {
    case 'PELL':
      return checkPell(claim, checkpoint);
    case 'FORM_REDUCTION':
      return checkReduction(claim);
    case 'FORM_EQUIVALENCE':
      return checkEquivalence(claim, checkpoint);
    case 'CLASS_NUMBER':
      return checkClassNumber(claim, checkpoint);
    case 'CLASS_GROUP':
      return checkClassGroup(claim, checkpoint);
    case 'INTEGER_SYSTEM_SOLVED':
      return checkSystemSolved(claim, checkpoint);
    case 'INTEGER_SYSTEM_NONE':
      return checkSystemNone(claim, checkpoint);
  }
}
