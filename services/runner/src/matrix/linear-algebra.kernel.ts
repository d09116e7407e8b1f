/**
 * The isolated part of the matrix capabilities: the canonical matrix (and right-hand side)
 * crossed a process boundary as JSON and is parsed again here; the elimination polls the
 * deadline and stops with EXECUTION_TIMEOUT (nothing concluded).
 */
import { z } from 'zod';
import { JacobianError, MATRIX_LIMITS, parseStoredMatrix, type KernelContext, type Rational } from '@jacobian/shared';
import { primitiveIntegerVector, ringEngine, type Checkpoint } from './engine.js';

export const LinearAlgebraOperation = {
  RANK: 'rank',
  DETERMINANT: 'determinant',
  RREF: 'rref',
  NULLSPACE: 'nullspace',
  INVERSE: 'inverse',
  SOLVE: 'solve',
} as const;
export type LinearAlgebraOperation = (typeof LinearAlgebraOperation)[keyof typeof LinearAlgebraOperation];

const KernelInput = z
  .object({
    operation: z.enum(LinearAlgebraOperation),
    matrix: z.unknown(),
    rhs: z.array(z.string().max(MATRIX_LIMITS.maxEntryTextLength)).optional(),
  })
  .strict();
export type LinearAlgebraKernelInput = z.input<typeof KernelInput>;

const Vector = z.array(z.string());
const Rows = z.array(Vector);

/** What the kernel answers, per operation; texts are canonical elements of the answer's field. */
export const LinearAlgebraKernelOutput = z.union([
  z.object({ operation: z.literal('rank'), rank: z.number().int() }).strict(),
  z.object({ operation: z.literal('determinant'), determinant: z.string() }).strict(),
  z.object({ operation: z.literal('rref'), rank: z.number().int(), pivots: z.array(z.number().int()), rref: Rows }).strict(),
  z.object({ operation: z.literal('nullspace'), rank: z.number().int(), right: Rows, left: Rows }).strict(),
  z.object({ operation: z.literal('inverse'), invertible: z.literal(true), inverse: Rows }).strict(),
  z.object({ operation: z.literal('inverse'), invertible: z.literal(false), rank: z.number().int(), kernel_vector: Vector }).strict(),
  z.object({ operation: z.literal('solve'), consistent: z.literal(true), rank: z.number().int(), solution: Vector, kernel: Rows }).strict(),
  z.object({ operation: z.literal('solve'), consistent: z.literal(false), rank: z.number().int(), certificate: Vector }).strict(),
]);
export type LinearAlgebraKernelOutput = z.infer<typeof LinearAlgebraKernelOutput>;

function deadlineCheck(ctx: KernelContext, what: string): Checkpoint {
  let calls = 0;
  return () => {
    if (calls++ % 8 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', `the run's wall-time budget ended before the ${what} was complete; nothing was concluded`);
  };
}

export function linearAlgebraKernel(raw: unknown, ctx: KernelContext): LinearAlgebraKernelOutput {
  const input = KernelInput.parse(raw);
  const matrix = parseStoredMatrix(input.matrix, ['payload', 'matrix']);
  const engine = ringEngine(matrix.ring, deadlineCheck(ctx, input.operation === 'solve' ? 'solution' : input.operation));
  const A = engine.parse(matrix.rows);
  const { algebra } = engine;
  const rows = (M: unknown[][]): string[][] => M.map((row) => row.map((x) => engine.format(x)));
  // Over Z, kernel vectors are given as primitive integer vectors (a basis over Q, in integers).
  const kernelVector = (v: unknown[]): string[] => (matrix.ring.kind === 'Z' ? primitiveIntegerVector(v as Rational[]) : v).map((x) => engine.format(x));
  switch (input.operation) {
    case 'rank':
      return { operation: 'rank', rank: algebra.rank(A) };
    case 'determinant':
      if (matrix.nrows !== matrix.ncols) throw new JacobianError('INVALID_REQUEST', `the determinant needs a square matrix, not ${matrix.nrows}×${matrix.ncols}`, { data: { rule: 'square' } });
      return { operation: 'determinant', determinant: engine.format(algebra.determinant(A)) };
    case 'rref': {
      const echelon = algebra.rref(A);
      return { operation: 'rref', rank: echelon.rank, pivots: echelon.pivots, rref: rows(echelon.rows) };
    }
    case 'nullspace': {
      const { rank, right, left } = algebra.nullspace(A);
      return { operation: 'nullspace', rank, right: right.map(kernelVector), left: left.map(kernelVector) };
    }
    case 'inverse': {
      if (matrix.nrows !== matrix.ncols) throw new JacobianError('INVALID_REQUEST', `the inverse needs a square matrix, not ${matrix.nrows}×${matrix.ncols}`, { data: { rule: 'square' } });
      const result = algebra.inverse(A);
      return result.invertible
        ? { operation: 'inverse', invertible: true, inverse: rows(result.inverse) }
        : { operation: 'inverse', invertible: false, rank: result.rank, kernel_vector: kernelVector(result.kernelVector) };
    }
    case 'solve': {
      if (input.rhs?.length !== matrix.nrows) throw new JacobianError('INVALID_REQUEST', `the right-hand side needs ${matrix.nrows} entries`, { data: { rule: 'dimensions' } });
      const result = algebra.solve(A, engine.parseVector(input.rhs));
      return result.consistent
        ? { operation: 'solve', consistent: true, rank: result.rank, solution: result.solution.map((x) => engine.format(x)), kernel: result.kernel.map(kernelVector) }
        : { operation: 'solve', consistent: false, rank: result.rank, certificate: result.certificate.map((x) => engine.format(x)) };
    }
  }
}
