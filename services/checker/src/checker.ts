import {
  activeMetrics,
  capabilityRegistration,
  errorDiagnostic,
  executeCapability,
  JacobianError,
  nonConclusionResult,
  registerCapabilities,
  sourceProviderRuntime,
  type AdmittedRun,
  type ArtifactStore,
  type CapabilityResult,
  type CheckerVerdict,
  type ProgressListener,
  type CheckerAuthorization,
  type CheckerIdentity,
  type InstalledCapability,
  type IsolatedExecutor,
  type ProviderProbe,
  type SigningKey,
} from '@jacobian/shared';
import { readFileSync } from 'node:fs';
import { INDUCED_TREE_CHECKER_SOURCES, verifyInducedTree, type CheckerAuthority } from './graph/induced-tree-verify.js';
import { ISOMORPHISM_CHECKER_SOURCES, verifyIsomorphism } from './graph/isomorphism-verify.js';
import {
  GRAPH_WITNESS_CHECKER_SOURCES,
  verifyClique,
  verifyColouring,
  verifyHamiltonianCycle,
  verifyHamiltonianPath,
  verifyIndependentSet,
  verifyMatching,
  verifySpanningTree,
} from './graph/witness-verify.js';
import { COUNTERMODEL_CHECKER_SOURCES, COUNTERMODEL_VERIFY_CAPABILITY_ID, verifyCountermodel } from './universal-algebra/countermodel-verify.js';

import { ALGEBRA_CHECKER_SOURCES, FACTOR_VERIFY_CAPABILITY_ID, MEMBERSHIP_VERIFY_CAPABILITY_ID, verifyFactorization, verifyIdealMembership } from './polynomial/algebra-verify-capability.js';
import { GROEBNER_CHECKER_SOURCES, GROEBNER_VERIFY_CAPABILITY_ID, verifyGroebnerBasis } from './polynomial/groebner-verify-capability.js';
import { INVERSE_VERIFY_CAPABILITY_ID, LINEAR_SYSTEM_VERIFY_CAPABILITY_ID, MATRIX_CHECKER_SOURCES, verifyInverse, verifyLinearSystem } from './matrix/linear-algebra-verify-capability.js';
import { NORMAL_FORM_CHECKER_SOURCES, NORMAL_FORM_VERIFY_CAPABILITY_ID, verifyNormalForm } from './matrix/normal-form-verify-capability.js';
import { LATTICE_BASIS_CHECKER_SOURCES, LATTICE_BASIS_VERIFY_CAPABILITY_ID, verifyLatticeBasis } from './matrix/lattice-basis-verify-capability.js';
import { RATIONAL_CANONICAL_FORM_CHECKER_SOURCES, RATIONAL_CANONICAL_FORM_VERIFY_CAPABILITY_ID, verifyRationalCanonicalForm } from './matrix/rational-canonical-form-verify-capability.js';
import { MINIMAL_POLYNOMIAL_CHECKER_SOURCES, MINIMAL_POLYNOMIAL_VERIFY_CAPABILITY_ID, verifyMinimalPolynomial } from './matrix/minimal-polynomial-verify-capability.js';
import { DETERMINANT_VERIFY_CAPABILITY_ID, RANK_DETERMINANT_CHECKER_SOURCES, RANK_VERIFY_CAPABILITY_ID, verifyDeterminant, verifyRank } from './matrix/rank-determinant-verify-capability.js';
import { LP_CERTIFICATE_VERIFY_CAPABILITY_ID, LP_CHECKER_SOURCES, LP_FARKAS_VERIFY_CAPABILITY_ID, verifyFarkas, verifyLpCertificate } from './lp/lp-certificate-verify-capability.js';
import { MODEL_CHECKER_SOURCES, MODEL_VERIFY_CAPABILITY_ID, verifyModel } from './sat/model-verify.js';
import { UNSAT_PROOF_CHECKER_SOURCES, UNSAT_PROOF_VERIFY_CAPABILITY_ID, verifyUnsatProof } from './sat/unsat-proof-verify.js';
import { PROPOSITIONAL_CHECKER_SOURCES, PROPOSITIONAL_VERIFY_CAPABILITY_ID, verifyPropositional } from './propositional/propositional-verify.js';
import { FACTORIZATION_VERIFY_CAPABILITY_ID, PRIMALITY_CHECKER_SOURCES, PRIMALITY_VERIFY_CAPABILITY_ID, verifyIntegerFactorization, verifyPrimality } from './numbers/primality/primality-verify-capability.js';
const CHECKER_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface CheckerOptions {
  /** The default tenant's artifact store. */
  artifacts: ArtifactStore;
  /** A named tenant's artifact store (see tenantScopes); without it every run uses `artifacts`. */
  artifactsFor?: (tenant: string) => ArtifactStore;
  executor: IsolatedExecutor;
  /**
   * The operator's authorization list: only these checker identities may produce VERIFIED.
   * 'bundled' authorizes exactly the checkers shipped with this service, as measured at
   * start: the embedded default, where the operator is whoever installed and started it.
   */
  authorization: CheckerAuthorization | 'bundled';
  signingKey: SigningKey;
  signal?: AbortSignal;
}

export interface CheckerService {
  readonly installed: readonly InstalledCapability[];
  /** Identities of the checkers this service runs, for operators to review and authorize. */
  readonly identities: readonly CheckerIdentity[];
  readonly publicKeyId: string;
  /** The authorization in force, after resolving 'bundled'. */
  readonly authorization: CheckerAuthorization;
  handle(run: AdmittedRun, signal: AbortSignal, onProgress?: ProgressListener): Promise<CapabilityResult>;
}

/** The checker role: runs independent checkers and signs the verification records they earn. */
export async function createChecker(options: CheckerOptions): Promise<CheckerService> {
  const identities = new Map<string, CheckerIdentity>();
  const identityOf = (capabilityId: string) => (): CheckerIdentity => {
    const identity = identities.get(capabilityId);
    if (identity === undefined) throw new JacobianError('INTERNAL', `checker identity of ${capabilityId} was not measured at registration`);
    return identity;
  };
  // One provider, this service's own TypeScript: registration probes a provider once by name,
  // so its runtime digest covers the sources of every checker it serves.
  const ownCode: ProviderProbe = {
    name: 'jacobian-checker-ts',
    probe: () =>
      sourceProviderRuntime({
        provider: 'jacobian-checker-ts',
        version: CHECKER_VERSION,
        files: [
          ...new Set([
            ...INDUCED_TREE_CHECKER_SOURCES,
            ...GRAPH_WITNESS_CHECKER_SOURCES,
            ...ISOMORPHISM_CHECKER_SOURCES,
            ...COUNTERMODEL_CHECKER_SOURCES,
            ...MODEL_CHECKER_SOURCES,
            ...UNSAT_PROOF_CHECKER_SOURCES,
            ...GROEBNER_CHECKER_SOURCES,
            ...ALGEBRA_CHECKER_SOURCES,
            ...PROPOSITIONAL_CHECKER_SOURCES,
            ...MATRIX_CHECKER_SOURCES,
            ...NORMAL_FORM_CHECKER_SOURCES,
            ...MINIMAL_POLYNOMIAL_CHECKER_SOURCES,
            ...RANK_DETERMINANT_CHECKER_SOURCES,
            ...LATTICE_BASIS_CHECKER_SOURCES,
            ...RATIONAL_CANONICAL_FORM_CHECKER_SOURCES,
            ...LP_CHECKER_SOURCES,
            ...PRIMALITY_CHECKER_SOURCES,
          ]),
        ],
        features: ['exhaustive-subset-enumeration', 'graph-witness-checks', 'graph-isomorphism-check', 'universal-algebra-countermodel-check', 'sat-model-check', 'drat-lrat-proof-check', 'groebner-basis-check', 'factorization-product-check', 'ideal-membership-certificate-check', 'factor-irreducibility-test', 'propositional-tseitin-refutation-check', 'linear-system-solution-set-check', 'matrix-inverse-check', 'integer-normal-form-check', 'matrix-minimal-polynomial-check', 'matrix-determinant-bareiss-check', 'matrix-rank-certificate-check', 'lll-basis-check', 'matrix-rational-canonical-form-check', 'lp-certificate-check', 'lp-farkas-check', 'primality-certificate-replay', 'integer-factorization-check'],
      }),
  };
  const authority = (capabilityId: string): CheckerAuthority => ({
    authorization: () => authorization,
    signingKey: options.signingKey,
    identity: identityOf(capabilityId),
  });
  const report = await registerCapabilities(
    [
      capabilityRegistration(ownCode, () => verifyInducedTree(authority('graph.induced_tree.maximum.verify'))),
      capabilityRegistration(ownCode, () => verifyColouring(authority('graph.colouring.verify'))),
      capabilityRegistration(ownCode, () => verifyClique(authority('graph.clique.verify'))),
      capabilityRegistration(ownCode, () => verifyIndependentSet(authority('graph.independent_set.verify'))),
      capabilityRegistration(ownCode, () => verifyMatching(authority('graph.matching.verify'))),
      capabilityRegistration(ownCode, () => verifyHamiltonianPath(authority('graph.hamiltonian_path.verify'))),
      capabilityRegistration(ownCode, () => verifyHamiltonianCycle(authority('graph.hamiltonian_cycle.verify'))),
      capabilityRegistration(ownCode, () => verifySpanningTree(authority('graph.spanning_tree.verify'))),
      capabilityRegistration(ownCode, () => verifyIsomorphism(authority('graph.isomorphism.verify'))),
      capabilityRegistration(ownCode, () => verifyCountermodel(authority(COUNTERMODEL_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyModel(authority(MODEL_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyUnsatProof(authority(UNSAT_PROOF_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyGroebnerBasis(authority(GROEBNER_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyFactorization(authority(FACTOR_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyIdealMembership(authority(MEMBERSHIP_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyPropositional(authority(PROPOSITIONAL_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyLinearSystem(authority(LINEAR_SYSTEM_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyInverse(authority(INVERSE_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyNormalForm(authority(NORMAL_FORM_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyMinimalPolynomial(authority(MINIMAL_POLYNOMIAL_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyDeterminant(authority(DETERMINANT_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyRank(authority(RANK_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyLatticeBasis(authority(LATTICE_BASIS_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyRationalCanonicalForm(authority(RATIONAL_CANONICAL_FORM_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyLpCertificate(authority(LP_CERTIFICATE_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyFarkas(authority(LP_FARKAS_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyPrimality(authority(PRIMALITY_VERIFY_CAPABILITY_ID))),
      capabilityRegistration(ownCode, () => verifyIntegerFactorization(authority(FACTORIZATION_VERIFY_CAPABILITY_ID))),
    ],
    options.signal,
  );
  for (const capability of report.installed) {
    if (capability.descriptor.checker !== null) identities.set(capability.descriptor.id, capability.descriptor.checker);
  }
  const authorization: CheckerAuthorization =
    options.authorization === 'bundled'
      ? { authorized: [...identities.values()].map(({ checker_id, checker_digest }) => ({ checker_id, checker_digest })) }
      : options.authorization;
  const byId = new Map(report.installed.map((capability) => [capability.descriptor.id, capability]));
  /** A tenant's run reads and writes only that tenant's store; never the default's by accident. */
  const artifactsOf = (run: AdmittedRun): ArtifactStore => {
    if (run.tenant === undefined) return options.artifacts;
    if (options.artifactsFor === undefined) throw new JacobianError('INTERNAL', `run ${run.job_id} belongs to tenant ${run.tenant}, but this process has no per-tenant artifact stores`);
    return options.artifactsFor(run.tenant);
  };
  return {
    installed: report.installed,
    identities: [...identities.values()],
    publicKeyId: options.signingKey.keyId,
    authorization,
    async handle(run, signal, onProgress) {
      const capability = byId.get(run.capability_id);
      if (capability === undefined) {
        return nonConclusionResult(run, {
          status: 'ERROR',
          diagnostics: [errorDiagnostic(new JacobianError('UNKNOWN_CAPABILITY', `capability_id: ${run.capability_id} is not a checker of this service`, { path: ['capability_id'] }))],
        });
      }
      const result = await executeCapability(capability, run, { artifacts: artifactsOf(run), executor: options.executor }, signal, onProgress);
      activeMetrics()?.checkerVerdict(verdictOf(result));
      return result;
    },
  };
}

/** A checker run's verdict: VERIFIED is accepted; completed without it, rejected; not completed, an error. */
function verdictOf(result: CapabilityResult): CheckerVerdict {
  if (result.execution.status !== 'COMPLETED') return 'error';
  return result.assurance.level === 'VERIFIED' ? 'accepted' : 'rejected';
}
