// Seeded random matrices and helpers shared by the matrix tests that compare our engine with
// PARI/GP (pari-backend.test.ts, pari-agreement.test.ts, lattice-pari.test.ts), and the textbook LLL
// test (lattice-engine.test.ts, lattice-pari.test.ts). Test support only: never imported by
// product code (and, not being a *.test.ts file, never run as a test itself).
import { parseExplicitMatrix, RATIONALS, type MatrixPayload, type MatrixRing, type Rational } from '@jacobian/shared';
import type { Delta } from './lattice-engine.js';
import { hermiteNormalForm } from './normal-form-engine.js';

const Q = RATIONALS;

/** Bounds for one gp run in a test: a minute, 16 MiB of output, 1 GiB of memory. */
export const gpOptions = (): { deadline: number; maxOutputBytes: number; memoryMb: number } => ({ deadline: Date.now() + 60_000, maxOutputBytes: 1 << 24, memoryMb: 1024 });

/** A small deterministic generator (mulberry32), so a failure names a reproducible case. */
export function generator(seed: number): (bound: bigint) => bigint {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (bound) => {
    // Uniform enough for tests: 4 × 32 bits, reduced into [-bound, bound].
    let x = 0n;
    for (let k = 0; k < 4; k++) x = (x << 32n) | BigInt(Math.floor(next() * 4294967296));
    return (x % (2n * bound + 1n)) - bound;
  };
}

/** A validated canonical matrix payload. */
export function matrix(ring: MatrixRing, rows: (string | number)[][]): MatrixPayload {
  return parseExplicitMatrix({ ring, rows }, ['matrix']);
}

/** A random m×n matrix of the given rank (product of random m×r and r×n), entries up to `bound`. */
export function randomMatrix(random: (bound: bigint) => bigint, m: number, n: number, bound: bigint, rank = Math.min(m, n)): bigint[][] {
  if (rank === Math.min(m, n)) return Array.from({ length: m }, () => Array.from({ length: n }, () => random(bound)));
  const L = Array.from({ length: m }, () => Array.from({ length: rank }, () => random(bound)));
  const R = Array.from({ length: rank }, () => Array.from({ length: n }, () => random(bound)));
  return L.map((row) => R[0]?.map((_, j) => row.reduce((s, x, k) => s + x * ((R[k] as bigint[])[j] as bigint), 0n)) ?? []);
}

export const asText = (M: bigint[][]): string[][] => M.map((row) => row.map((x) => x.toString()));

/** One random integer matrix per [m, n, bound, rank], in turn from `random`, named by its shape, rank and entry bound. */
export function randomIntegerCases(random: (bound: bigint) => bigint, specs: readonly (readonly [number, number, bigint, number])[]): { name: string; matrix: MatrixPayload }[] {
  return specs.map(([m, n, bound, rank]) => ({ name: `Z ${m}×${n} rank ≤ ${rank}, entries ±${bound > 1n << 20n ? `2^${bound.toString(2).length - 1}` : bound}`, matrix: matrix({ kind: 'Z' }, asText(randomMatrix(random, m, n, bound, rank))) }));
}

/** Rational Gram–Schmidt of independent rows: B_i = |b_i*|² and μ_{i,j} (the textbook definition, not the integral recursion). */
function gramSchmidt(rows: readonly (readonly bigint[])[]): { B: Rational[]; mu: Rational[][] } {
  const star: Rational[][] = [];
  const B: Rational[] = [];
  const mu: Rational[][] = [];
  const dotQ = (u: readonly Rational[], v: readonly Rational[]): Rational => u.reduce((s, x, i) => Q.add(s, Q.mul(x, v[i] as Rational)), Q.zero);
  for (const [i, row] of rows.entries()) {
    const b = row.map((x) => Q.fromBigInt(x));
    let v = [...b];
    mu[i] = [];
    for (let j = 0; j < i; j++) {
      const m = Q.div(dotQ(b, star[j] as Rational[]), B[j] as Rational);
      (mu[i])[j] = m;
      v = v.map((x, c) => Q.sub(x, Q.mul(m, ((star[j] as Rational[])[c] as Rational))));
    }
    star.push(v);
    B.push(dotQ(v, v));
  }
  return { B, mu };
}

const cmp = (a: Rational, b: Rational): number => {
  const d = Q.sub(a, b);
  return d.num < 0n ? -1 : d.num > 0n ? 1 : 0;
};
const HALF = Q.fromFraction(1n, 2n);
const absQ = (x: Rational): Rational => (x.num < 0n ? Q.neg(x) : x);

/** The LLL conditions, checked the textbook way (rational Gram–Schmidt), for tests of any LLL answer. */
export function isLllReduced(rows: readonly (readonly bigint[])[], delta: Delta): boolean {
  const { B, mu } = gramSchmidt(rows);
  const d = Q.fromFraction(delta.num, delta.den);
  for (let i = 0; i < rows.length; i++) {
    if ((B[i] as Rational).num === 0n) return false;
    for (let j = 0; j < i; j++) if (cmp(absQ((mu[i] as Rational[])[j] as Rational), HALF) > 0) return false;
    if (i > 0) {
      const m = (mu[i] as Rational[])[i - 1] as Rational;
      if (cmp(B[i] as Rational, Q.mul(Q.sub(d, Q.mul(m, m)), B[i - 1] as Rational)) < 0) return false;
    }
  }
  return true;
}

/** Whether the rows of A and B span the same lattice: the same non-zero Hermite rows. */
export const sameLattice = (A: readonly (readonly bigint[])[], B: readonly (readonly bigint[])[]): boolean => {
  const h = (M: readonly (readonly bigint[])[]): string => JSON.stringify(hermiteNormalForm(M).hnf.filter((row) => row.some((x) => x !== 0n)).map((row) => row.map(String)));
  return h(A) === h(B);
};
