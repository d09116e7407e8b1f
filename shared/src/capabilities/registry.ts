import type { CapabilityDefinition, InstalledCapability } from './define.js';
import { installCapability } from './define.js';
import type { ProviderRuntime } from '../contracts/provider.js';
import { ProviderRuntimeSchema } from '../contracts/provider.js';
import { checkerIdentity } from '../providers/source-runtime.js';
import { JacobianError, toAppError } from '../errors.js';

/** A provider that must prove itself healthy at start before its capabilities register. */
export interface ProviderProbe {
  readonly name: string;
  probe(signal?: AbortSignal): Promise<ProviderRuntime>;
}

/** One capability and the provider that serves it. */
export interface CapabilityRegistration {
  readonly provider: ProviderProbe;
  create(runtime: ProviderRuntime): CapabilityDefinition<unknown, unknown>;
}

/**
 * Pair a provider with a typed capability factory. Definitions of different input and output
 * types sit in one list, so their types are erased here; the host parses every input with the
 * definition's own schema before `run`, which is what makes the erasure safe.
 */
export function capabilityRegistration<I, O>(
  provider: ProviderProbe,
  create: (runtime: ProviderRuntime) => CapabilityDefinition<I, O>,
): CapabilityRegistration {
  return { provider, create: (runtime) => create(runtime) };
}

export interface UnavailableProvider {
  provider: string;
  reason: string;
}

export interface RegistrationReport {
  installed: InstalledCapability[];
  unavailable: UnavailableProvider[];
}

/**
 * Probe each provider once, then install the capabilities of the healthy ones (fail closed:
 * an unhealthy provider's capabilities are simply absent). A descriptor that is itself
 * wrong, such as an example its schema rejects, is our bug and stops registration.
 */
export async function registerCapabilities(
  registrations: readonly CapabilityRegistration[],
  signal?: AbortSignal,
): Promise<RegistrationReport> {
  const probes = new Map<string, Promise<ProviderRuntime>>();
  for (const { provider } of registrations) {
    if (!probes.has(provider.name)) {
      probes.set(
        provider.name,
        provider.probe(signal).then((runtime) => ProviderRuntimeSchema.parse(runtime)),
      );
    }
  }
  const runtimes = new Map<string, ProviderRuntime>();
  const unavailable: UnavailableProvider[] = [];
  for (const [name, probe] of probes) {
    try {
      runtimes.set(name, await probe);
    } catch (error) {
      unavailable.push({ provider: name, reason: toAppError(error).message });
    }
  }
  const installed: InstalledCapability[] = [];
  const ids = new Set<string>();
  for (const registration of registrations) {
    const runtime = runtimes.get(registration.provider.name);
    if (runtime === undefined) continue;
    const definition = registration.create(runtime);
    if (ids.has(definition.id)) {
      throw new JacobianError('REGISTRATION_INVALID', `capability ${definition.id} is registered twice`);
    }
    ids.add(definition.id);
    const checker = definition.checker === undefined ? null : await checkerIdentity(definition.checker);
    installed.push(installCapability(definition, runtime, checker));
  }
  return { installed, unavailable };
}
