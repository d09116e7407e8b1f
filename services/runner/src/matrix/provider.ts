/**
 * Our TypeScript linear algebra provider: the matrix capabilities and the exact engine they run
 * on, identified by the digest of these files and the shared matrix core.
 */
import { fileURLToPath } from 'node:url';
import { MATRIX_SOURCES, sourceProviderRuntime, type CapabilityDefinition, type ProviderProbe } from '@jacobian/shared';
import { RUNNER_VERSION } from '../version.js';
import { constructMatrix } from './construct-explicit.js';

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

export const LINEAR_ALGEBRA_TS_PROVIDER = 'jacobian-linear-algebra-ts';

/** The files of that provider; its SOURCE_TREE digest covers them and the shared matrix core. */
export const LINEAR_ALGEBRA_TS_SOURCES: readonly string[] = [here('./provider.ts'), here('./construct-explicit.ts')];

const FEATURES = ['dense-matrices-Z-Q-GF(p)', 'matrix-construction'];

/** The provider for registration; its probe measures the sources (no external tool). */
export function linearAlgebraTsProvider(): ProviderProbe {
  return {
    name: LINEAR_ALGEBRA_TS_PROVIDER,
    probe: () => sourceProviderRuntime({ provider: LINEAR_ALGEBRA_TS_PROVIDER, version: RUNNER_VERSION, files: [...LINEAR_ALGEBRA_TS_SOURCES, ...MATRIX_SOURCES], features: FEATURES }),
  };
}

/** Every matrix capability this provider serves, each complete. */
export const MATRIX_CAPABILITIES: readonly CapabilityDefinition<never, unknown>[] = [constructMatrix as CapabilityDefinition<never, unknown>];
