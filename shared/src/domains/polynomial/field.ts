/**
 * Exact coefficient fields: the rationals Q (normalized bigint fractions) and the prime fields
 * GF(p). A field is a small object of operations over its own element type, so polynomial code
 * is written once and instantiated per field.
 *
 * GF(p) with p < 2^26 uses JavaScript numbers: a product of two residues is below 2^52, exact in
 * a double, so `(a * b) % p` needs no bigint. Larger primes use bigint residues.
 */
import { z } from 'zod';
import { JacobianError, type JsonPath } from '../../errors.js';
import { POLYNOMIAL_LIMITS } from './limits.js';

/** A rational number in lowest terms with a positive denominator. */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

/** The operations of one exact field over its element type `C`. Elements are immutable values. */
export interface Field<C> {
  /** `Q` or `GF(p)`, as printed in messages. */
  readonly name: string;
  readonly kind: 'Q' | 'GF';
  /** 0 for Q, p for GF(p). */
  readonly characteristic: bigint;
  readonly zero: C;
  readonly one: C;
  isZero(a: C): boolean;
  isOne(a: C): boolean;
  equals(a: C, b: C): boolean;
  add(a: C, b: C): C;
  sub(a: C, b: C): C;
  mul(a: C, b: C): C;
  neg(a: C): C;
  /** Multiplicative inverse; throws INVALID_REQUEST for zero. */
  inv(a: C): C;
  div(a: C, b: C): C;
  /** The image of an integer. */
  fromBigInt(n: bigint): C;
  /** The image of num/den; throws INVALID_REQUEST if den maps to zero. */
  fromFraction(num: bigint, den: bigint): C;
  /** Canonical text: `-3`, `7/2` for Q; the least non-negative residue for GF(p). */
  format(a: C): string;
  /** Parse canonical text (as {@link Field.format} writes it); null if it is not canonical. */
  parseCanonical(text: string): C | null;
  /** True if `a` is negative when printed (Q only; GF(p) residues are never negative). */
  isNegative(a: C): boolean;
}

/** JSON description of a coefficient field, as it appears in requests and artifacts. */
export const FieldSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('Q') }).strict().describe('the rational numbers'),
  z
    .object({
      kind: z.literal('GF'),
      characteristic: z
        .string()
        .regex(/^[1-9][0-9]{0,39}$/, 'a prime written in decimal without sign or leading zeros')
        .describe('the prime p, in decimal (at most 40 digits)'),
    })
    .strict()
    .describe('the prime field GF(p)'),
]);
export type FieldSpec = z.infer<typeof FieldSpecSchema>;

export function bigAbs(a: bigint): bigint {
  return a < 0n ? -a : a;
}

/** Greatest common divisor of |a| and |b| (gcd(0, 0) = 0). */
export function bigGcd(a: bigint, b: bigint): bigint {
  a = bigAbs(a);
  b = bigAbs(b);
  // Euclid on bigints; for small operands convert to numbers, which is much faster in V8.
  while (b !== 0n) {
    if (a < 9007199254740991n && b < 9007199254740991n) {
      let x = Number(a);
      let y = Number(b);
      while (y !== 0) {
        const t = x % y;
        x = y;
        y = t;
      }
      return BigInt(x);
    }
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

function invalid(message: string, path: JsonPath = [], rule = 'field'): JacobianError {
  return new JacobianError('INVALID_REQUEST', message, { path, data: { rule } });
}

const RATIONAL_ZERO: Rational = Object.freeze({ num: 0n, den: 1n });
const RATIONAL_ONE: Rational = Object.freeze({ num: 1n, den: 1n });

/** num/den in lowest terms; den must be non-zero. */
export function makeRational(num: bigint, den: bigint): Rational {
  if (den === 0n) throw invalid('division by zero in a rational number', [], 'division-by-zero');
  if (num === 0n) return RATIONAL_ZERO;
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  if (den === 1n) return { num, den };
  const g = bigGcd(num, den);
  return g === 1n ? { num, den } : { num: num / g, den: den / g };
}

const CANONICAL_RATIONAL = /^-?(0|[1-9][0-9]*)(\/[1-9][0-9]*)?$/;

/** The field Q. Integer fast paths skip gcds when both denominators are 1. */
export const RATIONALS: Field<Rational> = Object.freeze({
  name: 'Q',
  kind: 'Q' as const,
  characteristic: 0n,
  zero: RATIONAL_ZERO,
  one: RATIONAL_ONE,
  isZero: (a: Rational) => a.num === 0n,
  isOne: (a: Rational) => a.num === 1n && a.den === 1n,
  equals: (a: Rational, b: Rational) => a.num === b.num && a.den === b.den,
  add(a: Rational, b: Rational): Rational {
    if (a.den === 1n && b.den === 1n) return { num: a.num + b.num, den: 1n };
    if (a.den === b.den) return makeRational(a.num + b.num, a.den);
    return makeRational(a.num * b.den + b.num * a.den, a.den * b.den);
  },
  sub(a: Rational, b: Rational): Rational {
    if (a.den === 1n && b.den === 1n) return { num: a.num - b.num, den: 1n };
    if (a.den === b.den) return makeRational(a.num - b.num, a.den);
    return makeRational(a.num * b.den - b.num * a.den, a.den * b.den);
  },
  mul(a: Rational, b: Rational): Rational {
    if (a.num === 0n || b.num === 0n) return RATIONAL_ZERO;
    if (a.den === 1n && b.den === 1n) return { num: a.num * b.num, den: 1n };
    // Cross-cancel first so the products stay small.
    const g1 = bigGcd(a.num, b.den);
    const g2 = bigGcd(b.num, a.den);
    return { num: (a.num / g1) * (b.num / g2), den: (a.den / g2) * (b.den / g1) };
  },
  neg: (a: Rational): Rational => (a.num === 0n ? a : { num: -a.num, den: a.den }),
  inv(a: Rational): Rational {
    if (a.num === 0n) throw invalid('zero has no inverse', [], 'division-by-zero');
    return a.num < 0n ? { num: -a.den, den: -a.num } : { num: a.den, den: a.num };
  },
  div(a: Rational, b: Rational): Rational {
    return RATIONALS.mul(a, RATIONALS.inv(b));
  },
  fromBigInt: (n: bigint): Rational => (n === 0n ? RATIONAL_ZERO : { num: n, den: 1n }),
  fromFraction: (num: bigint, den: bigint): Rational => makeRational(num, den),
  format: (a: Rational): string => (a.den === 1n ? a.num.toString() : `${a.num}/${a.den}`),
  parseCanonical(text: string): Rational | null {
    if (!CANONICAL_RATIONAL.test(text) || text === '-0') return null;
    const slash = text.indexOf('/');
    if (slash < 0) return RATIONALS.fromBigInt(BigInt(text));
    const num = BigInt(text.slice(0, slash));
    const den = BigInt(text.slice(slash + 1));
    if (num === 0n || den === 1n || bigGcd(num, den) !== 1n) return null;
    return { num, den };
  },
  isNegative: (a: Rational) => a.num < 0n,
});

/** Deterministic Miller–Rabin: exact for every n < 3.3·10^24 with these bases; beyond, a strong probable-prime test on 24 fixed bases. */
export function isProbablePrime(n: bigint): boolean {
  if (n < 2n) return false;
  const small = [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n, 43n, 47n, 53n, 59n, 61n, 67n, 71n, 73n, 79n, 83n, 89n, 97n];
  for (const q of small) {
    if (n === q) return true;
    if (n % q === 0n) return false;
  }
  let d = n - 1n;
  let s = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    s++;
  }
  outer: for (const a of small.slice(0, 24)) {
    let x = powMod(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    for (let r = 1; r < s; r++) {
      x = (x * x) % n;
      if (x === n - 1n) continue outer;
    }
    return false;
  }
  return true;
}

/** base^exponent reduced into [0, modulus) (exponent ≥ 0, modulus ≥ 1). */
export function powMod(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n % modulus;
  base %= modulus;
  if (base < 0n) base += modulus;
  while (exponent > 0n) {
    if ((exponent & 1n) === 1n) result = (result * base) % modulus;
    base = (base * base) % modulus;
    exponent >>= 1n;
  }
  return result;
}

/** Inverse of a modulo p (a ≢ 0) by the extended Euclidean algorithm on numbers (p < 2^26). */
export function invModSmall(a: number, p: number): number {
  let r0 = p;
  let r1 = a % p;
  if (r1 < 0) r1 += p;
  let t0 = 0;
  let t1 = 1;
  while (r1 !== 0) {
    const q = Math.floor(r0 / r1);
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  if (r0 !== 1) throw invalid('zero has no inverse', [], 'division-by-zero');
  return t0 < 0 ? t0 + p : t0;
}

/** Primes below this use number residues. */
export const SMALL_PRIME_BOUND = 1 << 26;

function smallPrimeField(p: number): Field<number> {
  const P = BigInt(p);
  const canonical = /^(0|[1-9][0-9]*)$/;
  const field: Field<number> = Object.freeze({
    name: `GF(${p})`,
    kind: 'GF' as const,
    characteristic: P,
    zero: 0,
    one: 1,
    isZero: (a: number) => a === 0,
    isOne: (a: number) => a === 1,
    equals: (a: number, b: number) => a === b,
    add(a: number, b: number) {
      const s = a + b;
      return s >= p ? s - p : s;
    },
    sub(a: number, b: number) {
      const s = a - b;
      return s < 0 ? s + p : s;
    },
    mul: (a: number, b: number) => (a * b) % p,
    neg: (a: number) => (a === 0 ? 0 : p - a),
    inv: (a: number) => invModSmall(a, p),
    div: (a: number, b: number) => (a * invModSmall(b, p)) % p,
    fromBigInt(n: bigint) {
      let r = n % P;
      if (r < 0n) r += P;
      return Number(r);
    },
    fromFraction(num: bigint, den: bigint) {
      const d = field.fromBigInt(den);
      if (d === 0) throw invalid(`the denominator ${den} is divisible by the characteristic ${p}`, [], 'division-by-zero');
      return field.div(field.fromBigInt(num), d);
    },
    format: (a: number) => String(a),
    parseCanonical(text: string) {
      if (!canonical.test(text) || text.length > 8) return null;
      const a = Number(text);
      return a < p ? a : null;
    },
    isNegative: () => false,
  });
  return field;
}

function bigPrimeField(P: bigint): Field<bigint> {
  const canonical = /^(0|[1-9][0-9]*)$/;
  const reduce = (n: bigint): bigint => {
    const r = n % P;
    return r < 0n ? r + P : r;
  };
  const inverse = (a: bigint): bigint => {
    if (a === 0n) throw invalid('zero has no inverse', [], 'division-by-zero');
    return powMod(a, P - 2n, P);
  };
  const field: Field<bigint> = Object.freeze({
    name: `GF(${P})`,
    kind: 'GF' as const,
    characteristic: P,
    zero: 0n,
    one: 1n,
    isZero: (a: bigint) => a === 0n,
    isOne: (a: bigint) => a === 1n,
    equals: (a: bigint, b: bigint) => a === b,
    add(a: bigint, b: bigint) {
      const s = a + b;
      return s >= P ? s - P : s;
    },
    sub(a: bigint, b: bigint) {
      const s = a - b;
      return s < 0n ? s + P : s;
    },
    mul: (a: bigint, b: bigint) => (a * b) % P,
    neg: (a: bigint) => (a === 0n ? 0n : P - a),
    inv: inverse,
    div: (a: bigint, b: bigint) => (a * inverse(b)) % P,
    fromBigInt: reduce,
    fromFraction(num: bigint, den: bigint) {
      const d = reduce(den);
      if (d === 0n) throw invalid(`the denominator ${den} is divisible by the characteristic ${P}`, [], 'division-by-zero');
      return (reduce(num) * inverse(d)) % P;
    },
    format: (a: bigint) => a.toString(),
    parseCanonical(text: string) {
      if (!canonical.test(text) || text.length > 41) return null;
      const a = BigInt(text);
      return a < P ? a : null;
    },
    isNegative: () => false,
  });
  return field;
}

/** Any field this core builds. */
export type AnyField = Field<Rational> | Field<number> | Field<bigint>;

/**
 * The field a spec names. GF(p) validates that p is prime (Miller–Rabin; deterministic below
 * 3.3·10^24) and throws INVALID_REQUEST naming `path` otherwise.
 */
export function fieldFromSpec(spec: FieldSpec, path: JsonPath = ['field']): AnyField {
  if (spec.kind === 'Q') return RATIONALS;
  const text = spec.characteristic;
  if (!/^[1-9][0-9]{0,39}$/.test(text)) throw invalid(`the characteristic "${text}" is not a positive decimal integer of at most 40 digits`, [...path, 'characteristic'], 'prime');
  const p = BigInt(text);
  if (!isProbablePrime(p)) throw invalid(`the characteristic ${text} is not a prime`, [...path, 'characteristic'], 'prime');
  return p < BigInt(SMALL_PRIME_BOUND) ? smallPrimeField(Number(p)) : bigPrimeField(p);
}

/** The spec of a field built by {@link fieldFromSpec}. */
export function fieldSpecOf(field: Field<unknown>): FieldSpec {
  return field.kind === 'Q' ? { kind: 'Q' } : { kind: 'GF', characteristic: field.characteristic.toString() };
}

/** Bound on digits of literal integers, checked before BigInt() is called on them. */
export function checkDigits(text: string, path: JsonPath): void {
  if (text.length > POLYNOMIAL_LIMITS.maxCoefficientDigits) {
    throw new JacobianError('INVALID_REQUEST', `an integer has ${text.length} digits, more than the limit of ${POLYNOMIAL_LIMITS.maxCoefficientDigits}`, {
      path,
      data: { rule: 'size' },
    });
  }
}
