// The public surface of @jacobian/shared: contracts, ports and their embedded adapters.
export { ErrorCode, ERROR_CODES, JacobianError, Stage, STAGES, toAppError } from './errors.js';
export type { JsonPath, SerializedError, JacobianErrorOptions } from './errors.js';

export { canonicalize, canonicalBytes, canonicalDigest, sha256Hex, formatJsonPath } from './canonical-json.js';
export type { JsonValue, JsonObject, CanonicalJsonOptions } from './canonical-json.js';

export {
  ArtifactManifestSchema,
  ArtifactUriSchema,
  ARTIFACT_URI_PATTERN,
  artifactUriOf,
  isPlainObject,
  parseArtifactUri,
} from './artifacts/manifest.js';
export type { ArtifactManifest, ArtifactDraft } from './artifacts/manifest.js';
export { adoptPreparedArtifact, DEFAULT_ARTIFACT_STORE_LIMITS, prepareArtifact, resolveArtifactStoreLimits } from './artifacts/store.js';
export type { ArtifactStore, ArtifactStoreLimits, LoadedArtifact, StoredArtifact, PreparedArtifact, PutOptions } from './artifacts/store.js';
export { checkTypedArtifact, getArtifactAt, getTypedArtifactAt, type ExpectedArtifact } from './artifacts/read-at.js';
export { createLocalFolderArtifactStore } from './artifacts/local-folder-store.js';
export { stageArtifacts, type StagedArtifacts } from './artifacts/staged.js';
export type { LocalFolderArtifactStore, LocalFolderArtifactStoreOptions } from './artifacts/local-folder-store.js';

export { RUNNING_COMPILED, runnableFile } from './module-files.js';
export { createProcessPool } from './isolation/process-pool.js';
export type {
  ExecutionBudget,
  IsolatedExecutor,
  KernelContext,
  KernelFunction,
  KernelOutcome,
  KernelRef,
  KernelTask,
  ProcessPoolOptions,
} from './isolation/process-pool.js';

export { refusingReservedKeys } from './contracts/json-record.js';
export { DigestKind, InstallTier, ProviderRuntimeSchema, Sha256Hex } from './contracts/provider.js';
export type { ProviderRuntime } from './contracts/provider.js';
export {
  AssuranceLevel,
  ASSURANCE_RANK,
  BUDGET_LIMITS,
  BudgetSchema,
  CAPABILITY_ID_PATTERN,
  CapabilityDescriptorSchema,
  CapabilityIdSchema,
  CapabilityRelationshipKind,
  CapabilityRequestSchema,
  CheckerIdentitySchema,
  InputKind,
  INVOCATION_EXAMPLE_MAX_BYTES,
  INVOCATION_EXAMPLES_MAX,
  InvocationExampleSchema,
  Mode,
  resolveBudget,
  Role,
} from './contracts/capability.js';
export type {
  Budget,
  CapabilityDescriptor,
  CapabilityRelationship,
  CapabilityRequest,
  CapabilityRequestInput,
  CheckerIdentity,
  InvocationExample,
  ResolvedBudget,
} from './contracts/capability.js';
export {
  ArtifactRelationshipPredicate,
  CapabilityResultSchema,
  CapabilityResultShape,
  CompletenessStatus,
  DiagnosticSchema,
  ExecutionStatus,
  Qualifier,
  Severity,
} from './contracts/result.js';
export type {
  ArtifactRelationship,
  Assurance,
  CapabilityResult,
  Completeness,
  Diagnostic,
  Execution,
  Obligation,
  ProviderRef,
  Scope,
} from './contracts/result.js';
export { PROGRESS_MESSAGE_MAX, RunProgressSchema, throttleProgress, validProgress } from './contracts/progress.js';
export type { ProgressListener, RunProgress } from './contracts/progress.js';
export { DEFAULT_POLICY, evaluatePolicy, OperatorPolicySchema, PolicyProfile, policyDigest } from './contracts/policy.js';
export type { OperatorPolicy, OperatorPolicyInput, PolicyDecision } from './contracts/policy.js';
export { buildCatalog, CatalogSchema, descriptorDigest, inputFields } from './contracts/catalog.js';
export type { Catalog, CatalogEntry } from './contracts/catalog.js';
export { CheckerAuthorizationSchema, isAuthorized } from './contracts/checker-authorization.js';
export type { CheckerAuthorization } from './contracts/checker-authorization.js';

export { admissibleFromDescriptor, installCapability, toJsonSchema } from './capabilities/define.js';
export type {
  AdmissibleCapability,
  CapabilityContext,
  CapabilityDefinition,
  CapabilityOutcome,
  CheckerDeclaration,
  InstalledCapability,
} from './capabilities/define.js';
export { editDistance, errorDiagnostic, zodIssuesToDiagnostics, type IssueContext } from './capabilities/diagnostics.js';
export { renderShape, schemaAt } from './capabilities/schema-shape.js';
export { combinationProblem, refineCombinations, type FieldCombination } from './capabilities/combinations.js';
export { admitRequest, executeCapability, nonConclusionResult, providerRef } from './capabilities/host.js';
export type { AdmittedRun, ExecuteDependencies, NonConclusionOptions } from './capabilities/host.js';
export { runKernel } from './capabilities/kernel.js';
export { capabilityRegistration, registerCapabilities } from './capabilities/registry.js';
export type { CapabilityRegistration, PendingOutcome, PendingProvider, ProviderProbe, RegistrationOptions, RegistrationReport, UnavailableProvider } from './capabilities/registry.js';
export { checkerIdentity, platformTag, sourceProviderRuntime } from './providers/source-runtime.js';
export type { SourceRuntimeOptions } from './providers/source-runtime.js';

export { createEmbeddedRunQueue } from './queue/embedded-run-queue.js';
export type { EmbeddedRunQueueOptions } from './queue/embedded-run-queue.js';
export { runTargetOf } from './queue/run-queue.js';
export { defaultRunQueueName } from './queue/job-data.js';
export type { RunHandler, RunQueue, RunTarget, ShardHandler, ShardDecision, ShardChildRun } from './queue/run-queue.js';
export { createShardHandler, mergeShards, planShards, shardJobId, MAX_SHARD_CHILDREN } from './capabilities/shards.js';
export type { ShardHandlerOptions, MergeShardsOptions } from './capabilities/shards.js';
export type { ShardHooks, ShardRequest, ShardChild, ShardPlanContext } from './capabilities/define.js';

export {
  keyId,
  loadOrCreateSigningKey,
  loadPublicKey,
  loadSigningKey,
  writeSigningKeyPair,
  signRecord,
  VERIFICATION_RECORD_SCHEMA_URI,
  VERIFICATION_RECORD_SEMANTICS_URI,
  VerificationRecordBodySchema,
  VerificationRecordSchema,
  verifyRecordSignature,
} from './verification/record.js';
export type { SigningKey, VerificationRecord, VerificationRecordBody } from './verification/record.js';

export {
  canonicalLabel,
  compareLabels,
  GRAPH_CONTRACT_SOURCE,
  GRAPH_SCHEMA_URI,
  GRAPH_SEMANTICS_URI,
  GraphPayloadSchema,
  INDUCED_TREE_RESULT_SCHEMA_URI,
  INDUCED_TREE_RESULT_SEMANTICS_URI,
  InducedTreeResultPayloadSchema,
  MAX_GRAPH_ORDER,
  parseStoredGraph,
} from './domains/graph.js';
export type { GraphPayload, IndexedGraph, InducedTreeResultPayload } from './domains/graph.js';
export {
  canonicalGraph,
  ExplicitGraphSchema,
  GRAPH_OPERAND_SOURCE,
  GraphOperandSchema,
  graphOperandShape,
  MAX_GRAPH_STRING_LENGTH,
  MAX_LABEL_LENGTH,
  PETERSEN_EXAMPLE,
  refineGraphOperand,
  resolveGraphOperand,
} from './domains/graph-operand.js';
export type { ExplicitGraph, GraphOperand, ResolvedGraph } from './domains/graph-operand.js';
export {
  checkClique,
  checkColouring,
  checkDominatingSet,
  checkEdgeCut,
  checkHamiltonian,
  checkIndependentSet,
  checkMatching,
  checkPath,
  checkSeparator,
  checkSpanningTree,
  componentCount,
  EdgeIndex,
  GRAPH_WITNESS_SOURCE,
} from './domains/graph-witness.js';
export {
  decodeGraph6,
  decodeSparse6,
  detectGraphFormat,
  encodeGraph6,
  encodeSparse6,
  fromAdjacencyLists,
  GRAPH_FORMATS_SOURCE,
  fromAdjacencyMatrix,
  fromEdgeList,
  toAdjacencyLists,
  toAdjacencyMatrix,
  toEdgeList,
} from './domains/graph-formats.js';

export { assertRedisReachable, readLiveCapabilities, RegistrationSchema, startAdvertising } from './registry/redis-registry.js';
export type { Advertiser, AdvertiserOptions, LiveCapabilities, Registration } from './registry/redis-registry.js';
export { createLiveCatalogSource } from './registry/live-catalog.js';
export type { LiveCatalogOptions, LiveCatalogSource } from './registry/live-catalog.js';

// The Redis and BullMQ adapters' functions are in the `@jacobian/shared/redis` entry: bullmq and
// ioredis are a quarter of a thousand modules, and only the cluster roles use them.
export type { BullmqRunQueueOptions, KeepJobsOptions, RedisConnectionOptions } from './queue/bullmq-run-queue.js';
export type { BullmqRunWorker, BullmqRunWorkerOptions } from './queue/bullmq-run-worker.js';
export type { EvictionPolicyReading, EvictionPolicySource } from './queue/redis-eviction-policy.js';
// The S3 store's functions are in the `@jacobian/shared/s3` entry: the AWS SDK they load is the
// largest module of all, and only the cluster roles need it (not `serve` or `stdio`).
export type { S3ArtifactStoreOptions, S3Credentials, S3StoreArea } from './artifacts/s3-store.js';

export {
  checkSummary,
  CallServerState,
  eventsToJsonl,
  InterpretationStatus,
  NextRequired,
  parseReasoningEntry,
  ProtocolViolation,
  REASONING_ID_PATTERN,
  REASONING_MAX_ARTIFACT_URIS,
  REASONING_MAX_CYCLES,
  REASONING_MAX_ENTRIES,
  REASONING_MAX_EVENTS,
  REASONING_MAX_VIOLATIONS,
  REASONING_RUN_URI_PREFIX,
  REASONING_SUMMARY_MAX_BYTES,
  REASONING_SUMMARY_MAX_CHARS,
  ReasoningEventSchema,
  ReasoningIdSchema,
  ReasoningMode,
  ReasoningPhase,
  reasoningRunUri,
  ReasoningWriteInputSchema,
  ReportComparisonSchema,
  ReportMatch,
} from './reasoning/log.js';
export type {
  AfterToolEvent,
  CallOutcomeEvent,
  ReasoningEntry,
  ReasoningEvent,
  ReasoningEventBody,
  ReasoningEventType,
  ReasoningWriteInput,
  ReportComparison,
  ReportedOutcome,
} from './reasoning/log.js';
export { compareReport, decideBind, decideOutcome, decideWrite, foldRun, nextStep, resultDigest } from './reasoning/state.js';
export type { BindDecision, BindRunRequest, CallState, NextStep, RunState, WriteDecision } from './reasoning/state.js';
export { createReasoningLog } from './reasoning/service.js';
export type { OpenCall, ReasoningBinding, ReasoningLog, ReasoningLogOptions, RunLog, RunPosition, WriteReceipt } from './reasoning/service.js';
export type { AppendResult, ReasoningLogStore } from './reasoning/store.js';
export { createFileReasoningLogStore } from './reasoning/file-store.js';
export type { FileReasoningLogStoreOptions } from './reasoning/file-store.js';
export type { RedisReasoningLogStoreOptions } from './reasoning/redis-store.js';
export {
  algebraTables,
  assignmentCounts,
  evaluateLaws,
  evaluateTerm,
  FiniteAlgebraSchema,
  IDENTIFIER_PATTERN,
  isOperationName,
  isOperationSymbol,
  isVariableName,
  NUMERAL_PATTERN,
  OPERATION_SYMBOLS,
  OperationDeclarationSchema,
  OperationTableSchema,
  parseLaw,
  parseLaws,
  parseTerm,
  printLaw,
  printTerm,
  resolveSignature,
  sameTerm,
  SignatureSchema,
  signatureProblems,
  SyntaxRule,
  termKey,
  UNIVERSAL_ALGEBRA_LIMITS,
  UNIVERSAL_ALGEBRA_SOURCES,
  validateAlgebra,
  COUNTERMODEL_RESULT_SCHEMA_URI,
  COUNTERMODEL_RESULT_SEMANTICS_URI,
  CountermodelClaimSchema,
  CountermodelResultPayloadSchema,
  ListedModelSchema,
  MODELS_RESULT_SCHEMA_URI,
  MODELS_RESULT_SEMANTICS_URI,
  ModelsResultPayloadSchema,
} from './domains/universal-algebra/index.js';
export type {
  ApplicationTerm,
  EvaluateLawsOptions,
  FiniteAlgebra,
  FiniteAlgebraInput,
  Law,
  LawEvaluation,
  OperationDeclaration,
  OperationTable,
  ParseOptions,
  Signature,
  SignatureInput,
  Term,
  VariableTerm,
  CountermodelClaim,
  CountermodelResultPayload,
  ListedModel,
  ModelsResultPayload,
} from './domains/universal-algebra/index.js';
export { checkTenant, TENANT_PATTERN, TenantSchema, tenantScopes, type TenantScopes } from './tenancy/tenant.js';
export {
  clauseOf,
  cnfFromClauses,
  DimacsRule,
  DratRule,
  LratRule,
  DRAT_REFUTATION_SEMANTICS_URI,
  LRAT_REFUTATION_SEMANTICS_URI,
  dratFromSteps,
  dratStepClause,
  looksLikeBinaryDrat,
  parseCnfPayload,
  readCnfAt,
  parseDimacs,
  parseDrat,
  parseDratBinary,
  parseDratText,
  parseLrat,
  pigeonhole,
  randomKSat,
  seededRandom,
  SAT_CNF_SCHEMA_URI,
  SAT_CNF_SEMANTICS_URI,
  SAT_DRAT_SCHEMA_URI,
  SAT_LRAT_SCHEMA_URI,
  SAT_MODEL_SCHEMA_URI,
  SAT_MODEL_SEMANTICS_URI,
  SAT_LIMITS,
  SAT_SOURCES,
  SatCnfPayloadSchema,
  SatDratPayloadSchema,
  SatLratPayloadSchema,
  SatModelPayloadSchema,
  satFormatError,
  serializeDimacs,
  serializeDratText,
  serializeLrat,
} from './domains/sat/index.js';
export type { Cnf, DratProof, LratProof, LratStep, SatCnfPayload, SatDratPayload, SatLratPayload, SatModelPayload, SatSizeLimits } from './domains/sat/index.js';
export {
  atomAssignment,
  childrenOf,
  evaluatePropositional,
  formulaStats,
  parsePropositional,
  parsePropositionalPayload,
  parsePropositionalStructure,
  printPropositional,
  PROPOSITIONAL_FORMULA_SEMANTICS_URI,
  PROPOSITIONAL_LIMITS,
  PROPOSITIONAL_SOURCES,
  PROPOSITIONAL_STRUCTURE_SCHEMA_URI,
  propositionalError,
  propositionalPayload,
  PropositionalRule,
  PropositionalStructurePayloadSchema,
  tseitin,
  unwrapGroups,
} from './domains/propositional/index.js';
export type {
  FormulaStats,
  PropositionalFormula,
  PropositionalKind,
  PropositionalNotation,
  PropositionalStructurePayload,
  TseitinEncoding,
  TseitinTarget,
  TypedPropositionalStructurePayload,
} from './domains/propositional/index.js';
export {
  bigGcd,
  canonicalFactorizationClaim,
  canonicalGroebnerClaim,
  canonicalMembershipClaim,
  cyclicSystem,
  fieldFromSpec,
  fieldSpecOf,
  FieldSpecSchema,
  FACTORIZATION_SCHEMA_URI,
  FACTORIZATION_SEMANTICS_URI,
  FactorizationClaimInputSchema,
  FactorizationClaimSchema,
  GROEBNER_BASIS_SCHEMA_URI,
  GROEBNER_BASIS_SEMANTICS_URI,
  GroebnerBasisClaimInputSchema,
  GroebnerBasisClaimSchema,
  MEMBERSHIP_SCHEMA_URI,
  MEMBERSHIP_SEMANTICS_URI,
  MembershipClaimInputSchema,
  MembershipClaimSchema,
  invModSmall,
  isProbablePrime,
  katsuraSystem,
  makeRational,
  monomialComparator,
  monomialDivides,
  monomialEquals,
  monomialLcm,
  monomialProduct,
  monomialQuotient,
  monomialsCoprime,
  MonomialOrder,
  MonomialOrderSchema,
  parsePolynomial,
  parsePolynomials,
  POLYNOMIAL_LIMITS,
  POLYNOMIAL_LIST_SCHEMA_URI,
  POLYNOMIAL_SOURCES,
  polynomialFromJson,
  PolynomialInputSchema,
  PolynomialJsonSchema,
  polynomialListToJson,
  PolynomialListPayloadSchema,
  PolynomialRing,
  PolynomialSyntaxRule,
  polynomialToJson,
  printPolynomial,
  RATIONALS,
  resolveRing,
  RingSpecSchema,
  ringSpecOf,
  SMALL_PRIME_BOUND,
  TermJsonSchema,
  totalDegree,
  VARIABLE_NAME_PATTERN,
} from './domains/polynomial/index.js';
export type {
  AnyField,
  Field,
  FactorizationClaim,
  FactorizationClaimInput,
  FieldSpec,
  GroebnerBasisClaim,
  GroebnerBasisClaimInput,
  MembershipClaim,
  MembershipClaimInput,
  Monomial,
  Polynomial,
  PolynomialInput,
  PolynomialJson,
  PolynomialListPayload,
  PolynomialParseOptions,
  PolynomialTerm,
  Rational,
  RingSpec,
  StandardSystem,
  TermJson,
} from './domains/polynomial/index.js';
export {
  canonicalEntry,
  canonicalMatrix,
  canonicalMatrixInTurn,
  canonicalVector,
  checkEntry,
  coefficientSizeLimits,
  EigenpolynomialCoefficientSchema,
  eigenpolynomialCoefficientBounds,
  ExplicitMatrixSchema,
  MATRIX_LIMITS,
  MATRIX_SCHEMA_URI,
  MATRIX_SEMANTICS_URI,
  MATRIX_SOURCES,
  MatrixEntrySchema,
  MatrixPayloadSchema,
  MatrixRingSchema,
  MatrixRule,
  matrixOperandShape,
  matrixShape,
  MAX_EIGENPOLYNOMIAL_COEFFICIENT_TEXT_LENGTH,
  MAX_EIGENPOLYNOMIAL_COEFFICIENTS,
  MAX_ENTRY_DIGITS,
  parseExplicitMatrix,
  parseStoredMatrix,
  refineMatrixOperand,
  resolveMatrixOperand,
  resolveMatrixRing,
  answerRing,
  canonicalInverseClaim,
  canonicalLinearSystemClaim,
  claimOperand,
  INVERSE_CLAIM_SCHEMA_URI,
  INVERSE_CLAIM_SEMANTICS_URI,
  InverseClaimInputSchema,
  InverseClaimSchema,
  LINEAR_SYSTEM_CLAIM_SCHEMA_URI,
  LINEAR_SYSTEM_CLAIM_SEMANTICS_URI,
  LinearSystemClaimInputSchema,
  LinearSystemClaimSchema,
} from './domains/matrix/index.js';
export type { InverseClaim, InverseClaimInput, LinearSystemClaim, LinearSystemClaimInput } from './domains/matrix/index.js';
export {
  canonicalMinimalPolynomialClaim,
  MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI,
  MINIMAL_POLYNOMIAL_CLAIM_SEMANTICS_URI,
  MinimalPolynomialClaimInputSchema,
  MinimalPolynomialClaimSchema,
} from './domains/matrix/index.js';
export type { MinimalPolynomialClaim, MinimalPolynomialClaimInput } from './domains/matrix/index.js';
export {
  canonicalDeterminantClaim,
  canonicalRankClaim,
  DETERMINANT_CLAIM_SCHEMA_URI,
  DETERMINANT_CLAIM_SEMANTICS_URI,
  DeterminantClaimInputSchema,
  DeterminantClaimSchema,
  RANK_CLAIM_SCHEMA_URI,
  RANK_CLAIM_SEMANTICS_URI,
  RankClaimInputSchema,
  RankClaimSchema,
} from './domains/matrix/index.js';
export type { DeterminantClaim, DeterminantClaimInput, RankClaim, RankClaimInput } from './domains/matrix/index.js';
export {
  canonicalRationalCanonicalFormClaim,
  FROBENIUS_CONVENTION,
  RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI,
  RATIONAL_CANONICAL_FORM_CLAIM_SEMANTICS_URI,
  RationalCanonicalFormClaimInputSchema,
  maxTransformEntryTextLength,
  RationalCanonicalFormClaimSchema,
  TRANSFORM_TEXT_BUDGET,
  transformSizeProblem,
} from './domains/matrix/index.js';
export type { RationalCanonicalFormClaim, RationalCanonicalFormClaimInput } from './domains/matrix/index.js';
export type { CoefficientBound, EntryProblem, EntrySizeLimit, ExplicitMatrix, MatrixEntry, MatrixOperand, MatrixPayload, MatrixRing, ResolvedMatrix, ResolvedMatrixRing } from './domains/matrix/index.js';
export {
  canonicalNormalFormClaim,
  INTEGER_MATRIX_RULE,
  NORMAL_FORM_CLAIM_SCHEMA_URI,
  NORMAL_FORM_CLAIM_SEMANTICS_URI,
  NormalFormClaimInputSchema,
  NormalFormClaimSchema,
  requireIntegerMatrix,
  TRANSFORMS_REQUIRED_RULE,
} from './domains/matrix/index.js';
export type { NormalFormClaim, NormalFormClaimInput } from './domains/matrix/index.js';
export {
  canonicalLatticeBasisClaim,
  DEFAULT_DELTA,
  DELTA_RANGE,
  DeltaRule,
  DeltaSchema,
  LATTICE_BASIS_CLAIM_SCHEMA_URI,
  LATTICE_BASIS_CLAIM_SEMANTICS_URI,
  LatticeBasisClaimInputSchema,
  LatticeBasisClaimSchema,
  parseDelta,
} from './domains/matrix/index.js';
export type { LatticeBasisClaim, LatticeBasisClaimInput } from './domains/matrix/index.js';
export { createMemoryTaskStore, isTerminal, newTaskId, TASK_STATUSES, TaskIdSchema, TaskRecordSchema } from './tasks/task-store.js';
export type { TaskRecord, TaskStatus, TaskStore } from './tasks/task-store.js';

export { activeMetrics, activeTracer, inSpan, installTelemetry, recordResult, runSpanAttributes, SpanAttribute, targetPool } from './telemetry/instrumentation.js';
export { createJacobianMetrics, prometheusName } from './telemetry/metrics.js';
export type { CheckerVerdict, JacobianMetrics, JacobianMetricsOptions, McpOperation, QueueDepth } from './telemetry/metrics.js';
export type { MetricReader } from '@opentelemetry/sdk-metrics';
export { processResource, processResourceAttributes } from './telemetry/resource.js';
export { instrumentMcpTransport, McpAttribute, mcpRequestAttributes, startMcpRequest } from './telemetry/mcp-spans.js';
export type { InstrumentTransportOptions, McpRequestOptions, McpRequestTelemetry, McpTransportLike } from './telemetry/mcp-spans.js';
export type { ProcessResourceOptions, ResourceEnvironment } from './telemetry/resource.js';
export { readQueueDepths } from './telemetry/queue-depth.js';
export { answerOps, artifactStoreCheck, createReadiness } from './telemetry/ops.js';
export type { OpsEndpoints, Readiness } from './telemetry/ops.js';
export { explainReadiness, NotReadyReason } from './readiness-reasons.js';
export type { ExplainedReadiness, ExplainedReadinessReport } from './readiness-reasons.js';
export { serveTraced } from './telemetry/http.js';
export type { Attributes as SpanAttributes, Span } from '@opentelemetry/api';
export { listenHttp } from './net.js';
export { connectionAccepted, inOwnTurn, jsonLongerThanAbout } from './capabilities/turns.js';
export {
  canonicalLpCertificateClaim,
  canonicalLpProblem,
  canonicalSparseVector,
  CERTIFICATE_FIELDS,
  formatLpNumber,
  LP_CERTIFICATE_CLAIM_SCHEMA_URI,
  LP_CERTIFICATE_CLAIM_SEMANTICS_URI,
  LP_CERTIFICATE_NUMBER_LIMITS,
  LP_DATA_NUMBER_LIMITS,
  LP_LIMITS,
  LP_PROBLEM_SCHEMA_URI,
  LP_PROBLEM_SEMANTICS_URI,
  LP_RESERVED_NAME,
  LP_SOURCES,
  LpCertificateClaimInputSchema,
  LpCertificateClaimSchema,
  LpCertificateNumberSchema,
  lpCertificateShape,
  LpConstraintSchema,
  LpNameSchema,
  lpNumber,
  LpNumberSchema,
  LpOutcomeSchema,
  LpProblemInputSchema,
  LpProblemSchema,
  LpRelationSchema,
  LpRule,
  lpShape,
  LpVariableSchema,
  parseCanonicalLpNumber,
  parseLpNumber,
  resolveLpOperand,
} from './domains/lp/index.js';
export type { LpCertificateClaim, LpCertificateClaimInput, LpNumber, LpNumberLimits, LpOperand, LpOutcome, LpProblem, LpProblemInput, LpRelation, NumberProblem, ResolvedLp } from './domains/lp/index.js';
export { isCplexLpName, isFreeMpsName, LP_TEXT_LIMITS, LP_TEXT_SOURCES, LpTextRule, parseCplexLp, parseFreeMps, writeCplexLp, writeFreeMps } from './domains/lp/index.js';
export type { FractionStyle, LpWriteOptions, MpsWriteOptions, TextPosition, TextReadOptions, WrittenLp } from './domains/lp/index.js';

export {
  bigAbs,
  checkBudget,
  DETERMINISTIC_MR_BOUND,
  extendedGcd,
  factorInteger,
  integerTextSchema,
  iroot,
  isPrimeProven,
  isProbablePrimeBpsw,
  isqrt,
  isSquare,
  isStrongLucasProbablePrime,
  isStrongProbablePrime,
  jacobi,
  mod,
  modInverse,
  perfectPowerRoot,
  pollardRhoBrent,
  powMod,
  smallPrimes,
} from './domains/numbers/index.js';
export type { ArithmeticBudget, PrimePower } from './domains/numbers/index.js';

// Number theory: primality certificates and certified factorizations (issue 35, i-ntprime).
export {
  primalityCertificateSize,
  CertifiedPrimePowerSchema,
  CompositeClaimSchema,
  CompositenessWitnessSchema,
  EcppStepSchema,
  INTEGER_FACTORIZATION_CLAIM_SCHEMA_URI,
  INTEGER_FACTORIZATION_CLAIM_SEMANTICS_URI,
  INTEGER_FACTORIZATION_LIMITS,
  IntegerFactorizationClaimSchema,
  PRIMALITY_CLAIM_SCHEMA_URI,
  PRIMALITY_CLAIM_SEMANTICS_URI,
  PRIMALITY_LIMITS,
  PRIMALITY_SOURCES,
  PrimalityCertificateKind,
  PrimalityCertificateSchema,
  PrimalityClaimSchema,
  PrimeClaimSchema,
} from './domains/numbers/index.js';
export type { CompositeClaim, CompositenessWitness, EcppCertificate, EcppStep, IntegerFactorizationClaim, PrattCertificate, PrattFactor, PrimalityCertificate, PrimalityClaim, PrimeClaim, SmallCertificate } from './domains/numbers/index.js';
// Diophantine pack (issue 35): continued fractions, Pell, integer linear systems, binary quadratic forms, class groups.
export { DIOPHANTINE_CLAIM_SCHEMA_URI, DIOPHANTINE_CLAIM_SEMANTICS_URI, DIOPHANTINE_LIMITS, DIOPHANTINE_SOURCES, DiophantineClaimSchema, FormSchema, TransformSchema } from './domains/numbers/index.js';
export type { DiophantineClaim, FormText, TransformText } from './domains/numbers/index.js';
// Elliptic curves over Q and number fields (issue 35, i-ntfield).
export {
  addPoints,
  changeModel,
  countPointsModP,
  curveInvariants,
  formatRational,
  hasExactOrder,
  isIntegralModel,
  isOnCurve,
  MAZUR_MAX_ORDER,
  MAZUR_STRUCTURES,
  multiplyPoint,
  negatePoint,
  parseRational,
  pointOrder,
  pointToModel,
  qAdd,
  qDiv,
  qEq,
  qInt,
  qIsZero,
  qMul,
  qNeg,
  qPow,
  qSub,
  rational,
  rationalTextSchema,
  torsionSubgroup,
} from './domains/numbers/index.js';
export type { CurveInvariants, CurvePoint, ModelChange, Weierstrass } from './domains/numbers/index.js';
export {
  ELLIPTIC_CURVE_CLAIM_SCHEMA_URI,
  ELLIPTIC_CURVE_CLAIM_SEMANTICS_URI,
  ELLIPTIC_CURVE_LIMITS,
  EllipticCurveClaimSchema,
  ModelChangeInputSchema,
  modelChangeOf,
  PointInputSchema,
  pointOf,
  PointOrderSchema,
  pointText,
  requireEllipticCurve,
  WeierstrassInputSchema,
  weierstrassOf,
} from './domains/numbers/index.js';
export type { EllipticCurveClaim, EllipticCurveClaimInput } from './domains/numbers/index.js';
export { NUMBER_FIELD_LIMITS, NumberFieldPolynomialSchema, qpolyAdd, qpolyCompose, qpolyEq, qpolyIsZero, qpolyMod, qpolyMul, qpolyNeg, QPOLY_X } from './domains/numbers/index.js';
export type { QPolynomial } from './domains/numbers/index.js';

export { MODULAR_CLAIM_SCHEMA_URI, MODULAR_CLAIM_SEMANTICS_URI, MODULAR_LIMITS, MODULAR_SOURCES, ModularClaimSchema, ModularFactorSchema } from './domains/numbers/index.js';
export type { ModularClaim, ModularClaimKind, ModularFactor } from './domains/numbers/index.js';
export {
  canonicalRecurrenceClaim,
  CFiniteRecurrenceSchema,
  denominatorLcm,
  describeRecurrence,
  formatSequenceTerm,
  parseRecurrence,
  parseSequenceTerm,
  parseSequenceTerms,
  PRecursiveRecurrenceSchema,
  RecurrenceClaimInputSchema,
  RecurrenceClaimSchema,
  recurrenceOrder,
  RecurrenceSchema,
  recurrenceToJson,
  SEQUENCE_CLAIM_SCHEMA_URI,
  SEQUENCE_CLAIM_SEMANTICS_URI,
  SEQUENCE_LIMITS,
  SEQUENCE_SOURCES,
  SequenceRule,
  SequenceSchema,
  SequenceTermSchema,
} from './domains/sequence/index.js';
export type { Recurrence, RecurrenceClaim, RecurrenceClaimInput, RecurrenceInput, Sequence, SequenceInput, SequenceTerm } from './domains/sequence/index.js';
export {
  BinomialRequestSchema,
  CompositionRequestSchema,
  COUNTING_LIMITS,
  COUNTING_SOURCES,
  CountingNumberRequestSchema,
  CountingResultSchema,
  NUMBER_MAX_N,
  PartitionRequestSchema,
  StirlingRequestSchema,
} from './domains/combinatorics/index.js';
export type { BinomialRequest, CompositionRequest, CountingNumberRequest, CountingResult, PartitionRequest, StirlingRequest } from './domains/combinatorics/index.js';
export { GROUP_ACTION_LIMITS, GROUP_ACTION_SOURCES, GroupActionRule, groupActionError, groupOperandShape, readGroupOperand, refineGroupOperand } from './domains/group-action/index.js';
export type { GroupOperand, PermutationGroupSpec } from './domains/group-action/index.js';
