/**
 * The isolated part of matrix.hermite_normal_form.compute and matrix.smith_normal_form.compute:
 * the canonical integer matrix crossed a process boundary as JSON and is parsed again here; the
 * reduction polls the deadline and stops with EXECUTION_TIMEOUT (nothing concluded).
 */
import { z } from 'zod';
import { JacobianError, parseStoredMatrix, type KernelContext } from '@jacobian/shared';
import type { Checkpoint } from './engine.js';
import { hermiteNormalForm, smithNormalForm } from './normal-form-engine.js';

const KernelInput = z.object({ operation: z.enum(['hermite', 'smith']), matrix: z.unknown(), transforms: z.boolean() }).strict();
export type NormalFormKernelInput = z.input<typeof KernelInput>;

const Rows = z.array(z.array(z.string()));

/** What the kernel answers: canonical decimal integers. */
export const NormalFormKernelOutput = z.union([
  z.object({ operation: z.literal('hermite'), hnf: Rows, rank: z.number().int(), pivots: z.array(z.number().int()), transform: Rows.nullable() }).strict(),
  z.object({ operation: z.literal('smith'), diagonal: z.array(z.string()), rank: z.number().int(), left: Rows.nullable(), right: Rows.nullable() }).strict(),
]);
export type NormalFormKernelOutput = z.infer<typeof NormalFormKernelOutput>;

function deadlineCheck(ctx: KernelContext, what: string): Checkpoint {
  let calls = 0;
  return () => {
    if (calls++ % 8 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', `the run's wall-time budget ended before the ${what} was complete; nothing was concluded`);
  };
}

const texts = (M: readonly (readonly bigint[])[] | null): string[][] | null => (M === null ? null : M.map((row) => row.map((x) => x.toString())));

export function normalFormKernel(raw: unknown, ctx: KernelContext): NormalFormKernelOutput {
  const input = KernelInput.parse(raw);
  const matrix = parseStoredMatrix(input.matrix, ['payload', 'matrix']);
  if (matrix.ring.kind !== 'Z') throw new JacobianError('INVALID_REQUEST', `integer normal forms need a matrix over Z, not ${matrix.ring.kind}`, { data: { rule: 'integer-matrix' } });
  const A = matrix.rows.map((row) => row.map((t) => BigInt(t)));
  if (input.operation === 'hermite') {
    const form = hermiteNormalForm(A, { transforms: input.transforms, checkpoint: deadlineCheck(ctx, 'Hermite normal form') });
    return { operation: 'hermite', hnf: texts(form.hnf) ?? [], rank: form.rank, pivots: form.pivots, transform: texts(form.transform) };
  }
  const form = smithNormalForm(A, { transforms: input.transforms, checkpoint: deadlineCheck(ctx, 'Smith normal form') });
  return { operation: 'smith', diagonal: form.diagonal.map((d) => d.toString()), rank: form.rank, left: texts(form.left), right: texts(form.right) };
}
