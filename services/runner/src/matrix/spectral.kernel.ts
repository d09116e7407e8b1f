/**
 * The isolated part of matrix.rational_canonical_form.compute and matrix.eigenvalues.compute:
 * the canonical matrix crossed a process boundary as JSON and is parsed again here; the work
 * polls the deadline and stops with EXECUTION_TIMEOUT (nothing concluded).
 *
 * Eigenvalues: the characteristic polynomial (multimodular over Q, directly over GF(p)),
 * factored into irreducibles (univariate-factor.ts); each linear factor x − λ is an eigenvalue of
 * algebraic multiplicity its exponent and geometric multiplicity n − rank(A − λ I).
 */
import { z } from 'zod';
import { JacobianError, makeRational, parseStoredMatrix, RATIONALS, resolveMatrixRing, type Field, type KernelContext, type Rational } from '@jacobian/shared';
import { characteristicPolynomial, makeMonic, rationalCharacteristicPolynomial } from './characteristic.js';
import { fieldBackend, LinearAlgebra, RATIONAL_BACKEND, type Checkpoint } from './engine.js';
import { frobeniusForm } from './frobenius.js';
import { factorGF, factorRational } from './univariate-factor.js';

const KernelInput = z.object({ operation: z.enum(['rational_canonical_form', 'eigenvalues']), matrix: z.unknown() }).strict();
export type SpectralKernelInput = z.input<typeof KernelInput>;

const Coefficients = z.array(z.string()).min(1);
const Rows = z.array(z.array(z.string()));

/** Canonical texts in the answer's field (Q for Z and Q, GF(p)); polynomials lowest degree first and monic. */
export const SpectralKernelOutput = z.discriminatedUnion('operation', [
  z.object({ operation: z.literal('rational_canonical_form'), invariant_factors: z.array(Coefficients).min(1), form: Rows, transform: Rows }).strict(),
  z
    .object({
      operation: z.literal('eigenvalues'),
      characteristic: Coefficients,
      eigenvalues: z.array(z.object({ value: z.string(), algebraic_multiplicity: z.number().int().min(1), geometric_multiplicity: z.number().int().min(1) }).strict()),
      factors: z.array(z.object({ coefficients: Coefficients, multiplicity: z.number().int().min(1) }).strict()),
    })
    .strict(),
]);
export type SpectralKernelOutput = z.infer<typeof SpectralKernelOutput>;

function deadlineCheck(ctx: KernelContext, what: string): Checkpoint {
  let calls = 0;
  return () => {
    if (calls++ % 8 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', `the run's wall-time budget ended before the ${what} was complete; nothing was concluded`);
  };
}

/** The monic irreducible factors of χ_A over the field, with multiplicities. */
function factorCharacteristic<C>(F: Field<C>, A: C[][], checkpoint: Checkpoint): { characteristic: C[]; factors: { factor: C[]; multiplicity: number }[] } {
  if (F.kind === 'Q') {
    const chi = rationalCharacteristicPolynomial(A as Rational[][], checkpoint);
    const { factors } = factorRational(chi, checkpoint);
    const monic = factors.map(({ factor, multiplicity }) => ({ factor: makeMonic(RATIONALS, factor.map((c) => makeRational(c, 1n))), multiplicity }));
    return { characteristic: chi as C[], factors: monic as { factor: C[]; multiplicity: number }[] };
  }
  const chi = characteristicPolynomial(F, A, checkpoint);
  return { characteristic: chi, factors: factorGF(F, chi, checkpoint).factors };
}

export function spectralKernel(raw: unknown, ctx: KernelContext): SpectralKernelOutput {
  const input = KernelInput.parse(raw);
  const matrix = parseStoredMatrix(input.matrix, ['payload', 'matrix']);
  const what = input.operation === 'eigenvalues' ? 'eigenvalues' : 'rational canonical form';
  if (matrix.nrows !== matrix.ncols) throw new JacobianError('INVALID_REQUEST', `the ${what} needs a square matrix, not ${matrix.nrows}×${matrix.ncols}`, { data: { rule: 'square' } });
  const F = (resolveMatrixRing(matrix.ring).field ?? RATIONALS) as Field<unknown>;
  const A = matrix.rows.map((row) =>
    row.map((text) => {
      const value = F.parseCanonical(text);
      if (value === null) throw new JacobianError('INTERNAL', `"${text.slice(0, 40)}" is not a canonical element of ${F.name}`);
      return value;
    }),
  );
  const checkpoint = deadlineCheck(ctx, what);
  const la = F.kind === 'Q' ? (new LinearAlgebra(RATIONAL_BACKEND, checkpoint) as LinearAlgebra<unknown>) : new LinearAlgebra(fieldBackend(F), checkpoint);
  const format = (p: readonly unknown[]): string[] => p.map((c) => F.format(c));
  if (input.operation === 'rational_canonical_form') {
    const { invariantFactors, form, transform } = frobeniusForm(la, A, checkpoint);
    return { operation: 'rational_canonical_form', invariant_factors: invariantFactors.map(format), form: form.map(format), transform: transform.map(format) };
  }
  const n = A.length;
  const { characteristic, factors } = factorCharacteristic(F, A, checkpoint);
  const eigenvalues: { value: string; algebraic_multiplicity: number; geometric_multiplicity: number; key: unknown }[] = [];
  const rest = [];
  for (const { factor, multiplicity } of factors) {
    if (factor.length !== 2) {
      rest.push({ coefficients: format(factor), multiplicity });
      continue;
    }
    const lambda = F.neg(factor[0]);
    const shifted = A.map((row, i) => row.map((a, j) => (i === j ? F.sub(a, lambda) : a)));
    eigenvalues.push({ value: F.format(lambda), algebraic_multiplicity: multiplicity, geometric_multiplicity: n - la.rank(shifted), key: lambda });
  }
  // In increasing order: as rationals over Q, as least residues over GF(p).
  const less = (a: unknown, b: unknown): number => {
    if (F.kind === 'Q') {
      const x = a as Rational;
      const y = b as Rational;
      const d = x.num * y.den - y.num * x.den;
      return d < 0n ? -1 : d > 0n ? 1 : 0;
    }
    const d = BigInt(F.format(a)) - BigInt(F.format(b));
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  };
  eigenvalues.sort((a, b) => less(a.key, b.key));
  return { operation: 'eigenvalues', characteristic: format(characteristic), eigenvalues: eigenvalues.map(({ key: _key, ...e }) => e), factors: rest };
}
