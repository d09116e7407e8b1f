/**
 * Number fields and elliptic curves over Q, on PARI/GP only: registered with the PARI/GP probe
 * (fail closed: absent when gp is missing or fails its health check).
 */
import type { CapabilityDefinition, ProviderRuntime } from '@jacobian/shared';
import { ELLIPTIC_CURVE_FACTORIES } from './elliptic-curve.js';
import { numberFieldClassGroup, numberFieldInvariants } from './number-field.js';
import type { PariBackendOptions } from './support.js';

export type NumberFieldFactory = (runtime: ProviderRuntime, options: PariBackendOptions) => CapabilityDefinition<never, unknown>;

export const NUMBER_FIELD_CAPABILITY_FACTORIES: readonly NumberFieldFactory[] = [numberFieldInvariants, numberFieldClassGroup, ...ELLIPTIC_CURVE_FACTORIES];
