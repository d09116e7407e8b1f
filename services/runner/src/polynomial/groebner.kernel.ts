/**
 * The isolated part of `polynomial.groebner_basis.compute` (TypeScript provider): parse the
 * request's ring and generator texts again (they crossed a process boundary as JSON), run
 * {@link groebnerBasis}, and return the basis in canonical JSON. The computation is synchronous;
 * it polls the deadline through the engine's checkpoint and stops with EXECUTION_TIMEOUT.
 */
import { JacobianError, parsePolynomials, polynomialToJson, resolveRing, ringSpecOf, type KernelContext, type PolynomialJson, type RingSpec } from '@jacobian/shared';
import { groebnerBasis, type GroebnerStats, type ModularTrace } from './groebner.js';

/** Input of {@link groebnerBasisKernel}: the request's own ring and generator texts. */
export interface GroebnerKernelInput {
  ring: unknown;
  generators: string[];
  cofactors: boolean;
}

/** Output of {@link groebnerBasisKernel}: the claim's polynomials in canonical JSON. */
export interface GroebnerKernelOutput {
  ring: RingSpec;
  generators: PolynomialJson[];
  basis: PolynomialJson[];
  cofactors?: PolynomialJson[][];
  stats: GroebnerStats;
  /** Over Q, when the run was steered by a modular trace. */
  trace?: ModularTrace;
}

export function groebnerBasisKernel(input: GroebnerKernelInput, ctx: KernelContext): GroebnerKernelOutput {
  const ring = resolveRing(input.ring, ['payload', 'ring']);
  const generators = parsePolynomials(ring, input.generators, { path: ['payload', 'generators'] });
  const checkpoint = (): void => {
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) {
      throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the Groebner basis was complete; nothing was concluded");
    }
  };
  const result = groebnerBasis(ring, generators, { cofactors: input.cofactors, checkpoint });
  return {
    ring: ringSpecOf(ring),
    generators: generators.map((g) => polynomialToJson(ring, g)),
    basis: result.basis.map((b) => polynomialToJson(ring, b)),
    ...(result.cofactors === undefined ? {} : { cofactors: result.cofactors.map((row) => row.map((c) => polynomialToJson(ring, c))) }),
    stats: result.stats,
    ...(result.trace === undefined ? {} : { trace: result.trace }),
  };
}
