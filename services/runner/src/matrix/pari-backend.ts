/**
 * The matrix capabilities on PARI/GP: one gp run per request (matdet, matrank, matker, mathnf,
 * matsnf, charpoly, minpoly, qflll), its answer read strictly (providers/pari.ts), brought to the
 * conventions our outputs state, and checked again here before it is returned:
 *
 * - determinant: equal to the determinant modulo a 25-bit prime, recomputed by us (over GF(p)
 *   with p < 2^26 that is the whole check: the determinant is recomputed exactly);
 * - rank: equal to the rank modulo primes (a lower bound of the rank over Q; exact over GF(p));
 * - kernels: every vector multiplies A to 0 exactly, the vectors are independent, and their
 *   number plus the rank modulo a prime is the dimension (which proves the basis complete); the
 *   basis is then brought to the RREF normalization our outputs state (so it is the one our
 *   TypeScript engine gives);
 * - Hermite form: its shape (echelon, positive pivots, reduced above them), its rank, for a
 *   square non-singular A the product of its pivots against |det A| modulo a prime, and with
 *   transforms U A = H exactly;
 * - Smith form: non-negative, each d_i divides the next, its rank, for a square A the product
 *   against |det A| modulo a prime, and with transforms U A V = D exactly;
 * - characteristic polynomial: monic of degree n and equal to det(r I − A) at a random r modulo a prime;
 * - minimal polynomial: monic of degree at most n with m(A) v = 0 for a random v modulo a prime;
 * - LLL (qflll): the shapes here; exactly, in the lattice kernel, U unimodular, U B = the reduced
 *   basis then zero rows, and the basis δ-reduced after an exact size reduction (pariLll).
 *
 * Unimodularity of the transforms and minimality of the minimal polynomial are what the checkers
 * (matrix.normal_form.verify, matrix.minimal_polynomial.verify) establish on the stored claims.
 */
import { JacobianError, RATIONALS, resolveMatrixRing, type Field, type MatrixPayload, type Rational } from '@jacobian/shared';
import { checkPariIdentity, gpScript, runGp, type GpSection, type PariRunOptions, type PariTools } from '../providers/pari.js';
import { primitiveIntegerVector, ringEngine } from './engine.js';

/** 25-bit primes for the modular rechecks (products of two residues stay below 2^53). */
const CHECK_PRIMES = [33554393, 33554383, 33554371, 33554347] as const;

function failed(message: string): JacobianError {
  return new JacobianError('PROVIDER_FAILED', `PARI/GP: ${message}; the result was discarded`);
}

// ---------------------------------------------------------------------------------------------
// Arithmetic modulo a prime: numbers below 2^26, bigints beyond.

interface ModArith<T> {
  /** The prime as a number when it is below 2^26 (the fast paths below use it). */
  readonly small?: number;
  readonly zero: T;
  readonly one: T;
  add(a: T, b: T): T;
  sub(a: T, b: T): T;
  mul(a: T, b: T): T;
  inv(a: T): T;
  isZero(a: T): boolean;
  /** num/den reduced; null when p divides den. */
  fromFraction(num: bigint, den: bigint): T | null;
  toBigInt(a: T): bigint;
}

function bigMod(a: bigint, p: bigint): bigint {
  const r = a % p;
  return r < 0n ? r + p : r;
}

function bigInverse(a: bigint, p: bigint): bigint {
  let [r0, r1, s0, s1] = [p, bigMod(a, p), 0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1, s0, s1] = [r1, r0 - q * r1, s1, s0 - q * s1];
  }
  return bigMod(s0, p);
}

function numberArith(p: number): ModArith<number> {
  const P = BigInt(p);
  const inv = (a: number): number => Number(bigInverse(BigInt(a), P));
  return {
    small: p,
    zero: 0,
    one: 1,
    add: (a, b) => (a + b) % p,
    sub: (a, b) => (a - b + p) % p,
    mul: (a, b) => (a * b) % p,
    inv,
    isZero: (a) => a === 0,
    fromFraction: (num, den) => {
      const d = Number(bigMod(den, P));
      return d === 0 ? null : (Number(bigMod(num, P)) * inv(d)) % p;
    },
    toBigInt: (a) => BigInt(a),
  };
}

function bigArith(p: bigint): ModArith<bigint> {
  return {
    zero: 0n,
    one: 1n,
    add: (a, b) => (a + b) % p,
    sub: (a, b) => bigMod(a - b, p),
    mul: (a, b) => (a * b) % p,
    inv: (a) => bigInverse(a, p),
    isZero: (a) => a === 0n,
    fromFraction: (num, den) => {
      const d = bigMod(den, p);
      return d === 0n ? null : (bigMod(num, p) * bigInverse(d, p)) % p;
    },
    toBigInt: (a) => a,
  };
}

function arithFor(p: bigint): ModArith<unknown> {
  return (p < 1n << 26n ? numberArith(Number(p)) : bigArith(p));
}

const FRACTION = /^(-?\d+)(?:\/(\d+))?$/;

function fraction(text: string): { num: bigint; den: bigint } {
  const match = FRACTION.exec(text);
  if (match === null) throw failed(`"${text.slice(0, 40)}" is not a number`);
  return { num: BigInt(match[1] as string), den: BigInt(match[2] ?? '1') };
}

const SHORT_INTEGER = /^-?\d{1,15}$/;

function reduce<T>(ar: ModArith<T>, text: string): T | null {
  // Most entries are integers below 2^53: reduced as numbers, without bigints.
  if (ar.small !== undefined && SHORT_INTEGER.test(text)) return ((((Number(text) % ar.small) + ar.small) % ar.small) as T);
  const { num, den } = fraction(text);
  return ar.fromFraction(num, den);
}

/** Rank and (square) determinant by elimination modulo the prime; the rows are consumed. */
function rankAndDeterminant<T>(ar: ModArith<T>, M: T[][], ncols: number): { rank: number; determinant: T } {
  if (ar.small !== undefined) return smallRankAndDeterminant(ar.small, M as number[][], ncols, (a) => ar.inv(a as T) as number) as { rank: number; determinant: T };
  let rank = 0;
  let det = ar.one;
  for (let c = 0; c < ncols && rank < M.length; c++) {
    let pivot = -1;
    for (let i = rank; i < M.length; i++) {
      if (!ar.isZero((M[i] as T[])[c] as T)) {
        pivot = i;
        break;
      }
    }
    if (pivot < 0) {
      det = ar.zero;
      continue;
    }
    if (pivot !== rank) {
      [M[pivot], M[rank]] = [M[rank] as T[], M[pivot] as T[]];
      det = ar.sub(ar.zero, det);
    }
    const row = M[rank] as T[];
    const p = row[c] as T;
    det = ar.mul(det, p);
    const pinv = ar.inv(p);
    for (let i = rank + 1; i < M.length; i++) {
      const other = M[i] as T[];
      const f = other[c] as T;
      if (ar.isZero(f)) continue;
      const g = ar.mul(f, pinv);
      for (let j = c; j < ncols; j++) other[j] = ar.sub(other[j] as T, ar.mul(g, row[j] as T));
    }
    rank++;
  }
  return { rank, determinant: M.length === ncols && rank === ncols ? det : ar.zero };
}

/** {@link rankAndDeterminant} for p < 2^26 on plain numbers (products stay below 2^52, exact). */
function smallRankAndDeterminant(p: number, M: number[][], ncols: number, inv: (a: number) => number): { rank: number; determinant: number } {
  let rank = 0;
  let det = 1;
  for (let c = 0; c < ncols && rank < M.length; c++) {
    let pivot = -1;
    for (let i = rank; i < M.length; i++) {
      if ((M[i] as number[])[c] !== 0) {
        pivot = i;
        break;
      }
    }
    if (pivot < 0) {
      det = 0;
      continue;
    }
    if (pivot !== rank) {
      [M[pivot], M[rank]] = [M[rank] as number[], M[pivot] as number[]];
      det = (p - det) % p;
    }
    const row = M[rank] as number[];
    const lead = row[c] as number;
    det = (det * lead) % p;
    const leadInverse = inv(lead);
    for (let i = rank + 1; i < M.length; i++) {
      const other = M[i] as number[];
      const f = other[c] as number;
      if (f === 0) continue;
      const g = p - ((f * leadInverse) % p);
      for (let j = c; j < ncols; j++) other[j] = ((other[j] as number) + g * (row[j] as number)) % p;
    }
    rank++;
  }
  return { rank, determinant: M.length === ncols && rank === ncols ? det : 0 };
}

/** The matrix modulo `p`, or null when p divides a denominator. */
function reduceMatrix<T>(ar: ModArith<T>, matrix: MatrixPayload): T[][] | null {
  const rows: T[][] = [];
  for (const row of matrix.rows) {
    const out: T[] = [];
    for (const text of row) {
      const x = reduce(ar, text);
      if (x === null) return null;
      out.push(x);
    }
    rows.push(out);
  }
  return rows;
}

/** The primes to recheck with: the field's own for GF(p) (an exact recheck), else the 25-bit primes in a random order. */
function checkModuli(matrix: MatrixPayload): bigint[] {
  if (matrix.ring.kind === 'GF') return [BigInt(matrix.ring.characteristic)];
  const start = Math.floor(Math.random() * CHECK_PRIMES.length);
  return CHECK_PRIMES.map((_, i) => BigInt(CHECK_PRIMES[(start + i) % CHECK_PRIMES.length] as number));
}

/** The matrix modulo the first prime of {@link checkModuli} that divides no denominator. */
function modularImage(matrix: MatrixPayload, skip = 0): { ar: ModArith<unknown>; M: unknown[][]; exact: boolean; p: bigint } {
  for (const p of checkModuli(matrix).slice(skip)) {
    const ar = arithFor(p);
    const M = reduceMatrix(ar, matrix);
    if (M !== null) return { ar, M, exact: matrix.ring.kind === 'GF', p };
  }
  throw failed('no check prime divides no denominator of the matrix');
}

/**
 * Check a rank: modulo primes the rank can only drop, so the claimed rank is confirmed when one
 * prime reaches it (over GF(p), the rank modulo p is the rank).
 */
function checkRank(matrix: MatrixPayload, claimed: number, what: string): void {
  const tries = matrix.ring.kind === 'GF' ? 1 : 3;
  let seen = -1;
  for (let k = 0; k < tries; k++) {
    const image = modularImage(matrix, k);
    seen = rankAndDeterminant(image.ar, image.M, matrix.ncols).rank;
    if (seen === claimed) return;
    if (seen > claimed || image.exact) break;
  }
  throw failed(`${what}: the rank is ${claimed} by PARI, ${seen} by our modular recheck`);
}

/** det A modulo a check prime (with the prime and its arithmetic). */
function determinantImage(matrix: MatrixPayload): { ar: ModArith<unknown>; det: unknown } {
  const image = modularImage(matrix);
  return { ar: image.ar, det: rankAndDeterminant(image.ar, image.M, matrix.ncols).determinant };
}

// ---------------------------------------------------------------------------------------------
// Runs.

async function run(tools: PariTools, matrix: MatrixPayload, sections: readonly GpSection[], options: PariRunOptions): Promise<{ sections: Record<string, string[][]>; ms: number }> {
  await checkPariIdentity(tools);
  const answer = await runGp(
    tools.binary,
    gpScript(matrix, sections),
    sections.map((s) => s.name),
    options,
  );
  return { sections: answer.sections, ms: answer.runtimeMs };
}

const lift = (matrix: MatrixPayload, expression: string): string => (matrix.ring.kind === 'GF' ? `lift(${expression})` : expression);

function single(rows: string[][] | undefined, what: string): string {
  if (rows?.length !== 1 || rows[0]?.length !== 1) throw failed(`${what} is not one number`);
  return rows[0][0] as string;
}

function shaped(rows: string[][] | undefined, nrows: number, ncols: number, what: string): string[][] {
  if (rows?.length !== nrows || rows.some((row) => row.length !== ncols)) throw failed(`${what} is not ${nrows}×${ncols}`);
  return rows;
}

/** An element text of the answer field, canonical (GF(p): a residue; Q: lowest terms). */
function canonical(field: Field<unknown>, text: string, what: string): string {
  const value = field.parseCanonical(text);
  if (value === null) throw failed(`${what} "${text.slice(0, 40)}" is not a canonical element of ${field.name}`);
  return text;
}

function answerFieldOf(matrix: MatrixPayload): Field<unknown> {
  return (resolveMatrixRing(matrix.ring).field ?? RATIONALS);
}

export const PARI_DETERMINANT_METHOD = 'PARI/GP matdet; rechecked by us modulo a prime (exactly over GF(p) for p < 2^26)';

/** det A (square A) by PARI, rechecked modulo a prime. */
export async function pariDeterminant(tools: PariTools, matrix: MatrixPayload, options: PariRunOptions): Promise<{ determinant: string; ms: number }> {
  const out = await run(tools, matrix, [{ name: 'det', statements: `print(${lift(matrix, 'matdet(A)')});` }], options);
  const field = answerFieldOf(matrix);
  const determinant = canonical(field, single(out.sections['det'], 'the determinant'), 'the determinant');
  const { ar, det } = determinantImage(matrix);
  const claimed = reduce(ar, determinant);
  if (claimed === null || ar.toBigInt(claimed) !== ar.toBigInt(det)) throw failed(`the determinant ${determinant.slice(0, 60)} disagrees with our modular recheck`);
  return { determinant, ms: out.ms };
}

export const PARI_RANK_METHOD = 'PARI/GP matrank; rechecked by us: the rank modulo a prime reaches it (exact over GF(p))';

/** rank A by PARI, rechecked modulo primes. */
export async function pariRank(tools: PariTools, matrix: MatrixPayload, options: PariRunOptions): Promise<{ rank: number; ms: number }> {
  const out = await run(tools, matrix, [{ name: 'rank', statements: 'print(matrank(A));' }], options);
  const rank = Number(single(out.sections['rank'], 'the rank'));
  if (!Number.isSafeInteger(rank) || rank < 0 || rank > Math.min(matrix.nrows, matrix.ncols)) throw failed(`the rank ${rank} is out of range`);
  checkRank(matrix, rank, 'rank');
  return { rank, ms: out.ms };
}

export const PARI_KERNEL_METHOD = 'PARI/GP matker of A and of its transpose; checked by us (A x = 0 exactly, independent, complete by the rank modulo a prime) and brought to the RREF normalization';

/**
 * Check PARI's basis `K` of {x : M x = 0} for the M whose rows are `rowsOf` (over the engine's
 * field), and write the basis normalized as kernelFromRref would: the RREF of K with its columns
 * reversed, reversed back, one vector per free column in increasing order.
 */
function normalizeKernel(matrix: MatrixPayload, K: string[][], transpose: boolean, rank: number): string[][] {
  const engine = ringEngine(matrix.ring);
  const F = engine.algebra.field;
  const A = engine.parse(matrix.rows);
  const M = transpose ? A[0]?.map((_, j) => A.map((row) => row[j])) ?? [] : A;
  const width = transpose ? matrix.nrows : matrix.ncols;
  const vectors = K.map((row) => row.map((text) => {
    const value = F.parseCanonical(text);
    if (value === null) throw failed(`a kernel entry "${text.slice(0, 40)}" is not a canonical element of ${F.name}`);
    return value;
  }));
  for (const [k, v] of vectors.entries()) {
    for (const row of M) {
      let s = F.zero;
      for (let j = 0; j < width; j++) s = F.add(s, F.mul(row[j], v[j]));
      if (!F.isZero(s)) throw failed(`${transpose ? 'left' : 'right'} kernel vector ${k} does not multiply A to 0`);
    }
  }
  if (vectors.length + rank !== width) throw failed(`${vectors.length} ${transpose ? 'left' : 'right'} kernel vectors for rank ${rank} and ${width} ${transpose ? 'rows' : 'columns'}`);
  if (vectors.length === 0) return [];
  const reversed = vectors.map((v) => [...v].reverse());
  const echelon = engine.algebra.rref(reversed);
  if (echelon.rank !== vectors.length) throw failed(`the ${transpose ? 'left' : 'right'} kernel vectors are not independent`);
  const basis = echelon.rows.map((row) => [...row].reverse()).reverse();
  return basis.map((v) => (matrix.ring.kind === 'GF' ? v : primitiveIntegerVectorIf(matrix, v as Rational[])).map((x) => engine.format(x)));
}

function primitiveIntegerVectorIf(matrix: MatrixPayload, v: Rational[]): Rational[] {
  return matrix.ring.kind === 'Z' ? primitiveIntegerVector(v) : v;
}

/** Bases of the right and left kernels by PARI, checked and normalized (see {@link normalizeKernel}). */
export async function pariKernels(tools: PariTools, matrix: MatrixPayload, options: PariRunOptions): Promise<{ rank: number; right: string[][]; left: string[][]; ms: number }> {
  const out = await run(
    tools,
    matrix,
    [
      { name: 'right', statements: `jm(${lift(matrix, 'matker(A)~')});` },
      { name: 'left', statements: `jm(${lift(matrix, 'matker(A~)~')});` },
    ],
    options,
  );
  const right = out.sections['right'] ?? [];
  const left = out.sections['left'] ?? [];
  if (right.some((row) => row.length !== matrix.ncols) || left.some((row) => row.length !== matrix.nrows)) throw failed('a kernel vector has the wrong length');
  const rank = matrix.ncols - right.length;
  if (matrix.nrows - left.length !== rank) throw failed(`the kernels give ranks ${rank} and ${matrix.nrows - left.length}`);
  checkRank(matrix, rank, 'kernels');
  return { rank, right: normalizeKernel(matrix, right, false, rank), left: normalizeKernel(matrix, left, true, rank), ms: out.ms };
}

// ---------------------------------------------------------------------------------------------
// Integer normal forms.

const big = (rows: string[][]): bigint[][] => rows.map((row) => row.map((t) => {
  if (!/^-?\d+$/.test(t)) throw failed(`"${t.slice(0, 40)}" is not an integer`);
  return BigInt(t);
}));

function multiply(X: readonly (readonly bigint[])[], Y: readonly (readonly bigint[])[]): bigint[][] {
  const inner = Y.length;
  const width = Y[0]?.length ?? 0;
  return X.map((row) => {
    const out = Array.from({ length: width }, () => 0n);
    for (let k = 0; k < inner; k++) {
      const x = row[k] as bigint;
      if (x === 0n) continue;
      const y = Y[k] as bigint[];
      for (let j = 0; j < width; j++) out[j] = (out[j] as bigint) + x * (y[j] as bigint);
    }
    return out;
  });
}

const sameRows = (X: readonly (readonly bigint[])[], Y: readonly (readonly bigint[])[]): boolean => X.length === Y.length && X.every((row, i) => row.length === Y[i]?.length && row.every((x, j) => x === Y[i]?.[j]));

/** |d| modulo a check prime against the product `product` of claimed pivots/invariants (square A). */
function checkAbsoluteDeterminant(matrix: MatrixPayload, product: bigint, what: string): void {
  const { ar, det } = determinantImage(matrix);
  const d = ar.toBigInt(det);
  const image = ar.toBigInt(ar.fromFraction(product, 1n));
  const negated = ar.toBigInt(ar.fromFraction(-product, 1n));
  if (d !== image && d !== negated) throw failed(`the product of the ${what} is not ±det A (checked modulo a prime)`);
}

export const PARI_HERMITE_METHOD = 'PARI/GP mathnf of the transposed, column-reversed matrix (its column-style form read back as our row-style form); shape, rank and, for square non-singular A, ±det A rechecked by us; with transforms U A = H checked exactly';

/** The row-style HNF of an integer matrix by PARI (see {@link PARI_HERMITE_METHOD}). */
export async function pariHermite(tools: PariTools, matrix: MatrixPayload, transforms: boolean, options: PariRunOptions): Promise<{ hnf: string[][]; rank: number; pivots: number[]; transform: string[][] | null; ms: number }> {
  const { nrows: m, ncols: n } = matrix;
  // X = J_n Aᵀ (n×m); PARI: X U₂ = [0 | H₂] with H₂ column-style. Then H = [J_r H₂ᵀ J_n; 0] and U = J_m U₂ᵀ.
  const setup = `X=matrix(${n},${m},i,j,A[j,${n}+1-i]);`;
  const sections: GpSection[] = transforms
    ? [{ name: 'hnf', statements: `${setup}R=mathnf(X,1);jm(R[1]~);` }, { name: 'transform', statements: 'jm(R[2]~);' }]
    : [{ name: 'hnf', statements: `${setup}jm(mathnf(X)~);` }];
  const out = await run(tools, matrix, sections, options);
  const H2t = big(out.sections['hnf'] ?? []);
  const r = H2t.length;
  if (r > Math.min(m, n) || H2t.some((row) => row.length !== n)) throw failed(`the Hermite form has ${r} rows of the wrong length`);
  const H: bigint[][] = [];
  for (let k = 0; k < r; k++) H.push([...(H2t[r - 1 - k] as bigint[])].reverse());
  for (let k = r; k < m; k++) H.push(Array.from({ length: n }, () => 0n));
  // Shape: echelon with strictly increasing positive pivots, entries above each pivot in [0, pivot).
  const pivots: number[] = [];
  for (let k = 0; k < r; k++) {
    const row = H[k] as bigint[];
    const p = row.findIndex((x) => x !== 0n);
    if (p < 0 || (pivots.length > 0 && p <= (pivots.at(-1) as number))) throw failed('the Hermite form is not in echelon form');
    const pivot = row[p] as bigint;
    if (pivot <= 0n) throw failed('a Hermite pivot is not positive');
    for (let i = 0; i < k; i++) {
      const above = (H[i] as bigint[])[p] as bigint;
      if (above < 0n || above >= pivot) throw failed('an entry above a Hermite pivot is not reduced');
    }
    pivots.push(p);
  }
  checkRank(matrix, r, 'Hermite form');
  if (m === n && r === n) checkAbsoluteDeterminant(matrix, pivots.reduce((acc, p, k) => acc * ((H[k] as bigint[])[p] as bigint), 1n), 'Hermite pivots');
  let transform: bigint[][] | null = null;
  if (transforms) {
    const U2t = big(shaped(out.sections['transform'], m, m, 'the Hermite transform'));
    transform = U2t.slice().reverse();
    const A = big(matrix.rows);
    if (!sameRows(multiply(transform, A), H)) throw failed('U A ≠ H for the Hermite transform');
  }
  const texts = (M: bigint[][]): string[][] => M.map((row) => row.map((x) => x.toString()));
  return { hnf: texts(H), rank: r, pivots, transform: transform === null ? null : texts(transform), ms: out.ms };
}

export const PARI_SMITH_METHOD = 'PARI/GP matsnf (diagonal reordered to increasing divisibility, transforms permuted to match); chain, rank and, for square A, ±det A rechecked by us; with transforms U A V = D checked exactly';

/** The Smith form of an integer matrix by PARI (see {@link PARI_SMITH_METHOD}). */
export async function pariSmith(tools: PariTools, matrix: MatrixPayload, transforms: boolean, options: PariRunOptions): Promise<{ diagonal: string[]; rank: number; left: string[][] | null; right: string[][] | null; ms: number }> {
  const { nrows: m, ncols: n } = matrix;
  const sections: GpSection[] = transforms
    ? [{ name: 'left', statements: 'S=matsnf(A,1);jm(S[1]);' }, { name: 'right', statements: 'jm(S[2]);' }, { name: 'diagonal', statements: 'jm(S[3]);' }]
    : [{ name: 'diagonal', statements: 'jv(matsnf(A));' }];
  const out = await run(tools, matrix, sections, options);
  let invariants: bigint[];
  let left: bigint[][] | null = null;
  let right: bigint[][] | null = null;
  if (transforms) {
    const U = big(shaped(out.sections['left'], m, m, 'U'));
    const V = big(shaped(out.sections['right'], n, n, 'V'));
    const Dp = big(shaped(out.sections['diagonal'], m, n, 'D'));
    // Where PARI put each non-zero d: at most one per row and column; then rows and columns are
    // permuted so that they stand on the diagonal in increasing order, the zero rows and columns after.
    const entries: { i: number; j: number; d: bigint }[] = [];
    Dp.forEach((row, i) => row.forEach((d, j) => {
      if (d !== 0n) entries.push({ i, j, d });
    }));
    if (new Set(entries.map((e) => e.i)).size !== entries.length || new Set(entries.map((e) => e.j)).size !== entries.length) throw failed('D is not diagonal up to order');
    entries.sort((a, b) => (a.d < b.d ? -1 : a.d > b.d ? 1 : 0));
    const rowOrder = [...entries.map((e) => e.i), ...Array.from({ length: m }, (_, i) => i).filter((i) => !entries.some((e) => e.i === i))];
    const colOrder = [...entries.map((e) => e.j), ...Array.from({ length: n }, (_, j) => j).filter((j) => !entries.some((e) => e.j === j))];
    left = rowOrder.map((i) => U[i] as bigint[]);
    right = V.map((row) => colOrder.map((j) => row[j] as bigint));
    invariants = entries.map((e) => e.d);
    const D = Array.from({ length: m }, (_, i) => Array.from({ length: n }, (_, j) => (i === j && i < invariants.length ? (invariants[i] as bigint) : 0n)));
    if (!sameRows(multiply(multiply(left, big(matrix.rows)), right), D)) throw failed('U A V ≠ D for the Smith transforms');
  } else {
    const row = out.sections['diagonal'];
    if (row?.length !== 1) throw failed('the Smith diagonal is not one line');
    invariants = big(row)[0]?.filter((d) => d !== 0n) ?? [];
    invariants.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
  const rank = invariants.length;
  if (rank > Math.min(m, n)) throw failed('more invariant factors than min(m, n)');
  invariants.forEach((d, k) => {
    if (d <= 0n) throw failed('an invariant factor is not positive');
    if (k > 0 && d % (invariants[k - 1] as bigint) !== 0n) throw failed('the invariant factors do not divide each other in turn');
  });
  checkRank(matrix, rank, 'Smith form');
  if (m === n) checkAbsoluteDeterminant(matrix, rank === n ? invariants.reduce((a, b) => a * b, 1n) : 0n, 'invariant factors');
  const diagonal = [...invariants.map((d) => d.toString()), ...Array.from({ length: Math.min(m, n) - rank }, () => '0')];
  const texts = (M: bigint[][] | null): string[][] | null => (M === null ? null : M.map((r) => r.map((x) => x.toString())));
  return { diagonal, rank, left: texts(left), right: texts(right), ms: out.ms };
}

// ---------------------------------------------------------------------------------------------
// Polynomials.

function coefficientsOf(matrix: MatrixPayload, rows: string[][] | undefined, what: string): string[] {
  if (rows?.length !== 1) throw failed(`the ${what} is not one line`);
  const field = answerFieldOf(matrix);
  const highestFirst = (rows[0] as string[]).map((text) => canonical(field, text, `a ${what} coefficient`));
  if (highestFirst[0] !== '1') throw failed(`the ${what} is not monic`);
  return highestFirst.reverse();
}

/** Whether the polynomial P of the script is square-free, by PARI's issquarefree (not rechecked). */
const SQUARE_FREE: GpSection = { name: 'squarefree', statements: 'print(issquarefree(P));' };

function squareFree(rows: string[][] | undefined): boolean {
  const flag = single(rows, 'issquarefree');
  if (flag !== '0' && flag !== '1') throw failed(`issquarefree printed ${flag.slice(0, 20)}`);
  return flag === '1';
}

/** p(x) at x = r modulo the check prime, coefficients lowest first. */
function evaluate(ar: ModArith<unknown>, coefficients: readonly string[], r: unknown, what: string): unknown {
  let acc = ar.zero;
  for (let k = coefficients.length - 1; k >= 0; k--) {
    const c = reduce(ar, coefficients[k] as string);
    if (c === null) throw failed(`a ${what} coefficient has a denominator divisible by the check prime`);
    acc = ar.add(ar.mul(acc, r), c);
  }
  return acc;
}

export const PARI_CHARACTERISTIC_METHOD = 'PARI/GP charpoly (square-freeness by its issquarefree); rechecked by us: monic of degree n, and equal to det(r I − A) at a random r modulo a prime';

/** The characteristic polynomial det(x I − A) by PARI (coefficients lowest first), rechecked. */
export async function pariCharacteristic(tools: PariTools, matrix: MatrixPayload, options: PariRunOptions): Promise<{ coefficients: string[]; squareFree: boolean; ms: number }> {
  const out = await run(tools, matrix, [{ name: 'charpoly', statements: `P=charpoly(A);jv(${lift(matrix, 'Vec(P)')});` }, SQUARE_FREE], options);
  const coefficients = coefficientsOf(matrix, out.sections['charpoly'], 'characteristic polynomial');
  const n = matrix.nrows;
  if (coefficients.length !== n + 1) throw failed(`the characteristic polynomial has degree ${coefficients.length - 1}, not ${n}`);
  const { ar, M } = modularImage(matrix);
  const r = ar.fromFraction(BigInt(2 + Math.floor(Math.random() * 1_000_000)), 1n);
  const shifted = M.map((row, i) => row.map((x, j) => (i === j ? ar.sub(r, x) : ar.sub(ar.zero, x))));
  const det = rankAndDeterminant(ar, shifted, n).determinant;
  if (ar.toBigInt(det) !== ar.toBigInt(evaluate(ar, coefficients, r, 'characteristic polynomial'))) throw failed('the characteristic polynomial disagrees with det(r I − A) modulo a prime');
  return { coefficients, squareFree: squareFree(out.sections['squarefree']), ms: out.ms };
}

export const PARI_MINIMAL_METHOD = 'PARI/GP minpoly (square-freeness by its issquarefree); rechecked by us: monic of degree at most n with m(A) v = 0 for a random v modulo a prime (minimality is what matrix.minimal_polynomial.verify checks)';

/** The minimal polynomial by PARI (coefficients lowest first), rechecked. */
export async function pariMinimal(tools: PariTools, matrix: MatrixPayload, options: PariRunOptions): Promise<{ coefficients: string[]; squareFree: boolean; ms: number }> {
  const out = await run(tools, matrix, [{ name: 'minpoly', statements: `P=minpoly(A);jv(${lift(matrix, 'Vec(P)')});` }, SQUARE_FREE], options);
  const coefficients = coefficientsOf(matrix, out.sections['minpoly'], 'minimal polynomial');
  const n = matrix.nrows;
  if (coefficients.length < 2 || coefficients.length > n + 1) throw failed(`the minimal polynomial has degree ${coefficients.length - 1}`);
  const { ar, M } = modularImage(matrix);
  const v = Array.from({ length: n }, () => ar.fromFraction(BigInt(Math.floor(Math.random() * 1_000_000)), 1n));
  // Horner on vectors: w = c_d v, then w = A w + c_k v.
  let w = v.map(() => ar.zero);
  for (let k = coefficients.length - 1; k >= 0; k--) {
    const c = reduce(ar, coefficients[k] as string);
    if (c === null) throw failed('a minimal polynomial coefficient has a denominator divisible by the check prime');
    w = M.map((row, i) => {
      let s = ar.mul(c, v[i]);
      for (let j = 0; j < n; j++) s = ar.add(s, ar.mul(row[j], w[j]));
      return s;
    });
  }
  if (w.some((x) => !ar.isZero(x))) throw failed('m(A) v ≠ 0 modulo a prime for the minimal polynomial');
  return { coefficients, squareFree: squareFree(out.sections['squarefree']), ms: out.ms };
}

// ---------------------------------------------------------------------------------------------
// Lattices.

/**
 * The Lovász constant PARI's qflll reaches: (η, δ) = (0.51, 0.99) per its manual ("the
 * Gram-Schmidt coefficients for the final basis satisfy |μ_{i,j}| ≤ 0.51, and the Lovász's
 * constant is 0.99"), computed in floating point (fplll's variants). It has no δ argument, so it
 * serves only δ ≤ 99/100; its basis is size-reduced to |μ| ≤ 1/2 and tested with the requested δ
 * exactly by us (lattice-engine.ts adoptLllAnswer).
 */
export const PARI_LLL_DELTA = { num: 99n, den: 100n } as const;

export const PARI_LLL_METHOD =
  'PARI/GP qflll(Bᵀ, 4) (fplll-based, floating point, (η, δ) = (0.51, 0.99)) on the columns of Bᵀ: the reduced image and the integer kernel, read back as rows; rechecked exactly by us: U = [image; kernel] unimodular (its Hermite form is I), U B = PARI\'s reduced basis followed by zero rows, the basis rows independent, then size-reduced exactly to |μ| ≤ 1/2 and the Lovász condition tested with the requested δ (else our engine computes it)';

/**
 * PARI's LLL of the lattice spanned by the rows of an integer matrix: its reduced basis (the r
 * non-zero rows) and the m×m transform (the r image rows, then the m − r kernel rows), shapes
 * checked here; the rest of the recheck is adoptLllAnswer's, in the lattice kernel.
 */
export async function pariLll(tools: PariTools, matrix: MatrixPayload, options: PariRunOptions): Promise<{ reduced: string[][]; transform: string[][]; ms: number }> {
  const { nrows: m, ncols: n } = matrix;
  const sections: GpSection[] = [
    { name: 'image', statements: 'R=qflll(A~,4);jm(R[2]~);' },
    { name: 'kernel', statements: 'jm(R[1]~);' },
    { name: 'reduced', statements: 'if(#R[2],jm((A~*R[2])~));' },
  ];
  const out = await run(tools, matrix, sections, options);
  const image = out.sections['image'] ?? [];
  const r = image.length;
  if (r > Math.min(m, n)) throw failed(`qflll gave ${r} basis vectors for a ${m}×${n} matrix`);
  const transform = [...shaped(image, r, m, 'the LLL image transform'), ...shaped(out.sections['kernel'], m - r, m, 'the LLL kernel')];
  return { reduced: shaped(out.sections['reduced'], r, n, 'the LLL-reduced basis'), transform, ms: out.ms };
}
