/**
 * Requests about elliptic curves over Q and the claim the checker re-derives: the curve as
 * Weierstrass coefficients [a₁, a₂, a₃, a₄, a₆] (integers or fractions, validated and required
 * non-singular), rational points with their orders, a torsion subgroup with its generators (and,
 * optionally, the odd primes of good reduction whose point counts bound it), and a change of
 * variables to another model.
 */
import { z } from 'zod';
import { JacobianError } from '../../errors.js';
import { curveInvariants, formatRational, MAZUR_MAX_ORDER, parseRational, qIsZero, rationalTextSchema, type CurvePoint, type ModelChange, type Rational, type Weierstrass } from './elliptic.js';

export const ELLIPTIC_CURVE_LIMITS = {
  /** Digits of each numerator and denominator of a coefficient or coordinate. */
  maxDigits: 400,
  maxPoints: 32,
  /** Primes of a torsion bound, each below maxBoundPrime. */
  maxBoundPrimes: 40,
  maxBoundPrime: 2000,
} as const;

export const ELLIPTIC_CURVE_CLAIM_SCHEMA_URI = 'jacobian:schema/elliptic_curve.claim/v1';
export const ELLIPTIC_CURVE_CLAIM_SEMANTICS_URI = 'jacobian:semantics/elliptic_curve.claim/v1';

const Number_ = rationalTextSchema(ELLIPTIC_CURVE_LIMITS.maxDigits);

export const WeierstrassInputSchema = z
  .array(Number_)
  .length(5, { message: 'five coefficients [a1, a2, a3, a4, a6] (rule: weierstrass-length)' })
  .describe('[a1, a2, a3, a4, a6] of y² + a1·xy + a3·y = x³ + a2·x² + a4·x + a6, each an integer or a fraction "p/q"');

export const PointInputSchema = z.array(Number_).length(2, { message: 'a point is [x, y] (rule: point-length)' }).describe('an affine rational point [x, y]');

export const PointOrderSchema = z.union([z.number().int().min(1).max(MAZUR_MAX_ORDER), z.literal('infinite')]);

export const ModelChangeInputSchema = z
  .object({ u: Number_, r: Number_, s: Number_, t: Number_ })
  .strict()
  .describe('x = u²x′ + r, y = u³y′ + s·u²x′ + t (u ≠ 0), as PARI/GP\'s ellchangecurve');

export const EllipticCurveClaimSchema = z
  .object({
    curve: WeierstrassInputSchema,
    points: z
      .array(z.object({ point: PointInputSchema, order: PointOrderSchema.describe('the exact order, or "infinite" (no multiple up to 12 is O: infinite by Mazur\'s theorem)') }).strict())
      .max(ELLIPTIC_CURVE_LIMITS.maxPoints)
      .default([])
      .describe('rational points on the curve with their orders'),
    torsion: z
      .object({
        structure: z.array(z.number().int().min(1).max(MAZUR_MAX_ORDER)).max(2).describe('the invariants [n₂] or [n₂, n₁] (n₁ | n₂) of Z/n₂ × Z/n₁; [] for the trivial group'),
        generators: z.array(PointInputSchema).max(2).describe('one generator per invariant, of that order'),
        bound_primes: z
          .array(z.number().int().min(3).max(ELLIPTIC_CURVE_LIMITS.maxBoundPrime))
          .max(ELLIPTIC_CURVE_LIMITS.maxBoundPrimes)
          .optional()
          .describe('odd primes of good reduction of this model whose point counts #Ẽ(F_p) have gcd equal to the group order: then the subgroup is the whole torsion subgroup'),
      })
      .strict()
      .optional(),
    model_change: z.object({ change: ModelChangeInputSchema, model: WeierstrassInputSchema.describe('the coefficients of the curve in the new variables') }).strict().optional(),
  })
  .strict();
export type EllipticCurveClaimInput = z.input<typeof EllipticCurveClaimSchema>;
export type EllipticCurveClaim = z.output<typeof EllipticCurveClaimSchema>;

const read = (text: string): Rational => {
  const q = parseRational(text);
  if (q === null) throw new JacobianError('INTERNAL', `"${text.slice(0, 40)}" is not a canonical rational number`);
  return q;
};

/** The curve of canonical coefficient texts. */
export const weierstrassOf = (texts: readonly string[]): Weierstrass => texts.map(read) as unknown as Weierstrass;
export const pointOf = (texts: readonly string[]): CurvePoint => ({ x: read(texts[0] as string), y: read(texts[1] as string) });
export const pointText = (P: CurvePoint): [string, string] | null => (P === null ? null : [formatRational(P.x), formatRational(P.y)]);
export const modelChangeOf = (change: { u: string; r: string; s: string; t: string }): ModelChange => ({ u: read(change.u), r: read(change.r), s: read(change.s), t: read(change.t) });

/**
 * The curve of a request, required non-singular (Δ ≠ 0, exactly).
 *
 * @throws JacobianError INVALID_REQUEST naming the field and the rule `non-singular`.
 */
export function requireEllipticCurve(texts: readonly string[], path: (string | number)[]): Weierstrass {
  const a = weierstrassOf(texts);
  if (qIsZero(curveInvariants(a).discriminant)) {
    throw new JacobianError('INVALID_REQUEST', `${path.join('.')}: the Weierstrass equation [${texts.join(', ')}] is singular (discriminant 0), so it is not an elliptic curve (rule non-singular)`, {
      path,
      data: { rule: 'non-singular' },
      hint: 'an elliptic curve needs Δ ≠ 0; e.g. y² = x³ − x is [0, 0, 0, -1, 0]',
    });
  }
  return a;
}
