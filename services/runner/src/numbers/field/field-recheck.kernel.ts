/**
 * The isolated part of the number field rechecks (characteristic polynomials and trace forms on
 * big rationals can be heavy in degree 20): PARI/GP's integral basis, polredabs isomorphism, units
 * and roots of unity, parsed again here as canonical rational texts and checked with the exact
 * arithmetic of field-arithmetic.ts, polling the deadline (EXECUTION_TIMEOUT: nothing concluded).
 */
import { z } from 'zod';
import { formatRational, JacobianError, parseRational, qpolyCompose, qpolyIsZero, type KernelContext, type Rational } from '@jacobian/shared';
import { basisDiscriminant, isPrimitiveRootOfUnity, unitCheck } from './field-arithmetic.js';

const Element = z.array(z.string());

const KernelInput = z
  .object({
    /** T₁, lowest degree first. */
    monic: Element,
    basis: z.array(Element).default([]),
    /** P (polredabs), lowest degree first, with b (T₁(b) ≡ 0 mod P) and a (P(a) ≡ 0 mod T₁). */
    reduced: Element.optional(),
    root_in_reduced: Element.optional(),
    reduced_root_in_field: Element.optional(),
    units: z.array(Element).default([]),
    zeta: Element.optional(),
    w: z.number().int().min(1).optional(),
  })
  .strict();
export type FieldRecheckInput = z.input<typeof KernelInput>;

export const FieldRecheckOutput = z
  .object({
    basis_integral: z.array(z.boolean()),
    basis_discriminant: z.string().nullable(),
    isomorphism: z.boolean().nullable(),
    units: z.array(z.object({ integral: z.boolean(), norm: z.string(), unit: z.boolean() }).strict()),
    root_of_unity: z.boolean().nullable(),
  })
  .strict();
export type FieldRecheckOutput = z.infer<typeof FieldRecheckOutput>;

function read(texts: readonly string[]): Rational[] {
  return texts.map((text) => {
    const q = parseRational(text);
    if (q === null) throw new JacobianError('INTERNAL', `"${text.slice(0, 40)}" is not a rational number`);
    return q;
  });
}

export function fieldRecheckKernel(raw: unknown, ctx: KernelContext): FieldRecheckOutput {
  const input = KernelInput.parse(raw);
  const poll = (): void => {
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's budget ended while our exact recheck of PARI/GP's answer was running; nothing was concluded");
  };
  const T = read(input.monic);
  const basis = input.basis.map(read);
  const basisIntegral = basis.map((w) => unitCheck(w, T, poll).integral);
  const discriminant = basis.length === 0 || basisIntegral.includes(false) ? null : formatRational(basisDiscriminant(basis, T, poll));
  let isomorphism: boolean | null = null;
  if (input.reduced !== undefined && input.root_in_reduced !== undefined && input.reduced_root_in_field !== undefined) {
    const P = read(input.reduced);
    // T₁(b) ≡ 0 mod P is a ring map Q[x]/(T₁) → Q[z]/(P), injective (K is a field) between spaces of equal dimension: an isomorphism.
    isomorphism = P.length === T.length && qpolyIsZero(qpolyCompose(T, read(input.root_in_reduced), P)) && qpolyIsZero(qpolyCompose(P, read(input.reduced_root_in_field), T));
  }
  const units = input.units.map((u) => unitCheck(read(u), T, poll));
  const rootOfUnity = input.zeta === undefined || input.w === undefined ? null : isPrimitiveRootOfUnity(read(input.zeta), input.w, T);
  return { basis_integral: basisIntegral, basis_discriminant: discriminant, isomorphism, units, root_of_unity: rootOfUnity };
}
