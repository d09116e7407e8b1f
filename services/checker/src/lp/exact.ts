/**
 * The LP checkers' own exact arithmetic on rationals p/q (q > 0), apart from the producers' and
 * from shared/'s field code (shared only parses the claim's canonical numbers): a few operations
 * on normalized fractions, and a sum that keeps one common denominator (the lcm of the terms')
 * and reduces once at the end, so that an inner product over a row of integers costs bigint
 * multiplications and additions only.
 */

/** An exact rational p/q with q > 0 and gcd(p, q) = 1. */
export interface Q {
  readonly num: bigint;
  readonly den: bigint;
}

export const ZERO: Q = { num: 0n, den: 1n };

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** p/q in lowest terms with a positive denominator (q ≠ 0). */
export function fraction(num: bigint, den: bigint): Q {
  if (den === 0n) throw new Error('fraction with a zero denominator');
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  if (num === 0n) return ZERO;
  const g = gcd(num, den);
  return g === 1n ? { num, den } : { num: num / g, den: den / g };
}

export const sign = (a: Q): -1 | 0 | 1 => (a.num > 0n ? 1 : a.num < 0n ? -1 : 0);
export const neg = (a: Q): Q => (a.num === 0n ? a : { num: -a.num, den: a.den });
export const mul = (a: Q, b: Q): Q => (a.num === 0n || b.num === 0n ? ZERO : fraction(a.num * b.num, a.den * b.den));
export const add = (a: Q, b: Q): Q => (a.den === b.den ? fraction(a.num + b.num, a.den) : fraction(a.num * b.den + b.num * a.den, a.den * b.den));
export const sub = (a: Q, b: Q): Q => add(a, neg(b));
/** −1, 0 or 1 as a <, =, > b. */
export const compare = (a: Q, b: Q): -1 | 0 | 1 => {
  const d = a.num * b.den - b.num * a.den;
  return d > 0n ? 1 : d < 0n ? -1 : 0;
};
export const equal = (a: Q, b: Q): boolean => a.num === b.num && a.den === b.den;

/** Canonical text: an integer, or p/q. */
export const show = (a: Q): string => (a.den === 1n ? a.num.toString() : `${a.num}/${a.den}`);

/** Canonical text, cut to `max` characters (numbers of a thousand digits stay readable in messages). */
export function brief(a: Q, max = 60): string {
  const text = show(a);
  return text.length <= max ? text : `${text.slice(0, max - 12)}…(${text.length} chars)`;
}

/** The lcm of |a| and |b| (both non-zero). */
function lcm(a: bigint, b: bigint): bigint {
  if (a === b || a % b === 0n) return a < 0n ? -a : a;
  const l = (a / gcd(a, b)) * b;
  return l < 0n ? -l : l;
}

/**
 * Values over one common denominator: value k is nums[k]/den, den the lcm of their denominators.
 * A vertex's coordinates mostly share one denominator (the basis determinant's divisors), so the
 * lcm stays near the largest of them, and inner products with it cost bigint products and sums.
 */
export interface Scaled {
  readonly nums: readonly bigint[];
  readonly den: bigint;
}

export function scaled(values: readonly Q[]): Scaled {
  let den = 1n;
  for (const v of values) if (v.num !== 0n && v.den !== den) den = lcm(den, v.den);
  return { nums: values.map((v) => (v.den === den ? v.num : v.num * (den / v.den))), den };
}

/**
 * A running sum Σ a_k·b_k over one common denominator, the lcm of the terms' denominators, with
 * the numerator never reduced until {@link Sum.value}.
 */
export class Sum {
  private num = 0n;
  private den = 1n;

  /** Add a·b. */
  addProduct(a: Q, b: Q): void {
    if (a.num === 0n || b.num === 0n) return;
    this.addTerm(a.num * b.num, a.den * b.den);
  }

  add(a: Q): void {
    if (a.num !== 0n) this.addTerm(a.num, a.den);
  }

  private addTerm(p: bigint, q: bigint): void {
    if (q === this.den) {
      this.num += p;
    } else if (this.den % q === 0n) {
      this.num += p * (this.den / q);
    } else {
      const g = gcd(this.den, q);
      const scale = q / g;
      this.num = this.num * scale + p * (this.den / g);
      this.den *= scale;
    }
  }

  value(): Q {
    return fraction(this.num, this.den);
  }
}
