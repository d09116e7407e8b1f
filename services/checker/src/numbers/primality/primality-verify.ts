/**
 * The independent checks of primality certificates, compositeness witnesses and certified
 * factorizations (conditions in shared/src/domains/numbers/primality.ts), with this checker's own
 * code: nothing of the runner's certifier or replay.
 *
 * ECPP points are multiplied in Jacobian coordinates (X : Y : Z) ↔ (X/Z², Y/Z³) modulo N, adding
 * affine points (Z = 1; made affine only with an inverse of Z modulo N, which exists exactly when
 * the point is not O modulo any factor), with no case distinctions on values modulo N. Modulo each prime p | N every triple is
 * then either a correct representative of the true multiple of P on E(F_p), or (0 : 0 : 0): the
 * formulas' degenerate cases (adding equal points, adding to O) give (0 : 0 : 0), which stays
 * (0 : 0 : 0) under both formulas. Hence [s]P ≠ O modulo every p iff gcd(Z, N) = 1, and a final
 * triple with Z ≡ 0 (mod N) and gcd(Y, N) = 1 is O modulo every p. With gcd(4a³ + 27b², N) = 1 and
 * gcd(N, 6) = 1 each E mod p is an elliptic curve, Q = [s]P has order q there (q prime), so
 * q ≤ #E(F_p) ≤ p + 1 + 2√p; for the least prime p | N of a composite N, p ≤ r = ⌊√N⌋, so
 * q > r + 1 + 2√r makes N prime.
 */
import { bigGcd, DETERMINISTIC_MR_BOUND, IntegerFactorizationClaimSchema, PrimalityClaimSchema, type EcppStep, type PrimalityCertificate, type PrimalityClaim } from '@jacobian/shared';

/** Why a claim fails; each names one condition of the claim's semantics. */
export const PrimalityRejectionReason = {
  /** A `small` certificate whose n is ≥ ψ13, or that fails deterministic Miller–Rabin. */
  SMALL_NOT_PRIME: 'SMALL_NOT_PRIME',
  /** A Pratt certificate's prime powers do not multiply to n − 1. */
  PRATT_INCOMPLETE: 'PRATT_INCOMPLETE',
  /** The Pratt witness a is outside 2 ≤ a < n, or a^(n−1) ≢ 1 (mod n). */
  PRATT_FERMAT: 'PRATT_FERMAT',
  /** a^((n−1)/p) ≡ 1 (mod n) for a listed prime p: a is not of order n − 1. */
  PRATT_ORDER: 'PRATT_ORDER',
  /** A nested certificate is about another number than the prime it stands for. */
  SUBJECT_MISMATCH: 'SUBJECT_MISMATCH',
  /** An ECPP step's N is not the previous step's q (or n for the first). */
  ECPP_CHAIN: 'ECPP_CHAIN',
  /** N < 5 or not prime to 6, a/x/y not reduced modulo N, or s not dividing m = N + 1 − t. */
  ECPP_PARAMETERS: 'ECPP_PARAMETERS',
  /** q ≤ (N^(1/4) + 1)². */
  ECPP_BOUND: 'ECPP_BOUND',
  /** gcd(4a³ + 27b², N) ≠ 1. */
  ECPP_SINGULAR: 'ECPP_SINGULAR',
  /** [s]P is O modulo a factor of N (gcd(Z, N) ≠ 1). */
  ECPP_COFACTOR: 'ECPP_COFACTOR',
  /** [m]P ≠ O: the curve order or the point is wrong. */
  ECPP_ORDER: 'ECPP_ORDER',
  /** The chain's last q is not below ψ13 or fails deterministic Miller–Rabin. */
  ECPP_LAST: 'ECPP_LAST',
  /** A claimed factor is not a non-trivial divisor of n. */
  NOT_A_FACTOR: 'NOT_A_FACTOR',
  /** A claimed Miller–Rabin base is outside 2 ≤ a ≤ n − 2, n is even, or n is a strong probable prime to it. */
  NOT_A_WITNESS: 'NOT_A_WITNESS',
  /** A factorization's prime powers do not multiply to n. */
  PRODUCT_MISMATCH: 'PRODUCT_MISMATCH',
} as const;
export type PrimalityRejectionReason = (typeof PrimalityRejectionReason)[keyof typeof PrimalityRejectionReason];

export type PrimalityCheckResult = { accepted: true; message: string } | { accepted: false; reason_code: PrimalityRejectionReason; message: string; path: (string | number)[]; witness: string | null };

class Rejection extends Error {
  constructor(
    readonly reason: PrimalityRejectionReason,
    message: string,
    readonly path: (string | number)[],
    readonly witness: string | null = null,
  ) {
    super(message);
  }
}

/** Called between units of work; throws to stop (deadline, cancel). */
export type Poll = () => void;

function modPow(base: bigint, exponent: bigint, m: bigint): bigint {
  let result = 1n % m;
  let b = ((base % m) + m) % m;
  let e = exponent;
  while (e > 0n) {
    if ((e & 1n) === 1n) result = (result * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return result;
}

function squareRootFloor(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt((n.toString(2).length >> 1) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** Odd n > 2 is a strong probable prime to base a. */
function strongProbablePrime(n: bigint, a: bigint): boolean {
  let d = n - 1n;
  let s = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    s++;
  }
  let x = modPow(a, d, n);
  if (x === 1n || x === n - 1n) return true;
  for (let i = 1; i < s; i++) {
    x = (x * x) % n;
    if (x === n - 1n) return true;
  }
  return false;
}

const BASES = [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n];

/** n < ψ13: prime by trial division below 42, by Miller–Rabin on the 13 bases above (Sorenson–Webster). */
function smallPrime(n: bigint): boolean {
  if (n < 42n) return BASES.includes(n);
  if ((n & 1n) === 0n) return false;
  return BASES.every((a) => strongProbablePrime(n, a));
}

type Jacobian = [bigint, bigint, bigint];
type Affine = readonly [bigint, bigint];

function jDouble([X, Y, Z]: Jacobian, a: bigint, N: bigint): Jacobian {
  const YY = (Y * Y) % N;
  const S = (4n * X * YY) % N;
  // M = 3X² + aZ⁴ (one reduction when a = 0, as on PARI's CM curves with j = 0).
  const M = a === 0n ? (3n * X * X) % N : (3n * X * X + a * ((Z * Z) % N) ** 2n) % N;
  const X3 = (((M * M - 2n * S) % N) + N) % N;
  const Y3 = (((M * (S - X3) - 8n * YY * YY) % N) + N) % N;
  return [X3, Y3, (2n * Y * Z) % N];
}

/** (X1 : Y1 : Z1) + (x2, y2): the Jacobian formula with Z2 = 1 (same degenerate cases, see the module comment). */
function jAddAffine([X1, Y1, Z1]: Jacobian, [x2, y2]: Affine, N: bigint): Jacobian {
  const Z1Z1 = (Z1 * Z1) % N;
  const U2 = (x2 * Z1Z1) % N;
  const S2 = (((y2 * Z1) % N) * Z1Z1) % N;
  const H = (((U2 - X1) % N) + N) % N;
  const r = (((S2 - Y1) % N) + N) % N;
  const HH = (H * H) % N;
  const HHH = (HH * H) % N;
  const X1HH = (X1 * HH) % N;
  const X3 = (((r * r - HHH - 2n * X1HH) % N) + N) % N;
  const Y3 = (((r * (X1HH - X3) - Y1 * HHH) % N) + N) % N;
  return [X3, Y3, (Z1 * H) % N];
}

/** The inverse of z modulo N, or null when gcd(z, N) ≠ 1 (extended Euclid). */
function inverse(z: bigint, N: bigint): bigint | null {
  let [r0, r1] = [N, ((z % N) + N) % N];
  let [t0, t1] = [0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return r0 === 1n ? ((t0 % N) + N) % N : null;
}

/** (X/Z², Y/Z³), or null when Z is not a unit modulo N (the point is O modulo a factor of N). */
function toAffine([X, Y, Z]: Jacobian, N: bigint): Affine | null {
  const zi = inverse(Z, N);
  if (zi === null) return null;
  const zi2 = (zi * zi) % N;
  return [(X * zi2) % N, (((Y * zi2) % N) * zi) % N];
}

/** [k]P for k ≥ 1 and affine P, left to right over the bits of k, with the formulas as they are (no case distinctions). */
function multiplyBinary(P: Affine, k: bigint, a: bigint, N: bigint): Jacobian {
  const bits = k.toString(2);
  let R: Jacobian = [P[0], P[1], 1n];
  for (let i = 1; i < bits.length; i++) {
    R = jDouble(R, a, N);
    if (bits[i] === '1') R = jAddAffine(R, P, N);
  }
  return R;
}

const WINDOW = 4;

/**
 * [k]P for odd k ≥ 1 by a sliding window of 4 bits over the odd multiples P, 3P, …, 15P made
 * affine; null when one of them is O modulo a factor of N (never for a point of prime order
 * q > 15 modulo a prime N). Each step is a doubling or an addition of a correct representative,
 * so the invariant of the module comment holds as for the binary method.
 */
function multiplyWindow(P: Affine, k: bigint, a: bigint, N: bigint): Jacobian | null {
  const table: Affine[] = [P];
  const P2 = toAffine(jDouble([P[0], P[1], 1n], a, N), N);
  if (P2 === null) return null;
  for (let i = 1; i < 1 << (WINDOW - 1); i++) {
    const next = toAffine(jAddAffine([...(table[i - 1] as Affine), 1n], P2, N), N);
    if (next === null) return null;
    table.push(next);
  }
  const bits = k.toString(2);
  let R: Jacobian | null = null;
  let i = 0;
  while (i < bits.length) {
    if (bits[i] === '0') {
      if (R !== null) R = jDouble(R, a, N);
      i++;
      continue;
    }
    // The longest window of at most WINDOW bits starting here and ending in a 1.
    let j = Math.min(i + WINDOW, bits.length);
    while (bits[j - 1] === '0') j--;
    const value = parseInt(bits.slice(i, j), 2);
    const point = table[(value - 1) >> 1] as Affine;
    if (R === null) R = [point[0], point[1], 1n];
    else {
      for (let d = i; d < j; d++) R = jDouble(R, a, N);
      R = jAddAffine(R, point, N);
    }
    i = j;
  }
  return R;
}

function checkEcppStep(step: EcppStep, path: (string | number)[]): bigint {
  const [Nt, tt, st, at, [xt, yt]] = step;
  const N = BigInt(Nt);
  const s = BigInt(st);
  const a = BigInt(at);
  const x = BigInt(xt);
  const y = BigInt(yt);
  if (N < 5n || N % 2n === 0n || N % 3n === 0n) throw new Rejection('ECPP_PARAMETERS', 'N must be at least 5 and prime to 6', [...path, 0]);
  if (a >= N || x >= N || y >= N) throw new Rejection('ECPP_PARAMETERS', 'a, x and y must be reduced modulo N', path);
  const m = N + 1n - BigInt(tt);
  if (m <= 0n || m % s !== 0n) throw new Rejection('ECPP_PARAMETERS', 's does not divide m = N + 1 − t', [...path, 2], m.toString());
  const q = m / s;
  const r = squareRootFloor(N);
  const slack = q - r - 1n;
  if (slack <= 0n || slack * slack <= 4n * r) throw new Rejection('ECPP_BOUND', 'q = m/s does not exceed (N^(1/4) + 1)²', [...path, 2], q.toString());
  const b = (((y * y - x * x * x - a * x) % N) + N) % N;
  const discriminant = (((4n * a * a * a + 27n * b * b) % N) + N) % N;
  const g = bigGcd(discriminant, N);
  if (g !== 1n) throw new Rejection('ECPP_SINGULAR', 'gcd(4a³ + 27b², N) ≠ 1: the curve is singular modulo a factor of N', [...path, 3], g.toString());
  const sP = multiplyBinary([x, y], s, a, N);
  const Q = toAffine(sP, N);
  if (Q === null) throw new Rejection('ECPP_COFACTOR', '[s]P is O modulo a factor of N', [...path, 4], bigGcd(sP[2], N).toString());
  const R = q % 2n === 1n ? multiplyWindow(Q, q, a, N) : multiplyBinary(Q, q, a, N);
  if (R === null) throw new Rejection('ECPP_COFACTOR', 'a small multiple of [s]P is O modulo a factor of N', [...path, 4]);
  if (R[2] !== 0n || bigGcd(R[1], N) !== 1n) throw new Rejection('ECPP_ORDER', '[m]P ≠ O: the curve order m = N + 1 − t or the point P is wrong', [...path, 1]);
  return q;
}

/**
 * ∏ prime^exponent, or null when it certainly exceeds `bound` (Σ exponent·(bits(prime) − 1) is a
 * lower bound of its bit length): a claim with a huge exponent is rejected before the power is built.
 */
function productUpTo(factors: readonly { prime: string; exponent: number }[], bound: bigint): bigint | null {
  const limit = bound.toString(2).length;
  let bits = 0;
  for (const f of factors) {
    bits += f.exponent * (BigInt(f.prime).toString(2).length - 1);
    if (bits > limit) return null;
  }
  let product = 1n;
  for (const f of factors) product *= BigInt(f.prime) ** BigInt(f.exponent);
  return product;
}

function checkCertificate(certificate: PrimalityCertificate, path: (string | number)[], poll: Poll): void {
  poll();
  const n = BigInt(certificate.n);
  switch (certificate.kind) {
    case 'small':
      if (n >= DETERMINISTIC_MR_BOUND || !smallPrime(n)) throw new Rejection('SMALL_NOT_PRIME', `${certificate.n.slice(0, 40)} is not a prime below ψ13 (deterministic Miller–Rabin on the first 13 primes)`, [...path, 'n'], certificate.n);
      return;
    case 'pratt': {
      const a = BigInt(certificate.witness);
      if (n < 3n || a < 2n || a >= n) throw new Rejection('PRATT_FERMAT', 'a Pratt certificate needs n ≥ 3 and 2 ≤ a < n', [...path, 'witness']);
      const product = productUpTo(certificate.factors, n - 1n);
      if (product !== n - 1n) throw new Rejection('PRATT_INCOMPLETE', 'the prime powers do not multiply to n − 1', [...path, 'factors'], product === null ? 'a product far larger than n − 1' : product.toString().slice(0, 100));
      if (modPow(a, n - 1n, n) !== 1n) throw new Rejection('PRATT_FERMAT', 'a^(n−1) ≢ 1 (mod n)', [...path, 'witness'], certificate.witness);
      for (const [i, f] of certificate.factors.entries()) {
        poll();
        if (f.certificate.n !== f.prime) throw new Rejection('SUBJECT_MISMATCH', `the certificate is about ${f.certificate.n.slice(0, 40)}, not the prime ${f.prime.slice(0, 40)}`, [...path, 'factors', i, 'certificate', 'n']);
        if (modPow(a, (n - 1n) / BigInt(f.prime), n) === 1n) throw new Rejection('PRATT_ORDER', `a^((n−1)/p) ≡ 1 (mod n) for p = ${f.prime.slice(0, 40)}`, [...path, 'factors', i, 'prime'], f.prime);
        checkCertificate(f.certificate, [...path, 'factors', i, 'certificate'], poll);
      }
      return;
    }
    case 'ecpp': {
      let expected = n;
      for (const [i, step] of certificate.steps.entries()) {
        poll();
        if (BigInt(step[0]) !== expected) throw new Rejection('ECPP_CHAIN', 'N is not the q of the step before (n for the first step)', [...path, 'steps', i, 0], expected.toString());
        expected = checkEcppStep(step, [...path, 'steps', i]);
      }
      const last = [...path, 'steps', certificate.steps.length - 1];
      if (expected >= DETERMINISTIC_MR_BOUND || !smallPrime(expected)) throw new Rejection('ECPP_LAST', 'the last q is not a prime below ψ13 (deterministic Miller–Rabin)', last, expected.toString());
      return;
    }
  }
}

function run(body: () => string): PrimalityCheckResult {
  try {
    return { accepted: true, message: body() };
  } catch (error) {
    if (error instanceof Rejection) return { accepted: false, reason_code: error.reason, message: error.message, path: error.path, witness: error.witness };
    throw error;
  }
}

/** Check a primality claim (already canonical or not: it is parsed here again). */
export function checkPrimalityClaim(input: unknown, poll: Poll = () => undefined): PrimalityCheckResult {
  const claim: PrimalityClaim = PrimalityClaimSchema.parse(input);
  return run(() => {
    const n = BigInt(claim.n);
    if (claim.verdict === 'PRIME') {
      checkCertificate(claim.certificate, ['certificate'], poll);
      return `${claim.certificate.kind} certificate replayed: ${claim.n.length}-digit n is prime`;
    }
    const w = claim.witness;
    if (w.kind === 'factor') {
      const d = BigInt(w.factor);
      if (d <= 1n || d >= n || n % d !== 0n) throw new Rejection('NOT_A_FACTOR', `${w.factor.slice(0, 40)} is not a divisor d of n with 1 < d < n`, ['witness', 'factor'], w.factor);
      return `${w.factor.slice(0, 40)} divides n properly: n is composite`;
    }
    const a = BigInt(w.base);
    if ((n & 1n) === 0n || n < 5n || a < 2n || a > n - 2n) throw new Rejection('NOT_A_WITNESS', 'a Miller–Rabin witness needs odd n ≥ 5 and 2 ≤ a ≤ n − 2 (give an even n a factor 2)', ['witness', 'base'], w.base);
    if (strongProbablePrime(n, a)) throw new Rejection('NOT_A_WITNESS', `n is a strong probable prime to base ${w.base.slice(0, 40)}: not a witness`, ['witness', 'base'], w.base);
    return `n is not a strong probable prime to base ${w.base.slice(0, 40)} (Miller–Rabin): n is composite`;
  });
}

/** Check a certified factorization claim: the product, then every prime's certificate. */
export function checkFactorizationClaim(input: unknown, poll: Poll = () => undefined): PrimalityCheckResult {
  const claim = IntegerFactorizationClaimSchema.parse(input);
  return run(() => {
    const product = productUpTo(claim.factors, BigInt(claim.n));
    if (product !== BigInt(claim.n)) throw new Rejection('PRODUCT_MISMATCH', 'the prime powers do not multiply to n', ['factors'], product === null ? 'a product far larger than n' : product.toString().slice(0, 100));
    for (const [i, f] of claim.factors.entries()) {
      if (f.certificate.n !== f.prime) throw new Rejection('SUBJECT_MISMATCH', `the certificate is about ${f.certificate.n.slice(0, 40)}, not the prime ${f.prime.slice(0, 40)}`, ['factors', i, 'certificate', 'n']);
      checkCertificate(f.certificate, ['factors', i, 'certificate'], poll);
    }
    return `n = ${claim.factors.map((f) => (f.exponent === 1 ? f.prime.slice(0, 30) : `${f.prime.slice(0, 30)}^${f.exponent}`)).join(' · ') || '1 (empty product)'}, every prime certified`.slice(0, 1000);
  });
}
