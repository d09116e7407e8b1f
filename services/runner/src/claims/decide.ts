/**
 * claim.propositional.decide: whether a propositional formula F is VALID, SATISFIABLE (but not
 * valid) or UNSATISFIABLE. F and ¬F are Tseitin-encoded to CNF and decided by CaDiCaL (with a
 * DRAT proof kept) or, when CaDiCaL is absent, by our TypeScript CDCL solver (no proof). A
 * satisfying or falsifying assignment is rechecked by evaluating F itself before it is returned.
 * A refutation (of ¬F for VALID, of F for UNSATISFIABLE) is stored as a CNF artifact (its
 * encoding names the stored formula, its parent) and a DRAT artifact whose parent is the CNF. The
 * verdict is COMPUTED: its two obligations (the CNF soundly encodes ¬F or F; the proof refutes the
 * CNF) stay open here. claim.propositional.verify discharges both from the stored formula and can
 * make the verdict VERIFIED; sat.unsat_proof.verify alone shows only that the CNF is unsatisfiable.
 */
import { z } from 'zod';
import {
  JacobianError,
  toAppError,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type Diagnostic,
  type Obligation,
  type ProviderRuntime,
} from '@jacobian/shared';
import type { CadicalLocation } from '../providers/cadical.js';
import { DRAT_REFUTATION_SEMANTICS_URI, SAT_CNF_SCHEMA_URI, SAT_CNF_SEMANTICS_URI, SAT_DRAT_SCHEMA_URI, serializeDimacs } from '../sat/sat-domain.js';
import { isCadical, solveWithCadical, solveWithTypescript, type SolveOutcome } from '../sat/solve.js';
import { dratShape, MAX_PROOF_FILE_BYTES } from '../sat/unsat-proof-find.js';
import { exactlyOneFormula, formulaOperandShape, resolveFormula, structureUriOf } from './formula-operand.js';
import { atomAssignment, evaluatePropositional, PROPOSITIONAL_LIMITS, PROPOSITIONAL_STRUCTURE_SCHEMA_URI, tseitin, type TseitinEncoding, type TseitinTarget } from './propositional-domain.js';

export const DECIDE_CAPABILITY_ID = 'claim.propositional.decide';
/**
 * The provider name of decide's fallback: our TypeScript CDCL solver with this claim code (its
 * own name, so that its digest covers the claim files as well as the solver's).
 */
export const CLAIMS_DECIDE_TS_PROVIDER = 'jacobian-claims-decide-ts';
/** The checker that replays a stored refutation: it proves only that the CNF is unsatisfiable. */
export const REFUTATION_VERIFY_CAPABILITY_ID = 'sat.unsat_proof.verify';
/** The checker of the verdict itself: the encoding against the stored formula, then the refutation. */
export const VERDICT_VERIFY_CAPABILITY_ID = 'claim.propositional.verify';

export const DecideInput = z.object({ ...formulaOperandShape }).strict().superRefine(exactlyOneFormula);
export type DecideInput = z.infer<typeof DecideInput>;

const Int = z.number().int().min(0);
const Assignment = z.record(z.string(), z.boolean());

export const Verdict = { VALID: 'VALID', SATISFIABLE: 'SATISFIABLE', UNSATISFIABLE: 'UNSATISFIABLE', UNKNOWN: 'UNKNOWN' } as const;

const EncodingReport = z.object({ target: z.enum(['FORMULA', 'NEGATION']), variables: Int, clauses: Int, solver_result: z.enum(['SATISFIABLE', 'UNSATISFIABLE', 'UNKNOWN']), solve_ms: Int }).strict();

export const DecideOutput = z
  .object({
    verdict: z.enum(Verdict).describe('VALID (true under every assignment), SATISFIABLE (true under some, false under some), UNSATISFIABLE (true under none), or UNKNOWN (the budget ended first)'),
    atoms: z.array(z.string()),
    structure_uri: z.string().describe('the stored formula the verdict is about'),
    model: Assignment.nullable().describe('VALID or SATISFIABLE: an assignment of the atoms making the formula true (rechecked by evaluating it)'),
    falsifying_assignment: Assignment.nullable().describe('SATISFIABLE: an assignment making the formula false (rechecked by evaluating it)'),
    refutation: z
      .object({
        of: z.enum(['FORMULA', 'NEGATION']).describe('NEGATION for VALID (¬F has no model), FORMULA for UNSATISFIABLE'),
        cnf_uri: z.string().nullable().describe(`the Tseitin CNF refuted (${SAT_CNF_SCHEMA_URI}); its payload's encoding field maps atoms to variables`),
        proof_uri: z.string().nullable().describe(`the DRAT proof (${SAT_DRAT_SCHEMA_URI}, parent: the CNF); null when the solver kept none`),
        proof: z.object({ format: z.literal('DRAT_TEXT'), bytes: Int, lemmas: Int, deletions: Int }).strict().nullable(),
        verify_with: z.string().nullable().describe(`the checker of the verdict itself (pass proof_uri): ${VERDICT_VERIFY_CAPABILITY_ID} checks the encoding against the formula and replays the proof; ${REFUTATION_VERIFY_CAPABILITY_ID} would show only that the CNF is unsatisfiable`),
      })
      .strict()
      .nullable(),
    encodings: z.array(EncodingReport).describe('each CNF decided, in order'),
    solver: z.object({ name: z.string(), version: z.string(), drat_proofs: z.boolean() }).strict(),
    reason: z.string().nullable().describe('UNKNOWN: why there is no verdict'),
  })
  .strict();
export type DecideOutput = z.infer<typeof DecideOutput>;

/** A recheck of an assignment against the formula itself; a disagreement discards the answer. */
function checkedAssignment(formula: Parameters<typeof evaluatePropositional>[0], assignment: Record<string, boolean>, expected: boolean, who: string): Record<string, boolean> {
  if (evaluatePropositional(formula, assignment) !== expected) {
    throw new JacobianError('PROVIDER_FAILED', `${who} gave an assignment that makes the formula ${expected ? 'false' : 'true'} on direct evaluation; the result was discarded`);
  }
  return assignment;
}

/**
 * The claim.propositional.decide capability on cadical's runtime (DRAT proofs kept) or our
 * TypeScript solver's (no proofs).
 *
 * @throws JacobianError REGISTRATION_INVALID for any other runtime.
 */
export function decidePropositional(runtime: ProviderRuntime, location: CadicalLocation = {}): CapabilityDefinition<DecideInput, DecideOutput> {
  const cadical = isCadical(runtime);
  if (!cadical && runtime.provider !== CLAIMS_DECIDE_TS_PROVIDER) throw new JacobianError('REGISTRATION_INVALID', `${DECIDE_CAPABILITY_ID} runs on cadical or ${CLAIMS_DECIDE_TS_PROVIDER}, not ${runtime.provider}`);
  const solverName = cadical ? 'CaDiCaL' : 'our TypeScript CDCL solver';
  const solve = async (cnf: TseitinEncoding['cnf'], context: CapabilityContext): Promise<SolveOutcome> =>
    cadical ? solveWithCadical(cnf, context, runtime, location, { maxBytes: MAX_PROOF_FILE_BYTES, readLimit: context.artifacts.limits.maxPayloadBytes }) : solveWithTypescript(cnf, context);

  return {
    id: DECIDE_CAPABILITY_ID,
    version: '1.0.0',
    title: 'Decide whether a propositional formula is valid, satisfiable or unsatisfiable',
    description: `Decides a propositional formula (text, tree or stored structure) by Tseitin-encoding it and its negation to CNF and running ${solverName}. VALID and UNSATISFIABLE come with the refuted CNF stored${cadical ? ` and a DRAT proof (proof_uri, parent: the CNF) for ${VERDICT_VERIFY_CAPABILITY_ID}, which checks the encoding against the formula and replays the proof (VERIFIED)` : ' but no proof (CaDiCaL is not installed)'}; SATISFIABLE comes with a model and a falsifying assignment of the atoms, each rechecked by evaluating the formula. Here the verdict is COMPUTED: the encoding's soundness and the proof stay open obligations until checked.`,
    tags: ['claim', 'propositional-logic', 'validity', 'satisfiability', 'tautology', 'tseitin', 'sat', 'drat', cadical ? 'cadical' : 'cdcl'],
    keywords: ['tautology', 'validity', 'valid formula', 'is it valid', 'satisfiable', 'unsatisfiable', 'contradiction', 'propositional logic', 'truth table', 'boolean formula', 'entailment', 'logical equivalence', 'UNSAT proof', 'DRAT'],
    domain: 'logic',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [PROPOSITIONAL_STRUCTURE_SCHEMA_URI],
    produced_artifact_types: [PROPOSITIONAL_STRUCTURE_SCHEMA_URI, SAT_CNF_SCHEMA_URI, SAT_DRAT_SCHEMA_URI],
    input: DecideInput,
    output: DecideOutput,
    examples: [
      { title: 'Peirce’s law (valid)', mode: 'EXPLORE', payload: { formula: '((p -> q) -> p) -> p' } },
      { title: 'A contingent formula', mode: 'EXPLORE', payload: { formula: '(p | q) & (p -> r)' } },
      { title: 'A contradiction', mode: 'EXPLORE', payload: { formula: '(p <-> !q) & (p <-> q)' } },
    ],
    relationships: [
      { kind: 'VERIFIED_BY', capability_id: VERDICT_VERIFY_CAPABILITY_ID },
      { kind: 'VERIFIED_BY', capability_id: REFUTATION_VERIFY_CAPABILITY_ID },
      { kind: 'CONSUMES_OUTPUT_OF', capability_id: 'claim.validate' },
    ],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the one formula given, over its own atoms: valid, satisfiable or unsatisfiable; nothing about other formulas.',
    limits: { ...PROPOSITIONAL_LIMITS, max_proof_file_bytes: MAX_PROOF_FILE_BYTES },
    async run(input, context): Promise<CapabilityOutcome<DecideOutput>> {
      const resolved = await resolveFormula(input, context);
      const { formula } = resolved;
      const structureUri = await structureUriOf(resolved, context);
      const diagnostics: Diagnostic[] = [];
      const encodings: z.infer<typeof EncodingReport>[] = [];
      const decideOne = async (target: TseitinTarget): Promise<{ encoding: TseitinEncoding; solved: SolveOutcome }> => {
        const encoding = tseitin(formula, target);
        const solved = await solve(encoding.cnf, context);
        encodings.push({ target, variables: encoding.cnf.variables, clauses: encoding.cnf.clauseCount, solver_result: solved.result, solve_ms: Math.max(0, Math.round(solved.solveMs)) });
        return { encoding, solved };
      };
      const positive = await decideOne('FORMULA');
      const atoms = positive.encoding.atoms;
      const base = { atoms, structure_uri: structureUri, solver: { name: runtime.provider, version: runtime.version, drat_proofs: cadical } };
      const scope = { kind: 'EXACT_INPUT' as const, statement: `whether ${resolved.description} is valid, satisfiable or unsatisfiable`, input_uris: resolved.uri === null ? [] : [resolved.uri] };
      const unknown = (reason: string, model: Record<string, boolean> | null): CapabilityOutcome<DecideOutput> => ({
        status: 'COMPLETED',
        output: { ...base, verdict: 'UNKNOWN', model, falsifying_assignment: null, refutation: null, encodings, reason },
        scope,
        completeness: { status: 'UNKNOWN', basis: reason },
        qualifiers: ['BOUNDED'],
        assurance: { level: 'HEURISTIC', basis: 'no verdict: the search stopped before an answer', verification_record_uri: null, checker_id: null },
        obligations: [],
        relationships: [],
        artifact_uris: [structureUri],
        diagnostics: [...diagnostics, { severity: 'WARNING', code: 'BUDGET_EXHAUSTED', stage: 'EXECUTION', message: reason, path: null, hint: 'raise budget.wall_time_ms' }],
      });
      const stopped = (solved: SolveOutcome): string =>
        solved.stoppedBy === 'DEADLINE' ? `the solver was stopped after ${solved.solveMs} ms to stay within the wall-time budget` : solved.stoppedBy === 'PROOF_LIMIT' ? `the DRAT proof grew beyond ${MAX_PROOF_FILE_BYTES} bytes` : `${solverName} gave up without an answer`;

      if (positive.solved.result === 'UNKNOWN') return unknown(`satisfiability undecided: ${stopped(positive.solved)}`, null);
      if (positive.solved.result === 'UNSATISFIABLE') return refuted('UNSATISFIABLE', positive.encoding, positive.solved);
      const model = checkedAssignment(formula, atomAssignment(positive.encoding, positive.solved.model as number[]), true, solverName);
      const negative = await decideOne('NEGATION');
      if (negative.solved.result === 'UNKNOWN') return unknown(`satisfiable (a model is given), but validity undecided: ${stopped(negative.solved)}`, model);
      if (negative.solved.result === 'UNSATISFIABLE') return refuted('VALID', negative.encoding, negative.solved, model);
      const falsifying = checkedAssignment(formula, atomAssignment(negative.encoding, negative.solved.model as number[]), false, solverName);
      return {
        status: 'COMPLETED',
        output: { ...base, verdict: 'SATISFIABLE', model, falsifying_assignment: falsifying, refutation: null, encodings, reason: null },
        scope,
        completeness: { status: 'COMPLETE', basis: 'one assignment makes the formula true and another makes it false, both checked by evaluating the formula' },
        qualifiers: ['EXACT'],
        assurance: { level: 'COMPUTED', basis: `found by ${solverName} on Tseitin encodings; both assignments were rechecked by evaluating the formula itself, independently of the encoding and the solver`, verification_record_uri: null, checker_id: null },
        obligations: [],
        relationships: [],
        artifact_uris: [structureUri],
        diagnostics,
      };

      /** VALID (¬F refuted) or UNSATISFIABLE (F refuted): store the CNF and, with CaDiCaL, its DRAT proof. */
      async function refuted(verdict: 'VALID' | 'UNSATISFIABLE', encoding: TseitinEncoding, solved: SolveOutcome, satisfying: Record<string, boolean> | null = null): Promise<CapabilityOutcome<DecideOutput>> {
        const notRetained = (what: string, why: string): void => {
          diagnostics.push({ severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED', stage: 'ARTIFACT', message: `the ${what} was not retained: ${why}`.slice(0, 2000), path: null, hint: 'raise the artifact store limits to keep the evidence' });
        };
        const text = solved.proof?.text ?? null;
        const shape = text === null ? null : dratShape(text);
        if (shape !== null && !shape.endsWithEmptyClause) throw new JacobianError('PROVIDER_FAILED', `${solverName} answered UNSATISFIABLE but its DRAT proof does not end with the empty clause; the result was discarded`);
        let cnfUri: string | null = null;
        let proofUri: string | null = null;
        try {
          const cnfStored = await context.artifacts.put(
            {
              schema_uri: SAT_CNF_SCHEMA_URI,
              semantics_uri: SAT_CNF_SEMANTICS_URI,
              payload: {
                format: 'DIMACS_CNF',
                variables: encoding.cnf.variables,
                clauses: encoding.cnf.clauseCount,
                dimacs: serializeDimacs(encoding.cnf, [`Tseitin encoding of the ${encoding.target === 'NEGATION' ? 'negation of the ' : ''}formula ${structureUri}`]),
                encoding: { kind: 'TSEITIN', target: encoding.target, structure_uri: structureUri, atom_variables: encoding.atomVariables, root_literal: encoding.rootLiteral },
              },
              parents: [structureUri],
              summary: { variables: encoding.cnf.variables, clauses: encoding.cnf.clauseCount, encoding: 'TSEITIN', target: encoding.target },
            },
            { signal: context.signal },
          );
          cnfUri = cnfStored.uri;
          if (solved.proof !== null && text === null) notRetained('DRAT proof', `${solved.proof.bytes} bytes exceed the store's payload limit`);
          if (text !== null) {
            const proofStored = await context.artifacts.put(
              {
                schema_uri: SAT_DRAT_SCHEMA_URI,
                semantics_uri: DRAT_REFUTATION_SEMANTICS_URI,
                payload: { format: 'DRAT_TEXT', proof: text, lines: (shape?.lemmas ?? 0) + (shape?.deletions ?? 0) },
                parents: [cnfStored.uri],
                summary: { bytes: solved.proof?.bytes ?? 0, lemmas: shape?.lemmas ?? 0, deletions: shape?.deletions ?? 0, solver: `cadical ${runtime.version}` },
              },
              { signal: context.signal },
            );
            proofUri = proofStored.uri;
          }
        } catch (error) {
          const appError = toAppError(error);
          if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
          notRetained(cnfUri === null ? 'Tseitin CNF and its proof' : 'DRAT proof', appError.message);
        }
        const ofWhat = verdict === 'VALID' ? 'the negation of the formula' : 'the formula';
        const obligations: Obligation[] = [
          {
            id: 'tseitin-encoding-soundness',
            statement: `The stored CNF is satisfiable if ${ofWhat} is (the Tseitin encoding is sound): rests here on our encoder's construction and tests; ${proofUri !== null ? `${VERDICT_VERIFY_CAPABILITY_ID} with proof_uri checks it clause by clause against the stored formula` : 'no proof was kept, so no checker can close the chain'}.`,
            status: 'OPEN',
            discharged_by: proofUri !== null ? [VERDICT_VERIFY_CAPABILITY_ID] : [],
          },
          proofUri !== null
            ? { id: 'drat-proof-check', statement: `The stored DRAT proof refutes the stored CNF: not yet checked by a checker independent of CaDiCaL (${VERDICT_VERIFY_CAPABILITY_ID} with proof_uri checks it with the encoding; ${REFUTATION_VERIFY_CAPABILITY_ID} checks it alone).`, status: 'OPEN', discharged_by: [VERDICT_VERIFY_CAPABILITY_ID, REFUTATION_VERIFY_CAPABILITY_ID] }
            : { id: 'unsat-certificate', statement: `No refutation proof was kept (${cadical ? 'it could not be stored' : 'CaDiCaL is not installed; our TypeScript solver kept none'}): the verdict rests on ${solverName} alone.`, status: 'OPEN', discharged_by: [] },
        ];
        const proof = shape === null ? null : { format: 'DRAT_TEXT' as const, bytes: solved.proof?.bytes ?? 0, lemmas: shape.lemmas, deletions: shape.deletions };
        return {
          status: 'COMPLETED',
          output: {
            ...base,
            verdict,
            model: satisfying,
            falsifying_assignment: null,
            refutation: { of: encoding.target, cnf_uri: cnfUri, proof_uri: proofUri, proof, verify_with: proofUri === null ? null : VERDICT_VERIFY_CAPABILITY_ID },
            encodings,
            reason: null,
          },
          scope,
          completeness: { status: 'COMPLETE', basis: `${solverName} found the Tseitin CNF of ${ofWhat} unsatisfiable${verdict === 'VALID' ? ', and a model of the formula was checked by evaluation' : ''}` },
          qualifiers: ['EXACT', 'EXHAUSTIVE'],
          assurance: {
            level: 'COMPUTED',
            basis: `${verdict} because ${solverName} refuted the Tseitin CNF of ${ofWhat}${proofUri !== null ? `; neither the encoding nor the DRAT proof is checked here (${VERDICT_VERIFY_CAPABILITY_ID} checks both independently)` : ', without a kept proof'}`,
            verification_record_uri: null,
            checker_id: null,
          },
          obligations,
          relationships: [
            ...(cnfUri !== null ? [{ subject: cnfUri, predicate: 'DERIVED_FROM' as const, object: structureUri }] : []),
            ...(proofUri !== null && cnfUri !== null ? [{ subject: proofUri, predicate: 'COMPUTED_FROM' as const, object: cnfUri }] : []),
          ],
          artifact_uris: [structureUri, cnfUri, proofUri].filter((uri): uri is string => uri !== null),
          diagnostics,
        };
      }
    },
  };
}
