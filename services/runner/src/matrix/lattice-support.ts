/**
 * What the lattice capabilities share: the isolated kernel call and the methods they state.
 */
import { fileURLToPath } from 'node:url';
import { JacobianError, runKernel, type CapabilityContext } from '@jacobian/shared';
import { LatticeKernelOutput, type LatticeKernelInput } from './lattice.kernel.js';

const KERNEL = { module: fileURLToPath(new URL('./lattice.kernel.ts', import.meta.url)), exportName: 'latticeKernel' };

export const LLL_METHOD = 'integral LLL (de Weger; Cohen Algorithm 2.6.7): Gram determinants d_i and λ_{i,j} = d_{j+1} μ_{i,j} kept as big integers, exact Lovász test with the rational δ; dependent generators first through their Hermite basis (U₁ B = [H; 0]), the relation rows of U LLL-reduced and its basis rows reduced against them (nearest plane)';
export const HERMITE_BASIS_METHOD = 'row-style Hermite normal form by unimodular extended-gcd row operations on big integers (modulo the lattice determinant for full column rank)';
export const INDEX_METHOD = 'the Hermite basis of L; each generator of L′ written in it by back-substitution (integrality at each pivot is membership); the Smith normal form of those coordinates gives L / L′';

/** Run one lattice operation in the isolated kernel; the answer is parsed, and must be of that operation, before it is used. */
export async function runLattice<K extends LatticeKernelInput['operation']>(
  context: CapabilityContext,
  input: LatticeKernelInput & { operation: K },
): Promise<{ output: Extract<LatticeKernelOutput, { operation: K }>; ms: number }> {
  const started = Date.now();
  const output = LatticeKernelOutput.parse(await runKernel(context, KERNEL, input));
  if (output.operation !== input.operation) throw new JacobianError('INTERNAL', `the lattice kernel answered ${output.operation} to ${input.operation}`);
  return { output: output as Extract<LatticeKernelOutput, { operation: K }>, ms: Date.now() - started };
}
