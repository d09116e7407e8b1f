/** The counting capabilities, in catalog order, and the files their provider's identity covers. */
import { capabilityRegistration, type CapabilityRegistration, type ProviderProbe } from '@jacobian/shared';
import { binomialCompute } from './binomial.js';
import { compositionCount } from './composition.js';
import { countingNumberCompute } from './number.js';
import { partitionCount } from './partition.js';
import { stirlingCompute } from './stirling.js';

export const COUNTING_TS_PROVIDER = 'jacobian-combinatorics-ts';

export const COUNTING_TS_FILES = ['./combinatorics/counting.ts', './combinatorics/support.ts', './combinatorics/binomial.ts', './combinatorics/stirling.ts', './combinatorics/number.ts', './combinatorics/partition.ts', './combinatorics/composition.ts'];

/** The five counting capabilities, each served by `provider` (our TypeScript). */
export function countingRegistrations(provider: ProviderProbe): CapabilityRegistration[] {
  return [
    capabilityRegistration(provider, () => binomialCompute),
    capabilityRegistration(provider, () => stirlingCompute),
    capabilityRegistration(provider, () => countingNumberCompute),
    capabilityRegistration(provider, () => partitionCount),
    capabilityRegistration(provider, () => compositionCount),
  ];
}
