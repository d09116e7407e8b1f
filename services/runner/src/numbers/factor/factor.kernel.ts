/**
 * The isolated part of integer.factor.compute and of the arithmetic functions built on a
 * factorization: n crossed the process boundary as decimal text and is read again here; the
 * split (PARI/GP's factor or our engine) and every certificate run here under the deadline.
 */
import { JacobianError, type KernelContext, type PrimalityCertificate } from '@jacobian/shared';
import type { PariTools } from '../../providers/pari.js';
import { certifiedFactorization } from './certified.js';
import type { FactorStats } from './factor.js';

export interface FactorKernelInput {
  n: string;
  pari: PariTools | null;
  memoryMb?: number | undefined;
}

/** The certified factorization as JSON (integers as decimal text). */
export interface FactorKernelOutput {
  factors: { prime: string; exponent: number; certificate: PrimalityCertificate | null }[];
  composites: { value: string; exponent: number }[];
  source: 'PARI' | 'OURS';
  stats: FactorStats | null;
  factor_ms: number;
  certify_ms: number;
}

export async function factorKernel(input: FactorKernelInput, ctx: KernelContext): Promise<FactorKernelOutput> {
  if (!/^[1-9][0-9]*$/.test(input.n)) throw new JacobianError('INTERNAL', 'factorKernel needs a positive integer');
  const result = await certifiedFactorization(BigInt(input.n), { pari: input.pari, deadline: ctx.deadline, signal: ctx.signal, memoryMb: input.memoryMb });
  return {
    factors: result.factors.map((f) => ({ prime: f.prime.toString(), exponent: f.exponent, certificate: f.certificate })),
    composites: result.composites.map((c) => ({ value: c.value.toString(), exponent: c.exponent })),
    source: result.source,
    stats: result.stats,
    factor_ms: result.factor_ms,
    certify_ms: result.certify_ms,
  };
}
