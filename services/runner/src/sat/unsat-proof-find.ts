/**
 * sat.unsat_proof.find: a refutation of a CNF as a DRAT proof kept as an artifact (parent: the
 * CNF), found by CaDiCaL — or a model, when the formula is satisfiable. CaDiCaL 1.5 writes DRAT,
 * not LRAT; sat.unsat_proof.verify checks the DRAT with our own backward checker and can trim it
 * to LRAT. The refutation stays COMPUTED here, with the proof check as an open obligation.
 */
import { z } from 'zod';
import { JacobianError, toAppError, type CapabilityDefinition, type CapabilityOutcome, type Diagnostic, type ProviderRuntime, type StoredArtifact } from '@jacobian/shared';
import type { CadicalLocation } from '../providers/cadical.js';
import { cnfOperandShape, exactlyOneCnf, MAX_INLINE_DIMACS_LENGTH, resolveCnf, storeCnf } from './cnf-operand.js';
import { inlineModel, MAX_INLINE_MODEL_VARIABLES, SatStatus, SMALL_SAT_EXAMPLE, SMALL_UNSAT_EXAMPLE, SolverReport, storeModel } from './model-find.js';
import { DRAT_REFUTATION_SEMANTICS_URI, SAT_CNF_SCHEMA_URI, SAT_DRAT_SCHEMA_URI, SAT_LIMITS, SAT_MODEL_SCHEMA_URI } from './sat-domain.js';
import { isCadical, solveWithCadical } from './solve.js';

export const UNSAT_PROOF_FIND_CAPABILITY_ID = 'sat.unsat_proof.find';
const VERIFY_CAPABILITY_ID = 'sat.unsat_proof.verify';

/** Largest DRAT proof cadical may write before it is stopped. */
export const MAX_PROOF_FILE_BYTES = 256 * 1024 * 1024;

export const FindUnsatProofInput = z.object({ ...cnfOperandShape }).strict().superRefine(exactlyOneCnf);
export type FindUnsatProofInput = z.infer<typeof FindUnsatProofInput>;

const Int = z.number().int();

export const FindUnsatProofOutput = z
  .object({
    status: z.enum(SatStatus).describe('UNSATISFIABLE with a DRAT proof, SATISFIABLE with a model, or UNKNOWN'),
    variables: Int,
    clauses: Int,
    cnf_uri: z.string().nullable().describe('the stored CNF the proof refutes (parent of the proof)'),
    proof_uri: z.string().nullable().describe(`UNSATISFIABLE: the stored DRAT proof (${SAT_DRAT_SCHEMA_URI}), to check with ${VERIFY_CAPABILITY_ID}; null when too large to keep`),
    proof: z
      .object({ format: z.literal('DRAT_TEXT'), bytes: Int, lemmas: Int, deletions: Int, ends_with_empty_clause: z.boolean() })
      .strict()
      .nullable(),
    model: z
      .array(Int)
      .nullable()
      .describe(`SATISFIABLE: one literal per variable (rechecked against every clause); null above ${MAX_INLINE_MODEL_VARIABLES} variables, the model then in model_uri`),
    model_uri: z.string().nullable(),
    solver: SolverReport,
    reason: z.string().nullable(),
  })
  .strict();
export type FindUnsatProofOutput = z.infer<typeof FindUnsatProofOutput>;

/** Count the additions and deletions of a text DRAT proof, and whether its last addition is the empty clause. */
export function dratShape(proof: string): { lemmas: number; deletions: number; endsWithEmptyClause: boolean } {
  let lemmas = 0;
  let deletions = 0;
  let lastAddition = '';
  for (const raw of proof.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('c')) continue;
    if (line.startsWith('d')) deletions++;
    else {
      lemmas++;
      lastAddition = line;
    }
  }
  return { lemmas, deletions, endsWithEmptyClause: lastAddition === '0' };
}

/**
 * The sat.unsat_proof.find capability on the probed cadical.
 *
 * @throws JacobianError REGISTRATION_INVALID when `runtime` is not cadical's.
 */
export function findUnsatProof(runtime: ProviderRuntime, location: CadicalLocation = {}): CapabilityDefinition<FindUnsatProofInput, FindUnsatProofOutput> {
  if (!isCadical(runtime)) throw new JacobianError('REGISTRATION_INVALID', `${UNSAT_PROOF_FIND_CAPABILITY_ID} needs the cadical provider's runtime, got ${runtime.provider}`);
  return {
    id: UNSAT_PROOF_FIND_CAPABILITY_ID,
    version: '1.0.0',
    title: 'Refute a CNF formula with a DRAT proof (or find a model)',
    description: `Runs CaDiCaL on a CNF (DIMACS text inline, or a stored CNF) keeping a DRAT proof. UNSATISFIABLE stores the CNF and the proof (proof_uri, parent: the CNF) for ${VERIFY_CAPABILITY_ID}, which replays it with an independent DRAT checker; SATISFIABLE returns a model, rechecked against every clause; UNKNOWN means the budget or the proof-size limit ended the search.`,
    tags: ['sat', 'unsat', 'cnf', 'dimacs', 'drat', 'proof', 'refutation', 'cadical', 'certificate'],
    keywords: ['UNSAT proof', 'proof of unsatisfiability', 'unsatisfiable', 'unsatisfiability', 'refutation', 'refute', 'DRAT', 'DRAT proof', 'resolution proof', 'CaDiCaL', 'certificate'],
    domain: 'sat',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [SAT_CNF_SCHEMA_URI],
    produced_artifact_types: [SAT_CNF_SCHEMA_URI, SAT_DRAT_SCHEMA_URI, SAT_MODEL_SCHEMA_URI],
    input: FindUnsatProofInput,
    output: FindUnsatProofOutput,
    examples: [
      { title: 'All four clauses over two variables', mode: 'EXPLORE', payload: { dimacs: SMALL_UNSAT_EXAMPLE } },
      { title: 'A satisfiable formula (answered with a model)', mode: 'EXPLORE', payload: { dimacs: SMALL_SAT_EXAMPLE } },
    ],
    relationships: [
      { kind: 'VERIFIED_BY', capability_id: VERIFY_CAPABILITY_ID },
      { kind: 'CONSUMES_OUTPUT_OF', capability_id: 'sat.cnf.materialize' },
    ],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the one formula given: a DRAT refutation of it, or a model of it.',
    limits: { max_inline_dimacs_length: MAX_INLINE_DIMACS_LENGTH, max_variables: SAT_LIMITS.maxVariables, max_proof_file_bytes: MAX_PROOF_FILE_BYTES },
    async run(input, context): Promise<CapabilityOutcome<FindUnsatProofOutput>> {
      const resolved = await resolveCnf(input, context);
      const { cnf } = resolved;
      const limit = context.artifacts.limits.maxPayloadBytes;
      const solved = await solveWithCadical(cnf, context, runtime, location, { maxBytes: MAX_PROOF_FILE_BYTES, readLimit: limit });
      const solver = { name: runtime.provider, version: runtime.version, result: solved.result, solve_ms: solved.solveMs, exit_code: solved.exitCode, stopped_by: solved.stoppedBy };
      const base = { variables: cnf.variables, clauses: cnf.clauseCount, solver };
      const inputUris = resolved.uri === null ? [] : [resolved.uri];
      const scope = { kind: 'EXACT_INPUT' as const, statement: `a refutation or a model of ${resolved.description}`, input_uris: inputUris };
      const diagnostics: Diagnostic[] = [];
      const notRetained = (what: string, why: string): void => {
        diagnostics.push({ severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED', stage: 'ARTIFACT', message: `the ${what} was not retained: ${why}`.slice(0, 2000), path: null, hint: 'raise the artifact store limits to keep the evidence' });
      };
      if (solved.result === 'SATISFIABLE') {
        const model = solved.model as number[];
        const { modelUri, cnfUri } = await storeModel(resolved, model, context, diagnostics);
        return {
          status: 'COMPLETED',
          output: { ...base, status: 'SATISFIABLE', cnf_uri: cnfUri, proof_uri: null, proof: null, model: inlineModel(cnf.variables, model, modelUri, diagnostics), model_uri: modelUri, reason: null },
          scope,
          completeness: { status: 'COMPLETE', basis: 'the formula is satisfiable: the model satisfies every clause' },
          qualifiers: ['EXACT'],
          assurance: { level: 'COMPUTED', basis: 'found by CaDiCaL; the model was rechecked against every clause by code independent of the solver', verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: modelUri !== null && cnfUri !== null ? [{ subject: modelUri, predicate: 'COMPUTED_FROM', object: cnfUri }] : [],
          artifact_uris: [modelUri, cnfUri].filter((uri): uri is string => uri !== null),
          diagnostics,
        };
      }
      if (solved.result === 'UNKNOWN' || solved.proof === null) {
        const reason =
          solved.stoppedBy === 'PROOF_LIMIT'
            ? `the DRAT proof grew beyond ${MAX_PROOF_FILE_BYTES} bytes, so the solver was stopped`
            : solved.stoppedBy === 'DEADLINE'
              ? `the solver was stopped after ${solved.solveMs} ms to stay within the wall-time budget`
              : 'CaDiCaL gave up without an answer';
        return {
          status: 'COMPLETED',
          output: { ...base, status: 'UNKNOWN', cnf_uri: resolved.uri, proof_uri: null, proof: null, model: null, model_uri: null, reason },
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
      const { text, bytes } = solved.proof;
      const shape = text === null ? null : dratShape(text);
      if (shape !== null && !shape.endsWithEmptyClause) {
        throw new JacobianError('PROVIDER_FAILED', 'cadical answered UNSATISFIABLE but its DRAT proof does not end with the empty clause; the result was discarded');
      }
      let cnfStored: StoredArtifact | { uri: string } | null = null;
      let proofStored: StoredArtifact | null = null;
      try {
        cnfStored = await storeCnf(resolved, context);
        if (text === null) notRetained('DRAT proof', `${bytes} bytes exceed the store's payload limit of ${limit}`);
        else {
          proofStored = await context.artifacts.put(
            {
              schema_uri: SAT_DRAT_SCHEMA_URI,
              semantics_uri: DRAT_REFUTATION_SEMANTICS_URI,
              payload: { format: 'DRAT_TEXT', proof: text, lines: (shape?.lemmas ?? 0) + (shape?.deletions ?? 0) },
              parents: [cnfStored.uri],
              summary: { bytes, lemmas: shape?.lemmas ?? 0, deletions: shape?.deletions ?? 0, solver: `cadical ${runtime.version}` },
            },
            { signal: context.signal },
          );
        }
      } catch (error) {
        const appError = toAppError(error);
        if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
        notRetained(cnfStored === null ? 'CNF and its proof' : 'DRAT proof', appError.message);
      }
      const cnfUri = cnfStored?.uri ?? null;
      const proofUri = proofStored?.uri ?? null;
      return {
        status: 'COMPLETED',
        output: {
          ...base,
          status: 'UNSATISFIABLE',
          cnf_uri: cnfUri,
          proof_uri: proofUri,
          proof: { format: 'DRAT_TEXT', bytes, lemmas: shape?.lemmas ?? 0, deletions: shape?.deletions ?? 0, ends_with_empty_clause: shape?.endsWithEmptyClause ?? false },
          model: null,
          model_uri: null,
          reason: null,
        },
        scope,
        completeness: { status: 'COMPLETE', basis: 'CaDiCaL refuted the formula and wrote a DRAT proof ending in the empty clause' },
        qualifiers: ['EXACT', 'EXHAUSTIVE'],
        assurance: {
          level: 'COMPUTED',
          basis: `UNSATISFIABLE by CaDiCaL with a DRAT proof ending in the empty clause; the proof is not replayed here (${VERIFY_CAPABILITY_ID} does that independently)`,
          verification_record_uri: null,
          checker_id: null,
        },
        obligations: [
          {
            id: 'drat-proof-check',
            statement: `The stored DRAT proof refutes the stored CNF: not yet checked by a checker independent of CaDiCaL (${VERIFY_CAPABILITY_ID}).`,
            status: 'OPEN',
            discharged_by: [],
          },
        ],
        relationships: proofUri !== null && cnfUri !== null ? [{ subject: proofUri, predicate: 'COMPUTED_FROM', object: cnfUri }] : [],
        artifact_uris: [proofUri, cnfUri].filter((uri): uri is string => uri !== null),
        diagnostics,
      };
    },
  };
}
