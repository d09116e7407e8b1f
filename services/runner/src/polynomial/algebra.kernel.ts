/**
 * The isolated parts of the TypeScript providers of polynomial.gcd.compute,
 * polynomial.resultant.compute and polynomial.ideal_membership.decide: the request's ring and
 * polynomial texts crossed a process boundary as JSON and are parsed again here; the work polls
 * the deadline and stops with EXECUTION_TIMEOUT (nothing concluded).
 */
import { JacobianError, parsePolynomial, parsePolynomials, polynomialFromJson, polynomialToJson, resolveRing, type KernelContext, type PolynomialJson } from '@jacobian/shared';
import { membershipFromBasis, polynomialGcd, polynomialResultant, type GcdMethod } from './algebra.js';
import { groebnerBasis } from './groebner.js';

function deadlineCheck(ctx: KernelContext, what: string): () => void {
  let calls = 0;
  return () => {
    if (calls++ % 8 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', `the run's wall-time budget ended before the ${what} was complete; nothing was concluded`);
  };
}

export function gcdKernel(input: { ring: unknown; polynomials: string[] }, ctx: KernelContext): { gcd: PolynomialJson; method: GcdMethod } {
  const ring = resolveRing(input.ring, ['payload', 'ring']);
  const polynomials = parsePolynomials(ring, input.polynomials, { path: ['payload', 'polynomials'] });
  const { gcd, method } = polynomialGcd(ring, polynomials, deadlineCheck(ctx, 'gcd'));
  return { gcd: polynomialToJson(ring, gcd), method };
}

export function resultantKernel(input: { ring: unknown; f: string; g: string; variable: number }, ctx: KernelContext): { resultant: PolynomialJson } {
  const ring = resolveRing(input.ring, ['payload', 'ring']);
  const f = parsePolynomial(ring, input.f, { path: ['payload', 'f'] });
  const g = parsePolynomial(ring, input.g, { path: ['payload', 'g'] });
  return { resultant: polynomialToJson(ring, polynomialResultant(ring, f, g, input.variable, deadlineCheck(ctx, 'resultant'))) };
}

/** Output of {@link membershipKernel}: the basis with cofactors, and the verdict's certificate. */
export interface MembershipKernelOutput {
  basis: PolynomialJson[];
  basis_cofactors: PolynomialJson[][];
  cofactors: PolynomialJson[] | null;
  remainder: PolynomialJson | null;
}

/**
 * The certificate from a basis computed elsewhere (Singular's std and lift): f divided by the
 * basis, and for a member its cofactors over the generators. Here, not in the runner's own
 * process, so that the division polls the deadline without blocking other runs.
 */
export function membershipFromBasisKernel(
  input: { ring: unknown; polynomial: string; generator_count: number; basis: PolynomialJson[]; basis_cofactors: PolynomialJson[][] },
  ctx: KernelContext,
): Pick<MembershipKernelOutput, 'cofactors' | 'remainder'> {
  const ring = resolveRing(input.ring, ['payload', 'ring']);
  const f = parsePolynomial(ring, input.polynomial, { path: ['payload', 'polynomial'] });
  const basis = input.basis.map((p, i) => polynomialFromJson(ring, p, ['basis', i]));
  const rows = input.basis_cofactors.map((row, i) => row.map((p, j) => polynomialFromJson(ring, p, ['basis_cofactors', i, j])));
  const decided = membershipFromBasis(ring, f, input.generator_count, basis, rows, deadlineCheck(ctx, 'membership certificate'));
  return decided.member ? { cofactors: decided.cofactors.map((p) => polynomialToJson(ring, p)), remainder: null } : { cofactors: null, remainder: polynomialToJson(ring, decided.remainder) };
}

export function membershipKernel(input: { ring: unknown; generators: string[]; polynomial: string }, ctx: KernelContext): MembershipKernelOutput {
  const ring = resolveRing(input.ring, ['payload', 'ring']);
  const generators = parsePolynomials(ring, input.generators, { path: ['payload', 'generators'] });
  const f = parsePolynomial(ring, input.polynomial, { path: ['payload', 'polynomial'] });
  const checkpoint = deadlineCheck(ctx, 'membership decision');
  const { basis, cofactors } = groebnerBasis(ring, generators, { cofactors: true, checkpoint: () => checkpoint() });
  const rows = cofactors ?? [];
  const decided = membershipFromBasis(ring, f, generators.length, basis, rows, checkpoint);
  const json = (p: Parameters<typeof polynomialToJson>[1]): PolynomialJson => polynomialToJson(ring, p);
  return {
    basis: basis.map(json),
    basis_cofactors: rows.map((row) => row.map(json)),
    cofactors: decided.member ? decided.cofactors.map(json) : null,
    remainder: decided.member ? null : json(decided.remainder),
  };
}
