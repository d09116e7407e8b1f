/**
 * The check behind sequence.recurrence.verify, with its own integer arithmetic and no code of
 * the producer: the relation of a C-finite or P-recursive recurrence is evaluated at every n of
 * the claimed range. Terms and coefficients are scaled to integers by the lcm of their
 * denominators (both relations are homogeneous in the terms and in the coefficients, so a
 * residual is zero exactly when the scaled one is), then every residual is an exact bigint.
 */
import { RecurrenceClaimSchema, type RecurrenceClaim } from '@jacobian/shared';

export const SequenceRejectionReason = {
  RELATION_FAILS: 'RELATION_FAILS',
} as const;

export type SequenceCheckResult =
  | { accepted: true; message: string }
  | { accepted: false; reason_code: 'RELATION_FAILS'; message: string; path: (string | number)[]; witness: string | null };

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** Fractions "p/q" or "p" read as [p, q]. */
function fraction(text: string): [bigint, bigint] {
  const slash = text.indexOf('/');
  return slash < 0 ? [BigInt(text), 1n] : [BigInt(text.slice(0, slash)), BigInt(text.slice(slash + 1))];
}

/** Integers proportional to the given fractions, by one common multiplier (the lcm of denominators). */
function scaled(texts: readonly string[]): { ints: bigint[]; scale: bigint } {
  const fs = texts.map(fraction);
  let scale = 1n;
  for (const [, q] of fs) scale = (scale / gcd(scale, q)) * q;
  return { ints: fs.map(([p, q]) => (p * scale) / q), scale };
}

/** Check the claim at every n from..to; reject at the first n where the relation fails. */
export function checkRecurrenceClaim(raw: unknown, checkpoint: () => void): SequenceCheckResult {
  const claim: RecurrenceClaim = RecurrenceClaimSchema.parse(raw);
  const { offset } = claim.sequence;
  const { ints: a, scale: termScale } = scaled(claim.sequence.terms);
  const rec = claim.recurrence;
  const term = (n: number): bigint => a[n - offset] as bigint;
  let coefficientScale: bigint;
  let residualAt: (n: number) => bigint;
  if (rec.kind === 'c-finite') {
    const { ints: c, scale } = scaled(rec.coefficients.map(String));
    coefficientScale = scale;
    residualAt = (n) => {
      let s = scale * term(n);
      for (let i = 0; i < c.length; i++) s -= (c[i] as bigint) * term(n - 1 - i);
      return s;
    };
  } else {
    const flat = scaled(rec.coefficients.flat().map(String));
    coefficientScale = flat.scale;
    let at = 0;
    const polys = rec.coefficients.map((p) => {
      const ints = flat.ints.slice(at, at + p.length);
      at += p.length;
      return ints;
    });
    residualAt = (n) => {
      const N = BigInt(n);
      let s = 0n;
      for (let i = 0; i < polys.length; i++) {
        const p = polys[i] as bigint[];
        let v = 0n;
        for (let k = p.length - 1; k >= 0; k--) v = v * N + (p[k] as bigint);
        if (v !== 0n) s += v * term(n - i);
      }
      return s;
    };
  }
  for (let n = claim.from; n <= claim.to; n++) {
    checkpoint();
    const r = residualAt(n);
    if (r !== 0n) {
      const den = termScale * coefficientScale;
      const g = gcd(r, den);
      const witness = den / g === 1n ? `${r / g}` : `${r / g}/${den / g}`;
      return {
        accepted: false,
        reason_code: 'RELATION_FAILS',
        message: `the relation fails at n = ${n}: its left side minus right side is ${witness.slice(0, 200)}, not 0`,
        path: ['sequence', 'terms', n - offset],
        witness: witness.slice(0, 2000),
      };
    }
  }
  return { accepted: true, message: `the relation holds at each of the ${claim.to - claim.from + 1} indices n = ${claim.from}..${claim.to}, exactly` };
}
