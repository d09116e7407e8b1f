/**
 * The providers of universal_algebra.search.countermodel when it runs our own finite model
 * search next to a SAT solver: CaDiCaL where it is installed, z3-solver (WASM, ships with npm
 * install) as the embedded default otherwise. Register them with firstHealthyOf so the catalog
 * shows which one serves.
 *
 * A result may rest on our search (a witness at a small order, an order without one) or on the
 * solver (a harder order, every refutation that is the final answer), so the runtime record
 * covers both: its digest is COMPOSITE, sha256 over the canonical list of the solver's digest
 * (the cadical executable, or the z3-solver package files) and the SOURCE_TREE digest of the
 * search's TypeScript files. Its provider name is the solver's, its features name the search.
 */
import { fileURLToPath } from 'node:url';
import {
  canonicalDigest,
  ProviderRuntimeSchema,
  sourceProviderRuntime,
  UNIVERSAL_ALGEBRA_SOURCES,
  type ProviderProbe,
  type ProviderRuntime,
} from '@jacobian/shared';
import { probeCadical, type CadicalLocation } from '../providers/cadical.js';
import { probeZ3Provider, type Z3ProbeOptions } from '../providers/z3.js';
import type { HealthCache } from '../providers/health-cache.js';
import { RUNNER_VERSION } from '../version.js';

/** The feature a runtime record names when our finite model search serves next to the solver. */
export const FINITE_MODEL_SEARCH_FEATURE = 'jacobian-finite-model-search';
/** The name of our search as a component of the COMPOSITE digest. */
export const FINITE_MODEL_SEARCH_COMPONENT = 'jacobian-universal-algebra-countermodel-ts';

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/**
 * The TypeScript files of the countermodel search itself: the capability, our search, the CNF
 * encoding, the kernels, and the shared universal-algebra core they parse and evaluate with.
 */
export const COUNTERMODEL_SEARCH_SOURCES: readonly string[] = [
  here('./countermodel.ts'),
  here('./countermodel-providers.ts'),
  here('./finite-model-search.ts'),
  here('./cnf-encoding.ts'),
  here('./universal-algebra.kernel.ts'),
  here('./countermodel-z3.kernel.ts'),
  here('./evaluate-laws.ts'),
  here('./example-signatures.ts'),
  here('../graph/maximum-induced-tree.kernel.ts'),
  here('../providers/z3-instance.ts'),
  ...UNIVERSAL_ALGEBRA_SOURCES,
];

/** Which solver a countermodel runtime pairs with our search, and the digests it combines. */
export interface CountermodelProviderParts {
  readonly solver: 'cadical' | 'z3-solver';
  /** The solver's own runtime record (EXECUTABLE for cadical, PACKAGE_FILES for z3-solver). */
  readonly solverRuntime: ProviderRuntime;
  /** SOURCE_TREE digest of {@link COUNTERMODEL_SEARCH_SOURCES}. */
  readonly searchDigest: string;
  /** The COMPOSITE digest of the combined runtime. */
  readonly digest: string;
}

/** A provider probe that remembers the parts of its last successful probe. */
export interface CountermodelProviderProbe extends ProviderProbe {
  readonly parts: CountermodelProviderParts | undefined;
}

async function combine(solverRuntime: ProviderRuntime, solver: CountermodelProviderParts['solver']): Promise<{ runtime: ProviderRuntime; parts: CountermodelProviderParts }> {
  const search = await sourceProviderRuntime({ provider: FINITE_MODEL_SEARCH_COMPONENT, version: RUNNER_VERSION, files: COUNTERMODEL_SEARCH_SOURCES, features: [] });
  const digest = canonicalDigest([
    { role: 'solver', provider: solverRuntime.provider, digest_kind: solverRuntime.digest_kind, digest: solverRuntime.digest },
    { role: 'search', provider: FINITE_MODEL_SEARCH_COMPONENT, digest_kind: search.digest_kind, digest: search.digest },
  ]);
  const runtime = ProviderRuntimeSchema.parse({
    ...solverRuntime,
    digest_kind: 'COMPOSITE',
    digest,
    features: [...solverRuntime.features, FINITE_MODEL_SEARCH_FEATURE],
  });
  return { runtime, parts: { solver, solverRuntime, searchDigest: search.digest, digest } };
}

function rememberingProbe(name: string, solver: CountermodelProviderParts['solver'], probeSolver: (signal?: AbortSignal) => Promise<ProviderRuntime>, checking?: Promise<void>): CountermodelProviderProbe {
  let parts: CountermodelProviderParts | undefined;
  return {
    name,
    ...(checking === undefined ? {} : { checking }),
    get parts() {
      return parts;
    },
    async probe(signal) {
      const combined = await combine(await probeSolver(signal), solver);
      parts = combined.parts;
      return combined.runtime;
    },
  };
}

/**
 * CaDiCaL with our finite model search: probed like cadicalProvider (found, digested, a tiny SAT
 * and UNSAT instance solved), then combined with the search's source digest.
 */
export function countermodelCadicalProvider(location: CadicalLocation & { health?: HealthCache } = {}): CountermodelProviderProbe {
  return rememberingProbe('countermodel-cadical', 'cadical', (signal) => probeCadical({ ...location, ...(signal === undefined ? {} : { signal }) }));
}

/**
 * z3-solver with our finite model search: probed like the z3 provider (health-checked in a child
 * of `executor` when one is given), then combined with the search's source digest.
 */
export function countermodelZ3Provider(options: Omit<Z3ProbeOptions, 'onChecking'> & { solver?: ProviderProbe } = {}): CountermodelProviderProbe {
  // With `solver` (the runner's z3-solver provider), its probe and its checking are that one's:
  // z3-solver is probed once. Its health check is slow at a cold start, when it may be deferred.
  if (options.solver !== undefined) {
    const solver = options.solver;
    return rememberingProbe('countermodel-z3-solver', 'z3-solver', (signal) => solver.probe(signal), solver.checking);
  }
  let checkingStarted: () => void = () => undefined;
  const checking = new Promise<void>((resolve) => (checkingStarted = resolve));
  return rememberingProbe('countermodel-z3-solver', 'z3-solver', () => probeZ3Provider({ ...options, onChecking: checkingStarted }), checking);
}
