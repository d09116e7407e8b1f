/**
 * The producer side of the modular arithmetic pack: inverses, CRT with moduli that need not be
 * coprime, multiplicative orders, primitive roots, discrete logarithms (Pohlig–Hellman over the
 * prime powers of n, baby-step giant-step or Pollard's rho per prime of the order), square roots
 * (Tonelli–Shanks or Cipolla mod p, Hensel lifting to p^k including 2^k, CRT across the prime
 * powers) and the Legendre, Jacobi and Kronecker symbols. Every answer is rechecked exactly here
 * before it is returned ({@link recheck} failures are INTERNAL errors, never answers); the
 * independent re-derivation is the checker's (services/checker/src/numbers/modular).
 */
import {
  bigGcd,
  extendedGcd,
  factorInteger,
  JacobianError,
  jacobi,
  mod,
  modInverse,
  powMod,
  type ArithmeticBudget,
  type PrimePower,
} from '@jacobian/shared';

/** An exact recheck of an answer: a failure is our bug, not an answer. */
function recheck(ok: boolean, what: string): void {
  if (!ok) throw new JacobianError('INTERNAL', `the modular answer failed its own exact recheck: ${what}`);
}

let budgetTicks = 0;
function tick(budget: ArithmeticBudget | undefined): void {
  if ((++budgetTicks & 1023) !== 0) return;
  if (budget?.signal?.aborted === true) throw new JacobianError('EXECUTION_CANCELLED', 'the computation was cancelled');
  if (budget?.deadline !== undefined && Date.now() > budget.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the answer was found; nothing was concluded");
}

// ---------------------------------------------------------------------------------------------
// Inverse and CRT

export type InverseAnswer = { outcome: 'INVERTIBLE'; inverse: bigint } | { outcome: 'NONE'; gcd: bigint };

/** a⁻¹ mod n (n ≥ 1), or NONE with gcd(a, n) > 1 as the certificate. */
export function inverseMod(a: bigint, n: bigint): InverseAnswer {
  const inverse = modInverse(a, n);
  if (inverse === null) {
    const gcd = bigGcd(a, n);
    recheck(gcd > 1n && a % gcd === 0n && n % gcd === 0n, 'gcd divides a and n');
    return { outcome: 'NONE', gcd };
  }
  recheck(mod(a * inverse, n) === mod(1n, n), 'a·a⁻¹ ≡ 1');
  return { outcome: 'INVERTIBLE', inverse };
}

export interface Congruence {
  residue: bigint;
  modulus: bigint;
}

export type CrtAnswer =
  | { outcome: 'SOLVED'; residue: bigint; modulus: bigint }
  | { outcome: 'INCONSISTENT'; first: number; second: number; gcd: bigint };

/**
 * x ≡ r_i (mod m_i) for all i (m_i ≥ 1, not necessarily coprime): the unique x mod lcm(m_i), or
 * INCONSISTENT with a pair i < j and g = gcd(m_i, m_j) with r_i ≢ r_j (mod g). A system is
 * solvable exactly when every pair is, so the pair is found among the congruences before the one
 * where merging failed.
 */
export function crt(congruences: readonly Congruence[], budget?: ArithmeticBudget): CrtAnswer {
  let x = 0n;
  let m = 1n;
  for (let i = 0; i < congruences.length; i++) {
    tick(budget);
    const { residue, modulus } = congruences[i] as Congruence;
    const { g, x: u } = extendedGcd(m, modulus);
    const diff = residue - x;
    if (diff % g !== 0n) {
      for (let j = 0; j < i; j++) {
        const other = congruences[j] as Congruence;
        const d = bigGcd(other.modulus, modulus);
        if ((other.residue - residue) % d !== 0n) return { outcome: 'INCONSISTENT', first: j, second: i, gcd: d };
      }
      throw new JacobianError('INTERNAL', 'CRT merge failed but no pair of congruences conflicts');
    }
    const lcm = (m / g) * modulus;
    // x + m·t with m·t ≡ diff (mod modulus): t = (diff/g)·u mod (modulus/g).
    x = mod(x + m * mod((diff / g) * u, modulus / g), lcm);
    m = lcm;
  }
  for (const c of congruences) recheck(mod(x - c.residue, c.modulus) === 0n, 'x satisfies every congruence');
  return { outcome: 'SOLVED', residue: x, modulus: m };
}

// ---------------------------------------------------------------------------------------------
// Orders and primitive roots

/** p^k as prime, exponent, proven. */
function primePowers(n: bigint, budget?: ArithmeticBudget): PrimePower[] {
  return n === 1n ? [] : factorInteger(n, budget);
}

/** Merge factorizations (exponents add; proven only when every source proved the prime). */
function mergeFactors(lists: readonly PrimePower[][]): PrimePower[] {
  const byPrime = new Map<bigint, { exponent: number; proven: boolean }>();
  for (const list of lists) {
    for (const f of list) {
      const seen = byPrime.get(f.prime);
      byPrime.set(f.prime, { exponent: (seen?.exponent ?? 0) + f.exponent, proven: (seen?.proven ?? true) && f.proven });
    }
  }
  return [...byPrime.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([prime, v]) => ({ prime, exponent: v.exponent, proven: v.proven }));
}

const valueOf = (factors: readonly PrimePower[]): bigint => factors.reduce((acc, f) => acc * f.prime ** BigInt(f.exponent), 1n);

/** The factorization of λ(p^k) (Carmichael) or φ(p^k) for one prime power of n. */
function localGroupExponent(pp: PrimePower, kind: 'lambda' | 'phi', budget?: ArithmeticBudget): PrimePower[] {
  const { prime: p, exponent: k } = pp;
  if (p === 2n) {
    if (k === 1) return [];
    if (k === 2 || kind === 'phi') return [{ prime: 2n, exponent: k - 1, proven: true }];
    return [{ prime: 2n, exponent: k - 2, proven: true }];
  }
  const parts = [primePowers(p - 1n, budget)];
  if (k > 1) parts.push([{ prime: p, exponent: k - 1, proven: pp.proven }]);
  return mergeFactors(parts);
}

/** The factorization of the lcm of factorizations (the maximum exponent per prime). */
function lcmFactors(lists: readonly PrimePower[][]): PrimePower[] {
  const byPrime = new Map<bigint, { exponent: number; proven: boolean }>();
  for (const list of lists) {
    for (const f of list) {
      const seen = byPrime.get(f.prime);
      byPrime.set(f.prime, { exponent: Math.max(seen?.exponent ?? 0, f.exponent), proven: (seen?.proven ?? true) && f.proven });
    }
  }
  return [...byPrime.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([prime, v]) => ({ prime, exponent: v.exponent, proven: v.proven }));
}

/**
 * The order of the unit a modulo n, found by dividing a multiple of it (`exponent`, factored)
 * by each prime while a stays 1: the result is minimal because a^(m/q) ≢ 1 for every prime q | m.
 */
function orderFrom(a: bigint, n: bigint, exponent: readonly PrimePower[], budget?: ArithmeticBudget): PrimePower[] {
  let m = valueOf(exponent);
  recheck(powMod(a, m, n) === mod(1n, n), 'a^λ ≡ 1');
  const result: PrimePower[] = [];
  for (const f of exponent) {
    let e = 0;
    while (e < f.exponent) {
      tick(budget);
      const smaller = m / f.prime;
      if (powMod(a, smaller, n) !== mod(1n, n)) break;
      m = smaller;
      e++;
    }
    if (f.exponent - e > 0) result.push({ prime: f.prime, exponent: f.exponent - e, proven: f.proven });
  }
  return result;
}

export interface OrderAnswerFound {
  outcome: 'FOUND';
  order: bigint;
  order_factors: PrimePower[];
  modulus_factors: PrimePower[];
  carmichael_lambda: bigint;
}
export type OrderAnswer = OrderAnswerFound | { outcome: 'NONE'; gcd: bigint };

/** ord_n(a): the least m ≥ 1 with a^m ≡ 1 (mod n), via λ(n) factored; NONE with gcd(a, n) > 1. */
export function multiplicativeOrder(a: bigint, n: bigint, budget?: ArithmeticBudget): OrderAnswer {
  const gcd = bigGcd(a, n);
  if (gcd !== 1n) return { outcome: 'NONE', gcd };
  const modulusFactors = primePowers(n, budget);
  const lambda = lcmFactors(modulusFactors.map((pp) => localGroupExponent(pp, 'lambda', budget)));
  const orderFactors = orderFrom(mod(a, n), n, lambda, budget);
  const order = valueOf(orderFactors);
  recheck(powMod(a, order, n) === mod(1n, n), 'a^ord ≡ 1');
  for (const f of orderFactors) recheck(powMod(a, order / f.prime, n) !== mod(1n, n), 'a^(ord/q) ≢ 1');
  return { outcome: 'FOUND', order, order_factors: orderFactors, modulus_factors: modulusFactors, carmichael_lambda: valueOf(lambda) };
}

export type PrimitiveRootAnswer =
  | { outcome: 'FOUND'; root: bigint; phi: bigint; phi_factors: PrimePower[]; modulus_factors: PrimePower[] }
  | { outcome: 'NONE'; reason: string; modulus_factors: PrimePower[] };

/** Whether n is 1, 2, 4, p^k or 2p^k (p an odd prime): exactly the n with a primitive root (Gauss). */
export function primitiveRootExists(factors: readonly PrimePower[]): { exists: boolean; reason: string } {
  const odd = factors.filter((f) => f.prime !== 2n);
  const two = factors.find((f) => f.prime === 2n)?.exponent ?? 0;
  if (odd.length === 0) {
    return two <= 2 ? { exists: true, reason: 'n is 1, 2 or 4' } : { exists: false, reason: `n = 2^${two} with ${two} ≥ 3: (Z/nZ)* ≅ C2 × C(2^${two - 2}) is not cyclic` };
  }
  if (odd.length > 1) return { exists: false, reason: `n has ${odd.length} distinct odd prime factors (${odd.map((f) => f.prime.toString()).join(', ')}): (Z/nZ)* is a product of cyclic groups of even orders, not cyclic` };
  if (two >= 2) return { exists: false, reason: `4 divides n and n has an odd prime factor ${(odd[0] as PrimePower).prime}: (Z/nZ)* has two factors of even order, not cyclic` };
  return { exists: true, reason: two === 0 ? 'n = p^k with p an odd prime' : 'n = 2p^k with p an odd prime' };
}

/** The least primitive root modulo n (in [0, n)), or NONE with the reason from the existence rule. */
export function primitiveRoot(n: bigint, budget?: ArithmeticBudget): PrimitiveRootAnswer {
  const modulusFactors = primePowers(n, budget);
  const rule = primitiveRootExists(modulusFactors);
  if (!rule.exists) return { outcome: 'NONE', reason: rule.reason, modulus_factors: modulusFactors };
  const phiFactors = mergeFactors(modulusFactors.map((pp) => localGroupExponent(pp, 'phi', budget)));
  const phi = valueOf(phiFactors);
  if (n <= 2n) return { outcome: 'FOUND', root: n - 1n, phi, phi_factors: phiFactors, modulus_factors: modulusFactors };
  for (let g = 2n; g < n; g++) {
    tick(budget);
    if (bigGcd(g, n) !== 1n) continue;
    if (phiFactors.every((f) => powMod(g, phi / f.prime, n) !== 1n)) {
      recheck(powMod(g, phi, n) === 1n, 'g^φ ≡ 1');
      return { outcome: 'FOUND', root: g, phi, phi_factors: phiFactors, modulus_factors: modulusFactors };
    }
  }
  throw new JacobianError('INTERNAL', `no primitive root found below ${n} although one exists`);
}

// ---------------------------------------------------------------------------------------------
// Discrete logarithm

/** Baby steps kept at most: beyond this, Pollard's rho for logarithms serves (constant memory). */
const MAX_BABY_STEPS = 1n << 20n;

/** The x in [0, q) with γ^x ≡ δ (mod n), where γ has prime order q; null when δ ∉ ⟨γ⟩. */
function logPrimeOrder(gamma: bigint, delta: bigint, q: bigint, n: bigint, budget?: ArithmeticBudget): bigint | null {
  if (delta === 1n) return 0n;
  if (q <= MAX_BABY_STEPS * MAX_BABY_STEPS) return babyStepGiantStep(gamma, delta, q, n, budget);
  // δ ∈ ⟨γ⟩ iff δ^q ≡ 1 here only when the group is cyclic; rho then confirms by its own equation.
  return rhoLog(gamma, delta, q, n, budget);
}

/** Shanks' baby-step giant-step in ⟨γ⟩ of order q. */
export function babyStepGiantStep(gamma: bigint, delta: bigint, q: bigint, n: bigint, budget?: ArithmeticBudget): bigint | null {
  let s = 1n;
  while (s * s < q) s++;
  const baby = new Map<bigint, bigint>();
  let e = 1n;
  for (let j = 0n; j < s; j++) {
    tick(budget);
    if (!baby.has(e)) baby.set(e, j);
    e = (e * gamma) % n;
  }
  const giant = modInverse(powMod(gamma, s, n), n);
  if (giant === null) throw new JacobianError('INTERNAL', 'a group element is not a unit');
  let y = mod(delta, n);
  for (let i = 0n; i <= s; i++) {
    tick(budget);
    const j = baby.get(y);
    if (j !== undefined) {
      const x = (i * s + j) % q;
      if (powMod(gamma, x, n) === mod(delta, n)) return x;
    }
    y = (y * giant) % n;
  }
  return null;
}

/**
 * Pollard's rho for logarithms in ⟨γ⟩ of prime order q (three-way partition by residue mod 3,
 * Brent's cycle detection): a collision γ^a δ^b = γ^A δ^B gives x = (a − A)/(B − b) mod q, which
 * is rechecked; null when δ ∉ ⟨γ⟩ is shown (δ^q ≢ 1) or every start collides uselessly.
 */
export function rhoLog(gamma: bigint, delta: bigint, q: bigint, n: bigint, budget?: ArithmeticBudget): bigint | null {
  if (powMod(delta, q, n) !== 1n) return null;
  for (let start = 1n; start < 32n; start++) {
    const step = (s: { y: bigint; a: bigint; b: bigint }): void => {
      const part = s.y % 3n;
      if (part === 0n) {
        s.y = (s.y * s.y) % n;
        s.a = (2n * s.a) % q;
        s.b = (2n * s.b) % q;
      } else if (part === 1n) {
        s.y = (s.y * gamma) % n;
        s.a = (s.a + 1n) % q;
      } else {
        s.y = (s.y * delta) % n;
        s.b = (s.b + 1n) % q;
      }
    };
    const tortoise = { y: (powMod(gamma, start, n) * delta) % n, a: start, b: 1n };
    const hare = { ...tortoise };
    step(hare);
    let power = 1;
    let lam = 1;
    while (tortoise.y !== hare.y) {
      tick(budget);
      if (power === lam) {
        Object.assign(tortoise, hare);
        power *= 2;
        lam = 0;
      }
      step(hare);
      lam++;
    }
    const db = mod(tortoise.b - hare.b, q);
    if (db === 0n) continue;
    const inv = modInverse(db, q);
    if (inv === null) continue;
    const x = mod((hare.a - tortoise.a) * inv, q);
    if (powMod(gamma, x, n) === mod(delta, n)) return x;
  }
  throw new JacobianError('EXECUTION_TIMEOUT', "Pollard's rho for logarithms found no useful collision from 31 starts");
}

/** One prime power p^k of n: the local order of g and, when it exists, the least local log x (mod the order). */
export interface LocalLog {
  prime: bigint;
  exponent: number;
  order: bigint;
  order_factors: PrimePower[];
  /** null: h ∉ ⟨g⟩ modulo p^k. */
  log: bigint | null;
}

/** Pohlig–Hellman in ⟨g⟩ mod m (g of order `order`, factored): x with g^x ≡ h, or null when h ∉ ⟨g⟩. */
function pohligHellman(g: bigint, h: bigint, m: bigint, order: bigint, orderFactors: readonly PrimePower[], budget?: ArithmeticBudget): bigint | null {
  if (powMod(h, order, m) !== mod(1n, m)) return null;
  const parts: Congruence[] = [];
  for (const { prime: q, exponent: e } of orderFactors) {
    const qe = q ** BigInt(e);
    const gq = powMod(g, order / qe, m);
    const hq = powMod(h, order / qe, m);
    const gamma = powMod(gq, qe / q, m);
    const gqInverse = modInverse(gq, m);
    if (gqInverse === null) throw new JacobianError('INTERNAL', 'a group element is not a unit');
    let x = 0n;
    let qk = 1n;
    for (let k = 0; k < e; k++) {
      // (g_q^(−x) h_q)^(q^(e−1−k)) lies in ⟨γ⟩ of order q when h_q ∈ ⟨g_q⟩.
      const residual = (powMod(gqInverse, x, m) * hq) % m;
      const delta = powMod(residual, qe / (qk * q), m);
      const d = logPrimeOrder(gamma, delta, q, m, budget);
      if (d === null) return null;
      x += d * qk;
      qk *= q;
    }
    parts.push({ residue: x, modulus: qe });
  }
  const combined = crt(parts, budget);
  if (combined.outcome !== 'SOLVED') throw new JacobianError('INTERNAL', 'the CRT of coprime prime powers failed');
  return powMod(g, combined.residue, m) === mod(h, m) ? combined.residue : null;
}

export type DiscreteLogAnswer =
  | { outcome: 'SOLVED'; log: bigint; order: bigint; order_factors: PrimePower[]; locals: LocalLog[] }
  | { outcome: 'NONE'; reason: 'TARGET_NOT_UNIT'; gcd: bigint }
  | { outcome: 'NONE'; reason: 'NOT_IN_SUBGROUP_LOCALLY'; local: LocalLog; locals: LocalLog[] }
  | { outcome: 'NONE'; reason: 'INCOMPATIBLE_LOCAL_LOGS'; first: LocalLog; second: LocalLog; gcd: bigint; locals: LocalLog[] };

/**
 * The least x ≥ 0 with g^x ≡ h (mod n), g a unit: Pohlig–Hellman modulo each prime power p^k of
 * n (the order of g there factored from λ(p^k)), then the CRT of x ≡ x_i (mod ord_{p^k}(g)).
 * Every solution is x + t·ord_n(g). NONE when h is not a unit (gcd), when h ∉ ⟨g⟩ modulo some p^k,
 * or when two local logs are incompatible (x_i ≢ x_j mod gcd of the local orders).
 */
export function discreteLog(g: bigint, h: bigint, n: bigint, budget?: ArithmeticBudget): DiscreteLogAnswer {
  if (bigGcd(g, n) !== 1n) throw new JacobianError('INTERNAL', 'discreteLog needs a unit base');
  const gcd = bigGcd(h, n);
  if (gcd !== 1n) return { outcome: 'NONE', reason: 'TARGET_NOT_UNIT', gcd };
  const locals: LocalLog[] = [];
  for (const pp of primePowers(n, budget)) {
    const m = pp.prime ** BigInt(pp.exponent);
    const orderFactors = orderFrom(mod(g, m), m, localGroupExponent(pp, 'lambda', budget), budget);
    const order = valueOf(orderFactors);
    const log = pohligHellman(mod(g, m), mod(h, m), m, order, orderFactors, budget);
    const local = { prime: pp.prime, exponent: pp.exponent, order, order_factors: orderFactors, log };
    locals.push(local);
    if (log === null) return { outcome: 'NONE', reason: 'NOT_IN_SUBGROUP_LOCALLY', local, locals };
  }
  const combined = crt(locals.map((l) => ({ residue: l.log as bigint, modulus: l.order })), budget);
  if (combined.outcome === 'INCONSISTENT') {
    const first = locals[combined.first] as LocalLog;
    const second = locals[combined.second] as LocalLog;
    return { outcome: 'NONE', reason: 'INCOMPATIBLE_LOCAL_LOGS', first, second, gcd: combined.gcd, locals };
  }
  recheck(powMod(g, combined.residue, n) === mod(h, n), 'g^x ≡ h');
  const orderFactors = lcmFactors(locals.map((l) => l.order_factors));
  recheck(valueOf(orderFactors) === combined.modulus, 'ord_n(g) = lcm of the local orders');
  return { outcome: 'SOLVED', log: combined.residue, order: combined.modulus, order_factors: orderFactors, locals };
}

// ---------------------------------------------------------------------------------------------
// Square roots

/** Tonelli–Shanks: y with y² ≡ u (mod p), p an odd prime, (u/p) = 1. */
export function tonelliShanks(u: bigint, p: bigint, budget?: ArithmeticBudget): bigint {
  u = mod(u, p);
  if (u === 0n) return 0n;
  let q = p - 1n;
  let s = 0;
  while ((q & 1n) === 0n) {
    q >>= 1n;
    s++;
  }
  if (s === 1) return powMod(u, (p + 1n) / 4n, p);
  let z = 2n;
  while (jacobi(z, p) !== -1) {
    tick(budget);
    z++;
  }
  let m = s;
  let c = powMod(z, q, p);
  let t = powMod(u, q, p);
  let r = powMod(u, (q + 1n) / 2n, p);
  while (t !== 1n) {
    tick(budget);
    let i = 0;
    let t2 = t;
    while (t2 !== 1n) {
      t2 = (t2 * t2) % p;
      i++;
      if (i === m) throw new JacobianError('INTERNAL', 'Tonelli–Shanks on a non-residue');
    }
    const b = powMod(c, 1n << BigInt(m - i - 1), p);
    m = i;
    c = (b * b) % p;
    t = (t * c) % p;
    r = (r * b) % p;
  }
  return r;
}

/** Cipolla: y with y² ≡ u (mod p) by (t + ω)^((p+1)/2) in F_p(ω), ω² = t² − u a non-residue. */
export function cipolla(u: bigint, p: bigint, budget?: ArithmeticBudget): bigint {
  u = mod(u, p);
  if (u === 0n) return 0n;
  let t = 0n;
  while (jacobi(t * t - u, p) !== -1) {
    tick(budget);
    t++;
  }
  const w = mod(t * t - u, p);
  // (a + bω)(c + dω) = (ac + bd·w) + (ad + bc)ω.
  let ra = 1n;
  let rb = 0n;
  let ba = t;
  let bb = 1n;
  let e = (p + 1n) / 2n;
  while (e > 0n) {
    if ((e & 1n) === 1n) [ra, rb] = [(ra * ba + rb * bb % p * w) % p, (ra * bb + rb * ba) % p];
    [ba, bb] = [(ba * ba + bb * bb % p * w) % p, (2n * ba * bb) % p];
    e >>= 1n;
  }
  return ra;
}

/** A root of u mod p: Cipolla when 2^s ∥ p − 1 with s large (Tonelli–Shanks costs s² there), Tonelli–Shanks otherwise. */
function sqrtModPrime(u: bigint, p: bigint, budget?: ArithmeticBudget): bigint {
  let s = 0;
  for (let q = p - 1n; (q & 1n) === 0n; q >>= 1n) s++;
  return s > 24 ? cipolla(u, p, budget) : tonelliShanks(u, p, budget);
}

/** Why x² ≡ a has no solution modulo one prime power p^k of n, after a = p^v·u with p ∤ u. */
export type SqrtFailure =
  | { rule: 'ODD_VALUATION'; prime: bigint; exponent: number; valuation: number }
  | { rule: 'NON_RESIDUE'; prime: bigint; exponent: number; valuation: number; legendre: -1 }
  | { rule: 'NOT_1_MOD_4' | 'NOT_1_MOD_8'; prime: 2n; exponent: number; valuation: number; unit_residue: bigint };

/** The roots of x² ≡ a modulo p^k as classes x ≡ r (mod step), each with p^k/step members. */
interface LocalRoots {
  modulus: bigint;
  step: bigint;
  residues: bigint[];
}

function localSqrt(a: bigint, pp: PrimePower, budget?: ArithmeticBudget): LocalRoots | SqrtFailure {
  const { prime: p, exponent: k } = pp;
  const pk = p ** BigInt(k);
  let u = mod(a, pk);
  if (u === 0n) return { modulus: pk, step: p ** BigInt(Math.ceil(k / 2)), residues: [0n] };
  let v = 0;
  while (u % p === 0n) {
    u /= p;
    v++;
  }
  if (v % 2 === 1) return { rule: 'ODD_VALUATION', prime: p, exponent: k, valuation: v };
  const j = k - v;
  const half = p ** BigInt(v / 2);
  const pj = p ** BigInt(j);
  u = mod(u, pj);
  let ys: bigint[];
  let yStep: bigint;
  if (p === 2n) {
    if (j === 1) {
      ys = [1n];
      yStep = 2n;
    } else if (j === 2) {
      if (u % 4n !== 1n) return { rule: 'NOT_1_MOD_4', prime: 2n, exponent: k, valuation: v, unit_residue: u };
      ys = [1n];
      yStep = 2n;
    } else {
      if (u % 8n !== 1n) return { rule: 'NOT_1_MOD_8', prime: 2n, exponent: k, valuation: v, unit_residue: u };
      // y² ≡ u (mod 2^(i+1)) from y² ≡ u (mod 2^i): add 2^(i−1) when the next bit is wrong.
      let y = 1n;
      for (let i = 3; i < j; i++) {
        if (((y * y - u) >> BigInt(i)) & 1n) y += 1n << BigInt(i - 1);
      }
      yStep = 1n << BigInt(j - 1);
      y = mod(y, yStep);
      ys = [...new Set([y, mod(-y, yStep)])].sort((x, z) => (x < z ? -1 : 1));
    }
  } else {
    if (jacobi(u, p) !== 1) return { rule: 'NON_RESIDUE', prime: p, exponent: k, valuation: v, legendre: -1 };
    let y = sqrtModPrime(u, p, budget);
    // Hensel: y ← y − (y² − u)/(2y) doubles the precision each step.
    let precision = p;
    while (precision < pj) {
      tick(budget);
      precision = precision * precision < pj ? precision * precision : pj;
      const inv = modInverse(2n * y, precision);
      if (inv === null) throw new JacobianError('INTERNAL', 'Hensel lifting met a non-unit derivative');
      y = mod(y - (y * y - u) * inv, precision);
    }
    recheck(mod(y * y - u, pj) === 0n, 'the Hensel lift is a root');
    yStep = pj;
    ys = [...new Set([y, mod(-y, pj)])].sort((x, z) => (x < z ? -1 : 1));
  }
  // x = p^(v/2)·y: x is determined modulo p^(v/2)·yStep.
  const step = half * yStep;
  return { modulus: pk, step, residues: ys.map((y) => mod(half * y, step)) };
}

export type SqrtAnswer =
  | { outcome: 'SOLVED'; count: bigint; roots: bigint[]; complete: boolean; modulus_factors: PrimePower[] }
  | { outcome: 'NONE'; failure: SqrtFailure; modulus_factors: PrimePower[] };

/**
 * Every x in [0, n) with x² ≡ a (mod n): the roots modulo each prime power (Tonelli–Shanks or
 * Cipolla mod p, Hensel lifting, 2^k by its own rule, non-units by the valuation of a), combined
 * by CRT. Returns the count and, in increasing order, the roots when there are at most
 * `maxRoots`, or the first `maxRoots` of the CRT enumeration (complete = false). NONE names the
 * prime power where it fails and why (a Legendre symbol −1, an odd valuation, the residue of a
 * unit mod 4 or 8).
 */
export function sqrtMod(a: bigint, n: bigint, maxRoots: number, budget?: ArithmeticBudget): SqrtAnswer {
  const modulusFactors = primePowers(n, budget);
  if (n === 1n) return { outcome: 'SOLVED', count: 1n, roots: [0n], complete: true, modulus_factors: [] };
  const localLists: { modulus: bigint; step: bigint; classes: bigint[]; size: bigint }[] = [];
  let count = 1n;
  for (const pp of modulusFactors) {
    const local = localSqrt(a, pp, budget);
    if ('rule' in local) return { outcome: 'NONE', failure: local, modulus_factors: modulusFactors };
    const size = BigInt(local.residues.length) * (local.modulus / local.step);
    count *= size;
    localLists.push({ modulus: local.modulus, step: local.step, classes: local.residues, size });
  }
  const limit = BigInt(maxRoots);
  const complete = count <= limit;
  // The roots are enumerated in mixed radix over the local lists, each local root computed from its class on demand.
  const localRoot = (l: (typeof localLists)[number], index: bigint): bigint => {
    const c = BigInt(l.classes.length);
    return (l.classes[Number(index % c)] as bigint) + (index / c) * l.step;
  };
  // CRT coefficients e_i ≡ 1 (mod m_i), ≡ 0 (mod m_j), j ≠ i.
  const coefficients = localLists.map((l) => {
    const rest = n / l.modulus;
    return (rest * (modInverse(rest, l.modulus) as bigint)) % n;
  });
  const roots: bigint[] = [];
  const take = complete ? count : limit;
  for (let index = 0n; index < take; index++) {
    tick(budget);
    let rest = index;
    let x = 0n;
    localLists.forEach((l, i) => {
      x += localRoot(l, rest % l.size) * (coefficients[i] as bigint);
      rest /= l.size;
    });
    x = mod(x, n);
    recheck(mod(x * x - a, n) === 0n, 'x² ≡ a');
    roots.push(x);
  }
  roots.sort((x, z) => (x < z ? -1 : x > z ? 1 : 0));
  recheck(new Set(roots).size === roots.length, 'the listed roots are distinct');
  return { outcome: 'SOLVED', count, roots, complete, modulus_factors: modulusFactors };
}

// ---------------------------------------------------------------------------------------------
// Symbols

/** The Kronecker symbol (a/n) for every integer n: multiplicative in n with (a/2), (a/−1) and (a/0) as Kronecker defined them. */
export function kronecker(a: bigint, n: bigint): -1 | 0 | 1 {
  if (n === 0n) return a === 1n || a === -1n ? 1 : 0;
  let sign: -1 | 1 = 1;
  if (n < 0n) {
    n = -n;
    if (a < 0n) sign = -1;
  }
  let twos = 0;
  while ((n & 1n) === 0n) {
    n >>= 1n;
    twos++;
  }
  if (twos > 0) {
    if ((a & 1n) === 0n) return 0;
    const r = mod(a, 8n);
    if ((twos & 1) === 1 && (r === 3n || r === 5n)) sign = sign === 1 ? -1 : 1;
  }
  const j = n === 1n ? 1 : jacobi(a, n);
  return j === 0 ? 0 : ((j * sign) as -1 | 1);
}

/** The Kronecker symbol recomputed by a second route (n factored by 2 and the sign, the odd part by quadratic reciprocity written out here): the producer's own recheck. */
export function kroneckerByReciprocity(a: bigint, n: bigint): -1 | 0 | 1 {
  if (n === 0n) return bigGcd(a, 0n) === 1n ? 1 : 0;
  let result = 1;
  if (n < 0n) {
    n = -n;
    if (a < 0n) result = -result;
  }
  while (n % 2n === 0n) {
    n /= 2n;
    const r = mod(a, 8n);
    if (r % 2n === 0n) return 0;
    if (r === 3n || r === 5n) result = -result;
  }
  a = mod(a, n);
  while (n > 1n) {
    if (a === 0n) return 0;
    while (a % 2n === 0n) {
      a /= 2n;
      if (n % 8n === 3n || n % 8n === 5n) result = -result;
    }
    if (a % 4n === 3n && n % 4n === 3n) result = -result;
    [a, n] = [n % a, a];
  }
  return result as -1 | 1;
}

/** The Legendre symbol (a/p) by Euler's criterion a^((p−1)/2) mod p, for an odd prime p. */
export function legendreByEuler(a: bigint, p: bigint): -1 | 0 | 1 {
  const e = powMod(mod(a, p), (p - 1n) / 2n, p);
  if (e === 0n) return 0;
  if (e === 1n) return 1;
  if (e === p - 1n) return -1;
  throw new JacobianError('INTERNAL', "Euler's criterion gave neither ±1 nor 0: the modulus is not prime");
}
