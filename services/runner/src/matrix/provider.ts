/**
 * Our TypeScript linear algebra provider: the matrix capabilities and the exact engine they run
 * on, identified by the digest of these files and the shared matrix core.
 */
import { fileURLToPath } from 'node:url';
import { MATRIX_SOURCES, sourceProviderRuntime, type CapabilityDefinition, type ProviderProbe, type ProviderRuntime } from '@jacobian/shared';
import { RUNNER_VERSION } from '../version.js';
import { LINEAR_ALGEBRA_TS_PROVIDER, type MatrixBackendOptions } from './capability-support.js';
import { characteristicPolynomialCompute, minimalPolynomialCompute } from './characteristic-polynomial.js';
import { constructMatrix } from './construct-explicit.js';
import { determinantCompute } from './determinant.js';
import { eigenvaluesCompute } from './eigenvalues.js';
import { hermiteNormalFormCompute } from './hermite-normal-form.js';
import { inverseCompute } from './inverse.js';
import { latticeBasisReduce } from './lattice-basis-reduce.js';
import { latticeHermiteNormalFormCompute } from './lattice-hermite-normal-form.js';
import { linearSystemSolve } from './linear-system-solve.js';
import { nullspaceCompute } from './nullspace.js';
import { rationalCanonicalFormCompute } from './rational-canonical-form.js';
import { rankCompute } from './rank.js';
import { rrefCompute } from './rref.js';
import { smithNormalFormCompute } from './smith-normal-form.js';
import { sublatticeIndexCompute } from './sublattice-index.js';

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

export { LINEAR_ALGEBRA_TS_PROVIDER };

/** The files of that provider; its SOURCE_TREE digest covers them and the shared matrix core. */
export const LINEAR_ALGEBRA_TS_SOURCES: readonly string[] = [
  './provider.ts',
  './construct-explicit.ts',
  './capability-support.ts',
  './engine.ts',
  './linear-algebra.kernel.ts',
  './rank.ts',
  './determinant.ts',
  './rref.ts',
  './nullspace.ts',
  './inverse.ts',
  './linear-system-solve.ts',
  './normal-form-engine.ts',
  './normal-form.kernel.ts',
  './normal-form-support.ts',
  './hermite-normal-form.ts',
  './smith-normal-form.ts',
  './characteristic.ts',
  './characteristic.kernel.ts',
  './characteristic-polynomial.ts',
  './lattice-engine.ts',
  './lattice.kernel.ts',
  './lattice-support.ts',
  './lattice-basis-reduce.ts',
  './lattice-hermite-normal-form.ts',
  './sublattice-index.ts',
  './univariate-factor.ts',
  './frobenius.ts',
  './spectral.kernel.ts',
  './rational-canonical-form.ts',
  './eigenvalues.ts',
  './pari-backend.ts',
  '../providers/pari.ts',
].map(here);

const FEATURES = ['dense-matrices-Z-Q-GF(p)', 'matrix-construction', 'fraction-free-bareiss-elimination', 'rref', 'rank', 'determinant', 'kernels', 'inverse', 'linear-system-certificates', 'hermite-normal-form', 'smith-normal-form', 'characteristic-polynomial', 'minimal-polynomial', 'lll-reduction', 'lattice-hermite-basis', 'sublattice-index', 'rational-canonical-form', 'univariate-factorization', 'eigenvalues'];

/** The provider for registration; its probe measures the sources (no external tool). */
export function linearAlgebraTsProvider(): ProviderProbe {
  return {
    name: LINEAR_ALGEBRA_TS_PROVIDER,
    probe: () => sourceProviderRuntime({ provider: LINEAR_ALGEBRA_TS_PROVIDER, version: RUNNER_VERSION, files: [...LINEAR_ALGEBRA_TS_SOURCES, ...MATRIX_SOURCES], features: FEATURES }),
  };
}

/** How to build each matrix capability only this provider serves (each complete) for the probed runtime. */
export const MATRIX_CAPABILITY_FACTORIES: readonly ((runtime: ProviderRuntime) => CapabilityDefinition<never, unknown>)[] = [
  () => constructMatrix,
  rrefCompute,
  inverseCompute,
  linearSystemSolve,
  latticeHermiteNormalFormCompute,
  sublatticeIndexCompute,
  rationalCanonicalFormCompute,
  eigenvaluesCompute,
].map(
  (create) => create as (runtime: ProviderRuntime) => CapabilityDefinition<never, unknown>,
);

/**
 * The matrix capabilities PARI/GP serves too: registered with firstHealthyOf([pari, ours]), so
 * where gp passes its probe it serves them (its answers rechecked, see pari-backend.ts) and our
 * engine serves them everywhere else, under the same IDs and contracts.
 */
export const PARI_MATRIX_CAPABILITY_FACTORIES: readonly ((runtime: ProviderRuntime, options: MatrixBackendOptions) => CapabilityDefinition<never, unknown>)[] = [
  rankCompute,
  determinantCompute,
  nullspaceCompute,
  hermiteNormalFormCompute,
  smithNormalFormCompute,
  characteristicPolynomialCompute,
  minimalPolynomialCompute,
  latticeBasisReduce,
].map((create) => create as (runtime: ProviderRuntime, options: MatrixBackendOptions) => CapabilityDefinition<never, unknown>);
