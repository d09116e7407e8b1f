/**
 * sat.cnf.materialize: validate a CNF (DIMACS text, or clauses as arrays) and store it as a typed
 * CNF artifact in normal form, so that the solvers and checkers can be handed its URI. Parsing
 * and writing are linear in the size of the formula, so it runs without isolation.
 */
import { z } from 'zod';
import { JacobianError, type CapabilityDefinition } from '@jacobian/shared';
import { MAX_INLINE_DIMACS_LENGTH } from './cnf-operand.js';
import { cnfFromClauses, parseDimacs, SAT_CNF_SCHEMA_URI, SAT_CNF_SEMANTICS_URI, SAT_LIMITS, serializeDimacs, type Cnf } from './sat-domain.js';

/** Most clauses accepted as JSON arrays (DIMACS text is denser; send that for larger formulas). */
export const MAX_JSON_CLAUSES = 200_000;

export const MaterializeCnfInput = z
  .object({
    dimacs: z.string().min(1).max(MAX_INLINE_DIMACS_LENGTH).optional().describe('the CNF as DIMACS text ("p cnf <variables> <clauses>", then clauses ended by 0)'),
    variables: z.number().int().min(0).max(SAT_LIMITS.maxVariables).optional().describe('with `clauses`: the number of variables; literals name 1 … variables'),
    clauses: z
      .array(z.array(z.number().int()).max(100_000))
      .max(MAX_JSON_CLAUSES)
      .optional()
      .describe('the clauses as arrays of non-zero integers (DIMACS literals), e.g. [[1, -2], [2, 3]]'),
    comment: z.string().max(2000).optional().describe('a comment written at the top of the stored DIMACS text (c lines)'),
  })
  .strict()
  .superRefine((input, ctx) => {
    const text = input.dimacs !== undefined;
    const arrays = input.clauses !== undefined || input.variables !== undefined;
    if (text === arrays) ctx.addIssue({ code: 'custom', path: [], message: 'give the CNF either as `dimacs` text or as `variables` and `clauses`, not both or neither' });
    else if (arrays && (input.clauses === undefined || input.variables === undefined)) {
      ctx.addIssue({ code: 'custom', path: [input.clauses === undefined ? 'clauses' : 'variables'], message: '`variables` and `clauses` go together' });
    }
  });
export type MaterializeCnfInput = z.infer<typeof MaterializeCnfInput>;

const Int = z.number().int();

export const MaterializeCnfOutput = z
  .object({
    cnf_uri: z.string().describe(`the stored CNF (${SAT_CNF_SCHEMA_URI}); equal formulas give the same URI`),
    variables: Int,
    clauses: Int,
    literals: Int.describe('literal occurrences over all clauses'),
    unit_clauses: Int,
    has_empty_clause: z.boolean().describe('an empty clause makes the formula trivially unsatisfiable'),
    max_clause_length: Int,
    dimacs_bytes: Int.describe('size of the stored normal-form DIMACS text'),
  })
  .strict();
export type MaterializeCnfOutput = z.infer<typeof MaterializeCnfOutput>;

function readInput(input: MaterializeCnfInput): Cnf {
  if (input.dimacs !== undefined) return parseDimacs(input.dimacs, ['payload', 'dimacs']);
  const clauses = input.clauses ?? [];
  const total = clauses.reduce((sum, clause) => sum + clause.length, 0);
  if (total > SAT_LIMITS.maxLiterals) throw new JacobianError('INVALID_REQUEST', `payload.clauses: ${total} literals exceed the limit of ${SAT_LIMITS.maxLiterals}`, { path: ['payload', 'clauses'] });
  return cnfFromClauses(input.variables ?? 0, clauses, ['payload', 'clauses']);
}

/** The sat.cnf.materialize capability (our TypeScript). */
export const materializeCnf: CapabilityDefinition<MaterializeCnfInput, MaterializeCnfOutput> = {
  id: 'sat.cnf.materialize',
  version: '1.0.0',
  title: 'Validate a CNF formula and store it as a DIMACS artifact',
  description:
    'Checks a propositional formula in conjunctive normal form — DIMACS text (header, clauses ended by 0, every literal naming a declared variable, the declared number of clauses) or clauses as integer arrays — and stores it as a CNF artifact in normal form (one clause per line). Pass the returned cnf_uri to sat.model.find, sat.unsat_proof.find and their checkers. A malformed formula is an error naming the line and the rule broken.',
  tags: ['sat', 'cnf', 'dimacs', 'propositional-logic', 'artifact', 'validation'],
  keywords: ['DIMACS', 'CNF', 'conjunctive normal form', 'clauses', 'SAT instance', 'parse a CNF', 'store a formula'],
  domain: 'sat',
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [SAT_CNF_SCHEMA_URI],
  input: MaterializeCnfInput,
  output: MaterializeCnfOutput,
  examples: [
    { title: 'A small formula as DIMACS text', mode: 'EXPLORE', payload: { dimacs: 'p cnf 3 3\n1 -2 0\n2 3 0\n-1 -3 0\n' } },
    { title: 'The same formula as arrays', mode: 'EXPLORE', payload: { variables: 3, clauses: [[1, -2], [2, 3], [-1, -3]], comment: 'three clauses' } },
  ],
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the one formula given: it is well formed, and the artifact holds the same clauses in the same order.',
  limits: { max_inline_dimacs_length: MAX_INLINE_DIMACS_LENGTH, max_json_clauses: MAX_JSON_CLAUSES, max_variables: SAT_LIMITS.maxVariables, max_literals: SAT_LIMITS.maxLiterals },
  async run(input, context) {
    const cnf = readInput(input);
    const dimacs = serializeDimacs(cnf, input.comment === undefined ? [] : [input.comment]);
    let units = 0;
    let empty = false;
    let longest = 0;
    for (let i = 0; i < cnf.clauseCount; i++) {
      const length = (cnf.offsets[i + 1] as number) - (cnf.offsets[i] as number);
      if (length === 1) units++;
      if (length === 0) empty = true;
      longest = Math.max(longest, length);
    }
    const stored = await context.artifacts.put(
      {
        schema_uri: SAT_CNF_SCHEMA_URI,
        semantics_uri: SAT_CNF_SEMANTICS_URI,
        payload: { format: 'DIMACS_CNF', variables: cnf.variables, clauses: cnf.clauseCount, dimacs },
        parents: [],
        summary: { variables: cnf.variables, clauses: cnf.clauseCount, literals: cnf.literals.length },
      },
      { signal: context.signal },
    );
    return {
      status: 'COMPLETED',
      output: {
        cnf_uri: stored.uri,
        variables: cnf.variables,
        clauses: cnf.clauseCount,
        literals: cnf.literals.length,
        unit_clauses: units,
        has_empty_clause: empty,
        max_clause_length: longest,
        dimacs_bytes: Buffer.byteLength(dimacs),
      },
      scope: { kind: 'EXACT_INPUT', statement: `the CNF with ${cnf.variables} variables and ${cnf.clauseCount} clauses given in the request`, input_uris: [] },
      completeness: { status: 'COMPLETE', basis: 'every clause was read, checked and stored' },
      qualifiers: ['EXACT', 'DETERMINISTIC'],
      assurance: { level: 'COMPUTED', basis: 'our strict DIMACS parser and serializer; the artifact store re-hashes what it stores', verification_record_uri: null, checker_id: null },
      obligations: [],
      relationships: [],
      artifact_uris: [stored.uri],
      diagnostics: [],
    };
  },
};
