/**
 * Reduced Groebner bases: Buchberger's algorithm with the Gebauer–Möller installation of
 * Buchberger's criteria (the UPDATE procedure of Becker–Weispfenning, Gröbner Bases, §5.5), the
 * sugar selection strategy (Giovini et al. 1991; the normal strategy breaks ties; an element
 * entering the basis takes its actual degree as sugar, as Singular does, so for graded orders this
 * is the normal strategy by degree), the shortest reducer first, remainders reduced in full (tail
 * included), and a final interreduction to the reduced basis. Over Q it works fraction-free on primitive integer
 * polynomials (bigint); over GF(p) it keeps basis elements monic, with number residues when
 * p < 2^26. Optionally it tracks cofactors: each basis element as a combination of the input
 * generators, with coefficients in the field.
 *
 * Over Q without cofactors, a run whose coefficients grow large (cyclic-6: thousands of bits in
 * intermediate elements, spent mostly on pairs that reduce to zero) switches to a modular trace:
 * the same computation modulo a prime records which pairs reduce to zero, the run over Q skips
 * them, and the result is certified exactly over Q by Buchberger's criterion before it is
 * returned; otherwise the full algorithm answers (see {@link GroebnerOptions.modularTrace}).
 *
 * Representation, chosen for the hot loops: a polynomial is one Int32Array of packed monomials
 * (stride W words per term) plus an array of coefficients, terms strictly decreasing. Monomials
 * are encoded so that the monomial order is the plain lexicographic order of the words:
 *   lex      [e1, …, en]
 *   grlex    [deg, e1, …, en]
 *   grevlex  [deg, −en, …, −e1]
 * so comparison is one loop without allocation, a product is word-wise addition, and divisibility
 * is word-wise ≤ (≥ on negated words). Graded orders without cofactors pack four such fields of 7
 * bits into each word (see {@link Layout}; a run meeting degree 128 starts over unpacked), so
 * katsura-6 and cyclic-6 monomials take 2 words instead of 8. A 32-bit divisibility mask per
 * leading monomial rejects most reducer candidates before any word is read.
 *
 * Reduction (without cofactors) goes by symbolic preprocessing, as in F4: the monomials a
 * reduction can reach are collected first, numbered in a hash table, then the coefficients are
 * updated in an array indexed by them, so a step costs one update per term of the reducer instead
 * of a merge that copies the whole remainder (see {@link Buchberger.reduceDense}).
 *
 * The computation is synchronous and CPU-bound; callers stop it through `checkpoint`, which is
 * called every few dozen reduction steps and may throw (the kernel throws EXECUTION_TIMEOUT).
 */
import { bigGcd, JacobianError, MonomialOrder, type Field, type Polynomial, type PolynomialRing, type Rational, type PolynomialTerm } from '@jacobian/shared';
import { lehmerGcd } from './integer-gcd.js';
import { MonomialTable } from './monomial-table.js';

/** Options of {@link groebnerBasis}. */
export interface GroebnerOptions {
  /** Track cofactors (basis[i] = Σ_j cofactors[i][j]·generators[j]); costs time and memory. */
  readonly cofactors?: boolean;
  /** Called every {@link CHECKPOINT_INTERVAL} reduction steps with the counters so far; throw from it to stop the computation. */
  readonly checkpoint?: (stats: Readonly<GroebnerStats>) => void;
  /** Reduce the tails of S-polynomial remainders as well as their leading terms (default true). */
  readonly tailReduce?: boolean;
  /**
   * Over Q without cofactors, whether to steer the computation by a run modulo a prime and certify
   * the result over Q (see {@link GroebnerResult.trace}). `auto` (the default) starts the plain
   * algorithm and switches to the trace once an element's coefficients pass
   * {@link TRACE_COEFFICIENT_BITS} bits, the sign that its zero reductions will be expensive;
   * `always` traces from the start; `never` runs the plain algorithm.
   */
  readonly modularTrace?: 'auto' | 'always' | 'never';
  /** The prime of the modular trace (default {@link TRACE_PRIME}; below 2^26). Tests pick unlucky ones. */
  readonly tracePrime?: number;
}

/** What the modular trace did (over Q without cofactors). */
export interface ModularTrace {
  readonly prime: number;
  /** Pairs the modular run selected. */
  readonly pairs: number;
  /** Of those, the ones that reduced to zero there and were skipped over Q. */
  readonly skipped: number;
  /**
   * certified: the traced result passed the exact check and is the answer. Otherwise the answer
   * comes from the full algorithm: unlucky-prime (a generator's leading coefficient vanishes modulo
   * the prime), mismatch (the run over Q left the recorded path), rejected (the check failed).
   */
  readonly outcome: 'certified' | 'unlucky-prime' | 'mismatch' | 'rejected';
}

/** Counters of one computation, for diagnostics and benchmarks. */
export interface GroebnerStats {
  /** S-pairs formed (after the Gebauer–Möller criteria). */
  pairs: number;
  /** S-polynomials reduced. */
  reductions: number;
  /** Those that reduced to zero. */
  zeroReductions: number;
  /** Single reduction steps (one multiple of a basis element subtracted). */
  steps: number;
}

/** A reduced Groebner basis, sorted by increasing leading monomial, every element monic. */
export interface GroebnerResult<C> {
  readonly basis: Polynomial<C>[];
  /** When asked for: cofactors[i][j] multiplies generators[j]; their sum is basis[i]. */
  readonly cofactors?: Polynomial<C>[][];
  /** Counters of the work over the ring's own field (over Q: the traced run, its check, and the full run if it fell back). */
  readonly stats: GroebnerStats;
  /** Present when the modular trace was tried. */
  readonly trace?: ModularTrace;
}

/** Reduction steps between two `checkpoint` calls. */
export const CHECKPOINT_INTERVAL = 64;

// ---------------------------------------------------------------------------------------------
// Coefficient domains. Q is handled fraction-free over the integers (bigint); GF(p) as a field.

interface Domain<K> {
  readonly zero: K;
  readonly one: K;
  readonly fractionFree: boolean;
  /** p for GF(p) with p < 2^26 (number residues), for the merge written out for residues. */
  readonly modulus?: number;
  isZero(a: K): boolean;
  isOne(a: K): boolean;
  /** fp·x − fg·y. */
  combo(fp: K, x: K, fg: K, y: K): K;
  /** fp·x. */
  scale(fp: K, x: K): K;
  /** −fg·y. */
  negScale(fg: K, y: K): K;
  /** (fp, fg) with fp·a = fg·b, as small as possible; fp must not be zero. */
  multipliers(a: K, b: K): [K, K];
  /** Make the polynomial's coefficients primitive with a positive lead (Q) or monic (GF); returns the divisor used. */
  normalize(coefs: K[], len: number): K;
}

const integerDomain: Domain<bigint> = {
  zero: 0n,
  one: 1n,
  fractionFree: true,
  isZero: (a) => a === 0n,
  isOne: (a) => a === 1n,
  combo: (fp, x, fg, y) => (fp === 1n ? x : fp * x) - fg * y,
  scale: (fp, x) => (fp === 1n ? x : fp * x),
  negScale: (fg, y) => -(fg * y),
  multipliers(a, b) {
    if (b === 1n) return [1n, a];
    if (b === -1n) return [1n, -a];
    const g = lehmerGcd(a, b);
    if (g === 1n) return b < 0n ? [-b, -a] : [b, a];
    let fp = b / g;
    let fg = a / g;
    if (fp < 0n) {
      fp = -fp;
      fg = -fg;
    }
    return [fp, fg];
  },
  normalize(coefs, len) {
    if (len === 0) return 1n;
    // The content divides the smallest coefficient: start from it, and take a gcd only when a
    // coefficient is not already a multiple (one division of a long number by a short one, where
    // Euclid from the first coefficient would divide long numbers by long numbers).
    let g = coefs[0] as bigint;
    if (g < 0n) g = -g;
    for (let i = 1; i < len; i++) {
      const c = coefs[i] as bigint;
      if (c < g && c > -g) g = c < 0n ? -c : c;
    }
    for (let i = 0; i < len && g !== 1n; i++) {
      const r = (coefs[i] as bigint) % g;
      if (r !== 0n) g = lehmerGcd(g, r);
    }
    if ((coefs[0] as bigint) < 0n) g = -g;
    if (g !== 1n) for (let i = 0; i < len; i++) coefs[i] = (coefs[i] as bigint) / g;
    return g;
  },
};

function smallPrimeDomain(p: number): Domain<number> {
  const inv = (a: number): number => {
    let r0 = p;
    let r1 = a;
    let t0 = 0;
    let t1 = 1;
    while (r1 !== 0) {
      const q = Math.floor(r0 / r1);
      const r = r0 - q * r1;
      r0 = r1;
      r1 = r;
      const t = t0 - q * t1;
      t0 = t1;
      t1 = t;
    }
    return t0 < 0 ? t0 + p : t0;
  };
  return {
    zero: 0,
    one: 1,
    fractionFree: false,
    modulus: p,
    isZero: (a) => a === 0,
    isOne: (a) => a === 1,
    combo(fp, x, fg, y) {
      const r = (fp === 1 ? x : (fp * x) % p) - ((fg * y) % p);
      return r < 0 ? r + p : r;
    },
    scale: (fp, x) => (fp === 1 ? x : (fp * x) % p),
    negScale(fg, y) {
      const r = (fg * y) % p;
      return r === 0 ? 0 : p - r;
    },
    multipliers: (a, b) => (b === 1 ? [1, a] : [1, (a * inv(b)) % p]),
    normalize(coefs, len) {
      if (len === 0 || coefs[0] === 1) return 1;
      const c = coefs[0] as number;
      const i = inv(c);
      for (let k = 0; k < len; k++) coefs[k] = ((coefs[k] as number) * i) % p;
      return c;
    },
  };
}

function bigPrimeDomain(P: bigint): Domain<bigint> {
  const inv = (a: bigint): bigint => {
    let result = 1n;
    let base = a % P;
    for (let e = P - 2n; e > 0n; e >>= 1n) {
      if ((e & 1n) === 1n) result = (result * base) % P;
      base = (base * base) % P;
    }
    return result;
  };
  return {
    zero: 0n,
    one: 1n,
    fractionFree: false,
    isZero: (a) => a === 0n,
    isOne: (a) => a === 1n,
    combo(fp, x, fg, y) {
      const r = ((fp === 1n ? x : fp * x) - fg * y) % P;
      return r < 0n ? r + P : r;
    },
    scale: (fp, x) => (fp === 1n ? x : (fp * x) % P),
    negScale(fg, y) {
      const r = (fg * y) % P;
      return r === 0n ? 0n : P - r;
    },
    multipliers: (a, b) => (b === 1n ? [1n, a] : [1n, (a * inv(b)) % P]),
    normalize(coefs, len) {
      if (len === 0 || coefs[0] === 1n) return 1n;
      const c = coefs[0] as bigint;
      const i = inv(c);
      for (let k = 0; k < len; k++) coefs[k] = ((coefs[k] as bigint) * i) % P;
      return c;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Packed monomials.

/**
 * The word layout of one ring's monomials. Unpacked, each encoded field (degree, exponent) has its
 * own word. Packed (graded orders), {@link PACKED_FIELDS} fields share a word in slots of
 * {@link PACKED_SLOT} bits, the first field in the highest slot: the degree, then for grevlex
 * B − e_n, …, B − e_1 with B = {@link PACKED_MAX} (so a larger field is a smaller exponent), for
 * grlex e_1, …, e_n. A field uses the low 7 bits of its slot; the top bit is a guard, always 0 in
 * a monomial, so divisibility is one subtraction per word (see {@link divides}). Every
 * field lies in [0, B] and words are non-negative, so the lexicographic order of the words is the
 * order of the fields; products and quotients stay word-wise addition and subtraction (a quotient
 * word may borrow across fields, but only its sums with monomials are ever read). Monomials of a
 * packed run must have degree at most B: the run checks every lcm and input, and stops with
 * {@link PackedOverflow} otherwise (then the unpacked layout answers).
 */
interface Layout {
  readonly n: number;
  /** Words per monomial. */
  readonly W: number;
  /** Unpacked: words [0, posEnd) compare as ≤ for divisibility; [posEnd, W) are negated exponents (≥). */
  readonly posEnd: number;
  /** Unpacked: first exponent word (0 for lex, 1 for graded orders). */
  readonly expStart: number;
  readonly graded: boolean;
  readonly negated: boolean;
  /** Fields share words (see above). */
  readonly packed: boolean;
}

/** Bits per field slot of a packed monomial: 7 value bits and a guard bit. */
const PACKED_SLOT = 8;
/** Fields per word of a packed monomial (the top guard bit is the sign bit, always 0: words stay non-negative). */
const PACKED_FIELDS = 4;
/** The largest field value, so the largest degree a packed monomial may have. */
const PACKED_MAX = 127;
/** The guard bits of a word, and of the first word without the degree slot (as Int32 values). */
const PACKED_GUARDS = 0x80808080 | 0;
const PACKED_GUARDS_FIRST = 0x00808080;

/** A packed run met a monomial of degree above {@link PACKED_MAX}. */
class PackedOverflow extends Error {}

function layoutOf(order: MonomialOrder, n: number, packed = false): Layout {
  switch (order) {
    case MonomialOrder.LEX:
      return { n, W: n, posEnd: n, expStart: 0, graded: false, negated: false, packed: false };
    case MonomialOrder.GRLEX:
      if (packed) return { n, W: Math.ceil((n + 1) / PACKED_FIELDS), posEnd: 0, expStart: 0, graded: true, negated: false, packed };
      return { n, W: n + 1, posEnd: n + 1, expStart: 1, graded: true, negated: false, packed };
    case MonomialOrder.GREVLEX:
      if (packed) return { n, W: Math.ceil((n + 1) / PACKED_FIELDS), posEnd: 0, expStart: 0, graded: true, negated: true, packed };
      return { n, W: n + 1, posEnd: 1, expStart: 1, graded: true, negated: true, packed };
  }
}

/** Field f of a packed monomial. */
function fieldAt(words: Int32Array, at: number, f: number): number {
  return ((words[at + (f >> 2)] as number) >> (PACKED_SLOT * (PACKED_FIELDS - 1 - (f & 3)))) & PACKED_MAX;
}

/** The exponent of variable i of a packed monomial. */
function packedExponent(L: Layout, words: Int32Array, at: number, i: number): number {
  return L.negated ? PACKED_MAX - fieldAt(words, at, L.n - i) : fieldAt(words, at, 1 + i);
}

function encode(L: Layout, exps: ArrayLike<number>, out: Int32Array, at: number): void {
  let deg = 0;
  for (let i = 0; i < L.n; i++) deg += exps[i] as number;
  if (L.packed) {
    if (deg > PACKED_MAX) throw new PackedOverflow();
    for (let k = 0; k < L.W; k++) out[at + k] = 0;
    const put = (f: number, v: number): void => {
      out[at + (f >> 2)] = (out[at + (f >> 2)] as number) | (v << (PACKED_SLOT * (PACKED_FIELDS - 1 - (f & 3))));
    };
    put(0, deg);
    for (let i = 0; i < L.n; i++) {
      if (L.negated) put(L.n - i, PACKED_MAX - (exps[i] as number));
      else put(1 + i, exps[i] as number);
    }
    return;
  }
  if (L.graded) out[at] = deg;
  if (L.negated) for (let i = 0; i < L.n; i++) out[at + 1 + i] = -(exps[L.n - 1 - i] as number);
  else for (let i = 0; i < L.n; i++) out[at + L.expStart + i] = exps[i] as number;
}

function decode(L: Layout, words: Int32Array, at: number): Int32Array {
  const exps = new Int32Array(L.n);
  if (L.packed) for (let i = 0; i < L.n; i++) exps[i] = packedExponent(L, words, at, i);
  else if (L.negated) for (let i = 0; i < L.n; i++) exps[L.n - 1 - i] = -(words[at + 1 + i] as number);
  else for (let i = 0; i < L.n; i++) exps[i] = words[at + L.expStart + i] as number;
  return exps;
}

/** The degree of a monomial (not of a quotient word: packed quotients borrow across fields). */
function degreeAt(L: Layout, words: Int32Array, at: number): number {
  if (L.packed) return (words[at] as number) >> (PACKED_SLOT * (PACKED_FIELDS - 1));
  if (L.graded) return words[at] as number;
  let d = 0;
  for (let i = 0; i < L.W; i++) d += words[at + i] as number;
  return d;
}

/** Compare monomial a (at ia) with monomial b (at ib): positive if a is larger. */
function cmp(W: number, a: Int32Array, ia: number, b: Int32Array, ib: number): number {
  for (let k = 0; k < W; k++) {
    const d = (a[ia + k] as number) - (b[ib + k] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/** True if monomial a (at ia) divides monomial b (at ib). */
function divides(L: Layout, a: Int32Array, ia: number, b: Int32Array, ib: number): boolean {
  if (L.packed) {
    // Grevlex fields are B − e, so a divides b when each of a's fields is at least b's (grlex:
    // at most); the degree follows from the exponents. With the guard bits set, x − y leaves each
    // slot's guard set exactly when its field of x is at least y's (no borrow crosses a slot).
    for (let k = 0; k < L.W; k++) {
      const guards = k === 0 ? PACKED_GUARDS_FIRST : PACKED_GUARDS;
      const d = L.negated ? (a[ia + k] as number) - (b[ib + k] as number) : (b[ib + k] as number) - (a[ia + k] as number);
      if (((d + guards) & guards) !== guards) return false;
    }
    return true;
  }
  for (let k = 0; k < L.posEnd; k++) if ((a[ia + k] as number) > (b[ib + k] as number)) return false;
  for (let k = L.posEnd; k < L.W; k++) if ((a[ia + k] as number) < (b[ib + k] as number)) return false;
  return true;
}

function maskAt(L: Layout, words: Int32Array, at: number): number {
  let mask = 0;
  if (L.packed) {
    // Field f ≥ 1 holds variable n − f (grevlex, zero exponent = B) or f − 1 (grlex, zero = 0).
    const zero = L.negated ? PACKED_MAX : 0;
    for (let f = 1; f <= L.n; f++) {
      const v = ((words[at + (f >> 2)] as number) >> (PACKED_SLOT * (PACKED_FIELDS - 1 - (f & 3)))) & PACKED_MAX;
      if (v !== zero) mask |= 1 << (L.negated ? L.n - f : f - 1) % 32;
    }
    return mask;
  }
  for (let i = 0; i < L.n; i++) if (words[at + L.expStart + i] !== 0) mask |= 1 << i % 32;
  return mask;
}

function lcmOf(L: Layout, a: Int32Array, ia: number, b: Int32Array, ib: number): Int32Array {
  const out = new Int32Array(L.W);
  if (L.packed) {
    const exps = new Int32Array(L.n);
    for (let i = 0; i < L.n; i++) exps[i] = Math.max(packedExponent(L, a, ia, i), packedExponent(L, b, ib, i));
    encode(L, exps, out, 0);
    return out;
  }
  let deg = 0;
  for (let k = L.expStart; k < L.W; k++) {
    const x = a[ia + k] as number;
    const y = b[ib + k] as number;
    const v = L.negated ? Math.min(x, y) : Math.max(x, y);
    out[k] = v;
    deg += v;
  }
  if (L.graded) out[0] = L.negated ? -deg : deg;
  return out;
}

/** q = b / a as words (a divides b). Degree words subtract like the others. */
function quotientOf(L: Layout, b: Int32Array, ib: number, a: Int32Array, ia: number): Int32Array {
  const out = new Int32Array(L.W);
  for (let k = 0; k < L.W; k++) out[k] = (b[ib + k] as number) - (a[ia + k] as number);
  return out;
}

function sameWords(W: number, a: Int32Array, ia: number, b: Int32Array, ib: number): boolean {
  for (let k = 0; k < W; k++) if (a[ia + k] !== b[ib + k]) return false;
  return true;
}

function coprime(L: Layout, a: Int32Array, ia: number, b: Int32Array, ib: number): boolean {
  if (L.packed) {
    for (let i = 0; i < L.n; i++) if (packedExponent(L, a, ia, i) !== 0 && packedExponent(L, b, ib, i) !== 0) return false;
    return true;
  }
  for (let k = L.expStart; k < L.W; k++) if (a[ia + k] !== 0 && b[ib + k] !== 0) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Polynomials of the engine.

/**
 * p − c·(q·g) over GF(P), P < 2^26, for {@link Engine.combine}: the same merge with the residue
 * arithmetic written out, so the loop stays monomorphic (the modular trace runs the generic
 * merge on bigints in the same process) and calls no domain function per term.
 */
function combineResidues(W: number, P: number, p: Poly<number>, g: Poly<number>, q: Int32Array, c: number, sugar: number): Poly<number> {
  const plen = p.len;
  const glen = g.len;
  const mons = new Int32Array((plen + glen) * W);
  const coefs = new Array<number>(plen + glen);
  const pm = p.mons;
  const pc = p.coefs;
  const gm = g.mons;
  const gc = g.coefs;
  // −c, so that every term of q·g contributes neg·gc[j] mod P.
  const neg = c === 0 ? 0 : P - c;
  let i = 0;
  let j = 0;
  let n = 0;
  let jb = 0;
  while (i < plen && j < glen) {
    const ib = i * W;
    let d = 0;
    for (let k = 0; k < W; k++) {
      d = (pm[ib + k] as number) - ((gm[jb + k] as number) + (q[k] as number));
      if (d !== 0) break;
    }
    const ob = n * W;
    if (d > 0) {
      for (let k = 0; k < W; k++) mons[ob + k] = pm[ib + k] as number;
      coefs[n++] = pc[i] as number;
      i++;
      continue;
    }
    if (d < 0) {
      for (let k = 0; k < W; k++) mons[ob + k] = (gm[jb + k] as number) + (q[k] as number);
      coefs[n++] = (neg * (gc[j] as number)) % P;
    } else {
      const v = ((pc[i] as number) + ((neg * (gc[j] as number)) % P)) % P;
      if (v !== 0) {
        for (let k = 0; k < W; k++) mons[ob + k] = pm[ib + k] as number;
        coefs[n++] = v;
      }
      i++;
    }
    j++;
    jb += W;
  }
  if (i < plen) {
    mons.set(pm.subarray(i * W, plen * W), n * W);
    for (; i < plen; i++) coefs[n++] = pc[i] as number;
  }
  for (; j < glen; j++, jb += W) {
    const ob = n * W;
    for (let k = 0; k < W; k++) mons[ob + k] = (gm[jb + k] as number) + (q[k] as number);
    coefs[n++] = (neg * (gc[j] as number)) % P;
  }
  coefs.length = n;
  return { mons, coefs, len: n, sugar, cof: null };
}

/**
 * See {@link Buchberger.reduceDense}: the product of multipliers after which a reduction over Q
 * takes out the content they brought in. Measured on katsura-5/6 and cyclic-6: taking contents
 * more often (every 8 steps, as the cofactor path does) was slower; most steps have fp = 1.
 */
const FACTOR_LIMIT = 1n << 64n;

/** Reusable arrays of one engine's reductions (see {@link Buchberger.reduceDense}). */
class Scratch<K> {
  /** The quotient monomial of the current step. */
  readonly q: Int32Array;
  /** Symbolic preprocessing of {@link Buchberger.reduceDense}: per member, its reducer and where its multiple's numbers start. */
  reducer: Int32Array = new Int32Array(256);
  start: Int32Array = new Int32Array(256);
  targets: Int32Array = new Int32Array(4096);
  /** Coefficients by member number. */
  readonly acc: K[] = [];
  private order: Int32Array = new Int32Array(256);
  private keys: Float64Array = new Float64Array(256);
  private finished: Int32Array = new Int32Array(256);
  private epochs: Int32Array = new Int32Array(256);

  growRows(rows: number): this {
    const capacity = Math.max(rows, 2 * this.reducer.length);
    const reducer = new Int32Array(capacity);
    reducer.set(this.reducer);
    const start = new Int32Array(capacity);
    start.set(this.start);
    this.reducer = reducer;
    this.start = start;
    return this;
  }

  growTargets(size: number): Int32Array {
    const grown = new Int32Array(Math.max(size, 2 * this.targets.length));
    grown.set(this.targets);
    this.targets = grown;
    return grown;
  }

  /**
   * The numbers [0, n) of the monomials mons[0, n·W) sorted by decreasing monomial, in a reusable
   * array. The first words are non-negative and below 2^31, so first word · 2^21 + number is an
   * exact double for n ≤ 2^21: one native numeric sort orders by first word, and only runs with
   * equal first words are sorted further, by insertion.
   */
  decreasing(mons: Int32Array, n: number): Int32Array {
    const W = this.W;
    if (this.order.length < n) this.order = new Int32Array(Math.max(n, 2 * this.order.length));
    const order = this.order.subarray(0, n);
    if (n > 1 << 21) {
      for (let i = 0; i < n; i++) order[i] = i;
      return order.sort((a, b) => cmp(W, mons, b * W, mons, a * W));
    }
    if (this.keys.length < n) this.keys = new Float64Array(Math.max(n, 2 * this.keys.length));
    const keys = this.keys.subarray(0, n);
    for (let i = 0; i < n; i++) keys[i] = (mons[i * W] as number) * 2097152 + i;
    keys.sort();
    for (let i = 0; i < n; i++) order[i] = (keys[n - 1 - i] as number) % 2097152;
    if (W === 1) return order;
    // Runs of equal first words: sorted by the remaining words, decreasing (short runs by insertion).
    let runStart = 0;
    for (let i = 1; i <= n; i++) {
      if (i < n && mons[(order[i] as number) * W] === mons[(order[runStart] as number) * W]) continue;
      if (i - runStart > 16) order.subarray(runStart, i).sort((a, b) => cmp(W, mons, b * W, mons, a * W));
      else for (let a = runStart + 1; a < i; a++) {
        const id = order[a] as number;
        let b = a - 1;
        while (b >= runStart && cmp(W, mons, (order[b] as number) * W, mons, id * W) < 0) {
          order[b + 1] = order[b] as number;
          b--;
        }
        order[b + 1] = id;
      }
      runStart = i;
    }
    return order;
  }

  /** Over Q: the epoch of each coefficient (all 0), and the products of multipliers since each epoch (see Buchberger.numericIntegers). */
  epochsOf(n: number): Int32Array {
    if (this.epochs.length < n) this.epochs = new Int32Array(Math.max(n, 2 * this.epochs.length));
    this.epochs.fill(0, 0, n);
    return this.epochs;
  }

  readonly suffix: bigint[] = [];

  finishedOf(n: number): Int32Array {
    if (this.finished.length < n) this.finished = new Int32Array(Math.max(n, 2 * this.finished.length));
    return this.finished;
  }

  constructor(private readonly W: number) {
    this.q = new Int32Array(W);
  }
}

interface Poly<K> {
  mons: Int32Array;
  coefs: K[];
  len: number;
  sugar: number;
  /** Cofactor certificate: this polynomial equals Σ cof[j]·generators[j] (field polynomials). */
  cof: Polynomial<unknown>[] | null;
}

/** The state of one computation. */
class Engine<K, C> {
  readonly W: number;
  readonly stats: GroebnerStats = { pairs: 0, reductions: 0, zeroReductions: 0, steps: 0 };
  readonly scratch: Scratch<K>;
  readonly table: MonomialTable;
  private readonly tmp: Int32Array;
  private sinceCheckpoint = 0;

  constructor(
    readonly L: Layout,
    readonly D: Domain<K>,
    readonly ring: PolynomialRing<C>,
    readonly options: GroebnerOptions,
  ) {
    this.W = L.W;
    this.tmp = new Int32Array(L.W);
    this.scratch = new Scratch<K>(L.W);
    // Give the coefficient arrays their final elements kind now (bigints over Q), so the optimized
    // reduction loops do not deoptimize on the first transition (measured in fresh processes).
    this.scratch.acc.push(D.zero);
    this.scratch.acc.length = 0;
    if (D.fractionFree) {
      this.scratch.suffix.push(1n);
      this.scratch.suffix.length = 0;
    }
    this.table = new MonomialTable(L.W);
  }

  tick(): void {
    this.stats.steps++;
    if (++this.sinceCheckpoint >= CHECKPOINT_INTERVAL) {
      this.sinceCheckpoint = 0;
      this.options.checkpoint?.(this.stats);
    }
  }

  /** fp·p − fg·(q·g), one merge; terms that cancel are dropped. The hot loop: no allocation per term. */
  combine(p: Poly<K>, fp: K, g: Poly<K>, q: Int32Array, qDegree: number, fg: K, top = true): Poly<K> {
    const W = this.W;
    const D = this.D;
    if (D.modulus !== undefined && fp === 1 && p.cof === null) {
      const sugar = top ? Math.max(p.sugar, g.sugar + qDegree) : p.sugar;
      return combineResidues(W, D.modulus, p as Poly<number>, g as Poly<number>, q, fg as number, sugar) as Poly<K>;
    }
    const cap = p.len + g.len;
    const mons = new Int32Array(cap * W);
    const coefs: K[] = new Array<K>(cap);
    const pm = p.mons;
    const pc = p.coefs;
    const gm = g.mons;
    const gc = g.coefs;
    const t = this.tmp;
    const pOne = D.isOne(fp);
    const plen = p.len;
    const glen = g.len;
    let i = 0;
    let j = 0;
    let n = 0;
    // t holds the current term of q·g.
    if (glen > 0) for (let k = 0; k < W; k++) t[k] = (gm[k] as number) + (q[k] as number);
    while (i < plen && j < glen) {
      const ib = i * W;
      let c = 0;
      for (let k = 0; k < W; k++) {
        const d = (pm[ib + k] as number) - (t[k] as number);
        if (d !== 0) {
          c = d;
          break;
        }
      }
      const ob = n * W;
      if (c > 0) {
        for (let k = 0; k < W; k++) mons[ob + k] = pm[ib + k] as number;
        coefs[n++] = pOne ? (pc[i] as K) : D.scale(fp, pc[i] as K);
        i++;
        continue;
      }
      if (c < 0) {
        for (let k = 0; k < W; k++) mons[ob + k] = t[k] as number;
        coefs[n++] = D.negScale(fg, gc[j] as K);
      } else {
        const v = D.combo(fp, pc[i] as K, fg, gc[j] as K);
        if (!D.isZero(v)) {
          for (let k = 0; k < W; k++) mons[ob + k] = t[k] as number;
          coefs[n++] = v;
        }
        i++;
      }
      j++;
      if (j < glen) {
        const jb = j * W;
        for (let k = 0; k < W; k++) t[k] = (gm[jb + k] as number) + (q[k] as number);
      }
    }
    if (i < plen) {
      mons.set(pm.subarray(i * W, plen * W), n * W);
      for (; i < plen; i++) coefs[n++] = pOne ? (pc[i] as K) : D.scale(fp, pc[i] as K);
    }
    for (; j < glen; j++) {
      const jb = j * W;
      const ob = n * W;
      for (let k = 0; k < W; k++) mons[ob + k] = (gm[jb + k] as number) + (q[k] as number);
      coefs[n++] = D.negScale(fg, gc[j] as K);
    }
    coefs.length = n;
    // Sugar (Giovini et al.) follows top reductions only: reducing a lower term cannot raise the
    // degree of the homogenized computation beyond the leading term's.
    const sugar = top ? Math.max(p.sugar, g.sugar + qDegree) : p.sugar;
    return { mons, coefs, len: n, sugar, cof: p.cof && g.cof ? this.combineCofactors(p.cof, fp, g.cof, q, fg) : null };
  }

  /** The same combination on cofactor vectors, in the field. */
  private combineCofactors(a: Polynomial<unknown>[], fp: K, b: Polynomial<unknown>[], q: Int32Array, fg: K): Polynomial<unknown>[] {
    const R = this.ring as PolynomialRing<unknown>;
    // Cofactor runs use the unpacked layout, where a quotient decodes like a monomial.
    const m = decode(this.L, q, 0);
    const cp = this.toField(fp);
    const cg = this.toField(fg);
    return a.map((x, j) => R.sub(R.scale(x, cp), R.mulTerm(b[j] as Polynomial<unknown>, m, cg)));
  }

  /** A domain element as a field element (integers into Q, residues as they are). */
  toField(a: K): unknown {
    if (typeof a === 'bigint' && this.D.fractionFree) return { num: a, den: 1n } satisfies Rational;
    return a;
  }

  /** Normalize p in place (primitive or monic), dividing its cofactors by the same factor. */
  normalize(p: Poly<K>): void {
    const divisor = this.D.normalize(p.coefs, p.len);
    if (p.cof && !this.D.isOne(divisor)) {
      const R = this.ring as PolynomialRing<unknown>;
      const inverse = R.field.inv(this.toField(divisor));
      p.cof = p.cof.map((x) => R.scale(x, inverse));
    }
  }

  /** Engine polynomial from a shared polynomial (Q: cleared of denominators). */
  fromShared(p: Polynomial<C>, cof: Polynomial<unknown>[] | null): Poly<K> {
    const W = this.W;
    const mons = new Int32Array(p.length * W);
    const coefs: K[] = [];
    let sugar = 0;
    // Terms stay in the ring's order, which the encoding preserves.
    p.forEach((t: PolynomialTerm<C>, i) => {
      encode(this.L, t.monomial, mons, i * W);
      sugar = Math.max(sugar, degreeAt(this.L, mons, i * W));
    });
    let scaleCof: unknown = null;
    if (this.D.fractionFree) {
      let lcm = 1n;
      for (const t of p) {
        const d = (t.coefficient as Rational).den;
        lcm = (lcm / bigGcd(lcm, d)) * d;
      }
      for (const t of p) {
        const r = t.coefficient as Rational;
        coefs.push(((r.num * lcm) / r.den) as K);
      }
      if (lcm !== 1n) scaleCof = { num: lcm, den: 1n } satisfies Rational;
    } else {
      for (const t of p) coefs.push(t.coefficient as unknown as K);
    }
    const R = this.ring as PolynomialRing<unknown>;
    const poly: Poly<K> = { mons, coefs, len: p.length, sugar, cof: cof && scaleCof !== null ? cof.map((x) => R.scale(x, scaleCof)) : cof };
    this.normalize(poly);
    return poly;
  }

  /** A shared polynomial from an engine polynomial, made monic. */
  toShared(p: Poly<K>): Polynomial<C> {
    const F = this.ring.field;
    const terms: PolynomialTerm<C>[] = [];
    for (let i = 0; i < p.len; i++) terms.push({ monomial: decode(this.L, p.mons, i * this.W), coefficient: this.toField(p.coefs[i] as K) as C });
    if (terms.length === 0) return terms;
    const lc = (terms[0] as PolynomialTerm<C>).coefficient;
    if (F.isOne(lc)) return terms;
    const inverse = F.inv(lc);
    return terms.map((t) => ({ monomial: t.monomial, coefficient: F.mul(t.coefficient, inverse) }));
  }

  /** The monic cofactors of p (divided by p's leading coefficient as a field element). */
  monicCofactors(p: Poly<K>): Polynomial<C>[] {
    const R = this.ring as PolynomialRing<unknown>;
    const cof = p.cof ?? [];
    const lc = this.toField(p.coefs[0] as K);
    if (R.field.isOne(lc)) return cof as Polynomial<C>[];
    const inverse = R.field.inv(lc);
    return cof.map((x) => R.scale(x, inverse)) as Polynomial<C>[];
  }
}

// ---------------------------------------------------------------------------------------------
// Buchberger with Gebauer–Möller.

/** One selected pair of a recorded run and the leading monomial of its remainder (null: zero). */
interface TraceStep {
  readonly i: number;
  readonly j: number;
  readonly lead: Int32Array | null;
}

/** A replayed run left its trace: the modular image took another path than the rational run. */
class TraceMismatch extends Error {}

/** A run given a coefficient bound entered an element beyond it. */
class CoefficientGrowth extends Error {}

/** What {@link Buchberger.run} records, replays or watches; see there. */
interface RunTrace {
  readonly record?: TraceStep[];
  readonly replay?: readonly TraceStep[];
  /** Pairs already taken before this call (resuming). */
  readonly from?: number;
  /** Stop with {@link CoefficientGrowth} once an entered element has a coefficient this large (Q). */
  readonly coefficientBound?: bigint;
}

/** Two traces agree on their first `length` steps. */
function sameTrace(W: number, a: readonly TraceStep[], b: readonly TraceStep[], length: number): boolean {
  if (a.length < length || b.length < length) return false;
  for (let k = 0; k < length; k++) {
    const x = a[k] as TraceStep;
    const y = b[k] as TraceStep;
    if (x.i !== y.i || x.j !== y.j) return false;
    if (x.lead === null || y.lead === null ? x.lead !== y.lead : !sameWords(W, x.lead, 0, y.lead, 0)) return false;
  }
  return true;
}

interface Pair {
  readonly i: number;
  readonly j: number;
  readonly lcm: Int32Array;
  readonly sugar: number;
}

class Buchberger<K, C> {
  /** Every polynomial ever added; `active[i]` says whether it is still in G. */
  readonly polys: Poly<K>[] = [];
  readonly masks: number[] = [];
  readonly active: boolean[] = [];
  pairs: Pair[] = [];
  /** The indices i with active[i], increasing: reducer searches read only these. */
  private activeList: number[] = [];
  /** See {@link cachedReducer}. */
  private memo: MonomialTable | null = null;
  private memoReducer: Int32Array = new Int32Array(256);

  constructor(readonly E: Engine<K, C>) {}

  private refreshActiveList(): void {
    this.memo?.clear();
    this.activeList = [];
    for (let i = 0; i < this.active.length; i++) if (this.active[i]) this.activeList.push(i);
  }

  private get L(): Layout {
    return this.E.L;
  }

  /** Index of the best active reducer of the monomial at (words, at): the shortest whose lead divides it. */
  findReducer(words: Int32Array, at: number, exclude = -1): number {
    const L = this.L;
    const mask = maskAt(L, words, at);
    let best = -1;
    let bestLen = Infinity;
    const list = this.activeList;
    for (let a = 0; a < list.length; a++) {
      const r = list[a] as number;
      if (r === exclude) continue;
      if ((this.masks[r] as number) & ~mask) continue;
      const g = this.polys[r] as Poly<K>;
      if (g.len < bestLen && divides(L, g.mons, 0, words, at)) {
        best = r;
        bestLen = g.len;
      }
    }
    return best;
  }

  /**
   * {@link findReducer} through a cache of the answers for the current active basis, cleared
   * whenever it changes: successive reductions between two new basis elements meet many of the
   * same monomials (cyclic-6 over GF(p): the search was 14% of the time).
   */
  private cachedReducer(words: Int32Array, at: number, exclude: number): number {
    if (exclude >= 0) return this.findReducer(words, at, exclude);
    this.memo ??= new MonomialTable(this.E.W);
    const before = this.memo.size;
    const id = this.memo.intern(words, at, null);
    if (id < before) return this.memoReducer[id] as number;
    if (id >= this.memoReducer.length) {
      const grown = new Int32Array(2 * this.memoReducer.length);
      grown.set(this.memoReducer);
      this.memoReducer = grown;
    }
    const r = this.findReducer(words, at);
    this.memoReducer[id] = r;
    return r;
  }

  /**
   * Reduce p modulo the active basis: its leading term until irreducible, then (optionally) its
   * tail. The first `first` terms are kept as they are (interreduction reduces tails only).
   */
  reduce(p: Poly<K>, tail: boolean, exclude = -1, first = 0): Poly<K> {
    if (p.cof !== null) return this.reduceWithCofactors(p, tail, exclude, first);
    return this.reduceDense(p, tail, exclude, first);
  }

  /**
   * {@link reduce} without cofactors, by symbolic preprocessing as in F4: first the set of every
   * monomial the reduction can reach (p's, and those of the reducer multiple of each member that
   * has a reducer), numbered through a hash table; then the coefficients live in an array indexed
   * by those numbers, and the members are visited in decreasing order: a non-zero one with a
   * reducer subtracts the reducer's multiple (one update per reducer term; nothing else is copied
   * or compared, where a merge would copy the whole remainder at every step), one without is a
   * finished term (with `tail` false, the first such ends the reduction). The reducer of a
   * monomial depends only on the monomial, so the steps are exactly those of reducing term by
   * term; monomials that cancel on the way only cost their place in the table (measured: the
   * members with a reducer are about as many as the steps taken, on katsura-6 and cyclic-6).
   *
   * Over Q the content is taken out in full at the end, and on the way only the part that the
   * multipliers fp brought in, once their product passes FACTOR_LIMIT. The result is the same
   * primitive polynomial as with the content removed at every step: the reduction path depends
   * only on which terms are non-zero, and the multiples of p along it differ by units of Q.
   */
  private reduceDense(p: Poly<K>, tail: boolean, exclude: number, first: number): Poly<K> {
    const E = this.E;
    const W = E.W;
    const S = E.scratch;
    this.symbolicPreprocessing(p, exclude, first);
    const N = E.table.size;
    const tm = E.table.mons;
    const order = S.decreasing(tm, N);
    const acc = S.acc;
    for (let id = 0; id < N; id++) acc[id] = id < p.len ? (p.coefs[id] as K) : E.D.zero;
    const done = E.D.fractionFree ? this.numericIntegers(order, N, tail, first, p.sugar) : this.numericField(order, N, tail, first, p.sugar);
    const nf = done.finished;
    const fin = S.finishedOf(N);
    const mons = new Int32Array(nf * W);
    const coefs = new Array<K>(nf);
    for (let k = 0; k < nf; k++) {
      const id = fin[k] as number;
      for (let w = 0; w < W; w++) mons[k * W + w] = tm[id * W + w] as number;
      coefs[k] = acc[id] as K;
    }
    const result: Poly<K> = { mons, coefs, len: nf, sugar: done.sugar, cof: null };
    E.normalize(result);
    return result;
  }

  /**
   * The first phase of {@link reduceDense}: E.table holds p's monomials (numbered 0, 1, … in p's
   * order) and every monomial the reduction can reach; S.reducer[id] is the reducer of member id
   * (−1: none, or one of p's first `first` terms), and its multiple's terms after the lead are the
   * members S.targets[S.start[id] + j − 1], j = 1 … length − 1.
   */
  private symbolicPreprocessing(p: Poly<K>, exclude: number, first: number): void {
    const E = this.E;
    const W = E.W;
    const S = E.scratch;
    const T = E.table;
    T.clear();
    for (let t = 0; t < p.len; t++) T.intern(p.mons, t * W, null);
    const q = S.q;
    let reducer = S.reducer;
    let start = S.start;
    let targets = S.targets;
    let nTargets = 0;
    for (let id = 0; id < T.size; id++) {
      if (id >= reducer.length) {
        reducer = S.growRows(id + 1).reducer;
        start = S.start;
      }
      const r = id < first ? -1 : this.cachedReducer(T.mons, id * W, exclude);
      reducer[id] = r;
      start[id] = nTargets;
      if (r < 0) continue;
      const g = this.polys[r] as Poly<K>;
      const mons = T.mons;
      for (let k = 0; k < W; k++) q[k] = (mons[id * W + k] as number) - (g.mons[k] as number);
      if (nTargets + g.len > targets.length) targets = S.growTargets(nTargets + g.len);
      for (let j = 1; j < g.len; j++) targets[nTargets++] = T.intern(g.mons, j * W, q);
    }
  }

  /** The numeric phase of {@link reduceDense} over a field (multipliers fp are 1), on S.acc: returns the number of finished terms and the sugar. */
  private numericField(order: Int32Array, N: number, tail: boolean, first: number, sugar: number): { finished: number; sugar: number } {
    const E = this.E;
    const W = E.W;
    const D = E.D;
    const L = this.L;
    const S = E.scratch;
    const tm = E.table.mons;
    const acc = S.acc;
    const fin = S.finishedOf(N);
    const reducer = S.reducer;
    const start = S.start;
    const targets = S.targets;
    const modulus = D.modulus;
    let nf = 0;
    for (let o = 0; o < N; o++) {
      const id = order[o] as number;
      const c = acc[id] as K;
      if (D.isZero(c)) continue;
      const r = reducer[id] as number;
      if (r < 0) {
        fin[nf++] = id;
        if (tail) continue;
        // Leading terms only: the rest stays as it is.
        for (let o2 = o + 1; o2 < N; o2++) if (!D.isZero(acc[order[o2] as number] as K)) fin[nf++] = order[o2] as number;
        break;
      }
      const g = this.polys[r] as Poly<K>;
      const [fp, fg] = D.multipliers(c, g.coefs[0] as K);
      if (nf === 0 || first > 0) sugar = Math.max(sugar, g.sugar + degreeAt(L, tm, id * W) - degreeAt(L, g.mons, 0));
      if (!D.isOne(fp)) {
        for (let k = 0; k < nf; k++) acc[fin[k] as number] = D.scale(fp, acc[fin[k] as number] as K);
        for (let o2 = o + 1; o2 < N; o2++) {
          const x = acc[order[o2] as number] as K;
          if (!D.isZero(x)) acc[order[o2] as number] = D.scale(fp, x);
        }
      }
      acc[id] = D.zero;
      const at = start[id] as number;
      const gc = g.coefs;
      const glen = g.len;
      if (modulus !== undefined && (fp as number) === 1) {
        const a = acc as number[];
        const neg = (fg as number) === 0 ? 0 : modulus - (fg as number);
        for (let j = 1; j < glen; j++) {
          const t = targets[at + j - 1] as number;
          let v = (a[t] as number) + ((neg * (gc[j] as number)) % modulus);
          if (v >= modulus) v -= modulus;
          a[t] = v;
        }
      } else {
        for (let j = 1; j < glen; j++) {
          const t = targets[at + j - 1] as number;
          acc[t] = D.combo(D.one, acc[t] as K, fg, gc[j] as K);
        }
      }
      E.tick();
    }
    return { finished: nf, sugar };
  }

  /**
   * The numeric phase of {@link reduceDense} over Q, on S.acc and S.finishedOf(N): returns the
   * number of finished terms and the sugar. A multiplier fp > 1 scales the whole remainder; rather
   * than multiplying every coefficient at once, it is recorded (an epoch) and each coefficient is
   * brought up to date when it is next touched, by the product of the multipliers since its own
   * epoch (suffix[e] = product of the multipliers of epochs e, e + 1, …): one multiplication per
   * coefficient however many multipliers passed (on katsura-5, 23,000 instead of 37,000).
   */
  private numericIntegers(order: Int32Array, N: number, tail: boolean, first: number, sugar: number): { finished: number; sugar: number } {
    const E = this.E;
    const reducer = E.scratch.reducer;
    const start = E.scratch.start;
    const targets = E.scratch.targets;
    const S = E.scratch as unknown as Scratch<bigint>;
    const L = this.L;
    const W = E.W;
    const D = E.D as unknown as Domain<bigint>;
    const tm = E.table.mons;
    const a = S.acc;
    const fin = S.finishedOf(N);
    const epoch = S.epochsOf(N);
    const suffix = S.suffix;
    suffix.length = 0;
    let epochs = 0;
    let nf = 0;
    let factor = 1n;
    for (let o = 0; o < N; o++) {
      const id = order[o] as number;
      let c = a[id] as bigint;
      if (c === 0n) continue;
      if (epoch[id] !== epochs) {
        c *= suffix[epoch[id] as number] as bigint;
        a[id] = c;
        epoch[id] = epochs;
      }
      const r = reducer[id] as number;
      if (r < 0) {
        fin[nf++] = id;
        if (tail) continue;
        // Leading terms only: the rest stays as it is.
        for (let o2 = o + 1; o2 < N; o2++) if ((a[order[o2] as number] as bigint) !== 0n) fin[nf++] = order[o2] as number;
        break;
      }
      const g = this.polys[r] as unknown as Poly<bigint>;
      const [fp, fg] = D.multipliers(c, g.coefs[0] as bigint);
      if (nf === 0 || first > 0) sugar = Math.max(sugar, g.sugar + degreeAt(L, tm, id * W) - degreeAt(L, g.mons, 0));
      if (fp !== 1n) {
        for (let e = 0; e < epochs; e++) suffix[e] = (suffix[e] as bigint) * fp;
        suffix[epochs++] = fp;
        factor *= fp;
      }
      a[id] = 0n;
      const at = start[id] as number;
      const gc = g.coefs;
      const glen = g.len;
      const negFg = -fg;
      for (let j = 1; j < glen; j++) {
        const t = targets[at + j - 1] as number;
        const y = gc[j] as bigint;
        let x = a[t] as bigint;
        if (epoch[t] !== epochs) {
          if (x !== 0n) x *= suffix[epoch[t] as number] as bigint;
          epoch[t] = epochs;
        }
        a[t] = x + (y === 1n ? negFg : negFg * y);
      }
      E.tick();
      if (factor > FACTOR_LIMIT) {
        // Bring everything up to date, take out the content the multipliers brought, start the epochs over.
        let g0 = factor;
        for (let k = 0; k < N; k++) {
          const x = a[k] as bigint;
          if (x !== 0n && epoch[k] !== epochs) a[k] = x * (suffix[epoch[k] as number] as bigint);
          epoch[k] = 0;
        }
        for (let k = 0; k < N && g0 !== 1n; k++) {
          const x = a[k] as bigint;
          if (x === 0n) continue;
          const rem = x % g0;
          if (rem !== 0n) g0 = lehmerGcd(g0, rem);
        }
        if (g0 !== 1n) for (let k = 0; k < N; k++) a[k] = (a[k] as bigint) / g0;
        epochs = 0;
        suffix.length = 0;
        factor = 1n;
      }
    }
    for (let k = 0; k < nf; k++) {
      const id = fin[k] as number;
      if (epoch[id] !== epochs) a[id] = (a[id] as bigint) * (suffix[epoch[id] as number] as bigint);
    }
    return { finished: nf, sugar };
  }

  /** {@link reduce} with cofactors: one merge of the whole polynomial per step, cofactors alongside. */
  private reduceWithCofactors(p: Poly<K>, tail: boolean, exclude: number, first: number): Poly<K> {
    const E = this.E;
    const W = E.W;
    let i = first;
    let steps = 0;
    while (i < p.len) {
      const r = this.findReducer(p.mons, i * W, exclude);
      if (r < 0) {
        if (!tail) break;
        i++;
        continue;
      }
      const g = this.polys[r] as Poly<K>;
      const [fp, fg] = E.D.multipliers(p.coefs[i] as K, g.coefs[0] as K);
      const q = quotientOf(this.L, p.mons, i * W, g.mons, 0);
      p = E.combine(p, fp, g, q, degreeAt(this.L, p.mons, i * W) - degreeAt(this.L, g.mons, 0), fg, i === 0 || first > 0);
      E.tick();
      if (E.D.fractionFree && ++steps % 8 === 0) E.normalize(p);
    }
    E.normalize(p);
    return p;
  }

  /** The S-polynomial of pair (i, j). */
  sPolynomial(pair: Pair): Poly<K> {
    const f = this.polys[pair.i] as Poly<K>;
    const g = this.polys[pair.j] as Poly<K>;
    const qf = quotientOf(this.L, pair.lcm, 0, f.mons, 0);
    const qg = quotientOf(this.L, pair.lcm, 0, g.mons, 0);
    const [a, b] = this.E.D.multipliers(f.coefs[0] as K, g.coefs[0] as K);
    // a·lc(f) = b·lc(g): a·qf·f − b·qg·g cancels the lcm term.
    return this.multiplyThenCombine(f, qf, a, g, qg, b, degreeAt(this.L, pair.lcm, 0));
  }

  /** a·qf·f − b·qg·g, by shifting f then one merge; lcmDegree = deg(qf·lead(f)) = deg(qg·lead(g)). */
  private multiplyThenCombine(f: Poly<K>, qf: Int32Array, a: K, g: Poly<K>, qg: Int32Array, b: K, lcmDegree: number): Poly<K> {
    const E = this.E;
    const W = E.W;
    const mons = new Int32Array(f.len * W);
    for (let t = 0; t < f.len; t++) for (let k = 0; k < W; k++) mons[t * W + k] = (f.mons[t * W + k] as number) + (qf[k] as number);
    const coefs = f.coefs.slice(0, f.len);
    let cof: Polynomial<unknown>[] | null = null;
    if (f.cof) {
      // Cofactor runs use the unpacked layout, where a quotient decodes like a monomial.
      const R = E.ring as PolynomialRing<unknown>;
      const m = decode(this.L, qf, 0);
      cof = f.cof.map((x) => R.mulTerm(x, m, R.field.one));
    }
    const shifted: Poly<K> = { mons, coefs, len: f.len, sugar: f.sugar + lcmDegree - degreeAt(this.L, f.mons, 0), cof };
    return E.combine(shifted, a, g, qg, lcmDegree - degreeAt(this.L, g.mons, 0), b);
  }

  /** Gebauer–Möller UPDATE: add h to the basis, form its pairs, prune old and new pairs. */
  update(h: Poly<K>): void {
    const L = this.L;
    const W = L.W;
    const hi = this.polys.length;
    this.polys.push(h);
    this.masks.push(maskAt(L, h.mons, 0));
    this.active.push(true);

    // New pairs (g, h) for active g, with their lcm.
    interface Candidate {
      g: number;
      lcm: Int32Array;
      coprime: boolean;
      sugar: number;
      keep: boolean;
    }
    const C: Candidate[] = [];
    for (let g = 0; g < hi; g++) {
      if (!this.active[g]) continue;
      const p = this.polys[g] as Poly<K>;
      const lcm = lcmOf(L, p.mons, 0, h.mons, 0);
      const lcmDeg = degreeAt(L, lcm, 0);
      const sugar = Math.max(p.sugar + lcmDeg - degreeAt(L, p.mons, 0), h.sugar + lcmDeg - degreeAt(L, h.mons, 0));
      C.push({ g, lcm, coprime: coprime(L, p.mons, 0, h.mons, 0), sugar, keep: true });
    }
    // M and F criteria (Becker–Weispfenning's UPDATE, first loop): (g1, h) is dropped when another
    // pair (g2, h) has an lcm dividing its lcm, unless g1's lead is coprime to h's. Among pairs with
    // equal lcms exactly one survives (the later ones are checked against the kept earlier ones).
    const D: Candidate[] = [];
    for (let a = 0; a < C.length; a++) {
      const c1 = C[a] as Candidate;
      let dominated = false;
      if (!c1.coprime) {
        for (let b = a + 1; b < C.length && !dominated; b++) {
          const c2 = C[b] as Candidate;
          if (divides(L, c2.lcm, 0, c1.lcm, 0)) dominated = true;
        }
        for (let b = 0; b < D.length && !dominated; b++) {
          const c2 = D[b] as Candidate;
          if (divides(L, c2.lcm, 0, c1.lcm, 0)) dominated = true;
        }
      }
      if (!dominated) D.push(c1);
    }
    // Product criterion: pairs with coprime leading monomials reduce to zero (Buchberger's first criterion).
    const E = D.filter((c) => !c.coprime);
    // B criterion: an old pair (g1, g2) goes when h's lead divides its lcm strictly w.r.t. both new lcms.
    const kept: Pair[] = [];
    for (const pair of this.pairs) {
      if (divides(L, h.mons, 0, pair.lcm, 0)) {
        const a = this.polys[pair.i] as Poly<K>;
        const b = this.polys[pair.j] as Poly<K>;
        const la = lcmOf(L, a.mons, 0, h.mons, 0);
        const lb = lcmOf(L, b.mons, 0, h.mons, 0);
        if (!sameWords(W, la, 0, pair.lcm, 0) && !sameWords(W, lb, 0, pair.lcm, 0)) continue;
      }
      kept.push(pair);
    }
    for (const c of E) kept.push({ i: c.g, j: hi, lcm: c.lcm, sugar: c.sugar });
    this.E.stats.pairs += E.length;
    this.pairs = kept;
    // Elements whose lead h's lead divides leave G (their pairs stay in B).
    for (let g = 0; g < hi; g++) if (this.active[g] && divides(L, h.mons, 0, (this.polys[g] as Poly<K>).mons, 0)) this.active[g] = false;
    this.refreshActiveList();
  }

  /** Remove and return the pair of least sugar, ties broken by least lcm, then by age. */
  selectPair(): Pair {
    const W = this.E.W;
    let best = 0;
    for (let k = 1; k < this.pairs.length; k++) {
      const a = this.pairs[k] as Pair;
      const b = this.pairs[best] as Pair;
      if (a.sugar < b.sugar || (a.sugar === b.sugar && cmp(W, a.lcm, 0, b.lcm, 0) < 0)) best = k;
    }
    const pair = this.pairs[best] as Pair;
    this.pairs[best] = this.pairs[this.pairs.length - 1] as Pair;
    this.pairs.pop();
    return pair;
  }

  /**
   * Buchberger's loop. With `trace.record`, every selected pair is written down with the leading
   * monomial its remainder had (null: it reduced to zero). With `trace.replay`, the pairs must come
   * in the recorded order; those recorded as zero are skipped, and the others must give remainders
   * with the recorded leading monomials, else {@link TraceMismatch} is thrown. Skipping is only a
   * guess, which {@link verifyReducedBasis} checks afterwards.
   */
  run(generators: Poly<K>[], trace: RunTrace = {}): void {
    for (const f of generators) {
      if (f.len === 0) continue;
      this.update(f);
    }
    this.continueRun(trace);
  }

  /**
   * The loop of {@link run} on the current state; `trace.from` pairs were already taken (a run
   * stopped by its coefficient bound resumes as the replay of a trace). A run stopped by the bound
   * has entered its last remainder, so the state is whole.
   */
  continueRun(trace: RunTrace): void {
    const tail = this.E.options.tailReduce ?? true;
    const W = this.E.W;
    const { record, replay, coefficientBound } = trace;
    let step = trace.from ?? 0;
    while (this.pairs.length > 0) {
      const pair = this.selectPair();
      let expected: TraceStep | undefined;
      if (replay) {
        expected = replay[step++];
        if (expected?.i !== pair.i || expected.j !== pair.j) throw new TraceMismatch();
        if (expected.lead === null) continue;
      }
      const s = this.sPolynomial(pair);
      this.E.stats.reductions++;
      const h = this.reduce(s, tail);
      record?.push({ i: pair.i, j: pair.j, lead: h.len === 0 ? null : h.mons.slice(0, W) });
      if (expected && (h.len === 0 || !sameWords(W, h.mons, 0, expected.lead as Int32Array, 0))) throw new TraceMismatch();
      if (h.len === 0) {
        this.E.stats.zeroReductions++;
        continue;
      }
      let grown = false;
      if (coefficientBound !== undefined) {
        for (let k = 0; k < h.len && !grown; k++) {
          const c = h.coefs[k] as bigint;
          grown = c >= coefficientBound || -c >= coefficientBound;
        }
      }
      // As Singular does when it enters a new element (initEcart), its sugar becomes its actual
      // degree: measured on cyclic-6, the accumulated sugar of degree-dropping remainders
      // otherwise climbs far above the degrees of the computation and delays useful pairs.
      let degree = 0;
      for (let k = 0; k < h.len; k++) degree = Math.max(degree, degreeAt(this.L, h.mons, k * this.E.W));
      h.sugar = degree;
      this.update(h);
      if (grown) throw new CoefficientGrowth();
    }
    if (replay && step !== replay.length) throw new TraceMismatch();
  }

  /**
   * True if `basis` (interreduced: no lead divides another, tails reduced) is a Groebner basis of
   * an ideal containing every generator: each generator reduces to zero by it, and so does the
   * S-polynomial of every pair the Gebauer–Möller criteria keep (Buchberger's criterion). Leading
   * terms are reduced only: a remainder is zero exactly when its leading term reduces away.
   */
  verifyReducedBasis(basis: Poly<K>[], generators: readonly Poly<K>[]): boolean {
    for (const g of basis) this.update(g);
    const E = this.E;
    for (const pair of this.pairs) {
      E.stats.reductions++;
      if (this.reduce(this.sPolynomial(pair), false).len !== 0) return false;
      E.stats.zeroReductions++;
    }
    this.pairs = [];
    for (const f of generators) {
      const copy: Poly<K> = { mons: f.mons, coefs: f.coefs.slice(0, f.len), len: f.len, sugar: f.sugar, cof: null };
      if (this.reduce(copy, false).len !== 0) return false;
    }
    return true;
  }

  /**
   * From the active basis (a Groebner basis) to the reduced one: drop elements whose lead another
   * lead divides, reduce every tail fully by the others, make monic, sort by increasing lead.
   */
  interreduce(): Poly<K>[] {
    const L = this.L;
    const W = L.W;
    let indices = this.polys.map((_, i) => i).filter((i) => this.active[i]);
    // Minimal basis: a lead divisible by another lead is redundant (for equal leads keep the first).
    indices = indices.filter((i) => {
      const a = this.polys[i] as Poly<K>;
      return !indices.some((j) => {
        if (j === i) return false;
        const b = this.polys[j] as Poly<K>;
        if (!divides(L, b.mons, 0, a.mons, 0)) return false;
        return !sameWords(W, a.mons, 0, b.mons, 0) || j < i;
      });
    });
    const keep = new Set(indices);
    for (let i = 0; i < this.active.length; i++) this.active[i] = keep.has(i);
    this.refreshActiveList();
    // Reduce each tail by the others; leads are untouched, so the set of leads stays the same and
    // each element can be replaced in place.
    for (const i of indices) {
      const p = this.polys[i] as Poly<K>;
      this.polys[i] = this.reduceTailOnly(p, i);
    }
    return indices.map((i) => this.polys[i] as Poly<K>).sort((a, b) => cmp(W, a.mons, 0, b.mons, 0));
  }

  private reduceTailOnly(p: Poly<K>, self: number): Poly<K> {
    return this.reduce(p, true, self, 1);
  }
}

function domainOf(field: Field<unknown>): Domain<unknown> {
  if (field.kind === 'Q') return integerDomain;
  const p = field.characteristic;
  return p < 1n << 26n ? smallPrimeDomain(Number(p)) : bigPrimeDomain(p);
}

/**
 * The reduced Groebner basis of the ideal the generators span, for the ring's monomial order.
 * The zero ideal has the empty basis; an ideal containing a non-zero constant has basis [1].
 *
 * @example
 * const R = resolveRing({ field: { kind: 'Q' }, variables: ['x', 'y'], order: 'grevlex' });
 * groebnerBasis(R, parsePolynomials(R, ['x^2 - y', 'x*y - 1'])).basis.map((p) => printPolynomial(R, p));
 */
export function groebnerBasis<C>(ring: PolynomialRing<C>, generators: readonly Polynomial<C>[], options: GroebnerOptions = {}): GroebnerResult<C> {
  if (ring.arity === 0) throw new JacobianError('INVALID_REQUEST', 'a Groebner basis needs at least one variable', { path: ['ring', 'variables'] });
  // Residue products must stay exact in doubles; a composite modulus only makes the trace useless (the check still holds).
  const prime = options.tracePrime;
  if (prime !== undefined && !(Number.isInteger(prime) && prime % 2 === 1 && prime > 2 && prime < 1 << 26)) throw new RangeError(`tracePrime: an odd prime in 3..2^26 − 1, not ${prime}`);
  // Graded orders without cofactors run on packed monomials (fewer words to copy and compare per
  // term); a monomial of degree beyond the packed fields sends the whole computation to the
  // unpacked layout, from the start.
  if (options.cofactors !== true && ring.order !== MonomialOrder.LEX) {
    try {
      return computeBasis(ring, generators, options, layoutOf(ring.order, ring.arity, true));
    } catch (error) {
      if (!(error instanceof PackedOverflow)) throw error;
    }
  }
  return computeBasis(ring, generators, options, layoutOf(ring.order, ring.arity));
}

/** {@link groebnerBasis} on one monomial layout. */
function computeBasis<C>(ring: PolynomialRing<C>, generators: readonly Polynomial<C>[], options: GroebnerOptions, layout: Layout): GroebnerResult<C> {
  const D = domainOf(ring.field);
  const engine = new Engine<unknown, C>(layout, D, ring, options);
  const R = ring as PolynomialRing<unknown>;
  const inputs = generators.map((g, j) => engine.fromShared(g, options.cofactors === true ? generators.map((_, k) => (k === j ? R.one() : R.zero())) : null));
  const mode = D.fractionFree && options.cofactors !== true ? (options.modularTrace ?? 'auto') : 'never';
  let trace: ModularTrace | undefined;
  let reduced: Poly<unknown>[] | undefined;
  let started: { run: Buchberger<bigint, C>; record: TraceStep[] } | undefined;
  if (mode === 'auto') {
    // The plain run, stopped as soon as an element's coefficients grow large; the trace then
    // resumes it rather than starting over.
    const run = new Buchberger(engine);
    const record: TraceStep[] = [];
    try {
      run.run(inputs, { record, coefficientBound: 1n << BigInt(TRACE_COEFFICIENT_BITS) });
      reduced = run.interreduce();
    } catch (error) {
      if (!(error instanceof CoefficientGrowth)) throw error;
      started = { run: run as Buchberger<bigint, C>, record };
    }
  }
  if (reduced === undefined && mode !== 'never') {
    const traced = tracedBasis(engine as Engine<bigint, C>, inputs as Poly<bigint>[], options.tracePrime ?? TRACE_PRIME, started);
    trace = traced.trace;
    if (traced.basis !== null) return { basis: traced.basis.map((p) => engine.toShared(p)), stats: engine.stats, trace };
  }
  if (reduced === undefined) {
    const buchberger = new Buchberger(engine);
    buchberger.run(inputs);
    reduced = buchberger.interreduce();
  }
  const basis = reduced.map((p) => engine.toShared(p));
  return {
    basis,
    ...(options.cofactors === true ? { cofactors: reduced.map((p) => engine.monicCofactors(p)) } : {}),
    stats: engine.stats,
    ...(trace === undefined ? {} : { trace }),
  };
}

/**
 * Coefficient size (bits) at which `modularTrace: 'auto'` leaves the plain run for the trace.
 * Measured (grevlex and grlex over Q): cyclic-5, katsura-5, katsura-6 stay below 160 bits and are
 * fastest plain; cyclic-6 passes 256 bits after 27 ms of a plain run that then takes 8 s.
 */
export const TRACE_COEFFICIENT_BITS = 256;

/** The largest prime below 2^26: residues stay numbers, and a random coefficient vanishes modulo it with probability 1.5·10^-8. */
export const TRACE_PRIME = 67108859;

/**
 * Over Q: run Buchberger modulo a prime first and record which pairs reduce to zero, then run it
 * over Q reducing only the others (most of the time over Q goes into pairs that reduce to zero,
 * through intermediate elements with large coefficients), interreduce, and certify the result
 * exactly over Q with {@link Buchberger.verifyReducedBasis}. The elements are ideal elements by
 * construction (S-polynomials and remainders of ideal elements, computed over Q), so a certified
 * result is the reduced basis, whatever the prime did. Null basis: the prime's image went another
 * way, or the candidate failed the check; the caller then runs the full algorithm. `started`: a
 * plain run over Q stopped by its coefficient bound, with its own record; when the modular record
 * begins the same way, that run continues as the replay.
 */
function tracedBasis<C>(
  engine: Engine<bigint, C>,
  inputs: Poly<bigint>[],
  prime: number,
  started?: { run: Buchberger<bigint, C>; record: readonly TraceStep[] },
): { basis: Poly<bigint>[] | null; trace: ModularTrace } {
  const modular = new Engine<number, C>(engine.L, smallPrimeDomain(prime), engine.ring, { ...(engine.options.checkpoint ? { checkpoint: engine.options.checkpoint } : {}), tailReduce: engine.options.tailReduce ?? true });
  const P = BigInt(prime);
  const images: Poly<number>[] = [];
  for (const f of inputs) {
    // A leading coefficient divisible by p would change the leading monomial: the prime is unlucky.
    if (f.len > 0 && (f.coefs[0] as bigint) % P === 0n) return { basis: null, trace: { prime, pairs: 0, skipped: 0, outcome: 'unlucky-prime' } };
    images.push(imageModulo(modular, f, P));
  }
  const record: TraceStep[] = [];
  new Buchberger(modular).run(images, { record });
  const skipped = record.filter((step) => step.lead === null).length;
  const rational = started?.run ?? new Buchberger(engine);
  try {
    if (started === undefined) rational.run(inputs, { replay: record });
    else if (sameTrace(engine.W, started.record, record, started.record.length)) rational.continueRun({ replay: record, from: started.record.length });
    else throw new TraceMismatch();
  } catch (error) {
    if (error instanceof TraceMismatch) return { basis: null, trace: { prime, pairs: record.length, skipped, outcome: 'mismatch' } };
    throw error;
  }
  const candidate = rational.interreduce();
  const certified = new Buchberger(engine).verifyReducedBasis(candidate, inputs);
  return { basis: certified ? candidate : null, trace: { prime, pairs: record.length, skipped, outcome: certified ? 'certified' : 'rejected' } };
}

/** The image of an integer polynomial modulo p (< 2^26), made monic; terms that vanish are dropped. */
function imageModulo<C>(E: Engine<number, C>, f: Poly<bigint>, P: bigint): Poly<number> {
  const W = E.W;
  const mons = new Int32Array(f.len * W);
  const coefs: number[] = [];
  for (let t = 0; t < f.len; t++) {
    let r = (f.coefs[t] as bigint) % P;
    if (r === 0n) continue;
    if (r < 0n) r += P;
    mons.set(f.mons.subarray(t * W, (t + 1) * W), coefs.length * W);
    coefs.push(Number(r));
  }
  const image: Poly<number> = { mons, coefs, len: coefs.length, sugar: f.sugar, cof: null };
  E.normalize(image);
  return image;
}
