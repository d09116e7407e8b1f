/**
 * The isolated part of the lattice capabilities: the canonical integer matrices crossed a
 * process boundary as JSON and are parsed again here; the reductions poll the deadline and stop
 * with EXECUTION_TIMEOUT (nothing concluded).
 */
import { z } from 'zod';
import { JacobianError, parseDelta, parseStoredMatrix, type KernelContext, type MatrixPayload } from '@jacobian/shared';
import type { Checkpoint } from './engine.js';
import { adoptLllAnswer, lllReduce, sublatticeIndex } from './lattice-engine.js';
import { hermiteNormalForm } from './normal-form-engine.js';

const KernelInput = z.union([
  z.object({ operation: z.literal('reduce'), matrix: z.unknown(), delta: z.string() }).strict(),
  z.object({ operation: z.literal('adopt'), matrix: z.unknown(), delta: z.string(), transform: z.array(z.array(z.string())), reduced: z.array(z.array(z.string())) }).strict(),
  z.object({ operation: z.literal('hermite'), matrix: z.unknown(), transforms: z.boolean() }).strict(),
  z.object({ operation: z.literal('index'), lattice: z.unknown(), sublattice: z.unknown() }).strict(),
]);
export type LatticeKernelInput = z.input<typeof KernelInput>;

const Rows = z.array(z.array(z.string()));

/** What the kernel answers: canonical decimal integers. */
export const LatticeKernelOutput = z.union([
  z.object({ operation: z.literal('reduce'), reduced: Rows, transform: Rows, rank: z.number().int(), gram: z.array(z.string()), dependent: z.boolean(), swaps: z.number().int() }).strict(),
  z.object({ operation: z.literal('adopt'), accepted: z.literal(true), reduced: Rows, transform: Rows, rank: z.number().int(), gram: z.array(z.string()), dependent: z.boolean(), size_reductions: z.number().int() }).strict(),
  z.object({ operation: z.literal('adopt'), accepted: z.literal(false), row: z.number().int() }).strict(),
  z.object({ operation: z.literal('hermite'), hnf: Rows, rank: z.number().int(), pivots: z.array(z.number().int()), transform: Rows.nullable(), gram_determinant: z.string() }).strict(),
  z.object({ operation: z.literal('index'), contained: z.literal(false), generator: z.number().int(), column: z.number().int() }).strict(),
  z.object({ operation: z.literal('index'), contained: z.literal(true), rank: z.number().int(), sublattice_rank: z.number().int(), basis: Rows, torsion: z.array(z.string()), index: z.string().nullable() }).strict(),
]);
export type LatticeKernelOutput = z.infer<typeof LatticeKernelOutput>;

function deadlineCheck(ctx: KernelContext, what: string): Checkpoint {
  let calls = 0;
  return () => {
    if (calls++ % 8 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', `the run's wall-time budget ended before the ${what} was complete; nothing was concluded`);
  };
}

const texts = (M: readonly (readonly bigint[])[]): string[][] => M.map((row) => row.map((x) => x.toString()));

function integers(payload: unknown, path: (string | number)[]): bigint[][] {
  const matrix: MatrixPayload = parseStoredMatrix(payload, path);
  if (matrix.ring.kind !== 'Z') throw new JacobianError('INVALID_REQUEST', `lattice generators are integer vectors, not over ${matrix.ring.kind}`, { path, data: { rule: 'integer-matrix' } });
  return matrix.rows.map((row) => row.map((t) => BigInt(t)));
}

/** det(H Hᵀ) of the non-zero rows of a Hermite form: the squared covolume, by fraction-free elimination of the Gram matrix. */
function gramDeterminant(basis: readonly (readonly bigint[])[], checkpoint: Checkpoint): bigint {
  const r = basis.length;
  const G = basis.map((u) => basis.map((v) => u.reduce((s, x, i) => (x === 0n ? s : s + x * (v[i] as bigint)), 0n)));
  // The Gram matrix of independent vectors is positive definite: no pivot is zero, no swaps.
  let previous = 1n;
  for (let k = 0; k < r; k++) {
    const top = G[k] as bigint[];
    const p = top[k] as bigint;
    for (let i = k + 1; i < r; i++) {
      checkpoint();
      const row = G[i] as bigint[];
      for (let j = k + 1; j < r; j++) row[j] = (p * (row[j] as bigint) - (row[k] as bigint) * (top[j] as bigint)) / previous;
    }
    previous = p;
  }
  return previous;
}

export function latticeKernel(raw: unknown, ctx: KernelContext): LatticeKernelOutput {
  const input = KernelInput.parse(raw);
  switch (input.operation) {
    case 'reduce': {
      const B = integers(input.matrix, ['payload', 'matrix']);
      const delta = parseDelta(input.delta, ['payload', 'delta']);
      const out = lllReduce(B, delta, deadlineCheck(ctx, 'LLL reduction'));
      return { operation: 'reduce', reduced: texts(out.reduced), transform: texts(out.transform), rank: out.rank, gram: out.gram.map(String), dependent: out.dependent, swaps: out.swaps };
    }
    case 'adopt': {
      // Another engine's answer (PARI/GP's), rechecked and size-reduced exactly; a wrong one is PROVIDER_FAILED.
      const B = integers(input.matrix, ['payload', 'matrix']);
      const delta = parseDelta(input.delta, ['payload', 'delta']);
      const rows = (M: string[][], what: string): bigint[][] =>
        M.map((row) =>
          row.map((t) => {
            if (!/^-?\d+$/.test(t)) throw new JacobianError('PROVIDER_FAILED', `PARI/GP: an entry of ${what} is not an integer; the result was discarded`);
            return BigInt(t);
          }),
        );
      let out;
      try {
        out = adoptLllAnswer(B, rows(input.transform, 'the transform'), rows(input.reduced, 'the reduced basis'), delta, deadlineCheck(ctx, 'recheck of the LLL answer'));
      } catch (error) {
        if (error instanceof JacobianError) throw error;
        throw new JacobianError('PROVIDER_FAILED', `PARI/GP: ${error instanceof Error ? error.message : String(error)}; the result was discarded`);
      }
      if (!out.accepted) return { operation: 'adopt', accepted: false, row: out.row };
      return { operation: 'adopt', accepted: true, reduced: texts(out.reduced), transform: texts(out.transform), rank: out.rank, gram: out.gram.map(String), dependent: out.dependent, size_reductions: out.sizeReductions };
    }
    case 'hermite': {
      const checkpoint = deadlineCheck(ctx, 'Hermite basis');
      const A = integers(input.matrix, ['payload', 'matrix']);
      const form = hermiteNormalForm(A, { transforms: input.transforms, checkpoint });
      const gram = gramDeterminant(form.hnf.slice(0, form.rank), checkpoint);
      return { operation: 'hermite', hnf: texts(form.hnf), rank: form.rank, pivots: form.pivots, transform: form.transform === null ? null : texts(form.transform), gram_determinant: gram.toString() };
    }
    case 'index': {
      const checkpoint = deadlineCheck(ctx, 'sublattice index');
      const out = sublatticeIndex(integers(input.lattice, ['payload', 'lattice']), integers(input.sublattice, ['payload', 'sublattice']), checkpoint);
      if (!out.contained) return { operation: 'index', contained: false, generator: out.generator, column: out.column };
      return { operation: 'index', contained: true, rank: out.rank, sublattice_rank: out.sublatticeRank, basis: texts(out.basis), torsion: out.torsion.map(String), index: out.index === null ? null : out.index.toString() };
    }
  }
}

