/**
 * lp.problem.construct: a linear program from our JSON form, CPLEX LP text or free MPS text,
 * validated whole (every name, number, bound and size; text errors at their line and column)
 * before it is stored as the canonical problem artifact every LP capability takes as problem_uri.
 */
import { z } from 'zod';
import {
  canonicalLpProblem,
  inOwnTurn,
  LP_LIMITS,
  LP_PROBLEM_SCHEMA_URI,
  LP_PROBLEM_SEMANTICS_URI,
  LP_TEXT_LIMITS,
  LpProblemInputSchema,
  LpProblemSchema,
  lpShape,
  parseCplexLp,
  parseFreeMps,
  type CapabilityDefinition,
  type LpProblem,
  type LpProblemInput,
} from '@jacobian/shared';

export const LP_PROBLEM_CONSTRUCT_ID = 'lp.problem.construct';

const FIELDS = ['problem', 'lp_text', 'mps_text'] as const;

export const ConstructLpProblemInput = z
  .object({
    problem: LpProblemInputSchema.optional().describe('the problem in our JSON form'),
    lp_text: z.string().min(1).max(LP_TEXT_LIMITS.maxTextLength).optional().describe('the problem as CPLEX LP text (Minimize/Maximize, Subject To, Bounds, General, Binary, End)'),
    mps_text: z.string().min(1).max(LP_TEXT_LIMITS.maxTextLength).optional().describe('the problem as free MPS text (NAME, ROWS, COLUMNS, RHS, RANGES, BOUNDS, ENDATA)'),
  })
  .strict()
  .superRefine((input, ctx) => {
    const given = FIELDS.filter((field) => input[field] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: given.length > 1 ? [given[1] as string] : [],
        message: given.length === 0 ? 'give the problem as one of `problem` (JSON), `lp_text` (CPLEX LP) or `mps_text` (free MPS)' : `give only one of ${given.map((f) => `\`${f}\``).join(', ')}`,
      });
    }
  });
export type ConstructLpProblemInput = z.infer<typeof ConstructLpProblemInput>;

/** A stored problem is returned inline when its JSON is at most this long. */
const INLINE_PROBLEM_CHARS = 4096;

const SummarySchema = z
  .object({
    sense: z.enum(['minimize', 'maximize']),
    variables: z.number().int(),
    rows: z.number().int(),
    nonzeros: z.number().int().describe('non-zero coefficients in the rows'),
    objective_nonzeros: z.number().int(),
    integer_variables: z.number().int(),
    free_variables: z.number().int().describe('variables with neither bound'),
  })
  .strict();

export const ConstructLpProblemOutput = z
  .object({
    problem_uri: z.string().describe('the stored problem, to pass as problem_uri to lp.solve, milp.solve and the LP checkers'),
    format: z.enum(['json', 'cplex_lp', 'free_mps']).describe('the form the problem was read from'),
    summary: SummarySchema,
    problem: LpProblemSchema.optional().describe(`the canonical problem as stored, when its JSON is at most ${INLINE_PROBLEM_CHARS} characters`),
  })
  .strict();
export type ConstructLpProblemOutput = z.infer<typeof ConstructLpProblemOutput>;

/** Texts longer than this are read, and problems this large canonicalized, in a turn of the event loop of their own. */
const LARGE_INPUT_CHARS = 65_536;

function readInput(input: ConstructLpProblemInput): { problem: LpProblem; format: ConstructLpProblemOutput['format'] } {
  if (input.lp_text !== undefined) return { problem: canonicalLpProblem(parseCplexLp(input.lp_text, { path: ['payload', 'lp_text'] }), ['payload', 'lp_text']), format: 'cplex_lp' };
  if (input.mps_text !== undefined) return { problem: canonicalLpProblem(parseFreeMps(input.mps_text, { path: ['payload', 'mps_text'] }), ['payload', 'mps_text']), format: 'free_mps' };
  return { problem: canonicalLpProblem(input.problem as LpProblemInput, ['payload', 'problem']), format: 'json' };
}

function summarize(problem: LpProblem): z.infer<typeof SummarySchema> {
  return {
    sense: problem.sense,
    variables: problem.variables.length,
    rows: problem.constraints.length,
    nonzeros: problem.constraints.reduce((sum, row) => sum + Object.keys(row.coefficients).length, 0),
    objective_nonzeros: Object.keys(problem.objective).length,
    integer_variables: problem.variables.filter((v) => v.integer).length,
    free_variables: problem.variables.filter((v) => v.lower === null && v.upper === null).length,
  };
}

export const constructLpProblem: CapabilityDefinition<ConstructLpProblemInput, ConstructLpProblemOutput> = {
  id: LP_PROBLEM_CONSTRUCT_ID,
  version: '1.0.0',
  title: 'Store a linear program (JSON, CPLEX LP or MPS)',
  description: `Reads a linear or mixed-integer program from our JSON form, CPLEX LP text or free MPS text with strict parsers of our own (exact rational numbers, never floating point; an error names the line, column and rule), validates all of it (names, numbers, bounds, at most ${LP_LIMITS.maxVariables} variables, ${LP_LIMITS.maxConstraints} rows, ${LP_LIMITS.maxNonzeros} non-zeros) before writing anything, and stores the canonical problem as an artifact for problem_uri. MPS ranged rows become two rows (name and name_range).`,
  tags: ['linear-programming', 'optimization', 'construction', 'artifact', 'parser'],
  keywords: [
    'store a linear program',
    'read an MPS file',
    'parse MPS',
    'free MPS format',
    'CPLEX LP format',
    'parse an LP file',
    'linear program',
    'mixed integer program',
    'MILP',
    'LP problem from text',
    'objective and constraints',
    'import an optimization model',
  ],
  domain: 'optimization',
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [LP_PROBLEM_SCHEMA_URI],
  input: ConstructLpProblemInput,
  output: ConstructLpProblemOutput,
  examples: [
    { title: 'A small LP in CPLEX LP text', mode: 'EXPLORE', payload: { lp_text: 'Maximize\n obj: 3 x + 2 y\nSubject To\n c1: x + y <= 4\n c2: x + 3 y <= 6\nBounds\n x <= 3\nEnd\n' } },
    {
      title: 'The same LP in free MPS',
      mode: 'EXPLORE',
      payload: { mps_text: 'NAME small\nOBJSENSE\n MAX\nROWS\n N obj\n L c1\n L c2\nCOLUMNS\n x obj 3 c1 1\n x c2 1\n y obj 2 c1 1\n y c2 3\nRHS\n RHS c1 4 c2 6\nBOUNDS\n UP BND x 3\nENDATA\n' },
    },
    {
      title: 'An integer program in JSON',
      mode: 'EXPLORE',
      payload: { problem: { sense: 'minimize', variables: [{ name: 'x', integer: true }, { name: 'y', lower: '1/2', upper: 10 }], objective: { x: 2, y: '0.5' }, constraints: [{ name: 'cover', coefficients: { x: 1, y: 1 }, relation: '>=', rhs: 3 }] } },
    },
  ],
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the supplied problem; the artifact is that one problem in canonical form.',
  limits: { max_variables: LP_LIMITS.maxVariables, max_constraints: LP_LIMITS.maxConstraints, max_nonzeros: LP_LIMITS.maxNonzeros, max_text_length: LP_TEXT_LIMITS.maxTextLength },
  async run(input, context) {
    const size = (input.lp_text ?? input.mps_text ?? '').length + (input.problem === undefined ? 0 : input.problem.variables.length * 32 + input.problem.constraints.length * 64);
    const { problem, format } = size > LARGE_INPUT_CHARS ? await inOwnTurn(() => readInput(input)) : readInput(input);
    const summary = summarize(problem);
    const stored = await context.artifacts.put(
      { schema_uri: LP_PROBLEM_SCHEMA_URI, semantics_uri: LP_PROBLEM_SEMANTICS_URI, payload: problem, parents: [], summary: { ...summary } },
      { signal: context.signal },
    );
    const inline = JSON.stringify(problem).length <= INLINE_PROBLEM_CHARS;
    return {
      status: 'COMPLETED',
      output: { problem_uri: stored.uri, format, summary, ...(inline ? { problem } : {}) },
      scope: { kind: 'EXACT_INPUT', statement: `the ${lpShape(problem)} as supplied${format === 'json' ? '' : ` in ${format === 'cplex_lp' ? 'CPLEX LP' : 'free MPS'} text`}`, input_uris: [] },
      completeness: { status: 'COMPLETE', basis: 'every name, number, bound and size was validated, and the problem canonicalized and stored' },
      qualifiers: ['EXACT', 'DETERMINISTIC'],
      assurance: { level: 'COMPUTED', basis: 'read by our strict parsers and canonicalized by the LP problem contract', verification_record_uri: null, checker_id: null },
      obligations: [],
      relationships: [],
      artifact_uris: [stored.uri],
      diagnostics: [],
    };
  },
};
