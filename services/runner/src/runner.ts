import {
  capabilityRegistration,
  errorDiagnostic,
  executeCapability,
  GRAPH_CONTRACT_SOURCE,
  GRAPH_FORMATS_SOURCE,
  GRAPH_OPERAND_SOURCE,
  GRAPH_WITNESS_SOURCE,
  JacobianError,
  nonConclusionResult,
  registerCapabilities,
  sourceProviderRuntime,
  type AdmittedRun,
  type ArtifactStore,
  type CapabilityRegistration,
  type CapabilityResult,
  type ProgressListener,
  type InstalledCapability,
  type IsolatedExecutor,
  type ProviderProbe,
  type RegistrationReport,
} from '@jacobian/shared';
import { fileURLToPath } from 'node:url';
import { artifactPut } from './artifact/put.js';
import { constructExplicit } from './graph/construct-explicit.js';
import { GRAPH_INVARIANTS } from './graph/invariants.js';
import { maximumInducedTree } from './graph/maximum-induced-tree.js';
import { probeZ3Provider } from './providers/z3.js';
import { RUNNER_VERSION } from './version.js';

const sourceFile = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** Our own TypeScript: identity is the digest of the files that implement these capabilities. */
function typescriptProvider(name: string, files: string[], features: string[], sharedFiles: string[] = []): ProviderProbe {
  return {
    name,
    probe: () =>
      sourceProviderRuntime({ provider: name, version: RUNNER_VERSION, files: [...files.map(sourceFile), ...sharedFiles], features }),
  };
}

/** z3-solver, health-checked in a child of `executor` when one is given (see probeZ3Provider). */
function z3Provider(executor?: IsolatedExecutor): ProviderProbe {
  return { name: 'z3-solver', probe: () => probeZ3Provider(executor === undefined ? {} : { executor }) };
}

/** Our graph code: construction and the exact invariants, with the shared graph contract they accept. */
const GRAPH_TS_FILES = [
  './graph/construct-explicit.ts',
  './graph/invariant-capability.ts',
  './graph/invariants.ts',
  './graph/invariants.kernel.ts',
  './graph/invariants/search.ts',
  './graph/invariants/clique.ts',
  './graph/invariants/colouring.ts',
  './graph/invariants/domination.ts',
  './graph/invariants/matching.ts',
  './graph/invariants/connectivity.ts',
  './graph/invariants/distance.ts',
  './graph/invariants/counting.ts',
];

/** The producer capabilities this runner can offer, each with its provider. */
export function runnerRegistrations(executor?: IsolatedExecutor): CapabilityRegistration[] {
  const graphTs = typescriptProvider('jacobian-graph-ts', GRAPH_TS_FILES, ['graph-construction', 'graph-invariants'], [
    GRAPH_CONTRACT_SOURCE,
    GRAPH_OPERAND_SOURCE,
    GRAPH_FORMATS_SOURCE,
    GRAPH_WITNESS_SOURCE,
  ]);
  return [
    capabilityRegistration(graphTs, () => constructExplicit),
    ...GRAPH_INVARIANTS.map((definition) => capabilityRegistration(graphTs, () => definition)),
    capabilityRegistration(typescriptProvider('jacobian-artifact-ts', ['./artifact/put.ts'], ['artifact-materialization']), () => artifactPut),
    capabilityRegistration(z3Provider(executor), (runtime) => maximumInducedTree(runtime)),
  ];
}

export interface RunnerOptions {
  artifacts: ArtifactStore;
  executor: IsolatedExecutor;
  /** Pools this runner serves; capabilities of other pools are not offered. */
  pools?: readonly string[];
  registrations?: readonly CapabilityRegistration[];
  signal?: AbortSignal;
}

export interface Runner {
  readonly installed: readonly InstalledCapability[];
  readonly unavailable: RegistrationReport['unavailable'];
  readonly pools: readonly string[];
  handle(run: AdmittedRun, signal: AbortSignal, onProgress?: ProgressListener): Promise<CapabilityResult>;
}

/** Probe providers, install the healthy capabilities of the chosen pools, and execute their runs. */
export async function createRunner(options: RunnerOptions): Promise<Runner> {
  const report = await registerCapabilities(options.registrations ?? runnerRegistrations(options.executor), options.signal);
  const installed = report.installed.filter(
    (capability) => capability.descriptor.role === 'producer' && (options.pools === undefined || options.pools.includes(capability.descriptor.pool)),
  );
  const byId = new Map(installed.map((capability) => [capability.descriptor.id, capability]));
  const pools = options.pools ?? [...new Set(installed.map((capability) => capability.descriptor.pool))].sort();
  return {
    installed,
    unavailable: report.unavailable,
    pools,
    async handle(run, signal, onProgress) {
      const capability = byId.get(run.capability_id);
      if (capability === undefined) {
        return nonConclusionResult(run, {
          status: 'ERROR',
          diagnostics: [errorDiagnostic(new JacobianError('UNKNOWN_CAPABILITY', `capability_id: ${run.capability_id} is not offered by this runner`, { path: ['capability_id'] }))],
        });
      }
      return executeCapability(capability, run, { artifacts: options.artifacts, executor: options.executor }, signal, onProgress);
    },
  };
}
