import type { ProviderProbe } from '../capabilities/registry.js';
import type { ProviderRuntime } from '../contracts/provider.js';

/** A provider whose health check the test ends (see {@link slowCheckProvider}). */
export interface SlowCheckProvider {
  readonly provider: ProviderProbe;
  /** How many times it was probed. */
  readonly probes: { count: number };
  /** The check passes: the probe answers `runtime`. */
  pass(): void;
  /** The check fails: the probe rejects with `error`. */
  fail(error: Error): void;
}

/**
 * A provider in a slow health check, as z3-solver's is at a cold start: its probe says at once
 * that it is checking (ProviderProbe.checking), and ends only when the test passes or fails it,
 * so that what happens while it is pending is tested without timing.
 */
export function slowCheckProvider(runtime: ProviderRuntime): SlowCheckProvider {
  let startChecking: () => void = () => undefined;
  const checking = new Promise<void>((resolve) => (startChecking = resolve));
  let pass: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const ended = new Promise<ProviderRuntime>((resolve, reject) => {
    pass = () => resolve(runtime);
    fail = reject;
  });
  const probes = { count: 0 };
  return {
    provider: {
      name: runtime.provider,
      checking,
      probe: () => {
        probes.count++;
        startChecking();
        return ended;
      },
    },
    probes,
    pass,
    fail,
  };
}
