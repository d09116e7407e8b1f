/**
 * Irreducibility of one factor, for polynomial.factor.verify, by exact tests of our own (no CAS,
 * none of the producer's code):
 *
 * - total degree 1: irreducible over any field (a product of two non-constants has degree ≥ 2);
 * - one variable over GF(p): Rabin's test, exact both ways. A monic f of degree n is irreducible
 *   iff x^(p^n) ≡ x (mod f) and gcd(x^(p^(n/q)) − x, f) = 1 for every prime q | n;
 * - one variable over Q: reduction modulo primes. Scale f to an integer polynomial; if for some
 *   prime p not dividing its leading coefficient f mod p is irreducible over GF(p), f is
 *   irreducible over Q (by Gauss's lemma a factorization over Q is one over Z with the same
 *   degrees, and it survives reduction because p misses the leading coefficient). This only ever
 *   proves irreducibility: when no prime tried works (x^4 + 1 is reducible modulo every prime),
 *   the factor stays unproven, never "reducible".
 *
 * A polynomial in one variable of a larger ring is irreducible there iff it is in that variable
 * alone, so "one variable" means one variable occurs. Everything else is left unproven.
 */
import { bigGcd, type Polynomial, type PolynomialRing, type Rational } from '@jacobian/shared';

/** What was established about one factor. */
export type IrreducibilityVerdict =
  | { status: 'IRREDUCIBLE'; method: string }
  | { status: 'REDUCIBLE'; method: string }
  | { status: 'UNPROVEN'; why: string };

/** Largest degree the univariate tests take (their cost grows as the cube of the degree). */
export const MAX_TESTED_DEGREE = 200;
/** Primes tried for a factor over Q. */
const PRIMES_OVER_Q = [3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n, 43n, 47n, 53n, 59n, 61n, 67n, 71n, 73n, 79n, 83n, 89n, 97n, 101n, 103n, 107n, 109n, 113n, 127n];

/** Dense univariate polynomial over GF(p), coefficients from degree 0 up, each in [0, p). */
type Dense = bigint[];

function trim(a: Dense): Dense {
  while (a.length > 0 && a[a.length - 1] === 0n) a.pop();
  return a;
}

function modP(a: bigint, p: bigint): bigint {
  const r = a % p;
  return r < 0n ? r + p : r;
}

function invP(a: bigint, p: bigint): bigint {
  // Extended Euclid; a is non-zero modulo the prime p.
  let [r0, r1] = [modP(a, p), p];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return modP(s0, p);
}

/** a mod m, m with a non-zero leading coefficient. */
function rem(a: Dense, m: Dense, p: bigint): Dense {
  const r = a.slice();
  trim(r);
  const dm = m.length - 1;
  const lead = invP(m[dm] as bigint, p);
  while (r.length - 1 >= dm && r.length > 0) {
    const shift = r.length - 1 - dm;
    const c = modP((r[r.length - 1] as bigint) * lead, p);
    for (let i = 0; i <= dm; i++) r[shift + i] = modP((r[shift + i] as bigint) - c * (m[i] as bigint), p);
    trim(r);
  }
  return r;
}

function mulRem(a: Dense, b: Dense, m: Dense, p: bigint): Dense {
  if (a.length === 0 || b.length === 0) return [];
  const out: Dense = new Array<bigint>(a.length + b.length - 1).fill(0n);
  for (let i = 0; i < a.length; i++) {
    const ai = a[i] as bigint;
    if (ai === 0n) continue;
    for (let j = 0; j < b.length; j++) out[i + j] = (out[i + j] as bigint) + ai * (b[j] as bigint);
  }
  return rem(out.map((c) => modP(c, p)), m, p);
}

function powRem(base: Dense, exponent: bigint, m: Dense, p: bigint, checkpoint: () => void): Dense {
  let result: Dense = rem([1n], m, p);
  let b = rem(base, m, p);
  let e = exponent;
  while (e > 0n) {
    checkpoint();
    if ((e & 1n) === 1n) result = mulRem(result, b, m, p);
    b = mulRem(b, b, m, p);
    e >>= 1n;
  }
  return result;
}

function gcdDense(a: Dense, b: Dense, p: bigint): Dense {
  let [x, y] = [trim(a.slice()), trim(b.slice())];
  while (y.length > 0) [x, y] = [y, rem(x, y, p)];
  return x;
}

function primeDivisors(n: number): number[] {
  const out: number[] = [];
  for (let q = 2; q * q <= n; q++) {
    if (n % q === 0) {
      out.push(q);
      while (n % q === 0) n /= q;
    }
  }
  if (n > 1) out.push(n);
  return out;
}

/**
 * Rabin's irreducibility test for f over GF(p) (f of degree ≥ 1, any leading coefficient).
 * The powers x^(p^k) mod f are taken through the Frobenius matrix, so the cost is about n³
 * field operations after one exponentiation.
 */
export function isIrreducibleModP(f: Dense, p: bigint, checkpoint: () => void = () => {}): boolean {
  const m = trim(f.slice());
  const n = m.length - 1;
  if (n < 1) return false;
  if (n === 1) return true;
  // Frobenius: column i is x^(i·p) mod f; then h ↦ h(x^p) mod f is linear in h's coefficients.
  const xp = powRem([0n, 1n], p, m, p, checkpoint);
  const columns: Dense[] = [rem([1n], m, p)];
  for (let i = 1; i < n; i++) {
    checkpoint();
    columns.push(mulRem(columns[i - 1] as Dense, xp, m, p));
  }
  const frobenius = (h: Dense): Dense => {
    const out: Dense = new Array<bigint>(n).fill(0n);
    for (let i = 0; i < h.length; i++) {
      const hi = h[i] as bigint;
      if (hi === 0n) continue;
      const column = columns[i] as Dense;
      for (let j = 0; j < column.length; j++) out[j] = (out[j] as bigint) + hi * (column[j] as bigint);
    }
    return trim(out.map((c) => modP(c, p)));
  };
  const wanted = new Set(primeDivisors(n).map((q) => n / q));
  const x = rem([0n, 1n], m, p);
  let h = x;
  for (let k = 1; k <= n; k++) {
    checkpoint();
    h = frobenius(h);
    if (wanted.has(k)) {
      const minusX = h.slice();
      while (minusX.length < 2) minusX.push(0n);
      minusX[1] = modP((minusX[1] as bigint) - 1n, p);
      if (gcdDense(minusX, m, p).length - 1 !== 0) return false;
    }
  }
  return h.length === x.length && h.every((c, i) => c === x[i]);
}

/** The one variable a polynomial uses, or -1 when it uses none or several. */
function soleVariable<C>(ring: PolynomialRing<C>, f: Polynomial<C>): number {
  let variable = -1;
  for (const t of f) {
    for (let i = 0; i < ring.arity; i++) {
      if ((t.monomial[i] as number) === 0) continue;
      if (variable !== -1 && variable !== i) return -1;
      variable = i;
    }
  }
  return variable;
}

/**
 * What can be shown about the irreducibility of a non-constant f over the ring's field.
 *
 * @param checkpoint polled during the work; throw from it to stop.
 */
export function irreducibility<C>(ring: PolynomialRing<C>, f: Polynomial<C>, checkpoint: () => void = () => {}): IrreducibilityVerdict {
  const degree = ring.degree(f);
  if (degree === 1) return { status: 'IRREDUCIBLE', method: 'total degree 1' };
  const v = soleVariable(ring, f);
  if (v === -1) return { status: 'UNPROVEN', why: 'it involves several variables; this checker tests irreducibility only in one variable' };
  if (degree > MAX_TESTED_DEGREE) return { status: 'UNPROVEN', why: `its degree ${degree} is above the ${MAX_TESTED_DEGREE} this checker tests` };
  const F = ring.field;
  if (F.kind === 'GF') {
    const p = F.characteristic;
    const dense: Dense = new Array<bigint>(degree + 1).fill(0n);
    for (const t of f) dense[t.monomial[v] as number] = BigInt(F.format(t.coefficient));
    return isIrreducibleModP(dense, p, checkpoint)
      ? { status: 'IRREDUCIBLE', method: `Rabin's test over GF(${p})` }
      : { status: 'REDUCIBLE', method: `Rabin's test over GF(${p})` };
  }
  // Over Q: clear denominators, then look for a prime that keeps the degree and the irreducibility.
  const coefficients = f.map((t) => ({ e: t.monomial[v] as number, c: t.coefficient as unknown as Rational }));
  let lcm = 1n;
  for (const { c } of coefficients) lcm = (lcm / bigGcd(lcm, c.den)) * c.den;
  const integer: bigint[] = new Array<bigint>(degree + 1).fill(0n);
  for (const { e, c } of coefficients) integer[e] = (c.num * lcm) / c.den;
  const lead = integer[degree] as bigint;
  for (const p of PRIMES_OVER_Q) {
    checkpoint();
    if (lead % p === 0n) continue;
    if (isIrreducibleModP(integer.map((c) => modP(c, p)), p, checkpoint)) return { status: 'IRREDUCIBLE', method: `irreducible modulo ${p}, which keeps its degree (Gauss's lemma)` };
  }
  return { status: 'UNPROVEN', why: `it is reducible modulo every prime tried up to ${PRIMES_OVER_Q.at(-1) ?? 0n} (or they divide its leading coefficient); reduction modulo primes cannot show its irreducibility` };
}
