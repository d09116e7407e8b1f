/**
 * Factorization of univariate polynomials into irreducibles, our own, for the eigenvalue
 * capability (the factors of the characteristic polynomial over Q or GF(p)).
 *
 * Over GF(p) (any prime p, elements of the polynomial core's fields): square-free factorization
 * (Yun's algorithm, with p-th roots where the derivative vanishes), distinct-degree factorization
 * (gcd(g, x^(p^i) − x)), then equal-degree splitting (Cantor–Zassenhaus: gcd with a^((p^k−1)/2) − 1
 * for odd p, with the trace a + a² + a⁴ + … + a^(2^(k−1)) for p = 2) with a fixed-seed generator,
 * so the answer is deterministic.
 *
 * Over Z (Zassenhaus): content and a positive leading coefficient, square-free factorization
 * (Yun, with gcds over Z by the modular method), then for each square-free primitive part g of
 * degree n:
 * 1. a prime p ∤ lc(g) with g mod p square-free, the one of fewest modular factors among the first
 *    few such primes (a single modular factor proves g irreducible);
 * 2. the monic factorization mod p, lifted (linear multifactor Hensel lifting with the Bézout
 *    coefficients Σ s_i g/u_i ≡ 1 mod p) to p^k > 2B, B = ⌈√(n+1)⌉·2^n·‖g‖∞·lc(g) (Mignotte's bound
 *    on the coefficients of lc(g) times a monic factor's lift);
 * 3. recombination by subsets of increasing size s ≤ r/2: the symmetric residue of lc·Π_{i∈S} u_i,
 *    made primitive, is a factor exactly when it divides what is left (trial division over Z,
 *    after a test on the constant terms). Exhaustive over subsets, so exponential in the number
 *    of modular factors in the worst case (Swinnerton-Dyer polynomials); every subset passes a
 *    checkpoint, so the run's budget bounds it.
 */
import { bigGcd, fieldFromSpec, isProbablePrime, JacobianError, makeRational, type Field, type Rational } from '@jacobian/shared';
import { makeMonic, polyDerivative, polyDivMod, polyGcd, polyMul } from './characteristic.js';
import type { Checkpoint } from './engine.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

/** An irreducible factor and its multiplicity. */
export interface Factor<T> {
  factor: T[];
  multiplicity: number;
}

// ---------------------------------------------------------------------------------------------
// Over GF(p)

function degree<C>(p: readonly C[]): number {
  return p.length - 1;
}

function rem<C>(F: Field<C>, a: readonly C[], m: readonly C[]): C[] {
  return polyDivMod(F, a, m).remainder;
}

function sub<C>(F: Field<C>, a: readonly C[], b: readonly C[]): C[] {
  const out = Array.from({ length: Math.max(a.length, b.length) }, (_, i) => F.sub(i < a.length ? (a[i] as C) : F.zero, i < b.length ? (b[i] as C) : F.zero));
  let d = out.length;
  while (d > 0 && F.isZero(out[d - 1] as C)) d--;
  return out.slice(0, d);
}

function add<C>(F: Field<C>, a: readonly C[], b: readonly C[]): C[] {
  return sub(F, a, b.map((c) => F.neg(c)));
}

function quotient<C>(F: Field<C>, a: readonly C[], b: readonly C[]): C[] {
  return polyDivMod(F, a, b).quotient;
}

/** base^e mod m. */
function powMod<C>(F: Field<C>, base: readonly C[], e: bigint, m: readonly C[], checkpoint: Checkpoint): C[] {
  let result: C[] = rem(F, [F.one], m);
  let b = rem(F, base, m);
  for (let k = e; k > 0n; k >>= 1n) {
    checkpoint();
    if ((k & 1n) === 1n) result = rem(F, polyMul(F, result, b), m);
    if (k > 1n) b = rem(F, polyMul(F, b, b), m);
  }
  return result;
}

/** s, t with s a + t b = gcd(a, b) (monic). */
export function polyExtendedGcd<C>(F: Field<C>, a: readonly C[], b: readonly C[]): { gcd: C[]; s: C[]; t: C[] } {
  let r0: C[] = [...a];
  let r1: C[] = [...b];
  let s0: C[] = [F.one];
  let s1: C[] = [];
  let t0: C[] = [];
  let t1: C[] = [F.one];
  while (r1.length > 0) {
    const { quotient: q, remainder } = polyDivMod(F, r0, r1);
    [r0, r1] = [r1, remainder];
    [s0, s1] = [s1, sub(F, s0, polyMul(F, q, s1))];
    [t0, t1] = [t1, sub(F, t0, polyMul(F, q, t1))];
  }
  const lead = r0[r0.length - 1] as C;
  const inverse = F.inv(lead);
  const scale = (p: C[]): C[] => p.map((c) => F.mul(c, inverse));
  return { gcd: scale(r0), s: scale(s0), t: scale(t0) };
}

/** A fixed-seed generator (xorshift32), so that the factorizations are reproducible. */
function generator(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

function randomElement<C>(F: Field<C>, next: () => number): C {
  // Enough random bits for p of up to 40 digits; the slight bias is harmless.
  let r = 0n;
  for (let i = 0; i < 5; i++) r = (r << 32n) | BigInt(next());
  return F.fromBigInt(r % F.characteristic);
}

/** Square-free factorization of a monic polynomial over GF(p): pairs (square-free, multiplicity), the square-free parts pairwise coprime. */
export function squareFreeFactorizationGF<C>(F: Field<C>, f: readonly C[], checkpoint: Checkpoint = NO_CHECKPOINT): Factor<C>[] {
  const out: Factor<C>[] = [];
  const p = F.characteristic;
  const visit = (g: C[], outer: number): void => {
    checkpoint();
    let c = polyGcd(F, g, polyDerivative(F, g));
    let w = quotient(F, g, c);
    for (let i = 1; degree(w) > 0; i++) {
      checkpoint();
      const y = polyGcd(F, w, c);
      const z = quotient(F, w, y);
      if (degree(z) > 0) out.push({ factor: z, multiplicity: i * outer });
      w = y;
      c = quotient(F, c, y);
    }
    if (degree(c) > 0) {
      // c′ = 0: c is a polynomial in x^p, and its p-th root takes every p-th coefficient (the Frobenius fixes GF(p)).
      const step = Number(p);
      visit(
        c.filter((_, k) => k % step === 0),
        outer * step,
      );
    }
  };
  visit(makeMonic(F, f), 1);
  return out;
}

/** Distinct-degree factorization of a square-free monic polynomial: pairs (product of all its irreducible factors of degree k, k). */
export function distinctDegreeFactorization<C>(F: Field<C>, f: readonly C[], checkpoint: Checkpoint = NO_CHECKPOINT): { product: C[]; degree: number }[] {
  const out: { product: C[]; degree: number }[] = [];
  const x = [F.zero, F.one];
  let g = makeMonic(F, f);
  let h = rem(F, x, g);
  for (let i = 1; degree(g) >= 2 * i; i++) {
    h = powMod(F, h, F.characteristic, g, checkpoint);
    const d = polyGcd(F, g, sub(F, h, x));
    if (degree(d) > 0) {
      out.push({ product: d, degree: i });
      g = quotient(F, g, d);
      h = rem(F, h, g);
    }
  }
  if (degree(g) > 0) out.push({ product: g, degree: degree(g) });
  return out;
}

/** The irreducible factors (monic) of a square-free monic f all of whose factors have degree k. */
export function equalDegreeFactorization<C>(F: Field<C>, f: readonly C[], k: number, checkpoint: Checkpoint = NO_CHECKPOINT, seed = 0x9e3779b9): C[][] {
  const next = generator(seed);
  const p = F.characteristic;
  const split = (g: C[]): C[][] => {
    if (degree(g) <= k) return [g];
    for (;;) {
      checkpoint();
      const a = Array.from({ length: degree(g) }, () => randomElement(F, next));
      let b: C[];
      if (p === 2n) {
        // The trace of GF(2^k) over GF(2): a + a² + … + a^(2^(k−1)) mod g takes values in GF(2) on each factor.
        let term = rem(F, a, g);
        b = term;
        for (let i = 1; i < k; i++) {
          term = rem(F, polyMul(F, term, term), g);
          b = add(F, b, term);
        }
      } else {
        b = sub(F, powMod(F, a, (p ** BigInt(k) - 1n) / 2n, g, checkpoint), [F.one]);
      }
      const d = polyGcd(F, g, b);
      if (degree(d) > 0 && degree(d) < degree(g)) return [...split(d), ...split(quotient(F, g, d))];
    }
  };
  return split(makeMonic(F, f));
}

/** The monic irreducible factors of a square-free monic polynomial over GF(p). */
export function factorSquareFreeGF<C>(F: Field<C>, f: readonly C[], checkpoint: Checkpoint = NO_CHECKPOINT): C[][] {
  return distinctDegreeFactorization(F, f, checkpoint).flatMap(({ product, degree: k }) => equalDegreeFactorization(F, product, k, checkpoint));
}

/** Order factors by degree, then by their coefficients from the top, numerically, then multiplicity: answers come in a fixed order. */
function compareBy<C>(value: (c: C) => bigint): (a: Factor<C>, b: Factor<C>) => number {
  return (a, b) => {
    if (a.factor.length !== b.factor.length) return a.factor.length - b.factor.length;
    for (let i = a.factor.length - 1; i >= 0; i--) {
      const x = value(a.factor[i] as C);
      const y = value(b.factor[i] as C);
      if (x !== y) return x < y ? -1 : 1;
    }
    return a.multiplicity - b.multiplicity;
  };
}

/**
 * The factorization of a non-zero polynomial over GF(p): its leading coefficient and its monic
 * irreducible factors with multiplicities (by degree, then coefficients).
 */
export function factorGF<C>(F: Field<C>, f: readonly C[], checkpoint: Checkpoint = NO_CHECKPOINT): { unit: C; factors: Factor<C>[] } {
  const monic = makeMonic(F, f);
  if (monic.length === 0) throw new JacobianError('INTERNAL', 'factorization of the zero polynomial');
  const unit = f[monic.length - 1] as C;
  const factors: Factor<C>[] = [];
  for (const { factor, multiplicity } of squareFreeFactorizationGF(F, monic, checkpoint)) {
    for (const irreducible of factorSquareFreeGF(F, factor, checkpoint)) factors.push({ factor: irreducible, multiplicity });
  }
  return { unit, factors: factors.sort(compareBy((c) => BigInt(F.format(c)))) };
}

// ---------------------------------------------------------------------------------------------
// Over Z

type IntPoly = bigint[];

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

function trimInt(p: IntPoly): IntPoly {
  let d = p.length;
  while (d > 0 && p[d - 1] === 0n) d--;
  return p.slice(0, d);
}

function contentOf(p: readonly bigint[]): bigint {
  let g = 0n;
  for (const c of p) {
    g = bigGcd(g, c);
    if (g === 1n) break;
  }
  return g;
}

/** The primitive part with a positive leading coefficient. */
export function primitivePart(p: readonly bigint[]): IntPoly {
  const t = trimInt([...p]);
  if (t.length === 0) return t;
  const c = contentOf(t) * ((t[t.length - 1] as bigint) < 0n ? -1n : 1n);
  return t.map((x) => x / c);
}

function mulInt(a: readonly bigint[], b: readonly bigint[]): IntPoly {
  if (a.length === 0 || b.length === 0) return [];
  const out = new Array<bigint>(a.length + b.length - 1).fill(0n);
  for (let i = 0; i < a.length; i++) {
    const ai = a[i] as bigint;
    if (ai === 0n) continue;
    for (let j = 0; j < b.length; j++) out[i + j] = (out[i + j] as bigint) + ai * (b[j] as bigint);
  }
  return out;
}

/** a / b over Z when b divides a exactly; null otherwise. */
export function exactQuotient(a: readonly bigint[], b: readonly bigint[]): IntPoly | null {
  const r = trimInt([...a]);
  const db = b.length - 1;
  const lead = b[db] as bigint;
  if (r.length - 1 < db) return r.length === 0 ? [] : null;
  const q = new Array<bigint>(r.length - db).fill(0n);
  for (let k = r.length - 1; k >= db; k--) {
    const top = r[k] as bigint;
    if (top === 0n) continue;
    if (top % lead !== 0n) return null;
    const c = top / lead;
    q[k - db] = c;
    for (let j = 0; j <= db; j++) r[k - db + j] = (r[k - db + j] as bigint) - c * (b[j] as bigint);
  }
  for (let j = 0; j < db; j++) if (r[j] !== 0n) return null;
  return q;
}

/** Odd primes from 1009 up, each once per process: large enough that Hensel lifting takes few steps, small enough for numbers in GF(p). */
const PRIMES: number[] = [];
function candidatePrime(i: number): number {
  let candidate = PRIMES.length === 0 ? 1009 : (PRIMES[PRIMES.length - 1] as number) + 2;
  while (PRIMES.length <= i) {
    let prime = true;
    for (let q = 3; q * q <= candidate; q += 2) {
      if (candidate % q === 0) {
        prime = false;
        break;
      }
    }
    if (prime) PRIMES.push(candidate);
    candidate += 2;
  }
  return PRIMES[i] as number;
}

/** How many primes are tried for the modular factorization with fewest factors. */
const PRIMES_COMPARED = 5;

function modField(p: number): Field<unknown> {
  return fieldFromSpec({ kind: 'GF', characteristic: String(p) });
}

function reduce(F: Field<unknown>, p: readonly bigint[]): unknown[] {
  const out = p.map((c) => F.fromBigInt(c));
  let d = out.length;
  while (d > 0 && F.isZero(out[d - 1])) d--;
  return out.slice(0, d);
}

function lift(F: Field<unknown>, p: readonly unknown[]): bigint[] {
  return p.map((c) => BigInt(F.format(c)));
}

function symmetricMod(x: bigint, m: bigint): bigint {
  let r = x % m;
  if (r < 0n) r += m;
  return r > m / 2n ? r - m : r;
}

function mod(x: bigint, m: bigint): bigint {
  const r = x % m;
  return r < 0n ? r + m : r;
}

function modInverse(a: bigint, m: bigint): bigint {
  let [r0, r1] = [mod(a, m), m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new JacobianError('INTERNAL', 'no inverse modulo a prime power');
  return mod(s0, m);
}

function integerSqrtCeil(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) break;
    x = y;
  }
  return x * x < n ? x + 1n : x;
}

/**
 * Lift g ≡ lc · Π u_i (mod p), u_i monic and pairwise coprime mod p, to monic u_i with
 * g ≡ lc · Π u_i (mod p^k): linear multifactor Hensel lifting, one p-adic digit per step.
 */
export function henselLift(g: readonly bigint[], factors: readonly unknown[][], p: number, k: number, checkpoint: Checkpoint = NO_CHECKPOINT): bigint[][] {
  const F = modField(p);
  const P = BigInt(p);
  const modulus = P ** BigInt(k);
  const lc = g[g.length - 1] as bigint;
  const target = g.map((c) => mod(c * modInverse(lc, modulus), modulus));
  const total = factors.reduce<unknown[]>((acc, u) => polyMul(F, acc, u), [F.one]);
  // Bézout coefficients: Σ s_i · (U / u_i) ≡ 1 (mod p), deg s_i < deg u_i.
  const bezout = factors.map((u) => {
    const cofactor = polyDivMod(F, total, u).quotient;
    const { gcd, s } = polyExtendedGcd(F, cofactor, u);
    if (gcd.length !== 1) throw new JacobianError('INTERNAL', 'modular factors not coprime');
    return rem(F, s, u);
  });
  let lifted = factors.map((u) => lift(F, u));
  let power = P;
  for (let j = 1; j < k; j++) {
    checkpoint();
    const next = power * P;
    let product: bigint[] = [1n];
    for (const u of lifted) product = mulInt(product, u).map((c) => mod(c, next));
    const error = target.map((c, i) => mod(c - (product[i] ?? 0n), next));
    if (error.some((c) => c % power !== 0n)) throw new JacobianError('INTERNAL', 'Hensel lifting lost its invariant');
    const e = reduce(
      F,
      error.map((c) => c / power),
    );
    if (e.length > 0) {
      lifted = lifted.map((u, i) => {
        const delta = lift(F, rem(F, polyMul(F, e, bezout[i] as unknown[]), factors[i] as unknown[]));
        return u.map((c, t) => c + power * (delta[t] ?? 0n));
      });
    }
    power = next;
  }
  return lifted;
}

/** All subsets of `indices` of size s, in lexicographic order. */
function* subsets(indices: readonly number[], s: number): Generator<number[]> {
  const chosen: number[] = [];
  function* from(start: number): Generator<number[]> {
    if (chosen.length === s) {
      yield [...chosen];
      return;
    }
    for (let i = start; i <= indices.length - (s - chosen.length); i++) {
      chosen.push(indices[i] as number);
      yield* from(i + 1);
      chosen.pop();
    }
  }
  yield* from(0);
}

/** What the Zassenhaus step did for one square-free part, for tests and the method record. */
export interface ModularChoice {
  prime: number;
  modularFactors: number;
  exponent: number;
}

/** The irreducible factors over Z of a square-free primitive g with positive leading coefficient. */
export function factorSquareFreeInteger(g: readonly bigint[], checkpoint: Checkpoint = NO_CHECKPOINT, record?: (choice: ModularChoice) => void): IntPoly[] {
  const n = g.length - 1;
  if (n <= 1) return [[...g]];
  const lc = g[n] as bigint;
  // 1. The prime with fewest modular factors among the first few that keep g square-free with its degree.
  let best: { p: number; count: number } | null = null;
  let tried = 0;
  for (let i = 0; tried < PRIMES_COMPARED; i++) {
    checkpoint();
    const p = candidatePrime(i);
    if (lc % BigInt(p) === 0n) continue;
    const F = modField(p);
    const reduced = makeMonic(F, reduce(F, g));
    if (polyGcd(F, reduced, polyDerivative(F, reduced)).length !== 1) continue;
    tried++;
    const count = distinctDegreeFactorization(F, reduced, checkpoint).reduce((s, part) => s + (part.product.length - 1) / part.degree, 0);
    if (best === null || count < best.count) best = { p, count };
    if (count === 1) break;
  }
  if (best === null) throw new JacobianError('INTERNAL', 'no prime keeps the polynomial square-free');
  if (best.count === 1) {
    record?.({ prime: best.p, modularFactors: 1, exponent: 1 });
    return [[...g]];
  }
  const F = modField(best.p);
  const modular = factorSquareFreeGF(F, reduce(F, g), checkpoint);
  // 2. Hensel lifting to p^k > 2B.
  const maxCoefficient = g.reduce((m, c) => (abs(c) > m ? abs(c) : m), 0n);
  const bound = integerSqrtCeil(BigInt(n + 1)) * (1n << BigInt(n)) * maxCoefficient * lc;
  const P = BigInt(best.p);
  let k = 1;
  let modulus = P;
  while (modulus <= 2n * bound) {
    modulus *= P;
    k++;
  }
  record?.({ prime: best.p, modularFactors: modular.length, exponent: k });
  const lifted = henselLift(g, modular, best.p, k, checkpoint);
  // 3. Recombination by subsets of increasing size.
  const factors: IntPoly[] = [];
  let remaining = lifted.map((_, i) => i);
  let rest: IntPoly = [...g];
  let s = 1;
  while (2 * s <= remaining.length) {
    let found = false;
    for (const subset of subsets(remaining, s)) {
      checkpoint();
      const b = rest[rest.length - 1] as bigint;
      let candidate: bigint[] = [b];
      for (const i of subset) candidate = mulInt(candidate, lifted[i] as bigint[]).map((c) => symmetricMod(c, modulus));
      const G = primitivePart(candidate);
      const restConstant = rest[0] as bigint;
      if (restConstant !== 0n && (G[0] as bigint) !== 0n && restConstant % (G[0] as bigint) !== 0n) continue;
      const q = exactQuotient(rest, G);
      if (q === null) continue;
      factors.push(G);
      rest = q;
      const used = new Set(subset);
      remaining = remaining.filter((i) => !used.has(i));
      found = true;
      break;
    }
    if (!found) s++;
  }
  factors.push(primitivePart(rest));
  return factors;
}

/** Primes below 2^25 for modular gcds, largest first, each once per process. */
const GCD_PRIMES: bigint[] = [];
function gcdPrime(i: number): bigint {
  let candidate = GCD_PRIMES.length === 0 ? (1n << 25n) - 1n : (GCD_PRIMES[GCD_PRIMES.length - 1] as bigint) - 2n;
  while (GCD_PRIMES.length <= i) {
    if (isProbablePrime(candidate)) GCD_PRIMES.push(candidate);
    candidate -= 2n;
  }
  return GCD_PRIMES[i] as bigint;
}

function derivativeInt(f: readonly bigint[]): IntPoly {
  return trimInt(f.slice(1).map((c, i) => BigInt(i + 1) * c));
}

/**
 * The gcd over Z of two non-zero integer polynomials, primitive with a positive leading
 * coefficient (Brown's modular method, one variable): monic gcds modulo primes ∤ gcd(lc f, lc g),
 * scaled by that gcd of leading coefficients and combined by the Chinese remainder theorem over
 * the primes of least degree (a larger degree marks an unlucky prime); once the primitive part is
 * stable and divides both f and g exactly it is the gcd (it divides the gcd and has at least its
 * degree). Rational Euclid grows fractions far too fast on characteristic polynomials.
 */
export function integerPolynomialGcd(f: readonly bigint[], g: readonly bigint[], checkpoint: Checkpoint = NO_CHECKPOINT): IntPoly {
  const a = primitivePart(f);
  const b = primitivePart(g);
  const scale = bigGcd(a[a.length - 1] as bigint, b[b.length - 1] as bigint);
  let degree = Number.POSITIVE_INFINITY;
  let modulus = 1n;
  let acc: bigint[] = [];
  let previous: IntPoly | null = null;
  for (let i = 0; ; i++) {
    checkpoint();
    const p = gcdPrime(i);
    if (scale % p === 0n) continue;
    const F = modField(Number(p));
    const image = polyGcd(F, reduce(F, a), reduce(F, b));
    const d = image.length - 1;
    if (d === 0) return [1n];
    if (d > degree) continue;
    if (d < degree) {
      degree = d;
      modulus = 1n;
      acc = new Array<bigint>(d + 1).fill(0n);
      previous = null;
    }
    const residues = lift(F, image).map((c) => mod(c * scale, p));
    const inverse = modInverse(modulus % p, p);
    acc = acc.map((x, k) => x + modulus * mod(((residues[k] as bigint) - x) * inverse, p));
    modulus *= p;
    const candidate = primitivePart(acc.map((x) => symmetricMod(x, modulus)));
    if (previous !== null && key(previous) === key(candidate) && exactQuotient(a, candidate) !== null && exactQuotient(b, candidate) !== null) return candidate;
    previous = candidate;
  }
}

const key = (p: readonly bigint[]): string => p.join(',');

/** Yun's square-free factorization over Z of a primitive integer polynomial with positive leading coefficient: primitive parts with multiplicities. */
export function squareFreeFactorizationInteger(f: readonly bigint[], checkpoint: Checkpoint = NO_CHECKPOINT): Factor<bigint>[] {
  const out: Factor<bigint>[] = [];
  const exact = (x: readonly bigint[], y: readonly bigint[]): IntPoly => {
    const q = exactQuotient(x, y);
    if (q === null) throw new JacobianError('INTERNAL', 'a gcd that does not divide');
    return primitivePart(q);
  };
  let c = integerPolynomialGcd(f, derivativeInt(f), checkpoint);
  let w = exact(f, c);
  for (let i = 1; w.length > 1; i++) {
    checkpoint();
    const y = integerPolynomialGcd(w, c, checkpoint);
    const z = exact(w, y);
    if (z.length > 1) out.push({ factor: z, multiplicity: i });
    w = y;
    c = exact(c, y);
  }
  return out;
}

/**
 * The factorization of a non-zero integer polynomial into irreducibles over Z: f = content ·
 * Π factor^multiplicity, the factors primitive with positive leading coefficients (so irreducible
 * over Q too, by Gauss's lemma), ordered by degree, then coefficients.
 */
export function factorInteger(f: readonly bigint[], checkpoint: Checkpoint = NO_CHECKPOINT, record?: (choice: ModularChoice) => void): { content: bigint; factors: Factor<bigint>[] } {
  const t = trimInt([...f]);
  if (t.length === 0) throw new JacobianError('INTERNAL', 'factorization of the zero polynomial');
  const g = primitivePart(t);
  const content = (t[t.length - 1] as bigint) / (g[g.length - 1] as bigint);
  const factors: Factor<bigint>[] = [];
  if (g.length > 1) {
    for (const { factor, multiplicity } of squareFreeFactorizationInteger(g, checkpoint)) {
      for (const irreducible of factorSquareFreeInteger(factor, checkpoint, record)) factors.push({ factor: irreducible, multiplicity });
    }
  }
  return { content, factors: factors.sort(compareBy((c) => c)) };
}

/** Factorization over Q of a non-zero rational polynomial: f = unit · Π factor^multiplicity with primitive integer factors (positive leading coefficients). */
export function factorRational(f: readonly Rational[], checkpoint: Checkpoint = NO_CHECKPOINT): { unit: Rational; factors: Factor<bigint>[] } {
  let scale = 1n;
  for (const c of f) scale = (scale / bigGcd(scale, c.den)) * c.den;
  const { content, factors } = factorInteger(
    f.map((c) => (c.num * scale) / c.den),
    checkpoint,
  );
  return { unit: makeRational(content, scale), factors };
}
