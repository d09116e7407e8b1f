/**
 * The multiple-polynomial quadratic sieve (MPQS, Silverman's variant) for composites of about
 * 18 to 45 digits, where it is far quicker than ECM on balanced semiprimes. Polynomials
 * Q(x) = a·x² + 2b·x + c with a = q² (q prime, (n/q) = 1), b² ≡ n (mod a), c = (b² − n)/a, so
 * (a·x + b)² − n = a·Q(x) and (a·x + b)² ≡ q²·Q(x) (mod n). Q(x) is sieved over |x| ≤ M with
 * rounded base-2 logarithms of the factor-base primes; values that reach the threshold are
 * divided out exactly on big integers, and only fully smooth ones are kept (no large primes).
 * A dependency among the exponent vectors over GF(2) gives X² ≡ Y² (mod n) and gcd(X − Y, n).
 */
import { bigGcd, isSquare, jacobi, mod, modInverse, powMod, checkBudget, type ArithmeticBudget } from '@jacobian/shared';

/** Factor-base size and sieve half-width by digits of n (after Silverman's and Contini's tables, rounded). */
const PARAMETERS: readonly { digits: number; primes: number; halfWidth: number }[] = [
  { digits: 18, primes: 50, halfWidth: 6_000 },
  { digits: 22, primes: 80, halfWidth: 8_000 },
  { digits: 26, primes: 120, halfWidth: 12_000 },
  { digits: 30, primes: 200, halfWidth: 20_000 },
  { digits: 34, primes: 300, halfWidth: 30_000 },
  { digits: 38, primes: 450, halfWidth: 40_000 },
  { digits: 42, primes: 700, halfWidth: 60_000 },
  { digits: 46, primes: 1_000, halfWidth: 80_000 },
];

/** The digit range MPQS is used for (below: rho and ECM are quick; above: no large-prime variant, so ECM). */
export const MPQS_MIN_DIGITS = 18;
export const MPQS_MAX_DIGITS = 46;

function parametersFor(digits: number): { primes: number; halfWidth: number } {
  let chosen = PARAMETERS[0] as { primes: number; halfWidth: number };
  for (const p of PARAMETERS) if (digits >= p.digits) chosen = p;
  return chosen;
}

/** a·b mod m for m < 2^26 in float arithmetic (products below 2^53). */
const mulMod = (a: number, b: number, m: number): number => (a * b) % m;

function powModNumber(base: number, exponent: number, m: number): number {
  let result = 1;
  let b = base % m;
  let e = exponent;
  while (e > 0) {
    if (e & 1) result = mulMod(result, b, m);
    b = mulMod(b, b, m);
    e = Math.floor(e / 2);
  }
  return result;
}

function inverseNumber(a: number, m: number): number {
  let [r0, r1] = [((a % m) + m) % m, m];
  let [x0, x1] = [1, 0];
  while (r1 !== 0) {
    const q = Math.floor(r0 / r1);
    [r0, r1] = [r1, r0 - q * r1];
    [x0, x1] = [x1, x0 - q * x1];
  }
  return ((x0 % m) + m) % m;
}

/** √r mod an odd prime p (r a quadratic residue) by Tonelli–Shanks. */
function sqrtModNumber(r: number, p: number): number {
  r %= p;
  if (r === 0) return 0;
  if (p % 4 === 3) return powModNumber(r, (p + 1) / 4, p);
  let s = 0;
  let q = p - 1;
  while (q % 2 === 0) {
    q /= 2;
    s++;
  }
  let z = 2;
  while (powModNumber(z, (p - 1) / 2, p) !== p - 1) z++;
  let m = s;
  let c = powModNumber(z, q, p);
  let t = powModNumber(r, q, p);
  let x = powModNumber(r, (q + 1) / 2, p);
  while (t !== 1) {
    let i = 0;
    let t2 = t;
    while (t2 !== 1) {
      t2 = mulMod(t2, t2, p);
      i++;
    }
    let b = c;
    for (let j = 0; j < m - i - 1; j++) b = mulMod(b, b, p);
    m = i;
    c = mulMod(b, b, p);
    t = mulMod(t, c, p);
    x = mulMod(x, b, p);
  }
  return x;
}

function isPrimeNumber(n: number): boolean {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}

/** √n mod q² for a prime q ≡ 3 (mod 4) with (n/q) = 1 (n^((q+1)/4) mod q, one Hensel step), on big integers. */
function sqrtModSquare(n: bigint, q: number): bigint {
  const Q = BigInt(q);
  const r = powMod(n % Q, (Q + 1n) / 4n, Q);
  // r² ≡ n (mod q); lift: r + q·t with 2r·t ≡ (n − r²)/q (mod q).
  const t = mod(((n - r * r) / Q) * (modInverse(2n * r, Q) as bigint), Q);
  return r + Q * t;
}

interface Relation {
  /** a·x + b mod n. */
  x: bigint;
  /** The q of a = q² (its square is on the left side). */
  q: bigint;
  /** Exponents: [sign, 2, fb primes…]. */
  exponents: Uint16Array;
}

/**
 * A proper factor of odd composite n (not a perfect power, no factor below the factor base's
 * largest prime) by MPQS; null when every dependency gave a trivial gcd (rare: try ECM).
 */
export function mpqsFactor(n: bigint, budget: ArithmeticBudget = {}): bigint | null {
  if (isSquare(n)) return null;
  const digits = n.toString().length;
  const { primes: fbSize, halfWidth: M } = parametersFor(digits);
  // The factor base: 2 and the odd primes p with (n/p) = 1, with √n mod p.
  const fb: number[] = [];
  const roots: number[] = [];
  const logs: number[] = [];
  for (let p = 3; fb.length < fbSize; p += 2) {
    if (!isPrimeNumber(p)) continue;
    const r = Number(n % BigInt(p));
    if (r === 0) return BigInt(p);
    if (powModNumber(r, (p - 1) / 2, p) !== 1) continue;
    fb.push(p);
    roots.push(sqrtModNumber(r, p));
    logs.push(Math.round(Math.log2(p)));
  }
  const columns = fb.length + 2;
  const pmax = fb[fb.length - 1] as number;
  // Q(x) ≤ M·√(n/2) in size: the threshold leaves room for the unsieved 2 and prime powers.
  const bitsOfQ = Math.log2(M) + (n.toString(2).length - 1) / 2;
  const threshold = Math.floor(bitsOfQ - 1.9 * Math.log2(pmax));
  const sieve = new Uint8Array(2 * M);
  const relations: Relation[] = [];
  const seen = new Set<string>();
  const wanted = columns + 12;
  // q near √(√(2n)/M), above the factor base.
  let q = Math.max(pmax + 2, Math.floor(Math.sqrt(Math.sqrt(Number(2n * n)) / M)));
  if (q % 2 === 0) q++;
  while (relations.length < wanted) {
    checkBudget(budget);
    // The next prime q ≡ 3 (mod 4) with (n/q) = 1.
    for (;;) {
      q += 2;
      if (q % 4 === 3 && isPrimeNumber(q) && jacobi(n, BigInt(q)) === 1) break;
    }
    const Q = BigInt(q);
    const a = Q * Q;
    let b = sqrtModSquare(n, q);
    if (b > a / 2n) b -= a;
    const c = (b * b - n) / a;
    sieve.fill(0);
    for (let i = 0; i < fb.length; i++) {
      const p = fb[i] as number;
      const ainv = inverseNumber(Number(a % BigInt(p)), p);
      const bp = Number(mod(b, BigInt(p)));
      const t = roots[i] as number;
      const lp = logs[i] as number;
      const r1 = mulMod(ainv, (t - bp + p) % p, p);
      const r2 = mulMod(ainv, (p - t - bp + p) % p, p);
      // Index j holds x = j − M.
      for (let j = (((r1 + M) % p) + p) % p; j < 2 * M; j += p) sieve[j] = (sieve[j] as number) + lp;
      if (r2 !== r1) for (let j = (((r2 + M) % p) + p) % p; j < 2 * M; j += p) sieve[j] = (sieve[j] as number) + lp;
    }
    for (let j = 0; j < 2 * M; j++) {
      if ((sieve[j] as number) < threshold) continue;
      const x = BigInt(j - M);
      let v = (a * x + 2n * b) * x + c;
      const exponents = new Uint16Array(columns);
      if (v < 0n) {
        exponents[0] = 1;
        v = -v;
      }
      if (v === 0n) continue;
      while ((v & 1n) === 0n) {
        v >>= 1n;
        exponents[1] = (exponents[1] as number) + 1;
      }
      for (let i = 0; i < fb.length && v > 1n; i++) {
        const p = fb[i] as number;
        const P = BigInt(p);
        while (v % P === 0n) {
          v /= P;
          exponents[i + 2] = (exponents[i + 2] as number) + 1;
        }
      }
      if (v !== 1n) continue;
      const left = mod(a * x + b, n);
      const key = left.toString();
      if (seen.has(key)) continue;
      seen.add(key);
      relations.push({ x: left, q: Q, exponents });
      if (relations.length >= wanted) break;
    }
  }
  return dependencies(n, relations, [2n, ...fb.map(BigInt)], budget);
}

/** Gaussian elimination over GF(2) on the exponent vectors; each null combination tried for a factor. */
function dependencies(n: bigint, relations: readonly Relation[], base: readonly bigint[], budget: ArithmeticBudget): bigint | null {
  const columns = base.length + 1;
  const rows = relations.length;
  const words = Math.ceil(columns / 32);
  const historyWords = Math.ceil(rows / 32);
  const matrix = relations.map((r) => {
    const bits = new Uint32Array(words);
    for (let c = 0; c < columns; c++) if (((r.exponents[c] as number) & 1) === 1) bits[c >>> 5] = (bits[c >>> 5] as number) | (1 << (c & 31));
    return bits;
  });
  const history = relations.map((_, i) => {
    const bits = new Uint32Array(historyWords);
    bits[i >>> 5] = 1 << (i & 31);
    return bits;
  });
  const used = new Uint8Array(rows);
  for (let c = 0; c < columns; c++) {
    const w = c >>> 5;
    const bit = 1 << (c & 31);
    let pivot = -1;
    for (let r = 0; r < rows; r++) {
      if (used[r] === 0 && ((matrix[r] as Uint32Array)[w] as number) & bit) {
        pivot = r;
        break;
      }
    }
    if (pivot < 0) continue;
    used[pivot] = 1;
    const pm = matrix[pivot] as Uint32Array;
    const ph = history[pivot] as Uint32Array;
    for (let r = 0; r < rows; r++) {
      if (r === pivot) continue;
      const m = matrix[r] as Uint32Array;
      if (((m[w] as number) & bit) === 0) continue;
      for (let k = 0; k < words; k++) m[k] = (m[k] as number) ^ (pm[k] as number);
      const h = history[r] as Uint32Array;
      for (let k = 0; k < historyWords; k++) h[k] = (h[k] as number) ^ (ph[k] as number);
    }
  }
  checkBudget(budget);
  for (let r = 0; r < rows; r++) {
    if ((matrix[r] as Uint32Array).some((word) => word !== 0)) continue;
    // Rows of the combination: their Q-values multiply to a square.
    const h = history[r] as Uint32Array;
    const sum = new Array<number>(columns).fill(0);
    let X = 1n;
    let Y = 1n;
    for (let i = 0; i < rows; i++) {
      if ((((h[i >>> 5] as number) >>> (i & 31)) & 1) === 0) continue;
      const rel = relations[i] as Relation;
      X = (X * rel.x) % n;
      Y = (Y * rel.q) % n;
      for (let c = 0; c < columns; c++) sum[c] = (sum[c] as number) + (rel.exponents[c] as number);
    }
    if (sum.some((e) => e % 2 !== 0)) continue;
    // Column 0 is the sign (an even count: +1); column c ≥ 1 is the prime base[c − 1] (2 first).
    for (let c = 1; c < columns; c++) if ((sum[c] as number) > 0) Y = (Y * powMod(base[c - 1] as bigint, BigInt((sum[c] as number) / 2), n)) % n;
    const g = bigGcd(mod(X - Y, n), n);
    if (g > 1n && g < n) return g;
  }
  return null;
}
