/**
 * The runner's own replay of a primality certificate it is about to return (conditions in
 * shared/src/domains/numbers/primality.ts). It is not the independent checker
 * (integer.primality.verify is, with its own code): it exists so that a certificate that does not
 * hold — a PARI answer misread, a bug in our Pratt search — is never returned.
 *
 * ECPP points are multiplied in homogeneous projective coordinates (X : Y : Z) modulo N, adding the
 * affine base point (one inversion per multiplication, of a Z that must be a unit anyway). Modulo each prime p | N every triple computed is either a correct representative of
 * the true multiple or (0 : 0 : 0) — the formulas' degenerate cases (adding equal points, adding
 * to O, doubling O) give (0 : 0 : 0), which then stays (0 : 0 : 0). So "[s]P ≠ O" is read as
 * gcd(Z, N) = 1 and "[q]Q = O" as Z ≡ 0 and gcd(Y, N) = 1 (O is (0 : λ : 0) with λ ≠ 0 mod every p).
 */
import { bigGcd, DETERMINISTIC_MR_BOUND, isqrt, isStrongProbablePrime, mod, modInverse, powMod, type ArithmeticBudget, type EcppStep, type PrimalityCertificate } from '@jacobian/shared';
import { JacobianError } from '@jacobian/shared';

const MR_BASES = [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n];

/** Why a certificate failed, and where in it. */
export interface ReplayFailure {
  readonly path: (string | number)[];
  readonly reason: string;
}

function budgetCheck(budget: ArithmeticBudget): void {
  if (budget.signal?.aborted === true) throw new JacobianError('EXECUTION_CANCELLED', 'the computation was cancelled');
  if (budget.deadline !== undefined && Date.now() > budget.deadline) throw new JacobianError('EXECUTION_TIMEOUT', 'the certificate replay reached its time budget');
}

/** n < ψ13 decided by trial division below 42 and Miller–Rabin on the first 13 primes above. */
export function isPrimeBelowBound(n: bigint): boolean {
  if (n >= DETERMINISTIC_MR_BOUND) throw new JacobianError('INTERNAL', 'isPrimeBelowBound needs n < ψ13');
  if (n < 2n) return false;
  if (n < 42n) return MR_BASES.includes(n);
  if (n % 2n === 0n) return false;
  return MR_BASES.every((a) => isStrongProbablePrime(n, a));
}

type Point = readonly [bigint, bigint, bigint];

function double([X, Y, Z]: Point, a: bigint, N: bigint): Point {
  // w = aZ² + 3X²; PARI's CM curves often have a = 0 (j = 0).
  const w = a === 0n ? (3n * X * X) % N : (a * Z * Z + 3n * X * X) % N;
  const s = (Y * Z) % N;
  const B = (((X * Y) % N) * s) % N;
  const h = mod(w * w - 8n * B, N);
  const s2 = (s * s) % N;
  return [(2n * h * s) % N, mod(w * (4n * B - h) - ((8n * Y * Y) % N) * s2, N), (8n * s2 * s) % N];
}

/**
 * (X1 : Y1 : Z1) + (x2 : y2 : 1) by the homogeneous addition formula with Z2 = 1: adding equal points
 * or adding to O gives (0 : 0 : 0), adding opposite points gives (0 : λ : 0).
 */
function addAffine([X1, Y1, Z1]: Point, x2: bigint, y2: bigint, N: bigint): Point {
  const u = mod(y2 * Z1 - Y1, N);
  const v = mod(x2 * Z1 - X1, N);
  const v2 = (v * v) % N;
  const v3 = (v2 * v) % N;
  const v2X1 = (v2 * X1) % N;
  const A = mod(((u * u) % N) * Z1 - v3 - 2n * v2X1, N);
  return [(v * A) % N, mod(u * (v2X1 - A) - v3 * Y1, N), (v3 * Z1) % N];
}

/** [k]P for k ≥ 1 and P = (x : y : 1), left to right, with the formulas as they are (no case distinctions). */
function multiply(x: bigint, y: bigint, k: bigint, a: bigint, N: bigint): Point {
  const bits = k.toString(2);
  let R: Point = [x, y, 1n];
  for (let i = 1; i < bits.length; i++) {
    R = double(R, a, N);
    if (bits[i] === '1') R = addAffine(R, x, y, N);
  }
  return R;
}

/** One Atkin–Morain step: the q it reduces N to, or why it fails. */
export function replayEcppStep(step: EcppStep): { q: bigint } | { reason: string } {
  const [Nt, tt, st, at, [xt, yt]] = step;
  const N = BigInt(Nt);
  const s = BigInt(st);
  const a = BigInt(at);
  const x = BigInt(xt);
  const y = BigInt(yt);
  if (N < 5n || bigGcd(N, 6n) !== 1n) return { reason: 'N must be at least 5 and prime to 6' };
  if (a >= N || x >= N || y >= N) return { reason: 'a, x and y must be reduced modulo N' };
  const m = N + 1n - BigInt(tt);
  if (m <= 0n || m % s !== 0n) return { reason: 's must divide m = N + 1 − t' };
  const q = m / s;
  const r = isqrt(N);
  const excess = q - r - 1n;
  if (excess <= 0n || excess * excess <= 4n * r) return { reason: 'q must exceed (N^(1/4) + 1)²' };
  const b = mod(y * y - x * x * x - a * x, N);
  if (bigGcd(mod(4n * a * a * a + 27n * b * b, N), N) !== 1n) return { reason: 'the curve is singular modulo a factor of N (gcd(4a³ + 27b², N) ≠ 1)' };
  const [X, Y, Z] = multiply(x, y, s, a, N);
  // Q = [s]P made affine: Z is a unit modulo N exactly when [s]P ≠ O modulo every factor of N.
  const zi = modInverse(Z, N);
  if (zi === null) return { reason: '[s]P is O modulo a factor of N' };
  const O = multiply((X * zi) % N, (Y * zi) % N, q, a, N);
  if (O[2] !== 0n || bigGcd(O[1], N) !== 1n) return { reason: '[m]P is not O' };
  return { q };
}

/**
 * Replay a certificate; null when it proves its n prime, otherwise the first failure.
 *
 * @throws JacobianError EXECUTION_TIMEOUT / EXECUTION_CANCELLED from the budget.
 */
export function replayPrimalityCertificate(certificate: PrimalityCertificate, budget: ArithmeticBudget = {}, path: (string | number)[] = []): ReplayFailure | null {
  budgetCheck(budget);
  const n = BigInt(certificate.n);
  switch (certificate.kind) {
    case 'small':
      if (n >= DETERMINISTIC_MR_BOUND) return { path: [...path, 'n'], reason: 'n is not below the deterministic Miller–Rabin bound' };
      return isPrimeBelowBound(n) ? null : { path: [...path, 'n'], reason: 'n fails deterministic Miller–Rabin' };
    case 'pratt': {
      const a = BigInt(certificate.witness);
      if (n < 3n || a < 2n || a >= n) return { path: [...path, 'witness'], reason: 'needs n ≥ 3 and 2 ≤ a < n' };
      // Σ e·(bits(p) − 1) bounds the product's bit length from below: no huge power is built.
      const bits = certificate.factors.reduce((sum, f) => sum + f.exponent * (BigInt(f.prime).toString(2).length - 1), 0);
      let product = 1n;
      if (bits <= (n - 1n).toString(2).length) for (const f of certificate.factors) product *= BigInt(f.prime) ** BigInt(f.exponent);
      if (product !== n - 1n) return { path: [...path, 'factors'], reason: 'the prime powers do not multiply to n − 1' };
      if (powMod(a, n - 1n, n) !== 1n) return { path: [...path, 'witness'], reason: 'a^(n−1) ≢ 1 (mod n)' };
      for (const [i, f] of certificate.factors.entries()) {
        const p = BigInt(f.prime);
        if (f.certificate.n !== f.prime) return { path: [...path, 'factors', i, 'certificate'], reason: 'certifies another number' };
        if (powMod(a, (n - 1n) / p, n) === 1n) return { path: [...path, 'factors', i], reason: `a^((n−1)/p) ≡ 1 (mod n): a is not of order n − 1` };
        const nested = replayPrimalityCertificate(f.certificate, budget, [...path, 'factors', i, 'certificate']);
        if (nested !== null) return nested;
      }
      return null;
    }
    case 'ecpp': {
      let expected = n;
      for (const [i, step] of certificate.steps.entries()) {
        budgetCheck(budget);
        if (BigInt(step[0]) !== expected) return { path: [...path, 'steps', i, 0], reason: 'N is not the q of the step before' };
        const result = replayEcppStep(step);
        if ('reason' in result) return { path: [...path, 'steps', i], reason: result.reason };
        expected = result.q;
      }
      if (expected >= DETERMINISTIC_MR_BOUND) return { path: [...path, 'steps', certificate.steps.length - 1], reason: 'the chain does not end below the deterministic Miller–Rabin bound' };
      return isPrimeBelowBound(expected) ? null : { path: [...path, 'steps', certificate.steps.length - 1], reason: 'the last q fails deterministic Miller–Rabin' };
    }
  }
}
