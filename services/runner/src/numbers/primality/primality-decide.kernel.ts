/**
 * The isolated part of integer.primality.decide: n crossed the process boundary as decimal text
 * and is read again here. A prime gets a certificate from certifyPrime (replayed before it leaves);
 * a composite gets a witness: a factor from trial division below 10^4, else the first base below
 * 1000 to which n is not a strong probable prime, else a factor from Brent's rho.
 */
import { DETERMINISTIC_MR_BOUND, isProbablePrimeBpsw, isStrongProbablePrime, JacobianError, pollardRhoBrent, smallPrimes, type CompositenessWitness, type KernelContext, type PrimalityCertificate } from '@jacobian/shared';
import type { PariTools } from '../../providers/pari.js';
import { certifyPrime } from './certify.js';
import { isPrimeBelowBound } from './replay.js';

export interface DecidePrimalityKernelInput {
  n: string;
  /** gp's tools when PARI/GP serves (ECPP); null for small and Pratt only. */
  pari: PariTools | null;
  memoryMb?: number | undefined;
}

export type DecidePrimalityKernelOutput =
  | { verdict: 'PRIME'; certificate: PrimalityCertificate; ms: number }
  | { verdict: 'COMPOSITE'; witness: CompositenessWitness; ms: number };

const TRIAL = smallPrimes(10_000).map(BigInt);

function compositenessWitness(n: bigint, ctx: KernelContext): CompositenessWitness {
  for (const p of TRIAL) {
    if (p * p > n) break;
    if (n % p === 0n) return { kind: 'factor', factor: p.toString() };
  }
  for (let a = 2n; a < 1000n && a <= n - 2n; a++) if (!isStrongProbablePrime(n, a)) return { kind: 'base', base: a.toString() };
  const d = pollardRhoBrent(n, { deadline: ctx.deadline, signal: ctx.signal });
  if (d !== null && d > 1n && d < n) return { kind: 'factor', factor: d.toString() };
  throw new JacobianError('EXECUTION_TIMEOUT', 'n failed Baillie–PSW, but no witness (a factor or a Miller–Rabin base below 1000) was found within the budget');
}

export async function decidePrimalityKernel(input: DecidePrimalityKernelInput, ctx: KernelContext): Promise<DecidePrimalityKernelOutput> {
  const started = Date.now();
  const n = BigInt(input.n);
  if (n < 2n) throw new JacobianError('INTERNAL', 'decidePrimalityKernel needs n ≥ 2');
  const prime = n < DETERMINISTIC_MR_BOUND ? isPrimeBelowBound(n) : isProbablePrimeBpsw(n);
  if (!prime) return { verdict: 'COMPOSITE', witness: compositenessWitness(n, ctx), ms: Date.now() - started };
  const certificate = await certifyPrime(n, { pari: input.pari ?? undefined, deadline: ctx.deadline, signal: ctx.signal, memoryMb: input.memoryMb });
  return { verdict: 'PRIME', certificate, ms: Date.now() - started };
}
