/**
 * Our TypeScript provider of the Diophantine pack, identified by the digest of these files, the
 * HNF/SNF engine they reuse from the linear algebra pack, and the shared contracts.
 */
import { fileURLToPath } from 'node:url';
import { DIOPHANTINE_SOURCES, sourceProviderRuntime, type ProviderProbe } from '@jacobian/shared';
import { RUNNER_VERSION } from '../../version.js';
import { DIOPHANTINE_TS_PROVIDER } from './support.js';

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

export { DIOPHANTINE_TS_PROVIDER };

export const DIOPHANTINE_TS_SOURCES: readonly string[] = [
  './provider.ts',
  './support.ts',
  './diophantine.kernel.ts',
  './continued-fraction.ts',
  './pell.ts',
  './quadratic-forms.ts',
  './integer-linear-system.ts',
  './continued-fraction-capability.ts',
  './pell-capability.ts',
  './linear-system-capability.ts',
  './quadratic-form-capabilities.ts',
  './class-group-capability.ts',
  '../../matrix/normal-form-engine.ts',
  '../../matrix/normal-form-modular.ts',
  '../../matrix/engine.ts',
].map(here);

export function diophantineTsProvider(): ProviderProbe {
  return {
    name: DIOPHANTINE_TS_PROVIDER,
    probe: () =>
      sourceProviderRuntime({
        provider: DIOPHANTINE_TS_PROVIDER,
        version: RUNNER_VERSION,
        files: [...DIOPHANTINE_TS_SOURCES, ...DIOPHANTINE_SOURCES],
        features: ['continued-fractions', 'pell-equation', 'integer-linear-systems', 'binary-quadratic-forms', 'imaginary-class-groups'],
      }),
  };
}
