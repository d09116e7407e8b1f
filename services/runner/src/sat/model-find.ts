/**
 * sat.model.find: a satisfying assignment of a CNF, or the finding that there is none. Served by
 * CaDiCaL when it is installed, and otherwise by our TypeScript CDCL solver (the embedded
 * default). A model is rechecked against every clause before it is returned and stored (parent:
 * the CNF) for sat.model.verify; an UNSATISFIABLE answer carries no proof here — that is
 * sat.unsat_proof.find's work — and says so as an open obligation.
 */
import { z } from 'zod';
import { JacobianError, toAppError, type CapabilityContext, type CapabilityDefinition, type CapabilityOutcome, type Diagnostic, type ProviderRuntime } from '@jacobian/shared';
import type { CadicalLocation } from '../providers/cadical.js';
import { cnfOperandShape, exactlyOneCnf, MAX_INLINE_DIMACS_LENGTH, resolveCnf, storeCnf, type ResolvedCnf } from './cnf-operand.js';
import { SAT_CNF_SCHEMA_URI, SAT_LIMITS, SAT_MODEL_SCHEMA_URI } from './sat-domain.js';
import { modelDraft } from './model-draft.js';
import { isCadical, MODEL_OFFLOAD_MIN_BYTES, MODEL_OFFLOAD_MIN_MEMORY_MB, SAT_TS_PROVIDER, solveWithCadical, solveWithTypescript, type OffloadedModel, type SolveOutcome } from './solve.js';

export const MODEL_FIND_CAPABILITY_ID = 'sat.model.find';
const MODEL_VERIFY_CAPABILITY_ID = 'sat.model.verify';
const PROOF_FIND_CAPABILITY_ID = 'sat.unsat_proof.find';

export const FindModelInput = z.object({ ...cnfOperandShape }).strict().superRefine(exactlyOneCnf);
export type FindModelInput = z.infer<typeof FindModelInput>;

const Int = z.number().int();

/**
 * Largest model returned inline (about 1 MB of JSON): a larger one is in the answer only as its
 * stored artifact (model_uri), so that a model of millions of variables does not become a
 * multi-megabyte answer that takes longer to send than the budget allowed for the run.
 */
export const MAX_INLINE_MODEL_VARIABLES = 100_000;

export const SatStatus = { SATISFIABLE: 'SATISFIABLE', UNSATISFIABLE: 'UNSATISFIABLE', UNKNOWN: 'UNKNOWN' } as const;

/** What the solver reported, shared by the SAT producer outputs. */
export const SolverReport = z
  .object({
    name: z.string(),
    version: z.string(),
    result: z.enum(SatStatus),
    solve_ms: Int,
    exit_code: Int.nullable(),
    stopped_by: z.enum(['DEADLINE', 'PROOF_LIMIT']).nullable(),
  })
  .strict();

export const FindModelOutput = z
  .object({
    status: z.enum(SatStatus).describe('SATISFIABLE with a model, UNSATISFIABLE (no model exists), or UNKNOWN (the budget ended first)'),
    variables: Int,
    clauses: Int,
    model: z
      .array(Int)
      .nullable()
      .describe(
        `SATISFIABLE: one literal per variable, in order (v true, −v false); it satisfies every clause. Null when the formula has more than ${MAX_INLINE_MODEL_VARIABLES} variables: the model is then in model_uri (or, when even the store refuses its size, not retained, as a diagnostic says)`,
      ),
    model_uri: z.string().nullable().describe(`SATISFIABLE: the stored model (${SAT_MODEL_SCHEMA_URI}, parent: the CNF), to verify with ${MODEL_VERIFY_CAPABILITY_ID}`),
    cnf_uri: z.string().nullable().describe('the stored CNF the model is about (the given cnf_uri, or the inline formula stored when a model was found)'),
    solver: SolverReport,
    reason: z.string().nullable().describe('UNKNOWN: why there is no answer'),
  })
  .strict();
export type FindModelOutput = z.infer<typeof FindModelOutput>;

export const SMALL_SAT_EXAMPLE = 'p cnf 3 3\n1 -2 0\n2 3 0\n-1 -3 0\n';
export const SMALL_UNSAT_EXAMPLE = 'p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n';

/** Store a rechecked model with its CNF as parent; null (and a diagnostic) when the store refuses its size. */
export async function storeModel(resolved: ResolvedCnf, model: number[], context: CapabilityContext, diagnostics: Diagnostic[]): Promise<{ modelUri: string | null; cnfUri: string | null }> {
  try {
    const cnf = await storeCnf(resolved, context);
    const stored = await context.artifacts.put(modelDraft(resolved.cnf.variables, model, cnf.uri), { signal: context.signal });
    return { modelUri: stored.uri, cnfUri: cnf.uri };
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
    diagnostics.push(modelNotRetained(resolved.cnf.variables, appError.message));
    return { modelUri: null, cnfUri: resolved.uri };
  }
}

/**
 * Store a model the answer kernel rechecked and prepared (see solve.ts), as {@link storeModel}
 * stores one read here: the CNF (unless the request named a stored one), then the model.
 */
async function storeOffloaded(resolved: ResolvedCnf, offloaded: OffloadedModel, context: CapabilityContext, diagnostics: Diagnostic[]): Promise<{ modelUri: string | null; cnfUri: string | null }> {
  const stored = offloaded.stored;
  if (stored === null) throw new JacobianError('INTERNAL', 'the answer kernel found a model but prepared nothing to store');
  if ('refused' in stored) {
    diagnostics.push(modelNotRetained(resolved.cnf.variables, stored.refused));
    return { modelUri: null, cnfUri: resolved.uri };
  }
  const cnfUri = stored.cnf === null ? (resolved.uri as string) : (await context.artifacts.put(stored.cnf.draft, { signal: context.signal })).uri;
  const model = await context.artifacts.put(stored.model.draft, { signal: context.signal });
  return { modelUri: model.uri, cnfUri };
}

/** The diagnostic of a model the store refused for its size (`why`: the store's message). */
export function modelNotRetained(variables: number, why: string): Diagnostic {
  return {
      severity: 'WARNING',
      code: 'EVIDENCE_NOT_RETAINED',
      stage: 'ARTIFACT',
      message: `the model was not stored: ${why}`.slice(0, 2000),
      path: null,
      hint: variables <= MAX_INLINE_MODEL_VARIABLES ? 'the model in the output stands' : null,
  };
}

/**
 * The model as the output carries it: inline up to MAX_INLINE_MODEL_VARIABLES variables, else
 * null with a diagnostic saying where it is (model_uri), or that it is not retained at all.
 */
export function inlineModel(variables: number, model: number[] | null, modelUri: string | null, diagnostics: Diagnostic[]): number[] | null {
  if (variables <= MAX_INLINE_MODEL_VARIABLES) {
    if (model === null) throw new JacobianError('INTERNAL', `a model of ${variables} variables should be inline but was not kept`);
    return model;
  }
  diagnostics.push(
    modelUri !== null
      ? {
          severity: 'INFO',
          code: 'OUTPUT_NOT_INLINE',
          stage: 'ARTIFACT',
          message: `the model of ${variables} variables is not inline (more than ${MAX_INLINE_MODEL_VARIABLES}); it is stored as ${modelUri}`,
          path: ['output', 'model'],
          hint: 'read the model from the artifact model_uri',
        }
      : {
          // Too large to store and too large to answer with: the verdict stands (the model was
          // rechecked against every clause), the model itself is not retained.
          severity: 'WARNING',
          code: 'OUTPUT_NOT_INLINE',
          stage: 'ARTIFACT',
          message: `the model of ${variables} variables is neither inline (more than ${MAX_INLINE_MODEL_VARIABLES}) nor stored (see EVIDENCE_NOT_RETAINED); SATISFIABLE stands: the model was rechecked against every clause`,
          path: ['output', 'model'],
          hint: 'no model of this formula is retained; split the formula, or assign some variables, to get one of a size that can be stored',
        },
  );
  return null;
}

function solverReport(runtime: ProviderRuntime, solved: SolveOutcome): z.infer<typeof SolverReport> {
  return { name: runtime.provider, version: runtime.version, result: solved.result, solve_ms: solved.solveMs, exit_code: solved.exitCode, stopped_by: solved.stoppedBy };
}

/**
 * The sat.model.find capability, served by `runtime`: cadical's (an EXECUTABLE digest, checked
 * again before each run) or our TypeScript solver's.
 *
 * @throws JacobianError REGISTRATION_INVALID for any other runtime.
 */
export function findModel(runtime: ProviderRuntime, location: CadicalLocation = {}): CapabilityDefinition<FindModelInput, FindModelOutput> {
  const cadical = isCadical(runtime);
  if (!cadical && runtime.provider !== SAT_TS_PROVIDER) {
    throw new JacobianError('REGISTRATION_INVALID', `${MODEL_FIND_CAPABILITY_ID} runs on cadical or ${SAT_TS_PROVIDER}, not ${runtime.provider}`);
  }
  const solverName = cadical ? 'CaDiCaL' : 'our TypeScript CDCL solver';
  return {
    id: MODEL_FIND_CAPABILITY_ID,
    version: '1.0.0',
    title: 'Find a satisfying assignment of a CNF formula',
    description: `Decides a propositional formula in CNF (DIMACS text inline, or a stored CNF) with ${solverName}. SATISFIABLE returns an assignment of every variable, rechecked against every clause, and stores it (model_uri) for ${MODEL_VERIFY_CAPABILITY_ID}; UNSATISFIABLE means no assignment exists, without a proof (use ${PROOF_FIND_CAPABILITY_ID} for a checkable DRAT refutation); UNKNOWN means the budget ended first.`,
    tags: ['sat', 'cnf', 'dimacs', 'satisfiability', 'model', 'propositional-logic', cadical ? 'cadical' : 'cdcl', 'witness'],
    keywords: ['satisfying assignment', 'SAT solver', 'solve a CNF', 'satisfiable', 'boolean satisfiability', 'SAT', 'CaDiCaL', 'CDCL', 'model', 'truth assignment'],
    domain: 'sat',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [SAT_CNF_SCHEMA_URI],
    produced_artifact_types: [SAT_MODEL_SCHEMA_URI, SAT_CNF_SCHEMA_URI],
    input: FindModelInput,
    output: FindModelOutput,
    examples: [
      { title: 'A satisfiable formula', mode: 'EXPLORE', payload: { dimacs: SMALL_SAT_EXAMPLE } },
      { title: 'All four clauses over two variables (unsatisfiable)', mode: 'EXPLORE', payload: { dimacs: SMALL_UNSAT_EXAMPLE } },
    ],
    relationships: [
      { kind: 'VERIFIED_BY', capability_id: MODEL_VERIFY_CAPABILITY_ID },
      { kind: 'CONSUMES_OUTPUT_OF', capability_id: 'sat.cnf.materialize' },
    ],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the one formula given: a model of it, or that it has none; nothing about other formulas.',
    limits: { max_inline_dimacs_length: MAX_INLINE_DIMACS_LENGTH, max_variables: SAT_LIMITS.maxVariables, max_literals: SAT_LIMITS.maxLiterals, max_inline_model_variables: MAX_INLINE_MODEL_VARIABLES },
    async run(input, context): Promise<CapabilityOutcome<FindModelOutput>> {
      const resolved = await resolveCnf(input, context);
      const { cnf } = resolved;
      const offload =
        context.budget.memory_mb >= MODEL_OFFLOAD_MIN_MEMORY_MB ? { minBytes: MODEL_OFFLOAD_MIN_BYTES, cnfUri: resolved.uri, maxInlineVariables: MAX_INLINE_MODEL_VARIABLES } : null;
      const solved = cadical ? await solveWithCadical(cnf, context, runtime, location, null, offload) : await solveWithTypescript(cnf, context);
      const base = { variables: cnf.variables, clauses: cnf.clauseCount, solver: solverReport(runtime, solved) };
      const inputUris = resolved.uri === null ? [] : [resolved.uri];
      const scope = { kind: 'EXACT_INPUT' as const, statement: `whether ${resolved.description} is satisfiable`, input_uris: inputUris };
      const diagnostics: Diagnostic[] = [];
      switch (solved.result) {
        case 'SATISFIABLE': {
          const { modelUri, cnfUri } = solved.offloaded === undefined ? await storeModel(resolved, solved.model as number[], context, diagnostics) : await storeOffloaded(resolved, solved.offloaded, context, diagnostics);
          const inline = inlineModel(cnf.variables, solved.model, modelUri, diagnostics);
          return {
            status: 'COMPLETED',
            output: { ...base, status: 'SATISFIABLE', model: inline, model_uri: modelUri, cnf_uri: cnfUri, reason: null },
            scope,
            completeness: { status: 'COMPLETE', basis: 'a model was found and it satisfies every clause' },
            qualifiers: ['EXACT'],
            assurance: {
              level: 'COMPUTED',
              basis: `found by ${solverName}; the assignment was rechecked against every clause by code independent of the solver; ${MODEL_VERIFY_CAPABILITY_ID} can verify the stored model`,
              verification_record_uri: null,
              checker_id: null,
            },
            obligations: [],
            relationships: modelUri !== null && cnfUri !== null ? [{ subject: modelUri, predicate: 'COMPUTED_FROM', object: cnfUri }] : [],
            artifact_uris: [modelUri, cnfUri].filter((uri): uri is string => uri !== null),
            diagnostics,
          };
        }
        case 'UNSATISFIABLE':
          return {
            status: 'COMPLETED',
            output: { ...base, status: 'UNSATISFIABLE', model: null, model_uri: null, cnf_uri: resolved.uri, reason: null },
            scope,
            completeness: { status: 'COMPLETE', basis: `${solverName} found that no assignment satisfies every clause` },
            qualifiers: ['EXACT'],
            assurance: { level: 'COMPUTED', basis: `UNSATISFIABLE by ${solverName}, without a proof`, verification_record_uri: null, checker_id: null },
            obligations: [
              {
                id: 'unsat-certificate',
                statement: `No refutation was kept: ${PROOF_FIND_CAPABILITY_ID} finds one as a DRAT proof, which sat.unsat_proof.verify checks independently.`,
                status: 'OPEN',
                discharged_by: [],
              },
            ],
            relationships: [],
            artifact_uris: inputUris,
            diagnostics,
          };
        case 'UNKNOWN': {
          const reason = solved.stoppedBy === 'DEADLINE' ? `the solver was stopped after ${solved.solveMs} ms to stay within the wall-time budget` : `${solverName} gave up without an answer`;
          return {
            status: 'COMPLETED',
            output: { ...base, status: 'UNKNOWN', model: null, model_uri: null, cnf_uri: resolved.uri, reason },
            scope,
            completeness: { status: 'UNKNOWN', basis: reason },
            qualifiers: ['BOUNDED'],
            assurance: { level: 'HEURISTIC', basis: 'no mathematical conclusion: the search stopped before an answer', verification_record_uri: null, checker_id: null },
            obligations: [],
            relationships: [],
            artifact_uris: inputUris,
            diagnostics: [{ severity: 'WARNING', code: 'BUDGET_EXHAUSTED', stage: 'EXECUTION', message: reason, path: null, hint: 'raise budget.wall_time_ms' }],
          };
        }
      }
    },
  };
}
