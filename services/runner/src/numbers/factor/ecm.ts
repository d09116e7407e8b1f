/**
 * Lenstra's elliptic curve method on Montgomery curves B·y² = x³ + A·x² + x in x-only projective
 * coordinates (X : Z), with Suyama's parametrization (the group order is divisible by 12, so a
 * smooth order is likelier). Stage 1 multiplies the start point by the product of every prime
 * power ≤ B1 with the Montgomery ladder; stage 2 looks for one more prime q in (B1, B2] by the
 * baby-step giant-step pairing q = g·D ± j, accumulating the cross differences of x-coordinates
 * and taking one gcd per curve. All on bigint; nothing here is a primality proof.
 */
import { bigGcd, JacobianError, mod, modInverse, smallPrimes, checkBudget, type ArithmeticBudget } from '@jacobian/shared';

/** A point (X : Z) of a Montgomery curve; Z = 0 is the point at infinity. */
interface Point {
  x: bigint;
  z: bigint;
}

/** One curve's parameters modulo n: a24 = (A + 2)/4 and the start point. */
interface Curve {
  a24: bigint;
  start: Point;
}

/** A curve found a factor (a proper divisor of n), or n had a factor show in the set-up. */
type CurveOutcome = { factor: bigint } | { factor: null };

/** x(2P): 2 squarings, 3 multiplications. */
function double(p: Point, a24: bigint, n: bigint): Point {
  const s = (p.x + p.z) % n;
  const d = mod(p.x - p.z, n);
  const t1 = (s * s) % n;
  const t2 = (d * d) % n;
  const t3 = mod(t1 - t2, n);
  return { x: (t1 * t2) % n, z: (t3 * ((t2 + a24 * t3) % n)) % n };
}

/** x(P + Q) from x(P), x(Q) and x(P − Q): 2 squarings, 4 multiplications. */
function add(p: Point, q: Point, diff: Point, n: bigint): Point {
  const u = (mod(p.x - p.z, n) * ((q.x + q.z) % n)) % n;
  const v = (((p.x + p.z) % n) * mod(q.x - q.z, n)) % n;
  const s = (u + v) % n;
  const d = mod(u - v, n);
  return { x: (diff.z * ((s * s) % n)) % n, z: (diff.x * ((d * d) % n)) % n };
}

/** x(k·P) for k ≥ 1 by the Montgomery ladder (one add and one double per bit). */
export function ladder(p: Point, k: bigint, a24: bigint, n: bigint): Point {
  if (k === 1n) return p;
  let r0 = p;
  let r1 = double(p, a24, n);
  const bits = k.toString(2);
  for (let i = 1; i < bits.length; i++) {
    if (bits[i] === '1') {
      r0 = add(r1, r0, p, n);
      r1 = double(r1, a24, n);
    } else {
      r1 = add(r1, r0, p, n);
      r0 = double(r0, a24, n);
    }
  }
  return r0;
}

/**
 * Suyama's curve for σ ≥ 6: u = σ² − 5, v = 4σ, start (u³ : v³), A + 2 = (v − u)³(3u + v)/(4u³v).
 * A non-invertible denominator is itself a factor (or σ is degenerate modulo n: null curve).
 */
function suyama(sigma: bigint, n: bigint): Curve | { factor: bigint | null } {
  const u = mod(sigma * sigma - 5n, n);
  const v = mod(4n * sigma, n);
  const u3 = (u * u * u) % n;
  const denominator = (16n * u3 * v) % n;
  const inverse = modInverse(denominator, n);
  if (inverse === null) {
    const g = bigGcd(denominator, n);
    return { factor: g > 1n && g < n ? g : null };
  }
  const vu = mod(v - u, n);
  const a24 = (((((vu * vu) % n) * vu) % n) * ((3n * u + v) % n) % n) * inverse % n;
  return { a24, start: { x: u3, z: (v * v * v) % n } };
}

const stage1Products = new Map<number, bigint>();

/** The product of p^⌊log_p B1⌋ over the primes p ≤ B1 (cached per B1). */
export function stage1Multiplier(b1: number): bigint {
  const cached = stage1Products.get(b1);
  if (cached !== undefined) return cached;
  // A product tree keeps the big multiplications balanced.
  let level = smallPrimes(b1 + 1).map((p) => {
    let q = p;
    while (q * p <= b1) q *= p;
    return BigInt(q);
  });
  while (level.length > 1) {
    const next: bigint[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? (level[i] as bigint) * (level[i + 1] as bigint) : (level[i] as bigint));
    level = next;
  }
  const product = level[0] ?? 1n;
  stage1Products.set(b1, product);
  return product;
}

const sieves = new Map<number, Uint8Array>();

/** isComposite[i] for i < limit (0 and 1 marked), cached per limit. */
function compositeSieve(limit: number): Uint8Array {
  const cached = sieves.get(limit);
  if (cached !== undefined) return cached;
  const composite = new Uint8Array(limit + 1);
  composite[0] = 1;
  composite[1] = 1;
  for (let i = 2; i * i <= limit; i++) {
    if (composite[i] === 1) continue;
    for (let j = i * i; j <= limit; j += i) composite[j] = 1;
  }
  sieves.set(limit, composite);
  return composite;
}

/** The residues j in [1, D/2) coprime to D (D = 2310 or 210). */
function babyResidues(d: number): number[] {
  const out: number[] = [];
  for (let j = 1; j < d / 2; j += 2) {
    let a = j;
    let b = d;
    while (b !== 0) [a, b] = [b, a % b];
    if (a === 1) out.push(j);
  }
  return out;
}

/** A factor g of n with 1 < g < n from an accumulated product, or null. */
function properFactor(value: bigint, n: bigint): bigint | null {
  const g = bigGcd(value, n);
  return g > 1n && g < n ? g : null;
}

/**
 * Stage 2: is there a prime q in (B1, B2] with q·P = O modulo some p | n? With D fixed, every
 * such q is g·D ± j for j coprime to D in [1, D/2); x(g·D·P) = x(j·P) exactly when (g·D ± j)·P = O,
 * so the product of X_g·Z_j − X_j·Z_g over the pairs that cover a prime has a factor in common with n.
 */
function stage2(p: Point, a24: bigint, n: bigint, b1: number, b2: number, budget: ArithmeticBudget): bigint | null {
  const d = b2 >= 2_000_000 ? 2310 : 210;
  const residues = babyResidues(d);
  const composite = compositeSieve(b2 + d);
  // Baby steps j·P for odd j < D/2: P, 2P, 3P, then (j + 2)P = jP + 2P with difference (j − 2)P.
  const twoP = double(p, a24, n);
  const odd = new Map<number, Point>([[1, p]]);
  let previous = p;
  let current = add(twoP, p, p, n);
  odd.set(3, current);
  for (let j = 5; j < d / 2; j += 2) {
    const next = add(current, twoP, previous, n);
    previous = current;
    current = next;
    odd.set(j, current);
  }
  // Affine x of the babies that are used, by one shared inversion (Montgomery's trick).
  const babies = residues.map((j) => odd.get(j) as Point);
  const prefix: bigint[] = [];
  let running = 1n;
  for (const b of babies) {
    running = (running * b.z) % n;
    prefix.push(running);
  }
  const inverse = modInverse(running, n);
  if (inverse === null) return properFactor(running, n);
  const affine = new Array<bigint>(babies.length);
  let inv = inverse;
  for (let i = babies.length - 1; i >= 0; i--) {
    const b = babies[i] as Point;
    const before = i === 0 ? 1n : (prefix[i - 1] as bigint);
    affine[i] = (((inv * before) % n) * b.x) % n;
    inv = (inv * b.z) % n;
  }
  // Giant steps g·D·P for g from ⌊B1/D⌋ on: R_{g+1} = R_g + D·P with difference R_{g−1}.
  const dP = ladder(p, BigInt(d), a24, n);
  let g = Math.max(1, Math.floor(b1 / d));
  let before: Point = g === 1 ? { x: 1n, z: 0n } : ladder(p, BigInt((g - 1) * d), a24, n);
  let giant = g === 1 ? dP : ladder(p, BigInt(g * d), a24, n);
  let accumulated = 1n;
  let steps = 0;
  for (; (g - 1) * d < b2; g++) {
    const base = g * d;
    for (let i = 0; i < residues.length; i++) {
      const j = residues[i] as number;
      const hi = base + j;
      const lo = base - j;
      if ((lo > b1 && lo <= b2 && composite[lo] === 0) || (hi > b1 && hi <= b2 && composite[hi] === 0)) {
        accumulated = (accumulated * mod(giant.x - ((affine[i] as bigint) * giant.z) % n, n)) % n;
      }
    }
    if (++steps % 16 === 0) {
      checkBudget(budget);
      if (accumulated === 0n) break;
    }
    // R_{g−1} = O for g = 1: the first addition is a doubling.
    const next = before.z === 0n ? double(giant, a24, n) : add(giant, dP, before, n);
    before = giant;
    giant = next;
  }
  return properFactor(accumulated, n);
}

/** One curve with parameter σ: stage 1 to B1, then stage 2 to B2. */
export function ecmCurve(n: bigint, sigma: bigint, b1: number, b2: number, budget: ArithmeticBudget = {}): CurveOutcome {
  const curve = suyama(sigma, n);
  if (!('a24' in curve)) return { factor: curve.factor };
  const q = ladder(curve.start, stage1Multiplier(b1), curve.a24, n);
  const g = bigGcd(q.z, n);
  if (g === n) return { factor: null };
  if (g > 1n) return { factor: g };
  checkBudget(budget);
  return { factor: stage2(q, curve.a24, n, b1, b2, budget) };
}

/** B2 for a B1: 100·B1, at most 25·10^6 (the prime sieve of stage 2 holds a byte per integer). */
export const stage2Bound = (b1: number): number => Math.min(100 * b1, 25_000_000);

/** The schedule of B1 bounds and curve counts, after GMP-ECM's table for factors of 10 to 40 digits. */
export const ECM_SCHEDULE: readonly { digits: number; b1: number; curves: number }[] = [
  { digits: 10, b1: 400, curves: 10 },
  { digits: 15, b1: 2_000, curves: 25 },
  { digits: 20, b1: 11_000, curves: 90 },
  { digits: 25, b1: 50_000, curves: 300 },
  { digits: 30, b1: 250_000, curves: 700 },
  { digits: 35, b1: 1_000_000, curves: 1_800 },
  { digits: 40, b1: 3_000_000, curves: 5_100 },
];

/** How ECM went: the factor, and the curves and bounds it took. */
export interface EcmResult {
  factor: bigint | null;
  curves: number;
  b1: number;
}

/** splitmix64-style σ sequence: deterministic per (seed, curve), spread over [6, 2^62). */
function sigmaFor(seed: number, index: number): bigint {
  let z = (BigInt(seed) * 0x9e3779b97f4a7c15n + BigInt(index + 1) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
  z ^= z >> 31n;
  return 6n + (z % (1n << 62n));
}

/**
 * A proper factor of odd composite n (not a perfect power) by ECM with increasing B1, curve after
 * curve until one splits n, `maxCurves` have run (factor null), or the budget ends
 * (EXECUTION_TIMEOUT / EXECUTION_CANCELLED).
 */
export function ecmFactor(n: bigint, options: ArithmeticBudget & { seed?: number; maxCurves?: number; onCurve?: (b1: number, curves: number) => void } = {}): EcmResult {
  if (n % 2n === 0n) return { factor: 2n, curves: 0, b1: 0 };
  let curves = 0;
  for (const step of ECM_SCHEDULE) {
    for (let c = 0; c < step.curves; c++) {
      checkBudget(options);
      const outcome = ecmCurve(n, sigmaFor(options.seed ?? 1, curves), step.b1, stage2Bound(step.b1), options);
      curves++;
      options.onCurve?.(step.b1, curves);
      if (outcome.factor !== null) return { factor: outcome.factor, curves, b1: step.b1 };
      if (options.maxCurves !== undefined && curves >= options.maxCurves) return { factor: null, curves, b1: step.b1 };
    }
  }
  // Past the table: keep going at the last bound until the budget ends.
  const last = ECM_SCHEDULE[ECM_SCHEDULE.length - 1] as { b1: number };
  for (;;) {
    checkBudget(options);
    const outcome = ecmCurve(n, sigmaFor(options.seed ?? 1, curves), last.b1, stage2Bound(last.b1), options);
    curves++;
    if (outcome.factor !== null) return { factor: outcome.factor, curves, b1: last.b1 };
    if (curves > 1_000_000) throw new JacobianError('EXECUTION_TIMEOUT', 'ECM ran a million curves without a factor');
  }
}
