import {
  capabilityRegistration,
  errorDiagnostic,
  executeCapability,
  GRAPH_CONTRACT_SOURCE,
  GRAPH_FORMATS_SOURCE,
  GRAPH_OPERAND_SOURCE,
  GRAPH_WITNESS_SOURCE,
  COUNTING_SOURCES,
  GROUP_ACTION_SOURCES,
  LP_SOURCES,
  LP_TEXT_SOURCES,
  MODULAR_SOURCES,
  JacobianError,
  createShardHandler,
  type ShardHandler,
  SAT_SOURCES,
  PROPOSITIONAL_SOURCES,
  nonConclusionResult,
  registerCapabilities,
  toAppError,
  sourceProviderRuntime,
  UNIVERSAL_ALGEBRA_SOURCES,
  type AdmittedRun,
  type ArtifactStore,
  type CapabilityRegistration,
  type CapabilityResult,
  type ProgressListener,
  type InstalledCapability,
  type IsolatedExecutor,
  type PendingProvider,
  type ProviderProbe,
  type ProviderRuntime,
  type RegistrationReport,
} from '@jacobian/shared';
import { fileURLToPath } from 'node:url';
import { artifactPut } from './artifact/put.js';
import { COUNTING_TS_FILES, COUNTING_TS_PROVIDER, countingRegistrations } from './combinatorics/index.js';
import { splitConjunction } from './claims/conjunction-split.js';
import { CLAIMS_DECIDE_TS_PROVIDER, decidePropositional } from './claims/decide.js';
import { implicationObligations } from './claims/implication-obligations.js';
import { validateClaim } from './claims/validate.js';
import { automorphismGroup } from './graph/automorphism-group.js';
import { canonicalForm } from './graph/canonical-form.js';
import { constructExplicit } from './graph/construct-explicit.js';
import { ENUMERATE_TS_FEATURES, ENUMERATE_TS_PROVIDER, enumerateNonisomorphic, enumerationBackend } from './graph/enumerate.js';
import { gengProvider } from './graph/enumerate-geng.js';
import { cycleIndexCompute } from './group-action/cycle-index.js';
import { polyaCount } from './group-action/polya-count.js';
import { GRAPH_INVARIANTS } from './graph/invariants.js';
import { MAXIMUM_INDUCED_TREE_ID, maximumInducedTree } from './graph/maximum-induced-tree.js';
import { linearAlgebraTsProvider, MATRIX_CAPABILITY_FACTORIES, PARI_MATRIX_CAPABILITY_FACTORIES } from './matrix/provider.js';
import { constructLpProblem } from './lp/problem-construct.js';
import { lpSolve } from './lp/lp-solve.js';
import { polytopeSeparate } from './lp/polytope-separate.js';
import { highsProvider, lpTsProvider } from './lp/provider.js';
import { SYMMETRY_TS_PROVIDER, symmetryBackend } from './graph/symmetry.js';
import { transformFormat } from './graph/transform-format.js';
import { firstHealthyOf, nautyProvider, type NautyProbeOptions } from './providers/nauty.js';
import { cadicalProvider } from './providers/cadical.js';
import { probeZ3Provider, type Z3ProbeOptions } from './providers/z3.js';
import type { HealthCache } from './providers/health-cache.js';
import { algebraTsProvider, expressionNormalize, factorCompute, gcdCompute, resultantCompute } from './polynomial/algebra-capabilities.js';
import { idealMembershipDecide } from './polynomial/membership-capability.js';
import { groebnerBasisCompute, groebnerTsProvider } from './polynomial/groebner-capability.js';
import { sequenceGeneratingFunction, sequenceRecurrenceEvaluate, sequenceRecurrenceGuess, sequenceTransformCompute, sequenceTsProvider } from './sequence/sequence-capabilities.js';
import { singularProvider } from './providers/singular.js';
import { pariProvider } from './providers/pari.js';
import { milpSolverProvider } from './providers/milp-solvers.js';
import { numberFieldRegistrations } from './numbers/field/index.js';
import { milpSolve } from './lp/milp/milp-solve.js';
import { materializeCnf } from './sat/cnf-materialize.js';
import { findModel } from './sat/model-find.js';
import { SAT_TS_PROVIDER, SAT_TS_SOURCES } from './sat/solve.js';
import { findUnsatProof } from './sat/unsat-proof-find.js';
import { countermodelCadicalProvider, countermodelZ3Provider } from './universal-algebra/countermodel-providers.js';
import { COUNTERMODEL_CAPABILITY_ID, countermodelSearch } from './universal-algebra/countermodel.js';
import { enumerateModelsCapability } from './universal-algebra/enumerate-models.js';
import { evaluateLawsCapability } from './universal-algebra/evaluate-laws.js';
import { modularCapabilities, MODULAR_TS_FILES } from './numbers/modular/modular-capabilities.js';
import { RUNNER_VERSION } from './version.js';
import { FACTOR_TS_FEATURES, FACTOR_TS_FILES, FACTOR_TS_PROVIDER, FACTOR_TS_SHARED_SOURCES, factorCompute as integerFactorCompute } from './numbers/factor/factor-compute.js';
import { divisorsCompute, gcdExtended, mobiusCompute, perfectPowerDecide, rootCompute, sigmaCompute, totientCompute, valuationCompute } from './numbers/arithmetic/arithmetic-capabilities.js';
import { PRIMALITY_TS_FILES, PRIMALITY_TS_PROVIDER, PRIMALITY_TS_SHARED_SOURCES, primalityDecide } from './numbers/primality/primality-decide.js';
import { classGroupCompute } from './numbers/diophantine/class-group-capability.js';
import { continuedFractionCompute } from './numbers/diophantine/continued-fraction-capability.js';
import { integerLinearSystemSolve } from './numbers/diophantine/linear-system-capability.js';
import { pellEquationSolve } from './numbers/diophantine/pell-capability.js';
import { diophantineTsProvider } from './numbers/diophantine/provider.js';
import { formEquivalenceDecide, formReduce } from './numbers/diophantine/quadratic-form-capabilities.js';

const sourceFile = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** Our own TypeScript: identity is the digest of the files that implement these capabilities. */
function typescriptSourceProvider(name: string, files: string[], features: string[], sharedFiles: string[] = []): ProviderProbe {
  return {
    name,
    probe: () =>
      sourceProviderRuntime({ provider: name, version: RUNNER_VERSION, files: [...files.map(sourceFile), ...sharedFiles], features }),
  };
}

/**
 * z3-solver, health-checked in a child of `executor` when one is given (see probeZ3Provider).
 * Its health check, when not remembered (a cold start), ends well after every other probe (a new
 * pool child instantiating z3's WASM module): an embedded start serves without its capabilities
 * until it passes (see ProviderProbe.checking and RunnerOptions.deferSlowProviders).
 */
function z3Provider(options: Omit<Z3ProbeOptions, 'onChecking'>): ProviderProbe {
  let checkingStarted: () => void = () => undefined;
  const checking = new Promise<void>((resolve) => (checkingStarted = resolve));
  return { name: 'z3-solver', checking, probe: () => probeZ3Provider({ ...options, onChecking: checkingStarted }) };
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
  './graph/transform-format.ts',
];

/** Our graph symmetry code: the fallback that serves canonical forms and automorphism groups when nauty is absent. */
const SYMMETRY_TS_FILES = [
  './graph/canonical-form.ts',
  './graph/automorphism-group.ts',
  './graph/invariant-capability.ts',
  './graph/symmetry.ts',
  './graph/symmetry.kernel.ts',
  './graph/symmetry-checks.ts',
  './graph/invariants/automorphisms.ts',
  './graph/invariants/search.ts',
];

/** Our enumeration by canonical augmentation, the fallback when geng is absent. */
const ENUMERATE_TS_FILES = ['./graph/enumerate.ts', './graph/enumerate.kernel.ts', './graph/enumerate-canon.ts', './graph/enumerate-pages.ts', './graph/enumerate-recheck.ts', './graph/invariants/search.ts'];

/** Our propositional claim code (grammar and Tseitin encoding are in the shared domain). */
const CLAIMS_TS_FILES = ['./claims/propositional-domain.ts', './claims/formula-operand.ts', './claims/validate.ts', './claims/decompose.ts', './claims/conjunction-split.ts', './claims/implication-obligations.ts', './claims/decide.ts'];

/** What the runner's providers need to be told by the entry point that configures it. */
export interface RunnerRegistrationOptions {
  /** Where nauty is installed (default: the usual prefixes, see DEFAULT_NAUTY_DIRECTORIES). */
  nauty?: NautyProbeOptions;
  /**
   * Told when a preferred provider fails its probe and a fallback serves instead (nauty missing:
   * the graph symmetry capabilities are served by the TypeScript fallback), for the log; the
   * registration report lists only providers whose capabilities are absent.
   */
  onProviderSkipped?: (provider: string, reason: string) => void;
  /**
   * Native and WASM providers' health checks remembered across starts (see
   * providers/health-cache.ts); without it, every start checks every provider.
   */
  health?: HealthCache;
  /** Told as each provider's probe starts and ends (for the start-up log). */
  onProbe?: (event: ProbeEvent) => void;
  /**
   * A slow health check not remembered from an earlier start (z3-solver's) starts once this
   * settles: a process that serves before such a check ends (RunnerOptions.deferSlowProviders)
   * passes the end of its start-up, so that the check does not take the CPU the start-up needs.
   */
  slowChecksAfter?: Promise<unknown>;
}

/** A provider probe starting or ending, with how long it took. */
export type ProbeEvent =
  | { provider: string; phase: 'started' }
  | { provider: string; phase: 'healthy'; ms: number }
  | { provider: string; phase: 'unavailable'; ms: number; reason: string };

/**
 * The same provider, probed at most once however many capabilities and fallbacks name it
 * (cadical serves four), with its start and end told to `onProbe`. Every probe is started at once
 * by registerCapabilities, so they run in parallel; firstHealthyOf starts a fallback only when
 * the provider before it has failed. The returned object keeps the provider's other members
 * (nauty's `tools`…): it has the provider as its prototype.
 */
function probedOnce<P extends ProviderProbe>(provider: P, onProbe: ((event: ProbeEvent) => void) | undefined): P {
  let pending: Promise<ProviderRuntime> | undefined;
  const probe = (signal?: AbortSignal): Promise<ProviderRuntime> =>
    (pending ??= (async () => {
      const started = performance.now();
      onProbe?.({ provider: provider.name, phase: 'started' });
      try {
        const runtime = await provider.probe(signal);
        onProbe?.({ provider: provider.name, phase: 'healthy', ms: Math.round(performance.now() - started) });
        return runtime;
      } catch (error) {
        onProbe?.({ provider: provider.name, phase: 'unavailable', ms: Math.round(performance.now() - started), reason: toAppError(error).message });
        throw error;
      }
    })());
  return Object.create(provider, { probe: { value: probe } }) as P;
}

/**
 * The producer capabilities this runner can offer, each with its provider. The graph symmetry
 * capabilities register with nauty when its probe passes and with our TypeScript fallback
 * otherwise (firstHealthyOf); each capability's factory serves with whichever was chosen.
 */
export function runnerRegistrations(executor?: IsolatedExecutor, options: RunnerRegistrationOptions = {}): CapabilityRegistration[] {
  const once = <P extends ProviderProbe>(provider: P): P => probedOnce(provider, options.onProbe);
  const health = options.health === undefined ? {} : { health: options.health };
  const typescriptProvider = (name: string, files: string[], features: string[], sharedFiles: string[] = []): ProviderProbe => once(typescriptSourceProvider(name, files, features, sharedFiles));
  const graphSources = [GRAPH_CONTRACT_SOURCE, GRAPH_OPERAND_SOURCE, GRAPH_FORMATS_SOURCE, GRAPH_WITNESS_SOURCE];
  const graphTs = typescriptProvider('jacobian-graph-ts', GRAPH_TS_FILES, ['graph-construction', 'graph-invariants', 'graph-format-conversion'], graphSources);
  const nauty = once(nautyProvider({ ...options.nauty, ...health }));
  const symmetry = firstHealthyOf(
    [nauty, typescriptProvider(SYMMETRY_TS_PROVIDER, SYMMETRY_TS_FILES, ['canonical-labelling', 'automorphism-group', 'max-order-64'], graphSources)],
    options.onProviderSkipped === undefined ? {} : { onSkipped: options.onProviderSkipped },
  );
  const geng = once(gengProvider({ ...options.nauty, ...health }));
  const enumeration = firstHealthyOf(
    [geng, typescriptProvider(ENUMERATE_TS_PROVIDER, ENUMERATE_TS_FILES, [...ENUMERATE_TS_FEATURES], graphSources)],
    options.onProviderSkipped === undefined ? {} : { onSkipped: options.onProviderSkipped },
  );
  const skipped = options.onProviderSkipped === undefined ? {} : { onSkipped: options.onProviderSkipped };
  const z3Options: Omit<Z3ProbeOptions, 'onChecking'> = {
    ...(executor === undefined ? {} : { executor }),
    ...health,
    ...(options.slowChecksAfter === undefined ? {} : { checkAfter: options.slowChecksAfter }),
  };
  // z3-solver is probed once, for its own capability and for the countermodel search.
  const z3 = once(z3Provider(z3Options));
  const countermodelProbes = [once(countermodelCadicalProvider(health)), once(countermodelZ3Provider({ solver: z3 }))];
  const countermodel = firstHealthyOf(countermodelProbes, skipped);
  const satTs = typescriptProvider(SAT_TS_PROVIDER, [], ['dimacs-cnf', 'cdcl-sat-solver'], [...SAT_TS_SOURCES, ...SAT_SOURCES]);
  const cadical = once(cadicalProvider(health));
  const claimsTs = typescriptProvider('jacobian-claims-ts', CLAIMS_TS_FILES, ['propositional-grammar', 'propositional-structure', 'claim-decomposition'], [...PROPOSITIONAL_SOURCES]);
  // decide's fallback when cadical is absent: our CDCL solver with the claim code (a name of its own: one file list per provider name).
  // decide.ts also runs unsat-proof-find.ts (the DRAT shape check and proof size limit).
  const claimsDecideTs = typescriptProvider(CLAIMS_DECIDE_TS_PROVIDER, [...CLAIMS_TS_FILES, './sat/unsat-proof-find.ts'], ['propositional-decision', 'tseitin-encoding', 'cdcl-sat-solver'], [
    ...PROPOSITIONAL_SOURCES,
    ...SAT_TS_SOURCES,
    ...SAT_SOURCES,
  ]);
  const singular = once(singularProvider(health));
  // Created once: providers are probed once per name, each with one file list.
  const algebraTs = once(algebraTsProvider());
  const linearAlgebraTs = once(linearAlgebraTsProvider());
  const pari = once(pariProvider(health));
  const linearAlgebra = firstHealthyOf([pari, linearAlgebraTs], skipped);
  // HiGHS's float phase before our exact simplex where the package loads and passes its check; our exact simplex alone otherwise.
  const lp = firstHealthyOf([once(highsProvider()), once(lpTsProvider())], skipped);
  const groupActionTs = typescriptProvider(
    'jacobian-group-action-ts',
    ['./group-action/permutation-group.ts', './group-action/group.ts', './group-action/cycle-index.ts', './group-action/polya-count.ts', './group-action/group-action.kernel.ts'],
    ['schreier-sims', 'cycle-index', 'polya-enumeration', 'max-group-order-1000000'],
    [...GROUP_ACTION_SOURCES],
  );
  const cbc = once(milpSolverProvider('cbc', health));
  const modularTs = typescriptProvider('jacobian-modular-ts', MODULAR_TS_FILES, ['modular-inverse', 'crt-non-coprime', 'multiplicative-order', 'primitive-root', 'pohlig-hellman-bsgs-rho', 'tonelli-shanks-cipolla-hensel', 'kronecker-symbol'], [...MODULAR_SOURCES]);
  const countingTs = typescriptProvider(COUNTING_TS_PROVIDER, COUNTING_TS_FILES, ['exact-counting', 'big-integer'], [...COUNTING_SOURCES]);
  const glpk = once(milpSolverProvider('glpk', health));
  const diophantineTs = once(diophantineTsProvider());
  const sequenceTs = once(sequenceTsProvider());
  const factorTs = typescriptProvider(FACTOR_TS_PROVIDER, FACTOR_TS_FILES, FACTOR_TS_FEATURES, [...FACTOR_TS_SHARED_SOURCES]);
  const factoring = firstHealthyOf([pari, factorTs], skipped);
  return [
    capabilityRegistration(graphTs, () => constructExplicit),
    capabilityRegistration(enumeration, (runtime) => enumerateNonisomorphic(enumerationBackend(runtime, geng))),
    ...GRAPH_INVARIANTS.map((definition) => capabilityRegistration(graphTs, () => definition)),
    capabilityRegistration(graphTs, () => transformFormat),
    capabilityRegistration(symmetry, (runtime) => canonicalForm(symmetryBackend(runtime, nauty))),
    capabilityRegistration(symmetry, (runtime) => automorphismGroup(symmetryBackend(runtime, nauty))),
    // Symmetry counting on our own Schreier–Sims and element enumeration.
    capabilityRegistration(groupActionTs, () => cycleIndexCompute),
    capabilityRegistration(groupActionTs, () => polyaCount),
    capabilityRegistration(typescriptProvider('jacobian-artifact-ts', ['./artifact/put.ts'], ['artifact-materialization']), () => artifactPut),
    capabilityRegistration(z3, (runtime) => maximumInducedTree(runtime), { ids: [MAXIMUM_INDUCED_TREE_ID] }),
    capabilityRegistration(
      typescriptProvider(
        'jacobian-universal-algebra-ts',
        ['./universal-algebra/evaluate-laws.ts', './universal-algebra/universal-algebra.kernel.ts', './universal-algebra/example-signatures.ts'],
        ['universal-algebra-evaluation'],
        [...UNIVERSAL_ALGEBRA_SOURCES],
      ),
      () => evaluateLawsCapability,
    ),
    capabilityRegistration(countermodel, (runtime) => countermodelSearch(runtime, { providers: countermodelProbes }), { ids: [COUNTERMODEL_CAPABILITY_ID] }),
    capabilityRegistration(satTs, () => materializeCnf),
    capabilityRegistration(firstHealthyOf([cadical, satTs], skipped), (runtime) => findModel(runtime)),
    capabilityRegistration(cadical, (runtime) => findUnsatProof(runtime)),
    capabilityRegistration(claimsTs, () => validateClaim),
    capabilityRegistration(claimsTs, () => splitConjunction),
    capabilityRegistration(claimsTs, () => implicationObligations),
    capabilityRegistration(firstHealthyOf([cadical, claimsDecideTs], skipped), (runtime) => decidePropositional(runtime)),
    capabilityRegistration(firstHealthyOf([singular, once(groebnerTsProvider())], skipped), (runtime) => groebnerBasisCompute(runtime, { singular })),
    capabilityRegistration(algebraTs, (runtime) => expressionNormalize(runtime)),
    capabilityRegistration(firstHealthyOf([singular, algebraTs], skipped), (runtime) => gcdCompute(runtime, { singular })),
    capabilityRegistration(firstHealthyOf([singular, algebraTs], skipped), (runtime) => resultantCompute(runtime, { singular })),
    capabilityRegistration(firstHealthyOf([singular, algebraTs], skipped), (runtime) => idealMembershipDecide(runtime, { singular })),
    // Factorization needs a real factorizer: Singular only, absent without it.
    capabilityRegistration(singular, (runtime) => factorCompute(runtime, { singular })),
    // Exact linear algebra on our TypeScript engine; PARI/GP serves the ones it can where it is installed.
    ...MATRIX_CAPABILITY_FACTORIES.map((create) => capabilityRegistration(linearAlgebraTs, create)),
    ...PARI_MATRIX_CAPABILITY_FACTORIES.map((create) => capabilityRegistration(linearAlgebra, (runtime) => create(runtime, { pari }))),
    // Diophantine pack (issue 35): our exact code; the class group is PARI's above our enumeration's reach where gp is installed.
    capabilityRegistration(diophantineTs, (runtime) => continuedFractionCompute(runtime)),
    capabilityRegistration(diophantineTs, (runtime) => pellEquationSolve(runtime)),
    capabilityRegistration(diophantineTs, (runtime) => integerLinearSystemSolve(runtime)),
    capabilityRegistration(diophantineTs, (runtime) => formReduce(runtime)),
    capabilityRegistration(diophantineTs, (runtime) => formEquivalenceDecide(runtime)),
    capabilityRegistration(firstHealthyOf([pari, diophantineTs], skipped), (runtime) => classGroupCompute(runtime, { pari })),
    // Number fields and elliptic curves over Q: PARI/GP only, absent without it (its answers rechecked by our exact code).
    ...numberFieldRegistrations(pari),
    // Linear programs from JSON, CPLEX LP or free MPS text, read by our own parsers and stored canonically.
    capabilityRegistration(typescriptProvider('jacobian-lp-problem-ts', ['./lp/problem-construct.ts'], ['lp-problem-construction', 'cplex-lp-format', 'free-mps-format'], [...LP_SOURCES, ...LP_TEXT_SOURCES]), () => constructLpProblem),
    capabilityRegistration(lp, (runtime) => lpSolve(runtime)),
    capabilityRegistration(lp, (runtime) => polytopeSeparate(runtime)),
    // Mixed-integer programs on a native solver only: the first healthy of CBC and GLPK, absent without both.
    capabilityRegistration(firstHealthyOf([cbc, glpk], skipped), (runtime) => milpSolve(runtime, { cbc, glpk })),
    // Primality with certificates: PARI/GP adds ECPP (primecert); ours gives small and Pratt certificates only.
    capabilityRegistration(firstHealthyOf([pari, typescriptProvider(PRIMALITY_TS_PROVIDER, PRIMALITY_TS_FILES, ['primality-small-certificate', 'pratt-certificate', 'compositeness-witness'], [...PRIMALITY_TS_SHARED_SOURCES])], skipped), (runtime) =>
      primalityDecide(runtime, { pari }),
    ),
    // Modular arithmetic on our own TypeScript (inverse, CRT, order, primitive root, discrete log, square roots, symbols).
    ...modularCapabilities({ pari }).map((definition) => capabilityRegistration(modularTs, () => definition)),
    // Sequences: recurrence guessing, extension, transforms, generating functions, exact over Q.
    capabilityRegistration(sequenceTs, () => sequenceRecurrenceGuess),
    capabilityRegistration(sequenceTs, () => sequenceRecurrenceEvaluate),
    capabilityRegistration(sequenceTs, () => sequenceTransformCompute),
    capabilityRegistration(sequenceTs, () => sequenceGeneratingFunction),
    // Integer factorization with certified primes, and the arithmetic functions built on it: PARI/GP's factor (rechecked) first, our engine (rho, ECM) otherwise.
    capabilityRegistration(factoring, (runtime) => integerFactorCompute(runtime, { pari })),
    capabilityRegistration(factoring, (runtime) => divisorsCompute(runtime, { pari })),
    capabilityRegistration(factoring, (runtime) => sigmaCompute(runtime, { pari })),
    capabilityRegistration(factoring, (runtime) => totientCompute(runtime, { pari })),
    capabilityRegistration(factoring, (runtime) => mobiusCompute(runtime, { pari })),
    capabilityRegistration(factorTs, (runtime) => valuationCompute(runtime)),
    capabilityRegistration(factorTs, (runtime) => perfectPowerDecide(runtime)),
    capabilityRegistration(factorTs, (runtime) => gcdExtended(runtime)),
    capabilityRegistration(factorTs, (runtime) => rootCompute(runtime)),
    // Counting (binomials, Stirling, Bell/Catalan/derangements, partitions, compositions) on big integers, our TypeScript.
    ...countingRegistrations(countingTs),
    // Its own provider name: providers are probed once per name, each with its own file list.
    capabilityRegistration(
      typescriptProvider(
        'jacobian-universal-algebra-enumeration-ts',
        [
          './universal-algebra/enumerate-models.ts',
          './universal-algebra/enumerate-models.kernel.ts',
          './universal-algebra/model-enumeration.ts',
          './universal-algebra/evaluate-laws.ts',
          './universal-algebra/example-signatures.ts',
        ],
        ['finite-model-enumeration', 'isomorphism-classes'],
        [...UNIVERSAL_ALGEBRA_SOURCES],
      ),
      () => enumerateModelsCapability,
    ),
  ];
}

export interface RunnerOptions {
  /** The default tenant's artifact store. */
  artifacts: ArtifactStore;
  /** A named tenant's artifact store (see tenantScopes); without it every run uses `artifacts`. */
  artifactsFor?: (tenant: string) => ArtifactStore;
  executor: IsolatedExecutor;
  /** Pools this runner serves; capabilities of other pools are not offered. */
  pools?: readonly string[];
  registrations?: readonly CapabilityRegistration[];
  /** Where nauty is installed, and who hears of a provider fallback; used when `registrations` is not given. */
  providers?: RunnerRegistrationOptions;
  signal?: AbortSignal;
  /**
   * Start once every provider has been probed but those in a slow health check not remembered
   * from an earlier start (z3-solver's at a cold start): those are {@link Runner.pending}, and their
   * capabilities join {@link Runner.installed} when their check passes (never if it fails). For a
   * process that serves its own catalog (`serve`, `stdio`); a cluster runner advertises what it
   * offers once, so it waits for every probe.
   */
  deferSlowProviders?: boolean;
}

export interface Runner {
  /** The capabilities offered now: a new array whenever a pending provider's capabilities join. */
  readonly installed: readonly InstalledCapability[];
  /** Providers whose capabilities are absent: their probe failed (a pending one's, once it fails). */
  readonly unavailable: RegistrationReport['unavailable'];
  /** Providers still being checked (see {@link RunnerOptions.deferSlowProviders}). */
  readonly pending: readonly PendingProvider[];
  /** Resolves once no provider is pending (at once without deferral); never rejects. */
  readonly settled: Promise<void>;
  readonly pools: readonly string[];
  handle(run: AdmittedRun, signal: AbortSignal, onProgress?: ProgressListener): Promise<CapabilityResult>;
  /** The split-and-merge side, for capabilities that fan out into child runs (the queue adapters' `shards`). */
  readonly shards: ShardHandler;
}

/** Probe providers, install the healthy capabilities of the chosen pools, and execute their runs. */
export async function createRunner(options: RunnerOptions): Promise<Runner> {
  const report = await registerCapabilities(options.registrations ?? runnerRegistrations(options.executor, options.providers), {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    defer: options.deferSlowProviders === true,
  });
  const offered = (capabilities: readonly InstalledCapability[]): InstalledCapability[] =>
    capabilities.filter((capability) => capability.descriptor.role === 'producer' && (options.pools === undefined || options.pools.includes(capability.descriptor.pool)));
  let installed: readonly InstalledCapability[] = offered(report.installed);
  const unavailable = [...report.unavailable];
  let pending: readonly PendingProvider[] = report.pending;
  const byId = new Map(installed.map((capability) => [capability.descriptor.id, capability]));
  // The pools were chosen, or are those of the capabilities offered at start.
  const pools = options.pools ?? [...new Set(installed.map((capability) => capability.descriptor.pool))].sort();
  const settled = Promise.all(
    report.pending.map(async (provider) => {
      const outcome = await provider.settled;
      if ('installed' in outcome) {
        const joining = offered(outcome.installed);
        // The pools are fixed at start (the queue's workers serve them): a capability of another
        // pool could never run, so it is not offered, and its provider says why.
        const unserved = joining.filter((capability) => !pools.includes(capability.descriptor.pool));
        const served = joining.filter((capability) => pools.includes(capability.descriptor.pool));
        for (const capability of served) byId.set(capability.descriptor.id, capability);
        installed = [...installed, ...served];
        if (unserved.length > 0) {
          unavailable.push({ provider: provider.provider, reason: `${unserved.map((c) => `${c.descriptor.id} (pool ${c.descriptor.pool})`).join(', ')}: not in the pools this runner serves (${pools.join(', ')})` });
        }
      } else {
        unavailable.push(outcome.unavailable);
      }
      pending = pending.filter((entry) => entry !== provider);
    }),
  ).then(() => undefined);
  /** A tenant's run reads and writes only that tenant's store; never the default's by accident. */
  const artifactsOf = (run: AdmittedRun): ArtifactStore => {
    if (run.tenant === undefined) return options.artifacts;
    if (options.artifactsFor === undefined) throw new JacobianError('INTERNAL', `run ${run.job_id} belongs to tenant ${run.tenant}, but this process has no per-tenant artifact stores`);
    return options.artifactsFor(run.tenant);
  };
  return {
    get installed() {
      return installed;
    },
    unavailable,
    get pending() {
      return pending;
    },
    settled,
    pools,
    shards: createShardHandler({
      capability: (id) => byId.get(id),
      deps: { artifacts: options.artifacts, executor: options.executor },
      depsFor: (run) => ({ artifacts: artifactsOf(run), executor: options.executor }),
    }),
    async handle(run, signal, onProgress) {
      const capability = byId.get(run.capability_id);
      if (capability === undefined) {
        return nonConclusionResult(run, {
          status: 'ERROR',
          diagnostics: [errorDiagnostic(new JacobianError('UNKNOWN_CAPABILITY', `capability_id: ${run.capability_id} is not offered by this runner`, { path: ['capability_id'] }))],
        });
      }
      return executeCapability(capability, run, { artifacts: artifactsOf(run), executor: options.executor }, signal, onProgress);
    },
  };
}
