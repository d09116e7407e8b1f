/**
 * `universal_algebra.search.countermodel`: a finite algebra of one fixed order n that satisfies
 * the source laws and violates the target law, or the finding that none exists at that order.
 *
 * The question is encoded to CNF (cnf-encoding.ts) in an isolated kernel and solved by CaDiCaL.
 * A model is decoded into tables and rechecked exhaustively by the plain evaluator before it is
 * returned, so a witness never rests on the encoding or the solver; it is also stored as a
 * countermodel result artifact (`result_uri`) that the checker universal_algebra.countermodel.verify
 * re-reads and verifies on its own. A refutation rests on both:
 * its CNF and DRAT proof are stored as artifacts, with an open obligation that the encoding
 * (including its symmetry breaking) is sound.
 */
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  assignmentCounts,
  COUNTERMODEL_RESULT_SCHEMA_URI,
  COUNTERMODEL_RESULT_SEMANTICS_URI,
  CountermodelResultPayloadSchema,
  evaluateTerm,
  JacobianError,
  OperationTableSchema,
  parseLaw,
  parseLaws,
  printLaw,
  resolveSignature,
  runKernel,
  SignatureSchema,
  toAppError,
  UNIVERSAL_ALGEBRA_LIMITS,
  validateAlgebra,
  type ArtifactDraft,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type Diagnostic,
  type InvocationExample,
  type JsonObject,
  type ProviderRuntime,
  type StoredArtifact,
} from '@jacobian/shared';
import { CADICAL_PROVIDER, endsWithEmptyClause, executableDigest, findCadical, runCadical, type CadicalLocation, type CadicalRun } from '../providers/cadical.js';
import { decodeModel, estimateClauses, symmetryCells, SymmetryBreaking, symmetryStatement, variableLayout, type CountermodelProblem } from './cnf-encoding.js';
import { AssignmentSchema, LawTextsSchema } from './evaluate-laws.js';
import { ASSOCIATIVITY, GROUP_LAWS, GROUP_SIGNATURE, SEMIGROUP_SIGNATURE } from './example-signatures.js';

/** The capability ID. */
export const COUNTERMODEL_CAPABILITY_ID = 'universal_algebra.search.countermodel';
const COUNTERMODEL_VERSION = '1.0.0';
/** The checker service's capability that verifies a stored countermodel (the runner never imports the checker). */
const VERIFY_CAPABILITY_ID = 'universal_algebra.countermodel.verify';

/** Schema of a stored CNF: `{ format: 'DIMACS_CNF', variables, clauses, dimacs, encoding }`. */
export const SAT_DIMACS_SCHEMA_URI = 'jacobian:schema/sat.dimacs/v1';
/** Schema of a stored DRAT proof: `{ format: 'DRAT_TEXT', proof, lines }`. */
export const SAT_DRAT_SCHEMA_URI = 'jacobian:schema/sat.drat/v1';
/** Meaning of the CNF: satisfiable iff a countermodel of the stated order passes the symmetry breaking (see `encoding`). */
export const COUNTERMODEL_CNF_SEMANTICS_URI = 'jacobian:semantics/universal_algebra.countermodel.cnf/v1';
/** Meaning of the proof: a DRAT refutation of its parent CNF (the artifact it names as parent). */
export const DRAT_REFUTATION_SEMANTICS_URI = 'jacobian:semantics/sat.drat.refutation/v1';

/** Largest order searched. */
export const MAX_COUNTERMODEL_ORDER = 10;
/** Largest CNF, in clauses (estimated before encoding). */
export const MAX_COUNTERMODEL_CLAUSES = 2_000_000;
/** Largest DRAT proof cadical may write before it is stopped. */
const MAX_PROOF_FILE_BYTES = 256 * 1024 * 1024;

const Int = z.number().int();
const Element = Int.min(0);

/** Input: signature, source laws, target law, the one order, and the symmetry breaking to use. */
export const CountermodelInput = z
  .object({
    signature: SignatureSchema,
    laws: LawTextsSchema.describe('the source laws the model must satisfy (may be empty), e.g. "x * (y * z) = (x * y) * z"'),
    target: z.string().min(1).max(UNIVERSAL_ALGEBRA_LIMITS.maxLawLength).describe('the law the model must violate, e.g. "x * y = y * x"'),
    order: Int.min(1).max(MAX_COUNTERMODEL_ORDER).describe('n: the one order searched; the elements are 0 … n−1'),
    symmetry_breaking: z
      .enum(SymmetryBreaking)
      .default('LEAST_NUMBER')
      .describe('LEAST_NUMBER adds a canonical-labelling constraint that removes isomorphic copies (sound, stated in the result); NONE adds nothing'),
  })
  .strict();
export type CountermodelInput = z.infer<typeof CountermodelInput>;

/** What the search concluded. */
export const CountermodelStatus = {
  WITNESS_FOUND: 'WITNESS_FOUND',
  NO_WITNESS_FOUND: 'NO_WITNESS_FOUND',
  INDETERMINATE: 'INDETERMINATE',
} as const;
export type CountermodelStatus = (typeof CountermodelStatus)[keyof typeof CountermodelStatus];

/** Output of the search. */
export const CountermodelOutput = z
  .object({
    status: z.enum(CountermodelStatus),
    order: Int,
    scope: z
      .object({ kind: z.literal('ONE_FIXED_ORDER'), order: Int, statement: z.string() })
      .strict()
      .describe('the search covers algebras of exactly this order and nothing else'),
    model: z
      .object({ order: Int, tables: z.record(z.string(), OperationTableSchema) })
      .strict()
      .nullable()
      .describe('WITNESS_FOUND: the countermodel, as tables (constant → element, unary → array, binary → rows); pass it to universal_algebra.evaluate_laws to recheck'),
    violating_assignment: AssignmentSchema.nullable().describe('WITNESS_FOUND: the first assignment (lexicographic) under which the target fails in the model'),
    target_values: z.object({ left: Element, right: Element }).strict().nullable().describe('the two sides of the target under violating_assignment'),
    result_uri: z
      .string()
      .nullable()
      .describe(
        `WITNESS_FOUND: the stored countermodel (${COUNTERMODEL_RESULT_SCHEMA_URI}: signature, source laws, target, order, tables, violating assignment), to verify with ${VERIFY_CAPABILITY_ID}; null otherwise, or when it could not be retained`,
      ),
    symmetry_breaking: z
      .object({ method: z.enum(SymmetryBreaking), cells: z.array(z.string()), statement: z.string() })
      .strict()
      .describe('what the encoding assumes about labellings, exactly'),
    encoding: z.object({ variables: Int, clauses: Int, dimacs_bytes: Int }).strict(),
    solver: z
      .object({
        name: z.string(),
        version: z.string(),
        result: z.enum(['SATISFIABLE', 'UNSATISFIABLE', 'UNKNOWN']),
        exit_code: Int.nullable(),
        solve_ms: Int,
        stopped_by: z.enum(['DEADLINE', 'PROOF_LIMIT']).nullable(),
      })
      .strict()
      .nullable(),
    evidence: z
      .object({
        cnf_uri: z.string().nullable(),
        drat_uri: z.string().nullable(),
        drat_bytes: Int,
        ends_with_empty_clause: z.boolean(),
      })
      .strict()
      .nullable()
      .describe('NO_WITNESS_FOUND: the stored CNF and its DRAT refutation (null URIs when too large to retain)'),
    reason: z.string().nullable().describe('INDETERMINATE: why the search stopped without an answer'),
  })
  .strict();
export type CountermodelOutput = z.infer<typeof CountermodelOutput>;

const EXAMPLES: InvocationExample[] = [
  {
    title: 'A non-abelian group of order 6',
    mode: 'EXPLORE',
    payload: {
      signature: GROUP_SIGNATURE,
      laws: GROUP_LAWS,
      target: 'x * y = y * x',
      order: 6,
    },
  },
  {
    title: 'A non-commutative semigroup of order 2',
    mode: 'EXPLORE',
    payload: {
      signature: SEMIGROUP_SIGNATURE,
      laws: [ASSOCIATIVITY],
      target: 'x * y = y * x',
      order: 2,
    },
  },
];

const EVALUATE_KERNEL = { module: fileURLToPath(new URL('./universal-algebra.kernel.ts', import.meta.url)), exportName: 'evaluateLawsKernel' };
const ENCODE_KERNEL = { module: fileURLToPath(new URL('./universal-algebra.kernel.ts', import.meta.url)), exportName: 'encodeCountermodelKernel' };

const EncodeOutput = z
  .object({
    variables: Int.min(0),
    clauses: Int.min(0),
    bytes: Int.min(0),
    sections: z.object({ tables: Int, witness: Int, symmetry: Int, laws: Int, target: Int }).strict(),
  })
  .strict();

const EvaluateOutput = z
  .object({
    results: z.array(
      z
        .object({
          holds: z.boolean(),
          assignmentsChecked: Int,
          violation: z.object({ assignment: AssignmentSchema, left: Element, right: Element }).strict().nullable(),
        })
        .strict(),
    ),
  })
  .strict();

/** Time kept back from the solver for decoding, rechecking and storing evidence. */
function reserveMs(remaining: number): number {
  return Math.min(3000, Math.max(250, Math.round(remaining * 0.15)));
}

/** Options of {@link countermodelSearch}: where the cadical binary is (as for the probe). */
export type CountermodelSearchOptions = CadicalLocation;

/**
 * The countermodel-search capability, served by the probed cadical provider.
 *
 * Each run locates cadical as the probe did and refuses to use it (PROVIDER_FAILED) unless its
 * sha256 still equals the digest in `runtime`: the answer comes from the probed bytes.
 *
 * @throws JacobianError REGISTRATION_INVALID when `runtime` is not a cadical runtime with an executable digest.
 */
export function countermodelSearch(runtime: ProviderRuntime, options: CountermodelSearchOptions = {}): CapabilityDefinition<CountermodelInput, CountermodelOutput> {
  if (runtime.provider !== CADICAL_PROVIDER || runtime.digest_kind !== 'EXECUTABLE') {
    throw new JacobianError('REGISTRATION_INVALID', `${COUNTERMODEL_CAPABILITY_ID} needs the cadical provider's runtime (EXECUTABLE digest), got ${runtime.provider} (${runtime.digest_kind})`);
  }
  return {
    id: COUNTERMODEL_CAPABILITY_ID,
    version: COUNTERMODEL_VERSION,
    title: 'Find a finite countermodel of a law, at one fixed order',
    description:
      `Searches for an algebra of exactly order n (operation tables over 0 … n−1) that satisfies the source laws and violates the target law, by a CNF encoding solved with CaDiCaL. WITNESS_FOUND returns the tables and a violating assignment, rechecked exhaustively by an evaluator independent of the encoding, and stores them as a result artifact (result_uri) that ${VERIFY_CAPABILITY_ID} verifies independently; NO_WITNESS_FOUND means no such algebra of that order exists, given that the encoding is sound, and stores the CNF and the DRAT refutation as artifacts; INDETERMINATE means the budget ended first. Says nothing about other orders.`,
    tags: ['universal-algebra', 'countermodel', 'finite-model', 'model-finding', 'equational-logic', 'sat', 'cadical', 'drat', 'witness'],
    domain: 'universal_algebra',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [COUNTERMODEL_RESULT_SCHEMA_URI, SAT_DIMACS_SCHEMA_URI, SAT_DRAT_SCHEMA_URI],
    input: CountermodelInput,
    output: CountermodelOutput,
    examples: EXAMPLES,
    relationships: [{ kind: 'VERIFIED_BY', capability_id: VERIFY_CAPABILITY_ID }],
    assurance_ceiling: 'COMPUTED',
    scope_rule:
      'Covers algebras of the one requested order only (ONE_FIXED_ORDER): finding none at order n says nothing about other orders, and a refutation rests on the soundness of the encoding and its symmetry breaking.',
    limits: {
      min_order: 1,
      max_order: MAX_COUNTERMODEL_ORDER,
      max_clauses: MAX_COUNTERMODEL_CLAUSES,
      max_laws: UNIVERSAL_ALGEBRA_LIMITS.maxLaws,
      max_law_length: UNIVERSAL_ALGEBRA_LIMITS.maxLawLength,
      max_term_depth: UNIVERSAL_ALGEBRA_LIMITS.maxTermDepth,
      max_assignments_per_law: UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsPerLaw,
      max_proof_file_bytes: MAX_PROOF_FILE_BYTES,
      clause_bound: 'a source law with k variables and m distinct nested non-variable subterms costs n^(k+m) clauses; the total must stay within max_clauses',
    },
    run: (input, context) => search(input, context, runtime, options),
  };
}

async function search(input: CountermodelInput, context: CapabilityContext, runtime: ProviderRuntime, options: CountermodelSearchOptions): Promise<CapabilityOutcome<CountermodelOutput>> {
  const signature = resolveSignature(input.signature, ['payload', 'signature']);
  const laws = parseLaws(input.laws, signature, ['payload', 'laws']);
  const target = parseLaw(input.target, signature, { path: ['payload', 'target'] });
  const n = input.order;
  assignmentCounts(n, laws, ['payload', 'laws']);
  if (n ** target.variables.length > UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsPerLaw) {
    throw new JacobianError('INVALID_REQUEST', `payload.target: rechecking a model needs ${n}^${target.variables.length} assignments, more than the limit of ${UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsPerLaw}`, {
      path: ['payload', 'target'],
    });
  }
  const problem: CountermodelProblem = { signature, laws, target, order: n, symmetryBreaking: input.symmetry_breaking };
  const estimate = estimateClauses(problem);
  if (estimate > MAX_COUNTERMODEL_CLAUSES) {
    throw new JacobianError('INVALID_REQUEST', `payload: the encoding at order ${n} would have up to ${estimate} clauses, more than the limit of ${MAX_COUNTERMODEL_CLAUSES}`, {
      path: ['payload', 'order'],
      hint: 'lower the order, or state laws with fewer variables and nested subterms',
    });
  }

  const binary = await findCadical(options).catch((error: unknown) => {
    throw new JacobianError('PROVIDER_FAILED', `cadical is no longer where it was probed: ${toAppError(error).message}`);
  });
  if ((await executableDigest(binary)) !== runtime.digest) {
    throw new JacobianError('PROVIDER_FAILED', `the cadical executable at ${binary} is not the one probed (its sha256 changed); restart the runner to probe it again`);
  }

  const scope = {
    kind: 'ONE_FIXED_ORDER' as const,
    order: n,
    statement: `algebras of order exactly ${n} for the given signature: satisfying the ${laws.length} source law${laws.length === 1 ? '' : 's'} and violating "${printLaw(target, signature)}"; nothing about other orders`,
  };
  const symmetry = { method: input.symmetry_breaking, cells: symmetryCells(problem).map((cell) => cell.label), statement: symmetryStatement(problem) };
  const outcomeScope = { kind: 'EXACT_INPUT' as const, statement: `whether an algebra of order ${n} satisfies the source laws and violates the target law (${scope.statement})`, input_uris: [] };

  const dir = await mkdtemp(path.join(tmpdir(), 'jacobian-countermodel-'));
  try {
    const cnfPath = path.join(dir, 'problem.cnf');
    const proofPath = path.join(dir, 'proof.drat');
    context.progress({ progress: 0, total: 3, message: `encoding order ${n} as CNF (up to ${estimate} clauses)` });
    const encoded = EncodeOutput.parse(
      await runKernel(context, ENCODE_KERNEL, { signature: input.signature, laws: input.laws, target: input.target, order: n, symmetry_breaking: input.symmetry_breaking, cnf_path: cnfPath }),
    );
    const encoding = { variables: encoded.variables, clauses: encoded.clauses, dimacs_bytes: encoded.bytes };
    const base = { order: n, scope, symmetry_breaking: symmetry, encoding };

    const remaining = context.deadline - Date.now();
    const stopAt = context.deadline - reserveMs(remaining);
    if (stopAt <= Date.now()) {
      return indeterminate({ ...base, solver: null }, outcomeScope, 'the budget ended after the encoding, before the solver could run');
    }
    context.progress({ progress: 1, total: 3, message: `solving ${encoded.variables} variables, ${encoded.clauses} clauses with cadical` });
    const solved = await runCadical({
      binary,
      cnfPath,
      proofPath,
      signal: context.signal,
      stopAt,
      // The answer is one status line and the model: at most a dozen characters per variable.
      maxStdoutBytes: 4096 + encoded.variables * 12,
      maxProofBytes: MAX_PROOF_FILE_BYTES,
    });
    const solver = { name: CADICAL_PROVIDER, version: runtime.version, result: solved.result, exit_code: solved.exitCode, solve_ms: solved.runtimeMs, stopped_by: solved.stoppedBy };
    context.progress({ progress: 2, total: 3, message: `cadical answered ${solved.result}` });
    switch (solved.result) {
      case 'UNKNOWN':
        return indeterminate(
          { ...base, solver },
          outcomeScope,
          solved.stoppedBy === 'PROOF_LIMIT'
            ? `the DRAT proof grew beyond ${MAX_PROOF_FILE_BYTES} bytes, so the solver was stopped`
            : `the solver was stopped after ${solved.runtimeMs} ms to stay within the wall-time budget`,
        );
      case 'SATISFIABLE':
        return await witness(problem, input, context, runtime, solved, { ...base, solver }, outcomeScope);
      case 'UNSATISFIABLE':
        return await refutation(problem, context, cnfPath, proofPath, encoded, { ...base, solver }, outcomeScope);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** How much of a proof's end is read when the whole proof is too large to keep. */
const TAIL_BYTES = 1 << 20;

async function readTail(file: string, size: number, bytes: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

function notRetained(what: string, why: string): Diagnostic {
  return {
    severity: 'WARNING',
    code: 'EVIDENCE_NOT_RETAINED',
    stage: 'ARTIFACT',
    message: `the ${what} was not retained: ${why}`.slice(0, 2000),
    path: null,
    hint: 'the conclusion stands; lower the order or raise the artifact store limits to keep the evidence',
  };
}

type Common = Pick<CountermodelOutput, 'order' | 'scope' | 'symmetry_breaking' | 'encoding' | 'solver'>;
type OutcomeScope = NonNullable<CapabilityOutcome<CountermodelOutput>['scope']>;

function indeterminate(common: Common, scope: OutcomeScope, reason: string): CapabilityOutcome<CountermodelOutput> {
  const diagnostic: Diagnostic = { severity: 'WARNING', code: 'BUDGET_EXHAUSTED', stage: 'EXECUTION', message: reason, path: null, hint: 'raise budget.wall_time_ms, or lower the order' };
  return {
    status: 'COMPLETED',
    output: { ...common, status: 'INDETERMINATE', model: null, violating_assignment: null, target_values: null, result_uri: null, evidence: null, reason },
    scope,
    completeness: { status: 'UNKNOWN', basis: `no answer at order ${common.order}: ${reason}` },
    qualifiers: ['BOUNDED'],
    assurance: { level: 'HEURISTIC', basis: 'no mathematical conclusion: the search stopped before an answer', verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: [],
    diagnostics: [diagnostic],
  };
}

/**
 * Decode the model, recheck it exhaustively with the evaluator, store it as a countermodel
 * result artifact, and answer WITNESS_FOUND.
 */
async function witness(
  problem: CountermodelProblem,
  input: CountermodelInput,
  context: CapabilityContext,
  runtime: ProviderRuntime,
  solved: CadicalRun,
  common: Common,
  scope: OutcomeScope,
): Promise<CapabilityOutcome<CountermodelOutput>> {
  const model = solved.model;
  if (model === null) throw new JacobianError('PROVIDER_FAILED', 'cadical answered SATISFIABLE without a model');
  const decoded = decodeModel(variableLayout(problem), (variable) => model[variable] === 1);
  const algebraInput = { order: problem.order, tables: decoded.tables };
  const algebra = validateAlgebra(problem.signature, algebraInput);
  // The solver's own witness assignment must already violate the target in the decoded tables.
  if (evaluateTerm(algebra, problem.target.left, decoded.witness) === evaluateTerm(algebra, problem.target.right, decoded.witness)) {
    throw new JacobianError('PROVIDER_FAILED', "the solver's witness assignment does not violate the target in its own model; the result was discarded");
  }
  const { results } = EvaluateOutput.parse(
    await runKernel(context, EVALUATE_KERNEL, { signature: input.signature, laws: [...input.laws, input.target], algebra: algebraInput }),
  );
  const failing = results.slice(0, -1).findIndex((result) => !result.holds);
  const violation = results.at(-1)?.violation ?? null;
  if (results.length !== problem.laws.length + 1 || failing >= 0 || violation === null) {
    throw new JacobianError(
      'PROVIDER_FAILED',
      failing >= 0
        ? `the decoded model violates source law ${failing}; the result was discarded`
        : 'the decoded model satisfies the target law; the result was discarded',
    );
  }
  const targetValues = { left: violation.left, right: violation.right };
  // The request's own texts, not our parse, so that a checker re-parses exactly what was asked.
  const payload = CountermodelResultPayloadSchema.parse({
    signature: input.signature,
    laws: input.laws,
    target: input.target,
    order: problem.order,
    tables: decoded.tables,
    violating_assignment: violation.assignment,
    target_values: targetValues,
    provenance: {
      capability_id: COUNTERMODEL_CAPABILITY_ID,
      capability_version: COUNTERMODEL_VERSION,
      provider: runtime.provider,
      provider_version: runtime.version,
      provider_digest: runtime.digest,
    },
  });
  const diagnostics: Diagnostic[] = [];
  let stored: StoredArtifact | null = null;
  try {
    stored = await context.artifacts.put(
      {
        schema_uri: COUNTERMODEL_RESULT_SCHEMA_URI,
        semantics_uri: COUNTERMODEL_RESULT_SEMANTICS_URI,
        payload,
        parents: [],
        summary: { order: problem.order, laws: problem.laws.length, target: printLaw(problem.target, problem.signature).slice(0, 200) },
      },
      { signal: context.signal },
    );
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
    diagnostics.push(notRetained('countermodel', appError.message));
  }
  return {
    status: 'COMPLETED',
    output: {
      ...common,
      status: 'WITNESS_FOUND',
      model: algebraInput,
      violating_assignment: violation.assignment,
      target_values: targetValues,
      result_uri: stored?.uri ?? null,
      evidence: null,
      reason: null,
    },
    scope,
    completeness: {
      status: 'COMPLETE',
      basis: `a countermodel of order ${problem.order} exists: the returned tables satisfy every source law under all assignments and violate the target`,
    },
    qualifiers: ['EXACT'],
    assurance: {
      level: 'COMPUTED',
      basis: `found by CaDiCaL; the decoded tables were rechecked exhaustively by our evaluator (every assignment of every law), so the witness does not rest on the encoding or the solver; ${VERIFY_CAPABILITY_ID} can verify the stored result`,
      verification_record_uri: null,
      checker_id: null,
    },
    obligations: [],
    relationships: [],
    artifact_uris: stored === null ? [] : [stored.uri],
    diagnostics,
  };
}

/** Store the CNF and the DRAT proof and answer NO_WITNESS_FOUND with the encoding's soundness as an open obligation. */
async function refutation(
  problem: CountermodelProblem,
  context: CapabilityContext,
  cnfPath: string,
  proofPath: string,
  encoded: z.infer<typeof EncodeOutput>,
  common: Common,
  scope: OutcomeScope,
): Promise<CapabilityOutcome<CountermodelOutput>> {
  const proofBytes = (await stat(proofPath)).size;
  const limit = context.artifacts.limits.maxPayloadBytes;
  // Evidence larger than the store accepts is not read whole: its tail is enough to see the empty clause.
  const proof = proofBytes <= limit ? await readFile(proofPath, 'utf8') : null;
  const closed = endsWithEmptyClause(proof ?? (await readTail(proofPath, proofBytes, TAIL_BYTES)));
  if (!closed) throw new JacobianError('PROVIDER_FAILED', 'cadical answered UNSATISFIABLE but its DRAT proof does not end with the empty clause; the result was discarded');
  const layout = variableLayout(problem);
  const encodingDescription: JsonObject = {
    signature: problem.signature.operations.map((operation) => ({ name: operation.name, arity: operation.arity, infix: operation.infix })),
    laws: problem.laws.map((law) => printLaw(law, problem.signature)),
    target: printLaw(problem.target, problem.signature),
    order: problem.order,
    table_variables: layout.tables.map((block) => ({ operation: block.operation, arity: block.arity, first: block.first, cells: block.cells })),
    table_variable_rule: 'T(f, cell, v) = first + cell·n + v, cells in lexicographic order of the arguments (row-major), v in 0 … n−1',
    witness_variables: layout.witness.map((block) => ({ variable: block.variable, first: block.first })),
    symmetry_breaking: { method: common.symmetry_breaking.method, cells: common.symmetry_breaking.cells, statement: common.symmetry_breaking.statement },
    sections: encoded.sections,
  };
  const diagnostics: Diagnostic[] = [];
  const store = async (what: string, draft: ArtifactDraft): Promise<StoredArtifact | null> => {
    try {
      return await context.artifacts.put(draft, { signal: context.signal });
    } catch (error) {
      const appError = toAppError(error);
      // The canonical JSON can still exceed the limit the raw file size met.
      if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
      diagnostics.push(notRetained(what, appError.message));
      return null;
    }
  };
  const tooLarge = (what: string, bytes: number): null => {
    diagnostics.push(notRetained(what, `${bytes} bytes exceed the store's payload limit of ${limit}`));
    return null;
  };
  const cnf =
    encoded.bytes > limit
      ? tooLarge('CNF', encoded.bytes)
      : await store('CNF', {
          schema_uri: SAT_DIMACS_SCHEMA_URI,
          semantics_uri: COUNTERMODEL_CNF_SEMANTICS_URI,
          payload: { format: 'DIMACS_CNF', variables: encoded.variables, clauses: encoded.clauses, dimacs: await readFile(cnfPath, 'utf8'), encoding: encodingDescription },
          parents: [],
          summary: { variables: encoded.variables, clauses: encoded.clauses, order: problem.order, bytes: encoded.bytes },
        });
  // A proof means something only next to the CNF it refutes, so it is kept only with its parent.
  const drat =
    cnf === null
      ? null
      : proof === null
        ? tooLarge('DRAT proof', proofBytes)
        : await store('DRAT proof', {
            schema_uri: SAT_DRAT_SCHEMA_URI,
            semantics_uri: DRAT_REFUTATION_SEMANTICS_URI,
            payload: { format: 'DRAT_TEXT', proof, lines: proof.split('\n').filter((line) => line.trim() !== '').length },
            parents: [cnf.uri],
            summary: { bytes: proofBytes, ends_with_empty_clause: closed, solver: `${CADICAL_PROVIDER} ${common.solver?.version ?? ''}`.trim() },
          });
  const uris = [cnf?.uri, drat?.uri].filter((uri): uri is string => uri !== undefined);
  const symmetryAssumed = common.symmetry_breaking.method === 'NONE' ? '' : ` and that its symmetry breaking (${common.symmetry_breaking.method}) keeps at least one labelling of every isomorphism class of countermodels`;
  return {
    status: 'COMPLETED',
    output: {
      ...common,
      status: 'NO_WITNESS_FOUND',
      model: null,
      violating_assignment: null,
      target_values: null,
      result_uri: null,
      evidence: { cnf_uri: cnf?.uri ?? null, drat_uri: drat?.uri ?? null, drat_bytes: proofBytes, ends_with_empty_clause: closed },
      reason: null,
    },
    scope,
    completeness: {
      status: 'COMPLETE',
      basis: `CaDiCaL refuted the CNF of order ${problem.order}: no algebra of that order satisfies the source laws and violates the target, given that the encoding is sound`,
    },
    qualifiers: ['EXACT', 'EXHAUSTIVE'],
    assurance: {
      level: 'COMPUTED',
      basis: 'UNSATISFIABLE by CaDiCaL with a DRAT proof ending in the empty clause; the proof was not replayed by an independent checker here, and the encoding is assumed sound',
      verification_record_uri: null,
      checker_id: null,
    },
    obligations: [
      {
        id: 'encoding-soundness',
        statement: `The CNF is satisfiable whenever an algebra of order ${problem.order} satisfies the source laws and violates the target: assumed of the encoding (one-hot table cells, flattened source laws, existential witness for the target)${symmetryAssumed}.`,
        status: 'OPEN',
        discharged_by: [],
      },
      {
        id: 'drat-proof-check',
        statement: 'The stored DRAT proof refutes the stored CNF: not yet checked by a DRAT checker independent of CaDiCaL.',
        status: 'OPEN',
        discharged_by: [],
      },
    ],
    relationships: cnf !== null && drat !== null ? [{ subject: drat.uri, predicate: 'COMPUTED_FROM', object: cnf.uri }] : [],
    artifact_uris: uris,
    diagnostics,
  };
}
