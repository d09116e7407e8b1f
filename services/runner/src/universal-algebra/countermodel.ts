/**
 * `universal_algebra.search.countermodel`: a finite algebra that satisfies the source laws and
 * violates the target law, at one fixed order n or at the first order of a range that has one;
 * or the finding that none exists there.
 *
 * Engines. Each order is first tried by our own finite model search (finite-model-search.ts), in
 * this process under a small time slice (it answers the usual small orders in well under a
 * millisecond); an order it does not settle goes to the SAT solver: the question is encoded to
 * CNF (cnf-encoding.ts) in an isolated kernel and solved by CaDiCaL, or by z3-solver (WASM) where
 * CaDiCaL is not installed. Which engines serve follows from the provider runtime the capability
 * was registered with (see countermodel-providers.ts): a plain cadical runtime covers only the
 * cadical executable, so then every order goes to CaDiCaL, as before.
 *
 * Evidence. A witness, whichever engine found it, is rechecked exhaustively by the plain
 * evaluator before it is returned and stored as a countermodel result artifact (`result_uri`)
 * that the checker universal_algebra.countermodel.verify re-reads and verifies on its own. A
 * refutation that is the final answer (NO_WITNESS_FOUND, at every order of the request) always
 * comes from the SAT solver: its CNF and, with CaDiCaL, its DRAT proof are stored as artifacts,
 * with the encoding's soundness (including its symmetry breaking) as an open obligation; Z3
 * writes no proof, and the result says so. The orders below a witness in a range are reported as
 * searched without a countermodel, by which engine, with no evidence kept unless the request
 * asks for it (`evidence: EVERY_ORDER`): storing a CNF and a proof for an order that a later
 * witness makes moot costs more than the whole search.
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
  DRAT_REFUTATION_SEMANTICS_URI,
  evaluateLaws,
  evaluateTerm,
  JacobianError,
  OperationTableSchema,
  parseLaw,
  parseLaws,
  printLaw,
  resolveSignature,
  runKernel,
  SAT_CNF_SCHEMA_URI,
  SAT_DRAT_SCHEMA_URI,
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
  type Law,
  type Obligation,
  type OperationTable,
  type ProviderRuntime,
  type Signature,
  type StoredArtifact,
} from '@jacobian/shared';
import { CADICAL_PROVIDER, endsWithEmptyClause, executableDigest, findCadical, runCadical, type CadicalLocation } from '../providers/cadical.js';
import { decodeModel, estimateClauses, symmetryCells, SymmetryBreaking, symmetryStatement, variableLayout, type CountermodelProblem } from './cnf-encoding.js';
import { FINITE_MODEL_SEARCH_FEATURE, type CountermodelProviderProbe } from './countermodel-providers.js';
import { AssignmentSchema, LawTextsSchema } from './evaluate-laws.js';
import { ASSOCIATIVITY, GROUP_LAWS, GROUP_SIGNATURE, SEMIGROUP_SIGNATURE } from './example-signatures.js';
import { groundInstances, searchFiniteModel, searchSymmetryStatement } from './finite-model-search.js';

/** The capability ID. */
export const COUNTERMODEL_CAPABILITY_ID = 'universal_algebra.search.countermodel';
const COUNTERMODEL_VERSION = '1.1.0';
/** The checker service's capability that verifies a stored countermodel (the runner never imports the checker). */
const VERIFY_CAPABILITY_ID = 'universal_algebra.countermodel.verify';

/** Meaning of the CNF: satisfiable iff a countermodel of the stated order passes the symmetry breaking (see `encoding`). */
export const COUNTERMODEL_CNF_SEMANTICS_URI = 'jacobian:semantics/universal_algebra.countermodel.cnf/v1';

/** Largest order searched. */
export const MAX_COUNTERMODEL_ORDER = 10;
/** Largest CNF, in clauses (estimated before encoding). */
export const MAX_COUNTERMODEL_CLAUSES = 2_000_000;
/** Largest DRAT proof cadical may write before it is stopped. */
const MAX_PROOF_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Our search runs in the serving process, synchronously: each order gets at most this slice
 * (checked every few hundred nodes), all orders of a run together at most the total, and
 * problems with more ground instances than the bound skip it. What it does not settle in that
 * time goes to the solver, which runs isolated and is killed at the deadline or on cancel.
 */
export const SEARCH_SLICE_MS = 40;
export const SEARCH_TOTAL_MS = 200;
export const SEARCH_MAX_INSTANCES = 100_000;
/** Rechecks visiting at most this many assignments run in this process; larger ones in a kernel. */
const INLINE_RECHECK_ASSIGNMENTS = 65_536;

const Int = z.number().int();
const Element = Int.min(0);
const OrderValue = Int.min(1).max(MAX_COUNTERMODEL_ORDER);

/** Which evidence a search keeps. */
export const CountermodelEvidence = {
  /** The evidence of the final answer only: the countermodel, or the CNF and proof of every order when none has one. */
  FINAL_ANSWER: 'FINAL_ANSWER',
  /** Also the CNF and proof of each order below a witness (each such order is then refuted by the SAT solver). */
  EVERY_ORDER: 'EVERY_ORDER',
} as const;
export type CountermodelEvidence = (typeof CountermodelEvidence)[keyof typeof CountermodelEvidence];

/** What settled one order. */
export const CountermodelEngine = {
  /** Our finite model search (finite-model-search.ts), in process. */
  TS_SEARCH: 'TS_SEARCH',
  CADICAL: 'CADICAL',
  Z3: 'Z3',
} as const;
export type CountermodelEngine = (typeof CountermodelEngine)[keyof typeof CountermodelEngine];

/** Input: signature, source laws, target law, one order or a range of orders, symmetry breaking, and the evidence to keep. */
export const CountermodelInput = z
  .object({
    signature: SignatureSchema,
    laws: LawTextsSchema.describe('the source laws the model must satisfy (may be empty), e.g. "x * (y * z) = (x * y) * z"'),
    target: z.string().min(1).max(UNIVERSAL_ALGEBRA_LIMITS.maxLawLength).describe('the law the model must violate, e.g. "x * y = y * x"'),
    order: OrderValue.optional().describe('n: the one order searched (elements 0 … n−1); give this or orders'),
    orders: z
      .object({ min: OrderValue, max: OrderValue })
      .strict()
      .optional()
      .describe('a range of orders searched in ascending order in one run, stopping at the first with a countermodel; give this or order'),
    symmetry_breaking: z
      .enum(SymmetryBreaking)
      .default('LEAST_NUMBER')
      .describe('LEAST_NUMBER removes isomorphic copies (a canonical-labelling constraint in the CNF, the least-number heuristic in our search; sound, stated in the result); NONE removes nothing'),
    evidence: z
      .enum(CountermodelEvidence)
      .default('FINAL_ANSWER')
      .describe(
        'FINAL_ANSWER keeps the countermodel, or the CNF and proof of every order when none has one; EVERY_ORDER also refutes each order below a witness with the SAT solver and keeps its CNF and proof (slower)',
      ),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.order === undefined) === (input.orders === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [input.order === undefined ? 'order' : 'orders'],
        message: 'give exactly one of order (one fixed order) or orders ({ min, max }: a range searched in ascending order)',
      });
    }
    if (input.orders !== undefined && input.orders.min > input.orders.max) {
      ctx.addIssue({ code: 'custom', path: ['orders', 'max'], message: `must be at least orders.min (${input.orders.min}), got ${input.orders.max}` });
    }
  });
export type CountermodelInput = z.infer<typeof CountermodelInput>;

/** What the search concluded. */
export const CountermodelStatus = {
  WITNESS_FOUND: 'WITNESS_FOUND',
  NO_WITNESS_FOUND: 'NO_WITNESS_FOUND',
  INDETERMINATE: 'INDETERMINATE',
} as const;
export type CountermodelStatus = (typeof CountermodelStatus)[keyof typeof CountermodelStatus];

const EncodingSchema = z.object({ variables: Int, clauses: Int, dimacs_bytes: Int }).strict();
const SolverSchema = z
  .object({
    name: z.string(),
    version: z.string(),
    result: z.enum(['SATISFIABLE', 'UNSATISFIABLE', 'UNKNOWN']),
    exit_code: Int.nullable(),
    solve_ms: Int,
    stopped_by: z.enum(['DEADLINE', 'PROOF_LIMIT']).nullable(),
  })
  .strict();
const EvidenceSchema = z
  .object({
    cnf_uri: z.string().nullable(),
    drat_uri: z.string().nullable(),
    drat_bytes: Int,
    ends_with_empty_clause: z.boolean().describe("the proof's last added lemma is the empty clause"),
    derives_empty_clause: z.boolean().describe('the proof adds the empty clause (a DRAT checker stops there; CaDiCaL may add lemmas after it)'),
    proof_format: z.enum(['DRAT_TEXT', 'NONE']).describe('NONE: the solver (Z3) writes no proof, so only the CNF is kept'),
  })
  .strict();

/** One order of the request, as it was settled. */
const OrderRecordSchema = z
  .object({
    order: Int,
    outcome: z.enum(CountermodelStatus),
    engine: z.enum(CountermodelEngine).nullable().describe('what settled this order: TS_SEARCH (our finite model search), CADICAL or Z3; null when nothing did (INDETERMINATE)'),
    established_by: z.string().describe('how the outcome was established, and what evidence of it was kept'),
    search: z
      .object({ result: z.enum(['FOUND', 'NONE', 'GAVE_UP']), nodes: Int, ms: z.number() })
      .strict()
      .nullable()
      .describe('our finite model search at this order, when it ran: FOUND, NONE (search space exhausted) or GAVE_UP (time slice spent)'),
    encoding: EncodingSchema.nullable(),
    solver: SolverSchema.nullable(),
    evidence_kept: z.boolean(),
    evidence: EvidenceSchema.nullable().describe('the stored CNF and proof of this order, when kept'),
  })
  .strict();
export type CountermodelOrderRecord = z.infer<typeof OrderRecordSchema>;

/** Output of the search. */
export const CountermodelOutput = z
  .object({
    status: z.enum(CountermodelStatus),
    order: Int.describe('the order the status rests on: the one fixed order; for a range, the witness order, the largest order, or the order where the budget ended'),
    scope: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('ONE_FIXED_ORDER'), order: Int, statement: z.string() }).strict(),
        z.object({ kind: z.literal('ORDER_RANGE'), min: Int, max: Int, statement: z.string() }).strict(),
      ])
      .describe('ONE_FIXED_ORDER: algebras of exactly this order and nothing else; ORDER_RANGE: algebras of the orders min … max, searched in ascending order up to the first with a countermodel'),
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
      .object({ method: z.enum(SymmetryBreaking), cells: z.array(z.string()), statement: z.string(), search_statement: z.string() })
      .strict()
      .describe('what the CNF encoding (statement, cells at `order`) and our search (search_statement) assume about labellings, exactly'),
    encoding: EncodingSchema.nullable().describe('the CNF at `order`, when one was built'),
    solver: SolverSchema.nullable().describe('the SAT solver at `order`, when it ran'),
    evidence: EvidenceSchema.nullable().describe('NO_WITNESS_FOUND: the stored CNF and refutation at `order` (null URIs when too large to retain); every order is in `orders`'),
    orders: z.array(OrderRecordSchema).describe('every order searched, ascending, with the engine that settled it and the evidence kept'),
    evidence_policy: z.enum(CountermodelEvidence),
    reason: z.string().nullable().describe('INDETERMINATE: why the search stopped without an answer'),
  })
  .strict();
export type CountermodelOutput = z.infer<typeof CountermodelOutput>;

const EXAMPLES: InvocationExample[] = [
  {
    title: 'A non-abelian group of order 6',
    mode: 'EXPLORE',
    payload: { signature: GROUP_SIGNATURE, laws: GROUP_LAWS, target: 'x * y = y * x', order: 6 },
  },
  {
    title: 'A non-commutative semigroup of order 2',
    mode: 'EXPLORE',
    payload: { signature: SEMIGROUP_SIGNATURE, laws: [ASSOCIATIVITY], target: 'x * y = y * x', order: 2 },
  },
  {
    title: 'The smallest non-abelian group, searching orders 1 to 8 in one run',
    mode: 'EXPLORE',
    payload: { signature: GROUP_SIGNATURE, laws: GROUP_LAWS, target: 'x * y = y * x', orders: { min: 1, max: 8 } },
  },
];

const KERNEL_MODULE = fileURLToPath(new URL('./universal-algebra.kernel.ts', import.meta.url));
const EVALUATE_KERNEL = { module: KERNEL_MODULE, exportName: 'evaluateLawsKernel' };
const ENCODE_KERNEL = { module: KERNEL_MODULE, exportName: 'encodeCountermodelKernel' };
const Z3_KERNEL = { module: fileURLToPath(new URL('./countermodel-z3.kernel.ts', import.meta.url)), exportName: 'solveCnfWithZ3Kernel' };

const EncodeOutput = z
  .object({
    variables: Int.min(0),
    clauses: Int.min(0),
    bytes: Int.min(0),
    sections: z.object({ tables: Int, witness: Int, symmetry: Int, auxiliary: Int, laws: Int, target: Int }).strict(),
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

const Z3Output = z
  .object({
    result: z.enum(['SATISFIABLE', 'UNSATISFIABLE', 'UNKNOWN']),
    true_variables: z.array(Int.min(1)).nullable(),
    stopped_by: z.enum(['DEADLINE']).nullable(),
    solve_ms: Int.min(0),
  })
  .strict();

/** Time kept back from the solver for decoding, rechecking and storing evidence. */
function reserveMs(remaining: number): number {
  return Math.min(3000, Math.max(250, Math.round(remaining * 0.15)));
}

/**
 * Options of {@link countermodelSearch}: where the cadical binary is (as for the probe), and the
 * probes of countermodel-providers.ts, whose remembered parts a COMPOSITE runtime is matched to.
 */
export interface CountermodelSearchOptions extends CadicalLocation {
  providers?: readonly CountermodelProviderProbe[];
  /**
   * Time our search may take in this process, per order and per run (defaults
   * {@link SEARCH_SLICE_MS}, {@link SEARCH_TOTAL_MS}); a total of 0 sends every order to the solver.
   */
  searchBudget?: { sliceMs?: number; totalMs?: number };
}

/** The SAT solver a capability uses, as its runtime vouches for it. */
type SatBackend =
  | { readonly engine: 'CADICAL'; readonly name: string; readonly version: string; readonly executableDigest: string; readonly location: CadicalLocation }
  | { readonly engine: 'Z3'; readonly name: string; readonly version: string };

interface Engines {
  /** Whether our finite model search may settle orders (its sources are covered by the runtime's digest). */
  readonly search: boolean;
  readonly sliceMs: number;
  readonly totalMs: number;
  readonly sat: SatBackend;
}

function enginesFor(runtime: ProviderRuntime, options: CountermodelSearchOptions): Engines {
  const budget = { sliceMs: options.searchBudget?.sliceMs ?? SEARCH_SLICE_MS, totalMs: options.searchBudget?.totalMs ?? SEARCH_TOTAL_MS };
  if (runtime.provider === CADICAL_PROVIDER && runtime.digest_kind === 'EXECUTABLE') {
    // The record covers the cadical executable only: every order goes to CaDiCaL.
    return { search: false, ...budget, sat: { engine: 'CADICAL', name: CADICAL_PROVIDER, version: runtime.version, executableDigest: runtime.digest, location: options } };
  }
  if (runtime.digest_kind === 'COMPOSITE' && runtime.features.includes(FINITE_MODEL_SEARCH_FEATURE)) {
    const parts = options.providers?.map((probe) => probe.parts).find((candidate) => candidate?.digest === runtime.digest);
    if (parts !== undefined) {
      const solver = parts.solverRuntime;
      if (parts.solver === 'cadical' && solver.digest_kind === 'EXECUTABLE') {
        return { search: budget.totalMs > 0, ...budget, sat: { engine: 'CADICAL', name: CADICAL_PROVIDER, version: solver.version, executableDigest: solver.digest, location: options } };
      }
      if (parts.solver === 'z3-solver') return { search: budget.totalMs > 0, ...budget, sat: { engine: 'Z3', name: solver.provider, version: solver.version } };
    }
  }
  throw new JacobianError(
    'REGISTRATION_INVALID',
    `${COUNTERMODEL_CAPABILITY_ID} needs the cadical provider's runtime (EXECUTABLE digest) or a runtime of countermodelCadicalProvider / countermodelZ3Provider passed in options.providers, got ${runtime.provider} (${runtime.digest_kind})`,
  );
}

/**
 * The countermodel-search capability, served by the provider it was registered with: a plain
 * cadical runtime (CaDiCaL for every order), or a runtime of countermodelCadicalProvider or
 * countermodelZ3Provider (our search first, then CaDiCaL or Z3) whose probe is in `options.providers`.
 *
 * A run that needs CaDiCaL locates it as the probe did and refuses to use it (PROVIDER_FAILED)
 * unless its sha256 still equals the probed digest: the answer comes from the probed bytes.
 *
 * @throws JacobianError REGISTRATION_INVALID when `runtime` is none of these.
 */
export function countermodelSearch(runtime: ProviderRuntime, options: CountermodelSearchOptions = {}): CapabilityDefinition<CountermodelInput, CountermodelOutput> {
  const engines = enginesFor(runtime, options);
  const solverName = engines.sat.engine === 'CADICAL' ? 'CaDiCaL' : 'Z3 (WASM)';
  const searchPart = engines.search ? 'our own finite model search (in process, a short time slice per order), then ' : '';
  return {
    id: COUNTERMODEL_CAPABILITY_ID,
    version: COUNTERMODEL_VERSION,
    title: 'Find a finite countermodel of a law, at one fixed order or the first order of a range',
    description:
      `Searches for an algebra (operation tables over 0 … n−1) that satisfies the source laws and violates the target law, at exactly order n (order) or at the orders min … max in ascending order, stopping at the first with one (orders). Each order is tried by ${searchPart}a CNF encoding solved with ${solverName}. ` +
      `WITNESS_FOUND returns the tables and a violating assignment, rechecked exhaustively by an evaluator independent of the engines, and stores them as a result artifact (result_uri) that ${VERIFY_CAPABILITY_ID} verifies independently; in a range, every lower order is listed as searched without a countermodel, with the engine that settled it. ` +
      `NO_WITNESS_FOUND means no such algebra exists at any requested order, given that the encoding is sound, and stores each order's CNF${engines.sat.engine === 'CADICAL' ? ' and DRAT refutation' : ' (Z3 writes no proof)'} as artifacts; INDETERMINATE means the budget ended first, naming the orders settled. Says nothing about orders not requested.`,
    tags: ['universal-algebra', 'countermodel', 'finite-model', 'model-finding', 'equational-logic', 'sat', engines.sat.engine === 'CADICAL' ? 'cadical' : 'z3', 'drat', 'witness', 'order-range'],
    keywords: ['countermodel', 'counter-model', 'counterexample', 'counter-example', 'finite model', 'model finder', 'Mace4', 'Mace4-style', 'does not imply', 'non-implication', 'independence of axioms', 'implication between laws', 'equational theory', 'magma', 'semigroup', 'monoid', 'group', 'quasigroup', 'associative', 'associativity', 'commutative', 'commutativity', 'idempotent', 'Cayley table', 'SAT encoding'],
    domain: 'universal_algebra',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [COUNTERMODEL_RESULT_SCHEMA_URI, SAT_CNF_SCHEMA_URI, ...(engines.sat.engine === 'CADICAL' ? [SAT_DRAT_SCHEMA_URI] : [])],
    input: CountermodelInput,
    output: CountermodelOutput,
    examples: EXAMPLES,
    relationships: [{ kind: 'VERIFIED_BY', capability_id: VERIFY_CAPABILITY_ID }],
    assurance_ceiling: 'COMPUTED',
    scope_rule:
      'Covers algebras of the requested orders only: ONE_FIXED_ORDER for order n, ORDER_RANGE for orders min … max up to the first with a countermodel. Finding none says nothing about other orders, and a refutation rests on the soundness of the encoding and its symmetry breaking.',
    limits: {
      min_order: 1,
      max_order: MAX_COUNTERMODEL_ORDER,
      max_clauses: MAX_COUNTERMODEL_CLAUSES,
      max_laws: UNIVERSAL_ALGEBRA_LIMITS.maxLaws,
      max_law_length: UNIVERSAL_ALGEBRA_LIMITS.maxLawLength,
      max_term_depth: UNIVERSAL_ALGEBRA_LIMITS.maxTermDepth,
      max_assignments_per_law: UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsPerLaw,
      max_proof_file_bytes: MAX_PROOF_FILE_BYTES,
      clause_bound: 'a source law with k variables and m distinct nested non-variable subterms costs n^(k+m) clauses; the total at the largest requested order must stay within max_clauses',
      ...(engines.search ? { search_slice_ms: engines.sliceMs, search_total_ms: engines.totalMs, search_max_ground_instances: SEARCH_MAX_INSTANCES } : {}),
    },
    run: (input, context) => new CountermodelRun(input, context, runtime, engines).run(),
  };
}

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** "3", "2 and 3", "1, 2 and 3" */
function listOrders(orders: readonly number[]): string {
  if (orders.length <= 1) return orders.join('');
  return `${orders.slice(0, -1).join(', ')} and ${orders.at(-1)}`;
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

/**
 * Whether a text DRAT proof adds the empty clause somewhere. CaDiCaL sometimes adds a unit after
 * it (seen with sc2021 on formulas refuted early), so {@link endsWithEmptyClause} alone would
 * discard valid refutations; a DRAT checker stops at the first empty clause.
 */
export function derivesEmptyClause(proof: string): boolean {
  return proof.split('\n').some((line) => line.trim() === '0');
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

/** A SAT solver's refutation of one order, still on disk. */
interface Refutation {
  readonly cnfPath: string;
  /** Null when the solver writes no proof (Z3) or none was asked for. */
  readonly proofPath: string | null;
  readonly encoded: z.infer<typeof EncodeOutput>;
  readonly problem: CountermodelProblem;
}

/** What the SAT solver said about one order. */
type SatOutcome =
  | { readonly kind: 'SATISFIABLE'; readonly tables: Record<string, OperationTable>; readonly witness: Record<string, number>; readonly record: Pick<CountermodelOrderRecord, 'encoding' | 'solver'> }
  | { readonly kind: 'UNSATISFIABLE'; readonly refutation: Refutation; readonly record: Pick<CountermodelOrderRecord, 'encoding' | 'solver'> }
  | { readonly kind: 'UNKNOWN'; readonly reason: string; readonly limit?: true; readonly record: Pick<CountermodelOrderRecord, 'encoding' | 'solver'> };

/** One order while the run is in progress: its record and, for a refutation still on disk, the files. */
interface Settled {
  record: CountermodelOrderRecord;
  refutation: Refutation | null;
}

/** A stop of the whole run for lack of budget (or, with `limit`, at the clause bound), with the reason. */
class BudgetEnded extends Error {
  constructor(
    message: string,
    readonly limit = false,
  ) {
    super(message);
  }
}

/** One run of the capability: the request parsed once, the orders searched in ascending order. */
class CountermodelRun {
  private readonly signature: Signature;
  private readonly laws: readonly Law[];
  private readonly target: Law;
  private readonly min: number;
  private readonly max: number;
  private readonly fixed: boolean;
  private readonly settled: Settled[] = [];
  private readonly diagnostics: Diagnostic[] = [];
  private searchLeftMs: number;
  /** The order being searched, for an answer that stops there. */
  private current: number;
  private dir: string | null = null;
  private cadicalBinary: Promise<string> | null = null;

  constructor(
    private readonly input: CountermodelInput,
    private readonly context: CapabilityContext,
    private readonly runtime: ProviderRuntime,
    private readonly engines: Engines,
  ) {
    this.signature = resolveSignature(input.signature, ['payload', 'signature']);
    this.laws = parseLaws(input.laws, this.signature, ['payload', 'laws']);
    this.target = parseLaw(input.target, this.signature, { path: ['payload', 'target'] });
    // The schema's refinement guarantees exactly one of the two forms.
    this.fixed = input.order !== undefined;
    this.searchLeftMs = engines.totalMs;
    this.min = input.order ?? input.orders?.min ?? 1;
    this.max = input.order ?? input.orders?.max ?? 1;
    this.current = this.min;
    this.validate();
  }

  /**
   * Every bound grows with the order. The assignment bounds (the recheck of a model) are checked
   * at the largest order; the clause bound at the one fixed order, or at the first of a range:
   * a higher order of a range whose CNF would be too large is met only if our search does not
   * settle it, and then stops the run with INDETERMINATE, naming the bound.
   */
  private validate(): void {
    const n = this.max;
    assignmentCounts(n, this.laws, ['payload', 'laws']);
    if (n ** this.target.variables.length > UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsPerLaw) {
      throw new JacobianError('INVALID_REQUEST', `payload.target: rechecking a model needs ${n}^${this.target.variables.length} assignments, more than the limit of ${UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsPerLaw}`, {
        path: ['payload', 'target'],
      });
    }
    const first = this.min;
    const orderPath = this.fixed ? ['payload', 'order'] : ['payload', 'orders', 'min'];
    const estimate = estimateClauses(this.problem(first));
    if (estimate > MAX_COUNTERMODEL_CLAUSES) {
      throw new JacobianError('INVALID_REQUEST', `${orderPath.join('.')}: the encoding at order ${first} would have up to ${estimate} clauses, more than the limit of ${MAX_COUNTERMODEL_CLAUSES}`, {
        path: orderPath,
        hint: 'lower the order, or state laws with fewer variables and nested subterms',
      });
    }
  }

  private problem(order: number): CountermodelProblem {
    return { signature: this.signature, laws: this.laws, target: this.target, order, symmetryBreaking: this.input.symmetry_breaking };
  }

  async run(): Promise<CapabilityOutcome<CountermodelOutput>> {
    try {
      return await this.searchOrders();
    } catch (error) {
      if (error instanceof BudgetEnded) return this.indeterminate(error.message, error.limit);
      throw error;
    } finally {
      if (this.dir !== null) await rm(this.dir, { recursive: true, force: true });
    }
  }

  private async searchOrders(): Promise<CapabilityOutcome<CountermodelOutput>> {
    const total = this.max - this.min + 1;
    for (let order = this.min; order <= this.max; order++) {
      this.current = order;
      this.checkCancelled();
      if (this.context.deadline - Date.now() < 50) throw new BudgetEnded(`the budget ended before order ${order}`);
      this.context.progress({ progress: order - this.min, total, message: `searching order ${order}` });
      const problem = this.problem(order);
      const search = this.runSearch(problem);
      if (search?.result.kind === 'FOUND') {
        return await this.witness(problem, search.result.tables, search.result.witness, { engine: 'TS_SEARCH', search: search.stats, encoding: null, solver: null });
      }
      if (search?.result.kind === 'NONE' && this.input.evidence === 'FINAL_ANSWER') {
        this.settled.push({ record: this.noneRecord(order, 'TS_SEARCH', search.stats, null, null), refutation: null });
        continue;
      }
      const sat = await this.solve(problem, true);
      if (sat.kind === 'SATISFIABLE') {
        if (search?.result.kind === 'NONE') this.disagree(order);
        return await this.witness(problem, sat.tables, sat.witness, { engine: this.engines.sat.engine, search: search?.stats ?? null, ...sat.record });
      }
      if (sat.kind === 'UNKNOWN') {
        this.settled.push({ record: { ...this.blankRecord(order, 'INDETERMINATE'), search: search?.stats ?? null, ...sat.record, established_by: sat.reason }, refutation: null });
        throw new BudgetEnded(sat.reason, sat.limit === true);
      }
      this.settled.push({ record: this.noneRecord(order, this.engines.sat.engine, search?.stats ?? null, sat.record, sat.refutation), refutation: sat.refutation });
    }
    return await this.refutation();
  }

  private checkCancelled(): void {
    if (!this.context.signal.aborted) return;
    // The host aborts the signal at the deadline too: that is a spent budget, not a cancel.
    if (Date.now() >= this.context.deadline) throw new JacobianError('EXECUTION_TIMEOUT', `the run exhausted its wall-time budget during the search of order ${this.current}`);
    throw new JacobianError('EXECUTION_CANCELLED', 'the countermodel search was cancelled');
  }

  /** Our search at one order, within its slice; null when it does not apply. */
  private runSearch(problem: CountermodelProblem): { result: ReturnType<typeof searchFiniteModel>; stats: NonNullable<CountermodelOrderRecord['search']> } | null {
    if (!this.engines.search || this.searchLeftMs <= 0) return null;
    if (groundInstances(this.laws, problem.order) > SEARCH_MAX_INSTANCES) return null;
    const started = performance.now();
    const slice = Math.min(this.engines.sliceMs, this.searchLeftMs, this.context.deadline - Date.now() - 25);
    if (slice <= 0) return null;
    const result = searchFiniteModel(problem, { stopAt: started + slice, checkpoint: () => this.checkCancelled() });
    const ms = performance.now() - started;
    this.searchLeftMs -= ms;
    return { result, stats: { result: result.kind, nodes: result.nodes, ms: Math.round(ms * 1000) / 1000 } };
  }

  private disagree(order: number): never {
    throw new JacobianError(
      'PROVIDER_FAILED',
      `our finite model search exhausted order ${order} without a countermodel, but the SAT solver found one; the engines disagree, so nothing was concluded`,
    );
  }

  private blankRecord(order: number, outcome: CountermodelStatus): CountermodelOrderRecord {
    return { order, outcome, engine: null, established_by: '', search: null, encoding: null, solver: null, evidence_kept: false, evidence: null };
  }

  private noneRecord(
    order: number,
    engine: CountermodelEngine,
    search: CountermodelOrderRecord['search'],
    sat: Pick<CountermodelOrderRecord, 'encoding' | 'solver'> | null,
    refutation: Refutation | null,
  ): CountermodelOrderRecord {
    const lnh = this.input.symmetry_breaking === 'LEAST_NUMBER';
    const how =
      engine === 'TS_SEARCH'
        ? `our finite model search exhausted order ${order}${lnh ? ' under the least-number heuristic' : ''} (${search?.nodes ?? 0} decisions); no proof object exists for it`
        : `${engine === 'CADICAL' ? 'CaDiCaL' : 'Z3'} found the CNF of order ${order} unsatisfiable${search?.result === 'NONE' ? ', as our finite model search did' : ''}`;
    return {
      ...this.blankRecord(order, 'NO_WITNESS_FOUND'),
      engine,
      established_by: refutation === null ? how : `${how}; its CNF${engine === 'CADICAL' ? ' and DRAT proof' : ''} are kept only if this order's evidence is stored (see evidence)`,
      search,
      encoding: sat?.encoding ?? null,
      solver: sat?.solver ?? null,
    };
  }

  private async workDir(): Promise<string> {
    this.dir ??= await mkdtemp(path.join(tmpdir(), 'jacobian-countermodel-'));
    return this.dir;
  }

  /** The probed cadical executable, checked once per run and only when CaDiCaL is needed. */
  private cadical(backend: Extract<SatBackend, { engine: 'CADICAL' }>): Promise<string> {
    this.cadicalBinary ??= (async () => {
      const binary = await findCadical(backend.location).catch((error: unknown) => {
        throw new JacobianError('PROVIDER_FAILED', `cadical is no longer where it was probed: ${toAppError(error).message}`);
      });
      if ((await executableDigest(binary)) !== backend.executableDigest) {
        throw new JacobianError('PROVIDER_FAILED', `the cadical executable at ${binary} is not the one probed (its sha256 changed); restart the runner to probe it again`);
      }
      return binary;
    })();
    return this.cadicalBinary;
  }

  /** Encode one order to CNF in a kernel and solve it with the SAT backend. */
  private async solve(problem: CountermodelProblem, wantProof: boolean): Promise<SatOutcome> {
    const n = problem.order;
    const estimate = estimateClauses(problem);
    if (estimate > MAX_COUNTERMODEL_CLAUSES) {
      return {
        kind: 'UNKNOWN',
        limit: true,
        reason: `the CNF of order ${n} would have up to ${estimate} clauses, more than the limit of ${MAX_COUNTERMODEL_CLAUSES}, and our search did not settle that order`,
        record: { encoding: null, solver: null },
      };
    }
    const dir = await this.workDir();
    const cnfPath = path.join(dir, `order-${n}.cnf`);
    const proofPath = path.join(dir, `order-${n}.drat`);
    const backend = this.engines.sat;
    const binary = backend.engine === 'CADICAL' ? await this.cadical(backend) : null;
    let encoded: z.infer<typeof EncodeOutput>;
    try {
      encoded = EncodeOutput.parse(
        await runKernel(this.context, ENCODE_KERNEL, {
          signature: this.input.signature,
          laws: this.input.laws,
          target: this.input.target,
          order: n,
          symmetry_breaking: this.input.symmetry_breaking,
          cnf_path: cnfPath,
          // An encoding that overruns (a slow kernel start on a loaded machine) is stopped with
          // time left to answer with the orders already settled.
        }, { reserveMs: reserveMs(this.context.deadline - Date.now()) }),
      );
    } catch (error) {
      const appError = toAppError(error);
      // A kernel stopped at its soft deadline leaves the run time to answer with what it settled.
      if (appError.code === 'EXECUTION_TIMEOUT' && !this.context.signal.aborted && Date.now() < this.context.deadline) {
        throw new BudgetEnded(`the budget ended while order ${n} was encoded as CNF`);
      }
      throw appError;
    }
    const encoding = { variables: encoded.variables, clauses: encoded.clauses, dimacs_bytes: encoded.bytes };
    const remaining = this.context.deadline - Date.now();
    const stopAt = this.context.deadline - reserveMs(remaining);
    if (stopAt <= Date.now()) return { kind: 'UNKNOWN', reason: `the budget ended after the encoding of order ${n}, before the solver could run`, record: { encoding, solver: null } };
    this.context.progress({ progress: n - this.min, total: this.max - this.min + 1, message: `order ${n}: solving ${encoded.variables} variables, ${encoded.clauses} clauses with ${backend.name}` });
    const layout = variableLayout(problem);

    if (backend.engine === 'CADICAL') {
      const solved = await runCadical({
        binary: binary as string,
        cnfPath,
        proofPath: wantProof ? proofPath : null,
        signal: this.context.signal,
        stopAt,
        // The answer is one status line and the model: at most a dozen characters per variable.
        maxStdoutBytes: 4096 + encoded.variables * 12,
        maxProofBytes: MAX_PROOF_FILE_BYTES,
        memoryMb: this.context.budget.memory_mb,
      });
      const solver = { name: backend.name, version: backend.version, result: solved.result, exit_code: solved.exitCode, solve_ms: solved.runtimeMs, stopped_by: solved.stoppedBy };
      const record = { encoding, solver };
      switch (solved.result) {
        case 'UNKNOWN':
          return {
            kind: 'UNKNOWN',
            record,
            reason:
              solved.stoppedBy === 'PROOF_LIMIT'
                ? `at order ${n} the DRAT proof grew beyond ${MAX_PROOF_FILE_BYTES} bytes, so the solver was stopped`
                : `at order ${n} the solver was stopped after ${solved.runtimeMs} ms to stay within the wall-time budget`,
          };
        case 'SATISFIABLE': {
          const model = solved.model;
          if (model === null) throw new JacobianError('PROVIDER_FAILED', 'cadical answered SATISFIABLE without a model');
          const decoded = decodeModel(layout, (variable) => model[variable] === 1);
          return { kind: 'SATISFIABLE', tables: decoded.tables, witness: decoded.witness, record };
        }
        case 'UNSATISFIABLE':
          return { kind: 'UNSATISFIABLE', record, refutation: { cnfPath, proofPath: wantProof ? proofPath : null, encoded, problem } };
      }
    }

    const decodeVariables = Math.max(...layout.tables.map((block) => block.first + block.cells * n - 1), ...layout.witness.map((block) => block.first + n - 1));
    let answer: z.infer<typeof Z3Output>;
    // Z3 stops itself at stopAt; the kernel is killed halfway through the reserve after it, which
    // still leaves time to answer with the orders settled before this one.
    try {
      answer = Z3Output.parse(await runKernel(this.context, Z3_KERNEL, { cnf_path: cnfPath, decode_variables: decodeVariables, stop_at: stopAt }, { reserveMs: Math.floor((this.context.deadline - stopAt) / 2) }));
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code === 'EXECUTION_TIMEOUT' && !this.context.signal.aborted && Date.now() < this.context.deadline) {
        throw new BudgetEnded(`the budget ended while Z3 worked on order ${n}`);
      }
      throw appError;
    }
    const solver = { name: backend.name, version: backend.version, result: answer.result, exit_code: null, solve_ms: answer.solve_ms, stopped_by: answer.stopped_by };
    const record = { encoding, solver };
    switch (answer.result) {
      case 'UNKNOWN':
        return { kind: 'UNKNOWN', record, reason: `at order ${n} Z3 was stopped after ${answer.solve_ms} ms to stay within the wall-time budget` };
      case 'SATISFIABLE': {
        const truths = new Set(answer.true_variables ?? []);
        const decoded = decodeModel(layout, (variable) => truths.has(variable));
        return { kind: 'SATISFIABLE', tables: decoded.tables, witness: decoded.witness, record };
      }
      case 'UNSATISFIABLE':
        return { kind: 'UNSATISFIABLE', record, refutation: { cnfPath, proofPath: null, encoded, problem } };
    }
  }

  private scope(order: number): { output: CountermodelOutput['scope']; outcome: NonNullable<CapabilityOutcome<CountermodelOutput>['scope']> } {
    const laws = plural(this.laws.length, 'source law');
    const target = clip(printLaw(this.target, this.signature), 300);
    const output: CountermodelOutput['scope'] = this.fixed
      ? { kind: 'ONE_FIXED_ORDER', order, statement: `algebras of order exactly ${order} for the given signature: satisfying the ${laws} and violating "${target}"; nothing about other orders` }
      : {
          kind: 'ORDER_RANGE',
          min: this.min,
          max: this.max,
          statement: `algebras of orders ${this.min} … ${this.max} for the given signature, satisfying the ${laws} and violating "${target}", searched in ascending order up to the first order with one; nothing about orders outside ${this.min} … ${this.max}, nor about orders above a witness's`,
        };
    const question = this.fixed ? `whether an algebra of order ${order}` : `the smallest order in ${this.min} … ${this.max} at which an algebra`;
    return { output, outcome: { kind: 'EXACT_INPUT', statement: clip(`${question} satisfies the source laws and violates the target law (${output.statement})`, 2000), input_uris: [] } };
  }

  private common(order: number, last: CountermodelOrderRecord | undefined): Omit<CountermodelOutput, 'status' | 'model' | 'violating_assignment' | 'target_values' | 'result_uri' | 'evidence' | 'reason'> {
    const problem = this.problem(order);
    return {
      order,
      scope: this.scope(order).output,
      symmetry_breaking: {
        method: this.input.symmetry_breaking,
        cells: symmetryCells(problem).map((cell) => cell.label),
        statement: symmetryStatement(problem),
        search_statement: searchSymmetryStatement(this.input.symmetry_breaking),
      },
      encoding: last?.encoding ?? null,
      solver: last?.solver ?? null,
      orders: this.settled.map((entry) => entry.record),
      evidence_policy: this.input.evidence,
    };
  }

  /** Obligations for the orders without a countermodel, grouped by what their outcome rests on. */
  private obligations(records: readonly CountermodelOrderRecord[]): Obligation[] {
    const none = records.filter((record) => record.outcome === 'NO_WITNESS_FOUND');
    const bySearch = none.filter((record) => record.engine === 'TS_SEARCH').map((record) => record.order);
    const bySolver = none.filter((record) => record.engine !== 'TS_SEARCH');
    const obligations: Obligation[] = [];
    if (bySearch.length > 0) {
      obligations.push({
        id: 'search-soundness',
        statement: `No countermodel of order ${listOrders(bySearch)}: established by our finite model search alone (exhaustive${this.input.symmetry_breaking === 'LEAST_NUMBER' ? ', with the least-number heuristic' : ''}); it produces no proof object, so this rests on the correctness of that search.`,
        status: 'OPEN',
        discharged_by: [],
      });
    }
    if (bySolver.length > 0) {
      const orders = listOrders(bySolver.map((record) => record.order));
      const symmetry =
        this.input.symmetry_breaking === 'NONE' ? '' : ` and that its symmetry breaking (${this.input.symmetry_breaking}) keeps at least one labelling of every isomorphism class of countermodels`;
      obligations.push({
        id: 'encoding-soundness',
        statement: `The CNF of order ${orders} is satisfiable whenever an algebra of that order satisfies the source laws and violates the target: assumed of the encoding (one-hot table cells, source laws flattened directly or through one-hot auxiliary functions, existential witness for the target)${symmetry}.`,
        status: 'OPEN',
        discharged_by: [],
      });
      const kept = bySolver.filter((record) => record.evidence?.drat_uri != null).map((record) => record.order);
      const z3 = bySolver.filter((record) => record.engine === 'Z3').map((record) => record.order);
      const unkept = bySolver.filter((record) => record.engine === 'CADICAL' && record.evidence?.drat_uri == null).map((record) => record.order);
      if (kept.length > 0) {
        obligations.push({
          id: 'drat-proof-check',
          statement: `The stored DRAT proof${kept.length === 1 ? '' : 's'} of order ${listOrders(kept)} refute${kept.length === 1 ? 's' : ''} the stored CNF: not yet checked by a DRAT checker independent of CaDiCaL (sat.unsat_proof.verify in VERIFY mode checks one, given its drat_uri as proof_uri).`,
          status: 'OPEN',
          discharged_by: [],
        });
      }
      if (unkept.length > 0) {
        obligations.push({
          id: 'solver-refutation-unproved',
          statement: `CaDiCaL's refutation of order ${listOrders(unkept)} was not kept (its proof is moot once a later order has a countermodel, or could not be stored); it rests on CaDiCaL and the encoding. Ask for evidence EVERY_ORDER to keep it.`,
          status: 'OPEN',
          discharged_by: [],
        });
      }
      if (z3.length > 0) {
        obligations.push({
          id: 'z3-refutation-unproved',
          statement: `Z3 found the CNF of order ${listOrders(z3)} unsatisfiable; Z3 writes no DRAT proof, so no proof is kept and this rests on Z3 and the encoding.`,
          status: 'OPEN',
          discharged_by: [],
        });
      }
    }
    return obligations;
  }

  private indeterminate(reason: string, limit = false): CapabilityOutcome<CountermodelOutput> {
    // The order where the run stopped is listed even when it stopped before anything ran on it.
    if (this.settled.at(-1)?.record.order !== this.current) {
      this.settled.push({ record: { ...this.blankRecord(this.current, 'INDETERMINATE'), established_by: reason }, refutation: null });
    }
    const records = this.settled.map((entry) => entry.record);
    const settled = records.filter((record) => record.outcome === 'NO_WITNESS_FOUND');
    const last = records.at(-1);
    const order = this.current;
    const message = clip(settled.length === 0 ? reason : `${reason}; order${settled.length === 1 ? '' : 's'} ${listOrders(settled.map((r) => r.order))} had no countermodel`, 2000);
    const diagnostic: Diagnostic = limit
      ? { severity: 'WARNING', code: 'ENCODING_LIMIT_REACHED', stage: 'EXECUTION', message, path: ['payload', 'orders', 'max'], hint: 'lower orders.max, or state laws with fewer variables and nested subterms' }
      : { severity: 'WARNING', code: 'BUDGET_EXHAUSTED', stage: 'EXECUTION', message, path: null, hint: 'raise budget.wall_time_ms, or lower the order' };
    // Proofs of the settled orders are dropped: the answer is not final, so they back no conclusion.
    for (const entry of this.settled) if (entry.record.outcome === 'NO_WITNESS_FOUND' && entry.refutation !== null) entry.record.established_by = entry.record.established_by.replace(/; its CNF.*$/, '; its evidence was not kept (no final answer)');
    return {
      status: 'COMPLETED',
      output: { ...this.common(order, last), status: 'INDETERMINATE', model: null, violating_assignment: null, target_values: null, result_uri: null, evidence: null, reason: clip(reason, 2000) },
      scope: this.scope(order).outcome,
      completeness:
        settled.length === 0
          ? { status: 'UNKNOWN', basis: clip(`no answer at order ${order}: ${reason}`, 1000) }
          : { status: 'PARTIAL', basis: clip(`orders ${listOrders(settled.map((r) => r.order))} were searched without a countermodel; from order ${order} on nothing was settled: ${reason}`, 1000) },
      qualifiers: ['BOUNDED'],
      assurance: { level: 'HEURISTIC', basis: 'no final answer: the search stopped before settling every requested order', verification_record_uri: null, checker_id: null },
      obligations: this.obligations(records),
      relationships: [],
      artifact_uris: [],
      diagnostics: [diagnostic, ...this.diagnostics],
    };
  }

  /** Recheck the laws and the target in the model with the plain evaluator: here when small, in a kernel otherwise. */
  private async recheck(order: number, tables: Record<string, OperationTable>): Promise<z.infer<typeof EvaluateOutput>['results']> {
    const all = [...this.laws, this.target];
    const visits = all.reduce((sum, law) => sum + order ** law.variables.length, 0);
    const algebraInput = { order, tables };
    if (visits <= INLINE_RECHECK_ASSIGNMENTS) {
      return evaluateLaws(validateAlgebra(this.signature, algebraInput), all).map((result) => ({ ...result, violation: result.violation }));
    }
    return EvaluateOutput.parse(await runKernel(this.context, EVALUATE_KERNEL, { signature: this.input.signature, laws: [...this.input.laws, this.input.target], algebra: algebraInput })).results;
  }

  /** Recheck a model exhaustively, store it as a countermodel result artifact, and answer WITNESS_FOUND. */
  private async witness(
    problem: CountermodelProblem,
    tables: Record<string, OperationTable>,
    assignment: Record<string, number>,
    found: Pick<CountermodelOrderRecord, 'engine' | 'search' | 'encoding' | 'solver'>,
  ): Promise<CapabilityOutcome<CountermodelOutput>> {
    const order = problem.order;
    const algebraInput = { order, tables };
    const algebra = validateAlgebra(this.signature, algebraInput);
    // The engine's own witness assignment must already violate the target in its tables.
    if (evaluateTerm(algebra, this.target.left, assignment) === evaluateTerm(algebra, this.target.right, assignment)) {
      throw new JacobianError('PROVIDER_FAILED', "the engine's witness assignment does not violate the target in its own model; the result was discarded");
    }
    const results = await this.recheck(order, tables);
    const failing = results.slice(0, -1).findIndex((result) => !result.holds);
    const violation = results.at(-1)?.violation ?? null;
    if (results.length !== this.laws.length + 1 || failing >= 0 || violation === null) {
      throw new JacobianError(
        'PROVIDER_FAILED',
        failing >= 0 ? `the model found at order ${order} violates source law ${failing}; the result was discarded` : `the model found at order ${order} satisfies the target law; the result was discarded`,
      );
    }
    const engineName = found.engine === 'TS_SEARCH' ? 'our finite model search' : found.engine === 'CADICAL' ? 'CaDiCaL' : 'Z3';
    const targetValues = { left: violation.left, right: violation.right };
    // The request's own texts, not our parse, so that a checker re-parses exactly what was asked.
    const payload = CountermodelResultPayloadSchema.parse({
      signature: this.input.signature,
      laws: this.input.laws,
      target: this.input.target,
      order,
      tables,
      violating_assignment: violation.assignment,
      target_values: targetValues,
      provenance: {
        capability_id: COUNTERMODEL_CAPABILITY_ID,
        capability_version: COUNTERMODEL_VERSION,
        provider: this.runtime.provider,
        provider_version: this.runtime.version,
        provider_digest: this.runtime.digest,
        engine: found.engine,
      },
    });
    let stored: StoredArtifact | null = null;
    try {
      stored = await this.context.artifacts.put(
        {
          schema_uri: COUNTERMODEL_RESULT_SCHEMA_URI,
          semantics_uri: COUNTERMODEL_RESULT_SEMANTICS_URI,
          payload,
          parents: [],
          summary: { order, laws: this.laws.length, target: printLaw(this.target, this.signature).slice(0, 200) },
        },
        { signal: this.context.signal },
      );
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
      this.diagnostics.push(notRetained('countermodel', appError.message));
    }
    const record: CountermodelOrderRecord = {
      ...this.blankRecord(order, 'WITNESS_FOUND'),
      ...found,
      established_by: `${engineName} found it; rechecked exhaustively by the evaluator${stored === null ? '' : ' and stored (result_uri)'}`,
      evidence_kept: stored !== null,
    };
    this.settled.push({ record, refutation: null });
    const below = this.settled.filter((entry) => entry.record.outcome === 'NO_WITNESS_FOUND');
    // Evidence of lower orders is stored only when asked for; otherwise their files go with the work folder.
    const uris: string[] = stored === null ? [] : [stored.uri];
    const relationships: CapabilityOutcome<CountermodelOutput>['relationships'] = [];
    if (this.input.evidence === 'EVERY_ORDER') {
      for (const entry of below) if (entry.refutation !== null) await this.storeRefutation(entry, uris, relationships);
    }
    const lower = below.map((entry) => entry.record.order);
    return {
      status: 'COMPLETED',
      output: {
        ...this.common(order, record),
        status: 'WITNESS_FOUND',
        model: algebraInput,
        violating_assignment: violation.assignment,
        target_values: targetValues,
        result_uri: stored?.uri ?? null,
        evidence: null,
        reason: null,
      },
      scope: this.scope(order).outcome,
      completeness: {
        status: 'COMPLETE',
        basis: clip(
          `a countermodel of order ${order} exists: the returned tables satisfy every source law under all assignments and violate the target${lower.length > 0 ? `; orders ${listOrders(lower)} were searched without one (see orders for the engine and evidence of each)` : ''}`,
          1000,
        ),
      },
      qualifiers: ['EXACT'],
      assurance: {
        level: 'COMPUTED',
        basis: `found by ${engineName}; the tables were rechecked exhaustively by our evaluator (every assignment of every law), so the witness does not rest on the engine; ${VERIFY_CAPABILITY_ID} can verify the stored result`,
        verification_record_uri: null,
        checker_id: null,
      },
      obligations: this.obligations(below.map((entry) => entry.record)),
      relationships,
      artifact_uris: uris,
      diagnostics: this.diagnostics,
    };
  }

  /** No order has a countermodel: make sure each has the SAT solver's refutation, store them all, and answer NO_WITNESS_FOUND. */
  private async refutation(): Promise<CapabilityOutcome<CountermodelOutput>> {
    for (const entry of this.settled) {
      if (entry.refutation !== null) continue;
      this.current = entry.record.order;
      this.checkCancelled();
      let sat: SatOutcome;
      try {
        sat = await this.solve(this.problem(entry.record.order), true);
      } catch (error) {
        if (!(error instanceof BudgetEnded)) throw error;
        sat = { kind: 'UNKNOWN', reason: error.message, record: { encoding: null, solver: null } };
      }
      if (sat.kind === 'SATISFIABLE') this.disagree(entry.record.order);
      if (sat.kind === 'UNKNOWN') {
        // Our search settled this order; the solver's refutation could not be had in the budget.
        entry.record = { ...entry.record, ...(sat.record.encoding === null ? {} : sat.record), established_by: `${entry.record.established_by}; the SAT solver's refutation could not be produced within the budget (${sat.reason})` };
        this.diagnostics.push(notRetained(`CNF and refutation of order ${entry.record.order}`, sat.reason));
        continue;
      }
      entry.refutation = sat.refutation;
      entry.record = this.noneRecord(entry.record.order, this.engines.sat.engine, entry.record.search, sat.record, sat.refutation);
    }
    const uris: string[] = [];
    const relationships: CapabilityOutcome<CountermodelOutput>['relationships'] = [];
    for (const entry of this.settled) if (entry.refutation !== null) await this.storeRefutation(entry, uris, relationships);
    const records = this.settled.map((entry) => entry.record);
    const last = records.at(-1);
    const order = last?.order ?? this.max;
    const solverName = this.engines.sat.engine === 'CADICAL' ? 'CaDiCaL' : 'Z3';
    const range = this.fixed ? `order ${order}` : `every order ${this.min} … ${this.max}`;
    const proofs = this.engines.sat.engine === 'CADICAL' ? 'with DRAT proofs that add the empty clause; the proofs were not replayed by an independent checker here' : 'Z3 writes no proof, so none is kept';
    return {
      status: 'COMPLETED',
      output: { ...this.common(order, last), status: 'NO_WITNESS_FOUND', model: null, violating_assignment: null, target_values: null, result_uri: null, evidence: last?.evidence ?? null, reason: null },
      scope: this.scope(order).outcome,
      completeness: {
        status: 'COMPLETE',
        basis: clip(`${solverName} refuted the CNF of ${range}: no algebra of ${this.fixed ? 'that order' : 'those orders'} satisfies the source laws and violates the target, given that the encoding is sound`, 1000),
      },
      qualifiers: ['EXACT', 'EXHAUSTIVE'],
      assurance: {
        level: 'COMPUTED',
        basis: `UNSATISFIABLE by ${solverName} at ${range}, ${proofs}; the encoding is assumed sound`,
        verification_record_uri: null,
        checker_id: null,
      },
      obligations: this.obligations(records),
      relationships,
      artifact_uris: uris,
      diagnostics: this.diagnostics,
    };
  }

  /** Store one order's CNF and proof (when there is one), and note them in its record. */
  private async storeRefutation(entry: Settled, uris: string[], relationships: CapabilityOutcome<CountermodelOutput>['relationships']): Promise<void> {
    const refutation = entry.refutation as Refutation;
    const { problem, encoded } = refutation;
    const order = problem.order;
    const limit = this.context.artifacts.limits.maxPayloadBytes;
    let proof: string | null = null;
    let proofBytes = 0;
    let closed = false;
    let derives = false;
    if (refutation.proofPath !== null) {
      proofBytes = (await stat(refutation.proofPath)).size;
      // Evidence larger than the store accepts is not read whole: its tail is enough to see the empty clause.
      proof = proofBytes <= limit ? await readFile(refutation.proofPath, 'utf8') : null;
      const text = proof ?? (await readTail(refutation.proofPath, proofBytes, TAIL_BYTES));
      closed = endsWithEmptyClause(text);
      derives = closed || derivesEmptyClause(text);
      if (!derives) throw new JacobianError('PROVIDER_FAILED', `cadical answered UNSATISFIABLE at order ${order} but its DRAT proof does not add the empty clause; the result was discarded`);
    }
    const layout = variableLayout(problem);
    const encodingDescription: JsonObject = {
      signature: problem.signature.operations.map((operation) => ({ name: operation.name, arity: operation.arity, infix: operation.infix })),
      laws: problem.laws.map((law) => printLaw(law, problem.signature)),
      target: printLaw(problem.target, problem.signature),
      order,
      table_variables: layout.tables.map((block) => ({ operation: block.operation, arity: block.arity, first: block.first, cells: block.cells })),
      table_variable_rule: 'T(f, cell, v) = first + cell·n + v, cells in lexicographic order of the arguments (row-major), v in 0 … n−1',
      witness_variables: layout.witness.map((block) => ({ variable: block.variable, first: block.first })),
      auxiliary_variables: layout.auxiliaries.map((block) => ({ pattern: block.pattern, arity: block.arity, first: block.first, cells: block.cells })),
      auxiliary_variable_rule: 'A(p, cell, v) = first + cell·n + v: the value v of the pattern p (variables #0, #1, … its arguments, the cell their values in lexicographic order); exactly one per cell, defined by clauses from the tables',
      symmetry_breaking: { method: problem.symmetryBreaking, cells: symmetryCells(problem).map((cell) => cell.label), statement: symmetryStatement(problem) },
      sections: encoded.sections,
    };
    const store = async (what: string, draft: ArtifactDraft): Promise<StoredArtifact | null> => {
      try {
        return await this.context.artifacts.put(draft, { signal: this.context.signal });
      } catch (error) {
        const appError = toAppError(error);
        // The canonical JSON can still exceed the limit the raw file size met.
        if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
        this.diagnostics.push(notRetained(what, appError.message));
        return null;
      }
    };
    const tooLarge = (what: string, bytes: number): null => {
      this.diagnostics.push(notRetained(what, `${bytes} bytes exceed the store's payload limit of ${limit}`));
      return null;
    };
    const cnf =
      encoded.bytes > limit
        ? tooLarge(`CNF of order ${order}`, encoded.bytes)
        : await store(`CNF of order ${order}`, {
            schema_uri: SAT_CNF_SCHEMA_URI,
            semantics_uri: COUNTERMODEL_CNF_SEMANTICS_URI,
            payload: { format: 'DIMACS_CNF', variables: encoded.variables, clauses: encoded.clauses, dimacs: await readFile(refutation.cnfPath, 'utf8'), encoding: encodingDescription },
            parents: [],
            summary: { variables: encoded.variables, clauses: encoded.clauses, order, bytes: encoded.bytes },
          });
    // A proof means something only next to the CNF it refutes, so it is kept only with its parent.
    const drat =
      cnf === null || refutation.proofPath === null
        ? null
        : proof === null
          ? tooLarge(`DRAT proof of order ${order}`, proofBytes)
          : await store(`DRAT proof of order ${order}`, {
              schema_uri: SAT_DRAT_SCHEMA_URI,
              semantics_uri: DRAT_REFUTATION_SEMANTICS_URI,
              payload: { format: 'DRAT_TEXT', proof, lines: proof.split('\n').filter((line) => line.trim() !== '').length },
              parents: [cnf.uri],
              summary: { bytes: proofBytes, ends_with_empty_clause: closed, derives_empty_clause: derives, solver: `${CADICAL_PROVIDER} ${this.engines.sat.version}`.trim() },
            });
    if (cnf !== null) uris.push(cnf.uri);
    if (drat !== null) uris.push(drat.uri);
    if (cnf !== null && drat !== null) relationships.push({ subject: drat.uri, predicate: 'COMPUTED_FROM', object: cnf.uri });
    const proofFormat = refutation.proofPath === null ? 'NONE' : 'DRAT_TEXT';
    entry.record = {
      ...entry.record,
      evidence_kept: cnf !== null,
      evidence: { cnf_uri: cnf?.uri ?? null, drat_uri: drat?.uri ?? null, drat_bytes: proofBytes, ends_with_empty_clause: closed, derives_empty_clause: derives, proof_format: proofFormat },
      established_by: entry.record.established_by.replace(
        /; its CNF.*$/,
        cnf === null
          ? '; its evidence could not be retained'
          : proofFormat === 'NONE'
            ? '; its CNF is stored (Z3 writes no proof)'
            : drat === null
              ? '; its CNF is stored, its DRAT proof could not be retained'
              : '; its CNF and DRAT proof are stored',
      ),
    };
  }
}
