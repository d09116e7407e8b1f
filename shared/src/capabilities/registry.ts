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
  /**
   * For a provider whose health check is slow (z3-solver's instantiates a WASM module in a new
   * pool child): resolves when its probe starts (or joins) a check that is not remembered from
   * an earlier start. Registration may then go on without it (see {@link RegistrationOptions.defer});
   * a check remembered is quick and always awaited. Its capabilities must declare their IDs
   * ({@link capabilityRegistration}'s `ids`), so that a run of one can wait for the check.
   */
  readonly checking?: Promise<void>;
}

/** One capability and the provider that serves it. */
export interface CapabilityRegistration {
  readonly provider: ProviderProbe;
  create(runtime: ProviderRuntime): CapabilityDefinition<unknown, unknown>;
  /** The IDs `create` may give (required with a provider that has `checking`; checked at registration). */
  readonly ids?: readonly string[];
}

/**
 * Pair a provider with a typed capability factory. Definitions of different input and output
 * types sit in one list, so their types are erased here; the host parses every input with the
 * definition's own schema before `run`, which is what makes the erasure safe.
 */
export function capabilityRegistration<I, O>(
  provider: ProviderProbe,
  create: (runtime: ProviderRuntime) => CapabilityDefinition<I, O>,
  options: { ids?: readonly string[] } = {},
): CapabilityRegistration {
  return { provider, create: (runtime) => create(runtime), ...(options.ids === undefined ? {} : { ids: options.ids }) };
}

export interface UnavailableProvider {
  provider: string;
  reason: string;
}

/** How a provider still being checked at start-up ended (see {@link PendingProvider}). */
export type PendingOutcome = { provider: string; installed: InstalledCapability[] } | { provider: string; unavailable: UnavailableProvider };

/**
 * A provider still in a slow health check when every other probe had ended. Its capabilities
 * are absent until it passes; if it fails they never register (fail closed).
 */
export interface PendingProvider {
  readonly provider: string;
  /** The capabilities it registers when its check passes. */
  readonly capability_ids: readonly string[];
  /** Settles (never rejects) when its probe ends: its installed capabilities, or why it is unavailable. */
  readonly settled: Promise<PendingOutcome>;
}

export interface RegistrationReport {
  installed: InstalledCapability[];
  unavailable: UnavailableProvider[];
  /** Providers still being checked (only with {@link RegistrationOptions.defer}). */
  pending: PendingProvider[];
}

export interface RegistrationOptions {
  signal?: AbortSignal;
  /**
   * Answer once every probe has ended or is in a slow health check (see
   * {@link ProviderProbe.checking}): such a provider is reported pending, and its capabilities
   * are installed when it passes. Without it, every probe is awaited.
   */
  defer?: boolean;
}

/**
 * Probe each provider once, then install the capabilities of the healthy ones (fail closed:
 * an unhealthy provider's capabilities are simply absent). A descriptor that is itself
 * wrong, such as an example its schema rejects, is our bug and stops registration (of a
 * pending provider: it is reported unavailable, with that reason).
 */
export async function registerCapabilities(
  registrations: readonly CapabilityRegistration[],
  signalOrOptions?: AbortSignal | RegistrationOptions,
): Promise<RegistrationReport> {
  const options: RegistrationOptions = signalOrOptions instanceof AbortSignal ? { signal: signalOrOptions } : (signalOrOptions ?? {});
  const probes = new Map<string, { probe: Promise<ProviderRuntime>; deferred: boolean }>();
  for (const { provider, ids } of registrations) {
    if (provider.checking !== undefined && options.defer === true && ids === undefined) {
      throw new JacobianError('REGISTRATION_INVALID', `a capability of ${provider.name}, whose check may be deferred, does not declare its IDs`);
    }
    if (!probes.has(provider.name)) probes.set(provider.name, { probe: provider.probe(options.signal).then((runtime) => ProviderRuntimeSchema.parse(runtime)), deferred: false });
  }
  // Each probe ends, or (deferring) starts a slow check first: then it is deferred.
  await Promise.all(
    [...probes].map(async ([name, entry]) => {
      const checking = registrations.find((registration) => registration.provider.name === name)?.provider.checking;
      const ended = entry.probe.then(
        () => false,
        () => false,
      );
      entry.deferred = options.defer === true && checking !== undefined ? await Promise.race([ended, checking.then(() => true)]) : await ended;
    }),
  );

  const ids = new Set<string>();
  const installOne = async (registration: CapabilityRegistration, runtime: ProviderRuntime): Promise<InstalledCapability> => {
    const definition = registration.create(runtime);
    if (registration.ids !== undefined && !registration.ids.includes(definition.id)) {
      throw new JacobianError('REGISTRATION_INVALID', `capability ${definition.id} is not among the IDs its registration declares (${registration.ids.join(', ')})`);
    }
    if (ids.has(definition.id)) {
      throw new JacobianError('REGISTRATION_INVALID', `capability ${definition.id} is registered twice`);
    }
    ids.add(definition.id);
    const checker = definition.checker === undefined ? null : await checkerIdentity(definition.checker);
    return installCapability(definition, runtime, checker);
  };
  const ofProvider = (name: string): CapabilityRegistration[] => registrations.filter((registration) => registration.provider.name === name);

  const runtimes = new Map<string, ProviderRuntime>();
  const unavailable: UnavailableProvider[] = [];
  const pending: PendingProvider[] = [];
  for (const [name, entry] of probes) {
    if (entry.deferred) {
      const settled = entry.probe.then(
        async (runtime): Promise<PendingOutcome> => {
          try {
            const installed: InstalledCapability[] = [];
            for (const registration of ofProvider(name)) installed.push(await installOne(registration, runtime));
            return { provider: name, installed };
          } catch (error) {
            return { provider: name, unavailable: { provider: name, reason: toAppError(error).message } };
          }
        },
        (error: unknown): PendingOutcome => ({ provider: name, unavailable: { provider: name, reason: toAppError(error).message } }),
      );
      pending.push({ provider: name, capability_ids: [...new Set(ofProvider(name).flatMap((registration) => registration.ids ?? []))], settled });
      continue;
    }
    try {
      runtimes.set(name, await entry.probe);
    } catch (error) {
      unavailable.push({ provider: name, reason: toAppError(error).message });
    }
  }
  const installed: InstalledCapability[] = [];
  for (const registration of registrations) {
    const runtime = runtimes.get(registration.provider.name);
    if (runtime !== undefined) installed.push(await installOne(registration, runtime));
  }
  return { installed, unavailable, pending };
}
