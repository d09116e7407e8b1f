/**
 * `universal_algebra.evaluate_laws`: which of the given laws hold in one finite algebra given
 * by its operation tables, checked exhaustively over every assignment of each law's
 * variables, with the first violating assignment (lexicographic order) of each law that fails.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  assignmentCounts,
  evaluateTerm,
  FiniteAlgebraSchema,
  JacobianError,
  parseLaws,
  printLaw,
  resolveSignature,
  runKernel,
  SignatureSchema,
  UNIVERSAL_ALGEBRA_LIMITS,
  validateAlgebra,
  type CapabilityDefinition,
  type InvocationExample,
} from '@jacobian/shared';
import { GROUP_LAWS, GROUP_SIGNATURE } from './example-signatures.js';

/** The capability ID. */
export const EVALUATE_LAWS_CAPABILITY_ID = 'universal_algebra.evaluate_laws';

const Int = z.number().int();
const Element = Int.min(0);

/** The law texts of a request, bounded in count and length. */
export const LawTextsSchema = z
  .array(z.string().min(1).max(UNIVERSAL_ALGEBRA_LIMITS.maxLawLength))
  .max(UNIVERSAL_ALGEBRA_LIMITS.maxLaws);

/** Input: a signature, laws over it, and one finite algebra of that signature. */
export const EvaluateLawsInput = z
  .object({
    signature: SignatureSchema,
    laws: LawTextsSchema.min(1).describe(
      'equations over the signature, e.g. "x * (y * z) = (x * y) * z", "e * x = x", "i(x) * x = e"; infix chains of one operator group to the left, different infix operators must be parenthesized',
    ),
    algebra: FiniteAlgebraSchema,
  })
  .strict();
export type EvaluateLawsInput = z.infer<typeof EvaluateLawsInput>;

/** An assignment of a law's variables to elements, by variable name. */
export const AssignmentSchema = z.record(z.string(), Element);

const LawResult = z
  .object({
    law: z.string().describe('the law as given'),
    parsed: z.string().describe('the law as parsed, printed with explicit parentheses'),
    variables: z.array(z.string()).describe('the law variables in order of first occurrence: the order of the lexicographic enumeration'),
    holds: z.boolean().describe('true when both sides agree under every assignment'),
    assignments: Int.describe('n^k: every assignment of the k variables'),
    assignments_checked: Int.describe('how many assignments were evaluated before the answer (all of them when the law holds)'),
    violating_assignment: AssignmentSchema.nullable().describe('the first violating assignment in lexicographic order (first variable most significant); null when the law holds'),
    left_value: Element.nullable().describe('value of the left side under the violating assignment'),
    right_value: Element.nullable().describe('value of the right side under the violating assignment'),
  })
  .strict();

/** Output: per law, holds or violated with its first violating assignment. */
export const EvaluateLawsOutput = z
  .object({
    order: Int,
    all_hold: z.boolean(),
    holding: Int.describe('how many of the laws hold'),
    violated: Int.describe('how many of the laws fail'),
    laws: z.array(LawResult),
  })
  .strict();
export type EvaluateLawsOutput = z.infer<typeof EvaluateLawsOutput>;

/** The kernel's answer, parsed again because it crossed a process boundary. */
const KernelOutput = z
  .object({
    results: z.array(
      z
        .object({
          holds: z.boolean(),
          assignmentsChecked: Int.min(1),
          violation: z.object({ assignment: AssignmentSchema, left: Element, right: Element }).strict().nullable(),
        })
        .strict(),
    ),
  })
  .strict();

const KERNEL = { module: fileURLToPath(new URL('./universal-algebra.kernel.ts', import.meta.url)), exportName: 'evaluateLawsKernel' };

const EXAMPLES: InvocationExample[] = [
  {
    title: 'The group axioms and commutativity in Z/3',
    mode: 'EXPLORE',
    payload: {
      signature: GROUP_SIGNATURE,
      laws: [...GROUP_LAWS, 'x * y = y * x'],
      algebra: { order: 3, tables: { '*': [[0, 1, 2], [1, 2, 0], [2, 0, 1]], e: 0, i: [0, 2, 1] } },
    },
  },
  {
    title: 'Subtraction modulo 3 is neither associative nor commutative',
    mode: 'EXPLORE',
    payload: {
      signature: { operations: [{ name: '-', arity: 2, infix: true }], variables: ['x', 'y', 'z'] },
      laws: ['x - (y - z) = (x - y) - z', 'x - y = y - x', 'x - x = y - y'],
      algebra: { order: 3, tables: { '-': [[0, 2, 1], [1, 0, 2], [2, 1, 0]] } },
    },
  },
];

/**
 * The evaluate_laws capability: our own TypeScript (parser and exhaustive evaluator), run in
 * the isolation pool.
 */
export const evaluateLawsCapability: CapabilityDefinition<EvaluateLawsInput, EvaluateLawsOutput> = {
  id: EVALUATE_LAWS_CAPABILITY_ID,
  version: '1.0.0',
  title: 'Check laws (equations) in a finite algebra given by tables',
  description:
    'Decides, for each law (an equation between terms over a declared signature of constants, unary and binary operations), whether it holds in one finite algebra of order n given by its operation tables, by evaluating both sides under all n^k assignments of its k variables. A failing law comes with its first violating assignment in lexicographic order and the two differing values.',
  tags: ['universal-algebra', 'equational-logic', 'finite-algebra', 'laws', 'identities', 'magma', 'group', 'exhaustive', 'exact'],
  keywords: ['check identities', 'check laws', 'does the law hold', 'operation table', 'Cayley table', 'multiplication table', 'finite algebra', 'magma', 'semigroup', 'monoid', 'group', 'quasigroup', 'loop', 'associative', 'associativity', 'commutative', 'commutativity', 'idempotent', 'identity element', 'equation', 'model checking'],
  domain: 'universal_algebra',
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [],
  input: EvaluateLawsInput,
  output: EvaluateLawsOutput,
  examples: EXAMPLES,
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the given laws in the one given finite algebra; it says nothing about other algebras, even of the same order.',
  limits: {
    max_order: UNIVERSAL_ALGEBRA_LIMITS.maxAlgebraOrder,
    max_operations: UNIVERSAL_ALGEBRA_LIMITS.maxOperations,
    max_variables: UNIVERSAL_ALGEBRA_LIMITS.maxVariables,
    max_laws: UNIVERSAL_ALGEBRA_LIMITS.maxLaws,
    max_law_length: UNIVERSAL_ALGEBRA_LIMITS.maxLawLength,
    max_term_depth: UNIVERSAL_ALGEBRA_LIMITS.maxTermDepth,
    max_law_nodes: UNIVERSAL_ALGEBRA_LIMITS.maxLawNodes,
    max_assignments_per_law: UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsPerLaw,
    max_assignments_total: UNIVERSAL_ALGEBRA_LIMITS.maxAssignmentsTotal,
    assignment_bound: 'n^k ≤ max_assignments_per_law for each law (n = order, k = its variables), and the sum over laws ≤ max_assignments_total',
  },
  async run(input, context) {
    // Everything is checked here, before the kernel, so errors name the request's paths.
    const signature = resolveSignature(input.signature, ['payload', 'signature']);
    const laws = parseLaws(input.laws, signature, ['payload', 'laws']);
    const algebra = validateAlgebra(signature, input.algebra, ['payload', 'algebra']);
    const counts = assignmentCounts(algebra.order, laws, ['payload', 'laws']);
    const { results } = KernelOutput.parse(await runKernel(context, KERNEL, { signature: input.signature, laws: input.laws, algebra: input.algebra }));
    if (results.length !== laws.length) throw new JacobianError('PROVIDER_FAILED', `the evaluator answered for ${results.length} of ${laws.length} laws`);
    const rows = laws.map((law, index) => {
      const result = results[index] as (typeof results)[number];
      const violation = result.violation;
      // A claimed violation is cheap to confirm with the plain recursive evaluator.
      if (
        violation !== null &&
        (evaluateTerm(algebra, law.left, violation.assignment) !== violation.left ||
          evaluateTerm(algebra, law.right, violation.assignment) !== violation.right ||
          violation.left === violation.right)
      ) {
        throw new JacobianError('PROVIDER_FAILED', `the violation reported for law ${index} did not recheck; the result was discarded`);
      }
      if (result.holds !== (violation === null) || (result.holds && result.assignmentsChecked !== counts[index])) {
        throw new JacobianError('PROVIDER_FAILED', `the evaluator's answer for law ${index} is inconsistent; the result was discarded`);
      }
      return {
        law: input.laws[index] as string,
        parsed: printLaw(law, signature),
        variables: [...law.variables],
        holds: result.holds,
        assignments: counts[index] as number,
        assignments_checked: result.assignmentsChecked,
        violating_assignment: violation?.assignment ?? null,
        left_value: violation?.left ?? null,
        right_value: violation?.right ?? null,
      };
    });
    const holding = rows.filter((row) => row.holds).length;
    return {
      status: 'COMPLETED',
      output: { order: algebra.order, all_hold: holding === rows.length, holding, violated: rows.length - holding, laws: rows },
      scope: {
        kind: 'EXACT_INPUT',
        statement: `the ${laws.length} given law${laws.length === 1 ? '' : 's'} in the one given algebra of order ${algebra.order}; nothing about other algebras`,
        input_uris: [],
      },
      completeness: {
        status: 'COMPLETE',
        basis: 'every law was evaluated under all n^k assignments of its variables until it held throughout or a violation was found',
      },
      qualifiers: ['EXACT', 'EXHAUSTIVE', 'DETERMINISTIC'],
      assurance: {
        level: 'COMPUTED',
        basis: 'exhaustive evaluation by our own parser and table evaluator (isolated); each violation rechecked by a separate recursive evaluation',
        verification_record_uri: null,
        checker_id: null,
      },
      obligations: [],
      relationships: [],
      artifact_uris: [],
      diagnostics: [],
    };
  },
};
