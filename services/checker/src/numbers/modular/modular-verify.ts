/**
 * The checks of modular.claim.verify, with the checker's own code (no code of the runner's
 * modular pack): each claim is re-derived from its certificate —
 *
 * - inverse: a·b ≡ 1; NONE: a common divisor > 1 of a and n;
 * - CRT: every congruence holds and the modulus is the lcm; INCONSISTENT: the named pair
 *   disagrees modulo a common divisor of their moduli;
 * - order: the factorization of m (primes proven) with a^m ≡ 1 and a^(m/q) ≢ 1 for every prime q;
 * - primitive root: n and φ(n) factored (primes proven), g^(φ/q) ≢ 1, and for `least` every
 *   smaller unit shown not to be one; NONE: Gauss's rule on the proven factorization of n;
 * - discrete log: g^x ≡ h with x below the proven exact order of g; NONE: h not a unit, h^m ≢ 1
 *   modulo p^k | n while g^m ≡ 1 there (or, at 2^k, the 2-group logarithm recomputed bit by bit),
 *   or two local logarithms (each checked) disagreeing modulo the gcd of the exact local orders;
 * - square roots: every root squared, distinct, and their number against the checker's own count
 *   formula from the factorization of n; NONE: the local obstruction at p^k | n (Euler's criterion,
 *   the valuation, the residue mod 4 or 8);
 * - symbols: Legendre by Euler's criterion (p proven prime), Jacobi and Kronecker by our own loop.
 *
 * A prime above the deterministic Miller–Rabin bound (3.3·10^24) is proven only by a primality
 * certificate in the claim (`prime_certificates`: small, Pratt or ECPP), replayed by the primality
 * checker of this service; without one the claim is REJECTED with UNPROVEN_PRIME, never accepted
 * on a probable prime.
 */
import { bigGcd as gcd, isPrimeProven, ModularClaimSchema, powMod, type ModularClaim, type ModularFactor } from '@jacobian/shared';
import { checkPrimalityClaim } from '../primality/primality-verify.js';

export const ModularRejectionReason = {
  WRONG_VALUE: 'WRONG_VALUE',
  OUT_OF_RANGE: 'OUT_OF_RANGE',
  NOT_MINIMAL: 'NOT_MINIMAL',
  NOT_LEAST: 'NOT_LEAST',
  FACTORIZATION_MISMATCH: 'FACTORIZATION_MISMATCH',
  NOT_PRIME: 'NOT_PRIME',
  UNPROVEN_PRIME: 'UNPROVEN_PRIME',
  CERTIFICATE_INVALID: 'CERTIFICATE_INVALID',
  COUNT_MISMATCH: 'COUNT_MISMATCH',
  BASE_NOT_UNIT: 'BASE_NOT_UNIT',
} as const;
export type ModularRejectionReason = (typeof ModularRejectionReason)[keyof typeof ModularRejectionReason];

export type ModularCheckResult = { accepted: true; message: string; method: string } | { accepted: false; reason_code: ModularRejectionReason; message: string; path: (string | number)[]; witness: string | null };

class Rejection extends Error {
  constructor(
    readonly reason: ModularRejectionReason,
    message: string,
    readonly path: (string | number)[],
    readonly witness: string | null = null,
  ) {
    super(message);
  }
}

function reject(reason: ModularRejectionReason, message: string, path: (string | number)[], witness: bigint | string | null = null): never {
  throw new Rejection(reason, message, path, witness === null ? null : witness.toString().slice(0, 200));
}

const md = (a: bigint, m: bigint): bigint => ((a % m) + m) % m;
const one = (m: bigint): bigint => md(1n, m);
const short = (x: bigint | string): string => {
  const t = x.toString();
  return t.length > 60 ? `${t.slice(0, 25)}…(${t.length} digits)` : t;
};

/** Proves p prime or rejects: deterministic Miller–Rabin below 3.3·10^24, above it the claim's certificate replayed by the primality checker. */
type Prover = (p: bigint, path: (string | number)[]) => void;

let prove: Prover = () => undefined;

function proverOf(claim: ModularClaim, tick: () => void): Prover {
  const certificates = new Map(('prime_certificates' in claim ? (claim.prime_certificates ?? []) : []).map((c) => [c.prime, c.certificate]));
  return (p, path) => {
    const proven = isPrimeProven(p);
    if (proven === true) return;
    if (proven === false) reject(ModularRejectionReason.NOT_PRIME, `${short(p)} is not prime`, path, p);
    const certificate = certificates.get(p.toString());
    if (certificate === undefined) reject(ModularRejectionReason.UNPROVEN_PRIME, `${short(p)} is above the deterministic Miller–Rabin bound 3.3·10^24 and the claim carries no primality certificate of it`, path, p);
    const replay = checkPrimalityClaim({ n: p.toString(), verdict: 'PRIME', certificate }, tick);
    if (!replay.accepted) reject(ModularRejectionReason.UNPROVEN_PRIME, `the primality certificate of ${short(p)} does not replay: ${replay.reason_code}: ${replay.message}`.slice(0, 500), ['prime_certificates'], p);
  };
}

/** The listed factorization multiplies to `value`, its primes increasing and each proven prime. */
function checkFactorization(value: bigint, factors: readonly ModularFactor[], path: (string | number)[]): { prime: bigint; exponent: number }[] {
  let product = 1n;
  let last = 1n;
  const out = factors.map((f, i) => {
    const p = BigInt(f.prime);
    if (p <= last) reject(ModularRejectionReason.FACTORIZATION_MISMATCH, `the primes must be listed in increasing order, each once`, [...path, i, 'prime'], p);
    last = p;
    prove(p, [...path, i, 'prime']);
    product *= p ** BigInt(f.exponent);
    return { prime: p, exponent: f.exponent };
  });
  if (product !== value) reject(ModularRejectionReason.FACTORIZATION_MISMATCH, `the factors multiply to ${short(product)}, not ${short(value)}`, path, product);
  return out;
}

/** m is the exact order of g modulo n: g^m ≡ 1 and g^(m/q) ≢ 1 for each prime q of its (checked) factorization. */
function checkExactOrder(g: bigint, n: bigint, m: bigint, factors: readonly ModularFactor[], path: (string | number)[]): void {
  const primes = checkFactorization(m, factors, [...path, 'order_factors']);
  if (powMod(md(g, n), m, n) !== one(n)) reject(ModularRejectionReason.WRONG_VALUE, `the power ${short(m)} of the element is not 1`, [...path, 'order'], m);
  for (const { prime } of primes) {
    if (powMod(md(g, n), m / prime, n) === one(n)) reject(ModularRejectionReason.NOT_MINIMAL, `the power ${short(m / prime)} = order/${short(prime)} is already 1: the order is smaller`, [...path, 'order'], m / prime);
  }
}

/** Gauss: (Z/nZ)* is cyclic exactly for n = 1, 2, 4, p^k, 2p^k (p odd). */
function cyclic(factors: readonly { prime: bigint; exponent: number }[]): boolean {
  const odd = factors.filter((f) => f.prime !== 2n);
  const two = factors.find((f) => f.prime === 2n)?.exponent ?? 0;
  if (odd.length === 0) return two <= 2;
  return odd.length === 1 && two <= 1;
}

/** Our own Jacobi symbol (n odd positive): reciprocity with the factors of 2 taken one at a time. */
function jacobiOwn(a: bigint, n: bigint): number {
  a = md(a, n);
  let t = 1;
  while (a !== 0n) {
    while (a % 2n === 0n) {
      a /= 2n;
      const r = n % 8n;
      if (r === 3n || r === 5n) t = -t;
    }
    [a, n] = [n, a];
    if (a % 4n === 3n && n % 4n === 3n) t = -t;
    a %= n;
  }
  return n === 1n ? t : 0;
}

function kroneckerOwn(a: bigint, n: bigint): number {
  if (n === 0n) return a === 1n || a === -1n ? 1 : 0;
  let t = 1;
  if (n < 0n) {
    n = -n;
    if (a < 0n) t = -t;
  }
  while (n % 2n === 0n) {
    n /= 2n;
    const r = md(a, 8n);
    if (r % 2n === 0n) return 0;
    if (r === 3n || r === 5n) t = -t;
  }
  const j = jacobiOwn(a, n);
  return j === 0 ? 0 : j * t;
}

/** p^k divides n with p a proven prime. */
function checkPrimePowerOfN(p: bigint, k: number, n: bigint, path: (string | number)[]): bigint {
  prove(p, [...path, 'prime']);
  const pk = p ** BigInt(k);
  if (n % pk !== 0n) reject(ModularRejectionReason.CERTIFICATE_INVALID, `${short(p)}^${k} does not divide n`, path, pk);
  return pk;
}

/** The local count N of y mod p^j with y² ≡ u (u a unit mod p). */
function unitRootCount(u: bigint, p: bigint, j: number): bigint {
  if (p === 2n) {
    if (j === 1) return 1n;
    if (j === 2) return md(u, 4n) === 1n ? 2n : 0n;
    return md(u, 8n) === 1n ? 4n : 0n;
  }
  return powMod(md(u, p), (p - 1n) / 2n, p) === 1n ? 2n : 0n;
}

/** The number of x mod p^k with x² ≡ a. */
function localRootCount(a: bigint, p: bigint, k: number): bigint {
  const pk = p ** BigInt(k);
  let u = md(a, pk);
  if (u === 0n) return p ** BigInt(Math.floor(k / 2));
  let v = 0;
  while (u % p === 0n) {
    u /= p;
    v++;
  }
  if (v % 2 === 1) return 0n;
  return unitRootCount(u, p, k - v) * p ** BigInt(v / 2);
}

/** Whether h ∈ ⟨g⟩ modulo 2^k, g of exact order 2^j there: the logarithm recomputed bit by bit. */
function inTwoGroup(g: bigint, h: bigint, m: bigint, j: number, tick: () => void): boolean {
  const gInv = (() => {
    // g is odd: its inverse mod 2^k by Newton's iteration x ← x(2 − g x).
    let x = 1n;
    for (let bits = 1n; bits < m * 2n; bits *= 2n) x = md(x * (2n - g * x), m);
    return x;
  })();
  let x = 0n;
  for (let b = 0; b < j; b++) {
    tick();
    const residual = md(powMod(gInv, x, m) * h, m);
    if (powMod(residual, 1n << BigInt(j - 1 - b), m) !== 1n) x += 1n << BigInt(b);
  }
  return powMod(g, x, m) === md(h, m);
}

function checkClaim(claim: ModularClaim, tick: () => void): string {
  switch (claim.kind) {
    case 'INVERSE': {
      const a = BigInt(claim.a);
      const n = BigInt(claim.n);
      if (claim.outcome === 'INVERTIBLE') {
        const b = BigInt(claim.inverse);
        if (b >= n) reject(ModularRejectionReason.OUT_OF_RANGE, 'the inverse must lie in [0, n)', ['inverse'], b);
        if (md(a * b, n) !== one(n)) reject(ModularRejectionReason.WRONG_VALUE, `a·b ≡ ${short(md(a * b, n))}, not 1 (mod n)`, ['inverse'], md(a * b, n));
        return 'a·b ≡ 1 (mod n) multiplied out';
      }
      const d = BigInt(claim.gcd);
      if (d <= 1n || a % d !== 0n || n % d !== 0n) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'the certificate must be a common divisor > 1 of a and n', ['gcd'], d);
      return `${short(d)} > 1 divides a and n, so a·b ≡ 1 (mod n) has no solution`;
    }
    case 'CRT': {
      const cs = claim.congruences.map((c) => ({ r: BigInt(c.residue), m: BigInt(c.modulus) }));
      if (claim.outcome === 'SOLVED') {
        const x = BigInt(claim.residue);
        const L = BigInt(claim.modulus);
        let lcm = 1n;
        for (const c of cs) lcm = (lcm / gcd(lcm, c.m)) * c.m;
        if (L !== lcm) reject(ModularRejectionReason.WRONG_VALUE, `the modulus of the solution set is lcm(m_i) = ${short(lcm)}`, ['modulus'], lcm);
        if (x >= L) reject(ModularRejectionReason.OUT_OF_RANGE, 'the residue must lie in [0, lcm)', ['residue'], x);
        cs.forEach((c, i) => {
          if (md(x - c.r, c.m) !== 0n) reject(ModularRejectionReason.WRONG_VALUE, `x does not satisfy congruence ${i}`, ['congruences', i], md(x, c.m));
        });
        return `x satisfies all ${cs.length} congruences and the modulus is their lcm (the solutions are exactly x + lcm·Z)`;
      }
      const f = cs[claim.first];
      const s = cs[claim.second];
      if (f === undefined || s === undefined || claim.first === claim.second) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'first and second must name two different congruences', ['first']);
      const d = BigInt(claim.gcd);
      if (f.m % d !== 0n || s.m % d !== 0n) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'the certificate must divide both moduli', ['gcd'], d);
      if (md(f.r - s.r, d) === 0n) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'the two residues agree modulo the certificate', ['gcd'], d);
      return `x ≡ r_${claim.first} and x ≡ r_${claim.second} would agree modulo ${short(d)}, a common divisor of their moduli; they do not`;
    }
    case 'ORDER': {
      const a = BigInt(claim.a);
      const n = BigInt(claim.n);
      if (claim.outcome === 'NONE') {
        const d = BigInt(claim.gcd);
        if (d <= 1n || a % d !== 0n || n % d !== 0n) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'the certificate must be a common divisor > 1 of a and n', ['gcd'], d);
        return `${short(d)} > 1 divides a and n: a is not a unit, so no power of it is 1`;
      }
      checkExactOrder(a, n, BigInt(claim.order), claim.order_factors, []);
      return 'a^m ≡ 1 and a^(m/q) ≢ 1 for every prime q | m, with the factorization of m proven';
    }
    case 'PRIMITIVE_ROOT': {
      const n = BigInt(claim.n);
      const nf = checkFactorization(n, claim.modulus_factors, ['modulus_factors']);
      if (claim.outcome === 'NONE') {
        if (cyclic(nf)) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'n is 1, 2, 4, p^k or 2p^k: a primitive root exists', ['modulus_factors']);
        return "n (factored, primes proven) is not 1, 2, 4, p^k or 2p^k: by Gauss's theorem (Z/nZ)* is not cyclic";
      }
      const phi = nf.reduce((acc, f) => acc * (f.prime - 1n) * f.prime ** BigInt(f.exponent - 1), 1n);
      const pf = checkFactorization(phi, claim.phi_factors, ['phi_factors']);
      const g = BigInt(claim.root);
      if (g >= n && !(n === 1n && g === 0n)) reject(ModularRejectionReason.OUT_OF_RANGE, 'the root must lie in [0, n)', ['root'], g);
      if (gcd(g, n) !== 1n) reject(ModularRejectionReason.WRONG_VALUE, 'the root is not a unit', ['root'], g);
      const isRoot = (c: bigint): boolean => powMod(c, phi, n) === one(n) && pf.every((f) => powMod(c, phi / f.prime, n) !== one(n));
      if (!isRoot(g)) reject(ModularRejectionReason.NOT_MINIMAL, 'the element has order smaller than φ(n)', ['root'], g);
      if (claim.least) {
        if (g > 1_000_000n) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'leastness is checked for roots below 10^6 only', ['least'], g);
        for (let c = 1n; c < g; c++) {
          tick();
          if (gcd(c, n) === 1n && isRoot(c)) reject(ModularRejectionReason.NOT_LEAST, `${c} is a smaller primitive root`, ['root'], c);
        }
      }
      return `g^(φ/q) ≢ 1 for every prime q | φ(n) = ${short(phi)} (n and φ(n) factored, primes proven)${claim.least ? ', and every smaller unit fails that test' : ''}`;
    }
    case 'DISCRETE_LOG': {
      const g = BigInt(claim.base);
      const h = BigInt(claim.target);
      const n = BigInt(claim.n);
      if (gcd(g, n) !== 1n) reject(ModularRejectionReason.BASE_NOT_UNIT, 'the base must be a unit modulo n', ['base'], g);
      if (claim.outcome === 'SOLVED') {
        const x = BigInt(claim.log);
        const m = BigInt(claim.order);
        checkExactOrder(g, n, m, claim.order_factors, []);
        if (x >= m) reject(ModularRejectionReason.NOT_LEAST, 'the least solution lies below the order of the base', ['log'], x);
        if (powMod(md(g, n), x, n) !== md(h, n)) reject(ModularRejectionReason.WRONG_VALUE, `g^x ≡ ${short(powMod(md(g, n), x, n))}, not h`, ['log'], powMod(md(g, n), x, n));
        return 'g^x ≡ h by exponentiation, with x below the proven exact order of g (so x is the least solution, the rest x + t·ord)';
      }
      if (claim.reason === 'TARGET_NOT_UNIT') {
        const d = BigInt(claim.gcd);
        if (d <= 1n || h % d !== 0n || n % d !== 0n) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'the certificate must be a common divisor > 1 of h and n', ['gcd'], d);
        return `${short(d)} > 1 divides h and n; every power of the unit g is a unit`;
      }
      if (claim.reason === 'NOT_IN_SUBGROUP_LOCALLY') {
        const l = claim.local;
        const p = BigInt(l.prime);
        const pk = checkPrimePowerOfN(p, l.exponent, n, ['local']);
        const m = BigInt(l.order);
        if (powMod(md(g, pk), m, pk) !== one(pk)) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'g^m ≢ 1 modulo p^k', ['local', 'order'], m);
        if (powMod(md(h, pk), m, pk) !== one(pk)) return `modulo ${short(p)}^${l.exponent} (which divides n): g^m ≡ 1 but h^m ≢ 1, so h is no power of g`;
        // h^m ≡ 1: for odd p (or 2^k, k ≤ 2) the local group is cyclic and this puts h in ⟨g⟩ once m is the exact order.
        checkExactOrder(g, pk, m, l.order_factors, ['local']);
        if (p !== 2n || l.exponent <= 2) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'the local group is cyclic and h^ord(g) ≡ 1 there: h is a power of g', ['local'], m);
        const j = l.order_factors.find((f) => f.prime === '2')?.exponent ?? 0;
        if (inTwoGroup(md(g, pk), md(h, pk), pk, j, tick)) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'the 2-group logarithm exists: h is a power of g modulo 2^k', ['local']);
        return `modulo 2^${l.exponent}: the logarithm of h in ⟨g⟩ (order 2^${j}) recomputed bit by bit does not exist`;
      }
      const locals = [claim.first, claim.second].map((l, i) => {
        const path = [i === 0 ? 'first' : 'second'];
        const pk = checkPrimePowerOfN(BigInt(l.prime), l.exponent, n, path);
        const m = BigInt(l.order);
        checkExactOrder(g, pk, m, l.order_factors, path);
        const x = BigInt(l.log);
        if (powMod(md(g, pk), x, pk) !== md(h, pk)) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'the local logarithm is wrong', [...path, 'log'], x);
        return { m, x };
      });
      const [a, b] = locals as [{ m: bigint; x: bigint }, { m: bigint; x: bigint }];
      const d = gcd(a.m, b.m);
      if (md(a.x - b.x, d) === 0n) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'the local logarithms agree modulo the gcd of the local orders', ['second', 'log'], d);
      return `every solution has x ≡ x_1 (mod ord_1) and x ≡ x_2 (mod ord_2) (local logs and exact local orders checked), which disagree modulo gcd = ${short(d)}`;
    }
    case 'SQRT': {
      const a = BigInt(claim.a);
      const n = BigInt(claim.n);
      if (claim.outcome === 'NONE') {
        const f = claim.failure;
        const p = BigInt(f.prime);
        const pk = checkPrimePowerOfN(p, f.exponent, n, ['failure']);
        let u = md(a, pk);
        if (u === 0n) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'a ≡ 0 modulo p^k: 0 is a root there', ['failure']);
        let v = 0;
        while (u % p === 0n) {
          u /= p;
          v++;
        }
        if (v !== f.valuation) reject(ModularRejectionReason.CERTIFICATE_INVALID, `the valuation of a at p is ${v}`, ['failure', 'valuation'], BigInt(v));
        const j = f.exponent - v;
        const holds =
          f.rule === 'ODD_VALUATION'
            ? v % 2 === 1
            : v % 2 === 0 &&
              (f.rule === 'NON_RESIDUE'
                ? p !== 2n && powMod(md(u, p), (p - 1n) / 2n, p) === p - 1n
                : f.rule === 'NOT_1_MOD_4'
                  ? p === 2n && j >= 2 && md(u, 4n) !== 1n
                  : p === 2n && j >= 3 && md(u, 8n) !== 1n);
        if (!holds) reject(ModularRejectionReason.CERTIFICATE_INVALID, `the obstruction ${f.rule} does not hold modulo ${short(p)}^${f.exponent}`, ['failure', 'rule']);
        return `modulo ${short(p)}^${f.exponent} (which divides n) x² ≡ a has no solution: ${f.rule}${f.rule === 'NON_RESIDUE' ? " (Euler's criterion gives −1)" : ''}`;
      }
      const nf = checkFactorization(n, claim.modulus_factors, ['modulus_factors']);
      let previous = -1n;
      claim.roots.forEach((text, i) => {
        tick();
        const x = BigInt(text);
        if (x >= n) reject(ModularRejectionReason.OUT_OF_RANGE, 'a root must lie in [0, n)', ['roots', i], x);
        if (x <= previous) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'the roots must be distinct and increasing', ['roots', i], x);
        previous = x;
        if (md(x * x - a, n) !== 0n) reject(ModularRejectionReason.WRONG_VALUE, `x² ≢ a (mod n)`, ['roots', i], x);
      });
      const count = nf.reduce((acc, f) => acc * localRootCount(a, f.prime, f.exponent), 1n);
      if (count !== BigInt(claim.count)) reject(ModularRejectionReason.COUNT_MISMATCH, `there are ${short(count)} roots`, ['count'], count);
      if (claim.complete !== (BigInt(claim.roots.length) === count)) reject(ModularRejectionReason.COUNT_MISMATCH, 'complete must say whether every root is listed', ['complete'], count);
      return `every listed root squares to a; the number of roots, ${short(count)}, recounted prime power by prime power from the proven factorization of n`;
    }
    case 'SYMBOL': {
      const a = BigInt(claim.a);
      const n = BigInt(claim.n);
      let value: number;
      if (claim.symbol === 'legendre') {
        if (n <= 2n || isPrimeProven(n) !== true) reject(ModularRejectionReason.NOT_PRIME, 'the Legendre symbol needs a proven odd prime p', ['n'], n);
        const e = powMod(md(a, n), (n - 1n) / 2n, n);
        value = e === 0n ? 0 : e === 1n ? 1 : -1;
      } else if (claim.symbol === 'jacobi') {
        if (n <= 0n || n % 2n === 0n) reject(ModularRejectionReason.CERTIFICATE_INVALID, 'the Jacobi symbol needs an odd positive n', ['n'], n);
        value = jacobiOwn(a, n);
      } else {
        value = kroneckerOwn(a, n);
      }
      if (value !== claim.value) reject(ModularRejectionReason.WRONG_VALUE, `the symbol is ${value}`, ['value'], String(value));
      return claim.symbol === 'legendre' ? "Euler's criterion a^((p−1)/2) mod p" : `the ${claim.symbol} symbol recomputed by the checker's own reciprocity loop`;
    }
  }
}

const METHODS: Record<ModularClaim['kind'], string> = {
  INVERSE: 'multiplying out a·b mod n',
  CRT: 'substitution into every congruence and the lcm recomputed',
  ORDER: 'exponentiation at m and m/q for each proven prime q | m',
  PRIMITIVE_ROOT: "Gauss's rule and g^(φ/q) on the proven factorizations of n and φ(n)",
  DISCRETE_LOG: 'exponentiation with the exact order of g (or its local orders) proven by its factorization',
  SQRT: 'squaring every root and recounting by prime powers',
  SYMBOL: "Euler's criterion or the checker's own reciprocity loop",
};

/** Check a modular claim (parsed again here: it crossed a process boundary). */
export function checkModularClaim(raw: unknown, tick: () => void = () => undefined): ModularCheckResult {
  const claim = ModularClaimSchema.parse(raw);
  // The checks are synchronous: the prover of this claim serves them for the duration of this call.
  prove = proverOf(claim, tick);
  try {
    const message = checkClaim(claim, tick);
    return { accepted: true, message, method: METHODS[claim.kind] };
  } catch (error) {
    if (error instanceof Rejection) return { accepted: false, reason_code: error.reason, message: error.message, path: error.path, witness: error.witness };
    throw error;
  } finally {
    prove = () => undefined;
  }
}
