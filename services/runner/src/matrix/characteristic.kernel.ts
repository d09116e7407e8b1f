/**
 * The isolated part of matrix.characteristic_polynomial.compute and
 * matrix.minimal_polynomial.compute: the canonical matrix crossed a process boundary as JSON and
 * is parsed again here; the work polls the deadline and stops with EXECUTION_TIMEOUT (nothing
 * concluded).
 */
import { z } from 'zod';
import { JacobianError, parseStoredMatrix, RATIONALS, resolveMatrixRing, SMALL_PRIME_BOUND, type Field, type KernelContext, type Rational } from '@jacobian/shared';
import { characteristicPolynomial, isSquareFree, minimalPolynomial, rationalCharacteristicPolynomial, rationalIsSquareFree, rationalMinimalPolynomial } from './characteristic.js';
import type { Checkpoint } from './engine.js';
import { charpolyModP } from './modular-characteristic.js';

const KernelInput = z.object({ operation: z.enum(['characteristic', 'minimal']), matrix: z.unknown() }).strict();
export type CharacteristicKernelInput = z.input<typeof KernelInput>;

/** Coefficients lowest degree first, canonical texts in the answer's field (Q for Z and Q, GF(p)). */
export const CharacteristicKernelOutput = z.object({ coefficients: z.array(z.string()).min(1), square_free: z.boolean() }).strict();
export type CharacteristicKernelOutput = z.infer<typeof CharacteristicKernelOutput>;

function deadlineCheck(ctx: KernelContext, what: string): Checkpoint {
  let calls = 0;
  return () => {
    if (calls++ % 8 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', `the run's wall-time budget ended before the ${what} was complete; nothing was concluded`);
  };
}

export function characteristicKernel(raw: unknown, ctx: KernelContext): CharacteristicKernelOutput {
  const input = KernelInput.parse(raw);
  const matrix = parseStoredMatrix(input.matrix, ['payload', 'matrix']);
  if (matrix.nrows !== matrix.ncols) throw new JacobianError('INVALID_REQUEST', `the ${input.operation} polynomial needs a square matrix, not ${matrix.nrows}×${matrix.ncols}`, { data: { rule: 'square' } });
  const F = (resolveMatrixRing(matrix.ring).field ?? RATIONALS) as Field<unknown>;
  const A = matrix.rows.map((row) =>
    row.map((text) => {
      const value = F.parseCanonical(text);
      if (value === null) throw new JacobianError('INTERNAL', `"${text.slice(0, 40)}" is not a canonical element of ${F.name}`);
      return value;
    }),
  );
  const checkpoint = deadlineCheck(ctx, `${input.operation} polynomial`);
  // Over Q (and Z) multimodular, exact by its bounds; over GF(p) directly (on numbers for p < 2^26, where the field's elements are numbers).
  const p =
    F.kind === 'Q'
      ? input.operation === 'characteristic'
        ? rationalCharacteristicPolynomial(A as Rational[][], checkpoint)
        : rationalMinimalPolynomial(A as Rational[][], checkpoint)
      : input.operation === 'characteristic'
        ? F.characteristic < BigInt(SMALL_PRIME_BOUND)
          ? charpolyModP((A as number[][]).map((row) => Float64Array.from(row)), Number(F.characteristic), checkpoint)
          : characteristicPolynomial(F, A, checkpoint)
        : minimalPolynomial(F, A, checkpoint);
  return { coefficients: p.map((c) => F.format(c)), square_free: F.kind === 'Q' ? rationalIsSquareFree(p as Rational[], checkpoint) : isSquareFree(F, p) };
}
