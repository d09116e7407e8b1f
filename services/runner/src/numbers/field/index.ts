/**
 * Number fields and elliptic curves over Q, on PARI/GP only: registered with the PARI/GP probe
 * (fail closed: absent when gp is missing or fails its health check).
 */
import type { CapabilityRegistration, ProviderProbe } from '@jacobian/shared';
import { capabilityRegistration } from '@jacobian/shared';
import { ellipticInvariants, ellipticRankBound, ellipticTorsion } from './elliptic-curve.js';
import { numberFieldClassGroup, numberFieldInvariants } from './number-field.js';
import type { PariBackendOptions } from './support.js';

/** Every capability of this pack, on the PARI/GP probe `pari` (whose tools the runs use). */
export function numberFieldRegistrations(pari: ProviderProbe & NonNullable<PariBackendOptions['pari']>): CapabilityRegistration[] {
  const options: PariBackendOptions = { pari };
  return [
    capabilityRegistration(pari, (runtime) => numberFieldInvariants(runtime, options)),
    capabilityRegistration(pari, (runtime) => numberFieldClassGroup(runtime, options)),
    capabilityRegistration(pari, (runtime) => ellipticInvariants(runtime, options)),
    capabilityRegistration(pari, (runtime) => ellipticTorsion(runtime, options)),
    capabilityRegistration(pari, (runtime) => ellipticRankBound(runtime, options)),
  ];
}
