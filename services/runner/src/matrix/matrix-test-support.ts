// Seeded random matrices and helpers shared by the matrix tests that compare our engine with
// PARI/GP (pari-backend.test.ts, pari-agreement.test.ts). Test support only: never imported by
// product code (and, not being a *.test.ts file, never run as a test itself).
import { parseExplicitMatrix, type MatrixPayload, type MatrixRing } from '@jacobian/shared';

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
